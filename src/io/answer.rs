//! Answers as JSON: the moves of a path, told with the pieces they moved, in the shape
//! `puz solve --json` prints and the playground's API returns.

use crate::engine::{CellPos, MoveDescription, MoveTarget};

/// One counted move as JSON: `move`, `piece`, `from`, `to` (its anchor before the first
/// unit step and after the last), `letters`, and `steps`, the unit moves as
/// [`move_json`] gives them.
pub fn counted_json(steps: &[MoveDescription]) -> serde_json::Value {
    use serde_json::{json, Value};
    let pos = |c: Option<CellPos>| c.map_or(Value::Null, |(r, c)| json!([r, c]));
    let first = steps.first().and_then(|d| d.main());
    let last = steps.last().and_then(|d| d.main());
    json!({
        "move": steps.first().map(|d| d.mv.as_str()),
        "piece": first.map(|p| p.name.as_str()),
        "from": pos(first.and_then(|p| p.from)),
        "to": pos(last.and_then(|p| p.to)),
        "letters": steps.iter().map(|d| d.letter.as_str()).collect::<String>(),
        "steps": steps.iter().map(move_json).collect::<Vec<_>>(),
    })
}

/// One move of an answer as JSON: `move`, `piece`, `from`, `to`, `dir` or `cell`,
/// `letter`; `others` lists further pieces the move changed, `tiles` and `counters` what
/// else changed.
pub fn move_json(d: &MoveDescription) -> serde_json::Value {
    use serde_json::{json, Value};
    let pos = |c: Option<CellPos>| c.map_or(Value::Null, |(r, c)| json!([r, c]));
    let main = d.main();
    let mut v = json!({
        "move": d.mv,
        "piece": main.map(|p| p.name.as_str()),
        "from": pos(main.and_then(|p| p.from)),
        "to": pos(main.and_then(|p| p.to)),
    });
    match &d.target {
        MoveTarget::Dir(name) => v["dir"] = json!(name),
        MoveTarget::Cell(c) => v["cell"] = pos(Some(*c)),
    }
    v["letter"] = json!(d.letter);
    if d.moved.len() > 1 {
        v["others"] = d.moved[1..]
            .iter()
            .map(|p| json!({"piece": p.name, "from": pos(p.from), "to": pos(p.to)}))
            .collect::<Vec<_>>()
            .into();
    }
    if !d.tiles.is_empty() {
        v["tiles"] = d
            .tiles
            .iter()
            .map(|t| json!({"cell": pos(Some(t.cell)), "from": t.from, "to": t.to}))
            .collect::<Vec<_>>()
            .into();
    }
    if !d.counters.is_empty() {
        v["counters"] = d
            .counters
            .iter()
            .map(|c| json!({"name": c.name, "from": c.from, "to": c.to}))
            .collect::<Vec<_>>()
            .into();
    }
    v
}
