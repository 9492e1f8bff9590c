//! Lints: what the rules can never do in one level, found before any search, and why a
//! level has no solution.
//!
//! Two analyses, both over-approximations of play (so a lint is never a false alarm about
//! what can happen):
//!
//! - **What a level can hold** (`holds.rs`). Starting from the level's pieces, tiles, marks and counter
//!   values, a fixpoint adds what the moves that can apply bring: created pieces, tiles
//!   that `change`, `toggle` or `break` make, counter values. A move one of whose
//!   statements always fails under that (it needs a tile the level never has, a piece
//!   kind with no copy, a counter value out of reach) can never apply
//!   ([`Problem::MoveNeverApplies`]); a goal condition that can never hold is
//!   [`Problem::GoalNeverHolds`] (or [`Problem::GoalPieceMissing`] when it holds
//!   vacuously, with no copy of its piece at all).
//! - **Where a piece can go alone** (`relax.rs`). The relaxation of the A* heuristic
//!   (`Expander::relax_op`): each piece moves alone, every other piece and every test
//!   ignored; conditional and looped statements may or may not run; a slide may stop
//!   wherever a piece or a changing tile could stop it. A goal piece none of whose
//!   relaxed places meets its goal is [`Problem::GoalOutOfReach`]; a slide with no
//!   `off board` rule that can reach the edge from a relaxed place is
//!   [`Problem::SlideOffBoard`].
//!
//! The relaxation is skipped on boards past [`MAX_RELAX_CELLS`] cells and stops after
//! [`MAX_WORK`] units of work, so lints cost a bounded time on any level; skipped lints
//! are simply not reported.

use miette::SourceSpan;
use serde::Serialize;

use crate::compile::{Base, Cond, Expect, GoalCond, LevelText, Model, Place, Step, Subject};
use crate::diagnostics::Problem;

use super::level::Level;

mod holds;
mod relax;

use holds::Analysis;
use relax::Relaxed;

/// Boards with more cells than this skip the relaxation lints: setting the level up for
/// them would cost as much as a search.
pub const MAX_RELAX_CELLS: usize = 1 << 16;

/// Units of work (relaxed ops run, cells a slide crosses) the relaxation may spend on one
/// level; past it the relaxation lints of that level are not reported.
pub const MAX_WORK: u64 = 4_000_000;

/// Rounds of the fixpoint of what a level can hold before every move left is taken as
/// possible (see [`Analysis`]).
const MAX_ROUNDS: usize = 64;

/// A goal condition out of reach in a level, for explaining "no solution".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutOfReach {
    /// The goal condition, as the rules say it (`box on goal`, `count(peg) == 1`).
    pub goal: String,
    /// The piece that cannot meet it, when it is one piece's place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// That piece's start cell, (row, column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<[usize; 2]>,
    /// A sentence saying why: `even moving alone, box (3,4) can reach no cell of goal`.
    pub text: String,
}

/// The lints of `level` under `model`, in a fixed order: moves that never apply, goals
/// that never hold, slides that run off the board, goal pieces out of reach. `inline` is
/// the level's index among the file's levels when it is written in the `.puz` file, so
/// that warnings can point at its text.
///
/// A level that says `expect none` is written to have no solution: the warnings that
/// prove it has none (`goal_never_holds`, `goal_out_of_reach`) are left out for it.
pub fn lint_level(model: &Model, level: &Level, inline: Option<usize>) -> Vec<Problem> {
    let a = Analysis::new(model, level);
    let text = inline.and_then(|i| model.levels.get(i));
    let mut out = a.move_lints();
    out.extend(a.goal_lints(text));
    if let Some(relax) = Relaxed::new(&a) {
        out.extend(relax.lints(&a, text));
    }
    if text.is_some_and(|t| t.expect == Some(Expect::Unsolvable)) {
        out.retain(|p| {
            !matches!(
                p,
                Problem::GoalNeverHolds { .. } | Problem::GoalOutOfReach { .. }
            )
        });
    }
    out
}

/// Lints about the rules alone, whatever the level: conditions `K at K + STEP` whose cell
/// lies inside the moving copy's own footprint in some pose (`at` finds any copy, the
/// moving one included, so there the test always finds it).
pub fn model_lints(model: &Model) -> Vec<Problem> {
    let mut out = vec![];
    for (mi, m) in model.moves.iter().enumerate() {
        let dirs: Vec<(i32, i32)> = match &m.param {
            crate::compile::Param::Dirs(ds) => ds
                .iter()
                .map(|d| (model.dirs[d.index()].dr, model.dirs[d.index()].dc))
                .collect(),
            crate::compile::Param::Cell => vec![],
        };
        let mut idx = 0;
        let spans = model.spans.ops.get(mi);
        crate::compile::walk_ops(&m.ops, &mut |op| {
            let at = idx;
            idx += 1;
            let mut found: Vec<(usize, Vec<Step>)> = vec![];
            match op {
                crate::compile::Op::Test {
                    subject: Subject::Piece(k),
                    cell,
                    ..
                } if *k == cell.piece => found.push((k.index(), cell.step.into_iter().collect())),
                crate::compile::Op::Check { cond, .. } | crate::compile::Op::If { cond, .. } => {
                    self_at(cond, &mut found)
                }
                _ => {}
            }
            for (k, steps) in found {
                let piece = &model.pieces[k];
                // Every offset the cell may take, one per direction of the move.
                let offsets: Vec<(i32, i32)> = if steps.iter().any(|s| s.fixed.is_none()) {
                    dirs.iter()
                        .map(|&(dr, dc)| offset(model, &steps, Some((dr, dc))))
                        .collect()
                } else {
                    vec![offset(model, &steps, None)]
                };
                let hit = piece
                    .poses
                    .iter()
                    .find(|p| offsets.iter().any(|o| p.cells.contains(o)));
                let (Some(pose), Some(span)) = (hit, spans.and_then(|v| v.get(at))) else {
                    continue;
                };
                let mut text = format!("{} at {}", piece.name, piece.name);
                for s in &steps {
                    text += if s.negate { " - " } else { " + " };
                    text += &step_text(model, s);
                }
                out.push(Problem::AtFindsItself {
                    piece: piece.name.clone(),
                    pose: pose.name.clone(),
                    text,
                    span: *span,
                    help: format!(
                        "`{} at CELL` tests any copy of `{}`, the moving one included; to look for another copy, look past its footprint, or bind one with `require {} at CELL as other`",
                        piece.name, piece.name, piece.name
                    ),
                });
            }
        });
    }
    out
}

/// The `K at K + STEPS` tests (no alias) in `c`.
fn self_at(c: &Cond, out: &mut Vec<(usize, Vec<Step>)>) {
    match c {
        Cond::At {
            subject: Subject::Piece(k),
            cell,
            ..
        } if matches!(cell.base, Base::Piece(b, None) if b == *k) => {
            out.push((k.index(), cell.steps.clone()))
        }
        Cond::Not(inner) => self_at(inner, out),
        Cond::And(parts) | Cond::Or(parts) => {
            for p in parts {
                self_at(p, out);
            }
        }
        _ => {}
    }
}

/// The (row, column) offset of `steps`, the move's direction being `param`.
fn offset(model: &Model, steps: &[Step], param: Option<(i32, i32)>) -> (i32, i32) {
    let (mut r, mut c) = (0, 0);
    for s in steps {
        let (dr, dc) = match s.fixed {
            Some(d) => (model.dirs[d.index()].dr, model.dirs[d.index()].dc),
            None => param.unwrap_or((0, 0)),
        };
        let m = s.times * if s.negate { -1 } else { 1 };
        r += dr * m;
        c += dc * m;
    }
    (r, c)
}

/// The goal conditions of `level` that are out of reach even in the relaxation: goals that
/// can never hold, and goal pieces that can reach no place meeting their goal moving
/// alone. Empty when every condition is within reach on its own (the pieces then block
/// one another, or the conditions exclude one another).
pub fn out_of_reach(model: &Model, level: &Level) -> Vec<OutOfReach> {
    let a = Analysis::new(model, level);
    let mut out = vec![];
    for (g, why) in a.goals_never_holding() {
        let text = match g {
            GoalRef::Picture(..) => format!("the goal picture can never hold: {why}"),
            _ => format!("`{}` can never hold: {why}", g.text(model)),
        };
        out.push(OutOfReach {
            text,
            goal: g.text(model),
            piece: None,
            from: None,
        });
    }
    if let Some(relax) = Relaxed::new(&a) {
        for s in relax.stranded(&a) {
            let name = model.pieces[s.kind].name.clone();
            out.push(OutOfReach {
                text: format!(
                    "even moving alone, {name} ({},{}) can reach no {}",
                    s.row, s.col, s.what
                ),
                goal: s.goal,
                piece: Some(name),
                from: Some([s.row, s.col]),
            });
        }
    }
    out
}

/// A goal condition: one `piece on place` entry or one of the rest, or the picture.
#[derive(Clone, Copy, Debug)]
enum GoalRef<'m> {
    /// `model.goal[i]`.
    On(usize, &'m GoalCond),
    /// `model.goal_rest[i]`.
    Rest(usize, &'m Cond),
    /// The level's goal picture, at the cell (row, column) that cannot end as drawn.
    Picture(usize, usize),
}

impl GoalRef<'_> {
    /// The condition as the rules say it.
    fn text(&self, model: &Model) -> String {
        match self {
            GoalRef::On(_, g) => goal_cond_text(model, g),
            GoalRef::Rest(_, c) => cond_text(model, c),
            GoalRef::Picture(..) => "the goal picture".to_string(),
        }
    }
}

/// `spans[i]`, or an empty span at the start when the model has none (a model built
/// without its source).
fn span_at(spans: &[SourceSpan], i: usize) -> SourceSpan {
    spans.get(i).copied().unwrap_or_else(|| (0, 0).into())
}

fn place_name(model: &Model, p: Place) -> &str {
    match p {
        Place::Tile(t) => &model.tiles[t.index()].name,
        Place::Mark(m) => &model.marks[m.index()].name,
    }
}

fn subject_name(model: &Model, s: Subject) -> &str {
    match s {
        Subject::Piece(k) => &model.pieces[k.index()].name,
        Subject::Tile(t) => &model.tiles[t.index()].name,
        Subject::Mark(m) => &model.marks[m.index()].name,
    }
}

/// `block.stand on target`.
fn goal_cond_text(model: &Model, g: &GoalCond) -> String {
    let piece = &model.pieces[g.piece.index()];
    let pose = g.pose.map_or(String::new(), |q| {
        format!(".{}", piece.poses[q.index()].name)
    });
    format!("{}{pose} on {}", piece.name, place_name(model, g.on))
}

/// A step as written: `d`, `-2n`.
fn step_text(model: &Model, s: &Step) -> String {
    let dir = s.fixed.map_or("d", |d| model.dirs[d.index()].name.as_str());
    let times = if s.times == 1 {
        String::new()
    } else {
        s.times.to_string()
    };
    format!("{times}{dir}")
}

/// A goal's condition as written (piece names for anchors, `(r, c)` for cells).
fn cond_text(model: &Model, c: &Cond) -> String {
    let group = |c: &Cond| match c {
        Cond::And(_) | Cond::Or(_) => format!("({})", cond_text(model, c)),
        _ => cond_text(model, c),
    };
    match c {
        Cond::At { subject, cell, .. } => {
            let mut at = match cell.base {
                Base::Piece(k, _) => model.pieces[k.index()].name.clone(),
                Base::Abs(r, col) => format!("({r}, {col})"),
                Base::Param | Base::Var(_) => "c".to_string(),
            };
            for s in &cell.steps {
                at += if s.negate { " - " } else { " + " };
                at += &step_text(model, s);
            }
            format!("{} at {at}", subject_name(model, *subject))
        }
        Cond::On {
            piece, pose, place, ..
        } => goal_cond_text(
            model,
            &GoalCond {
                piece: *piece,
                pose: *pose,
                on: *place,
            },
        ),
        Cond::Count { what, op, value } => {
            format!(
                "count({}) {} {value}",
                subject_name(model, *what),
                op.text()
            )
        }
        Cond::Attr { left, op, right } => {
            let of = |a: &crate::compile::AttrOf| {
                format!(
                    "{}.{}",
                    model.pieces[a.piece.index()].name,
                    model.attributes[a.attr as usize]
                )
            };
            let rhs = match right {
                crate::compile::AttrRhs::Value(v) => v.to_string(),
                crate::compile::AttrRhs::Attr(a) => of(a),
            };
            format!("{} {} {rhs}", of(left), op.text())
        }
        Cond::Counter { id, op, value } => format!(
            "{} {} {value}",
            model.counters[*id as usize].name,
            op.text()
        ),
        Cond::Not(inner) => format!("not {}", group(inner)),
        Cond::And(parts) => parts.iter().map(group).collect::<Vec<_>>().join(" and "),
        Cond::Or(parts) => parts.iter().map(group).collect::<Vec<_>>().join(" or "),
    }
}

/// The span of board cell (`row`, `col`) in an inline level's text, or the whole text.
fn cell_span(text: &LevelText, row: usize, col: usize) -> SourceSpan {
    grid_cell_span(
        &text.rows,
        &text.row_starts,
        text.span,
        text.form,
        (row, col),
    )
}

/// The span of cell (`row`, `col`) of a grid written as `rows` (the source offset of each
/// row's first cell in `starts`), or `whole`.
fn grid_cell_span(
    rows: &[String],
    starts: &[u32],
    whole: SourceSpan,
    form: crate::compile::GridForm,
    (row, col): (usize, usize),
) -> SourceSpan {
    let (Some(line), Some(&start)) = (rows.get(row), starts.get(row)) else {
        return whole;
    };
    let found = match form {
        crate::compile::GridForm::Chars => line
            .char_indices()
            .nth(col)
            .map(|(o, ch)| (o, ch.len_utf8())),
        crate::compile::GridForm::Ints => {
            let mut tokens = line
                .char_indices()
                .filter(|&(o, ch)| {
                    !ch.is_whitespace()
                        && line[..o]
                            .chars()
                            .next_back()
                            .is_none_or(char::is_whitespace)
                })
                .map(|(o, _)| o);
            tokens.nth(col).map(|o| {
                let len = line[o..]
                    .find(char::is_whitespace)
                    .unwrap_or(line.len() - o);
                (o, len)
            })
        }
    };
    found.map_or(whole, |(o, len)| (start as usize + o, len).into())
}
