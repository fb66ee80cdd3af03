//! Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" (2013) defines them: a
//! rating, its deviation (how uncertain it is) and its volatility (how much it is expected to
//! move). Each rated game is a rating period of its own for both players, as on the servers
//! people play on (lichess): a rating moves as soon as the game ends. A player who has not
//! played for a while is less certain: the deviation grows by the volatility for each day
//! without a rated game ([`Rating::aged`]), up to a newcomer's.

use serde::{Deserialize, Serialize};

/// The scale factor between the Glicko scale (1500 at the centre) and Glicko-2's.
const SCALE: f64 = 173.7178;

/// The system constant τ: how much the volatility may change in one period. Glickman advises
/// 0.3 to 1.2; his example uses 0.5.
pub const TAU: f64 = 0.5;

/// The precision the volatility is found to (Glickman's ε).
const EPSILON: f64 = 0.000_001;

/// A deviation above this shows the rating as provisional (`1500?`), as lichess does.
pub const PROVISIONAL: f64 = 110.0;

/// A player's rating in one board family.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating on the Glicko scale: 1500 for a newcomer.
    pub rating: f64,
    /// The rating deviation: 350 for a newcomer, smaller as games tell more.
    pub deviation: f64,
    /// The volatility σ.
    pub volatility: f64,
}

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

impl Outcome {
    /// The score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The outcome for the opponent.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

impl Default for Rating {
    /// A newcomer's rating: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 }
    }
}

impl Rating {
    /// Tells whether the rating is still uncertain (deviation above [`PROVISIONAL`]).
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL
    }

    /// The rating as shown: rounded, with `?` while provisional.
    pub fn shown(&self) -> String {
        format!("{:.0}{}", self.rating, if self.is_provisional() { "?" } else { "" })
    }

    /// The rating after `days` without a rated game: each day is a rating period in which the
    /// player did not play (Glickman's step 6 alone), so the deviation grows, up to a
    /// newcomer's.
    pub fn aged(self, days: f64) -> Rating {
        if days <= 0.0 {
            return self;
        }
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + days * self.volatility * self.volatility).sqrt() * SCALE;
        Rating { deviation: grown.min(Rating::default().deviation), ..self }
    }

    /// The rating after a rating period in which the player met these opponents with these
    /// outcomes (Glickman's steps 2 to 8, with τ = [`TAU`]). With no games, only the deviation
    /// grows.
    pub fn update(self, games: &[(Rating, Outcome)]) -> Rating {
        self.update_with(games, TAU)
    }

    /// [`Rating::update`] with the system constant `tau`.
    pub fn update_with(self, games: &[(Rating, Outcome)], tau: f64) -> Rating {
        let (mu, phi, sigma) = ((self.rating - 1500.0) / SCALE, self.deviation / SCALE, self.volatility);
        if games.is_empty() {
            return self.aged(1.0);
        }
        // Step 3 and 4: the estimated variance v and the improvement Δ.
        let (mut inverse_v, mut sum) = (0.0, 0.0);
        for (opponent, outcome) in games {
            let (mu_j, phi_j) = ((opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE);
            let g = g(phi_j);
            let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
            inverse_v += g * g * e * (1.0 - e);
            sum += g * (outcome.score() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let sigma = volatility(delta, phi, v, sigma, tau);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        // Step 8: back to the Glicko scale.
        Rating { rating: SCALE * mu + 1500.0, deviation: (SCALE * phi).min(350.0), volatility: sigma }
    }
}

/// Glickman's g(φ): how much an opponent's uncertainty weakens what a game against them tells.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 5: the new volatility σ′, the root of Glickman's f found by the Illinois algorithm.
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2)) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: a player rated 1500 (deviation 200, volatility 0.06) beats a
    /// 1400 (30) and loses to a 1550 (100) and a 1700 (300), with τ = 0.5: the paper's
    /// figures are 1464.06, 151.52 and 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
        let games = [
            (opponent(1400.0, 30.0), Outcome::Win),
            (opponent(1550.0, 100.0), Outcome::Loss),
            (opponent(1700.0, 300.0), Outcome::Loss),
        ];
        let after = player.update_with(&games, 0.5);
        // The paper rounds each step to four places, which moves its rating up by a hundredth:
        // unrounded, the same steps give 1464.0507.
        assert!((after.rating - 1464.06).abs() < 0.015, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.005, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        // The intermediate figures of the paper, v = 1.7785 and Δ = −0.4834 (rounded as it rounds).
        let (mu, phi) = (0.0, 200.0 / SCALE);
        let (mut inverse_v, mut sum) = (0.0, 0.0);
        for (o, outcome) in &games {
            let (mu_j, phi_j) = ((o.rating - 1500.0) / SCALE, o.deviation / SCALE);
            let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
            inverse_v += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (outcome.score() - e);
        }
        assert!((1.0 / inverse_v - 1.7785).abs() < 0.001, "v = {}", 1.0 / inverse_v);
        assert!((sum / inverse_v + 0.4834).abs() < 0.001, "Δ = {}", sum / inverse_v);
        assert!((phi - 1.1513).abs() < 0.0001);
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_draw_between_equals_keeps_the_rating() {
        let new = Rating::default();
        let won = new.update(&[(new, Outcome::Win)]);
        let lost = new.update(&[(new, Outcome::Loss)]);
        let drawn = new.update(&[(new, Outcome::Draw)]);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!((won.rating - 1500.0 - (1500.0 - lost.rating)).abs() < 1e-9, "symmetric");
        assert!((drawn.rating - 1500.0).abs() < 1e-9);
        assert!(won.deviation < 350.0 && won.is_provisional());
        assert_eq!(won.shown(), format!("{:.0}?", won.rating));
        assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
    }

    #[test]
    fn a_rating_grows_uncertain_without_games_up_to_a_newcomers() {
        let settled = Rating { rating: 1800.0, deviation: 60.0, volatility: 0.06 };
        assert!(!settled.is_provisional());
        let later = settled.aged(30.0);
        assert!(later.deviation > 60.0 && later.rating == 1800.0);
        assert_eq!(settled.aged(1e9).deviation, 350.0);
        assert_eq!(settled.aged(0.0), settled);
    }
}
