//! Snapshot tests of `puz compile --dump` for every shipped puzzle.
//!
//! The expected listings live in `tests/fixtures/dump/NAME.txt`. Run with `PUZ_BLESS=1`
//! to rewrite them after an intended change; never edit them by hand.

use std::path::Path;

fn dump_of(name: &str) -> String {
    let path = format!("puzzles/{name}.puz");
    let text = std::fs::read_to_string(&path).expect("read puzzle");
    let puzzle =
        puz::Puzzle::load(&path, text).unwrap_or_else(|d| panic!("{path}: {}", d.render_plain(80)));
    puz::compile::dump(&puzzle.model)
}

#[test]
fn dumps_match_snapshots() {
    let mut failed = vec![];
    for name in ["bloxorz", "sokoban", "huarong", "curling"] {
        let got = dump_of(name);
        let file = Path::new("tests/fixtures/dump").join(format!("{name}.txt"));
        if std::env::var_os("PUZ_BLESS").is_some() {
            std::fs::write(&file, &got).expect("write snapshot");
            continue;
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        if want != got {
            failed.push(format!(
                "{}:\n--- expected\n{want}\n--- got\n{got}",
                file.display()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "dump snapshots differ (PUZ_BLESS=1 rewrites them):\n{}",
        failed.join("\n")
    );
}

#[test]
fn dump_is_stable_across_runs() {
    for name in ["bloxorz", "sokoban", "huarong", "curling"] {
        assert_eq!(dump_of(name), dump_of(name), "{name}");
    }
}

#[test]
fn dump_cli_prints_the_listing() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .args(["compile", "--dump", "puzzles/bloxorz.puz"])
        .output()
        .expect("run puz");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), dump_of("bloxorz"));
}
