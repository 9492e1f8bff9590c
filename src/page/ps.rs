//! PuzzleScript games in the playground: `POST /api/check` on a game's text (its
//! diagnostics and its entries), and `POST /api/puzzlescript`, which starts an entry and
//! replays the inputs played so far.
//!
//! The API is stateless, like `/api/play` for `.puz` files: the page sends the game's
//! text, the entry and every input played on it since the entry started (undo and
//! restart included, as PuzzleScript counts them), and the server loads the game, replays
//! them and answers the board. A session borrows its game and is never kept between
//! requests; replaying is cheap (thousands of inputs a millisecond on the demo games) and
//! capped ([`MAX_INPUTS`], [`REPLAY_TIME`]). Games with randomness replay the same way:
//! puz's generator starts from the same seed on every load, so a replay gives the board
//! the page showed.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use web_time::Instant;

use super::ps_colors::{ALIASES, PALETTES};
use super::{diagnostics_json, LineIndex, Refusal};
use crate::engine::budget::Budget;
use crate::puzzlescript::{looks_like_puzzlescript, Entry, Game, Input, OnWin, Session, WhyNot};

/// The name diagnostics give a game's text.
pub(super) const GAME_NAME: &str = "game.txt";

/// Input lists longer than this are refused (400).
pub const MAX_INPUTS: usize = 100_000;

/// Replaying the inputs may take this long; a game slower than that is refused (422).
pub const REPLAY_TIME: Duration = Duration::from_secs(10);

/// The code of the refusal to run a game's tests from the page.
pub(super) const NOT_SEARCHABLE: &str = "puz::ps::tests_need_sidecar";

/// The refusal of `what` (the tests) on a PuzzleScript game: its expectations live in a
/// file beside it, which the page does not send.
pub(super) fn not_searchable(what: &str) -> Refusal {
    Refusal::unprocessable(
        NOT_SEARCHABLE,
        format!(
            "this is a PuzzleScript game: {what} needs its expectations, which live in the \
             .expect file beside the game (`puz test GAME.txt` checks them); Solve and \
             Analyze work on the game's levels"
        ),
    )
}

/// Loads a game, its problems located in its text: the game and its warnings, or its
/// errors.
fn load(text: &Arc<String>, idx: &LineIndex) -> Result<(Game, Vec<Value>), Vec<Value>> {
    match Game::load(GAME_NAME, text.clone()) {
        Ok((g, w)) => Ok((g, diagnostics_json(text, idx, &w.problems, true))),
        Err(d) => Err(diagnostics_json(text, idx, &d.problems, false)),
    }
}

/// The entries of a game as the check answer lists them (`levels`).
fn entries_json(game: &Game) -> Vec<Value> {
    let mut number = 0;
    game.entries()
        .iter()
        .enumerate()
        .map(|(i, e)| match e {
            Entry::Message(m) => json!({
                "index": i, "kind": "message", "text": m, "name": format!("message: {m}"),
                "ok": true, "rows": 0, "cols": 0, "expect": [],
            }),
            Entry::Level { width, height } => {
                number += 1;
                json!({
                    "index": i, "kind": "level", "number": number,
                    "name": format!("level {number}"), "ok": true,
                    "rows": height, "cols": width, "expect": [],
                })
            }
        })
        .collect()
}

/// The check answer for a PuzzleScript game (see `POST /api/check`).
pub(super) fn check_game(text: Arc<String>, t0: Instant) -> Value {
    let idx = LineIndex::new(&text);
    let (diags, title, levels, noaction) = match load(&text, &idx) {
        Ok((g, warnings)) => (
            warnings,
            g.title().unwrap_or_default().to_string(),
            entries_json(&g),
            g.noaction(),
        ),
        Err(errors) => (errors, String::new(), vec![], false),
    };
    let ok = !diags.iter().any(|d| d["severity"] == "error");
    json!({
        "ok": ok,
        "lang": "puzzlescript",
        "title": title,
        "noaction": noaction,
        "diagnostics": diags,
        "levels": levels,
        "elapsed_ms": t0.elapsed().as_secs_f64() * 1000.0,
    })
}

/// The palette the game's prelude picks (`color_palette NAME` or a number), else
/// `arnecolors`, PuzzleScript's default.
fn palette(game: &Game) -> &'static [(&'static str, &'static str)] {
    let want = game
        .setting("color_palette")
        .map(|s| s.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let name = ALIASES
        .iter()
        .find(|(n, _)| *n == want)
        .map_or(want.as_str(), |(_, p)| p);
    PALETTES
        .iter()
        .find(|(n, _)| *n == name)
        .or_else(|| PALETTES.iter().find(|(n, _)| *n == "arnecolors"))
        .map_or(&[], |(_, cols)| cols)
}

/// A colour as the page draws it: a name through the palette, a hex colour as written,
/// `None` for `transparent` (and anything unknown, which draws nothing).
pub fn color_hex(palette: &[(&str, &str)], color: &str) -> Option<String> {
    let c = color.trim().to_ascii_lowercase();
    if c.starts_with('#')
        && matches!(c.len(), 4 | 5 | 7 | 9)
        && c[1..].chars().all(|ch| ch.is_ascii_hexdigit())
    {
        return Some(c);
    }
    palette
        .iter()
        .find(|(n, _)| *n == c)
        .map(|(_, hex)| hex.to_string())
}

/// Every object's look (name, layer, colours in hex or `null`, sprite), in id order, and
/// the background colour behind the level.
fn looks_json(game: &Game) -> (Vec<Value>, String) {
    let pal = palette(game);
    let looks = game
        .looks()
        .into_iter()
        .map(|l| {
            let colors: Vec<Option<String>> = l.colors.iter().map(|c| color_hex(pal, c)).collect();
            json!({"name": l.name, "layer": l.layer, "colors": colors, "sprite": l.sprite})
        })
        .collect();
    let background = game
        .setting("background_color")
        .and_then(|c| color_hex(pal, c))
        .unwrap_or_else(|| "#000000".to_string());
    (looks, background)
}

/// `POST /api/puzzlescript`: the game's text, the entry, the inputs played on it.
#[derive(Deserialize)]
pub struct PsPlayReq {
    text: String,
    #[serde(default)]
    entry: usize,
    /// The inputs since the entry started, in `puz play`'s letters (`udlrx`, `z` undo,
    /// `R` restart, `.` tick) or words.
    #[serde(default)]
    inputs: String,
    /// Whether to send the objects' looks (the page asks once per game text).
    #[serde(default = "yes")]
    looks: bool,
}

fn yes() -> bool {
    true
}

/// Why the last input changed nothing (or got the game stuck), as the page shows it:
/// [`WhyNot`]'s fields (`kind` and its details), the sentence (`message`), the rule it
/// names as a `span` (UTF-16 offsets, with its lines and columns under `where`), and
/// the `cells` to mark (`[x, y]`, from the top-left corner).
fn why_json(text: &str, idx: &LineIndex, why: &WhyNot) -> Value {
    let mut v = serde_json::to_value(why).unwrap_or_default();
    v["message"] = why.to_string().into();
    let (span, place) = match why.rule() {
        Some(r) => {
            let (a, b) = (idx.locate(text, r.span.0), idx.locate(text, r.span.1));
            (
                json!([a.utf16, b.utf16]),
                json!({"start": a.utf16, "end": b.utf16, "line": a.line, "col": a.col, "end_line": b.line, "end_col": b.col}),
            )
        }
        None => (Value::Null, Value::Null),
    };
    v["span"] = span;
    v["where"] = place;
    v["cells"] = why.cells().iter().map(|c| json!([c.x, c.y])).collect();
    v
}

/// `POST /api/puzzlescript`: starts entry `entry` of the game and replays `inputs`.
pub fn play(req: PsPlayReq) -> Result<Value, Refusal> {
    if req.inputs.len() > MAX_INPUTS * 8 {
        return Err(Refusal::bad_request(format!(
            "the inputs are {} bytes long; at most {MAX_INPUTS} inputs are replayed",
            req.inputs.len()
        )));
    }
    let t0 = Instant::now();
    let inputs = Input::parse_list(&req.inputs).map_err(|e| {
        Refusal::bad_request(format!(
            "input {:?} at byte {} is not an input; inputs are u l d r x (action) z (undo) R (restart) . (tick), or their words",
            e.item, e.at
        ))
    })?;
    if inputs.len() > MAX_INPUTS {
        return Err(Refusal::bad_request(format!(
            "{} inputs; at most {MAX_INPUTS} are replayed",
            inputs.len()
        )));
    }
    let text = Arc::new(crate::io::source::without_bom(req.text));
    if !looks_like_puzzlescript(&text) {
        return Err(Refusal::unprocessable(
            "game",
            "the text is not a PuzzleScript game: it has no section headers (OBJECTS, LEGEND, COLLISIONLAYERS, ...) on lines of their own",
        )
        .with("diagnostics", Value::Array(vec![])));
    }
    let idx = LineIndex::new(&text);
    let (game, _) = load(&text, &idx).map_err(|diags| {
        let first = diags
            .first()
            .and_then(|d| d["message"].as_str())
            .map_or(String::new(), |m| format!(": {m}"));
        Refusal::unprocessable("game", format!("the game does not load{first}"))
            .with("diagnostics", diags.into())
    })?;
    let n = game.entries().len();
    let Some(entry) = game.entries().get(req.entry) else {
        return Err(Refusal::unprocessable(
            "entry",
            format!(
                "the game has {n} entries (levels and messages); there is no entry {}",
                req.entry
            ),
        ));
    };
    let mut v = json!({
        "entry": req.entry,
        "entries": n,
        "title": game.title(),
        "noaction": game.noaction(),
    });
    if let Entry::Message(m) = entry {
        v["kind"] = "message".into();
        v["text"] = m.clone().into();
        return Ok(v);
    }
    // The replay's budget, checked between inputs and inside turns: a game whose turns
    // run long (a huge level, again turns that take their time) is stopped on time.
    let budget = Budget {
        deadline: Some(t0 + REPLAY_TIME),
        ..Budget::default()
    };
    let slow = |i: usize| {
        Refusal::unprocessable(
            "slow",
            format!(
                "replaying the inputs took over {} s (stopped at input {i} of {})",
                REPLAY_TIME.as_secs(),
                inputs.len()
            ),
        )
    };
    let mut s = Session::with_budget(&game, req.entry, OnWin::Stop, budget)
        .ok_or_else(|| Refusal::internal("the entry cannot be started"))?;
    s.keep_undo(inputs.contains(&Input::Undo));
    let mut last = None;
    for (i, &input) in inputs.iter().enumerate() {
        let turn = s.input(input);
        if turn.cutoff.is_some() {
            return Err(slow(i));
        }
        last = Some((input, turn));
    }
    if s.cutoff().is_some() {
        return Err(slow(0));
    }
    let (w, h) = s.size();
    v["kind"] = "level".into();
    v["width"] = w.into();
    v["height"] = h.into();
    v["board"] = json!(s.board());
    v["won"] = s.won().into();
    v["playing"] = s.playing().into();
    v["inputs"] = inputs.len().into();
    let (changed, messages, refused, why, again, stuck) = match last {
        None => (false, vec![], None, None, 0, false),
        Some((input, t)) => {
            let refused = !t.changed && !t.won && t.messages.is_empty();
            let why = if refused || !s.playing() && !s.won() {
                s.why_not(input)
            } else {
                None
            };
            let sentence = refused.then(|| {
                why.as_ref()
                    .map_or("nothing changed".to_string(), |w| w.to_string())
            });
            (t.changed, t.messages, sentence, why, t.again_turns, t.stuck)
        }
    };
    v["changed"] = changed.into();
    v["messages"] = messages.into();
    v["refused"] = refused.into();
    v["why"] = why.map_or(Value::Null, |w| why_json(&text, &idx, &w));
    v["again_turns"] = again.into();
    v["stuck"] = stuck.into();
    if req.looks {
        let (looks, background) = looks_json(&game);
        v["looks"] = looks.into();
        v["background"] = background.into();
    }
    v["elapsed_ms"] = (t0.elapsed().as_secs_f64() * 1000.0).into();
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours() {
        let arne = PALETTES.iter().find(|(n, _)| *n == "arnecolors").unwrap().1;
        assert_eq!(color_hex(arne, "black").as_deref(), Some("#000000"));
        assert_eq!(color_hex(arne, "#FF0000").as_deref(), Some("#ff0000"));
        assert_eq!(color_hex(arne, "#f00").as_deref(), Some("#f00"));
        assert_eq!(color_hex(arne, "transparent"), None);
        assert_eq!(color_hex(arne, "nosuch"), None);
        assert!(color_hex(arne, "DarkBlue").is_some());
    }
}
