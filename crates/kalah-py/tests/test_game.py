"""kalah.Game: actions, turns, the end and the score, observations, records."""

import copy
import pickle
import warnings

import numpy as np
import pytest

import kalah


def test_a_game_plays_by_numbers_and_by_text():
    game = kalah.Game(size="6,4")
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert game.current_player == 0 and game.to_move == kalah.Side.SOUTH
    assert game.play("3") is True, "house 3's last seed lands in South's store"
    assert game.extra_move and game.last_outcome.extra_move
    assert game.position == "4,4,0,5,5,5:1/4,4,4,4,4,4:0/S"
    assert game.play(5) is False
    assert game.to_move == kalah.Side.NORTH and game.current_player == 1
    assert game.actions == [2, 5] and game.history() == ["3", "6"]
    assert game.undo() == 5
    assert game.undo() == 2
    assert game.undo() is None
    assert game.position == game.start


def test_the_pie_rule_swaps_players_not_sides():
    game = kalah.Game(size="4,3", pie=True)
    assert game.phase == "pie-opening"
    game.play("1")
    assert game.phase == "pie-offer"
    assert game.legal_actions()[-1] == 4 and game.action_to_string(4) == "swap"
    game.play("swap")
    assert game.swapped
    # North is still to move, now with the first player in North's seat.
    assert game.to_move == kalah.Side.NORTH and game.current_player == 0
    assert game.side_of_player(0) == kalah.Side.NORTH
    assert game.player_of_side("south") == 1
    while not game.is_over:
        game.play(game.legal_actions()[0])
    south, north = game.result
    first, second = game.returns()
    assert first == north - south and second == south - north
    assert game.returns(margin=False) == (float(np.sign(first)), float(np.sign(second)))


def test_the_handicap_is_decided_first_by_the_second_player():
    game = kalah.Game(size="6,4", handicap=True)
    assert game.phase == "handicap" and game.current_player == 1 and game.to_move == kalah.Side.NORTH
    assert game.mover == kalah.Side.SOUTH
    assert len(game.legal_actions()) == 1 + 12 * 11
    with pytest.raises(kalah.ActionError, match="must first decide"):
        game.play("1")
    game.play("S1>N6")
    assert game.position == "3,4,4,4,4,4:0/4,4,4,4,4,5:0/S"
    assert game.actions == [game.string_to_action("S1>N6")]
    with pytest.raises(kalah.ActionError, match="only under the handicap rule, before the first move"):
        game.play("keep")


def test_the_end_and_the_score():
    game = kalah.Game(position="0,0,1:20/1,0,0:3/S", size="3,4")
    assert game.play("3") is False
    assert game.is_over and game.phase == "over" and game.current_player is None and game.to_move is None
    assert game.result == (21, 4) and game.margin == 17
    assert game.returns() == (17.0, -17.0) and game.returns(margin=False) == (1.0, -1.0)
    assert game.legal_actions() == [] and not game.action_mask().any()
    with pytest.raises(kalah.GameOverError, match="the game is over"):
        game.play(0)


def test_every_preset_plays_to_the_end_with_a_sum_of_seeds_kept():
    for name, _ in kalah.Rules.presets():
        game = kalah.Game(size="5,3", rules=name)
        rng = np.random.default_rng(7)
        while not game.is_over:
            legal = game.legal_actions()
            assert list(np.flatnonzero(game.action_mask())) == legal
            game.play(int(rng.choice(legal)))
        south, north = game.result
        assert game.margin == south - north
        if name != "seed-on" and game.rules.leftover != "discard":
            assert south + north == 30, name


def test_observations_are_seen_from_the_player():
    game = kalah.Game(position="1,2,3:4/5,6,7:8/N", size="3,9")
    assert game.current_player == 1
    np.testing.assert_array_equal(game.observation(), [5, 6, 7, 8, 1, 2, 3, 4])
    np.testing.assert_array_equal(game.observation(0), [1, 2, 3, 4, 5, 6, 7, 8])
    assert game.observation().dtype == np.float32 and game.action_mask().dtype == np.int8
    assert game.houses("N") == [5, 6, 7] and game.stores == (4, 8)
    assert game.kgp == "<3,8,4,5,6,7,1,2,3>", "KGP's board is seen from the side to move"


def test_records_round_trip_with_their_tags():
    game = kalah.Game(size="6,4", pie=True)
    for action in ["3", "6", "swap", "2"]:
        game.play(action)
    text = game.to_record({"Event": "test", "South": "Ann"})
    assert '[Rules "kalah(6,4) standard pie"]' in text and '[Event "test"]' in text
    again = kalah.Game.from_record(text)
    assert again.actions == game.actions and again.position == game.position
    assert again.tags == {"Event": "test", "South": "Ann"}
    assert again.to_record() == text
    without_end = "\n".join(line for line in text.splitlines() if not line.startswith("[End"))
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        kalah.Game.from_record(without_end)
    assert any("no [End" in str(w.message) for w in heard)


def test_games_copy_and_pickle_with_their_history():
    game = kalah.Game(size="4,3", handicap=True)
    game.play("keep")
    game.play("2")
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other.actions == game.actions and other.position == game.position
        other.play(other.legal_actions()[0])
        assert len(other) == len(game) + 1
    assert "South" in str(game) or "North" in str(game)


def test_perft_counts_sowings():
    game = kalah.Game(size="6,4")
    assert [game.perft(d) for d in range(6)] == [1, 6, 35, 185, 942, 4690]


def test_a_position_gives_the_board_size():
    start = kalah.Game(size="4,3")
    game = kalah.Game(position=start.position)
    assert str(game.rules) == str(start.rules) == "kalah(4,3) standard"
    assert game.rules.total_seeds == 24
    # Seeds taken from the board: the fewest a house (at most 12) whose total holds them all.
    assert kalah.Game(position="0,0,1:20/1,0,0:3/S").rules.seeds == 5
    assert kalah.Game(position="0,0,1:20/1,0,0:3/S", size="3,4").rules.seeds == 4, "a size given wins"
    assert kalah.Batch(2, position=start.position).rules.seeds == 3
