//! Every diagnostic puz reports about a `.puz` file or a level, as one enum.
//!
//! Each variant has a unique code, a labelled span and help where a fix exists. A run
//! collects all of them into one [`Diagnostics`] value with the source attached once.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

/// One problem found in a `.puz` file or level.
#[derive(Debug, Error, Diagnostic, Clone)]
pub enum Problem {
    /// The text does not follow the grammar: `tiles { floor` (missing `}`).
    #[error("syntax error: expected {expected}")]
    #[diagnostic(code(puz::syntax::unexpected))]
    Syntax {
        #[label("expected {expected}")]
        span: SourceSpan,
        expected: String,
        #[help]
        help: Option<String>,
    },

    /// An integer out of the range its place allows: `limit 99999999999`, `(0, 500)`.
    #[error("integer {text} is out of range")]
    #[diagnostic(code(puz::syntax::integer_range))]
    IntegerRange {
        #[label("out of range")]
        span: SourceSpan,
        text: String,
        #[help]
        help: String,
    },

    /// A string or text block that is never closed: `puzzle "Bloxorz`.
    #[error("{what} is never closed")]
    #[diagnostic(code(puz::syntax::unterminated))]
    Unterminated {
        what: &'static str,
        #[label("opened here")]
        span: SourceSpan,
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
        #[label("text starts here")]
        span: SourceSpan,
    },

    /// A name used but never declared: `forbid block on voyd`.
    #[error("unknown {kind} `{name}`")]
    #[diagnostic(code(puz::check::unknown_name))]
    UnknownName {
        kind: &'static str,
        name: String,
        #[label("not a declared {kind}")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A name of the wrong kind: a tile where a piece is needed, `shift floor d`.
    #[error("`{name}` is a {found}, but a {expected} is needed here")]
    #[diagnostic(code(puz::check::wrong_kind))]
    WrongKind {
        name: String,
        found: &'static str,
        expected: &'static str,
        #[label("a {found}")]
        span: SourceSpan,
        #[label("declared here")]
        declared: SourceSpan,
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
        kind: &'static str,
        name: String,
        #[label("defined again here")]
        span: SourceSpan,
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
        keyword: &'static str,
        #[label("declared again here")]
        span: SourceSpan,
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A required declaration is missing: no `goal`.
    #[error("the puzzle has no `{keyword}` declaration")]
    #[diagnostic(code(puz::check::missing_section))]
    MissingSection {
        keyword: &'static str,
        #[label("in this file")]
        span: SourceSpan,
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
        key: String,
        #[label("used again here")]
        span: SourceSpan,
        #[label("first used here")]
        first: SourceSpan,
    },

    /// A declaration whose list is empty: `dirs { }`.
    #[error("`{keyword}` declares nothing")]
    #[diagnostic(code(puz::check::empty_declaration))]
    EmptyDeclaration {
        keyword: &'static str,
        #[label("empty")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// More names of one kind than puz supports: 33 marks.
    #[error("too many {what}: {count}, at most {limit} are supported")]
    #[diagnostic(
        code(puz::check::too_many),
        help("merge some of them, or model them differently")
    )]
    TooMany {
        what: &'static str,
        count: usize,
        limit: usize,
        #[label("one too many")]
        span: SourceSpan,
    },

    /// A piece declared with braces but no poses: `piece man { }`.
    #[error("piece `{piece}` declares no poses")]
    #[diagnostic(
        code(puz::check::no_poses),
        help("add a pose such as `pose at {{ (0, 0) }}`, or drop the braces for a one-cell piece")
    )]
    NoPoses {
        piece: String,
        #[label("no poses")]
        span: SourceSpan,
    },

    /// Two poses of one piece with the same shape: levels could not tell them apart.
    #[error("poses `{a}` and `{b}` of `{piece}` have the same shape")]
    #[diagnostic(code(puz::check::same_shape), help("a level places a piece by the shape of its marker cells, so every pose needs its own shape"))]
    SameShape {
        piece: String,
        a: String,
        b: String,
        #[label("same shape as `{a}`")]
        span: SourceSpan,
        #[label("`{a}` defined here")]
        first: SourceSpan,
    },

    /// A tile declared to turn into itself: `block -> block`.
    #[error("tile `{tile}` is declared to turn into itself")]
    #[diagnostic(
        code(puz::check::self_mutation),
        help("name the tile it becomes when broken, e.g. `block -> floor`, or drop the `->`")
    )]
    SelfMutation {
        tile: String,
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
        pose: String,
        #[label("no cells here")]
        span: SourceSpan,
    },

    /// A footprint listing a cell twice: `{ (0, 0) (0, 0) }`.
    #[error("pose `{pose}` lists cell ({dr}, {dc}) twice")]
    #[diagnostic(code(puz::check::duplicate_cell), help("remove the repeated offset"))]
    DuplicateCell {
        pose: String,
        dr: i64,
        dc: i64,
        #[label("repeated here")]
        span: SourceSpan,
        #[label("first listed here")]
        first: SourceSpan,
    },

    /// A footprint that does not cover its anchor: `{ (1, 0) (2, 0) }`.
    #[error("pose `{pose}` does not cover its anchor cell (0, 0)")]
    #[diagnostic(code(puz::check::anchor_uncovered), help("a piece's position is its anchor: shift the offsets so that (0, 0) is one of the cells"))]
    AnchorUncovered {
        pose: String,
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
        name: String,
        #[label("zero step")]
        span: SourceSpan,
    },

    /// `letters` whose count differs from the number of directions.
    #[error("`letters` gives {given} letters but there are {expected} directions")]
    #[diagnostic(code(puz::check::letters_count))]
    LettersCount {
        given: usize,
        expected: usize,
        #[label("{given} letters")]
        span: SourceSpan,
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
        keyword: &'static str,
        mv: String,
        #[label("again here")]
        span: SourceSpan,
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
        pose: String,
        dir: String,
        #[label("second rule")]
        span: SourceSpan,
        #[label("first rule")]
        first: SourceSpan,
    },

    /// A move with no effect statement: it would never change the state.
    #[error("move `{mv}` changes nothing")]
    #[diagnostic(
        code(puz::check::move_without_effect),
        help("add a `shift`, `swap`, `turn` or `slide` statement")
    )]
    MoveWithoutEffect {
        mv: String,
        #[label("this move has no effect")]
        span: SourceSpan,
    },

    /// A move that adds to no cost component when the puzzle declares costs.
    #[error("move `{mv}` adds to no cost component")]
    #[diagnostic(code(puz::check::free_move), help("every move must cost something, or cheapest answers are not well defined: add `adds {first}` (or another component)"))]
    FreeMove {
        mv: String,
        first: String,
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
        value: i64,
        #[label("must be at least 1")]
        span: SourceSpan,
    },

    /// A cost component that no move adds to.
    #[error("cost component `{name}` is never added by any move")]
    #[diagnostic(
        code(puz::check::unused_cost),
        help("add `adds {name}` to the moves it counts, or remove it from `cost`")
    )]
    UnusedCost {
        name: String,
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
        piece: String,
        #[label("no `stop` action")]
        span: SourceSpan,
    },

    /// `break` on an event whose tile does not turn into anything.
    #[error("`break` needs a tile that turns into another, but {what}")]
    #[diagnostic(code(puz::check::break_immutable))]
    BreakImmutable {
        what: String,
        #[label("cannot break")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// A judge format missing something it needs.
    #[error("judge format: {message}")]
    #[diagnostic(code(puz::check::judge_format))]
    JudgeFormat {
        message: String,
        #[label("here")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },

    /// A level with rows of different lengths.
    #[error("level row {row} has {found} cells, but the first row has {expected}")]
    #[diagnostic(
        code(puz::level::ragged),
        help("every row of a level must have the same width")
    )]
    RaggedLevel {
        row: usize,
        found: usize,
        expected: usize,
        #[label("{found} cells")]
        span: SourceSpan,
    },

    /// A level with no rows.
    #[error("level is empty")]
    #[diagnostic(code(puz::level::empty), help("write at least one row of cells"))]
    EmptyLevel {
        #[label("no rows")]
        span: SourceSpan,
    },

    /// A level symbol the legend does not define.
    #[error("symbol {symbol} is not in the legend")]
    #[diagnostic(code(puz::level::unknown_symbol))]
    UnknownSymbol {
        symbol: String,
        #[label("not in the legend")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// A level that does not place a piece (or a `single` mark).
    #[error("level places no {what}")]
    #[diagnostic(code(puz::level::missing_marker))]
    MissingMarker {
        what: String,
        #[label("in this level")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// A level that places a single piece (or `single` mark) more than once.
    #[error("level places {what} {count} times, but there must be exactly one")]
    #[diagnostic(code(puz::level::too_many_markers))]
    TooManyMarkers {
        what: String,
        count: usize,
        #[label("first placed here")]
        first: SourceSpan,
        #[label("placed again here")]
        again: SourceSpan,
        #[help]
        help: String,
    },

    /// Marker cells that form none of the piece's poses.
    #[error("the cells placing `{piece}` match none of its poses")]
    #[diagnostic(code(puz::level::no_matching_pose))]
    NoMatchingPose {
        piece: String,
        #[label("these cells")]
        span: SourceSpan,
        #[help]
        help: String,
    },

    /// A level whose pieces start in an illegal position.
    #[error("the level's start position breaks a rule: {rule}")]
    #[diagnostic(code(puz::level::illegal_start), help("a level must start in a legal position: no piece on a forbidden tile, off the board, or on another piece"))]
    IllegalStart {
        rule: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
    },

    /// A level too large for puz's packed states.
    #[error("level is {rows} x {cols}: too large")]
    #[diagnostic(
        code(puz::level::too_large),
        help("levels may have at most 2^28 cells")
    )]
    LevelTooLarge {
        rows: usize,
        cols: usize,
        #[label("this level")]
        span: SourceSpan,
    },
}

impl Problem {
    /// The diagnostic code, e.g. `puz::check::unknown_name`.
    pub fn code_str(&self) -> String {
        self.code().map(|c| c.to_string()).unwrap_or_default()
    }
}

/// All problems found in one source, with that source attached once.
#[derive(Debug, Error, Diagnostic)]
#[error("{} found in {}", count_phrase(.problems.len()), .name)]
pub struct Diagnostics {
    pub name: String,
    #[source_code]
    pub src: NamedSource<Arc<String>>,
    #[related]
    pub problems: Vec<Problem>,
}

fn count_phrase(n: usize) -> String {
    if n == 1 {
        "1 error".to_string()
    } else {
        format!("{n} errors")
    }
}

impl Diagnostics {
    pub fn new(name: &str, text: Arc<String>, problems: Vec<Problem>) -> Self {
        Diagnostics {
            name: name.to_string(),
            src: NamedSource::new(name, text),
            problems,
        }
    }

    /// Renders the report as plain unicode text without colour, `width` columns wide.
    pub fn render_plain(&self, width: usize) -> String {
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(width);
        let mut out = String::new();
        handler
            .render_report(&mut out, self)
            .expect("rendering to a String cannot fail");
        out
    }
}

/// `Some("did you mean `x`?")` when a known name is close to `name` (swaps count as one edit).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for k in known {
        let d = strsim::damerau_levenshtein(name, k);
        let limit = (name.len().max(k.len()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| format!("did you mean `{k}`?"))
}
