//! Helpers for tests that start `puz` processes on loopback: a hosts file of free ports,
//! and a guard that kills its processes however the test ends.

use std::path::Path;
use std::process::Child;

/// `n` free loopback ports, as a hosts file in `dir`.
pub fn hosts_file(dir: &Path, n: usize) -> String {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("{}\n", l.local_addr().unwrap()))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().to_string()
}

/// Kills its processes however the test ends.
pub struct Procs(pub Vec<Child>);
impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
