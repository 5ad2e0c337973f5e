"""The state as data, a part of :class:`~chinchon.game.state.GameState`: every field
captured as Python values, and their JSON-ready form (:meth:`to_dict`; the fields are
:data:`~chinchon.game.state.STATE_KEYS` and
:data:`~chinchon.game.state.OPTIONAL_STATE_KEYS`). The way back is
:mod:`chinchon.game.snapshot`.

:class:`StateCapture` is a base of :class:`~chinchon.game.state.GameState` and holds no
state of its own: it reads the fields the state sets up in its constructor.
"""

from __future__ import annotations

from typing import Any, Optional

from ..cards import Card
from ..rules import Rules
from .deck import _index
from .records import GameResult, HandResult
from .rng import state_json

__all__ = ["StateCapture"]


class StateCapture:
    """Recording the state: the methods of :class:`~chinchon.game.state.GameState` that
    capture its fields and write them out."""

    # the fields of GameState this part reads (set by GameState.__init__)
    _names: tuple[str, ...]
    _rules: Rules
    _seed: int
    _rng: Any
    _phase: str
    _turn: Optional[int]
    _lead: int
    _hand_number: int
    _turns: int
    _hands: list[list[Card]]
    _stock: list[Card]
    _discard: list[Card]
    _face_down: Optional[Card]
    _taken: list[list[Card]]
    _restocked: Optional[list[Card]]
    _totals: list[int]
    _in: list[bool]
    _chips: list[int]
    _result: Optional[GameResult]
    _last: Optional[HandResult]

    def _capture(self, rng: bool = True) -> dict[str, Any]:
        """Every field of the state as Python values, copied where the game changes them
        in place (cheap: list copies, no text). ``rng=False`` leaves the generator's state
        out (``None``): it then stands for the generator's state whenever the capture is
        written out (what the table's log wants: see :mod:`chinchon.game.table`)."""
        return {
            "names": self._names, "rules": self._rules, "seed": self._seed,
            "rng": self._rng.getstate() if rng else None,
            "phase": self._phase, "turn": self._turn, "lead": self._lead,
            "hand_number": self._hand_number, "turns": self._turns,
            "hands": [list(h) for h in self._hands], "stock": list(self._stock),
            "discard": list(self._discard), "face_down": self._face_down,
            "taken": [list(t) for t in self._taken],
            "restocked": None if self._restocked is None else list(self._restocked),
            "totals": list(self._totals), "in_game": list(self._in), "chips": list(self._chips),
            "result": self._result, "last_hand": self._last,
        }

    def _state_dict(self, cap: dict[str, Any]) -> dict[str, Any]:
        """The JSON-ready form of a :meth:`_capture` (a ``None`` generator state: the
        current one)."""
        rng_state = cap["rng"] if cap["rng"] is not None else self._rng.getstate()
        result, last, face_down = cap["result"], cap["last_hand"], cap["face_down"]
        return {
            "names": list(cap["names"]),
            "rules": cap["rules"].to_dict(),
            "seed": cap["seed"],
            "rng": state_json(rng_state),
            "phase": cap["phase"],
            "turn": cap["turn"],
            "lead": cap["lead"],
            "hand_number": cap["hand_number"],
            "turns": cap["turns"],
            "hands": [[str(c) for c in h] for h in cap["hands"]],
            "stock": [str(c) for c in cap["stock"]],
            "discard": [str(c) for c in cap["discard"]],
            "face_down": None if face_down is None else str(face_down),
            "totals": list(cap["totals"]),
            "in_game": list(cap["in_game"]),
            "chips": list(cap["chips"]),
            "result": None if result is None else result.to_dict(),
            "last_hand": None if last is None else last.to_dict(),
            # only when some seat holds a card it took from the pile (older snapshots
            # have no such key)
            **({"taken": [[str(c) for c in sorted(t, key=_index)] for t in cap["taken"]]}
               if any(cap["taken"]) else {}),
            **({} if cap["restocked"] is None
               else {"restocked": [str(c) for c in cap["restocked"]]}),
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden cards included: for storage)."""
        return self._state_dict(self._capture())
