"""What one seat is shown: the ``view`` message (docs/protocol.md, "view").

A view is built from :meth:`chinchon.Game.observation` of that seat (its own cards
only, the discard pile's top card, counts and the public record of the last closed
hand) plus the table's public state, the seat's discard hints on its own turn, what it
may do now, and the last event as that seat may know it: a card drawn from the stock
is named only to the seat that drew it, the closing card to nobody but the closer.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import Any, Optional, Sequence

from .protocol import PROTOCOL_VERSION
from .tables import Table

__all__ = ["view_for", "event_for", "lobby_entry"]

# the fields of an event record that any seat may see; ``card`` is handled apart
_PUBLIC_EVENT_FIELDS = ("kind", "seat", "source", "name", "seats")


def event_for(record: Optional[dict[str, Any]], you: int) -> Optional[dict[str, Any]]:
    """The last event as seat ``you`` may know it (no token hash, no seed, no hidden
    card)."""
    if record is None:
        return None
    out = {k: record[k] for k in _PUBLIC_EVENT_FIELDS if k in record}
    kind = record.get("kind")
    card = record.get("card")
    if card is not None:
        if kind == "discard" or (kind == "draw" and record.get("source") == "discard"):
            out["card"] = card          # face up on the discard pile: public
        elif record.get("seat") == you:
            out["card"] = card          # your own stock draw or closing card
    return out


def view_for(table: Table, you: int, *, connected: Sequence[bool], now: float,
             summary_seconds: float) -> dict[str, Any]:
    """The ``view`` message for seat ``you`` of ``table`` at clock ``now``."""
    game = table.game
    seats = []
    for i, s in enumerate(table.seats):
        d = s.public()
        d["connected"] = bool(connected[i]) if s.kind == "human" else s.kind == "bot"
        seats.append(d)
    view: dict[str, Any] = {
        "type": "view",
        "v": PROTOCOL_VERSION,
        "table": table.id,
        "seq": table.seq,
        "you": you,
        "status": table.status,
        "preset": table.preset,
        "rules": asdict(table.rules),
        "seats": seats,
        "event": event_for(table.last, you),
        "can": {"start": False, "leave": False, "draw": [], "discard": False,
                "close": False, "rejoin": False, "ready": False},
        "game": None,
        "result": None,
    }
    can = view["can"]
    if game is None:
        if table.status == "waiting":
            can["start"] = you == 0
            can["leave"] = you != 0
        else:
            view["result"] = {"status": "cancelled", "winner": None, "reason": table.reason}
        return view

    obs = game.observation(you)
    chinchon = sys.modules["chinchon"]
    held = game.held(you)
    arrangement = chinchon.best_melds(held, decks=game.decks) if held else None
    wait = table.rules.reconnect_seconds
    g: dict[str, Any] = {
        "phase": obs["phase"],
        "turn": obs["turn"],
        "lead": obs["lead"],
        "hand_number": obs["hand_number"],
        "hand": obs["hand"],
        "melds": [] if arrangement is None else [[str(c) for c in m.cards]
                                                 for m in arrangement.melds],
        "deadwood": None if arrangement is None or len(held) != 7 else arrangement.points,
        "discard_top": obs["discard_top"],
        "discard_size": obs["discard_size"],
        "stock_size": obs["stock_size"],
        "totals": obs["totals"],
        "in_game": obs["in_game"],
        "chips": obs["chips"],
        "disconnected": {str(s): round(max(0.0, t + wait - now), 1)
                         for s, t in game.disconnected.items()},
        "hints": None,
        "last_hand": obs["last_hand"],
        "summary": None,
    }
    view["game"] = g
    view["result"] = obs["result"]
    if game.result is not None:
        return view
    phase = game.phase
    mine = game.turn == you and you not in game.disconnected
    if phase == "draw" and mine:
        can["draw"] = [a[1] for a in game.legal_actions()]
    elif phase == "discard" and mine:
        hints = game.hints()
        g["hints"] = {str(h.card): {"points": h.points, "close": h.outcome} for h in hints}
        can["discard"] = True
        can["close"] = any(h.can_close for h in hints)
    elif phase == "summary":
        can["rejoin"] = ("rejoin", you) in game.legal_actions()
        can["ready"] = not table.ready[you]
        since = table.summary_since if table.summary_since is not None else now
        g["summary"] = {"ready": list(table.ready),
                        "seconds_left": round(max(0.0, since + summary_seconds - now), 1)}
    return view


def lobby_entry(table: Table, connected: Sequence[bool]) -> dict[str, Any]:
    """A table as the lobby lists it."""
    return {
        "id": table.id,
        "status": table.status,
        "preset": table.preset,
        "players": table.players,
        "open": len(table.open_seats()),
        "seats": [dict(s.public(), connected=bool(connected[i]) if s.kind == "human"
                       else s.kind == "bot") for i, s in enumerate(table.seats)],
        "hand_number": table.game.hand_number if table.game is not None else 0,
    }
