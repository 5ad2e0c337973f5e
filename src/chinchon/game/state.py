"""The rules of a whole Chinchón game as a state machine (SPEC §3, §5, §8).

:class:`GameState` holds the cards, the turn, the scores and the game's own random
generator, and nothing else: no clock, no connection, no event log (those are the
table's, :mod:`chinchon.game.table`). Like an OpenSpiel state it says whose turn it is
(:attr:`turn`), lists the moves allowed now (:meth:`legal_actions`), applies one at a
time (:meth:`apply`), and can be saved and restored (:meth:`to_dict`).

Every piece of card work (deadwood, hints, the table order of a hand, the settlement
with lay-offs) is a call to the solver (:mod:`chinchon._backend`), native or pure.

Decisions where the spec is silent (also in the README):

- The deck count follows the table size at the start (one deck for 3-4 seats, two for
  5-6) and never changes, even when players are eliminated.
- Randomness: the game's own generator, :class:`~chinchon.game.rng.Rng`
  (xoshiro256** seeded from ``seed`` through splitmix64; docs/design.md, "The random
  generator"). ``seed=None`` draws a fresh seed from the OS (never the clock) and
  records it in :attr:`seed`, so every game can be replayed. The first lead is drawn
  before the first shuffle (``rng.below(n)``); each shuffle is Fisher-Yates from the
  end (``rng.shuffle``) of the full deck in ascending card order (a new hand) or of the
  discard pile from bottom to top (a reshuffle into the stock). A game restored from a
  snapshot or a log of before this generator keeps the ``random.Random(seed)`` it had
  (the same calls: ``randrange(n)``, ``shuffle``), so it continues as it would have.
- The stock is reshuffled lazily: only when a player draws from an empty stock; the
  player may instead take the discard top. Stock and discard pile can never both be
  empty at a draw: they always hold ``cards in play - 7 x players`` >= 20 cards together
  at the start of a turn, and the discard pile is only emptied by a reshuffle in the
  middle of the drawing player's own turn. Were it to happen (it cannot with 2-6
  players), drawing from the empty stock is illegal.
- A card taken from the discard pile may be discarded again in the same turn (SPEC §3:
  "discard any one of the 8 cards held").
- The closing card goes face down and is never revealed: it is not in any observation,
  not in the settlement, and not in the discard pile of the next hand (each hand is dealt
  from a full deck).
- Rejoin is only possible in the summary of a hand (phase ``'summary'``), which exists
  only while two or more players are in; a rejoined player is in the game for the lead
  rotation of the next hand.
- ``legal_actions()`` lists the moves as typed actions (:mod:`chinchon.game.actions`),
  equal to the tuples :meth:`apply` has always taken: ``('draw', 'stock')``,
  ``('draw', 'discard')``, ``('discard', card, close)`` (one per distinct card;
  ``close=True`` only when legal), ``('rejoin', seat)``, ``('next_hand',)``.
"""

from __future__ import annotations

import random
from operator import index as _as_index
from typing import Any, Optional, Sequence

from .. import _backend as solver
from .._args import check_rules
from ..cards import Card, Hand, as_card, parse_cards
from ..errors import ChinchonError, IllegalAction, shown
from ..results import Hint, one_per_card
from ..rules import Rules
from .actions import Action, Discard, Draw, NextHand, Rejoin, as_action
from .capture import StateCapture
# CardLike and _index are re-exported: table and snapshot import them from here
from .deck import CardLike as CardLike, _index as _index
from .deck import check_seat_count, deck_for, decks_for, multiset_problem
from .hand_end import HandEnd
from .observation import Observation
from .records import GameResult, HandResult
from .rng import GENERATOR, make_rng

__all__ = ["GameState", "PHASES", "STATE_KEYS", "OPTIONAL_STATE_KEYS", "MAX_SEED_BITS",
           "MAX_TOTAL"]

PHASES = ("draw", "discard", "summary", "over")

#: the fields of :meth:`GameState.to_dict`
STATE_KEYS = ("names", "rules", "seed", "rng", "phase", "turn", "lead", "hand_number", "turns",
              "hands", "stock", "discard", "face_down", "totals", "in_game", "chips", "result",
              "last_hand")
#: the fields :meth:`GameState.to_dict` writes only when they say something: ``taken``,
#: per seat the cards it took from the discard pile this hand and still holds;
#: ``restocked``, the cards the last reshuffle of this hand turned into the stock
OPTIONAL_STATE_KEYS = ("taken", "restocked")

#: a seed is an int of at most this many bits (either sign)
MAX_SEED_BITS = 256

#: the bound of a saved total (either sign): far past any game, where a hand moves a
#: total by less than 2**53 (the bound of the rules' numbers)
MAX_TOTAL = 2**128

class GameState(HandEnd, StateCapture):
    """The state of one game, from the first deal to the end (see the module
    docstring). ``players`` is the number of seats (2-6); ``names`` the seats' names;
    ``seed``, ``rules``, ``deck`` and ``lead`` as for :class:`~chinchon.Game`.

    The close and the end of a hand are :class:`~chinchon.game.hand_end.HandEnd`'s, the
    state as data (:meth:`to_dict`) :class:`~chinchon.game.capture.StateCapture`'s."""

    # ------------------------------------------------------------ construction

    def __init__(self, players: int, *, names: Optional[Sequence[str]] = None,
                 seed: Optional[int] = None, rules: Optional[Rules] = None,
                 deck: Optional[Sequence[CardLike]] = None, lead: Optional[int] = None,
                 _generator: str = GENERATOR) -> None:
        # _generator: internal, LEGACY_GENERATOR only to replay a log of before
        # xoshiro256** (chinchon.game.table)
        n = players
        check_seat_count(n)
        try:
            rules = check_rules(rules)
        except ChinchonError as exc:
            raise IllegalAction(str(exc)) from None
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif (isinstance(seed, bool) or not isinstance(seed, int)
              or seed.bit_length() > MAX_SEED_BITS):
            raise IllegalAction(f"seed must be an int of at most {MAX_SEED_BITS} bits or None, "
                                f"got {shown(seed)}")
        if lead is not None and (isinstance(lead, bool) or not isinstance(lead, int)
                                 or not 0 <= lead < n):
            raise IllegalAction(f"lead must be a seat 0..{n - 1}, got {shown(lead)}")
        self._n = n
        self._names = tuple(names) if names is not None else tuple(
            f"Player {i + 1}" for i in range(n))
        self._decks = decks_for(n)
        self._rules = rules
        dealt = None if deck is None else self._check_deck(deck)
        self._seed = seed
        self._rng = make_rng(seed, _generator)
        self._totals = [0] * n
        self._in = [True] * n
        self._chips = [rules.rejoin_chips] * n
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._stock: list[Card] = []
        self._discard: list[Card] = []
        self._face_down: Optional[Card] = None
        # per seat, the cards it took from the discard pile this hand and still holds:
        # every seat saw them taken (see unseen)
        self._taken: list[list[Card]] = [[] for _ in range(n)]
        # the cards of the last reshuffle's new stock this hand (every seat saw the pile
        # turned over), None before any
        self._restocked: Optional[list[Card]] = None
        self._phase = "draw"
        self._turn: Optional[int] = None
        self._hand_number = 0
        self._turns = 0
        self._result: Optional[GameResult] = None
        self._last: Optional[HandResult] = None
        self._hints: Optional[list[Hint]] = None
        self._first_deal = dealt  # the checked order of the first deal, for the table's log
        if lead is None:
            lead = self._rng.randrange(n)  # Rng.randrange is Rng.below
        self._lead = lead
        self._deal(dealt)

    def _check_deck(self, deck: Sequence[CardLike]) -> list[Card]:
        """The deck as cards, checked to hold every card exactly ``decks`` times."""
        if isinstance(deck, str):
            try:
                cards = parse_cards(deck)
            except ValueError as exc:
                raise IllegalAction(f"bad deck: {exc}") from None
        else:
            try:
                cards = [as_card(c) for c in deck]
            except (ValueError, TypeError) as exc:
                raise IllegalAction(f"bad deck: {exc}") from None
        want = deck_for(self._rules, self._decks)
        if len(cards) != len(want):
            raise IllegalAction(
                f"a deck for {self._n} players has {len(want)} cards ({self._decks} "
                f"deck{'s' if self._decks > 1 else ''}), got {len(cards)}")
        problem = multiset_problem(cards, want, "in the deck")
        if problem is not None:
            raise IllegalAction(problem)
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
            deck = deck_for(self._rules, self._decks)
            self._rng.shuffle(deck)
        order = self._play_order(self._lead)
        self._hands = [[] for _ in range(self._n)]
        pos = 0
        for seat in order:
            self._hands[seat] = sorted(deck[pos:pos + 7], key=_index)
            pos += 7
        self._discard = [deck[pos]]
        self._stock = list(deck[pos + 1:])
        self._taken = [[] for _ in range(self._n)]
        self._restocked = None
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
            raise IllegalAction(f"no seat {shown(seat)} at this table (seats 0..{self._n - 1})")
        return index

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in the order the table shows them: melds first (each
        sorted), then the unmatched cards in ascending order. Empty for a seat out of the
        hand. The caller is that seat: only it may see these cards."""
        cards = self._hands[self._seat(seat)]
        if not cards:
            return []
        return solver.best_melds(cards, decks=self._decks, rules=self._rules).table_order()

    def held(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in ascending card order (cheaper than :meth:`hand`)."""
        return list(self._hands[self._seat(seat)])

    def _untake(self, seat: int, card: Card) -> None:
        """``seat`` no longer holds ``card``: one copy leaves its taken cards."""
        taken = self._taken[seat]
        if card in taken:
            taken.remove(card)

    def unseen(self, seat: int) -> Hand:
        """The cards ``seat`` cannot know the place of: every card of the game's deck(s)
        but its own hand, the discard pile (every seat saw each card go there) and the
        cards it saw the other seats take from the pile this hand (while they hold
        them). What :func:`~chinchon.outlook` takes as ``unseen``:
        ``outlook(g.held(seat), g.unseen(seat), rules=g.rules)``.

        After a reshuffle the stock is the old discard pile, which every seat saw: the
        cards outside it are in the other hands, and the unseen cards are those of that
        pile the seat has not seen leave it since (a card of it drawn from the stock by
        another seat stays unseen). A :class:`~chinchon.Hand` of the game's number of
        decks."""
        s = self._seat(seat)
        cards = self._rules.solver.card_mask
        if self._decks == 1:  # a bit per card: clear what the seat knows the place of
            known = 0
            for c in self._hands[s]:
                known |= 1 << c.index
            for c in self._discard:
                known |= 1 << c.index
            for other, taken in enumerate(self._taken):
                if other != s:
                    for c in taken:
                        known |= 1 << c.index
            mask = cards & ~known
            if self._restocked is not None:
                pile = 0
                for c in self._restocked:
                    pile |= 1 << c.index
                mask &= pile
            return _hand_of(mask, 0, 1)
        counts = dict.fromkeys(range(64), 2)
        for c in self._hands[s]:
            counts[c.index] -= 1
        for c in self._discard:
            counts[c.index] -= 1
        for other, taken in enumerate(self._taken):
            if other != s:
                for c in taken:
                    counts[c.index] -= 1
        if self._restocked is not None:
            in_pile = dict.fromkeys(range(64), 0)
            for c in self._restocked:
                in_pile[c.index] += 1
            counts = {i: min(k, in_pile[i]) for i, k in counts.items()}
        once = twice = 0
        for i, k in counts.items():
            if cards >> i & 1 and k > 0:
                once |= 1 << i
                if k == 2:
                    twice |= 1 << i
        return _hand_of(once, twice, 2)

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
        """Disconnected seats and the time each lost its connection (none here: the
        connection is the table's, :class:`~chinchon.Game`)."""
        return {}

    @property
    def result(self) -> Optional[GameResult]:
        """``None`` while the game is on, then a :class:`GameResult`."""
        return self._result

    @property
    def last_hand(self) -> Optional[HandResult]:
        """The record of the last closed hand (public once the hand is closed)."""
        return self._last

    def observe(self, seat: int) -> Observation:
        """The view of ``seat``: only what that seat may see (what bots are given)."""
        return Observation(self, self._seat(seat))

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-ready dict (cards as text): its own
        hand in table order, the discard top and pile size, the stock size, totals, who
        is in, chips, disconnected seats, whose turn, the phase, the last closed hand's
        public record and the result. Nothing of the other seats' hands."""
        return self.observe(seat).to_dict()

    # ------------------------------------------------------------ legality

    def _is_away(self, seat: Optional[int]) -> bool:
        """Whether ``seat`` cannot act now for want of a connection (the table's
        business: never here)."""
        return False

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
        if self._is_away(seat):
            raise IllegalAction(f"seat {seat} is disconnected; the table waits for it")
        return seat

    def legal_actions(self) -> list[Action]:
        """The moves allowed now, as typed actions (equal to the tuples :meth:`apply`
        takes)."""
        if self._result is not None:
            return []
        phase = self._phase
        if phase == "draw":
            if self._is_away(self._turn):
                return []
            out: list[Action] = []
            if self._stock or self._discard:
                out.append(Draw("stock"))
            if self._discard:
                out.append(Draw("discard"))
            return out
        if phase == "discard":
            if self._is_away(self._turn):
                return []
            out = []
            for h in one_per_card(self.hints()):  # a double-deck copy: one move
                out.append(Discard(h.card, False))
                if h.can_close:
                    out.append(Discard(h.card, True))
            return out
        # summary
        out = [Rejoin(s) for s in range(self._n) if self._can_rejoin(s) is None]
        out.append(NextHand())
        return out

    def apply(self, action: object) -> Any:
        """Apply a move: a typed action or one of the tuples of :meth:`legal_actions`."""
        act = as_action(action)
        kind = act.kind
        if kind == "draw":
            return self.draw(act[1])
        if kind == "discard":
            return self.discard(*act[1:])
        if kind == "rejoin":
            return self.rejoin(act[1])
        return self.next_hand(*act[1:])

    # ------------------------------------------------------------ moves

    def draw(self, source: str) -> Card:
        """Draw the top card of the ``'stock'`` or of the ``'discard'`` pile; returns it.
        An empty stock is first replaced by the whole discard pile, shuffled."""
        self._require_phase("draw", "draw")
        seat = self._require_connected_turn()
        if not isinstance(source, str):  # a numpy array or a list: no elementwise ==
            raise IllegalAction(f"draw from 'stock' or 'discard', not {shown(source)}")
        if source == "stock":
            if not self._stock and not self._discard:  # pragma: no cover - unreachable
                raise IllegalAction("the stock and the discard pile are both empty")
            if not self._stock:
                pile = self._discard
                self._rng.shuffle(pile)
                self._stock = pile
                self._discard = []
                self._reshuffled()
            card = self._stock.pop(0)
        elif source == "discard":
            if not self._discard:
                raise IllegalAction("the discard pile is empty")
            card = self._discard.pop()
            self._taken[seat].append(card)
        else:
            raise IllegalAction(f"draw from 'stock' or 'discard', not {shown(source)}")
        hand = self._hands[seat]
        hand.append(card)
        hand.sort(key=_index)
        self._phase = "discard"
        self._hints = None
        return card

    def _reshuffled(self) -> None:
        """Called when the discard pile has just become the stock (the table logs it)."""
        self._restocked = sorted(self._stock, key=_index)

    def hints(self) -> list[Hint]:
        """The discard hints (:class:`~chinchon.Hint`) of the player to act, after the
        draw: one per card held, in ascending card order. One solver call per turn.
        While closing is not allowed yet (``Rules.first_round_close=False``) every hint
        says ``can_close=False``."""
        self._require_phase("discard", "ask for discard hints")
        if self._hints is None:
            seat = self._turn
            assert seat is not None
            hints = solver.discard_hints(self._hands[seat], decks=self._decks,
                                         rules=self._rules)
            if not self._rules.first_round_close and self._close_refused() is not None:
                hints = [h._replace(can_close=False, outcome=None) if h.can_close else h
                         for h in hints]
            self._hints = hints
        return list(self._hints)

    def discard(self, card: CardLike, close: bool = False) -> Optional[HandResult]:
        """Discard ``card``; with ``close=True``, close the hand with it instead (the card
        goes face down). Returns the closed hand's record when closing, else None."""
        self._require_phase("discard", "discard")
        seat = self._require_connected_turn()
        if not isinstance(close, bool):
            raise IllegalAction(f"close must be True or False, got {shown(close)}")
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
            self._untake(seat, c)
            self._discard.append(c)
            self._turns += 1
            self._hints = None
            void = self._rules.void_at_stock
            if void is not None and len(self._stock) <= void:
                self._void_hand()
                return None
            self._turn = self._next_in(seat)
            self._phase = "draw"
            return None
        refused = self._close_refused()
        if refused is not None:
            raise IllegalAction(f"cannot close discarding {c}: {refused}")
        kept = hand[:pos] + hand[pos + 1:]
        outcome = self._close_outcome(kept, c)
        if outcome is None:
            raise IllegalAction(
                f"cannot close discarding {c}: the 7 cards kept have deadwood "
                f"{solver.deadwood(kept, decks=self._decks, rules=self._rules)}, over the "
                f"close limit {self._rules.close_limit}")
        order = [seat] + self._play_order(self._next_in(seat))[: sum(self._in) - 1]
        settlement = solver.settle(kept, [self._hands[s] for s in order[1:]],
                                   decks=self._decks, rules=self._rules)
        # everything checked and computed: now change the state
        del hand[pos]
        self._untake(seat, c)
        self._face_down = c
        self._turns += 1
        self._hints = None
        self._finish_hand(order, settlement)
        return self._last

    def __repr__(self) -> str:
        state = self._result.status if self._result else f"hand {self._hand_number}"
        return (f"<{type(self).__name__} {self._n} players, {self._phase}, {state}, "
                f"totals {self._totals}>")


def _hand_of(once: int, twice: int, decks: int) -> Hand:
    """The Hand of masks the state built itself (valid cards, twice within once): set
    directly, as Hand.from_mask does once it has checked them."""
    h = object.__new__(Hand)
    object.__setattr__(h, "_once", once)
    object.__setattr__(h, "_twice", twice)
    object.__setattr__(h, "_decks", decks)
    object.__setattr__(h, "_n", bin(once).count("1") + bin(twice).count("1"))
    return h


def _find(hand: list[Card], card: Card) -> int:
    """Position of ``card`` in ``hand``, or -1 (cards are interned: identity suffices,
    and avoids a Python-level ``__eq__`` per card)."""
    for pos, c in enumerate(hand):
        if c is card:
            return pos
    return -1
