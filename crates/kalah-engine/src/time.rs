//! Time management: the one clock every search and solve reads ([`now`]), the limits of one
//! search or decision, a game clock's budget for a move, and a player's own clock over a whole
//! game.
//!
//! The clock is the `web-time` crate's: natively its [`Instant`] *is* `std::time::Instant` (the
//! same type, the same call), and on `wasm32-unknown-unknown`, where std's clock panics ("time
//! not implemented on this platform"), it reads `performance.now()` of the browser or Node. Code
//! that times a search reads the clock here, never `std::time::Instant::now()`.
//!
//! A search aims at a *target* time and never runs past a *hard* time. It checks the hard time as
//! it goes (the search stops mid-iteration and keeps the last completed one), and it starts a new
//! iteration only while it has used less than 3/5 of the target: each iteration costs more than
//! all before it, so one started later would most likely be cut off and thrown away.
//!
//! ```
//! use std::time::Duration;
//! use kalah_engine::time::{GameClock, Limits};
//! let mut clock = GameClock::new(Duration::from_secs(60), Duration::from_millis(500));
//! let budget = Limits::clock(clock.clock()).budget().unwrap();
//! assert!(budget.target < Duration::from_secs(4) && budget.hard >= budget.target);
//! clock.charge(Duration::from_secs(2));
//! assert_eq!(clock.left(), Duration::from_millis(58_500));
//! ```

use std::time::Duration;

/// A moment of the engine's clock: `std::time::Instant` natively, `performance.now()` on the web.
pub use web_time::Instant;

/// Returns the time now, from the one clock every search, solve and decision reads.
#[inline]
pub fn now() -> Instant {
    Instant::now()
}

/// When to stop searching. Unset limits do not apply; with none set the search runs to the end
/// of the game tree (it stops by itself once the value is proven) or until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in sowings.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
    /// A clock for the whole game.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Returns limits of a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Returns limits of a fixed time for the move.
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }

    /// Returns limits of a game clock: the move takes its share of what is left.
    pub fn clock(clock: Clock) -> Limits {
        Limits { clock: Some(clock), ..Limits::default() }
    }

    /// Returns the time to aim for and the time never to exceed, if any limit is of time.
    pub fn budget(&self) -> Option<Budget> {
        let from_clock = self.clock.map(|c| c.budget());
        let from_time = self.time.map(|t| Budget { target: t, hard: t });
        match (from_clock, from_time) {
            (Some(a), Some(b)) => Some(Budget { target: a.target.min(b.target), hard: a.hard.min(b.hard) }),
            (a, b) => a.or(b),
        }
    }
}

/// The time a move may take: what to aim for, and what never to exceed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time to aim for.
    pub target: Duration,
    /// The time never to exceed.
    pub hard: Duration,
}

impl Budget {
    /// Tells whether a new iteration may start after `elapsed`: only while less than 3/5 of the
    /// target is used, since the next iteration costs more than all before it.
    pub fn may_deepen(&self, elapsed: Duration) -> bool {
        elapsed < self.target * 3 / 5
    }

    /// Returns what is left of the hard limit after `elapsed`.
    pub fn hard_left(&self, elapsed: Duration) -> Duration {
        self.hard.saturating_sub(elapsed)
    }
}

/// A game clock as a search sees it: the time left, and what is added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the rest of the game.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl Clock {
    /// Returns the time to aim for on this move and the time never to exceed.
    ///
    /// The plan is about 25 more moves of one's own, never more than a fifth of what is left on
    /// a move, keeping a margin for the moves' own overhead.
    pub fn budget(&self) -> Budget {
        let left = self.remaining.saturating_sub(Duration::from_millis(20));
        let target = (left / 25 + self.increment * 3 / 4).min(left / 5);
        Budget { target, hard: (target * 3).min(left / 4).max(target) }
    }
}

/// A player's own clock over a game: the time for the whole game, what each move adds, what
/// has been used, and a reserve the searches never plan with.
///
/// The reserve is for what the player cannot measure, such as the pipes to a referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    total: Duration,
    increment: Duration,
    reserve: Duration,
    left: Duration,
    used: Duration,
}

impl GameClock {
    /// Returns a full clock of `total` for the game, adding `increment` after each move.
    pub fn new(total: Duration, increment: Duration) -> GameClock {
        GameClock { total, increment, reserve: Duration::ZERO, left: total, used: Duration::ZERO }
    }

    /// Returns the clock keeping `reserve` back from every search's plan.
    pub fn with_reserve(self, reserve: Duration) -> GameClock {
        GameClock { reserve, ..self }
    }

    /// Returns the time for the whole game.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Returns the time on the clock now: the total less what was used, plus the increments.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Returns the thinking time charged so far.
    pub fn used(&self) -> Duration {
        self.used
    }

    /// Returns the clock a search plans with: what is left less the reserve.
    pub fn clock(&self) -> Clock {
        Clock { remaining: self.left.saturating_sub(self.reserve), increment: self.increment }
    }

    /// Charges a move that took `spent`: it comes off the clock, and the increment goes on.
    pub fn charge(&mut self, spent: Duration) {
        self.used += spent;
        self.left = self.left.saturating_sub(spent) + self.increment;
    }

    /// Sets the clock back to full for a new game.
    pub fn restart(&mut self) {
        *self = GameClock { left: self.total, used: Duration::ZERO, ..*self };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// Natively the engine's clock is std's, so reading it costs what reading std's does.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_clock_is_std_s_natively_and_runs_forward() {
        let start: std::time::Instant = now();
        assert!(now() >= start);
        assert!(start.elapsed() < Duration::from_secs(24 * 3600));
    }

    #[test]
    fn a_clock_plans_on_a_share_of_what_is_left() {
        let budget = Clock { remaining: 10_020 * MS, increment: Duration::ZERO }.budget();
        assert_eq!(budget, Budget { target: 400 * MS, hard: 1200 * MS });
        // Almost out of time: a fifth of what is left, never more than a quarter.
        let budget = Clock { remaining: 120 * MS, increment: 1000 * MS }.budget();
        assert_eq!(budget, Budget { target: 20 * MS, hard: 25 * MS });
        assert_eq!(Clock { remaining: 5 * MS, increment: Duration::ZERO }.budget().hard, Duration::ZERO);
    }

    #[test]
    fn limits_take_the_tighter_of_time_and_clock() {
        assert_eq!(Limits::depth(5).budget(), None);
        assert_eq!(Limits::time(300 * MS).budget(), Some(Budget { target: 300 * MS, hard: 300 * MS }));
        let both = Limits {
            time: Some(300 * MS),
            ..Limits::clock(Clock { remaining: 10_020 * MS, increment: Duration::ZERO })
        };
        assert_eq!(both.budget(), Some(Budget { target: 300 * MS, hard: 300 * MS }));
    }

    #[test]
    fn a_new_iteration_starts_only_early_in_the_target() {
        let budget = Budget { target: 100 * MS, hard: 300 * MS };
        assert!(budget.may_deepen(59 * MS));
        assert!(!budget.may_deepen(60 * MS));
        assert_eq!(budget.hard_left(250 * MS), 50 * MS);
        assert_eq!(budget.hard_left(400 * MS), Duration::ZERO);
    }

    #[test]
    fn the_game_clock_keeps_its_reserve_and_never_goes_below_zero() {
        let mut clock = GameClock::new(20_000 * MS, Duration::ZERO).with_reserve(1000 * MS);
        assert_eq!(clock.clock().remaining, 19_000 * MS);
        clock.charge(25_000 * MS);
        assert_eq!(
            (clock.left(), clock.clock().remaining, clock.used()),
            (Duration::ZERO, Duration::ZERO, 25_000 * MS)
        );
        clock.restart();
        assert_eq!((clock.left(), clock.used()), (20_000 * MS, Duration::ZERO));
    }

    #[test]
    fn increments_go_on_after_each_move() {
        let mut clock = GameClock::new(1000 * MS, 10 * MS);
        clock.charge(300 * MS);
        clock.charge(2000 * MS);
        assert_eq!(clock.left(), 10 * MS, "an overdrawn clock still gets its increment");
        assert_eq!(clock.total(), 1000 * MS);
    }
}
