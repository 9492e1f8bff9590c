//! `puz solve` and `puz solve --all` on a PuzzleScript game: the fewest inputs that win a
//! level, one shortest solution in the tie order (up, left, down, right, action), as
//! PuzzleScript writes inputs.

use puz::puzzlescript::solve::{PsOutcome, PsSolveError};
use puz::puzzlescript::{Entry, Game, PsSolveOptions};
use puz::solver::SearchChoice;

use super::dist::DistArgs;
use super::play::{load_game, parse_level_pick, pick, LevelPick};
use super::{emit, exit, output, print_stats};
use crate::SearchArgs;

/// The options of a search on a game, from the command line's.
fn options(search: &SearchArgs, boards: bool) -> PsSolveOptions {
    PsSolveOptions {
        budget: search.budget(),
        search: match search.search {
            SearchChoice::Auto => None,
            SearchChoice::Backend(b) => Some(b),
        },
        boards,
    }
}

/// The exit code of a refusal.
fn refused(e: PsSolveError) -> u8 {
    output::report(&e);
    match e {
        PsSolveError::NotALevel { .. } => exit::INPUT,
        PsSolveError::Nondeterministic { .. } | PsSolveError::Unavailable { .. } => exit::SEARCH,
        PsSolveError::Overlap { .. } | PsSolveError::BadPath(_) => exit::INTERNAL,
    }
}

/// Loads a game for a search, with its warnings on stderr; refuses options that only a
/// `.puz` file has.
fn load(file: &str, text: String, search: &SearchArgs) -> Result<Game, u8> {
    if !matches!(
        search.engine,
        crate::EngineArg::Auto | crate::EngineArg::Interp
    ) {
        say!("error: --engine fast: PuzzleScript games have no fast path; drop --engine");
        return Err(exit::ENGINE);
    }
    let (game, warnings) = load_game(super::source_name(file), text)?;
    if let Some(w) = warnings {
        output::report(&w);
    }
    Ok(game)
}

/// The exit code of a refused or failed distributed run, after reporting it.
fn dist_failed(e: puz::dist::puzzlescript::PsDistError) -> u8 {
    use puz::dist::puzzlescript::PsDistError;
    match e {
        PsDistError::Level(e) => refused(e),
        PsDistError::Dist(e) => super::dist::failed(e),
    }
}

/// `--level N|#K` read, or a coded input error.
fn level_pick(level: Option<&str>) -> Result<Option<LevelPick>, u8> {
    level
        .map(|l| {
            parse_level_pick(l).map_err(|e| {
                say!("error: --level {e}");
                exit::INPUT
            })
        })
        .transpose()
}

/// `puz solve GAME.txt [--level N|#K]`, across threads and processes with the
/// distributed options.
pub fn solve(
    file: &str,
    text: String,
    level: Option<&str>,
    steps: bool,
    json: bool,
    search: &SearchArgs,
    dist: &DistArgs,
) -> Result<(), u8> {
    let pick_arg = level_pick(level)?;
    let game = load(file, text, search)?;
    let index = pick(&game, file, pick_arg)?;
    let t0 = std::time::Instant::now();
    let (sol, process) = if dist.active() {
        // Every process must run the same search (checked at connect).
        let settings = [("--search", search.search.name().to_string())];
        let limits = &search.limits;
        let opts = dist
            .options(
                search.max_states,
                limits.timeout,
                limits.max_memory,
                &settings,
            )
            .map_err(super::dist::failed)?;
        let process = opts.cluster.process;
        let game = std::sync::Arc::new(game);
        let (sol, report) =
            puz::dist::puzzlescript::solve_level(game, index, &options(search, steps), opts)
                .map_err(dist_failed)?;
        super::dist::after(&report, limits.stats, t0);
        (sol, process)
    } else {
        let sol = puz::puzzlescript::solve_level(&game, index, &options(search, steps))
            .map_err(refused)?;
        if search.limits.stats {
            print_stats(&sol.stats);
        }
        (sol, 0)
    };
    if search.limits.stats {
        say!(
            "inputs simulated {} (unchanged {}, restarts {}, stuck {}, to dead positions {}), again turns {}",
            sol.simulated.simulated,
            sol.simulated.unchanged,
            sol.simulated.restarts,
            sol.simulated.stuck,
            sol.simulated.dead,
            sol.simulated.again_turns
        );
    }
    if search.verbose {
        say!("puz: search {}; bound: {}", sol.search, sol.bound);
        say!("puz: dropped: {}", sol.pruning);
    }
    let cutoff = matches!(sol.outcome, PsOutcome::Cutoff | PsOutcome::Cancelled);
    // Only process 0 prints the answer; every process ends with the run's exit code.
    if process == 0 && (json || !cutoff) {
        // With --json a cutoff is an answer too (`outcome`, `stopped`, the states
        // stored), besides the diagnostic on stderr and the exit code.
        let text = if json {
            serde_json::to_string(&sol).map_err(|e| {
                say!("error: cannot write the answer as JSON: {e}");
                exit::OUTPUT
            })? + "\n"
        } else {
            sol.report()
        };
        emit(&text)?;
    }
    if cutoff {
        say!("error: {}", sol.report().trim_end());
        return Err(exit::CUTOFF);
    }
    Ok(())
}

/// `puz solve GAME.txt --all`: every level of the game, one row each. Exit 0 when every
/// level ran (solved or not), else the highest exit code among the levels that failed.
pub fn all(file: &str, text: String, json: bool, search: &SearchArgs) -> Result<(), u8> {
    let game = load(file, text, search)?;
    let mut worst = exit::OK;
    let mut rows: Vec<[String; 4]> = vec![];
    let mut values = vec![];
    let mut k = 0;
    for (index, e) in game.entries().iter().enumerate() {
        if !matches!(e, Entry::Level { .. }) {
            continue;
        }
        k += 1;
        let name = format!("{index} (#{k})");
        let t0 = std::time::Instant::now();
        match puz::puzzlescript::solve_level(&game, index, &options(search, false)) {
            Ok(s) => {
                let (cost, error) = match s.outcome {
                    PsOutcome::Solved => (
                        s.cost.map_or(String::new(), |c| {
                            puz::diagnostics::quantity(c as u64, "inputs")
                        }),
                        None,
                    ),
                    PsOutcome::Unsolvable => ("no solution".to_string(), None),
                    _ => {
                        worst = worst.max(exit::CUTOFF);
                        let why =
                            format!("search stopped: {}", s.stopped.clone().unwrap_or_default());
                        (format!("error (exit {}): {why}", exit::CUTOFF), Some(why))
                    }
                };
                rows.push([
                    name,
                    cost,
                    if error.is_some() {
                        String::new()
                    } else {
                        s.stats.stored.to_string()
                    },
                    format!("{:.3}s", s.stats.elapsed.as_secs_f64()),
                ]);
                values.push(serde_json::json!({
                    "level": index, "playable": k,
                    "solved": s.solved, "outcome": s.outcome, "cost": s.cost,
                    "inputs": s.solved.then_some(s.inputs.clone()),
                    "expanded": s.stats.expanded, "stored": s.stats.stored,
                    "seconds": s.stats.elapsed.as_secs_f64(), "error": error,
                }));
            }
            Err(e) => {
                let why = e.to_string();
                let code = refused(e);
                worst = worst.max(code);
                rows.push([
                    name,
                    format!("error (exit {code}): {why}"),
                    String::new(),
                    format!("{:.3}s", t0.elapsed().as_secs_f64()),
                ]);
                values.push(serde_json::json!({
                    "level": index, "playable": k, "solved": null, "cost": null,
                    "error": why, "exit": code,
                }));
            }
        }
    }
    if k == 0 {
        say!("error: {file} has no levels");
        return Err(exit::INPUT);
    }
    let text = if json {
        let v = serde_json::json!({"game": game.title().unwrap_or(game.name()), "levels": values});
        format!("{v}\n")
    } else {
        let rows: Vec<[String; 5]> = rows
            .into_iter()
            .map(|[a, b, c, d]| [a, b, c, d, String::new()])
            .collect();
        super::all::table(&["level", "inputs", "states", "time"], &rows)
    };
    emit(&text)?;
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
}

/// What `puz test` counted on one game.
#[derive(Default)]
pub struct Tally {
    /// Expectations that held.
    pub passed: usize,
    /// Expectations that did not, or could not be checked.
    pub failed: usize,
    /// Levels without an expectation.
    pub open: usize,
}

/// `puz test GAME.txt`: the expectations of the game's sidecar file (see
/// `puz::puzzlescript::expect`) checked level by level; levels without one are listed.
/// `Err` when the game or its expectations do not load (reported), with the exit code.
pub fn test(file: &str, text: String, search: &SearchArgs) -> Result<Tally, u8> {
    use puz::puzzlescript::expect::{self, Want};
    let game = load(file, text, search)?;
    let path = expect::sidecar_path(std::path::Path::new(file));
    let wants = match std::fs::read_to_string(&path) {
        Ok(t) => expect::parse(&game, &path.display().to_string(), std::sync::Arc::new(t))
            .map_err(|e| {
                output::report(&e);
                exit::RULES
            })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => vec![],
        Err(e) => {
            say!("error: cannot read {}: {e}", path.display());
            return Err(exit::INPUT);
        }
    };
    let mut t = Tally::default();
    let mut k = 0;
    for (index, e) in game.entries().iter().enumerate() {
        if !matches!(e, Entry::Level { .. }) {
            continue;
        }
        k += 1;
        let what = format!("level {index} (#{k})");
        let Some(want) = wants.iter().find(|w| w.level == index) else {
            t.open += 1;
            emit(&format!("-     {file} {what}: no expectation\n"))?;
            continue;
        };
        let want = &want.want;
        let line = match puz::puzzlescript::solve_level(&game, index, &options(search, false)) {
            Ok(s) => {
                let time = s.stats.elapsed.as_secs_f64();
                let got = match s.outcome {
                    PsOutcome::Solved => Some(Want::Solution(s.inputs.clone())),
                    PsOutcome::Unsolvable => Some(Want::Unsolvable),
                    _ => None,
                };
                let ok = match (want, &s.outcome) {
                    (Want::Inputs(n), PsOutcome::Solved) => s.cost == Some(*n),
                    (Want::Solvable, PsOutcome::Solved) => true,
                    (Want::Unsolvable, PsOutcome::Unsolvable) => true,
                    (Want::Solution(w), PsOutcome::Solved) => *w == s.inputs,
                    _ => false,
                };
                let shown = |g: &Want| match (want, g) {
                    (Want::Inputs(_) | Want::Solvable, Want::Solution(x)) => {
                        format!("{} ({x})", Want::Inputs(x.len()))
                    }
                    (_, g) => g.to_string(),
                };
                if ok {
                    t.passed += 1;
                    format!(
                        "pass  {file} {what}: {} ({time:.3}s)",
                        got.as_ref().map_or(want.to_string(), shown)
                    )
                } else {
                    t.failed += 1;
                    match got {
                        Some(g) => format!(
                            "FAIL  {file} {what}: expected {want}, got {} ({time:.3}s)",
                            shown(&g)
                        ),
                        None => format!(
                            "FAIL  {file} {what}: expected {want}, got no answer: {} ({time:.3}s)",
                            s.stopped.unwrap_or_default()
                        ),
                    }
                }
            }
            Err(e) => {
                t.failed += 1;
                let line = format!("FAIL  {file} {what}: expected {want}, got no answer: {e}");
                refused(e);
                line
            }
        };
        emit(&(line + "\n"))?;
    }
    Ok(t)
}

/// `puz graph GAME.txt` and `puz analyze GAME.txt`: a level's reachable states (the level
/// after each whole turn; a won level is a goal), exported or studied, under the limits.
pub fn graph(
    file: &str,
    text: String,
    level: Option<&str>,
    max_states: u64,
    limits: &crate::RunLimits,
    what: super::graph::GraphOutput,
) -> Result<(), u8> {
    use puz::puzzlescript::search::PsSpace;
    use puz::search::graph::{GraphError, StateGraph};
    use puz::search::Budget;
    let t0 = std::time::Instant::now();
    let pick_arg = level_pick(level)?;
    let (game, warnings) = load_game(super::source_name(file), text)?;
    if let Some(w) = warnings {
        output::report(&w);
    }
    let index = pick(&game, file, pick_arg)?;
    if let Some(why) = puz::puzzlescript::solve::nondeterminism(&game) {
        return Err(refused(PsSolveError::Nondeterministic {
            game: game.name().to_string(),
            why,
        }));
    }
    let budget = Budget {
        max_states: Some(max_states as usize),
        deadline: limits.timeout.map(|t| t0 + t),
        max_bytes: limits.max_memory.map(|m| m << 20),
        max_depth: None,
        progress: None,
        cancel: None,
    };
    let mut space = PsSpace::new(&game, index).ok_or(exit::INPUT)?;
    let stats = |graph: Option<(usize, usize)>| {
        if limits.stats {
            let peak = puz::search::peak_bytes().map_or("unknown".to_string(), |b| {
                format!("{:.1} MiB", b as f64 / 1048576.0)
            });
            let size = graph.map_or("graph not built".to_string(), |(n, m)| {
                format!("states {n}, inputs {m}")
            });
            say!(
                "stats: {size}, peak memory {peak}, time {:.3}s",
                t0.elapsed().as_secs_f64()
            );
        }
    };
    let g = StateGraph::build(&mut space, &budget).map_err(|e| {
        output::report(&e);
        stats(None);
        match e {
            GraphError::TooLarge { .. } => exit::GRAPH,
            GraphError::Cutoff(_) => exit::CUTOFF,
        }
    })?;
    if let Some(o) = space.overlap() {
        return Err(refused(o));
    }
    let size = (g.graph.node_count(), g.graph.edge_count());
    let labels = puz::io::graph::PsLabels { space: &space };
    let result = match what {
        super::graph::GraphOutput::Export { format, max_bytes } => {
            let out = std::io::BufWriter::new(std::io::stdout().lock());
            match puz::io::graph::export(&g, &labels, format, out, &budget, max_bytes) {
                Ok(()) => Ok(()),
                Err(puz::io::graph::ExportError::Io(e)) => Err(output::write_failed(e)),
                Err(e) => {
                    output::report(&e);
                    Err(match e {
                        puz::io::graph::ExportError::Cutoff(_) => exit::CUTOFF,
                        _ => exit::GRAPH,
                    })
                }
            }
        }
        super::graph::GraphOutput::Analysis { json } => match g.analyze(&budget) {
            Err(c) => {
                say!("error: the analysis stopped: {c}");
                Err(exit::CUTOFF)
            }
            Ok(a) if json => emit(
                &(serde_json::to_string_pretty(&a).map_err(|e| {
                    say!("error: cannot write the analysis as JSON: {e}");
                    exit::OUTPUT
                })? + "\n"),
            ),
            Ok(a) => emit(&super::graph::analysis_text(&a, &g, &labels, "inputs")),
        },
    };
    stats(Some(size));
    result
}

/// `puz analyze GAME.txt --workers N ...`: a level's whole-space figures across threads
/// and processes, printed by process 0 as the distributed analysis of a `.puz` level is,
/// moves counted as inputs and the farthest level drawn in the game's legend.
pub fn dist_analyze(
    file: &str,
    text: String,
    level: Option<&str>,
    max_states: u64,
    limits: &crate::RunLimits,
    json: bool,
    dist: &DistArgs,
) -> Result<(), u8> {
    let t0 = std::time::Instant::now();
    let pick_arg = level_pick(level)?;
    let (game, warnings) = load_game(super::source_name(file), text)?;
    if let Some(w) = warnings {
        output::report(&w);
    }
    let index = pick(&game, file, pick_arg)?;
    let opts = dist
        .options(Some(max_states), limits.timeout, limits.max_memory, &[])
        .map_err(super::dist::failed)?;
    let cluster = opts.cluster.clone();
    let a = puz::dist::puzzlescript::analyze_level(std::sync::Arc::new(game), index, opts)
        .map_err(dist_failed)?;
    super::dist::after(&a.report, limits.stats, t0);
    let (Some(figures), Some(board)) = (&a.analysis, &a.farthest) else {
        return match a.report.outcome {
            puz::dist::DistOutcome::Cutoff(c) => {
                say!("error: the analysis stopped: {c}");
                Err(exit::CUTOFF)
            }
            _ => Err(super::dist::failed(puz::dist::DistError::Worker(
                "an analysis ended without figures".into(),
            ))),
        };
    };
    if cluster.process != 0 {
        return Ok(());
    }
    emit(&super::dist::analysis_output(
        figures, board, &cluster, json, "inputs",
    ))
}
