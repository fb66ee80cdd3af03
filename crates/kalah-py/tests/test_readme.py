"""The package's README, which PyPI shows: its example runs, and the release workflow's rewrite
(scripts/pypi_readme.py) leaves every link absolute, each to a file of the repository."""

import contextlib
import importlib.util
import io
import pathlib
import re

# crates/kalah-py/tests -> the repository's root.
ROOT = pathlib.Path(__file__).resolve().parents[3]
README = ROOT / "crates" / "kalah-py" / "README.md"


def rewriter():
    spec = importlib.util.spec_from_file_location("pypi_readme", ROOT / "scripts" / "pypi_readme.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(blocks[0], {})
    assert out.getvalue().splitlines()[-1] == "6"


def test_the_links_on_pypi_are_absolute_and_lead_to_files_of_the_repository():
    module = rewriter()
    text = README.read_text()
    assert module.relative_links(text), "the README in the repository links relatively"
    base = "https://github.com/OWNER/REPOSITORY/blob/v1.2.3"
    written = module.rewrite(text, base)
    assert module.relative_links(written) == []
    targets = re.findall(r"\]\(([^)\s]+)\)", written)
    inside = [t[len(base) + 1 :].partition("#")[0] for t in targets if t.startswith(base + "/")]
    assert inside and len(inside) == len(module.relative_links(text))
    for path in inside:
        assert (ROOT / path).is_file(), path
