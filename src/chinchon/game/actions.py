"""The moves of the game as typed values with JSON forms.

Each action is a small immutable tuple subclass: :class:`Draw`, :class:`Discard`,
:class:`Rejoin` and :class:`NextHand`. Being tuples, they are equal to (and unpack
like) the plain tuples that :meth:`Game.apply` has always taken --
``Draw("stock") == ("draw", "stock")`` -- so older callers keep working, while new ones
get names (``action.kind``, ``action.card``) and a JSON form (:meth:`Action.to_json`,
:func:`action_from_json`) that a server can receive and validate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ..cards import Card, as_card
from ..errors import IllegalAction, shown
from ..results import one_per_card

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["Action", "Draw", "Discard", "Rejoin", "NextHand", "as_action", "action_from_json",
           "legal_actions", "apply_action", "SOURCES"]

#: where a player may draw from
SOURCES = ("stock", "discard")


class Action(tuple):  # type: ignore[type-arg]
    """Base class of the moves; ``kind`` names the move."""

    __slots__ = ()
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        """The move as JSON-ready data (``{"action": kind, ...}``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}{tuple(self[1:])!r}"


class Draw(Action):
    """Draw the top card of the ``'stock'`` or of the ``'discard'`` pile."""

    __slots__ = ()
    kind = "draw"

    def __new__(cls, source: str) -> Draw:
        return tuple.__new__(cls, ("draw", source))

    @property
    def source(self) -> str:
        return self[1]  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        return {"action": "draw", "source": self.source}


class Discard(Action):
    """Discard ``card``; ``close=True`` closes the hand with it instead."""

    __slots__ = ()
    kind = "discard"

    def __new__(cls, card: Union[Card, str], close: bool = False) -> Discard:
        return tuple.__new__(cls, ("discard", card, close))

    @property
    def card(self) -> Union[Card, str]:
        return self[1]  # type: ignore[no-any-return]

    @property
    def close(self) -> bool:
        return self[2]  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        return {"action": "discard", "card": str(self.card), "close": self.close}


class Rejoin(Action):
    """In the summary of a hand, an eliminated ``seat`` spends a chip to come back."""

    __slots__ = ()
    kind = "rejoin"

    def __new__(cls, seat: int) -> Rejoin:
        return tuple.__new__(cls, ("rejoin", seat))

    @property
    def seat(self) -> int:
        return self[1]  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        return {"action": "rejoin", "seat": self.seat}


class NextHand(Action):
    """The host opens the next hand (optionally dealt from ``deck``, an exact order)."""

    __slots__ = ()
    kind = "next_hand"

    def __new__(cls, deck: Optional[Sequence[Any]] = None) -> NextHand:
        return tuple.__new__(cls, ("next_hand",) if deck is None else ("next_hand", deck))

    @property
    def deck(self) -> Optional[Sequence[Any]]:
        return self[1] if len(self) > 1 else None

    def to_json(self) -> dict[str, Any]:
        deck = self.deck
        return {"action": "next_hand",
                "deck": None if deck is None else [str(as_card(c)) for c in deck]}


_BY_KIND: dict[str, Any] = {"draw": Draw, "discard": Discard, "rejoin": Rejoin,
                            "next_hand": NextHand}
_ARITY = {"draw": (1,), "discard": (1, 2), "rejoin": (1,), "next_hand": (0, 1)}


def as_action(action: object) -> Action:
    """A typed action from an action or a plain tuple such as ``('draw', 'stock')``;
    :class:`IllegalAction` for anything that is not a move."""
    if isinstance(action, Action):
        return action
    if not isinstance(action, (tuple, list)):  # 5, None, 'draw': not a move
        raise IllegalAction(f"an action is a tuple such as ('draw', 'stock'), got {shown(action)}")
    if not action:
        raise IllegalAction("empty action")
    kind, *args = action
    if isinstance(kind, str) and kind in _BY_KIND and len(args) in _ARITY[kind]:
        return _BY_KIND[kind](*args)  # type: ignore[no-any-return]
    raise IllegalAction(f"unknown action {shown(tuple(action))}")


#: the two draws (tuples: made once, shared by every list of legal actions)
_DRAW_STOCK, _DRAW_DISCARD = Draw("stock"), Draw("discard")


def legal_actions(state: GameState) -> list[Action]:
    """The moves ``state`` allows now (:meth:`GameState.legal_actions
    <chinchon.game.state.GameState.legal_actions>`), read from its public methods."""
    if state.result is not None:
        return []
    phase = state.phase
    if phase == "draw":
        out: list[Action] = []
        if state.stock_size or state.discard_size:
            out.append(_DRAW_STOCK)
        if state.discard_size:
            out.append(_DRAW_DISCARD)
        return out
    if phase == "discard":
        out = []
        for h in one_per_card(state.hints()):  # a double-deck copy: one move
            out.append(Discard(h.card, False))
            if h.can_close:
                out.append(Discard(h.card, True))
        return out
    # summary
    out = [Rejoin(s) for s in range(state.players) if state.rejoin_refused(s) is None]
    out.append(NextHand())
    return out


def apply_action(state: Any, action: object) -> Any:
    """Apply a move to ``state`` (a :class:`~chinchon.game.state.GameState` or a
    :class:`~chinchon.Game`): a typed action or one of the tuples of
    :func:`legal_actions`."""
    act = as_action(action)
    kind = act.kind
    if kind == "draw":
        return state.draw(act[1])
    if kind == "discard":
        return state.discard(*act[1:])
    if kind == "rejoin":
        return state.rejoin(act[1])
    return state.next_hand(*act[1:])


def action_from_json(data: object) -> Action:
    """The action of its JSON form (:meth:`Action.to_json`); :class:`IllegalAction`
    naming the problem for anything else."""
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is an object with an 'action' field, got {shown(data)}")
    kind = data.get("action")
    fields = {"draw": ("source",), "discard": ("card", "close"), "rejoin": ("seat",),
              "next_hand": ("deck",)}.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise IllegalAction(f"unknown action {shown(kind)}")
    extra = set(data) - {"action", *fields}
    if extra:
        raise IllegalAction(f"action {shown(kind)} has unknown fields "
                            f"{sorted(extra, key=repr)}")  # keys of any type from Python
    if kind == "draw":
        return Draw(_field(data, "source", str))
    if kind == "discard":
        close = data.get("close", False)
        if not isinstance(close, bool):
            raise IllegalAction(f"action 'discard': close must be true or false, got {shown(close)}")
        return Discard(_field(data, "card", str), close)
    if kind == "rejoin":
        seat = _field(data, "seat", int)
        return Rejoin(seat)
    deck = data.get("deck")
    if deck is not None and not (isinstance(deck, list) and all(isinstance(c, str) for c in deck)):
        raise IllegalAction("action 'next_hand': deck must be a list of card texts or null")
    return NextHand(deck)


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise IllegalAction(f"action {shown(data.get('action'))}: {name} must be a "
                            f"{kind.__name__}, got {shown(value)}")
    return value
