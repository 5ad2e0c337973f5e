"""The table server: ``chinchon serve`` hosts games in the browser.

An optional extra (``pip install "chinchon[server]"``: Starlette, uvicorn,
websockets). One WebSocket endpoint speaks the JSON protocol of ``docs/protocol.md``;
the same app serves a plain HTML/CSS/JS page (``static/``). Tables live in SQLite.

Modules:

- :mod:`.protocol` — message size, JSON and schema checks (standard library only);
- :mod:`.tables` — one table as a state machine over stored event records;
- :mod:`.views` — what one seat is shown, drawn by the page as sent: :mod:`.faces`
  decides how cards, melds and outcomes are shown;
- :mod:`.store` — the SQLite store (WAL; one transaction per event);
- :mod:`.manager` — live tables and the messages, put together from
  :mod:`.config` (settings, presets, the default database), :mod:`.live` (what is held in memory),
  :mod:`.commit` (the group commit), :mod:`.driving` (clock, timers, bots) and
  :mod:`.seats` (creating, joining, resuming, leaving);
- :mod:`.app` — the Starlette app (needs the extra);
- :mod:`.cli` — ``chinchon serve`` / ``python -m chinchon.server``.

Nothing here is imported by ``import chinchon``; importing this package itself needs
nothing beyond the core either (the app imports Starlette when it is built).

The modules that run on every message (:data:`COMPILED_MODULES`) are compiled by a
native build from their own source, with Cython, into extension modules of the same
names, which Python imports before the source beside them; the ``.py`` files are the
source and the fallback. ``CHINCHON_IMPLEMENTATION=python`` imports them from the
source even where they are compiled (as it runs the pure-Python solver): the way to
try an edit of one without building again. :func:`compiled` says which runs.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from typing import Any, Optional, Sequence

__all__ = ["PROTOCOL_VERSION", "COMPILED_MODULES", "compiled"]

#: the modules of this package a native build compiles (CMakeLists.txt,
#: CHINCHON_SERVER_MODULES)
COMPILED_MODULES = ("_json", "views", "commit", "manager", "tables", "protocol", "driving",
                    "wire")


class _FromSource:
    """Finds :data:`COMPILED_MODULES` as their ``.py`` source (a meta path finder,
    first on ``sys.meta_path`` under ``CHINCHON_IMPLEMENTATION=python``)."""

    @staticmethod
    def find_spec(name: str, path: Optional[Sequence[str]] = None,
                  target: Any = None) -> Optional[ModuleSpec]:
        package, _, module = name.rpartition(".")
        if package != __name__ or module not in COMPILED_MODULES:
            return None
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), module + ".py")
        return importlib.util.spec_from_file_location(name, source)


if os.environ.get("CHINCHON_IMPLEMENTATION", "").strip().lower() == "python":
    sys.meta_path.insert(0, _FromSource())


def compiled() -> bool:
    """Whether this package's :data:`COMPILED_MODULES` run compiled (a native build,
    not ``CHINCHON_IMPLEMENTATION=python``, nor one configured with
    ``CHINCHON_COMPILED_SERVER=OFF``) rather than from their source."""
    from . import views

    return not (views.__file__ or "").endswith(".py")


from .protocol import PROTOCOL_VERSION  # noqa: E402  (after the finder: it is compiled)
