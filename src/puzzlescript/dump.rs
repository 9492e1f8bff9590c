//! `puz compile --dump` on a game: what the compiler made of it, readable. Rules are
//! listed as the engine runs them: expanded into one concrete rule per direction and
//! object, `up`/`left` rules scanned as `down`/`right` with their cells reversed, each
//! cell as what it requires and what it writes.

use std::fmt::Write as _;

use super::ir::*;
use super::search::{changing_layers, Packing};
use super::Game;

/// The name of a movement bit.
fn dir_word(bit: u64) -> &'static str {
    match bit {
        UP => "up",
        DOWN => "down",
        LEFT => "left",
        RIGHT => "right",
        ACTION => "action",
        _ => "?",
    }
}

/// The names of the objects in `mask`.
fn names(c: &Compiled, mask: &[u64]) -> Vec<String> {
    (0..c.objects.len())
        .filter(|&id| has_bit(mask, id))
        .map(|id| c.objects[id].name.clone())
        .collect()
}

/// The movement bits of `mask`, layer by layer: `down (layer 2)`.
fn movements(c: &Compiled, mask: &[u64]) -> Vec<String> {
    let mut out = vec![];
    for l in 0..c.layers {
        let bits = get_layer(mask, l);
        for b in [UP, DOWN, LEFT, RIGHT, ACTION] {
            if bits & b != 0 {
                out.push(format!("{} (layer {l})", dir_word(b)));
            }
        }
    }
    out
}

/// One cell pattern: what it requires, then `=>` what it writes.
fn cell(c: &Compiled, p: &CellPattern) -> String {
    let mut terms: Vec<String> = names(c, &p.present);
    terms.extend(names(c, &p.missing).into_iter().map(|n| format!("no {n}")));
    for a in &p.any {
        terms.push(format!("({})", names(c, a).join(" or ")));
    }
    terms.extend(
        movements(c, &p.moving)
            .into_iter()
            .map(|m| format!("moving {m}")),
    );
    for l in 0..c.layers {
        let b = get_layer(&p.still, l);
        if b == LAYER_BITS {
            terms.push(format!("stationary (layer {l})"));
        } else {
            for d in [UP, DOWN, LEFT, RIGHT, ACTION] {
                if b & d != 0 {
                    terms.push(format!("not moving {} (layer {l})", dir_word(d)));
                }
            }
        }
    }
    let mut s = if terms.is_empty() {
        "any".to_string()
    } else {
        terms.join(" ")
    };
    if let Some(x) = &p.replace {
        let mut w: Vec<String> = vec![];
        w.extend(
            names(c, &x.clear)
                .into_iter()
                .filter(|n| !names(c, &x.set).contains(n))
                .map(|n| format!("-{n}")),
        );
        w.extend(names(c, &x.set).into_iter().map(|n| format!("+{n}")));
        w.extend(
            movements(c, &x.mov_set)
                .into_iter()
                .map(|m| format!("+{m}")),
        );
        for l in 0..c.layers {
            if get_layer(&x.mov_clear, l) != 0 && get_layer(&x.mov_set, l) == 0 {
                w.push(format!("stop (layer {l})"));
            }
        }
        if !w.is_empty() {
            let _ = write!(s, " => {}", w.join(" "));
        }
    }
    s
}

/// One concrete rule, on one line.
fn rule(c: &Compiled, r: &Rule) -> String {
    let rows: Vec<String> = r
        .rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|i| match i {
                    Item::Cell(p) => cell(c, p),
                    Item::Ellipsis => "...".into(),
                })
                .collect();
            format!("[ {} ]", cells.join(" | "))
        })
        .collect();
    let cmds: Vec<String> = r
        .commands
        .iter()
        .map(|k| match k {
            Cmd::Again => "again".into(),
            Cmd::Cancel => "cancel".into(),
            Cmd::Restart => "restart".into(),
            Cmd::Win => "win".into(),
            Cmd::Checkpoint => "checkpoint".into(),
            Cmd::Message(m) => format!("message {m}"),
            Cmd::Sfx(n) => format!("sfx{n}"),
        })
        .collect();
    let mut s = format!(
        "line {:>4}  {}{} {}",
        r.line,
        if r.rigid { "rigid " } else { "" },
        dir_word(r.dir),
        rows.join(" ")
    );
    if !cmds.is_empty() {
        let _ = write!(s, "  then {}", cmds.join(" "));
    }
    s
}

fn groups(c: &Compiled, o: &mut String, gs: &[Group], points: &[Option<usize>], what: &str) {
    let n: usize = gs.iter().map(|g| g.rules.len()).sum();
    let _ = writeln!(
        o,
        "{what} ({} in {}):",
        crate::diagnostics::quantity(n as u64, "concrete rules"),
        crate::diagnostics::quantity(gs.len() as u64, "groups")
    );
    for (gi, g) in gs.iter().enumerate() {
        let _ = writeln!(
            o,
            "  group {} (line {}){}{}:",
            gi + 1,
            g.line,
            if g.random { ", random" } else { "" },
            match points.get(gi).copied().flatten() {
                Some(p) => format!(", loops back to group {}", p + 1),
                None => String::new(),
            }
        );
        for r in &g.rules {
            let _ = writeln!(o, "    {}", rule(c, r));
        }
    }
}

impl Game {
    /// The compiled game, readable (`puz compile --dump`).
    pub fn dump(&self) -> String {
        let c = &self.compiled;
        let mut o = String::new();
        let _ = writeln!(o, "game: {}", self.title().unwrap_or(self.name.as_str()));
        let _ = writeln!(o, "objects ({}):", c.objects.len());
        for (id, ob) in c.objects.iter().enumerate() {
            let player = if c.player_ids.contains(&id) {
                "  (player)"
            } else {
                ""
            };
            let _ = writeln!(o, "  {id:>3} {}  layer {}{player}", ob.name, ob.layer);
        }
        let changing = changing_layers(c);
        let _ = writeln!(o, "collision layers ({}):", c.layers);
        for (l, &changes) in changing.iter().enumerate() {
            let _ = writeln!(
                o,
                "  {l:>3} {}{}",
                names(c, c.layer_mask(l)).join(" "),
                if changes {
                    ""
                } else {
                    "  (never changes: not stored in search states)"
                }
            );
        }
        let glyphs: Vec<String> = c
            .glyphs
            .iter()
            .map(|(ch, m)| format!("{ch} = {}", names(c, m).join(" and ")))
            .collect();
        let _ = writeln!(o, "level characters: {}", glyphs.join(", "));
        groups(c, &mut o, &c.groups, &c.loop_point, "rules");
        if !c.late_groups.is_empty() {
            groups(c, &mut o, &c.late_groups, &c.late_loop_point, "late rules");
        }
        let _ = writeln!(o, "win conditions ({}):", c.wins.len());
        for w in &c.wins {
            let q = match w.quantifier {
                -1 => "no",
                0 => "some",
                _ => "all",
            };
            let join =
                |m: &(Vec<u64>, bool)| names(c, &m.0).join(if m.1 { " and " } else { " or " });
            let on = if names(c, &w.on.0).len() == c.objects.len() {
                String::new()
            } else {
                format!(" on {}", join(&w.on))
            };
            let _ = writeln!(o, "  {q} {}{on}", join(&w.what));
        }
        let mut flags = vec![];
        let f = &c.flags;
        for (on, name) in [
            (f.noaction, "noaction"),
            (f.noundo, "noundo"),
            (f.norestart, "norestart"),
            (f.require_player_movement, "require_player_movement"),
            (f.run_rules_on_level_start, "run_rules_on_level_start"),
            (f.realtime_interval.is_some(), "realtime_interval"),
        ] {
            if on {
                flags.push(name);
            }
        }
        if !flags.is_empty() {
            let _ = writeln!(o, "flags: {}", flags.join(" "));
        }
        if c.random {
            let _ = writeln!(o, "random: yes (played, not searched)");
        }
        let _ = writeln!(o, "entries ({}):", c.levels.len());
        for (i, e) in c.levels.iter().enumerate() {
            match e {
                LevelEntry::Message(m) => {
                    let _ = writeln!(o, "  {i:>3} message: {m}");
                }
                LevelEntry::Level(l) => {
                    let p = Packing::new(c, &l.cells);
                    let _ = writeln!(
                        o,
                        "  {i:>3} level {} x {} ({} words a search state)",
                        l.height,
                        l.width,
                        p.words()
                    );
                }
            }
        }
        o
    }
}
