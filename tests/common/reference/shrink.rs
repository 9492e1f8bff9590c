//! Makes a failing case small: greedy one-edit-at-a-time reduction (drop a level, a move,
//! a statement, a forbid, a copy; inline an `if`; replace a condition by one of its parts;
//! plain tiles) kept while the difference stays of the same kind and side. Edits that make
//! the file invalid are simply refused by the library and not kept.

use super::diff::{run_with, Difference, Kind, Stats};
use super::gen::Case;
use super::interp::Quirks;
use super::rules::*;

/// Whether `cand` still shows a difference like `d`; the new difference if so.
fn still(cand: &mut Case, d: &Difference, states: usize, q: Quirks) -> Option<Difference> {
    if !cand.redraw() {
        return None;
    }
    let nd = run_with(cand, states, q, &mut Stats::default())?;
    (nd.kind == d.kind && nd.side == d.side).then_some(nd)
}

/// The smallest case found that still differs like `d` does.
/// (The reference runs with `q`, so known classes stay out of the way.)
pub fn shrink(case: &Case, d: &Difference, states: usize, q: Quirks) -> (Case, Difference) {
    let mut best = case.clone();
    let mut bd = d.clone();
    // Only the failing level.
    let mut one = best.clone();
    one.plans = vec![best.plans[d.level].clone()];
    if let Some(nd) = still(&mut one, &bd, states, q) {
        best = one;
        bd = nd;
    }
    // Passes over the edits; after a kept edit the pass goes on from the same index of
    // the new case's edits.
    for _pass in 0..20 {
        let mut improved = false;
        let mut i = 0;
        loop {
            let list = edits(&best, &bd);
            let Some(mut cand) = list.into_iter().nth(i) else {
                break;
            };
            match still(&mut cand, &bd, states, q) {
                Some(nd) => {
                    best = cand;
                    bd = nd;
                    improved = true;
                }
                None => i += 1,
            }
        }
        if !improved {
            break;
        }
    }
    (best, bd)
}

/// Every single edit of `c`, smallest results first (whole moves before statements).
fn edits(c: &Case, d: &Difference) -> Vec<Case> {
    let mut out = vec![];
    let with = |f: &dyn Fn(&mut Case)| {
        let mut x = c.clone();
        f(&mut x);
        x
    };
    if !c.rules.metrics.is_empty() {
        out.push(with(&|x| x.rules.metrics.clear()));
    }
    if c.plans.len() > 1 {
        for i in 0..c.plans.len() {
            out.push(with(&|x| {
                x.plans.remove(i);
            }));
        }
    }
    if c.rules.metrics.is_empty() && c.rules.moves.len() > 1 {
        for i in 0..c.rules.moves.len() {
            if d.mv == Some(i) {
                continue;
            }
            out.push(with(&|x| {
                x.rules.moves.remove(i);
            }));
        }
    }
    if !c.rules.costs.is_empty() {
        out.push(with(&|x| {
            x.rules.costs.clear();
            for m in &mut x.rules.moves {
                m.adds.clear();
            }
        }));
    }
    for i in 0..c.rules.forbids.len() {
        out.push(with(&|x| {
            x.rules.forbids.remove(i);
        }));
    }
    let trivial = Cond::Count {
        what: CountWhat::Tile(0),
        op: Cmp::Ge,
        value: 0,
    };
    if d.kind != Kind::Goal {
        if c.rules.goal.as_ref() != Some(&trivial) || c.plans.iter().any(|p| p.picture.is_some()) {
            out.push(with(&|x| {
                x.rules.goal = Some(trivial.clone());
                for p in &mut x.plans {
                    p.picture = None;
                }
            }));
        }
    } else {
        for (i, p) in c.plans.iter().enumerate() {
            if p.picture.is_some() {
                out.push(with(&|x| x.plans[i].picture = None));
            }
        }
        if let Some(g) = &c.rules.goal {
            for sub in parts(g) {
                out.push(with(&|x| x.rules.goal = Some(sub.clone())));
            }
            if c.plans.iter().all(|p| p.picture.is_some()) {
                out.push(with(&|x| x.rules.goal = None));
            }
        }
    }
    for (mi, m) in c.rules.moves.iter().enumerate() {
        for body in body_edits(&m.body) {
            out.push(with(&|x| x.rules.moves[mi].body = body.clone()));
        }
        if m.param != Param::Dirs(None) && m.param != Param::Cell {
            out.push(with(&|x| x.rules.moves[mi].param = Param::Dirs(None)));
        }
    }
    for (pi, p) in c.plans.iter().enumerate() {
        for (ci, cp) in p.copies.iter().enumerate() {
            if c.rules.kinds[cp.kind].anonymous {
                out.push(with(&|x| {
                    x.plans[pi].copies.remove(ci);
                }));
            }
            if cp.choose {
                out.push(with(&|x| x.plans[pi].copies[ci].choose = false));
            }
        }
        for t in 0..p.tiles.len() {
            if p.tiles[t] != 0 {
                out.push(with(&|x| x.plans[pi].tiles[t] = 0));
            }
            if !p.marks[t].is_empty() {
                out.push(with(&|x| x.plans[pi].marks[t].clear()));
            }
        }
    }
    out
}

/// The parts a condition may be replaced by.
fn parts(c: &Cond) -> Vec<Cond> {
    match c {
        Cond::Not(inner) => vec![(**inner).clone()],
        Cond::And(ps) | Cond::Or(ps) => {
            let mut out: Vec<Cond> = ps.clone();
            for i in 0..ps.len() {
                let mut rest = ps.clone();
                rest.remove(i);
                if rest.len() > 1 {
                    out.push(match c {
                        Cond::And(_) => Cond::And(rest),
                        _ => Cond::Or(rest),
                    });
                }
            }
            out
        }
        _ => vec![],
    }
}

/// Every single edit of a block: a statement dropped, an `if` inlined or its `else`
/// dropped, a condition replaced by a part, a nested block edited.
fn body_edits(body: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = vec![];
    for i in 0..body.len() {
        let mut v = body.to_vec();
        v.remove(i);
        out.push(v);
        let replace = |s: Stmt| {
            let mut v = body.to_vec();
            v[i] = s;
            v
        };
        let splice = |b: &[Stmt]| {
            let mut v = body[..i].to_vec();
            v.extend_from_slice(b);
            v.extend_from_slice(&body[i + 1..]);
            v
        };
        match &body[i] {
            Stmt::Require(c) => {
                for p in parts(c) {
                    out.push(replace(Stmt::Require(p)));
                }
            }
            Stmt::Forbid(c) => {
                for p in parts(c) {
                    out.push(replace(Stmt::Forbid(p)));
                }
            }
            Stmt::If { cond, then, els } => {
                out.push(splice(then));
                out.push(splice(els));
                let mut as_require = vec![Stmt::Require(cond.clone())];
                as_require.extend(then.iter().cloned());
                out.push(splice(&as_require));
                if !els.is_empty() {
                    out.push(replace(Stmt::If {
                        cond: cond.clone(),
                        then: then.clone(),
                        els: vec![],
                    }));
                }
                for p in parts(cond) {
                    out.push(replace(Stmt::If {
                        cond: p,
                        then: then.clone(),
                        els: els.clone(),
                    }));
                }
                for t in body_edits(then) {
                    out.push(replace(Stmt::If {
                        cond: cond.clone(),
                        then: t,
                        els: els.clone(),
                    }));
                }
                for e in body_edits(els) {
                    out.push(replace(Stmt::If {
                        cond: cond.clone(),
                        then: then.clone(),
                        els: e,
                    }));
                }
            }
            Stmt::For { var, who, body: b } => {
                for nb in body_edits(b) {
                    out.push(replace(Stmt::For {
                        var: var.clone(),
                        who: who.clone(),
                        body: nb,
                    }));
                }
            }
            Stmt::Slide {
                who,
                each,
                step,
                rules,
            } if rules.len() > 1 => {
                for j in 0..rules.len() {
                    let mut r = rules.clone();
                    r.remove(j);
                    out.push(replace(Stmt::Slide {
                        who: who.clone(),
                        each: *each,
                        step: step.clone(),
                        rules: r,
                    }));
                }
            }
            Stmt::Turn { who, rules } if rules.len() > 1 => {
                for j in 0..rules.len() {
                    let mut r = rules.clone();
                    r.remove(j);
                    out.push(replace(Stmt::Turn {
                        who: who.clone(),
                        rules: r,
                    }));
                }
            }
            _ => {}
        }
    }
    out
}
