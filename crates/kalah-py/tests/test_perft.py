"""The rules agree with the command line: perft counts on every preset, and the data file's."""

import subprocess

import pytest

import kalah

# Sizes and depths small enough for the test to take seconds.
SIZES = [("6,4", 7), ("4,3", 9), ("7,7", 6), ("3,2", 12)]


def cli_perft(cli: str, depth: int, *flags: str) -> int:
    out = subprocess.run([cli, "perft", str(depth), *flags], check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1])


@pytest.mark.parametrize("preset", [name for name, _ in kalah.Rules.presets()])
def test_perft_on_every_preset_equals_the_cli(kalah_cli, preset):
    for size, depth in SIZES:
        for extra in ([], ["--pie"], ["--no-first-extra"]):
            flags = ["--size", size, "--rules", preset, *extra]
            keywords = {"size": size, "rules": preset}
            if "--pie" in extra:
                keywords["pie"] = True
            if "--no-first-extra" in extra:
                keywords["no_first_extra"] = True
            game = kalah.Game(**keywords)
            assert game.perft(depth) == cli_perft(kalah_cli, depth, *flags), (flags, depth)


def test_perft_from_a_position_equals_the_cli(kalah_cli):
    position = "1,4,1,1,10,0:9/1,8,0,0,1,1:11/S"
    game = kalah.Game(position=position, size="6,4")
    for depth in range(1, 8):
        assert game.perft(depth) == cli_perft(kalah_cli, depth, "--size", "6,4", "--position", position)


def test_perft_equals_the_counts_of_the_data_file(root):
    """crates/kalah-rules/tests/data/kalah.perft: counts two independent implementations agree on."""
    rules = position = None
    checked = 0
    for line in (root / "crates/kalah-rules/tests/data/kalah.perft").read_text().splitlines():
        words = line.split(maxsplit=1)
        if not words or line.startswith("#"):
            continue
        if words[0] == "rules":
            rules = kalah.Rules(words[1])
        elif words[0] == "position":
            position = None if words[1] == "start" else words[1]
        elif words[0] == "perft":
            depth, count = map(int, words[1].split())
            if count <= 3_000_000:
                assert kalah.Game(rules, position=position).perft(depth) == count, line
                checked += 1
    assert checked >= 30
