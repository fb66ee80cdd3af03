//! The rules of Kalah(m,n) and its variants.
//!
//! * [`Rules`]: the board size and every variant as data, with named presets.
//! * [`Position`] and [`Move`]: small `Copy` values; [`Position::play`] checks a move,
//!   [`Position::play_unchecked`] is the search's fast path, and [`Position::sow_path`] gives
//!   the same sowing seed by seed ([`Step`]) for a page to animate.
//! * [`Setup`]: an unchecked position; [`Position::from_setup`] checks it.
//! * [`notation`]: the position notation and KGP board literals, read into a `Setup`.
//! * [`Game`]: a game with its history, the pie rule and the handicap opening; who decides now
//!   and which [`Seat`] plays which side after a swap.
//! * [`History`]: a game with the actions taken back, to replay them or show any ply.
//! * [`record`]: the game record format, read and written.
//! * [`Score`]: a value for one player, in hundredths of a seed, proven or estimated, as every
//!   engine, protocol and front end states it.
//! * [`perft()`]: counts of move sequences, to test the rules.
//! * [`CompactPosition`]: a position in two words with a sowing specialised for counter-clockwise
//!   single-lap games on boards up to Kalah(7,n): the fast path of random playouts.
//! * [`chain`]: chains of extra moves: the rows one turn can clear (Tchoukaillon), and the longest
//!   chain from a position.
//!
//! ```
//! use kalah_rules::{Position, Rules};
//! let rules = Rules::default(); // Kalah(6,6), standard rules
//! let mut position = Position::start(&rules);
//! while !position.is_over(&rules) {
//!     let mv = position.legal_moves().next().unwrap();
//!     position = position.play_unchecked(&rules, mv);
//! }
//! assert_eq!(position.store(kalah_rules::Side::South) + position.store(kalah_rules::Side::North), 72);
//! ```

pub mod chain;
pub mod compact;
pub mod error;
pub mod game;
pub mod history;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod rules;
pub mod score;
pub mod setup;
pub mod side;

pub use compact::CompactPosition;
pub use error::{NotationError, PlayError, PositionError, RulesError};
pub use game::{Action, ActionError, Game, Phase, Seat};
pub use history::{History, HistoryError};
pub use perft::{divide, perft};
pub use position::{Move, MoveSet, Outcome, Position, Step};
pub use record::{Parsed, Record, RecordError, RecordWarning};
pub use rules::{Capture, Direction, GameEnd, Leftover, Rules, Sowing};
pub use score::Score;
pub use setup::Setup;
pub use side::{ByPlayer, Side};
