//! Stage 4: levels, packed states and the expander that interprets move programs.
//!
//! One [`Expander`] holds one level under one model. Its parts, one concern per file:
//!
//! | file | job |
//! |---|---|
//! | `expander.rs` | the [`Expander`] value and its setup, in budget |
//! | `layout.rs` | the padded grid and state packing: slots, radix, start state, cell queries |
//! | `program/` | the compiled op program: every `compile::Op` lowered to a `KOp` (`lower.rs`), run on a state (`run.rs`) and relaxed for the heuristic (`relax.rs`); moves whose guards read fixed cells compiled to tables (`guard.rs`) |
//! | `interpreter.rs` | the successor loop and its scratch buffers: run, finish, local and solo shortcuts |
//! | `legality.rs` | legality and goal flags: per-place tables, forbids and overlaps in play, the goal test |
//! | `heuristic/` | the relaxation heuristic for A* and dead-position pruning: the bounds and their use, their derivation, the assignment solver |
//! | `goals.rs` | goal-state enumeration for bidirectional search |
//! | `invariant.rs` | invariants of the rules that prove a level unsolvable without search (the n-puzzle's permutation parity) |
//! | `compound.rs` | counted moves under a metric: a state space whose moves are closures of unit steps by one piece |
//! | `describe.rs` | answers for people: what each move moved, and which tiles changed |
//! | `lints/` | warnings about one level (moves that never apply, goals that never hold, slides off the board, goal pieces out of reach) and the explanation of "no solution" |
//! | `budget.rs`, `store.rs`, `level.rs` | budgets, state stores, levels |
//!
//! # Adding a move statement
//!
//! After grammar, AST, check and `compile::Op`, the engine changes in `program/` alone:
//! 1. add a `KOp` variant beside the others (`program/mod.rs`);
//! 2. lower the new `Op` to it in `KOp::lower` (resolving steps with `Layout::delta`), and
//!    add its reach, if it has offsets, in `op_reach`, and its free kinds in `free_kinds`
//!    (`program/lower.rs`);
//! 3. execute it in `Expander::op` (on `self.cur`, using `set_place` so the interpreter
//!    rechecks the moved instance; `program/run.rs`);
//! 4. say where it may take the relaxed piece in `Expander::relax_op` (the heuristic;
//!    `program/relax.rs`).
//!
//! Every one of these `match`es lists each variant, so the compiler points at any that a
//! new variant misses. (The local shortcut, `local_form`, takes only shifts and turns and
//! needs no change; nor do the guarded forms of `program/guard.rs`, which leave a move
//! with any op they do not know to its general run.)

pub mod budget;
pub mod compound;
mod describe;
mod expander;
mod goals;
mod heuristic;
pub(crate) mod inner;
mod interpreter;
mod invariant;
mod layout;
mod legality;
pub(crate) mod level;
pub(crate) mod lints;
mod program;
pub(crate) mod store;
pub mod whynot;

pub use crate::compile::Action;
pub use describe::{
    cell_text, CellPos, CounterChange, MoveDescription, MoveTarget, PieceMove, TileChange,
};
pub use expander::{Expander, PrepareError, SetupError};
pub(crate) use heuristic::{Before, LayerSet, Perimeter, Regions};
pub use interpreter::Successors;
pub use level::{Board, Instance, Level, SymbolGrid};
pub use store::StateStore;

#[cfg(test)]
mod guarded_tests;
#[cfg(test)]
mod tests;
