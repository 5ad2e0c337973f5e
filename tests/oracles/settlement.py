"""The one settlement oracle of the tests (docs/rules.md#laying-off, docs/rules.md#which-plan-is-reported).

Written apart from both implementations, and differently from the reference on
purpose: own melds are found by growing partitions card by card (no candidate list),
and lay-offs by exploring the table move by move -- one card onto one meld at a time,
the table changing after each move -- rather than by per-meld extension choices.

- ``expected_settlement`` settles a deal by that brute force: the closer's best
  arrangement, the outcome, then each opponent in turn on the table the earlier players
  left, the best plan by points and then by the whole documented tie-break key;
- ``check_structure`` replays a reported settlement from its own data: every lay-off
  legal at the moment it is applied and in the documented order, every card accounted
  for once, the table, points and outcome right, ``to_dict`` complete and JSON-clean;
- ``check_settlement`` does both and compares, optimality first (no opponent could have
  scored fewer), then the whole result, tie-breaks included;
- ``verify`` settles a deal with one implementation, given as text, as ``Hand`` objects
  and as lists of cards, and checks it (or checks the error the oracle expects).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from typing import Any, Callable

import pytest

from chinchon import Card, Hand, parse_cards
from chinchon.errors import CannotCloseError
from chinchon.rules import Rules
from tests.oracles.naive import meld_kind, rank, suit

#: a meld on the table as the search sees it: (kind, sorted card indices, open)
TableView = list[tuple[str, tuple[int, ...], bool]]


def indices(cards: Any) -> list[int]:
    """Card indices of a hand given as text, a Hand, or an iterable of Cards, card text
    or indices."""
    if isinstance(cards, str):
        return [c.index for c in parse_cards(cards)]
    return [c if isinstance(c, int) else (c if isinstance(c, Card) else Card.parse(c)).index
            for c in cards]


def text(cards: list[int]) -> str:
    """Card text of indices, in ascending index order."""
    return " ".join(str(Card.from_index(i)) for i in sorted(cards))


# ------------------------------------------------------------------ the search


def own_meld_choices(hand: list[int]) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every (own melds sorted by key, cards left sorted) of a hand: the first card
    either stays out of own melds or forms a meld with some of the later cards."""
    out = set()

    def grow(left: tuple[int, ...], melds: tuple[tuple[int, ...], ...],
             out_cards: tuple[int, ...]) -> None:
        if not left:
            out.add((tuple(sorted(melds)), tuple(sorted(out_cards))))
            return
        first, others = left[0], left[1:]
        grow(others, melds, out_cards + (first,))
        # a meld holding `first` is a set (its rank) or a run (its suit): only those
        # cards can join it
        near = [k for k, o in enumerate(others) if rank(o) == rank(first) or suit(o) == suit(first)]
        for size in range(2, len(near) + 1):
            for pos in itertools.combinations(near, size):
                meld = tuple(sorted((first, *(others[p] for p in pos))))
                if meld_kind(meld):
                    rest = tuple(o for k, o in enumerate(others) if k not in pos)
                    grow(rest, melds + (meld,), out_cards)

    grow(tuple(sorted(hand)), (), ())
    return sorted(out)


def can_lay(card: int, kind: str, cards: tuple[int, ...]) -> bool:
    """May ``card`` go onto the table meld (kind, sorted cards) as it stands now?"""
    if kind == "set":
        return rank(card) == rank(cards[0])
    return (suit(card) == suit(cards[0]) and card not in cards
            and rank(card) in (rank(cards[0]) - 1, rank(cards[-1]) + 1))


def reachable_plans(cards: tuple[int, ...], table: TableView) -> set[tuple[tuple[int, int], ...]]:
    """Every multiset of (card, table index) lay-offs reachable move by move."""
    plans: set[tuple[tuple[int, int], ...]] = set()
    seen: set[Any] = set()

    def explore(left: tuple[int, ...], state: tuple[tuple[int, ...], ...],
                done: tuple[tuple[int, int], ...]) -> None:
        key = (left, state, done)
        if key in seen:
            return
        seen.add(key)
        plans.add(done)
        for pos, card in enumerate(left):
            if pos and left[pos - 1] == card:
                continue  # the other copy: same moves
            for t, (kind, _, is_open) in enumerate(table):
                if is_open and can_lay(card, kind, state[t]):
                    new_state = list(state)
                    new_state[t] = tuple(sorted(state[t] + (card,)))
                    explore(left[:pos] + left[pos + 1:], tuple(new_state),
                            tuple(sorted(done + ((card, t),))))

    explore(tuple(sorted(cards)), tuple(c for _, c, _ in table), ())
    return plans


def best_plan(hand: list[int], table: TableView) -> tuple:
    """The best (points, -own-melded cards, own melds count, own melds, lay-offs) of a
    hand onto the table: the documented key, compared whole."""
    total = sum(rank(c) for c in hand)
    best = None
    for melds, left in own_meld_choices(hand):
        own_cards = sum(len(m) for m in melds)
        own_points = sum(rank(c) for m in melds for c in m)
        for plan in (reachable_plans(left, table) if table else {()}):
            laid = sum(rank(c) for c, _ in plan)
            key = (total - own_points - laid, -own_cards, len(melds), melds, plan)
            if best is None or key < best:
                best = key
    return best


def canonical_order(layoffs: list[tuple[int, int]], table: TableView) -> list[tuple[int, int]]:
    """Lay-offs in the documented order: by table meld; onto a set ascending, onto a run
    the cards below it outward (descending), then those above it outward."""
    def sort_key(lo: tuple[int, int]) -> tuple:
        card, t = lo
        kind, cards, _ = table[t]
        if kind == "set":
            return (t, 0, card)
        if card < cards[0]:
            return (t, 0, -card)
        return (t, 1, card)

    return sorted(layoffs, key=sort_key)


def is_chinchon(hand: list[int]) -> bool:
    """Seven cards of one suit in a run (distinct, so a copy spoils it)."""
    ranks = sorted(rank(c) for c in hand)
    return (len(hand) == 7 and len({suit(c) for c in hand}) == 1
            and ranks == list(range(ranks[0], ranks[0] + 7)))


def expected_settlement(closer: list[int], opponents: list[list[int]], rules: Rules):
    """The whole settlement as plain data (the shape of ``plain``, plus "min_points":
    the fewest points each opponent could leave), or CannotCloseError."""
    deadwood, _, _, cmelds, _ = best_plan(closer, [])
    if deadwood > rules.close_limit:
        return CannotCloseError
    if is_chinchon(closer):
        outcome, cpoints = "chinchon", 0
    elif deadwood == 0:
        outcome, cpoints = "minus_ten", -rules.minus_ten
    else:
        outcome, cpoints = "normal", deadwood
    left = Counter(closer) - Counter(c for m in cmelds for c in m)
    table = [[meld_kind(m), m, 0, outcome != "minus_ten"] for m in cmelds]
    res = {"outcome": outcome,
           "closer": (list(cmelds), sorted(left.elements()), cpoints),
           "opponents": [], "points": [cpoints], "min_points": []}
    for seat, hand in enumerate(opponents, start=1):
        # after a chinchón nobody lays off: each opponent just shows their best melds
        view = [] if outcome == "chinchon" else [(k, cs, op) for k, cs, _, op in table]
        p, _, _, melds, plan = best_plan(hand, view)
        lay = canonical_order(list(plan), view)
        unmatched = Counter(hand) - Counter(c for m in melds for c in m) \
            - Counter(c for c, _ in lay)
        shown = 0 if outcome == "chinchon" else p
        res["opponents"].append((list(melds), lay, sorted(unmatched.elements()), shown))
        res["points"].append(shown)
        res["min_points"].append(p)
        for c, t in lay:
            table[t][1] = tuple(sorted(table[t][1] + (c,)))
        table += [[meld_kind(m), m, seat, True] for m in melds]
    res["table"] = [tuple(t) for t in table]
    return res


# ------------------------------------------------------------ reported results


def plain(r) -> dict:
    """A settlement result as plain data (card indices), from its attributes."""
    return {
        "outcome": r.outcome,
        "closer": ([m.key for m in r.closer.melds], [c.index for c in r.closer.unmatched],
                   r.closer.points),
        "opponents": [([m.key for m in o.melds], [(c.index, t) for c, t in o.layoffs],
                       [c.index for c in o.unmatched], o.points) for o in r.opponents],
        "points": list(r.points),
        "table": [(t.kind, tuple(c.index for c in t.cards), t.owner, t.open) for t in r.table],
    }


def plain_from_dict(d: dict) -> dict:
    """The same plain data read back from ``to_dict()``."""
    def idx(cards):
        return [Card.parse(c).index for c in cards]

    def keys(melds):
        return [tuple(sorted(idx(m["cards"]))) for m in melds]

    return {
        "outcome": d["outcome"],
        "closer": (keys(d["closer"]["melds"]), idx(d["closer"]["unmatched"]),
                   d["closer"]["points"]),
        "opponents": [(keys(o["melds"]), [(Card.parse(c).index, t) for c, t in o["layoffs"]],
                       idx(o["unmatched"]), o["points"]) for o in d["opponents"]],
        "points": list(d["points"]),
        "table": [(t["kind"], tuple(idx(t["cards"])), t["owner"], t["open"])
                  for t in d["table"]],
    }


def check_structure(r, closer: list[int], opponents: list[list[int]], rules: Rules) -> None:
    """Replay a reported settlement from its own data; assert every docs/rules.md#laying-off rule that
    does not need a search."""
    assert r.outcome in ("normal", "minus_ten", "chinchon")
    # the closer: melds are melds in key order, every card accounted for, points by outcome
    cm = [m.key for m in r.closer.melds]
    for m, key in zip(r.closer.melds, cm):
        assert meld_kind(key) == m.kind, (m, "closer meld")
    assert cm == sorted(cm)
    assert Counter(c for k in cm for c in k) + Counter(c.index for c in r.closer.unmatched) \
        == Counter(closer)
    deadwood = sum(c.points for c in r.closer.unmatched)
    assert deadwood <= rules.close_limit
    assert (r.outcome == "chinchon") == is_chinchon(closer)
    want = {"normal": deadwood, "minus_ten": -rules.minus_ten, "chinchon": 0}[r.outcome]
    assert r.closer.points == want
    if r.outcome == "minus_ten":
        assert deadwood == 0
    if r.outcome == "normal":
        assert deadwood > 0
    table = [[m.kind, list(m.key), 0, r.outcome != "minus_ten"] for m in r.closer.melds]
    assert len(r.opponents) == len(opponents)
    for seat, (o, hand) in enumerate(zip(r.opponents, opponents), start=1):
        before = len(table)
        used: Counter = Counter()
        for m in o.melds:
            assert meld_kind(m.key) == m.kind, (seat, m)
            used.update(m.key)
        assert [m.key for m in o.melds] == sorted(m.key for m in o.melds)
        if r.outcome == "chinchon":
            assert o.layoffs == ()
            assert o.points == 0
        lay = [(card.index, t) for card, t in o.layoffs]
        view = [(kind, tuple(cards), is_open) for kind, cards, _, is_open in table]
        for c, t in lay:
            assert 0 <= t < before, (seat, c, t, "not a meld on the table before")
        assert lay == canonical_order(lay, view), (seat, "lay-off order", lay)
        # each lay-off legal at the moment it is applied
        for c, t in lay:
            kind, cards, _, is_open = table[t]
            assert is_open, (seat, c, t, "locked meld")
            if kind == "set":
                assert rank(c) == rank(cards[0]), (seat, c, t)
            else:
                assert suit(c) == suit(cards[0]), (seat, c, t)
                assert c not in cards, (seat, c, t, "copy in a run")
                assert c == min(cards) - 1 or c == max(cards) + 1, (seat, c, t)
                assert c % 16 < 12
            cards.append(c)
            cards.sort()
            used[c] += 1
        used.update(c.index for c in o.unmatched)
        assert used == Counter(hand), (seat, "cards not accounted for")
        if r.outcome != "chinchon":
            assert o.points == sum(c.points for c in o.unmatched)
        table += [[m.kind, list(m.key), seat, True] for m in o.melds]
    got = [(t.kind, [c.index for c in t.cards], t.owner, t.open) for t in r.table]
    assert got == [tuple(t) for t in table]
    for t in r.table:
        assert meld_kind([c.index for c in t.cards]) == t.kind
    assert r.points == (r.closer.points, *(o.points for o in r.opponents))
    # to_dict: JSON-clean, complete (every dataclass field) and saying the same
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {f.name for f in dataclasses.fields(r)}
    assert set(d["closer"]) == {f.name for f in dataclasses.fields(r.closer)}
    for od, o in zip(d["opponents"], r.opponents):
        assert set(od) == {f.name for f in dataclasses.fields(o)}
        assert od["layoffs"] == [[str(c), t] for c, t in o.layoffs]
    for td, t in zip(d["table"], r.table):
        assert set(td) == {f.name for f in dataclasses.fields(t)}
    assert plain_from_dict(d) == plain(r)


def check_settlement(r, closer: Any, opponents: list[Any], rules: Rules | None = None,
                     want: dict | None = None) -> None:
    """Assert that ``r`` is the documented settlement of the deal: its structure, then
    the oracle's result (``want`` when already computed)."""
    rules = rules or Rules()
    closer, opponents = indices(closer), [indices(o) for o in opponents]
    check_structure(r, closer, opponents, rules)
    want = want or expected_settlement(closer, opponents, rules)
    assert isinstance(want, dict), f"the oracle says {want.__name__}, the result {r}"
    got = plain(r)
    # optimality (docs/rules.md#laying-off): nobody could have scored fewer
    if r.outcome != "chinchon":
        assert [o[3] for o in got["opponents"]] == want["min_points"], "not optimal"
    # and the whole result, tie-breaks included (docs/rules.md#which-plan-is-reported)
    exp = {k: v for k, v in want.items() if k != "min_points"}
    assert got == exp, ("tie-break", text(closer), [text(o) for o in opponents])


def verify(settle: Callable, closer: Any, opponents: list[Any], *, rules: Rules | None = None,
           decks: int | None = None):
    """Settle the deal with ``settle`` given as text, as Hand objects (the native fast
    path) and as lists of Cards and card text; check the result, or the error the oracle
    expects. Returns the result (None for an expected error)."""
    rules = rules or Rules()
    c, os_ = indices(closer), [indices(o) for o in opponents]
    want = expected_settlement(c, os_, rules)
    d = decks or (2 if max(Counter(c + sum(os_, [])).values()) > 1 or len(os_) >= 4 else 1)
    forms = [
        (text(c), [text(o) for o in os_]),
        (Hand([Card.from_index(i) for i in c], decks=d),
         [Hand([Card.from_index(i) for i in o], decks=d) for o in os_]),
        ([Card.from_index(i) for i in c], [[str(Card.from_index(i)) for i in o] for o in os_]),
    ]
    if not isinstance(want, dict):
        for args in forms:
            with pytest.raises(want):
                settle(*args, rules=rules, decks=decks)
        return None
    r = settle(*forms[0], rules=rules, decks=decks)
    check_settlement(r, c, os_, rules, want)
    for args in forms[1:]:
        assert settle(*args, rules=rules, decks=decks) == r
    return r
