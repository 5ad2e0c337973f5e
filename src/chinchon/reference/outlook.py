"""The outlook: discard hints that look one draw ahead (docs/rules.md#the-outlook-one-draw-ahead).

Written for clarity, by the definition: for each card that could be discarded, every
card that could be drawn next (each unseen copy one equally likely draw) is added to
the 7 cards kept, every discard of those 8 cards is tried, and the best one is kept by
the documented order -- the fewest points, then the best close. Exact: sums and counts
over the unseen cards, divided once at the end (:func:`~chinchon.results.prospect_of`).
Every deadwood comes from :func:`~chinchon.reference.melds.arrangement`, so every rules
value of docs/rules.md#rule-variants is honoured as the solver honours it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Optional

import numpy as np

from .._args import (
    check_rules,
    check_threads,
    check_unseen,
    normalize_outlook_batch,
    read_once,
    row_error,
    row_status,
    unseen_row_error,
    unseen_row_status,
)
from ..cards import Hand, HandLike, coerce_cards, mask_to_cards
from ..results import OUTCOMES, DrawOutlook, Outlook, prospect_of
from ..rules import RulesArg
from .melds import SolverView, arrangement, solver_view, outcome_code

__all__ = ["outlook", "draw_outlook", "outlook_batch", "OUTLOOK_COLUMNS", "BETTER_CLOSE"]

#: how good a close outcome is, by cc_outcome code, for choosing among discards that
#: leave the same points: chinchón, then joker chinchón, minus ten, normal, none
BETTER_CLOSE = (0, 1, 2, 4, 3)

#: the columns of each (row, card) of outlook_batch
OUTLOOK_COLUMNS = ("points", "expected_points", "p_close", "p_minus_ten", "p_chinchon",
                   "p_joker_chinchon")

Memo = dict[tuple[int, ...], int]


def _deadwood(cards: list[int], view: SolverView, memo: Memo) -> int:
    key = tuple(sorted(cards))
    points = memo.get(key)
    if points is None:
        points = memo[key] = arrangement(key, view)[2]
    return points


def best_discard(cards8: list[int], view: SolverView, memo: Memo) -> tuple[int, int, int]:
    """The best discard of 8 cards: ``(position, points, outcome code)`` of the 7 kept.
    Fewest points first, then the better close (:data:`BETTER_CLOSE`), then the first
    position."""
    best: Optional[tuple[int, int, int]] = None
    for pos in range(len(cards8)):
        kept = cards8[:pos] + cards8[pos + 1:]
        points = _deadwood(kept, view, memo)
        code = outcome_code(kept, points, view)
        if best is None or (points, -BETTER_CLOSE[code]) < (best[1], -BETTER_CLOSE[best[2]]):
            best = (pos, points, code)
    assert best is not None
    return best


def prospect_counts(kept7: list[int], unseen: Counter[int], view: SolverView,
                    memo: Memo) -> tuple[int, int, list[int]]:
    """``(draws, sum of best points, draws by best outcome code)`` of drawing one card
    of ``unseen`` (a multiset: each copy one draw) to the 7 cards ``kept7``."""
    draws = points_sum = 0
    counts = [0] * 5
    for card, copies in sorted(unseen.items()):
        _, points, code = best_discard(kept7 + [card], view, memo)
        draws += copies
        points_sum += copies * points
        counts[code] += copies
    return draws, points_sum, counts


def _unseen_counter(once: int, twice: int) -> Counter[int]:
    return Counter(c.index for c in mask_to_cards(once, twice))


def outlook(hand8: HandLike, unseen: Any = None, *, decks: Optional[int] = None,
            rules: RulesArg = None) -> list[Outlook]:
    """For each card of an 8-card hand (the order of :func:`discard_hints`): the points
    its discard leaves now, and the next draw's expected best points and chances of a
    close (:class:`~chinchon.results.Outlook`). The next card is drawn uniformly from
    ``unseen`` (each copy one chance; default every card of the rules' deck(s) the hand
    does not hold), then the best of the 8 is discarded: fewest points, then the better
    close. Exact (no sampling). See docs/rules.md#the-outlook-one-draw-ahead."""
    rules = check_rules(rules)
    hand8 = read_once(hand8)  # read twice below: checked, then for its order
    h, u_once, u_twice, _ = check_unseen(hand8, unseen, decks, rules, 8)
    order = list(h) if isinstance(hand8, Hand) else coerce_cards(hand8)
    view = solver_view(rules.solver, h.decks)
    pool = _unseen_counter(u_once, u_twice)
    memo: Memo = {}
    out = []
    for pos, card in enumerate(order):
        kept = [c.index for c in order[:pos] + order[pos + 1:]]
        points = _deadwood(kept, view, memo)
        code = outcome_code(kept, points, view)
        prospect = prospect_of(*prospect_counts(kept, pool, view, memo))
        out.append(Outlook(card, points, code != 0, OUTCOMES[code], *prospect))
    return out


def draw_outlook(hand7: HandLike, top: Any, unseen: Any = None, *,
                 decks: Optional[int] = None, rules: RulesArg = None) -> DrawOutlook:
    """The value of taking the discard pile's ``top`` card vs drawing from the stock,
    for a 7-card hand, by the measure of :func:`outlook`: the best discard of the 8 cards
    then (fewest points, then the better close). Taking is certain; the stock is a
    uniform card of ``unseen`` (default: every card of the deck(s) that is neither held
    nor the top)."""
    rules = check_rules(rules)
    h, u_once, u_twice, top_card = check_unseen(hand7, unseen, decks, rules, 7, top=top)
    assert top_card is not None
    view = solver_view(rules.solver, h.decks)
    kept = [c.index for c in h]
    memo: Memo = {}
    take = prospect_of(*prospect_counts(kept, Counter({top_card.index: 1}), view, memo))
    stock = prospect_of(*prospect_counts(kept, _unseen_counter(u_once, u_twice), view, memo))
    return DrawOutlook(top_card, take, stock)


def outlook_batch(masks: Any, unseen_masks: Any, *, threads: Optional[int] = None,
                  rules: RulesArg = None) -> np.ndarray:
    """The outlook of each 8-card row of ``masks`` against the unseen cards of the same
    row of ``unseen_masks`` (same shape: (n,) one deck, (n, 2) two), each held card in
    ascending card order (a copy held twice listed twice). Returns float64 of shape
    (n, 8, 6), the columns of :data:`OUTLOOK_COLUMNS`."""
    rules = check_rules(rules)
    check_threads(threads)
    arr, decks, uarr = normalize_outlook_batch(masks, unseen_masks)
    view = solver_view(rules.solver, decks)
    out = np.empty((arr.shape[0], 8, len(OUTLOOK_COLUMNS)), dtype=np.float64)
    rows = arr.reshape(-1, decks).tolist()
    urows = uarr.reshape(-1, decks).tolist()
    for row, (pair, upair) in enumerate(zip(rows, urows)):
        once, twice = (pair[0], 0) if decks == 1 else pair
        u_once, u_twice = (upair[0], 0) if decks == 1 else upair
        status = row_status(once, twice, 8, rules)
        if status != "CC_OK":
            raise row_error(status, row, once)
        status = unseen_row_status(once, twice, u_once, u_twice, decks, rules)
        if status != "CC_OK":
            raise unseen_row_error(status, row, u_once)
        hand = [c.index for c in mask_to_cards(once, twice)]
        pool = _unseen_counter(u_once, u_twice)
        memo: Memo = {}
        for pos in range(8):
            kept = hand[:pos] + hand[pos + 1:]
            p = prospect_of(*prospect_counts(kept, pool, view, memo))
            out[row, pos] = (_deadwood(kept, view, memo), *p[:5])
    return out
