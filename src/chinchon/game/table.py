"""The table: a game with seats, connection clocks and an event log
(docs/rules.md#scores-elimination-and-the-end-of-a-game, docs/rules.md#dealing-and-stacked-decks).

:class:`Game` is what a server wraps: it holds the rules' state machine
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

Decisions where the rules are silent (docs/rules.md, "Where the rules are silent: the table"):

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
from operator import attrgetter
from typing import Any, Optional, Sequence, Union

from .._args import read_once
from ..cards import Card, Hand, as_card
from ..errors import IllegalAction, shown
from ..results import Hint
from ..rules import Rules, RulesArg
from . import _checks as check
from .actions import Action, Rejoin, apply_action
from .capture import OPTIONAL_STATE_KEYS, STATE_KEYS, state_dict
from .deck import CardLike, check_seat_count, checked_order
from .log import copy_event, event_json, read_event, read_new, replay_events
from .observation import Observation
from .records import GameResult, HandResult
from .rng import GENERATOR, LEGACY_GENERATOR
from .state import GameState

__all__ = ["Game"]

#: the snapshot format :meth:`Game.to_json` writes: 3 holds the xoshiro256** generator's
#: four words (``rng``) and names the generator in the log's ``'new'`` event; 2 held the
#: ``random.Random`` state (~6.7 KB) and a compact log (a checkpoint and the events
#: since); 1 (before 0.2) logged every event of the game. A game restored from format 1
#: or 2 keeps its ``random.Random`` (and writes it in format 3: ``rng`` says which).
_JSON_VERSION = 3
_READABLE_VERSIONS = (1, 2, 3)


def _check_time(now: object) -> float:
    # finite only: NaN compares false with every deadline, and an infinite time would
    # end up in to_json() as the non-JSON token Infinity; within 2**53 so that adding the
    # wait never overflows a float
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not (
            -check.MAX_SAFE <= now <= check.MAX_SAFE):  # NaN fails the comparison
        raise IllegalAction(f"time must be a finite number of seconds within "
                            f"{check.MAX_SAFE}, got {shown(now)}")
    return now


def _state(name: str) -> Any:
    """A read-only property of the wrapped state's property ``name``."""
    return property(attrgetter(f"_state.{name}"), doc=f"As :attr:`GameState.{name} "
                    f"<chinchon.game.state.GameState.{name}>`.")


class Game:
    """One Chinchón table, from the first deal to the end of the game: a
    :class:`~chinchon.game.state.GameState` (the rules) with seats by name, connection
    clocks and an event log (see the module docstring).

    ``players``: the number of seats (2-6), or a sequence of 2-6 player names.
    ``seed``: seeds the game's own generator (first lead, shuffles): xoshiro256**
    through splitmix64 (:mod:`chinchon.game.rng`, docs/rules.md#the-shuffle-and-the-generator).
    ``rules``: a :class:`~chinchon.Rules` (house rules by default).
    ``deck``: the exact order to deal the first hand from (every card of the rules' deck,
    once or twice: 48 or 96 under the house rules, 40 or 80 under conga; text or
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
                 rules: RulesArg = None, deck: Optional[Sequence[CardLike]] = None,
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
        deck = read_once(deck)  # read twice below: dealt, then logged
        st = self._state = GameState(n, names=names, seed=seed, rules=rules, deck=deck,
                                     lead=lead, _generator=_generator)
        # the log: its first event (the opening, or a checkpoint of the state) and the
        # events since
        opening: dict[str, Any] = {
            "event": "new",
            "players": list(st.names) if names is not None else n,
            "seed": st.seed,
            "rules": st.rules.to_dict(),
            "deck": None if deck is None else [str(c) for c in checked_order(deck, st.rules, n)],
            "lead": lead,
        }
        if _generator != LEGACY_GENERATOR:
            opening["generator"] = _generator
        self._log_head: tuple[str, dict[str, Any]] = ("new", opening)
        self._log: list[dict[str, Any]] = []

    # ------------------------------------------------------------ what the table shows

    players: int = _state("players")
    names: tuple[str, ...] = _state("names")
    decks: int = _state("decks")
    rules: Rules = _state("rules")
    seed: int = _state("seed")
    phase: str = _state("phase")
    turn: Optional[int] = _state("turn")
    lead: int = _state("lead")
    hand_number: int = _state("hand_number")
    turns_this_hand: int = _state("turns_this_hand")
    discard_top: Optional[Card] = _state("discard_top")
    discard_size: int = _state("discard_size")
    stock_size: int = _state("stock_size")
    totals: tuple[int, ...] = _state("totals")
    in_game: tuple[bool, ...] = _state("in_game")
    chips: tuple[int, ...] = _state("chips")
    result: Optional[GameResult] = _state("result")
    last_hand: Optional[HandResult] = _state("last_hand")
    may_close: bool = _state("may_close")

    def hand(self, seat: int) -> list[Card]:
        """As :meth:`GameState.hand <chinchon.game.state.GameState.hand>`."""
        return self._state.hand(seat)

    def held(self, seat: int) -> list[Card]:
        """As :meth:`GameState.held <chinchon.game.state.GameState.held>`."""
        return self._state.held(seat)

    def unseen(self, seat: int) -> Hand:
        """As :meth:`GameState.unseen <chinchon.game.state.GameState.unseen>`."""
        return self._state.unseen(seat)

    def hints(self) -> list[Hint]:
        """As :meth:`GameState.hints <chinchon.game.state.GameState.hints>`."""
        return self._state.hints()

    def observe(self, seat: int) -> Observation:
        """The view of ``seat``: only what that seat may see (what bots are given)."""
        st = self._state
        return Observation(st, st.seat_index(seat), self._disconnected)

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-ready dict (:meth:`observe`)."""
        return self.observe(seat).to_dict()

    @property
    def disconnected(self) -> dict[int, float]:
        """Disconnected seats and the time each lost its connection."""
        return dict(self._disconnected)

    def public_now(self) -> tuple[Any, ...]:
        """:meth:`GameState.public_now <chinchon.game.state.GameState.public_now>` and,
        last, the disconnected seats (the game's own dict: read it, never change it)."""
        return (*self._state.public_now(), self._disconnected)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The event log (JSON-ready dicts, copies); :meth:`replay` rebuilds the game
        from it. It starts with the opening (``'new'``) or, from the second hand on, a
        ``'checkpoint'`` of the state when the current hand opened, then lists the events
        since (see the module docstring)."""
        kind, head = self._log_head
        first = (copy_event(head) if kind == "new"
                 else {"event": "checkpoint", "state": self._checkpoint_dict(head)})
        return [first] + [event_json(e) for e in self._log]

    def fields(self, rng: bool = True) -> dict[str, Any]:
        """The state's :meth:`~chinchon.game.state.GameState.fields` and the
        disconnected seats (``disconnected``: seat -> time)."""
        f = self._state.fields(rng)
        f["disconnected"] = dict(self._disconnected)
        return f

    def moving_fields(self) -> tuple[Any, ...]:
        """:meth:`GameState.moving_fields <chinchon.game.state.GameState.moving_fields>`
        and, last, the disconnected seats (the game's own dict): the state's own
        values, not copies (read them, never change them)."""
        return (*self._state.moving_fields(), self._disconnected)

    def state_dict(self) -> dict[str, Any]:
        """The state's fields as JSON-ready data, without the connections and the log
        (:meth:`GameState.to_dict <chinchon.game.state.GameState.to_dict>`)."""
        return self._state.to_dict()

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
        self._log_head = ("checkpoint", self.fields(rng=False))
        self._log = []

    def _checkpoint_dict(self, cap: dict[str, Any]) -> dict[str, Any]:
        d = state_dict(cap, None if cap["rng"] is not None else self._state.rng_state())
        d["disconnected"] = [[s, t] for s, t in sorted(cap["disconnected"].items())]
        return d

    # ------------------------------------------------------------ moves, logged

    def _require_here(self, phase: str) -> None:
        """In ``phase`` (a turn's), the seat to act must be connected."""
        st = self._state
        if st.phase == phase and st.turn in self._disconnected:
            raise IllegalAction(f"seat {st.turn} is disconnected; the table waits for it")

    def legal_actions(self) -> list[Action]:
        """The moves allowed now, as typed actions (none of a disconnected seat's)."""
        st, away = self._state, self._disconnected
        if st.turn is not None and st.turn in away:
            return []
        acts = st.legal_actions()
        if away and st.phase == "summary":
            acts = [a for a in acts if not (isinstance(a, Rejoin) and a.seat in away)]
        return acts

    def apply(self, action: object) -> Any:
        """Apply a move: a typed action or one of the tuples of :meth:`legal_actions`."""
        return apply_action(self, action)

    def draw(self, source: str) -> Card:
        """As :meth:`GameState.draw <chinchon.game.state.GameState.draw>`, logged (the
        reshuffle of an empty stock too)."""
        st = self._state
        self._require_here("draw")
        if (isinstance(source, str) and source == "stock" and st.phase == "draw"
                and not st.stock_size and st.discard_size):
            self.reshuffle()
        card = st.draw(source)
        self._log.append({"event": "draw", "source": source})  # the discard checks the size
        return card

    def reshuffle(self, order: Optional[Sequence[CardLike]] = None) -> list[Card]:
        """As :meth:`GameState.reshuffle <chinchon.game.state.GameState.reshuffle>`,
        logged with the new stock's order (what a replay after a checkpoint reads)."""
        self._require_here("draw")
        stock = self._state.reshuffle(order)
        # the draw that follows completes the move
        self._log.append({"event": "reshuffle", "stock": stock})
        return list(stock)

    def discard(self, card: CardLike, close: bool = False) -> Optional[HandResult]:
        """As :meth:`GameState.discard <chinchon.game.state.GameState.discard>`,
        logged."""
        st = self._state
        self._require_here("discard")
        result = st.discard(card, close)
        self._record({"event": "discard", "card": str(as_card(card)), "close": close})
        if not close and st.phase == "summary":  # the stock ran down: a void hand
            self._record({"event": "void"})
        return result

    def rejoin(self, seat: int) -> int:
        """As :meth:`GameState.rejoin <chinchon.game.state.GameState.rejoin>` (never a
        disconnected seat), logged."""
        st = self._state
        if st.phase == "summary" and st.result is None and self._disconnected:
            s = st.seat_index(seat)
            if st.rejoin_refused(s) is None and s in self._disconnected:
                raise IllegalAction(f"seat {s} cannot rejoin: seat {s} is disconnected")
        total = st.rejoin(seat)
        self._record({"event": "rejoin", "seat": st.seat_index(seat)})
        return total

    def next_hand(self, deck: Optional[Sequence[CardLike]] = None) -> None:
        """As :meth:`GameState.next_hand <chinchon.game.state.GameState.next_hand>`; the
        new hand's state replaces the last hand's events in the log."""
        self._state.next_hand(deck)
        self._checkpoint()

    # ------------------------------------------------------------ connection and time

    def _expire(self, now: float) -> bool:
        """Cancel the game if a disconnected seat still in the game has waited its
        ``reconnect_seconds`` at ``now``. A seat already out of the game has no seat or
        cards to keep: its absence never cancels the table (it only cannot rejoin)."""
        st = self._state
        wait = st.rules.reconnect_seconds
        in_game = st.in_game
        late = [s for s, t in sorted(self._disconnected.items())
                if now >= t + wait and in_game[s]]
        if not late:
            return False
        st.cancel(f"seat {late[0]} did not reconnect within {wait} s")
        self._record({"event": "timeout", "now": now})
        return True

    def _require_on(self) -> None:
        result = self._state.result
        if result is not None:
            raise IllegalAction(f"the game is over ({result.status})")

    def disconnect(self, seat: int, now: float) -> None:
        """``seat`` lost its connection at time ``now`` (seconds, from the caller's clock)."""
        self._require_on()
        seat = self._state.seat_index(seat)
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
        seat = self._state.seat_index(seat)
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
        if self._state.result is None:
            self._expire(now)

    # ------------------------------------------------------------ record and restore

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden cards included: for storage): the
        state's fields, the disconnected seats, the format and the compact log."""
        d = self._checkpoint_dict(self.fields())
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

        Everything is checked before the game is built (see
        :func:`chinchon.game.snapshot.read_state` and the module docstring); anything
        wrong raises :class:`IllegalAction` naming the field. Text is refused over
        :attr:`MAX_JSON_BYTES` or nested deeper than a snapshot is. A snapshot of the
        older format (1, a log of every event) loads with its log replaced by a
        checkpoint of its state.
        """
        if isinstance(data, dict):
            d: Any = data
        elif isinstance(data, (str, bytes, bytearray, memoryview)):
            d = check.parse_json(data, cls.MAX_JSON_BYTES)
        else:
            raise IllegalAction(f"not a saved chinchon game: a {type(data).__name__}, not "
                                f"JSON text or an object")
        if not isinstance(d, dict):
            raise IllegalAction(f"not a saved chinchon game: {check.kind_of(d)}, not an object")
        version = check.get(d, "format", "")
        if type(version) is not int or version not in _READABLE_VERSIONS:
            raise check.bad("format", f"must be one of {_READABLE_VERSIONS} (unknown game "
                                      f"format {shown(version)})")
        check.only_keys(d, "", STATE_KEYS + ("format", "disconnected", "log"),
                        optional=OPTIONAL_STATE_KEYS)
        g = _load(cls, d, "")
        log = check.read_list(d["log"], "log", min_len=1, max_len=cls.MAX_LOG_EVENTS)
        head = _read_log_head(g, log[0], "log[0]")
        events = [read_event(e, f"log[{k}]", g.players, g.rules, g.decks)
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
    def from_state(cls, d: dict[str, Any]) -> Game:
        """A game in the state ``d`` -- :meth:`state_dict`'s fields and
        ``disconnected`` (a list of ``[seat, time]``) -- every field checked as by
        :meth:`from_json`; its log starts from a checkpoint of that state."""
        g = _load(cls, check.read_object(d, "state"), "")
        g._checkpoint()
        return g

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
            new, rules = read_new(first, "log[0]")
            try:
                g = cls(new["players"], seed=new["seed"], rules=rules,
                        deck=new["deck"], lead=new["lead"],
                        _generator=new.get("generator", LEGACY_GENERATOR))
            except IllegalAction as exc:
                raise IllegalAction(f"log[0] (new) does not replay: {exc}") from None
        else:
            check.only_keys(first, "log[0]", ("event", "state"))
            g = _load(cls, check.read_object(first["state"], "log[0].state"), "log[0].state")
            g._checkpoint()
        replay_events(g, events[1:], recorded=kind == "checkpoint")
        return g

    def __repr__(self) -> str:
        st = self._state
        state = st.result.status if st.result else f"hand {st.hand_number}"
        return f"<Game {st.players} players, {st.phase}, {state}, totals {list(st.totals)}>"


def _load(cls: type[Game], d: dict[str, Any], field: str) -> Game:
    """A game with the state of ``d`` (a snapshot's fields, or a checkpoint's), all
    checked; the caller sets its log."""
    check.only_keys(d, field, STATE_KEYS + ("disconnected",),
                    optional=(("format", "log") if not field else ()) + OPTIONAL_STATE_KEYS)
    g = object.__new__(cls)
    st = g._state = GameState.from_dict(d, field)
    at = f"{field}.disconnected" if field else "disconnected"
    disconnected: dict[int, float] = {}
    n = st.players
    for i, pair in enumerate(check.read_list(d["disconnected"], at, max_len=n)):
        seat, now = check.read_list(pair, f"{at}[{i}]", length=2)
        seat = check.read_int(seat, f"{at}[{i}][0]", 0, n - 1)
        if seat in disconnected:
            raise check.bad(f"{at}[{i}][0]", f"lists seat {seat} twice")
        disconnected[seat] = check.read_time(now, f"{at}[{i}][1]")
    g._disconnected = disconnected
    return g

def _read_log_head(game: Game, value: object, field: str) -> tuple[str, dict[str, Any]]:
    """The first event of a log saved with this game, checked, and checked to be of
    this game (same names, seed and rules; a checkpoint no later than the state)."""
    st = game._state
    first = check.read_object(value, field)
    kind = check.read_str(check.get(first, "event", field), f"{field}.event",
                          ("new", "checkpoint"))
    if kind == "new":
        new, rules = read_new(first, field)
        players = new["players"]
        names = (tuple(players) if isinstance(players, list)
                 else tuple(f"Player {i + 1}" for i in range(players)))
        if names != st.names:
            raise check.bad(f"{field}.players", "are not the game's players")
        if rules != st.rules:
            raise check.bad(f"{field}.rules", "are not the game's rules")
        if new["seed"] != st.seed:
            raise check.bad(f"{field}.seed", "is not the game's seed")
        if new.get("generator", LEGACY_GENERATOR) != st.generator:
            raise check.bad(f"{field}.generator", "is not the game's generator")
        return ("new", new)
    check.only_keys(first, field, ("event", "state"))
    at = f"{field}.state"
    cp = _load(type(game), check.read_object(first["state"], at), at)
    for name in ("names", "rules", "seed"):
        if getattr(cp, name) != getattr(game, name):
            raise check.bad(f"{at}.{name}", f"is not the game's {name}")
    if cp.hand_number > game.hand_number:
        raise check.bad(f"{at}.hand_number", "is later than the game's")
    if cp._state.rng_state() != st.rng_state():
        raise check.bad(f"{at}.rng", "is not the game's generator (a checkpoint holds "
                                     "the generator's current state)")
    return ("checkpoint", cp.fields(rng=False))
