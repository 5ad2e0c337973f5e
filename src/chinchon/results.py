"""Plain result values returned by both implementations (native and reference).

They are frozen dataclasses; ``to_dict()`` gives data that ``json.dumps`` takes as it is.
The ones a settlement is made of keep their fields in ``__slots__`` (see :func:`_slotted`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import FrozenInstanceError, dataclass, fields
from typing import Any, NamedTuple, Optional, TypeVar, cast

from .cards import CARD_AT, Card, card_index, lane_of

__all__ = [
    "Meld",
    "Arrangement",
    "Hint",
    "OUTCOMES",
    "CLOSE_OUTCOMES",
    "HAND_OUTCOMES",
    "TableMeld",
    "CloserResult",
    "OpponentResult",
    "Settlement",
    "build_settlement",
    "seat_label",
    "one_per_card",
    "Prospect",
    "Outlook",
    "DrawOutlook",
    "prospect_of",
]

#: outcome names by the C core's cc_outcome code (0 = cannot close)
OUTCOMES: tuple[Optional[str], ...] = (None, "normal", "minus_ten", "chinchon",
                                       "joker_chinchon")
#: the outcomes of a close (a settlement's), in cc_outcome order
CLOSE_OUTCOMES: tuple[str, ...] = ("normal", "minus_ten", "chinchon", "joker_chinchon")
#: how a hand can end: a close's outcome, or ``'void'`` (``Rules.void_at_stock``)
HAND_OUTCOMES: tuple[str, ...] = CLOSE_OUTCOMES + ("void",)


def seat_label(position: int) -> str:
    """How a settlement position is named: 0 the closer, k the k-th opponent."""
    return "closer" if position == 0 else f"opponent {position}"


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in fields(self)]


def _setstate(self: Any, state: Any) -> None:
    # a list of field values (_getstate); a dict from a pickle made before the fields
    # were slots, where a field left at its default may be missing
    if isinstance(state, dict):
        state = [state.get(f.name, f.default) for f in fields(self)]
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)


_C = TypeVar("_C", bound=type)


def _slotted(cls: _C) -> _C:
    """A frozen dataclass again, its fields kept in ``__slots__`` (``__weakref__`` too, as
    before): what ``dataclass(slots=True)`` does from Python 3.10, here for 3.9 as well.

    The native settlement is made of a dozen of these per call: the binding allocates
    each and stores its fields straight into the slots (``_core/_results.pyx``), with no
    instance dictionary to build or free. Equality, hash, repr, ``to_dict``, pickling and
    copying stay as they were; only ``vars()`` of a result is gone."""
    names = [f.name for f in fields(cls)]
    inherited = {s for base in cls.__mro__[1:-1] for s in base.__dict__.get("__slots__", ())}
    body = dict(cls.__dict__)
    for name in (*names, "__dict__", "__weakref__"):
        body.pop(name, None)  # the defaults live on in __init__ and in fields()
    own = tuple(n for n in names if n not in inherited)
    body["__slots__"] = own if "__weakref__" in inherited else (*own, "__weakref__")
    body["__getstate__"] = _getstate
    body["__setstate__"] = _setstate

    # dataclass's own __setattr__/__delattr__ name the class they were made for (their
    # super() call would refuse the new one): made again for it
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is new or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(new, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is new or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(new, self).__delattr__(name)

    body["__setattr__"] = __setattr__
    body["__delattr__"] = __delattr__
    new: Any = type(cls)(cls.__name__, cls.__bases__, body)
    new.__qualname__ = cls.__qualname__
    return cast(_C, new)


def _joker_key(kind: str, cards: tuple[Card, ...], joker: Optional[Card],
               joker_rank: Optional[int]) -> tuple[int, ...]:
    """The tie-break key of docs/rules.md#which-arrangement-is-reported: the natural cards' bit indices ascending
    (copies repeated); with a joker, then ``64 + joker bit`` and, in a run, the bit
    index of the card it stands for."""
    if joker is None:
        return tuple(c.index for c in cards)
    naturals = list(c.index for c in cards)
    naturals.remove(joker.index)
    key = (*naturals, 64 + joker.index)
    if kind == "run":
        assert joker_rank is not None
        lane = lane_of(next(c for c in cards if c.index != joker.index).index)
        key += (card_index(joker_rank, lane),)
    return key


def _joker_fields(d: dict[str, Any], joker: Optional[Card], joker_rank: Optional[int]
                  ) -> dict[str, Any]:
    d["joker"] = None if joker is None else str(joker)
    d["joker_rank"] = joker_rank
    return d


def _repr(obj: Any) -> str:
    """The dataclass repr, without the joker fields when there is no joker (so a meld of
    the house rules reads as it always has)."""
    names = [f.name for f in fields(obj)]
    if obj.joker is None:
        names = [n for n in names if n not in ("joker", "joker_rank")]
    return f"{type(obj).__name__}({', '.join(f'{n}={getattr(obj, n)!r}' for n in names)})"


def _in_place(kind: str, cards: tuple[Card, ...], joker: Optional[Card],
              joker_rank: Optional[int]) -> list[Card]:
    """A meld's cards as a table shows them: a run in rank order with its joker in its
    place, a set's joker last (without a joker: ascending card order)."""
    if joker is None:
        return list(cards)
    rest = list(cards)
    rest.remove(joker)
    if kind == "set":
        return [*rest, joker]
    place = joker_rank or 0
    return [c for c in rest if c.rank < place] + [joker] + [c for c in rest if c.rank > place]


def _shown(kind: str, cards: tuple[Card, ...], joker: Optional[Card],
           joker_rank: Optional[int]) -> str:
    """A meld as text, in table order; a run's joker written ``*1(5o)``."""
    words = []
    for c in _in_place(kind, cards, joker, joker_rank):
        if c is joker and kind == "run":
            words.append(f"{c}({joker_rank}{next(x for x in cards if x is not joker).suit})")
        else:
            words.append(str(c))
    return " ".join(words)


@_slotted
@dataclass(frozen=True)
class Meld:
    """A meld: ``kind`` is ``'set'`` (same rank; *grupo*) or ``'run'`` (same suit,
    consecutive ranks; *escalera*); ``cards`` in ascending card order, a joker included.

    Under rules with jokers a meld holds at most one: ``joker`` is that card (``*1``,
    ``*2``, or ``1o`` under the wild ace) and ``joker_rank`` the rank it stands for (in a
    run the rank it fills; in a set the set's rank); both ``None`` without a joker.
    """

    kind: str
    cards: tuple[Card, ...]
    joker: Optional[Card] = None
    joker_rank: Optional[int] = None

    @property
    def key(self) -> tuple[int, ...]:
        """The tie-break key of docs/rules.md#which-arrangement-is-reported: the natural cards' ascending bit indices
        (copies repeated); with a joker, then ``64 + the joker's bit`` and, in a run, the
        bit index of the card it stands for."""
        return _joker_key(self.kind, self.cards, self.joker, self.joker_rank)

    @property
    def stands_for(self) -> Optional[Card]:
        """The card a run's joker stands for (``None`` without a joker, or in a set)."""
        if self.joker is None or self.kind != "run" or self.joker_rank is None:
            return None
        suit = next(c for c in self.cards if c is not self.joker).suit
        return Card(self.joker_rank, suit)

    @property
    def points(self) -> int:
        """Sum of the cards' :attr:`Card.points` (the default point table)."""
        return sum(c.points for c in self.cards)

    def table_order(self) -> list[Card]:
        """The meld's cards as a table shows them: a run in rank order with its joker
        in its place, a set's joker last (without a joker: ascending card order)."""
        return _in_place(self.kind, self.cards, self.joker, self.joker_rank)

    def __str__(self) -> str:
        return _shown(self.kind, self.cards, self.joker, self.joker_rank)

    def __repr__(self) -> str:
        return _repr(self)

    def to_dict(self) -> dict[str, Any]:
        """``kind``, ``cards``, ``joker`` (its text, or None) and ``joker_rank``."""
        return _joker_fields({"kind": self.kind, "cards": [str(c) for c in self.cards]},
                             self.joker, self.joker_rank)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Meld:
        """The meld that :meth:`to_dict` wrote."""
        joker = d.get("joker")
        return cls(d["kind"], _cards_of(d["cards"]),
                   None if joker is None else Card.parse(joker), d.get("joker_rank"))


@_slotted
@dataclass(frozen=True)
class Arrangement:
    """An optimal way to meld a hand: ``melds``, the ``unmatched`` cards and their
    ``points`` (the deadwood)."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    points: int

    def table_order(self) -> list[Card]:
        """The cards in the order a table shows a hand: the melds first (each sorted; a
        run's joker in its place, a set's last), then the unmatched cards ascending."""
        return [c for m in self.melds
                for c in m.table_order()] + list(self.unmatched)

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [m.to_dict() for m in self.melds],
            "unmatched": [str(c) for c in self.unmatched],
            "points": self.points,
        }


class Hint(NamedTuple):
    """What discarding ``card`` leaves: the deadwood ``points`` of the 7 cards kept,
    whether they ``can_close``, and the ``outcome`` of closing (``None`` when closing
    is not allowed, else ``'normal'``, ``'minus_ten'``, ``'chinchon'`` or
    ``'joker_chinchon'``).

    A named tuple rather than a dataclass: a server builds eight of these every turn.
    """

    card: Card
    points: int
    can_close: bool
    outcome: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "points": self.points,
            "can_close": self.can_close,
            "outcome": self.outcome,
        }


class Prospect(NamedTuple):
    """What a 7-card hand can expect of the next draw (docs/rules.md#the-outlook-one-draw-ahead):
    the next card is drawn uniformly from the unseen cards (each copy one chance), then
    the best of the 8 cards is discarded. ``expected_points``: the mean deadwood left;
    ``p_close``: the chance that those 7 cards may close; ``p_minus_ten``,
    ``p_chinchon``: the chance of a minus-ten close, of a chinchón close (a joker
    chinchón included), ``p_joker_chinchon`` the part of ``p_chinchon`` that is a joker
    chinchón. ``draws``: the number of unseen cards the draw is over (1 for a card taken
    from the discard pile: the chances are then 0 or 1)."""

    expected_points: float
    p_close: float
    p_minus_ten: float
    p_chinchon: float
    p_joker_chinchon: float
    draws: int

    def to_dict(self) -> dict[str, Any]:
        return dict(self._asdict())


def prospect_of(draws: int, points_sum: int, counts: Sequence[int]) -> Prospect:
    """The :class:`Prospect` of exact counts: ``draws`` equally likely draws, the sum of
    their best points, and how many draws end in each best outcome, by cc_outcome code
    (0 cannot close, 1 normal, 2 minus ten, 3 chinchón, 4 joker chinchón). Both
    implementations divide here, so they give the same floats."""
    return Prospect(points_sum / draws, (draws - counts[0]) / draws, counts[2] / draws,
                    (counts[3] + counts[4]) / draws, counts[4] / draws, draws)


class Outlook(NamedTuple):
    """One line of :func:`~chinchon.outlook`: discarding ``card`` leaves ``points`` now
    (with ``can_close`` and ``outcome`` as in :class:`Hint`), and the next draw's
    :class:`Prospect` fields for the 7 cards kept."""

    card: Card
    points: int
    can_close: bool
    outcome: Optional[str]
    expected_points: float
    p_close: float
    p_minus_ten: float
    p_chinchon: float
    p_joker_chinchon: float
    draws: int

    @property
    def prospect(self) -> Prospect:
        return Prospect(*self[4:])

    def to_dict(self) -> dict[str, Any]:
        d = dict(self._asdict())
        d["card"] = str(self.card)
        return d


class DrawOutlook(NamedTuple):
    """The value of each draw for a 7-card hand: ``take`` the discard pile's ``top``
    (certain: the best discard of the 8 cards then) or draw from the ``stock`` (a uniform
    card of the unseen ones), each as a :class:`Prospect`."""

    top: Card
    take: Prospect
    stock: Prospect

    def to_dict(self) -> dict[str, Any]:
        return {"top": str(self.top), "take": self.take.to_dict(),
                "stock": self.stock.to_dict()}


def one_per_card(hints: Sequence[Hint]) -> list[Hint]:
    """The hints with a double-deck copy's second hint dropped (the two copies of a card
    are next to each other and leave the same 7 cards: one move, one line)."""
    out: list[Hint] = []
    for h in hints:
        if not out or out[-1].card is not h.card:
            out.append(h)
    return out


@_slotted
@dataclass(frozen=True)
class TableMeld:
    """A meld on the table after a close. ``owner`` is 0 for the closer and k for the
    k-th opponent in play order (1-based); ``open`` says whether lay-offs were allowed
    onto it (False only for the closer's melds after minus ten or joker chinchón).
    ``cards`` are the final cards, lay-offs included, in ascending card order; ``joker``
    and ``joker_rank`` as for :class:`Meld` (a joker laid off onto it included)."""

    kind: str
    cards: tuple[Card, ...]
    owner: int
    open: bool
    joker: Optional[Card] = None
    joker_rank: Optional[int] = None

    def __repr__(self) -> str:
        return _repr(self)

    def to_dict(self) -> dict[str, Any]:
        return _joker_fields({
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "owner": self.owner,
            "open": self.open,
        }, self.joker, self.joker_rank)


@_slotted
@dataclass(frozen=True)
class CloserResult(Arrangement):
    """The closer's side of a settlement: their arrangement, with ``points`` the hand
    points (the deadwood, ``-minus_ten`` on minus ten, ``-joker_chinchon`` on a joker
    chinchón, 0 on chinchón)."""


@_slotted
@dataclass(frozen=True)
class OpponentResult:
    """One opponent's optimal play: own ``melds``, ``layoffs`` as ``(card,
    table_meld_index)`` in the order applied, ``unmatched`` cards and ``points``."""

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    unmatched: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [m.to_dict() for m in self.melds],
            "layoffs": [[str(c), i] for c, i in self.layoffs],
            "unmatched": [str(c) for c in self.unmatched],
            "points": self.points,
        }


@_slotted
@dataclass(frozen=True)
class Settlement:
    """The settlement of a closed hand (docs/rules.md#laying-off): ``outcome`` (``'normal'``,
    ``'minus_ten'``, ``'chinchon'``, ``'joker_chinchon'``), the ``closer`` and
    ``opponents`` results, the final
    ``table`` (melds in the order they were put down) and ``points``: the hand points
    per position, closer first, then the opponents in play order."""

    outcome: str
    closer: CloserResult
    opponents: tuple[OpponentResult, ...]
    table: tuple[TableMeld, ...]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "closer": self.closer.to_dict(),
            "opponents": [o.to_dict() for o in self.opponents],
            "table": [t.to_dict() for t in self.table],
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settlement:
        """The settlement that :meth:`to_dict` wrote."""
        c = d["closer"]
        return cls(
            d["outcome"],
            CloserResult(_melds_of(c["melds"]), _cards_of(c["unmatched"]), c["points"]),
            tuple(
                OpponentResult(_melds_of(o["melds"]),
                               tuple((Card.parse(x), int(i)) for x, i in o["layoffs"]),
                               _cards_of(o["unmatched"]), o["points"])
                for o in d["opponents"]
            ),
            tuple(TableMeld(t["kind"], _cards_of(t["cards"]), t["owner"], t["open"],
                            None if t.get("joker") is None else Card.parse(t["joker"]),
                            t.get("joker_rank"))
                  for t in d["table"]),
            tuple(d["points"]),
        )


def _cards_of(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def _melds_of(ds: Sequence[dict[str, Any]]) -> tuple[Meld, ...]:
    return tuple(Meld.from_dict(d) for d in ds)


# --------------------------------------------------------------- from plain data
#
# What the reference solver hands to build_settlement:
#   meld    = (kind, cards, joker, joker_rank)   kind 'set'/'run', cards = ascending bit
#             indices (the joker's included), joker = its bit index or None
#   closer  = (melds, unmatched, points)
#   opp     = (melds, layoffs, unmatched, points), layoffs = [(bit index, table index)]
#   table   = [(kind, cards, owner, open, joker, joker_rank)]
#   (a meld or table entry without its last two items has no joker)


def _cards(key: Iterable[int]) -> tuple[Card, ...]:
    return tuple(CARD_AT[i] for i in key)  # type: ignore[misc]


def _meld(kind: str, key: Iterable[int], joker: Optional[int] = None,
          joker_rank: Optional[int] = None) -> Meld:
    return Meld(kind, _cards(key), None if joker is None else CARD_AT[joker], joker_rank)


def _table_meld(kind: str, key: Iterable[int], owner: int, is_open: bool,
                joker: Optional[int] = None, joker_rank: Optional[int] = None) -> TableMeld:
    return TableMeld(kind, _cards(key), owner, is_open,
                     None if joker is None else CARD_AT[joker], joker_rank)


def build_settlement(outcome: str, closer: Any, opponents: Sequence[Any], table: Sequence[Any],
                     points: Sequence[int]) -> Settlement:
    """The :class:`Settlement` of plain data (see the comment above)."""
    melds, unmatched, cpoints = closer
    return Settlement(
        outcome,
        CloserResult(tuple(_meld(*m) for m in melds), _cards(unmatched), cpoints),
        tuple(
            OpponentResult(
                tuple(_meld(*m) for m in omelds),
                tuple((CARD_AT[c], t) for c, t in layoffs),
                _cards(ounmatched),
                opoints,
            )
            for omelds, layoffs, ounmatched, opoints in opponents
        ),
        tuple(_table_meld(*t) for t in table),
        tuple(points),
    )
