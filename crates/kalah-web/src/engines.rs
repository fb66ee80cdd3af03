//! The engine's work for the server: a small pool of engines shared by all games, and the
//! searches behind engine moves, hints and analysis. The strength levels are the engine's own
//! ([`kalah_engine::level::Level`]), and the endgame databases are attached by the engine's one
//! policy ([`kalah_engine::databases::Databases`]): each variant's once, within the server's
//! memory budget, shared by the pool.
//!
//! A search blocks a thread for up to the time limit, so it runs on tokio's blocking threads,
//! never on the async executor. At most `searches` run at once (each engine's table takes
//! memory; more searches than cores would only slow each other); more requests wait their turn
//! by [`Kind`]: engine moves first, then hints, then analyses. A request that would wait longer
//! than its kind's bound is answered at once that the server is busy (the API's 503 with
//! `Retry-After`), so that under load nobody waits without end; analyses, which the page only
//! shows beside the game, are the first to go.
//! Every search watches its game's stop flag, which is set when the game is undone, replaced or
//! closed. Each engine is a [`GameEngine`], bound to the rules of the game it last searched: the
//! engine's moves and hints are its decisions and the analysis its [`GameEngine::analyse`], as
//! for every other host.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use kalah_engine::databases::Databases;
use kalah_engine::search::Options;
use kalah_engine::GameEngine;
use kalah_rules::Rules;
use tokio::sync::Notify;

/// What a search is for, in the order the queue serves them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The engine's move in a game: the game waits for it.
    Move = 0,
    /// A hint a person asked for.
    Hint = 1,
    /// The evaluation beside the board.
    Analysis = 2,
}

impl Kind {
    /// The longest a request of this kind waits for a search before it is told the server is busy.
    pub fn max_wait(self) -> Duration {
        Duration::from_millis(match self {
            Kind::Move => 2000,
            Kind::Hint => 1000,
            Kind::Analysis => 100,
        })
    }
}

/// The searches running and the requests waiting, by kind.
#[derive(Debug, Default)]
struct Queue {
    running: [usize; 3],
    waiting: [usize; 3],
}

/// The engines of the server and the limit on searches at once.
pub struct Engines {
    /// Idle engines, each bound to the rules of the game whose positions its table holds, and
    /// that game's id.
    idle: Mutex<Vec<(GameEngine, String)>>,
    searches: usize,
    queue: Mutex<Queue>,
    freed: Notify,
    table_bytes: usize,
    databases: Option<Arc<Databases>>,
}

/// Why a search did not run to an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failed {
    /// Every search was taken for longer than the request's kind may wait.
    Busy,
    /// The search's thread failed.
    Crashed,
}

/// A request counted as waiting for a place of its kind until it is dropped: one that gives up,
/// is answered or is dropped while it waits (its client went away) is counted out, so that no
/// request of a lower kind waits behind it for ever.
struct Waiting<'a>(&'a Engines, Kind);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.lock_queue().waiting[self.1 as usize] -= 1;
        // It may have been what kept lower kinds waiting.
        self.0.freed.notify_waiters();
    }
}

/// A running search's place in the queue, given back when it ends however it ends.
struct Slot<'a>(&'a Engines, Kind);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.lock_queue().running[self.1 as usize] -= 1;
        self.0.freed.notify_waiters();
    }
}

impl Engines {
    /// Returns a pool of at most `searches` engines of `table_bytes` each, using the endgame
    /// databases of `databases` when there are some for a game's rules.
    pub fn new(searches: usize, table_bytes: usize, databases: Option<Arc<Databases>>) -> Engines {
        Engines {
            idle: Mutex::new(Vec::new()),
            searches: searches.max(1),
            queue: Mutex::new(Queue::default()),
            freed: Notify::new(),
            table_bytes,
            databases,
        }
    }

    fn lock_queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a search's place for a request of `kind`: at once if one is free and no request
    /// that goes first waits, else when one is, within the kind's longest wait. Hints and
    /// analyses, which think for the server's whole time, leave one place to engine moves.
    async fn slot(&self, kind: Kind) -> Result<Slot<'_>, Failed> {
        let deadline = tokio::time::Instant::now() + kind.max_wait();
        let k = kind as usize;
        self.lock_queue().waiting[k] += 1;
        let waiting = Waiting(self, kind);
        let taken = loop {
            // Registered before the check, so a place freed between the check and the wait wakes it.
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            {
                let mut queue = self.lock_queue();
                let running: usize = queue.running.iter().sum();
                let others: usize = queue.running[Kind::Hint as usize..].iter().sum();
                let room =
                    running < self.searches && (kind == Kind::Move || self.searches == 1 || others + 1 < self.searches);
                if room && queue.waiting[..k].iter().all(|&w| w == 0) {
                    queue.running[k] += 1;
                    break true;
                }
            }
            if tokio::time::timeout_at(deadline, freed).await.is_err() {
                break false;
            }
        };
        drop(waiting);
        if taken {
            Ok(Slot(self, kind))
        } else {
            Err(Failed::Busy)
        }
    }

    /// Runs `job` with an engine for game `game_id` under `rules` on a blocking thread.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        kind: Kind,
        game_id: &str,
        rules: Rules,
        job: impl FnOnce(&GameEngine) -> T + Send + 'static,
    ) -> Result<T, Failed> {
        let _slot = self.slot(kind).await?;
        let engines = Arc::clone(self);
        let game_id = game_id.to_string();
        tokio::task::spawn_blocking(move || {
            let engine = engines.take(&game_id, rules);
            let out = job(&engine);
            engines.idle.lock().unwrap_or_else(|e| e.into_inner()).push((engine, game_id));
            out
        })
        .await
        .map_err(|_| Failed::Crashed)
    }

    /// Runs `job`, which needs no engine (the course's searches, drawn), on a blocking thread in
    /// a search's place, waiting its turn as a request of `kind` does.
    pub async fn compute<T: Send + 'static>(
        &self,
        kind: Kind,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failed> {
        let _slot = self.slot(kind).await?;
        tokio::task::spawn_blocking(job).await.map_err(|_| Failed::Crashed)
    }

    /// Takes an idle engine for `rules`, preferably the one that last searched this game under
    /// them (its table is still good); any other starts this game from an empty table.
    fn take(&self, game_id: &str, rules: Rules) -> GameEngine {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = idle.iter().position(|(engine, id)| id == game_id && *engine.rules() == rules) {
            return idle.swap_remove(i).0;
        }
        let reused = idle.pop();
        drop(idle);
        let oracle = self.databases.as_ref().and_then(|databases| databases.attach(&rules).engine_oracle());
        match reused {
            Some((mut engine, _)) => {
                engine.renew(rules, oracle);
                engine
            }
            None => GameEngine::new(rules, Options { table_bytes: self.table_bytes, oracle, ..Options::default() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn moves_go_before_hints_and_analyses_and_a_long_wait_is_refused() {
        let engines = Arc::new(Engines::new(1, 1 << 16, None));
        let running = engines.slot(Kind::Move).await.expect("a free place");
        // With the one place taken, an analysis gives up after its short wait.
        assert_eq!(engines.slot(Kind::Analysis).await.err(), Some(Failed::Busy));
        // A hint and a move wait; when the place is freed the move goes first.
        let (e1, e2) = (Arc::clone(&engines), Arc::clone(&engines));
        let order = Arc::new(Mutex::new(Vec::new()));
        let (o1, o2) = (Arc::clone(&order), Arc::clone(&order));
        let hint = tokio::spawn(async move {
            let slot = e1.slot(Kind::Hint).await;
            o1.lock().unwrap().push("hint");
            slot.map(drop)
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        let mv = tokio::spawn(async move {
            let slot = e2.slot(Kind::Move).await;
            o2.lock().unwrap().push("move");
            tokio::time::sleep(Duration::from_millis(10)).await;
            slot.map(drop)
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(running);
        assert_eq!(mv.await.unwrap(), Ok(()));
        assert_eq!(hint.await.unwrap(), Ok(()));
        assert_eq!(*order.lock().unwrap(), ["move", "hint"]);
        // A move that cannot get a place within its bound is refused, not kept waiting.
        let _held = engines.slot(Kind::Move).await.unwrap();
        let started = tokio::time::Instant::now();
        assert_eq!(engines.slot(Kind::Move).await.err(), Some(Failed::Busy));
        assert_eq!(started.elapsed(), Kind::Move.max_wait());
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_request_dropped_while_it_waits_keeps_nobody_waiting() {
        let engines = Arc::new(Engines::new(2, 1 << 16, None));
        let analysis = engines.slot(Kind::Analysis).await.expect("a free place");
        // A hint waits for the analysis' place (one place stays for moves); its client goes away.
        let waiting = Arc::clone(&engines);
        let hint = tokio::spawn(async move { waiting.slot(Kind::Hint).await.map(drop) });
        tokio::time::sleep(Duration::from_millis(10)).await;
        hint.abort();
        assert!(hint.await.unwrap_err().is_cancelled());
        drop(analysis);
        // Before, the hint stayed counted as waiting, and every analysis after it was refused.
        assert!(engines.slot(Kind::Analysis).await.is_ok());
        assert_eq!(engines.lock_queue().waiting, [0; 3]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_game_under_other_rules_never_searches_with_the_old_rules_table() {
        use kalah_engine::search::Limits;
        use kalah_rules::Position;
        let engines = Arc::new(Engines::new(1, 1 << 20, None));
        // The same start, other values: a table of one answers wrongly for the other.
        let standard = Rules::standard(4, 3).unwrap();
        let empty: Rules = "kalah(4,3) empty-capture".parse().unwrap();
        let start = Position::start(&standard);
        let search = |rules: Rules, limits: Limits| {
            move |engine: &GameEngine| {
                assert_eq!(engine.rules(), &rules);
                engine.search(&start, limits, None, |_| {}).score
            }
        };
        let solved = engines.run(Kind::Move, "g", standard, search(standard, Limits::default())).await.unwrap();
        assert!(solved.is_exact());
        // The same game id, now with captures of empty houses (a game replaced): a shallow search
        // is these rules' own, not the solved value the standard rules left in the table.
        let shallow = engines.run(Kind::Move, "g", empty, search(empty, Limits::depth(3))).await.unwrap();
        let fresh = kalah_engine::GameEngine::new(empty, Options { table_bytes: 1 << 20, ..Options::default() });
        assert_eq!(shallow, fresh.search(&start, Limits::depth(3), None, |_| {}).score);
        assert_ne!(shallow, solved);
    }
}
