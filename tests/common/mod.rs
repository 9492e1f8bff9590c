//! Support shared by several test files: for each shipped puzzle, random level generators
//! and a brute-force reference written from the spec. None of these calls the crate, so
//! the references stay independent of the code they check; `drive` holds the few thin
//! calls into the crate that the suites share. `binary` runs the `puz` binary, `rules`
//! holds rule texts, `reference` is the differential fuzzer's interpreter, `cluster` starts
//! processes on loopback, `js_data` reads JavaScript literals and `ps_data` the PuzzleScript
//! reference's test data with it. The suite (`tests/suite/main.rs`) compiles this once; the fuzzing
//! harness (`tests/fuzz/`) takes only `fuzz.rs`.

#![allow(dead_code)]

pub mod binary;
pub mod bloxorz;
pub mod cluster;
pub mod curling;
pub mod drive;
pub mod huarong;
pub mod js_data;
pub mod klotski;
pub mod lightsout;
pub mod npuzzle;
pub mod peg;
pub mod ps_data;
pub mod reference;
pub mod rules;
pub mod rushhour;
pub mod sokoban;

// Issue 9 corpus: holes, keys, tilt, ice cave, robots, Bloxorz with switches.
pub mod corpus;
pub mod holes;
pub mod icecave;
pub mod keys;
pub mod puzfile;
pub mod robots;
pub mod switches;
pub mod tilt;
