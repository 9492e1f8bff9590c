//! The compiled model: every name resolved to a small id, every move a flat op program.

use serde::Serialize;

use miette::SourceSpan;

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u16);
        impl $name {
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
pub enum HeaderField {
    /// The board's row count.
    Rows,
    /// The board's column count.
    Cols,
    /// How many query lines follow the board.
    Queries,
}

#[derive(Clone, Debug, Serialize)]
pub struct Model {
    pub title: String,
    pub tiles: Vec<TileKind>,
    /// What cells beyond the board behave as; `None` means no piece may leave the board.
    pub outside: Option<TileId>,
    pub marks: Vec<MarkKind>,
    pub pieces: Vec<PieceKind>,
    pub legend: Vec<Symbol>,
    pub dirs: Vec<Dir>,
    /// Cost components, most significant first.
    pub costs: Vec<String>,
    pub limit: Option<u32>,
    pub moves: Vec<MoveProgram>,
    pub forbids: Vec<Forbid>,
    pub goal: Vec<GoalCond>,
    pub levels: Vec<LevelText>,
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
    pub const fn new(mv: MoveId, dir: DirId) -> Action {
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

#[derive(Clone, Debug, Serialize)]
pub struct TileKind {
    pub name: String,
    /// The tile this one turns into when broken (mutable tiles only).
    pub becomes: Option<TileId>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MarkKind {
    pub name: String,
    /// Every level must mark exactly one cell.
    pub single: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct PieceKind {
    pub name: String,
    pub anonymous: bool,
    pub poses: Vec<Pose>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Pose {
    pub name: String,
    /// Footprint cells as (row, column) offsets from the anchor; (0, 0) is always among them.
    pub cells: Vec<(i32, i32)>,
}

/// What a legend symbol stands for.
#[derive(Clone, Debug, Serialize)]
pub struct Symbol {
    #[serde(serialize_with = "ser_key")]
    pub key: KeyValue,
    pub tile: TileId,
    pub pieces: Vec<PieceId>,
    pub marks: Vec<MarkId>,
}

fn ser_key<S: serde::Serializer>(k: &KeyValue, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&k.to_string())
}

#[derive(Clone, Debug, Serialize)]
pub struct Dir {
    pub name: String,
    pub dr: i32,
    pub dc: i32,
}

/// A direction as a move uses it: the move's own direction or a fixed one, maybe reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// `None` for the move's parameter.
    pub fixed: Option<DirId>,
    pub negate: bool,
}

/// A cell relative to a piece's anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellRef {
    pub piece: PieceId,
    pub step: Option<Step>,
}

/// What a condition looks for at a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Subject {
    Piece(PieceId),
    Tile(TileId),
    Mark(MarkId),
}

/// Where a piece must be (goal) or must not be (forbid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Place {
    Tile(TileId),
    Mark(MarkId),
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveProgram {
    pub name: String,
    /// The letter printed for each direction.
    pub letters: Vec<String>,
    /// How much one application adds to each cost component.
    pub adds: Vec<u32>,
    pub ops: Vec<Op>,
}

/// One step of a move's program.
#[derive(Clone, Debug, Serialize)]
pub enum Op {
    /// Continue only if `subject` is (`want`) or is not (`!want`) at `cell`.
    /// A `Piece` subject that is anonymous binds the instance found there.
    Test {
        subject: Subject,
        cell: CellRef,
        want: bool,
    },
    Shift {
        piece: PieceId,
        step: Step,
    },
    Swap {
        piece: PieceId,
        step: Step,
    },
    /// `table[pose * dirs + dir]`: the new pose and anchor offset, or `None` (no move).
    Turn {
        piece: PieceId,
        table: Vec<Option<(PoseId, i32, i32)>>,
    },
    Slide {
        piece: PieceId,
        step: Step,
        rules: Vec<SlideRule>,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct SlideRule {
    pub event: SlideEvent,
    pub stop: bool,
    pub brk: bool,
    pub lose: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SlideEvent {
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
pub struct Forbid {
    pub piece: PieceId,
    pub pose: Option<PoseId>,
    pub place: Place,
}

/// Every cell of every instance of `piece` lies on `place` (and it is in `pose`).
#[derive(Clone, Debug, Serialize)]
pub struct GoalCond {
    pub piece: PieceId,
    pub pose: Option<PoseId>,
    pub on: Place,
}

/// A level as written in the `.puz` file.
#[derive(Clone, Debug, Serialize)]
pub struct LevelText {
    pub name: String,
    pub form: GridForm,
    pub rows: Vec<String>,
    #[serde(skip)]
    pub row_starts: Vec<u32>,
    /// The text block in the `.puz` source.
    #[serde(skip)]
    pub span: SourceSpan,
}

/// How a judge input is read and its answers printed.
#[derive(Clone, Debug, Serialize)]
pub struct JudgeFormat {
    /// `Some(numbers)`: cases until a header equal to these; `None`: one case.
    pub until: Option<Vec<i64>>,
    #[serde(serialize_with = "ser_header")]
    pub header: Vec<HeaderField>,
    pub grid: GridForm,
    /// Pieces (placed) and marks (set) per query line, by (row, column).
    pub query: Vec<Subject>,
    pub base: i64,
    pub solved: String,
    pub unsolved: String,
    pub invalid: Option<String>,
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
    pub fn default_form(&self) -> GridForm {
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
    pub fn unit_costs(&self) -> bool {
        self.facts.unit_costs
    }

    /// Whether no tile can change during play.
    pub fn static_tiles(&self) -> bool {
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
