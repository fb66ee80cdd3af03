//! The engine's side of the page: what its Web Worker is asked. An engine move at a level, a
//! hint, the evaluation beside the board, a solve within a budget and the benchmark, each a
//! request and a reply in JSON, all through [`kalah_engine::decide`] and the engine's own levels
//! as on a server, so that the page's engine plays as `kalah serve`'s does.
//!
//! The worker keeps one [`GameEngine`] (a table of [`TABLE_BYTES`]) from one request to the next,
//! as a server keeps one for a game: the positions it has searched stay useful for the next move.
//! It is bound to the rules of the game it was asked about last, and renewed (its table emptied)
//! for a game under other rules.

use std::time::Duration;

use kalah_engine::bench;
use kalah_engine::book::Book;
use kalah_engine::explorer::{explore, Budget};
use kalah_engine::level::Level;
use kalah_engine::search::Options;
use kalah_engine::solver::Solver;
use kalah_engine::time::{now, Limits};
use kalah_engine::{GameEngine, OtherRules};
use kalah_rules::{Game, Rules, Side};
use kalah_table::{Analysis, Explored, Hint};
use serde::{Deserialize, Serialize};

use crate::TABLE_BYTES;
use kalah_table::turn::{ClockLeft, Snapshot};
use kalah_table::Refused;

/// The most time the page may give the engine for a move, a hint or an analysis: `kalah serve
/// --engine-time`'s bound.
pub const MAX_TIME_MS: u64 = 60_000;

/// An engine move to search: what [`kalah_table::Table::engine_turn`] gives, and the time
/// the page allows a move (`kalah serve --engine-time`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveTask {
    /// The version of the game the move is for.
    pub version: u64,
    /// The game up to the position shown.
    pub game: Snapshot,
    /// The level of the engine's seat, 1 to 5.
    pub level: u8,
    /// The engine's clock in a timed game.
    pub clock: Option<ClockLeft>,
    /// The most time for the move, in milliseconds.
    pub time_ms: u64,
}

/// A hint or an analysis to search: the game and the time for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The version of the game asked about.
    pub version: u64,
    /// The game up to the position shown.
    pub game: Snapshot,
    /// The time for the search, in milliseconds.
    pub time_ms: u64,
}

/// A solve within a budget: the position shown and the most time for it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveTask {
    /// The version of the game asked about.
    pub version: u64,
    /// The game up to the position shown.
    pub game: Snapshot,
    /// The most time for the solve, in milliseconds.
    pub time_ms: u64,
}

/// The engine's move: the action and what the decision rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineMove {
    /// The version of the game the move is for.
    pub version: u64,
    /// The action, as records write it.
    pub action: String,
    /// What the action is worth to the engine, in seeds.
    pub value: f64,
    /// The value is proven.
    pub exact: bool,
    /// The depth searched, in sowings.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the decision took.
    pub millis: u64,
}

/// What a solve within a budget found: the exact value, or the bounds proven when the budget ran
/// out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solved {
    /// The version of the game solved.
    pub version: u64,
    /// The solve finished: `value` is exact.
    pub solved: bool,
    /// The exact final store difference, South minus North, with perfect play, if solved.
    pub value: Option<i32>,
    /// The least and the most South can get (its final store difference), as proven.
    pub bounds: [i32; 2],
    /// The side to move.
    pub side: &'static str,
    /// A best move of the side to move, a house number, if solved and the game goes on.
    pub best: Option<u8>,
    /// A perfect line, as house numbers, if solved.
    pub line: Vec<u8>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds the solve took.
    pub millis: u64,
}

/// One position of the benchmark.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchPosition {
    /// The rules' text.
    pub rules: &'static str,
    /// The position.
    pub position: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// The best move found.
    pub best: Option<u8>,
    /// Milliseconds the search took.
    pub millis: u64,
}

/// The benchmark's result: `kalah bench`'s positions at a depth, on one thread.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    /// The depth searched, in sowings.
    pub depth: u32,
    /// Each position's search.
    pub positions: Vec<BenchPosition>,
    /// Nodes of all positions: at [`bench::DEPTH`] the search's signature.
    pub nodes: u64,
    /// The signature a native build gives at [`bench::DEPTH`].
    pub signature: u64,
    /// Milliseconds of all searches.
    pub millis: u64,
    /// Nodes a second.
    pub nps: u64,
}

/// Refuses a game of other rules than the engine's; [`PageEngine::engine`] binds it to the game's
/// rules before every question, so no question gets here.
fn other_rules(other: OtherRules) -> Refused {
    Refused::Bad(other.to_string())
}

/// Checks the time the page asks for.
fn time(ms: u64) -> Result<Duration, Refused> {
    if !(1..=MAX_TIME_MS).contains(&ms) {
        return Err(Refused::Bad(format!("time_ms {ms} is out of range: 1 to {MAX_TIME_MS} milliseconds")));
    }
    Ok(Duration::from_millis(ms))
}

/// The engine of a page's worker.
pub struct PageEngine {
    engine: GameEngine,
    /// Opening books for the explorer, one for each rules.
    books: Vec<Book>,
}

impl Default for PageEngine {
    fn default() -> PageEngine {
        PageEngine::new()
    }
}

impl PageEngine {
    /// Returns an engine with an empty table of [`TABLE_BYTES`], on one thread, bound to the
    /// default rules until asked about others.
    pub fn new() -> PageEngine {
        let options = Options { table_bytes: TABLE_BYTES, threads: 1, ..Options::default() };
        PageEngine { engine: GameEngine::new(Rules::default(), options), books: Vec::new() }
    }

    /// Returns the engine for a game under `rules`: renewed, its table emptied, if it was bound
    /// to others.
    fn engine(&mut self, rules: &Rules) -> &GameEngine {
        if self.engine.rules() != rules {
            self.engine.renew(*rules, None);
        }
        &self.engine
    }

    /// Decides the engine's move at its level within the page's time and the engine's clock.
    ///
    /// # Errors
    ///
    /// If the task cannot be read, or the game is over.
    pub fn decide(&mut self, task: &MoveTask) -> Result<EngineMove, Refused> {
        let game = task.game.game()?;
        let level =
            Level::new(task.level).ok_or_else(|| Refused::Bad(format!("there is no level {}: 1 to 5", task.level)))?;
        let limits = Limits { clock: task.clock.map(Into::into), ..level.limits(time(task.time_ms)?) };
        let started = now();
        let decision =
            self.engine(game.rules()).decide(&game, limits, None).map_err(other_rules)?.ok_or(Refused::Over)?;
        Ok(EngineMove {
            version: task.version,
            action: decision.action.to_string(),
            value: decision.score.seeds(),
            exact: decision.score.is_exact(),
            depth: decision.depth,
            nodes: decision.nodes,
            millis: started.elapsed().as_millis() as u64,
        })
    }

    /// Returns what the engine would do for the player to decide, within the time asked.
    ///
    /// # Errors
    ///
    /// If the question cannot be read, or the game is over.
    pub fn hint(&mut self, question: &Question) -> Result<Hint, Refused> {
        let game = question.game.game()?;
        let side = game.decider().ok_or(Refused::Over)?;
        let limits = Limits::time(time(question.time_ms)?);
        let decision =
            self.engine(game.rules()).decide(&game, limits, None).map_err(other_rules)?.ok_or(Refused::Over)?;
        Ok(Hint::of(question.version, side, &decision))
    }

    /// Analyses the position shown: South's view of the value, and the best action of the side
    /// that decides (North's swap or handicap decision while North decides them).
    ///
    /// # Errors
    ///
    /// If the question cannot be read.
    pub fn analyse(&mut self, question: &Question) -> Result<Analysis, Refused> {
        let game = question.game.game()?;
        let limits = Limits::time(time(question.time_ms)?);
        let analysed = self.engine(game.rules()).analyse(&game, limits, None).map_err(other_rules)?;
        Ok(analysed.map_or_else(
            || Analysis::unsearched(&game, question.version),
            |analysed| Analysis::of_analysed(question.version, game.position(), &analysed),
        ))
    }

    /// Solves the position shown exactly, on fresh tables of [`TABLE_BYTES`] and without a
    /// database, within the time asked: its exact value, or the bounds proven by then.
    ///
    /// # Errors
    ///
    /// If the task cannot be read.
    pub fn solve(&mut self, task: &SolveTask) -> Result<Solved, Refused> {
        let game = task.game.game()?;
        let limits = Limits::time(time(task.time_ms)?);
        Ok(solve_game(self.engine(game.rules()), &game, limits, task.version))
    }
}

impl PageEngine {
    /// Explores the position shown (the perfect-play explorer): every legal move solved exactly
    /// on fresh tables of [`TABLE_BYTES`] shared by the moves, without a database, within the
    /// time asked, from an opening book given to [`PageEngine::add_book`] when one holds the
    /// position; moves not settled by then come with their proven bounds.
    ///
    /// # Errors
    ///
    /// If the task cannot be read.
    pub fn explore(&mut self, task: &SolveTask) -> Result<Explored, Refused> {
        let game = task.game.game()?;
        let budget = time(task.time_ms)?;
        let started = now();
        let (rules, position) = (*game.rules(), *game.position());
        let millis = || started.elapsed().as_millis() as u64;
        if let Some(found) = kalah_engine::book::answer(&self.books, &rules, &position) {
            return Ok(Explored::of(task.version, &rules, &position, &found, "book", millis()));
        }
        let solver = Solver::new(self.engine(&rules).options().clone());
        let explored = explore(&solver, &position, &rules, Budget { time: Some(budget), ..Budget::default() });
        Ok(Explored::of(task.version, &rules, &position, &explored, "solver", millis()))
    }

    /// Adds an opening book (the text of a file `kalah solve book` wrote) that
    /// [`PageEngine::explore`] answers from; returns its rules.
    ///
    /// # Errors
    ///
    /// If the text is not a whole opening book.
    pub fn add_book(&mut self, text: &str) -> Result<String, Refused> {
        let book = Book::from_bytes(text.as_bytes(), None).map_err(|e| Refused::Bad(e.to_string()))?;
        let rules = book.rules().to_string();
        self.books.retain(|kept| kept.rules() != rules);
        self.books.push(book);
        Ok(rules)
    }
}

/// Solves the position of `game` within `limits` on fresh tables of `engine`'s settings.
fn solve_game(engine: &GameEngine, game: &Game, limits: Limits, version: u64) -> Solved {
    let position = *game.position();
    let rules = *game.rules();
    let mover = position.mover();
    // South's view of a value for the side to move.
    let south = |value: i32| if mover == Side::South { value } else { -value };
    if position.is_over(&rules) {
        let value = position.final_difference(&rules);
        return Solved {
            version,
            solved: true,
            value: Some(value),
            bounds: [value, value],
            side: mover.name(),
            best: None,
            line: Vec::new(),
            nodes: 0,
            millis: 0,
        };
    }
    let started = now();
    match engine.solve(&position, limits, None, |_, _| {}) {
        Ok(info) => {
            let value = south(info.score.seeds().round() as i32);
            Solved {
                version,
                solved: true,
                value: Some(value),
                bounds: [value, value],
                side: mover.name(),
                best: info.best.map(|m| m.number()),
                line: info.pv.iter().map(|m| m.number()).collect(),
                nodes: info.nodes,
                millis: started.elapsed().as_millis() as u64,
            }
        }
        Err(stopped) => {
            let (lower, upper) = (south(stopped.bounds.lower.0), south(stopped.bounds.upper.0));
            Solved {
                version,
                solved: false,
                value: None,
                bounds: [lower.min(upper), lower.max(upper)],
                side: mover.name(),
                best: None,
                line: Vec::new(),
                nodes: stopped.nodes,
                millis: started.elapsed().as_millis() as u64,
            }
        }
    }
}

/// Runs `kalah bench`'s positions to `depth` on one thread, each from an empty table of the
/// benchmark's size: at [`bench::DEPTH`] the node total is the search's signature, as natively.
///
/// # Errors
///
/// If the depth is not 1 to [`kalah_engine::search::MAX_DEPTH`].
pub fn run_bench(depth: u32) -> Result<BenchReport, Refused> {
    if !(1..=kalah_engine::search::MAX_DEPTH).contains(&depth) {
        return Err(Refused::Bad(format!(
            "depth {depth} is out of range: 1 to {} sowings",
            kalah_engine::search::MAX_DEPTH
        )));
    }
    let mut positions = Vec::new();
    let summary = bench::run(depth, 1, |i, info| {
        let (rules, position) = bench::POSITIONS[i];
        positions.push(BenchPosition {
            rules,
            position,
            nodes: info.nodes,
            best: info.best.map(|m| m.number()),
            millis: info.elapsed.as_millis() as u64,
        });
    });
    Ok(BenchReport {
        depth,
        positions,
        nodes: summary.nodes,
        signature: bench::SIGNATURE,
        millis: summary.elapsed.as_millis() as u64,
        nps: summary.nps(),
    })
}
