//! Stage 7: reading `.puz` files, levels and judge inputs; printing boards and answers.

pub(crate) mod answer;
pub mod formats;
pub mod graph;
pub(crate) mod grid;
pub mod judge;
pub mod lurd;
#[cfg(feature = "picture")]
pub mod picture;
pub mod render;
pub(crate) mod source;
pub mod view;

pub use source::{read_source, SourceError};
