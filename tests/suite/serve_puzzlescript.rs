//! The playground's PuzzleScript API (`puz serve`), through the router without a socket:
//! `/api/check` on a game (its entries, messages included, and its coded diagnostics),
//! `POST /api/puzzlescript` replaying inputs (the board compared with a `Session` played
//! directly), a won level, a message entry, a rule's message, refused inputs and why,
//! hostile requests, `.txt` games among the served files, the solve and analyze jobs on
//! a game, and the refusal of its tests (`puz::ps::tests_need_sidecar`).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use puz::puzzlescript::{Game, Input, OnWin, Session};
use puz::serve::{router, AppState, Caps};
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::common::ps_data;

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

/// A small game: a message, a one-push level, a level whose rule shows a message.
const GAME: &str = "title Tiny Push

========
OBJECTS
========

Background
black

Wall
#804020

Player
blue
..0..
.000.
..0..
.0.0.
.....

Crate
orange transparent
00000
0...0
0.1.0
0...0
00000

Target
transparent

Bell
yellow

=======
LEGEND
=======

. = Background
# = Wall
P = Player
* = Crate
O = Target
B = Bell

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Target
Player, Wall, Crate, Bell

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ]
[ > Player | Bell ] -> [ > Player | ] message ding

==============
WINCONDITIONS
==============

All Crate on Target

=======
LEVELS
=======

message push the crate

#####
#P*O#
#####

#######
#PB.*O#
#######
";

fn app_on(path: &std::path::Path) -> axum::Router {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 18080));
    router(Arc::new(
        AppState::new(path, 2, Caps::default(), addr).unwrap(),
    ))
}

fn app() -> axum::Router {
    app_on(std::path::Path::new(PUZZLES))
}

async fn send(
    app: &axum::Router,
    method: Method,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:18080");
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let resp = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    send(app, Method::POST, uri, Some(body)).await
}

async fn play(app: &axum::Router, text: &str, entry: usize, inputs: &str) -> Value {
    let (status, v) = post(
        app,
        "/api/puzzlescript",
        json!({"text": text, "entry": entry, "inputs": inputs}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// The board a `Session` gives after `inputs`, as the API writes it.
fn session_board(text: &str, entry: usize, inputs: &str) -> (Value, bool) {
    let (game, _) = Game::load("game.txt", Arc::new(text.to_string())).unwrap();
    let mut s = Session::new(&game, entry, OnWin::Stop).unwrap();
    for i in Input::parse_list(inputs).unwrap() {
        s.input(i);
    }
    (json!(s.board()), s.won())
}

fn demo(name: &str) -> Option<String> {
    let dir = ps_data::reference_or_skip("serve_puzzlescript")?;
    Some(std::fs::read_to_string(dir.join("src/demo").join(name)).unwrap())
}

#[tokio::test]
async fn ps_check_lists_entries_with_messages() {
    let app = app();
    let (status, v) = post(&app, "/api/check", json!({"text": GAME})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["lang"], "puzzlescript");
    assert_eq!(v["title"], "Tiny Push");
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    assert_eq!(levels[0]["kind"], "message");
    assert_eq!(levels[0]["text"], "push the crate");
    assert_eq!(levels[1]["kind"], "level");
    assert_eq!(levels[1]["number"], 1);
    assert_eq!(
        (levels[1]["cols"].clone(), levels[1]["rows"].clone()),
        (json!(5), json!(3))
    );
    assert_eq!(levels[2]["number"], 2);
    assert_eq!(levels[2]["index"], 2);
}

#[tokio::test]
async fn ps_check_gives_coded_diagnostics_for_a_broken_game() {
    let app = app();
    let broken = GAME.replace("All Crate on Target", "All Crate on Nowhere");
    let (status, v) = post(&app, "/api/check", json!({"text": broken})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["lang"], "puzzlescript");
    assert_eq!(v["levels"], json!([]));
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error", "{v}");
    assert!(d["code"].as_str().unwrap().starts_with("puz::ps::"), "{d}");
    // The rendering names the buffer as a game, not as a .puz file.
    let rendered = d["rendered"].as_str().unwrap();
    assert!(
        rendered.contains("game.txt") && !rendered.contains("rules.puz"),
        "{rendered}"
    );
    let label = &d["labels"][0];
    let line = GAME
        .lines()
        .position(|l| l.contains("All Crate on Target"))
        .unwrap()
        + 1;
    assert_eq!(label["line"], line, "{d}");
    assert!(label["col"].as_u64().unwrap() >= 1);
    let start = label["start"].as_u64().unwrap() as usize;
    assert!(
        broken[start..].starts_with("Nowhere") || broken[..start + 8].contains("Nowhere"),
        "{d}"
    );
    // Playing it is refused with the same diagnostics.
    let (status, v) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": broken, "entry": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "game");
    assert!(!v["error"]["diagnostics"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn ps_play_replays_like_a_session() {
    let app = app();
    let v = play(&app, GAME, 1, "").await;
    assert_eq!(v["kind"], "level");
    assert_eq!(
        (v["width"].clone(), v["height"].clone()),
        (json!(5), json!(3))
    );
    assert_eq!(v["won"], false);
    assert_eq!(v["changed"], false);
    assert_eq!(v["refused"], Value::Null);
    // The looks, once: names, layers, colours in hex (transparent is null), sprites.
    let looks = v["looks"].as_array().unwrap();
    let crate_ = looks.iter().find(|l| l["name"] == "crate").unwrap();
    assert_eq!(crate_["colors"][1], Value::Null);
    assert!(crate_["colors"][0].as_str().unwrap().starts_with('#'));
    assert_eq!(crate_["sprite"].as_array().unwrap().len(), 5);
    let wall = looks.iter().find(|l| l["name"] == "wall").unwrap();
    assert_eq!(wall["colors"][0], "#804020");
    assert_eq!(wall["sprite"], json!([]));
    assert_eq!(v["background"], "#000000");
    let (board, _) = session_board(GAME, 1, "");
    assert_eq!(v["board"], board);

    // Up into a wall: nothing moves, and the page is told why, with the cells to mark.
    let v = play(&app, GAME, 1, "u").await;
    assert_eq!(v["changed"], false);
    assert_eq!(
        v["refused"],
        "the player at 1,1 cannot move up: the wall at 1,0 is in the way"
    );
    assert_eq!(v["why"]["kind"], "blocked");
    assert_eq!(v["why"]["message"], v["refused"]);
    assert_eq!(v["why"]["cells"], json!([[1, 1], [1, 0]]));
    assert_eq!(v["why"]["span"], Value::Null);
    // Undo with nothing to undo.
    let v = play(&app, GAME, 1, "z").await;
    assert_eq!(v["refused"], "nothing to undo");

    // The push wins; the board is the session's, and a later input is refused as won.
    let v = play(&app, GAME, 1, "r").await;
    assert_eq!(v["won"], true, "{v}");
    assert_eq!(v["changed"], true);
    assert_eq!(v["playing"], false);
    assert_eq!(v["board"], session_board(GAME, 1, "r").0);
    let v = play(&app, GAME, 1, "rl").await;
    assert_eq!(v["refused"], "the level is won");
    assert_eq!(v["board"], session_board(GAME, 1, "r").0);

    // Undo and restart are inputs like the others.
    let v = play(&app, GAME, 2, "rrzR").await;
    assert_eq!(v["board"], session_board(GAME, 2, "").0);
    assert_eq!(v["inputs"], 4);
}

/// The rule a refusal names, located in the text in UTF-16 offsets (the title has a
/// character of three bytes and one UTF-16 unit before it); again turns that never settle.
#[tokio::test]
async fn ps_play_names_the_rule_that_refused() {
    let app = app();
    let rule = "[ up Player ] -> cancel";
    let text = GAME
        .replace("title Tiny Push", "title Tiny Push \u{2713}")
        .replace(
            "[ > Player | Bell ]",
            &format!("{rule}\n[ > Player | Bell ]"),
        );
    let v = play(&app, &text, 2, "u").await;
    assert_eq!(v["why"]["kind"], "cancelled", "{v}");
    let line = text.lines().position(|l| l == rule).unwrap() + 1;
    assert_eq!(v["why"]["rule"]["line"], line);
    assert_eq!(v["why"]["where"]["line"], line);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let (a, b) = (
        v["why"]["span"][0].as_u64().unwrap() as usize,
        v["why"]["span"][1].as_u64().unwrap() as usize,
    );
    assert_eq!(String::from_utf16(&utf16[a..b]).unwrap(), rule);
    assert_eq!(
        v["refused"],
        format!("cancelled by the rule on line {line}: `{rule}`")
    );
    // A move that works has no why.
    let v = play(&app, &text, 2, "ur").await;
    assert_eq!(v["why"], Value::Null);
    // Again turns that never settle: stuck, with the rules that keep firing.
    let text = GAME.replace(
        "[ > Player | Bell ] -> [ > Player | ] message ding",
        "[ Bell ] -> [ Target ]\n[ Crate ] -> [ Bell ] again\n[ Target ] -> [ Crate ] again",
    );
    let v = play(&app, &text, 2, "r").await;
    assert_eq!(v["stuck"], true, "{v}");
    assert_eq!(v["playing"], false);
    assert_eq!(v["why"]["kind"], "stuck", "{v}");
    assert_eq!(v["why"]["rules"].as_array().map(Vec::len), Some(3), "{v}");
    let v = play(&app, &text, 2, "rl").await;
    assert_eq!(v["why"]["kind"], "stuck", "{v}");
    assert!(
        v["refused"].as_str().unwrap().contains("keep firing"),
        "{v}"
    );
}

#[tokio::test]
async fn ps_play_shows_messages() {
    let app = app();
    // A message entry is its text.
    let v = play(&app, GAME, 0, "").await;
    assert_eq!(v["kind"], "message");
    assert_eq!(v["text"], "push the crate");
    assert!(v.get("board").is_none());
    // A rule's message comes with the input that showed it.
    let v = play(&app, GAME, 2, "r").await;
    assert_eq!(v["messages"], json!(["ding"]), "{v}");
    assert_eq!(v["refused"], Value::Null);
    let v = play(&app, GAME, 2, "rr").await;
    assert_eq!(v["messages"], json!([]));
}

#[tokio::test]
async fn ps_play_matches_sessions_on_demo_games() {
    let Some(text) = demo("microban.txt") else {
        return;
    };
    let app = app();
    // Oracle-found answer of microban's first level (entry 1).
    let answer = "dlurrrdlullddruluruuldrddrruldluu";
    for k in [0, 5, 17, answer.len() - 1, answer.len()] {
        let v = play(&app, &text, 1, &answer[..k]).await;
        let (board, won) = session_board(&text, 1, &answer[..k]);
        assert_eq!(v["board"], board, "after {k} inputs");
        assert_eq!(v["won"], won, "after {k} inputs");
    }
    assert_eq!(play(&app, &text, 1, answer).await["won"], true);
    let (_, v) = post(&app, "/api/check", json!({"text": text})).await;
    assert_eq!(v["levels"].as_array().unwrap().len(), 21);
    assert_eq!(v["levels"][0]["kind"], "message");
}

#[tokio::test]
async fn ps_play_refuses_hostile_requests() {
    let app = app();
    // Too many inputs.
    let many = "u".repeat(puz::serve::MAX_PS_INPUTS + 1);
    let (status, v) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": GAME, "entry": 1, "inputs": many}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // Not inputs.
    let (status, v) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": GAME, "entry": 1, "inputs": "uq"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("\"q\""),
        "{v}"
    );
    // No such entry.
    let (status, v) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": GAME, "entry": 99}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "entry");
    // Not a game at all, and a .puz file.
    for text in [
        "hello\nworld\n".to_string(),
        std::fs::read_to_string(format!("{PUZZLES}/bloxorz.puz")).unwrap(),
    ] {
        let (status, v) = post(&app, "/api/puzzlescript", json!({"text": text, "entry": 0})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["error"]["code"], "game");
    }
    // One input whose turn would run for minutes in any build (a quarter of a million
    // cells, each rewritten 100 times per pass by a group that never settles, for 200
    // passes): stopped at the replay's time limit, inside the turn.
    let row = "B".repeat(500);
    let mut level = vec![row; 500].join("\n");
    level.replace_range(0..1, "P");
    let churn = vec!["[ Bell ] -> [ Crate ]\n+ [ Crate ] -> [ Bell ]"; 50].join("\n+ ");
    let slow = GAME
        .replace("[ > Player | Bell ] -> [ > Player | ] message ding", &churn)
        .replace("#######\n#PB.*O#\n#######", &level);
    let t0 = std::time::Instant::now();
    let (status, v) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": slow, "entry": 2, "inputs": "r"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "slow", "{v}");
    assert!(t0.elapsed().as_secs() < 40, "{:?}", t0.elapsed());
    // Malformed bodies.
    let (status, _) = post(&app, "/api/puzzlescript", json!({"entry": 0})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = post(
        &app,
        "/api/puzzlescript",
        json!({"text": GAME, "entry": -1}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Many inputs within the cap replay quickly.
    let long = "lr".repeat(20_000);
    let v = play(&app, GAME, 2, &long).await;
    assert_eq!(v["inputs"], 40_000);
}

/// Solve and Analyze run on a game's level as `puz solve` and `puz analyze` do; the
/// tests are refused (a game's expectations live in its `.expect` file, which the page
/// does not send).
#[tokio::test]
async fn ps_solve_and_analyze_run_and_tests_are_refused() {
    let app = app();
    let (status, v) = post(&app, "/api/test", json!({"text": GAME, "level": 1})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["error"]["code"], "puz::ps::tests_need_sidecar");
    assert!(v["error"]["message"].as_str().unwrap().contains(".expect"));
    let (status, v) = post(&app, "/api/solve", json!({"text": GAME, "level": 2})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let r = finished(&app, v["job"].as_str().unwrap()).await;
    assert_eq!(r["outcome"], "solved", "{r}");
    // Through the bell (it vanishes, with a message), then the crate onto the target.
    assert_eq!(r["inputs"], "rrr", "{r}");
    assert_eq!(r["cost"]["inputs"], 3, "{r}");
    assert_eq!(r["moves"][0]["letter"], "r", "{r}");
    assert!(
        r["message"].as_str().unwrap().contains("won in 3 inputs"),
        "{r}"
    );
    let (status, v) = post(&app, "/api/analyze", json!({"text": GAME, "level": 1})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let r = finished(&app, v["job"].as_str().unwrap()).await;
    assert_eq!(r["outcome"], "done", "{r}");
    assert_eq!(r["optimal_moves"], 1, "{r}");
    // A message entry is not a level.
    let (_, v) = post(&app, "/api/solve", json!({"text": GAME, "level": 0})).await;
    let r = finished(&app, v["job"].as_str().unwrap()).await;
    assert_eq!(r["outcome"], "error", "{r}");
}

/// The result of a job, once it is done.
async fn finished(app: &axum::Router, id: &str) -> Value {
    for _ in 0..500 {
        let (status, v) = send(app, Method::GET, &format!("/api/jobs/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["state"] == "done" {
            return v["result"].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("job {id} did not finish");
}

#[tokio::test]
async fn ps_level_and_play_routes_refuse_games() {
    let app = app();
    for route in ["/api/level", "/api/play"] {
        let (status, v) = post(&app, route, json!({"text": GAME, "level": 1})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{route}: {v}");
        assert_eq!(v["error"]["code"], "puzzlescript", "{route}");
    }
}

#[tokio::test]
async fn ps_games_are_served_files_and_other_txt_files_are_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.txt"), GAME).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "just notes\n").unwrap();
    std::fs::write(dir.path().join("a.puz"), "puzzle \"a\"\n").unwrap();
    let app = app_on(dir.path());
    let (_, v) = send(&app, Method::GET, "/api/files", None).await;
    let paths: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["a.puz", "game.txt"]);
    let (status, v) = send(&app, Method::GET, "/api/file?path=game.txt", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["text"], GAME);
    let (status, v) = send(&app, Method::GET, "/api/file?path=notes.txt", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    // A game is saved as a game; a .txt file is never overwritten with other text, nor
    // is a .txt file that is not a game overwritten with one.
    let edited = GAME.replace("Tiny Push", "Tiny Push 2");
    let (status, v) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "game.txt", "text": edited})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("game.txt")).unwrap(),
        edited
    );
    let (status, _) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "game.txt", "text": "gone"})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "notes.txt", "text": GAME})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "just notes\n"
    );
    let (status, v) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "new.txt", "text": GAME})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}
