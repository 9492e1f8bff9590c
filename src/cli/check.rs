//! `puz check` and `puz compile`: a file's diagnostics and lints, and its model.

use puz::diagnostics::quantity;

use super::{emit, exit, load, output};

/// `puz check FILE`: exit 0 when the file is clean (lints are warnings), 1 with errors.
pub fn check(file: &str) -> Result<(), u8> {
    let p = load(file)?;
    let m = &p.model;
    // Lints are warnings: shown on stderr, and the check still succeeds.
    let lints = p.lints();
    if let Some(w) = &lints {
        output::report(w);
    }
    let warned = lints.map_or(0, |w| w.problems.len() + w.omitted);
    emit(&format!(
        "{file}: ok ({}, {}, {}, {}{}{})\n",
        quantity(m.tiles.len() as u64, "tiles"),
        quantity(m.pieces.len() as u64, "pieces"),
        quantity(m.moves.len() as u64, "moves"),
        quantity(m.levels.len() as u64, "levels"),
        if m.judge.is_some() {
            ", judge format"
        } else {
            ""
        },
        match warned {
            0 => String::new(),
            1 => ", 1 warning".to_string(),
            n => format!(", {n} warnings"),
        }
    ))
}

/// `puz compile FILE`: the compiled model, dumped or as JSON.
pub fn compile(file: &str, dump: bool, json: bool) -> Result<(), u8> {
    let p = load(file)?;
    if json {
        let text = serde_json::to_string_pretty(&p.model).map_err(|e| {
            say!("error: cannot write the model as JSON: {e}");
            exit::OUTPUT
        })?;
        emit(&(text + "\n"))
    } else if dump {
        emit(&puz::compile::dump(&p.model))
    } else {
        emit(&format!(
            "{file}: compiled; use --dump or --json to print the model\n"
        ))
    }
}
