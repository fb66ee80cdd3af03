//! A KGP server session fed any lines, boards, timers and ends: never a panic; every line it sends
//! is one line with a fresh even id (but the last `goodbye`); an `ok` or `error` is never
//! answered; each board asked about is answered once, with a legal move unless the move is
//! reported illegal, before its `stop`; each verify verdict is the rules' sowing; nothing
//! follows the end.
//!
//! The input's first byte sets pings and a problem limit; then come lines, a line that starts with
//! byte 1 asks about a board (reached by the line's other bytes), 2 runs out a timer armed before
//! (chosen by the next byte), 3 ends the connection, 4 is the server's goodbye, 5 a line too long
//! to read.

#![no_main]

mod common;

use std::time::Duration;

use kalah_protocol::kgp::server::{solve, Action, Outcome, Request, ServerConfig, Session, Timer};
use kalah_protocol::kgp::Arg;
use kalah_protocol::Frame;
use kalah_rules::Rules;
use libfuzzer_sys::fuzz_target;

#[derive(Default)]
struct Checker {
    last_id: u64,
    closed: bool,
    goodbye: bool,
    waiting: Option<Request>,
    answered: Vec<u64>,
    armed: Vec<Timer>,
}

impl Checker {
    fn check(&mut self, actions: Vec<Action>, incoming: Option<&[u8]>) {
        assert!(!self.closed || actions.iter().all(|a| matches!(a, Action::Answer(_))), "{actions:?} after the end");
        for action in actions {
            match action {
                Action::Send(message) => {
                    assert!(!self.goodbye, "{message} after goodbye");
                    let text = message.to_string();
                    assert!(!text.contains(['\n', '\r']), "{text:?}");
                    if message.command == "goodbye" {
                        assert_eq!(message.id, None);
                        self.goodbye = true;
                        continue;
                    }
                    let id = message.id.expect("an id");
                    assert!(id % 2 == 0 && id > self.last_id, "id {id} after {}", self.last_id);
                    self.last_id = id;
                    if message.command == "error" {
                        let incoming = incoming.map(String::from_utf8_lossy).unwrap_or_default();
                        // The command is the first word, or the second when the first is an id
                        // part ("1 2mode ok" is the command "2mode", and is answered).
                        let mut words = incoming.split_whitespace();
                        let first = words.next();
                        let command = match first {
                            Some(id) if id.starts_with(|c: char| c.is_ascii_digit() || c == '@') => words.next().or(first),
                            _ => first,
                        };
                        assert!(!matches!(command, Some("ok" | "error")), "{incoming:?} answered with {message}");
                    }
                    if message.command == "stop" {
                        assert!(self.answered.contains(&message.reference.unwrap()), "{message} before its answer");
                    }
                }
                Action::Answer(answer) => {
                    let request = self.waiting.take().expect("an answer to a board asked about");
                    assert!(answer.state == 0 || !self.answered.contains(&answer.state), "answered twice");
                    self.answered.push(answer.state);
                    if let Outcome::Move { mv, .. } = answer.outcome {
                        assert!(request.position.play(&request.rules, mv).is_ok(), "{mv} is illegal");
                    }
                }
                Action::Arm(timer, _) => self.armed.push(timer),
                Action::Close(_) => {
                    assert!(!self.closed, "closed twice");
                    self.closed = true;
                }
                Action::Verified(verdict) => {
                    let (after, repeat) = solve(&verdict.board, verdict.pit).expect("a problem it can solve");
                    assert_eq!((verdict.expected.clone(), verdict.repeat), (Arg::Board(after).to_string(), repeat));
                    assert_eq!(verdict.right(), verdict.answer == verdict.expected && verdict.answer_repeat == repeat);
                }
                Action::Join(_) | Action::Notice(_) => {}
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, script)) = data.split_first() else { return };
    let config = ServerConfig {
        ping: flags & 1 == 0,
        problems: (flags & 2 != 0).then_some(u32::from(flags >> 4)),
        seed: u64::from(flags),
        move_time: Duration::from_secs(1),
        ..ServerConfig::default()
    };
    let (mut session, first) = Session::new(config);
    let mut checker = Checker::default();
    checker.check(first, None);
    let rules = Rules::preset("kgp", 6, 6).expect("in range");
    for line in script.split(|&b| b == b'\n') {
        match line.first() {
            Some(1) => {
                let position = common::reached(&rules, &line[1..]);
                if position.is_over(&rules) {
                    continue;
                }
                let request = Request { position, rules, game: None };
                let closed = session.is_closed();
                if closed {
                    checker.waiting = Some(request.clone());
                }
                let actions = session.request(request.clone());
                checker.check(actions, None);
                if !closed {
                    assert!(checker.waiting.is_none(), "the board before is answered first");
                    checker.waiting = Some(request);
                }
            }
            Some(2) if !checker.armed.is_empty() => {
                let choice = usize::from(line.get(1).copied().unwrap_or(0));
                let timer = checker.armed[choice % checker.armed.len()];
                checker.check(session.expire(timer), None);
            }
            Some(3) => checker.check(session.close(), None),
            Some(4) => checker.check(session.goodbye(), None),
            Some(5) => {
                let frame = Frame::TooLong { start: line[1..].to_vec(), length: 1 << 20 };
                checker.check(session.receive(&frame), Some(&line[1..]));
            }
            _ => {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                checker.check(session.receive(&Frame::Line(line.to_vec())), Some(line));
            }
        }
        assert_eq!(checker.closed, session.is_closed());
        assert!(!checker.closed || checker.waiting.is_none(), "a board waits on a closed session");
    }
});
