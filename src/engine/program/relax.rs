//! The relaxation of a lowered op for the heuristic: where one piece kind, alone on the
//! board, may be after an op ([`Expander::relax_op`]).

use crate::compile::SlideEvent;

use super::super::expander::Expander;
use super::super::layout::OFF;
use super::KOp;

impl Expander<'_> {
    /// Relaxation of one op for kind `k` alone on the board: pushes into `next` every
    /// (anchor, pose) an instance at (`a`, `pose`) may be at after `op` in direction `d`.
    /// Ops on other pieces and all tests are ignored, a swap by another piece may or may
    /// not displace it, and a slide may stop at any cell where a piece could block. Adds
    /// the cells it looked at to `work`.
    pub(in crate::engine) fn relax_op(
        &self,
        k: usize,
        op: &KOp,
        (a, pose): (usize, usize),
        d: usize,
        next: &mut Vec<(usize, usize)>,
        work: &mut u64,
    ) {
        let lay = &self.lay;
        *work += 1;
        match op {
            KOp::Test { .. } => next.push((a, pose)),
            KOp::Shift {
                kind, delta, var, ..
            }
            | KOp::Swap {
                kind, delta, var, ..
            } if *kind == k && var == kind => {
                if lay.slots[k].count > 1 {
                    next.push((a, pose)); // the op may move another instance
                }
                let to = (a as isize + lay.resolve(*delta, d)) as usize;
                if lay.ptile[to] != OFF {
                    next.push((to, pose));
                }
            }
            KOp::Swap { delta, .. } => {
                next.push((a, pose));
                let back = (a as isize - lay.resolve(*delta, d)) as usize;
                if lay.ptile[back] != OFF {
                    next.push((back, pose));
                }
            }
            KOp::Turn {
                kind, table, var, ..
            } if *kind == k && var == kind => {
                if let Some((p, v)) = table[pose * lay.dir_delta.len() + d] {
                    let to = (a as isize + v) as usize;
                    if lay.ptile[to] != OFF {
                        next.push((to, p as usize));
                    }
                }
            }
            KOp::Slide {
                kind,
                delta,
                rules,
                var,
                ..
            } if *kind == k && var == kind => {
                let v = lay.resolve(*delta, d);
                let may_block = rules
                    .iter()
                    .any(|r| matches!(r.event, SlideEvent::BeforePiece(_)));
                let mut at = a;
                for _ in 0..lay.ptile.len() {
                    *work += 1;
                    let nxt = (at as isize + v) as usize;
                    let off = lay.ptile[nxt] == OFF;
                    let mut stop = false;
                    let mut lost = false;
                    for r in rules {
                        let fires = match r.event {
                            SlideEvent::OffBoard => off,
                            SlideEvent::BeforeTile(t) => {
                                if off {
                                    lay.outside() == Some(t)
                                } else {
                                    lay.ptile[nxt] == t.0
                                }
                            }
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
                        SlideEvent::Into(p) => r.stop && lay.on_place(&[], at, p),
                        _ => false,
                    });
                    if into {
                        next.push((at, pose));
                        break;
                    }
                }
            }
            KOp::Shift { .. }
            | KOp::Turn { .. }
            | KOp::Slide { .. }
            | KOp::Check { .. }
            | KOp::Remove { .. }
            | KOp::Create { .. }
            | KOp::Change { .. }
            | KOp::Count { .. }
            | KOp::If { .. }
            | KOp::ForCells { .. } => next.push((a, pose)),
        }
    }
}
