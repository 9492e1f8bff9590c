//! Moves: every statement names things of the right kind, the one-per-move statements
//! appear once, every move changes something and costs something, and every cost
//! component is added by some move.

use std::collections::HashMap;

use super::names::Lookup;
use super::symbols::{Symbols, Thing};
use crate::diagnostics::Problem;
use crate::syntax::ast::{
    AssignOp, CellBase, CellExpr, Cond, CondNode, File, ItemKind, MoveDecl, MoveParam, MoveStmt,
    MoveStmtKind, Name, SlideAction, SlideEvent, SlideRule, Step, Where,
};
use crate::syntax::Span;

/// The attributes each piece kind carries in every pose (`has`), by kind name, and
/// which poses lack which attribute that some pose has.
pub(crate) struct Attributes {
    /// Per kind: the attributes every pose has.
    every: HashMap<String, Vec<String>>,
    /// Per kind: (attribute, a pose lacking it) for attributes only some poses have.
    partial: HashMap<String, Vec<(String, String)>>,
}

impl Attributes {
    pub(crate) fn of(file: &File) -> Attributes {
        let mut every = HashMap::new();
        let mut partial = HashMap::new();
        for item in &file.items {
            let ItemKind::Piece(p) = &item.kind else {
                continue;
            };
            let kind: Vec<String> = p.attrs.iter().map(|a| a.name.text.clone()).collect();
            let poses: Vec<(String, Vec<String>)> = match &p.poses {
                Some(ps) if !ps.is_empty() => ps
                    .iter()
                    .map(|q| {
                        let mut names = kind.clone();
                        names.extend(q.attrs.iter().map(|a| a.name.text.clone()));
                        (q.name.text.clone(), names)
                    })
                    .collect(),
                _ => vec![(String::new(), kind.clone())],
            };
            let mut all: Vec<String> = poses.iter().flat_map(|(_, a)| a.clone()).collect();
            all.sort();
            all.dedup();
            let mut ev = vec![];
            let mut part = vec![];
            for a in all {
                match poses.iter().find(|(_, names)| !names.contains(&a)) {
                    None => ev.push(a),
                    Some((pose, _)) => part.push((a, pose.clone())),
                }
            }
            every.insert(p.name.text.clone(), ev);
            partial.insert(p.name.text.clone(), part);
        }
        Attributes { every, partial }
    }

    /// The problem with comparing attribute `attr` of kind `piece` at `span`, if any.
    pub(crate) fn problem(&self, piece: &str, attr: &crate::syntax::ast::Name) -> Option<Problem> {
        let every = self.every.get(piece)?;
        if every.contains(&attr.text) {
            return None;
        }
        let lacking = self
            .partial
            .get(piece)
            .and_then(|p| p.iter().find(|(a, _)| *a == attr.text));
        let (where_, help) = match lacking {
            Some((_, pose)) => (
                format!(" in pose `{pose}`"),
                format!("give `{pose}` the attribute too (`pose {pose} {{ ... }} has {} N`), or the whole piece (`piece {piece} has {} N`)", attr.text, attr.text),
            ),
            None if every.is_empty() => (
                String::new(),
                format!("declare it: `piece {piece} has {} N`, or per pose: `pose NAME {{ ... }} has {} N`", attr.text, attr.text),
            ),
            None => (
                String::new(),
                format!("`{piece}` has: {}", every.join(", ")),
            ),
        };
        Some(Problem::UnknownAttribute {
            piece: piece.to_string(),
            attr: attr.text.clone(),
            where_,
            span: attr.span.into(),
            help,
        })
    }
}

/// Every move, then the cost components no move adds to.
pub fn check(file: &File, syms: &Symbols) -> Vec<Problem> {
    let look = Lookup::new(syms);
    let goals = goal_pieces(file);
    let attrs = Attributes::of(file);
    let mut out = vec![];
    let mut used = vec![false; syms.costs.len()];
    let mut unknown_cost = false;
    for item in &file.items {
        let ItemKind::Move(m) = &item.kind else {
            continue;
        };
        out.extend(one_move(m, &look, &goals, &attrs));
        for st in &m.body {
            if let MoveStmtKind::Adds(costs) = &st.kind {
                for c in costs {
                    match syms.costs.get(&c.text) {
                        Some(i) => used[i] = true,
                        None => unknown_cost = true,
                    }
                }
            }
        }
    }
    // With a misspelt `adds`, "never added" would only repeat that problem.
    if !unknown_cost {
        for (i, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
            let (name, span) = syms.costs.entry(i);
            out.push(Problem::UnusedCost {
                name: name.to_string(),
                span: span.into(),
            });
        }
    }
    out
}

/// A cost component named in `adds`.
fn cost(c: &Name, look: &Lookup) -> Option<Problem> {
    if look.syms.costs.get(&c.text).is_some() {
        return None;
    }
    let help = look
        .suggest(&c.text, look.syms.costs.names())
        .unwrap_or_else(|| format!("declare it in `cost`, e.g. `cost {}`", c.text));
    Some(Problem::UnknownName {
        kind: "cost component",
        name: c.text.clone(),
        span: c.span.into(),
        help: Some(help),
    })
}

/// One move's names in scope while its statements are checked.
struct Scope<'a, 'l> {
    look: &'l Lookup<'a>,
    mv: &'a str,
    /// The direction parameter, for per-direction moves.
    dir_param: Option<&'a str>,
    /// The cell parameter, for per-cell moves.
    cell_param: Option<&'a str>,
    /// Aliases bound so far (`as over`) and loop cells (`for c in ...`).
    aliases: Vec<String>,
    /// The kind name of each alias (in `aliases` order).
    alias_kinds: Vec<String>,
    /// The attributes of every piece kind.
    attrs: &'a Attributes,
    cells: Vec<String>,
    /// Named pieces the goal needs, with the goal's span.
    goal_pieces: &'a HashMap<String, Span>,
    effects: usize,
    out: Vec<Problem>,
}

impl Scope<'_, '_> {
    /// A step's direction: the parameter (in a per-direction move) or a declared one.
    fn step(&mut self, s: &Step) {
        let d = &s.dir;
        if self.cell_param.is_some() && self.look.syms.dirs.get(&d.text).is_none() {
            self.out.push(Problem::NoDirection {
                mv: self.mv.to_string(),
                name: d.text.clone(),
                span: d.span.into(),
            });
            return;
        }
        self.out.extend(self.look.dir(d, self.dir_param));
    }

    /// `piece.attr` in a comparison: a piece kind or an alias, and an attribute every
    /// pose of that kind has.
    fn attr_ref(&mut self, r: &crate::syntax::ast::AttrRef) {
        let kind = match self.aliases.iter().rposition(|a| *a == r.piece.text) {
            Some(i) => self.alias_kinds[i].clone(),
            None => {
                if let Some(p) = self.look.piece(&r.piece) {
                    self.out.push(p);
                    return;
                }
                r.piece.text.clone()
            }
        };
        self.out.extend(self.attrs.problem(&kind, &r.attr));
    }

    /// A piece acted on: a piece kind or an alias.
    fn piece(&mut self, n: &Name) {
        if self.aliases.contains(&n.text) {
            return;
        }
        self.out.extend(self.look.piece(n));
    }

    /// A cell expression's base and steps.
    fn cell(&mut self, c: &CellExpr) {
        if let CellBase::Name(n) = &c.base {
            let known = self.aliases.contains(&n.text)
                || self.cells.contains(&n.text)
                || self.cell_param == Some(n.text.as_str())
                || matches!(self.look.syms.thing(&n.text), Some((Thing::Piece, _)));
            if !known {
                let mut names: Vec<&str> = self.look.syms.names_of(&[Thing::Piece]).collect();
                names.extend(self.aliases.iter().map(String::as_str));
                names.extend(self.cells.iter().map(String::as_str));
                names.extend(self.cell_param);
                let help = self
                    .look
                    .suggest(&n.text, names.iter().copied())
                    .or_else(|| Some(format!("a cell starts at a piece, an `as` name, the move's cell or a loop cell; known: {}", names.iter().take(8).copied().collect::<Vec<_>>().join(", "))));
                self.out.push(Problem::UnknownName {
                    kind: "piece or cell",
                    name: n.text.clone(),
                    span: n.span.into(),
                    help,
                });
            }
        }
        for (_, s) in &c.steps {
            self.step(s);
        }
    }

    /// A condition; `bind` says whether an `as` may bind here.
    fn cond(&mut self, c: &CondNode, bind: bool) {
        let look = self.look;
        match &c.cond {
            Cond::At {
                what,
                pose,
                cell,
                alias,
            } => {
                // An `as` name stands for its copy; with a pose it must be a kind.
                if pose.is_some() || !self.aliases.contains(&what.text) {
                    self.out.extend(look.at_subject(what, pose.as_ref()));
                }
                self.cell(cell);
                if let Some(a) = alias {
                    match look.syms.thing(&what.text) {
                        Some((Thing::Piece, _)) | None => {}
                        Some((k, _)) => self.out.push(Problem::AliasNotPiece {
                            what: what.text.clone(),
                            found: k.noun(),
                            alias: a.text.clone(),
                            span: a.span.into(),
                        }),
                    }
                    if !bind {
                        self.out.push(Problem::AliasInExpression {
                            alias: a.text.clone(),
                            span: a.span.into(),
                        });
                    }
                    if let Some((_, first)) = look.syms.thing(&a.text) {
                        self.out.push(Problem::Duplicate {
                            kind: "name (an `as` name must be new)",
                            name: a.text.clone(),
                            span: a.span.into(),
                            first: first.into(),
                        });
                    }
                    self.aliases.push(a.text.clone());
                    self.alias_kinds.push(what.text.clone());
                }
            }
            Cond::Attr { left, right, .. } => {
                self.attr_ref(left);
                if let crate::syntax::ast::AttrOperand::Attr(r) = right {
                    self.attr_ref(r);
                }
            }
            Cond::On { piece, on } => {
                if !self.aliases.contains(&piece.piece.text) || piece.pose.is_some() {
                    out_piece_ref(look, piece, &mut self.out);
                }
                self.out
                    .extend(look.expect("tile or mark", on, &[Thing::Tile, Thing::Mark]));
            }
            Cond::Count { what, .. } => self.out.extend(look.expect(
                "piece, tile or mark",
                what,
                &[Thing::Piece, Thing::Tile, Thing::Mark],
            )),
            Cond::Counter { name, .. } => {
                self.out
                    .extend(look.expect("counter", name, &[Thing::Counter]))
            }
            Cond::Not(inner) => self.cond(inner, false),
            Cond::And(parts) => {
                for p in parts {
                    self.cond(p, bind);
                }
            }
            Cond::Or(parts) => {
                for p in parts {
                    self.cond(p, false);
                }
            }
        }
    }

    /// A tile change's tiles and cells.
    fn place(&mut self, place: &Where) {
        match place {
            Where::At(c) => self.cell(c),
            Where::Everywhere(_) => {}
            Where::On(m) => self.out.extend(self.look.expect("mark", m, &[Thing::Mark])),
        }
    }

    /// Statements of a block (the top-level ones are handled by `one_move`).
    fn stmts(&mut self, body: &[MoveStmt]) {
        for st in body {
            self.stmt(st);
        }
    }

    fn stmt(&mut self, st: &MoveStmt) {
        let look = self.look;
        match &st.kind {
            MoveStmtKind::Letters(_) | MoveStmtKind::Adds(_) => {}
            MoveStmtKind::Require(c) => self.cond(c, true),
            MoveStmtKind::Forbid(c) => self.cond(c, false),
            MoveStmtKind::Shift { piece, step, .. } | MoveStmtKind::Swap { piece, step } => {
                self.effects += 1;
                self.piece(piece);
                self.step(step);
            }
            MoveStmtKind::Turn { piece, rules } => {
                self.effects += 1;
                if let Some(cell) = self.cell_param {
                    self.out.push(Problem::TurnInCellMove {
                        mv: self.mv.to_string(),
                        cell: cell.to_string(),
                        span: st.span.into(),
                    });
                }
                let unknown = look.piece(piece);
                let known = unknown.is_none();
                self.out.extend(unknown);
                let mut seen: HashMap<(&str, &str), Span> = HashMap::new();
                for r in rules {
                    if known {
                        self.out.extend(look.pose(&piece.text, &r.from));
                        self.out.extend(look.pose(&piece.text, &r.to));
                    }
                    self.out.extend(look.dir(&r.dir, None));
                    match seen.get(&(r.from.text.as_str(), r.dir.text.as_str())) {
                        Some(first) => self.out.push(Problem::DuplicateTurnRule {
                            pose: r.from.text.clone(),
                            dir: r.dir.text.clone(),
                            span: r.span.into(),
                            first: (*first).into(),
                        }),
                        None => {
                            seen.insert((&r.from.text, &r.dir.text), r.span);
                        }
                    }
                }
            }
            MoveStmtKind::Slide {
                piece, step, rules, ..
            } => {
                self.effects += 1;
                self.piece(piece);
                self.step(step);
                self.out.extend(slide(piece, rules, st.span, look));
            }
            MoveStmtKind::Remove(piece) => {
                self.effects += 1;
                self.piece(piece);
                if let Some(goal) = self.goal_pieces.get(&piece.text) {
                    if !look.syms.anonymous.contains(&piece.text) {
                        self.out.push(Problem::RemoveGoalPiece {
                            mv: self.mv.to_string(),
                            piece: piece.text.clone(),
                            span: st.span.into(),
                            goal: (*goal).into(),
                        });
                    }
                }
            }
            MoveStmtKind::Create { piece, at } => {
                self.effects += 1;
                let before = self.out.len();
                out_piece_ref(look, piece, &mut self.out);
                if self.out.len() == before && !look.syms.roomy.contains(&piece.piece.text) {
                    self.out.push(Problem::CreateWithoutRoom {
                        mv: self.mv.to_string(),
                        piece: piece.piece.text.clone(),
                        span: st.span.into(),
                    });
                }
                self.cell(at);
            }
            MoveStmtKind::Change { from, to, place } => {
                self.effects += 1;
                self.out.extend(look.tile(from));
                self.out.extend(look.tile(to));
                if from.text == to.text {
                    self.out.push(Problem::ToggleSelf {
                        tile: from.text.clone(),
                        span: st.span.into(),
                    });
                }
                self.place(place);
            }
            MoveStmtKind::Toggle { a, b, place } => {
                self.effects += 1;
                self.out.extend(look.tile(a));
                self.out.extend(look.tile(b));
                if a.text == b.text {
                    self.out.push(Problem::ToggleSelf {
                        tile: a.text.clone(),
                        span: st.span.into(),
                    });
                }
                self.place(place);
            }
            MoveStmtKind::Counter { name, op, value } => {
                self.effects += 1;
                match look.syms.counter_id(&name.text) {
                    Some(i) => {
                        let max = look.syms.counter_max[i];
                        let bad = match op {
                            AssignOp::Set => !(0..=max).contains(&value.value),
                            AssignOp::Add | AssignOp::Sub => value.value < 0 || value.value > max,
                        };
                        if bad {
                            self.out.push(Problem::CounterRange {
                                what: "value",
                                name: name.text.clone(),
                                value: value.value,
                                max,
                                span: value.span.into(),
                            });
                        }
                    }
                    None => self
                        .out
                        .extend(look.expect("counter", name, &[Thing::Counter])),
                }
            }
            MoveStmtKind::If { cond, then, els } => {
                let (aliases, cells) = (self.aliases.len(), self.cells.len());
                self.cond(cond, true);
                self.stmts(then);
                self.aliases.truncate(aliases);
                self.cells.truncate(cells);
                self.stmts(els);
                self.aliases.truncate(aliases);
                self.cells.truncate(cells);
            }
            MoveStmtKind::For { var, piece, body } => {
                self.piece(piece);
                let (aliases, cells) = (self.aliases.len(), self.cells.len());
                self.cells.push(var.text.clone());
                self.stmts(body);
                self.aliases.truncate(aliases);
                self.cells.truncate(cells);
            }
        }
    }
}

/// `piece` or `piece.pose`, into `out`.
fn out_piece_ref(look: &Lookup, r: &crate::syntax::ast::PieceRef, out: &mut Vec<Problem>) {
    out.extend(look.piece_ref(r));
}

/// The named pieces the goal mentions, with the goal's span.
fn goal_pieces(file: &File) -> HashMap<String, Span> {
    fn walk(c: &CondNode, span: Span, out: &mut HashMap<String, Span>) {
        match &c.cond {
            Cond::At { what, .. } => {
                out.entry(what.text.clone()).or_insert(span);
            }
            Cond::On { piece, .. } => {
                out.entry(piece.piece.text.clone()).or_insert(span);
            }
            Cond::Attr { left, .. } => {
                out.entry(left.piece.text.clone()).or_insert(span);
            }
            Cond::Count { .. } | Cond::Counter { .. } | Cond::Not(_) | Cond::Or(_) => {}
            Cond::And(parts) => {
                for p in parts {
                    walk(p, span, out);
                }
            }
        }
    }
    let mut out = HashMap::new();
    for item in &file.items {
        if let ItemKind::Goal(g) = &item.kind {
            walk(g, g.span, &mut out);
        }
    }
    out
}

fn one_move(
    m: &MoveDecl,
    look: &Lookup,
    goals: &HashMap<String, Span>,
    attrs: &Attributes,
) -> Vec<Problem> {
    let syms = look.syms;
    let mut out = vec![];
    let pname = m.param.name();
    let param = pname.text.as_str();
    let (dir_param, cell_param) = match &m.param {
        MoveParam::Dir { .. } => (Some(param), None),
        MoveParam::Cell(_) => (None, Some(param)),
    };
    if let Some(first) = syms.dirs.span(param) {
        out.push(Problem::Duplicate {
            kind: "direction name (move parameter)",
            name: param.to_string(),
            span: pname.span.into(),
            first: first.into(),
        });
    } else if let (Some(_), Some((_, first))) = (cell_param, syms.thing(param)) {
        out.push(Problem::Duplicate {
            kind: "name (move parameter)",
            name: param.to_string(),
            span: pname.span.into(),
            first: first.into(),
        });
    }
    let mut expected = syms.dirs.len();
    if let MoveParam::Dir {
        only: Some(only), ..
    } = &m.param
    {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for d in only {
            out.extend(look.dir(d, None));
            if let Some(first) = seen.insert(&d.text, d.span) {
                out.push(Problem::Duplicate {
                    kind: "direction in the move's list",
                    name: d.text.clone(),
                    span: d.span.into(),
                    first: first.into(),
                });
            }
        }
        expected = seen.len();
    }
    if cell_param.is_some() {
        expected = 1;
    }
    let mut letters_at: Option<Span> = None;
    let mut adds_at: Option<Span> = None;
    let mut adds_any = false;
    let once = |keyword, at: &mut Option<Span>, span: Span| {
        let repeat = at.map(|first| Problem::DuplicateStatement {
            keyword,
            mv: m.name.text.clone(),
            span: span.into(),
            first: first.into(),
        });
        at.get_or_insert(span);
        repeat
    };
    for st in &m.body {
        match &st.kind {
            MoveStmtKind::Letters(s) => {
                out.extend(once("letters", &mut letters_at, st.span));
                let given = s.value.chars().count();
                if expected > 0 && given != expected {
                    let help = if cell_param.is_some() {
                        "a per-cell move prints one letter, e.g. `letters \"p\"`".to_string()
                    } else {
                        let order: Vec<&str> = match &m.param {
                            MoveParam::Dir {
                                only: Some(only), ..
                            } => only.iter().map(|n| n.text.as_str()).take(64).collect(),
                            _ => syms.dirs.names().take(64).collect(),
                        };
                        format!(
                            "give one letter per direction, in the order {}",
                            order.join(" ")
                        )
                    };
                    out.push(Problem::LettersCount {
                        given,
                        expected,
                        span: s.span.into(),
                        help,
                    });
                }
            }
            MoveStmtKind::Adds(costs) => {
                out.extend(once("adds", &mut adds_at, st.span));
                adds_any |= !costs.is_empty();
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for c in costs {
                    match seen.get(c.text.as_str()) {
                        Some(first) => out.push(Problem::Duplicate {
                            kind: "cost component in `adds`",
                            name: c.text.clone(),
                            span: c.span.into(),
                            first: (*first).into(),
                        }),
                        None => {
                            seen.insert(&c.text, c.span);
                            out.extend(cost(c, look));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut scope = Scope {
        look,
        mv: &m.name.text,
        dir_param,
        cell_param,
        aliases: vec![],
        alias_kinds: vec![],
        attrs,
        cells: vec![],
        goal_pieces: goals,
        effects: 0,
        out: vec![],
    };
    scope.stmts(&m.body);
    out.extend(scope.out);
    if !adds_any && !syms.costs.is_empty() {
        out.push(Problem::FreeMove {
            mv: m.name.text.clone(),
            first: syms.costs.entry(0).0.to_string(),
            span: m.name.span.into(),
        });
    }
    if scope.effects == 0 {
        out.push(Problem::MoveWithoutEffect {
            mv: m.name.text.clone(),
            span: m.name.span.into(),
        });
    }
    out
}

/// What `break` cannot break at this event, as (what, help); `None` when it can (or when
/// the name is unknown, which is reported elsewhere).
fn unbreakable(event: &SlideEvent, syms: &Symbols) -> Option<(String, String)> {
    match event {
        SlideEvent::Before(n) => match syms.thing(&n.text)? {
            (Thing::Tile, _) if syms.tile_is_mutable(&n.text) => None,
            (Thing::Tile, _) => Some((
                format!("`{}` never turns into anything", n.text),
                format!(
                    "declare the tile as mutable in `tiles`, e.g. `{} -> floor`",
                    n.text
                ),
            )),
            _ => Some((
                format!("`{}` is a piece, not a tile", n.text),
                "a slide can only break tiles; drop `break`".to_string(),
            )),
        },
        SlideEvent::Into(_) => Some((
            "an `into` event has no tile ahead".to_string(),
            "to break the tile ahead, use `before TILE: stop, break`".to_string(),
        )),
        SlideEvent::OffBoard(_) => Some((
            "there is no tile beyond the board".to_string(),
            "drop `break` from the `off board` event".to_string(),
        )),
    }
}

/// A slide's events and actions; some event must stop it.
fn slide(piece: &Name, rules: &[SlideRule], span: Span, look: &Lookup) -> Vec<Problem> {
    let mut out = vec![];
    let mut stops = false;
    for r in rules {
        match &r.event {
            SlideEvent::Into(n) => {
                out.extend(look.expect("tile or mark", n, &[Thing::Tile, Thing::Mark]))
            }
            SlideEvent::Before(n) => {
                out.extend(look.expect("tile or piece", n, &[Thing::Tile, Thing::Piece]))
            }
            SlideEvent::OffBoard(_) => {}
        }
        for (a, s) in &r.actions {
            match a {
                SlideAction::Stop | SlideAction::Lose => stops = true,
                SlideAction::Break => {
                    if let Some((what, help)) = unbreakable(&r.event, look.syms) {
                        out.push(Problem::BreakImmutable {
                            what,
                            span: (*s).into(),
                            help,
                        });
                    }
                }
            }
        }
    }
    if !stops {
        out.push(Problem::SlideNeverStops {
            piece: piece.text.clone(),
            span: span.into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::symbols::declare;
    use crate::syntax::parse;

    const DECLS: &str = "tiles { floor ice -> floor } piece man dirs { n (-1, 0) s (1, 0) } ";

    fn codes(moves: &str) -> Vec<String> {
        let file = parse(&format!("{DECLS}{moves}")).expect("parses");
        let (syms, _) = declare(&file);
        check(&file, &syms).iter().map(|p| p.code_str()).collect()
    }

    #[test]
    fn a_good_move_has_no_problems() {
        assert!(codes("move walk(d) { letters \"ns\" shift man d }").is_empty());
    }

    #[test]
    fn move_mistakes_each_have_a_code() {
        assert_eq!(
            codes("move m(d) { require man at man + d }"),
            ["puz::check::move_without_effect"]
        );
        assert_eq!(
            codes("move m(d) { letters \"n\" shift man d }"),
            ["puz::check::letters_count"]
        );
        assert_eq!(
            codes("move m(d) { shift man d letters \"ns\" letters \"ns\" }"),
            ["puz::check::duplicate_statement"]
        );
        assert_eq!(
            codes("move m(d) { slide man d { into ice: break } }"),
            [
                "puz::check::break_immutable",
                "puz::check::slide_never_stops"
            ]
        );
        assert_eq!(
            codes("cost c move m(d) { shift man d }"),
            ["puz::check::free_move", "puz::check::unused_cost"]
        );
    }

    #[test]
    fn a_misspelt_adds_is_not_also_an_unused_cost() {
        assert_eq!(
            codes("cost pushes move m(d) { adds pushs shift man d }"),
            ["puz::check::unknown_name"]
        );
    }
}
