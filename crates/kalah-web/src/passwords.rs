//! The server's password work: every Argon2id a sign-in or a new password costs, on a bounded
//! pool, and the failed sign-ins of each name.
//!
//! An Argon2id takes 19 MiB and some 20 ms of a core, by design, so that each guess at a stolen
//! database's password is slow. Run for every request at once, a burst of sign-ins took all the
//! memory and both cores it asked for (docs/web.md, "Sign-ins and passwords"). So:
//!
//! * [`Passwords::admit`] lets at most [`Passwords::at_once`] computations run at once (one a
//!   core by default) and [`Passwords::waiting`] more wait their turn; a request beyond that is
//!   refused at once with 503 and `Retry-After` ([`Busy`]).
//! * Each computation works in a buffer the pool keeps ([`Memory`]): at most one for each
//!   computation that may run at once, made the first time it is needed and used again by every
//!   later one. Argon2's own `hash_password_into` allocates 19 MiB and frees it each time; glibc's
//!   malloc serves a block that large from `mmap` only until the first one is freed, then raises
//!   its threshold and serves the next ones from its arenas, which keep them: most of a burst's
//!   memory was still held long after it. With the buffers kept, a sign-in allocates nothing.
//! * [`Failures`]: a name's failed sign-ins; after [`FREE_FAILURES`] each further attempt waits,
//!   twice as long after each failure, and a success starts the count again.
//! * A sign-in to a name without a password, or to no name at all, costs one Argon2id too
//!   ([`Ticket::open`]): a wrong answer takes as long whoever is asked, and does not tell who
//!   has a password.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use argon2::{Argon2, Block, Params};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};

use crate::players::Wrapped;

/// How many times as many computations as may run at once may wait for their turn.
pub const WAITING_PER_COMPUTATION: usize = 4;

/// The seconds a request refused by a busy pool is told to wait: a computation takes some 20 ms,
/// so the queue is empty again well within them.
pub const BUSY_RETRY: u64 = 1;

/// Failed sign-ins a name may have before each further attempt waits.
pub const FREE_FAILURES: u32 = 5;

/// The wait after the [`FREE_FAILURES`]th failure; each further failure doubles it.
pub const FIRST_WAIT: Duration = Duration::from_secs(2);

/// The longest wait between two attempts at one name.
pub const LONGEST_WAIT: Duration = Duration::from_secs(15 * 60);

/// A name whose wait has ended and that had no failed sign-in for this long is forgotten: its
/// count starts again.
pub const FORGOTTEN_AFTER: Duration = Duration::from_secs(15 * 60);

/// The most names whose failures are kept; beyond it the one idle longest is forgotten first.
pub const MOST_NAMES: usize = 65_536;

/// The salt of the Argon2id a sign-in to a name without a password costs: any 16 bytes do.
const NO_SALT: [u8; 16] = *b"kalah: no salt..";

/// The memory of one Argon2id at the crate's default cost (19 MiB, two passes, one lane):
/// [`Memory::key`] derives a key in it, and the pool keeps it for the next one.
pub struct Memory(Vec<Block>);

impl Memory {
    /// Returns the memory of one Argon2id (19 MiB, written once here).
    pub fn new() -> Memory {
        Memory(vec![Block::new(); Params::DEFAULT.block_count()])
    }

    /// Argon2id of `password` with `salt`: 16 bytes, at the crate's default cost, which makes
    /// each guess at a stolen database's password slow. Slow by design: run it on the pool.
    pub fn key(&mut self, password: &str, salt: &[u8]) -> [u8; 16] {
        let mut key = [0; 16];
        Argon2::default()
            .hash_password_into_with_memory(password.as_bytes(), salt, &mut key, &mut self.0[..])
            .expect("16 bytes, a 16-byte salt and the default cost's memory are within Argon2's limits");
        key
    }
}

impl Default for Memory {
    fn default() -> Memory {
        Memory::new()
    }
}

/// A request refused because the pool is full: ask again after [`Busy::retry_after`] seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy {
    /// Seconds to wait.
    pub retry_after: u64,
}

/// A place in the pool, running or waiting ([`Passwords::admit`]): the computation runs with
/// [`Ticket::run`]; dropped unused, the place is free again.
pub struct Ticket {
    admitted: OwnedSemaphorePermit,
    running: Arc<Semaphore>,
    memories: Arc<Mutex<Vec<Memory>>>,
}

impl Ticket {
    /// Runs `job` in one of the pool's buffers once a computation may run, off the server's
    /// tasks; `None` if it panicked. The places are held until `job` returns, even if the
    /// request that awaits it is dropped meanwhile: the bound is on the work itself.
    pub async fn run<T: Send + 'static>(self, job: impl FnOnce(&mut Memory) -> T + Send + 'static) -> Option<T> {
        let Ticket { admitted, running, memories } = self;
        let turn = running.acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(move || {
            let held = (admitted, turn);
            // At most one buffer for each computation running: each takes one and gives it back.
            let mut memory = lock(&memories).pop().unwrap_or_default();
            let done = job(&mut memory);
            lock(&memories).push(memory);
            drop(held);
            done
        })
        .await
        .ok()
    }
}

impl Ticket {
    /// Keeps `secret` under `password` ([`Wrapped::new`]); `None` if `secret` is not a secret.
    pub async fn wrap(self, secret: String, password: String) -> Option<Wrapped> {
        self.run(move |memory| Wrapped::new(&secret, &password, memory)).await.flatten()
    }

    /// The secret `kept` holds under `password`, if it is the password: `kept` is a name's
    /// secret as kept ([`Wrapped`]) and the SHA-256 of its secret, or `None` for a name without
    /// a password or no name, which costs the same Argon2id and opens nothing.
    pub async fn open(self, kept: Option<(Wrapped, String)>, password: String) -> Option<String> {
        self.run(move |memory| match kept {
            Some((wrapped, hash)) => wrapped.open(&password, &hash, memory),
            None => {
                std::hint::black_box(memory.key(&password, &NO_SALT));
                None
            }
        })
        .await
        .flatten()
    }
}

/// The password work of a server: the pool and the names' failures.
pub struct Passwords {
    at_once: usize,
    waiting: usize,
    /// Places: running and waiting.
    admitted: Arc<Semaphore>,
    /// Turns to run.
    running: Arc<Semaphore>,
    /// The buffers not in use.
    memories: Arc<Mutex<Vec<Memory>>>,
    failures: Mutex<Failures>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Default for Passwords {
    /// One computation a core at once, four times as many waiting.
    fn default() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Passwords::new(cores, WAITING_PER_COMPUTATION * cores)
    }
}

impl Passwords {
    /// A pool that runs at most `at_once` computations at once (at least one), with `waiting`
    /// more waiting their turn.
    pub fn new(at_once: usize, waiting: usize) -> Passwords {
        let at_once = at_once.max(1);
        Passwords {
            at_once,
            waiting,
            admitted: Arc::new(Semaphore::new(at_once + waiting)),
            running: Arc::new(Semaphore::new(at_once)),
            memories: Arc::new(Mutex::new(Vec::new())),
            failures: Mutex::new(Failures::default()),
        }
    }

    /// The most computations that run at once.
    pub fn at_once(&self) -> usize {
        self.at_once
    }

    /// The most computations that wait for their turn.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// The buffers the pool holds (at most [`Passwords::at_once`]).
    pub fn buffers(&self) -> usize {
        lock(&self.memories).len()
    }

    /// A place in the pool, or [`Busy`] at once when every place is taken.
    pub fn admit(&self) -> Result<Ticket, Busy> {
        match Arc::clone(&self.admitted).try_acquire_owned() {
            Ok(admitted) => {
                Ok(Ticket { admitted, running: Arc::clone(&self.running), memories: Arc::clone(&self.memories) })
            }
            Err(TryAcquireError::NoPermits | TryAcquireError::Closed) => Err(Busy { retry_after: BUSY_RETRY }),
        }
    }

    /// Lets an attempt to sign in to `name` (its key) go ahead at `now`, or says how long to
    /// wait ([`Failures::admit`]); the attempt's outcome is told with [`Attempt::settle`].
    pub fn attempt(&self, name: &str, now: Instant) -> Result<Attempt<'_>, Duration> {
        lock(&self.failures).admit(name, now)?;
        Ok(Attempt { passwords: self, name: name.to_string(), settled: false })
    }

    /// Forgets the names idle by `now` ([`Failures::forget_idle`]).
    pub fn forget_idle(&self, now: Instant) {
        lock(&self.failures).forget_idle(now);
    }
}

/// An attempt to sign in to a name, let go ahead by [`Passwords::attempt`]: dropped without
/// [`Attempt::settle`] (the pool was busy, the store failed), it counts for nothing.
pub struct Attempt<'a> {
    passwords: &'a Passwords,
    name: String,
    settled: bool,
}

impl Attempt<'_> {
    /// Notes the attempt's outcome at `now`: whether the password was right.
    pub fn settle(mut self, right: bool, now: Instant) {
        self.settled = true;
        lock(&self.passwords.failures).settle(&self.name, Some(right), now);
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        if !self.settled {
            lock(&self.passwords.failures).settle(&self.name, None, Instant::now());
        }
    }
}

/// What is known of one name's failed sign-ins.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// Failed sign-ins since the count last started.
    failures: u32,
    /// Attempts let go ahead and not yet settled.
    pending: u32,
    /// No attempt before this.
    until: Option<Instant>,
    /// The last failure, or when the record was made.
    last: Instant,
}

impl Record {
    /// When the record may be forgotten: its wait over and no failure for [`FORGOTTEN_AFTER`].
    fn idle_from(&self) -> Instant {
        self.until.map_or(self.last, |until| until.max(self.last)) + FORGOTTEN_AFTER
    }
}

/// The failed sign-ins of each name lately, in memory (one server's: a name's count starts
/// again when the server does, or on another server sharing the database).
///
/// A name may fail [`FREE_FAILURES`] times; the last of them and each later failure make the
/// next attempt wait [`FIRST_WAIT`], then twice as long each time, at most [`LONGEST_WAIT`].
/// Attempts in flight count as failures until they are settled, so that a burst of guesses sent
/// at once is not checked all together, and once the free failures are spent, one attempt at a
/// time is checked. A success starts the count again. The time is passed in, for the tests.
#[derive(Debug, Default)]
pub struct Failures {
    names: HashMap<String, Record>,
}

impl Failures {
    /// Lets an attempt at `name` go ahead at `now`, or returns how long to wait.
    pub fn admit(&mut self, name: &str, now: Instant) -> Result<(), Duration> {
        if !self.names.contains_key(name) && self.names.len() >= MOST_NAMES {
            self.make_room(now);
        }
        let record =
            self.names.entry(name.to_string()).or_insert(Record { failures: 0, pending: 0, until: None, last: now });
        if let Some(until) = record.until.filter(|until| now < *until) {
            return Err(until - now);
        }
        if record.failures + record.pending >= FREE_FAILURES && record.pending > 0 {
            // An attempt is being checked: its outcome decides the wait.
            return Err(Duration::from_secs(1));
        }
        record.pending += 1;
        Ok(())
    }

    /// Settles an attempt at `name` let go ahead: `Some(true)` a success, `Some(false)` a
    /// failure, `None` not checked (it counts for nothing).
    pub fn settle(&mut self, name: &str, right: Option<bool>, now: Instant) {
        let Some(record) = self.names.get_mut(name) else { return };
        record.pending = record.pending.saturating_sub(1);
        match right {
            Some(true) => {
                record.failures = 0;
                record.until = None;
                if record.pending == 0 {
                    self.names.remove(name);
                }
            }
            Some(false) => {
                record.failures += 1;
                record.last = now;
                if record.failures >= FREE_FAILURES {
                    record.until = Some(now + wait(record.failures));
                }
            }
            None => {}
        }
    }

    /// Forgets the names whose wait ended and that had no failure for [`FORGOTTEN_AFTER`] by
    /// `now`, and with no attempt in flight.
    pub fn forget_idle(&mut self, now: Instant) {
        self.names.retain(|_, record| record.pending > 0 || now < record.idle_from());
    }

    /// Returns how many names are kept.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no name is kept.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Makes room for a name when [`MOST_NAMES`] are kept: the idle ones go, or else the one idle
    /// longest without an attempt in flight.
    fn make_room(&mut self, now: Instant) {
        self.forget_idle(now);
        if self.names.len() < MOST_NAMES {
            return;
        }
        let oldest = self
            .names
            .iter()
            .filter(|(_, record)| record.pending == 0)
            .min_by_key(|(_, record)| record.idle_from())
            .map(|(name, _)| name.clone());
        if let Some(name) = oldest {
            self.names.remove(&name);
        }
    }
}

/// The wait after a name's `failures`th failure (at least [`FREE_FAILURES`]).
fn wait(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(FREE_FAILURES).min(20);
    (FIRST_WAIT * 2u32.pow(doublings)).min(LONGEST_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_waits_after_its_free_failures_twice_as_long_each_time_until_a_success() {
        let mut failures = Failures::default();
        let t = Instant::now();
        for _ in 0..FREE_FAILURES - 1 {
            failures.admit("alice", t).unwrap();
            failures.settle("alice", Some(false), t);
        }
        failures.admit("alice", t).unwrap();
        failures.settle("alice", Some(false), t);
        assert_eq!(failures.admit("alice", t), Err(FIRST_WAIT), "the fifth failure makes the next wait");
        assert!(failures.admit("bob", t).is_ok(), "another name is not held up");
        let later = t + FIRST_WAIT;
        failures.admit("alice", later).unwrap();
        failures.settle("alice", Some(false), later);
        assert_eq!(failures.admit("alice", later), Err(2 * FIRST_WAIT));
        assert_eq!(failures.admit("alice", later + FIRST_WAIT), Err(FIRST_WAIT), "the time left");
        let later = later + 2 * FIRST_WAIT;
        failures.admit("alice", later).unwrap();
        failures.settle("alice", Some(false), later);
        assert_eq!(failures.admit("alice", later), Err(4 * FIRST_WAIT));
        // A success starts the count again.
        let later = later + 4 * FIRST_WAIT;
        failures.admit("alice", later).unwrap();
        failures.settle("alice", Some(true), later);
        for _ in 0..FREE_FAILURES - 1 {
            failures.admit("alice", later).unwrap();
            failures.settle("alice", Some(false), later);
        }
        assert!(failures.admit("alice", later).is_ok());
    }

    #[test]
    fn the_wait_grows_to_its_longest_and_an_idle_name_is_forgotten() {
        assert_eq!(wait(FREE_FAILURES), FIRST_WAIT);
        assert_eq!(wait(FREE_FAILURES + 3), 8 * FIRST_WAIT);
        assert_eq!(wait(FREE_FAILURES + 30), LONGEST_WAIT);
        let mut failures = Failures::default();
        let t = Instant::now();
        let mut now = t;
        for _ in 0..40 {
            if let Err(wait) = failures.admit("carol", now) {
                now += wait;
                failures.admit("carol", now).unwrap();
            }
            failures.settle("carol", Some(false), now);
        }
        assert_eq!(failures.admit("carol", now), Err(LONGEST_WAIT));
        failures.forget_idle(now + LONGEST_WAIT);
        assert_eq!(failures.len(), 1, "kept while it waits, and for a while after");
        failures.forget_idle(now + LONGEST_WAIT + FORGOTTEN_AFTER);
        assert!(failures.is_empty());
        assert!(failures.admit("carol", now + LONGEST_WAIT + FORGOTTEN_AFTER).is_ok(), "as new");
    }

    #[test]
    fn attempts_in_flight_count_until_settled_and_one_unchecked_counts_for_nothing() {
        let mut failures = Failures::default();
        let t = Instant::now();
        for _ in 0..FREE_FAILURES {
            failures.admit("dave", t).unwrap();
        }
        assert_eq!(failures.admit("dave", t), Err(Duration::from_secs(1)), "five guesses in flight at most");
        failures.settle("dave", None, t);
        failures.admit("dave", t).unwrap();
        for _ in 0..FREE_FAILURES {
            failures.settle("dave", Some(false), t);
        }
        assert_eq!(failures.admit("dave", t), Err(FIRST_WAIT));
        // Past the free failures, one attempt at a time.
        let later = t + FIRST_WAIT;
        failures.admit("dave", later).unwrap();
        assert_eq!(failures.admit("dave", later), Err(Duration::from_secs(1)));
        failures.settle("dave", Some(true), later);
        assert!(failures.is_empty(), "a success with nothing in flight leaves nothing kept");
    }

    #[test]
    fn a_full_map_forgets_the_name_idle_longest() {
        let mut failures = Failures::default();
        let t = Instant::now();
        for i in 0..MOST_NAMES {
            let name = format!("n{i}");
            failures.admit(&name, t + Duration::from_millis(i as u64)).unwrap();
            failures.settle(&name, Some(false), t + Duration::from_millis(i as u64));
        }
        let now = t + Duration::from_secs(100);
        failures.admit("newcomer", now).unwrap();
        assert_eq!(failures.len(), MOST_NAMES);
        assert!(!failures.names.contains_key("n0"), "the oldest went");
        assert!(failures.names.contains_key("n1"));
    }

    #[tokio::test]
    async fn the_pool_runs_its_computations_in_turn_and_refuses_beyond_its_queue() {
        let pool = Passwords::new(1, 1);
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel();
        let first = pool.admit().expect("a free pool");
        let first = tokio::spawn(first.run(move |_| {
            started.send(()).unwrap();
            held.recv().unwrap();
            1
        }));
        running.await.unwrap();
        let second = pool.admit().expect("one place waits");
        assert_eq!(pool.admit().err(), Some(Busy { retry_after: BUSY_RETRY }), "beyond the queue: refused at once");
        let second = tokio::spawn(second.run(|_| 2));
        tokio::task::yield_now().await;
        // The first still runs (it waits on `release`): the second cannot have begun.
        assert!(!second.is_finished());
        assert_eq!(pool.admit().err(), Some(Busy { retry_after: BUSY_RETRY }), "still full");
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Some(1));
        assert_eq!(second.await.unwrap(), Some(2));
        assert!(pool.admit().is_ok(), "places free again");
        assert_eq!(pool.buffers(), 1, "one computation at a time: one buffer, used again");
    }

    #[tokio::test]
    async fn a_sign_in_to_a_name_without_a_password_opens_nothing_and_a_password_gives_its_secret() {
        let pool = Passwords::new(2, 2);
        let secret = crate::games::new_token();
        let hash = kalah_table::start::token_hash(&secret);
        let wrapped = pool.admit().unwrap().wrap(secret.clone(), "correct horse".to_string()).await.unwrap();
        assert_ne!(wrapped.wrapped, secret);
        let kept = Some((wrapped.clone(), hash.clone()));
        let opened = pool.admit().unwrap().open(kept.clone(), "correct horse".to_string()).await;
        assert_eq!(opened, Some(secret));
        assert_eq!(pool.admit().unwrap().open(kept, "correct horsf".to_string()).await, None);
        assert_eq!(pool.admit().unwrap().open(None, "correct horse".to_string()).await, None);
        assert!(pool.buffers() <= 2);
    }
}
