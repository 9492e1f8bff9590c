//! Random valid rule files and small levels for the differential fuzzer. A case is built
//! as [`Rules`] data (printed for the library by [`Rules::to_puz`]) and level plans (where
//! every copy is, drawn into the level text with legend symbols made on demand), so the
//! reference knows the start state without reading the text.
//!
//! The moves are a mix of shapes people write (walk, push, jump, roll, slide, tilt, press,
//! keys and doors, loops over a footprint, create and remove) and statements drawn at
//! random from the whole language, then mutated; together they use every construct.

use std::collections::HashMap;

use fastrand::Rng;

use super::interp::{Board, PictureCell, Reference, Spot, State};
use super::rules::*;

/// Constructs the library on this branch accepts. `K.pose at CELL` in conditions (R1)
/// and attributes (R6) come with the lead's changes on main.
pub const POSE_AT: bool = true;
pub const ATTRS: bool = true;

/// One copy of a level plan; `choose` draws it with a symbol that chooses its pose.
#[derive(Clone, Debug)]
pub struct Placed {
    pub kind: usize,
    pub spot: Spot,
    pub choose: bool,
}

/// A goal picture's plan.
#[derive(Clone, Debug)]
pub struct PicPlan {
    pub tiles: Vec<usize>,
    pub copies: Vec<Placed>,
}

/// A level's plan: the board and every copy on it.
#[derive(Clone, Debug)]
pub struct Plan {
    pub rows: usize,
    pub cols: usize,
    pub tiles: Vec<usize>,
    pub marks: Vec<Vec<usize>>,
    pub copies: Vec<Placed>,
    pub picture: Option<PicPlan>,
}

impl Plan {
    pub fn board(&self) -> Board {
        Board {
            rows: self.rows,
            cols: self.cols,
            tiles: self.tiles.clone(),
            marks: self.marks.clone(),
        }
    }

    /// The picture as the reference reads it.
    pub fn picture_cells(&self, rules: &Rules) -> Option<Vec<PictureCell>> {
        let pic = self.picture.as_ref()?;
        let mut cells: Vec<PictureCell> = pic.tiles.iter().map(|&t| (t, None)).collect();
        for c in &pic.copies {
            let (r, col, pose) = c.spot;
            for (dr, dc) in &rules.kinds[c.kind].pose_list()[pose].cells {
                let i = (r + dr) as usize * self.cols + (col + dc) as usize;
                cells[i].1 = Some((c.kind, c.choose.then_some(pose)));
            }
        }
        Some(cells)
    }

    /// The start state as the reference reads it: a copy drawn without choosing its pose
    /// is in the first declared pose of its shape ("Poses of one shape count as one
    /// footprint: a symbol that names only the piece places the first declared of them").
    pub fn start(&self, rules: &Rules) -> State {
        let mut pieces = vec![vec![]; rules.kinds.len()];
        for c in &self.copies {
            let (r, col, pose) = c.spot;
            if c.choose {
                pieces[c.kind].push((r, col, pose));
            } else {
                let (q, (dr, dc)) = first_of_shape(&rules.kinds[c.kind], pose);
                pieces[c.kind].push((r + dr, col + dc, q));
            }
        }
        for p in &mut pieces {
            p.sort();
        }
        State {
            pieces,
            tiles: self.tiles.clone(),
            counters: rules.counters.iter().map(|c| c.start).collect(),
        }
    }
}

/// The first declared pose with the same shape as `pose` (footprints equal up to a
/// translation), and how far the anchor moves for it to cover the same cells.
pub fn first_of_shape(k: &Kind, pose: usize) -> (usize, (i64, i64)) {
    let poses = k.pose_list();
    let shape = |p: usize| {
        let mut v = poses[p].cells.clone();
        v.sort();
        let (r0, c0) = v[0];
        let norm: Vec<(i64, i64)> = v.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
        (norm, (r0, c0))
    };
    let (want, (r1, c1)) = shape(pose);
    (0..poses.len())
        .find_map(|q| {
            let (norm, (r0, c0)) = shape(q);
            (norm == want).then_some((q, (r1 - r0, c1 - c0)))
        })
        .unwrap_or((pose, (0, 0)))
}

/// A rule file and its levels' plans (`rules.levels[i]` is drawn from `plans[i]`).
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub rules: Rules,
    pub plans: Vec<Plan>,
}

impl Case {
    /// The reference for level `i`.
    pub fn reference(&self, i: usize) -> Reference<'_> {
        let p = &self.plans[i];
        let mut r = Reference::new(&self.rules, p.board(), p.picture_cells(&self.rules));
        let start = p.start(&self.rules);
        r.slots = (0..self.rules.kinds.len())
            .map(|k| {
                let kind = &self.rules.kinds[k];
                let room = if kind.anonymous {
                    kind.max.unwrap_or(0) as usize
                } else {
                    1
                };
                start.pieces[k].len().max(room)
            })
            .collect();
        r
    }

    /// Redraws the legend and every level's text from the plans (after the minimizer
    /// changed them); false when the symbols run out.
    pub fn redraw(&mut self) -> bool {
        let mut d = Drawer::default();
        let mut levels = vec![];
        for (i, p) in self.plans.iter().enumerate() {
            let Some(rows) = d.draw(&self.rules, p.rows, p.cols, &p.tiles, &p.marks, &p.copies)
            else {
                return false;
            };
            let picture = match &p.picture {
                Some(pic) => match d.draw(
                    &self.rules,
                    p.rows,
                    p.cols,
                    &pic.tiles,
                    &p.marks,
                    &pic.copies,
                ) {
                    Some(r) => Some(r),
                    None => return false,
                },
                None => None,
            };
            levels.push(LevelText {
                name: format!("L{i}"),
                rows,
                picture,
            });
        }
        self.rules.legend = d.legend;
        self.rules.levels = levels;
        true
    }
}

/// Characters legend symbols use.
const KEYS: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-.:;<=>?@[]^_`{|}~";

/// What a legend symbol means, with a variant number telling apart symbols of one meaning.
type Meaning = (usize, Vec<usize>, Option<(usize, Option<usize>, usize)>);

/// Makes legend symbols on demand while drawing levels.
#[derive(Default)]
struct Drawer {
    keys: HashMap<Meaning, char>,
    legend: Vec<Sym>,
}

impl Drawer {
    fn key(&mut self, m: Meaning) -> Option<char> {
        if let Some(&c) = self.keys.get(&m) {
            return Some(c);
        }
        let c = KEYS.chars().nth(self.legend.len())?;
        let mut extras = vec![];
        if let Some((k, pose, _)) = m.2 {
            extras.push(Extra::Piece(k, pose));
        }
        extras.extend(m.1.iter().map(|&mk| Extra::Mark(mk)));
        self.legend.push(Sym {
            key: c,
            tile: m.0,
            extras,
        });
        self.keys.insert(m, c);
        Some(c)
    }

    /// Draws a board: adjacent copies of one kind get different variants (two different
    /// symbols of one meaning never share a copy).
    fn draw(
        &mut self,
        rules: &Rules,
        rows: usize,
        cols: usize,
        tiles: &[usize],
        marks: &[Vec<usize>],
        copies: &[Placed],
    ) -> Option<Vec<String>> {
        let mut piece_at: Vec<Option<(usize, Option<usize>, usize)>> = vec![None; rows * cols];
        let cells_of = |c: &Placed| -> Vec<(i64, i64)> {
            let (r, col, pose) = c.spot;
            rules.kinds[c.kind].pose_list()[pose]
                .cells
                .iter()
                .map(|(dr, dc)| (r + dr, col + dc))
                .collect()
        };
        let mut variants: Vec<usize> = vec![];
        for (i, c) in copies.iter().enumerate() {
            let mine = cells_of(c);
            let mut used = vec![];
            for (j, o) in copies.iter().enumerate().take(i) {
                if o.kind != c.kind {
                    continue;
                }
                let theirs = cells_of(o);
                let touch = mine.iter().any(|&(r, col)| {
                    theirs
                        .iter()
                        .any(|&(r2, c2)| (r - r2).abs() + (col - c2).abs() == 1)
                });
                if touch {
                    used.push(variants[j]);
                }
            }
            let v = (0..).find(|v| !used.contains(v)).expect("a free variant");
            variants.push(v);
            let pose = c.choose.then_some(c.spot.2);
            for (r, col) in mine {
                piece_at[r as usize * cols + col as usize] = Some((c.kind, pose, v));
            }
        }
        let mut out = vec![];
        for r in 0..rows {
            let mut line = String::new();
            for c in 0..cols {
                let i = r * cols + c;
                let mut ms = marks[i].clone();
                ms.sort();
                line.push(self.key((tiles[i], ms, piece_at[i]))?);
            }
            out.push(line);
        }
        Some(out)
    }
}

/// Names a move's statements may use at a point: `as` names (with their kinds) and loop
/// cells in scope.
#[derive(Clone, Default)]
struct Scope {
    cell_move: bool,
    aliases: Vec<(String, usize)>,
    loops: Vec<String>,
}

struct Gen {
    rng: Rng,
    r: Rules,
    /// Kinds whose poses are all one cell (slides and swaps use these).
    one_cell: Vec<usize>,
    /// Tiles that break (`ice -> floor`).
    breakable: Vec<usize>,
    /// Named kinds the goal mentions (never removed).
    goal_named: Vec<usize>,
    next_alias: usize,
    next_loop: usize,
}

/// Builds the case of `seed`: a valid rule file (by construction) and 1 to 3 levels.
pub fn case(seed: u64) -> Case {
    for attempt in 0.. {
        let mut g = Gen {
            rng: Rng::with_seed(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ attempt),
            r: Rules::default(),
            one_cell: vec![],
            breakable: vec![],
            goal_named: vec![],
            next_alias: 0,
            next_loop: 0,
        };
        if let Some(c) = g.build(seed) {
            return c;
        }
    }
    unreachable!()
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    fn pick<T: Clone>(&mut self, v: &[T]) -> T {
        v[self.rng.usize(..v.len())].clone()
    }

    fn build(&mut self, seed: u64) -> Option<Case> {
        self.dirs();
        self.tiles();
        self.marks();
        self.kinds();
        self.counters();
        let n_levels = 1 + self.rng.usize(..3);
        let pictures_only = self.chance(0.08);
        if !pictures_only {
            let g = self.goal(2);
            self.goal_named = named_in(&g, &self.r);
            self.r.goal = Some(g);
        }
        self.costs();
        let n_moves = 1 + self.rng.usize(..4);
        for i in 0..n_moves {
            let m = self.a_move(i);
            self.r.moves.push(m);
        }
        self.adds();
        self.forbids();
        self.metrics();
        let mut case = Case {
            seed,
            rules: self.r.clone(),
            plans: vec![],
        };
        for _ in 0..n_levels {
            if let Some(p) = self.plan(&case.rules, pictures_only) {
                case.plans.push(p);
            }
        }
        if case.plans.is_empty() || !case.redraw() {
            return None;
        }
        Some(case)
    }

    // ------------------------------------------------------------ declarations

    fn dirs(&mut self) {
        let d = |n: &str, dr: i64, dc: i64| Dir {
            name: n.into(),
            dr,
            dc,
        };
        let x = self.rng.f64();
        self.r.dirs = if x < 0.72 {
            vec![d("n", -1, 0), d("s", 1, 0), d("w", 0, -1), d("e", 0, 1)]
        } else if x < 0.82 {
            vec![d("w", 0, -1), d("e", 0, 1)]
        } else if x < 0.91 {
            vec![
                d("n", -1, 0),
                d("s", 1, 0),
                d("w", 0, -1),
                d("e", 0, 1),
                d("ne", -1, 1),
                d("sw", 1, -1),
            ]
        } else {
            vec![d("e", 0, 1), d("n", -1, 0), d("jump", 1, 2)]
        };
    }

    fn tiles(&mut self) {
        let t = |n: &str| Tile {
            name: n.into(),
            becomes: None,
        };
        self.r.tiles = vec![t("floor"), t("wall")];
        if self.chance(0.55) {
            let mut ice = t("ice");
            if self.chance(0.6) {
                ice.becomes = Some(0);
            }
            self.r.tiles.push(ice);
        }
        if self.chance(0.45) {
            self.r.tiles.push(t("gate"));
        }
        if self.chance(0.25) {
            let mut lava = t("lava");
            if self.chance(0.3) {
                lava.becomes = Some(1);
            }
            self.r.tiles.push(lava);
        }
        self.breakable = (0..self.r.tiles.len())
            .filter(|&i| self.r.tiles[i].becomes.is_some())
            .collect();
        let x = self.rng.f64();
        self.r.outside = if x < 0.6 {
            None
        } else if x < 0.85 {
            Some(1)
        } else {
            Some(self.rng.usize(..self.r.tiles.len()))
        };
    }

    fn marks(&mut self) {
        let n = self.rng.usize(..3);
        self.r.marks = ["target", "spot"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect();
    }

    fn kinds(&mut self) {
        let mut cast = vec![0, 1, 2];
        self.rng.shuffle(&mut cast);
        let n = 1 + self.rng.usize(..3);
        let mut cast: Vec<usize> = cast[..n].to_vec();
        cast.sort();
        for c in cast {
            let k = match c {
                0 => Kind {
                    name: "man".into(),
                    anonymous: self.chance(0.35),
                    max: None,
                    poses: None,
                    attrs: vec![],
                },
                1 => {
                    let anonymous = self.chance(0.85);
                    let poses = self
                        .chance(0.2)
                        .then(|| vec![pose("up", &[(0, 0)]), pose("rt", &[(0, 0)])]);
                    Kind {
                        name: "box".into(),
                        anonymous,
                        max: (anonymous && self.chance(0.45)).then(|| 3 + self.rng.u32(..2)),
                        poses,
                        attrs: vec![],
                    }
                }
                _ => {
                    let anonymous = self.chance(0.4);
                    let x = self.rng.f64();
                    let poses = if x < 0.45 {
                        vec![
                            pose("stand", &[(0, 0)]),
                            pose("rows", &[(0, 0), (1, 0)]),
                            pose("cols", &[(0, 0), (0, 1)]),
                        ]
                    } else if x < 0.8 {
                        vec![pose("h", &[(0, 0), (0, 1)]), pose("v", &[(0, 0), (1, 0)])]
                    } else {
                        vec![
                            pose("h", &[(0, 0), (0, 1)]),
                            pose("hh", &[(0, -1), (0, 0)]),
                            pose("dot", &[(0, 0)]),
                        ]
                    };
                    Kind {
                        name: "blk".into(),
                        anonymous,
                        max: (anonymous && self.chance(0.3)).then(|| 2 + self.rng.u32(..2)),
                        poses: Some(poses),
                        attrs: vec![],
                    }
                }
            };
            self.r.kinds.push(k);
        }
        if ATTRS {
            self.attrs();
        }
        self.one_cell = (0..self.r.kinds.len())
            .filter(|&k| {
                self.r.kinds[k]
                    .pose_list()
                    .iter()
                    .all(|p| p.cells.len() == 1)
            })
            .collect();
    }

    /// R6: integer attributes on kinds and poses.
    fn attrs(&mut self) {
        for k in 0..self.r.kinds.len() {
            if self.chance(0.5) {
                let v = self.rng.i64(0..4);
                self.r.kinds[k].attrs.push(("size".into(), v));
            }
            if self.chance(0.3) {
                let v = self.rng.i64(0..3);
                self.r.kinds[k].attrs.push(("weight".into(), v));
            }
            if let Some(poses) = self.r.kinds[k].poses.as_mut() {
                for p in poses.iter_mut() {
                    if self.rng.f64() < 0.5 {
                        p.attrs.push(("size".into(), self.rng.i64(0..4)));
                    }
                }
            }
        }
    }

    fn counters(&mut self) {
        let n = if self.chance(0.6) {
            0
        } else {
            1 + self.rng.usize(..2)
        };
        for (i, name) in ["keys", "fuel"].iter().enumerate().take(n) {
            let max = 1 + self.rng.i64(0..4);
            let start = if i == 1 || self.chance(0.3) {
                self.rng.i64(0..=max)
            } else {
                0
            };
            self.r.counters.push(Counter {
                name: name.to_string(),
                max,
                start,
            });
        }
    }

    fn costs(&mut self) {
        let x = self.rng.f64();
        self.r.costs = if x < 0.6 {
            vec![]
        } else if x < 0.85 {
            vec!["moves".into()]
        } else {
            vec!["pushes".into(), "walks".into()]
        };
    }

    /// Every move adds at least one component and every component is added somewhere.
    fn adds(&mut self) {
        let nc = self.r.costs.len();
        if nc == 0 {
            return;
        }
        for i in 0..self.r.moves.len() {
            let c = self.rng.usize(..nc);
            self.r.moves[i].adds = vec![c];
            if nc > 1 && self.chance(0.2) {
                self.r.moves[i].adds = vec![0, 1];
            }
        }
        for c in 0..nc {
            if !self.r.moves.iter().any(|m| m.adds.contains(&c)) {
                let i = self.rng.usize(..self.r.moves.len());
                self.r.moves[i].adds.push(c);
                self.r.moves[i].adds.sort();
                self.r.moves[i].adds.dedup();
            }
        }
    }

    fn forbids(&mut self) {
        for k in 0..self.r.kinds.len() {
            if self.chance(0.7) {
                self.r.forbids.push(Forbid {
                    kind: k,
                    pose: None,
                    place: Place::Tile(1),
                });
            }
        }
        for _ in 0..self.rng.usize(..3) {
            let k = self.rng.usize(..self.r.kinds.len());
            let pose = self.pose_of(k, 0.4);
            let place = self.place();
            self.r.forbids.push(Forbid {
                kind: k,
                pose,
                place,
            });
        }
    }

    fn metrics(&mut self) {
        if !self.chance(0.15) {
            return;
        }
        let mut straight = vec![];
        let mut chain = vec![];
        for (i, m) in self.r.moves.iter().enumerate() {
            if self.rng.f64() < 0.5 {
                continue;
            }
            if matches!(m.param, Param::Dirs(_)) && advances(&m.body) && self.rng.f64() < 0.5 {
                straight.push(i);
            } else if moves_a_piece(&m.body) {
                chain.push(i);
            }
        }
        self.r.metrics.push(Metric {
            name: "grouped".into(),
            straight,
            chain,
        });
    }

    // ------------------------------------------------------------ small parts

    fn place(&mut self) -> Place {
        if !self.r.marks.is_empty() && self.chance(0.35) {
            Place::Mark(self.rng.usize(..self.r.marks.len()))
        } else {
            Place::Tile(self.rng.usize(..self.r.tiles.len()))
        }
    }

    fn pose_of(&mut self, k: usize, p: f64) -> Option<usize> {
        let n = self.r.kinds[k].pose_list().len();
        (self.r.kinds[k].poses.is_some() && self.chance(p)).then(|| self.rng.usize(..n))
    }

    fn op(&mut self) -> Cmp {
        self.pick(&Cmp::ALL)
    }

    /// A step: the move's direction (maybe reversed or doubled) or a named one.
    fn step(&mut self, s: &Scope) -> Step {
        let dir = if s.cell_move || self.chance(0.2) {
            Some(self.rng.usize(..self.r.dirs.len()))
        } else {
            None
        };
        Step {
            neg: self.chance(0.15),
            times: if self.chance(0.15) { 2 } else { 1 },
            dir,
        }
    }

    /// A forward step along the move's direction (`d`, sometimes `2d`).
    fn fwd(&mut self, s: &Scope, times: i64) -> Step {
        if s.cell_move {
            return Step {
                neg: false,
                times,
                dir: Some(self.rng.usize(..self.r.dirs.len())),
            };
        }
        Step {
            neg: false,
            times,
            dir: None,
        }
    }

    fn kind(&mut self) -> usize {
        self.rng.usize(..self.r.kinds.len())
    }

    fn who(&mut self, s: &Scope) -> Who {
        if !s.aliases.is_empty() && self.chance(0.35) {
            let (a, _) = self.pick(&s.aliases);
            Who::Alias(a)
        } else {
            Who::Kind(self.kind())
        }
    }

    fn kind_of(&self, s: &Scope, w: &Who) -> usize {
        match w {
            Who::Kind(k) => *k,
            Who::Alias(a) => s.aliases.iter().find(|x| x.0 == *a).expect("in scope").1,
        }
    }

    /// A piece acted on among `kinds` (a kind or an `as` name of one).
    fn who_among(&mut self, s: &Scope, kinds: &[usize]) -> Option<Who> {
        let aliases: Vec<String> = s
            .aliases
            .iter()
            .filter(|(_, k)| kinds.contains(k))
            .map(|x| x.0.clone())
            .collect();
        if !aliases.is_empty() && self.chance(0.35) {
            return Some(Who::Alias(self.pick(&aliases)));
        }
        if kinds.is_empty() {
            return None;
        }
        Some(Who::Kind(self.pick(kinds)))
    }

    fn cell(&mut self, s: &Scope) -> CellE {
        let x = self.rng.f64();
        let base = if s.cell_move && x < 0.45 {
            Base::Param
        } else if !s.loops.is_empty() && x < 0.65 {
            Base::Loop(self.pick(&s.loops))
        } else if x < 0.9 {
            Base::Who(self.who(s))
        } else {
            Base::Abs(self.rng.i64(-2..3), self.rng.i64(-2..3))
        };
        let n = match self.rng.usize(..10) {
            0..=2 => 0,
            3..=8 => 1,
            _ => 2,
        };
        let steps = (0..n).map(|_| (self.chance(0.2), self.step(s))).collect();
        CellE { base, steps }
    }

    fn new_alias(&mut self) -> String {
        self.next_alias += 1;
        format!("x{}", self.next_alias)
    }

    /// A condition; `bind` where `as` may bind (a plain `require` or `if` condition).
    /// Aliases it binds are pushed to `out`.
    fn cond(&mut self, s: &Scope, depth: u8, bind: bool, out: &mut Vec<(String, usize)>) -> Cond {
        let x = self.rng.f64();
        if depth > 0 && x < 0.12 {
            let mut sc = s.clone();
            sc.aliases.extend(out.iter().cloned());
            return Cond::Not(Box::new(self.cond(&sc, depth - 1, false, &mut vec![])));
        }
        if depth > 0 && x < 0.27 {
            let n = 2 + usize::from(self.chance(0.2));
            let mut parts = vec![];
            for _ in 0..n {
                let mut sc = s.clone();
                sc.aliases.extend(out.iter().cloned());
                parts.push(self.cond(&sc, depth - 1, bind, out));
            }
            return Cond::And(parts);
        }
        if depth > 0 && x < 0.38 {
            let n = 2 + usize::from(self.chance(0.2));
            let mut parts = vec![];
            for _ in 0..n {
                let mut sc = s.clone();
                sc.aliases.extend(out.iter().cloned());
                parts.push(self.cond(&sc, depth - 1, false, &mut vec![]));
            }
            return Cond::Or(parts);
        }
        let mut sc = s.clone();
        sc.aliases.extend(out.iter().cloned());
        self.leaf(&sc, bind, out)
    }

    fn leaf(&mut self, s: &Scope, bind: bool, out: &mut Vec<(String, usize)>) -> Cond {
        let x = self.rng.f64();
        if x < 0.55 {
            let y = self.rng.f64();
            let cell = self.cell(s);
            let (what, pose, alias) = if y < 0.45 {
                let k = self.kind();
                let pose = if POSE_AT { self.pose_of(k, 0.2) } else { None };
                let alias = (bind && self.r.kinds[k].anonymous && self.chance(0.35)).then(|| {
                    let a = self.new_alias();
                    out.push((a.clone(), k));
                    a
                });
                (What::Piece(k), pose, alias)
            } else if y < 0.52 && !s.aliases.is_empty() {
                (What::Alias(self.pick(&s.aliases).0), None, None)
            } else if y < 0.85 || self.r.marks.is_empty() {
                (What::Tile(self.rng.usize(..self.r.tiles.len())), None, None)
            } else {
                (What::Mark(self.rng.usize(..self.r.marks.len())), None, None)
            };
            return Cond::At {
                what,
                pose,
                cell,
                alias,
            };
        }
        if x < 0.7 {
            let who = self.who(s);
            let pose = match &who {
                Who::Kind(k) => self.pose_of(*k, 0.3),
                Who::Alias(_) => None,
            };
            return Cond::On {
                who,
                pose,
                place: self.place(),
            };
        }
        let counter = x < 0.92 && !self.r.counters.is_empty();
        let attr = x >= 0.92 && ATTRS;
        if !counter && !attr {
            let what = match self.rng.usize(..3) {
                0 => CountWhat::Piece(self.kind()),
                1 if !self.r.marks.is_empty() => {
                    CountWhat::Mark(self.rng.usize(..self.r.marks.len()))
                }
                _ => CountWhat::Tile(self.rng.usize(..self.r.tiles.len())),
            };
            return Cond::Count {
                what,
                op: self.op(),
                value: self.rng.i64(0..4),
            };
        }
        if counter {
            let id = self.rng.usize(..self.r.counters.len());
            return Cond::Counter {
                id,
                op: self.op(),
                value: self.rng.i64(0..=self.r.counters[id].max),
            };
        }
        // An attribute every pose of the kind has, compared with a number or another's.
        let with_attrs = |g: &Gen, w: &Who| -> Vec<String> {
            let k = match w {
                Who::Kind(k) => *k,
                Who::Alias(a) => s.aliases.iter().find(|x| x.0 == *a).expect("in scope").1,
            };
            g.attrs_of(k)
        };
        let who = self.who(s);
        let names = with_attrs(self, &who);
        if names.is_empty() {
            return Cond::Count {
                what: CountWhat::Piece(self.kind()),
                op: self.op(),
                value: self.rng.i64(0..3),
            };
        }
        let attr = self.pick(&names);
        let other = self.who(s);
        let other_names = with_attrs(self, &other);
        let value = if other_names.is_empty() || self.chance(0.55) {
            AttrVal::Num(self.rng.i64(0..4))
        } else {
            let a = self.pick(&other_names);
            AttrVal::Of(other, a)
        };
        Cond::Attr {
            who,
            attr,
            op: self.op(),
            value,
        }
    }

    /// The attributes every pose of kind `k` has.
    fn attrs_of(&self, k: usize) -> Vec<String> {
        let kind = &self.r.kinds[k];
        let mut names: Vec<String> = kind.attrs.iter().map(|a| a.0.clone()).collect();
        for p in kind.pose_list() {
            for (a, _) in &p.attrs {
                if !names.contains(a) {
                    names.push(a.clone());
                }
            }
        }
        let poses = kind.pose_list();
        names.retain(|a| (0..poses.len()).all(|q| kind.attr(q, a).is_some()));
        names
    }

    /// A goal condition: nothing bound, cells at named pieces or absolute.
    fn goal(&mut self, depth: u8) -> Cond {
        let x = self.rng.f64();
        if depth > 0 && x < 0.1 {
            return Cond::Not(Box::new(self.goal(depth - 1)));
        }
        if depth > 0 && x < 0.3 {
            return Cond::And(vec![self.goal(depth - 1), self.goal(depth - 1)]);
        }
        if depth > 0 && x < 0.4 {
            return Cond::Or(vec![self.goal(depth - 1), self.goal(depth - 1)]);
        }
        let y = self.rng.f64();
        if y < 0.35 {
            let k = self.kind();
            let pose = self.pose_of(k, 0.3);
            let place = if !self.r.marks.is_empty() && self.chance(0.6) {
                Place::Mark(self.rng.usize(..self.r.marks.len()))
            } else {
                self.place()
            };
            return Cond::On {
                who: Who::Kind(k),
                pose,
                place,
            };
        }
        if y < 0.6 {
            let what = match self.rng.usize(..3) {
                0 | 1 => CountWhat::Piece(self.kind()),
                _ => CountWhat::Tile(self.rng.usize(..self.r.tiles.len())),
            };
            return Cond::Count {
                what,
                op: self.op(),
                value: self.rng.i64(0..4),
            };
        }
        if y < 0.7 && !self.r.counters.is_empty() {
            let id = self.rng.usize(..self.r.counters.len());
            return Cond::Counter {
                id,
                op: self.op(),
                value: self.rng.i64(0..=self.r.counters[id].max),
            };
        }
        let named: Vec<usize> = (0..self.r.kinds.len())
            .filter(|&k| !self.r.kinds[k].anonymous)
            .collect();
        // R6: goals compare named pieces' attributes only.
        let with_attrs: Vec<usize> = named
            .iter()
            .copied()
            .filter(|&k| !self.attrs_of(k).is_empty())
            .collect();
        if !with_attrs.is_empty() && self.chance(0.25) {
            let k = self.pick(&with_attrs);
            let names = self.attrs_of(k);
            let attr = self.pick(&names);
            let value = if with_attrs.len() > 1 && self.chance(0.4) {
                let o = self.pick(&with_attrs);
                let names = self.attrs_of(o);
                AttrVal::Of(Who::Kind(o), self.pick(&names))
            } else {
                AttrVal::Num(self.rng.i64(0..4))
            };
            return Cond::Attr {
                who: Who::Kind(k),
                attr,
                op: self.op(),
                value,
            };
        }
        let base = if !named.is_empty() && self.chance(0.5) {
            let k = self.pick(&named);
            let n = self.rng.usize(..2);
            let steps = (0..n)
                .map(|_| {
                    (
                        false,
                        Step {
                            neg: false,
                            times: 1,
                            dir: Some(self.rng.usize(..self.r.dirs.len())),
                        },
                    )
                })
                .collect();
            CellE {
                base: Base::Who(Who::Kind(k)),
                steps,
            }
        } else {
            CellE {
                base: Base::Abs(self.rng.i64(-2..3), self.rng.i64(-2..3)),
                steps: vec![],
            }
        };
        let what = match self.rng.usize(..3) {
            0 => What::Piece(self.kind()),
            1 if !self.r.marks.is_empty() => What::Mark(self.rng.usize(..self.r.marks.len())),
            _ => What::Tile(self.rng.usize(..self.r.tiles.len())),
        };
        Cond::At {
            what,
            pose: None,
            cell: base,
            alias: None,
        }
    }

    fn slide_rules(&mut self) -> Vec<SlideRule> {
        let mut rules = vec![];
        let n = 1 + self.rng.usize(..3);
        for _ in 0..n {
            let x = self.rng.f64();
            let event = if x < 0.3 {
                Event::BeforeTile(if self.chance(0.6) {
                    1
                } else {
                    self.rng.usize(..self.r.tiles.len())
                })
            } else if x < 0.5 {
                Event::BeforePiece(self.kind())
            } else if x < 0.75 {
                Event::Into(self.place())
            } else {
                Event::OffBoard
            };
            let brk = matches!(event, Event::BeforeTile(t) if self.breakable.contains(&t))
                && self.chance(0.6);
            let lose = self.chance(0.2);
            let stop = !lose || self.chance(0.3);
            rules.push(SlideRule {
                event,
                stop,
                brk,
                lose,
            });
        }
        if self.chance(0.5) {
            rules.push(SlideRule {
                event: Event::OffBoard,
                stop: true,
                brk: false,
                lose: false,
            });
        }
        rules
    }

    fn turn_rules(&mut self, k: usize) -> Vec<TurnRule> {
        let poses = self.r.kinds[k].pose_list();
        let names: Vec<String> = self.r.dirs.iter().map(|d| d.name.clone()).collect();
        let dir = |n: &str| names.iter().position(|x| *x == n);
        let mut rules = vec![];
        let blox = poses.len() == 3 && poses[0].name == "stand";
        if blox && ["n", "s", "w", "e"].iter().all(|n| dir(n).is_some()) && self.chance(0.7) {
            let t = [
                (0, "n", 1, -2, 0),
                (0, "s", 1, 1, 0),
                (0, "w", 2, 0, -2),
                (0, "e", 2, 0, 1),
                (1, "n", 0, -1, 0),
                (1, "s", 0, 2, 0),
                (1, "w", 1, 0, -1),
                (1, "e", 1, 0, 1),
                (2, "n", 2, -1, 0),
                (2, "s", 2, 1, 0),
                (2, "w", 0, 0, -1),
                (2, "e", 0, 0, 2),
            ];
            for (from, d, to, dr, dc) in t {
                if self.chance(0.93) {
                    rules.push(TurnRule {
                        from,
                        dir: dir(d).expect("dir"),
                        to,
                        dr,
                        dc,
                    });
                }
            }
            return rules;
        }
        for from in 0..poses.len() {
            for d in 0..self.r.dirs.len() {
                if self.chance(0.6) {
                    rules.push(TurnRule {
                        from,
                        dir: d,
                        to: self.rng.usize(..poses.len()),
                        dr: self.rng.i64(-1..2),
                        dc: self.rng.i64(-1..2),
                    });
                }
            }
        }
        rules
    }

    // ------------------------------------------------------------ statements

    fn roomy(&self) -> Vec<usize> {
        (0..self.r.kinds.len())
            .filter(|&k| !self.r.kinds[k].anonymous || self.r.kinds[k].max.is_some())
            .collect()
    }

    fn removable(&self) -> Vec<usize> {
        (0..self.r.kinds.len())
            .filter(|&k| self.r.kinds[k].anonymous || !self.goal_named.contains(&k))
            .collect()
    }

    fn multi_pose(&self) -> Vec<usize> {
        (0..self.r.kinds.len())
            .filter(|&k| self.r.kinds[k].pose_list().len() > 1)
            .collect()
    }

    fn two_tiles(&mut self) -> (usize, usize) {
        let n = self.r.tiles.len();
        let a = self.rng.usize(..n);
        let b = (a + 1 + self.rng.usize(..n - 1)) % n;
        (a, b)
    }

    fn where_(&mut self, s: &Scope) -> Where {
        let x = self.rng.f64();
        if x < 0.7 {
            Where::At(self.cell(s))
        } else if x < 0.85 || self.r.marks.is_empty() {
            Where::Everywhere
        } else {
            Where::On(self.rng.usize(..self.r.marks.len()))
        }
    }

    /// A block of `n` random statements; `as` names bound in it stay in its scope.
    fn block(&mut self, s: &Scope, n: usize, depth: u8) -> Vec<Stmt> {
        let mut sc = s.clone();
        (0..n).map(|_| self.stmt(&mut sc, depth)).collect()
    }

    /// One random statement of any kind.
    fn stmt(&mut self, s: &mut Scope, depth: u8) -> Stmt {
        loop {
            let x = self.rng.usize(..100);
            let st = match x {
                0..=17 => {
                    let mut bound = vec![];
                    let c = self.cond(s, 1, true, &mut bound);
                    s.aliases.extend(bound);
                    Some(Stmt::Require(c))
                }
                18..=24 => Some(Stmt::Forbid(self.cond(s, 1, false, &mut vec![]))),
                25..=39 => {
                    let who = self.who(s);
                    let step = self.step(s);
                    Some(Stmt::Shift {
                        who,
                        each: false,
                        step,
                    })
                }
                40..=43 => {
                    let k = self.kind();
                    let step = self.step(s);
                    Some(Stmt::Shift {
                        who: Who::Kind(k),
                        each: true,
                        step,
                    })
                }
                44..=47 => {
                    let one = self.one_cell.clone();
                    self.who_among(s, &one).map(|who| {
                        let step = self.step(s);
                        Stmt::Swap { who, step }
                    })
                }
                48..=53 => {
                    let multi = self.multi_pose();
                    // "A `turn` needs a direction" (`puz::check::turn_in_cell_move`).
                    if multi.is_empty() || s.cell_move {
                        None
                    } else {
                        let k = self.pick(&multi);
                        let rules = self.turn_rules(k);
                        Some(Stmt::Turn {
                            who: Who::Kind(k),
                            rules,
                        })
                    }
                }
                54..=61 => {
                    let one = self.one_cell.clone();
                    let each = self.chance(0.35);
                    let who = if each {
                        (!one.is_empty()).then(|| Who::Kind(self.pick(&one)))
                    } else {
                        self.who_among(s, &one)
                    };
                    who.map(|who| {
                        let step = self.step(s);
                        let rules = self.slide_rules();
                        Stmt::Slide {
                            who,
                            each,
                            step,
                            rules,
                        }
                    })
                }
                62..=66 => {
                    let ks = self.removable();
                    self.who_among(s, &ks).map(Stmt::Remove)
                }
                67..=71 => {
                    let ks = self.roomy();
                    if ks.is_empty() {
                        None
                    } else {
                        let kind = self.pick(&ks);
                        let pose = self.pose_of(kind, 0.4);
                        let at = self.cell(s);
                        Some(Stmt::Create { kind, pose, at })
                    }
                }
                72..=76 => {
                    let (from, to) = self.two_tiles();
                    let place = self.where_(s);
                    Some(Stmt::Change { from, to, place })
                }
                77..=82 => {
                    let (a, b) = self.two_tiles();
                    let place = self.where_(s);
                    Some(Stmt::Toggle { a, b, place })
                }
                83..=88 => {
                    if self.r.counters.is_empty() {
                        None
                    } else {
                        let id = self.rng.usize(..self.r.counters.len());
                        let max = self.r.counters[id].max;
                        let op = self.pick(&[Assign::Add, Assign::Sub, Assign::Set]);
                        let value = match op {
                            Assign::Set => self.rng.i64(0..=max),
                            _ => 1 + self.rng.i64(0..max.min(2)),
                        };
                        Some(Stmt::Count { id, op, value })
                    }
                }
                89..=91 if depth > 0 => {
                    // A binding that may happen halfway (`K at CELL and ...`), then the
                    // `else` acts on `K`.
                    let k = self.kind();
                    let cell = self.cell(s);
                    let mut bound = vec![];
                    let rest = self.leaf(s, false, &mut bound);
                    let cond = Cond::And(vec![
                        Cond::At {
                            what: What::Piece(k),
                            pose: None,
                            cell,
                            alias: None,
                        },
                        rest,
                    ]);
                    let then = self.block(s, 1, depth - 1);
                    let step = self.step(s);
                    let els = vec![if self.removable().contains(&k) && self.chance(0.3) {
                        Stmt::Remove(Who::Kind(k))
                    } else {
                        Stmt::Shift {
                            who: Who::Kind(k),
                            each: false,
                            step,
                        }
                    }];
                    Some(Stmt::If { cond, then, els })
                }
                92..=95 if depth > 0 => {
                    let mut bound = vec![];
                    let cond = self.cond(s, 1, true, &mut bound);
                    let mut inner = s.clone();
                    inner.aliases.extend(bound);
                    let n1 = 1 + self.rng.usize(..2);
                    let then = self.block(&inner, n1, depth - 1);
                    let els = if self.chance(0.4) {
                        let n2 = 1 + self.rng.usize(..2);
                        self.block(s, n2, depth - 1)
                    } else {
                        vec![]
                    };
                    Some(Stmt::If { cond, then, els })
                }
                96..=99 if depth > 0 => {
                    let who = self.who(s);
                    self.next_loop += 1;
                    let var = format!("c{}", self.next_loop);
                    let mut inner = s.clone();
                    inner.loops.push(var.clone());
                    let n = 1 + self.rng.usize(..2);
                    let body = self.block(&inner, n, depth - 1);
                    Some(Stmt::For { var, who, body })
                }
                _ => None,
            };
            if let Some(st) = st {
                return st;
            }
        }
    }

    // ------------------------------------------------------------ moves

    fn a_move(&mut self, i: usize) -> Move {
        let x = self.rng.usize(..100);
        let cell_move = (80..88).contains(&x);
        let mut s = Scope {
            cell_move,
            ..Scope::default()
        };
        let mut body = if cell_move {
            self.press(&mut s)
        } else {
            match x {
                0..=14 => self.walk(&mut s),
                15..=29 => self.push(&mut s),
                30..=36 => self.jump(&mut s),
                37..=44 => self.roll(&mut s),
                45..=52 => self.slide_move(&mut s),
                53..=59 => self.keys(&mut s),
                60..=65 => self.loop_move(&mut s),
                66..=71 => self.create_remove(&mut s),
                72..=75 => {
                    let k = self.kind();
                    let step = self.fwd(&s, 1);
                    vec![Stmt::Shift {
                        who: Who::Kind(k),
                        each: true,
                        step,
                    }]
                }
                _ => {
                    let n = 1 + self.rng.usize(..4);
                    (0..n).map(|_| self.stmt(&mut s, 2)).collect()
                }
            }
        };
        // Mutations: a random statement somewhere, a tail under an `if`.
        if self.chance(0.35) {
            let at = self.rng.usize(..=body.len());
            let mut sc = scope_at(&s, &body[..at]);
            let st = self.stmt(&mut sc, 1);
            body.insert(at, st);
        }
        if self.chance(0.15) && body.len() > 1 {
            let at = self.rng.usize(1..body.len());
            let sc = scope_at(&s, &body[..at]);
            let tail = body.split_off(at);
            let mut bound = vec![];
            let cond = self.cond(&sc, 1, false, &mut bound);
            let els = if self.chance(0.3) {
                let mut sc2 = sc.clone();
                vec![self.stmt(&mut sc2, 0)]
            } else {
                vec![]
            };
            body.push(Stmt::If {
                cond,
                then: tail,
                els,
            });
        }
        if !has_effect(&body) {
            let k = self.kind();
            let step = self.step(&s);
            body.push(Stmt::Shift {
                who: Who::Kind(k),
                each: false,
                step,
            });
        }
        let param = if cell_move {
            Param::Cell
        } else if self.chance(0.18) {
            let n = self.r.dirs.len();
            let mut ds: Vec<usize> = (0..n).filter(|_| self.rng.f64() < 0.5).collect();
            if ds.is_empty() {
                ds.push(self.rng.usize(..n));
            }
            self.rng.shuffle(&mut ds);
            Param::Dirs(Some(ds))
        } else {
            Param::Dirs(None)
        };
        Move {
            name: format!("m{i}"),
            param,
            adds: vec![],
            body,
        }
    }

    fn maybe_guard(&mut self, s: &Scope, k: usize, body: &mut Vec<Stmt>) {
        let x = self.rng.f64();
        let at = CellE {
            base: Base::Who(Who::Kind(k)),
            steps: vec![(false, self.fwd(s, 1))],
        };
        if x < 0.3 {
            body.push(Stmt::Require(Cond::At {
                what: What::Tile(0),
                pose: None,
                cell: at,
                alias: None,
            }));
        } else if x < 0.6 {
            body.push(Stmt::Forbid(Cond::At {
                what: What::Tile(1),
                pose: None,
                cell: at,
                alias: None,
            }));
        }
    }

    fn walk(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let k = self.kind();
        let mut body = vec![];
        self.maybe_guard(s, k, &mut body);
        let step = if self.chance(0.8) {
            self.fwd(s, 1)
        } else {
            self.step(s)
        };
        body.push(Stmt::Shift {
            who: Who::Kind(k),
            each: false,
            step,
        });
        if self.chance(0.3) {
            body.push(self.stmt(s, 1));
        }
        body
    }

    fn push(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let man = self.kind();
        let bx = self.kind();
        let ahead = |g: &mut Gen, s: &Scope, k: usize, t: i64| CellE {
            base: Base::Who(Who::Kind(k)),
            steps: vec![(false, g.fwd(s, t))],
        };
        let mut body = vec![];
        let alias = (self.r.kinds[bx].anonymous && self.chance(0.4)).then(|| self.new_alias());
        body.push(Stmt::Require(Cond::At {
            what: What::Piece(bx),
            pose: None,
            cell: ahead(self, s, man, 1),
            alias: alias.clone(),
        }));
        let pushed = match &alias {
            Some(a) => {
                s.aliases.push((a.clone(), bx));
                Who::Alias(a.clone())
            }
            None => Who::Kind(bx),
        };
        if self.chance(0.7) {
            body.push(Stmt::Forbid(Cond::At {
                what: What::Tile(1),
                pose: None,
                cell: ahead(self, s, man, 2),
                alias: None,
            }));
        }
        if self.chance(0.6) {
            body.push(Stmt::Forbid(Cond::At {
                what: What::Piece(bx),
                pose: None,
                cell: ahead(self, s, man, 2),
                alias: None,
            }));
        }
        let step = self.fwd(s, 1);
        let order = self.chance(0.75);
        let push_box = Stmt::Shift {
            who: pushed,
            each: false,
            step: step.clone(),
        };
        let walk = Stmt::Shift {
            who: Who::Kind(man),
            each: false,
            step,
        };
        if order {
            body.push(push_box);
            body.push(walk);
        } else {
            body.push(walk);
            body.push(push_box);
        }
        if self.chance(0.3) {
            body.push(self.stmt(s, 1));
        }
        body
    }

    fn jump(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let peg = self.kind();
        let over = self.new_alias();
        let at = |g: &mut Gen, s: &Scope, t: i64| CellE {
            base: Base::Who(Who::Kind(peg)),
            steps: vec![(false, g.fwd(s, t))],
        };
        let mut body = vec![Stmt::Require(Cond::At {
            what: What::Piece(peg),
            pose: None,
            cell: at(self, s, 1),
            alias: Some(over.clone()),
        })];
        s.aliases.push((over.clone(), peg));
        if self.chance(0.6) {
            body.push(Stmt::Require(Cond::At {
                what: What::Tile(0),
                pose: None,
                cell: at(self, s, 2),
                alias: None,
            }));
        }
        body.push(Stmt::Forbid(Cond::At {
            what: What::Piece(peg),
            pose: None,
            cell: at(self, s, 2),
            alias: None,
        }));
        if self.removable().contains(&peg) {
            body.push(Stmt::Remove(Who::Alias(over)));
        }
        body.push(Stmt::Shift {
            who: Who::Kind(peg),
            each: false,
            step: self.fwd(s, 2),
        });
        body
    }

    fn roll(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let multi = self.multi_pose();
        if multi.is_empty() {
            return self.walk(s);
        }
        let k = self.pick(&multi);
        let rules = self.turn_rules(k);
        let mut body = vec![Stmt::Turn {
            who: Who::Kind(k),
            rules,
        }];
        if self.chance(0.3) {
            body.push(self.stmt(s, 1));
        }
        body
    }

    fn slide_move(&mut self, s: &mut Scope) -> Vec<Stmt> {
        if self.one_cell.is_empty() {
            return self.walk(s);
        }
        let k = self.pick(&self.one_cell.clone());
        let rules = self.slide_rules();
        let each = self.chance(0.4);
        let mut body = vec![];
        if !each && self.chance(0.3) {
            body.push(Stmt::Forbid(Cond::At {
                what: What::Tile(1),
                pose: None,
                cell: CellE {
                    base: Base::Who(Who::Kind(k)),
                    steps: vec![(false, self.fwd(s, 1))],
                },
                alias: None,
            }));
        }
        body.push(Stmt::Slide {
            who: Who::Kind(k),
            each,
            step: self.fwd(s, 1),
            rules,
        });
        body
    }

    fn press(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let mut body = vec![];
        let here = |steps: Vec<(bool, Step)>| CellE {
            base: Base::Param,
            steps,
        };
        let x = self.rng.f64();
        if x < 0.5 {
            let (a, b) = self.two_tiles();
            body.push(Stmt::Toggle {
                a,
                b,
                place: Where::At(here(vec![])),
            });
            for _ in 0..self.rng.usize(..3) {
                let d = self.rng.usize(..self.r.dirs.len());
                body.push(Stmt::Toggle {
                    a,
                    b,
                    place: Where::At(here(vec![(
                        false,
                        Step {
                            neg: false,
                            times: 1,
                            dir: Some(d),
                        },
                    )])),
                });
            }
        } else if x < 0.75 {
            let k = self.kind();
            body.push(Stmt::Require(Cond::At {
                what: What::Piece(k),
                pose: None,
                cell: here(vec![]),
                alias: None,
            }));
            let st = self.stmt(s, 1);
            body.push(st);
        } else {
            let n = 1 + self.rng.usize(..3);
            for _ in 0..n {
                body.push(self.stmt(s, 1));
            }
        }
        body
    }

    fn keys(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let man = self.kind();
        let ahead = CellE {
            base: Base::Who(Who::Kind(man)),
            steps: vec![(false, self.fwd(s, 1))],
        };
        let door = self.rng.usize(..self.r.tiles.len());
        let mut then = vec![];
        if !self.r.counters.is_empty() {
            then.push(Stmt::Require(Cond::Counter {
                id: 0,
                op: Cmp::Gt,
                value: 0,
            }));
            then.push(Stmt::Count {
                id: 0,
                op: Assign::Sub,
                value: 1,
            });
        }
        let (to, _) = self.two_tiles();
        then.push(Stmt::Change {
            from: door,
            to: if to == door {
                (door + 1) % self.r.tiles.len()
            } else {
                to
            },
            place: Where::At(ahead.clone()),
        });
        let mut body = vec![Stmt::If {
            cond: Cond::At {
                what: What::Tile(door),
                pose: None,
                cell: ahead,
                alias: None,
            },
            then,
            els: vec![],
        }];
        body.push(Stmt::Shift {
            who: Who::Kind(man),
            each: false,
            step: self.fwd(s, 1),
        });
        let removable = self.removable();
        let pick_up: Vec<usize> = removable.into_iter().filter(|&k| k != man).collect();
        if !pick_up.is_empty() && self.chance(0.6) {
            let key = self.pick(&pick_up);
            let mut then = vec![Stmt::Remove(Who::Kind(key))];
            if !self.r.counters.is_empty() {
                then.push(Stmt::Count {
                    id: 0,
                    op: Assign::Add,
                    value: 1,
                });
            }
            body.push(Stmt::If {
                cond: Cond::At {
                    what: What::Piece(key),
                    pose: None,
                    cell: CellE {
                        base: Base::Who(Who::Kind(man)),
                        steps: vec![],
                    },
                    alias: None,
                },
                then,
                els: vec![],
            });
        } else if !self.r.marks.is_empty() && !self.r.counters.is_empty() {
            body.push(Stmt::If {
                cond: Cond::At {
                    what: What::Mark(0),
                    pose: None,
                    cell: CellE {
                        base: Base::Who(Who::Kind(man)),
                        steps: vec![],
                    },
                    alias: None,
                },
                then: vec![Stmt::Count {
                    id: 0,
                    op: Assign::Add,
                    value: 1,
                }],
                els: vec![],
            });
        }
        body
    }

    fn loop_move(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let k = self.kind();
        let mut body = vec![];
        let multi = self.multi_pose();
        if multi.contains(&k) && self.chance(0.5) {
            let rules = self.turn_rules(k);
            body.push(Stmt::Turn {
                who: Who::Kind(k),
                rules,
            });
        } else {
            body.push(Stmt::Shift {
                who: Who::Kind(k),
                each: false,
                step: self.fwd(s, 1),
            });
        }
        self.next_loop += 1;
        let var = format!("c{}", self.next_loop);
        let (a, b) = self.two_tiles();
        let what = if !self.r.marks.is_empty() && self.chance(0.5) {
            What::Mark(self.rng.usize(..self.r.marks.len()))
        } else {
            What::Tile(self.rng.usize(..self.r.tiles.len()))
        };
        let mut then = vec![Stmt::Toggle {
            a,
            b,
            place: if self.chance(0.5) || self.r.marks.is_empty() {
                Where::Everywhere
            } else {
                Where::On(self.rng.usize(..self.r.marks.len()))
            },
        }];
        if !self.r.counters.is_empty() && self.chance(0.4) {
            then.push(Stmt::Count {
                id: self.r.counters.len() - 1,
                op: Assign::Add,
                value: 1,
            });
        }
        let mut inner = s.clone();
        inner.loops.push(var.clone());
        let cond = Cond::At {
            what,
            pose: None,
            cell: CellE {
                base: Base::Loop(var.clone()),
                steps: vec![],
            },
            alias: None,
        };
        let mut for_body = vec![Stmt::If {
            cond,
            then,
            els: vec![],
        }];
        if self.chance(0.25) {
            for_body.push(self.stmt(&mut inner, 0));
        }
        body.push(Stmt::For {
            var,
            who: Who::Kind(k),
            body: for_body,
        });
        body
    }

    fn create_remove(&mut self, s: &mut Scope) -> Vec<Stmt> {
        let man = self.kind();
        let ahead = CellE {
            base: Base::Who(Who::Kind(man)),
            steps: vec![(false, self.fwd(s, 1))],
        };
        let roomy = self.roomy();
        let removable = self.removable();
        let mut body = vec![];
        if !roomy.is_empty() && self.chance(0.5) {
            let k = self.pick(&roomy);
            body.push(Stmt::Require(Cond::At {
                what: What::Tile(0),
                pose: None,
                cell: ahead.clone(),
                alias: None,
            }));
            body.push(Stmt::Forbid(Cond::At {
                what: What::Piece(k),
                pose: None,
                cell: ahead.clone(),
                alias: None,
            }));
            let pose = self.pose_of(k, 0.4);
            body.push(Stmt::Create {
                kind: k,
                pose,
                at: ahead,
            });
        } else if !removable.is_empty() {
            let k = self.pick(&removable);
            let alias = (self.r.kinds[k].anonymous && self.chance(0.5)).then(|| self.new_alias());
            body.push(Stmt::Require(Cond::At {
                what: What::Piece(k),
                pose: None,
                cell: ahead,
                alias: alias.clone(),
            }));
            body.push(Stmt::Remove(match alias {
                Some(a) => {
                    s.aliases.push((a.clone(), k));
                    Who::Alias(a)
                }
                None => Who::Kind(k),
            }));
        } else {
            return self.walk(s);
        }
        if self.chance(0.3) && !self.r.counters.is_empty() {
            body.push(Stmt::Count {
                id: 0,
                op: Assign::Add,
                value: 1,
            });
        }
        body
    }

    // ------------------------------------------------------------ levels

    /// A level plan: a small board, its tiles and marks, and copies where the reference
    /// says the start is legal; `None` when no legal start turns up.
    fn plan(&mut self, rules: &Rules, picture: bool) -> Option<Plan> {
        for _ in 0..6 {
            let rows = 1 + self.rng.usize(..4);
            let cols = 2 + self.rng.usize(..5);
            let n = rows * cols;
            let nt = rules.tiles.len();
            let tiles: Vec<usize> = (0..n)
                .map(|_| {
                    let x = self.rng.f64();
                    if x < 0.6 || nt == 2 && x < 0.8 {
                        0
                    } else if x < 0.78 {
                        1
                    } else {
                        self.rng.usize(..nt)
                    }
                })
                .collect();
            let marks: Vec<Vec<usize>> = (0..n)
                .map(|_| {
                    (0..rules.marks.len())
                        .filter(|_| self.rng.f64() < 0.18)
                        .collect()
                })
                .collect();
            let mut plan = Plan {
                rows,
                cols,
                tiles,
                marks,
                copies: vec![],
                picture: None,
            };
            for k in 0..rules.kinds.len() {
                let kind = &rules.kinds[k];
                let want = if kind.anonymous {
                    let w = [0usize, 1, 1, 1, 2, 2, 2, 3, 3, 4][self.rng.usize(..10)];
                    kind.max.map_or(w, |m| w.min(m as usize))
                } else {
                    // "a named piece, which a level places exactly once"
                    1
                };
                for _ in 0..want {
                    if let Some(c) = self.free_spot(rules, &plan, &plan.copies, k) {
                        plan.copies.push(c);
                    }
                }
            }
            if !named_once(rules, &plan.copies) {
                continue;
            }
            let r = Reference::new(rules, plan.board(), None);
            if !r.legal(&plan.start(rules)) {
                continue;
            }
            if picture || self.chance(0.22) {
                // The picture is read like a level: it must be a legal position too.
                for _ in 0..6 {
                    let pic = self.picture(rules, &plan);
                    let board = Board {
                        tiles: pic.tiles.clone(),
                        ..plan.board()
                    };
                    let shown = Plan {
                        tiles: pic.tiles.clone(),
                        copies: pic.copies.clone(),
                        ..plan.clone()
                    };
                    if named_once(rules, &pic.copies)
                        && Reference::new(rules, board, None).legal(&shown.start(rules))
                    {
                        plan.picture = Some(pic);
                        break;
                    }
                }
                if picture && plan.picture.is_none() {
                    continue;
                }
            }
            return Some(plan);
        }
        None
    }

    /// A spot for a new copy of `k` where it lies on the board and covers no other copy.
    fn free_spot(
        &mut self,
        rules: &Rules,
        plan: &Plan,
        copies: &[Placed],
        k: usize,
    ) -> Option<Placed> {
        let poses = rules.kinds[k].pose_list();
        let taken: Vec<(i64, i64)> = copies
            .iter()
            .flat_map(|c| {
                let (r, col, p) = c.spot;
                rules.kinds[c.kind].pose_list()[p]
                    .cells
                    .iter()
                    .map(move |(dr, dc)| (r + dr, col + dc))
                    .collect::<Vec<_>>()
            })
            .collect();
        for _ in 0..20 {
            let pose = self.rng.usize(..poses.len());
            let r = self.rng.i64(0..plan.rows as i64);
            let c = self.rng.i64(0..plan.cols as i64);
            let cells: Vec<(i64, i64)> = poses[pose]
                .cells
                .iter()
                .map(|(dr, dc)| (r + dr, c + dc))
                .collect();
            let fits = cells.iter().all(|&(rr, cc)| {
                rr >= 0
                    && cc >= 0
                    && (rr as usize) < plan.rows
                    && (cc as usize) < plan.cols
                    && !taken.contains(&(rr, cc))
                    && plan.tiles[rr as usize * plan.cols + cc as usize] != 1
            });
            if fits {
                let first = first_of_shape(&rules.kinds[k], pose).0 == pose;
                let choose = !first || self.chance(0.25);
                return Some(Placed {
                    kind: k,
                    spot: (r, c, pose),
                    choose,
                });
            }
        }
        None
    }

    /// A finished board: the start with some copies moved or gone and some tiles changed.
    fn picture(&mut self, rules: &Rules, plan: &Plan) -> PicPlan {
        let mut copies: Vec<Placed> = vec![];
        for c in &plan.copies {
            let x = self.rng.f64();
            if x < 0.1 && rules.kinds[c.kind].anonymous {
                continue;
            }
            if x < 0.55 {
                if let Some(mut moved) = self.free_spot(rules, plan, &copies, c.kind) {
                    moved.choose = moved.choose || self.chance(0.3);
                    copies.push(moved);
                    continue;
                }
            }
            let mut kept = c.clone();
            if !kept.choose && self.chance(0.2) {
                kept.choose = true;
            }
            // A kept copy may overlap one moved before it: move it too, or drop it.
            copies.push(kept);
        }
        // Drop copies that overlap earlier ones.
        let mut fine: Vec<Placed> = vec![];
        for c in copies {
            let cells = |p: &Placed| -> Vec<(i64, i64)> {
                let (r, col, pose) = p.spot;
                rules.kinds[p.kind].pose_list()[pose]
                    .cells
                    .iter()
                    .map(|(dr, dc)| (r + dr, col + dc))
                    .collect()
            };
            let mine = cells(&c);
            if fine
                .iter()
                .all(|o| cells(o).iter().all(|p| !mine.contains(p)))
            {
                fine.push(c);
            }
        }
        let mut tiles = plan.tiles.clone();
        for t in &mut tiles {
            if self.rng.f64() < 0.12 {
                *t = self.rng.usize(..rules.tiles.len());
            }
        }
        PicPlan {
            tiles,
            copies: fine,
        }
    }
}

/// Whether every named kind has exactly one copy.
fn named_once(rules: &Rules, copies: &[Placed]) -> bool {
    (0..rules.kinds.len())
        .filter(|&k| !rules.kinds[k].anonymous)
        .all(|k| copies.iter().filter(|c| c.kind == k).count() == 1)
}

fn pose(name: &str, cells: &[(i64, i64)]) -> Pose {
    Pose {
        name: name.into(),
        cells: cells.to_vec(),
        attrs: vec![],
    }
}

/// The scope after the top-level statements `done` of a move's body.
fn scope_at(s: &Scope, done: &[Stmt]) -> Scope {
    let mut out = Scope {
        cell_move: s.cell_move,
        ..Scope::default()
    };
    for st in done {
        if let Stmt::Require(c) = st {
            bound_by(c, &mut out.aliases);
        }
    }
    out
}

/// The `as` names a plain condition binds.
fn bound_by(c: &Cond, out: &mut Vec<(String, usize)>) {
    match c {
        Cond::At {
            what: What::Piece(k),
            alias: Some(a),
            ..
        } => out.push((a.clone(), *k)),
        Cond::And(parts) => parts.iter().for_each(|p| bound_by(p, out)),
        _ => {}
    }
}

fn has_effect(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Require(_) | Stmt::Forbid(_) => false,
        Stmt::If { then, els, .. } => has_effect(then) || has_effect(els),
        Stmt::For { body, .. } => has_effect(body),
        _ => true,
    })
}

/// Whether some statement moves a piece (what `chain` needs).
fn moves_a_piece(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Shift { .. } | Stmt::Swap { .. } | Stmt::Turn { .. } | Stmt::Slide { .. } => true,
        Stmt::If { then, els, .. } => moves_a_piece(then) || moves_a_piece(els),
        Stmt::For { body, .. } => moves_a_piece(body),
        _ => false,
    })
}

/// Whether an unconditional statement advances along the direction (what `straight`
/// needs): a shift, swap or slide by a positive multiple of `d`.
fn advances(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Shift { step, .. } | Stmt::Swap { step, .. } | Stmt::Slide { step, .. } => {
            step.dir.is_none() && !step.neg && step.times > 0
        }
        _ => false,
    })
}

/// Named kinds a goal mentions anywhere.
fn named_in(c: &Cond, r: &Rules) -> Vec<usize> {
    let mut out = vec![];
    fn walk(c: &Cond, out: &mut Vec<usize>) {
        match c {
            Cond::At { what, cell, .. } => {
                if let What::Piece(k) = what {
                    out.push(*k);
                }
                if let Base::Who(Who::Kind(k)) = cell.base {
                    out.push(k);
                }
            }
            Cond::On {
                who: Who::Kind(k), ..
            } => out.push(*k),
            Cond::Count {
                what: CountWhat::Piece(k),
                ..
            } => out.push(*k),
            Cond::Attr { who, value, .. } => {
                if let Who::Kind(k) = who {
                    out.push(*k);
                }
                if let AttrVal::Of(Who::Kind(k), _) = value {
                    out.push(*k);
                }
            }
            Cond::Not(i) => walk(i, out),
            Cond::And(p) | Cond::Or(p) => p.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(c, &mut out);
    out.retain(|&k| !r.kinds[k].anonymous);
    out.sort();
    out.dedup();
    out
}

/// The constructs a case uses, by name (the slice test checks that together the cases use
/// every one).
pub fn coverage(c: &Case) -> std::collections::BTreeSet<&'static str> {
    use std::collections::BTreeSet;
    let r = &c.rules;
    let mut out: BTreeSet<&'static str> = BTreeSet::new();
    fn step(s: &Step, out: &mut BTreeSet<&'static str>) {
        if s.neg {
            out.insert("step -d");
        }
        if s.times > 1 {
            out.insert("step 2d");
        }
        if s.dir.is_some() {
            out.insert("step named");
        }
    }
    fn cell(c: &CellE, out: &mut BTreeSet<&'static str>) {
        out.insert(match c.base {
            Base::Who(Who::Kind(_)) => "cell at kind",
            Base::Who(Who::Alias(_)) => "cell at as-name",
            Base::Param => "cell at move's cell",
            Base::Loop(_) => "cell at loop cell",
            Base::Abs(..) => "cell absolute",
        });
        if c.steps.len() > 1 {
            out.insert("cell with several steps");
        }
        for (minus, s) in &c.steps {
            if *minus {
                out.insert("cell - step");
            }
            step(s, out);
        }
    }
    fn cond(c: &Cond, out: &mut BTreeSet<&'static str>) {
        match c {
            Cond::At {
                what,
                pose,
                cell: at,
                alias,
            } => {
                cell(at, out);
                out.insert(match what {
                    What::Piece(_) => "at piece",
                    What::Alias(_) => "at as-name",
                    What::Tile(_) => "at tile",
                    What::Mark(_) => "at mark",
                });
                if pose.is_some() {
                    out.insert("at piece.pose");
                }
                if alias.is_some() {
                    out.insert("as");
                }
            }
            Cond::On { pose, who, .. } => {
                out.insert(if pose.is_some() { "on pose" } else { "on" });
                if let Who::Alias(_) = who {
                    out.insert("on as-name");
                }
            }
            Cond::Count { what, .. } => {
                out.insert(match what {
                    CountWhat::Piece(_) => "count piece",
                    CountWhat::Tile(_) => "count tile",
                    CountWhat::Mark(_) => "count mark",
                });
            }
            Cond::Counter { .. } => {
                out.insert("counter test");
            }
            Cond::Attr { value, .. } => {
                out.insert(match value {
                    AttrVal::Num(_) => "attribute vs number",
                    AttrVal::Of(..) => "attribute vs attribute",
                });
            }
            Cond::Not(i) => {
                out.insert("not");
                cond(i, out);
            }
            Cond::And(p) => {
                out.insert("and");
                p.iter().for_each(|x| cond(x, out));
            }
            Cond::Or(p) => {
                out.insert("or");
                p.iter().for_each(|x| cond(x, out));
            }
        }
    }
    fn place(w: &Where, out: &mut BTreeSet<&'static str>) {
        match w {
            Where::At(c) => {
                out.insert("tiles at cell");
                cell(c, out);
            }
            Where::Everywhere => {
                out.insert("tiles everywhere");
            }
            Where::On(_) => {
                out.insert("tiles on mark");
            }
        }
    }
    fn stmts(b: &[Stmt], out: &mut BTreeSet<&'static str>) {
        for s in b {
            match s {
                Stmt::Require(c) => {
                    out.insert("require");
                    cond(c, out);
                }
                Stmt::Forbid(c) => {
                    out.insert("forbid stmt");
                    cond(c, out);
                }
                Stmt::Shift {
                    each,
                    step: st,
                    who,
                } => {
                    out.insert(if *each { "shift each" } else { "shift" });
                    if let Who::Alias(_) = who {
                        out.insert("act on as-name");
                    }
                    step(st, out);
                }
                Stmt::Swap { step: st, .. } => {
                    out.insert("swap");
                    step(st, out);
                }
                Stmt::Turn { .. } => {
                    out.insert("turn");
                }
                Stmt::Slide {
                    each,
                    step: st,
                    rules,
                    ..
                } => {
                    out.insert(if *each { "slide each" } else { "slide" });
                    step(st, out);
                    for r in rules {
                        out.insert(match r.event {
                            Event::Into(Place::Tile(_)) => "into tile",
                            Event::Into(Place::Mark(_)) => "into mark",
                            Event::BeforeTile(_) => "before tile",
                            Event::BeforePiece(_) => "before piece",
                            Event::OffBoard => "off board",
                        });
                        if r.brk {
                            out.insert("break");
                        }
                        if r.lose {
                            out.insert("lose");
                        }
                    }
                }
                Stmt::Remove(w) => {
                    out.insert(match w {
                        Who::Kind(_) => "remove kind",
                        Who::Alias(_) => "remove as-name",
                    });
                }
                Stmt::Create { pose, at, .. } => {
                    out.insert(if pose.is_some() {
                        "create pose"
                    } else {
                        "create"
                    });
                    cell(at, out);
                }
                Stmt::Change { place: w, .. } => {
                    out.insert("change");
                    place(w, out);
                }
                Stmt::Toggle { place: w, .. } => {
                    out.insert("toggle");
                    place(w, out);
                }
                Stmt::Count { op, .. } => {
                    out.insert(match op {
                        Assign::Add => "counter +=",
                        Assign::Sub => "counter -=",
                        Assign::Set => "counter =",
                    });
                }
                Stmt::If { cond: c, then, els } => {
                    out.insert(if els.is_empty() { "if" } else { "if else" });
                    cond(c, out);
                    stmts(then, out);
                    stmts(els, out);
                }
                Stmt::For { body, .. } => {
                    out.insert("for");
                    stmts(body, out);
                }
            }
        }
    }
    for m in &r.moves {
        out.insert(match &m.param {
            Param::Dirs(None) => "move(d)",
            Param::Dirs(Some(_)) => "move(d in ..)",
            Param::Cell => "move(cell c)",
        });
        stmts(&m.body, &mut out);
    }
    if r.outside.is_some() {
        out.insert("outside");
    }
    if !r.counters.is_empty() {
        out.insert("counters");
    }
    if r.counters.iter().any(|c| c.start != 0) {
        out.insert("counter start");
    }
    match r.costs.len() {
        0 => {}
        1 => {
            out.insert("cost");
        }
        _ => {
            out.insert("cost vector");
        }
    }
    for m in &r.metrics {
        if !m.straight.is_empty() {
            out.insert("metric straight");
        }
        if !m.chain.is_empty() {
            out.insert("metric chain");
        }
    }
    for f in &r.forbids {
        out.insert(match (f.pose, f.place) {
            (Some(_), _) => "forbid pose",
            (None, Place::Mark(_)) => "forbid on mark",
            (None, Place::Tile(_)) => "forbid on tile",
        });
    }
    for k in &r.kinds {
        if k.anonymous {
            out.insert("anonymous kind");
        }
        if k.max.is_some() {
            out.insert("max");
        }
        if !k.attrs.is_empty() || k.pose_list().iter().any(|p| !p.attrs.is_empty()) {
            out.insert("attributes");
        }
    }
    match &r.goal {
        Some(g) => {
            out.insert("goal");
            cond(g, &mut out);
        }
        None => {
            out.insert("pictures only");
        }
    }
    for p in &c.plans {
        for (k, kind) in r.kinds.iter().enumerate() {
            let n = p.copies.iter().filter(|x| x.kind == k).count();
            if kind.anonymous {
                out.insert(match n {
                    0 => "anonymous: no copy",
                    1 => "anonymous: one copy",
                    _ => "anonymous: several copies",
                });
            }
        }
        if p.copies.iter().any(|x| x.choose) {
            out.insert("legend pose");
        }
        if let Some(pic) = &p.picture {
            out.insert("goal picture");
            if pic.copies.iter().any(|x| x.choose) {
                out.insert("picture pose");
            }
        }
    }
    out
}

/// Every name [`coverage`] can give (with the constructs this branch has).
pub fn all_constructs() -> Vec<&'static str> {
    let mut v = vec![
        "step -d",
        "step 2d",
        "step named",
        "cell at kind",
        "cell at as-name",
        "cell at move's cell",
        "cell at loop cell",
        "cell absolute",
        "cell with several steps",
        "cell - step",
        "at piece",
        "at as-name",
        "at tile",
        "at mark",
        "as",
        "on",
        "on pose",
        "on as-name",
        "count piece",
        "count tile",
        "count mark",
        "counter test",
        "not",
        "and",
        "or",
        "tiles at cell",
        "tiles everywhere",
        "tiles on mark",
        "require",
        "forbid stmt",
        "shift",
        "shift each",
        "act on as-name",
        "swap",
        "turn",
        "slide",
        "slide each",
        "into tile",
        "into mark",
        "before tile",
        "before piece",
        "off board",
        "break",
        "lose",
        "remove kind",
        "remove as-name",
        "create",
        "create pose",
        "change",
        "toggle",
        "counter +=",
        "counter -=",
        "counter =",
        "if",
        "if else",
        "for",
        "move(d)",
        "move(d in ..)",
        "move(cell c)",
        "outside",
        "counters",
        "counter start",
        "cost",
        "cost vector",
        "metric straight",
        "metric chain",
        "forbid pose",
        "forbid on mark",
        "forbid on tile",
        "anonymous kind",
        "max",
        "goal",
        "pictures only",
        "anonymous: no copy",
        "anonymous: one copy",
        "anonymous: several copies",
        "legend pose",
        "goal picture",
        "picture pose",
    ];
    if POSE_AT {
        v.push("at piece.pose");
    }
    if ATTRS {
        v.extend([
            "attribute vs number",
            "attribute vs attribute",
            "attributes",
        ]);
    }
    v
}
