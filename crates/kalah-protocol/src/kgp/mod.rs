//! The Kalah Game Protocol (KGP 1.0.1 and the 1.1.0 draft's verify mode), from the client's side
//! and from the server's, as the KWARC tournament server (go-kgp) speaks it.
//!
//! * [`message`]: one line of the protocol, read and written.
//! * [`progress`]: what a search reports to the session, in the protocol's own types.
//! * [`session`]: one connection as a state machine: lines and the search's reports in, actions
//!   and lines out.
//! * [`server`]: one connection from the server's side: the client's lines, the boards to ask
//!   about and the timers in, lines, answers and verdicts out.

pub mod message;
pub mod progress;
pub mod server;
pub mod session;

pub use message::{Arg, Message, MessageError, MAX_LINE};
pub use progress::Progress;
pub use session::{Action, Config, End, Fatal, Mode, Notice, Refusal, SearchId, Session, Think};
