//! Judge mode for Bloxorz (POJ 3322, AcWing 172): the output must match the judge's
//! expected output byte for byte.
//!
//! The reference data is vendored in `tests/data/bloxorz_poj3322/`
//! (see `tests/data/README.md`). Missing data fails the tests loudly.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use puz::io::judge::{run_judge, JudgeOptions};
use puz::Puzzle;

const SAMPLE: &str = "7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n0 0\n";

fn load_puzzle() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/bloxorz.puz").expect("read puzzles/bloxorz.puz");
    Puzzle::load("bloxorz.puz", text).unwrap_or_else(|d| panic!("bloxorz.puz does not load: {d:?}"))
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bloxorz_poj3322")
        .join(name)
}

fn read_data(name: &str) -> String {
    let path = data(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the shared judge data {}: {e}\n\
             these tests need tests/data/bloxorz_poj3322",
            path.display()
        )
    })
}

fn judge(puzzle: &Puzzle, input: &str) -> String {
    let mut out: Vec<u8> = vec![];
    run_judge(puzzle, input, &mut out, &JudgeOptions::default())
        .unwrap_or_else(|e| panic!("judge failed: {e}"));
    String::from_utf8(out).expect("judge output is UTF-8")
}

#[test]
fn seed_sample_prints_exactly_ten() {
    let puzzle = load_puzzle();
    assert_eq!(judge(&puzzle, SAMPLE), "10\n");
}

#[test]
fn sample_layout_variants_print_the_same() {
    let puzzle = load_puzzle();
    let variants = [
        // No line break after the terminator.
        SAMPLE.trim_end().to_string(),
        // Windows line breaks.
        SAMPLE.replace('\n', "\r\n"),
        // Blank lines before, between and after.
        format!("\n\n{}\n\n", SAMPLE.replace("7 7\n", "7 7\n\n")),
        // Extra spaces around the header numbers.
        SAMPLE
            .replace("7 7\n", "  7   7  \n")
            .replace("0 0\n", " 0  0 \n"),
    ];
    for (i, v) in variants.iter().enumerate() {
        assert_eq!(judge(&puzzle, v), "10\n", "variant {i}: {v:?}");
    }
    // Three copies of the case: three answers.
    let three = format!("{0}{0}{0}0 0\n", SAMPLE.trim_end_matches("0 0\n"));
    assert_eq!(judge(&puzzle, &three), "10\n10\n10\n");
}

#[test]
fn small_data_set_matches_byte_for_byte() {
    let puzzle = load_puzzle();
    let input = read_data("BoxGame1_small.in");
    let expected = read_data("BoxGame1_small.out");
    assert_eq!(expected.lines().count(), 23, "the data set has 23 cases");
    let got = judge(&puzzle, &input);
    for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "case {} differs", i + 1);
    }
    assert_eq!(got.as_bytes(), expected.as_bytes());
}

/// Four boards of up to 500 x 500 (answers 55110, 668, Impossible, 666). About 6 s in a
/// debug build, well under a second in release.
#[test]
fn big_data_set_matches_byte_for_byte() {
    let puzzle = load_puzzle();
    let input = read_data("BoxGame1_big_1-4.in");
    let expected = read_data("BoxGame1_big_1-4.out");
    assert_eq!(expected, "55110\n668\nImpossible\n666\n");
    let t = Instant::now();
    let got = judge(&puzzle, &input);
    eprintln!("big data set: {:.2}s", t.elapsed().as_secs_f64());
    assert_eq!(got.as_bytes(), expected.as_bytes());
}

#[test]
fn binary_judges_small_data_from_stdin_and_from_a_file() {
    let expected = read_data("BoxGame1_small.out");
    let input = read_data("BoxGame1_small.in");
    let mut child = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["judge", "puzzles/bloxorz.puz"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run puz");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("wait for puz");
    writer.join().unwrap().expect("write stdin");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, expected.as_bytes());

    let out = Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["judge", "puzzles/bloxorz.puz"])
        .arg(data("BoxGame1_small.in"))
        .output()
        .expect("run puz");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, expected.as_bytes());
    assert!(
        out.stderr.is_empty(),
        "unexpected stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
