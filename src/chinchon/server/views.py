"""What one seat is shown: the ``view`` message (docs/protocol.md, "view").

A view has two halves with disjoint keys:

- the **public** half, the same for every seat at that moment: the table (seats,
  rules, status), the game's public state under ``game`` (whose turn, the discard
  pile's top card, counts, totals, chips, the public record of the last closed hand,
  the summary's countdown) and the result;
- the **private** half, for one seat: ``you``, your ``hand`` in table order (melds
  first) with its ``melds`` and ``deadwood`` and, laid out to be drawn, its
  ``arranged`` melds (kind, cards in table order, joker) and unmatched cards; your
  discard ``hints`` on your own turn and the ``close_card`` the page offers; what you
  ``can`` do now, and the last ``event`` as you may know it (a card drawn from the
  stock is named only to the seat that drew it, the closing card to nobody but the
  closer).

The page draws what it is sent (:mod:`chinchon.server.faces` decides how cards, melds
and outcomes are shown); it parses no card and classifies no meld.

These are the fields of :meth:`chinchon.Game.observation` for that seat (read
directly, to build the public half once for every seat) plus the server's own. The
public half is encoded to JSON once per event and joined to each seat's private half
(:func:`encode_views`), so a table of six costs one big encoding, not six.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .._backend import best_melds
from ..cards import Card
from ._json import encode
from .faces import close_card, outcome_note, shown_melds, summary_title, table_cards
from .protocol import CARD_TEXTS, PROTOCOL_VERSION
from .tables import Table

__all__ = ["view_for", "public_view", "private_view", "encode_views", "event_for",
           "lobby_entry"]

# the fields of an event record that any seat may see; ``card`` is handled apart (and
# _event_texts keeps the texts of these fields but the name by their values)
_PUBLIC_EVENT_FIELDS = ("kind", "seat", "source", "name")


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


def _seats(table: Table, connected: Sequence[bool]) -> list[dict[str, Any]]:
    seats = []
    for i, s in enumerate(table.seats):
        d = s.public()
        d["connected"] = bool(connected[i]) if s.kind == "human" else s.kind == "bot"
        seats.append(d)
    return seats


def _game_now(table: Table, now: float, summary_seconds: float,
              held: Optional[Sequence[Sequence[Any]]] = None) -> dict[str, Any]:
    """The view's ``game`` but its ``last_hand`` (which comes last, and changes only at
    a close); ``held``: every seat's cards (``game.held``), when already at hand."""
    game = table.game
    assert game is not None
    if held is None:
        held = [game.held(s) for s in range(table.players)]
    top = game.discard_top
    return {
        "phase": game.phase,
        "turn": game.turn,
        "lead": game.lead,
        "hand_number": game.hand_number,
        "discard_top": None if top is None else str(top),
        "discard_size": game.discard_size,
        "stock_size": game.stock_size,
        "hand_sizes": [len(h) for h in held],
        "totals": list(game.totals),
        "in_game": list(game.in_game),
        "chips": list(game.chips),
        "disconnected": _away(table, game.disconnected, now),
        "summary": _summary(table, now, summary_seconds),
    }


def _away(table: Table, disconnected: dict[int, float], now: float) -> dict[str, float]:
    """The view's ``game.disconnected``: each disconnected seat's seconds left."""
    wait = table.rules.reconnect_seconds
    return {str(s): round(max(0.0, t + wait - now), 1) for s, t in disconnected.items()}


def _summary(table: Table, now: float, summary_seconds: float) -> Optional[dict[str, Any]]:
    """The view's ``game.summary``: in the summary, who is ready and its seconds left."""
    game = table.game
    assert game is not None
    if game.phase != "summary" or game.result is not None:
        return None
    since = table.summary_since if table.summary_since is not None else now
    return {"ready": list(table.ready),
            "seconds_left": round(max(0.0, since + summary_seconds - now), 1)}


def _game_text(table: Table, now: float, summary_seconds: float,
               held: Sequence[Sequence[Any]]) -> str:
    """``_encode(_game_now(table, now, summary_seconds, held))`` less its closing
    brace, written from a template rather than a dict: numbers, texts of few values
    (encoded once), the scores (``totals``, ``in_game``, ``chips``) encoded once a
    change of theirs (kept on the table with their values), and the seats away and
    the summary encoded when there are any."""
    game = table.game
    assert game is not None
    cache = table.encoded
    phase, turn, lead, hand_number, top, discard_size, stock_size, totals, in_game, chips, \
        away = game.public_now()
    kept = cache.get("scores")
    if kept is None or kept[0] != totals or kept[1] != in_game or kept[2] != chips:
        kept = cache["scores"] = (list(totals), list(in_game), list(chips),
                                  ',"totals":' + _encode(totals) + ',"in_game":'
                                  + _encode(in_game) + ',"chips":' + _encode(chips))
    summary = None if phase != "summary" else _summary(table, now, summary_seconds)
    return (f'{{"phase":{_text(phase)},"turn":{"null" if turn is None else turn},'
            f'"lead":{lead},"hand_number":{hand_number},'
            f'"discard_top":{"null" if top is None else _CARD_TEXT[top.index]},'
            f'"discard_size":{discard_size},"stock_size":{stock_size},'
            f'"hand_sizes":{_encode(list(map(len, held)))}{kept[3]},'
            f'"disconnected":{_encode(_away(table, away, now)) if away else "{}"},'
            f'"summary":{"null" if summary is None else _encode(summary)}')


def _result(table: Table) -> Optional[dict[str, Any]]:
    game = table.game
    if game is None:
        if table.status == "over":
            return {"status": "cancelled", "winner": None, "reason": table.reason}
        return None
    return None if game.result is None else game.result.to_dict()


def public_view(table: Table, *, connected: Sequence[bool], now: float,
                summary_seconds: float) -> dict[str, Any]:
    """The half of every seat's view that is the same for all seats."""
    game = None
    if table.game is not None:
        game = _game_now(table, now, summary_seconds)
        game["last_hand"] = table.last_hand_dict()
        game["last_hand_shown"] = _last_hand_shown(table)
    return {
        "type": "view",
        "v": PROTOCOL_VERSION,
        "table": table.id,
        "seq": table.seq,
        "status": table.status,
        "preset": table.preset,
        "rules": table.rules_dict,
        "seats": _seats(table, connected),
        "game": game,
        "result": _result(table),
    }


def _private_rest(table: Table, you: int) -> dict[str, Any]:
    """The private half but its first fields (``you`` and the seat's cards: ``hand``,
    ``melds``, ``deadwood``, which change only when the seat's cards do)."""
    can: dict[str, Any] = dict(_CAN_NOTHING, draw=[])
    out: dict[str, Any] = {"hints": None, "close_card": None, "can": can,
                           "event": event_for(table.last, you)}
    game = table.game
    if game is None:
        if table.status == "waiting":
            can["start"] = you == 0
            can["leave"] = you != 0
        return out
    if game.result is not None:
        return out
    phase = game.phase
    mine = game.turn == you and you not in game.disconnected
    if phase == "draw" and mine:
        can["draw"] = [a[1] for a in game.legal_actions()]
    elif phase == "discard" and mine:
        hints = game.hints()
        out["hints"] = {str(h.card): {"points": h.points, "close": h.outcome} for h in hints}
        out["close_card"] = close_card(hints, table.rules)
        can["discard"] = True
        can["close"] = out["close_card"] is not None
    elif phase == "summary":
        can["rejoin"] = ("rejoin", you) in game.legal_actions()
        can["ready"] = not table.ready[you]
    return out


def _cards(table: Table, you: int) -> dict[str, Any]:
    """The seat's cards as the view shows them, ``{"you", "hand", "melds", "deadwood",
    "arranged"}``: the hand melds first, each meld in table order, then the rest; the
    deadwood only with 7 cards. (:func:`_seat_cards` writes its text.)"""
    game = table.game
    held = [] if game is None else game.held(you)
    if held:
        assert game is not None
        arrangement = best_melds(held, decks=game.decks, rules=game.rules)
        melds = shown_melds(arrangement.melds)
        unmatched = [str(c) for c in arrangement.unmatched]
        deadwood = arrangement.points if len(held) == 7 else None
    else:
        melds, unmatched, deadwood = [], [], None
    return {"you": you, "hand": [c for m in melds for c in m["cards"]] + unmatched,
            "melds": [m["cards"] for m in melds], "deadwood": deadwood,
            "arranged": {"melds": melds, "unmatched": unmatched}}


def _seat_cards(table: Table, you: int, held_now: Optional[list[Any]] = None) -> str:
    """``_encode(_cards(table, you))`` without its braces, written from the seat's
    arrangement with each card's text kept (:data:`_CARD_TEXT`) rather than through a
    dict; ``held_now``: the seat's cards (``game.held``), when already at hand.

    Kept on the table (``table.encoded[you]``) by the cards held, for the last two
    hands the seat held: every event shows every seat its hand, a hand changes for one
    seat an event, and a seat that discards the card it drew holds its hand of before
    the draw again."""
    game = table.game
    held = [] if game is None else game.held(you) if held_now is None else held_now
    cache = table.encoded
    kept = cache.get(you)
    if kept is not None:
        if kept[0][0] == held:
            return kept[0][1]  # type: ignore[no-any-return]  # the cache holds Any
        if len(kept) > 1 and kept[1][0] == held:
            cache[you] = (kept[1], kept[0])
            return kept[1][1]  # type: ignore[no-any-return]
    if held:
        assert game is not None
        arrangement = best_melds(held, decks=game.decks, rules=game.rules)
        melds, meld_texts = [], []
        for m in arrangement.melds:
            cards = ",".join([_CARD_TEXT[c.index] for c in table_cards(m)])
            melds.append(cards)
            joker = m.joker
            meld_texts.append(
                f'{{"kind":{_text(m.kind)},"cards":[{cards}],"joker":'
                + ('null,"stands_for":null}' if joker is None else
                   f'{_CARD_TEXT[joker.index]},"stands_for":{_card_text(m.stands_for)}}}'))
        unmatched = ",".join([_CARD_TEXT[c.index] for c in arrangement.unmatched])
        hand = ",".join([*melds, unmatched] if unmatched else melds)
        meld_lists = ",".join(["[" + m + "]" for m in melds])
        deadwood = arrangement.points if len(held) == 7 else "null"
        text = (f'"you":{you},"hand":[{hand}],"melds":[{meld_lists}],"deadwood":{deadwood},'
                f'"arranged":{{"melds":[{",".join(meld_texts)}],"unmatched":[{unmatched}]}}')
    else:
        text = (f'"you":{you},"hand":[],"melds":[],"deadwood":null,'
                '"arranged":{"melds":[],"unmatched":[]}')
    entry = (held, text)
    cache[you] = (entry,) if kept is None else (entry, kept[0])
    return text


def _last_hand_shown(table: Table) -> Optional[dict[str, Any]]:
    """The last ended hand as the summary shows it: its ``title`` (who closed, how), a
    ``note`` on what its end means under the table's rules, and each position's
    ``melds`` (the order of ``last_hand.order``: closer first, then the opponents in
    play order; none in a void hand) laid out as :func:`~.faces.shown_melds` does."""
    last = None if table.game is None else table.game.last_hand
    if last is None:
        return None
    s = last.settlement
    closer = None if last.closer is None else table.seats[last.closer].name
    return {"title": summary_title(closer, last.outcome),
            "note": outcome_note(last.outcome, table.rules),
            "melds": ([[] for _ in last.order] if s is None
                      else [shown_melds(s.closer.melds),
                            *(shown_melds(r.melds) for r in s.opponents)])}


def private_view(table: Table, you: int) -> dict[str, Any]:
    """The half of the view that only seat ``you`` gets."""
    out = _cards(table, you)
    out.update(_private_rest(table, you))
    return out


def view_for(table: Table, you: int, *, connected: Sequence[bool], now: float,
             summary_seconds: float) -> dict[str, Any]:
    """The whole ``view`` message for seat ``you`` as a dict."""
    view = public_view(table, connected=connected, now=now, summary_seconds=summary_seconds)
    view.update(private_view(table, you))
    return view


_encode = encode  # compact JSON text (see chinchon.server._json)


def encode_views(table: Table, seats: Sequence[int], *, connected: Sequence[bool], now: float,
                 summary_seconds: float) -> dict[int, str]:
    """The ``view`` message of each of ``seats`` as JSON text, equal to
    ``json.dumps(view_for(...), separators=(",", ":"), ensure_ascii=False)``: the public
    half is encoded once and each seat's private half is appended to it (the halves
    share no key), each view joined from its parts in one copy. The parts that rarely
    change are encoded once and kept on the table (``table.encoded``), each with what
    it was made from, and made again when that differs: ``"fixed"`` its id, preset and
    rules (for its life); ``"seats"`` the seats (by ``seats_changed`` and who is
    connected); ``"last_hand"`` the last closed hand (by the game's ``last_hand``
    object); ``"scores"`` the totals, seats in and chips (by their values);
    ``"event"`` the last event's texts (by the record object); and under each seat's
    number its cards (by the cards held, its last two hands). So an event costs the
    encoding of what it may have changed. What every seat's half reads of the game
    (its phase, whose turn, the last event) is read once per call, not once per seat:
    a seat whose turn it is not, mid-hand, gets its cards and the last event as it may
    know it after one shared text."""
    game = table.game
    if game is None:
        head = _public_text(table, connected, now, summary_seconds)
        return {seat: head + _private_text(table, seat) for seat in seats}
    # every seat's cards, read once: the hand sizes and each seat's own cards
    held = [game.held(s) for s in range(len(table.seats))]
    head = _public_text(table, connected, now, summary_seconds, held)
    out: dict[int, str] = {}
    turn = game.turn
    if turn is None or game.result is not None:  # the summary, or the end: no idle seats
        for seat in seats:
            out[seat] = head + _private_text(table, seat, held)
        return out
    plain, carded, seer = _event_texts(table)
    # each view joined from its parts in one copy (a view is a few kilobytes: a chain
    # of + would copy the head once for each part)
    for seat in seats:
        if seat == turn:
            if seat in game.disconnected:  # its turn waits for it: nothing to do
                out[seat] = head + _private_text(table, seat, held)
            else:
                out[seat] = "".join((head, _seat_cards(table, seat, held[seat]),
                                     _turn_tail(table, game),
                                     carded if seer is _ALL or seer == seat else plain, "}"))
        else:  # not your turn: no hints, nothing to do
            out[seat] = "".join((head, _seat_cards(table, seat, held[seat]), _IDLE_TAIL,
                                 carded if seer is _ALL or seer == seat else plain, "}"))
    return out


def _public_text(table: Table, connected: Sequence[bool], now: float,
                 summary_seconds: float, held: Optional[list[list[Any]]] = None) -> str:
    """``_encode(public_view(...))`` without its closing brace, and a comma."""
    cache = table.encoded
    fixed = cache.get("fixed")
    if fixed is None:
        fixed = cache["fixed"] = (
            '{"type":"view","v":' + _encode(PROTOCOL_VERSION) + ',"table":' + _encode(table.id)
            + ',"seq":', ',"preset":' + _encode(table.preset) + ',"rules":'
            + _encode(table.rules_dict) + ",")
    status = _text(table.status)
    game = table.game
    if game is None:
        return "".join((fixed[0], str(table.seq), ',"status":', status, fixed[1],
                        _encode({"seats": _seats(table, connected), "game": None,
                                 "result": _result(table)})[1:-1], ","))
    # the seats change with a join, a leave, the start, or a connection
    seats_key = (table.seats_changed, tuple(connected))
    seats = cache.get("seats")
    if seats is None or seats[0] != seats_key:
        seats = cache["seats"] = (seats_key, _encode(_seats(table, connected)))
    last = game.last_hand
    known = cache.get("last_hand")
    if known is None or known[0] is not last:
        known = cache["last_hand"] = (last, _encode(table.last_hand_dict()) + ',"last_hand_shown":'
                                      + _encode(_last_hand_shown(table)))
    state = _game_text(table, now, summary_seconds,
                       held if held is not None else [game.held(s) for s in range(table.players)])
    result = game.result
    return "".join((fixed[0], str(table.seq), ',"status":', status, fixed[1], '"seats":', seats[1],
                    ',"game":', state, ',"last_hand":', known[1], '},"result":',
                    "null," if result is None else _encode(result.to_dict()) + ","))


def _event_texts(table: Table) -> tuple[str, str, Any]:
    """The last event as the views write it: without its card, with it, and who sees
    the card (``_ALL``, one seat, or None: nobody); see :func:`event_for`. Kept on the
    table until the next event."""
    cache = table.encoded
    last = table.last
    known = cache.get("event")
    if known is not None and known[0] is last:
        return known[1]  # type: ignore[no-any-return]  # the cache holds Any
    if last is None:
        texts: tuple[str, str, Any] = ("null", "null", None)
    else:  # event_for(last, you) without the card, and with it (it comes last)
        # the public fields (_PUBLIC_EVENT_FIELDS) but the name, _ALL where missing
        kind, seat, source = last.get("kind", _ALL), last.get("seat", _ALL), last.get("source", _ALL)
        plain = _EVENT_TEXT.get((kind, seat, source)) if "name" not in last else None
        if plain is None:
            plain = _encode({k: last[k] for k in _PUBLIC_EVENT_FIELDS if k in last})
            if "name" not in last and len(_EVENT_TEXT) < 1024:
                _EVENT_TEXT[kind, seat, source] = plain
        card = last.get("card")
        if card is None:
            texts = (plain, plain, None)
        else:
            public = kind == "discard" or (kind == "draw" and source == "discard")
            card_text = _CARD_TEXTS.get(card) if type(card) is str else None
            texts = (plain, plain[:-1] + ',"card":' + (card_text or _encode(card)) + "}",
                     _ALL if public else last.get("seat"))
    cache["event"] = (last, texts)
    return texts


def _turn_tail(table: Table, game: Any) -> str:
    """The private half of the seat to act (connected; the draw or discard phase)
    between its cards and the last event: ``hints``, ``close_card`` and ``can``, as
    :func:`_private_rest` has them. The draw's sources and each hint are encoded once
    and kept (module-wide: they take few values)."""
    if game.phase == "draw":
        sources = tuple([a[1] for a in game.legal_actions()])
        text = _DRAW_TAIL.get(sources)
        if text is None:
            text = (',"hints":null,"close_card":null,"can":'
                    + _encode(dict(_CAN_NOTHING, draw=list(sources))) + ',"event":')
            if len(_DRAW_TAIL) < 64:
                _DRAW_TAIL[sources] = text
        return text
    hints = game.hints()
    close = close_card(hints, table.rules)
    if game.decks > 1 and len({str(h.card) for h in hints}) < len(hints):
        # two of a card in hand: one key, as the dict of _private_rest has it
        hints_text = _encode({str(h.card): {"points": h.points, "close": h.outcome}
                              for h in hints})
    else:
        parts = []
        for h in hints:
            key = (h.card.index, h.points, h.outcome)
            part = _HINT_TEXT.get(key)
            if part is None:
                part = _encode({str(h.card): {"points": h.points, "close": h.outcome}})[1:-1]
                if len(_HINT_TEXT) < 16384:
                    _HINT_TEXT[key] = part
            parts.append(part)
        hints_text = "{" + ",".join(parts) + "}"
    if close is None:
        return ',"hints":' + hints_text + ',"close_card":null,"can":' + _CAN_DISCARD + ',"event":'
    return (',"hints":' + hints_text + ',"close_card":' + _encode(close) + ',"can":'
            + _CAN_CLOSE + ',"event":')


def _private_text(table: Table, you: int, held: Optional[list[list[Any]]] = None) -> str:
    """``_encode(private_view(table, you))`` without its opening brace."""
    cards_text = _seat_cards(table, you, None if held is None else held[you])
    plain, carded, seer = _event_texts(table)
    event_text = carded if seer is _ALL or seer == you else plain
    rest = _private_rest(table, you)
    hints = rest["hints"]
    # what a seat may do takes few values
    can = rest["can"]
    can_key = tuple(tuple(v) if type(v) is list else v for v in can.values())
    can_text = _CAN_TEXT.get(can_key)
    if can_text is None:
        can_text = _encode(can)
        if len(_CAN_TEXT) < 256:
            _CAN_TEXT[can_key] = can_text
    return (cards_text + ',"hints":' + ("null" if hints is None else _encode(hints))
            + ',"close_card":' + _encode(rest["close_card"]) + ',"can":' + can_text
            + ',"event":' + event_text + "}")


#: who sees the last event's card when every seat does (:func:`_event_texts`); also
#: what stands for a field an event record has not
_ALL = object()

#: an event's public fields but a name as JSON text (:func:`_event_texts`), by their
#: values: a move's take few (its kind, seat, source)
_EVENT_TEXT: dict[tuple[Any, Any, Any], str] = {}

#: short texts of few values (a table's status, a game's phase, a meld's kind) as JSON,
#: encoded once
_TEXTS: dict[str, str] = {}


def _text(value: str) -> str:
    """``_encode(value)``, kept for the next time (for texts that take few values)."""
    text = _TEXTS.get(value)
    if text is None:
        text = _encode(value)
        if len(_TEXTS) < 64:
            _TEXTS[value] = text
    return text


#: each card's text as JSON (``"7o"``), by its text (every card the protocol names:
#: :data:`~.protocol.CARD_TEXTS`)
_CARD_TEXTS: dict[str, str] = {t: _encode(t) for t in CARD_TEXTS}
#: the same by the card's index (``Card.index``)
_CARD_TEXT: dict[int, str] = {Card(t).index: j for t, j in _CARD_TEXTS.items()}


def _card_text(card: Optional[Card]) -> str:
    """A card, or None, as JSON."""
    return "null" if card is None else _CARD_TEXT[card.index]


#: ``can`` of a seat with nothing to do (not its turn), and as JSON text
_CAN_NOTHING: dict[str, Any] = {"start": False, "leave": False, "draw": [], "discard": False,
                                "close": False, "rejoin": False, "ready": False}
_CAN_IDLE = _encode(_CAN_NOTHING)
#: a seat's private half between its cards and the last event, when it is not its turn
_IDLE_TAIL = ',"hints":null,"close_card":null,"can":' + _CAN_IDLE + ',"event":'

#: the encoded ``can`` of a private view, by its values
_CAN_TEXT: dict[tuple[Any, ...], str] = {}

#: ``can`` of the seat to discard, without and with a close offered, as JSON text
_CAN_DISCARD = _encode(dict(_CAN_NOTHING, draw=[], discard=True))
_CAN_CLOSE = _encode(dict(_CAN_NOTHING, draw=[], discard=True, close=True))
#: :func:`_turn_tail` of the draw phase, by the sources the seat may draw from
_DRAW_TAIL: dict[tuple[str, ...], str] = {}
#: one hint as JSON text (``"5b":{"points":4,"close":"normal"}``), by card (its index),
#: points and outcome
_HINT_TEXT: dict[tuple[int, int, Any], str] = {}


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
