//! A Kalah Game Protocol server for practice (`kalah kgp serve`): what go-kgp, the KWARC course
//! server, does for a student's agent, on the student's own machine.
//!
//! Agents connect over TCP or WebSocket (optionally behind TLS) and ask for a mode. In
//! **freeplay** an agent is paired with another agent that waits, or after a short wait with a
//! practice bot ([`bot`]: random, greedy, go-kgp's minimax, kalah's engine at levels 1-5); its
//! name can ask for a bot and a board ([`wish`]). Games follow go-kgp's rules, time limit and
//! answers to late, illegal or missing moves (the protocol itself is
//! [`kalah_protocol::kgp::server`], without I/O). In **verify** mode it gets random problems of
//! the rules, checked by `kalah-rules`. Every game is stored with its record in a SQLite file
//! ([`store`]), kept until deleted. With a [`TournamentConfig`] the server plays a round robin
//! ([`tournament`]) between its bots, programs it starts once a move ([`program`]) and agents that
//! connect, whose table is [`standings`]' and whose report (stages, forfeits, illegal and random
//! moves, time) is [`report`]'; the page of games and results is [`web`]. A tournament can play
//! go-kgp's stages (its sanity check, round robins with a cut between them), keeps the place of
//! an agent whose connection ends for a grace, and runs each program's move in a process group
//! of its own with limits.
//!
//! * [`Server::start`] binds the listeners and runs until [`Server::shutdown`]; what happens is
//!   sent to the caller as [`Event`]s, one line each. The library prints nothing and owns no
//!   signal: the front end does.
//! * [`connection`]: one connection: its transport, its protocol session, its timers.
//! * [`lobby`]: pairing agents with agents or bots; [`game`]: one game, move by move, stored.
//! * [`transport`]: lines over TCP and WebSocket as go-kgp frames them, and TLS.
//!
//! The WebSocket route lives on an axum [`Router`] (`/socket`, go-kgp's path), so
//! that pages can be served beside it on the same port.

pub mod bot;
pub mod connection;
pub mod event;
pub mod game;
pub mod lobby;
pub mod program;
pub mod report;
pub mod standings;
pub mod store;
pub mod tournament;
pub mod transport;
pub mod web;
pub mod wish;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use kalah_protocol::kgp::server::ServerConfig;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch, Notify};

pub use bot::Bot;
pub use event::{Event, Transport};
pub use program::Limits;
pub use report::Report;
pub use standings::Standings;
pub use store::{Reader, Store, StoreError};
pub use tournament::{Cut, TournamentConfig};
pub use transport::TlsFiles;
pub use wish::{Board, Wish};

/// The WebSocket path, as go-kgp serves it.
pub const SOCKET_PATH: &str = "/socket";

/// The largest WebSocket message read.
const MAX_MESSAGE: usize = 1 << 20;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen for KGP over TCP, if at all.
    pub tcp: Option<SocketAddr>,
    /// Where to listen for KGP over WebSocket (at `/socket`), if at all.
    pub websocket: Option<SocketAddr>,
    /// A certificate and key: the WebSocket listener speaks TLS (`wss://`).
    pub tls: Option<TlsFiles>,
    /// The database file.
    pub db: PathBuf,
    /// The board of a game whose agents ask for none.
    pub board: Board,
    /// The bot an agent waiting alone plays, when its name asks for none.
    pub bot: Bot,
    /// How long an agent waits for another before it plays a bot.
    pub wait: Duration,
    /// The games a connection plays before the server says goodbye; `None` for no end (go-kgp).
    pub games: Option<u32>,
    /// The protocol's times and verify mode's problems.
    pub session: ServerConfig,
    /// The time kalah's engine takes for a move at level 5 (the lower levels take less).
    pub bot_time: Duration,
    /// The engine searches that run at once.
    pub searches: usize,
    /// A tournament to play instead of freeplay.
    pub tournament: Option<TournamentConfig>,
    /// The longest an HTTP client of the WebSocket listener (the page, or `/socket` before the
    /// upgrade) may take to send a request's headers, from the connection's start or the last
    /// answer: a half-sent request is not held for ever.
    pub header_time: Duration,
    /// The longest a write to a KGP client may wait for it to read before it is dropped, so that
    /// its game does not wait for ever.
    pub write_wait: Duration,
}

impl Config {
    /// go-kgp's protocol and times on loopback: TCP port 2671, WebSocket port 8080, (6,6) boards,
    /// minimax-4 after 2 s alone.
    pub fn new(db: PathBuf) -> Config {
        let loopback = std::net::Ipv4Addr::LOCALHOST;
        Config {
            tcp: Some(SocketAddr::from((loopback, 2671))),
            websocket: Some(SocketAddr::from((loopback, 8080))),
            tls: None,
            db,
            board: Board { houses: 6, seeds: 6 },
            bot: Bot::Minimax { depth: 4, percent: 100 },
            wait: Duration::from_secs(2),
            games: None,
            session: ServerConfig::default(),
            bot_time: Duration::from_secs(1),
            searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            tournament: None,
            header_time: Duration::from_secs(10),
            write_wait: Duration::from_secs(30),
        }
    }
}

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database cannot be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A listener cannot be bound.
    #[error("cannot listen for {what} on {address}: {error}")]
    Bind {
        /// Which listener.
        what: &'static str,
        /// Where.
        address: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// TLS cannot be set up.
    #[error(transparent)]
    Tls(#[from] transport::TlsError),
}

/// Counts the tasks that must end before the server has stopped.
#[derive(Default)]
pub(crate) struct Tracker {
    running: AtomicUsize,
    idle: Notify,
}

/// A running task's place in the [`Tracker`], given back when it ends however it ends.
pub(crate) struct Running(Arc<Shared>);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.tracker.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.tracker.idle.notify_waiters();
        }
    }
}

/// What every task of the server shares.
pub struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Store,
    pub(crate) engines: Arc<bot::Engines>,
    pub(crate) lobby: mpsc::UnboundedSender<lobby::Agent>,
    pub(crate) events: mpsc::UnboundedSender<Event>,
    pub(crate) stop: watch::Receiver<bool>,
    next_connection: AtomicU64,
    tracker: Tracker,
}

impl Shared {
    /// Reports an event (a front end that stopped listening loses nothing that matters).
    pub(crate) fn report(&self, event: Event) {
        let _ = self.events.send(event);
    }

    /// Counts a task as running until the returned guard is dropped.
    pub(crate) fn running(self: &Arc<Self>) -> Running {
        self.tracker.running.fetch_add(1, Ordering::AcqRel);
        Running(Arc::clone(self))
    }

    /// Tells whether the server is stopping.
    pub(crate) fn stopping(&self) -> bool {
        *self.stop.borrow()
    }
}

/// A running server.
pub struct Server {
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    tcp: Option<SocketAddr>,
    websocket: Option<SocketAddr>,
    certificates: Option<Arc<kalah_host::Certificates>>,
}

impl Server {
    /// Opens the database, binds the listeners and starts serving; events go to `events`.
    pub async fn start(config: Config, events: mpsc::UnboundedSender<Event>) -> Result<Server, ServeError> {
        let store = Store::open(&config.db)?;
        let certificates = config.tls.clone().map(kalah_host::Certificates::open).transpose()?;
        let tls = certificates.as_ref().map(transport::acceptor).transpose()?;
        let bind = |what, address| async move {
            TcpListener::bind(address).await.map_err(|error| ServeError::Bind { what, address, error })
        };
        let tcp = match config.tcp {
            Some(address) => Some(bind("KGP over TCP", address).await?),
            None => None,
        };
        let websocket = match config.websocket {
            Some(address) => Some(bind("KGP over WebSocket", address).await?),
            None => None,
        };
        let (stop, stopped) = watch::channel(false);
        let (lobby, joins) = mpsc::unbounded_channel();
        let engines = Arc::new(bot::Engines::new(config.searches, 4 << 20, config.bot_time));
        let shared = Arc::new(Shared {
            config,
            store,
            engines,
            lobby,
            events,
            stop: stopped,
            next_connection: AtomicU64::new(1),
            tracker: Tracker::default(),
        });
        if shared.config.tournament.is_some() {
            tokio::spawn(tournament::run(Arc::clone(&shared), joins));
        } else {
            tokio::spawn(lobby::run(Arc::clone(&shared), joins));
        }
        if let Some(certificates) = &certificates {
            tokio::spawn(transport::renew(Arc::clone(certificates), shared.events.clone(), shared.stop.clone()));
        }
        let mut server = Server { shared: Arc::clone(&shared), stop, tcp: None, websocket: None, certificates };
        if let Some(listener) = tcp {
            let address = listener.local_addr().map_err(|error| ServeError::Bind {
                what: "KGP over TCP",
                address: shared.config.tcp.unwrap_or(([0, 0, 0, 0], 0).into()),
                error,
            })?;
            server.tcp = Some(address);
            shared.report(Event::Listening { transport: Transport::Tcp, address });
            tokio::spawn(accept_tcp(Arc::clone(&shared), listener));
        }
        if let Some(listener) = websocket {
            let address = listener.local_addr().map_err(|error| ServeError::Bind {
                what: "KGP over WebSocket",
                address: shared.config.websocket.unwrap_or(([0, 0, 0, 0], 0).into()),
                error,
            })?;
            server.websocket = Some(address);
            let app = routes(Arc::clone(&shared));
            let header_time = shared.config.header_time;
            let stop = shared.stop.clone();
            match tls {
                Some(acceptor) => {
                    let events = shared.events.clone();
                    let failed = move |peer: SocketAddr, why: String| {
                        let _ = events.send(Event::Trouble(format!("TLS handshake with {peer} failed: {why}")));
                    };
                    let listener = transport::TlsListener::new(listener, acceptor, failed)
                        .map_err(|error| ServeError::Bind { what: "KGP over WebSocket", address, error })?;
                    shared.report(Event::Listening { transport: Transport::WebSocketTls, address });
                    tokio::spawn(transport::serve_http(listener, app, header_time, stop));
                }
                None => {
                    shared.report(Event::Listening { transport: Transport::WebSocket, address });
                    tokio::spawn(transport::serve_http(listener, app, header_time, stop));
                }
            }
        }
        Ok(server)
    }

    /// Returns the address the TCP listener is bound to.
    pub fn tcp_address(&self) -> Option<SocketAddr> {
        self.tcp
    }

    /// Returns the address the WebSocket listener is bound to.
    pub fn websocket_address(&self) -> Option<SocketAddr> {
        self.websocket
    }

    /// Returns the certificate the WebSocket listener serves over TLS: a front end may read it
    /// again on its own signal ([`Certificates::reload`](kalah_host::Certificates::reload)), as
    /// `kalah kgp serve` does on SIGHUP. Renewed files are found without it, within
    /// [`CHECKED_EVERY`](kalah_host::certificates::CHECKED_EVERY).
    pub fn certificates(&self) -> Option<&Arc<kalah_host::Certificates>> {
        self.certificates.as_ref()
    }

    /// Stops: no new connections, `goodbye` to every connection, and waits until every game has
    /// ended and been stored.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        loop {
            let idle = self.shared.tracker.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if self.shared.tracker.running.load(Ordering::Acquire) == 0 {
                break;
            }
            idle.await;
        }
    }
}

/// The HTTP routes of the WebSocket listener: `/socket`, and the page ([`web`]).
fn routes(shared: Arc<Shared>) -> Router {
    let page = web::router(shared.config.db.clone());
    Router::new().route(SOCKET_PATH, get(upgrade)).with_state(shared).merge(page)
}

async fn upgrade(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ws: WebSocketUpgrade,
) -> impl IntoResponse {
    // A message holds a few lines: a larger one is refused before it is held (lines themselves
    // are kept to 64 KiB by the line reader).
    ws.max_message_size(MAX_MESSAGE).max_frame_size(MAX_MESSAGE).on_upgrade(move |socket| async move {
        if shared.stopping() {
            return;
        }
        let running = shared.running();
        let id = shared.next_connection.fetch_add(1, Ordering::Relaxed);
        connection::run(shared, id, peer, transport::Lines::websocket(socket), "WebSocket").await;
        drop(running);
    })
}

async fn accept_tcp(shared: Arc<Shared>, listener: TcpListener) {
    let mut stop = shared.stop.clone();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|s| *s) => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                shared.report(Event::Trouble(format!("cannot accept a TCP connection: {error}")));
                // Out of descriptors and the like: wait rather than spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let running = shared.running();
        let id = shared.next_connection.fetch_add(1, Ordering::Relaxed);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            connection::run(Arc::clone(&shared), id, peer, transport::Lines::stream(Box::new(stream)), "TCP").await;
            drop(running);
        });
    }
}
