//! Results: each agent's points, wins, draws and losses, its Elo against the field with the 95%
//! interval (the course arena's estimate, [`kalah_course::arena::Elo`]), and who beat whom. The
//! same table is printed at the end of a tournament and served on the page, for a tournament or
//! for every game stored.
//!
//! A game counts when it ended: played out (won or drawn on the stores) or given up (an illegal
//! move, no pong, a connection that ended), which is a loss for the side that gave up. An
//! aborted game (the server stopped) and one still going do not count.

use std::collections::BTreeMap;
use std::fmt;

use kalah_course::arena::Elo;

use crate::store::{AgentId, GameRow};

/// The score of a game for South: 1 a win, ½ a draw, 0 a loss; `None` for a game that does not
/// count.
pub fn south_score(state: &str) -> Option<f64> {
    match state {
        "south-won" | "north-resigned" => Some(1.0),
        "draw" => Some(0.5),
        "north-won" | "south-resigned" => Some(0.0),
        _ => None,
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, score: f64) {
        if score > 0.5 {
            self.wins += 1;
        } else if score < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Returns the games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Returns the points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }
}

/// One agent's line of the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Standing {
    /// The agent.
    pub agent: AgentId,
    /// Its name.
    pub name: String,
    /// Its games counted, won, drawn and lost.
    #[serde(flatten)]
    pub tally: Tally,
    /// Its points.
    pub points: f64,
    /// Its Elo against the field (the average of its opponents, game by game); infinite (`null`
    /// in JSON) after a clean sweep either way.
    pub elo: f64,
    /// Half the width of the Elo's 95% interval; infinite (`null`) when the interval reaches a
    /// score of 0 or 1.
    pub margin: f64,
    /// Its results against each opponent, by the opponent's id.
    pub against: BTreeMap<AgentId, Tally>,
}

/// An agent's name, its per-game scores and its results against each opponent, as they are added up.
type Scores = (String, Vec<f64>, BTreeMap<AgentId, Tally>);

/// The table: agents by points, then Elo, then name.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Standings {
    /// One line an agent that played a counted game.
    pub rows: Vec<Standing>,
    /// Games counted.
    pub games: u32,
}

impl Standings {
    /// Tallies `games` (any order; those that do not count are left out).
    pub fn from_games(games: &[GameRow]) -> Standings {
        let mut scores: BTreeMap<AgentId, Scores> = BTreeMap::new();
        let mut counted = 0;
        for game in games {
            let Some(south) = south_score(&game.state) else { continue };
            counted += 1;
            for (me, name, other, score) in [
                (game.south_id, &game.south, game.north_id, south),
                (game.north_id, &game.north, game.south_id, 1.0 - south),
            ] {
                let entry = scores.entry(me).or_insert_with(|| (name.clone(), Vec::new(), BTreeMap::new()));
                entry.1.push(score);
                entry.2.entry(other).or_default().add(score);
            }
        }
        let mut rows: Vec<Standing> = scores
            .into_iter()
            .map(|(agent, (name, scores, against))| {
                let mut tally = Tally::default();
                for &s in &scores {
                    tally.add(s);
                }
                let elo = Elo::from_scores(&scores);
                Standing {
                    agent,
                    name,
                    tally,
                    points: tally.points(),
                    elo: elo.difference,
                    margin: elo.margin,
                    against,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.points.total_cmp(&a.points).then(b.elo.total_cmp(&a.elo)).then_with(|| a.name.cmp(&b.name))
        });
        Standings { rows, games: counted }
    }
}

/// Writes an Elo or a margin as a whole number, `inf` when it is infinite.
fn whole(x: f64, signed: bool) -> String {
    match (x.is_finite(), signed) {
        (true, true) => format!("{:+.0}", x.round() + 0.0),
        (true, false) => format!("{:.0}", x.round()),
        (false, true) if x > 0.0 => "+inf".into(),
        (false, true) => "-inf".into(),
        (false, false) => "inf".into(),
    }
}

impl fmt::Display for Standings {
    /// Writes the table and the cross table (each row's wins-draws-losses against each column).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(5).max(5);
        writeln!(
            f,
            "{:>4}  {:<width$}  {:>5}  {:>6}  {:>4}  {:>5}  {:>6}  {:>14}",
            "rank", "agent", "games", "points", "wins", "draws", "losses", "Elo (95%)"
        )?;
        for (i, row) in self.rows.iter().enumerate() {
            let elo = format!("{} ± {}", whole(row.elo, true), whole(row.margin, false));
            writeln!(
                f,
                "{:>4}  {:<width$}  {:>5}  {:>6}  {:>4}  {:>5}  {:>6}  {:>14}",
                i + 1,
                row.name,
                row.tally.games(),
                row.points,
                row.tally.wins,
                row.tally.draws,
                row.tally.losses,
                elo
            )?;
        }
        writeln!(f, "who beat whom (wins-draws-losses of the row's agent against the column's):")?;
        write!(f, "{:>4}  {:<width$}", "", "")?;
        for i in 0..self.rows.len() {
            write!(f, "  {:>8}", i + 1)?;
        }
        writeln!(f)?;
        for (i, row) in self.rows.iter().enumerate() {
            write!(f, "{:>4}  {:<width$}", i + 1, row.name)?;
            for other in &self.rows {
                let cell = match row.against.get(&other.agent) {
                    Some(t) if other.agent != row.agent => format!("{}-{}-{}", t.wins, t.draws, t.losses),
                    _ => "-".into(),
                };
                write!(f, "  {cell:>8}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i64, south: i64, north: i64, state: &str) -> GameRow {
        let name = |a: i64| ["", "alice", "bob", "carol"][a as usize].to_string();
        GameRow {
            id,
            south_id: south,
            north_id: north,
            south: name(south),
            north: name(north),
            tournament: Some(1),
            stage: Some(1),
            started: 0,
            stores: None,
            rules: "kalah(6,6) kgp".into(),
            state: state.into(),
            reason: None,
            cause: None,
            moves: 0,
            record: String::new(),
        }
    }

    #[test]
    fn points_tallies_and_who_beat_whom_add_up_and_uncounted_games_are_left_out() {
        let games = [
            game(1, 1, 2, "south-won"),
            game(2, 2, 1, "south-resigned"),
            game(3, 1, 3, "draw"),
            game(4, 3, 1, "north-won"),
            game(5, 2, 3, "north-won"),
            game(6, 3, 2, "aborted"),
            game(7, 3, 2, "ongoing"),
        ];
        let table = Standings::from_games(&games);
        assert_eq!(table.games, 5);
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["alice", "carol", "bob"]);
        let alice = &table.rows[0];
        assert_eq!((alice.tally, alice.points), (Tally { wins: 3, draws: 1, losses: 0 }, 3.5));
        assert_eq!(alice.against[&2], Tally { wins: 2, draws: 0, losses: 0 });
        assert_eq!(alice.against[&3], Tally { wins: 1, draws: 1, losses: 0 });
        // The arena's Elo of alice's four scores, and an infinite one for bob's clean loss.
        let elo = Elo::from_scores(&[1.0, 1.0, 0.5, 1.0]);
        assert_eq!((alice.elo, alice.margin), (elo.difference, elo.margin));
        assert_eq!(table.rows[2].elo, f64::NEG_INFINITY);
        let points: f64 = table.rows.iter().map(|r| r.points).sum();
        assert_eq!(points, 5.0);
        let text = table.to_string();
        assert!(text.contains("   1  alice      4     3.5     3      1       0"), "{text}");
        assert!(text.contains("-inf ± inf"), "{text}");
        assert!(text.contains("   1  alice         -     1-1-0     2-0-0"), "{text}");
    }
}
