//! End-to-end tests of the `puz` binary: exit codes, stdout and stderr.
//!
//! Exit codes (see `src/main.rs`): 0 ok, 1 rule-file diagnostics, 2 bad input, 3 search
//! budget exhausted, 4 engine unavailable. No input, however malformed, may panic.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const BLOXORZ: &str = "puzzles/bloxorz.puz";

const SAMPLE: &str = "#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######";

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn puz_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_puz"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c.env("NO_COLOR", "1");
    c.env_remove("RUST_BACKTRACE");
    c
}

fn puz<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    puz_cmd()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run puz")
}

fn puz_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = puz_cmd()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run puz");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The process may exit before reading everything; a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for puz");
    writer.join().expect("stdin writer");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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

/// A scratch directory, unique per test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "puz-cli-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).expect("write scratch file");
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn p(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

// A minimal Bloxorz roller written from the spec, to replay the binary's answers. A
// position is the sorted list of covered cells.

type Cells = Vec<(i32, i32)>;

fn grid(text: &str) -> Vec<Vec<u8>> {
    text.lines().map(|l| l.as_bytes().to_vec()).collect()
}

fn cells_of(g: &[Vec<u8>], ch: u8) -> Cells {
    let mut v = vec![];
    for (r, row) in g.iter().enumerate() {
        for (c, &b) in row.iter().enumerate() {
            if b == ch {
                v.push((r as i32, c as i32));
            }
        }
    }
    v
}

fn roll(pos: &Cells, letter: char) -> Cells {
    let d = match letter {
        'n' => (-1, 0),
        's' => (1, 0),
        'w' => (0, -1),
        'e' => (0, 1),
        other => panic!("unexpected path letter {other:?}"),
    };
    let mv = |p: (i32, i32), k: i32| (p.0 + k * d.0, p.1 + k * d.1);
    let mut next = if pos.len() == 1 {
        vec![mv(pos[0], 1), mv(pos[0], 2)]
    } else {
        let axis = (pos[1].0 - pos[0].0, pos[1].1 - pos[0].1);
        match axis.0 * d.0 + axis.1 * d.1 {
            0 => vec![mv(pos[0], 1), mv(pos[1], 1)],
            k if k > 0 => vec![mv(pos[1], 1)],
            _ => vec![mv(pos[0], 1)],
        }
    };
    next.sort();
    next
}

fn legal(g: &[Vec<u8>], pos: &Cells) -> bool {
    pos.iter().all(|&(r, c)| {
        let cell = if r < 0 || c < 0 {
            None
        } else {
            g.get(r as usize).and_then(|row| row.get(c as usize))
        };
        match cell {
            Some(b'.' | b'X' | b'O') => true,
            Some(b'E') => pos.len() == 2,
            _ => false,
        }
    })
}

/// Replays `letters` on `board`, returning every position (start included); panics on an
/// illegal roll or when the last position is not standing on `O`.
fn replay(board: &str, letters: &str) -> Vec<Cells> {
    let g = grid(board);
    let mut pos = cells_of(&g, b'X');
    let mut all = vec![pos.clone()];
    for (k, ch) in letters.chars().enumerate() {
        pos = roll(&pos, ch);
        assert!(
            legal(&g, &pos),
            "roll {} ({ch}) of {letters:?} is illegal: {pos:?}",
            k + 1
        );
        all.push(pos.clone());
    }
    assert_eq!(
        pos,
        cells_of(&g, b'O'),
        "path {letters:?} does not end standing on O"
    );
    all
}

/// The letters of the `moves (N): ...` line of `puz solve`.
fn moves_line(out: &str) -> (usize, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("moves ("))
        .unwrap_or_else(|| panic!("no moves line in:\n{out}"));
    let (count, letters) = line["moves (".len()..]
        .split_once("): ")
        .expect("moves (N): LETTERS");
    (
        count.parse().expect("move count"),
        letters.trim().to_string(),
    )
}

// ---------------------------------------------------------------------------------------
// check / solve
// ---------------------------------------------------------------------------------------

#[test]
fn check_accepts_bloxorz() {
    let o = puz(["check", BLOXORZ]);
    expect_code(&o, 0, "check");
    assert!(stdout(&o).contains("ok"), "{}", stdout(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn check_reports_a_broken_puz_with_a_code() {
    let s = Scratch::new("broken");
    let text = std::fs::read_to_string(BLOXORZ)
        .unwrap()
        .replace("forbid block on void", "forbid block on voyd");
    let f = s.file("broken.puz", text.as_bytes());
    let o = puz(["check", p(&f)]);
    expect_code(&o, 1, "check broken.puz");
    let err = stderr(&o);
    assert!(err.contains("puz::check::unknown_name"), "{err}");
    assert!(err.contains("voyd"), "{err}");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));

    // A syntax error too.
    let f = s.file("syntax.puz", b"puzzle \"x\"\ntiles { floor\n");
    let o = puz(["check", p(&f)]);
    expect_code(&o, 1, "check syntax.puz");
    assert!(stderr(&o).contains("puz::"), "{}", stderr(&o));
}

#[test]
fn solve_prints_cost_and_moves() {
    let o = puz(["solve", BLOXORZ]);
    expect_code(&o, 0, "solve");
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "cost: 10 rolls"), "{out}");
    let (n, letters) = moves_line(&out);
    assert_eq!(n, 10);
    assert_eq!(letters.len(), 10);
    replay(SAMPLE, &letters);
}

#[test]
fn solve_json_parses_and_replays() {
    let o = puz(["solve", BLOXORZ, "--json"]);
    expect_code(&o, 0, "solve --json");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("stdout is one JSON value");
    assert_eq!(v["solved"], true);
    assert_eq!(v["cost"]["rolls"], 10);
    assert_eq!(v["move_count"], 10);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(10));
    assert_eq!(v["level"], "sample");
    let path = v["path"].as_str().expect("path is a string");
    assert_eq!(path.len(), 10);
    replay(SAMPLE, path);
    assert!(v.get("boards").is_none(), "boards only with --steps");
}

#[test]
fn solve_json_steps_boards_follow_the_path() {
    let o = puz(["solve", BLOXORZ, "--json", "--steps"]);
    expect_code(&o, 0, "solve --json --steps");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let path = v["path"].as_str().unwrap();
    let positions = replay(SAMPLE, path);
    let boards = v["boards"].as_array().expect("boards array");
    assert_eq!(boards.len(), path.len() + 1);
    for (k, (b, pos)) in boards.iter().zip(&positions).enumerate() {
        let g = grid(b.as_str().unwrap());
        assert_eq!(
            &cells_of(&g, b'X'),
            pos,
            "board {k}:\n{}",
            b.as_str().unwrap()
        );
    }
}

#[test]
fn solve_named_levels_and_steps() {
    let o = puz(["solve", BLOXORZ, "--level", "no frame"]);
    expect_code(&o, 0, "--level \"no frame\"");
    let out = stdout(&o);
    assert!(out.contains("\"no frame\""), "{out}");
    assert!(out.contains("no solution"), "{out}");

    let o = puz(["solve", BLOXORZ, "--level", "no frame", "--json"]);
    expect_code(&o, 0, "--level \"no frame\" --json");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["solved"], false);
    assert_eq!(v["level"], "no frame");

    let o = puz(["solve", BLOXORZ, "--level", "no frame", "--steps"]);
    expect_code(&o, 0, "--level \"no frame\" --steps");
    assert!(stdout(&o).contains("no solution"));

    // --steps on the sample: the start and ten numbered boards whose blocks follow the path.
    let o = puz(["solve", BLOXORZ, "--level", "sample", "--steps"]);
    expect_code(&o, 0, "--steps");
    let out = stdout(&o);
    let (_, letters) = moves_line(&out);
    let positions = replay(SAMPLE, &letters);
    let (_, boards) = out.split_once("\nstart:\n").expect("a start board");
    let mut seen = vec![];
    for chunk in boards.split("\n\n") {
        let rows: Vec<&str> = chunk.lines().filter(|l| l.starts_with('#')).collect();
        seen.push(cells_of(&grid(&rows.join("\n")), b'X'));
    }
    assert_eq!(seen, positions, "--steps boards:\n{boards}");
    for k in 1..=10 {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{k}: roll "))),
            "no step {k} header:\n{out}"
        );
    }

    let o = puz(["solve", BLOXORZ, "--level", "nope"]);
    expect_code(&o, 2, "--level nope");
    assert!(
        stderr(&o).contains("nope") && stderr(&o).contains("sample"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn solve_level_file() {
    let s = Scratch::new("level");
    let board = "X..\n...\n..O\n";
    let f = s.file("open.txt", board.as_bytes());
    let o = puz(["solve", BLOXORZ, p(&f)]);
    expect_code(&o, 0, "level file");
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "cost: 8 rolls"), "{out}");
    let (n, letters) = moves_line(&out);
    assert_eq!(n, 8);
    replay(board, &letters);

    // Windows line breaks and a missing final line break change nothing.
    let f = s.file("crlf.txt", board.replace('\n', "\r\n").as_bytes());
    let o = puz(["solve", BLOXORZ, p(&f), "--json"]);
    expect_code(&o, 0, "CRLF level file");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["cost"]["rolls"], 8);
    replay(board, v["path"].as_str().unwrap());
    let f = s.file("noeol.txt", board.trim_end().as_bytes());
    let o = puz(["solve", BLOXORZ, p(&f)]);
    expect_code(&o, 0, "level file without a final line break");
    assert!(stdout(&o).contains("cost: 8 rolls"));

    // A lying start, unsolvable.
    let f = s.file("stuck.txt", b"XX#O\n####\n....\n");
    let o = puz(["solve", BLOXORZ, p(&f)]);
    expect_code(&o, 0, "unsolvable level file");
    assert!(stdout(&o).contains("no solution"), "{}", stdout(&o));

    // A level file and --level together are refused by the argument parser.
    let o = puz(["solve", BLOXORZ, p(&f), "--level", "sample"]);
    expect_code(&o, 2, "level file and --level");
    assert!(o.stdout.is_empty());
}

#[test]
fn solve_rejects_bad_level_files() {
    let s = Scratch::new("badlevel");
    // (file name, contents, diagnostic code, a further text the diagnostic must contain)
    let cases: [(&str, &str, &str, &str); 8] = [
        (
            "unknown.txt",
            "X..\n.Z.\n..O\n",
            "puz::level::unknown_symbol",
            "'Z'",
        ),
        (
            "ragged.txt",
            "X..\n..\n..O\n",
            "puz::level::ragged",
            "row 2 has 2 cells",
        ),
        (
            "nox.txt",
            "...\n...\n..O\n",
            "puz::level::missing_marker",
            "block",
        ),
        (
            "noo.txt",
            "X..\n...\n...\n",
            "puz::level::missing_marker",
            "target",
        ),
        (
            "twoo.txt",
            "X.O\n...\n..O\n",
            "puz::level::too_many_markers",
            "target",
        ),
        (
            "ell.txt",
            "XX.\nX..\n..O\n",
            "puz::level::no_matching_pose",
            "block",
        ),
        (
            "three.txt",
            "XXX\n...\n..O\n",
            "puz::level::no_matching_pose",
            "block",
        ),
        (
            "twox.txt",
            "X.X\n...\n..O\n",
            "puz::level::too_many_markers",
            "block",
        ),
    ];
    for (name, text, code, detail) in cases {
        let f = s.file(name, text.as_bytes());
        let o = puz(["solve", BLOXORZ, p(&f)]);
        expect_code(&o, 2, name);
        let err = stderr(&o);
        assert!(err.contains(code), "{name}: expected {code} in:\n{err}");
        assert!(
            err.contains(detail),
            "{name}: expected {detail:?} in:\n{err}"
        );
        assert!(
            err.contains(name),
            "{name}: the diagnostic should name the file:\n{err}"
        );
        assert!(
            o.stdout.is_empty(),
            "{name}: no answer expected, got:\n{}",
            stdout(&o)
        );
    }
    // A missing level file.
    let o = puz(["solve", BLOXORZ, p(&s.0.join("missing.txt"))]);
    expect_code(&o, 2, "missing level file");
    assert!(stderr(&o).contains("missing.txt"), "{}", stderr(&o));
}

#[test]
fn fast_engine_is_refused_without_an_answer() {
    // Standing on fragile floor allowed: the rules no longer match the Bloxorz fast path.
    let text = std::fs::read_to_string(BLOXORZ).expect("read bloxorz.puz");
    let altered = text.replace("forbid block.stand on fragile", "");
    assert_ne!(text, altered);
    let s = Scratch::new("fast");
    let f = s.file("altered.puz", altered.as_bytes());
    let o = puz(["solve", p(&f), "--engine", "fast"]);
    expect_code(&o, 4, "--engine fast");
    assert!(
        o.stdout.is_empty(),
        "no answer expected, got:\n{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("no fast path"), "{}", stderr(&o));

    let o = puz_stdin(
        &["judge", p(&f), "--engine", "fast"],
        b"3 3\nX..\n...\n..O\n0 0\n",
    );
    expect_code(&o, 4, "judge --engine fast");
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    assert!(stderr(&o).contains("no fast path"), "{}", stderr(&o));

    for engine in ["auto", "interp"] {
        let o = puz(["solve", p(&f), "--engine", engine, "-v"]);
        expect_code(&o, 0, engine);
        assert!(stderr(&o).contains("engine interpreter"), "{}", stderr(&o));
    }
    // The shipped file matches the fast path; every engine gives the same answer.
    for engine in ["auto", "interp", "fast"] {
        let o = puz(["solve", BLOXORZ, "--engine", engine]);
        expect_code(&o, 0, engine);
        assert!(stdout(&o).contains("cost: 10 rolls"));
    }
}

#[test]
fn state_budget_stops_without_an_answer() {
    let o = puz(["solve", BLOXORZ, "--max-states", "5"]);
    expect_code(&o, 3, "--max-states 5");
    assert!(
        o.stdout.is_empty(),
        "no answer expected, got:\n{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("state limit"), "{}", stderr(&o));

    let o = puz(["solve", BLOXORZ, "--max-states", "5", "--json"]);
    expect_code(&o, 3, "--max-states 5 --json");
    assert!(o.stdout.is_empty(), "{}", stdout(&o));

    // A generous budget changes nothing.
    let o = puz([
        "solve",
        BLOXORZ,
        "--max-states",
        "100000",
        "--timeout",
        "60",
    ]);
    expect_code(&o, 0, "generous budget");
    assert!(stdout(&o).contains("cost: 10 rolls"));

    // In judge mode the earlier answers stay printed.
    let case = "3 3\nX..\n...\n..O\n";
    let big = "9 9\nX........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n........O\n";
    let o = puz_stdin(
        &["judge", BLOXORZ, "--max-states", "30"],
        format!("{case}{big}0 0\n").as_bytes(),
    );
    expect_code(&o, 3, "judge --max-states");
    assert_eq!(stdout(&o), "8\n");
    assert!(stderr(&o).contains("case 2"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------
// judge mode: malformed inputs
// ---------------------------------------------------------------------------------------

#[test]
fn judge_reads_stdin() {
    let o = puz_stdin(
        &["judge", BLOXORZ],
        format!("7 7\n{SAMPLE}\n0 0\n").as_bytes(),
    );
    expect_code(&o, 0, "judge sample");
    assert_eq!(stdout(&o), "10\n");
    assert!(o.stderr.is_empty(), "{}", stderr(&o));

    let o = puz_stdin(&["judge", BLOXORZ, "-"], b"0 0\n");
    expect_code(&o, 0, "judge with no cases");
    assert_eq!(stdout(&o), "");
}

#[test]
fn judge_malformed_inputs_name_line_and_column() {
    const GOOD: &str = "3 3\nX..\n...\n..O\n";
    // (what, input, line, column, stdout printed before the error)
    let cases: Vec<(&str, String, usize, usize, &str)> = vec![
        (
            "non-numeric header",
            "a 3\nX..\n...\n..O\n0 0\n".into(),
            1,
            1,
            "",
        ),
        (
            "non-numeric columns",
            "3 b\nX..\n...\n..O\n0 0\n".into(),
            1,
            3,
            "",
        ),
        ("header with one number", "3\n".into(), 2, 1, ""),
        (
            "trailing junk after the header",
            "3 3 7\nX..\n...\n..O\n0 0\n".into(),
            1,
            5,
            "",
        ),
        (
            "junk glued to the header",
            "3 3x\nX..\n...\n..O\n0 0\n".into(),
            1,
            3,
            "",
        ),
        ("zero rows", "0 3\n0 0\n".into(), 1, 1, ""),
        ("short row", "3 3\nX..\n..\n..O\n0 0\n".into(), 3, 3, ""),
        ("long row", "3 3\nX..\n....\n..O\n0 0\n".into(), 3, 4, ""),
        (
            "unknown character",
            "3 3\nX..\n.Z.\n..O\n0 0\n".into(),
            3,
            2,
            "",
        ),
        ("missing rows", "3 3\nX..\n".into(), 3, 1, ""),
        (
            "missing terminator",
            format!("{GOOD}{GOOD}"),
            9,
            1,
            "8\n8\n",
        ),
        (
            "case with no X",
            format!("{GOOD}3 3\n...\n...\n..O\n0 0\n"),
            6,
            1,
            "8\n",
        ),
        (
            "case with two O",
            "3 3\nX.O\n...\n..O\n0 0\n".into(),
            2,
            3,
            "",
        ),
        (
            "case with no O",
            "3 3\nX..\n...\n...\n0 0\n".into(),
            2,
            1,
            "",
        ),
        (
            "two separate X groups",
            "3 3\nX.X\n...\n..O\n0 0\n".into(),
            2,
            1,
            "",
        ),
        (
            "X cells matching no pose",
            "3 3\nXX.\nX..\n..O\n0 0\n".into(),
            2,
            1,
            "",
        ),
        (
            "bad second case",
            format!("{GOOD}3 3\nX..\n.#\n..O\n0 0\n"),
            7,
            3,
            "8\n",
        ),
        (
            "huge header number",
            "99999999999999999999 3\n".into(),
            1,
            1,
            "",
        ),
        ("board too large", "100000 100000\n".into(), 1, 1, ""),
    ];
    for (what, input, line, col, before) in cases {
        let o = puz_stdin(&["judge", BLOXORZ], input.as_bytes());
        expect_code(&o, 2, what);
        let err = stderr(&o);
        let at = format!(":{line}:{col}]");
        assert!(
            err.contains(&at),
            "{what}: expected `{at}` in stderr:\n{err}"
        );
        assert_eq!(stdout(&o), before, "{what}: stdout");

        // The same through a file argument.
        let s = Scratch::new("judge");
        let f = s.file("case.in", input.as_bytes());
        let o2 = puz(["judge", BLOXORZ, p(&f)]);
        expect_code(&o2, 2, what);
        assert!(stderr(&o2).contains(&at), "{what} (file): {}", stderr(&o2));
        assert_eq!(stdout(&o2), before, "{what} (file): stdout");
    }
}

#[test]
fn judge_empty_or_blank_input_is_a_clear_error() {
    for (what, input) in [
        ("empty", ""),
        ("blank", "   \n\n \t\n"),
        ("blank lines", "\n\n\n"),
    ] {
        let o = puz_stdin(&["judge", BLOXORZ], input.as_bytes());
        expect_code(&o, 2, what);
        let err = stderr(&o);
        assert!(err.contains("empty"), "{what}: {err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn unreadable_files_are_clear_errors() {
    let s = Scratch::new("files");
    let bad = s.file("bad.puz", b"\xff\xfepuzzle \"x\"\n");
    let empty = s.file("empty.puz", b"");
    let blank = s.file("blank.puz", b"  \n\n");
    let bad_in = s.file("bad.in", b"3 3\nX..\n\xff..\n..O\n0 0\n");
    let empty_in = s.file("empty.in", b"");
    let bad_level = s.file("bad.txt", b"X..\n.\xc3.\n..O\n");
    let missing = s.0.join("missing.puz");

    let runs: Vec<(&str, Vec<&str>, &str)> = vec![
        ("check non-UTF-8 .puz", vec!["check", p(&bad)], "not UTF-8"),
        ("solve non-UTF-8 .puz", vec!["solve", p(&bad)], "not UTF-8"),
        (
            "judge non-UTF-8 .puz",
            vec!["judge", p(&bad), p(&empty_in)],
            "not UTF-8",
        ),
        ("check empty .puz", vec!["check", p(&empty)], "empty"),
        ("check blank .puz", vec!["check", p(&blank)], "empty"),
        ("solve empty .puz", vec!["solve", p(&empty)], "empty"),
        ("judge empty .puz", vec!["judge", p(&empty)], "empty"),
        (
            "judge non-UTF-8 input",
            vec!["judge", BLOXORZ, p(&bad_in)],
            "not UTF-8",
        ),
        (
            "judge empty input",
            vec!["judge", BLOXORZ, p(&empty_in)],
            "empty",
        ),
        (
            "solve non-UTF-8 level",
            vec!["solve", BLOXORZ, p(&bad_level)],
            "not UTF-8",
        ),
        (
            "solve empty level",
            vec!["solve", BLOXORZ, p(&empty_in)],
            "empty",
        ),
        (
            "check missing .puz",
            vec!["check", p(&missing)],
            "missing.puz",
        ),
    ];
    for (what, args, needle) in runs {
        let o = puz(&args);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{what}: panicked:\n{err}");
        assert!(
            o.status.code().is_some_and(|c| c != 0 && c != 101),
            "{what}: exit {:?}\n{err}",
            o.status.code()
        );
        assert!(
            err.contains(needle),
            "{what}: expected {needle:?} in:\n{err}"
        );
        assert!(o.stdout.is_empty(), "{what}: {}", stdout(&o));
    }

    // Non-UTF-8 judge input on stdin.
    let o = puz_stdin(&["judge", BLOXORZ], b"3 3\nX..\n\xff..\n..O\n0 0\n");
    expect_code(&o, 2, "non-UTF-8 stdin");
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------
// Regressions: bugs found by these tests and since fixed
// ---------------------------------------------------------------------------------------

#[test]
fn huge_timeout_does_not_panic() {
    for t in ["inf", "1e300"] {
        let o = puz(["solve", BLOXORZ, "--timeout", t]);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "--timeout {t} panicked:\n{err}");
        assert_ne!(o.status.code(), Some(101), "--timeout {t}");
    }
}

#[test]
fn leading_blank_line_in_level_file() {
    // Blank lines before the first row are skipped (as judge mode skips them): the level
    // is the 3 x 3 one without them, with the same answer, and nothing on stderr.
    let with = Scratch::new("lead");
    let without = Scratch::new("nolead");
    let f = with.file("level.txt", b"\nX..\n...\n..O\n");
    let g = without.file("level.txt", b"X..\n...\n..O\n");
    let o = puz(["solve", BLOXORZ, p(&f)]);
    expect_code(&o, 0, "leading blank line");
    assert_eq!(stderr(&o), "", "no diagnostic for a leading blank line");
    let out = stdout(&o);
    let head = format!(
        "puzzle: Bloxorz / level {:?} (3 x 3)\ncost: 8 rolls\n",
        p(&f)
    );
    assert!(out.starts_with(&head), "{out}");
    let plain = puz(["solve", BLOXORZ, p(&g)]);
    expect_code(&plain, 0, "the same level without the blank line");
    // The same answer, but for the level's name (its path) on the first line.
    let body = |s: &str| s.split_once('\n').map(|(_, b)| b.to_string());
    assert_eq!(
        body(&out),
        body(&stdout(&plain)),
        "the blank line changed the answer"
    );
}

#[test]
fn judge_columns_count_characters() {
    // The fourth character of the row is the one too many: column 4, not byte column 7.
    let o = puz_stdin(&["judge", BLOXORZ], "3 3\nééé.\n".as_bytes());
    expect_code(&o, 2, "long row of multi-byte characters");
    assert!(stderr(&o).contains(":2:4]"), "{}", stderr(&o));
}

const NPUZZLE: &str = "puzzles/npuzzle.puz";

/// The moves of an answer: everything after its first line (which names the level).
fn answer_body(o: &Output) -> String {
    let out = stdout(o);
    out.split_once('\n')
        .map_or(out.clone(), |(_, b)| b.to_string())
}

/// A level file may draw its goal picture after a blank line and a line `goal`: the
/// answer is the inline level's (`8-puzzle`, whose picture is the same), whatever the
/// byte-order mark, line breaks and blank lines around the parts.
#[test]
fn a_level_file_draws_its_goal_picture_after_a_goal_line() {
    let s = Scratch::new("goalfile");
    let inline = puz(["solve", NPUZZLE, "--level", "8-puzzle"]);
    expect_code(&inline, 0, "the inline level");
    assert!(stdout(&inline).contains("\ncost: 31 moves\n"));
    for (name, text) in [
        (
            "plain.txt",
            "867\n254\n3_1\n\ngoal\n123\n456\n78_\n".to_string(),
        ),
        (
            "spaced.txt",
            "\u{feff}\n867\r\n254\r\n3_1\r\n \t\r\n\r\ngoal\r\n\r\n123\r\n456\r\n78_\r\n\r\n"
                .to_string(),
        ),
        (
            "noeol.txt",
            "867\n254\n3_1\n\ngoal\n123\n456\n78_".to_string(),
        ),
    ] {
        let f = s.file(name, text.as_bytes());
        let o = puz(["solve", NPUZZLE, p(&f)]);
        expect_code(&o, 0, name);
        assert_eq!(answer_body(&o), answer_body(&inline), "{name}");
    }
    // Another picture, another answer: the picture is the goal.
    let f = s.file("near.txt", b"123\n456\n7_8\n\ngoal\n123\n456\n78_\n");
    let o = puz(["solve", NPUZZLE, p(&f)]);
    expect_code(&o, 0, "one move from the goal");
    assert!(stdout(&o).contains("\ncost: 1 move\n"), "{}", stdout(&o));
    // Without a picture, rules whose goals are all pictures have none.
    let f = s.file("nogoal.txt", b"867\n254\n3_1\n");
    let o = puz(["solve", NPUZZLE, p(&f)]);
    expect_code(&o, 2, "no goal");
    assert!(stderr(&o).contains("puz::level::no_goal"), "{}", stderr(&o));
}

/// A goal picture in a level file is read by the grid reader that reads inline
/// pictures: the same codes, at the line and column of the level file; a `goal` line
/// right after a row (no blank line) is a row, read as such.
#[test]
fn a_level_files_goal_picture_has_the_diagnostics_of_an_inline_one() {
    let s = Scratch::new("goalbad");
    let head = "867\n254\n3_1\n\ngoal\n";
    // (the picture, its code, line:col in the level file)
    let cases = [
        ("123\n45\n78_\n", "puz::level::ragged", "7:1"),
        ("12x\n456\n78_\n", "puz::level::unknown_symbol", "6:3"),
        ("123\n45_\n", "puz::level::picture_size", "5:1"),
        ("123\n456\n788\n", "puz::level::missing_marker", "5:1"),
        ("\n", "puz::level::empty", "5:1"),
    ];
    let rules = std::fs::read_to_string(NPUZZLE).expect("npuzzle.puz");
    for (pic, code, at) in cases {
        let f = s.file("bad.txt", format!("{head}{pic}").as_bytes());
        let o = puz(["solve", NPUZZLE, p(&f)]);
        expect_code(&o, 2, code);
        let err = stderr(&o);
        assert!(err.contains(code), "{code}:\n{err}");
        assert!(
            err.contains(&format!("{}:{at}]", p(&f))),
            "{code} at {at}:\n{err}"
        );
        // The same picture inline: the same code.
        let drawn: String = pic.lines().map(|l| format!("  {l}\n")).collect();
        let puzfile = s.file(
            "inline.puz",
            format!("{rules}\nlevel \"bad\" \"\"\"\n  867\n  254\n  3_1\n  \"\"\" goal \"\"\"\n{drawn}  \"\"\"\n")
                .as_bytes(),
        );
        let o = puz(["check", p(&puzfile)]);
        expect_code(&o, 1, code);
        assert!(stderr(&o).contains(code), "inline {code}:\n{}", stderr(&o));
    }
    // No blank line before `goal`: a fifth row of four unknown symbols.
    let f = s.file("nosep.txt", b"867\n254\n3_1\ngoal\n123\n456\n78_\n");
    let o = puz(["solve", NPUZZLE, p(&f)]);
    expect_code(&o, 2, "goal as a row");
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:4:1]", p(&f))), "{err}");
    assert!(err.contains("symbol 'g' is not in the legend"), "{err}");
}

/// A legend may use the letters of `goal`: then `goal` is a row wherever no blank line
/// comes before it, and a blank line still starts the picture.
#[test]
fn a_goal_line_is_a_row_of_a_legend_with_those_letters() {
    let s = Scratch::new("goalrow");
    let rules = s.file(
        "letters.puz",
        b"puzzle \"Letters\"\ntiles { floor }\nmarks { target }\npiece man\n\
          legend { 'g' floor 'o' floor 'a' floor 'l' floor 'M' floor + man 'T' floor + target }\n\
          dirs { s (1, 0) e (0, 1) }\nmove walk(d) { shift man d }\ngoal man on target\n",
    );
    let f = s.file("rows.txt", b"Mgoa\ngoal\nlgoT\n");
    let o = puz(["solve", p(&rules), p(&f)]);
    expect_code(&o, 0, "goal as a row");
    assert!(
        stdout(&o).contains("(3 x 4)\ncost: 5 moves\n"),
        "{}",
        stdout(&o)
    );
    // After a blank line, the picture, and-ed with the rules' goal: drawing the man on
    // the target changes nothing, drawing him elsewhere leaves no solution.
    let f = s.file("on.txt", b"Mgoa\ngoal\nlgoT\n\ngoal\ngoal\ngoal\nlgoM\n");
    let o = puz(["solve", p(&rules), p(&f)]);
    expect_code(&o, 0, "the man drawn on the target");
    assert!(
        stdout(&o).contains("(3 x 4)\ncost: 5 moves\n"),
        "{}",
        stdout(&o)
    );
    let f = s.file("off.txt", b"Mgoa\ngoal\nlgoT\n\ngoal\ngoal\ngMoa\nlgoa\n");
    let o = puz(["solve", p(&rules), p(&f)]);
    expect_code(&o, 0, "the man drawn off the target");
    assert!(stdout(&o).contains("\nno solution:"), "{}", stdout(&o));
}
