//! Exporting a state graph: DOT with each node drawn as its board, or JSON.
//!
//! Every node carries a whole board, so an export grows with states times board size: ten
//! thousand states of a 250,000-cell board are 2.5 GB. Exports are therefore bounded by
//! an output limit in bytes, checked before anything is written against an estimate
//! from the rendered start board ([`estimate`]), and enforced again while writing should
//! a board render longer than the start's. The text is streamed to the writer, never
//! built whole, and the budget's deadline and memory limit are checked as it goes.

use std::collections::HashSet;
use std::io::Write;

use petgraph::visit::EdgeRef;

use crate::compile::GridForm;
use crate::engine::{Action, Expander};
use crate::io::render::render;
use crate::search::graph::StateGraph;
use crate::search::{Budget, Cutoff, Pacer};

/// The two export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Graphviz DOT: nodes labelled with their boards, edges with their moves, the start
    /// bold, goals double-circled, one shortest solution drawn thick and red.
    Dot,
    /// JSON: nodes with depth, goal flag and board; edges with move, direction, letter and
    /// cost; the shortest solution's edges.
    Json,
}

/// Why an export stopped.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExportError {
    /// The export would pass the output limit; nothing was written.
    #[error(
        "the graph export would take about {} MiB ({nodes} states of {board_bytes} bytes each), more than the output limit of {} MiB; raise --max-output or pick a smaller level",
        mib(*.estimate), mib(*.limit)
    )]
    #[diagnostic(code(puz::output::graph_too_large))]
    TooLarge {
        /// Estimated bytes.
        estimate: u64,
        /// The limit in bytes.
        limit: u64,
        /// States in the graph.
        nodes: usize,
        /// Bytes of the start's rendered board.
        board_bytes: usize,
    },
    /// The output passed the limit while being written (boards grew past the estimate);
    /// the output is incomplete.
    #[error("the graph export passed the output limit of {} MiB while being written; the output is incomplete; raise --max-output", mib(*.limit))]
    #[diagnostic(code(puz::output::limit_passed))]
    LimitPassed {
        /// The limit in bytes.
        limit: u64,
    },
    /// The deadline or the memory limit was reached; the output is incomplete.
    #[error("the graph export stopped: {0}; the output is incomplete")]
    #[diagnostic(code(puz::graph::export_stopped))]
    Cutoff(Cutoff),
    /// The writer failed.
    #[error("cannot write the graph: {0}")]
    #[diagnostic(code(puz::output::write_failed))]
    Io(#[source] std::io::Error),
}

/// Bytes in MiB, rounded up, for messages.
fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// What an export writes of a state graph's states and moves: the boards and the move
/// labels of a `.puz` level ([`PuzLabels`]) or of a PuzzleScript level ([`PsLabels`]).
pub trait Labels {
    /// A state's board, as text.
    fn board(&self, s: &[u32]) -> String;
    /// A move's label in DOT.
    fn dot_label(&self, a: Action) -> String;
    /// A move's fields in JSON (besides `from` and `to`).
    fn json_fields(&self, a: Action) -> serde_json::Map<String, serde_json::Value>;
    /// The cost components' names.
    fn costs(&self) -> Vec<String>;
    /// The longest move label, in bytes (for the estimate).
    fn label_len(&self) -> usize;
}

/// The boards and moves of a `.puz` level, drawn by its interpreter.
pub struct PuzLabels<'a, 'm> {
    /// The interpreter.
    pub exp: &'a Expander<'m>,
    /// How its boards are drawn.
    pub form: GridForm,
}

impl Labels for PuzLabels<'_, '_> {
    fn board(&self, s: &[u32]) -> String {
        render(self.exp, s, self.form)
    }
    fn dot_label(&self, a: Action) -> String {
        let model = self.exp.model;
        format!("{} {}", model.moves[a.mv().index()].name, model.arg_text(a))
    }
    fn json_fields(&self, a: Action) -> serde_json::Map<String, serde_json::Value> {
        let model = self.exp.model;
        let v = serde_json::json!({
            "move": model.moves[a.mv().index()].name,
            "dir": model.arg_text(a), "letter": model.letter(a),
            "cost": crate::solver::path_cost(model, &[a]),
        });
        match v {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        }
    }
    fn costs(&self) -> Vec<String> {
        let model = self.exp.model;
        if model.costs.is_empty() {
            vec!["moves".to_string()]
        } else {
            model.costs.clone()
        }
    }
    fn label_len(&self) -> usize {
        let model = self.exp.model;
        model.moves.iter().map(|m| m.name.len()).max().unwrap_or(0)
            + model.dirs.iter().map(|d| d.name.len()).max().unwrap_or(0)
            + 16 * model.costs.len().max(1)
    }
}

/// The boards (in the game's legend characters) and inputs of a PuzzleScript level.
pub struct PsLabels<'a, 'g> {
    /// The level's state space.
    pub space: &'a crate::puzzlescript::search::PsSpace<'g>,
}

impl Labels for PsLabels<'_, '_> {
    fn board(&self, s: &[u32]) -> String {
        self.space.draw(s)
    }
    fn dot_label(&self, a: Action) -> String {
        crate::puzzlescript::search::input_of(a).word().to_string()
    }
    fn json_fields(&self, a: Action) -> serde_json::Map<String, serde_json::Value> {
        let i = crate::puzzlescript::search::input_of(a);
        let mut m = serde_json::Map::new();
        m.insert("input".into(), i.word().into());
        m.insert("letter".into(), i.letter().to_string().into());
        m
    }
    fn costs(&self) -> Vec<String> {
        vec!["inputs".to_string()]
    }
    fn label_len(&self) -> usize {
        6 + 16
    }
}

/// Estimated bytes of an export: every board as long as the start's, escaped, plus the
/// fixed text of each node and edge. Returns the estimate and the start board's length.
pub fn estimate(g: &StateGraph, labels: &dyn Labels, format: Format) -> (u64, usize) {
    let start = g.graph.node_indices().next().map(|n| g.state(n));
    let board = start.map_or(0, |s| escaped(&labels.board(&s), format).len());
    let nodes = g.graph.node_count() as u64;
    let edges = g.graph.edge_count() as u64;
    let digits = nodes.max(1).ilog10() as u64 + 1;
    let names = labels.label_len() as u64;
    let (per_node, per_edge) = match format {
        // `  sN [label="..."];` and `  sN -> sM [label="move dir"];`
        Format::Dot => (14 + digits, 22 + 2 * digits + names),
        // `{"board":"...","depth":D,"goal":false,"id":N},` and the edge object.
        Format::Json => (40 + 2 * digits, 70 + 2 * digits + names),
    };
    let total = nodes * (board as u64 + per_node) + edges * per_edge;
    (total, board)
}

/// A board as it appears inside a quoted label.
fn escaped(board: &str, format: Format) -> String {
    match format {
        Format::Dot => board
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\l"),
        Format::Json => serde_json::to_string(board).expect("a string serializes"),
    }
}

/// A writer that refuses to pass a byte limit.
struct Capped<W> {
    inner: W,
    written: u64,
    limit: u64,
    passed: bool,
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written + buf.len() as u64 > self.limit {
            self.passed = true;
            return Err(std::io::Error::other("output limit passed"));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the graph to `out` in `format`, at most `max_bytes` bytes, under `budget`'s
/// deadline and memory limit. Refused before anything is written when [`estimate`]
/// passes the limit.
pub fn export<W: Write>(
    g: &StateGraph,
    labels: &dyn Labels,
    format: Format,
    out: W,
    budget: &Budget,
    max_bytes: u64,
) -> Result<(), ExportError> {
    let (estimate, board_bytes) = estimate(g, labels, format);
    if estimate > max_bytes {
        return Err(ExportError::TooLarge {
            estimate,
            limit: max_bytes,
            nodes: g.graph.node_count(),
            board_bytes,
        });
    }
    let mut capped = Capped {
        inner: out,
        written: 0,
        limit: max_bytes,
        passed: false,
    };
    let res = match format {
        Format::Dot => write_dot(g, labels, &mut capped, budget),
        Format::Json => write_json(g, labels, &mut capped, budget),
    }
    .and_then(|()| capped.flush().map_err(ExportError::Io));
    match res {
        Err(ExportError::Io(_)) if capped.passed => {
            Err(ExportError::LimitPassed { limit: max_bytes })
        }
        r => r,
    }
}

fn write_dot<W: Write>(
    g: &StateGraph,
    labels: &dyn Labels,
    o: &mut W,
    budget: &Budget,
) -> Result<(), ExportError> {
    let io = ExportError::Io;
    let mut pacer = Pacer::default();
    let path: HashSet<_> = g.shortest_path_edges().into_iter().collect();
    writeln!(o, "digraph states {{").map_err(io)?;
    writeln!(o, "  node [shape=box, fontname=\"monospace\"];").map_err(io)?;
    for n in g.graph.node_indices() {
        pacer.tick(1, budget).map_err(ExportError::Cutoff)?;
        let w = &g.graph[n];
        let board = escaped(&labels.board(&g.state(n)), Format::Dot);
        let mut attrs = format!("label=\"{board}\"");
        if n.index() == 0 {
            attrs.push_str(", style=bold");
        }
        if w.goal {
            attrs.push_str(", peripheries=2");
        }
        writeln!(o, "  s{} [{attrs}];", n.index()).map_err(io)?;
    }
    for e in g.graph.edge_references() {
        pacer.tick(1, budget).map_err(ExportError::Cutoff)?;
        let a = *e.weight();
        let style = if path.contains(&e.id()) {
            ", color=red, penwidth=2"
        } else {
            ""
        };
        writeln!(
            o,
            "  s{} -> s{} [label=\"{}\"{style}];",
            e.source().index(),
            e.target().index(),
            labels.dot_label(a),
        )
        .map_err(io)?;
    }
    writeln!(o, "}}").map_err(io)
}

fn write_json<W: Write>(
    g: &StateGraph,
    labels: &dyn Labels,
    o: &mut W,
    budget: &Budget,
) -> Result<(), ExportError> {
    let io = |e: serde_json::Error| ExportError::Io(e.into());
    let mut pacer = Pacer::default();
    let costs = labels.costs();
    write!(o, "{{\"costs\":").map_err(ExportError::Io)?;
    serde_json::to_writer(&mut *o, &costs).map_err(io)?;
    write!(o, ",\"nodes\":[").map_err(ExportError::Io)?;
    for n in g.graph.node_indices() {
        pacer.tick(1, budget).map_err(ExportError::Cutoff)?;
        let w = &g.graph[n];
        if n.index() > 0 {
            write!(o, ",").map_err(ExportError::Io)?;
        }
        let node = serde_json::json!({
            "id": n.index(), "depth": w.depth, "goal": w.goal,
            "board": labels.board(&g.state(n)),
        });
        serde_json::to_writer(&mut *o, &node).map_err(io)?;
    }
    write!(o, "],\"edges\":[").map_err(ExportError::Io)?;
    for (k, e) in g.graph.edge_references().enumerate() {
        pacer.tick(1, budget).map_err(ExportError::Cutoff)?;
        if k > 0 {
            write!(o, ",").map_err(ExportError::Io)?;
        }
        let a = *e.weight();
        let mut edge = serde_json::Map::new();
        edge.insert("from".into(), e.source().index().into());
        edge.insert("to".into(), e.target().index().into());
        edge.extend(labels.json_fields(a));
        serde_json::to_writer(&mut *o, &edge).map_err(io)?;
    }
    let path: Vec<usize> = g.shortest_path_edges().iter().map(|e| e.index()).collect();
    write!(o, "],\"solution_edges\":").map_err(ExportError::Io)?;
    serde_json::to_writer(&mut *o, &path).map_err(io)?;
    writeln!(o, "}}").map_err(ExportError::Io)
}
