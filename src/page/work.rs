//! The jobs behind `POST /api/solve`, `/api/analyze` and `/api/test`: each loads the
//! posted rules, runs under the job's budget (its cancel flag included) and returns its
//! result as JSON, drawing boards with [`crate::io::view`].

use serde_json::{json, Value};

use super::Ctx;
use crate::engine::budget::{Budget, Cutoff};
use crate::engine::compound::Compound;
use crate::engine::{Expander, Level};
use crate::expect::{Tester, Verdict};
use crate::io::view::board_view;
use crate::search::graph::{GraphError, StateGraph};
use crate::solution::{Boards, Drawing};
use crate::solver::{EngineChoice, SearchChoice, Solver};
use crate::Puzzle;

/// Answers animate at most this many unit steps; longer ones come without frames.
pub const MAX_FRAMES: usize = 2000;

/// Nor do answers whose frames would hold more than this many cells in all (a long walk
/// across a large board would make a response of hundreds of megabytes).
pub const MAX_FRAME_CELLS: usize = 4_000_000;

/// Graphs of at most this many states come with their nodes and edges.
pub const MAX_GRAPH_NODES: usize = 400;

/// A job's result when it could not run: `outcome: "error"` and why.
fn failed(message: impl std::fmt::Display) -> Value {
    json!({"outcome": "error", "message": message.to_string()})
}

/// The first problem of a report, for a one-line message.
fn first_problem(d: &crate::diagnostics::Diagnostics) -> String {
    d.problems
        .first()
        .map_or_else(|| d.to_string(), |p| p.to_string())
}

/// The rules of `text` and their inline level `index`, or a one-line reason.
pub(super) fn load_level(text: &str, index: usize) -> Result<(Puzzle, Level), String> {
    let p = Puzzle::load_rules(super::SOURCE_NAME, text.to_string())
        .map_err(|d| format!("the rules do not load: {}", first_problem(&d)))?;
    if index >= p.model.levels.len() {
        return Err(format!(
            "the file has {} inline levels; there is no level {index}",
            p.model.levels.len()
        ));
    }
    let level = p
        .inline_level(index)
        .map_err(|d| format!("the level does not load: {}", first_problem(&d)))?;
    Ok((p, level))
}

/// The metric called `name`, or why not.
fn metric(p: &Puzzle, name: Option<&str>) -> Result<Option<usize>, String> {
    match name {
        None | Some("") => Ok(None),
        Some(n) => p.model.metric_index(n).map(Some).ok_or_else(|| {
            let names: Vec<&str> = p.model.metrics.iter().map(|m| m.name.as_str()).collect();
            format!("no metric called {n:?}; metrics: {}", names.join(", "))
        }),
    }
}

/// `outcome` and `message` of a search stopped by `c`.
fn stopped(c: Cutoff, stored: u64) -> (String, String) {
    match c {
        Cutoff::Cancelled => (
            "cancelled".into(),
            format!("cancelled after storing {stored} states"),
        ),
        c => (
            "cutoff".into(),
            format!("the search stopped: {c}; no answer (stored {stored} states)"),
        ),
    }
}

/// Solves one level (see `POST /api/solve`).
pub(super) fn solve_job(
    ctx: &Ctx,
    text: &str,
    index: usize,
    metric_name: Option<&str>,
    engine: EngineChoice,
    search: SearchChoice,
) -> Value {
    let (p, level) = match load_level(text, index) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    let model = &p.model;
    let metric = match metric(&p, metric_name) {
        Ok(m) => m,
        Err(why) => return failed(why),
    };
    let drawing = Drawing {
        boards: Boards::Views,
        explain: true,
        max_cells: MAX_FRAME_CELLS as u64,
    };
    let solution = match Solver::for_metric(model, engine, search, metric)
        .and_then(|mut s| s.solution(level, &ctx.budget, true, &drawing))
    {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    let mut v = serde_json::to_value(&solution).unwrap_or_default();
    v["message"] = solution.summary().into();
    v["cost_names"] = crate::solution::cost_names(model).into();
    v["cost_vector"] = solution.cost_vector().into();
    if solution.states.len() > MAX_FRAMES + 1 {
        v["frames"] = Value::Null;
        v["boards_omitted"] = true.into();
    }
    v
}

/// Builds and studies a level's state graph (see `POST /api/analyze`).
pub(super) fn analyze_job(ctx: &Ctx, text: &str, index: usize, metric_name: Option<&str>) -> Value {
    let (p, level) = match load_level(text, index) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    let model = &p.model;
    let metric = match metric(&p, metric_name) {
        Ok(m) => m,
        Err(why) => return failed(why),
    };
    let budget = &ctx.budget;
    let mut exp = match Expander::new(model, level, budget) {
        Ok(e) => e,
        Err(crate::engine::SetupError::Cutoff(c)) => {
            let (o, m) = stopped(c, 0);
            return json!({"outcome": o, "message": m});
        }
        Err(e) => return failed(e),
    };
    let build = Budget {
        max_depth: model.limit,
        ..budget.clone()
    };
    let built = match metric {
        Some(m) => StateGraph::build(
            &mut Compound::new(&mut exp, m).label_by_first_step(),
            &build,
        ),
        None => StateGraph::build(&mut exp, &build),
    };
    let g = match built {
        Ok(g) => g,
        Err(GraphError::Cutoff(c)) => {
            let (o, m) = stopped(c, ctx.latest().stored);
            return json!({"outcome": o, "message": m});
        }
        Err(e) => return json!({"outcome": "cutoff", "message": e.to_string()}),
    };
    let a = match g.analyze(budget) {
        Ok(a) => a,
        Err(c) => {
            let (o, m) = stopped(c, g.graph.node_count() as u64);
            return json!({"outcome": o, "message": m});
        }
    };
    let mut v = serde_json::to_value(&a).unwrap_or_default();
    v["outcome"] = "done".into();
    v["message"] = format!(
        "{}, {} apart at most",
        crate::diagnostics::quantity(a.reachable_states as u64, "reachable positions"),
        crate::diagnostics::quantity(a.farthest_distance as u64, "moves")
    )
    .into();
    let far = g
        .graph
        .node_indices()
        .find(|&n| g.graph[n].depth == a.farthest_distance);
    v["farthest"] = far.map_or(Value::Null, |n| {
        serde_json::to_value(board_view(&exp, &g.state(n))).unwrap_or_default()
    });
    v["graph"] = Value::Null;
    if g.graph.node_count() <= MAX_GRAPH_NODES {
        if let Ok(dead) = g.dead_nodes(budget) {
            use petgraph::visit::EdgeRef;
            let nodes: Vec<Value> = g
                .graph
                .node_indices()
                .map(|n| {
                    let w = g.graph[n];
                    json!({
                        "id": n.index(), "depth": w.depth, "goal": w.goal,
                        "dead": dead[n.index()],
                        "board": board_view(&exp, &g.state(n)),
                    })
                })
                .collect();
            let edges: Vec<Value> = g
                .graph
                .edge_references()
                .map(|e| {
                    let act = *e.weight();
                    let label = format!(
                        "{} {}",
                        model.moves[act.mv().index()].name,
                        model.arg_text(act)
                    );
                    json!({"from": e.source().index(), "to": e.target().index(), "label": label})
                })
                .collect();
            v["graph"] = json!({"nodes": nodes, "edges": edges});
        }
    }
    v
}

/// Runs every `expect` line of the file (see `POST /api/test`).
pub(super) fn test_job(ctx: &Ctx, text: String) -> Value {
    let p = match Puzzle::load_rules(super::SOURCE_NAME, text) {
        Ok(p) => p,
        Err(d) => return failed(format!("the rules do not load: {}", first_problem(&d))),
    };
    let model = &p.model;
    let mut tester = match Tester::new(&p, EngineChoice::Auto, SearchChoice::Auto) {
        Ok(t) => t,
        Err(e) => return failed(e),
    };
    let show = |c: &Option<crate::solution::Cost>| {
        c.as_ref()
            .map_or("no solution".to_string(), |c| c.to_string())
    };
    let mut rows = vec![];
    for (i, l) in model.levels.iter().enumerate() {
        let row = |metric: &Option<String>,
                   status: &str,
                   expected: Option<String>,
                   got: Option<String>,
                   message: Option<String>| {
            json!({
                "index": i, "name": l.name, "metric": metric,
                "status": status, "expected": expected, "got": got, "message": message,
            })
        };
        if l.expect.is_none() && l.metric_expects.is_empty() {
            rows.push(row(
                &None,
                "none",
                None,
                None,
                Some("no expectation".into()),
            ));
            continue;
        }
        if ctx.cancelled() {
            rows.push(row(&None, "cutoff", None, None, Some("cancelled".into())));
            continue;
        }
        let checked = tester.level(i, &ctx.budget);
        if let Some(d) = &checked.invalid {
            rows.push(row(&None, "error", None, None, Some(first_problem(d))));
            continue;
        }
        for c in &checked.checks {
            let want = Some(show(&c.want));
            rows.push(match &c.verdict {
                Verdict::Pass => row(&c.metric, "pass", want.clone(), want, None),
                Verdict::Fail { got } => row(&c.metric, "fail", want, Some(show(got)), None),
                Verdict::NoAnswer {
                    why,
                    error: Some(_),
                } => row(&c.metric, "error", want, None, Some(why.clone())),
                Verdict::NoAnswer { why, error: None } => {
                    row(&c.metric, "cutoff", want, None, Some(why.clone()))
                }
            });
        }
    }
    let failed = rows
        .iter()
        .filter(|r| r["status"] != "pass" && r["status"] != "none")
        .count();
    json!({
        "outcome": "done",
        "message": if failed == 0 { "every expectation holds".to_string() } else { format!("{failed} expectations do not hold") },
        "levels": rows,
    })
}
