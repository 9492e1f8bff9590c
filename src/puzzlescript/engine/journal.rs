//! What turns wrote to the level, so that a turn can be taken back, compared with where
//! it began, and saved for `undo`, without a copy of the whole level per turn.
//!
//! A turn opens a scope; every write to the level's objects while a scope is open is
//! logged as the word written and the value it held. Scopes nest (an `again` trial runs
//! inside the turn that asked for it; a session's input spans its again turns). The
//! level as a scope found it is the level now with the scope's entries undone, latest
//! first; it differs from the level now exactly where the first entry of some word
//! holds another value than the word does now.
//!
//! The log grows with the writes, not the level: when it passes a limit, each scope's
//! entries are compacted to the first one per word (which is all that undoing needs),
//! so it never holds more than a few entries per word and scope.

/// The log of writes to the level's words while scopes are open.
#[derive(Clone, Debug)]
pub(crate) struct Journal {
    /// (word, value before the write), in the order written.
    entries: Vec<(u32, u64)>,
    /// The open scopes, innermost last: where each begins in `entries`, and whether a
    /// new level was loaded since it opened (the level it found is then gone).
    marks: Vec<(usize, bool)>,
    /// Per word, the last scan (`epoch`) that met it.
    seen: Vec<u32>,
    epoch: u32,
    /// The length at which the entries are compacted next, and its least value.
    limit: usize,
    floor: usize,
}

impl Default for Journal {
    fn default() -> Self {
        Journal {
            entries: vec![],
            marks: vec![],
            seen: vec![],
            epoch: 0,
            limit: 1 << 14,
            floor: 1 << 14,
        }
    }
}

impl Journal {
    /// Opens a scope.
    #[inline]
    pub(crate) fn open(&mut self) {
        self.marks.push((self.entries.len(), false));
    }

    /// Closes the innermost scope (its entries stay in the scope around it).
    #[inline]
    pub(crate) fn close(&mut self) {
        self.marks.pop();
        if self.marks.is_empty() {
            self.entries.clear();
        }
    }

    /// Logs that word `at` held `old` before a write (when a scope is open).
    #[inline]
    pub(crate) fn log(&mut self, at: usize, old: u64) {
        if self.marks.is_empty() {
            return;
        }
        self.entries.push((at as u32, old));
        if self.entries.len() > self.limit {
            self.compact();
        }
    }

    /// A new level replaced the old one: every open scope has changed the level, and
    /// cannot take it back.
    pub(crate) fn reloaded(&mut self) {
        self.entries.clear();
        for m in &mut self.marks {
            *m = (0, true);
        }
    }

    /// Whether the innermost scope began on a level that has since been replaced.
    #[inline]
    pub(crate) fn scope_reloaded(&self) -> bool {
        self.marks.last().is_some_and(|m| m.1)
    }

    /// Takes the innermost scope's entries out, latest first, for the caller to write
    /// back (`undo(word, old)`); the scope stays open, with nothing logged.
    pub(crate) fn take_back(&mut self, mut undo: impl FnMut(usize, u64)) {
        let from = self.marks.last().map_or(0, |m| m.0);
        while self.entries.len() > from {
            if let Some((at, old)) = self.entries.pop() {
                undo(at as usize, old);
            }
        }
    }

    /// Calls `f(word, value when the innermost scope opened)` once per word written in
    /// the scope, until it returns `true`; whether one did. `words`: the level's size.
    pub(crate) fn first_writes(
        &mut self,
        words: usize,
        mut f: impl FnMut(usize, u64) -> bool,
    ) -> bool {
        let from = self.marks.last().map_or(0, |m| m.0);
        let epoch = self.next_epoch(words);
        for &(at, old) in &self.entries[from..] {
            let seen = &mut self.seen[at as usize];
            if *seen != epoch {
                *seen = epoch;
                if f(at as usize, old) {
                    return true;
                }
            }
        }
        false
    }

    /// A fresh scan number, with `seen` covering `words` words.
    fn next_epoch(&mut self, words: usize) -> u32 {
        if self.seen.len() < words {
            self.seen.resize(words, 0);
        }
        if self.epoch == u32::MAX {
            self.seen.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }

    /// Keeps, in each scope, the first entry of each word (later ones are undone on
    /// the way to it), and moves the limit past twice what is left.
    fn compact(&mut self) {
        let words = self
            .entries
            .iter()
            .map(|e| e.0 as usize + 1)
            .max()
            .unwrap_or(0);
        let mut kept = 0;
        for s in 0..self.marks.len() {
            let from = self.marks[s].0;
            let to = self.marks.get(s + 1).map_or(self.entries.len(), |m| m.0);
            let epoch = self.next_epoch(words);
            self.marks[s].0 = kept;
            for k in from..to {
                let e = self.entries[k];
                let seen = &mut self.seen[e.0 as usize];
                if *seen != epoch {
                    *seen = epoch;
                    self.entries[kept] = e;
                    kept += 1;
                }
            }
        }
        self.entries.truncate(kept);
        self.limit = (2 * kept).max(self.floor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level of `words` words, written at random inside nested scopes; the journal
    /// must give back the level each scope found, after compactions too.
    #[test]
    fn scopes_take_back_and_compare_exactly() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let words = 8;
        for round in 0..300 {
            // Every other round compacts as often as it can.
            let small = if round % 2 == 0 { 4 } else { usize::MAX };
            let mut j = Journal {
                limit: small,
                floor: small,
                ..Journal::default()
            };
            let mut level: Vec<u64> = (0..words).map(|_| rand(4)).collect();
            let mut found: Vec<Vec<u64>> = vec![];
            for _ in 0..600 {
                match rand(10) {
                    0 if found.len() < 5 => {
                        j.open();
                        found.push(level.clone());
                    }
                    1 if !found.is_empty() => {
                        j.close();
                        found.pop();
                    }
                    2 if !found.is_empty() => {
                        j.take_back(|at, old| level[at] = old);
                        assert_eq!(&level, found.last().unwrap());
                    }
                    _ => {
                        let at = rand(words as u64) as usize;
                        let new = rand(4);
                        j.log(at, level[at]);
                        level[at] = new;
                        // Compacted: at most one entry per word and scope (at most
                        // five scopes), and as many more again.
                        if small == 4 {
                            assert!(j.entries.len() <= 2 * words * 5 + 1);
                        }
                    }
                }
                if let Some(f) = found.last() {
                    let changed = j.first_writes(words, |at, old| level[at] != old);
                    assert_eq!(changed, &level != f);
                    let mut then = level.clone();
                    j.first_writes(words, |at, old| {
                        then[at] = old;
                        false
                    });
                    assert_eq!(&then, f);
                }
            }
        }
    }
}
