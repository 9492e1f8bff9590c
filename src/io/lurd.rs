//! LURD, the Sokoban community's notation for solutions: one letter per step of the
//! player, `l u r d` for a walk left, up, right or down and `L U R D` for a step that
//! pushes.
//!
//! An answer reads as LURD when every move steps one piece kind (the player) by one
//! cell along a direction left, up, right or down, any other piece it moves going the
//! same way ([`lurd`]); the letter is upper case when it moved another piece (a piece it
//! removes or creates, a key picked up, is no push). That holds for any rules of that shape, whatever
//! their names: `puzzles/sokoban.puz` and `puzzles/sokoban-boxes.puz` alike.
//!
//! [`replay`] plays LURD text on a level: each letter is the first successor, in action
//! order, in which the player steps that way and pushes exactly when the letter is upper
//! case. The first letter that is not a move, or no such successor, is a diagnostic at
//! that letter with its number; moves that end short of the goal are one too.

use crate::compile::Model;
use crate::diagnostics::{quantity, FormatProblem, Problem};
use crate::engine::{Level, MoveDescription, MoveTarget};
use crate::play::{Game, Want};
use crate::search::Budget;
use crate::solution::Cost;

/// The step of a LURD letter: (row, column), and whether it pushes.
fn step(letter: char) -> Option<((i64, i64), bool)> {
    let d = match letter.to_ascii_lowercase() {
        'l' => (0, -1),
        'u' => (-1, 0),
        'r' => (0, 1),
        'd' => (1, 0),
        _ => return None,
    };
    Some((d, letter.is_ascii_uppercase()))
}

/// The LURD letter of a step, upper case for a push.
fn letter((dr, dc): (i64, i64), push: bool) -> Option<char> {
    let c = match (dr, dc) {
        (0, -1) => 'l',
        (-1, 0) => 'u',
        (0, 1) => 'r',
        (1, 0) => 'd',
        _ => return None,
    };
    Some(if push { c.to_ascii_uppercase() } else { c })
}

/// The step move `d` makes its main piece take, and whether it moved other pieces too.
fn player_step(d: &MoveDescription) -> Option<(&str, (i64, i64), bool)> {
    if !matches!(d.target, MoveTarget::Dir(_)) {
        return None;
    }
    let delta = |p: &crate::engine::PieceMove| Some((p.to?.0 - p.from?.0, p.to?.1 - p.from?.1));
    let main = d.main()?;
    let step = delta(main)?;
    // Other pieces that moved were pushed along; ones created or removed (a key picked
    // up) are no push.
    let mut push = false;
    for other in &d.moved[1..] {
        match delta(other) {
            Some(s) if s == step => push = true,
            Some(_) => return None,
            None => {}
        }
    }
    Some((main.name.as_str(), step, push))
}

/// `moves` in LURD, when they read as LURD (see the module header): every move a step of
/// one piece kind left, up, right or down. `None` otherwise.
pub fn lurd(moves: &[MoveDescription]) -> Option<String> {
    let mut player: Option<&str> = None;
    let mut out = String::with_capacity(moves.len());
    for m in moves {
        let (piece, delta, push) = player_step(m)?;
        if *player.get_or_insert(piece) != piece {
            return None;
        }
        out.push(letter(delta, push)?);
    }
    Some(out)
}

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
