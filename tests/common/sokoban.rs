//! Sokoban with one box (`puzzles/sokoban.puz`; spec `/work/shared/spec/puzzles.md`, section 2):
//! random boards and an independent reference that finds the canonical optimal path.
//!
//! The reference shares no code with the crate. Its rules, straight from the spec:
//!
//! - a **walk** `n s w e` moves the man one cell onto floor that is on the board and not the
//!   box; it adds one to `walks`;
//! - a **push** `N S W E` needs the box on the man's next cell that way and floor on the board
//!   beyond it; box and man both move one cell; it adds one to `pushes`;
//! - solved when the box stands on `T`; optimise (pushes, walks) lexicographically;
//! - ties: among the optimal solutions the push sequence is the lexicographically smallest
//!   in the order N < S < W < E; then every walk segment is the lexicographically smallest
//!   shortest walk in the order n < s < w < e. (This is the README's general rule for
//!   `cost pushes, walks`: compare the push subsequence, then the walk subsequence. Given
//!   the push sequence, the box's cells and the man's cell before each push are fixed, every
//!   walk segment is a shortest walk, so the walk subsequence compares segment by segment.)
//!
//! How the reference finds the canonical path:
//!
//! 1. Dijkstra over (man, box) states with cost (pushes, walks): `dist` from the start.
//! 2. An edge `s -> t` of cost `c` is *tight* when `dist[s] + c == dist[t]`; the optimal
//!    solutions are exactly the tight paths from the start to a goal state with
//!    `dist == opt`. A state is *useful* when a tight path leads from it to such a goal
//!    (computed in decreasing `dist` order; every move costs more than nothing).
//! 3. Pushes, greedily: from the current state take the closure over tight walk edges into
//!    useful states, then the smallest push direction with a tight push edge into a useful
//!    state. Repeat `opt.pushes` times.
//! 4. Walks: with the push sequence fixed, each segment is the lexicographically smallest
//!    shortest walk between its fixed ends (breadth-first distances to the segment's end,
//!    then the first direction that gets one step closer).
//!
//! On tiny boards a second, literal reference checks the first: a memoised search over
//! (state, pushes left, walks left) for the smallest (push sequence, walk sequence) of
//! *all* paths with exactly the optimal cost, and proof that no cheaper cost is possible.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------
// Reference
// ---------------------------------------------------------------------------------------

/// Direction vectors in the tie order n, s, w, e (N, S, W, E).
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
pub const WALK_LETTERS: [char; 4] = ['n', 's', 'w', 'e'];
pub const PUSH_LETTERS: [char; 4] = ['N', 'S', 'W', 'E'];

/// (pushes, walks), compared lexicographically by the derived order of tuples.
pub type Cost = (u32, u32);

pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub wall: Vec<bool>,
    pub man: usize,
    pub box_: usize,
    pub target: usize,
}

impl Board {
    /// Parses rows of `. # S B T`; panics unless the board is rectangular with one of each.
    pub fn parse(text: &str) -> Board {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let rows = lines.len();
        let cols = lines[0].len();
        let (mut man, mut box_, mut target) = (vec![], vec![], vec![]);
        let mut wall = vec![];
        for (r, l) in lines.iter().enumerate() {
            assert_eq!(l.len(), cols, "ragged board:\n{text}");
            for (c, ch) in l.bytes().enumerate() {
                let i = r * cols + c;
                wall.push(ch == b'#');
                match ch {
                    b'S' => man.push(i),
                    b'B' => box_.push(i),
                    b'T' => target.push(i),
                    b'.' | b'#' => {}
                    other => panic!("unexpected cell {:?} in\n{text}", other as char),
                }
            }
        }
        assert!(
            man.len() == 1 && box_.len() == 1 && target.len() == 1,
            "{text}"
        );
        Board {
            rows,
            cols,
            wall,
            man: man[0],
            box_: box_[0],
            target: target[0],
        }
    }

    /// The state the board starts in.
    pub fn start(&self) -> St {
        St {
            man: self.man,
            bx: self.box_,
        }
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    pub fn floor_cells(&self) -> usize {
        self.wall.iter().filter(|w| !**w).count()
    }

    /// The neighbouring cell in direction `d` when it is on the board and not a wall.
    pub fn step(&self, cell: usize, d: usize) -> Option<usize> {
        let r = (cell / self.cols) as i32 + DIRS[d].0;
        let c = (cell % self.cols) as i32 + DIRS[d].1;
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            return None;
        }
        let i = r as usize * self.cols + c as usize;
        (!self.wall[i]).then_some(i)
    }

    /// The cell one step against `d` (where the man stands to push that way).
    pub fn behind(&self, cell: usize, d: usize) -> Option<usize> {
        let back = [1, 0, 3, 2][d];
        self.step(cell, back)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct St {
    pub man: usize,
    pub bx: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct Move {
    pub dir: usize,
    pub push: bool,
    pub to: St,
}

impl Move {
    pub fn cost(&self) -> Cost {
        if self.push {
            (1, 0)
        } else {
            (0, 1)
        }
    }
}

pub fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1)
}

/// Every legal move from `s`, straight from the rules.
pub fn moves(board: &Board, s: St) -> Vec<Move> {
    let mut out = vec![];
    for d in 0..4 {
        let Some(next) = board.step(s.man, d) else {
            continue;
        };
        if next == s.bx {
            if let Some(beyond) = board.step(s.bx, d) {
                out.push(Move {
                    dir: d,
                    push: true,
                    to: St {
                        man: next,
                        bx: beyond,
                    },
                });
            }
        } else {
            out.push(Move {
                dir: d,
                push: false,
                to: St {
                    man: next,
                    bx: s.bx,
                },
            });
        }
    }
    out
}

/// What the reference knows about a board.
pub struct Solution {
    pub cost: Cost,
    pub path: String,
    /// How many optimal paths there are (saturating).
    pub optimal_paths: u64,
    /// Whether, after the canonical pushes so far, more than one push direction continued
    /// an optimal path at some point (the push order decided, not just the walks).
    pub push_choices: bool,
}

pub fn reference(board: &Board) -> Option<Solution> {
    let n = board.cells();
    let id = |s: St| s.man * n + s.bx;
    let start = board.start();
    // 1. Dijkstra.
    let mut dist: Vec<Option<Cost>> = vec![None; n * n];
    let mut heap = BinaryHeap::new();
    dist[id(start)] = Some((0, 0));
    heap.push(Reverse(((0u32, 0u32), start.man, start.bx)));
    let mut settled = vec![false; n * n];
    let mut order = vec![];
    while let Some(Reverse((c, man, bx))) = heap.pop() {
        let s = St { man, bx };
        if std::mem::replace(&mut settled[id(s)], true) {
            continue;
        }
        order.push(s);
        for m in moves(board, s) {
            let nc = add(c, m.cost());
            if dist[id(m.to)].is_none_or(|old| nc < old) {
                dist[id(m.to)] = Some(nc);
                heap.push(Reverse((nc, m.to.man, m.to.bx)));
            }
        }
    }
    let opt = order
        .iter()
        .filter(|s| s.bx == board.target)
        .filter_map(|s| dist[id(*s)])
        .min()?;
    let tight = |s: St, m: &Move| dist[id(m.to)] == Some(add(dist[id(s)].unwrap(), m.cost()));
    // 2. Useful states and the number of optimal paths from each, in decreasing `dist`.
    let mut useful = vec![false; n * n];
    let mut count = vec![0u64; n * n];
    for &s in order.iter().rev() {
        if s.bx == board.target {
            if dist[id(s)] == Some(opt) {
                useful[id(s)] = true;
                count[id(s)] = 1;
            }
            continue;
        }
        for m in moves(board, s) {
            if tight(s, &m) && useful[id(m.to)] {
                useful[id(s)] = true;
                count[id(s)] = count[id(s)].saturating_add(count[id(m.to)]);
            }
        }
    }
    assert!(useful[id(start)]);
    // 3. The push sequence.
    let mut cur = start;
    let mut pushes = vec![];
    let mut push_choices = false;
    while (pushes.len() as u32) < opt.0 {
        let mut closure = vec![cur];
        let mut inside = vec![false; n * n];
        inside[id(cur)] = true;
        let mut k = 0;
        while k < closure.len() {
            let s = closure[k];
            k += 1;
            for m in moves(board, s) {
                if !m.push && tight(s, &m) && useful[id(m.to)] && !inside[id(m.to)] {
                    inside[id(m.to)] = true;
                    closure.push(m.to);
                }
            }
        }
        // Every push direction that continues an optimal path, smallest first.
        let mut options: Vec<(usize, St)> = vec![];
        for &s in &closure {
            for m in moves(board, s) {
                if m.push && tight(s, &m) && useful[id(m.to)] {
                    options.push((m.dir, m.to));
                }
            }
        }
        options.sort_by_key(|o| o.0);
        options.dedup_by_key(|o| o.0);
        push_choices |= options.len() > 1;
        let &(d, next) = options.first().expect("a useful state has a way on");
        // The pushes so far fix the box's cell, so the man ends on the box's old cell.
        assert_eq!(next.man, cur.bx);
        pushes.push(d);
        cur = next;
    }
    assert!(cur.bx == board.target && dist[id(cur)] == Some(opt));
    // 4. The walk segments.
    let mut path = String::new();
    let (mut man, mut bx) = (board.man, board.box_);
    for &d in &pushes {
        let spot = board.behind(bx, d).expect("the man stands behind the box");
        path.push_str(&smallest_shortest_walk(board, man, spot, bx));
        path.push(PUSH_LETTERS[d]);
        man = bx;
        bx = board.step(bx, d).unwrap();
    }
    Some(Solution {
        cost: opt,
        path,
        optimal_paths: count[id(start)],
        push_choices,
    })
}

/// The lexicographically smallest (n < s < w < e) shortest walk from `from` to `to` that
/// avoids walls and the box.
pub fn smallest_shortest_walk(board: &Board, from: usize, to: usize, bx: usize) -> String {
    let mut d = vec![u32::MAX; board.cells()];
    d[to] = 0;
    let mut q = VecDeque::from([to]);
    while let Some(c) = q.pop_front() {
        for dir in 0..4 {
            if let Some(nb) = board.step(c, dir) {
                if nb != bx && d[nb] == u32::MAX {
                    d[nb] = d[c] + 1;
                    q.push_back(nb);
                }
            }
        }
    }
    assert_ne!(d[from], u32::MAX, "the segment's end is reachable");
    let mut out = String::new();
    let mut c = from;
    while c != to {
        let dir = (0..4)
            .find(|&dir| {
                board
                    .step(c, dir)
                    .is_some_and(|nb| nb != bx && d[nb] + 1 == d[c])
            })
            .unwrap();
        out.push(WALK_LETTERS[dir]);
        c = board.step(c, dir).unwrap();
    }
    out
}

/// Replays a path with the reference rules: its cost, or why it is not a solution.
pub fn replay(board: &Board, path: &str) -> Result<Cost, String> {
    let (mut man, mut bx) = (board.man, board.box_);
    let mut cost = (0, 0);
    for (k, ch) in path.chars().enumerate() {
        let (d, push) = if let Some(d) = WALK_LETTERS.iter().position(|&l| l == ch) {
            (d, false)
        } else if let Some(d) = PUSH_LETTERS.iter().position(|&l| l == ch) {
            (d, true)
        } else {
            return Err(format!("move {}: unknown letter {ch:?}", k + 1));
        };
        let next = board
            .step(man, d)
            .ok_or_else(|| format!("move {} ({ch}): into a wall or off the board", k + 1))?;
        if push {
            if next != bx {
                return Err(format!("move {} ({ch}): no box to push", k + 1));
            }
            bx = board
                .step(bx, d)
                .ok_or_else(|| format!("move {} ({ch}): the box is blocked", k + 1))?;
            cost.0 += 1;
        } else {
            if next == bx {
                return Err(format!("move {} ({ch}): walks into the box", k + 1));
            }
            cost.1 += 1;
        }
        man = next;
    }
    if bx != board.target {
        return Err("the box does not end on the target".to_string());
    }
    Ok(cost)
}

/// Key of a path under the tie rule: (push directions, walk directions) as tie ranks.
pub type Key = (Vec<u8>, Vec<u8>);

/// The literal search's memo: (man, box, pushes left, walks left) to the best key and path.
pub type Memo = HashMap<(usize, usize, u32, u32), Option<(Key, String)>>;

/// The literal rule on tiny boards: the smallest (push sequence, walk sequence) over all
/// paths from `s` that reach the goal with exactly `p` pushes and `w` walks, with the path.
pub fn literal(board: &Board, memo: &mut Memo, s: St, p: u32, w: u32) -> Option<(Key, String)> {
    if s.bx == board.target {
        // Optimal paths never pass the goal early (their prefix would be cheaper).
        return (p == 0 && w == 0).then(|| ((vec![], vec![]), String::new()));
    }
    if let Some(v) = memo.get(&(s.man, s.bx, p, w)) {
        return v.clone();
    }
    let mut best: Option<(Key, String)> = None;
    for m in moves(board, s) {
        let cand = if m.push {
            if p == 0 {
                continue;
            }
            literal(board, memo, m.to, p - 1, w).map(|((mut ps, ws), rest)| {
                ps.insert(0, m.dir as u8);
                ((ps, ws), format!("{}{rest}", PUSH_LETTERS[m.dir]))
            })
        } else {
            if w == 0 {
                continue;
            }
            literal(board, memo, m.to, p, w - 1).map(|((ps, mut ws), rest)| {
                ws.insert(0, m.dir as u8);
                ((ps, ws), format!("{}{rest}", WALK_LETTERS[m.dir]))
            })
        };
        if let Some(c) = cand {
            if best.as_ref().is_none_or(|b| c.0 < b.0) {
                best = Some(c);
            }
        }
    }
    memo.insert((s.man, s.bx, p, w), best.clone());
    best
}

/// Checks the reference against the literal rule on a solvable tiny board: no cheaper cost
/// exists, and the smallest key at the optimal cost is the reference's path.
pub fn check_literally(board: &Board, sol: &Solution, text: &str) {
    let start = board.start();
    let mut memo = HashMap::new();
    let (p_opt, w_opt) = sol.cost;
    // A solution with p pushes can be shortened to one whose walk segments are simple.
    let walk_bound = |p: u32| (p + 1) * board.floor_cells() as u32;
    for p in 0..=p_opt {
        let w_max = if p == p_opt {
            w_opt.saturating_sub(1)
        } else {
            walk_bound(p)
        };
        if p == p_opt && w_opt == 0 {
            continue;
        }
        for w in 0..=w_max {
            assert!(
                literal(board, &mut memo, start, p, w).is_none(),
                "literal search finds a cheaper cost ({p}, {w}) than {:?} on\n{text}",
                sol.cost
            );
        }
    }
    let (_, path) = literal(board, &mut memo, start, p_opt, w_opt)
        .unwrap_or_else(|| panic!("literal search finds no path of cost {:?}", sol.cost));
    assert_eq!(path, sol.path, "reference vs literal tie rule on\n{text}");
}

/// Fewest moves (walks and pushes alike, as with one cost `moves`), or `None`.
pub fn fewest_moves(board: &Board) -> Option<u32> {
    let n = board.cells();
    let id = |s: St| s.man * n + s.bx;
    let start = board.start();
    let mut dist: Vec<Option<u32>> = vec![None; n * n];
    dist[id(start)] = Some(0);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[id(s)].unwrap();
        if s.bx == board.target {
            return Some(d);
        }
        for m in moves(board, s) {
            if dist[id(m.to)].is_none() {
                dist[id(m.to)] = Some(d + 1);
                queue.push_back(m.to);
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------

/// Level symbols of one rule set's legend.
pub struct Syms {
    pub floor: u8,
    pub wall: u8,
    pub man: u8,
    pub box_: u8,
    pub goal: u8,
    /// Man and box standing on a goal cell, when the legend can say so.
    pub man_on_goal: Option<u8>,
    pub box_on_goal: Option<u8>,
    /// At most this many goal cells.
    pub goals: usize,
}

/// The symbols of `puzzles/sokoban.puz` (`. # S B T`), one target.
pub const ORIGINAL: Syms = Syms {
    floor: b'.',
    wall: b'#',
    man: b'S',
    box_: b'B',
    goal: b'T',
    man_on_goal: None,
    box_on_goal: None,
    goals: 1,
};

/// How boards are drawn.
pub struct Shape {
    /// Sides are at most this long.
    pub max: usize,
    /// The chance that a side is drawn from 1..=`max` rather than 3..=`max` (thin boards
    /// leave the box little room).
    pub thin: f64,
    /// Draw the number of goal cells from 1..=`Syms::goals`; otherwise exactly one.
    pub draw_goals: bool,
    /// Pick the box's cell before the man's.
    pub box_first: bool,
    /// Per pick (first piece, second piece, first goal), the chance to take a cell away
    /// from the board's edge, where a box could never move (`None`: anywhere).
    pub away: [Option<f64>; 3],
}

/// The shape of the reference suite's boards: 1..=7 x 1..=7, the box usually and the
/// target often away from the edge.
pub const REFERENCE_SHAPE: Shape = Shape {
    max: 7,
    thin: 0.3,
    draw_goals: false,
    box_first: true,
    away: [Some(0.8), Some(0.0), Some(0.5)],
};

/// The fast-path suite's boards: up to `max` on a side, several goals where the legend
/// allows, the box usually away from the edge.
pub const fn agreement_shape(max: usize) -> Shape {
    Shape {
        max,
        thin: 0.25,
        draw_goals: true,
        box_first: false,
        away: [None, Some(0.7), None],
    }
}

/// A random board in `s`'s symbols: walls at a random density (sometimes a frame), one
/// man, one box and one or more goal cells on distinct cells; now and then the man or the
/// box starts on a goal when the legend allows.
pub fn board(rng: &mut fastrand::Rng, s: &Syms, shape: &Shape) -> String {
    loop {
        let mut side = || {
            if rng.f64() < shape.thin {
                rng.usize(1..=shape.max)
            } else {
                rng.usize(3..=shape.max)
            }
        };
        let (rows, cols) = (side(), side());
        let goals = if shape.draw_goals {
            rng.usize(1..=s.goals)
        } else {
            1
        };
        if rows * cols < 2 + goals {
            continue;
        }
        // Open rooms (many equal-cost answers) as often as cluttered ones.
        let density = [0.0, 0.0, 0.08, 0.15, 0.25, 0.4][rng.usize(0..6)];
        let framed = rows >= 3 && cols >= 3 && (rows - 2) * (cols - 2) >= 2 + goals && rng.bool();
        let mut g = vec![vec![s.floor; cols]; rows];
        for (r, row) in g.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                if (framed && border) || rng.f64() < density {
                    *cell = s.wall;
                }
            }
        }
        let inner: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| !framed || (r > 0 && c > 0 && r < rows - 1 && c < cols - 1))
            .collect();
        let away: Vec<(usize, usize)> = inner
            .iter()
            .copied()
            .filter(|&(r, c)| r > 0 && c > 0 && r < rows - 1 && c < cols - 1)
            .collect();
        let mut picks: Vec<(usize, usize)> = vec![];
        while picks.len() < 2 + goals {
            let p = match shape.away.get(picks.len()).copied().flatten() {
                Some(chance) if !away.is_empty() && rng.f64() < chance => {
                    away[rng.usize(0..away.len())]
                }
                _ => inner[rng.usize(0..inner.len())],
            };
            if !picks.contains(&p) {
                picks.push(p);
            }
        }
        for &(r, c) in &picks[2..] {
            g[r][c] = s.goal;
        }
        let (mut man, mut bx) = if shape.box_first {
            (picks[1], picks[0])
        } else {
            (picks[0], picks[1])
        };
        if s.man_on_goal.is_some() && rng.f64() < 0.1 {
            man = picks[2];
        } else if s.box_on_goal.is_some() && rng.f64() < 0.05 {
            bx = picks[2];
        }
        for (at, plain, on_goal) in [(man, s.man, s.man_on_goal), (bx, s.box_, s.box_on_goal)] {
            let cell = &mut g[at.0][at.1];
            *cell = if *cell == s.goal {
                on_goal.expect("allowed")
            } else {
                plain
            };
        }
        let text: Vec<String> = g
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        return text.join("\n");
    }
}

// ---------------------------------------------------------------------------------------
// Judge format (POJ 1475)
// ---------------------------------------------------------------------------------------

/// A judge input (`r c`, r rows, ..., `0 0`) of `boards`.
pub fn judge_input(boards: &[String]) -> String {
    let mut input = String::new();
    for b in boards {
        let lines: Vec<&str> = b.lines().collect();
        input.push_str(&format!("{} {}\n", lines.len(), lines[0].len()));
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    input.push_str("0 0\n");
    input
}

/// The judge's output for `boards` by the reference: `Maze #k`, the canonical path or
/// `Impossible.`, a blank line.
pub fn judge_output(boards: &[String]) -> String {
    boards
        .iter()
        .enumerate()
        .map(|(k, b)| match reference(&Board::parse(b)) {
            Some(sol) => format!("Maze #{}\n{}\n\n", k + 1, sol.path),
            None => format!("Maze #{}\nImpossible.\n\n", k + 1),
        })
        .collect()
}

/// The sample input and output of seed 003, between 输入样例 and 输出样例.
pub fn seed_sample() -> (String, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/seeds");
    let file = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("003_"))
        .expect("seed 003 is in tests/data/seeds");
    let text = std::fs::read_to_string(file).unwrap();
    let after_in = &text[text.find("输入样例").unwrap()..];
    let input = &after_in[after_in.find('\n').unwrap() + 1..after_in.find("输出样例").unwrap()];
    let after_out = &after_in[after_in.find("输出样例").unwrap()..];
    let body = &after_out[after_out.find('\n').unwrap() + 1..];
    // The output runs up to the first line that is neither part of a block nor blank.
    let mut output = String::new();
    let mut lines = body.lines();
    while let Some(l) = lines.next() {
        if !l.starts_with("Maze #") {
            break;
        }
        output.push_str(l);
        output.push('\n');
        output.push_str(lines.next().unwrap());
        output.push_str("\n\n");
        lines.next();
    }
    (input.trim_start().to_string(), output)
}

/// A file of the POJ 1475 data in `tests/data/pushing_boxes_poj1475`.
pub fn poj_data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pushing_boxes_poj1475")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the shared judge data {}: {e}\n\
             these tests need tests/data/pushing_boxes_poj1475",
            path.display()
        )
    })
}

/// A random room in the standard notation: walls, `boxes` boxes and as many goals.
pub fn room(rng: &mut fastrand::Rng, boxes: usize, max: usize) -> String {
    loop {
        let (h, w) = (rng.usize(3..=max), rng.usize(3..=max));
        let mut g: Vec<Vec<u8>> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| if rng.u8(0..100) < 6 { b'#' } else { b' ' })
                    .collect()
            })
            .collect();
        let mut cells: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| g[r][c] == b' ')
            .collect();
        if cells.len() < 2 * boxes + 1 {
            continue;
        }
        rng.shuffle(&mut cells);
        g[cells[0].0][cells[0].1] = b'@';
        for k in 0..boxes {
            let (r, c) = cells[1 + k];
            g[r][c] = b'$';
            let (r, c) = cells[1 + boxes + k];
            // Now and then a box starts on a goal.
            g[r][c] = if rng.u8(0..6) == 0 { b'*' } else { b'.' };
            if g[r][c] == b'*' {
                let (r, c) = cells[1 + k];
                g[r][c] = b' ';
            }
        }
        return g
            .iter()
            .map(|r| String::from_utf8(r.clone()).expect("ascii") + "\n")
            .collect();
    }
}
