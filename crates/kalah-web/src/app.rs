//! The server's state ([`App`]): its games, engines, lobby, presence, limits and the page's address.

use std::sync::Arc;
use std::time::Duration;

use kalah_host::connections::ConnectionLimits;
use kalah_host::guard::{Channels, Limiter};
use kalah_host::proxy::{PublicUrl, TrustedProxies};
use kalah_host::Certificates;
use tokio::sync::{mpsc, watch};

use crate::engines::Engines;
use crate::games::Games;
use crate::lobby::Hall;
use crate::passwords::Passwords;
use crate::presence::{self, Presence};
use crate::store::StoreError;
use crate::{Config, Report};

/// The largest request body: a long game record fits many times over.
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// What the handlers share.
pub struct App {
    pub(crate) games: Games,
    pub(crate) engines: Arc<Engines>,
    pub(crate) engine_time: Duration,
    /// The explorer's time for a position no book holds.
    pub(crate) explore_time: Duration,
    /// The opening books of the explorer.
    pub(crate) books: Vec<Arc<kalah_engine::book::Book>>,
    pub(crate) limiter: Limiter,
    pub(crate) connections: ConnectionLimits,
    /// Which players of each game between friends follow it live now.
    pub(crate) presence: Arc<Presence>,
    /// This server's presence changes, to tell the servers that share the database (taken by
    /// [`serve`]).
    pub(crate) presence_changes: std::sync::Mutex<Option<mpsc::UnboundedReceiver<presence::Change>>>,
    /// Set when the server stops: long-lived answers end.
    pub(crate) closing: watch::Sender<bool>,
    /// The address people reach the server at, if set.
    pub(crate) public_url: Option<PublicUrl>,
    /// The proxies trusted to name their clients.
    pub(crate) proxies: TrustedProxies,
    /// The live channels each client holds, and the most it may.
    pub(crate) channels: Channels,
    pub(crate) most_channels: u32,
    /// The lobby: open challenges, and the channel its changes are told on.
    pub(crate) lobby: Hall,
    /// The password work (sign-ins, new passwords): a bounded pool, and each name's failures.
    pub(crate) passwords: Passwords,
    /// The certificate, if the server speaks HTTPS itself.
    pub(crate) tls: Option<Arc<Certificates>>,
    /// Where to report requests and certificate renewals.
    pub(crate) reports: Option<mpsc::UnboundedSender<Report>>,
    pub(crate) access_log: bool,
    /// The page's HTML: the built-in one, with the public address as its canonical link if set.
    pub(crate) index: String,
}

impl App {
    /// Returns the server's state for `config`, its games in `config.database`.
    pub fn new(config: &Config) -> Result<App, StoreError> {
        let games = Games::open(&config.database, config.max_games, config.idle)?;
        let (presence, presence_changes) = match games.shared() {
            Some(_) => {
                let (presence, changes) = Presence::shared();
                (presence, Some(changes))
            }
            None => (Presence::default(), None),
        };
        Ok(App {
            games,
            engines: Arc::new(Engines::new(config.searches, config.table_bytes, config.databases.clone())),
            engine_time: config.engine_time,
            explore_time: config.explore_time,
            books: config.books.clone(),
            limiter: Limiter::new(config.clients),
            connections: config.connections,
            presence: Arc::new(presence),
            presence_changes: std::sync::Mutex::new(presence_changes),
            closing: watch::channel(false).0,
            public_url: config.public_url.clone(),
            proxies: config.proxies.clone(),
            channels: Channels::default(),
            lobby: Hall::default(),
            passwords: Passwords::default(),
            most_channels: config.clients.channels.max(1),
            tls: config.tls.clone(),
            reports: config.reports.clone(),
            access_log: config.access_log,
            index: index(config.public_url.as_ref()),
        })
    }
}

/// Returns the page's HTML: marked as served (backend.js then asks this server at once, and
/// never looks for the static site's WebAssembly module, which a server does not carry) and,
/// with a public address, a canonical link to it, from which the page builds its invitations
/// and links.
fn index(public: Option<&PublicUrl>) -> String {
    let html = include_str!("../web/index.html");
    let mut head = "  <meta name=\"kalah-backend\" content=\"server\">\n".to_string();
    if let Some(url) = public {
        head.push_str(&format!("  <link rel=\"canonical\" href=\"{}\">\n", url.page()));
    }
    html.replacen("</head>", &format!("{head}</head>"), 1)
}
