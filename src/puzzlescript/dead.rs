//! Where an object can still go, from the rules: the moves a PuzzleScript level allows
//! an object that only rules move, and the positions from which a win condition can no
//! longer hold (dead positions), found without searching.
//!
//! An object is *static* when no rule creates, destroys or moves it: it stays where the
//! level put it, and no other object of its collision layer can ever share its cell. A
//! *mover* that is not a player object changes cell only in movement resolution, in the
//! direction some rule gave its layer in that cell during the same turn (there is no
//! other source of movement: inputs move the player's objects, `randomdir` is refused
//! here). A rule gives direction `d` to a cell `c` only when it matched there: the cells
//! of its row around `c` (up to the nearest ellipsis) satisfied its patterns at that
//! moment. A pattern that needs a static object where there is none, a static object
//! absent where one is, or any other object (or movement) on a layer a static object
//! fills, is never satisfied there. So a mover at `c` can move in direction `d` only when
//! some rule giving `d` to its layer has every such cell satisfiable, and the cell it
//! enters holds no static object of its layer ([`Reach::allowed`]). This is an
//! over-approximation of the moves the game allows: every position a mover can reach is
//! reachable in the graph of allowed moves, so a mover that cannot reach a goal cell in
//! that graph never will. For a crate moved only by `[ > Player | Crate ] -> [ > Player
//! | > Crate ]`, the allowed moves are the pushes with room for the player behind: a
//! crate in a corner cannot move at all.
//!
//! [`Dead`] turns that into a test on whole positions, for the win conditions `all X on
//! Y` and `some X on Y` where one side is static and the other never created or
//! destroyed: a position is dead when the movers cannot each (`all`: a matching, as two
//! movers of one layer never share a cell) reach a goal cell. A dead position can never
//! lead to a win, so searches drop it: no shortest solution passes through one, and the
//! tie rule between equal solutions is unchanged. Nothing is dropped when a rule queues
//! `win` (it wins whatever the conditions say).

use super::ir::*;

/// Whether some rule of `c` queues `win` (which wins whatever the conditions say).
pub(crate) fn queues_win(c: &Compiled) -> bool {
    c.groups.iter().chain(&c.late_groups).any(|g| {
        g.rules
            .iter()
            .any(|r| r.commands.iter().any(|cmd| matches!(cmd, Cmd::Win)))
    })
}

/// Direction bits of [`Reach::allowed`], in this order.
const DIRS: [u64; 4] = [UP, DOWN, LEFT, RIGHT];

/// Cell-pattern tests [`Reach::allowed`] may make for one layer; beyond, it allows every
/// move (still an over-approximation) rather than hold up a huge game's first search.
const WORK: usize = 20_000_000;

/// Matchings [`Dead`] tries only for at most this many movers (else the cheaper tests).
const MATCH_MOVERS: usize = 64;

/// The set bits of `mask`.
pub(crate) fn bits(mask: &[u64]) -> impl Iterator<Item = usize> + '_ {
    mask.iter().enumerate().flat_map(|(w, &m)| {
        let mut b = m;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + i
            })
        })
    })
}

/// A layer and the objects of it whose moves [`Reach::allowed`] found.
type AllowedKey = (usize, Vec<usize>);

/// The rules' facts about one level: which objects are static and where.
pub(crate) struct Reach<'c> {
    c: &'c Compiled,
    pub(crate) start: &'c [u64],
    width: usize,
    height: usize,
    /// Per object: no rule creates, destroys or moves it.
    pub(crate) statics: Vec<bool>,
    /// Per object: some rule creates or destroys it.
    pub(crate) changed: Vec<bool>,
    /// Per object: it can be given movement.
    pub(crate) moves: Vec<bool>,
    /// Per cell and layer (`i * layers + l`): a static object fills it.
    static_on: Vec<bool>,
    /// [`Reach::allowed`]'s answers so far, by layer and objects.
    memo: std::cell::RefCell<Vec<(AllowedKey, std::rc::Rc<Vec<u8>>)>>,
}

impl<'c> Reach<'c> {
    /// The facts for `start` (a level of `c`, `width` cells per row).
    pub(crate) fn new(c: &'c Compiled, start: &'c [u64], width: usize) -> Reach<'c> {
        let changed = super::search::created_or_destroyed(c);
        let moves = super::search::movers(c);
        let statics: Vec<bool> = (0..c.objects.len())
            .map(|id| !changed[id] && !moves[id])
            .collect();
        let cells = start.len() / c.so.max(1);
        let mut static_on = vec![false; cells * c.layers];
        for i in 0..cells {
            for (id, o) in c.objects.iter().enumerate() {
                if statics[id] && has_bit(&start[i * c.so..(i + 1) * c.so], id) {
                    static_on[i * c.layers + o.layer] = true;
                }
            }
        }
        Reach {
            c,
            start,
            width,
            height: cells / width.max(1),
            statics,
            changed,
            moves,
            static_on,
            memo: Default::default(),
        }
    }

    /// Cells in the level.
    pub(crate) fn cells(&self) -> usize {
        self.width * self.height
    }

    fn cell(&self, i: usize) -> &[u64] {
        &self.start[i * self.c.so..(i + 1) * self.c.so]
    }

    /// Whether object `id` can ever be in cell `i`, as far as static objects tell.
    fn admits(&self, i: usize, id: usize) -> bool {
        if self.statics[id] {
            has_bit(self.cell(i), id)
        } else {
            !self.static_on[i * self.c.layers + self.c.objects[id].layer]
        }
    }

    /// Whether pattern `p` can ever match cell `i`, as far as static objects tell.
    fn satisfiable(&self, i: usize, p: &CellPattern) -> bool {
        if bits(&p.present).any(|id| !self.admits(i, id)) {
            return false;
        }
        if bits(&p.missing).any(|id| self.statics[id] && has_bit(self.cell(i), id)) {
            return false;
        }
        if !p.any.iter().all(|a| bits(a).any(|id| self.admits(i, id))) {
            return false;
        }
        (0..self.c.layers)
            .all(|l| get_layer(&p.moving, l) == 0 || !self.static_on[i * self.c.layers + l])
    }

    /// The cell one step from `i` in direction `dir`, if inside the level.
    fn step(&self, i: usize, dir: u64, steps: i64) -> Option<usize> {
        let (dx, dy) = delta(dir);
        let x = (i / self.height) as i64 + dx * steps;
        let y = (i % self.height) as i64 + dy * steps;
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| x as usize * self.height + y as usize)
    }

    /// Per cell, the directions (bit `k` for `DIRS[k]`) in which one of the objects
    /// `xs` (all on collision layer `layer`) there may ever move (see the module
    /// documentation).
    pub(crate) fn allowed(&self, layer: usize, xs: &[usize]) -> std::rc::Rc<Vec<u8>> {
        let key = (layer, xs.to_vec());
        if let Some((_, v)) = self.memo.borrow().iter().find(|(k, _)| *k == key) {
            return v.clone();
        }
        let v = std::rc::Rc::new(self.find_allowed(layer, xs));
        self.memo.borrow_mut().push((key, v.clone()));
        v
    }

    fn find_allowed(&self, layer: usize, xs: &[usize]) -> Vec<u8> {
        let c = self.c;
        let cells = self.cells();
        let mut out = vec![0u8; cells];
        if !xs.iter().any(|&x| self.moves[x]) {
            return out;
        }
        let free = xs.iter().any(|x| c.player_ids.contains(x))
            || c.groups.iter().chain(&c.late_groups).any(|g| {
                g.rules.iter().any(|r| {
                    r.rows.iter().flatten().any(|item| {
                        matches!(item, Item::Cell(p)
                            if p.replace.as_ref().is_some_and(|x| get_layer(&x.random_dir, layer) != 0))
                    })
                })
            });
        let mut work = 0usize;
        if free {
            out.fill(0b1111);
        }
        let rules = c.groups.iter().chain(&c.late_groups).flat_map(|g| &g.rules);
        'rules: for r in rules.filter(|_| !free) {
            for row in &r.rows {
                for (k, item) in row.iter().enumerate() {
                    let Item::Cell(p) = item else { continue };
                    let Some(x) = &p.replace else { continue };
                    let d = get_layer(&x.mov_set, layer);
                    let Some(bit) = DIRS.iter().position(|&b| b == d) else {
                        continue;
                    };
                    if !xs.iter().any(|&x| self.pattern_may_hold(p, layer, x)) {
                        continue;
                    }
                    work += cells * row.len();
                    if work > WORK {
                        out.fill(0b1111);
                        break 'rules;
                    }
                    self.allow_where_it_fits(r.dir, row, k, 1 << bit, &mut out);
                }
            }
        }
        // The cell entered must be inside the level and free of static objects of the
        // layer.
        for (i, o) in out.iter_mut().enumerate() {
            for (bit, &d) in DIRS.iter().enumerate() {
                let open = self
                    .step(i, d, 1)
                    .is_some_and(|j| !self.static_on[j * c.layers + layer]);
                if !open {
                    *o &= !(1 << bit);
                }
            }
        }
        out
    }

    /// Adds direction `bit` to every cell of `out` where row `row` of a rule scanning in
    /// direction `dir` can match with its cell `k` there: the row's cells around `k`, up
    /// to the nearest ellipses, can each hold what the rule asks.
    fn allow_where_it_fits(&self, dir: u64, row: &[Item], k: usize, bit: u8, out: &mut [u8]) {
        let lo = row[..k]
            .iter()
            .rposition(|it| matches!(it, Item::Ellipsis))
            .map_or(0, |e| e + 1);
        let hi = row[k..]
            .iter()
            .position(|it| matches!(it, Item::Ellipsis))
            .map_or(row.len(), |e| k + e);
        for (i, o) in out.iter_mut().enumerate() {
            if *o & bit != 0 {
                continue;
            }
            let fits = (lo..hi).all(|j| {
                let Item::Cell(q) = &row[j] else { return true };
                self.step(i, dir, j as i64 - k as i64)
                    .is_some_and(|at| self.satisfiable(at, q))
            });
            if fits {
                *o |= bit;
            }
        }
    }

    /// Whether object `x` of layer `layer` may be the one pattern `p` matches on that
    /// layer.
    fn pattern_may_hold(&self, p: &CellPattern, layer: usize, x: usize) -> bool {
        if has_bit(&p.missing, x) {
            return false;
        }
        let on_layer = |id: usize| self.c.objects[id].layer == layer;
        if bits(&p.present).any(|id| id != x && on_layer(id)) {
            return false;
        }
        p.any
            .iter()
            .all(|a| has_bit(a, x) || !bits(a).all(on_layer))
    }

    /// Per cell, the fewest allowed moves to one of the cells `to` (`u32::MAX`: none).
    pub(crate) fn distances_to(&self, allowed: &[u8], to: &[usize]) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.cells()];
        let mut queue = std::collections::VecDeque::new();
        for &t in to {
            if d[t] == u32::MAX {
                d[t] = 0;
                queue.push_back(t);
            }
        }
        while let Some(j) = queue.pop_front() {
            // Every cell one allowed move before `j`.
            for (bit, &dir) in DIRS.iter().enumerate() {
                let Some(i) = self.step(j, dir, -1) else {
                    continue;
                };
                if allowed[i] & (1 << bit) != 0 && d[i] == u32::MAX {
                    d[i] = d[j] + 1;
                    queue.push_back(i);
                }
            }
        }
        d
    }
}

/// One win condition's dead-position test.
#[derive(Clone, Debug)]
struct DeadCond {
    /// `all` (every mover, or every goal cell, must be matched) or `some`.
    all: bool,
    /// The movers' objects, as a mask, and their ids.
    mask: Vec<u64>,
    ids: Vec<usize>,
    /// Per mover object: which reach table it uses.
    table_of: Vec<usize>,
    /// Per table, per cell, the goal cells reachable from it (bitset of `words` words).
    tables: Vec<Vec<u64>>,
    words: usize,
    goals: usize,
    /// `true`: every mover needs a goal cell of its own (`all X on Y`, the Xs moving);
    /// `false`: every goal cell needs a mover of its own (`all X on Y`, the Ys moving).
    movers_need: bool,
    /// Whether two movers can never share a cell (all on one layer), so that a matching
    /// is needed, not just a goal cell each.
    distinct: bool,
}

/// Dead positions of a level: see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Dead {
    conds: Vec<DeadCond>,
    /// What it tests, in words.
    pub(crate) description: String,
    so: usize,
    /// Scratch: the reach sets of the movers found, a matching.
    found: Vec<(usize, usize)>,
    owner: Vec<usize>,
    /// Scratch bitsets over goal cells: those no mover holds yet, those an augmenting
    /// search has visited.
    free: Vec<u64>,
    seen: Vec<u64>,
    /// Per condition: the occupancy version at its last test on a live level, and its
    /// answer (see [`Dead::is_dead_live`]).
    memo: Vec<(u64, bool)>,
}

impl Dead {
    /// The test for levels like `start` of `c`, or `None` when no win condition allows
    /// one (or a rule queues `win`).
    pub(crate) fn derive(c: &Compiled, reach: &Reach<'_>) -> Option<Dead> {
        if queues_win(c) || c.wins.is_empty() {
            return None;
        }
        let n = c.objects.len();
        let so = c.so;
        let start = reach.start;
        let cells = reach.cells();
        let mut conds = vec![];
        let mut said = vec![];
        let names = |ids: &[usize]| {
            ids.iter()
                .map(|&id| c.objects[id].name.as_str())
                .collect::<Vec<_>>()
                .join("/")
        };
        for w in &c.wins {
            if w.quantifier < 0 || w.what.1 || w.on.1 {
                continue;
            }
            let xs: Vec<usize> = (0..n).filter(|&id| has_bit(&w.what.0, id)).collect();
            let ys: Vec<usize> = (0..n).filter(|&id| has_bit(&w.on.0, id)).collect();
            if ys.len() == n || xs.is_empty() || ys.is_empty() {
                continue;
            }
            let fixed = |s: &[usize]| s.iter().all(|&id| reach.statics[id]);
            let kept = |s: &[usize]| s.iter().all(|&id| !reach.changed[id]);
            // The static side gives the goal cells; the other side moves to them.
            let (movers, goal_ids, goal_mask, movers_need) = if fixed(&ys) && kept(&xs) {
                (xs, ys, &w.on.0, true)
            } else if fixed(&xs) && kept(&ys) {
                (ys, xs, &w.what.0, false)
            } else {
                continue;
            };
            let goals: Vec<usize> = (0..cells)
                .filter(|&i| any_common(goal_mask, &start[i * so..(i + 1) * so]))
                .collect();
            if goals.len().saturating_mul(cells) > WORK {
                continue;
            }
            let words = goals.len().div_ceil(64).max(1);
            let mut tables = vec![];
            let mut table_of = vec![usize::MAX; n];
            let layers: Vec<usize> = {
                let mut v: Vec<usize> = movers.iter().map(|&id| c.objects[id].layer).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            for &l in &layers {
                let on: Vec<usize> = movers
                    .iter()
                    .copied()
                    .filter(|&id| c.objects[id].layer == l)
                    .collect();
                let allowed = reach.allowed(l, &on);
                let mut table = vec![0u64; cells * words];
                for (g, &t) in goals.iter().enumerate() {
                    for (i, d) in reach.distances_to(&allowed, &[t]).into_iter().enumerate() {
                        if d != u32::MAX {
                            table[i * words + g / 64] |= 1 << (g % 64);
                        }
                    }
                }
                for id in on {
                    table_of[id] = tables.len();
                }
                tables.push(table);
            }
            let own = if layers.len() == 1 {
                ", each its own"
            } else {
                ""
            };
            said.push(match (w.quantifier > 0, movers_need) {
                (true, true) => format!(
                    "every {} can reach {}{own}",
                    names(&movers),
                    article(&names(&goal_ids))
                ),
                (true, false) => format!(
                    "every {} can be reached by {}{own}",
                    names(&goal_ids),
                    article(&names(&movers))
                ),
                _ => format!(
                    "some {} can reach {}",
                    names(&movers),
                    article(&names(&goal_ids))
                ),
            });
            let mut mask = vec![0u64; so];
            for &id in &movers {
                set_bit(&mut mask, id);
            }
            conds.push(DeadCond {
                all: w.quantifier > 0,
                mask,
                ids: movers,
                table_of,
                tables,
                words,
                goals: goals.len(),
                movers_need,
                distinct: layers.len() == 1,
            });
        }
        (!conds.is_empty()).then(|| Dead {
            conds,
            description: format!("positions where not {}", said.join("; nor where not ")),
            so,
            found: vec![],
            owner: vec![],
            free: vec![],
            seen: vec![],
            memo: vec![],
        })
    }

    /// [`Dead::is_dead`] of a machine's live level, `objects`, whose occupancy is at
    /// `version` with per-object `stamps` (the version at which each object's cells
    /// last changed). A condition's answer depends only on where its movers are (the
    /// reach tables come from what never changes), so it is kept while none of its
    /// movers' cells changed since it was last computed: successors that only move the
    /// player skip the scan and the matching.
    pub(crate) fn is_dead_live(&mut self, objects: &[u64], stamps: &[u64], version: u64) -> bool {
        if self.memo.len() != self.conds.len() {
            self.memo = vec![(0, false); self.conds.len()];
        }
        for k in 0..self.conds.len() {
            let (at, dead) = self.memo[k];
            let known = at != 0
                && (self.conds[k].ids.iter()).all(|&o| stamps.get(o).is_some_and(|&s| s <= at));
            let dead = if known {
                dead
            } else {
                let d = self.cond_dead(k, objects);
                self.memo[k] = (version, d);
                d
            };
            if dead {
                return true;
            }
        }
        false
    }

    /// Whether the level `objects` (cells of `so` words) can never be won.
    pub(crate) fn is_dead(&mut self, objects: &[u64]) -> bool {
        for k in 0..self.conds.len() {
            if self.cond_dead(k, objects) {
                return true;
            }
        }
        false
    }

    fn cond_dead(&mut self, k: usize, objects: &[u64]) -> bool {
        let so = self.so;
        let cond = &self.conds[k];
        self.found.clear();
        for (i, cell) in objects.chunks_exact(so).enumerate() {
            if !any_common(cell, &cond.mask) {
                continue;
            }
            for &id in &cond.ids {
                if has_bit(cell, id) {
                    self.found.push((cond.table_of[id], i));
                }
            }
        }
        self.found_dead(k)
    }

    /// Whether the movers in `self.found` (reach table, cell) fail condition `k`.
    fn found_dead(&mut self, k: usize) -> bool {
        let cond = &self.conds[k];
        let w = cond.words;
        let set = |&(t, i): &(usize, usize)| &cond.tables[t][i * w..(i + 1) * w];
        if !cond.all {
            return !self.found.iter().any(|f| set(f).iter().any(|&b| b != 0));
        }
        if cond.movers_need {
            if self.found.iter().any(|f| set(f).iter().all(|&b| b == 0)) {
                return true;
            }
        } else {
            // Every goal cell some mover can reach: the union of their sets.
            let union = &mut self.seen;
            union.clear();
            union.resize(w, 0);
            for f in &self.found {
                for (u, &b) in union.iter_mut().zip(set(f)) {
                    *u |= b;
                }
            }
            if (0..cond.goals).any(|g| union[g / 64] >> (g % 64) & 1 == 0) {
                return true;
            }
        }
        if !cond.distinct || self.found.len() > MATCH_MOVERS {
            return false;
        }
        // A matching of movers to goal cells, each reachable from its mover's cell
        // (Kuhn's augmenting paths over bitsets, a free goal cell taken first).
        let need = if cond.movers_need {
            self.found.len()
        } else {
            cond.goals
        };
        if self.found.len() < need {
            return true;
        }
        self.owner.clear();
        self.owner.resize(cond.goals, usize::MAX);
        self.free.clear();
        self.free.resize(w, u64::MAX);
        if !cond.goals.is_multiple_of(64) {
            self.free[w - 1] = (1 << (cond.goals % 64)) - 1;
        }
        let mut matched = 0;
        for u in 0..self.found.len() {
            self.seen.clear();
            self.seen.resize(w, 0);
            let mut m = Matching {
                cond,
                found: &self.found,
                owner: &mut self.owner,
                free: &mut self.free,
                seen: &mut self.seen,
            };
            if m.augment(u) {
                matched += 1;
                if matched == need {
                    return false;
                }
            } else if cond.movers_need {
                // A mover left unmatched now stays so (Kuhn): it has no goal cell.
                return true;
            }
            // The movers left cannot make up the goal cells still unmatched.
            if matched + (self.found.len() - u - 1) < need {
                return true;
            }
        }
        matched < need
    }
}

/// The state of one matching in [`Dead::cond_dead`].
struct Matching<'a> {
    cond: &'a DeadCond,
    found: &'a [(usize, usize)],
    owner: &'a mut [usize],
    free: &'a mut [u64],
    seen: &'a mut [u64],
}

impl Matching<'_> {
    /// Kuhn's augmenting path from mover `u` (index into `found`): a free goal cell it
    /// reaches if there is one, else one whose owner can move to another.
    fn augment(&mut self, u: usize) -> bool {
        let (t, i) = self.found[u];
        let w = self.cond.words;
        let set = &self.cond.tables[t][i * w..(i + 1) * w];
        for (word, &bits) in set.iter().enumerate() {
            let open = bits & self.free[word];
            if open != 0 {
                let g = word * 64 + open.trailing_zeros() as usize;
                self.free[word] &= !(1 << (g % 64));
                self.seen[word] |= 1 << (g % 64);
                self.owner[g] = u;
                return true;
            }
        }
        for (word, &bits) in set.iter().enumerate() {
            loop {
                // Re-read: deeper searches mark cells seen in every word.
                let b = bits & !self.seen[word];
                if b == 0 {
                    break;
                }
                let g = word * 64 + b.trailing_zeros() as usize;
                self.seen[word] |= 1 << (g % 64);
                if self.augment(self.owner[g]) {
                    self.owner[g] = u;
                    return true;
                }
            }
        }
        false
    }
}

/// Cells a level may have for [`Cutoff`]: its flood fill grows by a step per pass over
/// the level's bitsets, up to as many passes as cells, for every successor; a bigger
/// (hostile) level goes without the test rather than spend that between budget checks.
const CUTOFF_CELLS: usize = 4096;

/// A `no X` condition's X objects and removal offsets, for [`Cutoff`].
type CutoffCond = (Vec<usize>, Vec<(i64, i64)>);

/// Positions where the player can no longer get to where some X of a `no X` win
/// condition must be removed: see [`Cutoff::derive`].
#[derive(Clone, Debug)]
pub(crate) struct Cutoff {
    width: usize,
    height: usize,
    /// Per `no X` condition: its X objects, and the offsets `(dx, dy)` from a player's
    /// cell at which a turn may remove one (any input direction).
    conds: Vec<CutoffCond>,
    /// Objects the player never shares a cell with at the end of a turn, and which no
    /// rule moves or destroys.
    blockers: Vec<usize>,
    players: Vec<usize>,
    /// Bitsets over cells: every cell; cells not in the last row (`y < height - 1`);
    /// cells not in the first row.
    valid: Vec<u64>,
    not_last: Vec<u64>,
    not_first: Vec<u64>,
    /// Scratch bitsets.
    free: Vec<u64>,
    reached: Vec<u64>,
    next: Vec<u64>,
    shifted: Vec<u64>,
    /// What it tests, in words.
    pub(crate) description: String,
}

impl Cutoff {
    /// The test for levels like `reach`'s of `c`, where the rules prove it:
    /// - no rule queues `again`, `win` or anything random, and a `no X` win condition
    ///   has its Xs removed only at fixed offsets from a moving player's cell (the
    ///   argument of the A* bound's count, `search::removal_offsets`);
    /// - no rule writes a player object in a cell that does not already hold one, so a
    ///   player's cells change only by moving one cell a turn;
    /// - some objects are *blockers*: no rule moves or destroys one, and no turn ends
    ///   with a player object in the same cell, because it is on the player's layer (a
    ///   player cannot move into it, and no rule writes a player there) or because a late
    ///   rule of one cell, `[ Player B ] -> cancel`, matches every cell holding a player
    ///   object and it.
    ///
    /// Blockers only accumulate, so every cell a player will ever stand on is free of
    /// blockers now and joined to a player's cell through such cells. A position where
    /// some X lies at none of the removal offsets from such a cell can never be won.
    pub(crate) fn derive(c: &Compiled, reach: &Reach<'_>) -> Option<Cutoff> {
        if queues_win(c) || c.random {
            return None;
        }
        let rules = || c.groups.iter().chain(&c.late_groups).flat_map(|g| &g.rules);
        if rules().any(|r| r.random || r.commands.iter().any(|m| matches!(m, Cmd::Again))) {
            return None;
        }
        let players = c.player_ids.clone();
        let pl = c.objects[*players.first()?].layer;
        let n = c.objects.len();
        let is_player = |id: usize| players.contains(&id);
        let needs_player = |p: &CellPattern| {
            players.iter().any(|&id| has_bit(&p.present, id))
                || p.any.iter().any(|a| {
                    let ids: Vec<usize> = (0..n).filter(|&id| has_bit(a, id)).collect();
                    !ids.is_empty() && ids.iter().all(|&id| is_player(id))
                })
        };
        let mut destroyed = vec![false; n];
        for r in rules() {
            for item in r.rows.iter().flatten() {
                let Item::Cell(p) = item else { continue };
                let Some(x) = &p.replace else { continue };
                if players.iter().any(|&id| has_bit(&x.set, id)) && !needs_player(p) {
                    return None;
                }
                for (id, d) in destroyed.iter_mut().enumerate() {
                    *d |= super::search::destroys(c, p, x, id);
                }
            }
        }
        // A late rule of one cell that cancels the turn wherever a player object and
        // `b` meet.
        let cancels_with = |b: usize| {
            c.late_groups.iter().flat_map(|g| &g.rules).any(|r| {
                let [row] = &r.rows[..] else { return false };
                let [Item::Cell(p)] = &row[..] else {
                    return false;
                };
                let one = players.len() == 1;
                let covers_players = |a: &[u64]| players.iter().all(|&q| has_bit(a, q));
                r.commands.iter().any(|m| matches!(m, Cmd::Cancel))
                    && p.missing.iter().all(|&w| w == 0)
                    && p.moving.iter().all(|&w| w == 0)
                    && (0..n)
                        .all(|id| !has_bit(&p.present, id) || id == b || (one && id == players[0]))
                    && p.any.iter().all(|a| has_bit(a, b) || covers_players(a))
                    && (has_bit(&p.present, b) || p.any.iter().any(|a| has_bit(a, b)))
                    && ((one && has_bit(&p.present, players[0]))
                        || p.any.iter().any(|a| covers_players(a)))
            })
        };
        let blockers: Vec<usize> = (0..n)
            .filter(|&b| !is_player(b) && !reach.moves[b] && !destroyed[b])
            .filter(|&b| c.objects[b].layer == pl || cancels_with(b))
            .collect();
        if blockers.is_empty() {
            return None;
        }
        let mut conds = vec![];
        let mut said = vec![];
        for w in &c.wins {
            let whole = (0..n).all(|id| has_bit(&w.on.0, id));
            if w.quantifier >= 0 || !whole || w.what.1 || w.on.1 {
                continue;
            }
            let xs: Vec<usize> = (0..n).filter(|&id| has_bit(&w.what.0, id)).collect();
            let Ok(per_dir) = super::search::removal_offsets(c, &xs) else {
                continue;
            };
            let mut offsets: Vec<(i64, i64)> = per_dir.into_iter().flatten().collect();
            offsets.sort_unstable();
            offsets.dedup();
            if offsets.is_empty() || xs.is_empty() {
                continue;
            }
            said.push(
                xs.iter()
                    .map(|&id| c.objects[id].name.as_str())
                    .collect::<Vec<_>>()
                    .join("/"),
            );
            conds.push((xs, offsets));
        }
        if conds.is_empty() {
            return None;
        }
        let (width, height) = (reach.width, reach.height);
        let cells = width * height;
        if cells > CUTOFF_CELLS {
            return None;
        }
        let nw = cells.div_ceil(64).max(1);
        let mut valid = vec![0u64; nw];
        let mut not_last = vec![0u64; nw];
        let mut not_first = vec![0u64; nw];
        for i in 0..cells {
            set_bit(&mut valid, i);
            if i % height != height - 1 {
                set_bit(&mut not_last, i);
            }
            if i % height != 0 {
                set_bit(&mut not_first, i);
            }
        }
        let blocked = blockers
            .iter()
            .map(|&b| c.objects[b].name.as_str())
            .collect::<Vec<_>>()
            .join("/");
        Some(Cutoff {
            width,
            height,
            conds,
            blockers,
            players,
            valid,
            not_last,
            not_first,
            free: vec![0; nw],
            reached: vec![0; nw],
            next: vec![0; nw],
            shifted: vec![0; nw],
            description: format!(
                "positions where some {} is out of the player's reach past {blocked}",
                said.join(" or ")
            ),
        })
    }

    /// Whether the level, given by each object's cells (`cells(o)`, a bitset over the
    /// level's cells), can never be won.
    pub(crate) fn is_dead<'a>(&mut self, cells: impl Fn(usize) -> &'a [u64]) -> bool {
        self.free.copy_from_slice(&self.valid);
        for &b in &self.blockers {
            for (f, &w) in self.free.iter_mut().zip(cells(b)) {
                *f &= !w;
            }
        }
        self.reached.fill(0);
        for &q in &self.players {
            for (r, &w) in self.reached.iter_mut().zip(cells(q)) {
                *r |= w;
            }
        }
        // Grow the reached cells by one step in every direction until they stop.
        loop {
            self.next.copy_from_slice(&self.reached);
            let h = self.height;
            for (by, mask) in [(-1isize, 1u8), (1, 2), (-(h as isize), 0), (h as isize, 0)] {
                shift_into(&self.reached, by, &mut self.shifted);
                let m = match mask {
                    1 => &self.not_last,
                    2 => &self.not_first,
                    _ => &self.valid,
                };
                let parts = self.shifted.iter().zip(m).zip(&self.free);
                for (n, ((&s, &m), &f)) in self.next.iter_mut().zip(parts) {
                    *n |= s & m & f;
                }
            }
            if self.next == self.reached {
                break;
            }
            std::mem::swap(&mut self.next, &mut self.reached);
        }
        let (width, h) = (self.width as i64, self.height as i64);
        for (xs, offsets) in &self.conds {
            for &x in xs {
                for j in bits(cells(x)) {
                    let (jx, jy) = (j as i64 / h, j as i64 % h);
                    let removable = offsets.iter().any(|&(dx, dy)| {
                        let (px, py) = (jx - dx, jy - dy);
                        (0..width).contains(&px)
                            && (0..h).contains(&py)
                            && has_bit(&self.reached, (px * h + py) as usize)
                    });
                    if !removable {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// `out` = `bits` shifted by `by` cells (bit `i` to bit `i + by`), bits past either end
/// dropped.
fn shift_into(bits: &[u64], by: isize, out: &mut [u64]) {
    let n = bits.len() as isize;
    let (words, rem) = (by.div_euclid(64), by.rem_euclid(64) as u32);
    for (k, o) in out.iter_mut().enumerate() {
        let k = k as isize;
        // Bit b of word k comes from bit b - by.
        let src = k - words;
        let lo = if (0..n).contains(&src) {
            bits[src as usize]
        } else {
            0
        };
        let prev = src - 1;
        let hi = if (0..n).contains(&prev) {
            bits[prev as usize]
        } else {
            0
        };
        *o = if rem == 0 {
            lo
        } else {
            (lo << rem) | (hi >> (64 - rem))
        };
    }
}

/// `name` with its indefinite article.
fn article(name: &str) -> String {
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest matching of movers to goal cells, by plain Kuhn over lists.
    fn largest(adj: &[Vec<usize>], goals: usize) -> usize {
        fn try_kuhn(u: usize, adj: &[Vec<usize>], owner: &mut [usize], seen: &mut [bool]) -> bool {
            for &g in &adj[u] {
                if !seen[g] {
                    seen[g] = true;
                    if owner[g] == usize::MAX || try_kuhn(owner[g], adj, owner, seen) {
                        owner[g] = u;
                        return true;
                    }
                }
            }
            false
        }
        let mut owner = vec![usize::MAX; goals];
        (0..adj.len())
            .filter(|&u| try_kuhn(u, adj, &mut owner, &mut vec![false; goals]))
            .count()
    }

    /// The bitset matching (a free goal cell first, early exits) calls a position dead
    /// exactly when the largest matching falls short of what the condition needs, on
    /// seeded random reach sets over one and several words of goal cells, either side
    /// needing its own partner.
    #[test]
    fn the_matching_is_dead_exactly_when_a_largest_matching_falls_short() {
        let mut x: u64 = 0x5eed_dead;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut seen = [[0usize; 2]; 2];
        for trial in 0..6000 {
            let goals: usize = [1, 3, 6, 9, 64, 70, 130][trial % 7];
            let movers = 1 + next(if goals > 9 { 80 } else { 10 }) as usize;
            let words = goals.div_ceil(64);
            let density = 1 + next(6);
            let mut table = vec![0u64; movers * words];
            let mut adj = vec![vec![]; movers];
            for (u, a) in adj.iter_mut().enumerate() {
                for g in 0..goals {
                    if next(density * 3) == 0 || (goals > 60 && next(40) == 0) {
                        table[u * words + g / 64] |= 1 << (g % 64);
                        a.push(g);
                    }
                }
            }
            let movers_need = trial % 2 == 0;
            let mut dead = Dead {
                conds: vec![DeadCond {
                    all: true,
                    mask: vec![],
                    ids: vec![],
                    table_of: vec![],
                    tables: vec![table],
                    words,
                    goals,
                    movers_need,
                    distinct: true,
                }],
                description: String::new(),
                so: 1,
                found: (0..movers).map(|u| (0, u)).collect(),
                owner: vec![],
                free: vec![],
                seen: vec![],
                memo: vec![],
            };
            if movers > MATCH_MOVERS {
                continue;
            }
            let need = if movers_need { movers } else { goals };
            let want = largest(&adj, goals) < need;
            assert_eq!(dead.found_dead(0), want, "trial {trial}: {adj:?}");
            seen[movers_need as usize][want as usize] += 1;
        }
        // Both answers, for both sides, many times over.
        assert!(seen.iter().flatten().all(|&n| n > 200), "{seen:?}");
    }
}
