//! The page's files, built into the binary, and the health routes.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::app::App;
use crate::error::ApiError;

/// The page, built into the binary so that `kalah serve` works from any folder with no network:
/// each file's path, type and text. The static site (scripts/site.sh) holds the same files and
/// the npm package kalah (the engine compiled to WebAssembly, its worker), which this page does
/// without: local.js fails to import it, and the page asks the API instead.
pub(crate) const PAGE: [(&str, &str, &str); 14] = [
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/index.html", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("/backend.js", "text/javascript; charset=utf-8", include_str!("../web/backend.js")),
    ("/local.js", "text/javascript; charset=utf-8", include_str!("../web/local.js")),
    ("/friends.js", "text/javascript; charset=utf-8", include_str!("../web/friends.js")),
    ("/lobby.js", "text/javascript; charset=utf-8", include_str!("../web/lobby.js")),
    ("/searches.js", "text/javascript; charset=utf-8", include_str!("../web/searches.js")),
    ("/words.js", "text/javascript; charset=utf-8", include_str!("../web/words.js")),
    ("/manifest.webmanifest", "application/manifest+json", include_str!("../web/manifest.webmanifest")),
    ("/icon.svg", "image/svg+xml", include_str!("../web/icon.svg")),
    // The board, shared with kalah kgp serve's page.
    ("/board.js", "text/javascript; charset=utf-8", kalah_board::SCRIPT),
    ("/board.css", "text/css; charset=utf-8", kalah_board::STYLE),
];

/// `GET /`: the page.
pub(crate) async fn page_index(State(app): State<Arc<App>>) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], app.index.clone())
        .into_response()
}

/// `GET /healthz`: the server runs and answers (a container's or a load balancer's liveness
/// check); it reads nothing.
pub(crate) async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: the server can serve games: its database answers a query (503 if not).
pub(crate) async fn readyz(State(app): State<Arc<App>>) -> Result<Json<serde_json::Value>, ApiError> {
    match app.games.archive(1).await {
        Ok(_) => Ok(Json(json!({ "status": "ready" }))),
        Err(e) => {
            Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("the game database does not answer: {e}"))
                .retry(Some(5)))
        }
    }
}

pub(crate) fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}
