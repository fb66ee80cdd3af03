//! Fair starts: positions a seed or two away from the rules' start that perfect players draw.
//!
//! Kalah's start favours the first player (Kalah(6,4) with empty captures is +10 for South).
//! FairKalah (Neller, Neller et al., Computers and Games 2022) moves one or two seeds of the
//! standard start, from a house to another house or to a store, and keeps the positions of value
//! 0: 3 with one seed moved, 251 more with two, for Kalah(6,4) with empty captures and the game
//! ending when either side is empty. [`nearby_starts`] lists the candidates and [`judge`] decides
//! each with two null-window proofs of the solver, never a full solve: "is it worth at least +1
//! to South?" and, when not, "at least 0?".

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::AtomicBool;

use kalah_rules::{Position, Rules, Setup, Side};

use crate::score::{Bounds, Seeds};

use crate::search::Limits;
use crate::solver::{Solver, Stopped};

/// Most seeds [`nearby_starts`] moves: three would give hundreds of thousands of candidates on
/// Kalah(6,·), beyond what a solve of each can settle in a day.
pub const MAX_MOVED: u8 = 2;

/// A pit a seed moves from or to: a side's house (numbered from the side's house 1, as moves
/// are) or its store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pit {
    /// A side's house, 1 to m.
    House(Side, u8),
    /// A side's store.
    Store(Side),
}

impl fmt::Display for Pit {
    /// `S3` for South's house 3, `N-store` for North's store: the handicap opening's notation,
    /// with the stores added.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |side: Side| if side == Side::South { 'S' } else { 'N' };
        match *self {
            Pit::House(side, number) => write!(f, "{}{number}", letter(side)),
            Pit::Store(side) => write!(f, "{}-store", letter(side)),
        }
    }
}

/// One seed moved from one pit to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shift {
    /// Where the seed was (always a house: a start's stores are empty).
    pub from: Pit,
    /// Where it is put.
    pub to: Pit,
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}>{}", self.from, self.to)
    }
}

/// A start near the rules' start, and the seeds moved to make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nearby {
    /// The position, South to move.
    pub position: Position,
    /// The fewest seed moves that make it from the start, in the order of the pits.
    pub shifts: Vec<Shift>,
}

/// Asking for more seeds moved than [`nearby_starts`] can list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} seeds moved is too many: fair starts move 1 or {MAX_MOVED} seeds")]
pub struct TooMany(pub u8);

/// Every house and store of a board of `m` houses a side.
fn pits(m: u8) -> Vec<Pit> {
    let mut all = Vec::new();
    for side in Side::BOTH {
        all.extend((1..=m).map(|number| Pit::House(side, number)));
        all.push(Pit::Store(side));
    }
    all
}

/// Returns the cell of `pit` in `setup`.
fn cell(setup: &mut Setup, pit: Pit) -> &mut u16 {
    match pit {
        Pit::House(side, number) => &mut setup.houses[side][usize::from(number) - 1],
        Pit::Store(side) => &mut setup.stores[side],
    }
}

/// Applies `shift` to `setup`, if its source has a seed.
fn apply(setup: &mut Setup, shift: Shift) -> bool {
    let from = cell(setup, shift.from);
    if *from == 0 {
        return false;
    }
    *from -= 1;
    *cell(setup, shift.to) += 1;
    true
}

/// Returns every position made from the rules' start by moving 1 to `moved` seeds, each from a
/// house to another house or to a store, South to move; each once (with the fewest moves that
/// make it), in a fixed order (by seeds moved, then by the pits), the start itself left out.
///
/// ```
/// use kalah_engine::fairness::nearby_starts;
/// use kalah_rules::Rules;
/// let rules = Rules::standard(6, 4).unwrap();
/// // One seed: 12 houses to give it, 13 other pits to take it.
/// assert_eq!(nearby_starts(&rules, 1).unwrap().len(), 12 * 13);
/// let two = nearby_starts(&rules, 2).unwrap();
/// assert_eq!(two[0].shifts.len(), 1);
/// assert_eq!(two.last().unwrap().shifts.len(), 2);
/// ```
///
/// # Errors
/// [`TooMany`] for more than [`MAX_MOVED`] seeds.
pub fn nearby_starts(rules: &Rules, moved: u8) -> Result<Vec<Nearby>, TooMany> {
    if moved > MAX_MOVED {
        return Err(TooMany(moved));
    }
    let start = Setup::from(Position::start(rules));
    let all = pits(rules.houses());
    let sources: Vec<Pit> = all.iter().copied().filter(|p| matches!(p, Pit::House(..))).collect();
    let shifts: Vec<Shift> = sources
        .iter()
        .flat_map(|&from| all.iter().filter(move |&&to| to != from).map(move |&to| Shift { from, to }))
        .collect();
    let mut seen = HashSet::new();
    seen.insert(start.clone());
    let mut found = Vec::new();
    // Breadth first: a position is listed with the fewest moves that make it.
    let mut layer = vec![(start, Vec::new())];
    for _ in 0..moved {
        let mut next = Vec::new();
        for (setup, done) in &layer {
            for &shift in &shifts {
                // Each set of moves once: in the order of the list.
                if done.last().is_some_and(|last: &Shift| *last > shift) {
                    continue;
                }
                let mut moved = setup.clone();
                if !apply(&mut moved, shift) || !seen.insert(moved.clone()) {
                    continue;
                }
                let mut shifts = done.clone();
                shifts.push(shift);
                next.push((moved, shifts));
            }
        }
        for (setup, shifts) in &next {
            let position = Position::from_setup(setup.clone(), rules).expect("the start's seeds, moved");
            found.push(Nearby { position, shifts: shifts.clone() });
        }
        layer = next;
    }
    Ok(found)
}

/// What perfect play makes of a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Perfect players draw: the value is 0.
    Fair,
    /// The side wins with perfect play, by at least this many seeds.
    Favours(Side, Seeds),
}

/// A start judged: the verdict, the bounds proven (for South) and the nodes searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// Fair, or whom it favours.
    pub verdict: Verdict,
    /// The bounds on the value for the side to move that the proofs gave.
    pub bounds: Bounds,
    /// Nodes searched.
    pub nodes: u64,
}

/// Decides whether `position` is fair (value 0) with at most two null-window proofs of
/// `solver`: whether it is worth at least +1 to the side to move and, when it is not, at least 0.
///
/// # Errors
/// As [`Solver::bound`]: stopped by `stop` or `limits`, with the bounds proven so far.
pub fn judge(
    solver: &Solver,
    position: &Position,
    rules: &Rules,
    limits: Limits,
    stop: Option<&AtomicBool>,
) -> Result<Judged, Stopped> {
    let mover = position.mover();
    let (info, bounds) = solver.bound(position, rules, None, Seeds(1), limits, stop)?;
    let mut nodes = info.nodes;
    if bounds.lower >= Seeds(1) {
        return Ok(Judged { verdict: Verdict::Favours(mover, bounds.lower), bounds, nodes });
    }
    let (info, bounds) = solver
        .bound(position, rules, Some(bounds), Seeds(0), limits, stop)
        .map_err(|stopped| Stopped { nodes: nodes + stopped.nodes, ..stopped })?;
    nodes += info.nodes;
    let verdict = if bounds.lower >= Seeds(0) {
        Verdict::Fair
    } else {
        Verdict::Favours(mover.opponent(), Seeds(-bounds.upper.0))
    };
    Ok(Judged { verdict, bounds, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;
    use kalah_rules::Capture;

    fn solver() -> Solver {
        Solver::new(Options { table_bytes: 8 << 20, ..Options::default() })
    }

    #[test]
    fn nearby_starts_are_each_listed_once_with_their_fewest_moves() {
        let rules = Rules::standard(3, 2).unwrap();
        let start = Position::start(&rules);
        let one = nearby_starts(&rules, 1).unwrap();
        let two = nearby_starts(&rules, 2).unwrap();
        assert_eq!(one.len(), 6 * 7);
        assert_eq!(two[..one.len()], one[..], "the one-seed starts come first, in the same order");
        let mut seen = HashSet::new();
        for nearby in &two {
            assert!(seen.insert(nearby.position), "{} twice", nearby.position);
            assert_ne!(nearby.position, start);
            assert_eq!(nearby.position.total_seeds(), start.total_seeds());
            assert_eq!(nearby.position.mover(), Side::South);
            // Remaking it from the start with its shifts gives it back.
            let mut setup = Setup::from(start);
            assert!(nearby.shifts.iter().all(|&shift| apply(&mut setup, shift)));
            assert_eq!(Position::from_setup(setup, &rules).unwrap(), nearby.position);
        }
        // Two seeds out of the same house to the same store, and two to two places: both there.
        let shown: Vec<String> =
            two.iter().map(|n| n.shifts.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")).collect();
        assert!(shown.contains(&"S1>N-store S1>N-store".to_string()), "{shown:?}");
        assert!(shown.contains(&"S1>S2 N3>S-store".to_string()), "{shown:?}");
        assert_eq!(nearby_starts(&rules, 3), Err(TooMany(3)));
    }

    #[test]
    fn the_verdicts_agree_with_full_solves() {
        for (m, n, capture, moved) in
            [(3, 2, Capture::Standard, 2), (3, 3, Capture::Empty, 2), (4, 2, Capture::Empty, 1)]
        {
            // A solver's tables hold one rule set's proofs: a new solver for new rules.
            let solver = solver();
            let mut rules = Rules::standard(m, n).unwrap();
            rules.capture = capture;
            let (mut fair, mut all) = (0, 0);
            for nearby in nearby_starts(&rules, moved).unwrap() {
                let p = nearby.position;
                let judged = judge(&solver, &p, &rules, Limits::default(), None).unwrap();
                let value =
                    solver.solve(&p, &rules, None, Limits::default(), None, |_, _| {}).unwrap().score.whole_seeds();
                let expected = match value.0 {
                    0 => Verdict::Fair,
                    v if v > 0 => Verdict::Favours(Side::South, judged.bounds.lower),
                    _ => Verdict::Favours(Side::North, Seeds(-judged.bounds.upper.0)),
                };
                assert_eq!(judged.verdict, expected, "{rules}, {p}: value {value:?}, bounds {:?}", judged.bounds);
                match judged.verdict {
                    Verdict::Fair => fair += 1,
                    Verdict::Favours(Side::South, by) => assert!(by.0 >= 1 && by.0 <= value.0, "{p}"),
                    Verdict::Favours(Side::North, by) => assert!(by.0 >= 1 && -by.0 >= value.0, "{p}"),
                }
                all += 1;
            }
            assert!(all > 0 && fair < all, "{rules}: {fair} fair of {all}");
        }
    }
}
