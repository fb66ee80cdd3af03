//! One connection: its lines, its protocol session ([`kalah_protocol::kgp::server::Session`]),
//! the timers the session asks for, the boards its games ask about, and its place in the lobby.
//! Whatever the client sends, only this connection is affected: a bad line gets the session's
//! answer and a line in the log, and a connection that ends answers its board and leaves.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use kalah_protocol::kgp::server::{Action, Activity, Answer, Close, ServerConfig, Session, Timer};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::event::Event;
use crate::lobby::{Agent, Ask, Back};
use crate::store::{now_millis, AgentKey, VerifyRun};
use crate::transport::Lines;
use crate::wish::Wish;
use crate::Shared;

/// The name of an agent that gives none.
const ANONYMOUS: &str = "anonymous";

/// What the connection keeps beside its session.
struct Connection {
    id: u64,
    shared: Arc<Shared>,
    /// The timers armed, one of each kind, with when they run out.
    timers: [Option<(Timer, Instant)>; 3],
    /// Where the answer to the board asked about goes.
    reply: Option<oneshot::Sender<Answer>>,
    /// Lines to send.
    out: Vec<String>,
    /// The agent's row, once it joined.
    agent: Option<i64>,
    games: u32,
    started: i64,
    /// A copy for the lobby's agents: boards come in here.
    asks: mpsc::Sender<Ask>,
    /// Games end here.
    done: mpsc::UnboundedSender<Back>,
    /// Why the server dropped the connection, said in the log instead of the session's "the
    /// connection ended".
    dropped: Option<String>,
}

impl Connection {
    fn report(&self, text: String) {
        self.shared.report(Event::Connection { id: self.id, text });
    }

    /// Carries out the session's actions (and those they lead to).
    async fn handle(&mut self, session: &mut Session, actions: Vec<Action>) {
        let mut queue: VecDeque<Action> = actions.into();
        while let Some(action) = queue.pop_front() {
            match action {
                Action::Send(message) => self.out.push(message.to_string()),
                Action::Arm(timer, after) => self.timers[timer.kind()] = Some((timer, Instant::now() + after)),
                Action::Answer(answer) => {
                    if let Some(reply) = self.reply.take() {
                        let _ = reply.send(answer);
                    }
                }
                Action::Join(identity) => {
                    let given = identity.name.clone().unwrap_or_default();
                    let wish = match Wish::parse(&given) {
                        Ok(wish) => wish,
                        Err(error) => {
                            let why = format!("info:name {given:?}: {error}");
                            queue.extend(session.reject(&why));
                            continue;
                        }
                    };
                    let name = if wish.name.is_empty() { ANONYMOUS.to_string() } else { wish.name.clone() };
                    let key = AgentKey {
                        token: identity.token.clone(),
                        bot: false,
                        name: name.clone(),
                        authors: identity.authors.clone(),
                        description: identity.description.clone(),
                    };
                    match self.shared.store.agent(key).await {
                        Ok(id) => {
                            self.agent = Some(id);
                            let asked = match (wish.opponent, wish.board) {
                                (None, None) => String::new(),
                                (opponent, board) => format!(
                                    ", asking for{}{}",
                                    opponent.map_or(String::new(), |b| format!(" {b}")),
                                    board.map_or(String::new(), |b| format!(" on {b}"))
                                ),
                            };
                            self.report(format!("{name} (agent {id}) plays freeplay{asked}"));
                            let agent = Agent {
                                id,
                                connection: self.id,
                                name,
                                token: identity.token,
                                wish,
                                asks: self.asks.clone(),
                                done: self.done.clone(),
                            };
                            let _ = self.shared.lobby.send(agent);
                        }
                        Err(error) => {
                            self.shared.report(Event::Trouble(error.to_string()));
                            queue.extend(session.reject("the server's database failed; try again later"));
                        }
                    }
                }
                Action::Verified(verdict) => {
                    if !verdict.right() {
                        self.report(format!("wrong solution: {verdict}"));
                    }
                }
                Action::Notice(notice) => self.report(notice.to_string()),
                Action::Close(Close::Dropped) if self.dropped.is_some() => {
                    let why = self.dropped.take().expect("checked");
                    self.report(format!("closed: {why}"));
                }
                Action::Close(why) => self.report(format!("closed: {why}")),
            }
        }
    }

    /// Returns the timer that runs out first.
    fn next_timer(&self) -> Option<(Timer, Instant)> {
        self.timers.iter().flatten().min_by_key(|(_, at)| *at).copied()
    }
}

/// Runs one connection to its end.
pub(crate) async fn run(shared: Arc<Shared>, id: u64, peer: SocketAddr, mut lines: Lines, transport: &str) {
    let (asks, mut boards) = mpsc::channel::<Ask>(1);
    let (done, mut ended_games) = mpsc::unbounded_channel::<Back>();
    let config = ServerConfig { seed: rand::random(), ..shared.config.session };
    let mut connection = Connection {
        id,
        shared: Arc::clone(&shared),
        timers: [None; 3],
        reply: None,
        out: Vec::new(),
        agent: None,
        games: 0,
        started: now_millis(),
        asks,
        done,
        dropped: None,
    };
    connection.report(format!("{transport} from {peer}"));
    let (mut session, mut actions) = Session::new(config);
    let mut stop = shared.stop.clone();
    let mut stopping = false;
    loop {
        connection.handle(&mut session, actions).await;
        if !connection.out.is_empty() {
            let out = std::mem::take(&mut connection.out);
            // A client that stops reading would hold up its game for ever: it is dropped instead.
            let wait = shared.config.write_wait;
            let why = match tokio::time::timeout(wait, lines.send(&out)).await {
                Ok(Ok(())) => None,
                Ok(Err(error)) => Some(format!("a write to it failed: {error}")),
                Err(_) => Some(format!("it stopped reading: a write waited {wait:?} for it, and it was dropped")),
            };
            if why.is_some() {
                connection.dropped = why;
                actions = session.close();
                continue;
            }
        }
        if session.is_closed() {
            break;
        }
        let timer = connection.next_timer();
        actions = tokio::select! {
            frame = lines.next() => match frame {
                Some(frame) => session.receive(&frame),
                None => {
                    connection.dropped = lines.why_ended().map(str::to_string);
                    session.close()
                }
            },
            Some(ask) = boards.recv() => {
                connection.reply = Some(ask.reply);
                session.request(ask.request)
            }
            Some(back) = ended_games.recv() => match back {
                Back::Played(agent) => {
                    connection.games += 1;
                    if shared.config.games.is_some_and(|n| connection.games >= n) || shared.stopping() {
                        session.goodbye()
                    } else {
                        let _ = shared.lobby.send(agent);
                        Vec::new()
                    }
                }
                Back::Finished => session.goodbye(),
                Back::Refused(why) => {
                    connection.report(format!("refused: {why}"));
                    session.reject(&why)
                }
            },
            _ = tokio::time::sleep_until(timer.map_or_else(Instant::now, |t| t.1)), if timer.is_some() => {
                let (timer, _) = timer.expect("checked");
                connection.timers[timer.kind()] = None;
                session.expire(timer)
            }
            _ = stop.wait_for(|s| *s), if !stopping => {
                stopping = true;
                session.goodbye()
            }
        };
    }
    // The agent is gone from now on, not once the goodbye below has been read: a tournament
    // sees it at once (an agent that comes back at once is not refused as one still here), and a
    // board asked meanwhile is answered as one of a connection that ended.
    boards.close();
    while boards.try_recv().is_ok() {}
    // What the client sends after goodbye is not read; give it a moment to read the goodbye.
    let _ = tokio::time::timeout(Duration::from_secs(1), lines.shut()).await;
    if session.activity() == Some(Activity::Verify) {
        let (right, wrong) = session.tally();
        if right + wrong > 0 {
            let identity = session.identity();
            let key = AgentKey {
                token: identity.token.clone(),
                bot: false,
                name: identity.name.clone().unwrap_or_else(|| ANONYMOUS.to_string()),
                authors: identity.authors.clone(),
                description: identity.description.clone(),
            };
            let first_wrong = session.first_wrong().map(ToString::to_string);
            let stored = match shared.store.agent(key).await {
                Ok(agent) => {
                    shared
                        .store
                        .verify(VerifyRun { agent, started: connection.started, right, wrong, first_wrong })
                        .await
                }
                Err(error) => Err(error),
            };
            if let Err(error) = stored {
                shared.report(Event::Trouble(error.to_string()));
            }
        }
        connection.report(format!("verified {} solutions, {right} right, {wrong} wrong", right + wrong));
    }
}
