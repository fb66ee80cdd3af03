//! The HTTP side: the routes of the page and the API, and the handlers. What a request does to
//! a game is in the functions [`start`], [`person_move`], [`undo`], [`redo`] and [`goto`], which
//! take the request's body as bytes, so that they can be tested (and fuzzed) without a socket.
//! Who may act is the [`Session`]'s to say: the handlers translate requests into its calls and
//! its refusals ([`Refused`]) into statuses and messages.

use std::future::Future;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use kalah_engine::decide::decide;
use kalah_engine::level::Level;
use kalah_engine::time::Limits;
use kalah_rules::rules::{
    word_of, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MAX_HOUSES, MAX_SEEDS, MIN_HOUSES, MIN_SEEDS,
    PRESETS, SOWING_WORDS,
};
use kalah_rules::{record, Action, Game, Phase, Position, Record, RecordWarning, Rules, Side};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::api::{self, ActionText, Analysis, GameState, Goto, Hint, MoveRequest, NewGame, Plies};
use crate::engines::{self, Engines, Failed, Kind};
use crate::games::{lock, Actor, Games, Missing, Refused, Seat, Session};
use crate::Config;

/// The page, built into the binary so that `kalah serve` works from any folder with no network:
/// each file's path, type and text. The static site (scripts/site.sh) holds the same files and
/// the engine compiled to WebAssembly, which this page does without: it asks the API instead.
const PAGE: [(&str, &str, &str); 12] = [
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/index.html", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("/backend.js", "text/javascript; charset=utf-8", include_str!("../web/backend.js")),
    ("/local.js", "text/javascript; charset=utf-8", include_str!("../web/local.js")),
    ("/engine.js", "text/javascript; charset=utf-8", include_str!("../web/engine.js")),
    ("/worker.js", "text/javascript; charset=utf-8", include_str!("../web/worker.js")),
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
}

impl App {
    /// Returns the server's state for `config`.
    pub fn new(config: &Config) -> App {
        App {
            games: Games::new(config.max_games, config.idle),
            engines: Arc::new(Engines::new(config.searches, config.table_bytes, config.databases.clone())),
            engine_time: config.engine_time,
        }
    }
}

/// Serves the page and the API on `listener` until `shutdown` completes, closing idle games as
/// they expire.
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
        }
    });
    let served = axum::serve(listener, router(app)).with_graceful_shutdown(shutdown).await;
    sweeping.abort();
    served
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
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(finish))
        .with_state(app)
}

/// Returns the methods the route at `path` takes (for a 405's message and `Allow` header).
fn allowed(path: &str) -> &'static str {
    match path.trim_end_matches('/').rsplit('/').next() {
        _ if path == "/api/games" => "POST",
        Some("move" | "engine" | "undo" | "redo" | "goto") => "POST",
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
            message: format!(
                "there is no game {id:?}: it was closed, or expired after {} minutes without a request",
                app.games.idle().as_secs() / 60
            ),
        },
        Missing::Full => ApiError {
            retry_after: Some(60),
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("the server holds its most games ({}): close one or try again later", app.games.max()),
        },
    }
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

/// Reads a JSON body; an empty body is the request's defaults when it has some.
fn read<T: DeserializeOwned>(body: &[u8], empty: Option<T>) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return empty.ok_or_else(|| bad_request("the request needs a JSON body"));
    }
    serde_json::from_slice(body).map_err(|e| bad_request(format!("cannot read the JSON body: {e}")))
}

fn session(app: &App, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
    app.games.get(id).map_err(|why| missing(app, id, why))
}

fn state_of(id: &str, game: &Mutex<Session>) -> Json<GameState> {
    Json(api::state(id, &lock(game)))
}

/// `GET /api/variants`: the sizes, presets, rule words and engine levels the page offers.
async fn variants() -> Json<serde_json::Value> {
    fn words<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
        table.iter().map(|(w, _)| *w).collect()
    }
    let presets: Vec<_> = PRESETS
        .iter()
        .filter_map(|(name, about)| {
            let rules = Rules::preset(name, 6, 4).ok()?;
            Some(json!({ "name": name, "about": about, "fields": fields(&rules) }))
        })
        .collect();
    Json(json!({
        "houses": [MIN_HOUSES, MAX_HOUSES],
        "seeds": [MIN_SEEDS, MAX_SEEDS],
        "presets": presets,
        "capture": words(&CAPTURE_WORDS),
        "end": words(&END_WORDS),
        "leftover": words(&LEFTOVER_WORDS),
        "direction": words(&DIRECTION_WORDS),
        "sowing": words(&SOWING_WORDS),
        "levels": Level::ALL.map(|level| json!({ "level": level.number(), "about": level.about() })),
    }))
}

/// Returns the variant fields of `rules` as a JSON object of their words.
fn fields(rules: &Rules) -> serde_json::Value {
    json!({
        "capture": word_of(&CAPTURE_WORDS, rules.capture),
        "end": word_of(&END_WORDS, rules.end),
        "leftover": word_of(&LEFTOVER_WORDS, rules.leftover),
        "direction": word_of(&DIRECTION_WORDS, rules.direction),
        "sowing": word_of(&SOWING_WORDS, rules.sowing),
        "majority_ends": rules.majority_ends,
    })
}

/// Builds the game a new-game request asks for, with what loading its record warns of.
fn new_game(request: &NewGame) -> Result<(Game, Vec<RecordWarning>), ApiError> {
    if let Some(text) = &request.record {
        if request.rules.is_some() || request.position.is_some() {
            return Err(bad_request("a record brings its own rules and start: leave out rules and position"));
        }
        // The request body is at most MAX_BODY, well under the record limit of `kalah play --load`.
        return Record::parse(text)
            .map(|parsed| (parsed.record.game, parsed.warnings))
            .map_err(|e| bad_request(format!("cannot load the record: {e}")));
    }
    let parsed = match &request.position {
        Some(text) => Some(text.parse::<Position>().map_err(|e| bad_request(e.to_string()))?),
        None => None,
    };
    let rules = match (&request.rules, parsed) {
        (Some(text), _) => text.parse::<Rules>().map_err(|e| bad_request(format!("bad rules {text:?}: {e}")))?,
        // A position alone gives the size; the seeds a house started with only name the game.
        (None, Some(p)) => {
            let m = u16::from(p.houses()).max(1);
            let n = (p.total_seeds() / (2 * m)).clamp(u16::from(MIN_SEEDS), u16::from(MAX_SEEDS)) as u8;
            Rules::standard(p.houses(), n).map_err(|e| bad_request(e.to_string()))?
        }
        (None, None) => Rules::default(),
    };
    let start = match &request.position {
        Some(text) => Position::parse(text, &rules).map_err(|e| bad_request(e.to_string()))?,
        None => Position::start(&rules),
    };
    Ok((Game::from_position(rules, start), Vec::new()))
}

/// Reads a new-game request body (empty: the defaults) into a session and what loading its
/// record warns of.
pub fn start(body: &[u8]) -> Result<(Session, Vec<RecordWarning>), ApiError> {
    let request: NewGame = read(body, Some(NewGame::default()))?;
    let seat = |text: &Option<String>, default: Seat, which: &str| match text {
        None => Ok(default),
        Some(t) => t.parse::<Seat>().map_err(|e| bad_request(format!("{which}: {e}"))),
    };
    let seats =
        [seat(&request.south, Seat::Human, "south")?, seat(&request.north, Seat::Engine(Level::DEFAULT), "north")?];
    let (game, warnings) = new_game(&request)?;
    let mut session = Session::new(game, seats);
    if let Some(clock) = request.clock {
        if !(1..=86_400).contains(&clock.seconds) || clock.increment > 3600 {
            return Err(bad_request(format!(
                "clock: {} seconds + {} a move is out of range: 1 to 86400 seconds for the game, 0 to 3600 added a move",
                clock.seconds, clock.increment
            )));
        }
        session = session.with_clocks(Duration::from_secs(clock.seconds), Duration::from_secs(clock.increment));
    }
    Ok((session, warnings))
}

/// `POST /api/games`: starts a game.
async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let (session, warnings) = start(&body)?;
    let id = app.games.add(session).map_err(|why| missing(&app, "", why))?;
    let game = self::session(&app, &id)?;
    let mut state = api::state(&id, &lock(&game));
    state.warnings = warnings.iter().map(RecordWarning::to_string).collect();
    Ok((StatusCode::CREATED, Json(state)))
}

/// `GET /api/games/{id}`.
async fn show(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id)?;
    Ok(state_of(&id, &game))
}

/// `DELETE /api/games/{id}`: closes the game and stops its searches.
async fn close(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    app.games.remove(&id).map_err(|why| missing(&app, &id, why))?;
    Ok(StatusCode::NO_CONTENT)
}

/// Plays a person's action from a move request body on game `id`; a refused request changes
/// nothing.
pub fn person_move(s: &mut Session, id: &str, body: &[u8]) -> Result<(), ApiError> {
    let request: MoveRequest = read(body, None)?;
    let text = match &request.action {
        ActionText::Number(n) => n.to_string(),
        ActionText::Text(t) => t.clone(),
    };
    let action = s.game().parse_action(&text).map_err(|e| bad_request(e.to_string()))?;
    s.act(Actor::Person, action).map_err(|refused| match refused {
        Refused::Over => bad_request("the game is over: no more moves can be played"),
        Refused::EnginesSeat(side) => {
            bad_request(format!("{side} is played by the engine: POST /api/games/{id}/engine lets it move"))
        }
        Refused::Thinking => conflict("the engine is thinking"),
        other => bad_request(other.to_string()),
    })
}

/// `POST /api/games/{id}/move`: a person's action.
async fn act(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id)?;
    let mut s = lock(&game);
    person_move(&mut s, &id, &body)?;
    Ok(Json(api::state(&id, &s)))
}

/// Ends a session's thinking when an engine move ends in any way, the request dropped included.
struct Thinking {
    game: Arc<Mutex<Session>>,
    version: u64,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        lock(&self.game).stop_thinking(self.version);
    }
}

/// `POST /api/games/{id}/engine`: the engine takes the action it is to take.
async fn engine_move(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id)?;
    let begun = lock(&game).begin_engine_move(Instant::now()).map_err(|refused| match refused {
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
    let mut s = lock(&game);
    s.check_time(Instant::now());
    s.unchanged_since(version).map_err(|_| changed_meanwhile())?;
    let decision = decision.ok_or_else(engine_failed)?;
    s.play_engine_move(version, decision.action).map_err(|_| engine_failed())?;
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
fn change(
    app: &App,
    id: &str,
    body: &[u8],
    f: impl FnOnce(&mut Session, &[u8]) -> Result<(), ApiError>,
) -> Result<Json<GameState>, ApiError> {
    let game = session(app, id)?;
    let mut s = lock(&game);
    f(&mut s, body)?;
    Ok(Json(api::state(id, &s)))
}

/// `POST /api/games/{id}/undo`.
async fn undo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, undo)
}

/// `POST /api/games/{id}/redo`.
async fn redo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, redo)
}

/// `POST /api/games/{id}/goto`: shows the position after a ply of the whole line.
async fn goto_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    change(&app, &id, &body, goto)
}

/// `GET /api/games/{id}/hint`: the engine's choice for the player to decide, and its value.
async fn hint(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Hint>, ApiError> {
    let game = session(&app, &id)?;
    let (side, snapshot) = lock(&game).hint().map_err(|refused| match refused {
        Refused::Over => bad_request("the game is over: there is no move to hint"),
        other => bad_request(other.to_string()),
    })?;
    let version = snapshot.version;
    let rules = *snapshot.game.rules();
    let limits = Limits::time(app.engine_time);
    let decision = app
        .engines
        .run(Kind::Hint, &id, rules, move |engine| decide(engine, &snapshot.game, limits, Some(&snapshot.stop)))
        .await
        .map_err(not_searched)?
        .ok_or_else(engine_failed)?;
    lock(&game).unchanged_since(version).map_err(|_| changed_meanwhile())?;
    Ok(Json(Hint {
        version,
        side: side.name(),
        action: decision.action.to_string(),
        value: decision.score.seeds(),
        exact: decision.score.is_exact(),
        depth: decision.depth,
    }))
}

/// `GET /api/games/{id}/analysis`: the value of the position shown, South's view, and the best
/// action of the side that decides. While North decides the pie offer or the handicap opening,
/// that is North's decision (the one a hint gives), not a sowing of the side to move.
async fn analysis(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Analysis>, ApiError> {
    let game = session(&app, &id)?;
    let snapshot = {
        let s = lock(&game);
        if let Some(kept) = s.analysis() {
            return Ok(Json(kept.clone()));
        }
        if s.game().is_over() {
            return Ok(Json(Analysis::unsearched(s.game(), s.version())));
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
    lock(&game).keep_analysis(version, analysis.clone()).map_err(|_| changed_meanwhile())?;
    Ok(Json(analysis))
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
        return Some(Analysis {
            version,
            value: decision.for_south().seeds(),
            exact: decision.score.is_exact(),
            depth: decision.depth,
            side: side.name(),
            best: match decision.action {
                Action::Sow(mv) => Some(mv.number()),
                _ => None,
            },
            action: Some(decision.action.to_string()),
            line: Vec::new(),
            nodes: decision.nodes,
            millis: started.elapsed().as_millis() as u64,
        });
    }
    let info = engines::analyse(engine, &position, &rules, limits, stop);
    Some(Analysis {
        version,
        value: info.score.for_side(position.mover(), Side::South).seeds(),
        exact: info.score.is_exact(),
        depth: info.depth,
        side: side.name(),
        best: info.best.map(|m| m.number()),
        action: info.best.map(|m| m.number().to_string()),
        line: info.pv.iter().map(|m| m.number()).collect(),
        nodes: info.nodes,
        millis: info.elapsed.as_millis() as u64,
    })
}

/// `GET /api/games/{id}/record`: the game record as a file.
async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id)?;
    let s = lock(&game);
    let mut record = Record::new(s.game().clone());
    let describe = |seat: Seat| match seat {
        Seat::Human => "human".to_string(),
        Seat::Engine(level) => format!("engine level {level}"),
    };
    record.tags = vec![
        ("Event".to_string(), "Casual game".to_string()),
        ("Date".to_string(), record::today()),
        ("South".to_string(), describe(s.seats()[0])),
        ("North".to_string(), describe(s.seats()[1])),
    ];
    if let Some(finish) = api::state(&id, &s).result.filter(|f| f.lost_on_time.is_some()) {
        let side = finish.lost_on_time.unwrap_or_default();
        record.tags.push(("Termination".to_string(), format!("{side} ran out of time")));
    }
    let headers = [
        (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"game.kalah\"".to_string()),
    ];
    Ok((headers, record.to_text()).into_response())
}
