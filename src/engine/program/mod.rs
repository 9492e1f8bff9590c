//! The compiled op program's types: every `compile::Op` of a move lowered to a [`KOp`]
//! for this level's padded grid, and the per-move forms built beside it (local moves,
//! flips). What each kind of op means to the engine lives one job per file:
//!
//! | file | job |
//! |---|---|
//! | `lower.rs` | lowering: `compile::Op` to `KOp` ([`Program::new`]), an op's reach and free kinds, the local and flip forms |
//! | `run.rs` | execution: an op and a condition on a state (`Expander::op`, `Expander::eval`) |
//! | `relax.rs` | relaxation for the heuristic (`Expander::relax_op`) |
//! | `guard.rs` | the guarded forms: guards and one step of one copy, or tile tests and toggles, compiled to tables, and their successors |
//!
//! A new move statement is added to each of them (see the module header of `engine`).

mod guard;
mod lower;
mod relax;
mod run;

pub(super) use guard::{GuardedFlips, GuardedLocal};

pub(super) use lower::op_reach;
pub(super) use run::compare_attrs;

use crate::compile::{AssignOp, CmpOp, Place, SlideRule, Subject};

/// A step resolved for the padded grid.
#[derive(Clone, Copy, Debug)]
pub(super) enum Delta {
    /// The move's direction times `mult` (negative: reversed).
    Param { mult: i32 },
    /// A fixed linear delta and its (row, column) step.
    Fixed(isize, (i32, i32)),
}

/// A cell resolved for the padded grid: a base plus a fixed delta plus a multiple of the
/// move's direction.
#[derive(Clone, Copy, Debug)]
pub(super) struct KCell {
    pub(super) base: KBase,
    pub(super) fixed: isize,
    pub(super) mult: i32,
}

/// Where a resolved cell starts.
#[derive(Clone, Copy, Debug)]
pub(super) enum KBase {
    /// The anchor of the copy bound to this variable.
    Var(usize),
    /// The move's cell.
    Param,
    /// A `for` loop's cell, this many levels out.
    Loop(usize),
    /// An absolute padded cell (`None`: off the board).
    Abs(Option<usize>),
}

/// A condition resolved for the padded grid.
#[derive(Clone, Debug)]
pub(super) enum KCond {
    At {
        subject: Subject,
        /// Only a copy in this pose counts (`disk.small at CELL`).
        pose: Option<usize>,
        /// Only the copy of this variable counts (`over at CELL`, an `as` name).
        of: Option<usize>,
        cell: KCell,
        /// The variable a piece found there is bound to.
        bind: Option<usize>,
    },
    On {
        var: usize,
        kind: usize,
        pose: Option<usize>,
        place: Place,
    },
    CountPieces {
        kind: usize,
        op: CmpOp,
        value: i64,
    },
    CountTiles {
        tile: u16,
        op: CmpOp,
        value: i64,
    },
    Const(bool),
    Counter {
        word: usize,
        op: CmpOp,
        value: i64,
    },
    /// `piece.attr OP rhs`: attributes of the copies' poses.
    Attr {
        left: KAttr,
        op: CmpOp,
        right: KAttrRhs,
    },
    Not(Box<KCond>),
    And(Vec<KCond>),
    Or(Vec<KCond>),
}

/// A piece's attribute, resolved: its variable, kind and attribute.
#[derive(Clone, Copy, Debug)]
pub(super) struct KAttr {
    pub(super) var: usize,
    pub(super) kind: usize,
    pub(super) attr: usize,
}

/// What an attribute is compared with, resolved.
#[derive(Clone, Copy, Debug)]
pub(super) enum KAttrRhs {
    Value(i64),
    Attr(KAttr),
}

/// Which cells a tile change touches, resolved.
#[derive(Clone, Debug)]
pub(super) enum KPlace {
    At(KCell),
    All,
    Mark(u16),
}

/// A move op with names and offsets resolved for this level's grid. `var` is the piece
/// variable acted on: a kind's own copy (`var == kind`) or an alias (`var >= kinds`).
#[derive(Clone, Debug)]
pub(super) enum KOp {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at the cell `delta` from
    /// kind `kind`'s anchor; binds an anonymous piece found there.
    Test {
        subject: Subject,
        kind: usize,
        delta: Option<Delta>,
        want: bool,
    },
    /// Move a piece one step (every copy with `each`).
    Shift {
        var: usize,
        kind: usize,
        delta: Delta,
        each: bool,
        clash: bool,
    },
    /// Move a piece one step, trading places with whatever piece is there.
    Swap {
        var: usize,
        kind: usize,
        delta: Delta,
        clash: bool,
    },
    /// `table[pose * dirs + dir]`: new pose and linear anchor delta.
    Turn {
        var: usize,
        kind: usize,
        table: Vec<Option<(u32, isize)>>,
        clash: bool,
    },
    /// Move a piece step by step until a rule stops it (every copy with `each`).
    Slide {
        var: usize,
        kind: usize,
        delta: Delta,
        rules: Vec<SlideRule>,
        each: bool,
    },
    /// A general condition.
    Check { cond: KCond, want: bool },
    /// The piece leaves the board.
    Remove { var: usize },
    /// A new copy.
    Create {
        kind: usize,
        pose: u32,
        cell: KCell,
        clash: bool,
    },
    /// A tile change.
    Change {
        from: u16,
        to: u16,
        toggle: bool,
        place: KPlace,
    },
    /// A counter update.
    Count {
        word: usize,
        max: u32,
        op: AssignOp,
        value: i64,
    },
    /// Conditional effects.
    If {
        cond: KCond,
        then: Vec<KOp>,
        els: Vec<KOp>,
    },
    /// The body per cell of a piece; the `as` names bound in the body (`fresh`) are
    /// bound afresh in every iteration.
    ForCells {
        var: usize,
        body: Vec<KOp>,
        fresh: Vec<usize>,
    },
}

/// A move whose program only shifts and turns one piece kind, with no tests: each
/// successor depends on one copy's place alone, so it runs without the general machinery
/// (once per copy).
#[derive(Clone, Debug)]
pub(super) struct LocalMove {
    /// The kind's first slot.
    pub(crate) slot: usize,
    /// The kind's copies (slots `slot..slot + count`).
    pub(crate) count: usize,
    pub(crate) kind: usize,
    steps: Vec<KOp>,
    /// For one-step programs: per `pose * dirs + dir`, the new pose and anchor delta.
    pub(crate) single: Option<Vec<Option<(u32, isize)>>>,
    /// For one-step programs on states of several words, once the flag tables exist
    /// (`Expander::step_tables`): per `word * dirs + dir`, the word after the step, or
    /// [`NO_STEP`] when the step leaves the board, reaches a place no pose may take or
    /// changes nothing; [`STEP_LIVE`] is set when the new place needs the in-play
    /// legality check. Empty when the table would be too large.
    pub(crate) step: Vec<u32>,
    /// Per `pose * dirs + dir`: the range of `enter` listing the cells the step newly
    /// covers, as deltas from the new anchor (the only cells another piece can block).
    pub(crate) enter_at: Vec<(u32, u32)>,
    pub(crate) enter: Vec<isize>,
}

/// A step that is not a move (see [`LocalMove::step`]).
pub(super) const NO_STEP: u32 = u32::MAX;
/// The bit of a [`LocalMove::step`] entry whose new place has changeable cells.
pub(super) const STEP_LIVE: u32 = 1 << 31;

/// What a move's actions range over, for this level.
#[derive(Clone, Debug)]
pub(super) enum Actions {
    /// These direction indices.
    Dirs(Vec<usize>),
    /// Every board cell (the action number is the board cell's index).
    Cells,
}

/// What runs a move's program: per move, its ops, the piece kinds acted on before a
/// test binds them, and what its actions range over.
#[derive(Debug)]
pub(super) struct Runs {
    pub(crate) moves: Vec<Vec<KOp>>,
    pub(crate) free_kinds: Vec<Vec<u16>>,
    pub(crate) actions: Vec<Actions>,
}

/// Every move's program, lowered for one level.
pub(super) struct Program {
    /// Per move: its ops, the kinds they act on freely and the actions it ranges over
    /// (shared, so an expansion holds them while it borrows the expander mutably).
    pub(crate) runs: std::sync::Arc<Runs>,
    /// Per move: its local form, when it has one.
    pub(crate) local: Vec<Option<LocalMove>>,
    /// Piece variables: kinds, then the most aliases any move has.
    pub(crate) vars: usize,
    /// Per move: its flip form, when it has one.
    pub(crate) flips: Vec<Option<Flips>>,
    /// Per move without a local or flip form: its guarded local form, when it has one.
    pub(crate) guarded: Vec<Option<GuardedLocal>>,
    /// Per move without a flip form: its guarded flip form, when it has one.
    pub(crate) guarded_flips: Vec<Option<GuardedFlips>>,
}

/// A move whose program only toggles the two tiles every changeable cell holds, at cells
/// fixed relative to the move's cell or direction, on a level where no piece can be
/// affected: each action flips fixed bits of the state, so it is a lookup and an XOR.
#[derive(Clone, Debug)]
pub(super) struct Flips {
    /// Per action number (board cell, or direction): the (word, mask) pairs it flips.
    pub(crate) masks: Vec<Vec<(u32, u32)>>,
}
