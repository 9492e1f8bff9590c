//! `POST /api/check`: every stage on a text, its diagnostics located for an editor, its
//! levels; and [`LineIndex`], which turns the library's byte offsets into the page's
//! UTF-16 offsets, lines and columns (every span the page gets).

use std::sync::Arc;

use miette::{Diagnostic, NamedSource};
use serde_json::{json, Value};
use web_time::Instant;

use crate::diagnostics::Problem;
use crate::Puzzle;

/// The name diagnostics give the edited text.
pub const SOURCE_NAME: &str = "rules.puz";

/// Where byte offsets of a text fall for an editor: UTF-16 offsets (JavaScript string
/// indices), 1-based lines and 1-based columns in characters.
pub struct LineIndex {
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    /// UTF-16 offset of each line's start.
    utf16: Vec<usize>,
}

/// A byte offset located: UTF-16 offset, line, column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// Offset in UTF-16 code units.
    pub utf16: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
}

impl LineIndex {
    /// Indexes `text`'s lines.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let mut utf16 = vec![0];
        let mut u = 0;
        for (i, ch) in text.char_indices() {
            u += ch.len_utf16();
            if ch == '\n' {
                starts.push(i + 1);
                utf16.push(u);
            }
        }
        LineIndex { starts, utf16 }
    }

    /// Locates byte offset `byte` of `text` (clamped to the text and to a character
    /// boundary).
    pub fn locate(&self, text: &str, byte: usize) -> Located {
        let mut b = byte.min(text.len());
        while !text.is_char_boundary(b) {
            b -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= b) - 1;
        let seg = &text[self.starts[line]..b];
        Located {
            utf16: self.utf16[line] + seg.chars().map(char::len_utf16).sum::<usize>(),
            line: line + 1,
            col: seg.chars().count() + 1,
        }
    }
}

/// One problem with the source it points into, so that it renders alone as the terminal
/// would show it.
struct Sourced<'a> {
    problem: &'a Problem,
    src: &'a NamedSource<Arc<String>>,
    warning: bool,
}

impl std::fmt::Debug for Sourced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.problem, f)
    }
}
impl std::fmt::Display for Sourced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.problem, f)
    }
}
impl std::error::Error for Sourced<'_> {}
impl Diagnostic for Sourced<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.problem.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.warning {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.problem.help()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.problem.labels()
    }
}

/// The problems of one report as the API lists them (see the README): severity, code,
/// message, help, labels located in `text`, and the terminal rendering.
pub fn diagnostics_json(
    text: &Arc<String>,
    idx: &LineIndex,
    problems: &[Problem],
    warning: bool,
) -> Vec<Value> {
    // The page's buffer has no file name: reports call it by its language.
    let name = if crate::puzzlescript::looks_like_puzzlescript(text) {
        "game.txt"
    } else {
        SOURCE_NAME
    };
    let src = NamedSource::new(name, text.clone());
    problems
        .iter()
        .map(|p| {
            let labels: Vec<Value> = p
                .labels()
                .into_iter()
                .flatten()
                .map(|l| {
                    let a = idx.locate(text, l.offset());
                    let b = idx.locate(text, l.offset().saturating_add(l.len()));
                    json!({
                        "start": a.utf16, "end": b.utf16,
                        "line": a.line, "col": a.col, "end_line": b.line, "end_col": b.col,
                        "text": l.label(), "primary": l.primary(),
                    })
                })
                .collect();
            let shown = Sourced {
                problem: p,
                src: &src,
                warning,
            };
            json!({
                "severity": if warning { "warning" } else { "error" },
                "code": p.code_str(),
                "message": p.to_string(),
                "help": p.help().map(|h| h.to_string()),
                "labels": labels,
                "rendered": crate::diagnostics::render_plain(&shown, 100),
            })
        })
        .collect()
}

/// The check answer for `text` (see `POST /api/check`): `ok`, `title`, `diagnostics`,
/// `levels`, `elapsed_ms`.
pub fn check(text: String) -> Value {
    let t0 = Instant::now();
    let text = Arc::new(crate::io::source::without_bom(text));
    if crate::puzzlescript::looks_like_puzzlescript(&text) {
        return super::ps::check_game(text, t0);
    }
    let idx = LineIndex::new(&text);
    let mut diags = vec![];
    let mut levels = vec![];
    let mut title = String::new();
    match Puzzle::load_rules(SOURCE_NAME, text.to_string()) {
        Err(d) => diags.extend(diagnostics_json(&text, &idx, &d.problems, false)),
        Ok(p) => {
            title = p.model.title.clone();
            for (i, l) in p.model.levels.iter().enumerate() {
                // The size of the board as loaded (an `ints` row's cells are its numbers,
                // not its characters); a level that does not load counts its text.
                let (ok, rows, cols) = match p.inline_level(i) {
                    Ok(level) => (true, level.board.rows, level.board.cols),
                    Err(d) => {
                        diags.extend(diagnostics_json(&text, &idx, &d.problems, false));
                        let cols = l.rows.iter().map(|r| r.chars().count()).max();
                        (false, l.rows.len(), cols.unwrap_or(0))
                    }
                };
                levels.push(json!({
                    "index": i, "name": l.name, "ok": ok,
                    "rows": rows,
                    "cols": cols,
                    "expect": expect_texts(&p.model, l),
                }));
            }
            if let Some(w) = p.lints() {
                diags.extend(diagnostics_json(&text, &idx, &w.problems, true));
            }
        }
    }
    let ok = !diags.iter().any(|d| d["severity"] == "error");
    json!({
        "ok": ok,
        "title": title,
        "diagnostics": diags,
        "levels": levels,
        "elapsed_ms": t0.elapsed().as_secs_f64() * 1000.0,
    })
}

/// A cost vector as text: `10 moves`, `3 pushes, 12 moves`, `1 throw`.
fn cost_text(model: &crate::compile::Model, cost: &[u64]) -> String {
    crate::solution::Cost::of(model, cost.to_vec()).to_string()
}

/// A level's `expect` lines as text.
fn expect_texts(model: &crate::compile::Model, l: &crate::compile::LevelText) -> Vec<String> {
    let one = |e: &crate::compile::Expect| match e {
        crate::compile::Expect::Cost(c) => cost_text(model, c),
        crate::compile::Expect::Unsolvable => "no solution".to_string(),
    };
    let mut out: Vec<String> = l.expect.iter().map(one).collect();
    out.extend(
        l.metric_expects
            .iter()
            .map(|(m, e)| format!("{}: {}", model.metrics[*m].name, one(e))),
    );
    out
}
