//! A concrete rule's cells as bitmask patterns and replacements.

use super::code;
use super::rules::{Raw, D};
use super::{ps, Meaning, Names, Report};
use crate::puzzlescript::ir::*;

/// The rule's patterns, and the two object names on one layer that its left-hand side
/// requires together (such a rule can never match: it is discarded). `None` when the
/// rule is removed (with an error or a warning).
pub(crate) fn build(
    r: &Raw,
    names: &Names,
    layers: usize,
    sm: usize,
    rep: &mut Report,
    random: &mut bool,
) -> Option<(Rule, Option<(String, String)>)> {
    let so = names.so;
    let layer_of = |n: &str| -> Option<usize> {
        match names.meaning.get(n) {
            Some(Meaning::Object(o)) => names.id.get(o).map(|&i| names.layer[i]),
            _ => names.single_layer(n),
        }
    };
    let layer_mask = |l: usize| -> Vec<u64> {
        let mut m = vec![0; so];
        for (i, &ol) in names.layer.iter().enumerate() {
            if ol == l {
                set_bit(&mut m, i);
            }
        }
        m
    };
    let obj = |n: &str| -> Option<usize> {
        match names.meaning.get(n) {
            Some(Meaning::Object(o)) => names.id.get(o).copied(),
            _ => None,
        }
    };
    let mut discard = None;
    let mut rows = vec![];
    let mut ellipses = vec![];
    let mut at_edge = false;
    for (j, row_l) in r.lhs.iter().enumerate() {
        let mut items = vec![];
        let mut count = 0u8;
        for (c, cell_l) in row_l.iter().enumerate() {
            if cell_l.iter().any(|t| t.0 == D::Ellipsis) {
                if cell_l.len() != 1 {
                    rep.error(ps!(
                        EllipsisCrowded,
                        r.span,
                        "you can't have anything in with an ellipsis"
                    ));
                    return None;
                }
                if c == 0 || c == row_l.len() - 1 {
                    rep.error(ps!(EllipsisEdge, r.span, "there's no point in putting an ellipsis at the very start or the end of a rule"));
                    at_edge = true;
                }
                if !r.rhs.is_empty() {
                    let rc = &r.rhs[j][c];
                    if rc.len() != 1 || rc[0].0 != D::Ellipsis {
                        rep.error(ps!(EllipsisUnmatched, r.span, "an ellipsis on the left must be matched by one in the corresponding place on the right"));
                    }
                }
                if c > 0 && matches!(items.last(), Some(Item::Ellipsis)) {
                    rep.warn(ps!(
                        EllipsisTwice,
                        r.span,
                        "two ellipses in a row are the same as one"
                    ));
                }
                count += 1;
                items.push(Item::Ellipsis);
                continue;
            }
            let mut used_l: Vec<Option<String>> = vec![None; layers];
            let mut p = CellPattern {
                present: vec![0; so],
                missing: vec![0; so],
                any: vec![],
                moving: vec![0; sm],
                still: vec![0; sm],
                replace: None,
            };
            let mut obj_layers_l = vec![0u64; sm];
            for (d, n) in cell_l {
                if *d == D::Random {
                    rep.error(ps!(RandomLeft, r.span, "RANDOM cannot be matched on the left-hand side, it can only appear on the right"));
                    continue;
                }
                let Some(layer) = layer_of(n) else {
                    rep.error(ps!(
                        NameNoLayer,
                        r.span,
                        format!("{} is not assigned to a layer", n.to_uppercase())
                    ));
                    continue;
                };
                let mask = names.mask(&names.objects(n));
                if *d == D::No {
                    for (a, b) in p.missing.iter_mut().zip(&mask) {
                        *a |= b;
                    }
                    continue;
                }
                if let Some(existing) = &used_l[layer] {
                    discard = Some((n.to_uppercase(), existing.to_uppercase()));
                }
                used_l[layer] = Some(n.clone());
                if obj(n).is_some() {
                    for (a, b) in p.present.iter_mut().zip(&mask) {
                        *a |= b;
                    }
                    or_layer(&mut obj_layers_l, layer, LAYER_BITS);
                } else {
                    p.any.push(mask);
                }
                if *d == D::Stationary {
                    or_layer(&mut p.still, layer, LAYER_BITS);
                } else {
                    or_layer(&mut p.moving, layer, d.bit());
                }
            }
            if any_common(&p.present, &p.missing) {
                let overlap: Vec<String> = (0..names.names.len())
                    .filter(|&i| has_bit(&p.present, i) && has_bit(&p.missing, i))
                    .map(|i| {
                        let n = names.names[i].to_uppercase();
                        format!("{n} NO {n}")
                    })
                    .collect();
                rep.warn(ps!(RuleImpossible, r.span, format!(
                        "this rule has something amounting to \"{}\" on the left-hand side, which can never match, so the rule is removed",
                        overlap.join(", ")
                    )));
                return None;
            }
            if !r.rhs.is_empty() {
                let cell_r = &r.rhs[j][c];
                if cell_r.iter().any(|t| t.0 == D::Ellipsis) {
                    rep.error(ps!(EllipsisUnmatched, r.span, "an ellipsis on the right must be matched by one in the corresponding place on the left"));
                }
                p.replace = replacement(
                    r,
                    &p,
                    &used_l,
                    &obj_layers_l,
                    cell_r,
                    names,
                    layers,
                    sm,
                    &layer_of,
                    &layer_mask,
                    discard.is_some(),
                    rep,
                    random,
                );
            }
            items.push(Item::Cell(Box::new(p)));
        }
        if count > 2 {
            rep.error(ps!(
                EllipsisMany,
                r.span,
                "you can't use more than two ellipses in a single cell match pattern"
            ));
            return None;
        }
        ellipses.push(count);
        rows.push(items);
    }
    if at_edge {
        return None;
    }
    let mut mask = vec![0; so];
    let mut moving = vec![0; sm];
    let mut any_masks: Vec<Vec<u64>> = vec![];
    for row in &rows {
        for it in row {
            if let Item::Cell(c) = it {
                for (a, b) in mask.iter_mut().zip(&c.present) {
                    *a |= b;
                }
                for (a, b) in moving.iter_mut().zip(&c.moving) {
                    *a |= b;
                }
                for a in &c.any {
                    if !any_masks.contains(a) {
                        any_masks.push(a.clone());
                    }
                }
            }
        }
    }
    let more = mask
        .iter()
        .skip(1)
        .chain(moving.iter().skip(1))
        .any(|&w| w != 0)
        || !any_masks.is_empty();
    let need = (
        mask.first().copied().unwrap_or(0),
        moving.first().copied().unwrap_or(0),
        more,
    );
    let anchors = rows.iter().map(|row| anchors(row, so)).collect();
    let later = rows.iter().map(|row| later_anchors(row, so)).collect();
    let code = code::rows(&rows, so, sm);
    let repeatable = !r.rigid && code.iter().all(|row| row.cells.iter().all(|c| !c.random));
    Some((
        Rule {
            repeatable,
            dir: r.dir.bit(),
            rows,
            ellipses,
            has_rhs: !r.rhs.is_empty(),
            line: r.line,
            rigid: r.rigid,
            commands: r.commands.clone(),
            random: r.random,
            more: (
                sparse(&mask, 1),
                sparse(&moving, 1),
                any_masks.iter().map(|a| sparse(a, 0)).collect(),
            ),
            mask,
            need,
            any_masks,
            anchors,
            later,
            code,
            slot: 0,
            deps: None,
        },
        discard,
    ))
}

/// What the cells of a row before its first ellipsis need present (those that need
/// anything).
fn anchors(row: &[Item], so: usize) -> Vec<Anchor> {
    let first = row.split(|it| *it == Item::Ellipsis).next().unwrap_or(&[]);
    segment_anchors(first, so)
}

/// [`anchors`] of the cells after the first and after the second ellipsis, each from
/// the first cell after its ellipsis (none without one).
fn later_anchors(row: &[Item], so: usize) -> [Vec<Anchor>; 2] {
    let mut segments = row.split(|it| *it == Item::Ellipsis).skip(1);
    let mut next = || segments.next().map_or(vec![], |s| segment_anchors(s, so));
    [next(), next()]
}

/// What the cells of `cells` (no ellipsis among them) need present, by offset.
fn segment_anchors(cells: &[Item], so: usize) -> Vec<Anchor> {
    let ids = |m: &[u64]| -> Vec<usize> { (0..so * 64).filter(|&i| has_bit(m, i)).collect() };
    cells
        .iter()
        .enumerate()
        .filter_map(|(offset, it)| {
            let Item::Cell(c) = it else { return None };
            let a = Anchor {
                offset,
                all: ids(&c.present),
                any: c.any.iter().map(|m| ids(m)).collect(),
                props: vec![],
                moving: !is_zero(&c.moving),
            };
            (!a.all.is_empty() || !a.any.is_empty() || a.moving).then_some(a)
        })
        .collect()
}

/// What a matched cell becomes, or `None` when the right-hand side changes nothing.
#[allow(clippy::too_many_arguments)]
fn replacement(
    r: &Raw,
    p: &CellPattern,
    used_l: &[Option<String>],
    obj_layers_l: &[u64],
    cell_r: &[(D, String)],
    names: &Names,
    layers: usize,
    sm: usize,
    layer_of: &dyn Fn(&str) -> Option<usize>,
    layer_mask: &dyn Fn(usize) -> Vec<u64>,
    discarded: bool,
    rep: &mut Report,
    random: &mut bool,
) -> Option<Replacement> {
    let so = names.so;
    let mut x = Replacement {
        clear: vec![0; so],
        set: vec![0; so],
        mov_clear: vec![0; sm],
        mov_set: vec![0; sm],
        mov_layers: vec![0; sm],
        random_entity: vec![0; so],
        random_dir: vec![0; sm],
    };
    let mut used_r: Vec<Option<String>> = vec![None; layers];
    let mut used_rand: Vec<Option<String>> = vec![None; layers];
    let mut obj_layers_r = vec![0u64; sm];
    let or = |a: &mut [u64], b: &[u64]| {
        for (x, y) in a.iter_mut().zip(b) {
            *x |= y;
        }
    };
    for (d, n) in cell_r {
        if *d == D::Ellipsis {
            break;
        }
        if *d == D::Random {
            *random = true;
            let objs = names.objects(n);
            or(&mut x.random_entity, &names.mask(&objs));
            if objs.len() == 1 {
                rep.warn(ps!(RandomSingle, r.span, format!("you're asking to spawn a random {} for you, but that's already a concrete single object", n.to_uppercase())));
            }
            for o in objs {
                if let Some(&i) = names.id.get(&o) {
                    used_rand[names.layer[i]] = Some(o);
                }
            }
            continue;
        }
        let Some(layer) = layer_of(n) else {
            rep.error(ps!(
                NameNoLayer,
                r.span,
                format!("{} is not assigned to a layer", n.to_uppercase())
            ));
            continue;
        };
        let mask = names.mask(&names.objects(n));
        if *d == D::No {
            or(&mut x.clear, &mask);
            continue;
        }
        if let Some(existing) = used_r[layer].as_ref().or(used_rand[layer].as_ref()) {
            if !discarded {
                rep.error(ps!(
                    CellOverlap,
                    r.span,
                    format!(
                        "rule matches object types that can't overlap: \"{}\" and \"{}\"",
                        n.to_uppercase(),
                        existing.to_uppercase()
                    )
                ));
            }
        }
        used_r[layer] = Some(n.clone());
        if *d != D::None {
            or_layer(&mut x.mov_layers, layer, LAYER_BITS);
        }
        if let Some(Meaning::Object(o)) = names.meaning.get(n) {
            if let Some(&id) = names.id.get(o) {
                set_bit(&mut x.set, id);
                or(&mut x.clear, &layer_mask(layer));
                or_layer(&mut obj_layers_r, layer, LAYER_BITS);
            }
        }
        match d {
            D::Stationary => or_layer(&mut x.mov_clear, layer, LAYER_BITS),
            D::RandomDir => {
                *random = true;
                or_layer(&mut x.random_dir, layer, 0b00101)
            }
            _ => or_layer(&mut x.mov_set, layer, d.bit()),
        }
    }
    if !all_in(&p.present, &x.set) {
        or(&mut x.clear, &p.present);
    }
    if !all_in(&p.moving, &x.mov_set) {
        or(&mut x.mov_clear, &p.moving);
    }
    for l in 0..layers {
        if used_l[l].is_some() && used_r[l].is_none() {
            or(&mut x.clear, &layer_mask(l));
            or_layer(&mut x.mov_layers, l, LAYER_BITS);
        }
    }
    for (w, (a, b)) in obj_layers_l.iter().zip(&obj_layers_r).enumerate() {
        x.mov_layers[w] |= a & !b;
    }
    let changes = !is_zero(&x.clear)
        || !is_zero(&x.set)
        || !is_zero(&x.mov_clear)
        || !is_zero(&x.mov_set)
        || !is_zero(&x.mov_layers)
        || !is_zero(&x.random_entity)
        || !is_zero(&x.random_dir);
    changes.then_some(x)
}
