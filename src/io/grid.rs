//! The one grid reader: level text in a `.puz` file, level files and judge boards are all
//! read here, cell by cell in the legend, into a [`Level`]. Every problem is a diagnostic
//! with a span at the offending cell; a cell's span is found again from its row's text
//! only when a problem needs it, so reading stores one legend index per cell.

use std::collections::HashMap;

use miette::SourceSpan;

use crate::compile::{GridForm, KeyValue, Model, PieceId};
use crate::diagnostics::Problem;
use crate::engine::level::MAX_CELLS;
use crate::engine::{Level, SymbolGrid};

/// Rows of level text, each with the byte offset where it starts in its source.
pub(crate) struct LevelRows<'a> {
    /// The text of each row, without its line break.
    pub(crate) rows: Vec<&'a str>,
    /// The byte offset of each row in the source.
    pub(crate) starts: Vec<usize>,
    /// The whole level's span in its source.
    pub(crate) whole: SourceSpan,
}

/// The line that starts a level file's goal picture, after a blank line (see
/// [`LevelRows::file_parts`]).
pub(crate) const GOAL_LINE: &str = "goal";

impl<'a> LevelRows<'a> {
    /// The level of a level file: its rows before any goal picture (see
    /// [`LevelRows::file_parts`]).
    pub(crate) fn from_file(text: &'a str, blank_is_cell: bool) -> LevelRows<'a> {
        LevelRows::file_parts(text, blank_is_cell).0
    }

    /// Splits a level file into the level and, when the file draws one, its goal
    /// picture. Every line is a row. The goal picture starts after a line that is exactly
    /// `goal` and follows a blank line after at least one row: a level's rows never hold
    /// a blank line, so `goal` there cannot be a row, whatever the legend's symbols (a
    /// `goal` line anywhere else is a row like any other). In each part, blank lines
    /// before the first row and after the last are dropped: empty lines, and lines of
    /// blanks unless blanks are cells (`blank_is_cell`: the legend gives `' '` or `'\t'`
    /// a meaning, as in the standard Sokoban notation). A `\r` before a line break is
    /// dropped. The picture's `whole` span runs from the `goal` line to its last row.
    pub(crate) fn file_parts(
        text: &'a str,
        blank_is_cell: bool,
    ) -> (LevelRows<'a>, Option<LevelRows<'a>>) {
        let mut rows = vec![];
        let mut starts = vec![];
        let mut off = 0;
        for line in text.split('\n') {
            rows.push(line.trim_end_matches('\r'));
            starts.push(off);
            off += line.len() + 1;
        }
        let skip = |r: &str| {
            if blank_is_cell {
                r.is_empty()
            } else {
                r.trim_matches(|c: char| c.is_ascii_whitespace()).is_empty()
            }
        };
        let sep = (2..rows.len()).find(|&i| {
            rows[i] == GOAL_LINE && skip(rows[i - 1]) && rows[..i - 1].iter().any(|r| !skip(r))
        });
        let Some(i) = sep else {
            return (trimmed(rows, starts, (0, text.len()).into(), &skip), None);
        };
        let (goal_rows, goal_starts) = (rows.split_off(i + 1), starts.split_off(i + 1));
        let at = starts[i];
        rows.truncate(i);
        starts.truncate(i);
        let level = trimmed(rows, starts, (0, at).into(), &skip);
        let mut goal = trimmed(goal_rows, goal_starts, (at, GOAL_LINE.len()).into(), &skip);
        if let (Some(&last), Some(&row)) = (goal.starts.last(), goal.rows.last()) {
            goal.whole = (at, last + row.len() - at).into();
        }
        (level, Some(goal))
    }
}

/// `rows` without the lines `skip` drops at either end.
fn trimmed<'a>(
    mut rows: Vec<&'a str>,
    mut starts: Vec<usize>,
    whole: SourceSpan,
    skip: &dyn Fn(&str) -> bool,
) -> LevelRows<'a> {
    while rows.last().is_some_and(|r| skip(r)) {
        rows.pop();
        starts.pop();
    }
    let lead = rows.iter().take_while(|r| skip(r)).count();
    rows.drain(..lead);
    starts.drain(..lead);
    LevelRows {
        rows,
        starts,
        whole,
    }
}

/// Lookup from legend keys to legend entry indices.
struct LegendIndex {
    /// Entry per ASCII character (`u16::MAX` when absent), for speed on large boards.
    ascii: [u16; 128],
    /// Entry per small integer code (`u16::MAX` when absent).
    small: [u16; 256],
    chars: HashMap<char, u16>,
    ints: HashMap<i64, u16>,
}

impl LegendIndex {
    fn new(model: &Model) -> Self {
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
    fn char(&self, c: char) -> Option<u16> {
        if c.is_ascii() {
            let i = self.ascii[c as usize];
            return (i != u16::MAX).then_some(i);
        }
        self.chars.get(&c).copied()
    }

    #[inline]
    fn int(&self, v: i64) -> Option<u16> {
        if (0..256).contains(&v) {
            let i = self.small[v as usize];
            return (i != u16::MAX).then_some(i);
        }
        self.ints.get(&v).copied()
    }
}

/// "the legend has '.' '#' ..." for help texts.
fn describe_legend(model: &Model, form: GridForm) -> String {
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
        return match form {
            GridForm::Chars => "the legend has no character symbols; write this level as integers (`level \"name\" ints`)",
            GridForm::Ints => "the legend has no integer symbols; write this level as characters (`level \"name\" chars`)",
        }
        .to_string();
    }
    format!("the legend has {}", keys.join(" "))
}

/// The ASCII-whitespace-separated tokens of `row`, each with its byte offset. Only ASCII
/// blanks separate: a Unicode space is part of a token, not a separator.
pub(crate) fn ascii_tokens(row: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = row.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        Some((start, &row[start..i]))
    })
}

/// A board as read so far: each cell's legend entry, row-major, and each row's text with
/// its byte offset in the source.
#[derive(Default)]
pub(crate) struct ReadBoard<'a> {
    symbols: Vec<u16>,
    rows: Vec<(usize, &'a str)>,
    /// Cells whose symbol the legend lacks.
    unknown: usize,
    /// Of those, the cells the problems shown cover (a run of one symbol is one problem).
    shown: usize,
    /// Problems about unknown symbols shown so far.
    reports: usize,
}

/// Unknown symbols reported one by one per board; the rest are counted in the last
/// report's help, so that a board of garbage costs one problem per kind of mistake, not
/// one per cell.
const MAX_UNKNOWN_SHOWN: usize = 20;

impl ReadBoard<'_> {
    /// An empty board with room for `cells` cells. Callers bound `cells` by what the
    /// input actually holds, never by a size it merely announces.
    pub(crate) fn with_capacity(cells: usize) -> Self {
        ReadBoard {
            symbols: Vec::with_capacity(cells),
            ..Default::default()
        }
    }

    /// The number of rows read.
    fn rows(&self) -> usize {
        self.rows.len()
    }

    /// The span from the first row's start to the last row's end, or an empty span at
    /// `at` when no row was read.
    pub(crate) fn span(&self, at: usize) -> SourceSpan {
        match (self.rows.first(), self.rows.last()) {
            (Some(&(a, _)), Some(&(b, last))) => (a, b + last.len() - a).into(),
            _ => (at, 0).into(),
        }
    }
}

/// Reads rows of legend symbols, characters or integers, into a [`ReadBoard`] and a board
/// into a [`Level`].
pub(crate) struct GridReader<'m> {
    model: &'m Model,
    legend: LegendIndex,
    form: GridForm,
}

impl<'m> GridReader<'m> {
    /// A reader of `form` rows in `model`'s legend.
    pub(crate) fn new(model: &'m Model, form: GridForm) -> Self {
        GridReader {
            model,
            legend: LegendIndex::new(model),
            form,
        }
    }

    /// Appends one row, starting at byte `at` of the source, to `board`: every character
    /// (or ASCII-blank-separated integer) is a cell. Returns the number of cells; a symbol
    /// the legend lacks is reported in `problems` and stands as legend entry 0.
    pub(crate) fn read_row<'a>(
        &self,
        board: &mut ReadBoard<'a>,
        at: usize,
        row: &'a str,
        problems: &mut Vec<Problem>,
    ) -> usize {
        board.rows.push((at, row));
        let before = board.symbols.len();
        // The symbol is only written out for the problems shown: a level of millions of
        // unknown cells must cost no more than reading it. A run of one unknown symbol
        // is one problem (over-indented rows, a row of a symbol the legend lacks).
        let report = |board: &mut ReadBoard,
                      problems: &mut Vec<Problem>,
                      symbol: &dyn Fn() -> String,
                      (off, len, cells): (usize, usize, usize)| {
            board.unknown += cells;
            if board.reports < MAX_UNKNOWN_SHOWN {
                board.reports += 1;
                board.shown += cells;
                let legend = describe_legend(self.model, self.form);
                let blank = row[off..].starts_with([' ', '\t']);
                let help = if off == 0 && blank && row.len() > len {
                    format!(
                        "this row starts with {cells} more blanks than the level's indentation; a level's rows share the indentation of its closing `\"\"\"` (or of its first row): remove them, or give the blank a meaning in the legend ({legend})"
                    )
                } else if cells > 1 {
                    format!("{cells} cells in a row; {legend}")
                } else {
                    legend
                };
                problems.push(Problem::UnknownSymbol {
                    symbol: symbol(),
                    span: (at + off, len).into(),
                    help,
                });
            }
        };
        match self.form {
            GridForm::Chars => {
                // The run of one unknown symbol being read: (byte offset, symbol, cells).
                let mut run: Option<(usize, char, usize)> = None;
                let end = |run: (usize, char, usize), upto: usize| (run.0, upto - run.0, run.2);
                for (i, ch) in row.char_indices() {
                    let s = self.legend.char(ch);
                    match (&mut run, s) {
                        (Some((_, c, n)), None) if *c == ch => *n += 1,
                        _ => {
                            if let Some(r) = run.take() {
                                report(board, problems, &|| format!("{:?}", r.1), end(r, i));
                            }
                            if s.is_none() {
                                run = Some((i, ch, 1));
                            }
                        }
                    }
                    board.symbols.push(s.unwrap_or(0));
                }
                if let Some(r) = run {
                    report(board, problems, &|| format!("{:?}", r.1), end(r, row.len()));
                }
            }
            GridForm::Ints => {
                for (i, tok) in ascii_tokens(row) {
                    let s = match tok.parse::<i64>().ok().and_then(|v| self.legend.int(v)) {
                        Some(s) => s,
                        None => {
                            let shown = || format!("`{}`", short(tok));
                            report(board, problems, &shown, (i, tok.len(), 1));
                            0
                        }
                    };
                    board.symbols.push(s);
                }
            }
        }
        board.symbols.len() - before
    }

    /// The span of cell `c` of `row`, a row whose text starts at byte `at`; an empty
    /// span at the row's start when the row has fewer cells.
    pub(crate) fn cell_span(&self, at: usize, row: &str, c: usize) -> SourceSpan {
        let cell = match self.form {
            GridForm::Chars => row.char_indices().nth(c).map(|(i, ch)| (i, ch.len_utf8())),
            GridForm::Ints => ascii_tokens(row).nth(c).map(|(i, t)| (i, t.len())),
        };
        let (i, len) = cell.unwrap_or((0, 0));
        (at + i, len).into()
    }

    /// The level `board` describes, `cols` cells wide. Pieces in `placed_later` may be
    /// missing (a judge query places them). With `check_start`, the start position must
    /// break no rule. `whole` is the span problems about the whole level point at.
    pub(crate) fn level(
        &self,
        name: &str,
        board: ReadBoard,
        cols: usize,
        whole: SourceSpan,
        placed_later: &[PieceId],
        check_start: bool,
    ) -> Result<Level, Vec<Problem>> {
        let ReadBoard { symbols, rows, .. } = board;
        let locate = |r: usize, c: usize| -> SourceSpan {
            let (at, row) = rows[r];
            self.cell_span(at, row, c)
        };
        let grid = SymbolGrid {
            rows: rows.len(),
            cols,
            symbols,
            locate: &locate,
            whole,
        };
        let level = Level::from_grid(self.model, name, &grid, placed_later)?;
        if !check_start {
            return Ok(level);
        }
        match level.start_violation(self.model) {
            None => Ok(level),
            Some((cells, rule)) => Err(vec![Problem::IllegalStart {
                rule,
                span: cells.first().map_or(whole, |&(r, c)| locate(r, c)),
                label: "this piece".to_string(),
            }]),
        }
    }
}

/// Reads level rows (inline or from a level file) into a level whose pieces all start
/// legally, reporting every problem with a span into the source.
pub(crate) fn parse_level(
    model: &Model,
    name: &str,
    rows: &LevelRows,
    form: GridForm,
) -> Result<Level, Vec<Problem>> {
    let reader = GridReader::new(model, form);
    let mut board = ReadBoard::default();
    let mut problems = vec![];
    let mut width = None;
    for (r, (&row, &start)) in rows.rows.iter().zip(&rows.starts).enumerate() {
        let n = reader.read_row(&mut board, start, row, &mut problems);
        // A row indented deeper than the others is reported once, as its run of blanks
        // (`read_row`): not again as a row of the wrong width when the blanks are the
        // difference.
        let indent = match form {
            GridForm::Chars => row
                .chars()
                .take_while(|&c| matches!(c, ' ' | '\t') && reader.legend.char(c).is_none())
                .count(),
            GridForm::Ints => 0,
        };
        match width {
            None => width = Some(n),
            Some(w) if n != w && !(indent > 0 && n - indent == w) => {
                problems.push(Problem::RaggedLevel {
                    row: r + 1,
                    found: n,
                    expected: w,
                    span: (start, row.len().max(1)).into(),
                })
            }
            Some(_) => {}
        }
    }
    if board.unknown > board.shown {
        let more = board.unknown - board.shown;
        if let Some(Problem::UnknownSymbol { help, .. }) = problems
            .iter_mut()
            .rev()
            .find(|p| matches!(p, Problem::UnknownSymbol { .. }))
        {
            help.push_str(&format!(
                "; {more} more cells of this level hold symbols not in the legend"
            ));
        }
    }
    let width = width.unwrap_or(0);
    if width == 0 {
        problems.push(Problem::EmptyLevel { span: rows.whole });
        return Err(problems);
    }
    if board.rows().saturating_mul(width) > MAX_CELLS {
        problems.push(Problem::LevelTooLarge {
            rows: board.rows(),
            cols: width,
            span: rows.whole,
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    reader.level(name, board, width, rows.whole, &[], true)
}

/// `s`, or its first 20 characters and `...` when longer: a token quoted in a message.
pub(crate) fn short(s: &str) -> String {
    let t: String = s.chars().take(20).collect();
    if t.len() < s.len() {
        format!("{t}...")
    } else {
        t
    }
}
