//! An analysis by layers in one process's threads, sharing memory: what `puz analyze
//! --workers N` runs when the run is one process and writes no checkpoints. Nothing is
//! sent between workers and no state carries a key: the layer's order is kept by the
//! way the work is cut.
//!
//! # One layer
//! The frontier (layer `d`, in breadth-first order) is cut into *waves* of states, and
//! each wave into *chunks*. Per wave, in three phases between barriers:
//! 1. *expand*: the workers take chunks in turn; each expands its chunk's states in
//!    order and files every successor under the shard that owns it ([`owner`]), noting
//!    the shard of each successor in order;
//! 2. *store*: each worker owns one shard of the visited set; it offers the successors
//!    filed under its shard, chunk by chunk in order, and marks those it had not seen;
//! 3. *gather*: the workers take chunks in turn again and list, in the order the
//!    chunk made them, the successors marked new: layer `d + 1`'s part from that chunk.
//!
//! A shard meets its successors in the order one thread would have made them, so the
//! first time a state is made is the time it is new; the new states, in that order, are
//! the next frontier exactly as one thread's breadth-first search queues it. Its figures
//! (states per layer, goals, the farthest state: the first of the last layer) are
//! therefore those of one process, as the search by rounds gives them (`layers.rs`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex, RwLock};
use std::time::Instant;

use hashbrown::HashTable;

use super::worker::{broken, cutoff_of, expand, STOP_BROKEN, STOP_MEMORY, STOP_STATES, STOP_TIME};
use super::{owner, DistAnalysis, DistError, DistOutcome, LayerStat, Problem, Shared};
use crate::engine::budget::{Budget, Cutoff, Pacer};
use crate::engine::store::hash_words;
use crate::engine::{StateStore, Successors};
use crate::search::Space;

/// States per chunk of the frontier.
const CHUNK: usize = 2048;
/// Chunks per wave: a wave's successors are held at once (a few hundred MiB at most).
const WAVE: usize = 512;

/// One shard of the visited set: states of at most two words packed into one `u64` in
/// a table of their own, longer ones in a store.
enum Visited {
    Packed(HashTable<u64>),
    Stored(StateStore),
}

impl Visited {
    fn new(words: usize, radix: &[u32]) -> Visited {
        if words <= 2 {
            Visited::Packed(HashTable::new())
        } else {
            Visited::Stored(StateStore::new(radix))
        }
    }

    /// Inserts `s`; true when it was not there.
    #[inline]
    fn insert(&mut self, s: &[u32]) -> bool {
        match self {
            Visited::Packed(t) => {
                let key = s
                    .iter()
                    .enumerate()
                    .fold(0u64, |k, (i, &w)| k | (w as u64) << (32 * i));
                let n = s.len();
                let entry = t.entry(
                    hash_words(s),
                    |&k| k == key,
                    |&k| hash_words(&[k as u32, (k >> 32) as u32][..n]),
                );
                match entry {
                    hashbrown::hash_table::Entry::Occupied(_) => false,
                    hashbrown::hash_table::Entry::Vacant(v) => {
                        v.insert(key);
                        true
                    }
                }
            }
            Visited::Stored(st) => st.insert(s).is_ok(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Visited::Packed(t) => t.len(),
            Visited::Stored(st) => st.len(),
        }
    }
}

/// What one chunk of a wave made: per shard, its successors (and which of them were
/// new, once the shard has stored them); the shard of each successor, in order; the
/// new states gathered in order.
#[derive(Default)]
struct Chunk {
    to_shard: Vec<Vec<u32>>,
    fresh: Vec<Vec<bool>>,
    order: Vec<u16>,
    next: Vec<u32>,
}

/// What every worker of the run reads and the leader (worker 0) writes between waves.
struct Run {
    words: usize,
    peers: usize,
    /// The layer being expanded, in breadth-first order.
    frontier: RwLock<Vec<u32>>,
    /// The wave being worked on: its first chunk and its number of chunks.
    wave: AtomicUsize,
    chunks_in_wave: AtomicUsize,
    /// The next chunk to take in the expand and gather phases.
    take_expand: AtomicUsize,
    take_gather: AtomicUsize,
    chunks: Vec<Mutex<Chunk>>,
    shards: Vec<Mutex<Visited>>,
    /// Per worker: states expanded and stored in this layer, goals among those stored.
    expanded: Vec<AtomicU64>,
    stored: Vec<AtomicU64>,
    goals: Vec<AtomicU64>,
    stop: AtomicU32,
    /// The run is over: every worker leaves at the next barrier.
    done: AtomicBool,
    barrier: Barrier,
}

/// Runs the analysis of `sh` on `sh.opts.cluster.workers` threads of this process.
pub(super) fn analyze<P: Problem>(sh: &Shared<P>) -> Result<super::DistReport, DistError> {
    let peers = sh.opts.cluster.workers;
    let probe = sh.problem.space(sh.job)?;
    let words = probe.words();
    let radix = probe.radix();
    let start = probe.start();
    let start_goal = probe.is_goal(&start);
    sh.problem.finish(probe)?;
    let run = Run {
        words,
        peers,
        frontier: RwLock::new(start.clone()),
        wave: AtomicUsize::new(0),
        chunks_in_wave: AtomicUsize::new(0),
        take_expand: AtomicUsize::new(0),
        take_gather: AtomicUsize::new(0),
        chunks: (0..WAVE).map(|_| Mutex::new(Chunk::default())).collect(),
        shards: (0..peers)
            .map(|_| Mutex::new(Visited::new(words, &radix)))
            .collect(),
        expanded: (0..peers).map(|_| AtomicU64::new(0)).collect(),
        stored: (0..peers).map(|_| AtomicU64::new(0)).collect(),
        goals: (0..peers).map(|_| AtomicU64::new(0)).collect(),
        stop: AtomicU32::new(0),
        done: AtomicBool::new(false),
        barrier: Barrier::new(peers),
    };
    lock(&run.shards[owner(&start, peers)]).insert(&start);
    sh.stored.store(1, Ordering::Relaxed);
    let mut counts = vec![1u64];
    let mut goal_states = start_goal as u64;
    let mut optimal = start_goal.then_some(0u32);
    let limit = sh.problem.limit();
    let (results, lead) = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..peers)
            .map(|me| {
                let run = &run;
                scope.spawn(move || follow(sh, run, me))
            })
            .collect();
        // Worker 0 leads: between layers it reads the figures and sets up the next.
        let lead = (|| -> Result<Option<Cutoff>, DistError> {
            let mut exp = sh.problem.space(sh.job)?;
            exp.set_deadline(sh.opts.deadline);
            let mut me = Worker::new(sh, &run, 0);
            let outcome = loop {
                let depth = counts.len() as u32 - 1;
                let n = read(&run.frontier).len() / words.max(1);
                if n == 0 || words == 0 || limit.is_some_and(|l| depth >= l) {
                    break None;
                }
                let t0 = Instant::now();
                let mut next: Vec<u32> = vec![];
                let chunks = n.div_ceil(CHUNK);
                let mut wave = 0;
                while wave < chunks && run.stop.load(Ordering::Relaxed) == 0 {
                    let here = (chunks - wave).min(WAVE);
                    run.wave.store(wave, Ordering::Relaxed);
                    run.chunks_in_wave.store(here, Ordering::Relaxed);
                    run.take_expand.store(0, Ordering::Relaxed);
                    run.take_gather.store(0, Ordering::Relaxed);
                    run.barrier.wait();
                    me.wave(Some(&mut exp));
                    for c in &run.chunks[..here] {
                        next.append(&mut lock(c).next);
                    }
                    wave += WAVE;
                }
                let layer_n = (next.len() / words) as u64;
                let stored_now = sh.stored.fetch_add(layer_n, Ordering::Relaxed) + layer_n;
                if sh.opts.max_states.is_some_and(|m| stored_now as usize > m) {
                    run.stop.fetch_or(STOP_STATES, Ordering::Relaxed);
                }
                let seconds = t0.elapsed().as_secs_f64();
                let mut layer_goals = 0;
                let mut rows = sh.layers.lock().unwrap_or_else(|p| p.into_inner());
                for w in 0..peers {
                    layer_goals += run.goals[w].swap(0, Ordering::Relaxed);
                    rows.push(LayerStat {
                        depth: depth + 1,
                        cost: vec![],
                        worker: w,
                        expanded: run.expanded[w].swap(0, Ordering::Relaxed),
                        stored: run.stored[w].swap(0, Ordering::Relaxed),
                        bytes_sent: 0,
                        seconds,
                    });
                }
                drop(rows);
                let stop = run.stop.load(Ordering::Relaxed);
                if stop & STOP_BROKEN != 0 {
                    return Err(broken(&sh.opts));
                }
                if stop != 0 {
                    break Some(cutoff_of(stop, &sh.opts));
                }
                if layer_n > 0 {
                    *run.frontier.write().unwrap_or_else(|p| p.into_inner()) = next;
                }
                counts.push(layer_n);
                goal_states += layer_goals;
                if layer_goals > 0 && optimal.is_none() {
                    optimal = Some(depth + 1);
                }
                if layer_n == 0 {
                    break None;
                }
            };
            exp.set_deadline(None);
            sh.problem.finish(exp)?;
            Ok(outcome)
        })();
        run.done.store(true, Ordering::Relaxed);
        run.barrier.wait();
        let results: Vec<Result<(), DistError>> = workers
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(DistError::Worker("a worker thread panicked".into())))
            })
            .collect();
        (results, lead)
    });
    let cutoff = lead?;
    for r in results {
        r?;
    }
    let outcome = match cutoff {
        Some(c) => DistOutcome::Cutoff(c),
        None => {
            while counts.len() > 1 && counts.last() == Some(&0) {
                counts.pop();
            }
            let frontier = run.frontier.into_inner().unwrap_or_else(|p| p.into_inner());
            DistOutcome::Analyzed(DistAnalysis {
                reachable_states: counts.iter().sum(),
                farthest_distance: counts.len() as u32 - 1,
                states_at_distance: counts,
                goal_states,
                optimal_moves: optimal,
                farthest: frontier[..words.min(frontier.len())].to_vec(),
            })
        }
    };
    let stored: u64 = run.shards.iter().map(|s| lock(s).len() as u64).sum();
    let mut layers = std::mem::take(&mut *sh.layers.lock().unwrap_or_else(|p| p.into_inner()));
    layers.sort_by_key(|l| (l.depth, l.worker));
    Ok(super::DistReport {
        outcome,
        layers,
        stored,
        total_stored: stored,
        bytes_sent: 0,
        resumed_from: None,
        state_bytes: words * 4,
        buckets: false,
    })
}

/// Locks a mutex, through a poisoning (a panic elsewhere is reported on its own).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Reads the frontier, through a poisoning.
fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|p| p.into_inner())
}

/// A worker other than the leader: a wave whenever the leader starts one, until the run
/// is over. A worker whose space cannot be built still stores its shard, so the others
/// are not left waiting, and stops the run.
fn follow<P: Problem>(sh: &Shared<P>, run: &Run, me: usize) -> Result<(), DistError> {
    let space = sh.problem.space(sh.job);
    let (mut exp, err) = match space {
        Ok(mut e) => {
            e.set_deadline(sh.opts.deadline);
            (Some(e), None)
        }
        Err(e) => {
            run.stop.fetch_or(STOP_BROKEN, Ordering::Relaxed);
            (None, Some(e))
        }
    };
    let mut w = Worker::new(sh, run, me);
    loop {
        run.barrier.wait();
        if run.done.load(Ordering::Relaxed) {
            break;
        }
        w.wave(exp.as_mut());
    }
    if let Some(e) = err {
        return Err(e);
    }
    if let Some(mut e) = exp {
        e.set_deadline(None);
        sh.problem.finish(e)?;
    }
    Ok(())
}

/// One worker's part of every wave.
struct Worker<'r> {
    run: &'r Run,
    me: usize,
    budget: Budget,
    pacer: Pacer,
    succ: Successors,
}

impl<'r> Worker<'r> {
    fn new<P: Problem>(sh: &Shared<P>, run: &'r Run, me: usize) -> Worker<'r> {
        Worker {
            run,
            me,
            budget: Budget {
                deadline: sh.opts.deadline,
                max_bytes: sh.opts.max_bytes,
                ..Budget::default()
            },
            pacer: Pacer::default(),
            succ: Successors::default(),
        }
    }

    /// The three phases of the current wave (see the module header), each ended by a
    /// barrier; `exp` is `None` only for a worker whose space could not be built.
    fn wave<S: Space>(&mut self, mut exp: Option<&mut S>) {
        let run = self.run;
        let (words, peers) = (run.words, run.peers);
        let wave = run.wave.load(Ordering::Relaxed);
        let here = run.chunks_in_wave.load(Ordering::Relaxed);
        // 1. Expand.
        if let Some(exp) = exp.as_deref_mut() {
            let frontier = read(&run.frontier);
            let n = frontier.len() / words;
            loop {
                let i = run.take_expand.fetch_add(1, Ordering::Relaxed);
                if i >= here || run.stop.load(Ordering::Relaxed) & STOP_BROKEN != 0 {
                    break;
                }
                let mut c = lock(&run.chunks[i]);
                let c = &mut *c;
                c.to_shard.resize_with(peers, Vec::new);
                c.fresh.resize_with(peers, Vec::new);
                let from = (wave + i) * CHUNK;
                let to = (from + CHUNK).min(n);
                for s in frontier[from * words..to * words].chunks_exact(words) {
                    if !expand(exp, s, &mut self.succ) {
                        run.stop.fetch_or(STOP_BROKEN, Ordering::Relaxed);
                        break;
                    }
                    for k in 0..self.succ.len() {
                        let t = self.succ.state(k, words);
                        let o = if peers == 1 { 0 } else { owner(t, peers) };
                        c.to_shard[o].extend_from_slice(t);
                        c.order.push(o as u16);
                    }
                    if let Err(cut) = self.pacer.tick(self.succ.units().max(1), &self.budget) {
                        let flag = match cut {
                            Cutoff::Memory(_) => STOP_MEMORY,
                            _ => STOP_TIME,
                        };
                        run.stop.fetch_or(flag, Ordering::Relaxed);
                    }
                }
                run.expanded[self.me].fetch_add((to - from) as u64, Ordering::Relaxed);
            }
        }
        run.barrier.wait();
        // 2. Store this worker's shard, in chunk order.
        let mut shard = lock(&run.shards[self.me]);
        let (mut stored, mut goals) = (0u64, 0u64);
        for chunk in &run.chunks[..here] {
            let (part, mut fresh) = {
                let mut c = lock(chunk);
                if c.to_shard.len() < peers {
                    continue;
                }
                (
                    std::mem::take(&mut c.to_shard[self.me]),
                    std::mem::take(&mut c.fresh[self.me]),
                )
            };
            fresh.clear();
            for t in part.chunks_exact(words) {
                let new = shard.insert(t);
                if new {
                    stored += 1;
                    goals += exp.as_deref().is_some_and(|e| e.is_goal(t)) as u64;
                }
                fresh.push(new);
            }
            let mut c = lock(chunk);
            c.to_shard[self.me] = part;
            c.fresh[self.me] = fresh;
        }
        drop(shard);
        run.stored[self.me].fetch_add(stored, Ordering::Relaxed);
        run.goals[self.me].fetch_add(goals, Ordering::Relaxed);
        run.barrier.wait();
        // 3. Gather each chunk's new states in the order it made them.
        let mut at = vec![0usize; peers];
        loop {
            let i = run.take_gather.fetch_add(1, Ordering::Relaxed);
            if i >= here {
                break;
            }
            let mut c = lock(&run.chunks[i]);
            let c = &mut *c;
            at.fill(0);
            let mut next = std::mem::take(&mut c.next);
            for &o in &c.order {
                let o = o as usize;
                let k = at[o];
                at[o] += 1;
                if c.fresh[o][k] {
                    next.extend_from_slice(&c.to_shard[o][k * words..(k + 1) * words]);
                }
            }
            c.next = next;
            c.order.clear();
            for v in &mut c.to_shard {
                v.clear();
            }
            for v in &mut c.fresh {
                v.clear();
            }
        }
        run.barrier.wait();
    }
}
