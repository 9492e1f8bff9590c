//! Snapshot tests of `puz compile --dump` for every shipped puzzle.
//!
//! The expected listings live in `tests/fixtures/dump/NAME.txt`. Run with `PUZ_BLESS=1`
//! to rewrite them after an intended change; never edit them by hand.

use std::path::Path;

/// The puzzles with a snapshot: the seeds, Rush Hour (a move over some directions only,
/// `drive_red(d in w, e)`) and Lights Out (a move per cell).
const SNAPSHOTS: [&str; 6] = [
    "bloxorz",
    "sokoban",
    "huarong",
    "curling",
    "rushhour",
    "lightsout",
];

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
    for name in SNAPSHOTS {
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

/// `puz compile ARGS FILE` in a process of its own: every run hashes with new random keys,
/// so an order taken from a hash map would differ between two runs.
fn dump_by_binary(args: &[&str], path: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puz"))
        .arg("compile")
        .args(args)
        .arg(path)
        .output()
        .expect("run puz");
    assert!(out.status.success(), "{args:?} {path}: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 listing")
}

#[test]
fn dump_is_stable_across_runs() {
    for name in SNAPSHOTS {
        let path = format!("puzzles/{name}.puz");
        for args in [&["--dump"][..], &["--json"][..]] {
            let first = dump_by_binary(args, &path);
            let second = dump_by_binary(args, &path);
            assert!(!first.is_empty(), "{name} {args:?}: empty listing");
            assert_eq!(first, second, "{name} {args:?}: two runs differ");
        }
        // And a compile in this process, from a separate load of the file.
        assert_eq!(dump_by_binary(&["--dump"], &path), dump_of(name), "{name}");
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

/// A move over some directions only (`move drive_red(d in w, e)`) says so in both dumps:
/// the listing names its directions, the JSON model lists their ids; a move over every
/// direction lists them all, and a move per cell says `cells`.
#[test]
fn dumps_show_a_moves_direction_subset() {
    let text = dump_of("rushhour");
    assert!(
        text.contains("move m1 drive_red over dirs d2 w, d3 e letters WE"),
        "{text}"
    );
    assert!(
        text.contains("move m0 drive over dirs d0 n, d1 s, d2 w, d3 e letters nswe"),
        "{text}"
    );
    assert!(dump_of("lightsout").contains("move m0 press over cells letters p"));
    let json: serde_json::Value =
        serde_json::from_str(&dump_by_binary(&["--json"], "puzzles/rushhour.puz"))
            .expect("the JSON dump parses");
    let moves = json["moves"].as_array().expect("moves");
    let param = |name: &str| {
        moves
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("move {name}"))["param"]
            .clone()
    };
    assert_eq!(param("drive_red"), serde_json::json!({ "Dirs": [2, 3] }));
    assert_eq!(param("drive"), serde_json::json!({ "Dirs": [0, 1, 2, 3] }));
}
