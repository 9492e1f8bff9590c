//! `puz solve FILE --all`: every inline level, one row each, as a table or JSON.

use std::time::Duration;

use puz::diagnostics::Diagnostics;
use puz::engine::Level;
use puz::io::formats::LevelFormat;
use puz::solution::{Cost, Drawing, Status};
use puz::solver::Solver;
use puz::Puzzle;

use super::{
    emit, exit, failed, load, load_rules, output, pick_metric, read_level_file, solve_failed,
};
use crate::SearchArgs;

/// How one level of `--all` ended.
enum LevelRun {
    /// The search finished: the optimal cost, or `None` when no goal can be reached, and
    /// the answer in LURD when it reads as one (asked for collections only).
    Done {
        cost: Option<Cost>,
        stats: puz::search::Stats,
        lurd: Option<String>,
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

/// Solves `level` (inline level `inline` of `p`, or one read from a level file) with
/// `solver`, reporting any diagnostic on stderr; a level that does not read fails with
/// `bad_level`, the exit code `puz solve` gives it. The level's lints (the warnings `puz
/// solve --level NAME` prints) go to stderr before the search and are returned beside the
/// run, as JSON; they never make a level fail. With `need_path` the answer's path is
/// found and told in LURD when it reads as one.
fn run_level(
    p: &Puzzle,
    solver: &mut Solver,
    level: Result<Level, Diagnostics>,
    inline: Option<usize>,
    bad_level: u8,
    search: &SearchArgs,
    need_path: bool,
) -> (LevelRun, Vec<serde_json::Value>) {
    let lvl = match level {
        Ok(l) => l,
        Err(d) => {
            output::report(&d);
            let first = d.problems.first().map_or(String::new(), |p| p.to_string());
            let run = LevelRun::Failed {
                why: format!("invalid level: {first}"),
                code: bad_level,
                elapsed: Duration::ZERO,
            };
            return (run, vec![]);
        }
    };
    let lints = match p.level_lints(&lvl, inline) {
        Some(w) => {
            output::report(&w);
            w.problems.iter().map(lint_json).collect()
        }
        None => vec![],
    };
    let t0 = std::time::Instant::now();
    let run = match solver.solution(lvl, &search.budget(), need_path, &Drawing::answer_only()) {
        Ok(s) => match s.outcome {
            Status::Solved | Status::Unsolvable => LevelRun::Done {
                cost: s.cost,
                stats: s.stats,
                lurd: s.lurd,
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

/// The table row and JSON object of one level's run; `worst` keeps the highest exit code.
fn row(name: &str, run: LevelRun, worst: &mut u8) -> ([String; 5], serde_json::Value) {
    match run {
        LevelRun::Done { cost, stats, lurd } => (
            [
                name.to_string(),
                cost.as_ref()
                    .map_or("no solution".to_string(), Cost::to_string),
                stats.expanded.to_string(),
                format!("{:.3}s", stats.elapsed.as_secs_f64()),
                lurd.clone().unwrap_or_default(),
            ],
            serde_json::json!({
                "level": name, "solved": cost.is_some(), "cost": cost,
                "expanded": stats.expanded, "stored": stats.stored,
                "seconds": stats.elapsed.as_secs_f64(), "error": null, "lurd": lurd,
            }),
        ),
        LevelRun::Failed { why, code, elapsed } => {
            *worst = (*worst).max(code);
            (
                [
                    name.to_string(),
                    format!("error (exit {code}): {why}"),
                    String::new(),
                    format!("{:.3}s", elapsed.as_secs_f64()),
                    String::new(),
                ],
                serde_json::json!({
                    "level": name, "solved": null, "cost": null, "expanded": null,
                    "stored": null, "seconds": elapsed.as_secs_f64(), "error": why, "exit": code,
                }),
            )
        }
    }
}

/// Prints the rows (a table, or JSON under `puzzle`) and gives the exit status: 0 when
/// every level ran, else `worst`.
fn finish(
    puzzle: &str,
    rows: &[[String; 5]],
    values: Vec<serde_json::Value>,
    json: bool,
    worst: u8,
) -> Result<(), u8> {
    let text = if json {
        let v = serde_json::json!({"puzzle": puzzle, "levels": values});
        format!("{v}\n")
    } else {
        table(&["level", "cost", "states", "time"], rows)
    };
    emit(&text)?;
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
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
    let mut rows = vec![];
    let mut values = vec![];
    for (i, l) in model.levels.iter().enumerate() {
        let level = p.inline_level(i);
        let (run, lints) = run_level(&p, &mut solver, level, Some(i), exit::RULES, search, false);
        let (row, mut value) = row(&l.name, run, &mut worst);
        value["warnings"] = lints.into();
        rows.push(row);
        values.push(value);
    }
    finish(&model.title, &rows, values, json, worst)
}

/// `puz solve RULES LEVELS --all`: every level of a collection (a grid file's one level),
/// one row each, with its answer in LURD when it reads as one; the JSON adds each level's
/// `number`, `title` and the optimal move count the file records (`recorded_moves`).
pub fn run_file(
    file: &str,
    levels: &str,
    format: Option<LevelFormat>,
    json: bool,
    search: &SearchArgs,
    metric: Option<&str>,
) -> Result<(), u8> {
    let p = load(file)?;
    let metric = pick_metric(&p, metric)?;
    let lf = read_level_file(levels, format)?;
    let mut solver = Solver::for_metric(&p.model, search.engine.into(), search.search, metric)
        .map_err(solve_failed)?;
    let mut worst = exit::OK;
    let mut rows = vec![];
    let mut values = vec![];
    for (i, l) in lf.levels.iter().enumerate() {
        let level = p.file_level(&lf, i);
        let (run, lints) = run_level(&p, &mut solver, level, None, exit::INPUT, search, true);
        let name = match (&l.title, lf.is_collection()) {
            (Some(t), _) => format!("#{} {t}", l.number),
            (None, true) => format!("#{}", l.number),
            (None, false) => lf.name.clone(),
        };
        let (row, mut value) = row(&name, run, &mut worst);
        value["level"] = l.name().into();
        value["number"] = l.number.into();
        value["title"] = l.title.clone().into();
        value["recorded_moves"] = l.moves.into();
        value["warnings"] = lints.into();
        rows.push(row);
        values.push(value);
    }
    finish(&p.model.title, &rows, values, json, worst)
}

/// A plain table: a header, then rows; columns padded to their widest cell, numbers
/// (the third and fourth columns) right-aligned, and a fifth cell (an answer in LURD), when
/// not empty, last on the line as it is. A row whose third cell is empty is an error row:
/// its second cell runs to the end of the line.
pub(super) fn table(header: &[&str; 4], rows: &[[String; 5]]) -> String {
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
    let line = |o: &mut String, r: [&str; 5]| {
        if r[2].is_empty() && r[1] != header[1] {
            outln!(o, "{:<a$}  {}  ({})", r[0], r[1], r[3], a = w[0]);
        } else {
            let mut text = format!(
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
            if !r[4].is_empty() {
                text.push_str("  ");
                text.push_str(r[4]);
            }
            outln!(o, "{text}");
        }
    };
    line(&mut o, [header[0], header[1], header[2], header[3], ""]);
    for r in rows {
        line(&mut o, [&r[0], &r[1], &r[2], &r[3], &r[4]]);
    }
    o
}
