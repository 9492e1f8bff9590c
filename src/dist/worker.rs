//! What the workers of both searches (by layers, by cost buckets) share: the stop flags
//! they agree on, how much they stream mid-round, an expansion that a panic cannot take
//! down alone, the errors a broken state or link becomes, and the walk back along parent
//! links to the start.

use super::checkpoint;
use super::rounds::Rounds;
use super::wire::{Batch, Reader};
use super::{DistError, DistOptions};
use crate::compile::Action;
use crate::engine::budget::Cutoff;
use crate::engine::Successors;
use crate::search::Space;
/// Bits of the stop flags of round 3, most urgent first.
pub(super) const STOP_STATES: u32 = 1;
pub(super) const STOP_TIME: u32 = 2;
pub(super) const STOP_MEMORY: u32 = 4;
/// A state could not be expanded: the expander panicked on it (caught, so that every
/// worker stops alike instead of the others waiting for the one that failed).
pub(super) const STOP_BROKEN: u32 = 8;

/// Expands `s` into `succ`; `false` when the expander panicked on it.
pub(super) fn expand<S: Space>(exp: &mut S, s: &[u32], succ: &mut Successors) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Space::successors(exp, s, succ)
    }))
    .is_ok()
}

/// The error of a run whose workers agreed a state could not be expanded: after a
/// resume, the checkpoint's states are not of these rules and level; otherwise a bug.
pub(super) fn broken(opts: &DistOptions) -> DistError {
    match (&opts.checkpoint, opts.resume) {
        (Some(dir), true) => checkpoint::err(format!(
            "a state read back from {} cannot be expanded: the checkpoint is damaged or not \
             of these rules and level",
            dir.display()
        )),
        _ => DistError::Worker("the expander failed on a state".into()),
    }
}

/// The budget that stopped a run, from the stop flags all workers agreed on.
pub(super) fn cutoff_of(flags: u32, opts: &DistOptions) -> Cutoff {
    if flags & STOP_STATES != 0 {
        Cutoff::States(opts.max_states.unwrap_or(0))
    } else if flags & STOP_MEMORY != 0 {
        Cutoff::Memory(opts.max_bytes.unwrap_or(0))
    } else {
        Cutoff::Time
    }
}

/// Bytes of successors a worker gathers for all others before sending a batch mid-round
/// (each batch at least [`STREAM_MIN`]): smaller batches cost more per byte in timely.
pub(super) const STREAM_BYTES: usize = 16 << 20;
pub(super) const STREAM_MIN: usize = 256 << 10;

/// The path to state `lid` of worker `holder`: its parent links (parent's worker,
/// parent's id, action, successor index) followed back to the start, one round per move.
/// `Err` (on every worker alike) when a link points at no state or the path grows past
/// `most` moves: links read back from a checkpoint that does not hold together.
pub(super) fn walk_back(
    net: &mut Rounds,
    parent: &[[u32; 4]],
    mut holder: usize,
    mut lid: u32,
    most: u64,
) -> Result<Vec<(Action, u32)>, ()> {
    let mut actions = vec![];
    loop {
        let mut mine = Batch::default();
        if holder == net.me {
            if let Some(link) = parent.get(lid as usize) {
                mine.words(link);
            }
        }
        let all = net.all_gather(&mine);
        let mut r = Reader {
            b: all.get(holder).map_or(&[][..], |b| &b[..]),
            at: 0,
        };
        let (pw, pid, act, idx) = (r.u32(), r.u32(), r.u32(), r.u32());
        if r.overran() {
            return Err(());
        }
        if pw == u32::MAX {
            break;
        }
        if pw as usize >= net.peers || actions.len() as u64 >= most {
            return Err(());
        }
        actions.push((Action::from_raw(act), idx));
        (holder, lid) = (pw as usize, pid);
    }
    actions.reverse();
    Ok(actions)
}

/// The error of a run whose workers found its parent links broken: after a resume,
/// the checkpoint's; otherwise a bug.
pub(super) fn unlinked(opts: &DistOptions) -> DistError {
    match (&opts.checkpoint, opts.resume) {
        (Some(dir), true) => checkpoint::err(format!(
            "the path to the goal cannot be followed back through the parent links read \
             from {}: the checkpoint is damaged or not of these rules and level",
            dir.display()
        )),
        _ => DistError::Worker("a parent link points at no state".into()),
    }
}
