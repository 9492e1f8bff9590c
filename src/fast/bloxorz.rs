//! Fast path for rolling-cuboid puzzles shaped like Bloxorz.
//!
//! Fingerprint: one piece with three poses covering `{(0,0)}`, `{(0,0),(1,0)}` and
//! `{(0,0),(0,1)}` (standing, lying along rows, lying along columns); four unit directions
//! in any order; one move that turns the piece by exactly the rolling table of a 1x1x2
//! cuboid and costs one unit; `forbid P on A` (all poses) and `forbid P.stand on B` for two
//! different tiles, with `outside` absent or `A`; goal `P.stand on G`; no limit; no
//! mutable tiles. Anything else runs on the interpreter.
//!
//! Solver: breadth-first search over `cell * 4 + pose` on a grid padded by two void cells,
//! with one byte per state saying whether it is still open (legal and not yet reached) and
//! whether it is a goal, and a plain queue; successors in the model's direction order, so
//! the first path found is the smallest cheapest one: the interpreter's. The buffers live
//! in the value and are reused from one level to the next (a judge run solves many).

use crate::compile::{Action, DirId, Model, MoveId, Op, Place, PoseId, TileId};
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

/// The Bloxorz fast path for one model: its rules and its reusable buffers.
pub(crate) struct Bloxorz {
    /// Model pose index of STAND, ROWS, COLS.
    pose: [usize; 3],
    /// Model direction index of N, S, W, E.
    dir: [usize; 4],
    /// Tile forbidden in every pose, and tile forbidden standing.
    void: TileId,
    fragile: TileId,
    goal: Place,
    /// Per state: [`CLOSED`], [`OPEN`] or [`GOAL`].
    open: Vec<u8>,
    /// States in the order reached; with a path, each one's parent index and direction.
    queue: Vec<u32>,
    parent: Vec<u32>,
    via: Vec<u8>,
}

impl Bloxorz {
    /// Accepts a model whose rules are exactly those above, or says what differs.
    pub(crate) fn detect(model: &Model) -> Result<Bloxorz, String> {
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
            open: vec![],
            queue: vec![],
            parent: vec![],
            via: vec![],
        })
    }
}

/// A state that is illegal or already reached.
const CLOSED: u8 = 0;
/// A legal state not reached yet.
const OPEN: u8 = 1;
/// A legal goal state (standing on the goal) not reached yet.
const GOAL: u8 = 2;
/// Void cells around the board: a roll moves the anchor by at most two.
const PAD: usize = 2;
/// Most expansions between two looks at the clock and memory (also one per layer).
const CHECK_CHUNK: usize = 1 << 16;

impl FastPath for Bloxorz {
    fn name(&self) -> &'static str {
        "bloxorz"
    }

    fn solve(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let t0 = web_time::Instant::now();
        let (outcome, mut stats) = self.run(level, budget, need_path);
        stats.elapsed = t0.elapsed();
        (outcome, stats)
    }
}

impl Bloxorz {
    /// Fills `open` for `level`; returns the padded width and the number of states.
    /// `open` is a power of two long, so indices masked by its length minus one need no
    /// bounds check (the padding keeps every successor of a legal state on the grid).
    fn fill(&mut self, level: &Level) -> (usize, usize) {
        let b = &level.board;
        let (rows, cols) = (b.rows, b.cols);
        let w = cols + 2 * PAD;
        let n = w * (rows + 2 * PAD);
        self.open.clear();
        self.open.resize((n * 4).next_power_of_two(), CLOSED);
        let (void, fragile, goal) = (self.void, self.fragile, self.goal);
        for r in 0..rows {
            let row = &b.tiles[r * cols..(r + 1) * cols];
            let marks = &b.marks[r * cols..(r + 1) * cols];
            let below = b.tiles.get((r + 1) * cols..(r + 2) * cols).unwrap_or(&[]);
            let base = ((r + PAD) * w + PAD) * 4;
            let out = &mut self.open[base..base + cols * 4];
            for (c, o) in out.chunks_exact_mut(4).enumerate() {
                let t = row[c];
                if t == void {
                    continue;
                }
                let stand = if t == fragile {
                    CLOSED
                } else if match goal {
                    Place::Tile(g) => t == g,
                    Place::Mark(k) => marks[c] >> k.0 & 1 == 1,
                } {
                    GOAL
                } else {
                    OPEN
                };
                let rows_ok = below.get(c).is_some_and(|&x| x != void);
                let cols_ok = row.get(c + 1).is_some_and(|&x| x != void);
                o.copy_from_slice(&[stand, u8::from(rows_ok), u8::from(cols_ok), CLOSED]);
            }
        }
        (w, n * 4)
    }

    fn run(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let (w, states) = self.fill(level);
        let mut stats = Stats::default();
        if let Some(c) = budget.check(&stats) {
            return (FastOutcome::Cutoff(c), stats);
        }
        // Successors in the model's direction order: (new pose, delta in states, model dir).
        let mut order: Vec<(usize, usize)> = (0..4).map(|k| (self.dir[k], k)).collect();
        order.sort_unstable();
        // Per pose (the fourth row is never used): (delta in states, model dir).
        let mut moves = [[(0isize, 0u8); 4]; 4];
        for (p, row) in moves.iter_mut().take(3).enumerate() {
            for (slot, &(md, k)) in row.iter_mut().zip(&order) {
                let (to, dr, dc) = ROLL[p][k];
                let delta = (dr as isize * w as isize + dc as isize) * 4 + to as isize - p as isize;
                *slot = (delta, md as u8);
            }
        }
        let b = &level.board;
        let inst = &level.instances[0];
        let (r0, c0) = (inst.cell as usize / b.cols, inst.cell as usize % b.cols);
        let my_pose = self
            .pose
            .iter()
            .position(|&x| x == inst.pose.index())
            .unwrap_or(STAND);
        let start = ((r0 + PAD) * w + c0 + PAD) * 4 + my_pose;
        stats.stored = 1;
        if self.open[start] == GOAL {
            let actions = need_path.then(Vec::new);
            return (
                FastOutcome::Solved {
                    cost: vec![0],
                    actions,
                },
                stats,
            );
        }
        if need_path {
            self.bfs::<true>(&moves, start, states, budget, stats)
        } else {
            self.bfs::<false>(&moves, start, states, budget, stats)
        }
    }

    /// Breadth-first search from `start`; `PATH` keeps parents to rebuild actions.
    fn bfs<const PATH: bool>(
        &mut self,
        moves: &[[(isize, u8); 4]; 4],
        start: usize,
        states: usize,
        budget: &Budget,
        mut stats: Stats,
    ) -> (FastOutcome, Stats) {
        let open = &mut self.open[..];
        let mask = open.len() - 1;
        assert!(open.len().is_power_of_two() && states <= open.len());
        // At most three poses per cell are ever queued: the queue is written in place.
        let cells = states / 4;
        if self.queue.len() < cells * 3 + 1 {
            self.queue.resize(cells * 3 + 1, 0);
        }
        let queue = &mut self.queue[..cells * 3 + 1];
        let limit = budget.max_states.unwrap_or(usize::MAX);
        // Entries past `room` are never written: the state limit or the queue's end.
        let room = limit.min(queue.len());
        let (parent, via) = (&mut self.parent, &mut self.via);
        parent.clear();
        via.clear();
        open[start] = CLOSED;
        queue[0] = start as u32;
        let mut tail = 1usize;
        if PATH {
            parent.push(u32::MAX);
            via.push(0);
        }
        let (mut head, mut depth, mut layer_end) = (0usize, 0u64, 1usize);
        // One successor: skip it unless open, close and queue it, stop at a goal or at the
        // state limit. Written out four times below (once per direction) so the loop over
        // directions costs nothing.
        macro_rules! visit {
            ($s:expr, $m:expr) => {{
                let (delta, md) = $m;
                let ns = ($s as isize + delta) as usize;
                let o = open[ns & mask];
                if o != CLOSED {
                    if tail >= room {
                        stats.expanded = head as u64;
                        stats.stored = tail as u64;
                        return (FastOutcome::Cutoff(Cutoff::States(limit)), stats);
                    }
                    open[ns & mask] = CLOSED;
                    queue[tail] = ns as u32;
                    tail += 1;
                    if PATH {
                        parent.push(head as u32);
                        via.push(md);
                    }
                    if o == GOAL {
                        stats.expanded = head as u64 + 1;
                        stats.stored = tail as u64;
                        let actions = PATH.then(|| actions_to(parent, via, tail - 1));
                        let cost = vec![depth + 1];
                        return (FastOutcome::Solved { cost, actions }, stats);
                    }
                }
            }};
        }
        while head < tail {
            if head == layer_end {
                depth += 1;
                layer_end = tail;
            }
            stats.expanded = head as u64;
            stats.stored = tail as u64;
            if let Some(c) = budget.check(&stats) {
                return (FastOutcome::Cutoff(c), stats);
            }
            // Expand to the end of the layer, or a chunk of it between two checks.
            let end = layer_end.min(head + CHECK_CHUNK);
            while head < end {
                let s = queue[head] as usize;
                let m = &moves[s & 3];
                visit!(s, m[0]);
                visit!(s, m[1]);
                visit!(s, m[2]);
                visit!(s, m[3]);
                head += 1;
            }
        }
        stats.expanded = head as u64;
        stats.stored = tail as u64;
        (FastOutcome::Unsolvable, stats)
    }
}

/// The directions from the start to queue entry `at`, following parents.
fn actions_to(parent: &[u32], via: &[u8], mut at: usize) -> Vec<Action> {
    let mut acts = vec![];
    while parent[at] != u32::MAX {
        acts.push(Action::new(MoveId(0), DirId(u16::from(via[at]))));
        at = parent[at] as usize;
    }
    acts.reverse();
    acts
}
