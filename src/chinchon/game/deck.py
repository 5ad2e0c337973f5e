"""What a table is dealt from: the seat counts, the number of decks, the rules' deck, a
stacked order checked against it, the check that a list of cards is exactly a given
multiset (a stacked order, a saved game's cards), and what a seat cannot know the place
of; and the order of the seats still in the game."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from operator import index as _as_index
from typing import Optional, Union

from ..cards import _PY_INIT as _PY_HAND_INIT
from ..cards import CARD_AT, Card, Hand, coerce_cards, full_deck
from ..errors import IllegalAction, shown
from ..rules import Rules, decks_for

__all__ = ["MIN_PLAYERS", "MAX_PLAYERS", "CardLike", "card_order", "check_seat_count",
           "decks_for", "deck_for", "checked_order", "multiset_problem", "seat_index",
           "play_order", "next_in",
           "unseen_cards"]


#: a card as a :class:`~chinchon.Card` or its text
CardLike = Union[Card, str]

#: the key of ascending card order (a card's bit index)
card_order = attrgetter("index")

#: the fewest and the most seats at a table (one deck up to 4, two decks for 5 and 6:
#: :func:`decks_for`)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def check_seat_count(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise IllegalAction(f"a Chinchón table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                            f"got {shown(n)}")


def seat_index(seat: object, players: int) -> int:
    """``seat`` as a seat number of a table of ``players`` (any integer type, never a
    bool), or :class:`IllegalAction`."""
    try:
        index = _as_index(seat)  # type: ignore[arg-type]
    except TypeError:
        index = -1
    if isinstance(seat, bool) or not 0 <= index < players:
        raise IllegalAction(f"no seat {shown(seat)} at this table (seats 0..{players - 1})")
    return index


def play_order(in_game: Sequence[bool], start: int) -> list[int]:
    """The seats still in the game (``in_game[s]``), in play order from ``start``
    (included if in)."""
    n = len(in_game)
    return [s for s in ((start + k) % n for k in range(n)) if in_game[s]]


def next_in(in_game: Sequence[bool], seat: int) -> int:
    """The first seat after ``seat``, in play order, still in the game."""
    n = len(in_game)
    for k in range(1, n + 1):
        s = (seat + k) % n
        if in_game[s]:
            return s
    raise AssertionError("no player in the game")  # pragma: no cover


def deck_for(rules: Rules, decks: int) -> list[Card]:
    """Every card a hand is dealt from under ``rules`` with ``decks`` decks, in ascending
    card order: the one place that says what the deck is. Dealing shuffles it, a stacked
    ``deck=`` must be an order of it, and a saved game must hold exactly these cards
    (hands, stock, discard pile and the face-down card): the rules' deck (48 or 40
    natural cards, and their extra jokers), every card ``decks`` times."""
    return full_deck(decks, rules=rules)


def cards_of(order: Union[str, Sequence[CardLike]], what: str) -> list[Card]:
    """Card text or a sequence of cards (or their texts) as cards
    (:func:`~chinchon.cards.coerce_cards`); an :class:`IllegalAction` naming ``what``
    and the problem otherwise."""
    try:
        return coerce_cards(order)
    except (ValueError, TypeError) as exc:
        raise IllegalAction(f"bad {what}: {exc}") from None


def checked_order(order: Union[str, Sequence[CardLike]], rules: Rules, players: int
                  ) -> list[Card]:
    """A stacked order (card text, or cards) as cards, checked to hold every card of the
    deck of a table of ``players`` exactly once per deck; :class:`IllegalAction`
    otherwise."""
    cards = cards_of(order, "deck")
    decks = decks_for(players)
    want = deck_for(rules, decks)
    if len(cards) != len(want):
        raise IllegalAction(
            f"a deck for {players} players has {len(want)} cards ({decks} "
            f"deck{'s' if decks > 1 else ''}), got {len(cards)}")
    problem = multiset_problem(cards, want, "in the deck")
    if problem is not None:
        raise IllegalAction(problem)
    return cards


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


def unseen_cards(card_mask: int, decks: int, own: Sequence[Card], discard: Sequence[Card],
                 taken_by_others: Sequence[Sequence[Card]],
                 restocked: Optional[Sequence[Card]]) -> Hand:
    """The cards a seat cannot know the place of: every card of the deck(s)
    (``card_mask``, ``decks`` copies) but its ``own`` hand, the ``discard`` pile and the
    cards it saw the other seats take from the pile and still hold; after a reshuffle,
    only cards of that new stock (``restocked``). A :class:`~chinchon.Hand` of
    ``decks`` decks."""
    known = [*own, *discard]
    for taken in taken_by_others:
        known += taken
    # the copies of each card the seat knows the place of (at most ``decks``), as masks
    # of the cards known once or more and twice
    k_once, k_twice = _copies(known, decks)
    if decks == 1:  # a bit per card: clear what the seat knows the place of
        mask = card_mask & ~k_once
        if restocked is not None:
            mask &= _copies(restocked, 1)[0]
        return Hand.trusted(mask, 0, 1)
    # two copies of every card less those known: once or more where not known twice,
    # twice where not known at all; after a reshuffle no more than the new stock holds
    once, twice = card_mask & ~k_twice, card_mask & ~k_once
    if restocked is not None:
        p_once, p_twice = _copies(restocked, 2)
        once, twice = once & p_once, twice & p_twice
    return Hand.trusted(once, twice, 2)


def _copies(cards: Sequence[Card], decks: int) -> tuple[int, int]:
    """``(once, twice)``: the masks of the cards held at least once and twice (at most
    twice each; ``twice`` only with ``decks`` 2). With the native binding, a Hand of the
    list is that conversion in C; without it, a loop."""
    if Hand.__init__ is not _PY_HAND_INIT:
        h = Hand(cards if type(cards) is list else list(cards), decks=2)
        return h._once, h._twice
    once = twice = 0
    if decks == 1:
        for c in cards:
            once |= 1 << c.index
        return once, 0
    for c in cards:
        b = 1 << c.index
        twice |= once & b
        once |= b
    return once, twice
