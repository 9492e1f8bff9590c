//! Why an input changed nothing, told as a designer debugging a game needs it: the
//! rule whose `cancel` or `restart` fired, the object that blocked the player and where,
//! the rule that took the player's movement away, `require_player_movement`, the again
//! turns that never settle and the rules that keep firing.
//!
//! [`super::Session::why_not`] computes a [`WhyNot`] on demand, by playing the input
//! again on a copy of the session with the engine's tracing on (`engine/trace.rs`);
//! normal turns never trace.
//!
//! Cells are written `x,y`: the column and the row from the top-left corner, from 0, as
//! the playground draws the level.

use std::fmt;

use serde::Serialize;

use super::Game;
use crate::diagnostics::NeverSettles;

/// A rule of the game's source: its 1-based line and the line's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleRef {
    /// The rule's line in the source, from 1.
    pub line: usize,
    /// The rule as written on that line (blanks around it trimmed).
    pub text: String,
    /// The byte range of `text` in the source.
    pub span: (usize, usize),
}

impl RuleRef {
    /// The rule on `line` of `source`.
    pub(crate) fn at(source: &str, line: usize) -> RuleRef {
        let mut start = 0;
        let mut found = "";
        for (i, l) in source.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                found = l;
                break;
            }
            start += l.len();
        }
        let lead = found.len() - found.trim_start().len();
        let text = found.trim();
        RuleRef {
            line,
            text: text.to_string(),
            span: (start + lead, start + lead + text.len()),
        }
    }
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: `{}`", self.line, self.text)
    }
}

/// A cell: column and row from the top-left corner, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The column.
    pub x: usize,
    /// The row.
    pub y: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// What stood in the way of a movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Obstacle {
    /// The move would leave the board.
    Edge,
    /// An object of the same collision layer in the cell moved into.
    Object {
        /// The object's name (lowercased, as PuzzleScript keeps names).
        name: String,
        /// Its cell.
        at: Cell,
    },
}

/// One object that could not move, and what stopped it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Block {
    /// The object that could not move.
    pub object: String,
    /// Its cell.
    pub at: Cell,
    /// The way it tried to go: `up`, `down`, `left` or `right`.
    pub dir: &'static str,
    /// What stopped it.
    pub by: Obstacle,
}

/// A rule that kept firing in again turns that never settle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Firing {
    /// The rule.
    pub rule: RuleRef,
    /// In how many of the again turns watched it fired.
    pub turns: usize,
}

impl Firing {
    /// The label of the rule in a report: how often it fired.
    fn label(&self, watched: usize) -> String {
        format!(
            "fired in {} of the {watched} again turns watched",
            self.turns
        )
    }
}

/// Why an input changes nothing ([`super::Session::why_not`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WhyNot {
    /// The level is won: a player ignores inputs after the win.
    Won,
    /// The again turns never settle (after this input, or an earlier one): PuzzleScript
    /// would animate forever and accept no input.
    Stuck {
        /// Again turns run before puz gave up on them.
        again_turns: usize,
        /// Whether a level repeated (a cycle, proved) rather than the cap on again turns
        /// being reached.
        cycle: bool,
        /// Again turns watched after that to see which rules fire (64, fewer if they
        /// settled or the budget ran out).
        watched: usize,
        /// The rules that fired in the again turns watched, in line order.
        rules: Vec<Firing>,
    },
    /// The game declares `noaction`: the action key does nothing.
    NoAction,
    /// The game declares `noundo`.
    NoUndo,
    /// There is nothing to undo.
    NothingToUndo,
    /// The game declares `norestart`.
    NoRestart,
    /// Restarting gives the level as it is.
    AtRestartPoint,
    /// A rule's `cancel` fired: the turn was undone.
    Cancelled {
        /// The rule that queued the `cancel` (the first to match in the turn).
        rule: RuleRef,
    },
    /// A rule's `restart` fired, and the level it returned to is the level as it was.
    Restarted {
        /// The rule that queued the `restart`.
        rule: RuleRef,
    },
    /// `require_player_movement`: the player did not move, so the turn was cancelled.
    PlayerDidNotMove {
        /// Why the player did not move, when the trace tells.
        because: Option<Box<WhyNot>>,
    },
    /// A movement was blocked. The first block is the player's (or, when no player's
    /// movement was blocked, the first object's that was); each next one is the
    /// obstacle's own blocked movement (a crate pushed into a wall).
    Blocked {
        /// The chain of blocks, the mover first.
        chain: Vec<Block>,
        /// Other player objects whose movement was blocked too.
        others: usize,
    },
    /// A rule took the player's movement away (`[ > Player | Wall ] -> [ Player | Wall ]`,
    /// `stationary`).
    MovementRemoved {
        /// The rule (the last one to take it away).
        rule: RuleRef,
        /// The player object.
        object: String,
        /// Its cell.
        at: Cell,
        /// The way it was to go.
        dir: &'static str,
    },
    /// There is no player object on the level, so a direction moves nothing.
    NoPlayer,
    /// Rules fired, or the turn (or its again turns) changed the level, but it ended as
    /// it started.
    EndedWhereItStarted {
        /// Whether the level was different at some point (after a turn, or after the
        /// movements of the input's turn); else the rules changed only movements that
        /// came to nothing, or changed nothing.
        changed: bool,
        /// The rules that changed the level or its movements, in the order they first
        /// did (at most 8).
        rules: Vec<RuleRef>,
        /// Again turns after the input.
        again_turns: usize,
    },
    /// No rule changed anything and nothing moved.
    NothingHappened,
    /// The explanation was cut off by the session's budget.
    CutOff {
        /// What ran out, as a sentence.
        limit: String,
    },
}

impl WhyNot {
    /// A short name of the reason (`cancelled`, `blocked`, ...), as JSON's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            WhyNot::Won => "won",
            WhyNot::Stuck { .. } => "stuck",
            WhyNot::NoAction => "no_action",
            WhyNot::NoUndo => "no_undo",
            WhyNot::NothingToUndo => "nothing_to_undo",
            WhyNot::NoRestart => "no_restart",
            WhyNot::AtRestartPoint => "at_restart_point",
            WhyNot::Cancelled { .. } => "cancelled",
            WhyNot::Restarted { .. } => "restarted",
            WhyNot::PlayerDidNotMove { .. } => "player_did_not_move",
            WhyNot::Blocked { .. } => "blocked",
            WhyNot::MovementRemoved { .. } => "movement_removed",
            WhyNot::NoPlayer => "no_player",
            WhyNot::EndedWhereItStarted { .. } => "ended_where_it_started",
            WhyNot::NothingHappened => "nothing_happened",
            WhyNot::CutOff { .. } => "cut_off",
        }
    }

    /// The rule the reason names, if one: the page underlines it.
    pub fn rule(&self) -> Option<&RuleRef> {
        match self {
            WhyNot::Cancelled { rule }
            | WhyNot::Restarted { rule }
            | WhyNot::MovementRemoved { rule, .. } => Some(rule),
            WhyNot::PlayerDidNotMove { because: Some(b) } => b.rule(),
            WhyNot::Stuck { rules, .. } => rules.first().map(|f| &f.rule),
            WhyNot::EndedWhereItStarted { rules, .. } => rules.first(),
            _ => None,
        }
    }

    /// The cells the reason names (the mover and what blocked it), for the page to mark.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            WhyNot::Blocked { chain, .. } => {
                let mut out = vec![];
                for b in chain {
                    out.push(b.at);
                    if let Obstacle::Object { at, .. } = &b.by {
                        out.push(*at);
                    }
                }
                out.dedup();
                out
            }
            WhyNot::MovementRemoved { at, .. } => vec![*at],
            WhyNot::PlayerDidNotMove { because: Some(b) } => b.cells(),
            _ => vec![],
        }
    }
}

impl WhyNot {
    /// The coded report of again turns that never settle (`puz::ps::never_settles`),
    /// labelled on the rules that keep firing, when this is [`WhyNot::Stuck`]. `input`
    /// is the 1-based number of the input after which they began, 0 as the level started.
    pub fn never_settles(&self, game: &Game, input: usize) -> Option<NeverSettles> {
        let WhyNot::Stuck {
            again_turns,
            cycle,
            watched,
            rules,
        } = self
        else {
            return None;
        };
        let when = match input {
            0 => "as the level starts".to_string(),
            n => format!("after input {n}"),
        };
        let how = if *cycle {
            format!("the level repeats after {again_turns} again turns")
        } else {
            format!("puz stopped them after {again_turns}")
        };
        let named = if rules.is_empty() {
            String::new()
        } else {
            let r: Vec<RuleRef> = rules.iter().map(|f| f.rule.clone()).collect();
            format!("; the rules on {} keep firing", lines(&r))
        };
        Some(NeverSettles {
            src: miette::NamedSource::new(game.name(), game.source().to_string()),
            rules: rules
                .iter()
                .map(|f| {
                    miette::LabeledSpan::new(
                        Some(f.label(*watched)),
                        f.rule.span.0,
                        f.rule.span.1 - f.rule.span.0,
                    )
                })
                .collect(),
            what: format!("{when}, the again turns never settle: {how}{named}"),
        })
    }
}

/// "the crate at 3,2", "a wall at 4,2".
fn object_at(name: &str, at: Cell) -> String {
    format!("the {name} at {at}")
}

fn lines(rules: &[RuleRef]) -> String {
    let mut s: Vec<String> = rules.iter().map(|r| r.line.to_string()).collect();
    s.dedup();
    match s.len() {
        0 => String::new(),
        1 => format!("line {}", s[0]),
        _ => format!("lines {}", s.join(", ")),
    }
}

impl fmt::Display for WhyNot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhyNot::Won => write!(f, "the level is won"),
            WhyNot::Stuck {
                again_turns,
                cycle,
                rules,
                ..
            } => {
                write!(
                    f,
                    "the game is stuck: its again turns never settle ({})",
                    if *cycle {
                        format!("the level repeats after {again_turns} again turns")
                    } else {
                        format!("cut off after {again_turns} again turns")
                    }
                )?;
                if !rules.is_empty() {
                    let r: Vec<RuleRef> = rules.iter().map(|x| x.rule.clone()).collect();
                    write!(f, "; the rules on {} keep firing", lines(&r))?;
                }
                Ok(())
            }
            WhyNot::NoAction => write!(f, "this game has no action key (noaction)"),
            WhyNot::NoUndo => write!(f, "this game has no undo (noundo)"),
            WhyNot::NothingToUndo => write!(f, "nothing to undo"),
            WhyNot::NoRestart => write!(f, "this game has no restart (norestart)"),
            WhyNot::AtRestartPoint => write!(f, "the level is as it started"),
            WhyNot::Cancelled { rule } => write!(f, "cancelled by the rule on {rule}"),
            WhyNot::Restarted { rule } => write!(
                f,
                "the rule on {rule} restarted the level, which was as it started"
            ),
            WhyNot::PlayerDidNotMove { because } => {
                write!(
                    f,
                    "the player did not move, so require_player_movement cancelled the turn"
                )?;
                if let Some(b) = because {
                    write!(f, " ({b})")?;
                }
                Ok(())
            }
            WhyNot::Blocked { chain, others } => {
                for (i, b) in chain.iter().enumerate() {
                    if i == 0 {
                        write!(f, "{} cannot move {}", object_at(&b.object, b.at), b.dir)?;
                    } else {
                        write!(f, ", and the {} cannot move {}", b.object, b.dir)?;
                    }
                    match &b.by {
                        Obstacle::Edge => write!(f, ": it would leave the board")?,
                        Obstacle::Object { name, at } => {
                            write!(f, ": {} is in the way", object_at(name, *at))?
                        }
                    }
                }
                if *others > 0 {
                    write!(
                        f,
                        " (and {others} other player object{} blocked)",
                        if *others == 1 { "" } else { "s" }
                    )?;
                }
                Ok(())
            }
            WhyNot::MovementRemoved {
                rule,
                object,
                at,
                dir,
            } if *dir == "action" => write!(
                f,
                "the rule on {rule} took the action of {} away",
                object_at(object, *at)
            ),
            WhyNot::MovementRemoved {
                rule,
                object,
                at,
                dir,
            } => write!(
                f,
                "the rule on {rule} stopped {} moving {dir}",
                object_at(object, *at)
            ),
            WhyNot::NoPlayer => write!(f, "there is no player on the level"),
            WhyNot::EndedWhereItStarted {
                changed,
                rules,
                again_turns,
            } => {
                if *changed {
                    write!(f, "the level changed but ended as it started")?;
                } else {
                    write!(f, "rules fired but left the level as it was")?;
                }
                let mut parts = vec![];
                if !rules.is_empty() {
                    parts.push(format!("the rules on {} fired", lines(rules)));
                }
                if *again_turns > 0 {
                    parts.push(format!(
                        "{again_turns} again turn{}",
                        if *again_turns == 1 { "" } else { "s" }
                    ));
                }
                if !parts.is_empty() {
                    write!(f, " ({})", parts.join("; "))?;
                }
                Ok(())
            }
            WhyNot::NothingHappened => write!(f, "nothing moved and no rule changed anything"),
            WhyNot::CutOff { limit } => {
                write!(f, "the explanation was cut off: {limit}")
            }
        }
    }
}
