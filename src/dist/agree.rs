//! What every process of a run must agree on before any work: the rule file, the level,
//! the command, the options that shape the search (budgets, checkpoints, and the ones the
//! command line adds: `--engine`, `--search`, `--metric`, `--timeout`) and the version
//! of puz. Each is a *setting*: a key, the text a message shows, and a stable digest
//! ([`super::digest`]) of what must be equal. The handshake ([`super::net::connect`])
//! exchanges them; any difference ends every process with `puz::dist::mismatch` naming
//! it, before a single state is searched.

use super::digest::digest;
use super::{Batch, DistOptions, Job, Problem};
use crate::compile::Model;
use crate::engine::Level;

/// One thing the processes must agree on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Setting {
    /// `rules`, `level`, `command`, `version`, `checkpoint`, or an option's flag
    /// (`--max-states`).
    key: String,
    /// What a message shows of it (a title, a name, an option's value or `none`).
    shown: String,
    /// What must be equal.
    digest: u64,
}

/// Every setting of one process, in a fixed order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    settings: Vec<Setting>,
}

/// The stable digest of compiled rules: XXH64 of their whole serialized form, the model's
/// JSON (every declaration, inline levels included, fields in declaration order; no path,
/// no source positions): text whose bytes serde's derive and JSON fix, unlike a derived
/// `Debug` or `Hash` output. The model holds no hash map, so it is the same in every
/// process and build of the same `Model`.
pub(crate) fn rules_digest(model: &Model) -> u64 {
    digest(serde_json::to_string(model).unwrap_or_default().as_bytes())
}

/// The stable digest of a level's content (board, pieces, goal picture), not its name:
/// XXH64 of [`level_bytes`], never of a derived `Debug` or `Hash` output (neither promises
/// its bytes from one Rust release to the next).
pub(crate) fn level_digest(level: &Level) -> u64 {
    digest(&level_bytes(level))
}

/// A level's content as bytes, field by field, little-endian, every list after its length:
/// rows and columns (u64 each); the tiles (u32 each) and the marks (u32 bit sets) of the
/// board's cells; the pieces' starts (kind, anchor cell, pose: u32 each); the goal
/// picture, absent (u32 0) or present (u32 1, then per cell the kind covering it or
/// `u32::MAX`, and its tile); the picture's poses (`u32::MAX` where none is chosen).
fn level_bytes(level: &Level) -> Vec<u8> {
    let mut b = Batch::default();
    let board = &level.board;
    b.u64(board.rows as u64);
    b.u64(board.cols as u64);
    b.u64(board.tiles.len() as u64);
    for t in &board.tiles {
        b.u32(t.0 as u32);
    }
    b.u64(board.marks.len() as u64);
    for &m in &board.marks {
        b.u32(m);
    }
    b.u64(level.instances.len() as u64);
    for i in &level.instances {
        b.u32(i.piece.0 as u32);
        b.u32(i.cell);
        b.u32(i.pose.0 as u32);
    }
    match &level.picture {
        None => b.u32(0),
        Some(cells) => {
            b.u32(1);
            b.u64(cells.len() as u64);
            for (piece, tile) in cells {
                b.u32(piece.map_or(u32::MAX, |k| k.0 as u32));
                b.u32(tile.0 as u32);
            }
        }
    }
    b.u64(level.picture_poses.len() as u64);
    for p in &level.picture_poses {
        b.u32(p.map_or(u32::MAX, |q| q.0 as u32));
    }
    b.0
}

/// Longest text a setting shows (a long level name is cut).
const SHOWN_MAX: usize = 120;

impl Agreement {
    /// The settings of a run of `job` on `problem` (its rules and level) with `opts` (and
    /// the command line's own, `opts.settings`).
    pub fn of<P: Problem>(problem: &P, job: Job, opts: &DistOptions) -> Agreement {
        let mut a = Agreement::default();
        a.push(
            "version",
            format!("puz {}", env!("CARGO_PKG_VERSION")),
            None,
        );
        let (rules, rules_digest) = problem.rules();
        a.push("rules", rules, Some(rules_digest));
        let (level, level_digest) = problem.level();
        a.push("level", level, Some(level_digest));
        let command = match job {
            Job::Solve => "solve",
            Job::Analyze => "analyze",
        };
        a.push("command", command.into(), None);
        let none = || "none".to_string();
        a.push(
            "--max-states",
            opts.max_states.map_or_else(none, |n| n.to_string()),
            None,
        );
        a.push(
            "--max-memory",
            opts.max_bytes.map_or_else(none, |b| {
                if b % (1 << 20) == 0 {
                    (b >> 20).to_string()
                } else {
                    format!("{b} bytes")
                }
            }),
            None,
        );
        // Checkpoints add rounds (every worker writes, then all wait for each other), so
        // whether there are any must agree; the directory may differ between machines.
        let (mode, shown) = match (&opts.checkpoint, opts.resume) {
            (None, _) => ("off", "without --checkpoint or --resume".to_string()),
            (Some(d), false) => ("write", format!("with --checkpoint {}", d.display())),
            (Some(d), true) => ("resume", format!("with --resume {}", d.display())),
        };
        a.push("checkpoint", shown, Some(digest(mode.as_bytes())));
        for (k, v) in &opts.settings {
            a.push(k, v.clone(), None);
        }
        a
    }

    fn push(&mut self, key: &str, shown: String, d: Option<u64>) {
        let digest = d.unwrap_or_else(|| digest(shown.as_bytes()));
        let mut shown = shown;
        if shown.len() > SHOWN_MAX {
            let mut cut = SHOWN_MAX;
            while !shown.is_char_boundary(cut) {
                cut -= 1;
            }
            shown.truncate(cut);
            shown.push('…');
        }
        self.settings.push(Setting {
            key: key.to_string(),
            shown,
            digest,
        });
    }

    /// The settings as bytes, for the handshake.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut b = vec![];
        b.extend_from_slice(&(self.settings.len() as u32).to_le_bytes());
        for s in &self.settings {
            for text in [&s.key, &s.shown] {
                b.extend_from_slice(&(text.len() as u32).to_le_bytes());
                b.extend_from_slice(text.as_bytes());
            }
            b.extend_from_slice(&s.digest.to_le_bytes());
        }
        b
    }

    /// Settings read back from [`Agreement::encode`]'s bytes; `None` if they are not.
    pub(crate) fn decode(b: &[u8]) -> Option<Agreement> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Option<&[u8]> {
            let s = b.get(at..at.checked_add(n)?)?;
            at += n;
            Some(s)
        };
        let u32_of = |s: &[u8]| u32::from_le_bytes(s.try_into().unwrap_or_default());
        let n = u32_of(take(4)?) as usize;
        if n > 4096 {
            return None;
        }
        let mut settings = Vec::with_capacity(n);
        for _ in 0..n {
            let mut texts = vec![];
            for _ in 0..2 {
                let len = u32_of(take(4)?) as usize;
                texts.push(String::from_utf8(take(len)?.to_vec()).ok()?);
            }
            let digest = u64::from_le_bytes(take(8)?.try_into().ok()?);
            let shown = texts.pop()?;
            let key = texts.pop()?;
            settings.push(Setting { key, shown, digest });
        }
        (at == b.len()).then_some(Agreement { settings })
    }

    /// What differs between this process (`me`) and process `peer`, whose settings are
    /// `other`: one phrase per difference, worded the same in both processes (the
    /// higher-numbered process named first).
    pub(crate) fn differences(&self, me: usize, other: &Agreement, peer: usize) -> Vec<String> {
        let (hi, lo, hs, ls) = if peer > me {
            (peer, me, other, self)
        } else {
            (me, peer, self, other)
        };
        let keys = |a: &Agreement| a.settings.iter().map(|s| s.key.clone()).collect::<Vec<_>>();
        let builds = keys(hs) != keys(ls);
        // Settings both check, by key (a command checks options another does not).
        let mut out = vec![];
        for h in &hs.settings {
            let Some(l) = ls.settings.iter().find(|l| l.key == h.key) else {
                continue;
            };
            if h.digest == l.digest {
                continue;
            }
            out.push(match h.key.as_str() {
                "rules" => {
                    let what = if h.shown == l.shown {
                        format!(
                            "both {}, rules digests {:016x} and {:016x}",
                            h.shown, h.digest, l.digest
                        )
                    } else {
                        format!("{} and {}", h.shown, l.shown)
                    };
                    format!("process {hi} runs another rule file than process {lo} ({what})")
                }
                "level" => {
                    let what = if h.shown == l.shown {
                        format!("both named {}, with other content", h.shown)
                    } else {
                        format!("{} and {}", h.shown, l.shown)
                    };
                    format!("process {hi} runs another level than process {lo} ({what})")
                }
                "command" => format!(
                    "process {hi} runs `puz {}`, process {lo} `puz {}`",
                    h.shown, l.shown
                ),
                "version" => format!("process {hi} runs {}, process {lo} {}", h.shown, l.shown),
                "checkpoint" => format!("process {hi} runs {}, process {lo} {}", h.shown, l.shown),
                key => format!(
                    "process {hi} has {key} {}, process {lo} {}",
                    h.shown, l.shown
                ),
            });
        }
        if out.is_empty() && builds {
            let version = |a: &Agreement| {
                a.settings
                    .iter()
                    .find(|s| s.key == "version")
                    .map_or("another puz".to_string(), |s| s.shown.clone())
            };
            out.push(format!(
                "process {hi} ({}) and process {lo} ({}) check different settings: \
                 they run different builds of puz",
                version(hs),
                version(ls)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{PieceId, PoseId, TileId};
    use crate::engine::{Board, Instance};

    /// A level with every part the digest reads: tiles, marks, a piece, a goal picture
    /// with a pose.
    fn level() -> Level {
        Level {
            name: "pinned".into(),
            board: Board {
                rows: 1,
                cols: 3,
                tiles: vec![TileId(0), TileId(1), TileId(0)],
                marks: vec![0, 1, 0b10],
            },
            instances: vec![Instance {
                piece: PieceId(0),
                cell: 2,
                pose: PoseId(1),
            }],
            picture: Some(vec![
                (None, TileId(0)),
                (Some(PieceId(0)), TileId(1)),
                (None, TileId(0)),
            ]),
            picture_poses: vec![None, Some(PoseId(1)), None],
        }
    }

    /// The level's digest is part of a run's identity, written into its checkpoints
    /// (see `checkpoint::RunId`): pinned, so that a change of its encoding or hash fails
    /// here. It reads the content, not the name.
    #[test]
    fn level_digest_is_pinned() {
        let a = level();
        assert_eq!(level_digest(&a), 0x29F5_F6C4_99E2_276A);
        let mut b = level();
        b.name = "another name".into();
        assert_eq!(level_digest(&b), level_digest(&a));
        b.board.marks[0] = 1;
        assert_ne!(level_digest(&b), level_digest(&a));
        let mut c = level();
        c.picture = None;
        c.picture_poses.clear();
        assert_ne!(level_digest(&c), level_digest(&a));
    }

    fn agreement(pairs: &[(&str, &str)]) -> Agreement {
        let mut a = Agreement::default();
        for (k, v) in pairs {
            a.push(k, v.to_string(), None);
        }
        a
    }

    #[test]
    fn settings_travel_and_differences_are_named_alike_on_both_sides() {
        let a = agreement(&[("command", "solve"), ("--max-states", "none")]);
        let b = agreement(&[("command", "solve"), ("--max-states", "5")]);
        assert_eq!(Agreement::decode(&a.encode()), Some(a.clone()));
        assert_eq!(Agreement::decode(&a.encode()[..5]), None);
        let d0 = a.differences(0, &b, 1);
        let d1 = b.differences(1, &a, 0);
        assert_eq!(d0, vec!["process 1 has --max-states 5, process 0 none"]);
        assert_eq!(d0, d1);
        assert!(a.differences(0, &a, 1).is_empty());
        let c = agreement(&[("command", "solve")]);
        assert!(a.differences(0, &c, 1)[0].contains("different builds"));
    }
}
