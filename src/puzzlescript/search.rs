//! A PuzzleScript level as a state space for puz's search backends.
//!
//! A state is the level's objects after a whole turn (again turns included), packed: only
//! the collision layers some turn can change are stored, each cell's object on such a
//! layer as a small code (its rank among the layer's objects, 0 for none), then one word
//! that says whether the level has been won. The other layers (background, walls on a
//! layer of their own, targets) never change and are kept once, from the level.
//!
//! A move is one input, tried in the tie order up, left, down, right, action (action
//! only without `noaction`). An input is a move when its turn wins the level (the win is
//! tested after every turn, even one that changed nothing, so the winning input is always
//! a move), or when it changes the level without a `restart` and its again turns settle.
//! A `cancel`led input, one that changes nothing, one whose turn restarts the level, and
//! one whose again turns never settle are not moves (the last is a dead end: the game
//! would animate forever and accept no input). A won state has no successors; it is the
//! goal. `checkpoint` changes nothing here: a restart is never a move.

use super::engine::Machine;
use super::ir::*;
use super::{Game, Input, OnWin, Session, AGAIN_CAP};
use crate::engine::{Action, Successors};
use crate::search::Space;

/// The inputs a search tries, in the tie order.
pub const SEARCH_INPUTS: [Input; 5] = [
    Input::Up,
    Input::Left,
    Input::Down,
    Input::Right,
    Input::Action,
];

/// The search action for input `k` of [`SEARCH_INPUTS`] (actions order as inputs do).
pub fn action_of(k: usize) -> Action {
    Action::from_raw(k as u32)
}

/// The input a search action stands for.
pub fn input_of(a: Action) -> Input {
    SEARCH_INPUTS[(a.raw() as usize).min(SEARCH_INPUTS.len() - 1)]
}

/// One stored layer: where its objects' bits are, and the width of its code.
#[derive(Clone, Debug)]
struct StoredLayer {
    /// Per object word holding some of the layer's objects: the word, its mask, and how
    /// many of the layer's objects come in earlier words.
    words: Vec<(usize, u64, u32)>,
    /// The layer's object ids in code order (code `k + 1` is `ids[k]`).
    ids: Vec<usize>,
    /// Bits of the code.
    bits: u32,
    /// The collision layer.
    layer: usize,
}

/// Which layers a turn can change, from the rules: a layer that receives movement (the
/// player's, or any a rule gives a direction), or on which a rule creates or destroys an
/// object. Creation is an object written where the rule did not require it; destruction
/// an object cleared where the rule neither writes it, requires it absent, nor requires
/// another object of its layer (a cell holds one object per layer).
pub(crate) fn changing_layers(c: &Compiled) -> Vec<bool> {
    let mut dynamic = vec![false; c.layers];
    for &id in &c.player_ids {
        dynamic[c.objects[id].layer] = true;
    }
    let n = c.objects.len();
    for g in c.groups.iter().chain(&c.late_groups) {
        for r in &g.rules {
            for item in r.rows.iter().flatten() {
                let Item::Cell(p) = item else { continue };
                let Some(x) = &p.replace else { continue };
                for (l, d) in dynamic.iter_mut().enumerate() {
                    if get_layer(&x.mov_set, l) != 0 || get_layer(&x.random_dir, l) != 0 {
                        *d = true;
                    }
                }
                let filled = filled_layers(c, p);
                for id in 0..n {
                    if writes(c, p, x, &filled, id) {
                        dynamic[c.objects[id].layer] = true;
                    }
                }
            }
        }
    }
    dynamic
}

/// The layers a cell pattern fills: one of its required objects is there.
fn filled_layers(c: &Compiled, p: &CellPattern) -> Vec<bool> {
    let mut filled = vec![false; c.layers];
    let n = c.objects.len();
    for id in 0..n {
        if has_bit(&p.present, id) {
            filled[c.objects[id].layer] = true;
        }
    }
    for any in &p.any {
        let ids: Vec<usize> = (0..n).filter(|&id| has_bit(any, id)).collect();
        if let Some(&first) = ids.first() {
            let l = c.objects[first].layer;
            if ids.iter().all(|&id| c.objects[id].layer == l) {
                filled[l] = true;
            }
        }
    }
    filled
}

/// Whether replacement `x` of pattern `p` can create or destroy object `id`: write it
/// where the pattern does not require it, or clear it where the pattern neither writes
/// it, requires it absent, nor fills its layer with another object.
fn writes(c: &Compiled, p: &CellPattern, x: &Replacement, filled: &[bool], id: usize) -> bool {
    let created = has_bit(&x.set, id) && !has_bit(&p.present, id);
    created || clears(c, p, x, filled, id) || has_bit(&x.random_entity, id)
}

/// Whether replacement `x` of pattern `p` can destroy object `id`: clear it where the
/// pattern neither writes it, requires it absent, nor fills its layer with another.
fn clears(c: &Compiled, p: &CellPattern, x: &Replacement, filled: &[bool], id: usize) -> bool {
    // Another object of the pattern's fills the layer: this one cannot be there.
    let shadowed = filled[c.objects[id].layer] && !has_bit(&p.present, id) && !in_any(p, id);
    has_bit(&x.clear, id) && !has_bit(&x.set, id) && !has_bit(&p.missing, id) && !shadowed
}

/// Whether replacement `x` of pattern `p` can destroy object `id` (see [`writes`]).
pub(crate) fn destroys(c: &Compiled, p: &CellPattern, x: &Replacement, id: usize) -> bool {
    clears(c, p, x, &filled_layers(c, p), id) || has_bit(&x.random_entity, id)
}

/// Whether some property of the pattern names object `id`.
fn in_any(p: &CellPattern, id: usize) -> bool {
    p.any.iter().any(|a| has_bit(a, id))
}

impl StoredLayer {
    /// The code of this layer's object in `cell` (cell number `i`): 0 for none, else
    /// its rank among the layer's objects plus one; two objects are an [`Overlap`].
    #[inline]
    fn code(&self, cell: &[u64], i: usize) -> Result<u64, Overlap> {
        let mut code = 0u64;
        for &(w, m, before) in &self.words {
            let x = cell[w] & m;
            if x != 0 {
                if code != 0 || x & (x - 1) != 0 {
                    return Err(Overlap {
                        cell: i,
                        layer: self.layer,
                    });
                }
                let low = x & x.wrapping_neg();
                code = (before + (m & (low - 1)).count_ones() + 1) as u64;
            }
        }
        Ok(code)
    }
}

/// How a level's objects are packed into a state.
#[derive(Clone, Debug)]
pub(crate) struct Packing {
    layers: Vec<StoredLayer>,
    cells: usize,
    so: usize,
    /// The level's objects on the layers not stored.
    base: Vec<u64>,
    /// Words of packed objects (the won flag comes after them).
    object_words: usize,
    /// The bits used in the last object word (0: it is full).
    last_bits: u32,
    /// Bits per cell (every stored layer's code).
    per_cell: usize,
    /// When every stored layer's objects are consecutive bits of one word: per layer, the
    /// word, the shift of its first object and the mask of its objects shifted down.
    contiguous: Option<Vec<(usize, u32, u64)>>,
}

/// Two objects on one layer of a cell: a level no PuzzleScript turn makes, so one the
/// packing cannot store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overlap {
    /// The cell (column-major index).
    pub cell: usize,
    /// The layer.
    pub layer: usize,
}

impl Packing {
    /// A table per stored layer, per code (the layer's objects in rank order): `f` of
    /// the object with that code.
    fn per_code<T>(&self, f: impl Fn(usize) -> T) -> Vec<Vec<T>> {
        (self.layers.iter())
            .map(|sl| sl.ids.iter().map(|&id| f(id)).collect())
            .collect()
    }

    /// The packing of the levels of a game of `c` that start as `start`.
    pub(crate) fn new(c: &Compiled, start: &[u64]) -> Packing {
        let so = c.so;
        let cells = start.len() / so.max(1);
        let dynamic = changing_layers(c);
        let mut layers = vec![];
        let mut base = start.to_vec();
        for (l, &d) in dynamic.iter().enumerate() {
            if !d {
                continue;
            }
            let mask = c.layer_mask(l);
            let ids: Vec<usize> = (0..c.objects.len())
                .filter(|&id| has_bit(mask, id))
                .collect();
            if ids.is_empty() {
                continue;
            }
            let mut words = vec![];
            let mut before = 0;
            for (w, &m) in mask.iter().enumerate() {
                if m != 0 {
                    words.push((w, m, before));
                    before += m.count_ones();
                }
            }
            for i in 0..cells {
                for (w, &m) in mask.iter().enumerate() {
                    base[i * so + w] &= !m;
                }
            }
            let bits = u32::BITS - (ids.len() as u32).leading_zeros();
            layers.push(StoredLayer {
                words,
                ids,
                bits,
                layer: l,
            });
        }
        let contiguous = layers
            .iter()
            .map(|l| match l.words.as_slice() {
                &[(w, m, 0)] => {
                    let low = m >> m.trailing_zeros();
                    (low & low.wrapping_add(1) == 0).then_some((w, m.trailing_zeros(), low))
                }
                _ => None,
            })
            .collect();
        let per_cell: u64 = layers.iter().map(|l| l.bits as u64).sum();
        let total = per_cell * cells as u64;
        Packing {
            layers,
            cells,
            so,
            base,
            object_words: total.div_ceil(32) as usize,
            last_bits: (total % 32) as u32,
            per_cell: per_cell as usize,
            contiguous,
        }
    }

    /// Words per state, the won flag included.
    pub(crate) fn words(&self) -> usize {
        self.object_words + 1
    }

    /// Each word's range, for dense stores.
    pub(crate) fn radix(&self) -> Vec<u32> {
        let mut r = vec![u32::MAX; self.object_words];
        if self.last_bits != 0 {
            if let Some(last) = r.last_mut() {
                *last = 1 << self.last_bits;
            }
        }
        r.push(2);
        r
    }

    /// Packs `objects` into `out` (`words()` words), with the won flag.
    pub(crate) fn pack(&self, objects: &[u64], won: bool, out: &mut [u32]) -> Result<(), Overlap> {
        if let Some(fast) = &self.contiguous {
            return self.pack_contiguous(fast, objects, won, out);
        }
        let so = self.so;
        let mut acc: u64 = 0;
        let mut have = 0u32;
        let mut k = 0;
        for i in 0..self.cells {
            let cell = &objects[i * so..(i + 1) * so];
            for l in &self.layers {
                let code = l.code(cell, i)?;
                acc |= code << have;
                have += l.bits;
                if have >= 32 {
                    out[k] = acc as u32;
                    k += 1;
                    acc >>= 32;
                    have -= 32;
                }
            }
        }
        if have > 0 {
            out[k] = acc as u32;
            k += 1;
        }
        debug_assert_eq!(k, self.object_words);
        out[self.object_words] = u32::from(won);
        Ok(())
    }

    /// [`Packing::pack`] when each stored layer's objects are consecutive bits of one
    /// word (object ids come in layer order, so they usually are): a layer's code is its
    /// bits shifted down, a single bit's position plus one.
    fn pack_contiguous(
        &self,
        fast: &[(usize, u32, u64)],
        objects: &[u64],
        won: bool,
        out: &mut [u32],
    ) -> Result<(), Overlap> {
        let so = self.so;
        let mut acc: u64 = 0;
        let mut have = 0u32;
        let mut k = 0;
        for i in 0..self.cells {
            let cell = &objects[i * so..(i + 1) * so];
            for (l, &(w, shift, low)) in self.layers.iter().zip(fast) {
                let x = (cell[w] >> shift) & low;
                if x & x.wrapping_sub(1) != 0 {
                    return Err(Overlap {
                        cell: i,
                        layer: l.layer,
                    });
                }
                let code = if x == 0 {
                    0
                } else {
                    x.trailing_zeros() as u64 + 1
                };
                acc |= code << have;
                have += l.bits;
                if have >= 32 {
                    out[k] = acc as u32;
                    k += 1;
                    acc >>= 32;
                    have -= 32;
                }
            }
        }
        if have > 0 {
            out[k] = acc as u32;
        }
        out[self.object_words] = u32::from(won);
        Ok(())
    }

    /// Packs again, into `out` (which holds the packing of `parent`, a level that
    /// differs from `objects` only on the cells of the bitset `touched`), the touched
    /// cells that differ from the parent's, and the won flag. (A turn that clears and
    /// redraws something touches cells it leaves as they were.)
    pub(crate) fn repack(
        &self,
        objects: &[u64],
        parent: &[u64],
        touched: &[u64],
        won: bool,
        out: &mut [u32],
    ) -> Result<(), Overlap> {
        let so = self.so;
        let per_cell = self.per_cell;
        for (k, &word) in touched.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i >= self.cells {
                    break;
                }
                let cell = &objects[i * so..(i + 1) * so];
                if cell == &parent[i * so..(i + 1) * so] {
                    continue;
                }
                let mut at = i * per_cell;
                for l in &self.layers {
                    put_bits(out, at, l.bits, l.code(cell, i)?);
                    at += l.bits as usize;
                }
            }
        }
        out[self.object_words] = u32::from(won);
        Ok(())
    }

    /// Unpacks a state's objects into `objects` (the level's size).
    pub(crate) fn unpack(&self, s: &[u32], objects: &mut [u64]) {
        objects.copy_from_slice(&self.base);
        let so = self.so;
        let mut acc: u64 = 0;
        let mut have = 0u32;
        let mut k = 0;
        for i in 0..self.cells {
            for l in &self.layers {
                if have < l.bits {
                    acc |= (s[k] as u64) << have;
                    k += 1;
                    have += 32;
                }
                let code = (acc & ((1u64 << l.bits) - 1)) as usize;
                acc >>= l.bits;
                have -= l.bits;
                if code != 0 {
                    if let Some(&id) = l.ids.get(code - 1) {
                        objects[i * so + id / 64] |= 1 << (id % 64);
                    }
                }
            }
        }
    }

    /// Brings `objects`, the unpacking of state `from`, to the unpacking of state `to`:
    /// only the cells whose bits differ are decoded again, and each is marked in the
    /// bitset `marked`.
    pub(crate) fn unpack_diff(
        &self,
        from: &[u32],
        to: &[u32],
        objects: &mut [u64],
        marked: &mut [u64],
    ) {
        let so = self.so;
        let per_cell = self.per_cell;
        if per_cell == 0 {
            return;
        }
        let mut next_cell = 0;
        for k in 0..self.object_words {
            if from[k] == to[k] {
                continue;
            }
            let first = (k * 32 / per_cell).max(next_cell);
            let last = ((k * 32 + 31) / per_cell).min(self.cells - 1);
            for i in first..=last {
                let cell = &mut objects[i * so..(i + 1) * so];
                cell.copy_from_slice(&self.base[i * so..(i + 1) * so]);
                let mut at = i * per_cell;
                for l in &self.layers {
                    let code = get_bits(to, at, l.bits) as usize;
                    at += l.bits as usize;
                    if code != 0 {
                        if let Some(&id) = l.ids.get(code - 1) {
                            cell[id / 64] |= 1 << (id % 64);
                        }
                    }
                }
                marked[i / 64] |= 1 << (i % 64);
            }
            next_cell = last + 1;
        }
    }

    /// Whether a packed state is won.
    #[inline]
    pub(crate) fn won(&self, s: &[u32]) -> bool {
        s[self.object_words] != 0
    }
}

/// Writes the low `n` bits of `v` (`n` at most 32) at bit `at` of the little-endian bit
/// stream `out` (bit `b` is bit `b % 32` of word `b / 32`).
#[inline]
fn put_bits(out: &mut [u32], at: usize, n: u32, v: u64) {
    let (k, shift) = (at / 32, (at % 32) as u32);
    let mask = ((1u64 << n) - 1) << shift;
    let lo = out[k] as u64 | (out.get(k + 1).map_or(0, |&w| w as u64) << 32);
    let new = (lo & !mask) | ((v << shift) & mask);
    out[k] = new as u32;
    if shift + n > 32 {
        out[k + 1] = (new >> 32) as u32;
    }
}

/// The `n` bits (at most 32) at bit `at` of the bit stream `s` (see [`put_bits`]).
#[inline]
fn get_bits(s: &[u32], at: usize, n: u32) -> u64 {
    let (k, shift) = (at / 32, (at % 32) as u32);
    let lo = s[k] as u64 | (s.get(k + 1).map_or(0, |&w| w as u64) << 32);
    (lo >> shift) & ((1u64 << n) - 1)
}

/// What became of the inputs tried in a search, beyond the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct InputCounts {
    /// Inputs simulated (every input tried from every expanded state).
    pub simulated: u64,
    /// Inputs that changed nothing (a wall, a `cancel`, `require_player_movement`).
    pub unchanged: u64,
    /// Inputs whose turn ran `restart`.
    pub restarts: u64,
    /// Inputs whose again turns never settled.
    pub stuck: u64,
    /// Again turns run.
    pub again_turns: u64,
    /// Moves to dead positions, dropped (see [`PsSpace::is_dead`]).
    pub dead: u64,
}

/// A level of a PuzzleScript game as a [`Space`].
pub struct PsSpace<'g> {
    game: &'g Game,
    machine: Machine<'g>,
    packing: Packing,
    start: Vec<u32>,
    inputs: usize,
    /// The level of the state being expanded (the machine holds it, or what the last
    /// input's turns made of it on the cells they touched).
    cur: Vec<u64>,
    /// The state `cur` unpacks (empty before the first expansion).
    parent: Vec<u32>,
    /// Two objects on one layer of a cell after some turn (the search cannot store it).
    pub(crate) overlap: Option<Overlap>,
    /// What became of the inputs tried.
    pub counts: InputCounts,
    /// The lower bound for A*, or why there is none.
    bound: Result<Bound, String>,
    /// The dead-position test, where the win conditions allow one.
    dead: Option<super::dead::Dead>,
    /// The test of positions where the player can no longer reach an X it must
    /// remove, where the rules allow one.
    cutoff: Option<super::dead::Cutoff>,
    /// Whether successors that are dead positions are dropped.
    prune: bool,
    /// Why no position of the level can ever be won, when the rules show it before any
    /// search (see [`never_won`]): then no state has successors while pruning is on.
    hopeless: Option<String>,
    /// The last expansion's successors (packed, in order) and their bounds, read from
    /// the machine's level right after each turn (see [`Bound::estimate_live`]), for
    /// [`Space::estimate_next`].
    next_states: Vec<u32>,
    next_h: Vec<u32>,
}

impl<'g> PsSpace<'g> {
    /// The space of entry `index` of `game` as it starts (after
    /// `run_rules_on_level_start` and its again turns); `None` when the entry is not a
    /// level.
    pub fn new(game: &'g Game, index: usize) -> Option<PsSpace<'g>> {
        if !matches!(game.entries.get(index), Some(super::Entry::Level { .. })) {
            return None;
        }
        let session = Session::new(game, index, OnWin::Stop)?;
        let mut machine = session.machine;
        machine.keep_undo = false;
        machine.backups.clear();
        let objects = machine.objects.clone();
        let packing = Packing::new(&game.compiled, &objects);
        let mut start = vec![0; packing.words()];
        // A level can be won as it loads (its level-start rules win it): then it is
        // solved by no input, as PuzzleScript's player has it.
        let won = machine.winning;
        let overlap = packing.pack(&objects, won, &mut start).err();
        let inputs = if game.compiled.flags.noaction { 4 } else { 5 };
        let reach = super::dead::Reach::new(&game.compiled, &objects, machine.width);
        let bound = Bound::derive(&game.compiled, &packing, &reach);
        let mut dead = super::dead::Dead::derive(&game.compiled, &reach);
        let cutoff = super::dead::Cutoff::derive(&game.compiled, &reach);
        let hopeless = never_won(&game.compiled).map(str::to_string).or_else(|| {
            let d = dead.as_mut()?;
            (!won && d.is_dead(&objects))
                .then(|| format!("the level starts in a dead position ({})", d.description))
        });
        Some(PsSpace {
            game,
            machine,
            packing,
            start,
            inputs,
            cur: objects,
            parent: vec![],
            overlap,
            counts: InputCounts::default(),
            bound,
            dead,
            cutoff,
            prune: true,
            hopeless,
            next_states: vec![],
            next_h: vec![],
        })
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The level's width and height.
    pub fn size(&self) -> (usize, usize) {
        (self.machine.width, self.machine.height)
    }

    /// A state's objects, `so` words per cell, column-major (as the engine keeps them).
    pub(crate) fn objects(&self, s: &[u32]) -> Vec<u64> {
        let mut out = vec![0; self.packing.base.len()];
        self.packing.unpack(s, &mut out);
        out
    }

    /// Why the search cannot store some level a turn made (two objects on one layer of
    /// a cell), if that happened.
    pub fn overlap(&self) -> Option<super::solve::PsSolveError> {
        let rows = self.machine.height.max(1);
        self.overlap.map(|o| super::solve::PsSolveError::Overlap {
            layer: o.layer,
            row: o.cell % rows,
            col: o.cell / rows,
        })
    }

    /// A state drawn in the game's legend characters, row by row.
    pub fn draw(&self, s: &[u32]) -> String {
        let (w, h) = self.size();
        super::solve::draw(&self.game.compiled, w, h, &self.objects(s))
    }

    /// Whether a state is won.
    pub fn won(&self, s: &[u32]) -> bool {
        self.packing.won(s)
    }

    /// How many collision layers a state stores, and bits per cell.
    pub fn stored_layers(&self) -> (usize, u32) {
        (
            self.packing.layers.len(),
            self.packing.layers.iter().map(|l| l.bits).sum(),
        )
    }

    /// The lower bound A* is guided by, or why it runs without one.
    pub fn bound_description(&self) -> String {
        match &self.bound {
            Ok(_) => "the inputs the objects a win condition counts need to reach their cells, one cell a turn around what never moves (the farthest for `all`, the nearest for `some`), and for `no X` the Xs left over the most one input can remove (the rules remove Xs only beside a moving player), at least one".into(),
            Err(why) => format!("none: {why}"),
        }
    }

    /// Whether successors that are dead positions (from which no input sequence wins,
    /// see [`PsSpace::is_dead`]) are dropped: on unless turned off here, as a check does
    /// to see the whole space.
    pub fn set_pruning(&mut self, on: bool) {
        self.prune = on;
    }

    /// Whether state `s` is a dead position as the rules prove it: a win condition `all`
    /// or `some X on Y` can no longer hold, because the movers it needs cannot reach the
    /// static cells it needs them on (moves checked against every rule that gives them
    /// movement). `false` where the game allows no such test.
    pub fn is_dead(&mut self, s: &[u32]) -> bool {
        if self.packing.won(s) {
            return false;
        }
        let objects = self.objects(s);
        if self.dead.as_mut().is_some_and(|d| d.is_dead(&objects)) {
            return true;
        }
        let Some(cut) = self.cutoff.as_mut() else {
            return false;
        };
        let mut occ = super::engine::occupancy::Occupancy::default();
        let c = &self.game.compiled;
        occ.load(&objects, objects.len() / c.so.max(1), c.so, c.sm);
        cut.is_dead(|o| occ.of(o))
    }

    /// Why no position of the level can ever be won, when the rules show it without a
    /// search (a search then stops at the start).
    pub fn hopeless(&self) -> Option<&str> {
        self.hopeless.as_deref()
    }

    /// The dead positions the search drops, in words, or `none`.
    pub fn pruning_description(&self) -> String {
        if let Some(why) = &self.hopeless {
            return format!("every position: {why}");
        }
        let said: Vec<&str> = (self.dead.iter().map(|d| d.description.as_str()))
            .chain(self.cutoff.iter().map(|d| d.description.as_str()))
            .collect();
        if said.is_empty() {
            return "none".into();
        }
        said.join("; and ")
    }

    /// Whether a lower bound was derived.
    pub fn has_bound(&self) -> bool {
        self.bound.is_ok()
    }

    /// Plays input `k` of [`SEARCH_INPUTS`] from the level in `self.cur`; the machine
    /// is left with the level after the turn. `Some(won)` when the input is a move.
    fn play(&mut self, k: usize) -> Option<bool> {
        let m = &mut self.machine;
        // The level differs from `cur` only where the last input's turns wrote.
        m.reset_touched_to(&self.cur);
        let writes = m.writes;
        m.process_input(Some(SEARCH_INPUTS[k].movement()), false, false);
        Session::dismiss(m);
        let (n, settled) = m.run_again(AGAIN_CAP, Session::dismiss);
        self.counts.simulated += 1;
        self.counts.again_turns += n as u64;
        if m.winning {
            return Some(true);
        }
        if !settled {
            self.counts.stuck += 1;
            return None;
        }
        if m.restarted {
            self.counts.restarts += 1;
            return None;
        }
        if m.writes == writes || m.touched_equal(&self.cur) {
            self.counts.unchanged += 1;
            return None;
        }
        Some(false)
    }
}

impl Space for PsSpace<'_> {
    fn words(&self) -> usize {
        self.packing.words()
    }

    fn radix(&self) -> Vec<u32> {
        self.packing.radix()
    }

    fn start(&self) -> Vec<u32> {
        self.start.clone()
    }

    #[inline]
    fn is_goal(&self, s: &[u32]) -> bool {
        self.packing.won(s)
    }

    fn estimate(&self, s: &[u32]) -> u32 {
        if self.packing.won(s) {
            return 0;
        }
        match &self.bound {
            Ok(b) => b.estimate(&self.packing, s),
            Err(_) => 0,
        }
    }

    fn estimate_next(&self, _from: &[u32], _h_from: u32, to: &[u32]) -> u32 {
        let words = self.packing.words();
        let at = (self.next_states.chunks_exact(words.max(1))).position(|t| t == to);
        match at {
            Some(k) => {
                let h = self.next_h[k];
                debug_assert_eq!(h, self.estimate(to), "the live bound differs");
                h
            }
            None => self.estimate(to),
        }
    }

    fn set_deadline(&mut self, deadline: Option<web_time::Instant>) {
        // Checked inside turns too: one input of a hostile game (thousands of rule
        // groups, a huge level, long again chains) can run for a long time.
        self.machine.watch = deadline.map(|d| {
            Box::new(super::engine::watch::Watch::new(crate::search::Budget {
                deadline: Some(d),
                ..crate::search::Budget::default()
            }))
        });
    }

    fn successors(&mut self, s: &[u32], out: &mut Successors) {
        out.states.clear();
        out.actions.clear();
        out.work = 0;
        self.next_states.clear();
        self.next_h.clear();
        if self.packing.won(s) || (self.prune && self.hopeless.is_some()) {
            return;
        }
        let words = self.packing.words();
        if self.parent.len() == words {
            // The level the last expansion started from, brought to this one where
            // their packings differ; the cells it changed are put back with those the
            // last input's turns wrote.
            self.packing
                .unpack_diff(&self.parent, s, &mut self.cur, &mut self.machine.touched);
        } else {
            self.packing.unpack(s, &mut self.cur);
            self.machine.reset_to(&self.cur);
        }
        self.parent.clear();
        self.parent.extend_from_slice(s);
        let again_before = self.counts.again_turns;
        for k in 0..self.inputs {
            let played = self.play(k);
            if self
                .machine
                .watch
                .as_ref()
                .is_some_and(|w| w.cutoff.is_some())
            {
                // Past the deadline inside a turn: its level means nothing. Report more
                // work than any budget check skips, so the search stops before using it.
                out.states.clear();
                out.actions.clear();
                out.work = 1 << 40;
                return;
            }
            let Some(won) = played else { continue };
            if !won
                && self.prune
                && (self.dead.as_mut().is_some_and(|d| {
                    let m = &self.machine;
                    d.is_dead_live(&m.objects, &m.occ.stamp, m.occ.version)
                }) || self.cutoff.as_mut().is_some_and(|d| {
                    let occ = &self.machine.occ;
                    d.is_dead(|o| occ.of(o))
                }))
            {
                self.counts.dead += 1;
                continue;
            }
            let at = out.states.len();
            out.states.resize(at + words, 0);
            // The parent's packing, with the cells the turns wrote packed again.
            out.states[at..].copy_from_slice(s);
            match self.packing.repack(
                &self.machine.objects,
                &self.cur,
                &self.machine.touched,
                won,
                &mut out.states[at..],
            ) {
                Ok(()) => {
                    out.actions.push(action_of(k));
                    if let Ok(b) = &self.bound {
                        let h = if won {
                            0
                        } else {
                            b.estimate_live(&self.machine.occ)
                        };
                        self.next_states.extend_from_slice(&out.states[at..]);
                        self.next_h.push(h);
                    }
                }
                Err(o) => {
                    self.overlap.get_or_insert(o);
                    out.states.truncate(at);
                }
            }
        }
        // Again turns are work: budgets are checked as often in games that run many.
        out.work = self.counts.again_turns - again_before;
    }
}

/// Why no level of `c` can ever be won, when that needs no search: PuzzleScript wins a
/// level when a rule queues `win` or when every win condition holds, and a game with no
/// win conditions never has them all hold (its engine checks none and wins nothing).
pub(crate) fn never_won(c: &Compiled) -> Option<&'static str> {
    (c.wins.is_empty() && !super::dead::queues_win(c))
        .then_some("the game has no win conditions and no rule queues `win`")
}

/// A lower bound on the inputs still needed, derived from the win conditions where the
/// rules allow one (see [`Bound::derive`]).
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    conds: Vec<CondBound>,
}

/// One `all X on Y` or `some X on Y` condition's part of a [`Bound`].
#[derive(Clone, Debug)]
struct CondBound {
    /// `all` (the farthest counts) or `some` (the nearest).
    all: bool,
    /// How the distance is measured.
    kind: CondKind,
}

/// Which side of a condition moves.
#[derive(Clone, Debug)]
enum CondKind {
    /// The Xs move to the Ys, which never change.
    Movers {
        /// Per stored layer, per code: the distance map (index into `maps`) of that
        /// object when it is an X.
        codes: Vec<Vec<Option<usize>>>,
        /// Per layer an X is on: inputs from each cell to the nearest Y (`u32::MAX`:
        /// none).
        maps: Vec<Vec<u32>>,
        /// The Xs on layers not stored (they never move): their part, fixed.
        fixed: Option<u32>,
        /// Every X object and its distance map, for [`Bound::estimate_live`].
        ids: Vec<(usize, usize)>,
    },
    /// `no X`: each turn removes at most `per_player` Xs per cell holding a player
    /// object (see [`count_rate`]), so the Xs left need that many turns.
    Count {
        /// Per stored layer, per code: whether that object is an X, and whether it is
        /// one of the player's objects.
        codes: Vec<Vec<(bool, bool)>>,
        /// Xs removed per player cell and turn at most (0: never any).
        per_player: u32,
        /// The Xs and the player cells on layers not stored (they never change).
        fixed: (u32, u32),
        /// The X objects and the player's, for [`Bound::estimate_live`].
        xs: Vec<usize>,
        players: Vec<usize>,
    },
    /// The Xs never change; Ys move onto them.
    Anchors {
        /// Per stored layer, per code: whether that object is a Y.
        codes: Vec<Vec<bool>>,
        /// Per cell, per X cell (`i * anchors + t`): inputs from the cell to that X
        /// cell, for a Y (one cell's row is contiguous, so a Y's part is one pass).
        rows: Vec<u32>,
        anchors: usize,
        /// Per X cell, the nearest Y on a layer not stored (it never moves).
        fixed: Vec<u32>,
        /// The Y objects, for [`Bound::estimate_live`].
        ys: Vec<usize>,
    },
}

impl Bound {
    /// The bound for a level of `c` packed by `p`, or why there is none.
    ///
    /// It exists when every win condition is `no ...` or `all/some X on Y` with X and Y
    /// objects or properties, no rule queues `again` or `win` (an input is one turn, and
    /// only the conditions win), no rule creates or destroys an X (so an X changes cell
    /// only by moving, one cell a turn at most), and no Y ever changes (its layers are
    /// never stored). Then an X needs at least as many inputs as the moves it needs to
    /// reach the nearest Y, each one that some rule can give it there (see
    /// [`Reach::allowed`](super::dead::Reach::allowed): a crate only pushed needs room
    /// for its pusher), and a level not yet won needs one input more than nothing: the
    /// bound is the largest (`all`) or smallest (`some`) such distance, at least 1. It is
    /// consistent (an input changes it by at most one), and a state where an X can reach
    /// no Y is dead.
    pub(crate) fn derive(
        c: &Compiled,
        p: &Packing,
        reach: &super::dead::Reach<'_>,
    ) -> Result<Bound, String> {
        for g in c.groups.iter().chain(&c.late_groups) {
            for r in &g.rules {
                for cmd in &r.commands {
                    match cmd {
                        Cmd::Again => {
                            return Err(format!("the rule on line {} queues `again`", r.line))
                        }
                        Cmd::Win => {
                            return Err(format!("the rule on line {} queues `win`", r.line))
                        }
                        _ => {}
                    }
                }
            }
        }
        if c.wins.is_empty() {
            return Err("the game has no win conditions".into());
        }
        let n = c.objects.len();
        let changed = &reach.changed;
        let start = reach.start;
        let stored: Vec<bool> = {
            let mut v = vec![false; c.layers];
            for l in &p.layers {
                v[l.layer] = true;
            }
            v
        };
        let so = c.so;
        let mut conds = vec![];
        for w in &c.wins {
            if w.quantifier < 0 {
                // `no X` (not `no X on Y`: an X can leave a Y by moving) counts when the
                // rules bound how many Xs a turn removes; otherwise it is left out, which
                // keeps the bound a bound.
                let whole = (0..n).all(|id| has_bit(&w.on.0, id));
                if whole && !w.what.1 && !w.on.1 {
                    let xs: Vec<usize> = (0..n).filter(|&id| has_bit(&w.what.0, id)).collect();
                    if let Ok(per_player) = count_rate(c, &xs) {
                        conds.push(CondBound {
                            all: true,
                            kind: count_kind(c, p, &xs, per_player, &stored),
                        });
                    }
                }
                continue;
            }
            if w.what.1 || w.on.1 {
                return Err("a win condition names an aggregate".into());
            }
            let xs: Vec<usize> = (0..n).filter(|&id| has_bit(&w.what.0, id)).collect();
            let ys: Vec<usize> = (0..n).filter(|&id| has_bit(&w.on.0, id)).collect();
            if ys.len() == n {
                // `some X` / `all X` without `on`.
                continue;
            }
            let all = w.quantifier > 0;
            let cell = |i: usize| &start[i * so..(i + 1) * so];
            // A side never changes when no rule creates, destroys or moves its objects
            // (others of their layers may change: a goal beside doors that open).
            let static_x = xs.iter().all(|&x| reach.statics[x]);
            let static_y = ys.iter().all(|&y| reach.statics[y]);
            let kind = if static_y {
                if let Some(&x) = xs.iter().find(|&&x| changed[x]) {
                    return Err(format!(
                        "a rule creates or destroys {}, which a win condition counts",
                        c.objects[x].name
                    ));
                }
                let targets: Vec<usize> = (0..p.cells)
                    .filter(|&i| any_common(&w.on.0, cell(i)))
                    .collect();
                let mut maps = vec![];
                let mut map_of_layer: Vec<Option<usize>> = vec![None; c.layers];
                for &x in &xs {
                    let l = c.objects[x].layer;
                    if map_of_layer[l].is_none() {
                        map_of_layer[l] = Some(maps.len());
                        let on: Vec<usize> = xs
                            .iter()
                            .copied()
                            .filter(|&id| c.objects[id].layer == l)
                            .collect();
                        maps.push(reach.distances_to(&reach.allowed(l, &on), &targets));
                    }
                }
                let codes = p.per_code(|id| {
                    xs.contains(&id)
                        .then(|| map_of_layer[c.objects[id].layer])
                        .flatten()
                });
                let mut fixed: Option<u32> = None;
                for &x in &xs {
                    let l = c.objects[x].layer;
                    if stored[l] {
                        continue;
                    }
                    let Some(m) = map_of_layer[l] else { continue };
                    for (i, &d) in maps[m].iter().enumerate() {
                        if has_bit(&p.base[i * so..(i + 1) * so], x) {
                            fixed = Some(match fixed {
                                None => d,
                                Some(f) if all => f.max(d),
                                Some(f) => f.min(d),
                            });
                        }
                    }
                }
                let ids = xs
                    .iter()
                    .filter_map(|&x| Some((x, map_of_layer[c.objects[x].layer]?)))
                    .collect();
                CondKind::Movers {
                    codes,
                    maps,
                    fixed,
                    ids,
                }
            } else if static_x {
                if let Some(&y) = ys.iter().find(|&&y| changed[y]) {
                    return Err(format!(
                        "a rule creates or destroys {}, which a win condition counts",
                        c.objects[y].name
                    ));
                }
                let layer = c.objects[ys[0]].layer;
                if ys.iter().any(|&y| c.objects[y].layer != layer) {
                    return Err("a win condition counts objects on several layers".into());
                }
                let anchors: Vec<usize> = (0..p.cells)
                    .filter(|&i| any_common(&w.what.0, cell(i)))
                    .collect();
                let allowed = reach.allowed(layer, &ys);
                let maps: Vec<Vec<u32>> = anchors
                    .iter()
                    .map(|&t| reach.distances_to(&allowed, &[t]))
                    .collect();
                let codes = p.per_code(|id| ys.contains(&id));
                let fixed = maps
                    .iter()
                    .map(|m| {
                        (0..p.cells)
                            .filter(|&i| any_common(&w.on.0, &p.base[i * so..(i + 1) * so]))
                            .map(|i| m[i])
                            .min()
                            .unwrap_or(u32::MAX)
                    })
                    .collect();
                let anchors = maps.len();
                let mut rows = vec![u32::MAX; p.cells * anchors];
                for (t, m) in maps.iter().enumerate() {
                    for (i, &d) in m.iter().enumerate() {
                        rows[i * anchors + t] = d;
                    }
                }
                CondKind::Anchors {
                    codes,
                    rows,
                    anchors,
                    fixed,
                    ys: ys.clone(),
                }
            } else {
                let y = ys.iter().find(|&&y| stored[c.objects[y].layer]).copied();
                return Err(format!(
                    "both sides of a win condition change during play ({})",
                    y.map_or(String::new(), |y| c.objects[y].name.clone())
                ));
            };
            conds.push(CondBound { all, kind });
        }
        if conds.is_empty() {
            return Err(
                "no win condition is `all X on Y`, `some X on Y`, or `no X` with the Xs removed only beside a moving player"
                    .into(),
            );
        }
        Ok(Bound { conds })
    }

    /// The bound for packed state `s` of `p` (not won): `u32::MAX` when the win
    /// conditions can no longer all hold.
    fn estimate(&self, p: &Packing, s: &[u32]) -> u32 {
        let mut acc: Vec<Option<u32>> = self
            .conds
            .iter()
            .map(|c| match &c.kind {
                CondKind::Movers { fixed, .. } => *fixed,
                CondKind::Anchors { .. } | CondKind::Count { .. } => None,
            })
            .collect();
        // Per `no X` condition: the Xs and the player cells counted so far.
        let mut counts: Vec<(u32, u32)> = self
            .conds
            .iter()
            .map(|c| match &c.kind {
                CondKind::Count { fixed, .. } => *fixed,
                _ => (0, 0),
            })
            .collect();
        let mut best: Vec<Vec<u32>> = self
            .conds
            .iter()
            .map(|c| match &c.kind {
                CondKind::Anchors { fixed, .. } => fixed.clone(),
                CondKind::Movers { .. } | CondKind::Count { .. } => vec![],
            })
            .collect();
        let mut bits: u64 = 0;
        let mut have = 0u32;
        let mut k = 0;
        for i in 0..p.cells {
            for (li, l) in p.layers.iter().enumerate() {
                if have < l.bits {
                    bits |= (s[k] as u64) << have;
                    k += 1;
                    have += 32;
                }
                let code = (bits & ((1u64 << l.bits) - 1)) as usize;
                bits >>= l.bits;
                have -= l.bits;
                if code == 0 {
                    continue;
                }
                let parts = self.conds.iter().zip(acc.iter_mut()).zip(best.iter_mut());
                for (((cb, a), b), n) in parts.zip(counts.iter_mut()) {
                    match &cb.kind {
                        CondKind::Count { codes, .. } => {
                            if let Some(&(x, player)) = codes[li].get(code - 1) {
                                n.0 += x as u32;
                                n.1 += player as u32;
                            }
                        }
                        CondKind::Movers { codes, maps, .. } => {
                            if let Some(Some(m)) = codes[li].get(code - 1) {
                                let d = maps[*m][i];
                                *a = Some(match *a {
                                    None => d,
                                    Some(f) if cb.all => f.max(d),
                                    Some(f) => f.min(d),
                                });
                            }
                        }
                        CondKind::Anchors {
                            codes,
                            rows,
                            anchors,
                            ..
                        } => {
                            if codes[li].get(code - 1).copied().unwrap_or(false) {
                                let row = &rows[i * anchors..(i + 1) * anchors];
                                for (b, &d) in b.iter_mut().zip(row) {
                                    *b = (*b).min(d);
                                }
                            }
                        }
                    }
                }
            }
        }
        self.combine(acc, best, counts)
    }

    /// The bound from each condition's part: the farthest (`all`) or nearest X's
    /// distance, the nearest Y per X cell, the Xs and player cells counted.
    fn combine(&self, acc: Vec<Option<u32>>, best: Vec<Vec<u32>>, counts: Vec<(u32, u32)>) -> u32 {
        let mut h = 1;
        for (((cb, a), b), n) in self.conds.iter().zip(acc).zip(best).zip(counts) {
            let part = match &cb.kind {
                CondKind::Count { per_player, .. } => match n {
                    (0, _) => None,
                    // No player, or no rule removes an X: the Xs stay.
                    (_, 0) => return u32::MAX,
                    _ if *per_player == 0 => return u32::MAX,
                    (x, players) => Some(x.div_ceil(players * per_player)),
                },
                CondKind::Movers { .. } => a,
                CondKind::Anchors { .. } if cb.all => b.iter().copied().max(),
                CondKind::Anchors { .. } => b.iter().copied().min(),
            };
            match part {
                Some(d) => h = h.max(d),
                // `some X on Y` with no X left can never hold.
                None if !cb.all => return u32::MAX,
                None => {}
            }
        }
        h
    }

    /// [`Bound::estimate`] of the level a machine holds (not won), read from where its
    /// objects are: the same value as from the packed state, every object counted
    /// whether its layer is stored or not, in a few bitset scans instead of decoding
    /// every cell.
    pub(crate) fn estimate_live(&self, occ: &super::engine::occupancy::Occupancy) -> u32 {
        let cells = |o: usize| super::dead::bits(occ.of(o));
        let count = |o: usize| occ.of(o).iter().map(|w| w.count_ones()).sum::<u32>();
        let mut acc: Vec<Option<u32>> = vec![None; self.conds.len()];
        let mut best = vec![vec![]; self.conds.len()];
        let mut counts = vec![(0, 0); self.conds.len()];
        for (k, cb) in self.conds.iter().enumerate() {
            match &cb.kind {
                CondKind::Movers { maps, ids, .. } => {
                    for &(o, m) in ids {
                        for i in cells(o) {
                            let d = maps[m][i];
                            acc[k] = Some(match acc[k] {
                                None => d,
                                Some(f) if cb.all => f.max(d),
                                Some(f) => f.min(d),
                            });
                        }
                    }
                }
                CondKind::Count { xs, players, .. } => {
                    counts[k] = (
                        xs.iter().map(|&o| count(o)).sum(),
                        players.iter().map(|&o| count(o)).sum(),
                    );
                }
                CondKind::Anchors {
                    rows, anchors, ys, ..
                } => {
                    let b = &mut best[k];
                    b.resize(*anchors, u32::MAX);
                    for &o in ys {
                        for i in cells(o) {
                            let row = &rows[i * anchors..(i + 1) * anchors];
                            for (b, &d) in b.iter_mut().zip(row) {
                                *b = (*b).min(d);
                            }
                        }
                    }
                }
            }
        }
        self.combine(acc, best, counts)
    }
}

/// How many Xs (objects `xs`) one input can remove per cell holding a player object, at
/// most, when the rules let that be bounded; `Ok(0)` when no rule removes one.
///
/// The argument, each step checked here (the caller has checked that no rule queues
/// `again` or `win`, so an input is one turn):
/// - the player's objects share one layer, no rule is rigid or random, no rule gives a
///   player object a movement its pattern does not require in that cell, and no rule
///   writes a player object where it requires none while leaving a movement a rule may
///   have given there: a player object then moves only where the input moved one, on
///   the player's cells at the start of the turn, in the input's direction, and rules
///   can only take that away (other objects may be pushed: they never count);
/// - no rule adds a cell holding a player object (per application, the cells where it
///   writes one without requiring one there are no more than those where it requires one
///   and removes it), so the player cells never grow, from turn to turn either;
/// - every rule that may remove an X is an early rule (movements are gone by the late
///   ones) whose row requires a moving player object in some cell, with the X's cell in
///   the same row at a fixed distance from it (no `...` between); a rule needing two
///   directions on one layer, or a movement on a layer no rule or input ever moves,
///   never matches.
///
/// So every X removed in a turn is in a cell at one of the offsets, for the input's
/// direction, of the rules' X cells from their moving cells, from a player cell; each
/// such cell loses at most one X per layer the Xs are on. Movement itself never removes
/// an object (a move into an occupied layer is refused).
fn count_rate(c: &Compiled, xs: &[usize]) -> Result<u32, String> {
    let offsets = removal_offsets(c, xs)?;
    let mut layers: Vec<usize> = xs.iter().map(|&id| c.objects[id].layer).collect();
    layers.sort_unstable();
    layers.dedup();
    let widest = offsets.iter().map(Vec::len).max().unwrap_or(0);
    Ok((widest * layers.len()) as u32)
}

/// Per input direction (by movement bit, as [`count_rate`] argues): the offsets
/// `(dx, dy)` from a moving player cell at the start of a turn of the cells where a rule
/// may remove an X (objects `xs`); `Err` where [`count_rate`]'s argument fails.
pub(crate) fn removal_offsets(c: &Compiled, xs: &[usize]) -> Result<Vec<Vec<(i64, i64)>>, String> {
    let Some(&first) = c.player_ids.first() else {
        return Err("the game has no player".into());
    };
    let pl = c.objects[first].layer;
    if c.player_ids.iter().any(|&id| c.objects[id].layer != pl) {
        return Err("the player's objects are on several layers".into());
    }
    let is_player = |id: usize| c.player_ids.contains(&id);
    let n = c.objects.len();
    // Whether pattern `p` requires a player object in its cell.
    let needs_player = |p: &CellPattern| {
        c.player_ids.iter().any(|&id| has_bit(&p.present, id))
            || p.any.iter().any(|a| {
                let ids: Vec<usize> = (0..n).filter(|&id| has_bit(a, id)).collect();
                !ids.is_empty() && ids.iter().all(|&id| is_player(id))
            })
    };
    let objects_on = |m: &[u64], l: usize| {
        let m = m.to_vec();
        (0..n).filter(move |&id| c.objects[id].layer == l && has_bit(&m, id))
    };
    // Per layer: whether a rule gives movement on it where its pattern requires none.
    let mut given = vec![false; c.layers];
    for r in c.groups.iter().chain(&c.late_groups).flat_map(|g| &g.rules) {
        for item in r.rows.iter().flatten() {
            let Item::Cell(p) = item else { continue };
            let Some(x) = &p.replace else { continue };
            for (l, g) in given.iter_mut().enumerate() {
                *g |= get_layer(&x.mov_set, l) & !get_layer(&p.moving, l) != 0;
            }
        }
    }
    // Per input direction bit: the offsets (dx, dy) of X cells from moving cells.
    let mut offsets: Vec<Vec<(i64, i64)>> = vec![vec![]; 5];
    let groups = c.groups.iter().map(|g| (g, false));
    for (g, late) in groups.chain(c.late_groups.iter().map(|g| (g, true))) {
        for r in &g.rules {
            if r.rigid || r.random {
                return Err(format!("the rule on line {} is rigid or random", r.line));
            }
            let mut net_players = 0i64;
            let mut never = false;
            for item in r.rows.iter().flatten() {
                let Item::Cell(p) = item else { continue };
                for (l, &moved) in given.iter().enumerate() {
                    let m = get_layer(&p.moving, l);
                    if m != 0 && ((l != pl && !moved) || m.count_ones() > 1) {
                        never = true;
                    }
                }
                let Some(x) = &p.replace else { continue };
                if x.random_entity.iter().any(|&w| w != 0) || x.random_dir.iter().any(|&w| w != 0) {
                    return Err(format!("the rule on line {} is random", r.line));
                }
                for (l, &moved) in given.iter().enumerate() {
                    let fresh = get_layer(&x.mov_set, l) & !get_layer(&p.moving, l) != 0;
                    let player_after = if objects_on(&x.set, l).next().is_some() {
                        objects_on(&x.set, l).any(is_player)
                    } else {
                        !objects_on(&p.present, l).any(|id| !is_player(id))
                    };
                    if fresh && player_after {
                        return Err(format!("the rule on line {} moves a player", r.line));
                    }
                    // A player object written where none was required takes the
                    // movement left on its layer, unless that layer never has any but
                    // the input's (on the player's cells) or the rule clears it.
                    let kept = get_layer(&x.mov_set, l) != 0
                        || (get_layer(&x.mov_clear, l) != LAYER_BITS && moved);
                    if objects_on(&x.set, l).any(is_player) && !needs_player(p) && kept {
                        return Err(format!("the rule on line {} moves a player", r.line));
                    }
                }
                let writes_player = c.player_ids.iter().any(|&id| has_bit(&x.set, id));
                if writes_player && !needs_player(p) {
                    net_players += 1;
                }
                let clears_all = c.player_ids.iter().all(|&id| has_bit(&x.clear, id));
                if needs_player(p) && clears_all && !writes_player {
                    net_players -= 1;
                }
            }
            if net_players > 0 {
                return Err(format!("the rule on line {} can add a player", r.line));
            }
            if never {
                continue;
            }
            let (dx, dy) = match r.dir {
                UP => (0, -1),
                DOWN => (0, 1),
                LEFT => (-1, 0),
                _ => (1, 0),
            };
            for row in &r.rows {
                for (ci, item) in row.iter().enumerate() {
                    let Item::Cell(p) = item else { continue };
                    let Some(x) = &p.replace else { continue };
                    let filled = filled_layers(c, p);
                    if !xs.iter().any(|&id| writes(c, p, x, &filled, id)) {
                        continue;
                    }
                    if late {
                        return Err(format!("the late rule on line {} removes an X", r.line));
                    }
                    // The nearest cell of the row with a movement on the player's layer
                    // and no `...` between.
                    let mover = (0..row.len())
                        .filter(|&t| {
                            let (a, b) = (t.min(ci), t.max(ci));
                            !row[a..=b].iter().any(|i| matches!(i, Item::Ellipsis))
                        })
                        .filter_map(|t| match &row[t] {
                            Item::Cell(q) => {
                                let m = get_layer(&q.moving, pl);
                                (m != 0 && needs_player(q)).then_some((t, m))
                            }
                            Item::Ellipsis => None,
                        })
                        .min_by_key(|&(t, _)| t.abs_diff(ci));
                    let Some((t, m)) = mover else {
                        return Err(format!(
                            "the rule on line {} removes an X away from a moving player",
                            r.line
                        ));
                    };
                    let d = ci as i64 - t as i64;
                    let o = (d * dx, d * dy);
                    let slot = &mut offsets[m.trailing_zeros() as usize];
                    if !slot.contains(&o) {
                        slot.push(o);
                    }
                }
            }
        }
    }
    Ok(offsets)
}

/// The [`CondKind::Count`] of a `no X` condition over objects `xs` on packing `p`.
fn count_kind(
    c: &Compiled,
    p: &Packing,
    xs: &[usize],
    per_player: u32,
    stored: &[bool],
) -> CondKind {
    let codes = p.per_code(|id| (xs.contains(&id), c.player_ids.contains(&id)));
    let so = c.so;
    let mut fixed = (0, 0);
    for i in 0..p.cells {
        let cell = &p.base[i * so..(i + 1) * so];
        for id in 0..c.objects.len() {
            if stored[c.objects[id].layer] || !has_bit(cell, id) {
                continue;
            }
            fixed.0 += xs.contains(&id) as u32;
            fixed.1 += c.player_ids.contains(&id) as u32;
        }
    }
    CondKind::Count {
        codes,
        per_player,
        fixed,
        xs: xs.to_vec(),
        players: c.player_ids.clone(),
    }
}

/// Per object: whether it can ever be given movement: the player's objects, and those a
/// rule may leave on a layer it gives a direction (the object it writes there, else the
/// one its pattern requires there, else any of the layer's).
pub(crate) fn movers(c: &Compiled) -> Vec<bool> {
    let n = c.objects.len();
    let mut out = vec![false; n];
    for &id in &c.player_ids {
        out[id] = true;
    }
    for g in c.groups.iter().chain(&c.late_groups) {
        for r in &g.rules {
            for item in r.rows.iter().flatten() {
                let Item::Cell(p) = item else { continue };
                let Some(x) = &p.replace else { continue };
                for l in 0..c.layers {
                    if get_layer(&x.mov_set, l) == 0 && get_layer(&x.random_dir, l) == 0 {
                        continue;
                    }
                    let on = |m: &[u64]| -> Vec<usize> {
                        (0..n)
                            .filter(|&id| c.objects[id].layer == l && has_bit(m, id))
                            .collect()
                    };
                    let mut cands = on(&x.set);
                    if cands.is_empty() {
                        cands = on(&p.present);
                    }
                    if cands.is_empty() {
                        for a in &p.any {
                            let ids: Vec<usize> = (0..n).filter(|&id| has_bit(a, id)).collect();
                            if !ids.is_empty() && ids.iter().all(|&id| c.objects[id].layer == l) {
                                cands.extend(ids);
                            }
                        }
                    }
                    if cands.is_empty() {
                        cands = (0..n).filter(|&id| c.objects[id].layer == l).collect();
                    }
                    for id in cands {
                        out[id] = true;
                    }
                }
            }
        }
    }
    out
}

/// Per object: whether some rule creates or destroys it (see [`changing_layers`]).
pub(crate) fn created_or_destroyed(c: &Compiled) -> Vec<bool> {
    let n = c.objects.len();
    let mut out = vec![false; n];
    for g in c.groups.iter().chain(&c.late_groups) {
        for r in &g.rules {
            for item in r.rows.iter().flatten() {
                let Item::Cell(p) = item else { continue };
                let Some(x) = &p.replace else { continue };
                let filled = filled_layers(c, p);
                for (id, o) in out.iter_mut().enumerate() {
                    if writes(c, p, x, &filled, id) {
                        *o = true;
                    }
                }
            }
        }
    }
    out
}
