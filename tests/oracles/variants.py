"""An independent brute force for the rule variants (docs/rules.md#rule-variants), for the tests only.

Written differently from the reference on purpose. The reference lists candidate
melds (segments of a suit with one gap, sets short of one card) and combines them; this
oracle instead grows every partition of the hand card by card, and decides whether a
group of cards is a meld by *substitution*: it replaces the group's joker by every
concrete card of the rules' deck in turn and asks whether the natural cards and that
card form a plain set or run. Lay-offs are decided the same way: the cards an opponent
lays onto a table meld are valid when the final meld is (its table joker replaced by the
card it stands for, a newly laid joker by every card). The tie-break keys are those of
docs/rules.md#which-arrangement-is-reported, built from what was found.

Slow; only for hands of up to 8 cards and small tables.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from typing import Any, Optional

from chinchon.rules import Rules

JOKER_BITS = (12, 28)


def rank(i: int) -> int:
    return i % 16 + 1


def suit(i: int) -> int:
    return i // 16


class Oracle:
    """Brute force under one rules value and number of decks."""

    def __init__(self, rules: Rules, decks: int) -> None:
        self.rules = rules
        self.decks = decks
        self.jokers = {JOKER_BITS[k] for k in range(rules.jokers)}
        if rules.wild_ace_of_coins:
            self.jokers.add(0)
        self.order = [r for r in range(1, 13) if rules.deck == 48 or r not in (8, 9)]
        # every card a joker may stand for: each natural card of the deck (1o too)
        self.stand_ins = [16 * s + r - 1 for s in range(4) for r in self.order]
        self.capacity = 4 * decks
        self.meld_options = lru_cache(maxsize=None)(self._meld_options)

    # ------------------------------------------------------------------ melds

    def points(self, i: int) -> int:
        return self.rules.joker_points if i in self.jokers else self.rules.points[rank(i) - 1]

    def natural_kind(self, cards: list[int]) -> Optional[str]:
        """'set', 'run' or None for plain (natural) cards, jokers already replaced."""
        if len({rank(c) for c in cards}) == 1:
            return "set" if len(cards) <= self.capacity else None
        if len({suit(c) for c in cards}) == 1 and len(set(cards)) == len(cards):
            if any(rank(c) not in self.order for c in cards):
                return None
            places = sorted(self.order.index(rank(c)) for c in cards)
            if places == list(range(places[0], places[0] + len(places))):
                return "run"
        return None

    def _meld_options(self, group: tuple[int, ...]) -> list[tuple[str, Optional[int], Optional[int]]]:
        """Every way the sorted group is one meld: (kind, joker bit, rank it stands for)."""
        jokers = [c for c in group if c in self.jokers]
        naturals = [c for c in group if c not in self.jokers]
        if len(group) < 3 or len(jokers) > 1 or len(naturals) < 2:
            return []
        if not jokers:
            kind = self.natural_kind(naturals)
            return [(kind, None, None)] if kind else []
        found = set()
        for x in self.stand_ins:
            kind = self.natural_kind(naturals + [x])
            if kind:
                found.add((kind, jokers[0], rank(x)))
        return sorted(found)

    def meld_key(self, group: tuple[int, ...], option: tuple[str, Optional[int], Optional[int]]
                 ) -> tuple[int, ...]:
        kind, joker, stand = option
        if joker is None:
            return tuple(sorted(group))
        naturals = sorted(group)
        naturals.remove(joker)
        key = (*naturals, 64 + joker)
        if kind == "run":
            assert stand is not None
            key += (16 * suit(naturals[0]) + stand - 1,)
        return key

    def partitions(self, cards: tuple[int, ...]) -> list[tuple[tuple[Any, ...], tuple[int, ...]]]:
        """Every (melds, unmatched) of the cards; a meld = (sorted group, option)."""
        out: list[tuple[tuple[Any, ...], tuple[int, ...]]] = []

        def grow(left: tuple[int, ...], melds: tuple[Any, ...], unmatched: tuple[int, ...]) -> None:
            if not left:
                out.append((melds, unmatched))
                return
            first, others = left[0], left[1:]
            grow(others, melds, unmatched + (first,))
            seen = set()
            for size in range(2, len(others) + 1):
                for pos in itertools.combinations(range(len(others)), size):
                    group = tuple(sorted((first, *(others[p] for p in pos))))
                    if group in seen:
                        continue
                    seen.add(group)
                    options = self.meld_options(group)
                    if options:
                        rest = list(others)
                        for p in pos:
                            rest.remove(others[p])
                        for option in options:
                            grow(tuple(rest), melds + ((group, option),), unmatched)

        grow(tuple(sorted(cards)), (), ())
        return out

    def arrangement_key(self, melds: tuple[Any, ...], unmatched: tuple[int, ...]) -> tuple[Any, ...]:
        melded = sum(len(g) for g, _ in melds)
        return (sum(self.points(i) for i in unmatched), -melded, len(melds),
                tuple(sorted(self.meld_key(g, o) for g, o in melds)))

    def best(self, cards: list[int]) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]]:
        """(key, melds sorted by key, unmatched sorted) of the optimal arrangement."""
        best = min(self.partitions(tuple(cards)), key=lambda p: self.arrangement_key(*p))
        melds = tuple(sorted(best[0], key=lambda m: self.meld_key(*m)))
        return self.arrangement_key(*best), melds, tuple(sorted(best[1]))

    def deadwood(self, cards: list[int]) -> int:
        return int(self.best(cards)[0][0])

    # ------------------------------------------------------------------ closing

    def outcome(self, cards: list[int]) -> Optional[str]:
        """close_outcome of 7 cards, by docs/rules.md#jokers-in-melds order, runs found by substitution."""
        dw = self.deadwood(cards)
        if dw > self.rules.close_limit:
            return None
        jokers = [c for c in cards if c in self.jokers]
        naturals = [c for c in cards if c not in self.jokers]
        if len(cards) == 7 and dw == 0:
            if not jokers and self.rules.seven_run_wins and self.natural_kind(naturals) == "run":
                return "chinchon"
            if (len(jokers) == 1 and self.rules.joker_chinchon is not None
                    and any(self.natural_kind(naturals + [x]) == "run" for x in self.stand_ins)):
                return "joker_chinchon"
        return "minus_ten" if dw == 0 else "normal"

    # ------------------------------------------------------------------ settlement

    def final_meld_options(self, meld: dict[str, Any], laid: tuple[int, ...]
                           ) -> list[Optional[int]]:
        """Whether ``laid`` can go onto table ``meld`` in one turn: the ranks a newly laid
        joker may stand for ([None] when no joker is laid; [] when illegal)."""
        table_joker = meld["joker"]
        new_jokers = [c for c in laid if c in self.jokers]
        if len(new_jokers) + (table_joker is not None) > 1:
            return []
        naturals = [c for c in (*meld["cards"], *laid) if c not in self.jokers]
        if meld["kind"] == "run" and table_joker is not None:
            # the table joker is the card it stands for: that card can never join
            naturals.append(16 * meld["suit"] + meld["joker_rank"] - 1)
        if meld["kind"] == "set":
            if len({rank(c) for c in naturals}) != 1 or len(meld["cards"]) + len(laid) > self.capacity:
                return []
            return [rank(naturals[0])] if new_jokers else [None]
        if not new_jokers:
            return [None] if self.natural_kind(naturals) == "run" else []
        return sorted({rank(x) for x in self.stand_ins
                       if self.natural_kind(naturals + [x]) == "run"})

    def layoff_order(self, meld: dict[str, Any], laid: list[tuple[int, Optional[int]]]) -> list[int]:
        """The documented order of the cards laid onto one table meld."""
        if meld["kind"] == "set":
            return sorted(c for c, r in laid if r is None) + [c for c, r in laid if r is not None]
        placed = [(self.order.index(r if r is not None else rank(c)), c) for c, r in laid]
        ranks = [rank(c) for c in meld["cards"] if c not in self.jokers]
        if meld["joker"] is not None:
            ranks.append(meld["joker_rank"])
        lo = min(self.order.index(r) for r in ranks)
        below = [c for p, c in sorted(placed, reverse=True) if p < lo]
        above = [c for p, c in sorted(placed) if p > lo]
        return below + above

    def best_plan(self, hand: list[int], table: list[dict[str, Any]]) -> dict[str, Any]:
        """An opponent's optimal play onto ``table`` by brute force, tie-break included."""
        best: Any = None
        for own, rest in self.partitions(tuple(hand)):
            own_cards = sum(len(g) for g, _ in own)
            own_keys = tuple(sorted(self.meld_key(g, o) for g, o in own))
            targets = []
            for c in rest:  # where each card left may go: nowhere, or an open table meld
                options: list[Optional[int]] = [None]
                for t, m in enumerate(table):
                    if not m["open"]:
                        continue
                    if c in self.jokers or (m["kind"] == "set" and rank(c) == m["rank"]) \
                            or (m["kind"] == "run" and suit(c) == m["suit"]):
                        options.append(t)
                targets.append(options)
            for choice in itertools.product(*targets):
                by_meld: dict[int, list[int]] = {}
                for c, t in zip(rest, choice):
                    if t is not None:
                        by_meld.setdefault(t, []).append(c)
                per_meld = []
                for t, laid in sorted(by_meld.items()):
                    opts = self.final_meld_options(table[t], tuple(sorted(laid)))
                    if not opts:
                        break
                    per_meld.append([(t, laid, r) for r in opts])
                else:
                    unmatched = tuple(sorted(c for c, t in zip(rest, choice) if t is None))
                    points = sum(self.points(i) for i in unmatched)
                    for combo in itertools.product(*per_meld):
                        elements = []
                        for t, laid, r in combo:
                            for c in laid:
                                if c in self.jokers and table[t]["kind"] == "run":
                                    elements.append((c, t, 16 * table[t]["suit"] + r - 1))
                                else:
                                    elements.append((c, t))
                        key = (points, -own_cards, len(own), own_keys, tuple(sorted(elements)))
                        if best is None or key < best[0]:
                            best = (key, own, combo, unmatched)
        key, own, combo, unmatched = best
        layoffs = []
        for t, laid, r in combo:
            order = self.layoff_order(table[t], [(c, r if c in self.jokers else None) for c in laid])
            layoffs += [(c, t) for c in order]
        return {"key": key, "melds": tuple(sorted(own, key=lambda m: self.meld_key(*m))),
                "combo": combo, "layoffs": layoffs, "unmatched": unmatched, "points": key[0]}

    def table_meld(self, group: tuple[int, ...], option: tuple[str, Optional[int], Optional[int]],
                   owner: int, is_open: bool) -> dict[str, Any]:
        kind, joker, stand = option
        naturals = [c for c in group if c != joker] if joker is not None else list(group)
        return {"kind": kind, "cards": tuple(sorted(group)), "joker": joker, "joker_rank": stand,
                "open": is_open, "owner": owner, "rank": rank(naturals[0]),
                "suit": suit(naturals[0])}

    def settle(self, closer: list[int], opponents: list[list[int]]) -> dict[str, Any]:
        """The whole settlement, as plain data comparable with Settlement.to_dict()."""
        ckey, cmelds, cunmatched = self.best(closer)
        outcome = self.outcome(closer)
        assert outcome is not None, "the closer cannot close"
        points = {"normal": ckey[0], "minus_ten": -self.rules.minus_ten, "chinchon": 0,
                  "joker_chinchon": -(self.rules.joker_chinchon or 0)}[outcome]
        locked = outcome in ("minus_ten", "joker_chinchon")
        table = [self.table_meld(g, o, 0, not locked) for g, o in cmelds]
        opps = []
        for seat, hand in enumerate(opponents, start=1):
            if outcome == "chinchon":
                _, melds, unmatched = self.best(hand)
                plan = {"melds": melds, "layoffs": [], "unmatched": unmatched, "points": 0}
            else:
                plan = self.best_plan(hand, table)
                for t, laid, r in plan["combo"]:
                    m = table[t]
                    m["cards"] = tuple(sorted((*m["cards"], *laid)))
                    for c in laid:
                        if c in self.jokers:
                            m["joker"], m["joker_rank"] = c, r
            opps.append(plan)
            table += [self.table_meld(g, o, seat, True) for g, o in plan["melds"]]
        return {"outcome": outcome, "closer": (cmelds, cunmatched, points), "opponents": opps,
                "table": table}


def meld_data(meld: Any) -> tuple[Any, ...]:
    """A Meld/TableMeld as (sorted cards, (kind, joker bit, joker rank))."""
    joker = None if meld.joker is None else meld.joker.index
    return (tuple(c.index for c in meld.cards), (meld.kind, joker, meld.joker_rank))


def counter(cards: Any) -> Counter[int]:
    return Counter(c.index for c in cards)
