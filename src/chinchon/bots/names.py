"""The bots by name (:data:`BOTS`): a name's canonical spelling (:func:`bot_name`) and the
bot it makes (:func:`make_bot`)."""

from __future__ import annotations

from typing import Optional, Union

from ..errors import ChinchonError, shown
from ..game.deck import MAX_PLAYERS, MIN_PLAYERS
from .base import Bot
from .rule_based import ExpertBot, GreedyBot, RandomBot
from .search import SearchBot


#: bot names accepted by :func:`make_bot`, ``simulate`` and the CLI, weakest first
#: (``search`` also as ``search:<playouts>`` and ``search:<ms>ms``: :func:`bot_name`)
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot,
                              "search": SearchBot}

#: the forms of a bot name, for the errors that name them
BOT_FORMS = "random, greedy, expert, search, search:<playouts> (e.g. search:2000), search:<ms>ms (e.g. search:10ms)"


def bot_name(spec: object, players: Optional[int] = None) -> str:
    """The canonical name of the bot name ``spec``: one of :data:`BOTS` or the search's
    with its budget (``'search:2000'``, ``'search:10ms'``; ``'search'``, the table's
    default budget, spelt out for a table of ``players``:
    ``'search:<SearchBot.default_playouts(players)>'``), case, spaces and a budget's
    leading zeros ignored (``' Search: 0100 '`` is ``'search:100'``); an error naming
    the accepted forms otherwise (``search:0``, ``search:-1``, ``search:abc``)."""
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ChinchonError(f"players must be an int {MIN_PLAYERS}..{MAX_PLAYERS} or None, "
                            f"got {shown(players)}")
    if not isinstance(spec, str):
        raise ChinchonError(f"a bot name must be a str, got {shown(spec)}; choose from {BOT_FORMS}")
    name = spec.strip().lower()
    head, colon, budget = name.partition(":")
    if head.rstrip() == "search" and not colon:
        return "search" if players is None else f"search:{SearchBot.default_playouts(players)}"
    if head.rstrip() == "search":
        budget = budget.strip()
        ms = budget.endswith("ms")
        digits = budget[:-2].strip() if ms else budget
        digits = digits.lstrip("0") or "0"  # leading zeros: any number of them
        if (digits.isdigit() and digits.isascii() and len(digits) <= 7
                and 0 < int(digits) <= SearchBot.MAX_BUDGET):
            return f"search:{int(digits)}ms" if ms else f"search:{int(digits)}"
        raise ChinchonError(f"bad search budget {shown(spec)}: a search bot is search, "
                            f"search:<playouts> or search:<ms>ms with a whole number "
                            f"1..{SearchBot.MAX_BUDGET} (e.g. search:2000, search:10ms)")
    if name in BOTS:
        return name
    raise ChinchonError(f"unknown bot {shown(spec)}; choose from {BOT_FORMS}")


def make_bot(spec: Union[str, Bot, type[Bot]], seed: Optional[int] = None, *,
             threads: Optional[int] = None) -> Bot:
    """A bot from a name (:func:`bot_name`: one of :data:`BOTS`, or ``search:<budget>``;
    ``search`` alone takes the default budget of each table it plays at),
    a Bot class, or a Bot (returned as is). ``threads``: a search bot's threads
    (:class:`SearchBot`; the other bots play on the calling thread), 1..64, default 1;
    a search bot passed in keeps its own threads, and asking it for others is an
    error."""
    if threads is not None:
        SearchBot.check_threads(threads)
    if isinstance(spec, Bot):
        if threads is not None and isinstance(spec, SearchBot) and spec.threads != threads:
            raise ChinchonError(f"make_bot: the search bot given plays on {spec.threads} "
                                f"thread(s), not the {threads} asked; set its threads")
        return spec
    if isinstance(spec, type) and issubclass(spec, SearchBot):
        return spec(seed, threads=threads or 1)
    if isinstance(spec, type) and issubclass(spec, Bot):
        return spec(seed)
    name = bot_name(spec)
    if name.startswith("search"):
        return SearchBot.from_name(name, seed, threads or 1)
    return BOTS[name](seed)
