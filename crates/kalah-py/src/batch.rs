//! `kalah.Batch` and `kalah.random_playouts`: many games stepped or played out in one call, for
//! training loops and fast simulation, with NumPy arrays in and out.

use std::sync::atomic::Ordering;

use kalah_rules::{Action, CompactPosition, Game, Move, MoveSet, Position, Rules, Side};
use numpy::{
    AllowTypeChange, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayLike1, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::actions::ActionSpace;
use crate::error::{self, ActionError};
use crate::game::{action_number, game_of, observe, PyGame};
use crate::interrupt;
use crate::number::Int;
use crate::rules::{type_name, PyRules};

/// The most games one batch or call holds.
const MAX_GAMES: usize = 1 << 24;

/// Checks a number of games.
fn count_arg(count: Int) -> PyResult<usize> {
    count.within(1, MAX_GAMES, "count", format!("1 to {MAX_GAMES} games"))
}

/// Checks a random seed: any whole number from 0 to 2**64 - 1.
fn seed_arg(seed: Int) -> PyResult<u64> {
    seed.within(0, u64::MAX, "seed", "a whole number from 0 to 2**64 - 1")
}

/// Games a thread plays with one random stream: the unit of work of [`random_playouts`], so that
/// the games do not depend on how many threads play them.
const CHUNK: usize = 4096;

/// How random playouts from one start are played: by the compact position where the rules
/// allow one (counter-clockwise single-lap sowing on boards up to Kalah(7,n), no pie rule, no
/// handicap), else by the position alone where every action is a sowing, else by the rules
/// crate's game.
#[derive(Clone)]
enum Playout {
    /// Sowings only, packed in two words: the fast path.
    Compact(CompactPosition),
    /// Sowings only: the start position and its rules.
    Sowings(Position, Rules),
    /// Any rules: the game from the start.
    Game(Game),
}

impl Playout {
    fn of(game: &Game) -> Playout {
        let rules = *game.rules();
        if rules.pie || rules.handicap {
            Playout::Game(game.clone())
        } else if let Some(compact) = CompactPosition::new(game.position(), &rules) {
            Playout::Compact(compact)
        } else {
            Playout::Sowings(*game.position(), rules)
        }
    }

    /// Plays uniformly random legal actions to the end; returns the final margin, South minus
    /// North. Every way draws the same numbers for the same games: a number below the count of
    /// legal actions, which are taken in increasing order.
    fn play(&self, rng: &mut fastrand::Rng) -> i32 {
        match self {
            Playout::Compact(start) => start.play_out(|moves| pick(moves, rng)),
            Playout::Sowings(start, rules) => {
                // Sown in place, without the history's bookkeeping.
                let mut position = *start;
                if !position.is_over(rules) {
                    while !position.sow(rules, pick(position.legal_moves(), rng)).ended {}
                }
                position.final_difference(rules)
            }
            Playout::Game(game) => {
                let mut game = game.clone();
                loop {
                    let mut legal = game.legal_actions();
                    if legal.is_empty() {
                        return game.position().final_difference(game.rules());
                    }
                    legal.sort_by_key(|&a| ActionSpace::of(game.rules()).encode(a));
                    let action = legal[rng.usize(..legal.len())];
                    game.act(action).expect("a legal action plays");
                }
            }
        }
    }
}

/// Returns a uniformly random move of a set that is not empty.
#[inline(always)]
fn pick(moves: MoveSet, rng: &mut fastrand::Rng) -> Move {
    let mut moves = moves;
    moves.nth(rng.usize(..moves.len())).expect("a move of the set")
}

/// Returns the random stream of chunk `chunk` of the games of `seed`: a wyrand generator
/// (fastrand's, a few instructions a number), seeded from ChaCha8's stream `chunk` of `seed` so
/// that the streams of the chunks are independent.
fn stream(seed: u64, chunk: usize) -> fastrand::Rng {
    let mut seeder = ChaCha8Rng::seed_from_u64(seed);
    seeder.set_stream(chunk as u64);
    fastrand::Rng::with_seed(seeder.next_u64())
}

/// Plays `count` games from the start (or from `position`) to the end with uniformly random
/// legal actions, all in one call with the GIL released, on `threads` threads (default: every
/// core), and returns their final margins (South minus North) as a NumPy int32 array. The same
/// seed gives the same games, whatever the number of threads.
///
/// >>> kalah.random_playouts(1000, size="6,4", seed=1).shape
/// (1000,)
#[pyfunction]
#[pyo3(signature = (count, rules=None, *, seed=Int::ZERO, threads=None, position=None, **flags))]
#[pyo3(text_signature = "(count, rules=None, *, seed=0, threads=None, position=None, **flags)")]
pub fn random_playouts<'py>(
    py: Python<'py>,
    count: Int,
    rules: Option<&Bound<'py, PyAny>>,
    seed: Int,
    threads: Option<Int>,
    position: Option<&str>,
    flags: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let count = count_arg(count)?;
    let seed = seed_arg(seed)?;
    let threads = match threads {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(t) => t.within(1, 256, "threads", "1 to 256 threads")?,
    };
    let playout = Playout::of(&game_of(rules, position, flags, &["threads"])?);
    let mut margins = vec![0i32; count];
    let finished = interrupt::run(
        py,
        |stop, _: &(dyn Fn(()) -> bool + Sync)| {
            let chunks: Vec<(usize, &mut [i32])> = margins.chunks_mut(CHUNK).enumerate().collect();
            let work = std::sync::Mutex::new(chunks);
            std::thread::scope(|scope| {
                for _ in 0..threads.min(count.div_ceil(CHUNK)) {
                    scope.spawn(|| loop {
                        // A chunk takes milliseconds on the fast path (more on big boards or the
                        // general path), so a stop is heard between chunks soon enough.
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some((chunk, out)) = work.lock().unwrap_or_else(|e| e.into_inner()).pop() else { break };
                        let mut rng = stream(seed, chunk);
                        for margin in out.iter_mut() {
                            *margin = playout.play(&mut rng);
                        }
                    });
                }
            });
            !stop.load(Ordering::Relaxed)
        },
        |_, _| Ok(true),
    )?;
    if !finished {
        // Only a stop leaves games unplayed, and a stop raised its exception above.
        return Err(error::bad("the playouts were stopped"));
    }
    Ok(PyArray1::from_vec(py, margins))
}

/// What `Batch.step` returns: the rewards and which games are over.
type Step<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);

/// The games of a batch. Where the rules have a compact form (see [`Playout`]) each game is a
/// compact position and the moves that led there, sown with the fast path and replayed into a
/// full game only when `Batch.game` asks for one; otherwise each is a full game with its history.
enum Games {
    /// Sowings only: each game's compact position and its moves from the start.
    Compact { start: CompactPosition, positions: Vec<CompactPosition>, moves: Vec<Vec<Move>> },
    /// Any rules: the games.
    Full(Vec<PyGame>),
}

/// Many games of one rule set, stepped together: the observations and action masks of all of
/// them as 2-D NumPy arrays, and one `step` call that plays an action in each.
///
/// Batch(count, rules=None, *, position=None, **rule keywords). Game i's observation is row i of
/// `observations()`, from the view of the player who decides there (see Game.observation).
#[pyclass(module = "kalah", name = "Batch")]
pub struct PyBatch {
    games: Games,
    start: PyGame,
}

impl PyBatch {
    fn width(&self) -> usize {
        2 * usize::from(self.start.game.rules().houses()) + 2
    }

    fn len(&self) -> usize {
        match &self.games {
            Games::Compact { positions, .. } => positions.len(),
            Games::Full(games) => games.len(),
        }
    }
}

/// Reads the actions of `Batch.step`: a 1-D NumPy array of integers, or a sequence of ints
/// (NumPy integers too). Floats and bools are refused, as `Game.play` refuses them, rather than
/// cast (1.7 is not action 1). A number too large to be an action is an `ActionError` at once.
fn action_numbers(actions: &Bound<'_, PyAny>, start: &PyGame) -> PyResult<Vec<i64>> {
    if let Ok(array) = actions.cast::<PyUntypedArray>() {
        let dtype = array.dtype();
        if !matches!(dtype.kind(), b'i' | b'u') {
            return Err(PyTypeError::new_err(format!(
                "actions are whole numbers: give an array of int (see legal_actions), not of {}",
                dtype.str().map_or_else(|_| "this type".to_string(), |s| s.to_string())
            )));
        }
        if array.ndim() != 1 {
            return Err(error::bad(format!(
                "actions of shape {:?}: give a 1-D array, one action for each game",
                array.shape()
            )));
        }
        let numbers: PyArrayLike1<'_, i64, AllowTypeChange> = actions.extract()?;
        return Ok(numbers.as_array().to_vec());
    }
    let mut numbers = Vec::new();
    for (i, value) in actions.try_iter()?.enumerate() {
        let value = value?;
        match action_number(&value) {
            Some(Some(id)) => numbers.push(id),
            Some(None) => {
                return Err(ActionError::new_err(format!(
                    "game {i}: {value} is not an action of {}: the actions are {}",
                    start.game.rules(),
                    start.space.describe()
                )))
            }
            None => {
                return Err(PyTypeError::new_err(format!(
                    "game {i}: an action is an int (see legal_actions), not {}",
                    type_name(&value)
                )))
            }
        }
    }
    Ok(numbers)
}

/// Returns the rewards of a finished game whose final margin from the first player's side is
/// `difference`, as Game.returns gives them.
fn rewards_of(difference: i32, margin: bool) -> [f32; 2] {
    let value = if margin { difference } else { difference.signum() } as f32;
    [value, -value]
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (count, rules=None, *, position=None, **flags))]
    fn new(
        count: Int,
        rules: Option<&Bound<'_, PyAny>>,
        position: Option<&str>,
        flags: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBatch> {
        let count = count_arg(count)?;
        let start = PyGame::wrap(game_of(rules, position, flags, &[])?);
        let games = match Playout::of(&start.game) {
            Playout::Compact(compact) => {
                Games::Compact { start: compact, positions: vec![compact; count], moves: vec![Vec::new(); count] }
            }
            _ => Games::Full(vec![start.clone(); count]),
        };
        Ok(PyBatch { games, start })
    }

    fn __len__(&self) -> usize {
        self.len()
    }

    /// The rules of the games.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules { rules: *self.start.game.rules() }
    }

    /// How many integer actions the rules have: the width of `action_masks()`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.start.space.len()
    }

    /// Starts every game again.
    fn reset(&mut self) {
        match &mut self.games {
            Games::Compact { start, positions, moves } => {
                positions.fill(*start);
                moves.iter_mut().for_each(Vec::clear);
            }
            Games::Full(games) => {
                for game in games {
                    game.clone_from(&self.start);
                }
            }
        }
    }

    /// A copy of game `index`, with its history.
    fn game(&self, index: Int) -> PyResult<PyGame> {
        let index: usize =
            index.within(0, self.len() - 1, "index", format!("the batch holds games 0 to {}", self.len() - 1))?;
        let out_of_range =
            || error::bad(format!("game {index} is out of range: the batch holds games 0 to {}", self.len() - 1));
        match &self.games {
            Games::Compact { moves, .. } => {
                let moves = moves.get(index).ok_or_else(out_of_range)?;
                let mut game = self.start.clone();
                for &mv in moves {
                    game.act(Action::Sow(mv))?;
                }
                Ok(game)
            }
            Games::Full(games) => games.get(index).cloned().ok_or_else(out_of_range),
        }
    }

    /// Every game's board as its deciding player sees it: a float32 array of shape
    /// (count, 2m + 2), rows as Game.observation gives them.
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        let width = self.width();
        let array = PyArray2::<f32>::zeros(py, [self.len(), width], false);
        {
            let mut view = array.readwrite();
            let cells = view.as_slice_mut().expect("a new array is contiguous");
            match &self.games {
                Games::Compact { positions, .. } => {
                    for (compact, row) in positions.iter().zip(cells.chunks_mut(width)) {
                        // Seat 0 plays South (no pie rule here); a finished game is seen from seat 0.
                        let side = if compact.is_over() { Side::South } else { compact.mover() };
                        observe(&compact.to_position(), side, row);
                    }
                }
                Games::Full(games) => {
                    for (game, row) in games.iter().zip(cells.chunks_mut(width)) {
                        game.observe(game.player().unwrap_or(0), row);
                    }
                }
            }
        }
        array
    }

    /// Every game's legal actions: an int8 array of shape (count, num_actions), 1 where legal.
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let width = self.start.space.len();
        let array = PyArray2::<i8>::zeros(py, [self.len(), width], false);
        {
            let mut view = array.readwrite();
            let cells = view.as_slice_mut().expect("a new array is contiguous");
            match &self.games {
                Games::Compact { positions, .. } => {
                    for (compact, row) in positions.iter().zip(cells.chunks_mut(width)) {
                        if !compact.is_over() {
                            // Without a pie rule or a handicap a sowing's number is its house index.
                            compact.legal_moves().for_each(|mv| row[mv.index()] = 1);
                        }
                    }
                }
                Games::Full(games) => {
                    for (game, row) in games.iter().zip(cells.chunks_mut(width)) {
                        game.mask(row);
                    }
                }
            }
        }
        array
    }

    /// The player (0 or 1) who decides in each game, -1 where the game is over: an int8 array.
    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let players = match &self.games {
            Games::Compact { positions, .. } => {
                positions.iter().map(|c| if c.is_over() { -1 } else { c.mover().index() as i8 }).collect()
            }
            Games::Full(games) => games.iter().map(|g| g.player().map_or(-1, |p| p as i8)).collect(),
        };
        PyArray1::from_vec(py, players)
    }

    /// Plays `actions[i]` in game i (any sequence of integers, a NumPy array best; games already over are left as they are and their action
    /// is not read). Returns (rewards, done): rewards a float32 array of shape (count, 2), each
    /// player's reward in a game that this step ended (the final store difference from its
    /// side, or 1, 0, -1 when margin is False), 0 elsewhere; done a bool array, True where the
    /// game is over after the step. With auto_reset, the games that ended start again.
    ///
    /// Every action is checked before any is played: an illegal one raises ActionError naming
    /// its game, and no game changes. Actions are whole numbers, as for Game.play: a float or a
    /// bool (or an array of them) is a TypeError.
    #[pyo3(signature = (actions, *, margin=true, auto_reset=false))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        margin: bool,
        auto_reset: bool,
    ) -> PyResult<Step<'py>> {
        let count = self.len();
        let actions = action_numbers(actions, &self.start)?;
        if actions.len() != count {
            return Err(error::bad(format!(
                "{} actions for {count} games: give one action for each game",
                actions.len()
            )));
        }
        let mut rewards = vec![0f32; 2 * count];
        let mut done = vec![false; count];
        match &mut self.games {
            Games::Compact { start, positions, moves } => {
                let m = self.start.space.len();
                let mut decoded = Vec::with_capacity(count);
                for (i, (compact, &id)) in positions.iter().zip(actions.iter()).enumerate() {
                    if compact.is_over() {
                        decoded.push(None);
                        continue;
                    }
                    let legal = compact.legal_moves();
                    let mv = usize::try_from(id).ok().filter(|&id| id < m).map(Move::from_index);
                    match mv {
                        Some(mv) if legal.contains(mv) => decoded.push(Some(mv)),
                        Some(mv) => {
                            return Err(ActionError::new_err(format!(
                                "game {i}: action {id} ({}) is not legal now: the legal actions are {:?}",
                                Action::Sow(mv),
                                legal.map(|mv| mv.index()).collect::<Vec<_>>()
                            )))
                        }
                        None => {
                            let e = self.start.decode(id).expect_err("only the houses are actions");
                            return Err(ActionError::new_err(format!("game {i}: {}", e.value(py))));
                        }
                    }
                }
                for (i, mv) in decoded.into_iter().enumerate() {
                    if let Some(mv) = mv {
                        let compact = &mut positions[i];
                        if compact.sow(mv).ended {
                            let [first, second] = rewards_of(compact.final_difference(), margin);
                            rewards[2 * i] = first;
                            rewards[2 * i + 1] = second;
                        }
                        moves[i].push(mv);
                    }
                    done[i] = positions[i].is_over();
                    if done[i] && auto_reset {
                        positions[i] = *start;
                        moves[i].clear();
                    }
                }
            }
            Games::Full(games) => {
                let mut decoded = Vec::with_capacity(count);
                for (i, (game, &id)) in games.iter().zip(actions.iter()).enumerate() {
                    if game.game.is_over() {
                        decoded.push(None);
                        continue;
                    }
                    let action =
                        game.decode(id).map_err(|e| ActionError::new_err(format!("game {i}: {}", e.value(py))))?;
                    if !game.allows(action) {
                        return Err(ActionError::new_err(format!(
                            "game {i}: action {id} ({action}) is not legal now: the legal actions are {:?}",
                            game.legal_ids()
                        )));
                    }
                    decoded.push(Some(action));
                }
                for (i, (game, action)) in games.iter_mut().zip(decoded).enumerate() {
                    if let Some(action) = action {
                        game.act(action)?;
                        if game.game.is_over() {
                            let [first, second] = game.rewards(margin);
                            rewards[2 * i] = first as f32;
                            rewards[2 * i + 1] = second as f32;
                        }
                    }
                    done[i] = game.game.is_over();
                    if done[i] && auto_reset {
                        game.clone_from(&self.start);
                    }
                }
            }
        }
        let rewards = PyArray1::from_vec(py, rewards).reshape([count, 2])?;
        Ok((rewards, PyArray1::from_vec(py, done)))
    }

    /// Picks a uniformly random legal action in every game (seeded: the same seed gives the
    /// same actions), -1 where the game is over: an int64 array to pass to `step`.
    #[pyo3(signature = (seed=Int::ZERO))]
    #[pyo3(text_signature = "($self, seed=0)")]
    fn random_actions<'py>(&self, py: Python<'py>, seed: Int) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut rng = stream(seed_arg(seed)?, 0);
        let picks = match &self.games {
            Games::Compact { positions, .. } => positions
                .iter()
                .map(|c| if c.is_over() { -1 } else { pick(c.legal_moves(), &mut rng).index() as i64 })
                .collect(),
            Games::Full(games) => games
                .iter()
                .map(|game| {
                    let legal = game.legal_ids();
                    if legal.is_empty() {
                        -1
                    } else {
                        legal[rng.usize(..legal.len())] as i64
                    }
                })
                .collect(),
        };
        Ok(PyArray1::from_vec(py, picks))
    }
}

/// Registers the classes and functions of this module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBatch>()?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_alone_play_the_same_games_as_the_rules() {
        let sizes = [(4, 3), (6, 4), (7, 7), (8, 2)];
        let every = sizes.iter().flat_map(|&(m, n)| Rules::variants(m, n).unwrap().into_iter().step_by(5));
        let (mut compact, mut sowings) = (0, 0);
        for rules in every.chain([Rules::standard(6, 4).unwrap()]) {
            let game = Game::new(rules);
            let fast = Playout::of(&game);
            let slow = Playout::Game(game.clone());
            let alone = Playout::Sowings(*game.position(), rules);
            match fast {
                Playout::Compact(_) => compact += 1,
                Playout::Sowings(..) => sowings += 1,
                Playout::Game(_) => unreachable!("no pie rule, no handicap"),
            }
            for seed in 0..50 {
                let margin = slow.play(&mut stream(seed, 0));
                assert_eq!(fast.play(&mut stream(seed, 0)), margin, "{rules} seed {seed}");
                assert_eq!(alone.play(&mut stream(seed, 0)), margin, "{rules} seed {seed}");
            }
        }
        assert!(compact > 20 && sowings > 20, "both fast paths tried: {compact} compact, {sowings} not");
    }

    #[test]
    fn chunks_draw_different_streams() {
        let draws = |seed, chunk| {
            let mut rng = stream(seed, chunk);
            [rng.u64(..), rng.u64(..)]
        };
        assert_eq!(draws(1, 0), draws(1, 0));
        assert_ne!(draws(1, 0), draws(1, 1));
        assert_ne!(draws(1, 0), draws(2, 0));
    }
}
