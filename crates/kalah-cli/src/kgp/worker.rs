//! The search thread: it owns the engine, takes one `state` at a time, and writes a `move` (or an
//! `eval`) after every finished depth of the engine's decision ([`kalah_engine::decide`]), so the
//! server always holds the best answer found so far when its deadline comes.

use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use kalah_engine::decide::{decide_turn, Decision, SwapPolicy, Turn};
use kalah_engine::search::Engine;
use kalah_engine::time::Limits;
use kalah_protocol::kgp::{Answer, Arg, Message, SearchId};
use kalah_rules::{Action, Position, Rules};

use super::connection::Connection;

/// One `state` to work on.
pub struct Job {
    /// The search, as the session names it.
    pub search: SearchId,
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
    pub out: Arc<Connection>,
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
        let _ = job.out.answer(job.search, message);
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
    // In freeplay the best move once more, then yield: a server that refused the first moves
    // (it records a state only after sending it) still gets the best one.
    let _ = job.out.finish(job.search);
}
