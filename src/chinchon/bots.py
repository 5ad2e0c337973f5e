"""Bots that play a seat of a :class:`~chinchon.Game`.

A bot answers three questions, each asked with the seat's
:class:`~chinchon.game.Observation` (what that seat may see, and nothing else) and the
seat it plays:

- :meth:`Bot.choose_draw` -> ``'stock'`` or ``'discard'``;
- :meth:`Bot.choose_discard` -> ``(card, close)``;
- :meth:`Bot.choose_rejoin` -> ``True`` to spend a chip and come back.

The observation has the game's own names for what a seat may read: its own cards
(``obs.held(seat)`` / ``obs.hand(seat)``), ``obs.hints()`` on its own turn, and the
public table (``discard_top``, ``stock_size``, ``totals``, ``in_game``, ``chips``...).

The bots, weakest first (:data:`BOTS`): :class:`RandomBot`, :class:`GreedyBot`,
:class:`ExpertBot` and :class:`SearchBot`; each class says how it plays, docs/bots.md
how strong it is.

A bot's randomness is its own :class:`~chinchon.game.rng.Rng` (``bot.rng``, the game's
generator: xoshiro256**), seeded by the ``seed`` it is built with (an int of at most 256
bits; ``None``: from the OS).
"""

from __future__ import annotations

import functools
from bisect import insort
from operator import attrgetter
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Optional, Union, cast

from . import _backend as solver
from .cards import Card
from .errors import ChinchonError, IllegalAction, shown
from .game.deck import MAX_PLAYERS, MIN_PLAYERS
from .game.observation import Observation
from .game.rng import Rng
from .game.state import GameState
from .game.table import Game
from .rules import Rules

__all__ = ["Bot", "RandomBot", "GreedyBot", "ExpertBot", "SearchBot", "BOTS", "make_bot",
           "bot_name", "play_turn", "bots_rejoin"]

class Bot:
    """The bot interface; subclasses override the three ``choose_*`` methods."""

    name = "bot"

    def __init__(self, seed: Optional[int] = None) -> None:
        try:
            self.rng = Rng(seed)
        except ValueError:
            raise ChinchonError(f"a bot's seed must be an int of at most 256 bits or None, "
                                f"got {shown(seed)}") from None

    def choose_draw(self, obs: Observation, seat: int) -> str:
        raise NotImplementedError

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        raise NotImplementedError

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


#: a bot that has discarded this many times in one hand without the hand ending takes
#: the table for deadlocked (each seat holding what another waits for, every discard
#: thrown back): from then on it discards a random card with chance STALE_SHAKE
STALE_TURNS = 30
STALE_SHAKE = 0.25


class _TurnCount:
    """Counts a bot's discards per seat in the current hand (to see a deadlock)."""

    __slots__ = ("hand", "count")

    def __init__(self) -> None:
        self.hand = -1
        self.count = 0

    def stale(self, obs: Observation) -> bool:
        """Count one more discard; True once the hand has lasted STALE_TURNS of them."""
        if obs.hand_number != self.hand:
            self.hand, self.count = obs.hand_number, 0
        self.count += 1
        return self.count > STALE_TURNS


class RandomBot(Bot):
    """Random draws and discards; closes whenever its random discard allows it;
    rejoins half of the time."""

    name = "random"

    def choose_draw(self, obs: Observation, seat: int) -> str:
        if obs.discard_size and self.rng.random() < 0.5:
            return "discard"
        return "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        hints = obs.hints()
        h = hints[self.rng.randrange(len(hints))]
        return h.card, h.can_close

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return self.rng.random() < 0.5


#: the greedy bot's preference among closes that leave 0 points
_ZERO_CLOSES = ("chinchon", "joker_chinchon", "minus_ten")


def _best_hint(hints: list[Any], rules: Rules) -> Any:
    """The greedy discard: chinchón, then a joker chinchón, then minus ten, then the
    fewest points left; among equals never a joker while a natural card does as well,
    then the card worth most under ``rules`` (it costs most if the hand closes), then the
    first in ascending card order (deterministic). The caller decides whether the rules
    let it close this turn. A plain loop: this runs every turn."""
    best = hints[0]
    if rules.plain_solver:  # no jokers, points = ranks: the house rules' fast loop
        bp = best.points
        for h in hints:
            p = h.points
            if p < bp or (p == bp and h.card.points > best.card.points):
                best, bp = h, p
    else:  # the order of _discard_key, without a tuple per hint
        solver_rules = rules.solver
        jm = solver_rules.joker_mask
        pts = solver_rules.bit_points
        i = best.card.index
        bp, bj = best.points, jm >> i & 1
        bv = 0 if bj else pts[i]
        for h in hints:
            i = h.card.index
            p, j = h.points, jm >> i & 1
            v = 0 if j else pts[i]
            if p < bp or (p == bp and (j < bj or (j == bj and v > bv))):
                best, bp, bj, bv = h, p, j, v
    if best.points == 0 and best.outcome != "chinchon":
        for outcome in _ZERO_CLOSES:  # both leave 0: the better close
            for h in hints:
                if h.outcome == outcome:
                    return h
    return best


def _discard_key(h: Any, rules: Rules) -> tuple[int, bool, int]:
    """Smaller is a better discard: fewer points left, a natural card before a joker,
    then the card worth more."""
    card = h.card
    joker = rules.is_joker(card)
    return (h.points, joker, 0 if joker else -rules.card_points(card))


class GreedyBot(Bot):
    """Takes the discard top when that lowers its deadwood, discards to minimise
    deadwood, closes whenever it can (chinchón and minus ten first), always rejoins.
    Once a hand has lasted :data:`STALE_TURNS` of its discards, it discards a random
    card with chance :data:`STALE_SHAKE` (unless it can close), which breaks the
    deadlocks of greedy tables (each seat holding what another waits for).

    Cost: one ``discard_hints`` call when it looks at the discard top, and at most one
    more (``obs.hints()``) after drawing from the stock."""

    name = "greedy"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self._deadwood: dict[int, tuple[int, int]] = {}  # seat -> (hand number, deadwood)
        # the hints of the 8 cards a draw from the pile would give, and those cards (in
        # ascending order, as Observation.held gives them)
        self._took: Optional[list[Any]] = None
        self._took_cards: list[Card] = []
        self._turns: dict[int, _TurnCount] = {}

    def _current(self, obs: Observation, seat: int) -> int:
        known = self._deadwood.get(seat)
        if known is not None and known[0] == obs.hand_number:
            return known[1]
        d: int = solver.deadwood(obs.held(seat), decks=obs.decks, rules=obs.rules)
        self._deadwood[seat] = (obs.hand_number, d)
        return d

    def choose_draw(self, obs: Observation, seat: int) -> str:
        self._took = None
        top = obs.discard_top
        if top is None:
            return "stock"
        cards = obs.held(seat)
        insort(cards, top, key=_index)
        rules = obs.rules
        hints = solver.discard_hints(cards, decks=obs.decks, rules=rules)
        best = _best_hint(hints, rules)
        if best.points < self._current(obs, seat) or (
                best.can_close and (rules.first_round_close or obs.may_close)):
            self._took = hints  # the same 8 cards as after the draw: reuse the hints
            self._took_cards = cards
            return "discard"
        if obs.stock_size == 0 and obs.discard_size == 0:  # pragma: no cover
            return "discard"
        return "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        hints = self._took
        # only for the cards held: a caller may have drawn otherwise than advised
        if hints is None or obs.held(seat) != self._took_cards:
            hints = obs.hints()
        self._took = None
        rules = obs.rules
        best = _best_hint(hints, rules)
        turns = self._turns.setdefault(seat, _TurnCount())
        if turns.stale(obs) and not best.can_close and self.rng.random() < STALE_SHAKE:
            best = hints[self.rng.randrange(len(hints))]  # shake a deadlocked hand
        self._deadwood[seat] = (obs.hand_number, best.points)
        # the hints of a discard-pile draw were the solver's: the rules may still forbid
        # closing this turn (first_round_close=False)
        return best.card, best.can_close and (rules.first_round_close or obs.may_close)

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True


_index = attrgetter("index")


def _value(p: Any) -> float:
    """How good a prospect (or an outlook line) is for the expert, smaller better: the
    expected points left, less 10 for each chance of a minus ten close and 25 for each
    chance of a chinchón (a joker chinchón included)."""
    value: float = p.expected_points - 10.0 * p.p_minus_ten - 25.0 * p.p_chinchon
    return value


class ExpertBot(Bot):
    """Plays by the outlook (docs/rules.md#the-outlook-one-draw-ahead) over the cards its seat has
    not seen (``obs.unseen()``):

    - **Draw**: takes the discard pile's top when that leaves a better hand after this
      turn's best discard than the stock's expectation (``draw_outlook``; the measure is
      :func:`_value`: the expected points, less 10 per chance of a minus ten and 25 per
      chance of a chinchón).
    - **Discard**: the card whose 7 kept have the best value after the *next* draw
      (``outlook``); ties: fewer points now, then the card worth more, then the first in
      ascending card order.
    - **Close** (when the rules allow it this turn): at once with a chinchón, a joker
      chinchón or a minus ten. With only a normal close it waits -- discards by the
      outlook without closing -- when some discard keeps 7 cards that may still close
      and bring a minus ten or a chinchón on the next draw with a chance of at least
      :attr:`WAIT_FOR`; else it closes with the fewest points.
    - **Deadlocks**: once a hand has lasted :data:`STALE_TURNS` of its discards, with
      chance :data:`STALE_SHAKE` it discards a random card instead (unless it can
      close): a table of bots each holding what another waits for moves again.
    - Always rejoins.

    Cost: one ``draw_outlook`` and one ``outlook`` call per turn (a few microseconds
    native) and ``obs.unseen()``. Where no card is unseen (the stock has just run out
    and the seat has seen every card of the last reshuffle leave it) it plays that turn
    as :class:`GreedyBot` would.
    """

    name = "expert"
    #: the least chance of a minus ten or chinchón on the next draw for which the bot
    #: passes up a normal close
    WAIT_FOR = 0.25

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self._turns: dict[int, _TurnCount] = {}

    def choose_draw(self, obs: Observation, seat: int) -> str:
        top = obs.discard_top
        if top is None:
            return "stock"
        rules = obs.rules
        try:
            d = solver.draw_outlook(obs.held(seat), top, obs.unseen(), decks=obs.decks,
                                    rules=rules)
        except ChinchonError:  # nothing unseen: the greedy choice
            return GreedyBot().choose_draw(obs, seat)
        return "discard" if _value(d.take) < _value(d.stock) else "stock"

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        rules = obs.rules
        try:
            lines = solver.outlook(obs.held(seat), obs.unseen(), decks=obs.decks, rules=rules)
        except ChinchonError:  # nothing unseen: the greedy choice
            return GreedyBot().choose_discard(obs, seat)
        may_close = rules.first_round_close or obs.may_close
        closing = [x for x in lines if x.can_close] if may_close else []
        turns = self._turns.setdefault(seat, _TurnCount())
        if turns.stale(obs) and not closing and self.rng.random() < STALE_SHAKE:
            return lines[self.rng.randrange(len(lines))].card, False  # shake a deadlock
        for outcome in ("chinchon", "joker_chinchon", "minus_ten") if closing else ():
            for line in closing:
                if line.outcome == outcome:
                    return line.card, True
        points = rules.solver.bit_points
        best = lines[0]
        bkey = (_value(best), best.points, -points[best.card.index])
        for x in lines:
            key = (_value(x), x.points, -points[x.card.index])
            if key < bkey:
                best, bkey = x, key
        if closing:
            waits = [x for x in closing if x.p_minus_ten + x.p_chinchon >= self.WAIT_FOR]
            if waits:
                wait = max(waits, key=lambda x: (x.p_minus_ten + x.p_chinchon, -x.points))
                return wait.card, False
            close = min(closing, key=lambda x: (x.points, -points[x.card.index]))
            return close.card, True
        return best.card, False

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True


def _search_binding() -> Any:
    """The C engine's binding the search runs in; an error naming why where it is not
    built (the search is C only: no pure-Python search)."""
    binding = solver.native("engine")
    if binding is None:
        raise ChinchonError("the search bot needs the compiled extension "
                            "(chinchon._core.engine), which is not built or does not load "
                            "here; the pure-Python implementation has no search")
    return binding


class SearchBot(Bot):
    """Determinised Monte Carlo in C (docs/bots.md#the-search-bot): at each draw and
    discard it deals the cards its seat has not seen (what :meth:`Observation.unseen
    <chinchon.game.Observation.unseen>` leaves out is placed: the pile, the cards each
    seat was seen to take) at random to the other hands and the stock (dealt again
    while the seat before could not have made its last discard from its hand: the bot
    remembers the pile's top it saw at its draw for its discard), plays every
    choice out to the hand's end with the greedy bots on the same deals (drawing and
    discarding as the expert most often does under rules that are not plain), and takes
    the choice with the best mean chance to win the game (from the totals, who is in and
    the chips). Always rejoins (a chip has no other use).

    The budget: ``playouts`` in all per decision at most (a decision ends early once
    every other choice is far behind the expert's or could no longer be taken:
    docs/bots.md#the-search-bot, step 4; deterministic: the same observation and seed
    give the same choice), or ``ms`` of wall time (not deterministic); neither: the
    table's default, :meth:`default_playouts` for the players of the observation.
    ``threads``: the threads that play a decision's samples out (the calling one among
    them; POSIX systems, elsewhere one): the same choice on any number, in less wall
    time where the cores are free (a server's bot seat; a simulation gains more from
    its ``jobs``).
    Each decision draws one 64-bit seed from :attr:`rng`, so a game plays the same
    in the Python loop and in the C engine (``simulate(engine='native')``). Needs the
    compiled extension (also under ``CHINCHON_IMPLEMENTATION=python``, like the C
    engine); an error where it is not built."""

    name = "search"
    #: the most playouts per decision of the name ``search`` at a table of 2 or 3 players
    DEFAULT_PLAYOUTS = 5000
    #: the same at a table of 4 players or more, whose playouts take longer (more seats'
    #: turns): within the time a server table waits on a slower machine (docs/bots.md)
    DEFAULT_PLAYOUTS_LARGE = 3000
    #: the largest budget a name takes (playouts or milliseconds)
    MAX_BUDGET = 4_000_000
    #: the most threads a decision takes
    MAX_THREADS = 64

    def __init__(self, seed: Optional[int] = None, playouts: Optional[int] = None,
                 ms: Optional[int] = None, threads: int = 1) -> None:
        super().__init__(seed)
        self.check_threads(threads)
        for what, value in (("playouts", playouts), ("ms", ms)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 < value <= self.MAX_BUDGET):
                raise ChinchonError(f"a search bot's {what} must be an int "
                                    f"1..{self.MAX_BUDGET}, got {shown(value)}")
        if playouts is not None and ms is not None:
            raise ChinchonError("a search bot's budget is playouts or ms, not both")
        self.playouts = playouts or 0
        self.ms = ms or 0
        self.threads = threads
        self._binding = _search_binding()
        # what the seat saw as its turn began: (hand, turn, seat, its cards and the pile
        # then, the pile's top at its draw); a discard reads the top only where it
        # follows that draw (the same turn of the same game)
        self._seen: Optional[tuple[Any, ...]] = None

    @classmethod
    def default_playouts(cls, players: int) -> int:
        """The playouts per decision of the name ``search`` at a table of ``players``."""
        return cls.DEFAULT_PLAYOUTS if players <= 3 else cls.DEFAULT_PLAYOUTS_LARGE

    @classmethod
    def check_threads(cls, threads: object) -> None:
        """An error unless ``threads`` is a number of threads a search bot takes."""
        if (isinstance(threads, bool) or not isinstance(threads, int)
                or not 1 <= threads <= cls.MAX_THREADS):
            raise ChinchonError(f"a search bot's threads must be an int "
                                f"1..{cls.MAX_THREADS}, got {shown(threads)}")

    @classmethod
    def from_name(cls, name: str, seed: Optional[int] = None,
                  threads: int = 1) -> SearchBot:
        """The bot of a search bot's name (:func:`bot_name`): ``search`` (the table's
        default budget), ``search:<playouts>`` or ``search:<ms>ms``; an error naming
        the accepted forms for any other."""
        name = bot_name(name)
        if not name.startswith("search"):
            raise ChinchonError(f"{name!r} is not a search bot's name: a search bot is "
                                f"search, search:<playouts> or search:<ms>ms")
        if name == "search":
            return cls(seed, threads=threads)
        budget = name[len("search:"):]
        if budget.endswith("ms"):
            return cls(seed, ms=int(budget[:-2]), threads=threads)
        return cls(seed, playouts=int(budget), threads=threads)

    @property
    def spec(self) -> str:
        """The bot's name with its budget (``search:1000``, ``search:10ms``; ``search``:
        the table's default)."""
        if self.ms:
            return f"search:{self.ms}ms"
        return f"search:{self.playouts}" if self.playouts else "search"

    @staticmethod
    def _view_args(obs: Observation, seat: int, discard: bool) -> tuple[Any, ...]:
        """The binding's view of ``seat`` (``_search_choose``'s arguments before the
        budget) from its observation: cards as bit indices, the bots' constants."""
        restocked = obs.restocked()
        players = obs.players
        return (players, obs.rules, STALE_TURNS, STALE_SHAKE, ExpertBot.WAIT_FOR, seat,
                discard, [c.index for c in obs.held(seat)],
                [c.index for c in obs.discard_pile()],
                [[c.index for c in obs.taken(s)] for s in range(players)],
                None if restocked is None else [c.index for c in restocked],
                obs.stock_size, list(obs.totals), list(obs.chips), list(obs.in_game),
                obs.lead, obs.hand_number, obs.turns_this_hand)

    def _decision(self, obs: Observation, seat: int,
                  discard: bool) -> Callable[[], tuple[int, bool]]:
        """The binding's call for this decision, its arguments read now."""
        prev: Optional[int]
        if discard:
            seen = self._seen
            prev = seen[-1] if seen is not None and self._follows_draw(obs, seat) else None
        else:
            # the card the seat before discarded (none at the hand's first turn)
            top = obs.discard_top
            prev = top.index if top is not None and obs.turns_this_hand > 0 else None
            self._remember(obs, seat, prev)
        return functools.partial(
            self._binding._search_choose, *self._view_args(obs, seat, discard),
            self.playouts or (0 if self.ms else self.default_playouts(obs.players)),
            self.ms * 1000, self.rng.next64(), prev, self.threads)

    def _remember(self, obs: Observation, seat: int, top: Optional[int]) -> None:
        self._seen = (obs.hand_number, obs.turns_this_hand, seat,
                      Counter(c.index for c in obs.held(seat)),
                      [c.index for c in obs.discard_pile()], top)

    def _follows_draw(self, obs: Observation, seat: int) -> bool:
        """Whether this discard decision follows the draw remembered: the same hand, turn
        and seat, the seat's cards then all held now, and the pile as then (a draw from
        the stock), less its top (taken) or empty (turned over into an empty stock). A
        bot asked for a discard it did not draw for (or reused across games) samples
        without the top."""
        seen = self._seen
        if seen is None or seen[:3] != (obs.hand_number, obs.turns_this_hand, seat):
            return False
        pile = [c.index for c in obs.discard_pile()]
        return (not seen[3] - Counter(c.index for c in obs.held(seat))
                and (pile == seen[4] or pile == seen[4][:-1] or not pile))

    @staticmethod
    def _check_turn(obs: Observation, seat: int, phase: str) -> None:
        """An IllegalAction unless it is ``seat``'s turn, in ``phase`` (draw, discard)."""
        if obs.turn != seat:
            raise IllegalAction(f"seat {seat} asks for a {phase} out of its turn")
        if obs.phase != phase:
            raise IllegalAction(f"seat {seat} asks for a {phase} in its {obs.phase} phase")

    def draw_decision(self, obs: Observation, seat: int) -> Callable[[], str]:
        """:meth:`choose_draw` in two halves: the observation is read and the seed drawn
        now; the search runs when the returned function is called, on any thread (the
        GIL is released while it plays), which returns what ``choose_draw`` would. A
        server plays it on a worker thread so that its other tables do not wait."""
        self._check_turn(obs, seat, "draw")
        if obs.discard_top is None:
            self._remember(obs, seat, None)
            return lambda: "stock"
        search = self._decision(obs, seat, False)
        return lambda: "discard" if search()[0] else "stock"

    def discard_decision(self, obs: Observation, seat: int) -> Callable[[], tuple[Card, bool]]:
        """:meth:`choose_discard` in two halves, as :meth:`draw_decision`."""
        self._check_turn(obs, seat, "discard")
        search = self._decision(obs, seat, True)
        held = obs.held(seat)

        def run() -> tuple[Card, bool]:
            index, close = search()
            return next(c for c in held if c.index == index), close
        return run

    def choose_draw(self, obs: Observation, seat: int) -> str:
        return self.draw_decision(obs, seat)()

    def choose_discard(self, obs: Observation, seat: int) -> tuple[Card, bool]:
        return self.discard_decision(obs, seat)()

    def choose_rejoin(self, obs: Observation, seat: int) -> bool:
        return True

    def __repr__(self) -> str:
        return f"SearchBot({self.spec!r})"


#: bot names accepted by :func:`make_bot`, ``simulate`` and the CLI, weakest first
#: (``search`` also as ``search:<playouts>`` and ``search:<ms>ms``: :func:`bot_name`)
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot,
                              "search": SearchBot}

#: the forms of a bot name, for the errors that name them
BOT_FORMS = "random, greedy, expert, search, search:<playouts> (e.g. search:2000), search:<ms>ms (e.g. search:10ms)"


def bot_name(spec: object, players: Optional[int] = None) -> str:
    """The canonical name of the bot name ``spec``: one of :data:`BOTS` or the search's
    with its budget (``'search:2000'``, ``'search:10ms'``; ``'search'``, the table's
    default budget, spelt out for a table of ``players``:
    ``'search:<SearchBot.default_playouts(players)>'``), case, spaces and a budget's
    leading zeros ignored (``' Search: 0100 '`` is ``'search:100'``); an error naming
    the accepted forms otherwise (``search:0``, ``search:-1``, ``search:abc``)."""
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ChinchonError(f"players must be an int {MIN_PLAYERS}..{MAX_PLAYERS} or None, "
                            f"got {shown(players)}")
    if not isinstance(spec, str):
        raise ChinchonError(f"a bot name must be a str, got {shown(spec)}; choose from {BOT_FORMS}")
    name = spec.strip().lower()
    head, colon, budget = name.partition(":")
    if head.rstrip() == "search" and not colon:
        return "search" if players is None else f"search:{SearchBot.default_playouts(players)}"
    if head.rstrip() == "search":
        budget = budget.strip()
        ms = budget.endswith("ms")
        digits = budget[:-2].strip() if ms else budget
        if digits.isdigit() and digits.isascii() and 0 < int(digits) <= SearchBot.MAX_BUDGET:
            return f"search:{int(digits)}ms" if ms else f"search:{int(digits)}"
        raise ChinchonError(f"bad search budget {shown(spec)}: a search bot is search, "
                            f"search:<playouts> or search:<ms>ms with a whole number "
                            f"1..{SearchBot.MAX_BUDGET} (e.g. search:2000, search:10ms)")
    if name in BOTS:
        return name
    raise ChinchonError(f"unknown bot {shown(spec)}; choose from {BOT_FORMS}")


def make_bot(spec: Union[str, Bot, type[Bot]], seed: Optional[int] = None, *,
             threads: Optional[int] = None) -> Bot:
    """A bot from a name (:func:`bot_name`: one of :data:`BOTS`, or ``search:<budget>``;
    ``search`` alone takes the default budget of each table it plays at),
    a Bot class, or a Bot (returned as is). ``threads``: a search bot's threads
    (:class:`SearchBot`; the other bots play on the calling thread), 1..64, default 1;
    a search bot passed in keeps its own threads, and asking it for others is an
    error."""
    if threads is not None:
        SearchBot.check_threads(threads)
    if isinstance(spec, Bot):
        if threads is not None and isinstance(spec, SearchBot) and spec.threads != threads:
            raise ChinchonError(f"make_bot: the search bot given plays on {spec.threads} "
                                f"thread(s), not the {threads} asked; set its threads")
        return spec
    if isinstance(spec, type) and issubclass(spec, SearchBot):
        return spec(seed, threads=threads or 1)
    if isinstance(spec, type) and issubclass(spec, Bot):
        return spec(seed)
    name = bot_name(spec)
    if name.startswith("search"):
        return SearchBot.from_name(name, seed, threads or 1)
    return BOTS[name](seed)


def _observe(game: Union[GameState, Game], seat: int) -> Observation:
    """What ``seat`` sees: a state's seat sees it directly (no connections: the cheap
    path of every turn), a table's through Game.observe."""
    if isinstance(game, GameState):
        return Observation(game, seat)
    return game.observe(seat)


def play_turn(game: Union[GameState, Game], bots: list[Bot]) -> None:
    """Let the bots make the next move of ``game`` (draw, discard or, in the summary,
    their rejoins and then the next hand)."""
    phase = game.phase
    if phase == "draw":
        seat = cast(int, game.turn)  # draw or discard phase: someone's turn
        obs = _observe(game, seat)
        game.draw(bots[seat].choose_draw(obs, seat))
    elif phase == "discard":
        seat = cast(int, game.turn)
        obs = _observe(game, seat)
        card, close = bots[seat].choose_discard(obs, seat)
        game.discard(card, close)
    elif phase == "summary":
        bots_rejoin(game, bots, range(game.players))
        game.next_hand()


def bots_rejoin(game: Union[GameState, Game], bots: Sequence[Bot], seats: Iterable[int]
                ) -> list[int]:
    """In the summary of a hand, each eliminated seat of ``seats`` with a chip whose bot
    wants to rejoins; returns the seats that did."""
    back = []
    for seat in seats:
        if (not game.in_game[seat] and game.chips[seat] > 0
                and bots[seat].choose_rejoin(game.observe(seat), seat)):
            game.rejoin(seat)
            back.append(seat)
    return back
