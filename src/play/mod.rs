//! Playing a level by hand: a [`Game`] holds one level's current state and its history,
//! takes wishes ([`Want`]) and exact actions ([`ActionRef`]) as people name them, applies
//! only successors the expander generates, and, when nothing happens, says why
//! ([`Blocked`]) using the engine's slow on-demand tracer (`engine::whynot`).
//!
//! # Naming actions
//!
//! An action is a move and its direction (`{"move":"roll","dir":"n"}`), or, for a move
//! played on a cell, the move and its cell (`{"move":"press","cell":[2,3]}`). When one
//! directional action can move any of several copies (`step_small e` in Klotski), each
//! copy's action also carries `cell`: the anchor of the piece it moves, before the move.
//! [`Game::legal`] adds it exactly then; [`Game::apply`] accepts it always, and any cell
//! the piece covers names it.
//!
//! # Wishes
//!
//! A [`Want`] may leave out any field. The actions it matches, in action order (moves in
//! declaration order, then directions or cells):
//! - `move` picks one move; without it every move is a candidate;
//! - `dir` picks the direction of directional moves (moves played on cells are then left
//!   out);
//! - `cell` is the cell of a move played on cells, and for directional moves the piece to
//!   move: only actions that move the piece covering that cell match.
//!
//! The first legal candidate is played, with one exception: a wish with `cell` and no
//! `dir` is first offered to the moves played on cells (a click on a Lights Out lamp);
//! when none of them answers, it is played only when it is unambiguous, that is, when
//! exactly one directional action moves the piece there (a click on a Klotski block that
//! can go one way). When it can go several ways, nothing is played and the answer lists
//! them.
//!
//! When nothing is played, every candidate (at most 64) is explained by
//! `Expander::why_not`, and the explanation of the candidate that got farthest through
//! its program leads: for `e` beside a box against a wall, `push e` (the box would be on
//! the wall) rather than `walk e` (the man would overlap the box).

pub mod lurd;

use serde::{Deserialize, Serialize};

use crate::compile::{walk_ops, Action, DirId, Model, MoveId, Op, Param};
use crate::engine::budget::Budget;
use crate::engine::{Expander, Level, SetupError, Successors};
use crate::io::view::{board_view, BoardView};

/// An action as people name it: a move and its direction, or its cell for per-cell moves.
/// A directional action carries `cell` too (its piece's anchor) when the same move and
/// direction could move several copies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionRef {
    /// The move's name.
    #[serde(rename = "move")]
    pub mv: String,
    /// The direction's name, for a directional move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// The cell (row, column) of a per-cell move, or of the piece a directional move moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<[i64; 2]>,
}

/// What the player asks for: any field may be left out (no move: any move; dir: the
/// direction by name; cell: a per-cell move's cell, or the cell of the piece to move).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Want {
    /// The move's name.
    #[serde(rename = "move", default)]
    pub mv: Option<String>,
    /// The direction's name.
    #[serde(default)]
    pub dir: Option<String>,
    /// A per-cell move's cell, or a cell of the piece to move.
    #[serde(default)]
    pub cell: Option<[i64; 2]>,
}

/// A move of the rules, for the page's controls.
#[derive(Clone, Debug, Serialize)]
pub struct MoveInfo {
    /// The move's name.
    pub name: String,
    /// Whether it is played on a cell (else along a direction).
    pub per_cell: bool,
    /// The directions it takes, in tie-rule order (empty for a per-cell move).
    pub dirs: Vec<String>,
}

/// A direction of the rules.
#[derive(Clone, Debug, Serialize)]
pub struct DirInfo {
    /// The direction's name.
    pub name: String,
    /// Row step.
    pub dr: i32,
    /// Column step.
    pub dc: i32,
}

/// Every move of `model`, in declaration order.
pub fn move_infos(model: &Model) -> Vec<MoveInfo> {
    model
        .moves
        .iter()
        .map(|m| match &m.param {
            Param::Cell => MoveInfo {
                name: m.name.clone(),
                per_cell: true,
                dirs: vec![],
            },
            Param::Dirs(ds) => MoveInfo {
                name: m.name.clone(),
                per_cell: false,
                dirs: ds
                    .iter()
                    .filter_map(|d| model.dirs.get(d.index()).map(|d| d.name.clone()))
                    .collect(),
            },
        })
        .collect()
}

/// Every direction of `model`, in tie-rule order.
pub fn dir_infos(model: &Model) -> Vec<DirInfo> {
    model
        .dirs
        .iter()
        .map(|d| DirInfo {
            name: d.name.clone(),
            dr: d.dr,
            dc: d.dc,
        })
        .collect()
}

/// A move made: which action, the one-line description (`MoveDescription::line`), the main
/// piece's name, the step's cost vector, whether the goal now holds.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    /// The action applied.
    pub action: ActionRef,
    /// `roll block (1,3) s`.
    pub line: String,
    /// The main piece's kind name, when a piece moved.
    pub piece: Option<String>,
    /// What the step adds to each cost component.
    pub step_cost: Vec<u64>,
    /// Whether the goal holds after it.
    pub goal: bool,
}

/// Why nothing happened. `message` is one sentence for people naming the move, the piece
/// and the failing statement or rule. `span` is the byte range in the .puz source of the
/// statement, legality rule or limit that stopped it, when there is one. `tried` lists
/// every candidate action with its own reason.
#[derive(Clone, Debug, Serialize)]
pub struct Blocked {
    /// One sentence.
    pub message: String,
    /// `[start, end)` in the `.puz` source.
    pub span: Option<[usize; 2]>,
    /// Every candidate action with its own reason, in action order.
    pub tried: Vec<Refusal>,
}

/// One candidate action and why it is not a move now.
#[derive(Clone, Debug, Serialize)]
pub struct Refusal {
    /// The action.
    pub action: ActionRef,
    /// Why it does not apply.
    pub why: String,
    /// `[start, end)` in the `.puz` source of what stopped it.
    pub span: Option<[usize; 2]>,
}

/// At most this many candidates of one wish are explained in [`Blocked::tried`].
const MAX_TRIED: usize = 64;

/// One level being played: the expander, the current state, and the history of actions
/// with the state before each.
pub struct Game<'m> {
    exp: Expander<'m>,
    start: Vec<u32>,
    cur: Vec<u32>,
    /// (action, its name as played, state before it).
    past: Vec<(Action, ActionRef, Vec<u32>)>,
    succ: Successors,
}

/// A wish's candidate: an action, and for a directional move the piece it must move.
struct Candidate {
    action: Action,
    piece_at: Option<(i64, i64)>,
}

impl<'m> Game<'m> {
    /// Sets up `level` under `model` at its start, within `budget`.
    pub fn new(model: &'m Model, level: Level, budget: &Budget) -> Result<Game<'m>, SetupError> {
        let exp = Expander::new(model, level, budget)?;
        let start = exp.start();
        Ok(Game {
            cur: start.clone(),
            start,
            exp,
            past: vec![],
            succ: Successors::default(),
        })
    }

    /// The board now.
    pub fn board(&self) -> BoardView {
        board_view(&self.exp, &self.cur)
    }

    /// Whether the goal holds now.
    pub fn is_goal(&self) -> bool {
        self.exp.is_goal(&self.cur)
    }

    /// The summed cost vector of the history, one entry per cost component.
    pub fn cost(&self) -> Vec<u64> {
        let n = self.exp.model.costs.len();
        let mut total = vec![0u64; n];
        for (a, _, _) in &self.past {
            for (t, c) in total.iter_mut().zip(self.step_cost(*a)) {
                *t = t.saturating_add(c);
            }
        }
        total
    }

    /// The moves made.
    pub fn moves(&self) -> usize {
        self.past.len()
    }

    /// The actions made, in order.
    pub fn history(&self) -> Vec<ActionRef> {
        self.past.iter().map(|(_, r, _)| r.clone()).collect()
    }

    /// The state now.
    pub fn state(&self) -> &[u32] {
        &self.cur
    }

    /// The expander the game plays on.
    pub fn expander(&self) -> &Expander<'m> {
        &self.exp
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.past.pop() {
            Some((_, _, before)) => {
                self.cur = before;
                true
            }
            None => false,
        }
    }

    /// Back to the start, with no history.
    pub fn restart(&mut self) {
        self.past.clear();
        self.cur = self.start.clone();
    }

    /// The legal actions now, in action (tie-rule) order; none once the move limit is
    /// reached.
    pub fn legal(&mut self) -> Vec<ActionRef> {
        if self.limit_reached().is_some() {
            return vec![];
        }
        self.expand();
        (0..self.succ.len())
            .map(|i| self.name_successor(i))
            .collect()
    }

    /// Tries the actions matching `want` in action order and applies the first legal one
    /// (see the module header for what a wish matches).
    pub fn play(&mut self, want: &Want) -> Result<Played, Blocked> {
        if let Some(b) = self.limit_reached() {
            return Err(b);
        }
        let model = self.exp.model;
        let mv = match &want.mv {
            Some(name) => Some(self.find_move(name)?),
            None => None,
        };
        let dir = match &want.dir {
            Some(name) => Some(
                model
                    .dirs
                    .iter()
                    .position(|d| d.name == *name)
                    .ok_or_else(|| plain(format!("no direction called `{name}`")))?,
            ),
            None => None,
        };
        let cell = match want.cell {
            Some(c) => Some(self.board_cell(c)?),
            None => None,
        };
        let piece_at = want.cell.map(|[r, c]| (r, c));
        if piece_at.is_some()
            && !self.covered(piece_at)
            && !model.moves.iter().any(|m| m.param == Param::Cell)
        {
            let [r, c] = want.cell.unwrap_or_default();
            return Err(plain(format!("there is no piece at ({r},{c})")));
        }
        let mut per_cell = vec![];
        let mut directional = vec![];
        for (mi, m) in model.moves.iter().enumerate() {
            if mv.is_some_and(|x| x != mi) {
                continue;
            }
            let id = MoveId(mi as u16);
            match &m.param {
                Param::Cell => match (cell, dir) {
                    (Some(i), None) => per_cell.push(Candidate {
                        action: Action::new(id, DirId(i as u16)),
                        piece_at: None,
                    }),
                    (None, None) if mv.is_some() => {
                        return Err(plain(format!(
                            "`{}` is played on a cell: say which",
                            m.name
                        )))
                    }
                    _ => {}
                },
                Param::Dirs(ds) => {
                    if cell.is_some() && !self.may_move(mi, piece_at) {
                        continue;
                    }
                    for d in ds {
                        if dir.is_some_and(|x| x != d.index()) {
                            continue;
                        }
                        directional.push(Candidate {
                            action: Action::new(id, *d),
                            piece_at,
                        });
                    }
                }
            }
        }
        if let Some(m) = mv {
            if per_cell.is_empty() && directional.is_empty() {
                let name = &model.moves[m].name;
                let why = match (&want.dir, want.cell) {
                    (Some(d), _) if !model.per_cell(MoveId(m as u16)) => {
                        format!("`{name}` is not played toward {d}")
                    }
                    (Some(_), _) => format!("`{name}` is played on a cell, not along a direction"),
                    (None, Some([r, c])) => format!("there is no piece at ({r},{c}) to `{name}`"),
                    (None, None) => format!("`{name}` has no direction to be played in"),
                };
                return Err(plain(why));
            }
        }
        self.expand();
        // Moves played on cells answer a click first.
        for cand in &per_cell {
            if let Some(i) = self.find_successor(cand) {
                return Ok(self.take(i));
            }
        }
        let mut found: Vec<(usize, &Candidate)> = vec![];
        for cand in &directional {
            if let Some(i) = self.find_successor(cand) {
                found.push((i, cand));
                if cell.is_none() || dir.is_some() {
                    break;
                }
            }
        }
        match found.len() {
            0 => {}
            1 => return Ok(self.take(found[0].0)),
            _ => {
                let who = piece_at
                    .and_then(|cell| {
                        let pieces = self.exp.pieces_in(&self.cur);
                        let p = pieces.into_iter().find(|p| p.cells.contains(&cell))?;
                        let (r, c) = p.anchor;
                        Some(format!("`{}` at ({r},{c})", model.pieces[p.kind].name))
                    })
                    .unwrap_or_else(|| "the piece".to_string());
                let options: Vec<ActionRef> =
                    found.iter().map(|&(i, _)| self.name_successor(i)).collect();
                let list: Vec<String> = options.iter().map(action_text).collect();
                let tried = options
                    .into_iter()
                    .map(|action| Refusal {
                        action,
                        why: "one of several moves of this piece".to_string(),
                        span: None,
                    })
                    .collect();
                return Err(Blocked {
                    message: format!(
                        "{who} can move in several ways ({}): say which",
                        list.join(", ")
                    ),
                    span: None,
                    tried,
                });
            }
        }
        let clicked = per_cell.is_empty() && !directional.is_empty();
        let all: Vec<Candidate> = per_cell.into_iter().chain(directional).collect();
        if all.is_empty() {
            let why = match (&want.dir, want.cell) {
                (Some(d), _) => {
                    let cells: Vec<&str> = model
                        .moves
                        .iter()
                        .filter(|m| m.param == Param::Cell)
                        .map(|m| m.name.as_str())
                        .collect();
                    if cells.is_empty() {
                        format!("no move is played toward {d}")
                    } else {
                        format!(
                            "no move is played toward {d}: `{}` is played on a cell",
                            cells.join("`, `")
                        )
                    }
                }
                (None, Some([r, c])) => format!("no move can move the piece at ({r},{c})"),
                (None, None) => "no move matches: name a move, a direction or a cell".to_string(),
            };
            return Err(plain(why));
        }
        let mut blocked = self.refuse(&all);
        if let (true, Some(cell)) = (clicked, piece_at) {
            if let Some(p) = self
                .exp
                .pieces_in(&self.cur)
                .into_iter()
                .find(|p| p.cells.contains(&cell))
            {
                let name = &model.pieces[p.kind].name;
                let (r, c) = p.anchor;
                let toward = want.dir.as_ref().map_or(String::new(), |d| format!(" {d}"));
                blocked.message = format!(
                    "`{name}` at ({r},{c}) cannot move{toward} now ({})",
                    blocked.message
                );
            }
        }
        Err(blocked)
    }

    /// Applies exactly `action` (it must be legal now).
    pub fn apply(&mut self, action: &ActionRef) -> Result<Played, Blocked> {
        if let Some(b) = self.limit_reached() {
            return Err(b);
        }
        let model = self.exp.model;
        let mi = self.find_move(&action.mv)?;
        let id = MoveId(mi as u16);
        let m = &model.moves[mi];
        let cand = match &m.param {
            Param::Cell => {
                let Some(c) = action.cell else {
                    return Err(plain(format!(
                        "`{}` is played on a cell: say which",
                        m.name
                    )));
                };
                let i = self.board_cell(c)?;
                Candidate {
                    action: Action::new(id, DirId(i as u16)),
                    piece_at: None,
                }
            }
            Param::Dirs(ds) => {
                let Some(name) = &action.dir else {
                    return Err(plain(format!("`{}` needs a direction", m.name)));
                };
                let d = ds
                    .iter()
                    .find(|d| model.dirs.get(d.index()).is_some_and(|x| x.name == *name))
                    .ok_or_else(|| plain(format!("`{}` is not played toward {name}", m.name)))?;
                let piece_at = match action.cell {
                    Some(c) => {
                        self.board_or_beyond(c)?;
                        Some((c[0], c[1]))
                    }
                    None => None,
                };
                Candidate {
                    action: Action::new(id, *d),
                    piece_at,
                }
            }
        };
        self.expand();
        match self.find_successor(&cand) {
            Some(i) => Ok(self.take(i)),
            None => Err(self.refuse(std::slice::from_ref(&cand))),
        }
    }

    /// Fills `succ` with the successors of the state now.
    /// Plays the first successor, in action order, whose description `accept` takes
    /// (LURD replay, `crate::io::lurd`: the player's step and whether it pushed); `None`
    /// when none does or the move limit is reached.
    pub(crate) fn play_described(
        &mut self,
        accept: impl Fn(&crate::engine::MoveDescription) -> bool,
    ) -> Option<Played> {
        if self.limit_reached().is_some() {
            return None;
        }
        self.expand();
        let words = self.exp.words;
        let i = (0..self.succ.len()).find(|&i| {
            let after = self.succ.state(i, words);
            accept(&self.exp.describe(&self.cur, after, self.succ.actions[i]))
        })?;
        Some(self.take(i))
    }

    fn expand(&mut self) {
        let cur = self.cur.clone();
        self.exp.successors(&cur, &mut self.succ);
    }

    /// The blocked answer when the move limit is reached.
    fn limit_reached(&self) -> Option<Blocked> {
        let limit = self.exp.model.limit?;
        (self.past.len() >= limit as usize).then(|| Blocked {
            message: format!("the move limit of {limit} is reached"),
            span: self
                .exp
                .model
                .spans
                .limit
                .map(|s| [s.offset(), s.offset() + s.len()]),
            tried: vec![],
        })
    }

    /// The move called `name`.
    fn find_move(&self, name: &str) -> Result<usize, Blocked> {
        self.exp
            .model
            .moves
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| plain(format!("no move called `{name}`")))
    }

    /// The reading-order index of a board cell, or why it is not one.
    fn board_cell(&self, [r, c]: [i64; 2]) -> Result<usize, Blocked> {
        let b = &self.exp.level.board;
        let on = (0..b.rows as i64).contains(&r) && (0..b.cols as i64).contains(&c);
        if !on {
            return Err(plain(format!(
                "({r},{c}) is not on the board ({}, {})",
                crate::diagnostics::quantity(b.rows as u64, "rows"),
                crate::diagnostics::quantity(b.cols as u64, "columns")
            )));
        }
        Ok(r as usize * b.cols + c as usize)
    }

    /// A piece's cell may lie beyond the board, but not beyond where anything reaches.
    fn board_or_beyond(&self, [r, c]: [i64; 2]) -> Result<(), Blocked> {
        let b = &self.exp.level.board;
        let reach = 1024;
        let ok = (-reach..b.rows as i64 + reach).contains(&r)
            && (-reach..b.cols as i64 + reach).contains(&c);
        if ok {
            Ok(())
        } else {
            Err(plain(format!("no piece can be at ({r},{c})")))
        }
    }

    /// Whether some piece covers `cell` now.
    fn covered(&self, cell: Option<(i64, i64)>) -> bool {
        cell.is_some_and(|c| {
            self.exp
                .pieces_in(&self.cur)
                .iter()
                .any(|p| p.cells.contains(&c))
        })
    }

    /// Whether move `mi` may move the piece covering `cell` now: some statement of it
    /// moves or removes that kind, or trades places with whatever is there.
    fn may_move(&self, mi: usize, cell: Option<(i64, i64)>) -> bool {
        let Some(cell) = cell else {
            return false;
        };
        let pieces = self.exp.pieces_in(&self.cur);
        let Some(p) = pieces.iter().find(|p| p.cells.contains(&cell)) else {
            return false;
        };
        let mut moves = false;
        walk_ops(&self.exp.model.moves[mi].ops, &mut |op| {
            moves |= match op {
                Op::Shift { piece, .. }
                | Op::Turn { piece, .. }
                | Op::Slide { piece, .. }
                | Op::Remove { piece, .. } => piece.index() == p.kind,
                Op::Swap { .. } => true,
                _ => false,
            }
        });
        moves
    }

    /// The successor (index into `succ`) a candidate names, if it is legal now.
    fn find_successor(&self, cand: &Candidate) -> Option<usize> {
        let piece = cand.piece_at.and_then(|cell| {
            self.exp
                .pieces_in(&self.cur)
                .into_iter()
                .find(|p| p.cells.contains(&cell))
        });
        if cand.piece_at.is_some() && piece.is_none() {
            return None;
        }
        let words = self.exp.words;
        (0..self.succ.len()).find(|&i| {
            self.succ.actions[i] == cand.action
                && piece.as_ref().is_none_or(|p| {
                    let after = self.succ.state(i, words);
                    let d = self.exp.describe(&self.cur, after, cand.action);
                    d.moved
                        .iter()
                        .any(|m| m.piece.index() == p.kind && m.from == Some(p.anchor))
                })
        })
    }

    /// How people name successor `i`: with the moved piece's anchor when its action has
    /// several successors.
    fn name_successor(&self, i: usize) -> ActionRef {
        let action = self.succ.actions[i];
        let model = self.exp.model;
        let mut r = self.action_ref(action);
        if !model.per_cell(action.mv())
            && self.succ.actions.iter().filter(|&&a| a == action).count() > 1
        {
            let after = self.succ.state(i, self.exp.words);
            let d = self.exp.describe(&self.cur, after, action);
            r.cell = d.main().and_then(|m| m.from).map(|(r, c)| [r, c]);
        }
        r
    }

    /// The name of an action, without a piece.
    fn action_ref(&self, action: Action) -> ActionRef {
        let model = self.exp.model;
        let mv = model.moves[action.mv().index()].name.clone();
        if model.per_cell(action.mv()) {
            let cols = self.exp.level.board.cols.max(1);
            let k = action.dir().index();
            ActionRef {
                mv,
                dir: None,
                cell: Some([(k / cols) as i64, (k % cols) as i64]),
            }
        } else {
            ActionRef {
                mv,
                dir: model.dirs.get(action.dir().index()).map(|d| d.name.clone()),
                cell: None,
            }
        }
    }

    /// What one application of `action`'s move adds to each cost component.
    fn step_cost(&self, action: Action) -> Vec<u64> {
        self.exp.model.moves[action.mv().index()]
            .adds
            .iter()
            .map(|&a| a as u64)
            .collect()
    }

    /// Makes successor `i` the state now.
    fn take(&mut self, i: usize) -> Played {
        let action = self.succ.actions[i];
        let name = self.name_successor(i);
        let after = self.succ.state(i, self.exp.words).to_vec();
        let d = self.exp.describe(&self.cur, &after, action);
        let before = std::mem::replace(&mut self.cur, after);
        self.past.push((action, name.clone(), before));
        Played {
            action: name,
            line: d.line(),
            piece: d.main().map(|m| m.name.clone()),
            step_cost: self.step_cost(action),
            goal: self.is_goal(),
        }
    }

    /// Why none of `cands` is a move now: each traced, the one that got farthest told.
    fn refuse(&mut self, cands: &[Candidate]) -> Blocked {
        let cur = self.cur.clone();
        let mut tried = vec![];
        let mut best: Option<(usize, String, Option<[usize; 2]>)> = None;
        for cand in cands.iter().take(MAX_TRIED) {
            let w = self.exp.why_not(&cur, cand.action, cand.piece_at);
            let span = w.span.map(|(a, b)| [a, b]);
            if best.as_ref().is_none_or(|b| w.progress > b.0) {
                best = Some((w.progress, w.why.clone(), span));
            }
            let mut action = self.action_ref(cand.action);
            if !self.exp.model.per_cell(cand.action.mv()) {
                action.cell = cand.piece_at.map(|(r, c)| [r, c]);
            }
            tried.push(Refusal {
                action,
                why: w.why,
                span,
            });
        }
        let (_, message, span) = best.unwrap_or((0, "no move matches".to_string(), None));
        Blocked {
            message,
            span,
            tried,
        }
    }
}

/// A refusal with nothing to trace.
fn plain(message: String) -> Blocked {
    Blocked {
        message,
        span: None,
        tried: vec![],
    }
}

/// `roll n`, `press (2,3)`, `step_small e (0,3)`.
fn action_text(a: &ActionRef) -> String {
    let mut out = a.mv.clone();
    if let Some(d) = &a.dir {
        out.push(' ');
        out.push_str(d);
    }
    if let Some([r, c]) = a.cell {
        out.push_str(&format!(" ({r},{c})"));
    }
    out
}
