//! `puz solve FILE [LEVEL]`: one level's answer, as text or JSON, with the boards on
//! request; across processes with the distributed options.

use puz::io::render::{file_symbols, written_symbols};
use puz::solution::{Boards, Drawing, Status};
use puz::solver::Solver;

use super::dist::DistArgs;
use super::{
    emit, exit, failed, file_level, load, output, pick_level, pick_metric, print_stats,
    read_level_file, solve_failed, LevelChoice,
};
use crate::SearchArgs;

/// `puz solve`; `steps` is the byte limit of the `--steps` boards when they are asked for.
#[allow(clippy::too_many_arguments)]
pub fn run(
    file: &str,
    choice: &LevelChoice,
    steps: Option<u64>,
    json: bool,
    search: &SearchArgs,
    metric: Option<&str>,
    dist: &DistArgs,
    verify: Option<&str>,
    pictures: &super::export::Pictures,
) -> Result<(), u8> {
    let p = load(file)?;
    let metric = pick_metric(&p, metric)?;
    let model = &p.model;
    // The level, and the symbols its text is written in, to draw `--steps` boards as the
    // level was drawn.
    let (lvl, inline, written) = match &choice.file {
        Some(path) => {
            let lf = read_level_file(path, choice.format)?;
            if !lf.is_collection() && choice.level.is_some() {
                return pick_level(&p, choice).map(|_| ());
            }
            let index = lf.pick(choice.level.as_deref()).map_err(failed)?;
            let written = match steps {
                None => vec![],
                Some(_) if lf.is_collection() => {
                    let rows: Vec<&str> =
                        lf.levels[index].rows().iter().map(String::as_str).collect();
                    written_symbols(model, &rows)
                }
                Some(_) => file_symbols(model, lf.text()),
            };
            (file_level(&p, &lf, index)?, None, written)
        }
        None => {
            let lvl = pick_level(&p, choice)?;
            let index = match &choice.level {
                Some(name) => p.level_index(name),
                None => Some(0),
            };
            let written = match (steps, index) {
                (Some(_), Some(i)) => puz::io::render::inline_symbols(model, i),
                _ => vec![],
            };
            (lvl, index, written)
        }
    };
    if let Some(moves) = verify {
        return verify_lurd(&p, lvl, moves, json);
    }
    let drawing = Drawing {
        boards: match steps {
            Some(_) => Boards::Text { written },
            None => Boards::None,
        },
        explain: true,
        // Each board is at least one byte per cell and line break.
        max_cells: steps.unwrap_or(u64::MAX),
    };
    // The level again, to draw the answer's pictures after the search has taken it.
    let drawn = pictures.wanted().then(|| lvl.clone());
    // Lints go to stderr before the search; the answer on stdout is unchanged.
    if let Some(w) = p.level_lints(&lvl, inline) {
        output::report(&w);
    }
    let solution = if dist.active() {
        if metric.is_some() {
            say!("error: --metric is not searched across processes; drop it or the distributed options");
            return Err(exit::INPUT);
        }
        let limits = (
            search.max_states,
            search.limits.timeout,
            search.limits.max_memory,
        );
        // Every process must run with the same engine and search (checked at connect).
        let engine = clap::ValueEnum::to_possible_value(&search.engine)
            .map_or(String::new(), |v| v.get_name().to_string());
        let settings = [
            ("--engine", engine),
            ("--search", search.search.name().into()),
        ];
        match super::dist::solve(
            &p,
            lvl,
            dist,
            limits,
            &settings,
            search.limits.stats,
            &drawing,
        )? {
            Some(solution) => solution,
            None => return Ok(()),
        }
    } else {
        let s = Solver::for_metric(model, search.engine.into(), search.search, metric)
            .and_then(|mut s| s.solution(lvl, &search.budget(), true, &drawing))
            .map_err(solve_failed)?;
        if search.limits.stats {
            print_stats(&s.stats);
        }
        s
    };
    if search.verbose {
        say!(
            "puz: engine {} ({}), search {}",
            solution.engine,
            solution.engine_reason,
            solution.search
        );
    }
    if matches!(solution.outcome, Status::Cutoff | Status::Cancelled) {
        say!("error: {}", solution.report().trim_end());
        return Err(exit::CUTOFF);
    }
    if solution.boards_omitted {
        let limit = steps.unwrap_or_default();
        let boards = solution.states.len();
        let bytes =
            (solution.rows as u64 * (solution.cols as u64 + 1)).saturating_mul(boards as u64);
        output::report(&StepsTooLarge {
            boards,
            rows: solution.rows,
            cols: solution.cols,
            mib: bytes.div_ceil(1 << 20),
            limit: limit >> 20,
        });
        return Err(exit::GRAPH);
    }
    if let Some(level) = drawn {
        if solution.solved {
            pictures.write(&p, level, &solution.states)?;
        } else {
            say!("no picture written: the level has no answer to draw");
        }
    }
    if json {
        let text = serde_json::to_string(&solution).map_err(|e| {
            say!("error: cannot write the answer as JSON: {e}");
            exit::OUTPUT
        })?;
        emit(&(text + "\n"))
    } else {
        emit(&solution.report())
    }
}

/// `--steps` boards estimated past the output limit: refused before anything is drawn.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("--steps would print {boards} boards of {rows} x {cols}, about {mib} MiB, more than --max-output {limit} MiB")]
#[diagnostic(
    code(puz::output::steps_too_large),
    help("drop --steps for the moves alone, or raise --max-output")
)]
struct StepsTooLarge {
    boards: usize,
    rows: usize,
    cols: usize,
    mib: u64,
    limit: u64,
}

/// `puz solve --verify MOVES`: plays LURD moves on the level and says whether they are
/// legal and solve it (exit 0), or reports the first that is not, or that they stop short
/// of the goal (exit 2).
fn verify_lurd(
    p: &puz::Puzzle,
    lvl: puz::engine::Level,
    moves: &str,
    json: bool,
) -> Result<(), u8> {
    let name = lvl.name.clone();
    match puz::play::lurd::replay(&p.model, lvl, moves) {
        Ok(r) => {
            let text = if json {
                let v = serde_json::json!({
                    "level": name, "valid": true, "moves": r.moves, "pushes": r.pushes,
                    "cost": r.cost,
                });
                format!("{v}\n")
            } else {
                format!(
                    "valid: the {} solve level {name:?}, cost {}\n",
                    puz::diagnostics::quantity(r.moves as u64, "moves"),
                    r.cost
                )
            };
            emit(&text)
        }
        Err(problems) => {
            let d = puz::diagnostics::Diagnostics::new(
                "--verify",
                std::sync::Arc::new(moves.to_string()),
                problems,
            );
            output::report(&d);
            Err(exit::INPUT)
        }
    }
}
