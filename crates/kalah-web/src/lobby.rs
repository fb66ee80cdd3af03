//! The lobby of `kalah serve`: names, open challenges, quick pairing, ratings, the games being
//! played and the players' pages (the routes under `/api/players`, `/api/lobby` and
//! `/api/leaderboard`, in docs/web.md). What the lobby allows is crate kalah-lobby's; the
//! names, ratings and paired games are kept in the games' database ([`crate::players`]); the
//! open challenges are held by the server in memory, like a game's presence, and expire.
//!
//! A player proves their name with its secret, sent as `Authorization: Bearer SECRET` (the page
//! keeps it in the browser). In a game the lobby paired, each seat is held by its player's
//! secret: the page plays it with the same secret, on any device that holds it, and nothing
//! else needs handing over when a challenge is accepted. The live channel
//! (`GET /api/lobby/live`) tells every page each challenge made and gone, each game paired
//! (its players' pages open it) and each paired game ended, with the new ratings.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::Json;
use kalah_lobby::{Challenge, Family, Lobby, LobbyError, Name, NameError, Offer};
use kalah_table::refused::one_line;
use kalah_table::start::token_hash;
use kalah_table::Moment;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;

use crate::app::App;
use crate::error::{missing, ApiError};
use crate::games::{self, Ended, Missing};
use crate::session::bearer;
use crate::words::Said;
use kalah_host::guard::Client;

/// How long a game with no change stays in the list of games being played.
const PLAYING_IDLE: Duration = Duration::from_secs(3600);

/// The most games the lobby lists as being played, and a player's page lists.
const LISTED: usize = 100;

/// The lobby a server holds: the open challenges as the database keeps them (a copy, kept up
/// to date by this server's changes and, with a shared database, the others' notices), and the
/// channel its changes are told on.
pub struct Hall {
    open: Mutex<Lobby>,
    events: broadcast::Sender<Told>,
}

/// A change of the lobby as the live channel sends it: the event's name and its JSON.
#[derive(Clone, Debug)]
pub struct Told {
    event: &'static str,
    data: Arc<str>,
}

impl Default for Hall {
    fn default() -> Hall {
        Hall { open: Mutex::new(Lobby::default()), events: broadcast::channel(4096).0 }
    }
}

/// The live channel's events a server tells the others of.
const EVENTS: [&str; 4] = ["challenge", "gone", "paired", "ended"];

impl Hall {
    fn lobby(&self) -> std::sync::MutexGuard<'_, Lobby> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells this server's live channels of a change.
    fn tell(&self, event: &'static str, data: serde_json::Value) {
        let _ = self.events.send(Told { event, data: data.to_string().into() });
    }

    /// Tells this server's live channels of a change, and the servers sharing its database.
    async fn announce(&self, app: &App, event: &'static str, data: serde_json::Value) {
        if let Some(shared) = app.games.shared() {
            // Not stored, as presence: a server that misses it reads the challenges again.
            let _ = shared.tell_lobby(event, &data.to_string()).await;
        }
        self.tell(event, data);
    }

    /// A change another server sharing the database told: the copy here follows it, and this
    /// server's live channels are told.
    pub fn heard(&self, event: &str, data: &str) {
        let Some(event) = EVENTS.into_iter().find(|known| *known == event) else { return };
        let Ok(value) = serde_json::from_str::<serde_json::Value>(data) else { return };
        match event {
            "challenge" => {
                if let Ok(challenge) = serde_json::from_value::<Challenge>(value.clone()) {
                    self.lobby().add(challenge);
                }
            }
            "gone" => drop(self.lobby().remove(value["id"].as_str().unwrap_or_default())),
            "paired" => drop(self.lobby().remove(value["challenge"].as_str().unwrap_or_default())),
            _ => {}
        }
        self.tell(event, value);
    }

    /// Reads the open challenges from the database again (when the server starts, and when
    /// it may have missed other servers' notices), and tells the live channels the whole lobby.
    pub async fn reload(&self, app: &App) {
        if let Ok(open) = app.games.store().open_challenges(Moment::now()).await {
            self.lobby().replace(open);
        }
        if let Ok(whole) = snapshot(app).await {
            self.tell("lobby", whole);
        }
    }

    /// Removes the challenges expired by `now`, here and in the database, and tells the live
    /// channels (each server expires its own copy).
    pub async fn expire(&self, app: &App, now: Moment) {
        let gone = self.lobby().expire(now);
        for challenge in gone {
            self.tell("gone", json!({ "id": challenge.id, "why": "expired" }));
        }
        let _ = app.games.store().drop_challenges(now, None).await;
    }

    /// Tells the live channels, here and elsewhere, that a paired game ended (with the ratings
    /// after it).
    pub async fn ended(&self, app: &App, ended: &Ended) {
        let ratings = ended.ratings.map(|r| r.map(|r| json!({ "rating": r.rating, "shown": r.shown() })));
        self.announce(app, "ended", json!({ "game": ended.id, "ratings": ratings })).await;
    }

    /// `by`, rated `rating`, offers a challenge: kept in the database, then told.
    async fn offer(
        &self,
        app: &App,
        by: &Name,
        rating: kalah_lobby::Rating,
        offer: &Offer,
    ) -> Result<Challenge, ApiError> {
        let now = Moment::now();
        let store = app.games.store();
        // Counted in the database: the challenges made through other servers count too.
        if store.challenges_of(&by.key(), now).await.map_err(|e| store_failed(app, e))?
            >= kalah_lobby::challenge::MOST_OPEN
        {
            return Err(LobbyError::TooMany.into());
        }
        let challenge = self.lobby().offer(games::new_token()[..16].to_string(), by, rating, offer, now)?;
        if let Err(e) = store.keep_challenge(&challenge).await {
            self.lobby().remove(&challenge.id);
            return Err(store_failed(app, e));
        }
        self.announce(app, "challenge", shown(&challenge)).await;
        Ok(challenge)
    }

    /// `by` takes challenge `id`: from the database, so that of two servers one hands it out.
    async fn take(&self, app: &App, id: &str, by: &Name) -> Result<kalah_lobby::challenge::Pairing, ApiError> {
        let store = app.games.store();
        let unknown = || ApiError::from(LobbyError::Unknown(id.to_string()));
        let challenge =
            store.challenge(id, Moment::now()).await.map_err(|e| store_failed(app, e))?.ok_or_else(unknown)?;
        Lobby::may_accept(&challenge, by)?;
        if !store.take_challenge(id, None).await.map_err(|e| store_failed(app, e))? {
            return Err(unknown());
        }
        self.lobby().remove(id);
        Ok(Lobby::pair(challenge, by, rand::random()))
    }
}

/// Follows the games the lobby paired as they end, and tells the live channels (run by
/// [`crate::serve`]).
pub async fn follow_endings(app: Arc<App>) {
    let mut ended = app.games.ended();
    loop {
        match ended.recv().await {
            Ok(game) => app.lobby.ended(&app, &game).await,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> ApiError {
        let said = match &e {
            LobbyError::Bad(detail) => Said::new("error-bad").with("detail", detail.as_str()),
            LobbyError::Unknown(_) => Said::new("error-no-challenge"),
            LobbyError::Own => Said::new("error-challenge-own"),
            LobbyError::NotYours => Said::new("error-challenge-not-yours"),
            LobbyError::GuestRated => Said::new("error-guest-rated"),
            LobbyError::TooMany => Said::new("error-challenges-too-many"),
            LobbyError::Untimed => Said::new("error-rated-untimed"),
        };
        ApiError::new(StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST), one_line(e.to_string()))
            .saying(said)
    }
}

impl From<NameError> for ApiError {
    fn from(e: NameError) -> ApiError {
        let said = match &e {
            NameError::Malformed(_) => Said::new("error-name-malformed"),
            NameError::Reserved(name) => Said::new("error-name-reserved").with("name", name.as_str()),
        };
        ApiError::bad(e.to_string()).saying(said)
    }
}

fn store_failed(app: &App, e: crate::store::StoreError) -> ApiError {
    missing(app, "", Missing::Store(e))
}

/// The body of `POST /api/players`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Register {
    /// The name picked.
    name: Option<String>,
    /// A guest's name, made by the server: unrated games only.
    #[serde(default)]
    guest: bool,
}

/// `POST /api/players`: a new name (`{"name": "alice"}`) or a guest's (`{"guest": true}`); the
/// answer alone carries the secret that proves it.
pub(crate) async fn register(
    State(app): State<Arc<App>>,
    body: Bytes,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let asked: Register = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad(format!("cannot read the JSON body: {e}; write {{\"name\": \"alice\"}} or {{\"guest\": true}}"))
    })?;
    let now = Moment::now();
    let secret = games::new_token();
    let name = match (asked.name.as_deref(), asked.guest) {
        (Some(text), false) => {
            let name = Name::parse(text)?;
            let kept = app.games.store().register(&name, &token_hash(&secret), now).await;
            if !kept.map_err(|e| store_failed(&app, e))? {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    format!("the name {name} is taken (names differ in more than case): pick another"),
                )
                .saying(Said::new("error-name-taken").with("name", name.to_string())));
            }
            name
        }
        (None, true) => {
            let mut made = None;
            // 24 random bits: a few tries find a free guest's name.
            for _ in 0..8 {
                let name = Name::guest(rand::random());
                let kept = app.games.store().register(&name, &token_hash(&secret), now).await;
                if kept.map_err(|e| store_failed(&app, e))? {
                    made = Some(name);
                    break;
                }
            }
            made.ok_or_else(|| ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-no-guest-name")))?
        }
        _ => {
            return Err(ApiError::bad(
                "give a name ({\"name\": \"alice\"}) or ask to play as a guest ({\"guest\": true})",
            ))
        }
    };
    let answer = json!({ "name": name, "guest": name.is_guest(), "secret": secret });
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Returns the name whose secret the request carries, or a 401.
async fn signed_in(app: &App, headers: &HeaderMap) -> Result<Name, ApiError> {
    let unknown = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "no player has this secret: pick a name (POST /api/players), or open the link that carries yours",
        )
        .saying(Said::new("error-no-such-secret"))
    };
    let secret = bearer(headers).filter(|s| !s.is_empty()).ok_or_else(unknown)?;
    let name = app.games.store().signed_in(&token_hash(secret)).await.map_err(|e| store_failed(app, e))?;
    name.ok_or_else(unknown)
}

/// The body of `POST /api/me/password`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    /// The password, or `null` to forget it.
    password: Option<String>,
}

/// `POST /api/me/password`: `{"password": "…"}` keeps the name's secret under a password (8 to
/// 200 characters), so that the name signs in anywhere with it; `{"password": null}` forgets it.
pub(crate) async fn password(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let name = signed_in(&app, &headers).await?;
    if name.is_guest() {
        return Err(ApiError::said(StatusCode::FORBIDDEN, Said::new("error-guest-password")));
    }
    let asked: NewPassword = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad(format!(
            "cannot read the JSON body: {e}; write {{\"password\": \"…\"}} or {{\"password\": null}}"
        ))
    })?;
    let secret = bearer(&headers).unwrap_or_default().to_string();
    let wrapped = match asked.password {
        None => None,
        Some(password) => {
            let length = password.chars().count();
            if !(crate::players::SHORTEST_PASSWORD..=crate::players::LONGEST_PASSWORD).contains(&length) {
                return Err(ApiError::said(
                    StatusCode::BAD_REQUEST,
                    Said::new("error-password-length").with("length", length),
                ));
            }
            // Argon2 is slow by design: on the pool, or refused at once when it is full.
            let ticket = app.passwords.admit().map_err(passwords_busy)?;
            let wrapped = ticket.wrap(secret, password).await;
            Some(wrapped.ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the secret cannot be kept"))?)
        }
    };
    let set = app.games.store().set_password(&name.key(), wrapped.as_ref()).await.map_err(|e| store_failed(&app, e))?;
    if !set {
        return Err(ApiError::said(StatusCode::GONE, Said::new("error-name-removed").with("name", name.to_string())));
    }
    Ok(Json(json!({ "name": name, "password": wrapped.is_some() })))
}

/// The body of `POST /api/sign-in`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SignIn {
    name: String,
    password: String,
}

/// `POST /api/sign-in`: `{"name": "alice", "password": "…"}` gives back the name's secret, for a
/// device that has not the link that carries it.
pub(crate) async fn sign_in(State(app): State<Arc<App>>, body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    let asked: SignIn = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad(format!("cannot read the JSON body: {e}; write {{\"name\": \"alice\", \"password\": \"…\"}}"))
    })?;
    let wrong = || ApiError::said(StatusCode::UNAUTHORIZED, Said::new("error-sign-in"));
    // A text that cannot be a name is refused at once: that tells nothing anyone cannot tell.
    let key = Name::read(&asked.name).map_err(|_| wrong())?.key();
    // Each name's failures count, whether it has a password, has none or is no one's.
    let attempt = app.passwords.attempt(&key, Instant::now()).map_err(|wait| {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        ApiError::said(StatusCode::TOO_MANY_REQUESTS, Said::new("error-sign-in-wait").with("seconds", seconds))
            .retry(Some(seconds))
    })?;
    let ticket = app.passwords.admit().map_err(passwords_busy)?;
    let kept = app.games.store().wrapped(&key).await.map_err(|e| store_failed(&app, e))?;
    // A name without a password, or no such name, costs the Argon2id of a wrong password: the
    // time of the answer does not tell who has a password.
    let (name, kept) = match kept {
        Some((name, hash, wrapped)) => (Some(name), Some((wrapped, hash))),
        None => (None, None),
    };
    let secret = ticket.open(kept, asked.password).await;
    attempt.settle(secret.is_some(), Instant::now());
    match (name, secret) {
        (Some(name), Some(secret)) => Ok(Json(json!({ "name": name, "guest": false, "secret": secret }))),
        _ => Err(wrong()),
    }
}

/// The pool of password work is full ([`crate::passwords`]): 503, to be asked again shortly.
fn passwords_busy(busy: crate::passwords::Busy) -> ApiError {
    ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-passwords-busy")).retry(Some(busy.retry_after))
}

/// `GET /api/me`: the name the secret proves, its ratings and its games being played.
pub(crate) async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<serde_json::Value>, ApiError> {
    let name = signed_in(&app, &headers).await?;
    let store = app.games.store();
    let now = Moment::now();
    let ratings = store.ratings(&name.key(), now).await.map_err(|e| store_failed(&app, e))?;
    let games = store.games_of(&name.key(), LISTED).await.map_err(|e| store_failed(&app, e))?;
    let playing: Vec<_> = games.into_iter().filter(|g| g.outcome.is_none()).collect();
    Ok(Json(json!({ "name": name, "guest": name.is_guest(), "ratings": ratings, "playing": playing })))
}

/// `GET /api/players/{name}`: a player's page: ratings, rating history and games.
pub(crate) async fn player(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let store = app.games.store();
    let key = name.to_ascii_lowercase();
    let Some((name, since)) = store.player(&key).await.map_err(|e| store_failed(&app, e))? else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, format!("no player is named {:?}", one_line(name.as_str())))
            .saying(Said::new("error-no-player").with("name", one_line(name))));
    };
    let now = Moment::now();
    let ratings = store.ratings(&key, now).await.map_err(|e| store_failed(&app, e))?;
    let games = store.games_of(&key, LISTED).await.map_err(|e| store_failed(&app, e))?;
    // The rating after each rated game, the oldest first: the history a page draws.
    let history: Vec<_> = games
        .iter()
        .rev()
        .filter_map(|g| {
            let seat = usize::from(!g.names[0].eq_ignore_ascii_case(name.as_str()));
            g.ratings.map(|r| json!({ "game": g.id, "family": g.family, "at": g.ended, "rating": r[seat][1] }))
        })
        .collect();
    Ok(Json(
        json!({ "name": name, "since": since, "guest": name.is_guest(), "ratings": ratings, "history": history, "games": games }),
    ))
}

/// The query of `GET /api/leaderboard`.
#[derive(Debug, Deserialize)]
pub(crate) struct Board {
    family: Option<String>,
}

/// `GET /api/leaderboard?family=kalah(6,4)`: the best ratings no longer provisional.
pub(crate) async fn leaderboard(
    State(app): State<Arc<App>>,
    Query(board): Query<Board>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let family: Family = board.family.as_deref().unwrap_or("kalah(6,4)").parse().map_err(ApiError::bad)?;
    let leaders =
        app.games.store().leaderboard(family, LISTED, Moment::now()).await.map_err(|e| store_failed(&app, e))?;
    Ok(Json(json!({ "family": family, "leaders": leaders })))
}

/// The lobby as the page shows it: the open challenges and the games being played.
async fn snapshot(app: &App) -> Result<serde_json::Value, ApiError> {
    let now = Moment::now();
    let challenges: Vec<serde_json::Value> =
        app.lobby.lobby().challenges().iter().filter(|c| c.expires > now).map(shown).collect();
    let since = Moment(now.0.saturating_sub(PLAYING_IDLE.as_millis() as u64));
    let playing = app.games.store().playing(since, LISTED).await.map_err(|e| store_failed(app, e))?;
    Ok(json!({ "challenges": challenges, "playing": playing }))
}

/// A challenge as the page shows it: with its maker's rating as shown.
fn shown(challenge: &Challenge) -> serde_json::Value {
    let mut value = serde_json::to_value(challenge).unwrap_or_default();
    value["shown"] = json!(challenge.rating.shown());
    value
}

/// `GET /api/lobby`: the open challenges and the games being played.
pub(crate) async fn lobby(State(app): State<Arc<App>>) -> Result<Json<serde_json::Value>, ApiError> {
    snapshot(&app).await.map(Json)
}

fn read_offer(body: &[u8]) -> Result<Offer, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Offer::default());
    }
    serde_json::from_slice(body).map_err(|e| {
        ApiError::bad(format!(
            "cannot read the JSON body: {e}; write {{\"rules\": \"kalah(6,4) standard\", \"clock\": {{\"seconds\": 300, \"increment\": 3}}, \"rated\": true, \"colour\": \"random\"}} (each field optional)"
        ))
    })
}

/// `POST /api/lobby/challenges`: the signed-in player offers a challenge.
pub(crate) async fn offer(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let name = signed_in(&app, &headers).await?;
    let offer = read_offer(&body)?;
    let (_, family, _) = Lobby::read(&offer)?;
    let now = Moment::now();
    let rating = app.games.store().rating(&name.key(), family, now).await.map_err(|e| store_failed(&app, e))?;
    let challenge = app.lobby.offer(&app, &name, rating, &offer).await?;
    Ok((StatusCode::CREATED, Json(json!({ "challenge": shown(&challenge) }))))
}

/// `DELETE /api/lobby/challenges/{id}`: its maker withdraws a challenge.
pub(crate) async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let name = signed_in(&app, &headers).await?;
    let store = app.games.store();
    match store.challenge(&id, Moment::now()).await.map_err(|e| store_failed(&app, e))? {
        None => return Err(LobbyError::Unknown(id).into()),
        Some(challenge) if challenge.by.key() != name.key() => return Err(LobbyError::NotYours.into()),
        Some(_) => {}
    }
    if !store.take_challenge(&id, Some(&name.key())).await.map_err(|e| store_failed(&app, e))? {
        return Err(LobbyError::Unknown(id).into());
    }
    app.lobby.lobby().remove(&id);
    app.lobby.announce(&app, "gone", json!({ "id": id, "why": "withdrawn" })).await;
    Ok(Json(json!({ "withdrawn": id })))
}

/// `POST /api/lobby/challenges/{id}/accept`: the signed-in player accepts a challenge; the game
/// begins, each seat held by its player's secret.
pub(crate) async fn accept(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let name = signed_in(&app, &headers).await?;
    let pairing = app.lobby.take(&app, &id, &name).await?;
    begin(&app, pairing).await
}

/// `POST /api/lobby/quick`: quick pairing: accepts the open challenge of the same game whose
/// maker's rating is nearest the player's, or else offers one.
pub(crate) async fn quick(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let name = signed_in(&app, &headers).await?;
    let offer = read_offer(&body)?;
    let (_, family, _) = Lobby::read(&offer)?;
    let now = Moment::now();
    let rating = app.games.store().rating(&name.key(), family, now).await.map_err(|e| store_failed(&app, e))?;
    let nearest = app.lobby.lobby().nearest(&name, rating, &offer, now)?;
    if let Some(id) = nearest {
        match app.lobby.take(&app, &id, &name).await {
            Ok(pairing) => return begin(&app, pairing).await,
            // Taken through another server meanwhile: this player's own is offered instead.
            Err(e) if e.status() == StatusCode::NOT_FOUND => {}
            Err(e) => return Err(e),
        }
    }
    let challenge = app.lobby.offer(&app, &name, rating, &offer).await?;
    Ok((StatusCode::CREATED, Json(json!({ "challenge": shown(&challenge) }))))
}

/// `POST /api/lobby/engine`: a rated game of the signed-in player against the engine at a
/// level (`{"level": 3, "rules": …, "clock": …, "colour": …}`); the server plays the engine's
/// moves.
pub(crate) async fn against_engine(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let name = signed_in(&app, &headers).await?;
    let offer: kalah_lobby::EngineOffer = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad(format!(
            "cannot read the JSON body: {e}; write {{\"level\": 3}}, with \"rules\", \"clock\" and \"colour\" as for a challenge"
        ))
    })?;
    let secret = bearer(&headers).unwrap_or_default();
    let table = offer.table(&name, token_hash(secret), rand::random(), Moment::now())?;
    let names = table.seating().map(|s| s.names.clone()).unwrap_or_default();
    let id = app.games.add(table).await.map_err(|why| missing(&app, "", why))?;
    let game = app.games.get(&id).await.map_err(|why| missing(&app, &id, why))?;
    let (state, due) = {
        let s = game.lock().await;
        (crate::api::state(&id, &s), s.engine_due())
    };
    crate::help::drive(&app, &id, due);
    app.lobby.tell(
        "paired",
        json!({ "challenge": null, "game": id, "names": names, "rules": state.view.rules, "rated": true }),
    );
    Ok((StatusCode::CREATED, Json(json!({ "game": id, "names": names }))))
}

/// Starts the game of an accepted challenge and tells the live channels (the maker's page opens
/// it from there).
async fn begin(
    app: &App,
    pairing: kalah_lobby::challenge::Pairing,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let store = app.games.store();
    let mut tokens = [String::new(), String::new()];
    for (i, name) in pairing.names.iter().enumerate() {
        let secret = store.secret_of(&name.key()).await.map_err(|e| store_failed(app, e))?;
        tokens[i] = secret.ok_or_else(|| {
            ApiError::said(StatusCode::GONE, Said::new("error-name-removed").with("name", name.to_string()))
        })?;
    }
    let table = pairing.challenge.table(&pairing, tokens, Moment::now())?;
    let id = app.games.add(table).await.map_err(|why| missing(app, "", why))?;
    let names = pairing.names.map(|n| n.to_string());
    let paired = json!({ "challenge": pairing.challenge.id, "game": id, "names": names, "rules": pairing.challenge.rules, "rated": pairing.challenge.rated });
    app.lobby.announce(app, "paired", paired).await;
    Ok((StatusCode::CREATED, Json(json!({ "game": id, "names": names }))))
}

/// `GET /api/lobby/live`: Server-Sent Events: `lobby` (the whole lobby, at once and after a
/// channel fell behind), `challenge` (made), `gone` (accepted, withdrawn or expired: its id),
/// `paired` (a game began: its id and names) and `ended` (a paired game ended: the ratings
/// after it, if rated).
pub(crate) async fn live(
    State(app): State<Arc<App>>,
    client: Option<axum::Extension<Client>>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<SseEvent, std::convert::Infallible>>>, ApiError> {
    let counted = match client {
        Some(axum::Extension(Client(client))) => Some(
            app.channels
                .open(client, app.most_channels)
                .map_err(|r| ApiError::new(r.status, one_line(r.message)).retry(r.retry_after))?,
        ),
        None => None,
    };
    // Subscribed before the lobby is read: no change falls between the two.
    let events = app.lobby.events.subscribe();
    let first = snapshot(&app).await?;
    let closing = app.closing.subscribe();
    let state = (Some(first), events, closing, app, counted);
    let stream = futures_util::stream::unfold(state, |(first, mut events, mut closing, app, counted)| async move {
        if let Some(first) = first {
            let event = SseEvent::default().event("lobby").data(first.to_string());
            return Some((Ok(event), (None, events, closing, app, counted)));
        }
        let event = tokio::select! {
            told = events.recv() => match told {
                Ok(told) => SseEvent::default().event(told.event).data(&*told.data),
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Behind: the whole lobby again.
                    let again = snapshot(&app).await.ok()?;
                    SseEvent::default().event("lobby").data(again.to_string())
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            },
            _ = closing.changed() => return None,
        };
        Some((Ok(event), (None, events, closing, app, counted)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::Request;
    use serde_json::Value;
    use tower::ServiceExt;

    use super::*;
    use crate::{router, Config};

    /// Sends a request with the secret `secret` (if any); returns the status and the JSON.
    async fn call(
        app: &axum::Router,
        method: &str,
        uri: &str,
        secret: Option<&str>,
        body: Value,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri).header("content-type", "application/json");
        if let Some(secret) = secret {
            request = request.header("authorization", format!("Bearer {secret}"));
        }
        let body = if body.is_null() { String::new() } else { body.to_string() };
        let response = app.clone().oneshot(request.body(Body::from(body)).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    async fn name(app: &axum::Router, body: Value) -> String {
        let (status, answer) = call(app, "POST", "/api/players", None, body).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        answer["secret"].as_str().unwrap().to_string()
    }

    #[tokio::test]
    async fn two_names_meet_play_a_rated_game_and_their_ratings_move() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        let alice = name(&router, json!({ "name": "alice" })).await;
        let bob = name(&router, json!({ "name": "Bob" })).await;
        let guest = name(&router, json!({ "guest": true })).await;
        let (status, taken) = call(&router, "POST", "/api/players", None, json!({ "name": "ALICE" })).await;
        assert_eq!(status, StatusCode::CONFLICT, "{taken}");
        assert!(taken["error"].as_str().unwrap().contains("is taken"));
        for bad in [json!({ "name": "x" }), json!({ "name": "guest-123456" }), json!({}), json!({ "nme": "al" })] {
            let (status, answer) = call(&router, "POST", "/api/players", None, bad.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
        }
        let (_, me) = call(&router, "GET", "/api/me", Some(&bob), Value::Null).await;
        assert_eq!(me["name"], "Bob");
        let (status, _) = call(&router, "GET", "/api/me", Some("not-a-secret"), Value::Null).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        let offer = json!({ "rated": true, "colour": "south", "clock": { "seconds": 300, "increment": 2 } });
        let (status, made) = call(&router, "POST", "/api/lobby/challenges", Some(&alice), offer).await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let challenge = made["challenge"]["id"].as_str().unwrap().to_string();
        assert_eq!(made["challenge"]["shown"], "1500?");
        let accept = format!("/api/lobby/challenges/{challenge}/accept");
        assert_eq!(call(&router, "POST", &accept, Some(&guest), Value::Null).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&router, "POST", &accept, Some(&alice), Value::Null).await.0, StatusCode::CONFLICT);
        let (status, paired) = call(&router, "POST", &accept, Some(&bob), Value::Null).await;
        assert_eq!(status, StatusCode::CREATED, "{paired}");
        assert_eq!(call(&router, "POST", &accept, Some(&guest), Value::Null).await.0, StatusCode::NOT_FOUND);
        let game = paired["game"].as_str().unwrap().to_string();
        let (_, lobby) = call(&router, "GET", "/api/lobby", None, Value::Null).await;
        assert_eq!(lobby["challenges"], json!([]));
        assert_eq!(lobby["playing"][0]["id"], game.as_str());

        // Each plays their seat with their own secret; a rated game has no takeback.
        let (_, state) = call(&router, "GET", &format!("/api/games/{game}"), None, Value::Null).await;
        assert_eq!((state["names"]["south"].clone(), state["names"]["north"].clone()), (json!("alice"), json!("Bob")));
        assert_eq!((state["rated"].clone(), state["friends"].clone()), (json!(true), json!(true)));
        let moved = |secret: &str, house: u64| {
            let body = json!({ "action": house });
            let uri = format!("/api/games/{game}/move");
            let (router, secret) = (router.clone(), secret.to_string());
            async move { call(&router, "POST", &uri, Some(&secret), body).await }
        };
        assert_eq!(moved(&bob, 1).await.0, StatusCode::FORBIDDEN, "South is alice's");
        assert_eq!(moved(&alice, 1).await.0, StatusCode::OK);
        let (status, refused) =
            call(&router, "POST", &format!("/api/games/{game}/takeback"), Some(&alice), Value::Null).await;
        assert_eq!(status, StatusCode::CONFLICT, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("rated"));
        let (status, _) = call(&router, "POST", &format!("/api/games/{game}/resign"), Some(&bob), Value::Null).await;
        assert_eq!(status, StatusCode::OK);

        let (_, page) = call(&router, "GET", "/api/players/ALICE", None, Value::Null).await;
        assert_eq!(page["name"], "alice");
        let rating = &page["ratings"][0];
        assert_eq!((rating["family"].clone(), rating["games"].clone()), (json!("kalah(6,4)"), json!(1)));
        assert!(rating["rating"]["rating"].as_f64().unwrap() > 1500.0, "{page}");
        assert_eq!(page["games"][0]["outcome"], "first");
        assert_eq!(page["history"].as_array().unwrap().len(), 1);
        let (_, bobs) = call(&router, "GET", "/api/players/bob", None, Value::Null).await;
        assert!(bobs["ratings"][0]["rating"]["rating"].as_f64().unwrap() < 1500.0, "{bobs}");
        let (_, lobby) = call(&router, "GET", "/api/lobby", None, Value::Null).await;
        assert_eq!(lobby["playing"], json!([]), "over");
        let (_, archive) = call(&router, "GET", "/api/archive?player=bob", None, Value::Null).await;
        assert_eq!(archive["games"][0]["id"], game.as_str());
        let (_, board) = call(&router, "GET", "/api/leaderboard", None, Value::Null).await;
        assert_eq!(board["leaders"], json!([]), "one game leaves a rating provisional");
        assert_eq!(call(&router, "GET", "/api/players/nobody", None, Value::Null).await.0, StatusCode::NOT_FOUND);

        // A password keeps Bob's secret: signing in with it gives the same secret back.
        let (status, set) = call(&router, "POST", "/api/me/password", Some(&bob), json!({ "password": "short" })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{set}");
        let (status, set) =
            call(&router, "POST", "/api/me/password", Some(&bob), json!({ "password": "bobs long password" })).await;
        assert_eq!(status, StatusCode::OK, "{set}");
        let (status, back) =
            call(&router, "POST", "/api/sign-in", None, json!({ "name": "BOB", "password": "bobs long password" }))
                .await;
        assert_eq!((status, back["secret"].as_str()), (StatusCode::OK, Some(bob.as_str())), "{back}");
        let (status, _) =
            call(&router, "POST", "/api/sign-in", None, json!({ "name": "bob", "password": "not bobs password" }))
                .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _) =
            call(&router, "POST", "/api/sign-in", None, json!({ "name": "alice", "password": "anything at all" }))
                .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "no password set");
        assert_eq!(
            call(&router, "POST", "/api/me/password", Some(&guest), json!({ "password": "guest password" })).await.0,
            StatusCode::FORBIDDEN
        );
        // A name opens at most three challenges; the host removes a name.
        for _ in 0..3 {
            assert_eq!(
                call(&router, "POST", "/api/lobby/challenges", Some(&guest), Value::Null).await.0,
                StatusCode::CREATED
            );
        }
        let (status, more) = call(&router, "POST", "/api/lobby/challenges", Some(&guest), Value::Null).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{more}");
        assert!(app.games.store().remove_player("alice", Moment::now()).await.unwrap());
        assert_eq!(call(&router, "GET", "/api/me", Some(&alice), Value::Null).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&router, "GET", "/api/players/alice", None, Value::Null).await.0, StatusCode::NOT_FOUND);
        let (status, _) = call(&router, "POST", "/api/players", None, json!({ "name": "Alice" })).await;
        assert_eq!(status, StatusCode::CONFLICT, "a removed name is not picked again");
        let (_, bobs) = call(&router, "GET", "/api/players/bob", None, Value::Null).await;
        assert_eq!(bobs["games"][0]["names"], json!(["removed", "Bob"]));
        let (start, _) = app.games.store().load(&game).await.unwrap().unwrap();
        assert_eq!(start.names, Some(["removed".to_string(), "Bob".to_string()]));
    }

    /// Reads the live channel's body until `count` events came; returns their names and data.
    async fn events(body: &mut axum::body::BodyDataStream, count: usize) -> Vec<(String, Value)> {
        use futures_util::StreamExt;
        let mut text = String::new();
        let mut read = Vec::new();
        while read.len() < count {
            let chunk = tokio::time::timeout(Duration::from_secs(5), body.next()).await.expect("an event in time");
            text.push_str(std::str::from_utf8(&chunk.expect("the channel is open").unwrap()).unwrap());
            while let Some(end) = text.find("\n\n") {
                let event: String = text.drain(..end + 2).collect();
                let name = event.lines().find_map(|l| l.strip_prefix("event: ")).unwrap_or_default().to_string();
                let data = event.lines().find_map(|l| l.strip_prefix("data: ")).unwrap_or("null");
                read.push((name, serde_json::from_str(data).unwrap()));
            }
        }
        read
    }

    #[tokio::test]
    async fn the_live_channel_tells_each_change_in_order() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        let (erin, frank) =
            (name(&router, json!({ "name": "erin" })).await, name(&router, json!({ "name": "frank" })).await);
        let request = Request::builder().uri("/api/lobby/live").body(Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        assert_eq!(response.headers()["cache-control"], "no-store");
        let mut body = response.into_body().into_data_stream();
        let first = events(&mut body, 1).await;
        assert_eq!(first, [("lobby".to_string(), json!({ "challenges": [], "playing": [] }))]);
        // Three changes made before the channel reads any: all three come, in order.
        let (_, made) = call(&router, "POST", "/api/lobby/challenges", Some(&erin), Value::Null).await;
        let id = made["challenge"]["id"].as_str().unwrap().to_string();
        let (_, other) = call(&router, "POST", "/api/lobby/challenges", Some(&erin), Value::Null).await;
        let accept = format!("/api/lobby/challenges/{id}/accept");
        let (status, paired) = call(&router, "POST", &accept, Some(&frank), Value::Null).await;
        assert_eq!(status, StatusCode::CREATED, "{paired}");
        let told = events(&mut body, 3).await;
        let names: Vec<&str> = told.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["challenge", "challenge", "paired"]);
        assert_eq!((told[0].1["id"].clone(), told[0].1["by"].clone()), (json!(id), json!("erin")));
        assert_eq!(told[1].1["id"], other["challenge"]["id"]);
        assert_eq!((told[2].1["challenge"].clone(), told[2].1["game"].clone()), (json!(id), paired["game"].clone()));
        let withdraw = format!("/api/lobby/challenges/{}", other["challenge"]["id"].as_str().unwrap());
        assert_eq!(call(&router, "DELETE", &withdraw, Some(&erin), Value::Null).await.0, StatusCode::OK);
        assert_eq!(
            events(&mut body, 1).await[0],
            ("gone".to_string(), json!({ "id": other["challenge"]["id"], "why": "withdrawn" }))
        );
    }

    #[tokio::test]
    async fn a_lone_player_gets_a_rating_against_the_engine_which_the_server_moves() {
        let config = Config { engine_time: Duration::from_millis(20), ..Config::default() };
        let app = Arc::new(App::new(&config).unwrap());
        let router = router(Arc::clone(&app));
        let erin = name(&router, json!({ "name": "erin" })).await;
        let guest = name(&router, json!({ "guest": true })).await;
        let offer =
            json!({ "level": 1, "rules": "kalah(3,2) standard", "colour": "north", "clock": { "seconds": 600 } });
        let (status, _) = call(&router, "POST", "/api/lobby/engine", Some(&guest), offer.clone()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "a guest plays unrated games only");
        let (status, made) = call(&router, "POST", "/api/lobby/engine", Some(&erin), offer).await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        assert_eq!(made["names"], json!(["engine-1", "erin"]));
        let game = made["game"].as_str().unwrap().to_string();
        let uri = format!("/api/games/{game}");
        let mut moves = 0;
        loop {
            // The engine's moves are the server's: erin only waits for them.
            let (_, state) = call(&router, "GET", &uri, Some(&erin), Value::Null).await;
            if !state["result"].is_null() {
                break;
            }
            if state["engine_to_move"] == true {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
            if moves == 0 {
                let undo = call(&router, "POST", &format!("{uri}/undo"), Some(&erin), Value::Null).await;
                assert_eq!(undo.0, StatusCode::FORBIDDEN, "{}", undo.1);
                let hint = call(&router, "GET", &format!("{uri}/hint"), Some(&erin), Value::Null).await;
                assert_eq!(hint.0, StatusCode::FORBIDDEN, "{}", hint.1);
            }
            let action = state["legal"][0].as_str().unwrap().to_string();
            let body = json!({ "action": action, "version": state["version"] });
            let (status, answer) = call(&router, "POST", &format!("{uri}/move"), Some(&erin), body).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            moves += 1;
            assert!(moves < 40, "a Kalah(3,2) game is shorter");
        }
        let (_, page) = call(&router, "GET", "/api/players/erin", None, Value::Null).await;
        assert_eq!(page["ratings"][2]["games"], 1, "{page}");
        let (_, engine) = call(&router, "GET", "/api/players/engine-1", None, Value::Null).await;
        assert_eq!((engine["name"].clone(), engine["ratings"][2]["games"].clone()), (json!("engine-1"), json!(1)));
        let (status, _) = call(&router, "POST", "/api/players", None, json!({ "name": "engine-1" })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "the engine's names are kept");
    }

    #[tokio::test]
    async fn a_timed_game_whose_first_move_does_not_come_is_aborted_and_not_rated() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        let (fay, gus) = (name(&router, json!({ "name": "fay" })).await, name(&router, json!({ "name": "gus" })).await);
        let offer = json!({ "rated": true, "clock": { "seconds": 60 } });
        let (_, made) = call(&router, "POST", "/api/lobby/challenges", Some(&fay), offer).await;
        let id = made["challenge"]["id"].as_str().unwrap().to_string();
        let (_, paired) =
            call(&router, "POST", &format!("/api/lobby/challenges/{id}/accept"), Some(&gus), Value::Null).await;
        let game = paired["game"].as_str().unwrap().to_string();
        // A minute and more later, no first move came: the clock check aborts the game.
        app.games.check_clocks(Moment(Moment::now().0 + 61_000)).await;
        let (_, state) = call(&router, "GET", &format!("/api/games/{game}"), None, Value::Null).await;
        assert!(!state["aborted"].is_null(), "{state}");
        let (_, page) = call(&router, "GET", "/api/players/fay", None, Value::Null).await;
        assert_eq!(page["games"][0]["outcome"], "aborted");
        assert_eq!(page["ratings"][0]["games"], 0, "an aborted game is not rated");
        assert_eq!(page["history"], json!([]));
    }

    #[tokio::test]
    async fn a_rated_game_is_never_deleted_once_begun_and_is_resigned_against_the_engine_too() {
        let config = Config { engine_time: Duration::from_millis(20), ..Config::default() };
        let app = Arc::new(App::new(&config).unwrap());
        let router = router(Arc::clone(&app));
        let (ivy, jon) = (name(&router, json!({ "name": "ivy" })).await, name(&router, json!({ "name": "jon" })).await);
        // A rated game always has a clock: an untimed one could be stalled for ever.
        for (path, offer) in [
            ("/api/lobby/challenges", json!({ "rated": true })),
            ("/api/lobby/quick", json!({ "rated": true })),
            ("/api/lobby/engine", json!({ "level": 1 })),
        ] {
            let (status, refused) = call(&router, "POST", path, Some(&ivy), offer).await;
            assert_eq!(
                (status, refused["code"].clone()),
                (StatusCode::BAD_REQUEST, json!("error-rated-untimed")),
                "{path}"
            );
        }
        let casual = call(&router, "POST", "/api/lobby/challenges", Some(&ivy), json!({ "rated": false })).await;
        assert_eq!(casual.0, StatusCode::CREATED, "a casual game may be untimed");

        // Against the engine: ivy plays South and has not moved yet, so the game can be aborted.
        let offer =
            json!({ "level": 1, "rules": "kalah(4,3) standard", "colour": "south", "clock": { "seconds": 600 } });
        let (_, made) = call(&router, "POST", "/api/lobby/engine", Some(&ivy), offer.clone()).await;
        let aborted = made["game"].as_str().unwrap().to_string();
        let (status, _) = call(&router, "DELETE", &format!("/api/games/{aborted}"), Some(&ivy), Value::Null).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "aborted before both moved: no result");

        // Once both have moved, the player can neither delete it nor escape it: they resign.
        let (_, made) = call(&router, "POST", "/api/lobby/engine", Some(&ivy), offer).await;
        let game = made["game"].as_str().unwrap().to_string();
        let uri = format!("/api/games/{game}");
        loop {
            let (_, state) = call(&router, "GET", &uri, Some(&ivy), Value::Null).await;
            if state["moves"].as_array().unwrap().iter().any(|m| m["side"] == "North")
                && state["engine_to_move"] == false
            {
                break;
            }
            if state["engine_to_move"] == true {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
            let action = state["legal"][0].as_str().unwrap().to_string();
            let body = json!({ "action": action, "version": state["version"] });
            assert_eq!(call(&router, "POST", &format!("{uri}/move"), Some(&ivy), body).await.0, StatusCode::OK);
        }
        let (status, refused) = call(&router, "DELETE", &uri, Some(&ivy), Value::Null).await;
        assert_eq!((status, refused["code"].clone()), (StatusCode::CONFLICT, json!("error-rated-kept")), "{refused}");
        let (_, me) = call(&router, "GET", "/api/me", Some(&ivy), Value::Null).await;
        assert_eq!(me["playing"][0]["id"], game.as_str(), "still in progress, listed: {me}");
        assert_eq!(call(&router, "POST", &format!("{uri}/resign"), None, Value::Null).await.0, StatusCode::FORBIDDEN);
        let (status, state) = call(&router, "POST", &format!("{uri}/resign"), Some(&ivy), Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(
            (state["result"]["resigned"].clone(), state["result"]["winner"].clone()),
            (json!("South"), json!("North"))
        );
        let (status, _) = call(&router, "DELETE", &uri, Some(&ivy), Value::Null).await;
        assert_eq!(status, StatusCode::CONFLICT, "over: kept as played");
        let (_, page) = call(&router, "GET", "/api/players/ivy", None, Value::Null).await;
        let rating = page["ratings"].as_array().unwrap().iter().find(|r| r["games"] == 1).cloned().unwrap_or_default();
        assert!(rating["rating"]["rating"].as_f64().unwrap() < 1500.0, "the resignation is rated: {page}");
        assert_eq!(
            (page["games"][0]["id"].clone(), page["games"][0]["outcome"].clone()),
            (json!(game), json!("second"))
        );
        assert_eq!(page["games"].as_array().unwrap().len(), 1, "the aborted game left no result: {page}");
        // Its record names the player, says it was rated, its clock and the day it was played.
        let request = Request::builder().uri(format!("{uri}/record")).body(Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        let record = String::from_utf8(axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec());
        let record = record.unwrap();
        let began = app.games.get(&game).await.unwrap().lock().await.began();
        let day = kalah_rules::record::date_text(began.0 / 1000);
        for tag in [
            "[Event \"Rated game\"]".to_string(),
            format!("[Date \"{day}\"]"),
            "[South \"ivy\"]".to_string(),
            "[North \"engine level 1\"]".to_string(),
            "[TimeControl \"600+0\"]".to_string(),
        ] {
            assert!(record.contains(&tag), "{tag} in {record}");
        }

        // Between two people: neither deletes a rated game once both have moved.
        let timed =
            json!({ "rated": true, "colour": "south", "rules": "kalah(4,3) standard", "clock": { "seconds": 600 } });
        let (_, made) = call(&router, "POST", "/api/lobby/challenges", Some(&jon), timed).await;
        let accept = format!("/api/lobby/challenges/{}/accept", made["challenge"]["id"].as_str().unwrap());
        let (_, paired) = call(&router, "POST", &accept, Some(&ivy), Value::Null).await;
        let uri = format!("/api/games/{}", paired["game"].as_str().unwrap());
        for (secret, house) in [(&jon, "1"), (&ivy, "1")] {
            let (status, state) =
                call(&router, "POST", &format!("{uri}/move"), Some(secret), json!({ "action": house })).await;
            assert_eq!(status, StatusCode::OK, "{state}");
        }
        for secret in [&jon, &ivy] {
            assert_eq!(call(&router, "DELETE", &uri, Some(secret), Value::Null).await.0, StatusCode::CONFLICT);
        }
    }

    /// Signs in to `name` with `password`; returns the status, the `Retry-After` and the JSON.
    async fn sign_in(app: &axum::Router, name: &str, password: &str) -> (StatusCode, Option<String>, Value) {
        let body = json!({ "name": name, "password": password }).to_string();
        let request = Request::builder()
            .method("POST")
            .uri("/api/sign-in")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let retry = response.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, retry, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn a_name_waits_after_five_failed_sign_ins_whoever_it_is_and_every_failure_is_alike() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        // No name at all: the answer is a wrong password's, after an Argon2id on the pool.
        assert_eq!(app.passwords.buffers(), 0);
        let (status, _, nobody) = sign_in(&router, "nobody", "a password of sorts").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{nobody}");
        assert_eq!(app.passwords.buffers(), 1, "no name costs an Argon2id too");
        let kim = name(&router, json!({ "name": "kim" })).await;
        let set =
            call(&router, "POST", "/api/me/password", Some(&kim), json!({ "password": "kims long password" })).await;
        assert_eq!(set.0, StatusCode::OK, "{}", set.1);
        let _lou = name(&router, json!({ "name": "lou" })).await;
        for (who, free) in [("KIM", 5), ("lou", 5), ("nobody", 4)] {
            for _ in 0..free {
                let (status, retry, wrong) = sign_in(&router, who, "not the password").await;
                assert_eq!((status, retry, &wrong), (StatusCode::UNAUTHORIZED, None, &nobody), "{who}");
            }
            // The sixth attempt waits, even with the right password.
            let (status, retry, waits) = sign_in(&router, who, "kims long password").await;
            assert_eq!((status, retry.as_deref()), (StatusCode::TOO_MANY_REQUESTS, Some("2")), "{who}: {waits}");
            assert_eq!(
                (waits["code"].as_str(), waits["args"]["seconds"].as_f64()),
                (Some("error-sign-in-wait"), Some(2.0))
            );
        }
        let malformed = sign_in(&router, "no such name!", "not the password").await;
        assert_eq!((malformed.0, &malformed.2), (StatusCode::UNAUTHORIZED, &nobody), "the same answer");

        // A name of its own still signs in; a success starts its count again.
        let mia = name(&router, json!({ "name": "mia" })).await;
        let set =
            call(&router, "POST", "/api/me/password", Some(&mia), json!({ "password": "mias long password" })).await;
        assert_eq!(set.0, StatusCode::OK);
        for _ in 0..4 {
            assert_eq!(sign_in(&router, "mia", "wrong").await.0, StatusCode::UNAUTHORIZED);
        }
        let (status, _, back) = sign_in(&router, "mia", "mias long password").await;
        assert_eq!((status, back["secret"].as_str()), (StatusCode::OK, Some(mia.as_str())));
        for _ in 0..5 {
            assert_eq!(sign_in(&router, "mia", "wrong").await.0, StatusCode::UNAUTHORIZED);
        }
        assert_eq!(sign_in(&router, "mia", "wrong").await.0, StatusCode::TOO_MANY_REQUESTS);
    }

    #[tokio::test]
    async fn password_work_beyond_the_pool_and_its_queue_is_refused_at_once_and_counts_for_nothing() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        let nia = name(&router, json!({ "name": "nia" })).await;
        // Every place taken (running or waiting) and held: nothing runs, nothing more waits.
        let held: Vec<_> = std::iter::from_fn(|| app.passwords.admit().ok()).collect();
        assert_eq!(held.len(), app.passwords.at_once() + app.passwords.waiting());
        for _ in 0..6 {
            let (status, retry, busy) = sign_in(&router, "nia", "not the password").await;
            assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("1")), "{busy}");
            assert_eq!(busy["code"], "error-passwords-busy");
        }
        let (status, busy) =
            call(&router, "POST", "/api/me/password", Some(&nia), json!({ "password": "nias long password" })).await;
        assert_eq!((status, busy["code"].clone()), (StatusCode::SERVICE_UNAVAILABLE, json!("error-passwords-busy")));
        drop(held);
        let set =
            call(&router, "POST", "/api/me/password", Some(&nia), json!({ "password": "nias long password" })).await;
        assert_eq!(set.0, StatusCode::OK, "{}", set.1);
        // The refused attempts were not failures: five wrong ones are still free.
        for _ in 0..5 {
            assert_eq!(sign_in(&router, "nia", "not the password").await.0, StatusCode::UNAUTHORIZED);
        }
        assert_eq!(sign_in(&router, "nia", "nias long password").await.0, StatusCode::TOO_MANY_REQUESTS);
    }

    #[tokio::test]
    async fn quick_pairing_meets_the_nearest_rating_or_waits() {
        let app = Arc::new(App::new(&Config::default()).unwrap());
        let router = router(Arc::clone(&app));
        let (carol, dave) =
            (name(&router, json!({ "name": "carol" })).await, name(&router, json!({ "name": "dave" })).await);
        let quick =
            json!({ "rated": true, "rules": "kalah(6,6) standard", "clock": { "seconds": 300, "increment": 3 } });
        let (status, waiting) = call(&router, "POST", "/api/lobby/quick", Some(&carol), quick.clone()).await;
        assert_eq!(status, StatusCode::CREATED);
        assert!(waiting["challenge"]["id"].is_string(), "{waiting}");
        let (_, paired) = call(&router, "POST", "/api/lobby/quick", Some(&dave), quick).await;
        let game = paired["game"].as_str().unwrap_or_else(|| panic!("{paired}"));
        let (_, state) = call(&router, "GET", &format!("/api/games/{game}"), None, Value::Null).await;
        assert_eq!((state["rules"].clone(), state["rated"].clone()), (json!("kalah(6,6) standard"), json!(true)));
    }
}
