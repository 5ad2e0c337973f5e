"""Every ```python snippet of README.md and docs/*.md runs, so that no claim of the docs
can go false without a test failing.

Each file's snippets run in order in one namespace (a page reads top to bottom), in a
fresh temporary directory (a snippet may write files). A snippet fails the test when it
raises; the traceback names the file and the line of the snippet.

A snippet may carry one marker, an HTML comment on the line right above its fence
(invisible on the rendered page):

- ``<!-- snippet: skip -->``: never run (it needs what a test has not got: a Dask
  cluster at an address, a browser). Use sparingly: the claim is then untested.
- ``<!-- snippet: needs MODULE ... -->``: run only when every MODULE imports, else
  skipped (the optional extras' packages); under ``CHINCHON_REQUIRE_DASK_TESTS=1`` a
  missing module of the dask extra is a failure, as in tests/simulate, and under
  ``CHINCHON_REQUIRE_RL_TESTS=1`` one of the rl extra, as in tests/rl (and under
  ``CHINCHON_REQUIRE_PLOT_TESTS=1`` a missing matplotlib). The word
  ``native`` among them asks for the native core in use (``chinchon.IMPLEMENTATION``):
  for a snippet that plays thousands of games, minutes on the pure-Python solver.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the files whose snippets run: the README and every page of the docs
FILES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
#: the packages of the dask extra (pyproject.toml): required under CHINCHON_REQUIRE_DASK_TESTS
DASK_EXTRA = {"dask", "distributed", "pyarrow", "pandas"}
#: the packages of the rl extra: required under CHINCHON_REQUIRE_RL_TESTS
RL_EXTRA = {"pettingzoo", "gymnasium"}
#: the plot extra's package: required under CHINCHON_REQUIRE_PLOT_TESTS
PLOT_EXTRA = {"matplotlib"}

_MARKER = re.compile(r"^<!--\s*snippet:\s*(skip|needs\s+[\w. ]+?)\s*-->\s*$")
_FENCE = re.compile(r"^```(\S*)\s*$")


class Snippet(NamedTuple):
    path: Path
    line: int            # 1-based line of the first line of code
    code: str
    marker: Optional[str]  # None, "skip" or "needs a b"


def snippets(path: Path) -> list[Snippet]:
    """The ```python snippets of ``path`` in order, each with the marker above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Snippet] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        assert end is not None, f"{path.name}:{i + 1}: a fence that never closes"
        if fence.group(1) == "python":
            above = _MARKER.match(lines[i - 1]) if i > 0 else None
            out.append(Snippet(path, i + 2, "\n".join(lines[i + 1:end]),
                               above.group(1) if above else None))
        i = end + 1
    return out


def _missing(modules: list[str]) -> list[str]:
    missing = []
    for m in modules:
        if m == "native":
            import chinchon

            if chinchon.IMPLEMENTATION != "native":
                missing.append("the native core")
            continue
        try:
            found = importlib.util.find_spec(m) is not None
        except ModuleNotFoundError:  # a parent package missing
            found = False
        if not found:
            missing.append(m)
    return missing


def _label(path: Path) -> str:
    return str(path.relative_to(ROOT))


#: the docs sit beside the tests in a checkout or an sdist; a copy of tests/ alone has none
needs_docs = pytest.mark.skipif(not (ROOT / "README.md").is_file(),
                                reason="no README.md and docs/ beside the tests")


@needs_docs
@pytest.mark.parametrize("path", FILES, ids=_label)
def test_snippets_run(path: Path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"snippets_{path.stem}"}
    skipped = []
    for s in snippets(path):
        where = f"{_label(path)}:{s.line}"
        if s.marker == "skip":
            skipped.append(f"{where} (marked skip)")
            continue
        if s.marker is not None:
            missing = _missing(s.marker.split()[1:])
            if missing:
                if os.environ.get("CHINCHON_REQUIRE_DASK_TESTS") and set(missing) & DASK_EXTRA:
                    pytest.fail(f"{where} needs {', '.join(missing)}, which "
                                "CHINCHON_REQUIRE_DASK_TESTS requires")
                if os.environ.get("CHINCHON_REQUIRE_RL_TESTS") and set(missing) & RL_EXTRA:
                    pytest.fail(f"{where} needs {', '.join(missing)}, which "
                                "CHINCHON_REQUIRE_RL_TESTS requires")
                if os.environ.get("CHINCHON_REQUIRE_PLOT_TESTS") and set(missing) & PLOT_EXTRA:
                    pytest.fail(f"{where} needs {', '.join(missing)}, which "
                                "CHINCHON_REQUIRE_PLOT_TESTS requires")
                skipped.append(f"{where} (needs {', '.join(missing)})")
                continue
        # blank lines in front: the traceback's line numbers are the file's own
        code = compile("\n" * (s.line - 1) + s.code, str(path), "exec")
        exec(code, namespace)
    if skipped and len(skipped) == len(snippets(path)):
        pytest.skip("every snippet skipped: " + "; ".join(skipped))


@needs_docs
def test_markers_sit_on_a_snippet():
    """A marker is the line right above a ```python fence; anywhere else it would be
    silently ignored."""
    for path in FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "snippet:" in line and line.lstrip().startswith("<!--"):
                assert _MARKER.match(line), f"{_label(path)}:{i + 1}: bad marker {line!r}"
                assert i + 1 < len(lines) and lines[i + 1].startswith("```python"), (
                    f"{_label(path)}:{i + 1}: a marker not right above a ```python fence")


@needs_docs
def test_few_snippets_are_skipped():
    """``skip`` is for the rare snippet no test can run: most claims must run."""
    all_snippets = [s for p in FILES for s in snippets(p)]
    skipped = [s for s in all_snippets if s.marker == "skip"]
    assert all_snippets and len(skipped) <= max(3, len(all_snippets) // 10), [
        f"{_label(s.path)}:{s.line}" for s in skipped]
