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
//! Decisions, all by the strong engine on the game clock:
//! * a move: one search of the position;
//! * South's first move: every opening is searched (a share of the move's time each) for its
//!   value to North, and the one closest to 0 is played, since North will keep a good position
//!   and swap a bad one;
//! * North's swap: the value of the position for North to move is minus its value for South, so
//!   one search of it decides both: swap when North's value is below 0, else play its best move.
//!   Values at odd and even depths swing apart (the side to move gains from a last sowing), so
//!   the pie decisions use the mean of the last two iterations.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use kalah_engine::eval::SEED;
use kalah_engine::search::{Clock, Engine, Info, Limits};
use kalah_protocol::mkagent::{Next, Reply, Session, MAX_LINE};
use kalah_protocol::{Frame, LineReader};
use kalah_rules::{Move, Position, Rules, Side};

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

/// The agent's own thinking time: what the game allows, what it has used, and what it keeps back.
#[derive(Clone, Copy, Debug)]
struct GameClock {
    total: Duration,
    used: Duration,
    /// Kept back for what the agent cannot measure: the pipes and the referee's reading.
    reserve: Duration,
}

impl GameClock {
    fn new(total: Duration) -> GameClock {
        GameClock { total, used: Duration::ZERO, reserve: (total / 20).min(Duration::from_secs(5)) }
    }

    /// Returns the time the searches may plan with.
    fn left(&self) -> Duration {
        self.total.saturating_sub(self.used).saturating_sub(self.reserve)
    }
}

/// What the agent decided and why, for its log.
struct Decision {
    reply: Reply,
    /// The value behind the decision, for the agent's side, in hundredths of a seed.
    value: i32,
    depth: u32,
    why: &'static str,
}

/// The engine and the rules, deciding moves.
struct Agent {
    engine: Engine,
    rules: Rules,
    swap: SwapPolicy,
}

/// Returns the value to decide the pie rule on: the exact value if proven, else the mean of the
/// last two iterations, which straddles the odd-even swing of the values.
fn settled(infos: &[Info]) -> i32 {
    match infos {
        [] => 0,
        [.., last] if last.exact => last.score,
        [.., before, last] => (before.score + last.score) / 2,
        [last] => last.score,
    }
}

/// Returns the opening whose value to North is closest to 0 (the first of equals).
fn pie_opening(values: &[(Move, i32)]) -> Option<(Move, i32)> {
    values.iter().copied().min_by_key(|(_, value)| value.abs())
}

impl Agent {
    /// Searches `position` within a clock of `left`, returning every completed iteration.
    fn search(&self, position: &Position, left: Duration) -> Vec<Info> {
        let limits = Limits { clock: Some(Clock { remaining: left, increment: Duration::ZERO }), ..Limits::default() };
        let mut infos = Vec::new();
        let last = self.engine.search(position, &self.rules, limits, None, |info| infos.push(info.clone()));
        if infos.last().is_none_or(|i| i.depth != last.depth) {
            infos.push(last);
        }
        infos
    }

    /// Decides the answer to a turn in `position` (the agent to move) with `left` to plan on.
    fn decide(&self, position: &Position, may_swap: bool, left: Duration) -> Decision {
        if self.rules.pie && self.rules.is_first_move(position) {
            return self.opening(position, left);
        }
        let infos = self.search(position, left);
        let last = infos.last().expect("a search completes depth 1");
        let best = last.best.expect("the agent is asked to move only in a game that goes on");
        let play = Decision { reply: Reply::Move(best), value: last.score, depth: last.depth, why: "best move" };
        if !may_swap {
            return play;
        }
        let value = settled(&infos);
        let swap = Decision { reply: Reply::Swap, value: -value, depth: last.depth, why: "swap" };
        match self.swap {
            SwapPolicy::Always => Decision { why: "swap (--swap always)", ..swap },
            SwapPolicy::Never => Decision { why: "best move (--swap never)", ..play },
            SwapPolicy::Auto if value < 0 => Decision { why: "swap: the position is better for South", ..swap },
            SwapPolicy::Auto => Decision { value, why: "no swap: the position is not worse for North", ..play },
        }
    }

    /// Chooses South's first move under the pie rule: the opening closest to even for North.
    fn opening(&self, position: &Position, left: Duration) -> Decision {
        let moves: Vec<Move> = position.legal_moves().collect();
        let share = left / moves.len().max(1) as u32;
        let mut depth = u32::MAX;
        let values: Vec<(Move, i32)> = moves
            .iter()
            .map(|&mv| {
                let infos = self.search(&position.play_unchecked(&self.rules, mv), share);
                depth = depth.min(infos.last().map_or(0, |i| i.depth));
                (mv, settled(&infos))
            })
            .collect();
        let (mv, value) = pie_opening(&values).expect("the start has moves");
        Decision { reply: Reply::Move(mv), value: -value.abs(), depth, why: "opening closest to even (pie rule)" }
    }
}

fn seeds(value: i32) -> String {
    format!("{:+.2}", f64::from(value) / f64::from(SEED))
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
    let agent = Agent { engine, rules, swap: args.swap };
    let mut clock = GameClock::new(args.game_time);
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
                let decision = agent.decide(&position, may_swap, clock.left());
                if let Err(e) = writeln!(out, "{}", decision.reply).and_then(|()| out.flush()) {
                    // A closed pipe is the referee gone, not an error of the agent's: say so plainly.
                    anyhow::ensure!(
                        e.kind() != std::io::ErrorKind::BrokenPipe,
                        "the referee closed the connection before the agent's answer, after {} moves; stopping",
                        session.moves()
                    );
                    return Err(e).context("cannot answer the referee");
                }
                let spent = received.elapsed();
                clock.used += spent;
                answers += 1;
                session.answered(decision.reply);
                let me = position.mover();
                let said = match decision.reply {
                    Reply::Move(mv) => format!("{me} plays {mv}"),
                    Reply::Swap => "North swaps".to_string(),
                };
                eprintln!(
                    "kalah mkagent: {said} ({}, {} seeds for {me}, depth {}, {:.3} s); clock {:.3} s used of {:.3} s",
                    decision.why,
                    seeds(decision.value),
                    decision.depth,
                    spent.as_secs_f64(),
                    clock.used.as_secs_f64(),
                    clock.total.as_secs_f64()
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
        clock.used.as_millis(),
        clock.total.as_millis()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut clock = GameClock::new(Duration::from_secs(20));
        assert_eq!(clock.left(), Duration::from_secs(19));
        clock.used = Duration::from_secs(25);
        assert_eq!(clock.left(), Duration::ZERO);
        assert_eq!(GameClock::new(Duration::from_secs(3600)).left(), Duration::from_secs(3595));
    }

    fn info(depth: u32, score: i32, exact: bool) -> Info {
        Info { depth, score, exact, best: None, pv: Vec::new(), nodes: 0, elapsed: Duration::ZERO }
    }

    #[test]
    fn pie_values_straddle_the_odd_even_swing() {
        assert_eq!(settled(&[info(1, 50, false)]), 50);
        assert_eq!(settled(&[info(8, -150, false), info(9, 130, false)]), -10);
        assert_eq!(settled(&[info(8, -150, false), info(9, 300, true)]), 300);
    }

    #[test]
    fn the_pie_opening_is_the_one_closest_to_even() {
        let mv = |n| Move::from_number(n).unwrap();
        assert_eq!(pie_opening(&[(mv(1), 125), (mv(3), -253), (mv(7), -11)]), Some((mv(7), -11)));
        assert_eq!(pie_opening(&[(mv(2), 40), (mv(5), -40)]), Some((mv(2), 40)));
    }

    #[test]
    fn a_decision_is_always_a_legal_answer() {
        let rules = Rules::mkagent();
        let agent = agent_with(rules);
        let left = Duration::from_millis(200);
        let start = Position::start(&rules);
        let Reply::Move(first) = agent.decide(&start, false, left).reply else { panic!("South cannot swap") };
        let after = start.play(&rules, first).unwrap().0;
        assert_eq!(after.mover(), Side::North, "no extra move on the first move");
        for policy in [SwapPolicy::Always, SwapPolicy::Never] {
            let agent = Agent { swap: policy, ..agent_with(rules) };
            let reply = agent.decide(&after, true, left).reply;
            assert_eq!(reply == Reply::Swap, policy == SwapPolicy::Always);
        }
        match agent.decide(&after, false, left).reply {
            Reply::Move(mv) => assert!(after.legal_moves().contains(mv)),
            Reply::Swap => panic!("a swap where none is allowed"),
        }
    }

    fn agent_with(rules: Rules) -> Agent {
        let engine = Engine::new(kalah_engine::search::Options { table_bytes: 1 << 20, ..Default::default() });
        Agent { engine, rules, swap: SwapPolicy::Auto }
    }
}
