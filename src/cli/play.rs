//! `puz play GAME.txt`: plays a list of inputs on a level of a PuzzleScript game and says
//! whether and when it was won, with the final level in PuzzleScript's serialization: the
//! same lines as the oracle's `replay GAME LEVEL MOVES`, so the two can be diffed.

use std::sync::Arc;

use miette::{NamedSource, SourceSpan};
use puz::puzzlescript::{Entry, Game, Input, OnWin, Session};

use super::{emit, exit, output, read_as, source_name, Lang};

/// Which entry `--level` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPick {
    /// `N`: the index into the LEVELS section's entries, messages included (as the
    /// oracle's `levels` and PuzzleScript's `loadLevel` number them).
    Index(usize),
    /// `#K`: the K-th entry that is a level, from 1.
    Playable(usize),
}

/// Reads `--level`: `N` or `#K` (K from 1).
pub fn parse_level_pick(s: &str) -> Result<LevelPick, String> {
    let t = s.trim();
    if let Some(k) = t.strip_prefix('#') {
        match k.parse::<usize>() {
            Ok(k) if k >= 1 => Ok(LevelPick::Playable(k)),
            _ => Err(format!(
                "`{s}`: `#K` counts the playable levels from 1 (#1 is the first)"
            )),
        }
    } else {
        t.parse().map(LevelPick::Index).map_err(|_| {
            format!("`{s}`: give an entry index (0, 1, ...) or `#K` for the K-th playable level")
        })
    }
}

/// How a play ended, as `--json` prints it.
#[derive(serde::Serialize)]
struct Report {
    /// Whether an input won the level (or it was won on loading).
    won: bool,
    /// The 1-based index of the input that won it; 0 when won before any input.
    won_after: Option<usize>,
    /// The entry played.
    level: usize,
    /// The inputs given, in compact letters.
    inputs: String,
    /// How many of them were played (those after a win are not).
    applied: usize,
    /// The messages shown, in order.
    messages: Vec<String>,
    /// The final level in PuzzleScript's serialization (`convertLevelToString`).
    serialization: String,
}

/// `puz play`.
pub fn run(
    file: &str,
    lang: Lang,
    level: Option<LevelPick>,
    inputs: &str,
    print_level: bool,
    json: bool,
) -> Result<(), u8> {
    // The inputs are read first: a typo is reported without loading the game.
    let list = Input::parse_list(inputs).map_err(|e| {
        output::report(&BadInput::new(inputs, &e));
        exit::INPUT
    })?;
    let (text, puzzlescript) = read_as(file, lang)?;
    if !puzzlescript {
        output::report(&NotPuzzleScript {
            file: source_name(file).to_string(),
            lang,
        });
        return Err(exit::INPUT);
    }
    let (game, warnings) = load_game(source_name(file), text)?;
    if let Some(w) = warnings {
        output::report(&w);
    }
    let index = pick(&game, file, level)?;
    let Some(mut session) = Session::new(&game, index, OnWin::Stop) else {
        output::report(&no_such_level(&game, file, index.to_string()));
        return Err(exit::INPUT);
    };
    let mut won_after = session.won().then_some(0);
    let mut messages = vec![];
    let mut applied = 0;
    for (i, input) in list.iter().enumerate() {
        if won_after.is_some() {
            break;
        }
        let turn = session.input(*input);
        applied += 1;
        messages.extend(turn.messages);
        if turn.won || session.won() {
            won_after = Some(i + 1);
        }
    }
    let serialization = session.serialize();
    if json {
        let report = Report {
            won: won_after.is_some(),
            won_after,
            level: index,
            inputs: Input::compact(&list),
            applied,
            messages,
            serialization,
        };
        let text = serde_json::to_string(&report).map_err(|e| {
            say!("error: cannot write the answer as JSON: {e}");
            exit::OUTPUT
        })?;
        return emit(&(text + "\n"));
    }
    // The oracle's `replay` lines, in its order.
    let mut o = String::new();
    match won_after {
        Some(n) => {
            outln!(o, "win after {n}");
            if n < list.len() {
                outln!(o, "({} input(s) after the win not applied)", list.len() - n);
            }
        }
        None => outln!(o, "no win"),
    }
    if !messages.is_empty() {
        outln!(o, "{} message(s) shown and dismissed", messages.len());
    }
    if print_level {
        outln!(o, "final level serialization (convertLevelToString):");
        // The oracle drops the serialization's last line break and prints one.
        outln!(
            o,
            "{}",
            serialization.strip_suffix('\n').unwrap_or(&serialization)
        );
    }
    emit(&o)
}

/// The entry `--level` names, or the first playable level.
pub(super) fn pick(game: &Game, file: &str, level: Option<LevelPick>) -> Result<usize, u8> {
    let found = match level {
        None => game
            .playable(1)
            .ok_or_else(|| no_such_level(game, file, "#1".into())),
        Some(LevelPick::Playable(k)) => game
            .playable(k)
            .ok_or_else(|| no_such_level(game, file, format!("#{k}"))),
        Some(LevelPick::Index(n)) => match game.entries().get(n) {
            Some(Entry::Level { .. }) => Ok(n),
            Some(Entry::Message(text)) => {
                output::report(&MessageEntry {
                    file: source_name(file).to_string(),
                    index: n,
                    text: text.clone(),
                    next: game.entries()[n..]
                        .iter()
                        .position(|e| matches!(e, Entry::Level { .. }))
                        .map_or("none follows".into(), |d| format!("the next is {}", n + d)),
                });
                return Err(exit::INPUT);
            }
            None => Err(no_such_level(game, file, n.to_string())),
        },
    };
    found.map_err(|e| {
        output::report(&e);
        exit::INPUT
    })
}

fn no_such_level(game: &Game, file: &str, asked: String) -> NoSuchLevel {
    let levels: Vec<String> = game
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::Level { .. }))
        .map(|(i, _)| i.to_string())
        .collect();
    NoSuchLevel {
        file: source_name(file).to_string(),
        asked,
        entries: game.entries().len(),
        help: if levels.is_empty() {
            "the game has no levels".into()
        } else {
            format!(
                "its levels are entries {} (#1 to #{}); messages count in the entry numbers",
                levels.join(", "),
                levels.len()
            )
        },
    }
}

/// `--inputs` holds an item that is not an input.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`{item}` is not an input (at byte {at} of --inputs)")]
#[diagnostic(
    code(puz::play::bad_input),
    help("write words (up left down right action undo restart tick) or letters (u l d r x, . tick, z undo, R restart), separated by blanks or commas; letters may also be run together: \"uldrx\"")
)]
struct BadInput {
    #[source_code]
    src: NamedSource<String>,
    #[label("not an input")]
    span: SourceSpan,
    item: String,
    at: usize,
}

impl BadInput {
    fn new(inputs: &str, e: &puz::puzzlescript::InputError) -> BadInput {
        BadInput {
            src: NamedSource::new("--inputs", inputs.to_string()),
            span: (e.at, e.item.len()).into(),
            item: e.item.clone(),
            at: e.at,
        }
    }
}

/// `--level` names no level of the game.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{file} has no level {asked} (it has {entries} entries)")]
#[diagnostic(code(puz::play::no_such_level))]
struct NoSuchLevel {
    file: String,
    asked: String,
    entries: usize,
    #[help]
    help: String,
}

/// `--level N` names a message entry.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("entry {index} of {file} is a message, not a level: {text:?}")]
#[diagnostic(
    code(puz::play::message_entry),
    help("give a level's entry ({next}), or `#K` for the K-th playable level")
)]
struct MessageEntry {
    file: String,
    index: usize,
    text: String,
    next: String,
}

/// `puz play` on a `.puz` file.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{file} is read as a .puz file ({}): `puz play` plays PuzzleScript games", match .lang { Lang::Puz => "--lang puz", _ => "it has no PuzzleScript section headers" })]
#[diagnostic(
    code(puz::play::not_puzzlescript),
    help("a PuzzleScript game has its section headers (OBJECTS, LEGEND, COLLISIONLAYERS, ...) on lines of their own; give --lang puzzlescript to read the file as one anyway, or use `puz solve` for a .puz file")
)]
struct NotPuzzleScript {
    file: String,
    lang: Lang,
}

/// Reads a PuzzleScript game's text, shared with the loaders.
pub fn load_game(
    name: &str,
    text: String,
) -> Result<(Game, Option<puz::diagnostics::Warnings>), u8> {
    Game::load(name, Arc::new(text))
        .map(|(g, w)| (g, (!w.problems.is_empty() || w.omitted > 0).then_some(w)))
        .map_err(|d| {
            output::report(&d);
            exit::RULES
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_picks() {
        assert_eq!(parse_level_pick("0"), Ok(LevelPick::Index(0)));
        assert_eq!(parse_level_pick(" 12 "), Ok(LevelPick::Index(12)));
        assert_eq!(parse_level_pick("#1"), Ok(LevelPick::Playable(1)));
        assert!(parse_level_pick("#0").is_err());
        assert!(parse_level_pick("-1").is_err());
        assert!(parse_level_pick("one").is_err());
    }
}
