"""The public bitmask encoding of cards (docs/rules.md#the-card-bitmask), the one place
that says it: card bit index = ``16 * lane + (rank - 1)`` with suit lanes o=0, c=1, e=2,
b=3; joker 1 is bit 12 and joker 2 bit 28; the other bits 12-15 of every 16-bit lane
are always zero. A single-deck hand is one ``int``; a double-deck hand is ``(once,
twice)``. :mod:`chinchon.cards` builds its cards and hands on it and re-exports every
name here."""

from __future__ import annotations

from operator import index as _as_index

from .errors import InvalidHandError, shown

__all__ = ["SUITS", "SUIT_NAMES", "RANKS", "LANE_MASK", "JOKER_MASK", "CARD_MASK",
           "JOKER_BITS", "SUIT_MASKS", "card_index", "rank_of", "lane_of"]

SUITS = "oceb"
SUIT_NAMES = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
RANKS = tuple(range(1, 13))
#: every natural card of the 48-card deck (bits 0-11 of each 16-bit lane)
LANE_MASK = 0x0FFF0FFF0FFF0FFF
#: bit index of each extra joker card: joker 1 (``*1``) = 12, joker 2 (``*2``) = 28
JOKER_BITS: tuple[int, int] = (12, 28)
#: the bits of the two extra jokers
JOKER_MASK = (1 << 12) | (1 << 28)
#: every bit that is a card under some rules: the 48 natural cards and the two jokers
CARD_MASK = LANE_MASK | JOKER_MASK
#: one mask per suit: every card of that suit
SUIT_MASKS = {s: 0xFFF << (16 * i) for i, s in enumerate(SUITS)}


def card_index(rank: int, lane: int) -> int:
    """The bit of the natural card of ``rank`` (1-12) in suit lane ``lane`` (0-3, its
    suit's place in :data:`SUITS`), the one place that says it
    (docs/rules.md#the-card-bitmask)."""
    return 16 * lane + rank - 1


def rank_of(index: int) -> int:
    """The rank of bit ``index`` (1-12; 13-16: bits 12-15 of a lane, no natural card)."""
    return index % 16 + 1


def lane_of(index: int) -> int:
    """The suit lane (0-3) of bit ``index``: ``SUITS[lane_of(i)]`` is its suit."""
    return index // 16


def is_card_bit(index: int) -> bool:
    """Whether bit ``index`` is a card under some rules (a natural card or a joker)."""
    return 0 <= index < 64 and bool(CARD_MASK >> index & 1)


def mask_value(mask: object, name: str) -> int:
    """``mask`` (any integer type, numpy's too; no float, text or bool) as the int of a
    mask of the encoding: 64 bits, no bit outside the cards'. ``name`` (``once``,
    ``twice``) names it in the :class:`~chinchon.errors.InvalidHandError` otherwise."""
    m = None
    if not isinstance(mask, bool):
        try:
            m = _as_index(mask)  # type: ignore[arg-type]
        except TypeError:
            pass
    if m is None:
        raise InvalidHandError(f"a mask is an int, or (once, twice) of ints, got {shown(mask)}")
    if m < 0 or m >> 64:
        raise InvalidHandError(f"{name} mask {m:#x} is not a 64-bit value")
    if m & ~CARD_MASK:
        raise InvalidHandError(f"{name} mask {m:#x} sets bits outside the card lanes (bits "
                               "12-15 of a lane, but for the jokers' bits 12 and 28)")
    return m
