"""The table: a game with seats, connection clocks and an event log (SPEC §5, §8).

:class:`Game` is what a server wraps: the rules' state machine
(:class:`~chinchon.game.state.GameState`) plus what a real table adds --

- **seats** by name (``players`` is a count or a sequence of names);
- **connection clocks**: a disconnected seat waits ``rules.reconnect_seconds`` on the
  caller's clock (``disconnect(seat, now)``, ``reconnect(seat, now)``, ``tick(now)``;
  the library never reads the wall clock), and the game is cancelled when it runs out;
- an **event log** from which :meth:`Game.replay` rebuilds the game, and snapshots
  (:meth:`Game.to_json` / :meth:`Game.from_json`) that restore it exactly.

The log is kept compact: it starts with the game's opening (``'new'``: players, seed,
rules, a stacked deck, the lead) and holds the moves and connection events since. When a
hand opens -- and after :attr:`Game.LOG_LIMIT` events in one hand -- it starts again
from a ``'checkpoint'``: the whole state at that moment, from which the rest replays.
Each ``'reshuffle'`` event records the new stock's order, so the events after a
checkpoint replay without the generator; the checkpoint therefore holds the generator's
state of *now* (the state the replayed game must end with), not of its own moment --
which also spares a copy of the generator at every reshuffle. So a snapshot's size and
cost stay those of one hand however long the game runs, and ``Game.replay(game.log)``
still rebuilds the same state.

A snapshot (:meth:`Game.from_json`) and a log (:meth:`Game.replay`) are input like any
other: every field is checked (type, range, the cards against the deck, the phase
against the hands and the result) before anything is built, and anything wrong raises
:class:`~chinchon.IllegalAction` naming the field.

Decisions where the spec is silent (also in the README):

- Disconnection does not stop the table: only the disconnected seat's own moves (its
  draw and discard, its rejoin) are refused until it is back. The host may still open
  the next hand. Several seats may be disconnected at once, each with its own deadline.
  ``tick``, ``disconnect`` and ``reconnect`` first apply any deadline already passed; a
  ``reconnect`` at or after the deadline cancels the game (it is not an error). Only a
  seat still in the game can cancel it: an eliminated seat has no seat or cards to
  keep. Time only has to be a finite number; a reconnect before its own disconnection
  time is refused.
- Connection events (``disconnect``, ``reconnect``, ``tick``) are not moves and are
  always available while the game is on.
- ``observation(seat)`` shows the discard pile's top card and its size; the cards
  below the top are not shown.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence, Union

from ..cards import Card, as_card
from ..errors import IllegalAction, shown
from ..rules import Rules
from . import _checks as check
from .actions import SOURCES
from .snapshot import restore
from .deck import (MAX_PLAYERS, MIN_PLAYERS, check_seat_count, deck_for, decks_for,
                   multiset_problem)
from .records import GameResult, HandResult
from .rng import GENERATOR, GENERATORS, LEGACY_GENERATOR, generator_of
from .state import (
    MAX_SEED_BITS,
    OPTIONAL_STATE_KEYS,
    STATE_KEYS,
    CardLike,
    GameState,
)

__all__ = ["Game"]

#: the snapshot format :meth:`Game.to_json` writes: 3 holds the xoshiro256** generator's
#: four words (``rng``) and names the generator in the log's ``'new'`` event; 2 held the
#: ``random.Random`` state (~6.7 KB) and a compact log (a checkpoint and the events
#: since); 1 (before 0.2) logged every event of the game. A game restored from format 1
#: or 2 keeps its ``random.Random`` (and writes it in format 3: ``rng`` says which).
_JSON_VERSION = 3
_READABLE_VERSIONS = (1, 2, 3)

#: the events a log holds after its first ('new' or 'checkpoint'), and their fields
_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
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
_EVENT_KINDS = tuple(_EVENT_FIELDS)
_NEW_FIELDS = ("players", "seed", "rules", "deck", "lead")
#: optional in a 'new' event: the generator (absent: the legacy ``random.Random``, as in
#: logs of before xoshiro256**; a game on the legacy generator writes none)
_NEW_OPTIONAL = ("generator",)


def _check_time(now: object) -> float:
    # finite only: NaN compares false with every deadline, and an infinite time would
    # end up in to_json() as the non-JSON token Infinity; within 2**53 so that adding the
    # wait never overflows a float
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not (
            -check.MAX_SAFE <= now <= check.MAX_SAFE):  # NaN fails the comparison
        raise IllegalAction(f"time must be a finite number of seconds within "
                            f"{check.MAX_SAFE}, got {shown(now)}")
    return now


class Game(GameState):
    """One Chinchón table, from the first deal to the end of the game.

    ``players``: the number of seats (2-6), or a sequence of 2-6 player names.
    ``seed``: seeds the game's own generator (first lead, shuffles): xoshiro256**
    through splitmix64 (:mod:`chinchon.game.rng`, docs/design.md).
    ``rules``: a :class:`~chinchon.Rules` (house rules by default).
    ``deck``: the exact order to deal the first hand from (48 or 96 cards, text or
    ``Card``); otherwise the game shuffles. ``lead``: the seat that leads the first hand;
    otherwise drawn from the seed.

    >>> g = Game(3, seed=1, lead=0)
    >>> g.phase, g.turn, len(g.hand(0)), g.stock_size
    ('draw', 0, 7, 26)
    """

    #: events in one hand after which the log starts again from a checkpoint
    LOG_LIMIT = 128
    #: the longest JSON text :meth:`from_json` reads (bytes, or characters of a str)
    MAX_JSON_BYTES = 16 * 2**20
    #: the most events a log given to :meth:`replay` or inside a snapshot may hold
    MAX_LOG_EVENTS = 1_000_000

    def __init__(self, players: Union[int, Sequence[str]], *, seed: Optional[int] = None,
                 rules: Optional[Rules] = None, deck: Optional[Sequence[CardLike]] = None,
                 lead: Optional[int] = None, _generator: str = GENERATOR) -> None:
        # _generator: internal, for replaying a log of before xoshiro256** (replay)
        if isinstance(players, bool):
            raise IllegalAction(f"players must be a count or a list of names, "
                                f"got {shown(players)}")
        names: Optional[tuple[str, ...]] = None
        if isinstance(players, int):
            n = players
        elif isinstance(players, (str, bytes)):
            raise IllegalAction("players must be a count or a sequence of names, not one string")
        else:
            try:
                names = tuple(str(p) for p in players)
            except (TypeError, ValueError):  # None, 3.0, ...: an IllegalAction, not a bare
                # TypeError (or the ValueError of an int too long to write out)
                raise IllegalAction(f"players must be a count or a list of names, "
                                    f"got {shown(players)}") from None
            n = len(names)
        check_seat_count(n)
        self._disconnected: dict[int, float] = {}
        super().__init__(n, names=names, seed=seed, rules=rules, deck=deck, lead=lead,
                         _generator=_generator)
        dealt = self._first_deal
        # the log: its first event (the opening, or a checkpoint of the state) and the
        # events since
        opening: dict[str, Any] = {
            "event": "new",
            "players": list(self._names) if names is not None else n,
            "seed": self._seed,
            "rules": self._rules.to_dict(),
            "deck": None if dealt is None else [str(c) for c in dealt],
            "lead": lead,
        }
        if _generator != LEGACY_GENERATOR:
            opening["generator"] = _generator
        self._log_head: tuple[str, dict[str, Any]] = ("new", opening)
        self._log: list[dict[str, Any]] = []

    # ------------------------------------------------------------ what the table shows

    @property
    def disconnected(self) -> dict[int, float]:
        """Disconnected seats and the time each lost its connection."""
        return dict(self._disconnected)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The event log (JSON-ready dicts, copies); :meth:`replay` rebuilds the game
        from it. It starts with the opening (``'new'``) or, from the second hand on, a
        ``'checkpoint'`` of the state when the current hand opened, then lists the events
        since (see the module docstring)."""
        kind, head = self._log_head
        first = (_copy_event(head) if kind == "new"
                 else {"event": "checkpoint", "state": self._checkpoint_dict(head)})
        return [first] + [_event_json(e) for e in self._log]

    def _is_away(self, seat: Optional[int]) -> bool:
        return seat in self._disconnected

    # ------------------------------------------------------------ the log

    def _record(self, event: dict[str, Any]) -> None:
        """Log ``event`` (at the end of a move, the state complete), and start the log
        again from a checkpoint once it holds ``LOG_LIMIT`` events. (A draw is logged
        without the check: the discard that ends its turn makes it.)"""
        log = self._log
        log.append(event)
        if len(log) >= self.LOG_LIMIT:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Start the log again from the state now (its generator: the current one when
        written out, see the module docstring)."""
        self._log_head = ("checkpoint", self._capture(rng=False))
        self._log = []

    def _capture(self, rng: bool = True) -> dict[str, Any]:
        cap = super()._capture(rng)
        cap["disconnected"] = dict(self._disconnected)
        return cap

    def _checkpoint_dict(self, cap: dict[str, Any]) -> dict[str, Any]:
        d = self._state_dict(cap)
        d["disconnected"] = [[s, t] for s, t in sorted(cap["disconnected"].items())]
        return d

    # ------------------------------------------------------------ moves, logged

    def draw(self, source: str) -> Card:
        card = super().draw(source)
        self._log.append({"event": "draw", "source": source})  # the discard checks the size
        return card

    draw.__doc__ = GameState.draw.__doc__

    def _reshuffled(self) -> None:
        super()._reshuffled()
        # the new stock's order (cards; text when written out); the draw that follows
        # completes the move
        self._log.append({"event": "reshuffle", "stock": list(self._stock)})

    def discard(self, card: CardLike, close: bool = False) -> Optional[HandResult]:
        result = super().discard(card, close)
        self._record({"event": "discard", "card": str(as_card(card)), "close": close})
        if not close and self._phase == "summary":  # the stock ran down: a void hand
            self._record({"event": "void"})
        return result

    discard.__doc__ = GameState.discard.__doc__

    def rejoin(self, seat: int) -> int:
        total = super().rejoin(seat)
        self._record({"event": "rejoin", "seat": self._seat(seat)})
        return total

    rejoin.__doc__ = GameState.rejoin.__doc__

    def _open_hand(self, dealt: Optional[list[Card]]) -> None:
        super()._open_hand(dealt)
        self._checkpoint()  # the new hand's state replaces the last hand's events

    # ------------------------------------------------------------ connection and time

    def _expire(self, now: float) -> bool:
        """Cancel the game if a disconnected seat still in the game has waited its
        ``reconnect_seconds`` at ``now``. A seat already out of the game has no seat or
        cards to keep: its absence never cancels the table (it only cannot rejoin)."""
        wait = self._rules.reconnect_seconds
        late = [s for s, t in sorted(self._disconnected.items())
                if now >= t + wait and self._in[s]]
        if not late:
            return False
        self._end(GameResult("cancelled", None,
                             f"seat {late[0]} did not reconnect within {wait} s"))
        self._record({"event": "timeout", "now": now})
        return True

    def disconnect(self, seat: int, now: float) -> None:
        """``seat`` lost its connection at time ``now`` (seconds, from the caller's clock)."""
        self._require_on()
        seat = self._seat(seat)
        now = _check_time(now)
        if seat in self._disconnected:
            raise IllegalAction(f"seat {seat} is already disconnected")
        if self._expire(now):
            return
        self._disconnected[seat] = now
        self._record({"event": "disconnect", "seat": seat, "now": now})

    def reconnect(self, seat: int, now: float) -> bool:
        """``seat`` is back at ``now``. Before its deadline (disconnection time +
        ``rules.reconnect_seconds``) it keeps its seat and cards and this returns True;
        at or after it the game is cancelled and this returns False."""
        self._require_on()
        seat = self._seat(seat)
        now = _check_time(now)
        if seat not in self._disconnected:
            raise IllegalAction(f"seat {seat} is not disconnected")
        if now < self._disconnected[seat]:
            raise IllegalAction(f"seat {seat} cannot reconnect at {now}, before it "
                                f"disconnected at {self._disconnected[seat]}")
        if self._expire(now):
            return False
        del self._disconnected[seat]
        self._record({"event": "reconnect", "seat": seat, "now": now})
        return True

    def tick(self, now: float) -> None:
        """The caller's clock says ``now``: a seat disconnected for
        ``rules.reconnect_seconds`` or more cancels the game."""
        now = _check_time(now)
        if self._result is None:
            self._expire(now)

    # ------------------------------------------------------------ record and restore

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden cards included: for storage): the
        state's fields, the disconnected seats, the format and the compact log."""
        d = self._checkpoint_dict(self._capture())
        d["format"] = _JSON_VERSION
        d["log"] = self.log
        return d

    def to_json(self) -> str:
        """The whole state as JSON text; :meth:`from_json` restores it exactly (the
        generator too, so the restored game continues identically)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, data: Union[str, bytes, dict[str, Any]]) -> Game:
        """Restore a game saved by :meth:`to_json` (text, UTF-8 bytes or the parsed
        dict), of this format or the one before.

        Everything is checked before the game is built (see :func:`chinchon.game.snapshot.restore`
        and the module docstring); anything wrong raises :class:`IllegalAction` naming
        the field. Text is refused over :attr:`MAX_JSON_BYTES` or nested deeper than a
        snapshot is. A snapshot of the older format (1, a log of every event) loads with
        its log replaced by a checkpoint of its state.
        """
        if isinstance(data, dict):
            d: Any = data
        elif isinstance(data, (str, bytes, bytearray, memoryview)):
            d = check.parse_json(data, cls.MAX_JSON_BYTES)
        else:
            raise IllegalAction(f"not a saved chinchon game: a {type(data).__name__}, not "
                                f"JSON text or an object")
        if not isinstance(d, dict):
            raise IllegalAction(f"not a saved chinchon game: {check._kind(d)}, not an object")
        version = check.get(d, "format", "")
        if type(version) is not int or version not in _READABLE_VERSIONS:
            raise check.bad("format", f"must be one of {_READABLE_VERSIONS} (unknown game "
                                      f"format {shown(version)})")
        check.only_keys(d, "", STATE_KEYS + ("format", "disconnected", "log"),
                        optional=OPTIONAL_STATE_KEYS)
        g = cls._load(d, "")
        log = check.read_list(d["log"], "log", min_len=1, max_len=cls.MAX_LOG_EVENTS)
        head = g._read_log_head(log[0], "log[0]")
        events = [_read_event(e, f"log[{k}]", g._n, g._rules, g._decks)
                  for k, e in enumerate(log[1:], 1)]
        if head[0] == "checkpoint":  # the events after it replay without the generator
            for k, e in enumerate(events, 1):
                if e["event"] == "reshuffle" and "stock" not in e:
                    raise check.bad(f"log[{k}].stock", "is missing (a reshuffle after a "
                                                       "checkpoint records the new stock)")
        if version == 1:
            g._checkpoint()  # an old log of every event: start it again from here
        else:
            g._log_head, g._log = head, events
        return g

    @classmethod
    def _load(cls, d: dict[str, Any], field: str) -> Game:
        """A game with the state of ``d`` (a snapshot's fields, or a checkpoint's), all
        checked; the caller sets its log."""
        check.only_keys(d, field, STATE_KEYS + ("disconnected",),
                        optional=(("format", "log") if not field else ()) + OPTIONAL_STATE_KEYS)
        g = object.__new__(cls)
        restore(g, d, field)
        at = f"{field}.disconnected" if field else "disconnected"
        disconnected: dict[int, float] = {}
        for i, pair in enumerate(check.read_list(d["disconnected"], at, max_len=g._n)):
            seat, now = check.read_list(pair, f"{at}[{i}]", length=2)
            seat = check.read_int(seat, f"{at}[{i}][0]", 0, g._n - 1)
            if seat in disconnected:
                raise check.bad(f"{at}[{i}][0]", f"lists seat {seat} twice")
            disconnected[seat] = check.read_time(now, f"{at}[{i}][1]")
        g._disconnected = disconnected
        return g

    def _read_log_head(self, value: object, field: str) -> tuple[str, dict[str, Any]]:
        """The first event of a log saved with this game, checked, and checked to be of
        this game (same names, seed and rules; a checkpoint no later than the state)."""
        first = check.read_object(value, field)
        kind = check.read_str(check.get(first, "event", field), f"{field}.event",
                              ("new", "checkpoint"))
        if kind == "new":
            new, rules = _read_new(first, field)
            players = new["players"]
            names = (tuple(players) if isinstance(players, list)
                     else tuple(f"Player {i + 1}" for i in range(players)))
            if names != self._names:
                raise check.bad(f"{field}.players", "are not the game's players")
            if rules != self._rules:
                raise check.bad(f"{field}.rules", "are not the game's rules")
            if new["seed"] != self._seed:
                raise check.bad(f"{field}.seed", "is not the game's seed")
            if new.get("generator", LEGACY_GENERATOR) != generator_of(self._rng):
                raise check.bad(f"{field}.generator", "is not the game's generator")
            return ("new", new)
        check.only_keys(first, field, ("event", "state"))
        at = f"{field}.state"
        cp = type(self)._load(check.read_object(first["state"], at), at)
        for name in ("names", "rules", "seed"):
            if getattr(cp, f"_{name}") != getattr(self, f"_{name}"):
                raise check.bad(f"{at}.{name}", f"is not the game's {name}")
        if cp._hand_number > self._hand_number:
            raise check.bad(f"{at}.hand_number", "is later than the game's")
        if cp._rng.getstate() != self._rng.getstate():
            raise check.bad(f"{at}.rng", "is not the game's generator (a checkpoint holds "
                                         "the generator's current state)")
        return ("checkpoint", cp._capture(rng=False))

    def clone(self) -> Game:
        """An independent copy of the game (same state, same generator state)."""
        return Game.from_json(self.to_dict())

    @classmethod
    def replay(cls, log: Sequence[dict[str, Any]]) -> Game:
        """Rebuild a game from its event log (:attr:`log`): the same state as the game
        that wrote it. Each event is checked as it is read and applied; an event that is
        malformed or does not replay (an illegal move, a reshuffle where the stock was
        not empty or that the generator did not make, a timeout no deadline explains)
        raises :class:`IllegalAction` naming it (``log[k]``). After a checkpoint the
        reshuffles are replayed from the orders they recorded (see the module
        docstring)."""
        events = check.read_list(log, "log", min_len=1, max_len=cls.MAX_LOG_EVENTS)
        first = check.read_object(events[0], "log[0]")
        kind = check.read_str(check.get(first, "event", "log[0]"), "log[0].event",
                              ("new", "checkpoint"))
        if kind == "new":
            new, rules = _read_new(first, "log[0]")
            try:
                g = cls(new["players"], seed=new["seed"], rules=rules,
                        deck=new["deck"], lead=new["lead"],
                        _generator=new.get("generator", LEGACY_GENERATOR))
            except IllegalAction as exc:
                raise IllegalAction(f"log[0] (new) does not replay: {exc}") from None
        else:
            check.only_keys(first, "log[0]", ("event", "state"))
            g = cls._load(check.read_object(first["state"], "log[0].state"), "log[0].state")
            g._checkpoint()
        recorded = kind == "checkpoint"  # reshuffles replay from their recorded orders
        reshuffle: Optional[dict[str, Any]] = None  # a 'reshuffle' read, its draw not yet
        for k, raw in enumerate(events[1:], 1):
            e = _read_event(raw, f"log[{k}]", g._n, g._rules, g._decks)
            kind = e["event"]
            try:
                if kind == "draw":
                    empties = e["source"] == "stock" and not g._stock and g._phase == "draw"
                    if empties != (reshuffle is not None):
                        raise IllegalAction(
                            "a draw from an empty stock comes right after its 'reshuffle'"
                            if empties else "the stock was not empty at the 'reshuffle'")
                    if reshuffle is not None and recorded:
                        g._restock(reshuffle["stock"])
                    g.draw(e["source"])  # otherwise a reshuffle by the generator, logged
                    if (reshuffle is not None and not recorded
                            and reshuffle.get("stock", g._log[-2]["stock"])
                            != g._log[-2]["stock"]):
                        raise IllegalAction("the generator reshuffles the discard pile in "
                                            "another order than the one recorded")
                    reshuffle = None
                elif reshuffle is not None:
                    raise IllegalAction("a 'reshuffle' is followed by the draw from the stock")
                elif kind == "reshuffle":
                    if recorded and "stock" not in e:
                        raise IllegalAction("a reshuffle after a checkpoint records the "
                                            "new stock")
                    reshuffle = e
                elif kind == "discard":
                    g.discard(e["card"], e["close"])
                elif kind == "void":
                    last = g._last
                    if not (g._phase == "summary" and last is not None and last.void
                            and last.number == g._hand_number):
                        raise IllegalAction("the hand is not void")
                elif kind == "rejoin":
                    g.rejoin(e["seat"])
                elif kind == "next_hand":
                    g.next_hand(e["deck"])
                elif kind == "disconnect":
                    g.disconnect(e["seat"], e["now"])
                    if e["seat"] not in g._disconnected:
                        raise IllegalAction("a deadline passed first: the game was cancelled")
                elif kind == "reconnect":
                    if not g.reconnect(e["seat"], e["now"]):
                        raise IllegalAction("the deadline had passed: the game was cancelled")
                else:  # timeout
                    was_on = g._result is None
                    g.tick(e["now"])
                    if not was_on or g._result is None:
                        raise IllegalAction("no disconnected seat's deadline had passed")
            except IllegalAction as exc:
                raise IllegalAction(f"log[{k}] ({kind}) does not replay: {exc}") from None
        if reshuffle is not None:
            raise check.bad("log", "ends with a 'reshuffle' without its draw")
        return g

    def _restock(self, order: list[Card]) -> None:
        """Replay a recorded reshuffle: the discard pile becomes the stock in ``order``
        (checked to be the pile's cards), without the generator."""
        problem = multiset_problem(order, self._discard, "in the recorded stock")
        if problem is not None:
            raise IllegalAction(f"the recorded stock is not the discard pile: {problem}")
        self._stock = list(order)
        self._discard = []
        self._reshuffled()

    def __repr__(self) -> str:
        state = self._result.status if self._result else f"hand {self._hand_number}"
        return f"<Game {self._n} players, {self._phase}, {state}, totals {self._totals}>"


def _read_new(d: dict[str, Any], field: str) -> tuple[dict[str, Any], Rules]:
    """The opening event of a log, checked, as a fresh dict; and its rules."""
    check.only_keys(d, field, ("event",) + _NEW_FIELDS, optional=_NEW_OPTIONAL)
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


def _read_event(value: object, field: str, n: int, rules: Rules, decks: int) -> dict[str, Any]:
    """One event after the first, checked for shape (whether it is legal where it stands
    is for :meth:`Game.replay`), as a fresh dict with card texts in canonical form."""
    d = check.read_object(value, field)
    kind = check.read_str(check.get(d, "event", field), f"{field}.event", _EVENT_KINDS)
    check.only_keys(d, field, ("event",) + _EVENT_FIELDS[kind],
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
        if "stock" in d:  # Cards, as the game keeps them (text in :func:`_event_json`)
            out["stock"] = check.read_cards(d["stock"], f"{field}.stock",
                                            len(deck_for(rules, decks)))
    else:
        if "seat" in d:
            out["seat"] = check.read_int(d["seat"], f"{field}.seat", 0, n - 1)
        if "now" in d:
            out["now"] = check.read_time(d["now"], f"{field}.now")
    return out


def _event_json(event: dict[str, Any]) -> dict[str, Any]:
    """A logged event as JSON-ready data (a copy)."""
    if "stock" in event:
        return {"event": event["event"], "stock": [str(c) for c in event["stock"]]}
    return dict(event)


def _copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of a log event that shares no list or dict with it (an event holds
    numbers, strings and flat lists/dicts of them: the deck, the names, the rules), so
    that a caller editing :attr:`Game.log` or a saved dict cannot change the game."""
    return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
            for k, v in event.items()}
