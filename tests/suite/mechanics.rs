//! The general mechanics, one construct at a time, end to end through the library: small
//! rule files whose answers are worked out by hand in the comments. The corpus suites
//! (`tests/corpus_*.rs`) check whole puzzles against independent brute forces.

use crate::common;

use common::drive::solve_text;
use puz::solver::EngineChoice;
use puz::Puzzle;

const DIRS: &str = "dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }";

fn puzzle(src: &str) -> Puzzle {
    Puzzle::load("test.puz", format!("{DIRS}\n{src}")).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Cost (first component) and letters of the level, or `None`.
fn solve(p: &Puzzle, level: &str) -> Option<(u64, String)> {
    solve_text(p, level, EngineChoice::Interp)
        .1
        .map(|(c, l)| (c[0], l))
}

#[test]
fn a_jump_removes_another_copy_and_counts_reach_the_goal() {
    let p = puzzle(
        "tiles { hole void } outside void piece peg anonymous
         legend { '.' hole 'o' hole + peg }
         move jump(d) { letters \"nswe\"
           require peg at peg + d as over  require hole at peg + 2d  forbid peg at peg + 2d
           remove over  shift peg 2d }
         forbid peg on void
         goal count(peg) == 1",
    );
    // oo. -> ..o (one jump east); .oo -> o.. (one jump west).
    assert_eq!(solve(&p, "oo.\n"), Some((1, "e".into())));
    assert_eq!(solve(&p, ".oo\n"), Some((1, "w".into())));
    // A lone pair with no room, and three in a row on a 3-cell strip: stuck.
    assert_eq!(solve(&p, "oo\n"), None);
    assert_eq!(solve(&p, "ooo\n"), None);
    // `as` never binds the jumper itself: a single peg has nothing to jump.
    assert_eq!(solve(&p, "o..\no..\n"), None);
    // Three in a row with room at both ends: whichever middle jump comes first leaves
    // two pegs apart. `oo.o.`: the first peg jumps east (`..oo.`), then the peg at 3
    // jumps west (w comes before e in `dirs`) or east: `ew` is the smaller.
    assert_eq!(solve(&p, ".ooo.\n"), None);
    assert_eq!(solve(&p, "oo.o.\n"), Some((2, "ew".into())));
}

#[test]
fn counters_bound_what_a_move_may_do() {
    let p = puzzle(
        "tiles { floor wall door } outside wall marks { exit }
         piece man  piece key anonymous
         counter keys max 1
         legend { '.' floor '#' wall 'D' door '@' floor + man 'k' floor + key 'E' floor + exit }
         move walk(d) { letters \"nswe\"
           if door at man + d { require keys > 0  keys -= 1  change door -> floor at man + d }
           shift man d
           if key at man { remove key  keys += 1 } }
         forbid man on wall
         goal man on exit",
    );
    assert_eq!(solve(&p, "@kDE\n"), Some((3, "eee".into())));
    assert_eq!(solve(&p, "@.DE\n"), None);
    // Two doors, one key at a time (max 1): pick, open, pick, open.
    assert_eq!(solve(&p, "@kDkDE\n"), Some((5, "eeeee".into())));
    // Two keys in a row: the second cannot be held (1 max), so that walk is cancelled.
    assert_eq!(solve(&p, "@kkDE\n"), None);
}

#[test]
fn toggles_change_tiles_everywhere_on_a_mark_or_at_a_cell() {
    let p = puzzle(
        "tiles { on off }
         legend { '*' on '.' off }
         move press(cell c) { letters \"p\"
           toggle on off at c  toggle on off at c + n  toggle on off at c + s
           toggle on off at c + w  toggle on off at c + e }
         goal count(on) == 0",
    );
    // A plus shape is one press at its centre (cell 4 of the 3x3).
    assert_eq!(solve(&p, ".*.\n***\n.*.\n").map(|x| x.0), Some(1));
    // Every light of a 1x3 strip: press the middle... (on on on) -> (off off off).
    assert_eq!(solve(&p, "***\n").map(|x| x.0), Some(1));
    assert_eq!(solve(&p, "...\n").map(|x| x.0), Some(0));
    // 1x2 with one light on: press the cell that is off? It toggles both: no.
    // Pressing either toggles both lights, so `*.` can never go dark.
    assert_eq!(solve(&p, "*.\n"), None);

    let q = puzzle(
        "tiles { floor bridge gap } outside gap marks { sw exit }
         piece man
         legend { '.' floor 'b' bridge 'g' gap 'S' floor + sw '@' floor + man 'E' floor + exit }
         move walk(d) { letters \"nswe\" shift man d  if sw at man { toggle bridge gap everywhere } }
         forbid man on gap
         goal man on exit",
    );
    // Stepping on the switch raises the bridge; stepping back on lowers it again.
    assert_eq!(solve(&q, "@SgE\n"), Some((3, "eee".into())));
    assert_eq!(solve(&q, "S@gE\n"), Some((4, "weee".into())));
}

#[test]
fn every_copy_slides_the_farthest_first_and_a_tilt_that_moves_nothing_is_no_move() {
    let p = puzzle(
        "tiles { floor wall } outside wall marks { target }
         piece marble anonymous
         legend { '.' floor '#' wall 'm' floor + marble 't' floor + target 'M' floor + marble + target }
         move tilt(d) { letters \"nswe\" slide each marble d { before wall: stop  before marble: stop  off board: stop } }
         goal marble on target",
    );
    // Two marbles tilted east stack against the edge, the farthest first.
    assert_eq!(solve(&p, "mm.tt\n"), Some((1, "e".into())));
    // Already solved: cost 0; a board where no tilt moves anything has no moves at all.
    assert_eq!(solve(&p, "MM\n").map(|x| x.0), Some(0));
    assert_eq!(solve(&p, "mt\n"), Some((1, "e".into())));
    assert_eq!(solve(&p, "tm\n"), Some((1, "w".into())));
    assert_eq!(solve(&p, "mm\n.t\n"), None);
}

#[test]
fn an_outside_tile_stops_a_slide_before_it() {
    let p = puzzle(
        "tiles { ice rock } outside rock marks { exit }
         piece player
         legend { '.' ice '#' rock '@' ice + player 'E' ice + exit }
         move slide(d) { letters \"nswe\" slide player d { before rock: stop } }
         forbid player on rock
         goal player on exit",
    );
    // Beyond the board is rock: the slide east stops on the last cell.
    assert_eq!(solve(&p, "@..E\n"), Some((1, "e".into())));
    // The exit counts only where a slide stops: sliding over it does not.
    assert_eq!(solve(&p, "@.E.\n"), None);
}

#[test]
fn created_copies_need_room_and_appear_where_the_move_says() {
    let p = puzzle(
        "tiles { floor } outside floor marks { spot }
         piece man  piece coin anonymous max 2
         legend { '.' floor '@' floor + man 's' floor + spot }
         move drop(d) { letters \"nswe\" create coin at man + d }
         move walk(d) { letters \"NSWE\" shift man d }
         forbid man on spot
         goal count(coin) == 2 and coin on spot",
    );
    // Drop a coin on each spot: west then east, no walking needed.
    assert_eq!(solve(&p, "s@s\n"), Some((2, "we".into())));
    // Three spots but room for two: `coin on spot` holds for both, the count is met.
    assert_eq!(solve(&p, "s@ss\n").map(|x| x.0), Some(2));
}

/// A named piece may be removed and created again: `create` fails while it is on the
/// board (a named piece has one place), and puts it back in its first pose whatever pose
/// it left in (`create man.b` names the pose).
#[test]
fn a_named_piece_removed_can_be_created_again_in_its_first_pose() {
    let rules = |create: &str, remove: bool| {
        puzzle(&format!(
            "tiles {{ floor }} marks {{ target }} counter done max 1
             piece man {{ pose a {{ (0, 0) }} pose b {{ (0, 0) }} }}
             legend {{ '.' floor 'M' floor + man.b 'T' floor + target }}
             move walk(d in e) {{ letters \"e\" shift man d }}
             {}
             move appear(cell c) {{ letters \"c\" {create} }}
             move check(d in e) {{ letters \"!\" require man.a on target  done = 1 }}
             goal done == 1",
            if remove {
                "move vanish(d in e) { letters \"x\" remove man }"
            } else {
                ""
            }
        ))
    };
    // The man starts in pose b; removed and created on the target, he is in pose a.
    assert_eq!(
        solve(&rules("create man at c", true), "M.T\n"),
        Some((3, "xc!".into()))
    );
    // Never removed, he can never be created: pose b for good.
    assert_eq!(solve(&rules("create man at c", false), "M.T\n"), None);
    // Created in pose b, he never is in pose a.
    assert_eq!(solve(&rules("create man.b at c", true), "M.T\n"), None);
}

#[test]
fn loops_visit_every_cell_of_a_piece_and_conditions_pick_a_branch() {
    let p = puzzle(
        "tiles { floor soft bridge gap } outside gap marks { exit }
         piece bar { pose h { (0, 0) (0, 1) } }
         legend { '.' floor 'a' soft 'b' bridge 'g' gap 'B' floor + bar 'E' floor + exit }
         move roll(d in w, e) { letters \"<>\" shift bar d
           for c in bar { if soft at c { toggle bridge gap everywhere } } }
         forbid bar on gap
         goal bar on exit",
    );
    // Arriving with one soft cell under the bar toggles the gap (cell 4), with two it
    // toggles twice (no change). The bar may cover cell 4 only while it is a bridge, so it
    // must reach anchor 2 with the gap down: e (toggle), w, e (toggle back), e (two: no
    // change), e (toggle: bridge), e, e, e. Were two activations not to cancel, 6 moves
    // would do.
    assert_eq!(solve(&p, "BBaag.EE\n"), Some((8, "><>>>>>>".into())));
    // One soft cell (2) next to the gap (3): anchors 1 and 2 both toggle. e (bridge),
    // then e would toggle it back under the bar; so w, e (gap), e (bridge), e, e, e.
    assert_eq!(solve(&p, "BBag.EE\n"), Some((7, "><>>>>>".into())));
}

#[test]
fn a_goal_picture_asks_for_every_piece_in_its_place() {
    let level = |start: &str, goal: &str| {
        let src = format!(
            "{DIRS}\ntiles {{ floor }} piece blank piece a piece b
             legend {{ '_' floor + blank 'a' floor + a 'b' floor + b }}
             move slide(d) {{ letters \"nswe\" swap blank d }}
             level \"l\" \"\"\"\n{start}\n\"\"\" goal \"\"\"\n{goal}\n\"\"\""
        );
        let q = Puzzle::load("pic.puz", src).unwrap_or_else(|d| panic!("{d:?}"));
        let lv = q.inline_level(0).expect("level");
        common::drive::solve_level(&q, lv, EngineChoice::Interp, "picture")
            .1
            .map(|x| x.0[0])
    };
    assert_eq!(level("ab_", "a_b"), Some(1));
    assert_eq!(level("ab_", "_ab"), Some(2));
    assert_eq!(level("ab_", "ab_"), Some(0));
    // A 1x3 strip can never swap a and b.
    assert_eq!(level("ab_", "ba_"), None);
}

#[test]
fn a_level_file_for_picture_goals_is_refused_and_far_reaches_are_refused() {
    let p = Puzzle::load(
        "pic.puz",
        format!(
            "{DIRS}\ntiles {{ floor }} piece blank piece a
             legend {{ '_' floor + blank 'a' floor + a }}
             move slide(d) {{ swap blank d }}
             level \"l\" \"\"\"\na_\n\"\"\" goal \"\"\"\n_a\n\"\"\""
        ),
    )
    .expect("loads");
    let err = p
        .level_from_file("lvl.txt", "a_\n".into())
        .expect_err("no goal for a level file");
    assert!(format!("{err:?}").contains("LevelWithoutGoal"), "{err:?}");

    let far = puzzle(
        "tiles { floor } outside floor piece man
         legend { '.' floor '@' floor + man }
         move hop(d) { require floor at man + 64d + 64d + 64d + 64d + 64d  shift man d }
         goal man on floor",
    );
    let level = far.level_from_file("l", "@.\n".into()).expect("level");
    let e = puz::solver::solve(
        &far.model,
        level,
        EngineChoice::Interp,
        &puz::search::Budget::default(),
    )
    .expect_err("refused");
    assert!(e.to_string().contains("at most 256"), "{e}");
}

/// Breadth-first search extends paths of commuting moves only by larger actions; the
/// answer must be the one plain breadth-first search gives. A second rule file adds a
/// move that never applies and is no flip, which turns the pruning off.
#[test]
fn commuting_moves_are_searched_in_increasing_order_with_the_same_answers() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/lightsout.puz"
    ))
    .expect("lightsout.puz");
    let plain_src = src.replacen(
        "\ngoal",
        "\nmove never(cell c) { letters \"x\" adds presses require on at c + 60n require off at c + 60n toggle on off at c }\ngoal",
        1,
    );
    let flips = Puzzle::load("lightsout.puz", src).expect("loads");
    let plain = Puzzle::load("plain.puz", plain_src).expect("loads");
    let mut seed = 0x5eed_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut solved = 0;
    for _ in 0..120 {
        let (r, c) = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3)][(next() % 5) as usize];
        let level: String = (0..r)
            .map(|_| {
                let row: String = (0..c)
                    .map(|_| if next() % 2 == 0 { '*' } else { '.' })
                    .collect();
                row + "\n"
            })
            .collect();
        let path = |p: &Puzzle| {
            let lv = p.level_from_file("random", level.clone()).expect("level");
            match puz::solver::solve(
                &p.model,
                lv,
                EngineChoice::Interp,
                &puz::search::Budget::default(),
            )
            .expect("solves")
            .outcome
            {
                puz::search::Outcome::Solved(path) => Some(path.states),
                _ => None,
            }
        };
        let (a, b) = (path(&flips), path(&plain));
        solved += usize::from(a.is_some());
        assert_eq!(a, b, "{level}");
    }
    assert!(solved > 30, "only {solved} solvable levels");
}
