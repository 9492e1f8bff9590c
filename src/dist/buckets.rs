//! Cost vectors across workers: cheapest paths bucket by bucket, in lexicographic order.
//!
//! When moves cost other than one unit of one component, breadth-first layers are not
//! cost order; the single-process search is then Dijkstra over cost vectors with the
//! projection tie rule ([`crate::search::dijkstra()`]). This is the same search spread over
//! the workers. Each worker owns, by the stable hash, its states' *labels*: the best path
//! found so far to each (its cost vector, its parent label, the action and the parent's
//! projection nodes). A *bucket* is one cost vector. Every move costs something, so once
//! every cheaper bucket has been expanded, the labels of the cheapest bucket left are
//! final. One bucket takes three rounds:
//!
//! 1. *agree*: every worker tells all the others its cheapest open bucket and its stop
//!    flags; all take the least bucket `c` (none anywhere: no goal is reachable);
//! 2. *settle*: each worker settles its labels of cost `c`, making their projection nodes
//!    (one per cost component the move adds to, and one for the whole move sequence), and
//!    sends the new nodes to all: every worker keeps a copy of the projection tries, nodes
//!    numbered in worker order, so any worker can compare any two labels. If a settled
//!    label is a goal, the goal best by the tie rule wins (a third gather) and its path is
//!    followed back through the owners of its parents;
//! 3. *expand*: each worker expands its settled labels and streams every successor to its
//!    owner with the candidate's cost, parent and the parent's nodes; the owner keeps the
//!    cheaper candidate, or at equal cost the one whose projections come first, comparing
//!    with the tries exactly as the single-process search does.
//!
//! # Why the answer is the single-process one
//! Labels are settled in the same cost order, each keeps the same best candidate (the
//! comparison is the same function of the same projections), and the goal chosen is the
//! best goal of the first bucket that has one. Two candidates can tie on every
//! projection only when their whole move sequences are equal and differ in which copy
//! of an anonymous kind moved; one process keeps whichever it met first, and here the
//! candidate whose parent state hashes lower (then the lower successor index) wins, so a
//! run's answer does not depend on the order batches arrive in. Cost and moves are the
//! same either way.
//!
//! # Checkpoints
//! With `--checkpoint DIR`, worker 0 asks, when a bucket is agreed on and at least
//! `checkpoint_every` has passed since the last snapshot, for a snapshot of the whole
//! search as it stands before that bucket: every worker writes its states, labels and
//! copy of the tries to `DIR/bucket-B/worker-W.bin`; once all have, worker 0 names bucket
//! `B` in `DIR/complete`, and then each worker removes its previous snapshot. `--resume`
//! reads the snapshot back (same ids, the queue rebuilt from the open labels) and goes on
//! from bucket `B`, as the run would have.
//!
//! Not done here: a move `limit` (one label per state is exact only without one; the
//! single-process search keeps a label per state and move count); it is refused before
//! the run starts.

use std::cmp::Ordering as Cmp;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::checkpoint::{self, RunId};
use super::digest::digest;
use super::{
    owner, Batch, DistError, DistOutcome, LayerStat, Reader, Rounds, Shared, STOP_BROKEN,
    STOP_MEMORY, STOP_STATES, STOP_TIME, STREAM_BYTES, STREAM_MIN,
};
use crate::compile::{Action, Model};
use crate::engine::budget::{Budget, Cutoff, Pacer};
use crate::engine::store::hash_words;
use crate::engine::{Expander, StateStore, Successors};
use crate::search::{CostTable, Space, Tries};

/// A worker's labels: one per state it owns, by store id.
struct Labels {
    /// Projection tracks (cost components, plus the whole sequence with several).
    nt: usize,
    /// Packed cost vector (32 bits per component, most significant first).
    cost: Vec<u128>,
    /// Parent's worker, parent's id, action, index among the parent's successors
    /// (`u32::MAX` at the start).
    parent: Vec<[u32; 4]>,
    /// The parent state's hash: the last tie-break (see the module header).
    phash: Vec<u64>,
    /// `pnode[id * nt + t]`: the parent's node of track `t` (the root at the start).
    pnode: Vec<u32>,
    /// `node[id * nt + t]`: the label's own node, once settled.
    node: Vec<u32>,
    settled: Vec<bool>,
}

impl Labels {
    fn push(&mut self, cost: u128, parent: [u32; 4], phash: u64, pnodes: &[u32]) {
        self.cost.push(cost);
        self.parent.push(parent);
        self.phash.push(phash);
        self.pnode.extend_from_slice(pnodes);
        self.node.extend(std::iter::repeat_n(0, self.nt));
        self.settled.push(false);
    }
}

/// A candidate path to a state: its cost, where it comes from, and the parent's nodes.
struct Cand<'a> {
    cost: u128,
    parent: [u32; 4],
    phash: u64,
    pnodes: &'a [u32],
}

/// Orders two candidates of equal cost by the tie rule: per track, the parent's node
/// extended by the action when the action adds to that track.
fn cand_cmp(tries: &Tries, table: &CostTable, a: (&[u32], Action), b: (&[u32], Action)) -> Cmp {
    for t in 0..a.0.len() {
        let la = table.extends(a.1, t).then_some(a.1);
        let lb = table.extends(b.1, t).then_some(b.1);
        let o = match (la, lb) {
            (None, None) => tries.cmp(t, a.0[t], b.0[t]),
            (Some(x), Some(y)) => tries.cmp(t, a.0[t], b.0[t]).then(x.cmp(&y)),
            // The other one's parent node is one deeper: it is compared through its own
            // parent, which the tries know as the node's parent.
            (Some(_), None) => tries.cmp_ext(t, a.0[t], la, b.0[t]),
            (None, Some(_)) => tries.cmp_ext(t, b.0[t], lb, a.0[t]).reverse(),
        };
        if o != Cmp::Equal {
            return o;
        }
    }
    Cmp::Equal
}

/// Most nodes a projection trie may hold (see the settle step).
const TRIE_CAP: usize = (1 << 31) - (1 << 28);

/// The per-bucket queue: per cost, the ids that were given it (some since improved).
type Queue = BTreeMap<u128, Vec<u32>>;

struct Owner<'t> {
    store: StateStore,
    labels: Labels,
    queue: Queue,
    table: &'t CostTable,
}

impl Owner<'_> {
    /// Offers a candidate for state `s`: a new state is stored with it; a settled state
    /// keeps its label; otherwise the cheaper, or at equal cost the better by the tie
    /// rule, wins.
    fn offer(&mut self, tries: &Tries, s: &[u32], c: Cand) {
        let nt = self.labels.nt;
        let id = match self.store.insert(s) {
            Ok(id) => {
                self.labels.push(c.cost, c.parent, c.phash, c.pnodes);
                self.queue.entry(c.cost).or_default().push(id);
                return;
            }
            Err(id) => id as usize,
        };
        let l = &mut self.labels;
        if l.settled[id] || c.cost > l.cost[id] {
            return;
        }
        if c.cost == l.cost[id] {
            let mine = (
                &l.pnode[id * nt..(id + 1) * nt],
                Action::from_raw(l.parent[id][2]),
            );
            let o = cand_cmp(
                tries,
                self.table,
                (c.pnodes, Action::from_raw(c.parent[2])),
                mine,
            )
            .then((c.phash, c.parent[3]).cmp(&(l.phash[id], l.parent[id][3])));
            if o != Cmp::Less {
                return;
            }
        } else {
            self.queue.entry(c.cost).or_default().push(id as u32);
        }
        l.cost[id] = c.cost;
        l.parent[id] = c.parent;
        l.phash[id] = c.phash;
        l.pnode[id * nt..(id + 1) * nt].copy_from_slice(c.pnodes);
    }

    /// The cheapest cost some open label of this worker has, dropping stale entries.
    fn cheapest(&mut self) -> Option<u128> {
        loop {
            let mut first = self.queue.first_entry()?;
            let key = *first.key();
            let l = &self.labels;
            first
                .get_mut()
                .retain(|&id| l.cost[id as usize] == key && !l.settled[id as usize]);
            if first.get().is_empty() {
                first.remove();
            } else {
                return Some(key);
            }
        }
    }
}

/// Reads a candidate record sent in round 3 and offers it.
#[allow(clippy::too_many_arguments)]
fn take_in(
    own: &mut Owner,
    tries: &Tries,
    nc: usize,
    s: &mut [u32],
    pnodes: &mut [u32],
    sender: usize,
    b: &[u8],
) {
    let mut r = Reader { b, at: 0 };
    while r.more() {
        r.words(s);
        let mut cost = 0u128;
        for _ in 0..nc {
            cost = cost << 32 | r.u32() as u128;
        }
        let (pid, act, idx, phash) = (r.u32(), r.u32(), r.u32(), r.u64());
        r.words(pnodes);
        own.offer(
            tries,
            s,
            Cand {
                cost,
                parent: [sender as u32, pid, act, idx],
                phash,
                pnodes,
            },
        );
    }
}

/// What a bucketed run ends with: the outcome, the states the whole run stored, and the
/// bucket it resumed at.
pub(super) struct BucketEnd {
    pub(super) outcome: DistOutcome,
    pub(super) total_stored: u64,
    pub(super) resumed_from: Option<u32>,
}

const MAGIC: &[u8; 8] = b"puz-bckt";

fn snapshot_file(dir: &Path, bucket: u32, me: usize) -> PathBuf {
    dir.join(format!("bucket-{bucket}"))
        .join(format!("worker-{me}.bin"))
}

/// Writes worker `me`'s whole search as it stands before bucket `bucket`.
fn save(
    dir: &Path,
    id: &RunId,
    me: usize,
    bucket: u32,
    own: &Owner,
    tries: &Tries,
    words: usize,
) -> Result<(), DistError> {
    let (nt, nc) = (own.labels.nt, own.table.components);
    let mut b = checkpoint::begin(MAGIC);
    id.header(&mut b, me);
    for v in [words, nt, nc, bucket as usize] {
        b.u32(v as u32);
    }
    for t in 0..nt {
        b.u32(tries.len(t) as u32 - 1);
        for n in 1..tries.len(t) as u32 {
            let (p, a) = tries.node(t, n);
            b.u32(p);
            b.u32(a.raw());
        }
    }
    let l = &own.labels;
    b.u32(own.store.len() as u32);
    let mut s = vec![0u32; words];
    for i in 0..own.store.len() {
        own.store.load(i as u32, &mut s);
        b.words(&s);
        b.u64((l.cost[i] >> 64) as u64);
        b.u64(l.cost[i] as u64);
        b.words(&l.parent[i]);
        b.u64(l.phash[i]);
        b.words(&l.pnode[i * nt..(i + 1) * nt]);
        b.words(&l.node[i * nt..(i + 1) * nt]);
        b.u32(l.settled[i] as u32);
    }
    checkpoint::write_file(&snapshot_file(dir, bucket, me), b)
}

/// What a snapshot read back must agree with.
struct Expect<'a> {
    radix: &'a [u32],
    start: &'a [u32],
    peers: usize,
    /// Moves of the rules (an action's move must be one).
    moves: usize,
}

/// Reads worker `me`'s snapshot of the last complete bucket back into `own` and `tries`
/// (both empty); returns the bucket and a digest of the tries (every worker holds the
/// same copy). Every read is bounded and every reference checked: a file that passes
/// the checksum but does not hold together is refused too.
fn load(
    dir: &Path,
    id: &RunId,
    me: usize,
    own: &mut Owner,
    tries: &mut Tries,
    want: &Expect,
) -> Result<(u32, u64), DistError> {
    let words = want.radix.len();
    let bucket = checkpoint::last_of_run(dir, id)?;
    let path = snapshot_file(dir, bucket, me);
    let bytes = checkpoint::read_file(&path)?;
    let damaged = |why: &str| {
        checkpoint::err(format!(
            "{} is damaged or of another run: {why}",
            path.display()
        ))
    };
    let (nt, nc) = (own.labels.nt, own.table.components);
    let mut r = checkpoint::open(&bytes, MAGIC, b"puzbckt1", &path)?;
    // Every read below is checked against the length first.
    let need = |r: &Reader, n: usize| n.checked_add(r.at).is_some_and(|e| e <= r.b.len());
    if !id.is_header(&mut r, me)
        || [r.u32(), r.u32(), r.u32(), r.u32()]
            != [words, nt, nc, bucket as usize].map(|v| v as u32)
    {
        return Err(damaged("its header names another run, worker or bucket"));
    }
    let tries_from = r.at;
    // Each node's depth: a label's node of a cost component lies as deep as that
    // component of its cost (the comparisons walk nodes of equal depth).
    let mut depth: Vec<Vec<u32>> = vec![vec![0]; nt];
    for (t, dt) in depth.iter_mut().enumerate() {
        if !need(&r, 4) {
            return Err(damaged("it ends early"));
        }
        let n = r.u32() as usize;
        if !need(&r, n.saturating_mul(8)) || n >= TRIE_CAP {
            return Err(damaged("it ends early"));
        }
        dt.reserve(n);
        for _ in 0..n {
            let (p, a) = (r.u32(), Action::from_raw(r.u32()));
            if p as usize >= tries.len(t) {
                return Err(damaged("a move tree's node has no parent"));
            }
            dt.push(dt[p as usize] + 1);
            tries.child(t, p, a);
        }
    }
    let tries_digest = digest(&r.b[tries_from..r.at]);
    if !need(&r, 4) {
        return Err(damaged("it ends early"));
    }
    let n = r.u32() as usize;
    let per = words * 4 + 16 + 16 + 8 + nt * 8 + 4;
    if Some(r.b.len()) != n.checked_mul(per).and_then(|x| x.checked_add(r.at)) {
        return Err(damaged("its length does not match its count of states"));
    }
    let mut s = vec![0u32; words];
    let mut pnodes = vec![0u32; nt];
    let mut nodes = vec![0u32; nt];
    let mut parent = [0u32; 4];
    let component = |cost: u128, t: usize| (cost >> (32 * (nc - 1 - t))) as u32;
    for i in 0..n {
        r.words(&mut s);
        let cost = (r.u64() as u128) << 64 | r.u64() as u128;
        r.words(&mut parent);
        let phash = r.u64();
        r.words(&mut pnodes);
        r.words(&mut nodes);
        let settled = match r.u32() {
            0 => false,
            1 => true,
            _ => return Err(damaged("a label is neither settled nor open")),
        };
        if !checkpoint::fits(&s, want.radix, me, want.peers) {
            return Err(damaged("a state is not one of this worker's"));
        }
        if own.store.insert(&s) != Ok(i as u32) {
            return Err(damaged("a state is stored twice"));
        }
        let root = parent[0] == u32::MAX;
        let act = Action::from_raw(parent[2]);
        let fits_cost = nc * 32 >= 128 || cost >> (32 * nc) == 0;
        let linked = if root {
            parent == [u32::MAX; 4] && s == want.start && cost == 0
        } else {
            (parent[0] as usize) < want.peers && act.mv().index() < want.moves && cost != 0
        };
        if !fits_cost || !linked {
            return Err(damaged(
                "a label's cost or parent link is not one a search makes",
            ));
        }
        for t in 0..nt {
            let (p, nd) = (pnodes[t] as usize, nodes[t] as usize);
            if p >= tries.len(t) || (settled && nd >= tries.len(t)) {
                return Err(damaged("a label points past the move trees"));
            }
            let extends = !root && own.table.extends(act, t);
            if settled {
                let ok = if extends {
                    tries.node(t, nodes[t]) == (pnodes[t], act)
                } else {
                    nd == p
                };
                if !ok || (t < nc && depth[t][nd] != component(cost, t)) {
                    return Err(damaged("a settled label's node is not its path's"));
                }
            } else if t < nc && depth[t][p] + u32::from(extends) != component(cost, t) {
                return Err(damaged("an open label's path does not match its cost"));
            }
        }
        own.labels.push(cost, parent, phash, &pnodes);
        own.labels.node[i * nt..(i + 1) * nt].copy_from_slice(&nodes);
        own.labels.settled[i] = settled;
        if !settled {
            own.queue.entry(cost).or_default().push(i as u32);
        }
    }
    if r.at != r.b.len() {
        return Err(damaged("its length does not match its content"));
    }
    let mut alike = Batch::default();
    alike.u64(tries_digest);
    alike.u32(bucket);
    Ok((bucket, digest(&alike.0)))
}

/// The bucket loop of the module header, on one worker.
pub(super) fn solve(
    net: &mut Rounds,
    sh: &Shared<super::Rules>,
    exp: &mut Expander,
    budget: &Budget,
) -> Result<BucketEnd, DistError> {
    let model: &Model = &sh.problem.model;
    let table = crate::solver::cost_table(model);
    let (nc, nt) = (table.components, table.tracks());
    let (me, peers) = (net.me, net.peers);
    let words = exp.words();
    let inc: Vec<u128> = (0..table.adds.len() / nc)
        .map(|a| (0..nc).fold(0u128, |acc, i| acc << 32 | table.adds[a * nc + i] as u128))
        .collect();
    let mut tries = Tries::new(nt);
    let mut own = Owner {
        store: StateStore::sequential(&exp.radix()),
        labels: Labels {
            nt,
            cost: vec![],
            parent: vec![],
            phash: vec![],
            pnode: vec![],
            node: vec![],
            settled: vec![],
        },
        queue: Queue::new(),
        table: &table,
    };
    let dir = sh.opts.checkpoint.as_deref();
    let id = match dir {
        Some(_) => RunId::new(&*sh.problem, sh.job, &sh.opts.cluster),
        None => RunId::default(),
    };
    let mut bucket_no = 0u32;
    let mut resumed_from = None;
    let mut last_save = Instant::now();
    let mut saved: Option<u32> = None;
    let start = exp.start();
    if let (Some(dir), true) = (dir, sh.opts.resume) {
        super::net::quiet_panics();
        let radix = exp.radix();
        let want = Expect {
            radix: &radix,
            start: &start,
            peers,
            moves: model.moves.len(),
        };
        let got = load(dir, &id, me, &mut own, &mut tries, &want);
        let alike;
        (bucket_no, alike) = net.all_read(got, dir)?;
        net.all_consistent(alike, &[], None, dir)?;
        resumed_from = Some(bucket_no);
        saved = Some(bucket_no);
        sh.stored
            .fetch_add(own.store.len() as u64, Ordering::Relaxed);
    } else if owner(&start, peers) == me {
        own.offer(
            &tries,
            &start,
            Cand {
                cost: 0,
                parent: [u32::MAX; 4],
                phash: 0,
                pnodes: &vec![0; nt],
            },
        );
        sh.stored.fetch_add(1, Ordering::Relaxed);
    }
    let stream = sh
        .opts
        .stream_bytes
        .unwrap_or((STREAM_BYTES / peers).max(STREAM_MIN));
    let mut stop = 0u32;
    let mut cur = vec![0u32; words];
    let mut scratch = vec![0u32; words];
    let mut pnodes = vec![0u32; nt];
    // The nodes of the label being expanded (its successors borrow them).
    let mut nodes = vec![0u32; nt];
    let mut succ = Successors::default();
    let mut pacer = Pacer::default();
    let outcome = loop {
        let t0 = Instant::now();
        let sent0 = net.sent;
        // Round 1: the cheapest open bucket anywhere, and the stop flags.
        let mut mine = Batch::default();
        mine.u32(stop);
        // Worker 0 keeps the time between snapshots.
        let snap = me == 0
            && dir.is_some()
            && saved != Some(bucket_no)
            && last_save.elapsed() >= sh.opts.checkpoint_every;
        mine.u32(snap as u32);
        if let Some(c) = own.cheapest() {
            mine.u64((c >> 64) as u64);
            mine.u64(c as u64);
        }
        let mut flags = 0u32;
        let mut bucket: Option<u128> = None;
        let mut snap = false;
        for b in net.all_gather(&mine) {
            let mut r = Reader { b: &b, at: 0 };
            flags |= r.u32();
            snap |= r.u32() == 1;
            if r.more() {
                let c = (r.u64() as u128) << 64 | r.u64() as u128;
                bucket = Some(bucket.map_or(c, |m| m.min(c)));
            }
        }
        if flags & STOP_BROKEN != 0 {
            return Err(super::broken(&sh.opts));
        }
        if flags != 0 {
            break DistOutcome::Cutoff(super::cutoff_of(flags, &sh.opts));
        }
        let Some(c) = bucket else {
            break DistOutcome::Unsolvable;
        };
        if let (Some(dir), true) = (dir, snap) {
            // Every worker writes its part; worker 0 names the bucket once all have;
            // then the previous snapshot goes.
            let saved_here = save(dir, &id, me, bucket_no, &own, &tries, words);
            net.all_ok(saved_here, "write its snapshot")?;
            if me == 0 {
                checkpoint::complete(dir, &id, bucket_no)?;
            }
            net.all_gather(&Batch::default());
            if let Some(old) = saved {
                let file = snapshot_file(dir, old, me);
                let _ = std::fs::remove_file(&file);
                if let Some(d) = file.parent() {
                    let _ = std::fs::remove_dir(d);
                }
            }
            saved = Some(bucket_no);
            last_save = Instant::now();
        }
        // Settle this worker's labels of cost `c`; their new nodes go to everyone.
        let ids: Vec<u32> = own.queue.remove(&c).unwrap_or_default();
        let mut settled = vec![];
        let mut made: Vec<Vec<(u32, Action)>> = vec![vec![]; nt];
        let mut goals = vec![];
        for id in ids {
            let i = id as usize;
            let l = &mut own.labels;
            if l.cost[i] != c || l.settled[i] {
                continue;
            }
            l.settled[i] = true;
            settled.push(id);
            let act = Action::from_raw(l.parent[i][2]);
            let root = l.parent[i][0] == u32::MAX;
            for (t, m) in made.iter_mut().enumerate() {
                let p = l.pnode[i * nt + t];
                l.node[i * nt + t] = if !root && table.extends(act, t) {
                    m.push((p, act));
                    // Local until the gather numbers it: marked by the top bit.
                    (m.len() - 1) as u32 | 1 << 31
                } else {
                    p
                };
            }
            own.store.load(id, &mut cur);
            let goal = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exp.is_goal(&cur)));
            match goal {
                Ok(true) => goals.push(id),
                Ok(false) => {}
                Err(_) => stop |= STOP_BROKEN,
            }
        }
        let mut mine = Batch::default();
        mine.u32(goals.len() as u32);
        for m in &made {
            mine.u32(m.len() as u32);
            for &(p, a) in m {
                mine.u32(p);
                mine.u32(a.raw());
            }
        }
        let mut base = vec![0u32; nt];
        let mut any_goal = false;
        for (w, b) in net.all_gather(&mine).iter().enumerate() {
            let mut r = Reader { b, at: 0 };
            any_goal |= r.u32() > 0;
            for (t, bt) in base.iter_mut().enumerate() {
                let n = r.u32();
                if w == me {
                    *bt = tries.len(t) as u32;
                }
                for _ in 0..n {
                    let (p, a) = (r.u32(), Action::from_raw(r.u32()));
                    tries.child(t, p, a);
                }
            }
        }
        for &id in &settled {
            let nodes = &mut own.labels.node[id as usize * nt..(id as usize + 1) * nt];
            for (t, n) in nodes.iter_mut().enumerate() {
                if *n & 1 << 31 != 0 {
                    *n = base[t] + (*n & !(1 << 31));
                }
            }
        }
        // Node numbers keep their top bit for the local marks above: a run whose tries
        // come near 2^31 nodes stops as out of memory, on every worker alike.
        if (0..nt).any(|t| tries.len(t) >= TRIE_CAP) {
            stop |= STOP_MEMORY;
        }
        if any_goal {
            let actions = best_goal_path(net, &own, &tries, &goals)
                .map_err(|()| super::unlinked(&sh.opts))?;
            break DistOutcome::Solved(actions);
        }
        // Round 3: expand the settled labels; successors go to their owners.
        let mut out = net.empty();
        let mut expanded = 0u64;
        let stored_before = own.store.len();
        for &id in &settled {
            let i = id as usize;
            own.store.load(id, &mut cur);
            let phash = hash_words(&cur);
            if !super::expand(exp, &cur, &mut succ) {
                stop |= STOP_BROKEN;
                break;
            }
            expanded += 1;
            nodes.copy_from_slice(&own.labels.node[i * nt..(i + 1) * nt]);
            for k in 0..succ.len() {
                let s = succ.state(k, words);
                let act = succ.actions[k];
                let cost = c + inc[act.mv().index()];
                let to = if peers == 1 { 0 } else { owner(s, peers) };
                if to == me {
                    let cand = Cand {
                        cost,
                        parent: [me as u32, id, act.raw(), k as u32],
                        phash,
                        pnodes: &nodes,
                    };
                    own.offer(&tries, s, cand);
                    continue;
                }
                let b = &mut out[to];
                b.words(s);
                for j in (0..nc).rev() {
                    b.u32((cost >> (32 * j)) as u32);
                }
                b.u32(id);
                b.u32(act.raw());
                b.u32(k as u32);
                b.u64(phash);
                b.words(&nodes);
                if b.0.len() >= stream {
                    net.send_now(to, &mut out[to]);
                    for (sender, b) in net.poll() {
                        take_in(&mut own, &tries, nc, &mut scratch, &mut pnodes, sender, &b);
                    }
                }
            }
            if let Err(c) = pacer.tick(succ.units().max(1), budget) {
                stop |= match c {
                    Cutoff::Memory(_) => STOP_MEMORY,
                    _ => STOP_TIME,
                };
                break;
            }
        }
        for (sender, b) in net.exchange(out) {
            take_in(&mut own, &tries, nc, &mut cur, &mut pnodes, sender, &b);
        }
        let new_here = (own.store.len() - stored_before) as u64;
        let stored_now = sh.stored.fetch_add(new_here, Ordering::Relaxed) + new_here;
        if sh.opts.max_states.is_some_and(|m| stored_now as usize > m) {
            stop |= STOP_STATES;
        }
        sh.layers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(LayerStat {
                depth: bucket_no,
                cost: (0..nc).rev().map(|j| (c >> (32 * j)) as u32).collect(),
                worker: me,
                expanded,
                stored: new_here,
                bytes_sent: net.sent - sent0,
                seconds: t0.elapsed().as_secs_f64(),
            });
        bucket_no += 1;
    };
    // Every worker's count of its stored states, summed.
    let mut mine = Batch::default();
    mine.u64(own.store.len() as u64);
    let all = net.all_gather(&mine);
    let total: u64 = all.iter().map(|b| Reader { b, at: 0 }.u64()).sum();
    Ok(BucketEnd {
        outcome,
        total_stored: total,
        resumed_from,
    })
}

/// The best goal of the bucket (each worker offers its best), then its path.
fn best_goal_path(
    net: &mut Rounds,
    own: &Owner,
    tries: &Tries,
    goals: &[u32],
) -> Result<Vec<(Action, u32)>, ()> {
    let nt = own.labels.nt;
    let nodes = |id: u32| &own.labels.node[id as usize * nt..(id as usize + 1) * nt];
    let order = |a: &[u32], b: &[u32]| {
        (0..nt)
            .map(|t| tries.cmp(t, a[t], b[t]))
            .find(|o| *o != Cmp::Equal)
            .unwrap_or(Cmp::Equal)
    };
    // Each worker's count of states (no path is longer than the run's), and its best goal.
    let mut mine = Batch::default();
    mine.u64(own.store.len() as u64);
    if let Some(&g) = goals.iter().min_by(|&&a, &&b| order(nodes(a), nodes(b))) {
        mine.u32(g);
        mine.words(nodes(g));
    }
    let mut best: Option<(usize, u32, Vec<u32>)> = None;
    let mut states = 0u64;
    for (w, b) in net.all_gather(&mine).iter().enumerate() {
        let mut r = Reader { b, at: 0 };
        states += r.u64();
        if !r.more() {
            continue;
        }
        let g = r.u32();
        let mut n = vec![0u32; nt];
        r.words(&mut n);
        if best
            .as_ref()
            .is_none_or(|(_, _, bn)| order(&n, bn) == Cmp::Less)
        {
            best = Some((w, g, n));
        }
    }
    let (holder, lid, _) = best.ok_or(())?;
    super::walk_back(net, &own.labels.parent, holder, lid, states)
}
