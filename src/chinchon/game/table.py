"""The table: a game with seats, connection clocks and an event log (SPEC §5, §8).

:class:`Game` is what a server wraps: the rules' state machine
(:class:`~chinchon.game.state.GameState`) plus what a real table adds --

- **seats** by name (``players`` is a count or a sequence of names);
- **connection clocks**: a disconnected seat waits ``rules.reconnect_seconds`` on the
  caller's clock (``disconnect(seat, now)``, ``reconnect(seat, now)``, ``tick(now)``;
  the library never reads the wall clock), and the game is cancelled when it runs out;
- an **event log** from which :meth:`Game.replay` rebuilds the game, and snapshots
  (:meth:`Game.to_json` / :meth:`Game.from_json`) that restore it exactly.

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
import math
from dataclasses import asdict
from typing import Any, Optional, Sequence, Union

from ..cards import Card, as_card
from ..errors import IllegalAction
from ..rules import Rules
from .state import CardLike, GameResult, GameState, HandResult, check_seat_count

__all__ = ["Game"]

_JSON_VERSION = 1


def _check_time(now: object) -> float:
    # finite only: NaN compares false with every deadline, and an infinite time would
    # end up in to_json() as the non-JSON token Infinity
    if (isinstance(now, bool) or not isinstance(now, (int, float))
            or (isinstance(now, float) and not math.isfinite(now))):
        raise IllegalAction(f"time must be a finite number of seconds, got {now!r}")
    return now


class Game(GameState):
    """One Chinchón table, from the first deal to the end of the game.

    ``players``: the number of seats (3-6), or a sequence of 3-6 player names.
    ``seed``: seeds the game's own ``random.Random`` (first lead, shuffles).
    ``rules``: a :class:`~chinchon.Rules` (house rules by default).
    ``deck``: the exact order to deal the first hand from (48 or 96 cards, text or
    ``Card``); otherwise the game shuffles. ``lead``: the seat that leads the first hand;
    otherwise drawn from the seed.

    >>> g = Game(3, seed=1, lead=0)
    >>> g.phase, g.turn, len(g.hand(0)), g.stock_size
    ('draw', 0, 7, 26)
    """

    def __init__(self, players: Union[int, Sequence[str]], *, seed: Optional[int] = None,
                 rules: Optional[Rules] = None, deck: Optional[Sequence[CardLike]] = None,
                 lead: Optional[int] = None) -> None:
        if isinstance(players, bool):
            raise IllegalAction(f"players must be a count or a list of names, got {players!r}")
        names: Optional[tuple[str, ...]] = None
        if isinstance(players, int):
            n = players
        elif isinstance(players, (str, bytes)):
            raise IllegalAction("players must be a count or a sequence of names, not one string")
        else:
            try:
                names = tuple(str(p) for p in players)
            except TypeError:  # None, 3.0, ...: an IllegalAction, not a bare TypeError
                raise IllegalAction(f"players must be a count or a list of names, "
                                    f"got {players!r}") from None
            n = len(names)
        check_seat_count(n)
        self._disconnected: dict[int, float] = {}
        super().__init__(n, names=names, seed=seed, rules=rules, deck=deck, lead=lead)
        dealt = self._first_deal
        self._log: list[dict[str, Any]] = [{
            "event": "new",
            "players": list(self._names) if names is not None else n,
            "seed": self._seed,
            "rules": asdict(self._rules),
            "deck": None if dealt is None else [str(c) for c in dealt],
            "lead": lead,
        }]

    # ------------------------------------------------------------ what the table shows

    @property
    def disconnected(self) -> dict[int, float]:
        """Disconnected seats and the time each lost its connection."""
        return dict(self._disconnected)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The event log (JSON-ready dicts); :meth:`replay` rebuilds the game from it."""
        return [_copy_event(e) for e in self._log]

    def _is_away(self, seat: Optional[int]) -> bool:
        return seat in self._disconnected

    # ------------------------------------------------------------ moves, logged

    def draw(self, source: str) -> Card:
        card = super().draw(source)
        self._log.append({"event": "draw", "source": source})
        return card

    draw.__doc__ = GameState.draw.__doc__

    def _reshuffled(self) -> None:
        self._log.append({"event": "reshuffle"})

    def discard(self, card: CardLike, close: bool = False) -> Optional[HandResult]:
        result = super().discard(card, close)
        self._log.append({"event": "discard", "card": str(as_card(card)), "close": close})
        return result

    discard.__doc__ = GameState.discard.__doc__

    def rejoin(self, seat: int) -> int:
        total = super().rejoin(seat)
        self._log.append({"event": "rejoin", "seat": self._seat(seat)})
        return total

    rejoin.__doc__ = GameState.rejoin.__doc__

    def _open_hand(self, dealt: Optional[list[Card]]) -> None:
        self._log.append({"event": "next_hand",
                          "deck": None if dealt is None else [str(c) for c in dealt]})
        super()._open_hand(dealt)

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
        self._log.append({"event": "timeout", "now": now})
        self._end(GameResult("cancelled", None,
                             f"seat {late[0]} did not reconnect within {wait} s"))
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
        self._log.append({"event": "disconnect", "seat": seat, "now": now})

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
        self._log.append({"event": "reconnect", "seat": seat, "now": now})
        return True

    def tick(self, now: float) -> None:
        """The caller's clock says ``now``: a seat disconnected for
        ``rules.reconnect_seconds`` or more cancels the game."""
        now = _check_time(now)
        if self._result is None:
            self._expire(now)

    # ------------------------------------------------------------ record and restore

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden cards included: for storage)."""
        d = super().to_dict()
        d["format"] = _JSON_VERSION
        d["disconnected"] = [[s, t] for s, t in sorted(self._disconnected.items())]
        d["log"] = self.log
        return d

    def to_json(self) -> str:
        """The whole state as JSON text; :meth:`from_json` restores it exactly (the
        generator too, so the restored game continues identically)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, data: Union[str, bytes, dict[str, Any]]) -> Game:
        """Restore a game saved by :meth:`to_json` (text or the parsed dict)."""
        d = json.loads(data) if isinstance(data, (str, bytes)) else data
        if not isinstance(d, dict):
            raise IllegalAction(f"not a saved chinchon game: a {type(d).__name__}, "
                                f"not an object")
        g = object.__new__(cls)
        try:
            if d.get("format") != _JSON_VERSION:
                raise IllegalAction(f"unknown game format {d.get('format')!r}")
            g._restore(d)
            g._disconnected = {int(s): t for s, t in d["disconnected"]}
            g._log = [_copy_event(e) for e in d["log"]]
        except (KeyError, TypeError, AttributeError) as exc:
            raise IllegalAction(f"not a saved chinchon game: {exc!r}") from None
        if g._phase not in ("draw", "discard", "summary", "over"):
            raise IllegalAction(f"not a saved chinchon game: phase {g._phase!r}")
        return g

    def clone(self) -> Game:
        """An independent copy of the game (same state, same generator state)."""
        return Game.from_json(self.to_dict())

    @classmethod
    def replay(cls, log: Sequence[dict[str, Any]]) -> Game:
        """Rebuild a game from its event log (:attr:`log`): the same state as the game
        that wrote it."""
        if not log or log[0].get("event") != "new":
            raise IllegalAction("an event log starts with a 'new' event")
        first = log[0]
        g = cls(first["players"], seed=first["seed"], rules=Rules(**first["rules"]),
                deck=first["deck"], lead=first["lead"])
        for e in log[1:]:
            kind = e.get("event")
            if kind == "draw":
                g.draw(e["source"])
            elif kind == "discard":
                g.discard(e["card"], e["close"])
            elif kind == "rejoin":
                g.rejoin(e["seat"])
            elif kind == "next_hand":
                g.next_hand(e["deck"])
            elif kind == "disconnect":
                g.disconnect(e["seat"], e["now"])
            elif kind == "reconnect":
                g.reconnect(e["seat"], e["now"])
            elif kind == "timeout":
                g.tick(e["now"])
            elif kind == "reshuffle":
                pass  # written by the draw that follows it in the log
            else:
                raise IllegalAction(f"unknown event {kind!r} in the log")
        return g

    def __repr__(self) -> str:
        state = self._result.status if self._result else f"hand {self._hand_number}"
        return f"<Game {self._n} players, {self._phase}, {state}, totals {self._totals}>"


def _copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of a log event that shares no list or dict with it (an event holds
    numbers, strings and flat lists/dicts of them: the deck, the names, the rules), so
    that a caller editing :attr:`Game.log` or a saved dict cannot change the game."""
    return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
            for k, v in event.items()}
