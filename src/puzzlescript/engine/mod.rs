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

mod journal;
mod late;
mod matching;
pub(crate) mod occupancy;
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
    /// Whether a `restart` queued is final: no rule of the game queues `cancel`, the one
    /// command that overrides it ([`Machine::settled`]).
    restart_final: bool,
    /// Whether a turn stops at the command that settles it ([`Machine::settled`]; on by
    /// default, off runs every rule as PuzzleScript does), and the turns it stopped.
    pub(crate) settle_early: bool,
    pub(crate) settles: u64,
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
    /// Where each object is, kept up to date on every write to `objects` (which is why
    /// `objects` changes only through the machine's methods, [`Machine::reset_to`] from
    /// outside), and the cells that may hold movement.
    pub(crate) occ: occupancy::Occupancy,
    /// The writes to `objects` since each open turn began (see `journal.rs`): what
    /// takes a turn back, tells whether it changed the level, and saves it for undo.
    pub(crate) journal: journal::Journal,
    /// Reused buffers.
    positions: Vec<usize>,
    moving: Vec<usize>,
    start: (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>),
    banned: Vec<bool>,
    pub(crate) rows: Vec<Vec<matching::Match>>,
    /// Scratch for finding where rows start (see `matching.rs`), and for combining rows'
    /// matches. Boxed and taken out by its pointer while rows are matched (moving the
    /// struct itself was a `memcpy` per rule tried: 6% of a stick candy search's samples,
    /// some 3% of its time).
    scan: Option<Box<matching::Scan>>,
    tuple: (Vec<usize>, Vec<matching::Match>),
    /// The groups (then the late groups) with a rule whose objects are on the board as
    /// it was when last looked at (`live_board`), or that are to be looked at again
    /// (`stale`: see `matching.rs`).
    live_board: Vec<u64>,
    live_groups: [Vec<u64>; 2],
    stale: [Vec<u64>; 2],
    /// The groups that end a loop (then the late ones).
    loop_ends: [Vec<u64>; 2],
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
    /// What lets a group's later passes skip matches that would change nothing (see
    /// `apply_group`).
    pub(crate) since: Since,
    /// Per late group with a footprint: its last runs on this level (see
    /// [`Machine::replay_late`]).
    pub(crate) late_memo: Vec<late::Runs>,
    /// Whether groups are replayed from the runs remembered (`late.rs`): in play and in
    /// searches (a group whose runs rarely repeat is soon left to run); not in the
    /// fresh session that checks a searched answer.
    pub(crate) late_replay: bool,
    /// Whether blocks of groups are replayed as one (with `late_replay`; off only to
    /// test the groups' replays one by one).
    pub(crate) block_replay: bool,
    /// Late group runs replayed so far.
    pub(crate) late_replays: u64,
    /// Rules looked for on the board so far (part of what a group's run costs, for
    /// `late.rs` to weigh a replay against).
    pub(crate) scans: u64,
    /// Words of cells the runs in `late_memo` hold (each side).
    pub(crate) late_words: usize,
    /// Scratch: the cells of a group's footprint, looked up in its runs.
    pub(crate) late_cells: Vec<u64>,
    /// How many times the level's objects have changed (a word written with a new
    /// value): equal counts mean an unchanged level, without comparing it.
    pub(crate) writes: u64,
    /// The cells whose objects were written since the last [`Machine::reset_to`] or
    /// [`Machine::reset_touched_to`] (a bitset, a superset of the cells that differ):
    /// what a search puts back and packs again, instead of the whole level.
    pub(crate) touched: Vec<u64>,
    /// What the last again trial's rules did, kept for the again turn that follows it
    /// (see [`AgainTrial`]).
    trial: AgainTrial,
    /// Counts the changes [`Machine::queue_commands`] makes to `message`.
    message_sets: u64,
    /// Per rule ([`Rule::slot`]) with [`Rule::deps`]: the occupancy's version when it
    /// was last found to match nowhere (0: not known).
    nowhere: Vec<u64>,
    /// Per win condition: the occupancy's version when it was last tested (0: not
    /// yet), and whether it held.
    win_memo: Vec<(u64, bool)>,
}

/// The rules' part of an again trial (the turn without input PuzzleScript runs, and
/// undoes, to learn whether an `again` would change something), kept to be the rules'
/// part of the again turn that follows it.
///
/// That turn starts from the same level as the trial: the trial leaves the level as it
/// found it, without movement, and `writes` (the level's change count when the trial
/// ended) says nothing wrote to it since. Its rules then do exactly what the trial's did
/// when the game has no randomness (no random rule, object or direction) and no rigid
/// groups (whose bookkeeping a turn carries over): the same objects after the late
/// rules, the same commands queued, the same message, the same runtime warnings. Only
/// what follows the rules (cancel, restart, win, again, undo) differs between a trial and
/// a turn, and that part runs as usual.
#[derive(Clone, Debug, Default)]
struct AgainTrial {
    /// Set when the trial ended with an again turn to come, and kept until a turn
    /// starts (the next one takes it over, or it is dropped).
    valid: bool,
    /// Set when a trial's rules were kept, until it ends.
    pending: bool,
    /// The level's change count when the trial ended.
    writes: u64,
    /// The level's objects after the trial's late rules.
    objects: Vec<u64>,
    /// The commands its rules queued.
    queue: Vec<Cmd>,
    /// The message its rules left, when they changed it.
    message: Option<Option<String>>,
    /// The runtime warnings its rules counted.
    warnings: usize,
}

/// Per cell, the last change a rule made to it (objects or movements): the number of
/// the match application that made it (they are numbered through the machine's life)
/// and, for a one-row rule, where that match was.
#[derive(Clone, Debug, Default)]
pub(crate) struct Since {
    /// The number of the latest match application.
    pub seq: u64,
    /// The match being applied: its start cell and gaps (`u32::MAX` for a rule of
    /// several rows).
    pub key: [u32; 3],
    /// Per cell: the number of the application that last changed it, and its `key`.
    pub cell_seq: Vec<u64>,
    pub cell_key: Vec<[u32; 3]>,
    /// The number of the latest application that changed a cell.
    pub last_change: u64,
    /// Per rule of the group running: the numbers its applications had in the previous
    /// pass (`prev`, a range, empty when none) and in this one (`cur`).
    pub prev: Vec<(u64, u64)>,
    pub cur: Vec<(u64, u64)>,
    /// The cells changed while the group runs, each with the number of the application
    /// that changed it, in order (a cell once per application); entries older than the
    /// previous pass are dropped as each pass begins. `log_full`: some change was not
    /// logged (past [`CHANGE_LOG_CELLS`] per cell), so the log cannot be used until the
    /// next group.
    pub log: Vec<(u64, u32)>,
    pub log_full: bool,
}

/// Log entries [`Since::log`] may hold, per cell of the level.
const CHANGE_LOG_CELLS: usize = 4;

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
            restart_final: !(c.groups.iter().chain(&c.late_groups))
                .flat_map(|g| &g.rules)
                .any(|r| r.commands.iter().any(|m| matches!(m, Cmd::Cancel))),
            settle_early: true,
            settles: 0,
            has_used_checkpoint: false,
            backups: vec![],
            restart_target: vec![],
            level: 0,
            on_win,
            shown: vec![],
            warnings: 0,
            rng: Rng(0x9e37_79b9_7f4a_7c15),
            occ: Default::default(),
            journal: Default::default(),
            positions: vec![],
            moving: vec![],
            start: Default::default(),
            banned: vec![],
            rows: vec![],
            scan: Some(Box::default()),
            tuple: Default::default(),
            live_board: vec![],
            live_groups: Default::default(),
            stale: Default::default(),
            loop_ends: Default::default(),
            keep_undo: true,
            restarted: false,
            trace: None,
            watch: None,
            since: Default::default(),
            late_memo: vec![],
            late_replay: false,
            block_replay: true,
            late_replays: 0,
            scans: 0,
            late_words: 0,
            late_cells: vec![],
            writes: 0,
            touched: vec![],
            trial: AgainTrial::default(),
            message_sets: 0,
            nowhere: vec![],
            win_memo: vec![],
        }
    }

    /// Puts the level back to `objects` between inputs as a search does: no movement,
    /// no queued command, not won, no message shown, no again turn pending.
    pub fn reset_to(&mut self, objects: &[u64]) {
        self.restore(objects);
        self.touched.fill(0);
        self.after_reset();
    }

    /// [`Machine::reset_to`] when the level holds `objects` already on every cell not
    /// touched since the last reset: only the touched cells are written back.
    pub fn reset_touched_to(&mut self, objects: &[u64]) {
        let so = self.c.so;
        for k in 0..self.touched.len() {
            let mut bits = std::mem::take(&mut self.touched[k]);
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for w in 0..so {
                    let at = i * so + w;
                    let (a, b) = (self.objects[at], objects[at]);
                    if a != b {
                        self.journal.log(at, a);
                        self.occ.change(i, w, a ^ b, b);
                        self.objects[at] = b;
                        self.writes += 1;
                    }
                }
            }
        }
        self.after_restore();
        self.after_reset();
    }

    /// Whether the level holds `objects` on every cell touched since the last reset (so
    /// everywhere, when it held them then).
    pub fn touched_equal(&self, objects: &[u64]) -> bool {
        let so = self.c.so;
        self.touched.iter().enumerate().all(|(k, &word)| {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.objects[i * so..(i + 1) * so] != objects[i * so..(i + 1) * so] {
                    return false;
                }
            }
            true
        })
    }

    /// The flags [`Machine::reset_to`] clears.
    fn after_reset(&mut self) {
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
        self.writes += 1;
        self.journal.reloaded();
        self.trial.valid = false;
        let n = self.cells();
        self.touched = vec![0; n.div_ceil(64)];
        self.movements = vec![0; n * self.c.sm];
        self.occ.load(&self.objects, n, self.c.so, self.c.sm);
        self.late_memo.clear();
        self.late_words = 0;
        self.late_memo
            .resize_with(self.c.block_slot(self.c.blocks.len()), Default::default);
        self.scan
            .get_or_insert_with(Default::default)
            .fit(self.c.props, self.occ.nw);
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
        self.set_objects(objects);
        self.after_restore();
    }

    /// What [`Machine::restore`] does besides writing the objects.
    fn after_restore(&mut self) {
        self.clear_movements();
        if !self.c.rigid_groups.is_empty() {
            self.rigid_group.fill(0);
            self.rigid_applied.fill(0);
        }
        self.againing = false;
        self.queue.clear();
    }

    /// Makes the level's objects `objects`, writing only the words that differ.
    fn set_objects(&mut self, objects: &[u64]) {
        for (k, &b) in objects.iter().enumerate().take(self.objects.len()) {
            let a = self.objects[k];
            if a != b {
                self.journal.log(k, a);
                self.put_word(k, a, b);
            }
        }
    }

    /// Writes word `k` of the level, `a` before and `b` after (they differ), without
    /// logging it.
    #[inline]
    fn put_word(&mut self, k: usize, a: u64, b: u64) {
        let so = self.c.so;
        self.occ.change(k / so, k % so, a ^ b, b);
        self.objects[k] = b;
        self.writes += 1;
        if let Some(t) = self.touched.get_mut(k / so / 64) {
            *t |= 1 << (k / so % 64);
        }
    }

    /// Puts the level back as the turn running (the journal's innermost scope) found it,
    /// as [`Machine::restore`] does.
    fn take_back(&mut self) {
        let mut journal = std::mem::take(&mut self.journal);
        journal.take_back(|k, old| {
            let now = self.objects[k];
            if now != old {
                self.put_word(k, now, old);
            }
        });
        self.journal = journal;
        self.after_restore();
    }

    /// Whether the level differs from what the turn running found.
    pub(crate) fn changed_in_turn(&mut self) -> bool {
        let objects = &self.objects;
        self.journal.scope_reloaded()
            || self
                .journal
                .first_writes(objects.len(), |k, old| objects[k] != old)
    }

    /// The level as the turn running found it.
    fn level_at_turn_start(&mut self) -> Vec<u64> {
        let mut then = self.objects.clone();
        self.journal.first_writes(then.len(), |k, old| {
            then[k] = old;
            false
        });
        then
    }

    /// Writes word `w` of cell `i`'s objects; whether it changed.
    #[inline]
    fn write_objects(&mut self, i: usize, w: usize, new: u64) -> bool {
        let so = self.c.so;
        let old = self.objects[i * so + w];
        if old == new {
            return false;
        }
        self.objects[i * so + w] = new;
        self.journal.log(i * so + w, old);
        self.writes += 1;
        if let Some(t) = self.touched.get_mut(i / 64) {
            *t |= 1 << (i % 64);
        }
        self.occ.change(i, w, old ^ new, new);
        self.mark_changed(i);
        true
    }

    /// Notes that the match being applied changed cell `i`.
    #[inline]
    pub(crate) fn mark_changed(&mut self, i: usize) {
        let s = &mut self.since;
        let cells = s.cell_seq.len();
        if let Some(c) = s.cell_seq.get_mut(i) {
            if *c != s.seq {
                if s.log.len() < cells * CHANGE_LOG_CELLS {
                    s.log.push((s.seq, i as u32));
                } else {
                    s.log_full = true;
                }
            }
            *c = s.seq;
            s.cell_key[i] = s.key;
            s.last_change = s.seq;
        }
    }

    /// Clears every movement (only cells that may hold some are visited).
    fn clear_movements(&mut self) {
        let sm = self.c.sm;
        for (k, &word) in self.occ.moving.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.movements[i * sm..(i + 1) * sm].fill(0);
            }
        }
        self.occ.clear_moving();
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
        let (mask, all) = (&self.c.player.0, self.c.player.1);
        for k in 0..self.occ.nw {
            let mut bits = self.occ.word_of(mask, all, k, self.cells());
            while bits != 0 {
                out.push(k * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
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
            self.occ
                .note_moving(i, &self.movements[i * sm..(i + 1) * sm]);
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
        // What the turn writes is logged, to take it back or compare with (turns nest:
        // an `again` trial, a restart's level-start rules).
        self.journal.open();
        let writes = self.writes;
        // An again turn right after its trial: the trial's rules did what this turn's
        // would (see `AgainTrial`).
        let replay = dir.is_none()
            && !dont_modify
            && self.trial.valid
            && self.trial.writes == writes
            && self.trace.is_none();
        self.trial.valid = false;
        // An again trial whose rules an again turn may take over.
        let keep = dont_modify
            && dir.is_none()
            && !self.c.random
            && self.c.rigid_groups.is_empty()
            && self.trace.is_none();
        let (message_sets, warnings) = (self.message_sets, self.warnings);
        if replay {
            let t = std::mem::take(&mut self.trial);
            self.set_objects(&t.objects);
            self.queue.clone_from(&t.queue);
            if let Some(m) = &t.message {
                self.message.clone_from(m);
            }
            self.warnings += t.warnings;
            self.trial = t;
        } else if !self.rules_phase(dir) {
            self.journal.close();
            return false;
        }
        if keep && self.watch.as_ref().is_none_or(|w| w.cutoff.is_none()) {
            let t = &mut self.trial;
            t.objects.clone_from(&self.objects);
            t.queue.clone_from(&self.queue);
            t.message = (self.message_sets != message_sets).then(|| self.message.clone());
            t.warnings = self.warnings - warnings;
            // `valid` and `writes` are set once the trial has put the level back.
            t.pending = true;
        }
        let modified = self.process_queue(writes, dont_modify, dont_do_win, dir.is_some());
        self.journal.close();
        if self.winning {
            self.againing = false;
        }
        modified
    }

    /// The rules' part of a turn: the input's movement, the rules, movement resolution
    /// (rerun for rigid groups), the late rules. `false` when `require_player_movement`
    /// cancelled the turn (the level is then as the turn found it).
    fn rules_phase(&mut self, dir: Option<u64>) -> bool {
        let mut positions = std::mem::take(&mut self.positions);
        positions.clear();
        if let Some(d) = dir {
            self.start_movement(d, &mut positions);
        }
        self.queue.clear();
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
        if rigid {
            banned.resize(self.c.groups.len(), false);
        }
        let mut reruns = 0;
        loop {
            reruns += 1;
            self.apply_rules(false, if rigid { Some(&banned) } else { None });
            if self.settled() {
                self.settles += 1;
                break;
            }
            if self.resolve_movements(&mut banned) {
                self.set_objects(&start.0);
                self.movements.copy_from_slice(&start.1);
                let sm = self.c.sm;
                for i in 0..self.cells() {
                    self.occ
                        .note_moving(i, &self.movements[i * sm..(i + 1) * sm]);
                }
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
            self.take_back();
            self.message = None;
            self.text_mode = false;
            return false;
        }
        true
    }

    fn has(&self, kind: u8) -> bool {
        self.queue.iter().any(|c| c.kind() == kind)
    }

    /// Whether the turn's outcome is settled by a command queued: `cancel` (it puts the
    /// level back whatever else happens, and no later command is queued), or `restart`
    /// when nothing can cancel it. The rest of the turn (the rule groups left, movement,
    /// the late rules) is then not run: it could change only a level about to be put
    /// back. A trace runs everything, so that it shows every rule; and under
    /// `require_player_movement` the turn runs on, since whether the player moved (known
    /// after movement) decides whether the commands are looked at at all.
    #[inline]
    fn settled(&self) -> bool {
        !self.queue.is_empty()
            && self.settle_early
            && self.trace.is_none()
            && !self.c.flags.require_player_movement
            && (self.has(Cmd::Cancel.kind())
                || (self.restart_final && self.has(Cmd::Restart.kind())))
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
        writes: u64,
        dont_modify: bool,
        dont_do_win: bool,
        input: bool,
    ) -> bool {
        if self.has(Cmd::Cancel.kind()) {
            if !dont_modify {
                self.output();
            }
            let left = self.queue.len() > 1;
            self.take_back();
            return left;
        }
        if self.has(Cmd::Restart.kind()) {
            if !dont_modify {
                self.output();
            }
            if self.keep_undo {
                let then = self.level_at_turn_start();
                self.backups.push(then);
            }
            if !dont_modify {
                self.restarted = true;
                self.restart(true);
            }
        }
        let modified = self.writes != writes && self.changed_in_turn();
        if modified {
            if dont_modify {
                self.take_back();
                return true;
            }
            if input && self.keep_undo {
                let then = self.level_at_turn_start();
                self.backups.push(then);
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
                    // The trial's rules, for the again turn to take over.
                    self.trial.valid = self.trial.pending;
                    self.trial.writes = self.writes;
                }
                self.trial.pending = false;
                self.message = message;
            }
        }
        self.queue.clear();
        modified
    }

    /// Whether the win conditions hold. A condition none of whose objects has moved
    /// since it was last tested has the same answer (`win_memo`).
    pub fn conditions_met(&mut self) -> bool {
        let c = self.c;
        if self.win_memo.len() != c.wins.len() {
            self.win_memo = vec![(0, false); c.wins.len()];
        }
        for (w, memo) in c.wins.iter().zip(self.win_memo.iter_mut()) {
            let stamp = &self.occ.stamp;
            let known = memo.0 != 0 && w.deps.iter().all(|&o| stamp[o as usize] <= memo.0);
            if !known {
                *memo = (
                    self.occ.version,
                    Self::condition_holds(&self.occ, self.width * self.height, w),
                );
            }
            if !memo.1 {
                return false;
            }
        }
        true
    }

    /// Whether win condition `w` holds on a board of `n` cells.
    fn condition_holds(o: &occupancy::Occupancy, n: usize, w: &WinCond) -> bool {
        let absent = if w.what.1 {
            !all_in(&w.what.0, &o.board)
        } else {
            !any_common(&w.what.0, &o.board)
        };
        if absent {
            // Nowhere on the board.
            return w.quantifier != 0;
        }
        // Cells where the condition fails (`all`) or holds (`no`, `some`), a word of
        // cells at a time.
        let found = (0..o.nw).any(|k| {
            let what = o.word_of(&w.what.0, w.what.1, k, n);
            if what == 0 {
                return false;
            }
            let on = if w.on_implied {
                u64::MAX
            } else {
                o.word_of(&w.on.0, w.on.1, k, n)
            };
            what & if w.quantifier == 1 { !on } else { on } != 0
        });
        match w.quantifier {
            0 => found,
            _ => !found,
        }
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
            self.message_sets += 1;
        }
        for c in commands {
            if self.has(c.kind()) {
                continue;
            }
            if let Cmd::Message(m) = c {
                self.message = Some(m.clone());
                self.message_sets += 1;
            }
            self.queue.push(c.clone());
        }
    }

    /// Runs the rule groups (late or not), skipping banned ones.
    fn apply_rules(&mut self, late: bool, banned: Option<&[bool]>) {
        let c = self.c;
        // Late groups' runs may be replayed from those remembered (`late.rs`).
        let replaying =
            self.late_replay && self.trace.is_none() && (late || c.rigid_groups.is_empty());
        let (groups, points) = if late {
            (&c.late_groups, &c.late_loop_point)
        } else {
            (&c.groups, &c.loop_point)
        };
        let mut propagated = false;
        let mut loops = 0;
        let mut gi = 0;
        // The block being recorded: its index, last group, and whether it changed anything.
        let mut block: Option<(usize, usize, bool)> = None;
        loop {
            // Groups none of whose rules has its objects on the board are passed over.
            self.refresh_live();
            gi = self.next_group(late, gi);
            if replaying {
                if let Some((b, last, changed)) = block {
                    if gi > last {
                        self.remember_block(b, changed);
                        block = None;
                    }
                }
                if gi < groups.len() && block.is_none() {
                    if let (true, Some(b)) = (self.block_replay, groups[gi].block) {
                        let b = b as usize;
                        match self.replay_block(b, late) {
                            Some(Some(changed)) => {
                                // No group of a block ends a loop: nothing to go back to.
                                propagated = changed || propagated;
                                gi = c.blocks[b].last + 1;
                                continue;
                            }
                            Some(None) => block = Some((b, c.blocks[b].last, false)),
                            None => {}
                        }
                    }
                }
            }
            if gi >= groups.len() {
                break;
            }
            if !banned.is_some_and(|b| b[gi]) && self.group_may_match(late, gi, &groups[gi]) {
                let g = &groups[gi];
                let changed = if replaying {
                    self.apply_remembered_group(c.group_slot(late, gi), g, late)
                } else {
                    self.apply_group(g)
                };
                propagated = changed || propagated;
                if let (true, Some(b)) = (replaying, &mut block) {
                    b.2 |= changed;
                }
                if self.settled() {
                    // A block being recorded is left unrecorded (its run stays invalid).
                    break;
                }
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

    pub(crate) fn apply_group(&mut self, g: &Group) -> bool {
        if g.random {
            return self.apply_random_group(g);
        }
        // The rules before the first whose objects and movements are all on the board
        // do nothing in the first pass (each would stop at that test), and a group with
        // no such rule does nothing at all: it is left before setting up its passes.
        let Some(first_live) = self.first_live(g, 0) else {
            return false;
        };
        let mut any = false;
        let mut passes = 0;
        // After the first pass, a repeatable rule is applied only at the matches that
        // touch a cell changed since the previous pass began. Any other match was found
        // and applied in the previous pass on cells that have not changed since (its
        // cells decide whether it matches, and it still matched when its turn came), so
        // they already hold what it writes and applying it again changes nothing. The
        // rule is still matched in full: its commands are queued as before.
        let track = g.rigid.is_none() && self.trace.is_none();
        let n = self.cells();
        if self.since.cell_seq.len() != n {
            // A new level: every cell as if changed before anything now running.
            self.since.cell_seq = vec![0; n];
            self.since.cell_key = vec![[0; 3]; n];
        }
        let fresh = (u64::MAX, 0);
        self.since.cur.clear();
        self.since.cur.resize(g.rules.len(), fresh);
        self.since.log.clear();
        self.since.log_full = false;
        // The first application number of the pass before the one running.
        let mut pass_start = [self.since.seq + 1; 2];
        loop {
            if let Some(w) = self.watch.as_deref_mut() {
                if w.spend(g.rules.len() * self.width * self.height) {
                    break;
                }
            }
            passes += 1;
            let s = &mut self.since;
            // A later pass reads changes made since the pass before it began, no older.
            pass_start = [pass_start[1], s.seq + 1];
            let old = s.log.partition_point(|e| e.0 < pass_start[0]);
            s.log.drain(..old);
            std::mem::swap(&mut s.prev, &mut s.cur);
            s.cur.clear();
            s.cur.resize(g.rules.len(), fresh);
            let mut changed = false;
            for (ri, r) in g.rules.iter().enumerate() {
                let first = self.since.seq + 1;
                let skip = (track && passes > 1).then(|| self.since.prev[ri]);
                // In the first pass, `first_live` is known to pass the test already.
                let live = match passes {
                    1 => ri == first_live || (ri > first_live && self.may_match_quick(g, ri)),
                    _ => self.may_match_quick(g, ri),
                };
                if live && self.try_apply(r, g.rigid, skip) {
                    changed = true;
                }
                self.since.cur[ri] = (first, self.since.seq);
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
            if !self.may_match(r) {
                continue;
            }
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
        let changed = self.apply_at(r, &t, None, g.rigid);
        if self.trace.is_some() {
            self.trace_rule(r, changed);
        }
        self.queue_commands(&r.commands);
        changed
    }

    /// One pass of `r`, whose objects and movements the caller found on the board
    /// ([`Machine::may_match`]): finds its matches and applies them in order; with
    /// `skip` (a group's later pass: the numbers of `r`'s applications in the pass
    /// before), not those that would change nothing ([`Machine::unchanged_since`]).
    fn try_apply(&mut self, r: &Rule, rigid: Option<u32>, skip: Option<(u64, u64)>) -> bool {
        let skip = if r.repeatable { skip } else { None };
        // A rule that tests no movement and matched nowhere when none of its objects had
        // moved since still matches nowhere.
        let slot = r.slot as usize;
        if let Some(deps) = &r.deps {
            let t = self.nowhere.get(slot).copied().unwrap_or(0);
            if t != 0 && deps.iter().all(|&o| self.occ.stamp[o as usize] <= t) {
                return false;
            }
        }
        let mut rows = std::mem::take(&mut self.rows);
        let n = r.rows.len();
        // In a later pass, a one-row rule without an ellipsis or commands need only be
        // matched where its row covers a cell changed since its previous pass began:
        // every other match would be passed over below (`unchanged_since`), and finding
        // it has no other effect.
        let near = match skip {
            Some(w)
                if n == 1
                    && r.ellipses[0] == 0
                    && r.commands.is_empty()
                    && r.has_rhs
                    && !self.since.log_full =>
            {
                Some(w.0)
            }
            _ => None,
        };
        // Every match is checked again before it is applied, except the rows no
        // application changed since they were found (see `apply_at`).
        let found_at = self.since.seq;
        self.scans += 1;
        let found = match near {
            Some(from) => self.find_matches_near(r, from, &mut rows),
            None => self.find_matches_into(r, &mut rows),
        };
        if !found {
            self.rows = rows;
            if near.is_none() && r.deps.is_some() {
                if self.nowhere.len() <= slot {
                    self.nowhere.resize(slot + 1, 0);
                }
                self.nowhere[slot] = self.occ.version;
            }
            return false;
        }
        let mut changed = false;
        if r.has_rhs {
            if n == 1 {
                for m in rows[0].iter() {
                    let t = std::slice::from_ref(m);
                    if skip.is_some_and(|w| self.unchanged_since(r, t, w)) {
                        continue;
                    }
                    changed |= self.apply_at(r, t, Some(found_at), rigid);
                }
            } else {
                // Every combination, the first row varying fastest.
                let (mut idx, mut t) = std::mem::take(&mut self.tuple);
                idx.clear();
                idx.resize(n, 0);
                t.clear();
                t.extend(rows[..n].iter().map(|m| m[0]));
                loop {
                    if !skip.is_some_and(|w| self.unchanged_since(r, &t, w)) {
                        changed |= self.apply_at(r, &t, Some(found_at), rigid);
                    }
                    let mut k = 0;
                    while k < n {
                        idx[k] += 1;
                        if idx[k] < rows[k].len() {
                            t[k] = rows[k][idx[k]];
                            break;
                        }
                        idx[k] = 0;
                        t[k] = rows[k][0];
                        k += 1;
                    }
                    if k == n {
                        break;
                    }
                }
                self.tuple = (idx, t);
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
        for (k, &word) in self.occ.moving.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !is_zero(&self.movements[i * sm..(i + 1) * sm]) {
                    moving.push(i);
                }
            }
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
        self.clear_movements();
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
            self.write_objects(i, w, self.objects[i * so + w] & !l);
            self.write_objects(t, w, self.objects[t * so + w] | moving);
        }
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

#[cfg(test)]
mod tests {
    use crate::puzzlescript::{Game, Input, OnWin, Session};
    use std::sync::Arc;

    /// A game whose `> Player | Spike` rule queues `command` early in the turn (with a
    /// message), after which rules, movement and late rules (an `again` among them)
    /// would still write to the level.
    fn game(command: &str, extra: &str) -> String {
        format!(
            "title settle\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nCrate\norange\n\nTarget\ngreen\n\nSpike\nred\n\nMark\nblue\n\nGlow\nyellow\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\nX = Spike\n\n=======\nSOUNDS\n=======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget, Spike\nMark\nGlow\nPlayer, Wall, Crate\n\n======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Player | Spike ] -> [ > Player | Spike ] {command} message ouch\n{extra}[ Mark ] -> []\n[ Crate ] -> [ Crate Mark ]\nlate [ Glow ] -> []\nlate [ Crate Target ] -> [ Crate Target Glow ]\nlate [ Player | Crate Target no Mark ] -> [ Player | Crate Target Mark ] again\n\n==============\nWINCONDITIONS\n==============\n\nall Crate on Target\n\n=======\nLEVELS\n=======\n\n#########\n#..X....#\n#.*.O.*.#\n#.P.X.O.#\n#..*..O.#\n#.X...X.#\n#########\n"
        )
    }

    /// A turn stopped at the command that settles it (`cancel`, or `restart` in a game
    /// that never cancels) leaves the level, the turn's outcome and the message as
    /// running every rule does, over a seeded walk with undo and restart; and turns were
    /// stopped, or the test proves nothing.
    #[test]
    fn a_settled_turn_ends_as_running_every_rule() {
        for (command, extra) in [
            ("cancel", ""),
            ("restart", ""),
            // A cancel queued after the restart overrides it: restart does not settle.
            ("restart", "[ > Crate | Wall ] -> cancel\n"),
        ] {
            let text = game(command, extra);
            let (game, _) = Game::load("settle.txt", Arc::new(text)).expect("the game loads");
            let index = game.playable(1).expect("a level");
            let fresh = || {
                let on = Session::new(&game, index, OnWin::Stop).expect("a session");
                let mut off = on.clone();
                off.machine.settle_early = false;
                (on, off)
            };
            let (mut on, mut off) = fresh();
            let mut settles = 0;
            let mut rng = fastrand::Rng::with_seed(0x5e77);
            let inputs = [Input::Up, Input::Left, Input::Down, Input::Right];
            for step in 0..3000 {
                let input = match rng.u32(0..30) {
                    0 => Input::Undo,
                    1 => Input::Restart,
                    k => inputs[k as usize % inputs.len()],
                };
                let (a, b) = (on.input(input), off.input(input));
                let what = format!("{command} {extra:?}: input {step} ({input:?})");
                assert_eq!(a, b, "{what}");
                assert_eq!(on.serialize(), off.serialize(), "{what}");
                assert_eq!(on.machine.message, off.machine.message, "{what}");
                if on.won() || on.machine.text_mode {
                    settles += on.machine.settles;
                    (on, off) = fresh();
                }
            }
            settles += on.machine.settles;
            assert!(settles > 50, "{command}: {settles} turns settled early");
            // A restart settles a turn only in a game that never cancels.
            let never_cancels = command == "restart" && extra.is_empty();
            assert_eq!(on.machine.restart_final, never_cancels, "{extra:?}");
        }
    }
}
