"""The event log of a table (:class:`~chinchon.Game`): the events' fields, reading
them back (every field checked), their JSON form, and replaying them onto a game.

A log starts with the game's opening (``'new'``: players, seed, rules, a stacked deck,
the lead) or a ``'checkpoint'`` (the whole state), and lists the moves and connection
events since (:data:`EVENT_FIELDS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalAction, shown
from ..rules import Rules
from . import _checks as check
from .actions import SOURCES
from .capture import MAX_SEED_BITS
from .deck import MAX_PLAYERS, MIN_PLAYERS, deck_for, decks_for, multiset_problem
from .rng import GENERATORS

if TYPE_CHECKING:
    from .table import Game

__all__ = ["EVENT_FIELDS", "EVENT_KINDS", "NEW_FIELDS", "NEW_OPTIONAL", "read_new",
           "read_event", "event_json", "copy_event", "replay_events"]

#: the events a log holds after its first ('new' or 'checkpoint'), and their fields
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("source",),
    "discard": ("card", "close"),
    "rejoin": ("seat",),
    "next_hand": ("deck",),
    "disconnect": ("seat", "now"),
    "reconnect": ("seat", "now"),
    "timeout": ("now",),
    "reshuffle": (),  # and "stock", the new order (not in format 1)
    "void": (),  # the discard before it voided the hand (Rules.void_at_stock)
}
EVENT_KINDS = tuple(EVENT_FIELDS)
NEW_FIELDS = ("players", "seed", "rules", "deck", "lead")
#: optional in a 'new' event: the generator (absent: the legacy ``random.Random``, as in
#: logs of before xoshiro256**; a game on the legacy generator writes none)
NEW_OPTIONAL = ("generator",)


def read_new(d: dict[str, Any], field: str) -> tuple[dict[str, Any], Rules]:
    """The opening event of a log, checked, as a fresh dict; and its rules."""
    check.only_keys(d, field, ("event",) + NEW_FIELDS, optional=NEW_OPTIONAL)
    players = d["players"]
    if isinstance(players, (list, tuple)):
        players = [check.read_str(p, f"{field}.players[{i}]")
                   for i, p in enumerate(check.read_list(players, f"{field}.players",
                                                         min_len=MIN_PLAYERS, max_len=MAX_PLAYERS))]
        n = len(players)
    else:
        n = players = check.read_int(players, f"{field}.players", MIN_PLAYERS, MAX_PLAYERS)
    seed = d["seed"]
    if type(seed) is not int or seed.bit_length() > MAX_SEED_BITS:
        raise check.bad(f"{field}.seed", f"must be an int of at most {MAX_SEED_BITS} bits, "
                                         f"got {shown(seed)}")
    rules = check.read_rules(d["rules"], f"{field}.rules")
    deck = d["deck"]
    if deck is not None:
        want = deck_for(rules, decks_for(n))
        cards = check.read_cards(deck, f"{field}.deck", len(want), length=len(want))
        problem = multiset_problem(cards, want, "in the deck")
        if problem is not None:
            raise check.bad(f"{field}.deck", f"is not a deck: {problem}")
        deck = [str(c) for c in cards]
    lead = d["lead"]
    if lead is not None:
        lead = check.read_int(lead, f"{field}.lead", 0, n - 1)
    new = {"event": "new", "players": players, "seed": seed, "rules": rules.to_dict(),
           "deck": deck, "lead": lead}
    if "generator" in d:
        new["generator"] = check.read_str(d["generator"], f"{field}.generator", GENERATORS)
    return new, rules


def read_event(value: object, field: str, n: int, rules: Rules, decks: int) -> dict[str, Any]:
    """One event after the first, checked for shape (whether it is legal where it stands
    is for :meth:`Game.replay`), as a fresh dict with card texts in canonical form."""
    d = check.read_object(value, field)
    kind = check.read_str(check.get(d, "event", field), f"{field}.event", EVENT_KINDS)
    check.only_keys(d, field, ("event",) + EVENT_FIELDS[kind],
                    optional=("stock",) if kind == "reshuffle" else ())
    out: dict[str, Any] = {"event": kind}
    if kind == "draw":
        out["source"] = check.read_str(d["source"], f"{field}.source", SOURCES)
    elif kind == "discard":
        out["card"] = str(check.read_card(d["card"], f"{field}.card"))
        out["close"] = check.read_bool(d["close"], f"{field}.close")
    elif kind == "next_hand":
        deck = d["deck"]
        if deck is not None:
            want = deck_for(rules, decks)
            cards = check.read_cards(deck, f"{field}.deck", len(want), length=len(want))
            deck = [str(c) for c in cards]
        out["deck"] = deck
    elif kind == "reshuffle":
        if "stock" in d:  # Cards, as the game keeps them (text in :func:`event_json`)
            out["stock"] = check.read_cards(d["stock"], f"{field}.stock",
                                            len(deck_for(rules, decks)))
    else:
        if "seat" in d:
            out["seat"] = check.read_int(d["seat"], f"{field}.seat", 0, n - 1)
        if "now" in d:
            out["now"] = check.read_time(d["now"], f"{field}.now")
    return out


def event_json(event: dict[str, Any]) -> dict[str, Any]:
    """A logged event as JSON-ready data (a copy)."""
    if "stock" in event:
        return {"event": event["event"], "stock": [str(c) for c in event["stock"]]}
    return dict(event)


def copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of a log event that shares no list or dict with it, at any depth (the
    rules of a ``'new'`` event hold the list of the ranks' points), so that a caller
    editing :attr:`Game.log` or a saved dict cannot change the game."""
    return {k: _copied(v) for k, v in event.items()}


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


def replay_events(g: Game, events: list[Any], recorded: bool) -> None:
    """Apply the events after the first of a log (``events[0]`` is ``log[1]``) to ``g``,
    each checked as it is read and applied through the game's public moves; an event
    that is malformed or does not replay raises :class:`IllegalAction` naming it
    (``log[k]``). ``recorded``: the reshuffles replay from the orders they recorded
    (after a checkpoint), not from the generator."""
    for k, raw in enumerate(events, 1):
        e = read_event(raw, f"log[{k}]", g.players, g.rules, g.decks)
        kind = e["event"]
        try:
            if kind == "draw":
                if e["source"] == "stock" and not g.stock_size and g.phase == "draw":
                    raise IllegalAction("a draw from an empty stock comes right after its "
                                        "'reshuffle'")
                g.draw(e["source"])
            elif kind == "reshuffle":  # applied as read: the draw, or a connection's
                if recorded and "stock" not in e:  # event, may come before the draw
                    raise IllegalAction("a reshuffle after a checkpoint records the "
                                        "new stock")
                made = g.reshuffle(e["stock"] if recorded else None)
                if not recorded and "stock" in e and [str(c) for c in e["stock"]] != [
                        str(c) for c in made]:
                    raise IllegalAction("the generator reshuffles the discard pile in "
                                        "another order than the one recorded")
            elif kind == "discard":
                g.discard(e["card"], e["close"])
            elif kind == "void":
                last = g.last_hand
                if not (g.phase == "summary" and last is not None and last.void
                        and last.number == g.hand_number):
                    raise IllegalAction("the hand is not void")
            elif kind == "rejoin":
                g.rejoin(e["seat"])
            elif kind == "next_hand":
                g.next_hand(e["deck"])
            elif kind == "disconnect":
                g.disconnect(e["seat"], e["now"])
                if e["seat"] not in g.disconnected:
                    raise IllegalAction("a deadline passed first: the game was cancelled")
            elif kind == "reconnect":
                if not g.reconnect(e["seat"], e["now"]):
                    raise IllegalAction("the deadline had passed: the game was cancelled")
            else:  # timeout
                was_on = g.result is None
                g.tick(e["now"])
                if not was_on or g.result is None:
                    raise IllegalAction("no disconnected seat's deadline had passed")
        except IllegalAction as exc:
            raise IllegalAction(f"log[{k}] ({kind}) does not replay: {exc}") from None
