//! The engine's routes: its move, a hint, the analysis, the explorer, the course's searches,
//! each in a search's place of the engine pool; and the moves the server owes in rated games.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kalah_course::trace;
use kalah_engine::explorer::Budget;
use kalah_engine::time::Limits;
use kalah_rules::Game;
use kalah_table::{Actor, GameState, Help, Moment};
use kalah_table::{Analysis, Explored, Hint};

use crate::api;
use crate::app::App;
use crate::engines::Kind;
use crate::error::{bad_request, engine_failed, not_searched, ApiError};
use crate::games::Held;
use crate::session::{actor, save, session};

/// Ends a table's thinking when an engine move ends in any way, the request dropped included.
pub(crate) struct Thinking {
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
pub(crate) async fn engine_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    engine_turn(&app, &id, Some(&headers)).await.map(|(state, _)| Json(state))
}

/// Plays the engine's move in game `id`, asked by the request with `headers`, or by the server
/// itself (`None`: [`drive`]); returns the state and whether the engine's next move is due
/// ([`kalah_table::Table::engine_due`]).
pub(crate) async fn engine_turn(
    app: &App,
    id: &str,
    headers: Option<&HeaderMap>,
) -> Result<(GameState, bool), ApiError> {
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

/// `GET /api/games/{id}/hint`: the engine's choice for the player to decide, and its value.
/// `HEAD` says whether the game is there and runs no search.
pub(crate) async fn hint(
    State(app): State<Arc<App>>,
    method: Method,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
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
pub(crate) fn head() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], "").into_response()
}

/// `GET /api/games/{id}/analysis`: the value of the position shown, South's view, and the best
/// action of the side that decides. While North decides the pie offer or the handicap opening,
/// that is North's decision (the one a hint gives), not a sowing of the side to move.
/// `HEAD` says whether the game is there and runs no search.
pub(crate) async fn analysis(
    State(app): State<Arc<App>>,
    method: Method,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
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
pub(crate) fn analyse_game(
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
pub(crate) async fn explore(
    State(app): State<Arc<App>>,
    method: Method,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
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
pub(crate) async fn searches(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    uri: Uri,
) -> Result<Response, ApiError> {
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
