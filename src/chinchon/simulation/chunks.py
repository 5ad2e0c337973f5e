"""A chunk of a simulation: :func:`play_chunk` plays games ``start..stop-1`` under a
:class:`SimulationParams` and returns their statistics as a :class:`SimulationResult`.

This is the one function every executor runs (a local process pool, a Dask worker, any
``concurrent.futures.Executor``): it is module-level and its arguments pickle, and its
answer depends on the parameters and the indices alone, so a chunk retried after a
worker died gives the same statistics and rewrites the same records part.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, overload

from .. import bots as _bots
from ..errors import SimulationError, shown
from ..rules import Rules
from .play import DEFAULT_MAX_TURNS, BotSpec, GameRecord, game_seed, play_game
from .stats import SimulationResult, aggregate

__all__ = ["SimulationParams", "play_chunk", "bot_name"]


def bot_name(spec: BotSpec) -> str:
    """The name a bot is counted under (``wins_per_bot``, the records' ``bots``): a
    name's canonical spelling (:func:`chinchon.bots.bot_name`: ``search:0100`` and
    ``Search:100`` are both ``search:100``, ``search`` stays ``search``), a class's or
    a bot's own name."""
    if isinstance(spec, str):
        return _bots.bot_name(spec)
    return str(getattr(spec, "name", getattr(spec, "__name__", repr(spec))))


@dataclass(frozen=True)
class SimulationParams:
    """Everything a chunk of games needs besides its indices (checked by ``simulate``).

    ``records``: the directory of the per-game Parquet parts, or ``None``.
    ``keep_records``: return each game's :class:`GameRecord` in the result (``False``:
    statistics only, what a run of millions of games on a cluster wants).
    ``options``: keyword arguments passed on to the function that plays the games
    (the Python loop's :func:`~chinchon.simulation.play.play_game`; empty today).
    ``engine``: ``'native'`` (the C engine plays the chunk in one call) or ``'python'``
    (the Python loop), as :func:`~chinchon.simulation.engine.resolve_engine` chose."""

    players: int
    bots: tuple[BotSpec, ...]
    seed: int
    rules: Rules
    max_turns: int = DEFAULT_MAX_TURNS
    records: Optional[str] = None
    keep_records: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    engine: str = "python"

    @property
    def bot_names(self) -> list[str]:
        return [bot_name(b) for b in self.bots]

    def empty(self) -> SimulationResult:
        """The result of no games: the identity of :meth:`SimulationResult.merge`."""
        return aggregate([], self.players, self.bot_names, self.seed, self.rules)


def _play(params: SimulationParams, start: int, stop: int) -> list[GameRecord]:
    """The Python loop's records of games ``start..stop-1``; a game that raises becomes
    a :class:`SimulationError` naming the index and seed that replay it."""
    records = []
    for i in range(start, stop):
        try:
            records.append(play_game(params.players, params.bots, params.seed, i,
                                     rules=params.rules, max_turns=params.max_turns,
                                     **params.options))
        except Exception as exc:  # noqa: BLE001 - any failure of a game, a bot's above all
            cause = f"{type(exc).__name__}: {exc}"
            raise SimulationError(
                f"game {i} of the simulation with seed {shown(params.seed)} failed: {cause} "
                f"(table seed {game_seed(params.seed, i)}; replay it with "
                f"play_game({params.players}, bots, seed={params.seed}, index={i}))",
                i, params.seed, cause) from exc
    return records


def _native(params: SimulationParams, start: int, stop: int,
            records: bool) -> tuple[list[GameRecord], SimulationResult]:
    """The C engine's games ``start..stop-1`` (one call for the chunk): their records
    (``records``; else none) and their statistics, counted in C as they are played; a
    failure (none is known: the built-in bots do not raise) names the chunk's games."""
    from .engine import count_games, play_and_count

    args = (params.players, params.bots, params.bot_names, params.seed, start, stop,
            params.rules, params.max_turns)
    try:
        if records:
            return play_and_count(*args)
        return [], count_games(*args)
    except Exception as exc:  # noqa: BLE001
        cause = f"{type(exc).__name__}: {exc}"
        raise SimulationError(
            f"games {start}..{stop - 1} of the simulation with seed {shown(params.seed)} "
            f"failed in the C engine: {cause} (replay one with play_game({params.players}, "
            f"bots, seed={params.seed}, index=i))", start, params.seed, cause) from exc


def play_chunk(params: SimulationParams, start: int, stop: int) -> SimulationResult:
    """Play games ``start..stop-1``: their statistics (``seconds`` is the time spent
    here), and their records part written when ``params.records`` is set. The C engine
    counts the statistics in C as it plays (no record per game unless kept or written)."""
    t0 = time.perf_counter()
    if params.engine == "native":
        records, result = _native(params, start, stop,
                                  params.keep_records or params.records is not None)
    else:
        records = _play(params, start, stop)
        result = aggregate(records, params.players, params.bot_names, params.seed,
                           params.rules)
    if params.records is not None:
        from .records import write_part  # pyarrow: only where records are asked for

        write_part(params, start, records)
    result.records = records if params.keep_records else []
    result.seconds = time.perf_counter() - t0
    return result


class ChunkBounds(Sequence[tuple[int, int]]):
    """The ``(start, stop)`` of each chunk of ``games`` games, in order, each made when
    it is read: a billion games in chunks of one, as a list, would take over 100 GB
    before the first game."""

    def __init__(self, games: int, chunk_size: int) -> None:
        self.games, self.chunk_size = games, chunk_size
        #: the first game of each chunk
        self.starts = range(0, games, chunk_size)

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, int]]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        start = self.starts[i]
        return start, min(start + self.chunk_size, self.games)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for start in self.starts:
            yield start, min(start + self.chunk_size, self.games)


def chunk_bounds(games: int, chunk_size: int) -> ChunkBounds:
    """The ``(start, stop)`` of each chunk, in order (made as they are read)."""
    return ChunkBounds(games, chunk_size)
