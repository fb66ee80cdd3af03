//! A game in progress: its rules, start, actions and positions, with the pie rule and the handicap opening.

use std::fmt;
use std::str::FromStr;

use crate::error::PlayError;
use crate::position::{Move, Outcome, Position};
use crate::rules::Rules;
use crate::side::{ByPlayer, Side};

/// A house named by its side and 0-based index (written `S3`, `N1`: side letter and house number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HouseRef {
    /// The side the house is on.
    pub side: Side,
    /// The 0-based house index from that side's house 1.
    pub index: u8,
}

impl fmt::Display for HouseRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.side.letter(), self.index + 1)
    }
}

/// One thing a player does in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Sow one of the mover's houses.
    Sow(Move),
    /// Pie rule: the second player takes over the first player's side instead of moving.
    Swap,
    /// Handicap opening: the second player moves one seed from one house to another before play.
    Handicap {
        /// The house the seed is taken from.
        from: HouseRef,
        /// The house the seed is put into.
        to: HouseRef,
    },
    /// Handicap opening: the second player leaves the board as it is.
    Keep,
}

impl fmt::Display for Action {
    /// Writes the action as records write it: a house number, `swap`, `S3>N2` or `keep`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Sow(mv) => write!(f, "{mv}"),
            Action::Swap => f.write_str("swap"),
            Action::Handicap { from, to } => write!(f, "{from}>{to}"),
            Action::Keep => f.write_str("keep"),
        }
    }
}

/// An action text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The text is not an action.
    #[error("cannot read the move {0:?}: write a house number from 1 to 12, swap, keep, or a handicap like S3>N2")]
    Syntax(String),
    /// A house number that is not on the game's board ([`Game::parse_action`]).
    #[error("there is no house {house}: houses are numbered 1 to {houses}")]
    NoSuchHouse {
        /// The house number given.
        house: u64,
        /// The number of houses a side.
        houses: u8,
    },
}

/// Reads a house number written as `Display` writes numbers: decimal digits with no sign and no
/// leading zero (`03`, `+3` and ` 3` are not house numbers).
fn house_number(text: &str) -> Option<u64> {
    let canonical =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().unwrap_or(u64::MAX))
}

impl FromStr for Action {
    type Err = ActionError;

    /// Reads a house number from 1 to 12, `swap`, `keep` or a handicap move such as `S3>N2`,
    /// exactly as [`Action`]'s `Display` writes them: no spaces around, no sign, no leading zero.
    fn from_str(text: &str) -> Result<Action, ActionError> {
        let bad = || ActionError::Syntax(text.to_string());
        let house = |t: &str| -> Result<HouseRef, ActionError> {
            let side = match t.chars().next() {
                Some('S' | 's') => Side::South,
                Some('N' | 'n') => Side::North,
                _ => return Err(bad()),
            };
            let number = house_number(&t[1..]).ok_or_else(bad)?;
            let mv = Move::from_number(u32::try_from(number).map_err(|_| bad())?).ok_or_else(bad)?;
            Ok(HouseRef { side, index: mv.index() as u8 })
        };
        match text {
            "swap" => Ok(Action::Swap),
            "keep" => Ok(Action::Keep),
            t => match t.split_once('>') {
                Some((from, to)) => Ok(Action::Handicap { from: house(from)?, to: house(to)? }),
                None => {
                    let number = house_number(t).ok_or_else(bad)?;
                    Move::from_number(u32::try_from(number).map_err(|_| bad())?).map(Action::Sow).ok_or_else(bad)
                }
            },
        }
    }
}

/// A seat at the board: the first player, who starts as South, or the second, who starts as
/// North and decides the pie-rule swap and the handicap opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The first player, South until a swap.
    First,
    /// The second player, North until a swap.
    Second,
}

impl Seat {
    /// Both seats, the first first.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// Returns 0 for the first seat and 1 for the second, to index a pair of players.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Returns the seat that plays `side` before any swap (`swapped` false) or after one.
    pub fn playing(side: Side, swapped: bool) -> Seat {
        if (side == Side::North) != swapped {
            Seat::Second
        } else {
            Seat::First
        }
    }
}

/// What the game waits for next.
///
/// The rules say here, once, which phase a game is in: [`Game::phase`] from the game's actions,
/// [`Phase::at`] from a position alone where no history is known (a protocol's board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The second player decides on the handicap opening: a handicap move or `keep`.
    Handicap,
    /// South's first turn under the pie rule (extra moves included): South sows, and North may
    /// then take over whatever position South leaves.
    PieOpening,
    /// The second player may swap sides (pie rule) or sow as usual.
    PieOffer,
    /// The player to move sows.
    Play,
    /// The game is over.
    Over,
}

impl Phase {
    /// Returns the phase of a game known only by its position: over, North's pie offer when
    /// `may_swap` (a protocol says so), South's pie opening when the position is the start's
    /// layout with South to move ([`Rules::is_first_move`]), else play. Without the history a
    /// first turn that goes on after an extra move reads as play, and the handicap is never
    /// pending.
    ///
    /// ```
    /// use kalah_rules::{Move, Phase, Position, Rules};
    /// let mut rules = Rules::standard(6, 4).unwrap();
    /// rules.pie = true;
    /// let start = Position::start(&rules);
    /// assert_eq!(Phase::at(&rules, &start, false), Phase::PieOpening);
    /// let (after, _) = start.play(&rules, Move::from_number(1).unwrap()).unwrap();
    /// assert_eq!(Phase::at(&rules, &after, true), Phase::PieOffer);
    /// assert_eq!(Phase::at(&rules, &after, false), Phase::Play);
    /// ```
    pub fn at(rules: &Rules, position: &Position, may_swap: bool) -> Phase {
        if position.is_over(rules) {
            Phase::Over
        } else if may_swap {
            Phase::PieOffer
        } else if rules.pie && rules.is_first_move(position) {
            Phase::PieOpening
        } else {
            Phase::Play
        }
    }

    /// Tells whether the player to decide sows (or, on the pie offer, may sow): every phase but
    /// the handicap and the end.
    pub fn sows(self) -> bool {
        matches!(self, Phase::PieOpening | Phase::PieOffer | Phase::Play)
    }
}

/// A game: the rules, the start position, and every action with the position after it.
///
/// ```
/// use kalah_rules::{Action, Game, Move, Phase, Rules};
/// let mut rules = Rules::standard(6, 4).unwrap();
/// rules.pie = true;
/// let mut game = Game::new(rules);
/// game.act(Action::Sow(Move::from_number(1).unwrap())).unwrap();
/// assert_eq!(game.phase(), Phase::PieOffer);
/// game.act(Action::Swap).unwrap();
/// assert!(game.swapped());
/// game.undo();
/// assert!(!game.swapped());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    actions: Vec<Action>,
    outcomes: Vec<Option<Outcome>>,
}

impl Game {
    /// Starts a game from the rules' start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, Position::start(&rules))
    }

    /// Starts a game from a given position (checked against the rules by the caller, see [`Position::parse`]).
    pub fn from_position(rules: Rules, start: Position) -> Game {
        Game { rules, positions: vec![start], actions: Vec::new(), outcomes: Vec::new() }
    }

    /// Returns the rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Returns the start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Returns the current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has its start")
    }

    /// Returns the actions so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Returns every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Returns what the last sowing did, if the last action was a sowing.
    pub fn last_outcome(&self) -> Option<Outcome> {
        self.outcomes.last().copied().flatten()
    }

    /// Tells whether the players have swapped sides under the pie rule.
    pub fn swapped(&self) -> bool {
        self.actions.contains(&Action::Swap)
    }

    /// Returns the side the first player (who started as South) plays now.
    pub fn first_player_side(&self) -> Side {
        if self.swapped() {
            Side::North
        } else {
            Side::South
        }
    }

    /// Returns the seat that plays `side` now: after a pie-rule swap the first player plays North.
    pub fn seat_of(&self, side: Side) -> Seat {
        Seat::playing(side, self.swapped())
    }

    /// Returns the side whose player decides now, or `None` once the game is over.
    ///
    /// That is the player to move, except that the handicap opening is the second player's
    /// decision (North's, as nobody has swapped yet).
    ///
    /// ```
    /// use kalah_rules::{Game, Rules, Seat, Side};
    /// let mut rules = Rules::standard(4, 3).unwrap();
    /// rules.pie = true;
    /// let mut game = Game::new(rules);
    /// game.act("1".parse().unwrap()).unwrap();
    /// assert_eq!(game.decider(), Some(Side::North));
    /// game.act("swap".parse().unwrap()).unwrap();
    /// // North is still to move, now with the first player in North's seat.
    /// assert_eq!(game.decider(), Some(Side::North));
    /// assert_eq!(game.seat_of(Side::North), Seat::First);
    /// assert_eq!(game.actor(1), Some((Side::North, Seat::Second)), "the second player swapped");
    /// ```
    pub fn decider(&self) -> Option<Side> {
        match self.phase() {
            Phase::Over => None,
            Phase::Handicap => Some(Side::North),
            Phase::PieOpening | Phase::PieOffer | Phase::Play => Some(self.position().mover()),
        }
    }

    /// Returns the side that took action number `i` (from 0) and the seat of the player who took
    /// it, or `None` past the last action.
    pub fn actor(&self, i: usize) -> Option<(Side, Seat)> {
        let action = *self.actions.get(i)?;
        let side = match action {
            Action::Sow(_) => self.positions[i].mover(),
            // Swaps and handicap decisions are the second player's, North until a swap.
            Action::Swap | Action::Keep | Action::Handicap { .. } => Side::North,
        };
        let swapped_before = self.actions[..i].contains(&Action::Swap);
        Some((side, Seat::playing(side, swapped_before)))
    }

    /// Reads an action typed for this game, in any letter case but otherwise exactly as actions are
    /// written (no spaces around, no sign or leading zero): a house number of this board,
    /// `swap`, `keep` or a handicap move such as `S3>N2`. Whether the action is allowed now is
    /// [`Game::act`]'s to say.
    ///
    /// ```
    /// use kalah_rules::game::ActionError;
    /// use kalah_rules::{Action, Game, Move, Rules};
    /// let game = Game::new(Rules::standard(4, 3).unwrap());
    /// assert_eq!(game.parse_action("3"), Ok(Action::Sow(Move::from_number(3).unwrap())));
    /// assert_eq!(game.parse_action("SWAP"), Ok(Action::Swap));
    /// assert_eq!(game.parse_action("7"), Err(ActionError::NoSuchHouse { house: 7, houses: 4 }));
    /// assert_eq!(game.parse_action("S5>N1"), Err(ActionError::NoSuchHouse { house: 5, houses: 4 }));
    /// assert!(matches!(game.parse_action("sow"), Err(ActionError::Syntax(_))));
    /// ```
    pub fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let houses = self.rules.houses();
        let no_such = |house: u64| ActionError::NoSuchHouse { house, houses };
        if let Some(house) = house_number(text) {
            if !(1..=u64::from(houses)).contains(&house) {
                return Err(no_such(house));
            }
        }
        let action: Action = text.to_ascii_lowercase().parse().map_err(|_| ActionError::Syntax(text.to_string()))?;
        if let Action::Handicap { from, to } = action {
            if let Some(far) = [from, to].into_iter().find(|h| h.index >= houses) {
                return Err(no_such(u64::from(far.index) + 1));
            }
        }
        Ok(action)
    }

    /// Returns what the game waits for.
    pub fn phase(&self) -> Phase {
        let position = self.position();
        if position.is_over(&self.rules) {
            return Phase::Over;
        }
        if self.rules.handicap && self.actions.is_empty() {
            return Phase::Handicap;
        }
        if !self.rules.pie || self.swapped() {
            return Phase::Play;
        }
        // The pie rule's first turns: South's until North has sown, then North's offer, which
        // stands only on the second player's first turn, before North has sown.
        let mut sowers = self.positions.iter().zip(&self.actions).filter_map(|(p, a)| match a {
            Action::Sow(_) => Some(p.mover()),
            _ => None,
        });
        let north_sowed = sowers.clone().any(|s| s == Side::North);
        match position.mover() {
            Side::South if !north_sowed => Phase::PieOpening,
            Side::North if !north_sowed && sowers.next().is_some() => Phase::PieOffer,
            _ => Phase::Play,
        }
    }

    /// Tells whether the game is over.
    pub fn is_over(&self) -> bool {
        self.phase() == Phase::Over
    }

    /// Returns the final stores once the game is over.
    pub fn result(&self) -> Option<ByPlayer<u16>> {
        self.is_over().then(|| self.position().final_stores(&self.rules))
    }

    /// Returns every action allowed now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let position = self.position();
        match self.phase() {
            Phase::Over => Vec::new(),
            Phase::Handicap => {
                let mut actions = vec![Action::Keep];
                let houses = self.all_houses();
                for &from in &houses {
                    if position.house(from.side, from.index.into()) == 0 {
                        continue;
                    }
                    actions.extend(houses.iter().filter(|&&to| to != from).map(|&to| Action::Handicap { from, to }));
                }
                actions
            }
            Phase::PieOffer => std::iter::once(Action::Swap).chain(position.legal_moves().map(Action::Sow)).collect(),
            Phase::PieOpening | Phase::Play => position.legal_moves().map(Action::Sow).collect(),
        }
    }

    fn all_houses(&self) -> Vec<HouseRef> {
        Side::BOTH
            .iter()
            .flat_map(|&side| (0..self.rules.houses()).map(move |index| HouseRef { side, index }))
            .collect()
    }

    /// Plays an action after checking it; on an error the game is unchanged.
    pub fn act(&mut self, action: Action) -> Result<Option<Outcome>, PlayError> {
        let position = *self.position();
        let phase = self.phase();
        let (next, outcome) = match (phase, action) {
            (Phase::Over, _) => return Err(PlayError::GameOver),
            (Phase::Handicap, Action::Keep) => (position, None),
            (Phase::Handicap, Action::Handicap { from, to }) => {
                let m = self.rules.houses();
                if from == to || from.index >= m || to.index >= m || position.house(from.side, from.index.into()) == 0 {
                    return Err(PlayError::BadHandicap);
                }
                (position.moved_seed(from, to), None)
            }
            (Phase::Handicap, _) => return Err(PlayError::DecisionPending("a handicap move like S3>N2, or keep")),
            (_, Action::Handicap { .. } | Action::Keep) => return Err(PlayError::HandicapNotAllowed),
            (Phase::PieOffer, Action::Swap) => (position, None),
            (_, Action::Swap) => return Err(PlayError::SwapNotAllowed),
            (_, Action::Sow(mv)) => {
                let (next, outcome) = position.play(&self.rules, mv)?;
                (next, Some(outcome))
            }
        };
        self.positions.push(next);
        self.actions.push(action);
        self.outcomes.push(outcome);
        Ok(outcome)
    }

    /// Takes back the last action; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Action> {
        let action = self.actions.pop()?;
        self.positions.pop();
        self.outcomes.pop();
        Some(action)
    }

    /// Groups the actions into turns: each turn is the actions of one player until the other moves.
    ///
    /// Returns (mover, actions) pairs; a swap or handicap decision is a turn of its own.
    pub fn turns(&self) -> Vec<(Side, Vec<Action>)> {
        let mut turns: Vec<(Side, Vec<Action>)> = Vec::new();
        let mut extra = false;
        for (i, action) in self.actions.iter().enumerate() {
            let (actor, _) = self.actor(i).expect("every action has its actor");
            match turns.last_mut() {
                Some((side, list)) if extra && *side == actor => list.push(*action),
                _ => turns.push((actor, vec![*action])),
            }
            extra = matches!(self.outcomes[i], Some(o) if o.extra_move && !o.ended);
        }
        turns
    }
}

impl Position {
    /// Returns the position with one seed moved from `from` to `to` (the handicap opening).
    fn moved_seed(&self, from: HouseRef, to: HouseRef) -> Position {
        let mut rows = [self.row(Side::South).to_vec(), self.row(Side::North).to_vec()];
        rows[from.side.index()][from.index as usize] -= 1;
        rows[to.side.index()][to.index as usize] += 1;
        Position::from_parts(
            ByPlayer { south: &rows[0], north: &rows[1] },
            ByPlayer::new_with(|s| self.store(s)),
            self.mover(),
            self.quiet(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_handicap_opening_gives_133_games_on_six_houses() {
        for seeds in 1..=6 {
            let mut rules = Rules::standard(6, seeds).unwrap();
            rules.handicap = true;
            let game = Game::new(rules);
            let starts: HashSet<Position> = game
                .legal_actions()
                .into_iter()
                .map(|a| {
                    let mut g = game.clone();
                    g.act(a).unwrap();
                    *g.position()
                })
                .collect();
            assert_eq!(starts.len(), 133, "Kalah(6,{seeds})");
        }
    }

    #[test]
    fn handicap_must_be_decided_first() {
        let mut rules = Rules::standard(6, 4).unwrap();
        rules.handicap = true;
        let mut game = Game::new(rules);
        let sow = Action::Sow(Move::from_number(1).unwrap());
        assert!(matches!(game.act(sow), Err(PlayError::DecisionPending(_))));
        game.act("S1>N6".parse().unwrap()).unwrap();
        assert_eq!(game.position().to_string(), "3,4,4,4,4,4:0/4,4,4,4,4,5:0/S");
        assert_eq!(game.act(Action::Keep), Err(PlayError::HandicapNotAllowed));
        game.act(sow).unwrap();
    }

    #[test]
    fn the_pie_offer_comes_once_after_souths_whole_first_turn() {
        let mut rules = Rules::standard(6, 4).unwrap();
        rules.pie = true;
        let mut game = Game::new(rules);
        assert_eq!(game.phase(), Phase::PieOpening);
        assert_eq!(Phase::at(&rules, game.position(), false), Phase::PieOpening);
        assert_eq!(game.act(Action::Swap), Err(PlayError::SwapNotAllowed));
        game.act(Action::Sow(Move::from_number(3).unwrap())).unwrap(); // extra move
        assert_eq!(game.phase(), Phase::PieOpening, "South's first turn goes on");
        assert_eq!(Phase::at(&rules, game.position(), false), Phase::Play, "which the position alone cannot tell");
        game.act(Action::Sow(Move::from_number(1).unwrap())).unwrap();
        assert_eq!(game.phase(), Phase::PieOffer);
        assert_eq!(Phase::at(&rules, game.position(), true), Phase::PieOffer);
        assert_eq!(game.legal_actions()[0], Action::Swap);
        game.act(Action::Sow(Move::from_number(1).unwrap())).unwrap();
        assert_eq!(game.phase(), Phase::Play);
        assert_eq!(game.act(Action::Swap), Err(PlayError::SwapNotAllowed));
        assert_eq!(game.turns().len(), 2);
    }

    #[test]
    fn the_pie_opening_ends_with_souths_first_turn_and_follows_the_handicap() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        rules.handicap = true;
        let mut game = Game::new(rules);
        assert_eq!(game.phase(), Phase::Handicap);
        game.act(Action::Keep).unwrap();
        assert_eq!(game.phase(), Phase::PieOpening);
        game.act("1".parse().unwrap()).unwrap();
        assert_eq!(game.phase(), Phase::PieOffer);
        game.act(Action::Swap).unwrap();
        assert_eq!(game.phase(), Phase::Play, "after a swap the pie rule is spent");
        assert!([Phase::PieOpening, Phase::PieOffer, Phase::Play].iter().all(|p| p.sows()));
        assert!(!Phase::Handicap.sows() && !Phase::Over.sows());
        // Without the pie rule there is no opening.
        let plain = Rules::standard(4, 3).unwrap();
        assert_eq!(Game::new(plain).phase(), Phase::Play);
        assert_eq!(Phase::at(&plain, &Position::start(&plain), false), Phase::Play);
    }

    #[test]
    fn seats_follow_the_swap() {
        assert_eq!(Seat::playing(Side::South, false), Seat::First);
        assert_eq!(Seat::playing(Side::North, false), Seat::Second);
        assert_eq!(Seat::playing(Side::South, true), Seat::Second);
        assert_eq!(Seat::playing(Side::North, true), Seat::First);
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        let mut game = Game::new(rules);
        for action in ["1", "swap", "2"] {
            game.act(action.parse().unwrap()).unwrap();
        }
        assert_eq!(game.actor(0), Some((Side::South, Seat::First)));
        assert_eq!(game.actor(1), Some((Side::North, Seat::Second)), "the second player swaps");
        assert_eq!(game.actor(2), Some((Side::North, Seat::First)), "after the swap the first player plays North");
        assert_eq!(game.actor(3), None);
        assert_eq!(game.seat_of(Side::South), Seat::Second);
    }

    #[test]
    fn the_handicap_is_the_second_players_decision_and_an_ended_game_has_no_decider() {
        let mut rules = Rules::standard(2, 1).unwrap();
        rules.handicap = true;
        let mut game = Game::new(rules);
        assert_eq!(game.decider(), Some(Side::North));
        game.act(Action::Keep).unwrap();
        assert_eq!(game.actor(0), Some((Side::North, Seat::Second)));
        assert_eq!(game.decider(), Some(Side::South));
        while !game.is_over() {
            game.act(game.legal_actions()[0]).unwrap();
        }
        assert_eq!(game.decider(), None);
    }

    #[test]
    fn actions_are_read_for_the_board_of_the_game() {
        let game = Game::new(Rules::standard(6, 4).unwrap());
        for (text, expected) in [
            ("0", ActionError::NoSuchHouse { house: 0, houses: 6 }),
            ("7", ActionError::NoSuchHouse { house: 7, houses: 6 }),
            ("99999999999", ActionError::NoSuchHouse { house: 99_999_999_999, houses: 6 }),
            ("N1>S7", ActionError::NoSuchHouse { house: 7, houses: 6 }),
            ("foo", ActionError::Syntax("foo".into())),
            ("", ActionError::Syntax("".into())),
        ] {
            assert_eq!(game.parse_action(text), Err(expected), "{text:?}");
        }
        assert_eq!(game.parse_action("Keep"), Ok(Action::Keep));
        // Strict: what is not written as actions are written is not an action.
        for loose in [" 3 ", "3 ", "+3", "03", "[3]", " Keep", "S03>N1", "S3 > N1", "3.0", "-0"] {
            assert!(matches!(game.parse_action(loose), Err(ActionError::Syntax(_))), "{loose:?}");
        }
        assert_eq!(
            game.parse_action("s6>n1"),
            Ok(Action::Handicap {
                from: HouseRef { side: Side::South, index: 5 },
                to: HouseRef { side: Side::North, index: 0 }
            })
        );
    }

    #[test]
    fn actions_round_trip_through_text() {
        for text in ["1", "12", "swap", "keep", "S3>N2", "N1>S12"] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        for bad in ["0", "13", "S0>N1", "X1>S2", "swp", ""] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }

    #[test]
    fn an_illegal_action_leaves_the_game_unchanged() {
        let rules = Rules::standard(6, 4).unwrap();
        let mut game = Game::new(rules);
        let before = game.clone();
        assert!(game.act(Action::Sow(Move::from_number(7).unwrap())).is_err());
        assert_eq!(game, before);
    }
}
