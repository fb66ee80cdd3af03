//! The server's address as the user writes it: plain TCP (`HOST[:PORT]`, `tcp://HOST[:PORT]`) or
//! WebSocket (`ws://HOST[:PORT]/PATH`, and `wss://…` behind TLS), the forms the course's clients
//! take (kgpc: `kgpc wss://kalah.kwarc.info/socket`).

use std::fmt;

use anyhow::Result;

use crate::error::bad;

/// The port KGP servers listen on for plain TCP.
pub const DEFAULT_PORT: u16 = 2671;

/// What every error about an address ends with: the forms accepted.
const FORMS: &str = "write HOST[:PORT] or tcp://HOST[:PORT] for plain TCP (port 2671 by default), \
                     ws://HOST[:PORT]/PATH for WebSocket, wss://HOST[:PORT]/PATH for WebSocket over TLS";

/// How the client talks to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// KGP's lines over a TCP connection.
    Tcp,
    /// KGP's lines in WebSocket text messages.
    WebSocket,
    /// The same behind TLS.
    SecureWebSocket,
}

/// A server to connect to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// How to talk to it.
    pub scheme: Scheme,
    /// Its host name or address (an IPv6 address without brackets).
    pub host: String,
    /// Its port.
    pub port: u16,
    /// The WebSocket's path and query, from its `/` (`/` for TCP).
    pub path: String,
}

impl Server {
    /// Returns the host as a URL writes it: an IPv6 address in brackets.
    fn authority_host(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        }
    }

    /// Returns the WebSocket URL to ask for (`ws://host:port/path`).
    pub fn url(&self) -> String {
        let scheme = if self.scheme == Scheme::SecureWebSocket { "wss" } else { "ws" };
        format!("{scheme}://{}:{}{}", self.authority_host(), self.port, self.path)
    }
}

impl fmt::Display for Server {
    /// Writes the address as the notices name it: `HOST:PORT` for TCP, the URL for WebSocket.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.scheme {
            Scheme::Tcp => write!(f, "{}:{}", self.host, self.port),
            Scheme::WebSocket | Scheme::SecureWebSocket => f.write_str(&self.url()),
        }
    }
}

/// Reads a server's address.
pub fn parse(text: &str) -> Result<Server> {
    let (scheme, rest) = match text.split_once("://") {
        None => (Scheme::Tcp, text),
        Some((word, rest)) => match word.to_ascii_lowercase().as_str() {
            "tcp" => (Scheme::Tcp, rest),
            "ws" => (Scheme::WebSocket, rest),
            "wss" => (Scheme::SecureWebSocket, rest),
            _ => return Err(bad(format!("{text:?} is not a KGP server's address: {FORMS}"))),
        },
    };
    let (authority, path) = match rest.find(['/', '?']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let path = match (scheme, path) {
        (Scheme::Tcp, "") => "/".to_string(),
        (Scheme::Tcp, _) => return Err(bad(format!("{text:?} has a path, which plain TCP has not: {FORMS}"))),
        (_, "") => "/".to_string(),
        (_, path) if path.starts_with('?') => format!("/{path}"),
        (_, path) => path.to_string(),
    };
    if path.chars().any(|c| c.is_whitespace() || c.is_control() || c == '#') {
        return Err(bad(format!("the path {path:?} in {text:?} is not a URL path: {FORMS}")));
    }
    let default_port = match scheme {
        Scheme::Tcp => DEFAULT_PORT,
        Scheme::WebSocket => 80,
        Scheme::SecureWebSocket => 443,
    };
    let (host, port) = host_and_port(text, authority, default_port)?;
    Ok(Server { scheme, host, port, path })
}

/// Splits `HOST[:PORT]` (or `[IPV6]:PORT`) into a host and a port.
fn host_and_port(text: &str, authority: &str, default_port: u16) -> Result<(String, u16)> {
    let bad_port = |port: &str| bad(format!("the port {port:?} in {text:?} is not a number from 1 to 65535: {FORMS}"));
    let port_of = |port: &str| port.parse::<u16>().ok().filter(|&p| p > 0).ok_or_else(|| bad_port(port));
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) =
            rest.split_once(']').ok_or_else(|| bad(format!("{text:?} opens '[' without closing ']': {FORMS}")))?;
        match after {
            "" => (host, default_port),
            _ => match after.strip_prefix(':') {
                Some(port) => (host, port_of(port)?),
                None => return Err(bad(format!("{text:?} has {after:?} after ']': {FORMS}"))),
            },
        }
    } else {
        match authority.split_once(':') {
            // Two colons or more: an IPv6 address without a port.
            Some((_, port)) if port.contains(':') => (authority, default_port),
            Some((host, port)) => (host, port_of(port)?),
            None => (authority, default_port),
        }
    };
    if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c.is_control() || "@[]/?#".contains(c)) {
        return Err(bad(format!("{text:?} names no host: {FORMS}")));
    }
    Ok((host.to_string(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcp(host: &str, port: u16) -> Server {
        Server { scheme: Scheme::Tcp, host: host.into(), port, path: "/".into() }
    }

    #[test]
    fn tcp_addresses_take_a_default_port() {
        assert_eq!(parse("localhost").unwrap(), tcp("localhost", 2671));
        assert_eq!(parse("kalah.example:1234").unwrap(), tcp("kalah.example", 1234));
        assert_eq!(parse("127.0.0.1:80").unwrap(), tcp("127.0.0.1", 80));
        assert_eq!(parse("[::1]:2672").unwrap(), tcp("::1", 2672));
        assert_eq!(parse("[::1]").unwrap(), tcp("::1", 2671));
        assert_eq!(parse("::1").unwrap(), tcp("::1", 2671));
        assert_eq!(parse("tcp://kalah.example").unwrap(), tcp("kalah.example", 2671));
        assert_eq!(parse("TCP://kalah.example:7").unwrap(), tcp("kalah.example", 7));
        assert_eq!(parse("localhost:2671").unwrap().to_string(), "localhost:2671");
    }

    #[test]
    fn websocket_addresses_keep_their_path() {
        let server = parse("wss://kalah.kwarc.info/socket").unwrap();
        assert_eq!(
            server,
            Server {
                scheme: Scheme::SecureWebSocket,
                host: "kalah.kwarc.info".into(),
                port: 443,
                path: "/socket".into()
            }
        );
        assert_eq!(server.url(), "wss://kalah.kwarc.info:443/socket");
        let server = parse("ws://127.0.0.1:8080").unwrap();
        assert_eq!((server.scheme, server.port, server.path.as_str()), (Scheme::WebSocket, 8080, "/"));
        assert_eq!(server.to_string(), "ws://127.0.0.1:8080/");
        assert_eq!(parse("ws://[::1]:9/kgp?x=1").unwrap().url(), "ws://[::1]:9/kgp?x=1");
        assert_eq!(parse("ws://host?x=1").unwrap().path, "/?x=1");
        assert_eq!(parse("ws://host").unwrap().port, 80);
    }

    #[test]
    fn other_addresses_are_refused_in_one_line_that_says_what_is_accepted() {
        for text in [
            "",
            ":80",
            "host:0",
            "host:x",
            "host:70000",
            "[::1",
            "[::1]80",
            "a b",
            "http://localhost:2671",
            "https://kalah.kwarc.info/socket",
            "tcp://host/path",
            "ws://",
            "ws:///socket",
            "wss://user@host/socket",
            "ws://host:99999/",
            "ws://host/a b",
            "localhost:2671/socket",
        ] {
            let e = parse(text).expect_err(text).to_string();
            assert!(!e.contains('\n'), "{e}");
            assert!(e.ends_with(FORMS), "{text:?}: {e}");
        }
        let e = parse("http://localhost:2671").unwrap_err().to_string();
        assert!(e.starts_with("\"http://localhost:2671\" is not a KGP server's address: write HOST[:PORT]"), "{e}");
    }
}
