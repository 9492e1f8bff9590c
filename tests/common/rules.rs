//! Loading generated rule text in a test: the puzzle, or the codes and the plain report of
//! the problems it has. The text is named `rules.puz` in reports.

#![allow(dead_code)]

use puz::Puzzle;

/// The name loaded text goes by in reports (`rules.puz:3:5`).
pub const NAME: &str = "rules.puz";

/// The puzzle `src` defines; panics with the report when it does not load.
pub fn load(src: &str) -> Puzzle {
    match Puzzle::load(NAME, src.to_string()) {
        Ok(p) => p,
        Err(d) => panic!("does not load:\n{}\n{src}", d.render_plain(100)),
    }
}

/// The codes of the problems loading `src` reports (empty when it loads).
pub fn codes(src: &str) -> Vec<String> {
    match Puzzle::load(NAME, src.to_string()) {
        Ok(_) => vec![],
        Err(d) => d.problems.iter().map(|p| p.code_str()).collect(),
    }
}

/// The plain report loading `src` gives; panics when it loads.
pub fn report(src: &str) -> String {
    match Puzzle::load(NAME, src.to_string()) {
        Ok(_) => panic!("loads:\n{src}"),
        Err(d) => d.render_plain(200),
    }
}
