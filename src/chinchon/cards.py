"""Cards, hands and the public bitmask encoding.

The Spanish deck has 48 cards: suits oros (``o``, coins), copas (``c``, cups),
espadas (``e``, swords) and bastos (``b``, clubs), ranks 1-9, sota/jack 10,
caballo/knight 11, rey/king 12. A card's text is its rank number then its suit letter
(``7o``, ``12b``); parsing also takes the aliases S/C/R (sota, caballo, rey) and
J/N/K (jack, knight, king), in any case.

Bitmask encoding (stable, used by the batch API): card bit index = ``16 * suit +
(rank - 1)`` with suits o=0, c=1, e=2, b=3; bits 12-15 of every 16-bit lane are zero.
A single-deck hand is one ``int``; a double-deck hand is ``(once, twice)``.

>>> Hand("7o 7c 7b 9e 10e 11e 4o")
Hand('4o 7o 7c 9e 10e 11e 7b')
>>> Card.parse("Ro"), Card.parse("Ro").index
(Card('12o'), 11)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from operator import index as _as_index
from typing import Union

from .errors import CardCountError, CardParseError, DuplicateCardError, InvalidHandError, shown

__all__ = [
    "SUITS",
    "SUIT_NAMES",
    "RANKS",
    "LANE_MASK",
    "SUIT_MASKS",
    "Card",
    "Hand",
    "HandLike",
    "parse_cards",
    "as_hand",
    "as_card",
    "coerce_cards",
    "full_deck",
    "mask_to_cards",
    "cards_to_mask",
    "add_card",
    "CARD_AT",
    "SPELLINGS",
]

SUITS = "oceb"
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
RANKS = tuple(range(1, 13))
LANE_MASK = 0x0FFF0FFF0FFF0FFF
#: one mask per suit: every card of that suit
SUIT_MASKS = {s: 0xFFF << (16 * i) for i, s in enumerate(SUITS)}

_ALIASES = {"s": 10, "j": 10, "c": 11, "n": 11, "r": 12, "k": 12}
_TOKEN = re.compile(r"^(1[0-2]|[1-9]|[sjcnrk])([oceb])$", re.IGNORECASE)
_SPLIT = re.compile(r"[\s,]+")


class Card:
    """An immutable playing card: ``.rank`` 1-12, ``.suit`` one of ``'oceb'``.

    Cards are interned: ``Card(7, 'o') is Card.parse('7o')``.
    """

    __slots__ = ("rank", "suit", "index", "points", "_str")
    _cache: dict[int, Card] = {}

    rank: int
    suit: str
    index: int
    points: int
    _str: str

    def __new__(cls, rank: int | str | Card, suit: str | None = None) -> Card:
        if suit is None:
            # Card('7o'): text form, so that repr() round-trips through eval
            if isinstance(rank, Card):
                return rank
            if isinstance(rank, str):
                return cls.parse(rank)
            raise CardParseError(f"Card() takes a card text or (rank, suit), got {shown(rank)}",
                                 shown(rank))
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 12:
            raise CardParseError(f"bad card rank {shown(rank)}: ranks are 1 to 12", shown(rank))
        if not isinstance(suit, str) or len(suit) != 1 or suit.lower() not in SUITS:
            raise CardParseError(f"bad card suit {shown(suit)}: suits are o, c, e, b",
                                 shown(suit))
        suit = suit.lower()
        index = 16 * SUITS.index(suit) + rank - 1
        card = cls._cache.get(index)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "index", index)
            object.__setattr__(card, "points", rank)
            object.__setattr__(card, "_str", f"{rank}{suit}")
            cls._cache[index] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``'7o'``, ``'12b'``, ``'Ro'`` (= ``'12o'``), case-insensitive."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"not card text: {shown(text)}", shown(text))
        token = text.strip()
        card = SPELLINGS.get(token.lower())
        if card is not None:
            return card
        m = _TOKEN.match(token)
        if m is None:
            raise CardParseError(f"unknown card {shown(token)} (expected e.g. 7o, 12b, Ro)",
                                 token)
        r, s = m.group(1).lower(), m.group(2).lower()
        return cls(_ALIASES[r] if r in _ALIASES else int(r), s)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of bit index ``16 * suit + rank - 1``."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidHandError(f"card index must be an int, got {shown(index)}")
        suit, r = divmod(index, 16)
        if not (0 <= suit < 4 and r < 12):
            raise InvalidHandError(f"{index} is not a card bit index")
        return cls(r + 1, SUITS[suit])

    @property
    def mask(self) -> int:
        """The card's bit, ``1 << index``."""
        return 1 << self.index

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card('{self._str}')"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


_ALL_CARDS = tuple(Card(r, s) for s in SUITS for r in RANKS)

#: the one bit index -> Card table: ``CARD_AT[i]`` is the card of bit ``i`` (``None``
#: for the unused bits 12-15 of each lane)
CARD_AT: tuple[Card | None, ...] = tuple(
    Card(i % 16 + 1, SUITS[i // 16]) if i % 16 < 12 else None for i in range(64)
)


def _spellings() -> dict[str, Card]:
    table = {}
    for card in _ALL_CARDS:
        names = [str(card.rank)] + [a for a, r in _ALIASES.items() if r == card.rank]
        for name in names:
            table[f"{name}{card.suit}"] = card
    return table


#: every accepted spelling, lower case -> Card (parsing is a dict look-up)
SPELLINGS = _spellings()


def parse_cards(text: str) -> list[Card]:
    """Parse card text, separated by whitespace and/or commas, into a list of cards.

    >>> [str(c) for c in parse_cards("7o, Sc 12b")]
    ['7o', '10c', '12b']
    """
    if not isinstance(text, str):
        raise CardParseError(f"card text must be a str, got {type(text).__name__}",
                             shown(text))
    table = SPELLINGS
    out = []
    for tok in _SPLIT.split(text.strip()) if "," in text else text.split():
        card = table.get(tok) or table.get(tok.lower())
        if card is None:
            if not tok:
                continue
            card = Card.parse(tok)  # raises CardParseError naming the token
        out.append(card)
    return out


def as_card(obj: Card | str) -> Card:
    """A Card from a Card or one card's text."""
    if isinstance(obj, Card):
        return obj
    if isinstance(obj, str):
        return Card.parse(obj)
    raise CardParseError(f"not a card: {shown(obj)}", shown(obj))


def coerce_cards(obj: HandLike) -> list[Card]:
    """The cards of a hand given as text, an iterable of cards/texts, or a Hand, in the
    order given."""
    if isinstance(obj, Hand):
        return list(obj)
    if isinstance(obj, str):
        return parse_cards(obj)
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, (bytes, bytearray, memoryview)):
        raise CardParseError(
            f"card text must be a str, got {type(obj).__name__} (decode it first)", shown(obj))
    try:
        items = iter(obj)
    except TypeError:
        raise CardParseError(
            f"expected card text, an iterable of cards or a Hand, got {type(obj).__name__}",
            shown(obj),
        ) from None
    return [as_card(x) for x in items]


def mask_to_cards(once: int, twice: int = 0) -> list[Card]:
    """Cards of a mask pair in ascending bit order, a card held twice listed twice."""
    out = []
    m = once
    while m:
        low = m & -m
        i = low.bit_length() - 1
        c = CARD_AT[i]
        assert c is not None
        out.append(c)
        if twice & low:
            out.append(c)
        m ^= low
    return out


def add_card(once: int, twice: int, index: int) -> tuple[int, int] | None:
    """The masks ``(once, twice)`` with one more copy of card ``index``; ``None`` when
    that would be a third copy."""
    b = 1 << index
    if twice & b:
        return None
    if once & b:
        return once, twice | b
    return once | b, twice


def cards_to_mask(cards: Iterable[Card]) -> tuple[int, int, int]:
    """``(once, twice, n)`` of a list of cards; raises on a third copy."""
    once = twice = n = 0
    for c in cards:
        added = add_card(once, twice, c.index)
        if added is None:
            raise InvalidHandError(f"card {c} appears three times; at most two decks are in play")
        once, twice = added
        n += 1
    return once, twice, n


def check_decks(decks: object) -> int | None:
    """``decks`` as 1, 2 or None (infer); the one check of every ``decks=`` argument."""
    if decks is None:
        return None
    if not isinstance(decks, bool):
        try:
            value = _as_index(decks)  # type: ignore[arg-type]  # any integer type, numpy too
        except TypeError:
            value = 0
        if value == 1 or value == 2:
            return value
    raise InvalidHandError(f"decks must be 1, 2 or None, got {shown(decks)}")


_check_decks = check_decks


class Hand:
    """An immutable multiset of cards, single deck (``decks=1``) or double (``decks=2``).

    ``decks=None`` infers it: 2 if a card appears twice, else 1. Iterating gives the
    cards in ascending bit order (suit by suit, rank by rank), copies listed twice.
    ``.mask`` is the public encoding: an ``int`` for one deck, ``(once, twice)`` for two.
    """

    __slots__ = ("_once", "_twice", "_decks", "_n")

    _once: int
    _twice: int
    _decks: int
    _n: int

    def __init__(self, cards: HandLike = (), *, decks: int | None = None) -> None:
        decks = _check_decks(decks)
        if isinstance(cards, Hand):
            once, twice, n = cards._once, cards._twice, cards._n
        else:
            once, twice, n = cards_to_mask(coerce_cards(cards))
        if decks is None:
            decks = 2 if twice else 1
        elif decks == 1 and twice:
            dup = mask_to_cards(twice)[0]
            raise DuplicateCardError(f"card {dup} appears twice in a single-deck hand")
        object.__setattr__(self, "_once", once)
        object.__setattr__(self, "_twice", twice)
        object.__setattr__(self, "_decks", decks)
        object.__setattr__(self, "_n", n)

    @classmethod
    def from_mask(cls, mask: int | tuple[int, int], *, decks: int | None = None) -> Hand:
        """The hand of a public-encoding mask: an int, or ``(once, twice)``."""
        decks = _check_decks(decks)
        if isinstance(mask, tuple):
            if len(mask) != 2:
                raise InvalidHandError(
                    f"a double-deck mask is (once, twice), got {shown(mask)}")
            once, twice = (int(x) for x in mask)
            if decks is None:
                decks = 2
        else:
            once, twice = int(mask), 0
            if decks is None:
                decks = 1
        for name, m in (("once", once), ("twice", twice)):
            if m < 0 or m >> 64:
                raise InvalidHandError(f"{name} mask {m:#x} is not a 64-bit value")
            if m & ~LANE_MASK:
                raise InvalidHandError(
                    f"{name} mask {m:#x} sets bits outside the card lanes (bits 12-15 of a lane)"
                )
        if twice & ~once:
            raise InvalidHandError("twice mask holds a card that the once mask does not")
        if decks == 1 and twice:
            dup = mask_to_cards(twice)[0]
            raise DuplicateCardError(f"card {dup} appears twice in a single-deck hand")
        h = object.__new__(cls)
        object.__setattr__(h, "_once", once)
        object.__setattr__(h, "_twice", twice)
        object.__setattr__(h, "_decks", decks)
        object.__setattr__(h, "_n", bin(once).count("1") + bin(twice).count("1"))
        return h

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (_hand_from_state, (self._once, self._twice, self._decks))

    @property
    def decks(self) -> int:
        return self._decks

    @property
    def once(self) -> int:
        return self._once

    @property
    def twice(self) -> int:
        return self._twice

    @property
    def mask(self) -> int | tuple[int, int]:
        """The public encoding: an int for one deck, ``(once, twice)`` for two."""
        return self._once if self._decks == 1 else (self._once, self._twice)

    @property
    def points(self) -> int:
        """Sum of the points of every card (not the deadwood)."""
        return sum(c.points for c in self)

    def count(self, card: Card | str) -> int:
        """How many copies of ``card`` the hand holds (0, 1 or 2)."""
        b = 1 << as_card(card).index
        return (1 if self._once & b else 0) + (1 if self._twice & b else 0)

    def add(self, card: Card | str) -> Hand:
        """A new hand with one more copy of ``card``."""
        c = as_card(card)
        return Hand([*self, c], decks=self._decks)

    def remove(self, card: Card | str) -> Hand:
        """A new hand with one copy of ``card`` less; raises if it is not held."""
        c = as_card(card)
        b = 1 << c.index
        if not self._once & b:
            raise InvalidHandError(f"card {c} is not in the hand")
        if self._twice & b:
            return Hand.from_mask((self._once, self._twice & ~b), decks=self._decks)
        return Hand.from_mask((self._once & ~b, self._twice), decks=self._decks)

    def __iter__(self) -> Iterator[Card]:
        return iter(mask_to_cards(self._once, self._twice))

    def __len__(self) -> int:
        return self._n

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            return False
        return bool(self._once >> card.index & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return (self._once, self._twice, self._decks) == (
                other._once,
                other._twice,
                other._decks,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._once, self._twice, self._decks))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        if self._decks == 2 and not self._twice:
            return f"Hand({str(self)!r}, decks=2)"
        return f"Hand({str(self)!r})"

    def __int__(self) -> int:
        if self._decks != 1:
            raise TypeError("a double-deck hand is two masks; use .mask")
        return self._once

    def __index__(self) -> int:
        return self.__int__()


def _hand_from_state(once: int, twice: int, decks: int) -> Hand:
    return Hand.from_mask((once, twice), decks=decks)


HandLike = Union[Hand, str, Iterable[Union[Card, str]]]


def as_hand(obj: HandLike, decks: int | None = None, *, max_cards: int | None = None,
            exact: int | None = None) -> Hand:
    """Coerce ``obj`` to a :class:`Hand`, checking the number of cards.

    A Hand passed with ``decks`` set to another value is re-validated for that value.
    """
    if isinstance(obj, Hand) and (decks is None or decks == obj._decks):
        hand = obj
    else:
        hand = Hand(obj, decks=decks)
    n = hand._n
    if exact is not None and n != exact:
        raise CardCountError(f"expected {exact} cards, got {n}: {hand}")
    if max_cards is not None and n > max_cards:
        raise CardCountError(f"expected at most {max_cards} cards, got {n}: {hand}")
    return hand


def full_deck(decks: int = 1) -> list[Card]:
    """Every card of one or two decks, in ascending bit order."""
    _check_decks(decks)
    return [c for c in _ALL_CARDS for _ in range(decks)]
