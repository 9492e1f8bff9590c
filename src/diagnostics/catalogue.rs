//! The catalogue: every diagnostic puz reports about a `.puz` file or a level, as one
//! enum, [`Problem`].
//!
//! Each variant has a unique code, a labelled span and help where a fix exists. The
//! variants are grouped by the stage that finds them: syntax, check, level, lint (their
//! codes say which).

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

use super::words::{quantity, thousands};

/// One problem found in a `.puz` file or level.
#[derive(Debug, Error, Diagnostic, Clone)]
pub enum Problem {
    /// A problem of a PuzzleScript game source (`crate::puzzlescript`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    PuzzleScript(#[from] super::puzzlescript::PsProblem),

    /// A problem of a level collection or a LURD solution (`crate::io::formats`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Format(#[from] super::formats::FormatProblem),

    /// The text does not follow the grammar: `tiles { floor` (missing `}`).
    #[error("syntax error: expected {expected}")]
    #[diagnostic(code(puz::syntax::unexpected))]
    Syntax {
        /// Where parsing stopped.
        #[label("expected {expected}")]
        span: SourceSpan,
        /// What the grammar allows here, e.g. "`}`" or "a tile name".
        expected: String,
        /// A hint for the common mistake at this place, if any.
        #[help]
        help: Option<String>,
    },

    /// A block left open: a `{` whose `}` is missing, found where the next declaration
    /// starts (or where the file ends) inside it.
    #[error("this `{{` is never closed")]
    #[diagnostic(code(puz::syntax::unclosed_brace))]
    UnclosedBrace {
        /// The `{` left open.
        #[label("opened here")]
        open: SourceSpan,
        /// Where the next declaration starts, or the file's last token.
        #[label("{found}")]
        next: SourceSpan,
        /// "`move` starts the next declaration here" or "the file ends here".
        found: String,
        /// How to close it.
        #[help]
        help: String,
    },

    /// An integer out of the range its place allows: `limit 99999999999`, `(0, 500)`.
    #[error("integer {text} is out of range")]
    #[diagnostic(code(puz::syntax::integer_range))]
    IntegerRange {
        /// The integer.
        #[label("out of range")]
        span: SourceSpan,
        /// The integer as written.
        text: String,
        /// The range allowed at this place.
        #[help]
        help: String,
    },

    /// A string or text block that is never closed: `puzzle "Bloxorz`.
    #[error("{what} is never closed")]
    #[diagnostic(code(puz::syntax::unterminated))]
    Unterminated {
        /// What is open, e.g. "this string".
        what: &'static str,
        /// The opening quote or `"""`.
        #[label("opened here")]
        span: SourceSpan,
        /// How to close it.
        #[help]
        help: String,
    },

    /// An escape the language does not define: `'\n'` (a line break is never a level cell),
    /// `"\q"`.
    #[error("unknown escape `{text}`")]
    #[diagnostic(code(puz::syntax::bad_escape))]
    BadEscape {
        /// The escape as written, e.g. `\q`.
        text: String,
        /// The escape.
        #[label("not allowed here")]
        span: SourceSpan,
        /// The escapes allowed here.
        #[help]
        help: String,
    },

    /// A level text block whose opening `"""` is not followed by a line break.
    #[error("a level's text must start on the line after its opening \"\"\"")]
    #[diagnostic(
        code(puz::syntax::text_block),
        help("put the rows between a line holding \"\"\" and a line holding \"\"\"")
    )]
    TextBlock {
        /// The text after the opening `"""`.
        #[label("text starts here")]
        span: SourceSpan,
    },

    /// A name used but never declared: `forbid block on voyd`.
    #[error("unknown {kind} `{name}`")]
    #[diagnostic(code(puz::check::unknown_name))]
    UnknownName {
        /// What kind of thing was expected, e.g. "tile".
        kind: &'static str,
        /// The unknown name.
        name: String,
        /// Where the name is used.
        #[label("not a declared {kind}")]
        span: SourceSpan,
        /// A close declared name, if any.
        #[help]
        help: Option<String>,
    },

    /// A name of the wrong kind: a tile where a piece is needed, `shift floor d`.
    #[error("`{name}` is a {found}, but a {expected} is needed here")]
    #[diagnostic(code(puz::check::wrong_kind))]
    WrongKind {
        /// The name used.
        name: String,
        /// What the name is declared as, e.g. "tile".
        found: &'static str,
        /// What kind of thing is needed here, e.g. "piece".
        expected: &'static str,
        /// Where the name is used.
        #[label("a {found}")]
        span: SourceSpan,
        /// Where the name is declared.
        #[label("declared here")]
        declared: SourceSpan,
        /// A close name of the right kind, if any.
        #[help]
        help: Option<String>,
    },

    /// A name declared twice: two `pose stand`.
    #[error("{kind} `{name}` is defined twice")]
    #[diagnostic(
        code(puz::check::duplicate_definition),
        help("rename one of them or remove the repeat")
    )]
    Duplicate {
        /// What kind of thing the name is, e.g. "pose".
        kind: &'static str,
        /// The name declared twice.
        name: String,
        /// The second declaration.
        #[label("defined again here")]
        span: SourceSpan,
        /// The first declaration.
        #[label("first defined here")]
        first: SourceSpan,
    },

    /// A declaration that may appear once, written twice: two `goal` lines.
    #[error("`{keyword}` may appear only once")]
    #[diagnostic(
        code(puz::check::duplicate_section),
        help("merge the two declarations into one")
    )]
    DuplicateSection {
        /// The declaration's keyword, e.g. `goal`.
        keyword: &'static str,
        /// The second declaration.
        #[label("declared again here")]
        span: SourceSpan,
        /// The first declaration.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A required declaration is missing: no `goal`.
    #[error("the puzzle has no `{keyword}` declaration")]
    #[diagnostic(code(puz::check::missing_section))]
    MissingSection {
        /// The missing declaration's keyword, e.g. `goal`.
        keyword: &'static str,
        /// The whole file.
        #[label("in this file")]
        span: SourceSpan,
        /// An example of the declaration.
        #[help]
        help: String,
    },

    /// One legend symbol given two meanings: `'.' floor` and `'.' ice`.
    #[error("legend symbol {key} is used twice")]
    #[diagnostic(
        code(puz::check::duplicate_legend_key),
        help("every symbol must mean one thing; pick another symbol")
    )]
    DuplicateLegendKey {
        /// The symbol as written, e.g. `'.'`.
        key: String,
        /// The second use of the symbol.
        #[label("used again here")]
        span: SourceSpan,
        /// The first use of the symbol.
        #[label("first used here")]
        first: SourceSpan,
    },

    /// A declaration whose list is empty: `dirs { }`.
    #[error("`{keyword}` declares nothing")]
    #[diagnostic(code(puz::check::empty_declaration))]
    EmptyDeclaration {
        /// The declaration's keyword, e.g. `dirs`.
        keyword: &'static str,
        /// The empty declaration.
        #[label("empty")]
        span: SourceSpan,
        /// An example of what the declaration holds.
        #[help]
        help: String,
    },

    /// More of one kind than puz can number: 33 marks, 65,536 tile kinds. Every id is
    /// stored in a fixed-width integer, so every count is checked against its width here.
    #[error("too many {what}: {}, at most {} are supported", thousands(.count), thousands(.limit))]
    #[diagnostic(code(puz::check::too_many))]
    TooMany {
        /// What there are too many of, e.g. "marks".
        what: &'static str,
        /// How many were declared.
        count: usize,
        /// The most puz supports.
        limit: usize,
        /// The first one over the limit.
        #[label("one too many")]
        span: SourceSpan,
        /// Why puz has this limit.
        #[help]
        help: String,
    },

    /// A piece declared with braces but no poses: `piece man { }`.
    #[error("piece `{piece}` declares no poses")]
    #[diagnostic(
        code(puz::check::no_poses),
        help("add a pose such as `pose at {{ (0, 0) }}`, or drop the braces for a one-cell piece")
    )]
    NoPoses {
        /// The piece's name.
        piece: String,
        /// The piece's empty braces.
        #[label("no poses")]
        span: SourceSpan,
    },

    /// A tile declared to turn into itself: `block -> block`.
    #[error("tile `{tile}` is declared to turn into itself")]
    #[diagnostic(
        code(puz::check::self_mutation),
        help("name the tile it becomes when broken, e.g. `block -> floor`, or drop the `->`")
    )]
    SelfMutation {
        /// The tile's name.
        tile: String,
        /// The `-> tile` that names the tile itself.
        #[label("turns into itself")]
        span: SourceSpan,
    },

    /// A pose with no cells: `pose stand { }`.
    #[error("pose `{pose}` has an empty footprint")]
    #[diagnostic(
        code(puz::check::empty_footprint),
        help("list the cells the piece covers in this pose, e.g. `{{ (0, 0) }}`")
    )]
    EmptyFootprint {
        /// The pose's name.
        pose: String,
        /// The empty footprint.
        #[label("no cells here")]
        span: SourceSpan,
    },

    /// A footprint listing a cell twice: `{ (0, 0) (0, 0) }`.
    #[error("pose `{pose}` lists cell ({dr}, {dc}) twice")]
    #[diagnostic(code(puz::check::duplicate_cell), help("remove the repeated offset"))]
    DuplicateCell {
        /// The pose's name.
        pose: String,
        /// The repeated cell's row offset.
        dr: i64,
        /// The repeated cell's column offset.
        dc: i64,
        /// The second listing of the cell.
        #[label("repeated here")]
        span: SourceSpan,
        /// The first listing of the cell.
        #[label("first listed here")]
        first: SourceSpan,
    },

    /// A footprint that does not cover its anchor: `{ (1, 0) (2, 0) }`.
    #[error("pose `{pose}` does not cover its anchor cell (0, 0)")]
    #[diagnostic(code(puz::check::anchor_uncovered), help("a piece's position is its anchor: shift the offsets so that (0, 0) is one of the cells"))]
    AnchorUncovered {
        /// The pose's name.
        pose: String,
        /// The footprint.
        #[label("no (0, 0) among these cells")]
        span: SourceSpan,
    },

    /// A direction with a zero step: `n (0, 0)`.
    #[error("direction `{name}` does not move: its step is (0, 0)")]
    #[diagnostic(
        code(puz::check::zero_direction),
        help("give the direction a (row, column) step such as (-1, 0)")
    )]
    ZeroDirection {
        /// The direction's name.
        name: String,
        /// The `(0, 0)` step.
        #[label("zero step")]
        span: SourceSpan,
    },

    /// `letters` whose count differs from the number of directions.
    #[error("`letters` gives {given} letters but there are {expected} directions")]
    #[diagnostic(code(puz::check::letters_count))]
    LettersCount {
        /// How many letters are given.
        given: usize,
        /// How many directions are declared.
        expected: usize,
        /// The `letters` declaration.
        #[label("{given} letters")]
        span: SourceSpan,
        /// The directions in order, one letter each.
        #[help]
        help: String,
    },

    /// A move statement that may appear once in a move, written twice.
    #[error("`{keyword}` appears twice in move `{mv}`")]
    #[diagnostic(
        code(puz::check::duplicate_statement),
        help("merge them into one statement")
    )]
    DuplicateStatement {
        /// The statement's keyword, e.g. `shift`.
        keyword: &'static str,
        /// The move's name.
        mv: String,
        /// The second statement.
        #[label("again here")]
        span: SourceSpan,
        /// The first statement.
        #[label("first here")]
        first: SourceSpan,
    },

    /// A turn table with two rules for the same pose and direction.
    #[error("turn table has two rules for pose `{pose}` moving `{dir}`")]
    #[diagnostic(
        code(puz::check::duplicate_turn_rule),
        help("keep one rule per pose and direction")
    )]
    DuplicateTurnRule {
        /// The pose the two rules turn from.
        pose: String,
        /// The direction the two rules share.
        dir: String,
        /// The second rule.
        #[label("second rule")]
        span: SourceSpan,
        /// The first rule.
        #[label("first rule")]
        first: SourceSpan,
    },

    /// A level file for rules whose goals are all drawn as level pictures.
    #[error("this level has no goal: the rules leave goals to the levels' pictures, and this level file draws none")]
    #[diagnostic(
        code(puz::level::no_goal),
        help("draw the finished board in the level file, after its rows, a blank line and a line `goal`; or add a `goal` declaration to the rules")
    )]
    LevelWithoutGoal {
        /// The level.
        #[label("no goal for this level")]
        span: SourceSpan,
    },

    /// A goal picture whose size differs from its level.
    #[error("the goal picture is {rows} x {cols}, but level `{level}` is {lrows} x {lcols}")]
    #[diagnostic(
        code(puz::level::picture_size),
        help("draw the finished board with as many rows and columns as the level")
    )]
    PictureSize {
        /// The level.
        level: String,
        /// The picture's rows.
        rows: usize,
        /// The picture's columns.
        cols: usize,
        /// The level's rows.
        lrows: usize,
        /// The level's columns.
        lcols: usize,
        /// The picture.
        #[label("this picture")]
        span: SourceSpan,
    },

    /// A direction used in a move that has none (a per-cell move).
    #[error("move `{mv}` is played on a cell, so it has no direction `{name}`")]
    #[diagnostic(
        code(puz::check::no_direction),
        help(
            "name a declared direction (`c + n`), or make the move per direction: `move {mv}(d)`"
        )
    )]
    NoDirection {
        /// The move's name.
        mv: String,
        /// The name used as a direction.
        name: String,
        /// Where.
        #[label("not a direction of this move")]
        span: SourceSpan,
    },

    /// `toggle a a`.
    #[error("`toggle` between `{tile}` and itself changes nothing")]
    #[diagnostic(
        code(puz::check::toggle_self),
        help("name two different tiles, e.g. `toggle on off at c`")
    )]
    ToggleSelf {
        /// The tile.
        tile: String,
        /// The statement.
        #[label("the same tile twice")]
        span: SourceSpan,
    },

    /// A counter value outside `0..=max`.
    #[error("{what} {value} is outside counter `{name}`'s range 0..={max}")]
    #[diagnostic(
        code(puz::check::counter_range),
        help("counters hold 0 to their `max`; raise `max` or use a value in range")
    )]
    CounterRange {
        /// What the value is ("start value", "value").
        what: &'static str,
        /// The counter.
        name: String,
        /// The value.
        value: i64,
        /// Its maximum.
        max: i64,
        /// Where.
        #[label("out of range")]
        span: SourceSpan,
    },

    /// Removing a named piece the goal needs.
    #[error("move `{mv}` removes `{piece}`, but the goal needs it on the board")]
    #[diagnostic(
        code(puz::check::remove_goal_piece),
        help("a removed piece can never meet the goal; remove a copy of an anonymous kind, or change the goal")
    )]
    RemoveGoalPiece {
        /// The move.
        mv: String,
        /// The piece.
        piece: String,
        /// The statement.
        #[label("removed here")]
        span: SourceSpan,
        /// The goal.
        #[label("the goal names it")]
        goal: SourceSpan,
    },

    /// `create` of a kind with no room for new copies.
    #[error("move `{mv}` creates `{piece}`, but `{piece}` has no room for new copies")]
    #[diagnostic(
        code(puz::check::create_without_room),
        help("say how many copies may exist at once: `piece {piece} anonymous max 20`")
    )]
    CreateWithoutRoom {
        /// The move.
        mv: String,
        /// The piece.
        piece: String,
        /// The statement.
        #[label("created here")]
        span: SourceSpan,
    },

    /// `as NAME` on something that is not a piece.
    #[error("only a piece found at a cell can be named with `as`, but `{what}` is a {found}")]
    #[diagnostic(
        code(puz::check::alias_not_piece),
        help("drop `as {alias}`: tiles and marks are tested, not bound")
    )]
    AliasNotPiece {
        /// The subject.
        what: String,
        /// Its kind.
        found: &'static str,
        /// The alias.
        alias: String,
        /// Where.
        #[label("names a {found}")]
        span: SourceSpan,
    },

    /// A `turn` in a move played on cells: its table rows are per direction.
    #[error("`turn` in move `{mv}`, which is played on cells (`{cell}`), not in a direction")]
    #[diagnostic(
        code(puz::check::turn_in_cell_move),
        help("a turn table says where each pose goes in each direction; play the move in directions (`move {mv}(d)`), or set the pose by removing and creating the piece (`create piece.pose at {cell}`)")
    )]
    TurnInCellMove {
        /// The move.
        mv: String,
        /// Its cell parameter.
        cell: String,
        /// The statement.
        #[label("no direction to turn by")]
        span: SourceSpan,
    },

    /// An attribute compared that the piece does not carry in every pose.
    #[error("piece `{piece}` has no attribute `{attr}`{where_}")]
    #[diagnostic(code(puz::check::unknown_attribute))]
    UnknownAttribute {
        /// The piece kind.
        piece: String,
        /// The attribute.
        attr: String,
        /// " in pose `p`" when only some poses lack it, else empty.
        where_: String,
        /// Where it is compared.
        #[label("not an attribute of every pose of `{piece}`")]
        span: SourceSpan,
        /// How to declare it.
        #[help]
        help: String,
    },

    /// An attribute given twice in one `has` list, or an attribute named like a pose.
    #[error("attribute `{attr}` is given twice for {owner}")]
    #[diagnostic(
        code(puz::check::duplicate_attribute),
        help(
            "give each attribute once per piece or pose; a pose's own value overrides the piece's"
        )
    )]
    DuplicateAttribute {
        /// The attribute.
        attr: String,
        /// "piece `disk`" or "pose `disk.big`".
        owner: String,
        /// The second one.
        #[label("given again here")]
        span: SourceSpan,
    },

    /// An attribute of an anonymous kind in a goal, where no copy is bound.
    #[error(
        "a goal cannot compare an attribute of `{piece}`: it is anonymous, so no one copy is meant"
    )]
    #[diagnostic(
        code(puz::check::attribute_in_goal),
        help("compare attributes of named pieces in a goal, or count copies in a pose instead (`count(...)`, `disk.big at (0, 1)`)")
    )]
    AttributeInGoal {
        /// The piece kind.
        piece: String,
        /// Where.
        #[label("an anonymous kind")]
        span: SourceSpan,
    },

    /// A name bound where only a plain test is allowed (under `not`/`or`).
    #[error("`as {alias}` can only bind a copy in a plain `require` or `if` condition")]
    #[diagnostic(
        code(puz::check::alias_in_expression),
        help("under `not` or `or` nothing is found for sure; test without `as`, or move it to its own `require`")
    )]
    AliasInExpression {
        /// The alias.
        alias: String,
        /// Where.
        #[label("bound under `not`/`or`/`forbid`/`goal`")]
        span: SourceSpan,
    },

    /// A move with no effect statement: it would never change the state.
    #[error("move `{mv}` changes nothing")]
    #[diagnostic(
        code(puz::check::move_without_effect),
        help("add a statement that changes the state: `shift`, `swap`, `turn`, `slide`, `remove`, `create`, `change`, `toggle` or a counter update")
    )]
    MoveWithoutEffect {
        /// The move's name.
        mv: String,
        /// The move.
        #[label("this move has no effect")]
        span: SourceSpan,
    },

    /// A move that adds to no cost component when the puzzle declares costs.
    #[error("move `{mv}` adds to no cost component")]
    #[diagnostic(code(puz::check::free_move), help("every move must cost something, or cheapest answers are not well defined: add `adds {first}` (or another component)"))]
    FreeMove {
        /// The move's name.
        mv: String,
        /// The first declared cost component, suggested in the help.
        first: String,
        /// The move.
        #[label("costs nothing")]
        span: SourceSpan,
    },

    /// `limit 0`: no move could ever be made.
    #[error("a move limit of {value} allows no moves")]
    #[diagnostic(
        code(puz::check::bad_limit),
        help("give a positive limit, or remove `limit` for no limit")
    )]
    BadLimit {
        /// The limit as given.
        value: i64,
        /// The limit.
        #[label("must be at least 1")]
        span: SourceSpan,
    },

    /// `expect 6` when the cost has two components: the expectation cannot be compared.
    #[error(
        "`expect` gives {given} number(s), but the cost has {want} component(s) ({components})"
    )]
    #[diagnostic(code(puz::check::expect_arity))]
    ExpectArity {
        /// Numbers written.
        given: usize,
        /// Cost components declared (1 when there is no `cost`).
        want: usize,
        /// The components' names.
        components: String,
        /// The clause.
        #[label("{given} number(s) here")]
        span: SourceSpan,
        /// What to write.
        #[help]
        help: String,
    },

    /// `counter k max -3`, `piece coin anonymous max -1`: a bound below zero.
    #[error("{what} `{name}` has a `max` of {value}, below zero")]
    #[diagnostic(
        code(puz::check::negative_max),
        help("a counter holds 0 to its `max`, a kind has room for `max` copies: give 0 or more")
    )]
    NegativeMax {
        /// What is bounded: "counter" or "piece".
        what: &'static str,
        /// Its name.
        name: String,
        /// The number as written.
        value: i64,
        /// The number.
        #[label("must be 0 or more")]
        span: SourceSpan,
    },

    /// `expect -3`: no answer costs less than nothing.
    #[error("an expected cost of {value} is below zero")]
    #[diagnostic(
        code(puz::check::negative_expect),
        help("write the level's optimal cost (0 or more), or `expect none` for no solution")
    )]
    NegativeExpect {
        /// The number as written.
        value: i64,
        /// The number.
        #[label("must be 0 or more")]
        span: SourceSpan,
    },

    /// A cost component that no move adds to.
    #[error("cost component `{name}` is never added by any move")]
    #[diagnostic(
        code(puz::check::unused_cost),
        help("add `adds {name}` to the moves it counts, or remove it from `cost`")
    )]
    UnusedCost {
        /// The cost component's name.
        name: String,
        /// The component in `cost`.
        #[label("declared here")]
        span: SourceSpan,
    },

    /// A slide with no event that stops it.
    #[error("slide of `{piece}` never stops")]
    #[diagnostic(
        code(puz::check::slide_never_stops),
        help("add an event with `stop`, e.g. `before wall: stop`")
    )]
    SlideNeverStops {
        /// The sliding piece's name.
        piece: String,
        /// The slide statement.
        #[label("no `stop` action")]
        span: SourceSpan,
    },

    /// `break` on an event whose tile does not turn into anything.
    #[error("`break` needs a tile that turns into another, but {what}")]
    #[diagnostic(code(puz::check::break_immutable))]
    BreakImmutable {
        /// Why nothing can break there, e.g. "`wall` never turns into anything".
        what: String,
        /// The `break` action.
        #[label("cannot break")]
        span: SourceSpan,
        /// How to make the tile breakable, or to drop `break`.
        #[help]
        help: String,
    },

    /// A judge format without a statement it needs: `judge { }` has no `cases`.
    #[error("judge format: no `{what}` statement")]
    #[diagnostic(code(puz::check::judge_missing_statement))]
    JudgeMissingStatement {
        /// The missing statement's keyword, e.g. `cases`.
        what: &'static str,
        /// The judge format.
        #[label("this judge format")]
        span: SourceSpan,
        /// An example of the statement.
        #[help]
        help: String,
    },

    /// A judge statement that may appear once, written twice: `grid chars` then `grid ints`.
    #[error("judge format: `{keyword}` is given twice")]
    #[diagnostic(
        code(puz::check::judge_duplicate_statement),
        help("keep one of them: a judge format reads its input one way")
    )]
    JudgeDuplicateStatement {
        /// The statement's keyword, e.g. `grid`.
        keyword: &'static str,
        /// The second statement.
        #[label("given again here")]
        span: SourceSpan,
        /// The first statement.
        #[label("first given here")]
        first: SourceSpan,
    },

    /// A header naming one number twice: `header rows, cols, rows`.
    #[error("judge format: the header names `{field}` twice")]
    #[diagnostic(
        code(puz::check::judge_repeated_field),
        help("each of `rows`, `cols` and `queries` may open a case at most once")
    )]
    JudgeRepeatedField {
        /// The repeated field, e.g. `rows`.
        field: &'static str,
        /// The second naming of the field.
        #[label("named again here")]
        span: SourceSpan,
        /// The first naming of the field.
        #[label("first named here")]
        first: SourceSpan,
    },

    /// A header that does not give the board size: `header rows`.
    #[error("judge format: the header does not give `{field}`")]
    #[diagnostic(
        code(puz::check::judge_missing_size),
        help("a header must give the board's `rows` and `cols`, e.g. `header rows, cols`")
    )]
    JudgeMissingSize {
        /// The missing field: `rows` or `cols`.
        field: &'static str,
        /// The header.
        #[label("no `{field}` here")]
        span: SourceSpan,
    },

    /// `header rows, cols, queries` with no `query` statement saying what a query places.
    #[error("judge format: the header gives `queries` but there is no `query` statement")]
    #[diagnostic(
        code(puz::check::judge_queries_without_query),
        help(
            "say what each query line places, e.g. `query hole, token, target`, or drop `queries`"
        )
    )]
    JudgeQueriesWithoutQuery {
        /// The `queries` field of the header.
        #[label("a query count")]
        span: SourceSpan,
    },

    /// A `query` statement with no `queries` count in the header.
    #[error("judge format: there is a `query` statement but the header gives no `queries` count")]
    #[diagnostic(
        code(puz::check::judge_query_without_queries),
        help("add `queries` to the header, e.g. `header rows, cols, queries`")
    )]
    JudgeQueryWithoutQueries {
        /// The `query` statement.
        #[label("queries are read, but never counted")]
        span: SourceSpan,
    },

    /// `print invalid` in a format without queries, where no answer can be invalid.
    #[error("judge format: `print invalid` applies only to queries")]
    #[diagnostic(
        code(puz::check::judge_invalid_without_query),
        help("remove it, or add a `query` statement")
    )]
    JudgeInvalidWithoutQuery {
        /// The `print invalid` statement.
        #[label("never printed")]
        span: SourceSpan,
    },

    /// `cases until 0 0 0` with a two-number header: no header can ever end the input.
    #[error("judge format: `cases until` gives {given} numbers, but a header has {expected}")]
    #[diagnostic(code(puz::check::judge_until_arity))]
    JudgeUntilArity {
        /// How many numbers `cases until` gives.
        given: usize,
        /// How many numbers the header has.
        expected: usize,
        /// The `cases until` numbers.
        #[label("{given} numbers")]
        span: SourceSpan,
        /// The header.
        #[label("a header of {expected}")]
        header: SourceSpan,
        /// One number per header field, with an example.
        #[help]
        help: String,
    },

    /// A query placing a `single` mark: the board it is placed on must already hold exactly
    /// one, so every query would place a second one.
    #[error("judge format: a query places `{mark}`, which is a `single` mark")]
    #[diagnostic(
        code(puz::check::judge_query_single_mark),
        help("a `single` mark must appear once on the board itself; drop `single` from `{mark}` in `marks` so that queries may place it")
    )]
    JudgeQuerySingleMark {
        /// The mark's name.
        mark: String,
        /// Where the query places the mark.
        #[label("placed by every query")]
        span: SourceSpan,
        /// Where the mark is declared `single`.
        #[label("declared `single` here")]
        declared: SourceSpan,
    },

    /// A query placing a piece that is not `anonymous` twice: `query blank, blank`.
    #[error("judge format: a query places piece `{name}` twice")]
    #[diagnostic(
        code(puz::check::judge_query_repeats),
        help("a piece that is not `anonymous` stands at exactly one place; name it once, or declare it `anonymous`")
    )]
    JudgeQueryRepeats {
        /// The piece's name.
        name: String,
        /// The second placing of the piece.
        #[label("again here")]
        span: SourceSpan,
        /// The first placing of the piece.
        #[label("first here")]
        first: SourceSpan,
    },

    /// A negative integer legend symbol: `-1 floor`. Integer symbols are codes from 0 up.
    #[error("legend symbol {value} is negative")]
    #[diagnostic(
        code(puz::check::negative_symbol),
        help("integer symbols are non-negative codes; use another number, e.g. 0")
    )]
    NegativeSymbol {
        /// The symbol's value.
        value: i64,
        /// The symbol.
        #[label("negative")]
        span: SourceSpan,
    },

    /// A legend symbol placing the same piece or mark twice: `'X' floor + man + man`.
    #[error("legend symbol {key} places `{name}` twice")]
    #[diagnostic(
        code(puz::check::repeated_placement),
        help("a cell holds at most one of each piece and mark: name it once")
    )]
    RepeatedPlacement {
        /// The symbol as written, e.g. `'X'`.
        key: String,
        /// The piece or mark placed twice.
        name: String,
        /// The second placing.
        #[label("again here")]
        span: SourceSpan,
        /// The first placing.
        #[label("first here")]
        first: SourceSpan,
    },

    /// A pose chosen in the legend for something that is not a piece: `'.' floor.east` or
    /// `'o' floor + goal.east`.
    #[error("`{name}` is a {found}, so it has no pose `{pose}`")]
    #[diagnostic(
        code(puz::check::pose_of_non_piece),
        help("only a piece chooses a start pose (`'>' floor + turtle.east`); write `{name}` without `.{pose}`")
    )]
    PoseOfNonPiece {
        /// The tile or mark.
        name: String,
        /// What it is: "tile" or "mark".
        found: &'static str,
        /// The pose written after it.
        pose: String,
        /// The pose as written.
        #[label("not a piece's pose")]
        span: SourceSpan,
    },

    /// A move listed twice in one metric: `metric m { straight walk  chain walk }`.
    #[error("move `{mv}` is listed twice in metric `{metric}`")]
    #[diagnostic(
        code(puz::check::metric_repeated_move),
        help(
            "a move combines one way in a metric: keep it under `straight` or under `chain`, once"
        )
    )]
    MetricRepeatsMove {
        /// The move.
        mv: String,
        /// The metric.
        metric: String,
        /// The second listing.
        #[label("listed again here")]
        span: SourceSpan,
        /// The first listing.
        #[label("first listed here")]
        first: SourceSpan,
    },

    /// Two `expect` clauses for the same metric (or two plain ones) on one level.
    #[error("level \"{level}\" has two expectations {what}")]
    #[diagnostic(
        code(puz::check::duplicate_expect),
        help("a level records one answer per metric: remove one of them")
    )]
    DuplicateExpect {
        /// The level.
        level: String,
        /// "for the plain count" or "under metric `m`".
        what: String,
        /// The second clause.
        #[label("expected again here")]
        span: SourceSpan,
        /// The first clause.
        #[label("first expected here")]
        first: SourceSpan,
    },

    /// `chain` or `straight` of a move that moves no piece (a Lights Out press): there is
    /// no piece whose consecutive applications could be combined.
    #[error("`{combine}` of move `{mv}`, which moves no piece")]
    #[diagnostic(
        code(puz::check::chain_without_piece),
        help("metrics combine consecutive moves of one piece; a move that only changes tiles or counters counts one per application: leave it out of the metric")
    )]
    ChainWithoutPiece {
        /// `chain` or `straight`.
        combine: &'static str,
        /// The move.
        mv: String,
        /// The move in the metric.
        #[label("moves no piece")]
        span: SourceSpan,
        /// The move's declaration.
        #[label("declared here")]
        declared: SourceSpan,
    },

    /// `straight` of a move that has no direction: `move press(cell c)`.
    #[error("`straight` of move `{mv}`, which has no direction")]
    #[diagnostic(
        code(puz::check::straight_without_direction),
        help("`straight` repeats a move in one direction; use `chain` for a move played on cells")
    )]
    StraightWithoutDirection {
        /// The move.
        mv: String,
        /// The move in the metric.
        #[label("no direction to go straight in")]
        span: SourceSpan,
        /// The move's parameter.
        #[label("played on a cell")]
        param: SourceSpan,
    },

    /// `straight` of a move whose repeated application may not advance: it could return to
    /// a state it left (no unconditional `shift`, `swap` or `slide` by a positive multiple
    /// of `d`, or a `turn` whose offsets do not all advance along the direction).
    #[error("`straight` of move `{mv}` may cycle: its step does not provably advance along its direction")]
    #[diagnostic(
        code(puz::check::compound_may_cycle),
        help("a straight compound needs a move that always advances a piece along `d`: an unconditional `shift`, `swap` or `slide` by `d` (or `2d`), or a `turn` whose offsets all point along the direction; use `chain` otherwise")
    )]
    CompoundMayCycle {
        /// The move.
        mv: String,
        /// The move in the metric.
        #[label("may not advance")]
        span: SourceSpan,
        /// The move's declaration.
        #[label("declared here")]
        declared: SourceSpan,
    },

    /// A colour in `look` that is not `#rgb` or `#rrggbb`: `wall #12`, `box #ggg`.
    #[error("`{text}` is not a colour")]
    #[diagnostic(
        code(puz::check::bad_color),
        help("write a colour as `#` and 3 or 6 hex digits: `#a52` or `#aa5522`")
    )]
    BadColor {
        /// The colour as written.
        text: String,
        /// The colour.
        #[label("{why}")]
        span: SourceSpan,
        /// What is wrong with it.
        why: &'static str,
    },

    /// A sprite row of another width than the first: `sprite """ 00 \n 000 """`.
    #[error("sprite row {row} has {}, but the first row has {expected}", quantity(*.found as u64, "cells"))]
    #[diagnostic(
        code(puz::check::sprite_ragged),
        help(
            "a sprite is a rectangle: give every row the same number of cells (`.` is see-through)"
        )
    )]
    SpriteRagged {
        /// The row, counting from 1.
        row: usize,
        /// Its width.
        found: usize,
        /// The first row's width.
        expected: usize,
        /// The row.
        #[label("{} here", quantity(*found as u64, "cells"))]
        span: SourceSpan,
        /// The first row.
        #[label("the first row")]
        first: SourceSpan,
    },

    /// A sprite cell that is neither a colour number nor `.`: `sprite """ 0x0 """`.
    #[error("sprite cell `{text}` is not a colour number or `.`")]
    #[diagnostic(
        code(puz::check::sprite_cell),
        help("a sprite cell is a digit, the number of one of the look's colours (`0` the first), or `.` for see-through")
    )]
    SpriteCell {
        /// The character.
        text: String,
        /// The cell.
        #[label("not a colour number")]
        span: SourceSpan,
    },

    /// A sprite cell numbering a colour the look does not give: `box #a52 sprite """ 01 """`.
    #[error("sprite colour {index} is out of range: `{name}` has {}", quantity(*.count as u64, "colours"))]
    #[diagnostic(
        code(puz::check::sprite_color_range),
        help("colours count from 0 in the order written; add a colour after the name, or use a smaller number")
    )]
    SpriteColorRange {
        /// The number written.
        index: usize,
        /// The look's name.
        name: String,
        /// How many colours it gives.
        count: usize,
        /// The cell.
        #[label("no colour {index}")]
        span: SourceSpan,
        /// The colours.
        #[label("the colours, numbered from 0")]
        colors: SourceSpan,
    },

    /// A sprite with no cells, or larger than the page draws: `sprite """ """`.
    #[error("a sprite of {rows}x{cols} cells is {why}")]
    #[diagnostic(
        code(puz::check::sprite_size),
        help("draw a sprite of 1 to 16 rows and columns; PuzzleScript's are 5x5")
    )]
    SpriteSize {
        /// Its rows.
        rows: usize,
        /// Its columns (the first row's).
        cols: usize,
        /// `empty` or `too large`.
        why: &'static str,
        /// The sprite's text block.
        #[label("{why}")]
        span: SourceSpan,
    },

    /// A level with rows of different lengths.
    #[error("level row {row} has {}, but the first row has {expected}", quantity(*.found as u64, "cells"))]
    #[diagnostic(
        code(puz::level::ragged),
        help("every row of a level must have the same width")
    )]
    RaggedLevel {
        /// The row's number, counted from 1.
        row: usize,
        /// How many cells the row has.
        found: usize,
        /// How many cells the first row has.
        expected: usize,
        /// The row.
        #[label("{found} cells")]
        span: SourceSpan,
    },

    /// A level with no rows.
    #[error("level is empty")]
    #[diagnostic(code(puz::level::empty), help("write at least one row of cells"))]
    EmptyLevel {
        /// The level.
        #[label("no rows")]
        span: SourceSpan,
    },

    /// A level symbol the legend does not define.
    #[error("symbol {symbol} is not in the legend")]
    #[diagnostic(code(puz::level::unknown_symbol))]
    UnknownSymbol {
        /// The symbol as written.
        symbol: String,
        /// The cell holding the symbol.
        #[label("not in the legend")]
        span: SourceSpan,
        /// The legend's symbols, and how many more cells are unknown.
        #[help]
        help: String,
    },

    /// A level that does not place a piece (or a `single` mark).
    #[error("level places no {what}")]
    #[diagnostic(code(puz::level::missing_marker))]
    MissingMarker {
        /// What is missing, e.g. "piece `block`".
        what: String,
        /// The level.
        #[label("in this level")]
        span: SourceSpan,
        /// The legend symbols that would place it.
        #[help]
        help: String,
    },

    /// A level that places a single piece (or `single` mark) more than once.
    #[error("level places {what} {count} times, but there must be exactly one")]
    #[diagnostic(code(puz::level::too_many_markers))]
    TooManyMarkers {
        /// What is placed too often, e.g. "mark `goal`".
        what: String,
        /// How many times it is placed.
        count: usize,
        /// The first placing.
        #[label("first placed here")]
        first: SourceSpan,
        /// The second placing.
        #[label("placed again here")]
        again: SourceSpan,
        /// The legend symbols that place it.
        #[help]
        help: String,
    },

    /// Marker cells that form none of the piece's poses.
    #[error("the cells placing `{piece}` match none of its poses")]
    #[diagnostic(code(puz::level::no_matching_pose))]
    NoMatchingPose {
        /// The piece's name.
        piece: String,
        /// The cells that place the piece.
        #[label("these cells")]
        span: SourceSpan,
        /// The number of marker cells here and the shapes of the piece's poses.
        #[help]
        help: String,
    },

    /// Cells placing an anonymous piece that no set of copies covers exactly: three
    /// touching cells of a kind whose only pose is a domino.
    #[error("the cells placing `{piece}` do not split into copies of its poses")]
    #[diagnostic(code(puz::level::no_tiling))]
    NoTiling {
        /// The piece's name.
        piece: String,
        /// The group of cells.
        #[label("these {count} cells")]
        span: SourceSpan,
        /// How many cells the group has.
        count: usize,
        /// The piece's footprints, and any symbols that may not share a copy.
        #[help]
        help: String,
    },

    /// Cells drawn with legend symbols that choose one pose (`'>' floor + turtle.east`)
    /// that copies of that pose's footprint do not cover exactly.
    #[error("the cells placing `{piece}.{pose}` do not split into copies of pose `{pose}`")]
    #[diagnostic(code(puz::level::pose_not_tiled))]
    PoseNotTiled {
        /// The piece's name.
        piece: String,
        /// The pose the symbols choose.
        pose: String,
        /// The group of cells.
        #[label("these cells")]
        span: SourceSpan,
        /// The symbols and the pose's footprint.
        #[help]
        help: String,
    },

    /// Cells placing an anonymous piece that split into copies in more than one way: a
    /// 2x2 square of a kind with a lying and a standing domino.
    #[error("the cells placing `{piece}` split into copies in more than one way")]
    #[diagnostic(code(puz::level::ambiguous_placement))]
    AmbiguousPlacement {
        /// The piece's name.
        piece: String,
        /// The cells the two readings place differently.
        #[label("read two ways")]
        span: SourceSpan,
        /// Two readings, and how to pick one.
        #[help]
        help: String,
    },

    /// Cells placing an anonymous piece that take too many steps to split into copies: a
    /// long strip of dominoes with one cell too many.
    #[error("the cells placing `{piece}` take too long to split into copies")]
    #[diagnostic(code(puz::level::placement_too_complex))]
    PlacementTooComplex {
        /// The piece's name.
        piece: String,
        /// The group of cells.
        #[label("these {count} cells")]
        span: SourceSpan,
        /// How many cells the group has.
        count: usize,
        /// The steps spent, and how to make the groups smaller.
        #[help]
        help: String,
    },

    /// A level whose pieces start in an illegal position.
    #[error("the level's start position breaks a rule: {rule}")]
    #[diagnostic(code(puz::level::illegal_start), help("a level must start in a legal position: no piece on a forbidden tile, off the board, or on another piece"))]
    IllegalStart {
        /// The rule the start breaks.
        rule: String,
        /// The first cell of the offending piece.
        #[label("{label}")]
        span: SourceSpan,
        /// The label on `span`, e.g. "this piece".
        label: String,
    },

    /// A level too large for puz's packed states.
    #[error("level is {rows} x {cols}: too large")]
    #[diagnostic(
        code(puz::level::too_large),
        help("levels may have at most 2^28 cells")
    )]
    LevelTooLarge {
        /// The level's number of rows.
        rows: usize,
        /// The level's number of columns.
        cols: usize,
        /// The level.
        #[label("this level")]
        span: SourceSpan,
    },

    // Lints: warnings about the rules in one level, found by `engine::lints`. `puz check`
    // and `puz solve` print them on stderr and still succeed.
    /// A move that can never apply in a level: a statement needs a piece, tile, mark or
    /// counter value the level does not have and no move can bring.
    #[error("move `{name}` can never apply in {level}")]
    #[diagnostic(
        code(puz::lint::move_never_applies),
        severity(Warning),
        help("the level lacks what this statement needs; add it to the level if the move is meant to be played there")
    )]
    MoveNeverApplies {
        /// The move's name.
        name: String,
        /// Where: `level "name"`, or `any level of the file`.
        level: String,
        /// The statement that always fails in this level.
        #[label("{why}")]
        span: SourceSpan,
        /// Why it always fails.
        why: String,
        /// The move's name in its header.
        #[label("in this move")]
        decl: SourceSpan,
    },

    /// A goal condition that can never hold in a level: it names a tile or mark the level
    /// lacks, or a count the level cannot reach.
    #[error("the goal can never hold in level {level:?}")]
    #[diagnostic(
        code(puz::lint::goal_never_holds),
        severity(Warning),
        help("no sequence of moves can make this hold in this level, so it has no solution; check the level against the goal")
    )]
    GoalNeverHolds {
        /// The level's name.
        level: String,
        /// The goal condition (or the level's goal picture).
        #[label("{why}")]
        span: SourceSpan,
        /// Why it never holds.
        why: String,
    },

    /// A goal condition about a piece kind of which a level has no copy and no move creates
    /// one: it holds at once, so the level starts solved.
    #[error("the goal constrains `{piece}`, but level {level:?} has none")]
    #[diagnostic(
        code(puz::lint::goal_piece_missing),
        severity(Warning),
        help("the condition holds with no copy at all, so the level starts solved; place the piece in the level")
    )]
    GoalPieceMissing {
        /// The piece kind.
        piece: String,
        /// The level's name.
        level: String,
        /// The goal condition.
        #[label("no `{piece}` in this level, and no move creates one")]
        span: SourceSpan,
    },

    /// `K at K + STEP` where the cell lies inside the moving copy's own footprint in some
    /// pose: `at` finds any copy, so there the test finds the moving copy itself.
    #[error(
        "`{text}` finds `{piece}` itself in pose `{pose}`: that cell is part of the moving copy"
    )]
    #[diagnostic(code(puz::lint::at_finds_itself), severity(Warning))]
    AtFindsItself {
        /// The piece kind.
        piece: String,
        /// A pose whose footprint covers the cell.
        pose: String,
        /// The condition as written.
        text: String,
        /// The statement.
        #[label("always true while `{piece}` is in pose `{pose}`")]
        span: SourceSpan,
        /// What to write instead.
        #[help]
        help: String,
    },

    /// A slide with no `off board` rule that can reach the edge of a level: the move then
    /// fails without a word.
    #[error("`{piece}` can slide off the board in level {level:?}, and no rule says what happens")]
    #[diagnostic(code(puz::lint::slide_off_board), severity(Warning))]
    SlideOffBoard {
        /// The sliding piece kind.
        piece: String,
        /// The level's name.
        level: String,
        /// The slide statement.
        #[label("{why}")]
        span: SourceSpan,
        /// Where the slide leaves the board.
        why: String,
        /// What to do about it.
        #[help]
        help: String,
    },

    /// A goal piece that cannot reach a place meeting its goal even moving alone, with
    /// every other piece out of the way.
    #[error(
        "in level {level:?}, `{piece}` at ({row},{col}) can never meet the goal, even moving alone"
    )]
    #[diagnostic(
        code(puz::lint::goal_out_of_reach),
        severity(Warning),
        help("no sequence of moves takes the piece to a place that meets this condition, even with every other piece removed; the level has no solution")
    )]
    GoalOutOfReach {
        /// The piece kind.
        piece: String,
        /// Its start row.
        row: u32,
        /// Its start column.
        col: u32,
        /// The level's name.
        level: String,
        /// The goal condition.
        #[label("{why}")]
        span: SourceSpan,
        /// What it cannot reach.
        why: String,
        /// The piece in the level text, when the level is written in the `.puz` file.
        #[label("starts here")]
        start: Option<SourceSpan>,
    },
}

impl Problem {
    /// The diagnostic code, e.g. `puz::check::unknown_name`.
    pub fn code_str(&self) -> String {
        self.code().map(|c| c.to_string()).unwrap_or_default()
    }
}
