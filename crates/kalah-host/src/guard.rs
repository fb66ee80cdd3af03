//! What every request passes before the handlers: writes from another web site are refused
//! (its `Origin` must name the server's own `Host` or its public address, and a body must be
//! JSON), a body must arrive within its time, and each client (an IP address, the real client's
//! behind a trusted proxy: [`crate::proxy`]) has its share of requests, new games and live
//! channels.
//!
//! A browser sends `Origin` with every cross-origin request and with every `POST`; a page on
//! another site can still send a "simple" request (a `text/plain` form or `fetch` with no
//! preflight), which is why both the origin and the content type are checked. Programs such
//! as curl send no `Origin`, and are let through when their body is JSON.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, StatusCode};

use crate::proxy::PublicUrl;

/// The client a request is counted against: its peer's address, or the real client's behind a
/// trusted proxy ([`crate::proxy::TrustedProxies::client`]). Set on every request before the
/// guard; absent on a request made inside the process (tests), which nobody limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub IpAddr);

/// How much each client may ask: requests a second and new games a minute, each with a burst
/// of as many again, and live channels open at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientLimits {
    /// Requests a second a client may send, on average.
    pub requests_per_second: u32,
    /// New games a minute a client may start, on average.
    pub games_per_minute: u32,
    /// Live channels a client may hold open at once (a page holds one).
    pub channels: u32,
}

impl Default for ClientLimits {
    /// 50 requests a second, 30 games a minute, 64 live channels: a class of thirty behind one
    /// address, each with a tab or two open.
    fn default() -> ClientLimits {
        ClientLimits { requests_per_second: 50, games_per_minute: 30, channels: 64 }
    }
}

/// The live channels each client holds open.
#[derive(Default)]
pub struct Channels {
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

/// A live channel counted against its client until it is dropped.
pub struct Channel {
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
    client: IpAddr,
}

impl Drop for Channel {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}

impl Channels {
    /// Counts a new channel of `client`, or refuses it (429) when the client holds `most` already.
    pub fn open(&self, client: IpAddr, most: u32) -> Result<Channel, Refusal> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(client).or_insert(0);
        if *n >= most {
            return Err(Refusal {
                status: StatusCode::TOO_MANY_REQUESTS,
                message: format!(
                    "too many live channels from one address: at most {most} open at once; close a page that follows a game"
                ),
                retry_after: Some(5),
            });
        }
        *n += 1;
        Ok(Channel { open: Arc::clone(&self.open), client })
    }

    /// Returns how many channels `client` holds open.
    pub fn held(&self, client: IpAddr) -> u32 {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).get(&client).copied().unwrap_or(0)
    }
}

/// A token bucket: `tokens` refill at `rate` a second up to `burst`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// Takes a token if there is one at `now`; else returns how long until there is.
    fn take(&mut self, rate: f64, burst: f64, now: Instant) -> Result<(), Duration> {
        self.tokens = (self.tokens + now.saturating_duration_since(self.at).as_secs_f64() * rate).min(burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / rate))
        }
    }
}

/// Which budget a request draws on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Budget {
    Requests,
    Games,
}

/// The buckets of every client seen lately.
pub struct Limiter {
    limits: ClientLimits,
    buckets: Mutex<HashMap<(IpAddr, Budget), Bucket>>,
}

impl Limiter {
    /// Returns a limiter with no client seen yet.
    pub fn new(limits: ClientLimits) -> Limiter {
        Limiter { limits, buckets: Mutex::new(HashMap::new()) }
    }

    fn take(&self, client: IpAddr, budget: Budget, now: Instant) -> Result<(), Duration> {
        let (rate, burst) = self.rate(budget);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let bucket = buckets.entry((client, budget)).or_insert(Bucket { tokens: burst, at: now });
        bucket.take(rate, burst, now)
    }

    /// Returns the refill rate a second and the burst of `budget`.
    fn rate(&self, budget: Budget) -> (f64, f64) {
        match budget {
            Budget::Requests => {
                let n = f64::from(self.limits.requests_per_second.max(1));
                (n, 2.0 * n)
            }
            Budget::Games => {
                let n = f64::from(self.limits.games_per_minute.max(1));
                (n / 60.0, n)
            }
        }
    }

    /// Forgets the clients whose buckets are full again by `now` (they are as new).
    pub fn forget_idle(&self, now: Instant) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let limits = Limiter { limits: self.limits, buckets: Mutex::new(HashMap::new()) };
        buckets.retain(|(_, budget), bucket| {
            let (rate, burst) = limits.rate(*budget);
            bucket.tokens + now.saturating_duration_since(bucket.at).as_secs_f64() * rate < burst
        });
    }
}

/// Why a request is refused before it reaches its handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The status to answer with.
    pub status: StatusCode,
    /// The one-line message.
    pub message: String,
    /// Seconds to wait before asking again (429).
    pub retry_after: Option<u64>,
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Refusal {
    Refusal { status, message: message.into(), retry_after: None }
}

/// Returns the `host[:port]` an `Origin` header names, or `None` for `null` or a value that is
/// not an origin.
fn origin_host(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    (!rest.is_empty() && !rest.contains('/')).then_some(rest)
}

/// Checks that a request that may change something comes from the server's own page (its
/// `Origin` names the `Host` it was sent to, or the server's public address), or from a program
/// that sends no `Origin`.
pub fn check_origin(method: &Method, headers: &HeaderMap, public: Option<&PublicUrl>) -> Result<(), Refusal> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site == "cross-site" || site == "same-site" {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "requests from another web site are refused: play on this server's own page",
            ));
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = text(header::HOST);
        let whole = origin.to_str().ok();
        let origin = whole.and_then(origin_host);
        let same = matches!((origin, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h));
        let public = matches!((whole, public), (Some(o), Some(p)) if p.is(o));
        if !same && !public {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "requests from another web site are refused: the Origin must be this server's own address",
            ));
        }
    }
    Ok(())
}

/// Checks that a request that may change something and has a body sends it as JSON: a page on
/// another site cannot send JSON without asking first (a preflight this server never grants).
pub fn check_json(method: &Method, headers: &HeaderMap, body: &[u8]) -> Result<(), Refusal> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) || body.is_empty() {
        return Ok(());
    }
    let json = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| {
        let essence = t.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("application/json")
    });
    if json {
        Ok(())
    } else {
        Err(refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON, sent with Content-Type: application/json",
        ))
    }
}

/// Draws a request of `client` on its budgets: every request on its requests, a new game on its
/// games too. A client over its share is refused with 429 and the seconds to wait.
pub fn check_share(limiter: &Limiter, client: Option<Client>, new_game: bool, now: Instant) -> Result<(), Refusal> {
    // A request with no client was made inside the process (tests): nobody to limit.
    let Some(Client(client)) = client else { return Ok(()) };
    let over = |wait: Duration, what: String| Refusal {
        status: StatusCode::TOO_MANY_REQUESTS,
        message: what,
        retry_after: Some(wait.as_secs().max(1)),
    };
    let limits = limiter.limits;
    limiter.take(client, Budget::Requests, now).map_err(|wait| {
        over(wait, format!("too many requests: at most {} a second from one address", limits.requests_per_second))
    })?;
    if new_game {
        limiter.take(client, Budget::Games, now).map_err(|wait| {
            over(
                wait,
                format!(
                    "too many new games, names or challenges: at most {} a minute from one address; try again in {}",
                    limits.games_per_minute,
                    seconds(wait.as_secs().max(1))
                ),
            )
        })?;
    }
    Ok(())
}

/// Returns `n` seconds in words: "1 second", "5 seconds".
pub fn seconds(n: u64) -> String {
    format!("{n} second{}", if n == 1 { "" } else { "s" })
}

/// Reads a request's whole body within `time` and at most `most` bytes, so that a client that
/// sends its body slowly is answered 408 rather than held.
pub async fn read_body(body: Body, most: usize, time: Duration) -> Result<axum::body::Bytes, Refusal> {
    match tokio::time::timeout(time, axum::body::to_bytes(body, most)).await {
        Err(_) => Err(refuse(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body did not arrive within {}", seconds(time.as_secs().max(1))),
        )),
        Ok(Err(_)) => Err(refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {} KiB, the most a request may send, or was cut off", most / 1024),
        )),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn writes_from_another_site_are_refused() {
        let post = Method::POST;
        let own = [("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")];
        assert!(check_origin(&post, &headers(&own), None).is_ok());
        let json = [("host", "127.0.0.1:8080"), ("content-type", "application/json")];
        assert!(check_origin(&post, &headers(&json), None).is_ok(), "a program without Origin");
        assert!(check_json(&post, &headers(&json), b"{}").is_ok());
        for bad in ["http://evil.example", "null", "http://127.0.0.1:8081", "http://127.0.0.1:8080/x"] {
            let h = headers(&[("host", "127.0.0.1:8080"), ("origin", bad)]);
            assert_eq!(check_origin(&post, &h, None).unwrap_err().status, StatusCode::FORBIDDEN, "{bad}");
        }
        let h = headers(&[("host", "a"), ("origin", "http://a"), ("sec-fetch-site", "cross-site")]);
        assert_eq!(check_origin(&post, &h, None).unwrap_err().status, StatusCode::FORBIDDEN);
        let text = headers(&[("host", "a"), ("content-type", "text/plain")]);
        assert_eq!(check_json(&post, &text, b"{}").unwrap_err().status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(check_json(&post, &text, b"").is_ok(), "no body");
        let evil_get = headers(&[("host", "a"), ("origin", "http://evil.example")]);
        assert!(check_origin(&Method::GET, &evil_get, None).is_ok(), "reading is not writing");
        // Behind a proxy that sends its own Host: the public address is the page's.
        let public: PublicUrl = "https://kalah.example".parse().unwrap();
        let proxied = headers(&[("host", "127.0.0.1:8080"), ("origin", "https://kalah.example")]);
        assert_eq!(check_origin(&post, &proxied, None).unwrap_err().status, StatusCode::FORBIDDEN);
        assert!(check_origin(&post, &proxied, Some(&public)).is_ok());
        let other = headers(&[("host", "127.0.0.1:8080"), ("origin", "http://kalah.example")]);
        assert!(check_origin(&post, &other, Some(&public)).is_err(), "another scheme is another site");
    }

    #[test]
    fn a_client_gets_its_share_and_no_more() {
        let limiter = Limiter::new(ClientLimits { requests_per_second: 5, games_per_minute: 3, channels: 2 });
        let a = Client(IpAddr::from([10, 0, 0, 1]));
        let b = Client(IpAddr::from([10, 0, 0, 2]));
        let t = Instant::now();
        for _ in 0..3 {
            check_share(&limiter, Some(a), true, t).unwrap();
        }
        let over = check_share(&limiter, Some(a), true, t).unwrap_err();
        assert_eq!(over.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(over.message.contains("at most 3 a minute"), "{}", over.message);
        assert_eq!(over.retry_after, Some(20));
        check_share(&limiter, Some(b), true, t).unwrap();
        check_share(&limiter, Some(a), true, t + Duration::from_secs(20)).unwrap();
        // Requests: a burst of twice the rate, then refused, then refilled.
        for _ in 0..9 {
            check_share(&limiter, Some(b), false, t).unwrap();
        }
        assert!(check_share(&limiter, Some(b), false, t).is_err());
        check_share(&limiter, Some(b), false, t + Duration::from_secs(1)).unwrap();
        assert!(check_share(&limiter, None, true, t).is_ok(), "no peer: inside the process");
        limiter.forget_idle(t + Duration::from_secs(3600));
        assert!(limiter.buckets.lock().unwrap().is_empty());
    }

    #[test]
    fn a_client_holds_its_share_of_live_channels() {
        let channels = Channels::default();
        let (a, b) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let first = channels.open(a, 2).unwrap();
        let _second = channels.open(a, 2).unwrap();
        let over = channels.open(a, 2).err().unwrap();
        assert_eq!((over.status, over.retry_after), (StatusCode::TOO_MANY_REQUESTS, Some(5)));
        assert!(over.message.contains("at most 2 open at once"), "{}", over.message);
        let _other = channels.open(b, 2).unwrap();
        drop(first);
        assert_eq!(channels.held(a), 1);
        let _again = channels.open(a, 2).unwrap();
    }
}
