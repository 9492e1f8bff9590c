//! `puz export FILE --html OUT`: the playground as one standalone page for a file, and
//! `puz solve ... --gif OUT / --png-strip OUT`: an answer's boards as pictures. Every
//! failure (a file with errors, an output that cannot be written, a picture too large)
//! is a coded diagnostic.

use std::path::Path;

use puz::engine::budget::Budget;
use puz::engine::{Expander, Level};
use puz::io::picture::{self, PictureError};
use puz::io::view::{board_view, palette};
use puz::Puzzle;

use super::{exit, output, Lang};

/// Why an export wrote nothing.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExportError {
    /// The output file cannot be written (no such directory, no permission, a full disk).
    #[error("cannot write {path}: {source}")]
    #[diagnostic(
        code(puz::export::write),
        help("check that the directory exists and can be written to")
    )]
    Write {
        /// The output path.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The answer's boards cannot be drawn as a picture.
    #[error("cannot draw the answer as {what}: {source}")]
    #[diagnostic(
        code(puz::export::picture),
        help("a picture holds at most 2^25 pixels: try a shorter answer or a smaller level")
    )]
    Picture {
        /// `a GIF` or `a PNG strip`.
        what: &'static str,
        /// Why not.
        source: PictureError,
    },
    /// A PuzzleScript game's answer is drawn by PuzzleScript's sprites, not here.
    #[error("--gif and --png-strip draw the boards of .puz levels; {file} is a PuzzleScript game")]
    #[diagnostic(
        code(puz::export::puzzlescript_picture),
        help("play the answer's inputs in the playground (puz serve, or puz export --html) to watch it")
    )]
    PuzzleScript {
        /// The game's path.
        file: String,
    },
}

/// Writes `bytes` to `path`, reporting a failure.
fn write(path: &str, bytes: &[u8]) -> Result<(), u8> {
    std::fs::write(Path::new(path), bytes).map_err(|source| {
        output::report(&ExportError::Write {
            path: path.to_string(),
            source,
        });
        exit::OUTPUT
    })
}

/// `puz export FILE --html OUT`: the file must load (its diagnostics otherwise, exit 1).
pub fn html(file: &str, out: &str, lang: Lang) -> Result<(), u8> {
    let (text, is_game) = super::read_as(file, lang)?;
    if is_game {
        super::play::load_game(file, text.clone())?;
    } else {
        super::load_text(file, text.clone())?;
    }
    let name = Path::new(file)
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().to_string());
    write(out, puz::serve::standalone_page(&name, &text).as_bytes())?;
    say!("wrote {out}: {file} as a standalone page (open it in a browser; no server needed)");
    Ok(())
}

/// Where `puz solve` writes pictures of its answer.
#[derive(Clone, Debug, Default)]
pub struct Pictures {
    /// `--gif OUT`.
    pub gif: Option<String>,
    /// `--png-strip OUT`.
    pub png: Option<String>,
}

impl Pictures {
    /// Any picture asked for.
    pub fn wanted(&self) -> bool {
        self.gif.is_some() || self.png.is_some()
    }

    /// Refuses pictures of a PuzzleScript game's answer.
    pub fn refuse_game(&self, file: &str) -> Result<(), u8> {
        if self.wanted() {
            output::report(&ExportError::PuzzleScript {
                file: file.to_string(),
            });
            return Err(exit::INPUT);
        }
        Ok(())
    }

    /// Draws the answer's `states` on `level` of `p` and writes the pictures asked for.
    pub fn write(&self, p: &Puzzle, level: Level, states: &[Vec<u32>]) -> Result<(), u8> {
        if !self.wanted() {
            return Ok(());
        }
        let exp = Expander::new(&p.model, level, &Budget::default()).map_err(|e| {
            say!("error: the level cannot be set up to draw its boards: {e}");
            exit::INTERNAL
        })?;
        let frames: Vec<_> = states.iter().map(|s| board_view(&exp, s)).collect();
        let colours = palette(&p.model);
        let drawn = |what: &'static str, r: Result<Vec<u8>, PictureError>| {
            r.map_err(|source| {
                output::report(&ExportError::Picture { what, source });
                exit::OUTPUT
            })
        };
        if let Some(out) = &self.gif {
            let bytes = drawn("a GIF", picture::gif(&frames, &colours, 33))?;
            write(out, &bytes)?;
            say!("wrote {out}: {} frames", frames.len());
        }
        if let Some(out) = &self.png {
            let bytes = drawn("a PNG strip", picture::png_strip(&frames, &colours))?;
            write(out, &bytes)?;
            say!("wrote {out}: {} boards side by side", frames.len());
        }
        Ok(())
    }
}
