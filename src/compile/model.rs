//! The compiled model: every name resolved to a small id, every move a flat op program.

use serde::Serialize;

use miette::SourceSpan;

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u16);
        impl $name {
            /// The id as an index into its table.
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

id_type!(
    /// A tile kind, numbered from 0 in declaration order.
    TileId,
    /// A mark (named cell set), numbered from 0.
    MarkId,
    /// A piece kind, numbered from 0.
    PieceId,
    /// A pose of one piece kind, numbered from 0 within the piece.
    PoseId,
    /// A direction, numbered from 0 in tie-break order.
    DirId,
    /// A move, numbered from 0 in declaration order.
    MoveId
);

/// How a level's rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GridForm {
    /// One character per cell.
    Chars,
    /// Integers separated by blanks, one per cell.
    Ints,
}

/// A legend symbol: a character, or a non-negative integer code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyValue {
    /// `'.'`
    Char(char),
    /// `3`
    Int(i64),
}

impl std::fmt::Display for KeyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyValue::Char(c) => write!(f, "'{c}'"),
            KeyValue::Int(i) => write!(f, "{i}"),
        }
    }
}

/// A number that opens each judge case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeaderField {
    /// The board's row count.
    Rows,
    /// The board's column count.
    Cols,
    /// How many query lines follow the board.
    Queries,
}

/// A compiled puzzle: the language's declarations with every name resolved to an id.
#[derive(Clone, Debug, Serialize)]
pub struct Model {
    /// The `puzzle` title, empty when none is given.
    pub title: String,
    /// Tile kinds; a [`TileId`] indexes this.
    pub tiles: Vec<TileKind>,
    /// What cells beyond the board behave as; `None` means no piece may leave the board.
    pub(crate) outside: Option<TileId>,
    /// Marks; a [`MarkId`] indexes this.
    pub marks: Vec<MarkKind>,
    /// Piece kinds; a [`PieceId`] indexes this.
    pub pieces: Vec<PieceKind>,
    /// Level symbols in declaration order.
    pub legend: Vec<Symbol>,
    /// Directions in tie-break order; a [`DirId`] indexes this.
    pub dirs: Vec<Dir>,
    /// Cost components, most significant first.
    pub costs: Vec<String>,
    /// At most this many moves, when `limit` is given.
    pub limit: Option<u32>,
    /// Moves in declaration order (the first tie-break key).
    pub moves: Vec<MoveProgram>,
    /// `forbid` rules: positions no state may have.
    pub(crate) forbids: Vec<Forbid>,
    /// Conditions that all hold in a solved state.
    pub(crate) goal: Vec<GoalCond>,
    /// Inline levels; the first is the default.
    pub levels: Vec<LevelText>,
    /// How `puz judge` reads input and prints answers, when declared.
    pub judge: Option<JudgeFormat>,
    /// Facts derived from the fields above, computed once when compiling.
    #[serde(skip)]
    pub(super) facts: Facts,
}

/// Facts about a model that several stages ask for, computed once by [`Model::learn_facts`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Facts {
    unit_costs: bool,
    static_tiles: bool,
}

/// One application of a move in one direction: what a search step records and a path
/// lists. Packed in a `u32` (move in the high half, direction in the low half), so actions
/// order as the tie rule does: by move, then by direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(u32);

impl Action {
    /// Move `mv` in direction `dir`.
    #[inline]
    pub(crate) const fn new(mv: MoveId, dir: DirId) -> Action {
        Action((mv.0 as u32) << 16 | dir.0 as u32)
    }

    /// The move applied.
    #[inline]
    pub fn mv(self) -> MoveId {
        MoveId((self.0 >> 16) as u16)
    }

    /// The direction it was applied in.
    #[inline]
    pub fn dir(self) -> DirId {
        DirId(self.0 as u16)
    }
}

/// A tile kind.
#[derive(Clone, Debug, Serialize)]
pub struct TileKind {
    /// The name as declared.
    pub name: String,
    /// The tile this one turns into when broken (mutable tiles only).
    pub(crate) becomes: Option<TileId>,
}

/// A mark: a named set of cells placed by legend symbols.
#[derive(Clone, Debug, Serialize)]
pub struct MarkKind {
    /// The name as declared.
    pub name: String,
    /// Every level must mark exactly one cell.
    pub(crate) single: bool,
}

/// A piece kind and its poses.
#[derive(Clone, Debug, Serialize)]
pub struct PieceKind {
    /// The name as declared.
    pub name: String,
    /// Instances are interchangeable (states store them as a set).
    pub(crate) anonymous: bool,
    /// Poses in declaration order; a [`PoseId`] indexes this.
    pub(crate) poses: Vec<Pose>,
}

/// One pose of a piece: its name and footprint.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Pose {
    /// The name as declared (`cell` for a piece declared without poses).
    pub(crate) name: String,
    /// Footprint cells as (row, column) offsets from the anchor; (0, 0) is always among them.
    pub(crate) cells: Vec<(i32, i32)>,
}

/// What a legend symbol stands for.
#[derive(Clone, Debug, Serialize)]
pub struct Symbol {
    /// The character or integer code written in levels.
    #[serde(serialize_with = "ser_key")]
    pub key: KeyValue,
    /// The tile of every cell written with this symbol.
    pub(crate) tile: TileId,
    /// Pieces the symbol places (their cells, grouped, give each instance's pose).
    pub(crate) pieces: Vec<PieceId>,
    /// Marks the symbol sets on its cell.
    pub(crate) marks: Vec<MarkId>,
}

fn ser_key<S: serde::Serializer>(k: &KeyValue, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&k.to_string())
}

/// A direction: a name and a (row, column) step.
#[derive(Clone, Debug, Serialize)]
pub struct Dir {
    /// The name as declared; also the default letter of a move in this direction.
    pub name: String,
    /// Row step.
    pub dr: i32,
    /// Column step.
    pub dc: i32,
}

/// A direction as a move uses it: the move's own direction or a fixed one, maybe reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Step {
    /// `None` for the move's parameter.
    pub(crate) fixed: Option<DirId>,
    /// Step backwards (`-d`).
    pub(crate) negate: bool,
}

/// A cell relative to a piece's anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct CellRef {
    /// The piece whose anchor the cell is relative to.
    pub(crate) piece: PieceId,
    /// One step from the anchor, or the anchor itself.
    pub(crate) step: Option<Step>,
}

/// What a condition looks for at a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Subject {
    /// Some instance of this piece covers the cell.
    Piece(PieceId),
    /// The cell's tile is this one.
    Tile(TileId),
    /// The cell carries this mark.
    Mark(MarkId),
}

/// Where a piece must be (goal) or must not be (forbid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Place {
    /// Cells with this tile.
    Tile(TileId),
    /// Cells with this mark.
    Mark(MarkId),
}

/// A move: its letters, cost and op program, run once per direction.
#[derive(Clone, Debug, Serialize)]
pub struct MoveProgram {
    /// The name as declared.
    pub name: String,
    /// The letter printed for each direction.
    pub(crate) letters: Vec<String>,
    /// How much one application adds to each cost component.
    pub(crate) adds: Vec<u32>,
    /// The statements in order; a failed test cancels the move.
    pub(crate) ops: Vec<Op>,
}

/// One step of a move's program.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum Op {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at `cell`.
    /// A `Piece` subject that is anonymous binds the instance found there.
    Test {
        /// What to look for.
        subject: Subject,
        /// Where to look.
        cell: CellRef,
        /// Whether it must be there (`require`) or must not (`forbid`).
        want: bool,
    },
    /// Translate a piece one step.
    Shift {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
    },
    /// Move a piece one step, trading cells with the piece it lands on.
    Swap {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
    },
    /// `table[pose * dirs + dir]`: the new pose and anchor offset, or `None` (no move).
    Turn {
        /// The piece acted on.
        piece: PieceId,
        /// Indexed by `pose * dirs + dir`.
        table: Vec<Option<(PoseId, i32, i32)>>,
    },
    /// Step a piece until an event's rule stops it.
    Slide {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The slide's events, in declaration order.
        rules: Vec<SlideRule>,
    },
}

/// What a slide does at one event.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SlideRule {
    /// When the rule applies.
    pub(crate) event: SlideEvent,
    /// The slide ends here.
    pub(crate) stop: bool,
    /// The tile ahead turns into what it becomes.
    pub(crate) brk: bool,
    /// The move is impossible (the piece is lost).
    pub(crate) lose: bool,
}

/// An event during a slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum SlideEvent {
    /// The piece enters a cell with this tile or mark.
    Into(Place),
    /// The next cell holds this tile.
    BeforeTile(TileId),
    /// The next cell holds this piece.
    BeforePiece(PieceId),
    /// The next cell is off the board.
    OffBoard,
}

/// No cell of `piece` (in `pose`, or any pose) may be on `place`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Forbid {
    /// The piece constrained.
    pub(crate) piece: PieceId,
    /// Only in this pose, or in every pose.
    pub(crate) pose: Option<PoseId>,
    /// Where none of its cells may be.
    pub(crate) place: Place,
}

/// Every cell of every instance of `piece` lies on `place` (and it is in `pose`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GoalCond {
    /// The piece that must be placed.
    pub(crate) piece: PieceId,
    /// The pose it must be in, if any.
    pub(crate) pose: Option<PoseId>,
    /// Where all its cells must be.
    pub(crate) on: Place,
}

/// A level as written in the `.puz` file.
#[derive(Clone, Debug, Serialize)]
pub struct LevelText {
    /// The level's name.
    pub name: String,
    /// How its rows are written.
    pub(crate) form: GridForm,
    /// The rows, indentation removed.
    pub rows: Vec<String>,
    /// Byte offset in the `.puz` source of each row's first cell.
    #[serde(skip)]
    pub(crate) row_starts: Vec<u32>,
    /// The text block in the `.puz` source.
    #[serde(skip)]
    pub(crate) span: SourceSpan,
}

/// How a judge input is read and its answers printed.
#[derive(Clone, Debug, Serialize)]
pub struct JudgeFormat {
    /// `Some(numbers)`: cases until a header equal to these; `None`: one case.
    pub(crate) until: Option<Vec<i64>>,
    /// The numbers that open each case, in order.
    #[serde(serialize_with = "ser_header")]
    pub(crate) header: Vec<HeaderField>,
    /// How board rows are written.
    pub(crate) grid: GridForm,
    /// Pieces (placed) and marks (set) per query line, by (row, column).
    pub(crate) query: Vec<Subject>,
    /// Query coordinates count from this number.
    pub(crate) base: i64,
    /// Template printed for a solved case.
    pub(crate) solved: String,
    /// Template printed for an unsolvable case.
    pub(crate) unsolved: String,
    /// Template printed for an invalid query, when declared.
    pub(crate) invalid: Option<String>,
}

fn ser_header<S: serde::Serializer>(h: &[HeaderField], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(h.len()))?;
    for f in h {
        seq.serialize_element(match f {
            HeaderField::Rows => "rows",
            HeaderField::Cols => "cols",
            HeaderField::Queries => "queries",
        })?;
    }
    seq.end()
}

impl Model {
    /// Whether levels are written as characters (any char key) or integers.
    pub(crate) fn default_form(&self) -> GridForm {
        if self
            .legend
            .iter()
            .any(|s| matches!(s.key, KeyValue::Char(_)))
        {
            GridForm::Chars
        } else {
            GridForm::Ints
        }
    }

    /// The letter printed for an action.
    pub fn letter(&self, action: Action) -> &str {
        &self.moves[action.mv().index()].letters[action.dir().index()]
    }

    /// Whether every move costs the same single unit, so breadth-first search is exact.
    pub(crate) fn unit_costs(&self) -> bool {
        self.facts.unit_costs
    }

    /// Whether no tile can change during play.
    pub(crate) fn static_tiles(&self) -> bool {
        self.facts.static_tiles
    }

    /// Computes the derived facts; called once, when compiling is done.
    pub(super) fn learn_facts(&mut self) {
        self.facts = Facts {
            unit_costs: self.costs.len() <= 1
                && self.moves.iter().all(|m| m.adds.iter().all(|&a| a == 1)),
            static_tiles: self.tiles.iter().all(|t| t.becomes.is_none()),
        };
    }
}
