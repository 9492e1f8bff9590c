//! What a designer expects of a game's levels, in a small file beside the game (a
//! PuzzleScript game has no syntax for it), checked by `puz test`.
//!
//! The file is the game's path with its extension replaced by `.expect`
//! (`microban.txt` -> `microban.expect`). One expectation a line, `LEVEL: WANT`:
//!
//! ```text
//! (comments are in parentheses, as in PuzzleScript, and may span lines)
//! 1: 33 inputs        (entry 1 is won in 33 inputs at the fewest)
//! #2: 16              (the second playable level: 16 inputs)
//! 5: unsolvable       (no sequence of inputs wins entry 5)
//! 7: solvable         (some sequence wins it, however long)
//! 3: solution rrdlu   (the shortest solution the tie rule picks is exactly this)
//! ```
//!
//! LEVEL is an entry number as PuzzleScript numbers them (messages counted, from 0) or
//! `#K`, the K-th playable level (from 1).

use std::sync::Arc;

use miette::{NamedSource, SourceSpan};

use super::{Entry, Game, Input};

/// What a level must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// Won in exactly this many inputs at the fewest.
    Inputs(usize),
    /// No sequence of inputs wins it.
    Unsolvable,
    /// Some sequence wins it.
    Solvable,
    /// The tie rule's shortest solution is exactly these inputs (compact letters).
    Solution(String),
}

impl std::fmt::Display for Want {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Want::Inputs(n) => write!(f, "{n} input{}", if *n == 1 { "" } else { "s" }),
            Want::Unsolvable => write!(f, "no solution"),
            Want::Solvable => write!(f, "solvable"),
            Want::Solution(s) => write!(f, "solution {s}"),
        }
    }
}

/// One expectation: the entry it is about, what it must be, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The entry (messages counted, from 0).
    pub level: usize,
    /// What the level must be.
    pub want: Want,
    /// The line, in the expectations file.
    pub line: usize,
}

/// A mistake in an expectations file.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExpectError {
    /// A line that does not read as `LEVEL: WANT`.
    #[error("{message}")]
    #[diagnostic(
        code(puz::ps::expect_syntax),
        help("write `LEVEL: WANT`: LEVEL an entry number (messages counted, from 0) or `#K` (the K-th playable level); WANT `N inputs`, `unsolvable`, `solvable` or `solution LETTERS` (u l d r x); comments in parentheses")
    )]
    Syntax {
        /// What is wrong.
        message: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<String>>,
        /// Where.
        #[label("here")]
        span: SourceSpan,
    },
    /// A level the game does not have, or a message entry.
    #[error("{message}")]
    #[diagnostic(code(puz::ps::expect_level), help("{help}"))]
    Level {
        /// What is wrong.
        message: String,
        /// The game's levels.
        help: String,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<String>>,
        /// Where.
        #[label("this level")]
        span: SourceSpan,
    },
    /// Two expectations for one level.
    #[error("level {level} has two expectations")]
    #[diagnostic(
        code(puz::ps::expect_duplicate),
        help("keep one line per level (a level's count and its solution can be written as `solution LETTERS`, which implies the count)")
    )]
    Duplicate {
        /// The entry.
        level: usize,
        /// The file.
        #[source_code]
        src: NamedSource<Arc<String>>,
        /// The second one.
        #[label("again here")]
        span: SourceSpan,
        /// The first one.
        #[label("first here")]
        first: SourceSpan,
    },
}

/// The path of a game's expectations file: its extension replaced by `.expect`.
pub fn sidecar_path(game: &std::path::Path) -> std::path::PathBuf {
    game.with_extension("expect")
}

/// The text with comments (parentheses, nested, across lines) blanked out, one space per
/// byte, so offsets stay the source's.
fn strip_comments(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                out.push(' ');
            }
            ')' if depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            '\n' => out.push('\n'),
            _ if depth > 0 => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
            c => out.push(c),
        }
    }
    out
}

/// Reads the expectations file `name` for `game`.
pub fn parse(game: &Game, name: &str, text: Arc<String>) -> Result<Vec<Expectation>, ExpectError> {
    let src = || NamedSource::new(name, text.clone());
    let clean = strip_comments(&text);
    let mut out: Vec<(Expectation, SourceSpan)> = vec![];
    let mut offset = 0;
    for (lineno, line) in clean.split('\n').enumerate() {
        let start = offset;
        offset += line.len() + 1;
        let body = line.trim();
        if body.is_empty() {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let at = |from: usize, len: usize| SourceSpan::from((start + lead + from, len.max(1)));
        let syntax = |message: String, span: SourceSpan| ExpectError::Syntax {
            message,
            src: src(),
            span,
        };
        let Some(colon) = body.find(':') else {
            return Err(syntax(
                "an expectation is `LEVEL: WANT`; this line has no `:`".into(),
                at(0, body.len()),
            ));
        };
        let level_text = body[..colon].trim();
        let level_span = at(0, colon);
        let level = match level_text.strip_prefix('#') {
            Some(k) => match k.trim().parse::<usize>() {
                Ok(k) if k >= 1 => game.playable(k).ok_or_else(|| ExpectError::Level {
                    message: format!("the game has no playable level #{k}"),
                    help: levels_help(game),
                    src: src(),
                    span: level_span,
                })?,
                _ => {
                    return Err(syntax(
                        format!(
                            "`{level_text}` is not a level: `#K` counts playable levels from 1"
                        ),
                        level_span,
                    ))
                }
            },
            None => match level_text.parse::<usize>() {
                Ok(n) => match game.entries().get(n) {
                    Some(Entry::Level { .. }) => n,
                    Some(Entry::Message(_)) => {
                        return Err(ExpectError::Level {
                            message: format!("entry {n} is a message, not a level"),
                            help: levels_help(game),
                            src: src(),
                            span: level_span,
                        })
                    }
                    None => {
                        return Err(ExpectError::Level {
                            message: format!("the game has no entry {n}"),
                            help: levels_help(game),
                            src: src(),
                            span: level_span,
                        })
                    }
                },
                Err(_) => {
                    return Err(syntax(
                        format!("`{level_text}` is not a level: give an entry number or `#K`"),
                        level_span,
                    ))
                }
            },
        };
        let rest = &body[colon + 1..];
        let rest_lead = rest.len() - rest.trim_start().len();
        let want_text = rest.trim();
        let want_span = at(colon + 1 + rest_lead, want_text.len());
        let words: Vec<&str> = want_text.split_whitespace().collect();
        let want = match words.as_slice() {
            ["unsolvable"] => Want::Unsolvable,
            ["solvable"] => Want::Solvable,
            [n] | [n, "inputs" | "input"] if n.parse::<usize>().is_ok() => {
                Want::Inputs(n.parse().unwrap_or_default())
            }
            ["solution", letters @ ..] if !letters.is_empty() => {
                let joined: String = letters.concat();
                match Input::parse_list(&joined) {
                    Ok(list)
                        if list.iter().all(|i| {
                            matches!(
                                i,
                                Input::Up | Input::Left | Input::Down | Input::Right | Input::Action
                            )
                        }) =>
                    {
                        Want::Solution(Input::compact(&list))
                    }
                    _ => {
                        return Err(syntax(
                            "a solution is written in the letters u l d r x (up, left, down, right, action)".into(),
                            want_span,
                        ))
                    }
                }
            }
            [] => return Err(syntax("nothing is expected after `:`".into(), at(colon, 1))),
            _ => {
                return Err(syntax(
                    format!("`{want_text}` is not an expectation"),
                    want_span,
                ))
            }
        };
        if let Some((_, first)) = out.iter().find(|(e, _)| e.level == level) {
            return Err(ExpectError::Duplicate {
                level,
                src: src(),
                span: at(0, body.len()),
                first: *first,
            });
        }
        out.push((
            Expectation {
                level,
                want,
                line: lineno + 1,
            },
            at(0, body.len()),
        ));
    }
    Ok(out.into_iter().map(|(e, _)| e).collect())
}

/// The help that lists a game's levels.
fn levels_help(game: &Game) -> String {
    let levels: Vec<String> = game
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::Level { .. }))
        .map(|(i, _)| i.to_string())
        .collect();
    if levels.is_empty() {
        "the game has no levels".into()
    } else {
        format!(
            "its levels are entries {} (#1 to #{}); messages count in the entry numbers",
            levels.join(", "),
            levels.len()
        )
    }
}
