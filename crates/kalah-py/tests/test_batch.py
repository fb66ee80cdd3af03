"""kalah.Batch and kalah.random_playouts: many games in one call."""

import numpy as np
import pytest

import kalah


def test_random_playouts_are_seeded_games_to_the_end():
    margins = kalah.random_playouts(2000, size="6,4", seed=1)
    assert margins.dtype == np.int32 and margins.shape == (2000,)
    np.testing.assert_array_equal(margins, kalah.random_playouts(2000, size="6,4", seed=1))
    assert not np.array_equal(margins, kalah.random_playouts(2000, size="6,4", seed=2))
    # Every margin is a possible final result: even (48 seeds in all) and within the seeds.
    assert (margins % 2 == 0).all() and (np.abs(margins) <= 48).all()
    # South, who moves first, wins random games of Kalah(6,4) more often than North.
    assert (margins > 0).mean() > (margins < 0).mean()


def test_random_playouts_play_the_pie_rule_and_the_handicap():
    margins = kalah.random_playouts(500, size="4,3", pie=True, handicap=True, seed=3)
    assert (np.abs(margins) <= 24).all()
    from_position = kalah.random_playouts(10, position="0,0,1:20/1,0,0:3/S", size="3,4")
    assert (from_position == 17).all(), "one move ends the game"


# Without the pie rule the batch sows compact positions (the fast path), with it full games;
# seed-on (relay sowing) and Kalah(8,3) have no compact form either. Both agree with kalah.Game.
@pytest.mark.parametrize(
    "rules",
    [dict(size="5,3", pie=True), dict(size="5,3"), dict(size="4,4", rules="empty-capture", margin=False),
     dict(size="4,2", rules="seed-on"), dict(size="8,3")],
)
def test_a_batch_steps_every_game_and_matches_games_played_one_by_one(rules):
    rules = dict(rules)
    margin = rules.pop("margin", True)
    batch = kalah.Batch(64, **rules)
    games = [kalah.Game(**rules) for _ in range(64)]
    width = 2 * batch.rules.houses + 2
    assert len(batch) == 64 and batch.num_actions == batch.rules.houses + ("pie" in rules)
    seed = 0
    finished = np.zeros(64, dtype=bool)
    while not finished.all():
        observations, masks = batch.observations(), batch.action_masks()
        assert observations.shape == (64, width) and masks.shape == (64, batch.num_actions)
        actions = batch.random_actions(seed)
        seed += 1
        for i, game in enumerate(games):
            np.testing.assert_array_equal(observations[i], game.observation())
            np.testing.assert_array_equal(masks[i], game.action_mask())
            assert (actions[i] == -1) == game.is_over
            if actions[i] >= 0:
                game.play(int(actions[i]))
        rewards, done = batch.step(actions, margin=margin)
        for i, game in enumerate(games):
            assert done[i] == game.is_over
            if done[i] and not finished[i]:
                np.testing.assert_array_equal(rewards[i], game.returns(margin=margin))
            else:
                assert (rewards[i] == 0).all()
        finished |= done
    assert (batch.current_players() == -1).all()
    for i in (5, 17):
        assert batch.game(i).actions == games[i].actions and batch.game(i).position == games[i].position
    batch.reset()
    assert (batch.current_players() == 0).all()


def test_auto_reset_starts_finished_games_again():
    batch = kalah.Batch(3, position="0,0,1:20/1,0,0:3/S", size="3,4")
    rewards, done = batch.step([2, 2, 2], margin=False, auto_reset=True)  # any sequence of integers
    assert done.all() and (rewards == [[1, -1]] * 3).all()
    assert (batch.current_players() == 0).all() and batch.game(0).actions == []


def test_a_draw_is_worth_nothing_without_the_margin():
    # South's last seed reaches the store: 7 seeds each.
    for batch in (kalah.Batch(2, position="0,0,1:6/0,0,1:6/S", size="3,4"),
                  kalah.Batch(2, position="0,0,1:6/0,0,1:6/S", size="3,4", handicap=True)):
        if batch.rules.handicap:  # North's handicap decision first: keep, the action after the houses
            batch.step([3, 3])
        rewards, done = batch.step([2, 2], margin=False)
        assert done.all() and (rewards == 0).all()
        assert batch.game(0).returns(margin=False) == (0.0, 0.0)


def test_a_bad_step_changes_no_game():
    batch = kalah.Batch(3, size="6,4")
    batch.step(np.array([2, 0, 1]))
    with pytest.raises(kalah.ActionError, match="game 0: action 2 .* is not legal now"):
        batch.step(np.array([2, 0, 0]))
    with pytest.raises(kalah.ActionError, match="game 1: 9 is not an action"):
        batch.step(np.array([0, 9, 0]))
    with pytest.raises(kalah.KalahError, match="2 actions for 3 games"):
        batch.step(np.array([0, 0]))
    assert [len(batch.game(i)) for i in range(3)] == [1, 1, 1]
    with pytest.raises(kalah.KalahError, match="1 to"):
        kalah.Batch(0)
    with pytest.raises(kalah.KalahError, match="out of range"):
        batch.game(3)


@pytest.mark.parametrize("rules", [{"size": "6,4"}, {"size": "6,4", "pie": True}], ids=["compact", "full"])
def test_step_refuses_floats_and_bools_as_play_does(rules):
    batch = kalah.Batch(2, **rules)
    before = batch.observations()
    for actions in ([1.7, 1], [True, 1], np.array([1.7, 1.0]), np.array([True, False]), [1, np.float64(1.0)]):
        with pytest.raises(TypeError) as error:
            batch.step(actions)
        assert "\n" not in str(error.value), error.value
    with pytest.raises(kalah.ActionError, match="game 0: 1180591620717411303424 is not an action"):
        batch.step([2**70, 1])
    np.testing.assert_array_equal(batch.observations(), before)
    assert all(len(batch.game(i).actions) == 0 for i in range(2)), "no game changed"
    # Whole numbers of any integer type play.
    for actions in ([1, 2], np.array([1, 2], dtype=np.uint8), [np.int64(1), np.int32(2)]):
        batch.reset()
        batch.step(actions)
        assert [batch.game(i).actions for i in range(2)] == [[1], [2]]
