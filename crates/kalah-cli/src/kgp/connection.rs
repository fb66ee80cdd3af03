//! One connection to a KGP server: the threads and the engine's searches around the protocol's
//! [`Session`], which decides and writes every line.
//!
//! A reader thread turns the connection's bytes into lines; this thread hands them to the session
//! in order, so `ping` and `stop` are handled at once even while a search runs. The search
//! thread's reports go through the same session under the same lock as the lines written, so
//! once the session has handled a `stop`, no answer to that `state` can follow on the wire.

use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::{anyhow, Result};
use kalah_engine::search::{Clock, Limits};
use kalah_protocol::kgp::{Action, Config, End, Message, Progress, SearchId, Session, Think, MAX_LINE};
use kalah_protocol::{Frame, LineReader};

use super::notice;
use super::transport::{Link, Outgoing};
use super::worker::{Job, Worker};

/// How a connection ended, when not by a fatal error.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// The server said `goodbye`.
    Goodbye,
    /// The connection closed or failed without a `goodbye`.
    Dropped(String),
}

/// The result of a connection that ended without a fatal error.
#[derive(Debug)]
pub struct Report {
    /// How it ended.
    pub end: Closed,
    /// The server sent work (a `state` or a `problem`): the connection was good, so the back-off
    /// starts again from its shortest delay.
    pub worked: bool,
}

/// Lines read ahead of the session at most: a server that floods the client while the session
/// waits to write is held back by the socket instead of filling memory.
const READ_AHEAD: usize = 64;

enum Incoming {
    Frame(Frame),
    Closed(String),
}

/// The session and the writing half of the connection, shared by this thread and the search thread.
pub struct Connection {
    inner: Mutex<Inner>,
}

struct Inner {
    session: Session,
    outgoing: Outgoing,
    verbose: bool,
}

impl Inner {
    fn write(&mut self, message: &Message) -> std::io::Result<()> {
        let line = message.to_string();
        if self.verbose {
            notice(&format!("> {line}"));
        }
        self.outgoing.send(&line)
    }
}

impl Connection {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the session what search `search` reports and sends the lines it answers with
    /// (none once the session has stopped that search).
    pub fn progress(&self, search: SearchId, progress: Progress) -> std::io::Result<()> {
        let mut inner = self.lock();
        for line in inner.session.progress(search, progress) {
            inner.write(&line)?;
        }
        Ok(())
    }

    /// Hands a line to the session, writes the lines it answers with and prints its notices;
    /// returns its other actions and whether the writing failed.
    fn receive(&self, frame: &Frame) -> (Vec<Action>, std::io::Result<()>) {
        let mut inner = self.lock();
        let mut written = Ok(());
        let mut rest = Vec::new();
        for action in inner.session.receive(frame) {
            match action {
                Action::Send(line) => {
                    if written.is_ok() {
                        written = inner.write(&line);
                    }
                }
                // Printed here, in the session's order among the lines it sends.
                Action::Notice(text) => notice(&text.to_string()),
                other => rest.push(other),
            }
        }
        (rest, written)
    }
}

/// The search running, and its stop flag.
struct Running {
    search: SearchId,
    stop: Arc<AtomicBool>,
}

impl Running {
    fn stop(running: &mut Option<Running>, search: SearchId) {
        if let Some(r) = running.take_if(|r| r.search == search) {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs a session on a connection until `goodbye`, the end of the connection, or a fatal error
/// (no KGP server, or a protocol version or mode the two sides do not share).
pub fn run(link: Link, config: &Config, verbose: bool, worker: &Worker) -> Result<Report> {
    let Link { incoming: reading, outgoing, ender } = link;
    let session = Session::new(config.clone());
    let connection = Arc::new(Connection { inner: Mutex::new(Inner { session, outgoing, verbose }) });
    let (lines, incoming) = mpsc::sync_channel(READ_AHEAD);
    let reader = std::thread::spawn(move || read_lines(reading, &lines));
    let mut running = None;
    let result = serve(&connection, &incoming, worker, verbose, &mut running);
    for action in connection.lock().session.close() {
        if let Action::Stop(search) = action {
            Running::stop(&mut running, search);
        }
    }
    // Ends the reader thread, which may still wait for a line or for room in the queue.
    ender.end();
    drop(incoming);
    let _ = reader.join();
    let worked = connection.lock().session.worked();
    result.map(|end| Report { end, worked })
}

fn serve(
    connection: &Arc<Connection>,
    incoming: &mpsc::Receiver<Incoming>,
    worker: &Worker,
    verbose: bool,
    running: &mut Option<Running>,
) -> Result<Closed> {
    for event in incoming {
        let frame = match event {
            Incoming::Closed(why) => return Ok(Closed::Dropped(why)),
            Incoming::Frame(frame) => frame,
        };
        if verbose {
            match &frame {
                Frame::Line(bytes) => notice(&format!("< {}", String::from_utf8_lossy(bytes))),
                Frame::TooLong { start, .. } => notice(&format!("< {}…", String::from_utf8_lossy(start))),
            }
        }
        let (actions, written) = connection.receive(&frame);
        let mut end = None;
        for action in actions {
            match action {
                // Written under the session's lock already.
                Action::Send(_) => {}
                Action::Think(think) if written.is_ok() => start(connection, worker, think, running),
                Action::Think(_) => {}
                Action::Stop(search) => Running::stop(running, search),
                Action::Notice(_) => {}
                Action::End(End::Goodbye) => end = Some(Closed::Goodbye),
                Action::End(End::Fatal(fatal)) => return Err(anyhow!(fatal)),
            }
        }
        if let Err(e) = written {
            return Ok(Closed::Dropped(format!("cannot write to the server: {e}")));
        }
        if let Some(end) = end {
            return Ok(end);
        }
    }
    Ok(Closed::Dropped("the connection closed".into()))
}

/// Hands a search to the search thread.
fn start(connection: &Arc<Connection>, worker: &Worker, think: Think, running: &mut Option<Running>) {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        time: Some(think.time),
        clock: think.clock.map(|remaining| Clock { remaining, increment: Duration::ZERO }),
        ..Limits::default()
    };
    *running = Some(Running { search: think.search, stop: stop.clone() });
    worker.submit(Job {
        search: think.search,
        position: think.position,
        rules: think.rules,
        limits,
        stop,
        out: connection.clone(),
    });
}

/// Reads lines until the connection ends, each kept to [`MAX_LINE`] bytes (a longer one is
/// reported as too long, without holding it in memory).
fn read_lines(stream: Box<dyn Read + Send>, lines: &mpsc::SyncSender<Incoming>) {
    let mut reader = BufReader::new(stream);
    let mut framer = LineReader::new(MAX_LINE);
    loop {
        let event = match framer.read_from(&mut reader) {
            Ok(Some(frame)) => Incoming::Frame(frame),
            Ok(None) => Incoming::Closed("the server closed the connection".into()),
            Err(e) => Incoming::Closed(format!("the connection failed: {e}")),
        };
        let last = matches!(event, Incoming::Closed(_));
        if lines.send(event).is_err() || last {
            return;
        }
    }
}
