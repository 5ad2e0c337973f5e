"""A server's settings, and the named rules a table may be created with."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..rules import Rules

__all__ = ["ServerConfig", "presets"]


def presets() -> dict[str, Rules]:
    """The named rules a table may be created with: ``chinchon.rules.PRESETS``, read at
    call time so that presets added to the package appear here by themselves."""
    from .. import rules as rules_module

    return dict(rules_module.PRESETS)


@dataclass
class ServerConfig:
    """Settings of a server (``chinchon serve`` options)."""

    db: str = "chinchon-tables.sqlite3"
    #: every table's ``rules.reconnect_seconds`` is replaced by this when set
    reconnect_seconds: Optional[float] = None
    #: a bot waits this long before each move, so that people can follow the play
    bot_delay: float = 0.8
    #: the summary between hands waits this long for everyone to press "ready"
    summary_seconds: float = 45.0
    #: per connection: messages per second, and the burst allowed above that rate
    rate: float = 20.0
    burst: int = 40
    #: tables not over that the server holds at once
    max_tables: int = 5000
    #: "normal" or "full" (see :class:`chinchon.server.store.Store`)
    durability: str = "normal"
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
