//! The cluster: which processes take part, the connections between them, and what
//! happens when one goes away.
//!
//! Processes connect to each other before timely starts: process `i` connects to every
//! lower-numbered process and accepts every higher-numbered one, as timely's own setup
//! does, but quietly, within a deadline (every read and write of the handshake has a
//! timeout), and with a handshake in both directions that checks every process runs the
//! same cluster shape and the same settings ([`super::agree`]). The sockets are then handed to timely
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

use super::agree::Agreement;
use super::DistError;

/// The first port of the default hosts: process `i` listens on `127.0.0.1:2101 + i`.
pub const FIRST_PORT: u16 = 2101;

/// What a process of the earlier handshake (before the settings were exchanged) said
/// first: recognised, to name it.
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
        let port = line
            .rsplit_once(':')
            .filter(|(h, _)| !h.is_empty())
            .and_then(|(_, p)| p.parse::<u16>().ok());
        match port {
            None => {
                return Err(DistError::Hosts(format!(
                    "{path}:{}: expected `host:port`, found {line:?}",
                    n + 1
                )))
            }
            // Port 0 would listen on a port the system picks, which no other process
            // can know.
            Some(0) => {
                return Err(DistError::Hosts(format!(
                    "{path}:{}: port 0 in {line:?}: every process needs a fixed port the                      others can reach (1 to 65535)",
                    n + 1
                )))
            }
            Some(_) => {}
        }
        hosts.push(line.to_string());
    }
    Ok(hosts)
}

/// What a process says first: the magic, its index, the cluster's shape and its
/// [`Agreement`]; the accepting process answers with its own.
const HELLO: &[u8; 8] = b"puz-dst2";

/// The most bytes of settings a hello may carry.
const HELLO_MAX: usize = 1 << 20;

/// A hello read back.
struct Hello {
    index: usize,
    processes: usize,
    workers: usize,
    agreement: Agreement,
}

/// Why a hello could not be read.
enum Unheard {
    /// Nothing (or not all of it) came within the time allowed.
    Silent,
    /// The connection closed first.
    Closed,
    /// Something else spoke: not a puz process.
    Stranger,
    /// A puz of the earlier handshake, claiming this index.
    Older(u64),
}

fn hello_bytes(me: usize, c: &Cluster, agreement: &Agreement) -> Vec<u8> {
    let mut msg = HELLO.to_vec();
    for v in [me, c.processes, c.workers] {
        msg.extend_from_slice(&(v as u64).to_be_bytes());
    }
    let body = agreement.encode();
    msg.extend_from_slice(&(body.len() as u32).to_be_bytes());
    msg.extend_from_slice(&body);
    msg
}

/// Reads a hello within `wait`.
fn read_hello(s: &mut TcpStream, wait: Duration) -> Result<Hello, Unheard> {
    s.set_read_timeout(Some(wait.max(Duration::from_millis(10))))
        .map_err(|_| Unheard::Closed)?;
    let fail = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Unheard::Silent,
        _ => Unheard::Closed,
    };
    let mut magic = [0u8; 8];
    s.read_exact(&mut magic).map_err(fail)?;
    if &magic == MAGIC {
        let mut rest = [0u8; 32];
        s.read_exact(&mut rest).map_err(fail)?;
        return Err(Unheard::Older(u64::from_be_bytes(
            rest[..8].try_into().unwrap_or_default(),
        )));
    }
    if &magic != HELLO {
        return Err(Unheard::Stranger);
    }
    let mut head = [0u8; 28];
    s.read_exact(&mut head).map_err(fail)?;
    let field =
        |k: usize| u64::from_be_bytes(head[8 * k..8 * k + 8].try_into().unwrap_or_default());
    let len = u32::from_be_bytes(head[24..28].try_into().unwrap_or_default()) as usize;
    if len > HELLO_MAX {
        return Err(Unheard::Stranger);
    }
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).map_err(fail)?;
    let agreement = Agreement::decode(&body).ok_or(Unheard::Stranger)?;
    let small = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
    Ok(Hello {
        index: small(field(0)),
        processes: small(field(1)),
        workers: small(field(2)),
        agreement,
    })
}

/// Time left until `deadline`, at least a moment.
fn left(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100))
}

/// The shape check of a hello from `peer`: every process runs the same number of
/// processes and workers.
fn same_shape(c: &Cluster, h: &Hello) -> Result<(), DistError> {
    if h.processes == c.processes && h.workers == c.workers {
        return Ok(());
    }
    let me = c.process;
    let (hi, lo) = (h.index.max(me), h.index.min(me));
    let (hs, ls) = if h.index > me {
        ((h.processes, h.workers), (c.processes, c.workers))
    } else {
        ((c.processes, c.workers), (h.processes, h.workers))
    };
    Err(DistError::Mismatch(format!(
        "process {hi} runs with --processes {} --workers {}, process {lo} with --processes {} \
         --workers {}",
        hs.0, hs.1, ls.0, ls.1
    )))
}

/// Connects this process to every other one: sockets to lower-numbered processes are
/// opened here, those of higher-numbered ones accepted. On each connection both sides
/// send a hello (index, cluster shape, `agreement`) and read the other's, so both know
/// what differs; every socket operation has a timeout within `--connect-timeout`, so a
/// peer that accepts and never speaks ends the wait like one that is not there. A
/// difference in the settings ends the run once every connection has been made (so
/// every process learns of it and says so), with `puz::dist::mismatch`. Index `i` of
/// the result is the socket to process `i` (`None` for this process), blocking and
/// without timeouts, ready for timely.
pub fn connect(c: &Cluster, agreement: &Agreement) -> Result<Vec<Option<TcpStream>>, DistError> {
    let deadline = Instant::now() + c.connect_timeout;
    let me = c.process;
    let secs = c.connect_timeout.as_secs();
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
    let mine = hello_bytes(me, c, agreement);
    let mut differences: Vec<String> = vec![];
    let mismatch = |d: &[String]| {
        DistError::Mismatch(format!(
            "the processes were not started alike: {}",
            d.join("; ")
        ))
    };
    // Connect to the lower-numbered processes, retrying until they listen.
    for (peer, slot) in sockets.iter_mut().enumerate().take(me) {
        let host = &c.hosts[peer];
        loop {
            let tried = host
                .to_socket_addrs()
                .map_err(|e| DistError::Network(format!("process {peer}'s address {host}: {e}")))?
                .find_map(|a| TcpStream::connect_timeout(&a, Duration::from_millis(500)).ok());
            if let Some(mut s) = tried {
                s.set_nodelay(true).ok();
                s.set_write_timeout(Some(left(deadline))).ok();
                s.write_all(&mine).map_err(|e| {
                    DistError::Network(format!(
                        "process {me} could not greet process {peer} at {host}: {e}"
                    ))
                })?;
                let h = match read_hello(&mut s, left(deadline)) {
                    Ok(h) => h,
                    Err(Unheard::Silent) => {
                        return Err(DistError::Network(format!(
                            "process {me} reached process {peer}'s address {host}, but nothing \
                             there answered the handshake within {secs}s; is another program \
                             holding that port, or process {peer} stuck?"
                        )))
                    }
                    Err(Unheard::Closed) => {
                        return Err(DistError::Network(format!(
                            "process {peer} at {host} closed the connection during the \
                             handshake; it refused process {me} (see its error: is another \
                             process started with --process {me}?)"
                        )))
                    }
                    Err(Unheard::Stranger) => {
                        return Err(DistError::Network(format!(
                            "the program at {host} (process {peer}'s address) does not speak \
                             puz's handshake; is another program holding that port?"
                        )))
                    }
                    Err(Unheard::Older(_)) => {
                        return Err(DistError::Mismatch(format!(
                            "process {peer} at {host} runs an older puz (another handshake) \
                             than process {me}"
                        )))
                    }
                };
                if h.index != peer {
                    return Err(DistError::Network(format!(
                        "the process at {host} says it is process {}, not {peer}; check the \
                         hosts file and each process's --process",
                        h.index
                    )));
                }
                same_shape(c, &h)?;
                differences.extend(agreement.differences(me, &h.agreement, peer));
                *slot = Some(s);
                break;
            }
            if Instant::now() >= deadline {
                return Err(if differences.is_empty() {
                    DistError::Network(format!(
                        "process {me} could not reach process {peer} at {host} within {secs}s; \
                         is it running?"
                    ))
                } else {
                    mismatch(&differences)
                });
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
                let h = match read_hello(&mut s, left(deadline).min(Duration::from_secs(10))) {
                    Ok(h) => h,
                    Err(Unheard::Older(k)) => {
                        return Err(DistError::Mismatch(format!(
                            "a process of an older puz (another handshake) connected to \
                             process {me}, as process {k}"
                        )))
                    }
                    // Not one of ours (a port scan, a stale client): ignore it.
                    Err(_) => continue,
                };
                let peer = h.index;
                if peer <= me || peer >= c.processes || sockets[peer].is_some() {
                    return Err(DistError::Network(format!(
                        "a process connected as process {peer}, which is not expected here \
                         (this is process {me}); give every process its own --process"
                    )));
                }
                s.set_write_timeout(Some(left(deadline))).ok();
                if let Err(e) = s.write_all(&mine) {
                    return Err(DistError::Network(format!(
                        "process {peer} went away during the handshake with process {me}: {e}"
                    )));
                }
                same_shape(c, &h)?;
                differences.extend(agreement.differences(me, &h.agreement, peer));
                sockets[peer] = Some(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    if !differences.is_empty() {
                        return Err(mismatch(&differences));
                    }
                    let missing: Vec<String> = (me + 1..c.processes)
                        .filter(|&p| sockets[p].is_none())
                        .map(|p| p.to_string())
                        .collect();
                    return Err(DistError::Network(format!(
                        "process {me} waited {secs}s for process(es) {} to connect; are they running?",
                        missing.join(", ")
                    )));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(DistError::Network(format!("accepting a connection: {e}"))),
        }
    }
    if !differences.is_empty() {
        return Err(mismatch(&differences));
    }
    // Timely reads and writes blocking, without timeouts.
    for s in sockets.iter().flatten() {
        s.set_read_timeout(None).ok();
        s.set_write_timeout(None).ok();
    }
    Ok(sockets)
}

/// The first peer process whose connection broke, once one has.
static LOST_PEER: OnceLock<usize> = OnceLock::new();

/// The peer process whose connection broke, if one did.
pub fn lost_peer() -> Option<usize> {
    LOST_PEER.get().copied()
}

thread_local! {
    /// This thread's panics are caught and reported as errors: the hook keeps quiet.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// From now on, this thread's panics print nothing (the run catches them and reports an
/// error of its own, such as a checkpoint whose states do not expand).
pub(crate) fn quiet_panics() {
    QUIET.with(|q| q.set(true));
}

/// Installs (once) a panic hook that records which peer's network thread failed and keeps
/// the cascade of panics it causes in the workers quiet; any other panic is reported by
/// the previous hook as usual.
pub fn watch_peers() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) {
                return;
            }
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
