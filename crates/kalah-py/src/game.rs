//! `kalah.Game`: a game with its history, played by integer actions or their text, with its
//! observations for learning, its record and perft.

use std::sync::atomic::{AtomicBool, Ordering};

use kalah_rules::record::Record;
use kalah_rules::{Action, Game, Outcome, Phase, Position, Rules, Side};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyString};

use crate::actions::ActionSpace;
use crate::error::{self, ActionError, RecordError};
use crate::interrupt;
use crate::number::Int;
use crate::rules::{rules_of, size_of, type_name, PyRules, RuleWords};
use crate::Reduce;

/// One of the two sides of the board. South moves first and owns the bottom row.
#[pyclass(eq, eq_int, frozen, hash, module = "kalah", name = "Side", from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PySide {
    /// The first player's side at the start: the bottom row, the store on the right.
    #[pyo3(name = "SOUTH")]
    South = 0,
    /// The second player's side at the start: the top row, the store on the left.
    #[pyo3(name = "NORTH")]
    North = 1,
}

#[pymethods]
impl PySide {
    /// The other side.
    #[getter]
    fn opponent(&self) -> PySide {
        PySide::from(Side::from(*self).opponent())
    }

    fn __str__(&self) -> &'static str {
        Side::from(*self).name()
    }

    /// Pickles a side as the class attribute it is: `getattr(kalah.Side, "SOUTH")`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (Bound<'py, PyAny>, &'static str)> {
        let py = slf.py();
        let name = match *slf.get() {
            PySide::South => "SOUTH",
            PySide::North => "NORTH",
        };
        Ok((py.import("builtins")?.getattr("getattr")?, (slf.as_any().get_type().into_any(), name)))
    }
}

impl From<Side> for PySide {
    fn from(side: Side) -> PySide {
        match side {
            Side::South => PySide::South,
            Side::North => PySide::North,
        }
    }
}

impl From<PySide> for Side {
    fn from(side: PySide) -> Side {
        match side {
            PySide::South => Side::South,
            PySide::North => Side::North,
        }
    }
}

/// Reads a side: a `kalah.Side`, 0 or 1, or "S", "N", "south", "north" in any case.
pub fn side_arg(value: &Bound<'_, PyAny>) -> PyResult<Side> {
    if let Ok(side) = value.cast::<PySide>() {
        return Ok(Side::from(*side.get()));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return match text.to_string().to_ascii_lowercase().as_str() {
            "s" | "south" => Ok(Side::South),
            "n" | "north" => Ok(Side::North),
            other => Err(error::bad(format!("{other:?} is not a side: write South or North (or S, N)"))),
        };
    }
    match value.extract::<i64>() {
        Ok(0) => Ok(Side::South),
        Ok(1) => Ok(Side::North),
        Ok(other) => Err(error::bad(format!("{other} is not a side: 0 is South, 1 is North"))),
        Err(_) => {
            Err(PyTypeError::new_err(format!("a side is a kalah.Side, 0 or 1, or a name, not {}", type_name(value))))
        }
    }
}

/// Reads a player: 0 (the first player, South until a pie-rule swap) or 1 (the second).
pub fn player_arg(value: Int) -> PyResult<usize> {
    value.within(0, 1, "player", "0 is the first player, 1 the second")
}

/// Reads an action's number: an int or a NumPy integer, never a bool (True is not action 1) nor
/// a float (1.7 is not action 1). `None` for a value of another type; a number too large for
/// an `i64` is `Some(None)`, which is no action.
pub fn action_number(value: &Bound<'_, PyAny>) -> Option<Option<i64>> {
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyFloat>() {
        return None;
    }
    match value.extract::<i64>() {
        Ok(id) => Some(Some(id)),
        Err(_) if value.is_instance_of::<pyo3::types::PyInt>() => Some(None),
        Err(_) => None,
    }
}

/// What the last sowing did.
#[pyclass(frozen, get_all, module = "kalah", name = "Outcome")]
#[derive(Clone, Copy, Debug)]
pub struct PyOutcome {
    /// The last seed landed in the mover's store: the mover moves again.
    extra_move: bool,
    /// Seeds the sowing captured into the mover's store (0 if none).
    captured: u16,
    /// Houses that relay sowing lifted after the first.
    relays: u16,
    /// The sowing ended the game.
    ended: bool,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        let flag = |b: bool| if b { "True" } else { "False" };
        format!(
            "kalah.Outcome(extra_move={}, captured={}, relays={}, ended={})",
            flag(self.extra_move),
            self.captured,
            self.relays,
            flag(self.ended)
        )
    }

    /// Pickles an outcome as its fields, read back by `_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduce<'py, (bool, u16, u16, bool)> {
        let o = slf.get();
        Ok((slf.get_type().getattr("_from_state")?, (o.extra_move, o.captured, o.relays, o.ended)))
    }

    /// Builds an outcome from the fields `__reduce__` gave: pickle's way back, not an API.
    #[classmethod]
    fn _from_state(
        _cls: &Bound<'_, pyo3::types::PyType>,
        extra_move: bool,
        captured: u16,
        relays: u16,
        ended: bool,
    ) -> PyOutcome {
        PyOutcome { extra_move, captured, relays, ended }
    }
}

impl From<Outcome> for PyOutcome {
    fn from(o: Outcome) -> PyOutcome {
        PyOutcome { extra_move: o.extra_move, captured: o.captured, relays: o.relays, ended: o.ended }
    }
}

/// A game of Kalah: the rules, the start, every action so far, and the position now.
///
/// Actions are integers (see `legal_actions`): for Kalah(m,n), action i below m sows the house
/// numbered i + 1 of the side to move; under the pie rule action m is the swap; under the
/// handicap rule come `keep` and the handicap moves. `play` also takes an action's text as game
/// records write it: a house number ("3"), "swap", "keep" or a handicap move ("S3>N2").
///
/// Players are seats: player 0 is the first player (South until a pie-rule swap), player 1 the
/// second. Sides are `kalah.Side.SOUTH` and `kalah.Side.NORTH`.
///
/// >>> game = kalah.Game(size="6,4")
/// >>> game.legal_actions()
/// [0, 1, 2, 3, 4, 5]
/// >>> game.play("3")        # house 3: the last seed lands in South's store
/// True
/// >>> game.position
/// '4,4,0,5,5,5:1/4,4,4,4,4,4:0/S'
#[pyclass(module = "kalah", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    /// The game.
    pub game: Game,
    /// Its actions, numbered.
    pub space: ActionSpace,
    /// Tag pairs read from a record or to write into one.
    tags: Vec<(String, String)>,
}

impl PyGame {
    /// Wraps a game.
    pub fn wrap(game: Game) -> PyGame {
        PyGame { space: ActionSpace::of(game.rules()), game, tags: Vec::new() }
    }

    /// Returns the action an argument names: an action number or an action's text.
    pub fn action_arg(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(text) = action.cast::<PyString>() {
            return self.game.parse_action(&text.to_string()).map_err(|e| ActionError::new_err(e.to_string()));
        }
        match action_number(action) {
            Some(Some(id)) => return self.decode(id),
            Some(None) => {
                return Err(ActionError::new_err(format!(
                    "{action} is not an action of {}: the actions are {}",
                    self.game.rules(),
                    self.space.describe()
                )))
            }
            None => {}
        }
        Err(PyTypeError::new_err(format!(
            "an action is an int (see legal_actions) or its text such as \"3\" or \"swap\", not {}",
            type_name(action)
        )))
    }

    /// Returns the action numbered `id`, or an error saying which numbers are actions.
    pub fn decode(&self, id: i64) -> PyResult<Action> {
        usize::try_from(id).ok().and_then(|id| self.space.decode(id)).ok_or_else(|| {
            ActionError::new_err(format!(
                "{id} is not an action of {}: the actions are {}",
                self.game.rules(),
                self.space.describe()
            ))
        })
    }

    /// Returns the number of an action the game allows (every such action has one).
    pub fn encode(&self, action: Action) -> usize {
        self.space.encode(action).expect("the rules' actions all have numbers")
    }

    /// Returns the legal actions' numbers.
    pub fn legal_ids(&self) -> Vec<usize> {
        let rules = self.game.rules();
        if !rules.pie && !rules.handicap {
            let position = self.game.position();
            if position.is_over(rules) {
                return Vec::new();
            }
            return position.legal_moves().map(|mv| mv.index()).collect();
        }
        let mut ids: Vec<usize> = self.game.legal_actions().into_iter().map(|a| self.encode(a)).collect();
        ids.sort_unstable();
        ids
    }

    /// Tells whether `action` may be played now.
    pub fn allows(&self, action: Action) -> bool {
        let rules = self.game.rules();
        match action {
            Action::Sow(mv) if !rules.pie && !rules.handicap => {
                let position = self.game.position();
                !position.is_over(rules) && position.legal_moves().contains(mv)
            }
            _ => self.game.legal_actions().contains(&action),
        }
    }

    /// Plays `action`; returns whether the same player moves again.
    pub fn act(&mut self, action: Action) -> PyResult<bool> {
        let outcome = self.game.act(action).map_err(error::action)?;
        Ok(outcome.is_some_and(|o| o.extra_move && !o.ended))
    }

    /// Returns the seat that decides now, or `None` once the game is over.
    pub fn player(&self) -> Option<usize> {
        self.game.decider().map(|side| self.game.seat_of(side).index())
    }

    /// Returns the side `player` (a seat) plays now.
    pub fn side_of(&self, player: usize) -> Side {
        if (player == 1) != self.game.swapped() {
            Side::North
        } else {
            Side::South
        }
    }

    /// Writes the observation of `player` (a seat) into `out`: that player's houses from its house
    /// 1, its store, then the opponent's houses and store.
    pub fn observe(&self, player: usize, out: &mut [f32]) {
        observe(self.game.position(), self.side_of(player), out);
    }

    /// Returns each player's reward at the end: the final store difference from its side, or
    /// +1, 0, -1 when `margin` is false; 0 for both while the game goes on.
    pub fn rewards(&self, margin: bool) -> [f64; 2] {
        let Some(stores) = self.game.result() else { return [0.0, 0.0] };
        let first = self.side_of(0);
        let difference = f64::from(i32::from(stores[first]) - i32::from(stores[first.opponent()]));
        // f64::signum gives 1 for 0: a draw is 0 either way.
        let value = if margin || difference == 0.0 { difference } else { difference.signum() };
        [value, -value]
    }

    /// Writes the action mask of the game now into `out` (1 for a legal action).
    pub fn mask(&self, out: &mut [i8]) {
        out.fill(0);
        for id in self.legal_ids() {
            out[id] = 1;
        }
    }
}

/// Writes the board of `position` as `side` sees it into `out` (2m + 2 values).
pub fn observe(position: &Position, side: Side, out: &mut [f32]) {
    let m = usize::from(position.houses());
    for (k, &who) in [side, side.opponent()].iter().enumerate() {
        let base = k * (m + 1);
        for (cell, &seeds) in out[base..base + m].iter_mut().zip(position.row(who)) {
            *cell = f32::from(seeds);
        }
        out[base + m] = f32::from(position.store(who));
    }
}

/// The name of a phase, as `Game.phase` gives it.
fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Handicap => "handicap",
        Phase::PieOpening => "pie-opening",
        Phase::PieOffer => "pie-offer",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// Reads a position for `rules`.
pub fn position_of(text: &str, rules: &Rules) -> PyResult<Position> {
    Position::parse(text, rules).map_err(error::position)
}

/// Builds the game of a constructor call: rules (a `Rules` or a preset name), rule keywords, and
/// a start position whose size (its houses, and the seeds a house its seeds make: see
/// [`size_of`]) is the rules' when none is given.
pub fn game_of(
    rules: Option<&Bound<'_, PyAny>>,
    position: Option<&str>,
    flags: Option<&Bound<'_, PyDict>>,
    skip: &[&str],
) -> PyResult<Game> {
    let words = RuleWords::from_kwargs(flags, skip)?;
    match position {
        None => Ok(Game::new(rules_of(rules, &words, None)?)),
        Some(text) => {
            let parsed: Position = text.parse().map_err(error::position)?;
            let rules = rules_of(rules, &words, Some(size_of(&parsed)))?;
            Ok(Game::from_position(rules, position_of(text, &rules)?))
        }
    }
}

/// The most sowings perft counts, as `kalah perft` allows.
const MAX_PERFT_DEPTH: u32 = 40;

/// Below this many sowings perft counts without looking at the stop flag: a few thousand
/// sowings at most on the largest board, so a stop is heard at once.
const PERFT_UNWATCHED: u32 = 3;

/// Counts as `kalah_rules::perft` does, looking at `stop` at each node with more than
/// `PERFT_UNWATCHED` sowings to go; `None` once it is set.
fn perft_until(position: &Position, rules: &Rules, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_UNWATCHED || position.is_over(rules) {
        return Some(kalah_rules::perft(position, rules, depth));
    }
    let mut total = 0;
    for mv in position.legal_moves() {
        total += perft_until(&position.play_unchecked(rules, mv), rules, depth - 1, stop)?;
    }
    Some(total)
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules=None, *, position=None, **flags))]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        position: Option<&str>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyGame> {
        Ok(PyGame::wrap(game_of(rules, position, flags, &[])?))
    }

    /// The rules of the game.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules { rules: *self.game.rules() }
    }

    /// How many integer actions the rules have: the length of the action mask.
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.len()
    }

    /// The actions allowed now, as integers in increasing order (empty once the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.legal_ids()
    }

    /// The legal actions as a NumPy array of `num_actions` int8: 1 where legal, 0 elsewhere.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0; self.space.len()];
        self.mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// Tells whether `action` (an int or its text) may be played now.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = match self.action_arg(action) {
            Ok(action) => action,
            Err(e) if e.is_instance_of::<ActionError>(action.py()) => return Ok(false),
            Err(e) => return Err(e),
        };
        Ok(self.game.legal_actions().contains(&action))
    }

    /// Plays an action: an int from `legal_actions`, or its text ("3", "swap", "keep",
    /// "S3>N2"). Returns True when the same player moves again (an extra move).
    ///
    /// Raises ActionError for an action that does not read or is not allowed now (the game is
    /// then unchanged), GameOverError once the game is over.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let action = self.action_arg(action)?;
        self.act(action)
    }

    /// Takes back the last action and returns its number, or None at the start.
    fn undo(&mut self) -> Option<usize> {
        let action = self.game.undo()?;
        Some(self.encode(action))
    }

    /// What the game waits for: "handicap", "pie-opening" (South's first turn under the pie rule),
    /// "pie-offer", "play" or "over".
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.game.phase())
    }

    /// True once the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The player (0 or 1) who decides now, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.player()
    }

    /// The side whose player decides now, or None once the game is over (the handicap opening
    /// is North's decision; otherwise the side to move).
    #[getter]
    fn to_move(&self) -> Option<PySide> {
        self.game.decider().map(PySide::from)
    }

    /// The side to move in the position (what the position notation's last letter says).
    #[getter]
    fn mover(&self) -> PySide {
        PySide::from(self.game.position().mover())
    }

    /// True when the last action was a sowing that gives its player another turn.
    #[getter]
    fn extra_move(&self) -> bool {
        self.game.last_outcome().is_some_and(|o| o.extra_move && !o.ended)
    }

    /// What the last action did, if it was a sowing.
    #[getter]
    fn last_outcome(&self) -> Option<PyOutcome> {
        self.game.last_outcome().map(PyOutcome::from)
    }

    /// True once the players have swapped sides under the pie rule.
    #[getter]
    fn swapped(&self) -> bool {
        self.game.swapped()
    }

    /// The side `player` (0 or 1) plays now.
    fn side_of_player(&self, player: Int) -> PyResult<PySide> {
        Ok(PySide::from(self.side_of(player_arg(player)?)))
    }

    /// The player (0 or 1) who plays `side` now.
    fn player_of_side(&self, side: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.game.seat_of(side_arg(side)?).index())
    }

    /// The stores now: (South's, North's).
    #[getter]
    fn stores(&self) -> (u16, u16) {
        let p = self.game.position();
        (p.store(Side::South), p.store(Side::North))
    }

    /// A side's houses now, from its house 1 to house m.
    fn houses(&self, side: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
        Ok(self.game.position().row(side_arg(side)?).to_vec())
    }

    /// The final stores (South's, North's) once the game is over, with the leftover seeds dealt
    /// out; None while it goes on.
    #[getter]
    fn result(&self) -> Option<(u16, u16)> {
        self.game.result().map(|s| (s.south, s.north))
    }

    /// The final store difference, South minus North, once the game is over; None before.
    #[getter]
    fn margin(&self) -> Option<i32> {
        self.game.result().map(|s| i32::from(s.south) - i32::from(s.north))
    }

    /// Each player's reward: (player 0's, player 1's). At the end, the final store difference
    /// from the side each plays (margin=True) or 1, 0, -1 for a win, draw, loss; (0, 0) before.
    #[pyo3(signature = (margin=true))]
    #[pyo3(name = "returns")]
    fn py_returns(&self, margin: bool) -> (f64, f64) {
        let [a, b] = self.rewards(margin);
        (a, b)
    }

    /// The position now, in the position notation: `SOUTH:STORE/NORTH:STORE/SIDE`.
    #[getter]
    fn position(&self) -> String {
        self.game.position().to_string()
    }

    /// The position now as a KGP board literal, seen from the side to move as KGP sends it:
    /// `<m,my_store,their_store,my_1..my_m,their_1..their_m>`.
    #[getter]
    fn kgp(&self) -> String {
        self.game.position().to_kgp()
    }

    /// The start position, in the position notation.
    #[getter]
    fn start(&self) -> String {
        self.game.start().to_string()
    }

    /// The actions played so far, as integers.
    #[getter]
    fn actions(&self) -> Vec<usize> {
        self.game.actions().iter().map(|&a| self.encode(a)).collect()
    }

    /// The actions played so far, as records write them ("3", "swap", "S3>N2").
    fn history(&self) -> Vec<String> {
        self.game.actions().iter().map(Action::to_string).collect()
    }

    /// The text of an action number: "3" for a sowing of house 3, "swap", "keep", "S3>N2".
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        if action.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "action_to_string takes an action's number (an int); string_to_action reads text",
            ));
        }
        Ok(self.action_arg(action)?.to_string())
    }

    /// The number of an action written as text, for this game's board.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let action = self.game.parse_action(text).map_err(|e| ActionError::new_err(e.to_string()))?;
        self.space
            .encode(action)
            .ok_or_else(|| ActionError::new_err(format!("{action} is not an action under {}", self.game.rules())))
    }

    /// The board as `player` sees it, as a NumPy float32 array of 2m + 2 values: that
    /// player's houses from its house 1, its store, then the opponent's houses and store.
    /// `player` defaults to the player who decides now (player 0 once the game is over).
    #[pyo3(signature = (player=None))]
    fn observation<'py>(&self, py: Python<'py>, player: Option<Int>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let player = match player {
            Some(p) => player_arg(p)?,
            None => self.player().unwrap_or(0),
        };
        let array = PyArray1::<f32>::zeros(py, 2 * usize::from(self.game.rules().houses()) + 2, false);
        {
            let mut view = array.readwrite();
            self.observe(player, view.as_slice_mut().expect("a new array is contiguous"));
        }
        Ok(array)
    }

    /// Counts the sequences of `depth` sowings from the position now (0 to 40), as `kalah perft`.
    /// The GIL is released while it counts, and Ctrl-C stops it with KeyboardInterrupt.
    fn perft(&self, py: Python<'_>, depth: Int) -> PyResult<u64> {
        let depth: u32 = depth.within(0, MAX_PERFT_DEPTH, "depth", "perft takes a depth from 0 to 40")?;
        let (position, rules) = (*self.game.position(), *self.game.rules());
        let count = interrupt::run(
            py,
            |stop, _: &(dyn Fn(()) -> bool + Sync)| perft_until(&position, &rules, depth, stop),
            |_, _| Ok(true),
        )?;
        // Only a stop leaves the count unfinished, and a stop raised its exception above.
        count.ok_or_else(|| error::bad("the count was stopped"))
    }

    /// The tag pairs of the game's record (Event, South, North, Date, ...).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.tags {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The game record as text (PGN-like), with the game's tags and `tags` (a dict of names
    /// to values) on top; Rules, Start, Result and End are written from the game.
    #[pyo3(signature = (tags=None))]
    fn to_record(&self, tags: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let mut all = self.tags.clone();
        if let Some(tags) = tags {
            for (name, value) in tags.iter() {
                let name: String = name.extract().map_err(|_| PyTypeError::new_err("tag names are str"))?;
                let value: String = value.extract().map_err(|_| PyTypeError::new_err("tag values are str"))?;
                check_tag(&name, &value)?;
                match all.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) => slot.1 = value,
                    None => all.push((name, value)),
                }
            }
        }
        Ok(Record { tags: all, game: self.game.clone(), decided: None }.to_text())
    }

    /// Reads a game record, replaying and checking every move; its tags are kept (see `tags`).
    /// A record without an End tag loads with a UserWarning that its moves could not be checked.
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<PyGame> {
        let parsed = Record::parse(text).map_err(|e| RecordError::new_err(e.to_string()))?;
        for warning in &parsed.warnings {
            PyErr::warn(py, &py.get_type::<PyUserWarning>(), &std::ffi::CString::new(warning.to_string())?, 1)?;
        }
        let mut game = PyGame::wrap(parsed.record.game);
        game.tags = parsed.record.tags;
        Ok(game)
    }

    /// A copy of the game, with its history.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __getstate__(&self) -> String {
        Record { tags: self.tags.clone(), game: self.game.clone(), decided: None }.to_text()
    }

    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let parsed = Record::parse(state).map_err(|e| RecordError::new_err(e.to_string()))?;
        *self = PyGame::wrap(parsed.record.game);
        self.tags = parsed.record.tags;
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.game.actions().len()
    }

    fn __str__(&self) -> String {
        let mut status = match self.game.decider() {
            None => {
                let result = self.game.result().unwrap_or_default();
                format!("game over, {}-{}", result.south, result.north)
            }
            Some(side) => format!("{side} to move ({})", phase_name(self.game.phase())),
        };
        if self.game.swapped() {
            status.push_str(", the players swapped sides");
        }
        format!("{}{status}\n{}", draw(self.game.position()), self.game.position())
    }

    fn __repr__(&self) -> String {
        format!("<kalah.Game {}, {}, {} actions>", self.game.rules(), self.game.position(), self.game.actions().len())
    }
}

/// Checks a record tag given from Python: a name of letters, digits and `_`, not one the game
/// writes itself, and a value on one line.
fn check_tag(name: &str, value: &str) -> PyResult<()> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(error::bad(format!("{name:?} is not a tag name: use letters, digits and _")));
    }
    if ["Rules", "Start", "Result", "End"].contains(&name) {
        return Err(error::bad(format!("the {name} tag is written from the game itself and cannot be given")));
    }
    if value.contains(['\n', '\r']) {
        return Err(error::bad(format!("the value of tag {name} must be one line")));
    }
    Ok(())
}

/// Draws a position as the board lies between the players: North's row on top (its house m on
/// the left), the stores at the ends, South's row below.
fn draw(position: &Position) -> String {
    let cell = |seeds: &u16| format!("{seeds:>3}");
    let north: Vec<String> = position.row(Side::North).iter().rev().map(cell).collect();
    let south: Vec<String> = position.row(Side::South).iter().map(cell).collect();
    let width = 3 * usize::from(position.houses());
    format!(
        "    {}      North\n{:>3} {} {:>3}\n    {}      South\n",
        north.join(""),
        position.store(Side::North),
        " ".repeat(width),
        position.store(Side::South),
        south.join("")
    )
}

/// Registers the classes of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySide>()?;
    m.add_class::<PyOutcome>()?;
    m.add_class::<PyGame>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_until_counts_as_perft_and_stops_at_the_flag() {
        let rules = Rules::standard(6, 4).unwrap();
        let start = Position::start(&rules);
        let go = AtomicBool::new(false);
        for depth in 0..=7 {
            assert_eq!(perft_until(&start, &rules, depth, &go), Some(kalah_rules::perft(&start, &rules, depth)));
        }
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&start, &rules, 7, &stopped), None);
    }
}
