//! The integration tests stay in few binaries. A test file directly under `tests/` is a
//! crate of its own that links the whole dependency tree again (about fifty of them took
//! most of a cold build's minutes on two cores), so a new test file goes in `tests/suite/`,
//! declared in its `main.rs`. Only tests that need a process of their own get a directory
//! with a `main.rs` (`tests/fuzz/`: its panic hook is process-wide).

use std::path::Path;

/// The test binaries, each a directory of `tests/` with a `main.rs`.
const BINARIES: [&str; 2] = ["fuzz", "suite"];

#[test]
fn integration_tests_are_modules_of_a_few_binaries() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let (mut loose, mut binaries) = (vec![], vec![]);
    for entry in std::fs::read_dir(&tests).expect("tests/") {
        let path = entry.expect("an entry of tests/").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_file() && name.ends_with(".rs") {
            loose.push(name);
        } else if path.join("main.rs").is_file() {
            binaries.push(name);
        }
    }
    loose.sort();
    binaries.sort();
    assert!(
        loose.is_empty(),
        "test files directly under tests/ are binaries of their own: move them into \
         tests/suite/ and declare them in tests/suite/main.rs: {loose:?}"
    );
    assert_eq!(
        binaries, BINARIES,
        "the test binaries of tests/ (each another link of every dependency)"
    );
}

/// A file of `tests/suite/` that `main.rs` does not declare is never compiled, and its
/// tests never run.
#[test]
fn every_file_of_the_suite_is_declared() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/suite/main.rs");
    let declared: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/suite/")
        .map(|e| e.expect("an entry of tests/suite/").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| stem != "main")
        .collect();
    files.sort();
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !declared.contains(&f.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "files of tests/suite/ that tests/suite/main.rs does not declare: {missing:?}"
    );
    // This file is among them: the listing read the suite's directory.
    assert!(files.iter().any(|f| f == "layout"), "{files:?}");
}
