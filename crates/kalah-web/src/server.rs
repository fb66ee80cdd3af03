//! The HTTP side: the server's run ([`serve`]: its connections, the sweep of idle games, the
//! notices of other servers, the presence told) and its router ([`router`]), built from
//! kalah-table's list of routes ([`ROUTES`]) with each route's handler: the games' in `play`,
//! the engine's in `help`, the archive's, the page's and the lobby's, behind the middleware.
//! What a request does to a game is the game's table's ([`kalah_table::Table`]: who may act,
//! the commands, the refusals); every refusal becomes its status in one place (`error`).

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::routing::{get, on, MethodFilter, MethodRouter};
use axum::Router;
use kalah_host::connections::{self, Listening};
use kalah_table::route::{Hosts, Route, ROUTES};
use kalah_table::Moment;
use tokio::sync::mpsc;

use crate::app::{App, MAX_BODY};
use crate::archive::{archive, record};
use crate::error::{missing, not_found};
use crate::help::{analysis, engine_move, explore, hint, searches};
use crate::lobby;
use crate::middleware::{access, finish, guard, whole};
use crate::page::{asset, healthz, page_index, readyz, PAGE};
use crate::play::{
    act, close, create, goto_route, live, redo_route, rematch, resign, show, shown, takeback, undo_route, variants,
};
use crate::postgres::Notice;
use crate::presence;
use crate::Report;

/// Serves the page and the API on `listener` (over TLS if the configuration has a certificate)
/// until `shutdown` completes, closing idle games as they expire; the connections are capped
/// and timed ([`kalah_host::ConnectionLimits`]).
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
