//! The browser game of Kalah: a web server where people play against each other or the engine.
//!
//! * [`server`]: the server's run ([`serve`], on a listener) and its router, built from
//!   kalah-table's list of the JSON API's routes (documented in the repository's docs/web.md)
//!   with their handlers, by kind (private modules): `play` (a new game, the table's commands,
//!   resign, takeback, rematch, the state and its live channel, a deletion), `help` (the
//!   engine's move, hints, analyses, the explorer, the course's searches, the moves owed in
//!   rated games), `archive`, `page` (the page's files, health), [`lobby`]; `session` (a
//!   request's game and who sends it), `middleware` (the access log, the guard, the finish),
//!   `error` ([`ApiError`], every refusal's one mapping to HTTP) and `app` ([`App`], the state).
//! * [`games`]: the games being played, each a [`kalah_table::Table`] (the crate kalah-table's,
//!   which the static site holds its games in too: seats and tokens, clocks, versions, who may
//!   act), with what only a server keeps beside it; idle games leave memory, not the database.
//! * [`event`] (kalah-table's): the changes of a game as they are stored and sent; [`store`]: the SQLite
//!   database they are stored in before each answer, or [`postgres`]: the PostgreSQL database
//!   several servers share, and how each learns of the others' changes; [`tls`]: how the
//!   connections to PostgreSQL are encrypted (libpq's `sslmode`); [`holder`]: one server at a
//!   time an SQLite file, and only one it can write.
//! * The hosting (crate kalah-host, which the KGP server uses too): what every request passes
//!   first (its origin, JSON bodies, each client's share), the connections' time limits and
//!   caps, the server's public address and the reverse proxies trusted to name their clients,
//!   HTTPS in the server itself with its certificate read again when renewed, the access log.
//! * [`engines`]: a pool of engines shared by every game, at the engine's strength levels
//!   ([`kalah_engine::level`]); every engine move and hint is [`kalah_engine::decide`]'s
//!   decision, as for every other player.
//! * [`passwords`]: the password work of sign-ins and new passwords, on a pool of its own that
//!   runs one Argon2id a core at once, in buffers it keeps, and refuses what its short queue
//!   cannot hold: each takes 19 MiB and a core's time by design, and run all at once a burst of
//!   sign-ins took gigabytes and held them; and each name's failed sign-ins, which make the next
//!   attempt wait.
//! * [`api`]: the JSON of the API's requests and answers, kalah-table's, which
//!   the static site's module (kalah-wasm) reads and writes too.
//!
//! The page (`web/`: index.html, style.css and its modules app.js, backend.js, local.js,
//! friends.js, lobby.js, searches.js, words.js; docs/site.md) is built into the crate, so a server needs no files and no network.
//! Without the engine compiled to WebAssembly (the npm package kalah), which only the static site
//! carries, the page asks this server's API. The `kalah serve` command parses its flags into a [`Config`] and calls
//! [`serve`].

pub mod api;
mod app;
mod archive;
pub mod engines;
mod error;
pub mod games;
mod help;
pub mod holder;
pub mod lobby;
mod middleware;
mod page;
pub mod passwords;
mod play;
pub mod players;
pub mod postgres;
pub mod presence;
pub mod server;
mod session;
pub mod sql;
pub mod store;
pub mod tls;
mod words;

#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use kalah_engine::databases::Databases;
use kalah_host::{Certificates, ClientLimits, ConnectionLimits, PublicUrl, TrustedProxies};

pub use app::App;
pub use error::ApiError;
pub use kalah_table::event;
pub use server::{router, serve};
pub use store::{Database, StoreError};

/// How a server runs: its engines' time and memory, and how many games it holds.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most time the engine thinks for a move, a hint or an analysis.
    pub engine_time: Duration,
    /// Most time the explorer solves the moves of a position no opening book holds, together.
    pub explore_time: Duration,
    /// Searches that may run at once.
    pub searches: usize,
    /// Bytes of each engine's transposition table.
    pub table_bytes: usize,
    /// The endgame databases the engines may use, if any: a folder and the memory they may take.
    pub databases: Option<Arc<Databases>>,
    /// Opening books the explorer answers from at once (`GET /api/games/{id}/explore`), for
    /// their rules' positions of the first plies.
    pub books: Vec<Arc<kalah_engine::book::Book>>,
    /// Where the games are kept.
    pub database: Database,
    /// Most games held in memory at once.
    pub max_games: usize,
    /// A game with no request for this long is closed.
    pub idle: Duration,
    /// What each client (an IP address) may ask.
    pub clients: ClientLimits,
    /// The connections' time limits and caps.
    pub connections: ConnectionLimits,
    /// The address people reach the server at, if not the one they type to reach this machine
    /// (behind a proxy): writes must come from its pages, and the page builds invitations on it.
    pub public_url: Option<PublicUrl>,
    /// The reverse proxies whose header (`X-Forwarded-For`, or `Forwarded`) names the real client.
    pub proxies: TrustedProxies,
    /// HTTPS: the certificate served, if the server speaks TLS itself.
    pub tls: Option<Arc<Certificates>>,
    /// Where the server reports what its host may print: each request answered (if
    /// [`Config::access_log`]) and each renewal of its certificate.
    pub reports: Option<tokio::sync::mpsc::UnboundedSender<Report>>,
    /// Whether every request is reported ([`Report::Request`]).
    pub access_log: bool,
}

/// What a running server reports to its host ([`Config::reports`]).
#[derive(Debug)]
pub enum Report {
    /// A request was answered: a line of the access log.
    Request(kalah_host::access::Access),
    /// The certificate's files changed: served now, or not (the earlier one still is).
    Certificate(kalah_host::Refreshed),
}

impl Default for Config {
    /// One second a move, five for the explorer, a search a core, 16 MiB tables, no databases, 1000 games idle for 30 minutes.
    fn default() -> Config {
        Config {
            engine_time: Duration::from_secs(1),
            explore_time: Duration::from_secs(5),
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            table_bytes: 16 << 20,
            databases: None,
            books: Vec::new(),
            database: Database::Memory,
            max_games: 1000,
            idle: Duration::from_secs(30 * 60),
            clients: ClientLimits::default(),
            connections: ConnectionLimits::default(),
            public_url: None,
            proxies: TrustedProxies::default(),
            tls: None,
            reports: None,
            access_log: false,
        }
    }
}
