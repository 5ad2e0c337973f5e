"""An independent checker of settlements (SPEC §4, docs/design.md), for the tests.

Written differently from the reference on purpose: own melds are found by growing
partitions card by card (no candidate list), and lay-offs by exploring the table move
by move -- one card onto one meld at a time, the table changing after each move --
rather than by per-meld extension choices. For each opponent it rebuilds the table as
the earlier players left it, replays the reported lay-offs checking each one is legal
at that moment, checks every card is accounted for, and checks that no legal choice
beats the reported one, by points and by the whole documented tie-break key.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from chinchon.cards import Card, Hand, coerce_cards


def rank(i: int) -> int:
    return i % 16 + 1


def suit(i: int) -> int:
    return i // 16


def is_meld(cards: tuple[int, ...]) -> str | None:
    """'set', 'run' or None for a sorted tuple of card indices."""
    if len(cards) < 3:
        return None
    if len({rank(c) for c in cards}) == 1:
        return "set"
    if len({suit(c) for c in cards}) == 1 and len(set(cards)) == len(cards):
        if max(cards) - min(cards) == len(cards) - 1:
            return "run"
    return None


def own_meld_choices(hand: list[int]) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every (own melds sorted by key, cards left sorted) of a hand: the first card
    either stays out of own melds or forms a meld with some of the later cards."""
    out = set()

    def grow(left: tuple[int, ...], melds: tuple[tuple[int, ...], ...], out_cards: tuple[int, ...]) -> None:
        if not left:
            out.add((tuple(sorted(melds)), tuple(sorted(out_cards))))
            return
        first, others = left[0], left[1:]
        grow(others, melds, out_cards + (first,))
        for size in range(2, len(others) + 1):
            for pos in itertools.combinations(range(len(others)), size):
                meld = tuple(sorted((first, *(others[p] for p in pos))))
                if is_meld(meld):
                    rest = tuple(o for k, o in enumerate(others) if k not in pos)
                    grow(rest, melds + (meld,), out_cards)

    grow(tuple(sorted(hand)), (), ())
    return sorted(out)


def can_lay(card: int, kind: str, cards: tuple[int, ...]) -> bool:
    if kind == "set":
        return rank(card) == rank(cards[0])
    return suit(card) == suit(cards[0]) and rank(card) in (rank(cards[0]) - 1, rank(cards[-1]) + 1) \
        and card not in cards


def reachable_plans(cards: tuple[int, ...], table: list[tuple[str, tuple[int, ...], bool]]) -> set[tuple[tuple[int, int], ...]]:
    """Every multiset of (card, table index) lay-offs reachable move by move."""
    plans: set[tuple[tuple[int, int], ...]] = set()
    seen: set[Any] = set()

    def explore(left: tuple[int, ...], state: tuple[tuple[int, ...], ...], done: tuple[tuple[int, int], ...]) -> None:
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


def best_key(hand: list[int], table: list[tuple[str, tuple[int, ...], bool]], layoffs: bool = True) -> tuple:
    total = sum(rank(c) for c in hand)
    best = None
    for melds, left in own_meld_choices(hand):
        own_cards = sum(len(m) for m in melds)
        own_points = sum(rank(c) for m in melds for c in m)
        plans = reachable_plans(left, table) if layoffs else {()}
        for plan in plans:
            laid = sum(rank(c) for c, _ in plan)
            key = (total - own_points - laid, -own_cards, len(melds), melds, plan)
            if best is None or key < best:
                best = key
    return best


def canonical_order(layoffs: list[tuple[int, int]], table_before: list[tuple[str, tuple[int, ...], bool]]) -> list[tuple[int, int]]:
    def sort_key(lo: tuple[int, int]) -> tuple:
        card, t = lo
        kind, cards, _ = table_before[t]
        if kind == "set":
            return (t, 0, card)
        if card < cards[0]:
            return (t, 0, -card)
        return (t, 1, card)

    return sorted(layoffs, key=sort_key)


def check_settlement(result: Any, closer: Any, opponents: list[Any], minus_ten: int = 10,
                     close_limit: int = 5) -> None:
    """Assert that ``result`` is the documented settlement of the deal."""
    d = result.to_dict()
    idx = lambda cards: tuple(sorted(Card.parse(c).index for c in cards))  # noqa: E731
    closer_cards = sorted(c.index for c in (closer if isinstance(closer, Hand) else coerce_cards(closer)))
    hands = [sorted(c.index for c in (o if isinstance(o, Hand) else coerce_cards(o))) for o in opponents]

    # the closer
    cmelds = [idx(m["cards"]) for m in d["closer"]["melds"]]
    for m, md in zip(cmelds, d["closer"]["melds"]):
        assert is_meld(m) == md["kind"], md
    assert cmelds == sorted(cmelds)
    assert Counter(c for m in cmelds for c in m) + Counter(idx(d["closer"]["unmatched"])) == Counter(closer_cards)
    deadwood = sum(rank(c) for c in idx(d["closer"]["unmatched"]))
    want = best_key(closer_cards, [], layoffs=False)
    assert (deadwood, tuple(cmelds)) == (want[0], want[3])
    assert deadwood <= close_limit
    chinchon = len(cmelds) == 1 and len(cmelds[0]) == 7 and is_meld(cmelds[0]) == "run"
    outcome = "chinchon" if chinchon else ("minus_ten" if deadwood == 0 else "normal")
    assert d["outcome"] == outcome
    closer_points = {"chinchon": 0, "minus_ten": -minus_ten, "normal": deadwood}[outcome]
    assert d["closer"]["points"] == closer_points

    table = [[m["kind"], m_cards, 0, outcome != "minus_ten"]
             for m, m_cards in zip(d["closer"]["melds"], cmelds)]
    points = [closer_points]
    for k, (hand, od) in enumerate(zip(hands, d["opponents"]), start=1):
        before = [(kind, cards, is_open) for kind, cards, _, is_open in table]
        melds = [idx(m["cards"]) for m in od["melds"]]
        for m, md in zip(melds, od["melds"]):
            assert is_meld(m) == md["kind"], (k, md)
        assert melds == sorted(melds)
        lay = [(Card.parse(c).index, t) for c, t in od["layoffs"]]
        unmatched = idx(od["unmatched"])
        # every card accounted for, once
        assert Counter(c for m in melds for c in m) + Counter(c for c, _ in lay) + Counter(unmatched) \
            == Counter(hand), k
        assert od["points"] == (0 if chinchon else sum(rank(c) for c in unmatched)), k
        if chinchon:
            assert lay == []
            want = best_key(hand, [], layoffs=False)
            got = (sum(rank(c) for c in unmatched), -sum(len(m) for m in melds), len(melds),
                   tuple(melds))
            assert got == want[:4], (k, got, want)
        else:
            # each lay-off legal when applied, in the canonical order
            assert lay == canonical_order(lay, before), (k, lay)
            for card, t in lay:
                assert 0 <= t < len(table), (k, card, t)
                kind, cards, _, is_open = table[t]
                assert is_open, (k, "lay-off onto a locked meld", t)
                assert can_lay(card, kind, cards), (k, "illegal lay-off", card, t, cards)
                table[t][1] = tuple(sorted(cards + (card,)))
            # nothing beats it: points first, then the whole documented key
            got = (sum(rank(c) for c in unmatched), -sum(len(m) for m in melds), len(melds),
                   tuple(melds), tuple(sorted(lay)))
            want = best_key(hand, before)
            assert got[0] == want[0], (k, "not optimal", got, want)
            assert got == want, (k, "tie-break", got, want)
        table.extend([md["kind"], m, k, True] for md, m in zip(od["melds"], melds))
        points.append(od["points"])

    assert [(t["kind"], idx(t["cards"]), t["owner"], t["open"]) for t in d["table"]] == \
        [tuple(t) for t in table]
    assert d["points"] == points
