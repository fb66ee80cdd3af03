"""Every kind of bad input raises an exception of its own with a one-line message; none crashes."""

import pytest

import kalah

GAME = kalah.Game(size="6,4")


def finished():
    game = kalah.Game(position="0,0,1:20/1,0,0:3/S", size="3,4")
    game.play("3")
    return game


CASES = [
    ("unknown preset", lambda: kalah.Game(rules="chess"), kalah.RulesError, "unknown rules preset"),
    ("size out of range", lambda: kalah.Game(size="0,4"), kalah.RulesError, "out of range"),
    ("unreadable size", lambda: kalah.Game(size="six,four"), kalah.RulesError, "write it as M,N"),
    ("unknown rule word", lambda: kalah.Rules(capture="maybe"), kalah.RulesError, "accepted are"),
    ("bad rules text", lambda: kalah.Rules("kalah(6,4) bogus"), kalah.RulesError, "unknown rules preset"),
    ("bad notation", lambda: kalah.Game(position="4,4:0/4,4:0/X"), kalah.PositionError, "not S or N"),
    ("notation with too few fields", lambda: kalah.Game(position="4,4,4"), kalah.PositionError, "three fields"),
    ("position of another size", lambda: kalah.Game(position="1,1:0/1,1:0/S", size="6,4"), kalah.PositionError, "Kalah(6,4)"),
    ("uneven sides", lambda: kalah.Game(position="1,1:0/1,1,1:0/S"), kalah.PositionError, "same number of houses"),
    ("too many seeds", lambda: kalah.Game(position="300,0:0/0,0:0/S"), kalah.PositionError, "at most 288"),
    ("no-progress count without clockwise", lambda: kalah.Game(position="1,1:0/1,1:0/S/3"), kalah.PositionError, "only clockwise"),
    ("action out of range", lambda: GAME.copy().play(6), kalah.ActionError, "actions are 0 to 5"),
    ("negative action", lambda: GAME.copy().play(-1), kalah.ActionError, "not an action"),
    ("huge action", lambda: GAME.copy().play(2**70), kalah.ActionError, "not an action"),
    ("unreadable action", lambda: GAME.copy().play("sow"), kalah.ActionError, "cannot read the move"),
    ("house not on the board", lambda: GAME.copy().play("7"), kalah.ActionError, "houses are numbered 1 to 6"),
    ("swap without the pie rule", lambda: GAME.copy().play("swap"), kalah.ActionError, "only under the pie rule"),
    ("keep without the handicap", lambda: GAME.copy().play("keep"), kalah.ActionError, "only under the handicap rule"),
    ("empty house", lambda: kalah.Game(position="0,1:0/1,1:0/S").play(0), kalah.ActionError, "is empty"),
    ("action of a finished game", lambda: finished().play(0), kalah.GameOverError, "the game is over"),
    ("decision in a finished game", lambda: kalah.Engine(egdb=None).decide(finished()), kalah.GameOverError, "nothing to decide"),
    ("action of the wrong type", lambda: GAME.copy().play(1.5), TypeError, "an action is an int"),
    ("action number of a string", lambda: GAME.string_to_action("swap"), kalah.ActionError, "not an action under"),
    ("bad action number for text", lambda: GAME.action_to_string(99), kalah.ActionError, "not an action"),
    ("bad player", lambda: GAME.observation(2), kalah.KalahError, "0 is the first player"),
    ("bad side", lambda: GAME.houses("east"), kalah.KalahError, "write South or North"),
    ("bad side number", lambda: GAME.houses(2), kalah.KalahError, "0 is South"),
    ("bad record", lambda: kalah.Game.from_record("1. 3"), kalah.RecordError, "no [Rules"),
    ("record with an illegal move", lambda: kalah.Game.from_record('[Rules "kalah(6,4) standard"]\n1. 9 *\n'), kalah.RecordError, "line 2"),
    ("record cut short", lambda: kalah.Game.from_record('[Rules "kalah(6,4) standard"]\n1. 3,6\n'), kalah.RecordError, "cut short"),
    ("bad tag name", lambda: GAME.to_record({"Two words": "x"}), kalah.KalahError, "not a tag name"),
    ("tag the game writes", lambda: GAME.to_record({"Result": "1-0"}), kalah.KalahError, "written from the game"),
    ("tag value on two lines", lambda: GAME.to_record({"Event": "a\nb"}), kalah.KalahError, "one line"),
    ("perft too deep", lambda: GAME.perft(41), kalah.KalahError, "0 to 40"),
    ("solve budget of no nodes", lambda: kalah.Solver(egdb=None).solve(GAME, nodes=0), kalah.KalahError, "at least 1 node"),
    ("no database", lambda: kalah.Egdb.open(size="6,4", dir="no-such-egdb-folder"), kalah.EgdbError, "no endgame database"),
    ("database of unsupported rules", lambda: kalah.Egdb.open(rules="clockwise", dir="."), kalah.EgdbError, "do not support"),
    ("database layer too large", lambda: kalah.Egdb.build(200, size="3,2", dir="."), kalah.EgdbError, "at most 127"),
    ("engine database folder missing", lambda: kalah.Engine(egdb="no-such-egdb-folder"), kalah.EgdbError, "no such folder"),
    ("solver database folder missing", lambda: kalah.Solver(egdb="no-such-egdb-folder"), kalah.EgdbError, "no such folder"),
    ("action of a bool", lambda: GAME.copy().play(True), TypeError, "not bool"),
]

# Negative (and huge) numbers get the package's one-line error naming the argument, as any
# number out of range does, not an OverflowError from converting them.
NEGATIVE = [
    ("perft depth", lambda n: GAME.perft(n), "depth="),
    ("playouts", lambda n: kalah.random_playouts(n), "count="),
    ("playouts seed", lambda n: kalah.random_playouts(1, seed=n), "seed="),
    ("playouts threads", lambda n: kalah.random_playouts(1, threads=n), "threads="),
    ("batch", lambda n: kalah.Batch(n), "count="),
    ("batch game", lambda n: kalah.Batch(2).game(n), "index="),
    ("batch seed", lambda n: kalah.Batch(2).random_actions(seed=n), "seed="),
    ("engine table", lambda n: kalah.Engine(egdb=None, hash_mb=n), "hash_mb="),
    ("engine threads", lambda n: kalah.Engine(egdb=None, threads=n), "threads="),
    ("engine memory", lambda n: kalah.Engine(egdb=None, memory_mb=n), "memory_mb="),
    ("solver table", lambda n: kalah.Solver(egdb=None, hash_mb=n), "hash_mb="),
    ("analysis depth", lambda n: kalah.Engine(egdb=None).analyse(GAME, depth=n), "depth="),
    ("analysis nodes", lambda n: kalah.Engine(egdb=None).analyse(GAME, nodes=n), "nodes="),
    ("decision level", lambda n: kalah.Engine(egdb=None).decide(GAME, level=n), "level="),
    ("solve nodes", lambda n: kalah.Solver(egdb=None).solve(GAME, nodes=n), "nodes="),
    ("database seeds", lambda n: kalah.Egdb.build(n, size="3,2", dir="."), "seeds="),
    ("database threads", lambda n: kalah.Egdb.build(1, size="3,2", dir=".", threads=n), "threads="),
    ("database layers", lambda n: kalah.Egdb.open(size="3,2", dir=".", max_seeds=n), "max_seeds="),
    ("database memory", lambda n: kalah.Egdb.open(size="3,2", dir=".", memory_mb=n), "memory_mb="),
    ("variants", lambda n: kalah.Rules.variants(n, 4), "houses="),
    ("player", lambda n: GAME.observation(n), "player="),
]


@pytest.mark.parametrize("number", [-1, -(2**70), 2**70])
@pytest.mark.parametrize("name, call, words", NEGATIVE, ids=[c[0] for c in NEGATIVE])
def test_a_number_out_of_range_says_what_is_accepted(name, call, words, number):
    with pytest.raises(kalah.KalahError) as error:
        call(number)
    message = str(error.value)
    assert message.startswith(words) and "out of range: " in message and "\n" not in message, message


@pytest.mark.parametrize("name, call, kind, words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_its_exception(name, call, kind, words):
    with pytest.raises(kind) as error:
        call()
    message = str(error.value)
    if words is not None:
        assert words in message, message
    assert "\n" not in message, message
    assert "panicked" not in message


def test_a_failed_action_leaves_the_game_unchanged():
    game = kalah.Game(size="6,4")
    game.play("3")
    before = (game.position, game.actions)
    for bad in (6, "swap", "0", 1.5):
        with pytest.raises((kalah.ActionError, TypeError)):
            game.play(bad)
    assert (game.position, game.actions) == before


def test_the_exception_classes_form_one_tree():
    for kind in (kalah.RulesError, kalah.PositionError, kalah.ActionError, kalah.RecordError, kalah.EgdbError):
        assert issubclass(kind, kalah.KalahError)
    assert issubclass(kalah.GameOverError, kalah.ActionError)
    assert issubclass(kalah.KalahError, ValueError)
