//! Several `kalah serve` processes share their games in PostgreSQL: the test starts a real
//! PostgreSQL (the Debian package's binaries, `apt-get install postgresql`) on loopback in a
//! temporary folder, makes kalah's role and database there with the deployment's own script
//! (deploy/postgres-init.sql, which deploy/compose.yaml gives the official image), runs two
//! servers on it, and plays a game between friends whose players are
//! on different servers, each server's live channel seeing every move; moves sent to both servers
//! at once on one version are played once; each server's spectators see both players here, and
//! see a player leave, whichever server the player follows the game through; then one server is
//! killed (`kill -9`), its player is seen gone, and the game goes on through the other with
//! every acknowledged move there. A PostgreSQL that takes TLS connections only is reached with
//! each of libpq's `sslmode`s, its certificate checked as each says. The lobby's tables (names,
//! ratings, paired games) work there as in SQLite, and two servers settling two games of one
//! player at once both count.

mod common;
use common::Authority;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, Command, Stdio};

use serde_json::{json, Value};

/// A child process ended when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A PostgreSQL server in a temporary folder, stopped (fast shutdown) when dropped.
struct Postgres {
    server: Child,
    port: u16,
    folder: tempfile::TempDir,
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGINT: PostgreSQL's fast shutdown, which ends its backends and frees its memory.
        let _ = Command::new("kill").args(["-INT", &self.server.id().to_string()]).status();
        let _ = self.server.wait();
    }
}

/// Returns the folder of PostgreSQL's programs (initdb, postgres), the newest version's, or fails
/// saying how to install them.
fn postgres_programs() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    found.retain(|bin| bin.join("initdb").is_file() && bin.join("postgres").is_file());
    found.sort_by_key(|bin| bin.parent().and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok()));
    found.pop().unwrap_or_else(|| {
        panic!(
            "this test needs PostgreSQL's programs (initdb, postgres) under /usr/lib/postgresql/VERSION/bin: \
             install them with `apt-get install postgresql` (as root; .ci/test does so)"
        )
    })
}

/// Returns the user and group ids PostgreSQL runs as: this process's, or when it is root (which
/// PostgreSQL refuses) the `postgres` user's, or `nobody`'s.
fn postgres_ids() -> Option<(u32, u32)> {
    let id = |args: &[&str]| -> Option<u32> {
        let out = Command::new("id").args(args).output().ok()?;
        String::from_utf8(out.stdout).ok()?.trim().parse().ok()
    };
    if id(&["-u"])? != 0 {
        return None;
    }
    ["postgres", "nobody"].iter().find_map(|user| Some((id(&["-u", user])?, id(&["-g", user])?)))
}

/// Returns a port free now on loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Reads a server's log until it says it is ready; panics with the log if it ends first.
fn await_ready(stderr: ChildStderr) {
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("PostgreSQL's log");
        log.push_str(&line);
        log.push('\n');
        if line.contains("ready to accept connections") {
            return;
        }
    }
    panic!("PostgreSQL did not start:\n{log}");
}

/// Makes a database cluster in a temporary folder and starts PostgreSQL on it, on loopback.
fn start_postgres() -> Postgres {
    start_postgres_with(None)
}

/// The TLS of a PostgreSQL that takes TLS connections only: its certificate and key (PEM).
struct ServerTls {
    certificate: String,
    key: String,
}

/// Makes a database cluster in a temporary folder and starts PostgreSQL on it, on loopback;
/// with `tls`, it takes only TLS connections over TCP, with that certificate.
fn start_postgres_with(tls: Option<&ServerTls>) -> Postgres {
    use std::os::unix::process::CommandExt;
    let bin = postgres_programs();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let ids = postgres_ids();
    if let Some((uid, gid)) = ids {
        std::os::unix::fs::chown(folder.path(), Some(uid), Some(gid))
            .expect("the folder is given to PostgreSQL's user");
    }
    let as_user = |command: &mut Command| {
        if let Some((uid, gid)) = ids {
            command.uid(uid).gid(gid).env("HOME", folder.path());
        }
    };
    let data = folder.path().join("data");
    let mut initdb = Command::new(bin.join("initdb"));
    // The superuser is `postgres`, as in the official image; kalah's role and database are made
    // below by the deployment's own script.
    initdb.args(["--auth=trust", "--username=postgres", "--encoding=UTF8", "--locale=C", "--no-sync", "-D"]).arg(&data);
    as_user(&mut initdb);
    let made = initdb.output().expect("initdb runs");
    assert!(made.status.success(), "initdb failed: {}", String::from_utf8_lossy(&made.stderr));
    let port = free_port();
    let mut postgres = Command::new(bin.join("postgres"));
    postgres
        .arg("-D")
        .arg(&data)
        .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1", "-k"])
        .arg(folder.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(tls) = tls {
        use std::os::unix::fs::PermissionsExt;
        // PostgreSQL refuses a key others may read; over TCP only `hostssl` lines: a connection
        // without TLS is refused.
        let files = [("server.crt", &tls.certificate), ("server.key", &tls.key)];
        for (name, text) in files {
            let path = data.join(name);
            std::fs::write(&path, text).expect("the certificate is written");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("its mode is set");
            if let Some((uid, gid)) = ids {
                std::os::unix::fs::chown(&path, Some(uid), Some(gid)).expect("it is given to PostgreSQL's user");
            }
        }
        std::fs::write(data.join("pg_hba.conf"), "local all all trust\nhostssl all all 127.0.0.1/32 trust\n")
            .expect("pg_hba.conf is written");
        postgres.args(["-c", "ssl=on"]);
    }
    as_user(&mut postgres);
    let mut server = postgres.spawn().expect("postgres starts");
    let stderr = server.stderr.take().expect("stderr is piped");
    let postgres = Postgres { server, port, folder };
    await_ready(stderr);
    make_kalah_database(&bin, &postgres);
    postgres
}

/// Makes the role `kalah` and its database `kalah` as a deployment does: deploy/postgres-init.sql
/// run by psql as the superuser, over the cluster's socket (no password: the test's cluster
/// trusts it, and the script sets none without KALAH_DB_PASSWORD).
fn make_kalah_database(bin: &std::path::Path, postgres: &Postgres) {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/postgres-init.sql");
    let made = Command::new(bin.join("psql"))
        .arg("--host")
        .arg(postgres.folder.path())
        .args(["--port", &postgres.port.to_string(), "--username=postgres", "--dbname=postgres"])
        .args(["--no-psqlrc", "--no-password", "--quiet", "--set=ON_ERROR_STOP=1", "--file"])
        .arg(&script)
        .env_remove("KALAH_DB_PASSWORD")
        .output()
        .expect("psql runs");
    assert!(made.status.success(), "{} failed: {}", script.display(), String::from_utf8_lossy(&made.stderr));
}

/// Starts `kalah serve` on `db`; returns it and its stdout, from which [`address`] reads.
fn spawn_kalah(db: &str) -> (Running, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["serve", "--port", "0", "--no-egdb", "--searches", "1", "--db", db])
        .stdout(Stdio::piped())
        .spawn()
        .expect("kalah serve starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    (Running(child), BufReader::new(stdout))
}

/// Reads the `host:port` a starting `kalah serve` prints.
fn address(stdout: &mut BufReader<std::process::ChildStdout>) -> String {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("kalah serve prints its address");
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("{line:?}"));
    url.trim_start_matches("http://").trim_end_matches('/').to_string()
}

/// Sends one request on a new connection and returns the status and the JSON body.
fn call(address: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(address).expect("the server listens");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let authorization = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\n{authorization}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A live channel (Server-Sent Events) followed on one server.
struct Live {
    reader: BufReader<TcpStream>,
    pending: String,
    /// The last `presence` event read: who is here.
    presence: Option<Value>,
}

impl Live {
    /// Follows game `id` as a spectator.
    fn open(address: &str, id: &str) -> Live {
        Live::open_as(address, id, None)
    }

    /// Follows game `id`, as the player holding `seat` (a token) if given.
    fn open_as(address: &str, id: &str, seat: Option<&str>) -> Live {
        let mut stream = TcpStream::connect(address).expect("the server listens");
        // A guard against a hang only: every wait ends on an event the server sends.
        stream.set_read_timeout(Some(std::time::Duration::from_secs(120))).expect("a read timeout");
        let auth = seat.map(|token| format!("Authorization: Bearer {token}\r\n")).unwrap_or_default();
        write!(
            stream,
            "GET /api/games/{id}/live HTTP/1.1\r\nHost: {address}\r\n{auth}Accept: text/event-stream\r\n\r\n"
        )
        .expect("the request is sent");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("a status line");
        assert!(line.contains(" 200 "), "{line}");
        while line != "\r\n" {
            line.clear();
            reader.read_line(&mut line).expect("a header");
        }
        Live { reader, pending: String::new(), presence: None }
    }

    /// Returns the next state the channel sends; a `presence` event on the way is kept for
    /// [`Live::await_presence`].
    fn next_state(&mut self) -> Value {
        loop {
            if let Some(state) = self.next_event() {
                return state;
            }
        }
    }

    /// Reads the next event (or the comment the server sends every 15 seconds to keep the
    /// channel open) and returns the state, if it was one; a presence event is kept in
    /// `presence` (the body is chunked: each chunk holds whole lines of events).
    fn next_event(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                let data = event.lines().find_map(|l| l.strip_prefix("data:")).map(str::trim);
                let data = || serde_json::from_str(data.expect("an event's data")).expect("JSON data");
                if event.lines().any(|l| l.trim() == "event: presence") {
                    // Who is here; how many pages follow each seat is not checked here.
                    let mut here: Value = data();
                    if let Some(fields) = here.as_object_mut() {
                        fields.remove("pages");
                    }
                    self.presence = Some(here);
                } else if event.lines().any(|l| l.trim() == "event: state") {
                    return Some(data());
                }
                return None;
            }
            let mut size = String::new();
            self.reader.read_line(&mut size).expect("a chunk's size");
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or_else(|_| panic!("a chunk size: {size:?}"));
            assert!(size > 0, "the live channel ended");
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).expect("a chunk");
            self.pending.push_str(&String::from_utf8_lossy(&chunk[..size]));
        }
    }

    /// Waits until the last presence event says `here` (`{"south": …, "north": …}`), passing
    /// the states on the way.
    fn await_presence(&mut self, here: Value) {
        // A guard against a hang only (the keep-alive comments end each read within 15 s).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while self.presence.as_ref() != Some(&here) {
            assert!(std::time::Instant::now() < deadline, "no presence event says {here}: {:?}", self.presence);
            self.next_event();
        }
    }

    /// Waits for the state at `version` and returns it; a state past it fails the test.
    fn await_version(&mut self, version: u64) -> Value {
        loop {
            let state = self.next_state();
            let seen = state["version"].as_u64().expect("a version");
            assert!(seen <= version, "the live channel skipped version {version}: {state}");
            if seen == version {
                return state;
            }
        }
    }
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().expect("moves").iter().map(|m| m["action"].as_str().unwrap().to_string()).collect()
}

#[test]
fn two_servers_share_a_game_between_friends_through_postgresql() {
    let postgres = start_postgres();
    let db = format!("postgres://kalah@127.0.0.1:{}/kalah", postgres.port);
    // Both start at once: one makes the schema, the other waits for it.
    let (mut a, mut a_out) = spawn_kalah(&db);
    let (_b, mut b_out) = spawn_kalah(&db);
    let (at_a, at_b) = (address(&mut a_out), address(&mut b_out));

    let (status, state) =
        call(&at_a, "POST", "/api/games", None, Some(json!({"rules": "kalah(4,3) standard", "friend": true})));
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().expect("an id").to_string();
    let south = state["token"].as_str().expect("the creator's token").to_string();
    let north = state["invite"].as_str().expect("the invitation's token").to_string();
    let url = format!("/api/games/{id}");
    // South plays through server A, North through B; each server's live channel sees every move.
    let mut live_a = Live::open(&at_a, &id);
    let mut live_b = Live::open(&at_b, &id);
    assert_eq!(live_a.next_state()["version"], 0);
    assert_eq!(live_b.next_state()["version"], 0);
    let mut acknowledged = Vec::new();
    let mut state = state;
    let play = |state: &mut Value, servers: [&str; 2], live: &mut [&mut Live], acknowledged: &mut Vec<String>| {
        let side = state["to_move"].as_str().expect("a side to move");
        let (server, token) =
            if side.eq_ignore_ascii_case("south") { (servers[0], &south) } else { (servers[1], &north) };
        let action = state["legal"][0].as_str().expect("a legal action").to_string();
        let version = state["version"].as_u64().unwrap();
        let body = json!({"action": action, "version": version});
        let (status, next) = call(server, "POST", &format!("{url}/move"), Some(token), Some(body));
        assert_eq!(status, 200, "{next}");
        acknowledged.push(action);
        let version = next["version"].as_u64().unwrap();
        for channel in live.iter_mut() {
            let seen = channel.await_version(version);
            assert_eq!(moves(&seen), *acknowledged, "{seen}");
        }
        *state = next;
    };
    for _ in 0..4 {
        play(&mut state, [&at_a, &at_b], &mut [&mut live_a, &mut live_b], &mut acknowledged);
    }

    // The same move sent to both servers at once on one version, with different request ids, is
    // played once: the others are refused (409), whichever server they reached.
    let side = state["to_move"].as_str().unwrap().to_string();
    let token = if side.eq_ignore_ascii_case("south") { &south } else { &north };
    let action = state["legal"][0].as_str().unwrap().to_string();
    let version = state["version"].as_u64().unwrap();
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let sent: Vec<_> = (0..6)
            .map(|i| {
                let (server, url, action) = ([&at_a, &at_b][i % 2].to_string(), url.clone(), action.clone());
                scope.spawn(move || {
                    let body = json!({"action": action, "version": version, "request": format!("race-{i}")});
                    call(&server, "POST", &format!("{url}/move"), Some(token), Some(body))
                })
            })
            .collect();
        sent.into_iter().map(|t| t.join().expect("a request")).collect()
    });
    let played: Vec<_> = answers.iter().filter(|(status, _)| *status == 200).collect();
    assert_eq!(played.len(), 1, "one of the moves made on one version is played: {answers:?}");
    for (status, answer) in &answers {
        assert!(*status == 200 || *status == 409, "{status} {answer}");
    }
    acknowledged.push(action);
    state = played[0].1.clone();
    let version = state["version"].as_u64().unwrap();
    assert_eq!(moves(&live_a.await_version(version)), acknowledged);
    assert_eq!(moves(&live_b.await_version(version)), acknowledged);

    // Presence: South follows the game through A, North through B; the spectators on each server
    // see both here, then see North leave B and come back.
    let both = json!({"south": true, "north": true});
    let _south_here = Live::open_as(&at_a, &id, Some(&south));
    let north_here = Live::open_as(&at_b, &id, Some(&north));
    live_a.await_presence(both.clone());
    live_b.await_presence(both.clone());
    drop(north_here);
    live_a.await_presence(json!({"south": true, "north": false}));
    let _north_here = Live::open_as(&at_b, &id, Some(&north));
    live_a.await_presence(both.clone());

    // kill -9 server A in the middle of the game: B sees South, who followed through A, gone;
    // the game goes on through B, both seats there.
    a.0.kill().expect("server A is killed");
    a.0.wait().expect("server A ends");
    live_b.await_presence(json!({"south": false, "north": true}));
    while !state["to_move"].is_null() {
        play(&mut state, [&at_b, &at_b], &mut [&mut live_b], &mut acknowledged);
    }
    let (status, back) = call(&at_b, "GET", &url, None, None);
    assert_eq!(status, 200, "{back}");
    assert_eq!(moves(&back), acknowledged, "every acknowledged move is there, in order, once");
    assert_eq!(back["version"], state["version"]);
    // A server started again on the database finds the finished game in the archive.
    let (_c, mut c_out) = spawn_kalah(&db);
    let at_c = address(&mut c_out);
    let (status, archive) = call(&at_c, "GET", "/api/archive", None, None);
    assert_eq!(status, 200, "{archive}");
    assert!(archive.to_string().contains(&id), "{archive}");
    assert_eq!(moves(&call(&at_c, "GET", &url, None, None).1), acknowledged);
}

/// Runs SQL on the test's PostgreSQL with its own client, psql, as kalah's role.
fn psql(postgres: &Postgres, sql: &str) {
    psql_as(postgres, "kalah", sql)
}

/// Runs SQL on kalah's database as `user` (`postgres`: the superuser, who may make roles).
fn psql_as(postgres: &Postgres, user: &str, sql: &str) {
    let out = Command::new(postgres_programs().join("psql"))
        .args(["-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", &postgres.port.to_string()])
        .args(["-U", user, "-d", "kalah", "-c", sql])
        .output()
        .expect("psql runs");
    assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The changes of many games stored at once go to the database together (one statement for
/// those waiting at the same time), and there each is checked alone: a change stored after a
/// number of events another process has moved on is refused as a conflict without a trace, a
/// change of a game that is not there as gone, and the changes of the other games are stored.
/// A database of the schema before the number of events was kept is brought up to date with
/// the numbers its games have.
#[test]
fn many_games_changes_are_stored_together_and_each_checked_alone() {
    use kalah_web::event::{Change, Event, Moment};
    use kalah_web::store::{Start, Store};
    let postgres = start_postgres();
    let url = format!("postgres://kalah@127.0.0.1:{}/kalah", postgres.port);
    let database = kalah_web::Database::parse(url.as_ref()).expect("the address is read");
    let start = Start {
        rules: "kalah(6,4)".into(),
        position: String::new(),
        actions: vec![],
        seats: ["human".into(), "human".into()],
        clock: None,
        tokens: None,
        owner: None,
        creator: None,
        names: None,
        rated: false,
        at: Moment(1),
    };
    let event = |version: u64, action: &str| Event {
        version,
        at: Moment(1 + version),
        change: Change::Act { action: action.into(), spent: None },
        request: None,
    };
    // The store is asynchronous: its calls are awaited on a runtime of the test's own.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let first = Store::open(&database).expect("the store opens");
        first.create("old", &start).await.unwrap();
        first.append("old", 0, &[event(1, "1"), event(2, "2")], None).await.unwrap();
        drop(first);
        // As the first schema left it: no number of events, no lobby's tables (schema 3), version 1.
        psql(
            &postgres,
            "DROP TABLE challenges, paired, ratings, players; ALTER TABLE games DROP COLUMN stored; UPDATE kalah_schema SET version = 1",
        );

        let one = Store::open(&database).expect("the store opens and brings the schema up to date");
        let other = Store::open(&database).expect("a second process's store opens");
        let conflict = one.append("old", 1, &[event(2, "3")], None).await;
        assert!(matches!(conflict, Err(kalah_web::StoreError::Conflict(_))), "{conflict:?}");
        one.append("old", 2, &[event(3, "3")], None).await.expect("the number of events was kept by the migration");
        let games: Vec<String> = (0..64).map(|i| format!("g{i}")).collect();
        for game in &games {
            one.create(game, &start).await.unwrap();
        }
        // The other process stores one change of g0: the first's two changes of g0 after none
        // are refused, whatever else goes with them.
        other.append("g0", 0, &[event(1, "6")], None).await.unwrap();
        // All sent before any is answered.
        let changes = [event(1, "1"), event(2, "2")];
        let runs = games.iter().map(|game| one.append(game, 0, &changes, Some("over")));
        let (outcomes, gone) = futures_util::future::join(
            futures_util::future::join_all(runs),
            one.append("none", 0, &[event(1, "1")], None),
        )
        .await;
        for (i, outcome) in outcomes.iter().chain([&gone]).enumerate() {
            match (i, outcome) {
                (0, Err(kalah_web::StoreError::Conflict(game))) => assert_eq!(game, "g0"),
                (64, Err(kalah_web::StoreError::Gone(game))) => assert_eq!(game, "none"),
                (1..=63, Ok(())) => {}
                _ => panic!("change {i}: {outcome:?}"),
            }
        }
        let (_, g0) = other.load("g0").await.unwrap().expect("g0 is there");
        assert_eq!(g0, [event(1, "6")], "the refused change left no event");
        for game in &games[1..] {
            let (_, events) = other.load(game).await.unwrap().expect("the game is there");
            assert_eq!(events, [event(1, "1"), event(2, "2")], "{game}");
        }
        assert_eq!(other.archive(100).await.unwrap().len(), 63, "the 63 games stored are marked finished");
        let (_, old) = other.load("old").await.unwrap().expect("old is there");
        assert_eq!(old.len(), 3);
    });
}

/// The lobby's tables in PostgreSQL: names are registered (taken in any case), games are paired,
/// a rated game is settled once and moves both players' ratings, and a name is removed. Two
/// stores on one database (two servers) settling two games of one player at the same time both
/// count: each settle changes a rating only if it is still as read (crate kalah-web's `sql`),
/// and the one that finds it changed reads it again.
#[test]
fn the_lobbys_names_ratings_and_paired_games_in_postgresql() {
    use kalah_lobby::{Family, Name, Outcome, Rating};
    use kalah_web::event::Moment;
    use kalah_web::players::Ending;
    use kalah_web::store::{Start, Store};
    let postgres = start_postgres();
    let url = format!("postgres://kalah@127.0.0.1:{}/kalah", postgres.port);
    let database = kalah_web::Database::parse(url.as_ref()).expect("the address is read");
    let now = Moment::now();
    let start = |first: &str, second: &str| Start {
        rules: "kalah(6,4) standard".into(),
        position: String::new(),
        actions: vec![],
        seats: ["human".into(), "human".into()],
        clock: None,
        tokens: None,
        owner: None,
        creator: None,
        names: Some([first.into(), second.into()]),
        rated: true,
        at: now,
    };
    let secret = |name: &str| format!("sha-of-{}", name.to_ascii_lowercase());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let one = Store::open(&database).expect("the store opens");
        let other = Store::open(&database).expect("a second server's store opens");
        let players = ["alice", "Bob", "carol", "dave", "erin"];
        for name in players {
            let name = Name::parse(name).expect("a name");
            assert!(one.register(&name, &secret(name.as_str()), now).await.unwrap(), "{name}");
        }
        let taken = Name::parse("ALICE").expect("a name");
        assert!(!other.register(&taken, "another", now).await.unwrap(), "a name is taken in any case");
        assert_eq!(other.signed_in(&secret("bob")).await.unwrap().map(|n| n.to_string()), Some("Bob".into()));
        let pair = |id: String, first: &str, second: &str| {
            let start = start(first, second);
            let one = &one;
            async move {
                one.create(&id, &start).await.unwrap();
                one.paired(&id, &start).await.unwrap();
            }
        };
        pair("g1".into(), "alice", "Bob").await;
        assert_eq!(other.playing(Moment(0), 10).await.unwrap()[0].names, ["alice", "Bob"]);

        let after = one.settle("g1", Ending::First, now).await.unwrap().expect("a rated game moves the ratings");
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0, "{after:?}");
        assert_eq!(other.settle("g1", Ending::First, now).await.unwrap(), None, "a game is settled once");
        let kalah64 = |ratings: Vec<kalah_web::players::FamilyRating>| {
            ratings.into_iter().find(|r| r.family == Family::Kalah64).expect("every family is listed")
        };
        let alice = kalah64(other.ratings("alice", now).await.unwrap());
        let bob = kalah64(other.ratings("bob", now).await.unwrap());
        assert_eq!((alice.games, bob.games), (1, 1));
        assert!((alice.rating.rating - after[0].rating).abs() < 1e-6, "{alice:?}");
        assert!(bob.rating.rating < 1500.0, "{bob:?}");
        let games = other.games_of("bob", 10).await.unwrap();
        assert_eq!((games[0].outcome.as_deref(), games[0].ratings.is_some()), (Some("first"), true));

        // carol plays two games at once, each settled by another server at the same moment;
        // round after round, so that the two settles meet on her rating. Her rating after a
        // round is the two games applied one after the other (in either order): neither
        // settle's change is lost.
        for round in 1..=4 {
            let (first, second) = (format!("c{round}a"), format!("c{round}b"));
            pair(first.clone(), "carol", "dave").await;
            pair(second.clone(), "erin", "carol").await;
            let mut before = Vec::new();
            for name in ["carol", "dave", "erin"] {
                before.push(kalah64(one.ratings(name, now).await.unwrap()).rating);
            }
            let [carol, dave, erin] = [before[0], before[1], before[2]];
            let lost = (dave, Outcome::Loss);
            let drawn = (erin, Outcome::Draw);
            let orders = [carol.update(&[lost]).update(&[drawn]), carol.update(&[drawn]).update(&[lost])];
            let (a, b) = futures_util::future::join(
                one.settle(&first, Ending::Second, now),
                other.settle(&second, Ending::Draw, now),
            )
            .await;
            assert!(a.unwrap().is_some() && b.unwrap().is_some(), "round {round}: both settled");
            let carol = kalah64(one.ratings("carol", now).await.unwrap());
            assert_eq!(carol.games, 2 * round, "round {round}: both games of carol count");
            let close =
                |a: &Rating, b: &Rating| (a.rating - b.rating).abs() < 1e-6 && (a.deviation - b.deviation).abs() < 1e-6;
            assert!(
                orders.iter().any(|o| close(o, &carol.rating)),
                "round {round}: {:?} is not one of {orders:?}",
                carol.rating
            );
        }
        let (dave, erin) =
            (kalah64(other.ratings("dave", now).await.unwrap()), kalah64(other.ratings("erin", now).await.unwrap()));
        assert_eq!((dave.games, erin.games), (4, 4));

        assert!(other.remove_player("bob", now).await.unwrap(), "Bob is removed");
        assert!(!one.remove_player("bob", now).await.unwrap(), "once");
        assert!(one.signed_in(&secret("bob")).await.unwrap().is_none(), "the secret proves nothing now");
        assert!(one.player("bob").await.unwrap().is_none());
        assert_eq!(kalah64(one.ratings("bob", now).await.unwrap()).games, 0, "the ratings are deleted");
        assert!(!one.register(&Name::parse("bob").unwrap(), "new", now).await.unwrap(), "not picked again");
        assert_eq!(one.games_of("alice", 10).await.unwrap()[0].names, ["alice", "removed"]);
        let (start, _) = one.load("g1").await.unwrap().expect("g1 is kept");
        assert_eq!(start.names, Some(["alice".to_string(), "removed".to_string()]));
    });
}

/// The servers refuse a bad or unreachable PostgreSQL address with one line saying what is
/// accepted, and exit with an error.
#[test]
fn bad_and_unreachable_addresses_are_refused_in_one_line() {
    let port = free_port();
    for (db, says) in [
        ("postgres://kalah@127.0.0.1:port/games", "invalid value for option `port`"),
        ("postgresql:games", "is not a PostgreSQL URL"),
        (&format!("postgres://kalah:secret@127.0.0.1:{port}/games") as &str, "error connecting to server"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .args(["serve", "--port", "0", "--no-egdb", "--db", db])
            .output()
            .expect("kalah serve runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{db}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(says) && stderr.contains("postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"),
            "{stderr}"
        );
        assert!(!stderr.contains("secret"), "the password is not shown: {stderr}");
    }
}

/// Starts `kalah serve --db DB`; returns its address when it serves, or the one line it wrote
/// when it stopped.
fn serve_on(db: &str) -> Result<(Running, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["serve", "--port", "0", "--no-egdb", "--searches", "1", "--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kalah serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("kalah serve's output");
    if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
        let address = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        return Ok((Running(child), address));
    }
    let mut stderr = String::new();
    child.stderr.take().expect("stderr is piped").read_to_string(&mut stderr).expect("kalah serve's errors");
    let status = child.wait().expect("kalah serve ends");
    assert!(!status.success(), "kalah serve ended well without serving: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    Err(stderr.trim().to_string())
}

#[test]
fn tls_to_postgresql_checks_the_certificate_as_sslmode_says() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let authority = Authority::new("kalah test authority");
    let path = |file: std::path::PathBuf| file.to_str().expect("a path in UTF-8").to_string();
    let ca = path(authority.write(folder.path(), "ca.pem"));
    let stranger = path(Authority::new("another authority").write(folder.path(), "other.pem"));
    // Issued for 127.0.0.1 and db.example: reached as localhost, the name does not match.
    let (certificate, key) = authority.server(&["127.0.0.1", "db.example"]);
    let postgres = start_postgres_with(Some(&ServerTls { certificate: certificate.pem(), key: key.serialize_pem() }));
    let at = |host: &str, query: &str| format!("postgres://kalah@{host}:{}/kalah{query}", postgres.port);
    let (by_ip, by_name) = (|q: &str| at("127.0.0.1", q), |q: &str| at("localhost", q));
    let serves = [
        (by_ip(""), "prefer (the default) encrypts when the server offers it"),
        (by_ip("?sslmode=require"), "require encrypts, any certificate"),
        (by_ip(&format!("?sslmode=verify-full&sslrootcert={ca}")), "verify-full, the authority and the name"),
        (by_name(&format!("?sslmode=verify-ca&sslrootcert={ca}")), "verify-ca checks no name"),
        (by_ip(&format!("?sslmode=require&sslrootcert={ca}")), "require with a root checks the authority"),
    ];
    for (db, why) in &serves {
        let (_server, address) = serve_on(db).unwrap_or_else(|line| panic!("{why}: {db}: {line}"));
        let (status, state) = call(&address, "POST", "/api/games", None, Some(json!({"rules": "kalah(4,3) standard"})));
        assert_eq!(status, 201, "{why}: {state}");
    }
    let refused = [
        (by_ip("?sslmode=disable"), "no encryption", "the server takes TLS connections only"),
        (by_ip(&format!("?sslmode=verify-full&sslrootcert={stranger}")), "certificate", "another authority"),
        (by_name(&format!("?sslmode=verify-full&sslrootcert={ca}")), "certificate", "a name the certificate lacks"),
        (by_ip(&format!("?sslmode=require&sslrootcert={stranger}")), "certificate", "require with another root"),
        (by_ip("?sslmode=verify-full"), "certificate", "the system's authorities do not know this one"),
        (by_ip("?sslmode=verify-full&sslrootcert=missing.pem"), "sslrootcert missing.pem: cannot read it", "no file"),
        (
            by_ip("?sslmode=on"),
            "sslmode \"on\" is not one of disable, prefer, require, verify-ca, verify-full",
            "a bad mode",
        ),
    ];
    for (db, says, why) in &refused {
        match serve_on(db) {
            Ok(_) => panic!("{why}: {db} was taken"),
            Err(line) => assert!(line.contains(says), "{why}: {db}: {line}"),
        }
    }
}

/// A PostgreSQL user who may read the games but not write them is refused at the start with one
/// line, before the server listens: one without the privileges to write the tables (found by a
/// write rolled back), and one whose transactions are read-only (as on a replica).
#[test]
fn a_user_who_cannot_write_is_refused_at_the_start() {
    let postgres = start_postgres();
    let port = postgres.port;
    let owner = format!("postgres://kalah@127.0.0.1:{port}/kalah");
    drop(serve_on(&owner).expect("the owner serves, the schema made"));
    psql_as(
        &postgres,
        "postgres",
        "CREATE ROLE reader LOGIN; GRANT CREATE, USAGE ON SCHEMA public TO reader;
        GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader;
        CREATE ROLE replica LOGIN; ALTER ROLE replica SET default_transaction_read_only = on;
        GRANT ALL ON ALL TABLES IN SCHEMA public TO replica; GRANT CREATE, USAGE ON SCHEMA public TO replica;",
    );
    for (user, says) in [("reader", "permission denied for table games"), ("replica", "read-only transaction")] {
        let db = format!("postgres://{user}@127.0.0.1:{port}/kalah");
        let line = serve_on(&db).err().unwrap_or_else(|| panic!("{user} is refused"));
        assert!(line.contains("cannot be written") && line.contains(says), "{user}: {line}");
    }
}

/// The lobby's live channel (Server-Sent Events) followed on one server.
struct LobbyLive {
    reader: BufReader<TcpStream>,
    pending: String,
}

impl LobbyLive {
    fn open(address: &str) -> LobbyLive {
        let mut stream = TcpStream::connect(address).expect("the server listens");
        // A guard against a hang only: every wait ends on an event the server sends.
        stream.set_read_timeout(Some(std::time::Duration::from_secs(120))).expect("a read timeout");
        write!(stream, "GET /api/lobby/live HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n")
            .expect("the request is sent");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("a status line");
        assert!(line.contains(" 200 "), "{line}");
        while line != "\r\n" {
            line.clear();
            reader.read_line(&mut line).expect("a header");
        }
        LobbyLive { reader, pending: String::new() }
    }

    /// Waits for the next event named `name` and returns its data, passing the others.
    fn next(&mut self, name: &str) -> Value {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                if event.lines().any(|l| l.trim() == format!("event: {name}")) {
                    let data = event.lines().find_map(|l| l.strip_prefix("data:")).expect("data").trim();
                    return serde_json::from_str(data).expect("JSON data");
                }
                continue;
            }
            let mut size = String::new();
            self.reader.read_line(&mut size).expect("a chunk's size");
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or_else(|_| panic!("a chunk size: {size:?}"));
            assert!(size > 0, "the live channel ended");
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).expect("a chunk");
            self.pending.push_str(&String::from_utf8_lossy(&chunk[..size]));
        }
    }
}

/// Registers `name` on the server at `address` and returns its secret.
fn register(address: &str, name: &str) -> String {
    let (status, made) = call(address, "POST", "/api/players", None, Some(json!({ "name": name })));
    assert_eq!(status, 201, "{made}");
    made["secret"].as_str().expect("a secret").to_string()
}

/// Two servers on one PostgreSQL share one lobby: a challenge made through one is seen live and
/// accepted through the other, whose pairing the first tells its pages; of two players who
/// accept one challenge at once through the two servers, one gets it.
#[test]
fn two_servers_share_one_lobby_through_postgresql() {
    let postgres = start_postgres();
    let db = format!("postgres://kalah@127.0.0.1:{}/kalah", postgres.port);
    let (_a, mut a_out) = spawn_kalah(&db);
    let (_b, mut b_out) = spawn_kalah(&db);
    let (a, b) = (address(&mut a_out), address(&mut b_out));
    let alice = register(&a, "alice");
    let bob = register(&b, "bob");
    assert_eq!(call(&a, "POST", "/api/players", None, Some(json!({ "name": "Bob" }))).0, 409, "one name on both");
    let mut live_a = LobbyLive::open(&a);
    let mut live_b = LobbyLive::open(&b);
    live_a.next("lobby");
    live_b.next("lobby");
    let offer =
        json!({ "rated": true, "colour": "south", "rules": "kalah(4,3) standard", "clock": { "seconds": 600 } });
    let (status, made) = call(&a, "POST", "/api/lobby/challenges", Some(&alice), Some(offer));
    assert_eq!(status, 201, "{made}");
    let id = made["challenge"]["id"].as_str().expect("an id").to_string();
    assert_eq!(live_b.next("challenge")["id"], id.as_str(), "told through the other server");
    let (_, lobby) = call(&b, "GET", "/api/lobby", None, None);
    assert_eq!(lobby["challenges"][0]["by"], "alice");
    let (status, paired) = call(&b, "POST", &format!("/api/lobby/challenges/{id}/accept"), Some(&bob), None);
    assert_eq!(status, 201, "{paired}");
    let game = paired["game"].as_str().expect("a game").to_string();
    assert_eq!(live_a.next("paired")["game"], game.as_str(), "alice's server tells her page");
    assert_eq!(call(&a, "POST", &format!("/api/lobby/challenges/{id}/accept"), Some(&bob), None).0, 404);
    // Alice plays her seat through her server, Bob resigns through his: both ratings move.
    let (status, moved) =
        call(&a, "POST", &format!("/api/games/{game}/move"), Some(&alice), Some(json!({ "action": 1 })));
    assert_eq!(status, 200, "{moved}");
    let (status, _) = call(&b, "POST", &format!("/api/games/{game}/resign"), Some(&bob), None);
    assert_eq!(status, 200);
    let ended = live_a.next("ended");
    assert_eq!(ended["game"], game.as_str());
    assert!(ended["ratings"][0]["rating"].as_f64().expect("a rating") > 1500.0, "{ended}");
    // Two players accept one challenge at once, each through a server: one gets it.
    let carol = register(&a, "carol");
    let (dave, erin) = (register(&a, "dave"), register(&b, "erin"));
    let (_, made) = call(&a, "POST", "/api/lobby/challenges", Some(&carol), None);
    let id = made["challenge"]["id"].as_str().expect("an id").to_string();
    live_b.next("challenge");
    let path = format!("/api/lobby/challenges/{id}/accept");
    let statuses = std::thread::scope(|scope| {
        let one = scope.spawn(|| call(&a, "POST", &path, Some(&dave), None).0);
        let two = scope.spawn(|| call(&b, "POST", &path, Some(&erin), None).0);
        let mut both = [one.join().expect("a thread"), two.join().expect("a thread")];
        both.sort();
        both
    });
    assert_eq!(statuses, [201, 404]);
}
