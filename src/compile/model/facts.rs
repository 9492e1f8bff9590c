//! What is asked of a compiled [`Model`]: the letter and argument text of an action, a
//! metric by name, which moves range over cells, and the facts computed once when
//! compiling is done (unit costs, static tiles, the seed mechanics alone, a countdown).

use super::{
    walk_ops, Action, CmpOp, Cond, DirId, Facts, GridForm, KeyValue, Model, MoveId, Op, Param,
    PieceId, Step, Subject, TileId,
};

impl Model {
    /// Whether levels are written as characters (any char key) or integers.
    pub(crate) fn default_form(&self) -> GridForm {
        if self
            .legend
            .iter()
            .any(|s| matches!(s.key, KeyValue::Char(_)))
        {
            GridForm::Chars
        } else {
            GridForm::Ints
        }
    }

    /// The letter printed for an action.
    pub fn letter(&self, action: Action) -> &str {
        let m = &self.moves[action.mv().index()];
        match m.param {
            Param::Cell => &m.letters[0],
            Param::Dirs(_) => &m.letters[action.dir().index()],
        }
    }

    /// What an action is played along: its direction's name, or `cell N` (the board
    /// cell's index in reading order) for a per-cell move.
    pub fn arg_text(&self, action: Action) -> String {
        match self.moves[action.mv().index()].param {
            Param::Cell => format!("cell {}", action.dir().0),
            Param::Dirs(_) => self.dirs[action.dir().index()].name.clone(),
        }
    }

    /// The index of the metric called `name`.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }

    /// Whether move `mv` is played on a cell (its actions number cells, not directions).
    pub fn per_cell(&self, mv: MoveId) -> bool {
        self.moves[mv.index()].param == Param::Cell
    }

    /// Whether the rules use only the seed mechanics: no counters, no goal beyond
    /// `piece on place`, every move per every direction with plain one-copy statements.
    /// Fast paths, A*, bidirectional search and goal enumeration need this.
    pub(crate) fn basic(&self) -> bool {
        self.facts.basic
    }

    /// When every solution has the same length: the kind `K` and count `n` such that
    /// every move removes exactly one copy of `K` and creates none, every move costs one
    /// unit, and the goal demands `count(K) == n`. Then every solution takes exactly
    /// (copies at the start - n) moves, so the first solution a depth-first search finds
    /// in action order is the one breadth-first search would return.
    pub(crate) fn countdown(&self) -> Option<(PieceId, i64)> {
        self.facts.countdown
    }

    fn find_countdown(&self) -> Option<(PieceId, i64)> {
        if !self.unit_costs() || self.moves.is_empty() {
            return None;
        }
        let goal_counts = self.goal_rest.iter().filter_map(|c| match c {
            Cond::Count {
                what: Subject::Piece(k),
                op: CmpOp::Eq,
                value,
            } => Some((*k, *value)),
            _ => None,
        });
        for (k, n) in goal_counts {
            let every_move_removes_one = self.moves.iter().all(|m| {
                let top = m
                    .ops
                    .iter()
                    .filter(|op| matches!(op, Op::Remove { piece, .. } if *piece == k))
                    .count();
                let mut nested_or_created = 0;
                for op in &m.ops {
                    if let Op::If { .. } | Op::ForCells { .. } = op {
                        walk_ops(std::slice::from_ref(op), &mut |o| {
                            if matches!(o, Op::Remove { piece, .. } if *piece == k) {
                                nested_or_created += 1;
                            }
                        });
                    }
                }
                walk_ops(&m.ops, &mut |o| {
                    if matches!(o, Op::Create { piece, .. } if *piece == k) {
                        nested_or_created += 1;
                    }
                });
                top == 1 && nested_or_created == 0
            });
            if every_move_removes_one {
                return Some((k, n));
            }
        }
        None
    }

    /// Every tile change the rules can make, as (from, to): breaks, changes and both
    /// directions of toggles.
    pub(crate) fn tile_changes(&self) -> Vec<(TileId, TileId)> {
        let mut out: Vec<(TileId, TileId)> = self
            .tiles
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((TileId(i as u16), t.becomes?)))
            .collect();
        for m in &self.moves {
            walk_ops(&m.ops, &mut |op| {
                if let Op::Change {
                    from, to, toggle, ..
                } = op
                {
                    out.push((*from, *to));
                    if *toggle {
                        out.push((*to, *from));
                    }
                }
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether every move costs the same single unit, so breadth-first search is exact.
    pub(crate) fn unit_costs(&self) -> bool {
        self.facts.unit_costs
    }

    /// Whether no tile can change during play.
    pub(crate) fn static_tiles(&self) -> bool {
        self.facts.static_tiles
    }

    /// Computes the derived facts; called once, when compiling is done.
    pub(in crate::compile) fn learn_facts(&mut self) {
        let unit_costs =
            self.costs.len() <= 1 && self.moves.iter().all(|m| m.adds.iter().all(|&a| a == 1));
        self.facts.unit_costs = unit_costs;
        self.facts = Facts {
            countdown: self.find_countdown(),
            unit_costs,
            static_tiles: self.tiles.iter().all(|t| t.becomes.is_none())
                && self.tile_changes().is_empty(),
            basic: self.counters.is_empty()
                && self.goal_rest.is_empty()
                && self.pieces.iter().all(|p| p.max.is_none())
                && self.moves.iter().all(|m| {
                    let all = m.param
                        == Param::Dirs((0..self.dirs.len()).map(|d| DirId(d as u16)).collect());
                    let mut plain = all;
                    walk_ops(&m.ops, &mut |op| plain &= op_is_basic(op));
                    plain
                }),
        };
    }
}

/// Whether an op is one of the seed mechanics' plain forms.
fn op_is_basic(op: &Op) -> bool {
    let one = |s: &Step| s.times == 1;
    match op {
        Op::Test { cell, .. } => cell.step.as_ref().is_none_or(one),
        Op::Shift {
            step, alias, each, ..
        }
        | Op::Slide {
            step, alias, each, ..
        } => one(step) && alias.is_none() && !each,
        Op::Swap { step, alias, .. } => one(step) && alias.is_none(),
        Op::Turn { alias, .. } => alias.is_none(),
        Op::Check { .. }
        | Op::Remove { .. }
        | Op::Create { .. }
        | Op::Change { .. }
        | Op::Count { .. }
        | Op::If { .. }
        | Op::ForCells { .. } => false,
    }
}
