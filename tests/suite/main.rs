//! The integration tests, one module per subject, in one test binary: the dependency tree
//! and `tests/common` are linked and compiled once instead of once per file, and the tests
//! of every subject share the test threads. `cargo test --test suite diagnostics::` runs
//! one subject's tests.
//!
//! A test file that needs a process of its own goes in its own directory instead: the
//! fuzzing harness (`tests/fuzz/`) installs a process-wide panic hook.

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod architecture;
mod astar_ties;
mod backends;
mod bloxorz_random;
mod cli;
mod corpus_holes;
mod corpus_icecave;
mod corpus_keys;
mod corpus_klotski;
mod corpus_lightsout;
mod corpus_npuzzle;
mod corpus_peg;
mod corpus_robots;
mod corpus_rushhour;
mod corpus_switches;
mod corpus_tilt;
mod curling;
mod deadcells;
mod diagnostics;
mod differential;
mod dist;
mod dist_robust;
mod dump;
mod export;
mod fast_huarong;
mod fast_paths;
mod fast_sokoban;
mod formats;
mod goal_bounds;
mod graph;
mod huarong;
mod iddfs;
mod judge_bloxorz;
mod layered;
mod layout;
mod legend_pose;
mod library;
mod lints;
mod mechanics;
mod metrics;
mod multibox;
mod npuzzle_bounds;
mod placement;
mod play;
mod push_patterns;
mod puzzlescript_conformance;
mod puzzlescript_diagnostics;
mod puzzlescript_dist;
mod puzzlescript_parse;
mod puzzlescript_play;
mod puzzlescript_play_budget;
mod puzzlescript_prove;
mod puzzlescript_solve;
mod puzzlescript_whynot;
mod robust_check;
mod robust_engine;
mod robust_fast;
mod robust_io;
mod robust_search;
mod robustness;
mod semantics;
mod serve_api;
mod serve_browser;
mod serve_puzzlescript;
mod sokoban;
mod workflow_lints;
