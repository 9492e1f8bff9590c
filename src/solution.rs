//! The complete answer to one level: what the library gives every front end.
//!
//! [`crate::solver::Solver::solution`] (and [`crate::Puzzle::solve`] over it) runs a
//! search and returns a [`Solution`]: the outcome, the moves told with the pieces they
//! moved (grouped into counted moves under a metric), the letters, the cost vector with
//! its names, which engine and search ran and why, the counters, whether the path follows
//! the tie rule, and, when asked, the board after every move. Every path in a `Solution`
//! has been replayed through the interpreter: each move legal, the last state a goal, the
//! cost the one claimed. It serialises with serde into the JSON that `puz solve --json`
//! prints and the playground's API returns; [`Solution::report`] gives the text `puz solve`
//! prints.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::compile::{Action, Model};
use crate::engine::compound::counted_cost;
use crate::engine::lints::OutOfReach;
use crate::engine::{CellPos, Expander, Level, MoveDescription};
use crate::io::view::BoardView;
use crate::search::Budget;
use crate::search::{Cutoff, Outcome, Stats};
use crate::solver::{path_cost, Answer, SolveError, Solver};
pub use crate::solver::{Boards, Drawing};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A goal was reached; the cost is optimal.
    Solved,
    /// No goal can be reached (within the move limit, if the rules set one).
    Unsolvable,
    /// A budget ran out first: no answer.
    Cutoff,
    /// The search was called off: no answer.
    Cancelled,
}

/// One counted move under a metric: the unit steps it groups, told as one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountedMove {
    /// The move's name (its first unit step's).
    #[serde(rename = "move")]
    pub name: String,
    /// The piece it moved, if any did.
    pub piece: Option<String>,
    /// That piece's anchor before the first step.
    pub from: Option<CellPos>,
    /// Its anchor after the last step.
    pub to: Option<CellPos>,
    /// The unit steps' letters.
    pub letters: String,
    /// One line for people: `step_big big (0,1) -> (2,1) ss`.
    pub line: String,
    /// The unit steps.
    pub steps: Vec<MoveDescription>,
}

/// The moves of a [`Solution`]: one per unit move, or counted moves under a metric.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Moves {
    /// Every move, one at a time (no metric).
    Unit(Vec<MoveDescription>),
    /// Counted moves, each with its unit steps (under a metric).
    Counted(Vec<CountedMove>),
}

impl Moves {
    /// How many moves (counted moves under a metric).
    pub fn len(&self) -> usize {
        match self {
            Moves::Unit(m) => m.len(),
            Moves::Counted(m) => m.len(),
        }
    }

    /// No move at all (the start is a goal, or there is no path).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each move as one line for people, in order.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Moves::Unit(m) => m.iter().map(MoveDescription::line).collect(),
            Moves::Counted(m) => m.iter().map(|c| c.line.clone()).collect(),
        }
    }
}

/// A cost vector with the names of its components, serialised as a JSON object in the
/// order the file declares them (`{"pushes": 6, "walks": 22}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    /// The components' names: `moves` when the file declares no `cost`.
    pub names: Vec<String>,
    /// The values, one per name.
    pub values: Vec<u64>,
}

impl Cost {
    /// `values` with the names `model` gives its cost components.
    pub fn of(model: &Model, values: Vec<u64>) -> Cost {
        Cost {
            names: cost_names(model),
            values,
        }
    }
}

impl Serialize for Cost {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.names.len()))?;
        for (n, v) in self.names.iter().zip(&self.values) {
            m.serialize_entry(n, v)?;
        }
        m.end()
    }
}

impl std::fmt::Display for Cost {
    /// `10 rolls`, or `6 pushes, 22 walks`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .values
            .iter()
            .zip(&self.names)
            .map(|(&v, n)| crate::diagnostics::quantity(v, n))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// The complete, verified answer to one level (see the module header).
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// The puzzle's title.
    pub puzzle: String,
    /// The level's name.
    pub level: String,
    /// Rows of the level's board.
    pub rows: usize,
    /// Columns of the level's board.
    pub cols: usize,
    /// How the search ended.
    pub outcome: Status,
    /// Whether a goal was reached (the outcome is [`Status::Solved`]).
    pub solved: bool,
    /// Why the search stopped, for [`Status::Cutoff`] and [`Status::Cancelled`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The budget that ran out, for [`Status::Cutoff`] and [`Status::Cancelled`].
    #[serde(skip)]
    pub cutoff: Option<Cutoff>,
    /// The engine that ran: a fast path's name, or `interpreter`.
    pub engine: String,
    /// Why that engine ran.
    pub engine_reason: String,
    /// The search that ran (`fast` on a fast path).
    pub search: String,
    /// Whether the path is the one the tie rule picks among the optimal ones (see the
    /// README); a path is always optimal.
    pub canonical: bool,
    /// Whether the path was replayed through the interpreter and checked (always, for
    /// the paths a [`Solution`] holds; `false` only when there is no path).
    pub verified: bool,
    /// The optimal cost, when solved.
    pub cost: Option<Cost>,
    /// The metric the moves are counted in, if one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The moves' letters (every unit step's, under a metric), as judges print them.
    pub path: String,
    /// The path in LURD, the Sokoban community's notation, when it reads as one: every
    /// move a step of one piece kind left, up, right or down (`crate::io::lurd`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lurd: Option<String>,
    /// How many moves (counted moves under a metric).
    pub move_count: usize,
    /// How many unit moves: [`Solution::move_count`] unless a metric groups them.
    pub unit_steps: usize,
    /// The moves, told with the pieces they moved. Empty when the engine answered with
    /// the cost alone (see [`crate::SolveOptions::need_path`]).
    pub moves: Moves,
    /// The search's counters.
    pub stats: Stats,
    /// For an unsolvable level, the goal conditions that are out of reach even for a
    /// piece moving alone: the explanation of "no solution" (may be empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out_of_reach: Vec<OutOfReach>,
    /// For an unsolvable level, an invariant of the rules that proves it (the
    /// n-puzzle's parity), told in one sentence; `None` when none applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The move limit of the rules, if any (a "no solution" is within it).
    #[serde(skip)]
    pub limit: Option<u32>,
    /// Boards drawn as text, one per state of the path (see [`Drawing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<String>>,
    /// Boards as data, one per state of the path (see [`Drawing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<Vec<BoardView>>,
    /// Boards were asked for but not drawn: more cells than [`Drawing::max_cells`].
    pub boards_omitted: bool,
    /// The actions of the path (unit steps), to replay it.
    #[serde(skip)]
    pub actions: Vec<Action>,
    /// The packed states of the path, the start first.
    #[serde(skip)]
    pub states: Vec<Vec<u32>>,
}

/// The cost components' names: `moves` when the file declares no `cost`.
pub fn cost_names(model: &Model) -> Vec<String> {
    if model.costs.is_empty() {
        vec!["moves".to_string()]
    } else {
        model.costs.clone()
    }
}

impl Solution {
    /// The answer `answer` to `level`, told in full: `exp` is the interpreter that
    /// replayed its path (set up for `level`), `None` when there is no path.
    pub(crate) fn told(
        model: &Model,
        level: &Level,
        answer: Answer,
        exp: Option<&Expander>,
        drawing: &Drawing,
    ) -> Solution {
        let names = cost_names(model);
        let mut s = Solution {
            puzzle: model.title.clone(),
            level: level.name.clone(),
            rows: level.board.rows,
            cols: level.board.cols,
            outcome: Status::Unsolvable,
            solved: false,
            stopped: None,
            cutoff: None,
            engine: answer.engine.to_string(),
            engine_reason: answer.engine_reason.clone(),
            search: answer.search.to_string(),
            canonical: crate::search::canonical(answer.search),
            verified: false,
            cost: None,
            metric: answer.counted.as_ref().map(|c| c.metric.clone()),
            path: String::new(),
            lurd: None,
            move_count: 0,
            unit_steps: 0,
            moves: Moves::Unit(vec![]),
            stats: answer.stats.clone(),
            out_of_reach: vec![],
            proof: None,
            limit: model.limit,
            boards: None,
            frames: None,
            boards_omitted: false,
            actions: vec![],
            states: vec![],
        };
        let cost = |values: Vec<u64>| Cost {
            names: names.clone(),
            values,
        };
        match answer.outcome {
            Outcome::Cutoff(c) => {
                s.outcome = match c {
                    Cutoff::Cancelled => Status::Cancelled,
                    _ => Status::Cutoff,
                };
                s.canonical = false;
                s.stopped = Some(c.to_string());
                s.cutoff = Some(c);
            }
            Outcome::Unsolvable => {
                s.proof = exp.and_then(Expander::parity_proof);
                if drawing.explain && s.proof.is_none() {
                    s.out_of_reach = crate::engine::lints::out_of_reach(model, level);
                }
            }
            Outcome::Cost(values) => {
                s.outcome = Status::Solved;
                s.solved = true;
                s.cost = Some(cost(values));
            }
            Outcome::Solved(path) => {
                s.outcome = Status::Solved;
                s.solved = true;
                s.verified = exp.is_some();
                s.path = path.actions.iter().map(|&a| model.letter(a)).collect();
                s.unit_steps = path.actions.len();
                let described =
                    exp.map_or(vec![], |e| e.describe_path(&path.states, &path.actions));
                if exp.is_some() {
                    s.lurd = crate::io::lurd::lurd(&described);
                }
                match &answer.counted {
                    None => {
                        s.cost = Some(cost(path_cost(model, &path.actions)));
                        s.move_count = path.actions.len();
                        s.moves = Moves::Unit(described);
                    }
                    Some(c) => {
                        s.cost = Some(cost(counted_cost(model, &path.actions, &c.groups)));
                        s.move_count = c.groups.len();
                        let mut moves = vec![];
                        let mut rest = described.as_slice();
                        for &len in &c.groups {
                            let (steps, tail) = rest.split_at(len.min(rest.len()));
                            rest = tail;
                            moves.push(counted_move(steps));
                        }
                        if !described.is_empty() {
                            s.moves = Moves::Counted(moves);
                        }
                    }
                }
                if let Some(exp) = exp {
                    s.draw(exp, &path.states, drawing);
                }
                s.actions = path.actions;
                s.states = path.states;
            }
        }
        s
    }

    /// Draws the boards `drawing` asks for, unless they hold too many cells.
    fn draw(&mut self, exp: &Expander, states: &[Vec<u32>], drawing: &Drawing) {
        if drawing.boards == Boards::None {
            return;
        }
        let cells = (self.rows as u64).saturating_mul(self.cols as u64 + 1);
        if cells.saturating_mul(states.len() as u64) > drawing.max_cells {
            self.boards_omitted = true;
            return;
        }
        match &drawing.boards {
            Boards::None => {}
            Boards::Text { written } => {
                let form = exp.model.default_form();
                self.boards = Some(
                    states
                        .iter()
                        .map(|s| crate::io::render::render_as(exp, s, form, written))
                        .collect(),
                );
            }
            Boards::Views => {
                self.frames = Some(
                    states
                        .iter()
                        .map(|s| crate::io::view::board_view(exp, s))
                        .collect(),
                )
            }
        }
    }

    /// An answer found elsewhere (the distributed engine), told in full: its path is
    /// replayed and checked through `exp`, an interpreter set up for `level`, like any
    /// other, so a path that is not legal, not a goal or past the move limit is refused.
    pub fn from_answer(
        model: &Model,
        level: &Level,
        answer: Answer,
        exp: &mut Expander,
        drawing: &Drawing,
    ) -> Result<Solution, SolveError> {
        if let Outcome::Solved(path) = &answer.outcome {
            crate::solver::check_path(exp, path)?;
        }
        Ok(Solution::told(model, level, answer, Some(exp), drawing))
    }

    /// The cost's values, when solved.
    pub fn cost_vector(&self) -> Option<&[u64]> {
        self.cost.as_ref().map(|c| c.values.as_slice())
    }

    /// One sentence on how the search ended: `solved in 12 moves, cost 12 moves`, `no
    /// solution: ...`, `the search stopped: ...`.
    pub fn summary(&self) -> String {
        match self.outcome {
            Status::Solved => {
                let cost = self.cost.as_ref().map_or(String::new(), Cost::to_string);
                if self.verified {
                    format!(
                        "solved in {}, cost {cost}",
                        crate::diagnostics::quantity(self.move_count as u64, "moves")
                    )
                } else {
                    format!("optimal cost {cost}")
                }
            }
            Status::Unsolvable if self.search == crate::solver::PROVEN => format!(
                "no solution: proven without search by {}",
                self.proof.as_deref().unwrap_or("an invariant of the rules")
            ),
            Status::Unsolvable => format!(
                "no solution: no goal can be reached{} ({} {} searched {})",
                self.limit.map_or(String::new(), |l| format!(
                    " within {}",
                    crate::diagnostics::quantity(l.into(), "moves")
                )),
                self.engine,
                self.search,
                crate::diagnostics::quantity(self.stats.stored, "states")
            ),
            Status::Cutoff => format!(
                "the search stopped: {}; no answer (stored {})",
                self.stopped.as_deref().unwrap_or("a limit was reached"),
                crate::diagnostics::quantity(self.stats.stored, "states")
            ),
            Status::Cancelled => format!(
                "cancelled after storing {}",
                crate::diagnostics::quantity(self.stats.stored, "states")
            ),
        }
    }
}

impl Solver<'_> {
    /// Solves `level` as [`Solver::solve`] does and tells the answer in full: the moves
    /// with the pieces they moved, the cost with its names, and the boards `drawing` asks
    /// for, all from the interpreter that checked the path.
    pub fn solution(
        &mut self,
        level: Level,
        budget: &Budget,
        need_path: bool,
        drawing: &Drawing,
    ) -> Result<Solution, SolveError> {
        let model = self.model;
        let (answer, exp) = self.run(level.clone(), budget, need_path)?;
        Ok(Solution::told(model, &level, answer, exp.as_ref(), drawing))
    }
}

/// One counted move made of `steps`.
fn counted_move(steps: &[MoveDescription]) -> CountedMove {
    let first = steps.first().and_then(|d| d.main());
    let last = steps.last().and_then(|d| d.main());
    let letters: String = steps.iter().map(|d| d.letter.as_str()).collect();
    CountedMove {
        name: steps.first().map_or(String::new(), |d| d.mv.clone()),
        piece: first.map(|p| p.name.clone()),
        from: first.and_then(|p| p.from),
        to: last.and_then(|p| p.to),
        line: counted_line(steps, &letters),
        letters,
        steps: steps.to_vec(),
    }
}

/// One counted move as a line: the move, the piece, where its anchor started and ended,
/// and its unit steps' letters (`step_big big (0,1) -> (2,1) ss`). A move that moved no
/// piece shows its first step's line and the letters.
fn counted_line(steps: &[MoveDescription], letters: &str) -> String {
    let (Some(first), Some(last)) = (steps.first(), steps.last()) else {
        return String::new();
    };
    let cell = crate::engine::cell_text;
    match (first.main(), last.main()) {
        (Some(a), Some(b)) => match (a.from, b.to) {
            (Some(from), Some(to)) => format!(
                "{} {} {} -> {} {letters}",
                first.mv,
                a.name,
                cell(from),
                cell(to)
            ),
            _ => format!("{} {letters}", first.line()),
        },
        _ => format!("{} {letters}", first.line()),
    }
}
