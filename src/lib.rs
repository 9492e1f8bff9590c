//! puz: a declarative language for grid puzzles, and the tool that solves them.
//!
//! A `.puz` file says what a puzzle is: its tiles, pieces and poses, moves, goal, costs
//! and levels. puz checks it (every mistake a coded diagnostic with a labelled span),
//! compiles it, and solves its levels exactly: the optimal cost, one optimal path (the
//! tie rule's, where the search keeps it), replayed and checked before it is returned.
//!
//! # Solving a level
//!
//! ```
//! use puz::{Budget, SolveOptions};
//!
//! let text = std::fs::read_to_string("puzzles/bloxorz.puz")?;
//! // At most a million states stored: past that the answer says the search stopped.
//! let opts = SolveOptions {
//!     budget: Budget { max_states: Some(1_000_000), ..Budget::default() },
//!     ..SolveOptions::default()
//! };
//! // Load, check and compile the file, pick its first level, solve it.
//! let solution = puz::solve("bloxorz.puz", text, None, &opts)?;
//! assert!(solution.solved && solution.verified);
//! println!("cost: {}", solution.cost.as_ref().unwrap()); // cost: 10 rolls
//! println!("letters: {}", solution.path); // wsssseneen
//! for line in solution.moves.lines() {
//!     println!("{line}"); // roll block (1,3) w, ...
//! }
//! assert_eq!(solution.path, "wsssseneen");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Puzzle::load`] and [`Puzzle::solve`] do the same in two steps, to solve several
//! levels of one file; [`solver::Solver`] solves many levels (or judge queries) with one
//! engine choice; [`Solution`] serialises with serde into the JSON `puz solve --json`
//! prints, and [`Solution::report`] is the text `puz solve` prints. [`expect::Tester`]
//! checks a file's `expect` clauses (`puz test`), [`play::Game`] plays moves one at a
//! time and says why a refused one is refused, [`io::judge`] answers judge inputs.
//!
//! # The stages
//!
//! [`syntax`] (text to a spanned AST, a pest grammar), [`check`] (semantic checks),
//! [`compile`] (the AST to a [`compile::Model`]), [`engine`] (levels, packed states, the
//! interpreter that expands them, lints, bounds), [`search`] (the backends), [`fast`]
//! (hand-tuned engines for four classic puzzles, checked against the interpreter),
//! [`io`] (level files, judge formats, drawing boards, answers), [`diagnostics`] (every
//! error and warning, with its code). The front ends come with Cargo features, on by
//! default: `cli` (the `puz` binary), `serve` (the playground server, [`serve`]), `dist`
//! (search across threads and processes, [`dist`]); `render` (plain-text reports,
//! `diagnostics::render_plain`) comes with `cli` and `serve`; `page` (the playground's
//! answers without a server, [`page`]) with `serve`; `picture` (`io::picture`, answers as
//! GIF or PNG) with `cli` and `serve`. Without them
//! (`--no-default-features`) the library builds alone, also for `wasm32-unknown-unknown`.

#![warn(missing_docs)]

pub mod check;
pub mod compile;
pub mod diagnostics;
#[cfg(feature = "dist")]
pub mod dist;
pub mod engine;
mod error;
pub mod expect;
pub mod fast;
pub mod io;
#[cfg(feature = "page")]
pub mod page;
pub mod play;
mod puzzle;
pub mod puzzlescript;
pub mod search;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solution;
pub mod solver;
pub mod syntax;

pub use error::Error;
pub use puzzle::{solve, Puzzle};
pub use search::Budget;
pub use solution::Solution;
pub use solver::SolveOptions;
