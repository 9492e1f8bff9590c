//! Checks that only report: they change nothing the compiler builds. PuzzleScript's
//! own (backgrounds alone on a layer, aggregates of one layer, sound lines, colours of
//! the prelude, loop points inside a group, `no X` next to `X` on a right-hand side, a
//! game without levels) and what it does not say (rules and win conditions no level
//! can ever satisfy).

use std::collections::HashSet;

use super::{ps, Meaning, Names, Report};
use crate::puzzlescript::ast;
use crate::puzzlescript::ir::{has_bit, LevelEntry};
use crate::syntax::Span;

/// The checks on declarations, run once names and layers are known.
pub(super) fn declarations(game: &ast::Game, names: &Names, rep: &mut Report) {
    no_levels(game, rep);
    background_alone(game, rep);
    colors(game, rep);
    aggregates_overlap(game, names, rep);
    sounds(game, names, rep);
    rules(game, names, rep);
}

fn no_levels(game: &ast::Game, rep: &mut Report) {
    let any = game.levels.iter().any(|e| match e {
        ast::LevelEntry::Message(..) => true,
        ast::LevelEntry::Grid(g) => !g.rows.is_empty(),
    });
    if !any {
        let span = game
            .sections
            .iter()
            .find(|s| s.0 == ast::Section::Levels)
            .map(|s| s.1)
            .unwrap_or_default();
        rep.error(ps!(NoLevels, span, "No levels found. Add some levels!"));
    }
}

/// `Background` on a collision layer line with anything else.
fn background_alone(game: &ast::Game, rep: &mut Report) {
    for layer in &game.layers {
        if layer.names.len() < 2 {
            continue;
        }
        if let Some(b) = layer.names.iter().position(|n| n.text == "background") {
            // The name that shares the line: before Background, Background itself;
            // after it, the first name after it.
            let at = if b == 0 {
                layer.names[1].span
            } else {
                layer.names[b].span
            };
            rep.error(ps!(
                BackgroundLayer,
                at,
                "Background must be in a layer by itself."
            ));
        }
    }
}

/// A colour PuzzleScript reads in the prelude: a name of its palettes, or hex.
fn is_color(v: &str) -> bool {
    let v = v.trim().to_lowercase();
    if crate::puzzlescript::parse::COLOR_NAMES.contains(&v.as_str()) {
        return true;
    }
    v.strip_prefix('#')
        .is_some_and(|h| (h.len() == 3 || h.len() == 6) && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

const PALETTES: [&str; 14] = [
    "mastersystem",
    "gameboycolour",
    "amiga",
    "arnecolors",
    "famicom",
    "atari",
    "pastel",
    "ega",
    "proteus_mellow",
    "proteus_night",
    "proteus_rich",
    "amstrad",
    "c64",
    "whitingjp",
];

fn colors(game: &ast::Game, rep: &mut Report) {
    for o in &game.objects {
        if o.colors.len() > 10 {
            let span = o.colors[0].1.merge(o.colors[o.colors.len() - 1].1);
            rep.error(ps!(
                TooManyColors,
                span,
                format!(
                    "a sprite cannot have more than 10 colors ({} has {}).",
                    o.name.text.to_uppercase(),
                    o.colors.len()
                )
            ));
        }
    }
    for s in &game.prelude {
        let Some((v, span)) = &s.value else { continue };
        match s.key.text.as_str() {
            k @ ("text_color" | "background_color") if !is_color(v) => {
                let default = if k == "text_color" { "white" } else { "black" };
                rep.error(ps!(MetaColor, *span, format!("{k} in incorrect format - found {v}, but I expect a color name (like 'pink') or hex-formatted color (like '#1412FA'). Defaulting to {default}.")));
            }
            "color_palette" => {
                let p = v.trim().to_lowercase();
                let known = PALETTES.contains(&p.as_str())
                    || p.parse::<usize>().is_ok_and(|n| (1..=14).contains(&n));
                if !known {
                    rep.error(ps!(
                        PaletteUnknown,
                        *span,
                        format!("Palette \"{p}\" not found, defaulting to arnecolors.")
                    ));
                }
            }
            _ => {}
        }
    }
}

/// An aggregate two of whose objects are on one layer: no cell can hold it.
fn aggregates_overlap(game: &ast::Game, names: &Names, rep: &mut Report) {
    for e in &game.legend {
        // An aggregate of properties is an error of its own.
        if e.kind != ast::LegendKind::And || e.items.iter().any(|i| names.is_property(&i.text)) {
            continue;
        }
        let mut seen: Vec<(usize, String)> = vec![];
        'items: for it in &e.items {
            for o in names.objects(&it.text) {
                let Some(&id) = names.id.get(&o) else {
                    continue;
                };
                let layer = names.layer[id];
                if let Some((_, other)) = seen.iter().find(|(l, _)| *l == layer) {
                    rep.error(ps!(AggregateOverlap, it.span, format!("Trying to create an aggregate object (something defined in the LEGEND section using AND) with both \"{}\" and \"{}\", which are on the same layer and therefore can't coexist.", o.to_uppercase(), other.to_uppercase())));
                    break 'items;
                }
                seen.push((layer, o));
            }
        }
    }
}

const SOUND_EVENTS: [&str; 21] = [
    "undo",
    "restart",
    "titlescreen",
    "startgame",
    "cancel",
    "endgame",
    "startlevel",
    "endlevel",
    "showmessage",
    "closemessage",
    "sfx0",
    "sfx1",
    "sfx2",
    "sfx3",
    "sfx4",
    "sfx5",
    "sfx6",
    "sfx7",
    "sfx8",
    "sfx9",
    "sfx10",
];
const SOUND_VERBS: [&str; 5] = ["move", "action", "create", "destroy", "cantmove"];
const SOUND_DIRECTIONS: [&str; 7] = [
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
    "orthogonal",
];

/// The SOUNDS section: `EVENT SEED`, or `OBJECT VERB [DIRECTION ...] SEED`. One
/// problem per line, the first, as PuzzleScript reports it.
fn sounds(game: &ast::Game, names: &Names, rep: &mut Report) {
    let is_seed = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let mut events: HashSet<&str> = HashSet::new();
    for line in &game.sounds {
        let w = &line.words;
        let Some(first) = w.first() else { continue };
        let up = |n: &ast::Name| n.text.to_uppercase();
        if SOUND_EVENTS.contains(&first.text.as_str()) {
            match w.get(1) {
                None => rep.warn(ps!(
                    SoundShort,
                    first.span,
                    "incorrect sound declaration."
                )),
                Some(s) if !is_seed(&s.text) => rep.error(ps!(SoundSeed, s.span, "Was expecting a sound seed here (a number like 123123, like you generate by pressing the buttons above the console panel), but found something else.")),
                Some(s) => {
                    if let Some(x) = w.get(2) {
                        rep.error(ps!(SoundExtra, x.span, format!("I wasn't expecting anything after the sound declaration {} on this line, so I don't know what to do with \"{}\" here.", up(s), up(x))));
                    } else if !events.insert(first.text.as_str()) {
                        rep.warn(ps!(
                            SoundRepeated,
                            first.span,
                            format!("{} already declared.", up(first))
                        ));
                    }
                }
            }
            continue;
        }
        let Some(meaning) = names.meaning.get(&first.text) else {
            if first
                .text
                .starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                rep.error(ps!(
                    SoundToken,
                    first.span,
                    format!("unexpected sound token \"{}\".", first.text)
                ));
            }
            continue;
        };
        let Some(verb) = w.get(1) else {
            rep.warn(ps!(SoundShort, first.span, "incorrect sound declaration."));
            continue;
        };
        if !SOUND_VERBS.contains(&verb.text.as_str()) {
            rep.error(ps!(SoundVerb, verb.span, "Was expecting a soundverb here (MOVE, DESTROY, CANTMOVE, or the like), but found something else."));
            continue;
        }
        let directional = matches!(verb.text.as_str(), "move" | "cantmove");
        let mut seed = None;
        let mut bad = false;
        let mut prev = verb;
        for x in &w[2..] {
            if let Some(s) = seed {
                rep.error(ps!(SoundExtra, x.span, format!("I wasn't expecting anything after the sound declaration {} on this line, so I don't know what to do with \"{}\" here.", up(s), up(x))));
                bad = true;
                break;
            }
            if is_seed(&x.text) {
                seed = Some(x);
            } else if directional && SOUND_DIRECTIONS.contains(&x.text.as_str()) {
                prev = x;
            } else {
                let what = if directional {
                    "direction or a sound seed"
                } else {
                    "a sound seed"
                };
                rep.error(ps!(
                    SoundDirection,
                    x.span,
                    format!(
                        "Ah I was expecting {what} here after {}, but I don't know what to make of \"{}\".",
                        up(prev),
                        up(x)
                    )
                ));
                bad = true;
                break;
            }
        }
        if bad {
            continue;
        }
        if seed.is_none() {
            let last = w.last().unwrap_or(first);
            rep.error(ps!(
                SoundData,
                last.span,
                format!("Expecting sfx data, instead found \"{}\".", last.text)
            ));
        }
        if matches!(meaning, Meaning::Aggregate(_)) {
            rep.error(ps!(SoundAggregate, first.span, format!("cannot assign sound events to aggregate objects (declared with \"and\"), only to regular objects, or properties, things defined in terms of \"or\" (\"{}\").", first.text)));
        }
    }
}

/// Rule lines: loop points inside a group, and `no X` beside `X` on a right-hand side.
fn rules(game: &ast::Game, names: &Names, rep: &mut Report) {
    let mut rule_before = false;
    let mut markers: Vec<Span> = vec![];
    for line in &game.rules {
        match line {
            ast::RuleLine::StartLoop(s) | ast::RuleLine::EndLoop(s) => markers.push(*s),
            ast::RuleLine::Rule(r) => {
                let plus = r.prefixes.iter().any(|p| p.0 == ast::Prefix::Plus);
                if plus && rule_before {
                    for m in markers.drain(..) {
                        rep.error(ps!(LoopMidGroup, m, "Found a loop point in the middle of a rule. You probably don't want to do this, right?"));
                    }
                }
                markers.clear();
                rule_before = true;
                no_beside_present(r, names, rep);
            }
        }
    }
}

fn no_beside_present(r: &ast::Rule, names: &Names, rep: &mut Report) {
    for row in &r.rhs {
        for cell in &row.cells {
            let ast::Cell::Terms(terms, _) = cell else {
                continue;
            };
            let present: Vec<&str> = terms
                .iter()
                .filter(|t| t.no.is_none())
                .filter_map(|t| match names.meaning.get(&t.name.text) {
                    Some(Meaning::Object(o)) if *o == t.name.text => Some(o.as_str()),
                    _ => None,
                })
                .collect();
            for t in terms.iter().filter(|t| t.no.is_some()) {
                if matches!(
                    names.meaning.get(&t.name.text),
                    Some(Meaning::Aggregate(_)) | None
                ) {
                    continue;
                }
                let excluded = names.objects(&t.name.text);
                if present.iter().any(|p| excluded.iter().any(|e| e == p)) {
                    let listed: Vec<String> = present.iter().map(|p| p.to_uppercase()).collect();
                    rep.error(ps!(RuleNoPresent, t.span, format!("You have specified that there should be NO {} but there is also a requirement that {} be here. This is a mistake right?", t.name.text.to_uppercase(), listed.join(", "))));
                    return;
                }
            }
        }
    }
}

/// Rules and win conditions that no level can ever satisfy: they need an object that
/// no level contains and no rule's right-hand side names. Only run on a game without
/// errors, so the levels are whole.
pub(super) fn reachability(
    game: &ast::Game,
    names: &Names,
    levels: &[LevelEntry],
    so: usize,
    rep: &mut Report,
) {
    if !rep.errors.is_empty() {
        return;
    }
    let mut have = vec![false; names.names.len()];
    let mut any_level = false;
    for e in levels {
        if let LevelEntry::Level(l) = e {
            any_level = true;
            for c in l.cells.chunks(so) {
                for (i, h) in have.iter_mut().enumerate() {
                    *h = *h || has_bit(c, i);
                }
            }
        }
    }
    if !any_level {
        return;
    }
    for line in &game.rules {
        let ast::RuleLine::Rule(r) = line else {
            continue;
        };
        for row in &r.rhs {
            for cell in &row.cells {
                if let ast::Cell::Terms(terms, _) = cell {
                    for t in terms.iter().filter(|t| t.no.is_none()) {
                        for o in names.objects(&t.name.text) {
                            if let Some(&i) = names.id.get(&o) {
                                have[i] = true;
                            }
                        }
                    }
                }
            }
        }
    }
    // A name no level can hold: an object missing, every object of a property
    // missing, any object of an aggregate missing.
    let missing = |name: &str| -> Option<String> {
        let objs = names.objects(name);
        let gone = |o: &String| names.id.get(o).is_some_and(|&i| !have[i]);
        match names.meaning.get(name)? {
            Meaning::Property(_) => objs.iter().all(gone).then(|| name.to_string()),
            _ => objs.iter().find(|o| gone(o)).cloned(),
        }
    };
    for line in &game.rules {
        let ast::RuleLine::Rule(r) = line else {
            continue;
        };
        'rule: for row in &r.lhs {
            for cell in &row.cells {
                if let ast::Cell::Terms(terms, _) = cell {
                    for t in terms.iter().filter(|t| t.no.is_none()) {
                        if let Some(o) = missing(&t.name.text) {
                            rep.warn(ps!(RuleUnreachable, t.span, format!("This rule can never match: it needs {}, which no level contains and no rule creates.", o.to_uppercase())));
                            break 'rule;
                        }
                    }
                }
            }
        }
    }
    for w in &game.wins {
        if w.quantifier.0 != ast::Quantifier::Some {
            continue;
        }
        for n in std::iter::once(&w.what).chain(w.on.as_ref()) {
            if let Some(o) = missing(&n.text) {
                rep.warn(ps!(WinUnreachable, n.span, format!("This win condition can never be met: it needs {}, which no level contains and no rule creates.", o.to_uppercase())));
                break;
            }
        }
    }
}

/// A game no level of which can be won: PuzzleScript wins a level when a rule queues
/// `win` or when every win condition holds, and with no win conditions it never checks
/// them (the search proves such levels unsolvable at once; this says why up front).
pub(super) fn never_won(game: &ast::Game, rep: &mut Report) {
    let queues_win = game.rules.iter().any(|l| {
        matches!(l, ast::RuleLine::Rule(r)
            if r.commands.iter().any(|(c, _)| matches!(c, ast::Command::Win)))
    });
    if !game.wins.is_empty() || queues_win || !rep.errors.is_empty() {
        return;
    }
    let span = game
        .sections
        .iter()
        .find(|s| s.0 == ast::Section::WinConditions)
        .or_else(|| game.sections.iter().find(|s| s.0 == ast::Section::Levels))
        .map(|s| s.1)
        .unwrap_or_default();
    rep.warn(ps!(
        NeverWon,
        span,
        "This game can never be won: it has no win conditions, and no rule queues `win`."
    ));
}
