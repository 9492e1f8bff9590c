//! Describing the moves of an answer for people: which move, what moved from where to
//! where, in which direction (or at which cell), and which tiles and counters changed.
//!
//! A description is worked out from the two states around a move alone, by diffing their
//! piece slots, the tiles of the cells that can change and the counters, so it holds for
//! every engine and every program.
//!
//! # Which piece is named
//!
//! Every piece whose slot changed (place or pose), appeared or vanished is listed in
//! [`MoveDescription::moved`]. The first is the *main* piece, the one a human line names
//! (`walk man (3,2) n`): the first, in slot order (kinds in declaration order, then
//! copies), that is on the board both before and after the move, or the first changed at
//! all when none is. The others follow in slot order. For a Sokoban push, with `man`
//! declared before `box`, the man leads and the box follows; for a peg jump, the jumper
//! leads and the peg jumped over follows, removed.
//!
//! # Copies of an anonymous kind
//!
//! Copies carry no identity in a state (they are kept sorted), so for each anonymous kind
//! the copies that vanished from `before` are paired with the copies that appeared in
//! `after` as multisets:
//! - as many on each side: both sides are sorted along the move's direction (by the line
//!   across it, then by how far along it) and paired in order, so copies sliding along one
//!   line (a tilt) keep their order;
//! - more vanished than appeared (a jump that removes a copy): each appeared copy takes the
//!   vanished copy that travelled farthest along the move's direction to reach it (the
//!   jumper, not the peg jumped over), or, when none lies behind it on that line, the
//!   nearest; the vanished copies left over were removed (`to` is `None`);
//! - more appeared than vanished: the same, the other way round; the appeared copies left
//!   over were created (`from` is `None`).
//!
//! A slot holding `ABSENT` (see `layout.rs`) is a piece not on the board (removed, or not
//! created yet): it is never given a cell and never indexes a table.

use crate::compile::{Action, PieceId, PoseId};

use super::expander::Expander;
use super::layout::ABSENT;

/// A board cell as 0-based (row, column). A piece anchored beyond the board's edge (where
/// `outside` lets it go) has a row or column below 0 or past the last.
pub type CellPos = (i64, i64);

/// What a move was applied along: a direction, or (for a per-cell move) a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTarget {
    /// The direction's name.
    Dir(String),
    /// The cell pressed.
    Cell(CellPos),
}

/// One piece that a move changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// Its kind.
    pub piece: PieceId,
    /// The kind's name.
    pub name: String,
    /// Its anchor before the move; `None` when the move created it.
    pub from: Option<CellPos>,
    /// Its anchor after the move; `None` when the move removed it.
    pub to: Option<CellPos>,
}

/// One cell whose tile a move changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileChange {
    /// The cell.
    pub cell: CellPos,
    /// The tile's name before the move.
    pub from: String,
    /// The tile's name after the move.
    pub to: String,
}

/// One counter that a move changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterChange {
    /// The counter's name.
    pub name: String,
    /// Its value before the move.
    pub from: u32,
    /// Its value after the move.
    pub to: u32,
}

/// One move of an answer, told for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDescription {
    /// The move's name.
    pub mv: String,
    /// The direction or cell it was applied along.
    pub target: MoveTarget,
    /// The letter the answer's string uses for it.
    pub letter: String,
    /// Every piece that moved, turned, appeared or vanished, in slot order; the first is
    /// the main one (see the module header).
    pub moved: Vec<PieceMove>,
    /// Every cell whose tile changed, in reading order.
    pub tiles: Vec<TileChange>,
    /// Every counter that changed, in declaration order.
    pub counters: Vec<CounterChange>,
}

impl MoveDescription {
    /// The main piece: the first that moved, if any did.
    pub fn main(&self) -> Option<&PieceMove> {
        self.moved.first()
    }

    /// One line: `walk man (3,2) n`, `step tall (2,0) s`, `press (2,3)` when no piece
    /// moved; other pieces that moved follow: `push man (5,6) n, box (4,6)`.
    pub fn line(&self) -> String {
        let mut out = self.mv.clone();
        let piece = |out: &mut String, p: &PieceMove| {
            out.push(' ');
            out.push_str(&p.name);
            if let Some(at) = p.from.or(p.to) {
                out.push(' ');
                out.push_str(&cell_text(at));
            }
            match (p.from, p.to) {
                (None, _) => out.push_str(" created"),
                (_, None) => out.push_str(" removed"),
                _ => {}
            }
        };
        if let Some(m) = self.main() {
            piece(&mut out, m);
        }
        out.push(' ');
        out.push_str(&self.target.text());
        for p in self.moved.iter().skip(1) {
            out.push(',');
            piece(&mut out, p);
        }
        out
    }
}

impl MoveTarget {
    /// `n`, or `(2,3)` for a cell.
    pub fn text(&self) -> String {
        match self {
            MoveTarget::Dir(d) => d.clone(),
            MoveTarget::Cell(c) => cell_text(*c),
        }
    }
}

/// `(r,c)`.
pub fn cell_text((r, c): CellPos) -> String {
    format!("({r},{c})")
}

impl Expander<'_> {
    /// Describes the move `action` that led from `before` to `after` (see the module
    /// header for which piece is named and how anonymous copies are paired).
    pub fn describe(&self, before: &[u32], after: &[u32], action: Action) -> MoveDescription {
        self.describe_path(&[before.to_vec(), after.to_vec()], &[action])
            .pop()
            .expect("one move described")
    }

    /// Describes every move of a path: `states` holds one more state than `actions`. The
    /// tables it needs are built once for the whole path.
    pub fn describe_path(&self, states: &[Vec<u32>], actions: &[Action]) -> Vec<MoveDescription> {
        let ctx = Context::new(self);
        actions
            .iter()
            .zip(states.windows(2))
            .map(|(&a, w)| ctx.describe(&w[0], &w[1], a))
            .collect()
    }

    /// The piece a move moved, as the answer names it (see the module header): its kind
    /// and its slot values (anchor and pose) before and after, or `None` when no piece is
    /// on the board both before and after the move. Metrics follow this piece from one
    /// application of a move to the next.
    pub(crate) fn moved_piece(
        &self,
        before: &[u32],
        after: &[u32],
        action: Action,
    ) -> Option<(PieceId, u32, u32)> {
        let ctx = Context::geometry(self);
        match ctx.moved_values(before, after, action).first() {
            Some(&(k, Some(from), Some(to))) => Some((PieceId(k as u16), from, to)),
            _ => None,
        }
    }

    /// What covers each board cell (in reading order) in state `s`: the piece kind and the
    /// pose of the copy there, so a board can be drawn with symbols that choose poses.
    pub(crate) fn occupancy_with_poses(&self, s: &[u32]) -> Vec<Option<(PieceId, PoseId)>> {
        let lay = &self.lay;
        // Padded cell -> board cell, for the cells of the board.
        let mut board_of = vec![u32::MAX; lay.ptile.len()];
        for (i, &p) in lay.board_cells.iter().enumerate() {
            board_of[p as usize] = i as u32;
        }
        let mut occ = vec![None; lay.board_cells.len()];
        for (slot, &k) in lay.slot_kind.iter().enumerate() {
            if s[slot] == ABSENT {
                continue;
            }
            let (a, pose) = lay.anchor(s, slot);
            let Some(foot) = lay.foot[k as usize].get(pose) else {
                continue;
            };
            for &d in foot {
                let cell = board_of.get((a as isize + d) as usize).copied();
                if let Some(c) = cell.filter(|&c| c != u32::MAX) {
                    occ[c as usize] = Some((PieceId(k), PoseId(pose as u16)));
                }
            }
        }
        occ
    }
}

/// What describing needs beyond the expander: the board geometry of the padded grid and
/// the cells whose tile can change.
struct Context<'e, 'm> {
    exp: &'e Expander<'m>,
    /// Padded index of board cell (0, 0).
    base: i64,
    /// Padded row length.
    width: i64,
    /// Padding columns left of the board.
    pad_c: i64,
    /// The padded cells whose tile can change, in reading order.
    changeable: Vec<u32>,
}

impl<'e, 'm> Context<'e, 'm> {
    fn new(exp: &'e Expander<'m>) -> Context<'e, 'm> {
        let mut ctx = Context::geometry(exp);
        let mut changeable: Vec<u32> = exp.lay.mut_cells.clone();
        changeable.sort_unstable();
        ctx.changeable = changeable;
        ctx
    }

    /// The board geometry alone, without the changeable cells: enough to tell which
    /// pieces moved.
    fn geometry(exp: &'e Expander<'m>) -> Context<'e, 'm> {
        let board = &exp.level.board;
        let lay = &exp.lay;
        let (base, width, pad_c) = if board.cols == 0 {
            (0, 1, 0)
        } else {
            let base = lay.to_padded(0) as i64;
            // Board cell `cols` is row 1, column 0: one padded row after cell 0.
            let width = (lay.to_padded(board.cols as u32) as i64 - base).max(1);
            (base, width, (width - board.cols as i64) / 2)
        };
        Context {
            exp,
            base,
            width,
            pad_c,
            changeable: vec![],
        }
    }

    /// The board (row, column) of a padded cell, signed for cells beyond the edge.
    fn pos(&self, padded: usize) -> CellPos {
        let q = padded as i64 - self.base + self.pad_c;
        (
            q.div_euclid(self.width),
            q.rem_euclid(self.width) - self.pad_c,
        )
    }

    /// The anchor of a slot value of kind `k`, or `None` for an absent piece.
    fn anchor(&self, k: usize, value: u32) -> Option<CellPos> {
        if value == ABSENT {
            return None;
        }
        let bits = self.exp.lay.slots[k].bits;
        Some(self.pos((value >> bits) as usize))
    }

    /// The direction's (row, column) step of an action applied along a direction.
    fn step(&self, action: Action) -> Option<(i64, i64)> {
        if self.exp.model.per_cell(action.mv()) {
            return None;
        }
        let d = self.exp.model.dirs.get(action.dir().index())?;
        Some((d.dr as i64, d.dc as i64))
    }

    /// What the move was applied along: a direction, or the board cell (numbered in
    /// reading order) of a per-cell move.
    fn target(&self, action: Action) -> MoveTarget {
        let model = self.exp.model;
        let k = action.dir().index();
        if model.per_cell(action.mv()) {
            let cols = self.exp.level.board.cols.max(1);
            return MoveTarget::Cell(((k / cols) as i64, (k % cols) as i64));
        }
        let name = model
            .dirs
            .get(k)
            .map_or_else(|| format!("#{k}"), |d| d.name.clone());
        MoveTarget::Dir(name)
    }

    fn describe(&self, before: &[u32], after: &[u32], action: Action) -> MoveDescription {
        let model = self.exp.model;
        let moved = self
            .moved_values(before, after, action)
            .into_iter()
            .map(|(k, from, to)| PieceMove {
                piece: PieceId(k as u16),
                name: model.pieces[k].name.clone(),
                from: from.and_then(|v| self.anchor(k, v)),
                to: to.and_then(|v| self.anchor(k, v)),
            })
            .collect();
        MoveDescription {
            mv: model.moves[action.mv().index()].name.clone(),
            target: self.target(action),
            letter: model.letter(action).to_string(),
            moved,
            tiles: self.tiles(before, after),
            counters: self.counters(before, after),
        }
    }

    /// Every piece the move changed as (kind, slot value before, slot value after), the
    /// main piece first (see the module header); `None` where it was absent.
    fn moved_values(
        &self,
        before: &[u32],
        after: &[u32],
        action: Action,
    ) -> Vec<(usize, Option<u32>, Option<u32>)> {
        let model = self.exp.model;
        let lay = &self.exp.lay;
        let step = self.step(action);
        let present = |v: u32| (v != ABSENT).then_some(v);
        let mut moved = vec![];
        for (k, sl) in lay.slots.iter().enumerate() {
            let range = sl.start..sl.start + sl.count;
            let (b, a) = (&before[range.clone()], &after[range]);
            if b == a {
                continue;
            }
            if !model.pieces[k].anonymous {
                for (&x, &y) in b.iter().zip(a) {
                    if x != y {
                        moved.push((k, present(x), present(y)));
                    }
                }
                continue;
            }
            let (gone, came) = multiset_diff(b, a);
            let at = |vals: &[u32]| -> Vec<(CellPos, u32)> {
                vals.iter()
                    .filter_map(|&v| Some((self.anchor(k, v)?, v)))
                    .collect()
            };
            let (gone, came) = (at(&gone), at(&came));
            let value = |list: &[(CellPos, u32)], pos: Option<CellPos>| {
                pos.and_then(|p| list.iter().find(|(q, _)| *q == p).map(|&(_, v)| v))
            };
            let gone_at: Vec<CellPos> = gone.iter().map(|&(p, _)| p).collect();
            let came_at: Vec<CellPos> = came.iter().map(|&(p, _)| p).collect();
            // A copy that only turned in place vanished and appeared at one anchor.
            for (from, to) in pair_copies(&gone_at, &came_at, step) {
                moved.push((k, value(&gone, from), value(&came, to)));
            }
        }
        if let Some(i) = moved.iter().position(|p| p.1.is_some() && p.2.is_some()) {
            moved[..=i].rotate_right(1);
        }
        moved
    }

    /// The counters whose value differs between the states.
    fn counters(&self, before: &[u32], after: &[u32]) -> Vec<CounterChange> {
        let at = self.exp.lay.counters_at;
        self.exp
            .model
            .counters
            .iter()
            .enumerate()
            .filter_map(|(c, counter)| {
                let (x, y) = (*before.get(at + c)?, *after.get(at + c)?);
                (x != y).then(|| CounterChange {
                    name: counter.name.clone(),
                    from: x,
                    to: y,
                })
            })
            .collect()
    }

    /// The cells whose tile differs between the states, in reading order. Only cells
    /// whose tile can change are compared, and only when the states' tile words differ.
    fn tiles(&self, before: &[u32], after: &[u32]) -> Vec<TileChange> {
        let lay = &self.exp.lay;
        let words = lay.tiles_at..lay.counters_at;
        if before.get(words.clone()) == after.get(words) {
            return vec![];
        }
        let cells = &self.changeable;
        let tiles = &self.exp.model.tiles;
        let name = |t: Option<crate::compile::TileId>| {
            t.map_or_else(|| "none".to_string(), |t| tiles[t.index()].name.clone())
        };
        cells
            .iter()
            .filter_map(|&p| {
                let p = p as usize;
                let (t0, t1) = (lay.tile_at(before, p), lay.tile_at(after, p));
                (t0 != t1).then(|| TileChange {
                    cell: self.pos(p),
                    from: name(t0),
                    to: name(t1),
                })
            })
            .collect()
    }
}

/// The values of `b` missing from `a` and of `a` missing from `b`, counted as multisets;
/// [`ABSENT`] values are left out of both. Each result is sorted.
fn multiset_diff(b: &[u32], a: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut x: Vec<u32> = b.iter().copied().filter(|&v| v != ABSENT).collect();
    let mut y: Vec<u32> = a.iter().copied().filter(|&v| v != ABSENT).collect();
    x.sort_unstable();
    y.sort_unstable();
    let (mut gone, mut came) = (vec![], vec![]);
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        match (x.get(i), y.get(j)) {
            (Some(p), Some(q)) if p == q => {
                i += 1;
                j += 1;
            }
            (Some(p), Some(q)) if p < q => {
                gone.push(*p);
                i += 1;
            }
            (Some(p), None) => {
                gone.push(*p);
                i += 1;
            }
            (_, Some(q)) => {
                came.push(*q);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (gone, came)
}

/// Pairs the anchors of vanished copies with those of appeared copies (see the module
/// header): `(Some, Some)` moved, `(Some, None)` removed, `(None, Some)` created. Pairs
/// come in the order of the vanished copies, then created ones.
fn pair_copies(
    gone: &[CellPos],
    came: &[CellPos],
    step: Option<(i64, i64)>,
) -> Vec<(Option<CellPos>, Option<CellPos>)> {
    let (dr, dc) = step.unwrap_or((0, 0));
    if gone.len() == came.len() {
        // The line across the direction, then the distance along it.
        let key = |&(r, c): &CellPos| (r * dc - c * dr, r * dr + c * dc, r, c);
        let mut g = gone.to_vec();
        let mut a = came.to_vec();
        g.sort_by_key(key);
        a.sort_by_key(key);
        let mut pairs: Vec<_> = g
            .into_iter()
            .zip(a)
            .map(|(x, y)| (Some(x), Some(y)))
            .collect();
        pairs.sort();
        return pairs;
    }
    // How well `from` -> `to` fits a copy carried along the direction: travelling k >= 1
    // steps along it scores k (farther is better), anything else scores by nearness.
    let fit = |from: CellPos, to: CellPos| -> (bool, i64) {
        let (r, c) = (to.0 - from.0, to.1 - from.1);
        let along = r * dc - c * dr == 0 && r * dr + c * dc > 0;
        if along {
            (true, (r * dr + c * dc) / (dr * dr + dc * dc).max(1))
        } else {
            (false, -(r.abs() + c.abs()))
        }
    };
    let mut pairs = vec![];
    if gone.len() > came.len() {
        let mut left: Vec<Option<CellPos>> = gone.iter().copied().map(Some).collect();
        let mut to_of = vec![None; gone.len()];
        for &to in came {
            let best = (0..left.len())
                .filter(|&i| left[i].is_some())
                .max_by_key(|&i| (fit(gone[i], to), std::cmp::Reverse(i)));
            if let Some(i) = best {
                left[i] = None;
                to_of[i] = Some(to);
            }
        }
        pairs.extend(gone.iter().zip(to_of).map(|(&f, t)| (Some(f), t)));
    } else {
        let mut left: Vec<Option<CellPos>> = came.iter().copied().map(Some).collect();
        for &from in gone {
            let best = (0..left.len())
                .filter(|&i| left[i].is_some())
                .max_by_key(|&i| (fit(from, came[i]), std::cmp::Reverse(i)));
            if let Some(i) = best {
                pairs.push((Some(from), left[i].take()));
            }
        }
        pairs.extend(left.into_iter().flatten().map(|to| (None, Some(to))));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{DirId, MoveId};
    use crate::engine::budget::Budget;
    use crate::engine::Successors;

    /// Three interchangeable boxes in a row; a man pushes from the left.
    const ROW: &str = r#"tiles { floor }
marks { goal }
piece man
piece box anonymous
legend { '.' floor 'm' floor + man 'b' floor + box 'g' floor + goal }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move walk(d) { shift man d }
move push(d) { require box at man + d shift box d shift man d }
move nudge(d) { shift box d }
goal box on goal
level "L" """
  ......
  mb.b.g
  """
"#;

    /// Every successor of the start, described.
    fn described(text: &str) -> Vec<MoveDescription> {
        let p = crate::Puzzle::load("t.puz", text.to_string()).expect("loads");
        let lvl = p.inline_level(0).expect("level");
        let mut exp = Expander::new(&p.model, lvl, &Budget::default()).expect("setup");
        let start = exp.start();
        let mut succ = Successors::default();
        exp.successors(&start, &mut succ);
        (0..succ.len())
            .map(|i| exp.describe(&start, succ.state(i, exp.words), succ.actions[i]))
            .collect()
    }

    #[test]
    fn the_man_leads_a_push_and_a_lone_copy_is_found() {
        let lines: Vec<String> = described(ROW).iter().map(MoveDescription::line).collect();
        assert!(lines.contains(&"walk man (1,0) n".to_string()), "{lines:?}");
        assert!(
            lines.contains(&"push man (1,0) e, box (1,1)".to_string()),
            "{lines:?}"
        );
        // `nudge` moves any one box: the one that moved is named by where it started.
        assert!(
            lines.contains(&"nudge box (1,3) e".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"nudge box (1,1) n".to_string()),
            "{lines:?}"
        );
        let push = described(ROW)
            .into_iter()
            .find(|d| d.mv == "push")
            .expect("a push");
        assert_eq!(push.moved[1].from, Some((1, 1)));
        assert_eq!(push.moved[1].to, Some((1, 2)));
        assert!(push.tiles.is_empty());
    }

    #[test]
    fn an_absent_slot_is_a_removed_piece() {
        let p = crate::Puzzle::load("t.puz", ROW.to_string()).expect("loads");
        let lvl = p.inline_level(0).expect("level");
        let exp = Expander::new(&p.model, lvl, &Budget::default()).expect("setup");
        let before = exp.start();
        // Slots: the man, then the two boxes sorted; the box at (1,3) sorts last.
        let mut after = before.clone();
        after[2] = ABSENT;
        let d = exp.describe(&before, &after, Action::new(MoveId(0), DirId(0)));
        assert_eq!(d.moved.len(), 1);
        assert_eq!(d.moved[0].from, Some((1, 3)));
        assert_eq!(d.moved[0].to, None);
        assert_eq!(d.line(), "walk box (1,3) removed n");
        // And back: a copy created from nothing.
        let d = exp.describe(&after, &before, Action::new(MoveId(0), DirId(0)));
        assert_eq!((d.moved[0].from, d.moved[0].to), (None, Some((1, 3))));
    }

    #[test]
    fn multisets_ignore_shared_and_absent_values() {
        let (gone, came) = multiset_diff(&[1, 3, 3, 7, ABSENT], &[3, 5, 7, ABSENT, ABSENT]);
        assert_eq!((gone, came), (vec![1, 3], vec![5]));
        assert_eq!(multiset_diff(&[ABSENT], &[ABSENT]), (vec![], vec![]));
    }

    #[test]
    fn a_jumping_copy_is_the_one_that_travelled_farthest() {
        // A peg at (3,1) jumps east over (3,2) to (3,3): the jumped peg is removed.
        let pairs = pair_copies(&[(3, 1), (3, 2)], &[(3, 3)], Some((0, 1)));
        assert_eq!(pairs, [(Some((3, 1)), Some((3, 3))), (Some((3, 2)), None)]);
    }

    #[test]
    fn copies_sliding_on_one_line_keep_their_order() {
        // Tilt east: marbles at (0,1) and (0,3) stop at (0,4) and (0,5); another line too.
        let pairs = pair_copies(
            &[(0, 1), (0, 3), (2, 0)],
            &[(0, 4), (0, 5), (2, 5)],
            Some((0, 1)),
        );
        assert_eq!(
            pairs,
            [
                (Some((0, 1)), Some((0, 4))),
                (Some((0, 3)), Some((0, 5))),
                (Some((2, 0)), Some((2, 5)))
            ]
        );
        // Tilt north with the copies crossing in reading order.
        let pairs = pair_copies(&[(3, 2), (4, 1)], &[(0, 1), (0, 2)], Some((-1, 0)));
        assert_eq!(
            pairs,
            [(Some((3, 2)), Some((0, 2))), (Some((4, 1)), Some((0, 1)))]
        );
    }

    #[test]
    fn created_copies_have_no_start() {
        let pairs = pair_copies(&[], &[(1, 1)], None);
        assert_eq!(pairs, [(None, Some((1, 1)))]);
    }
}
