//! The guarded forms (`program/guard.rs`) against the general program they replace: on
//! random levels (fixed seeds), every state reached gets the same successors, in the same
//! order, from both.

use std::collections::{HashSet, VecDeque};

use super::budget::Budget;
use super::{Expander, Successors};
use crate::Puzzle;

/// Explores up to `most` states of the first level of `text` breadth-first, expanding
/// each with and without the guarded forms, and returns how many states it compared;
/// `forms` is the number of (local, flip) guarded forms the rules must have.
fn compare(text: &str, forms: (usize, usize), most: usize) -> usize {
    let p = Puzzle::load("guarded.puz", text.to_string()).expect("the rules load");
    let level = p.inline_level(0).expect("level");
    let mut fast = Expander::new(&p.model, level.clone(), &Budget::default()).expect("setup");
    let mut plain = Expander::new(&p.model, level, &Budget::default()).expect("setup");
    assert_eq!(fast.guarded_forms(), forms, "{text}");
    plain.without_guarded_forms();
    assert_eq!(plain.guarded_forms(), (0, 0));
    let words = fast.words;
    let start = fast.start();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let (mut a, mut b) = (Successors::default(), Successors::default());
    let mut n = 0;
    while let Some(s) = queue.pop_front() {
        if n == most {
            break;
        }
        n += 1;
        fast.successors(&s, &mut a);
        plain.successors(&s, &mut b);
        assert_eq!(a.actions, b.actions, "actions from {s:?} in\n{text}");
        assert_eq!(a.states, b.states, "successors of {s:?} in\n{text}");
        for i in 0..a.len() {
            let t = a.state(i, words).to_vec();
            if seen.insert(t.clone()) {
                queue.push_back(t);
            }
        }
    }
    n
}

/// A random board of `rows` x `cols` drawn from `symbols`, each with its weight.
fn board(rng: &mut fastrand::Rng, rows: usize, cols: usize, symbols: &[(char, u32)]) -> String {
    let total: u32 = symbols.iter().map(|s| s.1).sum();
    let mut out = String::new();
    for _ in 0..rows {
        out.push_str("  ");
        for _ in 0..cols {
            let mut x = rng.u32(0..total);
            let c = symbols
                .iter()
                .find(|s| {
                    let hit = x < s.1;
                    x = x.saturating_sub(s.1);
                    hit
                })
                .map_or('.', |s| s.0);
            out.push(c);
        }
        out.push('\n');
    }
    out
}

const FROGS: &str = r#"puzzle "frogs"
tiles { floor wall ice }
outside wall
marks { pad }
piece frog anonymous
piece toad anonymous
piece log anonymous { pose h { (0, 0) (0, 1) } }
legend { '.' floor  '#' wall  '~' ice  'p' floor + pad  'F' floor + frog  'T' floor + toad  'L' floor + log }
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
forbid frog on wall
forbid toad on wall
forbid log on wall
move frog_go(d in e, s) {
  if toad at frog + d as over { shift frog 2d } else { shift frog d }
}
move toad_go(d in w, n) {
  if frog at toad + d as over { require floor at toad + 2d  shift toad 2d }
  else if ice at toad + d { forbid pad at toad + d or log at toad + 2d  shift toad 2d }
  else { shift toad d }
}
move frog_hop(d) {
  require frog at frog + d as other
  forbid not (floor at frog + 2d or ice at frog + 2d)
  shift frog 2d
}
move log_roll(d in w, e) {
  if frog at log + d or toad at log + d { } else { require pad at log  shift log d }
}
// `log + e` is the log's own second cell: `as` must find another log there.
move log_slide(d in n, s) {
  if log at log + e as twin { shift log 2d } else { shift log d }
}
goal count(frog) == 0
"#;

const PEGS: &str = r#"puzzle "pegs"
tiles { peg hole void }
outside void
marks { x }
legend { '#' void  'o' peg  '.' hole  'O' peg + x  '+' hole + x }
dirs { n (-1, 0)  s (1, 0)  w (0, -1)  e (0, 1) }
move jn(cell c) {
  require peg at c  require peg at c + n  require hole at c + 2n
  toggle peg hole at c  toggle peg hole at c + n  toggle peg hole at c + 2n
}
move je(cell c) {
  require peg at c and peg at c + e
  forbid peg at c + 2e or void at c + 2e
  toggle peg hole at c  toggle peg hole at c + e  toggle peg hole at c + 2e
}
move flip(cell c) {
  forbid x at c
  toggle peg hole at c
  require hole at c and not void at c + s
  toggle peg hole at c + s
}
move corner(d) {
  require peg at (0, 0)
  toggle peg hole at (0, 0)  toggle peg hole at (0, 1)
}
goal count(peg) == 1
"#;

#[test]
fn guarded_local_moves_match_the_general_program_on_random_levels() {
    let mut rng = fastrand::Rng::with_seed(25);
    let mut compared = 0;
    for _ in 0..40 {
        let (rows, cols) = (rng.usize(1..5), rng.usize(4..8));
        let cells = board(
            &mut rng,
            rows,
            cols,
            &[('.', 6), ('#', 1), ('~', 2), ('p', 2), ('F', 3), ('T', 3)],
        );
        // Every kind has a copy: a frog, a toad and a log side by side in one row.
        let mut cells: Vec<Vec<char>> = cells.lines().map(|l| l.chars().collect()).collect();
        let r = rng.usize(0..rows);
        cells[r][2..6].copy_from_slice(&['F', 'T', 'L', 'L']);
        if cols > 4 {
            cells[r][6] = '.';
        }
        let level: Vec<String> = cells.into_iter().map(|l| l.into_iter().collect()).collect();
        let text = format!(
            "{FROGS}level \"r\" \"\"\"\n{}\n  \"\"\"\n",
            level.join("\n")
        );
        compared += compare(&text, (5, 0), 3000);
    }
    assert!(compared > 10_000, "only {compared} states compared");
}

#[test]
fn guarded_flips_match_the_general_program_on_random_levels() {
    let mut rng = fastrand::Rng::with_seed(33);
    let mut compared = 0;
    for _ in 0..40 {
        // Up to 64 changeable cells the state is read as one 64-bit word; past that,
        // word by word: both ways are compared.
        let (rows, cols) = (rng.usize(2..11), rng.usize(2..11));
        let cells = board(
            &mut rng,
            rows,
            cols,
            &[('o', 6), ('.', 3), ('#', 1), ('O', 1), ('+', 1)],
        );
        let text = format!("{PEGS}level \"r\" \"\"\"\n{cells}  \"\"\"\n");
        compared += compare(&text, (0, 4), 3000);
    }
    assert!(compared > 10_000, "only {compared} states compared");
}
