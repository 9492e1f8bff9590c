//! Every diagnostic about a PuzzleScript game source: one enum, [`PsProblem`], each
//! variant with a unique code (`puz::ps::...`), a labelled span and help. PuzzleScript's
//! own compiler reports many of these too (its wording is kept where it is clear); the
//! rest are what it does not say.
//!
//! They reach reports through [`super::Problem::PuzzleScript`], so a game's problems are
//! one [`super::Diagnostics`] like a `.puz` file's.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// One problem found in a PuzzleScript game source.
#[derive(Debug, Error, Diagnostic, Clone)]
pub enum PsProblem {
    // ---- syntax: the source does not read as PuzzleScript (grammar and lowering) ----
    /// A line the grammar cannot read where it is.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::syntax))]
    Syntax {
        /// Where.
        #[label("{label}")]
        span: SourceSpan,
        /// The message.
        what: String,
        /// The label.
        label: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },

    /// A comment left open: it runs to the end of the source.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::unclosed_comment),
        severity(Warning),
        help("close it with `)`; everything after it is ignored")
    )]
    UnclosedComment {
        /// Where.
        #[label("this `(` is never closed")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A `)` with no comment open.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::stray_close),
        severity(Warning),
        help("remove it, or open the comment it meant to close")
    )]
    StrayClose {
        /// Where.
        #[label("no `(` is open here")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// Text after a section header or a line of `=`.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::after_header), help("put this on a line of its own"))]
    AfterHeader {
        /// Where.
        #[label("only comments may follow here")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A section header seen twice.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::section_repeated),
        help("merge the two sections into one")
    )]
    SectionRepeated {
        /// Where.
        #[label("already declared above")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A section header out of order, or a missing section before it.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::section_order), help("sections go OBJECTS, LEGEND, SOUNDS, COLLISIONLAYERS, RULES, WINCONDITIONS, LEVELS, each present even if empty"))]
    SectionOrder {
        /// Where.
        #[label("out of order")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A prelude line that is not a known setting.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::prelude_unknown), help("settings are `title`, `author`, `homepage`, `noaction`, `run_rules_on_level_start`, ... one a line; the first section must be OBJECTS"))]
    PreludeUnknown {
        /// Where.
        #[label("not a prelude setting")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A prelude setting that needs a value and has none.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::prelude_value),
        help("write the value after the keyword on the same line")
    )]
    PreludeValue {
        /// Where.
        #[label("needs a value")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A prelude setting with something it does not take (a value, or text after a comment).
    #[error("{what}")]
    #[diagnostic(code(puz::ps::prelude_extra), severity(Warning), help("remove it"))]
    PreludeExtra {
        /// Where.
        #[label("ignored")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// Text in the OBJECTS section that is neither a name, colours nor a sprite row.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::object_junk), severity(Warning), help("an object's name line starts with a word of letters, digits and `_`; other symbols go in the LEGEND"))]
    ObjectJunk {
        /// Where.
        #[label("not an object name")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A word on an object's colour line that is not a colour.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::bad_color),
        help("colours are names (`black`, `darkblue`, `transparent`, ...) or `#rgb`/`#rrggbb`")
    )]
    BadColor {
        /// Where.
        #[label("not a colour")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A sprite row of more than 5 pixels, or more than 5 rows.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sprite_size),
        severity(Warning),
        help("a sprite is 5 rows of 5 pixels, each `.` or a colour number")
    )]
    SpriteSize {
        /// Where.
        #[label("more than 5 pixels")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A sprite row with something other than `.` and digits.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sprite_junk),
        help("sprite rows hold only `.` and digits; leave a blank line before the next object")
    )]
    SpriteJunk {
        /// Where.
        #[label("not a sprite row")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A sprite pixel naming a colour the object does not have.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::color_index),
        help("number the object's colours from 0, in the order of its colour line")
    )]
    ColorIndex {
        /// Where.
        #[label("no such colour")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A legend line not of the form `A = B`, `A = B or C ...`, `A = B and C ...`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::legend_format),
        help("legend lines read `A = B`, `A = B or C ...` or `A = B and C ...`")
    )]
    LegendFormat {
        /// Where.
        #[label("not `A = B`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A legend line mixing `and` and `or`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::legend_mixed),
        help("define the `or` part under a name of its own on its own line")
    )]
    LegendMixed {
        /// Where.
        #[label("mixes `and` and `or`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A rule without `->`, or with more than one.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_arrow),
        help("a rule reads `[ before ] -> [ after ]`")
    )]
    RuleArrow {
        /// Where.
        #[label("no `->` here")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// Unbalanced or nested square brackets in a rule.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_brackets),
        help("every `[` is closed by a `]` before the next `[`; they do not nest")
    )]
    RuleBrackets {
        /// Where.
        #[label("unbalanced `[` `]`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A word outside the square brackets of a rule where it cannot go.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::rule_outside_brackets), help("only directions, `late`, `rigid`, `random` and `+` go before the first `[`; commands go after the last `]`"))]
    RuleOutsideBrackets {
        /// Where.
        #[label("outside `[ ]`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A cell whose contents do not read as terms (a direction with no object, two directions on one object).
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_cell),
        help("a cell holds terms `[no] [direction] name`, or is `...`")
    )]
    RuleCell {
        /// Where.
        #[label("malformed cell")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A comment inside a rule: PuzzleScript reads a rule only up to its first `(`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_comment),
        help("keep comments after the whole rule, or on a line of their own")
    )]
    RuleComment {
        /// Where.
        #[label("the rule stops at this `(`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// Rule text after a comment on the same line, which PuzzleScript ignores.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_after_comment),
        severity(Warning),
        help("PuzzleScript reads a rule only up to its first `(`; move this before the comment")
    )]
    RuleAfterComment {
        /// Where.
        #[label("ignored: after a comment")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A win condition that is not `all|any|no|some X [on Y]`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::win_format),
        help("win conditions read `all|any|no|some X` or `all|any|no|some X on Y`")
    )]
    WinFormat {
        /// Where.
        #[label("not a win condition")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A win condition whose third word is not `on`.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::win_on), help("write `on` between the two names"))]
    WinOn {
        /// Where.
        #[label("expected `on`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// A level row not as long as the level's first row.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::map_rectangular),
        severity(Warning),
        help("give every row of a level the same number of characters")
    )]
    MapRectangular {
        /// Where.
        #[label("this row's length differs from the first row's")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `message` without a space before its text.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::message_space),
        severity(Warning),
        help("write `message TEXT`")
    )]
    MessageSpace {
        /// Where.
        #[label("no space after `message`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },

    /// Rule text PuzzleScript tolerates but that is out of place (a direction between
    /// bracketed rows, a command inside one): ignored, or read as PuzzleScript reads it.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::rule_janky), severity(Warning), help("directions go before the first `[`, object names and `...` inside `[ ]`, commands after the last `]`"))]
    RuleJanky {
        /// Where.
        #[label("out of place")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },

    // ---- compile: names, layers, rules, levels, win conditions ----
    /// A name used but never declared.
    #[error("`{name}` is not declared")]
    #[diagnostic(code(puz::ps::unknown_name))]
    UnknownName {
        /// Where it is used.
        #[label("not an object, property or aggregate")]
        span: SourceSpan,
        /// The name.
        name: String,
        /// A suggestion.
        #[help]
        help: Option<String>,
    },

    /// A game that PuzzleScript's compiler rejects too: the message says what.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::compile))]
    Compile {
        /// Where.
        #[label("here")]
        span: SourceSpan,
        /// What is wrong.
        what: String,
        /// How to fix it.
        #[help]
        help: Option<String>,
    },

    /// Something PuzzleScript's compiler warns about: the game still loads.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::warning), severity(Warning))]
    CompileWarning {
        /// Where.
        #[label("here")]
        span: SourceSpan,
        /// What is odd.
        what: String,
        /// What to do about it.
        #[help]
        help: Option<String>,
    },

    /// A level uses a symbol the legend does not define.
    #[error("key `{glyph}` is not in the legend")]
    #[diagnostic(
        code(puz::ps::unknown_glyph),
        help("add it to the LEGEND section (`{glyph} = SomeObject`), or define an object with this name")
    )]
    UnknownGlyph {
        /// Where it is used.
        #[label("not defined")]
        span: SourceSpan,
        /// The symbol.
        glyph: char,
    },
}
