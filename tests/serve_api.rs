//! The playground's JSON API (`puz serve`), driven through the router without a socket:
//! diagnostics with spans, files confined to the served directory, solve/analyze/test jobs
//! with their event streams, budgets, cancel, the cap on running jobs, and malformed or
//! hostile requests answered with JSON errors.

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

fn app_on(path: &std::path::Path, max_jobs: usize, caps: Caps) -> axum::Router {
    router(Arc::new(
        AppState::new(path, max_jobs, caps, false).unwrap(),
    ))
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

async fn raw(app: &axum::Router, req: Request<Body>) -> (StatusCode, Value) {
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

    // Another host name: refused (DNS rebinding).
    let r = Request::builder()
        .uri("/api/files")
        .header("host", "evil.example:8080")
        .body(Body::empty())
        .unwrap();
    let (status, v) = raw(&app, r).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    for host in ["localhost:8080", "127.0.0.1:9", "[::1]:8080"] {
        let r = Request::builder()
            .uri("/api/files")
            .header("host", host)
            .body(Body::empty())
            .unwrap();
        assert_eq!(raw(&app, r).await.0, StatusCode::OK, "{host}");
    }

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
    for a in ["/assets/app.js", "/assets/app.css"] {
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
