//! The playground's JSON API (`puz serve`), driven through the router without a socket:
//! diagnostics with spans, files confined to the served directory, solve/analyze/test jobs
//! with their event streams, budgets, cancel, the cap on running jobs, malformed or
//! hostile requests answered with JSON errors, and the Host and Origin checks (through
//! the router, and on a real socket where only raw bytes can say it: two Host headers,
//! none, an absolute-form target).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use puz::serve::{router, AppState, Caps};
use serde_json::{json, Value};
use tower::ServiceExt;

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");

fn puzzle(name: &str) -> String {
    std::fs::read_to_string(format!("{PUZZLES}/{name}")).unwrap()
}

/// The port the router-level tests' server says it is on (never bound).
const PORT: u16 = 18080;

/// The `Host` the router-level tests send.
const HOST: &str = "127.0.0.1:18080";

fn app_on(path: &std::path::Path, max_jobs: usize, caps: Caps) -> axum::Router {
    app_at(
        path,
        max_jobs,
        caps,
        SocketAddr::from(([127, 0, 0, 1], PORT)),
    )
}

/// A server on `path` as if bound to `addr`.
fn app_at(path: &std::path::Path, max_jobs: usize, caps: Caps, addr: SocketAddr) -> axum::Router {
    router(Arc::new(AppState::new(path, max_jobs, caps, addr).unwrap()))
}

fn app() -> axum::Router {
    app_on(std::path::Path::new(PUZZLES), 4, Caps::default())
}

/// Sends one request; returns the status and the body (JSON when it parses, else text).
async fn send(
    app: &axum::Router,
    method: Method,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    raw(app, req.body(body).unwrap()).await
}

/// Sends `req`, with this server's `Host` when it names none (as every HTTP/1.1 client
/// does).
async fn raw(app: &axum::Router, mut req: Request<Body>) -> (StatusCode, Value) {
    if !req.headers().contains_key("host") {
        req.headers_mut().insert("host", HOST.parse().unwrap());
    }
    exact(app, req).await
}

/// Sends `req` as it is.
async fn exact(app: &axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.clone().oneshot(req).await.unwrap();
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

/// Every event of a job's stream, until it ends: (event name, data).
async fn events(app: &axum::Router, id: &str) -> Vec<(String, Value)> {
    let (status, body) = send(app, Method::GET, &format!("/api/jobs/{id}/events"), None).await;
    assert_eq!(status, StatusCode::OK);
    let text = body.as_str().expect("an event stream is text").to_string();
    let mut out = vec![];
    for block in text.split("\n\n") {
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            }
        }
        if !name.is_empty() {
            out.push((name, serde_json::from_str(&data).unwrap()));
        }
    }
    out
}

/// Starts a job and waits for its result (the last event, `done`).
async fn run_job(app: &axum::Router, uri: &str, body: Value) -> Value {
    let (status, started) = post(app, uri, body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    let evs = events(app, started["job"].as_str().unwrap()).await;
    let (name, result) = evs.last().cloned().expect("a done event");
    assert_eq!(name, "done");
    assert!(evs[..evs.len() - 1].iter().all(|(n, _)| n == "progress"));
    result
}

/// The UTF-16 slice `[start, end)` of `text`, as the page's editor would take it.
fn utf16_slice(text: &str, start: u64, end: u64) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[start as usize..end as usize]).unwrap()
}

#[tokio::test]
async fn diagnostics_carry_codes_and_spans_in_editor_offsets() {
    let app = app();
    // Characters outside the BMP and accents before the error: UTF-16 offsets differ from
    // byte and character offsets there.
    let text = puzzle("bloxorz.puz").replacen("puzzle", "// ünïcode 😀😀 first\npuzzle", 1);
    let broken = text.replacen("goal block", "goal blokc", 1);
    assert_ne!(broken, text);
    let (status, v) = post(&app, "/api/check", json!({"text": broken})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["ok"], false);
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert!(d["code"].as_str().unwrap().starts_with("puz::"), "{d}");
    assert!(d["message"].as_str().unwrap().contains("blokc"), "{d}");
    let label = &d["labels"][0];
    let (s, e) = (
        label["start"].as_u64().unwrap(),
        label["end"].as_u64().unwrap(),
    );
    assert_eq!(utf16_slice(&broken, s, e), "blokc");
    let line = broken.lines().position(|l| l.contains("blokc")).unwrap() + 1;
    assert_eq!(label["line"].as_u64().unwrap() as usize, line);
    let col = broken.lines().nth(line - 1).unwrap().find("blokc").unwrap() + 1;
    assert_eq!(label["col"].as_u64().unwrap() as usize, col);
    assert!(d["rendered"].as_str().unwrap().contains("blokc"));
    assert!(d["help"].is_string(), "{d}");

    // Fixed: no errors, and the levels are listed.
    let (_, v) = post(&app, "/api/check", json!({"text": text})).await;
    assert_eq!(v["ok"], true, "{v}");
    assert!(!v["levels"].as_array().unwrap().is_empty());
    assert_eq!(v["levels"][0]["ok"], true);
}

#[tokio::test]
async fn every_shipped_puzzle_checks_clean_with_its_levels() {
    let app = app();
    for e in std::fs::read_dir(PUZZLES).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "puz") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let (status, v) = post(&app, "/api/check", json!({"text": text})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["ok"], true, "{}: {v}", path.display());
        let levels = v["levels"].as_array().unwrap();
        assert!(levels.iter().all(|l| l["ok"] == true), "{}", path.display());
    }
}

#[tokio::test]
async fn a_broken_level_is_listed_and_reported_beside_the_good_ones() {
    let app = app();
    let text = puzzle("bloxorz.puz") + "\nlevel \"bad\" \"\"\"\n  ##\n  #Q\n  \"\"\"\n";
    let (_, v) = post(&app, "/api/check", json!({"text": text})).await;
    assert_eq!(v["ok"], false);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.last().unwrap()["ok"], false, "{v}");
    assert_eq!(levels[0]["ok"], true);
    let d = &v["diagnostics"][0];
    let label = &d["labels"][0];
    let slice = utf16_slice(
        &text,
        label["start"].as_u64().unwrap(),
        label["end"].as_u64().unwrap(),
    );
    assert!(slice.contains('Q'), "{slice:?} {d}");
}

#[tokio::test]
async fn solve_streams_a_done_event_with_moves_pieces_and_frames() {
    let app = app();
    let r = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("bloxorz.puz"), "level": 0}),
    )
    .await;
    assert_eq!(r["outcome"], "solved", "{r}");
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    assert_eq!(r["cost_vector"], json!([10]));
    assert_eq!(r["path"].as_str().unwrap().chars().count(), 10);
    for m in moves {
        assert_eq!(m["piece"], "block");
        assert_eq!(m["move"], "roll");
        assert!(
            m["line"].as_str().unwrap().starts_with("roll block ("),
            "{m}"
        );
    }
    let frames = r["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 11);
    // Each frame's block is where its move says it went.
    for (k, m) in moves.iter().enumerate() {
        assert_eq!(frames[k + 1]["pieces"][0]["anchor"], m["to"], "move {k}");
        assert_eq!(frames[k]["pieces"][0]["anchor"], m["from"], "move {k}");
    }
    assert!(r["engine"].is_string() && r["search"].is_string());
    assert!(r["stats"]["stored"].as_u64().unwrap() > 0);

    // The interpreter gives the same path.
    let i = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("bloxorz.puz"), "engine": "interp", "search": "bfs"}),
    )
    .await;
    assert_eq!(i["path"], r["path"]);
    assert_eq!(i["engine"], "interpreter");
}

#[tokio::test]
async fn solve_reports_unsolvable_levels_and_metrics() {
    let app = app();
    let r = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("klotski.puz"), "level": 3}),
    )
    .await;
    assert_eq!(r["outcome"], "unsolvable", "{r}");
    let r = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("klotski.puz"), "level": 2, "metric": "slides"}),
    )
    .await;
    assert_eq!(r["outcome"], "solved", "{r}");
    assert_eq!(r["metric"], "slides");
    assert_eq!(r["moves"].as_array().unwrap().len(), 10);
    assert!(r["moves"][0]["steps"].is_array());
    let r = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("klotski.puz"), "metric": "nope"}),
    )
    .await;
    assert_eq!(r["outcome"], "error");
    assert!(r["message"].as_str().unwrap().contains("slides"), "{r}");
}

#[tokio::test]
async fn analyze_gives_layers_farthest_board_and_small_graphs() {
    let app = app();
    let r = run_job(&app, "/api/analyze", json!({"text": puzzle("bloxorz.puz")})).await;
    assert_eq!(r["outcome"], "done", "{r}");
    let layers: Vec<u64> = r["states_at_distance"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(
        layers.iter().sum::<u64>(),
        r["reachable_states"].as_u64().unwrap()
    );
    assert_eq!(r["optimal_moves"], 10);
    assert!(r["farthest"]["pieces"].is_array());
    let g = &r["graph"];
    let nodes = g["nodes"].as_array().unwrap();
    assert_eq!(nodes.len() as u64, r["reachable_states"].as_u64().unwrap());
    assert_eq!(
        g["edges"].as_array().unwrap().len() as u64,
        r["transitions"].as_u64().unwrap()
    );
    assert_eq!(
        nodes.iter().filter(|n| n["goal"] == true).count() as u64,
        r["goal_states"].as_u64().unwrap()
    );
    assert_eq!(
        nodes.iter().filter(|n| n["dead"] == true).count() as u64,
        r["dead_states"].as_u64().unwrap()
    );
    let far = nodes
        .iter()
        .find(|n| n["depth"] == r["farthest_distance"])
        .unwrap();
    assert_eq!(far["board"], r["farthest"]);
}

#[tokio::test]
async fn test_job_runs_every_expectation() {
    let app = app();
    // One budget covers the whole run: generous, so a loaded machine does not fail it.
    let body = json!({"text": puzzle("klotski.puz"), "budget": {"timeout_ms": 120_000}});
    let r = run_job(&app, "/api/test", body).await;
    let rows = r["levels"].as_array().unwrap();
    assert!(rows.len() >= 4, "{r}");
    assert!(rows.iter().all(|l| l["status"] == "pass"), "{r}");
    // A wrong expectation fails, naming both answers.
    let wrong = puzzle("bloxorz.puz").replacen("expect 10", "expect 11", 1);
    assert_ne!(wrong, puzzle("bloxorz.puz"), "bloxorz.puz should expect 10");
    let r = run_job(&app, "/api/test", json!({"text": wrong})).await;
    let row = &r["levels"][0];
    assert_eq!(row["status"], "fail", "{r}");
    assert_eq!(row["expected"], "11 rolls");
    assert_eq!(row["got"], "10 rolls");
}

/// A level no search finishes soon: English peg solitaire (187,636,299 positions).
fn big_level() -> Value {
    json!({"text": puzzle("pegsolitaire.puz"), "level": 0, "engine": "interp", "search": "bfs"})
}

/// A result without its bulky parts, for failure messages.
fn brief(r: &Value) -> String {
    format!("{} {}", r["outcome"], r["message"])
}

#[tokio::test]
async fn budgets_cut_searches_off_and_requests_are_capped() {
    let caps = Caps {
        max_states: 5000,
        ..Caps::default()
    };
    let app = app_on(std::path::Path::new(PUZZLES), 2, caps);
    let mut body = big_level();
    body["budget"] = json!({"max_states": 1_000_000_000_000u64});
    let (status, started) = post(&app, "/api/solve", body).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        started["budget"]["max_states"], 5000,
        "the server's cap applies"
    );
    let evs = events(&app, started["job"].as_str().unwrap()).await;
    let r = &evs.last().unwrap().1;
    assert_eq!(r["outcome"], "cutoff", "{}", brief(r));
    assert!(
        r["message"].as_str().unwrap().contains("state limit"),
        "{}",
        brief(r)
    );

    let app = self::app();
    let mut body = big_level();
    body["budget"] = json!({"timeout_ms": 50, "max_states": 50_000_000});
    let t0 = Instant::now();
    let r = run_job(&app, "/api/solve", body).await;
    assert_eq!(r["outcome"], "cutoff", "{}", brief(&r));
    assert!(
        r["message"].as_str().unwrap().contains("time limit"),
        "{}",
        brief(&r)
    );
    assert!(t0.elapsed() < Duration::from_secs(20));
    let mut body = big_level();
    body["budget"] = json!({"max_states": 2000});
    let r = run_job(&app, "/api/analyze", body).await;
    assert_eq!(r["outcome"], "cutoff", "{r}");
}

#[tokio::test]
async fn cancel_ends_a_running_search_and_the_job_cap_holds() {
    let app = app_on(std::path::Path::new(PUZZLES), 1, Caps::default());
    let mut body = big_level();
    body["budget"] = json!({"timeout_ms": 60_000, "max_states": 50_000_000});
    let (status, started) = post(&app, "/api/solve", body.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let id = started["job"].as_str().unwrap().to_string();
    // A second search is refused while the first runs.
    let (status, v) = post(&app, "/api/solve", body.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(v["error"]["code"], "busy");
    let (_, st) = send(&app, Method::GET, &format!("/api/jobs/{id}"), None).await;
    assert_eq!(st["state"], "running");
    assert_eq!(st["kind"], "solve");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t0 = Instant::now();
    let (status, v) = send(&app, Method::DELETE, &format!("/api/jobs/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let evs = events(&app, &id).await;
    let r = &evs.last().unwrap().1;
    assert_eq!(r["outcome"], "cancelled", "{}", brief(r));
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "cancel took {:?}",
        t0.elapsed()
    );
    // Progress was streamed before the end (the search ran for a while).
    let (_, st) = send(&app, Method::GET, &format!("/api/jobs/{id}"), None).await;
    assert_eq!(st["state"], "done");
    assert!(st["progress"]["expanded"].as_u64().unwrap() > 0, "{st}");
    assert!(st["progress"]["elapsed"].as_f64().unwrap() > 0.0, "{st}");
    // The slot is free again (the thread gives it back right after publishing).
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, _) = post(&app, "/api/solve", json!({"text": puzzle("bloxorz.puz")})).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, v) = send(&app, Method::GET, "/api/jobs/nope/events", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["error"]["code"], "not_found");
}

#[tokio::test]
async fn files_stay_inside_the_served_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("a.puz"), puzzle("bloxorz.puz")).unwrap();
    std::fs::write(root.join("sub/b.puz"), "puzzle \"b\"\n").unwrap();
    std::fs::write(dir.path().join("secret.puz"), "secret").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("secret.puz"), root.join("link.puz")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("out")).unwrap();
    }
    let app = app_on(&root, 2, Caps::default());
    let (status, v) = send(&app, Method::GET, "/api/files", None).await;
    assert_eq!(status, StatusCode::OK);
    let paths: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["a.puz", "sub/b.puz"], "symlinks are not listed");
    assert_eq!(v["initial"], "a.puz");

    let (status, v) = send(&app, Method::GET, "/api/file?path=sub/b.puz", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["text"], "puzzle \"b\"\n");
    for bad in [
        "../secret.puz",
        "sub/../../secret.puz",
        "%2e%2e/secret.puz",
        "/etc/passwd.puz",
        "link.puz",
        "out/secret.puz",
        "a.txt",
        ".hidden.puz",
        "sub\\..\\..\\secret.puz",
    ] {
        let (status, v) = send(&app, Method::GET, &format!("/api/file?path={bad}"), None).await;
        assert!(
            status == StatusCode::FORBIDDEN || status == StatusCode::NOT_FOUND,
            "{bad}: {status} {v}"
        );
        assert!(v["error"]["code"].is_string(), "{bad}: {v}");
        let (status, _) = send(
            &app,
            Method::PUT,
            "/api/file",
            Some(json!({"path": bad, "text": "x"})),
        )
        .await;
        assert!(
            status == StatusCode::FORBIDDEN || status == StatusCode::NOT_FOUND,
            "{bad}: {status}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("secret.puz")).unwrap(),
        "secret"
    );

    // Saving inside works, and reads back.
    let (status, v) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "sub/b.puz", "text": "// saved\n"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        std::fs::read_to_string(root.join("sub/b.puz")).unwrap(),
        "// saved\n"
    );
    let (status, _) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "new.puz", "text": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(root.join("new.puz").is_file());

    // A server on one file serves that file alone.
    let app = app_on(&root.join("a.puz"), 2, Caps::default());
    let (_, v) = send(&app, Method::GET, "/api/files", None).await;
    assert_eq!(v["files"].as_array().unwrap().len(), 1);
    let (status, _) = send(&app, Method::GET, "/api/file?path=sub/b.puz", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = app();
    let big = "x".repeat(puz::serve::MAX_BODY + 10);
    let (status, v) = post(&app, "/api/check", json!({"text": big})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(v["error"]["code"], "too_large");

    let req = |body: &str, ctype: &str| {
        Request::builder()
            .method(Method::POST)
            .uri("/api/check")
            .header("content-type", ctype)
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    for (body, ctype) in [
        ("{", "application/json"),
        ("{\"text\": 5}", "application/json"),
        ("[]", "application/json"),
        ("{\"text\":\"x\"}", "text/plain"),
    ] {
        let (status, v) = raw(&app, req(body, ctype)).await;
        assert!(status.is_client_error(), "{body}: {status}");
        assert_eq!(v["error"]["code"], "bad_request", "{body}: {v}");
    }
    let (status, v) = post(&app, "/api/solve", json!({"text": "", "level": -1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = post(&app, "/api/solve", json!({"text": "", "search": "warp"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]["message"].as_str().unwrap().contains("bfs"),
        "{v}"
    );
    let (status, v) = send(&app, Method::GET, "/api/nothing", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["error"]["code"], "not_found");
    let (status, v) = send(&app, Method::DELETE, "/api/check", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(v["error"]["code"].is_string());
    let (status, v) = send(&app, Method::GET, "/api/file", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");

    // Another host name: refused (DNS rebinding; more in `hosts_must_name_this_server`).
    let (status, v) = get_as(&app, "/api/files", &[("host", "evil.example:8080")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "forbidden", "{v}");

    // A job on a level that does not exist ends with an error result, not a failure.
    let r = run_job(
        &app,
        "/api/solve",
        json!({"text": puzzle("bloxorz.puz"), "level": 99}),
    )
    .await;
    assert_eq!(r["outcome"], "error");
    let r = run_job(&app, "/api/solve", json!({"text": "puzzle"})).await;
    assert_eq!(r["outcome"], "error");
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let app = app();
    let (status, v) = send(&app, Method::GET, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(v.as_str().unwrap().contains("<"));
    for a in [
        "/assets/app.js",
        "/assets/app.css",
        "/assets/editor.js",
        "/assets/painter.js",
    ] {
        let (status, _) = send(&app, Method::GET, a, None).await;
        assert_eq!(status, StatusCode::OK, "{a}");
    }
}

#[tokio::test]
async fn hostile_rule_files_get_answers_not_crashes() {
    let app = app();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/robustness");
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "puz") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if text.len() > puz::serve::MAX_BODY - 100 {
            continue;
        }
        let t0 = Instant::now();
        let (status, v) = post(&app, "/api/check", json!({"text": text})).await;
        assert_eq!(status, StatusCode::OK, "{}: {v}", path.display());
        assert!(v["diagnostics"].is_array());
        assert!(v["diagnostics"].as_array().unwrap().len() <= 2 * puz::diagnostics::MAX_SHOWN + 1);
        let r = run_job(
            &app,
            "/api/solve",
            json!({"text": text, "budget": {"timeout_ms": 1000, "max_states": 100000, "max_memory_mb": 2000}}),
        )
        .await;
        assert!(r["outcome"].is_string(), "{}: {r}", path.display());
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{}: {:?}",
            path.display(),
            t0.elapsed()
        );
    }
}

#[tokio::test]
async fn a_level_is_played_to_the_goal_and_refusals_point_at_the_rule() {
    let app = app();
    let text = puzzle("bloxorz.puz");
    let (status, v) = post(&app, "/api/level", json!({"text": text, "level": 0})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["name"], "sample");
    assert_eq!(v["moves"][0]["name"], "roll");
    assert_eq!(v["dirs"].as_array().unwrap().len(), 4);
    assert_eq!(v["goal"], false);
    assert_eq!(v["board"]["rows"], 7);
    assert!(!v["key"].as_array().unwrap().is_empty());
    let colours = v["palette"]["tiles"].as_array().unwrap();
    assert_eq!(colours.len(), v["tiles"].as_array().unwrap().len());

    // The solver's answer, played one arrow at a time, reaches the goal.
    let r = run_job(&app, "/api/solve", json!({"text": text})).await;
    let mut history: Vec<Value> = vec![];
    for (k, m) in r["moves"].as_array().unwrap().iter().enumerate() {
        let (status, p) = post(
            &app,
            "/api/play",
            json!({"text": text, "history": history, "try": {"dir": m["dir"]}}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["played"]["line"], m["line"], "move {k}");
        assert_eq!(p["moves"], k + 1);
        assert_eq!(p["board"], r["frames"][k + 1]);
        history = p["history"].as_array().unwrap().clone();
        assert_eq!(p["goal"], k + 1 == 10);
    }
    assert_eq!(history.len(), 10);

    // From the start, rolling east lies the block on void: refused, naming the rule.
    let (status, p) = post(
        &app,
        "/api/play",
        json!({"text": text, "try": {"dir": "e"}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(p["played"].is_null());
    let b = &p["blocked"];
    assert!(b["message"].as_str().unwrap().contains("block"), "{b}");
    let span = b["span"].as_array().unwrap();
    let slice = utf16_slice(&text, span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
    assert!(slice.starts_with("forbid block"), "{slice:?}");
    assert_eq!(p["moves"], 0, "a refused move changes nothing");

    // Hostile wishes are refused, never a crash.
    for want in [
        json!({"move": "fly"}),
        json!({"dir": "up"}),
        json!({"cell": [i64::MAX, i64::MIN]}),
        json!({"move": "roll", "cell": [-1, 3]}),
    ] {
        let (status, p) = post(&app, "/api/play", json!({"text": text, "try": want})).await;
        assert_eq!(status, StatusCode::OK, "{want}: {p}");
        assert!(p["blocked"]["message"].is_string(), "{want}: {p}");
    }
    // A history that cannot be replayed names its first bad move.
    let (status, p) = post(
        &app,
        "/api/play",
        json!({"text": text, "history": [{"move": "roll", "dir": "w"}, {"move": "roll", "dir": "n"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{p}");
    assert_eq!(p["error"]["code"], "history");
    assert_eq!(p["error"]["at"], 1);
    // Rules or levels that do not load: 422 with the diagnostics.
    let (status, p) = post(&app, "/api/level", json!({"text": "puzzle", "level": 0})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(p["error"]["code"], "level");
    assert!(p["error"]["diagnostics"][0]["code"].is_string(), "{p}");
    let (status, _) = post(&app, "/api/level", json!({"text": text, "level": 12})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn per_cell_moves_are_played_by_cell() {
    let app = app();
    let text = puzzle("lightsout.puz");
    let level = 3; // four corners
    let (status, v) = post(&app, "/api/level", json!({"text": text, "level": level})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["per_cell"] == true));
    let r = run_job(&app, "/api/solve", json!({"text": text, "level": level})).await;
    assert_eq!(r["outcome"], "solved", "{}", brief(&r));
    assert_eq!(r["moves"].as_array().unwrap().len(), 6);
    let mut history: Vec<Value> = vec![];
    for m in r["moves"].as_array().unwrap() {
        let (status, p) = post(
            &app,
            "/api/play",
            json!({"text": text, "level": level, "history": history, "try": {"move": m["move"], "cell": m["cell"]}}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert!(p["played"].is_object(), "{m}: {p}");
        history = p["history"].as_array().unwrap().clone();
    }
    let (_, p) = post(
        &app,
        "/api/play",
        json!({"text": text, "level": level, "history": history}),
    )
    .await;
    assert_eq!(p["goal"], true);
}

/// A request to `uri` with exactly these headers (no `Host` added).
fn request(
    method: Method,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
        None => req.body(Body::empty()).unwrap(),
    }
}

/// `GET uri` with exactly these headers.
async fn get_as(app: &axum::Router, uri: &str, headers: &[(&str, &str)]) -> (StatusCode, Value) {
    exact(app, request(Method::GET, uri, headers, None)).await
}

/// A 403 with the API's JSON error, whose message contains `needle`.
fn assert_forbidden(what: &str, status: StatusCode, v: &Value, needle: &str) {
    assert_eq!(status, StatusCode::FORBIDDEN, "{what}: {v}");
    assert_eq!(v["error"]["code"], "forbidden", "{what}: {v}");
    let m = v["error"]["message"].as_str().unwrap_or_default();
    assert!(m.contains(needle), "{what}: {needle:?} not in {m:?}");
}

/// A directory with `a.puz` (bloxorz) and `sub/b.puz`.
fn served_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("a.puz"), puzzle("bloxorz.puz")).unwrap();
    std::fs::write(dir.path().join("sub/b.puz"), "puzzle \"b\"\n").unwrap();
    dir
}

/// Names that are not this server's, each with and without `:PORT`: the reproducers of
/// the prefix match (`127.attacker.example` and the like were served, and could read and
/// overwrite files), other loopback spellings, other ports, and the port left out.
fn foreign_hosts() -> Vec<String> {
    let mut out = vec![];
    for name in [
        "evil.com",
        "localhost.evil.com",
        "127.attacker.example",
        "127.0.0.1.evil.com",
        "127.0.0.1evil.com",
        "[::1].evil.com",
        "127.255.255.255",
        "127.0.0.2",
        "127.1",
        "0x7f000001",
        "[::ffff:127.0.0.1]",
        "localhost.",
        "",
    ] {
        out.push(name.to_string());
        out.push(format!("{name}:{PORT}"));
    }
    out.extend(
        [
            "localhost",
            "127.0.0.1",
            "[::1]",
            "localhost:8080",
            "127.0.0.1:9",
            "[::1]:8080",
            "localhost:18080.evil.com",
            "localhost:18080:18080",
            "localhost:018080",
            "127.0.0.1:18080@evil.com",
            "evil.com@127.0.0.1:18080",
            "localhost :18080",
        ]
        .map(String::from),
    );
    out
}

#[tokio::test]
async fn hosts_must_name_this_server_exactly() {
    let dir = served_dir();
    let app = app_on(dir.path(), 2, Caps::default());
    for host in foreign_hosts() {
        for uri in ["/api/files", "/api/file?path=a.puz", "/", "/api/nothing"] {
            let (status, v) = get_as(&app, uri, &[("host", &host)]).await;
            if host.contains(' ') && status == StatusCode::BAD_REQUEST {
                continue; // not a header value the router takes
            }
            assert_forbidden(&format!("{host} {uri}"), status, &v, "DNS rebinding");
        }
        // The reproducer's PUT through a rebinding host: refused, the file untouched.
        let r = request(
            Method::PUT,
            "/api/file",
            &[("host", &host)],
            Some(json!({"path": "a.puz", "text": "puzzle \"overwritten\""})),
        );
        let (status, v) = exact(&app, r).await;
        assert_forbidden(&format!("PUT {host}"), status, &v, "Host");
        let (status, v) = exact(
            &app,
            request(
                Method::POST,
                "/api/check",
                &[("host", &host)],
                Some(json!({"text": ""})),
            ),
        )
        .await;
        assert_forbidden(&format!("POST {host}"), status, &v, "Host");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.puz")).unwrap(),
        puzzle("bloxorz.puz")
    );
    // The server's own names with its port, in any letter case.
    for host in [
        "localhost:18080",
        "127.0.0.1:18080",
        "[::1]:18080",
        "LocalHost:18080",
    ] {
        let (status, v) = get_as(&app, "/api/files", &[("host", host)]).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    // No Host, or two (the first good): refused.
    let (status, v) = get_as(&app, "/api/files", &[]).await;
    assert_forbidden("no Host", status, &v, "no Host header");
    for pair in [[HOST, "evil.com"], ["evil.com", HOST], [HOST, HOST]] {
        let (status, v) = get_as(&app, "/api/files", &[("host", pair[0]), ("host", pair[1])]).await;
        assert_forbidden(&format!("{pair:?}"), status, &v, "2 Host headers");
    }
    // An absolute-form target must name this server too, over http.
    for (uri, ok) in [
        ("http://evil.com/api/files", false),
        ("http://127.attacker.example:18080/api/files", false),
        ("http://localhost:9/api/files", false),
        ("https://127.0.0.1:18080/api/files", false),
        ("http://127.0.0.1:18080/api/files", true),
        ("http://localhost:18080/api/files", true),
    ] {
        let (status, v) = get_as(&app, uri, &[("host", HOST)]).await;
        if ok {
            assert_eq!(status, StatusCode::OK, "{uri}: {v}");
        } else {
            assert_forbidden(uri, status, &v, "");
        }
    }

    // On port 80 the port may be left out (browsers leave the default port out).
    let app80 = app_at(dir.path(), 2, Caps::default(), ([127, 0, 0, 1], 80).into());
    for host in ["localhost", "127.0.0.1:80", "[::1]"] {
        let (status, v) = get_as(&app80, "/api/files", &[("host", host)]).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    let (status, v) = get_as(&app80, "/api/files", &[("host", HOST)]).await;
    assert_forbidden("port 18080 on a port-80 server", status, &v, "");
    // On another loopback address (--listen 127.0.0.2), that address is a name too.
    let app2 = app_at(
        dir.path(),
        2,
        Caps::default(),
        ([127, 0, 0, 2], PORT).into(),
    );
    for host in ["127.0.0.2:18080", HOST] {
        let (status, v) = get_as(&app2, "/api/files", &[("host", host)]).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    let (status, v) = get_as(&app2, "/api/files", &[("host", "127.0.0.3:18080")]).await;
    assert_forbidden("127.0.0.3", status, &v, "");

    // Beyond loopback (--listen 0.0.0.0) any name is served, but still exactly one Host.
    let any = app_at(dir.path(), 2, Caps::default(), ([0, 0, 0, 0], PORT).into());
    for host in [
        "evil.com",
        "192.168.1.5:18080",
        "127.attacker.example:18080",
    ] {
        let (status, v) = get_as(&any, "/api/files", &[("host", host)]).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    let (status, v) = get_as(&any, "/api/files", &[]).await;
    assert_forbidden("no Host beyond loopback", status, &v, "no Host header");
    let (status, v) = get_as(&any, "/api/files", &[("host", "a"), ("host", "b")]).await;
    assert_forbidden("two Hosts beyond loopback", status, &v, "2 Host headers");
}

#[tokio::test]
async fn writes_and_new_work_refuse_other_origins() {
    let dir = served_dir();
    let app = app_on(dir.path(), 2, Caps::default());
    let text = puzzle("bloxorz.puz");
    // Every request that writes or starts work.
    let writes: Vec<(Method, &str, Option<Value>)> = vec![
        (
            Method::PUT,
            "/api/file",
            Some(json!({"path": "a.puz", "text": "puzzle \"x\""})),
        ),
        (
            Method::PUT,
            "/api/file",
            Some(json!({"path": "new.puz", "text": "x"})),
        ),
        (Method::POST, "/api/check", Some(json!({"text": text}))),
        (Method::POST, "/api/level", Some(json!({"text": text}))),
        (
            Method::POST,
            "/api/play",
            Some(json!({"text": text, "try": {"dir": "w"}})),
        ),
        (Method::POST, "/api/solve", Some(json!({"text": text}))),
        (Method::POST, "/api/analyze", Some(json!({"text": text}))),
        (Method::POST, "/api/test", Some(json!({"text": text}))),
        (Method::DELETE, "/api/jobs/0123456789abcdef", None),
    ];
    for origin in [
        "http://evil.com",
        "http://127.attacker.example:18080",
        "http://localhost:8080",
        "http://localhost",
        "https://127.0.0.1:18080",
        "http://127.0.0.1:18080.evil.com",
        "http://127.0.0.1:18080/",
        "null",
        "",
    ] {
        for (m, uri, body) in &writes {
            let r = request(
                m.clone(),
                uri,
                &[("host", HOST), ("origin", origin)],
                body.clone(),
            );
            let (status, v) = exact(&app, r).await;
            assert_forbidden(&format!("{m} {uri} from {origin:?}"), status, &v, "may not");
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.puz")).unwrap(),
        text,
        "a refused PUT wrote nothing"
    );
    assert!(!dir.path().join("new.puz").exists());
    // Two Origin headers, even both good: refused.
    let r = request(
        Method::POST,
        "/api/check",
        &[
            ("host", HOST),
            ("origin", "http://127.0.0.1:18080"),
            ("origin", "http://evil.com"),
        ],
        Some(json!({"text": text})),
    );
    let (status, v) = exact(&app, r).await;
    assert_forbidden("two Origins", status, &v, "Origin headers");

    // The server's own pages, and requests without an Origin (scripts), are served.
    for origin in [
        Some("http://localhost:18080"),
        Some("http://127.0.0.1:18080"),
        Some("http://[::1]:18080"),
        Some("HTTP://LOCALHOST:18080"),
        None,
    ] {
        for (m, uri, body) in &writes {
            let mut headers = vec![("host", HOST)];
            headers.extend(origin.map(|o| ("origin", o)));
            let r = request(m.clone(), uri, &headers, body.clone());
            let (status, v) = exact(&app, r).await;
            assert_ne!(
                status,
                StatusCode::FORBIDDEN,
                "{m} {uri} from {origin:?}: {v}"
            );
            if let Some(id) = v["job"].as_str() {
                // Let each job end, so the cap on running jobs is not reached.
                events(&app, id).await;
            }
        }
    }
    // Reads are guarded by the Host check alone (a page elsewhere cannot read the answer:
    // no CORS headers are sent).
    let (status, _) = get_as(
        &app,
        "/api/files",
        &[("host", HOST), ("origin", "http://evil.com")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // Beyond loopback, a page is also the server's own when its origin is the host the
    // request names; another page is still refused.
    let any = app_at(dir.path(), 2, Caps::default(), ([0, 0, 0, 0], PORT).into());
    for (host, origin, ok) in [
        ("192.168.1.5:18080", "http://192.168.1.5:18080", true),
        ("192.168.1.5:18080", "http://localhost:18080", true),
        ("192.168.1.5:18080", "http://evil.com", false),
        ("192.168.1.5:18080", "http://192.168.1.5:8080", false),
    ] {
        let r = request(
            Method::POST,
            "/api/check",
            &[("host", host), ("origin", origin)],
            Some(json!({"text": text})),
        );
        let (status, v) = exact(&any, r).await;
        if ok {
            assert_eq!(status, StatusCode::OK, "{host} {origin}: {v}");
        } else {
            assert_forbidden(&format!("{host} {origin}"), status, &v, "may not");
        }
    }
}

#[tokio::test]
async fn paths_drop_dot_and_empty_components_and_refuse_dot_dot_alike() {
    let dir = served_dir();
    let app = app_on(dir.path(), 2, Caps::default());
    // `.` and empty components are dropped, for reading and writing alike; the answer
    // names the file by its normalized path.
    for (asked, named) in [
        ("./a.puz", "a.puz"),
        ("sub/./b.puz", "sub/b.puz"),
        ("sub//b.puz", "sub/b.puz"),
        ("./sub/b.puz", "sub/b.puz"),
        ("././sub/.//b.puz", "sub/b.puz"),
    ] {
        let (status, v) = send(&app, Method::GET, &format!("/api/file?path={asked}"), None).await;
        assert_eq!(status, StatusCode::OK, "GET {asked}: {v}");
        assert_eq!(v["path"], named, "GET {asked}");
        let want = std::fs::read_to_string(dir.path().join(named)).unwrap();
        assert_eq!(v["text"], want.as_str());
        let saved = format!("// saved as {asked}\n");
        let (status, v) = send(
            &app,
            Method::PUT,
            "/api/file",
            Some(json!({"path": asked, "text": saved})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "PUT {asked}: {v}");
        assert_eq!(v["path"], named, "PUT {asked}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join(named)).unwrap(),
            saved
        );
    }
    let (status, v) = send(
        &app,
        Method::PUT,
        "/api/file",
        Some(json!({"path": "./sub//new.puz", "text": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["path"], "sub/new.puz");
    assert!(dir.path().join("sub/new.puz").is_file());

    // `..` is refused even where the path stays inside, saying so, not that it leaves;
    // hidden components and absolute paths are refused for what they are.
    for (bad, why) in [
        ("sub/../a.puz", "\"..\" component"),
        ("./sub/../sub/b.puz", "\"..\" component"),
        ("../a.puz", "\"..\" component"),
        ("sub/../../a.puz", "\"..\" component"),
        (".hidden.puz", "hidden component"),
        ("sub/.git/b.puz", "hidden component"),
        ("/a.puz", "absolute path"),
        ("//a.puz", "absolute path"),
        ("sub\\b.puz", "character"),
        ("a.txt", "not a .puz file"),
    ] {
        let (status, v) = send(&app, Method::GET, &format!("/api/file?path={bad}"), None).await;
        assert_forbidden(&format!("GET {bad}"), status, &v, why);
        let m = v["error"]["message"].as_str().unwrap();
        assert!(!m.contains("leaves"), "GET {bad}: {m}");
        let (status, v) = send(
            &app,
            Method::PUT,
            "/api/file",
            Some(json!({"path": bad, "text": "overwritten"})),
        )
        .await;
        assert_forbidden(&format!("PUT {bad}"), status, &v, why);
    }
    assert!(!std::fs::read_to_string(dir.path().join("a.puz"))
        .unwrap()
        .contains("overwritten"));

    // A server on one file takes that file by any spelling the rule normalizes.
    let one = app_on(&dir.path().join("a.puz"), 2, Caps::default());
    let (status, v) = send(&one, Method::GET, "/api/file?path=./a.puz", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["path"], "a.puz");
    let (status, v) = send(&one, Method::GET, "/api/file?path=sub/../a.puz", None).await;
    assert_forbidden("one file, ..", status, &v, "\"..\" component");
}

/// The `progress` events of a job, its last progress (kept by the job: a job that ends
/// quickly may end before its stream is read) and its result.
async fn job_events(app: &axum::Router, uri: &str, body: Value) -> (Vec<Value>, Value, Value) {
    let (status, started) = post(app, uri, body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    let id = started["job"].as_str().unwrap();
    let mut evs = events(app, id).await;
    let (name, result) = evs.pop().expect("a done event");
    assert_eq!(name, "done");
    assert!(evs.iter().all(|(n, _)| n == "progress"));
    let (_, st) = send(app, Method::GET, &format!("/api/jobs/{id}"), None).await;
    assert_eq!(st["state"], "done", "{st}");
    let progress = evs.into_iter().map(|(_, p)| p).collect();
    (progress, st["progress"].clone(), result)
}

#[tokio::test]
async fn progress_reports_the_states_stored_so_far() {
    let app = app();
    // Each search reports `stored` as it grows (it was always 0: the searches counted it
    // only when they ended), never past what the result says was stored.
    for (file, level, search, long) in [
        ("pegsolitaire.puz", 0, "bfs", true),
        ("pegsolitaire.puz", 0, "dijkstra", true),
        ("pegsolitaire.puz", 0, "iddfs", true),
        ("sokoban.puz", 0, "layered", false),
        ("bloxorz.puz", 0, "bidir", false),
    ] {
        let what = format!("{file} {search}");
        let body = json!({"text": puzzle(file), "level": level, "engine": "interp",
            "search": search, "budget": {"timeout_ms": 700}});
        let (streamed, last, r) = job_events(&app, "/api/solve", body).await;
        assert_eq!(r["search"], search, "{what}: {}", brief(&r));
        let total = r["stats"]["stored"].as_u64().unwrap();
        let last = last["stored"].as_u64().expect("a progress report");
        assert!(last >= 1, "{what}: the last progress says stored {last}");
        assert!(last <= total, "{what}: progress {last} > result {total}");
        if long {
            assert_eq!(r["outcome"], "cutoff", "{what}: {}", brief(&r));
            let stored: Vec<u64> = streamed
                .iter()
                .map(|p| p["stored"].as_u64().unwrap())
                .collect();
            assert!(!stored.is_empty(), "{what}: nothing streamed");
            assert!(
                stored.windows(2).all(|w| w[0] <= w[1]),
                "{what}: {stored:?}"
            );
            assert!(*stored.last().unwrap() > 100, "{what}: {stored:?}");
        }
    }

    // An analysis reports the states of its graph as it builds it, and one cut off by its
    // time limit says how many it had stored (it said 0).
    let body = json!({"text": puzzle("pegsolitaire.puz"), "level": 0,
        "budget": {"timeout_ms": 700}});
    let (streamed, last, r) = job_events(&app, "/api/analyze", body).await;
    assert_eq!(r["outcome"], "cutoff", "{r}");
    assert!(!streamed.is_empty(), "nothing streamed");
    let last = last["stored"].as_u64().expect("a progress report");
    assert!(last > 100, "{streamed:?}");
    let m = r["message"].as_str().unwrap();
    let n: u64 = m
        .split("stored ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no count in {m:?}"));
    assert!(n >= last, "{m}: fewer than the progress said ({last})");
}

/// A `puz serve DIR --port 0` process, killed when dropped.
struct Served {
    child: std::process::Child,
    port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary on `dir` with `--port 0` and reads the port it printed.
fn serve(dir: &std::path::Path) -> Served {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["serve", dir.to_str().unwrap(), "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("puz serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .strip_prefix("puz serve: listening on http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    Served { child, port }
}

/// Sends raw bytes to 127.0.0.1:`port`; returns the status and the JSON body.
fn raw_http(port: u16, bytes: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(bytes.as_bytes()).unwrap();
    let mut out = vec![];
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.into())),
    )
}

#[test]
fn a_real_server_checks_host_and_origin_on_the_bound_port() {
    let dir = served_dir();
    let server = serve(dir.path());
    let p = server.port;
    let get = |target: &str, headers: &str| {
        raw_http(
            p,
            &format!("GET {target} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"),
        )
    };
    let forbidden = |what: &str, (status, v): (u16, Value)| {
        assert_eq!(status, 403, "{what}: {v}");
        assert_eq!(v["error"]["code"], "forbidden", "{what}: {v}");
        assert!(v["error"]["message"].is_string(), "{what}: {v}");
    };
    // The port chosen (`--port 0`) is the one a Host must carry.
    for host in [
        format!("127.0.0.1:{p}"),
        format!("localhost:{p}"),
        format!("[::1]:{p}"),
    ] {
        let (status, v) = get("/api/files", &format!("Host: {host}\r\n"));
        assert_eq!(status, 200, "{host}: {v}");
    }
    let other = if p == 8080 { 8081 } else { 8080 };
    forbidden(
        "another port",
        get("/api/files", &format!("Host: 127.0.0.1:{other}\r\n")),
    );
    forbidden("no port", get("/api/files", "Host: 127.0.0.1\r\n"));
    for name in [
        "127.attacker.example",
        "127.0.0.1.evil.com",
        "[::1].evil.com",
        "127.0.0.2",
    ] {
        forbidden(name, get("/api/files", &format!("Host: {name}:{p}\r\n")));
    }
    forbidden(
        "localhost:PORT.evil.com",
        get("/api/files", &format!("Host: localhost:{p}.evil.com\r\n")),
    );
    // No Host (HTTP/1.1 and 1.0), two Hosts, an absolute-form target elsewhere.
    forbidden("no Host", get("/api/files", ""));
    forbidden(
        "no Host, HTTP/1.0",
        raw_http(p, "GET /api/files HTTP/1.0\r\n\r\n"),
    );
    forbidden(
        "two Hosts",
        get(
            "/api/files",
            &format!("Host: 127.0.0.1:{p}\r\nHost: evil.com\r\n"),
        ),
    );
    forbidden(
        "two Hosts, evil first",
        get(
            "/api/files",
            &format!("Host: evil.com\r\nHost: 127.0.0.1:{p}\r\n"),
        ),
    );
    forbidden(
        "absolute-form elsewhere",
        get(
            "http://evil.com/api/files",
            &format!("Host: 127.0.0.1:{p}\r\n"),
        ),
    );
    let (status, v) = get(
        &format!("http://127.0.0.1:{p}/api/files"),
        &format!("Host: 127.0.0.1:{p}\r\n"),
    );
    assert_eq!(status, 200, "absolute-form here: {v}");

    // The reproducer's PUT through a rebinding host, and one from another page: refused,
    // the file untouched; the same PUT from the server's own page is saved.
    let put = |headers: &str| {
        let body = r#"{"path":"a.puz","text":"puzzle \"overwritten\""}"#;
        raw_http(
            p,
            &format!(
                "PUT /api/file HTTP/1.1\r\n{headers}Content-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            ),
        )
    };
    forbidden(
        "PUT via rebinding",
        put(&format!("Host: 127.attacker.example:{p}\r\n")),
    );
    forbidden(
        "PUT from another page",
        put(&format!(
            "Host: 127.0.0.1:{p}\r\nOrigin: http://evil.com\r\n"
        )),
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.puz")).unwrap(),
        puzzle("bloxorz.puz")
    );
    let (status, v) = put(&format!(
        "Host: 127.0.0.1:{p}\r\nOrigin: http://127.0.0.1:{p}\r\n"
    ));
    assert_eq!(status, 200, "{v}");
    assert!(std::fs::read_to_string(dir.path().join("a.puz"))
        .unwrap()
        .contains("overwritten"));
}

#[tokio::test]
async fn every_template_checks_clean_and_solves() {
    let app = app();
    let (status, v) = send(&app, Method::GET, "/api/templates", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let list = v["templates"].as_array().unwrap();
    let ids: Vec<&str> = list.iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["empty", "push", "slide", "lights"]);
    for t in list {
        let id = &t["id"];
        let text = t["text"].as_str().unwrap();
        let (status, c) = post(&app, "/api/check", json!({"text": text})).await;
        assert_eq!(status, StatusCode::OK, "{id}: {c}");
        assert_eq!(c["ok"], true, "{id}: {c}");
        assert!(c["diagnostics"].as_array().unwrap().is_empty(), "{id}: {c}");
        assert_eq!(c["levels"].as_array().unwrap().len(), 1, "{id}: {c}");
        let r = run_job(&app, "/api/solve", json!({"text": text})).await;
        assert_eq!(r["outcome"], "solved", "{id}: {}", brief(&r));
        // Each template's level carries its answer, which `puz test` checks.
        let r = run_job(&app, "/api/test", json!({"text": text})).await;
        let rows = r["levels"].as_array().unwrap();
        assert!(
            !rows.is_empty() && rows.iter().all(|l| l["status"] == "pass"),
            "{id}: {r}"
        );
    }
}

#[tokio::test]
async fn a_write_is_refused_when_the_file_on_disk_is_not_the_one_edited() {
    let dir = served_dir();
    let app = app_on(dir.path(), 4, Caps::default());
    let (status, v) = send(&app, Method::GET, "/api/file?path=a.puz", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let loaded = v["version"].as_str().unwrap().to_string();
    assert_eq!(loaded.len(), 16, "{v}");

    // Saved over the version loaded: written, with the new version.
    let put = |body: Value| send(&app, Method::PUT, "/api/file", Some(body));
    let (status, v) =
        put(json!({"path": "a.puz", "text": "puzzle \"mine\"\n", "base": loaded})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mine = v["version"].as_str().unwrap().to_string();
    assert_ne!(mine, loaded);

    // Another program writes the file: a save from the version the page had is refused,
    // and the other program's text stays.
    std::fs::write(dir.path().join("a.puz"), "puzzle \"theirs\"\n").unwrap();
    let (status, v) =
        put(json!({"path": "a.puz", "text": "puzzle \"mine 2\"\n", "base": mine})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "conflict", "{v}");
    let m = v["error"]["message"].as_str().unwrap();
    assert!(m.contains("changed on disk"), "{m}");
    let theirs = v["error"]["version"].as_str().unwrap().to_string();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.puz")).unwrap(),
        "puzzle \"theirs\"\n"
    );
    // Overwriting on purpose names the version on disk now.
    let (status, v) =
        put(json!({"path": "a.puz", "text": "puzzle \"mine 2\"\n", "base": theirs})).await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // A new file ("New", "Save as") never replaces one; it is created when missing.
    let (status, v) = put(json!({"path": "a.puz", "text": "x", "create": true})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already exists"),
        "{v}"
    );
    let (status, v) =
        put(json!({"path": "sub/new.puz", "text": "puzzle \"n\"\n", "create": true})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["path"], "sub/new.puz");
    // A file deleted since it was loaded is not silently recreated from a stale page.
    std::fs::remove_file(dir.path().join("sub/new.puz")).unwrap();
    let version = v["version"].clone();
    let (status, v) = put(json!({"path": "sub/new.puz", "text": "y", "base": version})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("deleted"),
        "{v}"
    );
}

#[tokio::test]
async fn integer_levels_are_sized_by_their_cells() {
    // Curling's levels are written as integers: 6 numbers a row is 6 columns, not 11.
    let (_, c) = post(&app(), "/api/check", json!({"text": puzzle("curling.puz")})).await;
    let first = &c["levels"][0];
    assert_eq!(
        (&first["rows"], &first["cols"]),
        (&json!(6), &json!(6)),
        "{c}"
    );
}

/// A `look` reaches `/api/level`'s palette as written (`#abc` read as `#aabbcc`, sprites as
/// rows of colour indices, `null` see-through), and the names it leaves out keep the
/// colours derived from them, exactly as without the look. The level's `source` gives its
/// rows as written and the span of its text block, for the painter.
#[tokio::test]
async fn a_declared_look_reaches_the_palette() {
    let app = app();
    let plain = "tiles { floor wall } marks { exit } piece man \
        legend { '.' floor '#' wall 'M' floor + man 'E' floor + exit } \
        dirs { e (0, 1) } move walk(d) { shift man d } forbid man on wall goal man on exit \
        level \"one\" \"\"\"\n  M.E\n  \"\"\"\n";
    let looked = format!(
        "{plain}look {{ wall #445  man #a52 #FFEEDD sprite \"\"\"\n  .0.\n  010\n  \"\"\" }}\n"
    );
    let (status, without) = post(&app, "/api/level", json!({"text": plain, "level": 0})).await;
    assert_eq!(status, StatusCode::OK, "{without}");
    let (status, with) = post(&app, "/api/level", json!({"text": looked, "level": 0})).await;
    assert_eq!(status, StatusCode::OK, "{with}");
    let pal = &with["palette"];
    // Declared: the wall's one colour, the man's two and his sprite.
    assert_eq!(pal["tiles"][1]["color"], "#444455");
    assert_eq!(pal["tiles"][1]["colors"], json!(["#444455"]));
    assert!(
        pal["tiles"][1].get("sprite").is_none(),
        "{}",
        pal["tiles"][1]
    );
    assert_eq!(pal["pieces"][0]["color"], "#aa5522");
    assert_eq!(pal["pieces"][0]["colors"], json!(["#aa5522", "#ffeedd"]));
    assert_eq!(
        pal["pieces"][0]["sprite"],
        json!([[null, 0, null], [0, 1, 0]])
    );
    // Not declared: as derived without the look, and no `colors` or `sprite`.
    assert_eq!(pal["tiles"][0], without["palette"]["tiles"][0]);
    assert_eq!(pal["marks"][0], without["palette"]["marks"][0]);
    assert!(pal["tiles"][0].get("colors").is_none());
    assert_ne!(without["palette"]["tiles"][1]["color"], "#444455");
    // The level as written, and where its text block is.
    let src = &with["source"];
    assert_eq!(src["form"], "chars");
    assert_eq!(src["rows"], json!(["M.E"]));
    let block = utf16_slice(
        &looked,
        src["span"]["start"].as_u64().unwrap(),
        src["span"]["end"].as_u64().unwrap(),
    );
    assert_eq!(block, "\"\"\"\n  M.E\n  \"\"\"");
    // A shipped puzzle's look: sokoban.puz draws its box from a 5x5 sprite.
    let (status, soko) = post(
        &app,
        "/api/level",
        json!({"text": puzzle("sokoban.puz"), "level": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{soko}");
    let bx = &soko["palette"]["pieces"][1];
    assert_eq!(bx["name"], "box");
    assert_eq!(bx["sprite"].as_array().map(Vec::len), Some(5));
    assert_eq!(bx["sprite"][1], json!([0, null, null, null, 0]));
}

#[tokio::test]
async fn export_answers_the_standalone_page_of_the_posted_text() {
    let app = app();
    let text = puzzle("bloxorz.puz") + "\n// </script><b>not closed early</b>\n";
    let (status, page) = post(
        &app,
        "/api/export",
        json!({"name": "mine/<b>.puz", "text": text}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let page = page.as_str().expect("an HTML page, not JSON");
    assert!(
        page.contains("<title>&lt;b&gt;.puz - puz</title>"),
        "the title escaped"
    );
    assert!(page.contains("var PUZ_CORE"), "the core inlined");
    assert!(page.contains("puzzle \\\"Bloxorz\\\""), "the text embedded");
    assert!(
        !page.contains("</script><b>"),
        "the text cannot close its script"
    );
    assert!(
        !page.contains("src=\"/assets/"),
        "nothing loads from the server"
    );
    // A body that is not the request: a coded 400.
    let (status, err) = post(&app, "/api/export", json!({"name": 3})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"]["code"], "bad_request");
}
