//! `puz serve`: the browser playground. A local web server that serves one page (built
//! into the binary) and a small JSON API over the library's answers ([`crate::page`]):
//! live diagnostics for a rule file, a level's board, playing moves (and PuzzleScript
//! games), and solve/analyze/test jobs that run off the request threads under budgets,
//! stream their progress as server-sent events and can be cancelled. The same page also
//! runs with no server ([`standalone_page`], `puz export --html`).
//!
//! # Safety of a local server
//! - It binds loopback unless told otherwise (the CLI warns when it is). On loopback it
//!   answers only requests that name it exactly (`localhost`, `127.0.0.1`, `[::1]` with its
//!   port, `access`), and on any address it refuses requests that write or start work
//!   from a page of another origin.
//! - It reads and writes only `.puz` files and PuzzleScript games (`.txt` files with
//!   PuzzleScript's sections) inside the served directory (`files`).
//! - Request bodies are capped ([`MAX_BODY`]); every search runs under the server's caps
//!   on states, time and memory ([`Caps`]); at most [`ServeOptions::max_jobs`] run at once.
//! - Every request's work runs on a blocking thread, so a panic in the library becomes a
//!   500 JSON error, never a dead server; malformed requests get 4xx JSON errors.

pub(crate) mod access;
mod api;
pub(crate) mod files;
mod jobs;
mod standalone;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

pub use crate::page::{diagnostics_json, Caps, LineIndex};
pub use crate::page::{MAX_PS_INPUTS, REPLAY_TIME as PS_REPLAY_TIME};
pub use jobs::Jobs;
pub use standalone::standalone_page;

/// Request bodies larger than this are refused with 413.
pub const MAX_BODY: usize = 1 << 20;

/// How `puz serve` was started.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The directory (or single `.puz` file) served.
    pub path: PathBuf,
    /// The address to listen on.
    pub listen: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Jobs (solve, analyze, test) running at once; more are refused with 429.
    pub max_jobs: usize,
    /// Limits on each job.
    pub caps: Caps,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ServeError {
    /// The path to serve does not exist or cannot be read.
    #[error("cannot serve {path}: {source}")]
    #[diagnostic(
        code(puz::serve::path),
        help("give a directory of .puz files or one .puz file")
    )]
    Path {
        /// The path given.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    #[diagnostic(
        code(puz::serve::bind),
        help("another program may use the port; pick another with --port, or --port 0 for any free one")
    )]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The async runtime or the server failed.
    #[error("the server failed: {0}")]
    #[diagnostic(code(puz::serve::io))]
    Io(#[from] std::io::Error),
}

/// What every handler shares.
pub struct AppState {
    files: files::Files,
    jobs: Jobs,
    caps: Caps,
    /// Which hosts and origins are answered.
    access: access::Access,
}

impl AppState {
    /// The state of a server on `path` listening on `addr` (the address bound, with the
    /// port chosen when 0 was asked for): on a loopback address only requests naming it
    /// (see `access`) are answered; on any other address every host name is.
    pub fn new(
        path: &std::path::Path,
        max_jobs: usize,
        caps: Caps,
        addr: SocketAddr,
    ) -> Result<AppState, ServeError> {
        let files = files::Files::new(path).map_err(|source| ServeError::Path {
            path: path.display().to_string(),
            source,
        })?;
        Ok(AppState {
            files,
            jobs: Jobs::new(max_jobs),
            caps,
            access: access::Access::new(addr),
        })
    }
}

/// The page and the API, ready to serve (tests call it without a socket).
pub fn router(state: Arc<AppState>) -> axum::Router {
    api::routes(state)
}

/// Runs the server until interrupted: prints `puz serve: listening on URL` on stdout once
/// bound (with port 0, the port chosen), then serves.
pub fn run(opts: ServeOptions) -> Result<(), ServeError> {
    // The path is checked before the port is bound; the names accepted are fixed once
    // the port is known.
    let mut state = AppState::new(
        &opts.path,
        opts.max_jobs,
        opts.caps,
        SocketAddr::new(opts.listen, opts.port),
    )?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let addr = SocketAddr::new(opts.listen, opts.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let local = listener.local_addr()?;
        state.access = access::Access::new(local);
        let host = match local.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // Tests and scripts read the port from this line.
            writeln!(
                out,
                "puz serve: listening on http://{host}:{}/",
                local.port()
            )?;
            out.flush()?;
        }
        axum::serve(listener, router(Arc::new(state)))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}

/// An API error: a status and a JSON body `{"error":{"code","message",...}}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    extra: serde_json::Map<String, serde_json::Value>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            extra: Default::default(),
        }
    }
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    /// 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    /// 403: outside the served directory, or a host or origin not served.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }
    /// 409: the file on disk is not the one the write expected.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", message)
    }
    /// 413.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
    }
    /// 429: too many jobs running.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "busy", message)
    }
    /// 422 with a code of the caller's (`level`, `history`).
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    /// 500: the library failed (a bug).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
    /// Adds a field beside `code` and `message`.
    pub fn with(mut self, key: &str, value: serde_json::Value) -> ApiError {
        self.extra.insert(key.to_string(), value);
        self
    }
}

impl From<crate::page::Refusal> for ApiError {
    fn from(r: crate::page::Refusal) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            code: r.code,
            message: r.message,
            extra: r.extra,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = self.extra;
        body.insert("code".into(), self.code.into());
        body.insert("message".into(), self.message.into());
        let v = serde_json::json!({ "error": body });
        (self.status, axum::Json(v)).into_response()
    }
}
