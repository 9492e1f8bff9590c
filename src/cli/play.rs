//! `puz play GAME.txt`: plays a list of inputs on a level of a PuzzleScript game and says
//! whether and when it was won, with the final level in PuzzleScript's serialization: the
//! same lines as the oracle's `replay GAME LEVEL MOVES` (`stuck after N: ...`, `win after
//! N` or `no win`, the messages, the serialization), so the two can be diffed; then puz's
//! own `why:` and `refused:` lines, which say why the again turns never settle and why an
//! input changed nothing (the last one, or with `--why` every one).
//!
//! The run is under a time and memory budget (`--timeout`, `--max-memory`, with defaults),
//! checked inside turns too; when it runs out the run ends with exit code 3 and says how
//! many inputs were played. Again turns that never settle are reported as
//! `puz::ps::never_settles`, labelled on the rules that keep firing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use miette::{NamedSource, SourceSpan};
use puz::puzzlescript::{Entry, Game, Input, OnWin, Session, WhyNot};
use puz::search::{Budget, Pacer, CHECK_EVERY};

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

/// The inputs to play: `--inputs`, or `--inputs-file` when given.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// `--inputs`.
    pub text: String,
    /// `--inputs-file` (`-`: standard input).
    pub file: Option<String>,
}

/// What `puz play` prints besides the verdict.
#[derive(Clone, Copy, Debug)]
pub struct Show {
    /// `--print-level`: the final level in PuzzleScript's serialization.
    pub print_level: bool,
    /// `--json`.
    pub json: bool,
    /// `--why`: every input that changed nothing explained, not only the last.
    pub why: bool,
}

/// `--timeout` and `--max-memory` (defaults 60 s and 2048 MiB: a hostile game, a huge
/// level or millions of inputs never run unbounded).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time for the whole run, loading included.
    pub timeout: Duration,
    /// Resident memory, in MiB.
    pub max_memory: u64,
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
    /// How many of them were played (those after a win, or after the game got stuck,
    /// are not).
    applied: usize,
    /// The messages shown, in order.
    messages: Vec<String>,
    /// The again turns never settled: after which input, and the rules that kept firing.
    stuck: Option<Stuck>,
    /// Inputs that changed nothing, and why: the last input when it did, or with
    /// `--why` every one.
    refused: Vec<Refusal>,
    /// The final level in PuzzleScript's serialization (`convertLevelToString`).
    serialization: String,
}

/// Again turns that never settle, as `--json` reports them.
#[derive(serde::Serialize)]
struct Stuck {
    /// The 1-based input after which they began; 0 as the level started.
    after: usize,
    /// The oracle's word: `again-cycle` (a level repeated) or `again-cap`.
    how: &'static str,
    /// Why, with the rules that keep firing (`kind` is `stuck`).
    why: WhyNot,
    /// The same as a sentence.
    message: String,
}

/// An input that changed nothing, as `--json` reports it.
#[derive(serde::Serialize)]
struct Refusal {
    /// Its 1-based number.
    input: usize,
    /// The input as a word (`left`, `action`, `undo`, ...).
    key: &'static str,
    /// Why (`kind` names the reason; the other fields are its details).
    why: Option<WhyNot>,
    /// The same as a sentence.
    message: String,
}

/// `puz play`.
pub fn run(
    file: &str,
    lang: Lang,
    level: Option<LevelPick>,
    inputs: Inputs,
    show: Show,
    limits: Limits,
) -> Result<(), u8> {
    let budget = Budget {
        deadline: Some(Instant::now() + limits.timeout),
        max_bytes: Some(limits.max_memory << 20),
        ..Budget::default()
    };
    // The inputs are read first: a typo is reported without loading the game.
    let (name, text) = match inputs.file {
        None => ("--inputs".to_string(), inputs.text),
        Some(path) => {
            let text = puz::io::read_source(&path).map_err(|e| {
                output::report(&e);
                exit::INPUT
            })?;
            (source_name(&path).to_string(), text)
        }
    };
    let list = Input::parse_list(&text).map_err(|e| {
        output::report(&BadInput::new(&name, &text, &e));
        exit::INPUT
    })?;
    drop(text);
    let (text, puzzlescript) = read_as(file, lang)?;
    if !puzzlescript {
        output::report(&NotPuzzleScript {
            file: source_name(file).to_string(),
            lang,
        });
        return Err(exit::INPUT);
    }
    let (game, warnings) = load_within(source_name(file), text, &budget)?;
    if let Some(w) = warnings {
        output::report(&w);
    }
    let index = pick(&game, file, level)?;
    // The budget ran out: `played` inputs were played to their end, and it ran out in
    // input `played + 1`, or explaining input `played` (`explaining`).
    let cut = |played: usize, explaining: bool, cutoff: String| {
        output::report(&CutOff {
            file: source_name(file).to_string(),
            at: if explaining {
                format!("while explaining input {played} of {}", list.len())
            } else {
                format!("in input {} of {}", played + 1, list.len())
            },
            played,
            cutoff,
        });
        exit::CUTOFF
    };
    let Some(mut session) = Session::with_budget(&game, index, OnWin::Stop, budget) else {
        output::report(&no_such_level(&game, file, index.to_string()));
        return Err(exit::INPUT);
    };
    if let Some(c) = session.cutoff() {
        output::report(&CutOff {
            file: source_name(file).to_string(),
            at: "as the level started".to_string(),
            played: 0,
            cutoff: c.to_string(),
        });
        return Err(exit::CUTOFF);
    }
    // Without an undo among the inputs, the undo stack is never read: dropping it keeps
    // memory flat over millions of inputs.
    session.keep_undo(list.contains(&Input::Undo));
    let mut won_after = session.won().then_some(0);
    let mut stuck_after = (!session.playing() && won_after.is_none()).then_some(0);
    let mut messages = vec![];
    let mut applied = 0;
    let mut refused = vec![];
    for (i, input) in list.iter().enumerate() {
        if won_after.is_some() || stuck_after.is_some() {
            break;
        }
        let turn = session.input(*input);
        if let Some(c) = turn.cutoff {
            return Err(cut(i, false, c.to_string()));
        }
        applied += 1;
        messages.extend(turn.messages);
        if turn.won || session.won() {
            won_after = Some(i + 1);
        } else if turn.stuck {
            stuck_after = Some(i + 1);
        } else if !turn.changed && (show.why || i + 1 == list.len()) {
            let why = session.why_not(*input);
            if let Some(WhyNot::CutOff { limit }) = why {
                return Err(cut(i + 1, true, limit));
            }
            refused.push(Refusal {
                input: i + 1,
                key: input.word(),
                message: why
                    .as_ref()
                    .map_or("it changed nothing".to_string(), |w| w.to_string()),
                why,
            });
        }
    }
    let stuck = match stuck_after {
        None => None,
        Some(after) => {
            let why = session.why_not(Input::Tick);
            match why {
                Some(w @ WhyNot::Stuck { .. }) => {
                    if let Some(d) = w.never_settles(&game, after) {
                        output::report(&d);
                    }
                    let cycle = matches!(w, WhyNot::Stuck { cycle: true, .. });
                    Some(Stuck {
                        after,
                        how: if cycle { "again-cycle" } else { "again-cap" },
                        message: w.to_string(),
                        why: w,
                    })
                }
                Some(WhyNot::CutOff { limit }) => return Err(cut(after, true, limit)),
                other => {
                    say!("error: puz could not tell why the again turns never settle ({other:?})");
                    return Err(exit::INTERNAL);
                }
            }
        }
    };
    let serialization = session.serialize();
    if show.json {
        let report = Report {
            won: won_after.is_some(),
            won_after,
            level: index,
            inputs: Input::compact(&list),
            applied,
            messages,
            stuck,
            refused,
            serialization,
        };
        let text = serde_json::to_string(&report).map_err(|e| {
            say!("error: cannot write the answer as JSON: {e}");
            exit::OUTPUT
        })?;
        return emit(&(text + "\n"));
    }
    // The oracle's `replay` lines, in its order, then why inputs changed nothing.
    let mut o = String::new();
    if let Some(s) = &stuck {
        outln!(
            o,
            "stuck after {}: {} (the engine keeps running again turns; no input is accepted)",
            s.after,
            s.how
        );
    }
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
    if let Some(s) = &stuck {
        outln!(o, "why: {}", s.message);
    }
    for r in &refused {
        outln!(o, "refused: input {} ({}): {}", r.input, r.key, r.message);
    }
    if show.print_level {
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

/// The budget ran out.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{file}: stopped {at}: {cutoff} (inputs played to their end: {played})")]
#[diagnostic(
    code(puz::play::cutoff),
    help(
        "give it more room with --timeout SECONDS or --max-memory MIB (defaults 60 s and 2048 MiB)"
    )
)]
struct CutOff {
    file: String,
    at: String,
    played: usize,
    cutoff: String,
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
#[error("`{item}` is not an input (at byte {at} of {name})")]
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
    name: String,
}

impl BadInput {
    fn new(name: &str, inputs: &str, e: &puz::puzzlescript::InputError) -> BadInput {
        BadInput {
            name: name.to_string(),
            src: NamedSource::new(name, inputs.to_string()),
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

/// [`load_game`] under the budget: compiling is not budgeted inside (a game of thousands
/// of rules that each expand into thousands takes minutes), so it runs on a thread of its
/// own while this one checks the clock and the memory every 50 ms; when the budget runs
/// out the run ends at once (`puz::play::cutoff`, exit 3), the thread with it.
fn load_within(
    name: &str,
    text: String,
    budget: &Budget,
) -> Result<(Game, Option<puz::diagnostics::Warnings>), u8> {
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = name.to_string();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(load_game(&owned, text));
    });
    let mut pacer = Pacer::default();
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(loaded) => return loaded,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                // The loader panicked: a bug, reported as any panic is (exit 101).
                if let Err(panic) = worker.join() {
                    std::panic::resume_unwind(panic);
                }
                say!("error: loading {name} ended without a result");
                return Err(exit::INTERNAL);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        // A whole slow check (clock and memory) on every wake-up.
        if let Err(c) = pacer.tick(CHECK_EVERY, budget) {
            output::report(&CutOff {
                file: name.to_string(),
                at: "while loading the game".to_string(),
                played: 0,
                cutoff: c.to_string(),
            });
            return Err(exit::CUTOFF);
        }
    }
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
