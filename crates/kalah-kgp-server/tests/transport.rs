//! The server over WebSocket, plain and behind TLS with a certificate made here: go-kgp's
//! framing (one line a message from the server, the client's messages joined however they are
//! cut), a binary message refused, other paths not found, a failed handshake that stops nothing;
//! close frames with the status of what a raw client did wrong (1002, 1007); a half-sent HTTP
//! request closed after the header time; a client that stops reading dropped, and the log saying
//! why; the page's JSON with each key once; a renewed certificate served without a restart, and a
//! renewal that cannot serve leaving the earlier one served.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use kalah_kgp_server::{Config, Event, Reader, Server, TlsFiles};
use rustls_pki_types::CertificateDer;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const HANG: Duration = Duration::from_secs(120);

fn config(dir: &tempfile::TempDir) -> Config {
    let mut config = Config::new(dir.path().join("kgp.sqlite"));
    config.tcp = None;
    config.websocket = Some(([127, 0, 0, 1], 0).into());
    config.wait = Duration::ZERO;
    config.games = Some(1);
    config
}

/// Plays one game over `socket` with the first legal move each time, sending its lines cut
/// across messages; checks that every server message is one line. Returns the lines received.
async fn play<S>(socket: &mut tokio_tungstenite::WebSocketStream<S>) -> Vec<String>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut received = Vec::new();
    let mut next = 5;
    loop {
        let message =
            tokio::time::timeout(HANG, socket.next()).await.expect("no hang").expect("a message").expect("ok");
        let Message::Text(text) = message else { continue };
        let text = text.to_string();
        assert!(text.ends_with("\r\n") && text.matches('\n').count() == 1, "one line a message: {text:?}");
        let line = text.trim_end().to_string();
        received.push(line.clone());
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.get(1).copied().or(words.first().copied()) {
            Some("kgp") => {
                // One line cut in three messages, and two lines in one.
                for part in ["1 set info:name \"w", "ss vs random\"\r\n3 mode fre", "eplay\r\n"] {
                    socket.send(Message::Text(part.into())).await.unwrap();
                }
            }
            Some("state") => {
                let id = words[0];
                let board: Vec<u32> =
                    words[2].trim_matches(['<', '>']).split(',').map(|n| n.parse().unwrap()).collect();
                let house = (0..board[0] as usize).find(|&i| board[3 + i] > 0).unwrap() + 1;
                let lines = format!("{next}@{id} move {house}\r\n{}@{id} yield\r\n", next + 2);
                next += 4;
                socket.send(Message::Text(lines.into())).await.unwrap();
            }
            _ if line == "goodbye" => return received,
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_game_over_websocket_behind_tls() {
    let dir = tempfile::tempdir().unwrap();
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert, certified.cert.pem()).unwrap();
    std::fs::write(&key, certified.signing_key.serialize_pem()).unwrap();
    let mut config = config(&dir);
    config.tls = Some(TlsFiles { cert, key });
    let db = config.db.clone();
    let (events, mut log) = mpsc::unbounded_channel();
    let server = Server::start(config, events).await.unwrap();
    let address = server.websocket_address().unwrap();
    assert!(matches!(log.recv().await, Some(Event::Listening { .. })));
    // A client that speaks no TLS: its handshake fails, and nothing else does.
    let mut plain = TcpStream::connect(address).await.unwrap();
    use tokio::io::AsyncWriteExt;
    plain.write_all(b"GET /socket HTTP/1.1\r\n\r\n").await.unwrap();
    let mut back = Vec::new();
    let _ = tokio::time::timeout(HANG, plain.read_to_end(&mut back)).await.expect("the server closes it");
    // The real client: TLS with the certificate as its only root, then WebSocket.
    let stream = connect_trusting(address, &certified.cert).await.unwrap();
    let url = format!("wss://localhost:{}/socket", address.port());
    let (mut socket, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let received = play(&mut socket).await;
    assert_eq!(received[0], "2 kgp 1 0 1");
    assert!(received.iter().any(|l| l.contains("state <6,")), "{received:?}");
    server.shutdown().await;
    let mut trouble = Vec::new();
    while let Ok(event) = log.try_recv() {
        if let Event::Trouble(text) = event {
            trouble.push(text);
        }
    }
    assert!(trouble.iter().any(|t| t.contains("TLS handshake with")), "{trouble:?}");
    let games = Reader::open(&db).unwrap().games(None, None).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].south.as_str().min(games[0].north.as_str()), "random");
    assert!(games[0].state.ends_with("won") || games[0].state == "draw", "{games:?}");
}

/// Connects to the server at `address` over TLS, trusting only `cert`, as a client of
/// `localhost`.
async fn connect_trusting(
    address: std::net::SocketAddr,
    cert: &rcgen::Certificate,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(cert.der().to_vec())).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(tls));
    let tcp = TcpStream::connect(address).await.unwrap();
    let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
    connector.connect(name, tcp).await
}

/// Does a TLS handshake with the server at `address` trusting only `cert`; tells whether it held.
async fn handshake_trusting(address: std::net::SocketAddr, cert: &rcgen::Certificate) -> bool {
    connect_trusting(address, cert).await.is_ok()
}

/// Writes `text` beside `path` and renames it over, as certbot renews its files.
fn renew_file(path: &std::path::Path, text: &str) {
    let new = path.with_extension("new");
    std::fs::write(&new, text).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// Tells whether the server's log line is about its certificate's files (not, say, a handshake
/// that a client refused).
fn about_the_certificate(event: &Event) -> bool {
    match event {
        Event::CertificateRenewed => true,
        Event::Trouble(text) => text.starts_with("the certificate changed"),
        _ => false,
    }
}

/// Waits for the server's log to say something `wanted` takes, and returns it.
async fn wait_for(log: &mut mpsc::UnboundedReceiver<Event>, wanted: impl Fn(&Event) -> bool) -> Event {
    tokio::time::timeout(HANG, async {
        loop {
            let event = log.recv().await.expect("the server's log");
            if wanted(&event) {
                return event;
            }
        }
    })
    .await
    .expect("the event within the time")
}

#[tokio::test]
async fn a_renewed_certificate_is_served_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert, first.cert.pem()).unwrap();
    std::fs::write(&key, first.signing_key.serialize_pem()).unwrap();
    let mut config = config(&dir);
    config.tls = Some(TlsFiles { cert: cert.clone(), key: key.clone() });
    let (events, mut log) = mpsc::unbounded_channel();
    let server = Server::start(config, events).await.unwrap();
    assert!(server.certificates().is_some());
    let address = server.websocket_address().unwrap();
    assert!(handshake_trusting(address, &first.cert).await);

    // The renewal: a new key and certificate, found by the server's look at its files.
    let second = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    renew_file(&key, &second.signing_key.serialize_pem());
    renew_file(&cert, &second.cert.pem());
    let said = wait_for(&mut log, about_the_certificate).await;
    // The key and the certificate may be seen apart (the key first): then the next look serves both.
    if !matches!(said, Event::CertificateRenewed) {
        wait_for(&mut log, |e| matches!(e, Event::CertificateRenewed)).await;
    }
    assert!(handshake_trusting(address, &second.cert).await, "the renewed certificate is served");
    assert!(!handshake_trusting(address, &first.cert).await, "the old one is not");

    // A renewal that cannot serve (a key that is not PEM) is said, and the last good one stays.
    renew_file(&key, "not a key\n");
    let said = wait_for(&mut log, about_the_certificate).await;
    let Event::Trouble(text) = said else { panic!("a broken renewal is trouble, not {said}") };
    assert!(text.contains("cannot be served") && text.contains("still serving the earlier one"), "{text}");
    assert!(handshake_trusting(address, &second.cert).await, "the earlier certificate still serves");
    server.shutdown().await;
}

#[tokio::test]
async fn websocket_refuses_binary_messages_and_other_paths() {
    let dir = tempfile::tempdir().unwrap();
    let (events, _log) = mpsc::unbounded_channel();
    let server = Server::start(config(&dir), events).await.unwrap();
    let address = server.websocket_address().unwrap();
    // Another path: 404, no upgrade.
    let refused = tokio_tungstenite::connect_async(format!("ws://{address}/other")).await;
    assert!(refused.is_err());
    // A binary message: the connection closes with status 1003, as go-kgp's NetConn does.
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/socket")).await.unwrap();
    socket.send(Message::Binary(b"3 mode freeplay\r\n".to_vec().into())).await.unwrap();
    let mut code = None;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(HANG, socket.next()).await {
        if let Message::Close(Some(frame)) = message {
            code = Some(u16::from(frame.code));
        }
    }
    assert_eq!(code, Some(1003));
    // The server still plays.
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/socket")).await.unwrap();
    let received = play(&mut socket).await;
    assert!(received.iter().any(|l| l.contains("state <6,")), "{received:?}");
    server.shutdown().await;
}

/// Sends `request` on a new connection to `address` and returns all it reads until the server
/// closes.
async fn http(address: std::net::SocketAddr, request: &str) -> String {
    use tokio::io::AsyncWriteExt;
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut back = Vec::new();
    tokio::time::timeout(HANG, stream.read_to_end(&mut back)).await.expect("no hang").unwrap();
    String::from_utf8_lossy(&back).into_owned()
}

/// A JSON value read with a check that no object has a key twice (serde_json's own values keep
/// the last, so a reader in JavaScript or Python would silently lose the first).
struct UniqueKeys;

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<UniqueKeys, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = UniqueKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format!("the key {key:?} twice")));
                    }
                    map.next_value::<UniqueKeys>()?;
                }
                Ok(UniqueKeys)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
                while seq.next_element::<UniqueKeys>()?.is_some() {}
                Ok(UniqueKeys)
            }
            fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
            fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
            fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
            fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
            fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
            fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
                Ok(UniqueKeys)
            }
        }
        deserializer.deserialize_any(Visit)
    }
}

#[tokio::test]
async fn the_pages_json_has_each_key_once() {
    let dir = tempfile::tempdir().unwrap();
    let (events, _log) = mpsc::unbounded_channel();
    let server = Server::start(config(&dir), events).await.unwrap();
    let address = server.websocket_address().unwrap();
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/socket")).await.unwrap();
    play(&mut socket).await;
    for path in ["/api/games/1", "/api/games", "/api/standings", "/api/tournaments", "/api/agents"] {
        let answer = http(address, &format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).await;
        let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
        if let Err(e) = serde_json::from_str::<UniqueKeys>(body) {
            panic!("{path}: {e}: {body}");
        }
    }
    // A report is a tournament's: none here.
    let answer = http(address, "GET /api/tournaments/1/report HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 404") && answer.contains("there is no tournament 1"), "{answer}");
    // The count of moves and the moves themselves, under keys of their own.
    let answer = http(address, "GET /api/games/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    let game: serde_json::Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    let count = game["move_count"].as_u64().expect("move_count, a number");
    assert_eq!(game["moves"].as_array().expect("moves, a list").len() as u64, count);
    server.shutdown().await;
}

#[tokio::test]
async fn a_half_sent_request_is_closed_after_the_header_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.header_time = Duration::from_millis(300);
    let (events, _log) = mpsc::unbounded_channel();
    let server = Server::start(config, events).await.unwrap();
    let address = server.websocket_address().unwrap();
    let started = std::time::Instant::now();
    // Half a request, and a connection that sends nothing at all: both closed, neither answered
    // with a page.
    let (half, silent) =
        tokio::join!(http(address, "GET / HTTP/1.1\r\nHost: x\r\nUser-Agent: slow"), http(address, ""));
    assert!(!half.contains("200 OK") && !silent.contains("200 OK"), "{half:?} {silent:?}");
    assert!(started.elapsed() < Duration::from_secs(20), "closed after {:?}", started.elapsed());
    // A whole request is answered as before.
    let page = http(address, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    server.shutdown().await;
}

/// Opens a WebSocket to `/socket` by hand, sends `frame` (raw bytes) after the greeting, and
/// returns the status of the close frame the server sends back, if any.
async fn close_code_for(address: std::net::SocketAddr, frame: &[u8]) -> Option<u16> {
    use tokio::io::AsyncWriteExt;
    let mut stream = TcpStream::connect(address).await.unwrap();
    let upgrade = "GET /socket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        tokio::time::timeout(HANG, stream.read_exact(&mut byte)).await.expect("no hang").unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    stream.write_all(frame).await.unwrap();
    let mut back = Vec::new();
    let _ = tokio::time::timeout(HANG, stream.read_to_end(&mut back)).await.expect("the server closes");
    // The server's frames: unmasked, lengths of 7 bits or 16.
    let mut at = 0;
    while at + 2 <= back.len() {
        let opcode = back[at] & 0x0f;
        let (length, start) = match back[at + 1] & 0x7f {
            126 => (usize::from(u16::from_be_bytes([back[at + 2], back[at + 3]])), at + 4),
            n => (usize::from(n), at + 2),
        };
        if opcode == 8 && length >= 2 {
            return Some(u16::from_be_bytes([back[start], back[start + 1]]));
        }
        at = start + length;
    }
    None
}

/// A client's frame: FIN, `opcode`, and `payload` masked with `mask` (none: unmasked).
fn frame(opcode: u8, payload: &[u8], mask: Option<[u8; 4]>) -> Vec<u8> {
    let mut bytes = vec![0x80 | opcode, payload.len() as u8 | if mask.is_some() { 0x80 } else { 0 }];
    match mask {
        Some(mask) => {
            bytes.extend_from_slice(&mask);
            bytes.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        }
        None => bytes.extend_from_slice(payload),
    }
    bytes
}

#[tokio::test]
async fn websocket_close_frames_say_what_the_client_did_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let (events, mut log) = mpsc::unbounded_channel();
    let server = Server::start(config(&dir), events).await.unwrap();
    let address = server.websocket_address().unwrap();
    let mask = Some([1, 2, 3, 4]);
    // A text message that is not UTF-8: 1007.
    assert_eq!(close_code_for(address, &frame(1, b"1 mode \xff\xfe\r\n", mask)).await, Some(1007));
    // A frame a client sent unmasked: 1002.
    assert_eq!(close_code_for(address, &frame(1, b"1 mode freeplay\r\n", None)).await, Some(1002));
    // Reserved opcodes, a data one and a control one: 1002.
    assert_eq!(close_code_for(address, &frame(3, b"hello", mask)).await, Some(1002));
    assert_eq!(close_code_for(address, &frame(0xb, b"", mask)).await, Some(1002));
    server.shutdown().await;
    let mut closed = Vec::new();
    while let Ok(event) = log.try_recv() {
        if let Event::Connection { text, .. } = event {
            if text.starts_with("closed: ") {
                closed.push(text);
            }
        }
    }
    // The log says why, not only that the connection ended.
    assert_eq!(closed.iter().filter(|t| t.contains("status 1007")).count(), 1, "{closed:#?}");
    assert_eq!(closed.iter().filter(|t| t.contains("status 1002")).count(), 3, "{closed:#?}");
}

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_and_the_log_says_why() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir);
    config.websocket = None;
    config.tcp = Some(([127, 0, 0, 1], 0).into());
    config.write_wait = Duration::from_millis(300);
    let (events, mut log) = mpsc::unbounded_channel();
    let server = Server::start(config, events).await.unwrap();
    let address = server.tcp_address().unwrap();
    // A small window, so that the server's writes wait soon.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(address).await.unwrap();
    let (_reader, mut writer) = stream.into_split();
    // Lines that each get an error back, sent until the server stops reading them; none of the
    // answers is read.
    let sending = tokio::spawn(async move {
        let lines = "1 nonsense\r\n".repeat(1000);
        while writer.write_all(lines.as_bytes()).await.is_ok() {}
    });
    let why = tokio::time::timeout(HANG, async {
        loop {
            match log.recv().await {
                Some(Event::Connection { text, .. }) if text.starts_with("closed: ") => return text,
                Some(_) => {}
                None => panic!("the log ended"),
            }
        }
    })
    .await
    .expect("the client is dropped");
    assert!(why.contains("it stopped reading: a write waited 300ms for it"), "{why}");
    sending.abort();
    server.shutdown().await;
}
