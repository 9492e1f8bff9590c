//! Answers as JSON: a move of a path told with the pieces it moved, in the shape
//! `puz solve --json` prints and the playground's API returns (see [`crate::Solution`]).

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::engine::{cell_text, MoveDescription, MoveTarget};

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

/// Answers as text: what `puz solve` prints.
impl crate::Solution {
    /// The answer as `puz solve` prints it: the puzzle and level, the cost, the moves'
    /// letters and one line per move (per counted move under a metric, with its unit
    /// steps), a note when the path is not the tie rule's, and the boards when drawn
    /// (each after the move that made it, with the tiles and counters it changed). An
    /// unsolvable level says what is out of reach; a stopped search says why it stopped.
    pub fn report(&self) -> String {
        use crate::diagnostics::quantity;
        use crate::solution::{Moves, Status};
        use std::fmt::Write;
        let mut o = String::new();
        let head = format!(
            "puzzle: {} / level {:?} ({} x {})",
            self.puzzle, self.level, self.rows, self.cols
        );
        let cost = self.cost.as_ref().map_or(String::new(), |c| c.to_string());
        match self.outcome {
            Status::Cutoff | Status::Cancelled => {
                let _ = writeln!(
                    o,
                    "search stopped: {}; no answer (expanded {}, stored {}, {:.3}s)",
                    self.stopped.as_deref().unwrap_or("a limit was reached"),
                    quantity(self.stats.expanded, "states"),
                    self.stats.stored,
                    self.stats.elapsed.as_secs_f64()
                );
            }
            Status::Unsolvable => {
                let _ = writeln!(o, "{head}\n{}", self.summary());
                for r in &self.out_of_reach {
                    let _ = writeln!(o, "out of reach: {}", r.text);
                }
            }
            Status::Solved if !self.verified => {
                let _ = writeln!(o, "cost: {cost}");
            }
            Status::Solved => {
                let _ = writeln!(o, "{head}");
                let board = |o: &mut String, d: &MoveDescription, k: usize| {
                    if !d.tiles.is_empty() {
                        let changes: Vec<String> = d
                            .tiles
                            .iter()
                            .map(|t| format!("{} {} -> {}", cell_text(t.cell), t.from, t.to))
                            .collect();
                        let _ = writeln!(o, "tiles: {}", changes.join(", "));
                    }
                    if !d.counters.is_empty() {
                        let changes: Vec<String> = d
                            .counters
                            .iter()
                            .map(|c| format!("{} {} -> {}", c.name, c.from, c.to))
                            .collect();
                        let _ = writeln!(o, "counters: {}", changes.join(", "));
                    }
                    if let Some(b) = self.boards.as_ref().and_then(|b| b.get(k)) {
                        o.push_str(b);
                    }
                };
                let start = |o: &mut String| {
                    if let Some(b) = self.boards.as_ref().and_then(|b| b.first()) {
                        let _ = write!(o, "\nstart:\n{b}");
                    }
                };
                match &self.moves {
                    Moves::Counted(moves) => {
                        // The cost counts the metric's moves: the line says so, and how
                        // many unit steps they take.
                        let _ = writeln!(
                            o,
                            "cost: {cost} (metric {}: {}, {})",
                            self.metric.as_deref().unwrap_or_default(),
                            quantity(moves.len() as u64, "counted moves"),
                            quantity(self.unit_steps as u64, "unit steps")
                        );
                        let _ = writeln!(o, "unit steps ({}): {}", self.unit_steps, self.path);
                        let width = moves.len().to_string().len();
                        for (g, m) in moves.iter().enumerate() {
                            let _ = writeln!(o, "{:>width$}. {}", g + 1, m.line);
                        }
                        if self.boards.is_some() {
                            start(&mut o);
                            let mut k = 0;
                            for (g, m) in moves.iter().enumerate() {
                                let _ = writeln!(o, "\n{}: {}", g + 1, m.line);
                                for (j, d) in m.steps.iter().enumerate() {
                                    k += 1;
                                    let _ = writeln!(
                                        o,
                                        "{}.{}: {} ({})",
                                        g + 1,
                                        j + 1,
                                        d.line(),
                                        d.letter
                                    );
                                    board(&mut o, d, k);
                                }
                            }
                        }
                    }
                    Moves::Unit(moves) => {
                        let _ = writeln!(o, "cost: {cost}");
                        if let Some(lurd) = &self.lurd {
                            let _ = writeln!(o, "lurd: {lurd}");
                        }
                        let _ = writeln!(o, "moves ({}): {}", self.unit_steps, self.path);
                        if !self.canonical {
                            let _ = writeln!(
                                o,
                                "note: one optimal path, not necessarily the tie rule's (--search {})",
                                self.search
                            );
                        }
                        let width = moves.len().to_string().len();
                        for (k, d) in moves.iter().enumerate() {
                            let _ = writeln!(o, "{:>width$}. {}", k + 1, d.line());
                        }
                        if self.boards.is_some() {
                            start(&mut o);
                            for (k, d) in moves.iter().enumerate() {
                                let _ = writeln!(o, "\n{}: {} ({})", k + 1, d.line(), d.letter);
                                board(&mut o, d, k + 1);
                            }
                        }
                    }
                }
            }
        }
        o
    }
}
