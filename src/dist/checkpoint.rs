//! Checkpoints: each completed layer is written to disk, so a run that was killed goes on
//! from the last complete layer (`--resume`).
//!
//! `DIR/layer-D/worker-W.bin` holds what worker `W` stored in layer `D`: the states in id
//! order, their parent links (solve runs), their ranks, and the run's figures so far
//! (states per layer, goals). A layer is complete once every worker has written its file;
//! then worker 0 writes `DIR/complete` (by renaming a temporary file, so it is whole or
//! absent). Resuming reads layers `0..=D` back, in order, rebuilding each shard with the
//! same ids. Every file starts with a fingerprint of the rules, the level, the job and
//! the cluster shape; a directory of another run is refused.

use std::hash::{Hash, Hasher};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::{Batch, Cluster, DistError, Job, Reader, Shard};
use crate::compile::Model;
use crate::engine::Level;
use crate::engine::StateStore;

const MAGIC: &[u8; 8] = b"puzckpt1";

/// What identifies a run: its checkpoints resume only the same run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunId {
    fingerprint: u64,
    peers: u32,
}

impl RunId {
    /// The identity of a run of `job` on `level` under `model` with `cluster`'s shape.
    pub fn new(model: &Model, level: &Level, job: Job, cluster: &Cluster) -> RunId {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        serde_json::to_string(model)
            .unwrap_or_default()
            .hash(&mut h);
        format!("{level:?}").hash(&mut h);
        job.tag().hash(&mut h);
        cluster.peers().hash(&mut h);
        RunId {
            fingerprint: h.finish(),
            peers: cluster.peers() as u32,
        }
    }
}

pub(crate) fn err(what: impl std::fmt::Display) -> DistError {
    DistError::Checkpoint(what.to_string())
}

fn layer_file(dir: &Path, depth: u32, worker: usize) -> PathBuf {
    dir.join(format!("layer-{depth}"))
        .join(format!("worker-{worker}.bin"))
}

/// Writes the last layer of `shard` (worker `me`'s part of it).
pub(crate) fn save(dir: &Path, id: &RunId, me: usize, shard: &Shard) -> Result<(), DistError> {
    let depth = shard.counts.len() as u32 - 1;
    let path = layer_file(dir, depth, me);
    let mut b = Batch(MAGIC.to_vec());
    b.u64(id.fingerprint);
    b.u32(id.peers);
    b.u32(me as u32);
    b.u32(shard.words as u32);
    b.u32(depth);
    b.u32(shard.counts.len() as u32);
    for &c in &shard.counts {
        b.u64(c);
    }
    b.u64(shard.goal_states);
    b.u32(shard.optimal.map_or(u32::MAX, |o| o));
    let layer = shard.layer();
    b.u32(layer.len() as u32);
    b.u32(!shard.parent.is_empty() as u32);
    let mut s = vec![0u32; shard.words];
    for (k, lid) in layer.clone().enumerate() {
        shard.store.load(lid, &mut s);
        b.words(&s);
        if !shard.parent.is_empty() {
            for v in shard.parent[lid as usize] {
                b.u32(v);
            }
        }
        b.u64(shard.ranks[k]);
    }
    write_file(&path, &b)
}

/// Writes `b` to `path` whole or not at all (a temporary file, synced, then renamed),
/// making its directory first.
pub(crate) fn write_file(path: &Path, b: &Batch) -> Result<(), DistError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| err(format!("{}: {e}", parent.display())))?;
    }
    let tmp = path.with_extension("tmp");
    let write = || -> std::io::Result<()> {
        let mut f = BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(&b.0)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| err(format!("writing {}: {e}", path.display())))
}

/// The bytes of `path`.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, DistError> {
    let mut bytes = vec![];
    std::fs::File::open(path)
        .map(BufReader::new)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| err(format!("{}: {e}", path.display())))?;
    Ok(bytes)
}

/// Checks that `dir`'s last complete step (layer or bucket) belongs to run `id`, and
/// returns it.
pub(crate) fn last_of_run(dir: &Path, id: &RunId) -> Result<u32, DistError> {
    let (depth, fp, peers) = last_complete(dir)?;
    if fp != id.fingerprint || peers != id.peers {
        return Err(err(format!(
            "{} holds a run of other rules, level, job or cluster shape ({peers} workers); \
             this one has {} workers",
            dir.display(),
            id.peers
        )));
    }
    Ok(depth)
}

impl RunId {
    /// Writes the run's identity and worker `me`'s place into a checkpoint header.
    pub(crate) fn header(&self, b: &mut Batch, me: usize) {
        b.u64(self.fingerprint);
        b.u32(self.peers);
        b.u32(me as u32);
    }

    /// Whether a header read back is this run's, for worker `me`.
    pub(crate) fn is_header(&self, r: &mut Reader, me: usize) -> bool {
        (r.u64(), r.u32(), r.u32()) == (self.fingerprint, self.peers, me as u32)
    }
}

/// Marks layer `depth` complete (worker 0, once every worker has saved it) and removes
/// nothing: earlier layers are the shard's history, needed to resume.
pub(crate) fn complete(dir: &Path, id: &RunId, depth: u32) -> Result<(), DistError> {
    let tmp = dir.join("complete.tmp");
    let text = format!("{depth} {:016x} {}\n", id.fingerprint, id.peers);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, dir.join("complete")))
        .map_err(|e| err(format!("writing {}: {e}", dir.join("complete").display())))
}

/// The last complete layer recorded in `dir`.
pub fn last_complete(dir: &Path) -> Result<(u32, u64, u32), DistError> {
    let path = dir.join("complete");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        err(format!(
            "{}: {e}; no layer of this run was completed, so there is nothing to resume",
            path.display()
        ))
    })?;
    let mut parts = text.split_whitespace();
    let bad = || err(format!("{} is damaged", path.display()));
    let depth = parts.next().and_then(|x| x.parse().ok()).ok_or_else(bad)?;
    let fp = parts
        .next()
        .and_then(|x| u64::from_str_radix(x, 16).ok())
        .ok_or_else(bad)?;
    let peers = parts.next().and_then(|x| x.parse().ok()).ok_or_else(bad)?;
    Ok((depth, fp, peers))
}

/// Rebuilds worker `me`'s shard from layers `0..=D` of `dir`, D the last complete one.
pub(crate) fn load(dir: &Path, id: &RunId, me: usize, radix: &[u32]) -> Result<Shard, DistError> {
    let words = radix.len();
    let depth = last_of_run(dir, id)?;
    let mut shard = Shard {
        words,
        store: StateStore::sequential(radix),
        parent: vec![],
        layer_start: vec![0],
        ranks: vec![],
        counts: vec![],
        goal_states: 0,
        optimal: None,
    };
    let mut s = vec![0u32; words];
    for d in 0..=depth {
        let path = layer_file(dir, d, me);
        let bytes = read_file(&path)?;
        let damaged = || err(format!("{} is damaged or of another run", path.display()));
        if bytes.len() < 8 + 8 + 4 * 5 || &bytes[..8] != MAGIC {
            return Err(damaged());
        }
        let mut r = Reader { b: &bytes, at: 8 };
        let header = (r.u64(), r.u32(), r.u32(), r.u32(), r.u32());
        if header != (id.fingerprint, id.peers, me as u32, words as u32, d) {
            return Err(damaged());
        }
        let n = r.u32() as usize;
        if bytes.len() < r.at + n * 8 + 8 + 4 * 3 {
            return Err(damaged());
        }
        shard.counts = (0..n).map(|_| r.u64()).collect();
        shard.goal_states = r.u64();
        let o = r.u32();
        shard.optimal = (o != u32::MAX).then_some(o);
        let (len, parents) = (r.u32() as usize, r.u32() == 1);
        let per = words * 4 + if parents { 16 } else { 0 } + 8;
        if bytes.len() != r.at + len * per {
            return Err(damaged());
        }
        shard.ranks = Vec::with_capacity(len);
        for _ in 0..len {
            r.words(&mut s);
            if shard.store.insert(&s).is_err() {
                return Err(damaged());
            }
            if parents {
                shard.parent.push([r.u32(), r.u32(), r.u32(), r.u32()]);
            }
            shard.ranks.push(r.u64());
        }
        shard.layer_start.push(shard.store.len() as u32);
    }
    Ok(shard)
}
