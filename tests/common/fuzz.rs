//! A seeded, grammar-aware fuzzer for `puz`: generates valid and near-valid rule files,
//! level files and judge inputs, runs them through the library (`Puzzle::load`, level
//! parsing) and the `puz` binary (`check`, `compile`, `solve`, `judge`, `analyze`,
//! `graph`), and reports every run that panics, crashes, runs past its time budget or
//! reports an error without a diagnostic code.
//!
//! Every input is a pure function of its seed ([`case`]), so a failure is reproduced by its
//! seed alone; [`save`] also writes the files and the command that failed. Besides
//! `check` and `solve`, rule files with several levels or `expect` lines go through
//! `solve --all` and `puz test`.
//!
//! How inputs are made:
//! - rule files: the shipped `puzzles/*.puz` and small robustness files, mutated token by
//!   token (delete, duplicate, swap, replace by a grammar fragment, extreme and negative
//!   numbers, odd Unicode, declarations spliced from another file); rule files built from
//!   the grammar's declarations (tiles, marks, pieces with poses, legend, dirs, cost, limit,
//!   moves with every seed statement kind, forbid, goal, levels, judge: [`synth`]); rule
//!   files in the issue 9 language ([`synth9`]: counters, anonymous kinds with `max`,
//!   per-cell and listed-direction moves, repeated and reversed steps, `remove`,
//!   `create`, `change`, `toggle`, counter updates, `if`/`else`, `for`, `shift each`,
//!   `slide each`, conditions with `as`, `on`, `count`, `not`, `and`, `or`, goal
//!   conditions and pictures, `expect` lines; a quarter with one semantic slip); and
//!   extremes (very long lines, deep nesting, thousands of declarations);
//! - level files: grids in the legend's own symbols, for generated files and every
//!   shipped puzzle, then mutated (ragged rows, unknown symbols, huge rows, invalid UTF-8);
//! - judge inputs: the samples in `tests/data` and random headers and grids, mutated.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

/// One generated input: a rule file and, optionally, a level file and a judge input.
#[derive(Clone, Debug)]
pub struct Case {
    /// The seed the case was generated from.
    pub seed: u64,
    /// How the rule file was made (for statistics).
    pub origin: &'static str,
    /// The rule file's bytes (not always UTF-8).
    pub rules: Vec<u8>,
    /// A level file to solve, if any.
    pub level: Option<Vec<u8>>,
    /// A judge input, if any.
    pub judge: Option<Vec<u8>>,
    /// Extra flags for `solve` and `judge` (engine, search).
    pub flags: Vec<String>,
    /// Also run `compile --json`, `analyze` and `graph`.
    pub explore: bool,
}

/// Files the generator builds on, read once from the repository.
pub struct Corpus {
    /// Shipped puzzles and small robustness rule files: (name, text).
    pub rules: Vec<(String, String)>,
    /// The grammar's keywords.
    pub keywords: Vec<String>,
    /// The grammar's punctuation and other fragments.
    pub punct: Vec<String>,
    /// Judge inputs for the shipped puzzles: (puzzle name, input).
    pub judge: Vec<(String, String)>,
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

impl Corpus {
    /// Reads the shipped puzzles, the small rule files of `tests/data/robustness` and the
    /// judge samples of `tests/data`.
    pub fn load() -> Corpus {
        let mut rules = vec![];
        for dir in ["puzzles", "tests/data/robustness"] {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(repo(dir))
                .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
                .map(|e| e.expect("dir entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "puz"))
                .collect();
            paths.sort();
            for p in paths {
                let text = std::fs::read_to_string(&p).expect("read rule file");
                // Huge files only repeat what the extremes below generate.
                if text.len() <= 8_000 {
                    let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                    rules.push((name, text));
                }
            }
        }
        let mut judge: Vec<(String, String)> = vec![
            ("bloxorz".into(), "7 7\n#######\n#..X###\n#..##O#\n#....E#\n#....E#\n#.....#\n#######\n0 0\n".into()),
            ("sokoban".into(), "1 7\nSB....T\n7 11\n###########\n#T##......#\n#.#.#..####\n#....B....#\n#.######..#\n#.....S...#\n###########\n0 0\n".into()),
            ("huarong".into(), "3 4 2\n0 1 1 1\n0 1 1 0\n0 1 0 0\n3 2 1 2 2 2\n1 2 2 2 3 2\n".into()),
            ("curling".into(), "2 1\n3 2\n6 1\n1 1 2 1 1 3\n6 6\n1 0 0 2 1 0\n1 1 0 0 0 0\n0 0 0 0 0 3\n0 0 0 0 0 0\n1 0 0 0 0 1\n0 1 1 1 1 1\n0 0\n".into()),
        ];
        for (puzzle, file) in [
            ("bloxorz", "tests/data/bloxorz_poj3322/BoxGame1_small.in"),
            ("sokoban", "tests/data/pushing_boxes_poj1475/pushing2.in"),
            ("sokoban", "tests/data/pushing_boxes_poj1475/pushing1.in"),
        ] {
            if let Ok(text) = std::fs::read_to_string(repo(file)) {
                judge.push((puzzle.into(), text));
            }
        }
        let (keywords, punct) = grammar_tokens();
        Corpus {
            rules,
            judge,
            keywords,
            punct,
        }
    }

    fn shipped(&self, name: &str) -> &str {
        &self
            .rules
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no rule file {name}"))
            .1
    }
}

/// The shipped puzzles whose level files the fuzzer makes: the seed mechanics and the
/// issue 9 corpus.
const SHIPPED: &[&str] = &[
    "bloxorz",
    "sokoban",
    "huarong",
    "curling",
    "sokoban-boxes",
    "bloxorz-switches",
    "holes",
    "icecave",
    "keys",
    "klotski",
    "lightsout",
    "npuzzle",
    "pegsolitaire",
    "robots",
    "rushhour",
    "tilt",
];

/// The input of `seed`.
pub fn case(corpus: &Corpus, seed: u64) -> Case {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut c = Case {
        seed,
        origin: "",
        rules: vec![],
        level: None,
        judge: None,
        flags: vec![],
        explore: rng.u8(0..6) == 0,
    };
    let rules: String;
    match rng.u8(0..100) {
        0..=24 => {
            c.origin = "mutated file";
            let (_, base) = &corpus.rules[rng.usize(0..corpus.rules.len())];
            rules = mutate_rules(&mut rng, base, corpus);
            if rng.bool() {
                c.level = Some(level_for(&mut rng, &rules));
            }
        }
        25..=37 => {
            c.origin = "generated";
            let (text, judge) = synth(&mut rng);
            rules = if rng.u8(0..3) == 0 {
                mutate_rules(&mut rng, &text, corpus)
            } else {
                text
            };
            if rng.bool() {
                c.level = Some(level_for(&mut rng, &rules));
            }
            if let Some(j) = judge {
                c.judge = Some(mutate_judge(&mut rng, &j, 0.3));
            }
        }
        38..=57 => {
            c.origin = "generated (issue 9)";
            let text = synth9(&mut rng);
            rules = if rng.u8(0..4) == 0 {
                mutate_rules(&mut rng, &text, corpus)
            } else {
                text
            };
            if rng.u8(0..3) == 0 {
                c.level = Some(level_for(&mut rng, &rules));
            }
        }
        58..=64 => {
            c.origin = "extreme";
            let (_, base) = &corpus.rules[rng.usize(0..corpus.rules.len())];
            rules = extreme(&mut rng, base);
        }
        65..=81 => {
            c.origin = "level file";
            let name = SHIPPED[rng.usize(0..SHIPPED.len())];
            rules = corpus.shipped(name).to_string();
            c.level = Some(level_for(&mut rng, &rules));
        }
        _ => {
            c.origin = "judge input";
            let (name, input) = &corpus.judge[rng.usize(0..corpus.judge.len())];
            rules = corpus.shipped(name).to_string();
            c.judge = Some(if rng.u8(0..4) == 0 {
                random_judge(&mut rng, &rules)
            } else {
                mutate_judge(&mut rng, input, 1.0)
            });
        }
    }
    c.rules = rules.into_bytes();
    if rng.u8(0..40) == 0 {
        // Bytes that are not UTF-8.
        let at = rng.usize(0..=c.rules.len());
        c.rules.splice(at..at, [0xff, 0xfe, 0xc3]);
    }
    if rng.bool() {
        let engine = ["auto", "interp", "fast"][rng.usize(0..3)];
        c.flags.extend(["--engine".into(), engine.into()]);
        if engine == "interp" {
            let search =
                ["auto", "bfs", "dijkstra", "astar", "iddfs", "bidir", "dfs"][rng.usize(0..7)];
            c.flags.extend(["--search".into(), search.into()]);
        }
    }
    if rng.u8(0..8) == 0 {
        c.flags.push("--max-memory".into());
        c.flags.push(rng.u8(1..64).to_string());
    }
    c
}

// ---------------------------------------------------------------------------------------
// Tokens and mutations
// ---------------------------------------------------------------------------------------

/// Splits rule text into tokens: text blocks, strings, character literals, comments, runs
/// of blanks, names, integers, `->` and single characters. Concatenating them gives the
/// text back.
pub fn tokens(text: &str) -> Vec<String> {
    let b: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let at = |k: usize| b.get(k).copied().unwrap_or('\0');
        if at(i) == '"' && at(i + 1) == '"' && at(i + 2) == '"' {
            i += 3;
            while i < b.len() && !(at(i) == '"' && at(i + 1) == '"' && at(i + 2) == '"') {
                i += 1;
            }
            i = (i + 3).min(b.len());
        } else if at(i) == '"' {
            i += 1;
            while i < b.len() && at(i) != '"' && at(i) != '\n' {
                i += if at(i) == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else if at(i) == '\'' && at(i + 2) == '\'' {
            i += 3;
        } else if at(i) == '/' && at(i + 1) == '/' {
            while i < b.len() && at(i) != '\n' {
                i += 1;
            }
        } else if at(i).is_whitespace() {
            while i < b.len() && at(i).is_whitespace() {
                i += 1;
            }
        } else if at(i).is_ascii_alphabetic() || at(i) == '_' {
            while i < b.len() && (at(i).is_ascii_alphanumeric() || at(i) == '_') {
                i += 1;
            }
        } else if at(i).is_ascii_digit() || (at(i) == '-' && at(i + 1).is_ascii_digit()) {
            i += 1;
            while i < b.len() && at(i).is_ascii_digit() {
                i += 1;
            }
        } else if at(i) == '-' && at(i + 1) == '>' {
            i += 2;
        } else {
            i += 1;
        }
        out.push(b[start..i.min(b.len())].iter().collect());
    }
    out
}

/// Fragments the grammar's tokens do not cover: quotes alone, escapes, templates,
/// operators and clauses of the issue 9 language.
const FRAGMENTS: &[&str] = &[
    "'",
    "\"",
    "\"\"\"",
    "'\\n'",
    "'\\''",
    "\"{cost}\"",
    "\"{path}\"",
    "\"{\"",
    "d",
    ".",
    "\"{case} {query} {moves}\"",
    // Issue 9: operators, steps, move headers, picture and expect clauses.
    "+=",
    "-=",
    "=",
    "==",
    "!=",
    "<=",
    ">=",
    "<",
    ">",
    "2d",
    "-d",
    "-2d",
    "(cell c)",
    "(d in w, e)",
    "\"\"\" goal \"\"\"",
    "expect none",
    "expect 0, 0",
];

/// The keywords (`kw_x = @{ "x" ~ word_end }`) and punctuation (`lbrace = { "{" }`) of
/// `grammar/puz.pest`, so the fuzzer follows the grammar as it grows.
fn grammar_tokens() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(repo("grammar/puz.pest")).expect("read grammar/puz.pest");
    let (mut keywords, mut punct) = (vec![], vec![]);
    for line in text.lines() {
        let Some((rule, body)) = line.split_once(" = ") else {
            continue;
        };
        let Some(lit) = body.split('"').nth(1) else {
            continue;
        };
        if rule.starts_with("kw_") {
            keywords.push(lit.to_string());
        } else if body.starts_with("{ \"") && body.ends_with("\" }") {
            punct.push(lit.to_string());
        }
    }
    assert!(
        keywords.len() > 20 && punct.len() > 5,
        "grammar tokens not found"
    );
    punct.extend(FRAGMENTS.iter().map(|f| f.to_string()));
    (keywords, punct)
}

/// Numbers at the edges of every integer type the implementation might use.
const EXTREMES: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "7",
    "10",
    "100",
    "127",
    "128",
    "255",
    "256",
    "32767",
    "32768",
    "65535",
    "65536",
    "65537",
    "1000000",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "000000000000000000000000000001",
];

/// Characters that tend to break column arithmetic and renderers.
const ODD: &[&str] = &[
    "\u{feff}",
    "\u{200b}",
    "\u{202e}",
    "\u{0301}",
    "e\u{0301}",
    "\u{1f600}",
    "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
    "\u{3000}",
    "\u{00a0}",
    "\u{2028}",
    "\u{85}",
    "\r",
    "\t",
    "\u{0}",
    "\u{7f}",
    "\u{ff11}",
    "\u{fffd}",
    "\u{10ffff}",
    "界",
    "\u{0647}\u{0644}",
];

fn pick<'a>(rng: &mut fastrand::Rng, from: &[&'a str]) -> &'a str {
    from[rng.usize(0..from.len())]
}

fn pick_s(rng: &mut fastrand::Rng, from: &[String]) -> String {
    from[rng.usize(0..from.len())].clone()
}

/// The indices of tokens that are not blanks.
fn solid(toks: &[String]) -> Vec<usize> {
    (0..toks.len())
        .filter(|&i| !toks[i].trim().is_empty())
        .collect()
}

/// One to four token-level mutations, or a declaration spliced from another file.
pub fn mutate_rules(rng: &mut fastrand::Rng, text: &str, corpus: &Corpus) -> String {
    let mut toks = tokens(text);
    for _ in 0..rng.usize(1..=4) {
        let idx = solid(&toks);
        if idx.is_empty() {
            toks.push(pick_s(rng, &corpus.keywords));
            continue;
        }
        let i = idx[rng.usize(0..idx.len())];
        match rng.u8(0..12) {
            0 => {
                let n = rng.usize(1..=3).min(toks.len() - i);
                toks.drain(i..i + n);
            }
            1 => {
                let t = toks[i].clone();
                toks.insert(i, t);
            }
            2 => {
                let j = idx[rng.usize(0..idx.len())];
                toks.swap(i, j);
            }
            3 => toks[i] = pick_s(rng, &corpus.keywords),
            4 => toks[i] = pick_s(rng, &corpus.punct),
            5 => {
                // An extreme number where a number was, or anywhere.
                let nums: Vec<usize> = idx
                    .iter()
                    .copied()
                    .filter(|&k| {
                        toks[k]
                            .trim_start_matches('-')
                            .starts_with(|c: char| c.is_ascii_digit())
                    })
                    .collect();
                let k = if nums.is_empty() {
                    i
                } else {
                    nums[rng.usize(0..nums.len())]
                };
                toks[k] = pick(rng, EXTREMES).to_string();
            }
            6 => {
                let odd = pick(rng, ODD);
                toks.insert(i, odd.to_string());
            }
            7 => {
                // A name of the file where another name was.
                let names: Vec<String> = idx
                    .iter()
                    .filter(|&&k| toks[k].starts_with(|c: char| c.is_ascii_alphabetic()))
                    .map(|&k| toks[k].clone())
                    .collect();
                if !names.is_empty() {
                    toks[i] = names[rng.usize(0..names.len())].clone();
                }
            }
            8 => {
                // A declaration of another file.
                let (_, other) = &corpus.rules[rng.usize(0..corpus.rules.len())];
                let decl = declaration(rng, other, &corpus.keywords);
                toks.insert(i, format!("\n{decl}\n"));
            }
            9 => {
                // A text block or string with other content.
                let blocks: Vec<usize> = idx
                    .iter()
                    .copied()
                    .filter(|&k| toks[k].starts_with('"'))
                    .collect();
                if let Some(&k) = blocks.get(rng.usize(0..blocks.len().max(1))) {
                    toks[k] = mutate_block(rng, &toks[k]);
                }
            }
            10 => {
                // Repeat one declaration (keeps every name, so mostly duplicates).
                let decl = declaration(rng, text, &corpus.keywords);
                let n = rng.usize(2..=40);
                toks.insert(i, format!("\n{}", decl.repeat(n)));
            }
            _ => {
                let j = rng.usize(i..toks.len().min(i + 8));
                toks.drain(i..=j);
            }
        }
    }
    toks.concat()
}

/// A whole top-level declaration of `text` (from a line starting with a keyword to the
/// next such line).
fn declaration(rng: &mut fastrand::Rng, text: &str, keywords: &[String]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let w = lines[i].split_whitespace().next().unwrap_or("");
            !lines[i].starts_with(' ') && keywords.iter().any(|k| k == w)
        })
        .collect();
    if starts.is_empty() {
        return String::new();
    }
    let k = rng.usize(0..starts.len());
    let end = starts.get(k + 1).copied().unwrap_or(lines.len());
    let mut s = lines[starts[k]..end].join("\n");
    s.push('\n');
    s
}

/// A string or text block with its content changed.
fn mutate_block(rng: &mut fastrand::Rng, tok: &str) -> String {
    let (q, inner) = if let Some(x) = tok.strip_prefix("\"\"\"") {
        ("\"\"\"", x.strip_suffix("\"\"\"").unwrap_or(x))
    } else {
        ("\"", tok.trim_start_matches('"').trim_end_matches('"'))
    };
    let new = match rng.u8(0..7) {
        0 => String::new(),
        1 => inner.repeat(rng.usize(2..50)),
        2 => {
            let line = inner.lines().find(|l| !l.trim().is_empty()).unwrap_or("x");
            format!("{inner}\n{}", line.repeat(rng.usize(100..3000)))
        }
        3 => inner.replacen(|c: char| !c.is_whitespace(), pick(rng, ODD), 1),
        4 => {
            let mut lines: Vec<&str> = inner.lines().collect();
            if lines.len() > 2 {
                let a = rng.usize(1..lines.len());
                lines.remove(a);
            }
            lines.join("\n")
        }
        5 => format!("{inner}{}", "{path}{".repeat(rng.usize(1..4))),
        _ => inner.replace(' ', "\t"),
    };
    format!("{q}{new}{q}")
}

/// A rule file pushed to an extreme: a very long line, deep nesting, thousands of
/// declarations or entries, huge levels, or odd Unicode everywhere.
pub fn extreme(rng: &mut fastrand::Rng, base: &str) -> String {
    let n = [100, 1_000, 5_000, 20_000, 70_000][rng.usize(0..5)];
    match rng.u8(0..9) {
        0 => format!("{base}\n{}", "{".repeat(n)),
        1 => format!("{base}\nlevel \"x\" \"\"\"\n{}\n\"\"\"\n", "(".repeat(n)),
        2 => {
            let mut s = String::from(base);
            s.push_str("\ntiles {");
            for i in 0..n.min(20_000) {
                let _ = write!(s, " t{i}");
            }
            s.push_str(" }\n");
            s
        }
        3 => {
            let mut s = String::from(base);
            s.push_str("\ndirs {");
            for i in 0..n.min(20_000) {
                let _ = write!(s, " d{i} ({}, {})", rng.i32(-3..=3), rng.i32(-3..=3));
            }
            s.push_str(" }\n");
            s
        }
        4 => {
            // One line far past 65,536 columns, with a mistake at its end.
            format!(
                "{base}\n// {}\ntiles {{ {} oops\n",
                "x".repeat(n),
                "a ".repeat(n / 2)
            )
        }
        5 => {
            let mut s = String::from(base);
            for i in 0..n.min(5_000) {
                let _ = writeln!(s, "forbid p{i} on t{i}");
            }
            s
        }
        6 => {
            let mut s = base.to_string();
            for _ in 0..rng.usize(5..40) {
                let at = s
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(rng.usize(0..s.chars().count().max(1)))
                    .unwrap_or(0);
                s.insert_str(at, pick(rng, ODD));
            }
            s
        }
        7 => {
            let row = ".".repeat(n.min(5_000));
            let mut s = format!("{base}\nlevel \"big\" \"\"\"\n");
            for _ in 0..rng.usize(1..200) {
                s.push_str(&row);
                s.push('\n');
            }
            s.push_str("\"\"\"\n");
            s
        }
        _ => {
            let mut s = String::from(base);
            s.push_str("\nlegend {\n");
            for i in 0..n.min(20_000) {
                let _ = writeln!(s, "  {i} t{}", i % 7);
            }
            s.push_str("}\n");
            s
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rule files from the grammar
// ---------------------------------------------------------------------------------------

const COMPASS: [(&str, i32, i32); 4] = [("n", -1, 0), ("s", 1, 0), ("w", 0, -1), ("e", 0, 1)];
const SYMBOLS: &[char] = &[
    '.', '#', 'a', 'b', 'c', 'x', 'X', 'O', 'S', 'B', 'T', '*', '+', '@', '$', '~', '1', 'é', '界',
];

/// A rule file built from the grammar's declarations, mostly valid and small enough to
/// solve; with a judge input when it declares a judge format.
pub fn synth(rng: &mut fastrand::Rng) -> (String, Option<String>) {
    let mut s = String::from("puzzle \"fuzz\"\n");
    let ntiles = rng.usize(1..=4);
    let tiles: Vec<String> = (0..ntiles).map(|i| format!("t{i}")).collect();
    let breaking = ntiles > 1 && rng.u8(0..3) == 0;
    s.push_str("tiles {");
    for (i, t) in tiles.iter().enumerate() {
        let _ = write!(s, " {t}");
        if breaking && i == 1 {
            s.push_str(" -> t0");
        }
    }
    s.push_str(" }\n");
    if rng.bool() {
        let _ = writeln!(s, "outside {}", tiles[tiles.len() - 1]);
    }
    let marks: Vec<String> = (0..rng.usize(0..=2)).map(|i| format!("m{i}")).collect();
    if !marks.is_empty() {
        s.push_str("marks {");
        for m in &marks {
            let _ = write!(s, " {m}{}", if rng.bool() { " single" } else { "" });
        }
        s.push_str(" }\n");
    }
    // Pieces, some with poses.
    let npieces = rng.usize(1..=3);
    let mut pieces: Vec<(String, Vec<String>)> = vec![];
    for i in 0..npieces {
        let name = format!("p{i}");
        let anon = rng.u8(0..4) == 0;
        let mut poses = vec![];
        let _ = write!(s, "piece {name}{}", if anon { " anonymous" } else { "" });
        if rng.u8(0..4) == 0 {
            s.push_str(" {\n");
            for k in 0..rng.usize(1..=3) {
                let pose = format!("q{k}");
                let _ = write!(s, "  pose {pose} {{");
                for _ in 0..rng.usize(1..=3) {
                    let _ = write!(s, " ({}, {})", rng.i32(-1..=2), rng.i32(-1..=2));
                }
                s.push_str(" }\n");
                poses.push(pose);
            }
            s.push('}');
        }
        s.push('\n');
        pieces.push((name, poses));
    }
    // Legend: every tile alone, then tile + piece and tile + mark entries.
    let ints = rng.u8(0..4) == 0;
    let mut keys: Vec<String> = vec![];
    let mut entries: Vec<(String, Vec<String>)> = vec![];
    let mut syms: Vec<char> = SYMBOLS.to_vec();
    rng.shuffle(&mut syms);
    let next_key = |k: usize| -> String {
        if ints {
            k.to_string()
        } else {
            syms.get(k)
                .map_or(format!("'{}'", k % 10), |c| format!("'{c}'"))
        }
    };
    for t in &tiles {
        let k = next_key(entries.len());
        entries.push((k, vec![t.clone()]));
    }
    for (p, _) in &pieces {
        let k = next_key(entries.len());
        entries.push((k, vec![tiles[0].clone(), p.clone()]));
    }
    for m in &marks {
        let k = next_key(entries.len());
        entries.push((k, vec![tiles[0].clone(), m.clone()]));
    }
    if rng.u8(0..3) == 0 && !marks.is_empty() {
        let k = next_key(entries.len());
        entries.push((
            k,
            vec![tiles[0].clone(), pieces[0].0.clone(), marks[0].clone()],
        ));
    }
    s.push_str("legend {\n");
    for (k, what) in &entries {
        let _ = writeln!(s, "  {k} {}", what.join(" + "));
        keys.push(k.trim_matches('\'').to_string());
    }
    s.push_str("}\n");
    // Directions.
    let dirs: Vec<(String, i32, i32)> = match rng.u8(0..6) {
        0 => (0..rng.usize(1..=6))
            .map(|i| (format!("d{i}"), rng.i32(-2..=2), rng.i32(-2..=2)))
            .collect(),
        1 => {
            let mut v: Vec<(String, i32, i32)> = COMPASS
                .iter()
                .map(|&(n, r, c)| (n.to_string(), r, c))
                .collect();
            v.extend([("ne".to_string(), -1, 1), ("sw".to_string(), 1, -1)]);
            v
        }
        _ => COMPASS
            .iter()
            .map(|&(n, r, c)| (n.to_string(), r, c))
            .collect(),
    };
    s.push_str("dirs {");
    for (n, r, c) in &dirs {
        let _ = write!(s, " {n} ({r}, {c})");
    }
    s.push_str(" }\n");
    let costs: Vec<&str> = if rng.u8(0..3) == 0 {
        vec!["c0", "c1"]
    } else {
        vec!["c0"]
    };
    if rng.u8(0..6) != 0 {
        let _ = writeln!(s, "cost {}", costs.join(", "));
    }
    if rng.u8(0..4) == 0 {
        let _ = writeln!(s, "limit {}", [0, 1, 3, 10, 30, 1000][rng.usize(0..6)]);
    }
    // Moves.
    let things: Vec<String> = tiles
        .iter()
        .chain(marks.iter())
        .chain(pieces.iter().map(|p| &p.0))
        .cloned()
        .collect();
    for m in 0..rng.usize(1..=2) {
        let _ = writeln!(s, "move mv{m}(d) {{");
        let letters: String = (0..dirs.len())
            .map(|i| (b'a' + ((i + m * 7) % 26) as u8) as char)
            .collect();
        if rng.u8(0..5) != 0 {
            let _ = writeln!(s, "  letters \"{letters}\"");
        }
        let _ = writeln!(s, "  adds {}", costs[rng.usize(0..costs.len())]);
        for _ in 0..rng.usize(1..=4) {
            let (p, poses) = &pieces[rng.usize(0..pieces.len())];
            let q = &pieces[rng.usize(0..pieces.len())].0;
            let x = &things[rng.usize(0..things.len())];
            let sign = if rng.bool() { "+" } else { "-" };
            match rng.u8(0..7) {
                0 | 1 => {
                    let _ = writeln!(
                        s,
                        "  shift {p} {}d",
                        if rng.u8(0..4) == 0 { "-" } else { "" }
                    );
                }
                2 => {
                    let _ = writeln!(s, "  swap {p} d");
                }
                3 => {
                    let _ = writeln!(s, "  require {x} at {q} {sign} d");
                }
                4 => {
                    let _ = writeln!(
                        s,
                        "  forbid {x} at {q}{}",
                        if rng.bool() { " + d" } else { "" }
                    );
                }
                5 => {
                    let t = &tiles[rng.usize(0..tiles.len())];
                    let into = if marks.is_empty() || rng.bool() {
                        t
                    } else {
                        &marks[0]
                    };
                    let _ = writeln!(s, "  slide {p} d {{");
                    let _ = writeln!(s, "    into {into}: stop");
                    let _ = writeln!(
                        s,
                        "    before {x}: stop{}",
                        if rng.bool() { ", break" } else { "" }
                    );
                    let _ = writeln!(s, "    off board: {}", ["lose", "stop"][rng.usize(0..2)]);
                    s.push_str("  }\n");
                }
                _ if !poses.is_empty() => {
                    let _ = writeln!(s, "  turn {p} {{");
                    for from in poses {
                        for (d, _, _) in &dirs {
                            if rng.bool() {
                                let to = &poses[rng.usize(0..poses.len())];
                                let _ = writeln!(
                                    s,
                                    "    {from} {d} -> {to} ({}, {})",
                                    rng.i32(-2..=2),
                                    rng.i32(-2..=2)
                                );
                            }
                        }
                    }
                    s.push_str("  }\n");
                }
                _ => {
                    let _ = writeln!(s, "  shift {p} d");
                }
            }
        }
        s.push_str("}\n");
    }
    for _ in 0..rng.usize(0..=2) {
        let (p, poses) = &pieces[rng.usize(0..pieces.len())];
        let pose = if !poses.is_empty() && rng.bool() {
            format!(".{}", poses[0])
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "forbid {p}{pose} on {}",
            tiles[rng.usize(0..tiles.len())]
        );
    }
    let goal_on = if !marks.is_empty() && rng.u8(0..3) != 0 {
        marks[rng.usize(0..marks.len())].clone()
    } else {
        tiles[rng.usize(0..tiles.len())].clone()
    };
    let _ = writeln!(
        s,
        "goal {} on {goal_on}",
        pieces[rng.usize(0..pieces.len())].0
    );
    // Levels.
    let piece_keys: Vec<&str> = keys[ntiles..ntiles + npieces]
        .iter()
        .map(String::as_str)
        .collect();
    let tile_keys: Vec<&str> = keys[..ntiles].iter().map(String::as_str).collect();
    let extra_keys: Vec<&str> = keys[ntiles + npieces..]
        .iter()
        .map(String::as_str)
        .collect();
    let sep = if ints { " " } else { "" };
    for l in 0..rng.usize(1..=2) {
        let grid = grid_of(rng, &tile_keys, &piece_keys, &extra_keys, sep);
        let _ = writeln!(s, "level \"l{l}\" \"\"\"\n{grid}\"\"\"");
    }
    // A judge format, sometimes, and an input for it.
    let mut judge = None;
    if rng.u8(0..3) == 0 {
        let until = rng.bool();
        let _ = writeln!(
            s,
            "judge {{\n  {}\n  header rows, cols\n  grid {}\n  print solved \"{}\"\n  print unsolved \"-1\"\n}}",
            if until { "cases until 0 0" } else { "cases once" },
            if ints { "ints" } else { "chars" },
            ["{cost}", "{path}", "{case}: {cost} {moves}", "{cost} {path}"][rng.usize(0..4)]
        );
        let mut input = String::new();
        for _ in 0..if until { rng.usize(1..=3) } else { 1 } {
            let grid = grid_of(rng, &tile_keys, &piece_keys, &extra_keys, sep);
            let rows = grid.lines().count();
            let first = grid.lines().next().unwrap_or("");
            let cols = if ints {
                first.split_whitespace().count()
            } else {
                first.chars().count()
            };
            let _ = write!(input, "{rows} {cols}\n{grid}");
        }
        if until {
            input.push_str("0 0\n");
        }
        judge = Some(input);
    }
    (s, judge)
}

// ---------------------------------------------------------------------------------------
// Rule files in the issue 9 language
// ---------------------------------------------------------------------------------------

/// A piece kind of a generated file: its name, whether it is anonymous, its `max` and its
/// poses (name and offsets; none for a one-cell piece without a pose block).
#[derive(Clone, Debug)]
struct Kind {
    name: String,
    anon: bool,
    max: Option<i64>,
    poses: Vec<(String, Vec<(i64, i64)>)>,
}

impl Kind {
    /// The footprint levels place: the first pose's offsets, or the anchor alone.
    fn footprint(&self) -> Vec<(i64, i64)> {
        self.poses
            .first()
            .map_or(vec![(0, 0)], |(_, cells)| cells.clone())
    }
}

/// Connected footprints for generated poses: every one holds its anchor `(0, 0)`.
const SHAPES: &[&[(i64, i64)]] = &[
    &[(0, 0)],
    &[(0, 0), (0, 1)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (0, 1), (1, 0)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 0), (0, 1), (0, 2)],
    &[(0, 0), (0, 1), (1, 0), (1, 1)],
];

/// The names a generated file declares, which statements, conditions and goals use.
struct Decls {
    tiles: Vec<String>,
    marks: Vec<String>,
    /// Counters: name and `max`.
    counters: Vec<(String, i64)>,
    /// A tile that breaks into another (`tiles { .. hole -> floor }`), if any.
    breaking: Option<String>,
    kinds: Vec<Kind>,
    dirs: Vec<String>,
}

/// Where a statement or condition is generated: which move variables exist.
#[derive(Clone, Default)]
struct Scope {
    /// The move has a direction parameter `d`.
    dir: bool,
    /// Cell names: the cell parameter and enclosing `for` variables.
    cells: Vec<String>,
    /// Aliases bound by `as` so far.
    aliases: Vec<String>,
    /// Nesting depth of `if` and `for`.
    depth: u8,
}

/// A generator of issue 9 rule files (see [`synth9`]).
struct Gen9<'r> {
    rng: &'r mut fastrand::Rng,
    d: Decls,
    /// Aliases and loop variables made so far (fresh names).
    fresh: usize,
}

/// The comparison operators of `count(..)` and counter conditions.
const OPS: &[&str] = &["==", "!=", "<", "<=", ">", ">="];

impl Gen9<'_> {
    fn one<'a>(&mut self, v: &'a [String]) -> &'a str {
        &v[self.rng.usize(0..v.len())]
    }

    fn chance(&mut self, n: u8) -> bool {
        self.rng.u8(0..n) == 0
    }

    /// A step: the direction (maybe reversed or repeated) or a named direction.
    fn step(&mut self, s: &Scope) -> String {
        let base = if s.dir && self.rng.u8(0..3) != 0 {
            "d".to_string()
        } else {
            let d = self.d.dirs.clone();
            self.one(&d).to_string()
        };
        let times = match self.rng.u8(0..8) {
            0 => "2",
            1 if self.chance(4) => "3",
            _ => "",
        };
        let minus = if self.chance(4) { "-" } else { "" };
        format!("{minus}{times}{base}")
    }

    /// A piece reference a statement acts on: a kind (named, or any one copy), an alias.
    fn piece(&mut self, s: &Scope) -> String {
        if !s.aliases.is_empty() && self.chance(3) {
            return self.one(&s.aliases).to_string();
        }
        let k = self.rng.usize(0..self.d.kinds.len());
        self.d.kinds[k].name.clone()
    }

    /// A piece a `remove` may take off: an alias or an anonymous kind when there is one
    /// (the goal may need every named piece), else any piece.
    fn removable(&mut self, s: &Scope) -> String {
        if !s.aliases.is_empty() && self.chance(2) {
            return self.one(&s.aliases).to_string();
        }
        let anon: Vec<String> = self
            .d
            .kinds
            .iter()
            .filter(|k| k.anon)
            .map(|k| k.name.clone())
            .collect();
        if anon.is_empty() || self.chance(10) {
            self.piece(s)
        } else {
            self.one(&anon).to_string()
        }
    }

    /// A statement with an effect (a move must change something): a shift, a create or
    /// remove, a tile change, a counter update.
    fn effect(&mut self, s: &Scope, out: &mut String, pad: &str) {
        match self.rng.u8(0..6) {
            0 if !self.d.counters.is_empty() => {
                let (c, max) = self.d.counters[self.rng.usize(0..self.d.counters.len())].clone();
                let op = ["+=", "+=", "-="][self.rng.usize(0..3)];
                let _ = writeln!(out, "{pad}{c} {op} {}", self.rng.i64(1..=max.max(1)));
            }
            1 if self.d.tiles.len() > 1 => {
                let (a, b) = self.two_tiles();
                let cell = self.cell(s);
                let _ = writeln!(out, "{pad}toggle {a} {b} at {cell}");
            }
            _ => {
                let p = self.piece(s);
                let st = self.step(s);
                let _ = writeln!(out, "{pad}shift {p} {st}");
            }
        }
    }

    /// Two different tiles (the file declares at least two).
    fn two_tiles(&mut self) -> (String, String) {
        let n = self.d.tiles.len();
        let a = self.rng.usize(0..n);
        let b = (a + self.rng.usize(1..n)) % n;
        (self.d.tiles[a].clone(), self.d.tiles[b].clone())
    }

    /// A cell: a piece's anchor, an alias, a cell variable or an absolute cell, with
    /// `+ STEP` and `- STEP` terms.
    fn cell(&mut self, s: &Scope) -> String {
        let mut out = match self.rng.u8(0..10) {
            0..=4 if !s.cells.is_empty() => self.one(&s.cells).to_string(),
            5 => format!("({}, {})", self.rng.i64(-3..=4), self.rng.i64(-3..=5)),
            _ => self.piece(s),
        };
        for _ in 0..self.rng.usize(0..=2) {
            let sign = if self.chance(3) { "-" } else { "+" };
            let st = self.step(s);
            out = format!("{out} {sign} {st}");
        }
        out
    }

    /// A tile or a mark.
    fn place(&mut self) -> String {
        if !self.d.marks.is_empty() && self.chance(3) {
            let m = self.d.marks.clone();
            self.one(&m).to_string()
        } else {
            let t = self.d.tiles.clone();
            self.one(&t).to_string()
        }
    }

    /// A piece kind, a tile or a mark.
    fn thing(&mut self) -> String {
        if self.chance(2) {
            let k = self.rng.usize(0..self.d.kinds.len());
            self.d.kinds[k].name.clone()
        } else {
            self.place()
        }
    }

    /// A condition of at most `depth` levels of `not`/`and`/`or`. `bind` says whether an
    /// `as` may bind a copy here (a plain `require` or `if`, outside `not` and `or`); the
    /// names bound are pushed on `bound`.
    fn cond(&mut self, s: &Scope, depth: u8, bind: bool, bound: &mut Vec<String>) -> String {
        if depth > 0 {
            match self.rng.u8(0..8) {
                0 => {
                    let c = self.cond(s, depth - 1, false, bound);
                    return format!("not {c}");
                }
                1 | 2 => {
                    let a = self.cond(s, depth - 1, bind, bound);
                    let b = self.cond(s, depth - 1, bind, bound);
                    return format!("{a} and {b}");
                }
                3 => {
                    let a = self.cond(s, depth - 1, false, bound);
                    let b = self.cond(s, depth - 1, false, bound);
                    return format!("({a} or {b})");
                }
                _ => {}
            }
        }
        match self.rng.u8(0..9) {
            0..=3 => {
                let x = self.thing();
                let cell = self.cell(s);
                let kind = self.d.kinds.iter().any(|k| k.name == x);
                if bind && kind && self.chance(3) {
                    self.fresh += 1;
                    let name = format!("a{}", self.fresh);
                    bound.push(name.clone());
                    format!("{x} at {cell} as {name}")
                } else {
                    format!("{x} at {cell}")
                }
            }
            4 | 5 => {
                let k = self.rng.usize(0..self.d.kinds.len());
                let kind = self.d.kinds[k].clone();
                let p = if !s.aliases.is_empty() && self.chance(4) {
                    self.one(&s.aliases).to_string()
                } else {
                    kind.name.clone()
                };
                let pose = if !kind.poses.is_empty() && self.chance(2) {
                    format!(".{}", kind.poses[self.rng.usize(0..kind.poses.len())].0)
                } else {
                    String::new()
                };
                let t = self.place();
                format!("{p}{pose} on {t}")
            }
            6 | 7 => {
                let x = self.thing();
                let op = OPS[self.rng.usize(0..OPS.len())];
                format!("count({x}) {op} {}", self.rng.i64(0..=4))
            }
            _ if !self.d.counters.is_empty() => {
                let (c, max) = self.d.counters[self.rng.usize(0..self.d.counters.len())].clone();
                let op = OPS[self.rng.usize(0..OPS.len())];
                format!("{c} {op} {}", self.rng.i64(0..=max + 1))
            }
            _ => {
                let x = self.thing();
                format!("count({x}) > 0")
            }
        }
    }

    /// A goal condition of the kinds puzzles use, more often within reach than a random
    /// one: a piece on a mark or tile, a count, a counter value, a piece at a cell.
    fn goal_part(&mut self) -> String {
        let k = self.rng.usize(0..self.d.kinds.len());
        let p = self.d.kinds[k].name.clone();
        match self.rng.u8(0..4) {
            0 if !self.d.counters.is_empty() => {
                let (c, max) = self.d.counters[self.rng.usize(0..self.d.counters.len())].clone();
                format!("{c} == {}", self.rng.i64(1..=max))
            }
            1 => {
                let op = ["==", "<=", ">="][self.rng.usize(0..3)];
                format!("count({p}) {op} {}", self.rng.usize(0..=2))
            }
            2 => format!(
                "{p} at ({}, {})",
                self.rng.i64(-1..=1),
                self.rng.i64(-1..=1)
            ),
            _ => {
                let t = self.place();
                format!("{p} on {t}")
            }
        }
    }

    /// Slide rules: stops before things, into tiles, at the edge.
    fn slide_rules(&mut self, out: &mut String, pad: &str) {
        for _ in 0..self.rng.usize(1..=3) {
            match self.rng.u8(0..4) {
                0 => {
                    let t = self.place();
                    let _ = writeln!(out, "{pad}  into {t}: stop");
                }
                1 => {
                    let a = ["stop", "lose"][self.rng.usize(0..2)];
                    let _ = writeln!(out, "{pad}  off board: {a}");
                }
                _ => match self.d.breaking.clone() {
                    Some(b) if self.chance(3) => {
                        let _ = writeln!(out, "{pad}  before {b}: stop, break");
                    }
                    _ => {
                        let x = if self.chance(2) {
                            let k = self.rng.usize(0..self.d.kinds.len());
                            self.d.kinds[k].name.clone()
                        } else {
                            let t = self.d.tiles.clone();
                            self.one(&t).to_string()
                        };
                        let _ = writeln!(out, "{pad}  before {x}: stop");
                    }
                },
            }
        }
    }

    /// `n` statements of a move body, indented by `pad`.
    fn stmts(&mut self, s: &mut Scope, n: usize, out: &mut String, pad: &str) {
        for _ in 0..n {
            self.stmt(s, out, pad);
        }
    }

    /// One statement of a move body.
    fn stmt(&mut self, s: &mut Scope, out: &mut String, pad: &str) {
        let nest = s.depth < 2;
        match self.rng.u8(0..22) {
            0..=2 => {
                let mut bound = vec![];
                let c = self.cond(s, 1, true, &mut bound);
                let _ = writeln!(out, "{pad}require {c}");
                s.aliases.extend(bound);
            }
            3 => {
                let c = self.cond(s, 1, false, &mut vec![]);
                let _ = writeln!(out, "{pad}forbid {c}");
            }
            4..=5 => {
                let p = self.piece(s);
                let st = self.step(s);
                let _ = writeln!(out, "{pad}shift {p} {st}");
            }
            6 => {
                let k = self.rng.usize(0..self.d.kinds.len());
                let name = self.d.kinds[k].name.clone();
                let st = self.step(s);
                if self.chance(2) {
                    let _ = writeln!(out, "{pad}shift each {name} {st}");
                } else {
                    let _ = writeln!(out, "{pad}slide each {name} {st} {{");
                    self.slide_rules(out, pad);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            7 => {
                let p = self.piece(s);
                let st = self.step(s);
                let _ = writeln!(out, "{pad}slide {p} {st} {{");
                self.slide_rules(out, pad);
                let _ = writeln!(out, "{pad}}}");
            }
            8 => {
                let p = self.piece(s);
                let st = self.step(s);
                let _ = writeln!(out, "{pad}swap {p} {st}");
            }
            9 => {
                let p = self.removable(s);
                let _ = writeln!(out, "{pad}remove {p}");
            }
            10 | 11 => {
                let creatable: Vec<Kind> = self
                    .d
                    .kinds
                    .iter()
                    .filter(|k| k.max.is_some())
                    .cloned()
                    .collect();
                if creatable.is_empty() {
                    return self.effect(s, out, pad);
                }
                let k = if self.chance(12) {
                    self.d.kinds[self.rng.usize(0..self.d.kinds.len())].clone()
                } else {
                    creatable[self.rng.usize(0..creatable.len())].clone()
                };
                let pose = if !k.poses.is_empty() && self.chance(2) {
                    format!(".{}", k.poses[self.rng.usize(0..k.poses.len())].0)
                } else {
                    String::new()
                };
                let cell = self.cell(s);
                let _ = writeln!(out, "{pad}create {}{pose} at {cell}", k.name);
            }
            12 | 13 if self.d.tiles.len() > 1 => {
                let (a, b) = self.two_tiles();
                let w = match self.rng.u8(0..4) {
                    0 => "everywhere".to_string(),
                    1 if !self.d.marks.is_empty() => {
                        let m = self.d.marks.clone();
                        format!("on {}", self.one(&m))
                    }
                    _ => format!("at {}", self.cell(s)),
                };
                if self.chance(2) {
                    let _ = writeln!(out, "{pad}change {a} -> {b} {w}");
                } else {
                    let _ = writeln!(out, "{pad}toggle {a} {b} {w}");
                }
            }
            14 | 15 if !self.d.counters.is_empty() => {
                let (c, max) = self.d.counters[self.rng.usize(0..self.d.counters.len())].clone();
                let op = ["+=", "+=", "+=", "-=", "="][self.rng.usize(0..5)];
                let _ = writeln!(out, "{pad}{c} {op} {}", self.rng.i64(0..=max.max(1)));
            }
            16 | 17 if nest => {
                let mut bound = vec![];
                let c = self.cond(s, 1, true, &mut bound);
                let _ = writeln!(out, "{pad}if {c} {{");
                let mut inner = s.clone();
                inner.depth += 1;
                inner.aliases.extend(bound);
                let inner_pad = format!("{pad}  ");
                let n = self.rng.usize(1..=3);
                self.stmts(&mut inner, n, out, &inner_pad);
                let mut close = format!("{pad}}}");
                while self.chance(2) {
                    let mut other = s.clone();
                    other.depth += 1;
                    if self.chance(2) {
                        let c = self.cond(s, 1, false, &mut vec![]);
                        let _ = writeln!(out, "{close} else if {c} {{");
                    } else {
                        let _ = writeln!(out, "{close} else {{");
                        let n = self.rng.usize(1..=2);
                        self.stmts(&mut other, n, out, &inner_pad);
                        close = format!("{pad}}}");
                        break;
                    }
                    let n = self.rng.usize(1..=2);
                    self.stmts(&mut other, n, out, &inner_pad);
                    close = format!("{pad}}}");
                }
                let _ = writeln!(out, "{close}");
            }
            18 if nest => {
                self.fresh += 1;
                let var = format!("x{}", self.fresh);
                let p = self.piece(s);
                let _ = writeln!(out, "{pad}for {var} in {p} {{");
                let mut inner = s.clone();
                inner.depth += 1;
                inner.cells.push(var);
                let n = self.rng.usize(1..=2);
                self.stmts(&mut inner, n, out, &format!("{pad}  "));
                let _ = writeln!(out, "{pad}}}");
            }
            19 => {
                let with_poses: Vec<Kind> = self
                    .d
                    .kinds
                    .iter()
                    .filter(|k| k.poses.len() > 1)
                    .cloned()
                    .collect();
                if with_poses.is_empty() {
                    let p = self.piece(s);
                    let st = self.step(s);
                    let _ = writeln!(out, "{pad}shift {p} {st}");
                    return;
                }
                let k = with_poses[self.rng.usize(0..with_poses.len())].clone();
                let _ = writeln!(out, "{pad}turn {} {{", k.name);
                for (from, _) in &k.poses {
                    for dname in &self.d.dirs.clone() {
                        if self.chance(2) {
                            let to = &k.poses[self.rng.usize(0..k.poses.len())].0;
                            let _ = writeln!(
                                out,
                                "{pad}  {from} {dname} -> {to} ({}, {})",
                                self.rng.i64(-2..=2),
                                self.rng.i64(-2..=2)
                            );
                        }
                    }
                }
                let _ = writeln!(out, "{pad}}}");
            }
            _ => {
                let p = self.piece(s);
                let st = self.step(s);
                let _ = writeln!(out, "{pad}shift {p} {st}");
            }
        }
    }

    /// A level grid of `rows` x `cols` in the legend's symbols: tiles, then copies of the
    /// kinds placed by their footprints (a second symbol of the same meaning for copies
    /// of anonymous kinds that have one), then marks.
    fn grid(
        &mut self,
        rows: usize,
        cols: usize,
        legend: &Legend9,
        picture: bool,
    ) -> Vec<Vec<char>> {
        let mut g: Vec<Vec<char>> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| {
                        let k = if self.chance(6) {
                            self.rng.usize(0..legend.tiles.len())
                        } else {
                            0
                        };
                        legend.tiles[k]
                    })
                    .collect()
            })
            .collect();
        let mut taken = vec![vec![false; cols]; rows];
        for (k, kind) in self.d.kinds.clone().iter().enumerate() {
            let cells = kind.footprint();
            let copies = if kind.anon {
                // Adjacent copies alternate two symbols; a third could meet the first.
                let most = if cells.len() > 1 { 2 } else { 3 };
                if self.chance(8) {
                    0
                } else {
                    self.rng.usize(1..=most)
                }
            } else {
                1
            };
            // A few tries for each copy: one that does not fit after them is left out. A
            // copy may be drawn with a symbol that chooses its start pose (never in a
            // goal picture, which compares kinds only).
            for copy in 0..copies {
                let posed = &legend.posed[k];
                let choice = (!posed.is_empty() && !picture && self.chance(3))
                    .then(|| posed[self.rng.usize(0..posed.len())]);
                let cells = match choice {
                    Some((_, pose)) => kind.poses[pose].1.clone(),
                    None => cells.clone(),
                };
                for _ in 0..20 {
                    let (r, c) = (self.rng.i64(0..rows as i64), self.rng.i64(0..cols as i64));
                    let at: Vec<(usize, usize)> = cells
                        .iter()
                        .map(|&(dr, dc)| (r + dr, c + dc))
                        .filter(|&(r, c)| r >= 0 && c >= 0 && r < rows as i64 && c < cols as i64)
                        .map(|(r, c)| (r as usize, c as usize))
                        .collect();
                    if at.len() < cells.len() || at.iter().any(|&(r, c)| taken[r][c]) {
                        continue;
                    }
                    let syms = &legend.kinds[k];
                    let sym = choice.map_or(syms[copy % syms.len()], |(sym, _)| sym);
                    for (r, c) in at {
                        taken[r][c] = true;
                        g[r][c] = sym;
                    }
                    break;
                }
            }
        }
        for (&m, &single) in legend.marks.iter().zip(&legend.single) {
            let want = if single { 1 } else { self.rng.usize(0..=2) };
            let mut placed = 0;
            for _ in 0..want * 8 {
                let (r, c) = (self.rng.usize(0..rows), self.rng.usize(0..cols));
                if placed < want && !taken[r][c] {
                    taken[r][c] = true;
                    g[r][c] = m;
                    placed += 1;
                }
            }
        }
        g
    }
}

/// The legend symbols of a generated file: one per tile, one or two per kind (a copy's
/// cells), one per mark.
struct Legend9 {
    tiles: Vec<char>,
    kinds: Vec<Vec<char>>,
    /// Per kind: symbols that also choose a start pose (`'>' floor + p0.q1`), with the
    /// pose's index.
    posed: Vec<Vec<(char, usize)>>,
    marks: Vec<char>,
    /// Whether each mark is `single` (placed exactly once).
    single: Vec<bool>,
}

/// Symbols for generated legends (none of them a blank or a quote).
const SYMBOLS9: &str = ".#abcdefghijkmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*+@$~%&=";

/// A rule file in the issue 9 language: counters, anonymous kinds with `max`, cell and
/// listed-direction moves, multiple and reversed steps, every new statement (`remove`,
/// `create`, `change`, `toggle`, counter updates, `if`/`else`, `for`, `shift each`,
/// `slide each`), conditions with `at ... as`, `on`, `count`, counters, `not`, `and`,
/// `or`, goals as conditions, levels with goal pictures and `expect` lines. Mostly valid;
/// about one in four has one semantic slip (see [`slip9`]).
pub fn synth9(rng: &mut fastrand::Rng) -> String {
    let ntiles = rng.usize(1..=4);
    let tiles: Vec<String> = ["floor", "wall", "hole", "door"][..ntiles]
        .iter()
        .map(|t| t.to_string())
        .collect();
    let breaking = (ntiles > 2 && rng.u8(0..3) == 0).then(|| tiles[2].clone());
    let marks: Vec<String> = (0..rng.usize(0..=2)).map(|i| format!("m{i}")).collect();
    let counters: Vec<(String, i64)> = (0..rng.usize(0..=2))
        .map(|i| (format!("k{i}"), rng.i64(1..=4)))
        .collect();
    let mut kinds = vec![];
    for i in 0..rng.usize(1..=3) {
        let anon = i > 0 && rng.bool() || rng.u8(0..5) == 0;
        let max = (anon && rng.u8(0..3) != 0).then(|| rng.i64(1..=6));
        let poses = if rng.u8(0..3) == 0 {
            (0..rng.usize(1..=3))
                .map(|k| {
                    let shape = SHAPES[rng.usize(0..SHAPES.len())].to_vec();
                    (format!("q{k}"), shape)
                })
                .collect()
        } else {
            vec![]
        };
        kinds.push(Kind {
            name: format!("p{i}"),
            anon,
            max,
            poses,
        });
    }
    let dirs: Vec<(String, i64, i64)> = if rng.u8(0..5) == 0 {
        vec![("w".into(), 0, -1), ("e".into(), 0, 1)]
    } else {
        COMPASS
            .iter()
            .map(|&(n, r, c)| (n.to_string(), r as i64, c as i64))
            .collect()
    };
    let mut g = Gen9 {
        rng,
        d: Decls {
            tiles: tiles.clone(),
            marks: marks.clone(),
            counters: counters.clone(),
            breaking: breaking.clone(),
            kinds: kinds.clone(),
            dirs: dirs.iter().map(|d| d.0.clone()).collect(),
        },
        fresh: 0,
    };
    let mut s = String::from("puzzle \"fuzz9\"\n");
    let decl: Vec<String> = tiles
        .iter()
        .map(|t| match &breaking {
            Some(b) if b == t => format!("{t} -> {}", tiles[0]),
            _ => t.clone(),
        })
        .collect();
    let _ = writeln!(s, "tiles {{ {} }}", decl.join(" "));
    if ntiles > 1 && g.chance(2) {
        let _ = writeln!(s, "outside {}", tiles[1]);
    }
    let single: Vec<bool> = marks.iter().map(|_| g.chance(3)).collect();
    if !marks.is_empty() {
        let ms: Vec<String> = marks
            .iter()
            .zip(&single)
            .map(|(m, &one)| format!("{m}{}", if one { " single" } else { "" }))
            .collect();
        let _ = writeln!(s, "marks {{ {} }}", ms.join(" "));
    }
    for (c, max) in &counters {
        let start = if g.chance(2) {
            format!(" start {}", g.rng.i64(0..=*max))
        } else {
            String::new()
        };
        let _ = writeln!(s, "counter {c} max {max}{start}");
    }
    for k in &kinds {
        let _ = write!(s, "piece {}", k.name);
        if k.anon {
            s.push_str(" anonymous");
        }
        if let Some(m) = k.max {
            let _ = write!(s, " max {m}");
        }
        if !k.poses.is_empty() {
            s.push_str(" {\n");
            for (p, cells) in &k.poses {
                let offs: Vec<String> = cells.iter().map(|(r, c)| format!("({r}, {c})")).collect();
                let _ = writeln!(s, "  pose {p} {{ {} }}", offs.join(" "));
            }
            s.push('}');
        }
        s.push('\n');
    }
    // The legend: symbols in a seeded order.
    let mut pool: Vec<char> = SYMBOLS9.chars().collect();
    g.rng.shuffle(&mut pool);
    let mut pool = pool.into_iter();
    let mut next = || pool.next().unwrap_or('?');
    let legend = Legend9 {
        tiles: tiles.iter().map(|_| next()).collect(),
        kinds: kinds
            .iter()
            .map(|k| {
                if k.anon && k.footprint().len() > 1 {
                    vec![next(), next()]
                } else {
                    vec![next()]
                }
            })
            .collect(),
        posed: kinds
            .iter()
            .map(|k| {
                (0..k.poses.len())
                    .filter(|_| k.poses.len() > 1 && g.rng.u8(0..3) == 0)
                    .map(|p| (next(), p))
                    .collect()
            })
            .collect(),
        marks: marks.iter().map(|_| next()).collect(),
        single,
    };
    s.push_str("legend {\n");
    for (t, sym) in tiles.iter().zip(&legend.tiles) {
        let _ = writeln!(s, "  '{sym}' {t}");
    }
    for (k, syms) in kinds.iter().zip(&legend.kinds) {
        for sym in syms {
            let _ = writeln!(s, "  '{sym}' {} + {}", tiles[0], k.name);
        }
    }
    for (k, posed) in kinds.iter().zip(&legend.posed) {
        for (sym, pose) in posed {
            let _ = writeln!(
                s,
                "  '{sym}' {} + {}.{}",
                tiles[0], k.name, k.poses[*pose].0
            );
        }
    }
    for (m, sym) in marks.iter().zip(&legend.marks) {
        let _ = writeln!(s, "  '{sym}' {} + {m}", tiles[0]);
    }
    s.push_str("}\n");
    let ds: Vec<String> = dirs
        .iter()
        .map(|(n, r, c)| format!("{n} ({r}, {c})"))
        .collect();
    let _ = writeln!(s, "dirs {{ {} }}", ds.join("  "));
    let costs: &[&str] = if g.chance(4) { &["c0", "c1"] } else { &["c0"] };
    let _ = writeln!(s, "cost {}", costs.join(", "));
    if g.chance(8) {
        let _ = writeln!(s, "limit {}", g.rng.usize(1..=12));
    }
    // Moves.
    for m in 0..g.rng.usize(1..=3) {
        let mut scope = Scope::default();
        let (header, letters) = match g.rng.u8(0..5) {
            0 => {
                scope.cells.push("c".into());
                ("cell c".to_string(), 1)
            }
            1 if dirs.len() > 1 => {
                scope.dir = true;
                let listed: Vec<String> = dirs
                    .iter()
                    .filter(|_| g.chance(2))
                    .map(|d| d.0.clone())
                    .collect();
                let listed = if listed.is_empty() {
                    vec![dirs[0].0.clone()]
                } else {
                    listed
                };
                (format!("d in {}", listed.join(", ")), listed.len())
            }
            _ => {
                scope.dir = true;
                ("d".to_string(), dirs.len())
            }
        };
        let _ = writeln!(s, "move mv{m}({header}) {{");
        if g.rng.u8(0..4) != 0 {
            let l: String = (0..letters)
                .map(|i| (b'a' + ((i + m * 7) % 26) as u8) as char)
                .collect();
            let _ = writeln!(s, "  letters \"{l}\"");
        }
        // With two components the first move adds to both, so neither is unused.
        let adds = if m == 0 {
            costs.join(", ")
        } else {
            costs[g.rng.usize(0..costs.len())].to_string()
        };
        let _ = writeln!(s, "  adds {adds}");
        let n = g.rng.usize(0..=4);
        g.stmts(&mut scope, n, &mut s, "  ");
        g.effect(&scope, &mut s, "  ");
        s.push_str("}\n");
    }
    if ntiles > 1 && g.chance(2) {
        // Never the first tile, which every piece starts on.
        let k = kinds[g.rng.usize(0..kinds.len())].clone();
        let t = tiles[g.rng.usize(1..tiles.len())].clone();
        let _ = writeln!(s, "forbid {} on {t}", k.name);
    }
    // The goal: a condition, or none when every level draws a picture.
    let pictures = g.chance(6);
    if !pictures || g.chance(2) {
        let c = if g.chance(2) {
            g.cond(&Scope::default(), 2, false, &mut vec![])
        } else {
            let n = g.rng.usize(1..=2);
            let parts: Vec<String> = (0..n).map(|_| g.goal_part()).collect();
            parts.join(" and ")
        };
        let _ = writeln!(s, "goal {c}");
    }
    // Levels.
    for l in 0..g.rng.usize(1..=3) {
        let (rows, cols) = (g.rng.usize(2..=5), g.rng.usize(2..=6));
        let grid = g.grid(rows, cols, &legend, false);
        let text = |grid: &[Vec<char>]| -> String {
            grid.iter()
                .map(|r| format!("  {}\n", r.iter().collect::<String>()))
                .collect()
        };
        let _ = write!(s, "level \"l{l}\" \"\"\"\n{}  \"\"\"", text(&grid));
        if pictures || g.chance(6) {
            let (pr, pc) = if g.chance(10) {
                (rows + 1, cols)
            } else {
                (rows, cols)
            };
            let pic = if g.chance(4) {
                grid.clone()
            } else {
                g.grid(pr, pc, &legend, true)
            };
            let _ = write!(s, " goal \"\"\"\n{}  \"\"\"", text(&pic));
        }
        s.push('\n');
        match g.rng.u8(0..6) {
            0 | 1 => {}
            2 => s.push_str("expect none\n"),
            _ => {
                let v: Vec<String> = costs.iter().map(|_| g.rng.u8(0..6).to_string()).collect();
                let _ = writeln!(s, "expect {}", v.join(", "));
            }
        }
    }
    if g.chance(4) {
        s = slip9(g.rng, &s);
    }
    s
}

/// One semantic slip in a generated file: a name, number, header or clause that the
/// checker must refuse with a diagnostic (or, for some, accept).
fn slip9(rng: &mut fastrand::Rng, text: &str) -> String {
    let edits: &[(&str, &str)] = &[
        (" anonymous max ", " max "),
        (" anonymous", ""),
        ("counter k0 max ", "counter k0 max -"),
        ("counter k0 max ", "counter k0 max 99999999999"),
        (" start ", " start 9"),
        ("(cell c)", "(d)"),
        ("(d)", "(cell c)"),
        ("(d in ", "(d in zz, "),
        (" as a", " as p"),
        ("require ", "forbid "),
        ("require ", "require not "),
        ("if ", "if not "),
        ("k0 ", "kz "),
        (" += ", " += 4294967296"),
        (" -= ", " = -"),
        ("for x", "for c"),
        (" in p0 {", " in floor {"),
        ("create p", "create floor"),
        ("create p0 at", "create p0.zz at"),
        ("remove ", "remove floor "),
        ("toggle floor ", "toggle m0 "),
        ("change floor -> ", "change floor -> m0 "),
        (" everywhere", " on floor"),
        ("goal ", "goal a1 at (0, 0) as b and "),
        ("expect ", "expect 1, 2, 3, "),
        ("expect none", "expect -1"),
        ("\"\"\" goal \"\"\"", "\"\"\" goal \"\"\"\n  ..\n"),
        ("goal ", "goal count(zz) == 1 and "),
        ("shift each ", "shift each zz "),
        ("2d", "0d"),
        ("2d", "99999999999d"),
        (" on m0", " on zz"),
        ("letters \"", "letters \"xyzzy"),
    ];
    let fit: Vec<&(&str, &str)> = edits.iter().filter(|(f, _)| text.contains(f)).collect();
    let Some(&&(from, to)) = fit.get(rng.usize(0..fit.len().max(1))) else {
        // Nothing to change: a second goal line.
        return format!("{text}goal count(p0) >= 0\n");
    };
    let hits: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
    let at = hits[rng.usize(0..hits.len())];
    format!("{}{to}{}", &text[..at], &text[at + from.len()..])
}

/// A grid of legend keys: mostly tiles, one of each piece (sometimes none or two), some
/// extra entries.
fn grid_of(
    rng: &mut fastrand::Rng,
    tiles: &[&str],
    pieces: &[&str],
    extra: &[&str],
    sep: &str,
) -> String {
    let (rows, cols) = (rng.usize(1..=6), rng.usize(1..=8));
    let mut g: Vec<Vec<&str>> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    tiles[if rng.u8(0..4) == 0 {
                        rng.usize(0..tiles.len())
                    } else {
                        0
                    }]
                })
                .collect()
        })
        .collect();
    for &p in pieces.iter().chain(extra) {
        let copies = match rng.u8(0..12) {
            0 => 0,
            1 => 2,
            _ => 1,
        };
        for _ in 0..copies {
            let (r, c) = (rng.usize(0..rows), rng.usize(0..cols));
            g[r][c] = p;
        }
    }
    g.iter().map(|r| r.join(sep) + "\n").collect()
}

// ---------------------------------------------------------------------------------------
// Level files and judge inputs
// ---------------------------------------------------------------------------------------

/// The legend keys of a rule file, as written in levels (characters, or integers).
pub fn legend_keys(rules: &str) -> Vec<String> {
    let Some(at) = rules.find("legend") else {
        return vec![];
    };
    let body = &rules[at..];
    let end = body.find('}').unwrap_or(body.len());
    let mut keys = vec![];
    for line in body[..end].lines().skip(1) {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix('\'') {
            if let Some(c) = rest.chars().next() {
                keys.push(c.to_string());
            }
        } else if let Some(w) = t.split_whitespace().next() {
            if w.parse::<i64>().is_ok() {
                keys.push(w.to_string());
            }
        }
    }
    keys
}

/// A level file for `rules`: a grid of its legend keys, often mutated.
pub fn level_for(rng: &mut fastrand::Rng, rules: &str) -> Vec<u8> {
    let mut keys = legend_keys(rules);
    if keys.is_empty() {
        keys = vec![".".into(), "#".into()];
    }
    let ints = keys.iter().all(|k| k.parse::<i64>().is_ok());
    let sep = if ints { " " } else { "" };
    let (rows, cols) = (rng.usize(1..=9), rng.usize(1..=12));
    let mut g: Vec<Vec<String>> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    keys[if rng.u8(0..3) == 0 {
                        rng.usize(0..keys.len())
                    } else {
                        0
                    }]
                    .clone()
                })
                .collect()
        })
        .collect();
    // Every key once somewhere, so pieces and single marks are present.
    for k in &keys {
        if rng.u8(0..5) != 0 {
            g[rng.usize(0..rows)][rng.usize(0..cols)] = k.clone();
        }
    }
    let mut text: String = g.iter().map(|r| r.join(sep) + "\n").collect();
    if rng.u8(0..3) == 0 {
        text = mutate_lines(rng, &text, &keys);
    }
    let mut bytes = text.into_bytes();
    if rng.u8(0..30) == 0 {
        let at = rng.usize(0..=bytes.len());
        bytes.insert(at, 0xff);
    }
    bytes
}

/// Line-level mutations of level and judge text: ragged, repeated, dropped, huge or
/// strange lines and numbers.
fn mutate_lines(rng: &mut fastrand::Rng, text: &str, keys: &[String]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    for _ in 0..rng.usize(1..=3) {
        let i = rng.usize(0..lines.len());
        match rng.u8(0..11) {
            0 => {
                lines.remove(i);
                if lines.is_empty() {
                    lines.push(String::new());
                }
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let l = lines[i].clone();
                lines[i] = l.repeat(rng.usize(2..200));
            }
            3 => lines[i].push_str(&"x".repeat([1, 100, 70_000][rng.usize(0..3)])),
            4 => {
                let l = lines[i].clone();
                lines[i] = l.chars().take(l.chars().count() / 2).collect();
            }
            5 => lines[i].insert_str(0, pick(rng, ODD)),
            6 => {
                let l = lines[i].clone();
                for _ in 0..[10, 1_000, 5_000][rng.usize(0..3)] {
                    lines.push(l.clone());
                }
            }
            7 => {
                // Replace one number by an extreme one.
                let toks: Vec<&str> = lines[i].split(' ').collect();
                let k = rng.usize(0..toks.len());
                let mut toks: Vec<String> = toks.iter().map(|t| t.to_string()).collect();
                toks[k] = pick(rng, EXTREMES).to_string();
                lines[i] = toks.join(" ");
            }
            8 => lines.insert(i, String::new()),
            9 => {
                let j = rng.usize(0..lines.len());
                lines.swap(i, j);
            }
            _ => {
                if !keys.is_empty() {
                    let k = &keys[rng.usize(0..keys.len())];
                    lines[i] = lines[i].replace(|c: char| c.is_whitespace(), &format!(" {k} "));
                }
            }
        }
    }
    let mut s = lines.join(if rng.u8(0..8) == 0 { "\r\n" } else { "\n" });
    if rng.u8(0..4) != 0 {
        s.push('\n');
    }
    s
}

/// A judge input mutated with probability `p` (token and line mutations).
pub fn mutate_judge(rng: &mut fastrand::Rng, input: &str, p: f64) -> Vec<u8> {
    if rng.f64() >= p {
        return input.as_bytes().to_vec();
    }
    let mut text = if rng.bool() {
        mutate_lines(rng, input, &[])
    } else {
        // Token-level: numbers to extremes, a token dropped or repeated.
        let mut toks: Vec<String> = input
            .split_inclusive([' ', '\n'])
            .map(str::to_string)
            .collect();
        for _ in 0..rng.usize(1..=3) {
            if toks.is_empty() {
                break;
            }
            let i = rng.usize(0..toks.len());
            let end = if toks[i].ends_with('\n') {
                "\n"
            } else if toks[i].ends_with(' ') {
                " "
            } else {
                ""
            };
            match rng.u8(0..5) {
                0 => {
                    toks.remove(i);
                }
                1 => {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
                2 => toks[i] = format!("{}{end}", pick(rng, EXTREMES)),
                3 => toks[i] = format!("{}{end}", pick(rng, ODD)),
                _ => {
                    toks[i] = format!(
                        "{}{end}",
                        ["-1", "0", "x", "1e3", "+5", "0x10", "１"][rng.usize(0..7)]
                    )
                }
            }
        }
        toks.concat()
    };
    if rng.u8(0..10) == 0 {
        text = text.replace('\n', "\r\n");
    }
    let mut bytes = text.into_bytes();
    if rng.u8(0..25) == 0 {
        let at = rng.usize(0..=bytes.len());
        bytes.insert(at, 0xc3);
    }
    bytes
}

/// A judge input with a random header: sizes that match the grid, lie about it, or are
/// huge; the grid in the rule file's legend keys.
pub fn random_judge(rng: &mut fastrand::Rng, rules: &str) -> Vec<u8> {
    let keys = legend_keys(rules);
    let ints = keys.iter().all(|k| k.parse::<i64>().is_ok());
    let queries = rules.contains("header rows, cols, queries");
    let cols_first = rules.contains("header cols, rows");
    let mut s = String::new();
    for _ in 0..rng.usize(1..=3) {
        let (rows, cols) = (rng.usize(1..=8), rng.usize(1..=8));
        let (hr, hc) = match rng.u8(0..6) {
            0 => (rows + 1, cols),
            1 => (rows, cols.saturating_sub(1)),
            2 => (pick(rng, EXTREMES).parse().unwrap_or(rows), cols),
            _ => (rows, cols),
        };
        let (a, b) = if cols_first { (hc, hr) } else { (hr, hc) };
        let nq = rng.usize(0..4);
        if queries {
            let _ = writeln!(s, "{a} {b} {nq}");
        } else {
            let _ = writeln!(s, "{a} {b}");
        }
        for _ in 0..rows {
            let row: Vec<&str> = (0..cols)
                .map(|_| {
                    keys.get(rng.usize(0..keys.len().max(1)))
                        .map_or(".", String::as_str)
                })
                .collect();
            s.push_str(&row.join(if ints { " " } else { "" }));
            s.push('\n');
        }
        if queries {
            for _ in 0..nq {
                let q: Vec<String> = (0..6).map(|_| rng.i64(-1..=9).to_string()).collect();
                let _ = writeln!(s, "{}", q.join(" "));
            }
            break;
        }
    }
    if !queries {
        s.push_str("0 0\n");
    }
    s.into_bytes()
}

// ---------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `--max-states` given to `solve`, `judge`, `analyze` and `graph`.
    pub states: u64,
    /// `--timeout` given to `solve` and `judge`, in seconds.
    pub timeout: f64,
    /// Wall time any one step may take before it counts as a runaway (it is killed at
    /// twice this).
    pub wall: Duration,
    /// Address-space limit of the binary, in MiB (an allocation bomb aborts instead of
    /// taking the machine).
    pub memory_mib: u64,
    /// Also count errors without a diagnostic code (`error: ...`) as failures.
    pub strict: bool,
}

impl Limits {
    /// States ~20k, timeout 0.2 s, `wall` per step; `PUZ_FUZZ_STRICT=1` for strict codes.
    pub fn new(wall: Duration) -> Limits {
        Limits {
            states: 20_000,
            timeout: 0.2,
            wall,
            memory_mib: 4096,
            strict: std::env::var("PUZ_FUZZ_STRICT").is_ok_and(|v| v == "1"),
        }
    }
}

/// What went wrong on one input.
#[derive(Clone, Debug)]
pub struct Failure {
    /// A short signature that groups failures of the same cause: the kind, the step and,
    /// for panics, the location.
    pub class: String,
    /// The step: `lib load`, `check`, `solve ...`.
    pub step: String,
    /// The command line (for the binary) or the call (for the library).
    pub command: String,
    /// The symptom: panic message, exit status, time, stderr excerpt.
    pub detail: String,
}

/// Counts of what ran.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Inputs run.
    pub inputs: usize,
    /// Binary invocations.
    pub runs: usize,
    /// Rule files that loaded.
    pub loaded: usize,
    /// Runs that exited 0.
    pub ok: usize,
    /// Errors reported without a diagnostic code (`error: ...` only), per step.
    pub uncoded: std::collections::BTreeMap<String, usize>,
}

static PANIC_AT: Mutex<Option<String>> = Mutex::new(None);

/// Installs a panic hook that records where the library panicked (once per process).
pub fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let loc = info
                .location()
                .map_or("?".to_string(), |l| format!("{}:{}", l.file(), l.line()));
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            *PANIC_AT.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{loc}: {msg}"));
        }));
    });
}

fn take_panic() -> String {
    PANIC_AT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .unwrap_or_else(|| "unknown panic".into())
}

/// The output of one binary run.
struct Ran {
    code: Option<i32>,
    /// Bytes written to stderr, and diagnostics rendered there in full.
    stderr_bytes: usize,
    reports: usize,
    stderr: String,
    /// The start and end of standard output (see [`drain`]).
    stdout: String,
    elapsed: Duration,
    killed: bool,
}

/// What was read from a pipe: the first and the last `cap / 2` bytes (a panic message may
/// follow megabytes of output), the total size, and how many lines start with `Error: `
/// (one per rendered diagnostic).
#[derive(Default)]
struct Drained {
    kept: Vec<u8>,
    bytes: usize,
    reports: usize,
}

fn drain(mut r: impl Read + Send + 'static, cap: usize) -> std::thread::JoinHandle<Drained> {
    std::thread::spawn(move || {
        let (mut head, mut tail) = (vec![], std::collections::VecDeque::new());
        let (mut bytes, mut reports) = (0, 0);
        let mut line: Vec<u8> = vec![];
        let mut buf = [0u8; 65536];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    bytes += n;
                    for &b in &buf[..n] {
                        if b == b'\n' {
                            line.clear();
                        } else if line.len() < 7 {
                            line.push(b);
                            if line == b"Error: " {
                                reports += 1;
                            }
                        }
                        if head.len() < cap / 2 {
                            head.push(b);
                        } else {
                            tail.push_back(b);
                            if tail.len() > cap / 2 {
                                tail.pop_front();
                            }
                        }
                    }
                }
            }
        }
        head.extend(tail);
        Drained {
            kept: head,
            bytes,
            reports,
        }
    })
}

fn run_bin(args: &[String], lim: &Limits) -> Ran {
    let script = format!(
        "ulimit -v {} 2>/dev/null; exec \"$0\" \"$@\"",
        lim.memory_mib * 1024
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_puz"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn puz");
    let out = drain(child.stdout.take().unwrap(), 1 << 16);
    let err = drain(child.stderr.take().unwrap(), 1 << 16);
    let t = Instant::now();
    let mut killed = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if t.elapsed() > lim.wall * 2 {
            let _ = child.kill();
            killed = true;
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = t.elapsed();
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.kept).into_owned();
    use std::os::unix::process::ExitStatusExt;
    Ran {
        code: status.code().or(status.signal().map(|s| -s)),
        stderr_bytes: err.bytes,
        reports: err.reports,
        stderr,
        stdout: String::from_utf8_lossy(&out.kept).into_owned(),
        elapsed,
        killed,
    }
}

/// The first line that names a panic's location in `stderr`, shortened.
fn panic_line(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.contains("panicked"))
        .unwrap_or("")
        .to_string();
    let msg = stderr
        .lines()
        .skip_while(|l| !l.contains("panicked"))
        .nth(1)
        .unwrap_or("");
    let text = format!("{line} {msg}");
    if text.chars().count() > 300 {
        excerpt(&text)
    } else {
        text
    }
}

/// The `src/...:line` of a panic line, for grouping.
fn location(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c == '\'')
        .find(|w| w.contains(".rs:"))
        .map(|w| w.split(':').take(2).collect::<Vec<_>>().join(":"))
        .unwrap_or_else(|| "?".into())
}

/// The start of `s`, and its end when it is long.
fn excerpt(s: &str) -> String {
    let n = s.chars().count();
    let head: String = s.chars().take(400).collect();
    if n <= 800 {
        return s.trim().to_string();
    }
    let tail: String = s.chars().skip(n - 400).collect();
    format!("{} [...] {}", head.trim(), tail.trim())
}

/// More diagnostics than this rendered in full by one run count as a failure: a report
/// must stay bounded, whatever the input (the rest summarised).
pub const MAX_REPORTS: usize = 500;

/// Checks one binary run; appends a failure if it misbehaved.
fn judge_run(
    step: &str,
    args: &[String],
    lim: &Limits,
    stats: &mut Stats,
    fails: &mut Vec<Failure>,
) {
    let r = run_bin(args, lim);
    judge_ran(step, args, &r, lim, stats, fails);
}

/// Checks one finished run of the binary (see [`judge_run`]).
fn judge_ran(
    step: &str,
    args: &[String],
    r: &Ran,
    lim: &Limits,
    stats: &mut Stats,
    fails: &mut Vec<Failure>,
) {
    stats.runs += 1;
    let command = format!("puz {}", args.join(" "));
    let mut fail = |class: String, detail: String| {
        fails.push(Failure {
            class,
            step: step.to_string(),
            command: command.clone(),
            detail,
        })
    };
    if r.stderr.contains("panicked") || r.code == Some(101) {
        let p = panic_line(&r.stderr);
        fail(format!("panic at {}", location(&p)), p);
        return;
    }
    if r.killed || r.elapsed > lim.wall {
        fail(
            format!("runaway: {step}"),
            format!(
                "ran {:.1}s (limit {:.1}s){}",
                r.elapsed.as_secs_f64(),
                lim.wall.as_secs_f64(),
                if r.killed { ", killed" } else { "" }
            ),
        );
        return;
    }
    if r.reports > MAX_REPORTS {
        fail(
            format!("unbounded diagnostics: {step}"),
            format!(
                "{} diagnostics in full, {} bytes of stderr",
                r.reports, r.stderr_bytes
            ),
        );
        return;
    }
    match r.code {
        Some(c) if c < 0 => {
            let what = if r.stderr.contains("memory allocation") {
                "allocation failure"
            } else {
                "signal"
            };
            fail(format!("crash ({what} {}): {step}", -c), excerpt(&r.stderr));
        }
        Some(0) => stats.ok += 1,
        Some(1) => {
            // `puz test` exits 1 when an expectation fails: a FAIL line says which.
            let mismatch = step == "test" && r.stdout.contains("FAIL  ");
            if !mismatch && !r.stderr.contains("puz::") {
                fail(
                    format!("rule error without a code: {step}"),
                    excerpt(&r.stderr),
                );
            }
        }
        Some(9) => fail(
            format!("internal check failed (exit 9): {step}"),
            excerpt(&r.stderr),
        ),
        Some(2..=8) => {
            // `solve --all` says in its table (or JSON) which level failed and why.
            let tabled = step == "solve --all"
                && (r.stdout.contains("error (exit ") || r.stdout.contains("\"exit\":"));
            if r.stderr.trim().is_empty() && !tabled {
                fail(
                    format!("silent error exit {}: {step}", r.code.unwrap()),
                    String::new(),
                );
            } else if !r.stderr.contains("puz::") && r.code != Some(3) {
                let kind = step.split_whitespace().next().unwrap_or(step).to_string();
                *stats.uncoded.entry(kind).or_default() += 1;
                if lim.strict {
                    fail(format!("error without a code: {step}"), excerpt(&r.stderr));
                }
            }
        }
        other => fail(
            format!("undocumented exit code {other:?}: {step}"),
            excerpt(&r.stderr),
        ),
    }
}

/// Runs the binary once with `args` (relative paths from the repository root) and checks
/// it like every fuzzed run: no panic or crash, within the wall time, a code on every rule
/// error. Returns the failures.
pub fn check_command(step: &str, args: &[&str], lim: &Limits) -> Vec<Failure> {
    let args = repo_args(args);
    let mut fails = vec![];
    judge_run(step, &args, lim, &mut Stats::default(), &mut fails);
    fails
}

/// [`check_command`], and the run must also give the right answer: exit code `code`, and
/// `want` somewhere in its standard output or standard error (a diagnostic code, an
/// answer).
pub fn check_answer(
    step: &str,
    args: &[&str],
    lim: &Limits,
    code: i32,
    want: &str,
) -> Vec<Failure> {
    let args = repo_args(args);
    let r = run_bin(&args, lim);
    let mut fails = vec![];
    judge_ran(step, &args, &r, lim, &mut Stats::default(), &mut fails);
    if r.code != Some(code) || !(r.stdout.contains(want) || r.stderr.contains(want)) {
        fails.push(Failure {
            class: format!("wrong answer: {step}"),
            step: step.to_string(),
            command: format!("puz {}", args.join(" ")),
            detail: format!(
                "wanted exit {code} and {want:?}; got exit {:?}, stdout {}, stderr {}",
                r.code,
                excerpt(&r.stdout),
                excerpt(&r.stderr)
            ),
        });
    }
    fails
}

/// Arguments naming files of the repository become absolute paths.
fn repo_args(args: &[&str]) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = repo(a);
            if p.exists() {
                p.to_string_lossy().into_owned()
            } else {
                a.to_string()
            }
        })
        .collect()
}

/// Inputs larger than this (bytes) skip the in-process library calls.
pub const LIBRARY_MAX: usize = 16 * 1024;

/// Runs one input through the library and the binary; returns its failures.
pub fn run_case(c: &Case, dir: &Path, lim: &Limits, stats: &mut Stats) -> Vec<Failure> {
    install_hook();
    stats.inputs += 1;
    let mut fails = vec![];
    std::fs::create_dir_all(dir).expect("work dir");
    let rules = dir.join("rules.puz");
    std::fs::write(&rules, &c.rules).expect("write rules");
    let rp = rules.to_string_lossy().into_owned();
    // The library: load, and the level file. Large inputs go to the binary only, which
    // can be stopped when it runs away.
    let mut levels: Vec<String> = vec![];
    let mut loaded = false;
    let small =
        c.rules.len() <= LIBRARY_MAX && c.level.as_ref().is_none_or(|l| l.len() <= LIBRARY_MAX);
    if let Some(text) = String::from_utf8(c.rules.clone()).ok().filter(|_| small) {
        let t = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| {
            match puz::Puzzle::load("rules.puz", text) {
                Ok(p) => {
                    let names: Vec<String> =
                        p.model.levels.iter().map(|l| l.name.clone()).collect();
                    let lv = c
                        .level
                        .as_ref()
                        .and_then(|b| String::from_utf8(b.clone()).ok())
                        .map(|lt| {
                            p.level_from_file("level.txt", lt)
                                .err()
                                .map(|d| d.render_plain(80))
                        });
                    Ok((names, lv))
                }
                Err(d) => Err(d.render_plain(80)),
            }
        }));
        let elapsed = t.elapsed();
        let mut fail = |class: &str, detail: String| {
            fails.push(Failure {
                class: class.to_string(),
                step: "lib load".into(),
                command: "puz::Puzzle::load(rules.puz), level_from_file(level.txt)".into(),
                detail,
            })
        };
        match r {
            Err(_) => {
                let p = take_panic();
                fail(&format!("panic at {}", location(&p)), excerpt(&p));
            }
            Ok(Err(report)) => {
                if !report.contains("puz::") {
                    fail("rule diagnostic without a code (lib)", excerpt(&report));
                }
            }
            Ok(Ok((names, lv))) => {
                loaded = true;
                stats.loaded += 1;
                levels = names;
                if let Some(Some(report)) = lv {
                    if !report.contains("puz::") {
                        fail("level diagnostic without a code (lib)", excerpt(&report));
                    }
                }
            }
        }
        if elapsed > lim.wall {
            fail(
                "runaway: lib load",
                format!("{:.1}s", elapsed.as_secs_f64()),
            );
        }
    }
    let s = |x: &str| x.to_string();
    let budget = |flags: &[String]| -> Vec<String> {
        let mut v = flags.to_vec();
        v.extend([
            s("--max-states"),
            lim.states.to_string(),
            s("--timeout"),
            lim.timeout.to_string(),
        ]);
        v
    };
    judge_run("check", &[s("check"), rp.clone()], lim, stats, &mut fails);
    let expects = String::from_utf8_lossy(&c.rules).contains("expect");
    if loaded && !levels.is_empty() && c.seed % 4 == 1 && expects {
        // Every level against its `expect` line, instead of the first level alone.
        let mut args = vec![s("test"), rp.clone()];
        args.extend(budget(&c.flags));
        judge_run("test", &args, lim, stats, &mut fails);
    } else if loaded && levels.len() > 1 && c.seed % 4 == 2 {
        // Every level in a table, instead of the first level alone.
        let mut args = vec![s("solve"), rp.clone(), s("--all")];
        if c.seed % 8 == 6 {
            args.push(s("--json"));
        }
        args.extend(budget(&c.flags));
        judge_run("solve --all", &args, lim, stats, &mut fails);
    } else if loaded && !levels.is_empty() {
        let mut args = vec![s("solve"), rp.clone()];
        if levels.len() > 1 && c.seed.is_multiple_of(3) {
            args.extend([
                s("--level"),
                levels[(c.seed as usize / 3) % levels.len()].clone(),
            ]);
        }
        if c.seed.is_multiple_of(5) {
            args.push(s("--steps"));
        } else if c.seed.is_multiple_of(7) {
            args.push(s("--json"));
        }
        args.extend(budget(&c.flags));
        judge_run("solve (inline level)", &args, lim, stats, &mut fails);
    }
    if let Some(level) = &c.level {
        let lp = dir.join("level.txt");
        std::fs::write(&lp, level).expect("write level");
        let mut args = vec![s("solve"), rp.clone(), lp.to_string_lossy().into_owned()];
        args.extend(budget(&c.flags));
        judge_run("solve (level file)", &args, lim, stats, &mut fails);
        if c.explore && loaded {
            let lps = lp.to_string_lossy().into_owned();
            judge_run(
                "analyze (level file)",
                &[
                    s("analyze"),
                    rp.clone(),
                    lps.clone(),
                    s("--max-states"),
                    lim.states.to_string(),
                    s("--timeout"),
                    lim.timeout.to_string(),
                ],
                lim,
                stats,
                &mut fails,
            );
            judge_run(
                "graph (level file)",
                &[
                    s("graph"),
                    rp.clone(),
                    lps,
                    s("--format"),
                    s("json"),
                    s("--max-states"),
                    s("2000"),
                    s("--timeout"),
                    lim.timeout.to_string(),
                ],
                lim,
                stats,
                &mut fails,
            );
        }
    }
    if let Some(input) = &c.judge {
        let jp = dir.join("judge.in");
        std::fs::write(&jp, input).expect("write judge input");
        let mut args = vec![s("judge"), rp.clone(), jp.to_string_lossy().into_owned()];
        args.extend(budget(&c.flags));
        judge_run("judge", &args, lim, stats, &mut fails);
    }
    if c.explore && loaded {
        judge_run(
            "compile --json",
            &[s("compile"), rp.clone(), s("--json")],
            lim,
            stats,
            &mut fails,
        );
        if !levels.is_empty() {
            judge_run(
                "analyze (inline level)",
                &[
                    s("analyze"),
                    rp.clone(),
                    s("--max-states"),
                    lim.states.to_string(),
                    s("--timeout"),
                    lim.timeout.to_string(),
                ],
                lim,
                stats,
                &mut fails,
            );
        }
    }
    fails
}

/// Saves a failing case under `root/<seed>/`: its files and a `failure.txt` with the seed,
/// the commands and the symptoms. Returns the folder.
pub fn save(root: &Path, c: &Case, fails: &[Failure]) -> PathBuf {
    let dir = root.join(format!("{:016x}", c.seed));
    std::fs::create_dir_all(&dir).expect("failure dir");
    std::fs::write(dir.join("rules.puz"), &c.rules).expect("save");
    if let Some(l) = &c.level {
        std::fs::write(dir.join("level.txt"), l).expect("save");
    }
    if let Some(j) = &c.judge {
        std::fs::write(dir.join("judge.in"), j).expect("save");
    }
    let mut note = format!(
        "seed {:#x} ({})\nflags: {}\n",
        c.seed,
        c.origin,
        c.flags.join(" ")
    );
    for f in fails {
        let _ = writeln!(
            note,
            "\n[{}]\nstep: {}\ncommand: {}\n{}",
            f.class, f.step, f.command, f.detail
        );
    }
    std::fs::write(dir.join("failure.txt"), note).expect("save");
    dir
}
