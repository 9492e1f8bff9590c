//! Layered search (`--search layered`) against Dijkstra and BFS over whole states: the
//! same cost and the same path (the tie rule) on seeded random levels of every shipped
//! puzzle it applies to and of rule files written to stress it (an inner piece with a
//! second, dearer move; pieces of two cells; a second piece a move pushes), and the same
//! judge output when it reuses closures across queries.

use crate::common;
use crate::common::binary;

use binary::{puz, stderr, stdout, TempFile};
use puz::io::judge::{run_judge, JudgeOptions};
use puz::search::{Backend, Budget, Outcome};
use puz::solver::{path_cost, solve_opts, EngineChoice, SearchChoice, SolveOptions};
use puz::Puzzle;

const LAYERED: SearchChoice = SearchChoice::Backend(Backend::Layered);
const DIJKSTRA: SearchChoice = SearchChoice::Backend(Backend::Dijkstra);

fn shipped(name: &str) -> Puzzle {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("shipped puzzle");
    Puzzle::load(name, text).expect("shipped puzzle loads")
}

/// Cost and letters of `text` solved by the interpreter with `search`; `None` when
/// unsolvable.
fn run(puzzle: &Puzzle, text: &str, search: SearchChoice) -> Option<(Vec<u64>, String)> {
    let level = puzzle
        .level_from_file("random", text.to_string())
        .unwrap_or_else(|d| panic!("valid level rejected:\n{text}\n{d:?}"));
    let opts = SolveOptions {
        engine: EngineChoice::Interp,
        search,
        budget: Budget::default(),
        need_path: true,
        ..Default::default()
    };
    let ans = solve_opts(&puzzle.model, level, &opts)
        .unwrap_or_else(|e| panic!("{search:?} failed on\n{text}\n{e}"));
    match ans.outcome {
        Outcome::Solved(p) => Some((
            path_cost(&puzzle.model, &p.actions),
            p.actions.iter().map(|&a| puzzle.model.letter(a)).collect(),
        )),
        Outcome::Unsolvable => None,
        o => panic!("{search:?} gave {o:?} on\n{text}"),
    }
}

/// Both searches on `count` random levels from `gen`; they must agree exactly. Returns
/// the number solvable.
fn agree(
    puzzle: &Puzzle,
    other: SearchChoice,
    seed: u64,
    count: usize,
    gen: impl Fn(&mut fastrand::Rng) -> String,
) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut solved = 0;
    for i in 0..count {
        let text = gen(&mut rng);
        let a = run(puzzle, &text, LAYERED);
        let b = run(puzzle, &text, other);
        assert_eq!(
            a, b,
            "seed {seed:#x} level {i}: layered vs {other:?} on\n{text}"
        );
        solved += usize::from(a.is_some());
    }
    solved
}

/// A random room of `h` x `w` cells of `floor`: `#` walls at `walls` percent, then the
/// given symbols on distinct free cells.
fn room_of(
    rng: &mut fastrand::Rng,
    (h, w): (usize, usize),
    floor: u8,
    walls: u8,
    place: &[u8],
) -> String {
    loop {
        let mut g: Vec<Vec<u8>> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| if rng.u8(0..100) < walls { b'#' } else { floor })
                    .collect()
            })
            .collect();
        let mut free: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| g[r][c] == floor)
            .collect();
        if free.len() < place.len() {
            continue;
        }
        rng.shuffle(&mut free);
        for (k, &sym) in place.iter().enumerate() {
            let (r, c) = free[k];
            g[r][c] = sym;
        }
        let mut out = String::new();
        for row in g {
            out.push_str(std::str::from_utf8(&row).expect("ASCII"));
            out.push('\n');
        }
        return out;
    }
}

/// [`room_of`] with `.` floor.
fn room(rng: &mut fastrand::Rng, h: usize, w: usize, walls: u8, place: &[u8]) -> String {
    room_of(rng, (h, w), b'.', walls, place)
}

#[test]
fn single_box_sokoban_paths_equal_dijkstra() {
    let p = shipped("sokoban.puz");
    let solved = agree(&p, DIJKSTRA, 0x1a7e, 600, |rng| {
        let (h, w) = (rng.usize(2..=7), rng.usize(2..=7));
        room(rng, h, w, 20, b"SBT")
    });
    assert!(solved > 80, "only {solved} of 600 solvable");
}

#[test]
fn multi_box_sokoban_paths_equal_dijkstra() {
    let p = shipped("sokoban-boxes.puz");
    let solved = agree(&p, DIJKSTRA, 0xb0e5, 250, |rng| {
        let size = (rng.usize(3..=5), rng.usize(3..=6));
        room_of(rng, size, b'-', 10, b"@$$..")
    });
    assert!(solved > 15, "only {solved} of 250 solvable");
}

/// Six boxes in small rooms: the pushing tables take sets of five, so the bound is not
/// exact and layered search first marks the classes on a cheapest push path
/// (`src/search/classes.rs`); many cheapest push sequences tie, and the classes kept must
/// hold every one of them for the tie rule to pick Dijkstra's path.
#[test]
fn many_box_sokoban_classes_keep_every_tie() {
    let p = shipped("sokoban-boxes.puz");
    let solved = agree(&p, DIJKSTRA, 0xc1a55, 40, |rng| {
        let cols = rng.usize(5..=6);
        crate::push_patterns::room(rng, 3, cols, 6)
    });
    assert!(solved > 20, "only {solved} of 40 solvable");
}

#[test]
fn huarong_paths_equal_bfs() {
    let p = shipped("huarong.puz");
    let solved = agree(&p, SearchChoice::Backend(Backend::Bfs), 0x4a7, 400, |rng| {
        let (h, w) = (rng.usize(2..=5), rng.usize(2..=5));
        room(rng, h, w, 15, b"EST")
    });
    assert!(solved > 100, "only {solved} of 400 solvable");
}

/// The man walks (inner) and may also jump two cells at a dearer cost: a move of the
/// inner piece alone that is not inner, so quiet places have outer transitions too. The
/// box is two cells wide, and pushing it needs both cells free ahead.
const VARIANT: &str = r#"
puzzle "jumping man, wide box"
tiles { floor wall }
outside wall
marks { target }
piece man
piece crate { pose flat { (0, 0) (0, 1) } }
legend { '.' floor  '#' wall  'S' floor + man  'C' floor + crate  'T' floor + target }
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost pushes, walks
move walk(d) { letters "nswe" adds walks shift man d }
move jump(d) { letters "NSWE" adds pushes, walks forbid crate at man + d shift man d shift man d }
move push(d) { letters "1234" adds pushes require crate at man + d shift crate d shift man d }
forbid man on wall
forbid crate on wall
goal crate on target
"#;

#[test]
fn an_inner_piece_with_a_dearer_move_and_a_wide_box_equal_dijkstra() {
    let p = Puzzle::load("variant.puz", VARIANT.to_string()).expect("variant loads");
    let solved = agree(&p, DIJKSTRA, 0x7a11, 300, |rng| {
        loop {
            let (h, w) = (rng.usize(3..=6), rng.usize(3..=6));
            let text = room(rng, h, w, 8, b"S");
            // A two-cell crate, and two target cells side by side, on free cells.
            let mut rows: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
            let mut placed = 0;
            for sym in [b'C', b'T'] {
                let spots: Vec<(usize, usize)> = (0..h)
                    .flat_map(|r| (0..w - 1).map(move |c| (r, c)))
                    .filter(|&(r, c)| rows[r][c] == b'.' && rows[r][c + 1] == b'.')
                    .collect();
                if let Some(&(r, c)) = spots.get(rng.usize(0..spots.len().max(1))) {
                    rows[r][c] = sym;
                    rows[r][c + 1] = sym;
                    placed += 1;
                }
            }
            if placed < 2 {
                continue;
            }
            return rows
                .iter()
                .map(|l| format!("{}\n", String::from_utf8_lossy(l)))
                .collect();
        }
    });
    assert!(solved > 60, "only {solved} of 300 solvable");
}

/// Judge mode with `search`: the output.
fn judge(puzzle: &Puzzle, input: &str, search: SearchChoice) -> String {
    let opts = JudgeOptions {
        engine: EngineChoice::Interp,
        search,
        ..JudgeOptions::default()
    };
    let mut out = vec![];
    run_judge(puzzle, input, &mut out, &opts).expect("judge runs");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn huarong_queries_reusing_closures_equal_bfs() {
    let p = shipped("huarong.puz");
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for case in 0..12 {
        let b = if case % 2 == 0 {
            common::huarong::board(&mut rng)
        } else {
            common::huarong::maze(&mut rng)
        };
        let free = b.free_indices();
        if free.len() < 3 {
            continue;
        }
        let queries: Vec<String> = (0..40)
            .map(|_| {
                let pick = |rng: &mut fastrand::Rng| free[rng.usize(0..free.len())];
                let (e, s, t) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
                let (r, c) = (|i: usize| i / b.cols + 1, |i: usize| i % b.cols + 1);
                format!("{} {} {} {} {} {}", r(e), c(e), r(s), c(s), r(t), c(t))
            })
            .collect();
        let input = common::huarong::judge_input(&b, &queries);
        assert_eq!(
            judge(&p, &input, LAYERED),
            judge(&p, &input, SearchChoice::Backend(Backend::Bfs)),
            "case {case}:\n{input}"
        );
    }
}

#[test]
fn sokoban_judge_data_equals_dijkstra() {
    let p = shipped("sokoban.puz");
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    for file in ["pushing1.in", "pushing2.in"] {
        let input = std::fs::read_to_string(format!("{dir}/pushing_boxes_poj1475/{file}"))
            .expect("the vendored POJ 1475 data");
        assert_eq!(
            judge(&p, &input, LAYERED),
            judge(&p, &input, DIJKSTRA),
            "{file}"
        );
    }
}

/// Sokoban whose level draws its goal: the picture places the man too, so no piece is
/// free of the goal on this level, though the rules name none.
const PICTURE: &str = r#"
puzzle "picture"
tiles { floor wall }
outside wall
piece man
piece box
legend { '.' floor  '#' wall  'S' floor + man  'B' floor + box }
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost pushes, walks
move walk(d) { letters "nswe" adds walks shift man d }
move push(d) { letters "NSWE" adds pushes require box at man + d shift box d shift man d }
forbid man on wall
forbid box on wall
level "l" """
  SB...
  """ goal """
  ...SB
  """
"#;

#[test]
fn rules_without_an_inner_piece_are_refused_or_fall_back() {
    // Asked for: refused with exit 5 and the reason.
    let o = puz(&[
        "solve",
        "puzzles/bloxorz.puz",
        "--engine",
        "interp",
        "--search",
        "layered",
    ]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(stderr(&o).contains("--search layered"), "{}", stderr(&o));
    // Chosen automatically on rules that may split, on a level that cannot (the man is
    // named by a picture goal here): falls back to A* (the picture gives a bound) with
    // Dijkstra's answer.
    let f = TempFile::new("layered_fallback.puz", PICTURE);
    let o = puz(&["solve", f.path(), "--engine", "interp", "-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("cost: 3 pushes, 0 walks"), "{out}");
    assert!(stderr(&o).contains("search astar"), "{}", stderr(&o));
}

#[test]
fn budgets_stop_layered_search() {
    let p = shipped("sokoban.puz");
    let text = room(&mut fastrand::Rng::with_seed(3), 12, 12, 0, b"SBT");
    let level = p.level_from_file("open", text).expect("level");
    let opts = SolveOptions {
        engine: EngineChoice::Interp,
        search: LAYERED,
        budget: Budget {
            max_states: Some(3),
            ..Budget::default()
        },
        need_path: true,
        ..Default::default()
    };
    let ans = solve_opts(&p.model, level, &opts).expect("runs");
    assert!(
        matches!(ans.outcome, Outcome::Cutoff(_)),
        "{:?}",
        ans.outcome
    );
}

/// The first phase on pushing puzzles (`src/search/classes.rs`) under a state budget,
/// and on a level whose start it proves dead.
#[test]
fn the_cheapest_pushes_phase_keeps_budgets_and_proves_levels_unsolvable() {
    let p = shipped("sokoban-boxes.puz");
    let run = |text: &str, max_states: Option<usize>| {
        let level = p.level_from_file("six", text.to_string()).expect("level");
        let opts = SolveOptions {
            engine: EngineChoice::Interp,
            search: SearchChoice::Auto,
            budget: Budget {
                max_states,
                ..Budget::default()
            },
            need_path: true,
            ..Default::default()
        };
        solve_opts(&p.model, level, &opts).expect("runs")
    };
    // Six boxes, sets of five in the tables: the phase runs, and stops at 20 classes.
    let open = "#######\n#@    #\n# $$$ #\n# ... #\n# $$$ #\n# ... #\n#     #\n#######\n";
    let ans = run(open, Some(20));
    assert!(
        matches!(
            ans.outcome,
            Outcome::Cutoff(puz::search::Cutoff::States(20))
        ),
        "{:?}",
        ans.outcome
    );
    assert!(ans
        .stats
        .bound
        .is_none_or(|b| !b.contains("cheapest pushes first")));
    let ans = run(open, None);
    assert!(
        matches!(ans.outcome, Outcome::Solved(_)),
        "{:?}",
        ans.outcome
    );
    let bound = ans.stats.bound.expect("a bound line");
    assert!(bound.contains("cheapest pushes first"), "{bound}");
    // The same with two goals walled off from the boxes: no push sequence fills them.
    let walled = "#########\n#@    #.#\n# $$$ ###\n# $$$ #.#\n# ..  ###\n# ..    #\n#########\n";
    let ans = run(walled, None);
    assert!(matches!(ans.outcome, Outcome::Unsolvable), "{walled}");
}

#[test]
fn a_huge_board_stops_at_the_time_limit_while_building_the_split() {
    // 1200 x 1200 open floor: the table of moves on an empty board alone is 11.5M
    // entries, built under the budget like everything else.
    let mut text = String::with_capacity(1200 * 1201);
    for r in 0..1200 {
        let mut row = vec![b'.'; 1200];
        if r == 600 {
            row[10] = b'S';
            row[12] = b'B';
            row[1100] = b'T';
        }
        text.push_str(std::str::from_utf8(&row).expect("ASCII"));
        text.push('\n');
    }
    let f = TempFile::new("huge.level", &text);
    let o = puz(&[
        "solve",
        "puzzles/sokoban.puz",
        f.path(),
        "--engine",
        "interp",
        "--search",
        "layered",
        "--timeout",
        "0.2",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}
