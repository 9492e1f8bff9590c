//! Every diagnostic about a PuzzleScript game source: one enum, [`PsProblem`], each
//! variant with a unique code (`puz::ps::...`), a labelled span and help. PuzzleScript's
//! own compiler reports many of these too (its wording is kept where it is clear); the
//! rest are what it does not say.
//!
//! They reach reports through [`super::Problem::PuzzleScript`], so a game's problems are
//! one [`super::Diagnostics`] like a `.puz` file's. One more, [`NeverSettles`], is found
//! while playing, not compiling: a report of its own.

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

    /// `puz::ps::object_duplicate`: declared again here.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::object_duplicate), help("rename one of the two objects"))]
    ObjectDuplicate {
        /// Where.
        #[label("declared again here")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::duplicate_name`: already declared.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::duplicate_name),
        help("each name is declared once, as an object or in the legend: rename this one")
    )]
    DuplicateName {
        /// Where.
        #[label("already declared")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::legend_self`: refers to the name being defined.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::legend_self),
        help("define it in terms of other objects")
    )]
    LegendSelf {
        /// Where.
        #[label("refers to the name being defined")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::legend_or_aggregate`: an aggregate (defined with `and`).
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::legend_or_aggregate),
        help("define the property with `or` over objects or other properties, not aggregates")
    )]
    LegendOrAggregate {
        /// Where.
        #[label("an aggregate (defined with `and`)")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::legend_and_property`: a property (defined with `or`).
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::legend_and_property),
        help("define the aggregate with `and` over objects or other aggregates, not properties")
    )]
    LegendAndProperty {
        /// Where.
        #[label("a property (defined with `or`)")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::aggregate_overlap`: on the same collision layer as another part.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::aggregate_overlap),
        help("the objects of an aggregate must be on different collision layers, or they can never share a cell")
    )]
    AggregateOverlap {
        /// Where.
        #[label("on the same collision layer as another part")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::object_no_layer`: on no collision layer.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::object_no_layer),
        help("add it to a line of the COLLISIONLAYERS section")
    )]
    ObjectNoLayer {
        /// Where.
        #[label("on no collision layer")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::layer_aggregate`: an aggregate.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::layer_aggregate),
        help("put the aggregate's objects on layers one by one; an aggregate's objects share a cell so they cannot share a layer")
    )]
    LayerAggregate {
        /// Where.
        #[label("an aggregate")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::multiple_layers`: already on another layer.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::multiple_layers),
        severity(Warning),
        help("an object belongs to one layer (the last one counts): remove it from the other")
    )]
    MultipleLayers {
        /// Where.
        #[label("already on another layer")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::background_layer`: shares its layer with Background.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::background_layer),
        help("put `Background` alone on a COLLISIONLAYERS line of its own")
    )]
    BackgroundLayer {
        /// Where.
        #[label("shares its layer with Background")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::background_aggregate`: an aggregate.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::background_aggregate),
        help("define Background as an object, or as a property with `or`")
    )]
    BackgroundAggregate {
        /// Where.
        #[label("an aggregate")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::background_layers`: not on the background's layer.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::background_layers),
        help("put every background object on one collision layer")
    )]
    BackgroundLayers {
        /// Where.
        #[label("not on the background's layer")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::background_missing`: no Background in here.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::background_missing),
        help("declare an object called Background, and put it on a collision layer of its own")
    )]
    BackgroundMissing {
        /// Where.
        #[label("no Background in here")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::player_missing`: no Player declared.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::player_missing),
        help("declare an object called Player, or a legend entry `Player = ...`")
    )]
    PlayerMissing {
        /// Where.
        #[label("no Player declared")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::property_in_map`: defined with `or`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::property_in_map),
        help("a level cell must say exactly which objects are there: map an object, or an aggregate defined with `and`")
    )]
    PropertyInMap {
        /// Where.
        #[label("defined with `or`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::no_levels`: no level in this section.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::no_levels),
        help("add at least one level (rows of legend symbols) to the LEVELS section")
    )]
    NoLevels {
        /// Where.
        #[label("no level in this section")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::too_many_colors`: more than 10 colours.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::too_many_colors),
        help("a sprite's pixels are the digits 0-9: keep at most 10 colours")
    )]
    TooManyColors {
        /// Where.
        #[label("more than 10 colours")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::meta_color`: not a colour.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::meta_color),
        help("write a colour name (`pink`) or a hex colour (`#1412fa`)")
    )]
    MetaColor {
        /// Where.
        #[label("not a colour")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::palette_unknown`: no such palette.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::palette_unknown),
        help("use one of PuzzleScript's palettes (`arnecolors`, `pastel`, `amiga`, ... or their numbers 1-15)")
    )]
    PaletteUnknown {
        /// Where.
        #[label("no such palette")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_token`: neither a sound event nor a declared name.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_token),
        help("a sound line starts with an event (`sfx0`..`sfx10`, `startgame`, `endlevel`, ...) or an object name")
    )]
    SoundToken {
        /// Where.
        #[label("neither a sound event nor a declared name")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_seed`: not a sound seed.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_seed),
        help("write the sound's seed, a whole number like 123123, after the event")
    )]
    SoundSeed {
        /// Where.
        #[label("not a sound seed")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_verb`: not a sound verb.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_verb),
        help("after the object name comes `move`, `cantmove`, `create`, `destroy` or `action`")
    )]
    SoundVerb {
        /// Where.
        #[label("not a sound verb")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_extra`: nothing may follow the seed.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_extra),
        help("the sound's seed ends the line: remove this")
    )]
    SoundExtra {
        /// Where.
        #[label("nothing may follow the seed")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_direction`: not a direction or a seed.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_direction),
        help("after `move`/`cantmove` come directions (`up`, `horizontal`, ...) and then a seed; after other verbs, only a seed")
    )]
    SoundDirection {
        /// Where.
        #[label("not a direction or a seed")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_aggregate`: an aggregate.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_aggregate),
        help("attach sounds to objects or properties (defined with `or`), not aggregates")
    )]
    SoundAggregate {
        /// Where.
        #[label("an aggregate")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_data`: the line ends without a seed.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_data),
        help("end the sound line with its seed, a whole number like 123123")
    )]
    SoundData {
        /// Where.
        #[label("the line ends without a seed")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_short`: only one word.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_short),
        severity(Warning),
        help("a sound line reads `EVENT SEED` or `OBJECT VERB [DIRECTIONS] SEED`")
    )]
    SoundShort {
        /// Where.
        #[label("only one word")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::sound_repeated`: declared again.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::sound_repeated),
        severity(Warning),
        help("each sound event has one sound: the last one counts; remove the other")
    )]
    SoundRepeated {
        /// Where.
        #[label("declared again")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::loop_unbalanced`: unbalanced loop.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::loop_unbalanced),
        help("`startloop` and `endloop` alternate, one pair per loop, and loops do not nest")
    )]
    LoopUnbalanced {
        /// Where.
        #[label("unbalanced loop")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::loop_mid_group`: inside a rule group.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::loop_mid_group),
        help("put `startloop`/`endloop` between rule groups, not between a rule and the `+` rules joined to it")
    )]
    LoopMidGroup {
        /// Where.
        #[label("inside a rule group")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_overlap`: needs two objects of one layer in a cell.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_overlap),
        help(
            "objects on one collision layer can never share a cell: change the rule or the layers"
        )
    )]
    RuleOverlap {
        /// Where.
        #[label("needs two objects of one layer in a cell")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::plus_twice`: a second `+`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::plus_twice),
        help("one `+` joins a rule to the previous group")
    )]
    PlusTwice {
        /// Where.
        #[label("a second `+`")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::plus_first`: no rule before this.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::plus_first),
        help("remove the `+`: the first rule of a section starts a group")
    )]
    PlusFirst {
        /// Where.
        #[label("no rule before this")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::plus_not_first`: `+` not first on the line.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::plus_not_first),
        help("write `+` as the first symbol of the rule")
    )]
    PlusNotFirst {
        /// Where.
        #[label("`+` not first on the line")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::random_in_group`: `random` on a joined rule.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::random_in_group),
        help("mark the first rule of the group `random`, not a `+` rule")
    )]
    RandomInGroup {
        /// Where.
        #[label("`random` on a joined rule")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::late_mixed`: late and non-late rules in one group.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::late_mixed),
        severity(Warning),
        help("the late rules of a group run with the late rules, the others with the others: split the group")
    )]
    LateMixed {
        /// Where.
        #[label("late and non-late rules in one group")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::cell_directions`: several directions on one object.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::cell_directions),
        help("give each object one movement per cell")
    )]
    CellDirections {
        /// Where.
        #[label("several directions on one object")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::late_movement`: a movement in a late rule.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::late_movement),
        help("late rules run after movement: match and write objects only")
    )]
    LateMovement {
        /// Where.
        #[label("a movement in a late rule")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::cell_no_repeated`: `no` repeated.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::cell_no_repeated),
        severity(Warning),
        help("write the `no` once")
    )]
    CellNoRepeated {
        /// Where.
        #[label("`no` repeated")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::cell_repeated`: repeated in this cell.
    #[error("{what}")]
    #[diagnostic(code(puz::ps::cell_repeated), help("name each object once per cell"))]
    CellRepeated {
        /// Where.
        #[label("repeated in this cell")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::late_rigid`: `late` and `rigid` together.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::late_rigid),
        help("remove `rigid`: late rules have no movements to be rigid about")
    )]
    LateRigid {
        /// Where.
        #[label("`late` and `rigid` together")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_sides`: sides differ in brackets.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_sides),
        severity(Warning),
        help("give the right-hand side one `[ ]` per `[ ]` on the left; this rule is ignored")
    )]
    RuleSides {
        /// Where.
        #[label("sides differ in brackets")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_cell_count`: a different number of cells than on the left.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_cell_count),
        help("give both sides the same number of `|`-separated cells")
    )]
    RuleCellCount {
        /// Where.
        #[label("a different number of cells than on the left")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_empty_pattern`: an empty pattern.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_empty_pattern),
        help("put at least one cell in each `[ ]` on the left")
    )]
    RuleEmptyPattern {
        /// Where.
        #[label("an empty pattern")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_nothing`: no pattern on the left.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_nothing),
        help("a rule needs at least one `[ ... ]` on its left-hand side")
    )]
    RuleNothing {
        /// Where.
        #[label("no pattern on the left")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_expansion`: expands into too many rules.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_expansion),
        help("split it into rules with fewer `moving`/`horizontal`/`vertical` terms and properties, or name the objects and directions")
    )]
    RuleExpansion {
        /// Where.
        #[label("expands into too many rules")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::no_aggregate`: `no` on an aggregate.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::no_aggregate),
        help("write a `no` for each of the aggregate's objects")
    )]
    NoAggregate {
        /// Where.
        #[label("`no` on an aggregate")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_ambiguous_movement`: cannot be inferred from the left.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_ambiguous_movement),
        help("every ambiguous movement on the right needs one on the left attached to the same object")
    )]
    RuleAmbiguousMovement {
        /// Where.
        #[label("cannot be inferred from the left")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_ambiguous_property`: cannot be inferred from the left.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_ambiguous_property),
        help("for every property on the right there has to be the same property on the left in the same cell, or a single occurrence of it on the left")
    )]
    RuleAmbiguousProperty {
        /// Where.
        #[label("cannot be inferred from the left")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_no_present`: `no` excludes an object this cell also creates.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_no_present),
        help("remove the `no`, or the object it excludes")
    )]
    RuleNoPresent {
        /// Where.
        #[label("`no` excludes an object this cell also creates")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::ellipsis_crowded`: an ellipsis with other terms.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::ellipsis_crowded),
        help("an ellipsis `...` is a cell of its own")
    )]
    EllipsisCrowded {
        /// Where.
        #[label("an ellipsis with other terms")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::ellipsis_edge`: at the edge of the pattern.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::ellipsis_edge),
        help("an ellipsis stands between two cells: remove it")
    )]
    EllipsisEdge {
        /// Where.
        #[label("at the edge of the pattern")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::ellipsis_unmatched`: no matching ellipsis on the other side.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::ellipsis_unmatched),
        help("put an ellipsis in the same place on both sides")
    )]
    EllipsisUnmatched {
        /// Where.
        #[label("no matching ellipsis on the other side")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::ellipsis_twice`: two ellipses in a row.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::ellipsis_twice),
        severity(Warning),
        help("two ellipses in a row are the same as one: remove one")
    )]
    EllipsisTwice {
        /// Where.
        #[label("two ellipses in a row")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::ellipsis_many`: more than two ellipses.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::ellipsis_many),
        help("use at most two ellipses in one pattern")
    )]
    EllipsisMany {
        /// Where.
        #[label("more than two ellipses")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::random_left`: `random` on the left.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::random_left),
        help("`random` picks what to create: use it on the right-hand side only")
    )]
    RandomLeft {
        /// Where.
        #[label("`random` on the left")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::name_no_layer`: on no collision layer.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::name_no_layer),
        help("add its objects to the COLLISIONLAYERS section")
    )]
    NameNoLayer {
        /// Where.
        #[label("on no collision layer")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_impossible`: `X no X`: never matches.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_impossible),
        severity(Warning),
        help("remove the `no`, or the object it excludes: this rule is removed")
    )]
    RuleImpossible {
        /// Where.
        #[label("`X no X`: never matches")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::random_single`: already a single object.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::random_single),
        severity(Warning),
        help("use `random` with a property (defined with `or` in the legend)")
    )]
    RandomSingle {
        /// Where.
        #[label("already a single object")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::cell_overlap`: objects of one layer in one cell.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::cell_overlap),
        help("objects on one collision layer cannot share a cell")
    )]
    CellOverlap {
        /// Where.
        #[label("objects of one layer in one cell")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rigid_groups`: too many rigid groups.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rigid_groups),
        help("use at most 30 rule groups with `rigid` rules")
    )]
    RigidGroups {
        /// Where.
        #[label("too many rigid groups")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::rule_unreachable`: needs an object no level has and no rule creates.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_unreachable),
        severity(Warning),
        help("add the object to a level, or a rule that creates it; or remove this rule")
    )]
    RuleUnreachable {
        /// Where.
        #[label("needs an object no level has and no rule creates")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::win_unreachable`: no level has it and no rule creates it.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::win_unreachable),
        severity(Warning),
        help("add the object to a level, or a rule that creates it; as written this condition can never hold")
    )]
    WinUnreachable {
        /// Where.
        #[label("no level has it and no rule creates it")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
    },
    /// `puz::ps::never_won`: no win conditions and no rule queues `win`.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::never_won),
        severity(Warning),
        help("add a win condition (`all Crate on Target`), or a rule that queues `win`: PuzzleScript wins a level only then, so `puz solve` answers `no solution` without a search")
    )]
    NeverWon {
        /// Where.
        #[label("no win conditions here, and no rule queues `win`")]
        span: SourceSpan,
        /// The message.
        what: String,
    },
    /// `puz::ps::rule_brackets_stray`: unbalanced bracket: this rule is ignored.
    #[error("{what}")]
    #[diagnostic(
        code(puz::ps::rule_brackets_stray),
        severity(Warning),
        help("close every `[` with one `]`: PuzzleScript ignores this rule as written")
    )]
    RuleBracketsStray {
        /// Where.
        #[label("unbalanced bracket: this rule is ignored")]
        span: SourceSpan,
        /// The message (PuzzleScript's wording where it has one).
        what: String,
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

/// `puz::ps::never_settles`: after an input (or as the level starts), the again turns
/// never settle: the level repeats, or they pass the cap of 20,000. PuzzleScript's player
/// would animate forever and accept no input. Found while playing (`puz play`), so it is
/// a report of its own, labelled on the rules that keep firing; for example
///
/// ```text
/// [ A ] -> [ C ]
/// [ B ] -> [ A ] again
/// [ C ] -> [ B ] again
/// ```
///
/// swaps every `A` and `B` in every turn, and asks for another turn every time.
#[derive(Debug, Error, Diagnostic)]
#[error("{what}")]
#[diagnostic(
    code(puz::ps::never_settles),
    severity(Warning),
    help("every again turn runs the rules again without input, and asks for another while an `again` rule matches and the turn changes the level: make such a rule stop matching once its work is done")
)]
pub struct NeverSettles {
    /// The game's source.
    #[source_code]
    pub src: miette::NamedSource<String>,
    /// The rules that keep firing, each labelled with how often.
    #[label(collection)]
    pub rules: Vec<miette::LabeledSpan>,
    /// The message.
    pub what: String,
}
