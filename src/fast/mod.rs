//! Stage 6: hand-tuned solvers for rule sets puz knows well, chosen by fingerprint.
//!
//! Each fast path inspects the compiled [`Model`] structurally (never names, titles or
//! legend characters) and either accepts it or says why not. A fast path is built once per
//! model (by [`crate::solver::Solver`]) and then solves many levels, so whatever it can
//! reuse between levels (buffers, per-board tables) is a field of the value, never
//! process-wide state. It must give the interpreter's answer: the same cost and, when a
//! path is asked for, the same path under the tie rule; its paths are replayed through the
//! interpreter.

pub(crate) mod bloxorz;
pub(crate) mod curling;
pub(crate) mod huarong;
pub(crate) mod sokoban;

use crate::compile::{Action, Model, Op, Step};
use crate::engine::Level;
use crate::search::{Budget, Cutoff, Stats};

/// What a fast path found.
#[derive(Clone, Debug)]
pub enum FastOutcome {
    /// The cheapest cost vector and, when asked for, the actions.
    Solved {
        /// The cost vector, one entry per cost component (one for move counts).
        cost: Vec<u64>,
        /// The actions, when the caller asked for a path.
        actions: Option<Vec<Action>>,
    },
    /// No goal can be reached.
    Unsolvable,
    /// A budget ran out first.
    Cutoff(Cutoff),
}

/// A specialized solver for one family of rule sets, built for one model.
pub trait FastPath: Send {
    /// Short name, e.g. `bloxorz`.
    fn name(&self) -> &'static str;
    /// Solves a level of the model it was built from, within `budget` (setup included).
    /// With `need_path`, returns the actions of the cheapest solution the tie rule picks,
    /// the one the interpreter returns. `&mut self`: buffers and tables are reused from
    /// one level to the next.
    fn solve(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats);
}

/// Builds a fast path for a model, or says why its rules do not fit.
type Detector = fn(&Model) -> Result<Box<dyn FastPath>, String>;

/// Every fast path, by name, in the order they are tried.
const DETECTORS: [(&str, Detector); 4] = [
    ("bloxorz", |m| Ok(Box::new(bloxorz::Bloxorz::detect(m)?))),
    ("curling", |m| Ok(Box::new(curling::Curling::detect(m)?))),
    ("sokoban", |m| Ok(Box::new(sokoban::Sokoban::detect(m)?))),
    ("huarong", |m| Ok(Box::new(huarong::Huarong::detect(m)?))),
];

/// The fast path whose fingerprint the model matches, or why none does.
pub fn select(model: &Model) -> Result<Box<dyn FastPath>, String> {
    if !model.basic() {
        return Err(
            "the rules use mechanics beyond the fast paths' (counters, removals, conditions, per-cell or per-copy moves, or a goal beyond `piece on place`)"
                .into(),
        );
    }
    let mut why = vec![];
    for (name, detect) in DETECTORS {
        match detect(model) {
            Ok(f) => return Ok(f),
            Err(e) => why.push(format!("{name}: {e}")),
        }
    }
    Err(why.join("; "))
}

/// Fingerprint helpers shared by the matchers.
pub(crate) mod fingerprint {
    use super::*;

    /// Directions that are exactly the four unit steps: the model index of north, south,
    /// west and east (the model's own order still decides ties).
    pub(crate) fn compass(model: &Model) -> Result<[usize; 4], String> {
        if model.dirs.len() != 4 {
            return Err(format!("needs 4 directions, has {}", model.dirs.len()));
        }
        let mut idx = [usize::MAX; 4];
        for (i, d) in model.dirs.iter().enumerate() {
            let k = match (d.dr, d.dc) {
                (-1, 0) => 0,
                (1, 0) => 1,
                (0, -1) => 2,
                (0, 1) => 3,
                _ => return Err(format!("direction `{}` is not a unit step", d.name)),
            };
            if idx[k] != usize::MAX {
                return Err("two directions share a step".into());
            }
            idx[k] = i;
        }
        Ok(idx)
    }

    /// The move's own direction, not reversed.
    pub(crate) fn is_param(step: &Step) -> bool {
        step.fixed.is_none() && !step.negate && step.times == 1
    }

    /// Costs are unit: at most one component and every move adds exactly one to it.
    pub(crate) fn unit_cost(model: &Model) -> Result<(), String> {
        if !model.unit_costs() {
            return Err("moves do not all cost one unit".into());
        }
        Ok(())
    }

    /// No tile may change during play.
    pub(crate) fn static_tiles(model: &Model) -> Result<(), String> {
        if !model.static_tiles() {
            return Err("some tile can change during play".into());
        }
        Ok(())
    }

    /// The single op of a one-op move.
    pub(crate) fn only_op(model: &Model) -> Result<&Op, String> {
        match model.moves.as_slice() {
            [m] if m.ops.len() == 1 => Ok(&m.ops[0]),
            [m] => Err(format!("move `{}` has {} statements", m.name, m.ops.len())),
            _ => Err(format!("needs one move, has {}", model.moves.len())),
        }
    }
}
