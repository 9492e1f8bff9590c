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
    /// `metric name { straight m, ...  chain m, ... }`
    Metric(MetricDecl),
    /// `limit 10`
    Limit(Int),
    /// `move name(d) { ... }`
    Move(MoveDecl),
    /// `forbid piece on tile`
    Forbid(ForbidDecl),
    /// `counter keys max 9 [start 0]`
    Counter(CounterDecl),
    /// `goal COND`
    Goal(CondNode),
    /// `level "name" """..."""`
    Level(LevelDecl),
    /// `judge { ... }`
    Judge(Vec<JudgeStmt>),
    /// `look { ... }`
    Look(Vec<LookDef>),
}

/// One entry of `look { ... }`: `box #a52 #fc8 sprite """ ... """`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LookDef {
    /// The tile, piece or mark it draws.
    pub(crate) name: Name,
    /// Its colours as written (`#a52`), in order; the sprite numbers them from 0.
    pub(crate) colors: Vec<ColorText>,
    /// The sprite's rows (indentation removed), their starts and its text block.
    pub(crate) sprite: Option<(Vec<String>, Vec<u32>, Span)>,
}

/// A colour as written, `#` included: `#a52`, `#aa5522`, or a malformed `#12`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ColorText {
    /// The characters, `#` included.
    pub(crate) text: String,
    /// Where it was written.
    pub(crate) span: Span,
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
    /// `max N`: room for N copies at once.
    pub(crate) max: Option<Int>,
    /// `None` when written without braces: one pose covering its anchor.
    pub(crate) poses: Option<Vec<PoseDef>>,
    /// `has size 3`: attributes of every pose.
    pub(crate) attrs: Vec<AttrDef>,
}

/// `size 3` in a `has` list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AttrDef {
    /// The attribute.
    pub(crate) name: Name,
    /// Its value.
    pub(crate) value: Int,
}

/// `disk.size` in a condition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AttrRef {
    /// The piece: a kind (its bound copy), a named piece or an `as` name.
    pub(crate) piece: Name,
    /// The attribute.
    pub(crate) attr: Name,
    /// The whole reference.
    pub(crate) span: Span,
}

/// What an attribute is compared with.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum AttrOperand {
    /// `3`
    Int(Int),
    /// `disk.size`
    Attr(AttrRef),
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
    /// `has size 2`: this pose's attributes.
    pub(crate) attrs: Vec<AttrDef>,
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

/// `SYMBOL tile [+ piece-or-mark ...]`; a piece may choose its start pose: `turtle.east`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LegendEntry {
    /// The symbol.
    pub(crate) key: KeyValue,
    /// Where the symbol was written.
    pub(crate) key_span: Span,
    /// The tile of its cells.
    pub(crate) tile: Name,
    /// A pose written after the tile (`floor.east`): always an error, since only pieces
    /// have poses; kept so the checker can say so.
    pub(crate) tile_pose: Option<Name>,
    /// Pieces and marks the symbol also places, each with the pose it chooses, if any
    /// (a pose after a mark is an error the checker reports).
    pub(crate) extras: Vec<PieceRef>,
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
    /// What the move ranges over: `d`, `d in w, e`, `cell c`.
    pub(crate) param: MoveParam,
    /// The statements in order.
    pub(crate) body: Vec<MoveStmt>,
}

/// What a move ranges over.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MoveParam {
    /// `d` (every direction) or `d in w, e` (these, in `dirs` order).
    Dir {
        /// The parameter.
        name: Name,
        /// The directions, when restricted.
        only: Option<Vec<Name>>,
    },
    /// `cell c`: every board cell, in reading order.
    Cell(Name),
}

impl MoveParam {
    /// The parameter's name.
    pub(crate) fn name(&self) -> &Name {
        match self {
            MoveParam::Dir { name, .. } | MoveParam::Cell(name) => name,
        }
    }
}

/// `metric slides { straight step_big, step_wide  chain hop }`: a named way of counting
/// moves.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MetricDecl {
    /// The metric's name.
    pub(crate) name: Name,
    /// Its `straight` and `chain` lists, in source order.
    pub(crate) groups: Vec<MetricGroup>,
}

/// How a metric combines consecutive applications of a move by one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    /// `straight`: the same action repeated (one direction, any distance).
    Straight,
    /// `chain`: any applications of the move in a row (a free path, a multi-jump).
    Chain,
}

impl Combine {
    /// The keyword as written.
    pub fn keyword(self) -> &'static str {
        match self {
            Combine::Straight => "straight",
            Combine::Chain => "chain",
        }
    }
}

/// `straight M, N` or `chain M, N` inside a metric.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MetricGroup {
    /// How the listed moves combine.
    pub(crate) combine: Combine,
    /// The keyword.
    pub(crate) keyword: Span,
    /// The moves listed.
    pub(crate) moves: Vec<Name>,
}

/// `counter keys max 9 [start 0]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CounterDecl {
    /// The counter's name.
    pub(crate) name: Name,
    /// Its largest value.
    pub(crate) max: Int,
    /// Its start value (0 unless written).
    pub(crate) start: Option<Int>,
}

/// One statement of a move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MoveStmt {
    /// What it says.
    pub(crate) kind: MoveStmtKind,
    /// The whole statement.
    pub(crate) span: Span,
}

/// The statements of a move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MoveStmtKind {
    /// `letters "nswe"`
    Letters(Str),
    /// `adds pushes`
    Adds(Vec<Name>),
    /// `require COND`
    Require(CondNode),
    /// `forbid COND`
    Forbid(CondNode),
    /// `shift [each] piece STEP`
    Shift {
        /// The piece acted on.
        piece: Name,
        /// `each`: every copy.
        each: bool,
        /// The step.
        step: Step,
    },
    /// `swap piece STEP`
    Swap {
        /// The piece acted on.
        piece: Name,
        /// The step.
        step: Step,
    },
    /// `turn piece { rules }`
    Turn {
        /// The piece acted on.
        piece: Name,
        /// The table rows, in order.
        rules: Vec<TurnRule>,
    },
    /// `slide [each] piece STEP { rules }`
    Slide {
        /// The piece acted on.
        piece: Name,
        /// `each`: every copy, the farthest along the step first.
        each: bool,
        /// The step.
        step: Step,
        /// The rules, in order.
        rules: Vec<SlideRule>,
    },
    /// `remove piece`
    Remove(Name),
    /// `create piece[.pose] at CELL`
    Create {
        /// The kind (and pose) created.
        piece: PieceRef,
        /// Where its anchor goes.
        at: CellExpr,
    },
    /// `change A -> B WHERE`
    Change {
        /// The tile that changes.
        from: Name,
        /// What it becomes.
        to: Name,
        /// Which cells.
        place: Where,
    },
    /// `toggle A B WHERE`
    Toggle {
        /// One tile.
        a: Name,
        /// The other.
        b: Name,
        /// Which cells.
        place: Where,
    },
    /// `keys += 1`
    Counter {
        /// The counter.
        name: Name,
        /// How it changes.
        op: AssignOp,
        /// By or to what.
        value: Int,
    },
    /// `if COND { .. } else { .. }`
    If {
        /// The condition.
        cond: CondNode,
        /// Run when it holds.
        then: Vec<MoveStmt>,
        /// Run otherwise.
        els: Vec<MoveStmt>,
    },
    /// `for c in piece { .. }`
    For {
        /// The loop cell's name.
        var: Name,
        /// The piece whose cells are visited.
        piece: Name,
        /// The statements run per cell.
        body: Vec<MoveStmt>,
    },
}

/// Which cells a tile change touches.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Where {
    /// `at CELL`
    At(CellExpr),
    /// `everywhere`
    Everywhere(Span),
    /// `on MARK`
    On(Name),
}

/// How a counter statement changes its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AssignOp {
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `=`
    Set,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Whether `a OP b`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A condition and its span.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CondNode {
    /// What it tests.
    pub(crate) cond: Cond,
    /// The whole condition.
    pub(crate) span: Span,
}

/// A boolean condition.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cond {
    /// `what at CELL [as alias]`: a piece, tile or mark there.
    At {
        /// The piece, tile or mark looked for.
        what: Name,
        /// `disk.small at c`: only a copy in this pose counts.
        pose: Option<Name>,
        /// Where.
        cell: CellExpr,
        /// `as over`: the name of the copy found.
        alias: Option<Name>,
    },
    /// `piece[.pose] on place`: every cell of it.
    On {
        /// The piece.
        piece: PieceRef,
        /// The tile or mark.
        on: Name,
    },
    /// `count(what) OP value`.
    Count {
        /// A piece, tile or mark.
        what: Name,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: Int,
    },
    /// `counter OP value`.
    Counter {
        /// The counter.
        name: Name,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: Int,
    },
    /// `under.size > disk.size`
    Attr {
        /// The attribute compared.
        left: AttrRef,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        right: AttrOperand,
    },
    /// `not C`
    Not(Box<CondNode>),
    /// `C and C ...`
    And(Vec<CondNode>),
    /// `C or C ...`
    Or(Vec<CondNode>),
}

/// A step: `d`, `-d`, `2d`, `-2n`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    /// Reversed.
    pub(crate) negate: bool,
    /// Repeated this many times (1 unless written).
    pub(crate) times: i64,
    /// The move's direction parameter or a named direction.
    pub(crate) dir: Name,
    /// The whole step.
    pub(crate) span: Span,
}

/// Where a cell expression starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CellBase {
    /// A piece, alias, cell parameter or loop cell.
    Name(Name),
    /// `(row, col)`, negative counting from the end.
    Coord(Offset),
}

/// A cell: a base and steps from it, `man + d`, `c - 2n`, `(2, -1)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CellExpr {
    /// Where it starts.
    pub(crate) base: CellBase,
    /// `(negated, step)` per `+ step` / `- step`.
    pub(crate) steps: Vec<(bool, Step)>,
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

/// How a level's rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GridForm {
    /// `chars`: one character per cell.
    Chars,
    /// `ints`: integers separated by blanks.
    Ints,
}

/// `level "name" [chars|ints] """rows""" [expect ...]`.
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
    /// `goal """..."""`: the finished board's rows, their starts and its text block.
    pub(crate) goal: Option<(Vec<String>, Vec<u32>, Span)>,
    /// The `expect` clauses, in source order: the plain one and one per metric.
    pub(crate) expects: Vec<ExpectClause>,
}

/// `expect 31`, `expect 6, 8`, `expect none` or `expect slides 90`: a level's known answer,
/// plain or under a metric.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ExpectClause {
    /// The metric it is under; `None` for the plain count.
    pub(crate) metric: Option<Name>,
    /// The cost vector, one number per cost component; `None` for `expect none`.
    pub(crate) cost: Option<Vec<Int>>,
    /// The whole clause.
    pub(crate) span: Span,
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
