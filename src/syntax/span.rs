//! Byte spans into the source text.

/// A half-open byte range `start..end` in a `.puz` source.
///
/// Spans compare equal regardless of position, so structural tests of the AST can ignore
/// where things were written.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Span {
    /// Offset of the first byte.
    pub(crate) start: u32,
    /// Offset one past the last byte.
    pub(crate) end: u32,
}

impl Span {
    /// The span `start..end`. Sources are far below 4 GiB (they are read into memory and
    /// parsed), so offsets fit in 32 bits.
    pub(crate) fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub(crate) fn merge(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Its length in bytes.
    fn len(self) -> usize {
        (self.end - self.start) as usize
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start as usize, s.len()).into()
    }
}
