//! Placement (issue 9, item 7): every start position a designer can draw is placed one
//! way. Cells placing a kind split into copies where two different symbols of one
//! meaning touch; each group is tiled exactly by the kind's footprints, one way only.

use crate::common::rules;

use rules::{codes, load, report};
use std::process::Command;
use std::time::{Duration, Instant};

use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};

/// A rule file with the given pieces, legend entries and one level; one move shifts any
/// piece of `mover` one step south, and the goal is `goal`.
fn rules(pieces: &str, legend: &str, mover: &str, goal: &str, level: &[&str]) -> String {
    let rows: String = level.iter().map(|r| format!("  {r}\n")).collect();
    format!(
        "tiles {{ floor wall }}\nmarks {{ goal }}\n{pieces}\n\
         legend {{ '.' floor  '#' wall  'o' floor + goal\n{legend}\n}}\n\
         dirs {{ n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }}\n\
         move step(d) {{ shift {mover} d }}\n\
         forbid {mover} on wall\n\
         goal {goal}\n\
         level \"one\" \"\"\"\n{rows}  \"\"\"\n"
    )
}

/// The copies the first level places: (piece, row, column, pose name) in start order.
fn placed(src: &str) -> Vec<(String, usize, usize, String)> {
    let p = load(src);
    let level = p.inline_level(0).expect("level");
    let cols = level.board.cols;
    let json = serde_json::to_value(&p.model).expect("model as JSON");
    level
        .instances
        .iter()
        .map(|i| {
            let name = p.model.pieces[i.piece.index()].name.clone();
            let pose = pose_name(&json, i.piece.index(), i.pose.index());
            (name, i.cell as usize / cols, i.cell as usize % cols, pose)
        })
        .collect()
}

/// The name of pose `k` of piece `i`, read from the model's JSON (poses are crate-private).
fn pose_name(model: &serde_json::Value, i: usize, k: usize) -> String {
    model["pieces"][i]["poses"][k]["name"]
        .as_str()
        .unwrap_or("?")
        .to_string()
}

fn cost(src: &str) -> Option<Vec<u64>> {
    let p = load(src);
    let level = p.inline_level(0).expect("level");
    match solve(&p.model, level, EngineChoice::Auto, &Budget::default())
        .expect("solve")
        .outcome
    {
        Outcome::Solved(path) => Some(path_cost(&p.model, &path.actions)),
        Outcome::Cost(c) => Some(c),
        _ => None,
    }
}

const GENERAL: &str = "piece general anonymous { pose tall { (0, 0) (1, 0) } }";

#[test]
fn two_generals_stacked_in_one_column_are_two_copies() {
    let src = rules(
        GENERAL,
        "'G' floor + general",
        "general",
        "general on goal",
        &["G", "G", "G", "G", "o", "o", "o", "o"],
    );
    assert_eq!(
        placed(&src),
        [
            ("general".into(), 0, 0, "tall".into()),
            ("general".into(), 2, 0, "tall".into()),
        ]
    );
    // Each copy moves alone: the lower one four steps down, then the upper one.
    assert_eq!(cost(&src), Some(vec![8]));
}

#[test]
fn symbols_that_differ_in_marks_share_a_copy() {
    // Two generals, each half on a goal: 'H' is `floor + goal + general`.
    let src = rules(
        GENERAL,
        "'G' floor + general  'H' floor + goal + general",
        "general",
        "general on goal",
        &["G", "G", "H", "H", "o", "o"],
    );
    assert_eq!(
        placed(&src),
        [
            ("general".into(), 0, 0, "tall".into()),
            ("general".into(), 2, 0, "tall".into()),
        ]
    );
    assert_eq!(cost(&src), Some(vec![4]));
}

#[test]
fn a_box_half_on_a_goal_is_one_box() {
    let anonymous = rules(
        "piece box anonymous { pose wide { (0, 0) (0, 1) } }",
        "'b' floor + box  'B' floor + goal + box",
        "box",
        "box on goal",
        &["#.bB#", "#.oo#"],
    );
    assert_eq!(placed(&anonymous), [("box".into(), 0, 2, "wide".into())]);
    assert_eq!(cost(&anonymous), Some(vec![1]));
    // A named piece too: one copy, not two placings.
    let named = rules(
        "piece box { pose wide { (0, 0) (0, 1) } }",
        "'b' floor + box  'B' floor + goal + box",
        "box",
        "box on goal",
        &["#.bB#", "#..o#"],
    );
    assert_eq!(placed(&named), [("box".into(), 0, 2, "wide".into())]);
}

const CAR: &str = "piece car anonymous {
  pose h2 { (0, 0) (0, 1) }
  pose h3 { (0, 0) (0, 1) (0, 2) }
  pose v2 { (0, 0) (1, 0) }
  pose v3 { (0, 0) (1, 0) (2, 0) }
}";

fn car_legend() -> String {
    ('A'..='M')
        .map(|c| format!("'{c}' floor + car"))
        .collect::<Vec<_>>()
        .join("  ")
}

#[test]
fn rush_hour_letters_are_cars() {
    // Fogleman's notation: every letter means `floor + car`, touching letters are cars
    // of their own, `x` a wall.
    let src = rules(
        CAR,
        &format!("{}  'x' wall", car_legend()),
        "car",
        "car on goal",
        &["IBBx..", "I..LDD", "JAAL..", "J.KEEM", "FFK..M", "GGHHHM"],
    );
    let mut got: Vec<(usize, usize, String)> = placed(&src)
        .into_iter()
        .map(|(_, r, c, pose)| (r, c, pose))
        .collect();
    got.sort();
    let want: Vec<(usize, usize, &str)> = vec![
        (0, 0, "v2"), // I
        (0, 1, "h2"), // B
        (1, 3, "v2"), // L
        (1, 4, "h2"), // D
        (2, 0, "v2"), // J
        (2, 1, "h2"), // A
        (3, 2, "v2"), // K
        (3, 3, "h2"), // E
        (3, 5, "v3"), // M
        (4, 0, "h2"), // F
        (5, 0, "h2"), // G
        (5, 2, "h3"), // H
    ];
    let want: Vec<(usize, usize, String)> = want
        .into_iter()
        .map(|(r, c, p)| (r, c, p.to_string()))
        .collect();
    assert_eq!(got, want);
}

const DOMINO: &str = "piece domino anonymous {
  pose h { (0, 0) (0, 1) }
  pose v { (0, 0) (1, 0) }
}";

#[test]
fn a_square_of_dominoes_is_ambiguous_and_a_second_symbol_settles_it() {
    let square = rules(
        DOMINO,
        "'D' floor + domino",
        "domino",
        "domino on goal",
        &["DD.", "DD."],
    );
    assert_eq!(codes(&square), ["puz::level::ambiguous_placement"]);
    let text = report(&square);
    for part in [
        "split into copies in more than one way",
        "one reading: `h` at (0, 0), `h` at (1, 0); another: `v` at (0, 0), `v` at (0, 1)",
        "add `'d' floor + domino` to the legend",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
    // The fix the help names: two standing dominoes side by side.
    let settled = rules(
        DOMINO,
        "'D' floor + domino  'd' floor + domino",
        "domino",
        "domino on goal",
        &["Dd.", "Dd."],
    );
    assert_eq!(
        placed(&settled),
        [
            ("domino".into(), 0, 0, "v".into()),
            ("domino".into(), 0, 1, "v".into()),
        ]
    );
    // ... or two lying ones.
    let lying = rules(
        DOMINO,
        "'D' floor + domino  'd' floor + domino",
        "domino",
        "domino on goal",
        &["DD.", "dd."],
    );
    assert_eq!(
        placed(&lying),
        [
            ("domino".into(), 0, 0, "h".into()),
            ("domino".into(), 1, 0, "h".into()),
        ]
    );
}

#[test]
fn cells_no_copies_cover_are_reported_with_the_footprints() {
    let src = rules(
        GENERAL,
        "'G' floor + general",
        "general",
        "general on goal",
        &["GGG", "..o"],
    );
    assert_eq!(codes(&src), ["puz::level::no_tiling"]);
    let text = report(&src);
    assert!(text.contains("these 3 cells"), "{text}");
    assert!(text.contains("`tall` covers (0, 0) (1, 0)"), "{text}");
}

#[test]
fn two_symbols_of_one_meaning_never_share_a_copy() {
    // A 3-cell piece over G H g: 'G' and 'g' mean the same, so no copy may hold both.
    let src = rules(
        "piece bar anonymous { pose h { (0, 0) (0, 1) (0, 2) } }",
        "'G' floor + bar  'g' floor + bar  'H' floor + goal + bar",
        "bar",
        "bar on goal",
        &["GHg", "..."],
    );
    assert_eq!(codes(&src), ["puz::level::no_tiling"]);
    let text = report(&src);
    assert!(
        text.contains("symbols 'G' and 'g' mean the same, so they never share a copy"),
        "{text}"
    );
    // A named piece drawn with both is two placings.
    let named = rules(
        "piece bar { pose h { (0, 0) (0, 1) } }",
        "'G' floor + bar  'g' floor + bar",
        "bar",
        "bar on goal",
        &["Gg.", "..o"],
    );
    assert!(
        codes(&named).contains(&"puz::level::too_many_markers".to_string()),
        "{:?}",
        codes(&named)
    );
}

#[test]
fn poses_of_one_shape_place_the_first_declared() {
    // One-cell poses: a lone cell is the first pose.
    let facing = rules(
        "piece man { pose up { (0, 0) } pose down { (0, 0) } }",
        "'@' floor + man",
        "man",
        "man on goal",
        &["@.o"],
    );
    assert_eq!(placed(&facing), [("man".into(), 0, 0, "up".into())]);
    // Shapes equal up to the anchor: the first declared pose, anchored where it says.
    let left_first = rules(
        "piece block { pose left { (0, 0) (0, 1) } pose right { (0, -1) (0, 0) } }",
        "'X' floor + block",
        "block",
        "block on goal",
        &[".XX.o"],
    );
    assert_eq!(placed(&left_first), [("block".into(), 0, 1, "left".into())]);
    let right_first = rules(
        "piece block { pose right { (0, -1) (0, 0) } pose left { (0, 0) (0, 1) } }",
        "'X' floor + block",
        "block",
        "block on goal",
        &[".XX.o"],
    );
    assert_eq!(
        placed(&right_first),
        [("block".into(), 0, 2, "right".into())]
    );
    // Anonymous copies too: a square of two-cell copies with two poses per shape is
    // still only ambiguous between lying and standing, never between poses of a shape.
    let twins = rules(
        "piece d anonymous { pose h { (0, 0) (0, 1) } pose h2 { (0, -1) (0, 0) } }",
        "'D' floor + d",
        "d",
        "d on goal",
        &["DDDD", "DD.o"],
    );
    assert_eq!(
        placed(&twins),
        [
            ("d".into(), 0, 0, "h".into()),
            ("d".into(), 0, 2, "h".into()),
            ("d".into(), 1, 0, "h".into()),
        ]
    );
}

#[test]
fn a_pathological_group_ends_in_a_diagnostic() {
    // A 2 x 40 strip of dominoes plus one cell: no tiling, and Fibonacci-many partial
    // tilings to try before that is known.
    let top = format!("{}D", "D".repeat(40));
    let bottom = format!("{}.", "D".repeat(40));
    let src = rules(
        DOMINO,
        "'D' floor + domino",
        "domino",
        "domino on goal",
        &[&top, &bottom, &format!("{}o", ".".repeat(40))],
    );
    let t = Instant::now();
    assert_eq!(codes(&src), ["puz::level::placement_too_complex"]);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
}

#[test]
fn large_groups_are_placed_in_linear_time() {
    // 200,000 cells of stacked generals in one column: 100,000 copies.
    let column: Vec<&str> = std::iter::repeat_n("G", 200_000).chain(["o"]).collect();
    let src = rules(
        GENERAL,
        "'G' floor + general",
        "general",
        "general on goal",
        &column,
    );
    let t = Instant::now();
    let p = load(&src);
    assert_eq!(p.inline_level(0).expect("level").instances.len(), 100_000);
    // A 300 x 300 square of dominoes: ambiguous, found at once.
    let row = "D".repeat(300);
    let square: Vec<&str> = std::iter::repeat_n(row.as_str(), 300).collect();
    let src = rules(
        DOMINO,
        "'D' floor + domino",
        "domino",
        "domino on goal",
        &square,
    );
    assert_eq!(codes(&src), ["puz::level::ambiguous_placement"]);
    // Quadratic work on these would take hours; linear takes seconds in a debug build.
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
}

#[test]
fn the_binary_reports_placement_errors_with_codes() {
    let dir = std::env::temp_dir().join(format!("puz-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("square.puz");
    let src = rules(
        DOMINO,
        "'D' floor + domino",
        "domino",
        "domino on goal",
        &["DD.", "DDo"],
    );
    std::fs::write(&file, src).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg("check")
        .arg(&file)
        .output()
        .expect("run puz");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("puz::level::ambiguous_placement"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
