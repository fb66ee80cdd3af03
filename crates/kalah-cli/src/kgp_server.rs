//! `kalah kgp serve`: a KGP server for practice ([`kalah_kgp_server`]): flags, the server, its
//! log on standard output, Ctrl-C to stop; `kalah kgp tournament`: the same server playing a round
//! robin (optionally go-kgp's stages), its report printed at the end; `kalah kgp games`,
//! `kalah kgp record`, `kalah kgp standings` and `kalah kgp report` read what they stored. The log's lines begin with their UTC time; a
//! closed standard output (`| head`) ends a listing quietly (status 0) and never stops a server.
//!
//! `kalah kgp` keeps its client: `serve`, `tournament`, `games`, `record`, `standings` and `report` are
//! sub-commands of `kgp` that conflict with the client's arguments, so `kalah kgp HOST` connects
//! as before, and a host that is really named `serve` (or one of the others) is written with its
//! port: `kalah kgp serve:2671`.

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use kalah_kgp_server::{
    Board, Bot, Config, Cut, Event, Limits, Reader, Report, Server, Standings, TlsFiles, TournamentConfig,
};

use crate::error::bad;
use crate::kgp::KgpArgs;

/// `kalah kgp`: the client, or `kalah kgp serve`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct KgpCommand {
    /// `serve`, if given.
    #[command(subcommand)]
    pub serve: Option<KgpServe>,
    /// The client's arguments.
    #[command(flatten)]
    pub client: KgpArgs,
}

/// The sub-commands of `kalah kgp`.
#[derive(Subcommand, Debug)]
pub enum KgpServe {
    /// Run a KGP server for practice: games against agents and bots, verify mode, games stored in SQLite
    Serve(ServeArgs),
    /// Run a KGP server that plays a round robin (or go-kgp's stages) between bots, programs it starts and agents that connect, and print its report
    Tournament(TournamentArgs),
    /// List the games a KGP server stored, newest first
    Games(GamesArgs),
    /// Print the record of a game a KGP server stored (kalah play --load replays it)
    Record(RecordArgs),
    /// Print the results table (points, wins, draws, losses, Elo) of a tournament, or of every game stored
    Standings(StandingsArgs),
    /// Print a tournament's report: each stage's table and cut, the final table, each agent's forfeits, illegal and random moves and time
    Report(ReportArgs),
}

/// Flags of `kalah kgp report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The database [default: as kalah kgp serve]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// The tournament (its id, as kalah kgp tournament prints it) [default: the last one]
    #[arg(long, value_name = "ID")]
    pub tournament: Option<i64>,
}

/// Flags of `kalah kgp standings`.
#[derive(Args, Debug)]
pub struct StandingsArgs {
    /// The database [default: as kalah kgp serve]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Only the games of this tournament (its id, as kalah kgp tournament prints it) [default: the last one]
    #[arg(long, value_name = "ID", conflicts_with = "all")]
    pub tournament: Option<i64>,
    /// Every game stored, freeplay and tournaments
    #[arg(long)]
    pub all: bool,
}

/// Flags of `kalah kgp games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// The database [default: as kalah kgp serve]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Only the games of the agent of this name
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
}

/// Flags of `kalah kgp record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// The game's id, as kalah kgp games lists it
    pub id: i64,
    /// The database [default: as kalah kgp serve]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// The flags `kalah kgp serve` and `kalah kgp tournament` share: where to listen, the database,
/// the protocol's times.
#[derive(Args, Debug)]
pub struct ListenArgs {
    /// Where to listen for KGP over TCP (ADDRESS:PORT, port 0 for a free one), or off
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:2671")]
    pub tcp: String,
    /// Where to listen for KGP over WebSocket, at the path /socket as go-kgp serves it, and for the page of games and results at /, or off
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1:8080")]
    pub websocket: String,
    /// A PEM certificate chain: the WebSocket listener speaks TLS (wss://); needs --key
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,
    /// The PEM private key of --cert
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,
    /// The database of agents and games [default: $XDG_DATA_HOME/kalah/kgp.sqlite, else ~/.local/share/kalah/kgp.sqlite]
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Milliseconds an agent (or a program) has for each move (go-kgp: 5000)
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    pub time: u64,
    /// Play a random move for an agent out of time without first pinging it (go-kgp pings, and gives the game up for an agent that does not answer within 20 s)
    #[arg(long)]
    pub no_ping: bool,
    /// Milliseconds a client has to ask for a mode after the greeting (go-kgp: 20000)
    #[arg(long, value_name = "MS", default_value_t = 20_000)]
    pub mode_wait: u64,
    /// Milliseconds kalah's engine thinks at level 5 (the lower levels take less)
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub bot_time: u64,
}

/// Flags of `kalah kgp serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Where to listen, the database, the times.
    #[command(flatten)]
    pub listen: ListenArgs,
    /// The board of a game whose agents ask for none: houses,seeds (6 to 12 houses)
    #[arg(long, value_name = "M,N", default_value = "6,6")]
    pub board: String,
    /// The bot an agent plays when no other agent comes and its name asks for none: random, greedy, minimax-D, minimax-D:P or level-L
    #[arg(long, value_name = "BOT", default_value = "minimax-4")]
    pub bot: String,
    /// Milliseconds an agent waits for another agent before it plays the bot (0: always the bot)
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub wait: u64,
    /// Games a connection plays before the server says goodbye (0: no end, as go-kgp)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub games: u32,
    /// Verify problems a connection gets before the server reports and says goodbye (0: no end, as go-kgp)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub problems: u32,
}

/// Flags of `kalah kgp tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Where to listen, the database, the times.
    #[command(flatten)]
    pub listen: ListenArgs,
    /// A bot of the server that takes part (repeat for more): random, greedy, minimax-D, minimax-D:P or level-L
    #[arg(long = "bot", value_name = "BOT")]
    pub bots: Vec<String>,
    /// A program that takes part, started for each move as kgpc runs one (repeat for more): its command line, e.g. "python3 agent.py"
    #[arg(long = "program", value_name = "COMMAND")]
    pub programs: Vec<String>,
    /// Agents to wait for over KGP (mode freeplay) before the games begin
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub agents: usize,
    /// A board every pairing plays from both sides (repeat for more): houses,seeds (6 to 12 houses)
    #[arg(long = "board", value_name = "M,N", conflicts_with = "stages")]
    pub boards: Vec<String>,
    /// A stage: a round robin on this board, after the stages before it (repeat for more, as go-kgp's 6,6 then 8,8 ...), with --cut between stages
    #[arg(long = "stage", value_name = "M,N")]
    pub stages: Vec<String>,
    /// Who goes on after each stage but the last: go-kgp (those that lost no more games than they won and drew), half (the better half by points), or N (the best N by points); those level with the last one kept go on too
    #[arg(long, value_name = "RULE", default_value = "go-kgp")]
    pub cut: String,
    /// Play go-kgp's sanity check first: each entrant plays random on 6,6, moving first, and those that lost more games than they won and drew are dropped
    #[arg(long)]
    pub sanity: bool,
    /// Games each entrant plays in the sanity check (go-kgp's -attempts)
    #[arg(long, value_name = "N", default_value_t = 1, requires = "sanity")]
    pub sanity_games: u32,
    /// Seconds the games of an agent whose connection ended wait for it to come back (same token, or name); a game it left is played again from the start; after that its games are given up (0: at once)
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub grace: u64,
    /// Memory each process of a program's move may allocate, in MiB (RLIMIT_DATA, Unix; 0: no limit); a program over it loses its move, not the machine
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub program_memory: u64,
    /// CPU seconds each process of a program's move may use (RLIMIT_CPU, Unix; 0: no limit) [default: --time rounded up to a second, one core's worth]
    #[arg(long, value_name = "SECONDS")]
    pub program_cpu: Option<u64>,
    /// Times each stage's schedule is played
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub rounds: u32,
    /// Games played at once [default: the cores]
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,
    /// After the report, keep serving (the page, late agents told the tournament is over) until Ctrl-C
    #[arg(long)]
    pub stay: bool,
}

/// Reads a listening address, or `off`.
fn address(flag: &str, text: &str) -> Result<Option<SocketAddr>> {
    if text == "off" {
        return Ok(None);
    }
    let found = text.to_socket_addrs().ok().and_then(|mut all| all.next());
    found.map(Some).ok_or_else(|| {
        bad(format!("--{flag} {text:?} is not an address to listen on: ADDRESS:PORT such as 127.0.0.1:2671 or [::]:2671, or off"))
    })
}

/// Runs `kalah kgp serve`, `games` or `record`.
pub fn run(command: KgpServe) -> Result<()> {
    match command {
        KgpServe::Serve(args) => serve(args),
        KgpServe::Tournament(args) => tournament(args),
        KgpServe::Games(args) => games(args),
        KgpServe::Record(args) => record(args),
        KgpServe::Standings(args) => standings(args),
        KgpServe::Report(args) => report(args),
    }
}

/// Opens an existing database to read.
fn reader(db: Option<PathBuf>) -> Result<Reader> {
    let db = match db {
        Some(db) => db,
        None => default_db()?,
    };
    if !db.is_file() {
        return Err(bad(format!("{} is no database of kalah kgp serve: give one with --db", db.display())));
    }
    Reader::open(&db).map_err(|e| bad(e.to_string()))
}

fn games(args: GamesArgs) -> Result<()> {
    let games = reader(args.db)?.games(args.agent.as_deref(), None).map_err(|e| bad(e.to_string()))?;
    // Written with `?`, not println!, which panics on a closed pipe: `main` ends quietly on one.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:>6}  {:<15} {:>5}  {:<20} {:<20} rules", "game", "state", "moves", "south", "north")?;
    for game in games {
        writeln!(
            out,
            "{:>6}  {:<15} {:>5}  {:<20} {:<20} {}",
            game.id, game.state, game.moves, game.south, game.north, game.rules
        )?;
    }
    out.flush()?;
    Ok(())
}

fn record(args: RecordArgs) -> Result<()> {
    let id = args.id;
    match reader(args.db)?.record(id).map_err(|e| bad(e.to_string()))? {
        Some(record) => {
            let mut out = std::io::stdout().lock();
            write!(out, "{record}")?;
            out.flush()?;
            Ok(())
        }
        None => Err(bad(format!("there is no game {id} in the database: kalah kgp games lists them"))),
    }
}

/// The database's default place: the user's data folder.
fn default_db() -> Result<PathBuf> {
    data_file("kgp.sqlite")
}

/// Returns the path of `name` in the user's data folder (`$XDG_DATA_HOME/kalah`, or
/// `~/.local/share/kalah`), making the folder if needed.
pub(crate) fn data_file(name: &str) -> Result<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local/share")));
    let dir = data
        .ok_or_else(|| {
            bad("cannot find a data folder (neither XDG_DATA_HOME nor HOME is set): give the database with --db")
        })?
        .join("kalah");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create the data folder {}", dir.display()))?;
    Ok(dir.join(name))
}

fn millis(flag: &str, value: u64, low: u64) -> Result<Duration> {
    if !(low..=3_600_000).contains(&value) {
        return Err(bad(format!("--{flag} {value} is out of range: {low} to 3600000 milliseconds")));
    }
    Ok(Duration::from_millis(value))
}

/// Reads the flags both servers share into a configuration.
fn config(args: &ListenArgs) -> Result<Config> {
    let db = match &args.db {
        Some(db) => db.clone(),
        None => default_db()?,
    };
    let mut config = Config::new(db);
    config.tcp = address("tcp", &args.tcp)?;
    config.websocket = address("websocket", &args.websocket)?;
    if let (Some(cert), Some(key)) = (&args.cert, &args.key) {
        if config.websocket.is_none() {
            return Err(bad("--cert and --key serve the WebSocket listener over TLS, but --websocket is off"));
        }
        config.tls = Some(TlsFiles { cert: cert.clone(), key: key.clone() });
    }
    config.session.move_time = millis("time", args.time, 1)?;
    config.session.ping = !args.no_ping;
    config.session.mode_wait = millis("mode-wait", args.mode_wait, 1)?;
    config.bot_time = millis("bot-time", args.bot_time, 1)?;
    Ok(config)
}

/// Runs `kalah kgp serve` until Ctrl-C.
fn serve(args: ServeArgs) -> Result<()> {
    let mut config = config(&args.listen)?;
    if config.tcp.is_none() && config.websocket.is_none() {
        return Err(bad("--tcp off and --websocket off leave nothing to listen on: keep one of them"));
    }
    config.board = args.board.parse::<Board>().map_err(|e| bad(format!("--board: {e}")))?;
    config.bot = args.bot.parse::<Bot>().map_err(|e| bad(format!("--bot: {e}")))?;
    config.wait = millis("wait", args.wait, 0)?;
    config.session.problems = (args.problems > 0).then_some(args.problems);
    config.games = (args.games > 0).then_some(args.games);
    run_server(config, false)
}

/// Runs `kalah kgp tournament` until its table is printed (and, with `--stay`, until Ctrl-C).
fn tournament(args: TournamentArgs) -> Result<()> {
    let mut config = config(&args.listen)?;
    let bots = args
        .bots
        .iter()
        .map(|b| b.parse::<Bot>().map_err(|e| bad(format!("--bot: {e}"))))
        .collect::<Result<Vec<_>>>()?;
    let programs = args
        .programs
        .iter()
        .map(|p| kalah_kgp_server::program::split_command(p).map_err(|e| bad(format!("--program: {e}"))))
        .collect::<Result<Vec<_>>>()?;
    let mut boards = args
        .boards
        .iter()
        .map(|b| b.parse::<Board>().map_err(|e| bad(format!("--board: {e}"))))
        .collect::<Result<Vec<_>>>()?;
    if boards.is_empty() {
        boards.push(config.board);
    }
    let stages = if args.stages.is_empty() {
        vec![boards]
    } else {
        args.stages
            .iter()
            .map(|b| b.parse::<Board>().map(|b| vec![b]).map_err(|e| bad(format!("--stage: {e}"))))
            .collect::<Result<Vec<_>>>()?
    };
    let cut = args.cut.parse::<Cut>().map_err(|e| bad(format!("--cut: {e}")))?;
    if args.cut != "go-kgp" && stages.len() < 2 {
        return Err(bad("--cut chooses who goes on between stages, and there is one: give --stage M,N twice or more"));
    }
    if args.sanity && args.sanity_games == 0 {
        return Err(bad("--sanity-games 0 plays no sanity check: give 1 or more, or leave --sanity out"));
    }
    if args.grace > 86_400 {
        return Err(bad(format!("--grace {} is out of range: 0 to 86400 seconds", args.grace)));
    }
    // One core's worth of the move's time, as go-kgp's container with 1 CPU gives.
    let cpu = args.program_cpu.unwrap_or_else(|| config.session.move_time.as_millis().div_ceil(1000) as u64);
    if args.program_memory > 1 << 30 {
        return Err(bad(format!("--program-memory {} is out of range: 0 to {} MiB", args.program_memory, 1u64 << 30)));
    }
    let limits = Limits {
        memory: (args.program_memory > 0).then_some(args.program_memory << 20),
        cpu: (cpu > 0).then_some(cpu),
    };
    let mut names: Vec<String> =
        bots.iter().map(ToString::to_string).chain(programs.iter().map(|p| p.join(" "))).collect();
    names.sort();
    if let Some(twice) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(bad(format!(
            "{:?} is given twice: each bot and program takes part once (a program's name is its command line's words)",
            twice[0]
        )));
    }
    if args.rounds == 0 {
        return Err(bad("--rounds 0 plays nothing: give 1 or more"));
    }
    if args.parallel == Some(0) {
        return Err(bad("--parallel 0 plays nothing: give 1 or more"));
    }
    let tournament = TournamentConfig {
        bots,
        programs,
        agents: args.agents,
        stages,
        rounds: args.rounds,
        parallel: args.parallel.unwrap_or(config.searches),
        sanity: if args.sanity { args.sanity_games } else { 0 },
        cut,
        grace: Duration::from_secs(args.grace),
        limits,
    };
    if tournament.entrants() < 2 {
        return Err(bad(format!(
            "a tournament needs 2 entrants or more, and this one has {}: add --bot BOT, --program COMMAND or --agents N",
            tournament.entrants()
        )));
    }
    if config.tcp.is_none() && config.websocket.is_none() && tournament.agents > 0 {
        return Err(bad("--tcp off and --websocket off leave no way in for --agents: keep one of them"));
    }
    config.wait = Duration::ZERO;
    config.tournament = Some(tournament);
    run_server(config, !args.stay)
}

/// Runs the server until Ctrl-C; a tournament prints its report when it is over, and with `stop_at_end`
/// the server stops then.
fn run_server(config: Config, stop_at_end: bool) -> Result<()> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the server")?;
    let name = if config.tournament.is_some() { "kalah kgp tournament" } else { "kalah kgp serve" };
    runtime.block_on(async move {
        let (events, mut log) = tokio::sync::mpsc::unbounded_channel();
        let db = config.db.clone();
        let interrupted = crate::serve::interrupted().context("cannot listen for Ctrl-C")?;
        let server = Server::start(config, events).await.map_err(|e| bad(e.to_string()))?;
        log_line(name, format_args!("games are stored in {} (Ctrl-C stops)", db.display()));
        #[cfg(unix)]
        if let Some(certificates) = server.certificates() {
            crate::serve::reload_on_hangup(std::sync::Arc::clone(certificates), move |reloaded| match reloaded {
                Ok(()) => log_line(name, format_args!("SIGHUP: the certificate was read again")),
                Err(e) => log_line(
                    name,
                    format_args!("SIGHUP: cannot read the certificate ({e}): still serving the earlier one"),
                ),
            })
            .context("cannot listen for SIGHUP")?;
        }
        let (over, mut ended) = tokio::sync::mpsc::unbounded_channel();
        // The printer is told to finish once the server has stopped: it prints every event still
        // queued first, so that the last games' ends are not lost.
        let (flush, mut flushed) = tokio::sync::oneshot::channel::<()>();
        let printer = tokio::spawn(async move {
            let print = |event: Event| {
                let db = db.clone();
                let over = over.clone();
                async move {
                    log_line(name, format_args!("{event}"));
                    if let Event::TournamentOver(id) = event {
                        let report =
                            tokio::task::spawn_blocking(move || Reader::open(&db).and_then(|r| Report::read(&r, id)))
                                .await;
                        match report {
                            // The report is the tournament's result, not a line of the log: no time.
                            // A reader that has gone (a closed pipe) does not stop the server.
                            Ok(Ok(Some(report))) => {
                                let _ = write!(std::io::stdout(), "{report}");
                            }
                            Ok(Ok(None)) => {
                                log_line(name, format_args!("the report cannot be read: no tournament {id}"))
                            }
                            Ok(Err(error)) => log_line(name, format_args!("the report cannot be read: {error}")),
                            Err(error) => log_line(name, format_args!("the report cannot be read: {error}")),
                        }
                        let _ = over.send(());
                    }
                }
            };
            loop {
                tokio::select! {
                    biased;
                    event = log.recv() => match event {
                        Some(event) => print(event).await,
                        None => break,
                    },
                    _ = &mut flushed => {
                        while let Ok(event) = log.try_recv() {
                            print(event).await;
                        }
                        break;
                    }
                }
            }
        });
        tokio::select! {
            () = interrupted => {}
            Some(()) = ended.recv(), if stop_at_end => {}
        }
        log_line(name, format_args!("stopping: goodbye to every connection"));
        server.shutdown().await;
        let _ = flush.send(());
        let _ = printer.await;
        log_line(name, format_args!("stopped"));
        Ok(())
    })
}

/// Prints a line of the server's log: its UTC time (RFC 3339, to the second), the command's name
/// and `text`. A log whose reader has gone (a closed pipe) does not stop the server: the line is
/// lost, nothing else.
fn log_line(name: &str, text: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stdout(), "{} {name}: {text}", utc_now());
}

/// The time now in UTC, as RFC 3339 writes it to the second: `2026-11-27T17:10:03Z`.
fn utc_now() -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    time::OffsetDateTime::now_utc().format(&format).unwrap_or_default()
}

/// Returns the id of the last tournament stored.
fn last_tournament(reader: &Reader) -> Result<i64> {
    reader.tournaments().map_err(|e| bad(e.to_string()))?.first().map(|t| t.id).ok_or_else(|| {
        bad("the database holds no tournament: kalah kgp tournament plays one (kalah kgp standings --all tables every game)")
    })
}

fn report(args: ReportArgs) -> Result<()> {
    let reader = reader(args.db)?;
    let id = match args.tournament {
        Some(id) => id,
        None => last_tournament(&reader)?,
    };
    let report = Report::read(&reader, id).map_err(|e| bad(e.to_string()))?.ok_or_else(|| {
        bad(format!(
            "there is no tournament {id} in the database: kalah kgp report without --tournament reads the last one"
        ))
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "tournament {id}:")?;
    write!(out, "{report}")?;
    out.flush()?;
    Ok(())
}

fn standings(args: StandingsArgs) -> Result<()> {
    let reader = reader(args.db)?;
    let tournament = match (args.all, args.tournament) {
        (true, _) => None,
        (false, Some(id)) => Some(id),
        (false, None) => {
            Some(reader.tournaments().map_err(|e| bad(e.to_string()))?.first().map(|t| t.id).ok_or_else(|| {
                bad("the database holds no tournament: give --all for the table of every game stored")
            })?)
        }
    };
    if let Some(id) = tournament {
        let known = reader.tournaments().map_err(|e| bad(e.to_string()))?;
        if !known.iter().any(|t| t.id == id) {
            return Err(bad(format!(
                "there is no tournament {id} in the database: kalah kgp standings --all covers every game"
            )));
        }
    }
    let games = reader.games(None, tournament).map_err(|e| bad(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if let Some(id) = tournament {
        writeln!(out, "tournament {id}:")?;
    }
    write!(out, "{}", Standings::from_games(&games))?;
    out.flush()?;
    Ok(())
}
