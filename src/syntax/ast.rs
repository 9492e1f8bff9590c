//! The abstract syntax tree of a `.puz` file, every node carrying its span.

use super::span::Span;

/// A name as written, with where.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Name {
    /// The name's characters.
    pub(crate) text: String,
    /// Where it was written.
    pub(crate) span: Span,
}

/// An integer literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Int {
    /// The value, within the range its place allows.
    pub(crate) value: i64,
    /// Where it was written.
    pub(crate) span: Span,
}

/// A string literal after escapes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Str {
    /// The text with escapes resolved.
    pub(crate) value: String,
    /// The literal, quotes included.
    pub(crate) span: Span,
}

/// A `(row, column)` offset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Offset {
    /// Row offset.
    pub(crate) dr: i64,
    /// Column offset.
    pub(crate) dc: i64,
    /// The parenthesised pair.
    pub(crate) span: Span,
}

/// A whole file: its declarations in source order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    /// Declarations in source order.
    pub(crate) items: Vec<Item>,
}

/// One top-level declaration. `span` covers the whole declaration, `keyword` its first word.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Item {
    /// Which declaration, with its contents.
    pub(crate) kind: ItemKind,
    /// The declaration's first word.
    pub(crate) keyword: Span,
    /// The whole declaration.
    pub(crate) span: Span,
}

/// The declarations of the language, one variant per keyword.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ItemKind {
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
pub(crate) struct MarkDef {
    /// The mark's name.
    pub(crate) name: Name,
    /// Declared `single`: exactly one per level.
    pub(crate) single: bool,
}

/// `floor` or `block -> floor`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TileDef {
    /// The tile's name.
    pub(crate) name: Name,
    /// What it turns into when broken (`-> floor`).
    pub(crate) becomes: Option<Name>,
}

/// `piece name [anonymous] [{ poses }]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceDecl {
    /// The piece's name.
    pub(crate) name: Name,
    /// Instances are interchangeable.
    pub(crate) anonymous: bool,
    /// `None` when written without braces: one pose covering its anchor.
    pub(crate) poses: Option<Vec<PoseDef>>,
}

/// `pose name { (r, c) ... }`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PoseDef {
    /// The pose's name.
    pub(crate) name: Name,
    /// The footprint, as written.
    pub(crate) cells: Vec<Offset>,
    /// The braces, for "empty footprint" reports.
    pub(crate) body: Span,
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
pub(crate) struct LegendEntry {
    /// The symbol.
    pub(crate) key: KeyValue,
    /// Where the symbol was written.
    pub(crate) key_span: Span,
    /// The tile of its cells.
    pub(crate) tile: Name,
    /// Pieces and marks the symbol also places.
    pub(crate) extras: Vec<Name>,
}

/// `name (row, column)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DirDef {
    /// The direction's name.
    pub(crate) name: Name,
    /// Its step.
    pub(crate) step: Offset,
}

/// `move name(param) { statements }`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MoveDecl {
    /// The move's name.
    pub(crate) name: Name,
    /// The direction parameter, e.g. `d`.
    pub(crate) param: Name,
    /// The statements in order.
    pub(crate) body: Vec<MoveStmt>,
}

/// One statement of a move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MoveStmt {
    /// Which statement, with its contents.
    pub(crate) kind: MoveStmtKind,
    /// The whole statement.
    pub(crate) span: Span,
}

/// The statements a move's body may hold.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MoveStmtKind {
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
pub(crate) struct Condition {
    /// The piece, tile or mark looked for.
    pub(crate) what: Name,
    /// Where it is looked for.
    pub(crate) cell: CellExpr,
}

/// `piece`, `piece + d` or `piece - d`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CellExpr {
    /// The piece whose anchor is the origin.
    pub(crate) piece: Name,
    /// `Some((negated, dir))` for `piece + d` / `piece - d`.
    pub(crate) step: Option<(bool, Name)>,
    /// The whole expression.
    pub(crate) span: Span,
}

/// `from dir -> to (dr, dc)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TurnRule {
    /// The pose before.
    pub(crate) from: Name,
    /// The direction of the move.
    pub(crate) dir: Name,
    /// The pose after.
    pub(crate) to: Name,
    /// How far the anchor moves.
    pub(crate) offset: Offset,
    /// The whole rule.
    pub(crate) span: Span,
}

/// `event: action, ...`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SlideRule {
    /// When the rule applies.
    pub(crate) event: SlideEvent,
    /// What happens then, each with where it was written.
    pub(crate) actions: Vec<(SlideAction, Span)>,
    /// The whole rule.
    pub(crate) span: Span,
}

/// When a slide rule applies.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SlideEvent {
    /// `into TILE|MARK`
    Into(Name),
    /// `before TILE|PIECE`
    Before(Name),
    /// `off board`
    OffBoard(Span),
}

/// What a slide does at an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlideAction {
    /// `stop`
    Stop,
    /// `break`
    Break,
    /// `lose`
    Lose,
}

/// `forbid PIECE[.POSE] on TILE`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ForbidDecl {
    /// The piece, maybe in one pose.
    pub(crate) piece: PieceRef,
    /// The tile or mark it may not be on.
    pub(crate) tile: Name,
}

/// `piece` or `piece.pose`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PieceRef {
    /// The piece.
    pub(crate) piece: Name,
    /// The pose, when given.
    pub(crate) pose: Option<Name>,
    /// The whole reference.
    pub(crate) span: Span,
}

/// `piece[.pose] on place`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GoalCond {
    /// The piece, maybe in one pose.
    pub(crate) piece: PieceRef,
    /// The tile or mark all its cells must be on.
    pub(crate) on: Name,
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
pub(crate) struct LevelDecl {
    /// The level's name.
    pub(crate) name: Str,
    /// The form, when written.
    pub(crate) form: Option<GridForm>,
    /// The rows, indentation removed.
    pub(crate) rows: Vec<String>,
    /// Byte offset in the source of each row's first character (after removed indentation).
    pub(crate) row_starts: Vec<u32>,
    /// The text block, delimiters included.
    pub(crate) text: Span,
}

/// One statement of a judge format.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JudgeStmt {
    /// Which statement, with its contents.
    pub(crate) kind: JudgeStmtKind,
    /// The whole statement.
    pub(crate) span: Span,
}

/// A number of a judge header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum HeaderField {
    /// `rows`
    Rows,
    /// `cols`
    Cols,
    /// `queries`
    Queries,
}

/// An answer kind of `print`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `solved`
    Solved,
    /// `unsolved`
    Unsolved,
    /// `invalid`
    Invalid,
}

/// The statements a judge format may hold.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum JudgeStmtKind {
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
