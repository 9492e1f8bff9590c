//! Rules: from the written rule to concrete rules over objects and absolute directions,
//! in the order PuzzleScript runs them.
//!
//! A written rule becomes one rule per direction it applies in (all four when none is
//! given and the rule is directional); relative directions become absolute; `up` and
//! `left` rules without ellipses are scanned as `down` and `right` with their cells
//! reversed; aggregates become their objects; ambiguous movements (`moving`,
//! `horizontal`, ...) and properties that the right-hand side needs resolved become one
//! rule per choice; objects created without a movement are made stationary. Duplicates
//! within a group are dropped (the last copy kept), then `masks.rs` makes the patterns.

use super::masks;
use super::{ps, Meaning, Names, Report};
use crate::puzzlescript::ast;
use crate::puzzlescript::ir::*;
use crate::syntax::Span;

/// A direction word of a term, as the expansion sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum D {
    None,
    Up,
    Down,
    Left,
    Right,
    Action,
    Moving,
    Stationary,
    Horizontal,
    Vertical,
    Orthogonal,
    HPar,
    HPerp,
    VPar,
    VPerp,
    Perpendicular,
    Parallel,
    Fwd,
    Back,
    Ccw,
    Cw,
    No,
    Random,
    RandomDir,
    Ellipsis,
}

impl D {
    /// The concrete directions an ambiguous movement stands for.
    fn choices(self) -> Option<&'static [D]> {
        Some(match self {
            D::Horizontal | D::HPar | D::HPerp => &[D::Left, D::Right],
            D::Vertical | D::VPar | D::VPerp => &[D::Up, D::Down],
            D::Moving => &[D::Up, D::Down, D::Left, D::Right, D::Action],
            D::Orthogonal => &[D::Up, D::Down, D::Left, D::Right],
            D::Perpendicular => &[D::Ccw, D::Cw],
            D::Parallel => &[D::Back, D::Fwd],
            _ => return None,
        })
    }

    fn relative(self) -> bool {
        matches!(
            self,
            D::Fwd | D::Back | D::Ccw | D::Cw | D::Perpendicular | D::Parallel
        )
    }

    /// The movement bit of a concrete direction.
    pub(crate) fn bit(self) -> u64 {
        match self {
            D::Up => UP,
            D::Down => DOWN,
            D::Left => LEFT,
            D::Right => RIGHT,
            D::Action => ACTION,
            _ => 0,
        }
    }

    /// This relative direction, absolute for a rule scanning `forward`.
    fn absolute(self, forward: D) -> D {
        // Index: ^ v < > parallel perpendicular.
        let i = match self {
            D::Ccw => 0,
            D::Cw => 1,
            D::Back => 2,
            D::Fwd => 3,
            D::Parallel => 4,
            D::Perpendicular => 5,
            other => return other,
        };
        let row: [D; 6] = match forward {
            D::Right => [D::Up, D::Down, D::Left, D::Right, D::HPar, D::VPerp],
            D::Up => [D::Left, D::Right, D::Down, D::Up, D::VPar, D::HPerp],
            D::Down => [D::Right, D::Left, D::Up, D::Down, D::VPar, D::HPerp],
            D::Left => [D::Down, D::Up, D::Right, D::Left, D::HPar, D::VPerp],
            _ => return self,
        };
        row[i]
    }

    fn word(self) -> &'static str {
        match self {
            D::None => "",
            D::Up => "up",
            D::Down => "down",
            D::Left => "left",
            D::Right => "right",
            D::Action => "action",
            D::Moving => "moving",
            D::Stationary => "stationary",
            D::Horizontal | D::HPar | D::HPerp => "horizontal",
            D::Vertical | D::VPar | D::VPerp => "vertical",
            D::Orthogonal => "orthogonal",
            D::Perpendicular => "perpendicular",
            D::Parallel => "parallel",
            D::Fwd => ">",
            D::Back => "<",
            D::Ccw => "^",
            D::Cw => "v",
            D::No => "no",
            D::Random => "random",
            D::RandomDir => "randomdir",
            D::Ellipsis => "...",
        }
    }
}

/// At most this many concrete rules from one written rule: ambiguous movements and
/// properties multiply (ten cells of `moving Player` would be ten million rules).
pub(crate) const MAX_EXPANSION: usize = 4096;

/// A cell during expansion: its terms, direction and name.
pub(crate) type Cell = Vec<(D, String)>;

/// A rule during expansion.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    pub dir: D,
    pub lhs: Vec<Vec<Cell>>,
    pub rhs: Vec<Vec<Cell>>,
    pub line: usize,
    pub span: Span,
    pub late: bool,
    pub rigid: bool,
    pub group: usize,
    pub commands: Vec<Cmd>,
    pub random: bool,
}

impl Raw {
    /// What identifies a rule among its copies (PuzzleScript's printed form).
    fn key(&self) -> String {
        let directed = self.lhs.iter().any(|r| r.len() > 1);
        let mut s = format!("{} ", self.line);
        if directed {
            s += self.dir.word();
        }
        s += &format!(" {} {} {} ", self.rigid, self.random, self.late);
        for side in [&self.lhs, &self.rhs] {
            for row in side.iter() {
                s += "[";
                for (i, cell) in row.iter().enumerate() {
                    if i > 0 {
                        s += "|";
                    }
                    for (d, n) in cell {
                        s += d.word();
                        s += " ";
                        s += n;
                        s += " ";
                    }
                }
                s += "]";
            }
            s += "->";
        }
        for c in &self.commands {
            s += &format!("{c:?}");
        }
        s
    }
}

fn dir_word(d: ast::Dir) -> D {
    use ast::Dir::*;
    match d {
        Forward => D::Fwd,
        Back => D::Back,
        Ccw => D::Ccw,
        Cw => D::Cw,
        Up => D::Up,
        Down => D::Down,
        Left => D::Left,
        Right => D::Right,
        Moving => D::Moving,
        Stationary => D::Stationary,
        Horizontal => D::Horizontal,
        Vertical => D::Vertical,
        Orthogonal => D::Orthogonal,
        Perpendicular => D::Perpendicular,
        Parallel => D::Parallel,
        Action => D::Action,
        RandomDir => D::RandomDir,
        Random => D::Random,
    }
}

/// Compiles every rule: the groups, the late groups, and the loop markers (line, whether
/// a start).
#[allow(clippy::type_complexity)]
pub(crate) fn compile(
    game: &ast::Game,
    line_of: &dyn Fn(Span) -> usize,
    names: &Names,
    layers: usize,
    sm: usize,
    rep: &mut Report,
    random: &mut bool,
) -> (Vec<Group>, Vec<Group>, Vec<(usize, bool)>) {
    let mut written: Vec<Raw> = vec![];
    let mut loops: Vec<(usize, bool, Span)> = vec![];
    let mut dirs_of: Vec<Vec<D>> = vec![];
    for line in &game.rules {
        match line {
            ast::RuleLine::StartLoop(s) => loops.push((line_of(*s), true, *s)),
            ast::RuleLine::EndLoop(s) => loops.push((line_of(*s), false, *s)),
            ast::RuleLine::Rule(r) => {
                if let Some((raw, dirs)) = read_rule(r, &written, names, rep) {
                    written.push(raw);
                    dirs_of.push(dirs);
                }
            }
        }
    }
    // Loops: alternate start/end, not nested, closed.
    for (i, &(_, start, span)) in loops.iter().enumerate() {
        if i % 2 == 0 && !start {
            rep.error(ps!(
                LoopUnbalanced,
                span,
                "found an ENDLOOP, but I'm not in a loop"
            ));
        } else if i % 2 == 1 && start {
            rep.error(ps!(
                LoopUnbalanced,
                span,
                "found a STARTLOOP, but I'm already inside a loop (PuzzleScript can't nest loops)"
            ));
        }
    }
    if loops.len() % 2 == 1 {
        let last = *loops.last().expect("odd length");
        rep.error(ps!(
            LoopUnbalanced,
            last.2,
            "a STARTLOOP without a corresponding ENDLOOP"
        ));
        loops.push((last.0, false, last.2));
    }
    let loops: Vec<(usize, bool)> = loops.iter().map(|l| (l.0, l.1)).collect();

    let mut expanded: Vec<Raw> = vec![];
    for (raw, dirs) in written.iter().zip(&dirs_of) {
        for &d in dirs {
            let mut r = raw.clone();
            r.dir = d;
            absolutify(&mut r);
            rewrite_up_left(&mut r);
            atomize(&mut r, names, rep);
            synonyms(&mut r, names);
            for m in concretize_moving(r, rep) {
                for mut p in concretize_properties(m, names, rep) {
                    stationary(&mut p, names);
                    expanded.push(p);
                }
            }
        }
    }
    // Drop copies within a group, keeping the last.
    let mut keep = vec![false; expanded.len()];
    let mut seen = std::collections::HashSet::new();
    let mut last_group = usize::MAX;
    for i in (0..expanded.len()).rev() {
        if expanded[i].group != last_group {
            seen.clear();
            last_group = expanded[i].group;
        }
        if seen.insert(expanded[i].key()) {
            keep[i] = true;
        }
    }
    let rules: Vec<Raw> = expanded
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect();
    if rules.iter().any(|r| r.random) {
        *random = true;
    }
    let mut early: Vec<(usize, Vec<(Rule, Option<(String, String)>, usize, Span)>)> = vec![];
    let mut late: Vec<(usize, Vec<(Rule, Option<(String, String)>, usize, Span)>)> = vec![];
    for r in &rules {
        let Some((rule, discard)) = masks::build(r, names, layers, sm, rep, random) else {
            continue;
        };
        let target = if r.late { &mut late } else { &mut early };
        match target.iter_mut().find(|g| g.0 == r.group) {
            Some(g) => g.1.push((rule, discard, r.line, r.span)),
            None => target.push((r.group, vec![(rule, discard, r.line, r.span)])),
        }
    }
    let finish = |mut groups: Vec<(usize, Vec<(Rule, Option<(String, String)>, usize, Span)>)>,
                  rep: &mut Report| {
        groups.sort_by_key(|g| g.0);
        let mut out = vec![];
        for (_, rules) in groups {
            let mut kept: Vec<Rule> = vec![];
            let lines_kept: Vec<usize> = rules
                .iter()
                .filter(|r| r.1.is_none())
                .map(|r| r.2)
                .collect();
            let mut reported = std::collections::HashSet::new();
            for (rule, discard, line, span) in rules {
                match discard {
                    None => kept.push(rule),
                    Some((a, b)) => {
                        if !lines_kept.contains(&line) && reported.insert(line) {
                            rep.error(ps!(RuleOverlap, span, format!("{a} and {b} can never overlap. This rule requires that to happen, so it is impossible it will ever trigger")));
                        }
                    }
                }
            }
            if kept.is_empty() {
                continue;
            }
            let mut seen: Vec<(&[u64], &[Vec<u64>])> = vec![];
            for r in &kept {
                if !seen.iter().any(|&(m, a)| m == r.mask && a == r.any_masks) {
                    seen.push((&r.mask, &r.any_masks));
                }
            }
            let needs = (seen.iter())
                .map(|&(m, a)| (sparse(m, 0), a.iter().map(|a| sparse(a, 0)).collect()))
                .collect();
            out.push(Group {
                random: kept[0].random,
                rigid: None,
                line: kept[0].line,
                quick: kept.iter().map(|r| r.need).collect(),
                rules: kept,
                needs,
                footprint: None,
                still: None,
                block: None,
            });
        }
        out
    };
    let groups = finish(early, rep);
    let late_groups = finish(late, rep);
    (groups, late_groups, loops)
}

/// Reads one written rule: its directions and cells, with the checks PuzzleScript makes
/// while reading.
fn read_rule(
    r: &ast::Rule,
    previous: &[Raw],
    names: &Names,
    rep: &mut Report,
) -> Option<(Raw, Vec<D>)> {
    let mut dirs: Vec<D> = vec![];
    let (mut late, mut rigid, mut random, mut plus) = (false, false, false, false);
    for (i, &(p, span)) in r.prefixes.iter().enumerate() {
        match p {
            ast::Prefix::Plus => {
                if plus {
                    rep.error(ps!(PlusTwice, span, "two \"+\"s (the \"append to previous rule group\" symbol) applied to the same rule"));
                } else if previous.is_empty() {
                    rep.error(ps!(PlusFirst, span, "the \"+\" symbol, for joining a rule with the group of the previous rule, needs a previous rule to be applied to"));
                } else {
                    if i != 0 {
                        rep.error(ps!(PlusNotFirst, span, "the \"+\" symbol, for joining a rule with the group of the previous rule, must be the first symbol on the line"));
                    }
                    plus = true;
                }
            }
            ast::Prefix::Late => late = true,
            ast::Prefix::Rigid => rigid = true,
            ast::Prefix::Random => {
                random = true;
                if plus {
                    rep.error(ps!(RandomInGroup, span, "a rule-group can only be marked random by the opening rule in the group (a '+' and 'random' can't appear as rule modifiers on the same line)"));
                }
            }
            ast::Prefix::Up => dirs.push(D::Up),
            ast::Prefix::Down => dirs.push(D::Down),
            ast::Prefix::Left => dirs.push(D::Left),
            ast::Prefix::Right => dirs.push(D::Right),
            ast::Prefix::Horizontal => dirs.extend([D::Left, D::Right]),
            ast::Prefix::Vertical => dirs.extend([D::Up, D::Down]),
            ast::Prefix::Orthogonal => dirs.extend([D::Up, D::Down, D::Left, D::Right]),
        }
    }
    if dirs.is_empty() {
        dirs = vec![D::Up, D::Down, D::Left, D::Right];
    }
    let group = if plus {
        previous.last().map_or(r.line, |p| p.group)
    } else {
        r.line
    };
    if plus {
        if let Some(p) = previous.last() {
            if p.late != late {
                rep.warn(ps!(
                    LateMixed,
                    r.span,
                    "mixing late and non-late rules in one rule group"
                ));
            }
        }
    }
    let mut ok = true;
    let side = |rows: &[ast::CellRow], rep: &mut Report, ok: &mut bool| -> Vec<Vec<Cell>> {
        rows.iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|cell| match cell {
                        ast::Cell::Ellipsis(_) => vec![(D::Ellipsis, "...".to_string())],
                        ast::Cell::Terms(terms, _) => {
                            let mut out: Cell = vec![];
                            for t in terms {
                                if !names.meaning.contains_key(&t.name.text) {
                                    rep.errors.push(crate::diagnostics::PsProblem::UnknownName {
                                        span: t.name.span.into(),
                                        name: t.name.text.clone(),
                                        help: crate::diagnostics::did_you_mean(
                                            &t.name.text,
                                            names.meaning.keys().map(String::as_str),
                                        ),
                                    });
                                    // PuzzleScript reports it and reads the rule
                                    // without the word.
                                    continue;
                                }
                                let d = match (t.no, t.dir) {
                                    (Some(_), Some((_, span))) => {
                                        rep.error(ps!(CellDirections, span, "an item can only have one direction/action at a time, but you're looking for several at once"));
                                        *ok = false;
                                        D::No
                                    }
                                    (Some(_), None) => D::No,
                                    (None, Some((d, _))) => dir_word(d),
                                    (None, None) => D::None,
                                };
                                if late && !matches!(d, D::None | D::No | D::Random | D::RandomDir) {
                                    rep.error(ps!(LateMovement, t.span, "movements cannot appear in late rules"));
                                    *ok = false;
                                }
                                if let Some(prev) = out.iter().find(|(_, n)| n == &t.name.text) {
                                    if prev.0 == D::No && d == D::No {
                                        rep.warn(ps!(CellNoRepeated, t.span, format!("NO {} more than once in a single cell", t.name.text.to_uppercase())));
                                    } else {
                                        // PuzzleScript reports it and keeps both terms.
                                        rep.error(ps!(CellRepeated, t.span, format!("you cannot specify the same object more than once in a single cell (in this case {} occurs multiple times)", t.name.text.to_uppercase())));
                                    }
                                }
                                out.push((d, t.name.text.clone()));
                            }
                            out
                        }
                    })
                    .collect()
            })
            .collect()
    };
    let lhs = side(&r.lhs, rep, &mut ok);
    let rhs = side(&r.rhs, rep, &mut ok);
    let commands: Vec<Cmd> = r
        .commands
        .iter()
        .map(|(c, _)| match c {
            ast::Command::Again => Cmd::Again,
            ast::Command::Cancel => Cmd::Cancel,
            ast::Command::Restart => Cmd::Restart,
            ast::Command::Win => Cmd::Win,
            ast::Command::Checkpoint => Cmd::Checkpoint,
            ast::Command::Message(m) => {
                Cmd::Message(if m.is_empty() { " ".into() } else { m.clone() })
            }
            ast::Command::Sfx(n) => Cmd::Sfx(*n),
        })
        .collect();
    if late && rigid {
        rep.error(ps!(LateRigid, r.span, "late rules cannot be marked as rigid (rigid rules are about the consequences of unresolvable movements, and late rules can't have movements)"));
    }
    if lhs.len() != rhs.len() {
        if !rhs.is_empty() || commands.is_empty() {
            rep.warn(ps!(RuleSides, r.span, "the number of matches (square bracketed bits) on the left-hand side of the arrow must equal the number on the right: this rule is ignored"));
            return None;
        }
    } else {
        for (l, rr) in r.lhs.iter().zip(&r.rhs) {
            if l.cells.len() != rr.cells.len() {
                rep.error(ps!(RuleCellCount, rr.span, "in a rule, each pattern to match on the left must have a corresponding pattern on the right of equal length (number of cells)"));
                ok = false;
            }
        }
    }
    for l in &r.lhs {
        if l.cells.is_empty() {
            rep.error(ps!(
                RuleEmptyPattern,
                l.span,
                "a totally empty pattern on the left-hand side matches everything"
            ));
            ok = false;
        }
    }
    if lhs.is_empty() {
        rep.error(ps!(RuleNothing, r.span, "this rule refers to nothing"));
        ok = false;
    }
    if !ok {
        return None;
    }
    let raw = Raw {
        dir: D::None,
        lhs,
        rhs,
        line: r.line,
        span: r.span,
        late,
        rigid,
        group,
        commands,
        random,
    };
    if !directional(&raw) && dirs.len() > 1 {
        dirs.truncate(1);
    }
    Some((raw, dirs))
}

/// Whether the rule depends on its direction: a row of several cells, or a relative
/// direction.
fn directional(r: &Raw) -> bool {
    r.lhs.iter().any(|row| row.len() > 1)
        || r.lhs
            .iter()
            .chain(&r.rhs)
            .flatten()
            .flatten()
            .any(|(d, _)| d.relative())
}

fn absolutify(r: &mut Raw) {
    let f = r.dir;
    for cell in r.lhs.iter_mut().chain(r.rhs.iter_mut()).flatten() {
        for t in cell.iter_mut() {
            t.0 = t.0.absolute(f);
        }
    }
}

fn rewrite_up_left(r: &mut Raw) {
    if r.lhs
        .iter()
        .flatten()
        .any(|c| c.first().is_some_and(|t| t.0 == D::Ellipsis))
    {
        return;
    }
    r.dir = match r.dir {
        D::Up => D::Down,
        D::Left => D::Right,
        _ => return,
    };
    for row in r.lhs.iter_mut().chain(r.rhs.iter_mut()) {
        row.reverse();
    }
}

fn atomize(r: &mut Raw, names: &Names, rep: &mut Report) {
    for cell in r.lhs.iter_mut().chain(r.rhs.iter_mut()).flatten() {
        let mut i = 0;
        while i < cell.len() {
            let (d, n) = cell[i].clone();
            if let Some(Meaning::Aggregate(objs)) = names.meaning.get(&n) {
                if d == D::No {
                    rep.error(ps!(NoAggregate, r.span, format!("you cannot use 'no' to exclude the aggregate object {} (defined using 'AND'), only regular objects, or properties (objects defined using 'OR')", n.to_uppercase())));
                }
                cell[i].1 = objs[0].clone();
                for o in &objs[1..] {
                    cell.push((d, o.clone()));
                }
            }
            i += 1;
        }
    }
}

fn synonyms(r: &mut Raw, names: &Names) {
    for cell in r.lhs.iter_mut().chain(r.rhs.iter_mut()).flatten() {
        for t in cell.iter_mut() {
            if let Some(Meaning::Object(o)) = names.meaning.get(&t.1) {
                t.1 = o.clone();
            }
        }
    }
}

/// One rule per choice of each ambiguous movement on the left; the right-hand side's
/// ambiguous movements follow the left's where the left says which.
fn concretize_moving(rule: Raw, rep: &mut Report) -> Vec<Raw> {
    // Per rule: (name, ambiguous) -> (concrete, count, j, k); ambiguous -> (concrete, count).
    type Moves = Vec<((String, D), (D, usize, usize, usize))>;
    type Aggs = Vec<(D, (D, usize))>;
    let mut result: Vec<(Raw, Moves, Aggs)> = vec![(rule, vec![], vec![])];
    let mut modified = true;
    while modified {
        modified = false;
        let mut i = 0;
        while i < result.len() {
            let mut remove = false;
            let cur = result[i].clone();
            for j in 0..cur.0.lhs.len() {
                for k in 0..cur.0.lhs[j].len() {
                    let Some((name, amb)) = cur.0.lhs[j][k]
                        .iter()
                        .find(|t| t.0.choices().is_some())
                        .map(|t| (t.1.clone(), t.0))
                    else {
                        continue;
                    };
                    remove = true;
                    modified = true;
                    for &c in amb.choices().expect("ambiguous") {
                        let mut new = cur.clone();
                        for t in new.0.lhs[j][k].iter_mut() {
                            if t.0 == amb && t.1 == name {
                                t.0 = c;
                            }
                        }
                        if !new.0.rhs.is_empty() {
                            for t in new.0.rhs[j][k].iter_mut() {
                                if t.0 == amb && t.1 == name {
                                    t.0 = c;
                                }
                            }
                        }
                        let key = (name.clone(), amb);
                        match new.1.iter_mut().find(|m| m.0 == key) {
                            None => new.1.push((key, (c, 1, j, k))),
                            Some(m) => {
                                if m.1 .2 != j || m.1 .3 != k {
                                    m.1 .1 += 1;
                                }
                            }
                        }
                        match new.2.iter_mut().find(|m| m.0 == amb) {
                            None => new.2.push((amb, (c, 1))),
                            Some(m) => m.1 .1 += 1,
                        }
                        result.push(new);
                    }
                }
            }
            if remove {
                result.remove(i);
            } else {
                i += 1;
            }
            if result.len() > MAX_EXPANSION {
                let span = result[0].0.span;
                too_many(rep, span);
                return vec![];
            }
        }
    }
    let mut out = vec![];
    let mut bad: Option<(D, Span)> = None;
    for (mut r, moves, aggs) in result {
        for ((name, amb), (c, count, _, _)) in &moves {
            if *count == 1 {
                for t in r.rhs.iter_mut().flatten().flatten() {
                    if t.0 == *amb && &t.1 == name {
                        t.0 = *c;
                    }
                }
            }
        }
        for (amb, (c, count)) in &aggs {
            if *count == 1 {
                for t in r.rhs.iter_mut().flatten().flatten() {
                    if t.0 == *amb {
                        t.0 = *c;
                    }
                }
            }
        }
        if bad.is_none() {
            if let Some(t) = r
                .rhs
                .iter()
                .flatten()
                .flatten()
                .find(|t| t.0.choices().is_some())
            {
                bad = Some((t.0, r.span));
            }
        }
        out.push(r);
    }
    if let Some((d, span)) = bad {
        rep.error(ps!(RuleAmbiguousMovement, span, format!("this rule has an ambiguous movement on the right-hand side, \"{}\", that can't be inferred from the left-hand side", d.word())));
        return vec![];
    }
    out
}

/// One rule per object of each property the right-hand side needs resolved (or that
/// spans several layers).
fn concretize_properties(mut rule: Raw, names: &Names, rep: &mut Report) -> Vec<Raw> {
    // `no property` is `no a no b ...`.
    let expand_no = |cell: &Cell| -> Cell {
        let mut out = vec![];
        for (d, n) in cell {
            match (d, names.meaning.get(n)) {
                (D::No, Some(Meaning::Property(objs))) => {
                    out.extend(objs.iter().map(|o| (D::No, o.clone())))
                }
                _ => out.push((*d, n.clone())),
            }
        }
        out
    };
    for j in 0..rule.lhs.len() {
        for k in 0..rule.lhs[j].len() {
            rule.lhs[j][k] = expand_no(&rule.lhs[j][k]);
            if !rule.rhs.is_empty() {
                rule.rhs[j][k] = expand_no(&rule.rhs[j][k]);
            }
        }
    }
    let props = |cell: &Cell| -> Vec<String> {
        cell.iter()
            .filter(|t| t.0 != D::Random && names.is_property(&t.1))
            .map(|t| t.1.clone())
            .collect()
    };
    let mut ambiguous: Vec<String> = vec![];
    for j in 0..rule.rhs.len() {
        for k in 0..rule.rhs[j].len() {
            let left = props(&rule.lhs[j][k]);
            for p in props(&rule.rhs[j][k]) {
                if !left.contains(&p) && !ambiguous.contains(&p) {
                    ambiguous.push(p);
                }
            }
        }
    }
    type Repl = Vec<(String, (String, usize))>;
    let mut result: Vec<(Raw, Repl)> = vec![(rule, vec![])];
    let mut modified = true;
    while modified {
        modified = false;
        let mut i = 0;
        while i < result.len() {
            let cur = result[i].clone();
            let mut remove = false;
            'cells: for j in 0..cur.0.lhs.len() {
                for k in 0..cur.0.lhs[j].len() {
                    for p in props(&cur.0.lhs[j][k]) {
                        if names.single_layer(&p).is_some() && !ambiguous.contains(&p) {
                            continue;
                        }
                        remove = true;
                        modified = true;
                        for o in names.objects(&p) {
                            let mut new = cur.clone();
                            let swap = |cell: &mut Cell| {
                                for t in cell.iter_mut() {
                                    if t.1 == p && t.0 != D::Random {
                                        t.1 = o.clone();
                                    }
                                }
                            };
                            swap(&mut new.0.lhs[j][k]);
                            if !new.0.rhs.is_empty() {
                                swap(&mut new.0.rhs[j][k]);
                            }
                            match new.1.iter_mut().find(|x| x.0 == p) {
                                None => new.1.push((p.clone(), (o.clone(), 1))),
                                Some(x) => x.1 .1 += 1,
                            }
                            result.push(new);
                        }
                        break 'cells;
                    }
                }
            }
            if remove {
                result.remove(i);
            } else {
                i += 1;
            }
            if result.len() > MAX_EXPANSION {
                let span = result[0].0.span;
                too_many(rep, span);
                return vec![];
            }
        }
    }
    let mut out = vec![];
    let mut bad = None;
    for (mut r, repl) in result {
        for (p, (o, count)) in &repl {
            if *count == 1 {
                for t in r.rhs.iter_mut().flatten().flatten() {
                    if &t.1 == p && t.0 != D::Random {
                        t.1 = o.clone();
                    }
                }
            }
        }
        for row in &r.rhs {
            for cell in row {
                for p in props(cell) {
                    if ambiguous.contains(&p) {
                        bad = Some((p, r.span));
                    }
                }
            }
        }
        out.push(r);
    }
    if let Some((p, span)) = bad {
        rep.error(ps!(RuleAmbiguousProperty, span, format!("this rule has a property on the right-hand side, \"{}\", that can't be inferred from the left-hand side", p.to_uppercase())));
        return vec![];
    }
    out
}

fn too_many(rep: &mut Report, span: Span) {
    rep.error(ps!(RuleExpansion, span, format!("this rule expands into more than {MAX_EXPANSION} concrete rules (one per choice of each ambiguous movement and property)")));
}

/// Objects created on the right-hand side without a movement, on a layer the left-hand
/// side's cell does not mention, are stationary.
fn stationary(r: &mut Raw, names: &Names) {
    if r.late {
        return;
    }
    for j in 0..r.rhs.len() {
        for k in 0..r.rhs[j].len() {
            let left: Vec<String> = r.lhs[j][k]
                .iter()
                .flat_map(|t| match names.meaning.get(&t.1) {
                    Some(Meaning::Object(o)) => vec![o.clone()],
                    Some(Meaning::Property(v)) => v.clone(),
                    _ => vec![],
                })
                .collect();
            let layers: Vec<usize> = left
                .iter()
                .filter_map(|o| names.id.get(o).map(|&i| names.layer[i]))
                .collect();
            for t in r.rhs[j][k].iter_mut() {
                if t.0 != D::None || names.is_property(&t.1) || left.contains(&t.1) {
                    continue;
                }
                let Some(&id) = names.id.get(&t.1) else {
                    continue;
                };
                if !layers.contains(&names.layer[id]) {
                    t.0 = D::Stationary;
                }
            }
        }
    }
}
