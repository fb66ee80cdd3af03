"""Shared fixtures of the kalah package's tests: the repository's data files and the CLI."""

import os
import pathlib
import shutil

import pytest

# crates/kalah-py/tests -> the repository's root.
ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    """The repository's root folder."""
    return ROOT


@pytest.fixture(scope="session")
def kalah_cli() -> str:
    """The `kalah` binary to compare with: $KALAH_BIN (set by .ci/test), else target/*/kalah."""
    named = os.environ.get("KALAH_BIN")
    if named:
        assert os.access(named, os.X_OK), f"KALAH_BIN={named} is not an executable"
        return named
    for profile in ("release", "debug"):
        built = ROOT / "target" / profile / "kalah"
        if built.exists():
            return str(built)
    found = shutil.which("kalah")
    if found:
        return found
    pytest.skip("no kalah binary: build it (cargo build -p kalah) or set KALAH_BIN; .ci/test sets it")
