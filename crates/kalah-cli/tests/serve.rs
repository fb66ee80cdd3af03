//! `kalah serve` keeps its games: a game is played through the real server, the process is
//! killed (`kill -9`, no chance to tidy up), started again on the same database, and every move
//! the server acknowledged is there; the game goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `kalah serve` on `db` and returns it with the `host:port` it prints.
fn start(db: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["serve", "--port", "0", "--no-egdb", "--searches", "1", "--engine-time", "50", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("kalah serve starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("kalah serve prints its address");
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("{line:?}"));
    (running, url.trim_start_matches("http://").trim_end_matches('/').to_string())
}

/// Sends one request on a new connection and returns the status and the JSON body.
fn call(address: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    call_as(address, method, path, None, body)
}

/// Sends one request as the holder of `token` (`Authorization: Bearer`), if one is given.
fn call_as(address: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(address).expect("the server listens");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn games_survive_kill_9_and_a_restart() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    let (mut server, address) = start(&db);
    let (status, state) =
        call(&address, "POST", "/api/games", Some(json!({"rules": "kalah(6,6) standard", "north": "human"})));
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().expect("an id").to_string();
    let token = state["token"].as_str().expect("the creator's token").to_string();
    let token = Some(token.as_str());
    let url = format!("/api/games/{id}");
    let mut state = state;
    let mut acknowledged = Vec::new();
    for _ in 0..6 {
        let action = state["legal"][0].as_str().expect("a legal action").to_string();
        let (status, next) =
            call_as(&address, "POST", &format!("{url}/move"), token, Some(json!({ "action": action })));
        assert_eq!(status, 200, "{next}");
        acknowledged.push(action);
        state = next;
        if state["to_move"].is_null() {
            break;
        }
    }
    // kill -9: no shutdown, no flush.
    server.0.kill().expect("the server is killed");
    server.0.wait().expect("the server ends");
    let (_server, address) = start(&db);
    let (status, back) = call(&address, "GET", &url, None);
    assert_eq!(status, 200, "{back}");
    let moves: Vec<&str> = back["moves"].as_array().unwrap().iter().map(|m| m["action"].as_str().unwrap()).collect();
    assert_eq!(moves, acknowledged, "every acknowledged move is there, in order");
    assert_eq!(back["position"], state["position"]);
    assert_eq!(back["version"], state["version"]);
    // The game goes on, and can be deleted.
    let action = back["legal"][0].clone();
    let (status, next) = call_as(&address, "POST", &format!("{url}/move"), token, Some(json!({ "action": action })));
    assert_eq!(status, 200, "{back} {next}");
    assert_eq!(call(&address, "DELETE", &url, None).0, 403, "not without the creator's token");
    assert_eq!(call_as(&address, "DELETE", &url, token, None).0, 204);
    assert_eq!(call(&address, "GET", &url, None).0, 404);
}
