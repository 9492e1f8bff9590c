//! Why a turn changed nothing: the turn is played again on a copy of the level with a
//! [`Trace`] attached, and the trace says which rule queued a `cancel` or a `restart`,
//! what the player's movement became (blocked at resolution, by what; or taken away by
//! a rule), whether `require_player_movement` cancelled it, and which rules kept firing
//! in again turns that never settle.
//!
//! The engine calls the hooks below only when a trace is attached (`Machine::trace`),
//! so a normal turn pays one test of an `Option` per hook and nothing else. Only
//! top-level turns are traced (the input's turn and its again turns, numbered from 1);
//! the nested turns a turn runs at its end (the trial of an `again` turn, the
//! level-start rules after a `restart`) are ignored.

use std::collections::BTreeMap;

use super::{Machine, Rng};
use crate::puzzlescript::ir::*;
use crate::puzzlescript::whynot::{Block, Cell, Firing, Obstacle, RuleRef, WhyNot};

/// Again turns watched to name the rules of a loop that never settles.
pub(crate) const STUCK_WINDOW: usize = 64;

/// Rules named at most in an explanation that lists rules.
const RULES_NAMED: usize = 8;

/// A player object given the input's movement, followed through the input's turn.
#[derive(Clone, Debug)]
struct PlayerMove {
    cell: usize,
    layer: usize,
    object: usize,
    dir: u64,
    /// Whether the cell still has movement on the layer.
    present: bool,
    /// The line of the rule that last took it away.
    removed_by: Option<usize>,
}

/// What a traced turn did (see the module's doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    /// The level before the input.
    start: Vec<u64>,
    /// Top-level turns begun: 1 is the input's.
    turn: usize,
    /// Inside a nested turn: hooks do nothing until the next top-level turn.
    muted: bool,
    /// Whether the level differed from `start` after some resolution or turn.
    left_start: bool,
    /// The input's turn: the player's movements.
    players: Vec<PlayerMove>,
    /// The input's turn: the first rule to queue `cancel`, and `restart`.
    cancel: Option<usize>,
    restart: Option<usize>,
    /// The input's turn: movements left after the last resolution (cell, layer, bits).
    blocked: Vec<(usize, usize, u64)>,
    /// The input's turn: movements were resolved (late rules may follow; they change
    /// no movement, and the player's is followed no further).
    resolved: bool,
    /// The input's turn: `require_player_movement` cancelled it.
    unmoved: bool,
    /// Lines of the rules that changed something, in the order they first did.
    changers: Vec<usize>,
    /// Per rule line: the top-level turns it fired in, and the last one.
    fired: BTreeMap<usize, (usize, usize)>,
}

fn dir_name(bits: u64) -> &'static str {
    match bits {
        UP => "up",
        DOWN => "down",
        LEFT => "left",
        RIGHT => "right",
        ACTION => "action",
        _ => "several ways",
    }
}

impl<'c> Machine<'c> {
    /// A copy of this machine's level, for a traced replay: the same level, restart
    /// point and budget, the random generator `rng`, no undo stack (a replay never undoes,
    /// and copying the stack would cost as much as the whole history).
    pub(crate) fn probe(&self, rng: Rng) -> Machine<'c> {
        let mut m = Machine::new(self.c, self.on_win);
        m.watch = self.watch.clone();
        m.keep_undo = false;
        m.load_level(self.level);
        if m.objects.len() == self.objects.len() {
            m.reset_to(&self.objects);
        }
        m.restart_target.clone_from(&self.restart_target);
        m.has_used_checkpoint = self.has_used_checkpoint;
        m.rng = rng;
        m.trace = Some(Box::new(Trace {
            start: self.objects.clone(),
            ..Trace::default()
        }));
        m
    }

    /// Hook: a turn begins (`nested` for a turn run inside another).
    #[cold]
    pub(super) fn trace_turn(&mut self, dir: Option<u64>, nested: bool) {
        let changed = self
            .trace
            .as_ref()
            .is_some_and(|t| !nested && t.turn > 0 && !t.left_start && t.start != self.objects);
        let mut players = vec![];
        if !nested && dir.is_some() && self.trace.as_ref().is_some_and(|t| t.turn == 0) {
            let mut positions = vec![];
            self.player_positions(&mut positions);
            let so = self.c.so;
            for i in positions {
                for &id in &self.c.player_ids {
                    if has_bit(&self.objects[i * so..(i + 1) * so], id) {
                        players.push(PlayerMove {
                            cell: i,
                            layer: self.c.objects[id].layer,
                            object: id,
                            dir: dir.unwrap_or(0),
                            present: true,
                            removed_by: None,
                        });
                    }
                }
            }
        }
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        if nested {
            t.muted = true;
            return;
        }
        t.muted = false;
        t.left_start |= changed;
        t.turn += 1;
        if t.turn == 1 {
            t.players = players;
        }
    }

    /// Hook: rule `r` matched (its commands are about to be queued); `changed` whether
    /// applying it changed the level or its movements.
    #[cold]
    pub(super) fn trace_rule(&mut self, r: &Rule, changed: bool) {
        let sm = self.c.sm;
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        if t.muted {
            return;
        }
        let e = t.fired.entry(r.line).or_insert((0, 0));
        if e.1 != t.turn {
            *e = (e.0 + 1, t.turn);
        }
        if changed && !t.changers.contains(&r.line) && t.changers.len() < RULES_NAMED {
            t.changers.push(r.line);
        }
        if t.turn != 1 {
            return;
        }
        for c in &r.commands {
            match c {
                Cmd::Cancel if t.cancel.is_none() => t.cancel = Some(r.line),
                Cmd::Restart if t.restart.is_none() => t.restart = Some(r.line),
                _ => {}
            }
        }
        if changed && !t.resolved {
            for p in &mut t.players {
                let now = get_layer(&self.movements[p.cell * sm..(p.cell + 1) * sm], p.layer) != 0;
                if p.present && !now {
                    p.removed_by = Some(r.line);
                } else if !p.present && now {
                    p.removed_by = None;
                }
                p.present = now;
            }
        }
    }

    /// Hook: movements resolved; what is left of them was blocked.
    #[cold]
    pub(super) fn trace_resolved(&mut self) {
        let (sm, layers) = (self.c.sm, self.c.layers);
        let Some(t) = self.trace.as_deref_mut() else {
            return;
        };
        if t.muted || t.turn != 1 {
            return;
        }
        t.blocked.clear();
        t.resolved = true;
        for i in 0..self.width * self.height {
            let m = &self.movements[i * sm..(i + 1) * sm];
            if is_zero(m) {
                continue;
            }
            for l in 0..layers {
                let bits = get_layer(m, l);
                if bits != 0 {
                    t.blocked.push((i, l, bits));
                }
            }
        }
        if !t.left_start && t.start != self.objects {
            t.left_start = true;
        }
    }

    /// Hook: `require_player_movement` cancelled the turn.
    #[cold]
    pub(super) fn trace_unmoved(&mut self) {
        if let Some(t) = self.trace.as_deref_mut() {
            if !t.muted && t.turn == 1 {
                t.unmoved = true;
            }
        }
    }

    fn cell_of(&self, i: usize) -> Cell {
        let h = self.height.max(1);
        Cell { x: i / h, y: i % h }
    }

    /// The name of the first object of `layer` in cell `i`.
    fn object_on(&self, i: usize, layer: usize) -> Option<&str> {
        let so = self.c.so;
        let cell = &self.objects[i * so..(i + 1) * so];
        let lm = self.c.layer_mask(layer);
        (0..self.c.objects.len())
            .find(|&o| has_bit(lm, o) && has_bit(cell, o))
            .map(|o| self.c.objects[o].name.as_str())
    }

    /// The chain of blocks from a movement left at `(cell, layer)`: what stood in its
    /// way, and, when that was itself blocked, what stood in its way in turn.
    fn chain(&self, t: &Trace, mut at: (usize, usize, u64), mover: Option<&str>) -> Vec<Block> {
        let mut out: Vec<Block> = vec![];
        let h = self.height as i64;
        let mut name = mover.map(str::to_string);
        let mut seen = vec![];
        loop {
            let (i, l, bits) = at;
            let Some(object) = name
                .take()
                .or_else(|| self.object_on(i, l).map(str::to_string))
            else {
                break;
            };
            let (dx, dy) = delta(bits);
            let (x, y) = ((i as i64) / h, (i as i64) % h);
            let (tx, ty) = (x + dx, y + dy);
            let mut block = Block {
                object,
                at: self.cell_of(i),
                dir: dir_name(bits),
                by: Obstacle::Edge,
            };
            if tx < 0 || ty < 0 || tx >= self.width as i64 || ty >= h {
                out.push(block);
                break;
            }
            let ti = (tx * h + ty) as usize;
            let Some(other) = self.object_on(ti, l) else {
                break;
            };
            block.by = Obstacle::Object {
                name: other.to_string(),
                at: self.cell_of(ti),
            };
            out.push(block);
            // Two objects moving into each other block each other: the chain ends where
            // it comes back.
            seen.push(i);
            let back = seen.contains(&ti);
            match t.blocked.iter().find(|b| b.0 == ti && b.1 == l) {
                Some(&next) if !back && next.2 != ACTION => at = next,
                _ => break,
            }
        }
        out
    }

    /// What became of the player's movement: blocked, or taken away by a rule; `None`
    /// when it moved (or there was none).
    fn player_reason(&self, t: &Trace, source: &str) -> Option<WhyNot> {
        let mut chains = vec![];
        let mut removed = None;
        for p in &t.players {
            if let Some(&b) = t.blocked.iter().find(|b| b.0 == p.cell && b.1 == p.layer) {
                let chain = self.chain(t, b, Some(&self.c.objects[p.object].name));
                if !chain.is_empty() {
                    chains.push(chain);
                }
            } else if let (false, Some(line)) = (p.present, p.removed_by) {
                removed.get_or_insert((p, line));
            }
        }
        if !chains.is_empty() {
            let others = chains.len() - 1;
            return Some(WhyNot::Blocked {
                chain: chains.swap_remove(0),
                others,
            });
        }
        removed.map(|(p, line)| WhyNot::MovementRemoved {
            rule: RuleRef::at(source, line),
            object: self.c.objects[p.object].name.clone(),
            at: self.cell_of(p.cell),
            dir: dir_name(p.dir),
        })
    }

    /// The rules that fired in the last [`STUCK_WINDOW`] top-level turns, in line order.
    fn kept_firing(&self, source: &str) -> Vec<Firing> {
        let Some(t) = self.trace.as_deref() else {
            return vec![];
        };
        t.fired
            .iter()
            .filter(|(_, &(_, last))| last + STUCK_WINDOW > t.turn)
            .map(|(&line, &(turns, _))| Firing {
                rule: RuleRef::at(source, line),
                turns,
            })
            .collect()
    }

    /// The explanation for again turns that never settle, after `again_turns` of them
    /// (`cycle`: a level repeated), once this probe watched `watched` more.
    pub(crate) fn explain_stuck(
        &self,
        again_turns: usize,
        cycle: bool,
        watched: usize,
        source: &str,
    ) -> WhyNot {
        WhyNot::Stuck {
            again_turns,
            cycle,
            watched,
            rules: self.kept_firing(source),
        }
    }

    /// Why the traced input (a direction when `direction`) changed nothing, once it and
    /// its `again_turns` were played (and settled); `None` when it changed the level or
    /// won it.
    pub(crate) fn explain(
        &self,
        direction: bool,
        again_turns: usize,
        source: &str,
    ) -> Option<WhyNot> {
        if let Some(c) = self.watch.as_ref().and_then(|w| w.cutoff) {
            return Some(WhyNot::CutOff {
                limit: c.to_string(),
            });
        }
        let t = self.trace.as_deref()?;
        if self.winning || self.objects != t.start {
            return None;
        }
        let rule = |line| RuleRef::at(source, line);
        // The action key moves nothing, and rules take its movement away to use it.
        let player = direction.then(|| self.player_reason(t, source)).flatten();
        if t.unmoved {
            return Some(WhyNot::PlayerDidNotMove {
                because: player.map(Box::new),
            });
        }
        if let Some(line) = t.cancel {
            return Some(WhyNot::Cancelled { rule: rule(line) });
        }
        if let Some(line) = t.restart {
            return Some(WhyNot::Restarted { rule: rule(line) });
        }
        if let Some(p) = player {
            return Some(p);
        }
        if !direction || t.players.is_empty() {
            if let Some(&b) = t.blocked.first() {
                let chain = self.chain(t, b, None);
                if !chain.is_empty() {
                    return Some(WhyNot::Blocked { chain, others: 0 });
                }
            }
        }
        if direction && t.players.is_empty() {
            return Some(WhyNot::NoPlayer);
        }
        if t.left_start || again_turns > 0 || !t.changers.is_empty() {
            return Some(WhyNot::EndedWhereItStarted {
                changed: t.left_start,
                rules: t.changers.iter().map(|&l| rule(l)).collect(),
                again_turns,
            });
        }
        Some(WhyNot::NothingHappened)
    }
}
