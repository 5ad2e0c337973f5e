"""The encoding of the learning environments: the action numbers and the observation
vector, the one place that defines them (docs/rl.md lays them out field by field; a
vectorised C implementation must reproduce this module exactly).

**Actions** (``N_ACTIONS = 132``, one ``Discrete`` space for every decision):

- ``0 + i``: discard the card of public index ``i`` (:func:`chinchon.cards.card_index`:
  ``16 * suit + rank - 1``; the jokers ``*1`` and ``*2`` are 12 and 28);
- ``64 + i``: close the hand with card ``i`` (it goes face down);
- ``128``: draw the stock's top card; ``129``: take the discard pile's top card;
- ``130``: rejoin (spend a chip, between hands); ``131``: stay out.

**Observation**: a ``float32`` vector of ``OBS_SIZE = 897`` numbers, the same layout
for every table size: 13 card planes of 64 (one number per card index), then 6 seat rows
of 7 fields (row 0 is the observing seat, row ``k`` the seat ``k`` places after it in
play order; rows past the table's size are zero), then 23 scalars. Every number is an
integer (counts, points, flags), clipped to ``[-CLIP, CLIP]`` where it could grow
past what a ``float32`` holds exactly. Nothing in it depends on a card the seat has not
seen: it is read from :class:`~chinchon.game.Observation` (its own hand, and the piles'
public record), kept up to date move by move.

:class:`Encoder` keeps one table's numbers in a flat source vector ``src`` in absolute
seat order (every seat's hand and taken cards, the piles, the seat fields, the scalars
and a zero) and builds a seat's observation as one gather, ``src[index[seat]]``.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..cards import CARD_AT, Card
from ..errors import ChinchonError, shown
from ..game.observation import Observation
from ..rules import MAX_CARD_POINTS, MAX_JOKER_POINTS, Rules

__all__ = [
    "N_CARDS", "MAX_SEATS", "DISCARD", "CLOSE", "DRAW_STOCK", "DRAW_DISCARD", "REJOIN",
    "STAY_OUT", "N_ACTIONS", "CARD_PLANES", "SEAT_FIELDS", "SCALARS", "PHASES", "CLIP",
    "OBS_SIZE", "FIELDS", "OBS_LOW", "OBS_HIGH", "Encoder", "action_name", "action_of",
]

#: card slots: one per public card index (bits 0-63; 50 of them are cards under some
#: rules, the others are never set)
N_CARDS = 64
#: seat rows in every observation (tables of 2-6 seats)
MAX_SEATS = 6

#: the action numbers: discard card ``i`` is ``DISCARD + i``, close with it ``CLOSE + i``
DISCARD = 0
CLOSE = 64
DRAW_STOCK = 128
DRAW_DISCARD = 129
REJOIN = 130
STAY_OUT = 131
N_ACTIONS = 132

#: the card planes, 64 numbers each, in order (see docs/rl.md): taken_k is what the seat
#: k places after the observer took from the discard pile and still holds
CARD_PLANES = ("hand", "discard_pile", "discard_top", "restocked",
               *(f"taken_{k}" for k in range(MAX_SEATS)), "deck", "jokers", "points")
#: the fields of each seat row, in order
SEAT_FIELDS = ("present", "in_game", "total", "chips", "to_act", "lead", "last_points")
#: the scalars, in order
SCALARS = ("phase_draw", "phase_discard", "phase_rejoin", "phase_over", "stock_size",
           "discard_size", "hand_number", "turns_this_hand", "may_close", "players",
           "decks", "close_limit", "eliminate_above", "minus_ten", "seven_run_wins",
           "joker_chinchon_on", "joker_chinchon", "first_round_close", "all_out_lowest",
           "void_at_stock_on", "void_at_stock", "rejoin_chips", "max_points")
#: the phases of the observation (``phase_*``): a turn's draw or discard, a seat's
#: rejoin decision between hands, the end of the game
PHASES = ("draw", "discard", "rejoin", "over")
#: numbers that could grow without bound (totals, chips, rule numbers) are clipped to
#: +-CLIP, the largest range a float32 holds every integer of
CLIP = 2 ** 24

_NP = len(CARD_PLANES)
_NF = len(SEAT_FIELDS)
_PLANES_AT = 0
_SEATS_AT = _NP * N_CARDS
_SCALARS_AT = _SEATS_AT + MAX_SEATS * _NF
OBS_SIZE = _SCALARS_AT + len(SCALARS)

#: where each named part lies in the observation: name -> (offset, length)
FIELDS: dict[str, tuple[int, int]] = {}
for _i, _name in enumerate(CARD_PLANES):
    FIELDS[_name] = (_PLANES_AT + _i * N_CARDS, N_CARDS)
for _k in range(MAX_SEATS):
    for _j, _name in enumerate(SEAT_FIELDS):
        FIELDS[f"seat_{_k}.{_name}"] = (_SEATS_AT + _k * _NF + _j, 1)
for _j, _name in enumerate(SCALARS):
    FIELDS[_name] = (_SCALARS_AT + _j, 1)

#: the most a card can cost under any rules: a joker (up to 50) or a natural card (31)
_MOST_POINTS = max(MAX_CARD_POINTS, MAX_JOKER_POINTS)

_BOUNDS = {
    "hand": (0, 2), "discard_pile": (0, 2), "discard_top": (0, 1), "restocked": (0, 2),
    **{f"taken_{k}": (0, 2) for k in range(MAX_SEATS)},
    "deck": (0, 2), "jokers": (0, 1), "points": (0, _MOST_POINTS),
    "present": (0, 1), "in_game": (0, 1), "total": (-CLIP, CLIP), "chips": (0, CLIP),
    "to_act": (0, 1), "lead": (0, 1), "last_points": (-CLIP, CLIP),
    "phase_draw": (0, 1), "phase_discard": (0, 1), "phase_rejoin": (0, 1),
    "phase_over": (0, 1), "stock_size": (0, 96), "discard_size": (0, 96),
    "hand_number": (0, CLIP), "turns_this_hand": (0, CLIP), "may_close": (0, 1),
    "players": (0, MAX_SEATS), "decks": (0, 2), "close_limit": (0, 255),
    "eliminate_above": (0, CLIP), "minus_ten": (0, CLIP), "seven_run_wins": (0, 1),
    "joker_chinchon_on": (0, 1), "joker_chinchon": (0, CLIP), "first_round_close": (0, 1),
    "all_out_lowest": (0, 1), "void_at_stock_on": (0, 1), "void_at_stock": (0, 255),
    "rejoin_chips": (0, CLIP), "max_points": (0, _MOST_POINTS),
}


def _bounds() -> tuple[np.ndarray, np.ndarray]:
    low = np.zeros(OBS_SIZE, np.float32)
    high = np.zeros(OBS_SIZE, np.float32)
    for name, (at, size) in FIELDS.items():
        lo, hi = _BOUNDS[name.split(".")[-1]]
        low[at:at + size] = lo
        high[at:at + size] = hi
    return low, high


#: the bounds of every number of the observation (the ``Box`` of the environments)
OBS_LOW, OBS_HIGH = _bounds()


def _clip(x: int) -> int:
    return -CLIP if x < -CLIP else CLIP if x > CLIP else x


def action_name(action: int) -> str:
    """What action number ``action`` does, in words (``'discard 7o'``, ``'close with
    *1'``, ``'draw from the stock'``...)."""
    if 0 <= action < CLOSE:
        return f"discard {_card_text(action)}"
    if CLOSE <= action < DRAW_STOCK:
        return f"close with {_card_text(action - CLOSE)}"
    return {DRAW_STOCK: "draw from the stock", DRAW_DISCARD: "take the discard",
            REJOIN: "rejoin", STAY_OUT: "stay out"}.get(action, "no action")


def _card_text(index: int) -> str:
    card = CARD_AT[index]
    return str(card) if card is not None else f"(no card at index {index})"


def action_of(move: Any) -> int:
    """The action number of a move of :meth:`Game.legal_actions
    <chinchon.Game.legal_actions>` or of a bot: ``('draw', 'stock')``, ``('draw',
    'discard')``, ``('discard', card, close)``, ``('rejoin', seat)``; ``'stock'`` and
    ``'discard'`` (a bot's draw), ``(card, close)`` (a bot's discard), ``True`` /
    ``False`` (a bot's rejoin answer). Anything else, ``NextHand`` included (the
    environments deal the next hand themselves: it is no seat's decision), is a
    :class:`~chinchon.ChinchonError` naming it."""
    if move is True:
        return REJOIN
    if move is False:
        return STAY_OUT
    if isinstance(move, str):
        if move in _SOURCES:
            return _SOURCES[move]
        raise _no_action(move, "a bot's draw is 'stock' or 'discard'")
    if not isinstance(move, (tuple, list)) or not move:
        raise _no_action(move)
    kind = move[0]
    if kind == "draw":
        if len(move) == 2 and isinstance(move[1], str) and move[1] in _SOURCES:
            return _SOURCES[move[1]]
        raise _no_action(move, "a draw is ('draw', 'stock') or ('draw', 'discard')")
    if kind == "discard" and len(move) in (2, 3):
        close = len(move) == 3 and move[2]
        return (CLOSE if close else DISCARD) + _card_of(move, move[1]).index
    if kind == "rejoin" and len(move) == 2:
        return REJOIN
    if kind == "next_hand":
        raise _no_action(move, "dealing the next hand is no seat's decision (a seat that "
                               "stays out: action_of(False))")
    if isinstance(kind, Card) or (isinstance(kind, str) and kind not in _KINDS):
        if len(move) == 2:  # a bot's (card, close)
            return (CLOSE if move[1] else DISCARD) + _card_of(move, kind).index
    raise _no_action(move)


_SOURCES = {"stock": DRAW_STOCK, "discard": DRAW_DISCARD}
_KINDS = ("draw", "discard", "rejoin", "next_hand")


def _no_action(move: Any, why: str = "") -> ChinchonError:
    return ChinchonError(f"no action number for {shown(move)}" + (f": {why}" if why else
                         ": the moves are ('draw', source), ('discard', card, close), "
                         "('rejoin', seat), a bot's 'stock' / 'discard', (card, close), "
                         "True or False"))


def _card_of(move: Any, card: Any) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except ChinchonError as e:
            raise _no_action(move, str(e)) from None
    raise _no_action(move, f"the card must be a Card or its text, got {shown(card)}")


# the flat source vector of a table (absolute seats)
_HANDS = 0
_TAKEN = _HANDS + MAX_SEATS * N_CARDS
_DISCARD = _TAKEN + MAX_SEATS * N_CARDS
_TOP = _DISCARD + N_CARDS
_RESTOCK = _TOP + N_CARDS
_DECK = _RESTOCK + N_CARDS
_JOKERS = _DECK + N_CARDS
_POINTS = _JOKERS + N_CARDS
_SEATF = _POINTS + N_CARDS
_SCAL = _SEATF + MAX_SEATS * _NF
_ZERO = _SCAL + len(SCALARS)
_SRC_SIZE = _ZERO + 1

_F = {name: j for j, name in enumerate(SEAT_FIELDS)}
_S = {name: _SCAL + j for j, name in enumerate(SCALARS)}
_PHASE_AT = {p: _S[f"phase_{p}"] for p in PHASES}
_TO_ACT = _F["to_act"]
_STOCK_SIZE, _DISCARD_SIZE = _S["stock_size"], _S["discard_size"]
_TURNS, _MAY_CLOSE = _S["turns_this_hand"], _S["may_close"]
_TURN_PHASES = ("draw", "discard")


def _index(players: int, seat: int) -> np.ndarray:
    """The gather of ``seat``'s observation out of the source vector."""
    idx = np.full(OBS_SIZE, _ZERO, np.intp)
    cards = np.arange(N_CARDS)

    def plane(name: str, src_at: int) -> None:
        at = FIELDS[name][0]
        idx[at:at + N_CARDS] = src_at + cards

    plane("hand", _HANDS + seat * N_CARDS)
    plane("discard_pile", _DISCARD)
    plane("discard_top", _TOP)
    plane("restocked", _RESTOCK)
    for k in range(players):
        plane(f"taken_{k}", _TAKEN + (seat + k) % players * N_CARDS)
    plane("deck", _DECK)
    plane("jokers", _JOKERS)
    plane("points", _POINTS)
    for k in range(players):
        row = _SEATF + (seat + k) % players * _NF
        idx[_SEATS_AT + k * _NF:_SEATS_AT + (k + 1) * _NF] = row + np.arange(_NF)
    idx[_SCALARS_AT:] = _SCAL + np.arange(len(SCALARS))
    return idx


class Encoder:
    """One table's observations, kept up to date move by move (see the module
    docstring). ``sync`` rebuilds everything from the state (a new hand, a close, a
    reshuffle, a rejoin); ``drew`` and ``discarded`` follow a turn's two moves;
    ``status`` sets whose decision it is. ``observe(seat)`` is a new array."""

    __slots__ = ("players", "src", "index", "_to_act", "_phase")

    def __init__(self, players: int, rules: Rules, decks: int) -> None:
        self.players = players
        src = self.src = np.zeros(_SRC_SIZE, np.float32)
        solver = rules.solver
        for i in range(N_CARDS):
            if solver.card_mask >> i & 1:
                src[_DECK + i] = decks
                src[_POINTS + i] = solver.bit_points[i]
            if solver.joker_mask >> i & 1:
                src[_JOKERS + i] = 1
        for s in range(players):
            src[_SEATF + s * _NF + _F["present"]] = 1
        S = _S
        src[S["players"]] = players
        src[S["decks"]] = decks
        src[S["close_limit"]] = rules.close_limit
        src[S["eliminate_above"]] = _clip(rules.eliminate_above)
        src[S["minus_ten"]] = _clip(rules.minus_ten)
        src[S["seven_run_wins"]] = rules.seven_run_wins
        src[S["joker_chinchon_on"]] = rules.joker_chinchon is not None
        src[S["joker_chinchon"]] = _clip(rules.joker_chinchon or 0)
        src[S["first_round_close"]] = rules.first_round_close
        src[S["all_out_lowest"]] = rules.all_out == "lowest"
        src[S["void_at_stock_on"]] = rules.void_at_stock is not None
        src[S["void_at_stock"]] = rules.void_at_stock or 0
        src[S["rejoin_chips"]] = _clip(rules.rejoin_chips)
        src[S["max_points"]] = max(p for i, p in enumerate(solver.bit_points)
                                   if solver.card_mask >> i & 1)  # the deck's cards only
        self.index = [_index(players, s) for s in range(players)]
        self._to_act: Optional[int] = None
        self._phase = "over"

    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (a new ``float32`` array of ``OBS_SIZE``)."""
        return self.src.take(self.index[seat])

    def sync(self, state: Any, phase: str, to_act: Optional[int]) -> None:
        """Everything from ``state`` (a :class:`~chinchon.game.state.GameState`), read
        through each seat's :class:`~chinchon.game.Observation`; then :meth:`status`."""
        src = self.src
        n = self.players
        src[_HANDS:_RESTOCK + N_CARDS] = 0
        views = [Observation(state, s) for s in range(n)]
        pub = views[0]
        for s, view in enumerate(views):
            base = _HANDS + s * N_CARDS
            for c in view.held():
                src[base + c.index] += 1
            base = _TAKEN + s * N_CARDS
            for c in pub.taken(s):
                src[base + c.index] += 1
        for c in pub.discard_pile():
            src[_DISCARD + c.index] += 1
        top = pub.discard_top
        if top is not None:
            src[_TOP + top.index] = 1
        restocked = pub.restocked()
        for c in restocked or ():
            src[_RESTOCK + c.index] += 1
        totals, in_game, chips = pub.totals, pub.in_game, pub.chips
        last = pub.last_hand
        points = last.points if last is not None else (0,) * n
        lead = pub.lead
        for s in range(n):
            row = _SEATF + s * _NF
            src[row + _F["in_game"]] = in_game[s]
            src[row + _F["total"]] = _clip(totals[s])
            src[row + _F["chips"]] = _clip(chips[s])
            src[row + _F["lead"]] = s == lead
            src[row + _F["last_points"]] = _clip(points[s])
        src[_S["hand_number"]] = _clip(pub.hand_number)
        self._to_act = None
        for s in range(n):
            src[_SEATF + s * _NF + _TO_ACT] = 0
        self.status(state, phase, to_act)

    def drew(self, seat: int, card: Card, from_discard: bool, state: Any) -> None:
        """``seat`` drew ``card`` from the stock (hidden: only its own hand shows it) or
        took it from the discard pile (public)."""
        src = self.src
        i = card.index
        src[_HANDS + seat * N_CARDS + i] += 1
        if from_discard:
            src[_TAKEN + seat * N_CARDS + i] += 1
            src[_DISCARD + i] -= 1
            src[_TOP + i] = 0
            top = state.discard_top
            if top is not None:
                src[_TOP + top.index] = 1

    def discarded(self, seat: int, card: Card, old_top: Optional[Card]) -> None:
        """``seat`` discarded ``card`` face up onto ``old_top``."""
        src = self.src
        i = card.index
        src[_HANDS + seat * N_CARDS + i] -= 1
        t = _TAKEN + seat * N_CARDS + i
        if src[t]:
            src[t] -= 1
        src[_DISCARD + i] += 1
        if old_top is not None:
            src[_TOP + old_top.index] = 0
        src[_TOP + i] = 1

    def status(self, state: Any, phase: str, to_act: Optional[int]) -> None:
        """The phase of the observation (:data:`PHASES`), the seat whose decision it is
        (None when the game is over) and the counters that change every move."""
        src = self.src
        if phase != self._phase:
            src[_PHASE_AT[self._phase]] = 0
            src[_PHASE_AT[phase]] = 1
            self._phase = phase
        if to_act != self._to_act:
            if self._to_act is not None:
                src[_SEATF + self._to_act * _NF + _TO_ACT] = 0
            if to_act is not None:
                src[_SEATF + to_act * _NF + _TO_ACT] = 1
            self._to_act = to_act
        src[_STOCK_SIZE] = state.stock_size
        src[_DISCARD_SIZE] = state.discard_size
        turns = state.turns_this_hand
        src[_TURNS] = turns if turns < CLIP else CLIP
        src[_MAY_CLOSE] = phase in _TURN_PHASES and state.may_close
