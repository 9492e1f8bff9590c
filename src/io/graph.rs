//! Exporting a state graph: DOT with each node drawn as its board, or JSON.

use std::fmt::Write;

use petgraph::visit::EdgeRef;

use crate::compile::GridForm;
use crate::engine::Expander;
use crate::io::render::render;
use crate::search::graph::StateGraph;

/// Graphviz DOT: nodes labelled with their boards, edges with their moves, the start
/// bold, goals double-circled, one shortest solution drawn thick and red.
pub fn to_dot(g: &StateGraph, exp: &Expander, form: GridForm) -> String {
    let model = exp.model;
    let path: std::collections::HashSet<_> = g.shortest_path_edges().into_iter().collect();
    let mut o = String::new();
    let _ = writeln!(o, "digraph states {{");
    let _ = writeln!(o, "  node [shape=box, fontname=\"monospace\"];");
    for n in g.graph.node_indices() {
        let w = &g.graph[n];
        let board = render(exp, &w.state, form)
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\l");
        let mut attrs = format!("label=\"{board}\"");
        if n.index() == 0 {
            attrs.push_str(", style=bold");
        }
        if w.goal {
            attrs.push_str(", peripheries=2");
        }
        let _ = writeln!(o, "  s{} [{attrs}];", n.index());
    }
    for e in g.graph.edge_references() {
        let a = *e.weight();
        let label = format!(
            "{} {}",
            model.moves[a.mv().index()].name,
            model.dirs[a.dir().index()].name
        );
        let style = if path.contains(&e.id()) {
            ", color=red, penwidth=2"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "  s{} -> s{} [label=\"{label}\"{style}];",
            e.source().index(),
            e.target().index()
        );
    }
    let _ = writeln!(o, "}}");
    o
}

/// JSON: nodes with depth, goal flag and board; edges with move, direction, letter and
/// cost; the shortest solution's edges.
pub fn to_json(g: &StateGraph, exp: &Expander, form: GridForm) -> serde_json::Value {
    let model = exp.model;
    let nodes: Vec<serde_json::Value> = g
        .graph
        .node_indices()
        .map(|n| {
            let w = &g.graph[n];
            serde_json::json!({ "id": n.index(), "depth": w.depth, "goal": w.goal, "board": render(exp, &w.state, form) })
        })
        .collect();
    let edges: Vec<serde_json::Value> = g
        .graph
        .edge_references()
        .map(|e| {
            let a = *e.weight();
            let mv = &model.moves[a.mv().index()];
            serde_json::json!({
                "from": e.source().index(), "to": e.target().index(), "move": mv.name,
                "dir": model.dirs[a.dir().index()].name, "letter": model.letter(a),
                "cost": crate::solver::path_cost(model, &[a]),
            })
        })
        .collect();
    let path: Vec<usize> = g.shortest_path_edges().iter().map(|e| e.index()).collect();
    serde_json::json!({
        "costs": if model.costs.is_empty() { vec!["moves".to_string()] } else { model.costs.clone() },
        "nodes": nodes, "edges": edges, "solution_edges": path,
    })
}
