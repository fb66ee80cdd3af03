"""Type stubs of the extension module kalah._kalah (re-exported by the kalah package)."""

import os
from typing import Any, Callable, Optional, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
BENCH_DEPTH: int
BENCH_SIGNATURE: int
SOLVER_SIGNATURE: int

class KalahError(ValueError):
    """Every error the kalah package raises on bad input."""

class RulesError(KalahError):
    """A board size, rules preset or rule option that is not known."""

class PositionError(KalahError):
    """A position that does not read, or does not fit the rules."""

class ActionError(KalahError):
    """An action that does not read or is not allowed now."""

class GameOverError(ActionError):
    """An action asked of a game that is over."""

class RecordError(KalahError):
    """A game record that cannot be read."""

class EgdbError(KalahError):
    """An endgame database that cannot be built, opened or used."""

Size = Union[str, tuple[int, int]]
RulesArg = Union["Rules", str, None]
ActionArg = Union[int, str]

@final
class Rules:
    """The size of the board and every rule variant of a game of Kalah(m,n).

    Rules(text) reads the text str() writes ("kalah(6,4) standard pie"); Rules(**keywords)
    builds rules from the command line's words: size ("M,N" or (M, N)), rules (a preset),
    capture, end, leftover, direction, sowing, majority_ends, pie, handicap, no_first_extra.
    """

    def __init__(
        self,
        text: Optional[str] = None,
        *,
        size: Optional[Size] = None,
        rules: Optional[str] = None,
        capture: Optional[str] = None,
        end: Optional[str] = None,
        leftover: Optional[str] = None,
        direction: Optional[str] = None,
        sowing: Optional[str] = None,
        majority_ends: bool = False,
        pie: bool = False,
        handicap: bool = False,
        no_first_extra: bool = False,
    ) -> None: ...
    @property
    def houses(self) -> int:
        """Houses a side (m)."""
    @property
    def seeds(self) -> int:
        """Seeds each house starts with (n)."""
    @property
    def capture(self) -> str:
        """The capture rule: "standard", "empty" or "none"."""
    @property
    def end(self) -> str:
        """The end rule: "side-empty" or "mover-stuck"."""
    @property
    def leftover(self) -> str:
        """Who gets the seeds left at the end: "owner", "emptier" or "discard"."""
    @property
    def direction(self) -> str:
        """The sowing direction: "ccw" or "cw"."""
    @property
    def sowing(self) -> str:
        """The sowing: "single" or "relay"."""
    @property
    def majority_ends(self) -> bool:
        """The game also ends once a store holds more than half of all seeds."""
    @property
    def pie(self) -> bool:
        """The pie rule."""
    @property
    def handicap(self) -> bool:
        """The handicap opening."""
    @property
    def first_move_extra(self) -> bool:
        """The first sowing of the game may give an extra move (False under mkagent)."""
    @property
    def preset(self) -> Optional[str]:
        """The name of the preset these rules are (pie and handicap aside), or None."""
    @property
    def total_seeds(self) -> int:
        """The seeds in play at the start: 2mn."""
    @property
    def num_actions(self) -> int:
        """How many integer actions these rules have."""
    @staticmethod
    def presets() -> list[tuple[str, str]]:
        """The named presets: (name, what it is) pairs."""
    @staticmethod
    def variants(houses: int, seeds: int) -> list[Rules]:
        """Every combination of the fields that change how Kalah(houses, seeds) plays."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Side:
    """One of the two sides of the board. South moves first and owns the bottom row."""

    SOUTH: Side
    NORTH: Side
    @property
    def opponent(self) -> Side:
        """The other side."""
    def __int__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

SideArg = Union[Side, int, str]

@final
class Outcome:
    """What the last sowing did."""

    @property
    def extra_move(self) -> bool:
        """The last seed landed in the mover's store: the mover moves again."""
    @property
    def captured(self) -> int:
        """Seeds the sowing captured into the mover's store (0 if none)."""
    @property
    def relays(self) -> int:
        """Houses that relay sowing lifted after the first."""
    @property
    def ended(self) -> bool:
        """The sowing ended the game."""

class Game:
    """A game of Kalah: the rules, the start, every action so far, and the position now.

    Game(rules=None, *, position=None, **rule keywords): rules is a Rules or a preset name;
    the rule keywords are Rules's; position, in the position notation, gives the start (and,
    when no size is given, the size: its houses a side and the fewest seeds a house, at most
    12, whose 2mn seeds hold all of its seeds).
    """

    def __init__(
        self,
        rules: RulesArg = None,
        *,
        position: Optional[str] = None,
        size: Optional[Size] = None,
        capture: Optional[str] = None,
        end: Optional[str] = None,
        leftover: Optional[str] = None,
        direction: Optional[str] = None,
        sowing: Optional[str] = None,
        majority_ends: bool = False,
        pie: bool = False,
        handicap: bool = False,
        no_first_extra: bool = False,
    ) -> None: ...
    @staticmethod
    def from_record(text: str) -> Game:
        """Reads a game record, replaying and checking every move."""
    @property
    def rules(self) -> Rules:
        """The rules of the game."""
    @property
    def num_actions(self) -> int:
        """How many integer actions the rules have: the length of the action mask."""
    def legal_actions(self) -> list[int]:
        """The actions allowed now, as integers in increasing order."""
    def action_mask(self) -> npt.NDArray[np.int8]:
        """The legal actions as an int8 array of num_actions: 1 where legal."""
    def is_legal(self, action: ActionArg) -> bool:
        """Tells whether `action` may be played now."""
    def play(self, action: ActionArg) -> bool:
        """Plays an action; returns True when the same player moves again."""
    def undo(self) -> Optional[int]:
        """Takes back the last action and returns its number, or None at the start."""
    @property
    def phase(self) -> str:
        """What the game waits for: "handicap", "pie-opening" (South's first turn under
        the pie rule), "pie-offer", "play" or "over"."""
    @property
    def is_over(self) -> bool:
        """True once the game is over."""
    @property
    def current_player(self) -> Optional[int]:
        """The player (0 or 1) who decides now, or None once the game is over."""
    @property
    def to_move(self) -> Optional[Side]:
        """The side whose player decides now, or None once the game is over."""
    @property
    def mover(self) -> Side:
        """The side to move in the position."""
    @property
    def extra_move(self) -> bool:
        """True when the last action was a sowing that gives its player another turn."""
    @property
    def last_outcome(self) -> Optional[Outcome]:
        """What the last action did, if it was a sowing."""
    @property
    def swapped(self) -> bool:
        """True once the players have swapped sides under the pie rule."""
    def side_of_player(self, player: int) -> Side:
        """The side `player` (0 or 1) plays now."""
    def player_of_side(self, side: SideArg) -> int:
        """The player (0 or 1) who plays `side` now."""
    @property
    def stores(self) -> tuple[int, int]:
        """The stores now: (South's, North's)."""
    def houses(self, side: SideArg) -> list[int]:
        """A side's houses now, from its house 1 to house m."""
    @property
    def result(self) -> Optional[tuple[int, int]]:
        """The final stores (South's, North's) once the game is over; None before."""
    @property
    def margin(self) -> Optional[int]:
        """The final store difference, South minus North, once the game is over; None before."""
    def returns(self, margin: bool = True) -> tuple[float, float]:
        """Each player's reward at the end (margin or 1, 0, -1); (0, 0) before."""
    @property
    def position(self) -> str:
        """The position now, in the position notation."""
    @property
    def kgp(self) -> str:
        """The position now as a KGP board literal."""
    @property
    def start(self) -> str:
        """The start position, in the position notation."""
    @property
    def actions(self) -> list[int]:
        """The actions played so far, as integers."""
    def history(self) -> list[str]:
        """The actions played so far, as records write them."""
    def action_to_string(self, action: int) -> str:
        """The text of an action number."""
    def string_to_action(self, text: str) -> int:
        """The number of an action written as text."""
    def observation(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The board as `player` sees it: its houses, its store, the opponent's houses and store."""
    def perft(self, depth: int) -> int:
        """Counts the sequences of `depth` sowings from the position now (0 to 40); Ctrl-C stops it."""
    @property
    def tags(self) -> dict[str, str]:
        """The tag pairs of the game's record."""
    def to_record(self, tags: Optional[dict[str, str]] = None) -> str:
        """The game record as text."""
    def copy(self) -> Game:
        """A copy of the game, with its history."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __len__(self) -> int: ...

def random_playouts(
    count: int,
    rules: RulesArg = None,
    *,
    seed: int = 0,
    threads: Optional[int] = None,
    position: Optional[str] = None,
    **rule_keywords: Any,
) -> npt.NDArray[np.int32]:
    """Plays `count` random games to the end in one call, on `threads` threads (default: every
    core); returns their final margins (South - North). The same seed gives the same games.
    Ctrl-C stops it with KeyboardInterrupt."""

class Batch:
    """Many games of one rule set, stepped together with NumPy arrays.

    Batch(count, rules=None, *, position=None, **rule keywords).
    """

    def __init__(self, count: int, rules: RulesArg = None, *, position: Optional[str] = None, **rule_keywords: Any) -> None: ...
    def __len__(self) -> int: ...
    @property
    def rules(self) -> Rules:
        """The rules of the games."""
    @property
    def num_actions(self) -> int:
        """How many integer actions the rules have."""
    def reset(self) -> None:
        """Starts every game again."""
    def game(self, index: int) -> Game:
        """A copy of game `index`."""
    def observations(self) -> npt.NDArray[np.float32]:
        """Every game's observation: shape (count, 2m + 2)."""
    def action_masks(self) -> npt.NDArray[np.int8]:
        """Every game's legal actions: shape (count, num_actions)."""
    def current_players(self) -> npt.NDArray[np.int8]:
        """The player who decides in each game, -1 where the game is over."""
    def step(
        self, actions: npt.ArrayLike, *, margin: bool = True, auto_reset: bool = False
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Plays actions[i] in game i; returns (rewards of shape (count, 2), done). Actions are
        whole numbers (an int array or ints): floats and bools are a TypeError."""
    def random_actions(self, seed: int = 0) -> npt.NDArray[np.int64]:
        """A random legal action in every game, -1 where the game is over."""

@final
class Analysis:
    """What the engine found. Pickles (a process pool can return one)."""

    @property
    def value(self) -> float:
        """The value for the side to move, in seeds."""
    @property
    def exact(self) -> bool:
        """True when the value is proven."""
    @property
    def side(self) -> Side:
        """The side to move, whose value this is."""
    @property
    def best(self) -> Optional[int]:
        """The best action, or None when the game is over."""
    @property
    def line(self) -> list[int]:
        """The line the engine expects, as action numbers."""
    @property
    def depth(self) -> int:
        """The depth completed, in sowings."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def seconds(self) -> float:
        """Seconds the search took."""

@final
class Decision:
    """An action chosen, what it is worth to the player who takes it, and why. Pickles."""

    @property
    def action(self) -> int:
        """The action to play."""
    @property
    def text(self) -> str:
        """The action as records write it."""
    @property
    def value(self) -> float:
        """What the action is worth to the player taking it, in seeds, as `side`."""
    @property
    def side(self) -> Side:
        """The side the player holds after the action (South after a swap)."""
    @property
    def exact(self) -> bool:
        """True when the value is proven."""
    @property
    def depth(self) -> int:
        """The depth the decision rests on."""
    def value_for(self, side: SideArg) -> float:
        """What the decision is worth to `side`, in seeds."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def reason(self) -> str:
        """Why this action."""

@final
class Solution:
    """The exact value of a position, a best move and a perfect line (or bounds, if stopped). Pickles."""

    @property
    def value(self) -> Optional[int]:
        """The exact value for the side to move, in seeds; None when stopped at the node budget."""
    @property
    def complete(self) -> bool:
        """True when the solve is complete."""
    @property
    def lower(self) -> int:
        """The proven lower bound on the value."""
    @property
    def upper(self) -> int:
        """The proven upper bound on the value."""
    @property
    def side(self) -> Side:
        """The side to move, whose value this is."""
    @property
    def best(self) -> Optional[int]:
        """A best action, or None."""
    @property
    def line(self) -> list[int]:
        """A perfect line to the end of the game, as action numbers."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def seconds(self) -> float:
        """Seconds the solve took."""

EgdbArg = Union[None, bool, str, os.PathLike[str], "Egdb"]

@final
class Engine:
    """The strong engine: analysis within limits, and decide, the decision every front end makes."""

    def __init__(self, *, hash_mb: int = 64, threads: int = 1, egdb: EgdbArg = "auto", memory_mb: Optional[int] = None) -> None: ...
    def analyse(
        self,
        game: Game,
        *,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[Analysis], Optional[bool]]] = None,
    ) -> Analysis:
        """Searches the game's position within the limits (two seconds when none is given)."""
    def analyze(
        self,
        game: Game,
        *,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[Analysis], Optional[bool]]] = None,
    ) -> Analysis:
        """The same as analyse."""
    def decide(
        self,
        game: Game,
        *,
        level: Optional[int] = None,
        depth: Optional[int] = None,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> Decision:
        """Decides what the player to decide in `game` should do."""
    def clear(self) -> None:
        """Empties the transposition table."""

@final
class Solver:
    """The exact solver."""

    def __init__(self, *, hash_mb: int = 64, threads: int = 1, egdb: EgdbArg = "auto", memory_mb: Optional[int] = None) -> None: ...
    def solve(
        self,
        game: Game,
        *,
        nodes: Optional[int] = None,
        progress: Optional[Callable[[int, int, int], Optional[bool]]] = None,
    ) -> Solution:
        """Solves the game's position exactly (or to the node budget); progress(nodes, lower,
        upper) hears how far it has got, and returning False stops it."""

@final
class Egdb:
    """An endgame database of one rule set."""

    @staticmethod
    def open(
        rules: RulesArg = None,
        *,
        dir: Optional[Union[str, os.PathLike[str]]] = None,
        max_seeds: Optional[int] = None,
        memory_mb: Optional[int] = None,
        **rule_keywords: Any,
    ) -> Egdb:
        """Opens the database of the rules in `dir` (default: egdb_dir())."""
    @staticmethod
    def build(
        seeds: int,
        rules: RulesArg = None,
        *,
        dir: Optional[Union[str, os.PathLike[str]]] = None,
        threads: Optional[int] = None,
        progress: Optional[Callable[[int, int, int], Any]] = None,
        **rule_keywords: Any,
    ) -> Egdb:
        """Builds the layers 0 to `seeds` in `dir` and opens the database."""
    @property
    def rules(self) -> Rules:
        """The rules the database was opened for."""
    @property
    def max_seeds(self) -> int:
        """The most seeds in the houses of a position the database holds."""
    @property
    def memory_bytes(self) -> int:
        """The bytes the database takes in memory."""
    @property
    def issue(self) -> Optional[str]:
        """Why loading stopped below a layer that is on disk, if it did."""
    def value(self, game: Game) -> Optional[int]:
        """The exact value of the game's position for the side to move, or None."""

def egdb_dir() -> Optional[os.PathLike[str]]:
    """The default folder of the endgame databases, or None."""

def bench_positions() -> list[tuple[str, str]]:
    """The positions of `kalah bench`: (rules, position) pairs."""

def solver_bench_positions() -> list[tuple[str, str]]:
    """The positions of `kalah bench --solver`: (rules, position) pairs."""
