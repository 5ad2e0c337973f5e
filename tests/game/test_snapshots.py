"""Saving and restoring (docs/rules.md#dealing-and-stacked-decks): to_json/from_json and replay of the event log
rebuild the same game in every phase and continue identically; what is handed out is
a copy; damaged saves are refused with a ValueError."""

from __future__ import annotations

import json

import pytest

from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.cards import full_deck
from chinchon.game import Game
from tests.oracles.tables import STATES, close_now, stacked_game, states_of_every_kind


def assert_restores(g):
    saved = g.to_json()
    assert Game.from_json(saved).to_json() == saved
    assert Game.from_json(json.loads(saved)).to_json() == saved
    assert Game.replay(g.log).to_json() == saved
    assert Game.replay(json.loads(json.dumps(g.log))).to_json() == saved
    assert g.clone().to_json() == saved


def test_json_round_trip_continues_identically():
    g = Game(4, seed=11)
    for _ in range(30):
        g.discard(g.draw("stock"))
    saved = g.to_json()
    restored = Game.from_json(saved)
    assert restored.to_json() == saved
    for _ in range(40):  # through a reshuffle: the generator state was restored
        a, b = g.draw("stock"), restored.draw("stock")
        assert a == b
        g.discard(a)
        restored.discard(b)
    assert restored.to_json() == g.to_json()


def test_replay_rebuilds_the_same_state():
    g = stacked_game(seed=8)
    close_now(g)
    g.next_hand()
    g.disconnect(1, 3)
    g.reconnect(1, 4)
    for _ in range(25):
        g.discard(g.draw("stock"))
    assert Game.replay(g.log).to_json() == g.to_json()
    g.disconnect(0, 10)
    g.tick(70)
    assert Game.replay(g.log).to_json() == g.to_json()
    assert Game.replay(json.loads(json.dumps(g.log))).to_json() == g.to_json()


@pytest.mark.parametrize("label", STATES)
def test_json_and_replay_in_every_phase(label):
    g = dict(states_of_every_kind())[label]
    if label in ("summary-out", "won", "draw-game"):
        # these were edited into place: their log cannot replay the edit
        saved = g.to_json()
        assert Game.from_json(saved).to_json() == saved
        return
    assert_restores(g)


def test_json_and_replay_across_a_whole_game_with_rejoins_and_disconnections():
    g = Game(5, seed=77)
    bots = [GreedyBot(s) if s % 2 else RandomBot(s) for s in range(5)]
    t = 0.0
    steps = 0
    while g.result is None and steps < 3000:
        steps += 1
        if steps % 37 == 0:
            s = steps % 5
            g.disconnect(s, t)
            t += 59.5
            g.tick(t)
            g.reconnect(s, t)
        if steps % 101 == 0 or g.phase == "summary":
            assert_restores(g)
            twin = Game.from_json(g.to_json())
            play_turn(g, bots)
            play_turn(twin, [b for b in bots])
            continue
        play_turn(g, bots)
    assert g.result is not None
    assert_restores(g)


def test_the_log_and_saved_dicts_handed_out_are_copies():
    g = Game(["Ana", "Luis", "Eva"], seed=1, deck=full_deck(1), lead=0)
    before = g.to_json()
    log = g.log
    log[0]["deck"].reverse()
    log[0]["players"].append("Sol")
    log[0]["rules"]["close_limit"] = 0
    log[0]["rules"]["points"][0] = 2  # a list inside the rules: copied too
    g.to_dict()["log"][0]["deck"].clear()
    g.to_dict()["log"][0]["rules"]["points"].clear()
    assert g.to_json() == before
    saved = json.loads(before)
    restored = Game.from_json(saved)
    saved["log"][0]["deck"].clear()
    saved["log"][0]["rules"]["close_limit"] = 0
    saved["log"][0]["rules"]["points"][0] = 2
    assert restored.to_json() == before
    assert Game.replay(restored.log).to_json() == before


@pytest.mark.parametrize("bad", ["[]", "5", "null", "not json", b"\xff", [], 5])
def test_from_json_refuses_what_is_not_a_saved_game_with_a_value_error(bad):
    with pytest.raises(ValueError):
        Game.from_json(bad)


@pytest.mark.parametrize("field,value", [("rng", [1, 2, 3]), ("hands", 5), ("names", 5),
                                         ("totals", None), ("log", [5]), ("log", 5),
                                         ("disconnected", [[0]]), ("rules", {"x": 1})])
def test_from_json_refuses_a_damaged_field_with_a_value_error(field, value):
    saved = json.loads(Game(3, seed=1).to_json())
    saved[field] = value
    with pytest.raises(ValueError):
        Game.from_json(saved)
