"""The compact log: its size does not grow with the game, replay still rebuilds the
state (through checkpoints and reshuffles), and the older snapshot format still loads."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from chinchon import Game, IllegalAction, Rules
from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.game.state import OPTIONAL_STATE_KEYS

from .snapshot_checks import plays_on

DATA = Path(__file__).parent.parent / "data"


def long_game(players: int = 4, seed: int = 3, hands: int = 10) -> Game:
    """A game of greedy bots played into hand ``hands`` (a generous elimination limit
    keeps it going)."""
    g = Game(players, seed=seed, rules=Rules(eliminate_above=10_000))
    bots = [GreedyBot(s) for s in range(players)]
    while g.hand_number < hands and g.result is None:
        play_turn(g, bots)
    assert g.hand_number == hands and g.result is None
    return g


def test_the_log_holds_one_hand_and_replays_to_the_same_state():
    g = Game(4, seed=3, rules=Rules(eliminate_above=10_000))
    bots = [GreedyBot(s) for s in range(4)]
    sizes = []
    while g.hand_number < 12:
        play_turn(g, bots)
        if g.phase == "draw" and g.turns_this_hand == 2:
            log = g.log
            assert log[0]["event"] == ("new" if g.hand_number == 1 else "checkpoint")
            assert all(e["event"] != "next_hand" for e in log)
            assert len(log) <= Game.LOG_LIMIT
            saved = g.to_json()
            sizes.append(len(saved))
            assert Game.replay(log).to_json() == saved
            assert Game.from_json(saved).to_json() == saved
    # hand 1 has the opening instead of a checkpoint; from hand 2 on the size stays put:
    # within 1,200 bytes (the game is seeded: the sizes are exact). The bound was 20% of
    # the smallest while a ~6.7 KB random.Random state sat in every snapshot, about
    # 2.2 KB; the generator's state is now 92 bytes, so a ratio would mean another
    # thing, and bytes keep the bound at least as tight.
    assert max(sizes[1:]) - min(sizes[1:]) < 1_200, sizes


def test_a_hand_longer_than_the_log_limit_is_checkpointed():
    g = Game(3, seed=5, rules=Rules(close_limit=0))  # nobody closes: one endless hand
    bots = [RandomBot(s) for s in range(3)]
    for step in range(3 * Game.LOG_LIMIT):
        play_turn(g, bots)
        if step % 50 == 0 and g.phase == "draw":
            assert len(g.log) <= Game.LOG_LIMIT
            saved = g.to_json()
            assert Game.replay(g.log).to_json() == saved
    assert g.hand_number == 1 and g.log[0]["event"] == "checkpoint"
    assert len(g.to_json()) < 40_000


def draw_down_to_a_reshuffle(g: Game) -> None:
    """Everyone draws from the stock and throws the card back until the stock has been
    reshuffled (no solver call: fast on the pure-Python solver too)."""
    while "reshuffle" not in [e["event"] for e in g.log]:
        g.discard(g.draw("stock"))


def test_a_reshuffle_after_a_checkpoint_replays_from_its_recorded_order():
    g = Game(3, seed=9, lead=0)
    bots = [GreedyBot(s) for s in range(3)]
    while g.hand_number == 1 or g.phase != "draw":
        play_turn(g, bots)
        assert g.result is None
    # hand 2: draw down the stock through a reshuffle, then replay the log
    draw_down_to_a_reshuffle(g)
    log = g.log
    assert log[0]["event"] == "checkpoint"
    # the checkpoint's generator is the game's current one: the reshuffle is recorded
    assert log[0]["state"]["rng"] == json.loads(g.to_json())["rng"]
    shuffle = next(e for e in log if e["event"] == "reshuffle")
    assert len(shuffle["stock"]) > 10
    assert Game.replay(log).to_json() == g.to_json()
    # a recorded order that is not the discard pile's cards does not replay
    shuffle["stock"][0] = shuffle["stock"][1]
    with pytest.raises(IllegalAction, match="recorded stock is not the discard pile"):
        Game.replay(log)
    del shuffle["stock"]
    with pytest.raises(IllegalAction, match="records the new stock"):
        Game.replay(log)
    d = json.loads(g.to_json())
    del next(e for e in d["log"] if e["event"] == "reshuffle")["stock"]
    with pytest.raises(IllegalAction, match=r"log\[\d+\].stock is missing"):
        Game.from_json(d)
    # a snapshot whose checkpoint has another generator is refused
    d = json.loads(g.to_json())
    words = d["log"][0]["state"]["rng"]
    words[1] = f"{int(words[1], 16) ^ 1:016x}"
    with pytest.raises(IllegalAction, match=r"log\[0\].state.rng is not the game's"):
        Game.from_json(d)
    twin = Game.from_json(g.to_json())
    for _ in range(40):
        if g.result is not None:
            break
        a = g.legal_actions()[0]
        g.apply(a)
        twin.apply(a)
    assert twin.to_json() == g.to_json()


def test_in_the_first_hand_a_reshuffle_is_checked_against_the_generator():
    g = Game(3, seed=4, lead=0)
    draw_down_to_a_reshuffle(g)
    log = g.log
    assert log[0]["event"] == "new"
    assert Game.replay(log).to_json() == g.to_json()
    shuffle = next(e for e in log if e["event"] == "reshuffle")
    shuffle["stock"][:2] = shuffle["stock"][1::-1]  # two cards swapped
    if shuffle["stock"][0] != shuffle["stock"][1]:
        with pytest.raises(IllegalAction, match="another order than the one recorded"):
            Game.replay(log)
    del shuffle["stock"]  # as format 1 logged it: the generator alone says the order
    assert Game.replay(log).to_json() == g.to_json()


def without_null_jokers(value):
    """``value`` with the ``joker: null, joker_rank: null`` of every meld dropped (what a
    meld without a joker writes since the variants; format 1 snapshots predate them)."""
    if isinstance(value, dict):
        return {k: without_null_jokers(v) for k, v in value.items()
                if not (k in ("joker", "joker_rank") and v is None)}
    if isinstance(value, list):
        return [without_null_jokers(v) for v in value]
    return value


def test_format_1_snapshots_still_load():
    saved = json.loads((DATA / "snapshots_format1.json").read_text())
    assert len(saved) >= 5
    for text in saved:
        old = json.loads(text)
        assert old["format"] == 1
        g = Game.from_json(text)
        d = g.to_dict()
        for key in old:
            if key not in ("format", "log", "rules"):
                assert without_null_jokers(d[key]) == old[key], key
        # the rules of an old snapshot are the house rules' five numbers; the rest take
        # their defaults
        assert Rules.from_dict(old["rules"]) == g.rules and d["rules"] == g.rules.to_dict()
        assert d["format"] == 3 and len(g.log) == 1 and g.log[0]["event"] == "checkpoint"
        assert Game.replay(g.log).to_json() == g.to_json()
        # the old log of every event replays to the same state, and compacts as it goes
        # (the replay also sees which cards were taken from the pile and what a reshuffle
        # turned over, which a format-1 snapshot does not record: OPTIONAL_STATE_KEYS)
        again = Game.replay(old["log"])
        skip = ("format", "log", *OPTIONAL_STATE_KEYS)
        assert {k: v for k, v in again.to_dict().items() if k not in skip} == \
            {k: v for k, v in d.items() if k not in skip}
        assert len(again.log) <= Game.LOG_LIMIT
        plays_on(g, random.Random(1))


def test_snapshot_cost_does_not_grow_with_the_game():
    """A snapshot in hand 10 costs about what one in hand 2 does: its size, and the work
    of loading it counted as function calls (a count, not a time: the same on a busy
    machine; replaying the game from its start would multiply it)."""
    early, late = long_game(hands=2), long_game(hands=10)

    def cost(g):
        text = g.to_json()
        calls = 0

        def count(frame, event, arg):
            nonlocal calls
            if event in ("call", "c_call"):
                calls += 1

        sys.setprofile(count)
        try:
            Game.from_json(text)
        finally:
            sys.setprofile(None)
        return len(text), calls

    (size2, calls2), (size10, calls10) = cost(early), cost(late)
    assert size10 < 1.3 * size2
    assert calls10 < 1.3 * calls2
