//! The compiled model: every name resolved to a small id, every move a flat op program.

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
    /// Facts derived from the fields above, computed once when compiling.
    #[serde(skip)]
    pub(super) facts: Facts,
    /// Where moves, their statements and goal conditions are written, for lints.
    #[serde(skip)]
    pub(crate) spans: Spans,
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

/// A piece's attribute in a condition: `disk.size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct AttrOf {
    /// The piece kind.
    pub(crate) piece: PieceId,
    /// The alias meant instead of the kind's copy.
    pub(crate) alias: Option<u16>,
    /// The attribute, an index into [`Model::attributes`].
    pub(crate) attr: u16,
}

/// What an attribute is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum AttrRhs {
    /// A number.
    Value(i64),
    /// Another piece's attribute.
    Attr(AttrOf),
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

/// A direction as a move uses it: the move's own direction or a fixed one, maybe reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Step {
    /// `None` for the move's parameter.
    pub(crate) fixed: Option<DirId>,
    /// Step backwards (`-d`).
    pub(crate) negate: bool,
    /// Repeated this many times (`2d`); 1 for a plain step.
    pub(crate) times: i32,
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
    /// What the move ranges over.
    pub(crate) param: Param,
    /// The kind of each `as` name, by alias index.
    pub(crate) aliases: Vec<PieceId>,
}

/// What a move ranges over; its actions are numbered by this order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Param {
    /// These directions (all of `dirs`, or the move's list), in `dirs` order.
    Dirs(Vec<DirId>),
    /// Every board cell, in reading order; the action's number is the cell.
    Cell,
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

/// Where a general cell expression starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Base {
    /// A piece's anchor: the kind's bound copy, or an alias.
    Piece(PieceId, Option<u16>),
    /// The move's cell parameter.
    Param,
    /// The cell of the `for` loop this many levels out (0: innermost).
    Var(u16),
    /// An absolute board cell; negative counts from the end.
    Abs(i32, i32),
}

/// A general cell: a base and steps from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Cell {
    /// Where it starts.
    pub(crate) base: Base,
    /// The steps taken from it.
    pub(crate) steps: Vec<Step>,
}

/// A condition on a state (in a move, with bindings).
#[derive(Clone, Debug, Serialize)]
pub(crate) enum Cond {
    /// `subject at cell`; a piece found is bound to `bind` when given.
    At {
        /// What is looked for.
        subject: Subject,
        /// Only a copy of the piece in this pose counts (`disk.small at c`).
        pose: Option<PoseId>,
        /// `over at c` with an `as` name: only that copy counts.
        of: Option<u16>,
        /// Where.
        cell: Cell,
        /// The binding a piece found there takes: (kind, alias).
        bind: Option<(PieceId, Option<u16>)>,
    },
    /// Every cell of the piece (every copy when none is bound) on the place.
    On {
        /// The piece kind.
        piece: PieceId,
        /// An alias of the move, if named so.
        alias: Option<u16>,
        /// Only in this pose.
        pose: Option<PoseId>,
        /// The tile or mark.
        place: Place,
    },
    /// `count(what) OP value`.
    Count {
        /// Pieces (copies), or cells holding a tile or mark.
        what: Subject,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: i64,
    },
    /// `counter OP value`.
    Counter {
        /// The counter's index.
        id: u16,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        value: i64,
    },
    /// `piece.attr OP value` or `OP other.attr`: false when a piece is not on the board.
    Attr {
        /// The attribute compared.
        left: AttrOf,
        /// The comparison.
        op: CmpOp,
        /// Compared with.
        right: AttrRhs,
    },
    /// Negation.
    Not(Box<Cond>),
    /// Conjunction.
    And(Vec<Cond>),
    /// Disjunction.
    Or(Vec<Cond>),
}

/// Which cells a tile change touches.
#[derive(Clone, Debug, Serialize)]
pub(crate) enum TilePlace {
    /// One cell.
    At(Cell),
    /// Every cell.
    All,
    /// Every cell of a mark.
    Mark(MarkId),
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
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
        /// Every copy, the farthest along the step first.
        each: bool,
    },
    /// Move a piece one step, trading cells with the piece it lands on.
    Swap {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
    },
    /// `table[pose * dirs + dir]`: the new pose and anchor offset, or `None` (no move).
    Turn {
        /// The piece acted on.
        piece: PieceId,
        /// Indexed by `pose * dirs + dir`.
        table: Vec<Option<(PoseId, i32, i32)>>,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
    },
    /// Step a piece until an event's rule stops it.
    Slide {
        /// The piece acted on.
        piece: PieceId,
        /// The direction of the step.
        step: Step,
        /// The slide's events, in declaration order.
        rules: Vec<SlideRule>,
        /// The alias acted on instead of the kind's copy.
        alias: Option<u16>,
        /// Every copy, the farthest along the step first.
        each: bool,
    },
    /// A general condition (`require`: must hold; `forbid`: must not).
    Check {
        /// The condition.
        cond: Cond,
        /// Whether it must hold.
        want: bool,
    },
    /// The piece leaves the board.
    Remove {
        /// The kind.
        piece: PieceId,
        /// The alias removed instead of the kind's copy.
        alias: Option<u16>,
    },
    /// A new copy, anchored at `cell`.
    Create {
        /// The kind.
        piece: PieceId,
        /// Its pose.
        pose: PoseId,
        /// Its anchor.
        cell: Cell,
    },
    /// Tiles `from` become `to` (and, for a toggle, `to` become `from`).
    Change {
        /// The tile that changes.
        from: TileId,
        /// What it becomes.
        to: TileId,
        /// Both ways.
        toggle: bool,
        /// Which cells.
        place: TilePlace,
    },
    /// A counter update; leaving `0..=max` cancels the move.
    Count {
        /// The counter's index.
        id: u16,
        /// How it changes.
        op: AssignOp,
        /// By or to what.
        value: i64,
    },
    /// Conditional effects.
    If {
        /// The condition.
        cond: Cond,
        /// Run when it holds.
        then: Vec<Op>,
        /// Run otherwise.
        els: Vec<Op>,
    },
    /// The body once per cell of the piece's footprint.
    ForCells {
        /// The kind.
        piece: PieceId,
        /// The alias visited instead of the kind's copy.
        alias: Option<u16>,
        /// The statements.
        body: Vec<Op>,
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
        let m = &self.moves[action.mv().index()];
        match m.param {
            Param::Cell => &m.letters[0],
            Param::Dirs(_) => &m.letters[action.dir().index()],
        }
    }

    /// What an action is played along: its direction's name, or `cell N` (the board
    /// cell's index in reading order) for a per-cell move.
    pub fn arg_text(&self, action: Action) -> String {
        match self.moves[action.mv().index()].param {
            Param::Cell => format!("cell {}", action.dir().0),
            Param::Dirs(_) => self.dirs[action.dir().index()].name.clone(),
        }
    }

    /// The index of the metric called `name`.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }

    /// Whether move `mv` is played on a cell (its actions number cells, not directions).
    pub fn per_cell(&self, mv: MoveId) -> bool {
        self.moves[mv.index()].param == Param::Cell
    }

    /// Whether the rules use only the seed mechanics: no counters, no goal beyond
    /// `piece on place`, every move per every direction with plain one-copy statements.
    /// Fast paths, A*, bidirectional search and goal enumeration need this.
    pub(crate) fn basic(&self) -> bool {
        self.facts.basic
    }

    /// When every solution has the same length: the kind `K` and count `n` such that
    /// every move removes exactly one copy of `K` and creates none, every move costs one
    /// unit, and the goal demands `count(K) == n`. Then every solution takes exactly
    /// (copies at the start - n) moves, so the first solution a depth-first search finds
    /// in action order is the one breadth-first search would return.
    pub(crate) fn countdown(&self) -> Option<(PieceId, i64)> {
        self.facts.countdown
    }

    fn find_countdown(&self) -> Option<(PieceId, i64)> {
        if !self.unit_costs() || self.moves.is_empty() {
            return None;
        }
        let goal_counts = self.goal_rest.iter().filter_map(|c| match c {
            Cond::Count {
                what: Subject::Piece(k),
                op: CmpOp::Eq,
                value,
            } => Some((*k, *value)),
            _ => None,
        });
        for (k, n) in goal_counts {
            let every_move_removes_one = self.moves.iter().all(|m| {
                let top = m
                    .ops
                    .iter()
                    .filter(|op| matches!(op, Op::Remove { piece, .. } if *piece == k))
                    .count();
                let mut nested_or_created = 0;
                for op in &m.ops {
                    if let Op::If { .. } | Op::ForCells { .. } = op {
                        walk_ops(std::slice::from_ref(op), &mut |o| {
                            if matches!(o, Op::Remove { piece, .. } if *piece == k) {
                                nested_or_created += 1;
                            }
                        });
                    }
                }
                walk_ops(&m.ops, &mut |o| {
                    if matches!(o, Op::Create { piece, .. } if *piece == k) {
                        nested_or_created += 1;
                    }
                });
                top == 1 && nested_or_created == 0
            });
            if every_move_removes_one {
                return Some((k, n));
            }
        }
        None
    }

    /// Every tile change the rules can make, as (from, to): breaks, changes and both
    /// directions of toggles.
    pub(crate) fn tile_changes(&self) -> Vec<(TileId, TileId)> {
        let mut out: Vec<(TileId, TileId)> = self
            .tiles
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((TileId(i as u16), t.becomes?)))
            .collect();
        for m in &self.moves {
            walk_ops(&m.ops, &mut |op| {
                if let Op::Change {
                    from, to, toggle, ..
                } = op
                {
                    out.push((*from, *to));
                    if *toggle {
                        out.push((*to, *from));
                    }
                }
            });
        }
        out.sort_unstable();
        out.dedup();
        out
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
        let unit_costs =
            self.costs.len() <= 1 && self.moves.iter().all(|m| m.adds.iter().all(|&a| a == 1));
        self.facts.unit_costs = unit_costs;
        self.facts = Facts {
            countdown: self.find_countdown(),
            unit_costs,
            static_tiles: self.tiles.iter().all(|t| t.becomes.is_none())
                && self.tile_changes().is_empty(),
            basic: self.counters.is_empty()
                && self.goal_rest.is_empty()
                && self.pieces.iter().all(|p| p.max.is_none())
                && self.moves.iter().all(|m| {
                    let all = m.param
                        == Param::Dirs((0..self.dirs.len()).map(|d| DirId(d as u16)).collect());
                    let mut plain = all;
                    walk_ops(&m.ops, &mut |op| plain &= op_is_basic(op));
                    plain
                }),
        };
    }
}

/// Calls `f` on every op of `ops`, nested ones included.
pub(crate) fn walk_ops(ops: &[Op], f: &mut impl FnMut(&Op)) {
    for op in ops {
        f(op);
        match op {
            Op::If { then, els, .. } => {
                walk_ops(then, f);
                walk_ops(els, f);
            }
            Op::ForCells { body, .. } => walk_ops(body, f),
            _ => {}
        }
    }
}

/// Whether an op is one of the seed mechanics' plain forms.
fn op_is_basic(op: &Op) -> bool {
    let one = |s: &Step| s.times == 1;
    match op {
        Op::Test { cell, .. } => cell.step.as_ref().is_none_or(one),
        Op::Shift {
            step, alias, each, ..
        }
        | Op::Slide {
            step, alias, each, ..
        } => one(step) && alias.is_none() && !each,
        Op::Swap { step, alias, .. } => one(step) && alias.is_none(),
        Op::Turn { alias, .. } => alias.is_none(),
        Op::Check { .. }
        | Op::Remove { .. }
        | Op::Create { .. }
        | Op::Change { .. }
        | Op::Count { .. }
        | Op::If { .. }
        | Op::ForCells { .. } => false,
    }
}
