//! `puz graph` and `puz analyze`: the reachable state graph, exported or studied.

use std::time::Instant;

use puz::diagnostics::quantity;
use puz::search::Budget;

use super::dist::DistArgs;
use super::{emit, exit, load, output, pick_level, pick_metric};
use crate::RunLimits;

/// `puz graph` and `puz analyze`: build the reachable state graph, then export or study it,
/// every phase under the state, time and memory limits.
pub fn graph_cmd(
    file: &str,
    choice: &super::LevelChoice,
    max_states: u64,
    limits: &RunLimits,
    metric: Option<&str>,
    what: GraphOutput,
) -> Result<(), u8> {
    let t0 = Instant::now();
    let budget = Budget {
        max_states: Some(max_states as usize),
        deadline: limits.timeout.map(|t| t0 + t),
        max_bytes: limits.max_memory.map(|m| m << 20),
        max_depth: None,
        progress: None,
        cancel: None,
    };
    // Time counts from the start of the command: loading, setup, building, the rest.
    let stats = |graph: Option<(usize, usize)>| {
        if limits.stats {
            let peak = puz::search::peak_bytes().map_or("unknown".to_string(), |b| {
                format!("{:.1} MiB", b as f64 / 1048576.0)
            });
            let size = graph.map_or("graph not built".to_string(), |(n, m)| {
                format!("states {n}, moves {m}")
            });
            say!(
                "stats: {size}, peak memory {peak}, time {:.3}s",
                t0.elapsed().as_secs_f64()
            );
        }
    };
    let p = load(file)?;
    let metric = pick_metric(&p, metric)?;
    let lvl = pick_level(&p, choice)?;
    let mut exp = puz::engine::Expander::new(&p.model, lvl, &budget).map_err(|e| {
        say!("error: {e}");
        stats(None);
        match e {
            puz::engine::SetupError::Cutoff(_) => exit::CUTOFF,
            puz::engine::SetupError::TooLarge(_) => exit::INPUT,
        }
    })?;
    let build_budget = Budget {
        max_depth: p.model.limit,
        ..budget.clone()
    };
    // Under a metric the graph's edges are counted moves, each labelled by its first
    // unit step.
    let built = match metric {
        Some(m) => puz::search::graph::StateGraph::build(
            &mut puz::engine::compound::Compound::new(&mut exp, m).label_by_first_step(),
            &build_budget,
        ),
        None => puz::search::graph::StateGraph::build(&mut exp, &build_budget),
    };
    let g = built.map_err(|e| {
        output::report(&e);
        stats(None);
        match e {
            puz::search::graph::GraphError::TooLarge { .. } => exit::GRAPH,
            puz::search::graph::GraphError::Cutoff(_) => exit::CUTOFF,
        }
    })?;
    let (states, moves) = (g.graph.node_count(), g.graph.edge_count());
    let form = p.form();
    let result = match what {
        GraphOutput::Export { format, max_bytes } => {
            let stdout = std::io::stdout();
            let out = std::io::BufWriter::new(stdout.lock());
            let labels = puz::io::graph::PuzLabels { exp: &exp, form };
            match puz::io::graph::export(&g, &labels, format, out, &budget, max_bytes) {
                Ok(()) => Ok(()),
                // A closed pipe ends quietly (0); a full disk is lost output (8).
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
        GraphOutput::Analysis { json } => match g.analyze(&budget) {
            Err(c) => {
                say!("error: the analysis stopped: {c}");
                Err(exit::CUTOFF)
            }
            Ok(a) if json => {
                emit(&(serde_json::to_string_pretty(&a).expect("analysis serializes") + "\n"))
            }
            Ok(a) => emit(&analysis_text(
                &a,
                &g,
                &puz::io::graph::PuzLabels { exp: &exp, form },
                "moves",
            )),
        },
    };
    stats(Some((states, moves)));
    result
}

/// The figures of `puz analyze` as text, with the farthest state drawn.
pub(super) fn analysis_text(
    a: &puz::search::graph::Analysis,
    g: &puz::search::graph::StateGraph,
    labels: &dyn puz::io::graph::Labels,
    unit: &str,
) -> String {
    let mut o = String::new();
    outln!(
        o,
        "reachable states: {} ({} between them, {})",
        a.reachable_states,
        quantity(a.transitions as u64, "moves"),
        quantity(a.goal_states as u64, "goal states")
    );
    outln!(
        o,
        "dead states: {} (no goal reachable); moves into them: {}",
        a.dead_states,
        a.moves_into_dead_states
    );
    outln!(
        o,
        "strongly connected components: {} (largest {})",
        a.strongly_connected_components,
        a.largest_component
    );
    outln!(
        o,
        "reversible: {}",
        if a.reversible {
            "yes, every move can be undone"
        } else {
            "no, some moves cannot be undone"
        }
    );
    match (a.optimal_moves, &a.optimal_solutions) {
        (Some(m), Some(n)) => outln!(
            o,
            "fewest {unit} to a goal: {m} ({n} distinct optimal {})",
            if n.to_string() == "1" {
                "solution"
            } else {
                "solutions"
            }
        ),
        _ => outln!(o, "no goal is reachable"),
    }
    outln!(
        o,
        "farthest reachable state: {}",
        quantity(a.farthest_distance as u64, unit)
    );
    if let Some(far) = g
        .graph
        .node_indices()
        .find(|&n| g.graph[n].depth == a.farthest_distance)
    {
        out!(o, "{}", labels.board(&g.state(far)));
    }
    let layers: Vec<String> = a.states_at_distance.iter().map(|n| n.to_string()).collect();
    outln!(o, "states at each distance: {}", layers.join(" "));
    o
}

/// What `graph_cmd` prints.
pub enum GraphOutput {
    /// The graph itself, at most `max_bytes` bytes of it.
    Export {
        format: puz::io::graph::Format,
        max_bytes: u64,
    },
    /// The figures of [`puz::search::graph::Analysis`].
    Analysis { json: bool },
}

/// `puz analyze` across processes.
pub fn dist_analyze(
    file: &str,
    choice: &super::LevelChoice,
    max_states: u64,
    limits: &RunLimits,
    json: bool,
    dist: &DistArgs,
) -> Result<(), u8> {
    let p = load(file)?;
    let lvl = pick_level(&p, choice)?;
    let caps = (Some(max_states), limits.timeout, limits.max_memory);
    super::dist::analyze(&p, lvl, dist, caps, json, limits.stats)
}
