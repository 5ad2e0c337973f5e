"""What one seat is shown: the ``view`` message (docs/protocol.md, "view").

A view has two halves with disjoint keys:

- the **public** half, the same for every seat at that moment: the table (seats,
  rules, status), the game's public state under ``game`` (whose turn, the discard
  pile's top card, counts, totals, chips, the public record of the last closed hand,
  the summary's countdown) and the result;
- the **private** half, for one seat: ``you``, your ``hand`` in table order (melds
  first) with its ``melds`` and ``deadwood``, your discard ``hints`` on your own turn,
  what you ``can`` do now, and the last ``event`` as you may know it (a card drawn
  from the stock is named only to the seat that drew it, the closing card to nobody
  but the closer).

These are the fields of :meth:`chinchon.Game.observation` for that seat (read
directly, to build the public half once for every seat) plus the server's own. The
public half is encoded to JSON once per event and joined to each seat's private half
(:func:`encode_views`), so a table of six costs one big encoding, not six.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence

from .protocol import PROTOCOL_VERSION
from .tables import Table

__all__ = ["view_for", "public_view", "private_view", "encode_views", "event_for",
           "lobby_entry"]

# the fields of an event record that any seat may see; ``card`` is handled apart
_PUBLIC_EVENT_FIELDS = ("kind", "seat", "source", "name")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def event_for(record: Optional[dict[str, Any]], you: int) -> Optional[dict[str, Any]]:
    """The last event as seat ``you`` may know it (no token hash, no seed, no clock, no
    hidden card)."""
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


def public_view(table: Table, *, connected: Sequence[bool], now: float,
                summary_seconds: float) -> dict[str, Any]:
    """The half of every seat's view that is the same for all seats."""
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
        "status": table.status,
        "preset": table.preset,
        "rules": table.rules_dict,
        "seats": seats,
        "game": None,
        "result": None,
    }
    game = table.game
    if game is None:
        if table.status == "over":
            view["result"] = {"status": "cancelled", "winner": None, "reason": table.reason}
        return view
    top = game.discard_top
    result = game.result
    wait = table.rules.reconnect_seconds
    summary = None
    if game.phase == "summary" and result is None:
        since = table.summary_since if table.summary_since is not None else now
        summary = {"ready": list(table.ready),
                   "seconds_left": round(max(0.0, since + summary_seconds - now), 1)}
    view["game"] = {
        "phase": game.phase,
        "turn": game.turn,
        "lead": game.lead,
        "hand_number": game.hand_number,
        "discard_top": None if top is None else str(top),
        "discard_size": game.discard_size,
        "stock_size": game.stock_size,
        "totals": list(game.totals),
        "in_game": list(game.in_game),
        "chips": list(game.chips),
        "disconnected": {str(s): round(max(0.0, t + wait - now), 1)
                         for s, t in game.disconnected.items()},
        "last_hand": table.last_hand_dict(),
        "summary": summary,
    }
    view["result"] = None if result is None else result.to_dict()
    return view


def private_view(table: Table, you: int) -> dict[str, Any]:
    """The half of the view that only seat ``you`` gets."""
    can: dict[str, Any] = {"start": False, "leave": False, "draw": [], "discard": False,
                           "close": False, "rejoin": False, "ready": False}
    out: dict[str, Any] = {"you": you, "hand": [], "melds": [], "deadwood": None,
                           "hints": None, "can": can, "event": event_for(table.last, you)}
    game = table.game
    if game is None:
        if table.status == "waiting":
            can["start"] = you == 0
            can["leave"] = you != 0
        return out
    hand, melds, deadwood = table.arranged(you)
    out["hand"], out["melds"], out["deadwood"] = hand, melds, deadwood
    if game.result is not None:
        return out
    phase = game.phase
    mine = game.turn == you and you not in game.disconnected
    if phase == "draw" and mine:
        can["draw"] = [a[1] for a in game.legal_actions()]
    elif phase == "discard" and mine:
        hints = game.hints()
        out["hints"] = {str(h.card): {"points": h.points, "close": h.outcome} for h in hints}
        can["discard"] = True
        can["close"] = any(h.can_close for h in hints)
    elif phase == "summary":
        can["rejoin"] = ("rejoin", you) in game.legal_actions()
        can["ready"] = not table.ready[you]
    return out


def view_for(table: Table, you: int, *, connected: Sequence[bool], now: float,
             summary_seconds: float) -> dict[str, Any]:
    """The whole ``view`` message for seat ``you`` as a dict."""
    view = public_view(table, connected=connected, now=now, summary_seconds=summary_seconds)
    view.update(private_view(table, you))
    return view


def encode_views(table: Table, seats: Sequence[int], *, connected: Sequence[bool], now: float,
                 summary_seconds: float) -> dict[int, str]:
    """The ``view`` message of each of ``seats`` as JSON text, equal to
    ``json.dumps(view_for(...))``: the public half is encoded once and each seat's
    private half is appended to it (the halves share no key)."""
    public = _dumps(public_view(table, connected=connected, now=now,
                                summary_seconds=summary_seconds))
    head = public[:-1] + ","
    return {seat: head + _dumps(private_view(table, seat))[1:] for seat in seats}


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
