//! `POST /api/level` and `/api/play`: a level's rules and board, and moves played on it.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use web_time::Instant;

use super::{diagnostics_json, Caps, LineIndex, Refusal, SOURCE_NAME};
use crate::engine::budget::Budget;
use crate::io::view::{board_view, legend_key, palette};
use crate::play::{dir_infos, move_infos, ActionRef, Blocked, Game, Want};
use crate::Puzzle;

/// Setting a level up for play may take this long.
const SETUP_TIME: Duration = Duration::from_secs(5);

/// Histories longer than this are refused (a body of 1 MiB holds fewer anyway).
const MAX_HISTORY: usize = 100_000;

/// `POST /api/level`: the text and the inline level to play.
#[derive(Deserialize)]
pub struct LevelReq {
    text: String,
    #[serde(default)]
    level: usize,
}

/// `POST /api/play`: the text, the level, the moves played, and the move to try.
#[derive(Deserialize)]
pub struct PlayReq {
    text: String,
    #[serde(default)]
    level: usize,
    #[serde(default)]
    history: Vec<ActionRef>,
    #[serde(rename = "try", default)]
    want: Option<Want>,
}

/// The posted rules, located for diagnostics, and their loaded inline level `index`
/// set up for play; 422 `level` with the diagnostics when either fails.
fn with_game<T>(
    text: String,
    index: usize,
    caps: &Caps,
    f: impl FnOnce(&Puzzle, &Arc<String>, &LineIndex, Game) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    let text = Arc::new(crate::io::source::without_bom(text));
    if crate::puzzlescript::looks_like_puzzlescript(&text) {
        return Err(Refusal::unprocessable(
            "puzzlescript",
            "this is a PuzzleScript game: play it with POST /api/puzzlescript",
        )
        .with("diagnostics", Value::Array(vec![])));
    }
    let idx = LineIndex::new(&text);
    let refuse = |what: &str, problems: &[crate::diagnostics::Problem]| {
        let diags = diagnostics_json(&text, &idx, problems, false);
        let first = problems.first().map_or(String::new(), |p| format!(": {p}"));
        Refusal::unprocessable("level", format!("{what}{first}")).with("diagnostics", diags.into())
    };
    let p = Puzzle::load_rules(SOURCE_NAME, text.to_string())
        .map_err(|d| refuse("the rules do not load", &d.problems))?;
    if index >= p.model.levels.len() {
        return Err(Refusal::unprocessable(
            "level",
            format!(
                "the file has {} inline levels; there is no level {index}",
                p.model.levels.len()
            ),
        )
        .with("diagnostics", Value::Array(vec![])));
    }
    let level = p
        .inline_level(index)
        .map_err(|d| refuse("the level does not load", &d.problems))?;
    let budget = Budget {
        deadline: Some(Instant::now() + SETUP_TIME),
        max_bytes: Some(caps.max_memory_mb << 20),
        ..Budget::default()
    };
    let game = Game::new(&p.model, level, &budget).map_err(|e| {
        Refusal::unprocessable("level", format!("the level cannot be set up: {e}"))
            .with("diagnostics", Value::Array(vec![]))
    })?;
    f(&p, &text, &idx, game)
}

/// A span of the source as the page takes it: UTF-16 offsets, line and column.
fn place(text: &str, idx: &LineIndex, span: Option<[usize; 2]>) -> Value {
    match span {
        None => Value::Null,
        Some([a, b]) => {
            let (a, b) = (idx.locate(text, a), idx.locate(text, b));
            json!({"start": a.utf16, "end": b.utf16, "line": a.line, "col": a.col, "end_line": b.line, "end_col": b.col})
        }
    }
}

/// A refusal as JSON, its spans in UTF-16 offsets like every span of the API, with
/// their lines and columns under `where`.
fn blocked_json(text: &str, idx: &LineIndex, b: &Blocked) -> Value {
    let mut v = serde_json::to_value(b).unwrap_or_default();
    let locate = |t: &mut Value, span: Option<[usize; 2]>| {
        let w = place(text, idx, span);
        t["span"] = if w.is_null() {
            Value::Null
        } else {
            json!([w["start"], w["end"]])
        };
        t["where"] = w;
    };
    locate(&mut v, b.span);
    if let Some(tried) = v["tried"].as_array_mut() {
        for (t, r) in tried.iter_mut().zip(&b.tried) {
            locate(t, r.span);
        }
    }
    v
}

/// The position now, as both routes answer it.
fn position(game: &mut Game) -> Value {
    json!({
        "board": game.board(),
        "goal": game.is_goal(),
        "cost": game.cost(),
        "moves": game.moves(),
        "history": game.history(),
        "legal": game.legal(),
    })
}

/// `POST /api/level`: the level to play (see the README's API table).
pub fn level(req: LevelReq, caps: &Caps) -> Result<Value, Refusal> {
    with_game(req.text, req.level, caps, |p, text, idx, mut game| {
        let model = &p.model;
        let lints = p
            .level_lints(&game.expander().level, Some(req.level))
            .map_or(vec![], |w| diagnostics_json(text, idx, &w.problems, true));
        let board = board_view(game.expander(), game.state());
        let mut v = position(&mut game);
        v["name"] = model.levels[req.level].name.clone().into();
        v["title"] = model.title.clone().into();
        v["rows"] = board.rows.into();
        v["cols"] = board.cols.into();
        v["palette"] = serde_json::to_value(palette(model)).unwrap_or_default();
        v["key"] = serde_json::to_value(legend_key(model)).unwrap_or_default();
        v["moves"] = serde_json::to_value(move_infos(model)).unwrap_or_default();
        v["dirs"] = serde_json::to_value(dir_infos(model)).unwrap_or_default();
        v["costs"] = crate::solution::cost_names(model).into();
        v["metrics"] = names(model.metrics.iter().map(|m| &m.name));
        v["tiles"] = names(model.tiles.iter().map(|t| &t.name));
        v["marks"] = names(model.marks.iter().map(|m| &m.name));
        v["limit"] = model.limit.into();
        v["lints"] = lints.into();
        v["source"] = level_source(&model.levels[req.level], text, idx);
        Ok(v)
    })
}

/// `POST /api/play`: replays the history, then tries a move (see the README's API table).
pub fn play(req: PlayReq, caps: &Caps) -> Result<Value, Refusal> {
    if req.history.len() > MAX_HISTORY {
        return Err(Refusal::bad_request(format!(
            "the history has {} moves; at most {MAX_HISTORY} are replayed",
            req.history.len()
        )));
    }
    with_game(req.text, req.level, caps, |_, text, idx, mut game| {
        for (i, a) in req.history.iter().enumerate() {
            if let Err(b) = game.apply(a) {
                return Err(Refusal::unprocessable(
                    "history",
                    format!(
                        "move {} of the history cannot be played: {}",
                        i + 1,
                        b.message
                    ),
                )
                .with("at", i.into()));
            }
        }
        let (played, blocked) = match &req.want {
            None => (Value::Null, Value::Null),
            Some(w) => match game.play(w) {
                Ok(p) => (serde_json::to_value(p).unwrap_or_default(), Value::Null),
                Err(b) => (Value::Null, blocked_json(text, idx, &b)),
            },
        };
        let mut v = position(&mut game);
        v["played"] = played;
        v["blocked"] = blocked;
        Ok(v)
    })
}

/// The level as written, for the page's level painter: its `form` (`chars` or `ints`),
/// its `rows` (indentation removed) and the `span` of its text block, delimiters
/// included, which the painter replaces when it saves the level in place.
fn level_source(level: &crate::compile::LevelText, text: &str, idx: &LineIndex) -> Value {
    let start = level.span.offset();
    let span = place(text, idx, Some([start, start + level.span.len()]));
    json!({"form": level.form, "rows": level.rows, "span": span})
}

/// A JSON array of names.
fn names<'a>(it: impl Iterator<Item = &'a String>) -> Value {
    it.cloned().collect::<Vec<_>>().into()
}
