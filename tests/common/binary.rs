//! Running the `puz` binary from a test: the command, its output as text, and scratch
//! rule or level files for generated text.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
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

/// Runs `puz` with `args` from the crate root, without colours or backtraces, stdin
/// closed.
pub fn puz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_puz"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run puz")
}

/// A run's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
