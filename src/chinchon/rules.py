"""Rule variants. :class:`Rules` holds the house rules of the Barajamos table by default.

Every field of the rules (docs/rules.md#rule-fields) is here: what the solver reads (the
deck, the jokers, the point table, how a close scores) and what the table reads
(elimination, rejoin chips, closing on the first round, ...). The named presets are
values of :class:`Rules`, importable as constants and found by name; each carries its
description (:attr:`Rules.description`):

>>> Rules.preset("conga") == CONGA_RULES
True
>>> CONGA_RULES.deck, CONGA_RULES.wild_ace_of_coins, CONGA_RULES.close_limit
(40, True, 7)
>>> Rules.from_dict(CONGA_RULES.to_dict()) == CONGA_RULES
True
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, NamedTuple, Optional, Union

from .bits import is_card_bit
from .cards import CARD_AT, JOKER_BITS, LANE_MASK, Card, as_card, rank_of
from .errors import ChinchonError, InvalidHandError, shown

__all__ = [
    "Rules",
    "SolverRules",
    "HOUSE_RULES",
    "CLASSIC_RULES",
    "CONGA_RULES",
    "FIFTY_RULES",
    "PRESETS",
    "HOUSE_POINTS",
    "RULE_BOUNDS",
    "MAX_CARD_POINTS",
    "MAX_JOKER_POINTS",
    "PRESET_DESCRIPTIONS",
    "decks_for",
]

#: the house point table: a card's points are its rank number (ranks 1-12)
HOUSE_POINTS: tuple[int, ...] = tuple(range(1, 13))
#: bit index of the ace of coins (``1o``), a joker under ``wild_ace_of_coins``
_ACE_OF_COINS = 0
#: the eights and nines of the four suits (not in the 40-card deck)
_EIGHTS_NINES = 0x0180018001800180

_MAX_SCORE = 2**31 - 1  # a score the C core holds in an int
#: the largest ``minus_ten`` the C engine plays (an int there): what a simulation's
#: native engine, the search bot's playouts and the vector env take
NATIVE_MINUS_TEN = _MAX_SCORE

#: The largest number a rule takes: 2**53 - 1, the largest integer that a float (and
#: so JSON everywhere) holds exactly.
MAX_RULE_NUMBER = 2**53 - 1

#: The range of each number of :class:`Rules` (inclusive) that the fields below do not
#: bound themselves. The C core keeps the close limit in a byte; the others only have
#: to stay exact in JSON and in float arithmetic.
RULE_BOUNDS: dict[str, tuple[int, int]] = {
    "close_limit": (0, 255),
    # every total starts at 0 and a total over this is out: below 0 the whole table
    # would be out at the first hand
    "eliminate_above": (0, MAX_RULE_NUMBER),
    "minus_ten": (0, MAX_RULE_NUMBER),
    "rejoin_chips": (0, MAX_RULE_NUMBER),
    "reconnect_seconds": (0, MAX_RULE_NUMBER),
}
#: The most a natural card's rank may be worth (``Rules.points``).
MAX_CARD_POINTS = 31
#: The most a joker may be worth (``Rules.joker_points``): with up to six jokers in two
#: decks a deadwood may then pass 255 (:attr:`SolverRules.max_deadwood`).
MAX_JOKER_POINTS = 50
_MAX_POINTS = MAX_CARD_POINTS


def decks_for(players: int) -> int:
    """How many decks a table of ``players`` seats plays with: one for 2-4 players, two
    (every card twice, jokers included) for 5-6. The one place that says it: the game
    (:mod:`chinchon.game.deck`), the settlement's default and the CLI read it here."""
    return 2 if players >= 5 else 1


#: the rank of each bit 0-63 (13-16: no natural card)
_RANKS = tuple(rank_of(i) for i in range(64))


class _SolverFields(NamedTuple):
    deck: int
    wild_ace_of_coins: bool
    jokers: int
    joker_points: int
    points: tuple[int, ...]
    seven_run_wins: bool
    joker_chinchon: Optional[int]
    close_limit: int
    minus_ten: int


@functools.lru_cache(maxsize=256)
def _bit_points(joker_mask: int, joker_points: int, points: tuple[int, ...]) -> tuple[int, ...]:
    """Points of each card bit 0-63 (see :attr:`SolverRules.bit_points`), made once per
    rule set: a snapshot load makes its rules anew. O(64) the first time, then O(1)."""
    return tuple(joker_points if joker_mask >> i & 1 or i in JOKER_BITS else
                 points[r - 1] if r <= 12 else 0 for i, r in enumerate(_RANKS))


class SolverRules(_SolverFields):
    """The part of :class:`Rules` the solver reads (``Rules.solver``): hashable, so
    caches key on it, and the same for two rule sets that only differ at the table
    (elimination, chips, ...). See :class:`Rules` for what each field means. It equals
    (and hashes as) the tuple of its nine fields; the tables below are worked out from
    them once, when the value is made."""

    # no __slots__: each value keeps its derived tables as attributes (read every turn)
    #: the bits the solver reads as jokers: ``1o`` (bit 0) under the wild ace, joker 1
    #: (bit 12) with ``jokers >= 1``, joker 2 (bit 28) with ``jokers == 2``
    joker_mask: int
    #: every bit that is a card of this deck: the 48 (or 40) natural cards and the extra
    #: jokers in play
    card_mask: int
    #: points of each card bit 0-63 left unmatched: :meth:`card_points` of every card
    #: bit, 0 for the bits that are never a card (what the bots and the pure-Python
    #: solver read)
    bit_points: tuple[int, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> SolverRules:
        self = super().__new__(cls, *args, **kwargs)
        jokers = 0
        for k in range(self.jokers):
            jokers |= 1 << JOKER_BITS[k]
        self.joker_mask = jokers | (1 << _ACE_OF_COINS if self.wild_ace_of_coins else 0)
        self.card_mask = jokers | (LANE_MASK & ~_EIGHTS_NINES if self.deck == 40
                                   else LANE_MASK)
        self.bit_points = _bit_points(self.joker_mask, self.joker_points, self.points)
        return self

    @property
    def max_deadwood(self) -> int:
        """The most points 8 cards can leave unmatched under these rules, an upper bound
        that counts two decks' jokers (each joker card and the wild ace twice, up to 8) at
        ``joker_points`` when a joker is worth more than the dearest natural card of the
        deck, and the other cards at that card's points. At most 8 x 50 = 400; every
        preset's is under 256. It decides :attr:`score_dtype`."""
        most = max(self.points[r - 1] for r in self.rank_order)
        jokers = min(8, 2 * (self.jokers + int(self.wild_ace_of_coins)))
        if self.joker_points <= most:
            return 8 * most
        return jokers * self.joker_points + (8 - jokers) * most

    @property
    def score_dtype(self) -> str:
        """The numpy dtype name of the batch results (``deadwood_batch``,
        ``hints_batch``, native and pure-Python alike): ``'uint8'`` while
        :attr:`max_deadwood` fits a byte (every preset, and any rules whose jokers are
        worth 31 or less), else ``'uint16'``."""
        return "uint8" if self.max_deadwood <= 255 else "uint16"

    @property
    def plain(self) -> bool:
        """True when melds and outcomes are the house rules' (48 cards, no jokers, points
        1-12, a 7-card run wins): only ``close_limit`` and ``minus_ten`` may differ
        (``joker_points`` and ``joker_chinchon`` then never apply)."""
        return (self.deck == 48 and not self.wild_ace_of_coins and self.jokers == 0
                and self.points == HOUSE_POINTS and self.seven_run_wins)

    @property
    def rank_order(self) -> tuple[int, ...]:
        """The ranks in run order: 1-12, or 1-7, 10, 11, 12 with the 40-card deck (the
        jack follows the seven)."""
        if self.deck == 40:
            return (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
        return HOUSE_POINTS

    def not_in_deck(self, index: int) -> str:
        """Why the card of bit ``index`` is not in this deck (``card_mask`` lacks it)."""
        card = CARD_AT[index]
        if card is not None and card.is_joker:
            return f"card {card} is not in play under these rules (jokers={self.jokers})"
        return f"card {card} is not in the 40-card deck of these rules (no eights or nines)"

    def card_points(self, index: int) -> int:
        """Points of the card of bit ``index`` left unmatched: ``joker_points`` for a
        joker (the extra jokers' bits 12 and 28, the wild ace), else
        ``points[rank - 1]``."""
        if isinstance(index, bool) or not isinstance(index, int) or not is_card_bit(index):
            raise ChinchonError(f"{index!r} is not a card bit index")
        if index in JOKER_BITS or self.joker_mask >> index & 1:
            return self.joker_points
        return self.points[rank_of(index) - 1]


def _card_bit(card: object) -> int:
    """The bit index of ``card``: a :class:`~chinchon.Card`, its text or its bit index
    (any integer type); anything else, or an index no card has, is refused by name."""
    if isinstance(card, Card):
        return card.index
    if isinstance(card, str):
        return as_card(card).index  # CardParseError names the text
    if not isinstance(card, bool):
        try:
            index = operator.index(card)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if is_card_bit(index):
                return index
    raise ChinchonError(
        f"expected a Card, card text or a card's bit index, got {shown(card)}")


def _int_field(name: str, value: object, lo: int, hi: Optional[int]) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ChinchonError(f"Rules.{name} must be an int, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ChinchonError(f"Rules.{name} must be {bounds}, got {value}")


def _bool_field(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ChinchonError(f"Rules.{name} must be True or False, got {value!r}")


def _points_table(value: object) -> tuple[int, ...]:
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ChinchonError(
            f"Rules.points must be 12 ints 0..{_MAX_POINTS} (ranks 1-12), got {value!r}")
    table = tuple(value)  # type: ignore[call-overload, unused-ignore]
    if len(table) != 12:
        raise ChinchonError(
            f"Rules.points must be 12 ints 0..{_MAX_POINTS} (ranks 1-12), got {len(table)} "
            "values")
    for rank, p in enumerate(table, start=1):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= _MAX_POINTS:
            raise ChinchonError(
                f"Rules.points[{rank - 1}] (rank {rank}) must be an int 0..{_MAX_POINTS}, "
                f"got {p!r}")
    return tuple(int(p) for p in table)


@dataclass(frozen=True)
class Rules:
    """The rules that vary between tables (docs/rules.md#rule-fields); the defaults are the
    house rules.

    What the solver reads:

    - ``deck``: ``48`` (ranks 1-12) or ``40`` (no eights or nines; in a run the jack
      follows the seven, so ``6c 7c 10c`` is a run).
    - ``wild_ace_of_coins``: the ace of coins (``1o``, every copy) is a joker.
    - ``jokers``: extra joker cards (*comodines*) per deck, 0-2: joker 1 (``*1``) with
      1, both (``*1``, ``*2``) with 2. The 50-card deck is ``jokers=2``.
    - ``joker_points``: points of a joker left unmatched (0-50; with more than 31 the
      batch results may be uint16: :attr:`SolverRules.score_dtype`).
    - ``points``: points of the ranks 1-12 (12 ints 0-31; ranks not in the deck are
      ignored). Any sequence is taken; it is kept as a tuple.
    - ``seven_run_wins``: a close with a natural 7-card run wins the game on the spot
      (*chinchón*); ``False``: it scores as minus ten.
    - ``joker_chinchon``: a close whose 7 cards are one 7-card run only with a joker's
      help scores ``-joker_chinchon`` (outcome ``'joker_chinchon'``); ``None``: plain
      minus ten.
    - ``close_limit``: a player may close when the 7 cards kept have at most this
      deadwood (0-255).
    - ``minus_ten``: what a close with every card melded scores (as ``-minus_ten``).

    What the table reads:

    - ``eliminate_above``: a total strictly over this eliminates the player (70 stays).
    - ``rejoin_chips``: chips per player per game to come back after elimination.
    - ``reconnect_seconds``: how long a disconnected seat is kept.
    - ``first_round_close``: ``False``: nobody closes before every player in the hand
      has completed one turn.
    - ``all_out``: a close that eliminates everyone still in the game is a ``'draw'``,
      or (``'lowest'``) won by the lowest total among them (a tie for lowest: a draw).
    - ``void_at_stock``: ``None``: the discard pile is reshuffled when the stock runs
      out; an int k (0-255): a turn that ends without a close with k cards or fewer in
      the stock voids the hand.

    Rules are frozen and hashable; a bad value raises :class:`ChinchonError` naming the
    field. ``to_dict()``/``from_dict()`` round-trip through JSON; ``Rules.preset(name)``
    gives a named preset (:data:`PRESETS`); :attr:`solver` is the solver's view.
    """

    close_limit: int = 5
    eliminate_above: int = 70
    minus_ten: int = 10
    rejoin_chips: int = 2
    reconnect_seconds: float = 60
    deck: int = 48
    wild_ace_of_coins: bool = False
    jokers: int = 0
    joker_points: int = 25
    points: tuple[int, ...] = HOUSE_POINTS
    seven_run_wins: bool = True
    joker_chinchon: Optional[int] = 25
    first_round_close: bool = True
    all_out: str = "draw"
    void_at_stock: Optional[int] = None

    def __post_init__(self) -> None:
        for name, (low, high) in RULE_BOUNDS.items():
            value = getattr(self, name)
            if name == "reconnect_seconds":
                ok = (not isinstance(value, bool) and isinstance(value, (int, float))
                      and low <= value <= high)  # NaN fails both comparisons
                kind = "a number"
            else:
                ok = not isinstance(value, bool) and isinstance(value, int) and low <= value <= high
                kind = "an int"
            if not ok:
                raise ChinchonError(f"Rules.{name} must be {kind} {low}..{high}, "
                                    f"got {shown(value)}")
        if (isinstance(self.deck, bool) or not isinstance(self.deck, int)
                or self.deck not in (40, 48)):
            raise ChinchonError(f"Rules.deck must be 48 or 40, got {self.deck!r}")
        _bool_field("wild_ace_of_coins", self.wild_ace_of_coins)
        _int_field("jokers", self.jokers, 0, 2)
        _int_field("joker_points", self.joker_points, 0, MAX_JOKER_POINTS)
        if self.points is not HOUSE_POINTS:
            object.__setattr__(self, "points", _points_table(self.points))
        _bool_field("seven_run_wins", self.seven_run_wins)
        if self.joker_chinchon is not None:
            _int_field("joker_chinchon", self.joker_chinchon, 0, _MAX_SCORE)
        _bool_field("first_round_close", self.first_round_close)
        if not isinstance(self.all_out, str) or self.all_out not in ("draw", "lowest"):
            raise ChinchonError(f"Rules.all_out must be 'draw' or 'lowest', got {self.all_out!r}")
        if self.void_at_stock is not None:
            _int_field("void_at_stock", self.void_at_stock, 0, 255)
        # the solver's view, computed once (not a field: equality and hashing use the fields)
        solver = SolverRules(self.deck, self.wild_ace_of_coins, self.jokers, self.joker_points,
                             self.points, self.seven_run_wins, self.joker_chinchon,
                             self.close_limit, self.minus_ten)
        object.__setattr__(self, "_solver", solver)
        object.__setattr__(self, "_plain", solver.plain)

    def __repr__(self) -> str:
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return f"Rules({', '.join(changed)})"

    # ------------------------------------------------------------ the solver's view

    @property
    def solver(self) -> SolverRules:
        """The fields the solver reads, as one hashable value (a cache key)."""
        return self._solver  # type: ignore[attr-defined, no-any-return]

    @property
    def plain_solver(self) -> bool:
        """True when the solver works as under the house rules: 48 cards, no jokers
        (neither extra ones nor the wild ace), points 1-12 and a natural 7-card run wins.
        ``close_limit`` and ``minus_ten`` may differ. The native fast paths need this."""
        return self._plain  # type: ignore[attr-defined, no-any-return]

    def card_points(self, card: Any) -> int:
        """Points of ``card`` (a :class:`~chinchon.Card`, its text or its bit index) left
        unmatched under these rules: ``joker_points`` for a joker, else the rank's entry of
        ``points``; a card these rules' deck lacks is an :class:`InvalidHandError`."""
        index = self._in_deck(card)
        return self._solver.card_points(index)  # type: ignore[attr-defined, no-any-return]

    def is_joker(self, card: Any) -> bool:
        """Whether ``card`` (a Card, its text or its bit index) is a joker under these
        rules: an extra joker card, or the ace of coins under ``wild_ace_of_coins``; a
        card these rules' deck lacks is an :class:`InvalidHandError`."""
        index = self._in_deck(card)
        return bool(self._solver.joker_mask >> index & 1)  # type: ignore[attr-defined]

    def _in_deck(self, card: Any) -> int:
        """The bit index of ``card`` (a Card, its text or its bit index), a card of these
        rules' deck; anything else refused by name."""
        index = card.index if type(card) is Card else _card_bit(card)
        solver = self._solver  # type: ignore[attr-defined]
        if not solver.card_mask >> index & 1:
            raise InvalidHandError(solver.not_in_deck(index))
        return index

    # ------------------------------------------------------------ names and JSON

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset (docs/rules.md#rule-fields): ``'barajamos'`` (the house rules),
        ``'classic'``, ``'conga'``, ``'fifty'``. Case and surrounding spaces are ignored."""
        if not isinstance(name, str):
            raise ChinchonError(f"a rules preset name must be a str, got {type(name).__name__}")
        rules = PRESETS.get(name.strip().lower())
        if rules is None:
            raise ChinchonError(
                f"unknown rules preset {name!r}; the presets are {', '.join(PRESETS)}")
        return rules

    @property
    def description(self) -> Optional[str]:
        """What these rules are when they equal a preset (:data:`PRESET_DESCRIPTIONS`),
        else None."""
        name = self.preset_name
        return None if name is None else PRESET_DESCRIPTIONS[name]

    @property
    def preset_name(self) -> Optional[str]:
        """The name of the preset these rules equal, or None."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new value)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every field, as plain JSON data (``points`` as a list)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["points"] = list(self.points)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """The rules that :meth:`to_dict` wrote; a missing field takes its default, an
        unknown one is refused."""
        if not isinstance(d, Mapping):
            raise ChinchonError(f"Rules.from_dict takes a dict, got {type(d).__name__}")
        names = [f.name for f in fields(cls)]
        for key in d:
            if key not in names:
                raise ChinchonError(
                    f"Rules.from_dict: unknown field {key!r} (the fields are {', '.join(names)})")
        return cls(**d)


HOUSE_RULES = Rules()

#: what a ``rules=`` argument takes: a Rules, a preset's name (``'conga'``), or None for
#: the house rules
RulesArg = Optional[Union[Rules, str]]
"""Preset ``'barajamos'`` (what it is: :data:`PRESET_DESCRIPTIONS`)."""

CLASSIC_RULES = Rules(seven_run_wins=False)
"""Preset ``'classic'`` (what it is: :data:`PRESET_DESCRIPTIONS`)."""

CONGA_RULES = Rules(deck=40, wild_ace_of_coins=True, close_limit=7, eliminate_above=99,
                    all_out="lowest", void_at_stock=2, rejoin_chips=0)
"""Preset ``'conga'`` (what it is: :data:`PRESET_DESCRIPTIONS`)."""

FIFTY_RULES = Rules(jokers=2)
"""Preset ``'fifty'`` (what it is: :data:`PRESET_DESCRIPTIONS`)."""

#: the named presets (read-only), by the name ``Rules.preset`` and ``--rules`` take
PRESETS: Mapping[str, Rules] = MappingProxyType({
    "barajamos": HOUSE_RULES,
    "classic": CLASSIC_RULES,
    "conga": CONGA_RULES,
    "fifty": FIFTY_RULES,
})

#: what each preset is, by its name: the one place that says it (``Rules.description``
#: and ``chinchon rules`` read it)
PRESET_DESCRIPTIONS: Mapping[str, str] = MappingProxyType({
    "barajamos": "the house rules of the Barajamos table: 48 cards, close with 5 or "
                 "less, a natural seven-card run wins the game, over 70 is out",
    "classic": "the classic rules: seven melded cards take ten off and lock the "
               "closer's melds; no instant win",
    "conga": "two players, as played in Argentina and Uruguay: 40 cards, the ace of "
             "coins wild worth 25, close with 7 or less, 100 or more loses, the hand is "
             "void when the stock is down to 2 cards",
    "fifty": "the 50-card deck: 48 cards and two jokers",
})
