"""Plots of simulations as matplotlib figures (the ``plot`` extra: ``pip install
"chinchon[plot]"``; matplotlib is imported when a figure is asked for, never by the rest
of the package).

:func:`figure` draws one kind of plot (:data:`KINDS`) of one or more runs: a single
:class:`~chinchon.simulation.SimulationResult` (what ``result.plot(kind)`` draws), or
several ``(label, result)`` pairs side by side (``chinchon report --compare``). Every
figure is a ``matplotlib.figure.Figure`` made without pyplot (no global state, any
backend; a notebook shows it as it is returned).

- ``wins``: the share of games won by each seat and by each bot, with 95% intervals
  (Wilson's), and the fair share as a dashed line.
- ``points``: the distribution of hand points per bot (every hand point a bot's seats
  scored in a scored hand), its mean in the legend.
- ``length``: hands per game and turns per hand, as shares, their means in the legend.
- ``endings``: how the hands ended (normal, minus ten, chinchón, joker chinchón, void),
  one stacked bar per run, labelled by its rules preset.

The numbers behind the figures (:func:`proportion_interval`, :func:`points_per_bot`,
:func:`differences`) need no matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from ..errors import ChinchonError, shown
from ..results import HAND_OUTCOMES
from .extras import extra_module

if TYPE_CHECKING:
    from .stats import SimulationResult

__all__ = ["KINDS", "Z95", "figure", "figures", "proportion_interval", "points_per_bot",
           "histogram_mean", "differences", "run_label", "require_matplotlib",
           "INSTALL_HINT"]

#: the kinds of plot, in the order a report shows them
KINDS = ("wins", "points", "length", "endings")
#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054
#: what to do when matplotlib is missing
INSTALL_HINT = "plots need matplotlib: pip install 'chinchon[plot]'"

Runs = Union["SimulationResult", Sequence[tuple[str, "SimulationResult"]]]

#: one colour per run, one line style per run (a colour-blind safe pair first)
_COLOURS = ("#1f77b4", "#d95f02", "#2ca02c", "#7570b3")
_STYLES = ("-", "--", ":", "-.")
_ENDING_COLOURS = {"normal": "#9ecae1", "minus_ten": "#3182bd", "chinchon": "#e6550d",
                   "joker_chinchon": "#fd8d3c", "void": "#bdbdbd"}


def require_matplotlib() -> Any:
    """The ``matplotlib.figure`` module, or an ImportError that says how to install it."""
    return extra_module("matplotlib", "figure", needs="plots need matplotlib",
                        extra="plot").figure


def proportion_interval(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """``(share, low, high)``: ``k`` of ``n`` and its Wilson score interval (95% by
    default); ``(0, 0, 0)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # the interval holds p (Wilson's always does; min/max: rounding at p = 0 or 1)
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def histogram_mean(hist: dict[int, int]) -> tuple[float, float, int]:
    """``(mean, variance, count)`` of a histogram ``value -> count``."""
    n = sum(hist.values())
    if not n:
        return 0.0, 0.0, 0
    mean = sum(k * v for k, v in hist.items()) / n
    var = sum(v * (k - mean) ** 2 for k, v in hist.items()) / n
    return mean, var, n


def points_per_bot(result: SimulationResult) -> dict[str, dict[int, int]]:
    """Each bot's hand points histogram: its seats' ``points_per_seat`` added up, the
    bots in seat order of first appearance."""
    out: dict[str, dict[int, int]] = {}
    for bot, hist in zip(result.bots, result.points_per_seat):
        mine = out.setdefault(bot, {})
        for k, v in hist.items():
            mine[k] = mine.get(k, 0) + v
    return {b: dict(sorted(h.items())) for b, h in out.items()}


def run_label(result: SimulationResult) -> str:
    """A run as a legend names it: its rules preset and bots."""
    rules = result.rules.preset_name if result.rules is not None else "barajamos"
    return f"{rules or 'custom'}: {','.join(result.bots)}"


def _plain(text: str) -> str:
    """``text`` as matplotlib shows it as it is: a ``$`` escaped (two of them, in a
    folder's name or a bot's, began mathtext: a wrong label or a ParseException)."""
    return text.replace("$", r"\$")


def _runs(runs: Runs) -> list[tuple[str, SimulationResult]]:
    from .stats import SimulationResult

    if isinstance(runs, SimulationResult):
        return [(run_label(runs), runs)]
    out = list(runs)
    if not out or not all(isinstance(r, tuple) and len(r) == 2
                          and isinstance(r[1], SimulationResult) for r in out):
        raise ChinchonError("plot takes a SimulationResult or (label, SimulationResult) "
                            f"pairs, got {shown(runs)}")
    if len(out) > len(_COLOURS):
        raise ChinchonError(f"plot draws at most {len(_COLOURS)} runs side by side, "
                            f"got {len(out)}")
    return out


def figure(runs: Runs, kind: str = "wins") -> Any:
    """The ``matplotlib.figure.Figure`` of ``kind`` (one of :data:`KINDS`) for a result
    or for ``(label, result)`` pairs drawn side by side."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise ChinchonError(f"plot kind must be one of {', '.join(KINDS)}, got {shown(kind)}")
    pairs = _runs(runs)
    mfig = require_matplotlib()
    draw = {"wins": _wins, "points": _points, "length": _length, "endings": _endings}[kind]
    return draw(mfig, pairs)


def figures(runs: Runs) -> dict[str, Any]:
    """Every kind's figure, in :data:`KINDS` order."""
    return {kind: figure(runs, kind) for kind in KINDS}


def _offsets(k: int, width: float = 0.8) -> tuple[list[float], float]:
    w = width / k
    return [(i - (k - 1) / 2) * w for i in range(k)], w


def _bars_with_intervals(ax: Any, labels: list[str], pairs: list[tuple[str, Any]],
                         counts: list[list[int]], fair: list[list[float]]) -> None:
    offsets, w = _offsets(len(pairs))
    for i, ((name, r), ks) in enumerate(zip(pairs, counts)):
        stats = [proportion_interval(k, r.games) for k in ks]
        xs = [j + offsets[i] for j in range(len(ks))]
        ys = [100 * p for p, _, _ in stats]
        err = [[100 * (p - lo) for p, lo, _ in stats], [100 * (hi - p) for p, _, hi in stats]]
        ax.bar(xs, ys, w * 0.9, yerr=err, capsize=3, color=_COLOURS[i],
               label=_plain(name) if len(pairs) > 1 else None, gid=f"run{i}")
        for x, f in zip(xs, fair[i]):
            ax.hlines(100 * f, x - w / 2, x + w / 2, colors="black", linestyles="dashed",
                      linewidth=1)
    ax.set_xticks(range(len(labels)), [_plain(label) for label in labels])
    ax.set_ylabel("games won (%), 95% interval")
    ax.set_ylim(bottom=0)


def _wins(mfig: Any, pairs: list[tuple[str, Any]]) -> Any:
    fig = mfig.Figure(figsize=(10, 4.2), layout="constrained")
    by_seat, by_bot = fig.subplots(1, 2)
    seats = max(r.players for _, r in pairs)
    seat_labels = [f"seat {s}" + (f"\n{pairs[0][1].bots[s]}" if len(pairs) == 1 else "")
                   for s in range(seats)]
    _bars_with_intervals(by_seat, seat_labels, pairs,
                         [r.wins_per_seat + [0] * (seats - r.players) for _, r in pairs],
                         [[1 / r.players] * seats for _, r in pairs])
    by_seat.set_title("win rate by seat (dashes: a fair share)")
    bots = list(dict.fromkeys(b for _, r in pairs for b in r.bots))
    _bars_with_intervals(by_bot, [f"{b}" for b in bots], pairs,
                         [[r.wins_per_bot.get(b, 0) for b in bots] for _, r in pairs],
                         [[r.bots.count(b) / r.players for b in bots] for _, r in pairs])
    by_bot.set_title("win rate by bot, all its seats (dashes: its seats' share)")
    if len(pairs) > 1:
        by_seat.legend(fontsize="small")
    n = ", ".join(f"{r.games} games" for _, r in pairs)
    fig.suptitle(f"Who wins ({n})")
    return fig


def _points(mfig: Any, pairs: list[tuple[str, Any]]) -> Any:
    fig = mfig.Figure(figsize=(10, 4.2), layout="constrained")
    ax = fig.subplots()
    bots = list(dict.fromkeys(b for _, r in pairs for b in r.bots))
    for i, (name, r) in enumerate(pairs):
        per_bot = points_per_bot(r)
        for j, bot in enumerate(bots):
            hist = per_bot.get(bot)
            if not hist:
                continue
            mean, var, n = histogram_mean(hist)
            xs = list(range(min(hist), max(hist) + 1))  # every value, 0 where none fell
            ys = [100 * hist.get(x, 0) / n for x in xs]
            half = Z95 * math.sqrt(var / n)
            label = f"{bot}: mean {mean:.1f} ± {half:.1f}"
            if len(pairs) > 1:
                label = f"{name} · {label}"
            ax.plot(xs, ys, drawstyle="steps-mid", color=_COLOURS[j % len(_COLOURS)],
                    linestyle=_STYLES[i], label=_plain(label), gid=f"run{i}-{bot}")
    ax.set_xlabel("hand points (a seat's points in a scored hand; the closer's may be negative)")
    ax.set_ylabel("share of the bot's scored hands (%)")
    ax.set_title("Hand points per bot")
    _legend(ax, "no scored hand")
    return fig


def _legend(ax: Any, none: str) -> None:
    """The legend of ``ax``, or where nothing was drawn (a run of no games, of no hand
    that ended) ``none`` in its middle."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, none, ha="center", va="center", transform=ax.transAxes)


def _length(mfig: Any, pairs: list[tuple[str, Any]]) -> Any:
    fig = mfig.Figure(figsize=(10, 4.2), layout="constrained")
    hands_ax, turns_ax = fig.subplots(1, 2)
    for i, (name, r) in enumerate(pairs):
        for ax, hist, mean in ((hands_ax, r.hands_per_game, r.mean_hands_per_game),
                               (turns_ax, r.turns_per_hand, r.mean_turns_per_hand)):
            n = sum(hist.values())
            if not n:
                continue
            label = f"mean {mean:.2f}" if len(pairs) == 1 else f"{name}: mean {mean:.2f}"
            ax.plot(list(hist), [100 * v / n for v in hist.values()], drawstyle="steps-mid",
                    color=_COLOURS[i], linestyle=_STYLES[i], label=_plain(label), gid=f"run{i}")
            ax.axvline(mean, color=_COLOURS[i], linestyle=":", linewidth=1)
    hands_ax.set_title("Hands per game")
    hands_ax.set_xlabel("hands dealt in the game")
    hands_ax.set_ylabel("share of games (%)")
    turns_ax.set_title("Turns per hand")
    turns_ax.set_xlabel("turns (discards) of a hand that ended")
    turns_ax.set_ylabel("share of hands (%)")
    _legend(hands_ax, "no game")
    _legend(turns_ax, "no hand that ended")
    return fig


def _endings(mfig: Any, pairs: list[tuple[str, Any]]) -> Any:
    fig = mfig.Figure(figsize=(10, 2.0 + 0.7 * len(pairs)), layout="constrained")
    ax = fig.subplots()
    labels = []
    for i, (name, r) in enumerate(pairs):
        rules = r.rules.preset_name if r.rules is not None else "barajamos"
        labels.append(f"{rules or 'custom'}" + (f"\n{name}" if len(pairs) > 1 else ""))
        closed = sum(r.endings.values())
        left = 0.0
        for outcome in HAND_OUTCOMES:
            share = 100 * r.endings.get(outcome, 0) / closed if closed else 0.0
            ax.barh(i, share, left=left, color=_ENDING_COLOURS[outcome],
                    label=outcome.replace("_", " ") if i == 0 else None,
                    gid=f"run{i}-{outcome}")
            if share >= 4:
                ax.text(left + share / 2, i, f"{share:.1f}%", ha="center", va="center",
                        fontsize="small")
            left += share
    ax.set_yticks(range(len(pairs)), [_plain(label) for label in labels])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of the hands that ended (%)")
    ax.set_title("How hands end, per rules preset")
    fig.legend(ncols=len(HAND_OUTCOMES), fontsize="small", loc="outside lower center")
    return fig


def differences(a: SimulationResult, b: SimulationResult) -> list[dict[str, Any]]:
    """What changes from run ``a`` to run ``b``, each with a 95% interval (the runs
    independent; a share's by Newcombe's hybrid score method from the two Wilson
    intervals, a mean's by the normal approximation): the win rate of each seat and of each bot
    both have, the means of hands per game, turns per hand and each common bot's hand
    points, and the share of each hand ending that either run had. Rows: ``measure``, ``a``, ``b``,
    ``difference`` (b - a), ``low``, ``high``, ``unit`` ('%' or '')."""
    rows: list[dict[str, Any]] = []

    def share(measure: str, ka: int, na: int, kb: int, nb: int, both_none: bool = True) -> None:
        if not na or not nb or (not both_none and ka == kb == 0):
            return
        # Newcombe (1998), method 10: the normal approximation's interval is too narrow
        # near 0% and 100% (of no width at all where both shares are 0% or 100%)
        pa, la, ua = proportion_interval(ka, na)
        pb, lb, ub = proportion_interval(kb, nb)
        d = pb - pa
        low = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
        high = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
        rows.append({"measure": measure, "a": 100 * pa, "b": 100 * pb, "difference": 100 * d,
                     "low": 100 * low, "high": 100 * high, "unit": "%"})

    def mean(measure: str, ha: dict[int, int], hb: dict[int, int]) -> None:
        ma, va, na = histogram_mean(ha)
        mb, vb, nb = histogram_mean(hb)
        if not na or not nb:
            return
        half = Z95 * math.sqrt(va / na + vb / nb)
        d = mb - ma
        rows.append({"measure": measure, "a": ma, "b": mb, "difference": d,
                     "low": d - half, "high": d + half, "unit": ""})

    for s in range(min(a.players, b.players)):
        share(f"win rate, seat {s}", a.wins_per_seat[s], a.games, b.wins_per_seat[s], b.games)
    common = [bot for bot in dict.fromkeys(a.bots) if bot in b.bots]
    for bot in common:
        share(f"win rate, {bot} (all its seats)", a.wins_per_bot.get(bot, 0), a.games,
              b.wins_per_bot.get(bot, 0), b.games)
    mean("hands per game", a.hands_per_game, b.hands_per_game)
    mean("turns per hand", a.turns_per_hand, b.turns_per_hand)
    pa, pb = points_per_bot(a), points_per_bot(b)
    for bot in common:
        mean(f"hand points, {bot}", pa.get(bot, {}), pb.get(bot, {}))
    ca, cb = sum(a.endings.values()), sum(b.endings.values())
    for outcome in HAND_OUTCOMES:
        share(f"hands ending {outcome.replace('_', ' ')}", a.endings.get(outcome, 0), ca,
              b.endings.get(outcome, 0), cb, both_none=False)  # an ending neither had: no row
    return rows
