//! `puz test FILE...`: every level's `expect` clauses checked (see [`puz::expect`]).

use puz::compile::Expect;
use puz::expect::{Tester, Verdict};
use puz::solution::Cost;

use super::{emit, exit, load_rules, output, solve_failed};
use crate::SearchArgs;

/// `puz test FILE...`: solves every level with an `expect` clause and compares, showing
/// every level's lints on stderr (counted on the summary line). Exit 0 when every
/// expectation holds, 1 when one does not (a different answer, or no answer within the
/// limits) or a file has errors, 2 when a file cannot be read.
pub fn run(files: &[String], lang: super::Lang, search: &SearchArgs) -> Result<(), u8> {
    let (mut passed, mut failed, mut open, mut warned) = (0usize, 0usize, 0usize, 0usize);
    let mut worst = exit::OK;
    // `"classic"` for the plain count, `"classic" [slides]` under a metric.
    let what = |name: &str, metric: &Option<String>| match metric {
        None => format!("{name:?}"),
        Some(m) => format!("{name:?} [{m}]"),
    };
    let show = |c: &Option<Cost>| {
        c.as_ref()
            .map_or("no solution".to_string(), Cost::to_string)
    };
    for file in files {
        if super::is_puzzlescript(file, lang) {
            let text = match super::read_as(file, lang) {
                Ok((t, _)) => t,
                Err(code) => {
                    emit(&format!("FAIL  {file}: the file does not load\n"))?;
                    failed += 1;
                    worst = worst.max(code);
                    continue;
                }
            };
            match super::ps::test(file, text, search) {
                Ok(t) => {
                    passed += t.passed;
                    failed += t.failed;
                    open += t.open;
                }
                Err(code) => {
                    emit(&format!(
                        "FAIL  {file}: the game or its expectations do not load\n"
                    ))?;
                    failed += 1;
                    worst = worst.max(code);
                }
            }
            continue;
        }
        let p = match load_rules(file) {
            Ok(p) => p,
            Err(code) => {
                emit(&format!("FAIL  {file}: the file does not load\n"))?;
                failed += 1;
                worst = worst.max(code);
                continue;
            }
        };
        let mut tester = match Tester::new(&p, search.engine.into(), search.search) {
            Ok(t) => t,
            Err(e) => {
                // The expectations cannot be checked: a failure (exit 1) like any other.
                let line = format!("FAIL  {file}: {e}\n");
                solve_failed(e);
                emit(&line)?;
                failed += 1;
                continue;
            }
        };
        for i in 0..p.model.levels.len() {
            let checked = tester.level(i, &search.budget());
            if let Some(w) = &checked.lints {
                output::report(w);
                warned += w.problems.len();
            }
            let l = &p.model.levels[i];
            if l.expect.is_none() && l.metric_expects.is_empty() {
                open += 1;
                emit(&format!(
                    "-     {file} {:?}: no expectation\n",
                    checked.name
                ))?;
                continue;
            }
            if let Some(d) = &checked.invalid {
                output::report(d);
                let first = d.problems.first().map_or(String::new(), |p| p.to_string());
                let wants = l.expect.iter().map(|e| (None, e)).chain(
                    l.metric_expects
                        .iter()
                        .map(|(m, e)| (Some(p.model.metrics[*m].name.clone()), e)),
                );
                for (metric, e) in wants {
                    failed += 1;
                    let want = match e {
                        Expect::Cost(c) => Some(Cost::of(&p.model, c.clone())),
                        Expect::Unsolvable => None,
                    };
                    emit(&format!(
                        "FAIL  {file} {}: expected {}, got no answer: invalid level: {first} (0.000s)\n",
                        what(&checked.name, &metric),
                        show(&want)
                    ))?;
                }
                continue;
            }
            for c in checked.checks {
                let what = what(&checked.name, &c.metric);
                let time = c.elapsed.as_secs_f64();
                let line = match c.verdict {
                    Verdict::Pass => {
                        passed += 1;
                        format!("pass  {file} {what}: {} ({time:.3}s)", show(&c.want))
                    }
                    Verdict::Fail { got } => {
                        failed += 1;
                        format!(
                            "FAIL  {file} {what}: expected {}, got {} ({time:.3}s)",
                            show(&c.want),
                            show(&got)
                        )
                    }
                    Verdict::NoAnswer { why, error } => {
                        failed += 1;
                        if let Some(e) = error {
                            solve_failed(e);
                        }
                        format!(
                            "FAIL  {file} {what}: expected {}, got no answer: {why} ({time:.3}s)",
                            show(&c.want)
                        )
                    }
                };
                emit(&(line + "\n"))?;
            }
        }
    }
    emit(&format!(
        "{passed} passed, {failed} failed, {open} without expectation{}\n",
        match warned {
            0 => String::new(),
            1 => ", 1 warning".to_string(),
            n => format!(", {n} warnings"),
        }
    ))?;
    if failed > 0 {
        worst = worst.max(exit::RULES);
    }
    if worst == exit::OK {
        Ok(())
    } else {
        Err(worst)
    }
}
