//! From the syntax tree to the compiled game: names (objects, synonyms, properties,
//! aggregates), collision layers and object ids, levels as bitsets, win conditions,
//! and the rules (`rules.rs` expands them into concrete directions and objects,
//! `masks.rs` turns them into bitmask patterns).

mod checks;
mod code;
mod masks;
mod rules;

use std::collections::HashMap;

use super::ast;
use super::ir::*;
use crate::diagnostics::PsProblem;
use crate::syntax::Span;

/// What a name means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Meaning {
    /// An object (by its canonical name).
    Object(String),
    /// A property: any one of these objects.
    Property(Vec<String>),
    /// An aggregate: all of these objects.
    Aggregate(Vec<String>),
}

/// The names of a game and what they mean.
#[derive(Debug, Default)]
pub(crate) struct Names {
    /// Every declared name.
    pub meaning: HashMap<String, Meaning>,
    /// Object name to id (after layers are assigned).
    pub id: HashMap<String, usize>,
    /// Object id to layer.
    pub layer: Vec<usize>,
    /// Words of object bits.
    pub so: usize,
    /// Object id to name.
    pub names: Vec<String>,
}

impl Names {
    /// The objects a name stands for (one for an object).
    pub fn objects(&self, name: &str) -> Vec<String> {
        match self.meaning.get(name) {
            Some(Meaning::Object(o)) => vec![o.clone()],
            Some(Meaning::Property(v)) | Some(Meaning::Aggregate(v)) => v.clone(),
            None => vec![],
        }
    }

    /// The mask of a list of objects.
    pub fn mask(&self, objects: &[String]) -> Vec<u64> {
        let mut m = vec![0; self.so];
        for o in objects {
            if let Some(&i) = self.id.get(o) {
                set_bit(&mut m, i);
            }
        }
        m
    }

    /// Whether `name` is a property.
    pub fn is_property(&self, name: &str) -> bool {
        matches!(self.meaning.get(name), Some(Meaning::Property(_)))
    }

    /// The single layer all of a property's objects are on, if they share one.
    pub fn single_layer(&self, name: &str) -> Option<usize> {
        let objs = self.objects(name);
        let mut layer = None;
        for o in &objs {
            let l = self.layer[*self.id.get(o)?];
            match layer {
                None => layer = Some(l),
                Some(x) if x != l => return None,
                _ => {}
            }
        }
        layer
    }
}

/// Problems found so far.
#[derive(Default)]
pub(crate) struct Report {
    pub errors: Vec<PsProblem>,
    pub warnings: Vec<PsProblem>,
}

impl Report {
    /// An error: PuzzleScript's compiler refuses the game too.
    pub fn error(&mut self, p: PsProblem) {
        self.errors.push(p);
    }
    /// A warning: the game still loads.
    pub fn warn(&mut self, p: PsProblem) {
        self.warnings.push(p);
    }
}

/// A compile problem of kind `$v` at `$span` saying `$what`.
macro_rules! ps {
    ($v:ident, $span:expr, $what:expr) => {
        $crate::diagnostics::PsProblem::$v {
            span: $crate::syntax::Span::into($span),
            what: ($what).into(),
        }
    };
}
pub(crate) use ps;

/// Compiles a parsed game, with the problems found. With errors, the game is what
/// PuzzleScript's compiler makes of it: the offending lines are left out.
pub(crate) fn compile(game: &ast::Game, text: &str) -> (Compiled, Report) {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |s: Span| match line_starts.binary_search(&(s.start as usize)) {
        Ok(i) => i + 1,
        Err(i) => i,
    };
    let mut rep = Report::default();
    let flags = prelude(game, &mut rep);
    let mut names = declare(game, &mut rep);
    let (layer_of, ids) = assign_layers(game, &names, &mut rep);
    let nobj = ids.len();
    let so = nobj.div_ceil(64).max(1);
    names.so = so;
    names.names = ids.clone();
    names.layer = ids.iter().map(|n| layer_of[n]).collect();
    names.id = ids
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i))
        .collect();
    let layers = game.layers.len();
    let sm = layers.div_ceil(LAYERS_PER_WORD).max(1);
    let mut layer_masks = vec![0; layers.max(1) * so];
    for (i, &l) in names.layer.iter().enumerate() {
        set_bit(&mut layer_masks[l * so..(l + 1) * so], i);
    }
    for o in &game.objects {
        if !layer_of.contains_key(&o.name.text) && names.meaning.contains_key(&o.name.text) {
            rep.error(ps!(
                ObjectNoLayer,
                o.name.span,
                format!(
                    "object `{}` is on no collision layer",
                    o.name.text.to_uppercase()
                )
            ));
        }
    }
    let objects: Vec<ObjectInfo> = ids
        .iter()
        .map(|n| {
            let o = game.objects.iter().find(|o| &o.name.text == n);
            ObjectInfo {
                name: n.clone(),
                layer: layer_of[n],
                colors: o
                    .map(|o| o.colors.iter().map(|c| c.0.clone()).collect())
                    .unwrap_or_default(),
                sprite: o.map(|o| o.sprite.clone()).unwrap_or_default(),
            }
        })
        .collect();

    checks::declarations(game, &names, &mut rep);
    let background = background(game, &names, &mut rep);
    let player = match names.meaning.get("player") {
        Some(m) => {
            let aggregate = matches!(m, Meaning::Aggregate(_));
            (names.mask(&names.objects("player")), aggregate)
        }
        None => {
            rep.error(ps!(PlayerMissing, Span::new(0, 0), "there is no `player`"));
            (vec![0; so], false)
        }
    };
    let levels = levels(game, &names, &layer_masks, so, background, &mut rep);
    let wins = wins(game, &names, &mut rep);
    let mut random = false;
    let (groups, late_groups, loops) =
        rules::compile(game, &line_of, &names, layers, sm, &mut rep, &mut random);
    checks::reachability(game, &names, &levels, so, &mut rep);
    checks::never_won(game, &mut rep);
    let loop_point = loop_points(&groups, &loops);
    let late_loop_point = loop_points(&late_groups, &loops);
    let mut rigid_groups = vec![];
    let (mut groups, mut late_groups) = (groups, late_groups);
    // Every property an anchor names, numbered once for the game.
    let mut props: Vec<Vec<usize>> = vec![];
    let mut slots = 0;
    for g in groups.iter_mut().chain(late_groups.iter_mut()) {
        for r in g.rules.iter_mut() {
            r.slot = slots;
            slots += 1;
            r.deps = rule_deps(r);
        }
        for a in g.rules.iter_mut().flat_map(|r| {
            let later = r.later.iter_mut().flatten().flatten();
            r.anchors.iter_mut().flatten().chain(later)
        }) {
            a.props = (a.any.iter())
                .map(|ids| match props.iter().position(|p| p == ids) {
                    Some(k) => k as u32,
                    None => {
                        props.push(ids.clone());
                        (props.len() - 1) as u32
                    }
                })
                .collect();
        }
    }
    let groups_needing = (0..nobj)
        .map(|o| {
            let needs = |r: &Rule| has_bit(&r.mask, o) || r.any_masks.iter().any(|a| has_bit(a, o));
            (groups.iter().chain(&late_groups).enumerate())
                .filter(|(_, g)| g.rules.iter().any(needs))
                .map(|(k, _)| k)
                .collect()
        })
        .collect();
    for (gi, g) in groups.iter_mut().enumerate() {
        if g.rules.iter().any(|r| r.rigid) {
            rigid_groups.push(gi);
            g.rigid = Some(rigid_groups.len() as u32);
        }
    }
    for g in late_groups.iter_mut().chain(groups.iter_mut()) {
        g.footprint = footprint(g, so, nobj);
        g.still = g.footprint.as_ref().map(|_| {
            let mut still = vec![0u64; sm];
            for p in g.rules.iter().flat_map(|r| r.rows.iter().flatten()) {
                let Item::Cell(p) = p else { continue };
                let x = p.replace.iter().flat_map(|x| [&x.mov_clear, &x.mov_layers]);
                for m in std::iter::once(&p.still).chain(x) {
                    for (a, &b) in still.iter_mut().zip(m) {
                        *a |= b;
                    }
                }
            }
            still
        });
    }
    let mut blocks = vec![];
    find_blocks(&mut groups, &loop_point, sm, &mut blocks);
    find_blocks(&mut late_groups, &late_loop_point, sm, &mut blocks);
    if rigid_groups.len() > 30 {
        rep.error(ps!(
            RigidGroups,
            Span::new(0, 0),
            "there can't be more than 30 rigid groups (rule groups containing rigid members)"
        ));
    }
    (
        Compiled {
            objects,
            layers,
            so,
            sm,
            layer_masks,
            player_ids: (0..nobj).filter(|&i| has_bit(&player.0, i)).collect(),
            player,
            groups,
            late_groups,
            loop_point,
            late_loop_point,
            blocks,
            rigid_groups,
            props: props.len(),
            groups_needing,
            wins,
            levels,
            flags,
            random,
            glyphs: glyphs(game, text, &names),
            background_layer: background.map(|(_, l)| l),
        },
        rep,
    )
}

/// The objects a late group's run depends on and changes, when its result is a function
/// of their cells alone: then the engine may replay a run it remembers instead of
/// matching the rules again (`Machine::apply_rules`).
///
/// A late group runs with no movement on the board (movements are cleared before the
/// late rules), and its rules find matches by testing objects present, absent or one of
/// a property, all named in their patterns; they write objects named in their
/// replacements, which clear the layers of the objects they write. So when no
/// rule tests or gives a movement (then movement stays absent), none is random and none
/// queues a command (its effect is the objects alone), the objects named anywhere in its
/// rules, with the layers of those written, decide the run and hold all it changes.
/// The same holds of a group before the late phase while no cell holds a movement its
/// rules require absent or clear (`Group::still`: a write of objects leaves movement as
/// it is, but for these): the engine checks that before replaying it (`engine/late.rs`).
/// A rigid group has no footprint (a rigid rule records what it moved).
fn footprint(g: &Group, so: usize, nobj: usize) -> Option<Vec<u32>> {
    if g.random || g.rigid.is_some() {
        return None;
    }
    let mut mask = vec![0u64; so];
    let or = |mask: &mut Vec<u64>, m: &[u64]| {
        for (a, &b) in mask.iter_mut().zip(m) {
            *a |= b;
        }
    };
    for r in &g.rules {
        if !r.commands.is_empty() {
            return None;
        }
        for item in r.rows.iter().flatten() {
            let Item::Cell(p) = item else { continue };
            if !is_zero(&p.moving) {
                return None;
            }
            or(&mut mask, &p.present);
            or(&mut mask, &p.missing);
            for a in &p.any {
                or(&mut mask, a);
            }
            if let Some(x) = &p.replace {
                if !is_zero(&x.mov_set) || !is_zero(&x.random_entity) || !is_zero(&x.random_dir) {
                    return None;
                }
                // `clear` holds the layers of the objects written (`masks.rs`).
                or(&mut mask, &x.clear);
                or(&mut mask, &x.set);
            }
        }
    }
    Some(
        (0..nobj)
            .filter(|&o| has_bit(&mask, o))
            .map(|o| o as u32)
            .collect(),
    )
}

/// The one-character names that stand for objects or aggregates (what a level may be
/// drawn with), each with its objects and the character as the source writes it: those
/// the levels use first, in order of use, then the rest in legend order.
fn glyphs(game: &ast::Game, text: &str, names: &Names) -> Vec<(char, Vec<u64>)> {
    let mut order: Vec<char> = vec![];
    let mut push = |c: char| {
        if !order.contains(&c) {
            order.push(c);
        }
    };
    for e in &game.levels {
        if let ast::LevelEntry::Grid(g) = e {
            for (_, span) in &g.rows {
                let raw = text
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("");
                raw.trim().chars().for_each(&mut push);
            }
        }
    }
    for l in &game.legend {
        let raw = text
            .get(l.name.span.start as usize..l.name.span.end as usize)
            .unwrap_or("");
        raw.chars().for_each(&mut push);
    }
    for o in &game.objects {
        for n in std::iter::once(&o.name).chain(&o.synonyms) {
            let raw = text
                .get(n.span.start as usize..n.span.end as usize)
                .unwrap_or("");
            if raw.chars().count() == 1 {
                raw.chars().for_each(&mut push);
            }
        }
    }
    let mut out: Vec<(char, Vec<u64>)> = vec![];
    for c in order {
        let key: String = c.to_lowercase().collect();
        if key.chars().count() != 1
            || out
                .iter()
                .any(|(o, _)| o.to_lowercase().eq(c.to_lowercase()))
        {
            continue;
        }
        let mask = match names.meaning.get(&key) {
            Some(Meaning::Object(o)) => names.mask(std::slice::from_ref(o)),
            Some(Meaning::Aggregate(v)) => names.mask(v),
            _ => continue,
        };
        out.push((c, mask));
    }
    out
}

/// The prelude's flags.
fn prelude(game: &ast::Game, _rep: &mut Report) -> Flags {
    let mut f = Flags::default();
    for s in &game.prelude {
        let v = s.value.as_ref().map(|v| v.0.clone());
        match s.key.text.as_str() {
            "noaction" => f.noaction = true,
            "noundo" => f.noundo = true,
            "norestart" => f.norestart = true,
            "require_player_movement" => f.require_player_movement = true,
            "run_rules_on_level_start" => f.run_rules_on_level_start = true,
            "realtime_interval" => f.realtime_interval = v,
            "title" => f.title = v,
            "author" => f.author = v,
            "background_color" => f.background_color = v,
            "text_color" => f.text_color = v,
            _ => {}
        }
    }
    f
}

/// Every name: objects, their line synonyms, and the legend.
fn declare(game: &ast::Game, rep: &mut Report) -> Names {
    let mut names = Names::default();
    let mut spans: HashMap<String, Span> = HashMap::new();
    for o in &game.objects {
        let n = &o.name.text;
        if let Some(&first) = spans.get(n) {
            let _ = first;
            rep.error(ps!(
                ObjectDuplicate,
                o.name.span,
                format!("object `{}` defined multiple times", n.to_uppercase())
            ));
            continue;
        }
        spans.insert(n.clone(), o.name.span);
        names.meaning.insert(n.clone(), Meaning::Object(n.clone()));
    }
    // Synonyms from the objects' name lines, then the legend, in order.
    let mut entries: Vec<(ast::Name, ast::LegendKind, Vec<ast::Name>, Span)> = vec![];
    for o in &game.objects {
        for s in &o.synonyms {
            entries.push((
                s.clone(),
                ast::LegendKind::Alias,
                vec![o.name.clone()],
                s.span,
            ));
        }
    }
    for e in &game.legend {
        entries.push((e.name.clone(), e.kind, e.items.clone(), e.span));
    }
    for (name, kind, items, span) in entries {
        let n = name.text.clone();
        if names.meaning.contains_key(&n) {
            rep.error(ps!(
                DuplicateName,
                name.span,
                format!("name `{}` already in use", n.to_uppercase())
            ));
            continue;
        }
        let mut ok = true;
        let mut objects: Vec<String> = vec![];
        let mut first: Option<Meaning> = None;
        for it in &items {
            if it.text == n {
                rep.error(ps!(
                    LegendSelf,
                    it.span,
                    format!(
                        "you can't define object {} in terms of itself",
                        n.to_uppercase()
                    )
                ));
                ok = false;
                continue;
            }
            let Some(m) = names.meaning.get(&it.text).cloned() else {
                rep.errors.push(PsProblem::UnknownName {
                    span: it.span.into(),
                    name: it.text.clone(),
                    help: crate::diagnostics::did_you_mean(
                        &it.text,
                        names.meaning.keys().map(String::as_str),
                    ),
                });
                ok = false;
                continue;
            };
            match (kind, &m) {
                (ast::LegendKind::Or, Meaning::Aggregate(_)) => {
                    rep.error(ps!(LegendOrAggregate, it.span, format!(
                            "cannot define a property (something defined in terms of 'or') in terms of an aggregate (something that uses 'and'): you can't define `{}` in terms of `{}`",
                            n.to_uppercase(),
                            it.text.to_uppercase()
                        )));
                    ok = false;
                }
                (ast::LegendKind::And, Meaning::Property(_)) => {
                    rep.error(ps!(LegendAndProperty, it.span, "cannot define an aggregate (using 'and') in terms of properties (something that uses 'or')"));
                    ok = false;
                }
                _ => {}
            }
            let objs = match &m {
                Meaning::Object(o) => vec![o.clone()],
                Meaning::Property(v) | Meaning::Aggregate(v) => v.clone(),
            };
            for o in objs {
                if !objects.contains(&o) {
                    objects.push(o);
                }
            }
            if first.is_none() {
                first = Some(m);
            }
        }
        let _ = span;
        if !ok {
            continue;
        }
        let meaning = match kind {
            ast::LegendKind::Alias => match first {
                Some(m) => m,
                None => continue,
            },
            ast::LegendKind::Or => Meaning::Property(objects),
            ast::LegendKind::And => Meaning::Aggregate(objects),
        };
        names.meaning.insert(n, meaning);
    }
    names
}

/// Each object's layer, and the object ids in layer order.
fn assign_layers(
    game: &ast::Game,
    names: &Names,
    rep: &mut Report,
) -> (HashMap<String, usize>, Vec<String>) {
    let mut layer_of: HashMap<String, usize> = HashMap::new();
    let mut ids: Vec<String> = vec![];
    for (li, layer) in game.layers.iter().enumerate() {
        for n in &layer.names {
            let objs = match names.meaning.get(&n.text) {
                Some(Meaning::Object(o)) => vec![o.clone()],
                Some(Meaning::Property(v)) => v.clone(),
                Some(Meaning::Aggregate(_)) => {
                    rep.error(ps!(LayerAggregate, n.span, format!("`{}` is an aggregate (defined using \"and\"), and cannot be added to a single layer because its constituent objects must be able to coexist", n.text.to_uppercase())));
                    continue;
                }
                None => {
                    rep.errors.push(PsProblem::UnknownName {
                        span: n.span.into(),
                        name: n.text.clone(),
                        help: crate::diagnostics::did_you_mean(
                            &n.text,
                            names.meaning.keys().map(String::as_str),
                        ),
                    });
                    continue;
                }
            };
            for o in objs {
                if let Some(&prev) = layer_of.get(&o) {
                    if prev != li {
                        rep.warn(ps!(MultipleLayers, n.span, format!(
                                "object `{}` included in multiple collision layers (layers #{} and #{})",
                                o.to_uppercase(),
                                prev + 1,
                                li + 1
                            )));
                    }
                    ids.retain(|x| x != &o);
                }
                layer_of.insert(o.clone(), li);
                ids.push(o);
            }
        }
    }
    // Ids in layer order (an object moved to a later layer takes its place there).
    ids.sort_by_key(|o| layer_of[o]);
    (layer_of, ids)
}

/// The background object id and layer.
fn background(game: &ast::Game, names: &Names, rep: &mut Report) -> Option<(usize, usize)> {
    let objs = names.objects("background");
    let first = objs.first().and_then(|o| names.id.get(o)).copied();
    match (names.meaning.get("background"), first) {
        (Some(Meaning::Aggregate(_)), _) => {
            rep.error(ps!(BackgroundAggregate, Span::new(0, 0), "background cannot be an aggregate (declared with 'and'): it has to be an object, or a property (declared in terms of others using 'or')"));
            None
        }
        (Some(_), Some(id)) => {
            let layer = names.layer[id];
            for o in &objs {
                if let Some(&i) = names.id.get(o) {
                    if names.layer[i] != layer {
                        rep.error(ps!(
                            BackgroundLayers,
                            Span::new(0, 0),
                            "background objects must be on the same layer"
                        ));
                        break;
                    }
                }
            }
            Some((id, layer))
        }
        _ => {
            let span = game
                .sections
                .iter()
                .find(|s| s.0 == ast::Section::Objects)
                .map(|s| s.1)
                .unwrap_or_default();
            rep.error(ps!(
                BackgroundMissing,
                span,
                "you have to define something to be the background"
            ));
            None
        }
    }
}

/// The levels as bitsets.
fn levels(
    game: &ast::Game,
    names: &Names,
    layer_masks: &[u64],
    so: usize,
    background: Option<(usize, usize)>,
    rep: &mut Report,
) -> Vec<LevelEntry> {
    let mut out = vec![];
    let mut glyphs: HashMap<char, Option<Vec<u64>>> = HashMap::new();
    for e in &game.levels {
        match e {
            ast::LevelEntry::Message(m, _) => out.push(LevelEntry::Message(m.clone())),
            ast::LevelEntry::Grid(g) => {
                let Some(first) = g.rows.first() else {
                    continue;
                };
                let width = first.0.len();
                let height = g.rows.len();
                let mut cells = vec![0u64; width * height * so];
                let mut bad = false;
                for (y, (row, span)) in g.rows.iter().enumerate() {
                    for x in 0..width {
                        let Some(&ch) = row.get(x).or(row.last()) else {
                            continue;
                        };
                        let mask = glyphs
                            .entry(ch)
                            .or_insert_with(|| match names.meaning.get(&ch.to_string()) {
                                Some(Meaning::Object(o)) => {
                                    Some(names.mask(std::slice::from_ref(o)))
                                }
                                Some(Meaning::Aggregate(v)) => Some(names.mask(v)),
                                _ => None,
                            })
                            .clone();
                        match mask {
                            Some(m) => {
                                let at = (x * height + y) * so;
                                cells[at..at + so].copy_from_slice(&m);
                            }
                            None => {
                                if !bad {
                                    let property = names.is_property(&ch.to_string());
                                    let col =
                                        row.iter().take(x).map(|c| c.len_utf8()).sum::<usize>();
                                    let start = span.start as usize + col;
                                    let sp = Span::new(start, start + ch.len_utf8());
                                    if property {
                                        rep.error(ps!(PropertyInMap, sp, format!("symbol `{ch}` is defined using OR, and therefore ambiguous: it cannot be used in a map")));
                                    } else {
                                        rep.errors.push(PsProblem::UnknownGlyph {
                                            span: sp.into(),
                                            glyph: ch,
                                        });
                                    }
                                }
                                bad = true;
                            }
                        }
                    }
                }
                if let Some((bid, blayer)) = background {
                    let bmask = &layer_masks[blayer * so..(blayer + 1) * so];
                    let n = width * height;
                    let mut fill = vec![0u64; so];
                    set_bit(&mut fill, bid);
                    for i in 0..n {
                        let c = &cells[i * so..(i + 1) * so];
                        if any_common(c, bmask) {
                            fill = c.iter().zip(bmask).map(|(a, b)| a & b).collect();
                            break;
                        }
                    }
                    for i in 0..n {
                        let c = &mut cells[i * so..(i + 1) * so];
                        if !any_common(c, bmask) {
                            for (a, b) in c.iter_mut().zip(&fill) {
                                *a |= b;
                            }
                        }
                    }
                }
                out.push(LevelEntry::Level(LevelData {
                    width,
                    height,
                    cells,
                }));
            }
        }
    }
    out
}

/// The win conditions as masks.
fn wins(game: &ast::Game, names: &Names, rep: &mut Report) -> Vec<WinCond> {
    let mut out = vec![];
    let lookup = |n: &ast::Name, rep: &mut Report| -> Option<(Vec<u64>, bool)> {
        match names.meaning.get(&n.text) {
            Some(Meaning::Aggregate(v)) => Some((names.mask(v), true)),
            Some(_) => Some((names.mask(&names.objects(&n.text)), false)),
            None => {
                rep.errors.push(PsProblem::UnknownName {
                    span: n.span.into(),
                    name: n.text.clone(),
                    help: crate::diagnostics::did_you_mean(
                        &n.text,
                        names.meaning.keys().map(String::as_str),
                    ),
                });
                None
            }
        }
    };
    for w in &game.wins {
        let q = match w.quantifier.0 {
            ast::Quantifier::No => -1,
            ast::Quantifier::Some => 0,
            ast::Quantifier::All => 1,
        };
        let Some(what) = lookup(&w.what, rep) else {
            continue;
        };
        let on = match &w.on {
            Some(n) => match lookup(n, rep) {
                Some(m) => m,
                None => continue,
            },
            None => (vec![u64::MAX; names.so], false),
        };
        // Without `on` (all objects, any of them), or with one that every cell holding
        // `what` meets.
        let on_implied = !on.1 && !is_zero(&what.0) && all_in(&what.0, &on.0);
        let deps = (0..names.names.len())
            .filter(|&o| has_bit(&what.0, o) || (!on_implied && has_bit(&on.0, o)))
            .map(|o| o as u32)
            .collect();
        out.push(WinCond {
            quantifier: q,
            what,
            on,
            on_implied,
            deps,
        });
    }
    out
}

/// Loop points: for the last group of each `startloop` ... `endloop`, the first.
fn loop_points(groups: &[Group], loops: &[(usize, bool)]) -> Vec<Option<usize>> {
    let mut point = vec![None; groups.len()];
    let mut i = 0;
    while i + 1 < loops.len() {
        let (start, end) = (loops[i].0, loops[i + 1].0);
        let mut first = None;
        for (gi, g) in groups.iter().enumerate() {
            let line = g.line;
            if line > end {
                break;
            }
            if start <= line {
                let f = *first.get_or_insert(gi);
                if gi > 0 && point[gi - 1] == Some(f) {
                    point[gi - 1] = None;
                }
                point[gi] = Some(f);
            }
        }
        i += 2;
    }
    point
}

/// Most blocks a game keeps (a hostile game with thousands of groups in one run keeps
/// the first ones).
const MAX_BLOCKS: usize = 4096;

/// The blocks of `groups` (one phase; `points` its loop points), appended to `blocks`:
/// in every run of consecutive groups with footprints and outside loops, one block
/// from each group but the last to the run's end. A block whose movements are on the
/// board may so give way to one starting a group later (dreizack deletes magnets with
/// teleports, on the player's layer, just before it redraws its shores).
fn find_blocks(groups: &mut [Group], points: &[Option<usize>], sm: usize, blocks: &mut Vec<Block>) {
    let mut in_loop = vec![false; groups.len()];
    for (end, p) in points.iter().enumerate() {
        if let Some(p) = *p {
            in_loop[p..=end].iter_mut().for_each(|x| *x = true);
        }
    }
    let free = |g: &Group, k: usize| !in_loop[k] && g.footprint.is_some();
    let mut last = groups.len();
    let mut footprint: Vec<u32> = vec![];
    let mut still = vec![0u64; sm];
    for gi in (0..groups.len()).rev() {
        if !free(&groups[gi], gi) {
            last = groups.len();
            continue;
        }
        if last == groups.len() {
            last = gi;
            footprint.clear();
            still.fill(0);
        }
        let g = &mut groups[gi];
        footprint.extend(g.footprint.iter().flatten());
        footprint.sort_unstable();
        footprint.dedup();
        for (a, &b) in still.iter_mut().zip(g.still.iter().flatten()) {
            *a |= b;
        }
        if last > gi && blocks.len() < MAX_BLOCKS {
            g.block = Some(blocks.len() as u32);
            blocks.push(Block {
                last,
                footprint: footprint.clone(),
                still: still.clone(),
            });
        }
    }
}

/// The objects a rule's patterns test, when they test no movement ([`Rule::deps`]).
fn rule_deps(r: &Rule) -> Option<Vec<u32>> {
    let mut all: Vec<u64> = vec![];
    let mut add = |m: &[u64]| {
        if all.len() < m.len() {
            all.resize(m.len(), 0);
        }
        for (a, b) in all.iter_mut().zip(m) {
            *a |= b;
        }
    };
    for p in r.rows.iter().flatten().filter_map(|it| match it {
        Item::Cell(p) => Some(p),
        Item::Ellipsis => None,
    }) {
        if !is_zero(&p.moving) || !is_zero(&p.still) {
            return None;
        }
        add(&p.present);
        add(&p.missing);
        for a in &p.any {
            add(a);
        }
    }
    Some(
        (0..all.len() * 64)
            .filter(|&o| has_bit(&all, o))
            .map(|o| o as u32)
            .collect(),
    )
}
