//! A round robin in place of freeplay (`kalah kgp tournament`): the server's bots, programs it
//! starts once a move ([`crate::program`], as kgpc runs them) and the agents that connect play
//! every other entrant on every board, once from each side, `rounds` times; the games are stored
//! as any other, under the tournament's row, and the table is [`crate::standings`]'.
//!
//! The tournament waits until the agents it was told to expect have connected (with
//! `mode freeplay`, as every course template asks), then plays its games, at most `parallel` at
//! once and never two of one agent at once. An agent that leaves gives up the games it has left
//! (it may come back with the same token, or name if it has none, and play on). At the end every
//! agent hears `goodbye`; an agent that comes when the tournament is full, begun or over gets
//! `error` saying so and `goodbye`.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::bot::Bot;
use crate::event::Event;
use crate::game::{self, Seat};
use crate::lobby::{Agent, Back};
use crate::program::Program;
use crate::store::AgentKey;
use crate::wish::Board;
use crate::Shared;

/// What a tournament plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentConfig {
    /// The server's bots that take part.
    pub bots: Vec<Bot>,
    /// The programs that take part, each a command line split into words.
    pub programs: Vec<Vec<String>>,
    /// How many agents to wait for before the games begin.
    pub agents: usize,
    /// The boards, each played by every pairing from both sides.
    pub boards: Vec<Board>,
    /// How many times the whole schedule is played.
    pub rounds: u32,
    /// Games played at once.
    pub parallel: usize,
}

impl TournamentConfig {
    /// Returns the number of entrants.
    pub fn entrants(&self) -> usize {
        self.bots.len() + self.programs.len() + self.agents
    }

    /// Returns the number of games: each ordered pair of entrants on each board, each round.
    pub fn games(&self) -> usize {
        let n = self.entrants();
        n * n.saturating_sub(1) * self.boards.len() * self.rounds as usize
    }
}

/// An agent's place in the tournament.
struct Entrant {
    /// Who it is: its token, else its name.
    key: String,
    /// Its current connection's agent (cloned for each game; a closed one gives its games up).
    agent: Agent,
    /// Whether it is in a game.
    busy: bool,
}

impl Entrant {
    fn free(&self) -> bool {
        !self.busy || !self.agent.alive()
    }
}

/// One of the tournament's players.
enum Entry {
    Bot(Bot),
    Program(Arc<Program>),
    Agent(Entrant),
}

fn key_of(agent: &Agent) -> String {
    match &agent.token {
        Some(token) => format!("token {token}"),
        None => format!("name {}", agent.name),
    }
}

fn refuse(agent: Agent, why: &str) {
    let _ = agent.done.send(Back::Refused(why.to_string()));
}

/// Runs the tournament until it ends or the server stops; agents join through `joins`.
pub(crate) async fn run(shared: Arc<Shared>, mut joins: mpsc::UnboundedReceiver<Agent>) {
    let Some(config) = shared.config.tournament.clone() else { return };
    let mut stop = shared.stop.clone();
    let report = |text: String| shared.report(Event::Tournament { id: None, text });
    let mut entries = Vec::new();
    for bot in &config.bots {
        entries.push(Entry::Bot(*bot));
    }
    for argv in &config.programs {
        let name = argv.join(" ");
        let key = AgentKey { token: None, bot: false, name: name.clone(), authors: None, description: None };
        match shared.store.agent(key).await {
            Ok(id) => entries.push(Entry::Program(Arc::new(Program { id, name, argv: argv.clone() }))),
            Err(error) => {
                shared.report(Event::Trouble(format!("the tournament cannot start: {error}")));
                return;
            }
        }
    }
    if config.agents > 0 {
        let agents = if config.agents == 1 { "1 agent".to_string() } else { format!("{} agents", config.agents) };
        report(format!("waiting for {agents} to connect (mode freeplay)"));
    }
    let mut joined = 0;
    while joined < config.agents {
        tokio::select! {
            agent = joins.recv() => {
                let Some(agent) = agent else { return };
                let key = key_of(&agent);
                let known = entries.iter_mut().find_map(|e| match e {
                    Entry::Agent(entrant) if entrant.key == key => Some(entrant),
                    _ => None,
                });
                match known {
                    Some(entrant) if entrant.agent.alive() => {
                        refuse(agent, "an agent with this token (or name, without a token) is already in the tournament")
                    }
                    Some(entrant) => entrant.agent = agent,
                    None => {
                        joined += 1;
                        report(format!("{} joined ({joined} of {})", agent.name, config.agents));
                        entries.push(Entry::Agent(Entrant { key, agent, busy: false }));
                    }
                }
            }
            _ = stop.wait_for(|s| *s) => return,
        }
    }
    let boards = config.boards.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let id = match shared.store.tournament(boards, config.rounds).await {
        Ok(id) => id,
        Err(error) => {
            shared.report(Event::Trouble(format!("the tournament cannot start: {error}")));
            return;
        }
    };
    let mut pending: VecDeque<(usize, usize, Board)> = VecDeque::new();
    let n = entries.len();
    for _ in 0..config.rounds {
        for &board in &config.boards {
            // Pairings in the circle method's order, so that games of different entrants follow
            // one another and several can be played at once; each pairing from both sides.
            for (south, north) in schedule(n) {
                pending.push_back((south, north, board));
            }
        }
    }
    shared.report(Event::Tournament {
        id: Some(id),
        text: format!("{} entrants, {} games: {}", n, pending.len(), names(&entries).join(", ")),
    });
    let (finished, mut finishes) = mpsc::unbounded_channel::<[usize; 2]>();
    let mut running = 0;
    // A connection that closes while its agent is between games says nothing: look now and then.
    let mut look = tokio::time::interval(Duration::from_secs(1));
    loop {
        while running < config.parallel.max(1) {
            let free = |i: usize| match &entries[i] {
                Entry::Agent(entrant) => entrant.free(),
                _ => true,
            };
            let Some(next) = pending.iter().position(|&(s, n, _)| free(s) && free(n)) else { break };
            let (south, north, board) = pending.remove(next).expect("found");
            let seats = [south, north].map(|i| match &mut entries[i] {
                Entry::Bot(bot) => Seat::Bot(*bot),
                Entry::Program(program) => Seat::Program(Arc::clone(program)),
                Entry::Agent(entrant) => {
                    entrant.busy = true;
                    Seat::Agent(entrant.agent.clone())
                }
            });
            let [a, b] = seats;
            let (shared, finished, guard) = (Arc::clone(&shared), finished.clone(), shared.running());
            running += 1;
            tokio::spawn(async move {
                game::play(shared, a, b, board, Some(id), guard).await;
                let _ = finished.send([south, north]);
            });
        }
        if pending.is_empty() && running == 0 {
            break;
        }
        tokio::select! {
            agent = joins.recv() => {
                let Some(agent) = agent else { return };
                let key = key_of(&agent);
                let known = entries.iter_mut().find_map(|e| match e {
                    Entry::Agent(entrant) if entrant.key == key => Some(entrant),
                    _ => None,
                });
                match known {
                    // Back from a game on its connection.
                    Some(entrant) if entrant.agent.connection == agent.connection => entrant.busy = false,
                    // Back on a new connection after the old one closed.
                    Some(entrant) if !entrant.agent.alive() => {
                        report(format!("{} is back", agent.name));
                        entrant.agent = agent;
                        entrant.busy = false;
                    }
                    _ => refuse(agent, "the tournament has begun: no agent can join it now"),
                }
            }
            Some(_) = finishes.recv() => running -= 1,
            _ = look.tick() => {}
            _ = stop.wait_for(|s| *s) => return,
        }
    }
    if let Err(error) = shared.store.tournament_end(id).await {
        shared.report(Event::Trouble(error.to_string()));
    }
    for entry in &entries {
        if let Entry::Agent(entrant) = entry {
            let _ = entrant.agent.done.send(Back::Finished);
        }
    }
    shared.report(Event::TournamentOver(id));
    // Late comers hear that it is over until the server stops.
    loop {
        tokio::select! {
            agent = joins.recv() => match agent {
                Some(agent) => refuse(agent, "the tournament is over"),
                None => return,
            },
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}

fn names(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| match e {
            Entry::Bot(bot) => bot.to_string(),
            Entry::Program(program) => program.name.clone(),
            Entry::Agent(entrant) => entrant.agent.name.clone(),
        })
        .collect()
}

/// Every ordered pair of `n` entrants (South, North), in rounds of the circle method: each round
/// pairs every entrant once (one rests when `n` is odd), first from one side, then the same
/// pairings from the other.
pub fn schedule(n: usize) -> Vec<(usize, usize)> {
    if n < 2 {
        return Vec::new();
    }
    // The circle method on an even count; the extra seat (n) marks a rest.
    let m = n + n % 2;
    let mut circle: Vec<usize> = (0..m).collect();
    let mut first = Vec::new();
    for _ in 0..m - 1 {
        for i in 0..m / 2 {
            let (a, b) = (circle[i], circle[m - 1 - i]);
            if a < n && b < n {
                first.push((a, b));
            }
        }
        circle[1..].rotate_right(1);
    }
    let mut all = first.clone();
    all.extend(first.iter().map(|&(a, b)| (b, a)));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_holds_every_ordered_pair_once() {
        for n in 0..9 {
            let mut pairs = schedule(n);
            assert_eq!(pairs.len(), n * n.saturating_sub(1));
            pairs.sort();
            pairs.dedup();
            assert_eq!(pairs.len(), n * n.saturating_sub(1));
            assert!(pairs.iter().all(|&(a, b)| a != b && a < n && b < n));
        }
        // The first games pair different entrants, so that several can be played at once.
        let four = schedule(4);
        assert_eq!(&four[..2], &[(0, 3), (1, 2)]);
    }
}
