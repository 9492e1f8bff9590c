//! Groups replayed from runs remembered (late groups first, hence the name).
//!
//! A group with a footprint (`compile::footprint`: no movement, randomness or command
//! in its rules) turns the cells of its footprint objects into a result that depends on
//! those cells alone: always in the late phase, where no movement is on the board, and
//! before it while no cell holds a movement its rules require absent or clear
//! (`Group::still`; the engine checks the cells that hold movement). Then its rules read
//! objects alone (every movement test they make is of absence, on a layer with none),
//! and write objects alone (the movements a replacement clears are absent already, and
//! a write of objects leaves the movement of its cell as it was). Many games clear and
//! redraw something every turn (lasers, joins between candies, doors opened by switches,
//! the shores drawn along the walls), from objects that most turns leave where they were; and a search plays several inputs from each
//! level, whose turns start alike. So the engine keeps, per such group, a few runs: the
//! footprint's cells before and after. When a run is about to start from cells it has
//! seen, the objects take the cells they had after it (each change written and logged as
//! a rule's would be), and whether it changed anything is the remembered run's answer.
//! The rules are not matched at all. Games with rigid bodies replay late groups only
//! (their rules may run again from the turn's start).
//!
//! Consecutive groups with footprints, outside loops, are also replayed as one *block*
//! (`ir::Block`, from each of them to the end of their run): a block's run is a function
//! of the cells of its groups' objects as well, and a replay writes only the cells that
//! differ between its start and its end, so shores cleared and drawn again in the same
//! places change nothing. The first group of a block reached (the ones before it could
//! not match) is where its run starts; when some cell holds a movement the block's run
//! could read or clear, its groups run, or are replayed, one by one, and the next group
//! tries the block from there.

use super::Machine;
use crate::puzzlescript::ir::any_common;

/// Runs remembered per group.
const RUNS: usize = 8;

/// One remembered run: the cells of each footprint object before it and after it (`nw`
/// words per object, in footprint order), and whether it changed anything.
#[derive(Clone, Debug, Default)]
struct Run {
    /// Whether it holds a whole run (`before` and `after`).
    valid: bool,
    hash: u64,
    before: Vec<u64>,
    after: Vec<u64>,
    changed: bool,
    /// What running the group cost ([`Machine::work`]).
    work: u64,
}

/// A group's remembered runs, and the one being recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs {
    runs: Vec<Run>,
    /// The slot the next new run takes.
    next: usize,
    /// The slot being recorded (its `before` is set): the group is running.
    pending: Option<usize>,
    /// Lookups and hits since the last check (see [`TRIAL`]), and the runs left to
    /// pass over without a lookup.
    lookups: u32,
    hits: u32,
    /// Of the runs looked up, those that changed something.
    changes: u32,
    /// Since the last check: what the hits saved (the runs' work) less what the lookups
    /// and replays cost, in [`Machine::work`]'s units.
    gain: i64,
    /// [`Machine::work`] when the run being recorded began.
    began: u64,
    skip: u32,
    /// Runs replayed in all.
    replays: u64,
}

/// Lookups after which a group's hits are counted. A lookup costs a hash of its
/// objects' cells, and a miss two copies of them; a hit saves the group's matching,
/// which is dear when it changes things (a laser redrawn cell by cell) and cheap when it
/// finds nothing to do. So a group that found fewer than a quarter of its runs (its
/// objects differ from turn to turn, as a player's do), or whose runs changed nothing
/// half the time, runs [`BACK_OFF`] times without lookups before it is tried again.
const TRIAL: u32 = 32;

/// What a group's run or replay costs, in rough instructions: a rule looked for on a
/// board of `nw` words per bitset, a starting cell tested, a match applied, and a word
/// of objects written (the write, the objects' cells, the journal, the change stamps).
const SCAN: u64 = 32;
const SCAN_WORD: u64 = 8;
const TESTED: u64 = 16;
const APPLIED: u64 = 100;
const WRITE: u64 = 100;
/// A lookup's cost: fixed, and per word of its footprint's cells (gathered, hashed,
/// compared, copied before and after a run).
const LOOKUP: i64 = 60;
const LOOKUP_WORD: i64 = 8;

/// Words of cells the runs of a level may hold in all (8 MiB a side): a hostile game
/// (a huge level, thousands of late groups) keeps no runs beyond it.
const WORDS: usize = 1 << 20;
const BACK_OFF: u32 = 1024;

/// The footprint's cells (`f`'s objects', `nw` words each, in order) into `out`, and
/// their hash.
fn gather(m: &Machine<'_>, f: &[u32], out: &mut Vec<u64>) -> u64 {
    out.clear();
    for &o in f {
        out.extend_from_slice(m.occ.of(o as usize));
    }
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &w in out.iter() {
        h = (h ^ w).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    }
    h
}

impl Machine<'_> {
    /// The work done so far, in rough instructions (see [`SCAN`]): rules looked for,
    /// starting cells tested, matches applied and words of objects written.
    fn work(&self) -> u64 {
        let scan = SCAN + SCAN_WORD * self.occ.nw as u64;
        let tested = self.scan.as_ref().map_or(0, |s| s.tested);
        (self.scans.wrapping_mul(scan))
            .wrapping_add(tested.wrapping_mul(TESTED))
            .wrapping_add(self.since.seq.wrapping_mul(APPLIED))
            .wrapping_add(self.writes.wrapping_mul(WRITE))
    }

    /// Group `g` (its runs in slot `gi`; `late` in the late phase): replayed from a
    /// remembered run where it has a footprint and one started from the cells its
    /// objects have now, else run (and remembered). Outside the late phase, only while
    /// no cell holds a movement its footprint's run could read or clear (`Group::still`):
    /// then its run reads and writes objects alone, as a late group's does.
    #[cold]
    #[inline(never)]
    pub(crate) fn apply_remembered_group(
        &mut self,
        gi: usize,
        g: &crate::puzzlescript::ir::Group,
        late: bool,
    ) -> bool {
        let Some(f) = g.footprint.as_deref() else {
            return self.apply_group(g);
        };
        if !late && g.still.as_deref().is_none_or(|m| self.movement_meets(m)) {
            return self.apply_group(g);
        }
        if let Some(changed) = self.replay_late(gi, f) {
            return changed;
        }
        let changed = self.apply_group(g);
        self.remember_late(gi, f, changed);
        changed
    }

    /// Late group `gi` (footprint `f`) replayed from a run that started from the cells
    /// its footprint objects have now: `Some(changed)`. Otherwise `None`, and the run
    /// about to happen is recorded from here ([`Machine::remember_late`] ends it).
    fn replay_late(&mut self, gi: usize, f: &[u32]) -> Option<bool> {
        let nw = self.occ.nw;
        let memo = self.late_memo.get_mut(gi)?;
        memo.pending = None;
        if memo.skip > 0 {
            memo.skip -= 1;
            return None;
        }
        if memo.lookups == TRIAL {
            // Few hits, runs that mostly change nothing (cheap to run), or hits that
            // saved less than the lookups cost: the group runs for a while.
            if memo.hits * 4 < memo.lookups || memo.changes * 2 < memo.lookups || memo.gain < 0 {
                memo.skip = BACK_OFF;
            }
            (memo.lookups, memo.hits, memo.changes, memo.gain) = (0, 0, 0, 0);
            if memo.skip > 0 {
                return None;
            }
        }
        memo.lookups += 1;
        let began = self.work();
        let mut cur = std::mem::take(&mut self.late_cells);
        let hash = gather(self, f, &mut cur);
        let memo = &mut self.late_memo[gi];
        memo.gain -= LOOKUP + (f.len() * nw) as i64 * LOOKUP_WORD;
        let found = (memo.runs.iter()).position(|r| r.valid && r.hash == hash && r.before == cur);
        let Some(k) = found else {
            let slot = memo.next;
            if memo.runs.len() <= slot {
                let words = f.len() * nw;
                if self.late_words + words > WORDS {
                    memo.skip = u32::MAX;
                    self.late_cells = cur;
                    return None;
                }
                self.late_words += words;
                memo.runs.resize_with(slot + 1, Default::default);
            }
            memo.next = (memo.next + 1) % RUNS;
            let r = &mut memo.runs[slot];
            r.valid = false;
            r.hash = hash;
            r.before.clone_from(&cur);
            memo.pending = Some(slot);
            memo.began = began;
            self.late_cells = cur;
            return None;
        };
        self.late_cells = cur;
        memo.hits += 1;
        memo.replays += 1;
        let run = std::mem::take(&mut memo.runs[k]);
        let so = self.c.so;
        for (k, &o) in f.iter().enumerate() {
            let (w, bit) = (o as usize / 64, 1u64 << (o % 64));
            for j in 0..nw {
                let mut diff = run.before[k * nw + j] ^ run.after[k * nw + j];
                while diff != 0 {
                    let i = j * 64 + diff.trailing_zeros() as usize;
                    diff &= diff - 1;
                    let at = i * so + w;
                    let old = self.objects[at];
                    self.journal.log(at, old);
                    self.put_word(at, old, old ^ bit);
                }
            }
        }
        let changed = run.changed;
        // Saved: the run's work, less the replay's writes.
        let spent = self.work().wrapping_sub(began);
        self.late_memo[gi].gain += run.work as i64 - spent as i64;
        self.late_memo[gi].changes += changed as u32;
        self.late_memo[gi].runs[k] = run;
        self.late_replays += 1;
        Some(changed)
    }

    /// Block `b` (`Compiled::blocks`) replayed from a remembered run where one started
    /// from the cells its objects have now: `Some(Some(changed))`. `Some(None)`: run
    /// its groups, and the run is recorded from here ([`Machine::remember_block`] ends
    /// it). `None`: some cell holds a movement the block's run could read or clear.
    pub(crate) fn replay_block(&mut self, b: usize, late: bool) -> Option<Option<bool>> {
        let c = self.c;
        let block = &c.blocks[b];
        if !late && self.movement_meets(&block.still) {
            return None;
        }
        Some(self.replay_late(c.block_slot(b), &block.footprint))
    }

    /// Ends the recording of block `b`'s run, which changed something if `changed`.
    pub(crate) fn remember_block(&mut self, b: usize, changed: bool) {
        let c = self.c;
        self.remember_late(c.block_slot(b), &c.blocks[b].footprint, changed);
    }

    /// Whether some cell holds a movement bit of `m` (`sm` words).
    fn movement_meets(&self, m: &[u64]) -> bool {
        if !any_common(&self.occ.mov_board, m) {
            return false;
        }
        let sm = self.c.sm;
        (self.occ.moving.iter().enumerate()).any(|(k, &word)| {
            let mut bits = word;
            while bits != 0 {
                let i = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if any_common(&self.movements[i * sm..(i + 1) * sm], m) {
                    return true;
                }
            }
            false
        })
    }

    /// Ends the recording [`Machine::replay_late`] began: group `gi` (footprint `f`)
    /// has just run, and `changed` says whether it changed anything.
    fn remember_late(&mut self, gi: usize, f: &[u32], changed: bool) {
        let cut = (self.watch.as_ref()).is_some_and(|w| w.cutoff.is_some());
        let Some(slot) = (self.late_memo.get_mut(gi)).and_then(|m| m.pending.take()) else {
            return;
        };
        let now = self.work();
        let memo = &mut self.late_memo[gi];
        memo.changes += changed as u32;
        let work = now.wrapping_sub(memo.began);
        let r = &mut memo.runs[slot];
        if cut {
            // A run the budget stopped is no run to replay.
            return;
        }
        r.after.clear();
        for &o in f {
            r.after.extend_from_slice(self.occ.of(o as usize));
        }
        r.changed = changed;
        r.work = work;
        r.valid = true;
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzlescript::{Game, Input, OnWin, Session};
    use std::sync::Arc;

    const HEAD: &str = "title late\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nCrate\norange\n\nTarget\ngreen\n\nGun\nred\n\nBeam\nyellow\n\nDead\nblue\n\nJoinR\npink\n\nJoinD\npink\n\nEdge\npurple\n\nGlow\nwhite\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\nG = Gun\n@ = Crate and Target\nBlocker = Wall or Crate or Gun\nJoin = JoinR or JoinD\n\n=======\nSOUNDS\n=======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nBeam\nJoinR\nJoinD\nEdge\nGlow\nPlayer, Wall, Crate, Gun, Dead\n\n======\nRULES\n======\n\n";

    const TAIL: &str = "\n==============\nWINCONDITIONS\n==============\n\nall Crate on Target\n\n=======\nLEVELS\n=======\n\n##########\n#G.....O.#\n#..*.*.@.#\n#.P.*..O.#\n#G..*.O..#\n#..*..@O.#\n##########\n";

    /// Lasers cleared and drawn again every turn, a beam that kills the player it
    /// crosses, and joins between crates redrawn every turn; outside the late phase,
    /// edges beside targets drawn again every turn, and a glow on every crate on a
    /// target that is not being pushed: it reads the crates' movement, so it must never
    /// be replayed while a crate or the player moves. Groups with footprints side by
    /// side form blocks: the edges (groups 0-1, block 0), the glow (groups 4-5, block 1)
    /// and every late group (block 2).
    const RULES: &str = "[ Edge ] -> []\nright [ Target | no Target ] -> [ Target | Edge ]\n[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Crate | Crate ] -> [ > Crate | > Crate ]\n[ Glow ] -> []\n[ stationary Crate Target ] -> [ Crate Target Glow ]\nlate [ Beam ] -> []\nlate right [ Gun | no Blocker ] -> [ Gun | Beam ]\nlate right [ Beam | no Blocker ] -> [ Beam | Beam ]\nlate [ Player Beam ] -> [ Dead Beam ]\nlate [ Join ] -> []\nlate right [ Crate | Crate ] -> [ Crate JoinR | Crate ]\nlate down [ Crate | Crate ] -> [ Crate JoinD | Crate ]\n";

    /// Two sessions, one replaying (blocks as one if `blocks`, else group by group) and
    /// one not, play the same seeded walk (undo and restart included) and must
    /// serialize alike after every input. Returns the replays per slot (the late
    /// groups', the others', then the blocks'), and in `slots` those of the blocks from
    /// the first group and from the first late group.
    fn walk(blocks: bool, slots: &mut [usize; 2]) -> Vec<u64> {
        let text = format!("{HEAD}{RULES}{TAIL}");
        let (game, _) = Game::load("late.txt", Arc::new(text)).expect("the game loads");
        let index = game.playable(1).expect("a level");
        let fresh = || {
            let mut on = Session::new(&game, index, OnWin::Stop).expect("a session");
            on.machine.late_replay = true;
            on.machine.block_replay = blocks;
            let mut off = on.clone();
            off.machine.late_replay = false;
            (on, off)
        };
        let (mut on, mut off) = fresh();
        let mut replays = vec![];
        let mut count = |on: &Session| {
            let memo = &on.machine.late_memo;
            replays.resize(memo.len(), 0);
            for (r, m) in replays.iter_mut().zip(memo) {
                *r += m.replays;
            }
        };
        let mut rng = fastrand::Rng::with_seed(0x1a7e);
        let inputs = [
            Input::Up,
            Input::Left,
            Input::Down,
            Input::Right,
            Input::Action,
        ];
        for step in 0..4000 {
            let input = match rng.u32(0..40) {
                0 => Input::Undo,
                1 => Input::Restart,
                k => inputs[k as usize % inputs.len()],
            };
            let (a, b) = (on.input(input), off.input(input));
            assert_eq!(a, b, "input {step} ({input:?})");
            assert_eq!(
                on.serialize(),
                off.serialize(),
                "after input {step} ({input:?})"
            );
            if on.won() {
                count(&on);
                (on, off) = fresh();
            }
        }
        count(&on);
        let c = &on.machine.c;
        let ends: Vec<Option<usize>> = (c.groups.iter().chain(&c.late_groups))
            .map(|g| g.block.map(|b| c.blocks[b as usize].last))
            .collect();
        let (one, two, six) = (Some(1), Some(5), Some(6));
        let want = [
            one, None, None, None, two, None, six, six, six, six, six, six, None,
        ];
        assert_eq!(ends, want, "the blocks' last groups");
        let block = |k: usize| c.late_groups.len() + c.groups.len() + k;
        *slots = [
            block(c.groups[0].block.unwrap() as usize),
            block(c.late_groups[0].block.unwrap() as usize),
        ];
        replays
    }

    /// Replaying groups from remembered runs, as blocks or one by one, leaves every
    /// level as running their rules does; and the replays happen, or the test proves
    /// nothing.
    #[test]
    fn replayed_groups_match_running_them() {
        let (late, groups) = (7, 6);
        let mut slots = [0; 2];
        let replays = walk(true, &mut slots);
        for (what, slot) in [("the edges", slots[0]), ("the late rules", slots[1])] {
            assert!(
                replays[slot] > 100,
                "too few replays of {what}: {}",
                replays[slot]
            );
        }
        let replays = walk(false, &mut slots);
        assert!(
            replays[late + groups..].iter().all(|&r| r == 0),
            "blocks off"
        );
        for (what, slot) in [
            ("the edges drawn", late + 1),
            ("the glow cleared", late + 4),
            ("the lasers drawn", 1),
            ("the joins drawn", 5),
        ] {
            assert!(
                replays[slot] > 100,
                "too few replays of {what}: {}",
                replays[slot]
            );
        }
    }
}
