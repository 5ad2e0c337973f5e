"""A Griffe extension for the API pages (mkdocs.yml loads it): the package's docstrings
are reStructuredText-flavoured plain text, read as Markdown there. Two things would
render wrong: doctests (``>>>`` lines and their output, which Markdown would read as
quotes and links) become ```pycon blocks, and Sphinx roles (:class:`~chinchon.Rules`)
become code spans (`Rules`)."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`~?([^`]+)`")


def _role(m: re.Match[str]) -> str:
    target = m.group(1)
    shown = target.split(".")[-1] if m.group(0).split("`")[1].startswith("~") else target
    return f"`{shown}`"


def markdown_of(text: str) -> str:
    """``text`` with its doctest blocks fenced and its Sphinx roles as code spans."""
    out: list[str] = []
    in_doctest = False
    for line in _ROLE.sub(_role, text).splitlines():
        stripped = line.strip()
        if not in_doctest and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_doctest = True
        elif in_doctest and not stripped:
            out.append(f"{indent}```")
            in_doctest = False
        out.append(line)
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class DocstringsAsMarkdown(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)
