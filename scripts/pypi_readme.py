"""Makes the links of the Python package's README absolute, for PyPI, which shows the README
without the repository around it: `python3 scripts/pypi_readme.py BASE` rewrites
crates/kalah-py/README.md in place, each link to a file of the repository becoming BASE/PATH.

The release workflow (.github/workflows/python.yml) runs it before it builds the sdist and the
wheels, with BASE the repository's address at the tagged commit, so that the links on PyPI
show the pages of the version published; the README in the repository keeps relative links,
which work where it is read on GitHub. It fails if a link would be left relative.
"""

import pathlib
import posixpath
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "crates" / "kalah-py" / "README.md"
# The README's folder in the repository: relative links start there.
FOLDER = "crates/kalah-py"

# A Markdown link or image: [text](target) or ![alt](target), the target without spaces.
LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def is_absolute(target: str) -> bool:
    return re.match(r"^[a-z][a-z0-9+.-]*:", target) is not None


def rewrite(text: str, base: str) -> str:
    """Returns `text` with every relative link made absolute under `base` (no trailing slash)."""

    def absolute(match: re.Match) -> str:
        target = match.group(2)
        if is_absolute(target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        inside = posixpath.normpath(posixpath.join(FOLDER, path)) if path else FOLDER + "/README.md"
        if inside.startswith("../"):
            raise ValueError(f"the link {target} leads outside the repository")
        return f"{match.group(1)}{base}/{inside}{'#' + anchor if anchor else ''}{match.group(3)}"

    return LINK.sub(absolute, text)


def relative_links(text: str) -> list:
    """The links of `text` that are not absolute."""
    return [m.group(2) for m in LINK.finditer(text) if not is_absolute(m.group(2))]


def main() -> int:
    if len(sys.argv) != 2 or not sys.argv[1].startswith("https://"):
        print("usage: pypi_readme.py BASE: BASE is the repository's https:// address at a commit", file=sys.stderr)
        return 2
    text = rewrite(README.read_text(), sys.argv[1].rstrip("/"))
    left = relative_links(text)
    if left:
        print(f"pypi_readme.py: links left relative: {', '.join(left)}", file=sys.stderr)
        return 1
    README.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
