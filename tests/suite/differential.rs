//! The differential fuzzer (`tests/common/reference/`): random valid rule files and
//! levels, each explored with the engine and compared, state by state, with the reference
//! interpreter written from the README. A fixed slice runs with `cargo test`; the ignored
//! long run is what `scripts/fuzz-diff` starts in release mode.

use crate::common::reference;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reference::diff::{run, run_with, Difference, Stats};
use reference::gen::{all_constructs, case, coverage, Case};
use reference::interp::Quirks;
use reference::shrink::shrink;

/// The seeds of the fixed slice, and the states explored per level there.
const SLICE: std::ops::Range<u64> = 0..1500;
const SLICE_STATES: usize = 250;

// Known classes of differences, "expected until fixed", are the reference's `Quirks`:
// emulations of the engine's behaviour. A difference that disappears when the reference
// emulates them is counted under the quirk that explains it, not failed. Delete a quirk
// (in `interp.rs`) once the engine is fixed.

fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn target(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/fuzz")
        .join(sub)
}

/// What a set of seeds found.
#[derive(Default)]
struct Found {
    stats: Stats,
    /// Per class of difference: how many, and the first seed and its difference.
    classes: BTreeMap<String, (u64, u64, Difference)>,
    /// Per known class: how many it filtered, and the first seed.
    filtered: BTreeMap<&'static str, (u64, u64)>,
}

/// A class: the kind of difference, which side has the extra results, and the shape of
/// the (shrunk) move at fault.
fn class_of(c: &Case, d: &Difference) -> String {
    let shape = match d.mv {
        Some(m) => {
            let text = c.rules.to_puz();
            let name = format!("move {}(", c.rules.moves[m].name);
            let body: Vec<&str> = text
                .lines()
                .skip_while(|l| !l.starts_with(&name))
                .skip(1)
                .take_while(|l| *l != "}")
                .map(str::trim)
                .filter(|l| !l.starts_with("adds"))
                .collect();
            body.join("; ")
        }
        None => d.summary.clone(),
    };
    format!("{:?} (extra on {} side): {shape}", d.kind, d.side)
}

/// Runs one seed; a new difference (shrunk), or `None` when the engine and the reference
/// agree, maybe up to known quirks.
fn check(seed: u64, states: usize, found: &mut Found) -> Option<(Case, Difference)> {
    let c = case(seed);
    let mut st = Stats::default();
    let d = run(&c, states, &mut st);
    found.stats.add(&st);
    d?;
    let Some(d) = run_with(&c, states, Quirks::all(), &mut Stats::default()) else {
        let name = Quirks::each()
            .into_iter()
            .find(|(_, q)| run_with(&c, states, *q, &mut Stats::default()).is_none())
            .map_or("several known quirks", |x| x.0);
        found.filtered.entry(name).or_insert((0, seed)).0 += 1;
        return None;
    };
    let (small, sd) = shrink(&c, &d, states, Quirks::all());
    Some((small, sd))
}

/// Writes a failing case under `target/fuzz/diff-failures/<seed>/`.
fn save(seed: u64, c: &Case, d: &Difference) -> PathBuf {
    let dir = target(&format!("diff-failures/{seed}"));
    std::fs::create_dir_all(&dir).expect("failure directory");
    std::fs::write(dir.join("rules.puz"), c.rules.to_puz()).expect("write rules");
    std::fs::write(
        dir.join("README"),
        format!(
            "seed {seed}, level {}: {:?}: {}\n\n{}\n",
            d.level, d.kind, d.summary, d.detail
        ),
    )
    .expect("write readme");
    dir
}

fn report(c: &Case, d: &Difference) -> String {
    let level = c
        .rules
        .levels
        .get(d.level)
        .map(|l| l.rows.join("\n  "))
        .unwrap_or_default();
    format!(
        "seed {}: {:?}: {}\n--- rules ---\n{}--- level {} ---\n  {}\n--- difference ---\n{}",
        c.seed,
        d.kind,
        d.summary,
        c.rules.to_puz(),
        d.level,
        level,
        d.detail
    )
}

#[test]
fn fixed_slice_agrees_with_the_reference() {
    let mut found = Found::default();
    let mut used = std::collections::BTreeSet::new();
    for seed in SLICE {
        used.extend(coverage(&case(seed)));
        if let Some((c, d)) = check(seed, SLICE_STATES, &mut found) {
            panic!("{}", report(&c, &d));
        }
    }
    let missing: Vec<&str> = all_constructs()
        .into_iter()
        .filter(|c| !used.contains(c))
        .collect();
    assert!(missing.is_empty(), "the slice never uses: {missing:?}");
    let s = &found.stats;
    eprintln!(
        "differential slice: {} rule files, {} levels ({} drawn ambiguously), {} states, {} transitions; filtered: {:?}",
        s.files, s.levels, s.ambiguous, s.states, s.transitions, found.filtered
    );
    assert!(s.levels > SLICE.end / 2, "too few levels ran: {}", s.levels);
}

/// The long run: `PUZ_DIFF_SEED` (first seed), `PUZ_DIFF_COUNT` (rule files),
/// `PUZ_DIFF_SECONDS`, `PUZ_DIFF_STATES` (per level). Prints the counts and one line per
/// class of difference, saving the first case of each class.
#[test]
#[ignore]
fn fuzz_diff_for_a_while() {
    let first = env_num("PUZ_DIFF_SEED").unwrap_or(1_000_000);
    let count = env_num("PUZ_DIFF_COUNT").unwrap_or(u64::MAX);
    let seconds = env_num("PUZ_DIFF_SECONDS").unwrap_or(60);
    let states = env_num("PUZ_DIFF_STATES").unwrap_or(2000) as usize;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut found = Found::default();
    let mut seed = first;
    let mut last_note = Instant::now();
    while seed - first < count && Instant::now() < deadline {
        if let Some((c, d)) = check(seed, states, &mut found) {
            let key = class_of(&c, &d);
            let entry = found.classes.entry(key).or_insert_with(|| {
                let dir = save(seed, &c, &d);
                eprintln!("new class at seed {seed}: {}", dir.display());
                (0, seed, d.clone())
            });
            entry.0 += 1;
        }
        seed += 1;
        if last_note.elapsed() > Duration::from_secs(30) {
            last_note = Instant::now();
            eprintln!(
                "... {} rule files, {} classes",
                seed - first,
                found.classes.len()
            );
        }
    }
    let s = &found.stats;
    println!(
        "fuzz-diff: seeds {first}..{seed}: {} rule files, {} levels ({} drawn ambiguously), {} states compared, {} transitions",
        s.files, s.levels, s.ambiguous, s.states, s.transitions
    );
    for (name, (n, first)) in &found.filtered {
        println!("  filtered (known): {name}: {n} (first: seed {first})");
    }
    for (class, (n, seed, _)) in &found.classes {
        println!("  {n} x {class} (first: seed {seed})");
    }
    assert!(
        found.classes.is_empty(),
        "differences found; see target/fuzz/diff-failures/"
    );
}

/// Prints one seed's case and its difference: `PUZ_DIFF_SEED=S cargo test --test
/// suite -- --ignored --nocapture differential::show_seed`.
#[test]
#[ignore]
fn show_seed() {
    let seed = env_num("PUZ_DIFF_SEED").unwrap_or(0);
    let states = env_num("PUZ_DIFF_STATES").unwrap_or(2000) as usize;
    let c = case(seed);
    let mut st = Stats::default();
    match run(&c, states, &mut st) {
        Some(d) => {
            println!("{}", report(&c, &d));
            // A new class shrinks with every known quirk emulated; a known one with every
            // other quirk emulated, so the reproducer shows that class alone.
            let known = Quirks::each()
                .into_iter()
                .find(|(_, q)| run_with(&c, states, *q, &mut Stats::default()).is_none());
            let (what, q) = match known {
                _ if run_with(&c, states, Quirks::all(), &mut Stats::default()).is_some() => {
                    ("a new class".to_string(), Quirks::all())
                }
                Some((name, _)) => (format!("known quirk {name}"), Quirks::all_but(name)),
                None => ("several known quirks".to_string(), Quirks::default()),
            };
            let (small, sd) = shrink(&c, &d, states, q);
            println!("=== shrunk ({what}) ===\n{}", report(&small, &sd));
        }
        None => println!(
            "seed {seed}: no difference ({} levels, {} states)\n{}",
            st.levels,
            st.states,
            c.rules.to_puz()
        ),
    }
}
