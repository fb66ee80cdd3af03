//! `kalah serve` keeps its games: a game is played through the real server, the process is
//! killed (`kill -9`, no chance to tidy up), started again on the same database, and every move
//! the server acknowledged is there; the game goes on.
//!
//! Its operations: the packaged command lines (deploy/kalah.service, the Dockerfile,
//! deploy/compose.yaml) start as written; SIGTERM stops it as Ctrl-C does; a database it cannot
//! write, or an SQLite file another server holds, is refused at the start with one line; `kalah
//! serve backup` copies the database while it serves, and copying the backup back restores it;
//! `kalah serve remove-player` removes a name from the database of a stopped server.

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

/// The `kalah serve` command line on `db`, on a free port.
fn serve(db: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kalah"));
    command.args(["serve", "--port", "0", "--no-egdb", "--searches", "1", "--engine-time", "50", "--db"]).arg(db);
    command
}

/// Runs `command` to its end and returns its status, standard output and standard error.
fn output(command: &mut Command) -> (std::process::ExitStatus, String, String) {
    let out = command.stdin(Stdio::null()).output().expect("kalah runs");
    (out.status, String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Asserts that `kalah serve` was refused at the start: a non-zero status, nothing on standard
/// output (it never said where it plays), one line on standard error, which contains `expected`.
fn assert_refused(refused: (std::process::ExitStatus, String, String), expected: &[&str]) {
    let (status, stdout, stderr) = refused;
    assert!(!status.success(), "{status}: {stdout}{stderr}");
    assert!(!stdout.contains("play at"), "refused before it listens: {stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    for part in expected {
        assert!(stderr.contains(part), "{part:?} in {stderr}");
    }
}

/// Sends a signal (`kill -TERM`, …) to a process.
fn signal(process: &Child, name: &str) {
    let sent = Command::new("kill").arg(format!("-{name}")).arg(process.id().to_string()).status();
    assert!(sent.expect("kill runs").success(), "kill -{name}");
}

/// Starts a game on the server at `address` and returns its id.
fn new_game(address: &str) -> String {
    let (status, state) =
        call(address, "POST", "/api/games", Some(json!({"rules": "kalah(6,6) standard", "north": "human"})));
    assert_eq!(status, 201, "{state}");
    state["id"].as_str().expect("an id").to_string()
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

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_as_ctrl_c_does_and_the_games_are_kept() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    let (mut server, address) = start(&db);
    let id = new_game(&address);
    signal(&server.0, "TERM");
    let status = server.0.wait().expect("the server ends");
    assert_eq!(status.code(), Some(0), "SIGTERM stops it as Ctrl-C does: {status}");
    let (_server, address) = start(&db);
    let (status, back) = call(&address, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "the game is kept: {back}");
}

#[test]
fn a_second_server_on_an_sqlite_file_is_refused_and_told_who_holds_it() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    let (mut first, address) = start(&db);
    let pid = format!("process {}", first.0.id());
    assert_refused(output(&mut serve(&db)), &["is held by another kalah serve", &pid, &address, " since ", "UTC"]);
    // The OS lock goes with its process, however it ends: kill -9 leaves no stale lock.
    first.0.kill().expect("the first server is killed");
    first.0.wait().expect("the first server ends");
    let (_second, address) = start(&db);
    assert_eq!(call(&address, "GET", "/api/games/none", None).0, 404, "the second server serves");
}

/// A folder of the test, which `kalah serve` run as `user` may enter (and write, with `writable`).
#[cfg(unix)]
fn open_to(folder: &Path, writable: bool) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if writable { 0o777 } else { 0o555 };
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(mode)).expect("the folder's mode is set");
}

#[cfg(unix)]
#[test]
fn a_database_it_cannot_write_is_refused_at_the_start_with_one_line() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    // A database with a game, made by a server stopped cleanly (its lock file stays beside it).
    let (mut server, address) = start(&db);
    new_game(&address);
    signal(&server.0, "TERM");
    assert!(server.0.wait().expect("the server ends").success());
    open_to(folder.path(), true);
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).expect("the file is made read-only");
    // The mode bits do not stop root (CI runs as root): there the server runs as the user nobody,
    // whom they do stop; a system that does not let this test change user skips the check.
    let privileged = std::fs::OpenOptions::new().write(true).open(&db).is_ok();
    let as_user = |mut command: Command| {
        if privileged {
            command.uid(65534).gid(65534);
        }
        command
    };
    if privileged && as_user(Command::new("true")).status().is_err() {
        println!("note: running as root and cannot run a process as the user nobody; the check is skipped");
        return;
    }
    let expected = ["the game database", "cannot be written", "give a database this user may write"];
    assert_refused(output(&mut as_user(serve(&db))), &expected);
    // A writable file in a folder that refuses the write-ahead log beside it.
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o666)).expect("the file is made writable");
    open_to(folder.path(), false);
    assert_refused(output(&mut as_user(serve(&db))), &expected);
    // A new file in that folder: not even its lock file can be made.
    assert_refused(output(&mut as_user(serve(&folder.path().join("new.sqlite")))), &expected);
    open_to(folder.path(), true);
    let (_server, address) = start(&db);
    assert_eq!(call(&address, "GET", "/api/games/none", None).0, 404, "writable again, it serves");
}

#[cfg(unix)]
#[test]
fn a_backup_taken_while_serving_is_restored_by_copying_it_back() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    let copy = folder.path().join("backup.sqlite");
    let (mut server, address) = start(&db);
    let before = new_game(&address);
    let backup = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kalah"));
        command.arg("serve").arg("backup").arg(&copy).arg("--db").arg(&db);
        output(&mut command)
    };
    let (status, stdout, stderr) = backup();
    assert!(status.success(), "{status}: {stdout}{stderr}");
    assert!(stdout.contains("copied to"), "{stdout}");
    let (status, stdout, stderr) = backup();
    assert!(!status.success() && stdout.is_empty(), "an existing file is not overwritten: {status} {stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("exists"), "{stderr}");
    let after = new_game(&address);
    signal(&server.0, "TERM");
    assert!(server.0.wait().expect("the server ends").success());
    // The restore of docs/hosting.md: the server stopped, its log (left only by a killed server)
    // removed, the backup copied over the file.
    let restored = Command::new("sh")
        .arg("-c")
        .arg("rm -f games.sqlite-wal games.sqlite-shm && cp backup.sqlite games.sqlite")
        .current_dir(folder.path())
        .status()
        .expect("sh runs");
    assert!(restored.success());
    let (_server, address) = start(&db);
    assert_eq!(call(&address, "GET", &format!("/api/games/{before}"), None).0, 200, "the game backed up is there");
    assert_eq!(call(&address, "GET", &format!("/api/games/{after}"), None).0, 404, "the later one is not");
}

/// The host removes a name with the server stopped (a running server holds the SQLite file, and
/// the command says so): the name cannot sign in or be picked again, its game with another player
/// shows `removed` in its place, and a second removal, or a database that is not there, is
/// refused in one line.
#[test]
fn the_host_removes_a_name_from_a_stopped_servers_database() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let db = folder.path().join("games.sqlite");
    let (mut server, address) = start(&db);
    let mut secrets = Vec::new();
    for name in ["Alice", "bob"] {
        let (status, answer) = call(&address, "POST", "/api/players", Some(json!({ "name": name })));
        assert_eq!(status, 201, "{answer}");
        secrets.push(answer["secret"].as_str().expect("a secret").to_string());
    }
    let offer = json!({ "colour": "south" });
    let (status, made) = call_as(&address, "POST", "/api/lobby/challenges", Some(&secrets[0]), Some(offer));
    assert_eq!(status, 201, "{made}");
    let accept = format!("/api/lobby/challenges/{}/accept", made["challenge"]["id"].as_str().expect("an id"));
    let (status, paired) = call_as(&address, "POST", &accept, Some(&secrets[1]), None);
    assert_eq!(status, 201, "{paired}");
    let remove = |name: &str, db: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kalah"));
        command.args(["serve", "remove-player", name, "--db"]).arg(db);
        output(&mut command)
    };
    let (status, stdout, stderr) = remove("ALICE", &db);
    assert!(!status.success() && stdout.is_empty(), "refused while a server holds the file: {status} {stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("held by another kalah serve"), "{stderr}");
    signal(&server.0, "TERM");
    assert!(server.0.wait().expect("the server ends").success());

    let (status, stdout, stderr) = remove("ALICE", &db);
    assert!(status.success(), "{status}: {stdout}{stderr}");
    assert_eq!(stdout, "kalah serve remove-player: ALICE removed\n");
    let (status, stdout, stderr) = remove("alice", &db);
    assert_eq!(status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("no player is named alice"), "{stderr}");
    let missing = folder.path().join("missing.sqlite");
    let (status, _, stderr) = remove("bob", &missing);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("there is no game database"), "{stderr}");
    assert!(!missing.exists(), "a database that is not there is not made");

    let (_server, address) = start(&db);
    assert_eq!(call_as(&address, "GET", "/api/me", Some(&secrets[0]), None).0, 401, "the secret proves nothing now");
    assert_eq!(call(&address, "GET", "/api/players/alice", None).0, 404);
    assert_eq!(call(&address, "POST", "/api/players", Some(json!({ "name": "alice" }))).0, 409, "not picked again");
    let (status, bobs) = call(&address, "GET", "/api/players/bob", None);
    assert_eq!(status, 200, "{bobs}");
    assert_eq!(bobs["games"][0]["names"], json!(["removed", "bob"]), "{bobs}");
}

/// Returns the arguments of `kalah` in a packaged command line: the systemd unit's `ExecStart`,
/// the Dockerfile's `CMD` (JSON), or the compose file's `command:` list.
fn packaged(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    if let Some(line) = text.lines().find_map(|l| l.strip_prefix("ExecStart=")) {
        return line.split_whitespace().skip(1).map(str::to_string).collect();
    }
    if let Some(line) = text.lines().find_map(|l| l.strip_prefix("CMD ")) {
        return serde_json::from_str(line).expect("CMD is a JSON list");
    }
    // compose.yaml: the items of the anchor's `command:` list, up to the next key.
    let mut items = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed == "command:" {
            inside = true;
        } else if inside && trimmed.starts_with("- ") {
            items.push(trimmed[2..].trim_matches('"').to_string());
        } else if inside && !trimmed.starts_with('#') && !trimmed.is_empty() {
            break;
        }
    }
    items
}

/// The command lines the repository packages `kalah serve` with (the systemd unit, the
/// Dockerfile, the compose file) start as written: their flags exist and their values are taken.
/// Only what ties them to their machine is changed: the port (any free one), the database (a file
/// here, for the compose file's PostgreSQL too) and the compose file's variables.
#[test]
fn the_packaged_command_lines_start_as_written() {
    for file in ["deploy/kalah.service", "Dockerfile", "deploy/compose.yaml"] {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let db = folder.path().join("games.sqlite");
        let mut args = packaged(file);
        assert_eq!(args.first().map(String::as_str), Some("serve"), "{file}: {args:?}");
        for (i, arg) in args.clone().iter().enumerate().skip(1) {
            let value = match args[i - 1].as_str() {
                "--port" => "0".to_string(),
                "--db" => db.display().to_string(),
                "--host" if arg == "0.0.0.0" => "127.0.0.1".to_string(),
                _ => arg.replace("${KALAH_DOMAIN:?set KALAH_DOMAIN in deploy/.env}", "kalah.example"),
            };
            let value = value.replace("${KALAH_EDGE_SUBNET:-172.30.80.0/24}", "172.30.80.0/24");
            args[i] = value;
        }
        assert!(!args.iter().any(|a| a.contains('$')), "{file}: a variable left in {args:?}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .args(&args)
            .args(["--no-egdb"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kalah serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line).expect("a line");
        if !line.contains("play at") {
            let _ = child.wait();
            let mut errors = String::new();
            child.stderr.take().expect("piped").read_to_string(&mut errors).expect("stderr");
            panic!("{file}: kalah {args:?} did not start: {line}{errors}");
        }
        signal(&child, "TERM");
        assert!(child.wait().expect("it ends").success(), "{file}: SIGTERM stops it");
    }
}
