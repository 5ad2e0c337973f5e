"""What a table is dealt from: the seat counts, the rules' deck, and the check that a
list of cards is exactly a given multiset (a stacked deck, a saved game's cards)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Optional, Union

from ..cards import CARD_AT, Card, full_deck
from ..errors import IllegalAction, shown
from ..rules import Rules, decks_for

__all__ = ["MIN_PLAYERS", "MAX_PLAYERS", "check_seat_count", "decks_for", "deck_for",
           "multiset_problem"]


#: a card as a :class:`~chinchon.Card` or its text
CardLike = Union[Card, str]

#: the key of ascending card order
_index = attrgetter("index")

#: the fewest and the most seats at a table (one deck up to 4, two decks for 5 and 6)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def check_seat_count(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise IllegalAction(f"a Chinchón table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                            f"got {shown(n)}")


def deck_for(rules: Rules, decks: int) -> list[Card]:
    """Every card a hand is dealt from under ``rules`` with ``decks`` decks, in ascending
    card order: the one place that says what the deck is. Dealing shuffles it, a stacked
    ``deck=`` must be an order of it, and a saved game must hold exactly these cards
    (hands, stock, discard pile and the face-down card): the rules' deck (48 or 40
    natural cards, and their extra jokers), every card ``decks`` times."""
    return full_deck(decks, rules=rules)


def multiset_problem(cards: Sequence[Card], want: Sequence[Card], where: str
                      ) -> Optional[str]:
    """None when ``cards`` are exactly the cards of ``want`` (in any order), else what
    differs, naming the first card (in card order) held a wrong number of times."""
    counts = [0] * 64
    for c in cards:
        counts[c.index] += 1
    for c in want:
        counts[c.index] -= 1
    if not any(counts):
        return None
    need = [0] * 64
    for c in want:
        need[c.index] += 1
    index = next(i for i, k in enumerate(counts) if k)
    k, w = counts[index] + need[index], need[index]
    return (f"card {CARD_AT[index]} appears {k} time{'s' if k != 1 else ''} {where}; "
            f"expected {w}")
