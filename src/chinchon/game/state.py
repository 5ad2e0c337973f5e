"""The rules of a whole Chinchón game as a state machine (docs/rules.md#turns-hints-and-closing,
docs/rules.md#scores-elimination-and-the-end-of-a-game, docs/rules.md#dealing-and-stacked-decks).

:class:`GameState` holds the cards, the turn, the scores and the game's own random
generator, and nothing else: no clock, no connection, no event log (those are the
table's, :mod:`chinchon.game.table`). Like an OpenSpiel state it says whose turn it is
(:attr:`turn`), lists the moves allowed now (:meth:`legal_actions`), applies one at a
time (:meth:`apply`), and can be saved and restored (:meth:`to_dict`).

Every piece of card work (deadwood, hints, the table order of a hand, the settlement
with lay-offs) is a call to the solver (:mod:`chinchon._backend`), native or pure.

Decisions where the rules are silent (docs/rules.md):

- The deck count follows the table size at the start (one deck for 2-4 seats, two for
  5-6) and never changes, even when players are eliminated.
- Randomness: the game's own generator, :class:`~chinchon.game.rng.Rng`
  (xoshiro256** seeded from ``seed`` through splitmix64; docs/rules.md#the-shuffle-and-the-generator). ``seed=None`` draws a fresh seed from the OS (never the clock) and
  records it in :attr:`seed`, so every game can be replayed. The first lead is drawn
  before the first shuffle (``rng.below(n)``); each shuffle is Fisher-Yates from the
  end (``rng.shuffle``) of the full deck in ascending card order (a new hand) or of the
  discard pile from bottom to top (a reshuffle into the stock). A game restored from a
  snapshot or a log of before this generator keeps the ``random.Random(seed)`` it had
  (the same calls: ``randrange(n)``, ``shuffle``), so it continues as it would have.
- The stock is reshuffled lazily: only when a player draws from an empty stock; the
  player may instead take the discard top. Stock and discard pile can never both be
  empty at a draw: they always hold ``cards in play - 7 x players`` >= 12 cards together (40 cards, 4 players)
  at the start of a turn, and the discard pile is only emptied by a reshuffle in the
  middle of the drawing player's own turn. Were it to happen (it cannot with 2-6
  players), drawing from the empty stock is illegal.
- A card taken from the discard pile may be discarded again in the same turn
  (docs/rules.md#turns-hints-and-closing: "discard any one of the 8 cards held").
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

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any, Optional, Sequence

from .. import _backend as solver
from .._args import check_rules
from ..cards import Card, Hand, as_card
from ..errors import ChinchonError, IllegalAction, shown
from ..results import Hint
from ..rules import Rules, RulesArg
from .actions import Action, apply_action, legal_actions
from .capture import (MAX_NAME_CHARS, MAX_SEED_BITS, MAX_TOTAL, OPTIONAL_STATE_KEYS, PHASES,
                      STATE_KEYS, state_dict)
from .deck import (CardLike, card_order, check_seat_count, checked_order, deck_for, decks_for,
                   next_in, play_order, seat_index)
from .hand_end import close_outcome, close_refused, rejoin, rejoin_refused, score_close, void_hand
from .observation import Observation
from .piles import Piles
from .records import GameResult, HandResult
from .rng import GENERATOR, generator_of, make_rng
from .snapshot import read_state

__all__ = ["GameState", "PHASES", "STATE_KEYS", "OPTIONAL_STATE_KEYS", "MAX_SEED_BITS",
           "MAX_TOTAL"]


def _view(attr: str) -> Any:
    """A read-only property of the field ``attr``."""
    return property(attrgetter(attr))


class GameState:
    """The state of one game, from the first deal to the end (see the module
    docstring). ``players`` is the number of seats (2-6); ``names`` the seats' names;
    ``seed``, ``rules``, ``deck`` and ``lead`` as for :class:`~chinchon.Game`."""

    # ------------------------------------------------------------ construction

    def __init__(self, players: int, *, names: Optional[Sequence[str]] = None,
                 seed: Optional[int] = None, rules: RulesArg = None,
                 deck: Optional[Sequence[CardLike]] = None, lead: Optional[int] = None,
                 _generator: str = GENERATOR) -> None:
        # _generator: internal, LEGACY_GENERATOR only to replay a log of before
        # xoshiro256** (chinchon.game.table)
        n = players
        rules, seed = _checked_args(n, rules, seed, lead)
        self._n = n
        self._names = tuple(names) if names is not None else tuple(
            f"Player {i + 1}" for i in range(n))
        for i, name in enumerate(self._names):
            if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
                raise IllegalAction(f"names[{i}] must be a str of at most {MAX_NAME_CHARS} "
                                    f"characters, got {shown(name, 40)}"
                                    + (f" ({len(name)} characters)"
                                       if isinstance(name, str) else ""))
        self._decks = decks_for(n)
        self._rules = rules
        dealt = None if deck is None else checked_order(deck, rules, n)
        self._seed = seed
        self._rng = make_rng(seed, _generator)
        self._totals = [0] * n
        self._in = [True] * n
        self._chips = [rules.rejoin_chips] * n
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._piles = Piles(n)
        self._phase = "draw"
        self._turn: Optional[int] = None
        self._hand_number = 0
        self._turns = 0
        self._result: Optional[GameResult] = None
        self._last: Optional[HandResult] = None
        self._hints: Optional[list[Hint]] = None
        if lead is None:
            lead = self._rng.randrange(n)  # Rng.randrange is Rng.below
        self._lead = lead
        self._deal(dealt)

    def _deal(self, deck: Optional[list[Card]]) -> None:
        """Deal a hand from ``deck`` (already checked), or from a fresh shuffle."""
        if deck is None:
            deck = deck_for(self._rules, self._decks)
            self._rng.shuffle(deck)
        order = play_order(self._in, self._lead)
        self._hands = [[] for _ in range(self._n)]
        pos = 0
        for seat in order:
            self._hands[seat] = sorted(deck[pos:pos + 7], key=card_order)
            pos += 7
        self._piles.deal(deck[pos:])
        self._hand_number += 1
        self._turns = 0
        self._turn = self._lead
        self._phase = "draw"
        self._hints = None

    # ------------------------------------------------------------ what the table shows

    players: int = _view('_n')
    """The number of seats."""

    names: tuple[str, ...] = _view('_names')

    decks: int = _view('_decks')
    """1 for 2-4 seats, 2 for 5-6 (:func:`~chinchon.game.deck.decks_for`)."""

    rules: Rules = _view('_rules')

    seed: int = _view('_seed')
    """The seed of the game's generator (drawn from the OS when none was given)."""

    @property
    def generator(self) -> str:
        """The name of the game's generator (:mod:`chinchon.game.rng`)."""
        return generator_of(self._rng)

    phase: str = _view('_phase')
    """``'draw'``, ``'discard'``, ``'summary'`` (between hands) or ``'over'``."""

    @property
    def turn(self) -> Optional[int]:
        """The seat to act (draw or discard); ``None`` in the summary and when over."""
        return self._turn if self._phase in ("draw", "discard") else None

    lead: int = _view('_lead')
    """The seat that leads (drew first in) the current or last hand."""

    hand_number: int = _view('_hand_number')
    """1 for the first hand, and so on."""

    turns_this_hand: int = _view('_turns')
    """Completed turns (draw and discard) in the current hand."""

    def seat_index(self, seat: object) -> int:
        """``seat`` as a seat number of this table (any integer type, never a bool), or
        :class:`IllegalAction`."""
        if type(seat) is int and 0 <= seat < self._n:  # the common case, on every turn
            return seat
        return seat_index(seat, self._n)

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in the order the table shows them: melds first (each
        sorted), then the unmatched cards in ascending order. Empty for a seat out of the
        hand. The caller is that seat: only it may see these cards."""
        cards = self._hands[self.seat_index(seat)]
        if not cards:
            return []
        return solver.best_melds(cards, decks=self._decks, rules=self._rules).table_order()

    def held(self, seat: int) -> list[Card]:
        """The cards of ``seat`` in ascending card order (cheaper than :meth:`hand`)."""
        if type(seat) is int and 0 <= seat < self._n:  # what the bots ask every turn
            return list(self._hands[seat])
        return list(self._hands[seat_index(seat, self._n)])

    def unseen(self, seat: int) -> Hand:
        """The cards ``seat`` cannot know the place of (a :class:`~chinchon.Hand` of the
        game's decks): the deck(s) less its own hand, the discard pile and the cards it
        saw the others take from the pile and still hold; after a reshuffle, only cards
        of that new stock it has not seen leave it (:func:`~chinchon.game.deck.
        unseen_cards`). What :func:`~chinchon.outlook` takes as ``unseen``:
        ``outlook(g.held(seat), g.unseen(seat), rules=g.rules)``."""
        s = self.seat_index(seat)
        return self._piles.unseen(s, self._hands[s], self._rules.solver.card_mask,
                                  self._decks)

    # the public record of the piles (every seat saw it; what unseen() leaves out), copies
    def discard_pile(self) -> list[Card]:
        """The cards of the discard pile, bottom to top."""
        return list(self._piles.discard)

    def taken(self, seat: int) -> list[Card]:
        """The cards ``seat`` took from the discard pile this hand and still holds."""
        return list(self._piles.taken[self.seat_index(seat)])

    def restocked(self) -> Optional[list[Card]]:
        """The stock made by this hand's last reshuffle (ascending), None before any."""
        r = self._piles.restocked
        return None if r is None else list(r)

    @property
    def discard_top(self) -> Optional[Card]:
        """The face-up card on the discard pile, or ``None`` when the pile is empty."""
        discard = self._piles.discard
        return discard[-1] if discard else None

    @property
    def discard_size(self) -> int:
        return len(self._piles.discard)

    @property
    def stock_size(self) -> int:
        return len(self._piles.stock)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def in_game(self) -> tuple[bool, ...]:
        return tuple(self._in)

    @property
    def chips(self) -> tuple[int, ...]:
        return tuple(self._chips)

    def public_now(self) -> tuple[Any, ...]:
        """What every seat sees of the table now, read at once (the table server writes
        it into every view of every event): ``(phase, turn, lead, hand_number,
        discard_top, discard_size, stock_size, totals, in_game, chips)``, each as its
        property gives it but the last three, which are the state's own lists (read
        them, never change them: they change with the game)."""
        phase = self._phase
        discard = self._piles.discard
        return (phase, self._turn if phase in ("draw", "discard") else None, self._lead,
                self._hand_number, discard[-1] if discard else None, len(discard),
                len(self._piles.stock), self._totals, self._in, self._chips)

    result: Optional[GameResult] = _view('_result')
    """``None`` while the game is on, then a :class:`GameResult`."""

    last_hand: Optional[HandResult] = _view('_last')
    """The record of the last closed hand (public once the hand is closed)."""

    def observe(self, seat: int) -> Observation:
        """The view of ``seat``: only what that seat may see (what bots are given)."""
        return Observation(self, self.seat_index(seat))

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as a JSON-ready dict (cards as text:
        :meth:`Observation.to_dict <chinchon.game.observation.Observation.to_dict>`)."""
        return self.observe(seat).to_dict()

    # ------------------------------------------------------------ legality

    def _require_phase(self, phase: str, what: str) -> None:
        if self._result is not None:
            raise IllegalAction(f"the game is over ({self._result.status})")
        if self._phase != phase:
            raise IllegalAction(f"cannot {what} in the {self._phase!r} phase "
                                f"(only in {phase!r})")

    def _close_refused(self) -> Optional[str]:
        return close_refused(self._rules, self._turns, sum(self._in))

    @property
    def may_close(self) -> bool:
        """Whether the rules let the player to act close this turn at all (the cards
        decide the rest: :meth:`hints`)."""
        return self._close_refused() is None

    def rejoin_refused(self, seat: int) -> Optional[str]:
        """Why ``seat`` may not rejoin in the summary, or None when it may."""
        return rejoin_refused(self.seat_index(seat), self._in, self._chips)

    def legal_actions(self) -> list[Action]:
        """The moves allowed now, as typed actions (equal to the tuples :meth:`apply`
        takes)."""
        return legal_actions(self)

    def apply(self, action: object) -> Any:
        """Apply a move: a typed action or one of the tuples of :meth:`legal_actions`."""
        return apply_action(self, action)

    # ------------------------------------------------------------ moves

    def draw(self, source: str) -> Card:
        """Draw the top card of the ``'stock'`` or of the ``'discard'`` pile; returns it.
        An empty stock is first replaced by the whole discard pile, shuffled."""
        self._require_phase("draw", "draw")
        seat = self._turn
        assert seat is not None
        if not isinstance(source, str):  # a numpy array or a list: no elementwise ==
            raise IllegalAction(f"draw from 'stock' or 'discard', not {shown(source)}")
        if source == "stock":
            piles = self._piles
            if not piles.stock:
                piles.reshuffle(self._rng, None)
            card = piles.stock.pop(0)
        elif source == "discard":
            card = self._piles.take_discard(seat)
        else:
            raise IllegalAction(f"draw from 'stock' or 'discard', not {shown(source)}")
        hand = self._hands[seat]
        hand.append(card)
        hand.sort(key=card_order)
        self._phase = "discard"
        self._hints = None
        return card

    def reshuffle(self, order: Optional[Sequence[CardLike]] = None) -> list[Card]:
        """At a draw from an empty stock, the discard pile becomes the stock, shuffled
        by the game's generator or in ``order`` (a recorded reshuffle replayed, checked);
        returns it, top first. :meth:`draw` does it itself when needed."""
        self._require_phase("draw", "reshuffle")
        return self._piles.reshuffle(self._rng, order)

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
        what = "close" if close is True else "discard"
        self._require_phase("discard", what)
        seat = self._turn
        assert seat is not None
        if not isinstance(close, bool):
            raise IllegalAction(f"close must be True or False, got {shown(close)}")
        try:
            c = as_card(card)
        except ValueError as exc:
            raise IllegalAction(f"cannot {what}: {exc}") from None
        hand = self._hands[seat]
        pos = _find(hand, c)
        if pos < 0:
            raise IllegalAction(f"seat {seat} does not hold {c}")
        piles = self._piles
        if not close:
            del hand[pos]
            piles.let_go(seat, c)
            piles.discard.append(c)
            self._turns += 1
            self._hints = None
            void = self._rules.void_at_stock
            if void is not None and len(piles.stock) <= void:
                self._last = void_hand(self._hand_number, play_order(self._in, self._lead),
                                       self._n)
                self._phase, self._turn = "summary", None
                return None
            self._turn = next_in(self._in, seat)
            self._phase = "draw"
            return None
        refused = self._close_refused()
        if refused is not None:
            raise IllegalAction(f"cannot close discarding {c}: {refused}")
        kept = hand[:pos] + hand[pos + 1:]
        outcome = close_outcome(self._hints, kept, c, self._decks, self._rules)
        if outcome is None:
            raise IllegalAction(
                f"cannot close discarding {c}: the 7 cards kept have deadwood "
                f"{solver.deadwood(kept, decks=self._decks, rules=self._rules)}, over the "
                f"close limit {self._rules.close_limit}")
        order = [seat] + play_order(self._in, next_in(self._in, seat))[: sum(self._in) - 1]
        settlement = solver.settle(kept, [self._hands[s] for s in order[1:]],
                                   decks=self._decks, rules=self._rules)
        # everything checked and computed: now change the state
        del hand[pos]
        piles.let_go(seat, c)
        piles.face_down = c
        self._turns += 1
        self._hints = None
        self._last, result = score_close(self._hand_number, order, settlement, self._totals,
                                         self._in, self._rules)
        if result is not None:
            self._end(result)
        else:
            self._phase, self._turn = "summary", None
        return self._last

    def cancel(self, reason: str) -> None:
        """The table cancels the game (a seat did not come back in time, say): its
        result is ``'cancelled'``, with ``reason``."""
        self._end(GameResult("cancelled", None, reason))

    def _end(self, result: GameResult) -> None:
        self._result = result
        self._phase = "over"
        self._turn = None
        self._hints = None

    def rejoin(self, seat: int) -> int:
        """In the summary, an eliminated ``seat`` spends a chip to come back with the
        highest total among the players still in; returns that total."""
        self._require_phase("summary", "rejoin")
        seat = self.seat_index(seat)
        why = rejoin_refused(seat, self._in, self._chips)
        if why is not None:
            raise IllegalAction(f"seat {seat} cannot rejoin: {why}")
        return rejoin(seat, self._totals, self._in, self._chips)

    def next_hand(self, deck: Optional[Sequence[CardLike]] = None) -> None:
        """The host opens the next hand, led by the next player still in after the last
        lead; dealt from ``deck`` (the exact order, checked) or from a fresh shuffle."""
        self._require_phase("summary", "open the next hand")
        dealt = None if deck is None else checked_order(deck, self._rules, self._n)
        self._lead = next_in(self._in, self._lead)
        self._deal(dealt)

    # ------------------------------------------------------------ the state as data

    def fields(self, rng: bool = True) -> dict[str, Any]:
        """Every field of the state (:data:`STATE_KEYS`, :data:`OPTIONAL_STATE_KEYS`) as
        Python values, copies (cheap: no text). ``rng=False`` leaves the generator's
        state out (``None``: the current one whenever written out, as the table's log
        wants)."""
        return {
            "names": self._names, "rules": self._rules, "seed": self._seed,
            "rng": self._rng.getstate() if rng else None,
            "phase": self._phase, "turn": self._turn, "lead": self._lead,
            "hand_number": self._hand_number, "turns": self._turns,
            "hands": [list(h) for h in self._hands], **self._piles.fields(),
            "totals": list(self._totals), "in_game": list(self._in), "chips": list(self._chips),
            "result": self._result, "last_hand": self._last,
        }

    def moving_fields(self) -> tuple[Any, ...]:
        """The fields that a move changes, read without copying them (the table server
        writes them out with every event): ``(phase, turn, lead, hand_number, turns,
        hands, stock, discard, face_down, totals, in_game, chips, taken, restocked)``,
        as :meth:`fields` has them but the state's own lists (read them, never change
        them)."""
        p = self._piles
        return (self._phase, self._turn, self._lead, self._hand_number, self._turns,
                self._hands, p.stock, p.discard, p.face_down, self._totals, self._in,
                self._chips, p.taken, p.restocked)

    def rng_state(self) -> Any:
        """The game's generator's state now (what :meth:`to_dict` writes as ``rng``)."""
        return self._rng.getstate()

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden cards included: for storage)."""
        return state_dict(self.fields(), None)

    @classmethod
    def from_dict(cls, d: dict[str, Any], field: str = "") -> GameState:
        """The state that :meth:`to_dict` wrote, every field checked first
        (:func:`~chinchon.game.snapshot.read_state`): anything wrong raises
        :class:`IllegalAction` naming the field (``field`` prefixes the names)."""
        f = read_state(d, field)
        g = object.__new__(cls)
        g._names, g._n, g._decks = f["names"], len(f["names"]), decks_for(len(f["names"]))
        g._rules, g._seed, g._rng = f["rules"], f["seed"], f["rng"]
        g._phase, g._turn, g._lead = f["phase"], f["turn"], f["lead"]
        g._hand_number, g._turns = f["hand_number"], f["turns"]
        g._hands, g._piles = f["hands"], Piles.of_fields(f)
        g._totals, g._in, g._chips = f["totals"], f["in_game"], f["chips"]
        g._result, g._last = f["result"], f["last_hand"]
        g._hints = None
        return g

    def __repr__(self) -> str:
        state = self._result.status if self._result else f"hand {self._hand_number}"
        return (f"<{type(self).__name__} {self._n} players, {self._phase}, {state}, "
                f"totals {self._totals}>")


def _checked_args(players: int, rules: RulesArg, seed: Optional[int],
                  lead: Optional[int]) -> tuple[Rules, int]:
    """A new game's arguments checked, in this order (:class:`IllegalAction`): the seat
    count, the rules, the seed (drawn from the OS when None), the lead; the rules and
    the seed."""
    check_seat_count(players)
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
                             or not 0 <= lead < players):
        raise IllegalAction(f"lead must be a seat 0..{players - 1}, got {shown(lead)}")
    return rules, seed


def _find(hand: list[Card], card: Card) -> int:
    """Position of ``card`` in ``hand``, or -1 (cards are interned: identity suffices,
    and avoids a Python-level ``__eq__`` per card)."""
    for pos, c in enumerate(hand):
        if c is card:
            return pos
    return -1
