//! Solving PuzzleScript levels exactly: the fewest inputs, and the shortest solution the
//! tie rule picks (inputs compared in the order up, left, down, right, action), replayed
//! in a fresh [`Session`] before it is given.

use std::fmt::Write as _;

use serde::Serialize;

use super::ir::*;
use super::search::{input_of, InputCounts, PsSpace};
use super::{Entry, Game, Input, OnWin, Session};
use crate::search::{Backend, Budget, CostTable, Cutoff, Inputs, Outcome, Refusal, Stats};

/// How to solve a level.
#[derive(Clone, Debug, Default)]
pub struct PsSolveOptions {
    /// The limits of the search.
    pub budget: Budget,
    /// The backend; `None` lets puz choose (A* where a bound derives from the rules,
    /// breadth-first search otherwise).
    pub search: Option<Backend>,
    /// Draw the level after every input (in the game's own legend characters).
    pub boards: bool,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PsOutcome {
    /// Won with the fewest inputs.
    Solved,
    /// No sequence of inputs wins the level.
    Unsolvable,
    /// A budget ran out first.
    Cutoff,
    /// The search was called off.
    Cancelled,
}

/// What one input of an answer did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PsStep {
    /// The input's word (`up`, `left`, `down`, `right`, `action`).
    pub input: &'static str,
    /// What moved, appeared or disappeared, for people: `player (2,3) -> (2,4)`, ...
    pub changes: Vec<String>,
    /// Whether this input won the level.
    pub won: bool,
}

/// A level's answer.
#[derive(Clone, Debug, Serialize)]
pub struct PsSolution {
    /// The game's source name.
    pub game: String,
    /// The game's title, if it has one.
    pub title: Option<String>,
    /// The entry solved, numbered as PuzzleScript numbers them (messages included).
    pub level: usize,
    /// Which playable level it is, from 1 (`#K`).
    pub playable: usize,
    /// Rows and columns.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// How the search ended.
    pub outcome: PsOutcome,
    /// Whether it was solved.
    pub solved: bool,
    /// Why the search stopped, when a budget ran out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The number of inputs (the cost PuzzleScript players count), when solved.
    pub cost: Option<usize>,
    /// The inputs in compact letters (`u l d r x`, run together).
    pub inputs: String,
    /// Each input with what it did.
    pub steps: Vec<PsStep>,
    /// The search backend that ran.
    pub search: String,
    /// Whether the answer is the one the tie rule picks among the shortest.
    pub canonical: bool,
    /// The lower bound A* was guided by, or why it ran without one.
    pub bound: String,
    /// The dead positions the search dropped (from which no win is possible), in words.
    pub pruning: String,
    /// When there is no solution and the rules show it before any search: why (the
    /// search then stops at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The inputs were replayed in a fresh session, reaching each searched level and
    /// winning at the last input.
    pub verified: bool,
    /// Search statistics.
    pub stats: Stats,
    /// What became of the inputs simulated.
    pub simulated: InputCounts,
    /// The level after each input (the start first), in the game's legend characters,
    /// when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<String>>,
}

/// Why a level was not searched.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PsSolveError {
    /// The entry is a message or does not exist.
    #[error("entry {index} of {game} is not a level ({what})")]
    #[diagnostic(
        code(puz::ps::not_a_level),
        help("levels are numbered as PuzzleScript numbers them, messages included (`puz check` lists them); `#K` picks the K-th playable level")
    )]
    NotALevel {
        /// The game.
        game: String,
        /// The entry asked for.
        index: usize,
        /// What it is instead.
        what: String,
    },
    /// The game's turns are not functions of the level and the input.
    #[error("{game} is not searched: {why}")]
    #[diagnostic(
        code(puz::ps::nondeterministic),
        help("an exact search needs every input to lead to one level; `puz play` still plays the game (with puz's own random generator, not PuzzleScript's)")
    )]
    Nondeterministic {
        /// The game.
        game: String,
        /// What makes it so.
        why: String,
    },
    /// The backend cannot search PuzzleScript levels.
    #[error("--search {name} cannot search PuzzleScript levels: {why}")]
    #[diagnostic(
        code(puz::ps::search_unavailable),
        help("use bfs (the default), astar, dijkstra or iddfs")
    )]
    Unavailable {
        /// The backend's name.
        name: &'static str,
        /// Why.
        why: String,
    },
    /// A turn put two objects on one layer of a cell.
    #[error("a turn put two objects on collision layer {layer} of cell ({row},{col}), which a search cannot store")]
    #[diagnostic(
        code(puz::ps::layer_overlap),
        help("PuzzleScript keeps one object per layer in a cell; this is a bug in puz if the game compiles without errors: please report it")
    )]
    Overlap {
        /// The layer.
        layer: usize,
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// The answer did not replay: a bug in puz, caught by its own check.
    #[error("internal error: the answer found does not replay in a fresh session: {0}")]
    #[diagnostic(
        code(puz::ps::bad_path),
        help("this is a bug in puz: please report it with the game and the level")
    )]
    BadPath(String),
}

/// Why a game's turns depend on more than the level and the input, if they do.
pub fn nondeterminism(game: &Game) -> Option<String> {
    if game.compiled.random {
        return Some(
            "its rules use randomness (`random` rules, `random` objects or `randomdir`)".into(),
        );
    }
    if game.compiled.flags.realtime_interval.is_some() {
        return Some(
            "it declares `realtime_interval`: turns also happen with time, not only with inputs"
                .into(),
        );
    }
    None
}

/// The unit cost table: every input costs one input.
fn unit_costs() -> CostTable {
    CostTable {
        components: 1,
        adds: vec![1],
    }
}

/// Solves entry `index` of `game`.
pub fn solve_level(
    game: &Game,
    index: usize,
    opts: &PsSolveOptions,
) -> Result<PsSolution, PsSolveError> {
    searchable(game, index, opts.search.unwrap_or(Backend::Bfs))?;
    let mut space = start(game, index)?;
    // Left to puz: A* where a bound derives (it keeps the tie rule, and on the demo
    // games it finished two more levels within 10 s than breadth-first search, with
    // the same answers), breadth-first search otherwise.
    let backend = opts.search.unwrap_or(if space.has_bound() {
        Backend::Astar
    } else {
        Backend::Bfs
    });
    let costs = unit_costs();
    let bound = match backend {
        Backend::Astar => space.bound_description(),
        _ => "none (not A*)".to_string(),
    };
    let inputs = Inputs {
        costs: &costs,
        goals: None,
        length: None,
    };
    let (outcome, stats) =
        backend
            .run(&mut space, &opts.budget, inputs)
            .map_err(|r: Refusal| PsSolveError::Unavailable {
                name: backend.info().name,
                why: r.to_string(),
            })?;
    if let Some(e) = space.overlap() {
        return Err(e);
    }
    let info = backend.info();
    let mut sol = frame(game, index, info.name, info.tie_rule, bound, stats);
    sol.simulated = space.counts;
    sol.pruning = space.pruning_description();
    conclude(&mut sol, &space, outcome, opts.boards)?;
    Ok(sol)
}

/// Checks that entry `index` of `game` can be searched by `backend` (by any search puz
/// runs, the distributed one too): it is a level, the game's turns are functions of the
/// level and the input, and the backend can run on a game.
pub(crate) fn searchable(game: &Game, index: usize, backend: Backend) -> Result<(), PsSolveError> {
    match game.entries.get(index) {
        Some(Entry::Level { .. }) => {}
        other => {
            return Err(PsSolveError::NotALevel {
                game: game.name.clone(),
                index,
                what: match other {
                    Some(Entry::Message(_)) => "a message".into(),
                    _ => format!("the game has {} entries", game.entries.len()),
                },
            })
        }
    }
    if let Some(why) = nondeterminism(game) {
        return Err(PsSolveError::Nondeterministic {
            game: game.name.clone(),
            why,
        });
    }
    let why = match backend {
        Backend::Bidir => Some("PuzzleScript turns have no inverse in general, and the won levels cannot be listed up front"),
        Backend::Dfs => Some("solutions of a PuzzleScript level do not all have one length"),
        Backend::Layered => Some("it runs on the .puz interpreter's pieces and moves only"),
        _ => None,
    };
    match why {
        Some(why) => Err(PsSolveError::Unavailable {
            name: backend.info().name,
            why: why.into(),
        }),
        None => Ok(()),
    }
}

/// The space of a level [`searchable`] found to be one, refused when its start cannot be
/// stored.
pub(crate) fn start(game: &Game, index: usize) -> Result<PsSpace<'_>, PsSolveError> {
    let space = PsSpace::new(game, index).ok_or_else(|| PsSolveError::NotALevel {
        game: game.name.clone(),
        index,
        what: "not a level".into(),
    })?;
    match space.overlap() {
        Some(e) => Err(e),
        None => Ok(space),
    }
}

/// The answer for entry `index` of `game` before the search's outcome is told: the level,
/// the search that ran (`search`, `canonical`: whether it keeps the tie rule), its bound
/// and statistics; no inputs simulated yet.
pub(crate) fn frame(
    game: &Game,
    index: usize,
    search: &str,
    canonical: bool,
    bound: String,
    stats: Stats,
) -> PsSolution {
    let (cols, rows) = match game.entries.get(index) {
        Some(Entry::Level { width, height }) => (*width, *height),
        _ => (0, 0),
    };
    let playable = game.entries[..=index.min(game.entries.len().saturating_sub(1))]
        .iter()
        .filter(|e| matches!(e, Entry::Level { .. }))
        .count();
    PsSolution {
        game: game.name.clone(),
        title: game.title().map(str::to_string),
        level: index,
        playable,
        rows,
        cols,
        outcome: PsOutcome::Unsolvable,
        solved: false,
        stopped: None,
        cost: None,
        inputs: String::new(),
        steps: vec![],
        search: search.to_string(),
        canonical,
        bound,
        pruning: String::new(),
        proof: None,
        verified: false,
        stats,
        simulated: InputCounts::default(),
        boards: None,
    }
}

/// Tells `outcome` in `sol`: a path is replayed in a fresh session first (each input must
/// reach the searched level, the last must win), then written as inputs, what each
/// moved, and the boards when `boards`; `space` is the level's (to unpack its states).
pub(crate) fn conclude(
    sol: &mut PsSolution,
    space: &PsSpace,
    outcome: Outcome,
    boards: bool,
) -> Result<(), PsSolveError> {
    let game = space.game();
    let (index, rows, cols) = (sol.level, sol.rows, sol.cols);
    match outcome {
        Outcome::Solved(path) => {
            let inputs: Vec<Input> = path.actions.iter().map(|&a| input_of(a)).collect();
            let objects: Vec<Vec<u64>> = path.states.iter().map(|s| space.objects(s)).collect();
            verify(game, index, &inputs, &objects)?;
            sol.outcome = PsOutcome::Solved;
            sol.solved = true;
            sol.verified = true;
            sol.cost = Some(inputs.len());
            sol.inputs = Input::compact(&inputs);
            let c = &game.compiled;
            sol.steps = inputs
                .iter()
                .enumerate()
                .map(|(k, i)| PsStep {
                    input: i.word(),
                    changes: changes(c, rows, &objects[k], &objects[k + 1]),
                    won: k + 1 == inputs.len(),
                })
                .collect();
            if boards {
                sol.boards = Some(objects.iter().map(|o| draw(c, cols, rows, o)).collect());
            }
        }
        Outcome::Cost(_) => {}
        Outcome::Unsolvable => sol.proof = space.hopeless().map(str::to_string),
        Outcome::Cutoff(c) => {
            sol.outcome = if c == Cutoff::Cancelled {
                PsOutcome::Cancelled
            } else {
                PsOutcome::Cutoff
            };
            sol.stopped = Some(c.to_string());
        }
    }
    Ok(())
}

/// Replays `inputs` in a fresh session: each input must reach the searched level, and
/// the level must be won at the last input and not before.
fn verify(
    game: &Game,
    index: usize,
    inputs: &[Input],
    objects: &[Vec<u64>],
) -> Result<(), PsSolveError> {
    let mut s = Session::new(game, index, OnWin::Stop)
        .ok_or_else(|| PsSolveError::BadPath("the level does not load".into()))?;
    // Every group runs: the check does not lean on the runs the search replayed.
    s.machine.late_replay = false;
    if s.machine.objects != objects[0] {
        return Err(PsSolveError::BadPath(
            "the level does not start as searched".into(),
        ));
    }
    for (k, &i) in inputs.iter().enumerate() {
        if s.won() {
            return Err(PsSolveError::BadPath(format!("won before input {}", k + 1)));
        }
        s.input(i);
        if s.machine.objects != objects[k + 1] {
            return Err(PsSolveError::BadPath(format!(
                "input {} ({}) does not lead to the searched level",
                k + 1,
                i.word()
            )));
        }
    }
    if !s.won() {
        return Err(PsSolveError::BadPath(format!(
            "the {} inputs do not win the level",
            inputs.len()
        )));
    }
    Ok(())
}

/// What changed between two levels, object by object, for people: an object that left
/// one cell and arrived in one other moved (`crate (2,3) -> (2,4)`); otherwise the cells
/// it left and arrived in. Cells are (row,col) from the top left, from 0.
fn changes(c: &Compiled, rows: usize, before: &[u64], after: &[u64]) -> Vec<String> {
    let so = c.so;
    let cells = before.len() / so.max(1);
    let at = |i: usize| format!("({},{})", i % rows.max(1), i / rows.max(1));
    let mut out = vec![];
    for (id, o) in c.objects.iter().enumerate() {
        let mut gone = vec![];
        let mut came = vec![];
        for i in 0..cells {
            let (b, a) = (
                has_bit(&before[i * so..(i + 1) * so], id),
                has_bit(&after[i * so..(i + 1) * so], id),
            );
            if b && !a {
                gone.push(i);
            }
            if a && !b {
                came.push(i);
            }
        }
        // Row-major order, as people read a board.
        let key = |&i: &usize| (i % rows.max(1), i / rows.max(1));
        gone.sort_by_key(key);
        came.sort_by_key(key);
        match (gone.as_slice(), came.as_slice()) {
            ([], []) => {}
            ([g], [a]) => out.push(format!("{} {} -> {}", o.name, at(*g), at(*a))),
            _ => {
                let mut line = o.name.clone();
                if !gone.is_empty() {
                    let list: Vec<String> = gone.iter().map(|&i| at(i)).collect();
                    let _ = write!(line, " gone from {}", list.join(" "));
                }
                if !came.is_empty() {
                    let list: Vec<String> = came.iter().map(|&i| at(i)).collect();
                    let sep = if gone.is_empty() { "" } else { ";" };
                    let _ = write!(line, "{sep} new at {}", list.join(" "));
                }
                out.push(line);
            }
        }
    }
    out
}

/// A level drawn in the game's legend characters, row by row. A cell is drawn with the
/// character that stands for exactly its objects (the background aside, which levels fill
/// in), else with the one standing for most of them, else `?`.
pub(crate) fn draw(c: &Compiled, width: usize, height: usize, objects: &[u64]) -> String {
    let so = c.so;
    let bg = c.background_layer.map(|l| c.layer_mask(l).to_vec());
    let strip = |m: &[u64]| -> Vec<u64> {
        match &bg {
            Some(b) => m.iter().zip(b).map(|(x, y)| x & !y).collect(),
            None => m.to_vec(),
        }
    };
    let glyphs: Vec<(char, Vec<u64>, Vec<u64>)> = c
        .glyphs
        .iter()
        .map(|(ch, m)| (*ch, m.clone(), strip(m)))
        .collect();
    let mut out = String::with_capacity((width + 1) * height);
    for y in 0..height {
        for x in 0..width {
            let i = x * height + y;
            let cell = &objects[i * so..(i + 1) * so];
            let bare = strip(cell);
            let ch = glyphs
                .iter()
                .find(|(_, m, _)| m.as_slice() == cell)
                .or_else(|| glyphs.iter().find(|(_, _, s)| *s == bare))
                .or_else(|| {
                    // The first of those standing for the most objects.
                    glyphs
                        .iter()
                        .enumerate()
                        .filter(|(_, (_, m, _))| all_in(m, cell))
                        .max_by_key(|(k, (_, m, _))| {
                            // Most objects, then the topmost layer (what shows), then
                            // the first.
                            let top = (0..c.objects.len())
                                .filter(|&id| has_bit(m, id))
                                .map(|id| c.objects[id].layer)
                                .max();
                            (
                                m.iter().map(|w| w.count_ones()).sum::<u32>(),
                                top,
                                std::cmp::Reverse(*k),
                            )
                        })
                        .map(|(_, g)| g)
                })
                .map_or('?', |g| g.0);
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

impl PsSolution {
    /// The answer as `puz solve` prints it.
    pub fn report(&self) -> String {
        let mut o = String::new();
        let title = self.title.as_deref().unwrap_or(&self.game);
        let _ = writeln!(
            o,
            "game: {title} / level {} (#{}, {} x {})",
            self.level, self.playable, self.rows, self.cols
        );
        match self.outcome {
            PsOutcome::Solved => {
                let n = self.cost.unwrap_or_default();
                let _ = writeln!(o, "cost: {n} input{}", if n == 1 { "" } else { "s" });
                let _ = writeln!(o, "inputs ({n}): {}", self.inputs);
                let width = n.to_string().len();
                for (k, s) in self.steps.iter().enumerate() {
                    let what = if s.changes.is_empty() {
                        "nothing moves".to_string()
                    } else {
                        s.changes.join(", ")
                    };
                    let won = if s.won { " (won)" } else { "" };
                    let _ = writeln!(o, "{:>width$}. {}: {what}{won}", k + 1, s.input);
                }
            }
            PsOutcome::Unsolvable => match &self.proof {
                Some(why) => {
                    let _ = writeln!(o, "no solution: {why}, so no sequence of inputs wins this level (shown from the rules, before any search)");
                }
                None => {
                    let _ = writeln!(
                        o,
                        "no solution: no sequence of inputs wins this level ({} states explored)",
                        self.stats.stored
                    );
                }
            },
            PsOutcome::Cutoff | PsOutcome::Cancelled => {
                let _ = writeln!(
                    o,
                    "no answer: {} ({} states stored)",
                    self.stopped.as_deref().unwrap_or("the search stopped"),
                    self.stats.stored
                );
            }
        }
        if let Some(boards) = &self.boards {
            for (k, b) in boards.iter().enumerate() {
                if k == 0 {
                    o.push_str("\nstart:\n");
                } else {
                    let s = &self.steps[k - 1];
                    let _ = writeln!(o, "\n{k}: {}", s.input);
                }
                o.push_str(b);
            }
        }
        o
    }
}
