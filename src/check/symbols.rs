//! The symbol table that checking builds and compiling reads.

use std::collections::HashMap;

use crate::syntax::Span;

/// What a name in the shared tile/mark/piece namespace denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thing {
    Tile,
    Mark,
    Piece,
}

impl Thing {
    pub fn noun(self) -> &'static str {
        match self {
            Thing::Tile => "tile",
            Thing::Mark => "mark",
            Thing::Piece => "piece",
        }
    }
}

/// Every declared name, its kind, id and where it was declared. Ids count from 0 in
/// declaration order within each kind.
#[derive(Debug, Default)]
pub struct Symbols {
    things: HashMap<String, (Thing, u16, Span)>,
    tiles: Vec<String>,
    marks: Vec<String>,
    pieces: Vec<String>,
    /// Tile names that declare `-> other`.
    mutable: Vec<String>,
    /// Poses per piece name, in declaration order.
    pub poses: HashMap<String, Vec<(String, Span)>>,
    pub dirs: Vec<(String, Span)>,
    pub costs: Vec<(String, Span)>,
    pub moves: Vec<(String, Span)>,
    pub levels: Vec<(String, Span)>,
}

impl Symbols {
    pub fn add_thing(&mut self, name: &str, kind: Thing, span: Span) {
        let list = match kind {
            Thing::Tile => &mut self.tiles,
            Thing::Mark => &mut self.marks,
            Thing::Piece => &mut self.pieces,
        };
        let id = list.len() as u16;
        list.push(name.to_string());
        self.things.insert(name.to_string(), (kind, id, span));
    }

    pub fn set_mutable(&mut self, name: &str) {
        self.mutable.push(name.to_string());
    }

    pub fn tile_is_mutable(&self, name: &str) -> bool {
        self.mutable.iter().any(|m| m == name)
    }

    pub fn thing(&self, name: &str) -> Option<(Thing, Span)> {
        self.things.get(name).map(|&(k, _, s)| (k, s))
    }

    pub fn resolve(&self, name: &str) -> Option<(Thing, u16)> {
        self.things.get(name).map(|&(k, id, _)| (k, id))
    }

    fn id_of(&self, name: &str, kind: Thing) -> Option<u16> {
        match self.things.get(name) {
            Some(&(k, id, _)) if k == kind => Some(id),
            _ => None,
        }
    }

    pub fn tile_id(&self, name: &str) -> Option<u16> {
        self.id_of(name, Thing::Tile)
    }

    pub fn piece_id(&self, name: &str) -> Option<u16> {
        self.id_of(name, Thing::Piece)
    }

    pub fn mark_id(&self, name: &str) -> Option<u16> {
        self.id_of(name, Thing::Mark)
    }

    /// Names of the given kinds, in declaration order per kind.
    pub fn names_of(&self, kinds: &[Thing]) -> Vec<String> {
        let mut out = vec![];
        for k in kinds {
            out.extend(
                match k {
                    Thing::Tile => &self.tiles,
                    Thing::Mark => &self.marks,
                    Thing::Piece => &self.pieces,
                }
                .iter()
                .cloned(),
            );
        }
        out
    }

    pub fn dir_span(&self, name: &str) -> Option<Span> {
        self.dirs.iter().find(|(n, _)| n == name).map(|&(_, s)| s)
    }

    pub fn dir_id(&self, name: &str) -> Option<u16> {
        self.dirs
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| i as u16)
    }

    pub fn cost_span(&self, name: &str) -> Option<Span> {
        self.costs.iter().find(|(n, _)| n == name).map(|&(_, s)| s)
    }

    pub fn pose_id(&self, piece: &str, pose: &str) -> Option<u16> {
        self.poses
            .get(piece)?
            .iter()
            .position(|(n, _)| n == pose)
            .map(|i| i as u16)
    }
}
