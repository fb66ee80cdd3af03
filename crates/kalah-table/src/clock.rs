//! The players' clocks of a timed game ([`Clocks`]), as a value: each player's own clock (it
//! follows the player across a swap), when the player to decide began, and each player's
//! showing credit. The table decides whose clock a change is charged to and whether the clocks
//! run; this module does the arithmetic, the same for live play and replay.
//!
//! The clock of the player to decide runs from the move before, or from when that player's
//! screen has shown it ([`Clocks::shown_at`]): the page animates a sowing seed by seed. What a
//! screen may claim is bounded: at most [`MOST_SHOWING`] a move, and no more than the player's
//! credit, which starts at [`SHOWING_CREDIT`] and grows by [`SHOWING_REFILL`] with each of the
//! player's actions, up to [`MOST_SHOWING`]: an honest page's animations fit in it, a page that
//! claims to animate while its player thinks gains little.

use std::time::Duration;

use kalah_engine::time::{Clock, GameClock};
use kalah_rules::Seat;

use crate::event::Moment;

/// The most time a screen may take to show a move before its player's clock runs.
pub const MOST_SHOWING: Duration = Duration::from_secs(10);

/// A player's showing credit at the start of a game.
pub const SHOWING_CREDIT: Duration = Duration::from_secs(3);

/// What each of a player's actions adds to its showing credit, up to [`MOST_SHOWING`]. An
/// animation at the page's normal pace (180 ms a seed) of a sowing of eight seeds takes 1.9 s.
pub const SHOWING_REFILL: Duration = Duration::from_secs(2);

/// The players' clocks of a timed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The first player's clock, then the second player's.
    seats: [GameClock; 2],
    /// When the player to decide now began to think: when the move before was made, until the
    /// player's screen has shown it.
    since: Moment,
    /// The move before was made at `since` and is not yet shown: a [`Clocks::shown`] may still
    /// start the clock later.
    showing: bool,
    /// Each player's showing credit.
    credit: [Duration; 2],
}

impl Clocks {
    /// Clocks of `total` for each player and `increment` added after each of its actions, the
    /// first player beginning at `began`.
    pub fn new(total: Duration, increment: Duration, began: Moment) -> Clocks {
        let clock = GameClock::new(total, increment);
        Clocks { seats: [clock; 2], since: began, showing: true, credit: [SHOWING_CREDIT; 2] }
    }

    /// Returns the time each player had at the start.
    pub fn total(&self) -> Duration {
        self.seats[0].total()
    }

    /// Returns the time added after each action.
    pub fn increment(&self) -> Duration {
        self.seats[0].clock().increment
    }

    /// Returns when the player to decide began to think.
    pub fn since(&self) -> Moment {
        self.since
    }

    /// Returns each player's showing credit, first player first.
    pub fn credit(&self) -> [Duration; 2] {
        self.credit
    }

    /// Returns the time the player to decide has thought at `now`.
    pub fn spent(&self, now: Moment) -> Duration {
        now.since(self.since)
    }

    /// Charges `seat`, whose action was made at `at`, `spent` (with its increment), adds to its
    /// showing credit, and starts the next player's thinking then, until its screen shows it.
    pub fn charge(&mut self, seat: Seat, spent: Duration, at: Moment) {
        self.seats[seat.index()].charge(spent);
        let credit = &mut self.credit[seat.index()];
        *credit = (*credit + SHOWING_REFILL).min(MOST_SHOWING);
        self.restart(at);
    }

    /// Returns when the clock of `seat` (to decide) starts if its screen says at `now` that it
    /// has shown the move before: `now`, but no later than the player's credit (and
    /// [`MOST_SHOWING`]) after that move; `None` once it was shown.
    pub fn shown_at(&self, seat: Seat, now: Moment) -> Option<Moment> {
        let credit = self.credit[seat.index()].min(MOST_SHOWING);
        self.showing.then(|| now.min(self.since.plus(credit)).max(self.since))
    }

    /// The screen of `seat` (to decide) showed the move before at `at` ([`Clocks::shown_at`]):
    /// its clock runs from then, and the time since the move is taken from its credit.
    pub fn shown(&mut self, seat: Seat, at: Moment) {
        let credit = &mut self.credit[seat.index()];
        *credit = credit.saturating_sub(at.since(self.since));
        self.since = at;
        self.showing = false;
    }

    /// The player to decide begins at `at` after a step through the history: the clocks keep
    /// what they held (stepping back gives no time back).
    pub fn restart(&mut self, at: Moment) {
        self.since = at;
        self.showing = true;
    }

    /// Returns the time on each player's clock at `now`, first player first: `running`, the
    /// player to decide is charged for the time since it began.
    pub fn left(&self, running: Option<Seat>, now: Moment) -> [Duration; 2] {
        let mut left = self.seats.map(|c| c.left());
        if let Some(seat) = running {
            left[seat.index()] = left[seat.index()].saturating_sub(self.spent(now));
        }
        left
    }

    /// Returns the clock `seat` plans with when it decides at `now` with `remaining` left.
    pub fn plan(&self, seat: Seat, remaining: Duration) -> Clock {
        Clock { remaining, increment: self.seats[seat.index()].clock().increment }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Moment = Moment(1_000);

    fn at(ms: u64) -> Moment {
        T0.plus(Duration::from_millis(ms))
    }

    #[test]
    fn an_action_is_charged_with_its_increment_and_the_next_player_begins_then() {
        let mut clocks = Clocks::new(Duration::from_secs(60), Duration::from_secs(2), T0);
        assert_eq!(clocks.left(Some(Seat::First), at(5_000)), [Duration::from_secs(55), Duration::from_secs(60)]);
        clocks.charge(Seat::First, clocks.spent(at(5_000)), at(5_000));
        assert_eq!(clocks.left(None, at(5_000)), [Duration::from_secs(57), Duration::from_secs(60)]);
        assert_eq!(clocks.since(), at(5_000));
        assert_eq!(clocks.left(Some(Seat::Second), at(8_000))[1], Duration::from_secs(57));
    }

    #[test]
    fn a_screen_claims_no_more_than_its_credit_and_the_credit_grows_with_each_action() {
        let mut clocks = Clocks::new(Duration::from_secs(60), Duration::ZERO, T0);
        // Three seconds of credit at the start: a claim of ten is cut to three.
        assert_eq!(clocks.shown_at(Seat::First, at(10_000)), Some(at(3_000)));
        assert_eq!(clocks.shown_at(Seat::First, at(1_500)), Some(at(1_500)), "an honest claim is taken");
        clocks.shown(Seat::First, at(3_000));
        assert_eq!(clocks.credit(), [Duration::ZERO, SHOWING_CREDIT]);
        assert_eq!(clocks.shown_at(Seat::First, at(4_000)), None, "shown once a move");
        // Each action adds two seconds, up to ten.
        clocks.charge(Seat::First, Duration::from_secs(1), at(4_000));
        assert_eq!(clocks.credit()[0], SHOWING_REFILL);
        for _ in 0..10 {
            clocks.charge(Seat::First, Duration::ZERO, at(4_000));
        }
        assert_eq!(clocks.credit()[0], MOST_SHOWING);
        // A claim before the move was made starts the clock at the move.
        assert_eq!(clocks.shown_at(Seat::First, T0), Some(at(4_000)));
    }

    #[test]
    fn a_step_through_the_history_gives_no_time_back() {
        let mut clocks = Clocks::new(Duration::from_secs(60), Duration::ZERO, T0);
        clocks.charge(Seat::First, Duration::from_secs(20), at(20_000));
        clocks.restart(at(25_000));
        assert_eq!(clocks.left(None, at(25_000))[0], Duration::from_secs(40));
        assert_eq!(clocks.left(Some(Seat::Second), at(26_000))[1], Duration::from_secs(59));
        assert_eq!(clocks.plan(Seat::Second, Duration::from_secs(59)).increment, Duration::ZERO);
    }
}
