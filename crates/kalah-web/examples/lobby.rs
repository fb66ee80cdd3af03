//! A bounded load on the lobby, on loopback, against a real `kalah serve` process on an SQLite
//! file in a temporary folder: N players pick a name, each player's page follows the lobby's
//! live channel (`GET /api/lobby/live`), and pairs of players meet there: one offers a rated
//! challenge, the other accepts it (`--rate` acceptances a second), both open the game and play
//! it at a person's pace (a move after a think time, with the player's secret), each following
//! the game's own live channel as the page does, then meet again. The first `--games` pairs
//! start in a wave; the players left over pair among themselves while those games are played,
//! so that more challenges are accepted while `--games` games are in play.
//!
//! It measures, for each acceptance, the time from the accept request being sent to both
//! boards shown: the later of (a) the accepter's `GET /api/games/{id}` answered (after the
//! accept's answer) and (b) the maker's lobby channel delivering the `paired` event of its game
//! and the maker's `GET /api/games/{id}` answered. It also prints every other kind of request's
//! latency, the time from a challenge offered, or accepted, to each lobby page showing it, the
//! time from a move to the opponent's live channel showing it, every answer that was not a
//! success, the requests a second, the server's memory and CPU time and the generator's own CPU
//! time (the two share the machine).
//!
//! ```text
//! cargo build --release -p kalah
//! cargo run --release -p kalah-web --example lobby -- --kalah target/release/kalah [--players 1000] [--games 300]
//!     [--rate 30] [--seconds 60] [--think 3000] [--serve ARG]...
//! ```
//!
//! The figures of docs/web.md come from it.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// When the run began: every instant below is kept as microseconds since then.
static BEGAN: OnceLock<Instant> = OnceLock::new();

fn micros(at: Instant) -> u64 {
    at.duration_since(*BEGAN.get().expect("set first")).as_micros() as u64
}

/// What the run records.
#[derive(Default)]
struct Tally {
    /// Latencies in microseconds, by kind.
    latency: BTreeMap<&'static str, Vec<u64>>,
    /// Answers by kind of request and status.
    statuses: BTreeMap<(&'static str, u16), u64>,
    /// Each acceptance: when it was sent (ms into the run), (a), (b), and whether the wave's.
    accepted: Vec<(u64, u64, u64, bool)>,
    /// Requests that failed on the connection (sent again on a new one), and the shortest time
    /// such a connection had been left unused before.
    broken: u64,
    broken_idle: Option<Duration>,
    /// Lobby channels that fell behind and got the whole lobby again.
    resent: u64,
    /// Lobby channels that ended before the run did.
    closed: u64,
}

impl Tally {
    fn note(&mut self, kind: &'static str, micros: u64) {
        self.latency.entry(kind).or_default().push(micros);
    }
}

/// Where a lobby page sends the id of its player's game, and when the `paired` event came.
type Told = oneshot::Sender<(String, Instant)>;

/// One simulated player: its name, its secret, and what its lobby page waits for.
struct Player {
    name: String,
    secret: String,
    /// Set while the player's challenge waits to be accepted: its id, and where its lobby
    /// channel sends the game's id and when the `paired` event came.
    waiting: Mutex<Option<(String, Told)>>,
    /// When the player's last challenge was sent, and when the last one of theirs was accepted
    /// (microseconds into the run): each lobby page's delay is measured from them.
    offered: AtomicU64,
    accepted: AtomicU64,
}

/// Everything the tasks share.
struct Run {
    address: String,
    players: Vec<Player>,
    tally: Mutex<Tally>,
    /// Games being played now, and the most at once.
    playing: AtomicUsize,
    most: AtomicUsize,
    end: Instant,
    think: Duration,
    /// Set when the run ends: the channels close.
    stop: AtomicBool,
    stopped: tokio::sync::watch::Sender<bool>,
}

/// One keep-alive HTTP/1.1 connection.
struct Connection {
    stream: BufReader<TcpStream>,
    /// When its last answer came.
    used: Instant,
}

impl Connection {
    async fn open(address: &str) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Connection { stream: BufReader::new(stream), used: Instant::now() })
    }

    /// Sends a request and returns the status and the body.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        secret: Option<&str>,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = secret.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: lobby\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
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
        self.used = Instant::now();
        Ok((status, bytes))
    }
}

impl Run {
    /// Sends a request of kind `kind` on `connection` (opened again if it broke), records its
    /// latency and status, and returns the status and the JSON.
    async fn call(
        &self,
        connection: &mut Option<Connection>,
        kind: &'static str,
        method: &str,
        path: &str,
        secret: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        for _ in 0..5 {
            if connection.is_none() {
                match Connection::open(&self.address).await {
                    Ok(open) => *connection = Some(open),
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                }
            }
            let open = connection.as_mut().expect("opened above");
            let sent = Instant::now();
            match open.call(method, path, secret, body.as_ref()).await {
                Ok((status, bytes)) => {
                    let mut tally = self.tally.lock().unwrap();
                    tally.note(kind, sent.elapsed().as_micros() as u64);
                    *tally.statuses.entry((kind, status)).or_default() += 1;
                    return (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null));
                }
                Err(_) => {
                    let idle = connection.take().map_or(Duration::ZERO, |c| sent.duration_since(c.used));
                    let mut tally = self.tally.lock().unwrap();
                    tally.broken += 1;
                    tally.broken_idle = Some(tally.broken_idle.map_or(idle, |least| least.min(idle)));
                }
            }
        }
        (0, Value::Null)
    }
}

/// Follows the Server-Sent Events at `path` (with `secret`, if any) until the run stops or the
/// channel ends; gives each event's name and data to `seen`, with when it came.
async fn follow(
    run: &Run,
    path: &str,
    secret: Option<&str>,
    mut seen: impl FnMut(&[u8], &[u8], Instant),
) -> std::io::Result<()> {
    let stream = TcpStream::connect(&run.address).await?;
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream);
    let auth = secret.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let head = format!("GET {path} HTTP/1.1\r\nHost: lobby\r\n{auth}Accept: text/event-stream\r\n\r\n");
    reader.get_mut().write_all(head.as_bytes()).await?;
    let mut line = String::new();
    reader.read_line(&mut line).await?;
    if !line.contains(" 200 ") {
        return Err(std::io::Error::other(format!("{path}: {}", line.trim_end())));
    }
    loop {
        line.clear();
        match reader.read_line(&mut line).await? {
            0 => return Ok(()),
            _ if line.trim_end().is_empty() => break,
            _ => {}
        }
    }
    // The chunked body, read as bytes into buffers kept from chunk to chunk: the generator shares
    // the machine with the server, and the less it takes the less it measures itself.
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk: Vec<u8> = Vec::new();
    while !run.stop.load(Ordering::Relaxed) {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let Ok(size) = usize::from_str_radix(line.trim(), 16) else { return Ok(()) };
        if size == 0 {
            return Ok(());
        }
        chunk.resize(size + 2, 0);
        reader.read_exact(&mut chunk).await?;
        pending.extend_from_slice(&chunk[..size]);
        let now = Instant::now();
        let mut used = 0;
        while let Some(end) = pending[used..].windows(2).position(|w| w == b"\n\n") {
            let event = &pending[used..used + end];
            used += end + 2;
            let (mut name, mut data): (&[u8], &[u8]) = (b"message", &[]);
            for field in event.split(|&b| b == b'\n') {
                if let Some(n) = field.strip_prefix(b"event: ") {
                    name = n;
                } else if let Some(d) = field.strip_prefix(b"data: ") {
                    data = d;
                }
            }
            if !data.is_empty() {
                seen(name, data, now);
            }
        }
        pending.drain(..used);
    }
    Ok(())
}

/// Returns the text of the JSON string field `"key":"…"` in `data` (or the first string of the
/// list `"key":["…"`), without reading the rest.
fn field<'a>(data: &'a [u8], key: &str) -> Option<&'a str> {
    let pattern = format!("\"{key}\":\"");
    let list = format!("\"{key}\":[\"");
    let find = |pattern: &str| Some(data.windows(pattern.len()).position(|w| w == pattern.as_bytes())? + pattern.len());
    let at = find(&pattern).or_else(|| find(&list))?;
    let len = data[at..].iter().position(|&b| b == b'"')?;
    std::str::from_utf8(&data[at..at + len]).ok()
}

/// The index of a player from its name (`p0042`: 42).
fn index(name: &str) -> Option<usize> {
    name.strip_prefix('p')?.parse().ok()
}

/// What a lobby page records of the events it is sent.
#[derive(Default)]
struct Page {
    offered: Vec<u64>,
    accepted: Vec<u64>,
}

/// Player `me`'s page following the lobby until the run stops: its opening (the request to the
/// first event), each challenge offered and accepted as it shows them, and, when its own
/// challenge is accepted, the game's id handed to the pair's task.
async fn lobby_page(run: Arc<Run>, me: usize) {
    let mut page = Page::default();
    let opened = Instant::now();
    let mut first = true;
    let mut resent = 0;
    let mut stopped = run.stopped.subscribe();
    let following = follow(&run, "/api/lobby/live", None, |event, data, now| {
        let at = micros(now);
        match event {
            b"lobby" if first => {
                first = false;
                run.tally.lock().unwrap().note("lobby channel opened", now.duration_since(opened).as_micros() as u64);
            }
            b"lobby" => resent += 1,
            b"challenge" => {
                if let Some(by) = field(data, "by").and_then(index).and_then(|i| run.players.get(i)) {
                    page.offered.push(at.saturating_sub(by.offered.load(Ordering::Relaxed)));
                }
            }
            b"paired" => {
                let Some(challenge) = field(data, "challenge") else { return };
                let Some(game) = field(data, "game") else { return };
                // Either player's name gives the acceptance's time: the first one listed.
                if let Some(p) = field(data, "names").and_then(index).and_then(|i| run.players.get(i)) {
                    page.accepted.push(at.saturating_sub(p.accepted.load(Ordering::Relaxed)));
                }
                let mine = &run.players[me];
                let mut waiting = mine.waiting.lock().unwrap();
                if waiting.as_ref().is_some_and(|(id, _)| id == challenge) {
                    let (_, told) = waiting.take().expect("checked");
                    let _ = told.send((game.to_string(), now));
                }
            }
            _ => {}
        }
    });
    let followed = tokio::select! {
        followed = following => followed,
        _ = stopped.wait_for(|stop| *stop) => Ok(()),
    };
    let mut tally = run.tally.lock().unwrap();
    tally.resent += resent;
    if let Err(e) = followed {
        if !run.stop.load(Ordering::Relaxed) {
            eprintln!("lobby: a lobby channel failed: {e}");
        }
    }
    if !run.stop.load(Ordering::Relaxed) {
        tally.closed += 1;
    }
    tally.latency.entry("challenge to each lobby page").or_default().extend(page.offered);
    tally.latency.entry("acceptance to each lobby page").or_default().extend(page.accepted);
}

/// What a game's live channel is read for: its ply.
#[derive(serde::Deserialize)]
struct Seen {
    ply: u64,
}

/// What a player reads of a game's state to move.
#[derive(Default, serde::Deserialize)]
struct Turn {
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    ply: u64,
    /// The players' names by side.
    #[serde(default)]
    names: HashMap<String, Value>,
    /// Null while the game is played.
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
}

/// A small generator of random numbers (xorshift).
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// The pair of players `maker` and `accepter` meet in the lobby from `first` on, play their
/// game, and meet again until the run ends; `wave`: one of the first `--games` pairs.
async fn pair(run: Arc<Run>, maker: usize, accepter: usize, first: Instant, mut wave: bool) {
    let mut random = Random((maker as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut connections: [Option<Connection>; 2] = [None, None];
    let seats = [maker, accepter];
    let secrets = seats.map(|i| run.players[i].secret.clone());
    tokio::time::sleep_until(tokio::time::Instant::from_std(first)).await;
    while Instant::now() < run.end {
        let (m, a) = (&run.players[maker], &run.players[accepter]);
        let offer =
            json!({ "rules": "kalah(6,4) standard", "rated": true, "clock": { "seconds": 600, "increment": 5 } });
        m.offered.store(micros(Instant::now()), Ordering::Relaxed);
        let (status, made) = run
            .call(
                &mut connections[0],
                "offer a challenge",
                "POST",
                "/api/lobby/challenges",
                Some(&secrets[0]),
                Some(offer),
            )
            .await;
        let Some(challenge) = made["challenge"]["id"].as_str().filter(|_| status == 201).map(String::from) else {
            eprintln!("lobby: a challenge was refused: {status} {made}");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let (told, paired) = oneshot::channel();
        *m.waiting.lock().unwrap() = Some((challenge.clone(), told));
        // The accepter sees the challenge in the lobby and takes it: in the wave at once (the
        // wave's pace is --rate), later after a person's moment.
        if !wave {
            tokio::time::sleep(Duration::from_millis(300 + random.below(700))).await;
        }
        let sent = Instant::now();
        m.accepted.store(micros(sent), Ordering::Relaxed);
        a.accepted.store(micros(sent), Ordering::Relaxed);
        let accept = format!("/api/lobby/challenges/{challenge}/accept");
        let [to_maker, to_accepter] = &mut connections;
        let accepting = async {
            let (status, answer) =
                run.call(to_accepter, "accept a challenge", "POST", &accept, Some(&secrets[1]), None).await;
            let game = answer["game"].as_str().filter(|_| status == 201)?.to_string();
            let url = format!("/api/games/{game}");
            let (status, state) = run.call(to_accepter, "open the game", "GET", &url, Some(&secrets[1]), None).await;
            (status == 200).then(|| (game, sent.elapsed(), state))
        };
        let shown = async {
            let (game, told) = tokio::time::timeout(Duration::from_secs(30), paired).await.ok()?.ok()?;
            let url = format!("/api/games/{game}");
            let (status, _) = run.call(to_maker, "open the game", "GET", &url, Some(&secrets[0]), None).await;
            (status == 200).then(|| (told.duration_since(sent), sent.elapsed()))
        };
        let (accepted, shown) = tokio::join!(accepting, shown);
        let in_wave = std::mem::replace(&mut wave, false);
        let (Some((game, a_shown, state)), Some((event, b_shown))) = (accepted, shown) else {
            eprintln!("lobby: an acceptance did not reach both boards");
            m.waiting.lock().unwrap().take();
            continue;
        };
        {
            let mut tally = run.tally.lock().unwrap();
            tally.note("paired event at the maker's page", event.as_micros() as u64);
            let at = micros(sent) / 1000;
            tally.accepted.push((at, a_shown.as_micros() as u64, b_shown.as_micros() as u64, in_wave));
        }
        let now = run.playing.fetch_add(1, Ordering::Relaxed) + 1;
        run.most.fetch_max(now, Ordering::Relaxed);
        play(
            &run,
            &game,
            seats,
            &secrets,
            &mut connections,
            serde_json::from_value(state).unwrap_or_default(),
            &mut random,
        )
        .await;
        run.playing.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Plays game `id` between the players `seats` (the maker, the accepter) until it ends or the run
/// does: each follows the game's live channel with its secret, as the page does, and the one to
/// move moves after a think time.
async fn play(
    run: &Arc<Run>,
    id: &str,
    seats: [usize; 2],
    secrets: &[String; 2],
    connections: &mut [Option<Connection>; 2],
    mut state: Turn,
    random: &mut Random,
) {
    // The ply each move was sent for, when, and by whom: the opponent's channel measures it.
    let sent: Arc<Mutex<HashMap<u64, (Instant, usize)>>> = Arc::default();
    let live = format!("/api/games/{id}/live");
    let followers: Vec<_> = (0..2)
        .map(|me| {
            let (run, sent, live, secret) = (Arc::clone(run), Arc::clone(&sent), live.clone(), secrets[me].clone());
            tokio::spawn(async move {
                let _ = follow(&run, &live, Some(&secret), |event, data, now| {
                    if event != b"state" {
                        return;
                    }
                    let Ok(Seen { ply }) = serde_json::from_slice::<Seen>(data) else { return };
                    let mut sent = sent.lock().unwrap();
                    if let Some(&(at, by)) = sent.get(&ply) {
                        if by != me {
                            sent.remove(&ply);
                            run.tally
                                .lock()
                                .unwrap()
                                .note("move to the opponent's live channel", now.duration_since(at).as_micros() as u64);
                        }
                    }
                })
                .await;
            })
        })
        .collect();
    let url = format!("/api/games/{id}/move");
    let south = state.names.get("south").and_then(Value::as_str).map(str::to_string);
    while Instant::now() < run.end && state.result.is_none() && !state.legal.is_empty() {
        let think = run.think.as_millis() as u64;
        tokio::time::sleep(Duration::from_millis(think / 2 + random.below(think + 1))).await;
        if Instant::now() >= run.end {
            break;
        }
        let south_moves = state.to_move.as_deref() == Some("South");
        let holds_south = usize::from(south.as_deref() != Some(run.players[seats[0]].name.as_str()));
        let mover = if south_moves { holds_south } else { 1 - holds_south };
        let action = state.legal[random.below(state.legal.len() as u64) as usize].clone();
        let body = json!({ "action": action, "version": state.version, "request": format!("{id}-{}", state.ply) });
        sent.lock().unwrap().insert(state.ply + 1, (Instant::now(), mover));
        let (status, next) =
            run.call(&mut connections[mover], "move", "POST", &url, Some(&secrets[mover]), Some(body)).await;
        if status != 200 {
            let game = format!("/api/games/{id}");
            let (_, fresh) =
                run.call(&mut connections[mover], "open the game", "GET", &game, Some(&secrets[mover]), None).await;
            state = serde_json::from_value(fresh).unwrap_or_default();
            continue;
        }
        state = serde_json::from_value(next).unwrap_or_default();
    }
    for follower in followers {
        follower.abort();
    }
}

/// Starts `kalah serve` with its games in `db` and the `--serve` arguments; returns it and its
/// address.
fn start(kalah: &PathBuf, db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(kalah)
        .args(["serve", "--no-egdb", "--port", "0", "--max-games", "100000", "--max-connections", "100000"])
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
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("an address");
    (child, url.trim_start_matches("http://").trim_end_matches('/').to_string())
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

/// The machine's load average over the last minute (Linux).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().next().unwrap_or("?").to_string()
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
            eprintln!("lobby: {name} takes a whole number");
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

/// Prints one line of percentiles (ms) of `latencies` (µs).
fn line(kind: &str, latencies: &[u64]) {
    let mut sorted = latencies.to_vec();
    sorted.sort_unstable();
    println!(
        "{kind:<38} {:>8} {:>8.1} {:>8.1} {:>8.1} {:>8.1}",
        sorted.len(),
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.9),
        percentile(&sorted, 0.99),
        percentile(&sorted, 1.0)
    );
}

fn main() {
    let Some(kalah) = flag("--kalah").map(PathBuf::from) else {
        eprintln!(
            "lobby: give the kalah binary with --kalah PATH (cargo build --release -p kalah: target/release/kalah)"
        );
        std::process::exit(2)
    };
    let players = number("--players", 1000) as usize;
    let games = number("--games", 300) as usize;
    let rate = number("--rate", 30).max(1);
    let seconds = number("--seconds", 60);
    let think = Duration::from_millis(number("--think", 3000));
    if 2 * games > players || players > 9999 {
        eprintln!("lobby: --games N needs 2N players or more (--players, at most 9999)");
        std::process::exit(2)
    }
    let folder = tempfile::tempdir().expect("a temporary folder");
    let (mut server, address) = start(&kalah, &folder.path().join("lobby.sqlite"));
    let pid = server.id();
    let load_before = load_average();
    println!(
        "lobby: {players} players, {games} games in a wave at {rate} acceptances a second, then {seconds} s of play (think {} ms) against kalah serve at {address}; load average {load_before}",
        think.as_millis()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let began = Instant::now();
    BEGAN.set(began).expect("set once");
    runtime.block_on(async move {
        // Every player picks a name, sixteen at a time.
        let tally = Mutex::new(Tally::default());
        let mut run = Run {
            address: address.clone(),
            players: Vec::new(),
            tally,
            playing: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            end: began,
            think,
            stop: AtomicBool::new(false),
            stopped: tokio::sync::watch::channel(false).0,
        };
        let names: Vec<String> = (0..players).map(|i| format!("p{i:04}")).collect();
        let mut secrets: Vec<String> = vec![String::new(); players];
        {
            let run = &run;
            let registered = futures_util::future::join_all((0..16).map(|lane| {
                let names = &names;
                async move {
                    let mut connection = None;
                    let mut mine = Vec::new();
                    for i in (lane..names.len()).step_by(16) {
                        let body = json!({ "name": names[i] });
                        let (status, answer) =
                            run.call(&mut connection, "pick a name", "POST", "/api/players", None, Some(body)).await;
                        assert_eq!(status, 201, "{answer}");
                        mine.push((i, answer["secret"].as_str().expect("a secret").to_string()));
                    }
                    mine
                }
            }))
            .await;
            for (i, secret) in registered.into_iter().flatten() {
                secrets[i] = secret;
            }
        }
        run.players = names
            .into_iter()
            .zip(secrets)
            .map(|(name, secret)| Player {
                name,
                secret,
                waiting: Mutex::new(None),
                offered: AtomicU64::new(0),
                accepted: AtomicU64::new(0),
            })
            .collect();
        // Each page asks who its player is, then follows the lobby.
        let opening = Instant::now();
        {
            let run = &run;
            futures_util::future::join_all((0..16).map(|lane| async move {
                let mut connection = None;
                for i in (lane..players).step_by(16) {
                    let secret = run.players[i].secret.clone();
                    let (status, _) = run.call(&mut connection, "who am I", "GET", "/api/me", Some(&secret), None).await;
                    assert_eq!(status, 200);
                }
            }))
            .await;
        }
        let wave_at = Instant::now() + Duration::from_secs(3);
        run.end = wave_at + Duration::from_secs(games as u64 / rate) + Duration::from_secs(seconds);
        let run = Arc::new(run);
        let pages: Vec<_> = (0..players).map(|i| tokio::spawn(lobby_page(Arc::clone(&run), i))).collect();
        // Every page is following the lobby before the wave.
        while run.tally.lock().unwrap().latency.get("lobby channel opened").map_or(0, Vec::len) < players {
            if Instant::now() > wave_at + Duration::from_secs(30) {
                eprintln!("lobby: not every lobby channel opened");
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let opened = opening.elapsed();
        let wave_at = wave_at.max(Instant::now());
        // The wave: maker i and accepter games + i, one pair every 1/rate seconds; then the
        // players left over pair among themselves, spread over the first half of the play.
        let step = Duration::from_secs_f64(1.0 / rate as f64);
        let mut pairs = Vec::new();
        for i in 0..games {
            let at = wave_at + step * i as u32;
            pairs.push(tokio::spawn(pair(Arc::clone(&run), i, games + i, at, true)));
        }
        let wave_end = wave_at + step * games as u32;
        let rest = (players - 2 * games) / 2;
        for j in 0..rest {
            let at = wave_end + Duration::from_secs(seconds) / 2 * j as u32 / rest.max(1) as u32;
            let (m, a) = (2 * games + 2 * j, 2 * games + 2 * j + 1);
            pairs.push(tokio::spawn(pair(Arc::clone(&run), m, a, at, false)));
        }
        let (mut peak, mut in_play_after_wave) = (0.0f64, None);
        // The server's CPU time until the wave's last game is shown (its pages opened before).
        let mut by_wave: Option<(f64, f64, f64)> = None;
        let mut least_in_play = usize::MAX;
        while Instant::now() < run.end {
            tokio::time::sleep(Duration::from_millis(500)).await;
            peak = peak.max(usage(pid).0);
            let now = Instant::now();
            if now > wave_end + Duration::from_secs(2) {
                let playing = run.playing.load(Ordering::Relaxed);
                in_play_after_wave.get_or_insert(playing);
                by_wave.get_or_insert_with(|| (usage(pid).1, usage(std::process::id()).1, began.elapsed().as_secs_f64()));
                if now + Duration::from_secs(1) < run.end {
                    least_in_play = least_in_play.min(playing);
                }
            }
        }
        for pair in pairs {
            let _ = pair.await;
        }
        run.stop.store(true, Ordering::Relaxed);
        let _ = run.stopped.send(true);
        for page in pages {
            let _ = page.await;
        }
        let elapsed = began.elapsed().as_secs_f64();
        let (rss, cpu) = usage(pid);
        peak = peak.max(rss);
        let tally = run.tally.lock().unwrap();
        let requests: usize = tally.statuses.values().map(|&n| n as usize).sum();
        println!(
            "lobby: {players} names picked and {players} lobby channels opened in {:.1} s; {} acceptances; games in play at once: {} after the wave, {} at least after it, {} at most",
            opened.as_secs_f64(),
            tally.accepted.len(),
            in_play_after_wave.unwrap_or(0),
            if least_in_play == usize::MAX { 0 } else { least_in_play },
            run.most.load(Ordering::Relaxed)
        );
        println!("lobby: {requests} requests in {elapsed:.1} s, {:.0} a second", requests as f64 / elapsed);
        println!("{:<38} {:>8} {:>8} {:>8} {:>8} {:>8}", "latency", "count", "p50 ms", "p90 ms", "p99 ms", "max ms");
        let both: Vec<u64> = tally.accepted.iter().map(|&(_, a, b, _)| a.max(b)).collect();
        line("ACCEPTANCE TO BOTH BOARDS", &both);
        let wave: Vec<u64> = tally.accepted.iter().filter(|a| a.3).map(|&(_, a, b, _)| a.max(b)).collect();
        line("  in the wave", &wave);
        let later: Vec<u64> = tally.accepted.iter().filter(|a| !a.3).map(|&(_, a, b, _)| a.max(b)).collect();
        line("  while games are played", &later);
        line("  (a) the accepter's board", &tally.accepted.iter().map(|a| a.1).collect::<Vec<_>>());
        line("  (b) the maker's board", &tally.accepted.iter().map(|a| a.2).collect::<Vec<_>>());
        for (kind, latencies) in &tally.latency {
            line(kind, latencies);
        }
        let others: Vec<String> = tally
            .statuses
            .iter()
            .filter(|((_, status), _)| !matches!(status, 200 | 201 | 204))
            .map(|((kind, status), n)| format!("{kind} {status}: {n}"))
            .collect();
        println!(
            "lobby: not a success: {}; {} requests sent again on a new connection (the server had closed it, unused for {:.1} s or more); {} lobby channels sent the whole lobby again; {} ended early",
            if others.is_empty() { "none".to_string() } else { others.join(", ") },
            tally.broken,
            tally.broken_idle.unwrap_or_default().as_secs_f64(),
            tally.resent,
            tally.closed
        );
        println!("lobby: server memory {rss:.0} MB at the end, {peak:.0} MB at the most; server CPU {cpu:.1} s over {elapsed:.1} s");
        if let Some((server, generator, at)) = by_wave {
            println!("lobby: by the wave's end ({at:.1} s into the run): server CPU {server:.1} s, the generator's {generator:.1} s");
        }
        // The generator's own share of the machine, which it shares with the server.
        println!(
            "lobby: the generator's CPU {:.1} s; load average {load_before} before, {} at the end",
            usage(std::process::id()).1,
            load_average()
        );
    });
    let _ = server.kill();
    let _ = server.wait();
}
