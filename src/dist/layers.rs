//! The search by layers: every worker's loop over the layers of a breadth-first search
//! ([`worker_main`], which hands a solve under a cost vector to [`super::buckets`]), its
//! end (the farthest state, the path to the goal) and the shard a worker keeps.
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
//! When the goal test is cheap ([`Problem::cheap_goal`]: a PuzzleScript state's won
//! flag), a solve's worker tests every successor it makes; once a state of rank `r`
//! made a goal, it expands no state of a higher rank (its states of a layer are stored
//! in arrival order, not rank order, so it goes on with those of lower rank) and no
//! successor after the goal: all of them have larger keys, and the layer is the last.
//! The goal of least key is still made (its parent is skipped only for a goal of a
//! smaller key), so the answer is the same; only the last layer is stored in part, as
//! one process's search stops at its first goal.
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

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::rounds::Rounds;
use super::wire::{Batch, Reader};
use super::worker::{
    broken, cutoff_of, expand, unlinked, walk_back, STOP_BROKEN, STOP_MEMORY, STOP_STATES,
    STOP_TIME, STREAM_BYTES, STREAM_MIN,
};
use super::{checkpoint, digest, net, owner};
use super::{DistAnalysis, DistError, DistOutcome, Job, LayerStat, Problem, Shared, WorkerEnd};
use crate::compile::Action;
use crate::engine::budget::{Budget, Cutoff, Pacer};
use crate::engine::{StateStore, Successors};
use crate::search::Space;
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
    pub(super) fn layer(&self) -> std::ops::Range<u32> {
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
fn offer<S: Space>(store: &mut StateStore, fresh: &mut Fresh, exp: &S, s: &[u32], key: Key) {
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

/// Offers the successors of a received batch (see [`offer`]).
fn take_in<S: Space>(
    shard: &mut Shard,
    fresh: &mut Fresh,
    exp: &S,
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

/// One worker's search by layers of `sh`'s problem, in a space of its own (handed back to
/// the problem at the end, [`Problem::finish`]).
pub(super) fn worker_main<P: Problem>(
    worker: &mut timely::worker::Worker,
    sh: &Shared<P>,
) -> Result<WorkerEnd, DistError> {
    let mut exp = sh.problem.space(sh.job)?;
    // A long expansion (a PuzzleScript turn with long again chains) stops at the
    // deadline, and the budget check after it ends the layer.
    exp.set_deadline(sh.opts.deadline);
    let end = search(worker, sh, &mut exp);
    exp.set_deadline(None);
    let finished = sh.problem.finish(exp);
    let end = end?;
    finished?;
    Ok(end)
}

/// The layer loop of the module header, on one worker.
fn search<P: Problem, S: Space>(
    worker: &mut timely::worker::Worker,
    sh: &Shared<P>,
    exp: &mut S,
) -> Result<WorkerEnd, DistError> {
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
    // The run's identity costs a pass over the rules and level: only checkpoints need it.
    let id = match sh.opts.checkpoint {
        Some(_) => checkpoint::RunId::new(&*sh.problem, sh.job, &sh.opts.cluster),
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
    let limit = sh.problem.limit();
    let stop_at_goal = solve && sh.problem.cheap_goal();
    let outcome = loop {
        let depth = shard.counts.len() as u32 - 1;
        let prev_n = *shard.counts.last().unwrap_or(&0);
        if prev_n == 0 || limit.is_some_and(|l| depth >= l) {
            break finish_layers(&mut net, shard, solve);
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
        // The least rank of a state this worker expanded into a goal: a state of a
        // higher rank, and a successor after the goal, come after it in path order, and
        // the run ends with this layer, so they are not expanded (see the header).
        let mut goal_rank: Option<u64> = None;
        for lid in layer.clone() {
            let rank = shard.ranks[(lid - layer.start) as usize];
            if goal_rank.is_some_and(|g| rank > g) {
                continue;
            }
            shard.store.load(lid, &mut cur);
            let mut goal_met = false;
            if !expand(exp, &cur, &mut succ) {
                stop |= STOP_BROKEN;
                break;
            }
            expanded += 1;
            for i in 0..succ.len() {
                if goal_met {
                    break;
                }
                let s = succ.state(i, words);
                goal_met = stop_at_goal && exp.is_goal(s);
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
                        &*exp,
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
                        take_in(shard, &mut fresh, &*exp, &mut scratch, sender, &b);
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
            if goal_met {
                goal_rank = Some(rank);
            }
        }
        for (sender, b) in net.exchange(out) {
            take_in(shard, &mut fresh, &*exp, &mut cur, sender, &b);
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
fn finish_layers(net: &mut Rounds, shard: &Shard, solve: bool) -> DistOutcome {
    if solve {
        return DistOutcome::Unsolvable;
    }
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
