//! A scratch rule or level file for tests that run the binary on generated text.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file under the system's temporary directory, unique per call and process, removed
/// when dropped.
pub struct TempFile(PathBuf);

impl TempFile {
    /// Writes `text` to a fresh file whose name carries `tag` (for a reader of `/tmp`).
    pub fn new(tag: &str, text: &str) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "puz-test-{}-{}-{tag}.puz",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&path, text).expect("write scratch file");
        TempFile(path)
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("temp paths are UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
