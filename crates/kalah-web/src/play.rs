//! The routes that change a game or read it: a new game, a move and the table's other commands,
//! resign, takeback, rematch, the state, the live channel, a deletion. Each reads who sends it
//! (the `Authorization: Bearer` token), hands the table the command, stores the change and answers.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::Json;
use kalah_host::guard::{self, Client};
use kalah_rules::{RecordWarning, Side};
use kalah_table::request::Command;
use kalah_table::route::Route;
use kalah_table::{request, Actor, GameState, Host, Moment, Refused};
use serde_json::json;
use tokio::sync::watch;

use crate::api;
use crate::app::App;
use crate::error::{missing, ApiError};
use crate::games::{self, Held, Session};
use crate::help::drive;
use crate::presence::{self, Attending};
use crate::session::{actor, bearer, save, session};

/// Runs a change `f` of game `id` by the request's sender, stores it, and answers with the
/// state. What the request's arrival changed is stored even when `f` refuses.
pub(crate) async fn change(
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
pub(crate) async fn command(
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
pub(crate) async fn variants() -> Json<serde_json::Value> {
    Json(kalah_table::form::variants())
}

/// `POST /api/games`: starts a game; the answer alone carries the creator's token (and, for a
/// game against a friend, the invitation's).
pub(crate) async fn create(
    State(app): State<Arc<App>>,
    body: Bytes,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
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
pub(crate) async fn resign(
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
pub(crate) async fn takeback(
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
pub(crate) async fn rematch(
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
pub(crate) async fn live(
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
pub(crate) struct Following {
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
pub(crate) async fn show(
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
pub(crate) async fn close(
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
pub(crate) async fn act(
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

/// `POST /api/games/{id}/shown`: the page has shown the game at `{"version": V}` (animated the
/// move before) to the player to decide, whose clock starts now (see
/// [`kalah_table::Table::shown`]).
pub(crate) async fn shown(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Shown, &body).await
}

/// `POST /api/games/{id}/undo`.
pub(crate) async fn undo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Undo, &body).await
}

/// `POST /api/games/{id}/redo`.
pub(crate) async fn redo_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Redo, &body).await
}

/// `POST /api/games/{id}/goto`: shows the position after a ply of the whole line.
pub(crate) async fn goto_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameState>, ApiError> {
    command(&app, &id, &headers, Route::Goto, &body).await
}
