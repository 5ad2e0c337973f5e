"""A server's settings, and the named rules a table may be created with."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional

from ..bots import SearchBot
from ..errors import ChinchonError, shown
from ..rules import Rules

__all__ = ["ServerConfig", "presets", "default_db", "DEFAULT_DB"]

# the tables' file when no ``--db`` is given, under the user's data directory
_DB_IN_DATA_HOME = ("chinchon", "tables.sqlite3")
#: that place as the help and the docs write it
DEFAULT_DB = "/".join(("$XDG_DATA_HOME",) + _DB_IN_DATA_HOME)


def default_db() -> str:
    """:data:`DEFAULT_DB` as a path: ``$XDG_DATA_HOME/chinchon/tables.sqlite3``
    (``~/.local/share/chinchon/tables.sqlite3`` without ``XDG_DATA_HOME``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return os.path.join(base, *_DB_IN_DATA_HOME)


def presets() -> dict[str, Rules]:
    """The named rules a table may be created with: ``chinchon.rules.PRESETS``, read at
    call time so that presets added to the package appear here by themselves."""
    from .. import rules as rules_module

    return dict(rules_module.PRESETS)


@dataclass
class ServerConfig:
    """Settings of a server (``chinchon serve`` options)."""

    #: the SQLite file of the tables (:func:`default_db` by default)
    db: str = field(default_factory=default_db)
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
    #: the threads of each decision of a search bot seat (:class:`chinchon.bots.SearchBot`:
    #: the same moves in less time where the cores are free; the other bots take one)
    search_threads: int = 1
    #: the worker threads that play the search bot seats' decisions while the event loop
    #: serves the other tables (None: one a core); 0: on the event loop itself, every
    #: other table waiting meanwhile
    search_workers: Optional[int] = None
    #: the largest search budget a table may ask for (``create``'s ``bot``), in
    #: playouts and in milliseconds: a search is not stopped once begun, and every
    #: table's search seats share the workers, so one table asking for minutes a
    #: decision would hold them from the others
    max_search_playouts: int = 20_000
    max_search_ms: int = 50
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    #: the most workers a server takes
    MAX_SEARCH_WORKERS = 1024

    def __post_init__(self) -> None:
        SearchBot.check_threads(self.search_threads)
        workers = self.search_workers
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or not 0 <= workers <= self.MAX_SEARCH_WORKERS):
            raise ChinchonError(f"a server's search_workers must be None or an int "
                                f"0..{self.MAX_SEARCH_WORKERS}, got {shown(workers)}")
        for name in ("max_search_playouts", "max_search_ms"):
            value = getattr(self, name)
            if (isinstance(value, bool) or not isinstance(value, int)
                    or not 1 <= value <= SearchBot.MAX_BUDGET):
                raise ChinchonError(f"a server's {name} must be an int "
                                    f"1..{SearchBot.MAX_BUDGET}, got {shown(value)}")

    def table_rules(self, rules: Rules) -> Rules:
        """The rules a table plays under on this server: ``rules`` with the server's
        :attr:`reconnect_seconds` when it is set. A new table is created under them, and
        a table resumed from the database moves to them (its ``restart`` event)."""
        if self.reconnect_seconds is None or rules.reconnect_seconds == self.reconnect_seconds:
            return rules
        return replace(rules, reconnect_seconds=self.reconnect_seconds)

    def table_bot(self, bot: str, players: int) -> str:
        """The bot a table of ``players`` plays for the canonical name ``bot``: ``search``
        alone is its table's default budget, or this server's
        :attr:`max_search_playouts` where that is less (the level the page offers stays
        one every table may have); any other name as it is."""
        if bot == "search" and SearchBot.default_playouts(players) > self.max_search_playouts:
            return f"search:{self.max_search_playouts}"
        return bot

    def check_bot(self, bot: str, players: int) -> None:
        """An error unless the canonical bot name ``bot`` is one a table of ``players``
        may ask for here: a search's budget within :attr:`max_search_playouts` and
        :attr:`max_search_ms`, ``search`` alone counted as the table's default
        (:meth:`SearchBot.default_playouts`)."""
        if bot == "search":
            ms, value = False, SearchBot.default_playouts(players)
        elif bot.startswith("search:"):
            budget = bot[len("search:"):]
            ms = budget.endswith("ms")
            value = int(budget[:-2] if ms else budget)
        else:
            return
        if value > (self.max_search_ms if ms else self.max_search_playouts):
            asked = (f"{bot} ({value} playouts at {players} players)" if bot == "search"
                     else bot)
            raise ChinchonError(f"a table's search bot may take at most "
                                f"{self.max_search_playouts} playouts or "
                                f"{self.max_search_ms} ms a decision on this server, "
                                f"got {asked}")
