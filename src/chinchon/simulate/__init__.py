"""Bulk simulation: whole games between bots, reproducibly, across processes.

``simulate(games, players, bots=..., seed=..., jobs=...)`` plays ``games`` games. Game
``i`` is seeded from ``(seed, i)`` alone (its table and its bots), so the statistics are
the same whatever ``jobs`` is and however the games are split into chunks; the
per-game records are merged in game order.

Endless hands: the rules have no turn limit, and two bots can keep throwing away what
the other needs. So that a simulation always finishes, a game whose hand reaches
``max_turns`` turns (default 1000, about 40 times the usual hand) is abandoned and
counted as **stalled**: no winner, not a draw, kept out of the win counts. The game's
rules are not changed; this is a property of the simulator only.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Optional, Union

from .._args import check_rules
from ..bots import Bot, make_bot
from ..errors import ChinchonError, shown
from ..game.deck import MAX_PLAYERS, MIN_PLAYERS
from ..rules import Rules
from .engine import ENGINES, play_games, resolve_engine
from .play import DEFAULT_MAX_TURNS, BotSpec, GameRecord, game_seed, play_game
from .stats import SimulationResult, aggregate

__all__ = ["simulate", "SimulationResult", "GameRecord", "play_game", "game_seed", "MAX_GAMES",
           "MAX_JOBS", "ENGINES"]

#: the most games one call plays (every game's record is kept in the result)
MAX_GAMES = 10**9
#: the most worker processes one call starts
MAX_JOBS = 256
#: the most chunks of games queued per worker: enough to keep every worker busy, few
#: enough that an interrupted run has little to cancel
_QUEUED_PER_JOB = 4

_Task = tuple[int, Sequence[BotSpec], int, int, int, Optional[Rules], int, str]


def _chunk(args: _Task) -> list[GameRecord]:
    players, bots, seed, start, stop, rules, max_turns, engine = args
    return play_games(players, bots, seed, start, stop, rules, max_turns, engine)


def _bot_name(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return spec.strip().lower()
    return str(getattr(spec, "name", getattr(spec, "__name__", repr(spec))))


def _int_arg(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ChinchonError(f"{name} must be an int {low}..{high}, got {shown(value)}")
    return value


def simulate(games: int, players: int = 4, *, bots: Union[str, Sequence[BotSpec]] = "greedy",
             seed: int = 0, jobs: Optional[int] = 1, rules: Union[Rules, str, None] = None,
             max_turns: int = DEFAULT_MAX_TURNS, chunk_size: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None,
             engine: str = "auto") -> SimulationResult:
    """Play ``games`` whole games of ``players`` bots and return their statistics.

    ``bots``: one bot name for every seat (``'greedy'``), a comma-separated list
    (``'greedy,greedy,random,random'``), or a sequence of names or Bot classes, one per
    seat. ``seed``: the simulation seed; game ``i`` depends on ``(seed, i)`` only.
    ``jobs``: worker processes (``None``: every core; 1: in this process). ``progress``
    is called with the number of games just finished, as chunks complete.
    ``engine``: ``'auto'`` (the C engine when every seat is a built-in bot and the
    native core is in use, else the Python loop), ``'native'`` or ``'python'``
    (:mod:`chinchon.simulate.engine`); the result is the same whichever plays, and
    ``result.engine`` says which did.

    Interrupted (``KeyboardInterrupt``, Ctrl-C) with ``jobs > 1``, the queued chunks are
    cancelled and the workers stopped at once (they ignore SIGINT themselves; the
    caller's process stops them), then the interrupt goes on to the caller.
    """
    _int_arg("games", games, 0, MAX_GAMES)
    _int_arg("players", players, MIN_PLAYERS, MAX_PLAYERS)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > 256:
        raise ChinchonError(f"seed must be an int of at most 256 bits, got {shown(seed)}")
    _int_arg("max_turns", max_turns, 1, MAX_GAMES)
    if isinstance(bots, str):
        specs: list[BotSpec] = [b for b in bots.split(",") if b.strip()]
    else:
        specs = list(bots)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ChinchonError(f"{len(specs)} bots for {players} players")
    for s in specs:
        make_bot(s)  # checks the name early, in this process
        if isinstance(s, Bot):
            raise ChinchonError("pass bot names or Bot classes (each game makes its own bots)")
    rules = check_rules(rules)
    engine = resolve_engine(engine, specs, rules)
    if jobs is None:
        jobs = os.cpu_count() or 1
    _int_arg("jobs", jobs, 1, MAX_JOBS)
    jobs = min(jobs, max(1, games))
    if chunk_size is None:
        # enough chunks for a smooth progress bar and load balance, few enough to be cheap
        chunk_size = max(1, min(200, games // (jobs * 8) or 1))
    _int_arg("chunk_size", chunk_size, 1, MAX_GAMES)
    step = chunk_size
    tasks = ((players, specs, seed, a, min(a + step, games), rules, max_turns, engine)
             for a in range(0, games, step))

    t0 = time.perf_counter()
    records: list[GameRecord] = []
    if jobs == 1:
        for task in tasks:
            part = _chunk(task)
            records.extend(part)
            if progress is not None:
                progress(len(part))
    else:
        for part in _in_processes(tasks, jobs, progress):
            records.extend(part)
    seconds = time.perf_counter() - t0

    result = aggregate(records, players, [_bot_name(s) for s in specs], seed)
    result.seconds = seconds
    result.jobs = jobs
    result.rules = rules
    result.engine = engine
    return result


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C reaches every process of the terminal's foreground
    group; the workers leave it to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_processes(tasks: Iterator[_Task], jobs: int,
                  progress: Optional[Callable[[int], None]]) -> list[list[GameRecord]]:
    """The records of each task, in task order, run by ``jobs`` worker processes with a
    few tasks queued per worker. Any exception here (a ``KeyboardInterrupt`` above all)
    cancels what is queued and stops the workers before it goes on."""
    parts: dict[int, list[GameRecord]] = {}
    pending: dict[Future[list[GameRecord]], int] = {}
    numbered = enumerate(tasks)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)
    try:
        while True:
            for k, task in numbered:
                pending[pool.submit(_chunk, task)] = k
                if len(pending) >= jobs * _QUEUED_PER_JOB:
                    break
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                part = fut.result()
                parts[pending.pop(fut)] = part
                if progress is not None:
                    progress(len(part))
    except BaseException:
        _stop(pool, pending)
        raise
    pool.shutdown(wait=True)
    return [parts[k] for k in range(len(parts))]


def _stop(pool: ProcessPoolExecutor, pending: dict[Future[list[GameRecord]], int]) -> None:
    """Cancel the queued tasks and end the workers now (a second Ctrl-C meanwhile is
    ignored: the stop takes a moment and must not be cut short)."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        for fut in pending:
            fut.cancel()
        workers = list((getattr(pool, "_processes", None) or {}).values())
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()
        else:
            for proc in workers:
                if proc.is_alive():
                    proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1)
        # and the pool's manager thread: left running, it closes its wake-up pipe while
        # the interpreter's exit hook may be writing to it ("Bad file descriptor"
        # printed at exit); with the workers gone it ends at once
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=2)
    finally:
        if main and old is not None:
            signal.signal(signal.SIGINT, old)
