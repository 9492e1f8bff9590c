//! Budgets shared by every phase that can run long: level setup, heuristic and goal
//! preparation, search, analysis and export, and the fast paths.
//!
//! It lives in the engine (the lowest stage that runs long) so that the engine and every
//! later stage check the same limits.

use std::time::Duration;
use web_time::Instant;

/// The estimate of a state from which no goal can be reached.
pub(crate) const UNREACHABLE: u32 = u32::MAX;

/// Called now and then during a search with the counters so far (for progress bars).
pub type Progress = std::sync::Arc<dyn Fn(&Stats) + Send + Sync>;

/// Bounds on one search or engine phase. One that hits a bound stops with a [`Cutoff`].
#[derive(Clone, Default)]
pub struct Budget {
    /// Stop after storing this many states.
    pub max_states: Option<usize>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop when the process's resident memory exceeds this many bytes.
    pub max_bytes: Option<u64>,
    /// Never make more than this many moves (a rule of the puzzle, not a budget).
    pub max_depth: Option<u32>,
    /// Told of progress every few thousand expansions.
    pub progress: Option<Progress>,
    /// Stop as soon as this flag is set (checked with the deadline): a search someone
    /// called off, such as a playground user pressing Cancel.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("max_states", &self.max_states)
            .field("deadline", &self.deadline)
            .field("max_bytes", &self.max_bytes)
            .field("max_depth", &self.max_depth)
            .field("cancel", &self.cancelled())
            .finish()
    }
}

/// How often (in expansions) searches look at the clock, memory and progress.
pub const CHECK_EVERY: u64 = 4096;

impl Budget {
    /// The slow checks (time, memory, progress), meant for every [`CHECK_EVERY`] expansions.
    pub(crate) fn check(&self, stats: &Stats) -> Option<Cutoff> {
        if let Some(p) = &self.progress {
            p(stats);
        }
        self.over()
    }

    /// The cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The deadline passed or the search was called off: the cheap checks.
    #[inline]
    fn late(&self) -> Option<Cutoff> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Cutoff::Time);
        }
        if self.cancelled() {
            return Some(Cutoff::Cancelled);
        }
        None
    }

    /// The time and memory checks alone, for phases that report no progress.
    fn over(&self) -> Option<Cutoff> {
        if let Some(c) = self.late() {
            return Some(c);
        }
        if let Some(max) = self.max_bytes {
            if resident_bytes().is_some_and(|b| b > max) {
                return Some(Cutoff::Memory(max));
            }
        }
        None
    }

    /// Refuses up front a table of `bytes` more bytes that would take resident memory past
    /// the memory limit.
    pub(crate) fn room_for(&self, bytes: u64) -> Result<(), Cutoff> {
        match self.max_bytes {
            Some(max) if resident_bytes().unwrap_or(0).saturating_add(bytes) > max => {
                Err(Cutoff::Memory(max))
            }
            _ => Ok(()),
        }
    }
}

/// Paces the budget checks in loops whose steps do uneven work (a slide may cross a
/// hundred thousand cells): [`Pacer::tick`] counts work units (a state expanded or
/// generated, a cell looked at, a node or edge visited) and checks time and memory once
/// per [`CHECK_EVERY`] units, the deadline alone (a cheap clock read) once per 64. Every
/// phase that can run long, in every stage, paces its checks with one.
#[derive(Debug, Default)]
pub struct Pacer {
    work: u64,
    next_fast: u64,
    next_slow: u64,
}

impl Pacer {
    /// Counts `units` more work; `Err` once a limit of `budget` is passed.
    #[inline]
    pub fn tick(&mut self, units: u64, budget: &Budget) -> Result<(), Cutoff> {
        self.pace(units, budget, None)
    }

    /// [`Pacer::tick`] inside a search: the slow checks also tell the progress callback
    /// the search's counters.
    #[inline]
    pub fn tick_with(&mut self, units: u64, budget: &Budget, stats: &Stats) -> Result<(), Cutoff> {
        self.pace(units, budget, Some(stats))
    }

    #[inline]
    fn pace(&mut self, units: u64, budget: &Budget, stats: Option<&Stats>) -> Result<(), Cutoff> {
        self.work += units;
        if self.work < self.next_fast {
            return Ok(());
        }
        self.next_fast = self.work + 64;
        let over = if self.work >= self.next_slow {
            self.next_slow = self.work + CHECK_EVERY;
            match stats {
                Some(stats) => budget.check(stats),
                None => budget.over(),
            }
        } else {
            budget.late()
        };
        over.map_or(Ok(()), Err)
    }
}

/// The process's resident memory now, where the system tells it (Linux).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The process's peak resident memory so far, where the system tells it (Linux).
pub fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Counters of one search.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successors generated (duplicates included).
    pub generated: u64,
    /// Distinct states stored.
    pub stored: u64,
    /// The largest frontier (queue or heap) seen.
    pub peak_frontier: u64,
    /// Bytes held by the state store at the end.
    pub(crate) store_bytes: u64,
    /// What the bound was built from, when building it was a phase of its own (IDA*'s
    /// pattern databases: their groups, entries and build time, or `cached`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<String>,
    /// Wall time of the whole solve.
    #[serde(serialize_with = "ser_secs")]
    pub elapsed: Duration,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cutoff {
    /// This many states were stored.
    States(usize),
    /// The deadline passed.
    Time,
    /// Resident memory passed this many bytes.
    Memory(u64),
    /// The search was called off ([`Budget::cancel`]).
    Cancelled,
}

impl std::fmt::Display for Cutoff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cutoff::States(n) => write!(
                f,
                "the state limit of {} was reached",
                crate::diagnostics::quantity(*n as u64, "states")
            ),
            Cutoff::Time => write!(f, "the time limit was reached"),
            Cutoff::Memory(b) => write!(f, "the memory limit of {} MiB was reached", b >> 20),
            Cutoff::Cancelled => write!(f, "the search was cancelled"),
        }
    }
}
