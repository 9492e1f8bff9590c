//! The solve and analyze jobs on a PuzzleScript game (`POST /api/solve` and
//! `/api/analyze` with a game's text): the same library calls as `puz solve` and
//! `puz analyze`, answered in the fields the page reads for a `.puz` answer (`outcome`,
//! `message`, `cost`, `moves` with a letter and a line each, `stats`) plus the game's own
//! (`inputs`, the compact letters; `steps`). Boards are not animated: the page plays the
//! answer's inputs on the Play tab instead.

use std::sync::Arc;

use serde_json::{json, Value};

use super::Ctx;
use crate::puzzlescript::search::PsSpace;
use crate::puzzlescript::{Entry, Game, PsOutcome, PsSolveOptions};
use crate::search::graph::{GraphError, StateGraph};
use crate::search::Backend;

/// A job's result when it could not run.
fn failed(message: impl std::fmt::Display) -> Value {
    json!({"outcome": "error", "message": message.to_string()})
}

/// The game of `text` and the entry of its `index`-th level (the page numbers levels
/// among the entries, messages included), or why not.
fn load(text: &str, index: usize) -> Result<(Game, usize), String> {
    let (game, _) = Game::load(super::ps::GAME_NAME, Arc::new(text.to_string())).map_err(|d| {
        format!(
            "the game does not load: {}",
            d.problems
                .first()
                .map_or_else(|| d.to_string(), |p| p.to_string())
        )
    })?;
    match game.entries().get(index) {
        Some(Entry::Level { .. }) => Ok((game, index)),
        Some(Entry::Message(_)) => Err(format!("entry {index} is a message, not a level")),
        None => Err(format!("the game has no entry {index}")),
    }
}

/// Solves a level of a game.
pub(super) fn solve_job(ctx: &Ctx, text: &str, index: usize, search: Option<Backend>) -> Value {
    let (game, index) = match load(text, index) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    let opts = PsSolveOptions {
        budget: ctx.budget.clone(),
        search,
        boards: false,
    };
    let s = match crate::puzzlescript::solve_level(&game, index, &opts) {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    let mut v = serde_json::to_value(&s).unwrap_or_default();
    v["cost"] = match s.cost {
        Some(n) => json!({ "inputs": n }),
        None => Value::Null,
    };
    v["path"] = s.inputs.clone().into();
    v["moves"] = s
        .steps
        .iter()
        .zip(s.inputs.chars())
        .map(|(st, letter)| {
            let what = if st.changes.is_empty() {
                "nothing moves".to_string()
            } else {
                st.changes.join(", ")
            };
            json!({"letter": letter.to_string(), "line": format!("{}: {what}", st.input), "move": st.input})
        })
        .collect::<Vec<_>>()
        .into();
    v["message"] = match s.outcome {
        PsOutcome::Solved => format!(
            "won in {} at the fewest: {} (replayed in a fresh session: the level is won at the last input)",
            crate::diagnostics::quantity(s.cost.unwrap_or_default() as u64, "inputs"),
            if s.inputs.is_empty() { "no input" } else { &s.inputs }
        ),
        PsOutcome::Unsolvable => format!(
            "no sequence of inputs wins this level ({} explored)",
            crate::diagnostics::quantity(s.stats.stored, "states")
        ),
        PsOutcome::Cutoff | PsOutcome::Cancelled => format!(
            "{}; no answer (stored {} states)",
            s.stopped.clone().unwrap_or_default(),
            s.stats.stored
        ),
    }
    .into();
    v["frames"] = Value::Null;
    v
}

/// Builds and studies a level's state graph.
pub(super) fn analyze_job(ctx: &Ctx, text: &str, index: usize) -> Value {
    let (game, index) = match load(text, index) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    if let Some(why) = crate::puzzlescript::solve::nondeterminism(&game) {
        return failed(format!("this game is not searched: {why}"));
    }
    let Some(mut space) = PsSpace::new(&game, index) else {
        return failed("not a level");
    };
    let budget = &ctx.budget;
    let g = match StateGraph::build(&mut space, budget) {
        Ok(g) => g,
        Err(GraphError::Cutoff(c)) => {
            return json!({"outcome": if c == crate::search::Cutoff::Cancelled { "cancelled" } else { "cutoff" },
                "message": format!("the analysis stopped: {c}")})
        }
        Err(e) => return json!({"outcome": "cutoff", "message": e.to_string()}),
    };
    if let Some(e) = space.overlap() {
        return failed(e);
    }
    let a = match g.analyze(budget) {
        Ok(a) => a,
        Err(c) => {
            return json!({"outcome": "cutoff", "message": format!("the analysis stopped: {c}")})
        }
    };
    let mut v = serde_json::to_value(&a).unwrap_or_default();
    v["outcome"] = "done".into();
    v["message"] = format!(
        "{}, {} apart at most",
        crate::diagnostics::quantity(a.reachable_states as u64, "reachable levels"),
        crate::diagnostics::quantity(a.farthest_distance as u64, "inputs")
    )
    .into();
    let far = g
        .graph
        .node_indices()
        .find(|&n| g.graph[n].depth == a.farthest_distance);
    v["farthest_text"] = far.map_or(Value::Null, |n| space.draw(&g.state(n)).into());
    v["farthest"] = Value::Null;
    v["graph"] = Value::Null;
    v
}
