//! The routes: the page, files, diagnostics, levels and play, and jobs. The shapes of
//! requests and answers are listed in the README's playground section.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::files;
use super::{ApiError, AppState, MAX_BODY};
use crate::page::{self, AnalyzeReq, Job, LevelReq, PlayReq, PsPlayReq, SolveReq, TestReq};

/// The page and its assets, built into the binary.
const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The level painter (the Paint tab), loaded after `app.js`.
const PAINTER_JS: &str = include_str!("assets/painter.js");
/// The code editor (CodeMirror 6), bundled by `scripts/build-editor` from `web/editor`.
const EDITOR_JS: &str = include_str!("assets/editor.js");
/// The Solve tab's GIF and PNG strip buttons.
const PICTURE_JS: &str = include_str!("assets/picture.js");

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
            "/assets/picture.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    PICTURE_JS,
                )
            }),
        )
        .route(
            "/assets/app.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS) }),
        )
        .route("/api/files", get(list_files))
        .route("/api/templates", get(|| async { Json(page::templates()) }))
        .route("/api/file", get(read_file).put(write_file))
        .route("/api/check", post(check))
        .route("/api/level", post(level))
        .route("/api/play", post(play))
        .route("/api/puzzlescript", post(ps_play))
        .route("/api/picture", post(picture))
        .route("/api/export", post(export))
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

#[derive(Deserialize)]
struct CheckReq {
    text: String,
}

/// `POST /api/check`: every stage on the text, its errors and lints, its levels.
async fn check(ApiJson(req): ApiJson<CheckReq>) -> Result<Json<Value>, ApiError> {
    blocking(move || Ok(Json(page::check(req.text)))).await
}

/// `POST /api/level`: the level to play.
async fn level(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<LevelReq>,
) -> Result<Json<Value>, ApiError> {
    let caps = state.caps;
    blocking(move || Ok(Json(page::level(req, &caps)?))).await
}

/// `POST /api/play`: a move tried after the history.
async fn play(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<PlayReq>,
) -> Result<Json<Value>, ApiError> {
    let caps = state.caps;
    blocking(move || Ok(Json(page::play(req, &caps)?))).await
}

/// `POST /api/puzzlescript`: a game's entry with its inputs replayed.
async fn ps_play(ApiJson(req): ApiJson<PsPlayReq>) -> Result<Json<Value>, ApiError> {
    blocking(move || Ok(Json(page::ps_play(req)?))).await
}

/// `POST /api/picture`: an answer's boards as a GIF or a PNG strip.
async fn picture(ApiJson(req): ApiJson<page::PictureReq>) -> Result<Response, ApiError> {
    let (bytes, media) = blocking(move || Ok(page::picture(req)?)).await?;
    Ok(([(header::CONTENT_TYPE, media)], bytes).into_response())
}

/// `POST /api/export`: the standalone page of `puz export --html` for the posted file.
#[derive(Deserialize)]
struct ExportReq {
    /// The file's name as the page shows it.
    name: String,
    /// Its text.
    text: String,
}

async fn export(ApiJson(req): ApiJson<ExportReq>) -> Result<Response, ApiError> {
    let page = blocking(move || Ok(super::standalone_page(&req.name, &req.text))).await?;
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response())
}

/// Starts `job` under the server's caps; answers 202 with its id and effective budget.
fn start(state: &AppState, job: Job) -> Result<Response, ApiError> {
    let (eff, budget) = job.budget.capped(&state.caps);
    let id = state
        .jobs
        .start(job.kind, budget, move |ctx: &page::Ctx| job.run(ctx))?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"job": id, "budget": eff})),
    )
        .into_response())
}

async fn solve(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<SolveReq>,
) -> Result<Response, ApiError> {
    start(&state, Job::solve(req)?)
}

async fn analyze(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<AnalyzeReq>,
) -> Result<Response, ApiError> {
    start(&state, Job::analyze(req))
}

async fn test(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<TestReq>,
) -> Result<Response, ApiError> {
    start(&state, Job::test(req)?)
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
