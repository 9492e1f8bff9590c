//! `puz judge FILE [INPUT]`: a judge's input answered in its own format.

use std::io::Write;

use puz::io::judge::{run_judge, JudgeError, JudgeOptions};
use puz::io::read_source;

use super::{exit, load, output, solve_failed, source_name};
use crate::SearchArgs;

/// `puz judge`: reads the input (`-` or none: standard input) and prints the answers.
pub fn run(file: String, input: Option<String>, search: &SearchArgs) -> Result<(), u8> {
    let p = load(&file)?;
    let path = input.unwrap_or_else(|| "-".to_string());
    let text = read_source(&path).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })?;
    let opts = JudgeOptions {
        engine: search.engine.into(),
        search: search.search,
        budget: search.budget(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let res = run_judge(&p, &text, &mut out, &opts);
    let flushed = out.flush();
    match res {
        Ok(summary) => {
            flushed.map_err(output::write_failed)?;
            for w in &summary.warnings {
                say!("warning: {w}");
            }
            if search.verbose {
                say!(
                    "puz: {} case(s), engine {} ({}), search {}",
                    summary.cases,
                    summary.engine,
                    summary.engine_reason,
                    summary.search
                );
            }
            Ok(())
        }
        Err(JudgeError::Output(e)) => Err(output::write_failed(e)),
        Err(e) => {
            flushed.map_err(output::write_failed)?;
            Err(match e {
                JudgeError::Input(d) => {
                    output::report(&d.renamed(source_name(&path)));
                    exit::INPUT
                }
                JudgeError::Solve(e) => solve_failed(e),
                e @ JudgeError::Cutoff { .. } => {
                    say!("error: {e}");
                    exit::CUTOFF
                }
                e => {
                    output::report(&e);
                    exit::INPUT
                }
            })
        }
    }
}
