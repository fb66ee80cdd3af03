//! Chains of extra moves: the rows a player can clear in one turn, and the longest chain from a position.
//!
//! **The mathematics** (Tchoukaillon, or "Mancala" solitaire; Broline and Loeb, "The combinatorics
//! of Mancala-type games: Ayo, Tchoukaillon, and 1/π", 1995). Number a row's houses from the store:
//! house i is i steps from it. A sowing of house i ends in the store, and so gives an extra move,
//! exactly when the house holds i seeds (on a single row; on a Kalah board also i plus whole laps).
//! For every number N of seeds exactly one row can be cleared into the store in one turn, by N
//! extra moves, each putting one seed in the store. Call it the *pattern* of N.
//!
//! The pattern follows from counting how often each house is sown. If house i is sown p_i times and
//! P_i = p_i + p_(i+1) + …, house i starts with b_i seeds, receives P_(i+1) and sends out i·p_i:
//! i·p_i = b_i + P_(i+1), that is i·P_i = b_i + (i+1)·P_(i+1). With r_i = i·P_i, r_1 = N (every
//! sowing is one seed in the store) and r_(i+1) a multiple of i+1, so b_i = r_i mod (i+1) (as
//! 0 ≤ b_i ≤ i: a house holding more than i seeds can never be cleared) and r_(i+1) = r_i − b_i.
//! This *sieve* gives the pattern in O(houses) steps, about √(πN).
//!
//! The clearing moves are unique as well: the only sowing that keeps the rest clearable is the house
//! nearest the store whose seeds equal its distance, and the board it leaves is the pattern of N−1.
//! So the k-th move from the end is that house in the pattern of k, found by running the sieve on k
//! until the house is met: on average a few steps, as house i is reached with probability about 1/i.
//!
//! The fewest seeds s(n) whose pattern needs n houses come from the sieve run backwards: start with
//! n and round up to a multiple of n−1, then of n−2, …, then of 1. Broline and Loeb prove s(n) ~ n²/π.
//! The houses a pattern needs never shrink as N grows, so the largest pattern that fits in m houses
//! has s(m+1) − 1 seeds: 17 for the six houses of standard Kalah.
//!
//! ```
//! use kalah_rules::chain::Pattern;
//! let five = Pattern::of_seeds(5).unwrap();
//! assert_eq!(five.houses(), [1, 1, 3]); // house 1 (nearest the store) holds 1 seed, house 3 holds 3
//! assert_eq!(five.moves().collect::<Vec<_>>(), [1, 3, 1, 2, 1]);
//! let six = Pattern::longest_in(6).unwrap();
//! assert_eq!((six.seeds(), six.houses().len()), (17, 6));
//! ```
//!
//! **Positions.** [`longest_chain`] finds the longest run of extra moves the player to move can make
//! from any position under any rules, by a depth-first search over the sowings that end in the
//! mover's store, with the rules' own [`Position::play`].

use std::collections::HashMap;

use crate::{Move, Position, Rules, Side};
use thiserror::Error;

/// The most seeds [`Pattern::of_seeds`] takes: the pattern then needs about 1.77 million houses.
pub const MAX_SEEDS: u64 = 1_000_000_000_000;

/// The most houses [`Pattern::longest_in`] and [`fewest_seeds_needing`] take.
pub const MAX_HOUSES: u64 = 1_000_000;

/// The positions [`longest_chain`] remembers by default before it stops with the best chain found:
/// about 30 MB of memory at most.
pub const DEFAULT_POSITION_LIMIT: usize = 400_000;

/// A request outside what the chain functions take.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChainError {
    /// A number of seeds out of range.
    #[error("{0} seeds is out of range: give 1 to {MAX_SEEDS}")]
    Seeds(u64),
    /// A number of houses out of range.
    #[error("{0} houses is out of range: give 1 to {MAX_HOUSES}")]
    Houses(u64),
}

/// The unique row of N seeds that one player can clear into the store in one turn of N extra moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    seeds: u64,
    /// Seeds in house 1 (nearest the store), house 2, …; the last house holds seeds.
    houses: Vec<u64>,
}

impl Pattern {
    /// Returns the pattern of `seeds` seeds (1 to [`MAX_SEEDS`]), by the sieve.
    pub fn of_seeds(seeds: u64) -> Result<Pattern, ChainError> {
        if !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(ChainError::Seeds(seeds));
        }
        let mut houses = Vec::new();
        let mut rest = seeds;
        let mut distance = 1;
        while rest > 0 {
            let here = rest % (distance + 1);
            houses.push(here);
            rest -= here;
            distance += 1;
        }
        Ok(Pattern { seeds, houses })
    }

    /// Returns the largest pattern that fits in `houses` houses (1 to [`MAX_HOUSES`]): the longest chain there.
    pub fn longest_in(houses: u64) -> Result<Pattern, ChainError> {
        if !(1..=MAX_HOUSES).contains(&houses) {
            return Err(ChainError::Houses(houses));
        }
        Pattern::of_seeds(sieve_up(houses + 1) - 1)
    }

    /// Returns the number of seeds, which is also the number of moves that clear the row.
    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// Returns the seeds in each house, from house 1 (nearest the store) to the last house that holds seeds.
    pub fn houses(&self) -> &[u64] {
        &self.houses
    }

    /// Returns how many times each house is sown while the row is cleared, from house 1 on.
    pub fn plays(&self) -> Vec<u64> {
        // r_i = i·P_i, where P_i counts the sowings of houses i and beyond.
        let mut rest = self.seeds;
        let mut sown_from = Vec::with_capacity(self.houses.len() + 1);
        for (i, &here) in self.houses.iter().enumerate() {
            sown_from.push(rest / (i as u64 + 1));
            rest -= here;
        }
        sown_from.push(0);
        sown_from.windows(2).map(|w| w[0] - w[1]).collect()
    }

    /// Returns the moves that clear the row, in order, as houses counted from the store.
    ///
    /// The iterator computes each move when asked, in a few steps on average, with no memory.
    pub fn moves(&self) -> ClearingMoves {
        ClearingMoves { left: self.seeds }
    }
}

/// The moves that clear a [`Pattern`], from [`Pattern::moves`].
#[derive(Clone, Debug)]
pub struct ClearingMoves {
    left: u64,
}

impl Iterator for ClearingMoves {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        // Run the sieve on the seeds left until the first house whose seeds equal its distance.
        let mut rest = self.left;
        let mut distance = 1;
        loop {
            let here = rest % (distance + 1);
            if here == distance {
                self.left -= 1;
                return Some(distance);
            }
            rest -= here;
            debug_assert!(rest > 0, "every pattern has a house to sow");
            distance += 1;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.left).unwrap_or(usize::MAX);
        (left, usize::try_from(self.left).ok())
    }
}

/// Returns the number of houses the pattern of `seeds` seeds needs (0 for none), without storing it.
pub fn houses_needed(seeds: u64) -> u64 {
    let mut rest = seeds;
    let mut distance = 0;
    while rest > 0 {
        distance += 1;
        rest -= rest % (distance + 1);
    }
    distance
}

/// Returns s(n): the fewest seeds whose pattern needs `houses` houses (1 to [`MAX_HOUSES`]).
///
/// Broline and Loeb show s(n) ~ n²/π; `kalah chain --growth` prints the ratio.
pub fn fewest_seeds_needing(houses: u64) -> Result<u64, ChainError> {
    if !(1..=MAX_HOUSES).contains(&houses) {
        return Err(ChainError::Houses(houses));
    }
    Ok(sieve_up(houses))
}

/// Runs the sieve backwards from `n`: round up to a multiple of n−1, then n−2, …, then 1.
fn sieve_up(n: u64) -> u64 {
    (1..n).rev().fold(n, |seeds, k| seeds.div_ceil(k) * k)
}

/// The longest run of extra moves from a position, from [`longest_chain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The sowings, in order, each ending in the mover's store; empty when no sowing does.
    pub moves: Vec<Move>,
    /// The last sowing of the chain ends the game (the mover cleared their side, say).
    pub ends_game: bool,
    /// The search looked at every chain; `false` when it stopped at its limit of positions, and
    /// `moves` is then the longest chain it found.
    pub complete: bool,
    /// The distinct positions the search visited.
    pub positions: usize,
}

/// Returns the longest chain of extra moves the player to move can make from `position`.
///
/// A chain is a run of sowings each of which ends in the mover's store ([`crate::Outcome`]'s
/// `extra_move`), so the same player moves again; its length counts those sowings, not the move
/// that ends the turn after it. Every sowing of a chain puts a seed in the mover's store, so a chain
/// is at most as long as the seeds on the board and the search ends; it remembers each position's
/// longest chain, since different orders often meet. It visits at most `limit` positions (a row of
/// twelve houses holding many laps of seeds can branch widely) and then returns the longest chain
/// found, with `complete` false. Among equally long chains it takes the first in house order.
///
/// ```
/// use kalah_rules::chain::longest_chain;
/// use kalah_rules::{Position, Rules};
/// // The 5-seed pattern on a row of three houses (house 3 of the notation is nearest the store).
/// let rules = Rules::standard(3, 1).unwrap();
/// let position = Position::parse("3,1,1:0/1,1,1:0/S", &rules).unwrap();
/// let chain = longest_chain(&position, &rules, 1000);
/// let moves: Vec<u8> = chain.moves.iter().map(|m| m.number()).collect();
/// assert_eq!(moves, [3, 1, 3, 2, 3]);
/// assert!(chain.complete && chain.ends_game);
/// ```
pub fn longest_chain(position: &Position, rules: &Rules, limit: usize) -> Chain {
    let mut search = ChainSearch { rules, limit, best: HashMap::new(), stopped: false };
    search.longest(position);
    let mut moves = Vec::new();
    let mut at = *position;
    let mut ends_game = false;
    while let Some(&(_, Some(mv))) = search.best.get(&houses(&at)) {
        moves.push(mv);
        let (next, outcome) = at.play(rules, mv).expect("a remembered chain move is legal");
        ends_game = outcome.ended;
        at = next;
    }
    Chain { moves, ends_game, complete: !search.stopped, positions: search.best.len() }
}

/// The seeds of every house, 9 bits each (a position holds at most 288 seeds), 7 to a word.
///
/// Within one search these tell positions apart exactly: every sowing searched ends in the mover's
/// store, so the mover stays, the opponent's store never changes (no capture, and sowing skips it),
/// the mover's store holds what the houses and the opponent's store leave of the fixed total, and the
/// no-progress count is 0 after the first sowing (a seed reached a store). A key a fifth the size of a
/// position keeps the table small.
type HousesKey = [u64; 4];

fn houses(position: &Position) -> HousesKey {
    let mut key = [0; 4];
    let seeds = Side::BOTH.iter().flat_map(|&side| position.row(side).iter());
    for (i, &count) in seeds.enumerate() {
        key[i / 7] |= u64::from(count) << (9 * (i % 7));
    }
    key
}

/// The state of one [`longest_chain`] search.
struct ChainSearch<'a> {
    rules: &'a Rules,
    limit: usize,
    /// Each visited position's longest chain found: its length and first move.
    best: HashMap<HousesKey, (u16, Option<Move>)>,
    /// The limit was reached: later positions were not searched.
    stopped: bool,
}

impl ChainSearch<'_> {
    /// Returns the length of the longest chain from `position`, remembering it and its first move.
    fn longest(&mut self, position: &Position) -> u16 {
        let key = houses(position);
        if let Some(&(length, _)) = self.best.get(&key) {
            return length;
        }
        if self.best.len() >= self.limit {
            self.stopped = true;
            return 0;
        }
        // Claim the entry first so the limit counts positions being searched too.
        self.best.insert(key, (0, None));
        let mut found = (0, None);
        if !position.is_over(self.rules) {
            for mv in position.legal_moves() {
                let Ok((next, outcome)) = position.play(self.rules, mv) else { continue };
                if !outcome.extra_move {
                    continue;
                }
                // After a sowing that ends the game the turn is over: nothing follows.
                let length = 1 + if outcome.ended { 0 } else { self.longest(&next) };
                if length > found.0 {
                    found = (length, Some(mv));
                }
            }
        }
        self.best.insert(key, found);
        found.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capture, Direction, GameEnd, Sowing};

    /// Builds the pattern of `seeds` the slow way: from the empty row, add one seed at a time by
    /// filling the first empty house i with i seeds and taking one from each house before it.
    fn unwound(seeds: u64) -> Vec<u64> {
        let mut row: Vec<u64> = Vec::new();
        for _ in 0..seeds {
            let first_empty = row.iter().position(|&s| s == 0).unwrap_or(row.len());
            if first_empty == row.len() {
                row.push(0);
            }
            row[first_empty] = first_empty as u64 + 1;
            for house in &mut row[..first_empty] {
                *house -= 1;
            }
        }
        row
    }

    /// Clears a row by always sowing the house nearest the store whose seeds equal its distance,
    /// returning the moves, or `None` if the row gets stuck before it is empty.
    fn cleared(mut row: Vec<u64>) -> Option<Vec<u64>> {
        let mut moves = Vec::new();
        while row.iter().any(|&s| s > 0) {
            let house = (0..row.len()).find(|&i| row[i] == i as u64 + 1)?;
            row[house] = 0;
            for before in &mut row[..house] {
                *before += 1;
            }
            moves.push(house as u64 + 1);
        }
        Some(moves)
    }

    /// Tells whether some order of sowings, each ending in the store, clears the row.
    fn clearable(row: &mut [u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
        if row.iter().all(|&s| s == 0) {
            return true;
        }
        if let Some(&known) = memo.get(&*row) {
            return known;
        }
        let mut result = false;
        for house in 0..row.len() {
            if row[house] == house as u64 + 1 {
                row[house] = 0;
                row[..house].iter_mut().for_each(|s| *s += 1);
                result = clearable(row, memo);
                row[..house].iter_mut().for_each(|s| *s -= 1);
                row[house] = house as u64 + 1;
                if result {
                    break;
                }
            }
        }
        memo.insert(row.to_vec(), result);
        result
    }

    /// Calls `visit` with every row of `houses` houses holding `seeds` seeds in all.
    fn every_row(seeds: u64, houses: usize, visit: &mut impl FnMut(&mut [u64])) {
        fn fill(row: &mut Vec<u64>, left: u64, houses: usize, visit: &mut impl FnMut(&mut [u64])) {
            if row.len() + 1 == houses {
                row.push(left);
                visit(row);
                row.pop();
                return;
            }
            for here in 0..=left {
                row.push(here);
                fill(row, left - here, houses, visit);
                row.pop();
            }
        }
        fill(&mut Vec::with_capacity(houses), seeds, houses, visit);
    }

    #[test]
    fn the_pages_examples() {
        let five = Pattern::of_seeds(5).unwrap();
        assert_eq!(five.houses(), [1, 1, 3]);
        assert_eq!(five.moves().collect::<Vec<_>>(), [1, 3, 1, 2, 1]);
        let six = Pattern::longest_in(6).unwrap();
        assert_eq!(six.seeds(), 17);
        assert_eq!(six.houses(), [1, 1, 3, 2, 4, 6]);
        assert_eq!(houses_needed(18), 7, "one seed more needs a seventh house");
        assert_eq!(cleared(six.houses().to_vec()).unwrap().len(), 17);
    }

    #[test]
    fn the_sieve_agrees_with_building_up_and_clearing_down() {
        let mut row: Vec<u64> = Vec::new();
        for seeds in 1..=3000u64 {
            // Grow `row` by one seed as `unwound` does, so all of 1..3000 cost one pass.
            let first_empty = row.iter().position(|&s| s == 0).unwrap_or(row.len());
            if first_empty == row.len() {
                row.push(0);
            }
            row[first_empty] = first_empty as u64 + 1;
            row[..first_empty].iter_mut().for_each(|s| *s -= 1);

            let pattern = Pattern::of_seeds(seeds).unwrap();
            assert_eq!(pattern.houses(), row, "{seeds} seeds");
            assert_eq!(houses_needed(seeds), row.len() as u64);
            if seeds <= 400 || seeds % 97 == 0 {
                let moves = cleared(row.clone()).expect("the pattern clears");
                assert_eq!(pattern.moves().collect::<Vec<_>>(), moves, "{seeds} seeds");
                let mut plays = vec![0; row.len()];
                moves.iter().for_each(|&m| plays[m as usize - 1] += 1);
                assert_eq!(pattern.plays(), plays, "{seeds} seeds");
            }
        }
        assert_eq!(unwound(17), Pattern::of_seeds(17).unwrap().houses());
    }

    #[test]
    fn each_number_of_seeds_has_exactly_one_clearable_row() {
        // Every row of up to 11 seeds: a house farther than the seeds can never be sown into the
        // store, so rows as long as the seeds cover every candidate.
        let mut memo = HashMap::new();
        for seeds in 1..=11u64 {
            let mut found = Vec::new();
            every_row(seeds, seeds as usize, &mut |row| {
                if clearable(row, &mut memo) {
                    found.push(row.to_vec());
                }
            });
            assert_eq!(found.len(), 1, "{seeds} seeds: {found:?}");
            let mut expected = Pattern::of_seeds(seeds).unwrap().houses().to_vec();
            expected.resize(seeds as usize, 0);
            assert_eq!(found[0], expected, "{seeds} seeds");
        }
    }

    #[test]
    fn the_fewest_seeds_needing_n_houses() {
        // OEIS A002491 begins 1, 2, 4, 6, 10, 12, 18, 22, 30, 34, 42, 48.
        let first: Vec<u64> = (1..=12).map(|n| fewest_seeds_needing(n).unwrap()).collect();
        assert_eq!(first, [1, 2, 4, 6, 10, 12, 18, 22, 30, 34, 42, 48]);
        // Against the definition: the first N whose pattern needs n houses, and needs never shrink.
        let mut next_houses = 1;
        let mut previous = 0;
        for seeds in 1..=20_000 {
            let needed = houses_needed(seeds);
            assert!(needed >= previous, "{seeds} seeds need fewer houses than {}", seeds - 1);
            if needed == next_houses {
                assert_eq!(fewest_seeds_needing(next_houses).unwrap(), seeds, "{next_houses} houses");
                next_houses += 1;
            }
            previous = needed;
        }
        assert!(next_houses > 200);
    }

    /// Returns the largest |s(n)·π/n² − 1| for n in `range`.
    fn worst_ratio_error(range: std::ops::Range<u64>) -> f64 {
        range
            .map(|n| fewest_seeds_needing(n).unwrap() as f64 * std::f64::consts::PI / (n as f64 * n as f64))
            .map(|ratio| (ratio - 1.0).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn the_fewest_seeds_needing_n_houses_grow_like_n_squared_over_pi() {
        // The ratio wanders (at n = 200 it is 0.99997, at n = 1000 1.00082), so each bound holds for
        // the worst n of a window of 100. Measured worst |ratio − 1|: 0.109 on 10..20, 0.0217 on
        // 100..200, 0.00312 on 1000..1100, 0.00166 on 2000..2100, 0.000430 on 10000..10100.
        for (start, bound) in [(10, 0.15), (100, 0.03), (1_000, 0.005), (2_000, 0.0025), (10_000, 0.0006)] {
            let end = start + if start == 10 { 10 } else { 100 };
            let worst = worst_ratio_error(start..end);
            assert!(worst < bound, "n in {start}..{end}: |s(n)·π/n² − 1| reaches {worst}");
        }
        let last = fewest_seeds_needing(MAX_HOUSES).unwrap() as f64 * std::f64::consts::PI / 1e12;
        assert!((last - 1.0).abs() < 1e-5, "n = 10^6: ratio {last}");
    }

    #[test]
    fn large_patterns_are_fast_and_consistent() {
        let pattern = Pattern::of_seeds(1_000_000).unwrap();
        assert_eq!(pattern.houses().iter().sum::<u64>(), 1_000_000);
        assert!(pattern.houses().iter().enumerate().all(|(i, &s)| s <= i as u64 + 1));
        assert_eq!(pattern.plays().iter().sum::<u64>(), 1_000_000);
        let mut plays = vec![0u64; pattern.houses().len()];
        pattern.moves().for_each(|m| plays[m as usize - 1] += 1);
        assert_eq!(plays, pattern.plays());
        let longest = Pattern::longest_in(MAX_HOUSES).unwrap();
        assert_eq!(longest.houses().len() as u64, MAX_HOUSES);
        assert_eq!(houses_needed(longest.seeds() + 1), MAX_HOUSES + 1);
    }

    #[test]
    fn out_of_range_requests_are_refused() {
        assert_eq!(Pattern::of_seeds(0), Err(ChainError::Seeds(0)));
        assert_eq!(Pattern::of_seeds(MAX_SEEDS + 1), Err(ChainError::Seeds(MAX_SEEDS + 1)));
        assert_eq!(Pattern::longest_in(0), Err(ChainError::Houses(0)));
        assert_eq!(fewest_seeds_needing(MAX_HOUSES + 1), Err(ChainError::Houses(MAX_HOUSES + 1)));
        assert!(Pattern::of_seeds(MAX_SEEDS).is_ok());
    }

    fn position(text: &str, rules: &Rules) -> Position {
        Position::parse(text, rules).unwrap()
    }

    fn numbers(chain: &Chain) -> Vec<u8> {
        chain.moves.iter().map(|m| m.number()).collect()
    }

    #[test]
    fn a_kalah_row_clears_exactly_when_it_is_the_pattern() {
        // Every South row of N seeds on N houses (N ≤ 8), North holding a seed so the game goes on:
        // the chain takes all N seeds exactly for the pattern, in the pattern's moves.
        for seeds in 1..=8u64 {
            let m = seeds as usize;
            let rules = Rules::standard(m as u8, 1).unwrap();
            let mut clearing = Vec::new();
            every_row(seeds, m, &mut |row| {
                let south: Vec<String> = row.iter().map(u64::to_string).collect();
                let text = format!("{}:0/{}:0/S", south.join(","), vec!["1"; m].join(","));
                let chain = longest_chain(&position(&text, &rules), &rules, DEFAULT_POSITION_LIMIT);
                assert!(chain.complete);
                assert!(chain.moves.len() as u64 <= seeds);
                if chain.moves.len() as u64 == seeds {
                    assert!(chain.ends_game, "{text}");
                    clearing.push((row.to_vec(), numbers(&chain)));
                }
            });
            let pattern = Pattern::of_seeds(seeds).unwrap();
            // The notation lists South's houses from the far end: house i from the store is m+1−i.
            let mut row = pattern.houses().to_vec();
            row.resize(m, 0);
            row.reverse();
            let moves: Vec<u8> = pattern.moves().map(|d| (m as u64 + 1 - d) as u8).collect();
            assert_eq!(clearing, [(row, moves)], "{seeds} seeds");
        }
    }

    #[test]
    fn chains_follow_every_variant() {
        let standard = Rules::standard(6, 4).unwrap();
        let start = Position::start(&standard);
        // From the Kalah(6,4) start only house 3 (4 seeds, 4 steps) ends in the store, and then none.
        let chain = longest_chain(&start, &standard, DEFAULT_POSITION_LIMIT);
        assert_eq!(numbers(&chain), [3]);
        assert!(!chain.ends_game && chain.complete);

        // Clockwise, South's house 1 sows North's six houses and then the store: 7 seeds end there.
        let mut clockwise = standard;
        clockwise.direction = Direction::Clockwise;
        let p = position("7,0,0,0,0,0:0/1,1,1,1,1,1:0/S", &clockwise);
        assert_eq!(numbers(&longest_chain(&p, &clockwise, 1000)), [1]);
        assert!(longest_chain(&p, &standard, 1000).moves.is_empty());

        // Relay: house 1 lands on house 2, lifts its 2 seeds and sows on into the store; then house 3.
        let relay = Rules::preset("seed-on", 3, 1).unwrap();
        let p = position("1,1,0:0/1,1,1:0/S", &relay);
        assert_eq!(numbers(&longest_chain(&p, &relay, 1000)), [1, 3]);
        assert!(longest_chain(&p, &Rules::standard(3, 1).unwrap(), 1000).moves.is_empty());

        // North moves with its own numbering; a game that is over has no chain.
        let p = position("1,1,1:0/0,0,1:0/N", &Rules::standard(3, 1).unwrap());
        assert_eq!(numbers(&longest_chain(&p, &Rules::standard(3, 1).unwrap(), 1000)), [3]);
        let over = position("0,0,0:5/1,1,1:0/S", &Rules::standard(3, 1).unwrap());
        assert_eq!(longest_chain(&over, &Rules::standard(3, 1).unwrap(), 1000).moves, []);
        assert_eq!(p.mover(), Side::North);

        // Under mover-stuck the last clearing move ends the game as well; captures never interfere.
        for (end, capture) in [(GameEnd::MoverStuck, Capture::Empty), (GameEnd::EitherSideEmpty, Capture::Never)] {
            let mut rules = Rules::standard(3, 1).unwrap();
            rules.end = end;
            rules.capture = capture;
            let p = position("3,1,1:0/1,1,1:0/S", &rules);
            let chain = longest_chain(&p, &rules, 1000);
            assert_eq!(numbers(&chain), [3, 1, 3, 2, 3]);
            assert!(chain.ends_game);
        }
        assert_eq!(Rules::preset("seed-on", 3, 1).unwrap().sowing, Sowing::Relay);
    }

    #[test]
    fn the_limit_stops_the_search_with_a_real_chain() {
        let rules = Rules::standard(3, 1).unwrap();
        let p = position("3,1,1:0/1,1,1:0/S", &rules);
        let full = longest_chain(&p, &rules, 1000);
        let cut = longest_chain(&p, &rules, 3);
        assert!(full.complete && !cut.complete);
        assert!(cut.positions <= 3);
        // Whatever it found replays as a chain of extra moves.
        let mut at = p;
        for &mv in &cut.moves {
            let (next, outcome) = at.play(&rules, mv).unwrap();
            assert!(outcome.extra_move);
            at = next;
        }
        assert!(cut.moves.len() < full.moves.len());
    }
}
