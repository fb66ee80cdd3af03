//! What the perfect-play explorer shows: every legal move of the position shown with its exact
//! value for the side to move, the best line, and the moves that throw away a win or a draw
//! ([`kalah_engine::explorer`]), as the JSON of `GET /api/games/{id}/explore`.

use kalah_engine::explorer::Exploration;
use kalah_engine::score::{Bounds, Seeds};
use kalah_rules::{Position, Rules};
use serde::Serialize;

/// One legal move in the explorer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExploredMove {
    /// The house sown, 1 to the number of houses.
    #[serde(rename = "move")]
    pub house: u8,
    /// The move gives the mover another turn.
    pub again: bool,
    /// The final store difference for the side to move after this move and perfect play, when
    /// proven.
    pub value: Option<i32>,
    /// The least the move is proven to be worth to the side to move.
    pub lower: i32,
    /// The most the move is proven to be worth to the side to move.
    pub upper: i32,
    /// `win`, `draw` or `loss` for the side to move, when the bounds decide it.
    pub result: Option<&'static str>,
    /// The move is proven best.
    pub best: bool,
    /// What the move is proven to throw away: `win` or `draw` (a move that loses when a draw
    /// was there), else none.
    pub throws_away: Option<&'static str>,
}

/// The explorer's answer for the position shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explored {
    /// The version of the game explored.
    pub version: u64,
    /// The rules, as they write themselves.
    pub rules: String,
    /// The position, in the position notation.
    pub position: String,
    /// The side to move, whose values these are.
    pub side: &'static str,
    /// The position's value is proven.
    pub exact: bool,
    /// Every move is settled.
    pub complete: bool,
    /// The position's value for the side to move, when proven.
    pub value: Option<i32>,
    /// The least the position is proven to be worth to the side to move.
    pub lower: i32,
    /// The most the position is proven to be worth to the side to move.
    pub upper: i32,
    /// The legal moves in house order (none when the game is over).
    pub moves: Vec<ExploredMove>,
    /// A perfect line from the position, as house numbers, when proven.
    pub line: Vec<u8>,
    /// Nodes searched (0 for an answer from a book).
    pub nodes: u64,
    /// Milliseconds the answer took.
    pub millis: u64,
    /// Where the answer came from: `book`, `solver`, or `fair` (the solver, with the position's
    /// value known from the fair starts' list).
    pub source: &'static str,
}

fn value(bounds: Bounds) -> Option<i32> {
    bounds.is_exact().then_some(bounds.lower.0)
}

impl Explored {
    /// Returns the view of `explored`, the explorer's answer for `position` under `rules` at the
    /// game's `version`, from `source` (`book` or `solver`), found in `millis` milliseconds.
    pub fn of(
        version: u64,
        rules: &Rules,
        position: &Position,
        explored: &Exploration,
        source: &'static str,
        millis: u64,
    ) -> Explored {
        // A fair start the form offers is a proven draw, which bounds every move the time left
        // open: its source says so.
        let (known, source) = match crate::fair::proven(rules, position) {
            Some(value) if explored.value().is_none() => (Some(explored.clone().knowing(Seeds(value))), "fair"),
            _ => (None, source),
        };
        let explored = known.as_ref().unwrap_or(explored);
        let best = explored.value();
        let moves = explored
            .moves
            .iter()
            .map(|m| ExploredMove {
                house: m.mv.number(),
                again: m.again,
                value: value(m.bounds),
                lower: m.bounds.lower.0,
                upper: m.bounds.upper.0,
                result: m.verdict().map(|v| v.name()),
                best: best.is_some() && m.value() == best,
                throws_away: explored.throws_away(m.mv).map(|v| v.name()),
            })
            .collect();
        Explored {
            version,
            rules: rules.to_string(),
            position: position.to_string(),
            side: position.mover().name(),
            exact: best.is_some(),
            complete: explored.is_complete(),
            value: best.map(|Seeds(v)| v),
            lower: explored.bounds.lower.0,
            upper: explored.bounds.upper.0,
            moves,
            line: explored.line.iter().map(|m| m.number()).collect(),
            nodes: explored.nodes,
            millis,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::explorer::{explore, Budget};
    use kalah_engine::search::Options;
    use kalah_engine::solver::Solver;

    #[test]
    fn a_fair_start_is_shown_as_the_draw_it_is_proven_to_be() {
        let list = crate::fair::fair_starts().iter().find(|l| l.rules == "kalah(6,4) standard").unwrap();
        let rules: Rules = list.rules.parse().unwrap();
        let start = Position::parse(&list.starts[0].position, &rules).unwrap();
        // A few nodes only: on their own the moves stay open.
        let solver = Solver::new(Options { table_bytes: 8 << 20, ..Options::default() });
        let explored = explore(&solver, &start, &rules, Budget { nodes: Some(200), ..Budget::default() });
        assert_eq!(explored.value(), None);
        let shown = Explored::of(3, &rules, &start, &explored, "solver", 5);
        assert_eq!((shown.source, shown.exact, shown.value), ("fair", true, Some(0)));
        assert!(shown.moves.iter().all(|m| m.upper <= 0), "no move is worth more than the draw");
        // Any other position is shown as solved.
        let other = Explored::of(3, &rules, &Position::start(&rules), &explored, "solver", 5);
        assert_eq!((other.source, other.exact), ("solver", false));
    }
}
