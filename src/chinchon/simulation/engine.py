"""Which engine plays a simulation's games: the C engine (``csrc/src/engine/engine.c``, the
built-in bots only, ``search`` among them) or the Python loop (:func:`~chinchon.simulation.play.play_game`, any
bot). Both play the same games: the same records for the same arguments.

``engine='auto'`` takes the C engine when every seat is a built-in bot (by name, or its
class :class:`~chinchon.bots.RandomBot`, :class:`~chinchon.bots.GreedyBot`,
:class:`~chinchon.bots.ExpertBot`, :class:`~chinchon.bots.SearchBot` itself, not a
subclass; ``search:<budget>`` by name) and the native core is in use
(:data:`chinchon._backend.IMPLEMENTATION`), else the Python loop. ``'native'`` insists
on the C engine (an error where it cannot run), ``'python'`` on the loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from .. import _backend
from .. import bots as _bots
from ..errors import ChinchonError, shown
from ..rules import NATIVE_MINUS_TEN, Rules
from .play import BotSpec, GameRecord, play_game
from .stats import SimulationResult, from_counts

__all__ = ["ENGINES", "builtin_bots", "native_available", "resolve_engine", "play_games",
           "play_and_count", "count_games"]

#: the values of ``simulate(engine=...)`` and ``chinchon simulate --engine``
ENGINES = ("auto", "native", "python")



def builtin_bots(specs: Sequence[BotSpec]) -> Optional[list[str]]:
    """The built-in bots' names of ``specs``, one per seat, or None when a seat is not
    a built-in bot (a custom class or a subclass). The search's with its budget: that
    of the name, or the default of a table of ``len(specs)`` players."""
    names: list[str] = []
    players = len(specs)
    for spec in specs:
        if isinstance(spec, str):
            try:
                name: Optional[str] = _bots.bot_name(spec)
            except ChinchonError:
                return None
        else:
            name = next((n for n, cls in _bots.BOTS.items() if spec is cls), None)
        if name is None:
            return None
        names.append(_bots.bot_name(name, players) if name == "search" else name)
    return names


def _binding() -> Any:
    """The native binding, or None when it cannot be imported."""
    return _backend.native("engine")


def native_available() -> bool:
    """Whether the C engine can run here (the native extension is built and loads)."""
    return _binding() is not None


def _why_not_native(specs: Sequence[BotSpec], rules: Rules) -> Optional[str]:
    if builtin_bots(specs) is None:
        return "a seat is not a built-in bot (random, greedy, expert, search)"
    if rules.minus_ten > NATIVE_MINUS_TEN:
        return f"Rules.minus_ten is over {NATIVE_MINUS_TEN}"
    if not native_available():
        return "the native extension is not available"
    return None


def resolve_engine(engine: str, specs: Sequence[BotSpec], rules: Rules) -> str:
    """``'native'`` or ``'python'``: the engine that plays, for ``engine`` (one of
    :data:`ENGINES`), the seats' ``specs`` and the ``rules``."""
    if not isinstance(engine, str) or engine.strip().lower() not in ENGINES:
        raise ChinchonError(f"engine must be one of {', '.join(ENGINES)}, got {shown(engine)}")
    engine = engine.strip().lower()
    if engine == "python":
        return "python"
    why = _why_not_native(specs, rules)
    if engine == "native":
        if why is not None:
            raise ChinchonError(f"engine='native' cannot run: {why}")
        return "native"
    if why is None and _backend.IMPLEMENTATION == "native":
        return "native"
    return "python"


def play_games(players: int, specs: Sequence[BotSpec], seed: int, start: int, stop: int,
               rules: Optional[Rules], max_turns: int, engine: str) -> list[GameRecord]:
    """The records of games ``start..stop-1`` of a simulation, played by ``engine``
    (``'native'`` or ``'python'``, as :func:`resolve_engine` chose)."""
    if engine == "native":
        rows = _native_call(players, specs, seed, start, stop, rules, max_turns)
        return [GameRecord(*row) for row in rows]
    return [play_game(players, specs, seed, i, rules=rules, max_turns=max_turns)
            for i in range(start, stop)]



def _native_call(players: int, specs: Sequence[BotSpec], seed: int, start: int, stop: int,
                 rules: Optional[Rules], max_turns: int, **flags: bool) -> Any:
    names = builtin_bots(specs)
    assert names is not None
    return _binding()._play_games(players, names, seed, start, stop, rules, max_turns,
                                  _bots.base.STALE_TURNS, _bots.base.STALE_SHAKE,
                                  _bots.ExpertBot.WAIT_FOR, **flags)


def play_and_count(players: int, specs: Sequence[BotSpec], bot_names: list[str], seed: int,
                   start: int, stop: int, rules: Rules,
                   max_turns: int) -> tuple[list[GameRecord], SimulationResult]:
    """The C engine's records of games ``start..stop-1`` and their statistics, counted
    in C as the games are played: :func:`~chinchon.simulation.stats.aggregate` of the
    records, without their records (the caller keeps them or not)."""
    rows, counts = _native_call(players, specs, seed, start, stop, rules, max_turns,
                                count=True)
    records = [GameRecord(*row) for row in rows]
    return records, from_counts(counts, stop - start, players, bot_names, seed, rules)


def count_games(players: int, specs: Sequence[BotSpec], bot_names: list[str], seed: int,
                start: int, stop: int, rules: Rules, max_turns: int) -> SimulationResult:
    """The statistics of games ``start..stop-1`` played by the C engine, counted in C
    without a record per game: :func:`~chinchon.simulation.stats.aggregate` of
    :func:`play_games`'s records, without the records (a few µs per game less)."""
    names = builtin_bots(specs)
    assert names is not None
    counts = _binding()._count_games(players, names, seed, start, stop, rules, max_turns,
                                     _bots.base.STALE_TURNS, _bots.base.STALE_SHAKE,
                                     _bots.ExpertBot.WAIT_FOR)
    return from_counts(counts, stop - start, players, bot_names, seed, rules)
