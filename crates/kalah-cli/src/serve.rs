//! `kalah serve`: the browser game ([`kalah_web`]) on a local port.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use kalah_engine::databases::Memory;
use kalah_host::{
    Certificates, ClientLimits, ConnectionLimits, ProxyHeader, PublicUrl, Refreshed, TlsFiles, TrustedProxies,
};
use kalah_web::{App, Config, Database, Report, StoreError};

use crate::engine::{egdb_folder, shared_databases};
use crate::error::bad;
use crate::files::Kind;
use crate::kgp_server::data_file;

/// Flags of `kalah serve`.
// The fields' comments are the terminal's help, where an address is written bare.
#[allow(rustdoc::bare_urls)]
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (the address is printed)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Most time the engine thinks for a move, a hint or an analysis, in milliseconds (1-60000)
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub engine_time: u64,
    /// Most time the explorer solves the moves of a position not in an opening book, all together, in milliseconds (1-60000)
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub explore_time: u64,
    /// Searches that may run at once (1-64) [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub searches: Option<usize>,
    /// Transposition table of each engine in MiB (1-4096)
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub hash: usize,
    /// Most games held in memory at once (1-100000); more are refused until some are idle or deleted
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_games: usize,
    /// A game with no request for this many minutes leaves memory, not the database (1-10080)
    #[arg(long, value_name = "MINUTES", default_value_t = 30)]
    pub idle_minutes: u64,
    /// Requests a second one client (an IP address) may send, on average (1-100000)
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub client_requests: u32,
    /// New games, names and lobby challenges a minute one client (an IP address) may start, on average (1-100000)
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub client_games: u32,
    /// Live channels one client (an IP address) may hold open at once, a page following a game holding one (1-100000)
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub client_channels: u32,
    /// Connections one client (an IP address) may hold open at once; a trusted proxy's are not counted (1-100000)
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub client_connections: usize,
    /// Most connections open at once (1-100000); more are answered 503
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub max_connections: usize,
    /// The address people reach the server at, an origin such as https://kalah.example (behind a
    /// proxy, or where this machine's own address is not the one players type): invitations are
    /// built on it and writes must come from its page
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// A reverse proxy whose header (--proxy-header) names the real client, for every per-client
    /// limit and the access log: an address or CIDR block (repeat, or separate by commas)
    #[arg(long, value_name = "ADDR|CIDR")]
    pub trusted_proxy: Vec<String>,
    /// The one header the trusted proxies set to name their client: x-forwarded-for (nginx,
    /// Caddy) or forwarded (RFC 7239); the other is the client's own word and is never read
    #[arg(long, value_name = "HEADER", default_value = "x-forwarded-for", requires = "trusted_proxy")]
    pub proxy_header: String,
    /// Serve HTTPS with this certificate chain, PEM (certbot's fullchain.pem); read again when it changes or on SIGHUP
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,
    /// The private key of --cert, PEM (certbot's privkey.pem)
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,
    /// Write one line a request in the combined log format (no tokens): to FILE (appended) or - for standard output
    #[arg(long, value_name = "FILE|-")]
    pub access_log: Option<PathBuf>,
    /// Where games are kept: an SQLite file (made if missing), or a PostgreSQL database shared by
    /// several servers, postgres://USER:PASSWORD@HOST:PORT/DATABASE (password and port may be left
    /// out; TLS as libpq: ?sslmode=verify-full&sslrootcert=CA.pem) [default: the user's data
    /// folder, kalah/games.sqlite]
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
    /// Folder of the endgame databases [default: the user's cache folder, kalah/egdb]
    #[arg(long, value_name = "DIR")]
    pub egdb_dir: Option<PathBuf>,
    /// Do not use endgame databases even if they are there
    #[arg(long)]
    pub no_egdb: bool,
    /// An opening book that the explorer answers from at once (repeatable; `kalah solve book` writes them)
    #[arg(long, value_name = "FILE")]
    pub book: Vec<PathBuf>,
}

/// Checks that a flag's value is in range.
fn check<T: PartialOrd + std::fmt::Display>(flag: &str, value: T, low: T, high: T, unit: &str) -> Result<()> {
    if value < low || value > high {
        return Err(bad(format!("--{flag} {value} is out of range: {low} to {high} {unit}")));
    }
    Ok(())
}

/// Runs `kalah serve` until Ctrl-C.
pub fn run(args: ServeArgs) -> Result<()> {
    check("engine-time", args.engine_time, 1, 60_000, "milliseconds")?;
    check("explore-time", args.explore_time, 1, 60_000, "milliseconds")?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let searches = args.searches.unwrap_or(cores);
    check("searches", searches, 1, 64, "searches")?;
    check("hash", args.hash, 1, 4096, "MiB")?;
    check("max-games", args.max_games, 1, 100_000, "games")?;
    check("idle-minutes", args.idle_minutes, 1, 10_080, "minutes")?;
    check("client-requests", args.client_requests, 1, 100_000, "requests a second")?;
    check("client-games", args.client_games, 1, 100_000, "games a minute")?;
    check("max-connections", args.max_connections, 1, 100_000, "connections")?;
    check("client-channels", args.client_channels, 1, 100_000, "channels")?;
    check("client-connections", args.client_connections, 1, 100_000, "connections")?;
    let public_url = match &args.public_url {
        Some(url) => Some(url.parse::<PublicUrl>().map_err(|e| bad(format!("--public-url: {e}")))?),
        None => None,
    };
    let header: ProxyHeader = args.proxy_header.parse().map_err(|e| bad(format!("--proxy-header: {e}")))?;
    let proxies = TrustedProxies::parse(args.trusted_proxy.iter().map(String::as_str))
        .map_err(|e| bad(format!("--trusted-proxy: {e}")))?
        .reading(header);
    let tls = match (&args.cert, &args.key) {
        (Some(cert), Some(key)) => Some(
            Certificates::open(TlsFiles { cert: cert.clone(), key: key.clone() })
                .map_err(|e| bad(format!("--cert/--key: {e}")))?,
        ),
        _ => None,
    };
    let access_log = match &args.access_log {
        None => None,
        Some(path) if path.as_os_str() == "-" => Some(AccessLog::Standard),
        Some(path) => Some(AccessLog::File(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| bad(format!("--access-log: cannot open {} to append to: {e}", path.display())))?,
        )),
    };
    let (reports, reported) = tokio::sync::mpsc::unbounded_channel();
    // The databases keep within what the machine can spare beside every engine's table.
    let tables = Memory::mib((searches * args.hash) as u64);
    let databases = shared_databases(egdb_folder(args.egdb_dir.as_ref(), args.no_egdb), tables);
    let books =
        args.book.iter().map(|path| crate::explore::read_book(path, None).map(Arc::new)).collect::<Result<Vec<_>>>()?;
    let config = Config {
        books,
        engine_time: Duration::from_millis(args.engine_time),
        explore_time: Duration::from_millis(args.explore_time),
        searches,
        table_bytes: args.hash << 20,
        databases,
        database: match args.db {
            Some(db) => Database::parse(db.as_os_str()).map_err(|e| bad(format!("--db: {e}")))?,
            None => Database::Sqlite(data_file("games.sqlite")?),
        },
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle_minutes * 60),
        clients: ClientLimits {
            requests_per_second: args.client_requests,
            games_per_minute: args.client_games,
            channels: args.client_channels,
        },
        connections: ConnectionLimits {
            max: args.max_connections,
            per_client: args.client_connections,
            ..ConnectionLimits::default()
        },
        public_url: public_url.clone(),
        proxies,
        tls: tls.clone(),
        reports: Some(reports),
        access_log: access_log.is_some(),
    };
    let db = config.database.to_string();
    let app = Arc::new(App::new(&config).map_err(|e| {
        let hint = match &config.database {
            Database::Postgres(_) => format!(
                "; check that PostgreSQL runs there, the database exists and the user may connect (--db takes an SQLite FILE or {})",
                kalah_web::postgres::FORM
            ),
            _ => String::new(),
        };
        match e {
            // These say what is wrong and what to do with the file.
            StoreError::Held { .. } | StoreError::Unwritable { .. } | StoreError::Lock { .. } => bad(e.to_string()),
            e => bad(format!("cannot open the game database {db}: {e}{hint}")),
        }
    })?);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the server")?;
    runtime.block_on(async move {
        let address = format!("{}:{}", args.host, args.port);
        let listener = listen(&address).await.map_err(|e| {
            bad(format!("cannot listen on {address}: {e}; pick another --port (0 picks a free one) or --host"))
        })?;
        let bound: SocketAddr = listener.local_addr().context("cannot read the address listened on")?;
        // Written down before the address is printed: a second server on the file names it.
        app.serving(bound).context("cannot write the address into the game database")?;
        let shutdown = interrupted().context("cannot listen for Ctrl-C")?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let at = match &public_url {
            Some(url) => format!("{} (served at {scheme}://{bound}/)", url.page()),
            None => page_address(scheme, bound),
        };
        // Not println!, which panics on a closed pipe; a log nobody reads does not stop the server.
        let _ = writeln!(std::io::stdout(), "kalah serve: play at {at} (Ctrl-C stops); games are kept in {db}");
        let printing = std::thread::spawn(move || print_reports(reported, access_log));
        #[cfg(unix)]
        if let Some(certificates) = tls {
            reload_on_hangup(certificates, |reloaded| match reloaded {
                Ok(()) => {
                    let _ = writeln!(std::io::stdout(), "kalah serve: SIGHUP: the certificate was read again");
                }
                Err(e) => {
                    eprintln!("kalah serve: SIGHUP: cannot read the certificate ({e}): still serving the earlier one")
                }
            })
            .context("cannot listen for SIGHUP")?;
        }
        let served = kalah_web::serve(listener, app, shutdown).await.context("the server stopped");
        // The reports end with the server: the printer prints what is left, then ends.
        drop(printing);
        served
    })
}

/// Returns the page's address to print for a server listening on `bound`: on every network
/// (0.0.0.0 or ::), the machine's own address on its network, which a friend's device can reach,
/// rather than an address that names no machine.
fn page_address(scheme: &str, bound: SocketAddr) -> String {
    if !bound.ip().is_unspecified() {
        return format!("{scheme}://{bound}/");
    }
    // Connecting a UDP socket sends nothing: it only picks the address the machine would send from.
    let own = std::net::UdpSocket::bind((bound.ip(), 0))
        .and_then(|socket| {
            let probe: SocketAddr = if bound.is_ipv4() {
                "192.0.2.1:9".parse().expect("an address")
            } else {
                "[2001:db8::1]:9".parse().expect("an address")
            };
            socket.connect(probe)?;
            socket.local_addr()
        })
        .map(|local| local.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified() && !ip.is_loopback());
    match own {
        Some(ip) => format!("{scheme}://{}/ (every network)", SocketAddr::new(ip, bound.port())),
        None => format!(
            "{scheme}://{}/ (every network)",
            SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), bound.port())
        ),
    }
}

/// Where the access log goes.
enum AccessLog {
    Standard,
    File(std::fs::File),
}

/// Prints what the server reports until it stops: the access log's lines where `--access-log`
/// says, and every certificate renewal on standard output (a failed one on standard error).
fn print_reports(mut reported: tokio::sync::mpsc::UnboundedReceiver<Report>, log: Option<AccessLog>) {
    let mut file = match log {
        Some(AccessLog::File(file)) => Some(std::io::LineWriter::new(file)),
        _ => None,
    };
    let standard = file.is_none();
    while let Some(report) = reported.blocking_recv() {
        match report {
            Report::Request(access) => {
                // A log whose reader has gone (a closed pipe, a full disk) does not stop the server.
                let _ = match &mut file {
                    Some(file) => writeln!(file, "{access}"),
                    None if standard => writeln!(std::io::stdout(), "{access}"),
                    None => Ok(()),
                };
            }
            Report::Certificate(Refreshed::Reloaded) => {
                let _ = writeln!(std::io::stdout(), "kalah serve: the certificate changed: serving the new one");
            }
            Report::Certificate(Refreshed::Failed(e)) => {
                eprintln!(
                    "kalah serve: the certificate changed but cannot be served ({e}): still serving the earlier one"
                );
            }
            Report::Certificate(Refreshed::Unchanged) => {}
        }
    }
}

/// Reads the certificate again on each SIGHUP, as nginx does, whether or not its files changed,
/// and gives `say` what happened (`kalah serve` and `kalah kgp serve` print it their way).
#[cfg(unix)]
pub(crate) fn reload_on_hangup(
    certificates: std::sync::Arc<Certificates>,
    say: impl Fn(Result<(), kalah_host::TlsError>) + Send + 'static,
) -> std::io::Result<()> {
    let mut hangups = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
    tokio::spawn(async move {
        while hangups.recv().await.is_some() {
            say(certificates.reload());
        }
    });
    Ok(())
}

/// Connections that may wait to be accepted. Tokio's default, 1,024, overflowed when a thousand
/// games' players connected at once (a request and a live channel each): a connection dropped
/// so is only tried again a second later. The system may allow fewer (`net.core.somaxconn`).
const BACKLOG: u32 = 4096;

/// Listens on `address` (a host and a port), on the first of its addresses that can be bound.
async fn listen(address: &str) -> std::io::Result<tokio::net::TcpListener> {
    let mut failed = None;
    for at in tokio::net::lookup_host(address).await? {
        let socket = if at.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
        // As the standard library's bind does on Unix: a server started again at once may
        // take its port back from the connections of the one before.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        match socket.bind(at).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => failed = Some(e),
        }
    }
    Err(failed.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "the host has no address")))
}

/// Ctrl-C (SIGINT) or, on Unix, SIGTERM (what `kill`, systemd and `docker stop` send), listened
/// for from this call on: either stops the server as Ctrl-C does, every game kept, status 0.
/// `tokio::signal::ctrl_c` listens only once it is first polled: a Ctrl-C that came after a
/// server's first line and before that poll (a script that stops the server as soon as it reads
/// the line) ended the process without stopping it. Call it inside the runtime.
pub(crate) fn interrupted() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let (mut interrupt, mut terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?)
    };
    #[cfg(windows)]
    let mut signal = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
        #[cfg(windows)]
        signal.recv().await;
    })
}

/// `kalah serve`, or one of its sub-commands (`kalah serve backup`, `kalah serve remove-player`).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ServeCommand {
    /// `backup` or `remove-player`, if given.
    #[command(subcommand)]
    pub action: Option<ServeAction>,
    /// The server's flags.
    #[command(flatten)]
    pub args: ServeArgs,
}

/// The sub-commands of `kalah serve`.
#[derive(Subcommand, Debug)]
pub enum ServeAction {
    /// Write a consistent copy of the SQLite game database to a new FILE, even while a server runs on it
    Backup(BackupArgs),
    /// Remove a player's name (the host's decision): it cannot sign in or be picked again, its ratings are deleted and its games show "removed"
    RemovePlayer(RemovePlayerArgs),
}

/// Flags of `kalah serve backup`.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The copy to write: a new file (an existing one is refused)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The database to copy [default: as kalah serve]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// Runs `kalah serve backup`: the database copied with SQLite's `VACUUM INTO` (one snapshot, so
/// consistent while a server writes) into a temporary file beside FILE, synced, then renamed.
pub fn backup(args: BackupArgs) -> Result<()> {
    let database = match args.db {
        Some(db) => Database::parse(db.as_os_str()).map_err(|e| bad(format!("--db: {e}")))?,
        None => Database::Sqlite(data_file("games.sqlite")?),
    };
    let source = match database {
        Database::Sqlite(path) => path,
        Database::Postgres(address) => {
            return Err(bad(format!(
                "kalah serve backup copies an SQLite file; back up PostgreSQL with its own tool: pg_dump -Fc -f {} '{address}' (restore with pg_restore)",
                args.file.display()
            )))
        }
        Database::Memory => return Err(bad("--db: a database in memory cannot be backed up")),
    };
    if !source.is_file() {
        return Err(bad(format!(
            "there is no game database at {}: give the SQLite file kalah serve keeps its games in with --db",
            source.display()
        )));
    }
    let kind = Kind::new_only("a backup");
    crate::files::create(&args.file, &kind, |temporary| kalah_web::store::backup(&source, temporary))
        .map_err(|e| e.into_error("kalah serve backup writes a new file: give another FILE"))?;
    writeln!(std::io::stdout(), "kalah serve backup: {} copied to {}", source.display(), args.file.display())?;
    Ok(())
}

/// Flags of `kalah serve remove-player`.
// The fields' comments are the terminal's help, where an address is written bare.
#[allow(rustdoc::bare_urls)]
#[derive(Args, Debug)]
pub struct RemovePlayerArgs {
    /// The player's name (in any case)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The game database: an SQLite file no server holds (stop the server first), or a PostgreSQL
    /// database, postgres://USER:PASSWORD@HOST:PORT/DATABASE, while its servers run [default: as
    /// kalah serve]
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
}

/// Runs `kalah serve remove-player`: the name is removed from the database as
/// `kalah_web::store::Store::remove_player` does, for a host who must take a name away (an
/// offensive one, or at its player's request).
pub fn remove_player(args: RemovePlayerArgs) -> Result<()> {
    let database = match args.db {
        Some(db) => Database::parse(db.as_os_str()).map_err(|e| bad(format!("--db: {e}")))?,
        None => Database::Sqlite(data_file("games.sqlite")?),
    };
    // Opening makes a missing file: a mistyped --db must not leave an empty database behind.
    if let Database::Sqlite(path) = &database {
        if !path.is_file() {
            return Err(bad(format!(
                "there is no game database at {}: give the SQLite file kalah serve keeps its games in with --db",
                path.display()
            )));
        }
    }
    let store = kalah_web::store::Store::open(&database).map_err(|e| match e {
        // These say what is wrong and what to do with the file (a server holding it, say).
        StoreError::Held { .. } | StoreError::Unwritable { .. } | StoreError::Lock { .. } => bad(e.to_string()),
        e => bad(format!("cannot open the game database {database}: {e}")),
    })?;
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start a runtime")?;
    let key = args.name.to_ascii_lowercase();
    let removed = runtime
        .block_on(store.remove_player(&key, kalah_web::event::Moment::now()))
        .with_context(|| format!("cannot remove {} from {database}", args.name))?;
    if !removed {
        return Err(bad(format!("no player is named {} in {database} (never picked, or removed already)", args.name)));
    }
    writeln!(std::io::stdout(), "kalah serve remove-player: {} removed", args.name)?;
    Ok(())
}
