//! Robustness of input and output, through the binary: reports on lines of any length,
//! judge headers that announce more than they hold, closed pipes and full disks, and the
//! small input cases (byte-order marks, Unicode spaces, coordinate overflow). Every run
//! must end with the documented exit code, quickly, and never with a panic.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_puz");
const BLOXORZ: &str = "puzzles/bloxorz.puz";
const SOKOBAN: &str = "puzzles/sokoban.puz";
const HUARONG: &str = "puzzles/huarong.puz";
/// Every run here must end within this time (debug build, shared machine).
const LIMIT: Duration = Duration::from_secs(20);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> String {
    root()
        .join("tests/data/robustness")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(root());
    c
}

/// Waits for `child`, failing the test past [`LIMIT`].
fn finish(mut child: Child, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("poll puz").is_some() {
            return child.wait_with_output().expect("collect output");
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{what}: still running after {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs puz with `stdin` as its input, capturing both outputs. Output is read on other
/// threads, so a large report cannot block the child.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let what = args.join(" ");
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn puz");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let outs = std::thread::spawn(move || {
        let mut v = vec![];
        let _ = out.read_to_end(&mut v);
        v
    });
    let errs = std::thread::spawn(move || {
        let mut v = vec![];
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = finish(child, &what).status;
    let _ = feeder.join();
    Output {
        status,
        stdout: outs.join().expect("stdout reader"),
        stderr: errs.join().expect("stderr reader"),
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code is `code` and nothing panicked.
fn expect_code(o: &Output, code: i32, what: &str) {
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{what}: panicked:\n{err}");
    assert_eq!(o.status.code(), Some(code), "{what}: stderr:\n{err}");
}

/// A scratch directory removed at the end of the test.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("puz-robust-io-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).expect("write scratch file");
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------
// Reports on long lines
// ---------------------------------------------------------------------------------------

#[test]
fn syntax_error_past_column_65536_renders() {
    let o = run(&["check", &data("long_line_syntax_err.puz")], b"");
    expect_code(&o, 1, "check long_line_syntax_err.puz");
    let err = stderr(&o);
    assert!(
        err.contains(":1:70001]"),
        "the header names the real column:\n{err}"
    );
    assert!(err.contains("zzz"), "the offending token is shown:\n{err}");
    assert!(
        err.len() < 10_000,
        "a cut line, not 70,000 blanks: {} bytes",
        err.len()
    );
}

#[test]
fn level_file_error_past_column_65536_renders() {
    let o = run(&["solve", SOKOBAN, &data("long_row_level_file.txt")], b"");
    expect_code(&o, 2, "solve sokoban long_row_level_file.txt");
    let err = stderr(&o);
    assert!(err.contains("puz::level::unknown_symbol"), "{err}");
    assert!(err.contains(":1:70002]"), "{err}");
}

#[test]
fn generated_200k_column_lines_render() {
    let s = Scratch::new("long");
    let wide = 200_000;
    // A syntax error at the very end of a 200k-column line.
    let puz = s.file(
        "end.puz",
        format!("puzzle \"x\"\n{}zzz\n", " ".repeat(wide)).as_bytes(),
    );
    let o = run(&["check", &puz], b"");
    expect_code(&o, 1, "syntax error at column 200001");
    assert!(
        stderr(&o).contains(&format!(":2:{}]", wide + 1)),
        "{}",
        stderr(&o)
    );

    // Unknown symbols spread along a 200k-column row, multi-byte ones among them, and a
    // ragged second row: many labels on one line, columns counted in characters.
    let mut row = String::new();
    for i in 0..wide {
        row.push(match i {
            0 => 'X',
            i if i % 9_973 == 0 => 'é',
            i if i == wide - 1 => 'Z',
            _ => '.',
        });
    }
    let level = s.file("wide.txt", format!("{row}\n..O\n").as_bytes());
    let o = run(&["solve", BLOXORZ, &level], b"");
    expect_code(&o, 2, "unknown symbols on a 200k-column row");
    let err = stderr(&o);
    assert!(err.contains("puz::level::unknown_symbol"), "{err}");
    assert!(err.contains(":1:9974]"), "column in characters:\n{err}");
    assert!(err.contains("puz::level::ragged"), "{err}");
    assert!(err.len() < 200_000, "report of {} bytes", err.len());

    // A row of nothing but unknown symbols: one problem for the run, the report small.
    let junk = s.file("junk.txt", format!("{}\n", "@".repeat(wide)).as_bytes());
    let o = run(&["solve", BLOXORZ, &junk], b"");
    expect_code(&o, 2, "a 200k-column row of unknown symbols");
    let err = stderr(&o);
    assert!(err.contains("200000 cells in a row"), "{err}");
    assert_eq!(
        err.matches("puz::level::unknown_symbol").count(),
        1,
        "{err}"
    );
    // Many rows of runs: twenty problems shown, the rest counted.
    let rows = "@.".repeat(20) + "\n";
    let junk = s.file("junk2.txt", rows.repeat(3).as_bytes());
    let o = run(&["solve", BLOXORZ, &junk], b"");
    expect_code(&o, 2, "rows of many unknown runs");
    let err = stderr(&o);
    assert!(err.contains("40 more cells of this level"), "{err}");
    assert!(err.len() < 100_000, "report of {} bytes", err.len());

    // Judge input: a board row 200k characters wide, one too many.
    let input = format!("1 {}\n{}X\n0 0\n", wide, ".".repeat(wide));
    let o = run(&["judge", BLOXORZ], input.as_bytes());
    expect_code(&o, 2, "judge row one too wide");
    let err = stderr(&o);
    assert!(err.contains("puz::input::row_width"), "{err}");
    assert!(err.contains(&format!(":2:{}]", wide + 1)), "{err}");
}

#[test]
fn any_span_renders_through_the_library() {
    use puz::diagnostics::{render_plain, Diagnostics, Problem};
    use std::sync::Arc;
    let text = Arc::new(format!("{}\n{}", "x".repeat(200_000), "é".repeat(70_000)));
    let spans: Vec<(usize, usize)> = vec![
        (199_999, 1),              // the end of a long line
        (0, text.len()),           // everything, over two long lines
        (200_001 + 2 * 65_537, 2), // past column 65,536 of a multi-byte line
        (text.len(), 0),           // the very end
        (text.len() + 10, 5),      // past the end
        (200_002, 1),              // inside a multi-byte character
    ];
    for (at, len) in spans {
        let d = Diagnostics::new(
            "span.puz",
            text.clone(),
            vec![Problem::EmptyLevel {
                span: (at, len).into(),
            }],
        );
        let shown = render_plain(&d, 80);
        assert!(
            shown.contains("level is empty"),
            "span ({at}, {len}):\n{shown}"
        );
        assert!(
            shown.len() < 20_000,
            "span ({at}, {len}): {} bytes",
            shown.len()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Allocation bombs: sizes announced by the input
// ---------------------------------------------------------------------------------------

/// Runs through `sh` with the address space capped at 1 GiB: a run that tried to
/// allocate from an announced size would abort.
fn run_capped(args: &[&str]) -> Output {
    let mut line = String::from("ulimit -v 1048576; exec \"$0\"");
    for i in 0..args.len() {
        line.push_str(&format!(" \"${}\"", i + 1));
    }
    let child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .arg(BIN)
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sh");
    finish(child, &args.join(" "))
}

#[test]
fn judge_headers_announcing_huge_boards_cost_nothing() {
    for f in ["judge_header_268435456_rows_oom.txt", "judge_mutant_oom.in"] {
        let o = run_capped(&["judge", BLOXORZ, &data(f)]);
        expect_code(&o, 2, f);
        let err = stderr(&o);
        assert!(err.contains("puz::input::missing_row"), "{f}:\n{err}");
        assert!(err.contains("268435456"), "{f}:\n{err}");
    }
    // The ints form and a board one past the limit.
    let o = run(&["judge", "puzzles/curling.puz"], b"1 268435456\n0\n0 0\n");
    expect_code(&o, 2, "curling header with 2^28 rows");
    let o = run(&["judge", BLOXORZ], b"268435457 1\n");
    expect_code(&o, 2, "one cell past the limit");
    let err = stderr(&o);
    assert!(err.contains("puz::input::board_too_large"), "{err}");
    assert!(
        err.contains("268435456"),
        "the error names the limit:\n{err}"
    );
    let o = run(
        &["judge", BLOXORZ],
        b"9223372036854775807 9223372036854775807\n",
    );
    expect_code(&o, 2, "i64::MAX squared");
    assert!(stderr(&o).contains("puz::input::board_too_large"));
}

// ---------------------------------------------------------------------------------------
// Output errors
// ---------------------------------------------------------------------------------------

/// `puz ARGS` with stdout a pipe whose reader is closed at once: the run must end
/// quietly with 0.
fn closed_stdout(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn puz");
    drop(child.stdout.take());
    let mut input = child.stdin.take().expect("stdin");
    let _ = input.write_all(stdin);
    drop(input);
    finish(child, &args.join(" "))
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let o = closed_stdout(
        &["compile", &data("compile_json_broken_pipe.puz"), "--json"],
        b"",
    );
    expect_code(&o, 0, "compile --json | head");
    assert!(o.stderr.is_empty(), "quietly: {}", stderr(&o));

    let mut many = String::new();
    for _ in 0..200 {
        many.push_str("3 3\nX..\n...\n..O\n");
    }
    many.push_str("0 0\n");
    let o = closed_stdout(&["judge", BLOXORZ], many.as_bytes());
    expect_code(&o, 0, "judge | head");
    assert!(o.stderr.is_empty(), "quietly: {}", stderr(&o));

    let o = closed_stdout(&["solve", SOKOBAN], b"");
    expect_code(&o, 0, "solve | head");

    // And the same through a real `head`, as the reproducer runs it.
    let o = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" compile \"$1\" --json | head -c 10 >/dev/null")
        .arg(BIN)
        .arg(data("compile_json_broken_pipe.puz"))
        .stderr(Stdio::piped())
        .output()
        .expect("run sh");
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

fn dev_full() -> Option<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()
}

#[test]
fn a_full_disk_is_an_error() {
    let Some(full) = dev_full() else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let runs: Vec<Vec<String>> = vec![
        vec!["solve".into(), SOKOBAN.into()],
        vec!["check".into(), BLOXORZ.into()],
        vec![
            "compile".into(),
            data("compile_json_broken_pipe.puz"),
            "--json".into(),
        ],
        vec!["compile".into(), BLOXORZ.into(), "--dump".into()],
        vec!["--help".into()],
    ];
    for args in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let child = cmd(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(full.try_clone().expect("clone /dev/full")))
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn puz");
        let o = finish(child, &args.join(" "));
        expect_code(&o, 8, &args.join(" "));
        assert!(
            stderr(&o).contains("cannot write the output"),
            "{}",
            stderr(&o)
        );
    }
    // Judge answers lost to a full disk.
    let mut child = cmd(&["judge", BLOXORZ])
        .stdin(Stdio::piped())
        .stdout(Stdio::from(full.try_clone().expect("clone /dev/full")))
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn puz");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(b"3 3\nX..\n...\n..O\n0 0\n").expect("feed");
    drop(input);
    let o = finish(child, "judge > /dev/full");
    expect_code(&o, 8, "judge > /dev/full");
}

#[test]
fn a_full_stderr_does_not_panic() {
    let Some(full) = dev_full() else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let runs: Vec<(Vec<String>, i32)> = vec![
        (vec!["check".into(), data("long_line_syntax_err.puz")], 1),
        (
            vec![
                "solve".into(),
                SOKOBAN.into(),
                "--stats".into(),
                "-v".into(),
            ],
            0,
        ),
        (
            vec!["judge".into(), BLOXORZ.into(), data("judge_mutant_oom.in")],
            2,
        ),
        (vec!["no-such-command".into()], 2),
    ];
    for (args, code) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let child = cmd(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(full.try_clone().expect("clone /dev/full")))
            .spawn()
            .expect("spawn puz");
        let o = finish(child, &args.join(" "));
        assert_eq!(o.status.code(), Some(code), "{}", args.join(" "));
    }
}

// ---------------------------------------------------------------------------------------
// Judge input errors are diagnostics; small input cases
// ---------------------------------------------------------------------------------------

#[test]
fn judge_errors_are_diagnostics_with_spans() {
    let s = Scratch::new("diag");
    let f = s.file("bad.in", b"3 3\nX..\n.Z.\n..O\n0 0\n");
    let o = run(&["judge", BLOXORZ, &f], b"");
    expect_code(&o, 2, "unknown cell");
    let err = stderr(&o);
    assert!(err.contains("puz::level::unknown_symbol"), "{err}");
    assert!(
        err.contains("bad.in:3:2]"),
        "named source and position:\n{err}"
    );
    assert!(err.contains("not in the legend"), "a label:\n{err}");
    assert!(err.contains("help:"), "a help:\n{err}");
    let o = run(&["judge", BLOXORZ], b"3 b\n");
    expect_code(&o, 2, "non-numeric header on stdin");
    let err = stderr(&o);
    assert!(err.contains("puz::input::expected_number"), "{err}");
    assert!(err.contains("standard input:1:3]"), "{err}");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let s = Scratch::new("bom");
    let bom = "\u{feff}";
    let rules = std::fs::read_to_string(root().join(BLOXORZ)).expect("read bloxorz.puz");
    let puz = s.file("bom.puz", format!("{bom}{rules}").as_bytes());
    let o = run(&["check", &puz], b"");
    expect_code(&o, 0, "a .puz file with a BOM");
    let level = s.file("bom.txt", format!("{bom}X..\n...\n..O\n").as_bytes());
    let o = run(&["solve", BLOXORZ, &level], b"");
    expect_code(&o, 0, "a level file with a BOM");
    let input = format!("{bom}3 3\nX..\n...\n..O\n0 0\n");
    let o = run(&["judge", BLOXORZ], input.as_bytes());
    expect_code(&o, 0, "a judge input with a BOM");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "8\n");
    // The library skips it too.
    let p = puz::Puzzle::load("bom.puz", format!("{bom}{rules}")).expect("loads");
    let mut out = vec![];
    puz::io::judge::run_judge(&p, &input, &mut out, &Default::default()).expect("judges");
    assert_eq!(out, b"8\n");
}

#[test]
fn judge_headers_take_only_ascii_blanks() {
    for space in ['\u{3000}', '\u{a0}', '\u{2003}'] {
        let input = format!("3{space}3\nX..\n...\n..O\n0 0\n");
        let o = run(&["judge", BLOXORZ], input.as_bytes());
        expect_code(&o, 2, &format!("header with {space:?}"));
        assert!(
            stderr(&o).contains("puz::input::expected_number"),
            "{space:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn query_coordinates_do_not_wrap() {
    let board = "3 4 2\n0 1 1 1\n0 1 1 0\n0 1 0 0\n";
    let min = i64::MIN;
    for q in [format!("{min} 2 1 2 2 2\n"), format!("3 2 1 {min} 2 2\n")] {
        let input = format!("{board}{q}3 2 1 2 2 2\n");
        let o = run(&["judge", HUARONG], input.as_bytes());
        expect_code(&o, 2, &q);
        let err = stderr(&o);
        assert!(err.contains("puz::input::coordinate_range"), "{q}: {err}");
        assert!(err.contains(&min.to_string()), "{q}: {err}");
    }
    // The largest coordinates are off the board: the query is invalid, not an error.
    let max = i64::MAX;
    let input = format!("{board}{max} {max} 1 2 2 2\n3 2 1 2 2 2\n");
    let o = run(&["judge", HUARONG], input.as_bytes());
    expect_code(&o, 0, "i64::MAX coordinates");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "-1\n2\n");
    assert!(stderr(&o).contains("off the board"), "{}", stderr(&o));
}

#[test]
fn judge_input_errors_keep_their_kind_in_the_library() {
    use puz::io::judge::{run_judge, InputProblem, JudgeError};
    let text = std::fs::read_to_string(root().join(BLOXORZ)).expect("read bloxorz.puz");
    let p = puz::Puzzle::load("bloxorz.puz", text).expect("loads");
    let mut out = vec![];
    let e = run_judge(&p, "268435456 1\n", &mut out, &Default::default())
        .expect_err("a board announced, none given");
    match e {
        JudgeError::Input(i) => assert!(
            matches!(i.problem(), InputProblem::MissingRow { row: 1, .. }),
            "{i:?}"
        ),
        e => panic!("expected an input error, got {e}"),
    }
}
