//! Player inputs: what PuzzleScript's keys do, and how a list of them is written.

/// One input to a PuzzleScript level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// The up arrow.
    Up,
    /// The left arrow.
    Left,
    /// The down arrow.
    Down,
    /// The right arrow.
    Right,
    /// The action key (X).
    Action,
    /// A turn with no input (what `realtime_interval` and the tests' `tick` do).
    Tick,
    /// Undo (Z).
    Undo,
    /// Restart (R).
    Restart,
}

/// A word or letter that is not an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Byte offset of the bad item in the text.
    pub at: usize,
    /// The item.
    pub item: String,
}
