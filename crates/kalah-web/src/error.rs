//! The API's one error ([`ApiError`]): every refusal's status and message, mapped once to its
//! HTTP answer.

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kalah_host::guard;
use kalah_table::refused::one_line;
use kalah_table::Refused;
use serde_json::json;

use crate::app::App;
use crate::engines::Failed;
use crate::games::Missing;
use crate::words::Said;

/// An answer other than success: a status and a one-line message, sent as `{"error": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    /// Seconds after which to ask again (a busy server's 503).
    pub(crate) retry_after: Option<u64>,
    /// What the error says to a person, by the catalogs' name (sent as `code` and `args`, and
    /// as the message in the language the request accepts).
    pub(crate) said: Option<Said>,
}

impl ApiError {
    /// An error with `status` and a one-line `message`.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: one_line(message), retry_after: None, said: None }
    }

    /// An error with `status` that says catalog message `said` (its English text the message).
    pub(crate) fn said(status: StatusCode, said: Said) -> ApiError {
        let message = crate::words::english(&said);
        ApiError { status, message: one_line(message), retry_after: None, said: Some(said) }
    }

    /// The error, saying catalog message `said` to a person (its message stays as it is).
    pub(crate) fn saying(mut self, said: Said) -> ApiError {
        self.said = Some(said);
        self
    }

    /// A 400 with `message`.
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// The error, to be asked again after `seconds`.
    pub(crate) fn retry(mut self, seconds: Option<u64>) -> ApiError {
        self.retry_after = seconds;
        self
    }

    /// Returns the HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Returns the one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match &self.said {
            None => json!({ "error": self.message }),
            Some(said) if said.args.is_empty() => json!({ "error": self.message, "code": said.id }),
            Some(said) => json!({ "error": self.message, "code": said.id, "args": said.args_json() }),
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        // finish() says it again in the language the request accepts.
        response.extensions_mut().insert(self);
        response
    }
}

impl From<guard::Refusal> for ApiError {
    /// A refusal of the guard: a write from another site, or a client over its share.
    fn from(r: guard::Refusal) -> ApiError {
        let said = match r.status {
            StatusCode::TOO_MANY_REQUESTS => Some(Said::new("error-too-many")),
            StatusCode::FORBIDDEN => Some(Said::new("error-other-site")),
            _ => None,
        };
        let error = ApiError::new(r.status, r.message).retry(r.retry_after);
        match said {
            Some(said) => error.saying(said),
            None => error,
        }
    }
}

pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, message)
}

pub(crate) fn missing(app: &App, id: &str, why: Missing) -> ApiError {
    match why {
        Missing::Unknown => ApiError::new(
            StatusCode::NOT_FOUND,
            format!("there is no game {:?}: it was deleted, or never was", short(id)),
        )
        .saying(Said::new("error-no-game").with("id", short(id))),
        Missing::Store(e) => {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("{e}: nothing was changed; try again"))
                .retry(Some(5))
                .saying(Said::new("error-store"))
        }
        Missing::Changed(version) => conflict(format!(
            "the game changed through another server meanwhile and is at version {version} now: \
             nothing of this request was done; look again"
        ))
        .saying(Said::new("error-changed-elsewhere").with("version", version)),
        Missing::Full => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server holds its most games ({}): close one or try again later", app.games.max()),
        )
        .retry(Some(60))
        .saying(Said::new("error-full").with("most", app.games.max())),
    }
}

/// Returns an id to repeat in a message: an unknown id of any length is cut to 40 characters.
pub(crate) fn short(id: &str) -> String {
    match id.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &id[..end]),
        None => id.to_string(),
    }
}

pub(crate) fn engine_failed() -> ApiError {
    ApiError::said(StatusCode::INTERNAL_SERVER_ERROR, Said::new("error-engine-failed"))
}

/// The answer when a search could not run: 503 with `Retry-After` when the server is busy.
pub(crate) fn not_searched(failed: Failed) -> ApiError {
    match failed {
        Failed::Busy => ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-engines-busy")).retry(Some(1)),
        Failed::Crashed => engine_failed(),
    }
}

pub(crate) async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("nothing at {method} {}: the page is at / and the API under /api/games (see docs/web.md)", uri.path()),
    )
    .saying(Said::new("error-nothing-here"))
}

impl From<Refused> for ApiError {
    /// Every refusal of a table is answered with the status kalah-table gives it.
    fn from(refused: Refused) -> ApiError {
        ApiError::new(StatusCode::from_u16(refused.status()).unwrap_or(StatusCode::BAD_REQUEST), refused.to_string())
            .saying(refused.said())
    }
}

/// A 400 with `message`.
pub(crate) fn bad_request(message: String) -> ApiError {
    ApiError::bad(message)
}
