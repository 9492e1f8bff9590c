//! Michael Fogleman's Rush Hour boards: one level per line, the 6x6 board written row by
//! row in 36 characters (`o` or `.` an empty cell, `x` a wall, `A` the red car, any other
//! letter a vehicle), as in his database of every hard position, whose lines are `moves
//! board cluster_size`: `60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780`.
//!
//! `moves` is the optimal number of moves, a vehicle sliding any distance counting as one
//! (puz's `--metric slides` on `puzzles/rushhour.puz`); it is kept as the level's
//! [`FileLevel::moves`]. The board's six rows go to the grid reader as they are, so a
//! diagnostic about a cell points at its character in the line.

use crate::diagnostics::{FormatProblem, Problem};
use crate::io::grid::{ascii_tokens, short};

use super::FileLevel;

/// Cells per side of a Rush Hour board.
const SIDE: usize = 6;

/// The fields of one line: the moves, the board and its byte offset in the line.
type Fields<'a> = (Option<u64>, &'a str, usize);

/// The fields of `line` (`[moves] BOARD [cluster]`), or the problem with them; spans are
/// offsets in the line.
fn fields(line: &str) -> Result<Fields<'_>, FormatProblem> {
    let tokens: Vec<(usize, &str)> = ascii_tokens(line).collect();
    let number = |&(at, t): &(usize, &str)| -> Result<u64, FormatProblem> {
        t.parse::<u64>().map_err(|_| FormatProblem::RushHourLine {
            found: format!("`{}` where a number belongs", short(t)),
            span: (at, t.len()).into(),
        })
    };
    let (moves, (at, board)) = match tokens.as_slice() {
        [b] => (None, *b),
        [m, b] => (Some(number(m)?), *b),
        [m, b, c] => {
            number(c)?;
            (Some(number(m)?), *b)
        }
        [.., extra] => {
            return Err(FormatProblem::RushHourLine {
                found: format!("{} fields", tokens.len()),
                span: (extra.0, extra.1.len()).into(),
            })
        }
        [] => unreachable!("blank lines are skipped"),
    };
    let n = board.chars().count();
    if n != SIDE * SIDE || !board.is_ascii() {
        return Err(FormatProblem::BoardLength {
            found: n,
            span: (at, board.len()).into(),
        });
    }
    Ok((moves, board, at))
}

/// Whether `text` is a Rush Hour database: every non-blank line `[moves] BOARD
/// [cluster]` with a 36-character board, and some line with a number.
pub(crate) fn looks_like_database(text: &str) -> bool {
    let mut numbered = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match fields(line) {
            Ok((moves, _, _)) => numbered |= moves.is_some(),
            Err(_) => return false,
        }
    }
    numbered
}

/// Reads every non-blank line as one level, numbered by its place among them.
pub(crate) fn read(text: &str) -> Result<Vec<FileLevel>, Vec<Problem>> {
    let mut levels = vec![];
    let mut problems = vec![];
    let mut off = 0;
    for raw in text.split('\n') {
        let start = off;
        off += raw.len() + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        match fields(line) {
            Ok((moves, board, at)) => {
                let base = start + at;
                levels.push(FileLevel {
                    number: levels.len() + 1,
                    title: None,
                    notes: vec![],
                    moves,
                    rows: (0..SIDE)
                        .map(|r| board[r * SIDE..(r + 1) * SIDE].to_string())
                        .collect(),
                    starts: (0..SIDE).map(|r| base + r * SIDE).collect(),
                    whole: (base, board.len()).into(),
                    beyond: vec![],
                });
            }
            Err(mut p) => {
                let shift = |s: &mut miette::SourceSpan| {
                    *s = (start + s.offset(), s.len()).into();
                };
                match &mut p {
                    FormatProblem::RushHourLine { span, .. }
                    | FormatProblem::BoardLength { span, .. } => shift(span),
                    _ => {}
                }
                problems.push(p.into());
            }
        }
    }
    if levels.is_empty() && problems.is_empty() {
        problems.push(
            FormatProblem::RushHourLine {
                found: "no line".to_string(),
                span: (0, 0).into(),
            }
            .into(),
        );
    }
    if problems.is_empty() {
        Ok(levels)
    } else {
        Err(problems)
    }
}
