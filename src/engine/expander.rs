//! The interpreter: runs move programs on packed states.
//!
//! The board is embedded in a padded grid, wide enough that any single step, turn offset
//! or footprint offset from a board cell lands inside it, so cells move by adding one
//! precomputed linear delta and "off the board" is a lookup. A state is one `u32` per piece
//! instance (`padded cell << pose bits | pose`, instances grouped by kind, anonymous kinds
//! kept sorted) followed by the bits of the mutable cells that have changed.
//! [`Expander::successors`] writes every successor into a reused buffer in action order
//! (move, then direction), so searches can break ties deterministically.

use crate::compile::{GoalCond, Model, Op, Place, SlideEvent, SlideRule, Step, Subject, TileId};

use super::level::Level;

const LEGAL: u8 = 1;
/// The footprint covers a cell whose tile can change: forbids and goals are checked live.
const LIVE: u8 = 2;
const GOAL: u8 = 4;
/// `ptile` value of padding cells.
const OFF: u16 = u16::MAX;
const NONE: u32 = u32::MAX;

/// Successors of one state: `words` values each, and the action that led to each.
#[derive(Default)]
pub struct Successors {
    pub states: Vec<u32>,
    pub actions: Vec<u32>,
}

impl Successors {
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    pub fn state(&self, i: usize, words: usize) -> &[u32] {
        &self.states[i * words..(i + 1) * words]
    }
}

/// An instance as output sees it: piece name, pose name, covered (row, column) cells.
pub type InstanceCells = (String, String, Vec<(usize, usize)>);

/// Where each kind's instances sit in the state.
#[derive(Clone, Debug)]
struct KindSlots {
    start: usize,
    count: usize,
    /// Bits holding the pose in a state word.
    bits: u32,
}

/// A step resolved for the padded grid.
#[derive(Clone, Copy, Debug)]
enum Delta {
    /// The move's direction, maybe reversed.
    Param {
        negate: bool,
    },
    Fixed(isize),
}

/// A move op with names and offsets resolved for this level's grid.
#[derive(Clone, Debug)]
enum KOp {
    Test {
        subject: Subject,
        kind: usize,
        delta: Option<Delta>,
        want: bool,
    },
    Shift {
        kind: usize,
        delta: Delta,
    },
    Swap {
        kind: usize,
        delta: Delta,
    },
    /// `table[pose * dirs + dir]`: new pose and linear anchor delta.
    Turn {
        kind: usize,
        table: Vec<Option<(u32, isize)>>,
    },
    Slide {
        kind: usize,
        delta: Delta,
        rules: Vec<SlideRule>,
    },
}

/// A move whose program only shifts and turns one single-instance piece, with no tests:
/// its successor depends on that piece's place alone, so it runs without the general
/// machinery.
#[derive(Clone, Debug)]
struct LocalMove {
    slot: usize,
    kind: usize,
    steps: Vec<KOp>,
    /// For one-step programs: per `pose * dirs + dir`, the new pose and anchor delta.
    single: Option<Vec<Option<(u32, isize)>>>,
}

/// Expands states of one level under one model.
pub struct Expander<'m> {
    pub model: &'m Model,
    pub level: Level,
    cols: usize,
    pad: usize,
    width: usize,
    /// Words per state.
    pub words: usize,
    slots: Vec<KindSlots>,
    slot_kind: Vec<u16>,
    /// Per padded cell: tile, or `OFF`.
    ptile: Vec<u16>,
    pmarks: Vec<u32>,
    /// Per padded cell: index of its mutable bit, or `NONE`.
    pmut: Vec<u32>,
    mutable_count: usize,
    /// Per kind, per pose: footprint as linear deltas.
    foot: Vec<Vec<Vec<isize>>>,
    /// Per kind, per state word value: LEGAL | LIVE | GOAL.
    flags: Vec<Vec<u8>>,
    dir_delta: Vec<isize>,
    kops: Vec<Vec<KOp>>,
    /// Per move: its local form, when it has one.
    local: Vec<Option<LocalMove>>,
    /// Per move: piece kinds acted on before a test binds them.
    free_kinds: Vec<Vec<u16>>,
    /// Kinds with more than one instance (their binding varies per run).
    multi_kinds: Vec<usize>,
    /// (slot, kind) of every instance a goal condition constrains.
    goal_slots: Vec<(usize, usize)>,
    any_sorted: bool,
    /// Every move is local and one-step, there is one instance and no mutable cell.
    solo: bool,
    /// Every pose of every piece covers exactly its anchor.
    one_cell: bool,
    /// For solo models: per pose, every (word delta, action) in action order.
    solo_table: Vec<Vec<(i64, u32)>>,
    /// For solo models: the one kind.
    solo_kind: usize,
    /// Per kind with goal conditions: relaxed distance to the goal of every place.
    heuristic: Option<Vec<Option<Vec<u32>>>>,
    // Scratch, reused across calls.
    cur: Vec<u32>,
    bound: Vec<u32>,
    choice: Vec<u32>,
    /// Bit `i` set when slot `i` moved (slots past 63 are always checked).
    moved: u64,
}

impl<'m> Expander<'m> {
    pub fn new(model: &'m Model, level: Level) -> Expander<'m> {
        let board = &level.board;
        let (rows, cols) = (board.rows, board.cols);
        let pad = reach(model) + 1;
        let width = cols + 2 * pad;
        let height = rows + 2 * pad;
        let mut ptile = vec![OFF; width * height];
        let mut pmarks = vec![0u32; width * height];
        let mut pmut = vec![NONE; width * height];
        let mut mutable_count = 0usize;
        for r in 0..rows {
            for c in 0..cols {
                let p = (r + pad) * width + c + pad;
                let t = board.tiles[r * cols + c];
                ptile[p] = t.0;
                pmarks[p] = board.marks[r * cols + c];
                if model.tiles[t.index()].becomes.is_some() {
                    pmut[p] = mutable_count as u32;
                    mutable_count += 1;
                }
            }
        }
        let mut slots = vec![];
        let mut slot_kind = vec![];
        for (k, kind) in model.pieces.iter().enumerate() {
            let start = slot_kind.len();
            let count = level
                .instances
                .iter()
                .filter(|i| i.piece.index() == k)
                .count();
            slot_kind.extend(std::iter::repeat_n(k as u16, count));
            let bits = usize::BITS - (kind.poses.len().max(1) - 1).leading_zeros();
            slots.push(KindSlots { start, count, bits });
        }
        let lin = |dr: i32, dc: i32| dr as isize * width as isize + dc as isize;
        let foot = model
            .pieces
            .iter()
            .map(|p| {
                p.poses
                    .iter()
                    .map(|pose| pose.cells.iter().map(|&(r, c)| lin(r, c)).collect())
                    .collect()
            })
            .collect();
        let dir_delta = model.dirs.iter().map(|d| lin(d.dr, d.dc)).collect();
        let words = slot_kind.len() + mutable_count.div_ceil(32);
        let nkinds = model.pieces.len();
        let mut e = Expander {
            model,
            cols,
            pad,
            width,
            words,
            slots,
            slot_kind,
            ptile,
            pmarks,
            pmut,
            mutable_count,
            foot,
            flags: vec![],
            dir_delta,
            kops: vec![],
            local: vec![],
            free_kinds: model.moves.iter().map(|m| free_kinds(&m.ops)).collect(),
            multi_kinds: vec![],
            goal_slots: vec![],
            any_sorted: false,
            solo: false,
            one_cell: model
                .pieces
                .iter()
                .all(|p| p.poses.iter().all(|q| q.cells.len() == 1)),
            solo_table: vec![],
            solo_kind: 0,
            heuristic: None,
            cur: vec![0; words],
            bound: vec![NONE; nkinds],
            choice: vec![NONE; nkinds],
            moved: 0,
            level,
        };
        e.kops = model
            .moves
            .iter()
            .map(|m| m.ops.iter().map(|op| e.kop(op)).collect())
            .collect();
        for (k, sl) in e.slots.iter().enumerate() {
            if sl.count == 1 {
                e.bound[k] = sl.start as u32;
            } else if sl.count > 1 {
                e.multi_kinds.push(k);
                if model.pieces[k].anonymous {
                    e.any_sorted = true;
                }
            }
        }
        e.local = e.kops.iter().map(|ops| e.local_form(ops)).collect();
        for k in 0..nkinds {
            if model.goal.iter().any(|g| g.piece.index() == k) {
                let sl = &e.slots[k];
                e.goal_slots
                    .extend((sl.start..sl.start + sl.count).map(|slot| (slot, k)));
            }
        }
        e.flags = (0..nkinds).map(|k| e.place_flags(k)).collect();
        e.solo = e.words == 1
            && e.local
                .iter()
                .all(|l| l.as_ref().is_some_and(|l| l.single.is_some()))
            && e.flags.iter().all(|f| f.iter().all(|x| x & LIVE == 0));
        if e.solo {
            e.solo_kind = e.slot_kind[0] as usize;
            let bits = e.slots[e.solo_kind].bits;
            let nd = e.dir_delta.len();
            let poses = model.pieces[e.solo_kind].poses.len();
            e.solo_table = (0..poses)
                .map(|pose| {
                    let mut row = vec![];
                    for (mi, local) in e.local.iter().enumerate() {
                        let table = local
                            .as_ref()
                            .and_then(|l| l.single.as_ref())
                            .expect("solo moves are single");
                        for d in 0..nd {
                            if let Some((np, v)) = table[pose * nd + d] {
                                row.push((
                                    ((v as i64) << bits) + np as i64 - pose as i64,
                                    (mi * nd + d) as u32,
                                ));
                            }
                        }
                    }
                    row
                })
                .collect();
        }
        e
    }

    fn delta(&self, step: Step) -> Delta {
        match step.fixed {
            None => Delta::Param {
                negate: step.negate,
            },
            Some(d) => {
                let v = self.dir_delta[d.index()];
                Delta::Fixed(if step.negate { -v } else { v })
            }
        }
    }

    fn kop(&self, op: &Op) -> KOp {
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => KOp::Test {
                subject: *subject,
                kind: cell.piece.index(),
                delta: cell.step.map(|s| self.delta(s)),
                want: *want,
            },
            Op::Shift { piece, step } => KOp::Shift {
                kind: piece.index(),
                delta: self.delta(*step),
            },
            Op::Swap { piece, step } => KOp::Swap {
                kind: piece.index(),
                delta: self.delta(*step),
            },
            Op::Turn { piece, table } => KOp::Turn {
                kind: piece.index(),
                table: table
                    .iter()
                    .map(|e| {
                        e.map(|(p, dr, dc)| {
                            (p.0 as u32, dr as isize * self.width as isize + dc as isize)
                        })
                    })
                    .collect(),
            },
            Op::Slide { piece, step, rules } => KOp::Slide {
                kind: piece.index(),
                delta: self.delta(*step),
                rules: rules.clone(),
            },
        }
    }

    fn local_form(&self, ops: &[KOp]) -> Option<LocalMove> {
        let mut kind = None;
        for op in ops {
            let k = match op {
                KOp::Shift { kind, .. } | KOp::Turn { kind, .. } => *kind,
                _ => return None,
            };
            if kind.is_some_and(|x| x != k) {
                return None;
            }
            kind = Some(k);
        }
        let kind = kind?;
        let nd = self.dir_delta.len();
        let np = self.model.pieces[kind].poses.len();
        let single = match ops {
            [KOp::Turn { table, .. }] => Some(table.clone()),
            [KOp::Shift { delta, .. }] => Some(
                (0..np * nd)
                    .map(|i| Some(((i / nd) as u32, self.resolve(*delta, i % nd))))
                    .collect(),
            ),
            _ => None,
        };
        (self.slots[kind].count == 1).then(|| LocalMove {
            slot: self.slots[kind].start,
            kind,
            steps: ops.to_vec(),
            single,
        })
    }

    /// Runs a local move: the new word of its slot, or `None`.
    #[inline]
    fn run_local(&self, s: &[u32], m: &LocalMove, d: usize) -> Option<u32> {
        let bits = self.slots[m.kind].bits;
        let mut a = (s[m.slot] >> bits) as usize;
        let mut pose = (s[m.slot] & ((1 << bits) - 1)) as usize;
        for st in &m.steps {
            match st {
                KOp::Shift { delta, .. } => a = (a as isize + self.resolve(*delta, d)) as usize,
                KOp::Turn { table, .. } => {
                    let (p, v) = table[pose * self.dir_delta.len() + d]?;
                    a = (a as isize + v) as usize;
                    pose = p as usize;
                }
                _ => unreachable!("local moves only shift and turn"),
            }
            if self.ptile[a] == OFF {
                return None;
            }
        }
        let w = (a as u32) << bits | pose as u32;
        let f = self.flags[m.kind][w as usize];
        if f & LIVE == 0 && f & LEGAL == 0 {
            return None;
        }
        Some(w)
    }

    fn to_padded(&self, cell: u32) -> u32 {
        let (r, c) = (cell as usize / self.cols, cell as usize % self.cols);
        ((r + self.pad) * self.width + c + self.pad) as u32
    }

    /// The board (row, column) of a padded cell on the board.
    fn unpad(&self, p: usize) -> Option<(usize, usize)> {
        if self.ptile[p] == OFF {
            return None;
        }
        Some((p / self.width - self.pad, p % self.width - self.pad))
    }

    /// The range of each state word, for dense stores.
    pub fn radix(&self) -> Vec<u32> {
        let n = self.ptile.len() as u64;
        let mut r: Vec<u32> = self
            .slot_kind
            .iter()
            .map(|&k| (n << self.slots[k as usize].bits).min(u32::MAX as u64) as u32)
            .collect();
        let nm = self.mutable_count;
        for w in 0..nm.div_ceil(32) {
            let bits = (nm - w * 32).min(32);
            r.push(if bits == 32 { u32::MAX } else { 1 << bits });
        }
        r
    }

    /// The start state.
    pub fn start(&self) -> Vec<u32> {
        let mut s = vec![0; self.words];
        let mut slot_of_kind: Vec<usize> = self.slots.iter().map(|s| s.start).collect();
        for inst in &self.level.instances {
            let k = inst.piece.index();
            let slot = slot_of_kind[k];
            slot_of_kind[k] += 1;
            s[slot] = self.to_padded(inst.cell) << self.slots[k].bits | inst.pose.0 as u32;
        }
        for (k, sl) in self.slots.iter().enumerate() {
            if self.model.pieces[k].anonymous {
                s[sl.start..sl.start + sl.count].sort_unstable();
            }
        }
        s
    }

    /// Whether a state breaks no rule (used to validate starts and replayed paths).
    pub fn is_legal(&self, s: &[u32]) -> bool {
        (0..self.slot_kind.len()).all(|i| self.slot_legal(s, i) && !self.overlaps_any(s, i))
    }

    /// The relaxed estimate of moves left (0 until [`Expander::prepare_heuristic`]).
    #[inline]
    pub fn estimate(&self, s: &[u32]) -> u32 {
        let Some(h) = &self.heuristic else { return 0 };
        let mut best = 0;
        for &(slot, k) in &self.goal_slots {
            if let Some(dist) = &h[k] {
                best = best.max(dist[s[slot] as usize]);
            }
        }
        best
    }

    /// Derives an admissible heuristic from the rules: for every piece kind the goal
    /// constrains, its distance to a goal place when it moves alone, ignoring every other
    /// piece and every test about them (a backward search over its own places). Each real
    /// move changes a piece's place by at most one relaxed step, so the maximum over the
    /// constrained instances never overestimates. Refused when tiles change in play (the
    /// relaxation would not bound the real moves) or costs are not unit.
    pub fn prepare_heuristic(&mut self) -> Result<(), String> {
        if self.mutable_count > 0 {
            return Err("tiles change during play, so a piece's own distance is no bound".into());
        }
        if !crate::solver::unit_costs(self.model) {
            return Err("moves do not all cost one unit".into());
        }
        if self.goal_slots.is_empty() {
            return Err("the goal constrains no piece".into());
        }
        let nd = self.dir_delta.len();
        let mut h: Vec<Option<Vec<u32>>> = vec![None; self.model.pieces.len()];
        for (k, hk) in h.iter_mut().enumerate() {
            if !self.goal_slots.iter().any(|&(_, kk)| kk == k) {
                continue;
            }
            let n = self.flags[k].len();
            // Reverse edges of the relaxed move graph.
            let mut rev: Vec<Vec<u32>> = vec![vec![]; n];
            for w in 0..n {
                if self.flags[k][w] & LEGAL == 0 {
                    continue;
                }
                for ops in &self.kops {
                    for d in 0..nd {
                        for to in self.relaxed(k, w as u32, ops, d) {
                            if to as usize != w && self.flags[k][to as usize] & LEGAL != 0 {
                                rev[to as usize].push(w as u32);
                            }
                        }
                    }
                }
            }
            let mut dist = vec![super::budget::UNREACHABLE; n];
            let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
            for (w, d) in dist.iter_mut().enumerate() {
                if self.flags[k][w] & LEGAL != 0 && self.flags[k][w] & GOAL != 0 {
                    *d = 0;
                    queue.push_back(w as u32);
                }
            }
            while let Some(w) = queue.pop_front() {
                let dw = dist[w as usize];
                for &p in &rev[w as usize] {
                    if dist[p as usize] == super::budget::UNREACHABLE {
                        dist[p as usize] = dw + 1;
                        queue.push_back(p);
                    }
                }
            }
            *hk = Some(dist);
        }
        self.heuristic = Some(h);
        Ok(())
    }

    /// Every goal state, for searches that start from the goal; `Err` when there are more
    /// than `limit`. Pieces stand on legal places, do not overlap, and meet the goal;
    /// interchangeable instances are listed once (sorted).
    pub fn goal_states(&self, limit: usize) -> Result<Vec<Vec<u32>>, String> {
        if self.mutable_count > 0 {
            return Err("tiles change during play".into());
        }
        let n = self.slot_kind.len();
        let choices: Vec<Vec<u32>> = (0..n)
            .map(|slot| {
                let k = self.slot_kind[slot] as usize;
                let need_goal = self.goal_slots.iter().any(|&(_, kk)| kk == k);
                (0..self.flags[k].len() as u32)
                    .filter(|&w| {
                        let f = self.flags[k][w as usize];
                        f & LEGAL != 0 && (!need_goal || f & GOAL != 0)
                    })
                    .collect()
            })
            .collect();
        let mut out = vec![];
        let mut cur = vec![0u32; self.words];
        self.enumerate_goals(0, &choices, &mut cur, &mut out, limit)?;
        Ok(out)
    }

    fn enumerate_goals(
        &self,
        slot: usize,
        choices: &[Vec<u32>],
        cur: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        limit: usize,
    ) -> Result<(), String> {
        if slot == choices.len() {
            if out.len() >= limit {
                return Err(format!("more than {limit} goal states"));
            }
            out.push(cur.clone());
            return Ok(());
        }
        let k = self.slot_kind[slot] as usize;
        let same_kind_before =
            slot > 0 && self.slot_kind[slot - 1] as usize == k && self.model.pieces[k].anonymous;
        for &w in &choices[slot] {
            if same_kind_before && w <= cur[slot - 1] {
                continue;
            }
            cur[slot] = w;
            if (0..slot).any(|o| self.overlap_pair(cur, slot, o)) {
                continue;
            }
            self.enumerate_goals(slot + 1, choices, cur, out, limit)?;
        }
        Ok(())
    }

    fn overlap_pair(&self, s: &[u32], a: usize, b: usize) -> bool {
        let k = self.slot_kind[a] as usize;
        let (anchor, pose) = self.anchor(s, a);
        self.foot[k][pose]
            .iter()
            .any(|&dl| self.covers(s, b, (anchor as isize + dl) as usize))
    }

    /// Places kind `k` may reach from word `w` in one application of a move, alone on the
    /// board: ops on other pieces and all tests are ignored, a swap by another piece may
    /// or may not displace it, and a slide may stop at any cell where a piece could block.
    fn relaxed(&self, k: usize, w: u32, ops: &[KOp], d: usize) -> Vec<u32> {
        let bits = self.slots[k].bits;
        let mut cands: Vec<(usize, usize)> =
            vec![((w >> bits) as usize, (w & ((1 << bits) - 1)) as usize)];
        for op in ops {
            let mut next = vec![];
            for &(a, pose) in &cands {
                match op {
                    KOp::Test { .. } => next.push((a, pose)),
                    KOp::Shift { kind, delta } | KOp::Swap { kind, delta } if *kind == k => {
                        if self.slots[k].count > 1 {
                            next.push((a, pose)); // the op may move another instance
                        }
                        let to = (a as isize + self.resolve(*delta, d)) as usize;
                        if self.ptile[to] != OFF {
                            next.push((to, pose));
                        }
                    }
                    KOp::Swap { delta, .. } => {
                        next.push((a, pose));
                        let back = (a as isize - self.resolve(*delta, d)) as usize;
                        if self.ptile[back] != OFF {
                            next.push((back, pose));
                        }
                    }
                    KOp::Turn { kind, table } if *kind == k => {
                        if let Some((p, v)) = table[pose * self.dir_delta.len() + d] {
                            let to = (a as isize + v) as usize;
                            if self.ptile[to] != OFF {
                                next.push((to, p as usize));
                            }
                        }
                    }
                    KOp::Slide { kind, delta, rules } if *kind == k => {
                        let v = self.resolve(*delta, d);
                        let may_block = rules
                            .iter()
                            .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
                        let mut at = a;
                        for _ in 0..self.ptile.len() {
                            let nxt = (at as isize + v) as usize;
                            let off = self.ptile[nxt] == OFF;
                            let mut stop = false;
                            let mut lost = false;
                            for r in rules {
                                let fires = match r.event {
                                    SlideEvent::OffBoard => off,
                                    SlideEvent::BeforeTile(t) => !off && self.ptile[nxt] == t.0,
                                    _ => false,
                                };
                                if fires {
                                    lost |= r.lose;
                                    stop |= r.stop;
                                    if r.lose || r.stop {
                                        break;
                                    }
                                }
                            }
                            if lost {
                                break;
                            }
                            if stop {
                                next.push((at, pose));
                                break;
                            }
                            if off {
                                break;
                            }
                            at = nxt;
                            if may_block {
                                next.push((at, pose));
                            }
                            let into = rules.iter().any(|r| match r.event {
                                SlideEvent::Into(p) => r.stop && self.on_place(&[], at, p),
                                _ => false,
                            });
                            if into {
                                next.push((at, pose));
                                break;
                            }
                        }
                    }
                    _ => next.push((a, pose)),
                }
            }
            cands = next;
        }
        cands
            .into_iter()
            .map(|(a, p)| (a as u32) << bits | p as u32)
            .collect()
    }

    /// Whether a state satisfies the goal.
    #[inline]
    pub fn is_goal(&self, s: &[u32]) -> bool {
        self.goal_slots.iter().all(|&(slot, k)| {
            let f = self.flags[k][s[slot] as usize];
            if f & LIVE != 0 {
                self.goal_live(s, slot)
            } else {
                f & GOAL != 0
            }
        })
    }

    /// The piece kind covering each board cell, for rendering.
    pub fn occupancy(&self, s: &[u32]) -> Vec<Option<crate::compile::PieceId>> {
        let mut occ = vec![None; self.level.board.rows * self.cols];
        for slot in 0..self.slot_kind.len() {
            let k = self.slot_kind[slot] as usize;
            let (a, pose) = self.anchor(s, slot);
            for &d in &self.foot[k][pose] {
                if let Some((r, c)) = self.unpad((a as isize + d) as usize) {
                    occ[r * self.cols + c] = Some(crate::compile::PieceId(k as u16));
                }
            }
        }
        occ
    }

    /// The tile a board cell holds in state `s`.
    pub fn tile_now(&self, s: &[u32], cell: u32) -> Option<TileId> {
        self.tile_at(s, self.to_padded(cell) as usize)
    }

    /// Piece name, pose name and covered board cells (row, column) of each instance.
    pub fn instance_cells(&self, s: &[u32]) -> Vec<InstanceCells> {
        (0..self.slot_kind.len())
            .map(|slot| {
                let k = self.slot_kind[slot] as usize;
                let (a, pose) = self.anchor(s, slot);
                let piece = &self.model.pieces[k];
                let cells = self.foot[k][pose]
                    .iter()
                    .filter_map(|&d| self.unpad((a as isize + d) as usize))
                    .collect();
                (piece.name.clone(), piece.poses[pose].name.clone(), cells)
            })
            .collect()
    }

    /// All successors of `s`, in action order.
    pub fn successors(&mut self, s: &[u32], out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        if self.solo {
            self.solo_successors(s[0], out);
            return;
        }
        let nd = self.model.dirs.len();
        let kops = std::mem::take(&mut self.kops);
        let free_kinds = std::mem::take(&mut self.free_kinds);
        let words = self.words;
        for (mi, ops) in kops.iter().enumerate() {
            if let Some(local) = &self.local[mi] {
                for d in 0..nd {
                    let Some(w) = self.run_local(s, local, d) else {
                        continue;
                    };
                    if words == 1 {
                        out.states.push(w);
                    } else {
                        let at = out.states.len();
                        out.states.extend_from_slice(s);
                        out.states[at + local.slot] = w;
                        let st = &out.states[at..];
                        if !self.slot_legal(st, local.slot) || self.overlaps_any(st, local.slot) {
                            out.states.truncate(at);
                            continue;
                        }
                    }
                    out.actions.push((mi * nd + d) as u32);
                }
                continue;
            }
            let free = &free_kinds[mi];
            for d in 0..nd {
                let action = (mi * nd + d) as u32;
                if free.iter().all(|&k| self.slots[k as usize].count == 1) {
                    if self.run(s, ops, d) {
                        out.states.extend_from_slice(&self.cur);
                        out.actions.push(action);
                    }
                } else {
                    self.enumerate(s, ops, d, free, 0, action, out);
                }
            }
        }
        self.kops = kops;
        self.free_kinds = free_kinds;
    }

    /// Successors when one piece moves alone by one-step programs on a static board: a
    /// table lookup and a legality flag per action.
    #[inline]
    fn solo_successors(&self, w: u32, out: &mut Successors) {
        let bits = self.slots[self.solo_kind].bits;
        let flags = &self.flags[self.solo_kind];
        for &(dw, action) in &self.solo_table[(w & ((1 << bits) - 1)) as usize] {
            let nw = (w as i64 + dw) as u32;
            if flags[nw as usize] & LEGAL != 0 {
                out.states.push(nw);
                out.actions.push(action);
            }
        }
    }

    /// Runs a move for every choice of instances of its free kinds.
    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &mut self,
        s: &[u32],
        ops: &[KOp],
        d: usize,
        free: &[u16],
        at: usize,
        action: u32,
        out: &mut Successors,
    ) {
        if at == free.len() {
            if self.run(s, ops, d) {
                out.states.extend_from_slice(&self.cur);
                out.actions.push(action);
            }
            return;
        }
        let k = free[at] as usize;
        let (start, count) = (self.slots[k].start, self.slots[k].count);
        match count {
            0 => {}
            1 => self.enumerate(s, ops, d, free, at + 1, action, out),
            _ => {
                for slot in start..start + count {
                    self.choice[k] = slot as u32;
                    self.enumerate(s, ops, d, free, at + 1, action, out);
                }
                self.choice[k] = NONE;
            }
        }
    }

    /// Anchor (padded cell) and pose of a slot.
    #[inline]
    fn anchor(&self, s: &[u32], slot: usize) -> (usize, usize) {
        let bits = self.slots[self.slot_kind[slot] as usize].bits;
        (
            (s[slot] >> bits) as usize,
            (s[slot] & ((1 << bits) - 1)) as usize,
        )
    }

    #[inline]
    fn resolve(&self, delta: Delta, d: usize) -> isize {
        match delta {
            Delta::Param { negate: false } => self.dir_delta[d],
            Delta::Param { negate: true } => -self.dir_delta[d],
            Delta::Fixed(v) => v,
        }
    }

    /// The tile a padded cell holds now (`None` off the board with no `outside`).
    #[inline]
    fn tile_at(&self, s: &[u32], p: usize) -> Option<TileId> {
        let t = self.ptile[p];
        if t == OFF {
            return self.model.outside;
        }
        let bit = self.pmut[p];
        if bit != NONE && self.mutable_set(s, bit) {
            self.model.tiles[t as usize].becomes
        } else {
            Some(TileId(t))
        }
    }

    #[inline]
    fn mutable_set(&self, s: &[u32], bit: u32) -> bool {
        let w = self.slot_kind.len() + bit as usize / 32;
        s[w] >> (bit % 32) & 1 == 1
    }

    fn on_place(&self, s: &[u32], p: usize, place: Place) -> bool {
        match place {
            Place::Tile(t) => self.tile_at(s, p) == Some(t),
            Place::Mark(k) => self.pmarks[p] >> k.0 & 1 == 1,
        }
    }

    /// Whether `slot`'s footprint covers padded cell `p`.
    #[inline]
    fn covers(&self, s: &[u32], slot: usize, p: usize) -> bool {
        let k = self.slot_kind[slot] as usize;
        let (a, pose) = self.anchor(s, slot);
        let f = &self.foot[k][pose];
        if f.len() == 1 {
            return a == p;
        }
        f.iter().any(|&d| (a as isize + d) as usize == p)
    }

    /// The slot of an instance of kind `k` covering `p`.
    fn instance_at(&self, s: &[u32], k: usize, p: usize) -> Option<usize> {
        let sl = &self.slots[k];
        (sl.start..sl.start + sl.count).find(|&slot| self.covers(s, slot, p))
    }

    fn any_instance_at(&self, s: &[u32], p: usize, except: usize) -> Option<usize> {
        (0..self.slot_kind.len()).find(|&slot| slot != except && self.covers(s, slot, p))
    }

    #[inline]
    fn set_place(&mut self, slot: usize, p: usize, pose: usize) {
        let bits = self.slots[self.slot_kind[slot] as usize].bits;
        self.cur[slot] = (p as u32) << bits | pose as u32;
        if slot < 64 {
            self.moved |= 1 << slot;
        }
    }

    /// Runs one move program on a copy of `s` in `self.cur`; true if it yields a legal state.
    #[inline]
    fn run(&mut self, s: &[u32], ops: &[KOp], d: usize) -> bool {
        for (c, v) in self.cur.iter_mut().zip(s) {
            *c = *v;
        }
        self.moved = 0;
        for &k in &self.multi_kinds {
            self.bound[k] = self.choice[k];
        }
        for op in ops {
            if !self.op(op, d) {
                return false;
            }
        }
        self.finish()
    }

    /// The slot bound to kind `k`, if any.
    #[inline]
    fn bound_slot(&self, k: usize) -> Option<usize> {
        let b = self.bound[k];
        (b != NONE).then_some(b as usize)
    }

    /// Applies one op to `self.cur`; false when the move cannot go on.
    #[inline]
    fn op(&mut self, op: &KOp, d: usize) -> bool {
        match op {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, _) = self.anchor(&self.cur, slot);
                let p = (a as isize + delta.map_or(0, |x| self.resolve(x, d))) as usize;
                let holds = match *subject {
                    Subject::Tile(t) => self.tile_at(&self.cur, p) == Some(t),
                    Subject::Mark(m) => self.pmarks[p] >> m.0 & 1 == 1,
                    Subject::Piece(pk) => {
                        let k = pk.index();
                        if self.ptile[p] == OFF {
                            false
                        } else if let Some(b) = self.bound_slot(k) {
                            self.covers(&self.cur, b, p)
                        } else if let Some(found) = self.instance_at(&self.cur, k, p) {
                            if *want {
                                self.bound[k] = found as u32;
                            }
                            true
                        } else {
                            false
                        }
                    }
                };
                holds == *want
            }
            KOp::Shift { kind, delta } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.anchor(&self.cur, slot);
                let to = (a as isize + self.resolve(*delta, d)) as usize;
                if self.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, pose);
                true
            }
            KOp::Swap { kind, delta } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.anchor(&self.cur, slot);
                let v = self.resolve(*delta, d);
                let to = (a as isize + v) as usize;
                if self.ptile[to] == OFF {
                    return false;
                }
                if let Some(other) = self.any_instance_at(&self.cur, to, slot) {
                    let (oa, opose) = self.anchor(&self.cur, other);
                    let back = (oa as isize - v) as usize;
                    if self.ptile[back] == OFF {
                        return false;
                    }
                    self.set_place(other, back, opose);
                }
                self.set_place(slot, to, pose);
                true
            }
            KOp::Turn { kind, table } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let (a, pose) = self.anchor(&self.cur, slot);
                let Some((to_pose, v)) = table[pose * self.dir_delta.len() + d] else {
                    return false;
                };
                let to = (a as isize + v) as usize;
                if self.ptile[to] == OFF {
                    return false;
                }
                self.set_place(slot, to, to_pose as usize);
                true
            }
            KOp::Slide { kind, delta, rules } => {
                let Some(slot) = self.bound_slot(*kind) else {
                    return false;
                };
                let v = self.resolve(*delta, d);
                self.slide(slot, v, rules)
            }
        }
    }

    /// Slides `slot` by `v` per step until an event stops it; works on `self.cur`.
    fn slide(&mut self, slot: usize, v: isize, rules: &[SlideRule]) -> bool {
        let limit = self.ptile.len();
        for _ in 0..limit {
            let (a, pose) = self.anchor(&self.cur, slot);
            let next = (a as isize + v) as usize;
            let off = self.ptile[next] == OFF;
            // Events about the cell ahead, in declaration order.
            for r in rules {
                let fires = match r.event {
                    SlideEvent::OffBoard => off,
                    SlideEvent::BeforeTile(t) => !off && self.tile_at(&self.cur, next) == Some(t),
                    SlideEvent::BeforePiece(p) => {
                        !off && self.instance_at(&self.cur, p.index(), next).is_some()
                    }
                    SlideEvent::Into(_) => false,
                };
                if !fires {
                    continue;
                }
                if r.lose {
                    return false;
                }
                if r.brk {
                    let bit = self.pmut[next];
                    if bit != NONE {
                        let w = self.slot_kind.len() + bit as usize / 32;
                        self.cur[w] |= 1 << (bit % 32);
                    }
                }
                if r.stop {
                    return true;
                }
            }
            if off {
                return false;
            }
            self.set_place(slot, next, pose);
            if !self.slot_legal(&self.cur, slot) || self.overlaps_any(&self.cur, slot) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.on_place(&self.cur, next, place) {
                        if r.lose {
                            return false;
                        }
                        if r.stop {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Checks the moved instances and canonicalizes anonymous kinds.
    #[inline]
    fn finish(&mut self) -> bool {
        let n = self.slot_kind.len();
        for slot in 0..n {
            if (slot >= 64 || self.moved >> slot & 1 == 1)
                && (!self.slot_legal(&self.cur, slot) || self.overlaps_any(&self.cur, slot))
            {
                return false;
            }
        }
        if self.any_sorted {
            for &k in &self.multi_kinds {
                let sl = &self.slots[k];
                if self.model.pieces[k].anonymous {
                    self.cur[sl.start..sl.start + sl.count].sort_unstable();
                }
            }
        }
        true
    }

    #[inline]
    fn slot_legal(&self, s: &[u32], slot: usize) -> bool {
        let k = self.slot_kind[slot] as usize;
        let f = self.flags[k][s[slot] as usize];
        if f & LIVE == 0 {
            return f & LEGAL != 0;
        }
        if f & LEGAL == 0 {
            return false;
        }
        let (a, pose) = self.anchor(s, slot);
        for fb in self.model.forbids.iter().filter(|f| f.piece.index() == k) {
            if fb.pose.is_some_and(|p| p.index() != pose) {
                continue;
            }
            for &dl in &self.foot[k][pose] {
                let p = (a as isize + dl) as usize;
                if self.pmut[p] != NONE && self.on_place(s, p, fb.place) {
                    return false;
                }
            }
        }
        true
    }

    #[inline]
    fn overlaps_any(&self, s: &[u32], slot: usize) -> bool {
        if self.slot_kind.len() < 2 {
            return false;
        }
        if self.one_cell {
            // Every piece covers its anchor alone: overlap is a shared anchor.
            let (a, _) = self.anchor(s, slot);
            return (0..self.slot_kind.len()).any(|o| o != slot && self.anchor(s, o).0 == a);
        }
        let k = self.slot_kind[slot] as usize;
        let (a, pose) = self.anchor(s, slot);
        self.foot[k][pose].iter().any(|&dl| {
            self.any_instance_at(s, (a as isize + dl) as usize, slot)
                .is_some()
        })
    }

    fn goal_live(&self, s: &[u32], slot: usize) -> bool {
        let k = self.slot_kind[slot] as usize;
        let (a, pose) = self.anchor(s, slot);
        let conds: Vec<&GoalCond> = self
            .model
            .goal
            .iter()
            .filter(|g| g.piece.index() == k)
            .collect();
        conds.iter().all(|g| {
            g.pose.is_none_or(|p| p.index() == pose)
                && self.foot[k][pose]
                    .iter()
                    .all(|&dl| self.on_place(s, (a as isize + dl) as usize, g.on))
        })
    }

    /// Static flags of every state word value of kind `k`, from the initial board.
    fn place_flags(&self, k: usize) -> Vec<u8> {
        let piece = &self.model.pieces[k];
        let bits = self.slots[k].bits;
        let n = self.ptile.len();
        // Per pose, per padded cell: whether the cell alone breaks a forbid / meets the goal.
        let forbids: Vec<_> = self
            .model
            .forbids
            .iter()
            .filter(|f| f.piece.index() == k)
            .collect();
        let goals: Vec<&GoalCond> = self
            .model
            .goal
            .iter()
            .filter(|g| g.piece.index() == k)
            .collect();
        let mut flags = vec![0u8; n << bits];
        let ntiles = self.model.tiles.len();
        for pi in 0..piece.poses.len() {
            // What a single cell's tile or marks mean for this pose, as lookups.
            let mut tile_bad = vec![false; ntiles];
            let mut marks_bad = 0u32;
            for f in forbids
                .iter()
                .filter(|f| f.pose.is_none_or(|q| q.index() == pi))
            {
                match f.place {
                    Place::Tile(t) => tile_bad[t.index()] = true,
                    Place::Mark(m) => marks_bad |= 1 << m.0,
                }
            }
            let outside_bad = self.model.outside.is_none_or(|t| tile_bad[t.index()]);
            let mut cell_bad = vec![false; n];
            let mut cell_goal = vec![true; n];
            for p in 0..n {
                let t = self.ptile[p];
                if t == OFF {
                    cell_bad[p] = outside_bad;
                    cell_goal[p] = self
                        .model
                        .outside
                        .is_some_and(|o| goals.iter().all(|g| g.on == Place::Tile(o)));
                    continue;
                }
                if self.pmut[p] != NONE {
                    continue;
                }
                cell_bad[p] = tile_bad[t as usize] || self.pmarks[p] & marks_bad != 0;
                cell_goal[p] = goals.iter().all(|g| match g.on {
                    Place::Tile(x) => x.0 == t,
                    Place::Mark(m) => self.pmarks[p] >> m.0 & 1 == 1,
                });
            }
            let pose_goal = goals.iter().all(|g| g.pose.is_none_or(|q| q.index() == pi));
            let foot = &self.foot[k][pi];
            // Per cell, the flags it forces off and on: a forbidden cell clears LEGAL, a
            // cell off the goal clears GOAL, a mutable cell sets LIVE (checked in play).
            let clear: Vec<u8> = (0..n)
                .map(|p| {
                    if self.pmut[p] != NONE {
                        0
                    } else {
                        (if cell_bad[p] { LEGAL } else { 0 })
                            | (if cell_goal[p] { 0 } else { GOAL })
                    }
                })
                .collect();
            let live: Vec<u8> = self
                .pmut
                .iter()
                .map(|&m| if m != NONE { LIVE } else { 0 })
                .collect();
            let (lo, hi) = (
                self.pad * self.width + self.pad,
                n - self.pad * self.width - self.pad,
            );
            let init = LEGAL | if pose_goal { GOAL } else { 0 };
            for a in lo..hi {
                if self.ptile[a] == OFF {
                    continue;
                }
                let (mut off, mut on) = (0u8, 0u8);
                for &dl in foot {
                    let p = (a as isize + dl) as usize;
                    off |= clear[p];
                    on |= live[p];
                }
                let f = (init & !off) | on;
                flags[a << bits | pi] = f;
            }
        }
        flags
    }
}

/// The largest row or column distance any step, turn or footprint reaches.
fn reach(model: &Model) -> usize {
    let mut r = 1i32;
    for p in &model.pieces {
        for pose in &p.poses {
            for &(dr, dc) in &pose.cells {
                r = r.max(dr.abs()).max(dc.abs());
            }
        }
    }
    for d in &model.dirs {
        r = r.max(d.dr.abs()).max(d.dc.abs());
    }
    for m in &model.moves {
        for op in &m.ops {
            if let Op::Turn { table, .. } = op {
                for &(_, dr, dc) in table.iter().flatten() {
                    r = r.max(dr.abs()).max(dc.abs());
                }
            }
        }
    }
    r as usize
}

/// Piece kinds a program acts on before a `require KIND at ...` binds them.
fn free_kinds(ops: &[Op]) -> Vec<u16> {
    let mut bound: Vec<u16> = vec![];
    let mut free: Vec<u16> = vec![];
    let actor = |k: u16, bound: &Vec<u16>, free: &mut Vec<u16>| {
        if !bound.contains(&k) && !free.contains(&k) {
            free.push(k);
        }
    };
    for op in ops {
        match op {
            Op::Test {
                subject,
                cell,
                want,
            } => {
                actor(cell.piece.0, &bound, &mut free);
                if let (Subject::Piece(p), true) = (subject, want) {
                    if !free.contains(&p.0) {
                        bound.push(p.0);
                    }
                }
            }
            Op::Shift { piece, .. }
            | Op::Swap { piece, .. }
            | Op::Turn { piece, .. }
            | Op::Slide { piece, .. } => actor(piece.0, &bound, &mut free),
        }
    }
    free
}
