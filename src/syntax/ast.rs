//! The abstract syntax tree of a `.puz` file, every node carrying its span.

use super::span::Span;

/// A name as written, with where.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// The name's characters.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// An integer literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Int {
    /// The value, within the range its place allows.
    pub value: i64,
    /// Where it was written.
    pub span: Span,
}

/// A string literal after escapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Str {
    /// The text with escapes resolved.
    pub value: String,
    /// The literal, quotes included.
    pub span: Span,
}

/// A `(row, column)` offset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Offset {
    /// Row offset.
    pub dr: i64,
    /// Column offset.
    pub dc: i64,
    /// The parenthesised pair.
    pub span: Span,
}

/// A whole file: its declarations in source order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    /// Declarations in source order.
    pub items: Vec<Item>,
}

/// One top-level declaration. `span` covers the whole declaration, `keyword` its first word.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Which declaration, with its contents.
    pub kind: ItemKind,
    /// The declaration's first word.
    pub keyword: Span,
    /// The whole declaration.
    pub span: Span,
}

/// The declarations of the language, one variant per keyword.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// `puzzle "Name"`
    Puzzle(Str),
    /// `tiles { ... }`
    Tiles(Vec<TileDef>),
    /// `outside wall`
    Outside(Name),
    /// `marks { ... }`
    Marks(Vec<MarkDef>),
    /// `piece ...`
    Piece(PieceDecl),
    /// `legend { ... }`
    Legend(Vec<LegendEntry>),
    /// `dirs { ... }`
    Dirs(Vec<DirDef>),
    /// `cost a, b`
    Cost(Vec<Name>),
    /// `limit 10`
    Limit(Int),
    /// `move name(d) { ... }`
    Move(MoveDecl),
    /// `forbid piece on tile`
    Forbid(ForbidDecl),
    /// `goal piece on place and ...`
    Goal(Vec<GoalCond>),
    /// `level "name" """..."""`
    Level(LevelDecl),
    /// `judge { ... }`
    Judge(Vec<JudgeStmt>),
}

/// `target` or `target single`.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkDef {
    /// The mark's name.
    pub name: Name,
    /// Declared `single`: exactly one per level.
    pub single: bool,
}

/// `floor` or `block -> floor`.
#[derive(Clone, Debug, PartialEq)]
pub struct TileDef {
    /// The tile's name.
    pub name: Name,
    /// What it turns into when broken (`-> floor`).
    pub becomes: Option<Name>,
}

/// `piece name [anonymous] [{ poses }]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    /// The piece's name.
    pub name: Name,
    /// Instances are interchangeable.
    pub anonymous: bool,
    /// `None` when written without braces: one pose covering its anchor.
    pub poses: Option<Vec<PoseDef>>,
}

/// `pose name { (r, c) ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseDef {
    /// The pose's name.
    pub name: Name,
    /// The footprint, as written.
    pub cells: Vec<Offset>,
    /// The braces, for "empty footprint" reports.
    pub body: Span,
}

/// A legend symbol.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyValue {
    /// `'.'`
    Char(char),
    /// `3`
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

/// `SYMBOL tile [+ piece-or-mark ...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// The symbol.
    pub key: KeyValue,
    /// Where the symbol was written.
    pub key_span: Span,
    /// The tile of its cells.
    pub tile: Name,
    /// Pieces and marks the symbol also places.
    pub extras: Vec<Name>,
}

/// `name (row, column)`.
#[derive(Clone, Debug, PartialEq)]
pub struct DirDef {
    /// The direction's name.
    pub name: Name,
    /// Its step.
    pub step: Offset,
}

/// `move name(param) { statements }`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveDecl {
    /// The move's name.
    pub name: Name,
    /// The direction parameter, e.g. `d`.
    pub param: Name,
    /// The statements in order.
    pub body: Vec<MoveStmt>,
}

/// One statement of a move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStmt {
    /// Which statement, with its contents.
    pub kind: MoveStmtKind,
    /// The whole statement.
    pub span: Span,
}

/// The statements a move's body may hold.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveStmtKind {
    /// `letters "nswe"`
    Letters(Str),
    /// `adds pushes`
    Adds(Vec<Name>),
    /// `require what at cell`
    Require(Condition),
    /// `forbid what at cell`
    Forbid(Condition),
    /// `shift piece [-]d`
    Shift {
        /// The piece acted on.
        piece: Name,
        /// `-d`: step backwards.
        negate: bool,
        /// The direction stepped in.
        dir: Name,
    },
    /// `swap piece d`
    Swap {
        /// The piece acted on.
        piece: Name,
        /// The direction stepped in.
        dir: Name,
    },
    /// `turn piece { rules }`
    Turn {
        /// The piece acted on.
        piece: Name,
        /// The rules, in order.
        rules: Vec<TurnRule>,
    },
    /// `slide piece d { rules }`
    Slide {
        /// The piece acted on.
        piece: Name,
        /// The direction stepped in.
        dir: Name,
        /// The rules, in order.
        rules: Vec<SlideRule>,
    },
}

/// `WHAT at PIECE [+|- d]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// The piece, tile or mark looked for.
    pub what: Name,
    /// Where it is looked for.
    pub cell: CellExpr,
}

/// `piece`, `piece + d` or `piece - d`.
#[derive(Clone, Debug, PartialEq)]
pub struct CellExpr {
    /// The piece whose anchor is the origin.
    pub piece: Name,
    /// `Some((negated, dir))` for `piece + d` / `piece - d`.
    pub step: Option<(bool, Name)>,
    /// The whole expression.
    pub span: Span,
}

/// `from dir -> to (dr, dc)`.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnRule {
    /// The pose before.
    pub from: Name,
    /// The direction of the move.
    pub dir: Name,
    /// The pose after.
    pub to: Name,
    /// How far the anchor moves.
    pub offset: Offset,
    /// The whole rule.
    pub span: Span,
}

/// `event: action, ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct SlideRule {
    /// When the rule applies.
    pub event: SlideEvent,
    /// What happens then, each with where it was written.
    pub actions: Vec<(SlideAction, Span)>,
    /// The whole rule.
    pub span: Span,
}

/// When a slide rule applies.
#[derive(Clone, Debug, PartialEq)]
pub enum SlideEvent {
    /// `into TILE|MARK`
    Into(Name),
    /// `before TILE|PIECE`
    Before(Name),
    /// `off board`
    OffBoard(Span),
}

/// What a slide does at an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlideAction {
    /// `stop`
    Stop,
    /// `break`
    Break,
    /// `lose`
    Lose,
}

/// `forbid PIECE[.POSE] on TILE`.
#[derive(Clone, Debug, PartialEq)]
pub struct ForbidDecl {
    /// The piece, maybe in one pose.
    pub piece: PieceRef,
    /// The tile or mark it may not be on.
    pub tile: Name,
}

/// `piece` or `piece.pose`.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceRef {
    /// The piece.
    pub piece: Name,
    /// The pose, when given.
    pub pose: Option<Name>,
    /// The whole reference.
    pub span: Span,
}

/// `piece[.pose] on place`.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalCond {
    /// The piece, maybe in one pose.
    pub piece: PieceRef,
    /// The tile or mark all its cells must be on.
    pub on: Name,
}

/// How a level's rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GridForm {
    /// `chars`: one character per cell.
    Chars,
    /// `ints`: integers separated by blanks.
    Ints,
}

/// `level "name" [chars|ints] """rows"""`.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelDecl {
    /// The level's name.
    pub name: Str,
    /// The form, when written.
    pub form: Option<GridForm>,
    /// The rows, indentation removed.
    pub rows: Vec<String>,
    /// Byte offset in the source of each row's first character (after removed indentation).
    pub row_starts: Vec<u32>,
    /// The text block, delimiters included.
    pub text: Span,
}

/// One statement of a judge format.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeStmt {
    /// Which statement, with its contents.
    pub kind: JudgeStmtKind,
    /// The whole statement.
    pub span: Span,
}

/// A number of a judge header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderField {
    /// `rows`
    Rows,
    /// `cols`
    Cols,
    /// `queries`
    Queries,
}

/// An answer kind of `print`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `solved`
    Solved,
    /// `unsolved`
    Unsolved,
    /// `invalid`
    Invalid,
}

/// The statements a judge format may hold.
#[derive(Clone, Debug, PartialEq)]
pub enum JudgeStmtKind {
    /// `cases until 0 0`
    CasesUntil(Vec<Int>),
    /// `cases once`
    CasesOnce,
    /// `header rows, cols`
    Header(Vec<(HeaderField, Span)>),
    /// `grid chars` or `grid ints`
    Grid(GridForm),
    /// `query hole, token, target`
    Query(Vec<Name>),
    /// `base 1`
    Base(Int),
    /// `print solved "{cost}"`
    Print(Outcome, Str),
}
