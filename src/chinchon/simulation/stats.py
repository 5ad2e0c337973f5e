"""The statistics of a simulation: :class:`SimulationResult`, counted from per-game
records (:func:`aggregate`) and merged exactly from the results of disjoint sets of
games (:meth:`SimulationResult.merge`), so equal seeds give equal statistics however
the games were spread over chunks, processes or machines."""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import ChinchonError
from ..results import HAND_OUTCOMES
from ..rules import Rules
from .play import GameRecord

__all__ = ["SimulationResult", "aggregate", "from_counts"]


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
    rules: Optional[Rules] = None
    engine: str = "python"  # 'native' or 'python': which engine played the games
    #: the hand points histogram of each seat (``points`` is their sum): what each bot
    #: scores, whichever seats it holds
    points_per_seat: list[dict[int, int]] = field(default_factory=list)
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
        """JSON-ready statistics; ``seconds``, ``jobs`` and ``engine`` are the only
        values that depend on the machine, on ``jobs`` and on the engine."""
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
            "points_per_seat": [{str(k): v for k, v in sorted(h.items())}
                                for h in self.points_per_seat],
            "seconds": self.seconds,
            "jobs": self.jobs,
            "engine": self.engine,
            "rules": None if self.rules is None else self.rules.to_dict(),
            "rules_name": None if self.rules is None else self.rules.preset_name,
        }

    def merge(self, other: SimulationResult) -> SimulationResult:
        """The statistics of this result's games and ``other``'s together.

        Both must come from the same simulation (equal ``players``, ``bots``, ``seed``
        and ``rules``) and hold disjoint sets of games (``simulate`` merges one result
        per chunk of game indices). Every statistic is an integer count, a sum or a
        histogram of counts, and the merge adds them, so it is **exact**, associative
        and commutative: any grouping and any order of the parts give the same
        :meth:`stats`, equal to :func:`aggregate` over all their records at once. An
        empty result (``games == 0``, e.g. ``aggregate([], ...)``) is its identity.
        The kept ``records`` are merged in game-index order; ``seconds`` add up (the
        time spent in the parts) and ``jobs`` is the larger, which ``simulate``
        replaces by the run's own wall time and worker count. Neither operand changes.
        """
        if (self.players, self.bots, self.seed) != (other.players, other.bots, other.seed) \
                or self.rules != other.rules:
            raise ChinchonError("cannot merge the results of different simulations: "
                                f"players, bots, seed or rules differ ({self.players}, "
                                f"{self.bots}, seed {self.seed} vs {other.players}, "
                                f"{other.bots}, seed {other.seed})")
        return SimulationResult(
            games=self.games + other.games,
            players=self.players,
            bots=list(self.bots),
            seed=self.seed,
            wins_per_seat=[a + b for a, b in zip(self.wins_per_seat, other.wins_per_seat)],
            wins_per_bot=_add(self.wins_per_bot, other.wins_per_bot),
            draws=self.draws + other.draws,
            cancelled=self.cancelled + other.cancelled,
            stalled=self.stalled + other.stalled,
            hands=self.hands + other.hands,
            hands_per_game=_add(self.hands_per_game, other.hands_per_game, sort=True),
            turns=self.turns + other.turns,
            turns_per_hand=_add(self.turns_per_hand, other.turns_per_hand, sort=True),
            endings=_add(self.endings, other.endings),
            rejoins=self.rejoins + other.rejoins,
            rejoins_per_seat=[a + b for a, b in zip(self.rejoins_per_seat,
                                                    other.rejoins_per_seat)],
            points=_add(self.points, other.points, sort=True),
            points_per_seat=[_add(a, b, sort=True) for a, b in
                             zip(_seats(self), _seats(other))],
            seconds=self.seconds + other.seconds,
            jobs=max(self.jobs, other.jobs),
            rules=self.rules,
            records=list(heapq.merge(self.records, other.records, key=_index)),
        )

    def __add__(self, other: SimulationResult) -> SimulationResult:
        """``a + b`` is ``a.merge(b)``; ``sum(parts, start=empty)`` merges many."""
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return self.merge(other)

    def plot(self, kind: str = "wins") -> Any:
        """A ``matplotlib.figure.Figure`` of these statistics (needs the ``plot`` extra,
        ``pip install "chinchon[plot]"``): ``kind`` is ``'wins'`` (win rate by seat and
        by bot, 95% intervals), ``'points'`` (hand points per bot), ``'length'`` (hands
        per game, turns per hand) or ``'endings'`` (how hands end); see
        :mod:`chinchon.simulation.plot`."""
        from .plot import figure

        return figure(self, kind)

    def stats(self) -> dict[str, Any]:
        """:meth:`to_dict` without the timing: equal for equal seeds, whatever ``jobs``
        and whichever engine."""
        d = self.to_dict()
        del d["seconds"], d["jobs"], d["engine"]
        return d


def _seats(result: SimulationResult) -> list[dict[int, int]]:
    """``points_per_seat``, a histogram a seat (empty ones for a result made without it)."""
    return result.points_per_seat or [{} for _ in range(result.players)]


def _index(record: GameRecord) -> int:
    return record.index


def _add(a: dict[Any, int], b: dict[Any, int], sort: bool = False) -> dict[Any, int]:
    """Two histograms added key by key (zero counts kept: ``endings`` lists every
    outcome); ``a``'s keys first, or every key in order with ``sort``."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return dict(sorted(out.items())) if sort else out


def aggregate(records: list[GameRecord], players: int, bot_names: list[str],
               seed: int, rules: Optional[Rules] = None) -> SimulationResult:
    """The statistics of ``records`` (games of one simulation, in any order: the kept
    records are sorted by game index)."""
    wins_per_seat = [0] * players
    wins_per_bot: Counter[str] = Counter({b: 0 for b in bot_names})
    status: Counter[str] = Counter()
    hands_per_game: Counter[int] = Counter()
    turns_per_hand: Counter[int] = Counter()
    endings: Counter[str] = Counter(dict.fromkeys(HAND_OUTCOMES, 0))
    points: Counter[int] = Counter()
    points_per_seat: list[Counter[int]] = [Counter() for _ in range(players)]
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
        for s, p in zip(r.point_seats, r.points):
            points_per_seat[s][p] += 1
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
        hands_per_game=dict(sorted(hands_per_game.items())),
        turns=sum(sum(r.turns) for r in records),
        turns_per_hand=dict(sorted(turns_per_hand.items())),
        endings=dict(endings),
        rejoins=sum(rejoins_per_seat),
        rejoins_per_seat=rejoins_per_seat,
        points=dict(sorted(points.items())),
        points_per_seat=[dict(sorted(h.items())) for h in points_per_seat],
        rules=rules,
        records=sorted(records, key=_index),
    )


def from_counts(counts: dict[str, Any], games: int, players: int, bot_names: list[str],
                seed: int, rules: Optional[Rules] = None) -> SimulationResult:
    """The statistics of ``games`` games from the counts the C engine made of them
    (``chinchon._core.engine._count_games``: no record per game), equal to
    :func:`aggregate` of their records, kept records aside (none)."""
    wins_per_seat = list(counts["wins_per_seat"])
    wins_per_bot = {b: 0 for b in bot_names}
    for s, w in enumerate(wins_per_seat):
        wins_per_bot[bot_names[s]] += w
    endings = dict.fromkeys(HAND_OUTCOMES, 0)
    for outcome, n in counts["endings"].items():
        endings[outcome] += n
    status = counts["status"]
    rejoins_per_seat = list(counts["rejoins_per_seat"])
    return SimulationResult(
        games=games,
        players=players,
        bots=bot_names,
        seed=seed,
        wins_per_seat=wins_per_seat,
        wins_per_bot=wins_per_bot,
        draws=status.get("draw", 0),
        cancelled=status.get("cancelled", 0),
        stalled=status.get("stalled", 0),
        hands=counts["hands"],
        hands_per_game=dict(sorted(counts["hands_per_game"].items())),
        turns=counts["turns"],
        turns_per_hand=dict(sorted(counts["turns_per_hand"].items())),
        endings=endings,
        rejoins=sum(rejoins_per_seat),
        rejoins_per_seat=rejoins_per_seat,
        points=dict(sorted(counts["points"].items())),
        points_per_seat=[dict(sorted(h.items())) for h in counts["points_per_seat"]],
        rules=rules,
    )
