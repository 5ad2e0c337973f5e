"""The game loop: a whole Barajamos Chinchón table as a state machine (SPEC §3, §5, §8).

:class:`Game` holds one table of 3 to 6 seats. Like an OpenSpiel state it says whose
turn it is (:attr:`Game.turn`), lists what is allowed now (:meth:`Game.legal_actions`),
applies one action at a time, can be cloned and serialised (:meth:`Game.to_json`,
:meth:`Game.from_json`, :meth:`Game.replay`), and shows each seat only what that seat
may see (:meth:`Game.observation`).

The game stays thin: every piece of card work (deadwood, hints, the table order of a
hand, the settlement with lay-offs) is a call to the solver (``chinchon.deadwood``,
``discard_hints``, ``best_melds``, ``close_outcome``, ``settle``), native or pure.

Decisions where the spec is silent (also in the README):

- ``players`` is a seat count (3-6) or a sequence of 3-6 player names; seats are
  numbered 0..n-1 either way. The deck count follows the table size at the start (one
  deck for 3-4 seats, two for 5-6) and never changes, even when players are eliminated.
- Randomness: ``random.Random(seed)``. ``seed=None`` draws a fresh seed from the OS
  (never the clock) and records it in :attr:`Game.seed`, so every game can be replayed.
  The first lead is drawn before the first shuffle (``rng.randrange(n)``); each shuffle
  is ``rng.shuffle`` of the full deck in ascending card order (a new hand) or of the
  discard pile from bottom to top (a reshuffle into the stock).
- The stock is reshuffled lazily: only when a player draws from an empty stock; the
  player may instead take the discard top. Stock and discard pile can never both be
  empty at a draw: they always hold ``cards in play - 7 x players`` >= 20 cards together
  at the start of a turn, and the discard pile is only emptied by a reshuffle in the
  middle of the drawing player's own turn. Were it to happen (it cannot with 3-6
  players), drawing from the empty stock is illegal.
- A card taken from the discard pile may be discarded again in the same turn (SPEC §3:
  "discard any one of the 8 cards held").
- The closing card goes face down and is never revealed: it is not in any observation,
  not in the settlement, and not in the discard pile of the next hand (each hand is dealt
  from a full deck).
- Disconnection does not stop the table: only the disconnected seat's own moves (its
  draw and discard, its rejoin) are refused until it is back. The host may still open
  the next hand. Several seats may be disconnected at once, each with its own deadline.
  ``tick``, ``disconnect`` and ``reconnect`` first apply any deadline already passed; a
  ``reconnect`` at or after the deadline cancels the game (it is not an error). Only a
  seat still in the game can cancel it: an eliminated seat has no seat or cards to keep. Time only
  has to be a finite number; a reconnect before its own disconnection time is refused.
- Rejoin is only possible in the summary of a hand (phase ``'summary'``), which exists
  only while two or more players are in; a rejoined player is in the game for the lead
  rotation of the next hand.
- ``legal_actions()`` lists game moves as tuples, the same tuples :meth:`Game.apply`
  takes: ``('draw', 'stock')``, ``('draw', 'discard')``, ``('discard', card, close)``
  (one per distinct card; ``close=True`` only when legal), ``('rejoin', seat)``,
  ``('next_hand',)``. Connection events (``disconnect``, ``reconnect``, ``tick``) are not
  moves and are always available while the game is on.
- ``observation(seat)`` is a JSON-ready dict of strings and numbers (keys listed in
  :data:`OBSERVATION_KEYS`). It shows the discard pile's top card and its size; the
  cards below the top are not shown.
"""

from __future__ import annotations

import json
import math
import random
import sys
from operator import attrgetter, index as _as_index
from dataclasses import asdict, dataclass
from typing import Any, Optional, Sequence, Union

from .cards import Card, as_card, full_deck
from .errors import IllegalAction
from .results import CloserResult, Meld, OpponentResult, Settlement, TableMeld
from .rules import HOUSE_RULES, Rules

__all__ = ["Game", "GameResult", "HandResult", "IllegalAction", "OBSERVATION_KEYS", "PHASES"]

PHASES = ("draw", "discard", "summary", "over")

#: the keys of :meth:`Game.observation`
OBSERVATION_KEYS = (
    "seat", "names", "phase", "turn", "lead", "hand_number", "hand", "discard_top",
    "discard_size", "stock_size", "totals", "in_game", "chips", "disconnected",
    "last_hand", "result",
)

_JSON_VERSION = 1

CardLike = Union[Card, str]


def _solver() -> Any:
    """The package's chosen implementation (native or reference), looked up at call time
    so that the game follows ``chinchon``'s own selection (a dict lookup: this module is
    only ever imported as part of the package)."""
    return sys.modules["chinchon"]


def _settle(closer7: list[Card], opponents: list[list[Card]], decks: int,
            rules: Rules) -> Settlement:
    """``chinchon.settle``, falling back to ``chinchon.reference.settle``, resolved at
    call time (settle lives in its own module and may be added after this one)."""
    chinchon = sys.modules["chinchon"]
    fn = getattr(chinchon, "settle", None)
    if fn is None:
        fn = getattr(chinchon.reference, "settle", None)
    if fn is None:  # pragma: no cover - only before the settlement module is merged
        raise NotImplementedError("chinchon.settle is not available in this build")
    result: Settlement = fn(closer7, opponents, decks=decks, rules=rules)
    return result


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: ``status`` ``'won'``, ``'draw'`` or ``'cancelled'``;
    ``winner`` the winning seat or ``None``; ``reason`` a few words for people."""

    status: str
    winner: Optional[int]
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "winner": self.winner, "reason": self.reason}


@dataclass(frozen=True)
class HandResult:
    """The public record of a closed hand: ``closer`` seat, ``order`` (seats, closer
    first, then the opponents in play order, matching ``settlement.points``), the
    ``settlement``, ``points`` per seat (0 for seats not in the hand) and who was
    ``eliminated`` by it."""

    number: int
    closer: int
    order: tuple[int, ...]
    settlement: Settlement
    points: tuple[int, ...]
    eliminated: tuple[int, ...]

    @property
    def outcome(self) -> str:
        return self.settlement.outcome

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "closer": self.closer,
            "order": list(self.order),
            "outcome": self.settlement.outcome,
            "settlement": self.settlement.to_dict(),
            "points": list(self.points),
            "eliminated": list(self.eliminated),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandResult:
        return cls(d["number"], d["closer"], tuple(d["order"]),
                   _settlement_from_dict(d["settlement"]), tuple(d["points"]),
                   tuple(d["eliminated"]))


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def _melds(ds: Sequence[dict[str, Any]]) -> tuple[Meld, ...]:
    return tuple(Meld(d["kind"], _cards(d["cards"])) for d in ds)


def _settlement_from_dict(d: dict[str, Any]) -> Settlement:
    c = d["closer"]
    return Settlement(
        d["outcome"],
        CloserResult(_melds(c["melds"]), _cards(c["unmatched"]), c["points"]),
        tuple(
            OpponentResult(_melds(o["melds"]),
                           tuple((Card.parse(x), int(i)) for x, i in o["layoffs"]),
                           _cards(o["unmatched"]), o["points"])
            for o in d["opponents"]
        ),
        tuple(TableMeld(t["kind"], _cards(t["cards"]), t["owner"], t["open"])
              for t in d["table"]),
        tuple(d["points"]),
    )


def _check_seat_count(n: int) -> None:
    if not 3 <= n <= 6:
        raise IllegalAction(f"a Chinchón table seats 3 to 6 players, got {n}")


def _check_time(now: object) -> float:
    # finite only: NaN compares false with every deadline, and an infinite time would
    # end up in to_json() as the non-JSON token Infinity
    if (isinstance(now, bool) or not isinstance(now, (int, float))
            or (isinstance(now, float) and not math.isfinite(now))):
        raise IllegalAction(f"time must be a finite number of seconds, got {now!r}")
    return now


class Game:
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

    # ------------------------------------------------------------ construction

    def __init__(self, players: Union[int, Sequence[str]], *, seed: Optional[int] = None,
                 rules: Optional[Rules] = None, deck: Optional[Sequence[CardLike]] = None,
                 lead: Optional[int] = None) -> None:
        if isinstance(players, bool):
            raise IllegalAction(f"players must be a count or a list of names, got {players!r}")
        if isinstance(players, int):
            n = players
            _check_seat_count(n)
            names = tuple(f"Player {i + 1}" for i in range(n))
        elif isinstance(players, (str, bytes)):
            raise IllegalAction("players must be a count or a sequence of names, not one string")
        else:
            try:
                names = tuple(str(p) for p in players)
            except TypeError:  # None, 3.0, ...: an IllegalAction, not a bare TypeError
                raise IllegalAction(f"players must be a count or a list of names, "
                                    f"got {players!r}") from None
            n = len(names)
            _check_seat_count(n)
        if rules is None:
            rules = HOUSE_RULES
        elif not isinstance(rules, Rules):
            raise IllegalAction(f"rules must be a chinchon.Rules, got {type(rules).__name__}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise IllegalAction(f"seed must be an int or None, got {seed!r}")
        if lead is not None and (isinstance(lead, bool) or not isinstance(lead, int)
                                 or not 0 <= lead < n):
            raise IllegalAction(f"lead must be a seat 0..{n - 1}, got {lead!r}")
        self._n = n
        self._names = names
        self._decks = 2 if n >= 5 else 1
        dealt = None if deck is None else self._check_deck(deck)
        self._rules = rules
        self._seed = seed
        self._rng = random.Random(seed)
        self._totals = [0] * n
        self._in = [True] * n
        self._chips = [rules.rejoin_chips] * n
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._stock: list[Card] = []
        self._discard: list[Card] = []
        self._face_down: Optional[Card] = None
        self._phase = "draw"
        self._turn: Optional[int] = None
        self._hand_number = 0
        self._turns = 0
        self._disconnected: dict[int, float] = {}
        self._result: Optional[GameResult] = None
        self._last: Optional[HandResult] = None
        self._hints: Optional[list[Any]] = None
        self._log: list[dict[str, Any]] = [{
            "event": "new",
            "players": list(names) if not isinstance(players, int) else n,
            "seed": seed,
            "rules": asdict(rules),
            "deck": None if dealt is None else [str(c) for c in dealt],
            "lead": lead,
        }]
        if lead is None:
            lead = self._rng.randrange(n)
        self._lead = lead
        self._deal(dealt)

    def _check_deck(self, deck: Sequence[CardLike]) -> list[Card]:
        """The deck as cards, checked to hold every card exactly ``decks`` times."""
        if isinstance(deck, str):
            from .cards import parse_cards

            try:
                cards = parse_cards(deck)
            except ValueError as exc:
                raise IllegalAction(f"bad deck: {exc}") from None
        else:
            try:
                cards = [as_card(c) for c in deck]
            except (ValueError, TypeError) as exc:
                raise IllegalAction(f"bad deck: {exc}") from None
        want = 48 * self._decks
        if len(cards) != want:
            raise IllegalAction(
                f"a deck for {self._n} players has {want} cards ({self._decks} "
                f"deck{'s' if self._decks > 1 else ''}), got {len(cards)}")
        counts: dict[Card, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        for c in full_deck(1):
            k = counts.get(c, 0)
            if k != self._decks:
                raise IllegalAction(
                    f"card {c} appears {k} time{'s' if k != 1 else ''} in the deck; "
                    f"expected {self._decks}")
        return cards

    def _play_order(self, start: int) -> list[int]:
        """Seats still in the game, in play order starting at ``start`` (included if in)."""
        n = self._n
        return [s for s in ((start + k) % n for k in range(n)) if self._in[s]]

    def _next_in(self, seat: int) -> int:
        n = self._n
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self._in[s]:
                return s
        raise AssertionError("no player in the game")  # pragma: no cover

    def _deal(self, deck: Optional[list[Card]]) -> None:
        """Deal a hand from ``deck`` (already checked), or from a fresh shuffle."""
        if deck is None:
            deck = full_deck(self._decks)
            self._rng.shuffle(deck)
        order = self._play_order(self._lead)
        self._hands = [[] for _ in range(self._n)]
        pos = 0
        for seat in order:
            self._hands[seat] = sorted(deck[pos:pos + 7], key=_index)
            pos += 7
        self._discard = [deck[pos]]
        self._stock = list(deck[pos + 1:])
        self._face_down = None
        self._hand_number += 1
        self._turns = 0
        self._turn = self._lead
        self._phase = "draw"
        self._hints = None

    # ------------------------------------------------------------ what the table shows

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def decks(self) -> int:
        """1 for 3-4 seats, 2 for 5-6."""
        return self._decks

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        """The seed of the game's generator (drawn from the OS when none was given)."""
        return self._seed

    @property
    def phase(self) -> str:
        """``'draw'``, ``'discard'``, ``'summary'`` (between hands) or ``'over'``."""
        return self._phase

    @property
    def turn(self) -> Optional[int]:
        """The seat to act (draw or discard); ``None`` in the summary and when over."""
        return self._turn if self._phase in ("draw", "discard") else None

    @property
    def lead(self) -> int:
        """The seat that leads (drew first in) the current or last hand."""
        return self._lead

    @property
    def hand_number(self) -> int:
        """1 for the first hand, and so on."""
        return self._hand_number

    @property
    def turns_this_hand(self) -> int:
        """Completed turns (draw and discard) in the current hand."""
        return self._turns

    def _seat(self, seat: object) -> int:
        try:  # any integer type (numpy's too), never a bool
            index = _as_index(seat)  # type: ignore[arg-type]
        except TypeError:
            index = -1
        if isinstance(seat, bool) or not 0 <= index < self._n:
            raise IllegalAction(f"no seat {seat!r} at this table (seats 0..{self._n - 1})")
        return index

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in the order the table shows them: melds first (each
        sorted), then the unmatched cards in ascending order. Empty for a seat out of the
        hand. The caller is that seat: only it may see these cards."""
        cards = self._hands[self._seat(seat)]
        if not cards:
            return []
        arrangement = _solver().best_melds(cards, decks=self._decks)
        return [c for m in arrangement.melds for c in m.cards] + list(arrangement.unmatched)

    def held(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in ascending card order (cheaper than :meth:`hand`)."""
        return list(self._hands[self._seat(seat)])

    @property
    def discard_top(self) -> Optional[Card]:
        """The face-up card on the discard pile, or ``None`` when the pile is empty."""
        return self._discard[-1] if self._discard else None

    @property
    def discard_size(self) -> int:
        return len(self._discard)

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def in_game(self) -> tuple[bool, ...]:
        return tuple(self._in)

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(self._chips)

    @property
    def disconnected(self) -> dict[int, float]:
        """Disconnected seats and the time each lost its connection."""
        return dict(self._disconnected)

    @property
    def result(self) -> Optional[GameResult]:
        """``None`` while the game is on, then a :class:`GameResult`."""
        return self._result

    @property
    def last_hand(self) -> Optional[HandResult]:
        """The record of the last closed hand (public once the hand is closed)."""
        return self._last

    @property
    def log(self) -> list[dict[str, Any]]:
        """The event log (JSON-ready dicts); :meth:`replay` rebuilds the game from it."""
        return [_copy_event(e) for e in self._log]

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-ready dict (cards as text): its own
        hand in table order, the discard top and pile size, the stock size, totals, who
        is in, chips, disconnected seats, whose turn, the phase, the last closed hand's
        public record and the result. Nothing of the other seats' hands."""
        seat = self._seat(seat)
        top = self.discard_top
        last = self._last
        return {
            "seat": seat,
            "names": list(self._names),
            "phase": self._phase,
            "turn": self.turn,
            "lead": self._lead,
            "hand_number": self._hand_number,
            "hand": [str(c) for c in self.hand(seat)],
            "discard_top": None if top is None else str(top),
            "discard_size": len(self._discard),
            "stock_size": len(self._stock),
            "totals": list(self._totals),
            "in_game": list(self._in),
            "chips": list(self._chips),
            "disconnected": sorted(self._disconnected),
            "last_hand": None if last is None else last.to_dict(),
            "result": None if self._result is None else self._result.to_dict(),
        }

    # ------------------------------------------------------------ legality

    def _require_on(self) -> None:
        if self._result is not None:
            raise IllegalAction(f"the game is over ({self._result.status})")

    def _require_phase(self, phase: str, what: str) -> None:
        self._require_on()
        if self._phase != phase:
            raise IllegalAction(f"cannot {what} in the {self._phase!r} phase "
                                f"(only in {phase!r})")

    def _require_connected_turn(self) -> int:
        seat = self._turn
        assert seat is not None
        if seat in self._disconnected:
            raise IllegalAction(f"seat {seat} is disconnected; the table waits for it")
        return seat

    def legal_actions(self) -> list[tuple[Any, ...]]:
        """The moves allowed now, as the tuples :meth:`apply` takes."""
        if self._result is not None:
            return []
        phase = self._phase
        if phase == "draw":
            if self._turn in self._disconnected:
                return []
            out: list[tuple[Any, ...]] = []
            if self._stock or self._discard:
                out.append(("draw", "stock"))
            if self._discard:
                out.append(("draw", "discard"))
            return out
        if phase == "discard":
            if self._turn in self._disconnected:
                return []
            out = []
            for h in self.hints():
                if out and out[-1][1] is h.card:
                    continue  # a double-deck copy: one move
                out.append(("discard", h.card, False))
                if h.can_close:
                    out.append(("discard", h.card, True))
            return out
        # summary
        out = [("rejoin", s) for s in range(self._n) if self._can_rejoin(s) is None]
        out.append(("next_hand",))
        return out

    def _can_rejoin(self, seat: int) -> Optional[str]:
        """Why ``seat`` may not rejoin now, or None when it may."""
        if self._in[seat]:
            return f"seat {seat} is still in the game"
        if self._chips[seat] <= 0:
            return f"seat {seat} has no rejoin chips left"
        if sum(self._in) < 2:
            return "a rejoin needs at least two players still in the game"
        if seat in self._disconnected:
            return f"seat {seat} is disconnected"
        return None

    def apply(self, action: Sequence[Any]) -> Any:
        """Apply a move given as one of the tuples of :meth:`legal_actions`."""
        if not isinstance(action, (tuple, list)):  # 5, None, 'draw': not a move
            raise IllegalAction(f"an action is a tuple such as ('draw', 'stock'), "
                                f"got {action!r}")
        if not action:
            raise IllegalAction("empty action")
        kind, *args = action
        if kind == "draw" and len(args) == 1:
            return self.draw(args[0])
        if kind == "discard" and len(args) in (1, 2):
            return self.discard(*args)
        if kind == "rejoin" and len(args) == 1:
            return self.rejoin(args[0])
        if kind == "next_hand" and len(args) <= 1:
            return self.next_hand(*args)
        raise IllegalAction(f"unknown action {tuple(action)!r}")

    # ------------------------------------------------------------ moves

    def draw(self, source: str) -> Card:
        """Draw the top card of the ``'stock'`` or of the ``'discard'`` pile; returns it.
        An empty stock is first replaced by the whole discard pile, shuffled."""
        self._require_phase("draw", "draw")
        seat = self._require_connected_turn()
        if source == "stock":
            if not self._stock and not self._discard:  # pragma: no cover - unreachable
                raise IllegalAction("the stock and the discard pile are both empty")
            if not self._stock:
                pile = self._discard
                self._rng.shuffle(pile)
                self._stock = pile
                self._discard = []
                self._log.append({"event": "reshuffle"})
            card = self._stock.pop(0)
        elif source == "discard":
            if not self._discard:
                raise IllegalAction("the discard pile is empty")
            card = self._discard.pop()
        else:
            raise IllegalAction(f"draw from 'stock' or 'discard', not {source!r}")
        hand = self._hands[seat]
        hand.append(card)
        hand.sort(key=_index)
        self._phase = "discard"
        self._hints = None
        self._log.append({"event": "draw", "source": source})
        return card

    def hints(self) -> list[Any]:
        """The discard hints (:class:`~chinchon.Hint`) of the player to act, after the
        draw: one per card held, in ascending card order. One solver call per turn."""
        self._require_phase("discard", "ask for discard hints")
        if self._hints is None:
            seat = self._turn
            assert seat is not None
            self._hints = _solver().discard_hints(self._hands[seat], decks=self._decks,
                                                  rules=self._rules)
        return list(self._hints)

    def discard(self, card: CardLike, close: bool = False) -> Optional[HandResult]:
        """Discard ``card``; with ``close=True``, close the hand with it instead (the card
        goes face down). Returns the closed hand's record when closing, else None."""
        self._require_phase("discard", "discard")
        seat = self._require_connected_turn()
        if not isinstance(close, bool):
            raise IllegalAction(f"close must be True or False, got {close!r}")
        try:
            c = as_card(card)
        except ValueError as exc:
            raise IllegalAction(f"cannot discard: {exc}") from None
        hand = self._hands[seat]
        pos = _find(hand, c)
        if pos < 0:
            raise IllegalAction(f"seat {seat} does not hold {c}")
        if not close:
            del hand[pos]
            self._discard.append(c)
            self._turns += 1
            self._turn = self._next_in(seat)
            self._phase = "draw"
            self._hints = None
            self._log.append({"event": "discard", "card": str(c), "close": False})
            return None
        kept = hand[:pos] + hand[pos + 1:]
        outcome = self._close_outcome(kept, c)
        if outcome is None:
            raise IllegalAction(
                f"cannot close discarding {c}: the 7 cards kept have deadwood "
                f"{_solver().deadwood(kept, decks=self._decks)}, over the close limit "
                f"{self._rules.close_limit}")
        order = [seat] + self._play_order(self._next_in(seat))[: sum(self._in) - 1]
        settlement = _settle(kept, [self._hands[s] for s in order[1:]], self._decks,
                             self._rules)
        # everything checked and computed: now change the state
        del hand[pos]
        self._face_down = c
        self._turns += 1
        self._hints = None
        self._log.append({"event": "discard", "card": str(c), "close": True})
        self._finish_hand(order, settlement)
        return self._last

    def _close_outcome(self, kept: list[Card], card: Card) -> Optional[str]:
        if self._hints is not None:  # reuse this turn's hints: no extra solver call
            for h in self._hints:
                if h.card is card:
                    out: Optional[str] = h.outcome
                    return out
        res: Optional[str] = _solver().close_outcome(kept, decks=self._decks,
                                                     rules=self._rules)
        return res

    def _finish_hand(self, order: list[int], settlement: Settlement) -> None:
        points = [0] * self._n
        closer = order[0]
        if settlement.outcome == "chinchon":
            self._last = HandResult(self._hand_number, closer, tuple(order), settlement,
                                    tuple(points), ())
            self._end(GameResult("won", closer, "chinchón"))
            return
        for s, p in zip(order, settlement.points):
            points[s] = p
            self._totals[s] += p
        limit = self._rules.eliminate_above
        out = tuple(s for s in order if self._totals[s] > limit)
        for s in out:
            self._in[s] = False
        self._last = HandResult(self._hand_number, closer, tuple(order), settlement,
                                tuple(points), out)
        left = [s for s in range(self._n) if self._in[s]]
        if len(left) == 1:
            self._end(GameResult("won", left[0], "last player in the game"))
        elif not left:
            self._end(GameResult("draw", None, "every player eliminated at once"))
        else:
            self._phase = "summary"
            self._turn = None

    def _end(self, result: GameResult) -> None:
        self._result = result
        self._phase = "over"
        self._turn = None
        self._hints = None

    def rejoin(self, seat: int) -> int:
        """In the summary, an eliminated ``seat`` spends a chip to come back with the
        highest total among the players still in; returns that total."""
        self._require_phase("summary", "rejoin")
        seat = self._seat(seat)
        why = self._can_rejoin(seat)
        if why is not None:
            raise IllegalAction(f"seat {seat} cannot rejoin: {why}")
        total = max(t for t, i in zip(self._totals, self._in) if i)
        self._chips[seat] -= 1
        self._in[seat] = True
        self._totals[seat] = total
        self._log.append({"event": "rejoin", "seat": seat})
        return total

    def next_hand(self, deck: Optional[Sequence[CardLike]] = None) -> None:
        """The host opens the next hand, led by the next player still in after the last
        lead; dealt from ``deck`` (the exact order, checked) or from a fresh shuffle."""
        self._require_phase("summary", "open the next hand")
        dealt = None if deck is None else self._check_deck(deck)
        self._lead = self._next_in(self._lead)
        self._log.append({"event": "next_hand",
                          "deck": None if dealt is None else [str(c) for c in dealt]})
        self._deal(dealt)

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
        version, internal, gauss = self._rng.getstate()
        return {
            "format": _JSON_VERSION,
            "names": list(self._names),
            "rules": asdict(self._rules),
            "seed": self._seed,
            "rng": [version, list(internal), gauss],
            "phase": self._phase,
            "turn": self._turn,
            "lead": self._lead,
            "hand_number": self._hand_number,
            "turns": self._turns,
            "hands": [[str(c) for c in h] for h in self._hands],
            "stock": [str(c) for c in self._stock],
            "discard": [str(c) for c in self._discard],
            "face_down": None if self._face_down is None else str(self._face_down),
            "totals": list(self._totals),
            "in_game": list(self._in),
            "chips": list(self._chips),
            "disconnected": [[s, t] for s, t in sorted(self._disconnected.items())],
            "result": None if self._result is None else self._result.to_dict(),
            "last_hand": None if self._last is None else self._last.to_dict(),
            "log": self.log,
        }

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
        try:
            if d.get("format") != _JSON_VERSION:
                raise IllegalAction(f"unknown game format {d.get('format')!r}")
            g = object.__new__(cls)
            g._names = tuple(d["names"])
            g._n = len(g._names)
            _check_seat_count(g._n)
            g._decks = 2 if g._n >= 5 else 1
            g._rules = Rules(**d["rules"])
            g._seed = d["seed"]
            g._rng = random.Random()
            version, internal, gauss = d["rng"]
            g._rng.setstate((version, tuple(internal), gauss))
            g._phase = d["phase"]
            g._turn = d["turn"]
            g._lead = d["lead"]
            g._hand_number = d["hand_number"]
            g._turns = d["turns"]
            g._hands = [list(_cards(h)) for h in d["hands"]]
            g._stock = list(_cards(d["stock"]))
            g._discard = list(_cards(d["discard"]))
            g._face_down = None if d["face_down"] is None else Card.parse(d["face_down"])
            g._totals = list(d["totals"])
            g._in = list(d["in_game"])
            g._chips = list(d["chips"])
            g._disconnected = {int(s): t for s, t in d["disconnected"]}
            r = d["result"]
            g._result = None if r is None else GameResult(r["status"], r["winner"],
                                                          r.get("reason", ""))
            g._last = None if d["last_hand"] is None else HandResult.from_dict(d["last_hand"])
            g._hints = None
            g._log = [_copy_event(e) for e in d["log"]]
        except (KeyError, TypeError, AttributeError) as exc:
            raise IllegalAction(f"not a saved chinchon game: {exc!r}") from None
        if g._phase not in PHASES:
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


_index = attrgetter("index")


def _copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of a log event that shares no list or dict with it (an event holds
    numbers, strings and flat lists/dicts of them: the deck, the names, the rules), so
    that a caller editing :attr:`Game.log` or a saved dict cannot change the game."""
    return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
            for k, v in event.items()}


def _find(hand: list[Card], card: Card) -> int:
    """Position of ``card`` in ``hand``, or -1 (cards are interned: identity suffices,
    and avoids a Python-level ``__eq__`` per card)."""
    for pos, c in enumerate(hand):
        if c is card:
            return pos
    return -1
