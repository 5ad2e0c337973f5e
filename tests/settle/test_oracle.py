"""The settlement oracle is not vacuous: doctored results are refused."""

from __future__ import annotations

import dataclasses

import pytest

from chinchon import reference
from tests.oracles.settlement import verify


def test_checker_catches_bad_settlements():
    closer, opps = "7o 7c 7b 9e 10e 11e 4o", ["7e 12e 8e 1c 3o 5b 2o"]

    def doctored(change):
        return lambda *a, **k: change(reference.settle(*a, **k))

    def with_opp(r, **fields):
        return dataclasses.replace(r, opponents=(dataclasses.replace(r.opponents[0], **fields),))

    def keep_a_card(r):  # a lay-off undone: legal, but no longer optimal
        o = r.opponents[0]
        c, t = o.layoffs[-1]
        tab = list(r.table)
        tab[t] = dataclasses.replace(tab[t], cards=tuple(x for x in tab[t].cards if x != c))
        r = with_opp(r, layoffs=o.layoffs[:-1], unmatched=tuple(sorted((*o.unmatched, c))),
                     points=o.points + c.points)
        return dataclasses.replace(r, table=tuple(tab), points=(r.points[0], o.points + c.points))

    changes = [
        lambda r: with_opp(r, layoffs=tuple(reversed(r.opponents[0].layoffs))),  # order
        lambda r: with_opp(r, layoffs=tuple((c, t + 1) for c, t in r.opponents[0].layoffs)),
        lambda r: with_opp(r, layoffs=tuple(reversed(r.opponents[0].layoffs[1:]))),  # 12e 8e
        lambda r: dataclasses.replace(r, points=(r.points[0], r.points[1] + 1)),
        lambda r: dataclasses.replace(r, table=r.table[1:]),
        keep_a_card,
    ]
    assert verify(reference.settle, closer, opps)
    for change in changes:
        with pytest.raises(AssertionError):
            verify(doctored(change), closer, opps)
