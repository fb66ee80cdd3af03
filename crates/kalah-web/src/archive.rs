//! The archive's routes: finished games by player, and a game's record.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use kalah_rules::record;
use kalah_table::Moment;
use serde_json::json;

use crate::app::App;
use crate::error::{missing, ApiError};
use crate::games::Missing;
use crate::session::session;

/// The query of `GET /api/archive`.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct ArchiveQuery {
    /// A player's name: their finished games the lobby paired.
    player: Option<String>,
}

/// `GET /api/archive`: the finished games, the last finished first (at most 1000);
/// `?player=NAME`: the finished games of a player the lobby paired (at most 1000).
pub(crate) async fn archive(
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
pub(crate) async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
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
