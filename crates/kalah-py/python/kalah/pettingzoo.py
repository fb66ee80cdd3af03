"""A PettingZoo AEC environment: two agents play Kalah, one action at a time.

Needs the ``pettingzoo`` extra (``pip install kalah[pettingzoo]``)::

    from kalah.pettingzoo import env

    game = env(size="6,4")
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        game.step(action)

The agents are ``player_0`` (the first player, South until a pie-rule swap) and ``player_1``.
An extra move keeps the same agent selected. Each observation is a dict: ``observation``, the
board as that agent sees it (``Game.observation``), and ``action_mask``, its legal actions
(all 0 when it is not its turn). The rewards come at the end: the final store difference from
each agent's side (``margin=True``, the default) or 1, 0, -1. ``env()`` wraps the raw
environment as PettingZoo's classic games are: an illegal action ends the game with reward -1
for the agent that took it.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _kalah

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for classic games (see raw_env)."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv, EzPickle):
    """Kalah for two agents, under any rules.

    raw_env(rules=None, *, margin=True, render_mode=None, **rule_keywords): rules and rule
    keywords as ``kalah.Game`` takes them (``size="6,4"``, ``pie=True``, ...).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "kalah_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(
        self,
        rules: Optional[Union[_kalah.Rules, str]] = None,
        *,
        margin: bool = True,
        render_mode: Optional[str] = None,
        **rule_keywords: Any,
    ) -> None:
        EzPickle.__init__(self, rules, margin=margin, render_mode=render_mode, **rule_keywords)
        super().__init__()
        self._start = _kalah.Game(rules, **rule_keywords)
        self.rules = self._start.rules
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _kalah.KalahError(f"render_mode={render_mode!r}: the modes are 'ansi' and 'human'")
        self.render_mode = render_mode
        self._margin = margin
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        n = self.rules.num_actions
        board = spaces.Box(
            low=0.0, high=float(self.rules.total_seeds), shape=(2 * self.rules.houses + 2,), dtype=np.float32
        )
        mask = spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": board, "action_mask": mask}) for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.agents}
        self.game = self._start.copy()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict:
        player = self.possible_agents.index(agent)
        if self.game.current_player == player:
            mask = self.game.action_mask()
        else:
            mask = np.zeros(self.rules.num_actions, dtype=np.int8)
        return {"observation": self.game.observation(player), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.game = self._start.copy()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.play(int(action))
        if self.game.is_over:
            returns = self.game.returns(margin=self._margin)
            for player, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[player]
                self.terminations[name] = True
            # The agents see the end in turn, the one that did not end it first.
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game)
        return None

    def close(self) -> None:
        pass
