//! puz in the browser: the playground's API answered by the core compiled to
//! WebAssembly (`page`), with no server. `local.js` calls these from a Web Worker:
//! [`call`] for the requests that answer at once, [`run_job`] for a solve, analysis or
//! test run (its progress posted back as it runs; a cancel terminates the worker), and
//! [`picture`] for an answer as a GIF or PNG strip.
//!
//! Every answer is JSON text: `{"ok": ANSWER}` or `{"status": N, "error": {...}}`, the
//! error object `puz serve` would send with that status.

use std::cell::RefCell;
use std::sync::Arc;

use puz::engine::budget::Stats;
use puz::page::{self, Caps, Ctx, Job, Refusal};
use wasm_bindgen::prelude::*;
use web_time::Instant;

/// Progress goes to the page at most this often (as `puz serve` sends it).
const PROGRESS_EVERY_MS: f64 = 100.0;

thread_local! {
    /// The last panic's message: a panic aborts the instance, and the worker reads this
    /// to say what went wrong before it starts a fresh one.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The page's progress callback for the job running now.
    static PROGRESS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Records panics' messages for [`last_panic`].
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        PANIC.with(|p| *p.borrow_mut() = Some(msg));
    }));
}

/// The message of the panic that aborted the instance, if any.
#[wasm_bindgen]
pub fn last_panic() -> Option<String> {
    PANIC.with(|p| p.borrow().clone())
}

fn answer(r: Result<serde_json::Value, Refusal>) -> String {
    match r {
        Ok(v) => serde_json::json!({ "ok": v }).to_string(),
        Err(e) => {
            let mut v = e.to_json();
            v["status"] = e.status.into();
            v.to_string()
        }
    }
}

/// The limits in the browser: those of `puz serve`'s defaults (the memory limit measures
/// nothing here).
fn caps() -> Caps {
    Caps::default()
}

/// Answers `route` (`/api/check`, `/api/level`, `/api/play`, `/api/puzzlescript`,
/// `/api/templates`) for the JSON `body`.
#[wasm_bindgen]
pub fn call(route: &str, body: &str) -> String {
    answer(page::call(route, body, &caps()))
}

/// Checks the job `kind` asked for by the JSON `body` without running it: answers
/// `{"ok": BUDGET}`, the budget it will run under (after the caps), or the refusal
/// `POST /api/solve` would give (an unknown engine or search).
#[wasm_bindgen]
pub fn job_budget(kind: &str, body: &str) -> String {
    answer(Job::from_json(kind, body).map(|j| j.budget.capped(&caps()).0))
}

/// Runs the job `kind` (`solve`, `analyze`, `test`) for the JSON `body` under its budget
/// (held to the caps), calling `progress` with the counters (JSON text) at most ten times
/// a second; answers `{"ok": {"budget", "result"}}`.
#[wasm_bindgen]
pub fn run_job(kind: &str, body: &str, progress: js_sys::Function) -> String {
    let job = match Job::from_json(kind, body) {
        Ok(j) => j,
        Err(e) => return answer(Err(e)),
    };
    let (eff, mut budget) = job.budget.capped(&caps());
    PROGRESS.with(|p| *p.borrow_mut() = Some(progress));
    let started = Instant::now();
    let last = std::sync::Mutex::new(None::<Instant>);
    budget.progress = Some(Arc::new(move |s: &Stats| {
        let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_some_and(|t| t.elapsed().as_secs_f64() * 1000.0 < PROGRESS_EVERY_MS) {
            return;
        }
        *last = Some(Instant::now());
        let p = page::progress_json(s, started).to_string();
        PROGRESS.with(|f| {
            if let Some(f) = &*f.borrow() {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&p));
            }
        });
    }));
    let ctx = Ctx::new(budget);
    let result = job.run(&ctx);
    PROGRESS.with(|p| *p.borrow_mut() = None);
    answer(Ok(serde_json::json!({ "budget": eff, "result": result })))
}

/// An answer's boards as a picture (the body of `POST /api/picture`): the bytes, or a
/// refusal's JSON text thrown as the error.
#[wasm_bindgen]
pub fn picture(body: &str) -> Result<Vec<u8>, JsValue> {
    page::picture_json(body)
        .map(|(bytes, _)| bytes)
        .map_err(|e| JsValue::from_str(&answer(Err(e))))
}
