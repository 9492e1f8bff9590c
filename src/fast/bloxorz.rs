//! Fast path for rolling-cuboid puzzles shaped like Bloxorz.
//!
//! Fingerprint: one piece with three poses covering `{(0,0)}`, `{(0,0),(1,0)}` and
//! `{(0,0),(0,1)}` (standing, lying along rows, lying along columns); four unit directions
//! in any order; one move that turns the piece by exactly the rolling table of a 1x1x2
//! cuboid and costs one unit; `forbid P on A` (all poses) and `forbid P.stand on B` for two
//! different tiles, with `outside` absent or `A`; goal `P.stand on G`; no limit; no
//! mutable tiles. Anything else runs on the interpreter.
//!
//! Solver: breadth-first search over `cell * 4 + pose` on a padded grid, with a byte of
//! precomputed legality (and goal) bits per cell, a bit-packed visited set and a plain
//! queue; successors in the model's direction order, so paths match the interpreter's.

use crate::compile::{Model, Op, Place, PoseId, TileId};
use crate::engine::Level;
use crate::search::{Budget, Cutoff, Stats};

use super::fingerprint::{compass, only_op, static_tiles, unit_cost};
use super::{FastOutcome, FastPath};

/// Poses in the solver's own numbering.
const STAND: usize = 0;
const ROWS: usize = 1;
const COLS: usize = 2;

/// The rolling table: for (pose, compass direction N S W E), the new pose and the
/// anchor offset.
const ROLL: [[(usize, i32, i32); 4]; 3] = [
    [(ROWS, -2, 0), (ROWS, 1, 0), (COLS, 0, -2), (COLS, 0, 1)],
    [(STAND, -1, 0), (STAND, 2, 0), (ROWS, 0, -1), (ROWS, 0, 1)],
    [(COLS, -1, 0), (COLS, 1, 0), (STAND, 0, -1), (STAND, 0, 2)],
];

pub struct Bloxorz {
    /// Model pose index of STAND, ROWS, COLS.
    pose: [usize; 3],
    /// Model direction index of N, S, W, E.
    dir: [usize; 4],
    /// Tile forbidden in every pose, and tile forbidden standing.
    void: TileId,
    fragile: TileId,
    goal: Place,
}

impl Bloxorz {
    /// Accepts a model whose rules are exactly those above, or says what differs.
    pub fn detect(model: &Model) -> Result<Bloxorz, String> {
        static_tiles(model)?;
        unit_cost(model)?;
        if model.limit.is_some() {
            return Err("has a move limit".into());
        }
        let [piece] = model.pieces.as_slice() else {
            return Err(format!("needs one piece, has {}", model.pieces.len()));
        };
        if piece.anonymous || piece.poses.len() != 3 {
            return Err("the piece must be single with three poses".into());
        }
        let mut pose = [usize::MAX; 3];
        for (i, p) in piece.poses.iter().enumerate() {
            let mut cells = p.cells.clone();
            cells.sort_unstable();
            let k = match cells.as_slice() {
                [(0, 0)] => STAND,
                [(0, 0), (1, 0)] => ROWS,
                [(0, 0), (0, 1)] => COLS,
                _ => return Err(format!("pose `{}` is not a cuboid pose", p.name)),
            };
            pose[k] = i;
        }
        if pose.contains(&usize::MAX) {
            return Err("poses are not standing, lying along rows and lying along columns".into());
        }
        let dir = compass(model)?;
        let Op::Turn { table, .. } = only_op(model)? else {
            return Err("the move is not a turn".into());
        };
        let nd = 4;
        for (p, row) in ROLL.iter().enumerate() {
            for (k, &(to, dr, dc)) in row.iter().enumerate() {
                if table[pose[p] * nd + dir[k]] != Some((PoseId(pose[to] as u16), dr, dc)) {
                    return Err("the turn table is not the rolling of a 1x1x2 cuboid".into());
                }
            }
        }
        let (void, fragile) = match model.forbids.as_slice() {
            [a, b] => {
                let (all, stand) = if a.pose.is_none() { (a, b) } else { (b, a) };
                match (all.pose, stand.pose, all.place, stand.place) {
                    (None, Some(s), Place::Tile(v), Place::Tile(f))
                        if s.index() == pose[STAND] && v != f =>
                    {
                        (v, f)
                    }
                    _ => return Err("forbids are not `P on A` and `P.stand on B`".into()),
                }
            }
            _ => return Err(format!("needs two forbids, has {}", model.forbids.len())),
        };
        if model.outside.is_some_and(|o| o != void) {
            return Err("outside the board is not the forbidden tile".into());
        }
        let goal = match model.goal.as_slice() {
            [g] if g.pose.is_some_and(|p| p.index() == pose[STAND]) => g.on,
            _ => return Err("the goal is not the piece standing on a place".into()),
        };
        Ok(Bloxorz {
            pose,
            dir,
            void,
            fragile,
            goal,
        })
    }
}

/// Legality bits per padded cell: bit `p` when pose `p` anchored here is legal, bit 3
/// when standing here meets the goal.
const GOAL_BIT: u8 = 8;

impl FastPath for Bloxorz {
    fn name(&self) -> &'static str {
        "bloxorz"
    }

    fn solve(&self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let t0 = std::time::Instant::now();
        let b = &level.board;
        let (rows, cols) = (b.rows, b.cols);
        let pad = 2;
        let w = cols + 2 * pad;
        let h = rows + 2 * pad;
        let n = w * h;
        // Per padded cell: bit 0 a lying block may cover it, bit 1 a standing block may
        // stand on it, bit 3 standing there meets the goal. Padding stays 0.
        let mut cell = vec![0u8; n];
        let goal_tile = match self.goal {
            Place::Tile(g) => Some(g),
            Place::Mark(_) => None,
        };
        for r in 0..rows {
            let row = &b.tiles[r * cols..(r + 1) * cols];
            let out = &mut cell[(r + pad) * w + pad..(r + pad) * w + pad + cols];
            for (c, (o, &t)) in out.iter_mut().zip(row).enumerate() {
                let lie = t != self.void;
                let stand = lie && t != self.fragile;
                let goal = match (goal_tile, self.goal) {
                    (Some(g), _) => t == g,
                    (None, Place::Mark(k)) => b.has_mark((r * cols + c) as u32, k),
                    (None, Place::Tile(_)) => false,
                };
                *o =
                    u8::from(lie) | u8::from(stand) << 1 | if stand && goal { GOAL_BIT } else { 0 };
            }
        }
        // Legality bits per anchor: bit `p` when pose `p` anchored here is legal.
        let mut legal = vec![0u8; n];
        for p in w..n - w {
            let here = cell[p];
            legal[p] = (here >> 1 & 1) << STAND
                | (here & cell[p + w] & 1) << ROWS
                | (here & cell[p + 1] & 1) << COLS
                | (here & GOAL_BIT);
        }
        // Successor table in the model's direction order: (new pose, delta, model dir).
        let mut order: Vec<(usize, usize)> = (0..4).map(|k| (self.dir[k], k)).collect();
        order.sort_unstable();
        let mut step = [[(0usize, 0isize, 0u32); 4]; 3];
        for (p, row) in step.iter_mut().enumerate() {
            for (slot, &(md, k)) in row.iter_mut().zip(&order) {
                let (to, dr, dc) = ROLL[p][k];
                *slot = (to, dr as isize * w as isize + dc as isize, md as u32);
            }
        }
        let inst = &level.instances[0];
        let (r0, c0) = (inst.cell as usize / cols, inst.cell as usize % cols);
        let my_pose = self
            .pose
            .iter()
            .position(|&x| x == inst.pose.index())
            .unwrap_or(STAND);
        let start = (((r0 + pad) * w + c0 + pad) * 4 + my_pose) as u32;
        let (outcome, mut stats) = if need_path {
            bfs::<true>(&legal, &step, start, n, budget)
        } else {
            bfs::<false>(&legal, &step, start, n, budget)
        };
        stats.elapsed = t0.elapsed();
        (outcome, stats)
    }
}

/// Breadth-first search over `cell * 4 + pose`; `PATH` keeps parents to rebuild actions.
///
/// One byte per state says whether it is still open (legal and not yet reached), so a
/// successor costs one load and one store; goals are read from the cell's legality bits.
fn bfs<const PATH: bool>(
    legal: &[u8],
    step: &[[(usize, isize, u32); 4]; 3],
    start: u32,
    cells: usize,
    budget: &Budget,
) -> (FastOutcome, Stats) {
    let mut stats = Stats::default();
    let is_goal = |s: u32| s & 3 == STAND as u32 && legal[(s >> 2) as usize] & GOAL_BIT != 0;
    if is_goal(start) {
        stats.stored = 1;
        return (
            FastOutcome::Solved {
                cost: vec![0],
                actions: PATH.then(Vec::new),
            },
            stats,
        );
    }
    let mut open = vec![0u8; cells * 4];
    for (c, &bits) in legal.iter().enumerate() {
        let o = &mut open[c * 4..c * 4 + 4];
        o[0] = bits & 1;
        o[1] = bits >> 1 & 1;
        o[2] = bits >> 2 & 1;
    }
    open[start as usize] = 0;
    let mut queue: Vec<u32> = Vec::with_capacity(cells * 3);
    queue.push(start);
    let mut parent: Vec<u32> = vec![];
    let mut via: Vec<u8> = vec![];
    if PATH {
        parent.push(u32::MAX);
        via.push(0);
    }
    // Per pose: (new pose, delta in states, model dir).
    let moves: [[(u32, isize, u32); 4]; 3] =
        step.map(|row| row.map(|(to, delta, md)| (to as u32, delta * 4 + to as isize, md)));
    let (mut head, mut depth, mut layer_end) = (0usize, 0u64, 1usize);
    while head < queue.len() {
        if head == layer_end {
            depth += 1;
            layer_end = queue.len();
            stats.expanded = head as u64;
            stats.stored = queue.len() as u64;
            if let Some(c) = budget.check(&stats) {
                return (FastOutcome::Cutoff(c), stats);
            }
            if budget.max_states.is_some_and(|m| queue.len() >= m) {
                return (FastOutcome::Cutoff(Cutoff::States(queue.len())), stats);
            }
        }
        let s = queue[head];
        let base = (s & !3) as isize;
        for &(to, delta, md) in &moves[(s & 3) as usize] {
            let ns = (base + delta) as usize;
            if open[ns] == 0 {
                continue;
            }
            open[ns] = 0;
            queue.push(ns as u32);
            if PATH {
                parent.push(head as u32);
                via.push(md as u8);
            }
            if to == STAND as u32 && legal[ns >> 2] & GOAL_BIT != 0 {
                stats.expanded = head as u64 + 1;
                stats.stored = queue.len() as u64;
                let actions = PATH.then(|| {
                    let mut acts = vec![];
                    let mut at = queue.len() - 1;
                    while parent[at] != u32::MAX {
                        acts.push(via[at] as u32);
                        at = parent[at] as usize;
                    }
                    acts.reverse();
                    acts
                });
                return (
                    FastOutcome::Solved {
                        cost: vec![depth + 1],
                        actions,
                    },
                    stats,
                );
            }
        }
        head += 1;
    }
    stats.expanded = head as u64;
    stats.stored = queue.len() as u64;
    (FastOutcome::Unsolvable, stats)
}
