//! One game: the sides drawn at random, each turn asked of an agent's connection or a bot (a
//! turn with one legal move is played without asking, as go-kgp does), each move stored before
//! the game goes on, and the end stored with the game's record.
//!
//! In a tournament an agent whose connection ends during a game does not give it up: the game is
//! stored as aborted and the tournament plays it again from the start once the agent is back
//! ([`crate::tournament`]); and a game the tournament decides without play (an agent that did not
//! come back in time) is stored by `forfeit`.

use std::sync::Arc;
use std::time::Instant;

use kalah_protocol::kgp::server::{Forfeit, GameInfo, Outcome, Request};
use kalah_rules::{record, Action, Game, Record, Rules, Side};
use tokio::sync::oneshot;

use crate::bot::Bot;
use crate::event::Event;
use crate::lobby::{Agent, Ask, Back};
use crate::program::Program;
use crate::store::{AgentKey, GameEnd, GameId, GameState, MoveRow, TournamentId};
use crate::wish::Board;
use crate::{Running, Shared};

/// A side's player.
pub enum Seat {
    /// An agent on a connection.
    Agent(Agent),
    /// A bot of the server.
    Bot(Bot),
    /// A program the server starts for each move, as kgpc does.
    Program(Arc<Program>),
}

impl Seat {
    fn name(&self) -> String {
        match self {
            Seat::Agent(agent) => agent.name.clone(),
            Seat::Bot(bot) => bot.to_string(),
            Seat::Program(program) => program.name.clone(),
        }
    }
}

/// What a turn came to.
enum Turn {
    Played {
        mv: kalah_rules::Move,
        how: &'static str,
        why: Option<&'static str>,
        comment: Option<String>,
    },
    /// The mover gave the game up: why in words, and in one word ([`GameEnd::cause`]).
    Resigned(String, &'static str),
}

/// A tournament's game: where it is stored, and what an agent that leaves during it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct InTournament {
    /// The tournament.
    pub id: TournamentId,
    /// Its stage.
    pub stage: u32,
    /// An agent whose connection ends during the game interrupts it (stored as aborted, to be
    /// played again) rather than gives it up.
    pub replay: bool,
}

/// What a game came to, for the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Played {
    /// It ended and was stored so.
    Ended(GameState),
    /// The connection of this side's agent ended during it: it was stored as aborted, to be
    /// played again.
    Interrupted(Side),
    /// It could not be stored.
    Failed,
}

/// Plays a game of `a` against `b` on `board` and stores it; gives the agents back to their
/// connections at the end. In a tournament `a` is South; in freeplay the sides are drawn.
pub(crate) async fn play(
    shared: Arc<Shared>,
    a: Seat,
    b: Seat,
    board: Board,
    tournament: Option<InTournament>,
    running: Running,
) -> Played {
    let (south, north) = if tournament.is_some() || rand::random::<bool>() { (a, b) } else { (b, a) };
    let rules = Rules::preset("kgp", board.houses, board.seeds).expect("boards are checked when read");
    let played = match run(&shared, &south, &north, rules, tournament).await {
        Ok(played) => played,
        Err(error) => not_stored(&shared, &south, &north, &error),
    };
    for seat in [south, north] {
        if let Seat::Agent(agent) = seat {
            let done = agent.done.clone();
            let _ = done.send(Back::Played(agent));
        }
    }
    drop(running);
    played
}

/// Reports a game of `south` and `north` that could not be stored: it is a failed game.
fn not_stored(shared: &Shared, south: &Seat, north: &Seat, error: &dyn std::fmt::Display) -> Played {
    shared.report(Event::Trouble(format!("a game of {} and {} was not stored: {error}", south.name(), north.name())));
    Played::Failed
}

/// Stores a tournament's game decided without play: `loser` gave it up for `why` (cause
/// `grace`), or, with no loser, it is stored as aborted (it counts for neither side).
pub(crate) async fn forfeit(
    shared: &Shared,
    south: &Seat,
    north: &Seat,
    board: Board,
    tournament: InTournament,
    loser: Option<Side>,
    why: &str,
) -> Played {
    let rules = Rules::preset("kgp", board.houses, board.seeds).expect("boards are checked when read");
    let stored = async {
        let (south_name, north_name) = (south.name(), north.name());
        let (south_id, north_id) = (id_of(shared, south).await?, id_of(shared, north).await?);
        let game = Game::new(rules);
        let place = Some((tournament.id, tournament.stage));
        let id = shared
            .store
            .start(south_id, north_id, rules.to_string(), record(&game, 0, &south_name, &north_name, None), place)
            .await?;
        let (state, reason, cause) = match loser {
            Some(Side::South) => (GameState::SouthResigned, format!("south resigned: {why}"), Some("grace")),
            Some(Side::North) => (GameState::NorthResigned, format!("north resigned: {why}"), Some("grace")),
            None => (GameState::Aborted, why.to_string(), None),
        };
        let text = record(&game, id, &south_name, &north_name, Some(&reason));
        shared
            .store
            .end(GameEnd { game: id, state, reason: Some(reason.clone()), cause, stores: None, record: text })
            .await?;
        shared.report(Event::Game {
            id,
            text: format!("{south_name} (south) against {north_name} (north), {rules}, not played: {reason}"),
        });
        Ok::<_, crate::StoreError>(state)
    };
    match stored.await {
        Ok(state) => Played::Ended(state),
        Err(error) => not_stored(shared, south, north, &error),
    }
}

async fn id_of(shared: &Shared, seat: &Seat) -> Result<i64, crate::StoreError> {
    match seat {
        Seat::Agent(agent) => Ok(agent.id),
        Seat::Bot(bot) => {
            let key = AgentKey { token: None, bot: true, name: bot.to_string(), authors: None, description: None };
            shared.store.agent(key).await
        }
        Seat::Program(program) => Ok(program.id),
    }
}

fn record(game: &Game, id: GameId, south: &str, north: &str, termination: Option<&str>) -> String {
    let mut tags = vec![
        ("Event".to_string(), "kalah kgp serve".to_string()),
        ("Date".to_string(), record::today()),
        ("Round".to_string(), id.to_string()),
        ("South".to_string(), south.to_string()),
        ("North".to_string(), north.to_string()),
    ];
    tags.extend(termination.map(|t| ("Termination".to_string(), t.to_string())));
    Record { tags, game: game.clone(), decided: None }.to_text()
}

async fn run(
    shared: &Shared,
    south: &Seat,
    north: &Seat,
    rules: Rules,
    tournament: Option<InTournament>,
) -> Result<Played, crate::StoreError> {
    let (south_name, north_name) = (south.name(), north.name());
    let (south_id, north_id) = (id_of(shared, south).await?, id_of(shared, north).await?);
    let mut game = Game::new(rules);
    let place = tournament.map(|t| (t.id, t.stage));
    let id = shared
        .store
        .start(south_id, north_id, rules.to_string(), record(&game, 0, &south_name, &north_name, None), place)
        .await?;
    shared.report(Event::Game { id, text: format!("{south_name} (south) against {north_name} (north), {rules}") });
    let info = |side: Side| GameInfo {
        id: id.to_string(),
        opponent: if side == Side::South { north_name.clone() } else { south_name.clone() },
    };
    let mut ply = 0;
    // Moves sent to the database and not yet known to be committed: every one is committed before
    // an agent hears of it (its next board) and before the game's end is stored; a bot's reply is
    // chosen meanwhile, so that a bot's game waits for one commit a turn of the agent, not two.
    let mut unsaved: Vec<crate::store::Unsaved> = Vec::new();
    let resigned = loop {
        if game.is_over() {
            break None;
        }
        let position = *game.position();
        let side = position.mover();
        let seat = if side == Side::South { south } else { north };
        if matches!(seat, Seat::Agent(_)) {
            for write in unsaved.drain(..) {
                write.committed().await?;
            }
        }
        let moves: Vec<_> = position.legal_moves().collect();
        let started = Instant::now();
        let turn = if let [only] = moves[..] {
            Turn::Played { mv: only, how: "auto", why: None, comment: None }
        } else {
            match seat {
                Seat::Bot(bot) => Turn::Played {
                    mv: bot.choose(position, rules, &shared.engines).await,
                    how: "bot",
                    why: None,
                    comment: None,
                },
                Seat::Agent(agent) => ask(agent, Request { position, rules, game: Some(info(side)) }).await,
                Seat::Program(program) => {
                    let chosen = program.choose(position, rules, shared.config.session.move_time).await;
                    if let Some(trouble) = chosen.trouble {
                        shared.report(Event::Game { id, text: trouble });
                    }
                    Turn::Played { mv: chosen.mv, how: chosen.how, why: chosen.lost.map(|l| l.word()), comment: None }
                }
            }
        };
        let millis = started.elapsed().as_millis() as u64;
        match turn {
            Turn::Played { mv, how, why, comment } => {
                if let Err(error) = game.act(Action::Sow(mv)) {
                    break Some((side, format!("illegal move {mv}: {error}"), "illegal"));
                }
                ply += 1;
                let row = MoveRow {
                    game: id,
                    ply,
                    side: if side == Side::South { "south" } else { "north" },
                    house: mv.number(),
                    how,
                    comment,
                    millis,
                    why,
                    record: record(&game, id, &south_name, &north_name, None),
                };
                unsaved.push(shared.store.send_move(row));
            }
            Turn::Resigned(why, cause) => break Some((side, why, cause)),
        }
    };
    for write in unsaved {
        write.committed().await?;
    }
    let mut played = None;
    let (state, reason, stores, cause) = match resigned {
        None => {
            let stores = game.result().expect("a game over has a result");
            let state = match stores.south.cmp(&stores.north) {
                std::cmp::Ordering::Greater => GameState::SouthWon,
                std::cmp::Ordering::Less => GameState::NorthWon,
                std::cmp::Ordering::Equal => GameState::Draw,
            };
            (state, None, Some((stores.south, stores.north)), None)
        }
        Some((_, _, GONE_CAUSE)) if shared.stopping() => {
            (GameState::Aborted, Some("the server stopped during the game".to_string()), None, None)
        }
        Some((side, _, GONE_CAUSE)) if tournament.is_some_and(|t| t.replay) => {
            played = Some(Played::Interrupted(side));
            let name = if side == Side::South { &south_name } else { &north_name };
            let why = format!("{name}'s connection ended during the game: it is played again from the start");
            (GameState::Aborted, Some(why), None, None)
        }
        Some((Side::South, why, cause)) => {
            (GameState::SouthResigned, Some(format!("south resigned: {why}")), None, Some(cause))
        }
        Some((Side::North, why, cause)) => {
            (GameState::NorthResigned, Some(format!("north resigned: {why}")), None, Some(cause))
        }
    };
    let text = record(&game, id, &south_name, &north_name, reason.as_deref());
    shared.store.end(GameEnd { game: id, state, reason: reason.clone(), cause, stores, record: text }).await?;
    let summary = match (stores, reason) {
        (Some((s, n)), _) => format!("{} {s}-{n} after {ply} moves", state.word()),
        (None, Some(reason)) => format!("{}: {reason}", state.word()),
        (None, None) => state.word().to_string(),
    };
    shared.report(Event::Game { id, text: summary });
    Ok(played.unwrap_or(Played::Ended(state)))
}

/// Why a game is given up by a connection that has ended.
const GONE: &str = "the connection ended";

/// The same, in one word ([`GameEnd::cause`]).
const GONE_CAUSE: &str = "gone";

/// Asks an agent's connection for its move.
async fn ask(agent: &Agent, request: Request) -> Turn {
    let (reply, answer) = oneshot::channel();
    if agent.asks.send(Ask { request, reply }).await.is_err() {
        return Turn::Resigned(GONE.into(), GONE_CAUSE);
    }
    let Ok(answer) = answer.await else { return Turn::Resigned(GONE.into(), GONE_CAUSE) };
    match answer.outcome {
        Outcome::Move { mv, random, .. } => Turn::Played {
            mv,
            how: if random { "random" } else { "agent" },
            why: random.then_some("time"),
            comment: answer.comment,
        },
        Outcome::Illegal { number, .. } => Turn::Resigned(format!("illegal move {number}"), "illegal"),
        Outcome::Forfeit(Forfeit::NoPong) => Turn::Resigned("no pong after its time ran out".into(), "no-pong"),
        Outcome::Forfeit(Forfeit::Gone) => Turn::Resigned(GONE.into(), GONE_CAUSE),
    }
}
