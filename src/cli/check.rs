//! `puz check` and `puz compile`: a file's diagnostics and lints, and its model.

use puz::diagnostics::quantity;

use super::{emit, exit, load, load_text, output, play, read_as, source_name, Lang};

/// `puz check FILE`: exit 0 when the file is clean (lints are warnings), 1 with errors.
/// A PuzzleScript game (by `lang`) is checked as one.
pub fn check(file: &str, lang: Lang) -> Result<(), u8> {
    let (text, ps) = read_as(file, lang)?;
    if ps {
        return check_puzzlescript(file, text);
    }
    let p = load_text(file, text)?;
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
pub fn compile(file: &str, dump: bool, json: bool, lang: Lang) -> Result<(), u8> {
    if super::is_puzzlescript(file, lang) {
        let (text, _) = read_as(file, lang)?;
        let (game, warnings) = play::load_game(source_name(file), text)?;
        if let Some(w) = &warnings {
            output::report(w);
        }
        return if json {
            say!("error: --json prints a .puz model; for a PuzzleScript game use --dump");
            Err(exit::INPUT)
        } else if dump {
            emit(&game.dump())
        } else {
            emit(&format!(
                "{file}: compiled; use --dump to print what the compiler made of it\n"
            ))
        };
    }
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

/// `puz check GAME.txt`: the game's diagnostics, and what it is made of.
fn check_puzzlescript(file: &str, text: String) -> Result<(), u8> {
    let (game, warnings) = play::load_game(source_name(file), text)?;
    let warned = warnings
        .as_ref()
        .map_or(0, |w| w.problems.len() + w.omitted);
    if let Some(w) = &warnings {
        output::report(w);
    }
    let c = game.counts();
    emit(&format!(
        "{file}: ok (PuzzleScript: {}, {}, {} in {}{}, {}, {}{}{}{})\n",
        quantity(c.objects as u64, "objects"),
        quantity(c.layers as u64, "layers"),
        quantity(c.rules as u64, "rules"),
        quantity(c.groups as u64, "groups"),
        if c.late_rules > 0 {
            format!(" and {} late", c.late_rules)
        } else {
            String::new()
        },
        quantity(c.wins as u64, "win conditions"),
        quantity(c.levels as u64, "levels"),
        if c.messages > 0 {
            format!(", {}", quantity(c.messages as u64, "messages"))
        } else {
            String::new()
        },
        if game.is_random() {
            "; random: it can be played, not searched"
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
