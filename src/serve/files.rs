//! The files `puz serve` may read and write: `.puz` files inside the directory it was
//! started on (or that one file), never a path that leaves it.
//!
//! A request names a file by a path relative to the root with `/` separators, read and
//! written alike:
//! - `.` components and empty ones (`sub//a.puz`) are dropped: `./a.puz`, `sub/./a.puz`
//!   and `sub//a.puz` name `a.puz` and `sub/a.puz`;
//! - refused (403): an absolute path (leading `/`), any `..` component (even one that
//!   stays inside, such as `sub/../a.puz`: a file is named by its path from the root),
//!   a hidden component (`.git/a.puz`, `.a.puz`: hidden names are neither listed nor
//!   served), a backslash, `:` or NUL, a name not ending in `.puz`;
//! - the file, once every symlink is resolved, must still be inside the root. A file that
//!   does not exist yet may be created only when its directory, resolved, is inside the
//!   root; an existing symlink is never written through.
//! - a `.txt` file is listed, read and written only when it is a PuzzleScript game
//!   ([`crate::puzzlescript::looks_like_puzzlescript`]): read when its text is one,
//!   written when the new text is one and the file, if it exists, is one already. Other
//!   `.txt` files (notes, logs) are neither listed nor served nor overwritten.
//!
//! A file read carries its [`version`] (a hash of its bytes); a write may name the version
//! it was edited from, or ask for a file that does not exist yet ([`Expect`]), and is
//! refused (409) when the file on disk is no longer that: another program changed it, or
//! a "Save as" would overwrite a file.

use std::path::{Path, PathBuf};

use super::ApiError;

/// Files larger than this are neither listed for editing nor read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Listing stops after this many files, so a huge tree cannot stall the page.
const MAX_LISTED: usize = 2000;

/// The served root.
#[derive(Debug, Clone)]
pub struct Files {
    /// The directory, canonical.
    root: PathBuf,
    /// When `puz serve FILE.puz` was started on one file: its name inside `root`.
    single: Option<String>,
}

/// One listed file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Listed {
    /// Its path relative to the root, with `/` separators.
    pub path: String,
    /// Its size.
    pub bytes: u64,
}

impl Files {
    /// The files under `path`: a directory, or a single `.puz` file (then only that file
    /// can be read or written).
    pub fn new(path: &Path) -> std::io::Result<Files> {
        let canon = path.canonicalize()?;
        if canon.is_dir() {
            return Ok(Files {
                root: canon,
                single: None,
            });
        }
        let root = canon
            .parent()
            .map(Path::to_path_buf)
            .ok_or_else(|| std::io::Error::other("a file without a directory"))?;
        let name = canon
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| std::io::Error::other("the file name is not UTF-8"))?
            .to_string();
        Ok(Files {
            root,
            single: Some(name),
        })
    }

    /// The root directory, for the page's title.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file the page opens first: the single file, or `bloxorz.puz` when present, or
    /// the first listed.
    pub fn initial(&self, listed: &[Listed]) -> Option<String> {
        if let Some(s) = &self.single {
            return Some(s.clone());
        }
        listed
            .iter()
            .find(|l| l.path == "bloxorz.puz")
            .or(listed.first())
            .map(|l| l.path.clone())
    }

    /// Every `.puz` file under the root, sorted by path (symlinks are not followed).
    pub fn list(&self) -> Vec<Listed> {
        if let Some(s) = &self.single {
            let bytes = std::fs::metadata(self.root.join(s)).map_or(0, |m| m.len());
            return vec![Listed {
                path: s.clone(),
                bytes,
            }];
        }
        let mut out = vec![];
        let mut stack = vec![(self.root.clone(), String::new())];
        while let Some((dir, rel)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let Ok(name) = e.file_name().into_string() else {
                    continue;
                };
                if name.starts_with('.') || name == "target" {
                    continue;
                }
                let Ok(ft) = e.file_type() else { continue };
                let path = if rel.is_empty() {
                    name.clone()
                } else {
                    format!("{rel}/{name}")
                };
                if ft.is_dir() {
                    if path.matches('/').count() < 8 {
                        stack.push((e.path(), path));
                    }
                } else if ft.is_file() && name.ends_with(".puz") {
                    let bytes = e.metadata().map_or(0, |m| m.len());
                    out.push(Listed { path, bytes });
                } else if ft.is_file() && name.ends_with(".txt") {
                    let bytes = e.metadata().map_or(0, |m| m.len());
                    if bytes <= MAX_FILE_BYTES && is_game_file(&e.path()) {
                        out.push(Listed { path, bytes });
                    }
                }
                if out.len() >= MAX_LISTED {
                    break;
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// The file at `rel`: its path from the root (normalized, see the module) and text.
    pub fn read(&self, rel: &str) -> Result<(String, String), ApiError> {
        let (name, path) = self.resolve(rel)?;
        if name.ends_with(".txt") && !is_game_file(&path) {
            return Err(not_a_game(rel));
        }
        let meta = std::fs::metadata(&path)
            .map_err(|_| ApiError::not_found(format!("no file {rel:?} in the served directory")))?;
        if !meta.is_file() {
            return Err(ApiError::not_found(format!("{rel:?} is not a file")));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ApiError::too_large(format!(
                "{rel:?} has {} bytes; the playground edits files up to {MAX_FILE_BYTES}",
                meta.len()
            )));
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| ApiError::not_found(format!("{rel:?} cannot be read: {e}")))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| ApiError::bad_request(format!("{rel:?} is not UTF-8 text")))?;
        if name.ends_with(".txt") && !crate::puzzlescript::looks_like_puzzlescript(&text) {
            return Err(not_a_game(rel));
        }
        Ok((name, text))
    }

    /// Writes `text` to the file at `rel` (created when missing) when the file on disk is
    /// what `expect` says; returns its path from the root (normalized), its size and its
    /// new version.
    pub fn write(
        &self,
        rel: &str,
        text: &str,
        expect: &Expect,
    ) -> Result<(String, u64, String), ApiError> {
        let (name, path) = self.resolve(rel)?;
        let on_disk = std::fs::read(&path).ok().map(|bytes| version(&bytes));
        match (expect, &on_disk) {
            (Expect::Any, _) | (Expect::Missing, None) => {}
            (Expect::Version(v), Some(now)) if v == now => {}
            (Expect::Missing, Some(now)) => {
                return Err(ApiError::conflict(format!(
                    "{name:?} already exists; pick another name, or overwrite it on purpose"
                ))
                .with("version", now.clone().into()))
            }
            (Expect::Version(_), Some(now)) => {
                return Err(ApiError::conflict(format!(
                    "{name:?} changed on disk since the page loaded it (another program \
                     wrote it); not saved, so that change is not lost: reload the file, or \
                     save your text under another name"
                ))
                .with("version", now.clone().into()))
            }
            (Expect::Version(_), None) => {
                return Err(ApiError::conflict(format!(
                    "{name:?} was deleted or renamed on disk since the page loaded it; not \
                     saved: save it again to create it, or under another name"
                ))
                .with("version", serde_json::Value::Null))
            }
        }
        if name.ends_with(".txt")
            && (!crate::puzzlescript::looks_like_puzzlescript(text)
                || (path.exists() && !is_game_file(&path)))
        {
            return Err(not_a_game(rel));
        }
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            if !meta.is_file() {
                return Err(ApiError::forbidden(format!(
                    "{rel:?} is not a regular file; only regular .puz files are written"
                )));
            }
        }
        std::fs::write(&path, text)
            .map_err(|e| ApiError::forbidden(format!("{rel:?} cannot be written: {e}")))?;
        Ok((name, text.len() as u64, version(text.as_bytes())))
    }

    /// `rel` normalized (`.` and empty components dropped) and its path inside the root,
    /// or why it is refused.
    fn resolve(&self, rel: &str) -> Result<(String, PathBuf), ApiError> {
        let refuse = |why: &str| {
            ApiError::forbidden(format!(
                "{rel:?} is refused: {why}; the playground reads and writes only .puz files \
                 inside the served directory, named by their path from it"
            ))
        };
        if rel.is_empty() || rel.len() > 4096 {
            return Err(refuse("not a file name"));
        }
        if !rel.ends_with(".puz") && !rel.ends_with(".txt") {
            return Err(refuse("not a .puz file"));
        }
        if rel.contains('\\') || rel.contains('\0') || rel.contains(':') {
            return Err(refuse(
                "it contains a character paths may not use here (\\, : or NUL)",
            ));
        }
        if rel.starts_with('/') {
            return Err(refuse(
                "it is an absolute path; paths start at the served directory",
            ));
        }
        let mut parts: Vec<&str> = vec![];
        for part in rel.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    return Err(refuse(
                        "it has a \"..\" component, which is not accepted even when the \
                         path stays inside",
                    ))
                }
                p if p.starts_with('.') => {
                    return Err(refuse(&format!(
                        "it has a hidden component ({p:?}); hidden files and directories are \
                         not served"
                    )))
                }
                p => parts.push(p),
            }
        }
        let name = parts.join("/");
        if let Some(s) = &self.single {
            if name != *s {
                return Err(refuse("this server serves one file"));
            }
        }
        let mut path = self.root.clone();
        for p in &parts {
            path.push(p);
        }
        // Every symlink resolved, the file (or, for a new file, its directory) must still
        // be inside the root.
        let inside = |p: &Path| p.starts_with(&self.root);
        match path.canonicalize() {
            Ok(real) if inside(&real) => Ok((name, path)),
            Ok(_) => Err(refuse("it is a link that leaves the served directory")),
            Err(_) => {
                let parent = path.parent().ok_or_else(|| refuse("no directory"))?;
                match parent.canonicalize() {
                    Ok(real) if inside(&real) => Ok((name, path)),
                    Ok(_) => Err(refuse("its directory leaves the served directory")),
                    Err(_) => Err(ApiError::not_found(format!(
                        "{rel:?}: its directory does not exist"
                    ))),
                }
            }
        }
    }
}

/// What a write expects to find on disk before it replaces the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Anything: the file is written whatever it holds (API clients that do not say).
    Any,
    /// No file: a new file ("New", "Save as") never replaces one.
    Missing,
    /// The file as it was read: this [`version`] of it.
    Version(String),
}

/// A file's version: the FNV-1a hash of its bytes, 16 hex digits. Two reads of an
/// unchanged file give the same version; any change to its bytes gives another (short of
/// a hash collision), whatever the clock says.
pub fn version(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Whether the file at `path` is a PuzzleScript game (a `.txt` file the playground
/// serves): UTF-8 text of at most [`MAX_FILE_BYTES`] with PuzzleScript's sections.
fn is_game_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES)
        && std::fs::read_to_string(path)
            .is_ok_and(|t| crate::puzzlescript::looks_like_puzzlescript(&t))
}

/// The refusal of a `.txt` file that is not a PuzzleScript game.
fn not_a_game(rel: &str) -> ApiError {
    ApiError::forbidden(format!(
        "{rel:?} is refused: not a .puz file, nor a PuzzleScript game (a .txt file is \
         served only when it has PuzzleScript's sections: OBJECTS, LEGEND, ...); the \
         playground reads and writes only .puz files and PuzzleScript games inside the \
         served directory"
    ))
}
