//! A bounded load of games between friends over the live channel, on loopback, against a real
//! `kalah serve` process: N games of Kalah(6,6), each between two simulated players that follow
//! the game over Server-Sent Events and move (a random legal action, with the version it was made
//! on and a request id) once a second. It measures the time from a player's move being sent to
//! the opponent's live channel showing it, and the server's memory (VmRSS) and CPU time; at a
//! random moment in the middle it kills the server (`kill -9`) and starts it again on the same
//! database, the players reconnect and send again what was not answered (the same request id),
//! and at the end every game's moves on the server are compared with the moves it acknowledged.
//!
//! With `--postgres URL` it starts two servers on that PostgreSQL database instead and puts each
//! game's players on different servers (South's requests and live channel on the first, North's
//! on the second); the kill is the first server's.
//!
//! On the internet's path: `--front HOST:PORT` sends every request to a reverse proxy there
//! (started by hand, its upstream `kalah serve` on `--port P`) instead of the server; `--tls
//! CA.pem` speaks HTTPS (to the proxy, or to `kalah serve --cert`), the server's certificate
//! checked against CA.pem for the name `--tls-name` (localhost); `--serve ARG` (repeated) passes
//! ARG to `kalah serve` (`--serve --cert --serve cert.pem`, `--serve --trusted-proxy --serve
//! 127.0.0.1`).
//!
//! ```text
//! cargo build --release -p kalah
//! cargo run --release -p kalah-web --example live -- --kalah target/release/kalah [--games 1000] [--seconds 60] [--no-kill] [--postgres postgres://USER@HOST:PORT/DB]
//!     [--port P] [--front HOST:PORT] [--tls CA.pem] [--tls-name NAME] [--serve ARG]...
//! ```
//!
//! The figures of docs/web.md come from it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rustls_pki_types::pem::PemObject;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A connection's stream: TCP, or TLS over it.
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Where the players connect, when not to the server itself, and how.
struct Path {
    /// A reverse proxy's address, in place of the server's.
    front: Option<String>,
    /// TLS: the connector and the name the certificate must hold.
    tls: Option<(tokio_rustls::TlsConnector, rustls_pki_types::ServerName<'static>)>,
}

static PATH: OnceLock<Path> = OnceLock::new();

/// Opens a connection to the server at `address` (or the front), through TLS if asked.
async fn connect(address: &str) -> std::io::Result<Box<dyn Io>> {
    let path = PATH.get().expect("the path is set first");
    let stream = TcpStream::connect(path.front.as_deref().unwrap_or(address)).await?;
    stream.set_nodelay(true)?;
    match &path.tls {
        None => Ok(Box::new(stream)),
        Some((connector, name)) => Ok(Box::new(connector.connect(name.clone(), stream).await?)),
    }
}

/// What every game records.
#[derive(Default)]
struct Tally {
    /// When each move was sent (milliseconds into the run) and the microseconds from then to
    /// the opponent's channel showing it.
    latency: Vec<(u64, u64)>,
    /// When the run began.
    began: Option<Instant>,
    /// Moves acknowledged, by game.
    acked: HashMap<String, Vec<String>>,
    /// Requests sent again after the connection failed.
    retries: u64,
}

/// One keep-alive HTTP/1.1 connection.
struct Connection {
    stream: BufReader<Box<dyn Io>>,
}

impl Connection {
    async fn open(address: &str) -> std::io::Result<Connection> {
        Ok(Connection { stream: BufReader::new(connect(address).await?) })
    }

    /// Sends a request and returns the status and the JSON body.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: live\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        let mut line = String::new();
        if self.stream.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut length = 0;
        loop {
            line.clear();
            if self.stream.read_line(&mut line).await? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut bytes = vec![0; length];
        self.stream.read_exact(&mut bytes).await?;
        Ok((status, bytes))
    }
}

/// Sends a request until it is answered, on a connection opened again as needed.
async fn call(
    connection: &mut Option<Connection>,
    address: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    tally: &Mutex<Tally>,
) -> (u16, Vec<u8>) {
    loop {
        if connection.is_none() {
            match Connection::open(address).await {
                Ok(c) => *connection = Some(c),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            }
        }
        let Some(open) = connection.as_mut() else { continue };
        match open.call(method, path, token, body.as_ref()).await {
            // 502 and 504: a proxy in front whose server is restarting.
            Ok(answer) if !matches!(answer.0, 502..=504) => return answer,
            Ok(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            Err(_) => {
                *connection = None;
                tally.lock().unwrap().retries += 1;
            }
        }
    }
}

/// Follows game `id` over the live channel until `stop` as the player holding `token` (who
/// counts as here meanwhile, as with the page), reconnecting with `Last-Event-ID`; each state
/// whose ply a move of the other player was sent for gives a latency.
async fn follow(
    address: String,
    id: String,
    token: String,
    me: &'static str,
    sent: Arc<Mutex<HashMap<u64, (Instant, &'static str)>>>,
    tally: Arc<Mutex<Tally>>,
    stop: Arc<AtomicBool>,
) {
    let mut last: Option<u64> = None;
    while !stop.load(Ordering::Relaxed) {
        let Ok(stream) = connect(&address).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut reader = BufReader::new(stream);
        let resume = last.map(|n| format!("Last-Event-ID: {n}\r\n")).unwrap_or_default();
        let head = format!(
            "GET /api/games/{id}/live HTTP/1.1\r\nHost: live\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n{resume}\r\n"
        );
        if reader.get_mut().write_all(head.as_bytes()).await.is_err() {
            continue;
        }
        let mut line = String::new();
        // The status line and headers.
        loop {
            line.clear();
            match reader.read_line(&mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) if line.trim_end().is_empty() => break,
                Ok(_) => {}
            }
        }
        // The chunked body: each chunk holds whole lines of events. Read as bytes into buffers
        // kept from chunk to chunk, and of each state only its ply: the players share the
        // machine with the servers, and the less they take of it the less they measure
        // themselves.
        let mut pending: Vec<u8> = Vec::new();
        let mut chunk: Vec<u8> = Vec::new();
        loop {
            line.clear();
            match reader.read_line(&mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let Ok(size) = usize::from_str_radix(line.trim(), 16) else { break };
            if size == 0 {
                break;
            }
            chunk.resize(size + 2, 0);
            if reader.read_exact(&mut chunk).await.is_err() {
                break;
            }
            pending.extend_from_slice(&chunk[..size]);
            let mut used = 0;
            while let Some(end) = pending[used..].windows(2).position(|w| w == b"\n\n") {
                let event = &pending[used..used + end];
                used += end + 2;
                let now = Instant::now();
                let mut state = false;
                let mut data: &[u8] = &[];
                for field in event.split(|&b| b == b'\n') {
                    if let Some(n) = field.strip_prefix(b"id: ") {
                        last = std::str::from_utf8(n).ok().and_then(|n| n.trim().parse().ok());
                    } else if field == b"event: state" {
                        state = true;
                    } else if let Some(d) = field.strip_prefix(b"data: ") {
                        data = d;
                    }
                }
                // The players' presence events are passed by.
                if !state {
                    continue;
                }
                let Ok(Seen { ply }) = serde_json::from_slice::<Seen>(data) else { continue };
                let mut sent = sent.lock().unwrap();
                if let Some((at, by)) = sent.get(&ply).copied() {
                    if by != me {
                        sent.remove(&ply);
                        let mut tally = tally.lock().unwrap();
                        let second = tally.began.map_or(0, |b| at.duration_since(b).as_millis() as u64);
                        tally.latency.push((second, now.duration_since(at).as_micros() as u64));
                    }
                }
            }
            pending.drain(..used);
        }
    }
}

/// What a live channel's state event is read for: its ply.
#[derive(serde::Deserialize)]
struct Seen {
    ply: u64,
}

/// What a player reads of a game's state to move; the rest is passed by unread.
#[derive(Default, serde::Deserialize)]
struct Turn {
    #[serde(default)]
    to_move: String,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    ply: u64,
    /// Null while the game is played.
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
}

impl Turn {
    fn read(body: &[u8]) -> Turn {
        serde_json::from_slice(body).unwrap_or_default()
    }
}

/// Plays one game between two players until `end`, a move a second: South through the first
/// server of `addresses`, North through the last.
async fn game(addresses: Arc<Mutex<Vec<String>>>, seed: u64, end: Instant, tally: Arc<Mutex<Tally>>) {
    let mut random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut below = move |n: usize| {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        (random % n.max(1) as u64) as usize
    };
    let at = |player: usize| {
        let addresses = addresses.lock().unwrap();
        addresses[player.min(addresses.len() - 1)].clone()
    };
    let mut connections = [None, None];
    let (status, created) = call(
        &mut connections[0],
        &at(0),
        "POST",
        "/api/games",
        None,
        Some(json!({"rules": "kalah(6,6) standard", "friend": true})),
        &tally,
    )
    .await;
    let created: Value = serde_json::from_slice(&created).unwrap_or(Value::Null);
    if status != 201 {
        eprintln!("live: a game was refused: {status} {created}");
        return;
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let tokens = [
        created["token"].as_str().unwrap_or_default().to_string(),
        created["invite"].as_str().unwrap_or_default().to_string(),
    ];
    let mut state: Turn = serde_json::from_value(created).unwrap_or_default();
    tally.lock().unwrap().acked.insert(id.clone(), Vec::new());
    let sent = Arc::new(Mutex::new(HashMap::new()));
    let stop = Arc::new(AtomicBool::new(false));
    for (player, me) in ["South", "North"].into_iter().enumerate() {
        let token = tokens[player].clone();
        tokio::spawn(follow(
            at(player),
            id.clone(),
            token,
            me,
            Arc::clone(&sent),
            Arc::clone(&tally),
            Arc::clone(&stop),
        ));
    }
    // The players' first moves are spread over the first second.
    tokio::time::sleep(Duration::from_millis(below(1000) as u64)).await;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let url = format!("/api/games/{id}");
    while Instant::now() < end && state.result.is_none() {
        tick.tick().await;
        let mover = if state.to_move == "North" { "North" } else { "South" };
        // The first player holds South (no swap in standard rules).
        let player = usize::from(mover == "North");
        let token = &tokens[player];
        if state.legal.is_empty() {
            break;
        }
        let action = state.legal[below(state.legal.len())].clone();
        let ply = state.ply;
        let body = json!({"action": action, "version": state.version, "request": format!("{id}-{ply}")});
        sent.lock().unwrap().insert(ply + 1, (Instant::now(), mover));
        let (status, next) = call(
            &mut connections[player],
            &at(player),
            "POST",
            &format!("{url}/move"),
            Some(token),
            Some(body),
            &tally,
        )
        .await;
        if status == 200 {
            if let Some(moves) = tally.lock().unwrap().acked.get_mut(&id) {
                moves.push(action);
            }
            state = Turn::read(&next);
        } else {
            eprintln!("live: a move was refused: {status} {}", String::from_utf8_lossy(&next));
            let (_, fresh) = call(&mut connections[player], &at(player), "GET", &url, None, None, &tally).await;
            state = Turn::read(&fresh);
        }
    }
    stop.store(true, Ordering::Relaxed);
}

/// Starts `kalah serve` on `port` (0: any) with its games in `db` and the `--serve` arguments;
/// returns it and its address.
fn start(kalah: &PathBuf, port: u16, db: &std::ffi::OsStr) -> (Child, String) {
    let mut child = Command::new(kalah)
        .args([
            "serve",
            "--no-egdb",
            "--port",
            &port.to_string(),
            "--max-games",
            "100000",
            "--max-connections",
            "100000",
        ])
        .args(["--client-requests", "100000", "--client-games", "100000", "--client-channels", "100000"])
        .args(["--client-connections", "100000", "--db"])
        .arg(db)
        .args(serve_args())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kalah serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
        .expect("kalah serve prints its address");
    // With --public-url the address served at follows the public one.
    let url =
        line.split_whitespace().rfind(|w| w.starts_with("http://") || w.starts_with("https://")).expect("an address");
    let url = url.trim_end_matches(')').trim_end_matches('/');
    (child, url.split_once("://").map_or(url, |(_, a)| a).to_string())
}

/// Returns the resident memory (MB) and the CPU time (seconds) of process `pid`.
fn usage(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks: f64 = fields.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (kb / 1024.0, ticks / 100.0)
}

/// The arguments given with `--serve`, for `kalah serve`.
fn serve_args() -> Vec<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2).filter(|w| w[0] == "--serve").map(|w| w[1].clone()).collect()
}

fn flag(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn number(name: &str, default: u64) -> u64 {
    flag(name).map_or(default, |v| {
        v.parse().unwrap_or_else(|_| {
            eprintln!("live: {name} takes a whole number");
            std::process::exit(2)
        })
    })
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

fn main() {
    let Some(kalah) = flag("--kalah").map(PathBuf::from) else {
        eprintln!(
            "live: give the kalah binary with --kalah PATH (cargo build --release -p kalah: target/release/kalah)"
        );
        std::process::exit(2)
    };
    let games = number("--games", 1000);
    let seconds = number("--seconds", 60);
    let kill = !std::env::args().any(|a| a == "--no-kill");
    let folder = std::env::temp_dir().join(format!("kalah-live-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let postgres = flag("--postgres");
    let db = match &postgres {
        Some(url) => std::ffi::OsString::from(url),
        None => folder.join("live.sqlite").into_os_string(),
    };
    let tls = flag("--tls").map(|ca| {
        let mut roots = rustls::RootCertStore::empty();
        for certificate in rustls_pki_types::CertificateDer::pem_file_iter(&ca).expect("--tls: a PEM file") {
            roots.add(certificate.expect("--tls: a certificate")).expect("--tls: a certificate rustls takes");
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = flag("--tls-name").unwrap_or_else(|| "localhost".to_string());
        let name = rustls_pki_types::ServerName::try_from(name).expect("--tls-name: a host name");
        (tokio_rustls::TlsConnector::from(Arc::new(config)), name)
    });
    let _ = PATH.set(Path { front: flag("--front"), tls });
    let (mut server, address) = start(&kalah, number("--port", 0) as u16, &db);
    let port: u16 = address.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port");
    // With PostgreSQL, North's server: never killed.
    let second = postgres.as_ref().map(|_| start(&kalah, 0, &db));
    let mut addresses = vec![address.clone()];
    addresses.extend(second.as_ref().map(|(_, a)| a.clone()));
    let through = match (&PATH.get().expect("set").front, flag("--tls")) {
        (Some(front), Some(_)) => format!(" through {front} (HTTPS)"),
        (Some(front), None) => format!(" through {front}"),
        (None, Some(_)) => " over HTTPS".to_string(),
        (None, None) => String::new(),
    };
    println!("live: {games} games for {seconds} s against kalah serve at {}{through}", addresses.join(" and "));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let tally = Arc::new(Mutex::new(Tally::default()));
    let shared = Arc::new(Mutex::new(addresses));
    let started = Instant::now();
    tally.lock().unwrap().began = Some(started);
    let end = started + Duration::from_secs(seconds);
    let mut peak = 0.0f64;
    let mut cpu = 0.0;
    let mut second_peak = 0.0f64;
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for seed in 0..games {
            tasks.push(tokio::spawn(game(Arc::clone(&shared), seed + 1, end, Arc::clone(&tally))));
        }
        let kill_at = started + Duration::from_secs(seconds / 3 + (std::process::id() as u64 % (seconds / 3).max(1)));
        let mut killed = !kill;
        while Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let (rss, time) = usage(server.id());
            peak = peak.max(rss);
            if let Some((other, _)) = &second {
                second_peak = second_peak.max(usage(other.id()).0);
            }
            if !killed && Instant::now() >= kill_at {
                cpu += time;
                let acked: usize = tally.lock().unwrap().acked.values().map(Vec::len).sum();
                server.kill().expect("kill -9");
                server.wait().expect("the server ends");
                println!(
                    "live: kill -9 at {:.1} s ({acked} moves acknowledged so far); starting again",
                    started.elapsed().as_secs_f64()
                );
                server = start(&kalah, port, &db).0;
                killed = true;
            }
        }
        for task in tasks {
            let _ = task.await;
        }
    });
    let (rss, time) = usage(server.id());
    peak = peak.max(rss);
    cpu += time;
    let second_cpu = second.as_ref().map_or(0.0, |(other, _)| usage(other.id()).1);
    // Every acknowledged move is on the server, in order, and no other. The live channels still
    // open may record a late move meanwhile: the tally is not held while the server is asked.
    let acknowledged = tally.lock().unwrap().acked.clone();
    let (found, lost, corrupted) = runtime.block_on(async {
        let (mut found, mut lost, mut corrupted) = (0usize, 0usize, 0usize);
        let scratch = Mutex::new(Tally::default());
        let mut connection = None;
        for (id, acked) in &acknowledged {
            let (status, body) =
                call(&mut connection, &address, "GET", &format!("/api/games/{id}"), None, None, &scratch).await;
            let state: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            if status != 200 {
                lost += 1;
                continue;
            }
            let moves: Vec<String> = state["moves"]
                .as_array()
                .map(|m| {
                    m.iter()
                        .filter(|m| m["played"] == true)
                        .map(|m| m["action"].as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default();
            found += moves.len();
            if &moves != acked {
                corrupted += 1;
            }
        }
        (found, lost, corrupted)
    });
    let tally = tally.lock().unwrap();
    let acked: usize = tally.acked.values().map(Vec::len).sum();
    let mut latency: Vec<u64> = tally.latency.iter().map(|&(_, l)| l).collect();
    latency.sort_unstable();
    println!(
        "live: {} games, {acked} moves acknowledged, {found} on the server, {lost} games lost, {corrupted} games differing; {} requests sent again",
        tally.acked.len(),
        tally.retries
    );
    println!(
        "live: move to the opponent's screen: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} moves",
        percentile(&latency, 0.5),
        percentile(&latency, 0.99),
        percentile(&latency, 1.0),
        latency.len()
    );
    // The tail over the run, ten seconds at a time: a slow start shows apart from the rest.
    let windows: Vec<String> = (0..seconds.div_ceil(10))
        .map(|w| {
            let mut part: Vec<u64> = tally.latency.iter().filter(|&&(s, _)| s / 10_000 == w).map(|&(_, l)| l).collect();
            part.sort_unstable();
            format!("{:.1}", percentile(&part, 0.99))
        })
        .collect();
    println!("live: p99 ten seconds at a time (ms): {}", windows.join(" "));
    // The first ten seconds, a second at a time: when every game starts at once.
    let start: Vec<String> = (0..10u64.min(seconds))
        .map(|w| {
            let mut part: Vec<u64> = tally.latency.iter().filter(|&&(s, _)| s / 1000 == w).map(|&(_, l)| l).collect();
            part.sort_unstable();
            format!("{:.1}", percentile(&part, 0.99))
        })
        .collect();
    println!("live: p99 in each of the first seconds (ms): {}", start.join(" "));
    println!("live: server memory peak {peak:.0} MB; CPU {cpu:.1} s over {:.1} s", started.elapsed().as_secs_f64());
    // The players' own share of the machine, which they share with the servers here.
    println!("live: the simulated players' CPU {:.1} s", usage(std::process::id()).1);
    if let Some((mut other, _)) = second {
        println!("live: second server memory peak {second_peak:.0} MB; CPU {second_cpu:.1} s");
        let _ = other.kill();
        let _ = other.wait();
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&folder);
}
