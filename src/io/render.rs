//! Drawing a state as level text in the puzzle's own legend.

use crate::compile::{GridForm, KeyValue};
use crate::compile::{Model, PieceId, PoseId};
use crate::engine::level::placed_by_default;
use crate::engine::Expander;

/// Renders state `s` as rows of legend symbols. Each cell uses the symbol that matches its
/// tile, pieces and marks best: exact, else one showing its piece, else its tile. Among
/// symbols showing the piece, one that places it in its pose wins: a symbol choosing that
/// pose (`'>' floor + turtle.east`), or one choosing none when the pose is the first
/// declared of its shape; a symbol choosing another pose does not show the piece.
pub fn render(exp: &Expander, s: &[u32], form: GridForm) -> String {
    render_as(exp, s, form, &[])
}

/// [`render`] in the symbols a level was written with: `written` holds the legend entry
/// of each cell of the level's text, in reading order (see [`inline_symbols`] and
/// [`file_symbols`]). A cell keeps its own symbol while that still says exactly what it
/// holds; otherwise, among the best symbols, the one the level uses most wins, so that a
/// legend with several symbols of one meaning (`' '`, `'-'` and `'_'` for floor) draws
/// the board as its author did.
pub fn render_as(exp: &Expander, s: &[u32], form: GridForm, written: &[Option<u16>]) -> String {
    let model = exp.model;
    let board = &exp.level.board;
    // Poses matter only to a legend with a symbol that chooses one; any other draws as
    // before, every symbol placing a piece in whatever pose it has.
    let occupant: Vec<Option<(PieceId, Option<PoseId>)>> = if model
        .legend
        .iter()
        .any(|x| x.poses.iter().any(Option::is_some))
    {
        exp.occupancy_with_poses(s)
            .into_iter()
            .map(|o| o.map(|(p, q)| (p, Some(q))))
            .collect()
    } else {
        exp.occupancy(s)
            .into_iter()
            .map(|o| o.map(|p| (p, None)))
            .collect()
    };
    let default_pose: Vec<Vec<bool>> = model
        .pieces
        .iter()
        .map(|k| {
            (0..k.poses.len())
                .map(|q| placed_by_default(k, PoseId(q as u16)))
                .collect()
        })
        .collect();
    let mut used = vec![0usize; model.legend.len()];
    for &k in written.iter().flatten() {
        if let Some(u) = used.get_mut(k as usize) {
            *u += 1;
        }
    }
    let mut out = String::new();
    for r in 0..board.rows {
        let mut cells: Vec<String> = vec![];
        for c in 0..board.cols {
            let cell = r * board.cols + c;
            let here = Cell {
                tile: exp.tile_now(s, cell as u32),
                piece: occupant[cell],
                marks: board.marks[cell],
                own: written.get(cell).copied().flatten(),
            };
            cells.push(symbol_for(model, &here, form, &used, &default_pose));
        }
        match form {
            GridForm::Chars => out.push_str(&cells.concat()),
            GridForm::Ints => out.push_str(&cells.join(" ")),
        }
        out.push('\n');
    }
    out
}

/// What a cell holds now, and the symbol it was written with.
struct Cell {
    tile: Option<crate::compile::TileId>,
    /// The piece covering the cell, and its pose when the legend can say it.
    piece: Option<(PieceId, Option<PoseId>)>,
    marks: u32,
    own: Option<u16>,
}

/// The best symbol for a cell: its own while exact, else the best match, ties going to
/// the symbol that places the piece in its pose, then to the symbol the level uses most
/// (`used` counts each entry's cells). `default_pose[k][q]`: whether a symbol choosing no
/// pose places kind `k` in pose `q`.
fn symbol_for(
    model: &Model,
    cell: &Cell,
    form: GridForm,
    used: &[usize],
    default_pose: &[Vec<bool>],
) -> String {
    let Cell {
        tile,
        piece: held,
        marks,
        ..
    } = *cell;
    let piece = held.map(|(p, _)| p);
    // 2: the symbol places the piece in its pose (or there is no piece); 1: it places the
    // piece in the first declared pose of its shape, which differs; 0: another pose.
    let pose_fit = |s: &crate::compile::Symbol| -> u8 {
        match (held, s.poses.first()) {
            (Some((_, Some(q))), Some(Some(chosen))) => 2 * u8::from(*chosen == q),
            (Some((p, Some(q))), _) => 1 + u8::from(default_pose[p.index()][q.index()]),
            _ => 2,
        }
    };
    let usable = |k: &KeyValue| {
        matches!(
            (k, form),
            (KeyValue::Char(_), GridForm::Chars) | (KeyValue::Int(_), GridForm::Ints)
        )
    };
    let score = |s: &crate::compile::Symbol| -> i32 {
        let sym_marks = s.marks.iter().fold(0u32, |m, k| m | 1 << k.0);
        let piece_ok = match piece {
            Some(p) => s.pieces == [p] && pose_fit(s) > 0,
            None => s.pieces.is_empty(),
        };
        let tile_ok = Some(s.tile) == tile;
        let marks_ok = sym_marks == marks;
        match (piece_ok, tile_ok, marks_ok) {
            (true, true, true) => 100,
            (true, true, false) => 90,
            (true, false, _) if piece.is_some() => 80,
            (true, _, true) => 60,
            (true, _, false) if tile_ok => 50,
            (_, true, _) if piece.is_none() && s.pieces.is_empty() => 40,
            _ => 0,
        }
    };
    let own = cell
        .own
        .and_then(|k| model.legend.get(k as usize))
        .filter(|s| usable(&s.key) && score(s) == 100 && pose_fit(s) == 2);
    let best = own.map(|s| (100, s)).or_else(|| {
        model
            .legend
            .iter()
            .enumerate()
            .filter(|(_, s)| usable(&s.key))
            .map(|(i, s)| {
                (
                    (score(s), pose_fit(s), used.get(i).copied().unwrap_or(0)),
                    s,
                )
            })
            .filter(|((sc, _, _), _)| *sc > 0)
            .max_by_key(|(key, _)| *key)
            .map(|((sc, _, _), s)| (sc, s))
    });
    match best.map(|(_, s)| &s.key) {
        Some(KeyValue::Char(c)) => c.to_string(),
        Some(KeyValue::Int(i)) => i.to_string(),
        None => match piece {
            Some(p) => model.pieces[p.index()]
                .name
                .chars()
                .next()
                .unwrap_or('?')
                .to_string(),
            None => "?".to_string(),
        },
    }
}

/// The legend entry each cell of inline level `index` is written with, in reading order
/// (`None` for a symbol the legend lacks).
pub fn inline_symbols(model: &Model, index: usize) -> Vec<Option<u16>> {
    match model.levels.get(index) {
        Some(l) => {
            let rows: Vec<&str> = l.rows.iter().map(String::as_str).collect();
            written(model, &rows, l.form)
        }
        None => vec![],
    }
}

/// The legend entry each cell of a level file's text is written with, in reading order,
/// its rows found as [`crate::Puzzle::level_from_file`] finds them.
pub fn file_symbols(model: &Model, text: &str) -> Vec<Option<u16>> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let blank_is_cell = model
        .legend
        .iter()
        .any(|s| matches!(s.key, KeyValue::Char(' ' | '\t')));
    let rows = super::grid::LevelRows::from_file(text, blank_is_cell);
    written(model, &rows.rows, model.default_form())
}

/// The legend entry each cell of `rows` (in the rules' default form) is written with, in
/// reading order: a level of a collection, drawn as its file draws it.
pub fn written_symbols(model: &Model, rows: &[&str]) -> Vec<Option<u16>> {
    written(model, rows, model.default_form())
}

/// The legend entry each cell of `rows` is written with, in reading order (`None` for a
/// symbol the legend lacks).
pub(crate) fn written(model: &Model, rows: &[&str], form: GridForm) -> Vec<Option<u16>> {
    let index: std::collections::HashMap<&KeyValue, u16> = model
        .legend
        .iter()
        .enumerate()
        .map(|(i, s)| (&s.key, i as u16))
        .collect();
    let mut out = vec![];
    for row in rows {
        match form {
            GridForm::Chars => {
                out.extend(row.chars().map(|c| index.get(&KeyValue::Char(c)).copied()))
            }
            GridForm::Ints => out.extend(super::grid::ascii_tokens(row).map(|(_, t)| {
                t.parse::<i64>()
                    .ok()
                    .and_then(|v| index.get(&KeyValue::Int(v)).copied())
            })),
        }
    }
    out
}
