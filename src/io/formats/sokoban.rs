//! Sokoban collections: the `.xsb` / `.sok` text that Sokoban programs and level sites
//! share (the Sokoban wiki's "Sok format", without its abandoned run-length encoding).
//!
//! - A *board* is a maximal run of *board lines*: lines made of `#@+$*.` and spaces,
//!   `-` and `_` (floor, for mailers that eat spaces), and `pPbB` (player, player on goal,
//!   box, box on goal, an older spelling), holding at least one wall `#`. Every other line
//!   is text: a title, a note, a comment (`; ...`, `:: ...`), a blank line, or a KSokoban
//!   separator (a NUL byte).
//! - Rows may have different lengths (*ragged*); the board is as wide as its longest row.
//!   Cells reachable from the edge of that rectangle without crossing a wall are beyond
//!   the level: they take the rules' `outside` tile (what cells beyond the board behave
//!   as), not floor. A player among them means the outer wall has a gap
//!   (`puz::format::open_level`).
//! - A level's *title* is a `Title: X` note. Files write it after their boards (the Sok
//!   format's puzzle notes) or before them; a `Title:` line before the first board says
//!   the file writes them before. Without one, the title is the last text line before the
//!   board when a blank line (or nothing) precedes it, as the Sok format defines title
//!   lines; a `;` before it is dropped (`; Microban 1`). Key/value lines (`Author: X`) and
//!   `::` comments are never titles.
//!
//! The rows handed on are in the standard notation, `-`, `_` and cells beyond the level
//! written as spaces and `pPbB` as `@+$*`, each cell in its column, so a diagnostic about a
//! cell points at the character the file has there.

use crate::diagnostics::{FormatProblem, Problem};

use super::FileLevel;

/// Whether `c` may appear in a board line.
fn board_char(c: char) -> bool {
    matches!(
        c,
        '#' | '@' | '+' | '$' | '*' | '.' | ' ' | '-' | '_' | 'p' | 'P' | 'b' | 'B'
    )
}

/// Whether `line` is a row of a board (see the module header).
fn is_board_line(line: &str) -> bool {
    line.contains('#') && line.chars().all(board_char)
}

/// The standard symbol of board character `c`.
fn standard(c: char) -> char {
    match c {
        '-' | '_' => ' ',
        'p' => '@',
        'P' => '+',
        'b' => '$',
        'B' => '*',
        c => c,
    }
}

/// One line of the file: its text without the line break and its byte offset.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    start: usize,
}

/// A text line as a `key: value` note, when it is one: the key, lowercased, and the value.
fn note(text: &str) -> Option<(String, &str)> {
    let (key, value) = text.split_once(':')?;
    let key = key.trim();
    let simple = !key.is_empty()
        && key.len() <= 24
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '_');
    simple.then(|| (key.to_ascii_lowercase(), value.trim()))
}

/// Whether a text line says nothing: blank, or a KSokoban separator (NUL bytes).
fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c.is_whitespace() || c == '\0')
}

/// The title a `Title:` note gives, if `text` is one.
fn title_note(text: &str) -> Option<String> {
    match note(text) {
        Some((key, value)) if key == "title" && !value.is_empty() => Some(value.to_string()),
        _ => None,
    }
}

/// The title a title line gives: the line without a leading `;`, trimmed; `None` for
/// notes, `::` comments and empty lines.
fn title_line(text: &str) -> Option<String> {
    let t = text.trim();
    if t.starts_with("::") || note(t).is_some() {
        return None;
    }
    let t = t.strip_prefix(';').unwrap_or(t).trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Reads a Sokoban collection into its levels (see the module header).
pub(crate) fn read(text: &str) -> Result<Vec<FileLevel>, Vec<Problem>> {
    let mut lines = vec![];
    let mut off = 0;
    for l in text.split('\n') {
        lines.push(Line {
            text: l.trim_end_matches('\r'),
            start: off,
        });
        off += l.len() + 1;
    }
    // Boards as ranges of lines.
    let mut boards: Vec<(usize, usize)> = vec![];
    let mut i = 0;
    while i < lines.len() {
        if is_board_line(lines[i].text) {
            let start = i;
            while i < lines.len() && is_board_line(lines[i].text) {
                i += 1;
            }
            boards.push((start, i));
        } else {
            i += 1;
        }
    }
    if boards.is_empty() {
        let first = lines
            .iter()
            .find(|l| !is_blank(l.text))
            .map_or((0, 0), |l| (l.start, l.text.len()));
        return Err(vec![FormatProblem::NoBoard { span: first.into() }.into()]);
    }
    // The text before each board, and after the last.
    let gap = |k: usize| -> &[Line] {
        let from = if k == 0 { 0 } else { boards[k - 1].1 };
        let to = boards.get(k).map_or(lines.len(), |b| b.0);
        &lines[from..to]
    };
    let titles_before = gap(0).iter().any(|l| title_note(l.text).is_some());
    let mut levels = vec![];
    let mut problems = vec![];
    for (k, &(from, to)) in boards.iter().enumerate() {
        let before = gap(k);
        let after = gap(k + 1);
        // The title line: the last text line before the board, after a blank line or
        // alone; in the gap after another board, only a line a blank line sets apart.
        let last = before.iter().rposition(|l| !is_blank(l.text));
        let line_title = last.and_then(|j| {
            let set_apart = if j == 0 {
                k == 0 || is_blank(before[0].text)
            } else {
                is_blank(before[j - 1].text)
            };
            let alone = before[..j].iter().all(|l| is_blank(l.text));
            (set_apart || alone)
                .then(|| title_line(before[j].text))
                .flatten()
        });
        let own_notes = if titles_before { before } else { after };
        let note_title = own_notes.iter().find_map(|l| title_note(l.text));
        let title = note_title.or(line_title);
        // Notes: the text after the board, up to the next board's title line.
        let next_title = if k + 1 < boards.len() {
            after.iter().rposition(|l| !is_blank(l.text))
        } else {
            None
        };
        let notes = after
            .iter()
            .enumerate()
            .filter(|&(j, l)| Some(j) != next_title && !is_blank(l.text))
            .map(|(_, l)| l.text.to_string())
            .collect();
        match board(&lines[from..to], k + 1, title.as_deref()) {
            Ok((rows, beyond)) => {
                let first = lines[from];
                let last = lines[to - 1];
                levels.push(FileLevel {
                    number: k + 1,
                    title,
                    notes,
                    moves: None,
                    rows,
                    starts: lines[from..to].iter().map(|l| l.start).collect(),
                    whole: (first.start, last.start + last.text.len() - first.start).into(),
                    beyond,
                });
            }
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(levels)
    } else {
        Err(problems)
    }
}

/// The rows of one board in the standard notation, padded to one width, and which cells
/// are beyond its outer wall; a player beyond it is an open level.
fn board(
    lines: &[Line],
    number: usize,
    title: Option<&str>,
) -> Result<(Vec<String>, Vec<bool>), Problem> {
    let width = lines.iter().map(|l| l.text.len()).max().unwrap_or(0);
    let cells: Vec<Vec<char>> = lines
        .iter()
        .map(|l| {
            let mut row: Vec<char> = l.text.chars().map(standard).collect();
            row.resize(width, ' ');
            row
        })
        .collect();
    let (rows, cols) = (cells.len(), width);
    let mut beyond = vec![false; rows * cols];
    let mut stack: Vec<(usize, usize)> = vec![];
    for (r, row) in cells.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            if (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols) && ch != '#' {
                stack.push((r, c));
            }
        }
    }
    while let Some((r, c)) = stack.pop() {
        let i = r * cols + c;
        if beyond[i] || cells[r][c] == '#' {
            continue;
        }
        if matches!(cells[r][c], '@' | '+') {
            let at = lines[r].start + c;
            return Err(FormatProblem::OpenLevel {
                level: title.map_or(format!("#{number}"), |t| format!("{t:?}")),
                span: (at, 1).into(),
            }
            .into());
        }
        beyond[i] = true;
        if r > 0 {
            stack.push((r - 1, c));
        }
        if r + 1 < rows {
            stack.push((r + 1, c));
        }
        if c > 0 {
            stack.push((r, c - 1));
        }
        if c + 1 < cols {
            stack.push((r, c + 1));
        }
    }
    // A box or goal beyond the wall stays as drawn: only floor is outside.
    for (b, &ch) in beyond.iter_mut().zip(cells.iter().flatten()) {
        if ch != ' ' {
            *b = false;
        }
    }
    if !beyond.iter().any(|&b| b) {
        beyond.clear();
    }
    let rows = cells.into_iter().map(|r| r.into_iter().collect()).collect();
    Ok((rows, beyond))
}
