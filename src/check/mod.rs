//! Stage 2: semantic checks over the AST.
//!
//! [`check`] resolves every name, validates every declaration and reports all problems of
//! a file in one run. On success it returns the [`Symbols`] that [`crate::compile`] uses.

mod symbols;

pub use symbols::{Symbols, Thing};

use std::collections::HashMap;

use crate::diagnostics::{did_you_mean, Problem};
use crate::syntax::ast::*;
use crate::syntax::Span;

/// Checks a parsed file. Returns its symbols, or every problem found.
pub fn check(file: &File) -> Result<Symbols, Vec<Problem>> {
    let mut c = Checker::default();
    c.sections(file);
    c.declare(file);
    c.legend(file);
    c.moves(file);
    c.rules(file);
    c.judge(file);
    if c.problems.is_empty() {
        Ok(c.syms)
    } else {
        c.problems.sort_by_key(problem_start);
        Err(c.problems)
    }
}

/// A footprint's cells sorted and shifted so the first is (0, 0).
fn shape(cells: &[Offset]) -> Vec<(i64, i64)> {
    let mut v: Vec<(i64, i64)> = cells.iter().map(|o| (o.dr, o.dc)).collect();
    v.sort_unstable();
    v.dedup();
    let Some(&(r0, c0)) = v.first() else { return v };
    v.iter().map(|&(r, c)| (r - r0, c - c0)).collect()
}

/// Marks are bits of a `u32` per cell.
const MAX_MARKS: usize = 32;

fn problem_start(p: &Problem) -> usize {
    use miette::Diagnostic;
    p.labels()
        .and_then(|mut l| l.next())
        .map(|l| l.offset())
        .unwrap_or(0)
}

#[derive(Default)]
struct Checker {
    syms: Symbols,
    problems: Vec<Problem>,
    /// Cost components some move adds to.
    used_costs: Vec<bool>,
}

/// Declarations that may appear at most once.
fn singleton_keyword(kind: &ItemKind) -> Option<&'static str> {
    Some(match kind {
        ItemKind::Puzzle(_) => "puzzle",
        ItemKind::Tiles(_) => "tiles",
        ItemKind::Outside(_) => "outside",
        ItemKind::Marks(_) => "marks",
        ItemKind::Legend(_) => "legend",
        ItemKind::Dirs(_) => "dirs",
        ItemKind::Cost(_) => "cost",
        ItemKind::Limit(_) => "limit",
        ItemKind::Goal(_) => "goal",
        ItemKind::Judge(_) => "judge",
        _ => return None,
    })
}

impl Checker {
    fn unknown(&mut self, kind: &'static str, name: &Name, known: Vec<&str>) {
        let help = did_you_mean(&name.text, known.iter().copied()).or_else(|| {
            if known.is_empty() {
                Some(format!("no {kind} is declared yet"))
            } else {
                let mut k = known.clone();
                k.truncate(8);
                Some(format!("declared: {}", k.join(", ")))
            }
        });
        self.problems.push(Problem::UnknownName {
            kind,
            name: name.text.clone(),
            span: name.span.into(),
            help,
        });
    }

    fn sections(&mut self, file: &File) {
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        for item in &file.items {
            if let Some(kw) = singleton_keyword(&item.kind) {
                if let Some(first) = seen.get(kw) {
                    self.problems.push(Problem::DuplicateSection {
                        keyword: kw,
                        span: item.keyword.into(),
                        first: (*first).into(),
                    });
                } else {
                    seen.insert(kw, item.keyword);
                }
            }
        }
        for item in &file.items {
            let (keyword, empty, help) = match &item.kind {
                ItemKind::Tiles(t) => (
                    "tiles",
                    t.is_empty(),
                    "name the tile kinds, e.g. `tiles { floor wall }`",
                ),
                ItemKind::Dirs(d) => (
                    "dirs",
                    d.is_empty(),
                    "declare directions, e.g. `dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }`",
                ),
                ItemKind::Legend(l) => (
                    "legend",
                    l.is_empty(),
                    "map level symbols to tiles, e.g. `legend { '.' floor '#' wall }`",
                ),
                ItemKind::Goal(g) => ("goal", g.is_empty(), "say what counts as solved"),
                ItemKind::Cost(c) => {
                    if c.len() > crate::search::MAX_COMPONENTS {
                        self.problems.push(Problem::TooMany {
                            what: "cost components",
                            count: c.len(),
                            limit: crate::search::MAX_COMPONENTS,
                            span: c[crate::search::MAX_COMPONENTS].span.into(),
                        });
                    }
                    ("cost", false, "")
                }
                ItemKind::Marks(m) => {
                    if m.len() > MAX_MARKS {
                        self.problems.push(Problem::TooMany {
                            what: "marks",
                            count: m.len(),
                            limit: MAX_MARKS,
                            span: m[MAX_MARKS].name.span.into(),
                        });
                    }
                    ("marks", false, "")
                }
                _ => continue,
            };
            if empty {
                self.problems.push(Problem::EmptyDeclaration {
                    keyword,
                    span: item.span.into(),
                    help: help.to_string(),
                });
            }
        }
        let has = |f: fn(&ItemKind) -> bool| file.items.iter().any(|i| f(&i.kind));
        let required: [(&'static str, bool, &str); 6] = [
            ("tiles", has(|k| matches!(k, ItemKind::Tiles(_))), "declare the tile kinds, e.g. `tiles { floor wall }`"),
            ("piece", has(|k| matches!(k, ItemKind::Piece(_))), "declare what moves, e.g. `piece box`"),
            ("legend", has(|k| matches!(k, ItemKind::Legend(_))), "map level symbols to tiles, e.g. `legend { '.' floor '#' wall }`"),
            ("dirs", has(|k| matches!(k, ItemKind::Dirs(_))), "declare the directions in tie-break order, e.g. `dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }`"),
            ("move", has(|k| matches!(k, ItemKind::Move(_))), "declare at least one move, e.g. `move walk(d) { shift man d }`"),
            ("goal", has(|k| matches!(k, ItemKind::Goal(_))), "say what counts as solved, e.g. `goal box on target`"),
        ];
        for (kw, present, help) in required {
            if !present {
                self.problems.push(Problem::MissingSection {
                    keyword: kw,
                    span: (0, 0).into(),
                    help: help.to_string(),
                });
            }
        }
    }

    /// Declares tiles, marks, pieces and poses, dirs, costs, moves and levels.
    fn declare(&mut self, file: &File) {
        // Things first, so that later declarations can refer to any of them.
        for item in &file.items {
            match &item.kind {
                ItemKind::Tiles(tiles) => {
                    for t in tiles {
                        self.declare_thing(&t.name, Thing::Tile);
                        if t.becomes.is_some() {
                            self.syms.set_mutable(&t.name.text);
                        }
                    }
                }
                ItemKind::Marks(marks) => {
                    for m in marks {
                        self.declare_thing(&m.name, Thing::Mark);
                    }
                }
                ItemKind::Piece(p) => {
                    self.declare_thing(&p.name, Thing::Piece);
                    self.poses(p);
                }
                ItemKind::Dirs(dirs) => {
                    for d in dirs {
                        if let Some(first) = self.syms.dir_span(&d.name.text) {
                            self.dup("direction", &d.name, first);
                        } else {
                            self.syms.dirs.push((d.name.text.clone(), d.name.span));
                        }
                        if d.step.dr == 0 && d.step.dc == 0 {
                            self.problems.push(Problem::ZeroDirection {
                                name: d.name.text.clone(),
                                span: d.step.span.into(),
                            });
                        }
                    }
                }
                ItemKind::Cost(cs) => {
                    for c in cs {
                        if let Some(first) = self.syms.cost_span(&c.text) {
                            self.dup("cost component", c, first);
                        } else {
                            self.syms.costs.push((c.text.clone(), c.span));
                        }
                    }
                }
                ItemKind::Move(m) => {
                    if let Some(&(_, first)) =
                        self.syms.moves.iter().find(|(n, _)| *n == m.name.text)
                    {
                        self.dup("move", &m.name, first);
                    } else {
                        self.syms.moves.push((m.name.text.clone(), m.name.span));
                    }
                }
                ItemKind::Level(l) => {
                    if let Some(&(_, first)) =
                        self.syms.levels.iter().find(|(n, _)| *n == l.name.value)
                    {
                        self.problems.push(Problem::Duplicate {
                            kind: "level",
                            name: l.name.value.clone(),
                            span: l.name.span.into(),
                            first: first.into(),
                        });
                    } else {
                        self.syms.levels.push((l.name.value.clone(), l.name.span));
                    }
                }
                ItemKind::Limit(v) if v.value <= 0 => {
                    self.problems.push(Problem::BadLimit {
                        value: v.value,
                        span: v.span.into(),
                    });
                }
                _ => {}
            }
        }
        self.used_costs = vec![false; self.syms.costs.len()];
        // Tile mutations and `outside` need all tiles declared.
        for item in &file.items {
            match &item.kind {
                ItemKind::Tiles(tiles) => {
                    for t in tiles {
                        if let Some(b) = &t.becomes {
                            if b.text == t.name.text {
                                self.problems.push(Problem::SelfMutation {
                                    tile: t.name.text.clone(),
                                    span: b.span.into(),
                                });
                            } else {
                                self.tile(b);
                            }
                        }
                    }
                }
                ItemKind::Outside(t) => {
                    self.tile(t);
                }
                _ => {}
            }
        }
    }

    fn dup(&mut self, kind: &'static str, name: &Name, first: Span) {
        self.problems.push(Problem::Duplicate {
            kind,
            name: name.text.clone(),
            span: name.span.into(),
            first: first.into(),
        });
    }

    fn declare_thing(&mut self, name: &Name, kind: Thing) {
        if let Some((k, first)) = self.syms.thing(&name.text) {
            let kind_name = if k == kind { kind.noun() } else { "name" };
            self.dup(kind_name, name, first);
            return;
        }
        self.syms.add_thing(&name.text, kind, name.span);
    }

    fn poses(&mut self, p: &PieceDecl) {
        let mut names: Vec<(String, Span)> = vec![];
        if let Some(poses) = &p.poses {
            for pose in poses {
                if let Some((_, first)) = names.iter().find(|(n, _)| *n == pose.name.text) {
                    let first = *first;
                    self.dup("pose", &pose.name, first);
                    continue;
                }
                names.push((pose.name.text.clone(), pose.name.span));
                if pose.cells.is_empty() {
                    self.problems.push(Problem::EmptyFootprint {
                        pose: pose.name.text.clone(),
                        span: pose.body.into(),
                    });
                    continue;
                }
                for (i, c) in pose.cells.iter().enumerate() {
                    if let Some(prev) = pose.cells[..i]
                        .iter()
                        .find(|o| o.dr == c.dr && o.dc == c.dc)
                    {
                        self.problems.push(Problem::DuplicateCell {
                            pose: pose.name.text.clone(),
                            dr: c.dr,
                            dc: c.dc,
                            span: c.span.into(),
                            first: prev.span.into(),
                        });
                    }
                }
                if !pose.cells.iter().any(|o| o.dr == 0 && o.dc == 0) {
                    self.problems.push(Problem::AnchorUncovered {
                        pose: pose.name.text.clone(),
                        span: pose.body.into(),
                    });
                }
            }
            if poses.is_empty() {
                self.problems.push(Problem::NoPoses {
                    piece: p.name.text.clone(),
                    span: p.name.span.into(),
                });
            }
            let shapes: Vec<Vec<(i64, i64)>> =
                poses.iter().map(|pose| shape(&pose.cells)).collect();
            for (i, sh) in shapes.iter().enumerate() {
                if sh.is_empty() {
                    continue;
                }
                if let Some(j) = shapes[..i].iter().position(|o| o == sh) {
                    if poses[i].name.text != poses[j].name.text {
                        self.problems.push(Problem::SameShape {
                            piece: p.name.text.clone(),
                            a: poses[j].name.text.clone(),
                            b: poses[i].name.text.clone(),
                            span: poses[i].name.span.into(),
                            first: poses[j].name.span.into(),
                        });
                    }
                }
            }
        } else {
            names.push(("cell".to_string(), p.name.span));
        }
        self.syms.poses.insert(p.name.text.clone(), names);
    }

    fn tile(&mut self, name: &Name) -> Option<u16> {
        let id = self.syms.tile_id(&name.text);
        if id.is_none() {
            let known = self.syms.names_of(&[Thing::Tile]);
            self.unknown_thing("tile", name, known);
        }
        id
    }

    fn piece(&mut self, name: &Name) -> Option<u16> {
        let id = self.syms.piece_id(&name.text);
        if id.is_none() {
            let known = self.syms.names_of(&[Thing::Piece]);
            self.unknown_thing("piece", name, known);
        }
        id
    }

    /// A name that must be one of `kinds`.
    fn thing_of(&mut self, noun: &'static str, name: &Name, kinds: &[Thing]) -> Option<Thing> {
        match self.syms.thing(&name.text) {
            Some((k, _)) if kinds.contains(&k) => Some(k),
            _ => {
                let known = self.syms.names_of(kinds);
                self.unknown_thing(noun, name, known);
                None
            }
        }
    }

    fn unknown_thing(&mut self, noun: &'static str, name: &Name, known: Vec<String>) {
        if let Some((k, declared)) = self.syms.thing(&name.text) {
            // Declared, but as something else.
            let help = did_you_mean(
                &name.text,
                known.iter().map(String::as_str).filter(|k| *k != name.text),
            );
            self.problems.push(Problem::WrongKind {
                name: name.text.clone(),
                found: k.noun(),
                expected: noun,
                span: name.span.into(),
                declared: declared.into(),
                help,
            });
            return;
        }
        self.unknown(noun, name, known.iter().map(String::as_str).collect());
    }

    fn pose(&mut self, piece: &str, pose: &Name) {
        let Some(poses) = self.syms.poses.get(piece) else {
            return;
        };
        if !poses.iter().any(|(n, _)| *n == pose.text) {
            let known: Vec<String> = poses.iter().map(|(n, _)| n.clone()).collect();
            let noun = "pose";
            let help = did_you_mean(&pose.text, known.iter().map(String::as_str))
                .unwrap_or_else(|| format!("`{piece}` has poses: {}", known.join(", ")));
            self.problems.push(Problem::UnknownName {
                kind: noun,
                name: pose.text.clone(),
                span: pose.span.into(),
                help: Some(help),
            });
        }
    }

    fn dir(&mut self, name: &Name, param: Option<&str>) {
        if Some(name.text.as_str()) == param || self.syms.dir_span(&name.text).is_some() {
            return;
        }
        let mut known: Vec<String> = self.syms.dirs.iter().map(|(n, _)| n.clone()).collect();
        if let Some(p) = param {
            known.insert(0, p.to_string());
        }
        self.unknown(
            "direction",
            name,
            known.iter().map(String::as_str).collect(),
        );
    }

    fn piece_ref(&mut self, r: &PieceRef) {
        if self.piece(&r.piece).is_some() {
            if let Some(pose) = &r.pose {
                let piece = r.piece.text.clone();
                self.pose(&piece, pose);
            }
        }
    }

    fn legend(&mut self, file: &File) {
        let mut keys: HashMap<KeyValue, Span> = HashMap::new();
        for item in &file.items {
            let ItemKind::Legend(entries) = &item.kind else {
                continue;
            };
            for e in entries {
                if let Some(first) = keys.get(&e.key) {
                    self.problems.push(Problem::DuplicateLegendKey {
                        key: e.key.to_string(),
                        span: e.key_span.into(),
                        first: (*first).into(),
                    });
                } else {
                    keys.insert(e.key.clone(), e.key_span);
                }
                self.tile(&e.tile);
                for x in &e.extras {
                    self.thing_of("piece or mark", x, &[Thing::Piece, Thing::Mark]);
                }
            }
        }
    }

    fn cell(&mut self, c: &CellExpr, param: &str) {
        self.piece(&c.piece);
        if let Some((_, d)) = &c.step {
            self.dir(d, Some(param));
        }
    }

    fn moves(&mut self, file: &File) {
        let ndirs = self.syms.dirs.len();
        for item in &file.items {
            let ItemKind::Move(m) = &item.kind else {
                continue;
            };
            let param = m.param.text.as_str();
            if let Some(first) = self.syms.dir_span(param) {
                self.problems.push(Problem::Duplicate {
                    kind: "direction name (move parameter)",
                    name: param.to_string(),
                    span: m.param.span.into(),
                    first: first.into(),
                });
            }
            let mut letters_at: Option<Span> = None;
            let mut adds_at: Option<Span> = None;
            let mut effects = 0;
            let mut adds_any = false;
            for st in &m.body {
                match &st.kind {
                    MoveStmtKind::Letters(s) => {
                        if let Some(first) = letters_at {
                            self.problems.push(Problem::DuplicateStatement {
                                keyword: "letters",
                                mv: m.name.text.clone(),
                                span: st.span.into(),
                                first: first.into(),
                            });
                        }
                        letters_at = Some(st.span);
                        let given = s.value.chars().count();
                        if ndirs > 0 && given != ndirs {
                            let names: Vec<&str> =
                                self.syms.dirs.iter().map(|(n, _)| n.as_str()).collect();
                            self.problems.push(Problem::LettersCount {
                                given,
                                expected: ndirs,
                                span: s.span.into(),
                                help: format!(
                                    "give one letter per direction, in the order {}",
                                    names.join(" ")
                                ),
                            });
                        }
                    }
                    MoveStmtKind::Adds(names) => {
                        for (i, n) in names.iter().enumerate() {
                            if let Some(first) = names[..i].iter().find(|o| o.text == n.text) {
                                self.dup("cost component in `adds`", n, first.span);
                            }
                        }
                        adds_any |= !names.is_empty();
                        if let Some(first) = adds_at {
                            self.problems.push(Problem::DuplicateStatement {
                                keyword: "adds",
                                mv: m.name.text.clone(),
                                span: st.span.into(),
                                first: first.into(),
                            });
                        }
                        adds_at = Some(st.span);
                        for n in names {
                            match self.syms.costs.iter().position(|(c, _)| *c == n.text) {
                                Some(i) => self.used_costs[i] = true,
                                None => {
                                    let known: Vec<String> =
                                        self.syms.costs.iter().map(|(c, _)| c.clone()).collect();
                                    let help =
                                        did_you_mean(&n.text, known.iter().map(String::as_str))
                                            .unwrap_or_else(|| {
                                                format!(
                                                    "declare it in `cost`, e.g. `cost {}`",
                                                    n.text
                                                )
                                            });
                                    self.problems.push(Problem::UnknownName {
                                        kind: "cost component",
                                        name: n.text.clone(),
                                        span: n.span.into(),
                                        help: Some(help),
                                    });
                                }
                            }
                        }
                    }
                    MoveStmtKind::Require(c) | MoveStmtKind::Forbid(c) => {
                        self.thing_of(
                            "piece, tile or mark",
                            &c.what,
                            &[Thing::Piece, Thing::Tile, Thing::Mark],
                        );
                        self.cell(&c.cell, param);
                    }
                    MoveStmtKind::Shift { piece, dir, .. } | MoveStmtKind::Swap { piece, dir } => {
                        effects += 1;
                        self.piece(piece);
                        self.dir(dir, Some(param));
                    }
                    MoveStmtKind::Turn { piece, rules } => {
                        effects += 1;
                        let known = self.piece(piece).is_some();
                        let mut seen: Vec<(&str, &str, Span)> = vec![];
                        for r in rules {
                            if known {
                                self.pose(&piece.text, &r.from);
                                self.pose(&piece.text, &r.to);
                            }
                            self.dir(&r.dir, None);
                            if let Some(&(_, _, first)) = seen
                                .iter()
                                .find(|(f, d, _)| *f == r.from.text && *d == r.dir.text)
                            {
                                self.problems.push(Problem::DuplicateTurnRule {
                                    pose: r.from.text.clone(),
                                    dir: r.dir.text.clone(),
                                    span: r.span.into(),
                                    first: first.into(),
                                });
                            } else {
                                seen.push((&r.from.text, &r.dir.text, r.span));
                            }
                        }
                    }
                    MoveStmtKind::Slide { piece, dir, rules } => {
                        effects += 1;
                        self.piece(piece);
                        self.dir(dir, Some(param));
                        self.slide_rules(piece, rules, st.span);
                    }
                }
            }
            if !adds_any && !self.syms.costs.is_empty() {
                self.problems.push(Problem::FreeMove {
                    mv: m.name.text.clone(),
                    first: self.syms.costs[0].0.clone(),
                    span: m.name.span.into(),
                });
            }
            if effects == 0 {
                self.problems.push(Problem::MoveWithoutEffect {
                    mv: m.name.text.clone(),
                    span: m.name.span.into(),
                });
            }
        }
        let unknown_costs = self.problems.iter().any(|p| {
            matches!(
                p,
                Problem::UnknownName {
                    kind: "cost component",
                    ..
                }
            )
        });
        for (i, used) in self.used_costs.clone().into_iter().enumerate() {
            if !used && !unknown_costs {
                let (name, span) = self.syms.costs[i].clone();
                self.problems.push(Problem::UnusedCost {
                    name,
                    span: span.into(),
                });
            }
        }
    }

    fn slide_rules(&mut self, piece: &Name, rules: &[SlideRule], span: Span) {
        let mut stops = false;
        for r in rules {
            match &r.event {
                SlideEvent::Into(n) => {
                    self.thing_of("tile or mark", n, &[Thing::Tile, Thing::Mark]);
                }
                SlideEvent::Before(n) => {
                    self.thing_of("tile or piece", n, &[Thing::Tile, Thing::Piece]);
                }
                SlideEvent::OffBoard(_) => {}
            }
            for (a, s) in &r.actions {
                match a {
                    SlideAction::Stop => stops = true,
                    SlideAction::Break => {
                        let complaint = match &r.event {
                            SlideEvent::Before(n) => match self.syms.thing(&n.text) {
                                Some((Thing::Tile, _)) if self.syms.tile_is_mutable(&n.text) => None,
                                Some((Thing::Tile, _)) => Some((
                                    format!("`{}` never turns into anything", n.text),
                                    format!("declare the tile as mutable in `tiles`, e.g. `{} -> floor`", n.text),
                                )),
                                Some((_, _)) => Some((
                                    format!("`{}` is a piece, not a tile", n.text),
                                    "a slide can only break tiles; drop `break`".to_string(),
                                )),
                                None => None,
                            },
                            SlideEvent::Into(_) => Some((
                                "an `into` event has no tile ahead".to_string(),
                                "to break the tile ahead, use `before TILE: stop, break`".to_string(),
                            )),
                            SlideEvent::OffBoard(_) => Some((
                                "there is no tile beyond the board".to_string(),
                                "drop `break` from the `off board` event".to_string(),
                            )),
                        };
                        if let Some((what, help)) = complaint {
                            self.problems.push(Problem::BreakImmutable {
                                what,
                                span: (*s).into(),
                                help,
                            });
                        }
                    }
                    SlideAction::Lose => {}
                }
            }
            if r.actions.iter().any(|(a, _)| *a == SlideAction::Lose) {
                stops = true;
            }
        }
        if !stops {
            self.problems.push(Problem::SlideNeverStops {
                piece: piece.text.clone(),
                span: span.into(),
            });
        }
    }

    fn rules(&mut self, file: &File) {
        for item in &file.items {
            match &item.kind {
                ItemKind::Forbid(f) => {
                    self.piece_ref(&f.piece);
                    self.thing_of("tile or mark", &f.tile, &[Thing::Tile, Thing::Mark]);
                }
                ItemKind::Goal(conds) => {
                    for g in conds {
                        self.piece_ref(&g.piece);
                        self.thing_of("tile or mark", &g.on, &[Thing::Tile, Thing::Mark]);
                    }
                }
                _ => {}
            }
        }
    }

    fn judge(&mut self, file: &File) {
        for item in &file.items {
            let ItemKind::Judge(stmts) = &item.kind else {
                continue;
            };
            let find = |f: fn(&JudgeStmtKind) -> bool| stmts.iter().find(|s| f(&s.kind));
            let header = find(|k| matches!(k, JudgeStmtKind::Header(_)));
            let mut need = |what: &str, help: &str| {
                self.problems.push(Problem::JudgeFormat {
                    message: format!("no `{what}` statement"),
                    span: item.keyword.into(),
                    help: Some(help.to_string()),
                })
            };
            if find(|k| matches!(k, JudgeStmtKind::CasesOnce | JudgeStmtKind::CasesUntil(_)))
                .is_none()
            {
                need(
                    "cases",
                    "say how many cases the input holds: `cases until 0 0` or `cases once`",
                );
            }
            if header.is_none() {
                need(
                    "header",
                    "name the numbers that open a case, e.g. `header rows, cols`",
                );
            }
            if find(|k| matches!(k, JudgeStmtKind::Grid(_))).is_none() {
                need(
                    "grid",
                    "say how rows are written: `grid chars` or `grid ints`",
                );
            }
            if find(|k| matches!(k, JudgeStmtKind::Print(Outcome::Solved, _))).is_none() {
                need(
                    "print solved",
                    "say what a solved case prints, e.g. `print solved \"{cost}\"`",
                );
            }
            if find(|k| matches!(k, JudgeStmtKind::Print(Outcome::Unsolved, _))).is_none() {
                need(
                    "print unsolved",
                    "say what an unsolvable case prints, e.g. `print unsolved \"Impossible\"`",
                );
            }
            let queries = stmts
                .iter()
                .find(|s| matches!(s.kind, JudgeStmtKind::Query(_)));
            for s in stmts {
                match &s.kind {
                    JudgeStmtKind::Header(fields) => {
                        for (i, (f, sp)) in fields.iter().enumerate() {
                            if fields[..i].iter().any(|(g, _)| g == f) {
                                self.problems.push(Problem::JudgeFormat {
                                    message: "a header names the same number twice".to_string(),
                                    span: (*sp).into(),
                                    help: None,
                                });
                            }
                        }
                        for (want, word) in
                            [(HeaderField::Rows, "rows"), (HeaderField::Cols, "cols")]
                        {
                            if !fields.iter().any(|(f, _)| *f == want) {
                                self.problems.push(Problem::JudgeFormat {
                                    message: format!("the header does not give `{word}`"),
                                    span: s.span.into(),
                                    help: Some(
                                        "a header must give the board's `rows` and `cols`"
                                            .to_string(),
                                    ),
                                });
                            }
                        }
                        let has_q = fields.iter().any(|(f, _)| *f == HeaderField::Queries);
                        if has_q != queries.is_some() {
                            self.problems.push(Problem::JudgeFormat {
                                message: if has_q {
                                    "the header gives `queries` but there is no `query` statement".to_string()
                                } else {
                                    "there is a `query` statement but the header gives no `queries` count".to_string()
                                },
                                span: s.span.into(),
                                help: None,
                            });
                        }
                    }
                    JudgeStmtKind::Query(names) => {
                        for n in names {
                            self.thing_of("piece or mark", n, &[Thing::Piece, Thing::Mark]);
                        }
                    }
                    JudgeStmtKind::Print(Outcome::Invalid, _) if queries.is_none() => {
                        self.problems.push(Problem::JudgeFormat {
                            message: "`print invalid` applies only to queries".to_string(),
                            span: s.span.into(),
                            help: Some("remove it, or add a `query` statement".to_string()),
                        });
                    }
                    _ => {}
                }
            }
        }
    }
}
