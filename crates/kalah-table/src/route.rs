//! The routes of the JSON API as data ([`ROUTES`]): `kalah serve` builds its router from them,
//! and the static site's page finds the request it answers with [`find`], so neither keeps its
//! own list.

use serde::{Deserialize, Serialize};

/// What a request asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// `GET /api/variants`: what the new-game form offers.
    Variants,
    /// `POST /api/games`: a new game.
    Create,
    /// `GET /api/games/{id}`: the state.
    Show,
    /// `DELETE /api/games/{id}`.
    Delete,
    /// `POST /api/games/{id}/move`: a person's action.
    Move,
    /// `POST /api/games/{id}/engine`: the engine's action.
    Engine,
    /// `POST /api/games/{id}/undo`.
    Undo,
    /// `POST /api/games/{id}/redo`.
    Redo,
    /// `POST /api/games/{id}/goto`.
    Goto,
    /// `POST /api/games/{id}/shown`: the page has shown a version.
    Shown,
    /// `GET /api/games/{id}/hint`.
    Hint,
    /// `GET /api/games/{id}/analysis`.
    Analysis,
    /// `GET /api/games/{id}/solve`: an exact solve within a budget (the static site's page).
    Solve,
    /// `GET /api/games/{id}/explore`: every legal move of the position shown with its exact
    /// value (the perfect-play explorer), from an opening book or a solve within a budget.
    Explore,
    /// `GET /api/games/{id}/searches`: the assignment's searches drawn on the position shown.
    Searches,
    /// `GET /api/games/{id}/record`: the game record.
    Record,
    /// `POST /api/games/{id}/resign`.
    Resign,
    /// `POST /api/games/{id}/takeback`.
    Takeback,
    /// `POST /api/games/{id}/rematch`.
    Rematch,
    /// `GET /api/games/{id}/live`: Server-Sent Events.
    Live,
    /// `GET /api/archive`: the finished games (`?player=NAME`: a player's).
    Archive,
    /// `POST /api/players`: a new name, or a guest's.
    Register,
    /// `GET /api/me`: the name a secret proves.
    Me,
    /// `POST /api/me/password`: a password set or forgotten.
    Password,
    /// `POST /api/sign-in`: a name and its password give back the name's secret.
    SignIn,
    /// `GET /api/players/{id}`: a player's page (`{id}` is the name).
    Player,
    /// `GET /api/leaderboard`: the best ratings of a board family.
    Leaderboard,
    /// `GET /api/lobby`: the open challenges and the games being played.
    Lobby,
    /// `GET /api/lobby/live`: the lobby's changes, as Server-Sent Events.
    LobbyLive,
    /// `POST /api/lobby/challenges`: a challenge offered.
    Offer,
    /// `POST /api/lobby/quick`: quick pairing by rating.
    Quick,
    /// `POST /api/lobby/engine`: a rated game against the engine at a level.
    AgainstEngine,
    /// `DELETE /api/lobby/challenges/{id}`: a challenge withdrawn.
    Withdraw,
    /// `POST /api/lobby/challenges/{id}/accept`: a challenge accepted: the game begins.
    Accept,
}

/// Which hosts answer a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    /// `kalah serve` and the static site's page.
    Both,
    /// `kalah serve` alone (games between friends, the archive).
    Server,
    /// The static site's page alone.
    Page,
}

/// One route: its method, its path (`{id}` for a game's id), what it asks and who answers it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The HTTP method.
    pub method: &'static str,
    /// The path, `{id}` standing for a game's id.
    pub path: &'static str,
    /// What it asks.
    pub route: Route,
    /// Who answers it.
    pub hosts: Hosts,
}

const fn spec(method: &'static str, path: &'static str, route: Route, hosts: Hosts) -> Spec {
    Spec { method, path, route, hosts }
}

/// Every route of the API.
pub const ROUTES: [Spec; 34] = [
    spec("GET", "/api/variants", Route::Variants, Hosts::Both),
    spec("POST", "/api/games", Route::Create, Hosts::Both),
    spec("GET", "/api/games/{id}", Route::Show, Hosts::Both),
    spec("DELETE", "/api/games/{id}", Route::Delete, Hosts::Both),
    spec("POST", "/api/games/{id}/move", Route::Move, Hosts::Both),
    spec("POST", "/api/games/{id}/engine", Route::Engine, Hosts::Both),
    spec("POST", "/api/games/{id}/undo", Route::Undo, Hosts::Both),
    spec("POST", "/api/games/{id}/redo", Route::Redo, Hosts::Both),
    spec("POST", "/api/games/{id}/goto", Route::Goto, Hosts::Both),
    spec("POST", "/api/games/{id}/shown", Route::Shown, Hosts::Both),
    spec("GET", "/api/games/{id}/hint", Route::Hint, Hosts::Both),
    spec("GET", "/api/games/{id}/analysis", Route::Analysis, Hosts::Both),
    spec("GET", "/api/games/{id}/solve", Route::Solve, Hosts::Page),
    spec("GET", "/api/games/{id}/explore", Route::Explore, Hosts::Both),
    spec("GET", "/api/games/{id}/searches", Route::Searches, Hosts::Both),
    spec("GET", "/api/games/{id}/record", Route::Record, Hosts::Both),
    spec("POST", "/api/games/{id}/resign", Route::Resign, Hosts::Server),
    spec("POST", "/api/games/{id}/takeback", Route::Takeback, Hosts::Server),
    spec("POST", "/api/games/{id}/rematch", Route::Rematch, Hosts::Server),
    spec("GET", "/api/games/{id}/live", Route::Live, Hosts::Server),
    spec("GET", "/api/archive", Route::Archive, Hosts::Server),
    spec("POST", "/api/players", Route::Register, Hosts::Server),
    spec("GET", "/api/me", Route::Me, Hosts::Server),
    spec("POST", "/api/me/password", Route::Password, Hosts::Server),
    spec("POST", "/api/sign-in", Route::SignIn, Hosts::Server),
    spec("GET", "/api/players/{id}", Route::Player, Hosts::Server),
    spec("GET", "/api/leaderboard", Route::Leaderboard, Hosts::Server),
    spec("GET", "/api/lobby", Route::Lobby, Hosts::Server),
    spec("GET", "/api/lobby/live", Route::LobbyLive, Hosts::Server),
    spec("POST", "/api/lobby/challenges", Route::Offer, Hosts::Server),
    spec("POST", "/api/lobby/quick", Route::Quick, Hosts::Server),
    spec("POST", "/api/lobby/engine", Route::AgainstEngine, Hosts::Server),
    spec("DELETE", "/api/lobby/challenges/{id}", Route::Withdraw, Hosts::Server),
    spec("POST", "/api/lobby/challenges/{id}/accept", Route::Accept, Hosts::Server),
];

/// A request's route and the game's id it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// What the request asks.
    pub route: Route,
    /// The game's id, for the routes of a game.
    pub id: Option<&'a str>,
}

/// Why no route answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missed {
    /// No route has the path.
    NotFound,
    /// Routes have the path, with other methods: these.
    NotAllowed(String),
}

/// Matches `path` against a route's pattern; returns the id `{id}` stands for, if any.
fn matches<'a>(pattern: &str, path: &'a str) -> Option<Option<&'a str>> {
    let mut id = None;
    let (mut want, mut have) = (pattern.split('/'), path.split('/'));
    loop {
        match (want.next(), have.next()) {
            (None, None) => return Some(id),
            (Some("{id}"), Some(part)) if !part.is_empty() => id = Some(part),
            (Some(a), Some(b)) if a == b => {}
            _ => return None,
        }
    }
}

/// Finds the route of `method` and `path` among those `host` answers.
pub fn find<'a>(method: &str, path: &'a str, host: Hosts) -> Result<Found<'a>, Missed> {
    let answered = |spec: &&Spec| spec.hosts == Hosts::Both || spec.hosts == host;
    let mut methods = Vec::new();
    for spec in ROUTES.iter().filter(answered) {
        if let Some(id) = matches(spec.path, path) {
            if spec.method == method {
                return Ok(Found { route: spec.route, id });
            }
            methods.push(spec.method);
        }
    }
    if methods.is_empty() {
        Err(Missed::NotFound)
    } else {
        Err(Missed::NotAllowed(methods.join(", ")))
    }
}

/// Returns the methods the routes at `path` take, for a 405's message and `Allow` header.
pub fn allowed(path: &str, host: Hosts) -> String {
    match find("", path, host) {
        Err(Missed::NotAllowed(methods)) => methods,
        _ => "GET".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_find_their_routes_and_ids() {
        let found = find("POST", "/api/games/abc/move", Hosts::Page).unwrap();
        assert_eq!(found, Found { route: Route::Move, id: Some("abc") });
        assert_eq!(find("GET", "/api/variants", Hosts::Server).unwrap().route, Route::Variants);
        assert_eq!(find("GET", "/api/games/abc/live", Hosts::Page), Err(Missed::NotFound));
        assert_eq!(find("GET", "/api/games/abc/solve", Hosts::Server), Err(Missed::NotFound));
        assert_eq!(find("PUT", "/api/games/abc", Hosts::Server), Err(Missed::NotAllowed("GET, DELETE".into())));
        assert_eq!(find("GET", "/api/games//move", Hosts::Server), Err(Missed::NotFound));
        assert_eq!(allowed("/api/games", Hosts::Server), "POST");
    }
}
