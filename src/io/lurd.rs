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
//! `crate::play::lurd::replay` plays LURD text on a level, with these letters.

use crate::engine::{MoveDescription, MoveTarget};

/// The step of a LURD letter: (row, column), and whether it pushes.
pub(crate) fn step(letter: char) -> Option<((i64, i64), bool)> {
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
pub(crate) fn player_step(d: &MoveDescription) -> Option<(&str, (i64, i64), bool)> {
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
