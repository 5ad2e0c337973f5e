"""``chinchon serve``: the table server (:mod:`chinchon.server`, the optional extra
``pip install "chinchon[server]"``). Only the hook lives here: the server's own modules
are imported when it starts, so the command line works without the extra."""

from __future__ import annotations

from typing import Any

from ..server.cli import add_arguments, main


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help='host tables in the browser (needs pip install "chinchon[server]")',
        description="Run the table server: a web page and a WebSocket JSON protocol "
                    "(docs/protocol.md); tables are kept in SQLite and resumed on restart.",
    )
    add_arguments(p)
    p.set_defaults(func=main)
