//! The spanned syntax tree of a PuzzleScript game source, as the grammar
//! (`grammar/puzzlescript.pest`) reads it and `super::parse` lowers it.
//!
//! PuzzleScript is case-insensitive: every [`Name`] holds its text lowercased, and its
//! span points at what was written. Nothing here is resolved: names are not yet looked
//! up, rules are not yet expanded into directions (that is `super::compile`'s work).

use crate::syntax::Span;

/// A name as written: lowercased text and where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The text, lowercased.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole game source.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// Prelude lines (`title X`, `noaction`, ...), in order.
    pub prelude: Vec<Setting>,
    /// Each section header seen, in order (a repeated or misplaced header is a
    /// diagnostic, but still recorded).
    pub sections: Vec<(Section, Span)>,
    /// The OBJECTS section.
    pub objects: Vec<Object>,
    /// The LEGEND section.
    pub legend: Vec<LegendEntry>,
    /// The SOUNDS section, one entry per line (only kept to be checked and ignored).
    pub sounds: Vec<SoundLine>,
    /// The COLLISIONLAYERS section, one entry per line.
    pub layers: Vec<Layer>,
    /// The RULES section, in order.
    pub rules: Vec<RuleLine>,
    /// The WINCONDITIONS section.
    pub wins: Vec<WinCondition>,
    /// The LEVELS section: levels and messages, in order.
    pub levels: Vec<LevelEntry>,
}

/// A section of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `OBJECTS`
    Objects,
    /// `LEGEND`
    Legend,
    /// `SOUNDS`
    Sounds,
    /// `COLLISIONLAYERS`
    CollisionLayers,
    /// `RULES`
    Rules,
    /// `WINCONDITIONS`
    WinConditions,
    /// `LEVELS`
    Levels,
}

/// One prelude line: a keyword and, for those that take one, the rest of the line.
#[derive(Clone, Debug)]
pub struct Setting {
    /// The keyword, lowercased (`title`, `noaction`, `realtime_interval`, ...).
    pub key: Name,
    /// The value as written (original case, trimmed), if the line has one.
    pub value: Option<(String, Span)>,
    /// The whole line.
    pub span: Span,
}

/// One object: its name, the extra names on its name line (legend synonyms), its
/// colours and its sprite.
#[derive(Clone, Debug)]
pub struct Object {
    /// The object's name.
    pub name: Name,
    /// Further names on the name line (`Player P` makes `p` a synonym).
    pub synonyms: Vec<Name>,
    /// The colours, as written, lowercased (`black`, `#ff0000`, `transparent`).
    pub colors: Vec<(String, Span)>,
    /// The sprite: rows of pixels, each `None` (`.`, transparent) or a colour index.
    /// Empty when the object has no sprite (it is drawn in its first colour).
    pub sprite: Vec<Vec<Option<u8>>>,
    /// The sprite's lines, for diagnostics.
    pub sprite_span: Option<Span>,
    /// From the name line to the end of the sprite.
    pub span: Span,
}

/// How a legend entry combines its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendKind {
    /// `a = b`: one item, a synonym.
    Alias,
    /// `a = b or c`: a property, any one of them.
    Or,
    /// `a = b and c`: an aggregate, all of them in one cell.
    And,
}

/// One legend line, `name = item (or|and item)*`.
#[derive(Clone, Debug)]
pub struct LegendEntry {
    /// The name defined (one character for a level symbol, or a word).
    pub name: Name,
    /// Alias, property or aggregate.
    pub kind: LegendKind,
    /// The items, in order (at least one).
    pub items: Vec<Name>,
    /// Where `and`/`or` were mixed on one line, the first offending word.
    pub mixed: Option<Span>,
    /// The whole line.
    pub span: Span,
}

/// One line of the SOUNDS section: its words, unresolved.
#[derive(Clone, Debug)]
pub struct SoundLine {
    /// The words, lowercased.
    pub words: Vec<Name>,
    /// The whole line.
    pub span: Span,
}

/// One collision layer: the names on its line (objects or properties).
#[derive(Clone, Debug)]
pub struct Layer {
    /// The names, in order.
    pub names: Vec<Name>,
    /// The whole line.
    pub span: Span,
}

/// A line of the RULES section.
#[derive(Clone, Debug)]
pub enum RuleLine {
    /// A rule.
    Rule(Rule),
    /// `startloop`
    StartLoop(Span),
    /// `endloop`
    EndLoop(Span),
}

/// A word before the first `[` of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    /// `+`: the rule joins the previous rule's group.
    Plus,
    /// `late`
    Late,
    /// `rigid`
    Rigid,
    /// `random`
    Random,
    /// `up`
    Up,
    /// `down`
    Down,
    /// `left`
    Left,
    /// `right`
    Right,
    /// `horizontal`
    Horizontal,
    /// `vertical`
    Vertical,
    /// `orthogonal`
    Orthogonal,
}

/// One rule, `prefixes [ ... ] ... -> [ ... ] ... commands`.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The words before the first `[`, in order.
    pub prefixes: Vec<(Prefix, Span)>,
    /// The left-hand side: one cell row per bracket pair.
    pub lhs: Vec<CellRow>,
    /// The `->`.
    pub arrow: Span,
    /// The right-hand side (possibly empty when the rule only has commands).
    pub rhs: Vec<CellRow>,
    /// The commands after the right-hand side.
    pub commands: Vec<(Command, Span)>,
    /// The 1-based source line (PuzzleScript's messages and the engine's rule order
    /// refer to it).
    pub line: usize,
    /// The whole rule.
    pub span: Span,
}

/// One bracketed row of cells, `[ a | b | ... | c ]`.
#[derive(Clone, Debug)]
pub struct CellRow {
    /// The cells between the `|`s.
    pub cells: Vec<Cell>,
    /// From `[` to `]`.
    pub span: Span,
}

/// One cell of a rule row.
#[derive(Clone, Debug)]
pub enum Cell {
    /// `...`: any number of cells (at least zero) in the rule's direction.
    Ellipsis(Span),
    /// A list of terms (possibly empty: a cell that matches anything).
    Terms(Vec<Term>, Span),
}

/// A direction or condition word before an object name in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// `>`
    Forward,
    /// `<`
    Back,
    /// `^`
    Ccw,
    /// `v`
    Cw,
    /// `up`
    Up,
    /// `down`
    Down,
    /// `left`
    Left,
    /// `right`
    Right,
    /// `moving`
    Moving,
    /// `stationary`
    Stationary,
    /// `horizontal`
    Horizontal,
    /// `vertical`
    Vertical,
    /// `orthogonal`
    Orthogonal,
    /// `perpendicular`
    Perpendicular,
    /// `parallel`
    Parallel,
    /// `action`
    Action,
    /// `randomdir` (right-hand side only)
    RandomDir,
    /// `random` (right-hand side only: one of the property's objects at random)
    Random,
}

/// One term of a cell: `[no] [dir] name`.
#[derive(Clone, Debug)]
pub struct Term {
    /// `no`: the object is absent.
    pub no: Option<Span>,
    /// The direction word, if any.
    pub dir: Option<(Dir, Span)>,
    /// The object, property or aggregate named.
    pub name: Name,
    /// The whole term.
    pub span: Span,
}

/// A rule command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
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
    /// `message text`: the text to the end of the line, original case, trimmed.
    Message(String),
    /// `sfx0` .. `sfx10`
    Sfx(u8),
}

/// A win condition quantifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `all`
    All,
    /// `no`
    No,
    /// `some` (`any` is its synonym)
    Some,
}

/// One win condition, `all|no|some|any X [on Y]`.
#[derive(Clone, Debug)]
pub struct WinCondition {
    /// The quantifier.
    pub quantifier: (Quantifier, Span),
    /// What is counted.
    pub what: Name,
    /// Where it must (or must not) be.
    pub on: Option<Name>,
    /// The 1-based source line.
    pub line: usize,
    /// The whole line.
    pub span: Span,
}

/// One entry of the LEVELS section.
#[derive(Clone, Debug)]
pub enum LevelEntry {
    /// `message text`
    Message(String, Span),
    /// A level: its rows as written (trimmed), each one character per cell.
    Grid(Grid),
}

/// A level's rows.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The rows, lowercased characters (PuzzleScript's level symbols are
    /// case-insensitive), with each row's span.
    pub rows: Vec<(Vec<char>, Span)>,
    /// The 1-based source line of the first row.
    pub line: usize,
    /// All the rows.
    pub span: Span,
}
