//! Level text (in a `.puz` file or a level file) to a [`Level`].

use std::collections::HashMap;

use miette::SourceSpan;

use crate::compile::Model;
use crate::diagnostics::Problem;
use crate::engine::level::MAX_CELLS;
use crate::engine::{Level, SymbolGrid};
use crate::syntax::ast::{GridForm, KeyValue};

/// Rows of level text, each with the byte offset where it starts in its source.
pub struct LevelRows<'a> {
    pub rows: Vec<&'a str>,
    pub starts: Vec<usize>,
    /// The whole level's span in its source.
    pub whole: SourceSpan,
}

impl<'a> LevelRows<'a> {
    /// Splits a level file: every line is a row. Empty lines before and after the level
    /// are dropped; so are lines of blanks, unless blanks are cells (`blank_is_cell`: the
    /// legend gives `' '` or `'\t'` a meaning, as in the standard Sokoban notation).
    pub fn from_file(text: &'a str, blank_is_cell: bool) -> LevelRows<'a> {
        let mut rows = vec![];
        let mut starts = vec![];
        let mut off = 0;
        for line in text.split('\n') {
            rows.push(line.trim_end_matches('\r'));
            starts.push(off);
            off += line.len() + 1;
        }
        let skip = |r: &&str| {
            if blank_is_cell {
                r.is_empty()
            } else {
                r.trim().is_empty()
            }
        };
        while rows.last().is_some_and(skip) {
            rows.pop();
            starts.pop();
        }
        let lead = rows.iter().take_while(|r| skip(r)).count();
        rows.drain(..lead);
        starts.drain(..lead);
        LevelRows {
            rows,
            starts,
            whole: (0, text.len()).into(),
        }
    }
}

/// Lookup from legend keys to legend entry indices.
pub struct LegendIndex {
    /// Entry per ASCII character (`u16::MAX` when absent), for speed on large boards.
    ascii: [u16; 128],
    /// Entry per small integer code (`u16::MAX` when absent).
    small: [u16; 256],
    chars: HashMap<char, u16>,
    ints: HashMap<i64, u16>,
}

impl LegendIndex {
    pub fn new(model: &Model) -> Self {
        let mut chars = HashMap::new();
        let mut ints = HashMap::new();
        for (i, s) in model.legend.iter().enumerate() {
            match s.key {
                KeyValue::Char(c) => {
                    chars.insert(c, i as u16);
                }
                KeyValue::Int(v) => {
                    ints.insert(v, i as u16);
                }
            }
        }
        let mut ascii = [u16::MAX; 128];
        for (&c, &i) in &chars {
            if c.is_ascii() {
                ascii[c as usize] = i;
            }
        }
        let mut small = [u16::MAX; 256];
        for (&v, &i) in &ints {
            if (0..256).contains(&v) {
                small[v as usize] = i;
            }
        }
        LegendIndex {
            ascii,
            small,
            chars,
            ints,
        }
    }

    #[inline]
    pub fn char(&self, c: char) -> Option<u16> {
        if c.is_ascii() {
            let i = self.ascii[c as usize];
            return (i != u16::MAX).then_some(i);
        }
        self.chars.get(&c).copied()
    }

    #[inline]
    pub fn int(&self, v: i64) -> Option<u16> {
        if (0..256).contains(&v) {
            let i = self.small[v as usize];
            return (i != u16::MAX).then_some(i);
        }
        self.ints.get(&v).copied()
    }

    /// "the legend has: '.' '#' ..." for help texts.
    pub fn describe(&self, model: &Model, form: GridForm) -> String {
        let keys: Vec<String> = model
            .legend
            .iter()
            .filter(|s| {
                matches!(
                    (&s.key, form),
                    (KeyValue::Char(_), GridForm::Chars) | (KeyValue::Int(_), GridForm::Ints)
                )
            })
            .map(|s| s.key.to_string())
            .collect();
        if keys.is_empty() {
            let other = match form {
                GridForm::Chars => "the legend has no character symbols; write this level as integers (`level \"name\" ints`)",
                GridForm::Ints => "the legend has no integer symbols; write this level as characters (`level \"name\" chars`)",
            };
            return other.to_string();
        }
        format!("the legend has {}", keys.join(" "))
    }
}

/// Parses level rows into a level whose pieces all start legally, reporting every problem
/// with a span into the source.
pub fn parse_level(
    model: &Model,
    name: &str,
    rows: &LevelRows,
    form: GridForm,
) -> Result<Level, Vec<Problem>> {
    let legend = LegendIndex::new(model);
    let mut problems = vec![];
    // Per row: (symbol, byte offset, byte length) of each cell.
    let mut cells: Vec<Vec<(u16, usize, usize)>> = vec![];
    for (r, row) in rows.rows.iter().enumerate() {
        let base = rows.starts[r];
        let mut out = vec![];
        match form {
            GridForm::Chars => {
                for (i, ch) in row.char_indices() {
                    match legend.char(ch) {
                        Some(s) => out.push((s, base + i, ch.len_utf8())),
                        None => {
                            problems.push(Problem::UnknownSymbol {
                                symbol: format!("{ch:?}"),
                                span: (base + i, ch.len_utf8()).into(),
                                help: legend.describe(model, form),
                            });
                            out.push((0, base + i, ch.len_utf8()));
                        }
                    }
                }
            }
            GridForm::Ints => {
                let mut i = 0;
                for tok in row.split_whitespace() {
                    let at = i + row[i..].find(tok).unwrap_or(0);
                    i = at + tok.len();
                    match tok.parse::<i64>().ok().and_then(|v| legend.int(v)) {
                        Some(s) => out.push((s, base + at, tok.len())),
                        None => {
                            problems.push(Problem::UnknownSymbol {
                                symbol: format!("`{tok}`"),
                                span: (base + at, tok.len()).into(),
                                help: legend.describe(model, form),
                            });
                            out.push((0, base + at, tok.len()));
                        }
                    }
                }
            }
        }
        cells.push(out);
    }
    if cells.is_empty() || cells[0].is_empty() {
        problems.push(Problem::EmptyLevel { span: rows.whole });
        return Err(problems);
    }
    let width = cells[0].len();
    for (r, row) in cells.iter().enumerate().skip(1) {
        if row.len() != width {
            let start = rows.starts[r];
            problems.push(Problem::RaggedLevel {
                row: r + 1,
                found: row.len(),
                expected: width,
                span: (start, rows.rows[r].len().max(1)).into(),
            });
        }
    }
    if cells.len() * width > MAX_CELLS {
        problems.push(Problem::LevelTooLarge {
            rows: cells.len(),
            cols: width,
            span: rows.whole,
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let locate = |r: usize, c: usize| -> SourceSpan {
        let (_, off, len) = cells[r][c];
        (off, len).into()
    };
    let grid = SymbolGrid {
        rows: cells.len(),
        cols: width,
        symbols: cells.iter().flatten().map(|&(s, _, _)| s).collect(),
        locate: &locate,
        whole: rows.whole,
    };
    let level = Level::from_grid(model, name, &grid, &[])?;
    crate::puzzle::check_start(model, level, &locate, rows.whole)
}
