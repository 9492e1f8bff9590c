//! Answers as JSON: a move of a path told with the pieces it moved, in the shape
//! `puz solve --json` prints and the playground's API returns (see [`crate::Solution`]).

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::engine::{MoveDescription, MoveTarget};

/// One move as JSON: `move`, `piece`, `from`, `to` (cells as `[row, column]`), `dir` or
/// `cell`, `letter`, `line` (as [`MoveDescription::line`] says it); `others` lists further
/// pieces the move changed, `tiles` and `counters` what else changed, each only when
/// there is one.
impl Serialize for MoveDescription {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Other<'a> {
            piece: &'a str,
            from: Option<crate::engine::CellPos>,
            to: Option<crate::engine::CellPos>,
        }
        #[derive(Serialize)]
        struct Tile<'a> {
            cell: crate::engine::CellPos,
            from: &'a str,
            to: &'a str,
        }
        #[derive(Serialize)]
        struct Counter<'a> {
            name: &'a str,
            from: u32,
            to: u32,
        }
        let main = self.main();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("move", &self.mv)?;
        m.serialize_entry("piece", &main.map(|p| p.name.as_str()))?;
        m.serialize_entry("from", &main.and_then(|p| p.from))?;
        m.serialize_entry("to", &main.and_then(|p| p.to))?;
        match &self.target {
            MoveTarget::Dir(name) => m.serialize_entry("dir", name)?,
            MoveTarget::Cell(c) => m.serialize_entry("cell", c)?,
        }
        m.serialize_entry("letter", &self.letter)?;
        m.serialize_entry("line", &self.line())?;
        if self.moved.len() > 1 {
            let others: Vec<Other> = self.moved[1..]
                .iter()
                .map(|p| Other {
                    piece: &p.name,
                    from: p.from,
                    to: p.to,
                })
                .collect();
            m.serialize_entry("others", &others)?;
        }
        if !self.tiles.is_empty() {
            let tiles: Vec<Tile> = self
                .tiles
                .iter()
                .map(|t| Tile {
                    cell: t.cell,
                    from: &t.from,
                    to: &t.to,
                })
                .collect();
            m.serialize_entry("tiles", &tiles)?;
        }
        if !self.counters.is_empty() {
            let counters: Vec<Counter> = self
                .counters
                .iter()
                .map(|c| Counter {
                    name: &c.name,
                    from: c.from,
                    to: c.to,
                })
                .collect();
            m.serialize_entry("counters", &counters)?;
        }
        m.end()
    }
}
