//! Iterative deepening (`--search iddfs`) ends as soon as a depth bound reaches no state
//! at that depth: an unsolvable level answers "no solution" after about as many
//! iterations as its depth, not after its longest simple path (the reproducers of fuzz
//! round 3, iddfs_unsolvable_runs_to_timeout: a hypercube of 256 and 4096 toggle states,
//! 9.8 s and past any timeout before); and it still gives breadth-first search's answer,
//! path for path, solvable or not.

use crate::common::rules;

use std::time::{Duration, Instant};

use puz::search::{Backend, Budget, Outcome};
use puz::solver::{EngineChoice, SearchChoice, Solver};

/// `cells` toggles (one per cell) and a goal that needs `need` cells on.
fn toggles(rows: &[&str], need: usize) -> String {
    let board: String = rows.iter().map(|r| format!("  {r}\n")).collect();
    format!(
        r#"puzzle "g3"
tiles {{ t0 t1 }}
piece p0
legend {{ '.' t0 '#' t1 '@' t0 + p0 }}
dirs {{ n (-1, 0) w (0, -1) }}
move m0(cell c) {{ toggle t0 t1 at c }}
goal p0 on t1 and count(t1) == {need}
level "L" """
{board}  """
"#
    )
}

fn solve(src: &str, backend: Backend, budget: &Budget) -> (Outcome, puz::search::Stats) {
    let p = rules::load(src);
    let level = p.inline_level(0).unwrap();
    let mut s = Solver::new(
        &p.model,
        EngineChoice::Interp,
        SearchChoice::Backend(backend),
    )
    .unwrap();
    let ans = s.solve(level, budget, true).unwrap();
    (ans.outcome, ans.stats)
}

#[test]
fn an_unsolvable_level_ends_after_its_depth_not_its_longest_path() {
    for (rows, states) in [
        (vec!["....", "..@."], 256u64),
        (vec!["....", "..@.", "...."], 4096),
    ] {
        let src = toggles(&rows, 99);
        let t0 = Instant::now();
        let budget = Budget {
            deadline: Some(Instant::now() + Duration::from_secs(30)),
            max_states: Some(100_000),
            ..Budget::default()
        };
        let (outcome, stats) = solve(&src, Backend::Iddfs, &budget);
        assert!(
            matches!(outcome, Outcome::Unsolvable),
            "{states} states: {outcome:?}"
        );
        assert_eq!(stats.stored, states);
        // One iteration per depth, each expanding each state at most once per depth it
        // is met at: far below the old millions.
        let cells = rows.len() as u64 * 4;
        assert!(
            stats.expanded < states * cells * cells,
            "{states} states: expanded {}",
            stats.expanded
        );
        assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    }
}

#[test]
fn iddfs_gives_the_breadth_first_answer_solvable_or_not() {
    let mut rng = fastrand::Rng::with_seed(0x1ddf5);
    let (mut solved, mut none) = (0, 0);
    for i in 0..80 {
        let (h, w) = (rng.usize(1..=2), rng.usize(2..=4));
        let mut rows: Vec<String> = (0..h)
            .map(|_| (0..w).map(|_| if rng.bool() { '#' } else { '.' }).collect())
            .collect();
        let (r, c) = (rng.usize(..h), rng.usize(..w));
        rows[r].replace_range(c..c + 1, "@");
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let src = toggles(&refs, rng.usize(0..=h * w + 1));
        let (want, _) = solve(&src, Backend::Bfs, &Budget::default());
        let (got, _) = solve(&src, Backend::Iddfs, &Budget::default());
        match (&want, &got) {
            (Outcome::Solved(a), Outcome::Solved(b)) => {
                assert_eq!(a.actions, b.actions, "#{i}:\n{src}");
                solved += 1;
            }
            (Outcome::Unsolvable, Outcome::Unsolvable) => none += 1,
            _ => panic!("#{i}: bfs {want:?}, iddfs {got:?}:\n{src}"),
        }
    }
    assert!(solved > 15 && none > 15, "solved {solved}, none {none}");
}
