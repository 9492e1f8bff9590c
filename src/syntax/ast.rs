//! The abstract syntax tree of a `.puz` file, every node carrying its span.

use super::span::Span;

/// A name as written, with where.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// An integer literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Int {
    pub value: i64,
    pub span: Span,
}

/// A string literal after escapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Str {
    pub value: String,
    pub span: Span,
}

/// A `(row, column)` offset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Offset {
    pub dr: i64,
    pub dc: i64,
    pub span: Span,
}

/// A whole file: its declarations in source order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    pub items: Vec<Item>,
}

/// One top-level declaration. `span` covers the whole declaration, `keyword` its first word.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub keyword: Span,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    Puzzle(Str),
    Tiles(Vec<TileDef>),
    Outside(Name),
    Marks(Vec<MarkDef>),
    Piece(PieceDecl),
    Legend(Vec<LegendEntry>),
    Dirs(Vec<DirDef>),
    Cost(Vec<Name>),
    Limit(Int),
    Move(MoveDecl),
    Forbid(ForbidDecl),
    Goal(Vec<GoalCond>),
    Level(LevelDecl),
    Judge(Vec<JudgeStmt>),
}

/// `target` or `target single`.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkDef {
    pub name: Name,
    pub single: bool,
}

/// `floor` or `block -> floor`.
#[derive(Clone, Debug, PartialEq)]
pub struct TileDef {
    pub name: Name,
    pub becomes: Option<Name>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    pub name: Name,
    pub anonymous: bool,
    /// `None` when written without braces: one pose covering its anchor.
    pub poses: Option<Vec<PoseDef>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PoseDef {
    pub name: Name,
    pub cells: Vec<Offset>,
    /// The braces, for "empty footprint" reports.
    pub body: Span,
}

/// A legend symbol.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyValue {
    Char(char),
    Int(i64),
}

impl std::fmt::Display for KeyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyValue::Char(c) => write!(f, "'{c}'"),
            KeyValue::Int(i) => write!(f, "{i}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub key: KeyValue,
    pub key_span: Span,
    pub tile: Name,
    /// Pieces and marks the symbol also places.
    pub extras: Vec<Name>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DirDef {
    pub name: Name,
    pub step: Offset,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveDecl {
    pub name: Name,
    pub param: Name,
    pub body: Vec<MoveStmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveStmt {
    pub kind: MoveStmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MoveStmtKind {
    Letters(Str),
    Adds(Vec<Name>),
    Require(Condition),
    Forbid(Condition),
    Shift {
        piece: Name,
        negate: bool,
        dir: Name,
    },
    Swap {
        piece: Name,
        dir: Name,
    },
    Turn {
        piece: Name,
        rules: Vec<TurnRule>,
    },
    Slide {
        piece: Name,
        dir: Name,
        rules: Vec<SlideRule>,
    },
}

/// `WHAT at PIECE [+|- d]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub what: Name,
    pub cell: CellExpr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CellExpr {
    pub piece: Name,
    /// `Some((negated, dir))` for `piece + d` / `piece - d`.
    pub step: Option<(bool, Name)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TurnRule {
    pub from: Name,
    pub dir: Name,
    pub to: Name,
    pub offset: Offset,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SlideRule {
    pub event: SlideEvent,
    pub actions: Vec<(SlideAction, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SlideEvent {
    Into(Name),
    Before(Name),
    OffBoard(Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideAction {
    Stop,
    Break,
    Lose,
}

/// `forbid PIECE[.POSE] on TILE`.
#[derive(Clone, Debug, PartialEq)]
pub struct ForbidDecl {
    pub piece: PieceRef,
    pub tile: Name,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PieceRef {
    pub piece: Name,
    pub pose: Option<Name>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GoalCond {
    pub piece: PieceRef,
    pub on: Name,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GridForm {
    Chars,
    Ints,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LevelDecl {
    pub name: Str,
    pub form: Option<GridForm>,
    /// The rows, indentation removed.
    pub rows: Vec<String>,
    /// Byte offset in the source of each row's first character (after removed indentation).
    pub row_starts: Vec<u32>,
    pub text: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JudgeStmt {
    pub kind: JudgeStmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderField {
    Rows,
    Cols,
    Queries,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved,
    Unsolved,
    Invalid,
}

#[derive(Clone, Debug, PartialEq)]
pub enum JudgeStmtKind {
    /// `cases until 0 0`
    CasesUntil(Vec<Int>),
    /// `cases once`
    CasesOnce,
    Header(Vec<(HeaderField, Span)>),
    Grid(GridForm),
    Query(Vec<Name>),
    Base(Int),
    Print(Outcome, Str),
}
