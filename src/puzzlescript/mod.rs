//! PuzzleScript games: read, checked and played exactly as PuzzleScript's own engine
//! plays them.
//!
//! A PuzzleScript game source (the text PuzzleScript's editor saves) is read by its own
//! pest grammar (`grammar/puzzlescript.pest`) into a spanned [`ast::Game`], compiled
//! into rules over bitmasks of objects and movements, and played turn by turn:
//! [`Game::load`] reads and compiles, [`Session`] plays one level from input to input.
//!
//! Stages inside: `parse` (grammar and lowering, syntax diagnostics), `compile` (names,
//! layers, rule expansion into concrete directions, masks), `engine` (the turn).

pub mod ast;
mod input;
mod parse;

pub use input::{Input, InputError};
pub use parse::parse;

use std::sync::Arc;

use crate::diagnostics::{Diagnostics, Warnings};

/// A compiled PuzzleScript game.
#[derive(Debug)]
pub struct Game {
    name: String,
    entries: Vec<Entry>,
}

/// One entry of the game's LEVELS section, numbered as PuzzleScript numbers them
/// (messages included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A `message` between levels.
    Message(String),
    /// A level of `width` x `height` cells.
    Level {
        /// Cells per row.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// Whether a source looks like a PuzzleScript game rather than a `.puz` file: it has
/// PuzzleScript's section headers (`OBJECTS`, `LEGEND`, `COLLISIONLAYERS`, ...), each on
/// a line of its own, usually between lines of `=`.
pub fn looks_like_puzzlescript(text: &str) -> bool {
    let mut seen = 0;
    for line in text.lines() {
        let word = line.trim().to_ascii_lowercase();
        if matches!(
            word.as_str(),
            "objects" | "legend" | "collisionlayers" | "winconditions" | "levels"
        ) {
            seen += 1;
        }
    }
    seen >= 2
}

impl Game {
    /// Reads and compiles a game source called `name` (its path, in reports).
    pub fn load(name: &str, text: Arc<String>) -> Result<(Game, Warnings), Diagnostics> {
        let _ = (name, text);
        unimplemented!("PuzzleScript compiler lands with the engine")
    }

    /// The source's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The LEVELS section's entries, numbered as PuzzleScript numbers them.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The index (into [`Game::entries`]) of the `k`-th playable level, counting from 1
    /// (`#1` is the first level that is not a message).
    pub fn playable(&self, k: usize) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Entry::Level { .. }))
            .nth(k.checked_sub(1)?)
            .map(|(i, _)| i)
    }
}

/// What a won level does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnWin {
    /// Stop: the session is won and ignores further inputs (PuzzleScript's player in a
    /// browser, and its oracle's `replay`).
    Stop,
    /// Load the next entry at once (PuzzleScript's unit tests, `runTest`).
    NextLevel,
}

/// One level being played.
#[derive(Debug)]
pub struct Session<'g> {
    game: &'g Game,
}

/// What one input did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// Whether the level's objects changed (again turns included).
    pub changed: bool,
    /// Whether the input won the level.
    pub won: bool,
    /// Messages shown during the turn, in order.
    pub messages: Vec<String>,
    /// How many again turns ran after the input.
    pub again_turns: usize,
}

impl<'g> Session<'g> {
    /// Starts entry `index` of `game` (`run_rules_on_level_start` and its again turns
    /// included). `None` when there is no such entry.
    pub fn new(game: &'g Game, index: usize, on_win: OnWin) -> Option<Session<'g>> {
        let _ = (index, on_win);
        Some(Session { game })
    }

    /// Plays one input (with every again turn it causes, as PuzzleScript does before
    /// accepting the next input).
    pub fn input(&mut self, input: Input) -> Turn {
        let _ = (input, self.game);
        unimplemented!("PuzzleScript engine lands with the compiler")
    }

    /// Whether the level has been won (with [`OnWin::Stop`]).
    pub fn won(&self) -> bool {
        unimplemented!()
    }

    /// The entry being played.
    pub fn index(&self) -> usize {
        unimplemented!()
    }

    /// The level in PuzzleScript's own serialization (`convertLevelToString`): the
    /// format of the expected levels of its test data and of the oracle's `replay`.
    pub fn serialize(&self) -> String {
        unimplemented!()
    }
}
