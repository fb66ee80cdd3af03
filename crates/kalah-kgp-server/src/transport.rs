//! Lines over the two transports, as go-kgp frames them: a byte stream of CRLF-ended lines over
//! TCP, and over WebSocket the same byte stream in text messages, one line (with its CRLF) a
//! message from the server; the client's messages are joined and split at line ends, however it
//! cuts them (go-kgp reads through nhooyr's `NetConn`). A binary message closes the connection
//! with status 1003, as there; a frame the WebSocket protocol forbids closes it with 1002 (an
//! unmasked frame, a reserved opcode) or 1007 (a text message that is not UTF-8). TLS (rustls, PEM
//! files) wraps the WebSocket listener, whose HTTP is served by [`serve_http`] with a time limit on
//! a request's headers.

use std::io;
use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket};
use axum::extract::ConnectInfo;
use axum::Router;
use futures_util::SinkExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use kalah_protocol::kgp::server::MAX_READ;
use kalah_protocol::{Frame, LineReader};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// The longest a TLS handshake may take before the connection is dropped.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A byte stream a connection reads and writes.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

/// One connection's lines, whichever the transport.
pub enum Lines {
    /// A TCP stream.
    Stream {
        /// The stream.
        stream: Box<dyn Stream>,
        /// Bytes read and not yet split.
        buffer: Vec<u8>,
        /// Where the unsplit bytes start.
        start: usize,
        /// The line splitter.
        reader: LineReader,
        /// The stream has ended.
        ended: bool,
        /// Why it ended, when the reason is worth a line in the log.
        why: Option<String>,
    },
    /// A WebSocket.
    WebSocket {
        /// The socket.
        socket: Box<WebSocket>,
        /// Bytes of text messages not yet split.
        pending: Vec<u8>,
        /// The line splitter.
        reader: LineReader,
        /// The socket has ended.
        ended: bool,
        /// Why it ended, when the reason is worth a line in the log.
        why: Option<String>,
    },
}

impl Lines {
    /// Returns the lines of a byte stream.
    pub fn stream(stream: Box<dyn Stream>) -> Lines {
        Lines::Stream {
            stream,
            buffer: Vec::new(),
            start: 0,
            reader: LineReader::new(MAX_READ),
            ended: false,
            why: None,
        }
    }

    /// Returns the lines of a WebSocket.
    pub fn websocket(socket: WebSocket) -> Lines {
        Lines::WebSocket {
            socket: Box::new(socket),
            pending: Vec::new(),
            reader: LineReader::new(MAX_READ),
            ended: false,
            why: None,
        }
    }

    /// Returns why the lines ended, when it was not the client closing (a read that failed, a
    /// WebSocket closed for a frame the protocol forbids).
    pub fn why_ended(&self) -> Option<&str> {
        match self {
            Lines::Stream { why, .. } | Lines::WebSocket { why, .. } => why.as_deref(),
        }
    }

    /// Returns the next line, `None` at the end. Cancel-safe: what was read stays for the next call.
    pub async fn next(&mut self) -> Option<Frame> {
        match self {
            Lines::Stream { stream, buffer, start, reader, ended, why } => loop {
                if let Some(frame) = split(reader, buffer, start) {
                    return Some(frame);
                }
                if *ended {
                    return reader.finish();
                }
                let mut chunk = [0u8; 8192];
                match stream.read(&mut chunk).await {
                    Ok(0) => *ended = true,
                    Err(error) => {
                        *why = Some(format!("a read failed: {error}"));
                        *ended = true;
                    }
                    Ok(n) => {
                        buffer.drain(..*start);
                        *start = 0;
                        buffer.extend_from_slice(&chunk[..n]);
                    }
                }
            },
            Lines::WebSocket { socket, pending, reader, ended, why } => loop {
                let mut start = 0;
                if let Some(frame) = split(reader, pending, &mut start) {
                    pending.drain(..start);
                    return Some(frame);
                }
                pending.clear();
                if *ended {
                    return reader.finish();
                }
                match socket.recv().await {
                    Some(Ok(WsMessage::Text(text))) => pending.extend_from_slice(text.as_bytes()),
                    Some(Ok(WsMessage::Binary(_))) => {
                        let close = CloseFrame { code: 1003, reason: "expected text messages".into() };
                        let _ = socket.send(WsMessage::Close(Some(close))).await;
                        *ended = true;
                    }
                    Some(Ok(WsMessage::Ping(_) | WsMessage::Pong(_))) => {}
                    Some(Err(error)) => {
                        let error = error.into_inner();
                        // RFC 6455 gives the client a status saying what it did wrong.
                        let code = match error.downcast_ref::<tungstenite::Error>() {
                            Some(tungstenite::Error::Utf8(_)) => Some(1007),
                            Some(tungstenite::Error::Protocol(_)) => Some(1002),
                            Some(tungstenite::Error::Capacity(_)) => Some(1009),
                            _ => None,
                        };
                        if let Some(code) = code {
                            let reason = match code {
                                1007 => "a text message that is not UTF-8",
                                1009 => "a message over 1 MiB",
                                _ => "a frame the WebSocket protocol forbids",
                            };
                            let close = CloseFrame { code, reason: reason.into() };
                            let _ = socket.send(WsMessage::Close(Some(close))).await;
                            *why = Some(format!("closed with status {code} for {reason}: {error}"));
                        } else {
                            *why = Some(format!("a read failed: {error}"));
                        }
                        *ended = true;
                    }
                    Some(Ok(WsMessage::Close(_))) | None => *ended = true,
                }
            },
        }
    }

    /// Sends `lines`, each ended by CRLF.
    pub async fn send(&mut self, lines: &[String]) -> io::Result<()> {
        match self {
            Lines::Stream { stream, .. } => {
                let mut bytes = Vec::new();
                for line in lines {
                    bytes.extend_from_slice(line.as_bytes());
                    bytes.extend_from_slice(b"\r\n");
                }
                stream.write_all(&bytes).await?;
                stream.flush().await
            }
            Lines::WebSocket { socket, .. } => {
                for line in lines {
                    socket.feed(WsMessage::Text(format!("{line}\r\n").into())).await.map_err(io::Error::other)?;
                }
                socket.flush().await.map_err(io::Error::other)
            }
        }
    }

    /// Closes the connection (a WebSocket with a close message).
    pub async fn shut(&mut self) {
        match self {
            Lines::Stream { stream, .. } => {
                let _ = stream.shutdown().await;
            }
            Lines::WebSocket { socket, .. } => {
                let _ = socket.send(WsMessage::Close(None)).await;
            }
        }
    }
}

/// Splits the next line off `bytes[*start..]`, moving `start` past what it used.
fn split(reader: &mut LineReader, bytes: &[u8], start: &mut usize) -> Option<Frame> {
    while *start < bytes.len() {
        let (used, frame) = reader.push(&bytes[*start..]);
        *start += used;
        if frame.is_some() {
            return frame;
        }
    }
    None
}

use kalah_host::Certificates;
use kalah_host::Refreshed;
/// The certificate chain and key files, and why they cannot serve: kalah-host's, which
/// `kalah serve` reads the same way.
pub use kalah_host::{TlsError, TlsFiles};

use crate::Event;

/// Returns an acceptor for the certificate being served, offering HTTP/1.1 alone (the WebSocket
/// upgrade); each new connection gets the certificate current then.
pub fn acceptor(certificates: &Arc<Certificates>) -> Result<TlsAcceptor, TlsError> {
    certificates.acceptor_offering(&[b"http/1.1"])
}

/// Watches the certificate's files ([`Certificates::watch`]) until `stop` turns true, and reports
/// a renewal (certbot writes the files in place): served from the next connection on, or, if the
/// new files cannot serve, said why while the earlier certificate still is.
pub(crate) async fn renew(
    certificates: Arc<Certificates>,
    events: mpsc::UnboundedSender<Event>,
    mut stop: watch::Receiver<bool>,
) {
    let watching = certificates.watch(|refreshed| {
        let event = match refreshed {
            Refreshed::Failed(e) => Event::Trouble(format!(
                "the certificate changed but cannot be served ({e}): still serving the earlier one"
            )),
            _ => Event::CertificateRenewed,
        };
        if events.send(event).is_err() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    tokio::select! {
        () = watching => {}
        _ = stop.wait_for(|stopped| *stopped) => {}
    }
}

/// A listener whose connections come out of TLS handshakes, done apart so that a slow one holds
/// up no other.
pub struct TlsListener {
    handshaken: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    local: SocketAddr,
}

impl TlsListener {
    /// Accepts on `listener`, each connection through a handshake with `acceptor`; a failed
    /// handshake is reported to `failed` and dropped.
    pub fn new(
        listener: TcpListener,
        acceptor: TlsAcceptor,
        failed: impl Fn(SocketAddr, String) + Send + Sync + 'static,
    ) -> io::Result<TlsListener> {
        let local = listener.local_addr()?;
        let (done, handshaken) = mpsc::channel(64);
        let failed = Arc::new(failed);
        tokio::spawn(async move {
            loop {
                let (tcp, peer) = match listener.accept().await {
                    Ok(accepted) => accepted,
                    Err(_) => {
                        // Out of descriptors and the like: wait rather than spin.
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                if done.is_closed() {
                    break;
                }
                let (acceptor, handed, failed) = (acceptor.clone(), done.clone(), Arc::clone(&failed));
                tokio::spawn(async move {
                    match tokio::time::timeout(HANDSHAKE, acceptor.accept(tcp)).await {
                        Ok(Ok(stream)) => {
                            let _ = handed.send((stream, peer)).await;
                        }
                        Ok(Err(e)) => failed(peer, e.to_string()),
                        Err(_) => failed(peer, format!("no TLS handshake within {} s", HANDSHAKE.as_secs())),
                    }
                });
            }
        });
        Ok(TlsListener { handshaken, local })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.handshaken.recv().await {
            Some(accepted) => accepted,
            // The accepting task ends only when this listener is dropped.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        Ok(self.local)
    }
}

/// Serves `router` (the page and `/socket`) over HTTP/1.1 on the connections `listener` accepts,
/// each request with its peer's address (`ConnectInfo<SocketAddr>`), until `stop` turns true;
/// then each connection finishes the request it is answering and closes (an upgraded WebSocket is
/// its connection task's, which says goodbye itself). A client has `header_time` to send a
/// request's headers, from its connection's start or its last answer, else its connection is
/// closed: axum's `serve` sets hyper no timer, so a half-sent request was held for ever. HTTP/1.1
/// alone, as go-kgp serves it: hyper's automatic HTTP/2 detection would wait for the first bytes
/// with no time limit.
pub async fn serve_http<L>(mut listener: L, router: Router, header_time: Duration, mut stop: watch::Receiver<bool>)
where
    L: axum::serve::Listener<Addr = SocketAddr>,
{
    use tower::ServiceExt;
    loop {
        let (io, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|s| *s) => return,
        };
        let service = TowerToHyperService::new(router.clone().map_request(
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            },
        ));
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_time)
                .serve_connection(TokioIo::new(io), service)
                .with_upgrades();
            let mut connection = std::pin::pin!(connection);
            let stopped = tokio::select! {
                _ = connection.as_mut() => false,
                stopping = stop.wait_for(|s| *s) => stopping.is_ok(),
            };
            if stopped {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        });
    }
}
