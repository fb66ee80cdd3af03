//! A tournament's report, read from the database: each stage's table and who went on, the final
//! table, and each entrant's games and moves: the games it gave up, its illegal moves, the moves
//! played for it at random, and the time its moves took. `kalah kgp tournament` prints it at the
//! end, and `kalah kgp report` prints it again from the stored games.

use std::collections::BTreeMap;
use std::fmt;

use crate::standings::Standings;
use crate::store::{AgentId, GameRow, Reader, StageRow, StoreError, TournamentId, TournamentRow};

/// One stage: what it was, its table and its entrants.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StageReport {
    /// The stage as stored, with who went on.
    pub stage: StageRow,
    /// The table of its games.
    pub table: Standings,
}

/// An entrant's games and moves in the tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AgentReport {
    /// The agent.
    pub agent: AgentId,
    /// Its name.
    pub name: String,
    /// Its games that ended (played out or given up).
    pub games: u32,
    /// The games it gave up: an illegal move, no pong, a connection that ended, or gone for
    /// longer than the grace.
    pub forfeits: u32,
    /// Its illegal moves: an agent's, which gives its game up, and a program's turns in which it
    /// wrote houses but none legal (a random move was played).
    pub illegal: u32,
    /// The moves played for it at random: an agent out of time, or a program that wrote no legal
    /// move (out of time, a crash, over its memory limit, only illegal houses).
    pub random: u32,
    /// Its moves, but those it had no choice in.
    pub moves: u32,
    /// The time its moves took, in milliseconds.
    pub millis: u64,
    /// Its longest move, in milliseconds.
    pub longest: u64,
}

/// A tournament's report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// The tournament.
    pub tournament: TournamentRow,
    /// Its stages in order, each with its table: more than one only with go-kgp's sanity check
    /// or several round robins; empty for a tournament stored before stages were.
    pub stages: Vec<StageReport>,
    /// The final table: the round robins' games, ranked by the last stage each entrant reached,
    /// then as any table (points, Elo, name).
    pub table: Standings,
    /// Each entrant's games and moves, in the order of the final table (then those that never
    /// reached a round robin).
    pub agents: Vec<AgentReport>,
}

/// The score of a game for South ([`crate::standings::south_score`]) and the side that gave it
/// up, if one did.
fn resigner(game: &GameRow) -> Option<AgentId> {
    match game.state.as_str() {
        "south-resigned" => Some(game.south_id),
        "north-resigned" => Some(game.north_id),
        _ => None,
    }
}

impl Report {
    /// Reads the report of tournament `id`; `None` when there is no such tournament.
    pub fn read(reader: &Reader, id: TournamentId) -> Result<Option<Report>, StoreError> {
        let Some(tournament) = reader.tournaments()?.into_iter().find(|t| t.id == id) else { return Ok(None) };
        let games = reader.games(None, Some(id))?;
        let stages = reader.stages(id)?;
        let reports: Vec<StageReport> = stages
            .iter()
            .map(|stage| {
                let theirs: Vec<GameRow> = games.iter().filter(|g| g.stage == Some(stage.number)).cloned().collect();
                StageReport { stage: stage.clone(), table: Standings::from_games(&theirs) }
            })
            .collect();
        // The round robins' games: without the sanity check's (and all, without stages).
        let played: Vec<GameRow> = games.iter().filter(|g| g.stage.is_none_or(|s| s > 0)).cloned().collect();
        let mut table = Standings::from_games(&played);
        let reached: BTreeMap<AgentId, u32> = stages
            .iter()
            .flat_map(|s| s.entrants.iter().map(move |e| (e.agent, s.number)))
            .fold(BTreeMap::new(), |mut m, (agent, stage)| {
                let at = m.entry(agent).or_insert(stage);
                *at = (*at).max(stage);
                m
            });
        // A stable sort keeps the table's order (points, Elo, name) among those level.
        table.rows.sort_by_key(|row| std::cmp::Reverse(reached.get(&row.agent).copied().unwrap_or(0)));
        let mut order: Vec<(AgentId, String)> = table.rows.iter().map(|r| (r.agent, r.name.clone())).collect();
        for stage in &stages {
            for entrant in &stage.entrants {
                if !order.iter().any(|(a, _)| *a == entrant.agent) {
                    order.push((entrant.agent, entrant.name.clone()));
                }
            }
        }
        let tallies = reader.move_tallies(id)?;
        let agents = order
            .into_iter()
            .map(|(agent, name)| {
                let mut line = AgentReport { agent, name, ..AgentReport::default() };
                for game in games.iter().filter(|g| g.south_id == agent || g.north_id == agent) {
                    if crate::standings::south_score(&game.state).is_some() {
                        line.games += 1;
                    }
                    if resigner(game) == Some(agent) {
                        line.forfeits += 1;
                        if game.cause.as_deref() == Some("illegal") {
                            line.illegal += 1;
                        }
                    }
                }
                if let Some(tally) = tallies.iter().find(|t| t.agent == agent) {
                    line.illegal += tally.illegal;
                    line.random = tally.random;
                    line.moves = tally.moves;
                    line.millis = tally.millis;
                    line.longest = tally.longest;
                }
                line
            })
            .collect();
        Ok(Some(Report { tournament, stages: reports, table, agents }))
    }
}

/// Writes milliseconds as seconds with a tenth, or milliseconds below one.
fn time(millis: u64) -> String {
    if millis < 1000 {
        format!("{millis} ms")
    } else {
        format!("{:.1} s", millis as f64 / 1000.0)
    }
}

/// The stage's title: what it played.
fn title(stage: &StageRow) -> String {
    match stage.kind.as_str() {
        "sanity" => format!("stage 0, the sanity check: random on {}, moving first", stage.boards),
        _ => format!("stage {}, a round robin on {}", stage.number, stage.boards.replace(' ', " and ")),
    }
}

impl fmt::Display for Report {
    /// Writes each stage's table and cut (with stages), the final table, and each entrant's
    /// games and moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let staged = self.stages.len() > 1;
        if staged {
            for report in &self.stages {
                writeln!(f, "{}:", title(&report.stage))?;
                write!(f, "{}", report.table)?;
                let decided: Vec<_> = report.stage.entrants.iter().filter(|e| e.went_on.is_some()).collect();
                if let (Some(cut), false) = (&report.stage.cut, decided.is_empty()) {
                    let names = |on: bool| {
                        let names: Vec<&str> =
                            decided.iter().filter(|e| e.went_on == Some(on)).map(|e| e.name.as_str()).collect();
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    };
                    writeln!(f, "the cut: {cut}")?;
                    writeln!(f, "  went on: {}", names(true))?;
                    writeln!(f, "  dropped: {}", names(false))?;
                }
            }
            writeln!(f, "final table (by the last stage reached, then points):")?;
        }
        write!(f, "{}", self.table)?;
        let width = self.agents.iter().map(|a| a.name.chars().count()).max().unwrap_or(5).max(5);
        writeln!(f, "each agent's games and moves (random: played for it; time: its moves' in all, and its longest):")?;
        writeln!(
            f,
            "{:<width$}  {:>5}  {:>8}  {:>7}  {:>6}  {:>5}  {:>9}  {:>8}",
            "agent", "games", "forfeits", "illegal", "random", "moves", "time", "longest"
        )?;
        for a in &self.agents {
            writeln!(
                f,
                "{:<width$}  {:>5}  {:>8}  {:>7}  {:>6}  {:>5}  {:>9}  {:>8}",
                a.name,
                a.games,
                a.forfeits,
                a.illegal,
                a.random,
                a.moves,
                time(a.millis),
                time(a.longest)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{AgentKey, GameEnd, GameState, MoveRow, Store};

    fn key(name: &str) -> AgentKey {
        AgentKey { token: None, bot: false, name: name.into(), authors: None, description: None }
    }

    #[tokio::test]
    async fn the_report_counts_forfeits_illegal_and_random_moves_and_ranks_by_the_stage_reached() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kgp.sqlite");
        let store = Store::open(&path).unwrap();
        let [ann, bob, cat, random] = [
            store.agent(key("ann")).await.unwrap(),
            store.agent(key("bob")).await.unwrap(),
            store.agent(key("cat")).await.unwrap(),
            store.agent(AgentKey { bot: true, ..key("random") }).await.unwrap(),
        ];
        let t = store.tournament("6,6 8,8".into(), 1).await.unwrap();
        let rule = Some("the best 2 by points go on".to_string());
        store.stage(t, 0, "sanity", "6,6".into(), Some("sanity".into()), vec![ann, bob, cat]).await.unwrap();
        store.went_on(t, 0, vec![ann, bob, cat]).await.unwrap();
        store.stage(t, 1, "round-robin", "6,6".into(), rule, vec![ann, bob, cat]).await.unwrap();
        store.went_on(t, 1, vec![bob, cat]).await.unwrap();
        store.stage(t, 2, "round-robin", "8,8".into(), None, vec![bob, cat]).await.unwrap();
        // A move: its side, how it was chosen, why it was random, its time.
        type Move = (&'static str, &'static str, Option<&'static str>, u64);
        // A game: South, North, its stage, its end and why it was given up, its moves.
        type Played = (i64, i64, u32, GameState, Option<&'static str>, &'static [Move]);
        let games: [Played; 7] = [
            (ann, random, 0, GameState::SouthWon, None, &[("south", "agent", None, 40)]),
            (bob, random, 0, GameState::SouthWon, None, &[("south", "program", None, 10)]),
            (cat, random, 0, GameState::SouthWon, None, &[]),
            // Stage 1: ann wins both of its games, but is cut below (by the rule stored).
            (
                ann,
                bob,
                1,
                GameState::SouthWon,
                None,
                &[("south", "random", Some("time"), 5000), ("north", "program", None, 7)],
            ),
            (cat, ann, 1, GameState::SouthResigned, Some("illegal"), &[("south", "agent", None, 3)]),
            (bob, cat, 1, GameState::SouthResigned, Some("grace"), &[("south", "random", Some("illegal"), 9)]),
            // Played again after ann left it: its moves do not count.
            (ann, cat, 1, GameState::Aborted, None, &[("south", "random", Some("time"), 1)]),
        ];
        for (south, north, stage, state, cause, moves) in games {
            let game = store.start(south, north, "kalah(6,6) kgp".into(), "*".into(), Some((t, stage))).await.unwrap();
            for (ply, (side, how, why, millis)) in moves.iter().enumerate() {
                let row = MoveRow {
                    game,
                    ply: ply as u32 + 1,
                    side,
                    house: 1,
                    how,
                    comment: None,
                    millis: *millis,
                    why: *why,
                    record: "*".into(),
                };
                store.record_move(row).await.unwrap();
            }
            store.end(GameEnd { game, state, reason: None, cause, stores: None, record: "*".into() }).await.unwrap();
        }
        let g = store.start(bob, cat, "kalah(8,8) kgp".into(), "*".into(), Some((t, 2))).await.unwrap();
        store
            .end(GameEnd {
                game: g,
                state: GameState::Draw,
                reason: None,
                cause: None,
                stores: Some((48, 48)),
                record: "*".into(),
            })
            .await
            .unwrap();
        drop(store);
        let report = Report::read(&Reader::open(&path).unwrap(), t).unwrap().unwrap();
        assert!(Report::read(&Reader::open(&path).unwrap(), t + 1).unwrap().is_none());
        assert_eq!(report.stages.len(), 3);
        // The stage reached first: bob and cat (stage 2) before ann, who won more.
        let names: Vec<&str> = report.table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["cat", "bob", "ann"]);
        // Without the sanity check's games: ann played 2 games of stage 1 that count.
        assert_eq!(report.table.rows[2].tally.games(), 2);
        let line = |name: &str| report.agents.iter().find(|a| a.name == name).unwrap().clone();
        let ann = line("ann");
        assert_eq!((ann.games, ann.forfeits, ann.illegal, ann.random, ann.moves), (3, 0, 0, 1, 2));
        assert_eq!((ann.millis, ann.longest), (5040, 5000));
        let cat = line("cat");
        // Its illegal move gave a game up.
        assert_eq!((cat.games, cat.forfeits, cat.illegal, cat.random), (4, 1, 1, 0));
        let bob = line("bob");
        // Gone past the grace once, and one program turn with only illegal houses.
        assert_eq!((bob.games, bob.forfeits, bob.illegal, bob.random, bob.moves), (4, 1, 1, 1, 3));
        let text = report.to_string();
        for part in [
            "stage 0, the sanity check: random on 6,6, moving first:",
            "stage 1, a round robin on 6,6:",
            "the cut: the best 2 by points go on\n  went on: bob, cat\n  dropped: ann\n",
            "stage 2, a round robin on 8,8:",
            "final table (by the last stage reached, then points):",
            "ann        3         0        0       1      2      5.0 s     5.0 s",
        ] {
            assert!(text.contains(part), "{part:?} in\n{text}");
        }
    }
}
