"""What the package returns pickles, so that a process pool can hand it back: decisions,
analyses, solutions, outcomes and sides, as games and rules already did."""

import concurrent.futures
import copy
import pickle

import pytest

import kalah


def decide_in_a_worker():
    """A worker's job: the engine's decision on Kalah(4,3) after house 1, pie rule."""
    game = kalah.Game(size="4,3", pie=True)
    game.play("1")
    return kalah.Engine(egdb=None, hash_mb=1).decide(game, depth=6)


def fields(value):
    names = [name for name in dir(type(value)) if not name.startswith("_") and not callable(getattr(value, name))]
    return {name: getattr(value, name) for name in names}


def results():
    game = kalah.Game(size="6,4")
    engine = kalah.Engine(egdb=None, hash_mb=1)
    decision = engine.decide(game, depth=4)
    analysis = engine.analyse(game, depth=4)
    solution = kalah.Solver(egdb=None, hash_mb=1).solve(kalah.Game(size="3,2"))
    stopped = kalah.Solver(egdb=None, hash_mb=1).solve(kalah.Game(size="6,4"), nodes=100)
    game.play("3")
    return [decision, analysis, solution, stopped, game.last_outcome, kalah.Side.SOUTH, game.to_move]


@pytest.mark.parametrize("value", results(), ids=lambda v: type(v).__name__)
def test_a_result_pickles_and_copies_to_an_equal_one(value):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert type(back) is type(value)
        assert fields(back) == fields(value) and repr(back) == repr(value) and str(back) == str(value)
    assert fields(copy.deepcopy(value)) == fields(value)


def test_a_side_comes_back_as_itself():
    for side in (kalah.Side.SOUTH, kalah.Side.NORTH):
        back = pickle.loads(pickle.dumps(side))
        assert back is side and back == side and hash(back) == hash(side)


def test_a_process_pool_returns_a_decision():
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        decision = pool.submit(decide_in_a_worker).result()
    here = decide_in_a_worker()
    assert (decision.action, decision.text, decision.reason, decision.value) == (
        here.action,
        here.text,
        here.reason,
        here.value,
    )
    for side in ("south", "north"):
        assert decision.value_for(side) == here.value_for(side)
