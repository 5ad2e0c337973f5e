"""The game's random generator (chinchon.game.rng, csrc/src/base/rng.c): the published
xoshiro256** and splitmix64 vectors, the vectors both implementations check
(tests/data/rng_vectors.txt, which csrc/tests/test_rng.c reads too), the C generator
through the binding draw for draw, and the game's and bots' use of it."""

from __future__ import annotations

import copy
import json
import pathlib
import random
from collections import Counter

import pytest

import chinchon
from chinchon import Game, Rules
from chinchon.bots import GreedyBot, RandomBot, make_bot, play_turn
from chinchon.errors import ChinchonError
from chinchon.game import rng as rng_module
from chinchon.game.deck import deck_for
from chinchon.game.rng import Rng, derive, splitmix64
from chinchon.game.state import GameState
from chinchon.simulation import game_seed, play_game

VECTORS = pathlib.Path(__file__).resolve().parents[1] / "data" / "rng_vectors.txt"
NATIVE = chinchon.IMPLEMENTATION == "native"
M64 = 2**64 - 1


def vector_lines():
    rows = []
    for line in VECTORS.read_text().splitlines():
        if line and not line.startswith("#"):
            head, _, tail = line.partition(" : ")
            kind, *inputs = head.split()
            rows.append((kind, inputs, tail.split()))
    return rows


def py_shuffle(r, items):
    """Rng.shuffle's Python loop, whatever the core in use."""
    saved = rng_module._native_shuffle
    rng_module._native_shuffle = None
    try:
        r.shuffle(items)
    finally:
        rng_module._native_shuffle = saved


def test_published_vectors():
    # xoshiro256** from the state {1, 2, 3, 4}: the reference implementation's outputs
    r = Rng.from_state((1, 2, 3, 4))
    assert [r.next64() for _ in range(10)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
        607988272756665600, 16172922978634559625, 8476171486693032832,
        10595114339597558777, 2904607092377533576]
    # splitmix64 from 1234567 (Rosetta Code) and from 0
    assert splitmix64(1234567, 5) == [6457827717110365317, 3203168211198807973,
                                      9817491932198370423, 4593380528125082431,
                                      16408922859458223821]
    assert splitmix64(0, 1) == [0xE220A8397B1DCDAF]


def test_the_shared_vectors_in_python():
    rows = vector_lines()
    assert len(rows) >= 20 and {k for k, _, _ in rows} == {
        "xoshiro", "splitmix", "derive", "seed", "below", "double", "shuffle"}
    for kind, inputs, outputs in rows:
        ints = [int(x) for x in inputs]
        if kind == "xoshiro":
            r = Rng.from_state(ints)
            assert [r.next64() for _ in outputs] == [int(x) for x in outputs]
        elif kind == "splitmix":
            assert splitmix64(ints[0], len(outputs)) == [int(x) for x in outputs]
        elif kind == "derive":
            neg, mag = ints[0], sum(w << (64 * k) for k, w in enumerate(ints[1:5]))
            assert derive(-mag if neg else mag, *ints[5:]) == int(outputs[0])
        elif kind == "seed":
            assert splitmix64(ints[0], 4) == [int(x) for x in outputs]
        elif kind == "below":
            r = Rng.from_state(ints[:4])
            assert [r.below(ints[4]) for _ in outputs] == [int(x) for x in outputs]
        elif kind == "double":
            r = Rng.from_state(ints)
            assert [r.random() for _ in outputs] == [float(x) for x in outputs]
        elif kind == "shuffle":
            for shuffle in (Rng.shuffle, py_shuffle):
                items = list(range(ints[4]))
                shuffle(Rng.from_state(ints[:4]), items)
                assert items == [int(x) for x in outputs]


def test_seeding_is_the_documented_derivation():
    for seed in (0, 1, -1, 42, 2**63, -(2**256 - 1), 2**256 - 1):
        assert Rng(seed).getstate() == tuple(splitmix64(derive(seed), 4))
        assert Rng(seed, 3, 9).getstate() == tuple(splitmix64(derive(seed, 3, 9), 4))
    assert derive(5) != derive(-5) and derive(5, 0) != derive(5) != derive(5, 1)
    with pytest.raises(ValueError):
        derive(2**256)
    with pytest.raises(ValueError):
        derive(1, -1)
    with pytest.raises(ValueError):
        Rng(1.5)  # type: ignore[arg-type]
    assert Rng(None).getstate() != Rng(None).getstate()  # from the OS


def test_bounded_draw_and_float_ranges():
    r = Rng(11)
    counts = Counter(r.below(3) for _ in range(30000))
    assert set(counts) == {0, 1, 2} and all(9500 < c < 10500 for c in counts.values())
    for n in (1, 2, 5, 48, 96, 2**31 + 1, 2**32 - 1):
        assert all(0 <= r.below(n) < n for _ in range(200))
    assert all(0.0 <= r.random() < 1.0 for _ in range(1000))
    for bad in (0, -1, 2**32):
        with pytest.raises(ValueError):
            r.below(bad)
    # rejection: with n = 2**31 + 1 nearly half the draws are redrawn, both ways agree
    a, b = Rng(3), Rng(3)
    assert [a.below(2**31 + 1) for _ in range(50)] == [b.below(2**31 + 1) for _ in range(50)]
    assert a == b


def test_state_round_trip_and_checks():
    r = Rng(7)
    r.next64()
    s = r.getstate()
    twin = Rng.from_state(s)
    assert [r.next64() for _ in range(5)] == [twin.next64() for _ in range(5)]
    for bad in ((0, 0, 0, 0), (1, 2, 3), (1, 2, 3, 2**64), (1, 2, 3, -1), (1, 2, 3, True)):
        with pytest.raises(ValueError):
            Rng.from_state(bad)


@pytest.mark.skipif(not NATIVE, reason="the C generator is reached through the native binding")
def test_c_and_python_agree_draw_for_draw():
    from chinchon._core import rng as b
    rnd = random.Random(2024)
    for _ in range(200):
        seed = rnd.randrange(-(2**256) + 1, 2**256)
        words = tuple(rnd.randrange(2**64) for _ in range(rnd.randrange(3)))
        mag = abs(seed)
        c_state = b._rng_seed(seed < 0, [(mag >> (64 * k)) & M64 for k in range(4)], words)
        py = Rng(seed, *words)
        assert c_state == py.getstate()
        out, c_state = b._rng_draws(c_state, "next", 20)
        assert out == [py.next64() for _ in range(20)]
        n = rnd.choice([1, 2, 3, 7, 40, 48, 96, rnd.randrange(1, 2**32)])
        out, c_state = b._rng_draws(c_state, "below", 20, n)
        assert out == [py.below(n) for _ in range(20)]
        out, c_state = b._rng_draws(c_state, "double", 5)
        assert out == [py.random() for _ in range(5)]
        items = list(range(rnd.randrange(100)))
        twin = list(items)
        c_state = b._rng_shuffle(items, c_state)
        py_shuffle(py, twin)
        assert items == twin and c_state == py.getstate()


def test_the_game_deals_and_leads_from_its_generator():
    """The first lead is ``below(n)`` before anything else, then the deck in ascending
    card order is shuffled (Fisher-Yates from the end) and dealt 7 by 7 from the lead in
    play order, then one card to the discard pile, the rest is the stock."""
    for players, seed, rules in ((4, 42, Rules()), (2, -7, Rules.preset("conga")),
                                 (6, 2**200 + 3, Rules.preset("fifty"))):
        g = Game(players, seed=seed, rules=rules)
        r = Rng(seed)
        assert g.lead == r.below(players)
        deck = deck_for(rules, 2 if players >= 5 else 1)
        assert deck == sorted(deck, key=lambda c: c.index)
        py_shuffle(r, deck)
        order = [(g.lead + k) % players for k in range(players)]
        for k, seat in enumerate(order):
            assert g.held(seat) == sorted(deck[7 * k:7 * k + 7], key=lambda c: c.index)
        d = json.loads(g.to_json())
        assert d["discard"] == [str(deck[7 * players])]
        assert d["stock"] == [str(c) for c in deck[7 * players + 1:]]
        assert d["rng"] == ["xoshiro256**", *(f"{w:016x}" for w in r.getstate())]


def test_same_seed_same_game_and_simulation_seeds():
    bots = ["greedy", "random", "expert"]
    a, b = play_game(3, bots, 9, 4), play_game(3, bots, 9, 4)
    assert a == b
    assert game_seed(9, 4) == derive(9, 4, 0) >> 1
    assert game_seed(9, 4, 2) == derive(9, 4, 2) >> 1
    assert len({game_seed(9, 4, s) for s in range(4)}) == 4
    assert 0 <= game_seed(-(2**255), 10**6, 7) < 2**63


def test_bots_draw_from_their_own_generator():
    assert isinstance(make_bot("random", 5).rng, Rng)
    assert make_bot("greedy", 5).rng == Rng(5)
    with pytest.raises(ChinchonError, match="seed must be an int"):
        RandomBot("x")  # type: ignore[arg-type]
    # a random bot's choices are a function of its seed
    g1, g2 = GameState(3, seed=1), GameState(3, seed=1)
    b1, b2 = [RandomBot(s) for s in range(3)], [RandomBot(s) for s in range(3)]
    for _ in range(60):
        if g1.result is None:
            play_turn(g1, b1)
            play_turn(g2, b2)
    assert g1.to_dict() == g2.to_dict()
    assert all(x.rng == y.rng for x, y in zip(b1, b2))
    assert isinstance(GreedyBot(1).rng, Rng)


# ---------------------------------------------------------------- snapshots

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def _format2_tools():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_snapshots_format2",
                                                  DATA / "make_snapshots_format2.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_format_2_snapshots_load_and_continue_as_they_would_have():
    """Snapshots written before xoshiro256** (random.Random's state inside, written by
    the old code: tests/data/make_snapshots_format2.py) load, keep their generator, and
    play on exactly as the old code did (a digest of every state over hundreds of moves
    under greedy bots that never draw randomness)."""
    tools = _format2_tools()
    saved = json.loads((DATA / "snapshots_format2.json").read_text())
    assert len(saved) == 5 and sum(s["moves"] for s in saved) > 500
    heads = Counter()
    for entry in saved:
        old = json.loads(entry["snapshot"])
        assert old["format"] == 2 and old["rng"][0] == 3 and len(old["rng"][1]) == 625
        g = Game.from_json(entry["snapshot"])
        d = g.to_dict()
        assert d["format"] == 3 and d["rng"] == old["rng"]  # still the Mersenne Twister
        for key in old:
            if key != "format":
                assert d[key] == old[key], key
        assert Game.replay(g.log).to_json() == g.to_json()
        heads[old["log"][0]["event"]] += 1
        if old["log"][0]["event"] == "new":  # replays from the seed with random.Random
            assert "generator" not in old["log"][0]
            assert Game.replay(old["log"]).to_json() == g.to_json()
        assert tools.continuation(g) == (entry["continuation"], entry["moves"])
    assert heads == {"new": 2, "checkpoint": 3}


def test_format_2_snapshot_saved_again_continues_identically():
    tools = _format2_tools()
    entry = json.loads((DATA / "snapshots_format2.json").read_text())[0]
    g = Game.from_json(Game.from_json(entry["snapshot"]).to_json())
    assert g.to_dict()["rng"][0] == 3
    assert tools.continuation(g) == (entry["continuation"], entry["moves"])


def test_new_snapshots_hold_four_words_and_name_the_generator():
    g = Game(4, seed=42)
    bots = [GreedyBot(s) for s in range(4)]
    for _ in range(30):
        play_turn(g, bots)
    d = g.to_dict()
    assert d["format"] == 3 and d["log"][0]["generator"] == "xoshiro256**"
    assert d["rng"][0] == "xoshiro256**" and len(d["rng"]) == 5
    assert len(json.dumps(d["rng"])) < 100
    # restored, it plays on identically (bots seeded alike on both sides)
    twin = Game.from_json(g.to_json())
    bots2 = copy.deepcopy(bots)
    for _ in range(300):
        if g.result is not None:
            break
        play_turn(g, bots)
        play_turn(twin, bots2)
    assert twin.to_json() == g.to_json()
    # a log whose opening names no generator is an old one: it replays on random.Random,
    # so it is not this game's
    d = Game(3, seed=8).to_dict()
    del d["log"][0]["generator"]
    with pytest.raises(chinchon.IllegalAction, match=r"log\[0\].generator is not the game's"):
        Game.from_json(d)
    assert Game.replay(d["log"]).to_dict()["rng"][0] == 3
    d["log"][0]["generator"] = "pcg"
    with pytest.raises(chinchon.IllegalAction, match=r"log\[0\].generator must be one of"):
        Game.replay(d["log"])
