//! Budgets in the engine's own phases: level setup, heuristic preparation and goal
//! enumeration stop at `--timeout`, `--max-memory` and `--max-states` like a search does
//! (exit 3, the budget named), and a level whose places do not fit a state word is
//! refused with the limit named (exit 2). Runs the real binary on the vendored
//! reproducers; wall-time bounds are generous, as CI machines are small.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Exit code of a search stopped by a budget (README, "exit codes").
const CUTOFF: i32 = 3;
/// Exit code of bad input.
const INPUT: i32 = 2;
/// The most any of these runs may take, for a one-second budget.
const SLOW: Duration = Duration::from_secs(10);

fn data(name: &str) -> String {
    format!(
        "{}/tests/data/robustness/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Writes `text` to a fresh file named `name` in a directory of this test run.
fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("puz-robust-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("write the file");
    file.to_string_lossy().to_string()
}

/// Runs `puz` with `args`; returns its output and how long it took.
fn puz(args: &[&str]) -> (Output, Duration) {
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(args)
        .output()
        .expect("the binary runs");
    (out, t0.elapsed())
}

/// Asserts the run stopped at a budget whose message contains `says`, quickly.
fn assert_cut_off(args: &[&str], says: &str) {
    let (out, took) = puz(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(CUTOFF), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: expected {says:?} in {err}");
    assert!(out.stdout.is_empty(), "{args:?}: no answer is printed");
    assert!(took < SLOW, "{args:?} took {took:?}");
}

#[test]
fn level_setup_checks_the_memory_budget_before_building_tables() {
    let file = data("many_poses_4097_300.puz");
    assert_cut_off(
        &[
            "solve",
            &file,
            "--max-memory",
            "100",
            "--max-states",
            "10",
            "--timeout",
            "1",
        ],
        "memory limit",
    );
}

#[test]
fn a_level_whose_places_overflow_a_state_word_is_refused_with_the_limit_named() {
    // 4,097 poses take 13 bits of a state word: the 830 x 766 padded cells of a 700 x 700
    // board do not fit in the other 19.
    let mut text = String::from(
        "puzzle \"wide\"\ntiles { floor }\nmarks { target }\npiece man { pose one { (0, 0) }\n",
    );
    for dr in 1..=64 {
        for dc in -32..32 {
            text += &format!("  pose p{dr}_{} {{ (0, 0) ({dr}, {dc}) }}\n", dc + 32);
        }
    }
    text += "}\nlegend { '.' floor 'S' floor + man 'T' floor + target }\n";
    text += "dirs { w (0, -1) e (0, 1) }\nmove walk(d) { shift man d }\ngoal man on target\n";
    text += "level \"L\" \"\"\"\n";
    for r in 0..700 {
        text += "  ";
        text += if r == 0 { "S" } else { "." };
        text += &".".repeat(698);
        text += if r == 699 { "T" } else { "." };
        text += "\n";
    }
    text += "  \"\"\"\n";
    let file = temp_file("wide.puz", &text);
    let (out, took) = puz(&["solve", &file, "--timeout", "5"]);
    let _ = std::fs::remove_file(&file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(INPUT), "{err}");
    assert!(err.contains("2^32 places a state word holds"), "{err}");
    assert!(took < SLOW, "took {took:?}");
}

#[test]
fn heuristic_preparation_stops_at_the_deadline() {
    let file = data("slide_line_100k.puz");
    assert_cut_off(
        &["solve", &file, "--search", "astar", "--timeout", "1"],
        "time limit",
    );
}

#[test]
fn goal_enumeration_stops_at_the_deadline() {
    let file = data("bidir_goals_exponential.puz");
    assert_cut_off(
        &["solve", &file, "--search", "bidir", "--timeout", "1"],
        "time limit",
    );
}

#[test]
fn goal_enumeration_stops_at_the_state_limit() {
    // Ten interchangeable boxes on a row of twenty goals: 184,756 goal states.
    let text = r#"puzzle "many goals"
tiles { floor }
marks { goal }
piece box anonymous
legend { '.' floor 'b' floor + box 'g' floor + goal }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move slide(d) { shift box d }
goal box on goal
level "L" """
  gggggggggggggggggggg
  bbbbbbbbbb..........
  """
"#;
    let file = temp_file("many_goals.puz", text);
    assert_cut_off(
        &["solve", &file, "--search", "bidir", "--max-states", "1000"],
        "state limit of 1000",
    );
    let _ = std::fs::remove_file(&file);
}
