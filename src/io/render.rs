//! Drawing a state as level text in the puzzle's own legend.

use crate::compile::{GridForm, KeyValue};
use crate::compile::{Model, PieceId};
use crate::engine::Expander;

/// Renders state `s` as rows of legend symbols. Each cell uses the symbol that matches its
/// tile, pieces and marks best: exact, else one showing its piece, else its tile.
pub fn render(exp: &Expander, s: &[u32], form: GridForm) -> String {
    let model = exp.model;
    let board = &exp.level.board;
    let occupant = exp.occupancy(s);
    let mut out = String::new();
    for r in 0..board.rows {
        let mut cells: Vec<String> = vec![];
        for c in 0..board.cols {
            let cell = r * board.cols + c;
            let tile = exp.tile_now(s, cell as u32);
            let marks = board.marks[cell];
            let piece = occupant[cell];
            cells.push(symbol_for(model, tile, piece, marks, form));
        }
        match form {
            GridForm::Chars => out.push_str(&cells.concat()),
            GridForm::Ints => out.push_str(&cells.join(" ")),
        }
        out.push('\n');
    }
    out
}

fn symbol_for(
    model: &Model,
    tile: Option<crate::compile::TileId>,
    piece: Option<PieceId>,
    marks: u32,
    form: GridForm,
) -> String {
    let usable = |k: &KeyValue| {
        matches!(
            (k, form),
            (KeyValue::Char(_), GridForm::Chars) | (KeyValue::Int(_), GridForm::Ints)
        )
    };
    let score = |s: &crate::compile::Symbol| -> i32 {
        let sym_marks = s.marks.iter().fold(0u32, |m, k| m | 1 << k.0);
        let piece_ok = match piece {
            Some(p) => s.pieces == [p],
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
    let best = model
        .legend
        .iter()
        .filter(|s| usable(&s.key))
        .map(|s| (score(s), s))
        .filter(|(sc, _)| *sc > 0)
        .max_by_key(|(sc, _)| *sc);
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
