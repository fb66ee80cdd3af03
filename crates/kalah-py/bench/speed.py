"""The kalah package's speed, measured side by side in one run (docs/python.md, "Speed").

    python crates/kalah-py/bench/speed.py [--kalah target/release/kalah] [--rounds 3]

Needs the package and open_spiel installed, and a release build of the `kalah` binary
(`cargo build --release -p kalah`). Each figure is measured in alternating rounds, and the
table gives the median round, wall time and CPU time (user + system) side by side:

1. Random playouts of Kalah(6,4) from Python, one call per action: OpenSpiel's C++ `mancala`
   through pyspiel against kalah.Game, with the same Python loop and random choices.
2. Playouts in batches: kalah.random_playouts (whole games in one call) and kalah.Batch.step
   (one action in each of 1024 games a call).
3. The engine from Python against `kalah bench` (the 12 positions to depth 13, one thread), and
   the solver from Python against `kalah bench --solver` and `kalah solve` of Kalah(5,4).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import resource
import statistics
import subprocess
import tempfile
import time

import numpy as np

import kalah

ROOT = pathlib.Path(__file__).resolve().parents[3]


def measured(work):
    """Runs work(); returns (its result, wall seconds, CPU seconds of this process and its children)."""
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = work()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before))
    return result, wall, cpu


def pyspiel_playouts(games: int, seed: int) -> int:
    import pyspiel

    game = pyspiel.load_game("mancala")
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def kalah_playouts(games: int, seed: int) -> int:
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        game = kalah.Game(size="6,4")
        while not game.is_over:
            game.play(rng.choice(game.legal_actions()))
            actions += 1
    return actions


def batch_playouts(games: int, seed: int, threads) -> int:
    return int(kalah.random_playouts(games, size="6,4", seed=seed, threads=threads).size)


def batch_steps(steps: int, seed: int) -> int:
    """Steps 1024 games together with random actions; returns the games finished."""
    batch = kalah.Batch(1024, size="6,4")
    finished = 0
    for step in range(steps):
        _, done = batch.step(batch.random_actions(seed + step), auto_reset=True)
        finished += int(done.sum())
    return finished


def python_bench() -> int:
    engine = kalah.Engine(hash_mb=16, egdb=None)
    nodes = 0
    for rules, position in kalah.bench_positions():
        engine.clear()
        nodes += engine.analyse(kalah.Game(kalah.Rules(rules), position=position), depth=kalah.BENCH_DEPTH).nodes
    return nodes


def python_solver_bench() -> int:
    nodes = 0
    for rules, position in kalah.solver_bench_positions():
        solver = kalah.Solver(hash_mb=16, egdb=None)
        nodes += solver.solve(kalah.Game(kalah.Rules(rules), position=position)).nodes
    return nodes


def python_solve(size: str) -> int:
    return kalah.Solver(hash_mb=64, egdb=None).solve(kalah.Game(size=size)).value


def cli(binary: str, *args: str) -> str:
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def row(name: str, rounds: list, unit: str, work: str) -> tuple[float, float]:
    """Prints a table row of the median round (by CPU time): its work, wall and CPU time, and
    the rate per wall second and per CPU second. Returns the two rates."""
    count, wall, cpu = sorted(rounds, key=lambda r: r[2])[len(rounds) // 2]
    rate = "{:,.2f}" if count / wall < 100 else "{:,.0f}"
    per_wall, per_cpu = rate.format(count / wall), rate.format(count / cpu)
    print(f"| {name} | {work} | {wall:.3f} s | {cpu:.3f} s | {per_wall} {unit} | {per_cpu} {unit} |", flush=True)
    return count / wall, count / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kalah", default=str(ROOT / "target/release/kalah"), help="the release kalah binary")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of each pair")
    parser.add_argument("--games", type=int, default=3000, help="playouts a round, one call per action")
    args = parser.parse_args()

    print(f"kalah {kalah.__version__}, numpy {np.__version__}, rounds {args.rounds}\n")
    print("| measurement | work | wall | CPU | per wall second | per CPU second |")
    print("|---|---|---|---|---|---|")
    spiel, ours = [], []
    for r in range(args.rounds):
        spiel.append(measured(lambda: pyspiel_playouts(args.games, r)))
        ours.append(measured(lambda: kalah_playouts(args.games, r)))
    games = lambda rounds: [(args.games, wall, cpu) for _, wall, cpu in rounds]  # noqa: E731
    spiel_rate = row("pyspiel mancala, one call per action", games(spiel), "playouts", f"{args.games} games")
    one_rate = row("kalah.Game, one call per action", games(ours), "playouts", f"{args.games} games")

    rates = {}
    for threads in (1, None):
        label = "one thread" if threads == 1 else "every core"
        # A million games, 4,000 steps: rounds long enough (a tenth of a second and more) to time.
        batched = [measured(lambda: batch_playouts(1_000_000, r, threads)) for r in range(args.rounds)]
        rates[label] = row(f"kalah.random_playouts, {label}", batched, "playouts", "1,000,000 games, one call")
    stepped = [measured(lambda: batch_steps(4000, r)) for r in range(args.rounds)]
    step_rate = row("kalah.Batch.step, 1024 games a call", stepped, "playouts", "4,000 calls")

    python, command = [], []
    for _ in range(args.rounds):
        python.append(measured(python_bench))
        command.append(measured(lambda: int(cli(args.kalah, "bench").split()[-4])))
    row("engine from Python: bench positions, depth 13", python, "nodes", "12 positions")
    row("`kalah bench`", command, "nodes", "12 positions")

    python, command = [], []
    for _ in range(args.rounds):
        python.append(measured(python_solver_bench))
        command.append(measured(lambda: int(cli(args.kalah, "bench", "--solver").split()[-4])))
    row("solver from Python: solver bench positions", python, "nodes", "8 positions")
    row("`kalah bench --solver`", command, "nodes", "8 positions")

    python, command = [], []
    with tempfile.TemporaryDirectory() as scratch:
        checkpoint = os.path.join(scratch, "solve.ckpt")
        for _ in range(args.rounds):
            python.append(measured(lambda: (1, python_solve("5,4"))[0]))
            command.append(
                measured(
                    lambda: (
                        1,
                        cli(args.kalah, "solve", "--size", "5,4", "--no-egdb", "--hash", "64", "--threads", "1",
                            "--checkpoint", checkpoint),
                    )[0]
                )
            )
    row("solver from Python: Kalah(5,4)", python, "solves", "one solve")
    row("`kalah solve --size 5,4 --no-egdb`", command, "solves", "one solve")

    def ratio(a, b):
        return f"{a[0] / b[0]:.1f} times per wall second, {a[1] / b[1]:.1f} per CPU second"

    print(f"\nkalah.Game against pyspiel's mancala, one call per action: {ratio(one_rate, spiel_rate)}")
    for label, rate in rates.items():
        print(f"kalah.random_playouts ({label}) against one call per action: {ratio(rate, one_rate)}")
    print(f"kalah.Batch.step against one call per action: {ratio(step_rate, one_rate)}")


if __name__ == "__main__":
    main()
