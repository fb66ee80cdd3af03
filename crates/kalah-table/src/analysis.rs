//! The engine's view of the position shown (the evaluation beside the board) and a hint for the
//! player to decide, as `GET /api/games/{id}/analysis` and `…/hint` answer (docs/web.md): built
//! from the engine's [`Decision`] or its search's [`Info`], whichever host ran it.

use kalah_engine::decide::Decision;
use kalah_engine::game_engine::Analysed;
use kalah_engine::search::Info;
use kalah_rules::{Action, Game, Position, Side};
use serde::{Deserialize, Serialize};

/// The engine's view of the position shown. A host keeps it for the version it is of
/// ([`crate::Table::keep_analysis`]); the static site's page reads it back from its worker's JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Analysis {
    /// The version of the game analysed.
    pub version: u64,
    /// The expected final store difference, South minus North, in seeds.
    pub value: f64,
    /// The value is proven (the position is solved).
    pub exact: bool,
    /// The depth searched, in sowings (0 for a finished game).
    pub depth: u32,
    /// The side that decides now: the side to move, or North while it decides the pie offer or
    /// the handicap opening.
    #[serde(with = "crate::view::side")]
    pub side: Side,
    /// The best house to sow, when the decision is a sowing.
    pub best: Option<u8>,
    /// The best action for `side`, as records write it (a house, `swap`, `keep`, `N4>S3`), if
    /// the game goes on.
    pub action: Option<String>,
    /// The expected line, as house numbers.
    pub line: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time searched in milliseconds.
    pub millis: u64,
}

impl Analysis {
    /// Returns the analysis of `game` at `version` when no search is needed: its final store
    /// difference when it is over (exact, depth 0), else nothing known yet (0, inexact).
    pub fn unsearched(game: &Game, version: u64) -> Analysis {
        let position = game.position();
        let over = game.is_over();
        Analysis {
            version,
            value: if over { f64::from(position.final_difference(game.rules())) } else { 0.0 },
            exact: over,
            depth: 0,
            side: position.mover(),
            best: None,
            action: None,
            line: Vec::new(),
            nodes: 0,
            millis: 0,
        }
    }

    /// Returns the analysis that `side`'s decision gives, taken in `millis` milliseconds: its
    /// value for South and its action, with no line. For the decisions that are not a search of
    /// the position (North's pie offer, the handicap opening).
    pub fn of_decision(version: u64, side: Side, decision: &Decision, millis: u64) -> Analysis {
        Analysis {
            version,
            value: decision.for_south().seeds(),
            exact: decision.score.is_exact(),
            depth: decision.depth,
            side,
            best: match decision.action {
                Action::Sow(mv) => Some(mv.number()),
                _ => None,
            },
            action: Some(decision.action.to_string()),
            line: Vec::new(),
            nodes: decision.nodes,
            millis,
        }
    }

    /// Returns the analysis [`kalah_engine::GameEngine::analyse`] found in `position`: the
    /// decision while North decides the pie offer or the handicap, else the search.
    pub fn of_analysed(version: u64, position: &Position, analysed: &Analysed) -> Analysis {
        match analysed {
            Analysed::Decided { side, decision, elapsed } => {
                Analysis::of_decision(version, *side, decision, elapsed.as_millis() as u64)
            }
            Analysed::Searched { side, info } => Analysis::of_search(version, *side, position, info),
        }
    }

    /// Returns the analysis a search of `position` gives, `side` deciding: South's view of the
    /// value, the best sowing and the expected line.
    pub fn of_search(version: u64, side: Side, position: &Position, info: &Info) -> Analysis {
        Analysis {
            version,
            value: info.score.for_side(position.mover(), Side::South).seeds(),
            exact: info.score.is_exact(),
            depth: info.depth,
            side,
            best: info.best.map(|m| m.number()),
            action: info.best.map(|m| m.number().to_string()),
            line: info.pv.iter().map(|m| m.number()).collect(),
            nodes: info.nodes,
            millis: info.elapsed.as_millis() as u64,
        }
    }
}

/// What the engine would do for the player to decide.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// The version of the game.
    pub version: u64,
    /// The side that decides.
    pub side: &'static str,
    /// The action, as records write it.
    pub action: String,
    /// The final store difference that side can expect, in seeds.
    pub value: f64,
    /// The value is proven.
    pub exact: bool,
    /// The depth searched, in sowings.
    pub depth: u32,
}

impl Hint {
    /// Returns the hint `side`'s decision gives at `version`: its action and its value for the
    /// player deciding, as the side that player holds after it (South after a swap).
    pub fn of(version: u64, side: Side, decision: &Decision) -> Hint {
        Hint {
            version,
            side: side.name(),
            action: decision.action.to_string(),
            value: decision.score.seeds(),
            exact: decision.score.is_exact(),
            depth: decision.depth,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::decide::Reason;
    use kalah_engine::score::Score;
    use kalah_rules::Rules;
    use serde_json::json;
    use std::time::Duration;

    #[test]
    fn a_finished_game_is_its_final_difference_and_one_going_on_is_unknown() {
        let rules = Rules::standard(4, 3).unwrap();
        let going_on = Analysis::unsearched(&Game::new(rules), 3);
        assert_eq!((going_on.value, going_on.exact, going_on.side), (0.0, false, Side::South));
        // South's row is empty: North's last two seeds go to North's store, 10 to 14.
        let game = Game::from_position(rules, Position::parse("0,0,0,0:10/0,0,0,2:12/S", &rules).unwrap());
        let over = serde_json::to_value(Analysis::unsearched(&game, 4)).unwrap();
        assert_eq!(
            over,
            json!({"version": 4, "value": -4.0, "exact": true, "depth": 0, "side": "South", "best": null,
                   "action": null, "line": [], "nodes": 0, "millis": 0})
        );
    }

    #[test]
    fn a_decision_gives_south_s_view_and_a_hint_the_decider_s() {
        // North swaps: it takes over South, worth +0.70 to it as South.
        let swap = Decision {
            action: Action::Swap,
            score: Score::estimate(70),
            side: Side::South,
            depth: 9,
            nodes: 1234,
            reason: Reason::SwapPays,
        };
        let analysis = Analysis::of_decision(5, Side::North, &swap, 12);
        assert_eq!((analysis.value, analysis.best, analysis.action.as_deref()), (0.7, None, Some("swap")));
        assert_eq!((analysis.side, analysis.depth, analysis.nodes, analysis.millis), (Side::North, 9, 1234, 12));
        let hint = serde_json::to_value(Hint::of(5, Side::North, &swap)).unwrap();
        assert_eq!(
            hint,
            json!({"version": 5, "side": "North", "action": "swap", "value": 0.7, "exact": false, "depth": 9})
        );
    }

    #[test]
    fn a_search_gives_south_s_view_of_the_value_and_the_line() {
        let rules = Rules::standard(4, 3).unwrap();
        let position = Position::parse("3,3,3,3:0/3,3,3,3:0/N", &rules).unwrap();
        let moves =
            |houses: &[u32]| houses.iter().map(|&h| kalah_rules::Move::from_number(h).unwrap()).collect::<Vec<_>>();
        let info = Info {
            depth: 6,
            score: Score::estimate(-150),
            best: Some(moves(&[2])[0]),
            pv: moves(&[2, 3, 1]),
            nodes: 99,
            elapsed: Duration::from_millis(30),
        };
        let analysis = serde_json::to_value(Analysis::of_search(1, Side::North, &position, &info)).unwrap();
        assert_eq!(
            analysis,
            json!({"version": 1, "value": 1.5, "exact": false, "depth": 6, "side": "North", "best": 2,
                   "action": "2", "line": [2, 3, 1], "nodes": 99, "millis": 30})
        );
    }
}
