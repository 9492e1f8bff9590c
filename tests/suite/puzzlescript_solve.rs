//! Solving PuzzleScript levels: puz's search against an independent brute force that
//! plays whole sessions (no packing, no analysis of the rules), on seeded random levels;
//! the A* bound checked against exact distances over whole small state spaces; and the
//! command line (`solve`, `--all`, `test` with its sidecar, `graph`, `analyze`,
//! `compile --dump`, refusals and budgets).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use puz::puzzlescript::search::{PsSpace, SEARCH_INPUTS};
use puz::puzzlescript::{Game, OnWin, PsOutcome, PsSolveOptions, Session};
use puz::search::graph::StateGraph;
use puz::search::{Backend, Budget, Space};

use crate::common::binary::{puz, stderr, stdout, TempFile};

/// Sokoban as PuzzleScript's first demo writes it, without levels.
pub(crate) const SOKOBAN: &str = "title Test Sokoban

========
OBJECTS
========

Background
black

Target
darkblue

Wall
brown

Player
blue

Crate
orange

=======
LEGEND
=======

. = Background
# = Wall
P = Player
* = Crate
@ = Crate and Target
O = Target

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Target
Player, Wall, Crate

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ]

==============
WINCONDITIONS
==============

All Target on Crate

=======
LEVELS
=======

";

/// Push chains, crates that fall (again turns that rewrite cells), a `cancel`, and
/// `some` win condition: crates are created and destroyed, so there is no A* bound.
pub(crate) const FALLING: &str = "title Falling Crates

========
OBJECTS
========

Background
black

Target
darkblue

Wall
brown

Player
blue

Crate
orange

Spike
red

=======
LEGEND
=======

. = Background
# = Wall
P = Player
* = Crate
O = Target
x = Spike

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Target, Spike
Player, Wall, Crate

======
RULES
======

[ > Player | Crate ] -> [ > Player | > Crate ]
[ > Crate | Crate ] -> [ > Crate | > Crate ]
[ > Player | Spike ] -> cancel
late down [ Crate | no Wall no Crate no Player ] -> [ | Crate ] again

==============
WINCONDITIONS
==============

Some Crate on Target

=======
LEVELS
=======

";

/// A small xorshift generator: seeded, so every run draws the same levels.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random level: a wall border, some inner walls, `crates` crates and targets, one
/// player, and spikes when `spikes`.
pub(crate) fn random_level(rng: &mut Rng, crates: usize, spikes: bool) -> String {
    sized_level(rng, crates, spikes, 4)
}

/// A random level as [`random_level`] draws them, `side` to `side + 2` cells a side.
fn sized_level(rng: &mut Rng, crates: usize, spikes: bool, side: usize) -> String {
    let (w, h) = (side + rng.below(3), side + rng.below(3));
    let mut g = vec![vec!['.'; w]; h];
    for (y, row) in g.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 || rng.below(9) == 0 {
                *c = '#';
            }
        }
    }
    let mut put = |ch: char, rng: &mut Rng| {
        for _ in 0..100 {
            let (x, y) = (1 + rng.below(w - 2), 1 + rng.below(h - 2));
            if g[y][x] == '.' {
                g[y][x] = ch;
                return;
            }
        }
    };
    for _ in 0..crates {
        put('*', rng);
        put('O', rng);
    }
    if spikes {
        put('x', rng);
    }
    put('P', rng);
    let mut s: String = g
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    s.push('\n');
    s
}

/// The fewest inputs that win the level, by breadth-first search over whole sessions
/// keyed by PuzzleScript's own serialization: `Some(None)` when no input sequence wins,
/// `None` past `cap` states.
fn brute_force(game: &Game, cap: usize) -> Option<Option<usize>> {
    let start = Session::new(game, 0, OnWin::Stop).expect("a level");
    if start.won() {
        return Some(Some(0));
    }
    let inputs = if game.noaction() { 4 } else { 5 };
    let mut seen: HashSet<String> = HashSet::from([start.serialize()]);
    let mut queue = VecDeque::from([(start, 0usize)]);
    while let Some((s, d)) = queue.pop_front() {
        for &i in &SEARCH_INPUTS[..inputs] {
            let mut next = s.clone();
            let turn = next.input(i);
            if turn.won {
                return Some(Some(d + 1));
            }
            if turn.stuck || !turn.changed {
                continue;
            }
            if seen.insert(next.serialize()) {
                if seen.len() > cap {
                    return None;
                }
                queue.push_back((next, d + 1));
            }
        }
    }
    Some(None)
}

fn load(text: &str) -> Game {
    Game::load("test.txt", Arc::new(text.to_string()))
        .unwrap_or_else(|d| panic!("the test game loads: {d:?}\n{text}"))
        .0
}

fn solve(game: &Game, search: Backend) -> Option<usize> {
    let opts = PsSolveOptions {
        budget: Budget {
            max_states: Some(200_000),
            ..Budget::default()
        },
        search: Some(search),
        boards: false,
    };
    let s = puz::puzzlescript::solve_level(game, 0, &opts).expect("searchable");
    match s.outcome {
        PsOutcome::Solved => {
            assert!(s.verified);
            s.cost
        }
        PsOutcome::Unsolvable => None,
        o => panic!("no answer: {o:?}"),
    }
}

/// Every backend that runs on games agrees with the brute force on seeded random levels.
fn agree_on_random_levels(rules: &str, seed: u64, levels: usize, crates: usize, spikes: bool) {
    let mut rng = Rng(seed);
    let mut solved = 0;
    for _ in 0..levels {
        let text = format!("{rules}{}", random_level(&mut rng, crates, spikes));
        let game = load(&text);
        let Some(want) = brute_force(&game, 100_000) else {
            continue;
        };
        solved += usize::from(want.is_some());
        for b in [Backend::Bfs, Backend::Astar, Backend::Dijkstra] {
            assert_eq!(solve(&game, b), want, "{b:?} on\n{text}");
        }
        if want.is_some_and(|n| n <= 12) {
            assert_eq!(solve(&game, Backend::Iddfs), want, "iddfs on\n{text}");
        }
    }
    assert!(
        solved >= levels / 10,
        "too few solvable levels drawn: {solved}"
    );
}

#[test]
fn sokoban_agrees_with_brute_force() {
    agree_on_random_levels(SOKOBAN, 0x5eed_0001, 150, 1, false);
    agree_on_random_levels(SOKOBAN, 0x5eed_0002, 60, 2, false);
}

#[test]
fn falling_crates_agree_with_brute_force() {
    agree_on_random_levels(FALLING, 0x5eed_0003, 150, 1, true);
    agree_on_random_levels(FALLING, 0x5eed_0004, 60, 2, true);
}

/// Exact distances from each state of `g` to a won state, backwards over the edges
/// (`u32::MAX`: no win).
fn distances_to_a_win(g: &StateGraph) -> Vec<u32> {
    let mut dist = vec![u32::MAX; g.graph.node_count()];
    let mut queue = VecDeque::new();
    for v in g.graph.node_indices() {
        if g.graph[v].goal {
            dist[v.index()] = 0;
            queue.push_back(v);
        }
    }
    while let Some(v) = queue.pop_front() {
        for u in g.graph.neighbors_directed(v, petgraph::Direction::Incoming) {
            if dist[u.index()] == u32::MAX {
                dist[u.index()] = dist[v.index()] + 1;
                queue.push_back(u);
            }
        }
    }
    dist
}

/// Checks the A* bound of level 0 of `text` against the exact distances over its whole
/// space: never above the distance to a win, `u32::MAX` only where no win is reachable,
/// and no input lowers it by more than one (consistent). `false` when the space is over
/// the cap. Returns whether some state's bound is above 1, so that a test can tell a
/// bound that says something from one that never does.
fn check_bound(text: &str) -> Option<bool> {
    let game = load(text);
    let mut space = PsSpace::new(&game, 0).expect("a level");
    assert!(space.has_bound(), "no bound: {}", space.bound_description());
    let budget = Budget {
        max_states: Some(50_000),
        ..Budget::default()
    };
    let g = StateGraph::build(&mut space, &budget).ok()?;
    let dist = distances_to_a_win(&g);
    let h: HashMap<usize, u32> = g
        .graph
        .node_indices()
        .map(|v| (v.index(), space.estimate(&g.state(v))))
        .collect();
    let mut informative = false;
    for v in g.graph.node_indices() {
        let (d, hv) = (dist[v.index()], h[&v.index()]);
        if hv == u32::MAX {
            assert_eq!(
                d,
                u32::MAX,
                "a state the bound calls dead reaches a win\n{text}"
            );
        } else {
            assert!(hv <= d, "bound {hv} over the distance {d}\n{text}");
            informative |= hv > 1;
        }
        for u in g.graph.neighbors(v) {
            let hu = h[&u.index()];
            if hv != u32::MAX && hu != u32::MAX {
                assert!(hv <= hu + 1, "inconsistent: {hv} then {hu}\n{text}");
            }
        }
    }
    Some(informative)
}

/// The A* bound never exceeds the exact distance to a win, and no input lowers it by
/// more than one (it is consistent), over whole small state spaces.
#[test]
fn bound_is_admissible_and_consistent() {
    let mut rng = Rng(0x5eed_0005);
    let mut checked = 0;
    for _ in 0..80 {
        let text = format!("{SOKOBAN}{}", random_level(&mut rng, 2, false));
        if check_bound(&text).is_some() {
            checked += 1;
        }
    }
    assert!(checked > 40, "too few spaces checked: {checked}");
}

/// `SOKOBAN` with other rules and win conditions (no targets needed).
fn sokoban_no(rules: &str, layers: &str, win: &str) -> String {
    SOKOBAN
        .replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            &format!("[ > Player | Crate ] -> [ > Player | > Crate ]\n{rules}"),
        )
        .replace("Player, Wall, Crate", layers)
        .replace("All Target on Crate", win)
        .replace("@ = Crate and Target\n", "")
}

/// `no X` win conditions get a bound when the rules remove Xs only beside a moving
/// player: the Xs left over the most one input can remove. Checked over whole spaces of
/// random levels with two players (an input moves both, so a turn can remove two Xs,
/// and a bound that forgot it would be over the distance) where the players eat the
/// targets in front of them (a rule that moves the player itself), and where a player
/// rakes the cell it leaves (the X removed in the moving cell, as Zen Puzzle Garden
/// does); a rule that removes Xs with no moving player gives no bound.
#[test]
fn no_x_bound_is_admissible_and_consistent() {
    let eat = sokoban_no(
        "[ > Player | Target ] -> [ > Player | ]",
        "Player, Wall, Crate",
        "no Target",
    );
    let rake = sokoban_no(
        "[ Target > Player ] -> [ > Player ]",
        "Player, Wall, Crate",
        "no Target",
    );
    let mut rng = Rng(0x5eed_0017);
    let (mut checked, mut informative) = (0, 0);
    for round in 0..120 {
        let rules = if round % 2 == 0 { &eat } else { &rake };
        let mut level = random_level(&mut rng, 3, false);
        // A second player, in the first free cell from the end.
        if round % 4 < 2 {
            if let Some(i) = level.rfind('.') {
                level.replace_range(i..i + 1, "P");
            }
        }
        match check_bound(&format!("{rules}{level}")) {
            Some(true) => {
                checked += 1;
                informative += 1;
            }
            Some(false) => checked += 1,
            None => {}
        }
    }
    assert!(checked > 60, "too few spaces checked: {checked}");
    assert!(
        informative > 30,
        "the bound rarely says anything: {informative}"
    );
    let text = sokoban_no(
        "[ Player | Target ] -> [ Player | ]",
        "Player, Wall, Crate, Target",
        "no Target",
    );
    let game = load(&format!("{text}#####\n#PO.#\n#####\n"));
    let space = PsSpace::new(&game, 0).expect("a level");
    assert!(!space.has_bound());
}

/// A side of a win condition that never changes counts as fixed even when other objects
/// of its layer change: here the player leaves marks on the targets' layer (never on a
/// target) that fade the turn after, so the layer is stored in every state while the
/// targets stay put. Both `all Crate on Target` (crates move to fixed targets) and `all
/// Target on Crate` (fixed targets wait for crates) get a bound, checked against the
/// exact distances over whole spaces of random levels.
#[test]
fn a_fixed_side_beside_changing_objects_of_its_layer_gives_a_bound() {
    let marks = SOKOBAN
        .replace("Crate\norange\n", "Crate\norange\n\nMark\ngrey\n")
        .replace("\nTarget\nPlayer, Wall, Crate", "\nTarget, Mark\nPlayer, Wall, Crate")
        .replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ Mark ] -> []\nlate [ Player no Target ] -> [ Player Mark ]",
        );
    let mut rng = Rng(0x5eed_0031);
    let (mut checked, mut informative) = (0, 0);
    for round in 0..60 {
        let win = ["All Target on Crate", "All Crate on Target"][round % 2];
        let text = format!(
            "{}{}",
            marks.replace("All Target on Crate", win),
            random_level(&mut rng, 2, false)
        );
        if let Some(said) = check_bound(&text) {
            checked += 1;
            informative += usize::from(said);
        }
    }
    assert!(checked > 30, "too few spaces checked: {checked}");
    eprintln!("{checked} spaces, {informative} with a bound above 1");
    assert!(
        informative > 5,
        "the bound rarely says anything: {informative}"
    );
}

/// A game with again turns that create and destroy crates runs without a bound, and says
/// so.
#[test]
fn no_bound_where_the_rules_allow_none() {
    let game = load(&format!("{FALLING}#####\n#P*O#\n#####\n"));
    let space = PsSpace::new(&game, 0).expect("a level");
    assert!(!space.has_bound());
    assert!(
        space.bound_description().contains("again"),
        "{}",
        space.bound_description()
    );
}

fn game_file(tag: &str, text: &str) -> TempFile {
    TempFile::new(tag, text)
}

#[test]
fn cli_solves_with_inputs_steps_and_json() {
    let f = game_file("soko", &format!("{SOKOBAN}#####\n#P*O#\n#####\n"));
    let o = puz(&["solve", f.path(), "--steps"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("cost: 1 input\n"), "{out}");
    assert!(out.contains("inputs (1): r\n"), "{out}");
    assert!(
        out.contains("1. right: player (1,1) -> (1,2), crate (1,2) -> (1,3) (won)"),
        "{out}"
    );
    // The crate on its target is drawn with the legend's `@` (Crate and Target).
    assert!(out.contains("start:\n#####\n#P*O#\n#####\n"), "{out}");
    assert!(out.contains("1: right\n#####\n#.P@#\n#####\n"), "{out}");
    let o = puz(&["solve", f.path(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["inputs"], "r");
    assert_eq!(v["cost"], 1);
    assert_eq!(v["outcome"], "solved");
    assert_eq!(v["verified"], true);
    assert_eq!(v["level"], 0);
}

#[test]
fn cli_refuses_random_games_and_backends_that_cannot_run() {
    let random = SOKOBAN.replace(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player | Crate ] -> [ > Player | > Crate ]\nrandom [ Target ] -> [ Target ]",
    );
    let f = game_file("random", &format!("{random}#####\n#P*O#\n#####\n"));
    let o = puz(&["solve", f.path()]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("puz::ps::nondeterministic"),
        "{}",
        stderr(&o)
    );
    let f = game_file("soko", &format!("{SOKOBAN}#####\n#P*O#\n#####\n"));
    let o = puz(&["solve", f.path(), "--search", "bidir"]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("puz::ps::search_unavailable"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn cli_budget_ends_with_exit_3() {
    // An open room with eight crates: far more states than the limit.
    let level =
        "#########\n#P......#\n#.*.*.*.#\n#.......#\n#.*.*.*.#\n#.O.O.O.#\n#.O.O.O.#\n#########\n";
    let f = game_file("big", &format!("{SOKOBAN}{level}"));
    let o = puz(&["solve", f.path(), "--max-states", "1000"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("state limit"), "{}", stderr(&o));
}

#[test]
fn cli_all_test_graph_analyze_and_dump() {
    let text = format!(
        "{SOKOBAN}#####\n#P*O#\n#####\n\nmessage between\n\n######\n#P*.O#\n######\n\n#####\n#*P.#\n#O..#\n#####\n"
    );
    let f = game_file("many", &text);
    let o = puz(&["solve", f.path(), "--all"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("0 (#1)  1 input "), "{out}");
    assert!(out.contains("2 (#2)  2 inputs"), "{out}");
    assert!(
        out.contains("3 (#3)") && out.contains("no solution"),
        "{out}"
    );
    // The sidecar: the game's path with `.expect` for its extension.
    let sidecar = std::path::Path::new(f.path()).with_extension("expect");
    std::fs::write(
        &sidecar,
        "(expectations)\n0: 1 input\n#2: solution rr\n3: unsolvable\n",
    )
    .expect("write");
    let o = puz(&["test", f.path()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(
        out.contains("3 passed, 0 failed, 0 without expectation"),
        "{out}"
    );
    std::fs::write(&sidecar, "2: 3 inputs\n").expect("write");
    let o = puz(&["test", f.path()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("expected 3 inputs, got 2 inputs (rr)"),
        "{}",
        stdout(&o)
    );
    std::fs::write(&sidecar, "1: 3 inputs\n").expect("write");
    let o = puz(&["test", f.path()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("puz::ps::expect_level"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("entry 1 is a message"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_file(&sidecar);

    let o = puz(&["analyze", f.path(), "--level", "#2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("fewest inputs to a goal: 2"),
        "{}",
        stdout(&o)
    );
    let o = puz(&["graph", f.path(), "--level", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("[label=\"right\""), "{}", stdout(&o));
    let o = puz(&["compile", "--dump", f.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("all target on crate"), "{}", stdout(&o));
    let o = puz(&["solve", f.path(), "--level", "1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Demo levels whose optimum PuzzleScript's own engine found (the oracle's `bfs`).
#[test]
fn demo_levels_match_the_oracle() {
    let Some(dir) = crate::common::ps_data::reference_or_skip("demo_levels_match_the_oracle")
    else {
        return;
    };
    for (game, level, want) in [
        ("sokoban_basic.txt", 0, 33),
        ("sokoban_basic.txt", 1, 16),
        ("microban.txt", 1, 33),
    ] {
        let path = dir.join("src/demo").join(game);
        let text = std::fs::read_to_string(&path).expect("demo game");
        let game_ = Game::load(game, Arc::new(text)).expect("loads").0;
        for b in [Backend::Bfs, Backend::Astar] {
            let opts = PsSolveOptions {
                search: Some(b),
                ..PsSolveOptions::default()
            };
            let s = puz::puzzlescript::solve_level(&game_, level, &opts).expect("solves");
            assert_eq!(s.cost, Some(want), "{game} level {level} with {b:?}");
        }
    }
}

/// Breadth-first over whole sessions (keyed by PuzzleScript's serialization) from entry
/// `index`: how many distinct levels each depth adds, the first `depths` depths (won
/// levels counted and not expanded, as the search has them).
fn session_layers(game: &Game, index: usize, depths: usize) -> Vec<usize> {
    let start = Session::new(game, index, OnWin::Stop).expect("a level");
    let inputs = if game.noaction() { 4 } else { 5 };
    let mut seen: HashSet<String> = HashSet::from([start.serialize()]);
    let mut layer = vec![start];
    let mut counts = vec![1];
    for _ in 0..depths {
        let mut next = vec![];
        for s in &layer {
            if s.won() {
                continue;
            }
            for &i in &SEARCH_INPUTS[..inputs] {
                let mut n = s.clone();
                let turn = n.input(i);
                if turn.stuck || !(turn.changed || turn.won) {
                    continue;
                }
                if seen.insert(n.serialize()) {
                    next.push(n);
                }
            }
        }
        counts.push(next.len());
        layer = next;
    }
    counts
}

/// The same layers over the search's packed states and successors.
fn space_layers(space: &mut PsSpace<'_>, depths: usize) -> Vec<usize> {
    let start = space.start();
    let mut seen: HashSet<Vec<u32>> = HashSet::from([start.clone()]);
    let mut layer = vec![start];
    let mut counts = vec![1];
    let mut out = puz::engine::Successors::default();
    let words = space.words();
    for _ in 0..depths {
        let mut next = vec![];
        for s in &layer {
            space.successors(s, &mut out);
            for (_, t) in out.iter(words) {
                if seen.insert(t.to_vec()) {
                    next.push(t.to_vec());
                }
            }
        }
        counts.push(next.len());
        layer = next;
    }
    counts
}

/// The search's states and moves (levels packed by the cells each turn wrote, again turns
/// taken over from their trials) are the levels whole sessions reach, depth by depth, on
/// demo levels with again turns, gravity, many rule groups and late rules.
#[test]
fn search_layers_match_whole_sessions_on_demo_levels() {
    let Some(dir) = crate::common::ps_data::reference_or_skip(
        "search_layers_match_whole_sessions_on_demo_levels",
    ) else {
        return;
    };
    for (game, level, depths) in [
        ("push.txt", 29, 7),
        ("atlas shrank.txt", 12, 16),
        ("ponies jumping synchronously.txt", 21, 6),
        ("bouncers.txt", 1, 6),
        ("cakemonsters.txt", 4, 7),
        ("heroes_of_sokoban.txt", 3, 6),
        ("limerick.txt", 3, 7),
        ("castlemouse.txt", 3, 8),
    ] {
        let path = dir.join("src/demo").join(game);
        let text = std::fs::read_to_string(&path).expect("demo game");
        let g = Game::load(game, Arc::new(text)).expect("loads").0;
        let mut space = PsSpace::new(&g, level).expect("a level");
        let want = session_layers(&g, level, depths);
        assert!(
            want.iter().sum::<usize>() > 20,
            "{game} level {level}: too small a test ({want:?})"
        );
        assert_eq!(
            space_layers(&mut space, depths),
            want,
            "{game} level {level}"
        );
    }
}

/// `SOKOBAN` with its rules and win condition swapped for others.
fn sokoban_with(rules: &str, win: &str) -> String {
    SOKOBAN
        .replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]\n",
            &format!("{rules}\n"),
        )
        .replace("All Target on Crate\n", &format!("{win}\n"))
}

/// Over the whole space of `space`'s level (searched without dropping any position; 50,000
/// states at most, else `None`): asserts that no position `PsSpace::is_dead` calls dead
/// reaches a win (`label` names such a position in the failure), and returns how many
/// are dead and how many states there are.
fn dead_in_whole_space(space: &mut PsSpace<'_>, text: &str, label: &str) -> Option<(usize, usize)> {
    space.set_pruning(false);
    let budget = Budget {
        max_states: Some(50_000),
        ..Budget::default()
    };
    let g = StateGraph::build(space, &budget).ok()?;
    let dist = distances_to_a_win(&g);
    let mut dead = 0;
    for v in g.graph.node_indices() {
        if space.is_dead(&g.state(v)) {
            assert!(
                dist[v.index()] == u32::MAX,
                "{label} wins:\n{}\nin\n{text}",
                space.draw(&g.state(v))
            );
            dead += 1;
        }
    }
    Some((dead, dist.len()))
}

/// A position the rules call dead (see `PsSpace::is_dead`) never reaches a win, over
/// whole small state spaces searched without dropping any, for pushes, push chains,
/// pulls, pushes at a distance (an ellipsis) and each side of a win condition moving;
/// and some positions are dead in each game, so the test tests something.
#[test]
fn dead_positions_never_reach_a_win() {
    let push = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let chain = "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Crate | Crate ] -> [ > Crate | > Crate ]";
    let pull = "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ < Player | Crate ] -> [ < Player | < Crate ]";
    let far = "[ > Player | ... | Crate ] -> [ > Player | ... | > Crate ]";
    let pulled = "[ Crate | > Player ] -> [ > Crate | > Player ]";
    // Crates move with the player wherever they are (a rule of two rows).
    let along = "[ > Player ] [ Crate ] -> [ > Player ] [ > Crate ]";
    // Whether some positions must be found dead.
    let games = [
        (push, "All Target on Crate", 2, true),
        (push, "All Crate on Target", 2, true),
        (push, "Some Crate on Target", 2, true),
        (chain, "All Target on Crate", 3, true),
        (pull, "All Target on Crate", 2, false),
        (pulled, "All Target on Crate", 2, false),
        (far, "All Crate on Target", 2, false),
        (along, "All Crate on Target", 2, false),
    ];
    for (k, &(rules, win, crates, must)) in games.iter().enumerate() {
        let mut rng = Rng(0x5eed_0100 + k as u64);
        let (mut dead, mut states, mut spaces) = (0, 0, 0);
        for _ in 0..40 {
            let text = format!(
                "{}{}",
                sokoban_with(rules, win),
                sized_level(&mut rng, crates, false, 5)
            );
            let game = load(&text);
            let mut space = PsSpace::new(&game, 0).expect("a level");
            let label = format!("{rules} / {win}: a dead position");
            let Some((d, n)) = dead_in_whole_space(&mut space, &text, &label) else {
                continue;
            };
            dead += d;
            states += n;
            spaces += 1;
        }
        assert!(spaces >= 20, "{rules} / {win}: too few spaces ({spaces})");
        eprintln!("{rules} / {win}: {dead} dead of {states} in {spaces}");
        assert!(
            !must || dead * 100 > states,
            "{rules} / {win}: {dead} dead of {states}"
        );
    }
}

/// A garden raked by walking (Zen Puzzle Garden's rules): the player rakes the sand it
/// leaves and may never stand on raked sand (a late rule cancels the turn), rocks on its
/// layer; won when no sand is left.
const GARDEN: &str = "title Test Garden

========
OBJECTS
========

Background
black

Sand
yellow

Raked
brown

Rock
grey

Player
blue

=======
LEGEND
=======

. = Background
s = Sand
# = Rock
P = Player

=======
SOUNDS
=======

================
COLLISIONLAYERS
================

Background
Sand, Raked
Player, Rock

======
RULES
======

[ Sand > Player ] -> [ Raked > Player ]
late [ Player Raked ] -> cancel

==============
WINCONDITIONS
==============

no Sand

=======
LEVELS
=======

";

/// A random garden level: rocks round the edge and here and there, sand on about half
/// the cells, the player on a cell without sand.
fn garden_level(rng: &mut Rng) -> String {
    let (w, h) = (4 + rng.below(3), 4 + rng.below(2));
    let mut g = vec![vec!['.'; w]; h];
    for (y, row) in g.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            *c = if x == 0 || y == 0 || x == w - 1 || y == h - 1 || rng.below(8) == 0 {
                '#'
            } else if rng.below(2) == 0 {
                's'
            } else {
                '.'
            };
        }
    }
    let free: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| g[y][x] == '.')
        .collect();
    let (x, y) = if free.is_empty() {
        (1, 1)
    } else {
        free[rng.below(free.len())]
    };
    g[y][x] = 'P';
    g.iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect()
}

/// Positions where the player can no longer reach an X that a `no X` win condition
/// needs removed (past objects it can never share a cell with, and which never go
/// away) never reach a win, over whole small spaces searched without dropping any: a
/// raked garden (the blockers are raked sand, by a late `cancel`, and rocks on the
/// player's layer; the sand is removed in the player's own cell) and targets eaten in
/// front of a player that pushes crates (the blockers are walls; the crates move, so
/// they block nothing). Some positions are found so in each, and dropping them keeps
/// every answer.
#[test]
fn positions_out_of_the_players_reach_never_reach_a_win() {
    let eat = sokoban_no(
        "[ > Player | Target ] -> [ > Player | ]",
        "Player, Wall, Crate",
        "no Target",
    );
    for (k, game) in ["garden", "eat"].into_iter().enumerate() {
        let mut rng = Rng(0x5eed_0400 + k as u64);
        let (mut dead, mut states, mut spaces, mut fewer) = (0, 0, 0, 0);
        for _ in 0..60 {
            let text = match game {
                "garden" => format!("{GARDEN}{}", garden_level(&mut rng)),
                // Walls on a quarter of the free cells more: some targets walled in.
                _ => {
                    let level: String = sized_level(&mut rng, 2, false, 5)
                        .chars()
                        .map(|ch| {
                            if ch == '.' && rng.below(4) == 0 {
                                '#'
                            } else {
                                ch
                            }
                        })
                        .collect();
                    format!("{eat}{level}")
                }
            };
            let g = load(&text);
            let mut space = PsSpace::new(&g, 0).expect("a level");
            assert!(
                space
                    .pruning_description()
                    .contains("out of the player's reach"),
                "{game}: {}",
                space.pruning_description()
            );
            let label = format!("{game}: a position out of reach");
            let Some((d, n)) = dead_in_whole_space(&mut space, &text, &label) else {
                continue;
            };
            dead += d;
            states += n;
            spaces += 1;
            let (on, on_stats) = bfs_space(&g, true);
            let (off, off_stats) = bfs_space(&g, false);
            let actions = |o: puz::search::Outcome| match o {
                puz::search::Outcome::Solved(p) => Some(p.actions),
                puz::search::Outcome::Unsolvable => None,
                o => panic!("no answer: {o:?}\n{text}"),
            };
            assert_eq!(actions(on), actions(off), "{game}:\n{text}");
            fewer += usize::from(on_stats.stored < off_stats.stored);
        }
        eprintln!("{game}: {dead} out of reach of {states} in {spaces} spaces; {fewer} searches stored fewer");
        assert!(spaces >= 30, "{game}: too few spaces ({spaces})");
        assert!(dead * 50 > states, "{game}: {dead} of {states}");
        assert!(
            fewer >= 5,
            "{game}: pruning stored fewer states {fewer} times"
        );
    }
    // A level of more than 4,096 cells goes without the test (its flood fill would run
    // for every successor between budget checks).
    let rows = format!("P{}\n", "s".repeat(69)) + &format!("{}\n", "s".repeat(70)).repeat(69);
    let big = load(&format!("{GARDEN}{rows}"));
    let space = PsSpace::new(&big, 0).expect("a level");
    assert!(!space.pruning_description().contains("player's reach"));
}

/// Dropping dead positions changes no optimum and no answer: the demo Sokoban levels
/// solve to the same inputs with and without it, and with it store fewer states.
#[test]
fn dropping_dead_positions_keeps_the_answers() {
    let mut rng = Rng(0x5eed_0200);
    let mut fewer = 0;
    for _ in 0..60 {
        let text = format!("{SOKOBAN}{}", random_level(&mut rng, 2, false));
        let game = load(&text);
        let mut answers = vec![];
        for prune in [true, false] {
            let (outcome, stats) = bfs_space(&game, prune);
            let actions = match outcome {
                puz::search::Outcome::Solved(p) => Some(p.actions),
                puz::search::Outcome::Unsolvable => None,
                o => panic!("no answer: {o:?}\n{text}"),
            };
            answers.push((actions, stats.stored));
        }
        assert_eq!(answers[0].0, answers[1].0, "{text}");
        assert!(answers[0].1 <= answers[1].1, "{text}");
        fewer += usize::from(answers[0].1 < answers[1].1);
    }
    assert!(
        fewer > 20,
        "pruning stored fewer states on only {fewer} levels"
    );
}

/// Breadth-first search over level 0 of `game` as a space (200,000 states at most), with
/// dead positions dropped or not.
fn bfs_space(game: &Game, prune: bool) -> (puz::search::Outcome, puz::search::Stats) {
    let mut space = PsSpace::new(game, 0).expect("a level");
    space.set_pruning(prune);
    let costs = puz::search::CostTable {
        components: 1,
        adds: vec![1],
    };
    let inputs = puz::search::Inputs {
        costs: &costs,
        goals: None,
        length: None,
    };
    let budget = Budget {
        max_states: Some(200_000),
        ..Budget::default()
    };
    Backend::Bfs
        .run(&mut space, &budget, inputs)
        .expect("bfs runs")
}

/// How a level of `text` ends under BFS, with pruning on or off: the outcome, the states
/// stored and the proof the answer gives.
fn bfs_outcome(text: &str, prune: bool) -> (PsOutcome, u64, Option<String>) {
    let game = load(text);
    if prune {
        let opts = PsSolveOptions {
            budget: Budget {
                max_states: Some(200_000),
                ..Budget::default()
            },
            search: Some(Backend::Bfs),
            boards: false,
        };
        let s = puz::puzzlescript::solve_level(&game, 0, &opts).expect("searchable");
        return (s.outcome, s.stats.stored, s.proof);
    }
    let (outcome, stats) = bfs_space(&game, false);
    let outcome = match outcome {
        puz::search::Outcome::Solved(_) => PsOutcome::Solved,
        puz::search::Outcome::Unsolvable => PsOutcome::Unsolvable,
        o => panic!("no answer: {o:?}\n{text}"),
    };
    (outcome, stats.stored, None)
}

/// A level no input can win, as the rules show before any search, stops at its start
/// with the reason in the answer (a game without win conditions, where no rule queues
/// `win`; a level that starts in a dead position); the whole space, searched without
/// that, has no win either. A rule that queues `win` keeps the search going.
#[test]
fn levels_that_cannot_be_won_stop_at_the_start() {
    let level = "#######\n#.....#\n#.P*..#\n#..*.O#\n#.....#\n#######\n";
    let cornered = "#######\n#*....#\n#.P...#\n#....O#\n#######\n";
    let no_wins = format!(
        "{}{level}",
        sokoban_with("[ > Player | Crate ] -> [ > Player | > Crate ]", "")
    );
    let (o, stored, proof) = bfs_outcome(&no_wins, true);
    assert_eq!(o, PsOutcome::Unsolvable);
    assert_eq!(stored, 1);
    assert!(proof.is_some_and(|p| p.contains("no win conditions")));
    let (o, stored, _) = bfs_outcome(&no_wins, false);
    assert_eq!(o, PsOutcome::Unsolvable);
    assert!(stored > 1000, "{stored}");
    // The warning says so when the game is checked.
    let (_, warnings) = Game::load("test.txt", Arc::new(no_wins.clone())).expect("loads");
    let never_won = |w: &puz::diagnostics::Problem| {
        use miette::Diagnostic;
        w.code()
            .is_some_and(|c| c.to_string() == "puz::ps::never_won")
    };
    assert!(warnings.problems.iter().any(never_won));

    let dead = format!("{SOKOBAN}{cornered}");
    let (o, stored, proof) = bfs_outcome(&dead, true);
    assert_eq!(o, PsOutcome::Unsolvable);
    assert_eq!(stored, 1);
    assert!(proof.is_some_and(|p| p.contains("dead position")));
    assert_eq!(bfs_outcome(&dead, false).0, PsOutcome::Unsolvable);

    let wins = format!(
        "{}{level}",
        sokoban_with(
            "[ > Player | Crate ] -> [ > Player | > Crate ]\nlate [ Crate Target ] -> win",
            ""
        )
    );
    let (o, _, proof) = bfs_outcome(&wins, true);
    assert_eq!(o, PsOutcome::Solved);
    assert!(proof.is_none());
    let (_, warnings) = Game::load("test.txt", Arc::new(wins)).expect("loads");
    assert!(!warnings.problems.iter().any(never_won));
}
