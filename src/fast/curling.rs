//! Fast path for sliding-stone puzzles shaped like Curling 2.0.
//!
//! Fingerprint: one one-cell piece; four unit directions in any order; one tile kind `B`
//! that breaks into an immutable tile; one move, costing one unit, that is exactly
//! `forbid B at P + d` then `slide P d { into G: stop  before B: stop, break  off board:
//! lose }` (rules in any order); `forbid P on B`; goal `P on G`; a limit of 10 moves.
//!
//! Solver: breadth-first search by throws over (stone cell, set of broken blocks), with
//! the set kept as a short sorted list (a throw breaks at most one block, so it never
//! exceeds the limit) and slides jumping along precomputed rays from block to block.
//! Successors follow the model's direction order, so paths match the interpreter's.

use hashbrown::HashMap;

use crate::compile::{Action, DirId, Model, MoveId, Op, Place, SlideEvent, Subject, TileId};
use crate::engine::Level;
use crate::search::{Budget, Cutoff, Stats, CHECK_EVERY};

use super::fingerprint::{compass, is_param, unit_cost};
use super::{FastOutcome, FastPath};

/// The move limit the fingerprint requires (the judge's rule).
const LIMIT: u32 = 10;

/// The Curling fast path for one model.
pub(crate) struct Curling {
    dir: [usize; 4],
    block: TileId,
    goal: Place,
}

impl Curling {
    /// Accepts a model whose rules are exactly those above, or says what differs.
    pub(crate) fn detect(model: &Model) -> Result<Curling, String> {
        unit_cost(model)?;
        if model.limit != Some(LIMIT) {
            return Err(format!("needs a limit of {LIMIT} moves"));
        }
        let [piece] = model.pieces.as_slice() else {
            return Err(format!("needs one piece, has {}", model.pieces.len()));
        };
        if piece.anonymous || piece.poses.len() != 1 || piece.poses[0].cells != [(0, 0)] {
            return Err("the piece must be a single one-cell piece".into());
        }
        let dir = compass(model)?;
        let mutable: Vec<usize> = (0..model.tiles.len())
            .filter(|&i| model.tiles[i].becomes.is_some())
            .collect();
        let [b] = mutable.as_slice() else {
            return Err("needs exactly one breakable tile".into());
        };
        let block = TileId(*b as u16);
        let into = model.tiles[*b].becomes.expect("breakable");
        if model.tiles[into.index()].becomes.is_some() {
            return Err("broken blocks change again".into());
        }
        let [m] = model.moves.as_slice() else {
            return Err(format!("needs one move, has {}", model.moves.len()));
        };
        let goal = match m.ops.as_slice() {
            [Op::Test {
                subject: Subject::Tile(t),
                cell,
                want: false,
            }, Op::Slide { step, rules, .. }]
                if *t == block && cell.step.as_ref().is_some_and(is_param) && is_param(step) =>
            {
                let mut goal = None;
                let (mut before, mut off) = (false, false);
                for r in rules {
                    match (r.event, r.stop, r.brk, r.lose) {
                        (SlideEvent::Into(p), true, false, false) if goal.is_none() => {
                            goal = Some(p)
                        }
                        (SlideEvent::BeforeTile(t), true, true, false) if t == block && !before => {
                            before = true
                        }
                        (SlideEvent::OffBoard, false, false, true) if !off => off = true,
                        _ => return Err("the slide's events differ".into()),
                    }
                }
                match (goal, before, off) {
                    (Some(g), true, true) => g,
                    _ => return Err("the slide's events differ".into()),
                }
            }
            _ => return Err("the move is not `forbid B at P + d` then a slide".into()),
        };
        match model.forbids.as_slice() {
            [f] if f.pose.is_none() && f.place == Place::Tile(block) => {}
            _ => return Err("forbids are not exactly `P on B`".into()),
        }
        match model.goal.as_slice() {
            [g] if g.pose.is_none() && g.on == goal => {}
            _ => return Err("the goal is not the slide's stopping place".into()),
        }
        if goal == Place::Tile(block) || goal == Place::Tile(into) {
            return Err("the goal is a block tile or what blocks break into".into());
        }
        if model.outside == Some(block) {
            return Err("outside the board is a block".into());
        }
        Ok(Curling { dir, block, goal })
    }
}

/// Sentinel ray target: the stone leaves the board.
const OUT: u32 = u32::MAX;
/// Most blocks a state may record broken (one per throw).
const KEY: usize = LIMIT as usize + 1;

impl FastPath for Curling {
    fn name(&self) -> &'static str {
        "curling"
    }

    fn solve(&mut self, level: &Level, budget: &Budget, need_path: bool) -> (FastOutcome, Stats) {
        let t0 = web_time::Instant::now();
        let b = &level.board;
        let (rows, cols) = (b.rows as i64, b.cols as i64);
        let n = b.rows * b.cols;
        let is_block: Vec<bool> = b.tiles.iter().map(|&t| t == self.block).collect();
        let is_goal: Vec<bool> = (0..n)
            .map(|c| match self.goal {
                Place::Tile(g) => b.tiles[c] == g,
                Place::Mark(k) => b.has_mark(c as u32, k),
            })
            .collect();
        // Directions in the model's order: (model index, dr, dc).
        let steps: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        let mut order: Vec<(usize, usize)> = (0..4).map(|k| (self.dir[k], k)).collect();
        order.sort_unstable();
        // ray[c * 4 + k]: first cell after c along compass k that is a block or a goal,
        // found in one sweep per direction from the side the ray points to (the
        // neighbour's ray is known first), so the tables cost time linear in the board.
        let mut ray = vec![OUT; n * 4];
        for (k, &(dr, dc)) in steps.iter().enumerate() {
            let towards_start = dr < 0 || dc < 0;
            for i in 0..n {
                let c = if towards_start { i } else { n - 1 - i };
                let (r1, c1) = ((c as i64) / cols + dr, (c as i64) % cols + dc);
                if r1 < 0 || c1 < 0 || r1 >= rows || c1 >= cols {
                    continue;
                }
                let x = (r1 * cols + c1) as usize;
                ray[c * 4 + k] = if is_block[x] || is_goal[x] {
                    x as u32
                } else {
                    ray[x * 4 + k]
                };
            }
        }
        if let Some(c) = budget.check(&Stats::default()) {
            let stats = Stats {
                elapsed: t0.elapsed(),
                ..Stats::default()
            };
            return (FastOutcome::Cutoff(c), stats);
        }
        let start = level.instances[0].cell;
        let mut stats = Stats::default();
        // A state: [cell, broken blocks sorted..., padding u32::MAX].
        let mut key0 = [u32::MAX; KEY];
        key0[0] = start;
        let mut seen: HashMap<[u32; KEY], u32> = HashMap::new();
        let mut states: Vec<[u32; KEY]> = vec![key0];
        let mut parent: Vec<(u32, u8)> = vec![(u32::MAX, 0)];
        seen.insert(key0, 0);
        let finish = |stats: &mut Stats, count: usize| {
            stats.stored = count as u64;
            stats.elapsed = t0.elapsed();
        };
        if is_goal[start as usize] {
            finish(&mut stats, 1);
            return (
                FastOutcome::Solved {
                    cost: vec![0],
                    actions: need_path.then(Vec::new),
                },
                stats,
            );
        }
        let (mut head, mut layer_end) = (0usize, 1usize);
        for depth in 1..=LIMIT {
            let end = layer_end;
            while head < end {
                let cur = states[head];
                let broken = |x: u32| {
                    cur[1..]
                        .iter()
                        .take_while(|&&v| v != u32::MAX)
                        .any(|&v| v == x)
                };
                stats.expanded += 1;
                for &(md, k) in &order {
                    let (dr, dc) = steps[k];
                    let c = cur[0] as i64;
                    let (r1, c1) = (c / cols + dr, c % cols + dc);
                    if r1 < 0 || c1 < 0 || r1 >= rows || c1 >= cols {
                        continue; // thrown straight off the board: lost
                    }
                    let adj = (r1 * cols + c1) as u32;
                    if is_block[adj as usize] && !broken(adj) {
                        continue; // may not throw into an adjacent block
                    }
                    // Follow the ray: a live block stops the stone before it, a goal (a
                    // broken block's cell included) stops it there, broken blocks let it pass.
                    let mut t = ray[cur[0] as usize * 4 + k];
                    while t != OUT && is_block[t as usize] && broken(t) && !is_goal[t as usize] {
                        t = ray[t as usize * 4 + k];
                    }
                    if t == OUT {
                        continue;
                    }
                    let mut next = cur;
                    let solved = is_goal[t as usize] && (!is_block[t as usize] || broken(t));
                    if solved {
                        next[0] = t;
                    } else {
                        let stop = (t as i64 - (dr * cols + dc)) as u32;
                        next[0] = stop;
                        let len = next[1..].iter().take_while(|&&v| v != u32::MAX).count();
                        if len + 1 >= KEY {
                            continue;
                        }
                        next[1 + len] = t;
                        next[1..2 + len].sort_unstable();
                    }
                    if seen.contains_key(&next) {
                        continue;
                    }
                    let id = states.len() as u32;
                    seen.insert(next, id);
                    states.push(next);
                    parent.push((head as u32, md as u8));
                    if solved {
                        finish(&mut stats, states.len());
                        let actions = need_path.then(|| {
                            let mut acts = vec![];
                            let mut at = id as usize;
                            while parent[at].0 != u32::MAX {
                                acts.push(Action::new(MoveId(0), DirId(parent[at].1 as u16)));
                                at = parent[at].0 as usize;
                            }
                            acts.reverse();
                            acts
                        });
                        return (
                            FastOutcome::Solved {
                                cost: vec![depth as u64],
                                actions,
                            },
                            stats,
                        );
                    }
                }
                head += 1;
                if let Some(m) = budget.max_states.filter(|&m| states.len() >= m) {
                    finish(&mut stats, states.len());
                    return (FastOutcome::Cutoff(Cutoff::States(m)), stats);
                }
                if stats.expanded.is_multiple_of(CHECK_EVERY) {
                    if let Some(c) = budget.check(&stats) {
                        finish(&mut stats, states.len());
                        return (FastOutcome::Cutoff(c), stats);
                    }
                }
            }
            layer_end = states.len();
            if head == layer_end {
                break;
            }
            stats.stored = states.len() as u64;
            if let Some(c) = budget.check(&stats) {
                finish(&mut stats, states.len());
                return (FastOutcome::Cutoff(c), stats);
            }
        }
        finish(&mut stats, states.len());
        (FastOutcome::Unsolvable, stats)
    }
}
