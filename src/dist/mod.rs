//! Exact breadth-first search across threads and processes, on timely-dataflow.
//!
//! # The layer loop
//! Every worker (a thread; `workers x processes` in all) owns the states whose stable hash
//! ([`owner`]) names it: its shard of the visited set and of the parent links. The search
//! runs layer by layer, all workers in step; each exchange of data is one *round*: every
//! worker sends its batches, addressed by worker, into one timely input at the round's
//! epoch, then steps the dataflow until its probe has passed that epoch, so every batch
//! of the round has arrived everywhere (timely's progress tracking is the barrier).
//!
//! One layer `d -> d+1` takes four rounds:
//! 1. *expand*: each worker expands its states of layer `d` and sends every successor to
//!    its owner, with its *key*: the parent's rank in layer `d` and the action;
//! 2. *rank requests*: each owner keeps, per successor not seen before, the smallest key
//!    (the parent that comes first in path order), stores the new states, and sends each
//!    key to the worker that ranks that part of the key space (layer `d`'s ranks cut into
//!    one contiguous range per worker);
//! 3. *counts*: every worker tells all the others how many keys it ranks, how many new
//!    states and goals it stored, and whether a budget stopped it; all decide the same;
//! 4. *ranks*: each ranking worker sorts its keys and answers each with its rank in layer
//!    `d+1`: the keys ranked by lower workers, plus its place among its own.
//!
//! A worker alone (one process, one worker) skips the rounds: it meets the new states in
//! rank order, so a new state's first key is its smallest and its rank is its place in
//! the store (see below).
//!
//! # Why the answer is the tie rule's
//! Breadth-first search on one thread expands layer `d` in queue order and meets each new
//! state first from its smallest (parent position, action) pair; so the queue order of
//! layer `d+1` is the order of those pairs, and the first goal met is the goal whose pair
//! is smallest. By induction on `d`, the ranks computed here are exactly the queue
//! positions: a state's rank is the number of new states whose smallest key is below its
//! own, and keys are unique (a parent and an action make one successor). So the goal
//! chosen (the goal of least rank in the first layer that has one) and the parent links
//! (each the smallest key) give the single-thread path, action for action. Analysis
//! figures (states per layer, goals, the farthest state: rank 0 of the last layer) are
//! the single-thread ones by the same argument.
//!
//! A solve is searched this way when every move costs one unit (breadth-first order is
//! then cost order); under a cost vector it goes bucket by bucket (`buckets`). An
//! analysis counts moves, so it always goes by layers.

pub mod agree;
mod buckets;
pub mod checkpoint;
pub mod digest;
pub mod net;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use timely::container::{ContainerBuilder, LengthPreservingContainerBuilder, PushInto};
use timely::dataflow::channels::pact::ExchangeCore;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use crate::compile::{Action, Model};
use crate::engine::budget::{Budget, Cutoff, Pacer};
use crate::engine::store::hash_words;
use crate::engine::StateStore;
use crate::engine::{Expander, Level, Successors};
use crate::search::Space;

pub use net::Cluster;

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

/// What the workers of one process share.
struct Shared {
    model: Arc<Model>,
    level: Level,
    job: Job,
    opts: DistOptions,
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

/// Runs `job` on `level` across the cluster; every process of the run calls this with the
/// same rules, level, job and cluster shape (its own `process`).
pub fn run(
    model: Arc<Model>,
    level: Level,
    job: Job,
    opts: DistOptions,
) -> Result<DistReport, DistError> {
    supported(&model, job)?;
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
        model,
        level,
        job,
        opts,
        stored: AtomicU64::new(0),
        layers: Mutex::new(vec![]),
    });
    net::watch_peers();
    let (builders, others) = if c.processes == 1 {
        timely::CommunicationConfig::Process(c.workers)
            .try_build()
            .map_err(DistError::Network)?
    } else {
        use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
        use timely::communication::allocator::ProcessBuilder;
        let agreement = agree::Agreement::of(&shared.model, &shared.level, job, &shared.opts);
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
        move |worker| worker_main(worker, &sh),
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
        buckets: job == Job::Solve && !shared.model.unit_costs(),
    })
}

/// Little-endian records in a byte batch.
#[derive(Default)]
pub(crate) struct Batch(pub(crate) Vec<u8>);

impl Batch {
    #[inline]
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn words(&mut self, s: &[u32]) {
        for &w in s {
            self.u32(w);
        }
    }
}

/// Reads a [`Batch`] back. A read past the end gives 0 and moves on, never panics:
/// whoever reads bytes from outside (a checkpoint) checks [`Reader::overran`] after.
pub(crate) struct Reader<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) at: usize,
}

impl Reader<'_> {
    #[inline]
    pub(crate) fn more(&self) -> bool {
        self.at < self.b.len()
    }
    /// Whether a read went past the end.
    #[inline]
    pub(crate) fn overran(&self) -> bool {
        self.at > self.b.len()
    }
    #[inline]
    pub(crate) fn u32(&mut self) -> u32 {
        let v = self
            .b
            .get(self.at..self.at.saturating_add(4))
            .map_or(0, |w| u32::from_le_bytes(w.try_into().unwrap_or_default()));
        self.at = self.at.saturating_add(4);
        v
    }
    #[inline]
    pub(crate) fn u64(&mut self) -> u64 {
        let v = self
            .b
            .get(self.at..self.at.saturating_add(8))
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or_default()));
        self.at = self.at.saturating_add(8);
        v
    }
    #[inline]
    pub(crate) fn words(&mut self, out: &mut [u32]) {
        for w in out {
            *w = self.u32();
        }
    }
}

/// A batch in flight: the worker it goes to, and its bytes.
type Message = (u64, Vec<u8>);

/// A container builder that ships every element alone. Timely's exchange gathers 8 KiB
/// worth of elements per destination before shipping them (256 of our batches, each up
/// to megabytes, until the round ends); a batch is already large, so it goes at once.
struct OneEach<T> {
    ready: std::collections::VecDeque<Vec<T>>,
    out: Vec<T>,
}

impl<T> Default for OneEach<T> {
    fn default() -> Self {
        OneEach {
            ready: Default::default(),
            out: vec![],
        }
    }
}

impl<T> PushInto<T> for OneEach<T> {
    fn push_into(&mut self, item: T) {
        self.ready.push_back(vec![item]);
    }
}

impl<T: Clone + 'static> ContainerBuilder for OneEach<T> {
    type Container = Vec<T>;

    fn extract(&mut self) -> Option<&mut Vec<T>> {
        self.out = self.ready.pop_front()?;
        Some(&mut self.out)
    }

    fn finish(&mut self) -> Option<&mut Vec<T>> {
        self.extract()
    }
}

impl<T: Clone + 'static> LengthPreservingContainerBuilder for OneEach<T> {}

/// Batches received, with the round (epoch) they were sent in.
type Inbox = Rc<RefCell<Vec<Message>>>;

/// One worker's end of the rounds.
struct Rounds<'w> {
    worker: &'w mut timely::worker::Worker,
    input: InputHandle<u64, timely::container::CapacityContainerBuilder<Vec<Message>>>,
    probe: ProbeHandle<u64>,
    inbox: Inbox,
    epoch: u64,
    me: usize,
    peers: usize,
    /// Bytes sent by this worker so far.
    sent: u64,
}

impl<'w> Rounds<'w> {
    fn new(worker: &'w mut timely::worker::Worker) -> Rounds<'w> {
        let inbox: Inbox = Rc::default();
        let sink = inbox.clone();
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    ExchangeCore::<OneEach<Message>, _>::new_core(|x: &(u64, Vec<u8>)| x.0),
                    "Inbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = cap.least().copied().unwrap_or(u64::MAX);
                                let mut inbox = sink.borrow_mut();
                                for (_, b) in data.drain(..) {
                                    inbox.push((t, b));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        let (me, peers) = (worker.index(), worker.peers());
        Rounds {
            worker,
            input,
            probe,
            inbox,
            epoch: 0,
            me,
            peers,
            sent: 0,
        }
    }

    /// Sends `b` to worker `w` now, within the current round, and empties it: a long
    /// round streams its batches instead of holding a whole layer's in memory.
    fn send_now(&mut self, w: usize, b: &mut Batch) {
        if b.0.is_empty() {
            return;
        }
        let mut msg = Vec::with_capacity(b.0.len() + 4);
        msg.extend_from_slice(&(self.me as u32).to_le_bytes());
        msg.extend_from_slice(&b.0);
        b.0.clear();
        self.sent += msg.len() as u64;
        self.input.send((w as u64, msg));
        // Hand what was sent to timely now, so it travels while this worker goes on.
        self.input.flush();
    }

    /// The batches of the current round received so far, with their senders.
    fn poll(&mut self) -> Vec<(usize, Vec<u8>)> {
        self.worker.step();
        self.take(self.epoch)
    }

    /// The batches of `round` in the inbox, with their senders.
    fn take(&mut self, round: u64) -> Vec<(usize, Vec<u8>)> {
        let mut inbox = self.inbox.borrow_mut();
        let mut got = vec![];
        inbox.retain_mut(|(t, b)| {
            if *t == round {
                let sender = u32::from_le_bytes(b[..4].try_into().unwrap_or_default()) as usize;
                got.push((sender, b.split_off(4)));
                false
            } else {
                true
            }
        });
        got
    }

    /// Ends a round: `out[w]` goes to worker `w` (each batch starts with the sender's
    /// index, added here); returns the batches received and not yet polled, with their
    /// senders.
    fn exchange(&mut self, out: Vec<Batch>) -> Vec<(usize, Vec<u8>)> {
        if self.peers == 1 {
            // A worker alone: what it would send itself is what it receives, with no
            // round through the dataflow (thousands of layers would pay one each).
            return out
                .into_iter()
                .filter(|b| !b.0.is_empty())
                .map(|b| (0, b.0))
                .collect();
        }
        for (w, mut b) in out.into_iter().enumerate() {
            self.send_now(w, &mut b);
        }
        let round = self.epoch;
        self.epoch += 1;
        self.input.advance_to(self.epoch);
        // Spin first: a round of a small layer ends in microseconds, and a search of
        // thousands of layers would wait out a park in each. Then park, so a worker
        // waiting on a slower peer leaves the core to others.
        let mut spins = 0u32;
        while self.probe.less_than(self.input.time()) {
            if spins < 2000 {
                self.worker.step();
                spins += 1;
                if spins.is_multiple_of(64) {
                    std::thread::yield_now();
                }
            } else {
                self.worker.step_or_park(Some(Duration::from_millis(1)));
            }
        }
        self.take(round)
    }

    /// Every worker sends `mine` to all; returns what each sent, by sender.
    fn all_gather(&mut self, mine: &Batch) -> Vec<Vec<u8>> {
        // An empty message would not be sent: mark each with one byte.
        let out = (0..self.peers)
            .map(|_| {
                let mut b = Batch(vec![1]);
                b.0.extend_from_slice(&mine.0);
                b
            })
            .collect();
        let mut by = vec![vec![]; self.peers];
        for (w, mut b) in self.exchange(out) {
            b.remove(0);
            by[w] = b;
        }
        by
    }

    /// What this worker read from checkpoint `dir`, once every worker has read its
    /// part: if any could not, every worker fails (one that stopped alone would leave
    /// the others waiting for it).
    fn all_read<T>(
        &mut self,
        got: Result<T, DistError>,
        dir: &std::path::Path,
    ) -> Result<T, DistError> {
        self.all_ok(got, &format!("read its part of {}", dir.display()))
    }

    /// Checks, after a resume, that every worker read a part of the same run: the
    /// digests of what all workers must hold alike (the run's figures) are equal and,
    /// when `totals` are given, the workers' `parts` (states in each layer) add up to
    /// them, layer by layer. Every worker ends with the same verdict.
    fn all_consistent(
        &mut self,
        alike: u64,
        parts: &[u64],
        totals: Option<&[u64]>,
        dir: &std::path::Path,
    ) -> Result<(), DistError> {
        let mut mine = Batch::default();
        mine.u64(alike);
        mine.u64(parts.len() as u64);
        for &p in parts {
            mine.u64(p);
        }
        let all = self.all_gather(&mine);
        let mut sums = vec![0u64; parts.len()];
        for (w, b) in all.iter().enumerate() {
            let mut r = Reader { b, at: 0 };
            let (a, n) = (r.u64(), r.u64());
            if a == alike && n == parts.len() as u64 {
                for s in &mut sums {
                    *s = s.saturating_add(r.u64());
                }
            }
            if a != alike || n != parts.len() as u64 || r.overran() {
                return Err(checkpoint::err(format!(
                    "the parts of {} that workers {} and {w} read disagree: the checkpoint \
                     is damaged or mixes runs",
                    dir.display(),
                    self.me
                )));
            }
        }
        if totals.is_some_and(|t| t != &sums[..]) {
            return Err(checkpoint::err(format!(
                "the parts of {} do not add up to the layer they say they hold: the \
                 checkpoint is damaged or mixes runs",
                dir.display()
            )));
        }
        Ok(())
    }

    /// `got` once every worker has its own: if any failed (a checkpoint it could not
    /// read or write), every worker fails, the others naming it (`worker W could not
    /// {what}`).
    fn all_ok<T>(&mut self, got: Result<T, DistError>, what: &str) -> Result<T, DistError> {
        let mut mine = Batch::default();
        mine.u32(got.is_err() as u32);
        let failed = self
            .all_gather(&mine)
            .iter()
            .position(|b| Reader { b, at: 0 }.u32() == 1);
        match (got, failed) {
            (Err(e), _) => Err(e),
            (Ok(_), Some(w)) => Err(checkpoint::err(format!("worker {w} could not {what}"))),
            (Ok(v), None) => Ok(v),
        }
    }

    fn empty(&self) -> Vec<Batch> {
        (0..self.peers).map(|_| Batch::default()).collect()
    }
}

/// Bits of the stop flags of round 3, most urgent first.
const STOP_STATES: u32 = 1;
const STOP_TIME: u32 = 2;
const STOP_MEMORY: u32 = 4;
/// A state could not be expanded: the expander panicked on it (caught, so that every
/// worker stops alike instead of the others waiting for the one that failed).
const STOP_BROKEN: u32 = 8;

/// Expands `s` into `succ`; `false` when the expander panicked on it.
fn expand(exp: &mut Expander, s: &[u32], succ: &mut Successors) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Space::successors(exp, s, succ)
    }))
    .is_ok()
}

/// The error of a run whose workers agreed a state could not be expanded: after a
/// resume, the checkpoint's states are not of these rules and level; otherwise a bug.
fn broken(opts: &DistOptions) -> DistError {
    match (&opts.checkpoint, opts.resume) {
        (Some(dir), true) => checkpoint::err(format!(
            "a state read back from {} cannot be expanded: the checkpoint is damaged or not \
             of these rules and level",
            dir.display()
        )),
        _ => DistError::Worker("the expander failed on a state".into()),
    }
}

/// The budget that stopped a run, from the stop flags all workers agreed on.
fn cutoff_of(flags: u32, opts: &DistOptions) -> Cutoff {
    if flags & STOP_STATES != 0 {
        Cutoff::States(opts.max_states.unwrap_or(0))
    } else if flags & STOP_MEMORY != 0 {
        Cutoff::Memory(opts.max_bytes.unwrap_or(0))
    } else {
        Cutoff::Time
    }
}

/// One worker's part of the visited set and its parent links, with the layer being
/// expanded: what a checkpoint holds.
pub(crate) struct Shard {
    /// State words.
    pub(crate) words: usize,
    /// The states this worker owns, ids in insertion order (layer by layer).
    pub(crate) store: StateStore,
    /// Per id: parent's worker, parent's id, action, index among the parent's
    /// successors (`u32::MAX` at the start); empty in analysis runs.
    pub(crate) parent: Vec<[u32; 4]>,
    /// The first id of each layer, and one past the last (so `layer_start.len()` is the
    /// number of layers + 1).
    pub(crate) layer_start: Vec<u32>,
    /// Ranks of the last layer's states, by id - its first id.
    pub(crate) ranks: Vec<u64>,
    /// States per layer, the whole run's.
    pub(crate) counts: Vec<u64>,
    /// Goals met so far, the whole run's.
    pub(crate) goal_states: u64,
    /// The first layer with a goal.
    pub(crate) optimal: Option<u32>,
}

impl Shard {
    fn layer(&self) -> std::ops::Range<u32> {
        let n = self.layer_start.len();
        self.layer_start[n - 2]..self.layer_start[n - 1]
    }
}

/// A new state's key and where it came from: (parent's rank, successor's index, action,
/// sender, parent's id); states compare by the first two.
type Key = (u64, u32, u32, u32, u32);

/// The states a worker stores in one layer: from id `first` on, each with its smallest
/// key so far, and those that meet the goal.
struct Fresh {
    first: u32,
    best: Vec<Key>,
    goals: Vec<u32>,
}

/// Offers a successor to its owner's store: a state stored before this layer (id below
/// `first`) is dropped; a new one is stored, and tested against the goal now, while the
/// tables its successor computation read are still in cache; one met again this layer
/// keeps the smaller key.
#[inline]
fn offer(store: &mut StateStore, fresh: &mut Fresh, exp: &Expander, s: &[u32], key: Key) {
    let (first, best) = (fresh.first, &mut fresh.best);
    match store.insert(s) {
        Ok(id) => {
            best.push(key);
            if exp.is_goal(s) {
                fresh.goals.push(id);
            }
        }
        Err(id) if id >= first => {
            let k = &mut best[(id - first) as usize];
            if (key.0, key.1) < (k.0, k.1) {
                *k = key;
            }
        }
        Err(_) => {}
    }
}

/// Bytes of successors a worker gathers for all others before sending a batch mid-round
/// (each batch at least [`STREAM_MIN`]): smaller batches cost more per byte in timely.
const STREAM_BYTES: usize = 16 << 20;
const STREAM_MIN: usize = 256 << 10;

/// Offers the successors of a received batch (see [`offer`]).
fn take_in(
    shard: &mut Shard,
    fresh: &mut Fresh,
    exp: &Expander,
    cur: &mut [u32],
    sender: usize,
    b: &[u8],
) {
    let mut r = Reader { b, at: 0 };
    while r.more() {
        r.words(cur);
        let (rank, idx, act, pid) = (r.u64(), r.u32(), r.u32(), r.u32());
        offer(
            &mut shard.store,
            fresh,
            exp,
            cur,
            (rank, idx, act, sender as u32, pid),
        );
    }
}

fn worker_main(worker: &mut timely::worker::Worker, sh: &Shared) -> Result<WorkerEnd, DistError> {
    let model: &Model = &sh.model;
    // The level's tables are built without the time and memory budgets: a worker that
    // stopped here alone would leave the others waiting for it. The budgets are checked
    // from the first layer on, where all workers agree on stopping.
    let mut exp = Expander::new(model, sh.level.clone(), &Budget::default())
        .map_err(|e| DistError::Setup(e.to_string()))?;
    let budget = Budget {
        deadline: sh.opts.deadline,
        max_bytes: sh.opts.max_bytes,
        ..Budget::default()
    };
    let mut net = Rounds::new(worker);
    let (me, peers) = (net.me, net.peers);
    let words = exp.words();
    let start = exp.start();
    let solve = sh.job == Job::Solve;
    if solve {
        // As one process solves: successors that are dead positions (a box in a corner
        // off its goals) are dropped, which never changes the answer, and the recorded
        // successor indexes count the kept ones (the replay prunes alike). An analysis
        // counts every state. Refused or cut short, nothing is pruned.
        let _ = exp.prepare_pruning(&Budget::default());
    }
    if solve && !model.unit_costs() {
        let end = buckets::solve(&mut net, sh, &mut exp, &budget)?;
        return Ok(WorkerEnd {
            outcome: end.outcome,
            total_stored: end.total_stored,
            bytes_sent: net.sent,
            resumed_from: end.resumed_from,
            state_bytes: words * 4,
        });
    }
    // The run's identity costs a pass over the rules and level: only checkpoints need it.
    let id = match sh.opts.checkpoint {
        Some(_) => checkpoint::RunId::new(model, &sh.level, sh.job, &sh.opts.cluster),
        None => checkpoint::RunId::default(),
    };

    let mut resumed_from = None;
    let mut sh_ = match (&sh.opts.checkpoint, sh.opts.resume) {
        (Some(dir), true) => {
            // A state that passed every check and still breaks the expander is
            // reported as the checkpoint's fault, without a panic message.
            net::quiet_panics();
            let radix = exp.radix();
            let want = checkpoint::Expect {
                radix: &radix,
                start: &start,
                solve,
            };
            let shard = net.all_read(checkpoint::load(dir, &id, me, &want), dir)?;
            let mut alike = Batch::default();
            for &c in &shard.counts {
                alike.u64(c);
            }
            alike.u64(shard.goal_states);
            alike.u32(shard.optimal.unwrap_or(u32::MAX));
            let parts: Vec<u64> = shard
                .layer_start
                .windows(2)
                .map(|w| (w[1] - w[0]) as u64)
                .collect();
            net.all_consistent(digest::digest(&alike.0), &parts, Some(&shard.counts), dir)?;
            resumed_from = Some(shard.counts.len() as u32 - 1);
            shard
        }
        _ => {
            let mut store = StateStore::sequential(&exp.radix());
            let mut parent = vec![];
            let mut ranks = vec![];
            let mine = owner(&start, peers) == me;
            if mine {
                let _ = store.insert(&start);
                if solve {
                    parent.push([u32::MAX; 4]);
                }
                ranks.push(0);
            }
            let goal = exp.is_goal(&start);
            Shard {
                words,
                store,
                parent,
                layer_start: vec![0, mine as u32],
                ranks,
                counts: vec![1],
                goal_states: goal as u64,
                optimal: goal.then_some(0),
            }
        }
    };
    let shard = &mut sh_;
    sh.stored
        .fetch_add(shard.store.len() as u64, Ordering::Relaxed);
    if let (Some(dir), false) = (&sh.opts.checkpoint, sh.opts.resume) {
        // Layer 0 too: a resumed run rebuilds every layer from its files.
        net.all_ok(
            checkpoint::save(dir, &id, me, shard),
            "write its checkpoint",
        )?;
        if me == 0 {
            checkpoint::complete(dir, &id, 0)?;
        }
    }
    let mut total_stored: u64 = shard.counts.iter().sum();

    // The start is a goal: the empty path.
    if solve && shard.optimal == Some(0) {
        return Ok(WorkerEnd {
            outcome: DistOutcome::Solved(vec![]),
            total_stored,
            bytes_sent: net.sent,
            resumed_from,
            state_bytes: words * 4,
        });
    }
    let mut cur = vec![0u32; words];
    let mut scratch = vec![0u32; words];
    let stream = sh
        .opts
        .stream_bytes
        .unwrap_or((STREAM_BYTES / peers).max(STREAM_MIN));
    let mut succ = Successors::default();
    let mut pacer = Pacer::default();
    let outcome = loop {
        let depth = shard.counts.len() as u32 - 1;
        let prev_n = *shard.counts.last().unwrap_or(&0);
        if prev_n == 0 || model.limit.is_some_and(|l| depth >= l) {
            break finish_layers(&mut net, shard, solve, &exp);
        }
        let t0 = Instant::now();
        let sent0 = net.sent;
        // Round 1: expand the last layer; send each successor to its owner. New states
        // go straight into the store (ids from `first` on), each with its smallest key
        // so far in `best`: (parent's rank, successor's index, action, sender, parent's
        // id); the key is the first two (a parent's successors are listed in action
        // order, several for one action when copies of a kind can each make it). A
        // successor this worker owns is offered here without travelling.
        let mut out = net.empty();
        let mut stop = 0u32;
        let layer = shard.layer();
        let first = shard.store.len() as u32;
        let mut fresh = Fresh {
            first,
            best: vec![],
            goals: vec![],
        };
        let mut expanded = 0u64;
        for lid in layer.clone() {
            shard.store.load(lid, &mut cur);
            let rank = shard.ranks[(lid - layer.start) as usize];
            if !expand(&mut exp, &cur, &mut succ) {
                stop |= STOP_BROKEN;
                break;
            }
            expanded += 1;
            for i in 0..succ.len() {
                let s = succ.state(i, words);
                let act = succ.actions[i].raw();
                if peers == 1 {
                    // A worker alone meets every new state first from its smallest key
                    // (see the ranks below): its parent link is final at once.
                    if let Ok(id) = shard.store.insert(s) {
                        if solve {
                            shard.parent.push([0, lid, act, i as u32]);
                        }
                        if exp.is_goal(s) {
                            fresh.goals.push(id);
                        }
                    }
                    continue;
                }
                let to = owner(s, peers);
                if to == me {
                    offer(
                        &mut shard.store,
                        &mut fresh,
                        &exp,
                        s,
                        (rank, i as u32, act, me as u32, lid),
                    );
                    continue;
                }
                let b = &mut out[to];
                b.words(s);
                b.u64(rank);
                b.u32(i as u32);
                b.u32(act);
                b.u32(lid);
                if b.0.len() >= stream {
                    net.send_now(to, &mut out[to]);
                    for (sender, b) in net.poll() {
                        take_in(shard, &mut fresh, &exp, &mut scratch, sender, &b);
                    }
                }
            }
            if let Err(c) = pacer.tick(succ.units().max(1), &budget) {
                stop |= match c {
                    Cutoff::Memory(_) => STOP_MEMORY,
                    _ => STOP_TIME,
                };
                break;
            }
        }
        for (sender, b) in net.exchange(out) {
            take_in(shard, &mut fresh, &exp, &mut cur, sender, &b);
        }
        let Fresh { best, goals, .. } = fresh;
        let mut requests = net.empty();
        let mut keys: Vec<(u64, u32, u32, u32)> = vec![]; // (rank, index, sender, lid)
        for (c, &(rank, idx, act, sender, pid)) in best.iter().enumerate() {
            let lid = first + c as u32;
            if solve {
                shard.parent.push([sender, pid, act, idx]);
            }
            // A worker alone meets the new states in rank order (it expands the layer
            // in rank order, each state's successors in action order): a new state's
            // rank is its place in the store, and there is nothing to ask.
            if peers == 1 {
                continue;
            }
            // Round 2: ask the worker ranking this part of the key space (this one's
            // own part without travelling).
            let ranker =
                (((rank as u128 * peers as u128) / prev_n as u128) as usize).min(peers - 1);
            if ranker == me {
                keys.push((rank, idx, me as u32, lid));
                continue;
            }
            let b = &mut requests[ranker];
            b.u64(rank);
            b.u32(idx);
            b.u32(lid);
        }
        drop(best);
        let new_here = shard.store.len() as u32 - first;
        shard.layer_start.push(shard.store.len() as u32);
        let stored_now = sh.stored.fetch_add(new_here as u64, Ordering::Relaxed) + new_here as u64;
        if sh.opts.max_states.is_some_and(|m| stored_now as usize > m) {
            stop |= STOP_STATES;
        }
        let got = net.exchange(requests);
        for (sender, b) in &got {
            let mut r = Reader { b, at: 0 };
            while r.more() {
                let (rank, idx, lid) = (r.u64(), r.u32(), r.u32());
                keys.push((rank, idx, *sender as u32, lid));
            }
        }
        drop(got);
        keys.sort_unstable();
        // Round 3: counts and stop flags, to all.
        let mut mine = Batch::default();
        let ranked = if peers == 1 {
            new_here as usize
        } else {
            keys.len()
        };
        mine.u64(ranked as u64);
        mine.u64(new_here as u64);
        mine.u64(goals.len() as u64);
        mine.u32(stop);
        let all = net.all_gather(&mine);
        let (mut offset, mut layer_n, mut layer_goals, mut flags) = (0u64, 0u64, 0u64, 0u32);
        for (w, b) in all.iter().enumerate() {
            let mut r = Reader { b, at: 0 };
            let (ranked, _new, g, f) = (r.u64(), r.u64(), r.u64(), r.u32());
            if w < me {
                offset += ranked;
            }
            layer_n += ranked;
            layer_goals += g;
            flags |= f;
        }
        if flags & STOP_BROKEN != 0 {
            return Err(broken(&sh.opts));
        }
        if flags != 0 {
            break DistOutcome::Cutoff(cutoff_of(flags, &sh.opts));
        }
        // Round 4: each key's rank, back to its owner.
        let mut answers = net.empty();
        let mut ranks: Vec<u64> = if peers == 1 {
            (0..new_here as u64).collect()
        } else {
            vec![0u64; new_here as usize]
        };
        for (i, &(_, _, sender, lid)) in keys.iter().enumerate() {
            if sender as usize == me {
                ranks[(lid - first) as usize] = offset + i as u64;
                continue;
            }
            let b = &mut answers[sender as usize];
            b.u32(lid);
            b.u64(offset + i as u64);
        }
        drop(keys);
        let got = net.exchange(answers);
        for (_, b) in &got {
            let mut r = Reader { b, at: 0 };
            while r.more() {
                let (lid, rank) = (r.u32(), r.u64());
                ranks[(lid - first) as usize] = rank;
            }
        }
        if layer_n > 0 {
            // An empty layer keeps the last ranks: an analysis reads the last non-empty
            // layer's.
            shard.ranks = ranks;
        }
        shard.counts.push(layer_n);
        total_stored += layer_n;
        shard.goal_states += layer_goals;
        if layer_goals > 0 && shard.optimal.is_none() {
            shard.optimal = Some(depth + 1);
        }
        sh.layers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(LayerStat {
                depth: depth + 1,
                cost: vec![],
                worker: me,
                expanded,
                stored: new_here as u64,
                bytes_sent: net.sent - sent0,
                seconds: t0.elapsed().as_secs_f64(),
            });
        if solve && layer_goals > 0 {
            let actions =
                path_to_goal(&mut net, shard, &goals, first).map_err(|()| unlinked(&sh.opts))?;
            break DistOutcome::Solved(actions);
        }
        if let Some(dir) = &sh.opts.checkpoint {
            // Once every worker has written its shard, the layer is complete.
            net.all_ok(
                checkpoint::save(dir, &id, me, shard),
                "write its checkpoint",
            )?;
            if me == 0 {
                checkpoint::complete(dir, &id, depth + 1)?;
            }
        }
    };
    Ok(WorkerEnd {
        outcome,
        total_stored,
        bytes_sent: net.sent,
        resumed_from,
        state_bytes: words * 4,
    })
}

/// The search ran out of states (or moves): a solve found no goal; an analysis is done,
/// with the farthest state (rank 0 of the last non-empty layer) sent to all.
fn finish_layers(net: &mut Rounds, shard: &Shard, solve: bool, exp: &Expander) -> DistOutcome {
    if solve {
        return DistOutcome::Unsolvable;
    }
    let _ = exp;
    let mut counts = shard.counts.clone();
    while counts.len() > 1 && counts.last() == Some(&0) {
        counts.pop();
    }
    // The last non-empty layer's ranks are the frontier's unless the last layer came out
    // empty, in which case they are still the previous layer's (ranks are replaced only
    // by a layer with states).
    let mut mine = Batch::default();
    let layer = shard.layer();
    let n = shard.layer_start.len();
    let last = if shard.counts.last() == Some(&0) && n >= 3 {
        shard.layer_start[n - 3]..shard.layer_start[n - 2]
    } else {
        layer
    };
    for lid in last.clone() {
        if shard.ranks.get((lid - last.start) as usize) == Some(&0) {
            let mut s = vec![0u32; shard.words];
            shard.store.load(lid, &mut s);
            mine.words(&s);
        }
    }
    let all = net.all_gather(&mine);
    let farthest = all
        .iter()
        .find(|b| !b.is_empty())
        .map(|b| {
            let mut s = vec![0u32; shard.words];
            Reader { b, at: 0 }.words(&mut s);
            s
        })
        .unwrap_or_default();
    DistOutcome::Analyzed(DistAnalysis {
        reachable_states: counts.iter().sum(),
        farthest_distance: counts.len() as u32 - 1,
        states_at_distance: counts,
        goal_states: shard.goal_states,
        optimal_moves: shard.optimal,
        farthest,
    })
}

/// The goal of least rank in the last layer (every worker offers its own), then its
/// parent links followed back to the start, one round per move.
fn path_to_goal(
    net: &mut Rounds,
    shard: &Shard,
    goals: &[u32],
    first: u32,
) -> Result<Vec<(Action, u32)>, ()> {
    let mut mine = Batch::default();
    if let Some(&g) = goals
        .iter()
        .min_by_key(|&&g| shard.ranks[(g - first) as usize])
    {
        mine.u64(shard.ranks[(g - first) as usize]);
        mine.u32(g);
    }
    let all = net.all_gather(&mine);
    let (mut holder, mut lid): (usize, u32) = (usize::MAX, 0u32);
    let mut best = u64::MAX;
    for (w, b) in all.iter().enumerate() {
        if b.is_empty() {
            continue;
        }
        let mut r = Reader { b, at: 0 };
        let (rank, g) = (r.u64(), r.u32());
        if rank < best {
            (best, holder, lid) = (rank, w, g);
        }
    }
    // The path to a goal of layer d has d moves.
    walk_back(net, &shard.parent, holder, lid, shard.counts.len() as u64)
}

/// The path to state `lid` of worker `holder`: its parent links (parent's worker,
/// parent's id, action, successor index) followed back to the start, one round per move.
/// `Err` (on every worker alike) when a link points at no state or the path grows past
/// `most` moves: links read back from a checkpoint that does not hold together.
fn walk_back(
    net: &mut Rounds,
    parent: &[[u32; 4]],
    mut holder: usize,
    mut lid: u32,
    most: u64,
) -> Result<Vec<(Action, u32)>, ()> {
    let mut actions = vec![];
    loop {
        let mut mine = Batch::default();
        if holder == net.me {
            if let Some(link) = parent.get(lid as usize) {
                mine.words(link);
            }
        }
        let all = net.all_gather(&mine);
        let mut r = Reader {
            b: all.get(holder).map_or(&[][..], |b| &b[..]),
            at: 0,
        };
        let (pw, pid, act, idx) = (r.u32(), r.u32(), r.u32(), r.u32());
        if r.overran() {
            return Err(());
        }
        if pw == u32::MAX {
            break;
        }
        if pw as usize >= net.peers || actions.len() as u64 >= most {
            return Err(());
        }
        actions.push((Action::from_raw(act), idx));
        (holder, lid) = (pw as usize, pid);
    }
    actions.reverse();
    Ok(actions)
}

/// The error of a run whose workers found its parent links broken: after a resume,
/// the checkpoint's; otherwise a bug.
fn unlinked(opts: &DistOptions) -> DistError {
    match (&opts.checkpoint, opts.resume) {
        (Some(dir), true) => checkpoint::err(format!(
            "the path to the goal cannot be followed back through the parent links read \
             from {}: the checkpoint is damaged or not of these rules and level",
            dir.display()
        )),
        _ => DistError::Worker("a parent link points at no state".into()),
    }
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
    use crate::search::{Outcome, Path};
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
    Ok(crate::solver::Answer {
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
    })
}
