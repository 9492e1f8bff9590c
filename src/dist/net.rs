//! The cluster: which processes take part, the connections between them, and what
//! happens when one goes away.
//!
//! Processes connect to each other before timely starts: process `i` connects to every
//! lower-numbered process and accepts every higher-numbered one, as timely's own setup
//! does, but quietly, within a deadline, and with a handshake that checks every process
//! runs the same cluster shape. The sockets are then handed to timely
//! (`initialize_networking_from_sockets`), so the data exchange is timely's.
//!
//! When a process dies mid-run, timely's network threads (named `timely:recv-K` and
//! `timely:send-K`, K the peer) panic and poison the channels the workers read, so every
//! worker ends with a panic instead of waiting. [`watch_peers`] installs a panic hook
//! that records which peer went away, so the run ends with an error that names it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::DistError;

/// The first port of the default hosts: process `i` listens on `127.0.0.1:2101 + i`.
pub const FIRST_PORT: u16 = 2101;

/// What every process says first, before timely's own handshake.
const MAGIC: &[u8; 8] = b"puz-dist";

/// The processes of a run and this process's place among them.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Worker threads in each process.
    pub workers: usize,
    /// Processes in the run.
    pub processes: usize,
    /// This process's index, `0..processes`.
    pub process: usize,
    /// `host:port` of every process, in process order.
    pub hosts: Vec<String>,
    /// How long to wait for the other processes to connect.
    pub connect_timeout: Duration,
}

impl Cluster {
    /// One process with `workers` threads.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers,
            processes: 1,
            process: 0,
            hosts: default_hosts(1),
            connect_timeout: Duration::from_secs(60),
        }
    }

    /// Workers in the whole run.
    pub fn peers(&self) -> usize {
        self.workers * self.processes
    }
}

/// `127.0.0.1:2101`, `127.0.0.1:2102`, ... for `processes` processes.
pub fn default_hosts(processes: usize) -> Vec<String> {
    (0..processes)
        .map(|i| format!("127.0.0.1:{}", FIRST_PORT as usize + i))
        .collect()
}

/// Reads a hosts file: one `host:port` per line, in process order; blank lines and lines
/// starting with `#` are skipped.
pub fn parse_hosts(path: &str, text: &str) -> Result<Vec<String>, DistError> {
    let mut hosts = vec![];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let ok = line
            .rsplit_once(':')
            .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok());
        if !ok {
            return Err(DistError::Hosts(format!(
                "{path}:{}: expected `host:port`, found {line:?}",
                n + 1
            )));
        }
        hosts.push(line.to_string());
    }
    Ok(hosts)
}

/// Connects this process to every other one: sockets to lower-numbered processes are
/// opened here, those of higher-numbered ones accepted, each checked by a handshake.
/// Index `i` of the result is the socket to process `i` (`None` for this process).
pub fn connect(c: &Cluster) -> Result<Vec<Option<TcpStream>>, DistError> {
    let deadline = Instant::now() + c.connect_timeout;
    let me = c.process;
    let listener = TcpListener::bind(&c.hosts[me]).map_err(|e| {
        DistError::Network(format!(
            "process {me} cannot listen on {}: {e}",
            c.hosts[me]
        ))
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| DistError::Network(e.to_string()))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..c.processes).map(|_| None).collect();
    let hello = |s: &mut TcpStream| -> std::io::Result<()> {
        let mut msg = MAGIC.to_vec();
        for v in [me, c.processes, c.workers] {
            msg.extend_from_slice(&(v as u64).to_be_bytes());
        }
        s.write_all(&msg)?;
        // Timely's own handshake: the connecting process's index.
        s.write_all(&(me as u64).to_be_bytes())
    };
    // Connect to the lower-numbered processes, retrying until they listen.
    for (peer, slot) in sockets.iter_mut().enumerate().take(me) {
        loop {
            let tried = c.hosts[peer]
                .to_socket_addrs()
                .map_err(|e| {
                    DistError::Network(format!("process {peer}'s address {}: {e}", c.hosts[peer]))
                })?
                .find_map(|a| TcpStream::connect_timeout(&a, Duration::from_millis(500)).ok());
            if let Some(mut s) = tried {
                s.set_nodelay(true).ok();
                hello(&mut s).map_err(|e| DistError::Network(format!("process {peer}: {e}")))?;
                *slot = Some(s);
                break;
            }
            if Instant::now() >= deadline {
                return Err(DistError::Network(format!(
                    "process {me} could not reach process {peer} at {} within {}s; is it running?",
                    c.hosts[peer],
                    c.connect_timeout.as_secs()
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    // Accept the higher-numbered ones.
    while sockets[me + 1..].iter().any(Option::is_none) {
        match listener.accept() {
            Ok((mut s, _)) => {
                s.set_nonblocking(false).ok();
                s.set_nodelay(true).ok();
                s.set_read_timeout(Some(Duration::from_secs(10))).ok();
                let mut head = [0u8; 8 + 24 + 8];
                if s.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
                    // Not one of ours (a port scan, a stale client): ignore it.
                    continue;
                }
                let field = |k: usize| {
                    u64::from_be_bytes(head[8 + 8 * k..16 + 8 * k].try_into().unwrap_or_default())
                        as usize
                };
                let (peer, processes, workers) = (field(0), field(1), field(2));
                if processes != c.processes || workers != c.workers {
                    return Err(DistError::Network(format!(
                        "process {peer} runs with {processes} processes of {workers} workers, \
                         this one ({me}) with {} of {}; start every process with the same \
                         --processes and --workers",
                        c.processes, c.workers
                    )));
                }
                if peer <= me || peer >= c.processes || sockets[peer].is_some() {
                    return Err(DistError::Network(format!(
                        "a process connected as process {peer}, which is not expected here \
                         (this is process {me}); give every process its own --process"
                    )));
                }
                s.set_read_timeout(None).ok();
                sockets[peer] = Some(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..c.processes)
                        .filter(|&p| sockets[p].is_none())
                        .map(|p| p.to_string())
                        .collect();
                    return Err(DistError::Network(format!(
                        "process {me} waited {}s for process(es) {} to connect; are they running?",
                        c.connect_timeout.as_secs(),
                        missing.join(", ")
                    )));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(DistError::Network(format!("accepting a connection: {e}"))),
        }
    }
    Ok(sockets)
}

/// The first peer process whose connection broke, once one has.
static LOST_PEER: OnceLock<usize> = OnceLock::new();

/// The peer process whose connection broke, if one did.
pub fn lost_peer() -> Option<usize> {
    LOST_PEER.get().copied()
}

/// Installs (once) a panic hook that records which peer's network thread failed and keeps
/// the cascade of panics it causes in the workers quiet; any other panic is reported by
/// the previous hook as usual.
pub fn watch_peers() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_string();
            let peer = name
                .strip_prefix("timely:recv-")
                .or_else(|| name.strip_prefix("timely:send-"))
                .and_then(|k| k.parse::<usize>().ok());
            if let Some(k) = peer {
                let _ = LOST_PEER.set(k);
                return;
            }
            let text = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            // Once a peer is lost, the panics it causes elsewhere (poisoned channels, the
            // network guard) say nothing more: the run reports the lost peer.
            if LOST_PEER.get().is_some() {
                let _ = text;
                return;
            }
            previous(info);
        }));
    });
}
