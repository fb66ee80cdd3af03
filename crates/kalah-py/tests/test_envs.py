"""The environments: PettingZoo's api_test, Gymnasium's env_checker, games played through them."""

import numpy as np
import pytest

import kalah

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import kalah.gym  # noqa: E402  (registers kalah/Kalah-v0)
import kalah.pettingzoo  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

RULES = [
    {"size": "6,4"},
    {"size": "4,3", "pie": True, "handicap": True},
    {"size": "5,5", "rules": "seed-on"},
    {"size": "3,3", "rules": "clockwise"},
    {"rules": "mkagent"},
]


@pytest.mark.parametrize("keywords", RULES)
def test_the_aec_environment_passes_pettingzoos_api_test(keywords):
    api_test(kalah.pettingzoo.env(**keywords), num_cycles=300, verbose_progress=False)
    api_test(kalah.pettingzoo.raw_env(**keywords), num_cycles=300, verbose_progress=False)


def test_an_extra_move_keeps_the_agent_selected_and_the_rewards_are_the_margin():
    env = kalah.pettingzoo.env(size="6,4")
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    env.step(2)  # house 3: South sows again
    assert env.agent_selection == "player_0"
    env.step(5)
    assert env.agent_selection == "player_1"
    rng = np.random.default_rng(3)
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            action = None
        else:
            mask = observation["action_mask"]
            assert mask.dtype == np.int8 and observation["observation"].shape == (14,)
            action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
    game = env.unwrapped.game
    assert game.is_over
    assert final == {"player_0": game.margin, "player_1": -game.margin}


def test_an_illegal_action_ends_the_wrapped_game_with_a_penalty():
    env = kalah.pettingzoo.env(size="6,4")
    env.reset()
    env.step(2)
    env.step(2)  # house 3 is empty now
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1


@pytest.mark.parametrize("opponent", ["random", 1, 3])
def test_the_gymnasium_environment_passes_the_env_checker(opponent):
    env = gymnasium.make("kalah/Kalah-v0", size="6,4", opponent=opponent, player="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_the_gymnasium_environment_plays_whole_games_against_the_engine():
    env = kalah.gym.KalahEnv(size="4,3", opponent=2, player=1, margin=False)
    observation, info = env.reset(seed=5)
    assert env.game.current_player == 1 and len(env.game.actions) >= 1, "the engine moved first"
    rng = np.random.default_rng(5)
    total = 0.0
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert observation.shape == (10,) and env.observation_space.contains(observation)
        total += reward
    assert total in (-1.0, 0.0, 1.0) and total == env.game.returns(margin=False)[1]
    with pytest.raises(kalah.GameOverError):
        env.step(0)
    env.reset()
    with pytest.raises(kalah.ActionError):
        env.step(99)


def test_a_function_can_be_the_opponent():
    seen = []

    def first_legal(game):
        seen.append(game.position)
        return game.legal_actions()[0]

    env = kalah.gym.KalahEnv(size="3,2", opponent=first_legal, render_mode="ansi")
    env.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info_mask(env))[0]))
    assert seen and "South" in env.render()


def info_mask(env):
    return env.action_masks()


@pytest.mark.parametrize(
    "keywords, words",
    [
        ({"opponent": 9}, "level 1 to 5"),
        ({"opponent": "strong"}, "level 1 to 5"),
        ({"player": 2}, "player 0, player 1 or 'random'"),
        ({"render_mode": "rgb_array"}, "'ansi' and 'human'"),
        ({"rules": "chess"}, "unknown rules preset"),
    ],
)
def test_bad_environment_arguments_raise(keywords, words):
    with pytest.raises(kalah.KalahError, match=words):
        kalah.gym.KalahEnv(**keywords)
