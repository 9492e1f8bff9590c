//! Which requests `puz serve` answers: the checks against DNS rebinding (the `Host` a
//! request names) and against other sites' pages (the `Origin` of a request that writes or
//! starts work). Every refusal is a 403 with the API's JSON error.
//!
//! - Every request needs exactly one `Host` header (none, or two, is refused).
//! - On a loopback address, the `Host` must be one of this server's own authorities:
//!   `localhost:PORT`, `127.0.0.1:PORT`, `[::1]:PORT`, or the listen address with PORT
//!   (`127.0.0.2:PORT` under `--listen 127.0.0.2`), where PORT is the port bound (the one
//!   chosen under `--port 0`). Letter case aside the match is exact: no other name, no
//!   other port, no trailing dot. The port may be left out only when it is 80, as
//!   browsers do for the default port. A request target in absolute form
//!   (`GET http://HOST:PORT/path`) must be `http` and name an own authority as well.
//! - On any other address (`--listen ADDR`) host names are not checked: the server cannot
//!   know every name it is reached by, and anyone who can reach it is served.
//! - On every address, a request with a method other than GET and HEAD (saving a file,
//!   starting a check, a play, a solve, an analysis or a test run, cancelling a job) that
//!   carries an `Origin` is refused unless the origin is the server's own: `http://` and
//!   an own authority, or beyond loopback also `http://` and the request's `Host`. A
//!   request without `Origin` (curl, scripts) is served.

use std::net::{IpAddr, SocketAddr};

use axum::http::{header, HeaderMap, Method, Uri};

use super::ApiError;

/// The hosts and origins a server answers.
#[derive(Clone, Debug)]
pub struct Access {
    /// The port bound.
    port: u16,
    /// The authorities that name this server (lowercase): each loopback name with the
    /// port, and alone when the port is 80.
    own: Vec<String>,
    /// Listening beyond loopback: any host name is served.
    any_host: bool,
}

/// At most this much of a refused header is quoted back.
const QUOTED: usize = 100;

impl Access {
    /// The access rules of a server bound to `addr`.
    pub fn new(addr: SocketAddr) -> Access {
        let port = addr.port();
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"].map(String::from).into();
        let ip = match addr.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        if addr.ip().is_loopback() && !names.contains(&ip) {
            names.push(ip);
        }
        let mut own: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
        if port == 80 {
            own.extend(names);
        }
        Access {
            port,
            own,
            any_host: !addr.ip().is_loopback(),
        }
    }

    /// `authority` (lowercase) names this server.
    fn is_own(&self, authority: &str) -> bool {
        self.own.iter().any(|o| o == authority)
    }

    /// The own authorities, for messages.
    fn expected(&self) -> String {
        let p = self.port;
        format!("localhost:{p}, 127.0.0.1:{p} or [::1]:{p}")
    }

    /// The request may be answered, or why not.
    pub fn check(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
        let host = self.host(uri, headers)?;
        if method != Method::GET && method != Method::HEAD {
            self.origin(headers, &host)?;
        }
        Ok(())
    }

    /// The request's one `Host` (lowercase), checked with the request target.
    fn host(&self, uri: &Uri, headers: &HeaderMap) -> Result<String, ApiError> {
        let hosts = headers.get_all(header::HOST);
        let mut it = hosts.iter();
        let (Some(host), None) = (it.next(), it.next()) else {
            let had = match hosts.iter().count() {
                0 => "no Host header".to_string(),
                n => format!("{n} Host headers"),
            };
            return Err(ApiError::forbidden(format!(
                "the request has {had}; exactly one is needed, naming this server ({})",
                self.expected()
            )));
        };
        let host = host
            .to_str()
            .map_err(|_| ApiError::forbidden("the Host header is not plain ASCII text"))?
            .to_ascii_lowercase();
        if !self.any_host && !self.is_own(&host) {
            return Err(self.refused("the Host header names", &host));
        }
        if let Some(scheme) = uri.scheme_str() {
            if !scheme.eq_ignore_ascii_case("http") {
                return Err(ApiError::forbidden(format!(
                    "the request target's scheme is {:?}; this server speaks plain http",
                    quoted(scheme)
                )));
            }
        }
        if let Some(target) = uri.authority() {
            let target = target.as_str().to_ascii_lowercase();
            if !self.any_host && !self.is_own(&target) {
                return Err(self.refused("the request target names", &target));
            }
        }
        Ok(host)
    }

    /// A refusal of a host name not this server's.
    fn refused(&self, what: &str, name: &str) -> ApiError {
        ApiError::forbidden(format!(
            "{what} {:?}; this server answers only requests naming it as {} (a check \
             against DNS rebinding; --listen ADDR serves other names)",
            quoted(name),
            self.expected()
        ))
    }

    /// A request that writes or starts work comes from no page, or from this server's.
    fn origin(&self, headers: &HeaderMap, host: &str) -> Result<(), ApiError> {
        let origins = headers.get_all(header::ORIGIN);
        let mut it = origins.iter();
        let (Some(origin), None) = (it.next(), it.next()) else {
            return match origins.iter().count() {
                0 => Ok(()),
                n => Err(ApiError::forbidden(format!(
                    "the request has {n} Origin headers; at most one is accepted"
                ))),
            };
        };
        let origin = String::from_utf8_lossy(origin.as_bytes()).to_ascii_lowercase();
        let own = origin.strip_prefix("http://").is_some_and(|a| {
            self.is_own(a)
                || (self.any_host && (a == host || (self.port == 80 && host == format!("{a}:80"))))
        });
        if own {
            return Ok(());
        }
        let p = self.port;
        Err(ApiError::forbidden(format!(
            "a page from {:?} may not save files or start work on this server; only its own \
             pages (http://localhost:{p}, http://127.0.0.1:{p}, http://[::1]:{p}{}) and \
             requests without an Origin (scripts) may",
            quoted(&origin),
            if self.any_host {
                ", or http:// and the name it was reached by"
            } else {
                ""
            }
        )))
    }
}

/// `s`, cut to [`QUOTED`] characters.
fn quoted(s: &str) -> String {
    match s.char_indices().nth(QUOTED) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}
