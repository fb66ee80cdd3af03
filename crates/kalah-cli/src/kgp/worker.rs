//! The search thread: it owns the engine, takes one `state` at a time, and writes a `move` (or an
//! `eval`) after every finished depth of the engine's decision ([`kalah_engine::decide`]), so the
//! server always holds the best answer found so far when its deadline comes.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

use kalah_engine::decide::{decide_turn, Decision, SwapPolicy, Turn};
use kalah_engine::search::Engine;
use kalah_engine::time::Limits;
use kalah_rules::{Action, Position, Rules};

use super::message::{Arg, Message};

/// The writing half of a connection, shared by the session and the search thread.
///
/// Every line gets a fresh odd id (the reference server numbers its own lines with even ids),
/// so no id is ever used twice on a connection, as the specification requires.
pub struct Outbox {
    stream: Mutex<TcpStream>,
    next_id: AtomicU64,
    verbose: bool,
}

impl Outbox {
    /// Wraps the writing half of a connection.
    pub fn new(stream: TcpStream, verbose: bool) -> Outbox {
        Outbox { stream: Mutex::new(stream), next_id: AtomicU64::new(1), verbose }
    }

    /// Sends one command with a new id and returns the id.
    pub fn send(&self, message: Message) -> std::io::Result<u64> {
        let mut stream = self.stream.lock().unwrap_or_else(|e| e.into_inner());
        self.write(&mut stream, message)
    }

    /// Sends one command unless `stop` is set, checking the flag under the same lock as
    /// [`Outbox::stop`] sets it: once the session has handled a `stop`, no answer to that
    /// `state` can follow on the wire.
    pub fn send_unless(&self, stop: &AtomicBool, message: Message) -> std::io::Result<Option<u64>> {
        let mut stream = self.stream.lock().unwrap_or_else(|e| e.into_inner());
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        self.write(&mut stream, message).map(Some)
    }

    /// Sets a search's stop flag, ordered with every line sent (see [`Outbox::send_unless`]).
    pub fn stop(&self, flag: &AtomicBool) {
        let _stream = self.stream.lock().unwrap_or_else(|e| e.into_inner());
        flag.store(true, Ordering::Relaxed);
    }

    fn write(&self, stream: &mut TcpStream, mut message: Message) -> std::io::Result<u64> {
        let id = self.next_id.fetch_add(2, Ordering::Relaxed);
        message.id = Some(id);
        let line = message.to_string();
        if self.verbose {
            super::notice(&format!("> {line}"));
        }
        stream.write_all(format!("{line}\r\n").as_bytes())?;
        stream.flush()?;
        Ok(id)
    }
}

/// What to answer a `state` with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `move` after each depth, then `yield` when the search ends by itself (freeplay).
    Moves,
    /// `eval` after each depth: the value for the player to move, in seeds (eval mode).
    Evals,
}

/// One `state` to work on.
pub struct Job {
    /// The id of the `state` command, which every answer references.
    pub state: Option<u64>,
    /// The board, the client's side to move.
    pub position: Position,
    /// The rules to search it under.
    pub rules: Rules,
    /// The time for this move.
    pub limits: Limits,
    /// Set by the session on `stop`, a newer `state` or the end of the connection.
    pub stop: Arc<AtomicBool>,
    /// Where the answers go.
    pub out: Arc<Outbox>,
    /// Moves or evaluations.
    pub answer: Answer,
}

/// The search thread and the queue of jobs it works through.
pub struct Worker {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the search thread with its engine.
    pub fn start(engine: Engine) -> Worker {
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = std::thread::spawn(move || {
            for job in queue {
                run(&engine, &job);
            }
        });
        Worker { jobs: Some(jobs), thread: Some(thread) }
    }

    /// Queues a job; the thread takes it once the one before it has stopped.
    pub fn submit(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The thread only ends when the sender is dropped, so the send cannot fail.
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(engine: &Engine, job: &Job) {
    // A write error means the connection is gone: the session notices it on its side and the
    // session's end stops this search, so errors are not reported twice.
    let send = |message: Message| {
        let _ = job.out.send_unless(&job.stop, message);
    };
    let answer = |command: &str, args: Vec<Arg>| Message::new(command, args).answering(job.state);
    // KGP has neither the pie rule nor the handicap: every decision is a sowing.
    let turn = Turn::at(job.rules, job.position, false);
    decide_turn(engine, &turn, SwapPolicy::Auto, job.limits, Some(&job.stop), |decision: &Decision| {
        match (job.answer, decision.action) {
            (Answer::Moves, Action::Sow(best)) => {
                let comment = format!("depth {}, value {:#}, {} nodes", decision.depth, decision.score, decision.nodes);
                // The reference server files the comment with the next move.
                send(Message::new("set", vec![Arg::Word("info:comment".into()), Arg::Str(comment)]));
                send(answer("move", vec![Arg::Int(i64::from(best.number()))]));
            }
            (Answer::Moves, _) => {}
            (Answer::Evals, _) => send(answer("eval", vec![Arg::Real(decision.score.seeds())])),
        }
    });
    if job.answer == Answer::Moves {
        send(answer("yield", vec![]));
    }
}
