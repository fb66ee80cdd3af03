//! What the server reports as it runs: one line each, for the front end to print.

use std::fmt;
use std::net::SocketAddr;

/// A transport the server listens on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// KGP over plain TCP.
    Tcp,
    /// KGP over WebSocket, at the path `/socket`.
    WebSocket,
    /// KGP over WebSocket behind TLS.
    WebSocketTls,
}

/// Something worth a line in the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A listener is up.
    Listening {
        /// Its transport.
        transport: Transport,
        /// The address it is bound to.
        address: SocketAddr,
    },
    /// About one connection.
    Connection {
        /// The connection's number.
        id: u64,
        /// What happened.
        text: String,
    },
    /// About one game.
    Game {
        /// The game's id in the database.
        id: i64,
        /// What happened.
        text: String,
    },
    /// About the tournament.
    Tournament {
        /// Its id in the database, once it has one (when its games begin).
        id: Option<i64>,
        /// What happened.
        text: String,
    },
    /// The tournament has played all its games: its table can be read from the database.
    TournamentOver(i64),
    /// The certificate's files changed and the new certificate is served from the next
    /// connection on.
    CertificateRenewed,
    /// A failure that stops no game (a write to the database, a TLS handshake, a renewed
    /// certificate that cannot serve).
    Trouble(String),
}

impl fmt::Display for Event {
    /// Writes the event as one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Listening { transport: Transport::Tcp, address } => {
                write!(f, "listening for KGP over TCP on {address}")
            }
            Event::Listening { transport: Transport::WebSocket, address } => {
                write!(f, "listening for KGP over WebSocket on ws://{address}/socket")
            }
            Event::Listening { transport: Transport::WebSocketTls, address } => {
                write!(f, "listening for KGP over WebSocket on wss://{address}/socket")
            }
            Event::Connection { id, text } => write!(f, "connection {id}: {text}"),
            Event::Game { id, text } => write!(f, "game {id}: {text}"),
            Event::Tournament { id: Some(id), text } => write!(f, "tournament {id}: {text}"),
            Event::Tournament { id: None, text } => write!(f, "tournament: {text}"),
            Event::TournamentOver(id) => write!(f, "tournament {id}: every game played"),
            Event::CertificateRenewed => f.write_str("the certificate changed: serving the new one"),
            Event::Trouble(text) => f.write_str(text),
        }
    }
}
