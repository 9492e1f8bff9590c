//! `puz solve FILE --all`: every inline level, one row each, as a table or JSON.

use std::time::Duration;

use puz::solution::{Cost, Drawing, Status};
use puz::solver::Solver;
use puz::Puzzle;

use super::{emit, exit, failed, load_rules, output, pick_metric, solve_failed};
use crate::SearchArgs;

/// How one level of `--all` ended.
enum LevelRun {
    /// The search finished: the optimal cost, or `None` when no goal can be reached.
    Done {
        cost: Option<Cost>,
        stats: puz::search::Stats,
    },
    /// It could not finish: what went wrong, and the exit code `puz solve` gives it.
    Failed {
        why: String,
        code: u8,
        elapsed: Duration,
    },
}

/// One lint of a level, as `--all --json` lists it: its code and its message.
fn lint_json(w: &puz::diagnostics::Problem) -> serde_json::Value {
    use miette::Diagnostic;
    serde_json::json!({
        "code": w.code().map(|c| c.to_string()),
        "message": w.to_string(),
    })
}

/// Solves inline level `index` of `p` with `solver`, reporting any diagnostic on stderr.
/// The level's lints (the warnings `puz solve --level NAME` prints) go to stderr before
/// the search and are returned beside the run, as JSON; they never make a level fail.
fn run_level(
    p: &Puzzle,
    solver: &mut Solver,
    index: usize,
    search: &SearchArgs,
) -> (LevelRun, Vec<serde_json::Value>) {
    let lvl = match p.inline_level(index) {
        Ok(l) => l,
        Err(d) => {
            output::report(&d);
            let first = d.problems.first().map_or(String::new(), |p| p.to_string());
            let run = LevelRun::Failed {
                why: format!("invalid level: {first}"),
                code: exit::RULES,
                elapsed: Duration::ZERO,
            };
            return (run, vec![]);
        }
    };
    let lints = match p.level_lints(&lvl, Some(index)) {
        Some(w) => {
            output::report(&w);
            w.problems.iter().map(lint_json).collect()
        }
        None => vec![],
    };
    let t0 = std::time::Instant::now();
    let run = match solver.solution(lvl, &search.budget(), false, &Drawing::answer_only()) {
        Ok(s) => match s.outcome {
            Status::Solved | Status::Unsolvable => LevelRun::Done {
                cost: s.cost,
                stats: s.stats,
            },
            Status::Cutoff | Status::Cancelled => LevelRun::Failed {
                why: format!("search stopped: {}", s.stopped.unwrap_or_default()),
                code: exit::CUTOFF,
                elapsed: t0.elapsed(),
            },
        },
        Err(e) => LevelRun::Failed {
            why: e.to_string(),
            code: solve_failed(e),
            elapsed: t0.elapsed(),
        },
    };
    (run, lints)
}

/// `puz solve FILE --all`: every inline level, one row each. Exit 0 when every level ran
/// (solved or not), else the highest exit code among the levels that failed.
pub fn run(file: &str, json: bool, search: &SearchArgs, metric: Option<&str>) -> Result<(), u8> {
    let p = load_rules(file)?;
    let metric = pick_metric(&p, metric)?;
    let model = &p.model;
    if model.levels.is_empty() {
        return Err(failed(puz::Error::NoLevels {
            file: file.to_string(),
        }));
    }
    let mut solver = Solver::for_metric(model, search.engine.into(), search.search, metric)
        .map_err(solve_failed)?;
    let mut worst = exit::OK;
    let mut rows: Vec<[String; 4]> = vec![];
    let mut values = vec![];
    for (i, l) in model.levels.iter().enumerate() {
        let (run, lints) = run_level(&p, &mut solver, i, search);
        let (row, mut value) = match run {
            LevelRun::Done { cost, stats } => (
                [
                    l.name.clone(),
                    cost.as_ref()
                        .map_or("no solution".to_string(), Cost::to_string),
                    stats.expanded.to_string(),
                    format!("{:.3}s", stats.elapsed.as_secs_f64()),
                ],
                serde_json::json!({
                    "level": l.name, "solved": cost.is_some(), "cost": cost,
                    "expanded": stats.expanded, "stored": stats.stored,
                    "seconds": stats.elapsed.as_secs_f64(), "error": null,
                }),
            ),
            LevelRun::Failed { why, code, elapsed } => {
                worst = worst.max(code);
                (
                    [
                        l.name.clone(),
                        format!("error (exit {code}): {why}"),
                        String::new(),
                        format!("{:.3}s", elapsed.as_secs_f64()),
                    ],
                    serde_json::json!({
                        "level": l.name, "solved": null, "cost": null, "expanded": null,
                        "stored": null, "seconds": elapsed.as_secs_f64(), "error": why, "exit": code,
                    }),
                )
            }
        };
        value["warnings"] = lints.into();
        rows.push(row);
        values.push(value);
    }
    let text = if json {
        let v = serde_json::json!({"puzzle": model.title, "levels": values});
        format!("{v}\n")
    } else {
        table(&["level", "cost", "states", "time"], &rows)
    };
    emit(&text)?;
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
}

/// A plain table: a header, then rows; columns padded to their widest cell, numbers
/// (the last two columns) right-aligned. A row whose third cell is empty is an error
/// row: its second cell runs to the end of the line.
pub(super) fn table(header: &[&str; 4], rows: &[[String; 4]]) -> String {
    let width = |k: usize| {
        rows.iter()
            .filter(|r| k != 1 || !r[2].is_empty())
            .map(|r| r[k].chars().count())
            .chain([header[k].len()])
            .max()
            .unwrap_or(0)
    };
    let w: Vec<usize> = (0..4).map(width).collect();
    let mut o = String::new();
    let line = |o: &mut String, r: [&str; 4]| {
        if r[2].is_empty() && r[1] != header[1] {
            outln!(o, "{:<a$}  {}  ({})", r[0], r[1], r[3], a = w[0]);
        } else {
            outln!(
                o,
                "{:<a$}  {:<b$}  {:>c$}  {:>d$}",
                r[0],
                r[1],
                r[2],
                r[3],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            );
        }
    };
    line(&mut o, *header);
    for r in rows {
        line(&mut o, [&r[0], &r[1], &r[2], &r[3]]);
    }
    o
}
