//! The integer actions of a rule set, for the game-AI libraries (an action mask, a discrete
//! action space): the sowings first, then the pie rule's swap, then the handicap's `keep` and moves.
//!
//! For Kalah(m,n) action `i` below m sows the mover's house `i + 1`. Under the pie rule action m
//! is `swap`. Under the handicap rule the next is `keep`, followed by the 4m² handicap moves
//! `from × 2m + to` over the cells South 1..m, North 1..m (a move from a cell to itself is never
//! legal). The count is m without pie or handicap: Kalah(6,4) has actions 0 to 5.

use kalah_rules::game::HouseRef;
use kalah_rules::{Action, Move, Rules, Side};

/// The actions of one rule set, numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    houses: u8,
    pie: bool,
    handicap: bool,
}

impl ActionSpace {
    /// Returns the actions of `rules`.
    pub fn of(rules: &Rules) -> ActionSpace {
        ActionSpace { houses: rules.houses(), pie: rules.pie, handicap: rules.handicap }
    }

    fn m(self) -> usize {
        usize::from(self.houses)
    }

    /// The number of the swap, if the rules have one.
    fn swap(self) -> Option<usize> {
        self.pie.then_some(self.m())
    }

    /// The number of `keep`, if the rules have the handicap; the handicap moves follow it.
    fn keep(self) -> Option<usize> {
        self.handicap.then_some(self.m() + usize::from(self.pie))
    }

    /// Returns how many actions there are (at least one: a board has a house).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(self) -> usize {
        let cells = 2 * self.m();
        self.m() + usize::from(self.pie) + if self.handicap { 1 + cells * cells } else { 0 }
    }

    /// Returns the number of `action`, or `None` if these rules have no such action.
    pub fn encode(self, action: Action) -> Option<usize> {
        let cells = 2 * self.m();
        let cell = |h: HouseRef| h.side.index() * self.m() + usize::from(h.index);
        match action {
            Action::Sow(mv) => (mv.index() < self.m()).then_some(mv.index()),
            Action::Swap => self.swap(),
            Action::Keep => self.keep(),
            Action::Handicap { from, to } => {
                let keep = self.keep()?;
                (usize::from(from.index) < self.m() && usize::from(to.index) < self.m())
                    .then(|| keep + 1 + cell(from) * cells + cell(to))
            }
        }
    }

    /// Returns the action numbered `id`, or `None` if there is none.
    pub fn decode(self, id: usize) -> Option<Action> {
        let m = self.m();
        if id < m {
            return Some(Action::Sow(Move::from_index(id)));
        }
        if self.swap() == Some(id) {
            return Some(Action::Swap);
        }
        let keep = self.keep()?;
        if id == keep {
            return Some(Action::Keep);
        }
        let cells = 2 * m;
        let rest = id.checked_sub(keep + 1).filter(|&r| r < cells * cells)?;
        let house =
            |cell: usize| HouseRef { side: if cell < m { Side::South } else { Side::North }, index: (cell % m) as u8 };
        Some(Action::Handicap { from: house(rest / cells), to: house(rest % cells) })
    }

    /// Says which numbers are actions, for an error message: `0 to 5 (houses 1 to 6)` and so on.
    pub fn describe(self) -> String {
        let m = self.m();
        let mut parts = vec![format!("0 to {} (houses 1 to {m})", m - 1)];
        if let Some(swap) = self.swap() {
            parts.push(format!("{swap} (swap)"));
        }
        if let Some(keep) = self.keep() {
            parts.push(format!("{keep} (keep)"));
            parts.push(format!("{} to {} (handicap moves)", keep + 1, self.len() - 1));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_rules::Game;

    #[test]
    fn every_number_is_one_action_and_back() {
        for (pie, handicap) in [(false, false), (true, false), (false, true), (true, true)] {
            for houses in [1, 3, 6, 12] {
                let mut rules = Rules::standard(houses, 2).unwrap();
                rules.pie = pie;
                rules.handicap = handicap;
                let space = ActionSpace::of(&rules);
                for id in 0..space.len() {
                    let action = space.decode(id).unwrap();
                    assert_eq!(space.encode(action), Some(id), "{rules} {id} {action}");
                }
                assert_eq!(space.decode(space.len()), None);
            }
        }
    }

    #[test]
    fn the_legal_actions_of_every_phase_have_numbers() {
        let mut rules = Rules::standard(4, 3).unwrap();
        rules.pie = true;
        rules.handicap = true;
        let space = ActionSpace::of(&rules);
        assert_eq!(space.len(), 4 + 1 + 1 + 64);
        let mut game = Game::new(rules);
        let mut seen = 0;
        while !game.is_over() {
            let legal = game.legal_actions();
            for &action in &legal {
                assert_eq!(space.decode(space.encode(action).unwrap()), Some(action));
                seen += 1;
            }
            game.act(*legal.last().unwrap()).unwrap();
        }
        assert!(seen > 60);
        assert_eq!(space.encode(Action::Swap), Some(4));
        assert_eq!(space.encode(Action::Keep), Some(5));
    }

    #[test]
    fn rules_without_pie_or_handicap_have_only_sowings() {
        let space = ActionSpace::of(&Rules::standard(6, 4).unwrap());
        assert_eq!(space.len(), 6);
        assert_eq!(space.encode(Action::Swap), None);
        assert_eq!(space.encode(Action::Keep), None);
        assert_eq!(space.decode(6), None);
        assert_eq!(space.describe(), "0 to 5 (houses 1 to 6)");
    }
}
