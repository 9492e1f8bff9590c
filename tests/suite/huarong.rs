//! Randomised differential test of `puzzles/huarong.puz` (Huarong Dao, NOIP 2013 variant,
//! Luogu P1979) against an independent brute force written from the spec
//! (`/work/shared/spec/puzzles.md`, section 3). Nothing here is shared with the crate:
//!
//! - the board is n x m cells, `0` fixed, `1` movable (a piece, or the one blank);
//! - a move swaps the blank with a movable neighbour (n s w e); each move costs 1;
//! - a state is (blank cell, designated piece cell); the goal is the piece on the target;
//! - per query: `0` when the piece already stands on the target (checked first, even for an
//!   otherwise malformed query); else `-1` plus a warning for a malformed query (blank or
//!   piece on a fixed cell or off the board, or blank and piece on the same cell); else the
//!   fewest moves, or `-1`.

use crate::common;

use std::collections::BTreeSet;

use common::huarong::{bfs, judge_input as board_input, Board, Cell};
use puz::io::judge::{run_judge, JudgeOptions, JudgeSummary};
use puz::solver::EngineChoice;
use puz::Puzzle;

/// Both engines: `auto` (a fast path when one matches) and the interpreter.
const ENGINES: [EngineChoice; 2] = [EngineChoice::Auto, EngineChoice::Interp];

// ---------------------------------------------------------------------------------------
// Queries (the brute force is `tests/common/huarong.rs`)
// ---------------------------------------------------------------------------------------

/// A query, 1-based as in the input: `EX EY SX SY TX TY`.
#[derive(Clone, Copy, Debug)]
struct Query([i64; 6]);

impl Query {
    fn blank(&self) -> Cell {
        (self.0[0] - 1, self.0[1] - 1)
    }
    fn piece(&self) -> Cell {
        (self.0[2] - 1, self.0[3] - 1)
    }
    fn target(&self) -> Cell {
        (self.0[4] - 1, self.0[5] - 1)
    }
    fn line(&self) -> String {
        self.0.map(|x| x.to_string()).join(" ")
    }
}

/// The expected answer line and whether the query is malformed (must be warned about).
fn expected(board: &Board, q: &Query) -> (String, bool) {
    let (e, s, t) = (q.blank(), q.piece(), q.target());
    if s == t {
        return ("0".to_string(), false);
    }
    if !board.is_free(e) || !board.is_free(s) || e == s {
        return ("-1".to_string(), true);
    }
    match bfs(board, e, s, &[t]) {
        Some(n) => (n.to_string(), false),
        None => ("-1".to_string(), false),
    }
}

// ---------------------------------------------------------------------------------------
// Random boards and queries
// ---------------------------------------------------------------------------------------

fn random_board(rng: &mut fastrand::Rng) -> Board {
    common::huarong::board(rng)
}

/// Query kinds the generator makes, for coverage counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Blank and piece on distinct movable cells; target anywhere on the board.
    Valid,
    /// The piece already on the target (possibly otherwise malformed, never off the board).
    OnTarget,
    BlankFixed,
    PieceFixed,
    BlankOff,
    PieceOff,
    Same,
}

const KINDS: usize = 7;

fn any_cell(rng: &mut fastrand::Rng, b: &Board) -> Cell {
    (rng.i64(0..b.rows as i64), rng.i64(0..b.cols as i64))
}

fn off_cell(rng: &mut fastrand::Rng, b: &Board) -> Cell {
    let (r, c) = any_cell(rng, b);
    let far = |rng: &mut fastrand::Rng, n: usize| match rng.u8(0..4) {
        0 => -1,
        1 => n as i64,
        2 => n as i64 + rng.i64(1..40),
        _ => -rng.i64(2..5),
    };
    match rng.u8(0..3) {
        0 => (far(rng, b.rows), c),
        1 => (r, far(rng, b.cols)),
        _ => (far(rng, b.rows), far(rng, b.cols)),
    }
}

fn fixed_cell(rng: &mut fastrand::Rng, b: &Board) -> Option<Cell> {
    let fixed: Vec<Cell> = (0..b.rows as i64)
        .flat_map(|r| (0..b.cols as i64).map(move |c| (r, c)))
        .filter(|&p| !b.is_free(p))
        .collect();
    (!fixed.is_empty()).then(|| fixed[rng.usize(0..fixed.len())])
}

fn free_cell(rng: &mut fastrand::Rng, b: &Board) -> Option<Cell> {
    let f = b.free_cells();
    (!f.is_empty()).then(|| f[rng.usize(0..f.len())])
}

fn two_free(rng: &mut fastrand::Rng, b: &Board) -> Option<(Cell, Cell)> {
    let f = b.free_cells();
    if f.len() < 2 {
        return None;
    }
    let i = rng.usize(0..f.len());
    let mut j = rng.usize(0..f.len() - 1);
    if j >= i {
        j += 1;
    }
    Some((f[i], f[j]))
}

/// Any cell at all: on the board (free or fixed) or off it.
fn wild_cell(rng: &mut fastrand::Rng, b: &Board) -> Cell {
    if rng.u8(0..4) == 0 {
        off_cell(rng, b)
    } else {
        any_cell(rng, b)
    }
}

fn random_query(rng: &mut fastrand::Rng, b: &Board) -> Option<(Query, Kind)> {
    let kind = match rng.u8(0..20) {
        0..=10 => Kind::Valid,
        11..=12 => Kind::OnTarget,
        13 => Kind::BlankFixed,
        14 => Kind::PieceFixed,
        15 => Kind::BlankOff,
        16 => Kind::PieceOff,
        _ => Kind::Same,
    };
    let (e, s, t) = match kind {
        Kind::Valid => {
            let (e, s) = two_free(rng, b)?;
            // Sometimes the target sits next to the piece or on the blank.
            let t = match rng.u8(0..6) {
                0 => e,
                _ => any_cell(rng, b),
            };
            (e, s, t)
        }
        Kind::OnTarget => {
            let s = any_cell(rng, b);
            let e = match rng.u8(0..3) {
                0 => s,
                _ => wild_cell(rng, b),
            };
            (e, s, s)
        }
        Kind::BlankFixed => (fixed_cell(rng, b)?, wild_cell(rng, b), any_cell(rng, b)),
        Kind::PieceFixed => (wild_cell(rng, b), fixed_cell(rng, b)?, any_cell(rng, b)),
        Kind::BlankOff => (off_cell(rng, b), wild_cell(rng, b), any_cell(rng, b)),
        Kind::PieceOff => (wild_cell(rng, b), off_cell(rng, b), any_cell(rng, b)),
        Kind::Same => {
            let e = if rng.bool() {
                free_cell(rng, b)?
            } else {
                wild_cell(rng, b)
            };
            (e, e, any_cell(rng, b))
        }
    };
    let q = Query([e.0 + 1, e.1 + 1, s.0 + 1, s.1 + 1, t.0 + 1, t.1 + 1]);
    Some((q, kind))
}

fn judge_input(b: &Board, queries: &[Query]) -> String {
    let lines: Vec<String> = queries.iter().map(Query::line).collect();
    board_input(b, &lines)
}

// ---------------------------------------------------------------------------------------
// Crate access
// ---------------------------------------------------------------------------------------

fn load_puzzle() -> Puzzle {
    let text = std::fs::read_to_string("puzzles/huarong.puz").expect("read puzzles/huarong.puz");
    Puzzle::load("huarong.puz", text).unwrap_or_else(|d| panic!("huarong.puz does not load: {d:?}"))
}

/// Runs judge mode with `engine`: the output written (also before an error) and the
/// summary or the error's text.
fn judge_with(
    puzzle: &Puzzle,
    input: &str,
    engine: EngineChoice,
) -> (String, Result<JudgeSummary, String>) {
    let mut out: Vec<u8> = vec![];
    let opts = JudgeOptions {
        engine,
        ..JudgeOptions::default()
    };
    let res = run_judge(puzzle, input, &mut out, &opts)
        .map_err(|e| puz::diagnostics::render_plain(&e, 80));
    (String::from_utf8(out).expect("UTF-8 output"), res)
}

/// Judge mode with the default options, checked against the interpreter engine: the same
/// output and the same warnings.
fn judge(puzzle: &Puzzle, input: &str) -> (String, JudgeSummary) {
    let mut out: Vec<u8> = vec![];
    let summary = run_judge(puzzle, input, &mut out, &JudgeOptions::default())
        .unwrap_or_else(|e| panic!("judge failed: {e}\ninput:\n{input}"));
    let out = String::from_utf8(out).expect("UTF-8 output");
    let (interp_out, interp) = judge_with(puzzle, input, EngineChoice::Interp);
    let interp =
        interp.unwrap_or_else(|e| panic!("interpreter judge failed: {e}\ninput:\n{input}"));
    assert_eq!(
        out, interp_out,
        "default engine and interpreter differ on\n{input}"
    );
    assert_eq!(
        summary.warnings, interp.warnings,
        "warnings differ on\n{input}"
    );
    (out, summary)
}

/// The query numbers the warnings name (`query N ...`).
fn warned_queries(summary: &JudgeSummary) -> BTreeSet<usize> {
    summary
        .warnings
        .iter()
        .map(|w| {
            let rest = w
                .strip_prefix("query ")
                .unwrap_or_else(|| panic!("warning does not name a query: {w:?}"));
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            n.parse()
                .unwrap_or_else(|_| panic!("warning has no query number: {w:?}"))
        })
        .collect()
}

/// Judges one board with its queries and checks every line and the warnings.
fn check_judge(puzzle: &Puzzle, b: &Board, queries: &[Query], what: &str) -> Vec<String> {
    let input = judge_input(b, queries);
    let (out, summary) = judge(puzzle, &input);
    let mut want = vec![];
    let mut malformed = BTreeSet::new();
    for (i, q) in queries.iter().enumerate() {
        let (ans, bad) = expected(b, q);
        want.push(ans);
        if bad {
            malformed.insert(i + 1);
        }
    }
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: {} answer lines for {} queries\ninput:\n{input}output:\n{out}",
        got.len(),
        want.len()
    );
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g,
            w,
            "{what}: query {} (`{}`) answered {g}, brute force says {w}\ninput:\n{input}",
            i + 1,
            queries[i].line()
        );
    }
    let expected_out: String = want.iter().map(|w| format!("{w}\n")).collect();
    assert_eq!(out, expected_out, "{what}: output bytes differ");
    assert_eq!(summary.cases, 1, "{what}: one case");
    assert_eq!(
        warned_queries(&summary),
        malformed,
        "{what}: warnings {:?} must name exactly the malformed queries\ninput:\n{input}",
        summary.warnings
    );
    assert_eq!(
        summary.warnings.len(),
        malformed.len(),
        "{what}: one warning per malformed query: {:?}",
        summary.warnings
    );
    want
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

const SAMPLE_BOARD: &str = "0 1 1 1\n0 1 1 0\n0 1 0 0\n";

#[test]
fn noip_sample() {
    let puzzle = load_puzzle();
    let input = format!("3 4 2\n{SAMPLE_BOARD}3 2 1 2 2 2\n1 2 2 2 3 2\n");
    let (out, summary) = judge(&puzzle, &input);
    assert_eq!(out, "2\n-1\n");
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    eprintln!("default judge engine: {}", summary.engine);
    // The brute force agrees with the spec's sample too.
    let b = Board::from_codes(3, 4, SAMPLE_BOARD);
    assert_eq!(expected(&b, &Query([3, 2, 1, 2, 2, 2])).0, "2");
    assert_eq!(expected(&b, &Query([1, 2, 2, 2, 3, 2])).0, "-1");
    // Windows line breaks and blank lines change nothing.
    let crlf = input.replace('\n', "\r\n");
    assert_eq!(judge(&puzzle, &crlf).0, "2\n-1\n");
}

const SEEDS: [u64; 3] = [0x4a2d_0001, 0x1979, 0xdead_beef];
const BOARDS_PER_SEED: usize = 2000;

#[test]
fn random_boards_through_judge_mode() {
    let puzzle = load_puzzle();
    let mut kinds = [0usize; KINDS];
    let (mut queries_total, mut solved, mut unsolvable, mut longest) = (0, 0, 0, 0);
    let mut boards = 0;
    for seed in SEEDS {
        let mut rng = fastrand::Rng::with_seed(seed);
        for i in 0..BOARDS_PER_SEED {
            let b = random_board(&mut rng);
            let n = rng.usize(1..=14);
            let mut qs = vec![];
            let mut ks = vec![];
            while qs.len() < n {
                if let Some((q, k)) = random_query(&mut rng, &b) {
                    qs.push(q);
                    ks.push(k);
                } else if b.free_cells().len() < 2 && rng.u8(0..8) == 0 {
                    // Boards with fewer than two movable cells only get malformed or
                    // on-target queries; make sure the loop ends.
                    let e = wild_cell(&mut rng, &b);
                    let s = any_cell(&mut rng, &b);
                    qs.push(Query([
                        e.0 + 1,
                        e.1 + 1,
                        s.0 + 1,
                        s.1 + 1,
                        s.0 + 1,
                        s.1 + 1,
                    ]));
                    ks.push(Kind::OnTarget);
                }
            }
            let answers = check_judge(&puzzle, &b, &qs, &format!("seed {seed:#x} board {i}"));
            boards += 1;
            for (k, a) in ks.iter().zip(&answers) {
                kinds[*k as usize] += 1;
                queries_total += 1;
                if *k == Kind::Valid {
                    match a.as_str() {
                        "-1" => unsolvable += 1,
                        "0" => {}
                        x => {
                            solved += 1;
                            longest = longest.max(x.parse::<usize>().unwrap());
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{boards} boards, {queries_total} queries: kinds [valid, on-target, blank fixed, piece fixed, \
         blank off, piece off, same] = {kinds:?}; valid: {solved} solved (longest {longest}), {unsolvable} unsolvable"
    );
    assert!(
        kinds.iter().all(|&k| k >= 1000),
        "every kind needs coverage: {kinds:?}"
    );
    assert!(
        solved >= 6000 && unsolvable >= 1500,
        "{solved} / {unsolvable}"
    );
    assert!(longest >= 20, "no long solutions (longest {longest})");
}

/// The piece on its target answers 0 before anything else is looked at: a blank on a fixed
/// cell or off the board, a blank on the piece, the piece on a fixed cell.
#[test]
fn on_target_answers_zero_first() {
    let puzzle = load_puzzle();
    let b = Board::from_codes(3, 4, SAMPLE_BOARD);
    let qs = [
        Query([1, 1, 2, 2, 2, 2]), // blank on a fixed cell
        Query([0, 2, 2, 2, 2, 2]), // blank off the board
        Query([2, 2, 2, 2, 2, 2]), // blank on the piece
        Query([1, 2, 1, 1, 1, 1]), // piece on a fixed cell
        Query([9, 9, 3, 4, 3, 4]), // both
        Query([1, 2, 1, 3, 1, 3]), // a well-formed query
    ];
    let got = check_judge(&puzzle, &b, &qs, "on-target queries");
    assert!(got.iter().all(|a| a == "0"), "{got:?}");
}

/// The piece "already on the target" rule comes first even when both cells are off the
/// board (the spec: `0` when the piece stands on (TX, TY), checked first; the seed's
/// reference prints 0 whenever `SX SY == TX TY`).
#[test]

fn on_target_off_the_board_answers_zero() {
    let puzzle = load_puzzle();
    let b = Board::from_codes(3, 4, SAMPLE_BOARD);
    let qs = [
        Query([3, 2, 0, 9, 0, 9]),
        Query([3, 2, 4, 2, 4, 2]),
        Query([0, 0, 0, 0, 0, 0]),
        Query([1, 2, -1, 1, -1, 1]),
    ];
    let got = check_judge(&puzzle, &b, &qs, "on-target queries off the board");
    assert!(got.iter().all(|a| a == "0"), "{got:?}");
}

/// A target off the board is not one of the spec's malformed cases (those are about the
/// blank and the piece): the answer is -1 because the piece cannot get there, and no
/// warning is due.
#[test]

fn target_off_the_board_is_not_malformed() {
    let puzzle = load_puzzle();
    let b = Board::from_codes(3, 4, SAMPLE_BOARD);
    let qs = [
        Query([3, 2, 1, 2, 4, 2]),
        Query([3, 2, 1, 2, 1, 5]),
        Query([3, 2, 1, 2, 0, 0]),
    ];
    let got = check_judge(&puzzle, &b, &qs, "targets off the board");
    assert_eq!(got, ["-1", "-1", "-1"]);
}

/// Malformed queries print -1 with a warning each; well-formed ones around them still work.
#[test]
fn malformed_queries_warn_by_number() {
    let puzzle = load_puzzle();
    let b = Board::from_codes(3, 4, SAMPLE_BOARD);
    let qs = [
        Query([3, 2, 1, 2, 2, 2]),  // fine: 2
        Query([1, 1, 1, 2, 2, 2]),  // blank fixed
        Query([3, 2, 3, 3, 2, 2]),  // piece fixed
        Query([0, 2, 1, 2, 2, 2]),  // blank off (row 0)
        Query([3, 2, 1, 5, 2, 2]),  // piece off (column 5)
        Query([2, 2, 2, 2, 1, 2]),  // blank on the piece
        Query([-3, 2, 1, 2, 2, 2]), // negative coordinates
        Query([1, 2, 2, 2, 3, 2]),  // fine: -1 without a warning
        Query([3, 2, 1, 2, 3, 1]),  // target on a fixed cell: -1 without a warning
    ];
    let got = check_judge(&puzzle, &b, &qs, "malformed queries");
    assert_eq!(got, ["2", "-1", "-1", "-1", "-1", "-1", "-1", "-1", "-1"]);
}

/// Judge input that cannot be read: an error naming the line and column, with the answers
/// of the queries before it already written.
#[test]
fn malformed_input_reports_line_and_column() {
    let puzzle = load_puzzle();
    let head = format!("3 4 3\n{SAMPLE_BOARD}");
    let q1 = "3 2 1 2 2 2\n";
    let q2 = "1 2 2 2 3 2\n";
    // (input, line, column, expected output before the error)
    let cases: Vec<(String, usize, usize, &str)> = vec![
        // A non-numeric cell: line 3, column 3.
        (
            format!("3 4 3\n0 1 1 1\n0 x 1 0\n0 1 0 0\n{q1}{q2}{q1}"),
            3,
            3,
            "",
        ),
        // A short board row: ends after 3 numbers, column 6.
        (
            format!("3 4 3\n0 1 1 1\n0 1 1\n0 1 0 0\n{q1}{q2}{q1}"),
            3,
            6,
            "",
        ),
        // A non-numeric number in the third query.
        (format!("{head}{q1}{q2}3 2 1 ? 2 2\n"), 7, 7, "2\n-1\n"),
        // The third query line is missing: the end of the input, line 7.
        (format!("{head}{q1}{q2}"), 7, 1, "2\n-1\n"),
        // A fourth query line that was not announced.
        (format!("{head}{q1}{q2}{q1}{q1}"), 8, 1, "2\n-1\n2\n"),
        // The header is not numeric.
        ("3 four 1\n".to_string(), 1, 3, ""),
    ];
    for (input, line, col, before) in cases {
        for engine in ENGINES {
            let (out, res) = judge_with(&puzzle, &input, engine);
            let err = match res {
                Ok(_) => panic!("{engine:?}: accepted malformed input:\n{input}"),
                Err(e) => e,
            };
            assert!(
                err.contains(&format!(":{line}:{col}]")),
                "{engine:?}: expected line {line}, column {col} in {err:?} for\n{input}"
            );
            assert_eq!(
                out, before,
                "{engine:?}: answers before the error for\n{input}"
            );
        }
    }
}

/// A query with too few numbers as the very last text of the input: the error names the
/// end of that line, and the answers before it are written.
#[test]
fn short_last_query_reports_its_line() {
    let puzzle = load_puzzle();
    let head = format!("3 4 3\n{SAMPLE_BOARD}");
    let input = format!("{head}3 2 1 2 2 2\n1 2 2 2 3 2\n3 2 1 2 2");
    for engine in ENGINES {
        let (out, res) = judge_with(&puzzle, &input, engine);
        let err = res.expect_err("a short last query must be an error");
        assert_eq!(out, "2\n-1\n", "{engine:?}");
        assert!(err.contains(":7:10]"), "{engine:?}: {err}");
    }
}

/// A query line with too few numbers must be reported on its own line (line 6 or 7 here,
/// column 10 = just after its last number). The scanner instead reads numbers across line
/// breaks: followed by another query, the short query borrows that line's first number and
/// the error names the next line ("line 7, column 3: unexpected `2 2 2 3 2` after query
/// 2"); as the last line with a final line break, the error names line 8, column 1, a
/// line that does not exist.
#[test]

fn short_query_names_its_own_line() {
    let puzzle = load_puzzle();
    let head = format!("3 4 3\n{SAMPLE_BOARD}");
    let cases = [
        (
            format!("{head}3 2 1 2 2 2\n3 2 1 2 2\n1 2 2 2 3 2\n"),
            "2\n",
            6,
        ),
        (
            format!("{head}3 2 1 2 2 2\n1 2 2 2 3 2\n3 2 1 2 2\n"),
            "2\n-1\n",
            7,
        ),
    ];
    for (input, before, line) in cases {
        let (out, res) = judge_with(&puzzle, &input, EngineChoice::Auto);
        let err = res.expect_err("a short query must be an error");
        assert_eq!(out, before);
        assert!(
            err.contains(&format!(":{line}:10]")),
            "{err}\ninput:\n{input}"
        );
    }
}

fn crate_solve(
    puzzle: &Puzzle,
    level: puz::engine::Level,
    engine: EngineChoice,
    what: &str,
) -> Option<(u64, String)> {
    let (_, found) = common::drive::solve_level(puzzle, level, engine, what);
    found.map(|(cost, letters)| {
        assert_eq!(cost.len(), 1, "one cost component");
        (cost[0], letters)
    })
}

/// Solves a level with both engines; checks the optimum and replays each path.
fn check_level(puzzle: &Puzzle, level: puz::engine::Level, text: &str, what: &str) -> Option<u64> {
    let (b, e, s, t) = common::huarong::parse_chars(text);
    let want = bfs(&b, e, s, &t);
    for engine in ENGINES {
        let what = format!("{what} ({engine:?})");
        let got = crate_solve(puzzle, level.clone(), engine, &what);
        match (&got, want) {
            (None, None) => {}
            (Some((cost, letters)), Some(best)) => {
                assert_eq!(
                    *cost as usize, best,
                    "{what}: wrong optimum on\n{text}\npath {letters}"
                );
                assert_eq!(letters.len(), best, "{what}: path length is not the cost");
                let end = common::huarong::replay(&b, e, s, letters)
                    .unwrap_or_else(|err| panic!("{what}: {err}\n{text}"));
                assert!(
                    t.contains(&end),
                    "{what}: path {letters:?} leaves the piece at {end:?}, not on a target\n{text}"
                );
            }
            _ => panic!("{what}: crate says {got:?}, brute force says {want:?} on\n{text}"),
        }
    }
    want.map(|w| w as u64)
}

#[test]
fn inline_levels_replay() {
    let puzzle = load_puzzle();
    let mut costs = vec![];
    for (i, l) in puzzle.model.levels.iter().enumerate() {
        let text = l.rows.join("\n");
        let level = puzzle.inline_level(i).expect("inline level");
        costs.push(check_level(
            &puzzle,
            level,
            &text,
            &format!("level {:?}", l.name),
        ));
    }
    assert!(costs.len() >= 3, "{costs:?}");
    // The sample's two queries as levels: 2 moves, and impossible.
    assert_eq!(costs[0], Some(2));
    assert_eq!(costs[1], None);
    assert!(costs[2].is_some(), "{costs:?}");
}

/// Random character levels solved by `solve`: optimum and replayed path.
#[test]
fn random_levels_replay() {
    let puzzle = load_puzzle();
    let mut rng = fastrand::Rng::with_seed(0x4a2d_0002);
    let (mut solved, mut unsolvable, mut levels, mut longest) = (0, 0, 0, 0);
    while levels < 3000 {
        let b = random_board(&mut rng);
        let Some((e, s)) = two_free(&mut rng, &b) else {
            continue;
        };
        let t = match rng.u8(0..10) {
            // (No legend symbol puts the blank on the target.)
            0 => s,
            _ => match free_cell(&mut rng, &b) {
                Some(t) if t != e => t,
                _ => continue,
            },
        };
        let mut g: Vec<Vec<char>> = (0..b.rows)
            .map(|r| {
                (0..b.cols)
                    .map(|c| if b.free[r * b.cols + c] { '.' } else { '#' })
                    .collect()
            })
            .collect();
        g[t.0 as usize][t.1 as usize] = 'T';
        g[e.0 as usize][e.1 as usize] = 'E';
        g[s.0 as usize][s.1 as usize] = if s == t { '*' } else { 'S' };
        let text: String = g
            .iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect();
        let level = puzzle
            .level_from_file("random", text.clone())
            .unwrap_or_else(|d| panic!("valid level rejected:\n{text}{d:?}"));
        match check_level(&puzzle, level, &text, &format!("random level {levels}")) {
            Some(c) => {
                solved += 1;
                longest = longest.max(c);
            }
            None => unsolvable += 1,
        }
        levels += 1;
    }
    eprintln!("{levels} levels: {solved} solved (longest {longest}), {unsolvable} unsolvable");
    assert!(solved >= 1000 && unsolvable >= 200 && longest >= 20);
}
