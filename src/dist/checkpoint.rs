//! Checkpoints: each completed layer is written to disk, so a run that was killed goes on
//! from the last complete layer (`--resume`).
//!
//! `DIR/layer-D/worker-W.bin` holds what worker `W` stored in layer `D`: the states in id
//! order, their parent links (solve runs), their ranks, and the run's figures so far
//! (states per layer, goals). A layer is complete once every worker has written its file;
//! then worker 0 writes `DIR/complete` (by renaming a temporary file, so it is whole or
//! absent). Resuming reads layers `0..=D` back, in order, rebuilding each shard with the
//! same ids.
//!
//! Every file (layers and the cost buckets' snapshots alike) starts with a magic and the
//! format version ([`FORMAT`]), then a fingerprint of the rules, the level, the job and
//! the cluster shape (a directory of another run is refused), and ends with a checksum
//! (XXH64, [`super::digest`]) of all the bytes before it: a file damaged anywhere (a
//! flipped bit, a truncation) is refused before its content is used. What the checksum
//! cannot catch (a file written on purpose) is checked as it is read: every read is
//! bounded, every state word lies in its range and belongs to the worker, every link
//! points at something that exists, and the workers' figures agree with each other.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::digest::{digest, xxh64};
use super::{owner, Batch, Cluster, DistError, Job, Problem, Reader, Shard};
use crate::engine::StateStore;

/// The checkpoint format this puz writes and reads: 2 added the version and the
/// checksum (format 1 files start with `puzckpt1` or `puzbckt1`); 3 identifies the run
/// ([`RunId`]) by an explicit encoding of the level (format 2 hashed its derived `Debug`
/// text, whose bytes no Rust release promises, so its fingerprints are not this one's).
/// A file of another format is refused, saying which.
pub const FORMAT: u32 = 3;

/// Why a checkpoint (`what`: a file) of format `version`, not this puz's, is refused.
fn other_format(what: impl std::fmt::Display, version: u32) -> DistError {
    if version > FORMAT {
        return err(format!(
            "{what} is of checkpoint format {version}, written by a newer puz; this one \
             reads format {FORMAT}"
        ));
    }
    let why = match version {
        1 => "without a checksum",
        _ => "which identified the run by the level's debug text",
    };
    err(format!(
        "{what} was written by an older puz (checkpoint format {version}, {why}); this one \
         reads format {FORMAT}: start the run again without --resume"
    ))
}

const MAGIC: &[u8; 8] = b"puz-ckpt";

/// The first line of `DIR/complete`.
const COMPLETE: &str = "puz-checkpoint";

/// What identifies a run: its checkpoints resume only the same run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunId {
    fingerprint: u64,
    peers: u32,
}

impl RunId {
    /// The identity of a run of `job` on `problem` (its rules and level) with
    /// `cluster`'s shape: a stable digest, the same in every process, build and machine.
    pub fn new<P: Problem>(problem: &P, job: Job, cluster: &Cluster) -> RunId {
        RunId::of(problem.rules().1, problem.level().1, job, cluster.peers())
    }

    /// The identity of a run from the digests of its rules and level, its job and its
    /// workers: XXH64 of their explicit little-endian encoding (rules digest u64, level
    /// digest u64, job tag u32, workers u64), so the value depends on nothing but them.
    fn of(rules: u64, level: u64, job: Job, peers: usize) -> RunId {
        let mut b = Batch::default();
        b.u64(rules);
        b.u64(level);
        b.u32(job.tag());
        b.u64(peers as u64);
        RunId {
            fingerprint: digest(&b.0),
            peers: peers as u32,
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

/// A new file's bytes: `magic` and the format version.
pub(crate) fn begin(magic: &[u8; 8]) -> Batch {
    let mut b = Batch(magic.to_vec());
    b.u32(FORMAT);
    b
}

/// The body of a file read back (after the magic and the version, before the checksum),
/// once its magic, version and checksum are right; `old` is the magic format 1 wrote.
pub(crate) fn open<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    old: &[u8; 8],
    path: &Path,
) -> Result<Reader<'a>, DistError> {
    let p = path.display();
    if bytes.len() >= 8 && &bytes[..8] == old {
        return Err(other_format(p, 1));
    }
    if bytes.len() < 8 + 4 + 8 || &bytes[..8] != magic {
        return Err(err(format!(
            "{p} is damaged or not a puz checkpoint file (it does not start as one)"
        )));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
    if version != FORMAT {
        return Err(other_format(p, version));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if xxh64(body, 0).to_le_bytes() != sum {
        return Err(err(format!(
            "{p} is damaged: its checksum does not match its content"
        )));
    }
    Ok(Reader { b: body, at: 12 })
}

/// Writes the last layer of `shard` (worker `me`'s part of it).
pub(crate) fn save(dir: &Path, id: &RunId, me: usize, shard: &Shard) -> Result<(), DistError> {
    let depth = shard.counts.len() as u32 - 1;
    let path = layer_file(dir, depth, me);
    let mut b = begin(MAGIC);
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
    write_file(&path, b)
}

/// Writes `b` and its checksum to `path` whole or not at all (a temporary file, synced,
/// then renamed), making its directory first.
pub(crate) fn write_file(path: &Path, mut b: Batch) -> Result<(), DistError> {
    let sum = xxh64(&b.0, 0);
    b.u64(sum);
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

/// The text of `DIR/complete` naming step `depth` of the run `fp` of `peers` workers,
/// with its checksum.
fn complete_text(depth: u32, fp: u64, peers: u32) -> String {
    let line = format!("{COMPLETE} {FORMAT} {depth} {fp:016x} {peers}");
    let sum = xxh64(line.as_bytes(), 0);
    format!("{line} {sum:016x}\n")
}

fn write_complete(dir: &Path, text: &str) -> Result<(), DistError> {
    let tmp = dir.join("complete.tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, dir.join("complete")))
        .map_err(|e| err(format!("writing {}: {e}", dir.join("complete").display())))
}

/// Marks layer `depth` complete (worker 0, once every worker has saved it) and removes
/// nothing: earlier layers are the shard's history, needed to resume.
pub(crate) fn complete(dir: &Path, id: &RunId, depth: u32) -> Result<(), DistError> {
    write_complete(dir, &complete_text(depth, id.fingerprint, id.peers))
}

/// Makes an earlier layer `depth` of `dir` the last complete one, so that `--resume`
/// goes on from there (layers are kept; a cost-bucket snapshot keeps only its last).
pub fn rewind(dir: &Path, depth: u32) -> Result<(), DistError> {
    let (last, fp, peers) = last_complete(dir)?;
    if depth > last {
        return Err(err(format!(
            "{} is complete up to {last}, not {depth}",
            dir.display()
        )));
    }
    write_complete(dir, &complete_text(depth, fp, peers))
}

/// The last complete layer (or bucket) recorded in `dir`, with the run's fingerprint and
/// workers.
pub fn last_complete(dir: &Path) -> Result<(u32, u64, u32), DistError> {
    let path = dir.join("complete");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        err(format!(
            "{}: {e}; no layer of this run was completed, so there is nothing to resume",
            path.display()
        ))
    })?;
    let bad = || err(format!("{} is damaged", path.display()));
    let line = text.strip_suffix('\n').ok_or_else(bad)?;
    let parts: Vec<&str> = line.split(' ').collect();
    if parts.len() == 3 && parts.iter().all(|p| !p.is_empty()) {
        return Err(other_format(path.display(), 1));
    }
    let [magic, version, depth, fp, peers, sum] = parts[..] else {
        return Err(bad());
    };
    if magic != COMPLETE {
        return Err(bad());
    }
    let version: u32 = version.parse().map_err(|_| bad())?;
    if version != FORMAT {
        return Err(other_format(path.display(), version));
    }
    let body = &line[..line.len() - sum.len() - 1];
    if u64::from_str_radix(sum, 16).ok() != Some(xxh64(body.as_bytes(), 0)) || sum.len() != 16 {
        return Err(err(format!(
            "{} is damaged: its checksum does not match its content",
            path.display()
        )));
    }
    let depth = depth.parse().map_err(|_| bad())?;
    let fp = u64::from_str_radix(fp, 16).map_err(|_| bad())?;
    let peers = peers.parse().map_err(|_| bad())?;
    Ok((depth, fp, peers))
}

/// What a worker rebuilding its shard checks each state against.
pub(crate) struct Expect<'a> {
    /// The range of each state word.
    pub(crate) radix: &'a [u32],
    /// The start state.
    pub(crate) start: &'a [u32],
    /// Parent links are kept (a solve).
    pub(crate) solve: bool,
}

/// Whether state `s` can be one of worker `me`'s among `peers`: its words in range (a
/// radix of `u32::MAX` is a whole word: any value), its owner `me`.
pub(crate) fn fits(s: &[u32], radix: &[u32], me: usize, peers: usize) -> bool {
    s.iter().zip(radix).all(|(w, &r)| *w < r || r == u32::MAX)
        && (peers == 1 || owner(s, peers) == me)
}

/// Rebuilds worker `me`'s shard from layers `0..=D` of `dir`, D the last complete one.
pub(crate) fn load(dir: &Path, id: &RunId, me: usize, want: &Expect) -> Result<Shard, DistError> {
    let radix = want.radix;
    let words = radix.len();
    let peers = id.peers as usize;
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
        let damaged = |why: &str| {
            err(format!(
                "{} is damaged or of another run: {why}",
                path.display()
            ))
        };
        let mut r = open(&bytes, MAGIC, b"puzckpt1", &path)?;
        let header = (r.u64(), r.u32(), r.u32(), r.u32(), r.u32());
        if header != (id.fingerprint, id.peers, me as u32, words as u32, d) {
            return Err(damaged("its header names another run, worker or layer"));
        }
        let n = r.u32() as usize;
        if n != d as usize + 1 || r.at + n * 8 > r.b.len() {
            return Err(damaged("it counts another number of layers"));
        }
        let counts: Vec<u64> = (0..n).map(|_| r.u64()).collect();
        if counts[..d as usize] != shard.counts[..] {
            return Err(damaged("its layer counts differ from the layers before"));
        }
        let goals = r.u64();
        let o = r.u32();
        let optimal = (o != u32::MAX).then_some(o);
        let optimal_ok = match (shard.optimal, optimal) {
            (Some(a), b) => b == Some(a),
            (None, Some(o)) => o == d,
            (None, None) => true,
        };
        let seen = counts.iter().fold(0u64, |a, &c| a.saturating_add(c));
        if goals < shard.goal_states || goals > seen || !optimal_ok {
            return Err(damaged("its goal figures do not follow the layers before"));
        }
        shard.counts = counts;
        shard.goal_states = goals;
        shard.optimal = optimal;
        // A worker that holds no state yet writes no parent links (flag 0) in a solve.
        let (len, parents) = (r.u32() as usize, r.u32());
        let parents_ok = parents == want.solve as u32 || (len == 0 && parents == 0);
        if !parents_ok || len as u64 > shard.counts[d as usize] {
            return Err(damaged("it holds another job's or too many states"));
        }
        let per = words * 4 + if want.solve { 16 } else { 0 } + 8;
        if Some(r.b.len()) != len.checked_mul(per).and_then(|x| x.checked_add(r.at)) {
            return Err(damaged("its length does not match its count of states"));
        }
        let first = d == 0;
        if first && len != usize::from(peers == 1 || owner(want.start, peers) == me) {
            return Err(damaged("layer 0 is not the start"));
        }
        shard.ranks = Vec::with_capacity(len);
        for _ in 0..len {
            r.words(&mut s);
            if (first && s != want.start) || !fits(&s, radix, me, peers) {
                return Err(damaged("a state is not one of this worker's"));
            }
            if shard.store.insert(&s).is_err() {
                return Err(damaged("a state is stored twice"));
            }
            if want.solve {
                let link = [r.u32(), r.u32(), r.u32(), r.u32()];
                let ok = if first {
                    link == [u32::MAX; 4]
                } else {
                    (link[0] as usize) < peers
                };
                if !ok {
                    return Err(damaged("a parent link points nowhere"));
                }
                shard.parent.push(link);
            }
            let rank = r.u64();
            if rank >= shard.counts[d as usize] {
                return Err(damaged("a rank is past its layer"));
            }
            shard.ranks.push(rank);
        }
        if r.at != r.b.len() {
            return Err(damaged("its length does not match its content"));
        }
        shard.layer_start.push(shard.store.len() as u32);
    }
    Ok(shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::store::hash_words;

    /// A run's identity is written to disk and compared by every later resume, maybe by
    /// another build of puz: it is pinned here, so that a change of how it is computed
    /// (the hash, the encoding, the order of its parts) fails this test rather than
    /// quietly refusing every checkpoint written before. A change on purpose needs a new
    /// [`FORMAT`].
    #[test]
    fn run_identity_is_pinned() {
        let (rules, level) = (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210);
        let solve = RunId::of(rules, level, Job::Solve, 6);
        assert_eq!((solve.fingerprint, solve.peers), (0x80D9_4D78_1C08_AFA3, 6));
        let analyze = RunId::of(rules, level, Job::Analyze, 6);
        assert_eq!(analyze.fingerprint, 0xEE51_9868_71BA_F672);
        assert_eq!(
            RunId::of(rules, level, Job::Solve, 1).fingerprint,
            0xC3D4_700D_8471_9BF7
        );
    }

    /// The worker that owns a state decides whose checkpoint file holds it, and a resume
    /// checks it (`fits`): pinned as the identity is.
    #[test]
    fn state_owners_are_pinned() {
        assert_eq!(hash_words(&[1, 2, 3]), 0x7D8A_FE6E_2838_ACD2);
        let states: [&[u32]; 5] = [&[0], &[1, 2, 3], &[7, 0, 9, 4], &[u32::MAX, 5], &[42]];
        let owners: Vec<usize> = states.iter().map(|s| owner(s, 5)).collect();
        assert_eq!(owners, [2, 4, 3, 1, 0]);
    }

    /// A file of an older format (1 before checksums, 2 before the explicit level
    /// encoding) or a newer one is refused with a message naming it, layers and
    /// `DIR/complete` alike.
    #[test]
    fn other_formats_are_refused_by_name() {
        let refused = |bytes: &[u8]| match open(bytes, MAGIC, b"puzckpt1", Path::new("f")) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted"),
        };
        let of = |version: u32| {
            let mut b = Batch(MAGIC.to_vec());
            b.u32(version);
            b.u64(0);
            b.u64(0);
            b.0
        };
        assert!(refused(b"puzckpt1 and the rest").contains("older puz (checkpoint format 1"));
        let two = refused(&of(2));
        assert!(two.contains("older puz (checkpoint format 2"), "{two}");
        assert!(two.contains("without --resume"), "{two}");
        assert!(refused(&of(4)).contains("format 4, written by a newer puz"));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let complete = |text: &str| {
            std::fs::write(dir.path().join("complete"), text).expect("written");
            last_complete(dir.path()).map_err(|e| e.to_string())
        };
        let two = complete("puz-checkpoint 2 4 0123456789abcdef 2 0123456789abcdef\n");
        assert!(two.unwrap_err().contains("older puz (checkpoint format 2"));
        let one = complete("puz-checkpoint 4 0123456789abcdef\n");
        assert!(one.unwrap_err().contains("older puz (checkpoint format 1"));
        let text = complete_text(4, 0x0123_4567_89AB_CDEF, 2);
        assert_eq!(complete(&text), Ok((4, 0x0123_4567_89AB_CDEF, 2)));
    }
}
