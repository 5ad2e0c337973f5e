"""Snapshots and logs are input like any other.

A mutation fuzzer damages snapshots of many random games -- fields dropped,
duplicated, retyped, out of range; cards moved, copied, removed; JSON text cut,
garbled, nested deep, numbers too big -- and checks that each mutant either raises the
package's error (``ChinchonError``, an ``IllegalAction`` for the game) or loads a game
that is consistent and plays on: ~50 moves chosen from ``legal_actions()``, each of
which must work, with every seat's observation and a JSON round trip along the way.
The same for event logs through ``Game.replay``.

The errors damage is named with are in test_snapshot_errors.py; the compact log and
the older snapshot format in test_snapshot_log.py; the soundness checks all three
share in snapshot_checks.py.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections import Counter

import pytest

from chinchon import ChinchonError, Game, Rules
from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.cards import full_deck

from tests.oracles.impls import SCALE

from .snapshot_checks import assert_consistent, plays_on

NATIVE_SOLVER = __import__("chinchon").IMPLEMENTATION == "native"
# the pure-Python solver takes ~1 ms a turn: fewer mutants there
MUTANTS = max(200, int((4000 if NATIVE_SOLVER else 400) * SCALE))


# ---------------------------------------------------------------- games to damage


def random_games(seed: int, count: int) -> list[Game]:
    """Games of 3-6 players stopped at random points: any phase, some disconnected
    seats, some finished, some many hands in."""
    rng = random.Random(seed)
    games = []
    for k in range(count):
        players = rng.choice([3, 4, 5, 6])
        g = Game(players, seed=rng.randrange(2**40),
                 rules=rng.choice([None, Rules(close_limit=9, eliminate_above=40)]))
        bots = [(GreedyBot if rng.random() < 0.7 else RandomBot)(rng.randrange(10**6))
                for _ in range(players)]
        now = 0.0
        for _ in range(rng.choice([0, 1, 5, 30, 120, 400])):
            if g.result is not None:
                break
            if rng.random() < 0.03:
                seat = rng.randrange(players)
                now += rng.random() * 30
                if seat in g.disconnected:
                    g.reconnect(seat, now)
                else:
                    g.disconnect(seat, now)
                continue
            if not g.legal_actions() or g.phase == "summary":  # bring the seats back
                for seat in sorted(g.disconnected):
                    g.reconnect(seat, now)
            play_turn(g, bots)
        if rng.random() < 0.25:  # stop in a summary
            for _ in range(300):
                if g.result is not None or g.phase == "summary":
                    break
                for seat in sorted(g.disconnected):
                    g.reconnect(seat, now)
                play_turn(g, bots)
        if rng.random() < 0.05 and g.result is None:  # a cancelled game
            seat = rng.randrange(players)
            if seat not in g.disconnected and g.in_game[seat]:
                g.disconnect(seat, now)
                g.tick(now + g.rules.reconnect_seconds)
        games.append(g)
    return games


# ---------------------------------------------------------------- mutations

ODD_VALUES = [None, True, False, 0, -1, 1, 2, 3, 7, 8, 63, 64, 255, 2**31, 2**53, 2**64,
              10**30, -(10**30), 0.5, -0.0, 1e308, "", "x", "1o", "draw", "over", [], [0],
              ["1o"], {}, {"event": "draw"}, [[0, 1.5]]]


def _paths(node, path=()):
    """Every (path, value) of a JSON document, containers included."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _parent(doc, path):
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


def _card_lists(doc):
    """Paths of the lists in the state where cards are (hands, stock, discard); fewer
    when an earlier damage broke them."""
    hands = doc.get("hands")
    out = [("hands", s) for s in range(len(hands))] if isinstance(hands, list) else []
    return [p for p in out + [("stock",), ("discard",)] if isinstance(_get(doc, p), list)]


def _get(doc, path):
    node = doc
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def mutate(doc: dict, rng: random.Random) -> dict:
    """One random damage to a parsed snapshot (a deep copy is changed)."""
    doc = copy.deepcopy(doc)
    op = rng.randrange(12)
    paths = [p for p, _ in _paths(doc) if p]
    path = rng.choice(paths)
    parent, key = _parent(doc, path), path[-1]
    if op == 0:  # drop a field or an entry
        del parent[key]
    elif op == 1:  # duplicate an entry, or a field under another name
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[rng.choice(list(parent))] = copy.deepcopy(parent[key])
    elif op in (2, 3):  # another type or an out-of-range value
        parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    elif op == 4:  # an int nudged
        ints = [p for p, v in _paths(doc) if p and type(v) is int]
        if ints:
            p = rng.choice(ints)
            _parent(doc, p)[p[-1]] += rng.choice([-2, -1, 1, 2, 5])
    elif op in (5, 6, 7):  # a card moved from one place to another
        lists = [p for p in _card_lists(doc) if _get(doc, p)]
        if lists:
            src = _get(doc, rng.choice(lists))
            card = src.pop(rng.randrange(len(src)))
            if rng.random() < 0.2 and doc.get("face_down", 0) is None:
                doc["face_down"] = card
            else:
                dst = _get(doc, rng.choice(_card_lists(doc)))
                dst.insert(rng.randrange(len(dst) + 1), card)
    elif op == 8:  # a card replaced by another (one card twice, one missing)
        lists = [p for p in _card_lists(doc) if _get(doc, p)]
        if lists:
            lst = _get(doc, rng.choice(lists))
            lst[rng.randrange(len(lst))] = str(rng.choice(full_deck(1)))
    elif op == 9 and _card_lists(doc):  # a card removed, or one added
        lst = _get(doc, rng.choice(_card_lists(doc)))
        if lst and rng.random() < 0.5:
            lst.pop(rng.randrange(len(lst)))
        else:
            lst.append(str(rng.choice(full_deck(1))))
    elif op == 10:  # phase, turn, lead, result shuffled around
        names = doc.get("names")
        n = len(names) if isinstance(names, list) else 3
        field = rng.choice(["phase", "turn", "lead", "result", "hand_number", "face_down",
                            "in_game", "last_hand"])
        doc[field] = rng.choice({
            "phase": ["draw", "discard", "summary", "over", "play"],
            "turn": [None, 0, 1, 2, 5, -1],
            "lead": [0, 1, 2, 5, -1],
            "result": [None, {"status": "won", "winner": 0, "reason": ""},
                       {"status": "draw", "winner": None}, {"status": "cancelled",
                                                            "winner": 1}],
            "hand_number": [1, 2, 0, 10],
            "face_down": [None, "1o", "12b"],
            "in_game": [[True] * n, [False] * n, [True, False] + [True] * (n - 2)],
            "last_hand": [None],
        }[field])
    else:  # the log: an event dropped, duplicated or moved
        log = doc.get("log")
        if isinstance(log, list) and log:
            i = rng.randrange(len(log))
            e = log.pop(i)
            if rng.random() < 0.7:
                log.insert(rng.randrange(len(log) + 1), e)
                if rng.random() < 0.5:
                    log.insert(rng.randrange(len(log) + 1), copy.deepcopy(e))
    return doc


def mutate_text(text: str, rng: random.Random) -> str:
    """One random damage to the JSON text itself."""
    op = rng.randrange(7)
    if op == 0:
        return text[: rng.randrange(len(text))]
    if op == 1:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["}", "]", ",", '"', "\\", "x", "\x00", "é"]) + text[i + 1:]
    if op == 2:
        return "[" * rng.choice([100, 5000, 200_000]) + "]" * rng.choice([0, 100])
    if op == 3:
        return text.replace('"turns":', '"turns":' + "9" * rng.choice([20, 400, 5000]) + "", 1)
    if op == 4:
        return text.replace('"hand_number":', '"hand_number":1e400,"x":', 1)
    if op == 5:
        depth = rng.choice([15, 40, 3000])
        return text.replace('"last_hand":', '"last_hand":' + "[" * depth + "]" * depth + ",\"y\":", 1)
    return rng.choice(["", "null", "NaN", "[]", '{"format":2}', "\ufeff{}", "{" * 50,
                       text.replace('"seed":', '"seed":NaN,"z":', 1),
                       text.replace('"format":2', '"format":1.0')])


# ---------------------------------------------------------------- a loaded game is sound


def check_loads_or_refuses(data, rng: random.Random, counts: Counter) -> None:
    try:
        g = Game.from_json(data)
    except ChinchonError:
        counts["refused"] += 1
        return
    counts["loaded"] += 1
    assert_consistent(g)
    saved = g.to_json()
    assert Game.from_json(saved).to_json() == saved
    for seat in range(g.players):
        json.dumps(g.observation(seat))
    try:
        Game.replay(g.log)
    except ChinchonError:
        counts["log refused"] += 1
    counts["moves"] += plays_on(g, rng)
    assert_consistent(g)


# ---------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def games():
    # not scaled down: fewer games would not reach every phase (about 4 s on the
    # pure-Python solver)
    return random_games(2024, 80 if NATIVE_SOLVER else 40)


def test_the_games_to_damage_cover_every_phase(games):
    phases = Counter(g.phase for g in games)
    assert set(phases) >= {"draw", "discard", "summary", "over"}, phases
    assert max(g.hand_number for g in games) >= 3
    assert sum(bool(g.disconnected) for g in games) >= 2
    assert sum(g.log[0]["event"] == "checkpoint" for g in games) >= 2


def test_mutated_snapshots_raise_the_package_error_or_play_on(games):
    rng = random.Random(15)
    docs = [json.loads(g.to_json()) for g in games]
    counts: Counter = Counter()
    t0 = time.perf_counter()
    for k in range(MUTANTS):
        doc = mutate(rng.choice(docs), rng)
        if rng.random() < 0.5:
            doc = mutate(doc, rng)  # two damages at once
        data = json.dumps(doc) if k % 3 else doc  # text and the parsed dict both
        check_loads_or_refuses(data, rng, counts)
    print(f"\n{MUTANTS} mutants in {time.perf_counter() - t0:.1f} s: {dict(counts)}")
    assert counts["refused"] > MUTANTS // 2  # the damage is mostly caught...
    assert counts["loaded"] > MUTANTS // 50  # ...and some damage is harmless, and plays on
    assert counts["moves"] > 0


def test_damaged_json_text_is_refused_with_the_package_error(games):
    rng = random.Random(16)
    texts = [g.to_json() for g in games[:20]]
    counts: Counter = Counter()
    for _ in range(max(100, MUTANTS // 8)):
        text = mutate_text(rng.choice(texts), rng)
        data = text.encode() if rng.random() < 0.3 else text
        check_loads_or_refuses(data, rng, counts)
    assert counts["refused"] > 0
    print(f"\ntext mutants: {dict(counts)}")


# ---------------------------------------------------------------- replay of a damaged log


def test_damaged_logs_raise_the_package_error_or_replay(games):
    rng = random.Random(17)
    logs = [g.log for g in games if len(g.log) > 3]
    counts: Counter = Counter()
    for _ in range(max(200, MUTANTS // 4)):
        log = copy.deepcopy(rng.choice(logs))
        doc = {"log": log}
        for _ in range(rng.choice([1, 1, 2])):
            doc = mutate_log(doc, rng)
        try:
            g = Game.replay(doc["log"])
        except ChinchonError:
            counts["refused"] += 1
            continue
        counts["replayed"] += 1
        assert_consistent(g)
        counts["moves"] += plays_on(g, rng, 20)
    print(f"\nlog mutants: {dict(counts)}")
    assert counts["refused"] > 0 and counts["replayed"] > 0


def mutate_log(doc: dict, rng: random.Random) -> dict:
    log = doc["log"]
    if not isinstance(log, list) or not log:
        return doc
    op = rng.randrange(5)
    if op == 0 and len(log) > 1:  # an event dropped, duplicated or moved
        i = rng.randrange(1, len(log))
        e = log.pop(i)
        if rng.random() < 0.6:
            log.insert(rng.randrange(1, len(log) + 1), e)
    elif op in (1, 2):  # a field retyped or dropped
        paths = [p for p, _ in _paths(log) if len(p) >= 2]
        if paths:
            p = rng.choice(paths)
            if op == 1:
                _parent(log, p)[p[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
            else:
                del _parent(log, p)[p[-1]]
    elif op == 3:
        log.insert(rng.randrange(1, len(log) + 1), rng.choice([
            {"event": "reshuffle"}, {"event": "timeout", "now": 1e9},
            {"event": "draw", "source": "discard"}, {"event": "next_hand", "deck": None},
            {"event": "rejoin", "seat": 1}, {"event": "disconnect", "seat": 0, "now": 5},
            {"event": "discard", "card": "1o", "close": True}, {"event": "new"}, 5, [],
        ]))
    else:  # not a log at all
        return {"log": rng.choice([5, "log", None, [], {"event": "new"}, [5], [None]])}
    return doc
