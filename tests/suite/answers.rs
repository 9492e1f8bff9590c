//! Answers a person can read, and a designer's workflow, through the `puz` binary:
//! - `puz solve` names every move (`walk man (3,2) n`) and `--json` lists them; the lists
//!   are checked against the letter string and replayed by small simulators written here
//!   from the rules, independently of the engine;
//! - `--steps` tells which tiles changed;
//! - `puz solve FILE --all` tables every level, a broken one included;
//! - `expect` clauses on levels, checked by `puz test` (exit 1 on a mismatch) and by the
//!   checker (coded diagnostics).

use crate::common::binary;

use binary::{puz, stderr, stdout, TempFile};
use std::process::Output;

use serde_json::Value;

/// Asserts the exit code and that nothing panicked; shows both streams on failure.
fn expect_code(o: &Output, code: i32, what: &str) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{what}: puz panicked:\n{err}");
    assert_eq!(
        o.status.code(),
        Some(code),
        "{what}: wrong exit code\nstdout:\n{}\nstderr:\n{err}",
        stdout(o)
    );
}

fn shipped(name: &str) -> String {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The rows of an inline level, as the compiled model holds them.
fn level_rows(file: &str, level: &str) -> Vec<Vec<char>> {
    let o = puz(&["compile", file, "--json"]);
    expect_code(&o, 0, "compile --json");
    let v: Value = serde_json::from_str(&stdout(&o)).expect("model JSON");
    let l = v["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .find(|l| l["name"] == level)
        .unwrap_or_else(|| panic!("{file} has no level {level:?}"));
    l["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_str().expect("row").chars().collect())
        .collect()
}

fn find(rows: &[Vec<char>], sym: char) -> Vec<(i64, i64)> {
    let mut out = vec![];
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            if ch == sym {
                out.push((r as i64, c as i64));
            }
        }
    }
    out
}

/// `puz solve ... --json`, parsed.
fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = puz(&all);
    expect_code(&o, 0, "solve --json");
    serde_json::from_str(&stdout(&o)).expect("stdout is one JSON value")
}

fn pos(v: &Value) -> (i64, i64) {
    let a = v.as_array().unwrap_or_else(|| panic!("not a cell: {v}"));
    assert_eq!(a.len(), 2, "a cell is [row, col]: {v}");
    (a[0].as_i64().expect("row"), a[1].as_i64().expect("col"))
}

fn step(dir: &str) -> (i64, i64) {
    match dir {
        "n" => (-1, 0),
        "s" => (1, 0),
        "w" => (0, -1),
        "e" => (0, 1),
        other => panic!("unknown direction {other}"),
    }
}

fn add(a: (i64, i64), d: (i64, i64), k: i64) -> (i64, i64) {
    (a.0 + k * d.0, a.1 + k * d.1)
}

/// The `moves` list, checked against the letter string: one object per letter, in order.
fn moves_of(v: &Value) -> Vec<Value> {
    let path = v["path"].as_str().expect("path letters");
    let moves = v["moves"].as_array().expect("moves is a list").clone();
    assert_eq!(moves.len(), path.chars().count(), "one move per letter");
    assert_eq!(v["move_count"], moves.len());
    for (m, ch) in moves.iter().zip(path.chars()) {
        assert_eq!(m["letter"], ch.to_string(), "{m}");
        for key in ["move", "piece", "from", "to", "dir", "letter"] {
            assert!(m.get(key).is_some(), "move without `{key}`: {m}");
        }
    }
    moves
}

/// The lines after `moves (N): ...` up to the first blank line.
fn move_lines(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("moves ("))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (_, rest) = l.split_once(". ").expect("a numbered move line");
            rest.to_string()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Human move lines
// ---------------------------------------------------------------------------------------

#[test]
fn bloxorz_lines_name_the_block_and_where_it_starts() {
    let o = puz(&["solve", "puzzles/bloxorz.puz"]);
    expect_code(&o, 0, "solve bloxorz");
    let lines = move_lines(&stdout(&o));
    assert_eq!(lines.len(), 10, "{}", stdout(&o));
    // The sample's block stands at (1,3); every roll starts where the last one ended, which
    // the next line shows.
    assert_eq!(lines[0], "roll block (1,3) w");
    assert!(
        lines.iter().all(|l| l.starts_with("roll block (")),
        "{lines:?}"
    );
    let json = solve_json(&["puzzles/bloxorz.puz"]);
    for (l, m) in lines.iter().zip(moves_of(&json)) {
        let (r, c) = pos(&m["from"]);
        assert_eq!(
            *l,
            format!("roll block ({r},{c}) {}", m["dir"].as_str().unwrap())
        );
    }
}

#[test]
fn sokoban_lines_show_walks_and_pushes_with_the_box() {
    let o = puz(&["solve", "puzzles/sokoban.puz", "--level", "sample 4"]);
    expect_code(&o, 0, "solve sokoban sample 4");
    let lines = move_lines(&stdout(&o));
    assert_eq!(lines.len(), 19, "{}", stdout(&o));
    assert_eq!(lines[0], "walk man (5,3) s");
    // The three pushes move the box down the right-hand column onto the target.
    assert_eq!(
        &lines[16..],
        [
            "push man (3,3) s, box (4,3)",
            "push man (4,3) s, box (5,3)",
            "push man (5,3) s, box (6,3)"
        ]
    );
}

#[test]
fn huarong_lines_follow_the_blank() {
    let o = puz(&["solve", "puzzles/huarong.puz", "--level", "open 3x3"]);
    expect_code(&o, 0, "solve huarong open 3x3");
    let lines = move_lines(&stdout(&o));
    assert_eq!(lines.len(), 11, "{}", stdout(&o));
    assert_eq!(lines[0], "slide blank (1,1) n");
    // The blank trades places with the token: both are named.
    assert_eq!(lines[1], "slide blank (0,1) w, token (0,0)");
}

// ---------------------------------------------------------------------------------------
// JSON moves, replayed
// ---------------------------------------------------------------------------------------

#[test]
fn bloxorz_json_moves_replay_and_match_the_boards() {
    let rows = level_rows("puzzles/bloxorz.puz", "sample");
    let v = solve_json(&["puzzles/bloxorz.puz", "--steps"]);
    let moves = moves_of(&v);
    let boards: Vec<Vec<Vec<char>>> = v["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            b.as_str()
                .unwrap()
                .lines()
                .map(|l| l.chars().collect())
                .collect()
        })
        .collect();
    assert_eq!(boards.len(), moves.len() + 1);
    // The anchor is the block's first cell in reading order, on every board.
    let anchor = |b: &[Vec<char>]| find(b, 'X')[0];
    let mut at = find(&rows, 'X')[0];
    for (k, m) in moves.iter().enumerate() {
        assert_eq!(m["move"], "roll");
        assert_eq!(m["piece"], "block");
        assert_eq!(pos(&m["from"]), at, "move {k} starts where the block is");
        assert_eq!(pos(&m["from"]), anchor(&boards[k]), "move {k} vs board {k}");
        assert_eq!(
            pos(&m["to"]),
            anchor(&boards[k + 1]),
            "move {k} vs board {}",
            k + 1
        );
        // A roll moves the anchor one or two cells along its direction.
        let d = step(m["dir"].as_str().unwrap());
        let to = pos(&m["to"]);
        assert!(to == add(at, d, 1) || to == add(at, d, 2), "move {k}: {m}");
        at = to;
    }
    assert_eq!(at, find(&rows, 'O')[0], "the block ends on the target");
}

/// Replays a Sokoban answer from its `moves` list with the rules of the file: a walk steps
/// the man onto free floor, a push steps the box ahead of him and then him. Boxes are a
/// set (anonymous copies), so a push must name a box that is there.
fn replay_sokoban(
    rows: &[Vec<char>],
    moves: &[Value],
    man: &[char],
    boxes: &[char],
    goal: &[char],
) {
    let wall = |p: (i64, i64)| {
        p.0 < 0
            || p.1 < 0
            || rows
                .get(p.0 as usize)
                .and_then(|r| r.get(p.1 as usize))
                .is_none_or(|&c| c == '#')
    };
    let mut me = man
        .iter()
        .flat_map(|&m| find(rows, m))
        .next()
        .expect("a man");
    let mut bx: Vec<(i64, i64)> = boxes.iter().flat_map(|&b| find(rows, b)).collect();
    for (k, m) in moves.iter().enumerate() {
        let d = step(&m["dir"].as_str().unwrap().to_lowercase());
        assert_eq!(
            m["piece"], "man",
            "move {k}: the man is the main piece: {m}"
        );
        assert_eq!(pos(&m["from"]), me, "move {k} starts at the man: {m}");
        let ahead = add(me, d, 1);
        assert!(!wall(ahead), "move {k} walks into a wall");
        match m["move"].as_str().unwrap() {
            "walk" => {
                assert!(!bx.contains(&ahead), "move {k} walks into a box");
                assert!(m.get("others").is_none(), "a walk moves the man alone: {m}");
            }
            "push" => {
                let others = m["others"].as_array().expect("a push moves a box too");
                assert_eq!(others.len(), 1, "{m}");
                assert_eq!(others[0]["piece"], "box");
                assert_eq!(pos(&others[0]["from"]), ahead, "move {k}: {m}");
                let to = add(ahead, d, 1);
                assert_eq!(pos(&others[0]["to"]), to, "move {k}: {m}");
                assert!(
                    !wall(to) && !bx.contains(&to),
                    "move {k} pushes into a block"
                );
                let i = bx.iter().position(|&b| b == ahead).expect("a box is there");
                bx[i] = to;
            }
            other => panic!("unknown move {other}"),
        }
        assert_eq!(pos(&m["to"]), ahead, "move {k}: {m}");
        me = ahead;
    }
    let goals: Vec<(i64, i64)> = goal.iter().flat_map(|&g| find(rows, g)).collect();
    assert!(
        bx.iter().all(|b| goals.contains(b)),
        "boxes {bx:?} on goals {goals:?}"
    );
}

#[test]
fn sokoban_json_moves_replay() {
    for level in ["sample 3", "sample 1", "sample 4"] {
        let rows = level_rows("puzzles/sokoban.puz", level);
        let v = solve_json(&["puzzles/sokoban.puz", "--level", level]);
        replay_sokoban(&rows, &moves_of(&v), &['S'], &['B'], &['T']);
    }
}

#[test]
fn anonymous_boxes_json_moves_replay() {
    for level in ["microban 1", "microban 2"] {
        let rows = level_rows("puzzles/sokoban-boxes.puz", level);
        let v = solve_json(&["puzzles/sokoban-boxes.puz", "--level", level]);
        replay_sokoban(
            &rows,
            &moves_of(&v),
            &['@', '+'],
            &['$', '*'],
            &['.', '*', '+'],
        );
    }
}

// ---------------------------------------------------------------------------------------
// --steps: changed tiles
// ---------------------------------------------------------------------------------------

#[test]
fn steps_tell_which_tiles_changed() {
    let o = puz(&["solve", "puzzles/curling.puz", "--steps"]);
    expect_code(&o, 0, "solve curling --steps");
    let out = stdout(&o);
    // The first throw goes south from (0,3) and breaks the block at (5,3).
    let first = out.split("\n1: ").nth(1).expect("a first step");
    let mut lines = first.lines();
    assert_eq!(lines.next(), Some("throw stone (0,3) s (s)"));
    assert_eq!(lines.next(), Some("tiles: (5,3) block -> ice"));
    let v = solve_json(&["puzzles/curling.puz"]);
    let m = &moves_of(&v)[0];
    assert_eq!(m["tiles"][0]["cell"], serde_json::json!([5, 3]), "{m}");
    assert_eq!(m["tiles"][0]["from"], "block");
    assert_eq!(m["tiles"][0]["to"], "ice");
}

// ---------------------------------------------------------------------------------------
// --all
// ---------------------------------------------------------------------------------------

#[test]
fn all_tables_every_level() {
    let o = puz(&["solve", "puzzles/sokoban.puz", "--all"]);
    expect_code(&o, 0, "--all on clean levels, one unsolvable");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("level") && lines[0].contains("states"),
        "{out}"
    );
    assert!(lines[1].starts_with("sample 3") && lines[1].contains("6 pushes, 22 walks"));
    assert!(lines[4].starts_with("blocked") && lines[4].contains("no solution"));
}

#[test]
fn all_goes_past_a_broken_level() {
    let text = shipped("bloxorz.puz")
        + "\nlevel \"broken\" \"\"\"\n  ##Z\n  \"\"\"\nlevel \"last\" \"\"\"\n  X..O\n  \"\"\"\n";
    let f = TempFile::new("broken", &text);
    let o = puz(&["solve", f.path(), "--all"]);
    // The broken level is a level error (exit 1); every other level still ran.
    expect_code(&o, 1, "--all with a broken level");
    let out = stdout(&o);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{out}"))
            .to_string()
    };
    assert!(row("sample").contains("10 rolls"), "{out}");
    assert!(row("bridge").contains("no solution"), "{out}");
    assert!(row("broken").contains("error (exit 1)"), "{out}");
    assert!(row("last").contains("2 rolls"), "{out}");
    assert!(
        stderr(&o).contains("puz::"),
        "the level's diagnostic: {}",
        stderr(&o)
    );

    let o = puz(&["solve", f.path(), "--all", "--json"]);
    expect_code(&o, 1, "--all --json with a broken level");
    let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON value");
    let levels = v["levels"].as_array().expect("levels");
    assert_eq!(levels.len(), 6);
    assert_eq!(levels[0]["cost"]["rolls"], 10);
    assert_eq!(levels[1]["solved"], false);
    assert_eq!(levels[4]["level"], "broken");
    assert_eq!(levels[4]["exit"], 1);
    assert!(levels[4]["error"].is_string());
    assert_eq!(levels[5]["solved"], true);
}

#[test]
fn all_reports_a_cutoff_level_with_its_code() {
    let o = puz(&[
        "solve",
        "puzzles/sokoban-boxes.puz",
        "--all",
        "--engine",
        "interp",
    ]);
    expect_code(&o, 0, "--all");
    let o = puz(&[
        "solve",
        "puzzles/sokoban-boxes.puz",
        "--all",
        "--max-states",
        "50",
    ]);
    // Every level with more than 50 states stops: exit 3, and the small ones still ran.
    expect_code(&o, 3, "--all --max-states 50");
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("microban 1") && l.contains("error (exit 3)")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("stuck pair") && l.contains("no solution")),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------
// expect and puz test
// ---------------------------------------------------------------------------------------

#[test]
fn the_shipped_puzzles_pass_their_expectations() {
    let files = [
        "puzzles/bloxorz.puz",
        "puzzles/curling.puz",
        "puzzles/huarong.puz",
        "puzzles/sokoban.puz",
        "puzzles/sokoban-boxes.puz",
    ];
    let mut args = vec!["test"];
    args.extend(files);
    let o = puz(&args);
    expect_code(&o, 0, "puz test on the shipped puzzles");
    let out = stdout(&o);
    assert!(out.lines().all(|l| !l.starts_with("FAIL")), "{out}");
    assert!(out.contains("19 passed, 0 failed"), "{out}");
}

#[test]
fn a_wrong_expectation_fails_with_exit_1() {
    let text = shipped("bloxorz.puz")
        .replacen("expect 10", "expect 11", 1)
        .replacen("expect none", "expect 7", 1)
        + "\nlevel \"open\" \"\"\"\n  X..O\n  \"\"\"\n";
    let f = TempFile::new("wrong", &text);
    let o = puz(&["test", f.path()]);
    expect_code(&o, 1, "puz test with wrong expectations");
    let out = stdout(&o);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.contains(&format!("\"{name}\"")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
            .to_string()
    };
    let sample = line("sample");
    assert!(sample.starts_with("FAIL"), "{out}");
    assert!(sample.contains("expected 11 rolls, got 10 rolls"), "{out}");
    assert!(
        line("bridge").contains("expected 7 rolls, got no solution"),
        "{out}"
    );
    assert!(line("no frame").starts_with("pass"), "{out}");
    assert!(line("open").contains("no expectation"), "{out}");
    assert!(
        out.contains("2 passed, 2 failed, 1 without expectation"),
        "{out}"
    );

    // A level that cannot be searched within the limits does not meet its expectation.
    let o = puz(&["test", "puzzles/sokoban-boxes.puz", "--max-states", "50"]);
    expect_code(&o, 1, "puz test with a cutoff");
    assert!(stdout(&o).contains("got no answer"), "{}", stdout(&o));
}

#[test]
fn expect_clauses_are_checked() {
    let bad = [
        ("expect 10", "expect 10, 2", "puz::check::expect_arity"),
        ("expect 10", "expect -10", "puz::check::negative_expect"),
        ("expect 10", "expect", "puz::syntax::unexpected"),
        ("expect 10", "expect none, 3", "puz::syntax::unexpected"),
    ];
    for (from, to, code) in bad {
        let text = shipped("bloxorz.puz").replacen(from, to, 1);
        let f = TempFile::new("bad-expect", &text);
        for cmd in ["check", "test"] {
            let o = puz(&[cmd, f.path()]);
            expect_code(&o, 1, &format!("{cmd} with `{to}`"));
            assert!(stderr(&o).contains(code), "`{to}`: {}", stderr(&o));
        }
    }
    // `none` is a word only after `expect`: a tile may still be called `none`.
    let text = shipped("bloxorz.puz").replace("void", "none");
    let f = TempFile::new("none-tile", &text);
    expect_code(&puz(&["test", f.path()]), 0, "a tile named none");
}

// ---------------------------------------------------------------------------------------
// The general mechanics: removed copies, counters, changed tiles, per-cell moves
// ---------------------------------------------------------------------------------------

const KEYS: &str = r#"tiles { floor wall door }
outside wall
marks { exit }
piece man
piece key anonymous
counter keys max 9
legend { '.' floor '#' wall 'D' door '@' floor + man 'k' floor + key 'E' floor + exit }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move walk(d) { forbid key at man + d  forbid door at man + d  shift man d }
move take(d) { require key at man + d  remove key  shift man d  keys += 1 }
move open(d) {
  require door at man + d
  require keys > 0
  keys -= 1
  change door -> floor at man + d
  shift man d
}
forbid man on wall
goal man on exit
level "one" """
  @kDE
  """
expect 3
"#;

const LIGHTS: &str = r#"tiles { on off }
piece spare anonymous
legend { '#' on '.' off }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move press(cell c) {
  toggle on off at c
  toggle on off at c + n
  toggle on off at c + s
  toggle on off at c + w
  toggle on off at c + e
}
goal count(on) == 0
level "plus" """
  .#.
  ###
  .#.
  """
expect 1
"#;

const PEGS: &str = r#"tiles { hole }
piece peg anonymous
legend { '.' hole 'o' hole + peg }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move jump(d) {
  require peg at peg + d as over
  forbid peg at peg + 2d
  remove over
  shift peg 2d
}
goal count(peg) == 1
level "east" """
  oo.
  """
expect 1
level "west" """
  .oo
  """
expect 1
"#;

#[test]
fn removed_pieces_counters_and_tiles_are_told() {
    let f = TempFile::new("keys", KEYS);
    let o = puz(&["solve", f.path(), "--steps"]);
    expect_code(&o, 0, "solve keys --steps");
    let out = stdout(&o);
    assert_eq!(
        move_lines(&out),
        [
            "take man (0,0) e, key (0,1) removed",
            "open man (0,1) e",
            "walk man (0,2) e"
        ]
    );
    let step2 = out.split("\n2: ").nth(1).expect("a second step");
    let lines: Vec<&str> = step2.lines().take(3).collect();
    assert_eq!(
        lines,
        [
            "open man (0,1) e (e)",
            "tiles: (0,2) door -> floor",
            "counters: keys 1 -> 0"
        ]
    );
    let v = solve_json(&[f.path()]);
    let moves = moves_of(&v);
    assert_eq!(moves[0]["others"][0]["piece"], "key");
    assert_eq!(moves[0]["others"][0]["to"], Value::Null);
    assert_eq!(
        moves[0]["counters"],
        serde_json::json!([{"name": "keys", "from": 0, "to": 1}])
    );
    expect_code(&puz(&["test", f.path()]), 0, "puz test keys");
}

#[test]
fn a_per_cell_move_names_its_cell() {
    let f = TempFile::new("lights", LIGHTS);
    let o = puz(&["solve", f.path()]);
    expect_code(&o, 0, "solve lights");
    assert_eq!(move_lines(&stdout(&o)), ["press (1,1)"]);
    let v = solve_json(&[f.path()]);
    let m = &moves_of_cells(&v)[0];
    assert_eq!(m["cell"], serde_json::json!([1, 1]));
    assert_eq!(m["piece"], Value::Null);
    assert_eq!(m["tiles"].as_array().map(Vec::len), Some(5), "{m}");
}

/// The `moves` list of per-cell moves: `cell` instead of `dir`.
fn moves_of_cells(v: &Value) -> Vec<Value> {
    let moves = v["moves"].as_array().expect("moves").clone();
    for m in &moves {
        assert!(m.get("cell").is_some() && m.get("dir").is_none(), "{m}");
    }
    moves
}

#[test]
fn the_jumper_leads_and_the_jumped_copy_is_removed() {
    let f = TempFile::new("pegs", PEGS);
    for (level, line) in [
        ("east", "jump peg (0,0) e, peg (0,1) removed"),
        ("west", "jump peg (0,2) w, peg (0,1) removed"),
    ] {
        let o = puz(&["solve", f.path(), "--level", level]);
        expect_code(&o, 0, "solve pegs");
        assert_eq!(move_lines(&stdout(&o)), [line], "{level}");
    }
    let o = puz(&["solve", f.path(), "--all"]);
    expect_code(&o, 0, "--all pegs");
    expect_code(&puz(&["test", f.path()]), 0, "puz test pegs");
}

/// The `--steps` boards of a plain answer: the text after each step header or `start:`.
fn step_boards(out: &str) -> Vec<Vec<Vec<char>>> {
    let (_, rest) = out.split_once("\nstart:\n").expect("a start board");
    rest.split("\n\n")
        .map(|chunk| {
            chunk
                .lines()
                .filter(|l| {
                    !l.is_empty()
                        && !l.starts_with(|c: char| c.is_ascii_digit())
                        && !l.starts_with("tiles:")
                        && !l.starts_with("counters:")
                })
                .map(|l| l.chars().collect())
                .collect()
        })
        .collect()
}

#[test]
fn steps_draw_boards_in_the_levels_own_symbols() {
    // Microban 1 writes floor as ' ' inside and '_' outside; the legend also has '-'.
    let rows = level_rows("puzzles/sokoban-boxes.puz", "microban 1");
    let text: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    let f = TempFile::new("microban1", &text);
    for args in [
        vec![
            "solve",
            "puzzles/sokoban-boxes.puz",
            "--level",
            "microban 1",
            "--steps",
        ],
        vec!["solve", "puzzles/sokoban-boxes.puz", f.path(), "--steps"],
    ] {
        let o = puz(&args);
        expect_code(&o, 0, "solve microban 1 --steps");
        let boards = step_boards(&stdout(&o));
        assert_eq!(boards.len(), 34, "the start and 33 moves");
        assert_eq!(boards[0], rows, "the start board is the level as written");
        for (k, b) in boards.iter().enumerate() {
            for (r, row) in b.iter().enumerate() {
                for (c, &ch) in row.iter().enumerate() {
                    let was = rows[r][c];
                    let ok = match was {
                        '#' | '_' => ch == was,
                        ' ' | '@' | '$' => " @$".contains(ch),
                        '.' | '*' | '+' => ".*+".contains(ch),
                        _ => false,
                    };
                    assert!(
                        ok,
                        "board {k} ({r},{c}): {ch:?} where the level had {was:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn expect_follows_a_goal_picture() {
    let text = r#"tiles { floor }
piece blank
piece a
piece b
legend { '.' floor + blank  'a' floor + a  'b' floor + b }
dirs { n (-1, 0) s (1, 0) w (0, -1) e (0, 1) }
move slide(d) { swap blank d }
level "swap" """
  a.b
  """
goal """
  ab.
  """
expect 1
level "swap back" """
  .ab
  """
goal """
  ba.
  """
expect none
"#;
    let f = TempFile::new("picture", text);
    let o = puz(&["test", f.path()]);
    expect_code(&o, 0, "puz test with pictures");
    assert!(stdout(&o).contains("2 passed, 0 failed"), "{}", stdout(&o));
    let o = puz(&["solve", f.path()]);
    expect_code(&o, 0, "solve with a picture");
    assert_eq!(move_lines(&stdout(&o)), ["slide blank (0,1) e, b (0,2)"]);
}

/// A count of one names its unit in the singular everywhere an answer prints it: the
/// cost line, `--all` rows, `puz test` lines, `check` and `analyze`; cost components are
/// the file's own plurals (`pushes` -> `1 push`).
#[test]
fn a_count_of_one_is_singular() {
    let o = puz(&["solve", "puzzles/curling.puz", "--level", "one throw"]);
    expect_code(&o, 0, "one throw");
    assert!(stdout(&o).contains("\ncost: 1 throw\n"), "{}", stdout(&o));
    let o = puz(&["solve", "puzzles/curling.puz", "--all"]);
    let all = stdout(&o);
    assert!(
        all.lines()
            .any(|l| l.starts_with("one throw") && l.contains(" 1 throw ")),
        "{all}"
    );
    assert!(all.contains("10 throws"), "{all}");
    let o = puz(&["test", "puzzles/curling.puz"]);
    let test = stdout(&o);
    assert!(test.contains("\"one throw\": 1 throw ("), "{test}");
    let o = puz(&["check", "puzzles/curling.puz"]);
    assert!(
        stdout(&o).contains("ok (2 tiles, 1 piece, 1 move, 4 levels, judge format)"),
        "{}",
        stdout(&o)
    );
    // A component named `pushes`: one push, two walks; expected and found alike.
    let rules = shipped("sokoban.puz");
    let f = TempFile::new(
        "plural",
        &format!("{rules}\nlevel \"one push\" \"\"\"\n  S..\n  .BT\n  \"\"\"\nexpect 2, 2\n"),
    );
    let o = puz(&["test", f.path()]);
    let test = stdout(&o);
    assert!(
        test.contains("\"one push\": expected 2 pushes, 2 walks, got 1 push, 1 walk"),
        "{test}"
    );
    // analyze: one goal state, one optimal solution, one move away at most.
    let line = TempFile::new(
        "line",
        "puzzle \"Line\"\ntiles { floor }\nmarks { target }\npiece man\n\
        legend { '.' floor  'M' floor + man  'T' floor + target }\n\
        dirs { e (0, 1) }\nmove walk(d) { shift man d }\ngoal man on target\n\
        level \"line\" \"\"\"\n  MT\n  \"\"\"\n",
    );
    let o = puz(&["analyze", line.path()]);
    let out = stdout(&o);
    for want in [
        "reachable states: 2 (1 move between them, 1 goal state)",
        "fewest moves to a goal: 1 (1 distinct optimal solution)",
        "farthest reachable state: 1 move",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}
