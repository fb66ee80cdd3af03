//! A round robin in place of freeplay (`kalah kgp tournament`): the server's bots, programs it
//! starts once a move ([`crate::program`], as kgpc runs them) and the agents that connect play
//! every other entrant on every board, once from each side, `rounds` times; the games are stored
//! as any other, under the tournament's row, and the table is [`crate::standings`]'.
//!
//! The tournament waits until the agents it was told to expect have connected (with
//! `mode freeplay`, as every course template asks), then plays its games, at most `parallel` at
//! once and never two of one agent at once. At the end every agent hears `goodbye`; an agent
//! that comes when the tournament is full, begun or over gets `error` saying so and `goodbye`.
//!
//! **Stages**, as go-kgp's tournament plays them: optionally first its sanity check (every
//! entrant plays `random` on (6,6), moving first; those that lost more games than they won and
//! drew are dropped), then one round robin a stage ([`TournamentConfig::stages`]), with a
//! [`Cut`] between two stages. Without a cut wanted, one stage holds every board.
//!
//! **An agent that leaves** (its connection ends) keeps its place for the grace
//! ([`TournamentConfig::grace`]): its games wait for it, and a game its leaving interrupted is
//! stored as aborted and played again from the start (up to [`REPLAYS`] times a game), once it
//! comes back with the same token (or name, without one). After the grace the games it has left
//! in the stage are given up, each stored as a loss with the cause `grace`, and a line says so.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use kalah_rules::Side;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::bot::Bot;
use crate::event::Event;
use crate::game::{self, InTournament, Played, Seat};
use crate::lobby::{Agent, Back};
use crate::program::{Limits, Program};
use crate::standings::south_score;
use crate::store::{AgentId, AgentKey, TournamentId};
use crate::wish::Board;
use crate::Shared;

/// How many times one game is played again after an agent's leaving interrupted it; when it is
/// interrupted once more, it is given up as any game of an agent that leaves without a grace,
/// so that an agent that crashes at the same move every time cannot hold the tournament for ever.
pub const REPLAYS: u32 = 3;

/// The board of go-kgp's sanity check: Kalah(6,6), which the first mover wins with best play.
pub const SANITY_BOARD: Board = Board { houses: 6, seeds: 6 };

/// What a tournament plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentConfig {
    /// The server's bots that take part.
    pub bots: Vec<Bot>,
    /// The programs that take part, each a command line split into words.
    pub programs: Vec<Vec<String>>,
    /// How many agents to wait for before the games begin.
    pub agents: usize,
    /// The round robins, one a stage, played one after another: each pairing of the stage's
    /// entrants plays on each of its boards from both sides. Never empty.
    pub stages: Vec<Vec<Board>>,
    /// How many times each stage's schedule is played.
    pub rounds: u32,
    /// Games played at once.
    pub parallel: usize,
    /// go-kgp's sanity check before the round robins: the games each entrant plays against
    /// `random` on (6,6), moving first (go-kgp's `-attempts`); 0 for none.
    pub sanity: u32,
    /// Who goes on after each round robin but the last.
    pub cut: Cut,
    /// How long the games of an agent whose connection ended wait for it to come back.
    pub grace: Duration,
    /// What each move of a program may use.
    pub limits: Limits,
}

impl TournamentConfig {
    /// Returns the number of entrants.
    pub fn entrants(&self) -> usize {
        self.bots.len() + self.programs.len() + self.agents
    }

    /// Returns the number of games of the first round robin: each ordered pair of entrants on
    /// each of its boards, each round (the later stages' depend on the cuts).
    pub fn games(&self) -> usize {
        let n = self.entrants();
        let boards = self.stages.first().map_or(0, Vec::len);
        n * n.saturating_sub(1) * boards * self.rounds as usize
    }
}

/// Who goes on after a round robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// go-kgp's rule: every entrant that lost no more games than it won and drew.
    GoKgp,
    /// The better half by points, rounded up, and those with as many points as the last of it.
    Half,
    /// The best N by points, and those with as many points as the last of them.
    Best(usize),
}

/// A cut that is none of the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a cut: go-kgp (those that lost no more games than they won and drew go on), half, or a number N (the best N go on)")]
pub struct BadCut(pub String);

impl FromStr for Cut {
    type Err = BadCut;

    /// Reads `go-kgp`, `half` or a number from 1.
    fn from_str(text: &str) -> Result<Cut, BadCut> {
        match text.trim() {
            "go-kgp" => Ok(Cut::GoKgp),
            "half" => Ok(Cut::Half),
            n => match n.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Cut::Best(n)),
                _ => Err(BadCut(text.to_string())),
            },
        }
    }
}

impl fmt::Display for Cut {
    /// Writes the rule in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cut::GoKgp => f.write_str("go-kgp's: those that lost no more games than they won and drew go on"),
            Cut::Half => f.write_str("the better half by points goes on (and those level with its last)"),
            Cut::Best(n) => write!(f, "the best {n} by points go on (and those level with the last of them)"),
        }
    }
}

/// An entrant's games of one stage, added up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageScore {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl StageScore {
    /// Returns the points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Tells whether it passes go-kgp's rule: no more losses than wins and draws.
    pub fn even(&self) -> bool {
        self.wins + self.draws >= self.losses
    }
}

impl Cut {
    /// Returns the positions in `scores` of those that go on, in order.
    pub fn keep(&self, scores: &[StageScore]) -> Vec<usize> {
        let best = match *self {
            Cut::GoKgp => return (0..scores.len()).filter(|&i| scores[i].even()).collect(),
            Cut::Half => scores.len().div_ceil(2),
            Cut::Best(n) => n,
        };
        let mut points: Vec<f64> = scores.iter().map(StageScore::points).collect();
        points.sort_by(|a, b| b.total_cmp(a));
        let Some(&last) = points.get(best.max(1) - 1) else { return (0..scores.len()).collect() };
        (0..scores.len()).filter(|&i| scores[i].points() >= last).collect()
    }
}

/// An agent's place in the tournament.
struct Entrant {
    /// Who it is: its token, else its name.
    key: String,
    /// Its current connection's agent (cloned for each game).
    agent: Agent,
    /// Whether it is in a game.
    busy: bool,
    /// Since when it has been gone (its connection ended), if it is.
    gone: Option<Instant>,
}

impl Entrant {
    fn ready(&self) -> bool {
        !self.busy && self.gone.is_none() && self.agent.alive()
    }
}

/// How an entrant plays.
enum Kind {
    Bot(Bot),
    Program(Arc<Program>),
    Agent(Entrant),
}

/// One of the tournament's entrants.
struct Entry {
    /// Its agent's row.
    id: AgentId,
    kind: Kind,
    /// Why it is out, once it is.
    dropped: Option<String>,
}

impl Entry {
    fn name(&self) -> String {
        match &self.kind {
            Kind::Bot(bot) => bot.to_string(),
            Kind::Program(program) => program.name.clone(),
            Kind::Agent(entrant) => entrant.agent.name.clone(),
        }
    }

    fn entrant(&mut self) -> Option<&mut Entrant> {
        match &mut self.kind {
            Kind::Agent(entrant) => Some(entrant),
            _ => None,
        }
    }
}

/// A side of a tournament game: an entrant, or the sanity check's bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Entrant(usize),
    Bot(Bot),
}

/// A game to play.
#[derive(Clone, Copy, Debug)]
struct Pairing {
    south: Player,
    north: Player,
    board: Board,
    /// Times it was interrupted and put back.
    replays: u32,
    /// The connections of its agents (South, North) while it is played.
    connections: [Option<u64>; 2],
}

fn key_of(agent: &Agent) -> String {
    match &agent.token {
        Some(token) => format!("token {token}"),
        None => format!("name {}", agent.name),
    }
}

fn refuse(agent: &Agent, why: &str) {
    let _ = agent.done.send(Back::Refused(why.to_string()));
}

/// Writes a duration in whole seconds (or milliseconds below one).
fn seconds(time: Duration) -> String {
    if time < Duration::from_secs(1) {
        format!("{} ms", time.as_millis())
    } else {
        format!("{} s", time.as_secs())
    }
}

/// Writes `n` things, `1 game` or `2 games`.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A stage's games ended (or stopped).
type Results = Vec<(Pairing, Played)>;

/// The tournament as it runs.
struct Tournament {
    shared: Arc<Shared>,
    config: TournamentConfig,
    joins: mpsc::UnboundedReceiver<Agent>,
    entries: Vec<Entry>,
    id: TournamentId,
}

/// The server stopped (or the lobby's channel closed): the tournament ends where it is.
struct Stopped;

/// Runs the tournament until it ends or the server stops; agents join through `joins`.
pub(crate) async fn run(shared: Arc<Shared>, mut joins: mpsc::UnboundedReceiver<Agent>) {
    let Some(config) = shared.config.tournament.clone() else { return };
    let mut stop = shared.stop.clone();
    let report = |text: String| shared.report(Event::Tournament { id: None, text });
    let mut entries = Vec::new();
    for bot in &config.bots {
        let key = AgentKey { token: None, bot: true, name: bot.to_string(), authors: None, description: None };
        match shared.store.agent(key).await {
            Ok(id) => entries.push(Entry { id, kind: Kind::Bot(*bot), dropped: None }),
            Err(error) => {
                shared.report(Event::Trouble(format!("the tournament cannot start: {error}")));
                return;
            }
        }
    }
    for argv in &config.programs {
        let name = argv.join(" ");
        let key = AgentKey { token: None, bot: false, name: name.clone(), authors: None, description: None };
        match shared.store.agent(key).await {
            Ok(id) => {
                let program = Program { id, name, argv: argv.clone(), limits: config.limits };
                entries.push(Entry { id, kind: Kind::Program(Arc::new(program)), dropped: None });
            }
            Err(error) => {
                shared.report(Event::Trouble(format!("the tournament cannot start: {error}")));
                return;
            }
        }
    }
    if config.agents > 0 {
        let agents = count(config.agents, "agent", "agents");
        report(format!("waiting for {agents} to connect (mode freeplay)"));
    }
    let mut joined = 0;
    while joined < config.agents {
        tokio::select! {
            agent = joins.recv() => {
                let Some(agent) = agent else { return };
                let key = key_of(&agent);
                let known = entries.iter_mut().filter_map(Entry::entrant).find(|e| e.key == key);
                match known {
                    Some(entrant) if entrant.agent.alive() => {
                        refuse(&agent, "an agent with this token (or name, without a token) is already in the tournament")
                    }
                    Some(entrant) => entrant.agent = agent,
                    None => {
                        joined += 1;
                        report(format!("{} joined ({joined} of {})", agent.name, config.agents));
                        let entrant = Entrant { key, agent: agent.clone(), busy: false, gone: None };
                        entries.push(Entry { id: agent.id, kind: Kind::Agent(entrant), dropped: None });
                    }
                }
            }
            _ = stop.wait_for(|s| *s) => return,
        }
    }
    let boards = config.stages.iter().flatten().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let id = match shared.store.tournament(boards, config.rounds).await {
        Ok(id) => id,
        Err(error) => {
            shared.report(Event::Trouble(format!("the tournament cannot start: {error}")));
            return;
        }
    };
    let mut tournament = Tournament { shared: Arc::clone(&shared), config, joins, entries, id };
    if tournament.stages().await.is_err() {
        return;
    }
    if let Err(error) = shared.store.tournament_end(id).await {
        shared.report(Event::Trouble(error.to_string()));
    }
    for entry in &tournament.entries {
        if let (Kind::Agent(entrant), None) = (&entry.kind, &entry.dropped) {
            let _ = entrant.agent.done.send(Back::Finished);
        }
    }
    shared.report(Event::TournamentOver(id));
    // Late comers hear that it is over until the server stops.
    let mut joins = tournament.joins;
    loop {
        tokio::select! {
            agent = joins.recv() => match agent {
                Some(agent) => refuse(&agent, "the tournament is over"),
                None => return,
            },
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}

impl Tournament {
    fn report(&self, text: String) {
        self.shared.report(Event::Tournament { id: Some(self.id), text });
    }

    fn names(&self, entrants: &[usize]) -> String {
        entrants.iter().map(|&i| self.entries[i].name()).collect::<Vec<_>>().join(", ")
    }

    /// Plays the sanity check (if asked for) and the round robins, with the cuts between them.
    async fn stages(&mut self) -> Result<(), Stopped> {
        let mut active: Vec<usize> = (0..self.entries.len()).collect();
        let n = active.len();
        let staged = self.config.sanity > 0 || self.config.stages.len() > 1;
        if staged {
            let stages = count(self.config.stages.len() + usize::from(self.config.sanity > 0), "stage", "stages");
            self.report(format!("{n} entrants, {stages}: {}", self.names(&active)));
        } else {
            self.report(format!("{n} entrants, {} games: {}", self.config.games(), self.names(&active)));
        }
        if self.config.sanity > 0 {
            let rule =
                "go-kgp's sanity check: those that lost no more games against random than they won and drew go on";
            self.store_stage(0, "sanity", SANITY_BOARD.to_string(), Some(rule.to_string()), &active).await;
            let mut pending = VecDeque::new();
            for &i in &active {
                for _ in 0..self.config.sanity {
                    let pairing = Pairing {
                        south: Player::Entrant(i),
                        north: Player::Bot(Bot::Random),
                        board: SANITY_BOARD,
                        replays: 0,
                        connections: [None; 2],
                    };
                    pending.push_back(pairing);
                }
            }
            self.report(format!(
                "stage 0, the sanity check: each entrant plays random on {SANITY_BOARD}, moving first: {}",
                count(pending.len(), "game", "games")
            ));
            let results = self.play(0, pending).await?;
            let scores = self.scores(&active, &results);
            let keep: Vec<usize> = (0..active.len()).filter(|&i| scores[i].even()).collect();
            active = self.cut(0, "the sanity check", &active, &scores, &keep).await;
        }
        let stages = self.config.stages.clone();
        for (k, boards) in stages.iter().enumerate() {
            let number = k as u32 + 1;
            if active.len() < 2 {
                self.report(format!(
                    "stage {number} and those after it are not played: {} left",
                    if active.is_empty() { "no entrant".to_string() } else { format!("only {}", self.names(&active)) }
                ));
                break;
            }
            let last = k + 1 == stages.len();
            let text = boards.iter().map(ToString::to_string).collect::<Vec<_>>();
            let cut = (!last).then(|| self.config.cut.to_string());
            self.store_stage(number, "round-robin", text.join(" "), cut, &active).await;
            let mut pending = VecDeque::new();
            for _ in 0..self.config.rounds {
                for &board in boards {
                    // Pairings in the circle method's order, so that games of different entrants
                    // follow one another and several can be played at once; each pairing from
                    // both sides.
                    for (south, north) in schedule(active.len()) {
                        let (south, north) = (Player::Entrant(active[south]), Player::Entrant(active[north]));
                        pending.push_back(Pairing { south, north, board, replays: 0, connections: [None; 2] });
                    }
                }
            }
            if staged {
                self.report(format!(
                    "stage {number}, a round robin of {} on {}: {}",
                    count(active.len(), "entrant", "entrants"),
                    text.join(" and "),
                    count(pending.len(), "game", "games")
                ));
            }
            let results = self.play(number, pending).await?;
            if !last {
                let scores = self.scores(&active, &results);
                let keep = self.config.cut.keep(&scores);
                active = self.cut(number, &format!("stage {number}"), &active, &scores, &keep).await;
            }
        }
        Ok(())
    }

    async fn store_stage(
        &self,
        number: u32,
        kind: &'static str,
        boards: String,
        cut: Option<String>,
        active: &[usize],
    ) {
        let ids = active.iter().map(|&i| self.entries[i].id).collect();
        if let Err(error) = self.shared.store.stage(self.id, number, kind, boards, cut, ids).await {
            self.shared.report(Event::Trouble(error.to_string()));
        }
    }

    /// Adds up the stage's games of each of `active`.
    fn scores(&self, active: &[usize], results: &Results) -> Vec<StageScore> {
        let mut scores = vec![StageScore::default(); active.len()];
        for (pairing, played) in results {
            let Played::Ended(state) = played else { continue };
            let Some(south) = south_score(state.word()) else { continue };
            for (player, score) in [(pairing.south, south), (pairing.north, 1.0 - south)] {
                let Player::Entrant(i) = player else { continue };
                let Some(at) = active.iter().position(|&a| a == i) else { continue };
                let s = &mut scores[at];
                match score {
                    x if x > 0.5 => s.wins += 1,
                    x if x < 0.5 => s.losses += 1,
                    _ => s.draws += 1,
                }
            }
        }
        scores
    }

    /// Keeps the entrants at positions `keep` of `active` after stage `number`, stores and
    /// reports who went on, and tells the dropped agents; returns those kept.
    async fn cut(
        &mut self,
        number: u32,
        stage: &str,
        active: &[usize],
        scores: &[StageScore],
        keep: &[usize],
    ) -> Vec<usize> {
        let kept: Vec<usize> = keep.iter().map(|&k| active[k]).collect();
        let ids = kept.iter().map(|&i| self.entries[i].id).collect();
        if let Err(error) = self.shared.store.went_on(self.id, number, ids).await {
            self.shared.report(Event::Trouble(error.to_string()));
        }
        let mut dropped = Vec::new();
        for (at, &i) in active.iter().enumerate() {
            if keep.contains(&at) {
                continue;
            }
            let s = scores[at];
            let why = format!(
                "dropped after {stage}: {} won, {} drawn, {} lost, {} points",
                s.wins,
                s.draws,
                s.losses,
                s.points()
            );
            dropped.push(format!("{} ({}-{}-{})", self.entries[i].name(), s.wins, s.draws, s.losses));
            let entry = &mut self.entries[i];
            if let Kind::Agent(entrant) = &entry.kind {
                refuse(&entrant.agent, &why);
            }
            entry.dropped = Some(why);
        }
        let on = if kept.is_empty() { "none".to_string() } else { self.names(&kept) };
        let off = if dropped.is_empty() { "none".to_string() } else { dropped.join(", ") };
        self.report(format!("after {stage}: on: {on}; dropped: {off}"));
        kept
    }

    /// Whether `player` can start a game now.
    fn ready(&self, player: Player) -> bool {
        match player {
            Player::Bot(_) => true,
            Player::Entrant(i) => match &self.entries[i].kind {
                Kind::Agent(entrant) => entrant.ready(),
                _ => true,
            },
        }
    }

    /// Returns the seat of `player`.
    fn seat(&self, player: Player) -> Seat {
        match player {
            Player::Bot(bot) => Seat::Bot(bot),
            Player::Entrant(i) => match &self.entries[i].kind {
                Kind::Bot(bot) => Seat::Bot(*bot),
                Kind::Program(program) => Seat::Program(Arc::clone(program)),
                Kind::Agent(entrant) => Seat::Agent(entrant.agent.clone()),
            },
        }
    }

    /// Marks the agent `player` as in a game, if it is one, and returns its connection.
    fn take(&mut self, player: Player) -> Option<u64> {
        let Player::Entrant(i) = player else { return None };
        let entrant = self.entries[i].entrant()?;
        entrant.busy = true;
        Some(entrant.agent.connection)
    }

    /// Returns since when the agent `player` has been gone, if it is an agent that is.
    fn gone(&self, player: Player) -> Option<Instant> {
        match player {
            Player::Entrant(i) => match &self.entries[i].kind {
                Kind::Agent(entrant) => entrant.gone,
                _ => None,
            },
            Player::Bot(_) => None,
        }
    }

    /// Marks the agents whose connection has ended since it was last looked at, and says so.
    fn notice_gone(&mut self) {
        let grace = self.config.grace;
        let mut lines = Vec::new();
        for entry in self.entries.iter_mut().filter(|e| e.dropped.is_none()) {
            if let Kind::Agent(entrant) = &mut entry.kind {
                if entrant.gone.is_none() && !entrant.agent.alive() {
                    entrant.gone = Some(Instant::now());
                    lines.push(format!(
                        "{} has gone: its games wait {} for it to come back (with the same token, or name without one)",
                        entrant.agent.name,
                        seconds(grace)
                    ));
                }
            }
        }
        for line in lines {
            self.report(line);
        }
    }

    /// The agent of entrant `i` left during a game it played on `connection`: it is gone, unless
    /// it is back on another connection already.
    fn left(&mut self, i: usize, connection: Option<u64>) {
        let grace = self.config.grace;
        let Some(entrant) = self.entries[i].entrant() else { return };
        if Some(entrant.agent.connection) != connection {
            return;
        }
        let name = entrant.agent.name.clone();
        let wait = match entrant.gone {
            Some(_) => String::new(),
            None => {
                entrant.gone = Some(Instant::now());
                format!(
                    "; its games wait {} for it to come back (with the same token, or name without one)",
                    seconds(grace)
                )
            }
        };
        self.report(format!("{name} left during a game, which is played again from the start once it is back{wait}"));
    }

    /// Gives up the pending games of agents gone for longer than the grace: each is stored as a
    /// loss of the agent gone (as aborted when both are), and a line says so.
    async fn forfeit(&mut self, stage: u32, pending: &mut VecDeque<Pairing>, results: &mut Results) {
        let grace = self.config.grace;
        let now = Instant::now();
        let expired = |t: Option<Instant>| t.is_some_and(|t| now >= t + grace);
        let (lost, kept): (VecDeque<Pairing>, VecDeque<Pairing>) =
            pending.drain(..).partition(|p| expired(self.gone(p.south)) || expired(self.gone(p.north)));
        *pending = kept;
        if lost.is_empty() {
            return;
        }
        let mut counts: Vec<(usize, usize)> = Vec::new();
        for pairing in &lost {
            for player in [pairing.south, pairing.north] {
                if let (Player::Entrant(i), true) = (player, expired(self.gone(player))) {
                    match counts.iter_mut().find(|(e, _)| *e == i) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((i, 1)),
                    }
                }
            }
        }
        for (i, n) in counts {
            self.report(format!(
                "{} did not come back within the grace of {}: {} of stage {stage} left to it {} given up",
                self.entries[i].name(),
                seconds(grace),
                count(n, "game", "games"),
                if n == 1 { "is" } else { "are" }
            ));
        }
        for pairing in lost {
            let (south_gone, north_gone) = (expired(self.gone(pairing.south)), expired(self.gone(pairing.north)));
            let (loser, why) = match (south_gone, north_gone) {
                (true, true) => (None, format!("neither agent came back within the grace of {}", seconds(grace))),
                (true, false) => {
                    (Some(Side::South), format!("it did not come back within the grace of {}", seconds(grace)))
                }
                _ => (Some(Side::North), format!("it did not come back within the grace of {}", seconds(grace))),
            };
            // The seats only name the sides here: no game is asked of a gone agent.
            let (south, north) = (self.seat(pairing.south), self.seat(pairing.north));
            let place = InTournament { id: self.id, stage, replay: false };
            let played = game::forfeit(&self.shared, &south, &north, pairing.board, place, loser, &why).await;
            results.push((pairing, played));
        }
    }

    /// Marks the agents of `pairing`, a game that has ended, as out of a game (unless an agent
    /// is back on a new connection, which is in none).
    fn free(&mut self, pairing: Pairing) {
        for (player, connection) in [pairing.south, pairing.north].into_iter().zip(pairing.connections) {
            if let Player::Entrant(i) = player {
                if let Some(entrant) = self.entries[i].entrant() {
                    if Some(entrant.agent.connection) == connection {
                        entrant.busy = false;
                    }
                }
            }
        }
    }

    /// An agent joined: back on a new connection, or refused.
    fn join(&mut self, agent: Agent) {
        let key = key_of(&agent);
        let grace = self.config.grace;
        let Some(entry) = self.entries.iter_mut().find(|e| matches!(&e.kind, Kind::Agent(a) if a.key == key)) else {
            refuse(&agent, "the tournament has begun: no agent can join it now");
            return;
        };
        if let Some(why) = &entry.dropped {
            refuse(&agent, why);
            return;
        }
        let entrant = entry.entrant().expect("an agent");
        if entrant.agent.connection == agent.connection {
            // Back from a game on its connection: its game's end has said so already.
            return;
        }
        // Known to be gone (its game saw its connection end), it may be back before the old
        // connection has quite closed.
        if entrant.gone.is_none() && entrant.agent.alive() {
            refuse(&agent, "an agent with this token (or name, without a token) is already in the tournament");
            return;
        }
        let away = entrant.gone.map(|t| t.elapsed());
        entrant.agent = agent;
        entrant.busy = false;
        entrant.gone = None;
        let name = entrant.agent.name.clone();
        match away {
            Some(away) if away > grace => self.report(format!("{name} is back, after its grace")),
            Some(away) => self.report(format!("{name} is back after {:.1} s: its games go on", away.as_secs_f64())),
            None => self.report(format!("{name} is back")),
        }
    }

    /// Plays the games of stage `stage` and returns how each ended.
    async fn play(&mut self, stage: u32, mut pending: VecDeque<Pairing>) -> Result<Results, Stopped> {
        let mut stop = self.shared.stop.clone();
        let mut results = Vec::new();
        let (finished, mut finishes) = mpsc::unbounded_channel::<(Pairing, Played)>();
        let mut running = 0;
        // A connection that closes while its agent is between games says nothing: look now and then.
        let mut look = tokio::time::interval(Duration::from_secs(1));
        loop {
            self.notice_gone();
            self.forfeit(stage, &mut pending, &mut results).await;
            while running < self.config.parallel.max(1) {
                let Some(next) = pending.iter().position(|p| self.ready(p.south) && self.ready(p.north)) else { break };
                let mut pairing = pending.remove(next).expect("found");
                let (a, b) = (self.seat(pairing.south), self.seat(pairing.north));
                pairing.connections = [self.take(pairing.south), self.take(pairing.north)];
                let replay = !self.config.grace.is_zero() && pairing.replays < REPLAYS;
                let place = InTournament { id: self.id, stage, replay };
                let (shared, finished, guard) = (Arc::clone(&self.shared), finished.clone(), self.shared.running());
                running += 1;
                tokio::spawn(async move {
                    let played = game::play(shared, a, b, pairing.board, Some(place), guard).await;
                    let _ = finished.send((pairing, played));
                });
            }
            if pending.is_empty() && running == 0 {
                return Ok(results);
            }
            // The first time a gone agent's grace runs out.
            let grace = self.config.grace;
            let due = self
                .entries
                .iter()
                .filter_map(|e| match &e.kind {
                    Kind::Agent(entrant) if e.dropped.is_none() => entrant.gone.map(|t| t + grace),
                    _ => None,
                })
                .filter(|&t| t > Instant::now())
                .min();
            tokio::select! {
                agent = self.joins.recv() => match agent {
                    Some(agent) => self.join(agent),
                    None => return Err(Stopped),
                },
                Some((pairing, played)) = finishes.recv() => {
                    running -= 1;
                    self.free(pairing);
                    match played {
                        Played::Interrupted(side) => {
                            let (player, connection) = match side {
                                Side::South => (pairing.south, pairing.connections[0]),
                                Side::North => (pairing.north, pairing.connections[1]),
                            };
                            if let Player::Entrant(i) = player {
                                self.left(i, connection);
                            }
                            pending.push_front(Pairing { replays: pairing.replays + 1, connections: [None; 2], ..pairing });
                        }
                        played => results.push((pairing, played)),
                    }
                }
                _ = look.tick() => {}
                () = tokio::time::sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {}
                _ = stop.wait_for(|s| *s) => return Err(Stopped),
            }
        }
    }
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

    fn score(wins: u32, draws: u32, losses: u32) -> StageScore {
        StageScore { wins, draws, losses }
    }

    #[test]
    fn cuts_keep_whom_their_rules_say_and_ties_at_the_edge_go_on() {
        let scores = [score(3, 0, 1), score(1, 2, 1), score(1, 0, 3), score(2, 0, 2), score(0, 1, 3)];
        // go-kgp's: wins and draws at least the losses.
        assert_eq!(Cut::GoKgp.keep(&scores), [0, 1, 3]);
        // Points 3, 2, 1, 2, 0.5: the best 2 are 3 and the two level at 2.
        assert_eq!(Cut::Best(2).keep(&scores), [0, 1, 3]);
        assert_eq!(Cut::Best(1).keep(&scores), [0]);
        assert_eq!(Cut::Best(9).keep(&scores), [0, 1, 2, 3, 4]);
        // Half of 5, rounded up: 3.
        assert_eq!(Cut::Half.keep(&scores), [0, 1, 3]);
        assert_eq!(Cut::Half.keep(&scores[..2]), [0]);
        assert_eq!(Cut::Half.keep(&[]), Vec::<usize>::new());
        assert_eq!("go-kgp".parse::<Cut>(), Ok(Cut::GoKgp));
        assert_eq!("half".parse::<Cut>(), Ok(Cut::Half));
        assert_eq!("4".parse::<Cut>(), Ok(Cut::Best(4)));
        assert!("0".parse::<Cut>().unwrap_err().to_string().contains("is not a cut"));
        assert!("best".parse::<Cut>().is_err());
    }
}
