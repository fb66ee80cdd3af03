//! `kalah kgp`: a client of the Kalah Game Protocol (KGP 1.0.1 and the 1.1.0 draft's verify
//! mode), as the KWARC tournament server speaks it. It connects, says who it is, asks for a
//! mode, answers the server's commands, and reconnects with back-off when the connection ends.
//!
//! The protocol itself (the line grammar, the session's state machine, every line sent) is
//! [`kalah_protocol::kgp`]; here is only what does input and output:
//!
//! * [`address`]: the server's address: plain TCP, WebSocket or WebSocket over TLS.
//! * [`tls`]: the certificates trusted for `wss://`.
//! * [`transport`]: one connection as bytes in and lines out, over TCP or a WebSocket.
//! * [`connection`]: one connection's session: the reader thread, the session's actions carried out.
//! * [`worker`]: the search thread, which reports every finished depth to the session.

pub mod address;
pub mod connection;
pub mod tls;
pub mod transport;
pub mod worker;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;
use kalah_protocol::kgp::{Config, Mode};
use kalah_rules::Rules;

use crate::engine::EngineArgs;
use crate::error::bad;
use address::Scheme;
use connection::Closed;
use transport::Failure;
use worker::Worker;

/// The longest wait between two connection attempts.
const MAX_DELAY: Duration = Duration::from_secs(60);

/// Flags of `kalah kgp`.
#[derive(Args, Debug)]
pub struct KgpArgs {
    /// The server to connect to.
    // The help is given as text: in a doc comment rustdoc would read its brackets as links.
    #[arg(
        default_value = "localhost",
        help = "The server: HOST[:PORT] or tcp://HOST[:PORT] for plain TCP (the port 2671 by default, \
                [IPV6]:PORT for IPv6 addresses), ws://HOST[:PORT]/PATH for WebSocket, wss://HOST[:PORT]/PATH for \
                WebSocket over TLS"
    )]
    pub server: String,
    /// Trust only the certificates in this PEM file for wss:// (a server with a certificate of its
    /// own); by default the system's root certificates
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
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

/// Parses the mode word.
fn mode(word: &str) -> Result<Mode> {
    word.parse().map_err(|e| bad(format!("--mode {e}")))
}

/// Runs `kalah kgp`.
pub fn run(args: KgpArgs) -> Result<()> {
    let server = address::parse(&args.server)?;
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
    let tls = match (server.scheme, &args.ca) {
        (Scheme::SecureWebSocket, ca) => Some(tls::client_config(ca.as_deref())?),
        (_, Some(ca)) => {
            return Err(bad(format!("--ca {} applies to wss:// addresses, not to {server}", ca.display())));
        }
        (_, None) => None,
    };
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
        let why = match transport::connect(&server, tls.as_ref()) {
            Err(Failure::Fatal(why)) => return Err(anyhow!(why)),
            Err(Failure::Retry(why)) => {
                failures += 1;
                why
            }
            Ok(link) => {
                notice(&format!("connected to {server}, asking for mode {}", mode.word()));
                let report =
                    connection::run(link, &config, args.verbose, &worker).map_err(|e| e.context(server.to_string()))?;
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
    fn modes_are_words() {
        assert_eq!(mode("verify").unwrap(), Mode::Verify);
        assert!(mode("simple").is_err());
    }
}
