//! `kalah kgp`: a client of the Kalah Game Protocol (KGP 1.0.1 and the 1.1.0 draft's verify
//! mode), as the KWARC tournament server speaks it. It connects, says who it is, asks for a
//! mode, answers the server's commands, and reconnects with back-off when the connection ends.
//!
//! The protocol itself (the line grammar, the session's state machine) is
//! [`kalah_protocol::kgp`]; here is only what does input and output:
//!
//! * [`connection`]: one connection: the socket, the reader thread, the session's actions carried out.
//! * [`worker`]: the search thread, which sends a better move after every finished depth.

pub mod connection;
pub mod worker;

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;
use kalah_protocol::kgp::{Config, Mode};
use kalah_rules::Rules;

use crate::engine::EngineArgs;
use crate::error::bad;
use connection::Closed;
use worker::Worker;

/// The port KGP servers listen on.
pub const DEFAULT_PORT: u16 = 2671;
/// The longest wait between two connection attempts.
const MAX_DELAY: Duration = Duration::from_secs(60);
/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Flags of `kalah kgp`.
#[derive(Args, Debug)]
pub struct KgpArgs {
    /// The server to connect to.
    // The help is given as text: in a doc comment rustdoc would read its brackets as links.
    #[arg(
        default_value = "localhost",
        help = "The server: HOST[:PORT], the port 2671 by default ([IPV6]:PORT for IPv6 addresses)"
    )]
    pub server: String,
    /// The client's name (sent as info:name)
    #[arg(long, default_value = "kalah")]
    pub name: String,
    /// The authors (sent as info:authors)
    #[arg(long)]
    pub authors: Option<String>,
    /// A secret token that keeps the client's identity across connections (sent as auth:token)
    #[arg(long)]
    pub token: Option<String>,
    /// The activity: freeplay (play moves), verify (solve rule problems), eval (evaluate boards)
    #[arg(long, default_value = "freeplay")]
    pub mode: String,
    /// Milliseconds to search each board (the server's stop ends a search sooner)
    #[arg(long, value_name = "MS", default_value_t = 4000)]
    pub time: u64,
    /// End when the first connection ends instead of reconnecting
    #[arg(long)]
    pub once: bool,
    /// Give up after this many failed connections in a row (0: never give up)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_retries: u32,
    /// First wait before reconnecting, in milliseconds; it doubles after each failure, up to 60 s
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub retry_delay: u64,
    /// Print every line sent (>) and received (<) on standard error
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Prints a notice on standard error.
pub fn notice(text: &str) {
    eprintln!("kalah kgp: {text}");
}

/// Splits `HOST[:PORT]` (or `[IPV6]:PORT`) into a host and a port.
pub fn address(text: &str) -> Result<(String, u16)> {
    let bad_port = |port: &str| {
        bad(format!("the port {port:?} in {text:?} is not a number from 1 to 65535; write HOST or HOST:PORT"))
    };
    let port_of = |port: &str| port.parse::<u16>().ok().filter(|&p| p > 0).ok_or_else(|| bad_port(port));
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (host, after) =
            rest.split_once(']').ok_or_else(|| bad(format!("{text:?} opens '[' without closing ']'")))?;
        match after {
            "" => (host, DEFAULT_PORT),
            _ => match after.strip_prefix(':') {
                Some(port) => (host, port_of(port)?),
                None => return Err(bad(format!("{text:?} has {after:?} after ']'; write [IPV6]:PORT"))),
            },
        }
    } else {
        match text.split_once(':') {
            // Two colons or more: an IPv6 address without a port.
            Some((_, port)) if port.contains(':') => (text, DEFAULT_PORT),
            Some((host, port)) => (host, port_of(port)?),
            None => (text, DEFAULT_PORT),
        }
    };
    if host.is_empty() || host.chars().any(char::is_whitespace) {
        return Err(bad(format!("{text:?} names no host; write HOST or HOST:PORT, e.g. localhost:2671")));
    }
    Ok((host.to_string(), port))
}

/// Parses the mode word.
fn mode(word: &str) -> Result<Mode> {
    word.parse().map_err(|e| bad(format!("--mode {e}")))
}

fn connect(host: &str, port: u16) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "the host has no address");
    let addresses: Vec<SocketAddr> = (host, port).to_socket_addrs()?.collect();
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Runs `kalah kgp`.
pub fn run(args: KgpArgs) -> Result<()> {
    let (host, port) = address(&args.server)?;
    let mode = mode(&args.mode)?;
    if !(1..=86_400_000).contains(&args.time) {
        return Err(bad(format!("--time {} is out of range: 1 to 86400000 milliseconds", args.time)));
    }
    if !(1..=60_000).contains(&args.retry_delay) {
        return Err(bad(format!("--retry-delay {} is out of range: 1 to 60000 milliseconds", args.retry_delay)));
    }
    for (flag, value) in
        [("--name", Some(&args.name)), ("--authors", args.authors.as_ref()), ("--token", args.token.as_ref())]
    {
        if value.is_some_and(|v| v.trim().is_empty()) {
            return Err(bad(format!("{flag} is empty: give a non-empty text")));
        }
    }
    // KGP's majority end makes values depend on the stores, so no endgame database applies: the
    // engine is the same for every board size and is built once.
    let (engine, _) = args.engine.build(&Rules::preset("kgp", 6, 6)?)?;
    let worker = Worker::start(engine);
    let config = Config {
        name: args.name.clone(),
        authors: args.authors.clone(),
        token: args.token.clone(),
        mode,
        time: Duration::from_millis(args.time),
    };
    let first_delay = Duration::from_millis(args.retry_delay);
    let mut delay = first_delay;
    let mut failures = 0u32;
    loop {
        let why = match connect(&host, port) {
            Err(e) => {
                failures += 1;
                format!("cannot connect to {host}:{port}: {e}")
            }
            Ok(stream) => {
                notice(&format!("connected to {host}:{port}, asking for mode {}", mode.word()));
                let report = connection::run(stream, &config, args.verbose, &worker)?;
                if report.worked {
                    delay = first_delay;
                    failures = 0;
                } else {
                    failures += 1;
                }
                match (report.end, args.once) {
                    (Closed::Goodbye, true) => {
                        notice("the server said goodbye");
                        return Ok(());
                    }
                    (Closed::Dropped(why), true) => return Err(anyhow!("{why} without a goodbye")),
                    (Closed::Goodbye, false) => "the server said goodbye".to_string(),
                    (Closed::Dropped(why), false) => why,
                }
            }
        };
        if args.max_retries > 0 && failures >= args.max_retries {
            return Err(anyhow!("giving up after {failures} failed connections in a row; the last: {why}"));
        }
        notice(&format!("{why}; reconnecting in {:.1} s", delay.as_secs_f64()));
        std::thread::sleep(delay);
        delay = (delay * 2).min(MAX_DELAY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_take_a_default_port() {
        assert_eq!(address("localhost").unwrap(), ("localhost".into(), 2671));
        assert_eq!(address("kalah.example:1234").unwrap(), ("kalah.example".into(), 1234));
        assert_eq!(address("127.0.0.1:80").unwrap(), ("127.0.0.1".into(), 80));
        assert_eq!(address("[::1]:2672").unwrap(), ("::1".into(), 2672));
        assert_eq!(address("[::1]").unwrap(), ("::1".into(), 2671));
        assert_eq!(address("::1").unwrap(), ("::1".into(), 2671));
        for bad in ["", ":80", "host:0", "host:x", "host:70000", "[::1", "[::1]80", "a b"] {
            let e = address(bad).expect_err(bad).to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn modes_are_words() {
        assert_eq!(mode("verify").unwrap(), Mode::Verify);
        assert!(mode("simple").is_err());
    }
}
