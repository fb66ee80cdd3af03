//! The Kalah engine and rules for a browser or Node: the game a page holds, the engine its Web
//! Worker runs, and a search and an exact solve behind a small JSON API.
//!
//! This crate builds `kalah-rules` and `kalah-engine` without their default features (one thread,
//! no file system, no memory mapping) for `wasm32-unknown-unknown` and exports them with
//! wasm-bindgen. The npm package `kalah` (`npm/`, docs/npm.md) wraps the exports in an ES module
//! for Node and browsers that takes and returns objects; the page of the static site
//! (docs/site.md) loads it twice: in the page for the rules, in a Web Worker for the engine.
//!
//! * [`page`]: the game a page holds with no server ([`page::Page`]): a table of the crate
//!   kalah-table's, the one `kalah serve` holds its games in (seats, undo, redo, goto, clocks,
//!   records in and out, who may act, the requests and their refusals), kept whole for the
//!   browser's storage; exported as the class `Game`, with the API's routes as `route`.
//! * [`engine`]: the worker's engine ([`engine::PageEngine`]): engine moves at the levels 1-5,
//!   hints, the evaluation and a solve within a budget, as `kalah serve` gives them, and the
//!   benchmark; exported as the class `Engine` and the function `bench`.
//! * `searches(rules, position, query)`: the course's searches drawn ([`searches`]), also
//!   a method of `Game` for the position shown, with the averages over the game so far.
//! * `search(rules, position, depth)` and `solve(rules, position)`, each taking the rules' text
//!   (`kalah(6,4)`, as [`Rules`] reads it) and a position in the position notation (or `start`),
//!   and returning a JSON object ([`SearchReport`], [`SolveReport`]). Every call starts from empty
//!   tables of [`TABLE_BYTES`], so the same call gives the same nodes anywhere: `.ci/wasm` checks
//!   that the npm package run in Node gives the values and node counts of the native `kalah
//!   analyze` and `kalah solve`.
//!
//! Every function and method takes and returns JSON text, or throws an `Error` whose message says
//! what is wrong with the input. The same functions are plain Rust natively, where the tests run.

pub mod engine;
pub mod page;

use std::time::Duration;

use kalah_course::trace::{self, Query, QueryError, Searches, TraceError};
use kalah_engine::score::Score;
use kalah_engine::search::{Engine, Info, Limits, Options, MAX_DEPTH};
use kalah_engine::solver::Solver;
use kalah_rules::{Game, Position, PositionError, Rules, RulesError};
use serde::Serialize;
use thiserror::Error;

/// The table every call searches with: the engine's default, 16 MiB (`kalah analyze --hash 16`
/// and `kalah solve --hash 16` search the same). A solve gives an eighth of it to its estimate.
pub const TABLE_BYTES: usize = kalah_engine::search::DEFAULT_TABLE_BYTES;

/// What is wrong with a call's input.
#[derive(Debug, Error)]
pub enum ApiError {
    /// The rules' text cannot be read.
    #[error("rules {text:?}: {source}")]
    Rules {
        /// The text given.
        text: String,
        /// Why it cannot be read.
        source: RulesError,
    },
    /// The position cannot be read under the rules.
    #[error("position {text:?}: {source}")]
    Position {
        /// The text given.
        text: String,
        /// Why it cannot be read.
        source: PositionError,
    },
    /// A depth the search does not take.
    #[error("depth {0} is out of range: 1 to {MAX_DEPTH} sowings")]
    Depth(u32),
    /// A query of the drawn searches that cannot be read.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A search that is not drawn (too deep, too many calls).
    #[error(transparent)]
    Trace(#[from] TraceError),
}

/// What a search found: the reply of `search`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchReport {
    /// The position searched, in the position notation.
    pub position: String,
    /// The side to move: `South` or `North`.
    pub side: String,
    /// The best move, a house number from 1, or `None` when the game is over.
    pub best: Option<u8>,
    /// The value for the side to move, in seeds: its final store difference, exact or estimated.
    pub value: f64,
    /// Whether the value is proven.
    pub exact: bool,
    /// The deepest completed iteration, in sowings (0 when the game is over).
    pub depth: u32,
    /// The principal variation, as house numbers.
    pub pv: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub millis: u64,
}

/// What a solve proved: the reply of `solve`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// The rules, as [`Rules`] writes them.
    pub rules: String,
    /// The position solved, in the position notation.
    pub position: String,
    /// The side to move: `South` or `North`.
    pub side: String,
    /// The exact value for the side to move: its final store difference with perfect play.
    pub value: i32,
    /// A best move, a house number from 1, or `None` when the game is over.
    pub best: Option<u8>,
    /// A perfect line, as house numbers.
    pub line: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the solve took.
    pub seconds: f64,
}

/// Reads the rules and the position (`start` for the rules' start).
fn read(rules: &str, position: &str) -> Result<(Rules, Position), ApiError> {
    let parsed: Rules = rules.parse().map_err(|source| ApiError::Rules { text: rules.to_string(), source })?;
    let position = match position.trim() {
        "start" => Position::start(&parsed),
        text => Position::parse(text, &parsed)
            .map_err(|source| ApiError::Position { text: position.to_string(), source })?,
    };
    Ok((parsed, position))
}

/// Returns what a search or a solve of a finished game says: its final store difference for the
/// mover, exact, with no move, no line and no nodes.
fn finished(position: &Position, rules: &Rules) -> Info {
    Info {
        depth: 0,
        score: Score::exact_seeds(position.final_difference(rules) * position.mover().sign()),
        best: None,
        pv: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}

/// Searches `position` under `rules` to `depth` sowings on one thread, from an empty table.
///
/// # Errors
///
/// If the rules or the position cannot be read, or the depth is not 1 to [`MAX_DEPTH`].
pub fn search(rules: &str, position: &str, depth: u32) -> Result<SearchReport, ApiError> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(ApiError::Depth(depth));
    }
    let (rules, position) = read(rules, position)?;
    let report = |info: &Info| SearchReport {
        position: position.to_string(),
        side: position.mover().name().to_string(),
        best: info.best.map(|m| m.number()),
        value: info.score.seeds(),
        exact: info.score.is_exact(),
        depth: info.depth,
        pv: info.pv.iter().map(|m| m.number()).collect(),
        nodes: info.nodes,
        millis: info.elapsed.as_millis() as u64,
    };
    if position.is_over(&rules) {
        return Ok(report(&finished(&position, &rules)));
    }
    let engine = Engine::new(Options { table_bytes: TABLE_BYTES, threads: 1, ..Options::default() });
    Ok(report(&engine.search(&position, &rules, Limits::depth(depth), None, |_| {})))
}

/// Solves `position` under `rules` exactly on one thread, without an endgame database, from
/// empty tables.
///
/// # Errors
///
/// If the rules or the position cannot be read.
pub fn solve(rules: &str, position: &str) -> Result<SolveReport, ApiError> {
    let (rules, position) = read(rules, position)?;
    let report = |info: &Info| SolveReport {
        rules: rules.to_string(),
        position: position.to_string(),
        side: position.mover().name().to_string(),
        // A proven value is a whole number of seeds.
        value: info.score.seeds().round() as i32,
        best: info.best.map(|m| m.number()),
        line: info.pv.iter().map(|m| m.number()).collect(),
        nodes: info.nodes,
        seconds: info.elapsed.as_secs_f64(),
    };
    if position.is_over(&rules) {
        return Ok(report(&finished(&position, &rules)));
    }
    let solver = Solver::new(Options { table_bytes: TABLE_BYTES, threads: 1, ..Options::default() });
    // Nothing can set the stop, so the solve runs to the end.
    let info = solver
        .solve(&position, &rules, None, Limits::default(), None, |_, _| {})
        .expect("a solve nobody stops finishes");
    Ok(report(&info))
}

/// Draws the assignment's searches on `position` under `rules` as `query` asks
/// (`search=alphabeta&depth=3&eval=tuned`, kalah-course's [`Query`]): the tree, the three
/// searches' Max and Min calls side by side, and (over this one position) their averages.
///
/// # Errors
///
/// If the rules, the position or the query cannot be read, or the search is not drawn (deeper
/// than [`trace::MAX_DEPTH`], more calls than [`trace::MAX_NODES`]).
pub fn searches(rules: &str, position: &str, query: &str) -> Result<Searches, ApiError> {
    let query = Query::parse(query)?;
    let (rules, position) = read(rules, position)?;
    Ok(trace::searches(&Game::from_position(rules, position), query.depth, query.search, query.eval)?)
}

/// The functions and classes a script calls: each returns JSON text, or throws an `Error` saying
/// what is wrong with the input.
#[cfg(target_arch = "wasm32")]
mod exports {
    use kalah_table::route::{self, Hosts, Missed};
    use kalah_table::turn::Snapshot;
    use kalah_table::{Moment, Refused};
    use wasm_bindgen::prelude::*;

    use crate::engine::{self, PageEngine};
    use crate::page::Page;

    /// Turns a report or an error into what JavaScript gets.
    fn reply<T: serde::Serialize, E: std::fmt::Display>(result: Result<T, E>) -> Result<String, JsError> {
        let report = result.map_err(|e| JsError::new(&e.to_string()))?;
        serde_json::to_string(&report).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Reads a request's JSON.
    fn read<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, JsError> {
        serde_json::from_str(text).map_err(|e| JsError::new(&format!("cannot read the {what}: {e}")))
    }

    /// `search(rules, position, depth)`: the search's report as JSON (see `SearchReport`).
    #[wasm_bindgen]
    pub fn search(rules: &str, position: &str, depth: u32) -> Result<String, JsError> {
        reply(super::search(rules, position, depth))
    }

    /// `solve(rules, position)`: the solve's report as JSON (see `SolveReport`).
    #[wasm_bindgen]
    pub fn solve(rules: &str, position: &str) -> Result<String, JsError> {
        reply(super::solve(rules, position))
    }

    /// `searches(rules, position, query)`: the assignment's searches drawn, as JSON (see `Searches`).
    #[wasm_bindgen]
    pub fn searches(rules: &str, position: &str, query: &str) -> Result<String, JsError> {
        reply(super::searches(rules, position, query))
    }

    /// `variants()`: the sizes, presets, rule words and levels of the new-game form, as JSON.
    #[wasm_bindgen]
    pub fn variants() -> String {
        kalah_table::form::variants().to_string()
    }

    /// `bench(depth)`: `kalah bench`'s positions searched to `depth` on one thread, as JSON.
    #[wasm_bindgen]
    pub fn bench(depth: u32) -> Result<String, JsError> {
        reply(engine::run_bench(depth))
    }

    /// Says a refusal as `STATUS message`, the status kalah-table gives it, and on a line of its
    /// own the catalogs' message for a person, `{"code": …, "args": …}` (the npm package's
    /// wrapper reads them into a `KalahError`).
    fn refused(refused: Refused) -> JsError {
        let said = refused.said();
        let named = match said.args.is_empty() {
            true => serde_json::json!({ "code": said.id }),
            false => serde_json::json!({ "code": said.id, "args": said.args_json() }),
        };
        JsError::new(&format!("{} {refused}\n{named}", refused.status()))
    }

    /// Finds the route of `method` and `path` at this page: `{"route": "move", "id": "…"}`, or
    /// throws `404 …` or `405 …`.
    #[wasm_bindgen]
    pub fn route(method: &str, path: &str) -> Result<String, JsError> {
        match route::find(method, path, Hosts::Page) {
            Ok(found) => Ok(serde_json::json!({ "route": found.route, "id": found.id }).to_string()),
            Err(Missed::NotFound) => {
                Err(JsError::new(&format!("404 no such request in this browser: {method} {path}")))
            }
            Err(Missed::NotAllowed(methods)) => {
                Err(JsError::new(&format!("405 {method} is not taken at {path}: use {methods}")))
            }
        }
    }

    /// A game the page holds (`page::Page`).
    #[wasm_bindgen(js_name = Game)]
    pub struct Game(Page);

    #[wasm_bindgen(js_class = Game)]
    impl Game {
        /// Starts the game a new-game request body asks for.
        #[wasm_bindgen(constructor)]
        pub fn new(id: &str, body: &str) -> Result<Game, JsError> {
            Page::create(id, body, Moment::now()).map(Game).map_err(refused)
        }

        /// Takes up a game `save` kept.
        pub fn restore(kept: &str) -> Result<Game, JsError> {
            Page::restore(kept, Moment::now()).map(Game).map_err(|e| JsError::new(&e.to_string()))
        }

        /// The state's JSON.
        pub fn state(&self) -> String {
            serde_json::to_string(&self.0.state(Moment::now())).unwrap_or_default()
        }

        /// The game's version.
        pub fn version(&self) -> f64 {
            self.0.table().version() as f64
        }

        /// Answers a change of route `route` (`move`, `undo`, `redo`, `goto`, `shown`) with its body.
        pub fn request(&mut self, route: &str, body: &str) -> Result<(), JsError> {
            let route = serde_json::from_value(serde_json::Value::String(route.to_string()))
                .map_err(|_| JsError::new(&format!("400 no such change: {route}")))?;
            self.0.request(route, body, Moment::now()).map_err(refused)
        }

        /// Lets the engine's move begin: the worker's task as JSON.
        pub fn engine_turn(&mut self) -> Result<String, JsError> {
            let turn = self.0.engine_turn(Moment::now()).map_err(refused)?;
            Ok(serde_json::to_string(&turn).unwrap_or_default())
        }

        /// Plays the engine's action for `version`.
        pub fn play_engine(&mut self, version: f64, action: &str) -> Result<(), JsError> {
            self.0.play_engine(version as u64, action, Moment::now()).map_err(refused)
        }

        /// Ends the engine's thinking for `version` (the worker failed).
        pub fn stop_thinking(&mut self, version: f64) {
            self.0.stop_thinking(version as u64);
        }

        /// The game as the worker rebuilds it.
        pub fn snapshot(&self) -> String {
            serde_json::to_string(&Snapshot::of(self.0.table().game())).unwrap_or_default()
        }

        /// The assignment's searches drawn on the position shown, as `query` asks, as JSON.
        pub fn searches(&self, query: &str) -> Result<String, JsError> {
            let drawn = self.0.searches(query).map_err(refused)?;
            serde_json::to_string(&drawn).map_err(|e| JsError::new(&e.to_string()))
        }

        /// The analysis kept for the game as it is now, as JSON, if there is one.
        pub fn analysis(&self) -> Option<String> {
            self.0.analysis().and_then(|a| serde_json::to_string(a).ok())
        }

        /// Keeps the analysis (the worker's JSON) for the version it is of.
        pub fn keep_analysis(&mut self, text: &str) -> Result<(), JsError> {
            self.0.keep_analysis(text).map_err(refused)
        }

        /// Ends the game if a clock ran out; tells whether it changed.
        pub fn check_time(&mut self) -> bool {
            self.0.check_time(Moment::now())
        }

        /// The game record, dated by `unix_seconds`.
        pub fn record(&self, unix_seconds: f64) -> String {
            let date = kalah_rules::record::date_text(unix_seconds.max(0.0) as u64);
            self.0.record(&date, Moment::now())
        }

        /// The game kept whole, to be taken up again.
        pub fn save(&self) -> String {
            self.0.keep()
        }
    }

    /// The engine a page's worker runs (`engine::PageEngine`).
    #[wasm_bindgen(js_name = Engine)]
    pub struct Engine(PageEngine);

    #[wasm_bindgen(js_class = Engine)]
    impl Engine {
        /// `new Engine()`: an engine with an empty table.
        #[wasm_bindgen(constructor)]
        #[allow(clippy::new_without_default)]
        pub fn new() -> Engine {
            Engine(PageEngine::new())
        }

        /// The engine's move for a task (JSON: `engine::MoveTask`).
        pub fn decide(&mut self, task: &str) -> Result<String, JsError> {
            let task = read("engine move", task)?;
            reply(self.0.decide(&task))
        }

        /// A hint (JSON: `engine::Question`).
        pub fn hint(&mut self, question: &str) -> Result<String, JsError> {
            let question = read("hint", question)?;
            reply(self.0.hint(&question))
        }

        /// The evaluation of the position shown (JSON: `engine::Question`).
        pub fn analyse(&mut self, question: &str) -> Result<String, JsError> {
            let question = read("analysis", question)?;
            reply(self.0.analyse(&question))
        }

        /// A solve within a budget (JSON: `engine::SolveTask`).
        pub fn solve(&mut self, task: &str) -> Result<String, JsError> {
            let task = read("solve", task)?;
            reply(self.0.solve(&task))
        }

        /// The perfect-play explorer within a budget (JSON: `engine::SolveTask`; the reply:
        /// `kalah_table::Explored`).
        pub fn explore(&mut self, task: &str) -> Result<String, JsError> {
            let task = read("explore", task)?;
            reply(self.0.explore(&task))
        }

        /// Adds an opening book, the text of a file `kalah solve book` wrote, that `explore`
        /// answers from; returns the book's rules (a JSON string).
        #[wasm_bindgen(js_name = addBook)]
        pub fn add_book(&mut self, text: &str) -> Result<String, JsError> {
            reply(self.0.add_book(text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_and_a_solve_give_the_known_values() {
        // Kalah(4,3) is +6 for South and Kalah(4,4) +2 (kalah-engine's tests/data/values.txt).
        let found = search("kalah(4,3)", "start", MAX_DEPTH).unwrap();
        assert_eq!((found.value, found.exact, found.side.as_str()), (6.0, true, "South"));
        assert!(found.best.is_some() && found.pv.first() == found.best.as_ref() && found.nodes > 0);
        let solved = solve("kalah(4,4)", "start").unwrap();
        assert_eq!((solved.value, solved.rules.as_str()), (2, "kalah(4,4) standard"));
        assert!(solved.best.is_some() && solved.line.first() == solved.best.as_ref() && solved.nodes > 0);
    }

    #[test]
    fn the_same_call_gives_the_same_nodes() {
        let position = "3,0,4,1,5,2:10/2,2,0,6,1,3:7/N";
        assert_eq!(search("kalah(6,4)", position, 9).unwrap().nodes, search("kalah(6,4)", position, 9).unwrap().nodes);
        assert_eq!(solve("kalah(4,3)", "start").unwrap().nodes, solve("kalah(4,3)", "start").unwrap().nodes);
    }

    #[test]
    fn a_finished_game_is_its_store_difference() {
        let found = search("kalah(2,2)", "0,0:3/1,0:4/S", 5).unwrap();
        assert_eq!((found.value, found.exact, found.best, found.nodes), (-2.0, true, None, 0));
        let solved = solve("kalah(2,2)", "0,0:3/1,0:4/S").unwrap();
        assert_eq!((solved.value, solved.best, solved.line.len()), (-2, None, 0));
    }

    #[test]
    fn bad_input_says_what_is_wrong() {
        let message = |e: ApiError| e.to_string();
        assert!(message(search("kalah(6,x)", "start", 5).unwrap_err()).starts_with("rules \"kalah(6,x)\": "));
        assert!(message(solve("kalah(6,4)", "1,2,3").unwrap_err()).starts_with("position \"1,2,3\": "));
        assert_eq!(message(search("kalah(6,4)", "start", 0).unwrap_err()), "depth 0 is out of range: 1 to 120 sowings");
        assert!(matches!(search("kalah(6,4)", "start", 121), Err(ApiError::Depth(121))));
    }

    #[test]
    fn reports_are_json_objects_with_the_documented_keys() {
        let text = serde_json::to_string(&search("kalah(4,3)", "start", 4).unwrap()).unwrap();
        for key in ["position", "side", "best", "value", "exact", "depth", "pv", "nodes", "millis"] {
            assert!(text.contains(&format!("\"{key}\":")), "{key} in {text}");
        }
        let text = serde_json::to_string(&solve("kalah(3,3)", "start").unwrap()).unwrap();
        for key in ["rules", "position", "side", "value", "best", "line", "nodes", "seconds"] {
            assert!(text.contains(&format!("\"{key}\":")), "{key} in {text}");
        }
    }
}
