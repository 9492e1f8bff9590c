//! Additive pattern databases derived from the rules (Korf and Felner's disjoint
//! databases), for rules where every move is one swap by one *agent* piece: the n-puzzle
//! and its kin ([`Expander::derive_patterns`]).
//!
//! **When they derive.** Every move is exactly one `swap` by the same kind (the agent, one
//! copy), with no test; every move costs one unit; the swaps' steps are closed under
//! negation (every move can be undone by a move, so distances to the goal are distances
//! from it); every piece covers one cell in one pose; every other kind the goal
//! constrains has one copy, one goal cell, and is summed by the bound (no move changes
//! two of them). These *passive* kinds move only when the agent's swap displaces them.
//!
//! **The abstraction.** Keep the agent and a group of passive kinds; erase the rest. A
//! real move maps to an abstract one: the agent steps to the same cell (it was legal
//! there); the piece it displaces moves back to the agent's cell if it is kept, and
//! nothing moves if it was erased or the cell was empty (erasing pieces only lifts
//! constraints: legality in play checks pieces against tiles and each other). So every
//! real path maps to an abstract path, and the abstract distance to the goal's image
//! (kept kinds on their goal cells, the agent on its goal cell when the goal places it)
//! bounds the real one.
//!
//! **Additive.** In group `i`'s abstraction a move costs one when it displaces a kind of
//! the group, else nothing. A real move displaces at most one piece, of at most one
//! group, so the groups' costs of any path sum to at most its length, and the sum of the
//! groups' abstract distances is admissible (each group's is at most its share). The table
//! keeps, per placement of a group's kinds, the least distance over the agent's cells:
//! smaller, so still admissible (not consistent in general: IDA* needs only
//! admissibility; A* takes the largest of it and the consistent bounds, which it then
//! reads as a bound, not as a consistent one: `Expander::estimate`).
//!
//! **The build.** A breadth-first search over the abstract states: every placement of the
//! group, and the region of free cells the agent stands in (its steps onto free cells
//! cost nothing, so within a region it is anywhere at once), on boards of up to 64
//! cells; beyond, a 0-1 breadth-first search over placements and the agent's cell (the
//! two give the same tables: a test compares them). Indices are in base `cells`; groups
//! are the passive kinds in the reading order of their goal cells, cut into near-equal
//! parts of at most the size whose search fits in [`MAX_SEARCH`] entries. The missing
//! tables are built side by side, one thread each, as many at once as there are cores.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::super::budget::{Budget, Pacer};
use super::super::expander::{Expander, PrepareError};
use super::super::layout::OFF;
use super::super::legality::{GOAL, LEGAL};
use super::super::program::{Actions, KOp};

/// The most entries (bytes) one group's abstract search may index: 2^25.
const MAX_SEARCH: u64 = 1 << 25;

/// Distance not yet known, in a group's search.
const UNSEEN: u8 = u8::MAX;

/// Most tables the process keeps for later levels.
const CACHED: usize = 16;

/// The tables built so far in this process, each under everything it is computed from
/// (the board's cells and steps, where the agent and the group's kinds may stand, their
/// goal cells): levels of one rule file and board shape share them, as `puz solve --all`
/// and `puz test` solve level after level.
static CACHE: Mutex<Vec<Cached>> = Mutex::new(Vec::new());

/// A table kept for later levels, under its key (see [`CACHE`]).
type Cached = (Vec<u64>, Arc<Vec<u8>>);

/// One group's database: per placement of its kinds (base-`cells` digits in group
/// order), the fewest moves displacing one of them that any goal needs.
pub(crate) struct Pattern {
    /// The state slot of each kind of the group.
    slots: Vec<usize>,
    table: Arc<Vec<u8>>,
}

/// The databases of a level: groups that add up.
pub(crate) struct Patterns {
    groups: Vec<Pattern>,
    /// Per padded cell: its board index (`u16::MAX` off the board).
    board_of: Vec<u16>,
    /// Per slot: its pose bits.
    bits: Vec<u32>,
    /// Bits per cell in a table's index.
    shift: usize,
    /// For `--stats`: the group sizes and the time the build took.
    pub(crate) summary: String,
}

impl Patterns {
    /// The sum of the groups' distances for state `s`.
    #[inline]
    pub(crate) fn estimate(&self, s: &[u32]) -> u32 {
        let mut h = 0u32;
        for g in &self.groups {
            let mut idx = 0usize;
            for &slot in g.slots.iter().rev() {
                let p = self.board_of[(s[slot] >> self.bits[slot]) as usize];
                if p == u16::MAX {
                    return 0; // a copy off the board: no state of the searched space
                }
                idx = idx << self.shift | p as usize;
            }
            let d = g.table[idx];
            if d == UNSEEN {
                return super::UNREACHABLE;
            }
            h += u32::from(d);
        }
        h
    }
}

impl Expander<'_> {
    /// The additive pattern databases of the module header, when the rules allow them;
    /// `Ok(None)` when they do not; cut off when `budget` runs out.
    pub(super) fn derive_patterns(
        &self,
        constrained: &[bool],
        summed: &[bool],
        budget: &Budget,
        pacer: &mut Pacer,
    ) -> Result<Option<Patterns>, PrepareError> {
        let t0 = web_time::Instant::now();
        let lay = &self.lay;
        let model = self.model;
        // Every move: one swap by the agent, no test, unit cost.
        let mut agent = None;
        let mut steps: Vec<isize> = vec![];
        if !model.unit_costs() {
            return Ok(None);
        }
        for (ops, actions) in self.prog.runs.moves.iter().zip(&self.prog.runs.actions) {
            let (
                [KOp::Swap {
                    var, kind, delta, ..
                }],
                Actions::Dirs(dirs),
            ) = (ops.as_slice(), actions)
            else {
                return Ok(None);
            };
            if var != kind || agent.is_some_and(|a| a != *kind) {
                return Ok(None);
            }
            agent = Some(*kind);
            steps.extend(dirs.iter().map(|&d| lay.resolve(*delta, d)));
        }
        let Some(agent) = agent else {
            return Ok(None);
        };
        if steps.iter().any(|v| !steps.contains(&-v)) {
            return Ok(None);
        }
        steps.sort_unstable();
        steps.dedup();
        let one_pose = lay
            .foot
            .iter()
            .all(|poses| poses.len() == 1 && poses[0].as_slice() == [0]);
        if !one_pose || lay.slots[agent].count != 1 {
            return Ok(None);
        }
        // The passive kinds and their goal cells.
        let cells = lay.board_cells.len();
        let goal_cells = |k: usize| -> Vec<usize> {
            let flags = &self.flags[k];
            let bits = lay.slots[k].bits;
            let named = self.goal_slots.iter().any(|&(_, kk)| kk == k);
            let want = if named { LEGAL | GOAL } else { LEGAL };
            (0..cells)
                .filter(|&i| {
                    let w = (lay.board_cells[i] as usize) << bits;
                    flags.get(w).is_some_and(|&f| f & want == want) && self.picture_allows(k, w)
                })
                .collect()
        };
        let mut passive = vec![];
        for k in 0..constrained.len() {
            if k == agent || !constrained[k] {
                continue;
            }
            let goals = goal_cells(k);
            if !summed[k] || lay.slots[k].count != 1 || goals.len() != 1 {
                return Ok(None);
            }
            passive.push((goals[0], k));
        }
        if passive.is_empty() || cells >= u16::MAX as usize {
            return Ok(None);
        }
        passive.sort_unstable();
        let agent_goals = if constrained[agent] {
            goal_cells(agent)
        } else {
            (0..cells).collect()
        };
        // Group size: the largest whose search fits (`shift` bits per cell).
        let shift = (usize::BITS - (cells - 1).leading_zeros()).max(1) as usize;
        let mut size = 0;
        while size < passive.len() && 1u64 << (shift * (size + 2)) <= MAX_SEARCH {
            size += 1;
        }
        if size == 0 {
            return Ok(None);
        }
        let parts = passive.len().div_ceil(size);
        // Per board cell: its padded cell, and the board cell a step leads to.
        let padded: Vec<usize> = lay.board_cells.iter().map(|&p| p as usize).collect();
        let mut board_of = vec![u16::MAX; lay.ptile.len()];
        for (i, &p) in padded.iter().enumerate() {
            board_of[p] = i as u16;
        }
        let legal_at = |k: usize| -> Vec<bool> {
            (0..cells)
                .map(|i| {
                    let w = padded[i] << lay.slots[k].bits;
                    self.flags[k].get(w).is_some_and(|&f| f & LEGAL != 0)
                })
                .collect()
        };
        let legal: Vec<Vec<bool>> = (0..lay.slots.len()).map(legal_at).collect();
        let next: Vec<Vec<usize>> = (0..cells)
            .map(|i| {
                steps
                    .iter()
                    .filter_map(|&v| {
                        let to = padded[i] as isize + v;
                        let to = usize::try_from(to).ok()?;
                        (lay.ptile.get(to).is_some_and(|&t| t != OFF) && board_of[to] != u16::MAX)
                            .then(|| board_of[to] as usize)
                    })
                    .collect()
            })
            .collect();
        // The groups, their keys, and the tables already built (here or on disk).
        let mut parts_of = vec![];
        let mut sizes = vec![];
        let mut at = 0;
        for part in 0..parts {
            let n = (passive.len() - at) / (parts - part);
            let group: Vec<(usize, usize)> = passive[at..at + n].to_vec();
            at += n;
            sizes.push(n.to_string());
            let mut key: Vec<u64> = vec![cells as u64];
            for to in &next {
                key.push(u64::MAX);
                key.extend(to.iter().map(|&c| c as u64));
            }
            for k in std::iter::once(agent).chain(group.iter().map(|&(_, k)| k)) {
                key.push(u64::MAX);
                key.extend(legal[k].iter().map(|&l| u64::from(l)));
            }
            key.push(u64::MAX);
            key.extend(group.iter().map(|&(c, _)| c as u64));
            key.push(u64::MAX);
            key.extend(agent_goals.iter().map(|&c| c as u64));
            let span = 1usize << (shift * n);
            let hit = CACHE
                .lock()
                .ok()
                .and_then(|c| c.iter().find(|(k, _)| *k == key).map(|(_, t)| t.clone()))
                .or_else(|| disk::load(&key, span).map(Arc::new));
            parts_of.push((group, key, hit));
        }
        let cached = parts_of.iter().filter(|p| p.2.is_some()).count();
        // The missing tables, built side by side (one thread each, as many at once as
        // the machine has cores; in turn where there are no threads).
        let missing: Vec<usize> = (0..parts).filter(|&i| parts_of[i].2.is_none()).collect();
        let build = |i: usize, pacer: &mut Pacer| {
            let space = Abstract {
                group: &parts_of[i].0,
                agent,
                agent_goals: &agent_goals,
                next: &next,
                legal: &legal,
                shift,
            };
            space.table(budget, pacer)
        };
        let mut built: Vec<Result<Vec<u8>, PrepareError>> = vec![];
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cfg!(target_arch = "wasm32") || cores < 2 || missing.len() < 2 {
            for &i in &missing {
                built.push(build(i, pacer));
            }
        } else {
            for chunk in missing.chunks(cores) {
                let out: Vec<Result<Vec<u8>, PrepareError>> = std::thread::scope(|sc| {
                    let handles: Vec<_> = chunk
                        .iter()
                        .map(|&i| sc.spawn(move || build(i, &mut Pacer::default())))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("a table build does not panic"))
                        .collect()
                });
                built.extend(out);
            }
        }
        for (&i, t) in missing.iter().zip(built) {
            let t = Arc::new(t?);
            disk::store(&parts_of[i].1, &t);
            if let Ok(mut c) = CACHE.lock() {
                if c.len() >= CACHED {
                    c.remove(0);
                }
                c.push((parts_of[i].1.clone(), t.clone()));
            }
            parts_of[i].2 = Some(t);
        }
        let groups: Vec<Pattern> = parts_of
            .into_iter()
            .map(|(group, _, table)| Pattern {
                slots: group.iter().map(|&(_, k)| lay.slots[k].start).collect(),
                table: table.expect("every table is built or cached"),
            })
            .collect();
        let entries: usize = groups.iter().map(|g| g.table.len()).sum();
        Ok(Some(Patterns {
            groups,
            board_of,
            bits: lay.slot_bits.clone(),
            shift,
            summary: format!(
                "additive pattern databases of {} pieces (agent {}), {} entries, {} in {:.3}s",
                sizes.join("+"),
                model.pieces[agent].name,
                entries,
                if cached == parts {
                    "read from the cache".to_string()
                } else {
                    format!("{} built", parts - cached)
                },
                t0.elapsed().as_secs_f64()
            ),
        }))
    }
}

/// One group's abstract space (see the module header): the group's kinds
/// (`(goal cell, kind)`), the agent, where each may stand, and the board's steps.
struct Abstract<'a> {
    group: &'a [(usize, usize)],
    agent: usize,
    agent_goals: &'a [usize],
    next: &'a [Vec<usize>],
    legal: &'a [Vec<bool>],
    /// Bits per cell in an index.
    shift: usize,
}

impl Abstract<'_> {
    /// The group's table: per placement of its kinds (`shift` bits per cell, in group
    /// order), the fewest moves displacing one of them from it to the goal's image.
    fn table(&self, budget: &Budget, pacer: &mut Pacer) -> Result<Vec<u8>, PrepareError> {
        if self.next.len() <= 64 {
            self.by_regions(budget, pacer)
        } else {
            self.by_cells(budget, pacer)
        }
    }

    /// The table by breadth-first search over placements and the agent's *region*:
    /// the agent's steps onto cells no kind of the group holds cost nothing, so the
    /// agent stands anywhere in the connected free cells around it at no cost, and a
    /// state is a placement and that region (named by its least cell). Every move
    /// displaces one kind of the group (into the region) and costs one, so the search is
    /// plain breadth-first, and the first time a placement is met is its distance, the
    /// least over the agent's cells. The same distances as [`Abstract::by_cells`] over
    /// up to 64 cells kept in one word, with a state per region instead of per cell.
    fn by_regions(&self, budget: &Budget, pacer: &mut Pacer) -> Result<Vec<u8>, PrepareError> {
        let (shift, g) = (self.shift, self.group.len());
        let span = 1usize << (shift * g);
        let mask = (1usize << shift) - 1;
        let states = span << shift;
        budget.room_for(span as u64 + states as u64 / 8)?;
        let bit = |c: usize| 1u64 << c;
        let adj: Vec<u64> = self
            .next
            .iter()
            .map(|to| to.iter().fold(0, |m, &c| m | bit(c)))
            .collect();
        let as_mask = |legal: &[bool]| {
            legal
                .iter()
                .enumerate()
                .fold(0u64, |m, (c, &l)| if l { m | bit(c) } else { m })
        };
        let agent_ok = as_mask(&self.legal[self.agent]);
        let kind_ok: Vec<u64> = self
            .group
            .iter()
            .map(|&(_, k)| as_mask(&self.legal[k]))
            .collect();
        // The cells the agent reaches from `from` through `open` cells (`from` included).
        let region = |from: usize, open: u64| {
            let mut reg = bit(from);
            let mut frontier = reg;
            while frontier != 0 {
                let mut grown = 0;
                let mut f = frontier;
                while f != 0 {
                    grown |= adj[f.trailing_zeros() as usize];
                    f &= f - 1;
                }
                frontier = grown & open & !reg;
                reg |= frontier;
            }
            reg
        };
        let mut table = vec![UNSEEN; span];
        let mut seen = vec![0u64; states.div_ceil(64)];
        let mut queue: Vec<u32> = vec![];
        let base: usize = self
            .group
            .iter()
            .enumerate()
            .map(|(i, &(c, _))| c << (shift * i))
            .sum();
        let occ0 = self.group.iter().fold(0u64, |m, &(c, _)| m | bit(c));
        for &b in self.agent_goals {
            if occ0 & bit(b) == 0 && agent_ok & bit(b) != 0 {
                let rep = region(b, agent_ok & !occ0).trailing_zeros() as usize;
                let idx = base | rep << (shift * g);
                if seen[idx / 64] & bit(idx % 64) == 0 {
                    seen[idx / 64] |= bit(idx % 64);
                    queue.push(idx as u32);
                }
            }
        }
        if !queue.is_empty() {
            table[base] = 0;
        }
        let (mut head, mut layer_end, mut d) = (0, queue.len(), 0u8);
        while head < queue.len() {
            if head == layer_end {
                layer_end = queue.len();
                d += 1;
            }
            let idx = queue[head] as usize;
            head += 1;
            if head & 0xffff == 0 {
                pacer.tick(0x10000, budget)?;
            }
            let placement = idx & (span - 1);
            let cell = |i: usize| (placement >> (shift * i)) & mask;
            let occ = (0..g).fold(0u64, |m, i| m | bit(cell(i)));
            let reg = region(idx >> (shift * g), agent_ok & !occ);
            if d == UNSEEN - 1 {
                continue; // farther than a byte counts: left unseen (no bound)
            }
            for (i, &ok) in kind_ok.iter().enumerate() {
                let t = cell(i);
                if agent_ok & bit(t) == 0 {
                    continue; // the agent could not stand where the kind was
                }
                let mut into = adj[t] & reg & ok;
                while into != 0 {
                    let b = into.trailing_zeros() as usize;
                    into &= into - 1;
                    let moved = placement - (t << (shift * i)) + (b << (shift * i));
                    let occ2 = occ & !bit(t) | bit(b);
                    let rep = region(t, agent_ok & !occ2).trailing_zeros() as usize;
                    let nidx = moved | rep << (shift * g);
                    if seen[nidx / 64] & bit(nidx % 64) != 0 {
                        continue;
                    }
                    seen[nidx / 64] |= bit(nidx % 64);
                    queue.push(nidx as u32);
                    if table[moved] == UNSEEN {
                        table[moved] = d + 1;
                    }
                }
            }
        }
        Ok(table)
    }

    /// The table by 0-1 breadth-first search from the goal's image over the placements
    /// of the group and the agent's cell (`shift` bits per cell in the index, the
    /// agent's highest), then the least distance over the agent's cells: for boards
    /// beyond 64 cells.
    fn by_cells(&self, budget: &Budget, pacer: &mut Pacer) -> Result<Vec<u8>, PrepareError> {
        let (group, agent, next, legal, shift) =
            (self.group, self.agent, self.next, self.legal, self.shift);
        let cells = next.len();
        let g = group.len();
        let span = 1usize << (shift * g);
        let mask = (1usize << shift) - 1;
        budget.room_for((span << shift) as u64 + span as u64)?;
        let mut dist = vec![UNSEEN; span << shift];
        let mut queue: VecDeque<u32> = VecDeque::new();
        let base: usize = group
            .iter()
            .enumerate()
            .map(|(i, &(c, _))| c << (shift * i))
            .sum();
        for &b in self.agent_goals {
            if group.iter().all(|&(c, _)| c != b) && legal[agent][b] {
                let idx = base | b << (shift * g);
                dist[idx] = 0;
                queue.push_back(idx as u32);
            }
        }
        let agent_legal = &legal[agent];
        let kind_legal: Vec<&[bool]> = group.iter().map(|&(_, k)| legal[k].as_slice()).collect();
        // Per cell: 1 + the index in the group of the kind on it, 0 for none.
        let mut occ = vec![0u8; cells];
        let mut popped = 0u64;
        while let Some(idx) = queue.pop_front() {
            let idx = idx as usize;
            let d = dist[idx];
            let b = idx >> (shift * g);
            for i in 0..g {
                occ[(idx >> (shift * i)) & mask] = i as u8 + 1;
            }
            popped += 1;
            if popped & 0xffff == 0 {
                pacer.tick(0x10000, budget)?;
            }
            for &to in &next[b] {
                if !agent_legal[to] {
                    continue;
                }
                let moved = idx - (b << (shift * g)) + (to << (shift * g));
                let (nidx, nd) = match occ[to] {
                    0 => (moved, d),
                    i => {
                        let i = (i - 1) as usize;
                        if !kind_legal[i][b] {
                            continue;
                        }
                        let at = shift * i;
                        (moved - (to << at) + (b << at), d + 1)
                    }
                };
                if nd < dist[nidx] && nd < UNSEEN {
                    dist[nidx] = nd;
                    if nd == d {
                        queue.push_front(nidx as u32);
                    } else {
                        queue.push_back(nidx as u32);
                    }
                }
            }
            for i in 0..g {
                occ[(idx >> (shift * i)) & mask] = 0;
            }
        }
        let mut table = vec![UNSEEN; span];
        for (idx, &d) in dist.iter().enumerate() {
            let t = &mut table[idx & (span - 1)];
            *t = (*t).min(d);
        }
        Ok(table)
    }
}

/// The tables kept on disk between processes, under the same keys as [`CACHE`]: one file
/// per table in `$PUZ_CACHE_DIR` (empty: none), else `$XDG_CACHE_HOME/puz`, else
/// `$HOME/.cache/puz`. A file holds its whole key, compared in full when read, so a file
/// of other rules (or a damaged one) is never used; failures to read or write are
/// ignored (the table is built instead).
mod disk {
    use std::io::Write;
    use std::path::PathBuf;

    const MAGIC: &[u8; 8] = b"PUZPDB1\n";

    fn dir() -> Option<PathBuf> {
        match std::env::var_os("PUZ_CACHE_DIR") {
            Some(d) if d.is_empty() => None,
            Some(d) => Some(PathBuf::from(d)),
            None => std::env::var_os("XDG_CACHE_HOME")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .map(|d| d.join("puz")),
        }
    }

    fn path(key: &[u64]) -> Option<PathBuf> {
        // FNV-1a over the key's words: a file name, not a check (the key is compared).
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for w in key {
            for b in w.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        Some(dir()?.join(format!("pdb-{h:016x}.bin")))
    }

    fn header(key: &[u64], len: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((key.len() as u64).to_le_bytes());
        for w in key {
            out.extend(w.to_le_bytes());
        }
        out.extend((len as u64).to_le_bytes());
        out
    }

    /// The table stored under `key`, when a file holds exactly it and `len` entries.
    pub(super) fn load(key: &[u64], len: usize) -> Option<Vec<u8>> {
        let bytes = std::fs::read(path(key)?).ok()?;
        let head = header(key, len);
        (bytes.len() == head.len() + len && bytes.starts_with(&head))
            .then(|| bytes[head.len()..].to_vec())
    }

    /// Stores `table` under `key` (written aside, then renamed into place).
    pub(super) fn store(key: &[u64], table: &[u8]) {
        let Some(path) = path(key) else { return };
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(&header(key, table.len()))?;
            f.write_all(table)
        });
        if written.is_err() || std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps of a `rows` x `cols` grid, 4-connected, cells in reading order.
    fn grid(rows: usize, cols: usize) -> Vec<Vec<usize>> {
        (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut to = vec![];
                if r > 0 {
                    to.push(i - cols);
                }
                if r + 1 < rows {
                    to.push(i + cols);
                }
                if c > 0 {
                    to.push(i - 1);
                }
                if c + 1 < cols {
                    to.push(i + 1);
                }
                to
            })
            .collect()
    }

    /// Both builds give the same table, on boards with and without walls (cells no
    /// piece may stand on), for groups of every size that fits and agents with and
    /// without a goal cell.
    #[test]
    fn regions_and_cells_give_the_same_tables() {
        let mut rng = fastrand::Rng::with_seed(0x9d8_2025);
        let mut compared = 0;
        for &(rows, cols, g) in &[
            (2, 3, 2),
            (3, 3, 3),
            (3, 3, 4),
            (3, 4, 3),
            (4, 4, 3),
            (2, 5, 4),
        ] {
            for _ in 0..4 {
                let next = grid(rows, cols);
                let cells = next.len();
                let shift = (usize::BITS - (cells - 1).leading_zeros()).max(1) as usize;
                // Kind 0 the agent, 1..=g the group; a wall or two nobody may stand on.
                let walls: Vec<usize> = (0..rng.usize(0..=2)).map(|_| rng.usize(..cells)).collect();
                let legal: Vec<Vec<bool>> = (0..=g)
                    .map(|k| {
                        (0..cells)
                            .map(|c| !walls.contains(&c) && (k == 0 || rng.u8(..10) != 0))
                            .collect()
                    })
                    .collect();
                let mut free: Vec<usize> = (0..cells).filter(|c| !walls.contains(c)).collect();
                rng.shuffle(&mut free);
                if free.len() < g + 1 {
                    continue;
                }
                let group: Vec<(usize, usize)> = (0..g).map(|i| (free[i], i + 1)).collect();
                let agent_goals: Vec<usize> = if rng.bool() {
                    vec![free[g]]
                } else {
                    (0..cells).collect()
                };
                let space = Abstract {
                    group: &group,
                    agent: 0,
                    agent_goals: &agent_goals,
                    next: &next,
                    legal: &legal,
                    shift,
                };
                let budget = Budget::default();
                let a = space
                    .by_regions(&budget, &mut Pacer::default())
                    .expect("regions");
                let b = space
                    .by_cells(&budget, &mut Pacer::default())
                    .expect("cells");
                assert_eq!(a, b, "{rows}x{cols}, group {group:?}, walls {walls:?}");
                assert!(a.iter().any(|&d| d > 1 && d != UNSEEN));
                compared += 1;
            }
        }
        assert!(compared >= 20);
    }
}
