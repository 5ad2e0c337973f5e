"""The project's page on PyPI is the installed package's long description: README.md with
its links into the repository made absolute (pyproject.toml, the readme's provider), since
a relative link on PyPI leads nowhere and a relative image does not show.

The links go to the tag of the installed version, ``v<version>``, so the page describes
the release it belongs to; figures go to the raw file at that tag. Everything else of the
README is unchanged.
"""

from __future__ import annotations

import re
from importlib.metadata import metadata, version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
REPO = "https://github.com/barajamos/chinchon"
RAW = "https://raw.githubusercontent.com/barajamos/chinchon"

#: a markdown link or image: ``[text](target)``, ``![alt](target)``
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")


def long_description() -> str:
    md = metadata("chinchon")
    assert md["Description-Content-Type"] == "text/markdown"
    # the body of METADATA: importlib.metadata (3.10 on) and its backport, which dask
    # brings and which then answers for the stdlib, give it as a header; 3.9 as the payload
    text = md["Description"] or md.get_payload()  # type: ignore[attr-defined]
    assert isinstance(text, str) and text
    return text


def relative(target: str) -> bool:
    return not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")


#: the README sits beside the tests in a checkout or an sdist; a copy of tests/ alone
#: (the release's check of the installed sdist) has none
needs_readme = pytest.mark.skipif(not README.is_file(), reason="no README.md beside the tests")


def test_the_page_links_into_the_repository_at_the_release_tag() -> None:
    tag = f"v{version('chinchon')}"
    targets = [t for _, _, t in _LINK.findall(long_description())]
    assert targets
    assert not [t for t in targets if relative(t)], "relative links on the PyPI page"
    ours = [t for t in targets if t.startswith((f"{REPO}/blob/", f"{RAW}/"))]
    assert ours, "no link to a file of the repository on the PyPI page"
    stray = [t for t in ours if not t.startswith((f"{REPO}/blob/{tag}/", f"{RAW}/{tag}/"))]
    assert not stray, f"links into the repository not at the tag {tag}: {stray}"


@needs_readme
def test_the_page_is_the_readme_with_absolute_links() -> None:
    tag = f"v{version('chinchon')}"

    def absolute(m: re.Match[str]) -> str:
        bang, text, target = m.groups()
        if not relative(target):
            return m.group(0)
        base = f"{RAW}/{tag}" if bang else f"{REPO}/blob/{tag}"
        return f"{bang}[{text}]({base}/{target})"

    readme = README.read_text(encoding="utf-8")
    expected = _LINK.sub(absolute, readme)
    assert expected != readme, "README.md has no relative link: nothing to check"
    page = long_description()
    left = [t for _, _, t in _LINK.findall(page) if relative(t)]
    assert not left, f"relative links on the PyPI page: {left}"
    # METADATA may end the body with one more newline than the file
    assert page.rstrip("\n") == expected.rstrip("\n")


@needs_readme
def test_every_relative_link_of_the_readme_names_a_file_of_the_repository() -> None:
    # so the page's absolute links, the same paths at the release's tag, resolve
    readme = README.read_text(encoding="utf-8")
    targets = [t for _, _, t in _LINK.findall(readme) if relative(t)]
    assert targets
    missing = [t for t in targets if not (ROOT / t.split("#", 1)[0]).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
