//! The files `puz serve` may read and write: `.puz` files inside the directory it was
//! started on (or that one file), never a path that leaves it.
//!
//! A request names a file by a relative path with `/` separators. It is refused unless
//! every component is a plain name (no `..`, no root, no drive, no empty or hidden
//! component) and the file, once every symlink is resolved, is still inside the root.
//! A file that does not exist yet may be created only when its directory, resolved,
//! is inside the root; an existing symlink is never written through.

use std::path::{Component, Path, PathBuf};

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
                }
                if out.len() >= MAX_LISTED {
                    break;
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// The text of the file at `rel`.
    pub fn read(&self, rel: &str) -> Result<String, ApiError> {
        let path = self.resolve(rel)?;
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
        String::from_utf8(bytes)
            .map_err(|_| ApiError::bad_request(format!("{rel:?} is not UTF-8 text")))
    }

    /// Writes `text` to the file at `rel` (created when missing); returns its size.
    pub fn write(&self, rel: &str, text: &str) -> Result<u64, ApiError> {
        let path = self.resolve(rel)?;
        if let Ok(meta) = std::fs::symlink_metadata(&path) {
            if !meta.is_file() {
                return Err(ApiError::forbidden(format!(
                    "{rel:?} is not a regular file; only regular .puz files are written"
                )));
            }
        }
        std::fs::write(&path, text)
            .map_err(|e| ApiError::forbidden(format!("{rel:?} cannot be written: {e}")))?;
        Ok(text.len() as u64)
    }

    /// The path of `rel` inside the root, or why it is refused.
    fn resolve(&self, rel: &str) -> Result<PathBuf, ApiError> {
        let refuse = |why: &str| {
            ApiError::forbidden(format!(
                "{rel:?} is refused: {why}; the playground reads and writes only .puz files \
                 inside the served directory"
            ))
        };
        if rel.is_empty() || rel.len() > 4096 {
            return Err(refuse("not a file name"));
        }
        if !rel.ends_with(".puz") {
            return Err(refuse("not a .puz file"));
        }
        if rel.contains('\\') || rel.contains('\0') || rel.contains(':') {
            return Err(refuse("it contains a character paths may not use here"));
        }
        if let Some(s) = &self.single {
            if rel != s {
                return Err(refuse("this server serves one file"));
            }
        }
        let mut path = self.root.clone();
        for part in Path::new(rel).components() {
            match part {
                Component::Normal(name)
                    if !name.to_string_lossy().starts_with('.') && !name.is_empty() =>
                {
                    path.push(name)
                }
                _ => return Err(refuse("it leaves the served directory")),
            }
        }
        // Every symlink resolved, the file (or, for a new file, its directory) must still
        // be inside the root.
        let inside = |p: &Path| p.starts_with(&self.root);
        match path.canonicalize() {
            Ok(real) if inside(&real) => Ok(path),
            Ok(_) => Err(refuse("it is a link that leaves the served directory")),
            Err(_) => {
                let parent = path.parent().ok_or_else(|| refuse("no directory"))?;
                match parent.canonicalize() {
                    Ok(real) if inside(&real) => Ok(path),
                    Ok(_) => Err(refuse("its directory leaves the served directory")),
                    Err(_) => Err(ApiError::not_found(format!(
                        "{rel:?}: its directory does not exist"
                    ))),
                }
            }
        }
    }
}
