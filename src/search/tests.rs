//! Every backend on small hand-made graphs: ties, unsolvable levels, the move limit and
//! the budget's cutoffs, independent of the language.

use std::time::Duration;
use web_time::Instant;

use super::*;

/// An explicit graph: a state is one word, the node number; `edges[v]` lists
/// (action, target) in increasing action order.
struct Graph {
    edges: Vec<Vec<(u32, u32)>>,
    goals: Vec<u32>,
    start: u32,
    /// The length of every solution, when the graph is layered so that it is fixed.
    length: Option<u32>,
}

impl Graph {
    /// A graph whose every edge goes both ways with the same action.
    fn undirected(n: usize, edges: &[(u32, u32, u32)], goals: &[u32]) -> Graph {
        let mut adj = vec![vec![]; n];
        for &(a, b, act) in edges {
            adj[a as usize].push((act, b));
            adj[b as usize].push((act, a));
        }
        for l in &mut adj {
            l.sort();
        }
        Graph {
            edges: adj,
            length: None,
            goals: goals.to_vec(),
            start: 0,
        }
    }
}

impl Space for Graph {
    fn words(&self) -> usize {
        1
    }
    fn radix(&self) -> Vec<u32> {
        vec![self.edges.len() as u32]
    }
    fn start(&self) -> Vec<u32> {
        vec![self.start]
    }
    fn is_goal(&self, s: &[u32]) -> bool {
        self.goals.contains(&s[0])
    }
    fn successors(&mut self, s: &[u32], out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        for &(a, t) in &self.edges[s[0] as usize] {
            out.actions.push(action(a));
            out.states.push(t);
        }
    }
}

/// Each action adds one to the listed components.
fn costs(components: usize, adds: &[&[usize]]) -> CostTable {
    let mut t = vec![0u8; adds.len() * components];
    for (a, cs) in adds.iter().enumerate() {
        for &c in *cs {
            t[a * components + c] = 1;
        }
    }
    CostTable {
        components,
        adds: t,
    }
}

fn unit(actions: usize) -> CostTable {
    costs(1, &vec![&[0usize][..]; actions])
}

/// The backends that run on any state space, hand-made graphs included: not those that
/// need a fixed solution length (tested apart) or the interpreter's expander (layered
/// search, tested in tests/suite/layered.rs).
fn on_graphs() -> impl Iterator<Item = &'static super::BackendInfo> {
    BACKENDS
        .iter()
        .filter(|b| !matches!(b.needs, Needs::Countdown | Needs::InnerSplit))
}

#[test]
fn layered_search_runs_on_the_expander_only() {
    let table = unit(6);
    let inputs = Inputs {
        costs: &table,
        goals: None,
        length: None,
    };
    assert_eq!(
        Backend::Layered
            .run(&mut diamond(), &Budget::default(), inputs)
            .err(),
        Some(Refusal::ExpanderOnly)
    );
}

fn run(b: Backend, g: &mut Graph, budget: &Budget, table: &CostTable) -> Outcome {
    let goals: Vec<Vec<u32>> = g.goals.iter().map(|&v| vec![v]).collect();
    let inputs = Inputs {
        costs: table,
        goals: Some(&goals),
        length: g.length,
    };
    b.run(g, budget, inputs).expect("runs").0
}

/// Action `a` of the hand-made graphs: move `a`, in the first direction.
fn action(a: u32) -> Action {
    Action::new(crate::compile::MoveId(a as u16), crate::compile::DirId(0))
}

/// The actions of a path as the hand-made graphs number them.
fn numbers(actions: &[Action]) -> Vec<u32> {
    actions.iter().map(|a| a.mv().index() as u32).collect()
}

fn nodes(path: &Path) -> Vec<u32> {
    path.states.iter().map(|s| s[0]).collect()
}

/// 0 -a0- 1 -a5- 3 and 0 -a1- 2 -a0- 3, goal 3; and a longer way 0 -a2- 4 -a0- 5 -a0- 3.
fn diamond() -> Graph {
    Graph::undirected(
        6,
        &[
            (0, 1, 0),
            (1, 3, 5),
            (0, 2, 1),
            (2, 3, 0),
            (0, 4, 2),
            (4, 5, 0),
            (5, 3, 0),
        ],
        &[3],
    )
}

#[test]
fn ties_go_to_the_lowest_action_first() {
    let table = unit(6);
    for b in on_graphs() {
        let Outcome::Solved(p) = run(b.backend, &mut diamond(), &Budget::default(), &table) else {
            panic!("{} finds the diamond's goal", b.name);
        };
        assert_eq!(p.actions.len(), 2, "{}: fewest moves", b.name);
        if b.tie_rule {
            // [0, 5] < [1, 0]: the first move decides, though 2 reaches 3 by a lower action.
            assert_eq!(numbers(&p.actions), vec![0, 5], "{}", b.name);
            assert_eq!(nodes(&p), vec![0, 1, 3], "{}", b.name);
        }
    }
}

#[test]
fn unsolvable_when_no_goal_is_reachable() {
    // Goal 3 sits in another component.
    let table = unit(2);
    for b in on_graphs() {
        let mut g = Graph::undirected(4, &[(0, 1, 0), (1, 2, 1), (3, 3, 0)], &[3]);
        assert!(
            matches!(
                run(b.backend, &mut g, &Budget::default(), &table),
                Outcome::Unsolvable
            ),
            "{}",
            b.name
        );
    }
}

#[test]
fn the_start_may_be_a_goal() {
    let table = unit(6);
    for b in on_graphs() {
        let mut g = diamond();
        g.goals = vec![0, 3];
        let Outcome::Solved(p) = run(b.backend, &mut g, &Budget::default(), &table) else {
            panic!("{}", b.name);
        };
        assert!(p.actions.is_empty(), "{}", b.name);
    }
}

#[test]
fn the_move_limit_is_exact() {
    // A path 0 - 1 - 2 - 3 - 4, goal 4: four moves.
    let table = unit(1);
    let line = || Graph::undirected(5, &[(0, 1, 0), (1, 2, 0), (2, 3, 0), (3, 4, 0)], &[4]);
    for b in on_graphs() {
        let at = |m| Budget {
            max_depth: Some(m),
            ..Budget::default()
        };
        assert!(
            matches!(
                run(b.backend, &mut line(), &at(3), &table),
                Outcome::Unsolvable
            ),
            "{}: 3 moves are not enough",
            b.name
        );
        let Outcome::Solved(p) = run(b.backend, &mut line(), &at(4), &table) else {
            panic!("{}: 4 moves are enough", b.name);
        };
        assert_eq!(nodes(&p), vec![0, 1, 2, 3, 4], "{}", b.name);
    }
}

#[test]
fn dijkstra_under_a_limit_keeps_dearer_shorter_labels() {
    // Components (jumps, walks). Walks (action 0) go i -> i+1, jumps (action 1) i -> i+2,
    // on 0..=6, goal 6. The cheapest label of node 2 is two walks; within four moves the
    // goal needs a jump early, so node 2 must also keep "one jump" (dearer, shorter).
    let mut edges = vec![vec![]; 7];
    for (i, e) in edges.iter_mut().enumerate() {
        if i + 1 < 7 {
            e.push((0, i as u32 + 1));
        }
        if i + 2 < 7 {
            e.push((1, i as u32 + 2));
        }
    }
    let mut g = Graph {
        edges,
        length: None,
        goals: vec![6],
        start: 0,
    };
    let table = costs(2, &[&[1], &[0]]);
    let run_at = |g: &mut Graph, m: Option<u32>| {
        let budget = Budget {
            max_depth: m,
            ..Budget::default()
        };
        match dijkstra(g, &budget, &table).0 {
            Outcome::Solved(p) => Some(numbers(&p.actions)),
            Outcome::Unsolvable => None,
            o => panic!("{o:?}"),
        }
    };
    assert_eq!(run_at(&mut g, None), Some(vec![0; 6]));
    // Four moves: two jumps and two walks; the walks' projection is [0, 0] in any order
    // and the jumps' [1, 1], so the tie rule leaves the first one found.
    let four = run_at(&mut g, Some(4)).expect("solvable in four");
    assert_eq!(four.len(), 4);
    assert_eq!(four.iter().filter(|&&a| a == 1).count(), 2);
    assert_eq!(run_at(&mut g, Some(3)), Some(vec![1, 1, 1]));
    assert_eq!(run_at(&mut g, Some(2)), None);
}

#[test]
fn cutoffs_stop_every_backend() {
    let table = unit(6);
    for b in on_graphs() {
        let states = Budget {
            max_states: Some(2),
            ..Budget::default()
        };
        match run(b.backend, &mut diamond(), &states, &table) {
            Outcome::Cutoff(Cutoff::States(2)) => {}
            o => panic!("{}: {o:?}", b.name),
        }
        let late = Budget {
            deadline: Some(Instant::now() - Duration::from_secs(1)),
            ..Budget::default()
        };
        match run(b.backend, &mut diamond(), &late, &table) {
            Outcome::Cutoff(Cutoff::Time) => {}
            o => panic!("{}: {o:?}", b.name),
        }
    }
}

#[test]
fn run_refuses_what_a_backend_cannot_do() {
    let vector = costs(2, &[&[0], &[1], &[0], &[1], &[0], &[1]]);
    for b in on_graphs() {
        let goals = vec![vec![3]];
        let inputs = Inputs {
            costs: &vector,
            goals: Some(&goals),
            length: Some(2),
        };
        let res = b.backend.run(&mut diamond(), &Budget::default(), inputs);
        match b.needs {
            Needs::Nothing => assert!(res.is_ok(), "{}", b.name),
            Needs::InnerSplit => unreachable!("not run on graphs"),
            _ => assert_eq!(res.err(), Some(Refusal::NotUnit(b.name))),
        }
    }
    let table = unit(6);
    let inputs = Inputs {
        costs: &table,
        goals: None,
        length: None,
    };
    assert_eq!(
        Backend::Bidir
            .run(&mut diamond(), &Budget::default(), inputs)
            .err(),
        Some(Refusal::NoGoals)
    );
    for b in BACKENDS.iter() {
        assert_eq!(Backend::from_name(b.name), Some(b.backend));
        assert_eq!(b.backend.info().name, b.name);
    }
}

/// A layered graph: every path from the start to a goal has 3 moves, and goal 6 is
/// reached by two of them; the depth-first search must return the smaller, and remember
/// the dead branch under node 1 without expanding it twice.
fn layered() -> Graph {
    let mut edges = vec![vec![]; 7];
    for &(a, act, b) in &[
        (0, 0, 1),
        (0, 1, 2),
        (1, 0, 3),
        (2, 0, 3),
        (2, 1, 4),
        (3, 0, 5),
        (4, 0, 6),
        (4, 1, 6),
    ] {
        edges[a as usize].push((act, b));
    }
    Graph {
        edges,
        goals: vec![6],
        start: 0,
        length: Some(3),
    }
}

#[test]
fn dfs_finds_the_smallest_solution_of_the_fixed_length_and_skips_dead_states() {
    let table = unit(2);
    let mut g = layered();
    let (outcome, stats) = Backend::Dfs
        .run(
            &mut g,
            &Budget::default(),
            Inputs {
                costs: &table,
                goals: None,
                length: Some(3),
            },
        )
        .expect("runs");
    let Outcome::Solved(p) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(numbers(&p.actions), vec![1, 1, 0]);
    assert_eq!(nodes(&p), vec![0, 2, 4, 6]);
    // 0, 1, 3 (dead), 2, then 3 is skipped, 4.
    assert_eq!(stats.expanded, 5);
    let mut g = layered();
    g.goals = vec![5, 6];
    let Outcome::Solved(p) = run(Backend::Dfs, &mut g, &Budget::default(), &table) else {
        panic!("solvable")
    };
    assert_eq!(nodes(&p), vec![0, 1, 3, 5]);
    let mut g = layered();
    g.goals = vec![];
    assert!(matches!(
        run(Backend::Dfs, &mut g, &Budget::default(), &table),
        Outcome::Unsolvable
    ));
}
