//! The LEVELS section: grids of rows, separated by blank lines, and `message` lines.

use pest::iterators::Pair;

use super::{range, span_of, Item, Lower, R};
use crate::diagnostics::PsProblem;
use crate::puzzlescript::ast::*;
use crate::syntax::Span;

impl<'s> Lower<'s> {
    pub(super) fn levels(&mut self, body: Vec<Pair<'s, R>>) {
        let mut grid: Option<Grid> = None;
        for line in body {
            match line.as_rule() {
                R::blank_line => self.end_grid(&mut grid),
                R::level_message => {
                    self.end_grid(&mut grid);
                    self.level_message(line);
                }
                R::level_row_line => {
                    for seg in self.segments(line) {
                        for item in seg {
                            if let Item::Tok(t) = item {
                                self.level_row(&mut grid, &t);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.end_grid(&mut grid);
    }

    fn end_grid(&mut self, grid: &mut Option<Grid>) {
        if let Some(g) = grid.take() {
            self.game.levels.push(LevelEntry::Grid(g));
        }
    }

    fn level_message(&mut self, line: Pair<'s, R>) {
        let mut word: Option<Span> = None;
        let mut text: Option<Pair<'s, R>> = None;
        for seg in self.segments(line) {
            for item in seg {
                if let Item::Tok(t) = item {
                    match t.as_rule() {
                        R::message_word => word = Some(span_of(&t)),
                        R::message_text => text = Some(t),
                        _ => {}
                    }
                }
            }
        }
        let Some(word) = word else { return };
        let raw = text.as_ref().map(|t| t.as_str()).unwrap_or("");
        if raw.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            self.warning(PsProblem::MessageSpace {
                span: word.into(),
                what: "You probably meant to put a space after 'message' innit.  That's ok, I'll still interpret it as a message, but you probably want to put a space there.".into(),
            });
        }
        let end = text
            .as_ref()
            .map(|t| {
                let (a, _) = range(span_of(t));
                a + raw.trim_end().len()
            })
            .unwrap_or(range(word).1);
        let (a, _) = range(word);
        self.game.levels.push(LevelEntry::Message(
            raw.trim().to_string(),
            Span::new(a, end.max(range(word).1)),
        ));
    }

    fn level_row(&mut self, grid: &mut Option<Grid>, t: &Pair<'s, R>) {
        let raw = t.as_str();
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return;
        }
        let (a, _) = range(span_of(t));
        let start = a + (raw.len() - raw.trim_start().len());
        let span = Span::new(start, start + trimmed.len());
        let cells: Vec<char> = trimmed.chars().flat_map(char::to_lowercase).collect();
        // Lowercasing may change a character's count (rare non-ASCII): keep one per cell.
        let cells = if cells.len() == trimmed.chars().count() {
            cells
        } else {
            trimmed
                .chars()
                .map(|c| c.to_lowercase().next().unwrap_or(c))
                .collect()
        };
        match grid {
            Some(g) => {
                let width = g.rows.first().map(|r| r.0.len()).unwrap_or(0);
                if cells.len() != width {
                    self.warning(PsProblem::MapRectangular {
                        span: span.into(),
                        what: "Maps must be rectangular, yo (In a level, the length of each row must be the same).".into(),
                    });
                }
                g.span = g.span.merge(span);
                g.rows.push((cells, span));
            }
            None => {
                let line = self.line_of(start);
                *grid = Some(Grid {
                    rows: vec![(cells, span)],
                    line,
                    span,
                });
            }
        }
    }
}
