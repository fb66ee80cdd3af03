//! The page on the WebSocket listener's port (`http://HOST:PORT/`, beside `/socket`): the games
//! stored (filtered by agent or tournament), a replay of any of them on the project's board
//! ([`kalah_board`], the board of `kalah serve`'s page), each agent's results and who beat whom,
//! the tournaments' tables, and each game's record to download. It reads the database on
//! connections of its own ([`Reader`]), so it shows what is stored, as it is stored.
//!
//! The JSON it reads, each a GET:
//! * `/api/games?agent=NAME&tournament=ID`: the games, newest first (both filters optional);
//! * `/api/games/ID`: one game with its moves and the board after each (cells numbered as
//!   `kalah serve`'s API numbers them);
//! * `/api/games/ID/record`: its record, as a file to save (`kalah play --load` replays it);
//! * `/api/standings?tournament=ID`: the table of one tournament, or of every game stored;
//! * `/api/tournaments`: the tournaments, newest first; `/api/agents`: the agents' names;
//! * `/api/tournaments/ID/report`: a tournament's report ([`crate::report`]).

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use kalah_rules::{Action, Game, Move, Position, Rules, Side};

use crate::report::Report;
use crate::standings::Standings;
use crate::store::{GameId, GameRow, Reader, StoreError, StoredMove, TournamentId};

const PAGE_HTML: &str = include_str!("../web/index.html");
const PAGE_JS: &str = include_str!("../web/page.js");
const PAGE_CSS: &str = include_str!("../web/page.css");

/// The routes of the page and its JSON, reading the database at `db`.
pub fn router(db: PathBuf) -> Router {
    let db = Arc::new(db);
    // The page's words in every language (kalah-l10n), as kalah serve's page has them.
    let words = kalah_l10n::assets().into_iter().fold(Router::new(), |router, a| {
        router.route(&format!("/{}", a.path), get(move || async move { asset(a.content_type, a.text) }))
    });
    words
        .route("/", get(|| async { asset("text/html; charset=utf-8", PAGE_HTML) }))
        .route("/page.js", get(|| async { asset("text/javascript; charset=utf-8", PAGE_JS) }))
        .route("/page.css", get(|| async { asset("text/css; charset=utf-8", PAGE_CSS) }))
        .route("/board.js", get(|| async { asset("text/javascript; charset=utf-8", kalah_board::SCRIPT) }))
        .route("/board.css", get(|| async { asset("text/css; charset=utf-8", kalah_board::STYLE) }))
        .route("/api/games", get(games))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(record))
        .route("/api/standings", get(standings))
        .route("/api/tournaments", get(tournaments))
        .route("/api/tournaments/{id}/report", get(report))
        .route("/api/agents", get(agents))
        .with_state(db)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// An answer that is not the one asked for: a status and one line.
struct Failure(StatusCode, String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Failure {
        Failure(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
    }
}

/// Runs `read` on a reader of the database, off the async threads.
async fn read<T: Send + 'static>(
    db: Arc<PathBuf>,
    read: impl FnOnce(&Reader) -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    tokio::task::spawn_blocking(move || read(&Reader::open(&db)?))
        .await
        .map_err(|_| Failure(StatusCode::INTERNAL_SERVER_ERROR, "the database read failed".into()))?
}

/// The filters of the lists.
#[derive(serde::Deserialize)]
struct Filter {
    agent: Option<String>,
    tournament: Option<TournamentId>,
}

/// A game in a list: its row without the record.
#[derive(serde::Serialize)]
struct Listed {
    #[serde(flatten)]
    row: GameRow,
}

async fn games(State(db): State<Arc<PathBuf>>, Query(filter): Query<Filter>) -> Result<Json<Vec<Listed>>, Failure> {
    let agent = filter.agent.filter(|a| !a.is_empty());
    let rows = read(db, move |r| Ok(r.games(agent.as_deref(), filter.tournament)?)).await?;
    Ok(Json(
        rows.into_iter()
            .map(|mut row| Listed {
                row: {
                    row.record.clear();
                    row
                },
            })
            .collect(),
    ))
}

/// One game with its moves and the board after each.
#[derive(serde::Serialize)]
struct Replay {
    #[serde(flatten)]
    row: GameRow,
    houses: u8,
    moves: Vec<StoredMove>,
    /// The cells before the first move and after each: South's houses, South's store, North's
    /// houses, North's store.
    positions: Vec<Vec<u16>>,
    /// The side to move on each board, `null` once the game is over.
    movers: Vec<Option<&'static str>>,
}

fn cells(position: &Position) -> Vec<u16> {
    let m = usize::from(position.houses());
    let mut cells: Vec<u16> = (0..m).map(|i| position.house(Side::South, i)).collect();
    cells.push(position.store(Side::South));
    cells.extend((0..m).map(|i| position.house(Side::North, i)));
    cells.push(position.store(Side::North));
    cells
}

fn parse_id(id: &str) -> Result<GameId, Failure> {
    id.parse()
        .map_err(|_| Failure(StatusCode::NOT_FOUND, format!("{id:?} is not a game id: a number, as the list gives")))
}

async fn game(State(db): State<Arc<PathBuf>>, Path(id): Path<String>) -> Result<Json<Replay>, Failure> {
    let id = parse_id(&id)?;
    let (row, moves) = read(db, move |r| {
        let row = r.game(id)?.ok_or_else(|| Failure(StatusCode::NOT_FOUND, format!("there is no game {id}")))?;
        Ok((row, r.moves(id)?))
    })
    .await?;
    let rules: Rules = row.rules.parse().map_err(|e| {
        Failure(StatusCode::INTERNAL_SERVER_ERROR, format!("game {id} has rules that cannot be read: {e}"))
    })?;
    let mut game = Game::new(rules);
    let mover =
        |g: &Game| (!g.is_over()).then_some(if g.position().mover() == Side::South { "south" } else { "north" });
    let mut positions = vec![cells(game.position())];
    let mut movers = vec![mover(&game)];
    for stored in &moves {
        let played = Move::from_number(u32::from(stored.house)).map(|mv| game.act(Action::Sow(mv)));
        if !matches!(played, Some(Ok(_))) {
            return Err(Failure(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("game {id}: move {} (house {}) cannot be replayed", stored.ply, stored.house),
            ));
        }
        positions.push(cells(game.position()));
        movers.push(mover(&game));
    }
    Ok(Json(Replay { houses: rules.houses(), row, moves, positions, movers }))
}

async fn record(State(db): State<Arc<PathBuf>>, Path(id): Path<String>) -> Result<Response, Failure> {
    let id = parse_id(&id)?;
    let text = read(db, move |r| {
        r.record(id)?.ok_or_else(|| Failure(StatusCode::NOT_FOUND, format!("there is no game {id}")))
    })
    .await?;
    let disposition = format!("attachment; filename=\"kgp-game-{id}.kalah\"");
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}

async fn standings(State(db): State<Arc<PathBuf>>, Query(filter): Query<Filter>) -> Result<Json<Standings>, Failure> {
    let rows = read(db, move |r| Ok(r.games(None, filter.tournament)?)).await?;
    Ok(Json(Standings::from_games(&rows)))
}

async fn tournaments(State(db): State<Arc<PathBuf>>) -> Result<Json<serde_json::Value>, Failure> {
    let rows = read(db, |r| Ok(r.tournaments()?)).await?;
    Ok(Json(serde_json::to_value(rows).unwrap_or_default()))
}

async fn report(State(db): State<Arc<PathBuf>>, Path(id): Path<String>) -> Result<Json<Report>, Failure> {
    let id: TournamentId = parse_id(&id)?;
    let report = read(db, move |r| Ok(Report::read(r, id)?)).await?;
    report.map(Json).ok_or_else(|| Failure(StatusCode::NOT_FOUND, format!("there is no tournament {id}")))
}

async fn agents(State(db): State<Arc<PathBuf>>) -> Result<Json<serde_json::Value>, Failure> {
    let rows = read(db, |r| Ok(r.agents()?)).await?;
    let agents: Vec<_> =
        rows.into_iter().map(|(id, name, bot)| serde_json::json!({ "id": id, "name": name, "bot": bot })).collect();
    Ok(Json(serde_json::Value::Array(agents)))
}
