//! Fast path for one-blank sliding puzzles shaped like Huarong Dao (NOIP 2013, Luogu P1979).
//!
//! Fingerprint: two single one-cell pieces, the blank `E` and the token `S`; four unit
//! directions in any order; static tiles; unit costs; no limit; one move whose only
//! statement is `swap E d`; forbids exactly `E on F` and `S on F` for one tile `F`, with
//! `outside` absent or `F`; goal exactly `S on G` (a tile or a mark). Anything else runs on
//! the interpreter.
//!
//! Solver (the classic multi-query method):
//!
//! - Once per board (kept in the fast-path value for the last few boards, keyed by the
//!   board's tiles, so the queries of a judge case share it): an iterative depth-first
//!   search labelling every edge between free cells with its biconnected block; for every
//!   free cell `c` and pair of free neighbours `i`, `j` whose edges to `c` lie in one
//!   block, the blank's fewest steps from `i` to `j` without passing `c` (a breadth-first
//!   search from `i` that stops once the wanted neighbours are found; neighbours in
//!   different blocks are separated by `c`, so
//!   no search ever runs through a whole component only to fail); and the connected
//!   components of the graph of states (token cell, side of the blank), whose edges are
//!   swaps and detours, both reversible.
//! - Per query: the block at the token holding the sides the blank can reach comes from
//!   the depth-first tree (a range test on discovery times), so a query whose goal lies in
//!   another state component is answered unsolvable at once. Otherwise the blank walks to
//!   those sides (one A* by Manhattan distance to the nearest side still wanted), then a
//!   shortest path runs over (token cell, side) with edges swap (cost 1: the token moves
//!   into the blank's cell, the blank lands on the opposite side) and detour (the
//!   precomputed cost). With one goal cell it is A* with `open_bound`, the exact cost on
//!   an open board, which fixed cells can only raise (so the bound is consistent); with
//!   several goal cells, Dijkstra. Keys are small integers: the queue is a ring of
//!   buckets, newest first within a key.
//!
//! Paths: with `need_path`, the path is the one the interpreter's tie rule picks (the
//! smallest cheapest move sequence in declaration order), built a move at a time: from the
//! current state, the first move in the model's direction order whose next state is one
//! move closer to a goal, by the query above run from that state (the per-board tables are
//! shared, so each costs one query).
//!
//! One job per file: this one holds the fingerprint ([`Huarong::detect`]); `prep.rs` the
//! per-board precomputation (blocks, detours, state components); `search.rs` the
//! per-query search and the path built from it.

mod prep;
mod search;

use crate::compile::{Model, Op, PieceId, Place, PoseId, TileId};

use super::fingerprint::{compass, is_param, only_op, static_tiles, unit_cost};
use super::{FastOutcome, FastPath};
use prep::Prep;
use search::Scratch;

/// "No value": unreachable, no parent, no block.
const INF: u32 = u32::MAX;
/// The opposite of each compass direction (N S W E).
const OPP: [usize; 4] = [1, 0, 3, 2];
/// The slot of an unordered pair of sides in a cell's six detour entries.
const PAIR: [[usize; 4]; 4] = [[6, 0, 1, 2], [0, 6, 3, 4], [1, 3, 6, 5], [2, 4, 5, 6]];
/// Boards kept in the precomputation cache.
const CACHE_BOARDS: usize = 4;
/// Check the clock every this many queue pops.
const CLOCK_EVERY: u64 = 4096;

/// The Huarong fast path for one model: its rules, the tables of the boards seen last and
/// the search arrays, all reused from one query to the next.
pub(crate) struct Huarong {
    blank: PieceId,
    token: PieceId,
    /// Model direction index of N, S, W, E.
    dir: [usize; 4],
    /// The tile neither piece may stand on.
    fixed: TileId,
    goal: Place,
    /// Tables of the last [`CACHE_BOARDS`] boards, the newest last.
    preps: Vec<Prep>,
    scratch: Scratch,
}

impl Huarong {
    /// Accepts a model whose rules are exactly those above, or says what differs.
    pub(crate) fn detect(model: &Model) -> Result<Huarong, String> {
        static_tiles(model)?;
        unit_cost(model)?;
        if model.limit.is_some() {
            return Err("has a move limit".into());
        }
        if model.pieces.len() != 2 {
            return Err(format!("needs two pieces, has {}", model.pieces.len()));
        }
        for p in &model.pieces {
            if p.anonymous || p.poses.len() != 1 || p.poses[0].cells != [(0, 0)] {
                return Err(format!("piece `{}` is not a single one-cell piece", p.name));
            }
        }
        let dir = compass(model)?;
        let blank = match only_op(model)? {
            Op::Swap { piece, step, .. } if is_param(step) => *piece,
            _ => return Err("the move is not `swap P d`".into()),
        };
        let token = PieceId(1 - blank.0);
        // One pose per piece: naming it is the same as naming none.
        let any_pose = |p: Option<PoseId>| p.is_none_or(|p| p.0 == 0);
        let fixed = match model.forbids.as_slice() {
            [a, b] => match (a.place, b.place) {
                (Place::Tile(f), Place::Tile(g))
                    if f == g && a.piece != b.piece && any_pose(a.pose) && any_pose(b.pose) =>
                {
                    f
                }
                _ => return Err("forbids are not `blank on F` and `token on F`".into()),
            },
            _ => return Err(format!("needs two forbids, has {}", model.forbids.len())),
        };
        if model.outside.is_some_and(|o| o != fixed) {
            return Err("outside the board is not the forbidden tile".into());
        }
        let goal = match model.goal.as_slice() {
            [g] if g.piece == token && any_pose(g.pose) => g.on,
            _ => return Err("the goal is not `S on G` for the piece that is not the blank".into()),
        };
        Ok(Huarong {
            blank,
            token,
            dir,
            fixed,
            goal,
            preps: vec![],
            scratch: Scratch::default(),
        })
    }
}
