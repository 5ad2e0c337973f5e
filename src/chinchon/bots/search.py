"""The bot that searches (:class:`SearchBot`): determinised Monte Carlo in the C engine."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any, Optional

from .. import _backend as solver
from ..cards import Card
from ..errors import ChinchonError, IllegalAction, shown
from ..rules import NATIVE_MINUS_TEN
from ..game.observation import Observation
from . import base
from .base import Bot
from .rule_based import ExpertBot


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
    #: the largest ``Rules.minus_ten`` its playouts take (the C engine's int)
    MAX_MINUS_TEN = NATIVE_MINUS_TEN

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
    def check_rules(cls, rules: Any) -> None:
        """An error unless the search can play under ``rules`` (a :class:`~chinchon.Rules`):
        its playouts run in the C engine, whose ``minus_ten`` is an int."""
        if rules.minus_ten > cls.MAX_MINUS_TEN:
            raise ChinchonError(f"a search bot plays out in the native engine, which takes "
                                f"Rules.minus_ten up to {cls.MAX_MINUS_TEN}, got "
                                f"{rules.minus_ten}")

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
        from .names import bot_name  # the names module makes bots of this one: at call time
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
        return (players, obs.rules, base.STALE_TURNS, base.STALE_SHAKE, ExpertBot.WAIT_FOR, seat,
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
