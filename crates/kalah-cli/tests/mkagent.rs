//! `kalah mkagent` against a referee written here from the MKAgent specification (the Manchester
//! ManKalah referee): whole games with the agent as South and as North, with and without a swap,
//! two agents against each other, malformed lines, the referee's own delays and a dropped
//! connection.
//!
//! The referee checks every answer twice: against its own small board, written again here in the
//! manner of the reference referee (rows of a store and seven holes, whole rounds first, the
//! first-move rule applied by the referee, not the board), and against `kalah_rules` under the
//! `mkagent` rules; the two must agree after every move. It charges each agent the time from
//! sending the message that gives it the turn to reading its answer, and the agent loses (the
//! test fails) when that adds up to more than its game time.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use kalah_rules::{perft, Move, Position, Rules, Side};

/// Holes a side and seeds a hole of the Manchester game.
const HOLES: usize = 7;
const SEEDS: u32 = 7;
/// The game time given to the agents: small, so that games are quick.
const GAME_TIME: Duration = Duration::from_secs(3);

/// The processor time (user + system) a process has used so far, from `/proc/PID/stat`; `None`
/// where there is no such file. The agent thinks on one thread and only on its turns, so this
/// bounds the time it spent thinking from below on any machine: a busy machine lengthens the wall
/// time of a turn, never its processor time. That makes it the measure a test can assert, where
/// the wall time the referee sees depends on how busy the machine is.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces: utime
    // and stime are the stat file's 14th and 15th fields, in clock ticks (USER_HZ, 100 on Linux).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
/// The longest wait for an answer or an exit: only a guard against a hung test.
const HANG_GUARD: Duration = Duration::from_secs(120);

const NORTH: usize = 0;
const SOUTH: usize = 1;

fn side_name(row: usize) -> &'static str {
    if row == NORTH {
        "North"
    } else {
        "South"
    }
}

/// The board as the reference referee keeps it: per side (North, South) the store at 0 and the
/// holes 1..=7, each side's hole 1 the one farthest from its store; hole h faces hole 8 − h.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RefBoard([[u32; HOLES + 1]; 2]);

impl RefBoard {
    fn new() -> RefBoard {
        let mut row = [SEEDS; HOLES + 1];
        row[0] = 0;
        RefBoard([row, row])
    }

    fn is_legal(&self, side: usize, hole: usize) -> bool {
        (1..=HOLES).contains(&hole) && self.0[side][hole] != 0
    }

    /// Sows `hole` of `side` and returns the side whose turn it is by the board alone.
    fn make_move(&mut self, side: usize, hole: usize) -> usize {
        let seeds = self.0[side][hole];
        self.0[side][hole] = 0;
        let pits = 2 * HOLES as u32 + 1;
        let (rounds, mut extra) = (seeds / pits, seeds % pits);
        if rounds > 0 {
            for h in 1..=HOLES {
                self.0[NORTH][h] += rounds;
                self.0[SOUTH][h] += rounds;
            }
            self.0[side][0] += rounds;
        }
        let (mut sow_side, mut sow_hole) = (side, hole);
        while extra > 0 {
            extra -= 1;
            sow_hole += 1;
            if sow_hole == 1 {
                sow_side = 1 - sow_side;
            }
            if sow_hole > HOLES {
                if sow_side == side {
                    sow_hole = 0;
                    self.0[side][0] += 1;
                    continue;
                }
                sow_side = 1 - sow_side;
                sow_hole = 1;
            }
            self.0[sow_side][sow_hole] += 1;
        }
        let opposite = HOLES + 1 - sow_hole.max(1);
        if sow_side == side && sow_hole > 0 && self.0[side][sow_hole] == 1 && self.0[1 - side][opposite] > 0 {
            self.0[side][0] += 1 + self.0[1 - side][opposite];
            self.0[side][sow_hole] = 0;
            self.0[1 - side][opposite] = 0;
        }
        let empty = |s: usize| self.0[s][1..].iter().all(|&n| n == 0);
        let finished = [side, 1 - side].into_iter().find(|&s| empty(s));
        if let Some(finished) = finished {
            let collector = 1 - finished;
            let rest: u32 = self.0[collector][1..].iter().sum();
            self.0[collector][1..].fill(0);
            self.0[collector][0] += rest;
        }
        if sow_hole == 0 {
            side
        } else {
            1 - side
        }
    }

    fn game_over(&self) -> bool {
        (0..2).any(|s| self.0[s][1..].iter().all(|&n| n == 0))
    }

    /// Writes the board field of a CHANGE: North's holes and store, then South's.
    fn message(&self) -> String {
        let side = |s: usize| self.0[s][1..].iter().chain([&self.0[s][0]]).map(u32::to_string).collect::<Vec<_>>();
        [side(NORTH), side(SOUTH)].concat().join(",")
    }

    /// Tells whether the library's position has the same seeds everywhere.
    fn agrees_with(&self, p: &Position) -> bool {
        [(NORTH, Side::North), (SOUTH, Side::South)].into_iter().all(|(s, side)| {
            p.row(side).iter().map(|&n| u32::from(n)).eq(self.0[s][1..].iter().copied())
                && u32::from(p.store(side)) == self.0[s][0]
        })
    }
}

/// Perft on the referee's board, with the referee's first-move rule.
fn ref_perft(board: &RefBoard, side: usize, depth: u32, first: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if board.game_over() {
        return 0;
    }
    (1..=HOLES)
        .filter(|&h| board.is_legal(side, h))
        .map(|h| {
            let mut next = board.clone();
            let turn = next.make_move(side, h);
            ref_perft(&next, if first { 1 - side } else { turn }, depth - 1, false)
        })
        .sum()
}

#[test]
fn the_referee_board_and_the_library_count_the_same_games() {
    let rules = Rules::mkagent();
    for depth in 1..=5 {
        assert_eq!(
            ref_perft(&RefBoard::new(), SOUTH, depth, true),
            perft(&Position::start(&rules), &rules, depth),
            "depth {depth}"
        );
    }
    // Without the first-move rule South's house 1 (7 seeds, the 7th in the store) moves again.
    assert_eq!(ref_perft(&RefBoard::new(), SOUTH, 2, false), 48);
    assert_eq!(ref_perft(&RefBoard::new(), SOUTH, 2, true), 49);
}

/// A running `kalah mkagent`.
struct Agent {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// When the referee last gave it the turn.
    turn_given: Option<Instant>,
    /// Its time as the referee measures it (wall time, reported, never asserted), its processor
    /// time after its last answer, and its answers.
    response: Duration,
    cpu: Option<Duration>,
    answers: u32,
}

impl Agent {
    fn spawn(extra: &[&str]) -> Agent {
        let game_time = format!("{}ms", GAME_TIME.as_millis());
        let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
            .args(["mkagent", "--no-egdb", "--hash", "8", "--game-time", &game_time])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kalah binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Agent {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            turn_given: None,
            response: Duration::ZERO,
            cpu: None,
            answers: 0,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).expect("the agent reads its input");
    }

    /// Reads the answer to the turn given last, charging the agent for it.
    fn answer(&mut self) -> String {
        let line = self.lines.recv_timeout(HANG_GUARD).expect("the agent answers (hang guard)");
        let given = self.turn_given.take().expect("an answer comes only after the turn is given");
        self.response += given.elapsed();
        self.answers += 1;
        self.cpu = cpu_time(self.child.id());
        if let Some(cpu) = self.cpu {
            assert!(cpu <= GAME_TIME, "the agent thought longer than its game time: {cpu:?} of processor time");
        }
        line
    }

    /// Waits for it to exit (closing its input first if `close`): how it ended.
    fn finish(mut self, close: bool) -> Finished {
        if close {
            self.stdin = None;
        }
        let waited = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for the agent") {
                break status;
            }
            if waited.elapsed() > HANG_GUARD {
                let _ = self.child.kill();
                panic!("the agent did not exit (hang guard)");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let stderr = self.stderr.take().unwrap().join().expect("stderr reader");
        // Everything it wrote is read to the end of its output, however late it comes.
        match self.lines.recv_timeout(HANG_GUARD) {
            Ok(line) => panic!("the agent wrote {line:?} when it was not its turn"),
            Err(mpsc::RecvTimeoutError::Disconnected) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("the agent's output never ended (hang guard)"),
        }
        Finished { response: self.response, cpu: self.cpu, answers: self.answers, status, stderr }
    }
}

/// A player inside the referee: seeded random moves, an optional opening, an optional swap.
struct Script {
    state: u64,
    opening: Option<usize>,
    swap: bool,
    /// How long it "thinks" before each answer: the referee's time, never the agent's.
    think: Duration,
}

impl Script {
    fn new(seed: u64) -> Script {
        Script { state: seed, opening: None, swap: false, think: Duration::ZERO }
    }

    fn answer(&mut self, board: &RefBoard, side: usize, may_swap: bool) -> String {
        std::thread::sleep(self.think);
        if may_swap && self.swap {
            return "SWAP".to_string();
        }
        if let Some(hole) = self.opening.take() {
            return format!("MOVE;{hole}");
        }
        let legal: Vec<usize> = (1..=HOLES).filter(|&h| board.is_legal(side, h)).collect();
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        format!("MOVE;{}", legal[(self.state >> 33) as usize % legal.len()])
    }
}

enum Player {
    Agent(Agent),
    Script(Script),
}

/// What the referee does beyond the protocol.
#[derive(Default)]
struct Setup {
    /// Waits before every message to an agent.
    delay: Duration,
    /// Lines slipped in before messages to agents, one before each message until used up.
    junk: Vec<&'static str>,
}

/// How an agent ended: its time as the referee measured it, its processor time, its answers, its
/// exit and its log.
struct Finished {
    response: Duration,
    cpu: Option<Duration>,
    answers: u32,
    status: ExitStatus,
    stderr: String,
}

impl Finished {
    /// Checks a whole game's agent: a clean exit, its answers counted, and its thinking within the
    /// game time, measured as processor time (see [`cpu_time`]; the wall times, the referee's and
    /// the agent's own, grow on a busy machine and are not asserted). Returns the agent's own
    /// count of its thinking time in milliseconds.
    fn check(&self) -> u128 {
        assert!(self.status.success(), "the agent exited with {}: {}", self.status, self.stderr);
        let summary = self
            .stderr
            .lines()
            .find(|l| l.contains("thinking time"))
            .unwrap_or_else(|| panic!("the agent's log has no summary: {}", self.stderr));
        let number = |after: &str| -> u128 {
            let at = summary.find(after).unwrap_or_else(|| panic!("{after:?} in {summary:?}"));
            summary[at + after.len()..].split(' ').next().unwrap().parse().unwrap()
        };
        assert_eq!(number("ms over ") as u32, self.answers, "{summary}");
        let own = number("thinking time ");
        if let Some(cpu) = self.cpu {
            let wall = self.response;
            assert!(cpu <= GAME_TIME, "{cpu:?} of processor time ({wall:?} of wall time by the referee): {summary}");
        }
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        own
    }
}

/// The end of a game: the board, whether North swapped, the agents in the order seated, and
/// the referee's waits.
struct Report {
    board: RefBoard,
    swapped: bool,
    agents: Vec<Finished>,
    waited: Duration,
    junk_sent: usize,
    /// Turns where an agent was told YOU right after its own sowing (an extra move).
    extra_turns: u32,
}

struct Referee {
    rules: Rules,
    board: RefBoard,
    library: Position,
    /// Indexed by the side each player has now.
    players: [(usize, Player); 2],
    setup: Setup,
    waited: Duration,
    junk_sent: usize,
}

impl Referee {
    /// Seats `first` as South (it moves first) and `second` as North.
    fn new(first: Player, second: Player, setup: Setup) -> Referee {
        let rules = Rules::mkagent();
        Referee {
            rules,
            board: RefBoard::new(),
            library: Position::start(&rules),
            players: [(1, second), (0, first)],
            setup,
            waited: Duration::ZERO,
            junk_sent: 0,
        }
    }

    fn send(&mut self, side: usize, line: &str, gives_turn: bool) {
        if let (_, Player::Agent(agent)) = &mut self.players[side] {
            std::thread::sleep(self.setup.delay);
            self.waited += self.setup.delay;
            if !self.setup.junk.is_empty() {
                agent.send(self.setup.junk.remove(0));
                self.junk_sent += 1;
            }
            // The clock starts before the line goes out, so the agent's reading of it always
            // falls inside the referee's interval.
            if gives_turn {
                agent.turn_given = Some(Instant::now());
            }
            agent.send(line);
        }
    }

    fn answer(&mut self, side: usize, may_swap: bool) -> String {
        match &mut self.players[side].1 {
            Player::Agent(agent) => agent.answer(),
            Player::Script(script) => {
                let started = Instant::now();
                let line = script.answer(&self.board, side, may_swap);
                self.waited += started.elapsed();
                line
            }
        }
    }

    /// Plays the game to the end as the reference referee does, then sends END to both.
    fn run(mut self) -> Report {
        self.send(NORTH, "START;North", false);
        self.send(SOUTH, "START;South", true);
        let mut active = SOUTH;
        let mut swapped = false;
        let mut extra_turns = 0;
        for move_count in 1.. {
            let line = self.answer(active, move_count == 2);
            let who = format!("{} (player {}) on move {move_count}", side_name(active), self.players[active].0 + 1);
            if line == "SWAP" {
                assert_eq!(move_count, 2, "{who} swapped where the pie rule does not allow it");
                // The players change sides; the first player, North now, moves on the same board.
                self.players.swap(NORTH, SOUTH);
                swapped = true;
                let board = self.board.message();
                self.send(NORTH, &format!("CHANGE;SWAP;{board};YOU"), true);
                continue;
            }
            let hole: usize = line
                .strip_prefix("MOVE;")
                .filter(|k| k.len() == 1)
                .and_then(|k| k.parse().ok())
                .unwrap_or_else(|| panic!("{who} sent the malformed answer {line:?}"));
            assert!(self.board.is_legal(active, hole), "{who} sent the illegal move {line:?}");
            let mover = if active == NORTH { Side::North } else { Side::South };
            assert_eq!(self.library.mover(), mover, "{who}: the library has the other side to move");
            let (next, _) = self
                .library
                .play(&self.rules, Move::from_number(hole as u32).unwrap())
                .unwrap_or_else(|e| panic!("{who}: the library refuses {line:?}: {e}"));
            let mut turn = self.board.make_move(active, hole);
            if move_count == 1 {
                turn = 1 - active;
            }
            let over = self.board.game_over();
            assert!(self.board.agrees_with(&next), "{who}: boards differ: {} vs {next}", self.board.message());
            assert_eq!(next.is_over(&self.rules), over, "{who}: the end differs");
            if !over {
                let turn_side = if turn == NORTH { Side::North } else { Side::South };
                assert_eq!(next.mover(), turn_side, "{who}: the turn differs");
            }
            self.library = next;
            if turn == active && !over {
                extra_turns += u32::from(matches!(self.players[active].1, Player::Agent(_)));
            }
            active = turn;
            let board = self.board.message();
            let (mine, theirs) = if over { ("END", "END") } else { ("YOU", "OPP") };
            self.send(1 - active, &format!("CHANGE;{hole};{board};{theirs}"), false);
            self.send(active, &format!("CHANGE;{hole};{board};{mine}"), !over);
            if over {
                break;
            }
        }
        self.send(NORTH, "END", false);
        self.send(SOUTH, "END", false);
        let mut seats: Vec<(usize, Player)> = self.players.into_iter().collect();
        seats.sort_by_key(|(number, _)| *number);
        // Agents must stop on END by themselves: their input stays open until they have.
        let agents = seats
            .into_iter()
            .filter_map(|(_, player)| match player {
                Player::Agent(agent) => Some(agent.finish(false)),
                Player::Script(_) => None,
            })
            .collect();
        Report { board: self.board, swapped, agents, waited: self.waited, junk_sent: self.junk_sent, extra_turns }
    }
}

fn agent(extra: &[&str]) -> Player {
    Player::Agent(Agent::spawn(extra))
}

fn script(seed: u64) -> Player {
    Player::Script(Script::new(seed))
}

/// Checks what every finished game must show, and returns the agents' logs.
fn check(report: &Report) -> Vec<&str> {
    assert!(report.board.game_over());
    let total: u32 = report.board.0.iter().map(|row| row.iter().sum::<u32>()).sum();
    assert_eq!(total, 2 * HOLES as u32 * SEEDS, "seeds are kept");
    report
        .agents
        .iter()
        .map(|a| {
            a.check();
            a.stderr.as_str()
        })
        .collect()
}

#[test]
fn agent_as_south_plays_a_whole_game() {
    let report = Referee::new(agent(&[]), script(1), Setup::default()).run();
    assert!(!report.swapped);
    let logs = check(&report);
    assert!(logs[0].contains("South plays"), "{}", logs[0]);
    assert!(logs[0].contains("played South"), "{}", logs[0]);
}

#[test]
fn agent_as_south_plays_on_as_north_after_the_opponent_swaps() {
    let swapper = Player::Script(Script { swap: true, ..Script::new(2) });
    let report = Referee::new(agent(&[]), swapper, Setup::default()).run();
    assert!(report.swapped);
    let logs = check(&report);
    assert!(logs[0].contains("North plays"), "{}", logs[0]);
    assert!(logs[0].contains("played North"), "{}", logs[0]);
}

#[test]
fn agent_as_north_swaps_when_told_and_plays_on_as_south() {
    let opener = Player::Script(Script { opening: Some(3), ..Script::new(3) });
    let report = Referee::new(opener, agent(&["--swap", "always"]), Setup::default()).run();
    assert!(report.swapped);
    let logs = check(&report);
    assert!(logs[0].contains("North swaps"), "{}", logs[0]);
    assert!(logs[0].contains("played South"), "{}", logs[0]);
}

#[test]
fn agent_as_north_keeps_its_side_when_told() {
    let opener = Player::Script(Script { opening: Some(1), ..Script::new(4) });
    let report = Referee::new(opener, agent(&["--swap", "never"]), Setup::default()).run();
    assert!(!report.swapped);
    let logs = check(&report);
    assert!(logs[0].contains("played North"), "{}", logs[0]);
}

#[test]
fn the_swap_message_gives_norths_value_with_its_sign() {
    // The referee reports South's first move on a board where South is far ahead: the position
    // is worth about -30 seeds to North, so the agent swaps, and its log must give that value for
    // North as `analyze` does, not the swapper's gain with North's name on it.
    let mut a = Agent::spawn(&[]);
    a.send("START;North");
    a.turn_given = Some(Instant::now());
    a.send("CHANGE;1;7,7,7,7,7,7,7,0,0,2,2,2,2,2,2,37;YOU");
    assert_eq!(a.answer(), "SWAP");
    a.send("END");
    let finished = a.finish(false);
    assert!(finished.status.success(), "{}", finished.stderr);
    let line = finished.stderr.lines().find(|l| l.contains("North swaps")).expect("the swap is logged");
    let before = line.split(" seeds for North").next().unwrap();
    let value: f64 = before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|e| panic!("{e}: {line}"));
    assert!(value < -20.0, "{line}");
}

#[test]
fn two_agents_play_each_other_through_the_referee() {
    let report = Referee::new(agent(&[]), agent(&[]), Setup::default()).run();
    let logs = check(&report);
    assert_eq!(logs.len(), 2);
    // Whatever North decided, the two agents end on opposite sides.
    let sides: Vec<bool> = logs.iter().map(|l| l.contains("played South")).collect();
    assert_ne!(sides[0], sides[1], "{logs:?}");
    assert_eq!(logs[1].contains("North swaps"), report.swapped);
    eprintln!("agent against agent: {} extra turns, swapped: {}", report.extra_turns, report.swapped);
}

#[test]
fn the_referees_delays_are_not_the_agents_time() {
    let slow = Script { opening: Some(1), think: Duration::from_millis(100), ..Script::new(5) };
    let setup = Setup { delay: Duration::from_millis(100), ..Setup::default() };
    let report = Referee::new(Player::Script(slow), agent(&[]), setup).run();
    check(&report);
    // The referee and the other player took longer than the agent's whole game time, yet the
    // agent answered within its clock and did not count their time as its own: its own count
    // stays within what its clock lets it plan (the game time and a search's stop), about half
    // of the waits, while counting the waits would put it above them.
    assert!(report.waited > GAME_TIME, "the waits ({:?}) should exceed the game time", report.waited);
    let own = report.agents[0].check();
    assert!(own < report.waited.as_millis(), "the agent counted {own} ms, the waits were {:?}", report.waited);
}

#[test]
fn malformed_and_untimely_lines_are_reported_and_skipped() {
    let junk = vec![
        "HELLO",
        "",
        "START;East",
        "MOVE;3",
        "CHANGE;9;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP",
        "CHANGE;1;7,7,7;OPP",
        "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;LATER",
        "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
        "START;North",
        "end",
    ];
    let count = junk.len();
    let setup = Setup { junk, ..Setup::default() };
    let report = Referee::new(agent(&[]), script(6), setup).run();
    assert_eq!(report.junk_sent, count);
    let logs = check(&report);
    let ignored = logs[0].lines().filter(|l| l.contains("ignored the line")).count();
    assert_eq!(ignored, count, "{}", logs[0]);
}

#[test]
fn a_dropped_connection_ends_the_agent_with_a_message() {
    // Mid-game: the agent has moved, the referee reports it and goes away.
    let mut a = Agent::spawn(&[]);
    a.send("START;South");
    a.turn_given = Some(Instant::now());
    let line = a.answer();
    let hole: usize = line.strip_prefix("MOVE;").and_then(|k| k.parse().ok()).expect("a move");
    let mut board = RefBoard::new();
    board.make_move(SOUTH, hole);
    a.send(&format!("CHANGE;{hole};{};OPP", board.message()));
    let finished = a.finish(true);
    assert_eq!(finished.status.code(), Some(1), "{}", finished.stderr);
    assert!(
        finished.stderr.contains("the referee closed the connection in the middle of the game, after 1 moves"),
        "{}",
        finished.stderr
    );
    assert!(!finished.stderr.contains("panicked"));
    // Before the game: also a message, also status 1.
    let finished = Agent::spawn(&[]).finish(true);
    assert_eq!(finished.status.code(), Some(1));
    assert!(finished.stderr.contains("closed the connection before START"), "{}", finished.stderr);
    // Its output closed: the answer cannot go out.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kalah"))
        .args(["mkagent", "--no-egdb", "--hash", "8", "--game-time", "3s"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    writeln!(child.stdin.as_mut().unwrap(), "START;South").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the referee closed the connection before the agent's answer"), "{stderr}");
    // After the last CHANGE but before END: the game is over, so a clean exit.
    let mut a = Agent::spawn(&[]);
    a.send("START;North");
    a.send("CHANGE;1;0,0,0,0,0,0,0,48,0,0,0,0,0,0,0,50;END");
    let finished = a.finish(true);
    assert!(finished.status.success(), "{}", finished.stderr);
}

#[test]
fn bad_flags_are_refused() {
    for flags in [["--game-time", "0s"], ["--game-time", "soon"], ["--swap", "sometimes"], ["--hash", "0"]] {
        let out =
            Command::new(env!("CARGO_BIN_EXE_kalah")).arg("mkagent").args(flags).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    }
}

#[test]
fn over_long_lines_are_reported_and_skipped() {
    // Over the 64 KiB limit: a CHANGE of 200 KB with far too many cells, and 4 MiB of one letter.
    let change: &'static str = Box::leak(format!("CHANGE;1;{}0;YOU", "7,".repeat(100_000)).into_boxed_str());
    let endless: &'static str = Box::leak("z".repeat(4 << 20).into_boxed_str());
    // At the limit: read, and refused as a message like any other.
    let limit: &'static str = Box::leak("x".repeat(64 << 10).into_boxed_str());
    let setup = Setup { junk: vec![change, endless, limit], ..Setup::default() };
    let report = Referee::new(agent(&[]), script(7), setup).run();
    assert_eq!(report.junk_sent, 3);
    let logs = check(&report);
    let skipped: Vec<&str> = logs[0].lines().filter(|l| l.contains("ignored a line of")).collect();
    let said = |length: usize| {
        let why = "a message is one line of at most 65536 bytes";
        format!("kalah mkagent: ignored a line of {length} bytes from the referee: {why}")
    };
    assert_eq!(skipped, [said(change.len()), said(4 << 20)], "{}", logs[0]);
    let refused =
        logs[0].lines().find(|l| l.contains("ignored the line \"xxx")).expect("the line at the limit is read");
    assert!(
        refused.len() < 300
            && refused.ends_with("unknown message: expected START;South, START;North, CHANGE;MOVE;BOARD;TURN or END"),
        "{refused}"
    );
}
