"""Kalah as an OpenSpiel game, registered from Python as ``python_kalah``.

Needs the ``openspiel`` extra (``pip install kalah[openspiel]``). Importing this module
registers the game; then every OpenSpiel algorithm can play it, on any board and under any
rules, OpenSpiel's own ``mancala`` being Kalah(6,4) alone::

    import pyspiel
    import kalah.openspiel

    game = pyspiel.load_game("python_kalah", {"houses": 5, "seeds": 3, "rules": "empty-capture"})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

Parameters (all optional): ``houses`` and ``seeds`` (6 and 4 by default, as ``mancala``),
``rules`` (a preset: standard, empty-capture, assignment, seed-on, clockwise, kgp, mkagent),
``capture``, ``end``, ``leftover``, ``direction``, ``sowing`` (a rule word, "" to keep the
preset's), the flags ``majority_ends``, ``pie``, ``handicap``, ``no_first_extra``, and
``reward``: ``"margin"`` (the final store difference, the default) or ``"win_loss"``
(1, 0, -1, as ``mancala`` scores).

The players are the seats: 0 is the first player (South until a pie-rule swap), 1 the second.
The actions are ``kalah.Game``'s integer actions; the observation tensor is
``Game.observation`` of the observing player (2m + 2 values).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from . import _kalah

__all__ = ["KalahGame", "KalahState", "GAME_TYPE", "game_rules"]

_RULE_WORDS = ("capture", "end", "leftover", "direction", "sowing")
_RULE_FLAGS = ("majority_ends", "pie", "handicap", "no_first_extra")

_DEFAULTS: dict[str, Any] = {
    "houses": 6,
    "seeds": 4,
    "rules": "standard",
    **{word: "" for word in _RULE_WORDS},
    **{flag: False for flag in _RULE_FLAGS},
    "reward": "margin",
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_kalah",
    long_name="Python Kalah",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def game_rules(params: dict[str, Any]) -> _kalah.Rules:
    """The kalah.Rules a python_kalah game's parameters give."""
    keywords: dict[str, Any] = {"size": (int(params["houses"]), int(params["seeds"])), "rules": params["rules"]}
    for word in _RULE_WORDS:
        if params[word]:
            keywords[word] = params[word]
    for flag in _RULE_FLAGS:
        keywords[flag] = bool(params[flag])
    return _kalah.Rules(**keywords)


def _max_game_length(rules: _kalah.Rules) -> int:
    """A bound on the actions of a game under `rules`.

    Counter-clockwise, a sowing that puts no seed in a store moves every seed it lifts nearer its
    owner's store, so between two sowings that do, there are at most T·m of them (T seeds,
    m houses a side); and at most T sowings put a seed in a store. Clockwise, the game ends after
    100 sowings in a row without progress. The swap and the handicap add an action each.
    """
    total, houses = rules.total_seeds, rules.houses
    quiet = 100 if rules.direction == "cw" else total * houses
    return (total + 1) * (quiet + 1) + 2


class KalahGame(pyspiel.Game):
    """python_kalah: Kalah on any board and under any rules (see the module's help)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        if params["reward"] not in ("margin", "win_loss"):
            raise _kalah.KalahError(f"reward={params['reward']!r}: give 'margin' or 'win_loss'")
        self.kalah_rules = game_rules(params)
        self.margin = params["reward"] == "margin"
        limit = float(self.kalah_rules.total_seeds) if self.margin else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kalah_rules.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-limit,
            max_utility=limit,
            utility_sum=0.0,
            max_game_length=_max_game_length(self.kalah_rules),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> "KalahState":
        """A state at the start of a game."""
        return KalahState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the board (or, for perfect recall, of the history)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.kalah_rules, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KalahState(pyspiel.State):
    """A state of python_kalah: a kalah.Game underneath (``state.game``)."""

    def __init__(self, game: KalahGame) -> None:
        super().__init__(game)
        self.game = _kalah.Game(game.kalah_rules)
        self._margin = game.margin

    def current_player(self) -> int:
        player = self.game.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.game.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        return list(self.game.returns(margin=self._margin))

    def __str__(self) -> str:
        return str(self.game)


class BoardObserver:
    """The board as the observing player sees it (Game.observation), and as text."""

    def __init__(self, rules: _kalah.Rules, params) -> None:
        if params:
            raise ValueError(f"python_kalah's observations take no parameters; given {params}")
        self.tensor = np.zeros(2 * rules.houses + 2, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KalahState, player: int) -> None:
        self.tensor[:] = state.game.observation(player)

    def string_from(self, state: KalahState, player: int) -> str:
        return f"{state.game.position} {state.game.phase}" + (" swapped" if state.game.swapped else "")


pyspiel.register_game(GAME_TYPE, KalahGame)
