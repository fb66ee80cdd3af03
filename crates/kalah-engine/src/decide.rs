//! One decision for every player: the action to take in a game, with what it is worth, by a
//! search within a move's limits.
//!
//! The rules of deciding are written here once; what searches may differ: the strong engine
//! ([`Engine`]) for the engine players, the web page, the terminal's hints and the protocols, the
//! course's classic searches for the course's players (any [`Searcher`]). The strength differs,
//! the rules do not:
//!
//! * A move: one search of the position; its best move.
//! * North's pie offer: one search of the position decides both choices, since after a swap the
//!   swapper holds South with North to move, worth minus North's value. North swaps when its
//!   value is below 0 (unless a [`SwapPolicy`] says otherwise).
//! * South's first turn under the pie rule: North will keep a good position and take over a bad
//!   one, so South leaves the offer closest to even. Every position South's first turn can end in
//!   (a sowing, or a chain of them through extra moves) is searched, and the first sowing towards
//!   the one whose value for North is nearest 0 is played.
//! * The handicap opening: North leaves the start worst for South, keeping the board on a tie.
//!
//! Values at odd and even depths swing apart (the side that sows last gains from it), which
//! matters most where values are compared across positions with different players to move:
//! South's pie opening and the handicap decide on the mean of the last two completed depths (a
//! proven value as it is). North's swap compares one value with 0 and decides on the last
//! completed depth, which a measurement against exact values found better (examples/settle.rs). Where several positions are compared, they are searched depth by
//! depth together, so that every value comes from the same depth, within the move's time.

use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use kalah_rules::{Action, Game, Move, Phase, Position, Rules, Side};

use crate::score::Score;
use crate::search::{Engine, Info, MAX_DEPTH};
use crate::stop::Flow;
use crate::time::Limits;

/// What one search of a position found, at the depth it completed: what a decision rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The depth completed, in sowings.
    pub depth: u32,
    /// The value for the side to move, proven or estimated.
    pub score: Score,
    /// The best move (`None` when the game is over).
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

impl From<&Info> for Searched {
    fn from(info: &Info) -> Searched {
        Searched { depth: info.depth, score: info.score, best: info.best, nodes: info.nodes }
    }
}

/// A search that decisions rest on: the strong [`Engine`], or another (the course's classic
/// searches implement it), which then decides by the same rules at its own strength.
pub trait Searcher {
    /// Searches `position` depth by depth within `limits` (the deepest iteration, the time, the
    /// nodes) until `stop` is set, calls `heard` after each completed depth, and returns the
    /// last completed depth's result (at least depth 1's, or a finished game's value). A value
    /// proven before the deepest iteration may end the search there, and so may `heard`'s
    /// answer `ControlFlow::Break(())`.
    fn search(
        &self,
        position: &Position,
        rules: &Rules,
        limits: Limits,
        stop: Option<&AtomicBool>,
        heard: &mut dyn FnMut(&Searched) -> ControlFlow<()>,
    ) -> Searched;
}

impl Searcher for Engine {
    fn search(
        &self,
        position: &Position,
        rules: &Rules,
        limits: Limits,
        stop: Option<&AtomicBool>,
        heard: &mut dyn FnMut(&Searched) -> ControlFlow<()>,
    ) -> Searched {
        let info = Engine::search(self, position, rules, limits, stop, |info| heard(&Searched::from(info)));
        Searched::from(&info)
    }
}

/// The most positions South's first turn is followed to through extra moves; past it, a position
/// where South would sow again is valued as it stands.
const MAX_OFFERS: usize = 256;

/// What a player is asked to decide: the position, its rules, and what the rules allow there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The rules of the game.
    pub rules: Rules,
    /// The position, with the side to move.
    pub position: Position,
    /// What the game waits for, as the rules tell it ([`Game::phase`], [`Phase::at`]).
    pub phase: Phase,
}

impl Turn {
    /// Returns the decision `game` waits for.
    pub fn of(game: &Game) -> Turn {
        Turn { rules: *game.rules(), position: *game.position(), phase: game.phase() }
    }

    /// Returns the turn in `position` known without the game's history ([`Phase::at`]):
    /// `may_swap` on North's first turn under the pie rule.
    pub fn at(rules: Rules, position: Position, may_swap: bool) -> Turn {
        Turn { rules, position, phase: Phase::at(&rules, &position, may_swap) }
    }
}

/// How North answers the pie offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SwapPolicy {
    /// Swap when the position is worth less than 0 to North.
    #[default]
    Auto,
    /// Always swap.
    Always,
    /// Never swap.
    Never,
}

/// Why a decision was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The best move the search found.
    BestMove,
    /// Pie rule: the position is better for South, so North takes it over.
    SwapPays,
    /// Pie rule: the position is not worse for North, so North keeps its side.
    KeepSide,
    /// Pie rule: the swap policy says always swap.
    SwapAlways,
    /// Pie rule: the swap policy says never swap.
    SwapNever,
    /// Pie rule, South's first turn: the offer closest to even for North.
    EvenOffer,
    /// Handicap: the start worst for South.
    Handicap,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::BestMove => "best move",
            Reason::SwapPays => "swap: the position is better for South",
            Reason::KeepSide => "no swap: the position is not worse for North",
            Reason::SwapAlways => "swap (swap policy: always)",
            Reason::SwapNever => "best move (swap policy: never)",
            Reason::EvenOffer => "opening closest to even (pie rule)",
            Reason::Handicap => "handicap: the start worst for South",
        })
    }
}

/// An action chosen, with what it is worth and the search behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The action to take.
    pub action: Action,
    /// What the action is worth to the player who takes it: the final store difference they can
    /// expect as the side they hold after it (after a swap, the side they take over).
    pub score: Score,
    /// The side `score` is for: the side the player who decides holds after the action (South
    /// after a swap).
    pub side: Side,
    /// The depth of the searches the decision rests on, in sowings.
    pub depth: u32,
    /// Nodes searched for the decision.
    pub nodes: u64,
    /// Why this action.
    pub reason: Reason,
}

impl Decision {
    /// Returns what the decision is worth to `side`: the final store difference, `side`'s
    /// minus the other's, that the decision leads to.
    ///
    /// ```
    /// use kalah_engine::decide::{Decision, Reason};
    /// use kalah_engine::score::Score;
    /// use kalah_rules::{Action, Side};
    /// // North swaps: it takes over South, worth +0.70 to it; the position was -0.70 for North.
    /// let swap = Decision { action: Action::Swap, score: Score::estimate(70), side: Side::South, depth: 9, nodes: 0, reason: Reason::SwapPays };
    /// assert_eq!(swap.value_for(Side::North), Score::estimate(-70));
    /// assert_eq!(swap.for_south(), Score::estimate(70));
    /// ```
    pub fn value_for(&self, side: Side) -> Score {
        self.score.for_side(self.side, side)
    }

    /// Returns what the decision is worth to South: its final store difference, South's minus North's.
    pub fn for_south(&self) -> Score {
        self.value_for(Side::South)
    }
}

/// Decides what the player to decide in `game` should do within `limits`, or returns `None`
/// when the game is over. `stop` may end the searches early; the decision then rests on the
/// depths completed.
///
/// ```
/// use kalah_engine::decide::decide;
/// use kalah_engine::search::{Engine, Limits, Options};
/// use kalah_rules::{Action, Game, Phase, Rules};
/// let mut rules = Rules::standard(4, 3).unwrap();
/// rules.pie = true;
/// let mut game = Game::new(rules);
/// while game.phase() == Phase::PieOpening {
///     let sow = game.legal_actions()[0];
///     game.act(sow).unwrap();
/// }
/// let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
/// let decision = decide(&engine, &game, Limits::default(), None).unwrap();
/// assert!(game.legal_actions().contains(&decision.action));
/// assert!(decision.score.is_exact(), "Kalah(4,3) is small enough to solve");
/// ```
pub fn decide<S: Searcher + ?Sized>(
    searcher: &S,
    game: &Game,
    limits: Limits,
    stop: Option<&AtomicBool>,
) -> Option<Decision> {
    decide_turn(searcher, &Turn::of(game), SwapPolicy::Auto, limits, stop, |_| {})
}

/// Decides `turn` as [`decide`] does, answering the pie offer by `swap`, and calls `heard` with a
/// provisional decision after each completed depth (the final decision is the last one heard).
/// `heard` may answer `ControlFlow::Break(())` to decide on what it heard ([`Flow`]; `()` goes on).
pub fn decide_turn<S: Searcher + ?Sized, F: Flow>(
    searcher: &S,
    turn: &Turn,
    swap: SwapPolicy,
    limits: Limits,
    stop: Option<&AtomicBool>,
    mut heard: impl FnMut(&Decision) -> F,
) -> Option<Decision> {
    if turn.position.is_over(&turn.rules) {
        return None;
    }
    match turn.phase {
        Phase::Over => None,
        Phase::Handicap if turn.rules.handicap => Some(handicap(searcher, turn, limits, stop, &mut heard)),
        Phase::PieOffer => offer(searcher, turn, swap, limits, stop, &mut heard),
        Phase::PieOpening => Some(opening(searcher, turn, limits, stop, &mut heard)),
        _ => {
            let side = turn.position.mover();
            let found =
                searcher.search(&turn.position, &turn.rules, limits, stop, &mut |found| match best_move(found, side) {
                    Some(decision) => heard(&decision).flow(),
                    None => ControlFlow::Continue(()),
                });
            best_move(&found, side)
        }
    }
}

/// Returns the decision of `side` (the side to move) to play the search's best move.
fn best_move(found: &Searched, side: Side) -> Option<Decision> {
    let mv = found.best?;
    Some(Decision {
        action: Action::Sow(mv),
        score: found.score,
        side,
        depth: found.depth,
        nodes: found.nodes,
        reason: Reason::BestMove,
    })
}

/// Returns the value to decide on from a position's last completed depth and the one before:
/// the last if proven (or the only one), else the mean of the two.
fn settled(before: Option<Score>, last: Score) -> Score {
    match before {
        Some(before) if !last.is_exact() => Score::estimate((before.hundredths() + last.hundredths()) / 2),
        _ => last,
    }
}

/// North's answer to the pie offer: a swap, or its best move.
fn offer<S: Searcher + ?Sized, F: Flow>(
    searcher: &S,
    turn: &Turn,
    swap: SwapPolicy,
    limits: Limits,
    stop: Option<&AtomicBool>,
    heard: &mut impl FnMut(&Decision) -> F,
) -> Option<Decision> {
    let north = turn.position.mover();
    let choose = |value: Score, found: &Searched| -> Option<Decision> {
        let play = Decision { score: value, ..best_move(found, north)? };
        // The swapper takes over South with North to move: worth minus North's value to it.
        let swapped = Decision { action: Action::Swap, score: -value, side: !north, ..play };
        Some(match swap {
            SwapPolicy::Always => Decision { reason: Reason::SwapAlways, ..swapped },
            SwapPolicy::Never => Decision { reason: Reason::SwapNever, ..play },
            SwapPolicy::Auto if value.hundredths() < 0 => Decision { reason: Reason::SwapPays, ..swapped },
            SwapPolicy::Auto => Decision { reason: Reason::KeepSide, ..play },
        })
    };
    // The last completed depth decides: against the exact values of 3,957 pie offers of small
    // boards it chose wrongly as often as the mean of the last two depths or less at most depths
    // (examples/settle.rs; docs/engine.md).
    let found =
        searcher.search(&turn.position, &turn.rules, limits, stop, &mut |found| match choose(found.score, found) {
            Some(decision) => heard(&decision).flow(),
            None => ControlFlow::Continue(()),
        });
    choose(found.score, &found)
}

/// South's first sowing under the pie rule: towards the offer closest to even for North.
fn opening<S: Searcher + ?Sized, F: Flow>(
    searcher: &S,
    turn: &Turn,
    limits: Limits,
    stop: Option<&AtomicBool>,
    heard: &mut impl FnMut(&Decision) -> F,
) -> Decision {
    let rules = &turn.rules;
    let ends = first_turn_ends(rules, &turn.position);
    let positions: Vec<Position> = ends.iter().map(|(_, p)| *p).collect();
    // The candidates are a sowing deeper than the position itself.
    let depth = limits.depth.map(|d| d.saturating_sub(1).max(1));
    let choose = |for_north: &[Score], depth: u32, nodes: u64| {
        let best =
            (0..for_north.len()).min_by_key(|&i| for_north[i].hundredths().abs()).expect("a first turn has sowings");
        let value = for_north[best];
        Decision {
            action: Action::Sow(ends[best].0),
            // North takes whichever side is better: South is left with minus its size.
            score: Score::new(-value.hundredths().abs(), value.is_exact()),
            side: Side::South,
            depth,
            nodes,
            reason: Reason::EvenOffer,
        }
    };
    compare(searcher, rules, &positions, Side::North, Reach { limits, depth, stop }, choose, heard)
}

/// Returns every position South's first turn from `position` can end in, each with the first
/// sowing towards it: North to move (the pie offer) or the game over. Positions where South would
/// sow again past [`MAX_OFFERS`] end the list as they stand.
fn first_turn_ends(rules: &Rules, position: &Position) -> Vec<(Move, Position)> {
    let mut ends = Vec::new();
    let mut seen = HashSet::new();
    for first in position.legal_moves() {
        let mut stack = vec![position.play_unchecked(rules, first)];
        while let Some(p) = stack.pop() {
            let again = p.mover() == Side::South && !p.is_over(rules);
            if again && ends.len() + stack.len() < MAX_OFFERS {
                stack.extend(p.legal_moves().map(|mv| p.play_unchecked(rules, mv)));
            } else if seen.insert(p) {
                ends.push((first, p));
            }
        }
    }
    ends
}

/// North's handicap decision: the start worst for South (keeping the board on a tie).
fn handicap<S: Searcher + ?Sized, F: Flow>(
    searcher: &S,
    turn: &Turn,
    limits: Limits,
    stop: Option<&AtomicBool>,
    heard: &mut impl FnMut(&Decision) -> F,
) -> Decision {
    let game = Game::from_position(turn.rules, turn.position);
    // Keep comes first among the actions, so the first of equals keeps the board.
    let mut actions = Vec::new();
    let mut positions = Vec::new();
    for action in game.legal_actions() {
        let mut trial = game.clone();
        if trial.act(action).is_ok() {
            actions.push(action);
            positions.push(*trial.position());
        }
    }
    // Many starts to compare, each a short search: half the depth of a move.
    let depth = limits.depth.map(|d| (d / 2).max(1));
    let choose = |for_south: &[Score], depth: u32, nodes: u64| {
        let best = (0..for_south.len()).min_by_key(|&i| for_south[i].hundredths()).expect("keep is always allowed");
        Decision {
            action: actions[best],
            score: -for_south[best],
            side: Side::North,
            depth,
            nodes,
            reason: Reason::Handicap,
        }
    };
    compare(searcher, &turn.rules, &positions, Side::South, Reach { limits, depth, stop }, choose, heard)
}

/// How far candidates are compared: a move's limits (the time and nodes shared by all), the
/// deepest iteration, and the stop flag.
#[derive(Clone, Copy)]
struct Reach<'a> {
    limits: Limits,
    depth: Option<u32>,
    stop: Option<&'a AtomicBool>,
}

/// Searches `positions` depth by depth together within `reach` and returns the decision
/// `choose` makes of their settled values, each seen by `side`, the depth every one of them
/// completed and the nodes searched; `heard` hears the decision of each completed depth, and may
/// answer `ControlFlow::Break(())` to end there.
fn compare<S: Searcher + ?Sized, F: Flow>(
    searcher: &S,
    rules: &Rules,
    positions: &[Position],
    side: Side,
    reach: Reach<'_>,
    choose: impl Fn(&[Score], u32, u64) -> Decision,
    heard: &mut impl FnMut(&Decision) -> F,
) -> Decision {
    let Reach { limits, depth, stop } = reach;
    let started = crate::time::now();
    let budget = limits.budget();
    let max_depth = depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let finished = |p: &Position| Score::exact_seeds(p.final_difference(rules) * p.mover().sign());
    // The scores of the last two completed depths, each for its side to move, and the values
    // settled from them, seen by `side`.
    let mut before: Vec<Option<Score>> = vec![None; positions.len()];
    let mut last: Vec<Score> =
        positions.iter().map(|p| if p.is_over(rules) { finished(p) } else { Score::default() }).collect();
    let seen = |i: usize, value: Score| value.for_side(positions[i].mover(), side);
    let mut values: Vec<Score> = last.iter().enumerate().map(|(i, &v)| seen(i, v)).collect();
    let mut reached = 0;
    let mut nodes = 0;
    for d in 1..=max_depth {
        let mut scores = Vec::with_capacity(positions.len());
        for (i, position) in positions.iter().enumerate() {
            // A proven value (a finished game among them) is final.
            if d > 1 && last[i].is_exact() || position.is_over(rules) {
                scores.push(last[i]);
                continue;
            }
            let mut sub = Limits { depth: Some(d), ..Limits::default() };
            sub.time = budget.map(|b| b.hard_left(started.elapsed()));
            sub.nodes = limits.nodes.map(|n| n.saturating_sub(nodes).max(1));
            let found = searcher.search(position, rules, sub, stop, &mut |_| ControlFlow::Continue(()));
            nodes += found.nodes;
            if found.depth < d && !found.score.is_exact() {
                break;
            }
            scores.push(found.score);
        }
        // Cut off within this depth: the values stay those of the depth before, all alike.
        if scores.len() < positions.len() {
            break;
        }
        for i in 0..positions.len() {
            if d > 1 {
                before[i] = Some(last[i]);
            }
            values[i] = seen(i, settled(before[i], scores[i]));
        }
        last = scores;
        reached = d;
        let told = heard(&choose(&values, reached, nodes)).flow().is_break();
        let all_proven = last.iter().all(|s| s.is_exact());
        let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let out_of_time = budget.is_some_and(|b| !b.may_deepen(started.elapsed()));
        let out_of_nodes = limits.nodes.is_some_and(|n| nodes >= n);
        if all_proven || stopped || out_of_time || out_of_nodes || told {
            break;
        }
    }
    choose(&values, reached, nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;
    use crate::solver::Solver;

    fn engine() -> Engine {
        Engine::new(Options { table_bytes: 1 << 20, ..Options::default() })
    }

    /// Plays South's first turn of `rules` with the sowings of `first` (extra moves included),
    /// up to North's pie offer.
    fn offered(rules: Rules, first: &[u32]) -> Game {
        let mut game = Game::new(rules);
        for &house in first {
            game.act(Action::Sow(Move::from_number(house).unwrap())).unwrap();
        }
        assert_eq!(game.phase(), Phase::PieOffer);
        game
    }

    fn pie(m: u8, n: u8) -> Rules {
        let mut rules = Rules::standard(m, n).unwrap();
        rules.pie = true;
        rules
    }

    #[test]
    fn north_swaps_exactly_when_its_side_is_worse_and_the_value_is_the_swappers() {
        let rules = pie(4, 3);
        let mut swaps = 0;
        for first in 1..=4u32 {
            let mut game = Game::new(rules);
            game.act(Action::Sow(Move::from_number(first).unwrap())).unwrap();
            while game.phase() == Phase::PieOpening {
                game.act(game.legal_actions()[0]).unwrap();
            }
            if game.phase() != Phase::PieOffer {
                continue;
            }
            let for_north = engine().search(game.position(), &rules, Limits::default(), None, |_| {}).score;
            assert!(for_north.is_exact(), "Kalah(4,3) is small enough to prove");
            let decision = decide(&engine(), &game, Limits::default(), None).unwrap();
            assert_eq!(decision.action == Action::Swap, for_north.hundredths() < 0, "{decision:?} after {first}");
            // The swapper takes over South: worth minus North's value to it.
            let expected = if decision.action == Action::Swap { -for_north } else { for_north };
            assert_eq!(decision.score, expected);
            assert_eq!(decision.value_for(Side::North), for_north, "North's value, before its choice");
            assert_eq!(decision.for_south(), -for_north);
            assert!(decision.score.hundredths() >= 0, "North never chooses the worse side");
            swaps += usize::from(decision.action == Action::Swap);
        }
        // Kalah(4,3) is +6 for South: some first turns leave North worse off than swapping.
        assert!(swaps > 0);
    }

    #[test]
    fn a_swap_policy_overrides_the_search() {
        let game = offered(Rules::mkagent(), &[3]);
        let turn = Turn::of(&game);
        assert_eq!(turn, Turn::at(*game.rules(), *game.position(), true));
        let limits = Limits::depth(4);
        let always = decide_turn(&engine(), &turn, SwapPolicy::Always, limits, None, |_| {}).unwrap();
        let never = decide_turn(&engine(), &turn, SwapPolicy::Never, limits, None, |_| {}).unwrap();
        assert_eq!((always.action, always.reason), (Action::Swap, Reason::SwapAlways));
        assert!(matches!(never.action, Action::Sow(_)) && never.reason == Reason::SwapNever);
        assert_eq!(always.score, -never.score, "one value, seen from the two sides");
    }

    #[test]
    fn the_pie_opening_leaves_the_offer_closest_to_even() {
        // Kalah(3,3) with the pie rule, solved: every first turn's offer has an exact value.
        let rules = pie(3, 3);
        let game = Game::new(rules);
        let turn = Turn::of(&game);
        assert_eq!(turn.phase, Phase::PieOpening);
        assert_eq!(turn, Turn::at(rules, *game.position(), false));
        let decision = decide(&engine(), &game, Limits::default(), None).unwrap();
        assert_eq!(decision.reason, Reason::EvenOffer);
        assert_eq!(decision.side, Side::South);
        let solver = Solver::new(Options { table_bytes: 1 << 20, ..Options::default() });
        let ends = first_turn_ends(&rules, game.position());
        let mut closest = i32::MAX;
        for (_, end) in &ends {
            let value = solver.solve(end, &rules, None, Limits::default(), None, |_, _| {}).unwrap().score.hundredths();
            closest = closest.min(value.abs());
        }
        assert_eq!(decision.score, Score::exact(-closest));
        // The sowing chosen can reach an offer that close to even.
        let Action::Sow(first) = decision.action else { panic!("South sows") };
        assert!(ends.iter().any(|(mv, end)| *mv == first
            && solver.solve(end, &rules, None, Limits::default(), None, |_, _| {}).unwrap().score.hundredths().abs()
                == closest));
    }

    #[test]
    fn the_first_turn_is_followed_through_its_extra_moves() {
        // Kalah(4,3): house 2 (3 seeds) ends in the store, so South sows again.
        let rules = pie(4, 3);
        let start = Position::start(&rules);
        let ends = first_turn_ends(&rules, &start);
        assert!(ends.iter().all(|(_, p)| p.mover() == Side::North || p.is_over(&rules)));
        assert!(ends.iter().any(|(mv, _)| mv.number() == 2));
        assert!(ends.len() > start.legal_moves().len(), "the chains after house 2 add offers");
        let distinct: HashSet<_> = ends.iter().map(|(_, p)| *p).collect();
        assert_eq!(distinct.len(), ends.len());
        // After the extra move South's first turn goes on: the decision is still the opening's.
        let mut game = Game::new(rules);
        game.act("2".parse().unwrap()).unwrap();
        assert_eq!(Turn::of(&game).phase, Phase::PieOpening);
        let decision = decide(&engine(), &game, Limits::depth(6), None).unwrap();
        assert_eq!(decision.reason, Reason::EvenOffer);
        // Without the pie rule South just plays its best move.
        let plain = Game::new(Rules::standard(4, 3).unwrap());
        assert_eq!(decide(&engine(), &plain, Limits::depth(6), None).unwrap().reason, Reason::BestMove);
    }

    #[test]
    fn the_handicap_leaves_the_start_worst_for_south() {
        let mut rules = Rules::standard(3, 2).unwrap();
        rules.handicap = true;
        let game = Game::new(rules);
        let decision = decide(&engine(), &game, Limits::default(), None).unwrap();
        assert_eq!(decision.reason, Reason::Handicap);
        assert!(decision.score.is_exact(), "Kalah(3,2) solves outright");
        let mut worst = i32::MAX;
        for action in game.legal_actions() {
            let mut trial = game.clone();
            trial.act(action).unwrap();
            let for_south = engine().search(trial.position(), &rules, Limits::default(), None, |_| {}).score;
            worst = worst.min(for_south.hundredths());
        }
        assert_eq!(decision.score, Score::exact(-worst), "North's value is minus South's");
        assert_eq!((decision.side, decision.for_south()), (Side::North, Score::exact(worst)));
    }

    #[test]
    fn the_handicap_keeps_the_board_on_a_tie() {
        let mut rules = Rules::standard(2, 1).unwrap();
        rules.handicap = true;
        let game = Game::new(rules);
        let decision = decide(&engine(), &game, Limits::depth(2), None).unwrap();
        let kept = {
            let values: Vec<i32> = game
                .legal_actions()
                .iter()
                .map(|&a| {
                    let mut trial = game.clone();
                    trial.act(a).unwrap();
                    engine().search(trial.position(), &rules, Limits::depth(1), None, |_| {}).score.hundredths()
                })
                .collect();
            values.iter().all(|&v| v >= values[0])
        };
        assert_eq!(decision.action == Action::Keep, kept);
    }

    /// A searcher that is the engine under another name, counting its searches.
    struct Counted(Engine, std::cell::Cell<usize>);

    impl Searcher for Counted {
        fn search(
            &self,
            position: &Position,
            rules: &Rules,
            limits: Limits,
            stop: Option<&AtomicBool>,
            heard: &mut dyn FnMut(&Searched) -> ControlFlow<()>,
        ) -> Searched {
            self.1.set(self.1.get() + 1);
            Searcher::search(&self.0, position, rules, limits, stop, heard)
        }
    }

    #[test]
    fn any_searcher_decides_by_the_same_rules() {
        let mut handicap = Rules::standard(3, 2).unwrap();
        handicap.handicap = true;
        for game in [Game::new(pie(3, 3)), offered(pie(4, 3), &[1]), Game::new(handicap), Game::new(Rules::default())] {
            let counted = Counted(engine(), std::cell::Cell::new(0));
            let limits = Limits::depth(4);
            let by_engine = decide(&engine(), &game, limits, None).unwrap();
            let by_other = decide(&counted, &game, limits, None).unwrap();
            assert_eq!(by_other, by_engine, "{:?}", game.phase());
            assert!(counted.1.get() >= 1);
        }
    }

    #[test]
    fn a_provisional_decision_follows_every_depth() {
        let game = Game::new(Rules::default());
        let mut heard = Vec::new();
        let turn = Turn::of(&game);
        let decision =
            decide_turn(&engine(), &turn, SwapPolicy::Auto, Limits::depth(5), None, |d| heard.push(*d)).unwrap();
        assert_eq!(heard.iter().map(|d| d.depth).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
        assert_eq!(heard.last().map(|d| (d.action, d.score)), Some((decision.action, decision.score)));
        // The candidates of a first turn are heard once a depth too.
        let mut heard = Vec::new();
        let opening = Turn::of(&Game::new(Rules::mkagent()));
        let decision = decide_turn(&engine(), &opening, SwapPolicy::Auto, Limits::depth(4), None, |d| heard.push(*d));
        assert_eq!(heard.iter().map(|d| d.depth).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(heard.last().copied(), decision);
    }

    #[test]
    fn a_listener_that_stops_decides_on_what_it_heard() {
        // A move (one search) and South's pie opening (candidates searched together).
        for game in [Game::new(Rules::default()), Game::new(Rules::mkagent())] {
            let mut heard = Vec::new();
            let decision = decide_turn(&engine(), &Turn::of(&game), SwapPolicy::Auto, Limits::default(), None, |d| {
                heard.push(*d);
                if d.depth >= 2 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(heard.iter().map(|d| d.depth).collect::<Vec<_>>(), [1, 2]);
            assert_eq!(heard.last().copied(), decision);
        }
    }

    #[test]
    fn a_stopped_decision_still_answers() {
        let stop = AtomicBool::new(true);
        for game in [Game::new(Rules::default()), Game::new(Rules::mkagent()), offered(Rules::mkagent(), &[3])] {
            let decision = decide(&engine(), &game, Limits::default(), Some(&stop)).unwrap();
            assert!(game.legal_actions().contains(&decision.action));
        }
        let mut rules = Rules::default();
        rules.handicap = true;
        let game = Game::new(rules);
        let decision = decide(&engine(), &game, Limits::default(), Some(&stop)).unwrap();
        assert!(game.legal_actions().contains(&decision.action));
    }

    #[test]
    fn a_finished_game_has_no_decision() {
        let rules = Rules::standard(2, 1).unwrap();
        let over = Position::parse("0,0:2/0,1:1/S", &rules).unwrap();
        assert!(over.is_over(&rules));
        let game = Game::from_position(rules, over);
        assert_eq!(decide(&engine(), &game, Limits::default(), None), None);
        assert_eq!(Turn::at(rules, over, false).phase, Phase::Over);
    }

    #[test]
    fn a_time_limit_gives_a_decision_among_many_candidates() {
        let mut rules = Rules::standard(6, 6).unwrap();
        rules.handicap = true;
        let game = Game::new(rules);
        let decision = decide(&engine(), &game, Limits::time(std::time::Duration::from_millis(50)), None).unwrap();
        assert!(game.legal_actions().contains(&decision.action));
        assert!(decision.depth >= 1);
    }
}
