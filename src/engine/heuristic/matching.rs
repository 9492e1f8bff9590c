//! The cheapest assignment of copies to distinct goal cells, for the *matching* bound: the
//! Hungarian method with potentials, its buffers kept from one state to the next.

use super::super::budget::UNREACHABLE;
/// The cheapest assignment of copies to distinct goal cells (the Hungarian method with
/// potentials, O(copies² · cells)), with its buffers kept between calls.
///
/// **One copy moved.** A search asks for the bound of a state's successors right after
/// the state's own; most successors move one copy. [`Hungarian::solve_next`] keeps the
/// optimal potentials and assignment of the state (the *base*) and solves a successor by
/// one phase of the method: the moved copy's row is unassigned and added again. With as
/// many copies as goal cells this is exact: the other rows keep feasible potentials
/// (`u_i + v_j <= c_ij`, equality on their assigned cells), which is the method's
/// invariant before its last row is added, so that phase ends with an optimal
/// assignment. With fewer copies than cells a freed cell's potential may be below zero,
/// which the invariant does not allow for free cells, so those instances are solved from
/// scratch.
#[derive(Default)]
pub(super) struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// The present copies' words.
    rows: Vec<u32>,
    /// Row-major costs, copy by goal cell (read in the inner loop a row at a time,
    /// rather than from one distance table per cell).
    cost: Vec<i64>,
    /// The instance last solved as a base, with its optimal potentials and assignment.
    base: Option<Base>,
}

/// An instance solved to optimality, kept for [`Hungarian::solve_next`].
#[derive(Default)]
struct Base {
    /// Which bound it belongs to (the caller's key: the piece kind).
    key: usize,
    rows: Vec<u32>,
    cost: Vec<i64>,
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
}

/// A cost standing for "unreachable" inside the assignment: larger than any real sum.
const FAR: i64 = 1 << 40;

impl Hungarian {
    /// The cheapest cost of assigning every present copy (`words`, 0 = absent) to a
    /// distinct cell of `targets` (per cell, the distance of every place to it);
    /// [`UNREACHABLE`] when no assignment avoids an infinite distance.
    pub(super) fn solve(&mut self, words: &[u32], targets: &[Vec<u32>]) -> u32 {
        self.rows.clear();
        self.rows.extend(words.iter().copied().filter(|&w| w != 0));
        let (n, m) = (self.rows.len(), targets.len());
        if n == 0 {
            return 0;
        }
        if n > m {
            return UNREACHABLE;
        }
        self.cost.clear();
        for k in 0..n {
            let w = self.rows[k];
            self.cost
                .extend(targets.iter().map(|t| cost_of(t[w as usize])));
        }
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.p.clear();
        self.p.resize(m + 1, 0);
        for i in 1..=n {
            self.phase(i, m);
        }
        self.total(m)
    }

    /// [`Hungarian::solve`] of `to`, where `from` was the last state asked about under
    /// `key` (or is solved first and kept as the base): when `to` holds the copies of
    /// `from` with one moved, by one phase from the base's optimum (see the type's
    /// documentation); otherwise from scratch. The answer is the same either way.
    pub(super) fn solve_next(
        &mut self,
        key: usize,
        from: &[u32],
        to: &[u32],
        targets: &[Vec<u32>],
    ) -> u32 {
        let m = targets.len();
        let present = |ws: &[u32]| ws.iter().filter(|&&w| w != 0).count();
        if present(to) != m || present(from) != m {
            return self.solve(to, targets);
        }
        let Some((left, arrived)) = one_moved(from, to) else {
            return self.solve(to, targets);
        };
        let is_base = self.base.as_ref().is_some_and(|b| {
            b.key == key
                && b.rows
                    .iter()
                    .copied()
                    .eq(from.iter().copied().filter(|&w| w != 0))
        });
        if !is_base {
            if self.solve(from, targets) == UNREACHABLE {
                // No base to start from (an infinite cost may be forced).
                self.base = None;
                return self.solve(to, targets);
            }
            let b = self.base.get_or_insert_with(Base::default);
            b.key = key;
            b.rows.clone_from(&self.rows);
            b.cost.clone_from(&self.cost);
            b.u.clone_from(&self.u);
            b.v.clone_from(&self.v);
            b.p.clone_from(&self.p);
        }
        let b = self.base.as_ref().expect("set above");
        let Some(r) = b.rows.iter().position(|&w| w == left) else {
            return self.solve(to, targets);
        };
        self.rows.clone_from(&b.rows);
        self.rows[r] = arrived;
        self.cost.clone_from(&b.cost);
        for (c, t) in self.cost[r * m..(r + 1) * m].iter_mut().zip(targets) {
            *c = cost_of(t[arrived as usize]);
        }
        self.u.clone_from(&b.u);
        self.v.clone_from(&b.v);
        self.p.clone_from(&b.p);
        // Row r + 1 (1-based) leaves its cell and is added again.
        // (`p[0]` is the method's scratch, not a cell.)
        if let Some(j) = (1..=m).find(|&j| self.p[j] == r + 1) {
            self.p[j] = 0;
        }
        self.u[r + 1] = 0;
        self.phase(r + 1, m);
        self.total(m)
    }

    /// What the optimal assignment last found pays for each of `words` (the instance's
    /// present copies, in any order) into `out`: the distance to the cell it is given.
    pub(super) fn paid(&self, words: &[u32], out: &mut Vec<u32>) {
        out.clear();
        let m = self.v.len().saturating_sub(1);
        for &w in words {
            let row = self.rows.iter().position(|&r| r == w);
            let cost = row
                .and_then(|r| (1..=m).find(|&j| self.p[j] == r + 1).map(|j| (r, j)))
                .map_or(0, |(r, j)| {
                    self.cost[r * m + j - 1].min(UNREACHABLE as i64) as u32
                });
            out.push(cost);
        }
    }

    /// One phase of the method: row `i` (1-based) joins the assignment by a shortest
    /// augmenting path over reduced costs, the potentials kept feasible.
    fn phase(&mut self, i: usize, m: usize) {
        let Hungarian {
            u,
            v,
            p,
            way,
            minv,
            used,
            cost,
            ..
        } = self;
        way.clear();
        way.resize(m + 1, 0);
        p[0] = i;
        let mut j0 = 0;
        minv.clear();
        minv.resize(m + 1, i64::MAX);
        used.clear();
        used.resize(m + 1, false);
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            let row = &cost[(i0 - 1) * m..i0 * m];
            let ui0 = u[i0];
            for j in 1..=m {
                if used[j] {
                    continue;
                }
                let cur = row[j - 1] - ui0 - v[j];
                if cur < minv[j] {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if minv[j] < delta {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// The cost of the assignment in `p`, or [`UNREACHABLE`] when it takes an infinite
    /// distance.
    fn total(&self, m: usize) -> u32 {
        let total: i64 = (1..=m)
            .filter(|&j| self.p[j] != 0)
            .map(|j| self.cost[(self.p[j] - 1) * m + j - 1])
            .sum();
        if total >= FAR {
            UNREACHABLE
        } else {
            total.min(UNREACHABLE as i64 - 1) as u32
        }
    }
}

/// A distance as an assignment cost.
#[inline]
fn cost_of(d: u32) -> i64 {
    if d == UNREACHABLE {
        FAR
    } else {
        d as i64
    }
}

/// When `to` holds the words of `from` but one (present words, as multisets): the word
/// that left and the one that arrived. Words at the same index are compared first; past
/// one difference, both must be sorted (interchangeable copies are kept sorted).
fn one_moved(from: &[u32], to: &[u32]) -> Option<(u32, u32)> {
    if from.len() != to.len() {
        return None;
    }
    let mut diff = from.iter().zip(to).filter(|(a, b)| a != b);
    let first = diff.next()?;
    if diff.next().is_none() {
        return (*first.0 != 0 && *first.1 != 0).then_some((*first.0, *first.1));
    }
    if !from.is_sorted() || !to.is_sorted() {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    let (mut left, mut arrived) = (None, None);
    while i < from.len() || j < to.len() {
        let (a, b) = (from.get(i).copied(), to.get(j).copied());
        if a.is_some() && a == b {
            i += 1;
            j += 1;
        } else if a.is_some_and(|a| b.is_none_or(|b| a < b)) {
            // In `from` only.
            if left.replace(a).is_some() {
                return None;
            }
            i += 1;
        } else {
            // In `to` only.
            if arrived.replace(b).is_some() {
                return None;
            }
            j += 1;
        }
    }
    match (left.flatten(), arrived.flatten()) {
        (Some(a), Some(b)) if a != 0 && b != 0 => Some((a, b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator for the random instances.
    struct Xorshift(u64);

    impl Xorshift {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        /// Per goal cell, a distance from every place: one in `far` unreachable, the
        /// rest below `max`.
        fn targets(&mut self, m: usize, places: usize, far: u64, max: u64) -> Vec<Vec<u32>> {
            (0..m)
                .map(|_| {
                    (0..places)
                        .map(|_| {
                            if self.below(far) == 0 {
                                UNREACHABLE
                            } else {
                                self.below(max) as u32
                            }
                        })
                        .collect()
                })
                .collect()
        }
    }

    /// The cheapest assignment by trying every injection of rows into columns.
    fn brute(rows: &[u32], targets: &[Vec<u32>], used: &mut Vec<bool>) -> u64 {
        let Some((&w, rest)) = rows.split_first() else {
            return 0;
        };
        let mut best = u64::MAX;
        for j in 0..targets.len() {
            let d = targets[j][w as usize];
            if used[j] || d == UNREACHABLE {
                continue;
            }
            used[j] = true;
            let r = brute(rest, targets, used);
            used[j] = false;
            if r != u64::MAX {
                best = best.min(r + d as u64);
            }
        }
        best
    }

    #[test]
    fn hungarian_matches_brute_force_on_random_instances() {
        let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
        let mut h = Hungarian::default();
        for _ in 0..2000 {
            let places = 1 + rng.below(12) as usize;
            let m = 1 + rng.below(6) as usize;
            let targets = rng.targets(m, places, 5, 20);
            // Word 0 is an absent copy.
            let words: Vec<u32> = (0..1 + rng.below(7))
                .map(|_| rng.below(places as u64) as u32)
                .collect();
            let rows: Vec<u32> = words.iter().copied().filter(|&w| w != 0).collect();
            let want = if rows.len() > m {
                UNREACHABLE
            } else {
                match brute(&rows, &targets, &mut vec![false; m]) {
                    u64::MAX => UNREACHABLE,
                    v => v as u32,
                }
            };
            assert_eq!(h.solve(&words, &targets), want, "{words:?} {targets:?}");
        }
    }

    /// One phase from a kept base gives what a solve from scratch gives: successors
    /// with one copy moved (sorted words, so the moved copy may change index), with
    /// several moved, with copies absent, and bases switching between keys.
    #[test]
    fn solve_next_matches_solve_from_scratch() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let (mut fresh, mut kept) = (Hungarian::default(), Hungarian::default());
        let mut incremental = 0;
        for _ in 0..3000 {
            let places = 2 + rng.below(30) as usize;
            let m = 1 + rng.below(7) as usize;
            let targets = rng.targets(m, places, 8, 25);
            let n = if rng.below(4) == 0 {
                1 + rng.below(m as u64) as usize
            } else {
                m
            };
            let mut from: Vec<u32> = (0..n)
                .map(|_| 1 + rng.below(places as u64 - 1) as u32)
                .collect();
            if rng.below(5) == 0 {
                from.push(0);
            }
            from.sort_unstable();
            let key = rng.below(2) as usize;
            for _ in 0..1 + rng.below(6) {
                let mut to = from.clone();
                for _ in 0..if rng.below(6) == 0 { 2 } else { 1 } {
                    let k = rng.below(to.len() as u64) as usize;
                    if to[k] != 0 {
                        to[k] = 1 + rng.below(places as u64 - 1) as u32;
                    }
                }
                if rng.below(3) != 0 {
                    to.sort_unstable();
                }
                let want = fresh.solve(&to, &targets);
                let got = kept.solve_next(key, &from, &to, &targets);
                assert_eq!(got, want, "{from:?} -> {to:?} over {targets:?}");
                if kept.base.as_ref().is_some_and(|b| b.key == key)
                    && one_moved(&from, &to).is_some()
                {
                    incremental += 1;
                }
            }
        }
        assert!(
            incremental > 2000,
            "only {incremental} successors took one phase"
        );
    }
}
