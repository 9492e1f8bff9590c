//! Bounds from the goal's counts and its boolean structure: `count(peg) == 1`,
//! `count(on) == 0`, `moves_left >= 3`, combined with `and`, `or` and `not` over any other
//! goal condition. They need no relaxation of the moves, only how much one move can
//! change each counted quantity, so they hold whatever the rules do (tiles that change,
//! conditions, removals, loops): the piece relaxations of the module header do not.
//!
//! **Rates.** For each quantity a goal counts (the copies of a piece kind, the cells
//! holding a tile, a counter's value), every move's program is read for the most one
//! application can lower it and the most it can raise it: `remove` lowers a kind by one,
//! `create` raises it by one; a tile change at one cell moves one cell between two
//! tiles, on a mark's cells as many as the level marks, `everywhere` any number; a
//! breaking slide changes one tile when it stops where it breaks, else any number; a
//! counter's `+= n` and `-= n` change it by `n`, `=` by any amount. Sequences add up, an
//! `if` takes its larger branch, a `for c in P` loop multiplies its body by the most
//! cells a pose of `P` covers. A move that adds nothing to the first cost component and
//! can change a quantity in one direction makes that direction *free*.
//!
//! **The bound of a count**, with `x` its value now, is the number of paying moves the
//! change still needed takes at the most per move: `ceil((x - n) / lower)` for
//! `count == n` with `x > n` (and `<=`, `<` alike), `ceil((n - x) / raise)` for the other
//! side, `1` for `!=` when it fails (the least of both directions), and `0` when the
//! direction is free. When no move can change it in the needed direction at all, the goal
//! can never hold: [`UNREACHABLE`]. Admissible: along any solution the quantity changes by
//! at most `rate` per paying move and not at all by the others, so at least that many
//! paying moves remain, each adding at least one to the first component. Consistent: one
//! move changes `x` by at most `rate` when it pays one or more, so the bound drops by at
//! most one, and by nothing when it pays nothing.
//!
//! **Combining.** `and` takes the largest bound of its parts, `or` the least, `not` is
//! pushed inwards (a negated count is the count with the opposite comparison); any other
//! condition bounds at `1` while it fails when every move adds to the first component
//! (then reaching a state where it holds takes a move), else `0`. The largest and the
//! least of consistent, admissible bounds are both, and each part is 0 where it holds,
//! so the whole is 0 on goal states. The piece bounds of the module header, where they
//! derive, combine with this one by the maximum.

use super::super::budget::UNREACHABLE;
use super::super::expander::Expander;
use super::super::layout::ABSENT;
use super::super::program::KCond;
use crate::compile::{AssignOp, CmpOp, Op, TilePlace};

/// A quantity a goal counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Quantity {
    /// The copies of a piece kind on the board.
    Pieces(usize),
    /// The cells holding a tile.
    Tiles(u16),
    /// A counter's value (its word in the state).
    Counter(usize),
}

/// How much one move can change a quantity in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rate {
    /// A move that adds nothing to the first cost component can change it so.
    free: bool,
    /// The most one paying move changes it so (`u32::MAX`: any amount; 0: never).
    per_move: u32,
}

impl Rate {
    /// The fewest paying moves that change the quantity by `need` in this direction.
    fn moves_for(self, need: i64) -> u32 {
        if need <= 0 || self.free {
            0
        } else if self.per_move == 0 {
            UNREACHABLE
        } else {
            (need as u64)
                .div_ceil(u64::from(self.per_move))
                .min(u64::from(UNREACHABLE - 1)) as u32
        }
    }
}

/// The bound of a goal condition (see the module header).
#[derive(Clone, Debug)]
pub(super) enum Node {
    /// `quantity OP value`, with the rates lowering and raising it.
    Count {
        what: Quantity,
        op: CmpOp,
        value: i64,
        lower: Rate,
        raise: Rate,
    },
    /// Any other condition: 1 while it fails (`negate`: while it holds).
    Holds {
        cond: KCond,
        negate: bool,
    },
    /// Never holds.
    Never,
    /// No bound.
    Zero,
    And(Vec<Node>),
    Or(Vec<Node>),
}

/// The goal's bound: one node per goal condition beyond `piece on place`, and-ed.
#[derive(Clone, Debug)]
pub(super) struct GoalForm {
    root: Node,
}

/// The opposite comparison: `not (x OP v)` is `x OP' v`.
fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
    }
}

/// What one program can change, per quantity: the most it lowers and raises it.
#[derive(Clone, Copy, Default)]
struct Change {
    lower: u32,
    raise: u32,
}

impl Change {
    fn add(self, o: Change) -> Change {
        Change {
            lower: self.lower.saturating_add(o.lower),
            raise: self.raise.saturating_add(o.raise),
        }
    }
    fn max(self, o: Change) -> Change {
        Change {
            lower: self.lower.max(o.lower),
            raise: self.raise.max(o.raise),
        }
    }
    fn times(self, n: u32) -> Change {
        Change {
            lower: self.lower.saturating_mul(n),
            raise: self.raise.saturating_mul(n),
        }
    }
}

impl Expander<'_> {
    /// The goal's bound from its counts and boolean structure, when some count in it
    /// gives more than nothing (see the module header); `None` otherwise.
    pub(super) fn goal_form(&self) -> Option<GoalForm> {
        if self.goal_rest.is_empty() {
            return None;
        }
        let every_move_pays = self
            .model
            .moves
            .iter()
            .all(|m| m.adds.first().is_none_or(|&a| a > 0));
        let mut informative = false;
        let parts = self
            .goal_rest
            .iter()
            .map(|c| self.node(c, false, every_move_pays, &mut informative))
            .collect();
        informative.then_some(GoalForm {
            root: Node::And(parts),
        })
    }

    /// The node of condition `c` (of its negation with `negate`).
    fn node(&self, c: &KCond, negate: bool, pays: bool, informative: &mut bool) -> Node {
        let count = |what: Quantity, op: CmpOp, value: i64, informative: &mut bool| {
            let op = if negate { negated(op) } else { op };
            let (lower, raise) = self.rates(what);
            *informative |= !(lower.free && raise.free);
            Node::Count {
                what,
                op,
                value,
                lower,
                raise,
            }
        };
        match c {
            KCond::CountPieces { kind, op, value } => {
                count(Quantity::Pieces(*kind), *op, *value, informative)
            }
            KCond::CountTiles { tile, op, value } => {
                count(Quantity::Tiles(*tile), *op, *value, informative)
            }
            KCond::Counter { word, op, value } => {
                count(Quantity::Counter(*word), *op, *value, informative)
            }
            KCond::Const(b) if *b != negate => Node::Zero,
            KCond::Const(_) => Node::Never,
            KCond::Not(inner) => self.node(inner, !negate, pays, informative),
            KCond::And(parts) | KCond::Or(parts) => {
                let nodes = parts
                    .iter()
                    .map(|p| self.node(p, negate, pays, informative))
                    .collect();
                // De Morgan: a negated `and` is an `or` of negations, and back.
                if matches!(c, KCond::And(_)) != negate {
                    Node::And(nodes)
                } else {
                    Node::Or(nodes)
                }
            }
            _ if pays => Node::Holds {
                cond: c.clone(),
                negate,
            },
            _ => Node::Zero,
        }
    }

    /// The rates lowering and raising `what` (see the module header).
    fn rates(&self, what: Quantity) -> (Rate, Rate) {
        let mut lower = Rate {
            free: false,
            per_move: 0,
        };
        let mut raise = lower;
        for m in &self.model.moves {
            let ch = self.change(&m.ops, what);
            if m.adds.first().is_some_and(|&a| a == 0) {
                lower.free |= ch.lower > 0;
                raise.free |= ch.raise > 0;
            } else {
                lower.per_move = lower.per_move.max(ch.lower);
                raise.per_move = raise.per_move.max(ch.raise);
            }
        }
        (lower, raise)
    }

    /// The most the program `ops` lowers and raises `what`.
    fn change(&self, ops: &[Op], what: Quantity) -> Change {
        let mut total = Change::default();
        for op in ops {
            let ch = match op {
                Op::Remove { piece, .. } if what == Quantity::Pieces(piece.index()) => {
                    Change { lower: 1, raise: 0 }
                }
                Op::Create { piece, .. } if what == Quantity::Pieces(piece.index()) => {
                    Change { lower: 0, raise: 1 }
                }
                Op::Change {
                    from,
                    to,
                    toggle,
                    place,
                } => match what {
                    Quantity::Tiles(t) => {
                        let cells = match place {
                            TilePlace::At(_) => 1,
                            TilePlace::All => u32::MAX,
                            TilePlace::Mark(m) => self
                                .lay
                                .board_cells
                                .iter()
                                .filter(|&&p| self.lay.pmarks[p as usize] >> m.0 & 1 == 1)
                                .count() as u32,
                        };
                        let (f, g) = (from.0 == t, to.0 == t);
                        // `from` cells become `to`; a toggle also turns `to` into `from`.
                        let lower = u32::from(f && !g || *toggle && g && !f);
                        let raise = u32::from(g && !f || *toggle && f && !g);
                        Change { lower, raise }.times(cells)
                    }
                    _ => Change::default(),
                },
                Op::Slide { rules, each, .. } if matches!(what, Quantity::Tiles(_)) => {
                    if !rules.iter().any(|r| r.brk) {
                        Change::default()
                    } else if !*each && rules.iter().all(|r| !r.brk || r.stop) {
                        Change { lower: 1, raise: 1 }
                    } else {
                        Change {
                            lower: u32::MAX,
                            raise: u32::MAX,
                        }
                    }
                }
                Op::Count { id, op, value }
                    if what == Quantity::Counter(self.lay.counters_at + *id as usize) =>
                {
                    let n = value.unsigned_abs().min(u64::from(u32::MAX)) as u32;
                    match (op, *value >= 0) {
                        (AssignOp::Add, true) | (AssignOp::Sub, false) => {
                            Change { lower: 0, raise: n }
                        }
                        (AssignOp::Add, false) | (AssignOp::Sub, true) => {
                            Change { lower: n, raise: 0 }
                        }
                        (AssignOp::Set, _) => Change {
                            lower: u32::MAX,
                            raise: u32::MAX,
                        },
                    }
                }
                Op::If { then, els, .. } => self.change(then, what).max(self.change(els, what)),
                Op::ForCells { piece, body, .. } => {
                    let cells = self.lay.foot[piece.index()]
                        .iter()
                        .map(Vec::len)
                        .max()
                        .unwrap_or(1) as u32;
                    self.change(body, what).times(cells)
                }
                _ => Change::default(),
            };
            total = total.add(ch);
        }
        total
    }

    /// The value of `what` in state `s`.
    fn quantity(&self, s: &[u32], what: Quantity) -> i64 {
        match what {
            Quantity::Pieces(k) => {
                let sl = &self.lay.slots[k];
                s[sl.start..sl.start + sl.count]
                    .iter()
                    .filter(|&&w| w != ABSENT)
                    .count() as i64
            }
            Quantity::Tiles(t) => self.lay.count_tile(s, t) as i64,
            Quantity::Counter(word) => i64::from(s[word]),
        }
    }

    /// The bound of `form` on state `s`.
    pub(super) fn goal_form_bound(&self, form: &GoalForm, s: &[u32]) -> u32 {
        self.node_bound(&form.root, s)
    }

    fn node_bound(&self, n: &Node, s: &[u32]) -> u32 {
        match n {
            Node::Count {
                what,
                op,
                value,
                lower,
                raise,
            } => {
                let x = self.quantity(s, *what);
                let v = *value;
                match op {
                    CmpOp::Eq => lower.moves_for(x - v).max(raise.moves_for(v - x)),
                    CmpOp::Le => lower.moves_for(x - v),
                    CmpOp::Lt => lower.moves_for(x - v + 1),
                    CmpOp::Ge => raise.moves_for(v - x),
                    CmpOp::Gt => raise.moves_for(v - x + 1),
                    CmpOp::Ne if x != v => 0,
                    CmpOp::Ne => lower.moves_for(1).min(raise.moves_for(1)),
                }
            }
            Node::Holds { cond, negate } => u32::from(self.holds(s, cond) == *negate),
            Node::Never => UNREACHABLE,
            Node::Zero => 0,
            Node::And(parts) => parts
                .iter()
                .map(|p| self.node_bound(p, s))
                .max()
                .unwrap_or(0),
            Node::Or(parts) => parts
                .iter()
                .map(|p| self.node_bound(p, s))
                .min()
                .unwrap_or(UNREACHABLE),
        }
    }
}
