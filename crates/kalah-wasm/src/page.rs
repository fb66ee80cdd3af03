//! The game a page holds with no server: a [`Table`] of kalah-table's, the one `kalah serve`
//! holds its games in, kept whole ([`Kept`]) for the browser's storage. Every request goes
//! through the table as at a server, with the page as the game's only client.

use kalah_course::trace::{self, Query, Searches};
use kalah_table::kept::{Kept, KeptError};
use kalah_table::request::Command;
use kalah_table::route::Route;
use kalah_table::turn::EngineTurn;
use kalah_table::{request, Actor, Analysis, Event, GameState, Moment, Refused, Start, Table};

/// One game the page holds, with every change since it began.
#[derive(Debug)]
pub struct Page {
    id: String,
    table: Table,
    start: Start,
    events: Vec<Event>,
    /// What loading its record warned of (said in the answer that starts it).
    warnings: Vec<String>,
}

impl Page {
    /// Starts the game a new-game request body asks for at `now`, under the id `id`.
    pub fn create(id: &str, body: &str, now: Moment) -> Result<Page, Refused> {
        let created = request::create(body.as_bytes(), now, None)?;
        let start = created.table.start();
        let warnings = created.warnings.iter().map(ToString::to_string).collect();
        let mut page = Page { id: id.to_string(), table: created.table, start, events: Vec::new(), warnings };
        page.settle();
        Ok(page)
    }

    /// Takes up a game kept by [`Page::keep`] (or by an earlier static site) at `now`.
    pub fn restore(text: &str, now: Moment) -> Result<Page, KeptError> {
        let kept = Kept::read(text, now)?;
        let table = kept.table()?;
        Ok(Page { id: kept.id, table, start: kept.start, events: kept.events, warnings: Vec::new() })
    }

    /// Returns the game kept whole, as JSON.
    pub fn keep(&self) -> String {
        serde_json::to_string(&Kept::new(&self.id, self.start.clone(), self.events.clone())).unwrap_or_default()
    }

    /// Moves the table's new changes into the page's log.
    fn settle(&mut self) {
        self.events.extend(self.table.unsaved().1.iter().cloned());
        self.table.mark_saved();
    }

    /// Returns the game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Returns the table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Answers a request of `route` with `body` at `now` (a move, an undo, a redo, a goto, the
    /// screen's shown); the other routes are the engine's or need no change.
    pub fn request(&mut self, route: Route, body: &str, now: Moment) -> Result<(), Refused> {
        // A takeback is asked of an opponent, whom this page does not have.
        let command = match route {
            Route::Takeback => None,
            route => Command::read(route, body.as_bytes()),
        };
        let done = match command {
            Some(command) => command.and_then(|command| self.table.handle(Actor::Person, command, now)),
            None => Err(Refused::Bad(format!("{route:?} changes no game at this page"))),
        };
        self.settle();
        done
    }

    /// Returns the state at `now`, with what loading the game's record warned of.
    pub fn state(&self, now: Moment) -> GameState {
        let mut state = self.table.state(&self.id, now);
        state.view.warnings = self.warnings.clone();
        state
    }

    /// Lets the engine's move begin at `now`: what the worker is to search.
    pub fn engine_turn(&mut self, now: Moment) -> Result<EngineTurn, Refused> {
        let turn = self.table.engine_turn(Actor::Person, now);
        self.settle();
        turn
    }

    /// Plays the action the worker decided for the game at `version`, at `now`.
    pub fn play_engine(&mut self, version: u64, action: &str, now: Moment) -> Result<(), Refused> {
        let action = self.table.game().parse_action(action).map_err(|e| Refused::Bad(e.to_string()))?;
        let done = self.table.play_engine_move(version, action, now);
        self.settle();
        done
    }

    /// Returns the analysis kept for the game as it is now, if the worker gave one.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.table.analysis()
    }

    /// Keeps the analysis the worker gave (its JSON) for the version it is of; one of a game
    /// changed since is refused ([`Refused::Changed`]).
    pub fn keep_analysis(&mut self, text: &str) -> Result<(), Refused> {
        let analysis: Analysis = serde_json::from_str(text).map_err(|e| Refused::Bad(e.to_string()))?;
        self.table.keep_analysis(analysis.version, analysis)
    }

    /// Ends the engine's thinking for `version` (its worker failed).
    pub fn stop_thinking(&mut self, version: u64) {
        self.table.stop_thinking(version);
    }

    /// Ends the game at `now` if a clock ran out; returns whether the game changed.
    pub fn check_time(&mut self, now: Moment) -> bool {
        let version = self.table.version();
        self.table.check_time(now);
        self.settle();
        self.table.version() != version
    }

    /// Draws the assignment's searches on the position shown as `query` asks (kalah-course's
    /// [`kalah_course::trace::Query`]), with the averages over the game so far.
    pub fn searches(&self, query: &str) -> Result<Searches, Refused> {
        let query = Query::parse(query).map_err(|e| Refused::Bad(e.to_string()))?;
        trace::searches(self.table.game(), query.depth, query.search, query.eval)
            .map_err(|e| Refused::Bad(e.to_string()))
    }

    /// Returns the game record up to the ply shown, dated `date` (`YYYY.MM.DD`).
    pub fn record(&self, date: &str, now: Moment) -> String {
        self.table.facts(&self.id, now).record(date).to_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_keeps_its_game_whole_and_takes_it_up_again() {
        let t = Moment(1_000);
        let mut page =
            Page::create("b1", r#"{"rules": "kalah(4,3)", "south": "human", "north": "engine:2"}"#, t).unwrap();
        page.request(Route::Move, r#"{"action": 1}"#, t).unwrap();
        let turn = page.engine_turn(t).unwrap();
        page.play_engine(turn.version, "2", t).unwrap();
        page.request(Route::Undo, "", t).unwrap();
        let back = Page::restore(&page.keep(), t).unwrap();
        assert_eq!(back.state(t), page.state(t));
        assert_eq!(
            Page::create("b2", r#"{"friend": true}"#, t).unwrap_err(),
            Refused::NoFriends,
            "no one holds the other seat"
        );
        assert!(matches!(page.request(Route::Move, "{", t), Err(Refused::Bad(_))));
        let drawn = page.searches("search=ordered&depth=2").unwrap();
        assert_eq!((drawn.tree.unwrap().nodes[0].depth, drawn.game.positions), (2, 1));
        assert!(matches!(page.searches("depth=9"), Err(Refused::Bad(e)) if e.contains("1 to 6")));
    }

    #[test]
    fn a_page_keeps_the_workers_analysis_for_its_version_only() {
        let t = Moment(1_000);
        let mut page = Page::create("b1", r#"{"rules": "kalah(4,3)"}"#, t).unwrap();
        let game = page.table().game().clone();
        let text = serde_json::to_string(&Analysis::unsearched(&game, page.table().version())).unwrap();
        assert!(page.analysis().is_none());
        page.keep_analysis(&text).unwrap();
        assert_eq!(serde_json::to_string(page.analysis().unwrap()).unwrap(), text, "read back as written");
        page.request(Route::Move, r#"{"action": 1}"#, t).unwrap();
        assert!(page.analysis().is_none(), "the game changed");
        assert_eq!(page.keep_analysis(&text), Err(Refused::Changed));
        assert!(matches!(page.keep_analysis("{}"), Err(Refused::Bad(_))));
    }
}
