//! Reading a judge input as its format declares it: case headers, boards (through the one
//! grid reader, [`crate::io::grid`]) and query lines.
//!
//! Only ASCII whitespace separates numbers: a Unicode space is part of a token, so `3\u{3000}3`
//! with an ideographic space is one malformed number. Nothing is allocated from a number
//! the input announces: a header's board size is checked against the board-size limit
//! ([`MAX_CELLS`]), and a board grows only as its rows are actually read, so a header
//! announcing millions of rows over an input of a few bytes costs a few bytes. Every
//! problem is a diagnostic with a span into the input.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::compile::{GridForm, HeaderField};
use crate::compile::{JudgeFormat, Model, PieceId, Subject};
use crate::diagnostics::Problem;
use crate::engine::level::MAX_CELLS;
use crate::engine::Level;
use crate::io::grid::{ascii_tokens, short, GridReader, ReadBoard};

/// One kind of mistake in a judge input, with a span at the offending token.
#[derive(Debug, Error, Diagnostic)]
pub enum InputProblem {
    /// A number was expected: `3 b` as a header, `1 ? 2` or a short line as a query.
    #[error("expected {what}, found {found}")]
    #[diagnostic(code(puz::input::expected_number))]
    ExpectedNumber {
        /// What number was expected, e.g. "the number of rows".
        what: String,
        /// The token found instead, or "the end of the line" (or input).
        found: String,
        /// The token found instead, or where the line ends.
        #[label("expected {what}")]
        span: SourceSpan,
        /// What the line holds.
        #[help]
        help: String,
    },

    /// A header number out of its range: `0 3` (no rows), a negative query count.
    #[error("expected {what}, found {value}")]
    #[diagnostic(code(puz::input::bad_count))]
    BadCount {
        /// What the number must be, e.g. "a positive number of rows".
        what: &'static str,
        /// The number as read.
        value: i64,
        /// The number.
        #[label("out of range")]
        span: SourceSpan,
        /// The range allowed.
        #[help]
        help: String,
    },

    /// Text after the numbers of a line: `3 3 7` for a `rows, cols` header.
    #[error("unexpected `{found}` after {after}")]
    #[diagnostic(code(puz::input::unexpected_text))]
    UnexpectedText {
        /// The extra token.
        found: String,
        /// What the line held, e.g. "the case header".
        after: String,
        /// The extra token.
        #[label("not expected here")]
        span: SourceSpan,
        /// What the line holds.
        #[help]
        help: String,
    },

    /// A header announcing a board beyond the board-size limit: `100000 100000`.
    #[error("a {rows} x {cols} board has {cells} cells, more than the limit of {limit}")]
    #[diagnostic(
        code(puz::input::board_too_large),
        help("boards may have at most {limit} (2^28) cells, so that cells fit in packed states")
    )]
    BoardTooLarge {
        /// The rows the header announces.
        rows: i64,
        /// The columns the header announces.
        cols: i64,
        /// Rows times columns.
        cells: u128,
        /// The most cells a board may have.
        limit: usize,
        /// The header.
        #[label("this header")]
        span: SourceSpan,
    },

    /// The input ends before a board's last row.
    #[error("expected board row {row} of {rows}, found the end of the input")]
    #[diagnostic(
        code(puz::input::missing_row),
        help("the case header announces {rows} rows, and the input ends after {}", .row - 1)
    )]
    MissingRow {
        /// The missing row's number, counted from 1.
        row: usize,
        /// The rows the header announces.
        rows: usize,
        /// The end of the input.
        #[label("the input ends here")]
        span: SourceSpan,
    },

    /// A board row of the wrong width: `..` or `....` when the header says 3 columns.
    #[error("expected a row of {expected} {unit}, found {found}")]
    #[diagnostic(
        code(puz::input::row_width),
        help("the case header announces {expected} columns")
    )]
    RowWidth {
        /// The columns the header announces.
        expected: usize,
        /// How many cells the row has.
        found: usize,
        /// What a cell is in this format: "characters" or "numbers".
        unit: &'static str,
        /// Where the row ends short, or its first extra cell.
        #[label("{}", if *.found < *.expected { "the row ends here" } else { "one too many" })]
        span: SourceSpan,
    },

    /// A board that is not a valid level: an unknown symbol, a missing or repeated
    /// piece, an illegal start.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Board(Problem),

    /// A query coordinate whose shift by `base` overflows: `-9223372036854775808` with
    /// `base 1`.
    #[error("coordinate {value} is out of range")]
    #[diagnostic(
        code(puz::input::coordinate_range),
        help("coordinates count from {base}; give a row or column number near the board")
    )]
    CoordinateRange {
        /// The coordinate as read.
        value: i64,
        /// The format's `base`, the number of the first row and column.
        base: i64,
        /// The coordinate.
        #[label("out of range")]
        span: SourceSpan,
    },

    /// The input ends where a `cases until` format needs another header or its
    /// terminating line.
    #[error(
        "expected a case header or the terminating line `{until}`, found the end of the input"
    )]
    #[diagnostic(
        code(puz::input::missing_terminator),
        help("end the input with a line `{until}`")
    )]
    MissingTerminator {
        /// The terminating line, e.g. `0 0`.
        until: String,
        /// The end of the input.
        #[label("the input ends here")]
        span: SourceSpan,
    },

    /// An input with no case at all.
    #[error("expected a case header, found the end of the input")]
    #[diagnostic(
        code(puz::input::no_case),
        help("the input starts with a case header of {header}")
    )]
    NoCase {
        /// The header's fields, e.g. `rows cols`.
        header: String,
        /// The end of the input.
        #[label("the input ends here")]
        span: SourceSpan,
    },

    /// Text after the only case of a `cases once` format.
    #[error("expected the end of the input after the only case")]
    #[diagnostic(
        code(puz::input::trailing_input),
        help(
            "this format reads one case (`cases once`); remove the rest, or declare `cases until`"
        )
    )]
    TrailingInput {
        /// The first text after the case.
        #[label("more input")]
        span: SourceSpan,
    },
}

/// A malformed judge input: its first problem, with the input attached as the source.
#[derive(Debug)]
pub struct InputError {
    src: NamedSource<Arc<String>>,
    problem: Box<InputProblem>,
}

impl InputError {
    /// `problem` in `text`, which reports call `name`.
    pub(crate) fn new(name: &str, text: &str, problem: InputProblem) -> Self {
        InputError {
            src: NamedSource::new(name, Arc::new(text.to_string())),
            problem: Box::new(problem),
        }
    }

    /// The same error with the source called `name` (a path, or "standard input").
    pub fn renamed(self, name: &str) -> Self {
        InputError {
            src: NamedSource::new(name, self.src.inner().clone()),
            problem: self.problem,
        }
    }

    /// What is wrong.
    pub fn problem(&self) -> &InputProblem {
        &self.problem
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.problem, f)
    }
}

impl std::error::Error for InputError {}

impl Diagnostic for InputError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.problem.code()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.problem.help()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.problem.labels()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
}

/// What a case header announced.
pub struct Header {
    rows: i64,
    cols: i64,
    /// The number of query lines that follow the board.
    pub(crate) queries: usize,
    span: SourceSpan,
}

/// A piece or mark a query places, at (row, column) counted from 0.
pub type Placement = (Subject, i64, i64);

/// A judge input being read, case by case.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    fmt: &'a JudgeFormat,
    grid: GridReader<'a>,
    /// Pieces the queries place, so boards may lack them.
    placed_later: Vec<PieceId>,
    /// Whether a blank is a legend symbol, so board rows keep their blanks.
    blank_is_cell: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `text` in `fmt`, `model`'s judge format. A UTF-8 byte-order mark at
    /// the start is skipped.
    pub fn new(text: &'a str, model: &'a Model, fmt: &'a JudgeFormat) -> Self {
        Reader {
            text,
            pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
            fmt,
            grid: GridReader::new(model, fmt.grid),
            placed_later: fmt
                .query
                .iter()
                .filter_map(|s| match s {
                    Subject::Piece(p) => Some(*p),
                    _ => None,
                })
                .collect(),
            blank_is_cell: model
                .legend
                .iter()
                .any(|s| matches!(s.key, crate::compile::KeyValue::Char(' ' | '\t'))),
        }
    }

    fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The next ASCII-whitespace-separated token and where it starts.
    fn token(&mut self) -> Option<(usize, &'a str)> {
        self.skip_ws();
        let (at, tok) = ascii_tokens(&self.text[self.pos..]).next()?;
        let at = self.pos + at;
        self.pos = at + tok.len();
        Some((at, tok))
    }

    /// The next integer, on any line, or where it should be and what is there instead.
    /// Messages are built by the caller, and only on failure: a query costs no
    /// allocation when it reads well.
    fn int(&mut self) -> Result<(SourceSpan, i64), (SourceSpan, String)> {
        match self.token() {
            None => Err((
                (self.text.len(), 0).into(),
                "the end of the input".to_string(),
            )),
            Some((at, tok)) => {
                let span = (at, tok.len()).into();
                tok.parse::<i64>()
                    .map(|v| (span, v))
                    .map_err(|_| (span, format!("`{}`", short(tok))))
            }
        }
    }

    /// The next integer on the current line (the first one of a line may follow blank
    /// lines); the end of the line is an error at that end.
    fn int_on_line(&mut self) -> Result<(SourceSpan, i64), (SourceSpan, String)> {
        let rest = &self.text[self.pos..];
        let blanks = rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
        let after = &rest[blanks..];
        if after.is_empty() || after.starts_with('\n') {
            let at = self.pos + rest[..blanks].trim_end_matches('\r').len();
            return Err(((at, 0).into(), "the end of the line".to_string()));
        }
        self.int()
    }

    /// Ends the current line: only ASCII blanks may remain on it; else the span of the
    /// first token left and the rest of the line.
    fn end_line(&mut self) -> Result<(), (SourceSpan, String)> {
        let rest = &self.text[self.pos..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let tail = &rest[..line_end];
        if let Some((i, tok)) = ascii_tokens(tail).next() {
            let found = tail[i..].trim_end_matches(|c: char| c.is_ascii_whitespace());
            return Err(((self.pos + i, tok.len()).into(), short(found)));
        }
        self.pos += (line_end + 1).min(rest.len());
        Ok(())
    }

    /// The next line that is not blank: its start offset and its text without the line
    /// break (and, unless blanks are cells, without surrounding ASCII blanks).
    fn row_line(&mut self) -> Option<(usize, &'a str)> {
        while self.pos < self.text.len() {
            let rest = &self.text[self.pos..];
            let end = rest.find('\n').unwrap_or(rest.len());
            let at = self.pos;
            self.pos += (end + 1).min(rest.len());
            let line = rest[..end].trim_end_matches('\r');
            if self.blank_is_cell || self.fmt.grid == GridForm::Ints {
                if !line
                    .trim_matches(|c: char| c.is_ascii_whitespace())
                    .is_empty()
                {
                    return Some((at, line));
                }
                continue;
            }
            let lead = line.len()
                - line
                    .trim_start_matches(|c: char| c.is_ascii_whitespace())
                    .len();
            let row = line[lead..].trim_end_matches(|c: char| c.is_ascii_whitespace());
            if !row.is_empty() {
                return Some((at + lead, row));
            }
        }
        None
    }

    /// The next case's header, or `None` where the format says the input ends: after
    /// the only case (`cases once`), or at the terminating header (`cases until`).
    /// `done` is the number of cases read so far.
    pub fn next_case(&mut self, done: usize) -> Result<Option<Header>, InputProblem> {
        if self.fmt.until.is_none() && done == 1 {
            if !self.at_end() {
                let rest = &self.text[self.pos..];
                let len = rest.find('\n').unwrap_or(rest.len());
                return Err(InputProblem::TrailingInput {
                    span: (self.pos, len).into(),
                });
            }
            return Ok(None);
        }
        if self.at_end() {
            let span = (self.text.len(), 0).into();
            return Err(match &self.fmt.until {
                Some(v) => InputProblem::MissingTerminator {
                    until: numbers(v),
                    span,
                },
                None => InputProblem::NoCase {
                    header: header_words(self.fmt),
                    span,
                },
            });
        }
        let start = self.pos;
        let mut values = vec![];
        for f in &self.fmt.header {
            let v = self
                .int()
                .map_err(|(span, found)| InputProblem::ExpectedNumber {
                    what: field_what(*f).to_string(),
                    found,
                    span,
                    help: format!(
                        "each case starts with a header of {}",
                        header_words(self.fmt)
                    ),
                })?;
            values.push(v);
        }
        if self
            .fmt
            .until
            .as_ref()
            .is_some_and(|u| values.iter().map(|v| v.1).eq(u.iter().copied()))
        {
            return Ok(None);
        }
        self.end_line()
            .map_err(|(span, found)| InputProblem::UnexpectedText {
                found,
                after: "the case header".to_string(),
                span,
                help: format!("a case header is one line of {}", header_words(self.fmt)),
            })?;
        let get = |f: HeaderField| {
            self.fmt
                .header
                .iter()
                .position(|h| *h == f)
                .map(|i| values[i])
        };
        let span = (
            start,
            values.last().map_or(0, |v| v.0.offset() + v.0.len()) - start,
        )
            .into();
        let mut header = Header {
            rows: 0,
            cols: 0,
            queries: 0,
            span,
        };
        for (f, what) in [(HeaderField::Rows, "rows"), (HeaderField::Cols, "columns")] {
            let (at, v) = get(f).unwrap_or((span, 0));
            if v < 1 {
                return Err(InputProblem::BadCount {
                    what: if f == HeaderField::Rows {
                        "a positive number of rows"
                    } else {
                        "a positive number of columns"
                    },
                    value: v,
                    span: at,
                    help: format!("a board has at least one row and one column; the header gives {what} as {v}"),
                });
            }
            match f {
                HeaderField::Rows => header.rows = v,
                _ => header.cols = v,
            }
        }
        if let Some((at, q)) = get(HeaderField::Queries) {
            header.queries = usize::try_from(q).map_err(|_| InputProblem::BadCount {
                what: "a number of queries",
                value: q,
                span: at,
                help: "a case has zero or more queries".to_string(),
            })?;
        }
        Ok(Some(header))
    }

    /// The board of the case `header` announced, as level `case N`.
    pub fn board(&mut self, header: &Header, case: usize) -> Result<Level, InputProblem> {
        let (rows, cols) = (header.rows, header.cols);
        let cells = rows as u128 * cols as u128;
        if cells > MAX_CELLS as u128 {
            return Err(InputProblem::BoardTooLarge {
                rows,
                cols,
                cells,
                limit: MAX_CELLS,
                span: header.span,
            });
        }
        let unit = match self.fmt.grid {
            GridForm::Chars => "characters",
            GridForm::Ints => "numbers",
        };
        let (rows, cols) = (rows as usize, cols as usize);
        // Room for the announced cells, but never more than the bytes that remain: every
        // cell takes at least one.
        let mut board = ReadBoard::with_capacity((cells as usize).min(self.text.len() - self.pos));
        let mut problems = vec![];
        for r in 0..rows {
            let Some((at, row)) = self.row_line() else {
                return Err(InputProblem::MissingRow {
                    row: r + 1,
                    rows,
                    span: (self.text.len(), 0).into(),
                });
            };
            let n = self.grid.read_row(&mut board, at, row, &mut problems);
            if n != cols {
                let span = if n < cols {
                    (at + row.len(), 0).into()
                } else {
                    self.grid.cell_span(at, row, cols)
                };
                return Err(InputProblem::RowWidth {
                    expected: cols,
                    found: n,
                    unit,
                    span,
                });
            }
            if !problems.is_empty() {
                return Err(InputProblem::Board(problems.swap_remove(0)));
            }
        }
        let whole = board.span(self.pos);
        self.grid
            .level(
                &format!("case {case}"),
                board,
                cols,
                whole,
                &self.placed_later,
                self.fmt.query.is_empty(),
            )
            .map_err(|p| InputProblem::Board(p.into_iter().next().expect("an error has a problem")))
    }

    /// Query line `qi`: each piece or mark the format names, at a (row, column) shifted
    /// by `base`.
    pub fn query(&mut self, qi: usize) -> Result<Vec<Placement>, InputProblem> {
        let fmt = self.fmt;
        let help = || {
            format!(
                "a query is one line of {} numbers: a row and a column for each of {}",
                2 * fmt.query.len(),
                fmt.query.len()
            )
        };
        let mut placed = Vec::with_capacity(fmt.query.len());
        for s in &fmt.query {
            let mut at = [0i64; 2];
            for (k, what) in ["a row number", "a column number"].into_iter().enumerate() {
                let (span, v) =
                    self.int_on_line()
                        .map_err(|(span, found)| InputProblem::ExpectedNumber {
                            what: format!("query {qi}: {what}"),
                            found,
                            span,
                            help: help(),
                        })?;
                at[k] = v
                    .checked_sub(fmt.base)
                    .ok_or(InputProblem::CoordinateRange {
                        value: v,
                        base: fmt.base,
                        span,
                    })?;
            }
            placed.push((*s, at[0], at[1]));
        }
        self.end_line()
            .map_err(|(span, found)| InputProblem::UnexpectedText {
                found,
                after: format!("query {qi}"),
                span,
                help: help(),
            })?;
        Ok(placed)
    }
}

/// `rows, cols` as a header reads in messages.
fn header_words(fmt: &JudgeFormat) -> String {
    let words: Vec<&str> = fmt
        .header
        .iter()
        .map(|f| match f {
            HeaderField::Rows => "rows",
            HeaderField::Cols => "cols",
            HeaderField::Queries => "queries",
        })
        .collect();
    format!("`{}`", words.join(" "))
}

/// What a header field is, as an error names it.
fn field_what(f: HeaderField) -> &'static str {
    match f {
        HeaderField::Rows => "the number of rows",
        HeaderField::Cols => "the number of columns",
        HeaderField::Queries => "the number of queries",
    }
}

/// `0 0`: numbers as a line of input.
fn numbers(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
