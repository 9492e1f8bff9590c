//! Boards for a browser: a state as plain data (tiles, marks, pieces, counters), the
//! colours of every tile, piece and mark of a model, and the legend as a key.
//!
//! # Colours
//!
//! A colour comes from a name alone, so the same rules draw the same everywhere. Common
//! names get their natural colour (a `wall`, `rock` or `stone` tile dark grey, `floor`,
//! `empty` or `ground` light, `ice` light blue, `water` blue, `void` or `hole` near black,
//! a `target` or `goal` green...); every other name gets a hue from a stable hash of its
//! text. Tiles are pale (the dark natural ones aside), pieces saturated and darker, so a
//! piece always stands out on its tile; marks sit between. Within one model, kinds of one
//! family never share a colour: a colour too close to one already given turns its hue on
//! until it is clear of them.
//!
//! A `look` in the file overrides this for the names it lists: its first colour is the
//! swatch's colour, and its colours and sprite go to the page as written. The derived
//! colours of the other names stay as they would be without it.

use serde::{Deserialize, Serialize};

use crate::compile::{KeyValue, LookOf, Model};
use crate::engine::Expander;

/// A state of a level as plain data, ready to draw.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardView {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Row-major, one entry per cell: index into `Model::tiles` (the tile there NOW, after
    /// switches/toggles/breaks).
    pub tiles: Vec<u16>,
    /// Row-major: the marks on each cell (indices into `Model::marks`), empty for most cells.
    pub marks: Vec<Vec<u16>>,
    /// Every piece on the board, kinds in declaration order then copies.
    pub pieces: Vec<PieceView>,
    /// Counters, in declaration order.
    pub counters: Vec<CounterView>,
    /// Row-major indices of the cells drawn as nothing: cells of the rules' `outside`
    /// tile with no piece or mark, all of whose (up to eight) neighbours hold that tile
    /// too, so that they look and behave like the board's beyond. The ground outside a
    /// Sokoban level's walls is one. Left out of JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub beyond: Vec<usize>,
}

/// One piece on the board.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PieceView {
    /// Index into `Model::pieces`.
    pub kind: u16,
    /// The kind's name.
    pub name: String,
    /// 0.. among the copies of that kind on the board in this state.
    pub copy: u32,
    /// The pose's name (`""` when the kind has one unnamed pose).
    pub pose: String,
    /// (row, column) of the anchor; may be off the board where `outside` allows.
    pub anchor: [i64; 2],
    /// Every (row, column) the piece covers.
    pub cells: Vec<[i64; 2]>,
}

/// A counter and its value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CounterView {
    /// The counter's name.
    pub name: String,
    /// Its value in this state.
    pub value: u32,
}

/// The colours of a model: one swatch per tile, piece and mark, in declaration order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Palette {
    /// Per tile (indexed like `Model::tiles`).
    pub tiles: Vec<Swatch>,
    /// Per piece kind (indexed like `Model::pieces`).
    pub pieces: Vec<Swatch>,
    /// Per mark (indexed like `Model::marks`).
    pub marks: Vec<Swatch>,
}

/// `color` is "#rrggbb"; derived from the name: well-known names get natural colours
/// (wall/rock/block dark grey, floor/empty/ground light, goal/target/exit green,
/// ice light blue, water blue, ...), every other name a stable hash hue. Pieces are
/// saturated, tiles pale, so a piece is always visible on its tile.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Swatch {
    /// The name coloured.
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
    /// A declared look's colours, `#rrggbb` each (the first is `color`); left out of
    /// JSON when the colour is derived.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<String>,
    /// A declared sprite: rows of indices into `colors`, `null` for see-through cells;
    /// left out of JSON when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sprite: Vec<Vec<Option<u8>>>,
}

/// `#rrggbb`.
fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// One legend symbol and what it places, for the page's key.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeyEntry {
    /// The symbol as written in levels (`X`, or `3` for integer grids).
    pub symbol: String,
    /// The tile it lays.
    pub tile: Option<String>,
    /// The pieces it places.
    pub pieces: Vec<String>,
    /// The marks it sets.
    pub marks: Vec<String>,
    /// The pose its pieces start in, when the symbol chooses one.
    pub pose: Option<String>,
    /// The whole entry as text: `floor + block`, `floor + turtle.east + target`.
    pub text: String,
}

/// Which family a name is coloured for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Tile,
    Piece,
    Mark,
}

/// The natural colour of a well-known name in a family, as (hue, saturation, lightness).
fn natural(family: Family, name: &str) -> Option<(f64, f64, f64)> {
    let n = name.to_ascii_lowercase();
    // A short word must be the name or one of its `_`/`-` parts (`me` is not in `game`);
    // a longer one may be anywhere in it (`icefloor`, `wall2`).
    let has = |words: &[&str]| {
        words.iter().any(|w| {
            n == *w
                || (w.len() > 3 && n.contains(w))
                || n.split(|c: char| !c.is_ascii_alphabetic()).any(|p| p == *w)
        })
    };
    let grey = |l: f64| Some((0.0, 0.0, l));
    match family {
        Family::Tile => {
            if has(&["wall", "rock", "stone", "brick", "block", "solid"]) {
                grey(0.29)
            } else if has(&["void", "hole", "pit", "abyss", "chasm", "gap"]) {
                Some((240.0, 0.12, 0.12))
            } else if has(&["floor", "empty", "ground", "open", "free", "blank", "path"]) {
                Some((40.0, 0.25, 0.92))
            } else if has(&["ice", "snow", "frost"]) {
                Some((200.0, 0.85, 0.88))
            } else if has(&["water", "sea", "lake", "river"]) {
                Some((210.0, 0.65, 0.62))
            } else if has(&["goal", "target", "exit", "finish", "home", "dock"]) {
                Some((120.0, 0.55, 0.82))
            } else if has(&["lava", "fire"]) {
                Some((15.0, 0.85, 0.70))
            } else if has(&["fragile", "weak", "crack", "thin"]) {
                Some((35.0, 0.80, 0.78))
            } else if has(&["sand", "desert"]) {
                Some((48.0, 0.70, 0.80))
            } else if has(&["grass"]) {
                Some((100.0, 0.50, 0.78))
            } else if n == "on" || has(&["lit", "light"]) {
                Some((52.0, 0.95, 0.72))
            } else if n == "off" || has(&["dark", "unlit"]) {
                grey(0.55)
            } else if has(&["door", "gate"]) {
                Some((28.0, 0.45, 0.62))
            } else if has(&["switch", "button", "plate", "lever"]) {
                Some((290.0, 0.45, 0.82))
            } else {
                None
            }
        }
        Family::Piece => {
            if has(&[
                "man", "player", "hero", "me", "pusher", "keeper", "you", "agent",
            ]) {
                Some((215.0, 0.80, 0.45))
            } else if has(&["box", "crate", "barrel"]) {
                Some((28.0, 0.75, 0.42))
            } else if has(&["king", "cao", "boss", "queen", "target"]) {
                Some((0.0, 0.78, 0.48))
            } else if has(&["key"]) {
                Some((46.0, 0.90, 0.48))
            } else if has(&["peg", "ball", "marble", "stone"]) {
                Some((275.0, 0.60, 0.45))
            } else if has(&["car", "robot"]) {
                Some((190.0, 0.80, 0.38))
            } else {
                None
            }
        }
        Family::Mark => {
            if has(&["goal", "target", "exit", "finish", "home", "dock", "hole"]) {
                Some((125.0, 0.65, 0.40))
            } else if has(&["start", "spawn"]) {
                Some((210.0, 0.60, 0.50))
            } else {
                None
            }
        }
    }
}

/// A hue from a stable hash of `name` (FNV-1a), in degrees.
fn hash_hue(name: &str) -> f64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % 360) as f64
}

/// (red, green, blue) of a colour given as hue (degrees), saturation and lightness.
fn hsl_rgb(h: f64, s: f64, l: f64) -> [u8; 3] {
    let h = h.rem_euclid(360.0) / 360.0;
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    [channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0)]
}

/// How far apart two colours look (Euclidean in RGB, weighted by how eyes see).
fn distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    let d = |i: usize, w: f64| w * (a[i] as f64 - b[i] as f64).powi(2);
    (d(0, 3.0) + d(1, 4.0) + d(2, 2.0)).sqrt()
}

/// Colours for the names of one family, distinct from each other.
fn family_colors(family: Family, names: &[&str]) -> Vec<Swatch> {
    // Closer than this looks like the same colour at a glance.
    const CLEAR: f64 = 60.0;
    let (sat, light) = match family {
        Family::Tile => (0.50, 0.84),
        Family::Piece => (0.75, 0.45),
        Family::Mark => (0.65, 0.52),
    };
    let mut given: Vec<[u8; 3]> = vec![];
    names
        .iter()
        .map(|name| {
            let (h, s, l) = natural(family, name).unwrap_or((hash_hue(name), sat, light));
            let mut rgb = hsl_rgb(h, s, l);
            // Turn the hue by a golden angle (and, for greys, give them some colour and
            // shift their lightness) until the colour is clear of those already given.
            let mut tries = 0;
            while tries < 24 && given.iter().any(|&g| distance(g, rgb) < CLEAR) {
                tries += 1;
                let hue = h + 137.5 * tries as f64;
                let s2 = if s < 0.3 { sat } else { s };
                let l2 = l + [0.0, -0.08, 0.06][tries % 3];
                rgb = hsl_rgb(hue, s2, l2.clamp(0.15, 0.93));
            }
            given.push(rgb);
            Swatch {
                name: name.to_string(),
                color: hex(rgb),
                colors: vec![],
                sprite: vec![],
            }
        })
        .collect()
}

/// The colours of every tile, piece and mark of `model` (see the module header).
pub fn palette(model: &Model) -> Palette {
    let tiles: Vec<&str> = model.tiles.iter().map(|t| t.name.as_str()).collect();
    let pieces: Vec<&str> = model.pieces.iter().map(|p| p.name.as_str()).collect();
    let marks: Vec<&str> = model.marks.iter().map(|m| m.name.as_str()).collect();
    let mut p = Palette {
        tiles: family_colors(Family::Tile, &tiles),
        pieces: family_colors(Family::Piece, &pieces),
        marks: family_colors(Family::Mark, &marks),
    };
    for look in &model.looks {
        let swatch = match look.of {
            LookOf::Tile(t) => p.tiles.get_mut(t.index()),
            LookOf::Piece(k) => p.pieces.get_mut(k.index()),
            LookOf::Mark(k) => p.marks.get_mut(k.index()),
        };
        let (Some(swatch), Some(&first)) = (swatch, look.colors.first()) else {
            continue;
        };
        swatch.color = hex(first);
        swatch.colors = look.colors.iter().copied().map(hex).collect();
        swatch.sprite = look.sprite.clone();
    }
    p
}

/// The legend of `model` as a key: one entry per symbol, in declaration order.
pub fn legend_key(model: &Model) -> Vec<KeyEntry> {
    model
        .legend
        .iter()
        .map(|s| {
            let symbol = match &s.key {
                KeyValue::Char(c) => c.to_string(),
                KeyValue::Int(i) => i.to_string(),
            };
            let tile = model.tiles.get(s.tile.index()).map(|t| t.name.clone());
            let mut parts: Vec<String> = tile.iter().cloned().collect();
            let mut pieces = vec![];
            let mut pose = None;
            for (i, p) in s.pieces.iter().enumerate() {
                let Some(kind) = model.pieces.get(p.index()) else {
                    continue;
                };
                pieces.push(kind.name.clone());
                let chosen = s
                    .poses
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|q| kind.poses.get(q.index()));
                match chosen {
                    Some(q) => {
                        parts.push(format!("{}.{}", kind.name, q.name));
                        pose.get_or_insert_with(|| q.name.clone());
                    }
                    None => parts.push(kind.name.clone()),
                }
            }
            let marks: Vec<String> = s
                .marks
                .iter()
                .filter_map(|m| model.marks.get(m.index()).map(|m| m.name.clone()))
                .collect();
            parts.extend(marks.iter().cloned());
            KeyEntry {
                symbol,
                tile,
                pieces,
                marks,
                pose,
                text: parts.join(" + "),
            }
        })
        .collect()
}

/// State `s` of the expander's level as a [`BoardView`]: the tiles there now, the marks,
/// every piece on the board and every counter.
pub fn board_view(exp: &Expander, s: &[u32]) -> BoardView {
    let model = exp.model;
    let board = &exp.level.board;
    let marks: Vec<Vec<u16>> = board
        .marks
        .iter()
        .map(|&bits| {
            (0..model.marks.len().min(32) as u16)
                .filter(|&k| bits >> k & 1 == 1)
                .collect()
        })
        .collect();
    let mut copies = vec![0u32; model.pieces.len()];
    let pieces: Vec<PieceView> = exp
        .pieces_in(s)
        .into_iter()
        .map(|p| {
            let kind = &model.pieces[p.kind];
            let copy = copies[p.kind];
            copies[p.kind] += 1;
            let unnamed = kind.poses.len() == 1 && kind.poses[0].name == "cell";
            PieceView {
                kind: p.kind as u16,
                name: kind.name.clone(),
                copy,
                pose: if unnamed {
                    String::new()
                } else {
                    kind.poses[p.pose].name.clone()
                },
                anchor: [p.anchor.0, p.anchor.1],
                cells: p.cells.iter().map(|&(r, c)| [r, c]).collect(),
            }
        })
        .collect();
    let counters = model
        .counters
        .iter()
        .zip(exp.counters_in(s))
        .map(|(c, value)| CounterView {
            name: c.name.clone(),
            value,
        })
        .collect();
    let tiles = exp.tiles_in(s);
    let beyond = beyond_cells(model, board.rows, board.cols, &tiles, &marks, &pieces);
    BoardView {
        rows: board.rows,
        cols: board.cols,
        tiles,
        marks,
        pieces,
        counters,
        beyond,
    }
}

/// The cells [`BoardView::beyond`] lists.
fn beyond_cells(
    model: &Model,
    rows: usize,
    cols: usize,
    tiles: &[u16],
    marks: &[Vec<u16>],
    pieces: &[PieceView],
) -> Vec<usize> {
    let Some(outside) = model.outside.map(|t| t.0) else {
        return vec![];
    };
    let mut covered = vec![false; tiles.len()];
    for p in pieces {
        for &[r, c] in &p.cells {
            if r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols {
                covered[r as usize * cols + c as usize] = true;
            }
        }
    }
    let outside_at = |r: i64, c: i64| {
        r < 0 || c < 0 || r as usize >= rows || c as usize >= cols || {
            let i = r as usize * cols + c as usize;
            tiles[i] == outside
        }
    };
    (0..tiles.len())
        .filter(|&i| {
            let (r, c) = ((i / cols) as i64, (i % cols) as i64);
            tiles[i] == outside
                && marks[i].is_empty()
                && !covered[i]
                && (-1..=1).all(|dr| (-1..=1).all(|dc| outside_at(r + dr, c + dc)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_and_hashed_colours_are_stable_and_distinct() {
        let a = family_colors(
            Family::Tile,
            &["floor", "wall", "ice", "switch_a", "switch_b"],
        );
        let b = family_colors(
            Family::Tile,
            &["floor", "wall", "ice", "switch_a", "switch_b"],
        );
        assert_eq!(
            a.iter().map(|s| &s.color).collect::<Vec<_>>(),
            b.iter().map(|s| &s.color).collect::<Vec<_>>()
        );
        assert_eq!(a[1].color, "#4a4a4a");
        for i in 0..a.len() {
            for j in 0..i {
                assert_ne!(a[i].color, a[j].color, "{} and {}", a[i].name, a[j].name);
            }
        }
        // Two names with one natural colour still differ.
        let c = family_colors(Family::Tile, &["wall", "rock"]);
        assert_ne!(c[0].color, c[1].color);
    }

    #[test]
    fn hsl_corners() {
        assert_eq!(hsl_rgb(0.0, 1.0, 0.5), [255, 0, 0]);
        assert_eq!(hsl_rgb(120.0, 1.0, 0.5), [0, 255, 0]);
        assert_eq!(hsl_rgb(0.0, 0.0, 1.0), [255, 255, 255]);
    }
}
