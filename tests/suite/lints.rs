//! Lints (warnings with `puz::lint::*` codes): fixtures beside their expected reports,
//! soundness against the solver, silence on the shipped puzzles, and the command line.
//!
//! Layout, under `tests/fixtures/lints/`: `LEAF__VARIANT.puz` loads cleanly and its first
//! warning has the code `puz::lint::LEAF`; `LEAF__VARIANT.out` holds the expected report,
//! exactly as [`Warnings::render_plain`] prints it 80 columns wide. Expected reports are
//! generated, never edited by hand: `PUZ_BLESS=1 cargo test --test suite lints::` rewrites them.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use puz::diagnostics::{Problem, Warnings};
use puz::search::{Budget, Outcome};
use puz::solver::{solve, EngineChoice};
use puz::Puzzle;

const FIXTURES: &str = "tests/fixtures/lints";
const WIDTH: usize = 80;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.puz` files of a directory under the crate root, sorted, as relative paths.
fn puz_files(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".puz"))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .puz files in {dir}");
    out
}

fn load(rel: &str) -> Puzzle {
    let text = fs::read_to_string(root().join(rel)).expect("read fixture");
    Puzzle::load(rel, text).unwrap_or_else(|d| panic!("{rel}: does not load: {d:?}"))
}

/// Every `puz::lint::` code declared in `src/diagnostics/catalogue.rs`.
fn lint_codes() -> Vec<String> {
    let src =
        fs::read_to_string(root().join("src/diagnostics/catalogue.rs")).expect("read diagnostics");
    src.match_indices("code(puz::lint::")
        .map(|(i, _)| {
            let after = &src[i + "code(".len()..];
            after[..after.find(')').expect("closed")].to_string()
        })
        .collect()
}

/// The level a no-solution lint is about, if the warning says the level has no solution.
fn unsolvable_level(p: &Problem) -> Option<&str> {
    match p {
        Problem::GoalOutOfReach { level, .. } | Problem::GoalNeverHolds { level, .. } => {
            Some(level)
        }
        _ => None,
    }
}

/// Whether the solver finds no solution for inline level `name`.
fn has_no_solution(p: &Puzzle, name: &str) -> bool {
    let i = p.level_index(name).expect("a level of the file");
    let level = p.inline_level(i).expect("the level loads");
    let ans = solve(&p.model, level, EngineChoice::Auto, &Budget::default()).expect("solves");
    matches!(ans.outcome, Outcome::Unsolvable)
}

#[test]
fn fixtures_render_as_expected() {
    let bless = std::env::var("PUZ_BLESS").is_ok_and(|v| v == "1");
    let mut failures = vec![];
    for rel in puz_files(FIXTURES) {
        let Some(w) = load(&rel).lints() else {
            failures.push(format!("{rel}: no warning"));
            continue;
        };
        let actual = w.render_plain(WIDTH);
        let path = root().join(&rel).with_extension("out");
        if bless {
            fs::write(&path, &actual).expect("write .out");
        } else if fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
            failures.push(format!(
                "{rel}: report differs from {} (PUZ_BLESS=1 rewrites it):\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fixture_names_match_first_code() {
    for rel in puz_files(FIXTURES) {
        let stem = rel.rsplit('/').next().unwrap().trim_end_matches(".puz");
        let (leaf, variant) = stem.split_once("__").expect("LEAF__VARIANT.puz");
        assert!(!variant.is_empty(), "{rel}: empty variant");
        let w: Warnings = load(&rel).lints().expect("warnings");
        let codes: Vec<String> = w.problems.iter().map(Problem::code_str).collect();
        assert!(
            codes.iter().any(|c| *c == format!("puz::lint::{leaf}")),
            "{rel}: no `puz::lint::{leaf}` among {codes:?}"
        );
        assert!(
            codes.iter().all(|c| c.starts_with("puz::lint::")),
            "{rel}: a warning without a lint code: {codes:?}"
        );
    }
}

#[test]
fn every_lint_code_has_a_fixture() {
    let codes = lint_codes();
    assert!(codes.len() >= 5, "lint codes: {codes:?}");
    let mut shown = std::collections::BTreeSet::new();
    for rel in puz_files(FIXTURES) {
        if let Some(w) = load(&rel).lints() {
            shown.extend(w.problems.iter().map(Problem::code_str));
        }
    }
    let missing: Vec<&String> = codes.iter().filter(|c| !shown.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "lint codes no fixture shows: {missing:?}"
    );
}

/// A lint that says a level has no solution is never wrong: the solver agrees.
#[test]
fn no_solution_lints_are_sound() {
    let files = puz_files(FIXTURES)
        .into_iter()
        .chain(puz_files("puzzles"))
        .chain(puz_files("tests/fixtures/diagnostics/ok"));
    for rel in files {
        let p = load(&rel);
        for w in p.lints().map_or(vec![], |w| w.problems) {
            if let Some(level) = unsolvable_level(&w) {
                assert!(
                    has_no_solution(&p, level),
                    "{rel}: level {level:?} is solvable, but a lint says it is not: {w}"
                );
            }
        }
        for i in 0..p.model.levels.len() {
            let level = p.inline_level(i).expect("loads");
            let name = level.name.clone();
            if !p.out_of_reach(&level).is_empty() {
                assert!(
                    has_no_solution(&p, &name),
                    "{rel}: level {name:?} is solvable, but `out_of_reach` explains it has no solution"
                );
            }
        }
    }
}

/// A random board for a shipped puzzle: `cells` drawn from `fill`, then each of `once`
/// put on a cell of its own; written with `sep` between cells.
fn random_board(rng: &mut fastrand::Rng, fill: &[&str], once: &[&str], sep: &str) -> String {
    let (rows, cols) = (rng.usize(1..=6), rng.usize(2..=7));
    let mut g: Vec<&str> = (0..rows * cols)
        .map(|_| fill[rng.usize(0..fill.len())])
        .collect();
    let mut free: Vec<usize> = (0..g.len()).collect();
    for s in once {
        if free.is_empty() {
            break;
        }
        let i = free.swap_remove(rng.usize(0..free.len()));
        g[i] = s;
    }
    g.chunks(cols).map(|r| r.join(sep) + "\n").collect()
}

/// Random levels of shipped puzzles with breaking tiles (Curling), poses (Bloxorz) and
/// several copies (Sokoban with boxes): whenever a lint or the explanation says a level
/// has no solution, the search agrees; and a lone piece's lint fires on some.
#[test]
fn no_solution_claims_hold_on_random_levels() {
    let cases: [(&str, &[&str], &[&str], &str); 3] = [
        (
            "puzzles/bloxorz.puz",
            &[".", ".", ".", "E", "#"],
            &["X", "O"],
            "",
        ),
        (
            "puzzles/curling.puz",
            &["0", "0", "0", "1"],
            &["2", "3"],
            " ",
        ),
        (
            "puzzles/sokoban-boxes.puz",
            &[" ", " ", " ", "#"],
            &["@", "$", ".", "$", "."],
            "",
        ),
    ];
    let mut rng = fastrand::Rng::with_seed(9);
    let (mut claims, mut levels) = (0, 0);
    for (file, fill, once, sep) in cases {
        let p = load(file);
        for _ in 0..150 {
            let text = random_board(&mut rng, fill, once, sep);
            let Ok(level) = p.level_from_file("random", text.clone()) else {
                continue;
            };
            levels += 1;
            let lints = p.level_lints(&level, None).map_or(vec![], |w| w.problems);
            let says = lints.iter().any(|w| unsolvable_level(w).is_some())
                || !p.out_of_reach(&level).is_empty();
            if !says {
                continue;
            }
            claims += 1;
            let ans =
                solve(&p.model, level, EngineChoice::Interp, &Budget::default()).expect("solves");
            assert!(
                matches!(ans.outcome, Outcome::Unsolvable),
                "{file}: a lint says no solution, the search found one:\n{text}"
            );
        }
    }
    assert!(
        levels > 300 && claims > 30,
        "too few cases: {levels} levels, {claims} claims"
    );
    eprintln!("{levels} random levels, {claims} said to have no solution");
}

/// No lint fires on the shipped puzzles (their levels without a solution say `expect
/// none`).
#[test]
fn shipped_puzzles_have_no_lints() {
    for rel in puz_files("puzzles") {
        if let Some(w) = load(&rel).lints() {
            panic!(
                "{rel}: lints fire on a shipped puzzle:\n{}",
                w.render_plain(WIDTH)
            );
        }
    }
}

/// `expect none` silences the warnings that prove a level has no solution, and only those.
#[test]
fn expect_none_silences_no_solution_lints() {
    let rel = "tests/fixtures/lints/goal_out_of_reach__walled.puz";
    let text = fs::read_to_string(root().join(rel)).expect("read");
    let p = Puzzle::load(rel, format!("{text}expect none\n")).expect("loads");
    assert!(p.lints().is_none());
    let level = p.inline_level(0).expect("loads");
    assert_eq!(p.out_of_reach(&level).len(), 1, "the explanation stays");
    let rel = "tests/fixtures/lints/goal_piece_missing__no_box.puz";
    let text = fs::read_to_string(root().join(rel)).expect("read");
    let p = Puzzle::load(rel, format!("{text}expect none\n")).expect("loads");
    let codes: Vec<String> = p
        .lints()
        .expect("warnings")
        .problems
        .iter()
        .map(Problem::code_str)
        .collect();
    assert_eq!(codes, ["puz::lint::goal_piece_missing"]);
}

/// A move that applies in some levels is not a mistake of the file: `puz check` keeps
/// quiet about it, while the level's own lints (what `puz solve` prints) name it.
#[test]
fn moves_dead_in_some_levels_only_warn_per_level() {
    let p = load("tests/fixtures/lints/goal_piece_missing__no_box.puz");
    let file: Vec<String> = p
        .lints()
        .expect("warnings")
        .problems
        .iter()
        .map(Problem::code_str)
        .collect();
    assert_eq!(file, ["puz::lint::goal_piece_missing"]);
    let level = p.inline_level(1).expect("loads");
    let w = p.level_lints(&level, Some(1)).expect("warnings");
    let codes: Vec<String> = w.problems.iter().map(Problem::code_str).collect();
    assert_eq!(
        codes,
        [
            "puz::lint::move_never_applies",
            "puz::lint::goal_piece_missing"
        ]
    );
    assert_eq!(
        w.problems[0].to_string(),
        "move `push` can never apply in level \"empty\""
    );
    let p = load("tests/fixtures/lints/move_never_applies__missing_tile.puz");
    let w = p.lints().expect("warnings");
    assert_eq!(
        w.problems[0].to_string(),
        "move `fill` can never apply in any level of the file"
    );
}

/// Every unsolvable shipped level that a lone piece cannot solve is explained.
#[test]
fn unsolvable_levels_name_what_is_out_of_reach() {
    let p = load("puzzles/sokoban.puz");
    let level = p
        .inline_level(p.level_index("blocked").expect("level"))
        .expect("loads");
    let why = p.out_of_reach(&level);
    assert_eq!(why.len(), 1, "{why:?}");
    assert_eq!(why[0].goal, "box on target");
    assert_eq!(why[0].piece.as_deref(), Some("box"));
    assert_eq!(why[0].from, Some([0, 1]));
    assert_eq!(
        why[0].text,
        "even moving alone, box (0,1) can reach no cell of target"
    );
}

fn puz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puz"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run puz")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_prints_warnings_and_succeeds() {
    let f = "tests/fixtures/lints/goal_out_of_reach__walled.puz";
    let out = puz(&["check", f]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{f}: ok (2 tiles, 1 piece, 1 move, 1 level, 1 warning)\n")
    );
    let err = text(&out.stderr);
    assert!(err.contains("puz::lint::goal_out_of_reach"), "{err}");
    assert!(err.contains("starts here"), "{err}");
}

#[test]
fn solve_warns_on_stderr_and_explains_no_solution() {
    let f = "tests/fixtures/lints/goal_out_of_reach__walled.puz";
    let out = puz(&["solve", f]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("puz::lint::goal_out_of_reach"));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("puz::lint"), "{stdout}");
    assert!(
        stdout.ends_with("out of reach: even moving alone, man (1,1) can reach no cell of exit\n"),
        "{stdout}"
    );
    let out = puz(&["solve", f, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json on stdout");
    assert_eq!(v["solved"], false);
    assert_eq!(
        v["out_of_reach"],
        serde_json::json!([{
            "goal": "man on exit", "piece": "man", "from": [1, 1],
            "text": "even moving alone, man (1,1) can reach no cell of exit"
        }])
    );
}

#[test]
fn solved_levels_print_no_warning() {
    let out = puz(&["solve", "puzzles/sokoban.puz"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
}

/// Judge mode never lints: its stdout is the judge's and stderr stays quiet.
#[test]
fn judge_output_is_untouched() {
    let input = "1 7\nSB..#.T\n0 0\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_puz"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["judge", "puzzles/sokoban.puz"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run puz");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "Maze #1\nImpossible.\n\n");
    assert_eq!(text(&out.stderr), "");
}

/// Rules whose moves and goals all can happen, written so that a careless analysis would
/// warn: conditional statements, tiles a toggle or break brings, copies a move creates,
/// counters a branch raises, copies of a kind the level lacks under `each` or `forbid`.
#[test]
fn no_false_alarms() {
    let head = "tiles { floor wall dark lit crack -> floor }\nmarks { exit }\ncounter keys max 2\n\
        piece man\npiece coin anonymous max 3\npiece ghost anonymous\n\
        legend { '.' floor '#' wall 'd' dark 'x' crack '@' floor + man 'E' floor + exit 'c' floor + coin }\n\
        dirs { w (0, -1) e (0, 1) }\n";
    let cases = [
        // A coin picked up in a branch; the level has none.
        "move walk(d) { forbid wall at man + d  if coin at man + d { remove coin  keys += 1 }  shift man d }\n\
         goal man on exit\nlevel \"a\" \"\"\"\n  @..E\n  \"\"\"\n",
        // A tile that only a toggle brings, required later.
        "move flip(d) { toggle dark lit at man + d }\n\
         move step(d) { require lit at man + d  shift man d }\n\
         goal man on exit\nlevel \"a\" \"\"\"\n  @dE\n  \"\"\"\n",
        // A floor that a break brings; copies created by a move, then required.
        "move drop(d) { create coin at man + d }\n\
         move take(d) { require coin at man + d  remove coin  keys += 1 }\n\
         move walk(d) { forbid coin at man + d  shift man d }\n\
         move open(d) { require keys > 0  keys -= 1 }\n\
         goal man on exit and keys == 0\nlevel \"a\" \"\"\"\n  @..E\n  \"\"\"\n",
        // Every copy of a kind the level lacks, and a forbid about it.
        "move walk(d) { forbid ghost at man + d  shift each ghost d  shift man d }\n\
         goal man on exit and count(ghost) == 0\nlevel \"a\" \"\"\"\n  @..E\n  \"\"\"\n",
        // A goal on a tile that only appears in play.
        "move walk(d) { shift man d  change dark -> floor at man }\n\
         goal man on exit and count(dark) == 0\nlevel \"a\" \"\"\"\n  @ddE\n  \"\"\"\n",
    ];
    for (i, body) in cases.iter().enumerate() {
        let src = format!("{head}{body}");
        let p = Puzzle::load("quiet.puz", src.clone())
            .unwrap_or_else(|d| panic!("case {i} does not load: {d:?}\n{src}"));
        if let Some(w) = p.lints() {
            panic!("case {i} warns:\n{}\n{src}", w.render_plain(WIDTH));
        }
    }
}

/// At the board's edge the `outside` tile is a `before` event and never an `into` one (a
/// slide never leaves the board), and the lint says so: `before wall: stop` with `outside
/// wall` stops the stone at the edge, with no warning; `into wall: stop` does not, the
/// slide fails there, and the lint warns, naming the way the stone goes.
#[test]
fn the_outside_tile_is_a_before_event_at_the_edge() {
    let rules = |event: &str| {
        format!(
            "puzzle \"Ice\"\ntiles {{ ice wall }}\noutside wall\nmarks {{ goal }}\npiece stone\n\
             legend {{ '.' ice  'o' ice + stone  'G' ice + goal }}\n\
             dirs {{ n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }}\n\
             move slide(d) {{ slide stone d {{ into goal: stop  {event} }} }}\n\
             forbid stone on wall\ngoal stone on goal\n\
             level \"edge\" \"\"\"\n  o..\n  ..G\n  \"\"\"\n"
        )
    };
    // Before: south to the edge (1,0), then east into the goal.
    let before = Puzzle::load("before.puz", rules("before wall: stop")).expect("loads");
    assert!(before.lints().is_none(), "{:?}", before.lints());
    let level = before.inline_level(0).expect("the level");
    let ans = solve(
        &before.model,
        level,
        EngineChoice::Interp,
        &Budget::default(),
    )
    .expect("solves");
    let Outcome::Solved(path) = ans.outcome else {
        panic!("no solution: {:?}", ans.outcome)
    };
    let letters: String = path
        .actions
        .iter()
        .map(|&a| before.model.letter(a))
        .collect();
    assert_eq!(letters, "se");
    // Into: every slide runs to the edge and fails there; nothing moves.
    let into = Puzzle::load("into.puz", rules("into wall: stop")).expect("loads");
    let level = into.inline_level(0).expect("the level");
    let ans = solve(&into.model, level, EngineChoice::Interp, &Budget::default()).expect("solves");
    assert!(
        matches!(ans.outcome, Outcome::Unsolvable),
        "{:?}",
        ans.outcome
    );
    let w = into.lints().expect("the slide can run off");
    assert!(
        w.problems
            .iter()
            .any(|p| matches!(p, Problem::SlideOffBoard { why, .. } if why == "from (0,0) going n, `stone` reaches the edge")),
        "{}",
        w.render_plain(WIDTH)
    );
}
