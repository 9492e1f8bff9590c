//! Answers for a player at the board: what a state holds, piece by piece (for drawing
//! it), and why an action is not a move here (for the playground's "why not?").
//!
//! Nothing here runs during a search: the explanation re-runs one action's program op by
//! op on demand, beside the interpreter, so the successor loop stays as it is.

use std::sync::Arc;

use crate::compile::{Action, AssignOp, CmpOp, Place, SlideEvent, Subject};

use super::expander::Expander;
use super::layout::{ABSENT, NONE, OFF};
use super::program::{Actions, Delta, KBase, KCell, KCond, KOp};

/// One piece on the board in some state, decoded from its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedPiece {
    /// Its kind (an index into `Model::pieces`).
    pub kind: usize,
    /// Its slot in the state.
    pub slot: usize,
    /// Its pose (an index into the kind's poses).
    pub pose: usize,
    /// Its anchor as (row, column); beyond the board where `outside` allows.
    pub anchor: (i64, i64),
    /// The cells it covers, as (row, column), in the pose's order.
    pub cells: Vec<(i64, i64)>,
}

impl Expander<'_> {
    /// The board (row, column) of a padded cell, signed for cells beyond the edge.
    pub(crate) fn board_pos(&self, padded: usize) -> (i64, i64) {
        let (r, c) = self.lay.row_col(padded);
        let (pr, pc) = self.lay.row_col(self.lay.to_padded(0) as usize);
        (r as i64 - pr as i64, c as i64 - pc as i64)
    }

    /// Every piece on the board in `s`, in slot order (kinds in declaration order, then
    /// copies); absent copies are left out.
    pub fn pieces_in(&self, s: &[u32]) -> Vec<PlacedPiece> {
        let lay = &self.lay;
        let mut out = vec![];
        for (slot, &k) in lay.slot_kind.iter().enumerate() {
            if s.get(slot).is_none_or(|&w| w == ABSENT) {
                continue;
            }
            let k = k as usize;
            let (a, pose) = lay.anchor(s, slot);
            let Some(p) = self.model.pieces[k].poses.get(pose) else {
                continue;
            };
            let anchor = self.board_pos(a);
            let cells = p
                .cells
                .iter()
                .map(|&(dr, dc)| (anchor.0 + dr as i64, anchor.1 + dc as i64))
                .collect();
            out.push(PlacedPiece {
                kind: k,
                slot,
                pose,
                anchor,
                cells,
            });
        }
        out
    }

    /// The start state of the level.
    pub fn start_state(&self) -> Vec<u32> {
        self.start()
    }

    /// Every successor of `s` as (action, state), in action order: what a search
    /// expands, for callers outside the engine (play, tests).
    pub fn successor_list(&mut self, s: &[u32]) -> Vec<(Action, Vec<u32>)> {
        if s.len() != self.words {
            return vec![];
        }
        let mut out = super::Successors::default();
        self.successors(s, &mut out);
        (0..out.len())
            .map(|i| (out.actions[i], out.state(i, self.words).to_vec()))
            .collect()
    }

    /// The value of every counter in `s`, in declaration order.
    pub fn counters_in(&self, s: &[u32]) -> Vec<u32> {
        (0..self.model.counters.len())
            .map(|c| s.get(self.lay.counters_at + c).copied().unwrap_or(0))
            .collect()
    }

    /// The tile of every board cell in `s`, row-major, as indices into `Model::tiles`.
    pub fn tiles_in(&self, s: &[u32]) -> Vec<u16> {
        let n = self.lay.board_cells.len();
        (0..n as u32)
            .map(|cell| match self.tile_now(s, cell) {
                Some(t) => t.0,
                None => self.level.board.tiles[cell as usize].0,
            })
            .collect()
    }
}

/// Why an action is not a move in some state: one sentence for people, and what in the
/// rules stopped it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyNot {
    /// `push e: \`box\` at (2,3) would be on \`wall\` at (2,4), which \`forbid box on
    /// wall\` rules out`.
    pub why: String,
    /// The byte range in the `.puz` source of the statement or rule that stopped it.
    pub span: Option<(usize, usize)>,
    /// How far the move got: statements run before it stopped, one more when every
    /// statement ran and the result broke a rule (`usize::MAX` for [`IS_A_MOVE`]). Of several refusals of one wish, the
    /// one that got farthest is the one to tell.
    pub progress: usize,
}

/// What stopped a traced run: the sentence and what to blame.
struct Stop {
    why: String,
    blame: Blame,
}

/// What in the rules stopped a move.
#[derive(Clone, Copy)]
enum Blame {
    /// The statement of the move at this index ([`crate::compile::walk_ops`] order).
    Op(usize),
    /// The `forbid` rule at this index.
    Forbid(usize),
    /// Nothing in particular.
    Nothing,
}

/// What [`Expander::why_not`] says of an action that is a move after all.
pub const IS_A_MOVE: &str = "it is a move here";

/// At most this many choices of copies are traced for one action.
const MAX_CHOICES: usize = 256;

/// Statements in `ops`, nested ones included, as [`crate::compile::walk_ops`] counts.
fn count_ops(ops: &[KOp]) -> usize {
    ops.iter()
        .map(|op| match op {
            KOp::If { then, els, .. } => 1 + count_ops(then) + count_ops(els),
            KOp::ForCells { body, .. } => 1 + count_ops(body),
            _ => 1,
        })
        .sum()
}

impl Expander<'_> {
    /// Why `action` gives no successor of `s`: its program is run again statement by
    /// statement, then the checks every move ends with (forbids, overlaps, no change).
    /// When the move acts on a kind with several copies, each copy is tried (only the
    /// one covering `piece_at`, when that cell holds one) and the copy that got farthest
    /// is told. Slow, and never run by a search.
    pub fn why_not(&mut self, s: &[u32], action: Action, piece_at: Option<(i64, i64)>) -> WhyNot {
        let model = self.model;
        let mi = action.mv().index();
        let nothing = |why: String| WhyNot {
            why,
            span: None,
            progress: 0,
        };
        if mi >= model.moves.len() || s.len() != self.words {
            return nothing("no such move".to_string());
        }
        let label = format!("{} {}", model.moves[mi].name, self.target_text(action));
        let runs = Arc::clone(&self.prog.runs);
        let ops = &runs.moves[mi];
        let (d, param) = match &runs.actions[mi] {
            Actions::Cells => {
                let i = action.dir().index();
                match self.lay.board_cells.get(i) {
                    Some(&p) => (0, Some(p as usize)),
                    None => return nothing(format!("{label}: the cell is not on the board")),
                }
            }
            Actions::Dirs(ds) => {
                let d = action.dir().index();
                if !ds.contains(&d) {
                    return nothing(format!(
                        "{label}: `{}` is not played in that direction",
                        model.moves[mi].name
                    ));
                }
                (d, None)
            }
        };
        // The free kinds with several copies: the run is tried once per choice of copies.
        let free: Vec<usize> = runs.free_kinds[mi]
            .iter()
            .map(|&k| k as usize)
            .filter(|&k| self.lay.slots[k].count > 1)
            .collect();
        let target = piece_at.and_then(|cell| {
            self.pieces_in(s)
                .into_iter()
                .find(|p| p.cells.contains(&cell))
                .map(|p| p.slot)
        });
        if let (Some((r, c)), None) = (piece_at, target) {
            return nothing(format!("{label}: there is no piece at ({r},{c})"));
        }
        let mut options: Vec<Vec<usize>> = vec![];
        for &k in &free {
            let sl = &self.lay.slots[k];
            let present: Vec<usize> = (sl.start..sl.start + sl.count)
                .filter(|&slot| s[slot] != ABSENT)
                .collect();
            match target.filter(|t| present.contains(t)) {
                Some(t) => options.push(vec![t]),
                None => options.push(present),
            }
        }
        if let Some(i) = options.iter().position(Vec::is_empty) {
            return WhyNot {
                why: format!(
                    "{label}: there is no `{}` on the board",
                    model.pieces[free[i]].name
                ),
                span: None,
                progress: 0,
            };
        }
        let mut best: Option<WhyNot> = None;
        let mut pick = vec![0usize; options.len()];
        for _ in 0..MAX_CHOICES {
            let combo: Vec<usize> = pick.iter().zip(&options).map(|(&i, o)| o[i]).collect();
            let (stop, progress) =
                self.trace(s, ops, d, param, (&free, &runs.free_kinds[mi]), &combo);
            let span = match stop.blame {
                Blame::Op(i) => model.spans.ops.get(mi).and_then(|v| v.get(i)).copied(),
                Blame::Forbid(i) => model.spans.forbids.get(i).copied(),
                Blame::Nothing => None,
            };
            let w = WhyNot {
                why: format!("{label}: {}", stop.why),
                span: span.map(|sp| (sp.offset(), sp.offset() + sp.len())),
                progress,
            };
            if best.as_ref().is_none_or(|b| w.progress > b.progress) {
                best = Some(w);
            }
            // The next choice, like an odometer.
            let mut i = 0;
            while i < pick.len() {
                pick[i] += 1;
                if pick[i] < options[i].len() {
                    break;
                }
                pick[i] = 0;
                i += 1;
            }
            if i == pick.len() {
                break;
            }
        }
        match (best, target) {
            // A move of another piece: the one asked for is not what it moves.
            (Some(b), Some(t)) if b.why.ends_with(IS_A_MOVE) => nothing(format!(
                "{label}: it does not move {}",
                self.piece_text(s, t)
            )),
            (b, _) => b.unwrap_or_else(|| nothing(format!("{label}: {IS_A_MOVE}"))),
        }
    }

    /// `n`, or `(2,3)` for a per-cell action.
    fn target_text(&self, action: Action) -> String {
        let model = self.model;
        if model.per_cell(action.mv()) {
            let cols = self.level.board.cols.max(1);
            let k = action.dir().index();
            return format!("({},{})", k / cols, k % cols);
        }
        model
            .dirs
            .get(action.dir().index())
            .map_or_else(|| "?".to_string(), |d| d.name.clone())
    }

    /// Runs one choice of a move's program on `s` statement by statement: where it
    /// stopped, and how far it got.
    fn trace(
        &mut self,
        s: &[u32],
        ops: &[KOp],
        d: usize,
        param: Option<usize>,
        (free, all_free): (&[usize], &[u16]),
        combo: &[usize],
    ) -> (Stop, usize) {
        self.sc.cur.copy_from_slice(s);
        for &k in &self.lay.multi_kinds {
            self.sc.bound[k] = NONE;
        }
        for (&k, &slot) in free.iter().zip(combo) {
            self.sc.bound[k] = slot as u32;
        }
        let kinds = self.model.pieces.len();
        for b in self.sc.bound.iter_mut().skip(kinds) {
            *b = NONE;
        }
        self.sc.loops.clear();
        if let Some(p) = param {
            self.sc.param = p;
        }
        self.begin_run(all_free);
        let mut last = vec![None; self.lay.slot_kind.len()];
        let mut idx = 0;
        let mut progress = 0;
        if let Err(stop) = self.trace_ops(ops, d, &mut idx, &mut progress, &mut last) {
            return (stop, progress);
        }
        let progress = progress + 1;
        let cur = self.sc.cur.clone();
        for slot in 0..self.lay.slot_kind.len() {
            if cur[slot] == ABSENT {
                continue;
            }
            if cur[slot] == s[slot] {
                // A copy that did not move can still break a forbid when a tile changed
                // under it.
                if self.sc.retiled {
                    if let Some(stop) = self.place_broken(s, &cur, slot, Blame::Nothing) {
                        return (stop, progress);
                    }
                }
                continue;
            }
            let blame = last[slot].map_or(Blame::Nothing, Blame::Op);
            if let Some(stop) = self.place_broken(s, &cur, slot, blame) {
                return (stop, progress);
            }
            if let Some(other) = self.overlapping(&cur, slot) {
                let why = format!(
                    "{} would overlap {}",
                    self.piece_text(s, slot),
                    self.piece_text(&cur, other)
                );
                return (Stop { why, blame }, progress);
            }
        }
        if let Some((a, b)) = self.passed_through() {
            let (first, second) = if last[a] <= last[b] { (a, b) } else { (b, a) };
            let why = format!(
                "{} would pass through {} (pieces may share a cell during a move only if one of them leaves the board)",
                self.piece_text(s, first),
                self.piece_text(s, second)
            );
            let blame = last[first].map_or(Blame::Nothing, Blame::Op);
            return (Stop { why, blame }, progress);
        }
        let mut sorted = cur;
        for &k in &self.lay.multi_kinds {
            let sl = &self.lay.slots[k];
            if self.model.pieces[k].anonymous {
                sorted[sl.start..sl.start + sl.count].sort_unstable();
            }
        }
        if sorted == s {
            let why = "it would change nothing".to_string();
            (
                Stop {
                    why,
                    blame: Blame::Nothing,
                },
                progress,
            )
        } else {
            // Only asked of actions that are not moves: the tracer and the interpreter
            // disagree if this is ever told (the tests look for it).
            let why = IS_A_MOVE.to_string();
            (
                Stop {
                    why,
                    blame: Blame::Nothing,
                },
                usize::MAX,
            )
        }
    }

    /// Runs `ops` on the scratch state, numbering statements from `idx` and counting the
    /// ones that ran in `progress`; `last` records, per slot, the statement that last
    /// changed it.
    fn trace_ops(
        &mut self,
        ops: &[KOp],
        d: usize,
        idx: &mut usize,
        progress: &mut usize,
        last: &mut [Option<usize>],
    ) -> Result<(), Stop> {
        for op in ops {
            let at = *idx;
            *idx += 1;
            match op {
                KOp::If { cond, then, els } => {
                    *progress += 1;
                    if self.try_cond(cond, d) {
                        self.trace_ops(then, d, idx, progress, last)?;
                        *idx += count_ops(els);
                    } else {
                        *idx += count_ops(then);
                        self.trace_ops(els, d, idx, progress, last)?;
                    }
                }
                KOp::ForCells { var, body, fresh } => {
                    let slot = self.present(*var).ok_or_else(|| Stop {
                        why: format!("there is no `{}` to visit", self.var_name(*var)),
                        blame: Blame::Op(at),
                    })?;
                    *progress += 1;
                    let k = self.lay.slot_kind[slot] as usize;
                    let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
                    let cells: Vec<usize> = self.lay.foot[k][pose]
                        .iter()
                        .map(|&dl| (a as isize + dl) as usize)
                        .collect();
                    let start = *idx;
                    for p in cells {
                        for &v in fresh {
                            self.sc.bound[v] = NONE;
                        }
                        self.sc.loops.push(p);
                        let mut j = start;
                        let r = self.trace_ops(body, d, &mut j, progress, last);
                        self.sc.loops.pop();
                        r?;
                    }
                    *idx = start + count_ops(body);
                }
                _ => {
                    let before = self.sc.cur.clone();
                    if self.op(op, d) {
                        *progress += 1;
                        for (slot, l) in last.iter_mut().enumerate() {
                            if self.sc.cur[slot] != before[slot] {
                                *l = Some(at);
                            }
                        }
                    } else {
                        self.sc.cur.copy_from_slice(&before);
                        return Err(self.explain_op(op, d, at, last));
                    }
                }
            }
        }
        Ok(())
    }

    /// The slot bound to piece variable `var`, when that copy is on the board.
    fn present(&self, var: usize) -> Option<usize> {
        self.bound_slot(var)
            .filter(|&slot| self.sc.cur.get(slot).is_some_and(|&w| w != ABSENT))
    }

    /// The kind name of a piece variable (a kind or an alias).
    fn var_name(&self, var: usize) -> String {
        let model = self.model;
        let k = if var < model.pieces.len() {
            Some(var)
        } else {
            self.bound_slot(var)
                .map(|slot| self.lay.slot_kind[slot] as usize)
        };
        k.and_then(|k| model.pieces.get(k))
            .map_or_else(|| "piece".to_string(), |p| p.name.clone())
    }

    /// `` `block` at (1,3) ``, with the pose when the kind has several.
    fn piece_text(&self, s: &[u32], slot: usize) -> String {
        let k = self.lay.slot_kind[slot] as usize;
        let kind = &self.model.pieces[k];
        if s[slot] == ABSENT {
            return format!("`{}`", kind.name);
        }
        let (a, pose) = self.lay.anchor(s, slot);
        let (r, c) = self.board_pos(a);
        match kind.poses.get(pose).filter(|_| kind.poses.len() > 1) {
            Some(p) => format!("`{}` ({}) at ({r},{c})", kind.name, p.name),
            None => format!("`{}` at ({r},{c})", kind.name),
        }
    }

    /// The name of what a test looks for.
    fn subject_text(&self, subject: Subject) -> String {
        let model = self.model;
        match subject {
            Subject::Piece(k) => format!("`{}`", model.pieces[k.index()].name),
            Subject::Tile(t) => format!("`{}`", model.tiles[t.index()].name),
            Subject::Mark(m) => format!("`{}`", model.marks[m.index()].name),
        }
    }

    /// The (row, column) step of `delta` in direction `d`.
    fn delta_rc(&self, delta: Delta, d: usize) -> (i32, i32) {
        match delta {
            Delta::Param { mult } => {
                let (dr, dc) = self.lay.dir_rc.get(d).copied().unwrap_or((0, 0));
                (dr * mult, dc * mult)
            }
            Delta::Fixed(_, rc) => rc,
        }
    }

    /// Why statement `op` (number `at`) failed on the scratch state, which holds the
    /// state before it.
    fn explain_op(&mut self, op: &KOp, d: usize, at: usize, last: &mut [Option<usize>]) -> Stop {
        let here = Blame::Op(at);
        let stop = |why: String| Stop { why, blame: here };
        let none_of =
            |e: &Self, var: usize| stop(format!("there is no `{}` on the board", e.var_name(var)));
        let cur = self.sc.cur.clone();
        match op {
            KOp::Test {
                subject,
                kind,
                delta,
                want,
            } => {
                let Some(slot) = self.present(*kind) else {
                    return none_of(self, *kind);
                };
                let (a, _) = self.lay.anchor(&cur, slot);
                let p = a as isize + delta.map_or(0, |x| self.lay.resolve(x, d));
                let (r, c) = self.board_pos(p.max(0) as usize);
                let what = self.subject_text(*subject);
                let who = self.piece_text(&cur, slot);
                if *want {
                    stop(format!(
                        "{who} needs {what} at ({r},{c}), and there is none"
                    ))
                } else {
                    stop(format!("{who} is blocked by {what} at ({r},{c})"))
                }
            }
            KOp::Shift {
                var,
                kind,
                delta,
                each,
                ..
            } => {
                if *each {
                    // The copies in the order `each` moves them: the first to fail.
                    let v = self.lay.resolve(*delta, d);
                    let dir = self.dir_text(*delta, d);
                    for slot in self.each_slots(&cur, *kind, *delta, d) {
                        let (a, _) = self.lay.anchor(&self.sc.cur, slot);
                        let to = a as isize + v;
                        let off = to < 0
                            || to as usize >= self.lay.ptile.len()
                            || self.lay.ptile[to as usize] == OFF;
                        if off {
                            let who = self.piece_text(&self.sc.cur, slot);
                            return stop(format!("{who} would leave the board going {dir}"));
                        }
                        let (_, pose) = self.lay.anchor(&self.sc.cur, slot);
                        self.set_place(slot, to as usize, pose);
                    }
                    let name = &self.model.pieces[*kind].name;
                    return stop(format!("a `{name}` would leave the board going {dir}"));
                }
                match self.present(*var) {
                    None => none_of(self, *var),
                    Some(slot) => {
                        let (a, _) = self.lay.anchor(&cur, slot);
                        let to = a as isize + self.lay.resolve(*delta, d);
                        let (r, c) = self.board_pos(to.max(0) as usize);
                        stop(format!(
                            "{} would leave the board going {}: its anchor would be at ({r},{c})",
                            self.piece_text(&cur, slot),
                            self.dir_text(*delta, d)
                        ))
                    }
                }
            }
            KOp::Swap { var, delta, .. } => match self.present(*var) {
                None => none_of(self, *var),
                Some(slot) => {
                    let lay = &self.lay;
                    let (a, _) = lay.anchor(&cur, slot);
                    let v = lay.resolve(*delta, d);
                    let to = (a as isize + v) as usize;
                    let dir = self.dir_text(*delta, d);
                    let (r, c) = self.board_pos(to);
                    let who = self.piece_text(&cur, slot);
                    match lay.any_instance_at(&cur, to, slot) {
                        Some(other) if lay.ptile[to] != OFF => stop(format!(
                            "{} would trade places with {who} and leave the board going the other way",
                            self.piece_text(&cur, other)
                        )),
                        _ => stop(format!(
                            "{who} would leave the board going {dir}: its anchor would be at ({r},{c})"
                        )),
                    }
                }
            },
            KOp::Turn { var, table, .. } => match self.present(*var) {
                None => none_of(self, *var),
                Some(slot) => {
                    let (_, pose) = self.lay.anchor(&cur, slot);
                    let who = self.piece_text(&cur, slot);
                    let dir = self.model.dirs.get(d).map_or("?", |x| x.name.as_str());
                    if table
                        .get(pose * self.lay.dir_delta.len() + d)
                        .is_none_or(Option::is_none)
                    {
                        stop(format!("{who} has no turn toward {dir} in its pose"))
                    } else {
                        let (a, _) = self.lay.anchor(&cur, slot);
                        let v = table[pose * self.lay.dir_delta.len() + d].map_or(0, |e| e.1);
                        let (r, c) = self.board_pos((a as isize + v).max(0) as usize);
                        stop(format!(
                            "{who} would leave the board toward {dir}: its anchor would be at ({r},{c})"
                        ))
                    }
                }
            },
            KOp::Slide {
                var,
                kind,
                delta,
                rules,
                each,
            } => {
                let v = self.lay.resolve(*delta, d);
                let slots: Vec<usize> = if *each {
                    self.each_slots(&cur, *kind, *delta, d)
                } else {
                    match self.present(*var) {
                        Some(slot) => vec![slot],
                        None => return none_of(self, *var),
                    }
                };
                for slot in slots {
                    if let Some(stop) = self.explain_slide(slot, v, rules, at) {
                        return stop;
                    }
                    last[slot] = Some(at);
                }
                stop("the slide fails".to_string())
            }
            KOp::Check { cond, want } => {
                let detail = self.cond_text(cond, d, *want);
                let rule = if *want {
                    "its `require` condition does not hold"
                } else {
                    "its `forbid` condition holds"
                };
                match detail {
                    Some(x) => stop(format!("{rule}: {x}")),
                    None => stop(rule.to_string()),
                }
            }
            KOp::Remove { var } => none_of(self, *var),
            KOp::Create { kind, .. } => {
                let sl = &self.lay.slots[*kind];
                let name = &self.model.pieces[*kind].name;
                if (sl.start..sl.start + sl.count).all(|slot| cur[slot] != ABSENT) {
                    stop(format!(
                        "all {} copies `{name}` has room for are on the board",
                        sl.count
                    ))
                } else {
                    stop(format!("the cell to create `{name}` on is off the board"))
                }
            }
            KOp::Count {
                word,
                max,
                op,
                value,
            } => {
                let c = word - self.lay.counters_at;
                let name = self
                    .model
                    .counters
                    .get(c)
                    .map_or("counter", |c| c.name.as_str());
                let now = cur[*word] as i64;
                let next = match op {
                    AssignOp::Add => now.saturating_add(*value),
                    AssignOp::Sub => now.saturating_sub(*value),
                    AssignOp::Set => *value,
                };
                stop(format!(
                    "counter `{name}` would go from {now} to {next}, outside 0 to {max}"
                ))
            }
            KOp::Change { .. } | KOp::If { .. } | KOp::ForCells { .. } => {
                stop("the statement fails".to_string())
            }
        }
    }

    /// The copies of `kind` on the board in `s`, in the order `each` moves them: the
    /// farthest along the step first (as `Expander::each_order`).
    fn each_slots(&self, s: &[u32], kind: usize, delta: Delta, d: usize) -> Vec<usize> {
        let (dr, dc) = self.delta_rc(delta, d);
        let sl = &self.lay.slots[kind];
        let mut slots: Vec<usize> = (sl.start..sl.start + sl.count)
            .filter(|&slot| s[slot] != ABSENT)
            .collect();
        let key = |slot: usize| {
            let (a, _) = self.lay.anchor(s, slot);
            let (r, c) = self.lay.row_col(a);
            -(r as i64 * dr as i64 + c as i64 * dc as i64)
        };
        slots.sort_by_key(|&slot| key(slot));
        slots
    }

    /// The padded cell a resolved cell names in the scratch state (as
    /// `Expander::cell_at`), or `None`.
    fn cell_now(&self, c: &KCell, d: usize) -> Option<usize> {
        let base = match c.base {
            KBase::Var(v) => self.lay.anchor(&self.sc.cur, self.present(v)?).0,
            KBase::Param => self.sc.param,
            KBase::Loop(depth) => *self.sc.loops.iter().rev().nth(depth)?,
            KBase::Abs(p) => p?,
        };
        let extra = self.lay.dir_delta.get(d).copied().unwrap_or(0) * c.mult as isize;
        let p = base as isize + c.fixed + extra;
        (p >= 0 && (p as usize) < self.lay.ptile.len()).then_some(p as usize)
    }

    /// What makes condition `c` fail its statement in the scratch state: it should hold
    /// (`want`) and does not, or should not and does. Evaluates as the statement did
    /// (binding pieces found when `want`), so later parts see earlier bindings.
    fn cond_text(&mut self, c: &KCond, d: usize, want: bool) -> Option<String> {
        let model = self.model;
        let cmp = |op: CmpOp| match op {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        };
        let must = if want { "must be" } else { "must not be" };
        match c {
            KCond::And(parts) if want => {
                for p in parts {
                    if !self.eval(p, d, true) {
                        return self.cond_text(p, d, true);
                    }
                }
                None
            }
            KCond::Or(parts) if !want => {
                for p in parts {
                    if self.eval(p, d, false) {
                        return self.cond_text(p, d, false);
                    }
                }
                None
            }
            KCond::Or(_) => Some("none of its alternatives holds".to_string()),
            KCond::And(_) => Some("every part of it holds".to_string()),
            KCond::Not(inner) => self.cond_text(inner, d, !want),
            KCond::At { subject, cell, .. } => {
                let what = self.subject_text(*subject);
                let Some(p) = self.cell_now(cell, d) else {
                    return Some(format!(
                        "the cell it looks at for {what} is not on the board"
                    ));
                };
                let (r, c) = self.board_pos(p);
                let from = match cell.base {
                    KBase::Var(v) => self
                        .present(v)
                        .map(|slot| format!(" (from {})", self.piece_text(&self.sc.cur, slot)))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                if want {
                    Some(format!("there is no {what} at ({r},{c}){from}"))
                } else {
                    Some(format!("there is {what} at ({r},{c}){from}"))
                }
            }
            KCond::On {
                var, kind, place, ..
            } => {
                let place = match place {
                    Place::Tile(t) => &model.tiles[t.index()].name,
                    Place::Mark(m) => &model.marks[m.index()].name,
                };
                let who = match self.present(*var) {
                    Some(slot) => self.piece_text(&self.sc.cur, slot),
                    None => format!("every `{}`", model.pieces[*kind].name),
                };
                let is = if want { "is not" } else { "is" };
                Some(format!("{who} {is} on `{place}`"))
            }
            KCond::CountPieces { kind, op, value } => {
                let sl = &self.lay.slots[*kind];
                let n = self.sc.cur[sl.start..sl.start + sl.count]
                    .iter()
                    .filter(|&&w| w != ABSENT)
                    .count();
                let name = &model.pieces[*kind].name;
                Some(format!(
                    "count({name}) is {n}, and it {must} {} {value}",
                    cmp(*op)
                ))
            }
            KCond::CountTiles { tile, op, value } => {
                let n = self.lay.count_tile(&self.sc.cur, *tile);
                let name = &model.tiles[*tile as usize].name;
                Some(format!(
                    "count({name}) is {n}, and it {must} {} {value}",
                    cmp(*op)
                ))
            }
            KCond::Counter { word, op, value } => {
                let name = model
                    .counters
                    .get(word - self.lay.counters_at)
                    .map_or("counter", |c| c.name.as_str());
                let now = self.sc.cur[*word];
                Some(format!(
                    "`{name}` is {now}, and it {must} {} {value}",
                    cmp(*op)
                ))
            }
            KCond::Const(_) => Some("it is fixed by this level's board".to_string()),
            KCond::Attr { left, op, right } => {
                let text = |e: &Self, a: &super::program::KAttr| {
                    let name = &model.attributes[a.attr];
                    match e.present(a.var) {
                        Some(slot) => {
                            let v = e
                                .attr_of(&e.sc.cur, slot, a)
                                .map_or("none".to_string(), |v| v.to_string());
                            format!("{}'s {name} is {v}", e.piece_text(&e.sc.cur, slot))
                        }
                        None => format!("there is no `{}` for its {name}", e.var_name(a.var)),
                    }
                };
                let rhs = match right {
                    super::program::KAttrRhs::Value(v) => v.to_string(),
                    super::program::KAttrRhs::Attr(a) => text(self, a),
                };
                Some(format!(
                    "{}, and it {must} {} {rhs}",
                    text(self, left),
                    cmp(*op)
                ))
            }
        }
    }

    /// The name of the direction a step goes, when it is one.
    fn dir_text(&self, delta: Delta, d: usize) -> String {
        let rc = self.delta_rc(delta, d);
        self.model
            .dirs
            .iter()
            .find(|x| (x.dr, x.dc) == rc)
            .map_or_else(|| format!("by ({},{})", rc.0, rc.1), |x| x.name.clone())
    }

    /// Slides `slot` as `Expander::slide` does, on the scratch state; why it fails, or
    /// `None` when it ends well.
    fn explain_slide(
        &mut self,
        slot: usize,
        v: isize,
        rules: &[crate::compile::SlideRule],
        at: usize,
    ) -> Option<Stop> {
        let here = Blame::Op(at);
        let start = self.sc.cur.clone();
        let who = self.piece_text(&start, slot);
        let lost = |what: String| Stop {
            why: format!("{who} would slide {what}, which its `lose` rule ends"),
            blame: here,
        };
        for _ in 0..self.lay.ptile.len() {
            let (a, pose) = self.lay.anchor(&self.sc.cur, slot);
            let next = (a as isize + v) as usize;
            let off = self.lay.ptile[next] == OFF;
            let (r, c) = self.board_pos(next);
            for rule in rules {
                if !self.fires_ahead(rule.event, next, off) {
                    continue;
                }
                if rule.lose {
                    let what = match rule.event {
                        SlideEvent::OffBoard => "off the board".to_string(),
                        SlideEvent::BeforeTile(t) => {
                            format!("up to `{}` at ({r},{c})", self.model.tiles[t.index()].name)
                        }
                        SlideEvent::BeforePiece(p) => {
                            format!("up to `{}` at ({r},{c})", self.model.pieces[p.index()].name)
                        }
                        SlideEvent::Into(_) => String::new(),
                    };
                    return Some(lost(what));
                }
                if rule.brk && self.lay.pmut[next] != NONE {
                    self.lay.break_tile(&mut self.sc.cur, next);
                }
                if rule.stop {
                    return None;
                }
            }
            if off {
                return Some(Stop {
                    why: format!("{who} would slide off the board at ({r},{c})"),
                    blame: here,
                });
            }
            self.set_place(slot, next, pose);
            let cur = self.sc.cur.clone();
            if let Some(stop) = self.place_broken(&start, &cur, slot, here) {
                return Some(Stop {
                    why: format!("sliding, {}", stop.why),
                    blame: stop.blame,
                });
            }
            if let Some(other) = self.overlapping(&cur, slot) {
                return Some(Stop {
                    why: format!("{who} would slide into {}", self.piece_text(&cur, other)),
                    blame: here,
                });
            }
            for rule in rules {
                if let SlideEvent::Into(place) = rule.event {
                    if self.lay.on_place(&cur, next, place) {
                        if rule.lose {
                            let name = match place {
                                Place::Tile(t) => &self.model.tiles[t.index()].name,
                                Place::Mark(m) => &self.model.marks[m.index()].name,
                            };
                            return Some(lost(format!("onto `{name}` at ({r},{c})")));
                        }
                        if rule.stop {
                            return None;
                        }
                    }
                }
            }
        }
        Some(Stop {
            why: format!("{who} would slide forever"),
            blame: here,
        })
    }

    /// Why the copy in `slot` may not be where it is in `s`: a cell off a board with no
    /// `outside` (blamed on `moved_by`, the statement that put it there), or a `forbid`
    /// rule it breaks (blamed on the rule).
    fn place_broken(&self, was: &[u32], s: &[u32], slot: usize, moved_by: Blame) -> Option<Stop> {
        let lay = &self.lay;
        let model = self.model;
        let k = lay.slot_kind[slot] as usize;
        let (a, pose) = lay.anchor(s, slot);
        let who = self.piece_text(was, slot);
        let kind = &model.pieces[k];
        let turned = was[slot] == ABSENT || lay.anchor(was, slot).1 != pose;
        let in_pose = match kind.poses.get(pose) {
            Some(q) if turned && kind.poses.len() > 1 => format!(" in pose `{}`", q.name),
            _ => String::new(),
        };
        let cells: Vec<usize> = lay.foot[k][pose]
            .iter()
            .map(|&dl| (a as isize + dl) as usize)
            .collect();
        if model.outside.is_none() {
            if let Some(&p) = cells.iter().find(|&&p| lay.ptile[p] == OFF) {
                let (r, c) = self.board_pos(p);
                return Some(Stop {
                    why: format!("{who} would reach off the board at ({r},{c}){in_pose}"),
                    blame: moved_by,
                });
            }
        }
        for (fi, f) in model.forbids.iter().enumerate() {
            if f.piece.index() != k || f.pose.is_some_and(|q| q.index() != pose) {
                continue;
            }
            let Some(&p) = cells.iter().find(|&&p| lay.on_place(s, p, f.place)) else {
                continue;
            };
            let (r, c) = self.board_pos(p);
            let place = match f.place {
                Place::Tile(t) => &model.tiles[t.index()].name,
                Place::Mark(m) => &model.marks[m.index()].name,
            };
            let rule = match f.pose.and_then(|q| kind.poses.get(q.index())) {
                Some(q) => format!("forbid {}.{} on {place}", kind.name, q.name),
                None => format!("forbid {} on {place}", kind.name),
            };
            let beyond = if lay.ptile[p] == OFF {
                " (beyond the board)"
            } else {
                ""
            };
            return Some(Stop {
                why: format!(
                    "{who} would be on `{place}` at ({r},{c}){beyond}{in_pose}, which `{rule}` rules out"
                ),
                blame: Blame::Forbid(fi),
            });
        }
        None
    }

    /// Another copy the copy in `slot` overlaps in `s`.
    fn overlapping(&self, s: &[u32], slot: usize) -> Option<usize> {
        let lay = &self.lay;
        let k = lay.slot_kind[slot] as usize;
        let (a, pose) = lay.anchor(s, slot);
        lay.foot[k][pose]
            .iter()
            .find_map(|&dl| lay.any_instance_at(s, (a as isize + dl) as usize, slot))
    }
}
