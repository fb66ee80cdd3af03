//! The HTTP side: the routes of the page and the API, built from kalah-table's list of routes
//! ([`ROUTES`]), and their handlers. What a request does to a game is the game's table's
//! ([`kalah_table::Table`]: who may act, the request bodies, the refusals): a handler reads who
//! sends it (the `Authorization: Bearer` token), calls the table, stores the change and answers;
//! every refusal ([`Refused`]) becomes its status in one place (`From<Refused> for ApiError`).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, on, MethodFilter, MethodRouter};
use axum::{Json, Router};
use kalah_course::trace;
use kalah_engine::explorer::Budget;
use kalah_engine::time::Limits;
use kalah_rules::{record, Game, RecordWarning, Side};
use kalah_table::refused::one_line;
use kalah_table::request::Command;
use kalah_table::route::{self, Hosts, Route, ROUTES};
use kalah_table::{request, Actor, GameState, Help, Host, Moment, Refused};
use kalah_table::{Analysis, Explored, Hint};
use serde_json::json;
use tokio::sync::{mpsc, watch};

use crate::api;
use crate::engines::{Engines, Failed, Kind};
use crate::games::{self, Games, Held, Missing, Session};
use crate::lobby::{self, Hall};
use crate::passwords::Passwords;
use crate::postgres::Notice;
use crate::presence::{self, Attending, Presence};
use crate::store::StoreError;
use crate::words::Said;
use crate::{Config, Report};
use kalah_host::access::Access;
use kalah_host::connections::{self, ConnectionLimits, Listening};
use kalah_host::guard::{self, Channels, Client, Limiter};
use kalah_host::proxy::{PublicUrl, TrustedProxies};
use kalah_host::Certificates;

/// The page, built into the binary so that `kalah serve` works from any folder with no network:
/// each file's path, type and text. The static site (scripts/site.sh) holds the same files and
/// the npm package kalah (the engine compiled to WebAssembly, its worker), which this page does
/// without: local.js fails to import it, and the page asks the API instead.
const PAGE: [(&str, &str, &str); 14] = [
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/index.html", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("/backend.js", "text/javascript; charset=utf-8", include_str!("../web/backend.js")),
    ("/local.js", "text/javascript; charset=utf-8", include_str!("../web/local.js")),
    ("/friends.js", "text/javascript; charset=utf-8", include_str!("../web/friends.js")),
    ("/lobby.js", "text/javascript; charset=utf-8", include_str!("../web/lobby.js")),
    ("/searches.js", "text/javascript; charset=utf-8", include_str!("../web/searches.js")),
    ("/words.js", "text/javascript; charset=utf-8", include_str!("../web/words.js")),
    ("/manifest.webmanifest", "application/manifest+json", include_str!("../web/manifest.webmanifest")),
    ("/icon.svg", "image/svg+xml", include_str!("../web/icon.svg")),
    // The board, shared with kalah kgp serve's page.
    ("/board.js", "text/javascript; charset=utf-8", kalah_board::SCRIPT),
    ("/board.css", "text/css; charset=utf-8", kalah_board::STYLE),
];

/// The largest request body: a long game record fits many times over.
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// What the handlers share.
pub struct App {
    pub(crate) games: Games,
    engines: Arc<Engines>,
    engine_time: Duration,
    /// The explorer's time for a position no book holds.
    explore_time: Duration,
    /// The opening books of the explorer.
    books: Vec<Arc<kalah_engine::book::Book>>,
    limiter: Limiter,
    connections: ConnectionLimits,
    /// Which players of each game between friends follow it live now.
    presence: Arc<Presence>,
    /// This server's presence changes, to tell the servers that share the database (taken by
    /// [`serve`]).
    presence_changes: std::sync::Mutex<Option<mpsc::UnboundedReceiver<presence::Change>>>,
    /// Set when the server stops: long-lived answers end.
    pub(crate) closing: watch::Sender<bool>,
    /// The address people reach the server at, if set.
    public_url: Option<PublicUrl>,
    /// The proxies trusted to name their clients.
    proxies: TrustedProxies,
    /// The live channels each client holds, and the most it may.
    pub(crate) channels: Channels,
    pub(crate) most_channels: u32,
    /// The lobby: open challenges, and the channel its changes are told on.
    pub(crate) lobby: Hall,
    /// The password work (sign-ins, new passwords): a bounded pool, and each name's failures.
    pub(crate) passwords: Passwords,
    /// The certificate, if the server speaks HTTPS itself.
    tls: Option<Arc<Certificates>>,
    /// Where to report requests and certificate renewals.
    reports: Option<mpsc::UnboundedSender<Report>>,
    access_log: bool,
    /// The page's HTML: the built-in one, with the public address as its canonical link if set.
    index: String,
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

/// Serves the page and the API on `listener` (over TLS if the configuration has a certificate)
/// until `shutdown` completes, closing idle games as they expire; the connections are capped
/// and timed ([`ConnectionLimits`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = Arc::clone(&app);
    let sweeping = tokio::spawn(async move {
        let mut tick = tokio::time::interval((sweeper.games.idle() / 4).min(Duration::from_secs(60)));
        loop {
            tick.tick().await;
            sweeper.games.expire(Instant::now());
            sweeper.limiter.forget_idle(Instant::now());
            sweeper.passwords.forget_idle(Instant::now());
            sweeper.presence.forget_unfollowed();
            sweeper.lobby.expire(&sweeper, Moment::now()).await;
        }
    });
    // A player who is gone still loses on time: the clocks are checked every second.
    let clocks = Arc::clone(&app);
    let ticking = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            clocks.games.check_clocks(Moment::now()).await;
        }
    });
    // The lobby hears of each paired game's end; games whose end was stored by a server that
    // stopped before settling them are settled now.
    let endings = tokio::spawn(lobby::follow_endings(Arc::clone(&app)));
    app.lobby.reload(&app).await;
    if let Err(why) = app.games.settle_unsettled().await {
        let message = missing(&app, "", why).message;
        return Err(std::io::Error::other(format!(
            "cannot settle the rated games that ended as the server stopped: {message}"
        )));
    }
    // With a shared database (PostgreSQL), the changes other servers store reach the games
    // held here and their live channels, and the servers tell each other who is here.
    let (retell, retelling) = mpsc::unbounded_channel();
    let following = app.games.notices().map(|mut notices| {
        let follower = Arc::clone(&app);
        tokio::spawn(async move {
            while let Some(notice) = notices.recv().await {
                match notice {
                    Notice::Here { from, changes } => follower.presence.heard(from, changes),
                    Notice::Asked { .. } => {
                        let _ = retell.send(Retell::Answer);
                    }
                    Notice::Lobby { event, data } => follower.lobby.heard(&event, &data),
                    Notice::Missed => {
                        follower.games.follow(Notice::Missed).await;
                        follower.lobby.reload(&follower).await;
                        // What the others told may be out of date: they are asked again, and
                        // told again who is here through this server.
                        follower.presence.forget_elsewhere();
                        let _ = retell.send(Retell::Ask);
                    }
                    notice => follower.games.follow(notice).await,
                }
            }
        })
    });
    let changes = app.presence_changes.lock().unwrap_or_else(|e| e.into_inner()).take();
    let telling = changes.map(|changes| tokio::spawn(tell_presence(Arc::clone(&app), changes, retelling)));
    let tls = match &app.tls {
        Some(certificates) => Some(certificates.acceptor().map_err(std::io::Error::other)?),
        None => None,
    };
    // A renewed certificate (certbot writes the files in place) is served from the next
    // connection on.
    let renewing = app.tls.clone().map(|certificates| {
        let reports = app.reports.clone();
        tokio::spawn(certificates.watch(move |refreshed| {
            if let Some(reports) = &reports {
                let _ = reports.send(Report::Certificate(refreshed));
            }
            std::ops::ControlFlow::Continue(())
        }))
    });
    let limits = app.connections;
    let closing = app.closing.clone();
    let listening = Listening { listener, tls, proxies: app.proxies.clone() };
    let served = connections::serve(listening, router(app), limits, shutdown, closing).await;
    sweeping.abort();
    ticking.abort();
    endings.abort();
    for task in [following, telling, renewing].into_iter().flatten() {
        task.abort();
    }
    served
}

/// What the presence teller is asked to do besides telling this server's changes.
enum Retell {
    /// Another server asked: tell it who is here through this one.
    Answer,
    /// Notices may have been missed: ask the others, and tell them again.
    Ask,
}

/// How often the other servers that told of a player here are checked to be still running.
const PROCESSES_CHECKED: Duration = Duration::from_secs(2);

/// Tells the servers sharing the database who is here through this one, one notice after the
/// other so that they hear the changes of a game in order; answers their questions; and
/// forgets the players of the servers that ended.
async fn tell_presence(
    app: Arc<App>,
    mut changes: mpsc::UnboundedReceiver<presence::Change>,
    mut retelling: mpsc::UnboundedReceiver<Retell>,
) {
    let Some(store) = app.games.shared() else { return };
    let mut check = tokio::time::interval(PROCESSES_CHECKED);
    // A failed notice is not retried: presence is not stored, and a server that missed notices
    // asks again once its listening connection is back.
    loop {
        tokio::select! {
            change = changes.recv() => {
                let Some(change) = change else { return };
                let mut batch = vec![change];
                while let Ok(more) = changes.try_recv() {
                    batch.push(more);
                }
                let _ = store.tell(&batch).await;
            }
            retell = retelling.recv() => {
                let Some(retell) = retell else { return };
                // Taken now, after every change sent before: never older than what was told.
                let _ = store.tell(&app.presence.told()).await;
                if let Retell::Ask = retell {
                    let _ = store.ask().await;
                }
            }
            _ = check.tick() => {
                let processes = app.presence.processes();
                if processes.is_empty() {
                    continue;
                }
                if let Ok(alive) = store.alive(&processes).await {
                    for process in processes.into_iter().filter(|p| !alive.contains(p)) {
                        app.presence.forget_process(process);
                    }
                }
            }
        }
    }
}

/// Returns the routes of the page and the API: the API's from kalah-table's list of routes,
/// which the static site's page reads too.
pub fn router(app: Arc<App>) -> Router {
    let page = PAGE.iter().fold(Router::new(), |router, &(path, kind, text)| match path {
        "/" | "/index.html" => router.route(path, get(page_index)),
        _ => router.route(path, get(move || async move { asset(kind, text) })),
    });
    // The page's words in every language (kalah-l10n), shared with kalah kgp serve's page.
    let page = kalah_l10n::assets().into_iter().fold(page, |router, a| {
        router.route(&format!("/{}", a.path), get(move || async move { asset(a.content_type, a.text) }))
    });
    let page = page.route("/healthz", get(healthz)).route("/readyz", get(readyz));
    let api = ROUTES.iter().filter(|spec| spec.hosts != Hosts::Page).fold(Router::new(), |router, spec| {
        // `Router::route` merges the methods of one path.
        let filter = MethodFilter::try_from(spec.method.parse::<Method>().expect("a route's method")).expect("known");
        router.route(spec.path, handler(spec.route, filter))
    });
    let api = api
        .fallback(not_found)
        .layer(axum::middleware::from_fn(whole))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&app), guard));
    // The page's own files are outside the guard: the same bytes for everyone, read-only and
    // answered from memory. A page loads some twenty-five of them (its modules and its words),
    // and a few loads in quick succession must not be refused a file and left half loaded.
    page.merge(api)
        .layer(axum::middleware::from_fn(finish))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&app), access))
        .with_state(app)
}

/// `GET /`: the page.
async fn page_index(State(app): State<Arc<App>>) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], app.index.clone())
        .into_response()
}

/// `GET /healthz`: the server runs and answers (a container's or a load balancer's liveness
/// check); it reads nothing.
async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: the server can serve games: its database answers a query (503 if not).
async fn readyz(State(app): State<Arc<App>>) -> Result<Json<serde_json::Value>, ApiError> {
    match app.games.archive(1).await {
        Ok(_) => Ok(Json(json!({ "status": "ready" }))),
        Err(e) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("the game database does not answer: {e}"))
                .retry(Some(5)))
        }
    }
}

/// Names the client of every request ([`Client`]: the peer, or the real client behind a trusted
/// proxy) for the layers and handlers below, and reports the request to the access log once
/// it is answered.
async fn access(
    State(app): State<Arc<App>>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let client = peer.map(|peer| app.proxies.client(peer, request.headers()));
    if let Some(client) = client {
        request.extensions_mut().insert(Client(client));
    }
    let logged = match (&app.reports, app.access_log) {
        (Some(reports), true) => Some((reports.clone(), entry(&request, client))),
        _ => None,
    };
    let response = next.run(request).await;
    if let Some((reports, mut entry)) = logged {
        entry.status = response.status().as_u16();
        entry.bytes = response
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .or_else(|| axum::body::HttpBody::size_hint(response.body()).exact());
        let _ = reports.send(Report::Request(entry));
    }
    response
}

/// Returns the access log's entry of `request`, its status still to be filled in.
fn entry(request: &axum::extract::Request, client: Option<std::net::IpAddr>) -> Access {
    let header = |name: header::HeaderName| {
        request.headers().get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    Access {
        client,
        at: std::time::SystemTime::now(),
        method: request.method().to_string(),
        target: request.uri().path_and_query().map_or_else(|| request.uri().path().to_string(), |p| p.to_string()),
        version: match request.version() {
            axum::http::Version::HTTP_2 => "HTTP/2.0",
            axum::http::Version::HTTP_10 => "HTTP/1.0",
            _ => "HTTP/1.1",
        },
        status: 0,
        bytes: None,
        referer: header(header::REFERER),
        agent: header(header::USER_AGENT),
    }
}

/// Returns the handler of `route` for the method `filter` (`GET` routes also answer `HEAD`).
fn handler(route: Route, filter: MethodFilter) -> MethodRouter<Arc<App>> {
    match route {
        Route::Variants => on(filter, variants),
        Route::Create => on(filter, create),
        Route::Show => on(filter, show),
        Route::Delete => on(filter, close),
        Route::Move => on(filter, act),
        Route::Engine => on(filter, engine_move),
        Route::Undo => on(filter, undo_route),
        Route::Redo => on(filter, redo_route),
        Route::Goto => on(filter, goto_route),
        Route::Shown => on(filter, shown),
        Route::Hint => on(filter, hint),
        Route::Analysis => on(filter, analysis),
        Route::Explore => on(filter, explore),
        Route::Searches => on(filter, searches),
        Route::Record => on(filter, record),
        Route::Resign => on(filter, resign),
        Route::Takeback => on(filter, takeback),
        Route::Rematch => on(filter, rematch),
        Route::Live => on(filter, live),
        Route::Archive => on(filter, archive),
        Route::Register => on(filter, lobby::register),
        Route::Me => on(filter, lobby::me),
        Route::Password => on(filter, lobby::password),
        Route::SignIn => on(filter, lobby::sign_in),
        Route::Player => on(filter, lobby::player),
        Route::Leaderboard => on(filter, lobby::leaderboard),
        Route::Lobby => on(filter, lobby::lobby),
        Route::LobbyLive => on(filter, lobby::live),
        Route::Offer => on(filter, lobby::offer),
        Route::Quick => on(filter, lobby::quick),
        Route::AgainstEngine => on(filter, lobby::against_engine),
        Route::Withdraw => on(filter, lobby::withdraw),
        Route::Accept => on(filter, lobby::accept),
        // The static site's page alone solves (the router skips it).
        Route::Solve => MethodRouter::new(),
    }
}

/// Runs a request that may change a game (any but `GET` and `HEAD`) to its end in a task of its
/// own, even if its client goes meanwhile: a change is stored while its request holds the game,
/// and a request dropped between storing the change and marking it stored would leave the game
/// in memory behind the database and those who follow it untold.
pub(crate) async fn whole(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    match tokio::spawn(next.run(request)).await {
        Ok(response) => response,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => {
            ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-stopping")).retry(Some(1)).into_response()
        }
    }
}

/// Refuses what [`kalah_host::guard`] refuses (writes from another site, a client over its share)
/// and reads the body within its time, before any handler runs.
async fn guard(State(app): State<Arc<App>>, request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let refused = |r: guard::Refusal| ApiError::from(r).into_response();
    if let Err(r) = guard::check_origin(request.method(), request.headers(), app.public_url.as_ref()) {
        return refused(r);
    }
    // A new game, name or challenge comes from the same budget of each address.
    let new_game = request.method() == Method::POST
        && matches!(
            request.uri().path(),
            "/api/games"
                | "/api/players"
                | "/api/sign-in"
                | "/api/lobby/challenges"
                | "/api/lobby/quick"
                | "/api/lobby/engine"
        );
    let client = request.extensions().get::<Client>().copied();
    if let Err(r) = guard::check_share(&app.limiter, client, new_game, Instant::now()) {
        return refused(r);
    }
    let (parts, body) = request.into_parts();
    match guard::read_body(body, MAX_BODY, app.connections.body).await {
        Ok(bytes) => match guard::check_json(&parts.method, &parts.headers, &bytes) {
            Ok(()) => next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await,
            Err(r) => refused(r),
        },
        Err(r) => refused(r),
    }
}

/// Finishes every response: an error that a layer below the handlers answered in plain text (a
/// body over the limit: 413; a method a route does not take: 405) becomes the API's one-line JSON
/// error, and every response gets the security headers.
async fn finish(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let accepted = request.headers().get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let language = crate::words::language(accepted);
    let mut response = next.run(request).await;
    // An error a person reads, in the language the request accepts. A request that cannot be
    // done as written keeps the API's own English words (`error-bad`'s detail): a page says it
    // briefly in its language, a program needs the detail.
    if language != "en" {
        let said = response.extensions().get::<ApiError>().and_then(|e| Some((e, e.said.as_ref()?)));
        let said = said.filter(|(_, said)| said.id != "error-bad");
        if let Some(text) = said.and_then(|(e, said)| Some((e, crate::words::say(said, language)?))) {
            let (error, text) = text;
            let mut again = error.clone();
            again.message = one_line(text);
            response = again.into_response();
        }
    }
    let status = response.status();
    let json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !json {
        let allow = response.headers().get(header::ALLOW).cloned();
        let message = match status {
            StatusCode::PAYLOAD_TOO_LARGE => {
                format!("the request body is larger than {} KiB, the most a request may send", MAX_BODY / 1024)
            }
            StatusCode::METHOD_NOT_ALLOWED => {
                format!(
                    "{method} is not taken at {path}: use {} (see docs/web.md)",
                    route::allowed(&path, Hosts::Server)
                )
            }
            _ => format!("{method} {path}: {}", status.canonical_reason().unwrap_or("the request failed")),
        };
        let mut fixed = ApiError::new(status, message).into_response();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            let allow = allow.or_else(|| header::HeaderValue::from_str(&route::allowed(&path, Hosts::Server)).ok());
            if let Some(allow) = allow {
                fixed.headers_mut().insert(header::ALLOW, allow);
            }
        }
        response = fixed;
    }
    let headers = response.headers_mut();
    if path.starts_with("/api/") {
        headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    }
    kalah_host::headers::secure(headers);
    response
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// An answer other than success: a status and a one-line message, sent as `{"error": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds after which to ask again (a busy server's 503).
    retry_after: Option<u64>,
    /// What the error says to a person, by the catalogs' name (sent as `code` and `args`, and
    /// as the message in the language the request accepts).
    said: Option<Said>,
}

impl ApiError {
    /// An error with `status` and a one-line `message`.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: one_line(message), retry_after: None, said: None }
    }

    /// An error with `status` that says catalog message `said` (its English text the message).
    pub(crate) fn said(status: StatusCode, said: Said) -> ApiError {
        let message = crate::words::english(&said);
        ApiError { status, message: one_line(message), retry_after: None, said: Some(said) }
    }

    /// The error, saying catalog message `said` to a person (its message stays as it is).
    pub(crate) fn saying(mut self, said: Said) -> ApiError {
        self.said = Some(said);
        self
    }

    /// A 400 with `message`.
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// The error, to be asked again after `seconds`.
    pub(crate) fn retry(mut self, seconds: Option<u64>) -> ApiError {
        self.retry_after = seconds;
        self
    }

    /// Returns the HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Returns the one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match &self.said {
            None => json!({ "error": self.message }),
            Some(said) if said.args.is_empty() => json!({ "error": self.message, "code": said.id }),
            Some(said) => json!({ "error": self.message, "code": said.id, "args": said.args_json() }),
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        // finish() says it again in the language the request accepts.
        response.extensions_mut().insert(self);
        response
    }
}

impl From<guard::Refusal> for ApiError {
    /// A refusal of the guard: a write from another site, or a client over its share.
    fn from(r: guard::Refusal) -> ApiError {
        let said = match r.status {
            StatusCode::TOO_MANY_REQUESTS => Some(Said::new("error-too-many")),
            StatusCode::FORBIDDEN => Some(Said::new("error-other-site")),
            _ => None,
        };
        let error = ApiError::new(r.status, r.message).retry(r.retry_after);
        match said {
            Some(said) => error.saying(said),
            None => error,
        }
    }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, message)
}

pub(crate) fn missing(app: &App, id: &str, why: Missing) -> ApiError {
    match why {
        Missing::Unknown => ApiError::new(
            StatusCode::NOT_FOUND,
            format!("there is no game {:?}: it was deleted, or never was", short(id)),
        )
        .saying(Said::new("error-no-game").with("id", short(id))),
        Missing::Store(e) => {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("{e}: nothing was changed; try again"))
                .retry(Some(5))
                .saying(Said::new("error-store"))
        }
        Missing::Changed(version) => conflict(format!(
            "the game changed through another server meanwhile and is at version {version} now: \
             nothing of this request was done; look again"
        ))
        .saying(Said::new("error-changed-elsewhere").with("version", version)),
        Missing::Full => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server holds its most games ({}): close one or try again later", app.games.max()),
        )
        .retry(Some(60))
        .saying(Said::new("error-full").with("most", app.games.max())),
    }
}

/// Returns an id to repeat in a message: an unknown id of any length is cut to 40 characters.
fn short(id: &str) -> String {
    match id.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &id[..end]),
        None => id.to_string(),
    }
}

/// Stores the changes of game `id` before the answer: see [`Games::save`].
async fn save(app: &App, id: &str, s: &mut Session) -> Result<(), ApiError> {
    app.games.save(id, s).await.map_err(|why| missing(app, id, why))
}

fn engine_failed() -> ApiError {
    ApiError::said(StatusCode::INTERNAL_SERVER_ERROR, Said::new("error-engine-failed"))
}

/// The answer when a search could not run: 503 with `Retry-After` when the server is busy.
fn not_searched(failed: Failed) -> ApiError {
    match failed {
        Failed::Busy => ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-engines-busy")).retry(Some(1)),
        Failed::Crashed => engine_failed(),
    }
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("nothing at {method} {}: the page is at / and the API under /api/games (see docs/web.md)", uri.path()),
    )
    .saying(Said::new("error-nothing-here"))
}

impl From<Refused> for ApiError {
    /// Every refusal of a table is answered with the status kalah-table gives it.
    fn from(refused: Refused) -> ApiError {
        ApiError::new(StatusCode::from_u16(refused.status()).unwrap_or(StatusCode::BAD_REQUEST), refused.to_string())
            .saying(refused.said())
    }
}

async fn session(app: &App, id: &str) -> Result<Held, ApiError> {
    app.games.get(id).await.map_err(|why| missing(app, id, why))
}

/// Returns the token a request carries as `Authorization: Bearer TOKEN`, if any.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?;
    // A header that is not a bearer token holds no seat: it is refused as a wrong token.
    Some(value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map_or("", str::trim))
}

/// Returns who a request acts as at game `s` (the holder of its token's seat, or a spectator),
/// and notes that the holder has come ([`kalah_table::Table::arrive`]) at `now`.
fn actor(s: &mut Session, headers: &HeaderMap, now: Moment) -> Result<Actor, ApiError> {
    let actor = s.actor(bearer(headers), Host::Server)?;
    s.arrive(actor, now);
    Ok(actor)
}

/// Runs a change `f` of game `id` by the request's sender, stores it, and answers with the
/// state. What the request's arrival changed is stored even when `f` refuses.
async fn change(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    f: impl FnOnce(&mut Session, Actor, Moment) -> Result<(), Refused>,
) -> Result<Json<GameState>, ApiError> {
    let game = session(app, id).await?;
    let mut s = game.lock().await;
    let now = Moment::now();
    let done = actor(&mut s, headers, now).and_then(|actor| f(&mut s, actor, now).map_err(ApiError::from));
    save(app, id, &mut s).await?;
    done?;
    Ok(Json(api::state(id, &s)))
}

/// Makes the change a request of `route` with `body` asks for (see [`kalah_table::Table::handle`]):
/// the body is read once, here, and a body that cannot be read is refused after the game and
/// the request's token are checked, as every other refusal.
async fn command(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    route: Route,
    body: &[u8],
) -> Result<Json<GameState>, ApiError> {
    let command = Command::read(route, body).expect("a route that changes a game by its body");
    change(app, id, headers, |s, actor, now| s.handle(actor, command?, now)).await
}

/// `GET /api/variants`: the sizes, presets, rule words and engine levels the page offers.
async fn variants() -> Json<serde_json::Value> {
    Json(kalah_table::form::variants())
}

/// `POST /api/games`: starts a game; the answer alone carries the creator's token (and, for a
/// game against a friend, the invitation's).
async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let created = request::create(&body, Moment::now(), Some(&mut games::new_token))?;
    let id = app.games.add(created.table).await.map_err(|why| missing(&app, "", why))?;
    let game = self::session(&app, &id).await?;
    let mut state = api::state(&id, &*game.lock().await);
    state.view.warnings = created.warnings.iter().map(RecordWarning::to_string).collect();
    state.token = created.token;
    state.invite = created.invite;
    Ok((StatusCode::CREATED, Json(state)))
}

/// `POST /api/games/{id}/resign`: the player of the token resigns (in a game against the
/// engine, the person's seat; a rated one is settled as lost).
async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &headers, |s, actor, now| {
        let seat = s.resigner(actor)?;
        s.resign(seat, now)
    })
    .await
}

/// `POST /api/games/{id}/takeback`: the player of the token asks to take back its last turn,
/// or with `{"answer": "accept"}` / `"refuse"` answers the opponent's request.
async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Takeback, &body).await
}

/// `POST /api/games/{id}/rematch`: the player of the token offers a rematch of the finished
/// game; once both have, the rematch starts with the sides swapped (each token holds the other
/// seat there) and `rematch` names it.
async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let both = {
        let mut s = game.lock().await;
        let now = Moment::now();
        let seat = actor(&mut s, &headers, now).and_then(|actor| Ok(s.holder_of(actor)?));
        let offered = seat.and_then(|seat| Ok(s.offer_rematch(seat, now)?));
        save(&app, &id, &mut s).await?;
        if !offered? {
            return Ok(Json(api::state(&id, &s)));
        }
        s.rematch_table(now)
    };
    let new = app.games.add(both).await.map_err(|why| missing(&app, "", why))?;
    let mut s = game.lock().await;
    if s.rematch().1.is_none() {
        s.rematched(&new, Moment::now());
        save(&app, &id, &mut s).await?;
    } else {
        // Both offered at once: the first rematch made stands; this one goes.
        let _ = app.games.remove(&new).await;
    }
    Ok(Json(api::state(&id, &s)))
}

/// `GET /api/games/{id}/live`: Server-Sent Events, one `state` event (the game's state, its id
/// the number of changes stored) now and after every change. A client that reconnects with
/// `Last-Event-ID` gets the state at once if it changed meanwhile: nothing is lost. In a game
/// between friends a `presence` event (`{"south": true, "north": false, "pages": {"south": 2,
/// "north": 0}}`) says which players follow the game live now, and on how many pages, at once
/// and whenever that changes; a player's page opens the channel with its token (as
/// `Authorization: Bearer TOKEN`, never in the address, which proxies log), and counts as here
/// while it stays open. Each client holds at most its share of channels ([`ClientLimits`]).
///
/// [`ClientLimits`]: crate::ClientLimits
async fn live(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    uri: Uri,
    client: Option<axum::Extension<Client>>,
    headers: HeaderMap,
) -> Result<Sse<impl futures_util::Stream<Item = Result<SseEvent, std::convert::Infallible>>>, ApiError> {
    let in_address = uri.query().is_some_and(|q| q.split('&').any(|pair| pair.starts_with("seat=")));
    if in_address {
        return Err(ApiError::bad(
            "a seat's token is never sent in the address (proxies log it): send it as Authorization: Bearer TOKEN",
        ));
    }
    // Counted before the game is looked up, so that asking for games that do not exist holds no channel.
    let counted = match client {
        Some(axum::Extension(Client(client))) => {
            Some(app.channels.open(client, app.most_channels).map_err(ApiError::from)?)
        }
        None => None,
    };
    let game = session(&app, &id).await?;
    let (changes, friends, seat) = {
        let mut s = game.lock().await;
        let seat = match bearer(&headers) {
            None => None,
            Some(token) => Some(s.holder(token).ok_or(Refused::WrongToken)?),
        };
        if let Some(seat) = seat {
            if s.arrive(Actor::Holder(seat), Moment::now()) {
                save(&app, &id, &mut s).await?;
            }
        }
        (s.follow(), s.is_friends(), seat)
    };
    let presence = app.presence.follow(&id);
    // Held by the stream: the player is here until the channel closes.
    let attending: Option<Attending> = seat.map(|seat| app.presence.attend(&id, seat));
    let after: Option<u64> =
        headers.get("last-event-id").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok());
    let closing = app.closing.subscribe();
    let following = Following {
        changes,
        closing,
        after,
        game,
        id,
        presence,
        told: None,
        friends,
        _attending: attending,
        _counted: counted,
    };
    let stream = futures_util::stream::unfold(following, |mut f| async move {
        loop {
            if *f.closing.borrow() {
                return None;
            }
            let sent = {
                let s = f.game.lock().await;
                let saved = s.saved();
                f.after.is_none_or(|a| a < saved).then(|| {
                    let text = serde_json::to_string(&api::state(&f.id, &s)).unwrap_or_default();
                    (saved, SseEvent::default().id(saved.to_string()).event("state").data(text))
                })
            };
            if let Some((saved, event)) = sent {
                f.after = Some(saved);
                return Some((Ok(event), f));
            }
            let pages = *f.presence.borrow_and_update();
            if f.friends && f.told != Some(pages) {
                f.told = Some(pages);
                let sides = {
                    let s = f.game.lock().await;
                    let side_pages = |side: Side| pages[s.game().seat_of(side).index()];
                    let (south, north) = (side_pages(Side::South), side_pages(Side::North));
                    json!({ "south": south > 0, "north": north > 0, "pages": { "south": south, "north": north } })
                };
                return Some((Ok(SseEvent::default().event("presence").data(sides.to_string())), f));
            }
            tokio::select! {
                changed = f.changes.changed() => if changed.is_err() { return None },
                changed = f.presence.changed() => if changed.is_err() { return None },
                _ = f.closing.changed() => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// What a live channel holds while it is open.
struct Following {
    changes: watch::Receiver<u64>,
    closing: watch::Receiver<bool>,
    /// The last change sent.
    after: Option<u64>,
    game: Held,
    id: String,
    presence: watch::Receiver<presence::Pages>,
    /// How many pages followed each player (first, second) in the last presence event sent.
    told: Option<presence::Pages>,
    friends: bool,
    /// Keeps the player counted as here while the channel is open.
    _attending: Option<Attending>,
    /// Keeps the channel counted against its client's share while it is open.
    _counted: Option<guard::Channel>,
}

/// `GET /api/games/{id}`: the state. A player's page asks with its token: the invited friend's
/// first coming is noted then.
async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let mut s = game.lock().await;
    // A token of no seat still watches: a GET changes nothing it could refuse.
    if let Ok(actor) = s.actor(bearer(&headers), Host::Server) {
        if s.arrive(actor, Moment::now()) {
            save(&app, &id, &mut s).await?;
        }
    }
    let state = api::state(&id, &s);
    // A server started again owes the engine's move of a game it reads back.
    drive(&app, &id, s.engine_due());
    Ok(Json(state))
}

/// `DELETE /api/games/{id}`: a player deletes the game and stops its searches (a game between
/// friends only before both have moved).
async fn close(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    {
        let game = session(&app, &id).await?;
        let s = game.lock().await;
        let actor = s.actor(bearer(&headers), Host::Server)?;
        s.may_delete(actor)?;
    }
    app.games.remove(&id).await.map_err(|why| missing(&app, &id, why))?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{id}/move`: a person's action.
async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    let move_request = request::read::<request::MoveRequest>(&body, None);
    let game = session(&app, &id).await?;
    {
        let mut s = game.lock().await;
        // A move made on a version this server has not seen yet was made after a change another
        // server stored (sharing a PostgreSQL database), whose notice has not come: read it now.
        let ahead = move_request.as_ref().ok().and_then(|r| r.version);
        if ahead.is_some_and(|v| v > s.version()) {
            app.games.refresh(&id, &mut s).await.map_err(|why| missing(&app, &id, why))?;
        }
    }
    let mut due = false;
    let state = change(&app, &id, &headers, |s, actor, now| {
        s.handle(actor, Command::Move(move_request?), now)?;
        due = s.engine_due();
        Ok(())
    })
    .await?;
    drive(&app, &id, due);
    Ok(state)
}

/// Ends a table's thinking when an engine move ends in any way, the request dropped included.
struct Thinking {
    game: Held,
    version: u64,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // Dropping cannot wait for the lock: a request that holds it now ends the thinking
        // a moment later instead, in a task of its own.
        let version = self.version;
        match self.game.try_lock() {
            Ok(mut s) => s.stop_thinking(version),
            Err(_) => {
                let game = Arc::clone(&self.game);
                tokio::spawn(async move { game.lock().await.stop_thinking(version) });
            }
        }
    }
}

/// `POST /api/games/{id}/engine`: the engine takes the action it is to take.
async fn engine_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    engine_turn(&app, &id, Some(&headers)).await.map(|(state, _)| Json(state))
}

/// Plays the engine's move in game `id`, asked by the request with `headers`, or by the server
/// itself (`None`: [`drive`]); returns the state and whether the engine's next move is due
/// ([`kalah_table::Table::engine_due`]).
async fn engine_turn(app: &App, id: &str, headers: Option<&HeaderMap>) -> Result<(GameState, bool), ApiError> {
    let game = session(app, id).await?;
    let begun = {
        let mut s = game.lock().await;
        let now = Moment::now();
        let actor = match headers {
            Some(headers) => actor(&mut s, headers, now)?,
            None => Actor::Person,
        };
        s.begin_engine_move(actor, now)?
    };
    let version = begun.snapshot.version;
    let _thinking = Thinking { game: Arc::clone(&game), version };
    // In a timed game the engine also keeps to its clock.
    let limits = Limits { clock: begun.clock, ..begun.level.limits(app.engine_time) };
    let snapshot = begun.snapshot;
    let rules = *snapshot.game.rules();
    let decision = app
        .engines
        .run(Kind::Move, id, rules, move |engine| {
            engine.decide(&snapshot.game, limits, Some(&snapshot.stop)).ok().flatten()
        })
        .await
        .map_err(not_searched)?;
    let mut s = game.lock().await;
    let now = Moment::now();
    s.check_time(now);
    s.unchanged_since(version)?;
    let decision = decision.ok_or_else(engine_failed)?;
    s.play_engine_move(version, decision.action, now).map_err(|_| engine_failed())?;
    save(app, id, &mut s).await?;
    Ok((api::state(id, &s), s.engine_due()))
}

/// In a rated game against the engine (the lobby's), the server plays the engine's moves itself
/// as soon as they are due, not the page: a player who leaves cannot make the engine lose on
/// time. Called after each change that may make one due (a move, a new game, a game read).
pub(crate) fn drive(app: &Arc<App>, id: &str, due: bool) {
    if !due {
        return;
    }
    let (app, id) = (Arc::clone(app), id.to_string());
    tokio::spawn(async move {
        let mut busy = 0;
        loop {
            match engine_turn(&app, &id, None).await {
                // An extra move is the engine's again.
                Ok((_, true)) => continue,
                Ok(_) => return,
                // Every search taken, or the database not answering: the move is still owed and
                // its clock runs, so it is asked again a moment later (a minute at most).
                Err(e) if e.status() == StatusCode::SERVICE_UNAVAILABLE && busy < 60 && !*app.closing.borrow() => {
                    busy += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                Err(_) => return,
            }
        }
    });
}

/// `POST /api/games/{id}/shown`: the page has shown the game at `{"version": V}` (animated the
/// move before) to the player to decide, whose clock starts now (see
/// [`kalah_table::Table::shown`]).
async fn shown(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Shown, &body).await
}

/// `POST /api/games/{id}/undo`.
async fn undo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Undo, &body).await
}

/// `POST /api/games/{id}/redo`.
async fn redo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Redo, &body).await
}

/// `POST /api/games/{id}/goto`: shows the position after a ply of the whole line.
async fn goto_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Goto, &body).await
}

/// `GET /api/games/{id}/hint`: the engine's choice for the player to decide, and its value.
/// `HEAD` says whether the game is there and runs no search.
async fn hint(State(app): State<Arc<App>>, method: Method, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id).await?;
    if method == Method::HEAD {
        return Ok(head());
    }
    let (side, snapshot) = game.lock().await.hint()?;
    let version = snapshot.version;
    let rules = *snapshot.game.rules();
    let limits = Limits::time(app.engine_time);
    let decision = app
        .engines
        .run(Kind::Hint, &id, rules, move |engine| {
            engine.decide(&snapshot.game, limits, Some(&snapshot.stop)).ok().flatten()
        })
        .await
        .map_err(not_searched)?
        .ok_or_else(engine_failed)?;
    game.lock().await.unchanged_since(version)?;
    Ok(Json(Hint::of(version, side, &decision)).into_response())
}

/// The answer to a `HEAD` of a route whose `GET` searches: the game is there; nothing is searched.
fn head() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], "").into_response()
}

/// `GET /api/games/{id}/analysis`: the value of the position shown, South's view, and the best
/// action of the side that decides. While North decides the pie offer or the handicap opening,
/// that is North's decision (the one a hint gives), not a sowing of the side to move.
/// `HEAD` says whether the game is there and runs no search.
async fn analysis(State(app): State<Arc<App>>, method: Method, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id).await?;
    if method == Method::HEAD {
        return Ok(head());
    }
    let snapshot = {
        let s = game.lock().await;
        s.may_help(Help::Analysis)?;
        if let Some(kept) = s.analysis() {
            return Ok(Json(kept.clone()).into_response());
        }
        if s.game().is_over() {
            return Ok(Json(Analysis::unsearched(s.game(), s.version())).into_response());
        }
        s.snapshot()
    };
    let limits = Limits::time(app.engine_time);
    let rules = *snapshot.game.rules();
    let version = snapshot.version;
    let analysis = app
        .engines
        .run(Kind::Analysis, &id, rules, move |engine| {
            analyse_game(engine, &snapshot.game, limits, &snapshot.stop, version)
        })
        .await
        .map_err(not_searched)?
        .ok_or_else(engine_failed)?;
    game.lock().await.keep_analysis(version, analysis.clone())?;
    Ok(Json(analysis).into_response())
}

/// Analyses `game` (not over) for the page: South's view of the value, and the decider's best
/// action (the engine is the game's rules': never refused).
fn analyse_game(
    engine: &kalah_engine::GameEngine,
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    version: u64,
) -> Option<Analysis> {
    let analysed = engine.analyse(game, limits, Some(stop)).ok()??;
    Some(Analysis::of_analysed(version, game.position(), &analysed))
}

/// `GET /api/games/{id}/explore`: every legal move of the position shown with its exact value
/// for the side to move, the best line and the moves that throw away a win or a draw. Answered
/// at once from an opening book that holds the position, else by a solve of every move on a
/// blocking thread within the server's explore time (with the endgame databases), whose moves
/// left open are given with their proven bounds. Refused between friends while the game goes on,
/// as a hint is. `HEAD` says whether the game is there and runs no search.
async fn explore(State(app): State<Arc<App>>, method: Method, Path(id): Path<String>) -> Result<Response, ApiError> {
    let started = Instant::now();
    let game = session(&app, &id).await?;
    if method == Method::HEAD {
        return Ok(head());
    }
    let snapshot = {
        let s = game.lock().await;
        s.may_help(Help::Explorer)?;
        s.snapshot()
    };
    let rules = *snapshot.game.rules();
    let position = *snapshot.game.position();
    let version = snapshot.version;
    if let Some(found) = kalah_engine::book::answer(app.books.iter().map(|book| &**book), &rules, &position) {
        let millis = started.elapsed().as_millis() as u64;
        return Ok(Json(Explored::of(version, &rules, &position, &found, "book", millis)).into_response());
    }
    let time = app.explore_time;
    let explored = app
        .engines
        .run(Kind::Analysis, &id, rules, move |engine| {
            let solver = kalah_engine::solver::Solver::new(engine.options().clone());
            let budget = Budget { time: Some(time), stop: Some(&snapshot.stop), ..Budget::default() };
            kalah_engine::explorer::explore(&solver, &position, &rules, budget)
        })
        .await
        .map_err(not_searched)?;
    game.lock().await.unchanged_since(version)?;
    let millis = started.elapsed().as_millis() as u64;
    Ok(Json(Explored::of(version, &rules, &position, &explored, "solver", millis)).into_response())
}

/// `GET /api/games/{id}/searches?search=S&depth=D&eval=E`: the assignment's searches drawn on
/// the position shown (kalah-course's [`trace::searches`]): the tree of search `S` to depth `D`,
/// the three searches' Max and Min calls there side by side, and their averages over the game so
/// far. The searches run on a blocking thread in a search's place, as hints do; depth and size
/// are bounded by the trace's limits. Refused between friends, as the analysis is.
async fn searches(State(app): State<Arc<App>>, Path(id): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    let query = trace::Query::parse(uri.query().unwrap_or("")).map_err(|e| bad_request(e.to_string()))?;
    let game = session(&app, &id).await?;
    let game = {
        let s = game.lock().await;
        s.may_help(Help::Searches)?;
        s.game().clone()
    };
    let drawn = app
        .engines
        .compute(Kind::Hint, move || trace::searches(&game, query.depth, query.search, query.eval))
        .await
        .map_err(not_searched)?
        .map_err(|e| match e {
            trace::TraceError::Disagreement(_) => engine_failed(),
            refused => bad_request(refused.to_string()),
        })?;
    Ok(Json(drawn).into_response())
}

/// A 400 with `message`.
fn bad_request(message: String) -> ApiError {
    ApiError::bad(message)
}

/// The query of `GET /api/archive`.
#[derive(Debug, serde::Deserialize)]
struct ArchiveQuery {
    /// A player's name: their finished games the lobby paired.
    player: Option<String>,
}

/// `GET /api/archive`: the finished games, the last finished first (at most 1000);
/// `?player=NAME`: the finished games of a player the lobby paired (at most 1000).
async fn archive(
    State(app): State<Arc<App>>,
    axum::extract::Query(query): axum::extract::Query<ArchiveQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let failed = |e| missing(&app, "", Missing::Store(e));
    if let Some(player) = query.player {
        let games = app.games.store().games_of(&player.to_ascii_lowercase(), 1000).await.map_err(failed)?;
        let finished: Vec<_> = games.into_iter().filter(|g| g.outcome.is_some()).collect();
        return Ok(Json(json!({ "player": player, "games": finished })));
    }
    let games = app.games.archive(1000).await.map_err(failed)?;
    Ok(Json(json!({ "games": games })))
}

/// `GET /api/games/{id}/record`: the game record as a file.
async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id).await?;
    let s = game.lock().await;
    // Dated the day the game was played, not the day it is downloaded.
    let record = s.facts(&id, Moment::now()).record(&record::date_text(s.began().0 / 1000));
    let headers = [
        (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"game.kalah\"".to_string()),
    ];
    Ok((headers, record.to_text()).into_response())
}
