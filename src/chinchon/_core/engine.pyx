# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""Whole games between the built-in bots (``cc_play_game``) for the simulations: each
game is played without the GIL; its record comes back as a plain tuple (the simulation
package makes its GameRecord), and the statistics of the games are counted in C
(``_Counter``) with the records or without any.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from .chinchon cimport (CC_ERR_INTERRUPTED, CC_GAME_WON, CC_HAND_VOID, CC_JOKER_CHINCHON,
                        CC_MAX_DECK, CC_MAX_PLAYERS, CC_NORMAL, CC_OK, CC_RNG_SEED_WORDS,
                        CC_SEARCH_MAX_THREADS, cc_game_config,
                        cc_game_record, cc_hand, cc_play_game, cc_search_choose,
                        cc_search_view, cc_status)
from ._common cimport crules_of, raise_status, seat_bot

from .._args import check_rules
from ..errors import ChinchonError
from ..results import CLOSE_OUTCOMES, HAND_OUTCOMES

cdef extern from "Python.h":
    # no exception clause: its -1 leaves the exception (a Ctrl-C's KeyboardInterrupt) set
    # for the caller to pass on, where Cython's own declaration would handle it here
    int _check_signals "PyErr_CheckSignals" ()

cdef int _INT_MAX = 2147483647


cdef int _interrupted(void *context) noexcept nogil:
    """cc_game_config.interrupted of the simulations' games: after each search seat's
    decision, run the signal handlers (the main thread's: a Ctrl-C); 1 when one raised,
    its exception left set for :func:`_play_one`."""
    with gil:
        return 1 if _check_signals() < 0 else 0

# a hand's outcome code (cc_outcome from CC_NORMAL, then CC_HAND_VOID) as
# GameRecord.outcomes spells it: the names are results.HAND_OUTCOMES, in the C order
_HAND_OUTCOMES = (None,) + HAND_OUTCOMES
if (CC_NORMAL != 1 or CC_JOKER_CHINCHON != len(CLOSE_OUTCOMES)
        or CC_HAND_VOID != len(HAND_OUTCOMES)):  # pragma: no cover - header drift
    raise ImportError("chinchon._core.engine: the outcome codes of chinchon.h moved")
_GAME_STATUS = ("won", "draw", "stalled")
_MAX_INT64_RULE = 2**62


cdef class _Buffers:
    """The per-game arrays cc_play_game writes into, grown when a game needs more."""
    cdef uint32_t *turns
    cdef uint8_t *outcomes
    cdef int32_t *points
    cdef uint8_t *point_seats
    cdef uint64_t *events
    cdef size_t cap_ended, cap_events

    def __dealloc__(self):
        free(self.turns)
        free(self.outcomes)
        free(self.points)
        free(self.point_seats)
        free(self.events)

    cdef int grow(self, size_t ended, size_t events) except -1:
        if ended > self.cap_ended:
            free(self.turns)
            free(self.outcomes)
            free(self.points)
            free(self.point_seats)
            self.cap_ended = 0
            self.turns = <uint32_t *>malloc(ended * sizeof(uint32_t))
            self.outcomes = <uint8_t *>malloc(ended)
            self.points = <int32_t *>malloc(ended * CC_MAX_PLAYERS * sizeof(int32_t))
            self.point_seats = <uint8_t *>malloc(ended * CC_MAX_PLAYERS)
            if (self.turns == NULL or self.outcomes == NULL or self.points == NULL
                    or self.point_seats == NULL):
                raise MemoryError()
            self.cap_ended = ended
        if events > self.cap_events:
            free(self.events)
            self.cap_events = 0
            self.events = <uint64_t *>malloc(events * sizeof(uint64_t))
            if self.events == NULL:
                raise MemoryError()
            self.cap_events = events
        return 0


cdef int _game_config(cc_game_config *cfg, int players, bots, seed, object rules,
                      long long max_turns, int stale_turns, double stale_shake,
                      double wait_for) except -1:
    cdef int s, k
    if not 2 <= players <= CC_MAX_PLAYERS or len(bots) != players:
        raise ChinchonError(f"the engine seats 2..{CC_MAX_PLAYERS} bots, one per player")
    rules = check_rules(rules)
    if rules.minus_ten > _INT_MAX:
        raise ChinchonError(f"the native engine takes Rules.minus_ten up to {_INT_MAX}, "
                            f"got {rules.minus_ten}")
    cfg.rules = crules_of(rules).r
    cfg.players = players
    for s in range(players):
        seat_bot(cfg, s, bots[s])
    cfg.eliminate_above = rules.eliminate_above
    cfg.rejoin_chips = rules.rejoin_chips
    cfg.first_round_close = 1 if rules.first_round_close else 0
    cfg.all_out_lowest = 1 if rules.all_out == "lowest" else 0
    cfg.void_at_stock = -1 if rules.void_at_stock is None else rules.void_at_stock
    if not 1 <= max_turns <= 0xFFFFFFFF:
        raise ChinchonError(f"max_turns must be 1..{0xFFFFFFFF}, got {max_turns}")
    cfg.max_turns = <uint32_t>max_turns
    if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > 256:
        raise ChinchonError(f"seed must be an int of at most 256 bits, got {seed!r}")
    cfg.seed_negative = 1 if seed < 0 else 0
    mag = -seed if seed < 0 else seed
    for k in range(CC_RNG_SEED_WORDS):
        cfg.seed_magnitude[k] = (mag >> (64 * k)) & 0xFFFFFFFFFFFFFFFF
    cfg.stale_turns = stale_turns
    cfg.stale_shake = stale_shake
    cfg.wait_for = wait_for
    cfg.interrupted = NULL
    cfg.interrupt_context = NULL
    return 0


cdef cc_hand _hand_of(cards) except *:
    """The multiset of card bit indices ``cards`` (a third copy or a bad index: error)."""
    cdef cc_hand h
    cdef uint64_t bit
    h.once = 0
    h.twice = 0
    for c in cards:
        if not 0 <= c < 64:
            raise ChinchonError(f"card index {c} is out of range")
        bit = (<uint64_t>1) << (<int>c)
        if h.twice & bit:
            raise ChinchonError(f"card index {c} three times")
        if h.once & bit:
            h.twice |= bit
        else:
            h.once |= bit
    return h


def _search_choose(int players, object rules, int stale_turns, double stale_shake,
                   double wait_for, int seat, bint discard, held, pile, taken, restocked,
                   int stock_n, totals, chips, in_game, int lead, long long hand_number,
                   long long turns, long long playouts, long long micros, uint64_t seed,
                   object prev_discard=None, int threads=1):
    """The search bot's decision (cc_search_choose) for the view of ``seat`` given in
    plain values (cards as bit indices; ``taken`` a list per seat; ``restocked`` None
    before a reshuffle; ``prev_discard`` the card the seat before discarded, as the
    pile's top showed it at this seat's draw, or None; ``threads`` the threads that play
    the samples out, this one among them: the same choice for any number):
    ``(choice, close)`` -- the draw's 1 for the pile's top, or the discard's card index
    and its close. Runs without the GIL."""
    cdef cc_game_config cfg
    cdef cc_search_view view
    cdef cc_status st
    cdef int choice = 0, close = 0, s, k
    cdef uint32_t n_playouts, n_micros
    _game_config(&cfg, players, ["greedy"] * players, 0, rules, 1, stale_turns,
                 stale_shake, wait_for)
    if not (0 <= playouts <= 0xFFFFFFFF and 0 <= micros <= 0xFFFFFFFF) or (
            playouts == 0 and micros == 0):
        raise ChinchonError(f"a search budget must be 1..{0xFFFFFFFF} playouts or "
                            f"microseconds, got {playouts} playouts, {micros} us")
    if not 1 <= threads <= CC_SEARCH_MAX_THREADS:
        raise ChinchonError(f"a search's threads must be 1..{CC_SEARCH_MAX_THREADS}, "
                            f"got {threads}")
    if not 0 <= seat < players or len(taken) != players or len(pile) > CC_MAX_DECK:
        raise ChinchonError(f"a search view of seat {seat} of {players} does not fit")
    if not (0 <= hand_number <= 0xFFFFFFFF and 0 <= turns <= 0xFFFFFFFF and stock_n >= 0
            and 0 <= lead < players):
        raise ChinchonError("a search view's counts are out of range")
    view.config = &cfg
    view.seat = seat
    view.discard = 1 if discard else 0
    view.held = _hand_of(held)
    view.pile_n = len(pile)
    for k in range(view.pile_n):
        if not 0 <= pile[k] < 64:
            raise ChinchonError(f"card index {pile[k]} is out of range")
        view.pile[k] = <uint8_t>pile[k]
    for s in range(CC_MAX_PLAYERS):
        view.taken[s].once = view.taken[s].twice = 0
        view.totals[s] = 0
        view.chips[s] = 0
        view.in_[s] = 0
    for s in range(players):
        view.taken[s] = _hand_of(taken[s])
        view.totals[s] = totals[s]
        view.chips[s] = chips[s]
        view.in_[s] = 1 if in_game[s] else 0
    view.has_restocked = 0 if restocked is None else 1
    view.restocked = _hand_of(() if restocked is None else restocked)
    view.stock_n = stock_n
    view.lead = lead
    view.hand_number = <uint32_t>hand_number
    view.turns = <uint32_t>turns
    view.has_prev_discard = 0 if prev_discard is None else 1
    view.prev_discard = 0
    if prev_discard is not None:
        if not 0 <= prev_discard < 64:
            raise ChinchonError(f"card index {prev_discard} is out of range")
        view.prev_discard = <uint8_t>prev_discard
    n_playouts = <uint32_t>playouts
    n_micros = <uint32_t>micros
    with nogil:
        st = cc_search_choose(&view, n_playouts, n_micros, threads, seed, &choice, &close)
    if st != CC_OK:
        raise_status(st)
    return choice, bool(close)


cdef int _play_one(cc_game_config *cfg, uint64_t index, cc_game_record *rec, _Buffers buf,
                   bint trace) except -1:
    """Play game ``index`` into ``rec`` on ``buf``'s arrays, without the GIL; again with
    larger arrays while the game needs more room. A Ctrl-C (a signal handler that
    raises) is raised after the game, or after the decision of a search seat during it
    where ``cfg.interrupted`` is :func:`_interrupted`."""
    cdef cc_status st
    while True:
        rec.turns = buf.turns
        rec.outcomes = buf.outcomes
        rec.points = buf.points
        rec.point_seats = buf.point_seats
        rec.cap_ended = buf.cap_ended
        rec.cap_points = buf.cap_ended * CC_MAX_PLAYERS
        rec.events = buf.events
        rec.cap_events = buf.cap_events
        with nogil:
            st = cc_play_game(cfg, index, rec)
        if st == CC_ERR_INTERRUPTED:
            return -1  # the signal handler's exception is set
        if st != CC_OK:
            raise_status(st)
        if rec.n_ended > rec.cap_ended or rec.n_points > rec.cap_points or (
                trace and rec.n_events > rec.cap_events):
            buf.grow(max(rec.n_ended, rec.n_points // CC_MAX_PLAYERS + 1, buf.cap_ended),
                     max(rec.n_events, buf.cap_events) if trace else 0)
            continue  # the same game again, with room for all of it
        if _check_signals() < 0:  # between games: a Ctrl-C waits for no more of them
            return -1
        return 0


def _play_games(int players, bots, seed, start, stop, rules, long long max_turns,
                int stale_turns, double stale_shake, double wait_for, bint trace=False,
                bint count=False):
    """Play games ``start..stop-1`` of a simulation with ``seed`` between the built-in
    ``bots`` (names, one per seat) under ``rules``: a list with, for each game, the
    tuple ``(index, status, winner, hands, turns, outcomes, points, rejoins, totals,
    point_seats)``
    of chinchon.simulation.GameRecord's fields; with ``trace`` also a list with each
    game's events (csrc/include/chinchon.h, the CC_EV_* codes), with ``count`` also
    their statistics (see :func:`_count_games`), in that order after the records. Each
    game runs without the GIL."""
    cdef cc_game_config cfg
    cdef cc_game_record rec
    cdef _Buffers buf = _Buffers()
    cdef _Counter counter = _Counter(players) if count else None
    cdef uint64_t index, first = start, last = stop
    cdef size_t k
    cdef int s
    if start < 0 or stop < start or stop > 2**64 - 1:
        raise ChinchonError(f"games {start}..{stop} are out of range")
    _game_config(&cfg, players, bots, seed, rules, max_turns, stale_turns, stale_shake,
                 wait_for)
    cfg.interrupted = _interrupted
    buf.grow(64, 4096 if trace else 0)
    out = []
    traces = [] if trace else None
    index = first
    while index < last:
        _play_one(&cfg, index, &rec, buf, trace)
        out.append((index, _GAME_STATUS[rec.status], None if rec.winner < 0 else rec.winner,
                    rec.hands, [rec.turns[k] for k in range(rec.n_ended)],
                    [_HAND_OUTCOMES[rec.outcomes[k]] for k in range(rec.n_ended)],
                    [rec.points[k] for k in range(rec.n_points)],
                    [rec.rejoins[s] for s in range(players)],
                    [rec.totals[s] for s in range(players)],
                    [rec.point_seats[k] for k in range(rec.n_points)]))
        if trace:
            traces.append([rec.events[k] for k in range(rec.n_events)])
        if count:
            counter.add(&rec)
        index += 1
    if not trace and not count:
        return out
    return (out,) + ((traces,) if trace else ()) + ((counter.counts(),) if count else ())


# the histograms of _Counter count small values in C arrays, the rest in dicts
cdef enum:
    _SMALL_TURNS = 1024
    _SMALL_HANDS = 256
    _POINTS_LOW = -1024
    _POINTS_SPAN = 2048
    _SEATS = 16  # CC_MAX_PLAYERS or more (checked below)

if CC_MAX_PLAYERS > _SEATS:
    raise ImportError("chinchon._core.engine: _SEATS is below CC_MAX_PLAYERS")


cdef dict _histogram(const int64_t *counts, Py_ssize_t n, long long low, dict more):
    """The counts of values low..low+n-1 (those not 0) added to ``more``."""
    cdef Py_ssize_t k
    for k in range(n):
        if counts[k]:
            value = low + k
            more[value] = more.get(value, 0) + counts[k]
    return more


cdef class _Counter:
    """The counts chinchon.simulation.stats.aggregate makes of game records, made from the
    engine's records in C loops (no Python object per game; dicts only for values past
    the arrays')."""
    cdef int players
    cdef int64_t status[3]
    cdef int64_t wins[_SEATS]
    cdef int64_t rejoins[_SEATS]
    cdef int64_t endings[6]
    cdef int64_t hands_hist[_SMALL_HANDS]
    cdef int64_t turns_hist[_SMALL_TURNS]
    cdef int64_t points_hist[_SEATS][_POINTS_SPAN]  # per seat; the total is their sum
    cdef int64_t hands, turns
    cdef dict hands_more, turns_more
    cdef list points_more  # a dict per seat

    def __cinit__(self, int players):
        # a cdef class's C fields start zeroed
        self.players = players
        self.hands_more, self.turns_more = {}, {}
        self.points_more = [{} for _ in range(players)]

    cdef void add(self, const cc_game_record *rec):
        cdef size_t k
        cdef int s
        cdef long long p
        self.status[rec.status] += 1
        if rec.status == CC_GAME_WON and rec.winner >= 0:
            self.wins[rec.winner] += 1
        self.hands += rec.hands
        if rec.hands < _SMALL_HANDS:
            self.hands_hist[rec.hands] += 1
        else:
            self.hands_more[rec.hands] = self.hands_more.get(rec.hands, 0) + 1
        for k in range(rec.n_ended):
            self.turns += rec.turns[k]
            if rec.turns[k] < _SMALL_TURNS:
                self.turns_hist[rec.turns[k]] += 1
            else:
                self.turns_more[rec.turns[k]] = self.turns_more.get(rec.turns[k], 0) + 1
            self.endings[rec.outcomes[k]] += 1
        for k in range(rec.n_points):
            p = <long long>rec.points[k] - _POINTS_LOW
            s = rec.point_seats[k]
            if 0 <= p < _POINTS_SPAN:
                self.points_hist[s][p] += 1
            else:
                more = self.points_more[s]
                more[rec.points[k]] = more.get(rec.points[k], 0) + 1
        for s in range(self.players):
            self.rejoins[s] += rec.rejoins[s]

    def counts(self):
        """The counts as a dict (see :func:`_count_games`)."""
        cdef int s, k
        per_seat = [_histogram(self.points_hist[s], _POINTS_SPAN, _POINTS_LOW,
                               dict(self.points_more[s])) for s in range(self.players)]
        points = {}
        for seat in per_seat:
            for value, n in seat.items():
                points[value] = points.get(value, 0) + n
        return {
            "status": {name: self.status[k] for k, name in enumerate(_GAME_STATUS)},
            "wins_per_seat": [self.wins[s] for s in range(self.players)],
            "hands": self.hands,
            "hands_per_game": _histogram(self.hands_hist, _SMALL_HANDS, 0, dict(self.hands_more)),
            "turns": self.turns,
            "turns_per_hand": _histogram(self.turns_hist, _SMALL_TURNS, 0, dict(self.turns_more)),
            "endings": {_HAND_OUTCOMES[k]: self.endings[k] for k in range(1, 6)},
            "rejoins_per_seat": [self.rejoins[s] for s in range(self.players)],
            "points": points,
            "points_per_seat": per_seat,
        }


def _count_games(int players, bots, seed, start, stop, rules, long long max_turns,
                 int stale_turns, double stale_shake, double wait_for):
    """The statistics of games ``start..stop-1`` (the arguments of :func:`_play_games`)
    without a record per game: a dict of the counts chinchon.simulation.stats.aggregate
    makes of their records (``status``: won, draw, stalled; ``wins_per_seat``,
    ``hands``, ``hands_per_game``, ``turns``, ``turns_per_hand``, ``endings`` by hand
    outcome, ``rejoins_per_seat``, ``points``, ``points_per_seat``; histograms as unsorted
    dicts). Each game
    runs without the GIL; the counting is C loops over its arrays."""
    cdef cc_game_config cfg
    cdef cc_game_record rec
    cdef _Buffers buf = _Buffers()
    cdef _Counter counter = _Counter(players)
    cdef uint64_t index, first = start, last = stop
    if start < 0 or stop < start or stop > 2**64 - 1:
        raise ChinchonError(f"games {start}..{stop} are out of range")
    _game_config(&cfg, players, bots, seed, rules, max_turns, stale_turns, stale_shake,
                 wait_for)
    cfg.interrupted = _interrupted
    buf.grow(64, 0)
    index = first
    while index < last:
        _play_one(&cfg, index, &rec, buf, False)
        counter.add(&rec)
        index += 1
    return counter.counts()
