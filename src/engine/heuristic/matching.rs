//! The cheapest assignment of copies to distinct goal cells, for the *matching* bound: the
//! Hungarian method with potentials, its buffers kept from one state to the next.

use super::super::budget::UNREACHABLE;
/// The cheapest assignment of copies to distinct goal cells (the Hungarian method with
/// potentials, O(copies² · cells)), with its buffers kept between calls.
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
        for &w in &self.rows {
            self.cost.extend(targets.iter().map(|t| {
                let d = t[w as usize];
                if d == UNREACHABLE {
                    FAR
                } else {
                    d as i64
                }
            }));
        }
        let costs = std::mem::take(&mut self.cost);
        // 1-based row i, column j, as the method is written.
        let cost = |i: usize, j: usize| -> i64 { costs[(i - 1) * m + j - 1] };
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.p.clear();
        self.p.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
            self.p[0] = i;
            let mut j0 = 0;
            self.minv.clear();
            self.minv.resize(m + 1, i64::MAX);
            self.used.clear();
            self.used.resize(m + 1, false);
            loop {
                self.used[j0] = true;
                let i0 = self.p[j0];
                let mut delta = i64::MAX;
                let mut j1 = 0;
                let row = &costs[(i0 - 1) * m..i0 * m];
                let ui0 = self.u[i0];
                for j in 1..=m {
                    if self.used[j] {
                        continue;
                    }
                    let cur = row[j - 1] - ui0 - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
                for j in 0..=m {
                    if self.used[j] {
                        self.u[self.p[j]] += delta;
                        self.v[j] -= delta;
                    } else {
                        self.minv[j] -= delta;
                    }
                }
                j0 = j1;
                if self.p[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = self.way[j0];
                self.p[j0] = self.p[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        let total: i64 = (1..=m)
            .filter(|&j| self.p[j] != 0)
            .map(|j| cost(self.p[j], j))
            .sum();
        self.cost = costs;
        if total >= FAR {
            UNREACHABLE
        } else {
            total.min(UNREACHABLE as i64 - 1) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut h = Hungarian::default();
        for _ in 0..2000 {
            let places = 1 + next(12) as usize;
            let m = 1 + next(6) as usize;
            let targets: Vec<Vec<u32>> = (0..m)
                .map(|_| {
                    (0..places)
                        .map(|_| {
                            if next(5) == 0 {
                                UNREACHABLE
                            } else {
                                next(20) as u32
                            }
                        })
                        .collect()
                })
                .collect();
            // Word 0 is an absent copy.
            let words: Vec<u32> = (0..1 + next(7))
                .map(|_| next(places as u64) as u32)
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
}
