//! Problems of the level formats people already have (`crate::io::formats`): Sokoban
//! collections (`.xsb`, `.sok`), Fogleman's Rush Hour lines, and solutions in LURD
//! notation (`crate::io::lurd`). Each has its own code, a labelled span into the file (or
//! the LURD text) and help.
//!
//! These never come from a `.puz` file, so they live beside the catalogue rather than in
//! it (whose every code a `.puz` fixture shows); `tests/suite/formats.rs` triggers each.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// One problem of a level collection or a LURD solution.
#[derive(Debug, Error, Diagnostic, Clone)]
pub enum FormatProblem {
    /// A Sokoban collection with no board: no run of lines made of board characters.
    #[error("no level found in this Sokoban collection")]
    #[diagnostic(
        code(puz::format::no_board),
        help("a board is a run of lines made of `#@+$*.-_` and spaces, each with a wall `#`; every other line is a title or a comment")
    )]
    NoBoard {
        /// The file's first line.
        #[label("no board in the file")]
        span: SourceSpan,
    },

    /// A Sokoban level whose outer wall has a gap: the player can walk off the board.
    #[error("level {level} is not closed: the player can reach the edge of the board")]
    #[diagnostic(
        code(puz::format::open_level),
        help("close the outer wall with `#`: cells beyond it are outside the level, so the player must be enclosed")
    )]
    OpenLevel {
        /// The level's title or `#N`.
        level: String,
        /// The player.
        #[label("this player reaches the edge")]
        span: SourceSpan,
    },

    /// A line of a Rush Hour database that is not `[moves] BOARD [cluster]`.
    #[error("expected a Rush Hour line `[moves] BOARD [cluster]`, found {found}")]
    #[diagnostic(
        code(puz::format::rush_hour_line),
        help("Fogleman's database lines are `60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780`: the optimal number of moves, the 6x6 board row by row, the cluster size; the numbers may be left out")
    )]
    RushHourLine {
        /// What was found instead, e.g. "`60x` where a number belongs".
        found: String,
        /// The token at fault.
        #[label("here")]
        span: SourceSpan,
    },

    /// A Rush Hour board that is not 36 characters.
    #[error("a Rush Hour board has 36 characters (6 rows of 6), this one has {found}")]
    #[diagnostic(
        code(puz::format::board_length),
        help("write the 6x6 board row by row on one line: `o` or `.` empty, `x` a wall, `A` the red car, other letters vehicles")
    )]
    BoardLength {
        /// Its characters.
        found: usize,
        /// The board.
        #[label("{found} characters")]
        span: SourceSpan,
    },

    /// A character that is no LURD move: LURD has `l u r d` (walks) and `L U R D` (pushes).
    #[error("`{letter}` is not a LURD move")]
    #[diagnostic(
        code(puz::lurd::bad_letter),
        help("LURD moves are l, u, r, d (walk left, up, right, down) and L, U, R, D (push); blanks and line breaks are skipped")
    )]
    BadLetter {
        /// The character.
        letter: char,
        /// Where it is.
        #[label("not a move")]
        span: SourceSpan,
    },

    /// A LURD move that cannot be played where it comes: into a wall, a push with
    /// nothing to push, a walk into a box.
    #[error("move {index} (`{letter}`) cannot be played: {why}")]
    #[diagnostic(code(puz::lurd::illegal_move))]
    IllegalMove {
        /// The move's number, from 1.
        index: usize,
        /// Its letter.
        letter: char,
        /// Why not.
        why: String,
        /// The move.
        #[label("move {index}")]
        span: SourceSpan,
        /// What the moves before it reached.
        #[help]
        help: String,
    },

    /// LURD moves that are all legal but leave the level unsolved.
    #[error("the moves are legal but do not solve the level")]
    #[diagnostic(code(puz::lurd::not_solved))]
    NotSolved {
        /// The last move (an empty span when there is none).
        #[label("the level is not solved after this move")]
        span: SourceSpan,
        /// How far they got.
        #[help]
        help: String,
    },
}
