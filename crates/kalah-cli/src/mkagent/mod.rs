//! `kalah mkagent`: an agent for the Manchester "MKAgent" referee (ManKalah), Kalah(7,7) with the
//! pie rule and no extra move on the first move, over standard input and output.
//!
//! The referee starts the agent, writes one message a line to its standard input and reads its
//! answers from its standard output; the messages and the game as the agent follows it are in
//! [`kalah_protocol::mkagent`], and here is the input and output around them. A line longer than
//! [`MAX_LINE`] is reported and skipped like any other line that is not a message. The agent
//! thinks only when the referee says it is its turn, and charges to its clock only the time from
//! reading that line to writing its answer, which is what the referee charges it (the referee's
//! own delays and the opponent's thinking are not its time).
//!
//! Decisions are those of every player ([`kalah_engine::decide`]), by the strong engine on the
//! game clock: a move; South's first move, the opening closest to even for North, since North
//! will keep a good position and swap a bad one; North's swap, when the position is worth less
//! than 0 to North (or as `--swap` says).

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use kalah_engine::decide::{self, Decision, Turn};
use kalah_engine::time::{GameClock, Limits};
use kalah_engine::GameEngine;
use kalah_protocol::mkagent::{Next, Session, MAX_LINE};
use kalah_protocol::{Frame, LineReader};
use kalah_rules::{Action, Position, Rules, Side};

use crate::engine::EngineArgs;

/// Flags of `kalah mkagent`.
#[derive(Args, Debug)]
pub struct MkagentArgs {
    /// Thinking time for the whole game, e.g. 3600s, 20s, 1500ms, 60m, 1h (a bare number is seconds)
    #[arg(long, value_name = "TIME", default_value = "3600s", value_parser = parse_game_time)]
    pub game_time: Duration,
    /// Pie rule as North: auto (decided by search), always or never swap
    #[arg(long, value_enum, default_value_t = SwapPolicy::Auto)]
    pub swap: SwapPolicy,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// How North answers the pie offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SwapPolicy {
    /// Swap when the engine values the position below 0 for North.
    Auto,
    /// Always swap.
    Always,
    /// Never swap.
    Never,
}

impl From<SwapPolicy> for decide::SwapPolicy {
    fn from(policy: SwapPolicy) -> decide::SwapPolicy {
        match policy {
            SwapPolicy::Auto => decide::SwapPolicy::Auto,
            SwapPolicy::Always => decide::SwapPolicy::Always,
            SwapPolicy::Never => decide::SwapPolicy::Never,
        }
    }
}

/// The longest game time accepted: a day.
const MAX_GAME_TIME: Duration = Duration::from_secs(24 * 3600);

/// Reads a game time: a number with `ms`, `s`, `m` or `h`, or a bare number of seconds.
fn parse_game_time(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a game time: write e.g. 3600s, 20s, 1500ms, 60m or 1h (up to 24h)");
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|_| bad())?;
    let seconds = match unit {
        "ms" => number / 1000.0,
        "" | "s" => number,
        "m" => number * 60.0,
        "h" => number * 3600.0,
        _ => return Err(bad()),
    };
    let time = Duration::try_from_secs_f64(seconds).map_err(|_| bad())?;
    if time < Duration::from_millis(1) || time > MAX_GAME_TIME {
        return Err(bad());
    }
    Ok(time)
}

/// Returns the agent's clock for a game of `total`: it keeps back a twentieth (at most 5 s) for
/// what it cannot measure, the pipes and the referee's reading.
fn game_clock(total: Duration) -> GameClock {
    GameClock::new(total, Duration::ZERO).with_reserve((total / 20).min(Duration::from_secs(5)))
}

/// The engine of the game's rules, deciding moves.
struct Agent {
    engine: GameEngine,
    swap: SwapPolicy,
}

impl Agent {
    /// Decides the answer to a turn in `position` (the agent to move) on `clock`.
    fn decide(&self, position: &Position, may_swap: bool, clock: &GameClock) -> Decision {
        let turn = Turn::at(*self.engine.rules(), *position, may_swap);
        let limits = Limits::clock(clock.clock());
        self.engine
            .decide_turn(&turn, self.swap.into(), limits, None, |_| {})
            .expect("the turn is under the engine's rules")
            .expect("the agent is asked to move only in a game that goes on")
    }
}

/// Writes the log line of an answer: the side that gave it, what it did, and the value for that
/// side as `analyze` gives it (before a swap: North's, which is below 0 when swapping pays).
fn log_line(side: Side, decision: &Decision) -> String {
    let (reason, value) = (decision.reason, decision.value_for(side));
    match decision.action {
        Action::Swap => format!("{side} swaps ({reason}, {value} seeds for {side}"),
        action => format!("{side} plays {action} ({reason}, {value} seeds for {side}"),
    }
}

/// Runs `kalah mkagent`: reads the referee's messages until `END` or the end of the input.
pub fn run(args: MkagentArgs) -> Result<()> {
    let rules = Rules::mkagent();
    // Everything slow (the table, a database) is set up before the first message, so no
    // message waits on it.
    let (engine, note) = args.engine.build(&rules)?;
    if let Some(note) = note {
        eprintln!("kalah mkagent: {note}");
    }
    let agent = Agent { engine, swap: args.swap };
    let mut clock = game_clock(args.game_time);
    let mut session = Session::new(rules);
    let mut answers = 0u32;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut lines = LineReader::new(MAX_LINE);
    loop {
        let frame = lines.read_from(&mut input).context("cannot read from the referee")?;
        let received = Instant::now();
        let Some(frame) = frame else {
            if session.is_over() {
                summary(&session, &clock, answers);
                return Ok(());
            }
            let when = if session.started() {
                format!("in the middle of the game, after {} moves", session.moves())
            } else {
                "before START".to_string()
            };
            anyhow::bail!("the referee closed the connection {when}; stopping");
        };
        // Like the reference agent, a line that cannot be read or does not fit is reported and
        // skipped: the next CHANGE carries the whole board, so the agent can go on from it.
        let raw = match frame {
            Frame::Line(raw) => raw,
            Frame::TooLong { length, .. } => {
                eprintln!(
                    "kalah mkagent: ignored a line of {length} bytes from the referee: a message is one line of at \
                     most {MAX_LINE} bytes"
                );
                continue;
            }
        };
        let line = String::from_utf8_lossy(&raw);
        let next = match session.receive_line(&line) {
            Ok(next) => next,
            Err(why) => {
                eprintln!("kalah mkagent: ignored the line {} from the referee: {why}", quoted(&line));
                continue;
            }
        };
        if let Some(note) = session.disagreement() {
            eprintln!("kalah mkagent: {note}");
        }
        match next {
            Next::Wait | Next::Over => {}
            Next::Stop => {
                summary(&session, &clock, answers);
                return Ok(());
            }
            Next::Move { may_swap } => {
                let position = *session.position();
                let decision = agent.decide(&position, may_swap, &clock);
                // The session checks the answer against the turn and writes the referee's line.
                let answer = session
                    .answer(decision.action)
                    .with_context(|| format!("the engine's answer {} cannot be sent", decision.action))?;
                if let Err(e) = writeln!(out, "{answer}").and_then(|()| out.flush()) {
                    // A closed pipe is the referee gone, not an error of the agent's: say so plainly.
                    anyhow::ensure!(
                        e.kind() != std::io::ErrorKind::BrokenPipe,
                        "the referee closed the connection before the agent's answer, after {} moves; stopping",
                        session.moves()
                    );
                    return Err(e).context("cannot answer the referee");
                }
                let spent = received.elapsed();
                clock.charge(spent);
                answers += 1;
                eprintln!(
                    "kalah mkagent: {}, depth {}, {:.3} s); clock {:.3} s used of {:.3} s",
                    log_line(position.mover(), &decision),
                    decision.depth,
                    spent.as_secs_f64(),
                    clock.used().as_secs_f64(),
                    clock.total().as_secs_f64()
                );
            }
        }
    }
}

/// Quotes the start of a line for the log, so that a long line gives one short log line.
fn quoted(line: &str) -> String {
    const SHOWN: usize = 80;
    match line.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{:?}…", &line[..end]),
        None => format!("{line:?}"),
    }
}

/// Writes the last line of the agent's log: the result as it knows it and its thinking time.
fn summary(session: &Session, clock: &GameClock, answers: u32) {
    let p = session.position();
    let side = session.side().map_or("no side".to_string(), |s| format!("played {s}"));
    eprintln!(
        "kalah mkagent: end of the match ({side}; stores South {}, North {}): thinking time {} ms over {answers} answers, \
         game time {} ms",
        p.store(Side::South),
        p.store(Side::North),
        clock.used().as_millis(),
        clock.total().as_millis()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::score::Score;

    #[test]
    fn game_times_read_with_units_and_refuse_the_rest() {
        assert_eq!(parse_game_time("3600s"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_game_time("20"), Ok(Duration::from_secs(20)));
        assert_eq!(parse_game_time("1500ms"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_game_time("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_game_time("60m"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_game_time("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["", "s", "0s", "-1s", "10x", "25h", "1e3s", "1 s", "0.0001ms"] {
            assert!(parse_game_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_keeps_a_reserve_and_never_goes_below_zero() {
        let mut clock = game_clock(Duration::from_secs(20));
        assert_eq!(clock.clock().remaining, Duration::from_secs(19));
        clock.charge(Duration::from_secs(25));
        assert_eq!(clock.clock().remaining, Duration::ZERO);
        assert_eq!(game_clock(Duration::from_secs(3600)).clock().remaining, Duration::from_secs(3595));
    }

    #[test]
    fn the_log_gives_the_value_for_the_side_named() {
        let swap = Decision {
            action: Action::Swap,
            score: Score::estimate(70),
            side: Side::South,
            depth: 9,
            nodes: 0,
            reason: decide::Reason::SwapPays,
        };
        // The swapper gains 0.70 as South: the position was worth -0.70 to North, as analyze says.
        assert_eq!(
            log_line(Side::North, &swap),
            "North swaps (swap: the position is better for South, -0.70 seeds for North"
        );
        let play =
            Decision { action: "3".parse().unwrap(), side: Side::North, reason: decide::Reason::KeepSide, ..swap };
        assert_eq!(
            log_line(Side::North, &play),
            "North plays 3 (no swap: the position is not worse for North, +0.70 seeds for North"
        );
    }

    #[test]
    fn a_decision_is_always_a_legal_answer() {
        let rules = Rules::mkagent();
        let agent = agent_with(rules);
        let clock = game_clock(Duration::from_secs(5));
        let start = Position::start(&rules);
        let Action::Sow(first) = agent.decide(&start, false, &clock).action else { panic!("South cannot swap") };
        let after = start.play(&rules, first).unwrap().0;
        assert_eq!(after.mover(), Side::North, "no extra move on the first move");
        for policy in [SwapPolicy::Always, SwapPolicy::Never] {
            let agent = Agent { swap: policy, ..agent_with(rules) };
            let answer = agent.decide(&after, true, &clock).action;
            assert_eq!(answer == Action::Swap, policy == SwapPolicy::Always);
        }
        match agent.decide(&after, false, &clock).action {
            Action::Sow(mv) => assert!(after.legal_moves().contains(mv)),
            other => panic!("{other} where only a sowing is allowed"),
        }
    }

    fn agent_with(rules: Rules) -> Agent {
        let engine =
            GameEngine::new(rules, kalah_engine::search::Options { table_bytes: 1 << 20, ..Default::default() });
        Agent { engine, swap: SwapPolicy::Auto }
    }
}
