//! A bounded load on the web server over loopback: N games for T seconds, each a person playing
//! random moves (after a think time) against a level-1 or level-2 engine, asking for a hint now
//! and then and for the evaluation after most moves, as the page does. It prints the requests a
//! second, the latency percentiles by kind of request, every status that was not a success, and
//! the process's memory (the server and this generator, which holds little).
//!
//! ```text
//! cargo run --release -p kalah-web --example load -- [--games 300] [--seconds 60] [--think 1000] [--searches N]
//! ```
//!
//! The figures of docs/web.md come from it.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kalah_web::{App, Config};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Latencies in microseconds and statuses, by kind of request.
#[derive(Default)]
struct Tally {
    latency: BTreeMap<&'static str, Vec<u64>>,
    statuses: BTreeMap<(&'static str, u16), u64>,
    games: u64,
}

/// One keep-alive HTTP/1.1 connection to the server.
struct Connection {
    stream: BufReader<TcpStream>,
    /// The token of the game being played (sent with every request: the creator's page does so).
    token: Option<String>,
}

impl Connection {
    async fn open(address: SocketAddr) -> Connection {
        let stream = TcpStream::connect(address).await.expect("the server listens");
        stream.set_nodelay(true).expect("no delay");
        Connection { stream: BufReader::new(stream), token: None }
    }

    /// Sends a request and returns the status, the `Retry-After` seconds and the JSON body.
    async fn call(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, u64, Value) {
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = self.token.as_ref().map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: load\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await.expect("a request is sent");
        stream.write_all(body.as_bytes()).await.expect("a request is sent");
        let mut line = String::new();
        self.stream.read_line(&mut line).await.expect("a status line");
        let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
        let (mut length, mut retry) = (0, 0);
        loop {
            line.clear();
            self.stream.read_line(&mut line).await.expect("a header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').expect("a header line");
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().expect("a length"),
                "retry-after" => retry = value.trim().parse().unwrap_or(1),
                _ => {}
            }
        }
        let mut bytes = vec![0; length];
        self.stream.read_exact(&mut bytes).await.expect("the body");
        (status, retry, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }
}

/// A small generator of random numbers, one per game (xorshift).
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Plays games one after another until `end`, recording every request in `tally`.
async fn player(address: SocketAddr, seed: u64, end: Instant, think: Duration, tally: Arc<Mutex<Tally>>) {
    let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut connection = Connection::open(address).await;
    let mut call = async |kind: &'static str, method: &str, path: &str, body: Option<Value>| {
        let started = Instant::now();
        let answer = connection.call(method, path, body.as_ref()).await;
        if kind == "new game" {
            connection.token = answer.2["token"].as_str().map(str::to_string);
        }
        let mut tally = tally.lock().unwrap();
        tally.latency.entry(kind).or_default().push(started.elapsed().as_micros() as u64);
        *tally.statuses.entry((kind, answer.0)).or_default() += 1;
        answer
    };
    while Instant::now() < end {
        let level = 1 + seed % 2;
        let body = json!({"rules": "kalah(6,4) standard", "south": "human", "north": format!("engine:{level}")});
        let (status, _, mut state) = call("new game", "POST", "/api/games", Some(body)).await;
        if status != 201 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        let url = format!("/api/games/{}", state["id"].as_str().expect("an id"));
        while Instant::now() < end && state["result"].is_null() {
            let (status, retry, next) = if state["engine_to_move"] == true {
                call("engine move", "POST", &format!("{url}/engine"), None).await
            } else {
                let jitter = think.as_millis() as u64 / 2;
                tokio::time::sleep(think / 2 + Duration::from_millis(random.below(2 * jitter + 1))).await;
                if random.below(10) == 0 {
                    call("hint", "GET", &format!("{url}/hint"), None).await;
                }
                let legal = state["legal"].as_array().expect("the legal actions").clone();
                let action = &legal[random.below(legal.len() as u64) as usize];
                call("person's move", "POST", &format!("{url}/move"), Some(json!({"action": action}))).await
            };
            match status {
                200 => state = next,
                503 => tokio::time::sleep(Duration::from_secs(retry.max(1))).await,
                _ => break,
            }
            if state["engine_to_move"] == false && random.below(4) != 0 {
                call("analysis", "GET", &format!("{url}/analysis"), None).await;
            }
        }
        if !state["result"].is_null() {
            tally.lock().unwrap().games += 1;
        }
        call("close", "DELETE", &url, None).await;
    }
}

/// Returns the resident memory of this process in MB (Linux), or 0 where it cannot be read.
fn resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

fn flag(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("load: {name} takes a whole number");
            std::process::exit(2)
        }),
        None => default,
    }
}

fn main() {
    let games = flag("--games", 300);
    let seconds = flag("--seconds", 60);
    let think = Duration::from_millis(flag("--think", 1000));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let searches = flag("--searches", cores) as usize;
    let config = Config {
        engine_time: Duration::from_millis(1000),
        searches,
        table_bytes: 16 << 20,
        databases: None,
        max_games: 1000,
        idle: Duration::from_secs(1800),
        // One loopback address plays every game.
        clients: kalah_host::ClientLimits {
            requests_per_second: 100_000,
            games_per_minute: 100_000,
            channels: 100_000,
        },
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let address = listener.local_addr().expect("an address");
        let app = Arc::new(App::new(&config).unwrap());
        tokio::spawn(kalah_web::serve(listener, app, std::future::pending()));
        let tally = Arc::new(Mutex::new(Tally::default()));
        let started = Instant::now();
        let end = started + Duration::from_secs(seconds);
        let players: Vec<_> = (0..games)
            .map(|seed| tokio::spawn(player(address, seed + 1, end, think, Arc::clone(&tally))))
            .collect();
        let mut peak: f64 = 0.0;
        while Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(500)).await;
            peak = peak.max(resident_mb());
        }
        for player in players {
            player.await.expect("a player ends");
        }
        let elapsed = started.elapsed().as_secs_f64();
        let tally = tally.lock().unwrap();
        let total: usize = tally.latency.values().map(Vec::len).sum();
        println!(
            "{games} games for {seconds} s, {searches} searches at once, think time {} ms: {total} requests, {:.0} a second, {} games finished",
            think.as_millis(),
            total as f64 / elapsed,
            tally.games
        );
        println!("{:<15} {:>8} {:>9} {:>9} {:>9} {:>9}", "request", "count", "p50 ms", "p90 ms", "p99 ms", "max ms");
        for (kind, latencies) in &tally.latency {
            let mut sorted = latencies.clone();
            sorted.sort_unstable();
            let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
            println!(
                "{kind:<15} {:>8} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
                sorted.len(),
                at(0.5),
                at(0.9),
                at(0.99),
                at(1.0)
            );
        }
        let others: Vec<String> = tally
            .statuses
            .iter()
            .filter(|((_, status), _)| !matches!(status, 200 | 201 | 204))
            .map(|((kind, status), n)| format!("{kind} {status}: {n}"))
            .collect();
        println!("not a success: {}", if others.is_empty() { "none".to_string() } else { others.join(", ") });
        println!("memory: {:.0} MB resident at the end, {:.0} MB at the most", resident_mb(), peak);
    });
}
