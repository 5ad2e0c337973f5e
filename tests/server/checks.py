"""Checks on what the server sends: the truth of each table, step by step, rebuilt from
the events the server stored, and a walk over every message a seat received looking
for any card that seat must not see."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from chinchon.cards import JOKERS, RANKS, SUITS
from chinchon.server.tables import Table

CARD = re.compile(r"^((1[0-2]|[1-9])[ocebOCEB]|\*[12])$")  # a natural card or a joker
#: every card of any rules: the welcome's table of card faces names each, and only them
EVERY_CARD = [f"{r}{s}" for s in SUITS for r in RANKS] + [str(j) for j in JOKERS]


@dataclass
class Truth:
    """The whole table after one event: every hand, the stock, the discard top."""

    seq: int
    hands: list[list[str]]
    stock: list[str]
    discard_top: Optional[str]
    last_hand: Optional[dict[str, Any]]
    record: dict[str, Any]


def truths(events: list[dict[str, Any]]) -> dict[int, Truth]:
    """The truth after every stored event, by seq (replaying the stored records)."""
    table = Table.from_create(dict(events[0]))
    out = {1: _truth(table, events[0])}
    for rec in events[1:]:
        table.apply(dict(rec))
        out[table.seq] = _truth(table, rec)
    return out


def _truth(table: Table, record: dict[str, Any]) -> Truth:
    game = table.game
    if game is None:
        return Truth(table.seq, [[] for _ in table.seats], [], None, None, record)
    state = game.to_dict()  # hidden cards included: this is the test's god view
    last = game.last_hand
    return Truth(table.seq, [list(h) for h in state["hands"]], list(state["stock"]),
                 state["discard"][-1] if state["discard"] else None,
                 None if last is None else last.to_dict(), record)


def strings(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string in a JSON value, dict keys included, with its path."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield path + ("<key>",), k
            yield from strings(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from strings(v, path + (i,))


def check_view(view: dict[str, Any], truth: Truth) -> None:
    """Assert that a seat's view shows exactly its own cards and the public ones."""
    you = view["you"]
    own = Counter(truth.hands[you])
    assert Counter(view["hand"]) == own, (view["seq"], view["hand"], truth.hands[you])
    assert view["hand"][:sum(len(m) for m in view["melds"])] == [c for m in view["melds"] for c in m]
    game = view["game"]
    if game is not None:
        assert game["discard_top"] == truth.discard_top
        assert game["last_hand"] == truth.last_hand
        assert game["stock_size"] == len(truth.stock)
    if view["hints"] is not None:
        assert set(view["hints"]) <= set(own), (view["hints"], own)
    arranged = view["arranged"]
    assert [m["cards"] for m in arranged["melds"]] == view["melds"]
    assert [c for m in view["melds"] for c in m] + arranged["unmatched"] == view["hand"]
    if game is not None and game["last_hand"] is not None:
        # the summary's layout: the settlement's melds, each in table order
        s = game["last_hand"]["settlement"]
        assert [[(m["kind"], sorted(m["cards"])) for m in melds]
                for melds in game["last_hand_shown"]["melds"]] == \
            [[(m["kind"], sorted(m["cards"])) for m in r["melds"]]
             for r in (s["closer"], *s["opponents"])]
    event = view["event"]
    if event is not None and "card" in event:
        kind = event["kind"]
        public = kind == "discard" or (kind == "draw" and event.get("source") == "discard")
        assert public or event.get("seat") == you, event
        assert event["card"] == truth.record.get("card")
    for path, text in strings(view):
        if not CARD.match(text):
            continue
        top = path[0] if path else None
        if path[:1] == ("arranged",) and path[-1] == "stands_for":
            # the card a run's joker stands for: of the run's suit, not in it
            meld = view["arranged"]["melds"][path[2]]
            naturals = [c for c in meld["cards"] if c != meld["joker"]]
            assert meld["kind"] == "run" and text not in naturals, (path, meld)
            assert all(c[-1] == text[-1] for c in naturals), (path, meld)
        elif top in ("hand", "melds", "arranged", "close_card"):
            assert text in own, (path, text)
        elif top == "hints" and path[-1] == "<key>" and len(path) == 2:
            assert text in own, (path, text)
        elif path == ("event", "card") or path == ("game", "discard_top"):
            pass  # checked above
        elif path[:2] in (("game", "last_hand"), ("game", "last_hand_shown")):
            pass  # the public record of the last closed hand, checked above
        else:
            raise AssertionError(f"seat {you} was shown a card at {path}: {text}")


def check_messages(messages: list[dict[str, Any]], table: str,
                   truth: dict[int, Truth]) -> int:
    """Check every view of ``table`` among one client's messages; returns how many."""
    n = 0
    for m in messages:
        if m["type"] == "view" and m["table"] == table:
            check_view(m, truth[m["seq"]])
            n += 1
        elif m["type"] != "view":
            if m["type"] == "welcome":  # the faces of every card, the same for everyone
                assert list(m["cards"]) == EVERY_CARD
                m = {k: v for k, v in m.items() if k != "cards"}
            for path, text in strings(m):
                assert not CARD.match(text), (m, path, text)
    return n
