//! Keys and doors (`puzzles/keys.puz`): a brute force and a random level generator written
//! from the corpus spec (`/work/shared/spec/corpus.md`, "keys.puz"), sharing nothing with
//! the crate:
//!
//! - `#` wall, `.` floor, `@` man, `k` key, `D` door, `E` exit;
//! - the man walks one cell onto anything but a wall; walking onto a key picks it up;
//! - he can step onto a door only while holding a key: that uses the key and the door
//!   becomes floor;
//! - the goal is the man on the exit; every step costs 1. At most 9 keys in a level.
//!
//! The brute force is a breadth-first search over (man, keys left on the board as a bit
//! set, doors opened as a bit set); the keys held follow from the two sets.

use std::collections::{HashSet, VecDeque};

/// Direction vectors (row, column) in the order `n s w e`.
pub const DIRS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A parsed level.
pub struct Level {
    h: i32,
    w: i32,
    /// Row-major symbols with the man replaced by floor.
    cells: Vec<u8>,
    man: usize,
    /// The key cells, in reading order (bit k of a state's key set).
    keys: Vec<usize>,
    /// The door cells, in reading order (bit k of a state's door set).
    doors: Vec<usize>,
}

/// (man, keys still on the board, doors opened).
type State = (usize, u32, u64);

impl Level {
    /// Reads a level in the spec's notation (one row per line, blank lines ignored).
    pub fn parse(text: &str) -> Level {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let (h, w) = (rows.len(), rows[0].len());
        let mut cells: Vec<u8> = vec![];
        for row in &rows {
            assert_eq!(row.len(), w, "ragged level");
            cells.extend(row.bytes());
        }
        let find =
            |ch: u8| -> Vec<usize> { (0..cells.len()).filter(|&i| cells[i] == ch).collect() };
        let man = find(b'@');
        assert_eq!(man.len(), 1, "one man");
        let (keys, doors) = (find(b'k'), find(b'D'));
        assert!(keys.len() <= 9 && doors.len() <= 64);
        assert!(
            cells.iter().all(|c| b"#.@kDE".contains(c)),
            "unknown symbol"
        );
        cells[man[0]] = b'.';
        Level {
            h: h as i32,
            w: w as i32,
            cells,
            man: man[0],
            keys,
            doors,
        }
    }

    fn step(&self, i: usize, d: usize) -> Option<usize> {
        let (r, c) = (i as i32 / self.w + DIRS[d].0, i as i32 % self.w + DIRS[d].1);
        (r >= 0 && c >= 0 && r < self.h && c < self.w).then(|| (r * self.w + c) as usize)
    }

    fn start(&self) -> State {
        (self.man, (1u32 << self.keys.len()) - 1, 0)
    }

    /// Keys in the man's hand: picked up minus used.
    fn held(&self, (_, keys, doors): State) -> u32 {
        self.keys.len() as u32 - keys.count_ones() - doors.count_ones()
    }

    /// The position after a step in direction `d`, or `None` when it is not allowed.
    fn apply(&self, s: State, d: usize) -> Option<State> {
        let t = self.step(s.0, d)?;
        let (mut keys, mut doors) = (s.1, s.2);
        match self.cells[t] {
            b'#' => return None,
            b'D' => {
                let k = self.doors.iter().position(|&x| x == t).unwrap();
                if doors & (1 << k) == 0 {
                    if self.held(s) == 0 {
                        return None;
                    }
                    doors |= 1 << k;
                }
            }
            b'k' => keys &= !(1 << self.keys.iter().position(|&x| x == t).unwrap()),
            _ => {}
        }
        Some((t, keys, doors))
    }

    fn goal(&self, s: State) -> bool {
        self.cells[s.0] == b'E'
    }

    /// The fewest steps to the exit, or `None`.
    pub fn solve(&self) -> Option<u64> {
        let start = self.start();
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([(start, 0u64)]);
        while let Some((s, cost)) = queue.pop_front() {
            if self.goal(s) {
                return Some(cost);
            }
            for d in 0..4 {
                if let Some(n) = self.apply(s, d) {
                    if seen.insert(n) {
                        queue.push_back((n, cost + 1));
                    }
                }
            }
        }
        None
    }

    /// Plays steps (indices into [`DIRS`]) from the start: `Err` names the first step that
    /// is not allowed or a path that does not end on the exit; `Ok` is the cost.
    pub fn replay(&self, dirs: &[usize]) -> Result<u64, String> {
        let mut s = self.start();
        for (k, &d) in dirs.iter().enumerate() {
            s = self.apply(s, d).ok_or_else(|| {
                format!("step {k} ({}) is not allowed", "nswe".as_bytes()[d] as char)
            })?;
        }
        if !self.goal(s) {
            return Err("the man does not end on the exit".into());
        }
        Ok(dirs.len() as u64)
    }
}

/// Steps from the letters of `puzzles/keys.puz` (`nswe`).
pub fn dirs_from_letters(letters: &str) -> Vec<usize> {
    letters
        .chars()
        .map(|ch| {
            "nswe"
                .find(ch)
                .unwrap_or_else(|| panic!("unknown letter {ch:?}"))
        })
        .collect()
}

/// A random small level: walls, up to five keys, doors, one exit. One level in three is
/// a corridor where the man has to come back through doors he opened.
pub fn random_level(rng: &mut fastrand::Rng) -> String {
    if rng.u8(0..3) == 0 {
        // The exit behind one or two doors, the man next to them, keys and more doors
        // on his other side: he must come back through the doors he opens there.
        let doors = rng.usize(1..=2);
        let mut g = vec![b'E'];
        g.extend(std::iter::repeat_n(b'D', doors));
        g.push(b'@');
        for _ in 0..rng.usize(2..=7) {
            g.push(match rng.u8(0..20) {
                0..=6 => b'.',
                7..=11 => b'D',
                _ => b'k',
            });
        }
        if rng.bool() {
            g.reverse();
        }
        return String::from_utf8(g).unwrap() + "\n";
    }
    let (h, w) = (rng.usize(2..=5), rng.usize(3..=7));
    let mut g: Vec<u8> = (0..h * w)
        .map(|_| match rng.u8(0..100) {
            0..=21 => b'#',
            22..=37 => b'D',
            _ => b'.',
        })
        .collect();
    let mut free: Vec<usize> = (0..h * w).filter(|&i| g[i] == b'.').collect();
    rng.shuffle(&mut free);
    let keys = rng.usize(0..=5);
    if free.len() < 2 + keys {
        return random_level(rng);
    }
    g[free[0]] = b'@';
    g[free[1]] = b'E';
    for &i in &free[2..2 + keys] {
        g[i] = b'k';
    }
    g.chunks(w)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect()
}
