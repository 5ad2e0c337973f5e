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
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional, Union

from ..bots import Bot, make_bot
from ..errors import ChinchonError
from ..rules import HOUSE_RULES, Rules
from .play import DEFAULT_MAX_TURNS, BotSpec, GameRecord, game_seed, play_game
from .stats import SimulationResult, aggregate

__all__ = ["simulate", "SimulationResult", "GameRecord", "play_game", "game_seed"]


def _chunk(args: tuple[int, Sequence[BotSpec], int, int, int, Optional[Rules], int]
           ) -> list[GameRecord]:
    players, bots, seed, start, stop, rules, max_turns = args
    return [play_game(players, bots, seed, i, rules=rules, max_turns=max_turns)
            for i in range(start, stop)]


def _bot_name(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return spec.strip().lower()
    return str(getattr(spec, "name", getattr(spec, "__name__", repr(spec))))


def simulate(games: int, players: int = 4, *, bots: Union[str, Sequence[BotSpec]] = "greedy",
             seed: int = 0, jobs: Optional[int] = 1, rules: Optional[Rules] = None,
             max_turns: int = DEFAULT_MAX_TURNS, chunk_size: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None) -> SimulationResult:
    """Play ``games`` whole games of ``players`` bots and return their statistics.

    ``bots``: one bot name for every seat (``'greedy'``), a comma-separated list
    (``'greedy,greedy,random,random'``), or a sequence of names or Bot classes, one per
    seat. ``seed``: the simulation seed; game ``i`` depends on ``(seed, i)`` only.
    ``jobs``: worker processes (``None``: every core; 1: in this process). ``progress``
    is called with the number of games just finished, as chunks complete.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ChinchonError(f"games must be an int >= 0, got {games!r}")
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise ChinchonError(f"players must be 3 to 6, got {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ChinchonError(f"seed must be an int, got {seed!r}")
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        raise ChinchonError(f"max_turns must be a positive int, got {max_turns!r}")
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
    rules = HOUSE_RULES if rules is None else rules
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ChinchonError(f"jobs must be a positive int or None, got {jobs!r}")
    jobs = min(jobs, max(1, games))
    if chunk_size is None:
        # enough chunks for a smooth progress bar and load balance, few enough to be cheap
        chunk_size = max(1, min(200, games // (jobs * 8) or 1))
    bounds = [(a, min(a + chunk_size, games)) for a in range(0, games, chunk_size)]
    tasks = [(players, specs, seed, a, b, rules, max_turns) for a, b in bounds]

    t0 = time.perf_counter()
    records: list[GameRecord] = []
    if jobs == 1:
        for task in tasks:
            part = _chunk(task)
            records.extend(part)
            if progress is not None:
                progress(len(part))
    else:
        parts: dict[int, list[GameRecord]] = {}
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_chunk, task): k for k, task in enumerate(tasks)}
            for fut in as_completed(futures):
                part = fut.result()
                parts[futures[fut]] = part
                if progress is not None:
                    progress(len(part))
        for k in range(len(tasks)):
            records.extend(parts[k])
    seconds = time.perf_counter() - t0

    result = aggregate(records, players, [_bot_name(s) for s in specs], seed)
    result.seconds = seconds
    result.jobs = jobs
    return result
