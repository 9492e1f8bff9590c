//! A* under the tie rule, for any cost vector: the label search of Dijkstra
//! ([`super::dijkstra`]: labels, projections, the tie rule among equal costs) taken in
//! the order of a bound on the first cost component.
//!
//! **The bound.** [`Space::estimate`] gives `h(s)`, a bound on the first component still
//! to pay from `s`, that is 0 on goal states and *consistent*: a move `m` from `u` to `v`
//! that adds `c0(m)` to the first component has `h(u) <= c0(m) + h(v)`. The
//! interpreter's bounds (`engine::heuristic`) prove both: every move takes each piece
//! along at most one relaxed step of that move, and a relaxed step changes a piece's
//! distance by at most what the move adds to the first component. Consistency and
//! `h = 0` on goals make `h` admissible.
//!
//! **The order.** A label of cost `g = (g0, g1, ...)` at state `s` is queued under the
//! key `(f, g0)` with `f = (g0 + h(s), g1, ...)`, compared lexicographically. Every move
//! strictly increases the key: if it adds to the first component, `f0` does not drop
//! (consistency) and, when `f0` stays, `f1...` do not change while `g0` grows; if it
//! does not, `h` does not drop, so either `f0` grows or `f0` stays and some later
//! component of `f` grows (every move adds to some component). So labels come out of
//! the queue in increasing key order along every path, exactly as Dijkstra's come out in
//! increasing cost, and the argument of Dijkstra's header carries over: when a label is
//! taken, every label that could extend into its state with the same cost has been
//! taken before it, so its cost and projections are final (for one state, `f` and `g`
//! order labels alike, as `h` is the state's). Every goal state has `h = 0`, so the first
//! goal taken has the cheapest cost, and every goal label of the same key has that cost
//! and is final too; among them the tie rule picks, as Dijkstra does. A* therefore
//! returns exactly Dijkstra's answer (and BFS's, for unit costs) while expanding only
//! labels whose `f` is at most the answer's.
//!
//! Under a move limit, a state is not queued when its moves plus `h` exceed the limit:
//! every move adds at most one to the first component, so at least `h` moves are left.

use super::dijkstra::labelled;
use super::{Budget, CostTable, Outcome, Space, Stats};

/// A* over lexicographic cost vectors, guided by [`Space::estimate`], with the tie rule:
/// the answer Dijkstra (or BFS) gives, within `budget.max_depth`.
pub fn astar<S: Space>(space: &mut S, budget: &Budget, table: &CostTable) -> (Outcome, Stats) {
    labelled(space, budget, table, true)
}
