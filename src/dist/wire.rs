//! The little-endian records every batch between workers and every checkpoint file is
//! made of: [`Batch`] writes them, [`Reader`] reads them back without ever panicking.
/// Little-endian records in a byte batch.
#[derive(Default)]
pub(crate) struct Batch(pub(crate) Vec<u8>);

impl Batch {
    #[inline]
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub(crate) fn words(&mut self, s: &[u32]) {
        for &w in s {
            self.u32(w);
        }
    }
}

/// Reads a [`Batch`] back. A read past the end gives 0 and moves on, never panics:
/// whoever reads bytes from outside (a checkpoint) checks [`Reader::overran`] after.
pub(crate) struct Reader<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) at: usize,
}

impl Reader<'_> {
    #[inline]
    pub(crate) fn more(&self) -> bool {
        self.at < self.b.len()
    }
    /// Whether a read went past the end.
    #[inline]
    pub(crate) fn overran(&self) -> bool {
        self.at > self.b.len()
    }
    #[inline]
    pub(crate) fn u32(&mut self) -> u32 {
        let v = self
            .b
            .get(self.at..self.at.saturating_add(4))
            .map_or(0, |w| u32::from_le_bytes(w.try_into().unwrap_or_default()));
        self.at = self.at.saturating_add(4);
        v
    }
    #[inline]
    pub(crate) fn u64(&mut self) -> u64 {
        let v = self
            .b
            .get(self.at..self.at.saturating_add(8))
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or_default()));
        self.at = self.at.saturating_add(8);
        v
    }
    #[inline]
    pub(crate) fn words(&mut self, out: &mut [u32]) {
        for w in out {
            *w = self.u32();
        }
    }
}
