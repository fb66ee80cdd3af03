//! A burst of sign-ins against a real server on loopback: `--names` names, each with a
//! password, then `--sign-ins` sign-ins at once (`POST /api/sign-in`, the i-th to the name
//! i modulo `--names`) from `--addresses` client addresses (127.0.0.1, 127.0.0.2, …: every
//! 127.x address is this machine's, and the server counts each client by its peer's address),
//! every connection opened before the first request is sent. It prints the answers by status (with their `Retry-After`),
//! the server's resident memory before the burst, at its peak (VmHWM), when every answer came
//! and `--after` seconds later, and the server's CPU time for the burst.
//!
//! The server is this program again (`--server`), in a process of its own with the default
//! configuration, so that its memory is the server's alone; `--server-program PATH` runs another
//! build of this example as the server instead (an earlier commit's, to compare the two).
//!
//! ```text
//! cargo run --release -p kalah-web --example sign_ins -- [--sign-ins 200] [--addresses 10] [--names 200]
//!     [--after 10] [--wrong] [--server-program PATH]
//! ```
//!
//! `--wrong` sends a wrong password. With `--names 1` every sign-in is to one name, which the
//! server lets try only a few at a time. The figures of docs/web.md come from it.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kalah_web::{App, Config};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The password of every name.
const PASSWORD: &str = "a long enough password";

/// Opens a connection to `server` from the address `from`.
async fn connect(from: Ipv4Addr, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket.bind(SocketAddr::from((from, 0))).expect("a loopback address of this machine");
    let stream = socket.connect(server).await.expect("the server listens");
    stream.set_nodelay(true).expect("no delay");
    stream
}

/// Sends one request on `stream` (then closes it) and returns the status, the `Retry-After`
/// seconds if any, and the JSON body.
async fn call(
    mut stream: TcpStream,
    method: &str,
    path: &str,
    secret: Option<&str>,
    body: &Value,
) -> (u16, Option<u64>, Value) {
    let body = body.to_string();
    let auth = secret.map(|s| format!("Authorization: Bearer {s}\r\n")).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: bench\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("a request is sent");
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.expect("an answer");
    let text = String::from_utf8_lossy(&bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let retry = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after").then(|| value.trim().parse().ok())?
    });
    (status, retry, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A line of `/proc/PID/status` in MB (Linux), or 0 where it cannot be read.
fn memory(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim_start_matches(':').split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// The CPU time (user and system, seconds) of process `pid`.
fn cpu(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn flag(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).map(|i| {
        args.get(i + 1).cloned().unwrap_or_else(|| {
            eprintln!("sign_ins: {name} takes a value");
            std::process::exit(2)
        })
    })
}

fn number(name: &str, default: u64) -> u64 {
    flag(name).map_or(default, |v| {
        v.parse().unwrap_or_else(|_| {
            eprintln!("sign_ins: {name} takes a whole number");
            std::process::exit(2)
        })
    })
}

/// The server: the default configuration on a loopback port, which it prints.
fn server() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        println!("{}", listener.local_addr().expect("an address"));
        std::io::stdout().flush().expect("the address is printed");
        let app = Arc::new(App::new(&Config::default()).expect("a server"));
        kalah_web::serve(listener, app, std::future::pending()).await.expect("the server runs");
    });
}

fn main() {
    if std::env::args().any(|a| a == "--server") {
        return server();
    }
    let sign_ins = number("--sign-ins", 200) as usize;
    let addresses = number("--addresses", 10).clamp(1, 250) as u8;
    let names = number("--names", 200).clamp(1, 10_000) as usize;
    let after = Duration::from_secs(number("--after", 10));
    let wrong = std::env::args().any(|a| a == "--wrong");
    let program = match flag("--server-program") {
        Some(path) => std::path::PathBuf::from(path),
        None => std::env::current_exe().expect("this program"),
    };
    let mut child = Command::new(program).arg("--server").stdout(Stdio::piped()).spawn().expect("the server starts");
    let pid = child.id();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().expect("stdout")), &mut line)
        .expect("the server prints its address");
    let server: SocketAddr = line.trim().parse().expect("an address");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async move {
        // The names and their passwords, from addresses of their own (a new name draws on its
        // address's budget of 30 a minute).
        for n in 0..names {
            let setup = Ipv4Addr::new(127, 0, 1 + (n / 25 / 250) as u8, 1 + (n / 25 % 250) as u8);
            let name = json!({ "name": format!("signer{n}") });
            let (status, _, made) = call(connect(setup, server).await, "POST", "/api/players", None, &name).await;
            assert_eq!(status, 201, "{made}");
            let secret = made["secret"].as_str().expect("a secret").to_string();
            let body = json!({ "password": PASSWORD });
            let (status, _, set) =
                call(connect(setup, server).await, "POST", "/api/me/password", Some(&secret), &body).await;
            assert_eq!(status, 200, "{set}");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (before, before_peak, cpu_before) = (memory(pid, "VmRSS"), memory(pid, "VmHWM"), cpu(pid));

        // Every connection is open before any request is sent; then all are sent at once.
        let mut streams = Vec::with_capacity(sign_ins);
        for i in 0..sign_ins {
            streams.push(connect(Ipv4Addr::new(127, 0, 0, 1 + (i % addresses as usize) as u8), server).await);
        }
        let password = if wrong { "not the password at all" } else { PASSWORD };
        let start = Arc::new(tokio::sync::Barrier::new(sign_ins + 1));
        let tasks: Vec<_> = streams
            .into_iter()
            .enumerate()
            .map(|(i, stream)| {
                let start = Arc::clone(&start);
                let body = json!({ "name": format!("signer{}", i % names), "password": password });
                tokio::spawn(async move {
                    start.wait().await;
                    let sent = Instant::now();
                    let (status, retry, answer) = call(stream, "POST", "/api/sign-in", None, &body).await;
                    (status, retry, answer["code"].as_str().map(str::to_string), sent.elapsed())
                })
            })
            .collect();
        let began = Instant::now();
        start.wait().await;
        let mut answers: BTreeMap<(u16, Option<u64>, Option<String>), usize> = BTreeMap::new();
        let mut slowest = Duration::ZERO;
        for task in tasks {
            let (status, retry, code, took) = task.await.expect("a sign-in ends");
            *answers.entry((status, retry, code)).or_default() += 1;
            slowest = slowest.max(took);
        }
        let answered = began.elapsed();
        let (at_end, peak, cpu_burst) = (memory(pid, "VmRSS"), memory(pid, "VmHWM"), cpu(pid) - cpu_before);
        tokio::time::sleep(after).await;
        let later = memory(pid, "VmRSS");

        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let which = if wrong { "a wrong password" } else { "the right password" };
        println!(
            "{sign_ins} sign-ins at once from {addresses} addresses to {names} names with {which}, on {cores} cores"
        );
        for ((status, retry, code), n) in &answers {
            let retry = retry.map(|s| format!(", Retry-After {s}")).unwrap_or_default();
            let code = code.as_ref().map(|c| format!(" {c}")).unwrap_or_default();
            println!("  {n:>5} answered {status}{code}{retry}");
        }
        println!(
            "all answered in {:.2} s (the slowest answer {:.2} s); server CPU for the burst {cpu_burst:.2} s",
            answered.as_secs_f64(),
            slowest.as_secs_f64()
        );
        println!(
            "server memory: {before:.0} MB before (peak {before_peak:.0} MB), peak {peak:.0} MB, {at_end:.0} MB when all were answered, {later:.0} MB {} s later",
            after.as_secs()
        );
    });
    let _ = child.kill();
    let _ = child.wait();
}
