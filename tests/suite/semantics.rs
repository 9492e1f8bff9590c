//! The natural spelling means what it says: rule files a new user wrote from the README
//! alone, which once gave wrong answers without a word (`tests/data/semantics/README.md`),
//! each answer pinned through the library; plus the constructs that fixed them (`K.pose at
//! CELL`, attributes, the `at_finds_itself` lint) end to end.

use crate::common;

use common::drive::{solve_level, solve_text};
use puz::engine::Expander;
use puz::search::graph::StateGraph;
use puz::search::Budget;
use puz::solver::EngineChoice;
use puz::Puzzle;

fn load(name: &str) -> Puzzle {
    let path = format!("{}/tests/data/semantics/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    Puzzle::load(&path, text).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// Reachable states of the inline level `name`.
fn reachable(p: &Puzzle, name: &str) -> usize {
    let i = p
        .level_index(name)
        .unwrap_or_else(|| panic!("level {name}"));
    let level = p.inline_level(i).expect("level");
    let mut exp = Expander::new(&p.model, level, &Budget::default()).expect("expander");
    StateGraph::build(&mut exp, &Budget::default())
        .expect("graph")
        .graph
        .node_count()
}

/// Cost (first component) and letters, or `None` for no solution.
fn answer(p: &Puzzle, level: &str) -> Option<(u64, String)> {
    solve_text(p, level, EngineChoice::Interp)
        .1
        .map(|(c, l)| (c[0], l))
}

fn inline(p: &Puzzle, name: &str) -> Option<(u64, String)> {
    let i = p
        .level_index(name)
        .unwrap_or_else(|| panic!("level {name}"));
    let level = p.inline_level(i).expect("level");
    solve_level(p, level, EngineChoice::Interp, name)
        .1
        .map(|(c, l)| (c[0], l))
}

#[test]
fn a_direction_subset_holds_for_a_lone_piece() {
    let p = load("dir-subset-ignored-one-piece.puz");
    assert_eq!(inline(&p, "edge"), None);
    // Only east: from the corner the frog reaches (0,1) and (0,2), never (1,1).
    assert_eq!(reachable(&p, "edge"), 3);
    let three = load("dir-subset-ok-three-pieces.puz");
    assert_eq!(reachable(&three, "edge"), 12);
}

#[test]
fn as_binds_the_only_copy() {
    let p = load("as-binding-single-copy.puz");
    assert_eq!(inline(&p, "one box"), Some((1, "S".into())));
    assert_eq!(inline(&p, "two boxes"), Some((1, "S".into())));
}

#[test]
fn at_finds_any_copy_so_a_frog_jumps_a_frog() {
    let p = load("frogs-or-same-kind-jump.puz");
    assert_eq!(inline(&p, "frog over frog"), Some((1, "F".into())));
    let one = load("frogs-one-animal.puz");
    for l in ["one frog", "one toad", "frog and toad"] {
        assert_eq!(inline(&one, l), None, "{l}");
    }
}

#[test]
fn forbid_sees_another_copy_ahead() {
    let p = load("bound-copy-test.puz");
    // `x.x.`: the left x may not step while the other is two cells ahead; the right one
    // steps first (to 3), then the left one reaches (0,1).
    assert_eq!(inline(&p, "a").map(|a| a.0), Some(2));
}

#[test]
fn as_inside_for_binds_afresh_each_cell() {
    let p = load("hanoi-widths-as-3on5.puz");
    assert_eq!(inline(&p, "three onto five").map(|a| a.0), Some(1));
}

#[test]
fn a_pose_at_a_cell_parses_and_tests_that_pose() {
    let p = load("hanoi-poses.puz");
    assert_eq!(inline(&p, "3 disks").map(|a| a.0), Some(7));
}

#[test]
fn pieces_never_pass_through_each_other() {
    let p = load("boulders.puz");
    let level = std::fs::read_to_string(format!(
        "{}/tests/data/semantics/boulders-walk-through-b021.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("level");
    assert_eq!(answer(&p, &level), None);
    // Walking under a boulder that then falls into an empty cell is fine: here the man
    // walks out from under it and it falls behind him.
    assert_eq!(
        answer(&p, "####\n#O.#\n#@E#\n####\n"),
        Some((1, "e".into()))
    );
}

#[test]
fn a_piece_may_share_a_cell_with_one_the_move_removes() {
    // Keys are pieces: the man steps onto one and the move removes it.
    let p = Puzzle::load(
        "keys.puz",
        "tiles { floor wall } outside wall marks { exit }
         piece man  piece key anonymous
         legend { '.' floor '@' floor + man 'k' floor + key 'E' floor + exit }
         dirs { w (0, -1) e (0, 1) }
         cost moves
         move walk(d) { adds moves  shift man d  if key at man { remove key } }
         goal man on exit and count(key) == 0"
            .to_string(),
    )
    .expect("loads");
    assert_eq!(answer(&p, "@kE\n"), Some((2, "ee".into())));
    // Shifting the man onto a box before the box moves is passing through it.
    let p = Puzzle::load(
        "order.puz",
        "tiles { floor } piece man piece box anonymous marks { goal }
         legend { '.' floor '@' floor + man 'b' floor + box 'G' floor + goal }
         dirs { e (0, 1) }
         cost moves
         move push(d) { adds moves  require box at man + d  shift man d  shift box d }
         move walk(d) { adds moves  shift man d }
         goal box on goal"
            .to_string(),
    )
    .expect("loads");
    assert_eq!(answer(&p, "@b.G\n"), None);
}

#[test]
fn hanoi_by_attributes_takes_two_to_the_n_minus_one_moves() {
    let path = format!("{}/puzzles/hanoi.puz", env!("CARGO_MANIFEST_DIR"));
    let p = Puzzle::load(&path, std::fs::read_to_string(&path).expect("file")).expect("loads");
    for (name, n) in [("3 disks", 7), ("4 disks", 15)] {
        assert_eq!(inline(&p, name).map(|a| a.0), Some(n), "{name}");
    }
    // A larger disk never goes onto a smaller one: swap the sizes' order and the same
    // picture has no solution.
    let p2 = Puzzle::load(
        "hanoi2.puz",
        std::fs::read_to_string(&path).expect("file").replace(
            "require under.size > disk.size",
            "require under.size < disk.size",
        ),
    )
    .expect("loads");
    assert_eq!(inline(&p2, "3 disks"), None);
}

#[test]
fn attributes_compare_with_numbers_and_each_other() {
    let p = Puzzle::load(
        "w.puz",
        "tiles { floor } marks { goal }
         piece crate anonymous { pose light { (0, 0) } has weight 1  pose heavy { (0, 0) } has weight 3 }
         piece man has strength 2
         legend { '.' floor 'l' floor + crate.light 'h' floor + crate.heavy '@' floor + man 'G' floor + goal }
         dirs { e (0, 1) }
         cost moves
         move push(d) { adds moves  require crate at man + d  require crate.weight <= man.strength  shift crate d  shift man d }
         move walk(d) { adds moves  shift man d }
         goal crate on goal"
            .to_string(),
    )
    .expect("loads");
    assert_eq!(answer(&p, "@l.G\n"), Some((2, "ee".into())));
    assert_eq!(answer(&p, "@h.G\n"), None);
}
