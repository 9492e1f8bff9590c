//! `puz serve`: the playground, on loopback unless told otherwise.

use std::time::Duration;

use super::{exit, output};

/// `puz serve PATH`: serves the playground until stopped.
pub fn run(
    path: String,
    port: u16,
    listen: std::net::IpAddr,
    max_jobs: u64,
    max_timeout: u64,
    max_states: u64,
    max_memory: u64,
) -> Result<(), u8> {
    if !listen.is_loopback() {
        say!(
            "warning: listening on {listen}, not loopback: anyone who can reach this \
             machine can read and write the .puz files in {path} and run searches"
        );
    }
    let defaults = puz::serve::Caps::default();
    let caps = puz::serve::Caps {
        max_timeout: Duration::from_secs(max_timeout),
        default_timeout: defaults
            .default_timeout
            .min(Duration::from_secs(max_timeout)),
        max_states: max_states as usize,
        default_states: defaults.default_states.min(max_states as usize),
        max_memory_mb: max_memory,
    };
    let opts = puz::serve::ServeOptions {
        path: path.into(),
        listen,
        port,
        max_jobs: max_jobs as usize,
        caps,
    };
    puz::serve::run(opts).map_err(|e| {
        output::report(&e);
        exit::INPUT
    })
}
