//! The reference interpreter: successors and the goal test, written from the README's
//! words (quoted at each rule) and the semantics the lead decided in issue 20 (R1-R6).
//! Small and slow on purpose: a state is a list of copies, a move runs statement by
//! statement on a clone, and every choice ("any one copy", a copy found at a cell) is a
//! separate branch. It reads only [`super::rules`]; nothing here calls the crate.
//!
//! See the module doc of [`super`] for every reading chosen where the README is silent.

use std::collections::BTreeSet;

use super::rules::*;

/// Where one copy is: anchor row, column and pose.
pub type Spot = (i64, i64, usize);

/// A state: per kind the copies on the board (sorted: copies carry no identity), the tile
/// of every board cell (row-major), and the counters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct State {
    pub pieces: Vec<Vec<Spot>>,
    pub tiles: Vec<usize>,
    pub counters: Vec<i64>,
}

/// An action: the move, and its direction (index into `dirs`) or board cell (row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Act {
    pub mv: usize,
    pub arg: usize,
}

/// The static board of a level.
#[derive(Clone, Debug)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    /// Tile of each cell at the start.
    pub tiles: Vec<usize>,
    /// Marks of each cell.
    pub marks: Vec<Vec<usize>>,
}

/// One cell of a goal picture: the tile drawn, and the kind drawn (with the pose its
/// symbol chooses, if it chooses one), if any.
pub type PictureCell = (usize, Option<(usize, Option<usize>)>);

/// Emulations of engine behaviour that differs from the reference, each off by default.
/// The fuzzer turns them on to tell whether a difference belongs to a known class
/// ("expected until fixed"); delete a quirk once the engine (or the reference) is fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quirks {
    /// `create` of an anonymous kind fills the first empty slot of the kind, which may be
    /// the slot of a copy removed earlier in the move: a name that held the removed copy
    /// then holds the new one.
    pub create_reuses_slot: bool,
}

/// Every quirk by name, with how to turn it on.
type Setter = (&'static str, fn(&mut Quirks));
const QUIRKS: &[Setter] = &[("create_reuses_slot", |q| q.create_reuses_slot = true)];

impl Quirks {
    /// Every quirk, by name, each alone.
    pub fn each() -> Vec<(&'static str, Quirks)> {
        QUIRKS
            .iter()
            .map(|(name, set)| {
                let mut q = Quirks::default();
                set(&mut q);
                (*name, q)
            })
            .collect()
    }

    /// Every quirk but `name`.
    pub fn all_but(name: &str) -> Quirks {
        let mut q = Quirks::default();
        for (n, set) in QUIRKS {
            if *n != name {
                set(&mut q);
            }
        }
        q
    }

    /// All quirks at once.
    pub fn all() -> Quirks {
        let mut q = Quirks::default();
        for (_, set) in QUIRKS {
            set(&mut q);
        }
        q
    }
}

/// One level under one rule file.
pub struct Reference<'r> {
    pub rules: &'r Rules,
    pub quirks: Quirks,
    /// Per kind: the engine's slots (copies at the start or `max`, one for a named
    /// piece); only [`Quirks`] read it.
    pub slots: Vec<usize>,
    pub board: Board,
    pub picture: Option<Vec<PictureCell>>,
    /// Per kind: how many copies there is room for at once (`max`, or one for a named
    /// piece).
    room: Vec<usize>,
    /// Per kind, per pose: the footprint.
    feet: Vec<Vec<Vec<(i64, i64)>>>,
}

/// One copy during a move: its kind and place (`None` once removed). Copies keep their
/// index while a move runs, so bindings and remembered overlaps can name them.
#[derive(Clone, Debug, PartialEq)]
struct Copy {
    kind: usize,
    at: Option<Spot>,
}

/// A move in progress: the state being changed, and who holds which copy.
#[derive(Clone, Debug)]
struct Ctx {
    copies: Vec<Copy>,
    tiles: Vec<usize>,
    counters: Vec<i64>,
    /// Per kind: the copy the kind's name holds in this try, if any.
    held: Vec<Option<usize>>,
    /// `as` names in scope, innermost last.
    aliases: Vec<(String, usize)>,
    /// `for` loop cells in scope, innermost last.
    loops: Vec<(String, (i64, i64))>,
    /// R4: pairs of copies a statement put on each other's cells.
    pairs: Vec<(usize, usize)>,
    /// A move is running, not a goal test (for [`Quirks`]).
    in_move: bool,
    /// The try's copies are chosen (for [`Quirks`]).
    started: bool,
}

/// What one run of a move is played along.
#[derive(Clone, Copy)]
struct Env {
    /// The direction (per-direction moves).
    dir: Option<usize>,
    /// The cell (per-cell moves).
    cell: Option<(i64, i64)>,
}

/// Results of a condition: (holds, the context after it, with its bindings).
type Outcomes = Vec<(bool, Ctx)>;

impl<'r> Reference<'r> {
    pub fn new(rules: &'r Rules, board: Board, picture: Option<Vec<PictureCell>>) -> Self {
        let room = rules
            .kinds
            .iter()
            .map(|k| {
                if k.anonymous {
                    k.max.unwrap_or(0) as usize
                } else {
                    1
                }
            })
            .collect();
        let feet = rules
            .kinds
            .iter()
            .map(|k| k.pose_list().into_iter().map(|p| p.cells).collect())
            .collect();
        Reference {
            rules,
            quirks: Quirks::default(),
            slots: vec![1; rules.kinds.len()],
            board,
            picture,
            room,
            feet,
        }
    }

    // ------------------------------------------------------------ cells and places

    fn on_board(&self, (r, c): (i64, i64)) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.board.rows && (c as usize) < self.board.cols
    }

    fn index(&self, (r, c): (i64, i64)) -> usize {
        r as usize * self.board.cols + c as usize
    }

    /// "outside void: what cells beyond the board behave as" — the tile at a cell now.
    fn tile_at(&self, ctx: &Ctx, p: (i64, i64)) -> Option<usize> {
        if self.on_board(p) {
            Some(ctx.tiles[self.index(p)])
        } else {
            self.rules.outside
        }
    }

    /// Marks are placed by the level's symbols, so only board cells carry them.
    fn has_mark(&self, p: (i64, i64), m: usize) -> bool {
        self.on_board(p) && self.board.marks[self.index(p)].contains(&m)
    }

    fn on_place(&self, ctx: &Ctx, p: (i64, i64), place: Place) -> bool {
        match place {
            Place::Tile(t) => self.tile_at(ctx, p) == Some(t),
            Place::Mark(m) => self.has_mark(p, m),
        }
    }

    /// The cells a copy at `spot` covers.
    fn cells(&self, kind: usize, (r, c, pose): Spot) -> Vec<(i64, i64)> {
        self.feet[kind][pose]
            .iter()
            .map(|&(dr, dc)| (r + dr, c + dc))
            .collect()
    }

    fn covers(&self, ctx: &Ctx, i: usize, p: (i64, i64)) -> bool {
        let cp = &ctx.copies[i];
        cp.at.is_some_and(|s| self.cells(cp.kind, s).contains(&p))
    }

    /// A step as a (row, column) vector: "the move's direction `d`, a named direction,
    /// either reversed (`-d`) or repeated (`2d`)".
    fn vector(&self, env: Env, s: &Step, minus: bool) -> Option<(i64, i64)> {
        let d = &self.rules.dirs[s.dir.or(env.dir)?];
        let k = s.times * if s.neg != minus { -1 } else { 1 };
        Some((d.dr * k, d.dc * k))
    }

    // ------------------------------------------------------------ choosing copies

    /// The copy a kind or `as` name holds. "Writing an anonymous kind in a move means any
    /// one copy: the move is tried once per copy, and each try is a separate action": the
    /// kinds [`iterated_kinds`] names are chosen here when a try starts (once per copy on
    /// the board), and a goal's cell at a kind tries each copy; once the try runs, a kind
    /// that holds nothing (its binding did not happen) holds an absent copy.
    fn hold(&self, ctx: Ctx, who: &Who) -> Vec<(Ctx, usize)> {
        match who {
            Who::Alias(a) => match ctx.aliases.iter().rev().find(|(n, _)| n == a) {
                Some(&(_, i)) => vec![(ctx, i)],
                None => vec![],
            },
            Who::Kind(k) => {
                if let Some(i) = self.bound(&ctx, *k) {
                    return vec![(ctx, i)];
                }
                // "A cell counted from a piece that is not on the board (removed, or not
                // yet bound) ... names no cell": a kind the try did not choose a copy
                // for and no binding bound holds an absent copy.
                if ctx.started {
                    let mut c = ctx;
                    c.copies.push(Copy { kind: *k, at: None });
                    let i = c.copies.len() - 1;
                    return vec![(c, i)];
                }
                (0..ctx.copies.len())
                    .filter(|&i| ctx.copies[i].kind == *k && ctx.copies[i].at.is_some())
                    .map(|i| {
                        let mut c = ctx.clone();
                        c.held[*k] = Some(i);
                        (c, i)
                    })
                    .collect()
            }
        }
    }

    /// The copy kind `k` holds, if any.
    fn bound(&self, ctx: &Ctx, k: usize) -> Option<usize> {
        ctx.held[k]
    }

    /// Whether a name holds copy `i`: R2, "names holding copies are the move's own kinds
    /// that it acts on (by iteration or by an earlier binding `require K at CELL`) and
    /// earlier `as` names".
    fn named(&self, ctx: &Ctx, i: usize) -> bool {
        ctx.held.contains(&Some(i)) || ctx.aliases.iter().any(|&(_, j)| j == i)
    }

    // ------------------------------------------------------------ cell expressions

    /// "A cell is a piece's anchor, an `as` name, the cell of a per-cell move or of a
    /// `for`, or an absolute `(row, col)`, followed by `+ STEP` / `- STEP` terms."
    /// `None` when the piece it starts at is not on the board.
    fn cell(&self, env: Env, ctx: Ctx, c: &CellE) -> Vec<(Ctx, Option<(i64, i64)>)> {
        let bases: Vec<(Ctx, Option<(i64, i64)>)> = match &c.base {
            Base::Who(w) => self
                .hold(ctx, w)
                .into_iter()
                .map(|(ctx, i)| {
                    let at = ctx.copies[i].at.map(|(r, c, _)| (r, c));
                    (ctx, at)
                })
                .collect(),
            Base::Param => vec![(ctx, env.cell)],
            Base::Loop(v) => {
                let at = ctx.loops.iter().rev().find(|(n, _)| n == v).map(|x| x.1);
                vec![(ctx, at)]
            }
            // "absolute cells; negative counts from the end"
            &Base::Abs(r, col) => {
                let r = if r < 0 { self.board.rows as i64 + r } else { r };
                let col = if col < 0 {
                    self.board.cols as i64 + col
                } else {
                    col
                };
                // "an absolute `(row, col)` off the board, names no cell"
                if !self.on_board((r, col)) {
                    return vec![(ctx, None)];
                }
                vec![(ctx, Some((r, col)))]
            }
        };
        bases
            .into_iter()
            .map(|(ctx, at)| {
                let at = at.and_then(|(mut r, mut col)| {
                    for (minus, s) in &c.steps {
                        let (dr, dc) = self.vector(env, s, *minus)?;
                        r += dr;
                        col += dc;
                    }
                    Some((r, col))
                });
                (ctx, at)
            })
            .collect()
    }

    // ------------------------------------------------------------ conditions

    /// A condition; `bind` when it stands where a binding is allowed ("`as` works in a
    /// plain `require` or `if` condition only (not under `not`, `or`, `forbid` or in a
    /// goal)"; the same places bind a kind's copy).
    fn eval(&self, env: Env, ctx: Ctx, c: &Cond, bind: bool) -> Outcomes {
        match c {
            Cond::At {
                what,
                pose,
                cell,
                alias,
            } => self
                .cell(env, ctx, cell)
                .into_iter()
                .flat_map(|(ctx, at)| self.at(ctx, what, *pose, at, alias.as_deref(), bind))
                .collect(),
            Cond::On { who, pose, place } => {
                let ok = self.on(&ctx, who, *pose, *place);
                vec![(ok, ctx)]
            }
            // "`count(X) OP N` (copies of a piece, or cells holding a tile or mark)"
            Cond::Count { what, op, value } => {
                let n = match *what {
                    CountWhat::Piece(k) => ctx
                        .copies
                        .iter()
                        .filter(|cp| cp.kind == k && cp.at.is_some())
                        .count(),
                    CountWhat::Tile(t) => ctx.tiles.iter().filter(|&&x| x == t).count(),
                    CountWhat::Mark(m) => {
                        self.board.marks.iter().filter(|ms| ms.contains(&m)).count()
                    }
                };
                let ok = op.holds(n as i64, *value);
                vec![(ok, ctx)]
            }
            Cond::Counter { id, op, value } => {
                let ok = op.holds(ctx.counters[*id], *value);
                vec![(ok, ctx)]
            }
            Cond::Attr {
                who,
                attr,
                op,
                value,
            } => {
                let ok = match (self.attr(&ctx, who, attr), value) {
                    (Some(a), AttrVal::Num(n)) => op.holds(a, *n),
                    (Some(a), AttrVal::Of(w, b)) => {
                        self.attr(&ctx, w, b).is_some_and(|b| op.holds(a, b))
                    }
                    (None, _) => false,
                };
                vec![(ok, ctx)]
            }
            Cond::Not(inner) => self
                .eval(env, ctx, inner, false)
                .into_iter()
                .map(|(b, c)| (!b, c))
                .collect(),
            // Left to right: a binding made by one part holds in the parts after it.
            Cond::And(parts) => {
                let mut out: Outcomes = vec![(true, ctx)];
                for p in parts {
                    out = out
                        .into_iter()
                        .flat_map(|(b, c)| {
                            if b {
                                self.eval(env, c, p, bind)
                            } else {
                                vec![(false, c)]
                            }
                        })
                        .collect();
                }
                out
            }
            Cond::Or(parts) => {
                let mut out: Outcomes = vec![(false, ctx)];
                for p in parts {
                    out = out
                        .into_iter()
                        .flat_map(|(b, c)| {
                            if b {
                                vec![(true, c)]
                            } else {
                                self.eval(env, c, p, false)
                            }
                        })
                        .collect();
                }
                out
            }
        }
    }

    /// `X at CELL`: "a piece, tile or mark there". R1: a kind (in a pose) is there when
    /// SOME copy covers the cell, the move's own copy included. In a binding place, a kind
    /// that holds no copy yet binds the copy found ("`require K at CELL` instead binds the
    /// copy found there, and later statements act on that one"), and `as NAME` binds a
    /// copy that no name holds.
    fn at(
        &self,
        ctx: Ctx,
        what: &What,
        pose: Option<usize>,
        at: Option<(i64, i64)>,
        alias: Option<&str>,
        bind: bool,
    ) -> Outcomes {
        let Some(p) = at else {
            return vec![(false, ctx)];
        };
        match what {
            What::Tile(t) => {
                let ok = self.tile_at(&ctx, p) == Some(*t);
                vec![(ok, ctx)]
            }
            What::Mark(m) => {
                let ok = self.has_mark(p, *m);
                vec![(ok, ctx)]
            }
            What::Alias(a) => {
                let mine = ctx.aliases.iter().rev().find(|(n, _)| n == a).map(|x| x.1);
                // "An `as` name as the subject (`over at c`) asks about that very copy."
                let ok = mine.is_some_and(|i| self.on_board(p) && self.covers(&ctx, i, p));
                vec![(ok, ctx)]
            }
            // "A piece is never `at` a cell off the board."
            What::Piece(_) if !self.on_board(p) => {
                vec![(false, ctx)]
            }
            What::Piece(k) => {
                let found: Vec<usize> = (0..ctx.copies.len())
                    .filter(|&i| {
                        let cp = &ctx.copies[i];
                        cp.kind == *k
                            && cp.at.is_some_and(|s| pose.is_none_or(|q| q == s.2))
                            && self.covers(&ctx, i, p)
                    })
                    .collect();
                if let (Some(name), true) = (alias, bind) {
                    let free: Vec<usize> = found
                        .into_iter()
                        .filter(|&i| !self.named(&ctx, i))
                        .collect();
                    if free.is_empty() {
                        return vec![(false, ctx)];
                    }
                    return free
                        .into_iter()
                        .map(|i| {
                            let mut c = ctx.clone();
                            c.aliases.push((name.to_string(), i));
                            (true, c)
                        })
                        .collect();
                }
                if bind && ctx.held[*k].is_none() {
                    if found.is_empty() {
                        return vec![(false, ctx)];
                    }
                    return found
                        .into_iter()
                        .map(|i| {
                            let mut c = ctx.clone();
                            c.held[*k] = Some(i);
                            (true, c)
                        })
                        .collect();
                }
                let ok = !found.is_empty();
                vec![(ok, ctx)]
            }
        }
    }

    /// `P on T`, `P.pose on T`: "every cell of the piece, and of every copy of an
    /// anonymous kind, on the tile or mark". A name holding a copy means that copy (absent:
    /// false); a kind holding none means every copy on the board (none: true).
    fn on(&self, ctx: &Ctx, who: &Who, pose: Option<usize>, place: Place) -> bool {
        let one = |i: usize| {
            let cp = &ctx.copies[i];
            cp.at.is_some_and(|s| {
                pose.is_none_or(|q| q == s.2)
                    && self
                        .cells(cp.kind, s)
                        .into_iter()
                        .all(|p| self.on_place(ctx, p, place))
            })
        };
        let held = match who {
            Who::Alias(a) => ctx.aliases.iter().rev().find(|(n, _)| n == a).map(|x| x.1),
            Who::Kind(k) => self.bound(ctx, *k),
        };
        match (held, who) {
            (Some(i), _) => one(i),
            // A named piece off the board is on nothing (as in a goal); an anonymous
            // kind with no copy left meets `on` vacuously.
            (None, Who::Kind(k))
                if !self.rules.kinds[*k].anonymous
                    && !ctx.copies.iter().any(|cp| cp.kind == *k && cp.at.is_some()) =>
            {
                false
            }
            (None, Who::Kind(k)) => (0..ctx.copies.len())
                .filter(|&i| ctx.copies[i].kind == *k && ctx.copies[i].at.is_some())
                .all(one),
            (None, Who::Alias(_)) => false,
        }
    }

    /// R6: `PIECE.ATTR` of a kind's bound copy (in a move), a named piece's copy or an
    /// `as` name's copy, in its pose now; `None` when no copy is bound or it is absent, or
    /// its pose has no such attribute. (In a move a comparison acts on its kinds, so they
    /// hold a copy; in a goal a named piece means its copy.)
    fn attr(&self, ctx: &Ctx, who: &Who, attr: &str) -> Option<i64> {
        let i = match who {
            Who::Alias(a) => ctx.aliases.iter().rev().find(|(n, _)| n == a)?.1,
            Who::Kind(k) => match self.bound(ctx, *k) {
                Some(i) => i,
                None if !self.rules.kinds[*k].anonymous => (0..ctx.copies.len())
                    .find(|&i| ctx.copies[i].kind == *k && ctx.copies[i].at.is_some())?,
                None => return None,
            },
        };
        let cp = &ctx.copies[i];
        let (_, _, pose) = cp.at?;
        self.rules.kinds[cp.kind].attr(pose, attr)
    }

    // ------------------------------------------------------------ statements

    fn block(&self, env: Env, ctx: Ctx, body: &[Stmt]) -> Vec<Ctx> {
        let mut live = vec![ctx];
        for s in body {
            live = live
                .into_iter()
                .flat_map(|c| self.stmt(env, c, s))
                .collect();
            if live.is_empty() {
                break;
            }
        }
        live
    }

    /// "Move statements run in order on a copy of the state; a failed guard cancels the
    /// move." One statement: every way it can go on.
    fn stmt(&self, env: Env, ctx: Ctx, s: &Stmt) -> Vec<Ctx> {
        match s {
            // "`require COND`: the move needs this"
            Stmt::Require(c) => keep(self.eval(env, ctx, c, true), true),
            // "`forbid COND`: the move is impossible if this holds"
            Stmt::Forbid(c) => keep(self.eval(env, ctx, c, false), false),
            Stmt::Shift { who, each, step } => self.shift(env, ctx, who, *each, step),
            Stmt::Swap { who, step } => self.swap(env, ctx, who, step),
            Stmt::Turn { who, rules } => self.turn(env, ctx, who, rules),
            Stmt::Slide {
                who,
                each,
                step,
                rules,
            } => self.slide(env, ctx, who, *each, step, rules),
            Stmt::Remove(who) => self.remove(ctx, who),
            Stmt::Create { kind, pose, at } => self.create(env, ctx, *kind, *pose, at),
            Stmt::Change { from, to, place } => self.change(env, ctx, *from, *to, false, place),
            Stmt::Toggle { a, b, place } => self.change(env, ctx, *a, *b, true, place),
            Stmt::Count { id, op, value } => self.count(ctx, *id, *op, *value),
            Stmt::If { cond, then, els } => self.if_(env, ctx, cond, then, els),
            Stmt::For { var, who, body } => self.for_(env, ctx, var, who, body),
        }
    }

    /// R4: after a statement put copy `i` where it is, remember every other copy that
    /// shares one of its cells.
    fn remember_overlaps(&self, ctx: &mut Ctx, i: usize) {
        let Some(spot) = ctx.copies[i].at else {
            return;
        };
        let mine = self.cells(ctx.copies[i].kind, spot);
        for j in 0..ctx.copies.len() {
            if j != i && mine.iter().any(|&p| self.covers(ctx, j, p)) {
                ctx.pairs.push((i.min(j), i.max(j)));
            }
        }
    }

    /// Moves copy `i` by `(dr, dc)`; false when it is absent or its anchor would leave
    /// the board (reading: an anchor never leaves the board).
    fn displace(&self, ctx: &mut Ctx, i: usize, (dr, dc): (i64, i64)) -> bool {
        let Some((r, c, pose)) = ctx.copies[i].at else {
            return false;
        };
        if !self.on_board((r + dr, c + dc)) {
            return false;
        }
        ctx.copies[i].at = Some((r + dr, c + dc, pose));
        true
    }

    /// "`shift each K STEP`, `slide each K STEP {..}`: every copy of `K`, the copy
    /// farthest along the step first" (ties in reading order of the anchors).
    fn each_order(&self, ctx: &Ctx, k: usize, (dr, dc): (i64, i64)) -> Vec<usize> {
        let mut v: Vec<usize> = (0..ctx.copies.len())
            .filter(|&i| ctx.copies[i].kind == k && ctx.copies[i].at.is_some())
            .collect();
        v.sort_by_key(|&i| {
            let (r, c, _) = ctx.copies[i].at.expect("present");
            (-(r * dr + c * dc), r, c)
        });
        v
    }

    /// "`shift man d`, `shift man -d`: move a piece one step"
    fn shift(&self, env: Env, ctx: Ctx, who: &Who, each: bool, step: &Step) -> Vec<Ctx> {
        let Some(v) = self.vector(env, step, false) else {
            return vec![];
        };
        if each {
            let Who::Kind(k) = who else {
                unreachable!("`shift each` names a kind")
            };
            let mut ctx = ctx;
            for i in self.each_order(&ctx, *k, v) {
                if !self.displace(&mut ctx, i, v) {
                    return vec![];
                }
                self.remember_overlaps(&mut ctx, i);
            }
            return vec![ctx];
        }
        self.hold(ctx, who)
            .into_iter()
            .filter_map(|(mut ctx, i)| {
                if !self.displace(&mut ctx, i, v) {
                    return None;
                }
                self.remember_overlaps(&mut ctx, i);
                Some(ctx)
            })
            .collect()
    }

    /// "`swap hole d`: move a piece one step; the piece it lands on takes its old cell"
    /// (every other copy covering a cell it lands on moves one step back).
    fn swap(&self, env: Env, ctx: Ctx, who: &Who, step: &Step) -> Vec<Ctx> {
        let Some(v) = self.vector(env, step, false) else {
            return vec![];
        };
        self.hold(ctx, who)
            .into_iter()
            .filter_map(|(mut ctx, i)| {
                if !self.displace(&mut ctx, i, v) {
                    return None;
                }
                let (kind, spot) = (ctx.copies[i].kind, ctx.copies[i].at?);
                let landed: Vec<(i64, i64)> = self.cells(kind, spot);
                let others: Vec<usize> = (0..ctx.copies.len())
                    .filter(|&j| j != i && landed.iter().any(|&p| self.covers(&ctx, j, p)))
                    .collect();
                for &j in &others {
                    if !self.displace(&mut ctx, j, (-v.0, -v.1)) {
                        return None;
                    }
                }
                self.remember_overlaps(&mut ctx, i);
                for &j in &others {
                    self.remember_overlaps(&mut ctx, j);
                }
                Some(ctx)
            })
            .collect()
    }

    /// "`turn block { ... }`: change pose by table: from, direction -> to, anchor offset".
    /// The row for the copy's pose and the move's direction; no row, or no direction (a
    /// per-cell move), and the move fails.
    fn turn(&self, env: Env, ctx: Ctx, who: &Who, rules: &[TurnRule]) -> Vec<Ctx> {
        // "A `turn` needs a direction" (the checker refuses one in a per-cell move).
        let Some(d) = env.dir else {
            return vec![];
        };
        self.hold(ctx, who)
            .into_iter()
            .filter_map(|(mut ctx, i)| {
                let (r, c, pose) = ctx.copies[i].at?;
                let row = rules.iter().find(|t| t.from == pose && t.dir == d)?;
                if !self.on_board((r + row.dr, c + row.dc)) {
                    return None;
                }
                ctx.copies[i].at = Some((r + row.dr, c + row.dc, row.to));
                self.remember_overlaps(&mut ctx, i);
                Some(ctx)
            })
            .collect()
    }

    /// `slide K STEP { rules }`: "step until an event: `into` a tile or mark, `before` a
    /// tile or piece, `off board`; actions `stop`, `break` (the tile ahead turns into what
    /// it becomes), `lose`".
    fn slide(
        &self,
        env: Env,
        ctx: Ctx,
        who: &Who,
        each: bool,
        step: &Step,
        rules: &[SlideRule],
    ) -> Vec<Ctx> {
        let Some(v) = self.vector(env, step, false) else {
            return vec![];
        };
        if each {
            let Who::Kind(k) = who else {
                unreachable!("`slide each` names a kind")
            };
            let mut ctx = ctx;
            for i in self.each_order(&ctx, *k, v) {
                if !self.slide_one(&mut ctx, i, v, rules) {
                    return vec![];
                }
            }
            return vec![ctx];
        }
        self.hold(ctx, who)
            .into_iter()
            .filter_map(|(mut ctx, i)| self.slide_one(&mut ctx, i, v, rules).then_some(ctx))
            .collect()
    }

    /// One copy's slide. Per step: the events about the cell ahead of the anchor, in
    /// declaration order (`lose` fails the move, `break` breaks the tile ahead, `stop`
    /// ends the slide where it is); then, unless stopped, past the edge the move fails
    /// ("a slide with no `off board` rule that can reach the edge, where the move silently
    /// fails"), and a step onto a cell another copy covers fails it (R4); then the `into`
    /// events of the cell entered. Only the result meets the forbids.
    fn slide_one(&self, ctx: &mut Ctx, i: usize, v: (i64, i64), rules: &[SlideRule]) -> bool {
        let kind = ctx.copies[i].kind;
        let limit = 4 * (self.board.rows + self.board.cols) + 8;
        for _ in 0..limit {
            let Some((r, c, pose)) = ctx.copies[i].at else {
                return false;
            };
            let next = (r + v.0, c + v.1);
            let off = !self.on_board(next);
            for rule in rules {
                let fires = match rule.event {
                    Event::OffBoard => off,
                    Event::BeforeTile(t) => self.tile_at(ctx, next) == Some(t),
                    Event::BeforePiece(k) => {
                        !off && (0..ctx.copies.len())
                            .any(|j| j != i && ctx.copies[j].kind == k && self.covers(ctx, j, next))
                    }
                    Event::Into(_) => false,
                };
                if !fires {
                    continue;
                }
                if rule.lose {
                    return false;
                }
                if rule.brk && !off {
                    let at = self.index(next);
                    if let Some(b) = self.rules.tiles[ctx.tiles[at]].becomes {
                        ctx.tiles[at] = b;
                    }
                }
                if rule.stop {
                    return true;
                }
            }
            if off {
                return false;
            }
            ctx.copies[i].at = Some((next.0, next.1, pose));
            let mine = self.cells(kind, (next.0, next.1, pose));
            if (0..ctx.copies.len()).any(|j| j != i && mine.iter().any(|&p| self.covers(ctx, j, p)))
            {
                return false;
            }
            // "... and so does a slide step onto a cell a `forbid` refuses to the sliding
            // piece (a stone never slides across lava, even to stop beyond it)"
            if !self.copy_legal(ctx, i) {
                return false;
            }
            for rule in rules {
                if let Event::Into(place) = rule.event {
                    if self.on_place(ctx, next, place) {
                        if rule.lose {
                            return false;
                        }
                        if rule.stop {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// "`remove P`: the piece (its bound copy, or an `as` name) leaves the board"
    fn remove(&self, ctx: Ctx, who: &Who) -> Vec<Ctx> {
        self.hold(ctx, who)
            .into_iter()
            .filter_map(|(mut ctx, i)| {
                ctx.copies[i].at?;
                ctx.copies[i].at = None;
                Some(ctx)
            })
            .collect()
    }

    /// "`create K at CELL`, `create K.pose at CELL`: a new copy, in the first pose unless
    /// named; needs room (`max`)"
    fn create(&self, env: Env, ctx: Ctx, kind: usize, pose: Option<usize>, at: &CellE) -> Vec<Ctx> {
        self.cell(env, ctx, at)
            .into_iter()
            .filter_map(|(mut ctx, p)| {
                let p = p.filter(|&p| self.on_board(p))?;
                let now = ctx
                    .copies
                    .iter()
                    .filter(|cp| cp.kind == kind && cp.at.is_some())
                    .count();
                if now >= self.room[kind] {
                    return None;
                }
                let new = Copy {
                    kind,
                    at: Some((p.0, p.1, pose.unwrap_or(0))),
                };
                let reuse = (0..ctx.copies.len())
                    .find(|&i| ctx.copies[i].kind == kind && ctx.copies[i].at.is_none())
                    // "A named piece has room for itself only: ... after a `remove` puts
                    // it back": the named piece's copy comes back.
                    .filter(|_| {
                        self.quirks.create_reuses_slot || !self.rules.kinds[kind].anonymous
                    });
                let i = match reuse {
                    Some(i) => {
                        ctx.copies[i] = new;
                        i
                    }
                    None => {
                        ctx.copies.push(new);
                        ctx.copies.len() - 1
                    }
                };
                self.remember_overlaps(&mut ctx, i);
                Some(ctx)
            })
            .collect()
    }

    /// "`change A -> B at CELL` / `everywhere` / `on MARK`: cells whose tile is `A` become
    /// `B`"; "`toggle A B ...`: `A` and `B` trade places". A cell off the board changes
    /// nothing.
    fn change(
        &self,
        env: Env,
        ctx: Ctx,
        a: usize,
        b: usize,
        toggle: bool,
        place: &Where,
    ) -> Vec<Ctx> {
        let flip = |t: usize| {
            if t == a {
                b
            } else if toggle && t == b {
                a
            } else {
                t
            }
        };
        match place {
            Where::At(c) => self
                .cell(env, ctx, c)
                .into_iter()
                .map(|(mut ctx, p)| {
                    if let Some(p) = p.filter(|&p| self.on_board(p)) {
                        let i = self.index(p);
                        ctx.tiles[i] = flip(ctx.tiles[i]);
                    }
                    ctx
                })
                .collect(),
            Where::Everywhere => {
                let mut ctx = ctx;
                for t in &mut ctx.tiles {
                    *t = flip(*t);
                }
                vec![ctx]
            }
            Where::On(m) => {
                let mut ctx = ctx;
                for i in 0..ctx.tiles.len() {
                    if self.board.marks[i].contains(m) {
                        ctx.tiles[i] = flip(ctx.tiles[i]);
                    }
                }
                vec![ctx]
            }
        }
    }

    /// "`COUNTER += N`, `-= N`, `= N`"; "leaving 0..=max cancels the move"
    fn count(&self, mut ctx: Ctx, id: usize, op: Assign, value: i64) -> Vec<Ctx> {
        let now = ctx.counters[id];
        let next = match op {
            Assign::Add => now + value,
            Assign::Sub => now - value,
            Assign::Set => value,
        };
        if !(0..=self.rules.counters[id].max).contains(&next) {
            return vec![];
        }
        ctx.counters[id] = next;
        vec![ctx]
    }

    /// "`if COND { .. } else { .. }`: conditional effects". The condition's bindings hold
    /// in the `then` block (and a kind's binding after the `if`); when it does not hold,
    /// nothing it bound stays bound. `as` names and loop cells end with the statement.
    fn if_(&self, env: Env, ctx: Ctx, cond: &Cond, then: &[Stmt], els: &[Stmt]) -> Vec<Ctx> {
        let (na, nl) = (ctx.aliases.len(), ctx.loops.len());
        let before = ctx.clone();
        let mut out = vec![];
        let mut else_done = false;
        for (holds, c) in self.eval(env, ctx, cond, true) {
            let ran = if holds {
                self.block(env, c, then)
            } else if else_done {
                // Every failed outcome starts the `else` block from the same context.
                continue;
            } else {
                else_done = true;
                self.block(env, before.clone(), els)
            };
            out.extend(ran.into_iter().map(|mut c| {
                c.aliases.truncate(na);
                c.loops.truncate(nl);
                c
            }));
        }
        out
    }

    /// "`for c in P { .. }`: the body once per cell of `P`'s footprint, with `c` naming
    /// it" (the cells it covers when the loop starts, in the pose's declared order). R3:
    /// an `as` name inside the body is bound afresh in each iteration.
    fn for_(&self, env: Env, ctx: Ctx, var: &str, who: &Who, body: &[Stmt]) -> Vec<Ctx> {
        let mut out = vec![];
        for (ctx, i) in self.hold(ctx, who) {
            let Some(spot) = ctx.copies[i].at else {
                continue;
            };
            let cells = self.cells(ctx.copies[i].kind, spot);
            let (na, nl) = (ctx.aliases.len(), ctx.loops.len());
            let mut live = vec![ctx];
            for p in cells {
                live = live
                    .into_iter()
                    .flat_map(|mut c| {
                        c.loops.push((var.to_string(), p));
                        self.block(env, c, body).into_iter().map(|mut c| {
                            c.aliases.truncate(na);
                            c.loops.truncate(nl);
                            c
                        })
                    })
                    .collect();
            }
            out.extend(live);
        }
        out
    }

    // ------------------------------------------------------------ moves

    fn start_ctx(&self, s: &State) -> Ctx {
        let mut copies = vec![];
        for (k, list) in s.pieces.iter().enumerate() {
            // The engine's empty slots first (absent copies sort first in its states),
            // for [`Quirks`]; no rule of the reference sees an absent copy otherwise.
            for _ in list.len()..self.slots[k] {
                copies.push(Copy { kind: k, at: None });
            }
            for &spot in list {
                copies.push(Copy {
                    kind: k,
                    at: Some(spot),
                });
            }
        }
        Ctx {
            copies,
            tiles: s.tiles.clone(),
            counters: s.counters.clone(),
            held: vec![None; self.rules.kinds.len()],
            aliases: vec![],
            loops: vec![],
            pairs: vec![],
            in_move: false,
            started: false,
        }
    }

    /// Whether copy `i` breaks no forbid: "the result must satisfy every `forbid`";
    /// without `outside` no cell of a piece may be off the board.
    fn copy_legal(&self, ctx: &Ctx, i: usize) -> bool {
        let cp = &ctx.copies[i];
        let Some(spot) = cp.at else { return true };
        self.cells(cp.kind, spot).into_iter().all(|p| {
            (self.on_board(p) || self.rules.outside.is_some())
                && self.rules.forbids.iter().all(|f| {
                    f.kind != cp.kind
                        || f.pose.is_some_and(|q| q != spot.2)
                        || !self.on_place(ctx, p, f.place)
                })
        })
    }

    /// Whether no copy breaks a forbid and no two copies overlap ("the result must
    /// satisfy every `forbid` with no two pieces overlapping").
    fn legal_copies(&self, ctx: &Ctx) -> bool {
        let mut seen: BTreeSet<(i64, i64)> = BTreeSet::new();
        for (i, cp) in ctx.copies.iter().enumerate() {
            let Some(spot) = cp.at else { continue };
            for p in self.cells(cp.kind, spot) {
                if !seen.insert(p) {
                    return false;
                }
            }
            if !self.copy_legal(ctx, i) {
                return false;
            }
        }
        true
    }

    /// The state a finished run leaves, if it is legal. R4: two copies a statement put on
    /// each other's cells may not both be on the board at the end.
    fn finish(&self, ctx: &Ctx) -> Option<State> {
        if !self.legal_copies(ctx) {
            return None;
        }
        if ctx
            .pairs
            .iter()
            .any(|&(i, j)| ctx.copies[i].at.is_some() && ctx.copies[j].at.is_some())
        {
            return None;
        }
        Some(self.state_of(ctx))
    }

    fn state_of(&self, ctx: &Ctx) -> State {
        let mut pieces = vec![vec![]; self.rules.kinds.len()];
        for cp in &ctx.copies {
            if let Some(s) = cp.at {
                pieces[cp.kind].push(s);
            }
        }
        for p in &mut pieces {
            p.sort();
        }
        State {
            pieces,
            tiles: ctx.tiles.clone(),
            counters: ctx.counters.clone(),
        }
    }

    /// Whether a level's start (or any state) breaks no forbid and has no overlap.
    pub fn legal(&self, s: &State) -> bool {
        self.legal_copies(&self.start_ctx(s))
    }

    /// The actions of move `mv`: its directions ("`move drive(d in w, e)`: only these
    /// directions", R5), or every board cell in reading order.
    fn actions(&self, mv: &Move) -> Vec<(usize, Env)> {
        match &mv.param {
            Param::Dirs(only) => (0..self.rules.dirs.len())
                .filter(|d| only.as_ref().is_none_or(|o| o.contains(d)))
                .map(|d| {
                    (
                        d,
                        Env {
                            dir: Some(d),
                            cell: None,
                        },
                    )
                })
                .collect(),
            Param::Cell => (0..self.board.rows * self.board.cols)
                .map(|i| {
                    let cell = ((i / self.board.cols) as i64, (i % self.board.cols) as i64);
                    (
                        i,
                        Env {
                            dir: None,
                            cell: Some(cell),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Every successor of `s`: (action, state). "A move whose result is the state it
    /// started from is not a move."
    pub fn successors(&self, s: &State) -> BTreeSet<(Act, State)> {
        let mut out = BTreeSet::new();
        let mut start = self.start_ctx(s);
        start.in_move = true;

        for (mi, mv) in self.rules.moves.iter().enumerate() {
            let iterated = iterated_kinds(&mv.body);

            for (arg, env) in self.actions(mv) {
                let mut tries = vec![start.clone()];
                for &k in &iterated {
                    tries = tries
                        .into_iter()
                        .flat_map(|c| {
                            self.hold(c, &Who::Kind(k))
                                .into_iter()
                                .map(move |(mut c, i)| {
                                    c.held[k] = Some(i);
                                    c
                                })
                        })
                        .collect();
                }
                for mut t in tries {
                    t.started = true;
                    for end in self.block(env, t, &mv.body) {
                        if let Some(next) = self.finish(&end) {
                            if next != *s {
                                out.insert((Act { mv: mi, arg }, next));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The goal: the file's `goal` (nothing bound: a kind means every copy for `on`, a
    /// named piece's anchor as a cell) and-ed with the level's picture.
    pub fn is_goal(&self, s: &State) -> bool {
        let ctx = self.start_ctx(s);
        let env = Env {
            dir: None,
            cell: None,
        };
        let file = match &self.rules.goal {
            None => true,
            Some(g) => self.eval(env, ctx.clone(), g, false).iter().any(|x| x.0),
        };
        file && self
            .picture
            .as_ref()
            .is_none_or(|p| self.picture_holds(&ctx, p))
    }

    /// "It holds when every cell is covered by a piece of the kind drawn there (or by
    /// none) and holds the tile drawn there. ... A cell drawn with a symbol that chooses a
    /// pose also asks for the copy there to be in that pose."
    fn picture_holds(&self, ctx: &Ctx, pic: &[PictureCell]) -> bool {
        (0..pic.len()).all(|i| {
            let p = ((i / self.board.cols) as i64, (i % self.board.cols) as i64);
            let (tile, drawn) = pic[i];
            let here: Vec<&Copy> = (0..ctx.copies.len())
                .filter(|&j| self.covers(ctx, j, p))
                .map(|j| &ctx.copies[j])
                .collect();
            let pieces_ok = match drawn {
                None => here.is_empty(),
                Some((k, pose)) => {
                    here.len() == 1
                        && here[0].kind == k
                        && pose.is_none_or(|q| here[0].at.is_some_and(|s| s.2 == q))
                }
            };
            ctx.tiles[i] == tile && pieces_ok
        })
    }
}

/// The kinds a move is tried once per copy of. R2: "an anonymous kind written in a move
/// means any one copy — the move is tried once per copy, each try a separate action —
/// unless a `require K at CELL` (plain, not under not/or) binds the copy found there
/// first". Walking the statements in order, a kind is *acted on* by `shift`/`swap`/
/// `turn`/`slide`/`remove`/`for` of it, a cell starting at it and an attribute of it; a
/// plain `K at CELL` in a `require` or `if` condition *binds* it. A kind acted on before
/// it is bound, on some path, is tried once per copy (on every path). A binding in an
/// `if` condition counts after the `if` too (whether or not it held); one inside a
/// branch only there. (`require`/`forbid X at K [+ STEP]` binds only in a `require`.)
pub fn iterated_kinds(body: &[Stmt]) -> Vec<usize> {
    fn actor(k: usize, bound: &[usize], free: &mut Vec<usize>) {
        if !bound.contains(&k) && !free.contains(&k) {
            free.push(k);
        }
    }
    fn cell_actor(c: &CellE, bound: &[usize], free: &mut Vec<usize>) {
        if let Base::Who(Who::Kind(k)) = c.base {
            actor(k, bound, free);
        }
    }
    fn cond_walk(c: &Cond, bind: bool, bound: &mut Vec<usize>, free: &mut Vec<usize>) {
        match c {
            Cond::At {
                what, cell, alias, ..
            } => {
                cell_actor(cell, bound, free);
                if let (What::Piece(p), true, None) = (what, bind, alias) {
                    if !free.contains(p) && !bound.contains(p) {
                        bound.push(*p);
                    }
                }
            }
            Cond::Attr { who, value, .. } => {
                if let Who::Kind(k) = who {
                    actor(*k, bound, free);
                }
                if let AttrVal::Of(Who::Kind(k), _) = value {
                    actor(*k, bound, free);
                }
            }
            Cond::Not(inner) => cond_walk(inner, false, bound, free),
            Cond::And(parts) => parts.iter().for_each(|p| cond_walk(p, bind, bound, free)),
            Cond::Or(parts) => parts.iter().for_each(|p| cond_walk(p, false, bound, free)),
            Cond::On { .. } | Cond::Count { .. } | Cond::Counter { .. } => {}
        }
    }
    fn walk(body: &[Stmt], bound: &mut Vec<usize>, free: &mut Vec<usize>) {
        for s in body {
            match s {
                Stmt::Require(c) | Stmt::Forbid(c) => {
                    let want = matches!(s, Stmt::Require(_));
                    match c {
                        Cond::At {
                            what,
                            pose: None,
                            cell:
                                CellE {
                                    base: Base::Who(Who::Kind(k)),
                                    steps,
                                },
                            alias: None,
                        } if steps.len() <= 1 && !matches!(what, What::Alias(_)) => {
                            actor(*k, bound, free);
                            if let (What::Piece(p), true) = (what, want) {
                                if !free.contains(p) {
                                    bound.push(*p);
                                }
                            }
                        }
                        _ => cond_walk(c, want, bound, free),
                    }
                }
                Stmt::Shift { who, each, .. } | Stmt::Slide { who, each, .. } => {
                    if let (Who::Kind(k), false) = (who, each) {
                        actor(*k, bound, free);
                    }
                }
                Stmt::Swap { who, .. } | Stmt::Turn { who, .. } | Stmt::Remove(who) => {
                    if let Who::Kind(k) = who {
                        actor(*k, bound, free);
                    }
                }
                Stmt::Create { at, .. } => cell_actor(at, bound, free),
                Stmt::Change { place, .. } | Stmt::Toggle { place, .. } => {
                    if let Where::At(c) = place {
                        cell_actor(c, bound, free);
                    }
                }
                Stmt::Count { .. } => {}
                Stmt::If { cond, then, els } => {
                    cond_walk(cond, true, bound, free);
                    let mut b1 = bound.clone();
                    walk(then, &mut b1, free);
                    let mut b2 = bound.clone();
                    walk(els, &mut b2, free);
                }
                Stmt::For { who, body, .. } => {
                    if let Who::Kind(k) = who {
                        actor(*k, bound, free);
                    }
                    walk(body, bound, free);
                }
            }
        }
    }
    let (mut bound, mut free) = (vec![], vec![]);
    walk(body, &mut bound, &mut free);
    free
}

/// The outcomes where the condition came out `want`.
fn keep(out: Outcomes, want: bool) -> Vec<Ctx> {
    out.into_iter()
        .filter(|(b, _)| *b == want)
        .map(|x| x.1)
        .collect()
}
