//! The per-board precomputation ([`Prep`]) the queries of one board share: the
//! biconnected blocks of the free cells' graph (an iterative depth-first search), the
//! blank's detours around each cell between its sides, and the components of the graph
//! of (token cell, blank side) states.

use crate::compile::TileId;
use crate::engine::level::Board;
use crate::search::{Budget, Cutoff, Stats};

use super::{INF, OPP, PAIR};

/// What one board's queries share. Cells are indices into the board padded by one blocked
/// cell on every side (`w` columns).
pub(super) struct Prep {
    pub(super) fixed: TileId,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) tiles: Vec<TileId>,
    pub(super) w: usize,
    /// Step to the neighbour in compass direction N, S, W, E.
    pub(super) off: [isize; 4],
    pub(super) free: Vec<bool>,
    /// (row, column) on the unpadded board.
    pub(super) rc: Vec<(u32, u32)>,
    /// Connected component of each free cell (`INF` for blocked cells).
    pub(super) comp: Vec<u32>,
    /// `block[c * 4 + k]`: the biconnected block of the edge from `c` towards `k`.
    pub(super) block: Vec<u32>,
    /// Depth-first discovery time, subtree size and tree parent (`INF` at roots).
    pub(super) disc: Vec<u32>,
    pub(super) size: Vec<u32>,
    pub(super) parent: Vec<u32>,
    /// Component of each state `c * 4 + k` (token on `c`, blank on side `k`) in the graph
    /// of swaps and detours (`INF` where side `k` is not free).
    pub(super) scomp: Vec<u32>,
    /// `det[c * 6 + PAIR[i][j]]`: the blank's fewest steps from side `i` of `c` to side `j`
    /// without passing `c` (`INF` when `c` separates them).
    pub(super) det: Vec<u32>,
    /// The largest finite detour.
    pub(super) max_det: u32,
}

impl Prep {
    pub(super) fn matches(&self, b: &Board, fixed: TileId) -> bool {
        self.fixed == fixed && self.rows == b.rows && self.cols == b.cols && self.tiles == b.tiles
    }

    pub(super) fn pad(&self, cell: usize) -> usize {
        (cell / self.cols + 1) * self.w + cell % self.cols + 1
    }

    pub(super) fn step(&self, c: usize, k: usize) -> usize {
        (c as isize + self.off[k]) as usize
    }

    /// The block at `s` holding the sides the blank, at `e` (same component, not `s`), can
    /// reach without passing `s`: the block of the edge to the child of `s` whose subtree
    /// holds `e`, else of the edge to the parent of `s`.
    pub(super) fn blank_block(&self, e: usize, s: usize) -> u32 {
        let de = self.disc[e];
        for k in 0..4 {
            let v = self.step(s, k);
            if self.free[v]
                && self.parent[v] == s as u32
                && self.disc[v] <= de
                && de < self.disc[v] + self.size[v]
            {
                return self.block[s * 4 + k];
            }
        }
        (0..4)
            .find(|&k| self.parent[s] == self.step(s, k) as u32)
            .map_or(INF, |k| self.block[s * 4 + k])
    }

    /// Builds the tables, or stops when the budget runs out (time or memory).
    pub(super) fn build(b: &Board, fixed: TileId, budget: &Budget) -> Result<Prep, Cutoff> {
        let (rows, cols) = (b.rows, b.cols);
        let w = cols + 2;
        let n = w * (rows + 2);
        let off = [-(w as isize), w as isize, -1, 1];
        let mut free = vec![false; n];
        let mut rc = vec![(0u32, 0u32); n];
        for r in 0..rows {
            for c in 0..cols {
                let p = (r + 1) * w + c + 1;
                free[p] = b.tiles[r * cols + c] != fixed;
                rc[p] = (r as u32, c as u32);
            }
        }
        let nb = |c: usize, k: usize| (c as isize + off[k]) as usize;

        // Depth-first search: discovery times, low links, tree parents, components.
        let mut disc = vec![INF; n];
        let mut low = vec![0u32; n];
        let mut parent = vec![INF; n];
        let mut comp = vec![INF; n];
        let mut order: Vec<u32> = Vec::new();
        let mut stack: Vec<(u32, u8)> = Vec::new();
        let (mut t, mut ncomp) = (0u32, 0u32);
        for root in 0..n {
            if !free[root] || disc[root] != INF {
                continue;
            }
            disc[root] = t;
            low[root] = t;
            t += 1;
            comp[root] = ncomp;
            order.push(root as u32);
            stack.push((root as u32, 0));
            while let Some(&(v, k)) = stack.last() {
                let v = v as usize;
                if k < 4 {
                    stack.last_mut().expect("nonempty").1 += 1;
                    let u = nb(v, k as usize);
                    if !free[u] {
                        continue;
                    }
                    if disc[u] == INF {
                        parent[u] = v as u32;
                        disc[u] = t;
                        low[u] = t;
                        t += 1;
                        comp[u] = ncomp;
                        order.push(u as u32);
                        stack.push((u as u32, 0));
                    } else if u as u32 != parent[v] {
                        low[v] = low[v].min(disc[u]);
                    }
                } else {
                    stack.pop();
                    let p = parent[v];
                    if p != INF {
                        low[p as usize] = low[p as usize].min(low[v]);
                    }
                }
            }
            ncomp += 1;
        }
        // The block of each tree edge (parent(v), v), in preorder: a new block where the
        // parent separates v's subtree, else the parent's own tree edge's block.
        let mut tblock = vec![INF; n];
        let mut nblocks = 0u32;
        for &v in &order {
            let v = v as usize;
            let p = parent[v];
            if p == INF {
                continue;
            }
            if low[v] >= disc[p as usize] {
                tblock[v] = nblocks;
                nblocks += 1;
            } else {
                tblock[v] = tblock[p as usize];
            }
        }
        // Every edge: a tree edge's block, or a back edge's, which is that of the tree
        // edge above its lower end.
        let mut block = vec![INF; n * 4];
        for c in 0..n {
            if !free[c] {
                continue;
            }
            for k in 0..4 {
                let u = nb(c, k);
                if !free[u] {
                    continue;
                }
                block[c * 4 + k] = if parent[u] == c as u32 {
                    tblock[u]
                } else if parent[c] == u as u32 || disc[c] > disc[u] {
                    tblock[c]
                } else {
                    tblock[u]
                };
            }
        }
        // Subtree sizes, so "is e below the child v of s" is a range test on `disc`.
        let mut size = vec![1u32; n];
        for &v in order.iter().rev() {
            let pv = parent[v as usize];
            if pv != INF {
                size[pv as usize] += size[v as usize];
            }
        }
        drop((low, order, tblock));

        // Components of the (token cell, blank side) graph: swaps and detours both go both
        // ways, and detours join exactly the sides in one block.
        let mut dsu: Vec<u32> = (0..n as u32 * 4).collect();
        fn root(dsu: &mut [u32], mut x: u32) -> u32 {
            while dsu[x as usize] != x {
                let up = dsu[dsu[x as usize] as usize];
                dsu[x as usize] = up;
                x = up;
            }
            x
        }
        let join = |dsu: &mut Vec<u32>, a: usize, b: usize| {
            let (ra, rb) = (root(dsu, a as u32), root(dsu, b as u32));
            if ra != rb {
                dsu[ra.max(rb) as usize] = ra.min(rb);
            }
        };
        for c in 0..n {
            if !free[c] {
                continue;
            }
            for k in 0..4 {
                if block[c * 4 + k] == INF {
                    continue;
                }
                // Swap: (c, k) and (c + k, opposite of k).
                join(&mut dsu, c * 4 + k, nb(c, k) * 4 + OPP[k]);
                for j in k + 1..4 {
                    if block[c * 4 + j] == block[c * 4 + k] {
                        join(&mut dsu, c * 4 + k, c * 4 + j);
                    }
                }
            }
        }
        let mut scomp = vec![INF; n * 4];
        for st in 0..n * 4 {
            if block[st] != INF {
                scomp[st] = root(&mut dsu, st as u32);
            }
        }
        drop(dsu);

        // Detours: per cell, a breadth-first search from each side to the later sides of
        // the same block, stopping once they are found.
        let mut det = vec![INF; n * 6];
        let mut max_det = 0u32;
        let mut seen = vec![0u32; n];
        let mut dist = vec![0u32; n];
        let mut queue: Vec<u32> = Vec::new();
        let (mut epoch, mut done) = (0u32, 0usize);
        for c in 0..n {
            if !free[c] {
                continue;
            }
            if done % 1024 == 0 {
                if let Some(c) = budget.check(&Stats::default()) {
                    return Err(c);
                }
            }
            done += 1;
            let side = [nb(c, 0), nb(c, 1), nb(c, 2), nb(c, 3)];
            for a in 0..4 {
                if !free[side[a]] {
                    continue;
                }
                let mut want = 0u8;
                for bb in a + 1..4 {
                    if free[side[bb]] && block[c * 4 + bb] == block[c * 4 + a] {
                        want |= 1 << bb;
                    }
                }
                if want == 0 {
                    continue;
                }
                epoch += 1;
                seen[c] = epoch;
                seen[side[a]] = epoch;
                dist[side[a]] = 0;
                queue.clear();
                queue.push(side[a] as u32);
                let mut head = 0;
                'bfs: while head < queue.len() {
                    let x = queue[head] as usize;
                    head += 1;
                    let dx = dist[x] + 1;
                    for k in 0..4 {
                        let y = nb(x, k);
                        if !free[y] || seen[y] == epoch {
                            continue;
                        }
                        seen[y] = epoch;
                        dist[y] = dx;
                        let mut m = want;
                        while m != 0 {
                            let bb = m.trailing_zeros() as usize;
                            m &= m - 1;
                            if side[bb] == y {
                                det[c * 6 + PAIR[a][bb]] = dx;
                                max_det = max_det.max(dx);
                                want &= !(1 << bb);
                                if want == 0 {
                                    break 'bfs;
                                }
                            }
                        }
                        queue.push(y as u32);
                    }
                }
                debug_assert_eq!(want, 0, "sides of one block are connected");
            }
        }
        Ok(Prep {
            fixed,
            rows,
            cols,
            tiles: b.tiles.clone(),
            w,
            off,
            free,
            rc,
            comp,
            block,
            disc,
            size,
            parent,
            scomp,
            det,
            max_det,
        })
    }
}
