//! `Session::why_not`: why an input changed nothing, on small games written here (a
//! rule's cancel, a wall, a crate pushed into a wall, the edge of the board, a rule
//! taking the movement away, require_player_movement, noaction, undo and restart, a
//! restart rule, again turns that never settle, and a budget that runs out).

use std::sync::Arc;
use std::time::{Duration, Instant};

use puz::puzzlescript::{Block, Cell, Game, Input, Obstacle, OnWin, Session, WhyNot};
use puz::search::Budget;

/// A game: `prelude` lines, then objects Background, Wall, Player, Crate, Target, A, B,
/// C, `rules`, and `level`.
fn game(prelude: &str, rules: &str, level: &str) -> Game {
    let text = format!(
        "title t\n{prelude}\n\
         ========\nOBJECTS\n========\n\n\
         Background\nblack\n\nWall\nbrown\n\nPlayer\nblue\n\nCrate\norange\n\nTarget\nred\n\n\
         A\nwhite\n\nB\ngreen\n\nC\nyellow\n\n\
         =======\nLEGEND\n=======\n\n\
         . = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n1 = A\n2 = B\n\n\
         =======\nSOUNDS\n=======\n\n\
         ================\nCOLLISIONLAYERS\n================\n\n\
         Background\nTarget\nPlayer, Wall, Crate\nA, B, C\n\n\
         ======\nRULES\n======\n\n{rules}\n\n\
         ==============\nWINCONDITIONS\n==============\n\n\
         =======\nLEVELS\n=======\n\n{level}\n"
    );
    match Game::load("t.txt", Arc::new(text)) {
        Ok((g, _)) => g,
        Err(d) => panic!(
            "{:?}",
            d.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>()
        ),
    }
}

const PUSH: &str = "[ > Player | Crate ] -> [ > Player | > Crate ]";

/// The line of `rule` in the game's source.
fn line_of(g: &Game, rule: &str) -> usize {
    g.source()
        .lines()
        .position(|l| l.trim() == rule)
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("{rule} not in the source"))
}

/// Plays `inputs`, then the last one must change nothing; why.
fn refused(g: &Game, inputs: &[Input]) -> WhyNot {
    let mut s = Session::new(g, 0, OnWin::Stop).expect("the level");
    let mut last = None;
    for &i in inputs {
        let t = s.input(i);
        last = Some((i, t));
    }
    let (i, t) = last.expect("an input");
    assert!(!t.changed, "{i:?} changed the level");
    let why = s.why_not(i).expect("a reason");
    // Asked again, the same answer: the session is untouched.
    assert_eq!(s.why_not(i).as_ref(), Some(&why));
    why
}

#[test]
fn whynot_names_the_wall() {
    let g = game("", PUSH, "####\n#P##\n####");
    let why = refused(&g, &[Input::Right]);
    assert_eq!(
        why,
        WhyNot::Blocked {
            chain: vec![Block {
                object: "player".into(),
                at: Cell { x: 1, y: 1 },
                dir: "right",
                by: Obstacle::Object {
                    name: "wall".into(),
                    at: Cell { x: 2, y: 1 },
                },
            }],
            others: 0,
        }
    );
    assert_eq!(
        why.to_string(),
        "the player at 1,1 cannot move right: the wall at 2,1 is in the way"
    );
    assert_eq!(why.cells(), vec![Cell { x: 1, y: 1 }, Cell { x: 2, y: 1 }]);
}

#[test]
fn whynot_follows_a_pushed_crate_to_the_wall() {
    let g = game("", PUSH, "#####\n#P*##\n#####");
    let why = refused(&g, &[Input::Right]);
    assert_eq!(
        why.to_string(),
        "the player at 1,1 cannot move right: the crate at 2,1 is in the way, \
         and the crate cannot move right: the wall at 3,1 is in the way"
    );
    assert_eq!(why.kind(), "blocked");
}

#[test]
fn whynot_names_the_edge_of_the_board() {
    let g = game("", PUSH, "..\nP.");
    assert_eq!(
        refused(&g, &[Input::Left]).to_string(),
        "the player at 0,1 cannot move left: it would leave the board"
    );
    assert_eq!(
        refused(&g, &[Input::Down]).to_string(),
        "the player at 0,1 cannot move down: it would leave the board"
    );
    // A crate pushed off the board.
    let g = game("", PUSH, "P*");
    assert_eq!(
        refused(&g, &[Input::Right]).to_string(),
        "the player at 0,0 cannot move right: the crate at 1,0 is in the way, \
         and the crate cannot move right: it would leave the board"
    );
}

#[test]
fn whynot_names_the_cancel_rule() {
    let rule = "[ > Player | Target ] -> cancel";
    let g = game("", &format!("{PUSH}\n{rule}"), "P.O\n...");
    let line = line_of(&g, rule);
    // The first move right is free; the second would step on the target.
    let why = refused(&g, &[Input::Right, Input::Right]);
    match &why {
        WhyNot::Cancelled { rule: r } => {
            assert_eq!(r.line, line);
            assert_eq!(r.text, rule);
            assert_eq!(&g.source()[r.span.0..r.span.1], rule);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(why.rule().map(|r| r.line), Some(line));
    assert_eq!(
        why.to_string(),
        format!("cancelled by the rule on line {line}: `{rule}`")
    );
}

#[test]
fn whynot_names_the_rule_that_took_the_movement() {
    for rule in [
        "[ > Player | Target ] -> [ Player | Target ]",
        "[ > Player | Target ] -> [ stationary Player | Target ]",
    ] {
        let g = game("", &format!("{PUSH}\n{rule}"), "PO.");
        let line = line_of(&g, rule);
        let why = refused(&g, &[Input::Right]);
        assert_eq!(
            why.to_string(),
            format!("the rule on line {line}: `{rule}` stopped the player at 0,0 moving right")
        );
        assert_eq!(why.cells(), vec![Cell { x: 0, y: 0 }]);
    }
}

#[test]
fn whynot_require_player_movement() {
    let g = game("require_player_movement", PUSH, "P#\n..");
    let why = refused(&g, &[Input::Right]);
    assert_eq!(
        why.to_string(),
        "the player did not move, so require_player_movement cancelled the turn \
         (the player at 0,0 cannot move right: the wall at 1,0 is in the way)"
    );
    assert_eq!(why.kind(), "player_did_not_move");
    // A rule that would change something elsewhere is cancelled with it.
    let g = game(
        "require_player_movement",
        &format!("{PUSH}\n[ moving Player ] [ A ] -> [ moving Player ] [ B ]"),
        "P#1",
    );
    assert!(matches!(
        refused(&g, &[Input::Right]),
        WhyNot::PlayerDidNotMove { because: Some(_) }
    ));
}

#[test]
fn whynot_noaction_undo_restart() {
    let g = game("noaction", PUSH, "P.");
    assert_eq!(refused(&g, &[Input::Action]), WhyNot::NoAction);
    assert_eq!(refused(&g, &[Input::Undo]), WhyNot::NothingToUndo);
    assert_eq!(refused(&g, &[Input::Restart]), WhyNot::AtRestartPoint);
    // Undone to the start: nothing more to undo; restarted: as it started.
    assert_eq!(
        refused(&g, &[Input::Right, Input::Undo, Input::Undo]),
        WhyNot::NothingToUndo
    );
    assert_eq!(
        refused(&g, &[Input::Right, Input::Restart, Input::Restart]),
        WhyNot::AtRestartPoint
    );
    let g = game("noundo\nnorestart", PUSH, "P.");
    assert_eq!(refused(&g, &[Input::Right, Input::Undo]), WhyNot::NoUndo);
    assert_eq!(
        refused(&g, &[Input::Right, Input::Restart]),
        WhyNot::NoRestart
    );
    // Without noaction, an action no rule reads changes nothing.
    let g = game("", PUSH, "P.");
    assert_eq!(refused(&g, &[Input::Action]), WhyNot::NothingHappened);
    assert_eq!(refused(&g, &[Input::Tick]), WhyNot::NothingHappened);
    // Without a player, a direction moves nothing.
    let g = game("", PUSH, "..#");
    assert_eq!(refused(&g, &[Input::Up]), WhyNot::NoPlayer);
    // An input that changes the level has no why-not.
    let s = Session::new(&g, 0, OnWin::Stop).unwrap();
    let g2 = game("", PUSH, "P.");
    let s2 = Session::new(&g2, 0, OnWin::Stop).unwrap();
    assert_eq!(s2.why_not(Input::Right), None);
    drop(s);
}

#[test]
fn whynot_names_the_restart_rule() {
    let rule = "[ > Player | Target ] -> restart";
    let g = game("", &format!("{PUSH}\n{rule}"), "PO.");
    let line = line_of(&g, rule);
    match refused(&g, &[Input::Right]) {
        WhyNot::Restarted { rule: r } => assert_eq!(r.line, line),
        other => panic!("{other:?}"),
    }
}

#[test]
fn whynot_says_when_the_turn_ended_where_it_started() {
    // The player steps right, and a late rule puts it back.
    let rule = "late [ Player Target ] -> [ Target ]";
    let g = game(
        "",
        &format!("{PUSH}\n[ > Player | Target ] -> [ > Player A | Target ]\n{rule}\nlate [ A ] -> [ Player ]"),
        "PO",
    );
    let why = refused(&g, &[Input::Right]);
    let lines: Vec<String> = [
        "[ > Player | Target ] -> [ > Player A | Target ]",
        rule,
        "late [ A ] -> [ Player ]",
    ]
    .iter()
    .map(|r| line_of(&g, r).to_string())
    .collect();
    assert_eq!(
        why.to_string(),
        format!(
            "the level changed but ended as it started (the rules on lines {} fired)",
            lines.join(", ")
        )
    );
    // Two objects moving into each other block each other, once.
    let g = game(
        "",
        &format!("{PUSH}\n[ > Player | ... | Crate ] -> [ > Player | ... | < Crate ]"),
        "P*",
    );
    assert_eq!(
        refused(&g, &[Input::Right]).to_string(),
        "the player at 0,0 cannot move right: the crate at 1,0 is in the way, \
         and the crate cannot move left: the player at 0,0 is in the way"
    );
}

/// Every A becomes B and every B becomes A, each turn, with `again`: a cycle.
const SWAP: &str = "[ A ] -> [ C ]\n[ B ] -> [ A ] again\n[ C ] -> [ B ] again";

#[test]
fn whynot_names_the_rules_of_again_turns_that_never_settle() {
    let g = game("", &format!("{PUSH}\n{SWAP}"), "P12");
    let mut s = Session::new(&g, 0, OnWin::Stop).unwrap();
    let t = s.input(Input::Tick);
    assert!(t.stuck, "{t:?}");
    assert!(!s.playing());
    let why = s.why_not(Input::Right).expect("stuck");
    match &why {
        WhyNot::Stuck { cycle, rules, .. } => {
            assert!(*cycle);
            let lines: Vec<usize> = rules.iter().map(|f| f.rule.line).collect();
            let want: Vec<usize> = SWAP.lines().map(|r| line_of(&g, r)).collect();
            assert_eq!(lines, want, "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert!(why.to_string().contains("keep firing"), "{why}");
    // Asked before the input, the same reason.
    let s = Session::new(&g, 0, OnWin::Stop).unwrap();
    assert!(matches!(s.why_not(Input::Tick), Some(WhyNot::Stuck { .. })));
}

#[test]
fn whynot_won() {
    let g = game("", PUSH, "P*.");
    let text = g.source().replace(
        "WINCONDITIONS\n==============\n",
        "WINCONDITIONS\n==============\nsome crate\n",
    );
    let (g, _) = Game::load("t.txt", Arc::new(text)).unwrap();
    let mut s = Session::new(&g, 0, OnWin::Stop).unwrap();
    assert!(s.input(Input::Left).won);
    s.input(Input::Left);
    assert_eq!(s.why_not(Input::Left), Some(WhyNot::Won));
}

#[test]
fn a_session_budget_stops_long_turns() {
    // A 400x400 level where every turn rewrites every cell 200 times (a group that never
    // settles), under a budget of a fraction of a second.
    let row = "1".repeat(400);
    let level = vec![row.as_str(); 400];
    let g = game(
        "",
        "[ A ] -> [ B ]\n+ [ B ] -> [ A ]\n[ A ] -> [ C ] again\n[ C ] -> [ A ] again",
        &format!("P{}", &level.join("\n")[1..]),
    );
    let t0 = Instant::now();
    let budget = Budget {
        deadline: Some(Instant::now() + Duration::from_millis(300)),
        ..Budget::default()
    };
    let mut s = Session::with_budget(&g, 0, OnWin::Stop, budget).unwrap();
    let t = s.input(Input::Tick);
    assert!(t.cutoff.is_some(), "{t:?}");
    assert!(s.cutoff().is_some());
    assert!(!s.playing());
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    // Later inputs are refused at once, and say why.
    assert!(s.input(Input::Tick).cutoff.is_some());
    assert_eq!(s.why_not(Input::Tick).map(|w| w.kind()), Some("cut_off"));
}

/// On every deterministic demo game's first level, a fixed pseudo-random walk: before
/// each input, `why_not` predicts whether it changes nothing, and the input agrees; the
/// explanation of each refused input has a message.
#[test]
fn whynot_agrees_with_play_on_every_demo() {
    let Some(root) =
        crate::common::ps_data::reference_or_skip("whynot_agrees_with_play_on_every_demo")
    else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(root.join("src/demo"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut kinds = std::collections::BTreeMap::new();
    let mut seed = 0x2545_f491_u64;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let (g, _) = Game::load(&f.display().to_string(), Arc::new(text)).unwrap();
        if g.is_random() {
            continue;
        }
        let Some(entry) = g.playable(1) else { continue };
        let mut s = Session::new(&g, entry, OnWin::Stop).unwrap();
        for step in 0..150 {
            if !s.playing() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let input = [
                Input::Up,
                Input::Left,
                Input::Down,
                Input::Right,
                Input::Action,
            ][(seed % 5) as usize];
            let why = s.why_not(input);
            let t = s.input(input);
            let refused = !t.changed && !t.won && !t.stuck;
            if t.stuck {
                assert!(
                    matches!(why, Some(WhyNot::Stuck { .. })),
                    "{}: {why:?}",
                    f.display()
                );
            } else {
                assert_eq!(
                    why.is_some(),
                    refused,
                    "{} input {step} {input:?}: {why:?}, turn {t:?}",
                    f.display()
                );
            }
            if let Some(w) = &why {
                assert!(!w.to_string().is_empty());
                *kinds.entry(w.kind()).or_insert(0) += 1;
                // Asked after the refused input, the same reason.
                if refused {
                    assert_eq!(s.why_not(input).as_ref(), Some(w), "{}", f.display());
                }
            }
        }
    }
    assert!(kinds.contains_key("blocked"), "{kinds:?}");
    eprintln!("why-not reasons on the demos: {kinds:?}");
}
