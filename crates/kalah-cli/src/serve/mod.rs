//! `kalah serve`: a local web server where people play Kalah in the browser.
//!
//! The page (this crate's `web/`: index.html, app.js, style.css, built into the binary) talks to a
//! JSON API under `/api` (documented in docs/web.md). Each game has its own id and lives in [`games`];
//! the engine's searches run on blocking threads ([`engines`]) within a time limit, and stop
//! when their game is undone, replaced or closed. Idle games expire, the number of games and
//! the size of a request are bounded, and every bad request gets status 400 and a message.

pub mod api;
pub mod engines;
pub mod games;

#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use kalah_engine::decide::decide;
use kalah_engine::time::Limits;
use kalah_rules::rules::{
    word_of, CAPTURE_WORDS, DIRECTION_WORDS, END_WORDS, LEFTOVER_WORDS, MAX_HOUSES, MAX_SEEDS, MIN_HOUSES, MIN_SEEDS,
    PRESETS, SOWING_WORDS,
};
use kalah_rules::{Game, Position, Record, RecordWarning, Rules, Side};
use serde::de::DeserializeOwned;
use serde_json::json;

use self::api::{ActionText, Analysis, GameState, Goto, Hint, MoveRequest, NewGame, Plies};
use self::engines::{Engines, LEVELS};
use self::games::{lock, Games, Missing, Seat, Session};
use crate::error::bad;

/// The page, built into the binary so that `kalah serve` works from any folder with no network.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// The largest request body: a long game record fits many times over.
const MAX_BODY: usize = 256 * 1024;

/// Flags of `kalah serve`.
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
    /// Searches that may run at once (1-64) [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub searches: Option<usize>,
    /// Transposition table of each engine in MiB (1-4096)
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub hash: usize,
    /// Most games held at once (1-100000); more are refused until some expire or close
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_games: usize,
    /// A game with no request for this many minutes is closed (1-10080)
    #[arg(long, value_name = "MINUTES", default_value_t = 30)]
    pub idle_minutes: u64,
    /// Folder of the endgame databases [default: the user's cache folder, kalah/egdb]
    #[arg(long, value_name = "DIR")]
    pub egdb_dir: Option<PathBuf>,
    /// Do not use endgame databases even if they are there
    #[arg(long)]
    pub no_egdb: bool,
}

/// What the handlers share.
pub struct App {
    games: Games,
    engines: Arc<Engines>,
    engine_time: Duration,
}

impl App {
    /// Returns the server's state: `searches` engines of `table_bytes`, games bounded by
    /// `max_games` and `idle`, and `engine_time` for every search.
    pub fn new(
        engine_time: Duration,
        searches: usize,
        table_bytes: usize,
        egdb_dir: Option<PathBuf>,
        max_games: usize,
        idle: Duration,
    ) -> App {
        App {
            games: Games::new(max_games, idle),
            engines: Arc::new(Engines::new(searches, table_bytes, egdb_dir)),
            engine_time,
        }
    }
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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let searches = args.searches.unwrap_or(cores);
    check("searches", searches, 1, 64, "searches")?;
    check("hash", args.hash, 1, 4096, "MiB")?;
    check("max-games", args.max_games, 1, 100_000, "games")?;
    check("idle-minutes", args.idle_minutes, 1, 10_080, "minutes")?;
    let egdb_dir = if args.no_egdb { None } else { args.egdb_dir.clone().or_else(kalah_engine::egdb::default_dir) };
    let app = Arc::new(App::new(
        Duration::from_millis(args.engine_time),
        searches,
        args.hash << 20,
        egdb_dir,
        args.max_games,
        Duration::from_secs(args.idle_minutes * 60),
    ));
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the server")?;
    runtime.block_on(async move {
        let address = format!("{}:{}", args.host, args.port);
        let listener = tokio::net::TcpListener::bind(&address).await.map_err(|e| {
            bad(format!("cannot listen on {address}: {e}; pick another --port (0 picks a free one) or --host"))
        })?;
        let bound: SocketAddr = listener.local_addr().context("cannot read the address listened on")?;
        println!("kalah serve: play at http://{bound}/ (Ctrl-C stops)");
        let sweeper = Arc::clone(&app);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval((sweeper.games.idle() / 4).min(Duration::from_secs(60)));
            loop {
                tick.tick().await;
                sweeper.games.expire(Instant::now());
            }
        });
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("the server stopped")
    })
}

/// Returns the routes of the page and the API.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/api/variants", get(variants))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show).delete(close))
        .route("/api/games/{id}/move", post(act))
        .route("/api/games/{id}/engine", post(engine_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/goto", post(goto))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/games/{id}/record", get(record))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// An answer other than success: a status and a one-line message, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError { status: StatusCode::CONFLICT, message: message.into() }
}

fn missing(app: &App, id: &str, why: Missing) -> ApiError {
    match why {
        Missing::Unknown => ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!(
                "there is no game {id:?}: it was closed, or expired after {} minutes without a request",
                app.games.idle().as_secs() / 60
            ),
        },
        Missing::Full => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!("the server holds its most games ({}): close one or try again later", app.games.max()),
        },
    }
}

fn engine_failed() -> ApiError {
    ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: "the engine's search failed".to_string() }
}

fn changed_meanwhile() -> ApiError {
    conflict("the game changed while the engine was thinking (a move, an undo, or it was closed): ask again")
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!(
            "nothing at {method} {}: the page is at / and the API under /api/games (see docs/web.md)",
            uri.path()
        ),
    }
}

/// Reads a JSON body; an empty body is the request's defaults when it has some.
fn read<T: DeserializeOwned>(body: &Bytes, empty: Option<T>) -> Result<T, ApiError> {
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
        "levels": LEVELS.iter().map(|(level, _, about)| json!({ "level": level, "about": about })).collect::<Vec<_>>(),
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

/// `POST /api/games`: starts a game.
async fn create(State(app): State<Arc<App>>, body: Bytes) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let request: NewGame = read(&body, Some(NewGame::default()))?;
    let seat = |text: &Option<String>, default: Seat, which: &str| match text {
        None => Ok(default),
        Some(t) => t.parse::<Seat>().map_err(|e| bad_request(format!("{which}: {e}"))),
    };
    let seats = [seat(&request.south, Seat::Human, "south")?, seat(&request.north, Seat::Engine(3), "north")?];
    let (game, warnings) = new_game(&request)?;
    let id = app.games.add(Session::new(game, seats)).map_err(|why| missing(&app, "", why))?;
    let game = session(&app, &id)?;
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

/// `POST /api/games/{id}/move`: a person's action.
async fn act(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Result<Json<GameState>, ApiError> {
    let request: MoveRequest = read(&body, None)?;
    let game = session(&app, &id)?;
    let mut s = lock(&game);
    let text = match &request.action {
        ActionText::Number(n) => n.to_string(),
        ActionText::Text(t) => t.clone(),
    };
    let action = s.game.parse_action(&text).map_err(|e| bad_request(e.to_string()))?;
    match s.decider() {
        None => return Err(bad_request("the game is over: no more moves can be played")),
        Some((side, Seat::Engine(_))) => {
            return Err(bad_request(format!(
                "{side} is played by the engine: POST /api/games/{id}/engine lets it move"
            )))
        }
        Some(_) if s.thinking => return Err(conflict("the engine is thinking")),
        Some(_) => {}
    }
    s.act(action).map_err(bad_request)?;
    Ok(Json(api::state(&id, &s)))
}

/// Clears a session's `thinking` mark when an engine move ends in any way, the request dropped included.
struct Thinking {
    game: Arc<Mutex<Session>>,
    version: u64,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        let mut s = lock(&self.game);
        if s.version == self.version {
            s.thinking = false;
        }
    }
}

/// `POST /api/games/{id}/engine`: the engine takes the action it is to take.
async fn engine_move(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<GameState>, ApiError> {
    let game = session(&app, &id)?;
    let (snapshot, limits, stop, version) = {
        let mut s = lock(&game);
        let level = match s.decider() {
            None => return Err(bad_request("the game is over: the engine has no move to make")),
            Some((side, Seat::Human)) => {
                return Err(bad_request(format!("{side} is played by a person: POST /api/games/{id}/move")))
            }
            Some(_) if s.thinking => return Err(conflict("the engine is already thinking about this move")),
            Some((_, Seat::Engine(level))) => level,
        };
        s.thinking = true;
        (s.game.clone(), engines::level_limits(level, app.engine_time), Arc::clone(&s.stop), s.version)
    };
    let _thinking = Thinking { game: Arc::clone(&game), version };
    let rules = *snapshot.rules();
    let decision = app
        .engines
        .run(&id, rules, move |engine| decide(engine, &snapshot, limits, Some(&stop)))
        .await
        .map_err(|_| engine_failed())?;
    let mut s = lock(&game);
    if s.version != version {
        return Err(changed_meanwhile());
    }
    let decision = decision.ok_or_else(engine_failed)?;
    s.act(decision.action).map_err(|_| engine_failed())?;
    Ok(Json(api::state(&id, &s)))
}

/// `POST /api/games/{id}/undo`.
async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Result<Json<GameState>, ApiError> {
    let request: Plies = read(&body, Some(Plies::default()))?;
    let game = session(&app, &id)?;
    let mut s = lock(&game);
    if s.game.actions().is_empty() {
        return Err(bad_request("nothing to undo: the game is at its start"));
    }
    s.undo(request.plies);
    Ok(Json(api::state(&id, &s)))
}

/// `POST /api/games/{id}/redo`.
async fn redo(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Result<Json<GameState>, ApiError> {
    let request: Plies = read(&body, Some(Plies::default()))?;
    let game = session(&app, &id)?;
    let mut s = lock(&game);
    if s.redo.is_empty() {
        return Err(bad_request("nothing to redo: no action was taken back"));
    }
    s.redo(request.plies);
    Ok(Json(api::state(&id, &s)))
}

/// `POST /api/games/{id}/goto`: shows the position after a ply of the whole line.
async fn goto(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Result<Json<GameState>, ApiError> {
    let request: Goto = read(&body, None)?;
    let game = session(&app, &id)?;
    let mut s = lock(&game);
    s.goto(request.ply).map_err(bad_request)?;
    Ok(Json(api::state(&id, &s)))
}

/// `GET /api/games/{id}/hint`: the engine's choice for the player to decide, and its value.
async fn hint(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Hint>, ApiError> {
    let game = session(&app, &id)?;
    let (snapshot, stop, version, side) = {
        let s = lock(&game);
        let Some((side, _)) = s.decider() else {
            return Err(bad_request("the game is over: there is no move to hint"));
        };
        (s.game.clone(), Arc::clone(&s.stop), s.version, side)
    };
    let rules = *snapshot.rules();
    let limits = Limits::time(app.engine_time);
    let decision = app
        .engines
        .run(&id, rules, move |engine| decide(engine, &snapshot, limits, Some(&stop)))
        .await
        .map_err(|_| engine_failed())?
        .ok_or_else(engine_failed)?;
    if lock(&game).version != version {
        return Err(changed_meanwhile());
    }
    Ok(Json(Hint {
        version,
        side: side.name(),
        action: decision.action.to_string(),
        value: decision.score.seeds(),
        exact: decision.score.is_exact(),
        depth: decision.depth,
    }))
}

/// `GET /api/games/{id}/analysis`: the value of the position shown, South's view.
async fn analysis(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Analysis>, ApiError> {
    let game = session(&app, &id)?;
    let (position, rules, stop, version) = {
        let s = lock(&game);
        if let Some((v, cached)) = &s.analysis {
            if *v == s.version {
                return Ok(Json(cached.clone()));
            }
        }
        let position = *s.game.position();
        let rules = *s.game.rules();
        if s.game.is_over() {
            let value = f64::from(position.final_difference(&rules));
            let side = position.mover().name();
            return Ok(Json(Analysis {
                version: s.version,
                value,
                exact: true,
                depth: 0,
                side,
                best: None,
                line: Vec::new(),
                nodes: 0,
                millis: 0,
            }));
        }
        (position, rules, Arc::clone(&s.stop), s.version)
    };
    let limits = Limits::time(app.engine_time);
    let info = app
        .engines
        .run(&id, rules, move |engine| engines::analyse(engine, &position, &rules, limits, &stop))
        .await
        .map_err(|_| engine_failed())?;
    let analysis = Analysis {
        version,
        // The page shows South's view.
        value: if position.mover() == Side::South { info.score } else { -info.score }.seeds(),
        exact: info.score.is_exact(),
        depth: info.depth,
        side: position.mover().name(),
        best: info.best.map(|m| m.number()),
        line: info.pv.iter().map(|m| m.number()).collect(),
        nodes: info.nodes,
        millis: info.elapsed.as_millis() as u64,
    };
    let mut s = lock(&game);
    if s.version != version {
        return Err(changed_meanwhile());
    }
    s.analysis = Some((version, analysis.clone()));
    Ok(Json(analysis))
}

/// `GET /api/games/{id}/record`: the game record as a file.
async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = session(&app, &id)?;
    let s = lock(&game);
    let mut record = Record::new(s.game.clone());
    let describe = |seat: Seat| match seat {
        Seat::Human => "human".to_string(),
        Seat::Engine(level) => format!("engine level {level}"),
    };
    record.tags = vec![
        ("Event".to_string(), "Casual game".to_string()),
        ("Date".to_string(), crate::play::today()),
        ("South".to_string(), describe(s.seats[0])),
        ("North".to_string(), describe(s.seats[1])),
    ];
    let headers = [
        (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"game.kalah\"".to_string()),
    ];
    Ok((headers, record.to_text()).into_response())
}
