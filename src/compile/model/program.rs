//! A move's compiled program: the [`MoveProgram`] and what its ops are made of (steps,
//! cells, subjects, places, conditions, slide rules), with [`walk_ops`] to visit them.

use serde::Serialize;

use super::{AssignOp, CmpOp, DirId, MarkId, PieceId, PoseId, TileId};

/// A piece's attribute in a condition: `disk.size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct AttrOf {
    /// The piece kind.
    pub(crate) piece: PieceId,
    /// The alias meant instead of the kind's copy.
    pub(crate) alias: Option<u16>,
    /// The attribute, an index into [`Model::attributes`].
    pub(crate) attr: u16,
}

/// What an attribute is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum AttrRhs {
    /// A number.
    Value(i64),
    /// Another piece's attribute.
    Attr(AttrOf),
}

/// A direction as a move uses it: the move's own direction or a fixed one, maybe reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Step {
    /// `None` for the move's parameter.
    pub(crate) fixed: Option<DirId>,
    /// Step backwards (`-d`).
    pub(crate) negate: bool,
    /// Repeated this many times (`2d`); 1 for a plain step.
    pub(crate) times: i32,
}

/// A cell relative to a piece's anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct CellRef {
    /// The piece whose anchor the cell is relative to.
    pub(crate) piece: PieceId,
    /// One step from the anchor, or the anchor itself.
    pub(crate) step: Option<Step>,
}

/// What a condition looks for at a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Subject {
    /// Some instance of this piece covers the cell.
    Piece(PieceId),
    /// The cell's tile is this one.
    Tile(TileId),
    /// The cell carries this mark.
    Mark(MarkId),
}

/// Where a piece must be (goal) or must not be (forbid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Place {
    /// Cells with this tile.
    Tile(TileId),
    /// Cells with this mark.
    Mark(MarkId),
}

/// A move: its letters, cost and op program, run once per direction.
#[derive(Clone, Debug, Serialize)]
pub struct MoveProgram {
    /// The name as declared.
    pub name: String,
    /// The letter printed for each direction.
    pub(crate) letters: Vec<String>,
    /// How much one application adds to each cost component.
    pub(crate) adds: Vec<u32>,
    /// The statements in order; a failed test cancels the move.
    pub(crate) ops: Vec<Op>,
    /// What the move ranges over.
    pub(crate) param: Param,
    /// The kind of each `as` name, by alias index.
    pub(crate) aliases: Vec<PieceId>,
}

/// What a move ranges over; its actions are numbered by this order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Param {
    /// These directions (all of `dirs`, or the move's list), in `dirs` order.
    Dirs(Vec<DirId>),
    /// Every board cell, in reading order; the action's number is the cell.
    Cell,
}

/// Where a general cell expression starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Base {
    /// A piece's anchor: the kind's bound copy, or an alias.
    Piece(PieceId, Option<u16>),
    /// The move's cell parameter.
    Param,
    /// The cell of the `for` loop this many levels out (0: innermost).
    Var(u16),
    /// An absolute board cell; negative counts from the end.
    Abs(i32, i32),
}

/// A general cell: a base and steps from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Cell {
    /// Where it starts.
    pub(crate) base: Base,
    /// The steps taken from it.
    pub(crate) steps: Vec<Step>,
}

/// A condition on a state (in a move, with bindings).
#[derive(Clone, Debug, Serialize)]
pub(crate) enum Cond {
    /// `subject at cell`; a piece found is bound to `bind` when given.
    At {
        /// What is looked for.
        subject: Subject,
        /// Only a copy of the piece in this pose counts (`disk.small at c`).
        pose: Option<PoseId>,
        /// `over at c` with an `as` name: only that copy counts.
        of: Option<u16>,
        /// Where.
        cell: Cell,
        /// The binding a piece found there takes: (kind, alias).
        bind: Option<(PieceId, Option<u16>)>,
    },
    /// Every cell of the piece (every copy when none is bound) on the place.
    On {
        /// The piece kind.
        piece: PieceId,
        /// An alias of the move, if named so.
        alias: Option<u16>,
        /// Only in this pose.
        pose: Option<PoseId>,
        /// The tile or mark.
        place: Place,
    },
    /// `count(what) OP value`.
    Count {
        /// Pieces (copies), or cells holding a tile or mark.
        what: Subject,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: i64,
    },
    /// `counter OP value`.
    Counter {
        /// The counter's index.
        id: u16,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: i64,
    },
    /// `piece.attr OP value` or `OP other.attr`: false when a piece is not on the board.
    Attr {
        /// The attribute compared.
        left: AttrOf,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        right: AttrRhs,
    },
    /// Negation.
    Not(Box<Cond>),
    /// Conjunction.
    And(Vec<Cond>),
    /// Disjunction.
    Or(Vec<Cond>),
}

/// Which cells a tile change touches.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum TilePlace {
    /// One cell.
    At(Cell),
    /// Every cell.
    All,
    /// Every cell of a mark.
    Mark(MarkId),
}

/// One step of a move's program.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum Op {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at `cell`.
    /// A `Piece` subject that is anonymous binds the instance found there.
    Test {
        /// What to look for.
        subject: Subject,
        /// Where to look.
        cell: CellRef,
        /// Whether it must be there (`require`) or must not (`forbid`).
        want: bool,
    },
    /// Translate a piece one step.
    Shift {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
        /// Every copy, the farthest along the step first.
        each: bool,
    },
    /// Move a piece one step, trading cells with the piece it lands on.
    Swap {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
    },
    /// `table[pose * dirs + dir]`: the new pose and anchor offset, or `None` (no move).
    Turn {
        /// The piece acted on.
        piece: PieceId,
        /// Indexed by `pose * dirs + dir`.
        table: Vec<Option<(PoseId, i32, i32)>>,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
    },
    /// Step a piece until an event's rule stops it.
    Slide {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The slide's events, in declaration order.
        rules: Vec<SlideRule>,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
        /// Every copy, the farthest along the step first.
        each: bool,
    },
    /// A general condition (`require`: must hold; `forbid`: must not).
    Check {
        /// The condition.
        cond: Cond,
        /// Whether it must hold.
        want: bool,
    },
    /// The piece leaves the board.
    Remove {
        /// The kind.
        piece: PieceId,
        /// The alias removed instead of the kind's copy.
        alias: Option<u16>,
    },
    /// A new copy, anchored at `cell`.
    Create {
        /// The kind.
        piece: PieceId,
        /// Its pose.
        pose: PoseId,
        /// Its anchor.
        cell: Cell,
    },
    /// Tiles `from` become `to` (and, for a toggle, `to` become `from`).
    Change {
        /// The tile that changes.
        from: TileId,
        /// What it becomes.
        to: TileId,
        /// Both ways.
        toggle: bool,
        /// Which cells.
        place: TilePlace,
    },
    /// A counter update; leaving `0..=max` cancels the move.
    Count {
        /// The counter's index.
        id: u16,
        /// How it changes.
        op: AssignOp,
        /// By or to what.
        value: i64,
    },
    /// Conditional effects.
    If {
        /// The condition.
        cond: Cond,
        /// Run when it holds.
        then: Vec<Op>,
        /// Run otherwise.
        els: Vec<Op>,
    },
    /// The body once per cell of the piece's footprint.
    ForCells {
        /// The kind.
        piece: PieceId,
        /// The alias visited instead of the kind's copy.
        alias: Option<u16>,
        /// The statements.
        body: Vec<Op>,
    },
}

/// What a slide does at one event.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SlideRule {
    /// When the rule applies.
    pub(crate) event: SlideEvent,
    /// The slide ends here.
    pub(crate) stop: bool,
    /// The tile ahead turns into what it becomes.
    pub(crate) brk: bool,
    /// The move is impossible (the piece is lost).
    pub(crate) lose: bool,
}

/// An event during a slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum SlideEvent {
    /// The piece enters a cell with this tile or mark.
    Into(Place),
    /// The next cell holds this tile.
    BeforeTile(TileId),
    /// The next cell holds this piece.
    BeforePiece(PieceId),
    /// The next cell is off the board.
    OffBoard,
}

/// Calls `f` on every op of `ops`, nested ones included.
pub(crate) fn walk_ops(ops: &[Op], f: &mut impl FnMut(&Op)) {
    for op in ops {
        f(op);
        match op {
            Op::If { then, els, .. } => {
                walk_ops(then, f);
                walk_ops(els, f);
            }
            Op::ForCells { body, .. } => walk_ops(body, f),
            _ => {}
        }
    }
}
