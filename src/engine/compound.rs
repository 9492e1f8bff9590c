//! Counted moves under a metric: the state space whose moves are the moves a metric
//! counts, built over the interpreter's unit steps.
//!
//! A metric says, per move, whether consecutive applications by one piece combine
//! (`straight`: the same action repeated; `chain`: any applications of the move) or count
//! one each. "One piece" is the piece an answer names as moved (`Expander::moved_piece`):
//! the next application must move a piece of the same kind that starts at the anchor and
//! pose where the previous application left it.
//!
//! # The counted moves out of a state
//!
//! From a state `s`, one breadth-first search runs over unit steps: its first layer is
//! every successor of `s` in the interpreter's order; a node reached by a listed move is
//! extended by the further applications of that move by the same piece (for `straight`,
//! the same action only), in the interpreter's order. Every state first reached (other
//! than `s`) is one counted move; its *representative* is the unit path the search found,
//! which has the fewest unit steps and, among those, the smallest sequence of successor
//! positions (breadth-first search in order gives it). A state reached by moves of
//! different costs is kept once per cost, so a cheaper counted move is never hidden.
//!
//! The counted moves are listed in the order of their representatives compared
//! lexicographically, a move before its extensions: the preorder of the search tree,
//! whose children are in the interpreter's order. Their actions are `(move, rank)`, the
//! rank being the position in this list (saturating at `u16::MAX`), so a search that
//! breaks ties by action order breaks them by representatives. For `puz graph`, where
//! an action must name a direction, [`Compound::label_by_first_step`] labels each counted
//! move by its first unit step instead.
//!
//! Every closure is finite (a visited set per expansion) and reports its work in
//! `Successors::work`, so budgets and deadlines stop long closures like long searches.

use std::collections::HashMap;

use crate::compile::{Action, Combine, DirId, Model, PieceId};

use super::expander::Expander;
use super::interpreter::Successors;

/// One node of the unit-step search out of a state.
struct Node {
    /// The node it extends, `None` for a first step.
    parent: Option<u32>,
    /// The unit action that reached it.
    action: Action,
    /// The first unit action of its representative (its root's action).
    first: Action,
    /// The tracked piece after the step: its kind and slot value; `None` when the step
    /// moved no piece that stayed on the board (it cannot be extended).
    piece: Option<(PieceId, u32)>,
    /// Where its state starts in the forest's state buffer.
    at: usize,
    /// Its children, in the interpreter's order.
    children: Vec<u32>,
    /// Whether it is a counted move (the first node to reach its state and cost).
    counted: bool,
}

/// The state space of counted moves under one metric of an expander's model.
pub struct Compound<'e, 'm> {
    exp: &'e mut Expander<'m>,
    /// Per move: how its applications combine.
    combine: Vec<Option<Combine>>,
    /// Per move: a class of its cost vector (moves of one class add the same).
    cost_class: Vec<u16>,
    /// Label counted moves by their first unit step (for graphs) instead of by rank.
    first_step: bool,
    /// Scratch for unit expansions.
    inner: Successors,
}

/// The unit steps of an answer under a metric, grouped into counted moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The metric's name.
    pub metric: String,
    /// How many unit steps each counted move has, in order.
    pub groups: Vec<usize>,
}

impl<'e, 'm> Compound<'e, 'm> {
    /// The counted moves of metric `metric` (an index into [`Model::metrics`]) over `exp`.
    pub fn new(exp: &'e mut Expander<'m>, metric: usize) -> Compound<'e, 'm> {
        let model = exp.model;
        let combine = model.metrics[metric].combine.clone();
        let mut classes: Vec<&Vec<u32>> = vec![];
        let cost_class = model
            .moves
            .iter()
            .map(|m| match classes.iter().position(|c| **c == m.adds) {
                Some(i) => i as u16,
                None => {
                    classes.push(&m.adds);
                    (classes.len() - 1) as u16
                }
            })
            .collect();
        Compound {
            exp,
            combine,
            cost_class,
            first_step: false,
            inner: Successors::default(),
        }
    }

    /// Labels each counted move by its first unit step (a real move and direction, as
    /// graph exports print them) instead of by its rank among the state's counted moves.
    pub fn label_by_first_step(mut self) -> Self {
        self.first_step = true;
        self
    }

    /// The expander underneath.
    pub fn expander(&mut self) -> &mut Expander<'m> {
        self.exp
    }

    /// The expander underneath, to read.
    pub fn expander_ref(&self) -> &Expander<'m> {
        self.exp
    }

    /// Words per state.
    pub fn words(&self) -> usize {
        self.exp.words
    }

    /// The unit-step search out of `s` (see the module header): its nodes and their
    /// states, and the work it took. Stops early when an expansion ran past the deadline
    /// (the work then says so).
    fn forest(&mut self, s: &[u32]) -> (Vec<Node>, Vec<u32>, u64) {
        let words = self.exp.words;
        let mut nodes: Vec<Node> = vec![];
        let mut states: Vec<u32> = vec![];
        let mut seen: HashMap<(Vec<u32>, u16), ()> = HashMap::new();
        let mut work = 0u64;
        self.exp.successors(s, &mut self.inner);
        work += self.inner.units();
        if work >= LATE {
            return (nodes, states, work);
        }
        for i in 0..self.inner.len() {
            let a = self.inner.actions[i];
            let t = self.inner.state(i, words);
            let piece = match self.combine[a.mv().index()] {
                Some(_) => self.exp.moved_piece(s, t, a).map(|(k, _, to)| (k, to)),
                None => None,
            };
            let fresh = t != s
                && seen
                    .insert((t.to_vec(), self.cost_class[a.mv().index()]), ())
                    .is_none();
            nodes.push(Node {
                parent: None,
                action: a,
                first: a,
                piece,
                at: states.len(),
                children: vec![],
                counted: fresh,
            });
            states.extend_from_slice(t);
        }
        let mut head = 0;
        let mut inner = Successors::default();
        while head < nodes.len() {
            let n = head;
            head += 1;
            // A first step whose state an earlier first step reached (another move with
            // the same effect) is not a counted move, but its own applications still
            // extend it.
            let Some((kind, value)) = nodes[n].piece else {
                continue;
            };
            // Under `straight` every step repeats the first; under `chain` the move does.
            let (first, mv) = (nodes[n].first, nodes[n].first.mv());
            let Some(combine) = self.combine[mv.index()] else {
                continue;
            };
            let cur = states[nodes[n].at..nodes[n].at + words].to_vec();
            self.exp.successors(&cur, &mut inner);
            work += inner.units();
            // A closure over a large board runs many short expansions, none long enough
            // to look at the clock itself: look every 1024 of them.
            if n % 1024 == 1023
                && self
                    .exp
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
            {
                work = work.max(LATE);
            }
            if work >= LATE {
                break;
            }
            for i in 0..inner.len() {
                let a = inner.actions[i];
                let ok = match combine {
                    Combine::Straight => a == first,
                    Combine::Chain => a.mv() == mv,
                };
                if !ok {
                    continue;
                }
                let t = inner.state(i, words);
                let Some((k, from, to)) = self.exp.moved_piece(&cur, t, a) else {
                    continue;
                };
                if k != kind || from != value {
                    continue;
                }
                if t == s
                    || seen
                        .insert((t.to_vec(), self.cost_class[mv.index()]), ())
                        .is_some()
                {
                    continue;
                }
                let id = nodes.len() as u32;
                nodes[n].children.push(id);
                nodes.push(Node {
                    parent: Some(n as u32),
                    action: a,
                    first,
                    piece: Some((k, to)),
                    at: states.len(),
                    children: vec![],
                    counted: true,
                });
                states.extend_from_slice(t);
            }
        }
        (nodes, states, work)
    }

    /// The counted nodes in the order of their representatives: the forest's preorder.
    fn preorder(nodes: &[Node]) -> Vec<u32> {
        let mut out = Vec::with_capacity(nodes.len());
        let mut stack: Vec<u32> = nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.parent.is_none())
            .map(|(i, _)| i as u32)
            .rev()
            .collect();
        while let Some(i) = stack.pop() {
            let n = &nodes[i as usize];
            if n.counted {
                out.push(i);
            }
            stack.extend(n.children.iter().rev());
        }
        out
    }

    /// The action a counted move is listed with: `(move, rank)`, or its first unit step.
    fn label(&self, nodes: &[Node], i: u32, rank: usize) -> Action {
        let first = nodes[i as usize].first;
        if self.first_step {
            first
        } else {
            Action::new(first.mv(), DirId(rank.min(u16::MAX as usize) as u16))
        }
    }

    /// Every counted move out of `s`, in the order of their representatives.
    pub fn successors(&mut self, s: &[u32], out: &mut Successors) {
        let words = self.exp.words;
        let (nodes, states, work) = self.forest(s);
        out.states.clear();
        out.actions.clear();
        for (rank, i) in Self::preorder(&nodes).into_iter().enumerate() {
            let at = nodes[i as usize].at;
            out.states.extend_from_slice(&states[at..at + words]);
            out.actions.push(self.label(&nodes, i, rank));
        }
        out.work = work;
    }

    /// The unit steps (action and state after each) of the counted move out of `s` that
    /// reaches `t` and is listed with `action`; the first counted move reaching `t` when
    /// none is listed with that action. `None` when no counted move reaches `t`.
    pub fn unit_steps(
        &mut self,
        s: &[u32],
        t: &[u32],
        action: Action,
    ) -> Option<Vec<(Action, Vec<u32>)>> {
        let words = self.exp.words;
        let (nodes, states, _) = self.forest(s);
        let order = Self::preorder(&nodes);
        let reaches = |i: u32| {
            let at = nodes[i as usize].at;
            &states[at..at + words] == t
        };
        let chosen = order
            .iter()
            .enumerate()
            .find(|&(rank, &i)| reaches(i) && self.label(&nodes, i, rank) == action)
            .or_else(|| order.iter().enumerate().find(|&(_, &i)| reaches(i)))
            .map(|(_, &i)| i)?;
        let mut steps = vec![];
        let mut at = Some(chosen);
        while let Some(i) = at {
            let n = &nodes[i as usize];
            steps.push((n.action, states[n.at..n.at + words].to_vec()));
            at = n.parent;
        }
        steps.reverse();
        Some(steps)
    }

    /// Expands a path of counted moves (its states, and the actions the search took)
    /// into unit steps: the unit actions, every unit state (the start first) and the
    /// number of unit steps of each counted move. `None` when some counted move does not
    /// reach the next state (a bug).
    pub fn expand(&mut self, states: &[Vec<u32>], actions: &[Action]) -> Option<UnitPath> {
        let mut unit_actions = vec![];
        let mut unit_states = vec![states.first()?.clone()];
        let mut groups = vec![];
        for (w, &a) in states.windows(2).zip(actions) {
            let steps = self.unit_steps(&w[0], &w[1], a)?;
            groups.push(steps.len());
            for (ua, us) in steps {
                unit_actions.push(ua);
                unit_states.push(us);
            }
        }
        Some((unit_actions, unit_states, groups))
    }

    /// Checks an answer given as unit steps grouped into counted moves: every unit step is
    /// a legal successor by its action, every group is one counted move of the metric
    /// (one application of an unlisted move; applications of one listed move by the
    /// same piece, in one direction for `straight`), the last state is a goal and the
    /// counted moves respect the move limit. The error says what failed.
    pub fn check(
        &mut self,
        actions: &[Action],
        states: &[Vec<u32>],
        groups: &[usize],
    ) -> Result<(), String> {
        let words = self.exp.words;
        if states.first() != Some(&self.exp.start())
            || states.len() != actions.len() + 1
            || groups.iter().sum::<usize>() != actions.len()
            || groups.contains(&0)
        {
            return Err("the path does not begin at the start or is malformed".into());
        }
        let mut succ = Successors::default();
        for (k, &a) in actions.iter().enumerate() {
            self.exp.successors(&states[k], &mut succ);
            let ok = (0..succ.len())
                .any(|i| succ.actions[i] == a && succ.state(i, words) == states[k + 1].as_slice());
            if !ok {
                return Err(format!("unit step {} is not possible", k + 1));
            }
        }
        let mut k = 0;
        for (g, &len) in groups.iter().enumerate() {
            let first = actions[k];
            let combine = self.combine[first.mv().index()];
            let mut piece = None;
            for j in k..k + len {
                let a = actions[j];
                let moved = self.exp.moved_piece(&states[j], &states[j + 1], a);
                if j == k {
                    piece = moved.map(|(kind, _, to)| (kind, to));
                    continue;
                }
                let same = match combine {
                    None => false,
                    Some(Combine::Straight) => a == first,
                    Some(Combine::Chain) => a.mv() == first.mv(),
                };
                match (moved, piece) {
                    (Some((kind, from, to)), Some((pk, pv)))
                        if same && kind == pk && from == pv =>
                    {
                        piece = Some((kind, to));
                    }
                    _ => {
                        return Err(format!(
                            "counted move {} is not one move of the metric",
                            g + 1
                        ))
                    }
                }
            }
            k += len;
        }
        let last = states.last().expect("a path holds the start");
        if !self.exp.is_goal(last) {
            return Err("the last state is not a goal".into());
        }
        if self
            .exp
            .model
            .limit
            .is_some_and(|l| groups.len() as u64 > l as u64)
        {
            return Err("the path exceeds the move limit".into());
        }
        Ok(())
    }
}

/// A path of counted moves in unit steps: the unit actions, every unit state (the start
/// first), and how many unit steps each counted move has.
pub type UnitPath = (Vec<Action>, Vec<Vec<u32>>, Vec<usize>);

/// The work past which a closure stops: an expansion ran past the deadline (see
/// `interpreter::LATE_WORK`), so the search's own check ends it.
const LATE: u64 = 1 << 40;

/// The cost of an answer under a metric: each counted move adds its move's `adds` once
/// (moves count when no cost is declared).
pub fn counted_cost(model: &Model, actions: &[Action], groups: &[usize]) -> Vec<u64> {
    let mut firsts = vec![];
    let mut k = 0;
    for &len in groups {
        if let Some(&a) = actions.get(k) {
            firsts.push(a);
        }
        k += len;
    }
    if model.costs.is_empty() {
        return vec![firsts.len() as u64];
    }
    let mut cost = vec![0u64; model.costs.len()];
    for a in firsts {
        for (c, add) in cost.iter_mut().zip(&model.moves[a.mv().index()].adds) {
            *c += *add as u64;
        }
    }
    cost
}
