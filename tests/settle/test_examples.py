"""The rules page's settlement example (tests/data, docs/rules.md#worked-examples), whole and in detail."""

from __future__ import annotations

import json

from tests.oracles.examples import RULES_EXAMPLES
from tests.oracles.settlement import verify


def layoffs(result, k):
    return [(str(c), t) for c, t in result.opponents[k].layoffs]


def test_rules_page_example(impl):
    for ex in RULES_EXAMPLES["settlements"]:
        r = verify(impl.settle, ex["closer"], ex["opponents"])
        assert r.outcome == ex["outcome"]
        assert r.closer.points == ex["closer_points"]
        assert [o.points for o in r.opponents] == ex["opponent_points"]
        assert [[str(c) for c, _ in o.layoffs] for o in r.opponents] == ex["opponent_layoffs"]


def test_example_in_detail(impl):
    r = verify(impl.settle, "7o 7c 7b 9e 10e 11e 4o", ["7e 12e 1c 3o 5b 8c 2o"])
    assert [str(m) for m in r.closer.melds] == ["7o 7c 7b", "9e 10e 11e"]
    assert layoffs(r, 0) == [("7e", 0), ("12e", 1)]
    assert r.opponents[0].points == 19
    assert [str(t) for t in r.table] == [
        "TableMeld(kind='set', cards=(Card('7o'), Card('7c'), Card('7e'), Card('7b')), owner=0, open=True)",
        "TableMeld(kind='run', cards=(Card('9e'), Card('10e'), Card('11e'), Card('12e')), owner=0, open=True)",
    ]
    assert r.points == (4, 19)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
