//! The symbol table: every declared name, its kind, its index and where it was declared.
//!
//! [`declare`] is the first pass of checking. It builds the table from the declarations
//! and reports names declared twice; every later pass and [`crate::compile`] read it.
//! Lookups are hash maps, so a file with 100,000 names checks in linear time.

use std::collections::{HashMap, HashSet};

use crate::diagnostics::Problem;
use crate::syntax::ast::{File, ItemKind, Name, PieceDecl};
use crate::syntax::Span;

/// What a name in the shared tile/mark/piece namespace denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thing {
    /// A tile kind from `tiles`.
    Tile,
    /// A mark from `marks`.
    Mark,
    /// A piece from `piece`.
    Piece,
    /// A counter from `counter`.
    Counter,
}

impl Thing {
    /// The word diagnostics use for this kind.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Thing::Tile => "tile",
            Thing::Mark => "mark",
            Thing::Piece => "piece",
            Thing::Counter => "counter",
        }
    }
}

/// Names of one kind in declaration order, with a hash index. The first declaration of a
/// name wins; repeats are reported by `declare` and left out.
#[derive(Debug, Default)]
pub struct NameTable {
    entries: Vec<(String, Span)>,
    index: HashMap<String, usize>,
}

impl NameTable {
    /// Adds `name`, or returns where it was first declared.
    fn insert(&mut self, name: &str, span: Span) -> Result<usize, Span> {
        if let Some(&i) = self.index.get(name) {
            return Err(self.entries[i].1);
        }
        let i = self.entries.len();
        self.entries.push((name.to_string(), span));
        self.index.insert(name.to_string(), i);
        Ok(i)
    }

    /// The index of `name`, counting from 0 in declaration order.
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Where `name` was declared.
    pub(crate) fn span(&self, name: &str) -> Option<Span> {
        self.get(name).map(|i| self.entries[i].1)
    }

    /// The names in declaration order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> + Clone {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// The name at `index` and where it was declared.
    pub(crate) fn entry(&self, index: usize) -> (&str, Span) {
        let (n, s) = &self.entries[index];
        (n, *s)
    }

    /// How many distinct names.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no name was declared.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Every declared name, its kind, index and where it was declared. Indices count from 0 in
/// declaration order within each kind; they are `usize` here and narrowed by
/// [`crate::compile`] once `crate::check::limits` has checked that they fit.
#[derive(Debug, Default)]
pub struct Symbols {
    things: HashMap<String, (Thing, usize, Span)>,
    tiles: Vec<String>,
    marks: Vec<String>,
    pieces: Vec<String>,
    counters: Vec<String>,
    /// Per counter: its `max`.
    pub(crate) counter_max: Vec<i64>,
    /// Anonymous piece names.
    pub(crate) anonymous: HashSet<String>,
    /// Piece names with room for new copies (`max N`, or named).
    pub(crate) roomy: HashSet<String>,
    /// Tile names that declare `-> other`.
    mutable: HashSet<String>,
    /// Pose names per piece name.
    poses: HashMap<String, NameTable>,
    /// Directions in tie-break order.
    pub(crate) dirs: NameTable,
    /// Cost components, most significant first.
    pub(crate) costs: NameTable,
}

impl Symbols {
    /// Kind and declaration site of a tile, mark or piece name.
    pub(crate) fn thing(&self, name: &str) -> Option<(Thing, Span)> {
        self.things.get(name).map(|&(k, _, s)| (k, s))
    }

    /// Kind and index of a tile, mark or piece name.
    pub(crate) fn resolve(&self, name: &str) -> Option<(Thing, usize)> {
        self.things.get(name).map(|&(k, id, _)| (k, id))
    }

    fn id_of(&self, name: &str, kind: Thing) -> Option<usize> {
        match self.things.get(name) {
            Some(&(k, id, _)) if k == kind => Some(id),
            _ => None,
        }
    }

    /// The index of tile `name`.
    pub(crate) fn tile_id(&self, name: &str) -> Option<usize> {
        self.id_of(name, Thing::Tile)
    }

    /// The index of counter `name`.
    pub(crate) fn counter_id(&self, name: &str) -> Option<usize> {
        self.id_of(name, Thing::Counter)
    }

    /// The index of piece `name`.
    pub(crate) fn piece_id(&self, name: &str) -> Option<usize> {
        self.id_of(name, Thing::Piece)
    }

    /// Whether tile `name` declares what it turns into.
    pub(crate) fn tile_is_mutable(&self, name: &str) -> bool {
        self.mutable.contains(name)
    }

    /// Names of the given kinds, in declaration order per kind.
    pub(crate) fn names_of<'a>(
        &'a self,
        kinds: &'a [Thing],
    ) -> impl Iterator<Item = &'a str> + Clone + 'a {
        kinds.iter().flat_map(move |k| {
            match k {
                Thing::Tile => &self.tiles,
                Thing::Mark => &self.marks,
                Thing::Piece => &self.pieces,
                Thing::Counter => &self.counters,
            }
            .iter()
            .map(String::as_str)
        })
    }

    /// The poses of piece `piece`.
    pub(crate) fn poses(&self, piece: &str) -> Option<&NameTable> {
        self.poses.get(piece)
    }

    /// The index of `pose` within piece `piece`.
    pub(crate) fn pose_id(&self, piece: &str, pose: &str) -> Option<usize> {
        self.poses.get(piece)?.get(pose)
    }

    fn add_thing(&mut self, name: &Name, kind: Thing) -> Option<Problem> {
        if let Some(&(k, _, first)) = self.things.get(&name.text) {
            let noun = if k == kind { kind.noun() } else { "name" };
            return Some(duplicate(noun, name, first));
        }
        let list = match kind {
            Thing::Tile => &mut self.tiles,
            Thing::Mark => &mut self.marks,
            Thing::Piece => &mut self.pieces,
            Thing::Counter => &mut self.counters,
        };
        let id = list.len();
        list.push(name.text.clone());
        self.things.insert(name.text.clone(), (kind, id, name.span));
        None
    }
}

/// `kind `name` is defined twice`.
fn duplicate(kind: &'static str, name: &Name, first: Span) -> Problem {
    Problem::Duplicate {
        kind,
        name: name.text.clone(),
        span: name.span.into(),
        first: first.into(),
    }
}

/// The first pass: builds the symbol table, reporting every name declared twice.
pub fn declare(file: &File) -> (Symbols, Vec<Problem>) {
    let mut syms = Symbols::default();
    let mut problems = vec![];
    let mut moves = NameTable::default();
    let mut levels = NameTable::default();
    for item in &file.items {
        match &item.kind {
            ItemKind::Tiles(tiles) => {
                for t in tiles {
                    problems.extend(syms.add_thing(&t.name, Thing::Tile));
                    if t.becomes.is_some() {
                        syms.mutable.insert(t.name.text.clone());
                    }
                }
            }
            ItemKind::Marks(marks) => {
                for m in marks {
                    problems.extend(syms.add_thing(&m.name, Thing::Mark));
                }
            }
            ItemKind::Piece(p) => {
                problems.extend(syms.add_thing(&p.name, Thing::Piece));
                if p.anonymous {
                    syms.anonymous.insert(p.name.text.clone());
                }
                if p.max.is_some() || !p.anonymous {
                    syms.roomy.insert(p.name.text.clone());
                }
                let (table, dups) = pose_table(p);
                problems.extend(dups);
                syms.poses.entry(p.name.text.clone()).or_insert(table);
            }
            ItemKind::Counter(c) => {
                let fresh = !syms.things.contains_key(&c.name.text);
                problems.extend(syms.add_thing(&c.name, Thing::Counter));
                if fresh {
                    syms.counter_max.push(c.max.value);
                }
            }
            ItemKind::Dirs(dirs) => {
                for d in dirs {
                    if let Err(first) = syms.dirs.insert(&d.name.text, d.name.span) {
                        problems.push(duplicate("direction", &d.name, first));
                    }
                }
            }
            ItemKind::Cost(costs) => {
                for c in costs {
                    if let Err(first) = syms.costs.insert(&c.text, c.span) {
                        problems.push(duplicate("cost component", c, first));
                    }
                }
            }
            ItemKind::Move(m) => {
                if let Err(first) = moves.insert(&m.name.text, m.name.span) {
                    problems.push(duplicate("move", &m.name, first));
                }
            }
            ItemKind::Level(l) => {
                if let Err(first) = levels.insert(&l.name.value, l.name.span) {
                    problems.push(Problem::Duplicate {
                        kind: "level",
                        name: l.name.value.clone(),
                        span: l.name.span.into(),
                        first: first.into(),
                    });
                }
            }
            _ => {}
        }
    }
    (syms, problems)
}

/// A piece's pose names; `piece man` (no braces) has the one pose `cell`.
fn pose_table(p: &PieceDecl) -> (NameTable, Vec<Problem>) {
    let mut table = NameTable::default();
    let mut problems = vec![];
    match &p.poses {
        Some(poses) => {
            for pose in poses {
                if let Err(first) = table.insert(&pose.name.text, pose.name.span) {
                    problems.push(duplicate("pose", &pose.name, first));
                }
            }
        }
        None => {
            let _ = table.insert("cell", p.name.span);
        }
    }
    (table, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    #[test]
    fn ids_count_per_kind_in_declaration_order() {
        let file = parse("tiles { a b } marks { m } piece p piece q { pose x { (0, 0) } }")
            .expect("parses");
        let (syms, problems) = declare(&file);
        assert!(problems.is_empty());
        assert_eq!(syms.resolve("b"), Some((Thing::Tile, 1)));
        assert_eq!(syms.resolve("m"), Some((Thing::Mark, 0)));
        assert_eq!(syms.resolve("q"), Some((Thing::Piece, 1)));
        assert_eq!(syms.pose_id("p", "cell"), Some(0));
        assert_eq!(syms.pose_id("q", "x"), Some(0));
    }

    #[test]
    fn repeats_are_reported_once_each_and_keep_the_first() {
        let file = parse("tiles { a a a } dirs { n (1, 0) n (0, 1) } piece a").expect("parses");
        let (syms, problems) = declare(&file);
        assert_eq!(problems.len(), 4);
        assert!(problems
            .iter()
            .all(|p| p.code_str() == "puz::check::duplicate_definition"));
        assert_eq!(syms.resolve("a"), Some((Thing::Tile, 0)));
        assert_eq!(syms.dirs.len(), 1);
    }
}
