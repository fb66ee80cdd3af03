//! One connection to the server as bytes in and lines out: a TCP stream, or a WebSocket (over TLS
//! for `wss://`).
//!
//! Over WebSocket the client does what the reference server and the course's clients do. go-kgp
//! (`web/manage.go`) and kgpc wrap the socket with nhooyr's `websocket.NetConn(…, MessageText)`:
//! the text messages make one byte stream, read line by line, so a line may come in pieces or
//! several in one message; go-kgp writes each line, with its CRLF, as one text message, and so
//! do pykgp (`ws.send` of a line ending in CRLF) and jkgp (one `sendText` a line). The client
//! reads the messages as one stream of lines and sends each line as one text message ending in
//! CRLF. WebSocket pings are answered by the WebSocket library; the protocol's `ping` by the
//! session, as over TCP.
//!
//! The WebSocket runs on a small tokio runtime in a thread of its own per connection; the rest of
//! the client sees a blocking reader and a line sender, as with TCP.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use kalah_protocol::kgp::MAX_LINE;
use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, oneshot};
use tokio_rustls::rustls::{self, ClientConfig};
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use super::address::{Scheme, Server};
use super::tls::certificate_problem;

/// How long one TCP connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the TLS and WebSocket handshakes may take together.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a closing WebSocket waits to say goodbye with a close frame.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);
/// WebSocket messages read ahead of the session at most (as lines are over TCP).
const READ_AHEAD: usize = 64;
/// The longest WebSocket message taken: a message holds a line or a few (the reference server
/// sends one), each at most [`MAX_LINE`]; a server that sends more is not speaking KGP.
const MAX_MESSAGE: usize = 64 * MAX_LINE;

/// Why a connection could not be made.
#[derive(Debug)]
pub enum Failure {
    /// It may work later: the client waits and tries again.
    Retry(String),
    /// It will not work by trying again (a certificate refused, an address that is no KGP
    /// WebSocket): the client stops.
    Fatal(String),
}

/// Where the lines go.
pub enum Outgoing {
    /// Written to the TCP stream.
    Tcp(TcpStream),
    /// Handed to the WebSocket's thread, which sends each as one text message.
    WebSocket(mpsc::UnboundedSender<String>),
}

impl Outgoing {
    /// Sends one line (without its line end).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        match self {
            Outgoing::Tcp(stream) => {
                stream.write_all(format!("{line}\r\n").as_bytes())?;
                stream.flush()
            }
            Outgoing::WebSocket(lines) => lines
                .send(format!("{line}\r\n"))
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the WebSocket is closed")),
        }
    }
}

/// Ends a connection, so that its reader comes to the end of its stream.
pub enum Ender {
    /// Shuts the TCP stream down.
    Tcp(TcpStream),
    /// Tells the WebSocket's thread to close, and waits for it.
    WebSocket {
        /// Says "close".
        close: oneshot::Sender<()>,
        /// The thread.
        thread: JoinHandle<()>,
    },
}

impl Ender {
    /// Ends the connection.
    pub fn end(self) {
        match self {
            Ender::Tcp(stream) => {
                let _ = stream.shutdown(Shutdown::Both);
            }
            Ender::WebSocket { close, thread } => {
                let _ = close.send(());
                let _ = thread.join();
            }
        }
    }
}

/// A connection made.
pub struct Link {
    /// The bytes the server sends.
    pub incoming: Box<dyn Read + Send>,
    /// Where lines go.
    pub outgoing: Outgoing,
    /// How to end it.
    pub ender: Ender,
}

/// Connects to `server`; `tls` is the client's TLS settings, needed for `wss://`.
pub fn connect(server: &Server, tls: Option<&Arc<ClientConfig>>) -> Result<Link, Failure> {
    match server.scheme {
        Scheme::Tcp => {
            let stream = tcp(&server.host, server.port)
                .map_err(|e| Failure::Retry(format!("cannot connect to {server}: {e}")))?;
            // Moves are small and late moves are lost moves: send each at once.
            let _ = stream.set_nodelay(true);
            let clone = |stream: &TcpStream| {
                stream.try_clone().map_err(|e| Failure::Retry(format!("cannot use the connection to {server}: {e}")))
            };
            Ok(Link {
                incoming: Box::new(clone(&stream)?),
                outgoing: Outgoing::Tcp(clone(&stream)?),
                ender: Ender::Tcp(stream),
            })
        }
        Scheme::WebSocket | Scheme::SecureWebSocket => websocket(server, tls),
    }
}

fn tcp(host: &str, port: u16) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    let addresses: Vec<SocketAddr> = (host, port).to_socket_addrs()?.collect();
    for address in addresses {
        match TcpStream::connect_timeout(&address, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// A stream the WebSocket runs over: TCP, or TLS over TCP.
trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

type Socket = WebSocketStream<Box<dyn Stream>>;

fn websocket(server: &Server, tls: Option<&Arc<ClientConfig>>) -> Result<Link, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Retry(format!("cannot start the WebSocket's runtime: {e}")))?;
    let socket = runtime.block_on(async {
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, open(server, tls)).await {
            Ok(opened) => opened,
            Err(_) => Err(Failure::Retry(format!(
                "{server} did not complete the handshake within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            ))),
        }
    })?;
    let (bytes, incoming) = mpsc::channel(READ_AHEAD);
    let (lines, outgoing) = mpsc::unbounded_channel();
    let (close, closing) = oneshot::channel();
    let thread = std::thread::spawn(move || runtime.block_on(pump(socket, bytes, outgoing, closing)));
    Ok(Link {
        incoming: Box::new(Messages { queue: incoming, message: Vec::new(), read: 0 }),
        outgoing: Outgoing::WebSocket(lines),
        ender: Ender::WebSocket { close, thread },
    })
}

/// Opens the TCP connection, the TLS session for `wss://`, and the WebSocket.
async fn open(server: &Server, tls: Option<&Arc<ClientConfig>>) -> Result<Socket, Failure> {
    let tcp =
        tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect((server.host.as_str(), server.port)))
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "the connection timed out"))
            .and_then(|connected| connected)
            .map_err(|e| Failure::Retry(format!("cannot connect to {server}: {e}")))?;
    let _ = tcp.set_nodelay(true);
    let stream: Box<dyn Stream> = match (server.scheme, tls) {
        (Scheme::SecureWebSocket, Some(config)) => {
            let name = ServerName::try_from(server.host.clone())
                .map_err(|e| Failure::Fatal(format!("{server}: {:?} is not a host name for TLS: {e}", server.host)))?;
            let connector = tokio_rustls::TlsConnector::from(config.clone());
            let session = connector.connect(name, tcp).await.map_err(|e| tls_failure(server, &e))?;
            Box::new(session)
        }
        (Scheme::SecureWebSocket, None) => {
            return Err(Failure::Fatal(format!("{server}: a wss:// address needs the client's TLS settings")))
        }
        _ => Box::new(tcp),
    };
    let config = WebSocketConfig::default().max_message_size(Some(MAX_MESSAGE)).max_frame_size(Some(MAX_MESSAGE));
    let (socket, _) = tokio_tungstenite::client_async_with_config(server.url(), stream, Some(config))
        .await
        .map_err(|e| handshake_failure(server, e))?;
    Ok(socket)
}

/// Says what a failed TLS handshake means.
fn tls_failure(server: &Server, error: &io::Error) -> Failure {
    match error.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
        Some(tls) => match certificate_problem(tls) {
            Some(problem) => Failure::Fatal(format!("{server}: {problem}")),
            None => Failure::Fatal(format!(
                "{server}: the TLS handshake failed ({tls}); for a WebSocket without TLS write ws://"
            )),
        },
        None => Failure::Retry(format!("the TLS handshake with {server} failed: {error}")),
    }
}

/// Says what a failed WebSocket handshake means.
fn handshake_failure(server: &Server, error: WsError) -> Failure {
    let url = server.url();
    match error {
        WsError::Http(response) => {
            let status = response.status();
            let code = status.as_u16();
            if status.is_redirection() {
                let to = response.headers().get("location").and_then(|l| l.to_str().ok()).unwrap_or("elsewhere");
                Failure::Fatal(format!("{url} answered HTTP {status}, a redirection to {to}: give that address"))
            } else if status.is_server_error() || code == 408 || code == 429 {
                Failure::Retry(format!("{url} answered HTTP {status}"))
            } else {
                Failure::Fatal(format!(
                    "{url} answered HTTP {status} instead of opening a WebSocket: it is not a KGP server's \
                     WebSocket address (go-kgp serves it at /socket)"
                ))
            }
        }
        WsError::Io(e) => Failure::Retry(format!("the WebSocket handshake with {url} failed: {e}")),
        WsError::Protocol(ProtocolError::HandshakeIncomplete) => {
            Failure::Retry(format!("{url} closed the connection during the WebSocket handshake"))
        }
        other => Failure::Fatal(format!(
            "{url} is not a WebSocket server ({other}); for a KGP server over plain TCP write HOST:PORT"
        )),
    }
}

/// Carries the WebSocket's messages to the reader and the lines to send to the WebSocket, until
/// either side closes or the client says to close.
async fn pump(
    socket: Socket,
    bytes: mpsc::Sender<io::Result<Vec<u8>>>,
    mut lines: mpsc::UnboundedReceiver<String>,
    closing: oneshot::Receiver<()>,
) {
    let (mut sink, mut stream) = socket.split();
    let reading = async {
        while let Some(message) = stream.next().await {
            let chunk = match message {
                Ok(Message::Text(text)) => Ok(text.as_bytes().to_vec()),
                Ok(Message::Binary(data)) => Ok(data.to_vec()),
                Ok(Message::Close(_)) | Err(WsError::ConnectionClosed) => return,
                // Pings are answered by the library; pongs and raw frames carry no lines.
                Ok(_) => continue,
                Err(e) => Err(io::Error::other(e)),
            };
            let failed = chunk.is_err();
            if bytes.send(chunk).await.is_err() || failed {
                return;
            }
        }
    };
    let writing = async {
        while let Some(line) = lines.recv().await {
            if let Err(e) = sink.send(Message::text(line)).await {
                return Some(e);
            }
        }
        None
    };
    let failed = tokio::select! {
        () = reading => None,
        failed = writing => failed,
        _ = closing => None,
    };
    match failed {
        // The reader hears why, after the lines read before.
        Some(e) => {
            let _ = bytes.try_send(Err(io::Error::other(e)));
        }
        // The lines the session wrote before the end (a last `goodbye`) go out before the close frame.
        None => {
            let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
                while let Ok(line) = lines.try_recv() {
                    sink.feed(Message::text(line)).await?;
                }
                sink.close().await
            })
            .await;
        }
    }
}

/// The WebSocket's messages as one byte stream.
struct Messages {
    queue: mpsc::Receiver<io::Result<Vec<u8>>>,
    message: Vec<u8>,
    read: usize,
}

impl Read for Messages {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        while self.read == self.message.len() {
            match self.queue.blocking_recv() {
                Some(Ok(message)) => (self.message, self.read) = (message, 0),
                Some(Err(e)) => return Err(e),
                None => return Ok(0),
            }
        }
        let n = buffer.len().min(self.message.len() - self.read);
        buffer[..n].copy_from_slice(&self.message[self.read..self.read + n]);
        self.read += n;
        Ok(n)
    }
}
