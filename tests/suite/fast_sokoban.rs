//! The Sokoban fast path (`src/fast/sokoban.rs`) against the interpreter: exact agreement
//! (cost vectors and path strings) on seeded random boards, on renamed and reordered copies
//! of `puzzles/sokoban.puz` (multi-cell goals, other direction orders, moves declared the
//! other way round), and in judge mode on the seed 003 sample and the POJ 1475 data; the
//! fingerprint accepts renamed copies and rejects altered ones.

use crate::common;

use std::path::PathBuf;
use std::time::Instant;

use common::drive::judge_with;
use common::sokoban::{agreement_shape, poj_data, seed_sample, Syms, ORIGINAL};

use puz::search::{Budget, Cutoff, Outcome};
use puz::solver::{solve, EngineChoice};
use puz::Puzzle;

fn original() -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles/sokoban.puz"))
        .expect("read puzzles/sokoban.puz")
}

fn load(name: &str, text: String) -> Puzzle {
    Puzzle::load(name, text).unwrap_or_else(|d| panic!("{name} does not load: {d:?}"))
}

fn selected(puzzle: &Puzzle) -> Result<&'static str, String> {
    puz::fast::select(&puzzle.model).map(|f| f.name())
}

/// Solves a board with `engine`: `(engine name, Some((cost, letters)))`, `None` when
/// unsolvable.
fn run(
    puzzle: &Puzzle,
    text: &str,
    engine: EngineChoice,
) -> (&'static str, Option<(Vec<u64>, String)>) {
    common::drive::solve_text(puzzle, text, engine)
}

/// Both engines on one board; they must agree exactly. Returns whether it was solvable.
fn agree(puzzle: &Puzzle, text: &str, what: &str) -> bool {
    let (e1, interp) = run(puzzle, text, EngineChoice::Interp);
    let (e2, fast) = run(puzzle, text, EngineChoice::Fast);
    assert_eq!(e1, "interpreter");
    assert_eq!(e2, "sokoban");
    assert_eq!(
        fast, interp,
        "{what}: fast path and interpreter differ on\n{text}"
    );
    interp.is_some()
}

/// A random board of 1..=`max` x 1..=`max` cells (mostly at least 3): walls at a random
/// density (sometimes a frame), one man, one box and 1..=`goals` goal cells.
fn random_board(rng: &mut fastrand::Rng, s: &Syms, max: usize) -> String {
    common::sokoban::board(rng, s, &agreement_shape(max))
}

/// Runs `count` random boards of `syms` through both engines; returns how many were
/// solvable.
fn random_agreement(puzzle: &Puzzle, syms: &Syms, seed: u64, count: usize, max: usize) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut solved = 0;
    for i in 0..count {
        let text = random_board(&mut rng, syms, max);
        if agree(puzzle, &text, &format!("seed {seed:#x} board {i}")) {
            solved += 1;
        }
    }
    solved
}

#[test]
fn random_boards_agree_with_the_interpreter() {
    let puzzle = load("sokoban.puz", original());
    assert_eq!(selected(&puzzle), Ok("sokoban"));
    let t = Instant::now();
    let mut solved = 0;
    for seed in [0x5_0c0b, 0xfa57_5000, 174, 1475] {
        solved += random_agreement(&puzzle, &ORIGINAL, seed, 1000, 7);
    }
    // Enough boards of both kinds to mean something.
    assert!(solved > 800, "only {solved} of 4000 random boards solvable");
    assert!(solved < 3800, "{solved} of 4000 random boards solvable");
    eprintln!("4000 boards ({solved} solvable) in {:?}", t.elapsed());
}

#[test]
fn larger_random_boards_agree_with_the_interpreter() {
    // Up to 12 x 12: longer detours round the box, more articulation points.
    let puzzle = load("sokoban.puz", original());
    let t = Instant::now();
    let solved = random_agreement(&puzzle, &ORIGINAL, 0xb16_b0a2d, 400, 12);
    assert!(solved > 60, "only {solved} of 400 solvable");
    eprintln!("400 larger boards ({solved} solvable) in {:?}", t.elapsed());
}

/// Hand-made boards: ties between push orders, walks round the box, dead ends, degenerate
/// shapes.
#[test]
fn hand_made_boards_agree_with_the_interpreter() {
    let puzzle = load("sokoban.puz", original());
    let boards = [
        "SB....T",
        "TB....S",
        "S\nB\n.\nT",
        "T\n.\nB\nS",
        "SBT",
        "BST",
        "SB.#.T",
        ".....\n.SB..\n.....\n....T",
        ".....\n..B..\n.S...\n....T",
        "T....\n.....\n..B..\n.....\n....S",
        "S....\n.....\n..B..\n.....\n....T",
        "#######\n#S....#\n#.##..#\n#..B..#\n#.#..T#\n#######",
        "#####\n#S#T#\n#.B.#\n#####",
        "###########\n#T##......#\n#.#.#..####\n#....B....#\n#.######..#\n#.....S...#\n###########",
        "....\n.##.\n.#..\n.#..\n.#.B\n.##S\n....\n###T",
        "S#B.T",
        "......\n.#..#.\n.B..S.\n.#..#.\nT.....",
    ];
    for (i, b) in boards.iter().enumerate() {
        agree(&puzzle, b, &format!("hand-made board {i}"));
    }
}

// ---------------------------------------------------------------------------------------
// Judge mode
// ---------------------------------------------------------------------------------------

fn judge_both(puzzle: &Puzzle, input: &str, what: &str) -> String {
    let interp = judge_with(puzzle, input, EngineChoice::Interp);
    let fast = judge_with(puzzle, input, EngineChoice::Fast);
    assert_eq!(fast, interp, "{what}: judge outputs differ");
    fast
}

#[test]
fn seed_sample_through_judge_mode() {
    let puzzle = load("sokoban.puz", original());
    let out = judge_both(&puzzle, &seed_sample().0, "seed 003 sample");
    assert_eq!(
        out,
        "Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\nMaze #3\n\
         eennwwWWWWeeeeeesswwwwwwwnNN\n\nMaze #4\nswwwnnnnnneeesssSSS\n\n"
    );
}

#[test]
fn poj1475_data_through_judge_mode() {
    let puzzle = load("sokoban.puz", original());
    for name in ["pushing1.in", "pushing2.in"] {
        let out = judge_both(&puzzle, &poj_data(name), name);
        assert!(out.starts_with("Maze #1\n"), "{name}: {out}");
    }
}

// ---------------------------------------------------------------------------------------
// Fingerprint: renamed copies match, altered copies do not
// ---------------------------------------------------------------------------------------

/// Everything renamed; goal a tile (several goal cells per board); dirs `e w s n`; the
/// push declared before the walk; pieces declared box first; forbids the other way round.
const RENAMED_TILE_GOAL: &str = r#"
puzzle "Crates"

tiles { rock ground dock }
outside rock

piece crate
piece keeper

legend {
  'x' rock
  '_' ground
  'k' ground + keeper
  'c' ground + crate
  'o' dock
  'K' dock + keeper
  'C' dock + crate
}

dirs { e (0, 1)  w (0, -1)  s (1, 0)  n (-1, 0) }

cost shoves, steps

move shove(d) {
  letters "EWSN"
  adds shoves
  require crate at keeper + d
  shift crate d
  shift keeper d
}

move step(d) {
  letters "ewsn"
  adds steps
  shift keeper d
}

forbid crate on rock
forbid keeper on rock

goal crate on dock

level "one" """
  k_c_o
  """
"#;

const RENAMED_TILE_SYMS: Syms = Syms {
    floor: b'_',
    wall: b'x',
    man: b'k',
    box_: b'c',
    goal: b'o',
    man_on_goal: Some(b'K'),
    box_on_goal: Some(b'C'),
    goals: 3,
};

/// Goal a mark that is not `single`; no `outside` (pieces may not leave the board); dirs
/// `w n e s`.
const RENAMED_MARK_GOAL: &str = r#"
puzzle "Loads"

tiles { sand stone }
marks { pit }

piece pusher
piece load

legend {
  '-' sand
  '=' stone
  'p' sand + pusher
  'L' sand + load
  '^' sand + pit
  'P' sand + pusher + pit
  'M' sand + load + pit
}

dirs { w (0, -1)  n (-1, 0)  e (0, 1)  s (1, 0) }

cost a, b

move go(d) {
  letters "wnes"
  adds b
  shift pusher d
}

move heave(d) {
  letters "WNES"
  adds a
  require load at pusher + d
  shift load d
  shift pusher d
}

forbid pusher on stone
forbid load on stone

goal load on pit

level "one" """
  pL-^
  """
"#;

const RENAMED_MARK_SYMS: Syms = Syms {
    floor: b'-',
    wall: b'=',
    man: b'p',
    box_: b'L',
    goal: b'^',
    man_on_goal: Some(b'P'),
    box_on_goal: Some(b'M'),
    goals: 2,
};

#[test]
fn renamed_copies_select_the_fast_path_and_agree() {
    for (name, text, syms, seed) in [
        ("tile goal", RENAMED_TILE_GOAL, &RENAMED_TILE_SYMS, 0x7113),
        ("mark goal", RENAMED_MARK_GOAL, &RENAMED_MARK_SYMS, 0x3a2c),
    ] {
        let puzzle = load(name, text.to_string());
        assert_eq!(selected(&puzzle), Ok("sokoban"), "{name}");
        let solved = random_agreement(&puzzle, syms, seed, 1000, 7);
        assert!(solved > 250, "{name}: only {solved} of 1000 solvable");
        eprintln!("{name}: 1000 boards, {solved} solvable");
    }
}

#[test]
fn the_direction_order_decides_ties() {
    // S then E ties with E then S at (2, 3): the original order (N S W E) pushes S first,
    // the renamed copy (e w s n) pushes E first; walks follow each order too.
    let board = "S...\n.B..\n..T.\n....";
    let orig = load("sokoban.puz", original());
    let (_, got) = run(&orig, board, EngineChoice::Fast);
    assert_eq!(got, Some((vec![2, 3], "eSwsE".to_string())));
    agree(&orig, board, "tie board");
    let renamed = load("tile goal", RENAMED_TILE_GOAL.to_string());
    let tr: String = board
        .chars()
        .map(|c| match c {
            '.' => '_',
            'S' => 'k',
            'B' => 'c',
            'T' => 'o',
            c => c,
        })
        .collect();
    let (_, got) = run(&renamed, &tr, EngineChoice::Fast);
    assert_eq!(got, Some((vec![2, 3], "sEneS".to_string())));
    agree(&renamed, &tr, "renamed tie board");
}

#[test]
fn box_already_on_the_goal_costs_nothing() {
    let puzzle = load("tile goal", RENAMED_TILE_GOAL.to_string());
    for board in ["k_C", "kC_o", "xxxx\nxkCx\nxxxx"] {
        let (_, got) = run(&puzzle, board, EngineChoice::Fast);
        assert_eq!(got, Some((vec![0, 0], String::new())), "{board}");
        agree(&puzzle, board, board);
    }
}

#[test]
fn altered_copies_fall_back_to_the_interpreter() {
    let src = original();
    let alter = |from: &str, to: &str| {
        assert!(src.contains(from), "sokoban.puz has no `{from}`");
        src.replacen(from, to, 1)
    };
    let altered = [
        (
            "costs swapped",
            alter("cost pushes, walks", "cost walks, pushes"),
        ),
        (
            "extra forbid",
            alter(
                "forbid box on wall",
                "forbid box on wall\nforbid box on target",
            ),
        ),
        (
            "a limit",
            alter("cost pushes, walks", "cost pushes, walks\nlimit 50"),
        ),
        ("box anonymous", alter("piece box", "piece box anonymous")),
        ("box may stand on walls", alter("forbid box on wall", "")),
        (
            "man left behind",
            alter("  shift box d\n  shift man d", "  shift box d"),
        ),
        (
            "walk adds both",
            alter("  adds walks", "  adds pushes, walks"),
        ),
        ("outside is floor", alter("outside wall", "outside floor")),
        ("one cost only", {
            // The levels' `expect` clauses give two costs: one cost no longer compares.
            let text = alter("cost pushes, walks", "cost pushes").replacen(
                "  adds walks\n",
                "  adds pushes\n",
                1,
            );
            let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("expect ")).collect();
            lines.join("\n")
        }),
    ];
    let board = "SB....T";
    for (name, text) in altered {
        let puzzle = load(name, text);
        assert!(
            selected(&puzzle).is_err(),
            "{name}: still selects the fast path"
        );
        let (engine, _) = run(&puzzle, board, EngineChoice::Auto);
        assert_eq!(engine, "interpreter", "{name}");
    }
}

// ---------------------------------------------------------------------------------------
// Budgets
// ---------------------------------------------------------------------------------------

#[test]
fn budgets_cut_the_fast_path_off() {
    let puzzle = load("sokoban.puz", original());
    let board =
        "###########\n#T##......#\n#.#.#..####\n#....B....#\n#.######..#\n#.....S...#\n###########";
    let level = || puzzle.level_from_file("b", board.to_string()).unwrap();
    let few = Budget {
        max_states: Some(3),
        ..Budget::default()
    };
    let ans = solve(&puzzle.model, level(), EngineChoice::Fast, &few).unwrap();
    assert!(
        matches!(ans.outcome, Outcome::Cutoff(Cutoff::States(_))),
        "{:?}",
        ans.outcome
    );
    let late = Budget {
        deadline: Some(Instant::now()),
        ..Budget::default()
    };
    let ans = solve(&puzzle.model, level(), EngineChoice::Fast, &late).unwrap();
    assert!(
        matches!(ans.outcome, Outcome::Cutoff(Cutoff::Time)),
        "{:?}",
        ans.outcome
    );
}

/// Many more random boards, in release mode: `FAST_SOKOBAN_BOARDS=100000 cargo test
/// --release --test suite fast_sokoban:: -- --ignored`.
#[test]
#[ignore]
fn stress_random_boards() {
    let count: usize = std::env::var("FAST_SOKOBAN_BOARDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let puzzle = load("sokoban.puz", original());
    let renamed = load("tile goal", RENAMED_TILE_GOAL.to_string());
    let marks = load("mark goal", RENAMED_MARK_GOAL.to_string());
    let mut solved = 0;
    for (i, max) in [6, 9, 14].into_iter().enumerate() {
        solved += random_agreement(&puzzle, &ORIGINAL, 0x57_0000 + i as u64, count, max);
        solved += random_agreement(
            &renamed,
            &RENAMED_TILE_SYMS,
            0x57_1000 + i as u64,
            count / 2,
            max,
        );
        solved += random_agreement(
            &marks,
            &RENAMED_MARK_SYMS,
            0x57_2000 + i as u64,
            count / 2,
            max,
        );
    }
    eprintln!("{} boards, {solved} solvable", count * 6);
}
