//! Answering: running the solver on each case or query and choosing its template.

use crate::compile::{JudgeFormat, Model, PoseId, Subject};
use crate::engine::{Instance, Level};
use crate::solution::{Drawing, Status};
use crate::solver::{SolveError, Solver};

use super::read::Placement;
use super::template::{fill, Fill};
use super::{JudgeError, JudgeOptions, JudgeSummary};

/// Answers cases and queries for one judge run: the solver (built once for the model),
/// the format's templates, and the run's summary.
pub struct Answers<'a> {
    model: &'a Model,
    fmt: &'a JudgeFormat,
    opts: &'a JudgeOptions,
    solver: Solver<'a>,
    /// Whether a template prints the path, so a fast path must build it.
    need_path: bool,
    /// What the run did so far.
    pub(crate) summary: JudgeSummary,
}

impl<'a> Answers<'a> {
    /// Answers in `fmt`, `model`'s judge format, solved with `opts`; fails when the
    /// engine or search `opts` asks for cannot run on these rules.
    pub fn new(
        model: &'a Model,
        fmt: &'a JudgeFormat,
        opts: &'a JudgeOptions,
    ) -> Result<Self, SolveError> {
        Ok(Answers {
            model,
            fmt,
            opts,
            solver: Solver::new(model, opts.engine, opts.search)?,
            need_path: [&fmt.solved, &fmt.unsolved]
                .iter()
                .any(|t| t.contains("{path}") || t.contains("{moves}")),
            summary: JudgeSummary {
                engine: "interpreter".into(),
                ..Default::default()
            },
        })
    }

    /// The answer text for a case without queries.
    pub fn case(&mut self, level: Level, case: usize) -> Result<String, JudgeError> {
        self.solve(level, case, None)
    }

    /// The answer text for one query: 0 when the placed start already meets the goal
    /// (the NOIP rule, and harmless elsewhere; decided before the placement is checked),
    /// the `invalid` template (with a warning) when the placement is malformed, else the
    /// solver's answer.
    pub fn query(
        &mut self,
        level: &Level,
        placed: &[Placement],
        (case, query): (usize, usize),
    ) -> Result<String, JudgeError> {
        fn at(case: usize, query: usize, cost: &str) -> Fill<'_> {
            Fill {
                case,
                query: Some(query),
                cost,
                path: "",
                moves: 0,
            }
        }
        let (model, fmt) = (self.model, self.fmt);
        if meets_goal(model, level, placed) {
            let zero = vec!["0"; model.costs.len().max(1)].join(" ");
            return Ok(fill(&fmt.solved, &at(case, query, &zero)));
        }
        match place(model, level, placed) {
            Ok(l) => self.solve(l, case, Some(query)),
            Err(why) => {
                self.summary
                    .warnings
                    .push(format!("query {query} of case {case}: {why}"));
                let t = fmt.invalid.as_deref().unwrap_or(&fmt.unsolved);
                Ok(fill(t, &at(case, query, "")))
            }
        }
    }

    /// Solves `level` and fills the `solved` or `unsolved` template; a search cut off by
    /// the budget is an error (no answer can be printed for it).
    fn solve(
        &mut self,
        level: Level,
        case: usize,
        query: Option<usize>,
    ) -> Result<String, JudgeError> {
        let fmt = self.fmt;
        let s = self.solver.solution(
            level,
            &self.opts.budget,
            self.need_path,
            &Drawing::answer_only(),
        )?;
        self.summary.engine = s.engine.clone();
        self.summary.engine_reason = s.engine_reason.clone();
        self.summary.search = s.search.clone();
        let cost = s.cost_vector().map_or(String::new(), |c| {
            c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
        });
        let v = Fill {
            case,
            query,
            cost: &cost,
            path: &s.path,
            moves: s.unit_steps,
        };
        Ok(match s.outcome {
            Status::Solved => fill(&fmt.solved, &v),
            Status::Unsolvable => fill(&fmt.unsolved, &v),
            Status::Cutoff | Status::Cancelled => {
                return Err(JudgeError::Cutoff {
                    case,
                    reason: s.stopped.unwrap_or_default(),
                })
            }
        })
    }
}

/// Whether the goal holds with a query's placements, judged cell by cell without asking
/// whether the placement is legal: every piece a goal names stands (one cell) on its place.
fn meets_goal(model: &Model, level: &Level, placed: &[Placement]) -> bool {
    let b = &level.board;
    let on = |r: i64, c: i64| {
        (r >= 0 && c >= 0 && (r as usize) < b.rows && (c as usize) < b.cols)
            .then(|| r as usize * b.cols + c as usize)
    };
    model.goal.iter().all(|g| {
        let Some(&(_, r, c)) = placed
            .iter()
            .find(|(s, _, _)| *s == Subject::Piece(g.piece))
        else {
            return false;
        };
        match g.on {
            // A mark the query places is met when it names the piece's own coordinates,
            // on the board or not.
            crate::compile::Place::Mark(k)
                if placed.iter().any(|&(s, _, _)| s == Subject::Mark(k)) =>
            {
                placed
                    .iter()
                    .any(|&(s, r2, c2)| s == Subject::Mark(k) && (r2, c2) == (r, c))
            }
            crate::compile::Place::Mark(k) => {
                on(r, c).is_some_and(|cell| b.has_mark(cell as u32, k))
            }
            crate::compile::Place::Tile(t) => on(r, c).is_some_and(|cell| b.tiles[cell] == t),
        }
    })
}

/// The level with a query's pieces and marks placed, or why the query is malformed.
fn place(model: &Model, level: &Level, placed: &[Placement]) -> Result<Level, String> {
    let mut l = level.clone();
    let b = &l.board;
    let (rows, cols) = (b.rows, b.cols);
    let off = |r: i64, c: i64| r < 0 || c < 0 || r as usize >= rows || c as usize >= cols;
    for (s, r, c) in placed {
        if let Subject::Piece(p) = s {
            if off(*r, *c) {
                let name = &model.pieces[p.index()].name;
                return Err(format!(
                    "`{name}` at row {}, column {} is off the board",
                    r.saturating_add(1),
                    c.saturating_add(1)
                ));
            }
        }
    }
    for (s, r, c) in placed {
        // A mark off the board marks nothing: no piece can reach it.
        if off(*r, *c) {
            continue;
        }
        let cell = (*r as usize * l.board.cols + *c as usize) as u32;
        match s {
            Subject::Piece(p) => l.instances.push(Instance {
                piece: *p,
                cell,
                pose: PoseId(0),
            }),
            Subject::Mark(k) => l.board.marks[cell as usize] |= 1 << k.0,
            Subject::Tile(_) => {}
        }
    }
    l.instances.sort_by_key(|i| i.piece);
    if let Some((_, why)) = l.start_violation(model) {
        return Err(why);
    }
    Ok(l)
}
