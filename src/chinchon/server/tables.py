"""One table of the server as a plain state machine over events (no sockets, no clock).

A :class:`Table` is the seats (who sits where: a person, a bot, or nobody yet), the
rules, the :class:`chinchon.Game` once it has started, and the server's own bits of
state (who is ready for the next hand). Everything that changes it is an **event
record**, a small JSON-ready dict with a ``kind``; :meth:`Table.apply` checks one and
applies it, or raises :class:`chinchon.IllegalAction` and leaves the table unchanged.
The records are what the store keeps, in order: :meth:`Table.replay` rebuilds a table
from them, exactly (the game's shuffles come from its seed, which the ``start`` record
holds). Every record carries ``now``, the table's clock (seconds) when it happened.

Record kinds (docs/protocol.md, "Stored events"): ``create``, ``join``, ``leave``,
``start``, ``draw``, ``discard``, ``close``, ``rejoin``, ``ready``, ``next_hand``,
``disconnect``, ``reconnect``, ``tick``, ``restart``, ``abandon``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Optional

from ..cards import Card
from ..errors import ChinchonError, IllegalAction
from ..game import Game
from ..game.capture import OPTIONAL_STATE_KEYS, STATE_KEYS, cards_json, seen_json
from ..rules import Rules
from ._json import encode
from .protocol import CARD_TEXTS

__all__ = ["Seat", "Table", "BOT_NAMES", "META_FORMAT", "STATE_FORMAT", "same_base"]

META_FORMAT = 1
#: the format of :meth:`Table.state_json`
STATE_FORMAT = 1



def same_base(a: Optional[tuple[Any, ...]], b: tuple[Any, ...]) -> bool:
    """Whether two base keys (:meth:`Table.state_json`) stand for the same base: the
    same seats and status, no shuffle between them (the same hand, the same count of
    reshuffles: the generator's state is the same), the very same result and last
    hand."""
    return a is not None and a[:4] == b[:4] and a[4] is b[4] and a[5] is b[5]

def _card_text(record: dict[str, Any]) -> Any:
    """The record's ``card`` as the protocol writes it, set back into the record: a
    record stored by an older server may spell it another way the engine reads (``CO``
    for ``11o``); views show, and the store keeps, the one text of each card. Text
    that is no card is left for the game to refuse."""
    card = record["card"]
    if isinstance(card, str) and card not in CARD_TEXTS:
        try:
            card = record["card"] = str(Card.parse(card))
        except ValueError:
            pass
    return card


#: names given to bots, in order, skipping any a person at the table already uses
BOT_NAMES = ("Lola", "Paco", "Carmen", "Manolo", "Pilar", "Curro", "Rocío", "Pepe",
             "Amparo", "Quique", "Reme")


@dataclass
class Seat:
    """``kind``: ``'human'``, ``'bot'`` or ``'open'`` (waiting for someone to join).
    ``token_sha256``: the hash of the seat's secret token (people only); the token
    itself is never stored."""

    kind: str
    name: str = ""
    bot: Optional[str] = None
    token_sha256: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        """Every field, as :func:`dataclasses.asdict` has them (a table's stored base
        writes its seats with every change of its base: asdict's deep copy took most of
        that time)."""
        return {f: getattr(self, f) for f in _SEAT_FIELDS}

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.bot is not None:
            out["bot"] = self.bot
        return out


#: Seat's fields, in their order (what Seat.to_dict writes)
_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


class Table:
    """See the module docstring. Attributes are read freely; change only through
    :meth:`apply`."""

    def __init__(self, table_id: str, preset: str, rules: Rules, seats: list[Seat]) -> None:
        self.id = table_id
        self.preset = preset
        self.rules = rules
        self.seats = seats
        self.status = "waiting"       # waiting -> playing -> over
        self.seq = 0                  # events applied
        self.game: Optional[Game] = None
        self.ready = [False] * len(seats)
        self.summary_since: Optional[float] = None   # clock when the summary opened
        self.clock = 0.0              # the clock of the last event
        self.reason = ""              # why a table ended without its game ending
        self.last: Optional[dict[str, Any]] = None   # the last event record
        self.bot_kind = "greedy"      # the bots that fill open seats at the start
        self.rules_dict = asdict(rules)
        self._last_hand: tuple[Any, Optional[dict[str, Any]]] = (None, None)
        #: bumped when a seat changes (join, leave, start): the stored base must follow
        self.seats_changed = 0
        #: draws that found the stock empty and had the discard pile shuffled into it
        self.reshuffles = 0
        #: the view's parts that rarely change, encoded once (see chinchon.server.views)
        self.encoded: dict[Any, Any] = {}

    # ------------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        return len(self.seats)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "bot"]

    def last_hand_dict(self) -> Optional[dict[str, Any]]:
        """The public record of the game's last closed hand as a dict, built once per
        hand (every seat's view carries it until the next close). Do not modify it."""
        last = None if self.game is None else self.game.last_hand
        if self._last_hand[0] is not last:
            self._last_hand = (last, None if last is None else last.to_dict())
        return self._last_hand[1]

    # ------------------------------------------------------------------ events

    @staticmethod
    def new_record(table_id: str, *, players: int, preset: str, rules: Rules, name: str,
                   token_sha256: str, bots: int, bot: str, now: float) -> dict[str, Any]:
        """The ``create`` record of a new table: seat 0 is the creator, the last ``bots``
        seats are bots, the rest are open. Checks the seat count with the game itself
        (its :class:`IllegalAction` is the message), without keeping that game."""
        Game(players, rules=rules, seed=0)  # raises IllegalAction for a count it refuses
        if not 0 <= bots < players:
            raise IllegalAction(f"bots must be 0..{players - 1} at a table of {players}, "
                                f"got {bots}")
        kinds = ["human"] + ["open"] * (players - 1 - bots) + ["bot"] * bots
        return {"kind": "create", "now": now, "table": table_id, "preset": preset,
                "rules": asdict(rules), "seats": kinds, "name": name,
                "token_sha256": token_sha256, "bot": bot}

    @classmethod
    def from_create(cls, record: dict[str, Any]) -> Table:
        if record.get("kind") != "create":
            raise IllegalAction("a table's first event is 'create'")
        kinds = record["seats"]
        seats = [Seat("open") for _ in kinds]
        seats[0] = Seat("human", record["name"], token_sha256=record["token_sha256"])
        t = cls(record["table"], record["preset"], Rules(**record["rules"]), seats)
        for i, k in enumerate(kinds):
            if k == "bot":
                t.seats[i] = Seat("bot", t._bot_name(), record["bot"])
        t.bot_kind = record["bot"]
        t.seq = 1
        t.clock = record["now"]
        t.last = record
        return t

    def _bot_name(self) -> str:
        taken = {s.name.casefold() for s in self.seats}
        for name in BOT_NAMES:
            if name.casefold() not in taken:
                return name
        return f"Bot {len(taken) + 1}"  # pragma: no cover - more seats than names

    def apply(self, record: dict[str, Any]) -> Any:
        """Check and apply one event record (not ``create``). On :class:`IllegalAction`
        the table is unchanged. A ``draw`` record gains the ``card`` drawn."""
        kind = record.get("kind")
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction(f"unknown event {kind!r}")
        now = record["now"]
        if self.status == "over":
            raise IllegalAction(f"table {self.id} is over")
        out = handler(record)
        self.seq += 1
        self.clock = now
        self.last = record
        if self.game is not None and self.game.result is not None:
            self.status = "over"
        return out

    def _seat(self, record: dict[str, Any]) -> int:
        seat = record["seat"]
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"no seat {seat!r} at table {self.id}")
        return seat

    def _game(self) -> Game:
        if self.game is None or self.status != "playing":
            raise IllegalAction(f"the game at table {self.id} has not started")
        return self.game

    def _my_turn(self, record: dict[str, Any]) -> tuple[Game, int]:
        game = self._game()
        seat = self._seat(record)
        if game.turn != seat:
            if game.turn is None:
                raise IllegalAction(f"no one plays in the {game.phase!r} phase")
            raise IllegalAction(f"it is seat {game.turn}'s turn ({self.seats[game.turn].name}), "
                                f"not seat {seat}'s")
        return game, seat

    def _on_join(self, r: dict[str, Any]) -> None:
        seat = self._seat(r)
        if self.status != "waiting":
            raise IllegalAction(f"table {self.id} has already started")
        if self.seats[seat].kind != "open":
            raise IllegalAction(f"seat {seat} at table {self.id} is taken")
        self.seats[seat] = Seat("human", r["name"], token_sha256=r["token_sha256"])
        self.seats_changed += 1

    def _on_leave(self, r: dict[str, Any]) -> None:
        seat = self._seat(r)
        if self.status != "waiting" or seat == 0 or self.seats[seat].kind != "human":
            raise IllegalAction("only a person other than the host may leave a table "
                                "before it starts")
        self.seats[seat] = Seat("open")
        self.seats_changed += 1

    def _on_start(self, r: dict[str, Any]) -> None:
        if self.status != "waiting":
            raise IllegalAction(f"table {self.id} has already started")
        seats = [Seat(s.kind, s.name, s.bot, s.token_sha256) for s in self.seats]
        for i in self.open_seats():
            seats[i] = Seat("bot", "", self.bot_kind)
        saved, self.seats = self.seats, seats
        for i, s in enumerate(seats):
            if s.kind == "bot" and not s.name:
                s.name = self._bot_name()
        try:
            game = Game([s.name for s in seats], seed=r["seed"], rules=self.rules)
        except IllegalAction:
            self.seats = saved
            raise
        self.game = game
        self.status = "playing"
        self.seats_changed += 1
        self.ready = [False] * self.players

    def _on_draw(self, r: dict[str, Any]) -> Any:
        game, _ = self._my_turn(r)
        empty = r["source"] == "stock" and game.stock_size == 0
        card = game.draw(r["source"])
        if empty:  # the generator shuffled the discard pile: the stored base must follow
            self.reshuffles += 1
        if "card" in r and r["card"] != str(card):  # replaying a stored event
            raise IllegalAction(f"replay diverged: the stored draw took {r['card']}, "
                                f"the game gave {card}")
        r["card"] = str(card)
        return card

    def _on_discard(self, r: dict[str, Any]) -> None:
        game, _ = self._my_turn(r)
        game.discard(_card_text(r), False)
        self._summary_opens(r)  # a discard that voids the hand (Rules.void_at_stock)

    def _on_close(self, r: dict[str, Any]) -> None:
        game, _ = self._my_turn(r)
        game.discard(_card_text(r), True)
        self._summary_opens(r)

    def _summary_opens(self, r: dict[str, Any]) -> None:
        """After a hand ends: nobody is ready yet, and the summary's wait starts now."""
        if self._game().phase == "summary":
            self.ready = [False] * self.players
            self.summary_since = r["now"]

    def _on_rejoin(self, r: dict[str, Any]) -> None:
        game = self._game()
        seat = self._seat(r)
        game.rejoin(seat)
        self.ready[seat] = True

    def _on_ready(self, r: dict[str, Any]) -> None:
        game = self._game()
        seat = self._seat(r)
        if game.phase != "summary":
            raise IllegalAction("'ready' is for the summary between hands")
        if self.ready[seat]:
            raise IllegalAction(f"seat {seat} is already ready")
        self.ready[seat] = True

    def _on_next_hand(self, r: dict[str, Any]) -> None:
        self._game().next_hand()
        self.ready = [False] * self.players
        self.summary_since = None

    def _on_disconnect(self, r: dict[str, Any]) -> None:
        self._game().disconnect(self._seat(r), r["now"])

    def _on_reconnect(self, r: dict[str, Any]) -> bool:
        return self._game().reconnect(self._seat(r), r["now"])

    def _on_tick(self, r: dict[str, Any]) -> None:
        self._game().tick(r["now"])

    def _on_restart(self, r: dict[str, Any]) -> None:
        """The server came back and every connection is gone: each listed seat (the
        people) waits afresh from now, whether it was already disconnected or not. With
        ``reconnect_seconds`` (the server's, when the table's rules said another), that
        is the table's reconnection wait from now on, at a table not started too."""
        wait = r.get("reconnect_seconds")
        rules = None if wait is None else self._rules_waiting(wait)
        if rules is not None and self.status == "waiting":
            self._use_rules(rules)
            return
        game = self._game()
        now = r["now"]
        for seat in r["seats"]:
            if game.result is not None:
                break
            if seat in game.disconnected:
                if game.reconnect(seat, now):
                    game.disconnect(seat, now)
            else:
                game.disconnect(seat, now)
        if game.phase == "summary":
            self.summary_since = r["now"]
        if rules is not None:
            self._use_rules(rules)

    def _rules_waiting(self, seconds: Any) -> Rules:
        """The table's rules with ``reconnect_seconds`` = ``seconds``."""
        try:
            return replace(self.rules, reconnect_seconds=seconds)
        except ChinchonError as exc:
            raise IllegalAction(f"table {self.id}: {exc}") from None

    def _use_rules(self, rules: Rules) -> None:
        """Play on under ``rules``, which differ from the table's in their
        ``reconnect_seconds`` alone: the game is rebuilt from its state under them."""
        game = self.game
        if game is not None:
            fields = game.state_dict()
            fields["rules"] = rules.to_dict()
            fields["disconnected"] = [[s, t] for s, t in sorted(game.disconnected.items())]
            game = Game.from_state(fields)
        self.rules, self.rules_dict, self.game = rules, asdict(rules), game
        self.encoded.clear()  # the views' parts made from the rules and the game

    def _on_abandon(self, r: dict[str, Any]) -> None:
        if self.status != "waiting":
            raise IllegalAction("only a table that has not started can be abandoned")
        self.status = "over"
        self.reason = r["reason"]

    # ------------------------------------------------------------------ storage
    #
    # A table is stored in two parts (chinchon.server.store): the *base*, written when
    # it changes -- :meth:`meta_json` (the seats, rules, ...) and :meth:`base_game_json`
    # (the game's fields that change once a hand or so: names, rules, seed, the
    # generator, the result, the last closed hand) -- and the *state*,
    # :meth:`state_json`, written with every event: the table's and the game's fields
    # that an event changes (a few hundred bytes: the hands, the stock, the discard
    # pile, the turn, the totals, ...). Base and state together are the whole table at
    # its last event: :meth:`restore` builds it from them without replaying anything.

    def meta_json(self) -> str:
        """Everything but the game, as JSON."""
        return encode({
            "format": META_FORMAT, "id": self.id, "preset": self.preset,
            "rules": self.rules_dict, "status": self.status,
            "seats": [s.to_dict() for s in self.seats], "ready": self.ready,
            "summary_since": self.summary_since, "clock": self.clock,
            "reason": self.reason, "seq": self.seq, "bot_kind": self.bot_kind,
        })

    def game_json(self) -> Optional[str]:
        """The game's own snapshot (:meth:`chinchon.Game.to_json`, with its log)."""
        return None if self.game is None else self.game.to_json()

    def base_game_json(self) -> Optional[str]:
        """The game's state fields (:meth:`chinchon.Game.state_dict`: no connections,
        no log), the part of the base that :meth:`state_json` does not repeat."""
        return None if self.game is None else encode(self.game.state_dict())

    def state_json(self) -> tuple[str, tuple[Any, ...]]:
        """The state part of the table's snapshot (see above) as JSON, and the *base
        key*: what the base holds that may change during a game. When the key differs
        (:func:`same_base`) from the one of the stored base, the base must be stored
        again with this state."""
        head = encode({
            "format": STATE_FORMAT, "seq": self.seq, "status": self.status,
            "clock": self.clock, "ready": self.ready, "summary_since": self.summary_since,
            "reason": self.reason})
        game = self.game
        if game is None:
            return head[:-1] + ',"game":null}', self.base_key()
        # the game's fields as they are now, written from the game's own values (the
        # generator's state is in the base, and changes only with a shuffle: a new
        # hand's deal or a reshuffle); the cards as text straight from the cards, and
        # what each seat saw of the piles (the unseen cards of Game.unseen)
        (phase, turn, lead, hand_number, turns, hands, stock, discard, face_down, totals,
         in_game, chips, taken, restocked, away) = game.moving_fields()
        numbers = encode({"phase": phase, "turn": turn, "lead": lead,
                          "hand_number": hand_number, "turns": turns})
        scores = encode({"totals": totals, "in_game": in_game, "chips": chips,
                         "disconnected": [[s, t] for s, t in sorted(away.items())]})
        return (head[:-1] + ',"game":' + numbers[:-1] + ","
                + cards_json(hands, stock, discard, face_down) + "," + scores[1:-1]
                + seen_json(taken, restocked) + "}}", self.base_key())

    def base_key(self) -> tuple[Any, ...]:
        """The base key of :meth:`state_json` alone, without the state."""
        game = self.game
        if game is None:
            return (self.seats_changed, self.status, 0, 0, None, None)
        return (self.seats_changed, self.status, game.hand_number, self.reshuffles,
                game.result, game.last_hand)

    @classmethod
    def restore(cls, meta: str, game: Optional[str], state: Optional[str] = None) -> Table:
        """The table from its stored base (:meth:`meta_json`; :meth:`base_game_json` or
        :meth:`game_json`) and, when given, its :meth:`state_json` (which then overrides
        what the base says of the same fields). The game comes back through
        :meth:`chinchon.Game.from_state` (or :meth:`chinchon.Game.from_json` for a whole
        snapshot), every field checked; its log starts afresh from a checkpoint of the
        restored state."""
        m = json.loads(meta)
        if m.get("format") != META_FORMAT:
            raise IllegalAction(f"unknown table format {m.get('format')!r}")
        s = None if state is None else json.loads(state)
        if s is not None:
            if s.get("format") != STATE_FORMAT:
                raise IllegalAction(f"unknown table state format {s.get('format')!r}")
            for key in ("seq", "status", "clock", "ready", "summary_since", "reason"):
                m[key] = s[key]
        t = cls(m["id"], m["preset"], Rules(**m["rules"]), [Seat(**x) for x in m["seats"]])
        t.status = m["status"]
        t.seq = m["seq"]
        t.ready = list(m["ready"])
        t.summary_since = m["summary_since"]
        t.clock = m["clock"]
        t.reason = m["reason"]
        t.bot_kind = m["bot_kind"]
        if game is None:
            if s is not None and s["game"] is not None:
                raise IllegalAction(f"table {t.id}: a stored game state without its base")
            return t
        g = json.loads(game)
        if s is not None and s["game"] is not None:
            for key in OPTIONAL_STATE_KEYS:  # the state says them when there are any
                g.pop(key, None)
            g.update(s["game"])
            fields = {k: g[k] for k in STATE_KEYS + ("disconnected",)}
            fields.update({k: g[k] for k in OPTIONAL_STATE_KEYS if k in g})
            t.game = Game.from_state(fields)
        else:
            t.game = Game.from_json(g)
        return t

    def fingerprint(self) -> str:
        """The whole table (every stored field, the game's log aside) as one JSON text:
        two tables with the same fingerprint are in the same state."""
        game = None
        if self.game is not None:
            game = self.game.state_dict()
            game["disconnected"] = sorted(self.game.disconnected.items())
        return json.dumps({"meta": json.loads(self.meta_json()), "game": game},
                          separators=(",", ":"))

    @classmethod
    def load(cls, meta: str, game: Optional[str], events: list[dict[str, Any]],
             state: Optional[str] = None) -> Table:
        """The table from a snapshot (:meth:`restore`) and the event records stored
        after it (none when the snapshot's state is at the table's last event)."""
        t = cls.restore(meta, game, state)
        for r in events:
            t.apply(dict(r))
        return t

    @classmethod
    def replay(cls, records: list[dict[str, Any]]) -> Table:
        """The table rebuilt from its event records, first (``create``) to last."""
        t = cls.from_create(records[0])
        for r in records[1:]:
            t.apply(dict(r))
        return t
