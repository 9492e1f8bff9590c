//! Unit tests of the engine alone: action packing, budget pacing, and the budgets and
//! limits of setup, heuristic preparation and goal enumeration on small hand-made rules.

use std::time::Duration;
use web_time::Instant;

use super::budget::{Budget, Cutoff, Pacer};
use super::{Action, Expander, PrepareError, SetupError, Successors};
use crate::compile::{DirId, MoveId};
use crate::Puzzle;

/// Loads rules with one inline level.
fn puzzle(text: &str) -> Puzzle {
    Puzzle::load("test.puz", text.to_string()).expect("the rules load")
}

/// Three interchangeable boxes and six goal cells: 20 goal states.
const BOXES: &str = r#"puzzle "boxes"
tiles { floor }
marks { goal }
piece box anonymous
legend { '.' floor 'b' floor + box 'g' floor + goal }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move slide(d) { shift box d }
goal box on goal
level "L" """
  gggggg
  bbb...
  """
"#;

fn past() -> Budget {
    Budget {
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..Budget::default()
    }
}

#[test]
fn actions_pack_move_and_direction_in_tie_order() {
    let a = Action::new(MoveId(2), DirId(3));
    assert_eq!((a.mv(), a.dir()), (MoveId(2), DirId(3)));
    assert!(Action::new(MoveId(0), DirId(9)) < Action::new(MoveId(1), DirId(0)));
    assert!(Action::new(MoveId(1), DirId(0)) < Action::new(MoveId(1), DirId(1)));
    let p = puzzle(BOXES);
    let a = Action::new(MoveId(0), DirId(2));
    assert_eq!(p.model.letter(a), p.model.moves[0].letters[2]);
}

#[test]
fn a_pacer_checks_at_once_and_then_every_few_thousand_units() {
    let mut pacer = Pacer::default();
    assert_eq!(pacer.tick(1, &past()), Err(Cutoff::Time));
    let mut pacer = Pacer::default();
    assert_eq!(pacer.tick(1, &Budget::default()), Ok(()));
    // The next check is thousands of units away: a passed deadline is not seen yet.
    assert_eq!(pacer.tick(1, &past()), Ok(()));
    assert_eq!(pacer.tick(1 << 20, &past()), Err(Cutoff::Time));
}

#[test]
fn room_for_refuses_tables_past_the_memory_limit() {
    let budget = Budget {
        max_bytes: Some(1 << 40),
        ..Budget::default()
    };
    assert_eq!(budget.room_for(1 << 20), Ok(()));
    assert_eq!(budget.room_for(1 << 41), Err(Cutoff::Memory(1 << 40)));
}

#[test]
fn setup_stops_at_the_memory_limit() {
    let p = puzzle(BOXES);
    let level = p.inline_level(0).expect("level");
    let tight = Budget {
        max_bytes: Some(1),
        ..Budget::default()
    };
    assert!(matches!(
        Expander::new(&p.model, level.clone(), &tight),
        Err(SetupError::Cutoff(Cutoff::Memory(1)))
    ));
    assert!(Expander::new(&p.model, level, &Budget::default()).is_ok());
}

#[test]
fn goal_enumeration_counts_against_the_state_limit_and_the_deadline() {
    let p = puzzle(BOXES);
    let level = p.inline_level(0).expect("level");
    let exp = Expander::new(&p.model, level, &Budget::default()).expect("setup");
    let goals = exp.goal_states(1000, &Budget::default()).expect("goals");
    assert_eq!(goals.len(), 20);
    assert!(goals.iter().all(|g| exp.is_goal(g)));
    let five = Budget {
        max_states: Some(5),
        ..Budget::default()
    };
    assert_eq!(
        exp.goal_states(1000, &five),
        Err(PrepareError::Cutoff(Cutoff::States(5)))
    );
    assert!(matches!(
        exp.goal_states(10, &Budget::default()),
        Err(PrepareError::Refused(_))
    ));
    assert_eq!(
        exp.goal_states(1000, &past()),
        Err(PrepareError::Cutoff(Cutoff::Time))
    );
}

#[test]
fn heuristic_preparation_stops_at_the_deadline_and_bounds_the_moves_left() {
    let p = puzzle(BOXES);
    let level = p.inline_level(0).expect("level");
    let mut exp = Expander::new(&p.model, level, &Budget::default()).expect("setup");
    assert_eq!(
        exp.prepare_heuristic(&past()),
        Err(PrepareError::Cutoff(Cutoff::Time))
    );
    exp.prepare_heuristic(&Budget::default())
        .expect("heuristic");
    let start = exp.start();
    // Each box is one row below a goal: at least one move is left, never more than 3.
    let h = exp.estimate(&start);
    assert!((1..=3).contains(&h), "{h}");
    let mut succ = Successors::default();
    exp.successors(&start, &mut succ);
    assert!(succ.actions.windows(2).all(|w| w[0] <= w[1]));
}
