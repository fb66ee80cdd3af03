//! A request's game and who sends it: the game held ([`session`]), the token it carries
//! ([`bearer`]), who that token acts as ([`actor`]), and the storing of its changes ([`save`]).

use axum::http::{header, HeaderMap};
use kalah_table::{Actor, Host, Moment};

use crate::app::App;
use crate::error::{missing, ApiError};
use crate::games::{Held, Session};

/// Stores the changes of game `id` before the answer: see [`Games::save`].
pub(crate) async fn save(app: &App, id: &str, s: &mut Session) -> Result<(), ApiError> {
    app.games.save(id, s).await.map_err(|why| missing(app, id, why))
}

/// Returns game `id`: held in memory, or read from the store.
pub(crate) async fn session(app: &App, id: &str) -> Result<Held, ApiError> {
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
pub(crate) fn actor(s: &mut Session, headers: &HeaderMap, now: Moment) -> Result<Actor, ApiError> {
    let actor = s.actor(bearer(headers), Host::Server)?;
    s.arrive(actor, now);
    Ok(actor)
}
