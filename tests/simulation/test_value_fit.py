"""benchmarks/value_fit.py, the script that fits the search bot's heads-up value: its
chance table by dynamic programming on hands whose outcome is known, its reading of
simulated records, and the fitted formula's symmetry."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from chinchon import simulate

TOOL = Path(__file__).resolve().parents[2] / "benchmarks" / "value_fit.py"
pytestmark = pytest.mark.skipif(not TOOL.exists(), reason="benchmarks/ is not beside the tests")


def tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("value_fit", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_sure_hand_gives_a_sure_chance() -> None:
    vf = tool()
    z = -vf.LOW
    # every hand: the lead scores 0, the other 30; over 50 is out. From 0-0 leading:
    # 0-30, then 30-30 (the other led), then 30-60: the other is out.
    w = vf.chance_table(Counter({(0, 30, -1): 1}), 50)
    assert w[1, z, z] == pytest.approx(1.0)
    assert w[0, z, z] == pytest.approx(0.0)  # the same game seen from the other seat
    assert w[1, z + 25, z] == pytest.approx(0.0)  # 25-0 leading: 25-30, 55-30, out


def test_the_chances_of_the_two_seats_add_to_one() -> None:
    vf = tool()
    counts = Counter({(2, 20, -1): 5, (25, 3, -1): 3, (-10, 15, -1): 1, (0, 12, 0): 1,
                      (9, 0, 1): 1})
    w = vf.chance_table(counts, 60)
    # the seat at x leading against y not leading, and the other way round
    assert np.allclose(w[1] + w[0].T, 1.0, atol=1e-6)
    assert ((w >= 0) & (w <= 1)).all()
    z = -vf.LOW
    # a higher total of one's own never helps (from 0 up: the totals hands reach)
    assert (np.diff(w[:, z:, z:], axis=1) <= 1e-9).all()


def test_the_hands_of_records_are_every_hand_played() -> None:
    vf = tool()
    r = simulate(40, 2, bots="expert", seed=3, rules="conga", engine="native")
    counts = vf.hands_of(r.records)
    assert sum(counts.values()) == sum(len(g.outcomes) for g in r.records)
    points = sum(c * (a + b) for (a, b, _), c in counts.items())
    assert points == sum(sum(g.points) for g in r.records)


def test_the_fitted_chance_is_a_share() -> None:
    vf = tool()
    t = np.arange(0.0, 100.0)
    u = t[::-1]
    p = vf.fitted(t, u, 1.4, 3.4, 99)
    assert np.allclose(p + vf.fitted(u, t, 1.4, 3.4, 99), 1.0)
    assert (np.diff(p) < 0).all()  # more points, less chance
