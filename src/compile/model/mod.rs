//! The compiled model: every name resolved to a small id, every move a flat op program.
//!
//! This file holds the ids and the declarations (the [`Model`], its tiles, pieces,
//! legend, directions, counters, rules, levels, metrics and judge format); `program.rs`
//! the move programs ([`MoveProgram`] and its ops, cells and conditions); `facts.rs` what
//! is asked of a model (letters, metrics, and the facts computed once).

mod facts;
mod program;

pub use program::*;

use serde::Serialize;

pub use crate::syntax::ast::{AssignOp, CmpOp, Combine};

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
    /// The rest of the goal, and-ed with `goal`: conditions that are not `piece on place`.
    pub(crate) goal_rest: Vec<Cond>,
    /// The counters, in declaration order.
    pub counters: Vec<Counter>,
    /// Inline levels; the first is the default.
    pub levels: Vec<LevelText>,
    /// Named metrics (`metric slides { straight step }`), in declaration order.
    pub metrics: Vec<Metric>,
    /// Attribute names (`has size 3`) in order of first declaration; each pose's
    /// `values` is indexed by this.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) attributes: Vec<String>,
    /// How `puz judge` reads input and prints answers, when declared.
    pub judge: Option<JudgeFormat>,
    /// How the playground draws tiles, pieces and marks (`look { ... }`), in source order;
    /// the others are drawn in colours derived from their names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub looks: Vec<Look>,
    /// Facts derived from the fields above, computed once when compiling.
    #[serde(skip)]
    pub(super) facts: Facts,
    /// Where moves, their statements and goal conditions are written, for lints.
    #[serde(skip)]
    pub(crate) spans: Spans,
}

/// What a [`Look`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LookOf {
    /// A tile kind.
    Tile(TileId),
    /// A piece kind.
    Piece(PieceId),
    /// A mark.
    Mark(MarkId),
}

/// A declared look: colours, and maybe a sprite drawn in them over the cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Look {
    /// The tile, piece or mark drawn.
    pub of: LookOf,
    /// The colours as (red, green, blue), at least one; the first fills the cell when
    /// there is no sprite.
    pub colors: Vec<[u8; 3]>,
    /// The sprite's rows, each cell an index into `colors` or `None` (see-through); empty
    /// when the look is one colour.
    pub sprite: Vec<Vec<Option<u8>>>,
}

/// Where parts of the model are written in the `.puz` source, so that analyses after
/// compiling (the engine's lints) can point at them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spans {
    /// Per move: its name in the move's header.
    pub(crate) moves: Vec<SourceSpan>,
    /// Per move: the statement of every op, in [`walk_ops`] order (an op before the ops
    /// nested in it, `then` before `else`).
    pub(crate) ops: Vec<Vec<SourceSpan>>,
    /// Per entry of `goal`: its condition.
    pub(crate) goal: Vec<SourceSpan>,
    /// Per entry of `goal_rest`: its condition.
    pub(crate) goal_rest: Vec<SourceSpan>,
    /// Per entry of `forbids`: the whole `forbid` declaration.
    pub(crate) forbids: Vec<SourceSpan>,
    /// The `limit` declaration, when there is one.
    pub(crate) limit: Option<SourceSpan>,
}

/// Facts about a model that several stages ask for, computed once by [`Model::learn_facts`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Facts {
    unit_costs: bool,
    static_tiles: bool,
    basic: bool,
    countdown: Option<(PieceId, i64)>,
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

    /// The packed number, ordered as actions are (for messages between processes).
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The action packed as `raw` (see [`Action::raw`]).
    #[inline]
    pub fn from_raw(raw: u32) -> Action {
        Action(raw)
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
    /// `max N`: room for this many copies at once.
    pub(crate) max: Option<u32>,
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
    /// Per attribute of [`Model::attributes`]: its value in this pose, if it has one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) values: Vec<Option<i64>>,
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
    /// Per entry of `pieces`: the pose its copies start in when the symbol chooses one
    /// (`'>' floor + turtle.east`), else `None` (the first declared pose of the drawn
    /// shape). Left out of `--json` when no piece chooses one.
    #[serde(skip_serializing_if = "no_pose_chosen")]
    pub(crate) poses: Vec<Option<PoseId>>,
    /// Marks the symbol sets on its cell.
    pub(crate) marks: Vec<MarkId>,
}

fn no_pose_chosen(poses: &[Option<PoseId>]) -> bool {
    poses.iter().all(Option::is_none)
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

/// A counter: a bounded value in the state.
#[derive(Clone, Debug, Serialize)]
pub struct Counter {
    /// Its name.
    pub name: String,
    /// Its largest value.
    pub(crate) max: u32,
    /// Its value at the start.
    pub(crate) start: u32,
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
    /// The goal picture's rows, row starts and text block, when the level has one.
    #[serde(skip)]
    pub(crate) picture: Option<(Vec<String>, Vec<u32>, SourceSpan)>,
    /// The answer its plain `expect` clause records, checked by `puz test`.
    pub expect: Option<Expect>,
    /// The answers its `expect NAME ...` clauses record: (index into
    /// [`Model::metrics`], answer), in source order.
    pub metric_expects: Vec<(usize, Expect)>,
}

/// A named way of counting moves: consecutive applications of a listed move by the same
/// piece form one counted move.
#[derive(Clone, Debug, Serialize)]
pub struct Metric {
    /// The name as declared.
    pub name: String,
    /// Per move (indexed by [`MoveId`]): how its applications combine, or `None` when
    /// the metric does not list it (each application counts one).
    pub combine: Vec<Option<Combine>>,
}

/// A level's known answer, from its `expect` clause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// `expect 6, 8`: the optimal cost, one number per cost component.
    Cost(Vec<u64>),
    /// `expect none`: no goal can be reached.
    Unsolvable,
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
