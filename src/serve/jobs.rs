//! Jobs: solves, analyses and test runs that take longer than a request. Each runs on its
//! own thread under a [`Budget`] whose cancel flag `DELETE /api/jobs/ID` sets; progress and
//! the result are published on a watch channel that the event stream follows.
//!
//! At most `max` jobs run at once (more are refused, 429), and the newest
//! [`KEPT`] finished jobs are kept for late readers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::watch;

use super::ApiError;
use crate::engine::budget::{Budget, Stats};
use crate::page::{progress_json, Ctx};

/// Finished jobs kept for late readers.
pub const KEPT: usize = 64;

/// Progress is published at most this often.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Where a job is.
#[derive(Clone, Debug, Default)]
pub struct Status {
    /// The counters last reported.
    pub progress: Option<Value>,
    /// The result, once it ended.
    pub result: Option<Value>,
}

/// One job.
pub struct Job {
    /// `solve`, `analyze` or `test`.
    pub kind: &'static str,
    cancel: Arc<AtomicBool>,
    status: watch::Sender<Status>,
    /// A sequence number, for eviction order.
    seq: u64,
}

impl Job {
    /// Asks the job to stop; it ends soon with `outcome: "cancelled"`.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Follows the job's status.
    pub fn subscribe(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    /// The status now.
    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }
}

/// Every job of the server.
pub struct Jobs {
    map: Mutex<HashMap<String, Arc<Job>>>,
    running: Arc<AtomicU64>,
    max: usize,
    next: AtomicU64,
    salt: u64,
}

impl Jobs {
    /// A registry running at most `max` jobs at once.
    pub fn new(max: usize) -> Jobs {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(std::process::id() as u64);
        Jobs {
            map: Mutex::new(HashMap::new()),
            running: Arc::new(AtomicU64::new(0)),
            max: max.max(1),
            next: AtomicU64::new(1),
            salt: h.finish(),
        }
    }

    /// The job `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Job>> {
        self.lock().get(id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Job>>> {
        // A panic while holding the lock cannot leave the map inconsistent (inserts and
        // removes are single calls), so a poisoned lock is used as is.
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts `work` on its own thread under `budget` (its cancel flag and progress are
    /// set here); returns the job's id, or 429 when `max` jobs are running.
    pub fn start<F>(
        &self,
        kind: &'static str,
        mut budget: Budget,
        work: F,
    ) -> Result<String, ApiError>
    where
        F: FnOnce(&Ctx) -> Value + Send + 'static,
    {
        let running = self.running.fetch_add(1, Ordering::SeqCst);
        if running >= self.max as u64 {
            self.running.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::busy(format!(
                "{} searches are running, the most this server runs at once; wait for one \
                 to end or cancel it",
                self.max
            )));
        }
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "{:016x}",
            seq.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.salt
        );
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, _) = watch::channel(Status::default());
        let job = Arc::new(Job {
            kind,
            cancel: cancel.clone(),
            status: tx,
            seq,
        });
        budget.cancel = Some(cancel);
        let started = Instant::now();
        let last = Mutex::new(started - PROGRESS_EVERY);
        let reporter = job.clone();
        budget.progress = Some(Arc::new(move |s: &Stats| {
            let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
            if last.elapsed() >= PROGRESS_EVERY {
                *last = Instant::now();
                let p = progress_json(s, started);
                reporter.status.send_modify(|st| st.progress = Some(p));
            }
        }));
        {
            let mut map = self.lock();
            map.insert(id.clone(), job.clone());
            evict(&mut map);
        }
        let running = self.running.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("puz-{kind}"))
            .spawn(move || {
                let ctx = Ctx::new(budget);
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&ctx)))
                    .unwrap_or_else(|panic| {
                        let why = panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "unknown".into());
                        json!({"outcome": "error", "message": format!("internal error (a bug in puz): {why}")})
                    });
                // The budget (and with it the progress callback holding the job) is
                // dropped before the result is published.
                drop(ctx);
                job.status.send_modify(|st| st.result = Some(result));
                running.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            self.running.fetch_sub(1, Ordering::SeqCst);
            self.lock().remove(&id);
            return Err(ApiError::internal(format!("cannot start a thread: {e}")));
        }
        Ok(id)
    }
}

/// Drops the oldest finished jobs beyond [`KEPT`].
fn evict(map: &mut HashMap<String, Arc<Job>>) {
    let mut done: Vec<(u64, String)> = map
        .iter()
        .filter(|(_, j)| j.status.borrow().result.is_some())
        .map(|(id, j)| (j.seq, id.clone()))
        .collect();
    if done.len() > KEPT {
        done.sort();
        for (_, id) in &done[..done.len() - KEPT] {
            map.remove(id);
        }
    }
}
