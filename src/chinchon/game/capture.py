"""The state as data: the names of its fields and their JSON-ready form.

:meth:`GameState.fields <chinchon.game.state.GameState.fields>` gives every field as
Python values; :func:`state_dict` writes them out (what
:meth:`GameState.to_dict <chinchon.game.state.GameState.to_dict>` returns, whose keys
are :data:`STATE_KEYS` and, when they say something, :data:`OPTIONAL_STATE_KEYS`). The
way back is :mod:`chinchon.game.snapshot`.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from .deck import card_order
from .rng import state_json

__all__ = ["PHASES", "STATE_KEYS", "OPTIONAL_STATE_KEYS", "MAX_SEED_BITS", "MAX_TOTAL",
           "state_dict", "cards_dict", "seen_dict", "cards_json", "seen_json"]

PHASES = ("draw", "discard", "summary", "over")

#: the fields of :meth:`GameState.to_dict <chinchon.game.state.GameState.to_dict>`
STATE_KEYS = ("names", "rules", "seed", "rng", "phase", "turn", "lead", "hand_number", "turns",
              "hands", "stock", "discard", "face_down", "totals", "in_game", "chips", "result",
              "last_hand")
#: the fields written only when they say something: ``taken``, per seat the cards it
#: took from the discard pile this hand and still holds; ``restocked``, the cards the
#: last reshuffle of this hand turned into the stock
OPTIONAL_STATE_KEYS = ("taken", "restocked")

#: a seed is an int of at most this many bits (either sign)
MAX_SEED_BITS = 256

#: a seat's name is at most this many characters: a game's snapshot stays far under
#: the size ``Game.from_json`` reads (a name of millions of characters made a game whose
#: own snapshot it refused)
MAX_NAME_CHARS = 256

#: the bound of a saved total (either sign): far past any game, where a hand moves a
#: total by less than 2**53 (the bound of the rules' numbers)
MAX_TOTAL = 2**128


def state_dict(fields: dict[str, Any], rng_state: Any) -> dict[str, Any]:
    """The JSON-ready form of the state's :meth:`~chinchon.game.state.GameState.fields`;
    ``rng_state`` is the generator's state written when ``fields`` hold none."""
    cap = fields
    state = cap["rng"] if cap["rng"] is not None else rng_state
    result, last = cap["result"], cap["last_hand"]
    return {
        "names": list(cap["names"]),
        "rules": cap["rules"].to_dict(),
        "seed": cap["seed"],
        "rng": state_json(state),
        "phase": cap["phase"],
        "turn": cap["turn"],
        "lead": cap["lead"],
        "hand_number": cap["hand_number"],
        "turns": cap["turns"],
        **cards_dict(cap),
        "totals": list(cap["totals"]),
        "in_game": list(cap["in_game"]),
        "chips": list(cap["chips"]),
        "result": None if result is None else result.to_dict(),
        "last_hand": None if last is None else last.to_dict(),
        **seen_dict(cap),
    }


#: a card's text (``str(card)``) without a Python call per card: the server writes
#: every card of a table's state with every event
_text = attrgetter("_str")


def _list_json(cards: Any) -> str:
    """Cards as a JSON array of their texts (a card's text needs no escaping)."""
    return '["' + '","'.join(map(_text, cards)) + '"]' if cards else "[]"


def cards_json(hands: Any, stock: Any, discard: Any, face_down: Any) -> str:
    """:func:`cards_dict` of these fields as JSON text without its braces, written
    straight from the cards (no list per pile): what the table server stores with
    every event."""
    return ('"hands":[' + ",".join(map(_list_json, hands)) + '],"stock":'
            + _list_json(stock) + ',"discard":' + _list_json(discard) + ',"face_down":'
            + ("null" if face_down is None else '"' + face_down._str + '"'))


def seen_json(taken: Any, restocked: Any) -> str:
    """:func:`seen_dict` of these fields as JSON text without its braces, each key
    after a comma ("" when it says nothing)."""
    text = ""
    if any(taken):
        text = ',"taken":[' + ",".join([_list_json(sorted(t, key=card_order))
                                         for t in taken]) + "]"
    if restocked is not None:
        text += ',"restocked":' + _list_json(restocked)
    return text


def cards_dict(fields: dict[str, Any]) -> dict[str, Any]:
    """The cards of the state's fields as text: ``hands``, ``stock``, ``discard`` and
    ``face_down``."""
    face_down = fields["face_down"]
    return {
        "hands": [list(map(_text, h)) for h in fields["hands"]],
        "stock": list(map(_text, fields["stock"])),
        "discard": list(map(_text, fields["discard"])),
        "face_down": None if face_down is None else str(face_down),
    }


def seen_dict(fields: dict[str, Any]) -> dict[str, Any]:
    """What every seat saw of the piles (:data:`OPTIONAL_STATE_KEYS`), as text, only
    where it says something: ``taken`` when some seat holds a card it took from the
    pile, ``restocked`` after a reshuffle (older snapshots have neither)."""
    d: dict[str, Any] = {}
    if any(fields["taken"]):
        d["taken"] = [list(map(_text, sorted(t, key=card_order))) for t in fields["taken"]]
    if fields["restocked"] is not None:
        d["restocked"] = list(map(_text, fields["restocked"]))
    return d
