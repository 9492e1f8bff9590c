//! Answers for a player at the board: what a state holds, piece by piece (for drawing
//! it), and why an action is not a move here (for the playground's "why not?").
//!
//! Nothing here runs during a search: the explanation re-runs one action's program op by
//! op on demand, beside the interpreter, so the successor loop stays as it is. This file
//! holds the tracer ([`Expander::why_not`]); the rest, one job per file:
//!
//! | file | job |
//! |---|---|
//! | `state.rs` | decoding a state for callers outside the engine: its pieces, counters and tiles |
//! | `explain.rs` | why one statement failed, or a slide, or the place a move ends in |
//! | `texts.rs` | how pieces, variables, subjects and directions are named in a sentence |

mod explain;
mod state;
mod texts;

pub use state::PlacedPiece;

use std::sync::Arc;

use crate::compile::Action;

use super::expander::Expander;
use super::layout::{ABSENT, NONE};
use super::program::{Actions, KOp};
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
}
