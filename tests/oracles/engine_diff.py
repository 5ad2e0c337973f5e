"""The C game engine against the Python loop, game by game.

Each game is played twice: by the C engine (``csrc/src/engine/engine.c`` through the binding's
``_play_games`` with its event trace) and by the Python loop (``simulation.play._drive``
over a :class:`~chinchon.game.state.GameState` that records the same events: every deal,
draw, reshuffle, discard, close, hand result, rejoin and the end). The two event lists
and the two :class:`GameRecord` must be equal; a per-game digest of the events is
compared, and on a mismatch the first differing event is shown.

From the command line, per preset (the pytest suite, tests/game/test_engine.py, runs a
few games of each table):

    python -m tests.oracles.engine_diff --games 10000 --preset house
    python -m tests.oracles.engine_diff --games 10000 --preset fields
    python -m tests.oracles.engine_diff --games 2000 --preset conga --players 2 --bots random

``--games`` is shared out over the preset's tables (``TABLES``: house, classic, conga
with 2 players, fifty with 5-6, and ``fields``: two rule sets that move every field of
docs/rules.md#rule-variants); ``--players``/``--bots`` play one table of your own under the preset's rules.
``--write-golden PATH`` writes tests/data/engine_games.txt (the C tests' digests).
"""

from __future__ import annotations

import argparse
import hashlib
import struct
import sys
import time
from collections.abc import Sequence
from dataclasses import astuple
from typing import Any, Optional

from chinchon import bots as bots_module
from chinchon.bots import make_bot
from chinchon.game.state import GameState
from chinchon.rules import Rules
from chinchon.simulation.engine import builtin_bots
from chinchon.simulation.play import GameRecord, _drive, game_seed

# the event codes of csrc/include/chinchon.h (CC_EV_*) and a hand's void outcome
DEAL, DRAW, RESHUFFLE, DISCARD, HAND, POINTS, REJOIN, END = range(1, 9)
EVENT_NAMES = {DEAL: "deal", DRAW: "draw", RESHUFFLE: "reshuffle", DISCARD: "discard",
               HAND: "hand", POINTS: "points", REJOIN: "rejoin", END: "end"}
_OUTCOME_CODES = {"normal": 1, "minus_ten": 2, "chinchon": 3, "joker_chinchon": 4, "void": 5}
_STATUS_CODES = {"won": 0, "draw": 1, "stalled": 2}
NO_SEAT = 0xFF

#: every field of docs/rules.md#rule-fields away from its preset value, in two rule sets (``--preset fields``)
FIELD_RULES = (
    Rules(first_round_close=False, all_out="lowest", void_at_stock=4, jokers=1,
          joker_points=10, points=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10), joker_chinchon=None,
          close_limit=3, minus_ten=20, eliminate_above=50, rejoin_chips=1),
    Rules(deck=40, wild_ace_of_coins=True, seven_run_wins=False, jokers=2, joker_chinchon=40,
          first_round_close=False, eliminate_above=40, rejoin_chips=3, close_limit=6),
)
_HOUSE, _CLASSIC = Rules(), Rules.preset("classic")
_CONGA, _FIFTY = Rules.preset("conga"), Rules.preset("fifty")

#: the tables each preset plays by default: (players, bots, rules)
TABLES: dict[str, list[tuple[int, str, Rules]]] = {
    "house": [(4, "greedy", _HOUSE), (4, "greedy,random,greedy,random", _HOUSE),
              (3, "random", _HOUSE), (4, "expert,greedy,random,expert", _HOUSE)],
    "classic": [(4, "greedy", _CLASSIC), (3, "greedy,random,expert", _CLASSIC)],
    "conga": [(2, "greedy", _CONGA), (2, "random,expert", _CONGA),
              (2, "expert,greedy", _CONGA), (2, "random", _CONGA)],
    "fifty": [(5, "greedy", _FIFTY), (6, "greedy,random,expert,greedy,random,greedy", _FIFTY),
              (6, "random", _FIFTY), (5, "expert", _FIFTY)],
    "fields": [(4, "greedy,random,expert,greedy", FIELD_RULES[0]),
               (6, "greedy,expert,random", FIELD_RULES[0]),
               (3, "greedy,random,expert", FIELD_RULES[1]),
               (5, "random,greedy,expert,greedy,random", FIELD_RULES[1])],
}


def seat_bots(spec: str, players: int) -> list[str]:
    """The bots of a comma list, one per seat (repeated round the table)."""
    names = [b for b in spec.split(",") if b]
    return [names[s % len(names)] for s in range(players)]


def event(kind: int, seat: Optional[int], a: int, b: int) -> int:
    """One event as the C engine packs it: kind << 56 | seat << 48 | a << 32 | b."""
    s = NO_SEAT if seat is None else seat
    return kind << 56 | (s & 0xFF) << 48 | (a & 0xFFFF) << 32 | (b & 0xFFFFFFFF)


def describe(ev: int) -> str:
    kind, seat, a, b = ev >> 56, ev >> 48 & 0xFF, ev >> 32 & 0xFFFF, ev & 0xFFFFFFFF
    if b >= 2**31:
        b -= 2**32
    from chinchon.cards import CARD_AT
    name = EVENT_NAMES.get(kind, f"kind {kind}")
    who = "-" if seat == NO_SEAT else f"seat {seat}"
    if kind in (DRAW, DISCARD):
        what = ("pile" if a else "stock") if kind == DRAW else ("close" if a else "plain")
        return f"{name} {who} {what} {CARD_AT[b]}"
    return f"{name} {who} a={a} b={b}"


class TracedState(GameState):
    """A GameState that records the C engine's events as it plays (read from its public
    methods: each deal, reshuffle, draw, discard, closed hand and rejoin)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.events: list[int] = []
        super().__init__(*args, **kwargs)
        self._dealt()

    def _dealt(self) -> None:
        self.events.append(event(DEAL, self.lead, 0, self.hand_number))

    def next_hand(self, deck: Any = None) -> None:
        super().next_hand(deck)
        self._dealt()

    def draw(self, source: str) -> Any:
        seat = self.turn
        if source == "stock" and not self.stock_size and self.phase == "draw":
            stock = self.reshuffle()
            self.events.append(event(RESHUFFLE, seat, 0, len(stock)))
        card = super().draw(source)
        self.events.append(event(DRAW, seat, 1 if source == "discard" else 0, card.index))
        return card

    def discard(self, card: Any, close: bool = False) -> Any:
        seat, before = self.turn, self.last_hand
        out = super().discard(card, close)
        self.events.append(event(DISCARD, seat, 1 if close else 0, card.index))
        last = self.last_hand
        if last is not before and last is not None:
            self.events.append(event(HAND, last.closer, _OUTCOME_CODES[last.outcome],
                                     last.number))
            if not last.void:
                for s in last.order:
                    self.events.append(event(POINTS, s, 0, last.points[s]))
        return out

    def rejoin(self, seat: int) -> int:
        total = super().rejoin(seat)
        self.events.append(event(REJOIN, seat, 0, total))
        return total


def python_game(players: int, bots: Sequence[str], seed: int, index: int,
                rules: Optional[Rules], max_turns: int) -> tuple[GameRecord, list[int]]:
    """Game ``index`` by the Python loop (as ``simulation.play.play_game``), with events."""
    game = TracedState(players, seed=game_seed(seed, index), rules=rules)
    seats = [make_bot(b, game_seed(seed, index, 1 + s)) for s, b in enumerate(bots)]
    rec = _drive(game, seats, index, max_turns)
    game.events.append(event(END, rec.winner, _STATUS_CODES[rec.status], rec.hands))
    return rec, game.events


def native_games(players: int, bots: Sequence[str], seed: int, start: int, stop: int,
                 rules: Optional[Rules], max_turns: int
                 ) -> tuple[list[GameRecord], list[list[int]]]:
    """Games ``start..stop-1`` by the C engine, with their events."""
    from chinchon._core import engine
    names = builtin_bots(bots)
    assert names is not None
    rows, traces = engine._play_games(players, names, seed, start, stop, rules, max_turns,
                                      bots_module.base.STALE_TURNS, bots_module.base.STALE_SHAKE,
                                      bots_module.ExpertBot.WAIT_FOR, True)
    return [GameRecord(*r) for r in rows], traces


def digest(events: Sequence[int]) -> str:
    return hashlib.blake2b(struct.pack(f"<{len(events)}Q", *events), digest_size=16).hexdigest()


def fnv1a(events: Sequence[int], h: int = 0xCBF29CE484222325) -> int:
    """FNV-1a (64-bit) over the events' little-endian bytes, continued from ``h``: the
    digest csrc/tests/test_engine.c computes over a run of games."""
    for byte in struct.pack(f"<{len(events)}Q", *events):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


#: the runs of tests/data/engine_games.txt, which the C tests replay: (preset, players,
#: bots, seed, games); their digests come from the Python loop (``--write-golden``)
GOLDEN_RUNS = [
    ("barajamos", 4, "greedy", 7, 100),
    ("barajamos", 4, "greedy,random,expert,greedy", 8, 60),
    ("barajamos", 3, "random", 9, 40),
    ("classic", 4, "greedy,expert", 7, 60),
    ("conga", 2, "greedy", 7, 100),
    ("conga", 2, "random,expert", 8, 60),
    ("fifty", 5, "greedy", 7, 60),
    ("fifty", 6, "greedy,random,expert", 8, 30),
]


def write_golden(path: str) -> None:
    """Play GOLDEN_RUNS by the Python loop and write their digests to ``path``."""
    lines = ["# games played by the Python loop (tests/oracles/engine_diff.py --write-golden):",
             "# preset players bots seed games : FNV-1a of the events of games 0..games-1"]
    for preset, players, spec, seed, games in GOLDEN_RUNS:
        bots = seat_bots(spec, players)
        h = 0xCBF29CE484222325
        for i in range(games):
            _, events = python_game(players, bots, seed, i, Rules.preset(preset), 1000)
            h = fnv1a(events, h)
        lines.append(f"{preset} {players} {','.join(bots)} {seed} {games} : {h}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def first_difference(a: Sequence[int], b: Sequence[int]) -> str:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {k}: native {describe(x)!r} vs python {describe(y)!r}"
    k = min(len(a), len(b))
    return f"event {k}: one trace ends ({len(a)} native events, {len(b)} python events)"


def compare(players: int, bots: Sequence[str], seed: int, start: int, stop: int,
            rules: Optional[Rules], max_turns: int = 1000) -> list[str]:
    """Play games ``start..stop-1`` both ways; the mismatches, described (empty: all
    equal). Each compares the digest of the events and the whole record."""
    recs, traces = native_games(players, bots, seed, start, stop, rules, max_turns)
    problems = []
    for rec, trace in zip(recs, traces):
        prec, ptrace = python_game(players, bots, seed, rec.index, rules, max_turns)
        if digest(trace) != digest(ptrace):
            problems.append(f"game {rec.index}: events differ at "
                            f"{first_difference(trace, ptrace)}")
        elif astuple(rec) != astuple(prec):
            problems.append(f"game {rec.index}: records differ: native {rec} vs python {prec}")
    return problems


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000,
                   help="games of the preset, shared out over its tables (1000)")
    p.add_argument("--preset", choices=sorted(TABLES), default="house",
                   help="the tables of TABLES to play (house)")
    p.add_argument("--players", type=int, help="one table of this size (with --bots)")
    p.add_argument("--bots", default="greedy", help="with --players: the seats' bots")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-turns", type=int, default=1000)
    p.add_argument("--chunk", type=int, default=500, help="games per native call")
    p.add_argument("--write-golden", metavar="PATH",
                   help="write the digests of GOLDEN_RUNS by the Python loop, and stop")
    args = p.parse_args(argv)
    if args.write_golden:
        write_golden(args.write_golden)
        return 0
    tables = TABLES[args.preset]
    if args.players:
        tables = [(args.players, args.bots, tables[0][2])]
    per_table = -(-args.games // len(tables))
    failed = total = 0
    for players, spec, rules in tables:
        bots = seat_bots(spec, players)
        t0 = time.perf_counter()
        bad: list[str] = []
        for start in range(0, per_table, args.chunk):
            stop = min(per_table, start + args.chunk)
            bad += compare(players, bots, args.seed, start, stop, rules, args.max_turns)
        dt = time.perf_counter() - t0
        status = "ok" if not bad else f"{len(bad)} MISMATCHES"
        print(f"{args.preset}: {rules.preset_name or 'custom'} rules, {players} players "
              f"{','.join(bots)}: {per_table} games, {status} ({dt:.0f} s)", flush=True)
        for line in bad[:10]:
            print("  " + line)
        failed += len(bad)
        total += per_table
    print(f"{args.preset}: {total} games compared, {failed} mismatches")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
