//! One engine for one rule set: what a host holds for a game (a page's worker, a server's game,
//! a bot, a Python object, a command) and asks for moves, hints, the analysis beside the board
//! and solves.
//!
//! The search's table is keyed by position alone, and the same position has other values under
//! other rules: a table that searched one rule set's positions gives wrong answers for another's.
//! A [`GameEngine`] is bound to its rules when it is made. Its searches take a position and no
//! rules (they are always its own), and what takes a game or a turn, which carry their rules, is
//! refused with [`OtherRules`] when they are not its own. A game under other rules needs another
//! engine: [`GameEngine::new`], or [`GameEngine::renew`], which keeps the table's memory and
//! empties it. So no host keeps its own note of which rules its table holds.
//!
//! The policies are written here once: a move and a hint are [`crate::decide`]'s decision, and
//! the analysis is that decision while North decides the pie offer or the handicap, else a search
//! of the position ([`GameEngine::analyse`]).

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use kalah_rules::{Game, Phase, Position, Rules, Side};

use crate::decide::{self, Decision, SwapPolicy, Turn};
use crate::score::Bounds;
use crate::search::{Engine, Info, Options, Oracle};
use crate::solver::{Solver, Stopped};
use crate::stop::Flow;
use crate::time::Limits;

/// A game, a turn or a position of other rules than the engine's: its table would answer wrongly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("an engine for {own} was asked about a game of {asked}: a game under other rules needs an engine of its own")]
pub struct OtherRules {
    /// The rules the engine was made for.
    pub own: Rules,
    /// The rules of what it was asked about.
    pub asked: Rules,
}

/// What the analysis beside the board found ([`GameEngine::analyse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysed {
    /// North decides the pie offer or the handicap opening: its decision, which is not a search of
    /// the position alone.
    Decided {
        /// The side that decides (North).
        side: Side,
        /// The decision.
        decision: Decision,
        /// The time the decision took.
        elapsed: Duration,
    },
    /// Any other turn: a search of the position.
    Searched {
        /// The side that decides: the side to move.
        side: Side,
        /// The search's last completed depth.
        info: Info,
    },
}

/// The strong engine bound to one rule set: its table, its endgame database and its settings.
///
/// ```
/// use kalah_engine::search::{Limits, Options};
/// use kalah_engine::GameEngine;
/// use kalah_rules::{Game, Position, Rules};
/// let rules = Rules::standard(4, 3).unwrap();
/// let engine = GameEngine::new(rules, Options::default());
/// let info = engine.search(&Position::start(&rules), Limits::default(), None, |_| {});
/// assert_eq!(info.score.hundredths(), 6 * 100); // Kalah(4,3) is +6 for South (tests/data/values.txt)
/// // A game of other rules is refused, never answered from this table.
/// let other = Game::new(Rules::standard(4, 4).unwrap());
/// assert!(engine.decide(&other, Limits::depth(3), None).is_err());
/// ```
pub struct GameEngine {
    rules: Rules,
    engine: Engine,
}

impl GameEngine {
    /// Returns an engine for games under `rules` with an empty table of `options`; its database
    /// (`options.oracle`) must be one of `rules`
    /// ([`crate::databases::Attached::engine_oracle`] attaches one).
    pub fn new(rules: Rules, options: Options) -> GameEngine {
        GameEngine { rules, engine: Engine::new(options) }
    }

    /// Binds the engine to `rules` with the database `oracle` (one of `rules`, or none), its
    /// table emptied: a game under other rules without allocating a new table.
    pub fn renew(&mut self, rules: Rules, oracle: Option<Arc<dyn Oracle>>) {
        // Emptied even for the same rules: the caller starts a game afresh.
        self.engine.clear();
        self.engine.set_oracle(oracle);
        self.rules = rules;
    }

    /// Returns the rules this engine plays.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Returns the settings: the table's size, the threads, the weights and the database.
    pub fn options(&self) -> &Options {
        self.engine.options()
    }

    /// Empties the table (a clean start within the same rules).
    pub fn clear(&self) {
        self.engine.clear();
    }

    /// Returns `Ok` when `rules` are this engine's, else what they are.
    ///
    /// # Errors
    ///
    /// [`OtherRules`] when `rules` are not the engine's own.
    pub fn check(&self, rules: &Rules) -> Result<(), OtherRules> {
        if *rules == self.rules {
            Ok(())
        } else {
            Err(OtherRules { own: self.rules, asked: *rules })
        }
    }

    /// Searches `position`, under the engine's rules, within `limits` as [`Engine::search`] does,
    /// calling `on_iteration` after each completed depth.
    pub fn search<F: Flow>(
        &self,
        position: &Position,
        limits: Limits,
        stop: Option<&AtomicBool>,
        on_iteration: impl FnMut(&Info) -> F,
    ) -> Info {
        self.engine.search(position, &self.rules, limits, stop, on_iteration)
    }

    /// Decides what the player to decide in `game` does within `limits` ([`decide::decide`]): an
    /// engine's move, or a hint for a person. `None` once the game is over.
    ///
    /// # Errors
    ///
    /// [`OtherRules`] when `game` is not played under the engine's rules.
    pub fn decide(
        &self,
        game: &Game,
        limits: Limits,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Decision>, OtherRules> {
        self.decide_turn(&Turn::of(game), SwapPolicy::Auto, limits, stop, |_| {})
    }

    /// Decides `turn` as [`decide::decide_turn`] does: North answers the pie offer by `swap`, and
    /// `heard` hears a provisional decision after each completed depth.
    ///
    /// # Errors
    ///
    /// [`OtherRules`] when `turn` is not under the engine's rules.
    pub fn decide_turn<F: Flow>(
        &self,
        turn: &Turn,
        swap: SwapPolicy,
        limits: Limits,
        stop: Option<&AtomicBool>,
        heard: impl FnMut(&Decision) -> F,
    ) -> Result<Option<Decision>, OtherRules> {
        self.check(&turn.rules)?;
        Ok(decide::decide_turn(&self.engine, turn, swap, limits, stop, heard))
    }

    /// Analyses `game` for the evaluation beside the board: while North decides the pie offer or
    /// the handicap opening its decision (the value of the position alone is not what North
    /// chooses by), else a search of the position. `None` once the game is over.
    ///
    /// # Errors
    ///
    /// [`OtherRules`] when `game` is not played under the engine's rules.
    pub fn analyse(
        &self,
        game: &Game,
        limits: Limits,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Analysed>, OtherRules> {
        self.check(game.rules())?;
        let started = crate::time::now();
        let Some(side) = game.decider() else { return Ok(None) };
        if matches!(game.phase(), Phase::Handicap | Phase::PieOffer) {
            if let Some(decision) = decide::decide(&self.engine, game, limits, stop) {
                return Ok(Some(Analysed::Decided { side, decision, elapsed: started.elapsed() }));
            }
        }
        let info = self.search(game.position(), limits, stop, |_| ControlFlow::<()>::Continue(()));
        Ok(Some(Analysed::Searched { side, info }))
    }

    /// Solves `position` under the engine's rules exactly, as [`Solver::solve`] does, on fresh
    /// tables of the engine's size with its threads and database; the search's table is not
    /// touched. `on_bound` hears the bounds (for the side to move) as they close in.
    ///
    /// # Errors
    ///
    /// [`Stopped`] when `stop`, the limits or `on_bound` end the solve first: the bounds proven.
    pub fn solve<F: Flow>(
        &self,
        position: &Position,
        limits: Limits,
        stop: Option<&AtomicBool>,
        on_bound: impl FnMut(Bounds, u64) -> F,
    ) -> Result<Info, Stopped> {
        Solver::new(self.options().clone()).solve(position, &self.rules, None, limits, stop, on_bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Action;

    fn options() -> Options {
        Options { table_bytes: 1 << 20, ..Options::default() }
    }

    /// Kalah(4,3) under standard rules and with captures of empty houses: the same start, other
    /// values.
    fn two_rules() -> (Rules, Rules) {
        let standard = Rules::standard(4, 3).unwrap();
        let empty: Rules = "kalah(4,3) empty-capture".parse().unwrap();
        assert_eq!(Position::start(&standard), Position::start(&empty));
        (standard, empty)
    }

    #[test]
    fn a_table_of_other_rules_answers_wrongly_and_the_bound_engine_never_asks_it() {
        let (standard, empty) = two_rules();
        let start = Position::start(&standard);
        let fresh = |rules: &Rules| Engine::new(options()).search(&start, rules, Limits::default(), None, |_| {}).score;
        let (for_standard, for_empty) = (fresh(&standard), fresh(&empty));
        assert!(for_standard.is_exact() && for_empty.is_exact());
        assert_ne!(for_standard, for_empty, "the two rule sets value the start differently");
        // What the hosts guarded against: an engine of one rule set asked about another's answers
        // from its table, here the standard value as if proven, three sowings deep.
        let shared = Engine::new(options());
        shared.search(&start, &standard, Limits::default(), None, |_| {});
        let stale = shared.search(&start, &empty, Limits::depth(3), None, |_| {}).score;
        assert_eq!(stale, for_standard, "the old table's value, not the empty-capture rules'");
        // The bound engine refuses the other rules' game, turn and analysis.
        let engine = GameEngine::new(standard, options());
        assert_eq!(engine.search(&start, Limits::default(), None, |_| {}).score, for_standard);
        let refused = OtherRules { own: standard, asked: empty };
        let game = Game::new(empty);
        assert_eq!(engine.decide(&game, Limits::depth(1), None), Err(refused));
        assert_eq!(engine.analyse(&game, Limits::depth(1), None), Err(refused));
        let turn = Turn::of(&game);
        assert_eq!(engine.decide_turn(&turn, SwapPolicy::Auto, Limits::depth(1), None, |_| {}), Err(refused));
        assert!(refused.to_string().contains("needs an engine of its own"), "{refused}");
        // Renewed for the empty-capture rules, it starts from an empty table: the shallow search is its own.
        let mut engine = engine;
        engine.renew(empty, None);
        assert_eq!(engine.rules(), &empty);
        let shallow = engine.search(&start, Limits::depth(3), None, |_| {}).score;
        assert_ne!(shallow, for_standard);
        assert_eq!(shallow, Engine::new(options()).search(&start, &empty, Limits::depth(3), None, |_| {}).score);
        assert_eq!(engine.search(&start, Limits::default(), None, |_| {}).score, for_empty);
    }

    #[test]
    fn the_analysis_is_north_s_decision_on_the_pie_offer_else_a_search() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let engine = GameEngine::new(rules, options());
        let mut game = Game::new(rules);
        let limits = Limits::depth(4);
        let Some(Analysed::Searched { side: Side::South, info }) = engine.analyse(&game, limits, None).unwrap() else {
            panic!("South's first turn is searched")
        };
        assert_eq!(info.depth, 4);
        while game.phase() != Phase::PieOffer {
            game.act(game.legal_actions()[0]).unwrap();
        }
        let Some(Analysed::Decided { side: Side::North, decision, .. }) = engine.analyse(&game, limits, None).unwrap()
        else {
            panic!("North's pie offer is decided")
        };
        let decided = engine.decide(&game, limits, None).unwrap().unwrap();
        assert_eq!((decision.action, decision.score, decision.reason), (decided.action, decided.score, decided.reason));
        assert!(matches!(decision.action, Action::Swap | Action::Sow(_)));
    }

    #[test]
    fn a_finished_game_has_no_analysis_and_a_solve_is_exact() {
        let rules = Rules::standard(2, 1).unwrap();
        let engine = GameEngine::new(rules, options());
        let over = Game::from_position(rules, Position::parse("0,0:2/0,1:1/S", &rules).unwrap());
        assert_eq!(engine.analyse(&over, Limits::depth(2), None), Ok(None));
        assert_eq!(engine.decide(&over, Limits::depth(2), None), Ok(None));
        let start = Position::start(&rules);
        let solved = engine.solve(&start, Limits::default(), None, |_, _| {}).unwrap();
        assert!(solved.score.is_exact());
        assert_eq!(solved.score, engine.search(&start, Limits::default(), None, |_| {}).score);
    }
}
