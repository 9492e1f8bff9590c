//! Stage 4: levels, packed states and the expander that interprets move programs.

pub mod budget;
mod expander;
pub mod level;
mod store;

pub use expander::{Expander, Successors};
pub use level::{Board, Instance, Level, SymbolGrid};
pub use store::StateStore;
