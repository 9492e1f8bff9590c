//! The RULES section: rules, `startloop` and `endloop`.

use std::collections::HashSet;

use pest::iterators::Pair;

use super::{range, span_of, Item, Lower, R};
use crate::diagnostics::PsProblem;
use crate::puzzlescript::ast::*;
use crate::syntax::Span;

/// A word before the first `[`.
fn prefix(w: &str) -> Option<Prefix> {
    Some(match w {
        "+" => Prefix::Plus,
        "late" => Prefix::Late,
        "rigid" => Prefix::Rigid,
        "random" => Prefix::Random,
        "up" => Prefix::Up,
        "down" => Prefix::Down,
        "left" => Prefix::Left,
        "right" => Prefix::Right,
        "horizontal" => Prefix::Horizontal,
        "vertical" => Prefix::Vertical,
        "orthogonal" => Prefix::Orthogonal,
        _ => return None,
    })
}

/// A direction word in a cell (`no` is not one: it is told apart first).
fn dir(w: &str) -> Option<Dir> {
    Some(match w {
        ">" => Dir::Forward,
        "<" => Dir::Back,
        "^" => Dir::Ccw,
        "v" => Dir::Cw,
        "up" => Dir::Up,
        "down" => Dir::Down,
        "left" => Dir::Left,
        "right" => Dir::Right,
        "moving" => Dir::Moving,
        "stationary" => Dir::Stationary,
        "horizontal" => Dir::Horizontal,
        "vertical" => Dir::Vertical,
        "orthogonal" => Dir::Orthogonal,
        "perpendicular" => Dir::Perpendicular,
        "parallel" => Dir::Parallel,
        "action" => Dir::Action,
        "randomdir" => Dir::RandomDir,
        "random" => Dir::Random,
        _ => return None,
    })
}

/// A command word (`message` is a token of its own).
fn command(w: &str) -> Option<Command> {
    Some(match w {
        "again" => Command::Again,
        "cancel" => Command::Cancel,
        "restart" => Command::Restart,
        "win" => Command::Win,
        "checkpoint" => Command::Checkpoint,
        _ => {
            let n: u8 = w.strip_prefix("sfx")?.parse().ok()?;
            if n > 10 || w.len() > 5 || w.starts_with("sfx0") && w.len() > 4 {
                return None;
            }
            Command::Sfx(n)
        }
    })
}

/// One token of a rule, read.
enum Tok {
    Open,
    Close,
    Bar,
    Arrow,
    Word(String),
    Message(String),
}

/// Why a rule was not read.
struct Bad {
    at: Span,
    what: String,
    kind: fn(Span, String) -> PsProblem,
}

fn bad_brackets_stray(at: Span, what: String) -> PsProblem {
    PsProblem::RuleBracketsStray {
        span: at.into(),
        what,
    }
}
fn bad_outside(at: Span, what: String) -> PsProblem {
    PsProblem::RuleOutsideBrackets {
        span: at.into(),
        what,
    }
}
fn bad_cell(at: Span, what: String) -> PsProblem {
    PsProblem::RuleCell {
        span: at.into(),
        what,
    }
}
fn bad_arrow(at: Span, what: String) -> PsProblem {
    PsProblem::RuleArrow {
        span: at.into(),
        what,
    }
}

const COMMANDS_AT_END: &str = "Commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections.";

/// The cell being read.
struct CellWip {
    start: usize,
    terms: Vec<Term>,
    ellipsis: Option<Span>,
    /// A `no` or direction waiting for its object.
    pending: Option<(Option<Dir>, Span)>,
}

impl CellWip {
    fn new(start: usize) -> Self {
        CellWip {
            start,
            terms: vec![],
            ellipsis: None,
            pending: None,
        }
    }

    /// The cell, ended at `end` (where its `|` or `]` is).
    fn finish(self, end: usize) -> Result<Cell, Bad> {
        if let Some((_, at)) = self.pending {
            return Err(Bad {
                at,
                what: "In a rule, if you specify a movement, it has to act on an object.".into(),
                kind: bad_cell,
            });
        }
        if let Some(e) = self.ellipsis {
            if !self.terms.is_empty() {
                return Err(Bad {
                    at: e,
                    what: "You can't have anything in with an ellipsis. Sorry.".into(),
                    kind: bad_cell,
                });
            }
            return Ok(Cell::Ellipsis(e));
        }
        let span = match (self.terms.first(), self.terms.last()) {
            (Some(f), Some(l)) => f.span.merge(l.span),
            _ => Span::new(self.start, end.max(self.start)),
        };
        Ok(Cell::Terms(self.terms, span))
    }
}

impl<'s> Lower<'s> {
    pub(super) fn rules(&mut self, body: Vec<Pair<'s, R>>) {
        // Names declared so far, to word a name before the first `[` as PuzzleScript does.
        let mut names: HashSet<String> = HashSet::new();
        for o in &self.game.objects {
            names.insert(o.name.text.clone());
            names.extend(o.synonyms.iter().map(|s| s.text.clone()));
        }
        names.extend(self.game.legend.iter().map(|l| l.name.text.clone()));
        for line in body {
            match line.as_rule() {
                R::equals_line => self.equals_line(line),
                R::rule_line => {
                    for seg in self.segments(line) {
                        self.rule_segment(seg, &names);
                    }
                }
                _ => {}
            }
        }
    }

    fn rule_segment(&mut self, seg: Vec<Item<'s>>, names: &HashSet<String>) {
        // PuzzleScript reads a rule only up to its first `(`.
        let mut toks: Vec<(Tok, Span)> = vec![];
        let mut comment: Option<Span> = None;
        let mut ignored: Option<Span> = None;
        for item in seg {
            match item {
                Item::Comment(c) => {
                    if !toks.is_empty() {
                        comment.get_or_insert(c);
                    }
                }
                Item::Tok(t) => {
                    let s = span_of(&t);
                    if comment.is_some() {
                        ignored = Some(ignored.map_or(s, |i| i.merge(s)));
                        continue;
                    }
                    self.rule_token(t, &mut toks);
                }
            }
        }
        let Some(first) = toks.first().map(|t| t.1) else {
            return;
        };
        let last = toks.last().map(|t| t.1).unwrap_or(first);
        let span = first.merge(last);
        let has_arrow = toks.iter().any(|t| matches!(t.0, Tok::Arrow));
        if toks.len() == 1 {
            if let Tok::Word(w) = &toks[0].0 {
                match w.as_str() {
                    "startloop" => return self.game.rules.push(RuleLine::StartLoop(span)),
                    "endloop" => return self.game.rules.push(RuleLine::EndLoop(span)),
                    _ => {}
                }
            }
        }
        if let Some(c) = comment {
            if !has_arrow {
                let (a, _) = range(c);
                return self.error(PsProblem::RuleComment {
                    span: Span::new(a, a + 1).into(),
                    what: "You can't have comments inside rules, sorry. In PuzzleScript, '(' starts a comment, so everything after the first '(' on this line was ignored before your rule was parsed.".into(),
                });
            }
        }
        if let Some(i) = ignored {
            self.warning(PsProblem::RuleAfterComment {
                span: i.into(),
                what: "This is after a comment on the rule's line, and PuzzleScript ignores it."
                    .into(),
            });
        }
        let line = self.line_of(range(first).0);
        let mut janky = vec![];
        let mut nested = None;
        let read = read_rule(toks, names, line, span, &mut janky, &mut nested);
        if let Some(at) = nested {
            self.error(PsProblem::RuleBrackets {
                span: Span::into(at),
                what: "Error, malformed cell rule - encountered a \"[\" before previous bracket was closed".into(),
            });
        }
        for (at, what) in janky {
            self.warning(PsProblem::RuleJanky {
                span: at.into(),
                what,
            });
        }
        match read {
            Ok(Some(rule)) => self.game.rules.push(RuleLine::Rule(rule)),
            Ok(None) => {}
            Err(b) => {
                let p = (b.kind)(b.at, b.what);
                if matches!(p, PsProblem::RuleBracketsStray { .. }) {
                    self.warning(p)
                } else {
                    self.error(p)
                }
            }
        }
    }

    /// A token of a rule line, with `+` split off the front of the line's first word.
    fn rule_token(&mut self, t: Pair<'s, R>, toks: &mut Vec<(Tok, Span)>) {
        let s = span_of(&t);
        let tok = match t.as_rule() {
            R::open => Tok::Open,
            R::close => Tok::Close,
            R::bar => Tok::Bar,
            R::arrow => Tok::Arrow,
            R::message_command => {
                let text = t
                    .into_inner()
                    .find(|p| p.as_rule() == R::message_text)
                    .map(|p| p.as_str().trim().to_string())
                    .unwrap_or_default();
                Tok::Message(text)
            }
            _ => {
                let w = t.as_str().to_lowercase();
                if toks.is_empty() && w.len() > 1 && w.starts_with('+') {
                    let (a, b) = range(s);
                    toks.push((Tok::Word("+".into()), Span::new(a, a + 1)));
                    toks.push((Tok::Word(w[1..].to_string()), Span::new(a + 1, b)));
                    return;
                }
                Tok::Word(w)
            }
        };
        toks.push((tok, s));
    }
}

/// Reads one rule's tokens.
/// Out-of-place text PuzzleScript tolerates goes to `janky`.
fn read_rule(
    toks: Vec<(Tok, Span)>,
    names: &HashSet<String>,
    line: usize,
    span: Span,
    janky: &mut Vec<(Span, String)>,
    nested: &mut Option<Span>,
) -> Result<Option<Rule>, Bad> {
    let mut prefixes = vec![];
    let mut lhs: Vec<CellRow> = vec![];
    let mut rhs: Vec<CellRow> = vec![];
    let mut arrow: Option<Span> = None;
    let mut commands = vec![];
    let mut started = false;
    let mut nested_warned = false;
    let mut stray_arrow = false;
    // The row being read: its `[`, its cells so far, the cell being read.
    let mut row: Option<(Span, Vec<Cell>, CellWip)> = None;
    for (i, (tok, at)) in toks.into_iter().enumerate() {
        let (a, b) = range(at);
        match tok {
            Tok::Open => {
                if let Some((_, _, cell)) = row.as_mut() {
                    // PuzzleScript warns, drops the cell begun and reads on in the row.
                    // An error only when the cell begun has something in it.
                    let begun =
                        !cell.terms.is_empty() || cell.pending.is_some() || cell.ellipsis.is_some();
                    if begun && nested.is_none() {
                        *nested = Some(at);
                    }
                    if !nested_warned {
                        nested_warned = true;
                        janky.push((at, "Multiple opening brackets without closing brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.".into()));
                    }
                    *cell = CellWip::new(b);
                    continue;
                }
                if !commands.is_empty() && janky.is_empty() {
                    janky.push((at, COMMANDS_AT_END.into()));
                }
                started = true;
                row = Some((at, vec![], CellWip::new(b)));
            }
            Tok::Close => {
                let Some((open, mut cells, cell)) = row.take() else {
                    return Err(Bad { at, what: "Multiple closing brackets without corresponding opening brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.".into(), kind: bad_brackets_stray });
                };
                cells.push(cell.finish(a)?);
                let r = CellRow {
                    cells,
                    span: open.merge(at),
                };
                if arrow.is_some() {
                    rhs.push(r);
                } else {
                    lhs.push(r);
                }
            }
            Tok::Bar => {
                let Some((_, cells, cell)) = row.as_mut() else {
                    janky.push((at, "Janky syntax.  \"|\" should only be used inside cell rows (the square brackety bits).".into()));
                    continue;
                };
                let done = std::mem::replace(cell, CellWip::new(b));
                cells.push(done.finish(a)?);
            }
            Tok::Arrow => {
                if row.is_some() {
                    stray_arrow = true;
                    janky.push((at, "Encountered an unexpected \"->\" inside square brackets.  It's used to separate states, it has no place inside them >:| .".into()));
                    continue;
                }
                if arrow.is_some() {
                    return Err(Bad { at, what: "Error, you can only use \"->\" once in a rule; it's used to separate before and after states.".into(), kind: bad_arrow });
                }
                started = true;
                arrow = Some(at);
            }
            Tok::Message(text) => {
                if arrow.is_none() {
                    return Err(Bad {
                        at,
                        what: COMMANDS_AT_END.into(),
                        kind: bad_outside,
                    });
                }
                commands.push((Command::Message(text), at));
            }
            Tok::Word(w) => {
                if let Some((_, _, cell)) = row.as_mut() {
                    if !names.contains(&w) {
                        if let Some(c) = command(&w) {
                            if arrow.is_none() {
                                return Err(Bad {
                                    at,
                                    what: COMMANDS_AT_END.into(),
                                    kind: bad_outside,
                                });
                            }
                            janky.push((at, COMMANDS_AT_END.into()));
                            commands.push((c, at));
                            continue;
                        }
                    }
                    cell_word(cell, &w, at)?;
                    continue;
                }
                if started {
                    let what = if w == "no" || dir(&w).is_some() {
                        Some(
                            "Invalid syntax. Directions should be placed at the start of a rule."
                                .to_string(),
                        )
                    } else if w == "..." {
                        Some("Invalid syntax, ellipses should only be used within cells (square brackets).".to_string())
                    } else if names.contains(&w) {
                        Some(format!("Invalid token {}. Object names should only be used within cells (square brackets).", w.to_uppercase()))
                    } else {
                        None
                    };
                    if let Some(what) = what {
                        janky.push((at, what));
                        continue;
                    }
                }
                if !started {
                    if let Some(p) = prefix(&w) {
                        if p == Prefix::Plus && i != 0 {
                            return Err(Bad { at, what: "The \"+\" symbol, for joining a rule with the group of the previous rule, must be the first symbol on the line ".into(), kind: bad_outside });
                        }
                        prefixes.push((p, at));
                        continue;
                    }
                }
                if let Some(c) = command(&w) {
                    if arrow.is_none() {
                        return Err(Bad {
                            at,
                            what: COMMANDS_AT_END.into(),
                            kind: bad_outside,
                        });
                    }
                    commands.push((c, at));
                    continue;
                }
                let what = if !started
                    && matches!(
                        w.as_str(),
                        "^" | "v" | "<" | ">" | "perpendicular" | "parallel"
                    ) {
                    "You cannot use relative directions (\"^v<>\") to indicate in which direction(s) a rule applies.  Use absolute directions indicators (Up, Down, Left, Right, Horizontal, or Vertical, for instance), or, if you want the rule to apply in all four directions, do not specify directions".to_string()
                } else if names.contains(&w) {
                    "Objects cannot appear outside of square brackets in rules, only directions can.".to_string()
                } else if !started {
                    format!("The start of a rule must consist of some number of directions (possibly 0), before the first bracket, specifying in what directions to look (with no direction specified, it applies in all four directions).  It seems you've just entered \"{}\".", w.to_uppercase())
                } else {
                    format!("Error, malformed cell rule - was looking for cell contents, but found \"{w}\".  What am I supposed to do with this, eh, please tell me that.")
                };
                return Err(Bad {
                    at,
                    what,
                    kind: bad_outside,
                });
            }
        }
    }
    // An unclosed `[` after the arrow: PuzzleScript only warns (the sides then differ).
    // Without an arrow, the missing arrow is the error.
    if let Some((open, _, _)) = row.as_ref().filter(|_| arrow.is_some()) {
        let open = *open;
        return Err(Bad {
            at: open,
            what: "This '[' is never closed by a ']'.".into(),
            kind: bad_brackets_stray,
        });
    }
    let Some(arrow) = arrow else {
        if stray_arrow {
            // PuzzleScript reads no rule here (its sides do not match), and only warns.
            janky.push((span, "This rule's only \"->\" is inside square brackets: it is read as having no arrow, and ignored.".into()));
            return Ok(None);
        }
        return Err(Bad { at: span, what: "A rule has to have an arrow in it.  There's no arrow here! Consider reading up about rules - you're clearly doing something weird".into(), kind: bad_arrow });
    };
    Ok(Some(Rule {
        prefixes,
        lhs,
        arrow,
        rhs,
        commands,
        line,
        span,
    }))
}

/// A word inside a cell: `no`, a direction, `...` or a name.
fn cell_word(cell: &mut CellWip, w: &str, at: Span) -> Result<(), Bad> {
    let several = || {
        Bad {
        at,
        what: "Error, an item can only have one direction/action at a time, but you're looking for several at once!".into(),
        kind: bad_cell,
    }
    };
    if w == "no" || dir(w).is_some() {
        if cell.pending.is_some() {
            return Err(several());
        }
        cell.pending = Some((dir(w), at));
        return Ok(());
    }
    if w == "..." {
        if cell.pending.is_some() {
            return Err(several());
        }
        cell.ellipsis.get_or_insert(at);
        return Ok(());
    }
    let (no, dir, start) = match cell.pending.take() {
        Some((None, s)) => (Some(s), None, s),
        Some((Some(d), s)) => (None, Some((d, s)), s),
        None => (None, None, at),
    };
    cell.terms.push(Term {
        no,
        dir,
        name: Name {
            text: w.to_string(),
            span: at,
        },
        span: start.merge(at),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::command;
    use crate::puzzlescript::ast::Command;

    #[test]
    fn sfx_words() {
        assert_eq!(command("sfx0"), Some(Command::Sfx(0)));
        assert_eq!(command("sfx10"), Some(Command::Sfx(10)));
        assert_eq!(command("sfx11"), None);
        assert_eq!(command("sfx01"), None);
        assert_eq!(command("sfx"), None);
    }
}
