//! Judge mode: read the input format a `.puz` file declares, print answers exactly.
//!
//! Answers are written as each case is solved, so a malformed case later in the input
//! leaves the earlier answers printed; the error then names the line and column.

use std::io::Write;

use miette::SourceSpan;

use crate::compile::{JudgeFormat, Model, PieceId, PoseId, Subject};
use crate::engine::{Instance, Level, SymbolGrid};
use crate::io::grid::LegendIndex;
use crate::search::{Budget, Outcome};
use crate::solver::{path_cost, EngineChoice, SolveError};
use crate::syntax::ast::{GridForm, HeaderField};
use crate::Puzzle;

/// A malformed judge input: where, and what was expected.
#[derive(Debug, thiserror::Error)]
#[error("input line {line}, column {col}: {message}")]
pub struct InputError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error("{0} has no `judge` declaration, so it has no judge input format")]
    NoFormat(String),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error("case {case}: search stopped: {reason}")]
    Cutoff { case: usize, reason: String },
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
}

/// Options of one judge run.
#[derive(Clone, Debug, Default)]
pub struct JudgeOptions {
    pub engine: EngineChoice,
    pub search: crate::solver::SearchChoice,
    pub budget: Budget,
}

/// What a judge run did.
#[derive(Debug, Default)]
pub struct JudgeSummary {
    pub cases: usize,
    pub warnings: Vec<String>,
    pub engine: &'static str,
    /// Why that engine ran (for the last case).
    pub engine_reason: String,
    /// The search it used.
    pub search: &'static str,
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn error_at(&self, pos: usize, message: String) -> InputError {
        let before = &self.text[..pos.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        InputError { line, col, message }
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The next whitespace-separated token and where it starts.
    fn token(&mut self) -> Option<(usize, &'a str)> {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let at = self.pos;
        self.pos += len;
        Some((at, &rest[..len]))
    }

    fn int(&mut self, what: &str) -> Result<(usize, i64), InputError> {
        match self.token() {
            None => Err(self.error_at(
                self.pos,
                format!("expected {what}, found the end of the input"),
            )),
            Some((at, tok)) => tok
                .parse::<i64>()
                .map(|v| (at, v))
                .map_err(|_| self.error_at(at, format!("expected {what}, found `{}`", short(tok)))),
        }
    }

    /// The next integer on the current line (the first one of a line may follow blank
    /// lines); the end of the line is an error naming it.
    fn int_on_line(&mut self, what: &str) -> Result<i64, InputError> {
        let rest = &self.text[self.pos..];
        let blanks = rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
        let after = &rest[blanks..];
        if after.is_empty() || after.starts_with('\n') {
            let at = self.pos + rest[..blanks].trim_end_matches('\r').len();
            return Err(self.error_at(at, format!("expected {what}, found the end of the line")));
        }
        self.int(what).map(|(_, v)| v)
    }

    /// Ends the current line: only blanks may remain on it.
    fn end_line(&mut self, after: &str) -> Result<(), InputError> {
        let rest = &self.text[self.pos..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let tail = &rest[..line_end];
        if let Some(i) = tail.find(|c: char| !c.is_whitespace()) {
            return Err(self.error_at(
                self.pos + i,
                format!("unexpected `{}` after {after}", short(tail[i..].trim())),
            ));
        }
        self.pos += (line_end + 1).min(rest.len());
        Ok(())
    }

    /// The next non-blank line: its start offset and text without the line break.
    fn line(&mut self) -> Option<(usize, &'a str)> {
        loop {
            if self.pos >= self.text.len() {
                return None;
            }
            let rest = &self.text[self.pos..];
            let end = rest.find('\n').unwrap_or(rest.len());
            let at = self.pos;
            self.pos += (end + 1).min(rest.len());
            let line = rest[..end].trim_end_matches('\r');
            if !line.trim().is_empty() {
                return Some((at, line));
            }
        }
    }
}

/// The whitespace-separated tokens of a line with their byte offsets.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut base = 0;
    std::iter::from_fn(move || {
        let skip = rest.len() - rest.trim_start().len();
        rest = &rest[skip..];
        base += skip;
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = (base, &rest[..len]);
        rest = &rest[len..];
        base += len;
        Some(tok)
    })
}

fn short(s: &str) -> String {
    let t: String = s.chars().take(20).collect();
    if t.len() < s.len() {
        format!("{t}...")
    } else {
        t
    }
}

/// Runs a whole judge input, writing answers to `out` as they are found.
pub fn run_judge(
    puzzle: &Puzzle,
    input: &str,
    out: &mut dyn Write,
    opts: &JudgeOptions,
) -> Result<JudgeSummary, JudgeError> {
    let model = &puzzle.model;
    let fmt = model
        .judge
        .as_ref()
        .ok_or_else(|| JudgeError::NoFormat(puzzle.name.clone()))?;
    let mut sc = Scanner {
        text: input,
        pos: 0,
    };
    let mut summary = JudgeSummary {
        engine: "interpreter",
        ..Default::default()
    };
    let legend = LegendIndex::new(model);
    let mut solver = crate::solver::Solver::new(model, opts.engine, opts.search)?;
    let need_path = [&fmt.solved, &fmt.unsolved]
        .iter()
        .any(|t| t.contains("{path}") || t.contains("{moves}"));
    let mut case = 0usize;
    loop {
        if fmt.until.is_none() && case == 1 {
            if !sc.at_end() {
                let at = sc.pos;
                return Err(sc
                    .error_at(
                        at,
                        "expected the end of the input after the only case".to_string(),
                    )
                    .into());
            }
            break;
        }
        if sc.at_end() {
            let at = sc.pos;
            let want = match &fmt.until {
                Some(v) => format!(
                    "expected a case header or the terminating line `{}`, found the end of the input",
                    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
                ),
                None => "expected a case header, found an empty input".to_string(),
            };
            return Err(sc.error_at(at, want).into());
        }
        let header_at = sc.pos;
        let mut values = vec![];
        for (i, f) in fmt.header.iter().enumerate() {
            let what = match f {
                HeaderField::Rows => "the number of rows",
                HeaderField::Cols => "the number of columns",
                HeaderField::Queries => "the number of queries",
            };
            let (at, v) = sc.int(what)?;
            values.push((at, v));
            if i + 1 == fmt.header.len() {
                break;
            }
        }
        if fmt
            .until
            .as_ref()
            .is_some_and(|u| values.iter().map(|v| v.1).eq(u.iter().copied()))
        {
            break;
        }
        sc.end_line("the case header")?;
        case += 1;
        let get = |f: HeaderField| {
            fmt.header
                .iter()
                .position(|h| *h == f)
                .map(|i| values[i])
                .unwrap_or((header_at, 0))
        };
        let (rows_at, rows) = get(HeaderField::Rows);
        let (cols_at, cols) = get(HeaderField::Cols);
        let (q_at, queries) = get(HeaderField::Queries);
        for (at, v, what) in [(rows_at, rows, "rows"), (cols_at, cols, "columns")] {
            if v < 1 {
                return Err(sc
                    .error_at(
                        at,
                        format!("expected a positive number of {what}, found {v}"),
                    )
                    .into());
            }
        }
        if queries < 0 {
            return Err(sc
                .error_at(
                    q_at,
                    format!("expected a number of queries, found {queries}"),
                )
                .into());
        }
        if (rows as u128) * (cols as u128) > crate::engine::level::MAX_CELLS as u128 {
            return Err(sc
                .error_at(rows_at, format!("a {rows} x {cols} board is too large"))
                .into());
        }
        let (rows, cols) = (rows as usize, cols as usize);
        let mut grid = read_grid(&mut sc, fmt, &legend, model, rows, cols)?;
        let symbols = std::mem::take(&mut grid.symbols);
        let placed_later: Vec<PieceId> = fmt
            .query
            .iter()
            .filter_map(|s| match s {
                Subject::Piece(p) => Some(*p),
                _ => None,
            })
            .collect();
        let locate = |r: usize, c: usize| -> SourceSpan { (grid.offset(r, c), 1).into() };
        let sg = SymbolGrid {
            rows,
            cols,
            symbols,
            locate: &locate,
            whole: (grid.start, 1).into(),
        };
        let mut level = match Level::from_grid(model, &format!("case {case}"), &sg, &placed_later) {
            Ok(l) => l,
            Err(problems) => return Err(level_error(&sc, &problems[0]).into()),
        };
        if fmt.query.is_empty() {
            level = crate::puzzle::check_start(model, level, &locate, sg.whole)
                .map_err(|p| level_error(&sc, &p[0]))?;
        }
        if fmt.query.is_empty() {
            let text = answer(
                &mut solver,
                model,
                fmt,
                level,
                opts,
                need_path,
                case,
                None,
                &mut summary,
            )?;
            out.write_all(text.as_bytes())?;
            out.flush()?;
        } else {
            for qi in 1..=queries as usize {
                let (line_at, placed) = read_query(&mut sc, fmt, qi)?;
                // A query whose placed start already meets the goal answers 0 before its
                // validity is checked (the NOIP rule, and harmless elsewhere).
                if query_meets_goal(model, &level, &placed) {
                    out.write_all(
                        fill(&fmt.solved, case, Some(qi), &zero_cost(model), "", 0).as_bytes(),
                    )?;
                    continue;
                }
                let text = match place_query(model, &level, &placed) {
                    Ok(l) => answer(
                        &mut solver,
                        model,
                        fmt,
                        l,
                        opts,
                        need_path,
                        case,
                        Some(qi),
                        &mut summary,
                    )?,
                    Err(why) => {
                        let pos = sc.error_at(line_at, String::new());
                        summary
                            .warnings
                            .push(format!("query {qi} (input line {}): {why}", pos.line));
                        let t = fmt.invalid.as_deref().unwrap_or(&fmt.unsolved);
                        fill(t, case, Some(qi), "", "", 0)
                    }
                };
                out.write_all(text.as_bytes())?;
            }
            out.flush()?;
        }
    }
    summary.cases = case;
    Ok(summary)
}

/// A board as read: symbols, and each row's text with its byte offset (to point at a
/// cell only when something is wrong with it).
struct ReadGrid<'a> {
    symbols: Vec<u16>,
    rows: Vec<(usize, &'a str)>,
    form: GridForm,
    start: usize,
}

impl ReadGrid<'_> {
    /// Byte offset of cell (r, c) in the input.
    fn offset(&self, r: usize, c: usize) -> usize {
        let (at, row) = self.rows[r];
        at + match self.form {
            GridForm::Chars => row.char_indices().nth(c).map_or(0, |x| x.0),
            GridForm::Ints => tokens(row).nth(c).map_or(0, |x| x.0),
        }
    }
}

fn read_grid<'a>(
    sc: &mut Scanner<'a>,
    fmt: &JudgeFormat,
    legend: &LegendIndex,
    model: &Model,
    rows: usize,
    cols: usize,
) -> Result<ReadGrid<'a>, InputError> {
    let mut symbols = Vec::with_capacity(rows * cols);
    let mut row_text = Vec::with_capacity(rows);
    let mut start = sc.pos;
    for r in 0..rows {
        let Some((at, line)) = sc.line() else {
            let at = sc.text.len();
            return Err(sc.error_at(
                at,
                format!(
                    "expected board row {} of {rows}, found the end of the input",
                    r + 1
                ),
            ));
        };
        if r == 0 {
            start = at;
        }
        match fmt.grid {
            GridForm::Chars => {
                let lead = line.len() - line.trim_start().len();
                let row = line.trim();
                let n = row.chars().count();
                if n != cols {
                    let pos = if n < cols {
                        at + lead + row.len()
                    } else {
                        at + lead + row.char_indices().nth(cols).map_or(0, |x| x.0)
                    };
                    return Err(sc.error_at(
                        pos,
                        format!("expected a row of {cols} characters, found {n}"),
                    ));
                }
                row_text.push((at + lead, row));
                for (i, ch) in row.char_indices() {
                    let s = legend.char(ch).ok_or_else(|| {
                        sc.error_at(
                            at + lead + i,
                            format!(
                                "unknown cell {ch:?}; {}",
                                legend.describe(model, GridForm::Chars)
                            ),
                        )
                    })?;
                    symbols.push(s);
                }
            }
            GridForm::Ints => {
                row_text.push((at, line));
                let mut n = 0;
                for (off, tok) in tokens(line) {
                    n += 1;
                    if n > cols {
                        return Err(sc.error_at(
                            at + off,
                            format!("expected a row of {cols} numbers, found more"),
                        ));
                    }
                    let s = tok
                        .parse::<i64>()
                        .ok()
                        .and_then(|v| legend.int(v))
                        .ok_or_else(|| {
                            sc.error_at(
                                at + off,
                                format!(
                                    "unknown cell `{}`; {}",
                                    short(tok),
                                    legend.describe(model, GridForm::Ints)
                                ),
                            )
                        })?;
                    symbols.push(s);
                }
                if n < cols {
                    return Err(sc.error_at(
                        at + line.len(),
                        format!("expected a row of {cols} numbers, found {n}"),
                    ));
                }
            }
        }
    }
    Ok(ReadGrid {
        symbols,
        rows: row_text,
        form: fmt.grid,
        start,
    })
}

fn level_error(sc: &Scanner, p: &crate::diagnostics::Problem) -> InputError {
    use miette::Diagnostic;
    let at = p
        .labels()
        .and_then(|mut l| l.next())
        .map_or(0, |l| l.offset());
    let mut message = p.to_string();
    if let Some(h) = p.help() {
        message.push_str(&format!(" ({h})"));
    }
    sc.error_at(at, message)
}

/// A piece or mark a query places, at (row, column) counted from 0.
type Placement = (Subject, i64, i64);

/// One query line: each named piece or mark at a (row, column), shifted by `base`.
fn read_query(
    sc: &mut Scanner,
    fmt: &JudgeFormat,
    qi: usize,
) -> Result<(usize, Vec<Placement>), InputError> {
    let at_start = {
        sc.skip_ws();
        sc.pos
    };
    let mut placed = vec![];
    for s in &fmt.query {
        let r = sc.int_on_line(&format!("query {qi}: a row number"))?;
        let c = sc.int_on_line(&format!("query {qi}: a column number"))?;
        placed.push((*s, r - fmt.base, c - fmt.base));
    }
    sc.end_line(&format!("query {qi}"))?;
    Ok((at_start, placed))
}

/// Whether the goal holds with a query's placements, judged cell by cell without asking
/// whether the placement is legal: every piece a goal names stands (one cell) on its place.
fn query_meets_goal(model: &Model, level: &Level, placed: &[Placement]) -> bool {
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

fn zero_cost(model: &Model) -> String {
    vec!["0"; model.costs.len().max(1)].join(" ")
}

/// The level with a query's pieces and marks placed, or why the query is malformed.
fn place_query(model: &Model, level: &Level, placed: &[Placement]) -> Result<Level, String> {
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
                    r + 1,
                    c + 1
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

#[allow(clippy::too_many_arguments)]
fn answer(
    solver: &mut crate::solver::Solver,
    model: &Model,
    fmt: &JudgeFormat,
    level: Level,
    opts: &JudgeOptions,
    need_path: bool,
    case: usize,
    query: Option<usize>,
    summary: &mut JudgeSummary,
) -> Result<String, JudgeError> {
    let ans = solver.solve(level, &opts.budget, need_path)?;
    summary.engine = ans.engine;
    summary.engine_reason = ans.engine_reason.clone();
    summary.search = ans.search;
    Ok(match ans.outcome {
        Outcome::Cost(cost) => {
            let cost_text: Vec<String> = cost.iter().map(|c| c.to_string()).collect();
            fill(&fmt.solved, case, query, &cost_text.join(" "), "", 0)
        }
        Outcome::Solved(path) => {
            let cost = path_cost(model, &path.actions);
            let cost_text: Vec<String> = cost.iter().map(|c| c.to_string()).collect();
            let letters: String = path.actions.iter().map(|&a| model.letter(a)).collect();
            fill(
                &fmt.solved,
                case,
                query,
                &cost_text.join(" "),
                &letters,
                path.actions.len(),
            )
        }
        Outcome::Unsolvable => fill(&fmt.unsolved, case, query, "", "", 0),
        Outcome::Cutoff(c) => {
            return Err(JudgeError::Cutoff {
                case,
                reason: c.to_string(),
            })
        }
    })
}

/// Expands `{case}`, `{query}`, `{cost}`, `{path}` and `{moves}`; adds the line break.
fn fill(
    template: &str,
    case: usize,
    query: Option<usize>,
    cost: &str,
    path: &str,
    moves: usize,
) -> String {
    let mut s = template
        .replace("{case}", &case.to_string())
        .replace("{query}", &query.map_or(String::new(), |q| q.to_string()))
        .replace("{cost}", cost)
        .replace("{path}", path)
        .replace("{moves}", &moves.to_string());
    s.push('\n');
    s
}
