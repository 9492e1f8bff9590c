//! Exact breadth-first search across threads and processes, on timely-dataflow: the
//! run's public face ([`run`], its options, report and errors, [`to_answer`]) and the
//! start of its workers. One job per file:
//!
//! | file | job |
//! |---|---|
//! | `layers.rs` | the layer loop of a search by layers, and why its answer is the tie rule's |
//! | `buckets.rs` | the search bucket by bucket, for a solve under a cost vector |
//! | `worker.rs` | what both searches' workers share: stop flags, a caught expansion, following parent links back |
//! | `rounds.rs` | one worker's end of the rounds of data exchanged over timely |
//! | `wire.rs` | the little-endian records batches and checkpoints are made of |
//! | `checkpoint.rs` | checkpoints of completed layers, and the run's identity |
//! | `agree.rs`, `net.rs` | the settings every process must agree on; the handshake and sockets |
//! | `digest.rs` | the stable hash (XXH64) every cross-process and persisted digest uses |
//! | `puzzlescript.rs` | a PuzzleScript level as a [`Problem`], its answer told as one process tells it |
//! | `threads.rs` | an analysis in one process's threads, sharing memory: no exchange, no keys |
//!
//! The search by layers runs on any [`Problem`]: rules and a level from which every
//! worker builds its own [`Space`] (a `.puz` level's interpreter, [`Rules`], or a
//! PuzzleScript level's `PsSpace`). A solve of `.puz` rules is searched by layers when
//! every move costs one unit (breadth-first order is then cost order); under a cost
//! vector it goes bucket by bucket (`buckets`, on the interpreter only). An analysis
//! counts moves, so it always goes by layers.

pub mod agree;
mod buckets;
pub mod checkpoint;
pub mod digest;
mod layers;
pub mod net;
pub mod puzzlescript;
mod rounds;
mod threads;
mod wire;
mod worker;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::compile::{Action, Model};
use crate::engine::budget::{Budget, Cutoff};
use crate::engine::store::hash_words;
use crate::engine::{Expander, Level, Successors};
use crate::search::Space;

use layers::worker_main;
pub(crate) use layers::Shard;
pub use net::Cluster;
use rounds::Rounds;
pub(crate) use wire::{Batch, Reader};
use worker::{
    broken, cutoff_of, expand, unlinked, walk_back, STOP_BROKEN, STOP_MEMORY, STOP_STATES,
    STOP_TIME, STREAM_BYTES, STREAM_MIN,
};

/// Why a distributed run could not give an answer.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum DistError {
    /// The hosts file is malformed or does not match `--processes`.
    #[error("{0}")]
    #[diagnostic(
        code(puz::dist::hosts),
        help("a hosts file has one `host:port` per line, one line per process, in process order")
    )]
    Hosts(String),
    /// The processes could not connect.
    #[error("{0}")]
    #[diagnostic(
        code(puz::dist::network),
        help("start every process with the same --processes, --workers and --hosts, each with its own --process")
    )]
    Network(String),
    /// The processes were started with other rules, level, command or options.
    #[error("{0}")]
    #[diagnostic(
        code(puz::dist::mismatch),
        help("start every process with the same rule file, level, command and options (--max-states, --timeout, --max-memory, --engine, --search, --checkpoint or --resume, --processes, --workers) and the same puz; only --process differs")
    )]
    Mismatch(String),
    /// A process went away mid-run.
    #[error("process {0} stopped during the run (its connection closed); the run cannot finish")]
    #[diagnostic(
        code(puz::dist::process_lost),
        help("restart every process; with --checkpoint DIR, add --resume to go on from the last complete layer")
    )]
    Lost(usize),
    /// The rules or options cannot be searched exactly across processes.
    #[error("{0}")]
    #[diagnostic(code(puz::dist::unsupported))]
    Unsupported(String),
    /// The level could not be set up.
    #[error("{0}")]
    #[diagnostic(code(puz::dist::setup))]
    Setup(String),
    /// A checkpoint could not be written or read.
    #[error("{0}")]
    #[diagnostic(
        code(puz::dist::checkpoint),
        help(
            "--resume needs an intact checkpoint of a run of the same rules, level, job and cluster shape; a damaged one cannot be resumed: start the run again"
        )
    )]
    Checkpoint(String),
    /// A worker failed for another reason (a bug).
    #[error("a worker failed: {0}")]
    #[diagnostic(code(puz::dist::worker))]
    Worker(String),
}

/// What the run computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The tie rule's shortest path to a goal.
    Solve,
    /// Whole-space figures.
    Analyze,
}

impl Job {
    fn tag(self) -> u32 {
        match self {
            Job::Solve => 1,
            Job::Analyze => 2,
        }
    }
}

/// How a distributed run is set up.
#[derive(Clone, Debug)]
pub struct DistOptions {
    /// The processes and workers.
    pub cluster: Cluster,
    /// Stop once this process stores more states.
    pub max_states: Option<usize>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when this process's resident memory passes this many bytes.
    pub max_bytes: Option<u64>,
    /// Write each completed layer here.
    pub checkpoint: Option<std::path::PathBuf>,
    /// Go on from the last complete layer in `checkpoint`.
    pub resume: bool,
    /// A solve by cost buckets writes a snapshot at most this often (layers are written
    /// every one).
    pub checkpoint_every: Duration,
    /// Bytes of successors a worker gathers for another before sending them mid-layer;
    /// `None`: 16 MiB shared among the peers (at least 256 KiB each).
    pub stream_bytes: Option<usize>,
    /// More options every process must run with, as (flag, value shown), beyond those
    /// the run checks itself (rules, level, job, budgets, checkpoints): the command
    /// line's `--engine`, `--search`, `--metric`, `--timeout`. Compared in the handshake.
    pub settings: Vec<(String, String)>,
}

/// One worker's figures for one layer.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LayerStat {
    /// The layer made (its distance from the start); with cost vectors, the bucket's
    /// number (0 for the start's).
    pub depth: u32,
    /// With cost vectors: the bucket's cost vector (empty for a breadth-first layer).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cost: Vec<u32>,
    /// The worker's global index.
    pub worker: usize,
    /// States of the layer before it that this worker expanded.
    pub expanded: u64,
    /// New states this worker stored.
    pub stored: u64,
    /// Bytes this worker sent in the layer's rounds.
    pub bytes_sent: u64,
    /// Wall time of the layer.
    pub seconds: f64,
}

/// Whole-space figures of a distributed analysis.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DistAnalysis {
    /// States reachable from the start (within the move limit).
    pub reachable_states: u64,
    /// `states_at_distance[d]`: states first reached after `d` moves.
    pub states_at_distance: Vec<u64>,
    /// Reachable states that meet the goal.
    pub goal_states: u64,
    /// Fewest moves to a goal, if any.
    pub optimal_moves: Option<u32>,
    /// Moves to the farthest reachable state.
    pub farthest_distance: u32,
    /// The farthest state that breadth-first order meets first.
    #[serde(skip)]
    pub farthest: Vec<u32>,
}

/// How the run ended.
#[derive(Clone, Debug)]
pub enum DistOutcome {
    /// The tie rule's shortest path: each action with its index among the successors of
    /// the state it is played in (several successors share an action when copies of a
    /// kind can each make it).
    Solved(Vec<(Action, u32)>),
    /// No goal can be reached (within the move limit).
    Unsolvable,
    /// Whole-space figures.
    Analyzed(DistAnalysis),
    /// A budget stopped the run.
    Cutoff(Cutoff),
}

/// What one process reports.
#[derive(Clone, Debug)]
pub struct DistReport {
    /// How the run ended (the same in every process).
    pub outcome: DistOutcome,
    /// Per layer and per worker of this process.
    pub layers: Vec<LayerStat>,
    /// States stored by this process.
    pub stored: u64,
    /// States stored by the whole run.
    pub total_stored: u64,
    /// Bytes this process's workers sent.
    pub bytes_sent: u64,
    /// The layer the run resumed after, when it did.
    pub resumed_from: Option<u32>,
    /// Bytes of one packed state.
    pub state_bytes: usize,
    /// The run went bucket by bucket (cost vectors), so `resumed_from` is a bucket.
    pub buckets: bool,
}

/// Whether `job` on `model`'s rules can be run exactly across workers. Unit costs run by layers; an analysis counts moves, so it runs by
/// layers whatever the costs; a solve with other costs runs bucket by bucket
/// (`buckets`), which does not yet honour a move limit.
pub fn supported(model: &Model, job: Job) -> Result<(), DistError> {
    if job == Job::Analyze || model.unit_costs() {
        return Ok(());
    }
    if model.limit.is_some() {
        return Err(DistError::Unsupported(
            "a distributed solve of rules with cost vectors cannot honour a move `limit` \
             yet (the cheapest path within a move limit needs a label per state and move \
             count): run it in one process"
                .into(),
        ));
    }
    Ok(())
}

/// The worker that owns state `s` among `peers`: a stable hash of its words (the same in
/// every process and every run), using bits that the visited set's own table does not.
#[inline]
pub fn owner(s: &[u32], peers: usize) -> usize {
    ((((hash_words(s) >> 16) & 0xffff_ffff) * peers as u64) >> 32) as usize
}

/// What a distributed run searches: rules and a level, from which every worker builds its
/// own [`Space`] (expanding a state uses the space's scratch, so workers never share
/// one). Every process of a run must describe the same problem: [`Problem::rules`] and
/// [`Problem::level`] are compared in the handshake and name the run's checkpoints.
pub trait Problem: Send + Sync + 'static {
    /// A worker's state space.
    type Space<'p>: Space
    where
        Self: 'p;
    /// A new space for one worker running `job`.
    fn space(&self, job: Job) -> Result<Self::Space<'_>, DistError>;
    /// The rules as a message names them (`puzzle "Klotski"`, `game "Microban"`) and a
    /// stable digest ([`digest`]) of everything the search depends on in them.
    fn rules(&self) -> (String, u64);
    /// The level as a message names it and a stable digest of its content.
    fn level(&self) -> (String, u64);
    /// The most moves a path may have (a `.puz` move `limit`), if any.
    fn limit(&self) -> Option<u32> {
        None
    }
    /// Whether testing a state against the goal costs next to nothing (a flag in the
    /// state): then a solve's worker tests each successor it makes and stops expanding
    /// the last layer at its first goal (see `layers.rs`), storing less of it.
    fn cheap_goal(&self) -> bool {
        false
    }
    /// A worker is done with its space: what it counted is kept, and what went wrong in
    /// it that the search could not see (a state it could not store) is an error.
    fn finish(&self, _space: Self::Space<'_>) -> Result<(), DistError> {
        Ok(())
    }
}

/// A level of `.puz` rules: every worker searches it with its own interpreter
/// ([`Expander`]), pruning dead positions in a solve as one process does.
pub struct Rules {
    /// The compiled rules.
    pub model: Arc<Model>,
    /// The level.
    pub level: Level,
}

impl Problem for Rules {
    type Space<'p> = Expander<'p>;

    fn space(&self, job: Job) -> Result<Expander<'_>, DistError> {
        // The level's tables are built without the time and memory budgets: a worker that
        // stopped here alone would leave the others waiting for it. The budgets are
        // checked from the first layer on, where all workers agree on stopping.
        let mut exp = Expander::new(&self.model, self.level.clone(), &Budget::default())
            .map_err(|e| DistError::Setup(e.to_string()))?;
        if job == Job::Solve {
            // As one process solves: successors that are dead positions (a box in a
            // corner off its goals) are dropped, which never changes the answer, and the
            // recorded successor indexes count the kept ones (the replay prunes alike).
            // An analysis counts every state. Refused or cut short, nothing is pruned.
            let _ = exp.prepare_pruning(&Budget::default());
        }
        Ok(exp)
    }

    fn rules(&self) -> (String, u64) {
        (
            format!("puzzle {:?}", self.model.title),
            agree::rules_digest(&self.model),
        )
    }

    fn level(&self) -> (String, u64) {
        (
            format!("{:?}", self.level.name),
            agree::level_digest(&self.level),
        )
    }

    fn limit(&self) -> Option<u32> {
        self.model.limit
    }
}

/// What the workers of one process share.
struct Shared<P> {
    problem: Arc<P>,
    job: Job,
    opts: DistOptions,
    /// A solve of `.puz` rules under a cost vector: bucket by bucket.
    buckets: bool,
    /// States stored by this process.
    stored: AtomicU64,
    /// Per-layer rows of this process's workers.
    layers: Mutex<Vec<LayerStat>>,
}

/// What one worker ends with.
struct WorkerEnd {
    outcome: DistOutcome,
    total_stored: u64,
    bytes_sent: u64,
    resumed_from: Option<u32>,
    state_bytes: usize,
}

/// Runs `job` on `level` of `.puz` rules across the cluster; every process of the run
/// calls this with the same rules, level, job and cluster shape (its own `process`).
pub fn run(
    model: Arc<Model>,
    level: Level,
    job: Job,
    opts: DistOptions,
) -> Result<DistReport, DistError> {
    supported(&model, job)?;
    let buckets = job == Job::Solve && !model.unit_costs();
    start(
        Arc::new(Rules { model, level }),
        job,
        opts,
        buckets,
        rules_worker,
    )
}

/// Runs `job` on `problem` across the cluster, by layers; every process of the run calls
/// this with the same problem, job and cluster shape (its own `process`). `problem` is
/// shared by this process's workers ([`Problem::finish`] hands it their spaces).
pub fn run_problem<P: Problem>(
    problem: Arc<P>,
    job: Job,
    opts: DistOptions,
) -> Result<DistReport, DistError> {
    start(problem, job, opts, false, worker_main::<P>)
}

/// A worker of a run of `.puz` rules: by cost buckets when `buckets`, else by layers.
fn rules_worker(
    worker: &mut timely::worker::Worker,
    sh: &Shared<Rules>,
) -> Result<WorkerEnd, DistError> {
    if !sh.buckets {
        return worker_main(worker, sh);
    }
    let mut exp = sh.problem.space(sh.job)?;
    let budget = Budget {
        deadline: sh.opts.deadline,
        max_bytes: sh.opts.max_bytes,
        ..Budget::default()
    };
    let mut net = Rounds::new(worker);
    let end = buckets::solve(&mut net, sh, &mut exp, &budget)?;
    Ok(WorkerEnd {
        outcome: end.outcome,
        total_stored: end.total_stored,
        bytes_sent: net.sent,
        resumed_from: end.resumed_from,
        state_bytes: exp.words() * 4,
    })
}

/// The worker's part of a run.
type WorkerFn<P> = fn(&mut timely::worker::Worker, &Shared<P>) -> Result<WorkerEnd, DistError>;

/// Starts this process's workers on `problem`, each running `work`, and gathers their
/// ends into the process's report.
fn start<P: Problem>(
    problem: Arc<P>,
    job: Job,
    opts: DistOptions,
    buckets: bool,
    work: WorkerFn<P>,
) -> Result<DistReport, DistError> {
    let c = opts.cluster.clone();
    if c.workers == 0 || c.processes == 0 || c.process >= c.processes {
        return Err(DistError::Hosts(format!(
            "process {} of {} with {} workers is not a valid place in a run",
            c.process, c.processes, c.workers
        )));
    }
    if c.hosts.len() != c.processes {
        return Err(DistError::Hosts(format!(
            "{} hosts for {} processes; give one `host:port` per process",
            c.hosts.len(),
            c.processes
        )));
    }
    let shared = Arc::new(Shared {
        problem,
        job,
        opts,
        buckets,
        stored: AtomicU64::new(0),
        layers: Mutex::new(vec![]),
    });
    // An analysis in one process needs no exchange: its threads share the visited set
    // (checkpoints are written by the search by rounds).
    if c.processes == 1 && job == Job::Analyze && !buckets && shared.opts.checkpoint.is_none() {
        return threads::analyze(&shared);
    }
    net::watch_peers();
    let (builders, others) = if c.processes == 1 {
        timely::CommunicationConfig::Process(c.workers)
            .try_build()
            .map_err(DistError::Network)?
    } else {
        use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
        use timely::communication::allocator::ProcessBuilder;
        let agreement = agree::Agreement::of(&*shared.problem, job, &shared.opts);
        let sockets = net::connect(&c, &agreement)?;
        let hooks = timely::communication::Hooks::default();
        let process = ProcessBuilder::new_typed_vector(c.workers, hooks.refill.clone(), None);
        let (tcp, guard) =
            initialize_networking_from_sockets(process, sockets, c.process, c.workers, hooks)
                .map_err(|e| DistError::Network(format!("setting up the exchange: {e}")))?;
        (
            tcp.into_iter()
                .map(timely::communication::AllocatorBuilder::Tcp)
                .collect(),
            Box::new(guard) as Box<dyn std::any::Any + Send>,
        )
    };
    let sh = shared.clone();
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| work(worker, &sh),
    )
    .map_err(DistError::Network)?;
    // Joining also drops timely's network guard, which panics when a peer's connection
    // broke: caught here, and reported as the lost peer.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()));
    let joined = match joined {
        Ok(j) => j,
        Err(_) => {
            return Err(match net::lost_peer() {
                Some(k) => DistError::Lost(k),
                None => DistError::Worker("the exchange between workers failed".into()),
            })
        }
    };
    let mut ends = vec![];
    for r in joined {
        match r {
            Ok(Ok(end)) => ends.push(end),
            Ok(Err(e)) => return Err(e),
            Err(panic) => {
                return Err(match net::lost_peer() {
                    Some(k) => DistError::Lost(k),
                    None => DistError::Worker(panic),
                })
            }
        }
    }
    if let Some(k) = net::lost_peer() {
        return Err(DistError::Lost(k));
    }
    let first = ends
        .first()
        .ok_or_else(|| DistError::Worker("no worker ran".into()))?;
    let mut layers = std::mem::take(&mut *shared.layers.lock().unwrap_or_else(|p| p.into_inner()));
    layers.sort_by_key(|l| (l.depth, l.worker));
    Ok(DistReport {
        outcome: first.outcome.clone(),
        layers,
        stored: shared.stored.load(Ordering::Relaxed),
        total_stored: first.total_stored,
        bytes_sent: ends.iter().map(|e| e.bytes_sent).sum(),
        resumed_from: first.resumed_from,
        state_bytes: first.state_bytes,
        buckets: shared.buckets,
    })
}

/// A distributed solve's report as the single-process [`crate::solver::Answer`]: the
/// path is replayed through the interpreter (every state rebuilt, every move checked), so
/// the CLI prints it as it prints any answer.
pub fn to_answer(
    model: &Model,
    level: Level,
    report: &DistReport,
    cluster: &Cluster,
    elapsed: Duration,
) -> Result<crate::solver::Answer, DistError> {
    to_answer_with(model, level, report, cluster, elapsed).map(|(answer, _)| answer)
}

/// [`to_answer`], also returning the interpreter that rebuilt the path (when there is
/// one), to check it and tell it in full (`Solution::from_answer`).
pub fn to_answer_with<'m>(
    model: &'m Model,
    level: Level,
    report: &DistReport,
    cluster: &Cluster,
    elapsed: Duration,
) -> Result<(crate::solver::Answer, Option<Expander<'m>>), DistError> {
    use crate::search::{Outcome, Path};
    let mut rebuilt = None;
    let outcome = match &report.outcome {
        DistOutcome::Solved(steps) => {
            let mut exp = Expander::new(model, level, &Budget::default())
                .map_err(|e| DistError::Setup(e.to_string()))?;
            // The workers' successor lists, pruned alike (see `worker_main`).
            let _ = exp.prepare_pruning(&Budget::default());
            // Rebuild every state: the successor at the recorded index, which must be
            // made by the recorded action.
            let mut states = vec![exp.start()];
            let mut succ = Successors::default();
            for (k, &(a, i)) in steps.iter().enumerate() {
                Space::successors(
                    &mut exp,
                    states.last().expect("the start is there"),
                    &mut succ,
                );
                if succ.actions.get(i as usize) != Some(&a) {
                    let what = format!(
                        "the path found does not replay: move {} is not a move",
                        k + 1
                    );
                    // After a resume, the parent links came from the files.
                    return Err(if report.resumed_from.is_some() {
                        checkpoint::err(format!(
                            "{what}; the checkpoint resumed from is damaged or not of these \
                             rules and level"
                        ))
                    } else {
                        DistError::Worker(what)
                    });
                }
                states.push(succ.state(i as usize, exp.words()).to_vec());
            }
            rebuilt = Some(exp);
            Outcome::Solved(Path {
                actions: steps.iter().map(|&(a, _)| a).collect(),
                states,
            })
        }
        DistOutcome::Unsolvable => Outcome::Unsolvable,
        DistOutcome::Cutoff(c) => Outcome::Cutoff(*c),
        DistOutcome::Analyzed(_) => {
            return Err(DistError::Worker("an analysis is not an answer".into()));
        }
    };
    let stats = crate::engine::budget::Stats {
        expanded: report.layers.iter().map(|l| l.expanded).sum(),
        stored: report.total_stored,
        elapsed,
        ..Default::default()
    };
    let answer = crate::solver::Answer {
        outcome,
        stats,
        engine: "interpreter",
        engine_reason: format!(
            "distributed: {} process(es) x {} worker(s)",
            cluster.processes, cluster.workers
        ),
        // The search that ran: breadth-first by layers, or Dijkstra by cost buckets,
        // across the workers (so a "no solution" line names it).
        search: if report.buckets {
            "distributed dijkstra"
        } else {
            "distributed bfs"
        },
        counted: None,
    };
    Ok((answer, rebuilt))
}
