//! Playing levels by hand through `puz::play::Game`: known answers played action by
//! action, undo and restart, blocked moves explained with the right statement of the
//! source, hostile wishes, `legal()` against the expander, board views of changed tiles,
//! and palettes.

use puz::engine::budget::Budget;
use puz::engine::whynot::IS_A_MOVE;
use puz::io::view::{board_view, palette};
use puz::play::{move_infos, ActionRef, Blocked, Game, Want};
use puz::Puzzle;

fn load(file: &str) -> (Puzzle, String) {
    let path = format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("puzzle file");
    (Puzzle::load(&path, text.clone()).expect("loads"), text)
}

fn game<'m>(p: &'m Puzzle, level: usize) -> Game<'m> {
    let lvl = p.inline_level(level).expect("level");
    Game::new(&p.model, lvl, &Budget::default()).expect("setup")
}

fn dir(d: &str) -> Want {
    Want {
        dir: Some(d.to_string()),
        ..Want::default()
    }
}

/// The source text a blocked answer points at.
fn pointed<'t>(text: &'t str, b: &Blocked) -> &'t str {
    let [a, z] = b.span.unwrap_or_else(|| panic!("no span in {b:?}"));
    &text[a..z]
}

#[test]
fn bloxorz_optimal_answer_played_by_direction_reaches_the_goal() {
    let (p, _) = load("bloxorz.puz");
    let mut g = game(&p, 0);
    // `puz solve puzzles/bloxorz.puz`: cost 10, `wsssseneen`.
    let answer = "wsssseneen";
    for (i, ch) in answer.chars().enumerate() {
        assert!(!g.is_goal(), "goal before move {i}");
        let played = g.play(&dir(&ch.to_string())).expect("legal step");
        assert_eq!(played.action.mv, "roll");
        assert_eq!(played.action.dir.as_deref(), Some(&*ch.to_string()));
        assert_eq!(played.piece.as_deref(), Some("block"));
        assert_eq!(played.step_cost, vec![1]);
        assert!(played.line.starts_with("roll block ("), "{}", played.line);
        assert_eq!(played.goal, i + 1 == answer.len());
    }
    assert!(g.is_goal());
    assert_eq!(g.cost(), vec![10]);
    assert_eq!(g.moves(), 10);
    let hist: String = g
        .history()
        .iter()
        .map(|a| a.dir.clone().expect("dir"))
        .collect();
    assert_eq!(hist, answer);
    let board = g.board();
    assert_eq!(board.pieces.len(), 1);
    assert_eq!(board.pieces[0].pose, "stand");
    assert_eq!(board.pieces[0].cells, vec![[2, 5]]);
    assert_eq!(board.pieces[0].anchor, [2, 5]);

    // Undo one step: no longer at the goal, one move fewer, the block lies again.
    assert!(g.undo());
    assert!(!g.is_goal());
    assert_eq!(g.moves(), 9);
    assert_eq!(g.cost(), vec![9]);
    assert_eq!(g.board().pieces[0].cells.len(), 2);
    // Replaying the history through `apply` lands where `play` did.
    let hist = g.history();
    let here = g.state().to_vec();
    g.restart();
    assert_eq!(g.moves(), 0);
    assert_eq!(g.board().pieces[0].anchor, [1, 3]);
    for a in &hist {
        g.apply(a).expect("history replays");
    }
    assert_eq!(g.state(), &here[..]);
    g.restart();
    assert!(!g.undo(), "nothing to undo at the start");
}

#[test]
fn bloxorz_blocked_rolls_name_the_block_and_the_forbid() {
    let (p, text) = load("bloxorz.puz");
    // "no frame": X..E. / ..#.. / E..O. ; the block stands at (0,0), no void frame.
    let lvl = p.level_index("no frame").expect("level");
    let mut g = game(&p, lvl);
    // Rolling off the edge: the anchor would leave the board, which the turn refuses.
    let b = g.play(&dir("n")).expect_err("off the edge");
    assert!(
        b.message.starts_with("roll n: `block` (stand) at (0,0)"),
        "{}",
        b.message
    );
    assert!(b.message.contains("leave the board"), "{}", b.message);
    assert!(b.message.contains("(-2,0)"), "{}", b.message);
    assert!(
        pointed(&text, &b).starts_with("turn block {"),
        "{}",
        pointed(&text, &b)
    );
    assert_eq!(b.tried.len(), 1);
    assert_eq!(b.tried[0].action.dir.as_deref(), Some("n"));
    // Lying across the edge with one cell beyond it: `outside void` is forbidden.
    let sample = p.level_index("sample").expect("level");
    let mut s = game(&p, sample);
    let b = s.play(&dir("e")).expect_err("into the frame");
    assert!(b.message.contains("`void` at (1,4)"), "{}", b.message);
    assert!(b.message.contains("in pose `cols`"), "{}", b.message);
    assert_eq!(pointed(&text, &b), "forbid block on void");
    // Into the hole at (1,2): lie along (0,1)-(0,2), then roll south.
    g.play(&dir("e")).expect("roll e");
    let b = g.play(&dir("s")).expect_err("into the hole");
    assert!(
        b.message.contains("`block` (cols) at (0,1)"),
        "{}",
        b.message
    );
    assert!(b.message.contains("`void` at (1,2)"), "{}", b.message);
    assert_eq!(pointed(&text, &b), "forbid block on void");
    // Standing on fragile floor at (0,3) is ruled out by the pose's own forbid.
    let b = g.play(&dir("e")).expect_err("fragile");
    assert!(b.message.contains("`fragile` at (0,3)"), "{}", b.message);
    assert_eq!(pointed(&text, &b), "forbid block.stand on fragile");
    // Nothing changed while refusing.
    assert_eq!(g.moves(), 1);
}

/// A Sokoban level read from a file's text.
fn sokoban_level<'m>(p: &'m Puzzle, rows: &str) -> Game<'m> {
    let lvl = p.level_from_file("t.txt", rows.to_string()).expect("level");
    Game::new(&p.model, lvl, &Budget::default()).expect("setup")
}

#[test]
fn sokoban_pushing_into_a_wall_blames_the_wall_forbid() {
    let (p, text) = load("sokoban.puz");
    let mut g = sokoban_level(&p, "######\n#SB#T#\n#....#\n######\n");
    let b = g.play(&dir("e")).expect_err("box against the wall");
    // Both `walk e` and `push e` were tried; the push got farther and is told.
    assert_eq!(b.tried.len(), 2, "{:?}", b.tried);
    assert_eq!(b.tried[0].action.mv, "walk");
    assert!(
        b.tried[0].why.contains("would overlap `box`"),
        "{}",
        b.tried[0].why
    );
    assert_eq!(
        &text[b.tried[0].span.expect("span")[0]..b.tried[0].span.expect("span")[1]],
        "shift man d"
    );
    assert!(
        b.message.starts_with("push e: `box` at (1,2)"),
        "{}",
        b.message
    );
    assert!(b.message.contains("`wall` at (1,3)"), "{}", b.message);
    assert_eq!(pointed(&text, &b), "forbid box on wall");
    // Naming the move narrows the candidates to it.
    let b = g
        .play(&Want {
            mv: Some("push".into()),
            dir: Some("s".into()),
            cell: None,
        })
        .expect_err("no box south");
    assert!(b.message.contains("needs `box` at (2,1)"), "{}", b.message);
    assert_eq!(pointed(&text, &b), "require box at man + d");
    // Walk round below the box: pushing it north runs it into the wall above.
    g.play(&dir("s")).expect("walk s");
    g.play(&dir("e")).expect("walk e");
    let played = g.play(&dir("n")).expect_err("box at (1,2) north is a wall");
    assert!(
        played.message.contains("`wall` at (0,2)"),
        "{}",
        played.message
    );
}

#[test]
fn sokoban_two_boxes_in_a_row_overlap_at_the_shift() {
    let (p, text) = load("sokoban-boxes.puz");
    let lvl = p.level_index("two boxes in a corridor").expect("level");
    let mut g = game(&p, lvl);
    let played = g.play(&dir("e")).expect("first push");
    assert_eq!(played.action.mv, "push");
    assert_eq!(played.piece.as_deref(), Some("man"));
    let b = g.play(&dir("e")).expect_err("two boxes");
    assert!(
        b.message.starts_with("push e: `box` at (1,3)"),
        "{}",
        b.message
    );
    assert!(
        b.message.contains("would overlap `box` at (1,4)"),
        "{}",
        b.message
    );
    assert!(
        pointed(&text, &b).starts_with("shift box d"),
        "{}",
        pointed(&text, &b)
    );
}

#[test]
fn hostile_wishes_never_panic() {
    let root = format!("{}/puzzles", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root)
        .expect("puzzles/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".puz"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        let (p, _) = load(file);
        let mut g = game(&p, 0);
        let first = p.model.moves[0].name.clone();
        let huge = [i64::MAX, i64::MIN, -1, 0, 1_000_000_000];
        let names = [
            None,
            Some(""),
            Some("jump"),
            Some("n"),
            Some("press"),
            Some(first.as_str()),
        ];
        let mut wants = vec![];
        for mv in names {
            for d in [None, Some("n"), Some("up"), Some("")] {
                wants.push(Want {
                    mv: mv.map(String::from),
                    dir: d.map(String::from),
                    cell: None,
                });
                for &r in &huge {
                    for &c in &huge {
                        wants.push(Want {
                            mv: mv.map(String::from),
                            dir: d.map(String::from),
                            cell: Some([r, c]),
                        });
                    }
                }
            }
        }
        for w in &wants {
            let before = g.moves();
            match g.play(w) {
                Ok(_) => assert!(g.undo()),
                Err(b) => {
                    assert!(!b.message.is_empty());
                    assert!(!b.message.contains(IS_A_MOVE), "{w:?}: {}", b.message);
                }
            }
            assert_eq!(g.moves(), before);
            let a = ActionRef {
                mv: w.mv.clone().unwrap_or_default(),
                dir: w.dir.clone(),
                cell: w.cell,
            };
            if g.apply(&a).is_ok() {
                assert!(g.undo());
            }
        }
        let b = g
            .play(&Want {
                mv: Some("no_such_move".into()),
                ..Want::default()
            })
            .expect_err("unknown move");
        assert_eq!(b.message, "no move called `no_such_move`");
    }
}

#[test]
fn move_limit_blocks_every_action() {
    let (p, text) = load("curling.puz");
    // "ten throws": `2 0 1 1 1 1 1 1 1 1 1 3`, each throw east breaks one block.
    let mut g = game(&p, p.level_index("ten throws").expect("level"));
    let limit = p.model.limit.expect("curling has a limit") as usize;
    assert_eq!(limit, 10);
    for i in 0..limit {
        let played = g.play(&dir("e")).expect("throw east");
        assert_eq!(played.goal, i + 1 == limit);
    }
    assert!(g.is_goal());
    assert!(g.legal().is_empty());
    let b = g.play(&Want::default()).expect_err("limit");
    assert_eq!(b.message, format!("the move limit of {limit} is reached"));
    assert!(
        pointed(&text, &b).starts_with("limit"),
        "{}",
        pointed(&text, &b)
    );
    let b = g.apply(&ActionRef {
        mv: "throw".into(),
        dir: Some("n".into()),
        cell: None,
    });
    assert!(b.expect_err("limit").message.contains("move limit"));
    // Undo frees one move again.
    assert!(g.undo());
    assert!(!g.legal().is_empty());
}

/// Random walks over several shipped puzzles: the actions `legal()` names are exactly the
/// expander's successors (applying each gives that successor), and the tracer agrees with
/// the interpreter: every action the expander does not generate is refused with a reason.
#[test]
fn legal_matches_the_expander_and_the_tracer_agrees() {
    let files = [
        ("bloxorz.puz", 0),
        ("bloxorz-switches.puz", 0),
        ("bloxorz-switches.puz", 4),
        ("sokoban-boxes.puz", 0),
        ("klotski.puz", 0),
        ("lightsout.puz", 1),
        ("pegsolitaire.puz", 0),
        ("holes.puz", 0),
        ("keys.puz", 0),
        ("robots.puz", 0),
        ("icecave.puz", 0),
        ("curling.puz", 0),
        ("rushhour.puz", 0),
        ("tilt.puz", 0),
        ("npuzzle.puz", 0),
        ("huarong.puz", 2),
    ];
    let mut rng = fastrand::Rng::with_seed(11);
    for (file, level) in files {
        let (p, _) = load(file);
        let model = &p.model;
        let mut g = game(&p, level);
        let infos = move_infos(model);
        for step in 0..25 {
            let s = g.state().to_vec();
            let lvl = p.inline_level(level).expect("level");
            let mut exp =
                puz::engine::Expander::new(model, lvl, &Budget::default()).expect("setup");
            let expected = exp.successor_list(&s);
            let legal = g.legal();
            assert_eq!(legal.len(), expected.len(), "{file} step {step}");
            let mut reached = vec![];
            for a in &legal {
                g.apply(a)
                    .unwrap_or_else(|b| panic!("{file}: {a:?} refused: {}", b.message));
                reached.push(g.state().to_vec());
                assert!(g.undo());
            }
            let mut want: Vec<Vec<u32>> = expected.iter().map(|(_, s)| s.clone()).collect();
            want.sort();
            reached.sort();
            assert_eq!(reached, want, "{file} step {step}");
            // Every directional action not among the legal ones is refused with a reason.
            for info in infos.iter().filter(|i| !i.per_cell) {
                for d in &info.dirs {
                    if legal
                        .iter()
                        .any(|a| a.mv == info.name && a.dir.as_ref() == Some(d))
                    {
                        continue;
                    }
                    let w = Want {
                        mv: Some(info.name.clone()),
                        dir: Some(d.clone()),
                        cell: None,
                    };
                    let b = g.play(&w).expect_err("not legal");
                    assert!(
                        !b.message.contains(IS_A_MOVE) && !b.message.is_empty(),
                        "{file} step {step} {w:?}: {}",
                        b.message
                    );
                }
            }
            // Clicks on every piece, alone and with each direction: a move played is a
            // legal one that moves the piece, a refusal never contradicts the expander.
            let cells: Vec<[i64; 2]> = g
                .board()
                .pieces
                .iter()
                .flat_map(|p| p.cells.clone())
                .collect();
            for cell in cells.iter().take(12) {
                let mut wants = vec![Want {
                    cell: Some(*cell),
                    ..Want::default()
                }];
                for d in model.dirs.iter().take(4) {
                    wants.push(Want {
                        cell: Some(*cell),
                        dir: Some(d.name.clone()),
                        mv: None,
                    });
                }
                for w in &wants {
                    match g.play(w) {
                        Ok(played) => {
                            let mut named = played.action.clone();
                            assert!(
                                legal.contains(&named) || {
                                    named.cell = None;
                                    legal.contains(&named)
                                },
                                "{file}: {w:?} played {:?}",
                                played.action
                            );
                            assert!(g.undo());
                        }
                        Err(b) => {
                            for why in
                                std::iter::once(&b.message).chain(b.tried.iter().map(|t| &t.why))
                            {
                                assert!(!why.contains(IS_A_MOVE), "{file} {w:?}: {why}");
                            }
                        }
                    }
                    assert_eq!(g.state(), &s[..]);
                }
            }
            if legal.is_empty() {
                break;
            }
            let pick = &legal[rng.usize(..legal.len())];
            g.apply(pick).expect("legal");
            assert_eq!(g.state(), &g.state().to_vec()[..]);
        }
    }
}

#[test]
fn board_view_shows_a_toggled_bridge() {
    let (p, _) = load("bloxorz-switches.puz");
    let lvl = p.level_index("soft").expect("level");
    let mut g = game(&p, lvl);
    let tile = |name: &str| {
        p.model
            .tiles
            .iter()
            .position(|t| t.name == name)
            .expect("tile") as u16
    };
    // "Xa.!..O": the bridge at (0,3) is absent until the block lies on the soft switch.
    assert_eq!(g.board().tiles[3], tile("gap1"));
    let played = g.play(&dir("e")).expect("roll onto the switch");
    assert!(
        played.line.contains("roll block (0,0) e"),
        "{}",
        played.line
    );
    let board = g.board();
    assert_eq!(board.tiles[3], tile("bridge1"));
    assert_eq!(board.tiles[1], tile("soft1"));
    assert_eq!(board.pieces[0].cells, vec![[0, 1], [0, 2]]);
    assert_eq!(board.pieces[0].pose, "cols");
    let target = p
        .model
        .marks
        .iter()
        .position(|m| m.name == "target")
        .expect("mark") as u16;
    assert_eq!(board.marks[6], vec![target]);
    assert!(board.marks[0].is_empty());
    // Undo brings the gap back.
    g.undo();
    assert_eq!(g.board().tiles[3], tile("gap1"));
    // The free function agrees with the game's own view.
    let v = board_view(g.expander(), g.state());
    assert_eq!(v.tiles, g.board().tiles);
}

#[test]
fn per_cell_moves_and_copies_are_named_by_cell() {
    let (p, _) = load("lightsout.puz");
    let mut g = game(&p, 1);
    let legal = g.legal();
    assert!(legal.iter().all(|a| a.dir.is_none() && a.cell.is_some()));
    let played = g
        .play(&Want {
            cell: Some([1, 1]),
            ..Want::default()
        })
        .expect("press the middle");
    assert_eq!(played.action.cell, Some([1, 1]));
    // Klotski: one move and direction may move several copies; each is named by its cell.
    let (p, _) = load("klotski.puz");
    let mut g = game(&p, 0);
    let legal = g.legal();
    for (i, a) in legal.iter().enumerate() {
        assert!(!legal[..i].contains(a), "{a:?} named twice");
    }
    // An action naming a cell no piece covers is refused, even when the move and
    // direction are legal for another copy.
    let some = legal
        .iter()
        .find(|a| a.cell.is_some())
        .expect("an ambiguous action")
        .clone();
    for cell in [[0, 0], [-5, 2], [4, 3], [i64::MAX, 0]] {
        let covered = g.board().pieces.iter().any(|p| p.cells.contains(&cell));
        if covered {
            continue;
        }
        let b = g
            .apply(&ActionRef {
                cell: Some(cell),
                ..some.clone()
            })
            .expect_err("no piece there");
        assert!(b.message.contains("no piece"), "{}", b.message);
    }
    // A click on a piece that can go one way only moves it; a click on empty floor or on
    // a piece with no move explains itself.
    for a in legal.iter().filter(|a| a.cell.is_some()) {
        let [r, c] = a.cell.expect("cell");
        let by_click = g.play(&Want {
            cell: Some([r, c]),
            ..Want::default()
        });
        let options = legal.iter().filter(|b| b.cell == Some([r, c])).count();
        match by_click {
            Ok(played) => {
                assert_eq!(options, 1, "{a:?}");
                g.undo();
                let _ = played;
            }
            Err(b) => assert!(b.message.contains("several ways"), "{}", b.message),
        }
    }
}

#[test]
fn palettes_are_distinct_within_each_family() {
    for file in [
        "bloxorz.puz",
        "bloxorz-switches.puz",
        "sokoban.puz",
        "klotski.puz",
        "npuzzle.puz",
        "keys.puz",
        "lightsout.puz",
    ] {
        let (p, _) = load(file);
        let pal = palette(&p.model);
        assert_eq!(pal.tiles.len(), p.model.tiles.len());
        assert_eq!(pal.pieces.len(), p.model.pieces.len());
        for fam in [&pal.tiles, &pal.pieces, &pal.marks] {
            for (i, a) in fam.iter().enumerate() {
                assert!(
                    a.color.len() == 7 && a.color.starts_with('#'),
                    "{}",
                    a.color
                );
                for b in &fam[..i] {
                    assert_ne!(a.color, b.color, "{file}: {} and {}", a.name, b.name);
                }
            }
        }
        // Pieces stand out on every tile: no piece colour is a tile colour.
        for t in &pal.tiles {
            assert!(pal.pieces.iter().all(|x| x.color != t.color), "{file}");
        }
    }
    // A wall is dark grey by its name, unless the file's `look` says otherwise.
    let (p, _) = load("holes.puz");
    let pal = palette(&p.model);
    let wall = pal.tiles.iter().find(|s| s.name == "wall").expect("wall");
    assert_eq!(wall.color, "#4a4a4a");
    let (p, _) = load("sokoban.puz");
    let pal = palette(&p.model);
    let wall = pal.tiles.iter().find(|s| s.name == "wall").expect("wall");
    assert_eq!(wall.color, "#a0522d");
}

#[test]
fn games_and_views_cross_threads() {
    fn send<T: Send>() {}
    send::<Game<'static>>();
    send::<puz::io::view::BoardView>();
    let (p, _) = load("bloxorz.puz");
    let g = game(&p, 0);
    let json = serde_json::to_value(g.board()).expect("json");
    assert_eq!(json["rows"], 7);
    assert_eq!(json["pieces"][0]["name"], "block");
    assert_eq!(json["pieces"][0]["pose"], "stand");
    let want: Want = serde_json::from_str(r#"{"move":"roll","dir":"s"}"#).expect("want");
    assert_eq!(want.mv.as_deref(), Some("roll"));
    let a: ActionRef = serde_json::from_str(r#"{"move":"press","cell":[1,2]}"#).expect("ref");
    assert_eq!(
        serde_json::to_string(&a).expect("json"),
        r#"{"move":"press","cell":[1,2]}"#
    );
}

#[test]
fn the_legend_key_lists_every_symbol() {
    let (p, _) = load("bloxorz.puz");
    let key = puz::io::view::legend_key(&p.model);
    assert_eq!(key.len(), p.model.legend.len());
    let x = key.iter().find(|k| k.symbol == "X").expect("X");
    assert_eq!(x.tile.as_deref(), Some("floor"));
    assert_eq!(x.pieces, vec!["block".to_string()]);
    assert_eq!(x.text, "floor + block");
    assert_eq!(x.pose, None);
    let o = key.iter().find(|k| k.symbol == "O").expect("O");
    assert_eq!(o.marks, vec!["target".to_string()]);
    assert_eq!(o.text, "floor + target");
    // A symbol that chooses a pose says so.
    let text = r#"tiles { floor }
piece turtle {
  pose east { (0, 0) }
  pose west { (0, 0) }
}
legend { '.' floor '>' floor + turtle.east '<' floor + turtle.west }
dirs { w (0, -1) e (0, 1) }
move walk(d) { shift turtle d }
goal turtle.west on floor
level "l" """
  .>.
  """
"#;
    let p = Puzzle::load("t.puz", text.to_string()).expect("loads");
    let key = puz::io::view::legend_key(&p.model);
    let west = key.iter().find(|k| k.symbol == "<").expect("<");
    assert_eq!(west.pose.as_deref(), Some("west"));
    assert_eq!(west.text, "floor + turtle.west");
    let g = game(&p, 0);
    assert_eq!(g.board().pieces[0].pose, "east");
    assert_eq!(g.board().pieces[0].anchor, [0, 1]);
}

#[test]
fn a_failed_require_tells_the_values_it_saw() {
    let (p, text) = load("keys.puz");
    // "one short": #@k.DDE# — one key, two doors.
    let mut g = game(&p, p.level_index("one short").expect("level"));
    for _ in 0..3 {
        g.play(&dir("e"))
            .expect("walk, pick up the key, open the first door");
    }
    let b = g.play(&dir("e")).expect_err("no key for the second door");
    assert!(
        b.message.contains("`keys` is 0, and it must be > 0"),
        "{}",
        b.message
    );
    assert_eq!(pointed(&text, &b), "require keys > 0");
    // Peg solitaire: a jump needs a peg to jump over.
    let (p, text) = load("pegsolitaire.puz");
    let mut g = game(&p, p.level_index("row").expect("level"));
    let b = g
        .play(&Want {
            mv: Some("jump".into()),
            dir: Some("n".into()),
            cell: None,
        })
        .expect_err("nothing north");
    assert!(b.message.starts_with("jump n: "), "{}", b.message);
    assert!(
        b.message
            .contains("there is no `peg` at (-1,0) (from `peg` at (0,0))"),
        "{}",
        b.message
    );
    assert!(pointed(&text, &b).starts_with("require peg at peg + d as over"));
}
