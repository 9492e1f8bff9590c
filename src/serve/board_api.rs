//! The jobs behind `POST /api/solve`, `/api/analyze` and `/api/test`: each loads the
//! posted rules, runs under the job's budget (its cancel flag included) and returns its
//! result as JSON, drawing boards with [`crate::io::view`].

use serde_json::{json, Value};

use super::api::{cost_text, AnalyzeReq, SolveReq, TestReq};
use super::jobs::Ctx;
use crate::engine::budget::{Budget, Cutoff};
use crate::engine::compound::{counted_cost, Compound};
use crate::engine::{Expander, Level};
use crate::io::answer::{counted_json, move_json};
use crate::io::view::board_view;
use crate::search::graph::{GraphError, StateGraph};
use crate::search::Outcome;
use crate::solver::{path_cost, EngineChoice, SearchChoice, Solver};
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
    let p = Puzzle::load_rules(super::api::SOURCE_NAME, text.to_string())
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
    req: SolveReq,
    engine: EngineChoice,
    search: SearchChoice,
) -> Value {
    let (p, level) = match load_level(&req.text, req.level) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    let model = &p.model;
    let metric = match metric(&p, req.metric.as_deref()) {
        Ok(m) => m,
        Err(why) => return failed(why),
    };
    let ans = match Solver::for_metric(model, engine, search, metric)
        .and_then(|mut s| s.solve(level.clone(), &ctx.budget, true))
    {
        Ok(a) => a,
        Err(e) => return failed(e),
    };
    let names = super::api::cost_names(model);
    let mut v = json!({
        "level": model.levels[req.level].name,
        "engine": ans.engine,
        "engine_reason": ans.engine_reason,
        "search": ans.search,
        "canonical": crate::search::canonical(ans.search),
        "stats": ans.stats,
        "cost_names": names,
    });
    let cost_json = |cost: &[u64]| -> Value {
        names
            .iter()
            .zip(cost)
            .map(|(n, &c)| (n.clone(), Value::from(c)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    match ans.outcome {
        Outcome::Cutoff(c) => {
            let (o, m) = stopped(c, ans.stats.stored);
            v["outcome"] = o.into();
            v["message"] = m.into();
        }
        Outcome::Unsolvable => {
            v["outcome"] = "unsolvable".into();
            v["message"] = format!(
                "no solution: no goal can be reached{} ({} states searched)",
                model
                    .limit
                    .map_or(String::new(), |l| format!(" within {l} moves")),
                ans.stats.stored
            )
            .into();
            v["out_of_reach"] = serde_json::to_value(p.out_of_reach(&level)).unwrap_or_default();
        }
        Outcome::Cost(cost) => {
            v["outcome"] = "solved".into();
            v["message"] = format!("optimal cost {}", cost_text(model, &cost)).into();
            v["cost"] = cost_json(&cost);
            v["cost_vector"] = cost.into();
        }
        Outcome::Solved(path) => {
            let exp = match Expander::new(model, level, &Budget::default()) {
                Ok(e) => e,
                Err(e) => return failed(e),
            };
            let described = exp.describe_path(&path.states, &path.actions);
            let with_line = |d: &crate::engine::MoveDescription| {
                let mut m = move_json(d);
                m["line"] = d.line().into();
                m
            };
            let (cost, moves): (Vec<u64>, Vec<Value>) = match &ans.counted {
                None => (
                    path_cost(model, &path.actions),
                    described.iter().map(with_line).collect(),
                ),
                Some(c) => {
                    let mut k = 0;
                    let mut moves = vec![];
                    for &len in &c.groups {
                        let steps = &described[k..k + len];
                        let mut m = counted_json(steps);
                        m["steps"] = steps.iter().map(with_line).collect::<Vec<_>>().into();
                        m["line"] = steps
                            .first()
                            .map_or(String::new(), |d| {
                                let letters: String =
                                    steps.iter().map(|d| d.letter.as_str()).collect();
                                format!("{} {letters}", d.line())
                            })
                            .into();
                        moves.push(m);
                        k += len;
                    }
                    (counted_cost(model, &path.actions, &c.groups), moves)
                }
            };
            let letters: String = path.actions.iter().map(|&a| model.letter(a)).collect();
            v["outcome"] = "solved".into();
            v["message"] = format!(
                "solved in {}, cost {}",
                crate::diagnostics::quantity(moves.len() as u64, "moves"),
                cost_text(model, &cost)
            )
            .into();
            v["cost"] = cost_json(&cost);
            v["cost_vector"] = cost.into();
            v["path"] = letters.into();
            v["moves"] = moves.into();
            if let Some(c) = &ans.counted {
                v["metric"] = c.metric.clone().into();
                v["unit_steps"] = path.actions.len().into();
            }
            let cells = exp.level.board.rows * exp.level.board.cols;
            let omit = path.states.len() > MAX_FRAMES + 1
                || path.states.len().saturating_mul(cells) > MAX_FRAME_CELLS;
            v["frames_omitted"] = omit.into();
            v["frames"] = if omit {
                Value::Array(vec![])
            } else {
                path.states
                    .iter()
                    .map(|s| serde_json::to_value(board_view(&exp, s)).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .into()
            };
        }
    }
    v
}

/// Builds and studies a level's state graph (see `POST /api/analyze`).
pub(super) fn analyze_job(ctx: &Ctx, req: AnalyzeReq) -> Value {
    let (p, level) = match load_level(&req.text, req.level) {
        Ok(x) => x,
        Err(why) => return failed(why),
    };
    let model = &p.model;
    let metric = match metric(&p, req.metric.as_deref()) {
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
pub(super) fn test_job(ctx: &Ctx, req: TestReq) -> Value {
    let p = match Puzzle::load_rules(super::api::SOURCE_NAME, req.text) {
        Ok(p) => p,
        Err(d) => return failed(format!("the rules do not load: {}", first_problem(&d))),
    };
    let model = &p.model;
    let mut rows = vec![];
    let mut solvers: Vec<Option<Result<Solver, String>>> =
        (0..=model.metrics.len()).map(|_| None).collect();
    for (i, l) in model.levels.iter().enumerate() {
        let mut wants: Vec<(Option<usize>, &crate::compile::Expect)> = vec![];
        wants.extend(l.expect.iter().map(|e| (None, e)));
        wants.extend(l.metric_expects.iter().map(|(m, e)| (Some(*m), e)));
        let row = |metric: Option<usize>,
                   status: &str,
                   expected: Option<String>,
                   got: Option<String>,
                   message: Option<String>| {
            json!({
                "index": i, "name": l.name,
                "metric": metric.map(|m| model.metrics[m].name.clone()),
                "status": status, "expected": expected, "got": got, "message": message,
            })
        };
        if wants.is_empty() {
            rows.push(row(None, "none", None, None, Some("no expectation".into())));
            continue;
        }
        let level = match p.inline_level(i) {
            Ok(l) => l,
            Err(d) => {
                rows.push(row(None, "error", None, None, Some(first_problem(&d))));
                continue;
            }
        };
        for (metric, expect) in wants {
            let want = match expect {
                crate::compile::Expect::Cost(c) => Some(c.clone()),
                crate::compile::Expect::Unsolvable => None,
            };
            let show = |c: &Option<Vec<u64>>| {
                c.as_ref()
                    .map_or("no solution".to_string(), |c| cost_text(model, c))
            };
            if ctx.cancelled() {
                rows.push(row(
                    metric,
                    "cutoff",
                    Some(show(&want)),
                    None,
                    Some("cancelled".into()),
                ));
                continue;
            }
            let slot = metric.map_or(0, |m| m + 1);
            let solver = solvers[slot].get_or_insert_with(|| {
                Solver::for_metric(model, EngineChoice::Auto, SearchChoice::Auto, metric)
                    .map_err(|e| e.to_string())
            });
            let solver = match solver {
                Ok(s) => s,
                Err(why) => {
                    rows.push(row(
                        metric,
                        "error",
                        Some(show(&want)),
                        None,
                        Some(why.clone()),
                    ));
                    continue;
                }
            };
            let got = match solver.solve(level.clone(), &ctx.budget, false) {
                Err(e) => Err(e.to_string()),
                Ok(ans) => match ans.outcome {
                    Outcome::Cost(c) => Ok(Some(c)),
                    Outcome::Solved(path) => Ok(Some(match &ans.counted {
                        Some(c) => counted_cost(model, &path.actions, &c.groups),
                        None => path_cost(model, &path.actions),
                    })),
                    Outcome::Unsolvable => Ok(None),
                    Outcome::Cutoff(c) => Err(stopped(c, ans.stats.stored).1),
                },
            };
            rows.push(match got {
                Ok(got) => {
                    let status = if got == want { "pass" } else { "fail" };
                    row(metric, status, Some(show(&want)), Some(show(&got)), None)
                }
                Err(why) => row(metric, "cutoff", Some(show(&want)), None, Some(why)),
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

/// `POST /api/level` and `/api/play`: a level's rules and board, and moves played on it.
pub(super) mod play {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use axum::Json;
    use serde::Deserialize;
    use serde_json::{json, Value};

    use super::super::api::{
        blocking, cost_names, diagnostics_json, ApiJson, LineIndex, SOURCE_NAME,
    };
    use super::super::ApiError;
    use crate::engine::budget::Budget;
    use crate::io::view::{board_view, legend_key, palette};
    use crate::play::{dir_infos, move_infos, ActionRef, Blocked, Game, Want};
    use crate::Puzzle;

    /// Setting a level up for play may take this long.
    const SETUP_TIME: Duration = Duration::from_secs(5);

    /// Histories longer than this are refused (a body of 1 MiB holds fewer anyway).
    const MAX_HISTORY: usize = 100_000;

    #[derive(Deserialize)]
    pub(in crate::serve) struct LevelReq {
        text: String,
        #[serde(default)]
        level: usize,
    }

    #[derive(Deserialize)]
    pub(in crate::serve) struct PlayReq {
        text: String,
        #[serde(default)]
        level: usize,
        #[serde(default)]
        history: Vec<ActionRef>,
        #[serde(rename = "try", default)]
        want: Option<Want>,
    }

    /// The posted rules, located for diagnostics, and their loaded inline level `index`
    /// set up for play; 422 `level` with the diagnostics when either fails.
    fn with_game<T>(
        text: String,
        index: usize,
        caps: &super::super::Caps,
        f: impl FnOnce(&Puzzle, &Arc<String>, &LineIndex, Game) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let text = Arc::new(crate::io::source::without_bom(text));
        let idx = LineIndex::new(&text);
        let refuse = |what: &str, problems: &[crate::diagnostics::Problem]| {
            let diags = diagnostics_json(&text, &idx, problems, false);
            let first = problems.first().map_or(String::new(), |p| format!(": {p}"));
            ApiError::unprocessable("level", format!("{what}{first}"))
                .with("diagnostics", diags.into())
        };
        let p = Puzzle::load_rules(SOURCE_NAME, text.to_string())
            .map_err(|d| refuse("the rules do not load", &d.problems))?;
        if index >= p.model.levels.len() {
            return Err(ApiError::unprocessable(
                "level",
                format!(
                    "the file has {} inline levels; there is no level {index}",
                    p.model.levels.len()
                ),
            )
            .with("diagnostics", Value::Array(vec![])));
        }
        let level = p
            .inline_level(index)
            .map_err(|d| refuse("the level does not load", &d.problems))?;
        let budget = Budget {
            deadline: Some(Instant::now() + SETUP_TIME),
            max_bytes: Some(caps.max_memory_mb << 20),
            ..Budget::default()
        };
        let game = Game::new(&p.model, level, &budget).map_err(|e| {
            ApiError::unprocessable("level", format!("the level cannot be set up: {e}"))
                .with("diagnostics", Value::Array(vec![]))
        })?;
        f(&p, &text, &idx, game)
    }

    /// A span of the source as the page takes it: UTF-16 offsets, line and column.
    fn place(text: &str, idx: &LineIndex, span: Option<[usize; 2]>) -> Value {
        match span {
            None => Value::Null,
            Some([a, b]) => {
                let (a, b) = (idx.locate(text, a), idx.locate(text, b));
                json!({"start": a.utf16, "end": b.utf16, "line": a.line, "col": a.col, "end_line": b.line, "end_col": b.col})
            }
        }
    }

    /// A refusal as JSON, its spans in UTF-16 offsets like every span of the API, with
    /// their lines and columns under `where`.
    fn blocked_json(text: &str, idx: &LineIndex, b: &Blocked) -> Value {
        let mut v = serde_json::to_value(b).unwrap_or_default();
        let locate = |t: &mut Value, span: Option<[usize; 2]>| {
            let w = place(text, idx, span);
            t["span"] = if w.is_null() {
                Value::Null
            } else {
                json!([w["start"], w["end"]])
            };
            t["where"] = w;
        };
        locate(&mut v, b.span);
        if let Some(tried) = v["tried"].as_array_mut() {
            for (t, r) in tried.iter_mut().zip(&b.tried) {
                locate(t, r.span);
            }
        }
        v
    }

    /// The position now, as both routes answer it.
    fn position(game: &mut Game) -> Value {
        json!({
            "board": game.board(),
            "goal": game.is_goal(),
            "cost": game.cost(),
            "moves": game.moves(),
            "history": game.history(),
            "legal": game.legal(),
        })
    }

    pub(in crate::serve) async fn level(
        axum::extract::State(state): axum::extract::State<Arc<super::super::AppState>>,
        ApiJson(req): ApiJson<LevelReq>,
    ) -> Result<Json<Value>, ApiError> {
        let caps = state.caps;
        blocking(move || {
            with_game(req.text, req.level, &caps, |p, text, idx, mut game| {
                let model = &p.model;
                let lints = p
                    .level_lints(&game.expander().level, Some(req.level))
                    .map_or(vec![], |w| diagnostics_json(text, idx, &w.problems, true));
                let board = board_view(game.expander(), game.state());
                let mut v = position(&mut game);
                v["name"] = model.levels[req.level].name.clone().into();
                v["title"] = model.title.clone().into();
                v["rows"] = board.rows.into();
                v["cols"] = board.cols.into();
                v["palette"] = serde_json::to_value(palette(model)).unwrap_or_default();
                v["key"] = serde_json::to_value(legend_key(model)).unwrap_or_default();
                v["moves"] = serde_json::to_value(move_infos(model)).unwrap_or_default();
                v["dirs"] = serde_json::to_value(dir_infos(model)).unwrap_or_default();
                v["costs"] = cost_names(model).into();
                v["metrics"] = super::names(model.metrics.iter().map(|m| &m.name));
                v["tiles"] = super::names(model.tiles.iter().map(|t| &t.name));
                v["marks"] = super::names(model.marks.iter().map(|m| &m.name));
                v["limit"] = model.limit.into();
                v["lints"] = lints.into();
                Ok(Json(v))
            })
        })
        .await
    }

    pub(in crate::serve) async fn play(
        axum::extract::State(state): axum::extract::State<Arc<super::super::AppState>>,
        ApiJson(req): ApiJson<PlayReq>,
    ) -> Result<Json<Value>, ApiError> {
        if req.history.len() > MAX_HISTORY {
            return Err(ApiError::bad_request(format!(
                "the history has {} moves; at most {MAX_HISTORY} are replayed",
                req.history.len()
            )));
        }
        let caps = state.caps;
        blocking(move || {
            with_game(req.text, req.level, &caps, |_, text, idx, mut game| {
                for (i, a) in req.history.iter().enumerate() {
                    if let Err(b) = game.apply(a) {
                        return Err(ApiError::unprocessable(
                            "history",
                            format!(
                                "move {} of the history cannot be played: {}",
                                i + 1,
                                b.message
                            ),
                        )
                        .with("at", i.into()));
                    }
                }
                let (played, blocked) = match &req.want {
                    None => (Value::Null, Value::Null),
                    Some(w) => match game.play(w) {
                        Ok(p) => (serde_json::to_value(p).unwrap_or_default(), Value::Null),
                        Err(b) => (Value::Null, blocked_json(text, idx, &b)),
                    },
                };
                let mut v = position(&mut game);
                v["played"] = played;
                v["blocked"] = blocked;
                Ok(Json(v))
            })
        })
        .await
    }
}

/// A JSON array of names.
fn names<'a>(it: impl Iterator<Item = &'a String>) -> Value {
    it.cloned().collect::<Vec<_>>().into()
}
