//! A load generator for the KGP server: it starts a server on loopback with a database in a
//! temporary folder, connects AGENTS agents at once over TCP, each asking for a bot and playing
//! random legal moves for GAMES games, and reports the server's own time per move, its memory,
//! and whether every game and move reached the database. Bounded: the agents play a fixed number
//! of games and the run ends by itself.
//!
//! ```text
//! cargo run --release -p kalah-kgp-server --example kgp_load -- [AGENTS] [GAMES] [BOT] [THINK]
//! ```
//!
//! Each agent thinks a random time from 0 to twice THINK milliseconds (default 100; 0 answers at
//! once, which makes the run a closed loop that measures the server's throughput rather than its
//! response), then sends its move and `yield` in one write. The server's time per move is
//! measured at the agent from that write to the next `state`: the agent's thinking is excluded,
//! and what remains is the server's work on the move (the session, the database write before the
//! game goes on), the bot's reply with its own database write, and loopback. A game's last move
//! has no next state and is not counted.

use std::time::{Duration, Instant};

use kalah_kgp_server::{Bot, Config, Reader, Server};
use rand::Rng;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Plays `games` games as one agent; returns the times from a move sent to the next state.
async fn agent(address: std::net::SocketAddr, n: usize, bot: Bot, games: u32, think: u64) -> (Vec<Duration>, u32) {
    let stream = TcpStream::connect(address).await.expect("the server accepts");
    stream.set_nodelay(true).expect("no delay");
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let mut times = Vec::new();
    let mut sent: Option<Instant> = None;
    let mut next_id = 1u64;
    let mut game_ids = 0;
    while let Some(line) = lines.next_line().await.expect("a line") {
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        let (id, command) = if head.starts_with(|c: char| c.is_ascii_digit()) {
            (head.split('@').next().unwrap_or("").to_string(), words.next().unwrap_or(""))
        } else {
            (String::new(), head)
        };
        let mut out = String::new();
        match command {
            "kgp" => {
                out = format!("1 set info:name \"load-{n} vs {bot}\"\r\n3 mode freeplay\r\n");
                next_id = 5;
            }
            "set" if line.contains("game:id") => game_ids += 1,
            "state" => {
                if let Some(at) = sent.take() {
                    times.push(at.elapsed());
                }
                let board: Vec<u32> = words
                    .next()
                    .unwrap_or("<>")
                    .trim_matches(['<', '>'])
                    .split(',')
                    .filter_map(|x| x.parse().ok())
                    .collect();
                let m = board[0] as usize;
                let legal: Vec<usize> = (0..m).filter(|&i| board[3 + i] > 0).collect();
                let (house, pause) = {
                    let mut rng = rand::thread_rng();
                    (legal[rng.gen_range(0..legal.len())] + 1, rng.gen_range(0..=2 * think))
                };
                tokio::time::sleep(Duration::from_millis(pause)).await;
                out = format!("{}@{id} move {house}\r\n{}@{id} yield\r\n", next_id, next_id + 2);
                next_id += 4;
                sent = Some(Instant::now());
            }
            // A new game starts with game:id; the last move of a game has no next state here.
            "stop" => {}
            "ping" => {
                out = format!("{next_id}@{id} pong\r\n");
                next_id += 2;
            }
            "goodbye" => break,
            _ => {}
        }
        if command == "set" && line.contains("game:id") {
            // The time since the last move spans the game's end and the next game's start.
            sent = None;
        }
        if !out.is_empty() {
            write.write_all(out.as_bytes()).await.expect("the server reads");
        }
    }
    (times, game_ids.min(games))
}

/// The resident memory of this process, in MiB, from /proc (Linux).
fn resident_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let agents: usize = args.first().map_or(200, |a| a.parse().expect("AGENTS is a number"));
    let games: u32 = args.get(1).map_or(5, |a| a.parse().expect("GAMES is a number"));
    let bot: Bot = args.get(2).map_or("random", String::as_str).parse().expect("BOT is a bot's name");
    let think: u64 = args.get(3).map_or(100, |a| a.parse().expect("THINK is a number of milliseconds"));
    let dir = std::env::temp_dir().join(format!("kalah-kgp-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let db = dir.join("load.sqlite");
    let mut config = Config::new(db.clone());
    config.tcp = Some(([127, 0, 0, 1], 0).into());
    config.websocket = None;
    config.games = Some(games);
    config.wait = Duration::ZERO;
    let (events, mut log) = tokio::sync::mpsc::unbounded_channel();
    let server = Server::start(config, events).await.expect("the server starts");
    let address = server.tcp_address().expect("a TCP listener");
    let printer = tokio::spawn(async move {
        let mut trouble = 0;
        while let Some(event) = log.recv().await {
            if matches!(event, kalah_kgp_server::Event::Trouble(_)) {
                eprintln!("{event}");
                trouble += 1;
            }
        }
        trouble
    });
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    let tasks: Vec<_> = (0..agents).map(|n| tokio::spawn(agent(address, n, bot, games, think))).collect();
    let mut times = Vec::new();
    let mut played = 0;
    for task in tasks {
        let (t, g) = task.await.expect("an agent ran");
        times.extend(t);
        played += g;
    }
    let wall = started.elapsed();
    let cpu = cpu_seconds() - cpu_before;
    server.shutdown().await;
    let trouble = printer.await.unwrap_or(0);
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    let reader = Reader::open(&db).expect("the database reads");
    let stored = reader.games(None, None).expect("the games");
    let finished = stored.iter().filter(|g| g.state.ends_with("won") || g.state == "draw").count();
    let stored_moves: u32 = stored.iter().map(|g| g.moves).sum();
    let complete = stored
        .iter()
        .all(|g| kalah_rules::Record::parse(&g.record).is_ok_and(|r| r.record.game.actions().len() as u32 == g.moves));
    println!(
        "{agents} agents, {games} games each against {bot}, thinking 0-{} ms: {played} games played in {:.1} s wall, \
         {cpu:.1} s CPU",
        2 * think,
        wall.as_secs_f64()
    );
    println!(
        "server time per move (state -> move -> next state), {} moves: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3)
    );
    println!("peak resident memory of the process (server and agents): {:.0} MiB", resident_mib().unwrap_or(f64::NAN));
    println!(
        "database: {} games stored ({finished} played out), {stored_moves} moves; every record replays to its stored moves: {complete}; troubles: {trouble}",
        stored.len()
    );
    drop(reader);
    let _ = std::fs::remove_dir_all(&dir);
    if stored.len() as u32 != played || !complete || trouble > 0 {
        eprintln!("load: something was lost");
        std::process::exit(1);
    }
}

/// User and system CPU seconds of this process so far, from /proc (Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
