//! Pairing: an agent that asks for a bot (by its name) plays it at once; any other waits for
//! another agent (with another token, on a board both accept) and, after the server's wait,
//! plays the server's bot. After each game the agent's connection brings it back, as go-kgp's
//! scheduler does.

use std::sync::Arc;

use kalah_protocol::kgp::server::{Answer, Request};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::game::{self, Seat};
use crate::store::AgentId;
use crate::wish::Wish;
use crate::Shared;

/// A board a game asks an agent's connection about, and where the answer goes.
pub struct Ask {
    /// The board.
    pub request: Request,
    /// The answer.
    pub reply: oneshot::Sender<Answer>,
}

/// An agent ready for a game (a clone is the same agent on the same connection).
#[derive(Clone)]
pub struct Agent {
    /// Its row in the database.
    pub id: AgentId,
    /// Its connection's number.
    pub connection: u64,
    /// Its name, without its wishes.
    pub name: String,
    /// Its token, if it gave one: two connections with one token are never paired.
    pub token: Option<String>,
    /// What it asks for.
    pub wish: Wish,
    /// Where its connection takes boards.
    pub(crate) asks: mpsc::Sender<Ask>,
    /// Where its connection hears that a game has ended (getting the agent back) or that it has
    /// no more games.
    pub(crate) done: mpsc::UnboundedSender<Back>,
}

/// What an agent's connection hears from its games and the tournament.
pub(crate) enum Back {
    /// A game ended: the agent is free again.
    Played(Agent),
    /// The agent has no more games (a tournament ended): the connection says goodbye.
    Finished,
    /// The agent cannot play here (a tournament full or begun): `error` with this, and goodbye.
    Refused(String),
}

impl Agent {
    /// Tells whether its connection still takes boards.
    pub fn alive(&self) -> bool {
        !self.asks.is_closed()
    }

    fn pairs_with(&self, other: &Agent) -> bool {
        other.alive()
            && other.wish.opponent.is_none()
            && (self.token.is_none() || self.token != other.token)
            && match (self.wish.board, other.wish.board) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

/// Runs the lobby until the server stops.
pub(crate) async fn run(shared: Arc<Shared>, mut joins: mpsc::UnboundedReceiver<Agent>) {
    let mut waiting: Vec<(Agent, Instant)> = Vec::new();
    let mut stop = shared.stop.clone();
    let wait = shared.config.wait;
    loop {
        let next = waiting.iter().map(|(_, since)| *since + wait).min();
        tokio::select! {
            joined = joins.recv() => {
                let Some(agent) = joined else { break };
                waiting.retain(|(a, _)| a.alive());
                if agent.wish.opponent.is_some() || wait.is_zero() {
                    start(&shared, agent, None);
                } else if let Some(i) = waiting.iter().position(|(other, _)| agent.pairs_with(other)) {
                    let (other, _) = waiting.remove(i);
                    start(&shared, agent, Some(other));
                } else {
                    waiting.push((agent, Instant::now()));
                }
            }
            _ = tokio::time::sleep_until(next.unwrap_or_else(Instant::now)), if next.is_some() => {
                let now = Instant::now();
                let (due, rest): (Vec<_>, Vec<_>) = waiting.drain(..).partition(|(_, since)| *since + wait <= now);
                waiting = rest;
                for (agent, _) in due.into_iter().filter(|(a, _)| a.alive()) {
                    start(&shared, agent, None);
                }
            }
            _ = stop.wait_for(|s| *s) => break,
        }
    }
}

/// Starts a game of `agent` against `other`, or against its bot (the one it asked for, else the
/// server's).
fn start(shared: &Arc<Shared>, agent: Agent, other: Option<Agent>) {
    let board = agent.wish.board.or(other.as_ref().and_then(|o| o.wish.board)).unwrap_or(shared.config.board);
    let opponent = match other {
        Some(other) => Seat::Agent(other),
        None => Seat::Bot(agent.wish.opponent.unwrap_or(shared.config.bot)),
    };
    let running = shared.running();
    tokio::spawn(game::play(Arc::clone(shared), Seat::Agent(agent), opponent, board, None, running));
}
