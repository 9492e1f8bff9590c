//! The routes: the page, files, diagnostics, levels and play, and jobs. The shapes of
//! requests and answers are listed in the README's playground section.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use miette::{Diagnostic, NamedSource};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::files;
use super::jobs::Ctx;
use super::{ApiError, AppState, MAX_BODY};
use crate::diagnostics::Problem;
use crate::engine::budget::Budget;
use crate::Puzzle;

/// The page and its assets, built into the binary.
const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The level painter (the Paint tab), loaded after `app.js`.
const PAINTER_JS: &str = include_str!("assets/painter.js");
/// The code editor (CodeMirror 6), bundled by `scripts/build-editor` from `web/editor`.
const EDITOR_JS: &str = include_str!("assets/editor.js");

/// The name diagnostics give the edited text.
pub(in crate::serve) const SOURCE_NAME: &str = "rules.puz";

pub(super) fn routes(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route(
            "/assets/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    APP_JS,
                )
            }),
        )
        .route(
            "/assets/painter.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    PAINTER_JS,
                )
            }),
        )
        .route(
            "/assets/editor.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    EDITOR_JS,
                )
            }),
        )
        .route(
            "/assets/app.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }),
        )
        .route("/api/files", get(list_files))
        .route("/api/templates", get(super::templates::list))
        .route("/api/file", get(read_file).put(write_file))
        .route("/api/check", post(check))
        .route("/api/level", post(super::play::level))
        .route("/api/play", post(super::play::play))
        .route("/api/puzzlescript", post(super::ps::play))
        .route("/api/solve", post(solve))
        .route("/api/analyze", post(analyze))
        .route("/api/test", post(test))
        .route("/api/jobs/{id}", get(job_status).delete(job_cancel))
        .route("/api/jobs/{id}/events", get(job_events))
        .fallback(|| async { ApiError::not_found("no such page or API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this route does not take that method",
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Refuses, before any route runs, the requests [`super::access`] does not answer: a
/// `Host` that does not name this server on loopback (DNS rebinding), a missing or
/// repeated `Host`, and writes or new work from a page of another origin.
async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    match state.access.check(req.method(), req.uri(), req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// A JSON body whose rejections (malformed JSON, wrong content type, too large) are API
/// errors with JSON bodies.
pub(in crate::serve) struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(ApiJson(v)),
            Err(rej) if rej.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::too_large(
                format!("the request body is larger than {MAX_BODY} bytes"),
            )),
            Err(rej) => Err(ApiError::bad_request(rej.body_text())),
        }
    }
}

/// Runs `f` on a blocking thread: library work never holds up the async workers, and a
/// panic in it is a 500 answer, not a dead server.
pub(in crate::serve) async fn blocking<T, F>(f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => {
            let why = match e.try_into_panic() {
                Ok(p) => p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown".into()),
                Err(e) => e.to_string(),
            };
            Err(ApiError::internal(format!(
                "internal error (a bug in puz): {why}"
            )))
        }
    }
}

#[derive(Deserialize)]
struct FileQuery {
    path: String,
}

/// `PUT /api/file`: the text, and what the page expects on disk (see [`files::Expect`]):
/// `base`, the version it loaded, or `create: true` for a file that must not exist yet;
/// neither overwrites whatever is there.
#[derive(Deserialize)]
struct FileWrite {
    path: String,
    text: String,
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    create: bool,
}

async fn list_files(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    let st = state.clone();
    blocking(move || {
        let files = st.files.list();
        let root = st
            .files
            .root()
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| st.files.root().display().to_string());
        Ok(Json(json!({
            "root": root,
            "initial": st.files.initial(&files),
            "files": files,
        })))
    })
    .await
}

async fn read_file(
    State(state): State<Arc<AppState>>,
    q: Result<Query<FileQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    blocking(move || {
        let (path, text) = state.files.read(&q.path)?;
        let version = files::version(text.as_bytes());
        Ok(Json(
            json!({"path": path, "text": text, "version": version}),
        ))
    })
    .await
}

async fn write_file(
    State(state): State<Arc<AppState>>,
    ApiJson(w): ApiJson<FileWrite>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let expect = match (w.base, w.create) {
            (Some(v), _) => files::Expect::Version(v),
            (None, true) => files::Expect::Missing,
            (None, false) => files::Expect::Any,
        };
        let (path, bytes, version) = state.files.write(&w.path, &w.text, &expect)?;
        Ok(Json(
            json!({"path": path, "bytes": bytes, "version": version}),
        ))
    })
    .await
}

/// Where byte offsets of a text fall for an editor: UTF-16 offsets (JavaScript string
/// indices), 1-based lines and 1-based columns in characters.
pub struct LineIndex {
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    /// UTF-16 offset of each line's start.
    utf16: Vec<usize>,
}

/// A byte offset located: UTF-16 offset, line, column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// Offset in UTF-16 code units.
    pub utf16: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
}

impl LineIndex {
    /// Indexes `text`'s lines.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let mut utf16 = vec![0];
        let mut u = 0;
        for (i, ch) in text.char_indices() {
            u += ch.len_utf16();
            if ch == '\n' {
                starts.push(i + 1);
                utf16.push(u);
            }
        }
        LineIndex { starts, utf16 }
    }

    /// Locates byte offset `byte` of `text` (clamped to the text and to a character
    /// boundary).
    pub fn locate(&self, text: &str, byte: usize) -> Located {
        let mut b = byte.min(text.len());
        while !text.is_char_boundary(b) {
            b -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= b) - 1;
        let seg = &text[self.starts[line]..b];
        Located {
            utf16: self.utf16[line] + seg.chars().map(char::len_utf16).sum::<usize>(),
            line: line + 1,
            col: seg.chars().count() + 1,
        }
    }
}

/// One problem with the source it points into, so that it renders alone as the terminal
/// would show it.
struct Sourced<'a> {
    problem: &'a Problem,
    src: &'a NamedSource<Arc<String>>,
    warning: bool,
}

impl std::fmt::Debug for Sourced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.problem, f)
    }
}
impl std::fmt::Display for Sourced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.problem, f)
    }
}
impl std::error::Error for Sourced<'_> {}
impl Diagnostic for Sourced<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.problem.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.warning {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.problem.help()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.problem.labels()
    }
}

/// The problems of one report as the API lists them (see the README): severity, code,
/// message, help, labels located in `text`, and the terminal rendering.
pub fn diagnostics_json(
    text: &Arc<String>,
    idx: &LineIndex,
    problems: &[Problem],
    warning: bool,
) -> Vec<Value> {
    // The page's buffer has no file name: reports call it by its language.
    let name = if crate::puzzlescript::looks_like_puzzlescript(text) {
        "game.txt"
    } else {
        SOURCE_NAME
    };
    let src = NamedSource::new(name, text.clone());
    problems
        .iter()
        .map(|p| {
            let labels: Vec<Value> = p
                .labels()
                .into_iter()
                .flatten()
                .map(|l| {
                    let a = idx.locate(text, l.offset());
                    let b = idx.locate(text, l.offset().saturating_add(l.len()));
                    json!({
                        "start": a.utf16, "end": b.utf16,
                        "line": a.line, "col": a.col, "end_line": b.line, "end_col": b.col,
                        "text": l.label(), "primary": l.primary(),
                    })
                })
                .collect();
            let shown = Sourced {
                problem: p,
                src: &src,
                warning,
            };
            json!({
                "severity": if warning { "warning" } else { "error" },
                "code": p.code_str(),
                "message": p.to_string(),
                "help": p.help().map(|h| h.to_string()),
                "labels": labels,
                "rendered": crate::diagnostics::render_plain(&shown, 100),
            })
        })
        .collect()
}

#[derive(Deserialize)]
struct CheckReq {
    text: String,
}

/// `POST /api/check`: every stage on the text, its errors and lints, its levels.
async fn check(ApiJson(req): ApiJson<CheckReq>) -> Result<Json<Value>, ApiError> {
    blocking(move || Ok(Json(check_text(req.text)))).await
}

/// The check answer for `text` (see `POST /api/check`).
fn check_text(text: String) -> Value {
    let t0 = Instant::now();
    let text = Arc::new(crate::io::source::without_bom(text));
    if crate::puzzlescript::looks_like_puzzlescript(&text) {
        return super::ps::check_game(text, t0);
    }
    let idx = LineIndex::new(&text);
    let mut diags = vec![];
    let mut levels = vec![];
    let mut title = String::new();
    match Puzzle::load_rules(SOURCE_NAME, text.to_string()) {
        Err(d) => diags.extend(diagnostics_json(&text, &idx, &d.problems, false)),
        Ok(p) => {
            title = p.model.title.clone();
            for (i, l) in p.model.levels.iter().enumerate() {
                // The size of the board as loaded (an `ints` row's cells are its numbers,
                // not its characters); a level that does not load counts its text.
                let (ok, rows, cols) = match p.inline_level(i) {
                    Ok(level) => (true, level.board.rows, level.board.cols),
                    Err(d) => {
                        diags.extend(diagnostics_json(&text, &idx, &d.problems, false));
                        let cols = l.rows.iter().map(|r| r.chars().count()).max();
                        (false, l.rows.len(), cols.unwrap_or(0))
                    }
                };
                levels.push(json!({
                    "index": i, "name": l.name, "ok": ok,
                    "rows": rows,
                    "cols": cols,
                    "expect": expect_texts(&p.model, l),
                }));
            }
            if let Some(w) = p.lints() {
                diags.extend(diagnostics_json(&text, &idx, &w.problems, true));
            }
        }
    }
    let ok = !diags.iter().any(|d| d["severity"] == "error");
    json!({
        "ok": ok,
        "title": title,
        "diagnostics": diags,
        "levels": levels,
        "elapsed_ms": t0.elapsed().as_secs_f64() * 1000.0,
    })
}

/// A cost vector as text: `10 moves`, `3 pushes, 12 moves`, `1 throw`.
fn cost_text(model: &crate::compile::Model, cost: &[u64]) -> String {
    crate::solution::Cost::of(model, cost.to_vec()).to_string()
}

/// A level's `expect` lines as text.
fn expect_texts(model: &crate::compile::Model, l: &crate::compile::LevelText) -> Vec<String> {
    let one = |e: &crate::compile::Expect| match e {
        crate::compile::Expect::Cost(c) => cost_text(model, c),
        crate::compile::Expect::Unsolvable => "no solution".to_string(),
    };
    let mut out: Vec<String> = l.expect.iter().map(one).collect();
    out.extend(
        l.metric_expects
            .iter()
            .map(|(m, e)| format!("{}: {}", model.metrics[*m].name, one(e))),
    );
    out
}

/// The budget a request asks for, within the server's caps.
#[derive(Deserialize, Default, Clone, Copy)]
pub(super) struct BudgetReq {
    #[serde(default)]
    max_states: Option<u64>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_memory_mb: Option<u64>,
}

impl BudgetReq {
    /// The effective limits and the budget they make (its deadline counts from now).
    fn capped(self, caps: &super::Caps) -> (Value, Budget) {
        let states = self.max_states.map_or(caps.default_states as u64, |n| {
            n.clamp(1, caps.max_states as u64)
        });
        let timeout = self.timeout_ms.map_or(caps.default_timeout, |ms| {
            Duration::from_millis(ms.max(1)).min(caps.max_timeout)
        });
        let memory = self
            .max_memory_mb
            .map_or(caps.max_memory_mb, |m| m.clamp(1, caps.max_memory_mb));
        let eff = json!({
            "max_states": states,
            "timeout_ms": timeout.as_millis() as u64,
            "max_memory_mb": memory,
        });
        let budget = Budget {
            max_states: Some(states as usize),
            deadline: Some(Instant::now() + timeout),
            max_bytes: Some(memory << 20),
            ..Budget::default()
        };
        (eff, budget)
    }
}

#[derive(Deserialize)]
pub(super) struct SolveReq {
    pub(super) text: String,
    #[serde(default)]
    pub(super) level: usize,
    #[serde(default)]
    pub(super) search: Option<String>,
    #[serde(default)]
    pub(super) engine: Option<String>,
    #[serde(default)]
    pub(super) metric: Option<String>,
    #[serde(default)]
    budget: BudgetReq,
}

#[derive(Deserialize)]
pub(super) struct AnalyzeReq {
    pub(super) text: String,
    #[serde(default)]
    pub(super) level: usize,
    #[serde(default)]
    pub(super) metric: Option<String>,
    #[serde(default)]
    budget: BudgetReq,
}

#[derive(Deserialize)]
pub(super) struct TestReq {
    pub(super) text: String,
    #[serde(default)]
    budget: BudgetReq,
}

/// Starts a job; answers 202 with its id and effective budget.
fn started(id: String, eff: Value) -> Response {
    (
        StatusCode::ACCEPTED,
        Json(json!({"job": id, "budget": eff})),
    )
        .into_response()
}

async fn solve(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<SolveReq>,
) -> Result<Response, ApiError> {
    if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
        let search = match req.search.as_deref().unwrap_or("auto") {
            "auto" => None,
            name => Some(
                crate::search::Backend::from_name(name)
                    .ok_or_else(|| ApiError::bad_request(format!("unknown search {name:?}")))?,
            ),
        };
        let (eff, budget) = req.budget.capped(&state.caps);
        let id = state.jobs.start("solve", budget, move |ctx: &Ctx| {
            super::ps_work::solve_job(ctx, &req.text, req.level, search)
        })?;
        return Ok(started(id, eff));
    }
    let engine = match req.engine.as_deref().unwrap_or("auto") {
        "auto" => crate::solver::EngineChoice::Auto,
        "interp" | "interpreter" => crate::solver::EngineChoice::Interp,
        "fast" => crate::solver::EngineChoice::Fast,
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown engine {other:?}; engines: auto, interp, fast"
            )))
        }
    };
    let search_name = req.search.clone().unwrap_or_else(|| "auto".into());
    let search = crate::solver::SearchChoice::from_name(&search_name).ok_or_else(|| {
        let names: Vec<&str> = crate::search::BACKENDS.iter().map(|b| b.name).collect();
        ApiError::bad_request(format!(
            "unknown search {search_name:?}; searches: auto, {}",
            names.join(", ")
        ))
    })?;
    let (eff, budget) = req.budget.capped(&state.caps);
    let id = state.jobs.start("solve", budget, move |ctx: &Ctx| {
        super::work::solve_job(ctx, req, engine, search)
    })?;
    Ok(started(id, eff))
}

async fn analyze(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<AnalyzeReq>,
) -> Result<Response, ApiError> {
    if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
        let (eff, budget) = req.budget.capped(&state.caps);
        let id = state.jobs.start("analyze", budget, move |ctx: &Ctx| {
            super::ps_work::analyze_job(ctx, &req.text, req.level)
        })?;
        return Ok(started(id, eff));
    }
    let (eff, budget) = req.budget.capped(&state.caps);
    let id = state.jobs.start("analyze", budget, move |ctx: &Ctx| {
        super::work::analyze_job(ctx, req)
    })?;
    Ok(started(id, eff))
}

async fn test(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<TestReq>,
) -> Result<Response, ApiError> {
    if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
        return Err(super::ps::not_searchable("Run tests"));
    }
    let (eff, budget) = req.budget.capped(&state.caps);
    let id = state.jobs.start("test", budget, move |ctx: &Ctx| {
        super::work::test_job(ctx, req)
    })?;
    Ok(started(id, eff))
}

fn job(state: &AppState, id: &str) -> Result<Arc<super::jobs::Job>, ApiError> {
    state.jobs.get(id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no job {id:?} (finished jobs are kept a while, then dropped)"
        ))
    })
}

async fn job_status(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let j = job(&state, &id)?;
    let st = j.status();
    Ok(Json(json!({
        "state": if st.result.is_some() { "done" } else { "running" },
        "kind": j.kind,
        "progress": st.progress,
        "result": st.result,
    })))
}

async fn job_cancel(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    job(&state, &id)?.cancel();
    Ok(Json(json!({"cancelled": true})))
}

/// `GET /api/jobs/ID/events`: `progress` events while the job runs, then one `done`.
async fn job_events(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let rx = job(&state, &id)?.subscribe();
    let done = |r: Value| {
        Ok::<_, std::convert::Infallible>(Event::default().event("done").data(r.to_string()))
    };
    // The state is the receiver and whether to wait for a change before looking again
    // (after a progress event); `None` once `done` was sent.
    let stream = futures_util::stream::unfold(Some((rx, false)), move |st| async move {
        let (mut rx, wait) = st?;
        if wait && rx.changed().await.is_err() {
            // The job was dropped: its result, if it has one, else the end.
            let r = rx.borrow().result.clone()?;
            return Some((done(r), None));
        }
        loop {
            let (progress, result) = {
                let st = rx.borrow_and_update();
                (st.progress.clone(), st.result.clone())
            };
            if let Some(r) = result {
                return Some((done(r), None));
            }
            if let Some(p) = progress {
                let ev = Event::default().event("progress").data(p.to_string());
                return Some((Ok(ev), Some((rx, true))));
            }
            if rx.changed().await.is_err() {
                let r = rx.borrow().result.clone()?;
                return Some((done(r), None));
            }
        }
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}
