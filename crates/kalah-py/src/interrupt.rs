//! Long work with the GIL released, stopped by Ctrl-C: the work runs on a thread of its own while
//! the calling thread waits for it, looking at Python's signals every few milliseconds. A
//! KeyboardInterrupt (or any exception a signal handler raises) sets the work's stop flag; the
//! work ends at its next look at the flag, and the exception is raised once it has. The package
//! installs no signal handler of its own: Python's handlers run as they always do.
//!
//! What the work tells on the way (each depth of a search, say) goes to `tick`, which runs with
//! the GIL on the calling thread while the work waits for its answer: false stops the work there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::error;

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(20);

/// What the work thread sends to the waiting one.
enum Event<M> {
    /// Something the work tells on the way, and where to answer whether it goes on.
    Told(M, mpsc::Sender<bool>),
    /// The work is done.
    Done,
}

/// Runs `job` with the GIL released on a thread of its own, until it ends. `job` gets the stop
/// flag and a function to tell the waiting thread things, which returns whether to go on; `tick`
/// hears each thing told (the job waits for its answer), and is called with `None` every
/// 20 ms (`POLL`) while the job runs: it returns false to stop the job, or an error to stop it and
/// raise that error. A signal handler's exception (KeyboardInterrupt) stops the job the same way.
pub fn run<T, M>(
    py: Python<'_>,
    job: impl FnOnce(&AtomicBool, &(dyn Fn(M) -> bool + Sync)) -> T + Send,
    mut tick: impl FnMut(Python<'_>, Option<M>) -> PyResult<bool> + Send,
) -> PyResult<T>
where
    T: Send,
    M: Send,
{
    py.detach(|| {
        let stop = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<Event<M>>();
        let done = sender.clone();
        let mut failure: Option<PyErr> = None;
        let outcome = std::thread::scope(|scope| {
            let stop = &stop;
            let worker = scope.spawn(move || {
                let sender = std::sync::Mutex::new(sender);
                let tell = move |message: M| {
                    let (answer, answered) = mpsc::channel();
                    let sent = sender.lock().unwrap_or_else(|e| e.into_inner()).send(Event::Told(message, answer));
                    sent.is_ok() && answered.recv().unwrap_or(false)
                };
                let out = job(stop, &tell);
                let _ = done.send(Event::Done);
                out
            });
            loop {
                let (told, answer) = match receiver.recv_timeout(POLL) {
                    Ok(Event::Done) | Err(RecvTimeoutError::Disconnected) => break,
                    Ok(Event::Told(message, answer)) => (Some(message), Some(answer)),
                    Err(RecvTimeoutError::Timeout) => (None, None),
                };
                let go_on = failure.is_none()
                    && match Python::attach(|py| py.check_signals().and_then(|()| tick(py, told))) {
                        Ok(go_on) => go_on,
                        Err(e) => {
                            failure = Some(e);
                            false
                        }
                    };
                if !go_on {
                    stop.store(true, Ordering::Relaxed);
                }
                if let Some(answer) = answer {
                    let _ = answer.send(go_on);
                }
            }
            worker.join()
        });
        match (failure, outcome) {
            (Some(e), _) => Err(e),
            (None, Ok(out)) => Ok(out),
            (None, Err(panic)) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(error::bad(format!("internal error: the work thread failed ({why}); please report it")))
            }
        }
    })
}
