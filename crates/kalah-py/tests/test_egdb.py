"""Endgame databases from Python: built, opened, probed, and used by the engine and the solver."""

import pytest

import kalah


def test_a_database_is_built_opened_and_agrees_with_the_solver(tmp_path):
    heard = []
    built = kalah.Egdb.build(16, size="4,2", dir=tmp_path, threads=1, progress=lambda *step: heard.append(step))
    assert built.max_seeds == 16 and built.issue is None and built.memory_bytes > 0
    assert heard and heard[-1][0] == 16 and heard[-1][1] == heard[-1][2]
    opened = kalah.Egdb.open(size="4,2", dir=tmp_path)
    assert opened.max_seeds == 16 and str(opened.rules) == "kalah(4,2) standard"
    assert kalah.Egdb.open(size="4,2", dir=tmp_path, max_seeds=5).max_seeds == 5
    # A second build keeps the layers there; the start holds all 16 seeds: Kalah(4,2) is +6.
    assert kalah.Egdb.build(16, size="4,2", dir=tmp_path).max_seeds == 16
    assert opened.value(kalah.Game(size="4,2")) == 6
    solver = kalah.Solver(egdb=None)
    game = kalah.Game(size="4,2")
    for action in [0, 1, 3]:
        game.play(game.legal_actions()[action % len(game.legal_actions())])
    value = opened.value(game)
    assert value == solver.solve(game).value
    # The solver and the engine take the database, or the folder it is in.
    assert kalah.Solver(egdb=opened).solve(game).value == value
    assert kalah.Solver(egdb=tmp_path).solve(game).value == value
    assert kalah.Engine(egdb=str(tmp_path)).analyse(game, depth=2).value == value
    with pytest.raises(kalah.EgdbError, match="this database is for kalah"):
        opened.value(kalah.Game(size="4,2", rules="empty-capture"))


def test_a_database_of_other_rules_is_not_used_and_says_so(tmp_path):
    opened = kalah.Egdb.build(4, size="3,2", dir=tmp_path)
    with pytest.warns(RuntimeWarning, match="was not built for"):
        kalah.Engine(egdb=opened).analyse(kalah.Game(size="4,2"), depth=2)
