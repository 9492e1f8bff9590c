//! The playground's answers, without a server: what the page asks (`/api/check`,
//! `/api/level`, `/api/play`, `/api/puzzlescript`, `/api/templates`, and the solve,
//! analyze and test jobs) answered as JSON values from the posted text alone. `puz serve`
//! wraps them in HTTP routes, threads and server-sent events (`serve`); the WebAssembly
//! build (`web/wasm`) calls them in the browser, with no server at all ([`call`],
//! [`Job::from_json`]). The shapes are listed in the README's API table.
//!
//! Everything here is stateless: every request carries the file's text, and a level is
//! loaded again for each (a few milliseconds), so both front ends answer alike.

mod check;
mod play;
mod ps;
mod ps_colors;
mod ps_work;
mod templates;
mod work;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use web_time::Instant;

use crate::engine::budget::{Budget, Stats};

pub use check::{check, diagnostics_json, LineIndex, Located, SOURCE_NAME};
pub use play::{level, play, LevelReq, PlayReq};
pub use ps::{color_hex, play as ps_play, PsPlayReq, MAX_INPUTS as MAX_PS_INPUTS, REPLAY_TIME};
pub use templates::{templates, Template, TEMPLATES};
pub use work::{MAX_FRAMES, MAX_FRAME_CELLS, MAX_GRAPH_NODES};

/// The limits on every search a page asks for (a server's, or the browser's own).
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// The most time one job may take.
    pub max_timeout: Duration,
    /// The time a job gets when the request names none.
    pub default_timeout: Duration,
    /// The most states one job may store.
    pub max_states: usize,
    /// The states a job may store when the request names no limit.
    pub default_states: usize,
    /// The most resident memory (MiB) the process may reach while a job runs.
    pub max_memory_mb: u64,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            max_timeout: Duration::from_secs(120),
            default_timeout: Duration::from_secs(10),
            max_states: 50_000_000,
            default_states: 50_000_000,
            max_memory_mb: 4096,
        }
    }
}

/// A request the page's API refuses: an HTTP status, a code and a message, and fields
/// beside them (`diagnostics`, `at`). `puz serve` answers it as
/// `{"error": {"code", "message", ...}}` with that status; the browser build hands the
/// same object to the page.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The HTTP status (400, 404, 409, 422, ...).
    pub status: u16,
    /// A short code (`bad_request`, `level`, `history`, `puz::ps::tests_need_sidecar`).
    pub code: &'static str,
    /// One sentence for people.
    pub message: String,
    /// More fields of the error object.
    pub extra: serde_json::Map<String, Value>,
}

impl Refusal {
    /// A refusal with `status`, `code` and `message`.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            code,
            message: message.into(),
            extra: Default::default(),
        }
    }
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> Refusal {
        Refusal::new(400, "bad_request", message)
    }
    /// 404: no such route.
    pub fn not_found(message: impl Into<String>) -> Refusal {
        Refusal::new(404, "not_found", message)
    }
    /// 422 with a code of the caller's (`level`, `history`, `game`).
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal::new(422, code, message)
    }
    /// 500: the library failed (a bug).
    pub fn internal(message: impl Into<String>) -> Refusal {
        Refusal::new(500, "internal", message)
    }
    /// Adds a field beside `code` and `message`.
    pub fn with(mut self, key: &str, value: Value) -> Refusal {
        self.extra.insert(key.to_string(), value);
        self
    }
    /// The error object as the API sends it: `{"error": {"code", "message", ...}}`.
    pub fn to_json(&self) -> Value {
        let mut body = self.extra.clone();
        body.insert("code".into(), self.code.into());
        body.insert("message".into(), self.message.clone().into());
        json!({ "error": body })
    }
}

/// What a job's work gets: the budget to search under (its cancel flag and progress set
/// by the front end) and the counters the search last reported.
pub struct Ctx {
    /// The budget: the request's limits after the caps.
    pub budget: Budget,
    /// The counters the search last told the progress callback (every call).
    latest: Arc<Mutex<Stats>>,
}

impl Ctx {
    /// A job's context: `budget`'s progress callback (if any) still gets every report,
    /// and the last one is kept for [`Ctx::latest`].
    pub fn new(mut budget: Budget) -> Ctx {
        let latest = Arc::new(Mutex::new(Stats::default()));
        let seen = latest.clone();
        let inner = budget.progress.take();
        budget.progress = Some(Arc::new(move |s: &Stats| {
            *seen.lock().unwrap_or_else(|p| p.into_inner()) = s.clone();
            if let Some(f) = &inner {
                f(s);
            }
        }));
        Ctx { budget, latest }
    }

    /// The job was cancelled.
    pub fn cancelled(&self) -> bool {
        self.budget.cancelled()
    }

    /// The counters the search last reported, for a phase that stops without returning
    /// its own (building an analysis's state graph).
    pub fn latest(&self) -> Stats {
        self.latest
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// A search's counters as progress events carry them; `elapsed` counts from `started`.
pub fn progress_json(s: &Stats, started: Instant) -> Value {
    json!({
        "expanded": s.expanded,
        "generated": s.generated,
        "stored": s.stored,
        "elapsed": started.elapsed().as_secs_f64(),
    })
}

/// The budget a request asks for (`"budget": {"max_states", "timeout_ms",
/// "max_memory_mb"}`); [`BudgetReq::capped`] holds it to the caps.
#[derive(Deserialize, Default, Clone, Copy, Debug)]
pub struct BudgetReq {
    /// The most states to store.
    #[serde(default)]
    pub max_states: Option<u64>,
    /// The most time, in milliseconds.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// The most resident memory, in MiB.
    #[serde(default)]
    pub max_memory_mb: Option<u64>,
}

impl BudgetReq {
    /// The effective limits (as the API answers them) and the budget they make, its
    /// deadline counted from now.
    pub fn capped(self, caps: &Caps) -> (Value, Budget) {
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

/// `POST /api/solve`: a level of the text, how to search it, and the budget.
#[derive(Deserialize)]
pub struct SolveReq {
    text: String,
    #[serde(default)]
    level: usize,
    #[serde(default)]
    search: Option<String>,
    #[serde(default)]
    engine: Option<String>,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    budget: BudgetReq,
}

/// `POST /api/analyze`: a level of the text, a metric, and the budget.
#[derive(Deserialize)]
pub struct AnalyzeReq {
    text: String,
    #[serde(default)]
    level: usize,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    budget: BudgetReq,
}

/// `POST /api/test`: every `expect` line of the text, under the budget.
#[derive(Deserialize)]
pub struct TestReq {
    text: String,
    #[serde(default)]
    budget: BudgetReq,
}

/// A job the request asked for, checked and ready to run under a budget: a solve, an
/// analysis or a test run.
pub struct Job {
    /// `solve`, `analyze` or `test`.
    pub kind: &'static str,
    /// The budget the request asked for.
    pub budget: BudgetReq,
    work: Box<dyn FnOnce(&Ctx) -> Value + Send>,
}

impl Job {
    /// A solve: 400 on an unknown engine or search.
    pub fn solve(req: SolveReq) -> Result<Job, Refusal> {
        let budget = req.budget;
        let work: Box<dyn FnOnce(&Ctx) -> Value + Send> =
            if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
                let search =
                    match req.search.as_deref().unwrap_or("auto") {
                        "auto" => None,
                        name => Some(crate::search::Backend::from_name(name).ok_or_else(|| {
                            Refusal::bad_request(format!("unknown search {name:?}"))
                        })?),
                    };
                Box::new(move |ctx: &Ctx| ps_work::solve_job(ctx, &req.text, req.level, search))
            } else {
                let engine = match req.engine.as_deref().unwrap_or("auto") {
                    "auto" => crate::solver::EngineChoice::Auto,
                    "interp" | "interpreter" => crate::solver::EngineChoice::Interp,
                    "fast" => crate::solver::EngineChoice::Fast,
                    other => {
                        return Err(Refusal::bad_request(format!(
                            "unknown engine {other:?}; engines: auto, interp, fast"
                        )))
                    }
                };
                let name = req.search.clone().unwrap_or_else(|| "auto".into());
                let search = crate::solver::SearchChoice::from_name(&name).ok_or_else(|| {
                    let names: Vec<&str> = crate::search::BACKENDS.iter().map(|b| b.name).collect();
                    Refusal::bad_request(format!(
                        "unknown search {name:?}; searches: auto, {}",
                        names.join(", ")
                    ))
                })?;
                Box::new(move |ctx: &Ctx| {
                    work::solve_job(
                        ctx,
                        &req.text,
                        req.level,
                        req.metric.as_deref(),
                        engine,
                        search,
                    )
                })
            };
        Ok(Job {
            kind: "solve",
            budget,
            work,
        })
    }

    /// An analysis of a level's state graph.
    pub fn analyze(req: AnalyzeReq) -> Job {
        let budget = req.budget;
        let work: Box<dyn FnOnce(&Ctx) -> Value + Send> =
            if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
                Box::new(move |ctx: &Ctx| ps_work::analyze_job(ctx, &req.text, req.level))
            } else {
                Box::new(move |ctx: &Ctx| {
                    work::analyze_job(ctx, &req.text, req.level, req.metric.as_deref())
                })
            };
        Job {
            kind: "analyze",
            budget,
            work,
        }
    }

    /// A run of every `expect` line: refused on a PuzzleScript game, whose expectations
    /// live in a file beside it.
    pub fn test(req: TestReq) -> Result<Job, Refusal> {
        if crate::puzzlescript::looks_like_puzzlescript(&req.text) {
            return Err(ps::not_searchable("Run tests"));
        }
        Ok(Job {
            kind: "test",
            budget: req.budget,
            work: Box::new(move |ctx: &Ctx| work::test_job(ctx, req.text)),
        })
    }

    /// The job `kind` (`solve`, `analyze`, `test`) asked for by the JSON body `body`.
    pub fn from_json(kind: &str, body: &str) -> Result<Job, Refusal> {
        match kind {
            "solve" => Job::solve(parse(body)?),
            "analyze" => Ok(Job::analyze(parse(body)?)),
            "test" => Job::test(parse(body)?),
            other => Err(Refusal::not_found(format!("no job kind {other:?}"))),
        }
    }

    /// Runs the job: its result, `outcome` and `message` first among its fields.
    pub fn run(self, ctx: &Ctx) -> Value {
        (self.work)(ctx)
    }
}

/// A request body, or 400 saying what is wrong with it.
fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, Refusal> {
    serde_json::from_str(body)
        .map_err(|e| Refusal::bad_request(format!("the request body does not parse: {e}")))
}

/// Answers a request that needs no job, as `puz serve` would (`route` is the API path:
/// `/api/check`, `/api/level`, `/api/play`, `/api/puzzlescript`, `/api/templates`), from
/// its JSON `body`; the setups of levels are held to `caps`.
pub fn call(route: &str, body: &str, caps: &Caps) -> Result<Value, Refusal> {
    #[derive(Deserialize)]
    struct CheckReq {
        text: String,
    }
    match route {
        "/api/check" => Ok(check(parse::<CheckReq>(body)?.text)),
        "/api/level" => level(parse(body)?, caps),
        "/api/play" => play(parse(body)?, caps),
        "/api/puzzlescript" => ps_play(parse(body)?),
        "/api/templates" => Ok(templates()),
        other => Err(Refusal::not_found(format!("no API route {other:?}"))),
    }
}

/// `POST /api/picture`: an answer's boards (`frames`, as a solve gives them) with the
/// level's `palette`, as an animated GIF (`"format": "gif"`, `delay_ms` a frame) or a
/// PNG strip (`"png"`).
#[cfg(feature = "picture")]
#[derive(Deserialize)]
pub struct PictureReq {
    frames: Vec<crate::io::view::BoardView>,
    palette: crate::io::view::Palette,
    format: String,
    #[serde(default)]
    delay_ms: Option<u32>,
}

/// The picture a [`PictureReq`] asks for: its bytes and their media type.
#[cfg(feature = "picture")]
pub fn picture(req: PictureReq) -> Result<(Vec<u8>, &'static str), Refusal> {
    use crate::io::picture;
    let delay = req.delay_ms.unwrap_or(333).clamp(20, 10_000) / 10;
    let made = match req.format.as_str() {
        "gif" => picture::gif(&req.frames, &req.palette, delay as u16).map(|b| (b, "image/gif")),
        "png" => picture::png_strip(&req.frames, &req.palette).map(|b| (b, "image/png")),
        other => {
            return Err(Refusal::bad_request(format!(
                "unknown picture format {other:?}; formats: gif, png"
            )))
        }
    };
    made.map_err(|e| Refusal::unprocessable("picture", e.to_string()))
}

/// [`picture`] from a JSON body.
#[cfg(feature = "picture")]
pub fn picture_json(body: &str) -> Result<(Vec<u8>, &'static str), Refusal> {
    picture(parse(body)?)
}
