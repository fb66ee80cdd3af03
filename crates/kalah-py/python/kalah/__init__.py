"""Kalah for Python: the rules, the engine and the solver of kalah.

Every board from Kalah(1,1) to Kalah(12,12) and every rule variant the ``kalah`` command knows,
a strong engine (analysis, the one decision every kalah front end makes, levels 1 to 5), an
exact solver with endgame databases, and batches of games for training loops.

>>> import kalah
>>> game = kalah.Game(size="6,4")
>>> game.play("3")            # house 3 ends in South's store: an extra move
True
>>> kalah.Solver(egdb=None).solve(kalah.Game(size="4,3")).value
6

Environments for the game-AI libraries live in submodules, each an optional extra:
``kalah.gym`` (Gymnasium, ``pip install kalah[gymnasium]``), ``kalah.pettingzoo``
(PettingZoo, ``kalah[pettingzoo]``) and ``kalah.openspiel`` (OpenSpiel, ``kalah[openspiel]``).

Every error on bad input is a ``kalah.KalahError`` (a ``ValueError``) of its own kind:
``RulesError``, ``PositionError``, ``ActionError``, ``GameOverError``, ``RecordError``,
``EgdbError``. Searches and solves release the GIL, and Ctrl-C stops them with
``KeyboardInterrupt``; the package installs no signal handler.
"""

from ._kalah import (
    BENCH_DEPTH,
    BENCH_SIGNATURE,
    SOLVER_SIGNATURE,
    ActionError,
    Analysis,
    Batch,
    Decision,
    Egdb,
    EgdbError,
    Engine,
    Game,
    GameOverError,
    KalahError,
    Outcome,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    Side,
    Solution,
    Solver,
    __version__,
    bench_positions,
    egdb_dir,
    random_playouts,
    solver_bench_positions,
)

__all__ = [
    "BENCH_DEPTH",
    "BENCH_SIGNATURE",
    "SOLVER_SIGNATURE",
    "ActionError",
    "Analysis",
    "Batch",
    "Decision",
    "Egdb",
    "EgdbError",
    "Engine",
    "Game",
    "GameOverError",
    "KalahError",
    "Outcome",
    "PositionError",
    "RecordError",
    "Rules",
    "RulesError",
    "Side",
    "Solution",
    "Solver",
    "__version__",
    "bench_positions",
    "egdb_dir",
    "random_playouts",
    "solver_bench_positions",
]
