//! Level formats people already have: Sokoban collections (`.xsb`, `.sok`), Fogleman's
//! Rush Hour lines, and solutions in LURD, read through the library and through the
//! `puz` binary, with every malformed input a coded diagnostic.

use std::process::Command;

use crate::common;

use common::rushhour::{random_level, Level as RushLevel};
use puz::diagnostics::{Diagnostics, Problem};
use puz::io::formats::{LevelFile, LevelFormat};
use puz::{Puzzle, SolveOptions};

/// The Microban fixture: five levels with titles before them, notes after, ragged rows,
/// `-` and `_` floor.
const MICROBAN: &str = "tests/data/formats/microban.xsb";

fn rules(path: &str) -> Puzzle {
    let text = std::fs::read_to_string(path).expect("read the rules");
    Puzzle::load(path, text).unwrap_or_else(|d| panic!("{d:?}"))
}

fn sokoban() -> Puzzle {
    rules("puzzles/sokoban-boxes.puz")
}

fn read(name: &str, text: &str, format: Option<LevelFormat>) -> Result<LevelFile, Diagnostics> {
    LevelFile::read(name, text.to_string(), format)
}

fn microban() -> LevelFile {
    let text = std::fs::read_to_string(MICROBAN).expect("read the fixture");
    read(MICROBAN, &text, None).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The codes of a report, in order.
fn codes(d: &Diagnostics) -> Vec<String> {
    d.problems.iter().map(Problem::code_str).collect()
}

/// The codes of problems without a report.
fn problem_codes(p: &[Problem]) -> Vec<String> {
    p.iter().map(Problem::code_str).collect()
}

/// The byte span of a problem's first label.
fn first_span(p: &Problem) -> (usize, usize) {
    use miette::Diagnostic;
    let l = p
        .labels()
        .and_then(|mut l| l.next())
        .expect("a labelled span");
    (l.offset(), l.len())
}

fn solve(p: &Puzzle, level: puz::engine::Level, metric: Option<&str>) -> puz::Solution {
    let opts = SolveOptions {
        metric: metric.map(String::from),
        ..SolveOptions::default()
    };
    p.solve_level(level, &opts).expect("solves")
}

#[test]
fn a_collection_gives_every_level_its_title_and_notes() {
    let f = microban();
    assert_eq!(f.format, LevelFormat::Sokoban);
    let titles: Vec<Option<&str>> = f.levels.iter().map(|l| l.title.as_deref()).collect();
    assert_eq!(
        titles,
        [1, 2, 3, 4, 5]
            .map(|n| Some(format!("Microban {n}")))
            .iter()
            .map(Option::as_deref)
            .collect::<Vec<_>>()
    );
    assert_eq!(f.levels[0].notes, ["Author: David W. Skinner"]);
    assert_eq!(
        f.levels[2].notes,
        ["; the only level here with two goals side by side"]
    );
    // Ragged rows are padded to the longest.
    assert!(f.levels[0].rows().iter().all(|r| r.chars().count() == 6));
}

#[test]
fn levels_are_picked_by_title_or_number() {
    let f = microban();
    assert_eq!(f.pick(None).unwrap(), 0);
    assert_eq!(f.pick(Some("Microban 4")).unwrap(), 3);
    assert_eq!(f.pick(Some("2")).unwrap(), 1);
    assert_eq!(f.pick(Some("#5")).unwrap(), 4);
    for missing in ["6", "0", "Microban 9", "#x"] {
        let e = f.pick(Some(missing)).unwrap_err();
        let text = format!("{e}");
        assert!(text.contains(&format!("{missing:?}")), "{text}");
    }
}

#[test]
fn titles_after_boards_and_untitled_levels() {
    // The Sok format's notes after a board (`Title:` first seen after a board).
    let text = "####\n#@$.#\n####\nTitle: first\nAuthor: me\n\n#####\n#@$ .#\n#####\nTitle: second\n\n#####\n#.$@#\n#####\n";
    let f = read("a.sok", text, None).unwrap();
    let titles: Vec<Option<&str>> = f.levels.iter().map(|l| l.title.as_deref()).collect();
    assert_eq!(titles, [Some("first"), Some("second"), None]);
    assert_eq!(f.levels[2].name(), "#3");
    // `Title:` before each board (seen before the first).
    let text = "Title: A\n####\n#@$.#\n####\nTitle: B\n#####\n#.$@#\n#####\n";
    let f = read("b.xsb", text, None).unwrap();
    let titles: Vec<Option<&str>> = f.levels.iter().map(|l| l.title.as_deref()).collect();
    assert_eq!(titles, [Some("A"), Some("B")]);
    // The only text line between two boards is the next one's title (the Sok format's
    // rule); behind a blank line, a note of the board before stays a note.
    let text = "#####\n#@$.#\n#####\nsome remark\n#####\n#.$@#\n#####\n";
    let f = read("c.xsb", text, None).unwrap();
    assert_eq!(f.levels[1].title.as_deref(), Some("some remark"));
    assert!(f.levels[0].notes.is_empty());
    let text = "#####\n#@$.#\n#####\nsome remark\nmore\n#####\n#.$@#\n#####\n";
    let f = read("d.xsb", text, None).unwrap();
    assert_eq!(f.levels[1].title, None);
    assert_eq!(f.levels[0].notes, ["some remark"]);
}

#[test]
fn cells_beyond_the_outer_wall_are_outside_not_floor() {
    let p = sokoban();
    let f = microban();
    let tile = |level: &puz::engine::Level, r: usize, c: usize| {
        let t = level.board.tiles[r * level.board.cols + c];
        p.model.tiles[t.index()].name.clone()
    };
    let one = p.file_level(&f, 0).unwrap();
    assert_eq!((one.board.rows, one.board.cols), (7, 6));
    // `####` then nothing: the missing cells beyond the wall are the outside tile.
    assert_eq!(tile(&one, 0, 4), "wall");
    assert_eq!(tile(&one, 1, 5), "wall");
    assert_eq!(tile(&one, 1, 1), "floor");
    // `-` and `_` are floor inside the walls and outside beyond them.
    let four = p.file_level(&f, 3).unwrap();
    assert_eq!(tile(&four, 1, 3), "floor");
    assert_eq!(tile(&four, 3, 3), "floor");
    assert_eq!(tile(&four, 5, 0), "wall");
    // A leading space of a ragged row is beyond the level too.
    let five = p.file_level(&f, 4).unwrap();
    assert_eq!(tile(&five, 0, 0), "wall");
    assert_eq!(tile(&five, 4, 1), "floor");
}

#[test]
fn collection_answers_are_the_known_ones_and_replay_in_lurd() {
    let p = sokoban();
    let f = microban();
    // Microban 1 and 2 are the inline levels of puzzles/sokoban-boxes.puz (their
    // `expect`s); every LURD answer is replayed below.
    let expected = [(8, 25), (3, 13), (13, 28), (7, 16), (6, 21)];
    for (i, &(pushes, walks)) in expected.iter().enumerate() {
        let s = solve(&p, p.file_level(&f, i).unwrap(), None);
        assert_eq!(
            s.cost_vector(),
            Some(&[pushes, walks][..]),
            "level {}",
            i + 1
        );
        let lurd = s.lurd.clone().expect("a Sokoban answer reads as LURD");
        assert_eq!(lurd.len() as u64, pushes + walks);
        assert_eq!(
            lurd.chars().filter(char::is_ascii_uppercase).count() as u64,
            pushes
        );
        let r = puz::play::lurd::replay(&p.model, p.file_level(&f, i).unwrap(), &lurd)
            .unwrap_or_else(|e| panic!("level {}: {:?}", i + 1, problem_codes(&e)));
        assert_eq!(r.cost.values, [pushes, walks]);
        assert_eq!(r.pushes as u64, pushes);
    }
}

#[test]
fn lurd_is_told_for_sokoban_in_either_notation_and_not_for_sliding_blocks() {
    let one_box = rules("puzzles/sokoban.puz");
    let s = one_box
        .solve(Some("sample 1"), &SolveOptions::default())
        .unwrap();
    assert_eq!(s.lurd.as_deref(), Some("RRRRR"));
    let rush = rules("puzzles/rushhour.puz");
    let s = rush.solve(None, &SolveOptions::default()).unwrap();
    assert_eq!(s.lurd, None, "many vehicles move: not LURD");
    let json = serde_json::to_value(&s).unwrap();
    assert!(json.get("lurd").is_none());
}

#[test]
fn lurd_replay_reports_the_first_illegal_move_with_its_number() {
    let p = sokoban();
    let f = microban();
    let level = || p.file_level(&f, 1).unwrap();
    // Microban 2's answer is rddLruulDuullddR; its 8th move `l` walks, it does not push.
    let e = puz::play::lurd::replay(&p.model, level(), "rddLruuLDuullddR").unwrap_err();
    assert_eq!(problem_codes(&e), ["puz::lurd::illegal_move"]);
    assert_eq!(first_span(&e[0]), (7, 1));
    let text = e[0].to_string();
    assert!(text.contains("move 8 (`L`)"), "{text}");
    // A walk into the wall below, after blanks: the number counts moves, the span is
    // the letter's place in the text.
    let e = puz::play::lurd::replay(&p.model, level(), "rdd dd").unwrap_err();
    assert_eq!(problem_codes(&e), ["puz::lurd::illegal_move"]);
    assert_eq!(first_span(&e[0]), (5, 1));
    assert!(e[0].to_string().contains("move 5 (`d`)"), "{}", e[0]);
    // A walk written as a push of a box in front: upper case is wrong the other way.
    let e = puz::play::lurd::replay(&p.model, level(), "rddl").unwrap_err();
    assert!(e[0].to_string().contains("pushes"), "{}", e[0]);
    // Letters that are no moves: all of them, each at its place.
    let e = puz::play::lurd::replay(&p.model, level(), "rdxdLq").unwrap_err();
    assert_eq!(problem_codes(&e), ["puz::lurd::bad_letter"; 2]);
    assert_eq!(first_span(&e[1]), (5, 1));
    // Legal but short of the goal.
    let e = puz::play::lurd::replay(&p.model, level(), "rddL").unwrap_err();
    assert_eq!(problem_codes(&e), ["puz::lurd::not_solved"]);
    assert_eq!(first_span(&e[0]), (3, 1));
    // The answer itself, across lines.
    let r = puz::play::lurd::replay(&p.model, level(), "rddLruul\nDuullddR\n").unwrap();
    assert_eq!((r.moves, r.pushes), (16, 3));
}

#[test]
fn malformed_collections_are_diagnostics() {
    // No board at all.
    let d = read("x.xsb", "Title: nothing\n; here\n", None).unwrap_err();
    assert_eq!(codes(&d), ["puz::format::no_board"]);
    assert_eq!(first_span(&d.problems[0]), (0, 14));
    // A gap in the outer wall lets the player out: the gap's player is pointed at.
    let text = "; open\n#####\n#@$.\n#####\n";
    let d = read("open.xsb", text, None).unwrap_err();
    assert_eq!(codes(&d), ["puz::format::open_level"]);
    assert_eq!(first_span(&d.problems[0]), (text.find('@').unwrap(), 1));
    assert!(d.problems[0].to_string().contains("\"open\""));
    // A board the rules cannot read: the grid reader's diagnostics, at the file's place.
    let p = sokoban();
    let text = "#####\n#@$.#\n#####\n\n######\n#@$.@#\n######\n";
    let f = read("two.xsb", text, None).unwrap();
    assert!(p.file_level(&f, 0).is_ok());
    let d = p.file_level(&f, 1).unwrap_err();
    assert!(!d.problems.is_empty());
}

/// Fogleman's lines: the database's hardest position, the shipped levels as lines, and
/// seeded random 6x6 lots, each with the optimal move count of the independent
/// reference's slide search (`tests/common/rushhour.rs`).
fn rush_database() -> (String, Vec<Option<u64>>) {
    let mut lines = vec![
        "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780".to_string(),
        "2 ooBoooooBoooAABooooooooooooooooooooo 1".to_string(),
        "ooooooooooooAAoBBBoooooooooooooooooo".to_string(),
    ];
    let mut expected = vec![Some(60), Some(2), None];
    let mut rng = fastrand::Rng::with_seed(24);
    while lines.len() < 12 {
        let l = random_level(&mut rng);
        if (l.rows, l.cols) != (6, 6) {
            continue;
        }
        let board: String = l.text().lines().collect();
        let moves = l.solve_slides();
        lines.push(match moves {
            Some(m) => format!("{m} {board} 1"),
            None => board,
        });
        expected.push(moves);
    }
    (lines.join("\n") + "\n", expected)
}

#[test]
fn fogleman_lines_solve_in_their_recorded_moves() {
    let p = rules("puzzles/rushhour.puz");
    let (text, expected) = rush_database();
    assert_eq!(
        RushLevel::parse("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM").solve_slides(),
        Some(60)
    );
    let hard = expected.iter().flatten().filter(|&&m| m >= 3).count();
    assert!(
        hard >= 3,
        "the random lots should not all be trivial: {expected:?}"
    );
    let f = read("rush.txt", &text, None).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(f.format, LevelFormat::RushHour);
    assert_eq!(f.levels.len(), expected.len());
    for (i, want) in expected.iter().enumerate() {
        let l = &f.levels[i];
        if want.is_some() {
            assert_eq!(l.moves, *want, "line {}", i + 1);
        }
        let s = solve(&p, p.file_level(&f, i).unwrap(), Some("slides"));
        let got = s.cost_vector().map(|c| c[0]);
        assert_eq!(
            got,
            *want,
            "line {}: {}",
            i + 1,
            text.lines().nth(i).unwrap()
        );
    }
    // A bare board line is a level only when the format is named (else it is 1 x 36).
    let bare = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM\n";
    assert_eq!(LevelFormat::detect("one.txt", bare), LevelFormat::Grid);
    let f = read("one.txt", bare, Some(LevelFormat::RushHour)).unwrap();
    let s = solve(&p, p.file_level(&f, 0).unwrap(), None);
    assert_eq!(s.cost_vector(), Some(&[103][..]));
    // `.` for empty cells, as some copies of the database write them.
    let dots = "2 ..B.....B...AAB..................... 1\n";
    let f = read("dots.txt", dots, None).unwrap();
    let s = solve(&p, p.file_level(&f, 0).unwrap(), Some("slides"));
    assert_eq!(s.cost_vector(), Some(&[2][..]));
}

#[test]
fn malformed_rush_hour_lines_are_diagnostics() {
    let text = "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780\n6x IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM\n7 IBBxoo 3\n1 2 3 4\n";
    let d = read("rush.txt", text, Some(LevelFormat::RushHour)).unwrap_err();
    assert_eq!(
        codes(&d),
        [
            "puz::format::rush_hour_line",
            "puz::format::board_length",
            "puz::format::rush_hour_line"
        ]
    );
    let second = text.find("6x").unwrap();
    assert_eq!(first_span(&d.problems[0]), (second, 2));
    let third = text.find("IBBxoo 3").unwrap();
    assert_eq!(first_span(&d.problems[1]), (third, 6));
    // A board of unknown letters reads, and the rules' legend reports them.
    let p = rules("puzzles/rushhour.puz");
    let f = read("r.txt", "1 IBBxooIooLDDJAALooJoKEEMFFKooMGGHH?M 1\n", None).unwrap();
    let d = p.file_level(&f, 0).unwrap_err();
    assert_eq!(codes(&d)[0], "puz::level::unknown_symbol");
    assert_eq!(first_span(&d.problems[0]), (2 + 34, 1));
}

fn puz(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_puz"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run puz")
}

#[test]
fn cli_solves_a_collection_alone_and_prints_lurd() {
    let o = puz(&["solve", MICROBAN, "--all"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(
        out.lines().nth(2).unwrap().starts_with("#2 Microban 2")
            && out.lines().nth(2).unwrap().ends_with("rddLruulDuullddR"),
        "{out}"
    );
    // The same with the rules named, one level by title, as JSON.
    let o = puz(&[
        "solve",
        "puzzles/sokoban-boxes.puz",
        MICROBAN,
        "--level",
        "Microban 2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["lurd"], "rddLruulDuullddR");
    assert_eq!(v["level"], "Microban 2");
    // A level the file lacks is a usage error naming what it holds.
    let o = puz(&["solve", MICROBAN, "--level", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("from 1 to 5"));
}

#[test]
fn cli_verifies_lurd() {
    let o = puz(&[
        "solve",
        MICROBAN,
        "--level",
        "2",
        "--verify",
        "rddLruulDuullddR",
    ]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("valid: the 16 moves solve"));
    let o = puz(&[
        "solve",
        MICROBAN,
        "--level",
        "2",
        "--verify",
        "rddLruuLDuullddR",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("puz::lurd::illegal_move") && err.contains("move 8"),
        "{err}"
    );
}
