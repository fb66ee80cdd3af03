//! The server over WebSocket, plain and behind TLS with a certificate made here: go-kgp's
//! framing (one line a message from the server, the client's messages joined however they are
//! cut), a binary message refused, other paths not found, a failed handshake that stops nothing.

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
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(certified.cert.der().to_vec())).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(tls));
    let tcp = TcpStream::connect(address).await.unwrap();
    let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
    let stream = connector.connect(name, tcp).await.unwrap();
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
