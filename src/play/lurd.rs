//! LURD moves played on a level (the notation: `crate::io::lurd`): each letter is the
//! first successor, in action order, in which the player steps that way and pushes
//! exactly when the letter is upper case. The first letter that is not a move, or no such
//! successor, is a diagnostic at that letter with its number; moves that end short of
//! the goal are one too.

use crate::compile::Model;
use crate::diagnostics::{quantity, FormatProblem, Problem};
use crate::engine::Level;
use crate::io::lurd::{player_step, step};
use crate::search::Budget;
use crate::solution::Cost;

use super::{Game, Want};

/// LURD moves played to the end on a level: how many, and what they cost.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The moves played.
    pub moves: usize,
    /// How many of them pushed.
    pub pushes: usize,
    /// Their cost, in the rules' cost components.
    pub cost: Cost,
}

/// Plays LURD `text` on `level` (see the module header): the moves and their cost when
/// every letter is legal and the last reaches a goal, else the diagnostics, with spans
/// into `text`. Blanks and line breaks between letters are skipped.
pub fn replay(model: &Model, level: Level, text: &str) -> Result<Replay, Vec<Problem>> {
    let letters: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let bad: Vec<Problem> = letters
        .iter()
        .filter(|&&(_, c)| step(c).is_none())
        .map(|&(at, c)| {
            FormatProblem::BadLetter {
                letter: c,
                span: (at, c.len_utf8()).into(),
            }
            .into()
        })
        .collect();
    if !bad.is_empty() {
        return Err(bad);
    }
    let mut game = Game::new(model, level, &Budget::default()).map_err(|e| {
        vec![FormatProblem::NotSolved {
            span: (0, 0).into(),
            help: format!("the level cannot be set up: {e}"),
        }
        .into()]
    })?;
    let mut player: Option<String> = None;
    let mut pushes = 0;
    for (k, &(at, c)) in letters.iter().enumerate() {
        let Some((delta, push)) = step(c) else {
            continue;
        };
        let played = game.play_described(|d| {
            player_step(d).is_some_and(|(piece, dd, pp)| {
                dd == delta && pp == push && player.as_deref().is_none_or(|p| p == piece)
            })
        });
        match played {
            Some(p) => {
                if player.is_none() {
                    player = p.piece;
                }
                pushes += usize::from(push);
            }
            None => {
                let why = why_not(&mut game, model, delta, push);
                return Err(vec![FormatProblem::IllegalMove {
                    index: k + 1,
                    letter: c,
                    why,
                    span: (at, c.len_utf8()).into(),
                    help: format!("the {} before it are legal", quantity(k as u64, "moves")),
                }
                .into()]);
            }
        }
    }
    let cost = Cost::of(model, game.cost());
    if !game.is_goal() {
        let last = letters.last().map_or((0, 0), |&(at, c)| (at, c.len_utf8()));
        return Err(vec![FormatProblem::NotSolved {
            span: last.into(),
            help: format!(
                "all {} are legal ({cost}); the goal does not hold after the last",
                quantity(letters.len() as u64, "moves")
            ),
        }
        .into()]);
    }
    Ok(Replay {
        moves: letters.len(),
        pushes,
        cost,
    })
}

/// Why no successor takes the step `delta` (pushing when `push`): what playing that
/// direction would do instead, or the engine's reason it does nothing.
fn why_not(game: &mut Game, model: &Model, delta: (i64, i64), push: bool) -> String {
    let dir = model
        .dirs
        .iter()
        .find(|d| (d.dr as i64, d.dc as i64) == delta)
        .map(|d| d.name.clone());
    let Some(dir) = dir else {
        return format!("the rules have no direction ({}, {})", delta.0, delta.1);
    };
    let want = Want {
        mv: None,
        dir: Some(dir),
        cell: None,
    };
    match game.play(&want) {
        Ok(p) => {
            game.undo();
            if push {
                format!("it pushes nothing there (`{}` is a walk)", p.line)
            } else {
                format!("the step pushes (`{}`): write it in upper case", p.line)
            }
        }
        Err(b) => b.message,
    }
}
