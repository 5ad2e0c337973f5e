"""Coercion and validation of arguments, shared by both implementations.

The native binding (``chinchon._core``) and the pure-Python reference
(:mod:`chinchon.reference`) check their arguments here, so that the same bad value
raises the same exception class with the same message whichever implementation runs.
This module imports neither implementation.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from .cards import (
    CARD_AT,
    Card,
    JOKER_MASK,
    LANE_MASK,
    Hand,
    HandLike,
    add_card,
    as_hand,
    coerce_cards,
    mask_to_cards,
)
from ._integers import check_decks, integer
from .cards import _PY_INIT as _PY_HAND_INIT
from .errors import (
    BatchRowError,
    CannotCloseError,
    CardCountError,
    ChinchonError,
    STATUS_ERRORS,
    DuplicateCardError,
    InvalidHandError,
    shown,
    status_error,
)
from .results import seat_label
from .rules import HOUSE_RULES, Rules, decks_for

__all__ = [
    "SOLVER_FUNCTIONS",
    "MAX_OPPONENTS",
    "HAND_CARDS",
    "check_rules",
    "check_deck",
    "hand_for",
    "check_threads",
    "check_decks",
    "normalize_batch",
    "normalize_outlook_batch",
    "row_status",
    "row_error",
    "seat_name",
    "prepare_settle",
    "deal_error",
    "cannot_close_error",
    "check_unseen",
    "unseen_row_status",
    "unseen_row_error",
]

MAX_OPPONENTS = 5
HAND_CARDS = 7

#: the solver functions both implementations provide, with the same signatures
SOLVER_FUNCTIONS = ("deadwood", "best_melds", "discard_hints", "close_outcome",
                    "deadwood_batch", "hints_batch", "settle", "outlook", "draw_outlook",
                    "outlook_batch")


def finite(x: float) -> bool:
    """Whether the number ``x`` is finite; an int past a float's range is not (where
    ``math.isfinite`` raises OverflowError)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def check_rules(rules: object) -> Rules:
    """The :class:`Rules` a call runs under (``None``: the house rules).

    The one check of every ``rules=`` argument: the solver functions of both
    implementations, :class:`~chinchon.Game` and :func:`~chinchon.simulate` call it, so a
    bad value raises the same :class:`ChinchonError` everywhere. A ``Rules`` has checked
    its own numbers (:class:`Rules` refuses bad ones when it is made).
    """
    if rules is None:
        return HOUSE_RULES
    if isinstance(rules, Rules):
        limit = rules.close_limit  # the number the C core takes (a byte): checked again
        if type(rules) is not Rules or type(limit) is not int or not 0 <= limit <= 255:
            Rules.__post_init__(rules)  # a subclass, or a field set past the checks
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)  # the one place a name is looked up; unknown: refused
    raise ChinchonError(
        f"rules must be a chinchon.Rules, a preset name or None, got {type(rules).__name__}")


#: the eights and nines of the four suits: not in the 40-card deck
_EIGHTS_NINES = 0x0180018001800180


def check_deck(once: int, twice: int, rules: Rules) -> None:
    """Raise :class:`InvalidHandError` naming the first card (ascending bit order) of
    the masks that the rules' deck does not have: an eight or nine with ``deck=40``, a
    joker the rules do not put in play. The masks hold valid cards (a :class:`Hand`)."""
    solver = rules.solver
    bad = (once | twice) & ~solver.card_mask
    if bad:
        raise InvalidHandError(solver.not_in_deck((bad & -bad).bit_length() - 1))


def hand_for(hand: HandLike, decks: Optional[int], rules: Rules, *,
             max_cards: Optional[int] = None, exact: Optional[int] = None) -> Hand:
    """The :class:`Hand` a single-hand call works on, checked in this order: card text,
    copies and the number of cards (:func:`~chinchon.cards.as_hand`), then the rules'
    deck (:func:`check_deck`)."""
    h = as_hand(hand, decks, max_cards=max_cards, exact=exact)
    if (h.once | h.twice) & ~rules.solver.card_mask:
        check_deck(h.once, h.twice, rules)
    return h


#: the most threads a batch call takes
MAX_THREADS = 1024


def check_threads(threads: object) -> int:
    """The number of threads a batch call may use (``None``: all cores)."""
    if threads is None:
        return os.cpu_count() or 1
    value = integer(threads)  # numpy's integers too
    if value is None or not 1 <= value <= MAX_THREADS:
        raise ChinchonError(f"threads must be an int 1..{MAX_THREADS} or None, "
                            f"got {shown(threads)}")
    return value


# ---------------------------------------------------------------- batch calls


def normalize_batch(masks: Any) -> tuple[np.ndarray, int]:
    """Validate the array shape and dtype of a batch: ``(uint64 C-contiguous array,
    decks)``. Shape (n,) is single deck, (n, 2) double deck."""
    try:
        arr = np.asarray(masks)
    except (ValueError, TypeError) as exc:
        raise BatchRowError(f"masks must be an integer array of shape (n,) or (n, 2): {exc}",
                            -1) from None
    if arr.dtype.kind not in "ui":
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.uint64)
        elif arr.dtype.kind in "fO" and arr.ndim in (1, 2) and not isinstance(masks, np.ndarray):
            arr = _listed_masks(masks, arr.shape)  # numpy made floats or objects of ints
        else:
            raise BatchRowError(f"masks must be an integer array, got dtype {arr.dtype}", -1)
    if arr.ndim == 1:
        decks = 1
    elif arr.ndim == 2 and arr.shape[1] == 2:
        decks = 2
    else:
        raise BatchRowError(
            f"masks must have shape (n,) for one deck or (n, 2) for two, got {arr.shape}", -1
        )
    if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
        bad = int(np.argwhere(arr < 0)[0][0])
        raise BatchRowError(f"row {bad}: negative mask", bad)
    return np.ascontiguousarray(arr, dtype=np.uint64), decks


def _listed_masks(masks: Any, shape: tuple[int, ...]) -> np.ndarray:
    """A batch given as a list whose ints numpy did not make an integer array of (one
    past 2**63, say, makes the whole of it floats): each value checked as it was given,
    the first bad one named by its row."""
    values = np.array(masks, dtype=object)
    if values.shape != shape:  # pragma: no cover - the same list, read the same way
        raise BatchRowError(f"masks must be an integer array, got {shape}", -1)
    for row, masks_of_row in enumerate(values.reshape(shape[0], -1)):
        for mask in masks_of_row:
            if isinstance(mask, (bool, np.bool_)) or not isinstance(mask, (int, np.integer)):
                raise BatchRowError(f"row {row}: a mask is an int, got {shown(mask)}", row)
            if mask < 0:
                raise BatchRowError(f"row {row}: negative mask", row)
            if mask >> 64:
                raise BatchRowError(f"row {row}: mask of {int(mask).bit_length()} bits "
                                    f"(a mask has 64)", row)
    return values.astype(np.uint64)


def normalize_outlook_batch(masks: Any, unseen_masks: Any) -> tuple[np.ndarray, int, np.ndarray]:
    """:func:`normalize_batch` of an outlook batch's hands and of their unseen cards, of
    the same shape: ``(hands, decks, unseen)``."""
    arr, decks = normalize_batch(masks)
    try:
        uarr, _ = normalize_batch(unseen_masks)
    except BatchRowError as exc:
        raise BatchRowError(f"unseen_masks: {exc}", exc.row) from None
    if uarr.shape != arr.shape:
        raise BatchRowError(f"unseen_masks must have the shape of masks {arr.shape}, "
                            f"got {uarr.shape}", -1)
    return arr, decks, uarr


def row_status(once: int, twice: int, exact: Optional[int],
               rules: Optional[Rules] = None) -> str:
    """The C status name of one batch row (``'CC_OK'`` = fine), checked in the C
    core's order (``cc_check_hand``): a bit that is no card of the rules' encoding
    (bits 12-15 of a lane, but for the jokers the rules put in play: lane bits), twice
    not within once, a natural card the rules' deck lacks (eights and nines with 40
    cards), then the number of cards."""
    lanes = LANE_MASK if rules is None else LANE_MASK | (rules.solver.joker_mask & JOKER_MASK)
    if (once | twice) & ~lanes:
        return "CC_ERR_LANE_BITS"
    if twice & ~once:
        return "CC_ERR_TWICE_NOT_SUBSET"
    if rules is not None and rules.deck == 40 and once & _EIGHTS_NINES:
        return "CC_ERR_NOT_IN_DECK"
    n = bin(once).count("1") + bin(twice).count("1")
    if n > 8:  # before the exact count, as the C core checks (cc_check_hand, then the call)
        return "CC_ERR_TOO_MANY_CARDS"
    if exact is not None and n != exact:
        return "CC_ERR_CARD_COUNT"
    return "CC_OK"


def row_error(status: str, row: int, once: int = 0, of: str = "") -> BatchRowError:
    """The exception for a bad batch row, the same for both implementations. For
    ``CC_ERR_NOT_IN_DECK``, ``once`` (the row's once mask) names the card; ``of`` says
    which of the row's masks is at fault (``"unseen cards: "``), after the row."""
    if status == "CC_ERR_NOT_IN_DECK" and once & _EIGHTS_NINES:
        bad = once & _EIGHTS_NINES
        card = CARD_AT[(bad & -bad).bit_length() - 1]
        return BatchRowError(f"row {row}: {of}card {card} is not in the 40-card deck of "
                             "these rules (no eights or nines)", row)
    return BatchRowError(f"row {row}: {of}{status_error(status)}", row)


# ---------------------------------------------------------------- settle


def _who(seat: int) -> str:
    return ("the " if seat == 0 else "") + seat_label(seat)


def seat_name(seat: int) -> str:
    """How messages name a hand: seat 0 is the closer, k the k-th opponent."""
    return f"{_who(seat)}'s hand"


def _holders(card_bit: int, masks: Sequence[tuple[int, int]]) -> str:
    names = []
    for seat, (once, twice) in enumerate(masks):
        if once & card_bit:
            names.append(_who(seat) + (" (twice)" if twice & card_bit else ""))
    return ", ".join(names)


def _hand_masks(obj: HandLike, seat: int, rules: Rules) -> tuple[int, int, bool]:
    """``(once, twice, says_two_decks)`` of one seat's 7 cards; raises naming the hand:
    card text, a third copy, the number of cards, a card the rules' deck lacks."""
    if type(obj) is list and Hand.__init__ is not _PY_HAND_INIT:
        # the binding's Hand converts a list in C; anything it refuses is looked at
        # again below, which raises naming the seat
        try:
            obj = Hand(obj)
        except ValueError:
            pass
        else:
            if obj._twice:  # a card held twice: counted, but not a two-deck Hand
                return _checked_masks(obj._once, obj._twice, obj._n, False, seat, rules)
    if isinstance(obj, Hand):
        once, twice, n = obj.once, obj.twice, len(obj)
        two = obj.decks == 2
    else:
        try:
            cards = coerce_cards(obj)
        except ChinchonError as exc:
            raise type(exc)(f"{seat_name(seat)}: {exc}") from None
        once = twice = n = 0
        for c in cards:
            added = add_card(once, twice, c.index)
            if added is None:
                raise InvalidHandError(
                    f"card {c} appears three times in {seat_name(seat)}; at most two decks "
                    "are in play"
                )
            once, twice = added
            n += 1
        two = False
    return _checked_masks(once, twice, n, two, seat, rules)


def _checked_masks(once: int, twice: int, n: int, two: bool, seat: int, rules: Rules
                   ) -> tuple[int, int, bool]:
    """_hand_masks's checks of one seat's masks: 7 cards, all of the rules' deck."""
    if n != HAND_CARDS:
        raise deal_error("CC_ERR_CARD_COUNT", [(once, twice)], 0, -1, seat)
    if (once | twice) & ~rules.solver.card_mask:
        try:
            check_deck(once, twice, rules)
        except ChinchonError as exc:
            raise type(exc)(f"{seat_name(seat)}: {exc}") from None
    return once, twice, two


def deal_error(status: str, masks: Sequence[tuple[int, int]], seat: int, card: int,
               name_seat: Optional[int] = None) -> ChinchonError:
    """The error of a bad deal, as the C core reports it: ``status`` (its C name), the
    bad ``seat`` (an index into ``masks``) for a hand of the wrong size, the bad
    ``card`` (bit index) for a card three times or a duplicate in single-deck play.
    ``name_seat`` overrides how the seat is named (default: ``seat``)."""
    if status == "CC_ERR_CARD_COUNT":
        once, twice = masks[seat]
        n = bin(once).count("1") + bin(twice).count("1")
        text = " ".join(str(c) for c in mask_to_cards(once, twice)) or "(no cards)"
        who = seat_name(seat if name_seat is None else name_seat)
        return CardCountError(f"{who} must hold 7 cards, got {n}: {text}")
    bit = 1 << card
    if status == "CC_ERR_THREE_COPIES":
        return InvalidHandError(
            f"card {CARD_AT[card]} is in play three times ({_holders(bit, masks)}); "
            "no deal has more than two of a card"
        )
    if status == "CC_ERR_DUPLICATE":
        return DuplicateCardError(
            f"card {CARD_AT[card]} is held twice in single-deck play ({_holders(bit, masks)})"
        )
    cls, message = STATUS_ERRORS.get(status, (ChinchonError, f"native status {status}"))
    return cls(message)


def prepare_settle(closer7: HandLike, opponents: Any, decks: object,
                   rules: object) -> tuple[list[tuple[int, int]], int, Rules]:
    """Validate and coerce the arguments of ``settle``.

    Returns ``(masks, decks, rules)``: ``masks[0]`` is the closer's ``(once, twice)``,
    then one per opponent in play order. Raises, in this order: a bad ``rules`` or
    ``decks`` or number of opponents (:class:`ChinchonError`); card text that does not
    parse, a hand that is not 7 cards (:class:`CardCountError`), or a card the rules'
    deck does not have (:class:`InvalidHandError`), hand by hand from the closer on; a card
    in play three times (:class:`InvalidHandError`); a card held twice
    in single-deck play (:class:`DuplicateCardError`). Whether the closer may close is
    checked by the solver (:func:`cannot_close_error`).
    """
    rules = check_rules(rules)
    decks = check_decks(decks)
    if isinstance(opponents, (str, Hand)):
        opponents = [opponents]  # one opponent's hand passed on its own
    try:
        opponents = list(opponents)
    except TypeError:
        raise ChinchonError(
            f"opponents must be a list of hands, got {type(opponents).__name__}"
        ) from None
    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise ChinchonError(
            f"settle takes 1 to {MAX_OPPONENTS} opponents, got {len(opponents)}"
        )
    masks = []
    says_two = False
    for seat, obj in enumerate([closer7, *opponents]):
        once, twice, two = _hand_masks(obj, seat, rules)
        masks.append((once, twice))
        says_two = says_two or two
    # a card in play three times, across all hands
    acc_once = acc_twice = 0
    for once, twice in masks:
        three = (acc_twice & once) | (acc_once & twice)
        if three:
            raise deal_error("CC_ERR_THREE_COPIES", masks, -1, (three & -three).bit_length() - 1)
        acc_twice |= (acc_once & once) | twice
        acc_once |= once
    if decks is None:
        decks = 2 if (acc_twice or says_two) else decks_for(1 + len(opponents))
    if decks == 1 and acc_twice:
        raise deal_error("CC_ERR_DUPLICATE", masks, -1, (acc_twice & -acc_twice).bit_length() - 1)
    return masks, decks, rules


def cannot_close_error(closer: tuple[int, int], deadwood: int, rules: Rules) -> CannotCloseError:
    """The error for a closer over the close limit (same text in both implementations)."""
    text = " ".join(str(c) for c in mask_to_cards(*closer))
    return CannotCloseError(
        f"the closer cannot close: {text} has deadwood {deadwood}, over the close limit "
        f"{rules.close_limit}"
    )


# ---------------------------------------------------------------- outlook


def read_once(obj: Any) -> Any:
    """A one-shot iterable of cards (a generator, an iterator) as a list, read once, so
    that a function that reads its hand or its unseen cards twice (to check them, then
    for their order) sees them both times; anything else as it is."""
    if obj is None or isinstance(obj, (Hand, Card, str, list, tuple, bytes, bytearray,
                                       memoryview)):
        return obj
    try:
        items = iter(obj)
    except TypeError:
        return obj  # refused by name where it is read
    return list(items)


#: check_unseen's ``top`` when the call has none (outlook's): None is a bad top
NO_TOP: Any = object()


def check_unseen(hand: HandLike, unseen: object, decks: Optional[int], rules: Rules,
                 exact: int, top: object = NO_TOP) -> tuple[Hand, int, int, Optional[Card]]:
    """The arguments of ``outlook`` (``exact=8``) and ``draw_outlook`` (``exact=7``, with
    ``top``): ``(hand, unseen_once, unseen_twice, top)``, the hand as a :class:`Hand` of
    the call's number of decks.

    ``unseen`` is card text, an iterable of cards or a :class:`Hand` (a card listed twice
    is two unseen copies), or None: every card of the rules' deck(s) that the hand (and
    ``top``) does not hold. The number of decks is ``decks``, else 2 when the hand, the
    unseen cards or ``top`` hold a card twice between them (or either is a two-deck
    Hand), else 1. Raised, in this order: the hand's own errors (:func:`hand_for`); card
    text of ``unseen`` or ``top`` that does not parse (:class:`CardParseError`); a card
    the rules' deck lacks, in ``top`` or ``unseen`` (:class:`InvalidHandError`, naming
    it); a card both held (or the top) and unseen past the decks' copies
    (:class:`DuplicateCardError` with one deck, :class:`InvalidHandError` with two,
    naming it); no unseen card at all (:class:`ChinchonError`).
    """
    decks = check_decks(decks)
    h = hand_for(hand, decks, rules, exact=exact)
    top_card: Optional[Card] = None
    if top is None:
        raise CardCountError("top must be one card, got None")
    if top is not NO_TOP:
        tops = coerce_cards(top)  # type: ignore[arg-type]  # checked: CardParseError
        if len(tops) != 1:
            raise CardCountError(f"top must be one card, got {len(tops)}")
        top_card = tops[0]
    if unseen is None:
        cards: list[Card] = []
        two = False
    else:
        cards = coerce_cards(unseen)  # type: ignore[arg-type]  # checked: CardParseError
        two = isinstance(unseen, Hand) and unseen.decks == 2
    # every text read, then the cards the rules' deck lacks (the documented order)
    if top_card is not None and not rules.solver.card_mask >> top_card.index & 1:
        raise InvalidHandError("top: " + rules.solver.not_in_deck(top_card.index))
    for c in cards:
        if not rules.solver.card_mask >> c.index & 1:
            raise InvalidHandError("unseen: " + rules.solver.not_in_deck(c.index))
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.index] = counts.get(c.index, 0) + 1
    if decks is None:
        seen_twice = any(k >= 2 for k in counts.values()) or bool(
            top_card is not None and h.once >> top_card.index & 1)
        decks = 2 if (h.decks == 2 or two or seen_twice) else 1
        if decks != h.decks:
            h = hand_for(h, decks, rules, exact=exact)
    held = dict.fromkeys(range(64), 0)
    for c in h:
        held[c.index] += 1
    if top_card is not None:
        held[top_card.index] += 1
        if held[top_card.index] > decks:
            raise (DuplicateCardError if decks == 1 else InvalidHandError)(
                f"card {top_card} is both held and the top of the discard pile"
                + ("" if decks == 1 else ", a third copy with two decks"))
    if unseen is None:
        counts = {i: decks - held[i] for i in range(64)
                  if rules.solver.card_mask >> i & 1 and held[i] < decks}
    for i, k in sorted(counts.items()):
        if k + held[i] > decks:
            card = CARD_AT[i]
            if held[i]:
                what = "held" if top_card is None or i != top_card.index else "held or the top"
                raise (DuplicateCardError if decks == 1 else InvalidHandError)(
                    f"card {card} is both {what} and unseen"
                    + ("" if decks == 1 else f": {held[i] + k} copies with two decks"))
            raise (DuplicateCardError if decks == 1 else InvalidHandError)(
                f"card {card} is unseen {k} times with {decks} deck{'s' if decks > 1 else ''}")
    if not counts:
        raise ChinchonError("unseen holds no card: there is nothing to draw")
    u_once = u_twice = 0
    for i, k in counts.items():
        u_once |= 1 << i
        if k == 2:
            u_twice |= 1 << i
    return h, u_once, u_twice, top_card


def unseen_row_status(once: int, twice: int, u_once: int, u_twice: int, decks: int,
                      rules: Rules) -> str:
    """The C status of a batch row's unseen masks (the hand's checked first): bits that
    are no card, twice not within once, an eight or nine with 40 cards, a card held and
    unseen past the decks' copies (CC_ERR_DUPLICATE with one deck, else
    CC_ERR_THREE_COPIES), no unseen card (CC_ERR_CARD_COUNT)."""
    lanes = rules.solver.card_mask
    if (u_once | u_twice) & ~(LANE_MASK | lanes):
        return "CC_ERR_LANE_BITS"
    if u_twice & ~u_once:
        return "CC_ERR_TWICE_NOT_SUBSET"
    if u_once & ~lanes:
        return "CC_ERR_NOT_IN_DECK"
    if decks == 1 and (u_once & once):
        return "CC_ERR_DUPLICATE"
    if decks == 2 and ((u_twice & once) | (twice & u_once)):
        return "CC_ERR_THREE_COPIES"
    if u_once == 0:
        return "CC_ERR_CARD_COUNT"
    return "CC_OK"


def unseen_row_error(status: str, row: int, u_once: int) -> BatchRowError:
    """The exception of a bad unseen row (both implementations)."""
    if status == "CC_ERR_CARD_COUNT":
        return BatchRowError(f"row {row}: no unseen card", row)
    return row_error(status, row, u_once, of="unseen cards: ")
