//! The turn, as PuzzleScript's engine plays it.
//!
//! A turn: the player's input becomes movement on the player's layers; the rule groups
//! run in order (each until it changes nothing, `startloop`/`endloop` repeating theirs);
//! movements resolve (each cell's moving layers step into free cells, repeatedly, until
//! nothing more moves); a rigid group whose movement failed is banned and the turn
//! rerun; late rules run; then the commands: `cancel` undoes the turn, `restart`
//! restores the restart point, the win conditions are tested, `checkpoint` moves the
//! restart point, and `again` schedules another turn without input if one would change
//! something.
//!
//! [`Machine`] holds everything a turn reads and writes, as PuzzleScript's engine keeps
//! it between inputs: the level's objects and movements, the command queue, the undo
//! stack, the restart point, and the flags (`againing`, `winning`, text mode).
//!
//! Two optional attachments, each a hook test of an `Option` when absent: a trace
//! (`trace.rs`: what a turn did, to say why it changed nothing) and a watch
//! (`watch.rs`: a time and memory budget checked once per pass of a rule group).

mod matching;
pub(crate) mod trace;
pub(crate) mod watch;

use super::ir::*;
use super::OnWin;

/// At most this many passes of one rule group in one turn (then the engine warns and
/// moves on, as PuzzleScript does).
const GROUP_PASSES: usize = 200;
/// At most this many loop-backs of `startloop`/`endloop` in one rule pass.
const LOOP_PASSES: usize = 200;
/// At most this many reruns of a turn for rigid bodies.
const RIGID_RERUNS: usize = 50;

/// A small deterministic random generator for `random` rules when playing (searches
/// refuse them).
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The engine's state between inputs.
#[derive(Clone, Debug)]
pub(crate) struct Machine<'c> {
    pub c: &'c Compiled,
    pub width: usize,
    pub height: usize,
    /// Objects, `so` words per cell, column-major.
    pub objects: Vec<u64>,
    /// Movements, `sm` words per cell.
    pub movements: Vec<u64>,
    rigid_group: Vec<u64>,
    rigid_applied: Vec<u64>,
    /// The commands queued this turn.
    pub queue: Vec<Cmd>,
    /// The text of the queued message.
    pub message: Option<String>,
    pub againing: bool,
    pub winning: bool,
    pub text_mode: bool,
    restarting: bool,
    has_used_checkpoint: bool,
    /// The undo stack: the objects before each input that changed something.
    pub backups: Vec<Vec<u64>>,
    /// What `restart` returns to.
    pub restart_target: Vec<u64>,
    /// The entry being played.
    pub level: usize,
    pub on_win: OnWin,
    /// Messages shown (with `OnWin::Stop`), in order, since last taken.
    pub shown: Vec<String>,
    /// Runtime warnings (a rule group looping 200 times), counted.
    pub warnings: usize,
    pub rng: Rng,
    /// Objects and movements present somewhere on the board, in each row and in each
    /// column, since the turn began (a superset: only ever added to during a turn).
    pub(crate) seen: Seen,
    /// Reused buffers (see [`Machine::process_input`]).
    pool: Vec<Vec<u64>>,
    positions: Vec<usize>,
    moving: Vec<usize>,
    start: (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>),
    banned: Vec<bool>,
    pub(crate) rows: Vec<Vec<matching::Match>>,
    /// Whether turns push the level onto the undo stack (`false` in a search, which
    /// never undoes and must not grow a stack per turn).
    pub keep_undo: bool,
    /// Set when a turn ran a `restart` command (a search takes such a turn as a dead
    /// end); cleared by [`Machine::reset_to`].
    pub restarted: bool,
    /// What turns do, recorded to say why one changed nothing (`trace.rs`); `None`
    /// except on a copy made to explain a turn.
    pub(crate) trace: Option<Box<trace::Trace>>,
    /// The time and memory budget checked inside turns (`watch.rs`), if any.
    pub(crate) watch: Option<Box<watch::Watch>>,
}

/// What a turn has seen where (supersets of the level's contents).
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    pub map_obj: Vec<u64>,
    pub map_mov: Vec<u64>,
    pub row_obj: Vec<u64>,
    pub row_mov: Vec<u64>,
    pub col_obj: Vec<u64>,
    pub col_mov: Vec<u64>,
}

impl<'c> Machine<'c> {
    /// A machine on no level yet.
    pub fn new(c: &'c Compiled, on_win: OnWin) -> Self {
        Machine {
            c,
            width: 0,
            height: 0,
            objects: vec![],
            movements: vec![],
            rigid_group: vec![],
            rigid_applied: vec![],
            queue: vec![],
            message: None,
            againing: false,
            winning: false,
            text_mode: false,
            restarting: false,
            has_used_checkpoint: false,
            backups: vec![],
            restart_target: vec![],
            level: 0,
            on_win,
            shown: vec![],
            warnings: 0,
            rng: Rng(0x9e37_79b9_7f4a_7c15),
            seen: Seen::default(),
            pool: vec![],
            positions: vec![],
            moving: vec![],
            start: Default::default(),
            banned: vec![],
            rows: vec![],
            keep_undo: true,
            restarted: false,
            trace: None,
            watch: None,
        }
    }

    /// Puts the level back to `objects` between inputs as a search does: no movement,
    /// no queued command, not won, no message shown, no again turn pending.
    pub fn reset_to(&mut self, objects: &[u64]) {
        self.restore(objects);
        self.winning = false;
        self.text_mode = false;
        self.message = None;
        self.restarting = false;
        self.restarted = false;
        self.shown.clear();
    }

    /// Cells on the level.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Loads entry `index` (a message entry leaves the level as it is).
    pub fn load_level(&mut self, index: usize) {
        self.level = index;
        self.againing = false;
        let Some(LevelEntry::Level(l)) = self.c.levels.get(index) else {
            return;
        };
        self.text_mode = false;
        self.width = l.width;
        self.height = l.height;
        self.objects = l.cells.clone();
        let n = self.cells();
        self.movements = vec![0; n * self.c.sm];
        self.rigid_group = vec![0; n * self.c.sm];
        self.rigid_applied = vec![0; n * self.c.sm];
        self.queue.clear();
        self.backups.clear();
        self.restart_target = self.objects.clone();
        if self.c.flags.run_rules_on_level_start {
            self.process_input(None, true, false);
        }
    }

    /// Runs the again turns scheduled, to completion; `false` when they never stop
    /// (`cap` turns, or a state repeated after 64).
    pub fn run_again(&mut self, cap: usize, mut after: impl FnMut(&mut Self)) -> (usize, bool) {
        let mut n = 0;
        let mut seen: Option<std::collections::HashSet<Vec<u64>>> = None;
        while self.againing {
            self.againing = false;
            self.process_input(None, false, false);
            after(self);
            n += 1;
            if n >= 64 && self.againing {
                let s = seen.get_or_insert_with(Default::default);
                if !s.insert(self.objects.clone()) {
                    return (n, false);
                }
            }
            if n >= cap {
                return (n, false);
            }
        }
        (n, true)
    }

    fn restore(&mut self, objects: &[u64]) {
        self.objects.copy_from_slice(objects);
        self.movements.fill(0);
        self.rigid_group.fill(0);
        self.rigid_applied.fill(0);
        self.againing = false;
        self.queue.clear();
    }

    /// Undo (`force` ignores `noundo`; `skip_same` first drops undo states equal to the
    /// level as it is).
    pub fn undo(&mut self, force: bool, skip_same: bool) {
        if self.c.flags.noundo && !force {
            return;
        }
        if skip_same {
            while self.backups.last().is_some_and(|b| b == &self.objects) {
                self.backups.pop();
            }
        }
        if let Some(b) = self.backups.pop() {
            self.restore(&b);
        }
    }

    /// Restart (`force` ignores `norestart`).
    pub fn restart(&mut self, force: bool) {
        if self.restarting || (!force && self.c.flags.norestart) {
            return;
        }
        if self.againing {
            self.undo(force, true);
        }
        self.restarting = true;
        if !force && self.keep_undo {
            self.backups.push(self.objects.clone());
        }
        let target = self.restart_target.clone();
        self.restore(&target);
        if self.c.flags.run_rules_on_level_start {
            self.process_input(None, true, false);
        }
        self.queue.clear();
        self.restarting = false;
    }

    /// The cells holding the player.
    fn player_positions(&self, out: &mut Vec<usize>) {
        let so = self.c.so;
        let (mask, all) = (&self.c.player.0, self.c.player.1);
        for i in 0..self.cells() {
            let cell = &self.objects[i * so..(i + 1) * so];
            if if all {
                all_in(mask, cell)
            } else {
                any_common(mask, cell)
            } {
                out.push(i);
            }
        }
    }

    /// Gives every player object the input's movement.
    fn start_movement(&mut self, dir: u64, positions: &mut Vec<usize>) {
        let so = self.c.so;
        let sm = self.c.sm;
        self.player_positions(positions);
        for &i in positions.iter() {
            for &id in &self.c.player_ids {
                if has_bit(&self.objects[i * so..(i + 1) * so], id) {
                    let layer = self.c.objects[id].layer;
                    or_layer(&mut self.movements[i * sm..(i + 1) * sm], layer, dir);
                }
            }
        }
    }

    /// One turn: `dir` is the input's movement bit, `None` a turn without input.
    /// `dont_do_win` tests the win conditions without winning; `dont_modify` is the
    /// trial of an `again` turn: it reports whether the turn would change something
    /// and leaves the level as it was.
    pub fn process_input(
        &mut self,
        dir: Option<u64>,
        dont_do_win: bool,
        dont_modify: bool,
    ) -> bool {
        self.againing = false;
        if self.trace.is_some() {
            self.trace_turn(dir, dont_do_win || dont_modify);
        }
        // Buffers come from a pool: turns nest (an `again` trial, a restart's level-start
        // rules), and a turn allocates nothing once the pool holds enough.
        let mut bak = self.pool.pop().unwrap_or_default();
        bak.clear();
        bak.extend_from_slice(&self.objects);
        let mut positions = std::mem::take(&mut self.positions);
        positions.clear();
        if let Some(d) = dir {
            self.start_movement(d, &mut positions);
        }
        self.queue.clear();
        self.compute_seen();
        let rigid = !self.c.rigid_groups.is_empty();
        let mut start = std::mem::take(&mut self.start);
        if rigid {
            start.0.clear();
            start.0.extend_from_slice(&self.objects);
            start.1.clear();
            start.1.extend_from_slice(&self.movements);
            start.2.clear();
            start.2.extend_from_slice(&self.rigid_group);
            start.3.clear();
            start.3.extend_from_slice(&self.rigid_applied);
        }
        let mut banned = std::mem::take(&mut self.banned);
        banned.clear();
        banned.resize(self.c.groups.len(), false);
        let mut reruns = 0;
        loop {
            reruns += 1;
            self.apply_rules(false, if rigid { Some(&banned) } else { None });
            if self.resolve_movements(&mut banned) {
                self.objects.copy_from_slice(&start.0);
                self.movements.copy_from_slice(&start.1);
                self.rigid_group.copy_from_slice(&start.2);
                self.rigid_applied.copy_from_slice(&start.3);
                self.queue.clear();
                if reruns >= RIGID_RERUNS {
                    break;
                }
            } else {
                self.apply_rules(true, None);
                break;
            }
        }
        self.start = start;
        self.banned = banned;
        let cancelled = !positions.is_empty() && self.c.flags.require_player_movement && {
            let so = self.c.so;
            !positions
                .iter()
                .any(|&i| !any_common(&self.c.player.0, &self.objects[i * so..(i + 1) * so]))
        };
        self.positions = positions;
        if cancelled {
            if self.trace.is_some() {
                self.trace_unmoved();
            }
            self.restore(&bak);
            self.message = None;
            self.text_mode = false;
            self.pool.push(bak);
            return false;
        }
        let modified = self.process_queue(&bak, dont_modify, dont_do_win, dir.is_some());
        self.pool.push(bak);
        if self.winning {
            self.againing = false;
        }
        modified
    }

    /// What is where, at the start of a turn.
    fn compute_seen(&mut self) {
        let (so, sm, w, h) = (self.c.so, self.c.sm, self.width, self.height);
        let s = &mut self.seen;
        for (v, n) in [
            (&mut s.map_obj, so),
            (&mut s.map_mov, sm),
            (&mut s.row_obj, h * so),
            (&mut s.row_mov, h * sm),
            (&mut s.col_obj, w * so),
            (&mut s.col_mov, w * sm),
        ] {
            v.clear();
            v.resize(n, 0);
        }
        for x in 0..w {
            for y in 0..h {
                let i = x * h + y;
                for k in 0..so {
                    let o = self.objects[i * so + k];
                    s.map_obj[k] |= o;
                    s.row_obj[y * so + k] |= o;
                    s.col_obj[x * so + k] |= o;
                }
                for k in 0..sm {
                    let m = self.movements[i * sm + k];
                    s.map_mov[k] |= m;
                    s.row_mov[y * sm + k] |= m;
                    s.col_mov[x * sm + k] |= m;
                }
            }
        }
    }

    /// Notes that cell `i` now holds what it holds.
    #[inline]
    pub(crate) fn note(&mut self, i: usize) {
        let (so, sm, h) = (self.c.so, self.c.sm, self.height);
        if self.seen.map_obj.len() != so {
            return;
        }
        let (x, y) = (i / h, i % h);
        let s = &mut self.seen;
        for k in 0..so {
            let o = self.objects[i * so + k];
            s.map_obj[k] |= o;
            s.row_obj[y * so + k] |= o;
            s.col_obj[x * so + k] |= o;
        }
        for k in 0..sm {
            let m = self.movements[i * sm + k];
            s.map_mov[k] |= m;
            s.row_mov[y * sm + k] |= m;
            s.col_mov[x * sm + k] |= m;
        }
    }

    fn has(&self, kind: u8) -> bool {
        self.queue.iter().any(|c| c.kind() == kind)
    }

    /// What a shown message does: with `OnWin::Stop` (a player), text mode.
    fn output(&mut self) {
        if self.on_win == OnWin::Stop && self.has(Cmd::Message(String::new()).kind()) {
            self.text_mode = true;
            self.shown.push(self.message.clone().unwrap_or_default());
        }
    }

    fn process_queue(
        &mut self,
        bak: &[u64],
        dont_modify: bool,
        dont_do_win: bool,
        input: bool,
    ) -> bool {
        if self.has(Cmd::Cancel.kind()) {
            if !dont_modify {
                self.output();
            }
            let left = self.queue.len() > 1;
            self.restore(bak);
            return left;
        }
        if self.has(Cmd::Restart.kind()) {
            if !dont_modify {
                self.output();
            }
            if self.keep_undo {
                self.backups.push(bak.to_vec());
            }
            if !dont_modify {
                self.restarted = true;
                self.restart(true);
            }
        }
        let modified = self.objects != bak;
        if modified {
            if dont_modify {
                self.restore(bak);
                return true;
            }
            if input && self.keep_undo {
                self.backups.push(bak.to_vec());
            }
        }
        if dont_modify && (self.has(Cmd::Win.kind()) || self.has(Cmd::Restart.kind())) {
            return true;
        }
        if !dont_modify {
            self.output();
        }
        if !self.text_mode {
            self.check_win(dont_do_win);
        }
        if !self.winning {
            if self.has(Cmd::Checkpoint.kind()) {
                self.restart_target = self.objects.clone();
                self.has_used_checkpoint = true;
            }
            if self.has(Cmd::Again.kind()) && modified {
                let message = self.message.clone();
                if self.process_input(None, true, true) {
                    self.againing = true;
                }
                self.message = message;
            }
        }
        self.queue.clear();
        modified
    }

    /// Whether the win conditions hold.
    pub fn conditions_met(&self) -> bool {
        let so = self.c.so;
        let test = |m: &(Vec<u64>, bool), cell: &[u64]| {
            if m.1 {
                all_in(&m.0, cell)
            } else {
                any_common(&m.0, cell)
            }
        };
        self.c.wins.iter().all(|w| {
            let mut cells = (0..self.cells()).map(|i| &self.objects[i * so..(i + 1) * so]);
            match w.quantifier {
                -1 => !cells.any(|c| test(&w.what, c) && test(&w.on, c)),
                0 => cells.any(|c| test(&w.what, c) && test(&w.on, c)),
                _ => !cells.any(|c| test(&w.what, c) && !test(&w.on, c)),
            }
        })
    }

    /// Tests the win conditions (and a queued `win`).
    pub fn check_win(&mut self, dont_do_win: bool) {
        if self.has(Cmd::Win.kind()) {
            if !dont_do_win {
                self.do_win();
            }
            return;
        }
        if self.c.wins.is_empty() {
            return;
        }
        if self.conditions_met() && !dont_do_win {
            self.do_win();
        }
    }

    fn do_win(&mut self) {
        if self.winning {
            return;
        }
        self.againing = false;
        match self.on_win {
            OnWin::Stop => self.winning = true,
            OnWin::NextLevel => self.next_level(),
        }
    }

    fn next_level(&mut self) {
        self.againing = false;
        self.message = None;
        self.has_used_checkpoint = false;
        if self.level + 1 < self.c.levels.len() {
            self.text_mode = false;
            self.load_level(self.level + 1);
        } else {
            // The title screen: the level stays as it is, in text mode.
            self.level = 0;
            self.text_mode = true;
        }
    }

    /// Queues a matched rule's commands (cancel over restart over the rest; one of each).
    fn queue_commands(&mut self, commands: &[Cmd]) {
        if commands.is_empty() {
            return;
        }
        let cancel = Cmd::Cancel.kind();
        let restart = Cmd::Restart.kind();
        if self.has(cancel) {
            return;
        }
        let here_cancel = commands.iter().any(|c| c.kind() == cancel);
        let here_restart = commands.iter().any(|c| c.kind() == restart);
        if self.has(restart) && !here_cancel {
            return;
        }
        if here_cancel || here_restart {
            self.queue.clear();
            self.message = None;
        }
        for c in commands {
            if self.has(c.kind()) {
                continue;
            }
            if let Cmd::Message(m) = c {
                self.message = Some(m.clone());
            }
            self.queue.push(c.clone());
        }
    }

    /// Runs the rule groups (late or not), skipping banned ones.
    fn apply_rules(&mut self, late: bool, banned: Option<&[bool]>) {
        let c = self.c;
        let (groups, points) = if late {
            (&c.late_groups, &c.late_loop_point)
        } else {
            (&c.groups, &c.loop_point)
        };
        let mut propagated = false;
        let mut loops = 0;
        let mut gi = 0;
        while gi < groups.len() {
            if !banned.is_some_and(|b| b[gi]) {
                propagated = self.apply_group(&groups[gi]) || propagated;
            }
            if propagated {
                if let Some(p) = points[gi] {
                    gi = p;
                    propagated = false;
                    loops += 1;
                    if loops > LOOP_PASSES {
                        self.warnings += 1;
                        break;
                    }
                    continue;
                }
            }
            gi += 1;
        }
    }

    fn apply_group(&mut self, g: &Group) -> bool {
        if g.random {
            return self.apply_random_group(g);
        }
        let mut any = false;
        let mut passes = 0;
        loop {
            if let Some(w) = self.watch.as_deref_mut() {
                if w.spend(g.rules.len() * self.width * self.height) {
                    break;
                }
            }
            passes += 1;
            let mut changed = false;
            for r in &g.rules {
                if self.try_apply(r, g.rigid) {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            any = true;
            if passes >= GROUP_PASSES {
                self.warnings += 1;
                break;
            }
        }
        any
    }

    fn apply_random_group(&mut self, g: &Group) -> bool {
        let mut all: Vec<(usize, Vec<matching::Match>)> = vec![];
        for (ri, r) in g.rules.iter().enumerate() {
            if let Some(rows) = self.find_matches(r) {
                for t in matching::tuples(&rows) {
                    all.push((ri, t));
                }
            }
        }
        if all.is_empty() {
            return false;
        }
        let (ri, t) = all.swap_remove(self.rng.below(all.len()));
        let r = &g.rules[ri];
        let changed = self.apply_at(r, &t, false, g.rigid);
        if self.trace.is_some() {
            self.trace_rule(r, changed);
        }
        self.queue_commands(&r.commands);
        changed
    }

    fn try_apply(&mut self, r: &Rule, rigid: Option<u32>) -> bool {
        let mut rows = std::mem::take(&mut self.rows);
        let n = r.rows.len();
        if !self.find_matches_into(r, &mut rows) {
            self.rows = rows;
            return false;
        }
        let mut changed = false;
        if r.has_rhs {
            if n == 1 {
                for (ti, m) in rows[0].iter().enumerate() {
                    changed |= self.apply_at(r, std::slice::from_ref(m), ti > 0, rigid);
                }
            } else {
                for (ti, t) in matching::tuples(&rows[..n]).into_iter().enumerate() {
                    changed |= self.apply_at(r, &t, ti > 0, rigid);
                }
            }
        }
        self.rows = rows;
        if self.trace.is_some() {
            self.trace_rule(r, changed);
        }
        self.queue_commands(&r.commands);
        changed
    }

    /// Resolves the turn's movements; `true` when a rigid group's movement failed (it
    /// is banned, and the turn must be rerun).
    fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        let n = self.cells();
        let sm = self.c.sm;
        // Passes over the cells in index order until nothing moves. A move never gives a
        // cell movement (the layer steps into its target cell without it), so only the
        // cells that held movement when resolution began are ever visited again.
        let mut moving = std::mem::take(&mut self.moving);
        moving.clear();
        if !is_zero(&self.seen.map_mov) {
            moving.extend((0..n).filter(|&i| !is_zero(&self.movements[i * sm..(i + 1) * sm])));
        }
        loop {
            let mut moved = false;
            for &i in &moving {
                moved |= self.reposition(i);
            }
            if !moved {
                break;
            }
        }
        self.moving = moving;
        let mut undo = false;
        if !self.c.rigid_groups.is_empty() {
            for i in 0..n {
                let m = &self.movements[i * sm..(i + 1) * sm];
                let applied = &self.rigid_applied[i * sm..(i + 1) * sm];
                if is_zero(m) || is_zero(applied) {
                    continue;
                }
                let failed =
                    (0..self.c.layers).find(|&l| get_layer(m, l) & get_layer(applied, l) != 0);
                if let Some(l) = failed {
                    let gi = get_layer(&self.rigid_group[i * sm..(i + 1) * sm], l) as usize;
                    if gi > 0 {
                        let group = self.c.rigid_groups[gi - 1];
                        if !banned[group] {
                            banned[group] = true;
                            undo = true;
                        }
                    }
                }
            }
            self.rigid_group.fill(0);
            self.rigid_applied.fill(0);
        }
        if self.trace.is_some() {
            self.trace_resolved();
        }
        self.movements.fill(0);
        undo
    }

    /// Moves the moving layers of cell `i` that can move.
    fn reposition(&mut self, i: usize) -> bool {
        let sm = self.c.sm;
        if is_zero(&self.movements[i * sm..(i + 1) * sm]) {
            return false;
        }
        let mut moved = false;
        for l in 0..self.c.layers {
            let bits = get_layer(&self.movements[i * sm..(i + 1) * sm], l);
            if bits != 0 && self.reposition_layer(i, l, bits) {
                let (w, s) = layer_slot(l);
                self.movements[i * sm + w] &= !(bits << s);
                moved = true;
            }
        }
        moved
    }

    fn reposition_layer(&mut self, i: usize, layer: usize, bits: u64) -> bool {
        let (dx, dy) = delta(bits);
        let h = self.height as i64;
        let (x, y) = ((i as i64) / h, (i as i64) % h);
        let (tx, ty) = (x + dx, y + dy);
        if tx < 0 || ty < 0 || tx >= self.width as i64 || ty >= h {
            return false;
        }
        let t = (tx * h + ty) as usize;
        let so = self.c.so;
        let lm = self.c.layer_mask(layer);
        if bits != ACTION && any_common(lm, &self.objects[t * so..(t + 1) * so]) {
            return false;
        }
        for (w, &l) in lm.iter().enumerate() {
            let moving = self.objects[i * so + w] & l;
            self.objects[i * so + w] &= !l;
            self.objects[t * so + w] |= moving;
        }
        self.note(t);
        true
    }

    /// PuzzleScript's serialization of the level (`convertLevelToString`): the cells
    /// in storage order (column by column), `width` per line, each the sorted names of
    /// its objects, numbered by first appearance.
    pub fn serialize(&self) -> String {
        let so = self.c.so;
        let mut out = String::new();
        let mut seen: Vec<String> = vec![];
        let n = self.cells();
        for i in 0..n {
            let cell = &self.objects[i * so..(i + 1) * so];
            let mut names: Vec<&str> = self
                .c
                .objects
                .iter()
                .enumerate()
                .filter(|(id, _)| has_bit(cell, *id))
                .map(|(_, o)| o.name.as_str())
                .collect();
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            let key = names.join(" ");
            match seen.iter().position(|s| s == &key) {
                Some(k) => out += &format!("{k},"),
                None => {
                    out += &format!("{key}:{},", seen.len());
                    seen.push(key);
                }
            }
            if (i + 1) % self.width == 0 {
                out.push('\n');
            }
        }
        out
    }
}
