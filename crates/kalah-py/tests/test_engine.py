"""kalah.Engine and kalah.Solver: the command line's results from Python, levels, limits, stops."""

import os
import signal
import subprocess
import sys
import textwrap

import pytest

import kalah


def engine(**options):
    return kalah.Engine(egdb=None, **options)


def test_an_analysis_is_the_clis(kalah_cli):
    game = kalah.Game(position="4,4,0,5,5,5:1/4,4,4,4,4,4:0/S", size="6,6")
    analysis = engine().analyse(game, depth=10)
    out = subprocess.run(
        [kalah_cli, "analyze", game.position, "--size", "6,6", "--depth", "10", "--no-egdb"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert f"best move: {analysis.best + 1}" in out
    assert f"value: {analysis.value:+.2f} seeds for South (depth 10)" in out
    assert "line: " + " ".join(str(a + 1) for a in analysis.line) in out
    assert f"nodes: {analysis.nodes}," in out
    assert str(analysis).splitlines()[0] == "best move: 6"


def test_the_bench_signature_from_python():
    """`kalah bench`'s positions searched from Python to its depth give its node total."""
    search = kalah.Engine(hash_mb=16, egdb=None)
    total = 0
    for rules, position in kalah.bench_positions():
        search.clear()
        total += search.analyse(kalah.Game(kalah.Rules(rules), position=position), depth=kalah.BENCH_DEPTH).nodes
    assert total == kalah.BENCH_SIGNATURE == 20006262


def test_the_solver_signature_from_python():
    total = 0
    for rules, position in kalah.solver_bench_positions():
        solver = kalah.Solver(hash_mb=16, egdb=None)
        solution = solver.solve(kalah.Game(kalah.Rules(rules), position=position))
        assert solution.complete
        total += solution.nodes
    assert total == kalah.SOLVER_SIGNATURE == 1078414


def test_the_test_boards_solve_to_their_published_values(root):
    """crates/kalah-engine/tests/data/values.txt, the boards that solve in a moment."""
    solver = kalah.Solver(egdb=None)
    solved = 0
    for line in (root / "crates/kalah-engine/tests/data/values.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        preset, houses, seeds, value, _source = line.split()
        if int(houses) * int(seeds) > 16:
            continue
        game = kalah.Game(size=(int(houses), int(seeds)), rules=preset)
        solution = solver.solve(game)
        assert solution.value == int(value), line
        # The perfect line is legal and reaches the value.
        for action in solution.line:
            game.play(action)
        assert game.is_over and game.margin == int(value), line
        solved += 1
    assert solved >= 40


def test_a_solve_within_a_node_budget_returns_proven_bounds():
    game = kalah.Game(size="6,4")
    solution = kalah.Solver(egdb=None, hash_mb=16).solve(game, nodes=200_000)
    assert not solution.complete and solution.value is None
    assert solution.lower <= 8 <= solution.upper, "Kalah(6,4) is +8"
    assert "between" in str(solution)


def test_decisions_are_legal_in_every_phase():
    search = engine(hash_mb=8)
    game = kalah.Game(size="4,3", pie=True, handicap=True)
    while not game.is_over:
        decision = search.decide(game, depth=4)
        assert decision.action in game.legal_actions()
        assert decision.text == game.action_to_string(decision.action)
        game.play(decision.action)
    assert any(a >= 4 for a in game.actions), "a keep or handicap move was decided"
    with pytest.raises(kalah.GameOverError):
        search.decide(game)


def test_a_decision_says_whose_value_it_is():
    search = engine(hash_mb=8)
    sides = set()
    for opening in (0, 2, 3):
        game = kalah.Game(size="4,3", pie=True)
        game.play(opening)
        assert game.phase == "pie-offer"
        decision = search.decide(game, depth=30)
        swapped = game.action_to_string(decision.action) == "swap"
        # After a swap North's player holds South, and the value is South's.
        assert decision.side == (kalah.Side.SOUTH if swapped else kalah.Side.NORTH)
        assert decision.value_for(decision.side) == decision.value
        assert decision.value_for(decision.side.opponent) == -decision.value
        sides.add(decision.side)
    assert sides == {kalah.Side.SOUTH, kalah.Side.NORTH}, "one opening is swapped, another kept"


def test_levels_are_the_browser_games():
    game = kalah.Game(size="6,4")
    search = engine(hash_mb=8)
    assert search.decide(game, level=1).depth == 1
    assert search.decide(game, level=2).depth <= 3
    for bad in (0, 6):
        with pytest.raises(kalah.KalahError, match="levels are 1 to 5"):
            search.decide(game, level=bad)
    with pytest.raises(kalah.KalahError, match="not both"):
        search.decide(game, level=3, depth=4)


def test_a_callback_hears_each_depth_and_can_stop_the_search():
    heard = []

    def callback(analysis):
        heard.append(analysis.depth)
        return analysis.depth < 5

    analysis = engine().analyse(kalah.Game(), depth=40, callback=callback)
    assert heard == [1, 2, 3, 4, 5] and analysis.depth == 5


def test_a_search_releases_the_gil():
    """Another thread runs while a search runs: with a switch interval of 1000 s no thread gives
    the GIL up unless it waits, so had the search held the GIL, this thread could not stop it
    and it would run to its node limit."""
    import sys
    import threading

    started, stop, result = threading.Event(), threading.Event(), {}

    def callback(analysis):
        started.set()
        return not stop.is_set()

    def search():
        result["analysis"] = engine(hash_mb=16).analyse(kalah.Game(), depth=60, nodes=50_000_000, callback=callback)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=search)
        thread.start()
        started.wait()
        stop.set()
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert result["analysis"].nodes < 50_000_000


def test_an_exception_in_a_callback_stops_the_search_and_is_raised():
    def callback(analysis):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        engine().analyse(kalah.Game(), depth=40, callback=callback)


def test_an_engine_follows_the_rules_of_each_game():
    search = engine(hash_mb=8)
    assert search.analyse(kalah.Game(size="4,3"), time=30).value == 6
    assert search.analyse(kalah.Game(size="4,4"), time=30).value == 2
    assert search.analyse(kalah.Game(size="4,4", rules="empty-capture"), time=30).value == 2
    assert search.analyse(kalah.Game(size="4,3"), time=30).exact


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda e, g: e.analyse(g, depth=0), "1 to 120"),
        (lambda e, g: e.analyse(g, depth=121), "1 to 120"),
        (lambda e, g: e.analyse(g, time=0), "more than 0"),
        (lambda e, g: e.analyse(g, time=-1), "more than 0"),
        (lambda e, g: e.analyse(g, time=float("nan")), "more than 0"),
        (lambda e, g: e.analyse(g, nodes=0), "at least 1 node"),
        (lambda e, g: e.decide(g, time=1e9), "at most 86400"),
    ],
)
def test_bad_limits_raise(call, words):
    with pytest.raises(kalah.KalahError, match=words):
        call(engine(hash_mb=1), kalah.Game())


@pytest.mark.parametrize(
    "options, words",
    [
        ({"hash_mb": 0}, "1 to 65536"),
        ({"threads": 0}, "1 to 64"),
        ({"threads": 65}, "1 to 64"),
        ({"hash_mb": 64, "memory_mb": 32}, "over the memory limit"),
    ],
)
def test_bad_engine_settings_raise(options, words):
    for kind in (kalah.Engine, kalah.Solver):
        with pytest.raises(kalah.KalahError, match=words):
            kind(egdb=None, **options)
    with pytest.raises(TypeError, match="egdb takes"):
        kalah.Engine(egdb=3)
    # A negative number is out of range like any other, not an OverflowError (test_errors.py).
    with pytest.raises(kalah.KalahError, match="hash_mb=-1 is out of range: the table takes 1 to 65536 MiB"):
        kalah.Engine(hash_mb=-1)


def test_a_table_larger_than_the_free_memory_is_refused():
    with open("/proc/meminfo") as info:
        available = next(int(line.split()[1]) // 1024 for line in info if line.startswith("MemAvailable:"))
    if available * 9 // 10 >= 65536:
        pytest.skip("this machine can spare a table of 64 GiB")
    for kind in (kalah.Engine, kalah.Solver):
        with pytest.raises(kalah.KalahError, match="more than this machine can spare"):
            kind(egdb=None, hash_mb=65536)


def test_a_finished_game_analyses_to_its_result():
    game = kalah.Game(position="0,0,0:20/1,2,0:3/N", size="3,4")
    assert game.is_over
    analysis = engine().analyse(game)
    assert analysis.exact and analysis.value == (3 + 1 + 2) - 20 and analysis.best is None
    assert kalah.Solver(egdb=None).solve(game).value == -14


INTERRUPTED = textwrap.dedent(
    """
    import signal
    import sys
    import threading
    import kalah

    # Python raises KeyboardInterrupt on SIGINT only if SIGINT was not ignored when it started,
    # and a shell ignores it in the commands it starts in the background (as a CI job may be):
    # the handler is put in place here so that the test does not depend on how it was started.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    kind = sys.argv[1]
    game = kalah.Game()  # Kalah(6,6): no search or solve of its start ends in a test's time
    told = []

    def started(*_):
        # Said once the work is under way, so that the signal comes during it.
        if not told:
            told.append(True)
            print("started", flush=True)

    def from_inside(call):
        # perft and random_playouts hear nothing on the way: another thread says "started" once
        # the call has released the GIL, which the main thread does nowhere else here: it does
        # nothing that blocks between the gate and the call, and the switch interval (which
        # would have it hand the GIL over) is far longer than any test.
        gate = threading.Lock()
        gate.acquire()
        sys.setswitchinterval(1000)
        threading.Thread(target=lambda: (gate.acquire(), started()), daemon=True).start()
        gate.release()
        call()

    try:
        if kind == "solve":
            kalah.Solver(egdb=None, hash_mb=16).solve(game, progress=started)
        elif kind == "analyse":
            kalah.Engine(egdb=None, hash_mb=16).analyse(game, time=86400, callback=started)
        elif kind == "perft":
            board = kalah.Game(size="12,12")
            from_inside(lambda: board.perft(40))  # 12 houses a side, 40 sowings: years
        else:
            # 2**24 random games of Kalah(12,12) on the general path (the pie rule), one thread.
            from_inside(lambda: kalah.random_playouts(2**24, size="12,12", pie=True, threads=1))
    except KeyboardInterrupt as interrupt:
        # Raised from inside the call, and the interpreter goes on: another search runs.
        game.play(kalah.Engine(egdb=None, hash_mb=1).decide(game, depth=2).action)
        print("interrupted", game.position, flush=True)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT to send to a process")
@pytest.mark.parametrize("kind", ["solve", "analyse", "perft", "playouts"])
def test_ctrl_c_stops_a_long_search_cleanly(kind):
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "started\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert out.startswith("interrupted ") and err == ""
