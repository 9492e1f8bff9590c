//! Checking a file's `expect` clauses: what `puz test` and the playground's Run tests do.
//!
//! A [`Tester`] holds one [`Solver`] per metric a level expects an answer under (built the
//! first time one is needed, so the engine choice and whatever a fast path reuses are
//! shared by the levels), and checks one level at a time: [`Tester::level`] solves it once
//! per expectation and compares the optimal cost (or "no solution") with the expected one.

use std::time::{Duration, Instant};

use crate::compile::Expect;
use crate::diagnostics::{Diagnostics, Warnings};
use crate::search::Budget;
use crate::solution::{cost_names, Cost, Drawing, Status};
use crate::solver::{EngineChoice, SearchChoice, SolveError, Solver};
use crate::Puzzle;

/// How one expectation fared.
#[derive(Debug)]
pub enum Verdict {
    /// The search found the expected answer.
    Pass,
    /// It found another answer (`got`: the cost, or `None` for "no solution").
    Fail {
        /// What the search found.
        got: Option<Cost>,
    },
    /// It found none: a budget ran out, or the search could not run.
    NoAnswer {
        /// Why, in a sentence.
        why: String,
        /// The solver's refusal, when the search could not run at all.
        error: Option<SolveError>,
    },
}

/// One `expect` clause of a level, checked.
#[derive(Debug)]
pub struct Checked {
    /// The metric it counts in (`expect [slides] 9`), if any.
    pub metric: Option<String>,
    /// The expected answer: the cost, or `None` for `expect none`.
    pub want: Option<Cost>,
    /// How it fared.
    pub verdict: Verdict,
    /// The search's time (setup included).
    pub elapsed: Duration,
}

impl Checked {
    /// Whether the expectation holds.
    pub fn passed(&self) -> bool {
        matches!(self.verdict, Verdict::Pass)
    }
}

/// One level's expectations, checked.
#[derive(Debug)]
pub struct LevelCheck {
    /// The level's index among the file's levels.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// The level does not set up (its diagnostics); then nothing was solved.
    pub invalid: Option<Diagnostics>,
    /// The level's lints, whether or not it expects anything.
    pub lints: Option<Warnings>,
    /// Each expectation in the order the file writes them: the plain one first, then
    /// those under metrics. Empty when the level has none.
    pub checks: Vec<Checked>,
}

/// `Some(cost)` for an expected cost, `None` for `expect none`.
fn wanted(names: &[String], e: &Expect) -> Option<Cost> {
    match e {
        Expect::Cost(values) => Some(Cost {
            names: names.to_vec(),
            values: values.clone(),
        }),
        Expect::Unsolvable => None,
    }
}

/// Checks the expectations of a puzzle's levels (see the module header).
pub struct Tester<'p> {
    puzzle: &'p Puzzle,
    engine: EngineChoice,
    search: SearchChoice,
    /// Slot 0: the plain count; slot m + 1: metric m. Built on first use; a refusal is
    /// kept as its message.
    solvers: Vec<Option<Result<Solver<'p>, String>>>,
}

impl<'p> Tester<'p> {
    /// A tester for `puzzle`'s levels, solving with `engine` and `search`; an error when
    /// these cannot solve the rules at all (`--engine fast` with no fast path). A metric
    /// they cannot count in fails only the expectations under it.
    pub fn new(
        puzzle: &'p Puzzle,
        engine: EngineChoice,
        search: SearchChoice,
    ) -> Result<Tester<'p>, SolveError> {
        let plain = Solver::new(&puzzle.model, engine, search)?;
        let n = puzzle.model.metrics.len() + 1;
        let mut solvers: Vec<_> = (0..n).map(|_| None).collect();
        solvers[0] = Some(Ok(plain));
        Ok(Tester {
            puzzle,
            engine,
            search,
            solvers,
        })
    }

    /// Checks every expectation of level `index` within `budget` each (and lints it).
    pub fn level(&mut self, index: usize, budget: &Budget) -> LevelCheck {
        let p = self.puzzle;
        let model = &p.model;
        let l = &model.levels[index];
        let mut out = LevelCheck {
            index,
            name: l.name.clone(),
            invalid: None,
            lints: None,
            checks: vec![],
        };
        let level = match p.inline_level(index) {
            Ok(level) => level,
            Err(d) => {
                out.invalid = Some(d);
                return out;
            }
        };
        out.lints = p.level_lints(&level, Some(index));
        let names = cost_names(model);
        let wants = l
            .expect
            .iter()
            .map(|e| (None, e))
            .chain(l.metric_expects.iter().map(|(m, e)| (Some(*m), e)));
        for (metric, expect) in wants {
            let t0 = Instant::now();
            let want = wanted(&names, expect);
            let no_answer =
                |why: String, error: Option<SolveError>| Verdict::NoAnswer { why, error };
            let slot = metric.map_or(0, |m| m + 1);
            let (engine, search) = (self.engine, self.search);
            let solver = self.solvers[slot]
                .get_or_insert_with(|| {
                    Solver::for_metric(model, engine, search, metric).map_err(|e| e.to_string())
                })
                .as_mut();
            let verdict = match solver {
                Err(why) => no_answer(why.clone(), None),
                Ok(solver) => {
                    match solver.solution(level.clone(), budget, false, &Drawing::answer_only()) {
                        Err(e) => no_answer(e.to_string(), Some(e)),
                        Ok(s) => match s.outcome {
                            Status::Cutoff | Status::Cancelled => no_answer(
                                format!("search stopped: {}", s.stopped.unwrap_or_default()),
                                None,
                            ),
                            Status::Solved | Status::Unsolvable if s.cost == want => Verdict::Pass,
                            Status::Solved | Status::Unsolvable => Verdict::Fail { got: s.cost },
                        },
                    }
                }
            };
            out.checks.push(Checked {
                metric: metric.map(|m| model.metrics[m].name.clone()),
                want,
                verdict,
                elapsed: t0.elapsed(),
            });
        }
        out
    }
}
