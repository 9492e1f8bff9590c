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
}

/// A cost standing for "unreachable" inside the assignment: larger than any real sum.
const FAR: i64 = 1 << 40;

impl Hungarian {
    /// The cheapest cost of assigning every present copy (`words`, 0 = absent) to a
    /// distinct cell of `targets` (per cell, the distance of every place to it);
    /// [`UNREACHABLE`] when no assignment avoids an infinite distance.
    pub(super) fn solve(&mut self, words: &[u32], targets: &[Vec<u32>]) -> u32 {
        let rows: Vec<u32> = words.iter().copied().filter(|&w| w != 0).collect();
        let (n, m) = (rows.len(), targets.len());
        if n == 0 {
            return 0;
        }
        if n > m {
            return UNREACHABLE;
        }
        let cost = |i: usize, j: usize| -> i64 {
            let d = targets[j - 1][rows[i - 1] as usize];
            if d == UNREACHABLE {
                FAR
            } else {
                d as i64
            }
        };
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
                for j in 1..=m {
                    if self.used[j] {
                        continue;
                    }
                    let cur = cost(i0, j) - self.u[i0] - self.v[j];
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
        if total >= FAR {
            UNREACHABLE
        } else {
            total.min(UNREACHABLE as i64 - 1) as u32
        }
    }
}
