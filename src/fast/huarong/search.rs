//! The per-query search: the blank's walk to the token's sides, then a shortest path
//! over (token cell, blank side) by swaps and detours (A* with [`open_bound`] for one goal
//! cell, Dijkstra for several), and the path the interpreter's tie rule picks, built from
//! it a move at a time.

use std::time::Instant;

use crate::compile::{Action, DirId, MoveId, Place};
use crate::engine::level::Board;
use crate::engine::Level;
use crate::search::{Budget, Cutoff, Stats};

use super::prep::Prep;
use super::{FastOutcome, FastPath, Huarong, CACHE_BOARDS, CLOCK_EVERY, INF, OPP, PAIR};

/// Search arrays reused from one query to the next, cleared by epoch stamps.
#[derive(Default)]
pub(super) struct Scratch {
    epoch: u32,
    /// Per cell: (stamp, the blank's steps from its start) while the token has not moved.
    cd: Vec<(u32, u32)>,
    /// Per cell: stamp when it is a goal (several goal cells).
    gmark: Vec<u32>,
    /// Per (cell, side): (stamp, cost).
    sg: Vec<(u32, u32)>,
    /// Buckets of the blank's walks: (cell, steps) by key modulo 8.
    walk: [std::collections::VecDeque<(u32, u32)>; 8],
    /// Buckets of (state, cost) by key modulo their count.
    ring: Vec<Vec<(u32, u32)>>,
    /// Keys `lo..=hi` (under the mask then in use) may still hold entries.
    dirty: (u32, u32, usize),
}

impl Scratch {
    fn fit(&mut self, n: usize) {
        if self.cd.len() < n {
            self.cd.resize(n, (0, 0));
            self.gmark.resize(n, 0);
        }
        if self.sg.len() < n * 4 {
            self.sg.resize(n * 4, (0, 0));
        }
    }

    /// A stamp no array holds yet.
    fn bump(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.cd.fill((0, 0));
            self.gmark.fill(0);
            self.sg.fill((0, 0));
            self.epoch = 1;
        }
        self.epoch
    }
}

fn manhattan(a: (u32, u32), b: (u32, u32)) -> u32 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// The exact cost on an open board without fixed cells (so a lower bound everywhere, and
/// consistent: fixed cells only lengthen detours) of bringing the token from `(r, c)` to
/// the goal `g` with the blank on side `k` (N S W E). With `a`, `b` the row and column
/// distances: 0 at the goal; `6a - 2` (blank on a side towards the goal) or `6a` when
/// `a == b`; else, with `B = max`, `s = min`: on the longer axis `5B + s - 4` towards,
/// `5B + s` away, and `5B + s - 2` on the shorter axis. (Checked against a search of the
/// open board in this module's tests.)
fn open_bound((r, c): (u32, u32), (gr, gc): (u32, u32), k: usize) -> u32 {
    let (a, b) = (r.abs_diff(gr), c.abs_diff(gc));
    let towards = match k {
        0 => r > gr,
        1 => r < gr,
        2 => c > gc,
        _ => c < gc,
    };
    if a == b {
        return if a == 0 {
            0
        } else {
            6 * a - 2 * towards as u32
        };
    }
    let (big, small) = (a.max(b), a.min(b));
    if (k < 2) == (a > b) {
        5 * big + small - 4 * towards as u32
    } else {
        5 * big + small - 2
    }
}

/// The blank's fewest steps from `e` to each side of the token at `s` named in `want`
/// (bits by compass direction; each must be reachable without passing `s`), or where the
/// budget ran out. A* with the bound "Manhattan distance to the nearest side still wanted",
/// newest entry first among equal keys so it runs straight across open ground. The bound grows as sides are found; an entry keyed before is
/// filed again under its new key when it comes up.
fn blank_walks(
    p: &Prep,
    sc: &mut Scratch,
    e: usize,
    s: usize,
    mut want: u8,
    budget: &Budget,
    stats: &mut Stats,
) -> Result<[u32; 4], Cutoff> {
    let max_stored = budget.max_states.map_or(u64::MAX, |m| m as u64);
    let mut d = [INF; 4];
    let ep = sc.bump();
    let side = [p.step(s, 0), p.step(s, 1), p.step(s, 2), p.step(s, 3)];
    let pos = side.map(|x| p.rc[x]);
    let h = |want: u8, x: usize| -> u32 {
        let rc = p.rc[x];
        (0..4)
            .filter(|&k| want >> k & 1 == 1)
            .map(|k| manhattan(rc, pos[k]))
            .min()
            .unwrap_or(0)
    };
    for b in &mut sc.walk {
        b.clear();
    }
    sc.cd[s] = (ep, 0);
    sc.cd[e] = (ep, 0);
    let mut f = h(want, e);
    sc.walk[f as usize & 7].push_back((e as u32, 0));
    let mut pending = 1usize;
    while pending > 0 {
        while let Some((x, g)) = sc.walk[f as usize & 7].pop_back() {
            pending -= 1;
            let x = x as usize;
            if sc.cd[x].1 != g {
                continue;
            }
            // Keyed before a side was found: file it under its key now, behind the
            // entries of that key already there (they are deeper: newer ground).
            let key = g + h(want, x);
            if key > f {
                sc.walk[key as usize & 7].push_front((x as u32, g));
                pending += 1;
                continue;
            }
            stats.expanded += 1;
            if stats.stored >= max_stored {
                return Err(Cutoff::States(max_stored as usize));
            }
            if stats.expanded.is_multiple_of(CLOCK_EVERY) {
                if let Some(c) = budget.check(stats) {
                    return Err(c);
                }
            }
            if let Some(k) = (0..4).find(|&k| want >> k & 1 == 1 && side[k] == x) {
                d[k] = g;
                want &= !(1 << k);
                if want == 0 {
                    return Ok(d);
                }
            }
            for k in 0..4 {
                let y = p.step(x, k);
                if !p.free[y] {
                    continue;
                }
                let c = &mut sc.cd[y];
                if c.0 == ep && c.1 <= g + 1 {
                    continue;
                }
                if c.0 != ep {
                    stats.stored += 1;
                }
                *c = (ep, g + 1);
                let key = g + 1 + h(want, y);
                sc.walk[key as usize & 7].push_back((y as u32, g + 1));
                pending += 1;
            }
        }
        f += 1;
    }
    debug_assert_eq!(want, 0, "a wanted side is out of the blank's reach");
    Ok(d)
}

/// The indices of the items that pass `test`, found a chunk at a time (the judge's goal is
/// one marked cell among many).
fn scan<T: Copy>(items: &[T], test: impl Fn(T) -> bool) -> Vec<usize> {
    let mut out = vec![];
    for (i, chunk) in items.chunks(32).enumerate() {
        if chunk.iter().fold(false, |a, &x| a | test(x)) {
            out.extend(
                (0..chunk.len())
                    .filter(|&j| test(chunk[j]))
                    .map(|j| i * 32 + j),
            );
        }
    }
    out
}

/// Why the search stopped without an answer.
enum Stop {
    Unsolvable,
    Cut(Cutoff),
}

impl FastPath for Huarong {
    fn name(&self) -> &'static str {
        "huarong"
    }

    fn solve(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let t0 = Instant::now();
        let mut stats = Stats::default();
        let out = self.run(level, budget, need_path, &mut stats);
        stats.elapsed = t0.elapsed();
        (out, stats)
    }
}

impl Huarong {
    /// The index in `preps` of the tables for `b`, found or built now (evicting the oldest).
    fn prep_for(&mut self, b: &Board, budget: &Budget) -> Result<usize, Cutoff> {
        if let Some(i) = self.preps.iter().rposition(|p| p.matches(b, self.fixed)) {
            return Ok(i);
        }
        let p = Prep::build(b, self.fixed, budget)?;
        if self.preps.len() >= CACHE_BOARDS {
            self.preps.remove(0);
        }
        self.preps.push(p);
        Ok(self.preps.len() - 1)
    }

    fn run(
        &mut self,
        level: &Level,
        budget: &Budget,
        need_path: bool,
        stats: &mut Stats,
    ) -> FastOutcome {
        let b = &level.board;
        let find = |piece| {
            level
                .instances
                .iter()
                .find(|i| i.piece == piece)
                .map(|i| i.cell as usize)
        };
        let (Some(e0), Some(s0)) = (find(self.blank), find(self.token)) else {
            return FastOutcome::Unsolvable;
        };
        let is_goal = |cell: usize| match self.goal {
            Place::Tile(t) => b.tiles[cell] == t,
            Place::Mark(k) => b.has_mark(cell as u32, k),
        };
        if is_goal(s0) {
            return FastOutcome::Solved {
                cost: vec![0],
                actions: need_path.then(Vec::new),
            };
        }
        if e0 == s0 || b.tiles[e0] == self.fixed || b.tiles[s0] == self.fixed {
            return FastOutcome::Unsolvable;
        }
        let pi = match self.prep_for(b, budget) {
            Ok(i) => i,
            Err(c) => return FastOutcome::Cutoff(c),
        };
        let p = &self.preps[pi];
        // Goal cells (padded), in increasing order.
        let goals: Vec<usize> = match self.goal {
            Place::Tile(t) => scan(&b.tiles, |x| x == t),
            Place::Mark(k) => scan(&b.marks, |m| m >> k.0 & 1 == 1),
        };
        let goals: Vec<usize> = goals.into_iter().map(|c| p.pad(c)).collect();
        let (e, s) = (p.pad(e0), p.pad(s0));
        let mut sc = std::mem::take(&mut self.scratch);
        sc.fit(p.free.len());
        let out = match self.cost_from(p, &mut sc, e, s, &goals, budget, stats) {
            Err(Stop::Unsolvable) => FastOutcome::Unsolvable,
            Err(Stop::Cut(c)) => FastOutcome::Cutoff(c),
            Ok(cost) if need_path => match self.path(p, &mut sc, e, s, cost, &goals, budget, stats)
            {
                Ok(actions) => FastOutcome::Solved {
                    cost: vec![cost as u64],
                    actions: Some(actions),
                },
                Err(c) => FastOutcome::Cutoff(c),
            },
            Ok(cost) => FastOutcome::Solved {
                cost: vec![cost as u64],
                actions: None,
            },
        };
        self.scratch = sc;
        out
    }

    /// The fewest moves from the blank on `e` and the token on `s` (distinct free padded
    /// cells) to the token on one of `goals` (padded, increasing).
    #[allow(clippy::too_many_arguments)]
    fn cost_from(
        &self,
        p: &Prep,
        sc: &mut Scratch,
        e: usize,
        s: usize,
        goals: &[usize],
        budget: &Budget,
        stats: &mut Stats,
    ) -> Result<u32, Stop> {
        if goals.binary_search(&s).is_ok() {
            return Ok(0);
        }
        if p.comp[e] != p.comp[s] {
            return Err(Stop::Unsolvable);
        }
        // The states the blank can start the token from all lie in one component of the
        // state graph; only goal cells with a state in it can be reached.
        let bl = p.blank_block(e, s);
        let Some(k0) = (0..4).find(|&k| bl != INF && p.block[s * 4 + k] == bl) else {
            return Err(Stop::Unsolvable);
        };
        let cs = p.scomp[s * 4 + k0];
        let goals: Vec<usize> = goals
            .iter()
            .copied()
            .filter(|&g| p.comp[g] == p.comp[s] && p.scomp[g * 4..g * 4 + 4].contains(&cs))
            .collect();
        if goals.is_empty() {
            return Err(Stop::Unsolvable);
        }
        // The blank's fewest steps to each side it can reach (those in its block).
        let want = (0..4).fold(0u8, |m, k| m | u8::from(p.block[s * 4 + k] == bl) << k);
        let d0 = blank_walks(p, sc, e, s, want, budget, stats).map_err(Stop::Cut)?;
        self.search(p, sc, s, &d0, &goals, budget, stats)
    }

    /// Shortest path over states `cell * 4 + side` (token cell, side of the blank) from the
    /// token's start sides (costs `d0`) to a goal cell; edges swap (cost 1: the token moves
    /// to side `k`, the blank lands on the opposite side) and detour (the precomputed cost
    /// of taking the blank round to another side). Returns the cost.
    /// With one goal cell, A* with [`open_bound`]; with several, Dijkstra.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        p: &Prep,
        sc: &mut Scratch,
        s: usize,
        d0: &[u32; 4],
        goals: &[usize],
        budget: &Budget,
        stats: &mut Stats,
    ) -> Result<u32, Stop> {
        let ep = sc.bump();
        // States stored: the blank's cells walked first, then (token cell, side) states.
        let max_stored = budget.max_states.map_or(u64::MAX, |m| m as u64);
        let single = (goals.len() == 1).then(|| p.rc[goals[0]]);
        let goal0 = goals[0];
        if single.is_none() {
            for &g in goals {
                sc.gmark[g] = ep;
            }
        }
        let h = |c: usize, k: usize| -> u32 {
            match single {
                Some(g) => open_bound(p.rc[c], g, k),
                None => 0,
            }
        };
        // Keys rise by at most the largest detour plus the bound's largest change.
        let span = (p.max_det as usize + 16).next_power_of_two();
        if sc.ring.len() < span {
            sc.ring.resize_with(span, Vec::new);
        }
        let mask = span - 1;
        // Empty the buckets the last search left entries in.
        let (lo, hi, old_mask) = sc.dirty;
        for key in lo..=hi {
            sc.ring[key as usize & old_mask].clear();
        }
        sc.dirty = (1, 0, 0);
        let (mut f, mut fmax) = (u32::MAX, 0u32);
        let mut pending = 0usize;
        for (k, &d) in d0.iter().enumerate() {
            if d == INF {
                continue;
            }
            let st = s * 4 + k;
            sc.sg[st] = (ep, d);
            let key = d + h(s, k);
            f = f.min(key);
            fmax = fmax.max(key);
            sc.ring[key as usize & mask].push((st as u32, d));
            pending += 1;
            stats.stored += 1;
        }
        while pending > 0 {
            let bi = f as usize & mask;
            while let Some((st, g)) = sc.ring[bi].pop() {
                pending -= 1;
                let st = st as usize;
                if sc.sg[st].1 != g {
                    continue;
                }
                stats.expanded += 1;
                let cut = if stats.stored >= max_stored {
                    Some(Cutoff::States(max_stored as usize))
                } else if stats.expanded.is_multiple_of(CLOCK_EVERY) {
                    budget.check(stats)
                } else {
                    None
                };
                if let Some(cut) = cut {
                    sc.dirty = (f, fmax, mask);
                    return Err(Stop::Cut(cut));
                }
                let (c, k) = (st / 4, st % 4);
                if c == goal0 || (single.is_none() && sc.gmark[c] == ep) {
                    sc.dirty = (f, fmax, mask);
                    return Ok(g);
                }
                let mut relax = |t: usize, ng: u32, sc: &mut Scratch, hv: u32| {
                    let e = &mut sc.sg[t];
                    if e.0 != ep {
                        stats.stored += 1;
                    } else if ng >= e.1 {
                        return;
                    }
                    *e = (ep, ng);
                    let key = ng + hv;
                    fmax = fmax.max(key);
                    sc.ring[key as usize & mask].push((t as u32, ng));
                    pending += 1;
                    stats.generated += 1;
                };
                // Swap: the token moves to side k; the blank lands on the opposite side.
                let c2 = p.step(c, k);
                relax(c2 * 4 + OPP[k], g + 1, sc, h(c2, OPP[k]));
                // Detours: the blank walks round the token to another side.
                let row = &p.det[c * 6..c * 6 + 6];
                for (j, &slot) in PAIR[k].iter().enumerate() {
                    if j == k || row[slot] == INF {
                        continue;
                    }
                    relax(c * 4 + j, g + row[slot], sc, h(c, j));
                }
            }
            f += 1;
        }
        Err(Stop::Unsolvable)
    }

    /// The actions of the solution the tie rule picks, from the blank on `e` and the token
    /// on `s`, `cost` moves from a goal: at each step the first move in the model's
    /// direction order whose next state is one move closer. Should the distances ever
    /// disagree, the actions found so far are returned and fail the replay.
    #[allow(clippy::too_many_arguments)]
    fn path(
        &self,
        p: &Prep,
        sc: &mut Scratch,
        mut e: usize,
        mut s: usize,
        cost: u32,
        goals: &[usize],
        budget: &Budget,
        stats: &mut Stats,
    ) -> Result<Vec<Action>, Cutoff> {
        // Compass direction of each model direction.
        let mut compass = [0usize; 4];
        for (k, &md) in self.dir.iter().enumerate() {
            compass[md] = k;
        }
        let mut actions = Vec::with_capacity(cost as usize);
        for left in (1..=cost).rev() {
            let mut next = None;
            for (md, &k) in compass.iter().enumerate() {
                let y = p.step(e, k);
                if !p.free[y] {
                    continue;
                }
                // The blank moves to y; onto the token, they swap.
                let (e2, s2) = if y == s { (s, e) } else { (y, s) };
                match self.cost_from(p, sc, e2, s2, goals, budget, stats) {
                    Ok(d) if d + 1 == left => {
                        next = Some((md, e2, s2));
                        break;
                    }
                    Ok(_) | Err(Stop::Unsolvable) => {}
                    Err(Stop::Cut(c)) => return Err(c),
                }
            }
            let Some((md, e2, s2)) = next else {
                break;
            };
            actions.push(Action::new(MoveId(0), DirId(md as u16)));
            (e, s) = (e2, s2);
        }
        Ok(actions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact costs on an open board: Dijkstra over (token offset from the goal, side) in a
    /// box, with swaps costing 1 and detours 2 (a quarter turn) or 4 (the opposite side).
    fn open_costs(radius: i64) -> std::collections::HashMap<(i64, i64, usize), u32> {
        use std::collections::{BinaryHeap, HashMap};
        let step = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)];
        let mut dist = HashMap::new();
        let mut heap = BinaryHeap::new();
        for k in 0..4 {
            dist.insert((0, 0, k), 0u32);
            heap.push(std::cmp::Reverse((0u32, 0i64, 0i64, k)));
        }
        while let Some(std::cmp::Reverse((d, r, c, k))) = heap.pop() {
            if dist[&(r, c, k)] < d {
                continue;
            }
            let mut next = vec![((r + step[k].0, c + step[k].1, OPP[k]), 1)];
            for j in (0..4).filter(|&j| j != k) {
                next.push(((r, c, j), if j == OPP[k] { 4 } else { 2 }));
            }
            for (s, w) in next {
                if s.0.abs() > radius || s.1.abs() > radius {
                    continue;
                }
                if dist.get(&s).is_none_or(|&old| d + w < old) {
                    dist.insert(s, d + w);
                    heap.push(std::cmp::Reverse((d + w, s.0, s.1, s.2)));
                }
            }
        }
        dist
    }

    fn bound(r: i64, c: i64, k: usize) -> u32 {
        let o = 1000;
        open_bound(((o + r) as u32, (o + c) as u32), (o as u32, o as u32), k)
    }

    #[test]
    fn open_bound_is_the_open_board_cost() {
        let dist = open_costs(30);
        for r in -16..=16 {
            for c in -16..=16 {
                for k in 0..4 {
                    assert_eq!(
                        bound(r, c, k),
                        dist[&(r, c, k)],
                        "offset ({r}, {c}), side {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn open_bound_is_consistent() {
        let step = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)];
        for r in -60..=60 {
            for c in -60..=60 {
                for k in 0..4 {
                    let h = bound(r, c, k);
                    let (r2, c2) = (r + step[k].0, c + step[k].1);
                    assert!(
                        h <= 1 + bound(r2, c2, OPP[k]),
                        "swap at ({r}, {c}), side {k}"
                    );
                    for j in (0..4).filter(|&j| j != k) {
                        let w = if j == OPP[k] { 4 } else { 2 };
                        assert!(h <= w + bound(r, c, j), "detour at ({r}, {c}), {k} -> {j}");
                    }
                    // The ring of buckets holds keys up to the largest detour plus 16 ahead.
                    assert!(1 + bound(r2, c2, OPP[k]) - h < 16);
                    for j in (0..4).filter(|&j| j != k) {
                        assert!(bound(r, c, j) + 4 - h < 16);
                    }
                }
            }
        }
    }
}
