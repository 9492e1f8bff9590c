//! State stores: packed states to dense ids, with a visited set.
//!
//! A state is a fixed number of `u32` words. When the product of every word's range is
//! small, ids are mixed-radix ranks and the visited set is a dense bit array; otherwise
//! states live in an arena and a hash table maps them to sequential ids.

use hashbrown::HashTable;

/// States up to this many possible ids use dense arrays.
const DENSE_LIMIT: u64 = 1 << 26;

/// Maps states to ids and remembers which were seen.
pub enum StateStore {
    /// Ids are mixed-radix ranks; the visited set is a bit array.
    Dense(DenseStore),
    /// States live in an arena; ids are handed out in insertion order.
    Hashed(HashedStore),
    /// Ids in insertion order, found through a dense table indexed by rank: for
    /// searches that need sequential ids over a small state space.
    Indexed(IndexedStore),
}

/// An id per possible state (`u32::MAX`: not stored), and the states by id.
pub struct IndexedStore {
    dense: DenseStore,
    ids: Vec<u32>,
    arena: Arena,
}

/// States up to this many possible ids get an [`IndexedStore`] (4 bytes each).
#[cfg_attr(not(feature = "dist"), allow(dead_code))]
const INDEXED_LIMIT: u64 = 1 << 25;

/// A visited bit per possible state, for small state spaces.
pub struct DenseStore {
    /// Range of each word.
    radix: Vec<u32>,
    seen: Vec<u64>,
    len: usize,
}

/// Every state stored once, with a hash table from state to id.
///
/// Each slot keeps 32 bits of its state's hash beside the id: growing the table rehashes
/// from them without reading the states back from the arena (a cache miss per state),
/// and a lookup compares a state only when those bits agree.
pub struct HashedStore {
    arena: Arena,
    table: HashTable<(u32, u32)>,
}

/// The 32 bits of a state's hash a slot keeps.
#[inline]
fn short_hash(s: &[u32]) -> u32 {
    (hash_words(s) >> 32) as u32
}

/// The table's hash of a slot: its 32 bits spread over 64 (the table takes its tags
/// from the top bits and its buckets from the low ones).
#[inline]
fn table_hash(short: u32) -> u64 {
    let h = (short as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}

/// States by id, in pages of a power of two of states (about 4 MiB each): growing adds a
/// page and never copies, so a store of gigabytes never holds two copies of its states
/// while it grows, as a doubling vector would.
pub struct Arena {
    words: usize,
    /// States per page, as a power of two.
    shift: u32,
    pages: Vec<Box<[u32]>>,
    len: usize,
}

/// Words per arena page, at most.
const PAGE_WORDS: usize = 1 << 20;

impl Arena {
    fn new(words: usize) -> Arena {
        let per_page = (PAGE_WORDS / words.max(1)).max(1);
        Arena {
            words,
            shift: usize::BITS - 1 - per_page.leading_zeros(),
            pages: vec![],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, s: &[u32]) {
        let (page, at) = (self.len >> self.shift, self.len & ((1 << self.shift) - 1));
        if page == self.pages.len() {
            self.pages
                .push(vec![0; self.words << self.shift].into_boxed_slice());
        }
        self.pages[page][at * self.words..(at + 1) * self.words].copy_from_slice(s);
        self.len += 1;
    }

    #[inline]
    fn get(&self, id: u32) -> &[u32] {
        let id = id as usize;
        let (page, at) = (id >> self.shift, id & ((1 << self.shift) - 1));
        &self.pages[page][at * self.words..(at + 1) * self.words]
    }

    fn bytes(&self) -> usize {
        self.pages.len() * (self.words << self.shift) * 4
    }
}

impl StateStore {
    /// A store for states whose word `i` lies in `0..radix[i]`.
    pub(crate) fn new(radix: &[u32]) -> StateStore {
        let total = radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r.max(1) as u64));
        match total {
            Some(t) if t <= DENSE_LIMIT => StateStore::Dense(DenseStore {
                radix: radix.to_vec(),
                seen: vec![0; (t as usize).div_ceil(64)],
                len: 0,
            }),
            _ => StateStore::Hashed(HashedStore {
                arena: Arena::new(radix.len()),
                table: HashTable::new(),
            }),
        }
    }

    /// A hashed store: ids are handed out sequentially from 0.
    pub(crate) fn hashed(words: usize) -> StateStore {
        StateStore::Hashed(HashedStore {
            arena: Arena::new(words),
            table: HashTable::new(),
        })
    }

    /// A store whose ids are handed out sequentially from 0, for states whose word `i`
    /// lies in `0..radix[i]`: indexed by rank when the space is small, else hashed.
    /// (Used by the distributed engine.)
    #[cfg_attr(not(feature = "dist"), allow(dead_code))]
    pub(crate) fn sequential(radix: &[u32]) -> StateStore {
        let total = radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r.max(1) as u64));
        match total {
            Some(t) if t <= INDEXED_LIMIT => StateStore::Indexed(IndexedStore {
                dense: DenseStore {
                    radix: radix.to_vec(),
                    seen: vec![],
                    len: 0,
                },
                ids: vec![u32::MAX; t as usize],
                arena: Arena::new(radix.len()),
            }),
            _ => StateStore::hashed(radix.len()),
        }
    }

    /// Number of states inserted.
    pub(crate) fn len(&self) -> usize {
        match self {
            StateStore::Dense(d) => d.len,
            StateStore::Hashed(h) => h.table.len(),
            StateStore::Indexed(x) => x.dense.len,
        }
    }

    /// Bytes held, for memory statistics.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            StateStore::Dense(d) => d.seen.len() * 8,
            StateStore::Hashed(h) => h.arena.bytes() + h.table.capacity() * 9,
            StateStore::Indexed(x) => x.arena.bytes() + x.ids.len() * 4,
        }
    }

    /// Inserts a state: `Ok(id)` when new, `Err(id)` when seen before.
    #[inline]
    pub(crate) fn insert(&mut self, s: &[u32]) -> Result<u32, u32> {
        match self {
            StateStore::Dense(d) => {
                let id = d.rank(s);
                let (w, b) = (id as usize / 64, id % 64);
                if d.seen[w] >> b & 1 == 1 {
                    Err(id)
                } else {
                    d.seen[w] |= 1 << b;
                    d.len += 1;
                    Ok(id)
                }
            }
            StateStore::Hashed(h) => h.insert(s),
            StateStore::Indexed(x) => {
                let r = x.dense.rank(s) as usize;
                match x.ids[r] {
                    u32::MAX => {
                        let id = x.dense.len as u32;
                        x.ids[r] = id;
                        x.dense.len += 1;
                        x.arena.push(s);
                        Ok(id)
                    }
                    id => Err(id),
                }
            }
        }
    }

    /// The id of a state if it was inserted.
    pub(crate) fn find(&self, s: &[u32]) -> Option<u32> {
        match self {
            StateStore::Dense(d) => {
                let id = d.rank(s);
                (d.seen[id as usize / 64] >> (id % 64) & 1 == 1).then_some(id)
            }
            StateStore::Hashed(h) => {
                let short = short_hash(s);
                h.table
                    .find(table_hash(short), |&(id, x)| x == short && h.get(id) == s)
                    .map(|&(id, _)| id)
            }
            StateStore::Indexed(x) => {
                Some(x.ids[x.dense.rank(s) as usize]).filter(|&id| id != u32::MAX)
            }
        }
    }

    /// Writes state `id` into `out`.
    #[inline]
    pub(crate) fn load(&self, id: u32, out: &mut [u32]) {
        match self {
            StateStore::Dense(d) => d.unrank(id, out),
            StateStore::Hashed(h) => out.copy_from_slice(h.get(id)),
            StateStore::Indexed(x) => out.copy_from_slice(x.arena.get(id)),
        }
    }
}

impl DenseStore {
    #[inline]
    fn rank(&self, s: &[u32]) -> u32 {
        if let [w] = s {
            return *w;
        }
        let mut id: u64 = 0;
        for (w, r) in s.iter().zip(&self.radix) {
            id = id * *r as u64 + *w as u64;
        }
        id as u32
    }

    #[inline]
    fn unrank(&self, mut id: u32, out: &mut [u32]) {
        if let [w] = out {
            *w = id;
            return;
        }
        for (o, r) in out.iter_mut().zip(&self.radix).rev() {
            *o = id % r;
            id /= r;
        }
    }
}

impl HashedStore {
    fn get(&self, id: u32) -> &[u32] {
        self.arena.get(id)
    }

    fn insert(&mut self, s: &[u32]) -> Result<u32, u32> {
        let short = short_hash(s);
        let hash = table_hash(short);
        let arena = &self.arena;
        if let Some(&(id, _)) = self
            .table
            .find(hash, |&(id, x)| x == short && arena.get(id) == s)
        {
            return Err(id);
        }
        let id = self.table.len() as u32;
        self.table
            .insert_unique(hash, (id, short), |&(_, x)| table_hash(x));
        self.arena.push(s);
        Ok(id)
    }
}

/// The hash of a packed state: two words at a time through a multiply-xorshift round,
/// then the MurmurHash3 finalizer, so every input bit reaches the high bits the table's
/// tags use and the low bits its buckets use. A generic `Hash` of the slice costs a round
/// per word plus one for the length; states are short, so this is several times cheaper.
#[inline]
pub(crate) fn hash_words(s: &[u32]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = s.len() as u64;
    let mut pairs = s.chunks_exact(2);
    for p in &mut pairs {
        h = (h ^ (p[0] as u64 | (p[1] as u64) << 32)).wrapping_mul(K);
        h ^= h >> 29;
    }
    if let [w] = pairs.remainder() {
        h = (h ^ *w as u64).wrapping_mul(K);
        h ^= h >> 29;
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// Short keys with a value each, stored inline in an open-addressing table with linear
/// probing (a probe reads one slot, not a slot and then the key elsewhere), and in
/// insertion order. Made for many small keys met again and again (the backward search
/// of `heuristic/perimeter.rs`): a caller that knows a batch of keys ahead asks for
/// their slots early ([`KeyTable::prefetch`]).
pub(crate) struct KeyTable {
    words: usize,
    /// Words per slot: the key, then the value ([`KeyTable::EMPTY`] in a free slot).
    stride: usize,
    slots: Vec<u32>,
    mask: usize,
    len: usize,
    /// The keys in insertion order.
    list: Vec<u32>,
}

impl KeyTable {
    /// The value no key may hold: it marks a free slot.
    pub(crate) const EMPTY: u32 = u32::MAX;

    /// A table for keys of `words` words.
    pub(crate) fn new(words: usize) -> KeyTable {
        let cap = 1 << 12;
        KeyTable {
            words,
            stride: words + 1,
            slots: vec![Self::EMPTY; cap * (words + 1)],
            mask: cap - 1,
            len: 0,
            list: vec![],
        }
    }

    /// The hash of a key, for [`KeyTable::prefetch`] and the `_hashed` calls.
    #[inline]
    pub(crate) fn hash(key: &[u32]) -> u64 {
        hash_words(key)
    }

    /// Asks the processor for the slot where a key of hash `h` is probed first.
    #[inline]
    pub(crate) fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = (h as usize & self.mask) * self.stride;
            // SAFETY: `i` is within `slots` (the mask keeps it below the capacity), and
            // a prefetch reads nothing the program sees.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(i).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    /// The slot of `key` (hash `h`): where it is, or the free slot where it goes.
    #[inline]
    fn slot(&self, key: &[u32], h: u64) -> usize {
        let mut i = h as usize & self.mask;
        loop {
            let at = i * self.stride;
            let slot = &self.slots[at..at + self.stride];
            if slot[self.words] == Self::EMPTY || &slot[..self.words] == key {
                return at;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The value of `key`, if stored.
    #[inline]
    pub(crate) fn get(&self, key: &[u32]) -> Option<u32> {
        let at = self.slot(key, Self::hash(key));
        let v = self.slots[at + self.words];
        (v != Self::EMPTY).then_some(v)
    }

    /// Stores `key` with `value` (not [`KeyTable::EMPTY`]) when it is not stored
    /// already (`h` is its hash); `true` when it was new.
    #[inline]
    pub(crate) fn insert_hashed(&mut self, key: &[u32], h: u64, value: u32) -> bool {
        debug_assert_ne!(value, Self::EMPTY);
        let at = self.slot(key, h);
        if self.slots[at + self.words] != Self::EMPTY {
            return false;
        }
        self.slots[at..at + self.words].copy_from_slice(key);
        self.slots[at + self.words] = value;
        self.list.extend_from_slice(key);
        self.len += 1;
        // At most three quarters full.
        if self.len * 4 > (self.mask + 1) * 3 {
            self.grow();
        }
        true
    }

    /// Twice the slots, every key moved to its new place.
    fn grow(&mut self) {
        let cap = (self.mask + 1) * 2;
        let old = std::mem::replace(&mut self.slots, vec![Self::EMPTY; cap * self.stride]);
        self.mask = cap - 1;
        for slot in old.chunks_exact(self.stride) {
            if slot[self.words] != Self::EMPTY {
                let key = &slot[..self.words];
                let at = self.slot(key, Self::hash(key));
                self.slots[at..at + self.stride].copy_from_slice(slot);
            }
        }
    }

    /// The `i`-th key stored.
    #[inline]
    pub(crate) fn key(&self, i: usize) -> &[u32] {
        &self.list[i * self.words..(i + 1) * self.words]
    }

    /// Keys stored.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        (self.slots.capacity() + self.list.capacity()) * 4
    }

    /// About the most bytes a key of `words` words takes: the table just grown (8/3
    /// slots a key), and the list just grown (twice its words).
    pub(crate) fn bytes_per_key(words: usize) -> usize {
        (words + 1) * 4 * 8 / 3 + words * 8
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn key_table_finds_every_key_and_only_those() {
        let mut t = super::KeyTable::new(3);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % 5000) as u32
        };
        let mut model = std::collections::HashMap::new();
        for i in 0..40_000u32 {
            let key = [next(), next() % 3, i % 7];
            let h = super::KeyTable::hash(&key);
            let new = t.insert_hashed(&key, h, i);
            assert_eq!(new, !model.contains_key(&key));
            model.entry(key).or_insert(i);
        }
        assert_eq!(t.len(), model.len());
        for (k, &v) in &model {
            assert_eq!(t.get(k), Some(v));
        }
        for i in 0..t.len() {
            let k: [u32; 3] = t.key(i).try_into().unwrap();
            assert!(model.contains_key(&k));
        }
        assert_eq!(t.get(&[5000, 0, 0]), None);
    }

    use super::*;

    /// A sequential store hands out the ids a hashed one does, indexed or not.
    #[test]
    fn sequential_stores_number_states_in_insertion_order() {
        let radix = [7u32, 5, 3];
        let mut rng = fastrand::Rng::with_seed(7);
        let mut indexed = StateStore::sequential(&radix);
        assert!(matches!(indexed, StateStore::Indexed(_)));
        let mut hashed = StateStore::hashed(3);
        for _ in 0..300 {
            let s = [rng.u32(0..7), rng.u32(0..5), rng.u32(0..3)];
            assert_eq!(indexed.insert(&s), hashed.insert(&s), "{s:?}");
            assert_eq!(indexed.find(&s), hashed.find(&s));
        }
        assert_eq!(indexed.len(), hashed.len());
        let (mut a, mut b) = ([0u32; 3], [0u32; 3]);
        for id in 0..indexed.len() as u32 {
            indexed.load(id, &mut a);
            hashed.load(id, &mut b);
            assert_eq!(a, b);
        }
        assert_eq!(
            indexed.find(&[6, 4, 2]).is_some(),
            hashed.find(&[6, 4, 2]).is_some()
        );
        assert!(matches!(
            StateStore::sequential(&[1 << 20, 1 << 20]),
            StateStore::Hashed(_)
        ));
    }

    /// States cross arena pages (a power of two of states each) and come back intact.
    #[test]
    fn arena_pages_hold_every_state() {
        for words in [1usize, 3, 5] {
            let mut store = StateStore::hashed(words);
            let per_page = 1usize << Arena::new(words).shift;
            assert!(per_page * words <= PAGE_WORDS && per_page * words * 2 > PAGE_WORDS);
            let n = per_page * 2 + 17;
            let state = |i: usize| (0..words).map(|w| (i * 7 + w) as u32).collect::<Vec<_>>();
            for i in 0..n {
                assert_eq!(store.insert(&state(i)), Ok(i as u32), "words {words}");
            }
            let mut out = vec![0u32; words];
            for i in (0..n).step_by(997).chain([per_page - 1, per_page, n - 1]) {
                store.load(i as u32, &mut out);
                assert_eq!(out, state(i), "words {words}, state {i}");
                assert_eq!(store.insert(&state(i)), Err(i as u32));
            }
            let StateStore::Hashed(h) = &store else {
                unreachable!()
            };
            assert_eq!(h.arena.pages.len(), 3);
        }
        // A state of no words: one state, stored and found.
        let mut store = StateStore::hashed(0);
        assert_eq!(store.insert(&[]), Ok(0));
        assert_eq!(store.insert(&[]), Err(0));
        store.load(0, &mut []);
    }
}
