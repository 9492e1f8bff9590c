//! Stage 7: reading `.puz` files, levels and judge inputs; printing boards and answers.

pub mod answer;
pub mod graph;
pub mod grid;
pub mod judge;
pub mod render;
pub mod source;
pub mod view;

pub use source::{read_source, SourceError};
