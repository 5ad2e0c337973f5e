"""Bulk simulation: whole games between bots, reproducibly, across processes and
machines.

``simulate(games, players, bots=..., seed=..., jobs=... | executor=...)`` plays
``games`` games. Game ``i`` is seeded from ``(seed, i)`` alone (its table and its bots),
and the games are played in chunks of consecutive indices (:func:`play_chunk`) whose
statistics merge exactly (:meth:`SimulationResult.merge`), so the result is the same
whatever runs the chunks (this process, ``jobs`` local processes, a Dask cluster or
any ``concurrent.futures.Executor``), however many workers it has and whatever the
chunk size. ``records=PATH`` also writes one Parquet row per game (:mod:`.records`).

Endless hands: the rules have no turn limit, and two bots can keep throwing away what
the other needs. So that a simulation always finishes, a game whose hand reaches
``max_turns`` turns (default 1000, about 40 times the usual hand) is abandoned and
counted as **stalled**: no winner, not a draw, kept out of the win counts (as is a
game still going after ``MAX_HANDS`` (10,000) hands). The game's
rules are not changed; this is a property of the simulator only.
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Callable, Optional, Union

from .._args import check_rules
from ..bots import BOT_FORMS, Bot, SearchBot, make_bot
from ..errors import ChinchonError, SimulationError, shown
from ..game.deck import MAX_PLAYERS, MIN_PLAYERS
from ..rules import Rules
from .engine import ENGINES, resolve_engine
from .chunks import SimulationParams, chunk_bounds, play_chunk
from .play import DEFAULT_MAX_TURNS, BotSpec, GameRecord, game_seed, play_game
from .run import as_executor, executor_workers, run_chunks
from .stats import SimulationResult, aggregate

__all__ = ["simulate", "SimulationResult", "SimulationParams", "SimulationError", "GameRecord",
           "play_game", "play_chunk", "game_seed", "aggregate", "read_records", "MAX_GAMES",
           "MAX_JOBS", "ENGINES"]

#: the most games one call plays
MAX_GAMES = 10**9
#: the most worker processes one call starts
MAX_JOBS = 256
#: the default chunk, in games, per engine: (largest on local processes, largest on a
#: caller's executor, smallest on an executor). The Python loop plays ~400 games a
#: second on a core, the C engine ~20,000: about half a second and 2.5 s of a core at
#: most; and on an executor, where a Dask scheduler spends milliseconds on each task,
#: at least half a second of the C engine's work (when there are games enough).
_CHUNKS = {"python": (200, 1000, 1), "native": (5000, 50_000, 10_000)}


def _int_arg(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ChinchonError(f"{name} must be an int {low}..{high}, got {shown(value)}")
    return value


def _bot_specs(bots: object, players: int) -> list[BotSpec]:
    """The bot of each seat: ``bots`` as :func:`simulate` takes it, checked."""
    if isinstance(bots, str):
        names = bots.split(",")
        for i, b in enumerate(names):
            if not b.strip():
                raise ChinchonError(f"bots {shown(bots)}: bot {i + 1} of {len(names)} has "
                                    f"no name; choose from {BOT_FORMS}")
        specs: list[BotSpec] = list(names)
    elif isinstance(bots, (bytes, bytearray, Mapping, AbstractSet)) or \
            not isinstance(bots, Iterable):
        raise ChinchonError(f"bots must be a bot name, a comma-separated list of them, or "
                            f"a sequence of bot names or Bot classes, got {shown(bots)}")
    else:
        specs = list(bots)
    if len(specs) == 1:
        specs = specs * players
    if not specs:
        raise ChinchonError(f"bots is empty: name a bot for every seat, or one for all; "
                            f"choose from {BOT_FORMS}")
    if len(specs) != players:
        raise ChinchonError(f"{len(specs)} bots for {players} players")
    for s in specs:
        make_bot(s)  # checks the name early, in this process
        if isinstance(s, Bot):
            raise ChinchonError("pass bot names or Bot classes (each game makes its own bots)")
    return specs


def _records_path(records: object) -> Optional[str]:
    """``records`` as a path (str), or None; the directory itself is checked where it is
    made (:func:`.records.prepare`)."""
    if records is None:
        return None
    path = os.fspath(records) if isinstance(records, os.PathLike) else records
    if not isinstance(path, str):
        raise ChinchonError(f"records must be a directory's path (a str or an os.PathLike),"
                            f" got {shown(records)}")
    return path


#: play_game's keyword arguments that simulate sets from its own
_OWN_OPTIONS = ("rules", "max_turns")


def _options(options: object) -> dict[str, Any]:
    """``options`` (None or a mapping of keyword arguments) as a dict, each key one that
    :func:`play_game` takes and simulate does not set itself (so that a wrong one fails
    here, not as every game's SimulationError)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ChinchonError(f"options must be None or a mapping of keyword arguments (str "
                            f"keys) for the game player, got {shown(options)}")
    taken = [name for name, p in inspect.signature(play_game).parameters.items()
             if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in _OWN_OPTIONS]
    for key in options:
        if key in _OWN_OPTIONS:
            raise ChinchonError(f"options: {key!r} is simulate's own argument; pass "
                                f"{key}=... to simulate")
        if key not in taken:
            raise ChinchonError(f"options: the game player takes no keyword {key!r} "
                                f"(it takes {', '.join(map(repr, taken)) or 'none'})")
    return dict(options)


def read_records(path: str, columns: Optional[Sequence[str]] = None) -> Any:
    """The per-game records that ``simulate(..., records=path)`` wrote, as one
    ``pyarrow.Table`` sorted by game index (needs pyarrow)."""
    from .records import read_records as read

    return read(path, columns)


def simulate(games: int, players: int = 4, *, bots: Union[str, Sequence[BotSpec]] = "greedy",
             seed: int = 0, jobs: Optional[int] = 1, rules: Union[Rules, str, None] = None,
             max_turns: int = DEFAULT_MAX_TURNS, chunk_size: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None, executor: Any = None,
             records: Union[str, "os.PathLike[str]", None] = None, keep_records: bool = True,
             options: Optional[Mapping[str, Any]] = None,
             engine: str = "auto") -> SimulationResult:
    """Play ``games`` whole games of ``players`` bots and return their statistics.

    ``bots``: one bot name for every seat (``'greedy'``), a comma-separated list
    (``'greedy,greedy,random,random'``), or a sequence of names or Bot classes, one per
    seat. ``seed``: the simulation seed; game ``i`` depends on ``(seed, i)`` only.
    ``jobs``: worker processes (``None``: every core, at most ``MAX_JOBS``; 1: in this
    process). ``progress``: None, or a callable called with the number of games just
    finished, as chunks complete.
    ``engine``: ``'auto'`` (the C engine when every seat is a built-in bot and the
    native core is in use, else the Python loop), ``'native'`` or ``'python'``
    (:mod:`chinchon.simulation.engine`); the result is the same whichever plays, and
    ``result.engine`` says which did.

    ``executor``: run the chunks of ``chunk_size`` games (default: about 8 chunks per
    worker, at most 200 games of the Python loop on local processes and 1000 on an
    executor; with the C engine at most 5,000 and 50,000, and on an executor at least
    10,000 or an equal share of the games per worker) on this
    ``concurrent.futures.Executor`` instead (a ``dask.distributed.Client`` or its
    ``get_executor()``, a ``ProcessPoolExecutor`` of your own, ...; ``jobs`` is then
    not used). The result's statistics (:meth:`SimulationResult.stats`) are the same
    for the same arguments whatever runs them, with however many workers, in chunks of
    any size. ``records``: a directory (a str or an ``os.PathLike``, not empty) to write
    one Parquet row per game into (parts written by the workers, see
    :mod:`chinchon.simulation.records`; needs pyarrow); one that cannot be made is a
    :class:`~chinchon.errors.RecordsError`.
    ``keep_records=False`` leaves each game's :class:`GameRecord` out of the result
    (``result.records`` empty), which a run of millions of games wants. ``options``:
    None or a mapping of keyword arguments for the game player, passed through to every
    chunk. Every argument is checked before any game is played (a
    :class:`~chinchon.errors.ChinchonError` naming it).

    A game that raises (a bot's bug) stops the run with a :class:`SimulationError`
    whose ``index`` and ``seed`` replay that game alone. A worker process that dies is
    replaced (our own pool is made anew, up to ``MAX_POOL_RESTARTS`` times; Dask
    reschedules by itself) and the result is unchanged.

    Interrupted (``KeyboardInterrupt``, Ctrl-C) with ``jobs > 1``, the queued chunks are
    cancelled and the workers stopped at once (they ignore SIGINT themselves; the
    caller's process stops them), then the interrupt goes on to the caller. With an
    ``executor`` the queued chunks are cancelled; the executor stays the caller's.
    """
    _int_arg("games", games, 0, MAX_GAMES)
    _int_arg("players", players, MIN_PLAYERS, MAX_PLAYERS)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > 256:
        raise ChinchonError(f"seed must be an int of at most 256 bits, got {shown(seed)}")
    _int_arg("max_turns", max_turns, 1, MAX_GAMES)
    specs = _bot_specs(bots, players)
    if progress is not None and not callable(progress):
        raise ChinchonError(f"progress must be None or a callable taking the number of "
                            f"games just finished, got {shown(progress)}")
    records_path = _records_path(records)
    play_options = _options(options)
    checked_rules = check_rules(rules)
    if any(isinstance(make_bot(s), SearchBot) for s in specs):  # before any game
        SearchBot.check_rules(checked_rules)
    asked, engine = engine, resolve_engine(engine, specs, checked_rules)
    if play_options and engine == "native":  # options: the Python loop's keyword arguments
        if asked.strip().lower() == "native":
            raise ChinchonError("engine='native' takes no options (they are play_game's)")
        engine = "python"
    pool = None if executor is None else as_executor(executor)
    if pool is not None:
        if jobs is not None:  # not used with an executor, but checked as every argument
            _int_arg("jobs", jobs, 1, MAX_JOBS)
        jobs = executor_workers(pool)
    else:
        if jobs is None:  # every core, as many as one call starts at most
            jobs = min(os.cpu_count() or 1, MAX_JOBS)
        _int_arg("jobs", jobs, 1, MAX_JOBS)
        jobs = min(jobs, max(1, games))
    if chunk_size is None:
        # enough chunks for a smooth progress bar and load balance (about 8 a worker),
        # few enough to be cheap (_CHUNKS)
        local_cap, executor_cap, executor_floor = _CHUNKS[engine]
        chunk_size = min(local_cap if pool is None else executor_cap, games // (jobs * 8))
        if pool is not None:
            chunk_size = max(chunk_size, min(executor_floor, -(-games // jobs)))
        chunk_size = max(1, chunk_size)
    _int_arg("chunk_size", chunk_size, 1, MAX_GAMES)
    if not isinstance(keep_records, bool):
        raise ChinchonError(f"keep_records must be a bool, got {shown(keep_records)}")
    params = SimulationParams(players, tuple(specs), seed, checked_rules, max_turns,
                              keep_records=keep_records, options=play_options, engine=engine)
    chunks = chunk_bounds(games, chunk_size)
    if records_path is not None:
        from .records import finish, prepare

        folder = prepare(records_path, params, games)
        params = SimulationParams(players, tuple(specs), seed, checked_rules, max_turns,
                                  records=folder, keep_records=keep_records,
                                  options=play_options, engine=engine)

    t0 = time.perf_counter()
    result = run_chunks(params, chunks, jobs=jobs, executor=pool, progress=progress)
    result.seconds = time.perf_counter() - t0
    result.jobs = jobs
    result.engine = engine
    if records_path is not None:
        finish(folder, chunks.starts,
               {"engine": engine, "jobs": jobs, "seconds": result.seconds})
    return result
