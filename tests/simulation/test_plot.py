"""SimulationResult.plot: every kind of figure drawn from a small run on the Agg backend,
its contents (axes, series, values) checked against ``stats()``; the side-by-side
figures of two runs; the intervals and differences; a clear error without matplotlib.

Needs the ``plot`` extra (matplotlib); skipped without it, except under
``CHINCHON_REQUIRE_PLOT_TESTS`` (``.ci/run``), where a missing extra is an error."""

from __future__ import annotations

import math
import sys

import pytest

from tests.simulation.conftest import require_plot_extra

require_plot_extra()
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import chinchon  # noqa: E402
from chinchon.errors import ChinchonError  # noqa: E402
from chinchon.results import HAND_OUTCOMES  # noqa: E402
from chinchon.simulation import simulate  # noqa: E402
from chinchon.simulation.plot import (INSTALL_HINT, KINDS, Z95, differences, figure,  # noqa: E402
                                      histogram_mean, points_per_bot, proportion_interval)

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 60 if NATIVE else 8
BOTS = "greedy,greedy,random,expert" if NATIVE else "greedy,greedy,random,random"


@pytest.fixture(scope="module")
def run():
    return simulate(N, 4, bots=BOTS, seed=3)


@pytest.fixture(scope="module")
def other():
    return simulate(N, 4, bots=BOTS, seed=4, rules="fifty")


def _bars(ax):
    return [p for p in ax.patches if type(p).__name__ == "Rectangle"]


def test_every_kind_is_a_figure(run):
    from matplotlib.figure import Figure

    for kind in KINDS:
        fig = run.plot(kind)
        assert isinstance(fig, Figure) and fig.axes
        fig.canvas.draw()  # renders on Agg without an error
    with pytest.raises(ChinchonError, match="plot kind must be one of wins, points"):
        run.plot("pie")


@pytest.mark.parametrize("games,max_turns", [(0, 200), (3, 1)],
                         ids=["no game", "no hand ended"])
def test_a_run_with_nothing_to_show_draws_without_a_warning(games, max_turns):
    """Every kind is drawn, with no legend where no line was (matplotlib warned "No
    artists with labels found to put in legend" on the command line), and says so."""
    import warnings

    empty = simulate(games, 4, bots="greedy", seed=3, max_turns=max_turns)
    for kind in KINDS:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fig = empty.plot(kind)
            fig.canvas.draw()
    texts = [t.get_text() for ax in empty.plot("points").axes for t in ax.texts]
    assert "no scored hand" in texts


def test_wins_by_seat_and_bot_with_intervals(run):
    s = run.stats()
    by_seat, by_bot = run.plot("wins").axes
    heights = [b.get_height() for b in _bars(by_seat)]
    assert heights == pytest.approx([100 * w / s["games"] for w in s["wins_per_seat"]])
    assert [t.get_text() for t in by_seat.get_xticklabels()] == \
        [f"seat {i}\n{b}" for i, b in enumerate(s["bots"])]
    bots = list(dict.fromkeys(s["bots"]))
    assert [t.get_text() for t in by_bot.get_xticklabels()] == bots
    assert [b.get_height() for b in _bars(by_bot)] == \
        pytest.approx([100 * s["wins_per_bot"][b] / s["games"] for b in bots])
    # the error bars are the Wilson intervals, around each bar
    (segments,) = [c for c in by_seat.collections if type(c).__name__ == "LineCollection"
                   and len(c.get_segments()) == 4 and c.get_linestyle() == [(0, None)]]
    for seg, w in zip(segments.get_segments(), s["wins_per_seat"]):
        _, lo, hi = proportion_interval(w, s["games"])
        assert sorted(seg[:, 1]) == pytest.approx([100 * lo, 100 * hi])
    assert "seat" in by_seat.get_title() and "bot" in by_bot.get_title()


def test_points_per_bot(run):
    s = run.stats()
    (ax,) = run.plot("points").axes
    lines = ax.get_lines()
    bots = list(dict.fromkeys(s["bots"]))
    assert len(lines) == len(bots)
    for line, bot in zip(lines, bots):
        hist: dict[int, int] = {}
        for seat, b in enumerate(s["bots"]):
            if b == bot:
                for k, v in s["points_per_seat"][seat].items():
                    hist[int(k)] = hist.get(int(k), 0) + v
        xs, ys = list(line.get_xdata()), list(line.get_ydata())
        assert xs == list(range(min(hist), max(hist) + 1))
        n = sum(hist.values())
        assert ys == pytest.approx([100 * hist.get(x, 0) / n for x in xs])
        mean, var, _ = histogram_mean(hist)
        assert line.get_label() == \
            f"{bot}: mean {mean:.1f} ± {Z95 * math.sqrt(var / n):.1f}"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == \
        [line.get_label() for line in lines]


def test_points_per_seat_add_up_to_points(run):
    total: dict[int, int] = {}
    for h in points_per_bot(run).values():
        for k, v in h.items():
            total[k] = total.get(k, 0) + v
    assert total == run.points


def test_hands_per_game_and_turns_per_hand(run):
    s = run.stats()
    hands_ax, turns_ax = run.plot("length").axes
    for ax, key, mean in ((hands_ax, "hands_per_game", s["mean_hands_per_game"]),
                          (turns_ax, "turns_per_hand", s["mean_turns_per_hand"])):
        hist = {int(k): v for k, v in s[key].items()}
        (line,) = [ln for ln in ax.get_lines() if ln.get_label() == f"mean {mean:.2f}"]
        assert list(line.get_xdata()) == list(hist)
        assert list(line.get_ydata()) == \
            pytest.approx([100 * v / sum(hist.values()) for v in hist.values()])
        assert any(list(ln.get_xdata()) == [mean, mean] for ln in ax.get_lines())
    assert hands_ax.get_title() == "Hands per game" and turns_ax.get_title() == "Turns per hand"


def test_how_hands_end(run):
    s = run.stats()
    (ax,) = run.plot("endings").axes
    bars = _bars(ax)
    assert len(bars) == len(HAND_OUTCOMES)
    closed = sum(s["endings"].values())
    assert [b.get_width() for b in bars] == \
        pytest.approx([100 * s["endings"][o] / closed for o in HAND_OUTCOMES])
    assert [t.get_text() for t in ax.get_yticklabels()] == [s["rules_name"]]
    legend = run.plot("endings").legends[0]
    assert [t.get_text() for t in legend.get_texts()] == \
        [o.replace("_", " ") for o in HAND_OUTCOMES]


def test_two_runs_side_by_side(run, other):
    pairs = [("A", run), ("B", other)]
    by_seat, by_bot = figure(pairs, "wins").axes
    heights = [b.get_height() for b in _bars(by_seat)]
    assert heights == pytest.approx([100 * w / r.games for r in (run, other)
                                     for w in r.wins_per_seat])
    assert [t.get_text() for t in by_seat.get_legend().get_texts()] == ["A", "B"]
    (ax,) = figure(pairs, "points").axes
    assert len(ax.get_lines()) == 2 * len(set(run.bots))
    assert all(ln.get_label().startswith(("A · ", "B · ")) for ln in ax.get_lines())
    (ax,) = figure(pairs, "endings").axes
    assert len(_bars(ax)) == 2 * len(HAND_OUTCOMES)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["barajamos\nA", "fifty\nB"]
    for kind in KINDS:
        figure(pairs, kind).canvas.draw()
    with pytest.raises(ChinchonError, match="SimulationResult or"):
        figure([("A", 1)], "wins")


def test_intervals():
    assert proportion_interval(0, 0) == (0.0, 0.0, 0.0)
    p, lo, hi = proportion_interval(0, 50)
    assert p == lo == 0.0 and 0.05 < hi < 0.08
    p, lo, hi = proportion_interval(50, 100)
    assert p == 0.5 and lo == pytest.approx(1 - hi) and hi == pytest.approx(0.5961, abs=1e-4)
    assert histogram_mean({1: 1, 3: 1}) == (2.0, 1.0, 2)


def test_differences(run, other):
    same = differences(run, run)
    assert same and all(d["difference"] == 0 and d["low"] <= 0 <= d["high"] for d in same)
    rows = {d["measure"]: d for d in differences(run, other)}
    seat0 = rows["win rate, seat 0"]
    assert seat0["a"] == pytest.approx(100 * run.wins_per_seat[0] / run.games)
    assert seat0["b"] == pytest.approx(100 * other.wins_per_seat[0] / other.games)
    assert seat0["difference"] == pytest.approx(seat0["b"] - seat0["a"])
    assert seat0["low"] < seat0["difference"] < seat0["high"] or seat0["a"] == seat0["b"]
    assert rows["hands per game"]["a"] == pytest.approx(run.mean_hands_per_game)
    # every ending either run had, no row for one neither had
    had = [o for o in HAND_OUTCOMES if run.endings[o] or other.endings[o]]
    assert [m for m in rows if m.startswith("hands ending")] == \
        [f"hands ending {o.replace('_', ' ')}" for o in had]


def test_without_matplotlib_a_clear_error(run, monkeypatch, capsys):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install 'chinchon\[plot\]'"):
        run.plot("wins")
    from chinchon.cli import main

    assert main(["simulate", "--games", "2", "--players", "2", "--no-progress",
                 "--report", "never.html"]) == 2
    err = capsys.readouterr().err
    assert err == f"chinchon simulate: error: {INSTALL_HINT}\n"
    assert main(["report", "anywhere", "--out", "never.html"]) == 2
    assert capsys.readouterr().err == f"chinchon report: error: {INSTALL_HINT}\n"


def test_a_dollar_in_a_label_is_shown_as_it_is(run, other):
    """A folder's name is the run's label under report --compare: two dollars in it
    began matplotlib's mathtext (a ParseException for "$\\foo$", "$x^2$" typeset as
    math). Each dollar is escaped, so the label shows as written."""
    pairs = [("m$\\foo$", run), ("run $x^2$", other)]
    for kind in KINDS:
        fig = figure(pairs, kind)
        fig.canvas.draw()  # where the mathtext failed
    by_seat, _ = figure(pairs, "wins").axes
    texts = [t.get_text() for t in by_seat.get_legend().get_texts()]
    assert texts == ["m\\$\\foo\\$", "run \\$x^2\\$"]


def test_a_difference_of_shares_has_newcombes_interval():
    """Newcombe (1998), table II, example (e): 56/70 against 48/80, a difference of
    0.2000 with the hybrid score interval 0.0524 to 0.3339. The normal approximation's
    interval has no width where both shares are 0% or 100%."""
    from chinchon.simulation.stats import SimulationResult

    def result(wins: int, games: int) -> SimulationResult:
        return SimulationResult(games=games, players=2, bots=["greedy", "random"], seed=0,
                                wins_per_seat=[wins, games - wins],
                                wins_per_bot={"greedy": wins, "random": games - wins},
                                draws=0, cancelled=0, stalled=0, hands=0, hands_per_game={},
                                turns=0, turns_per_hand={}, endings={}, rejoins=0,
                                rejoins_per_seat=[0, 0], points={})

    row = next(d for d in differences(result(48, 80), result(56, 70))
               if d["measure"] == "win rate, seat 0")
    assert row["difference"] == pytest.approx(20.0)
    assert (row["low"], row["high"]) == (pytest.approx(5.24, abs=0.01),
                                         pytest.approx(33.39, abs=0.01))
    tiny = next(d for d in differences(result(3, 3), result(0, 3))
                if d["measure"] == "win rate, seat 0")
    # 3 of 3 against 0 of 3: the normal approximation's interval had no width at all
    assert tiny["difference"] == -100 and tiny["low"] == pytest.approx(-100)
    assert tiny["high"] - tiny["low"] > 70
