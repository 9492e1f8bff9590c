//! Fast path for one-box pushing puzzles shaped like Sokoban (AcWing 174, POJ 1475).
//!
//! Fingerprint: two single one-cell pieces, a man and a box; four unit directions in any
//! order; static tiles; a cost vector of exactly two components; two moves (declared in
//! either order): a walk `shift M d` adding one to the second component only, and a push
//! `require B at M + d; shift B d; shift M d` adding one to the first component only;
//! forbids exactly `M on W` and `B on W` for one tile `W`, with `outside` absent or `W`;
//! goal exactly `B on G` (a tile or a mark); no limit. Anything else runs on the
//! interpreter.
//!
//! Solver: a search over (box cell, side of the box the man stands on) by pushes, layer by
//! layer: a state first reached after `p` pushes has exactly `p` as its fewest pushes, and
//! its fewest walks is the least over its predecessors in layer `p - 1`. The walk between
//! two sides of the box is a breadth-first search with the box as the only extra obstacle,
//! run lazily once per (box cell, side) and stopped as soon as every other side the man can
//! reach is found: which sides those are is known in advance from the biconnected
//! components of the free-cell graph (two neighbours `u`, `v` of a cell `p` stay connected
//! without `p` exactly when the edges `pu` and `pv` lie in one block). Box cells from which
//! no goal can be reached even by a man who is always in the right place are pruned first.
//!
//! Ties follow the interpreter exactly: among the solutions with the fewest (pushes,
//! walks), the smallest push sequence by the model's direction order, then each walk
//! segment the smallest shortest walk by the model's direction order. Each layer is kept
//! sorted by push sequence (a state's sequence is its parent's, then its own direction, so
//! sorting by (parent's rank, direction) is exact), successors are generated in that order
//! and a label is replaced only by a strictly cheaper one, so every state keeps its
//! smallest push sequence among its cheapest. Walk segments are rebuilt afterwards: the
//! distances to the segment's end, then from its start the first direction that gets one
//! step closer.

use web_time::Instant;

use crate::compile::{
    Action, DirId, Model, MoveId, MoveProgram, Op, PieceId, Place, Subject, TileId,
};
use crate::engine::Level;
use crate::search::{Budget, Cutoff, Stats};

use super::fingerprint::{compass, is_param, static_tiles};
use super::{FastOutcome, FastPath};

/// The Sokoban fast path for one model.
pub(crate) struct Sokoban {
    man: PieceId,
    box_: PieceId,
    /// Model index of the walk and the push move.
    walk: usize,
    push: usize,
    /// Model direction index of compass N, S, W, E.
    dir: [usize; 4],
    wall: TileId,
    goal: Place,
}

/// The piece a move walks, when it is exactly `shift M d` adding to the second component.
fn walk_piece(m: &MoveProgram) -> Option<PieceId> {
    match m.ops.as_slice() {
        [Op::Shift { piece, step, .. }] if is_param(step) && m.adds == [0, 1] => Some(*piece),
        _ => None,
    }
}

/// (man, box) of a move that is exactly `require B at M + d; shift B d; shift M d` adding
/// to the first component.
fn push_pieces(m: &MoveProgram) -> Option<(PieceId, PieceId)> {
    match m.ops.as_slice() {
        [Op::Test {
            subject: Subject::Piece(b),
            cell,
            want: true,
        }, Op::Shift {
            piece: b2,
            step: s2,
            ..
        }, Op::Shift {
            piece: m2,
            step: s3,
            ..
        }] if m.adds == [1, 0]
            && cell.step.as_ref().is_some_and(is_param)
            && is_param(s2)
            && is_param(s3)
            && b == b2
            && cell.piece == *m2
            && b != m2 =>
        {
            Some((*m2, *b))
        }
        _ => None,
    }
}

impl Sokoban {
    /// Accepts a model whose rules are exactly those above, or says what differs.
    pub(crate) fn detect(model: &Model) -> Result<Sokoban, String> {
        static_tiles(model)?;
        if model.limit.is_some() {
            return Err("has a move limit".into());
        }
        if model.costs.len() != 2 {
            return Err(format!(
                "needs two cost components, has {}",
                model.costs.len()
            ));
        }
        if model.pieces.len() != 2 {
            return Err(format!("needs two pieces, has {}", model.pieces.len()));
        }
        if model
            .pieces
            .iter()
            .any(|p| p.anonymous || p.poses.len() != 1 || p.poses[0].cells != [(0, 0)])
        {
            return Err("the pieces must be single one-cell pieces".into());
        }
        let dir = compass(model)?;
        let [m0, m1] = model.moves.as_slice() else {
            return Err(format!("needs two moves, has {}", model.moves.len()));
        };
        let (walk, push, man, box_) = match (walk_piece(m0), push_pieces(m1)) {
            (Some(w), Some((m, b))) if w == m => (0, 1, m, b),
            _ => match (walk_piece(m1), push_pieces(m0)) {
                (Some(w), Some((m, b))) if w == m => (1, 0, m, b),
                _ => {
                    return Err(
                        "the moves are not a walk `shift M d` adding the second cost \
                                and a push `require B at M + d; shift B d; shift M d` adding \
                                the first"
                            .into(),
                    )
                }
            },
        };
        let wall = match model.forbids.as_slice() {
            [f, g]
                if f.pose.is_none()
                    && g.pose.is_none()
                    && f.place == g.place
                    && ((f.piece, g.piece) == (man, box_) || (f.piece, g.piece) == (box_, man)) =>
            {
                match f.place {
                    Place::Tile(t) => t,
                    Place::Mark(_) => return Err("the forbidden place is a mark".into()),
                }
            }
            _ => return Err("forbids are not exactly `M on W` and `B on W`".into()),
        };
        if model.outside.is_some_and(|o| o != wall) {
            return Err("outside the board is not the forbidden tile".into());
        }
        let goal = match model.goal.as_slice() {
            [g] if g.piece == box_ && g.pose.is_none_or(|p| p.index() == 0) => g.on,
            _ => return Err("the goal is not exactly `B on G`".into()),
        };
        Ok(Sokoban {
            man,
            box_,
            walk,
            push,
            dir,
            wall,
            goal,
        })
    }
}

/// A distance not computed yet.
const UNKNOWN: u32 = u32::MAX;
/// No walk exists.
const INF: u32 = u32::MAX - 1;
/// The parent of the states reached by the first push.
const START: u32 = u32::MAX;
/// Index of the unordered pair of sides {s, t} (s != t) in a cell's distance cache.
const PAIR: [[usize; 4]; 4] = [[6, 0, 1, 2], [0, 6, 3, 4], [1, 3, 6, 5], [2, 4, 5, 6]];

/// Breadth-first search scratch space, reused across searches by stamping.
struct Bfs {
    seen: Vec<u32>,
    dist: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
}

impl Bfs {
    fn new(n: usize) -> Bfs {
        Bfs {
            seen: vec![0; n],
            dist: vec![0; n],
            stamp: 0,
            queue: Vec::with_capacity(n),
        }
    }

    /// Distances from `from` to each of `targets` (INF when unreachable) over free cells
    /// other than `blocked`, stopping once every target is found. Afterwards `dist[c]` is
    /// valid for every cell `c != blocked` with `seen[c] == stamp`.
    fn run(
        &mut self,
        free: &[bool],
        off: &[isize; 4],
        from: usize,
        blocked: usize,
        targets: &[usize],
        out: &mut [u32],
    ) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let st = self.stamp;
        let (seen, dist, queue) = (&mut self.seen, &mut self.dist, &mut self.queue);
        seen[blocked] = st;
        seen[from] = st;
        dist[from] = 0;
        let mut left = 0;
        for (o, &t) in out.iter_mut().zip(targets) {
            if t == from {
                *o = 0;
            } else {
                *o = INF;
                left += 1;
            }
        }
        if left == 0 {
            return;
        }
        queue.clear();
        queue.push(from as u32);
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head] as usize;
            head += 1;
            let dc = dist[c] + 1;
            for &o in off {
                let x = (c as isize + o) as usize;
                if !free[x] || seen[x] == st {
                    continue;
                }
                seen[x] = st;
                dist[x] = dc;
                queue.push(x as u32);
                for (i, &t) in targets.iter().enumerate() {
                    if t == x {
                        out[i] = dc;
                        left -= 1;
                        if left == 0 {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The block (biconnected component) of every edge of the free-cell graph:
/// `blk[c * 4 + k]` for the edge from `c` towards compass `k` (`u32::MAX` when absent).
/// Iterative Tarjan with an edge stack.
fn edge_blocks(free: &[bool], off: &[isize; 4]) -> Vec<u32> {
    let n = free.len();
    let mut blk = vec![u32::MAX; n * 4];
    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut time = 0u32;
    // (cell, parent cell, next compass direction to try)
    let mut frames: Vec<(u32, u32, u8)> = vec![];
    let mut edges: Vec<(u32, u8)> = vec![];
    let mut nb = 0u32;
    for root in 0..n {
        if !free[root] || disc[root] != 0 {
            continue;
        }
        time += 1;
        disc[root] = time;
        low[root] = time;
        frames.push((root as u32, u32::MAX, 0));
        while let Some(&(v, par, k)) = frames.last() {
            let v = v as usize;
            if k < 4 {
                frames.last_mut().expect("nonempty").2 += 1;
                let w = (v as isize + off[k as usize]) as usize;
                if !free[w] || w as u32 == par {
                    continue;
                }
                if disc[w] == 0 {
                    edges.push((v as u32, k));
                    time += 1;
                    disc[w] = time;
                    low[w] = time;
                    frames.push((w as u32, v as u32, 0));
                } else if disc[w] < disc[v] {
                    edges.push((v as u32, k));
                    low[v] = low[v].min(disc[w]);
                }
            } else {
                frames.pop();
                if let Some(&(u, _, _)) = frames.last() {
                    let u = u as usize;
                    low[u] = low[u].min(low[v]);
                    if low[v] >= disc[u] {
                        while let Some((x, k)) = edges.pop() {
                            let (x, k) = (x as usize, k as usize);
                            let y = (x as isize + off[k]) as usize;
                            blk[x * 4 + k] = nb;
                            blk[y * 4 + (k ^ 1)] = nb;
                            if x == u && y == v {
                                break;
                            }
                        }
                        nb += 1;
                    }
                }
            }
        }
    }
    blk
}

impl FastPath for Sokoban {
    fn name(&self) -> &'static str {
        "sokoban"
    }

    fn solve(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let t0 = Instant::now();
        let mut stats = Stats::default();
        let b = &level.board;
        let (rows, cols) = (b.rows, b.cols);
        // A padded grid: one ring of wall around the board.
        let w = cols + 2;
        let n = (rows + 2) * w;
        let off: [isize; 4] = [-(w as isize), w as isize, -1, 1];
        let pad = |cell: u32| (cell as usize / cols + 1) * w + cell as usize % cols + 1;
        let mut free = vec![false; n];
        let mut goal = vec![false; n];
        for r in 0..rows {
            for c in 0..cols {
                let cell = (r * cols + c) as u32;
                let p = (r + 1) * w + c + 1;
                free[p] = b.tiles[cell as usize] != self.wall;
                goal[p] = free[p]
                    && match self.goal {
                        Place::Tile(g) => b.tiles[cell as usize] == g,
                        Place::Mark(k) => b.has_mark(cell, k),
                    };
            }
        }
        let find = |piece: PieceId| {
            level
                .instances
                .iter()
                .find(|i| i.piece == piece)
                .map(|i| pad(i.cell))
        };
        let (Some(man0), Some(box0)) = (find(self.man), find(self.box_)) else {
            stats.elapsed = t0.elapsed();
            return (FastOutcome::Unsolvable, stats);
        };
        let done = |stats: &mut Stats, out: FastOutcome| {
            stats.elapsed = t0.elapsed();
            (out, std::mem::take(stats))
        };
        if goal[box0] {
            stats.stored = 1;
            return done(
                &mut stats,
                FastOutcome::Solved {
                    cost: vec![0, 0],
                    actions: need_path.then(Vec::new),
                },
            );
        }
        // Model direction i is compass order[i].
        let mut order = [0usize; 4];
        for (k, &i) in self.dir.iter().enumerate() {
            order[i] = k;
        }
        // Cells the box can still bring to a goal if the man were always in place: a push
        // from x towards k needs x - k (the man) and x + k free.
        let mut alive = goal.clone();
        let mut stack: Vec<usize> = (0..n).filter(|&c| goal[c]).collect();
        while let Some(y) = stack.pop() {
            for &o in &off {
                let x = (y as isize - o) as usize;
                if free[x] && !alive[x] && free[(x as isize - o) as usize] {
                    alive[x] = true;
                    stack.push(x);
                }
            }
        }
        if !alive[box0] {
            return done(&mut stats, FastOutcome::Unsolvable);
        }
        let blk = edge_blocks(&free, &off);
        if let Some(c) = budget.check(&stats) {
            return done(&mut stats, FastOutcome::Cutoff(c));
        }
        let mut bfs = Bfs::new(n);
        let mut cache = vec![UNKNOWN; n * 6];
        let nstates = n * 4;
        let mut walks = vec![u32::MAX; nstates];
        let mut parent = vec![START; nstates];
        let mut layer_of = vec![0u32; nstates];
        let mut rank = vec![0u32; nstates];
        let mut cur: Vec<u32> = vec![];
        let mut next: Vec<u32> = vec![];
        let mut stored = 0usize;

        // The first push: walks from the man's start with the box at its start.
        {
            // Only sides the man can stand on, so the search stops once all are found.
            let mut targets = [0usize; 4];
            let mut tside = [0usize; 4];
            let mut nt = 0;
            for (k, &o) in off.iter().enumerate() {
                let c = (box0 as isize + o) as usize;
                if free[c] {
                    targets[nt] = c;
                    tside[nt] = k;
                    nt += 1;
                }
            }
            let mut found = [INF; 4];
            bfs.run(&free, &off, man0, box0, &targets[..nt], &mut found[..nt]);
            let mut d = [INF; 4];
            for j in 0..nt {
                d[tside[j]] = found[j];
            }
            for &k in &order {
                let dest = (box0 as isize + off[k]) as usize;
                let side = k ^ 1;
                if !alive[dest] || d[side] >= INF {
                    continue;
                }
                let y = dest * 4 + side;
                walks[y] = d[side];
                parent[y] = START;
                layer_of[y] = 1;
                next.push(y as u32);
            }
        }
        let mut layer = 1u32;
        let mut since_clock = 0u32;
        loop {
            if next.is_empty() {
                stats.stored = stored as u64;
                return done(&mut stats, FastOutcome::Unsolvable);
            }
            stored += next.len();
            let dir = &self.dir;
            let rank_ref = &rank;
            next.sort_unstable_by_key(|&y| {
                let p = parent[y as usize];
                let r = if p == START { 0 } else { rank_ref[p as usize] };
                r as u64 * 4 + dir[(y as usize & 3) ^ 1] as u64
            });
            // The cheapest goal of the layer; the first in push-sequence order among equals.
            let mut best: Option<usize> = None;
            for &y in &next {
                let y = y as usize;
                if goal[y >> 2] && best.is_none_or(|b| walks[y] < walks[b]) {
                    best = Some(y);
                }
            }
            if let Some(g) = best {
                stats.stored = stored as u64;
                let cost = vec![layer as u64, walks[g] as u64];
                let actions = need_path.then(|| {
                    let mut chain = vec![];
                    let mut y = g as u32;
                    while y != START {
                        chain.push(y as usize);
                        y = parent[y as usize];
                    }
                    chain.reverse();
                    self.rebuild(&chain, &free, &off, &order, man0, box0, &mut bfs)
                });
                debug_assert!(actions
                    .as_ref()
                    .is_none_or(|a| a.len() as u64 == cost[0] + cost[1]));
                return done(&mut stats, FastOutcome::Solved { cost, actions });
            }
            stats.stored = stored as u64;
            if let Some(c) = budget.check(&stats) {
                return done(&mut stats, FastOutcome::Cutoff(c));
            }
            if let Some(m) = budget.max_states.filter(|&m| stored >= m) {
                return done(&mut stats, FastOutcome::Cutoff(Cutoff::States(m)));
            }
            for (i, &y) in next.iter().enumerate() {
                rank[y as usize] = i as u32;
            }
            std::mem::swap(&mut cur, &mut next);
            next.clear();
            layer += 1;
            for &x in &cur {
                let x = x as usize;
                let (p, side) = (x >> 2, x & 3);
                stats.expanded += 1;
                since_clock += 1;
                if since_clock >= 1024 {
                    since_clock = 0;
                    stats.stored = stored as u64;
                    if let Some(c) = budget.check(&stats) {
                        return done(&mut stats, FastOutcome::Cutoff(c));
                    }
                }
                // Pushes towards k need the man at p - k (side k ^ 1) and p + k alive.
                let bs = blk[p * 4 + side];
                let mut targets = [0usize; 3];
                let mut tside = [0usize; 3];
                let mut nt = 0;
                for k in 0..4 {
                    let t = k ^ 1;
                    if t == side || !alive[(p as isize + off[k]) as usize] {
                        continue;
                    }
                    if blk[p * 4 + t] != bs || cache[p * 6 + PAIR[side][t]] != UNKNOWN {
                        continue;
                    }
                    targets[nt] = (p as isize + off[t]) as usize;
                    tside[nt] = t;
                    nt += 1;
                }
                if nt > 0 {
                    let mut d = [INF; 3];
                    let from = (p as isize + off[side]) as usize;
                    bfs.run(&free, &off, from, p, &targets[..nt], &mut d[..nt]);
                    for j in 0..nt {
                        cache[p * 6 + PAIR[side][tside[j]]] = d[j];
                    }
                }
                let base = walks[x];
                for &k in &order {
                    let dest = (p as isize + off[k]) as usize;
                    if !alive[dest] {
                        continue;
                    }
                    let t = k ^ 1;
                    let dw = if t == side {
                        0
                    } else if blk[p * 4 + t] != bs {
                        continue;
                    } else {
                        cache[p * 6 + PAIR[side][t]]
                    };
                    if dw >= INF {
                        continue;
                    }
                    stats.generated += 1;
                    let y = dest * 4 + t;
                    let cand = base + dw;
                    if walks[y] == u32::MAX {
                        walks[y] = cand;
                        parent[y] = x as u32;
                        layer_of[y] = layer;
                        next.push(y as u32);
                    } else if layer_of[y] == layer && cand < walks[y] {
                        walks[y] = cand;
                        parent[y] = x as u32;
                    }
                }
            }
        }
    }
}

impl Sokoban {
    /// The actions of the solution whose states after each push are `chain`: each walk
    /// segment the smallest shortest walk in the model's direction order, then the push.
    #[allow(clippy::too_many_arguments)]
    fn rebuild(
        &self,
        chain: &[usize],
        free: &[bool],
        off: &[isize; 4],
        order: &[usize; 4],
        man0: usize,
        box0: usize,
        bfs: &mut Bfs,
    ) -> Vec<Action> {
        let (walk, push) = (MoveId(self.walk as u16), MoveId(self.push as u16));
        let mut actions = vec![];
        let (mut man, mut bx) = (man0, box0);
        for &y in chain {
            let side = y & 3;
            let k = side ^ 1;
            let spot = (bx as isize + off[side]) as usize;
            if man != spot {
                let mut d = [INF];
                bfs.run(free, off, spot, bx, &[man], &mut d);
                debug_assert!(d[0] < INF, "the walk exists");
                let st = bfs.stamp;
                let mut at = man;
                while at != spot {
                    let da = bfs.dist[at];
                    let (i, z) = (0..4)
                        .map(|i| (i, (at as isize + off[order[i]]) as usize))
                        .find(|&(_, z)| {
                            z != bx && free[z] && bfs.seen[z] == st && bfs.dist[z] + 1 == da
                        })
                        .expect("a step closer exists");
                    actions.push(Action::new(walk, DirId(i as u16)));
                    at = z;
                }
            }
            actions.push(Action::new(push, DirId(self.dir[k] as u16)));
            man = bx;
            bx = (bx as isize + off[k]) as usize;
            debug_assert_eq!(bx, y >> 2);
        }
        actions
    }
}
