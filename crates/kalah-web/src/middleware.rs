//! What every request passes through: the access log, the whole-body read, the guard (origin,
//! JSON bodies, each client's share) and the finish (the API's errors in the request's language,
//! the security headers).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use kalah_host::access::Access;
use kalah_host::guard::{self, Client};
use kalah_table::refused::one_line;
use kalah_table::route::{self, Hosts};

use crate::app::{App, MAX_BODY};
use crate::error::ApiError;
use crate::words::Said;
use crate::Report;

/// Names the client of every request ([`Client`]: the peer, or the real client behind a trusted
/// proxy) for the layers and handlers below, and reports the request to the access log once
/// it is answered.
pub(crate) async fn access(
    State(app): State<Arc<App>>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let client = peer.map(|peer| app.proxies.client(peer, request.headers()));
    if let Some(client) = client {
        request.extensions_mut().insert(Client(client));
    }
    let logged = match (&app.reports, app.access_log) {
        (Some(reports), true) => Some((reports.clone(), entry(&request, client))),
        _ => None,
    };
    let response = next.run(request).await;
    if let Some((reports, mut entry)) = logged {
        entry.status = response.status().as_u16();
        entry.bytes = response
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .or_else(|| axum::body::HttpBody::size_hint(response.body()).exact());
        let _ = reports.send(Report::Request(entry));
    }
    response
}

/// Returns the access log's entry of `request`, its status still to be filled in.
pub(crate) fn entry(request: &axum::extract::Request, client: Option<std::net::IpAddr>) -> Access {
    let header = |name: header::HeaderName| {
        request.headers().get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    Access {
        client,
        at: std::time::SystemTime::now(),
        method: request.method().to_string(),
        target: request.uri().path_and_query().map_or_else(|| request.uri().path().to_string(), |p| p.to_string()),
        version: match request.version() {
            axum::http::Version::HTTP_2 => "HTTP/2.0",
            axum::http::Version::HTTP_10 => "HTTP/1.0",
            _ => "HTTP/1.1",
        },
        status: 0,
        bytes: None,
        referer: header(header::REFERER),
        agent: header(header::USER_AGENT),
    }
}

/// Runs a request that may change a game (any but `GET` and `HEAD`) to its end in a task of its
/// own, even if its client goes meanwhile: a change is stored while its request holds the game,
/// and a request dropped between storing the change and marking it stored would leave the game
/// in memory behind the database and those who follow it untold.
pub(crate) async fn whole(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    match tokio::spawn(next.run(request)).await {
        Ok(response) => response,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => {
            ApiError::said(StatusCode::SERVICE_UNAVAILABLE, Said::new("error-stopping")).retry(Some(1)).into_response()
        }
    }
}

/// Refuses what [`kalah_host::guard`] refuses (writes from another site, a client over its share)
/// and reads the body within its time, before any handler runs.
pub(crate) async fn guard(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let refused = |r: guard::Refusal| ApiError::from(r).into_response();
    if let Err(r) = guard::check_origin(request.method(), request.headers(), app.public_url.as_ref()) {
        return refused(r);
    }
    // A new game, name or challenge comes from the same budget of each address.
    let new_game = request.method() == Method::POST
        && matches!(
            request.uri().path(),
            "/api/games"
                | "/api/players"
                | "/api/sign-in"
                | "/api/lobby/challenges"
                | "/api/lobby/quick"
                | "/api/lobby/engine"
        );
    let client = request.extensions().get::<Client>().copied();
    if let Err(r) = guard::check_share(&app.limiter, client, new_game, Instant::now()) {
        return refused(r);
    }
    let (parts, body) = request.into_parts();
    match guard::read_body(body, MAX_BODY, app.connections.body).await {
        Ok(bytes) => match guard::check_json(&parts.method, &parts.headers, &bytes) {
            Ok(()) => next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await,
            Err(r) => refused(r),
        },
        Err(r) => refused(r),
    }
}

/// Finishes every response: an error that a layer below the handlers answered in plain text (a
/// body over the limit: 413; a method a route does not take: 405) becomes the API's one-line JSON
/// error, and every response gets the security headers.
pub(crate) async fn finish(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let accepted = request.headers().get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let language = crate::words::language(accepted);
    let mut response = next.run(request).await;
    // An error a person reads, in the language the request accepts. A request that cannot be
    // done as written keeps the API's own English words (`error-bad`'s detail): a page says it
    // briefly in its language, a program needs the detail.
    if language != "en" {
        let said = response.extensions().get::<ApiError>().and_then(|e| Some((e, e.said.as_ref()?)));
        let said = said.filter(|(_, said)| said.id != "error-bad");
        if let Some(text) = said.and_then(|(e, said)| Some((e, crate::words::say(said, language)?))) {
            let (error, text) = text;
            let mut again = error.clone();
            again.message = one_line(text);
            response = again.into_response();
        }
    }
    let status = response.status();
    let json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !json {
        let allow = response.headers().get(header::ALLOW).cloned();
        let message = match status {
            StatusCode::PAYLOAD_TOO_LARGE => {
                format!("the request body is larger than {} KiB, the most a request may send", MAX_BODY / 1024)
            }
            StatusCode::METHOD_NOT_ALLOWED => {
                format!(
                    "{method} is not taken at {path}: use {} (see docs/web.md)",
                    route::allowed(&path, Hosts::Server)
                )
            }
            _ => format!("{method} {path}: {}", status.canonical_reason().unwrap_or("the request failed")),
        };
        let mut fixed = ApiError::new(status, message).into_response();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            let allow = allow.or_else(|| header::HeaderValue::from_str(&route::allowed(&path, Hosts::Server)).ok());
            if let Some(allow) = allow {
                fixed.headers_mut().insert(header::ALLOW, allow);
            }
        }
        response = fixed;
    }
    let headers = response.headers_mut();
    if path.starts_with("/api/") {
        headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    }
    kalah_host::headers::secure(headers);
    response
}
