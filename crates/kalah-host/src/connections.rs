//! The server's connections: accepted up to a cap and a share for each client address, each
//! served by hyper (HTTP/1.1, and HTTP/2 where TLS's ALPN or the client's preface asks for it)
//! with a time limit on its request headers and closed when it has been idle (nothing read or
//! written, no request being answered) for too long, so that clients that connect and send
//! nothing, or send a header a byte at a time, are not held for ever. A connection over the cap
//! is answered 503, and one over its client's share 429, and closed at once. With a certificate
//! ([`crate::certificates`]) every connection is TLS first.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;

use crate::proxy::TrustedProxies;

/// How long a client may take and how many may be connected at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Most time to send a request's headers, from its first byte (or from the connection's start).
    pub header: Duration,
    /// Most time to send a request's body once its headers have arrived.
    pub body: Duration,
    /// A connection with nothing read or written and no request being answered for this long is closed.
    pub idle: Duration,
    /// Most connections open at once; more are answered 503 and closed.
    pub max: usize,
    /// Most connections open at once from one address (a trusted proxy's are not counted); more
    /// are answered 429 and closed.
    pub per_client: usize,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header: Duration::from_secs(10),
            body: Duration::from_secs(30),
            idle: Duration::from_secs(120),
            max: 4096,
            per_client: 256,
        }
    }
}

/// A stream that notes when it last read or wrote a byte (milliseconds since `start`), and
/// writes the server's own answer in place of an error hyper answers by itself.
struct Watched<S> {
    stream: S,
    start: Instant,
    last: Arc<AtomicU64>,
    /// An answer being written in place of hyper's: its bytes, how many are written, and how
    /// many of hyper's bytes it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<S> Watched<S> {
    fn touch(&self) {
        self.last.store(self.start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        if self.replacing.is_none() {
            if let Some(answer) = own_answer(data) {
                self.replacing = Some((answer, 0, data.len()));
            }
        }
        if self.replacing.is_some() {
            let this = &mut *self;
            let (bytes, written, stands_for) = this.replacing.as_mut().expect("an answer being written");
            while *written < bytes.len() {
                match Pin::new(&mut this.stream).poll_write(cx, &bytes[*written..]) {
                    Poll::Ready(Ok(0)) => return Poll::Ready(Ok(0)),
                    Poll::Ready(Ok(n)) => *written += n,
                    other => return other,
                }
            }
            let n = *stands_for;
            this.replacing = None;
            this.touch();
            return Poll::Ready(Ok(n));
        }
        let polled = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Returns the server's answer in place of `data` when `data` is an error hyper answers by
/// itself, before the router: a request line or header it cannot read (400), an address longer
/// than it reads (414), or headers over its limits (431). hyper sends those with no body and
/// none of the headers every other answer has; the router's answers all carry
/// `x-content-type-options`, so one without it is hyper's.
fn own_answer(data: &[u8]) -> Option<Vec<u8>> {
    let head = data.strip_prefix(b"HTTP/1.1 ").or_else(|| data.strip_prefix(b"HTTP/1.0 "))?;
    let message = match head.get(..3)? {
        b"400" => "the request is not HTTP/1.1 that this server reads: a malformed request line or header",
        b"414" => "the address is too long: at most 65534 bytes",
        b"431" => "the request's headers are too large or too many: at most 100 headers, about 400 KiB in all",
        _ => return None,
    };
    let ours = data.windows(23).any(|w| w.eq_ignore_ascii_case(b"x-content-type-options:"));
    if ours {
        return None;
    }
    let status = std::str::from_utf8(&head[..3]).ok()?;
    let reason = match status {
        "400" => "Bad Request",
        "414" => "URI Too Long",
        _ => "Request Header Fields Too Large",
    };
    Some(answer(&format!("{status} {reason}"), &format!("{{\"error\":\"{message}\"}}"), None))
}

/// Returns a whole HTTP/1.1 answer that closes the connection: `status` (code and reason), a
/// JSON `body`, the security headers every answer of the server has, and `Retry-After` if given.
fn answer(status: &str, body: &str, retry_after: Option<u64>) -> Vec<u8> {
    let retry = retry_after.map_or(String::new(), |s| format!("retry-after: {s}\r\n"));
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n{retry}cache-control: no-store\r\n\
         content-security-policy: {}\r\nx-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\n\
         x-frame-options: DENY\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        crate::headers::CONTENT_SECURITY_POLICY,
        body.len()
    )
    .into_bytes()
}

/// The answer to a connection over the cap.
fn busy_answer() -> Vec<u8> {
    let body = r#"{"error":"the server has its most connections open: try again in a few seconds"}"#;
    answer("503 Service Unavailable", body, Some(5))
}

/// The answer to a connection over its client's share.
fn crowded_answer(most: usize) -> Vec<u8> {
    let body = format!(
        r#"{{"error":"too many connections from one address: at most {most} open at once; close some and try again"}}"#
    );
    answer("429 Too Many Requests", &body, Some(5))
}

/// Answers a plain HTTP request sent to the HTTPS port: 400 and one line saying to use https,
/// with the address asked for (its `Host` and path) when the request's head names them.
async fn plain_http(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncReadExt;
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while head.len() < 8192 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let path = head.lines().next().and_then(|line| line.split(' ').nth(1)).filter(|p| p.starts_with('/'));
    let host = head.lines().skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim().eq_ignore_ascii_case("host").then(|| value.trim())
    });
    let clean = |text: &str| text.chars().all(|c| c.is_ascii_graphic());
    let message = match (host.filter(|h| clean(h)), path.filter(|p| clean(p))) {
        (Some(host), Some(path)) => format!("this port speaks HTTPS, not plain HTTP: open https://{host}{path}"),
        _ => "this port speaks HTTPS, not plain HTTP: open the address with https://".to_string(),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let _ = stream.write_all(&answer("400 Bad Request", &body, None)).await;
    let _ = stream.shutdown().await;
}

/// The connections each client address holds open.
#[derive(Clone, Default)]
struct Held(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// A connection counted against its address until it is dropped.
struct Slot {
    held: Held,
    client: IpAddr,
}

impl Held {
    /// Counts a connection of `client`, if it holds fewer than `most`.
    fn take(&self, client: IpAddr, most: usize) -> Option<Slot> {
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(client).or_insert(0);
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(Slot { held: self.clone(), client })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.held.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// Where a server listens, and how: plain TCP or TLS, and whose forwarding it trusts.
pub struct Listening {
    /// The socket.
    pub listener: TcpListener,
    /// TLS for every connection, if the server speaks HTTPS.
    pub tls: Option<TlsAcceptor>,
    /// The proxies whose connections are not counted against an address's share.
    pub proxies: TrustedProxies,
}

/// Serves `router` on `listening` within `limits` until `shutdown` completes; then stops
/// accepting, lets every connection finish the request it is answering and `closing` tells the
/// long-lived answers (live streams) to end, and returns once every connection is closed.
pub async fn serve(
    listening: Listening,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
    closing: watch::Sender<bool>,
) -> std::io::Result<()> {
    let Listening { listener, tls, proxies } = listening;
    let permits = Arc::new(Semaphore::new(limits.max));
    let held = Held::default();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // Out of files or a connection reset before it was accepted: wait a little, go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let client = peer.ip().to_canonical();
        // Taken here, as the connection is accepted, so that a burst is counted in full.
        let admitted = match Arc::clone(&permits).try_acquire_owned() {
            Err(_) => Err(busy_answer()),
            Ok(permit) if proxies.trusts(client) => Ok((permit, None)),
            Ok(permit) => match held.take(client, limits.per_client) {
                Some(slot) => Ok((permit, Some(slot))),
                None => Err(crowded_answer(limits.per_client)),
            },
        };
        let service = TowerToHyperService::new(tower::ServiceExt::map_request(
            router.clone(),
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                request
            },
        ));
        let closing = closing.subscribe();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                None => connection(stream, admitted, service, limits, closing).await,
                Some(acceptor) => {
                    // The handshake is part of the headers' time. A TLS connection begins with a
                    // handshake record (0x16); a letter is plain HTTP sent to the HTTPS port,
                    // answered in plain HTTP with where to go, as nginx does.
                    let mut first = [0u8; 1];
                    let Ok(Ok(1)) = tokio::time::timeout(limits.header, stream.peek(&mut first)).await else { return };
                    if first[0].is_ascii_alphabetic() {
                        drop(admitted);
                        let _ = tokio::time::timeout(limits.header, plain_http(stream)).await;
                        return;
                    }
                    let Ok(Ok(stream)) = tokio::time::timeout(limits.header, acceptor.accept(stream)).await else {
                        return;
                    };
                    connection(stream, admitted, service, limits, closing).await
                }
            }
        });
    }
    let _ = closing.send(true);
    // Every connection gives its permit back when it closes.
    let _ = permits.acquire_many(limits.max as u32).await;
    Ok(())
}

/// Serves one connection, or writes why it is refused and closes it.
async fn connection<S, T>(
    mut stream: S,
    admitted: Result<(tokio::sync::OwnedSemaphorePermit, Option<Slot>), Vec<u8>>,
    service: T,
    limits: ConnectionLimits,
    mut closing: watch::Receiver<bool>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    T: hyper::service::Service<
            axum::http::Request<hyper::body::Incoming>,
            Response = axum::response::Response,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + 'static,
    T::Future: Send + 'static,
{
    let (permit, slot) = match admitted {
        Ok(admitted) => admitted,
        Err(refusal) => {
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                let _ = stream.write_all(&refusal).await;
                let _ = stream.shutdown().await;
            })
            .await;
            return;
        }
    };
    let start = Instant::now();
    let last = Arc::new(AtomicU64::new(0));
    let io = Watched { stream, start, last: Arc::clone(&last), replacing: None };
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header);
    builder.http2().timer(TokioTimer::new());
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
    let mut connection = std::pin::pin!(connection);
    let mut ending = false;
    let tick = (limits.idle / 4).max(Duration::from_millis(10));
    loop {
        tokio::select! {
            _ = connection.as_mut() => break,
            () = tokio::time::sleep(tick), if !ending => {
                let quiet = start.elapsed().saturating_sub(Duration::from_millis(last.load(Ordering::Relaxed)));
                if quiet >= limits.idle {
                    // Closes at once if no request is being answered, else after it.
                    connection.as_mut().graceful_shutdown();
                    ending = true;
                }
            }
            _ = closing.changed(), if !ending => {
                connection.as_mut().graceful_shutdown();
                ending = true;
            }
        }
    }
    drop((permit, slot));
}
