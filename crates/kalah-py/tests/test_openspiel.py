"""python_kalah passes OpenSpiel's checks for Python games and agrees with OpenSpiel's mancala."""

import pickle
import random

import numpy as np
import pytest

import kalah

pyspiel = pytest.importorskip("pyspiel")

import kalah.openspiel  # noqa: E402  (registers python_kalah)
from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

PARAMS = [
    {},
    {"houses": 4, "seeds": 3, "pie": True, "handicap": True},
    {"houses": 5, "seeds": 3, "rules": "empty-capture", "reward": "win_loss"},
    {"houses": 3, "seeds": 3, "rules": "clockwise"},
    {"houses": 4, "seeds": 4, "sowing": "relay", "capture": "none"},
    {"houses": 7, "seeds": 7, "rules": "mkagent"},
]


@pytest.mark.parametrize("params", PARAMS)
def test_openspiels_random_simulation_test(params):
    game = pyspiel.load_game("python_kalah", params)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


@pytest.mark.parametrize("params", PARAMS[:3])
def test_openspiels_own_simulation_checks_for_every_game(params):
    """The checks OpenSpiel's games_sim_test runs on each of its games: clones, serialization,
    pickling of the game, its type and its states, and the rules of the API along random games."""
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    checks = GamesSimTest()
    game = pyspiel.load_game("python_kalah", params)
    for _ in range(5):
        checks.sim_game(game)


def reachable(game):
    """Every distinct state of a kalah.Game, by a search of its own: position, phase, swap."""
    seen = set()
    stack = [game]
    while stack:
        state = stack.pop()
        key = (state.position, state.phase, state.swapped)
        if key in seen:
            continue
        seen.add(key)
        for action in state.legal_actions():
            child = state.copy()
            child.play(action)
            stack.append(child)
    return seen


@pytest.mark.parametrize("params", [{"houses": 2, "seeds": 2}, {"houses": 3, "seeds": 1, "pie": True}, {"houses": 2, "seeds": 1, "handicap": True}])
def test_all_states_of_a_small_board(params):
    game = pyspiel.load_game("python_kalah", params)
    states = get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=False, to_string=str)
    rules = kalah.openspiel.game_rules({**kalah.openspiel._DEFAULTS, **params})
    assert len(states) == len(reachable(kalah.Game(rules)))
    observation = make_observation(game)
    for state in states.values():
        assert state.legal_actions() == state.game.legal_actions()
        if state.is_terminal():
            first = -1 if state.game.swapped else 1  # the first player's side: South, or North after a swap
            assert state.returns() == [first * state.game.margin, -first * state.game.margin]
        else:
            observation.set_from(state, state.current_player())
            np.testing.assert_array_equal(observation.tensor, state.game.observation())


def test_states_pickle_and_clone():
    game = pyspiel.load_game("python_kalah", {"houses": 5, "seeds": 2})
    state = game.new_initial_state()
    for action in [0, 3, 2]:
        state.apply_action(state.legal_actions()[action % len(state.legal_actions())])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history()[:-1] == state.history()


def test_mcts_plays_a_variant_mancala_lacks():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_kalah", {"houses": 4, "seeds": 3, "rules": "empty-capture", "reward": "win_loss"})
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=50, evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns()[0] in (-1.0, 0.0, 1.0)


def board_of(state):
    """OpenSpiel mancala's board as kalah's position: pits 1-6 South, 7 South's store, 8-13 North, 0 North's store."""
    cells = [int(x) for x in state.observation_tensor(0)[:14]]
    south, north = cells[1:7], cells[8:14]
    return (south, cells[7], north, cells[0])


def test_agreement_with_openspiels_mancala_over_thousands_of_random_games():
    """Kalah(6,4) standard: the same legal moves, successors and final scores at every step."""
    mancala = pyspiel.load_game("mancala")
    rng = random.Random(2024)
    steps = 0
    for _ in range(3000):
        theirs = mancala.new_initial_state()
        ours = kalah.Game(size="6,4")
        while not theirs.is_terminal():
            player = theirs.current_player()
            assert ours.current_player == player
            offset = 1 if player == 0 else 8
            assert theirs.legal_actions() == [a + offset for a in ours.legal_actions()]
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.play(action - offset)
            south, south_store, north, north_store = board_of(theirs)
            if ours.is_over:
                # mancala leaves the last seeds in their houses; kalah deals them to their owners.
                assert ours.result == (south_store + sum(south), north_store + sum(north)), ours.history()
            else:
                assert (ours.houses("S"), ours.houses("N")) == (south, north), ours.history()
                assert ours.stores == (south_store, north_store), ours.history()
            steps += 1
        assert ours.is_over
        assert theirs.returns()[0] == np.sign(ours.margin)
    assert steps > 3000 * 20
