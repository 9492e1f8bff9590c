//! `puz solve` and `puz analyze` across threads and processes (`--workers`,
//! `--processes`, `--process`, `--hosts`, `--checkpoint`, `--resume`): the options, the
//! run, and what process 0 prints. Every other process prints nothing on stdout.

use std::time::{Duration, Instant};

use puz::diagnostics::quantity;
use puz::dist::{self, Cluster, DistError, DistOptions, DistOutcome, DistReport, Job};
use puz::engine::Level;
use puz::Puzzle;

use super::{emit, exit, output};

/// The options that make a run distributed.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DistArgs {
    /// Search across worker threads: this many in this process (distributed, exact
    /// search by layers, or by cost buckets; see the README's "Past one machine").
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=512))]
    workers: Option<u64>,
    /// Processes in the run, each started with the same options and its own --process.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    processes: Option<u64>,
    /// This process's index among --processes, from 0.
    #[arg(long)]
    process: Option<u64>,
    /// A file of `host:port` lines, one per process in process order (default: ports
    /// 2101, 2102, ... on 127.0.0.1).
    #[arg(long)]
    hosts: Option<String>,
    /// Write every completed layer to this directory.
    #[arg(long)]
    checkpoint: Option<String>,
    /// Go on from the last complete layer written to this directory (by --checkpoint).
    #[arg(long, conflicts_with = "checkpoint")]
    resume: Option<String>,
    /// With cost vectors (a solve bucket by bucket): seconds between snapshots of the
    /// search (layers are written every one).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=86400))]
    checkpoint_every: u64,
    /// Seconds to wait for the other processes to connect.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    connect_timeout: u64,
}

impl DistArgs {
    /// Whether any option asks for a distributed run.
    pub fn active(&self) -> bool {
        self.workers.is_some()
            || self.processes.is_some()
            || self.process.is_some()
            || self.hosts.is_some()
            || self.checkpoint.is_some()
            || self.resume.is_some()
    }

    /// The cluster these options describe.
    fn cluster(&self) -> Result<Cluster, DistError> {
        let processes = self.processes.unwrap_or(1) as usize;
        let process = self.process.unwrap_or(0) as usize;
        if process >= processes {
            return Err(DistError::Hosts(format!(
                "--process {process} is not below --processes {processes}"
            )));
        }
        let hosts = match &self.hosts {
            None => dist::net::default_hosts(processes),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| DistError::Hosts(format!("{path}: {e}")))?;
                let hosts = dist::net::parse_hosts(path, &text)?;
                if hosts.len() != processes {
                    return Err(DistError::Hosts(format!(
                        "{path} lists {} for --processes {processes}",
                        quantity(hosts.len() as u64, "hosts")
                    )));
                }
                hosts
            }
        };
        Ok(Cluster {
            workers: self.workers.unwrap_or(1) as usize,
            processes,
            process,
            hosts,
            connect_timeout: Duration::from_secs(self.connect_timeout),
        })
    }

    /// The run's options: the budgets (each process's), and `more` settings every
    /// process must share (`--engine`, `--search`); `--timeout` is added to them.
    pub(super) fn options(
        &self,
        max_states: Option<u64>,
        timeout: Option<Duration>,
        max_memory: Option<u64>,
        more: &[(&str, String)],
    ) -> Result<DistOptions, DistError> {
        let checkpoint = self.checkpoint.as_ref().or(self.resume.as_ref());
        // What every process must run with besides what the run checks itself.
        let mut settings: Vec<(String, String)> = more
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        settings.push((
            "--timeout".into(),
            timeout.map_or("none".into(), |t| format!("{}s", t.as_secs_f64())),
        ));
        Ok(DistOptions {
            cluster: self.cluster()?,
            max_states: max_states.map(|n| n as usize),
            deadline: timeout.map(|t| Instant::now() + t),
            max_bytes: max_memory.map(|m| m << 20),
            checkpoint: checkpoint.map(Into::into),
            resume: self.resume.is_some(),
            checkpoint_every: Duration::from_secs(self.checkpoint_every),
            stream_bytes: None,
            settings,
        })
    }
}

/// The exit code of a failed run, after reporting it.
pub(super) fn failed(e: DistError) -> u8 {
    output::report(&e);
    match e {
        DistError::Unsupported(_) => exit::SEARCH,
        DistError::Setup(_) => exit::INPUT,
        DistError::Hosts(_) => exit::INPUT,
        DistError::Worker(_) => exit::INTERNAL,
        DistError::Network(_)
        | DistError::Mismatch(_)
        | DistError::Lost(_)
        | DistError::Checkpoint(_) => exit::DIST,
    }
}

/// Per layer and per worker of this process, then totals, on stderr (`--stats`).
pub(super) fn print_stats(r: &DistReport, elapsed: Duration) {
    for l in &r.layers {
        let what = if l.cost.is_empty() {
            format!("layer {}", l.depth)
        } else {
            let cost: Vec<String> = l.cost.iter().map(u32::to_string).collect();
            format!("bucket {} (cost {})", l.depth, cost.join(", "))
        };
        say!(
            "stats: {} worker {}: expanded {}, stored {}, sent {} bytes, {:.3}s",
            what,
            l.worker,
            l.expanded,
            l.stored,
            l.bytes_sent,
            l.seconds
        );
    }
    let peak = puz::search::peak_bytes().map_or("unknown".to_string(), |b| {
        format!("{:.1} MiB", b as f64 / 1048576.0)
    });
    let per_state = if r.stored > 0 {
        r.bytes_sent as f64 / r.stored as f64
    } else {
        0.0
    };
    say!(
        "stats: this process stored {} states (the run: {} in its finished layers or buckets), {} bytes each, sent {} bytes ({:.1} per state it stored), peak memory {}, time {:.3}s",
        r.stored,
        r.total_stored,
        r.state_bytes,
        r.bytes_sent,
        per_state,
        peak,
        elapsed.as_secs_f64()
    );
}

/// Runs `job` as this process's part of the cluster; reports stats and a resume on
/// stderr.
fn run(
    p: &Puzzle,
    lvl: &Level,
    dist_args: &DistArgs,
    limits: (Option<u64>, Option<Duration>, Option<u64>),
    settings: &[(&str, String)],
    stats: bool,
    job: Job,
) -> Result<(std::sync::Arc<puz::compile::Model>, Cluster, DistReport), u8> {
    let t0 = Instant::now();
    let opts = dist_args
        .options(limits.0, limits.1, limits.2, settings)
        .map_err(failed)?;
    let cluster = opts.cluster.clone();
    let model = std::sync::Arc::new(p.model.clone());
    let report = dist::run(model.clone(), lvl.clone(), job, opts).map_err(failed)?;
    after(&report, stats, t0);
    Ok((model, cluster, report))
}

/// What a finished run tells on stderr: the statistics with `--stats`, and where it
/// resumed.
pub(super) fn after(report: &DistReport, stats: bool, t0: Instant) {
    if stats {
        print_stats(report, t0.elapsed());
    }
    match report.resumed_from {
        Some(b) if report.buckets => say!("puz: resumed at bucket {b}"),
        Some(d) => say!("puz: resumed after layer {d}"),
        None => {}
    }
}

/// A distributed solve: the answer on process 0 (`None` on the others, which print
/// nothing), or the exit code of a failure. `settings` are the command line's options
/// every process must share beyond the budgets (`--engine`, `--search`).
pub fn solve(
    p: &Puzzle,
    lvl: Level,
    dist_args: &DistArgs,
    limits: (Option<u64>, Option<Duration>, Option<u64>),
    settings: &[(&str, String)],
    stats: bool,
    drawing: &puz::solution::Drawing,
) -> Result<Option<puz::Solution>, u8> {
    let t0 = Instant::now();
    let (model, cluster, report) = run(p, &lvl, dist_args, limits, settings, stats, Job::Solve)?;
    if cluster.process != 0 {
        // Every process ends with the run's exit code; only process 0 prints the answer.
        return match report.outcome {
            DistOutcome::Cutoff(c) => {
                say!("error: search stopped: {c}");
                Err(exit::CUTOFF)
            }
            _ => Ok(None),
        };
    }
    let (answer, exp) = dist::to_answer_with(&model, lvl.clone(), &report, &cluster, t0.elapsed())
        .map_err(failed)?;
    let mut exp = match exp {
        Some(exp) => exp,
        None => puz::engine::Expander::new(&model, lvl.clone(), &puz::Budget::default()).map_err(
            |e| {
                say!("error: {e}");
                exit::INPUT
            },
        )?,
    };
    puz::Solution::from_answer(&model, &lvl, answer, &mut exp, drawing)
        .map(Some)
        .map_err(super::solve_failed)
}

/// A distributed analysis, printed by process 0.
pub fn analyze(
    p: &Puzzle,
    lvl: Level,
    dist_args: &DistArgs,
    limits: (Option<u64>, Option<Duration>, Option<u64>),
    json: bool,
    stats: bool,
) -> Result<(), u8> {
    let (model, cluster, report) = run(p, &lvl, dist_args, limits, &[], stats, Job::Analyze)?;
    let a = match report.outcome {
        DistOutcome::Analyzed(a) => a,
        DistOutcome::Cutoff(c) => {
            say!("error: the analysis stopped: {c}");
            return Err(exit::CUTOFF);
        }
        _ => {
            output::report(&DistError::Worker(
                "an analysis ended without figures".into(),
            ));
            return Err(exit::INTERNAL);
        }
    };
    if cluster.process != 0 {
        return Ok(());
    }
    let exp =
        puz::engine::Expander::new(&model, lvl, &puz::search::Budget::default()).map_err(|e| {
            say!("error: {e}");
            exit::INPUT
        })?;
    let board = puz::io::render::render(&exp, &a.farthest, p.form());
    emit(&analysis_output(&a, &board, &cluster, json, "moves"))
}

/// A distributed analysis as process 0 prints it, the farthest state drawn as `board`;
/// `unit` is what a move is called (`moves`, `inputs`).
pub(super) fn analysis_output(
    a: &puz::dist::DistAnalysis,
    board: &str,
    cluster: &Cluster,
    json: bool,
    unit: &str,
) -> String {
    if json {
        let mut v = serde_json::to_value(a).unwrap_or_default();
        v["farthest"] = board.into();
        v["processes"] = cluster.processes.into();
        v["workers"] = cluster.workers.into();
        return serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    }
    let mut o = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        o,
        "reachable states: {} ({})",
        a.reachable_states,
        quantity(a.goal_states, "goal states")
    );
    match a.optimal_moves {
        Some(m) => {
            let _ = writeln!(o, "fewest {unit} to a goal: {m}");
        }
        None => {
            let _ = writeln!(o, "no goal is reachable");
        }
    }
    let _ = writeln!(
        o,
        "farthest reachable state: {}",
        quantity(a.farthest_distance as u64, unit)
    );
    o.push_str(board);
    let layers: Vec<String> = a.states_at_distance.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(o, "states at each distance: {}", layers.join(" "));
    let _ = writeln!(
        o,
        "(distributed: {} x {}; dead states, components and solution counts need the whole graph in one process)",
        quantity(cluster.processes as u64, "processes"),
        quantity(cluster.workers as u64, "workers")
    );
    o
}
