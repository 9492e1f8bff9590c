//! The compiled form of a game: objects with ids and layers, levels as bitsets per
//! cell, rules as bitmask patterns and replacements, win conditions as masks.
//!
//! A cell holds `so` words of object bits (bit `id`) and `sm` words of movement bits:
//! five bits per layer (up, down, left, right, action), twelve layers per word.

/// The five movement bits of one layer.
pub(crate) const UP: u64 = 0b00001;
pub(crate) const DOWN: u64 = 0b00010;
pub(crate) const LEFT: u64 = 0b00100;
pub(crate) const RIGHT: u64 = 0b01000;
pub(crate) const ACTION: u64 = 0b10000;
/// All five bits of a layer.
pub(crate) const LAYER_BITS: u64 = 0b11111;
/// Layers per movement word.
pub(crate) const LAYERS_PER_WORD: usize = 12;

/// The word and shift of `layer`'s five movement bits.
#[inline]
pub(crate) fn layer_slot(layer: usize) -> (usize, u32) {
    (
        layer / LAYERS_PER_WORD,
        (5 * (layer % LAYERS_PER_WORD)) as u32,
    )
}

/// Sets `bits` (five movement bits) of `layer` in `mask`.
#[inline]
pub(crate) fn or_layer(mask: &mut [u64], layer: usize, bits: u64) {
    let (w, s) = layer_slot(layer);
    mask[w] |= bits << s;
}

/// The five movement bits of `layer` in `mask`.
#[inline]
pub(crate) fn get_layer(mask: &[u64], layer: usize) -> u64 {
    let (w, s) = layer_slot(layer);
    (mask[w] >> s) & LAYER_BITS
}

/// Sets bit `i` of `mask`.
#[inline]
pub(crate) fn set_bit(mask: &mut [u64], i: usize) {
    mask[i / 64] |= 1 << (i % 64);
}

/// Whether bit `i` of `mask` is set.
#[inline]
pub(crate) fn has_bit(mask: &[u64], i: usize) -> bool {
    mask[i / 64] >> (i % 64) & 1 == 1
}

/// Whether every bit of `sub` is in `set`.
#[inline]
pub(crate) fn all_in(sub: &[u64], set: &[u64]) -> bool {
    // Plain loops: these run in every cell test, and debug builds (the test suite's)
    // do not inline iterator adaptors.
    let n = sub.len().min(set.len());
    let mut i = 0;
    while i < n {
        if sub[i] & !set[i] != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// A mask kept as its nonzero words: (word index, bits).
pub(crate) type Words = Vec<(u32, u64)>;

/// The nonzero words of `mask` from word `from` on.
pub(crate) fn sparse(mask: &[u64], from: usize) -> Words {
    (mask.iter().enumerate().skip(from))
        .filter(|(_, &b)| b != 0)
        .map(|(w, &b)| (w as u32, b))
        .collect()
}

/// Whether every bit of the sparse mask `sub` is in `set`.
#[inline]
pub(crate) fn all_in_words(sub: &[(u32, u64)], set: &[u64]) -> bool {
    let mut i = 0;
    while i < sub.len() {
        let (w, b) = sub[i];
        if b & !set.get(w as usize).copied().unwrap_or(0) != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the sparse mask `a` shares a bit with `set`.
#[inline]
pub(crate) fn meets_words(a: &[(u32, u64)], set: &[u64]) -> bool {
    let mut i = 0;
    while i < a.len() {
        let (w, b) = a[i];
        if b & set.get(w as usize).copied().unwrap_or(0) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `a` and `b` share a bit.
#[inline]
pub(crate) fn any_common(a: &[u64], b: &[u64]) -> bool {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i < n {
        if a[i] & b[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether no bit is set.
#[inline]
pub(crate) fn is_zero(a: &[u64]) -> bool {
    let mut i = 0;
    while i < a.len() {
        if a[i] != 0 {
            return false;
        }
        i += 1;
    }
    true
}

/// The delta of a movement direction bit as `(dx, dy)`.
pub(crate) fn delta(dir: u64) -> (i64, i64) {
    match dir {
        UP => (0, -1),
        DOWN => (0, 1),
        LEFT => (-1, 0),
        RIGHT => (1, 0),
        _ => (0, 0),
    }
}

/// One object.
#[derive(Clone, Debug)]
pub(crate) struct ObjectInfo {
    /// Its name, lowercased.
    pub name: String,
    /// Its collision layer.
    pub layer: usize,
    /// Its colours, as `#rrggbb` (or `transparent`).
    pub colors: Vec<String>,
    /// Its 5x5 sprite: colour indices, `None` transparent; empty for a plain colour.
    pub sprite: Vec<Vec<Option<u8>>>,
}

/// A cell pattern of a rule's left-hand side, with its replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CellPattern {
    /// Objects that must all be present.
    pub present: Vec<u64>,
    /// Objects that must all be absent.
    pub missing: Vec<u64>,
    /// Each mask must meet the cell (a property: one of its objects).
    pub any: Vec<Vec<u64>>,
    /// Movement bits that must all be present.
    pub moving: Vec<u64>,
    /// Movement bits that must all be absent.
    pub still: Vec<u64>,
    /// What to write where it matched, if anything.
    pub replace: Option<Replacement>,
}

/// What a matched cell becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replacement {
    /// Objects cleared, then
    pub clear: Vec<u64>,
    /// objects set.
    pub set: Vec<u64>,
    /// Movement bits cleared (with the layers whose movement the rule rewrites), then
    pub mov_clear: Vec<u64>,
    /// movement bits set.
    pub mov_set: Vec<u64>,
    /// The layers whose movement the rule writes (for rigid bodies).
    pub mov_layers: Vec<u64>,
    /// Objects one of which is created at random (`random X`).
    pub random_entity: Vec<u64>,
    /// Layers given a random direction (`randomdir X`).
    pub random_dir: Vec<u64>,
}

/// What one cell of a row needs, for finding where the row can start without testing
/// every cell: the cell `offset` cells along the row from its start (a cell before the
/// row's first ellipsis).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Anchor {
    /// Cells from the row's start.
    pub offset: usize,
    /// Objects that must all be there.
    pub all: Vec<usize>,
    /// Sets of objects (properties) one of each of which must be there.
    pub any: Vec<Vec<usize>>,
    /// Per set of `any`, its number among the game's ([`Compiled::props`]): the
    /// engine keeps each one's cells while the board does not change.
    pub props: Vec<u32>,
    /// Whether the cell must hold movement.
    pub moving: bool,
}

/// A rule's rows compiled for the engine: each cell's pattern as tests of the words that
/// matter and its replacement as writes of the words it changes (the words a pattern
/// leaves alone are not visited at all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RowCode {
    /// The cells, ellipses left out.
    pub cells: Vec<CellCode>,
    /// The cells after the first and after the second ellipsis begin here
    /// (`cells.len()` without one).
    pub segments: [usize; 2],
    /// The cells' tests.
    pub tests: Vec<WordTest>,
    /// The cells' property masks, `so` words each.
    pub anys: Vec<u64>,
    /// The cells' writes.
    pub writes: Vec<WordWrite>,
}

/// One cell of a [`RowCode`]: its first test of an object word and of a movement word
/// (tests that pass when the pattern tests none), and ranges of its row's tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellCode {
    pub obj: WordTest,
    pub mov: WordTest,
    /// Whether it has tests besides those two (in `tests`, or property masks).
    pub more: bool,
    /// Tests `test..obj_test` are of object words, `obj_test..test_end` of movement words.
    pub test: u32,
    pub obj_test: u32,
    pub test_end: u32,
    /// Property masks `any..any_end` (in masks of `so` words).
    pub any: u32,
    pub any_end: u32,
    /// Writes `write..obj_write` are of object words, `obj_write..write_end` of movement
    /// words.
    pub write: u32,
    pub obj_write: u32,
    pub write_end: u32,
    /// The index of the cell's item in the rule's row, when it has a replacement.
    pub item: Option<u32>,
    /// Whether the replacement chooses at random (`random X`, `randomdir`).
    pub random: bool,
}

/// A test of one word of a cell: every bit of `req` set, every bit of `forb` clear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WordTest {
    /// The word: of the cell's objects or movements (see [`CellCode`]).
    pub word: u32,
    pub req: u64,
    pub forb: u64,
}

/// A write of one word of a cell: `(old & !clear) | set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WordWrite {
    /// The word: of the cell's objects or movements (see [`CellCode`]).
    pub word: u32,
    pub clear: u64,
    pub set: u64,
}

/// One item of a rule's cell row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// A cell.
    Cell(Box<CellPattern>),
    /// `...`
    Ellipsis,
}

/// A command a rule queues when it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cmd {
    /// `again`
    Again,
    /// `cancel`
    Cancel,
    /// `restart`
    Restart,
    /// `win`
    Win,
    /// `checkpoint`
    Checkpoint,
    /// `message`
    Message(String),
    /// `sfxN`
    Sfx(u8),
}

impl Cmd {
    /// The command's kind, for queue de-duplication (one of each kind per turn).
    pub fn kind(&self) -> u8 {
        match self {
            Cmd::Again => 0,
            Cmd::Cancel => 1,
            Cmd::Restart => 2,
            Cmd::Win => 3,
            Cmd::Checkpoint => 4,
            Cmd::Message(_) => 5,
            Cmd::Sfx(n) => 6 + n,
        }
    }
}

/// One concrete rule: a scan direction and cell rows.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    /// The direction it scans in (one movement bit).
    pub dir: u64,
    /// The cell rows.
    pub rows: Vec<Vec<Item>>,
    /// Ellipses per row (0, 1 or 2).
    pub ellipses: Vec<u8>,
    /// Whether it has a right-hand side.
    pub has_rhs: bool,
    /// The 1-based source line.
    pub line: usize,
    /// Whether it is rigid.
    pub rigid: bool,
    /// Its commands.
    pub commands: Vec<Cmd>,
    /// Whether its group is random.
    pub random: bool,
    /// Every object the rule needs present (it cannot match on a board without one).
    pub mask: Vec<u64>,
    /// Whether applying the rule at a match twice in a row changes nothing the second
    /// time (no random replacement, not rigid): then a pass of its group may skip the
    /// matches on cells nothing changed since the previous pass (see `apply_group`).
    pub repeatable: bool,
    /// The first words of `mask` and of the movement bits the rule needs present
    /// somewhere, and whether it needs more (later words, or `any_masks`): the
    /// engine's quick test.
    pub need: (u64, u64, bool),
    /// Each property the rule needs (one of its objects somewhere on the board).
    pub any_masks: Vec<Vec<u64>>,
    /// The rest of the quick test, when `need.2` says there is more: the later words of
    /// `mask` and of the movement bits, and `any_masks`, as nonzero words.
    pub more: (Words, Words, Vec<Words>),
    /// Per row, the cells before its first ellipsis that need something there.
    pub anchors: Vec<Vec<Anchor>>,
    /// Per row, the same of the cells after its first and after its second ellipsis
    /// (offsets from the first cell after the ellipsis; empty without one).
    pub later: Vec<[Vec<Anchor>; 2]>,
    /// The rows compiled for the engine.
    pub code: Vec<RowCode>,
    /// Its number among the game's rules (early and late), for the engine's tables.
    pub slot: u32,
    /// Every object its patterns test (present, absent, or one of a property), when
    /// they test no movement: then whether it matches anywhere depends on where those
    /// objects are and on nothing else, so a rule found to match nowhere still matches
    /// nowhere while none of them has moved (see `try_apply`). `None` when it tests
    /// movement.
    pub deps: Option<Vec<u32>>,
}

/// A rule group: rules applied in turn until none changes the level.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// The rules, in order.
    pub rules: Vec<Rule>,
    /// Whether the group is random (one match of one rule, chosen at random).
    pub random: bool,
    /// Its rigid index (1-based, as stored in the rigid masks), if any rule is rigid.
    pub rigid: Option<u32>,
    /// The line of its first rule.
    pub line: usize,
    /// What its rules need on the board somewhere (each rule's `mask` and `any_masks`),
    /// without repeats: the rules a written rule expands into (one per direction) share
    /// them. Some rule may match only when one of these is met. Kept as nonzero words.
    pub needs: Vec<(Words, Vec<Words>)>,
    /// Each rule's [`Rule::need`], side by side: the engine runs through them to find
    /// the first rule that may match without reading the rules themselves.
    pub quick: Vec<(u64, u64, bool)>,
    /// For a group whose result is a function of where its objects are when no
    /// movement is on them (see `compile::footprint`): those objects, whose cells the
    /// engine remembers before and after a run of the group to replay it.
    pub footprint: Option<Vec<u32>>,
    /// With a footprint: the movement bits that must be absent from every cell for a
    /// run outside the late phase to be a function of the footprint's cells (those its
    /// rules require absent, and those its replacements clear).
    pub still: Option<Vec<u64>>,
    /// The block of consecutive groups with footprints that starts with this one, if
    /// any (`Compiled::blocks`).
    pub block: Option<u32>,
}

/// Consecutive groups of one phase (two or more, from some group to the end of a run of
/// groups with footprints, none in a loop): their run together is a function of where
/// the objects of their footprints are, replayed as one (`engine/late.rs`), so that a
/// group clearing what the next ones draw again changes no cell when replayed.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// Its last group.
    pub last: usize,
    /// The objects of its groups' footprints, and the movement bits of their `still`.
    pub footprint: Vec<u32>,
    pub still: Vec<u64>,
}

/// A win condition.
#[derive(Clone, Debug)]
pub(crate) struct WinCond {
    /// -1 no, 0 some, 1 all.
    pub quantifier: i8,
    /// The first mask, and whether all of its objects are needed (an aggregate).
    pub what: (Vec<u64>, bool),
    /// The second mask (`on`), likewise; all objects when there is no `on`.
    pub on: (Vec<u64>, bool),
    /// Whether `on` holds wherever `what` does (no `on`, or one that `what` implies),
    /// so that only `what` decides.
    pub on_implied: bool,
    /// The objects whose cells decide the condition: those of `what`, and of `on`
    /// unless it is implied.
    pub deps: Vec<u32>,
}

/// A level: objects per cell, column by column (cell `x * height + y`).
#[derive(Clone, Debug)]
pub(crate) struct LevelData {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `so` words per cell, column-major.
    pub cells: Vec<u64>,
}

/// An entry of the LEVELS section.
#[derive(Clone, Debug)]
pub(crate) enum LevelEntry {
    /// A message.
    Message(String),
    /// A level.
    Level(LevelData),
}

/// The prelude flags the engine reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Flags {
    pub noaction: bool,
    pub noundo: bool,
    pub norestart: bool,
    pub require_player_movement: bool,
    pub run_rules_on_level_start: bool,
    pub realtime_interval: Option<String>,
    pub title: Option<String>,
    pub author: Option<String>,
    pub background_color: Option<String>,
    pub text_color: Option<String>,
}

/// A compiled game.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// Objects by id.
    pub objects: Vec<ObjectInfo>,
    /// Collision layers.
    pub layers: usize,
    /// Object words per cell.
    pub so: usize,
    /// Movement words per cell.
    pub sm: usize,
    /// Each layer's objects (`layers * so` words).
    pub layer_masks: Vec<u64>,
    /// The player's objects, and whether all are needed (an aggregate).
    pub player: (Vec<u64>, bool),
    /// The player's object ids.
    pub player_ids: Vec<usize>,
    /// The rule groups, in order.
    pub groups: Vec<Group>,
    /// The late rule groups, in order.
    pub late_groups: Vec<Group>,
    /// For the last group of each loop, the first (`startloop`/`endloop`).
    pub loop_point: Vec<Option<usize>>,
    /// The same for late groups.
    pub late_loop_point: Vec<Option<usize>>,
    /// Blocks of consecutive groups replayed as one (late groups' and the others').
    pub blocks: Vec<Block>,
    /// Rigid index (1-based) to group index.
    pub rigid_groups: Vec<usize>,
    /// How many distinct sets of objects (properties) the rules' anchors name.
    pub props: usize,
    /// Per object: the groups (late groups numbered after the others) with a rule that
    /// needs it somewhere on the board (in its `mask`, or in one of its `any_masks`).
    pub groups_needing: Vec<Vec<usize>>,
    /// Win conditions.
    pub wins: Vec<WinCond>,
    /// Levels and messages.
    pub levels: Vec<LevelEntry>,
    /// Prelude flags.
    pub flags: Flags,
    /// Whether any rule uses randomness (`random` groups, `random`, `randomdir`).
    pub random: bool,
    /// The characters a level can be drawn with: each with the objects it stands for,
    /// as the source writes it (levels' characters first, in order of use).
    pub glyphs: Vec<(char, Vec<u64>)>,
    /// The background's layer (a level fills it where no glyph puts anything there).
    pub background_layer: Option<usize>,
}

impl Compiled {
    /// The slot of group `gi`'s remembered runs (`late` or not; `engine/late.rs`): the
    /// late groups' first, then the others', then the blocks' ([`Compiled::block_slot`]).
    #[inline]
    pub fn group_slot(&self, late: bool, gi: usize) -> usize {
        if late {
            gi
        } else {
            self.late_groups.len() + gi
        }
    }

    /// The slot of block `b`'s remembered runs.
    #[inline]
    pub fn block_slot(&self, b: usize) -> usize {
        self.late_groups.len() + self.groups.len() + b
    }

    /// Layer `l`'s objects.
    pub fn layer_mask(&self, l: usize) -> &[u64] {
        &self.layer_masks[l * self.so..(l + 1) * self.so]
    }
}
