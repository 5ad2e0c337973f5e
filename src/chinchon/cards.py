"""Cards, hands and the public bitmask encoding.

The Spanish deck has 48 cards: suits oros (``o``, coins), copas (``c``, cups),
espadas (``e``, swords) and bastos (``b``, clubs), ranks 1-9, sota/jack 10,
caballo/knight 11, rey/king 12. A card's text is its rank number then its suit letter
(``7o``, ``12b``); parsing also takes the aliases S/C/R (sota, caballo, rey) and
J/N/K (jack, knight, king), in any case.

Jokers (*comodines*, docs/rules.md#the-variant-encoding): under ``jokers=1`` or ``2``
the deck holds one or two extra joker cards, ``*1`` and ``*2`` (parsing also takes
``joker1``/``joker2`` and ``comodin1``/``comodin2``, in any case): :class:`Card` values
with ``is_joker`` true, ``rank`` 0 and ``suit`` ``'*'``. The ace of coins under
``wild_ace_of_coins`` is a joker to the solver but stays the card ``1o``. Which cards a
hand may hold depends on the rules (the 40-card deck has no eights or nines);
:class:`Hand` takes any card of any rules, the solver checks them against its rules.

Bitmask encoding (stable, used by the batch API): card bit index = ``16 * suit +
(rank - 1)`` with suits o=0, c=1, e=2, b=3; joker 1 is bit 12 and joker 2 bit 28; the
other bits 12-15 of every 16-bit lane are always zero. A single-deck hand is one
``int``; a double-deck hand is ``(once, twice)``.

>>> Hand("7o 7c 7b 9e 10e 11e 4o")
Hand('4o 7o 7c 9e 10e 11e 7b')
>>> Card.parse("Ro"), Card.parse("Ro").index
(Card('12o'), 11)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Optional, Union

from .bits import (CARD_MASK, JOKER_BITS, JOKER_MASK, LANE_MASK, RANKS, SUIT_MASKS, SUIT_NAMES,
                   SUITS, card_index, lane_of, mask_value, rank_of)
from ._integers import check_decks, integer
from .errors import (CardCountError, CardParseError, ChinchonError, DuplicateCardError,
                     InvalidHandError, shown)

__all__ = ["SUITS", "SUIT_NAMES", "RANKS", "LANE_MASK", "JOKER_MASK", "CARD_MASK",
           "JOKER_BITS", "SUIT_MASKS", "JOKER_1", "JOKER_2", "JOKERS", "Card", "Hand",
           "HandLike", "parse_cards", "as_hand", "as_card", "coerce_cards", "full_deck",
           "mask_to_cards", "cards_to_mask", "add_card", "CARD_AT", "SPELLINGS",
           "card_index", "rank_of", "lane_of"]

_ALIASES = {"s": 10, "j": 10, "c": 11, "n": 11, "r": 12, "k": 12}
#: the accepted spellings of each extra joker (lower case), canonical first
_JOKER_NAMES = (("*1", "joker1", "comodin1"), ("*2", "joker2", "comodin2"))
# ASCII: with Unicode case folding the long s (U+017F) matched "s" and the Kelvin sign
# "k", one then a ValueError of int(), the other read as a card
_TOKEN = re.compile(r"^(1[0-2]|[1-9]|[sjcnrk])([oceb])$", re.IGNORECASE | re.ASCII)
_SPLIT = re.compile(r"[\s,]+")


class Card:
    """An immutable playing card: ``.rank`` 1-12, ``.suit`` one of ``'oceb'``.

    Cards are interned: ``Card(7, 'o') is Card.parse('7o')``. ``.points`` are the points
    under the default point table: the rank number, and for a joker the default
    ``joker_points`` (25); ``Rules.card_points(card)`` gives them under any rules.

    The two extra jokers are ``Card('*1')`` (:data:`JOKER_1`, bit 12) and
    ``Card('*2')`` (:data:`JOKER_2`, bit 28): ``.is_joker`` true, ``.rank`` 0,
    ``.suit`` ``'*'``.
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
        if type(rank) is not int:  # any integer type, numpy's too; a bool is no rank
            number = integer(rank)
            if number is None:
                raise CardParseError(f"bad card rank {shown(rank)}: a rank is an int, "
                                     f"1 to 12", shown(rank))
            rank = number
        if not 1 <= rank <= 12:
            raise CardParseError(f"bad card rank {shown(rank)}: ranks are 1 to 12", shown(rank))
        if not isinstance(suit, str) or len(suit) != 1 or suit.lower() not in SUITS:
            raise CardParseError(f"bad card suit {shown(suit)}: suits are o, c, e, b",
                                 shown(suit))
        suit = suit.lower()
        index = card_index(rank, SUITS.index(suit))
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

    def __reduce__(self) -> tuple[type[Card], tuple[Any, ...]]:
        if self.rank == 0:
            return (Card, (self._str,))
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        """True for the two extra joker cards ``*1`` and ``*2`` (not for the ace of
        coins, which is a joker only under ``Rules.wild_ace_of_coins``)."""
        return self.rank == 0

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``'7o'``, ``'12b'``, ``'Ro'`` (= ``'12o'``), ``'*1'`` (joker
        1), case-insensitive."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"not card text: {shown(text)}", shown(text))
        token = text.strip()
        # ASCII only: the Kelvin sign (U+212A) lowers to "k"
        card = SPELLINGS.get(token.lower()) if token.isascii() else None
        if card is not None:
            return card
        m = _TOKEN.match(token)
        if m is None:
            if token.startswith("*") or token.lower().startswith(("joker", "comodin")):
                raise CardParseError(
                    f"unknown card {shown(token)}: the jokers are *1 and *2", token)
            raise CardParseError(f"unknown card {shown(token)} (expected e.g. 7o, 12b, Ro, *1)",
                                 token)
        r, s = m.group(1).lower(), m.group(2).lower()
        return cls(_ALIASES[r] if r in _ALIASES else int(r), s)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of bit ``index`` (:func:`card_index`), or a joker (12, 28)."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidHandError(f"card index must be an int, got {shown(index)}")
        card = CARD_AT[index] if 0 <= index < 64 else None
        if card is None:
            raise InvalidHandError(f"{index} is not a card bit index")
        return card

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


def _make_joker(number: int) -> Card:
    index = JOKER_BITS[number - 1]
    card = object.__new__(Card)
    object.__setattr__(card, "rank", 0)
    object.__setattr__(card, "suit", "*")
    object.__setattr__(card, "index", index)
    object.__setattr__(card, "points", 25)
    object.__setattr__(card, "_str", f"*{number}")
    Card._cache[index] = card
    return card


#: joker 1, ``*1`` (bit 12), in play with ``Rules.jokers >= 1``
JOKER_1 = _make_joker(1)
#: joker 2, ``*2`` (bit 28), in play with ``Rules.jokers == 2``
JOKER_2 = _make_joker(2)
#: the two extra jokers, joker 1 first
JOKERS = (JOKER_1, JOKER_2)

#: the one bit index -> Card table: ``CARD_AT[i]`` is the card of bit ``i``: the natural
#: cards, the jokers at 12 and 28, ``None`` for the bits that are never a card
CARD_AT: tuple[Card | None, ...] = tuple(
    Card(rank_of(i), SUITS[lane_of(i)]) if rank_of(i) <= 12
    else JOKER_1 if i == JOKER_BITS[0] else JOKER_2 if i == JOKER_BITS[1] else None
    for i in range(64)
)


def _spellings() -> dict[str, Card]:
    table = {}
    for card in _ALL_CARDS:
        names = [str(card.rank)] + [a for a, r in _ALIASES.items() if r == card.rank]
        for name in names:
            table[f"{name}{card.suit}"] = card
    for joker, spellings in zip(JOKERS, _JOKER_NAMES):
        for spelling in spellings:
            table[spelling] = joker
    return table


#: every accepted spelling, lower case -> Card (parsing is a dict look-up)
SPELLINGS = _spellings()


def _any_case(spellings: dict[str, Card]) -> dict[str, Card]:
    """Every spelling in every mix of upper and lower case -> its Card."""
    table = {}
    for spelling, card in spellings.items():
        variants = [""]
        for ch in spelling:
            variants = [v + c for v in variants for c in {ch.lower(), ch.upper()}]
        table.update(dict.fromkeys(variants, card))
    return table


#: the card of a spelling in any case (KeyError for anything else): plain card text
#: parses by one look-up per token
_LOOKUP = _any_case(SPELLINGS).__getitem__


def parse_cards(text: str) -> list[Card]:
    """Parse card text, separated by whitespace and/or commas, into a list of cards.

    The one card parser: the native binding parses card text with it too.

    >>> [str(c) for c in parse_cards("7o, Sc 12b")]
    ['7o', '10c', '12b']
    """
    if not isinstance(text, str):
        raise CardParseError(f"card text must be a str, got {type(text).__name__}",
                             shown(text))
    try:  # the common case: spellings separated by whitespace, a look-up each
        return [*map(_LOOKUP, text.split())]
    except KeyError:  # commas, or a token to look at closer
        pass
    table = SPELLINGS
    out = []
    for tok in _SPLIT.split(text.strip()) if "," in text else text.split():
        card = table.get(tok) or (table.get(tok.lower()) if tok.isascii() else None)
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
            raise InvalidHandError(f"card {c} appears three times; no deal has more than two of a card")
        once, twice = added
        n += 1
    return once, twice, n


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
        decks = check_decks(decks)
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
        decks = check_decks(decks)
        if isinstance(mask, tuple):
            if len(mask) != 2:
                raise InvalidHandError(
                    f"a double-deck mask is (once, twice), got {shown(mask)}")
            once, twice = mask_value(mask[0], "once"), mask_value(mask[1], "twice")
            if decks is None:
                decks = 2
        else:
            once, twice = mask_value(mask, "once"), 0
            if decks is None:
                decks = 1
        if twice & ~once:
            raise InvalidHandError("twice mask holds a card that the once mask does not")
        if decks == 1 and twice:
            dup = mask_to_cards(twice)[0]
            raise DuplicateCardError(f"card {dup} appears twice in a single-deck hand")
        return cls.trusted(once, twice, decks)

    @classmethod
    def trusted(cls, once: int, twice: int, decks: int) -> Hand:
        """The hand of masks the caller has already checked (cards of the encoding,
        ``twice`` within ``once``, no ``twice`` with one deck): built as cheaply as
        :meth:`from_mask` builds it once it has checked them. Nothing is checked."""
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


def use_native_constructors(from_mask: Any, trusted: Any, init: Any, card_new: Any,
                            card_parse: Any) -> None:
    """Called once by the native binding when it loads (``chinchon._core._hands``): its
    ``Hand.from_mask`` and ``Hand.trusted`` (descriptors that bind as classmethods do),
    ``Hand.__init__``, ``Card.__new__`` and ``Card.parse``, which build the common cases
    in C (an int mask or a pair of them; card text, a list or tuple of Cards and card
    texts; an int rank and a suit letter) and hand everything else, every refusal and
    every subclass included, to the Python methods above, unchanged. Without the binding
    those methods do all the work, with the same results and errors."""
    for fn, py in ((init, _PY_INIT), (card_new, _PY_CARD_NEW), (card_parse, _PY_CARD_PARSE)):
        fn.__doc__, fn.__name__, fn.__qualname__ = py.__doc__, py.__name__, py.__qualname__
    Hand.from_mask = from_mask  # type: ignore[method-assign]
    Hand.trusted = trusted  # type: ignore[method-assign]
    Hand.__init__ = init  # type: ignore[method-assign]
    Card.__new__ = staticmethod(card_new)  # type: ignore[method-assign]
    Card.parse = classmethod(card_parse)  # type: ignore[method-assign,assignment]


#: the Python methods the binding's constructors fall back on
_PY_FROM_MASK = Hand.__dict__["from_mask"].__func__
_PY_TRUSTED = Hand.__dict__["trusted"].__func__
_PY_INIT = Hand.__dict__["__init__"]
_PY_CARD_NEW = Card.__dict__["__new__"].__func__
_PY_CARD_PARSE = Card.__dict__["parse"].__func__


def _hand_from_state(once: int, twice: int, decks: int) -> Hand:
    return Hand.from_mask((once, twice), decks=decks)


if TYPE_CHECKING:
    from .rules import Rules

HandLike = Union[Hand, str, Iterable[Union[Card, str]]]


def as_hand(obj: HandLike, decks: int | None = None, *, max_cards: int | None = None,
            exact: int | None = None) -> Hand:
    """Coerce ``obj`` to a :class:`Hand`, checking the number of cards.

    A Hand passed with ``decks`` set to another value is re-validated for that value.
    """
    if isinstance(obj, Hand) and (decks is None
                                  or (type(decks) is int and decks == obj._decks)):
        # (any other decks= is checked by Hand(): True and 1.0 equal 1, but are no
        # number of decks)
        hand = obj
    else:
        hand = Hand(obj, decks=decks)
    n = hand._n
    if exact is not None and n != exact:
        raise CardCountError(f"expected {exact} cards, got {n}: {hand or '(no cards)'}")
    if max_cards is not None and n > max_cards:
        raise CardCountError(f"expected at most {max_cards} cards, got {n}: {hand}")
    return hand


def full_deck(decks: int = 1, *, rules: Optional[Rules] = None) -> list[Card]:
    """Every card of one or two decks, in ascending bit order: the 48 cards of the
    house rules, or with ``rules`` the rules' deck (40 or 48 natural cards and the extra
    jokers in play)."""
    if check_decks(decks) is None:  # no hand here to infer it from
        raise InvalidHandError("full_deck needs decks=1 or decks=2, got None")
    if rules is None:
        return [c for c in _ALL_CARDS for _ in range(decks)]
    mask = getattr(getattr(rules, "solver", None), "card_mask", None)
    if type(mask) is not int:  # the rules module is above this one: a Rules by its fields
        raise ChinchonError(f"rules must be a chinchon.Rules or None (a preset by name: "
                            f"Rules.preset('conga')), got {type(rules).__name__}")
    return [c for c in CARD_AT if c is not None and mask >> c.index & 1 for _ in range(decks)]
