//! The HTTP side: the routes of the page and the API, and the handlers. What a request does to
//! a game is in the functions [`start`], [`person_move`], [`undo`], [`redo`] and [`goto`], which
//! take the request's body as bytes, so that they can be tested (and fuzzed) without a socket.
//! Who may act is the [`Session`]'s to say: the handlers translate requests into its calls and
//! its refusals ([`Refused`]) into statuses and messages.

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
use axum::routing::{get, post};
use axum::{Json, Router};
use kalah_engine::decide::decide;
use kalah_engine::time::Limits;
use kalah_rules::{record, Game, Phase, RecordWarning, Side};
use kalah_view::form::Decided;
use kalah_view::{Analysis, Hint, NewGame};
use serde::de::DeserializeOwned;
use serde_json::json;
use tokio::sync::{mpsc, watch};

use crate::api::{self, ActionText, GameState, Goto, MoveRequest, Plies};
use crate::connections::{self, ConnectionLimits};
use crate::engines::{self, Engines, Failed, Kind};
use crate::event::Moment;
use crate::games::{self, Actor, Games, Held, Missing, Refused, Session};
use crate::guard::{self, Limiter};
use crate::postgres::Notice;
use crate::presence::{self, Attending, Presence};
use crate::store::StoreError;
use crate::Config;

/// The page, built into the binary so that `kalah serve` works from any folder with no network:
/// each file's path, type and text. The static site (scripts/site.sh) holds the same files and
/// the engine compiled to WebAssembly, which this page does without: it asks the API instead.
const PAGE: [(&str, &str, &str); 13] = [
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/index.html", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("/backend.js", "text/javascript; charset=utf-8", include_str!("../web/backend.js")),
    ("/local.js", "text/javascript; charset=utf-8", include_str!("../web/local.js")),
    ("/engine.js", "text/javascript; charset=utf-8", include_str!("../web/engine.js")),
    ("/worker.js", "text/javascript; charset=utf-8", include_str!("../web/worker.js")),
    ("/friends.js", "text/javascript; charset=utf-8", include_str!("../web/friends.js")),
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
    limiter: Limiter,
    connections: ConnectionLimits,
    /// Which players of each game between friends follow it live now.
    presence: Arc<Presence>,
    /// This server's presence changes, to tell the servers that share the database (taken by
    /// [`serve`]).
    presence_changes: std::sync::Mutex<Option<mpsc::UnboundedReceiver<presence::Change>>>,
    /// Set when the server stops: long-lived answers end.
    closing: watch::Sender<bool>,
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
            limiter: Limiter::new(config.clients),
            connections: config.connections,
            presence: Arc::new(presence),
            presence_changes: std::sync::Mutex::new(presence_changes),
            closing: watch::channel(false).0,
        })
    }
}

/// Serves the page and the API on `listener` until `shutdown` completes, closing idle games as
/// they expire; the connections are capped and timed ([`ConnectionLimits`]).
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
            sweeper.presence.forget_unfollowed();
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
                    Notice::Missed => {
                        follower.games.follow(Notice::Missed).await;
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
    let limits = app.connections;
    let closing = app.closing.clone();
    let served = connections::serve(listener, router(app), limits, shutdown, closing).await;
    sweeping.abort();
    ticking.abort();
    for task in [following, telling].into_iter().flatten() {
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

/// Returns the routes of the page and the API.
pub fn router(app: Arc<App>) -> Router {
    let page = PAGE.iter().fold(Router::new(), |router, &(path, kind, text)| {
        router.route(path, get(move || async move { asset(kind, text) }))
    });
    page.route("/api/variants", get(variants))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show).delete(close))
        .route("/api/games/{id}/move", post(act))
        .route("/api/games/{id}/engine", post(engine_move))
        .route("/api/games/{id}/undo", post(undo_route))
        .route("/api/games/{id}/redo", post(redo_route))
        .route("/api/games/{id}/goto", post(goto_route))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/shown", post(shown))
        .route("/api/archive", get(archive))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/live", get(live))
        .fallback(not_found)
        .layer(axum::middleware::from_fn(whole))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&app), guard))
        .layer(axum::middleware::from_fn(finish))
        .with_state(app)
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
        Err(_) => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is stopping: ask again in a moment".to_string(),
            retry_after: Some(1),
        }
        .into_response(),
    }
}

/// Refuses what [`crate::guard`] refuses (writes from another site, a client over its share)
/// and reads the body within its time, before any handler runs.
async fn guard(State(app): State<Arc<App>>, request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let refused = |r: guard::Refusal| {
        ApiError { status: r.status, message: one_line(r.message), retry_after: r.retry_after }.into_response()
    };
    if let Err(r) = guard::check_origin(request.method(), request.headers()) {
        return refused(r);
    }
    let new_game = request.method() == Method::POST && request.uri().path() == "/api/games";
    let client = request.extensions().get::<ConnectInfo<SocketAddr>>();
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

/// Returns the methods the route at `path` takes (for a 405's message and `Allow` header).
fn allowed(path: &str) -> &'static str {
    match path.trim_end_matches('/').rsplit('/').next() {
        _ if path == "/api/games" => "POST",
        Some("move" | "engine" | "undo" | "redo" | "goto" | "shown" | "resign" | "takeback" | "rematch") => "POST",
        _ if path.starts_with("/api/games/") && path.matches('/').count() == 3 => "GET, DELETE",
        _ => "GET",
    }
}

/// The page's content security policy: its own script, style and requests only (it has no inline
/// script or style and loads nothing from elsewhere), and no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Finishes every response: an error that a layer below the handlers answered in plain text (a
/// body over the limit: 413; a method a route does not take: 405) becomes the API's one-line JSON
/// error, and every response gets the security headers.
async fn finish(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let mut response = next.run(request).await;
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
                format!("{method} is not taken at {path}: use {} (see docs/web.md)", allowed(&path))
            }
            _ => format!("{method} {path}: {}", status.canonical_reason().unwrap_or("the request failed")),
        };
        let mut fixed = ApiError { status, message: one_line(message), retry_after: None }.into_response();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            let allow = allow.unwrap_or_else(|| header::HeaderValue::from_static(allowed(&path)));
            fixed.headers_mut().insert(header::ALLOW, allow);
        }
        response = fixed;
    }
    let headers = response.headers_mut();
    if path.starts_with("/api/") {
        headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, header::HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, header::HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, header::HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY"));
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
}

impl ApiError {
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
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        response
    }
}

/// Returns `message` on one line: a control character (a line break in a JSON key the client
/// sent, which the JSON reader's message repeats) is written as its escape.
fn one_line(message: impl Into<String>) -> String {
    let message = message.into();
    if !message.chars().any(char::is_control) {
        return message;
    }
    message.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::BAD_REQUEST, message: one_line(message), retry_after: None }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::CONFLICT, message: one_line(message), retry_after: None }
}

fn missing(app: &App, id: &str, why: Missing) -> ApiError {
    match why {
        Missing::Unknown => ApiError {
            retry_after: None,
            status: StatusCode::NOT_FOUND,
            message: format!("there is no game {:?}: it was deleted, or never was", short(id)),
        },
        Missing::Store(e) => ApiError {
            retry_after: Some(5),
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("{e}: nothing was changed; try again"),
        },
        Missing::Changed(version) => conflict(format!(
            "the game changed through another server meanwhile and is at version {version} now: \
             nothing of this request was done; look again"
        )),
        Missing::Full => ApiError {
            retry_after: Some(60),
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("the server holds its most games ({}): close one or try again later", app.games.max()),
        },
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
    ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: "the engine's search failed".to_string(),
        retry_after: None,
    }
}

/// The answer when a search could not run: 503 with `Retry-After` when the server is busy.
fn not_searched(failed: Failed) -> ApiError {
    match failed {
        Failed::Busy => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "the server is busy: every engine is thinking; ask again in a second".to_string(),
            retry_after: Some(1),
        },
        Failed::Crashed => engine_failed(),
    }
}

fn changed_meanwhile() -> ApiError {
    conflict("the game changed while the engine was thinking (a move, an undo, or it was closed): ask again")
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError {
        retry_after: None,
        status: StatusCode::NOT_FOUND,
        message: format!(
            "nothing at {method} {}: the page is at / and the API under /api/games (see docs/web.md)",
            uri.path()
        ),
    }
}

/// Reads a JSON body; an empty body is the request's defaults when it has some. A body that
/// cannot be read is refused with what is wrong and what the request accepts, in words of the
/// API (never the names of the server's own types).
fn read<T: DeserializeOwned + api::Accepts>(body: &[u8], empty: Option<T>) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return empty.ok_or_else(|| bad_request(format!("the request needs a JSON body: {}", T::ACCEPTS)));
    }
    serde_json::from_slice(body).map_err(|e| bad_request(format!("{}; {}", plain(&e), T::ACCEPTS)))
}

/// Says in the API's words what is wrong with a JSON body serde could not read.
fn plain(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let text = e.to_string();
    // "... at line 1 column 12": the body is one short object; the place says little.
    let text = match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    };
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            format!("cannot read the JSON body: it is not valid JSON ({text})")
        }
        Category::Data => {
            if text.contains("untagged enum") {
                return "cannot read the JSON body: the action is not a house number or an action's text".to_string();
            }
            let mut text = text;
            for number in ["usize", "u64", "u32", "u16", "u8"] {
                text = text.replace(&format!("expected {number}"), "expected a whole number, 0 or more");
            }
            // "expected struct Plies", "expected struct ClockRequest": an object.
            while let Some(at) = text.find("struct ") {
                let end = text[at + 7..].find(|c: char| !c.is_alphanumeric()).map_or(text.len(), |n| at + 7 + n);
                text.replace_range(at..end, "a JSON object");
            }
            format!("cannot read the JSON body: {text}")
        }
    }
}

async fn session(app: &App, id: &str) -> Result<Held, ApiError> {
    app.games.get(id).await.map_err(|why| missing(app, id, why))
}

/// `GET /api/variants`: the sizes, presets, rule words and engine levels the page offers.
async fn variants() -> Json<serde_json::Value> {
    Json(kalah_view::variants())
}

/// Reads a new-game request body (empty: the defaults) into a session and what loading its
/// record warns of.
pub fn start(body: &[u8]) -> Result<(Session, Vec<RecordWarning>), ApiError> {
    let request: NewGame = read(body, Some(NewGame::default()))?;
    let bad = |e: kalah_view::NewGameError| bad_request(e.to_string());
    let opening = request.opening().map_err(bad)?;
    if request.friend == Some(true) && (request.south.is_some() || request.north.is_some()) {
        return Err(bad_request("a game against a friend has two people: leave out south and north"));
    }
    let seats = request.players(opening.named).map_err(bad)?;
    let mut session = Session::new(opening.game, seats);
    if let Some(clock) = request.clock {
        let (total, increment) = clock.times().map_err(bad)?;
        session = session.with_clocks(total, increment);
    }
    if let Some(decided) = opening.decided {
        session = end_as_recorded(session, decided);
    }
    Ok((session, opening.warnings))
}

/// Ends a loaded game as its record's result says it ended before its moves did: lost on time by
/// the player to decide (the clocks show no time left, as when it was played), or resigned by the
/// loser.
fn end_as_recorded(session: Session, decided: Decided) -> Session {
    let now = Moment::now();
    let Some((to_decide, _)) = session.decider() else { return session };
    let loser = session.game().seat_of(!decided.winner);
    if decided.on_time && to_decide == !decided.winner {
        let mut session = session.with_clocks_at(Duration::ZERO, Duration::ZERO, now);
        session.check_time(now);
        return session;
    }
    let mut session = session;
    // The game is not over (a decider was found), so the resignation is taken.
    let _ = session.resign(loser, now);
    session
}

/// The tokens of a new game against a friend: the creator's and the invitation's.
#[derive(Clone, Debug)]
pub struct Invitation {
    /// The token of the creator's seat.
    pub token: String,
    /// The token of the other seat, for the invitation link.
    pub invite: String,
}

/// Reads a new-game request body as [`start`] does, and for a game against a friend seats two
/// people, each held by a new token.
pub fn start_with_friends(body: &[u8]) -> Result<(Session, Vec<RecordWarning>, Option<Invitation>), ApiError> {
    let request: NewGame = read(body, Some(NewGame::default()))?;
    let (session, warnings) = start(body)?;
    // `"side": null` says no side, as no `side` does.
    let side = request.side.flatten();
    if request.friend != Some(true) {
        if side.is_some() {
            return Err(bad_request("side is the creator's side in a game against a friend: add \"friend\": true"));
        }
        return Ok((session, warnings, None));
    }
    let first = match side.as_deref() {
        None | Some("south") => true,
        Some("north") => false,
        Some(other) => return Err(bad_request(format!("side {other:?}: write south or north"))),
    };
    let (token, invite) = (games::new_token(), games::new_token());
    let (a, b) = if first { (&token, &invite) } else { (&invite, &token) };
    let mut session = session.with_tokens([games::token_hash(a), games::token_hash(b)]);
    session.seat_people();
    Ok((session, warnings, Some(Invitation { token, invite })))
}

/// `POST /api/games`: starts a game.
async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let (session, warnings, invitation) = start_with_friends(&body)?;
    let id = app.games.add(session).await.map_err(|why| missing(&app, "", why))?;
    let game = self::session(&app, &id).await?;
    let mut state = api::state(&id, &*game.lock().await);
    state.view.warnings = warnings.iter().map(RecordWarning::to_string).collect();
    if let Some(invitation) = invitation {
        state.token = Some(invitation.token);
        state.invite = Some(invitation.invite);
    }
    Ok((StatusCode::CREATED, Json(state)))
}

/// Returns who a request acts as: the holder of the seat its `Authorization: Bearer TOKEN`
/// holds, or a person at the page. A token that holds no seat of this game is refused.
fn actor(s: &Session, headers: &HeaderMap) -> Result<Actor, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Ok(Actor::Person) };
    let token = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim);
    match token.and_then(|t| s.holder(t)) {
        Some(seat) => Ok(Actor::Holder(seat)),
        None => Err(forbidden("the token holds no seat of this game: use the link you were given")),
    }
}

/// Returns the seat of a player of a game between friends, or refuses.
fn player(s: &Session, headers: &HeaderMap) -> Result<kalah_rules::Seat, ApiError> {
    match actor(s, headers)? {
        Actor::Holder(seat) => Ok(seat),
        _ => Err(forbidden(Refused::NotAPlayer.to_string())),
    }
}

fn forbidden(message: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::FORBIDDEN, message: one_line(message), retry_after: None }
}

/// `POST /api/games/{id}/resign`: the player of the token resigns.
async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let mut s = game.lock().await;
    let seat = player(&s, &headers)?;
    s.resign(seat, Moment::now()).map_err(|_| bad_request("the game is over: there is nothing to resign"))?;
    save(&app, &id, &mut s).await?;
    Ok(Json(api::state(&id, &s)))
}

/// `POST /api/games/{id}/takeback`: the player of the token asks to take back its last turn,
/// or with `{"answer": "accept"}` / `"refuse"` answers the opponent's request.
async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    let request: api::TakebackRequest = read(&body, Some(api::TakebackRequest::default()))?;
    let game = session(&app, &id).await?;
    let mut s = game.lock().await;
    let seat = player(&s, &headers)?;
    let now = Moment::now();
    let done = match request.answer.as_deref() {
        None => s.ask_takeback(seat, now),
        Some("accept") => s.answer_takeback(seat, true, now),
        Some("refuse") => s.answer_takeback(seat, false, now),
        Some(other) => return Err(bad_request(format!("answer {other:?}: write accept or refuse"))),
    };
    done.map_err(|refused| conflict(refused.to_string()))?;
    save(&app, &id, &mut s).await?;
    Ok(Json(api::state(&id, &s)))
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
        let seat = player(&s, &headers)?;
        let both = s.offer_rematch(seat, Moment::now()).map_err(|refused| conflict(refused.to_string()))?;
        save(&app, &id, &mut s).await?;
        if !both {
            return Ok(Json(api::state(&id, &s)));
        }
        s.rematch_session()
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
/// and whenever that changes; a player's page opens the channel
/// with its token as `?seat=TOKEN` (a browser's EventSource sends no `Authorization` header),
/// and counts as here while it stays open.
async fn live(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    axum::extract::Query(query): axum::extract::Query<LiveQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl futures_util::Stream<Item = Result<SseEvent, std::convert::Infallible>>>, ApiError> {
    let game = session(&app, &id).await?;
    let (changes, friends, seat) = {
        let s = game.lock().await;
        let seat = match &query.seat {
            None => None,
            Some(token) => Some(
                s.holder(token)
                    .ok_or_else(|| forbidden("the token holds no seat of this game: use the link you were given"))?,
            ),
        };
        (s.follow(), s.is_friends(), seat)
    };
    let presence = app.presence.follow(&id);
    // Held by the stream: the player is here until the channel closes.
    let attending: Option<Attending> = seat.map(|seat| app.presence.attend(&id, seat));
    let after: Option<u64> =
        headers.get("last-event-id").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok());
    let closing = app.closing.subscribe();
    let following =
        Following { changes, closing, after, game, id, presence, told: None, friends, _attending: attending };
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

/// The query of `GET /api/games/{id}/live`.
#[derive(Debug, serde::Deserialize)]
pub struct LiveQuery {
    /// The token of the seat whose player follows the game (none: a spectator).
    seat: Option<String>,
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
}

/// `GET /api/games/{id}`.
async fn show(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let s = game.lock().await;
    Ok(Json(api::state(&id, &s)))
}

/// `DELETE /api/games/{id}`: closes the game and stops its searches.
async fn close(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    app.games.remove(&id).await.map_err(|why| missing(&app, &id, why))?;
    Ok(StatusCode::NO_CONTENT)
}

/// Plays a person's action from a move request body on game `id`; a refused request changes
/// nothing.
pub fn person_move(s: &mut Session, id: &str, body: &[u8]) -> Result<(), ApiError> {
    held_move(s, id, body, Actor::Person)
}

/// Plays an action of `actor` from a move request body on game `id`: a request whose id the
/// game has seen is answered without playing again, and a move made on another version than
/// the game's is refused (409); a refused request changes nothing.
pub fn held_move(s: &mut Session, id: &str, body: &[u8], actor: Actor) -> Result<(), ApiError> {
    let request: MoveRequest = read(body, None)?;
    if request.request.as_ref().is_some_and(|r| r.len() > crate::event::MAX_REQUEST_ID) {
        return Err(bad_request(format!("request ids are at most {} bytes", crate::event::MAX_REQUEST_ID)));
    }
    if !s.begin_request(request.request.as_deref()) {
        return Ok(());
    }
    if let Some(version) = request.version {
        if version != s.version() {
            return Err(conflict(format!(
                "the move was made on version {version} of the game, which is at version {} now: look again",
                s.version()
            )));
        }
    }
    let text = match &request.action {
        ActionText::Number(n) => n.to_string(),
        ActionText::Text(t) => t.clone(),
    };
    let action = s.game().parse_action(&text).map_err(|e| bad_request(e.to_string()))?;
    s.act(actor, action).map_err(|refused| match refused {
        Refused::Over => bad_request("the game is over: no more moves can be played"),
        Refused::NotYours(_) | Refused::NotAPlayer => forbidden(refused.to_string()),
        Refused::EnginesSeat(side) => {
            bad_request(format!("{side} is played by the engine: POST /api/games/{id}/engine lets it move"))
        }
        Refused::Thinking => conflict("the engine is thinking"),
        other => bad_request(other.to_string()),
    })
}

/// `POST /api/games/{id}/move`: a person's action.
async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let mut s = game.lock().await;
    // A move made on a version this server has not seen yet was made after a change another
    // server stored (sharing a PostgreSQL database), whose notice has not come: read it now.
    if serde_json::from_slice::<MoveRequest>(&body).ok().and_then(|r| r.version).is_some_and(|v| v > s.version()) {
        app.games.refresh(&id, &mut s).await.map_err(|why| missing(&app, &id, why))?;
    }
    let actor = actor(&s, &headers)?;
    held_move(&mut s, &id, &body, actor)?;
    save(&app, &id, &mut s).await?;
    Ok(Json(api::state(&id, &s)))
}

/// Ends a session's thinking when an engine move ends in any way, the request dropped included.
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
async fn engine_move(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id).await?;
    let begun = game.lock().await.begin_engine_move(Moment::now()).map_err(|refused| match refused {
        Refused::Over => bad_request("the game is over: the engine has no move to make"),
        Refused::PersonsSeat(side) => bad_request(format!("{side} is played by a person: POST /api/games/{id}/move")),
        Refused::Thinking => conflict("the engine is already thinking about this move"),
        other => bad_request(other.to_string()),
    })?;
    let version = begun.snapshot.version;
    let _thinking = Thinking { game: Arc::clone(&game), version };
    // In a timed game the engine also keeps to its clock.
    let limits = Limits { clock: begun.clock, ..begun.level.limits(app.engine_time) };
    let snapshot = begun.snapshot;
    let rules = *snapshot.game.rules();
    let decision = app
        .engines
        .run(Kind::Move, &id, rules, move |engine| decide(engine, &snapshot.game, limits, Some(&snapshot.stop)))
        .await
        .map_err(not_searched)?;
    let mut s = game.lock().await;
    let now = Moment::now();
    s.check_time(now);
    s.unchanged_since(version).map_err(|_| changed_meanwhile())?;
    let decision = decision.ok_or_else(engine_failed)?;
    s.play_engine_move(version, decision.action, now).map_err(|_| engine_failed())?;
    save(&app, &id, &mut s).await?;
    Ok(Json(api::state(&id, &s)))
}

/// `POST /api/games/{id}/shown`: the page has shown the game at `{"version": V}` (animated the
/// move before) to the player to decide, whose clock starts now (see [`Session::shown`]).
async fn shown(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    let request: api::Shown = read(&body, None)?;
    let game = session(&app, &id).await?;
    let mut s = game.lock().await;
    let actor = actor(&s, &headers)?;
    if s.may_act(actor).is_ok() {
        s.shown(request.version, Moment::now());
    }
    save(&app, &id, &mut s).await?;
    Ok(Json(api::state(&id, &s)))
}

/// Takes back what an undo request body asks (empty: back to a person's last decision); more
/// plies than were played are refused and change nothing.
pub fn undo(s: &mut Session, body: &[u8]) -> Result<(), ApiError> {
    let request: Plies = read(body, Some(Plies::default()))?;
    s.undo(request.plies).map(drop).map_err(|e| bad_request(e.to_string()))
}

/// Replays what a redo request body asks (empty: up to a person's next decision); more plies
/// than were taken back are refused and change nothing.
pub fn redo(s: &mut Session, body: &[u8]) -> Result<(), ApiError> {
    let request: Plies = read(body, Some(Plies::default()))?;
    s.redo(request.plies).map(drop).map_err(|e| bad_request(e.to_string()))
}

/// Shows the ply a goto request body names; a ply past the whole line is refused.
pub fn goto(s: &mut Session, body: &[u8]) -> Result<(), ApiError> {
    let request: Goto = read(body, None)?;
    s.goto(request.ply).map_err(|e| bad_request(e.to_string()))
}

/// Runs one of the request functions above on game `id` and answers with the game's state.
async fn change(
    app: &App,
    id: &str,
    body: &[u8],
    f: impl FnOnce(&mut Session, &[u8]) -> Result<(), ApiError>,
) -> Result<Json<GameState>, ApiError> {
    let game = session(app, id).await?;
    let mut s = game.lock().await;
    if s.is_friends() {
        return Err(forbidden("a game between friends steps back only by a takeback the opponent accepts"));
    }
    // The board of a game lost on time or by resigning stays as it ended: stepping back would
    // show a position to play on under a game that is over.
    if s.lost_on_time().is_some() || s.resigned().is_some() {
        let how = if s.resigned().is_some() { "by resigning" } else { "on time" };
        return Err(conflict(format!(
            "the game was lost {how}: its moves stay as they were played; start a new game or load its record"
        )));
    }
    f(&mut s, body)?;
    save(app, id, &mut s).await?;
    Ok(Json(api::state(id, &s)))
}

/// `POST /api/games/{id}/undo`.
async fn undo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, undo).await
}

/// `POST /api/games/{id}/redo`.
async fn redo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, redo).await
}

/// `POST /api/games/{id}/goto`: shows the position after a ply of the whole line.
async fn goto_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, goto).await
}

/// `GET /api/games/{id}/hint`: the engine's choice for the player to decide, and its value.
/// `HEAD` says whether the game is there and runs no search.
async fn hint(State(app): State<Arc<App>>, method: Method, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id).await?;
    if method == Method::HEAD {
        return Ok(head());
    }
    let (side, snapshot) = {
        let s = game.lock().await;
        no_help_between_friends(&s)?;
        s.hint().map_err(|refused| match refused {
            Refused::Over => bad_request("the game is over: there is no move to hint"),
            other => bad_request(other.to_string()),
        })?
    };
    let version = snapshot.version;
    let rules = *snapshot.game.rules();
    let limits = Limits::time(app.engine_time);
    let decision = app
        .engines
        .run(Kind::Hint, &id, rules, move |engine| decide(engine, &snapshot.game, limits, Some(&snapshot.stop)))
        .await
        .map_err(not_searched)?
        .ok_or_else(engine_failed)?;
    game.lock().await.unchanged_since(version).map_err(|_| changed_meanwhile())?;
    Ok(Json(Hint::of(version, side, &decision)).into_response())
}

/// The answer to a `HEAD` of a route whose `GET` searches: the game is there; nothing is searched.
fn head() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], "").into_response()
}

/// Refuses the engine's help (a hint, an analysis) in a game between friends that goes on: a
/// person is at stake, and a player or a spectator who passes it on would play with the engine.
fn no_help_between_friends(s: &Session) -> Result<(), ApiError> {
    if s.is_friends() && s.decider().is_some() {
        return Err(forbidden("a game between friends gets no hint or analysis while it goes on: ask once it is over"));
    }
    Ok(())
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
        no_help_between_friends(&s)?;
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
    game.lock().await.keep_analysis(version, analysis.clone()).map_err(|_| changed_meanwhile())?;
    Ok(Json(analysis).into_response())
}

/// Analyses `game` (not over) for the page: South's view of the value, and the decider's best action.
fn analyse_game(
    engine: &kalah_engine::search::Engine,
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    version: u64,
) -> Option<Analysis> {
    let position = *game.position();
    let rules = *game.rules();
    let started = Instant::now();
    let side = game.decider()?;
    if matches!(game.phase(), Phase::Handicap | Phase::PieOffer) {
        let decision = decide(engine, game, limits, Some(stop))?;
        return Some(Analysis::of_decision(version, side, &decision, started.elapsed().as_millis() as u64));
    }
    let info = engines::analyse(engine, &position, &rules, limits, stop);
    Some(Analysis::of_search(version, side, &position, &info))
}

/// `GET /api/archive`: the finished games, the last finished first (at most 1000).
async fn archive(State(app): State<Arc<App>>) -> Result<Json<serde_json::Value>, ApiError> {
    let games = app.games.archive(1000).await.map_err(|e| missing(&app, "", Missing::Store(e)))?;
    Ok(Json(json!({ "games": games })))
}

/// `GET /api/games/{id}/record`: the game record as a file.
async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id).await?;
    let s = game.lock().await;
    let record = s.facts(&id, Moment::now()).record(&record::today());
    let headers = [
        (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"game.kalah\"".to_string()),
    ];
    Ok((headers, record.to_text()).into_response())
}
