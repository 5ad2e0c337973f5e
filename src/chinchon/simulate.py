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

import hashlib
import os
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from .bots import Bot, make_bot, play_turn
from .errors import ChinchonError
from .game import Game
from .rules import HOUSE_RULES, Rules

__all__ = ["simulate", "SimulationResult", "GameRecord", "play_game", "game_seed"]

BotSpec = Union[str, type]

DEFAULT_MAX_TURNS = 1000


def game_seed(seed: int, index: int, salt: str = "game") -> int:
    """A 63-bit seed derived from ``(seed, index)`` (and a salt for the bots)."""
    digest = hashlib.blake2b(f"chinchon:{salt}:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass
class GameRecord:
    """What one simulated game did."""

    index: int
    status: str  # 'won', 'draw', 'cancelled' or 'stalled'
    winner: Optional[int]
    hands: int
    turns: list[int]  # turns of each closed hand
    outcomes: list[str]  # outcome of each closed hand
    points: list[int]  # hand points of every player in every closed hand
    rejoins: list[int]  # per seat
    totals: list[int]  # final totals per seat


def play_game(players: int, bots: Sequence[BotSpec], seed: int, index: int = 0, *,
              rules: Optional[Rules] = None, max_turns: int = DEFAULT_MAX_TURNS) -> GameRecord:
    """Play one whole game between bots; game ``index`` of a simulation with ``seed``."""
    game = Game(players, seed=game_seed(seed, index), rules=rules)
    seats = [make_bot(b, game_seed(seed, index, f"bot{s}")) for s, b in enumerate(bots)]
    return _drive(game, seats, index, max_turns)


def _drive(game: Game, seats: list[Bot], index: int, max_turns: int) -> GameRecord:
    turns: list[int] = []
    outcomes: list[str] = []
    points: list[int] = []
    rejoins = [0] * game.players
    stalled = False
    hand_seen = 0
    while game.result is None:
        phase = game.phase
        if phase == "summary":
            chips_before = game.chips
            play_turn(game, seats)
            for s, (a, b) in enumerate(zip(chips_before, game.chips)):
                rejoins[s] += a - b
            continue
        if game.turns_this_hand >= max_turns:
            stalled = True
            break
        play_turn(game, seats)
        last = game.last_hand
        if last is not None and last.number != hand_seen:
            hand_seen = last.number
            turns.append(game.turns_this_hand)
            outcomes.append(last.outcome)
            points.extend(last.points[s] for s in last.order)
    result = game.result
    return GameRecord(
        index=index,
        status="stalled" if stalled or result is None else result.status,
        winner=None if result is None else result.winner,
        hands=game.hand_number,
        turns=turns,
        outcomes=outcomes,
        points=points,
        rejoins=rejoins,
        totals=list(game.totals),
    )


def _chunk(args: tuple[int, Sequence[BotSpec], int, int, int, Optional[Rules], int]
           ) -> list[GameRecord]:
    players, bots, seed, start, stop, rules, max_turns = args
    return [play_game(players, bots, seed, i, rules=rules, max_turns=max_turns)
            for i in range(start, stop)]


@dataclass
class SimulationResult:
    """Statistics of a simulation (see :meth:`to_dict` for the JSON form)."""

    games: int
    players: int
    bots: list[str]
    seed: int
    wins_per_seat: list[int]
    wins_per_bot: dict[str, int]
    draws: int
    cancelled: int
    stalled: int
    hands: int
    hands_per_game: dict[int, int]
    turns: int
    turns_per_hand: dict[int, int]
    endings: dict[str, int]
    rejoins: int
    rejoins_per_seat: list[int]
    points: dict[int, int]
    seconds: float = 0.0
    jobs: int = 1
    records: list[GameRecord] = field(default_factory=list, repr=False)

    @property
    def mean_hands_per_game(self) -> float:
        return self.hands / self.games if self.games else 0.0

    @property
    def mean_turns_per_hand(self) -> float:
        closed = sum(self.endings.values())
        return self.turns / closed if closed else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready statistics; ``seconds`` and ``jobs`` are the only values that
        depend on the machine and on ``jobs``."""
        return {
            "games": self.games,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "wins_per_seat": self.wins_per_seat,
            "wins_per_bot": self.wins_per_bot,
            "draws": self.draws,
            "cancelled": self.cancelled,
            "stalled": self.stalled,
            "hands": self.hands,
            "mean_hands_per_game": self.mean_hands_per_game,
            "hands_per_game": {str(k): v for k, v in sorted(self.hands_per_game.items())},
            "turns": self.turns,
            "mean_turns_per_hand": self.mean_turns_per_hand,
            "turns_per_hand": {str(k): v for k, v in sorted(self.turns_per_hand.items())},
            "endings": self.endings,
            "rejoins": self.rejoins,
            "rejoins_per_seat": self.rejoins_per_seat,
            "points": {str(k): v for k, v in sorted(self.points.items())},
            "seconds": self.seconds,
            "jobs": self.jobs,
        }

    def stats(self) -> dict[str, Any]:
        """:meth:`to_dict` without the timing: equal for equal seeds, whatever ``jobs``."""
        d = self.to_dict()
        del d["seconds"], d["jobs"]
        return d


def _aggregate(records: list[GameRecord], players: int, bot_names: list[str],
               seed: int) -> SimulationResult:
    wins_per_seat = [0] * players
    wins_per_bot: Counter[str] = Counter({b: 0 for b in bot_names})
    status: Counter[str] = Counter()
    hands_per_game: Counter[int] = Counter()
    turns_per_hand: Counter[int] = Counter()
    endings: Counter[str] = Counter({"normal": 0, "minus_ten": 0, "chinchon": 0})
    points: Counter[int] = Counter()
    rejoins_per_seat = [0] * players
    for r in records:
        status[r.status] += 1
        if r.status == "won" and r.winner is not None:
            wins_per_seat[r.winner] += 1
            wins_per_bot[bot_names[r.winner]] += 1
        hands_per_game[r.hands] += 1
        turns_per_hand.update(r.turns)
        endings.update(r.outcomes)
        points.update(r.points)
        for s, k in enumerate(r.rejoins):
            rejoins_per_seat[s] += k
    return SimulationResult(
        games=len(records),
        players=players,
        bots=bot_names,
        seed=seed,
        wins_per_seat=wins_per_seat,
        wins_per_bot=dict(wins_per_bot),
        draws=status["draw"],
        cancelled=status["cancelled"],
        stalled=status["stalled"],
        hands=sum(r.hands for r in records),
        hands_per_game=dict(hands_per_game),
        turns=sum(sum(r.turns) for r in records),
        turns_per_hand=dict(turns_per_hand),
        endings=dict(endings),
        rejoins=sum(rejoins_per_seat),
        rejoins_per_seat=rejoins_per_seat,
        points=dict(points),
        records=records,
    )


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

    result = _aggregate(records, players, [_bot_name(s) for s in specs], seed)
    result.seconds = seconds
    result.jobs = jobs
    return result
