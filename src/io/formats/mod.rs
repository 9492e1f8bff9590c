//! Level files in the formats people already have, beside puz's own (one level drawn in
//! the legend, `crate::io::grid`):
//!
//! - [`LevelFormat::Sokoban`]: multi-level `.xsb` / `.sok` collections, with titles,
//!   comments and ragged rows ([`sokoban`]);
//! - [`LevelFormat::RushHour`]: Michael Fogleman's one-line Rush Hour boards, as in his
//!   database (`60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780`, [`rushhour`]).
//!
//! A [`LevelFile`] holds the levels of one file, each addressable by its title or its
//! number from 1 ([`LevelFile::pick`]); [`crate::Puzzle::file_level`] reads one in the
//! rules' legend. Every problem is a coded diagnostic with a span into the file.

use std::sync::Arc;

use miette::SourceSpan;

use crate::diagnostics::{Diagnostics, Problem};
use crate::Error;

pub mod rushhour;
pub mod sokoban;

/// The rules a Sokoban collection implies when it is given alone (`puz solve
/// microban.xsb --all`): `puzzles/sokoban-boxes.puz`, built in.
pub const SOKOBAN_RULES: &str = include_str!("../../../puzzles/sokoban-boxes.puz");

/// How a level file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelFormat {
    /// puz's own: one level, every line a row in the rules' legend.
    Grid,
    /// A Sokoban collection (`.xsb`, `.sok`): many levels, titles and comments.
    Sokoban,
    /// Fogleman's Rush Hour lines: `[moves] BOARD [cluster]`, one level per line.
    RushHour,
}

impl LevelFormat {
    /// The format's name on the command line (`--format`).
    pub fn name(self) -> &'static str {
        match self {
            LevelFormat::Grid => "grid",
            LevelFormat::Sokoban => "sokoban",
            LevelFormat::RushHour => "rushhour",
        }
    }

    /// The format named `name` (see [`LevelFormat::name`]).
    pub fn from_name(name: &str) -> Option<LevelFormat> {
        [Self::Grid, Self::Sokoban, Self::RushHour]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// The format of the file at `path` holding `text`: a Sokoban collection by its
    /// extension (`.xsb`, `.sok`, any case); Rush Hour lines when every non-blank line is
    /// `[moves] BOARD [cluster]` with a 36-character board and at least one line gives a
    /// number (a bare 36-character line is also a 1 x 36 level, so it needs `--format
    /// rushhour`); else puz's own grid.
    pub fn detect(path: &str, text: &str) -> LevelFormat {
        if is_sokoban_path(path) {
            return LevelFormat::Sokoban;
        }
        if rushhour::looks_like_database(text) {
            return LevelFormat::RushHour;
        }
        LevelFormat::Grid
    }
}

/// Whether `path` names a Sokoban collection by its extension (`.xsb`, `.sok`).
pub fn is_sokoban_path(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xsb") || e.eq_ignore_ascii_case("sok"))
}

/// One level of a collection: its number, title and notes, and its rows ready for the
/// grid reader.
#[derive(Clone, Debug)]
pub struct FileLevel {
    /// Its number in the file, from 1.
    pub number: usize,
    /// Its title, when the file gives one.
    pub title: Option<String>,
    /// The comment and note lines that belong to it, as written.
    pub notes: Vec<String>,
    /// The optimal number of moves the file records (Fogleman's first field: a vehicle
    /// sliding any distance is one move, puz's `--metric slides`).
    pub moves: Option<u64>,
    /// The rows, all one width, in the rules' legend.
    pub(crate) rows: Vec<String>,
    /// The byte offset of each row in the file (its cells keep their columns).
    pub(crate) starts: Vec<usize>,
    /// The level's span in the file.
    pub(crate) whole: SourceSpan,
    /// Cells beyond the level's outline, row-major: they take the rules' `outside` tile.
    /// Empty when there are none.
    pub(crate) beyond: Vec<bool>,
}

impl FileLevel {
    /// The name answers and reports give it: its title, else `#N`.
    pub fn name(&self) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| format!("#{}", self.number))
    }

    /// The rows as the rules' legend reads them (exterior cells written as floor), for
    /// drawing boards in the symbols of the file.
    pub fn rows(&self) -> &[String] {
        &self.rows
    }
}

/// The levels of one level file.
#[derive(Clone, Debug)]
pub struct LevelFile {
    /// The name reports give the file (its path).
    pub name: String,
    /// How it is written.
    pub format: LevelFormat,
    /// Its text, which diagnostics point into.
    pub(crate) text: Arc<String>,
    /// Its levels, in file order (one, unnamed, for a grid file: see
    /// [`crate::Puzzle::file_level`]).
    pub levels: Vec<FileLevel>,
}

impl LevelFile {
    /// Reads `text` (the file `name`) in `format`, or the format [`LevelFormat::detect`]
    /// finds. A UTF-8 byte-order mark at the start is skipped.
    pub fn read(
        name: &str,
        text: String,
        format: Option<LevelFormat>,
    ) -> Result<LevelFile, Diagnostics> {
        let text = Arc::new(crate::io::source::without_bom(text));
        let format = format.unwrap_or_else(|| LevelFormat::detect(name, &text));
        let fail = |p: Vec<Problem>| Diagnostics::new(name, text.clone(), p);
        let levels = match format {
            LevelFormat::Grid => vec![FileLevel {
                number: 1,
                title: None,
                notes: vec![],
                moves: None,
                rows: vec![],
                starts: vec![],
                whole: (0, text.len()).into(),
                beyond: vec![],
            }],
            LevelFormat::Sokoban => sokoban::read(&text).map_err(fail)?,
            LevelFormat::RushHour => rushhour::read(&text).map_err(fail)?,
        };
        Ok(LevelFile {
            name: name.to_string(),
            format,
            text,
            levels,
        })
    }

    /// Whether the file holds several levels in a collection format (a grid file holds
    /// one).
    pub fn is_collection(&self) -> bool {
        self.format != LevelFormat::Grid
    }

    /// The index (from 0) of the level `key` names: a title, exactly; else `N` or `#N`,
    /// its number from 1. `None` picks the first. An error lists what the file holds.
    pub fn pick(&self, key: Option<&str>) -> Result<usize, Error> {
        let Some(key) = key else {
            return Ok(0);
        };
        if let Some(i) = self
            .levels
            .iter()
            .position(|l| l.title.as_deref() == Some(key))
        {
            return Ok(i);
        }
        let number = key.strip_prefix('#').unwrap_or(key).parse::<usize>().ok();
        if let Some(n) = number.filter(|&n| n >= 1 && n <= self.levels.len()) {
            return Ok(n - 1);
        }
        let titles: Vec<String> = self.levels.iter().filter_map(|l| l.title.clone()).collect();
        let mut names = format!("a number from 1 to {}", self.levels.len());
        if !titles.is_empty() {
            let shown: Vec<String> = titles.iter().take(10).map(|t| format!("{t:?}")).collect();
            names.push_str(&format!(", or a title: {}", shown.join(", ")));
            if titles.len() > 10 {
                names.push_str(&format!(" and {} more", titles.len() - 10));
            }
        }
        Err(Error::NoSuchLevel {
            file: self.name.clone(),
            name: key.to_string(),
            names,
        })
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A report of `problems` against this file's text.
    pub(crate) fn report(&self, problems: Vec<Problem>) -> Diagnostics {
        Diagnostics::new(&self.name, self.text.clone(), problems)
    }
}
