//! A legend symbol may choose the pose its piece starts in (issue 9: every start position a
//! designer can draw is placeable, poses that share a shape included):
//! `'>' floor + turtle.east`. Without `.pose` a level places the first declared pose of the
//! drawn shape, as before. Cells choosing different poses never share a copy; cells
//! choosing one pose are tiled by that pose's footprint alone.

use crate::common::binary;

use crate::common::rules;

use binary::{puz, TempFile};
use rules::{codes, load, report};
use std::path::PathBuf;

use puz::search::{Budget, Outcome};
use puz::solver::{path_cost, solve, EngineChoice};
use puz::Puzzle;

/// A turtle that walks forward in the direction it faces and turns on the spot; its four
/// poses are one cell each, so only a symbol that chooses the pose can start it facing
/// anything but north.
const TURTLE: &str = r#"
puzzle "Turtle"
tiles { floor wall }
outside wall
marks { goal }
piece turtle {
  pose north { (0, 0) }
  pose east  { (0, 0) }
  pose south { (0, 0) }
  pose west  { (0, 0) }
}
legend {
  '.' floor  '#' wall  'o' floor + goal
  't' floor + turtle
  '^' floor + turtle.north
  '>' floor + turtle.east
  'v' floor + turtle.south
  '<' floor + turtle.west
}
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost steps
move forward(d) {
  adds steps
  turn turtle {
    north n -> north (-1, 0)
    east  e -> east  (0, 1)
    south s -> south (1, 0)
    west  w -> west  (0, -1)
  }
}
move left(d in n) {
  letters "l"
  adds steps
  turn turtle { north n -> west (0, 0)  west n -> south (0, 0)  south n -> east (0, 0)  east n -> north (0, 0) }
}
move right(d in n) {
  letters "r"
  adds steps
  turn turtle { north n -> east (0, 0)  east n -> south (0, 0)  south n -> west (0, 0)  west n -> north (0, 0) }
}
forbid turtle on wall
goal turtle on goal
"#;

/// A two-cell train whose anchor is its head: `east` and `west` cover the same two cells
/// in a row, so only the legend can say which end leads. It drives head first, or turns
/// round (the head moves to the other end).
const TRAIN: &str = r#"
puzzle "Train"
tiles { floor wall }
outside wall
marks { goal }
piece train PLACE {
  pose east { (0, 0) (0, -1) }
  pose west { (0, 0) (0, 1) }
}
legend {
  '.' floor  '#' wall  'o' floor + goal
  'T' floor + train
  '>' floor + train.east
  '<' floor + train.west
  '{' floor + train.west
  ')' floor + goal + train.east
}
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
cost steps
move drive(d) {
  adds steps
  turn train { east e -> east (0, 1)  west w -> west (0, -1) }
}
move flip(d in n) {
  letters "f"
  adds steps
  turn train { east n -> west (0, -1)  west n -> east (0, 1) }
}
forbid train on wall
goal train on goal
"#;

/// `rules` with one level drawn as `rows`.
fn with_level(rules: &str, rows: &[&str]) -> String {
    let body: String = rows.iter().map(|r| format!("  {r}\n")).collect();
    format!("{rules}\nlevel \"one\" \"\"\"\n{body}  \"\"\"\n")
}

/// The train rules, its kind named or anonymous.
fn train(anonymous: bool) -> String {
    TRAIN.replace("PLACE", if anonymous { "anonymous" } else { "" })
}

/// The copies the first level places: (row, column, pose name) in start order.
fn placed(src: &str) -> Vec<(usize, usize, String)> {
    let p = load(src);
    let level = p.inline_level(0).expect("level");
    let cols = level.board.cols;
    let json = serde_json::to_value(&p.model).expect("model as JSON");
    level
        .instances
        .iter()
        .map(|i| {
            let pose = json["pieces"][i.piece.index()]["poses"][i.pose.index()]["name"]
                .as_str()
                .unwrap_or("?")
                .to_string();
            (i.cell as usize / cols, i.cell as usize % cols, pose)
        })
        .collect()
}

/// The cost and the move letters of the optimal answer to the first level.
fn answer(src: &str) -> (Vec<u64>, String) {
    let p = load(src);
    let level = p.inline_level(0).expect("level");
    match solve(&p.model, level, EngineChoice::Auto, &Budget::default())
        .expect("solve")
        .outcome
    {
        Outcome::Solved(path) => (
            path_cost(&p.model, &path.actions),
            path.actions.iter().map(|&a| p.model.letter(a)).collect(),
        ),
        other => panic!("not solved: {other:?}"),
    }
}

#[test]
fn the_start_pose_changes_the_answer() {
    // One row, the goal three cells east: facing east it is three steps; any other
    // facing needs turns first, and `t` (no pose chosen) is the first declared, north.
    let cases = [
        ('t', 4, "reee"),
        ('^', 4, "reee"),
        ('>', 3, "eee"),
        ('v', 4, "leee"),
        ('<', 5, "lleee"),
    ];
    for (sym, cost, letters) in cases {
        let src = with_level(TURTLE, &[&format!("{sym}..o")]);
        assert_eq!(
            answer(&src),
            (vec![cost], letters.to_string()),
            "start {sym}"
        );
    }
    let facing = |sym: char| {
        placed(&with_level(TURTLE, &[&format!("{sym}..o")]))[0]
            .2
            .clone()
    };
    assert_eq!(
        ['t', '^', '>', 'v', '<'].map(facing),
        ["north", "north", "east", "south", "west"]
    );
}

#[test]
fn poses_of_one_two_cell_footprint_are_told_apart() {
    for anonymous in [false, true] {
        let rules = train(anonymous);
        // `T` chooses no pose: the first declared, `east`, anchored at its head (the
        // right cell). The goal is behind it, so it turns round first.
        let plain = with_level(&rules, &["oo.TT"]);
        assert_eq!(placed(&plain), [(0, 4, "east".to_string())]);
        assert_eq!(answer(&plain), (vec![4], "fwww".to_string()));
        // `<` starts it facing west, anchored at the left cell: it just drives.
        let west = with_level(&rules, &["oo.<<"]);
        assert_eq!(placed(&west), [(0, 3, "west".to_string())]);
        assert_eq!(answer(&west), (vec![3], "www".to_string()));
        // `>` is `east` as `T` is; with a goal ahead it drives east.
        let east = with_level(&rules, &[">>.oo"]);
        assert_eq!(placed(&east), [(0, 1, "east".to_string())]);
        assert_eq!(answer(&east), (vec![3], "eee".to_string()));
        // A symbol choosing a pose may differ from another in tile or marks and still
        // share its copy (half on a goal), as symbols that choose none do.
        let half = with_level(&rules, &[".>)o"]);
        assert_eq!(placed(&half), [(0, 2, "east".to_string())]);
        assert_eq!(answer(&half), (vec![1], "e".to_string()));
    }
}

#[test]
fn cells_choosing_different_poses_never_share_a_copy() {
    let rules = train(true);
    // `<<>>` is one group of cells, but a west copy and an east copy.
    assert_eq!(
        placed(&with_level(&rules, &["<<>>.", "...oo"])),
        [(0, 0, "west".to_string()), (0, 3, "east".to_string())]
    );
    // Nor do cells choosing a pose and cells choosing none.
    assert_eq!(
        placed(&with_level(&rules, &["<<TT.", "...oo"])),
        [(0, 0, "west".to_string()), (0, 3, "east".to_string())]
    );
    // Four cells of one pose are two copies of its footprint, one way only.
    assert_eq!(
        placed(&with_level(&rules, &["<<<<.", "...oo"])),
        [(0, 0, "west".to_string()), (0, 2, "west".to_string())]
    );
    // Two symbols of one meaning (`<` and `{` are both `floor + train.west`) never share
    // a copy, as before.
    assert_eq!(
        placed(&with_level(&rules, &["<<{{.", "...oo"])),
        [(0, 0, "west".to_string()), (0, 2, "west".to_string())]
    );
    // A named train drawn with two pose choices is two trains.
    assert_eq!(
        codes(&with_level(&train(false), &["<<>>.", "...oo"])),
        ["puz::level::too_many_markers"]
    );
}

#[test]
fn cells_a_chosen_pose_does_not_cover_are_reported_where_they_are() {
    // Three cells of `train.west`: one copy and a cell left over.
    let src = with_level(&train(true), &["..<<<", "...oo"]);
    assert_eq!(codes(&src), ["puz::level::pose_not_tiled"]);
    let r = report(&src);
    assert!(r.contains("rules.puz:"), "{r}");
    assert!(
        r.contains("the cells placing `train.west` do not split into copies of pose `west`"),
        "{r}"
    );
    assert!(r.contains("these cells"), "{r}");
    assert!(
        r.contains(
            "cells drawn with '<' start `train` in pose `west`, whose footprint is (0, 0) (0, 1)"
        ),
        "{r}"
    );
    // A named train whose one `<` cell is half a footprint.
    let src = with_level(&train(false), &["..<..", "...oo"]);
    assert_eq!(codes(&src), ["puz::level::pose_not_tiled"]);
    // Two touching symbols of one meaning are two copies of one cell each.
    assert_eq!(
        codes(&with_level(&train(true), &["..<{.", "...oo"])),
        ["puz::level::pose_not_tiled", "puz::level::pose_not_tiled"]
    );
    // The line and column of the level cell: the `<` in the level's first row.
    let src = with_level(&train(false), &["..<..", "...oo"]);
    let line = src.lines().position(|l| l == "  ..<..").expect("level row") + 1;
    let r = report(&src);
    assert!(r.contains(&format!("rules.puz:{line}:5")), "{r}");
}

#[test]
fn legend_poses_are_checked() {
    // An unknown pose: the piece's poses are suggested.
    let typo = TURTLE.replace("turtle.east", "turtle.eats");
    assert_eq!(
        codes(&with_level(&typo, &["t.o"])),
        ["puz::check::unknown_name"]
    );
    let r = report(&with_level(&typo, &["t.o"]));
    assert!(r.contains("unknown pose `eats`"), "{r}");
    assert!(r.contains("east"), "{r}");
    // A pose after a mark or after the tile: only pieces have poses.
    let mark = TURTLE.replace("'o' floor + goal", "'o' floor + goal.east");
    assert_eq!(
        codes(&with_level(&mark, &["t.o"])),
        ["puz::check::pose_of_non_piece"]
    );
    let r = report(&with_level(&mark, &["t.o"]));
    assert!(
        r.contains("`goal` is a mark, so it has no pose `east`"),
        "{r}"
    );
    let tile = TURTLE.replace("'.' floor ", "'.' floor.east ");
    assert_eq!(
        codes(&with_level(&tile, &["t.o"])),
        ["puz::check::pose_of_non_piece"]
    );
    // One symbol places a piece once, pose or not.
    let twice = TURTLE.replace("'t' floor + turtle", "'t' floor + turtle + turtle.east");
    assert_eq!(
        codes(&with_level(&twice, &["t.o"])),
        ["puz::check::repeated_placement"]
    );
}

#[test]
fn the_binary_names_the_moves_and_draws_poses_with_their_symbols() {
    let file = TempFile::new("pose", &with_level(TURTLE, &["v..o"]));
    let path = file.path();
    let out = puz(&["solve", path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("cost: 4 steps"), "{text}");
    assert!(
        text.contains(
            "1. left turtle (0,0) n\n2. forward turtle (0,0) e\n3. forward turtle (0,1) e\n4. forward turtle (0,2) e\n"
        ),
        "{text}"
    );
    // `--steps` draws each turtle with the symbol of its pose.
    let out = puz(&["solve", path, "--steps"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let boards: Vec<&str> = text
        .lines()
        .filter(|l| l.len() == 4 && l.ends_with(['o', '>', '<', '^', 'v']))
        .collect();
    assert_eq!(boards, ["v..o", ">..o", ".>.o", "..>o", "...>"], "{text}");
    // A turtle that starts with `t` (no pose chosen) and turns east is drawn `>`: `t`
    // would read back as north.
    let file = TempFile::new("pose", &with_level(TURTLE, &["t..o"]));
    let out = puz(&["solve", file.path(), "--steps"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let boards: Vec<&str> = text
        .lines()
        .filter(|l| l.len() == 4 && l.ends_with(['o', '>', 't']))
        .collect();
    assert_eq!(boards, ["t..o", ">..o", ".>.o", "..>o", "...>"], "{text}");
    // `puz compile --dump` shows the pose a symbol chooses.
    let out = puz(&["compile", path, "--dump"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("'t' t0 floor + p0 turtle\n"), "{text}");
    assert!(text.contains("'>' t0 floor + p0 turtle.east\n"), "{text}");
    // `puz test` checks expected answers that depend on the start pose.
    let levels = format!(
        "{TURTLE}\nlevel \"east\" \"\"\"\n  >..o\n  \"\"\" expect 3\nlevel \"west\" \"\"\"\n  <..o\n  \"\"\" expect 5\n"
    );
    let file = TempFile::new("pose", &levels);
    let out = puz(&["test", file.path()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("2 passed, 0 failed"), "{text}");
}

#[test]
fn shipped_puzzles_still_load() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("puzzles directory") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("puz") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read puzzle");
        let p = Puzzle::load(&path.display().to_string(), text)
            .unwrap_or_else(|d| panic!("{}", d.render_plain(100)));
        for i in 0..p.model.levels.len() {
            p.inline_level(i)
                .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.render_plain(100)));
        }
        n += 1;
    }
    assert!(n >= 10, "only {n} puzzles found");
}

#[test]
fn goal_pictures_check_the_pose_a_symbol_chooses() {
    // `t` (no pose chosen) asks only for a turtle on the cell; `>` and `^` ask for that
    // facing too, which costs the turns to reach it.
    let picture = |sym: char| {
        format!(
            "{}\nlevel \"pic\" \"\"\"\n  >...\n  \"\"\" goal \"\"\"\n  ...{sym}\n  \"\"\"\n",
            TURTLE.replace("goal turtle on goal", "")
        )
    };
    assert_eq!(codes(&picture('>')), Vec::<String>::new());
    assert_eq!(answer(&picture('t')), (vec![3], "eee".to_string()));
    assert_eq!(answer(&picture('>')), (vec![3], "eee".to_string()));
    assert_eq!(answer(&picture('^')), (vec![4], "eeel".to_string()));
    assert_eq!(answer(&picture('v')), (vec![4], "eeer".to_string()));
    assert_eq!(answer(&picture('<')), (vec![5], "eeell".to_string()));
}
