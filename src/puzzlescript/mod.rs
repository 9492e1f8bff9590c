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
mod compile;
mod dead;
mod dump;
mod engine;
pub mod expect;
mod input;
mod ir;
mod parse;
pub mod search;
pub mod solve;
mod whynot;

pub use input::{Input, InputError};
pub use parse::parse;
pub use solve::{solve_level, PsOutcome, PsSolution, PsSolveError, PsSolveOptions};
pub use whynot::{Block, Cell, Firing, Obstacle, RuleRef, WhyNot};

use std::sync::Arc;

use crate::diagnostics::{Diagnostics, Problem, Warnings};
use crate::engine::budget::{Budget, Cutoff};
use engine::trace::STUCK_WINDOW;
use engine::watch::Watch;
use engine::{Machine, Rng};
use ir::{Compiled, LevelEntry};

/// Again turns after one input beyond which the game is taken never to settle.
pub const AGAIN_CAP: usize = 20_000;

/// A compiled PuzzleScript game.
#[derive(Debug)]
pub struct Game {
    name: String,
    /// The source, for the rules an explanation names.
    source: Arc<String>,
    entries: Vec<Entry>,
    compiled: Compiled,
    /// The prelude's settings as written: keyword (lowercased) and value.
    prelude: Vec<(String, Option<String>)>,
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
        let (game, errors, warnings) = Self::build(name, &text);
        match game {
            Some(g) if errors.is_empty() => Ok((g, Warnings::new(name, text, warnings))),
            _ => Err(Diagnostics::new(name, text, errors)),
        }
    }

    /// Reads and compiles a game as PuzzleScript's engine does even when its compiler
    /// reports errors: the lines in error are left out and the rest is played. This is
    /// how PuzzleScript's own test runner plays its test games, some of which have
    /// errors; use [`Game::load`] for anything else. Every problem comes back as a
    /// warning. `Err` only when the source does not parse into sections at all.
    pub fn load_despite_errors(
        name: &str,
        text: Arc<String>,
    ) -> Result<(Game, Warnings), Diagnostics> {
        let (game, mut errors, warnings) = Self::build(name, &text);
        match game {
            Some(g) => {
                errors.extend(warnings);
                Ok((g, Warnings::new(name, text, errors)))
            }
            None => Err(Diagnostics::new(name, text, errors)),
        }
    }

    fn build(name: &str, text: &Arc<String>) -> (Option<Game>, Vec<Problem>, Vec<Problem>) {
        let wrap = |v: Vec<crate::diagnostics::PsProblem>| -> Vec<Problem> {
            v.into_iter().map(Problem::PuzzleScript).collect()
        };
        let (ast, mut errors, mut warnings) = parse::parse(text);
        let (compiled, rep) = compile::compile(&ast, text);
        errors.extend(rep.errors);
        warnings.extend(rep.warnings);
        let entries = compiled
            .levels
            .iter()
            .map(|e| match e {
                LevelEntry::Message(m) => Entry::Message(m.clone()),
                LevelEntry::Level(l) => Entry::Level {
                    width: l.width,
                    height: l.height,
                },
            })
            .collect();
        let prelude = ast
            .prelude
            .iter()
            .map(|s| (s.key.text.clone(), s.value.as_ref().map(|(v, _)| v.clone())))
            .collect();
        let game = Game {
            name: name.to_string(),
            source: text.clone(),
            entries,
            compiled,
            prelude,
        };
        (Some(game), wrap(errors), wrap(warnings))
    }

    /// The source's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source text.
    pub fn source(&self) -> &str {
        &self.source
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

    /// Whether the game uses randomness (`random` rules, `random` or `randomdir`
    /// objects): its turns are not functions of the level and the input.
    pub fn is_random(&self) -> bool {
        self.compiled.random
    }

    /// Whether the game declares `noaction` (the action key does nothing).
    pub fn noaction(&self) -> bool {
        self.compiled.flags.noaction
    }

    /// What the game is made of, after compiling.
    pub fn counts(&self) -> Counts {
        let c = &self.compiled;
        Counts {
            objects: c.objects.len(),
            layers: c.layers,
            rules: c.groups.iter().map(|g| g.rules.len()).sum(),
            groups: c.groups.len(),
            late_rules: c.late_groups.iter().map(|g| g.rules.len()).sum(),
            wins: c.wins.len(),
            levels: self
                .entries
                .iter()
                .filter(|e| matches!(e, Entry::Level { .. }))
                .count(),
            messages: self
                .entries
                .iter()
                .filter(|e| matches!(e, Entry::Message(_)))
                .count(),
        }
    }

    /// Each object's look, in id order: its name, colours and sprite.
    pub fn looks(&self) -> Vec<Look> {
        self.compiled
            .objects
            .iter()
            .map(|o| Look {
                name: o.name.clone(),
                layer: o.layer,
                colors: o.colors.clone(),
                sprite: o.sprite.clone(),
            })
            .collect()
    }

    /// The value of prelude setting `key` (lowercase: `color_palette`,
    /// `background_color`, ...) as written, the last one when repeated; `Some("")` for a
    /// keyword without a value, `None` when the prelude does not have it. Display
    /// settings the engine ignores are kept here for front ends that draw the game.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.prelude
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// The game's title, if its prelude gives one.
    pub fn title(&self) -> Option<&str> {
        self.compiled.flags.title.as_deref()
    }
}

/// What a compiled game is made of ([`Game::counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Objects.
    pub objects: usize,
    /// Collision layers.
    pub layers: usize,
    /// Concrete rules (after expansion into directions and objects), not late.
    pub rules: usize,
    /// Rule groups, not late.
    pub groups: usize,
    /// Concrete late rules.
    pub late_rules: usize,
    /// Win conditions.
    pub wins: usize,
    /// Playable levels.
    pub levels: usize,
    /// Messages between levels.
    pub messages: usize,
}

/// How an object is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The object's name, lowercased.
    pub name: String,
    /// Its collision layer (objects are drawn layer by layer, upwards).
    pub layer: usize,
    /// Its colours as written (`black`, `#ff0000`, `transparent`).
    pub colors: Vec<String>,
    /// Its sprite, rows of pixels, each a colour index or `None` (transparent); empty
    /// when the object is one colour.
    pub sprite: Vec<Vec<Option<u8>>>,
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

/// One level being played. A clone plays on from the same point (undo stack and budget
/// included).
///
/// A session may carry a time and memory budget ([`Session::with_budget`]), checked
/// between inputs and inside turns; once it runs out the session stops taking inputs
/// ([`Session::cutoff`]).
#[derive(Clone, Debug)]
pub struct Session<'g> {
    game: &'g Game,
    machine: Machine<'g>,
    /// The again turns never settled: how many ran, and whether a level repeated.
    stuck: Option<(usize, bool)>,
    /// The random generator a replay of the last input starts from: as it was before
    /// that input when it changed nothing (the level is then as it was), else as it is.
    probe_rng: Rng,
    /// Replaying groups ([`Session::pace_replay`]): inputs played in the current window,
    /// the replays counted when it began, and inputs left with replaying paused.
    replay_window: (u32, u64),
    replay_pause: u32,
}

/// Inputs in a window after which a session that replayed no group pauses replaying,
/// and inputs it stays paused: in games whose groups never start alike (or only while
/// something moves), looking runs up costs every input a little for nothing.
const REPLAY_WINDOW: u32 = 256;
const REPLAY_PAUSE: u32 = 4096;

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
    /// Whether the again turns never settled (cut off after [`AGAIN_CAP`] turns, or a
    /// repeated level): the game would animate forever and accept no input.
    pub stuck: bool,
    /// The session's budget ran out (before or during the input): the input was not
    /// played, or not to its end, and the session takes no more inputs.
    pub cutoff: Option<Cutoff>,
}

impl<'g> Session<'g> {
    /// Starts entry `index` of `game` (`run_rules_on_level_start` and its again turns
    /// included). `None` when there is no such entry.
    pub fn new(game: &'g Game, index: usize, on_win: OnWin) -> Option<Session<'g>> {
        Self::with_budget(game, index, on_win, Budget::default())
    }

    /// [`Session::new`] under a budget: its deadline, memory limit and cancel flag are
    /// checked between inputs and inside turns (once per pass of a rule group, and after
    /// every again turn), cheaply; its state limit means nothing here. A budget that
    /// runs out, even while the level starts, stops the session ([`Session::cutoff`]).
    pub fn with_budget(
        game: &'g Game,
        index: usize,
        on_win: OnWin,
        budget: Budget,
    ) -> Option<Session<'g>> {
        if index >= game.entries.len() {
            return None;
        }
        let mut machine = Machine::new(&game.compiled, on_win);
        if budget.deadline.is_some() || budget.max_bytes.is_some() || budget.cancel.is_some() {
            machine.watch = Some(Box::new(Watch::new(budget)));
        }
        // Groups that clear and redraw something every turn (lasers, shores, joins) are
        // replayed from the runs remembered when they start from cells seen before
        // (`engine/late.rs`); a group that rarely does is soon left to run.
        machine.late_replay = true;
        machine.load_level(index);
        let probe_rng = machine.rng.clone();
        let mut s = Session {
            game,
            machine,
            stuck: None,
            probe_rng,
            replay_window: (0, 0),
            replay_pause: 0,
        };
        let (_, stuck) = Self::settle(&mut s.machine);
        s.stuck = stuck;
        Some(s)
    }

    /// In a player (`OnWin::Stop`), a shown message is dismissed, and the win
    /// conditions tested then.
    fn dismiss(m: &mut Machine<'_>) {
        if m.on_win == OnWin::Stop && m.text_mode {
            m.text_mode = false;
            m.message = None;
            m.check_win(false);
        }
    }

    /// What follows a turn: its message dismissed, its again turns run (up to `cap`),
    /// each dismissed in turn, the budget checked after each. How many ran, and when
    /// they never settle, how many ran and whether in a cycle.
    fn again(m: &mut Machine<'_>, cap: usize) -> (usize, Option<(usize, bool)>) {
        Self::dismiss(m);
        let (n, ok) = m.run_again(cap, |m| {
            Self::dismiss(m);
            let cells = m.width * m.height;
            if m.watch.as_deref_mut().is_some_and(|w| w.spend(cells)) {
                m.againing = false;
            }
        });
        (n, (!ok).then_some((n, n < cap)))
    }

    fn settle(m: &mut Machine<'_>) -> (usize, Option<(usize, bool)>) {
        Self::again(m, AGAIN_CAP)
    }

    /// Plays one input (with every again turn it causes, as PuzzleScript does before
    /// accepting the next input).
    pub fn input(&mut self, input: Input) -> Turn {
        self.pace_replay();
        let mut turn = Turn::default();
        let m = &mut self.machine;
        let cells = m.width * m.height;
        if let Some(w) = m.watch.as_deref_mut() {
            if w.spend(cells) {
                turn.cutoff = w.cutoff;
                return turn;
            }
        }
        if m.on_win == OnWin::Stop && (m.winning || self.stuck.is_some()) {
            return turn;
        }
        // The input and its again turns are one scope of the journal: whether they
        // changed the level is read from what they wrote.
        m.journal.open();
        let writes = m.writes;
        let rng = m.rng.clone();
        let stop = m.on_win == OnWin::Stop;
        let mut settle = true;
        match input {
            Input::Undo => {
                m.undo(false, true);
                settle = !stop;
            }
            Input::Restart => {
                m.restart(false);
                settle = !stop;
            }
            Input::Tick => {
                m.process_input(None, false, false);
            }
            Input::Action if stop && m.c.flags.noaction => settle = false,
            dir => {
                m.process_input(Some(dir.movement()), false, false);
            }
        }
        if settle {
            let (n, stuck) = Self::settle(m);
            turn.again_turns = n;
            turn.stuck = stuck.is_some();
            if stuck.is_some() {
                self.stuck = stuck;
            }
            turn.messages = std::mem::take(&mut m.shown);
            turn.won = m.winning;
        }
        turn.changed = m.writes != writes && m.changed_in_turn();
        m.journal.close();
        turn.cutoff = m.watch.as_ref().and_then(|w| w.cutoff);
        self.probe_rng = if turn.changed { m.rng.clone() } else { rng };
        turn
    }

    /// Pauses replaying groups for [`REPLAY_PAUSE`] inputs when the last
    /// [`REPLAY_WINDOW`] replayed none, then tries again. Only a session that replays
    /// (as every session starts) is paced; one whose replaying was turned off stays so.
    fn pace_replay(&mut self) {
        let m = &mut self.machine;
        if self.replay_pause > 0 {
            self.replay_pause -= 1;
            if self.replay_pause == 0 {
                m.late_replay = true;
                self.replay_window = (0, m.late_replays);
            }
            return;
        }
        if !m.late_replay {
            return;
        }
        let (n, at) = &mut self.replay_window;
        *n += 1;
        if *n >= REPLAY_WINDOW {
            if m.late_replays == *at {
                m.late_replay = false;
                self.replay_pause = REPLAY_PAUSE;
            }
            self.replay_window = (0, m.late_replays);
        }
    }

    /// Why playing `input` now would change nothing: `None` when it would change the
    /// level or win it. A refused input leaves the level as it was, so asked right after
    /// one, this is why it was refused.
    ///
    /// Computed on demand: the input is played again on a copy of the level with the
    /// engine's tracing on (`engine/trace.rs`); the session is not touched and its own
    /// turns never trace. When the session is stuck in again turns that never settle,
    /// the answer is [`WhyNot::Stuck`] (whatever the input), with the rules that fire in
    /// the next again turns; an input that would get it stuck answers the same way even
    /// when it changes the level. The copy runs under the session's budget.
    pub fn why_not(&self, input: Input) -> Option<WhyNot> {
        let m = &self.machine;
        let source = self.game.source();
        if let Some(c) = self.cutoff() {
            return Some(WhyNot::CutOff {
                limit: c.to_string(),
            });
        }
        if m.on_win == OnWin::Stop && m.winning {
            return Some(WhyNot::Won);
        }
        if let Some((n, cycle)) = self.stuck {
            return Some(Self::stuck_why(m, n, cycle, source));
        }
        let flags = &m.c.flags;
        let stop = m.on_win == OnWin::Stop;
        match input {
            Input::Undo if flags.noundo => return Some(WhyNot::NoUndo),
            Input::Undo => {
                return m
                    .backups
                    .iter()
                    .all(|b| *b == m.objects)
                    .then_some(WhyNot::NothingToUndo)
            }
            Input::Restart if flags.norestart => return Some(WhyNot::NoRestart),
            Input::Restart => {
                let mut p = m.probe(self.probe_rng.clone());
                p.restart(false);
                return (p.objects == m.objects).then_some(WhyNot::AtRestartPoint);
            }
            Input::Action if stop && flags.noaction => return Some(WhyNot::NoAction),
            _ => {}
        }
        let mut p = m.probe(self.probe_rng.clone());
        let direction = !matches!(input, Input::Tick | Input::Action);
        p.process_input(
            (input != Input::Tick).then(|| input.movement()),
            false,
            false,
        );
        match Self::settle(&mut p) {
            (_, Some((n, cycle))) => Some(Self::stuck_why(&p, n, cycle, source)),
            (n, None) => p.explain(direction, n, source),
        }
    }

    /// Why a machine stuck in again turns (after `n` of them; `cycle`: a level repeated)
    /// is stuck: the rules that fire in the next [`STUCK_WINDOW`] again turns, played on
    /// a copy.
    fn stuck_why(m: &Machine<'_>, n: usize, cycle: bool, source: &str) -> WhyNot {
        let mut p = m.probe(m.rng.clone());
        p.againing = true;
        let (watched, _) = Self::again(&mut p, STUCK_WINDOW);
        if let Some(c) = p.watch.as_ref().and_then(|w| w.cutoff) {
            return WhyNot::CutOff {
                limit: c.to_string(),
            };
        }
        p.explain_stuck(n, cycle, watched, source)
    }

    /// Whether inputs keep the undo stack (on by default). Off, `undo` has nothing to
    /// undo and memory no longer grows with the inputs played: for a list of inputs
    /// with no undo in it, which then plays exactly as with the stack.
    pub fn keep_undo(&mut self, keep: bool) {
        self.machine.keep_undo = keep;
        if !keep {
            self.machine.backups = Vec::new();
        }
    }

    /// The budget that ran out, if one did: the session then takes no more inputs.
    pub fn cutoff(&self) -> Option<Cutoff> {
        self.machine.watch.as_ref().and_then(|w| w.cutoff)
    }

    /// Whether the level has been won (with [`OnWin::Stop`]).
    pub fn won(&self) -> bool {
        self.machine.winning
    }

    /// The entry being played.
    pub fn index(&self) -> usize {
        self.machine.level
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The level's width and height in cells.
    pub fn size(&self) -> (usize, usize) {
        (self.machine.width, self.machine.height)
    }

    /// The objects in each cell, row by row (`y * width + x`), each cell's object ids
    /// in id order (which is layer order: draw them in this order, as PuzzleScript does).
    /// Ids index [`Game::looks`].
    pub fn board(&self) -> Vec<Vec<usize>> {
        let m = &self.machine;
        let so = m.c.so;
        let (w, h) = (m.width, m.height);
        let mut out = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let i = x * h + y;
                let cell = &m.objects[i * so..(i + 1) * so];
                out.push(
                    (0..m.c.objects.len())
                        .filter(|&o| ir::has_bit(cell, o))
                        .collect(),
                );
            }
        }
        out
    }

    /// Whether the level can still take inputs (not won, with [`OnWin::Stop`], and not
    /// stuck in again turns that never settle).
    pub fn playing(&self) -> bool {
        !(self.stuck.is_some()
            || self.cutoff().is_some()
            || (self.machine.on_win == OnWin::Stop && self.machine.winning))
    }

    /// The level in PuzzleScript's own serialization (`convertLevelToString`): the
    /// format of the expected levels of its test data and of the oracle's `replay`.
    pub fn serialize(&self) -> String {
        self.machine.serialize()
    }
}
