//! Why one statement of a traced move failed on the scratch state: the statement itself
//! ([`Expander::explain_op`]), a condition, a slide, and the place a moved copy ends in
//! (forbids, overlaps).

use crate::compile::{AssignOp, CmpOp, Place, SlideEvent};

use super::super::expander::Expander;
use super::super::layout::{ABSENT, NONE, OFF};
use super::super::program::{Delta, KBase, KCell, KCond, KOp};
use super::{Blame, Stop};

impl Expander<'_> {
    /// Why statement `op` (number `at`) failed on the scratch state, which holds the
    /// state before it.
    pub(super) fn explain_op(
        &mut self,
        op: &KOp,
        d: usize,
        at: usize,
        last: &mut [Option<usize>],
    ) -> Stop {
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
    pub(super) fn each_slots(&self, s: &[u32], kind: usize, delta: Delta, d: usize) -> Vec<usize> {
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
    pub(super) fn cell_now(&self, c: &KCell, d: usize) -> Option<usize> {
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
    pub(super) fn cond_text(&mut self, c: &KCond, d: usize, want: bool) -> Option<String> {
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
                let text = |e: &Self, a: &super::super::program::KAttr| {
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
                    super::super::program::KAttrRhs::Value(v) => v.to_string(),
                    super::super::program::KAttrRhs::Attr(a) => text(self, a),
                };
                Some(format!(
                    "{}, and it {must} {} {rhs}",
                    text(self, left),
                    cmp(*op)
                ))
            }
        }
    }

    /// Slides `slot` as `Expander::slide` does, on the scratch state; why it fails, or
    /// `None` when it ends well.
    pub(super) fn explain_slide(
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
    pub(super) fn place_broken(
        &self,
        was: &[u32],
        s: &[u32],
        slot: usize,
        moved_by: Blame,
    ) -> Option<Stop> {
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
    pub(super) fn overlapping(&self, s: &[u32], slot: usize) -> Option<usize> {
        let lay = &self.lay;
        let k = lay.slot_kind[slot] as usize;
        let (a, pose) = lay.anchor(s, slot);
        lay.foot[k][pose]
            .iter()
            .find_map(|&dl| lay.any_instance_at(s, (a as isize + dl) as usize, slot))
    }
}
