//! The search thread: it owns the engine, takes one `state` at a time, and reports every finished
//! depth of the engine's decision ([`kalah_engine::decide`]) to the session, which sends a `move`
//! (or an `eval`) for it, so the server always holds the best answer found so far when its
//! deadline comes.

use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;

use kalah_engine::decide::{Decision, SwapPolicy, Turn};
use kalah_engine::time::Limits;
use kalah_engine::GameEngine;
use kalah_protocol::kgp::{Progress, SearchId};
use kalah_rules::{Action, Position, Rules};

use super::connection::Connection;

/// One `state` to work on.
pub struct Job {
    /// The search, as the session names it.
    pub search: SearchId,
    /// The board, the client's side to move.
    pub position: Position,
    /// The rules to search it under.
    pub rules: Rules,
    /// The time for this move.
    pub limits: Limits,
    /// Set by the session on `stop`, a newer `state` or the end of the connection.
    pub stop: Arc<AtomicBool>,
    /// Where the reports go.
    pub out: Arc<Connection>,
}

/// The search thread and the queue of jobs it works through.
pub struct Worker {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the search thread with its engine.
    pub fn start(mut engine: GameEngine) -> Worker {
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = std::thread::spawn(move || {
            for job in queue {
                run(&mut engine, &job);
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

fn run(engine: &mut GameEngine, job: &Job) {
    // A write error means the connection is gone: the session notices it on its side and the
    // session's end stops this search, so errors are not reported twice.
    let report = |progress: Progress| {
        let _ = job.out.progress(job.search, progress);
    };
    // KGP has neither the pie rule nor the handicap: every decision is a sowing.
    let turn = Turn::at(job.rules, job.position, false);
    // A board of another size is a game under other rules; KGP's majority end leaves no endgame
    // database to attach.
    if *engine.rules() != job.rules {
        engine.renew(job.rules, None);
    }
    // Bound to the turn's rules just above, so never refused; the decision goes out as heard.
    let _ = engine.decide_turn(&turn, SwapPolicy::Auto, job.limits, Some(&job.stop), |decision: &Decision| {
        if let Action::Sow(best) = decision.action {
            report(Progress::Depth { depth: decision.depth, best, value: decision.score, nodes: decision.nodes });
        }
    });
    report(Progress::Ended);
}
