//! A game kept whole by a host with no database (the static site keeps each game in the
//! browser's storage): its id, how it began and every change ([`Kept`]), with the format's
//! number, so that a later kalah reads what an earlier one kept and a game kept by a newer one is
//! refused with words, not misread.

use kalah_rules::Record;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::event::{Change, Event, Moment};
use crate::start::Start;
use crate::table::Table;

/// The format this kalah writes.
pub const FORMAT: u32 = 1;

/// A game kept whole: rebuilt by [`Table::rebuild`] from its start and its events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kept {
    /// The format's number: [`FORMAT`].
    pub format: u32,
    /// The game's id.
    pub id: String,
    /// How the game began.
    pub start: Start,
    /// Every change since.
    pub events: Vec<Event>,
}

/// Why a kept game cannot be taken up again.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KeptError {
    /// The text is not a kept game.
    #[error("the kept game cannot be read: {0}")]
    Unreadable(String),
    /// A newer kalah kept it.
    #[error("the game was kept by a newer kalah (format {0}; this one reads up to {FORMAT}): open it there")]
    Newer(u32),
    /// Its changes do not replay.
    #[error("the kept game is damaged: {0}")]
    Damaged(String),
}

/// What the static site kept before [`FORMAT`] 1: the whole line as a record, the ply shown,
/// the seats (its clocks are not taken up).
#[derive(Deserialize)]
struct Earlier {
    id: String,
    record: String,
    ply: usize,
    seats: [String; 2],
}

impl Kept {
    /// Returns `table`, game `id`, kept whole: `start` is how it began, `events` every change.
    pub fn new(id: &str, start: Start, events: Vec<Event>) -> Kept {
        Kept { format: FORMAT, id: id.to_string(), start, events }
    }

    /// Reads a kept game's JSON (this format, or the static site's earlier one, taken up at `now`).
    pub fn read(text: &str, now: Moment) -> Result<Kept, KeptError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| KeptError::Unreadable(e.to_string()))?;
        match value.get("format").and_then(serde_json::Value::as_u64) {
            Some(format) if format > u64::from(FORMAT) => Err(KeptError::Newer(format as u32)),
            Some(_) => serde_json::from_value(value).map_err(|e| KeptError::Unreadable(e.to_string())),
            None => {
                let earlier: Earlier =
                    serde_json::from_value(value).map_err(|e| KeptError::Unreadable(e.to_string()))?;
                Kept::from_earlier(earlier, now)
            }
        }
    }

    /// Takes up a game the static site kept before [`FORMAT`] 1.
    fn from_earlier(earlier: Earlier, now: Moment) -> Result<Kept, KeptError> {
        let parsed = Record::parse(&earlier.record).map_err(|e| KeptError::Damaged(e.to_string()))?;
        let line = parsed.record.game;
        let start = Start {
            rules: line.rules().to_string(),
            position: line.start().to_string(),
            actions: line.actions().iter().map(ToString::to_string).collect(),
            seats: earlier.seats,
            clock: None,
            tokens: None,
            owner: None,
            creator: None,
            names: None,
            rated: false,
            at: now,
        };
        let mut events = Vec::new();
        if earlier.ply < line.actions().len() {
            events.push(Event { version: 1, at: now, change: Change::Goto { ply: earlier.ply }, request: None });
        }
        let kept = Kept::new(&earlier.id, start, events);
        kept.table()?;
        Ok(kept)
    }

    /// Rebuilds the game.
    pub fn table(&self) -> Result<Table, KeptError> {
        Table::rebuild(&self.start, &self.events).map_err(|e| KeptError::Damaged(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_games_read_back_and_newer_or_damaged_ones_are_refused_with_words() {
        let earlier = r#"{"id":"b1","record":"[Rules \"kalah(4,3) standard\"]\n\n1. 1 1\n*\n","ply":1,"seats":["human","engine:2"],"clock":null}"#;
        let kept = Kept::read(earlier, Moment(7)).unwrap();
        let table = kept.table().unwrap();
        assert_eq!((table.game().actions().len(), table.history().whole_line().actions().len()), (1, 2));
        let text = serde_json::to_string(&kept).unwrap();
        assert_eq!(Kept::read(&text, Moment(8)).unwrap(), kept);
        let newer = text.replace("\"format\":1", "\"format\":2");
        assert_eq!(Kept::read(&newer, Moment(8)), Err(KeptError::Newer(2)));
        assert!(matches!(Kept::read("{", Moment(8)), Err(KeptError::Unreadable(_))));
        let mut damaged = kept.clone();
        damaged.events[0].change = Change::Goto { ply: 9 };
        assert!(matches!(
            Kept::read(&serde_json::to_string(&damaged).unwrap(), Moment(8)).unwrap().table(),
            Err(KeptError::Damaged(_))
        ));
    }
}
