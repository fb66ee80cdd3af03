"""A Gymnasium environment: one agent plays Kalah against the engine or a random opponent.

Needs the ``gymnasium`` extra (``pip install kalah[gymnasium]``). Importing this module
registers the environment as ``kalah/Kalah-v0``::

    import gymnasium
    import kalah.gym

    env = gymnasium.make("kalah/Kalah-v0", size="6,4", opponent=3)
    observation, info = env.reset(seed=1)
    action = int(info["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = env.step(action)

The observation is the board as the agent sees it (``Game.observation``): its houses from its
house 1, its store, then the opponent's houses and store, as float32. The actions are the
game's integer actions (``Game.legal_actions``); ``info["action_mask"]`` and
``env.action_masks()`` give the legal ones, and an illegal action raises ``kalah.ActionError``.
An extra move gives the agent the next step too. The reward comes at the end: the final store
difference from the agent's side (``margin=True``, the default) or 1, 0, -1.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _kalah

Opponent = Union[str, int, Callable[[_kalah.Game], int]]

__all__ = ["KalahEnv"]


class KalahEnv(gymnasium.Env):
    """One agent against an opponent, under any rules of Kalah.

    KalahEnv(rules=None, *, opponent="random", player=0, margin=True, engine=None,
    time=None, render_mode=None, **rule_keywords)

    - rules, rule keywords: as ``kalah.Game`` takes them (``size="6,4"``, ``rules="kgp"``, ...).
    - opponent: ``"random"`` (a uniformly random legal action), a level 1 to 5 (the engine's
      ``decide`` at that level, as the browser game plays), or a function of the game that
      returns an action.
    - player: the seat the agent takes: 0 (first, South), 1 (second, North), or ``"random"``
      for a seat drawn at each reset.
    - margin: the reward is the final store difference (True) or 1, 0, -1 (False).
    - engine: the ``kalah.Engine`` the levels use (default: one with a 16 MiB table).
    - time: the most seconds an engine move may take (default 1).
    - render_mode: ``"ansi"`` (``render()`` returns the board as text) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        rules: Optional[Union[_kalah.Rules, str]] = None,
        *,
        opponent: Opponent = "random",
        player: Union[int, str] = 0,
        margin: bool = True,
        engine: Optional[_kalah.Engine] = None,
        time: Optional[float] = None,
        render_mode: Optional[str] = None,
        **rule_keywords: Any,
    ) -> None:
        super().__init__()
        self._start = _kalah.Game(rules, **rule_keywords)
        self.rules = self._start.rules
        if player not in (0, 1, "random"):
            raise _kalah.KalahError(f"player={player!r}: the agent is player 0, player 1 or 'random'")
        if not (opponent == "random" or callable(opponent) or opponent in (1, 2, 3, 4, 5)):
            raise _kalah.KalahError(
                f"opponent={opponent!r}: give 'random', a level 1 to 5, or a function of the game that returns an action"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _kalah.KalahError(f"render_mode={render_mode!r}: the modes are 'ansi' and 'human'")
        self._opponent = opponent
        self._seat_choice = player
        self._margin = margin
        self._time = time
        self._engine = engine
        if self._engine is None and not callable(opponent) and opponent != "random":
            self._engine = _kalah.Engine(hash_mb=16)
        self.render_mode = render_mode
        n = self.rules.num_actions
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(
            low=0.0, high=float(self.rules.total_seeds), shape=(2 * self.rules.houses + 2,), dtype=np.float32
        )
        self.game = self._start.copy()
        self.player = 0

    def action_masks(self) -> np.ndarray:
        """The legal actions now: int8, 1 where legal (as MaskablePPO and friends ask)."""
        return self.game.action_mask()

    def _info(self) -> dict:
        return {"action_mask": self.game.action_mask(), "position": self.game.position}

    def _opponent_plays(self) -> None:
        while not self.game.is_over and self.game.current_player != self.player:
            if self._opponent == "random":
                legal = self.game.legal_actions()
                action = legal[int(self.np_random.integers(len(legal)))]
            elif callable(self._opponent):
                action = self._opponent(self.game.copy())
            else:
                action = self._engine.decide(self.game, level=self._opponent, time=self._time).action
            self.game.play(action)

    def _reward(self) -> float:
        return float(self.game.returns(margin=self._margin)[self.player])

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Starts a new game; the opponent moves first when the agent is the second player."""
        super().reset(seed=seed)
        self.game = self._start.copy()
        if self._seat_choice == "random":
            self.player = int(self.np_random.integers(2))
        else:
            self.player = int(self._seat_choice)
        self._opponent_plays()
        if self.render_mode == "human":
            self.render()
        return self.game.observation(self.player), self._info()

    def step(self, action: int):
        """Plays the agent's action, then the opponent's until the agent decides again."""
        if self.game.is_over:
            raise _kalah.GameOverError("the game is over: call reset() to start another")
        self.game.play(int(action))
        self._opponent_plays()
        terminated = self.game.is_over
        reward = self._reward() if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self.game.observation(self.player), reward, terminated, False, self._info()

    def render(self) -> Optional[str]:
        """The board as text (render_mode "ansi"), or printed (render_mode "human")."""
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game)
        return None


if "kalah/Kalah-v0" not in gymnasium.registry:
    gymnasium.register(id="kalah/Kalah-v0", entry_point="kalah.gym:KalahEnv")
