//! Where each piece can go alone: the relaxation of the A* heuristic
//! ([`Expander::relax_op`]) made sound for every statement (branches either way, loops
//! repeated, `as` names maybe this copy, slides stopping wherever a piece or a changing
//! tile may stop them), and the lints it gives: slides off the board, goal pieces out of
//! reach.

use std::collections::{HashMap, VecDeque};

use crate::compile::{GoalCond, LevelText, Op, Place, SlideEvent, SlideRule, Step, TileId};
use crate::diagnostics::Problem;

use super::super::budget::Budget;
use super::super::expander::Expander;
use super::super::layout::{NONE, OFF};
use super::super::legality::{GOAL, LEGAL};
use super::super::program::{Actions, KOp};
use super::holds::Analysis;
use super::{cell_span, goal_cond_text, place_name, span_at, GoalRef, MAX_RELAX_CELLS, MAX_WORK};

/// The direction a slide by `step` goes when its move goes `d`: the declared direction
/// with that vector (`s` for `-n`), else its multiple (`2s`), else the vector itself.
fn heading(model: &crate::compile::Model, step: Step, d: usize) -> String {
    let base = step.fixed.map_or(d, |f| f.index());
    let Some(b) = model.dirs.get(base) else {
        return String::new();
    };
    let times = step.times * if step.negate { -1 } else { 1 };
    let (vr, vc) = (b.dr * times, b.dc * times);
    if let Some(same) = model.dirs.iter().find(|x| (x.dr, x.dc) == (vr, vc)) {
        return same.name.clone();
    }
    for x in &model.dirs {
        for n in 2..=times.abs() {
            if (x.dr * n, x.dc * n) == (vr, vc) {
                return format!("{n}{}", x.name);
            }
        }
    }
    format!("({vr},{vc})")
}

/// The op with index `at` in `walk_ops` order of a lowered program (lowering keeps the
/// shape of the program, so the indices of its `Op`s apply).
fn kop_at(ops: &[KOp], mut at: usize) -> Option<&KOp> {
    for op in ops {
        if at == 0 {
            return Some(op);
        }
        at -= 1;
        let nested: Vec<&[KOp]> = match op {
            KOp::If { then, els, .. } => vec![then, els],
            KOp::ForCells { body, .. } => vec![body],
            _ => vec![],
        };
        for block in nested {
            let size = kop_size(block);
            if at < size {
                return kop_at(block, at);
            }
            at -= size;
        }
    }
    None
}

/// How many ops a lowered block holds, nested ones included.
fn kop_size(ops: &[KOp]) -> usize {
    ops.iter()
        .map(|op| {
            1 + match op {
                KOp::If { then, els, .. } => kop_size(then) + kop_size(els),
                KOp::ForCells { body, .. } => kop_size(body),
                _ => 0,
            }
        })
        .sum()
}

/// One step of a move's relaxed program for one piece kind.
enum Relax {
    /// An op on the kind itself, relaxed by [`Expander::relax_op`] (or, for slides, by
    /// [`Relaxed::slide`]).
    Op(KOp),
    /// An op that may or may not act on the relaxed copy (through an `as` name).
    Maybe(KOp),
    /// Either branch.
    Branch(Vec<Relax>, Vec<Relax>),
    /// The body, run one to `n` times.
    Repeat(usize, Vec<Relax>),
}

/// The relaxed program of `ops` for kind `k`: the ops that can move it, with everything
/// else (tests, tiles, counters, other pieces) dropped.
fn relax_program(ops: &[KOp], k: usize, repeat: usize) -> Vec<Relax> {
    let mut out = vec![];
    for op in ops {
        let with_var = |op: &KOp| {
            let mut own = op.clone();
            match &mut own {
                KOp::Shift { var, kind, .. }
                | KOp::Swap { var, kind, .. }
                | KOp::Turn { var, kind, .. }
                | KOp::Slide { var, kind, .. } => *var = *kind,
                _ => {}
            }
            own
        };
        match op {
            KOp::Shift { var, kind, .. }
            | KOp::Turn { var, kind, .. }
            | KOp::Slide { var, kind, .. }
                if *kind == k =>
            {
                out.push(if var == kind {
                    Relax::Op(op.clone())
                } else {
                    Relax::Maybe(with_var(op))
                });
            }
            KOp::Swap { var, kind, .. } => {
                if *kind == k && var == kind {
                    out.push(Relax::Op(op.clone()));
                } else if *kind == k {
                    // Through an `as` name it may move this copy, or push it back.
                    out.push(Relax::Branch(
                        vec![Relax::Op(op.clone())],
                        vec![Relax::Maybe(with_var(op))],
                    ));
                } else {
                    // Another piece's swap may push this one back.
                    out.push(Relax::Op(op.clone()));
                }
            }
            KOp::If { then, els, .. } => {
                let (a, b) = (
                    relax_program(then, k, repeat),
                    relax_program(els, k, repeat),
                );
                if !a.is_empty() || !b.is_empty() {
                    out.push(Relax::Branch(a, b));
                }
            }
            KOp::ForCells { body, .. } => {
                let body = relax_program(body, k, repeat);
                if !body.is_empty() {
                    out.push(Relax::Repeat(repeat, body));
                }
            }
            _ => {}
        }
    }
    out
}

/// A goal piece that cannot reach its goal moving alone.
pub(super) struct Stranded {
    pub(super) kind: usize,
    pub(super) row: usize,
    pub(super) col: usize,
    /// The goal conditions on its kind, as written.
    pub(super) goal: String,
    /// What it cannot reach: `cell of goal`, `place where block.stand is on target`.
    pub(super) what: String,
    /// The first goal condition on its kind.
    pub(super) first: usize,
}

/// The level set up for the relaxation: where each piece kind can go alone.
pub(super) struct Relaxed<'m> {
    exp: Expander<'m>,
    /// Per kind: per move, its relaxed program (empty when it cannot move the kind).
    programs: Vec<Vec<Vec<Relax>>>,
    /// Work left.
    work: std::cell::Cell<u64>,
}

impl<'m> Relaxed<'m> {
    /// Sets up the level, unless it is too large (then the relaxation lints are skipped).
    pub(super) fn new(a: &Analysis<'m>) -> Option<Self> {
        let b = &a.level.board;
        if b.rows.saturating_mul(b.cols) > MAX_RELAX_CELLS {
            return None;
        }
        let exp = Expander::new(a.model, a.level.clone(), &Budget::default()).ok()?;
        let repeat = a
            .model
            .pieces
            .iter()
            .flat_map(|p| p.poses.iter().map(|q| q.cells.len()))
            .max()
            .unwrap_or(1);
        let programs = (0..a.model.pieces.len())
            .map(|k| {
                exp.prog
                    .runs
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(mi, ops)| {
                        if a.possible[mi] {
                            relax_program(ops, k, repeat)
                        } else {
                            vec![]
                        }
                    })
                    .collect()
            })
            .collect();
        Some(Relaxed {
            exp,
            programs,
            work: std::cell::Cell::new(MAX_WORK),
        })
    }

    /// Takes `n` units of work; false when the budget is spent.
    fn spend(&self, n: u64) -> bool {
        let left = self.work.get();
        self.work.set(left.saturating_sub(n));
        left >= n
    }

    /// The directions a move's actions are played in (per-cell moves: one).
    fn dirs(&self, mi: usize) -> Vec<usize> {
        match &self.exp.prog.runs.actions[mi] {
            Actions::Dirs(ds) => ds.clone(),
            Actions::Cells => vec![0],
        }
    }

    /// Runs a relaxed program from every place of `cands`.
    fn run(
        &self,
        k: usize,
        prog: &[Relax],
        cands: Vec<(usize, usize)>,
        d: usize,
    ) -> Vec<(usize, usize)> {
        let mut cur = cands;
        for r in prog {
            let mut next = vec![];
            match r {
                Relax::Op(op) => self.op(k, op, &cur, d, &mut next),
                Relax::Maybe(op) => {
                    next.extend_from_slice(&cur);
                    self.op(k, op, &cur, d, &mut next);
                }
                Relax::Branch(a, b) => {
                    next = self.run(k, a, cur.clone(), d);
                    next.extend(self.run(k, b, cur, d));
                }
                Relax::Repeat(n, body) => {
                    let mut at = cur;
                    for _ in 0..*n {
                        at = self.run(k, body, at, d);
                        next.extend_from_slice(&at);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            cur = next;
        }
        cur
    }

    /// One relaxed op from every place of `cur`.
    fn op(
        &self,
        k: usize,
        op: &KOp,
        cur: &[(usize, usize)],
        d: usize,
        next: &mut Vec<(usize, usize)>,
    ) {
        let mut work = 0;
        for &at in cur {
            match op {
                KOp::Slide { delta, rules, .. } => {
                    let v = self.exp.lay.resolve(*delta, d);
                    self.slide(k, at, v, rules, next, &mut work);
                }
                _ => self.exp.relax_op(k, op, at, d, next, &mut work),
            }
        }
        self.spend(work);
    }

    /// Whether a rule about `tile` may fire at padded cell `p`: always on static cells
    /// holding it, maybe on cells whose tile changes.
    fn tile_may(&self, p: usize, tile: TileId) -> (bool, bool) {
        let lay = &self.exp.lay;
        if lay.ptile[p] == OFF {
            (false, false)
        } else if lay.pmut[p] != NONE {
            (true, false)
        } else {
            let here = lay.ptile[p] == tile.0;
            (here, here)
        }
    }

    /// Whether padded cell `p` may be (`.0`) or surely is (`.1`) on `place`.
    fn place_may(&self, p: usize, place: Place) -> (bool, bool) {
        match place {
            Place::Tile(t) => self.tile_may(p, t),
            Place::Mark(m) => {
                let on = self.exp.lay.pmarks[p] >> m.0 & 1 == 1;
                (on, on)
            }
        }
    }

    /// The relaxed slide of kind `k` from (`a`, `pose`) by `v` per step: every place it
    /// may stop at. A rule about a piece may fire anywhere, one about a changing tile
    /// may or may not fire; the slide ends where a rule surely stops it or the place is
    /// illegal.
    fn slide(
        &self,
        k: usize,
        (a, pose): (usize, usize),
        v: isize,
        rules: &[SlideRule],
        next: &mut Vec<(usize, usize)>,
        work: &mut u64,
    ) {
        let lay = &self.exp.lay;
        let flags = &self.exp.flags[k];
        let bits = lay.slots[k].bits;
        if v == 0 {
            return; // a slide that never moves never ends: the engine fails it
        }
        let may_block = rules
            .iter()
            .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
        let mut at = a;
        for _ in 0..lay.ptile.len() {
            *work += 1;
            let nxt = (at as isize + v) as usize;
            let off = lay.ptile[nxt] == OFF;
            // Rules about the cell ahead, in order: the first that surely fires ends the
            // slide; those that may fire add a stop.
            let mut ended = false;
            for r in rules {
                let (may, sure) = match r.event {
                    SlideEvent::OffBoard => (off, off),
                    SlideEvent::BeforeTile(t) if !off => self.tile_may(nxt, t),
                    SlideEvent::BeforePiece(_) if !off => (true, false),
                    // Beyond the board every cell is the `outside` tile.
                    SlideEvent::BeforeTile(t) if self.exp.model.outside == Some(t) => (true, true),
                    _ => (false, false),
                };
                if may && r.stop && !r.lose {
                    next.push((at, pose));
                }
                if sure && (r.stop || r.lose) {
                    ended = true;
                    break;
                }
            }
            if ended || off {
                return;
            }
            at = nxt;
            if flags.get(at << bits | pose).is_none_or(|f| f & LEGAL == 0) {
                return;
            }
            if may_block {
                next.push((at, pose));
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    let (may, sure) = self.place_may(at, place);
                    if may && r.stop && !r.lose {
                        next.push((at, pose));
                    }
                    if sure && (r.stop || r.lose) {
                        return;
                    }
                }
            }
        }
    }

    /// Places of kind `k` reachable alone from `from`; stops early at the first place
    /// `stop` accepts (returned as `Ok(true)`). `Err(())` when the work budget ran out.
    fn search(
        &self,
        k: usize,
        from: &[u32],
        stop: impl Fn(u32) -> bool,
    ) -> Result<(bool, Vec<u32>), ()> {
        let flags = &self.exp.flags[k];
        let bits = self.exp.lay.slots[k].bits;
        let mut seen = vec![false; flags.len()];
        let mut queue: VecDeque<u32> = VecDeque::new();
        let mut order = vec![];
        for &w in from {
            if (w as usize) < seen.len() && !seen[w as usize] {
                seen[w as usize] = true;
                queue.push_back(w);
            }
        }
        let dirs: Vec<Vec<usize>> = (0..self.programs[k].len())
            .map(|mi| self.dirs(mi))
            .collect();
        let mut buf: Vec<(usize, usize)> = vec![];
        while let Some(w) = queue.pop_front() {
            order.push(w);
            if stop(w) {
                return Ok((true, order));
            }
            let place = (w as usize >> bits, w as usize & ((1 << bits) - 1));
            for (mi, prog) in self.programs[k].iter().enumerate() {
                if prog.is_empty() {
                    continue;
                }
                for &d in &dirs[mi] {
                    if !self.spend(1) {
                        return Err(());
                    }
                    // One plain op (most moves) runs without the program's buffers.
                    let to_places = match prog.as_slice() {
                        [Relax::Op(op)] => {
                            let mut out = std::mem::take(&mut buf);
                            out.clear();
                            self.op(k, op, &[place], d, &mut out);
                            out
                        }
                        _ => self.run(k, prog, vec![place], d),
                    };
                    for &(a, p) in &to_places {
                        let to = a << bits | p;
                        if to < seen.len() && !seen[to] && flags[to] & LEGAL != 0 {
                            seen[to] = true;
                            queue.push_back(to as u32);
                        }
                    }
                    buf = to_places;
                }
            }
            if self.work.get() == 0 {
                return Err(());
            }
        }
        Ok((false, order))
    }

    /// The start word of every instance of kind `k`, with its board cell.
    fn starts(&self, a: &Analysis, k: usize) -> Vec<(u32, u32)> {
        let lay = &self.exp.lay;
        let bits = lay.slots[k].bits;
        a.level
            .instances
            .iter()
            .filter(|i| i.piece.index() == k)
            .map(|i| (lay.to_padded(i.cell) << bits | i.pose.0 as u32, i.cell))
            .collect()
    }

    /// Goal pieces that cannot reach their goal moving alone. Kinds that moves remove or
    /// create are left out: a removed copy meets `piece on place` by being gone.
    pub(super) fn stranded(&self, a: &Analysis) -> Vec<Stranded> {
        let model = a.model;
        let cols = a.level.board.cols.max(1);
        let mut out = vec![];
        let mut done = vec![false; model.pieces.len()];
        let never = a.goals_never_holding();
        for (i, g) in model.goal.iter().enumerate() {
            let k = g.piece.index();
            if std::mem::replace(&mut done[k], true) || a.removable[k] || a.creatable[k] {
                continue;
            }
            // A condition that can never hold is reported as such.
            if never
                .iter()
                .any(|(r, _)| matches!(r, GoalRef::On(_, c) if c.piece.index() == k))
            {
                continue;
            }
            let flags = &self.exp.flags[k];
            let conds: Vec<&GoalCond> =
                model.goal.iter().filter(|c| c.piece.index() == k).collect();
            let goal = conds
                .iter()
                .map(|c| goal_cond_text(model, c))
                .collect::<Vec<_>>()
                .join(" and ");
            let what = match conds.as_slice() {
                [c] if c.pose.is_none() => format!("cell of {}", place_name(model, c.on)),
                _ => format!("place where {goal}"),
            };
            for (w, cell) in self.starts(a, k) {
                let hit = |x: u32| flags[x as usize] & (GOAL | LEGAL) == GOAL | LEGAL;
                match self.search(k, &[w], hit) {
                    Ok((false, _)) => out.push(Stranded {
                        kind: k,
                        row: cell as usize / cols,
                        col: cell as usize % cols,
                        goal: goal.clone(),
                        what: what.clone(),
                        first: i,
                    }),
                    Ok((true, _)) => {}
                    Err(()) => return out,
                }
            }
        }
        out
    }

    /// Warnings from the relaxation: slides off the board, goal pieces out of reach.
    pub(super) fn lints(&self, a: &Analysis, text: Option<&LevelText>) -> Vec<Problem> {
        let mut out = self.slide_lints(a);
        let model = a.model;
        for s in self.stranded(a) {
            out.push(Problem::GoalOutOfReach {
                piece: model.pieces[s.kind].name.clone(),
                row: s.row as u32,
                col: s.col as u32,
                level: a.level.name.clone(),
                span: span_at(&model.spans.goal, s.first),
                why: format!("`{}` can reach no {}", model.pieces[s.kind].name, s.what),
                start: text.map(|t| cell_span(t, s.row, s.col)),
            });
        }
        out
    }

    /// Slides with no `off board` rule that can run off the board from a place their
    /// piece reaches alone, where no `before` rule stops at the `outside` tile either.
    fn slide_lints(&self, a: &Analysis) -> Vec<Problem> {
        let model = a.model;
        let lay = &self.exp.lay;
        let cols = a.level.board.cols.max(1);
        let mut reach: HashMap<usize, Option<Vec<u32>>> = HashMap::new();
        let mut out = vec![];
        for (mi, m) in model.moves.iter().enumerate() {
            if !a.possible[mi] {
                continue;
            }
            let mut slides = vec![];
            let mut at = 0;
            crate::compile::walk_ops(&m.ops, &mut |op| {
                if let Op::Slide {
                    piece, rules, step, ..
                } = op
                {
                    if !rules.iter().any(|r| r.event == SlideEvent::OffBoard) {
                        slides.push((at, piece.index(), rules.clone(), *step));
                    }
                }
                at += 1;
            });
            for (at, k, rules, step) in slides {
                if a.start[k] == 0 {
                    continue;
                }
                let places = reach.entry(k).or_insert_with(|| {
                    let from: Vec<u32> = self.starts(a, k).into_iter().map(|s| s.0).collect();
                    self.search(k, &from, |_| false).ok().map(|r| r.1)
                });
                let Some(places) = places else { continue };
                let bits = lay.slots[k].bits;
                let Some(KOp::Slide { delta, .. }) = kop_at(&self.exp.prog.runs.moves[mi], at)
                else {
                    continue;
                };
                let delta = *delta;
                let found = places.iter().find_map(|&w| {
                    let (anchor, pose) = (w as usize >> bits, w as usize & ((1 << bits) - 1));
                    self.dirs(mi).into_iter().find_map(|d| {
                        let v = lay.resolve(delta, d);
                        self.runs_off(k, (anchor, pose), v, &rules)
                            .then_some((anchor, d))
                    })
                });
                if let Some((anchor, d)) = found {
                    let Ok(cell) = lay.board_cells.binary_search(&(anchor as u32)) else {
                        continue;
                    };
                    let (r, c) = (cell / cols, cell % cols);
                    // The way the slide goes, which is the move's direction only for a
                    // slide by `d`: `-d` goes the other way, a named step its own.
                    let dir = if step.fixed.is_none()
                        && matches!(self.exp.prog.runs.actions[mi], Actions::Cells)
                    {
                        String::new()
                    } else {
                        format!(" going {}", heading(model, step, d))
                    };
                    let outside = model.outside.map_or(String::new(), |t| {
                        format!(
                            " (beyond the board every cell is `{}`, which no `before` rule stops at)",
                            model.tiles[t.index()].name
                        )
                    });
                    out.push(Problem::SlideOffBoard {
                        piece: model.pieces[k].name.clone(),
                        level: a.level.name.clone(),
                        span: model
                            .spans
                            .ops
                            .get(mi)
                            .map_or_else(|| span_at(&model.spans.moves, mi), |o| span_at(o, at)),
                        why: format!("from ({r},{c}){dir}, `{}` reaches the edge", model.pieces[k].name),
                        help: format!("the move then fails without a word{outside}; add `off board: stop` to stop at the edge, or `off board: lose` to say the throw is lost"),
                    });
                }
            }
        }
        out
    }

    /// Whether the slide of kind `k` from (`a`, `pose`) by `v` may reach the edge with no
    /// rule stopping it first (rules about pieces and changing tiles assumed not to fire).
    fn runs_off(&self, k: usize, (a, pose): (usize, usize), v: isize, rules: &[SlideRule]) -> bool {
        let lay = &self.exp.lay;
        let flags = &self.exp.flags[k];
        let bits = lay.slots[k].bits;
        if v == 0 {
            return false;
        }
        let mut at = a;
        for _ in 0..lay.ptile.len() {
            if !self.spend(1) {
                return false;
            }
            let nxt = (at as isize + v) as usize;
            let off = lay.ptile[nxt] == OFF;
            for r in rules {
                let sure = match r.event {
                    SlideEvent::BeforeTile(t) if !off => self.tile_may(nxt, t).1,
                    // Beyond the board every cell is the `outside` tile.
                    SlideEvent::BeforeTile(t) => self.exp.model.outside == Some(t),
                    _ => false,
                };
                if sure && (r.stop || r.lose) {
                    return false;
                }
            }
            if off {
                return true;
            }
            at = nxt;
            if flags.get(at << bits | pose).is_none_or(|f| f & LEGAL == 0) {
                return false;
            }
            for r in rules {
                if let SlideEvent::Into(place) = r.event {
                    if self.place_may(at, place).1 && (r.stop || r.lose) {
                        return false;
                    }
                }
            }
        }
        false
    }
}
