"""kalah.Rules: the command line's rule words as keywords, the text records write, presets."""

import pickle

import pytest

import kalah


def test_keywords_build_the_rules_the_flags_would():
    rules = kalah.Rules(size="6,4", rules="empty-capture", leftover="discard", pie=True)
    assert str(rules) == "kalah(6,4) capture=empty end=side-empty leftover=discard direction=ccw sowing=single pie"
    assert rules.houses == 6 and rules.seeds == 4 and rules.pie and not rules.handicap
    assert rules.capture == "empty" and rules.leftover == "discard" and rules.preset is None


def test_the_size_defaults_as_on_the_command_line():
    assert str(kalah.Rules()) == "kalah(6,6) standard"
    assert str(kalah.Rules(rules="mkagent")) == "kalah(7,7) mkagent"
    assert str(kalah.Rules(size=(4, 3))) == "kalah(4,3) standard"
    assert str(kalah.Rules(size="kalah(4,3)")) == "kalah(4,3) standard"
    assert kalah.Game(position="1,2,3:0/3,2,1:0/N").rules.houses == 3


def test_text_round_trips_for_every_preset():
    for name, description in kalah.Rules.presets():
        assert description
        for pie in (False, True):
            rules = kalah.Rules(size="5,3", rules=name, pie=pie)
            assert kalah.Rules(str(rules)) == rules
            assert rules.preset == name
            assert pickle.loads(pickle.dumps(rules)) == rules
            assert eval(repr(rules), {"kalah": kalah}) == rules


def test_rules_are_values():
    assert kalah.Rules(size="6,4") == kalah.Rules("kalah(6,4) standard")
    assert len({kalah.Rules(size="6,4"), kalah.Rules("kalah(6,4)"), kalah.Rules(size="6,5")}) == 2
    assert len(kalah.Rules.variants(6, 4)) == 288
    assert kalah.Rules(size="6,4").num_actions == 6
    assert kalah.Rules(size="6,4", pie=True).num_actions == 7
    assert kalah.Rules(size="6,4", pie=True, handicap=True).num_actions == 6 + 1 + 1 + 144


@pytest.mark.parametrize(
    "keywords, words",
    [
        ({"rules": "chess"}, "the presets are standard, empty-capture"),
        ({"size": "13,4"}, "1 to 12"),
        ({"size": "6"}, "write it as M,N"),
        ({"size": (6, 0)}, "1 to 12"),
        ({"capture": "sometimes"}, "accepted are standard, empty, none"),
        ({"end": "never"}, "side-empty, mover-stuck"),
        ({"leftover": "nobody"}, "owner, emptier, discard"),
        ({"direction": "up"}, "ccw, cw"),
        ({"sowing": "double"}, "single, relay"),
    ],
)
def test_bad_rule_words_raise_rules_errors_saying_what_is_accepted(keywords, words):
    with pytest.raises(kalah.RulesError) as error:
        kalah.Rules(**keywords)
    message = str(error.value)
    assert words in message and "\n" not in message


def test_bad_rule_arguments_raise():
    with pytest.raises(kalah.RulesError):
        kalah.Rules("kalah(6,4) bogus")
    with pytest.raises(kalah.KalahError, match="not both"):
        kalah.Rules("kalah(6,4)", pie=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        kalah.Rules(colour="red")
    with pytest.raises(TypeError, match="size takes"):
        kalah.Rules(size=6.4)
    with pytest.raises(TypeError, match="pie takes True or False"):
        kalah.Rules(pie="yes")
    with pytest.raises(TypeError, match="capture takes a word"):
        kalah.Rules(capture=1)
    with pytest.raises(TypeError, match="rules takes a kalah.Rules or a preset name"):
        kalah.Game(rules=3)
    with pytest.raises(kalah.KalahError, match="not both"):
        kalah.Game(kalah.Rules(), size="6,4")
    # A RulesError is a KalahError is a ValueError.
    assert issubclass(kalah.RulesError, kalah.KalahError) and issubclass(kalah.KalahError, ValueError)
