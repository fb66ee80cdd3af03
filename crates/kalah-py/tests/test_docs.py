"""docs/python.md runs as written: its `>>>` examples with their output checked, its Python
blocks run to the end.

Also a script without pytest: `python crates/kalah-py/tests/test_docs.py` runs every example
and ends with "N passed, N failed" (.ci/python runs it in the environment the README's install
command makes).
"""

import doctest
import pathlib
import sys
import traceback

PAGE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def blocks():
    """The page's runnable blocks: (line, kind, text) for each ```pycon and ```python block."""
    lines = PAGE.read_text().splitlines()
    found = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence in ("```pycon", "```python"):
            start = i + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            found.append((start + 1, fence[3:], "\n".join(lines[start:end]) + "\n"))
            i = end
        i += 1
    return found


def run(line, kind, text):
    """Runs one block; raises AssertionError with the failure's report."""
    if kind == "python":
        exec(compile(text, f"{PAGE.name}:{line}", "exec"), {"__name__": "__docs__"})
        return
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, f"{PAGE.name}:{line}", str(PAGE), line - 1)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    report = []
    runner.run(test, out=report.append)
    if runner.failures:
        raise AssertionError("".join(report))


def test_the_page_has_examples_of_each_kind():
    kinds = [kind for _, kind, _ in blocks()]
    assert kinds.count("pycon") >= 6 and kinds.count("python") >= 4


def pytest_generate_tests(metafunc):
    if "block" in metafunc.fixturenames:
        found = blocks()
        metafunc.parametrize("block", found, ids=[f"{kind}@{line}" for line, kind, _ in found])


def test_example(block):
    run(*block)


if __name__ == "__main__":
    passed = failed = 0
    for block in blocks():
        try:
            run(*block)
            passed += 1
        except Exception:  # noqa: BLE001  (every failure is reported, then counted)
            failed += 1
            print(f"{PAGE.name}:{block[0]}: the {block[1]} block failed", file=sys.stderr)
            traceback.print_exc()
    print(f"docs: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
