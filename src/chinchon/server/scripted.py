"""A scripted player that acts on the views the server sends: what the protocol tests
and the load tool (``benchmarks/load_server.py``) play with, and a starting point for a
client of your own."""

from __future__ import annotations

import random
from typing import Any, Optional

from .. import _backend as solver
from ..rules import Rules, decks_for

__all__ = ["choose"]


def choose(view: dict[str, Any], rng: random.Random) -> Optional[dict[str, Any]]:
    """The message a simple player sends for ``view`` (None when it has nothing to do):
    take the discard when it lowers the points in hand, else the stock; close when
    allowed; else keep the fewest points (ties at random, and a random discard one time
    in ten, so that no hand can loop for ever); rejoin when it may, else ready in the
    summary."""
    can = view["can"]
    if can["draw"]:
        top = view["game"]["discard_top"]
        if "discard" in can["draw"] and top is not None:
            # the table's rules and decks (under `fifty` a joker is a card of the deck)
            rules = Rules.from_dict(view["rules"])
            decks = decks_for(len(view["seats"]))
            hints = solver.discard_hints(view["hand"] + [top], decks=decks, rules=rules)
            if min(h.points for h in hints) < solver.deadwood(view["hand"], decks=decks,
                                                              rules=rules):
                return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    if can["discard"]:
        hints = view["hints"]
        closing = [c for c in hints if hints[c]["close"]]
        if closing:
            return {"type": "close", "card": min(closing, key=lambda c: hints[c]["points"])}
        if rng.random() < 0.1:
            return {"type": "discard", "card": rng.choice(sorted(hints))}
        card = min(hints, key=lambda c: (hints[c]["points"], rng.random()))
        return {"type": "discard", "card": card}
    if can["rejoin"]:
        return {"type": "rejoin"}
    if can["ready"]:
        return {"type": "ready"}
    return None
