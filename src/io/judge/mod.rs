//! Judge mode: read the input format a `.puz` file declares, print answers exactly.
//!
//! Three parts: `read` takes the input apart (headers, boards, queries), `answer` runs
//! the solver per case or query, `template` fills in the format's answer texts.
//! Answers are written as each case is solved, so a malformed case later in the input
//! leaves the earlier answers printed; the error then points into the input.

mod answer;
mod read;
mod template;

use std::io::Write;

use crate::compile::Model;
use crate::search::Budget;
use crate::solver::{EngineChoice, SearchChoice, SolveError};

pub use read::{InputError, InputProblem};

/// Why a judge run stopped.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum JudgeError {
    /// The rules declare no judge format (the puzzle's title).
    #[error("puzzle {0:?} has no `judge` declaration, so it has no judge input format")]
    #[diagnostic(
        code(puz::input::no_judge_format),
        help("declare one with `judge {{ ... }}`, or use `puz solve` with a level file")
    )]
    NoFormat(String),
    /// The input is malformed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Input(#[from] InputError),
    /// The solver refused to run (no fast path, search unavailable, ...).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),
    /// A search hit the budget: no answer can be printed for this case.
    #[error("case {case}: search stopped: {reason}")]
    Cutoff {
        /// The case number, from 1.
        case: usize,
        /// Which limit was hit.
        reason: String,
    },
    /// The answers could not be written.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

/// Options of one judge run.
#[derive(Clone, Debug, Default)]
pub struct JudgeOptions {
    /// Which engine solves each case.
    pub engine: EngineChoice,
    /// Which search backend the interpreter uses.
    pub search: SearchChoice,
    /// Limits for each case's search.
    pub budget: Budget,
}

/// What a judge run did.
#[derive(Debug, Default)]
pub struct JudgeSummary {
    /// The number of cases read.
    pub cases: usize,
    /// One line per malformed query (`query N of case C: why`), answered `invalid`.
    pub warnings: Vec<String>,
    /// The engine that ran (for the last case).
    pub engine: String,
    /// Why that engine ran (for the last case).
    pub engine_reason: String,
    /// The search it used.
    pub search: String,
}

/// Runs a whole judge input with `rules` (a loaded puzzle, or anything holding a model), writing
/// answers to `out` as they are found.
pub fn run_judge(
    rules: &impl AsRef<Model>,
    input: &str,
    out: &mut dyn Write,
    opts: &JudgeOptions,
) -> Result<JudgeSummary, JudgeError> {
    let model = rules.as_ref();
    let fmt = model
        .judge
        .as_ref()
        .ok_or_else(|| JudgeError::NoFormat(model.title.clone()))?;
    let mut reader = read::Reader::new(input, model, fmt);
    let fail = |p: InputProblem| JudgeError::Input(InputError::new("judge input", input, p));
    let mut answers = answer::Answers::new(model, fmt, opts)?;
    let mut case = 0usize;
    while let Some(header) = reader.next_case(case).map_err(fail)? {
        case += 1;
        let level = reader.board(&header, case).map_err(fail)?;
        if fmt.query.is_empty() {
            out.write_all(answers.case(level, case)?.as_bytes())?;
        } else {
            for qi in 1..=header.queries {
                let placed = reader.query(qi).map_err(fail)?;
                out.write_all(answers.query(&level, &placed, (case, qi))?.as_bytes())?;
            }
        }
        out.flush()?;
    }
    let mut summary = answers.summary;
    summary.cases = case;
    Ok(summary)
}
