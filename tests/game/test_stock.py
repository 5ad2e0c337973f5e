"""The stock and the reshuffle (docs/rules.md#turns-hints-and-closing): an empty stock is the discard pile shuffled
by the seeded generator, copies included, and survives JSON and replay."""

from __future__ import annotations

import json
from collections import Counter

from chinchon.cards import Card
from chinchon.game import Game
from chinchon.game.rng import Rng
from tests.oracles.tables import (
    CLOSER, DEAD42, DEAD52, DEAD53, DEAD69, cards, stack, table_deck,
)


def test_reshuffle_when_the_stock_is_empty():
    g = Game(4, deck=stack([DEAD53, DEAD69, DEAD42, CLOSER], "12e"), lead=0,
             seed=3)
    while g.stock_size:
        g.discard(g.draw("stock"))  # everyone throws away what they draw
    assert g.discard_size == 20 and g.phase == "draw"
    pile = Counter(str(c) for c in json.loads(g.to_json())["discard"])
    twin = g.clone()
    card = g.draw("stock")
    assert g.discard_size == 0 and g.discard_top is None and g.stock_size == 19
    assert ("draw", "discard") not in g.legal_actions()
    stock = Counter(json.loads(g.to_json())["stock"]) + Counter([str(card)])
    assert stock == pile
    assert twin.draw("stock") == card and twin.to_json() == g.to_json()
    g.discard(card)
    assert g.discard_top == card


def test_discard_draw_with_an_empty_stock_keeps_the_stock_empty():
    g = Game(4, deck=stack([DEAD53, DEAD69, DEAD42, CLOSER], "12e"), lead=0)
    while g.stock_size:
        g.discard(g.draw("stock"))
    top = g.discard_top
    assert g.draw("discard") == top and g.stock_size == 0


def run_down_the_stock(seed):
    g = Game(4, deck=table_deck(4, 0, {0: DEAD53, 1: DEAD69, 2: DEAD42, 3: CLOSER}, "12e"),
             lead=0, seed=seed)
    while g.stock_size:
        g.discard(g.draw("stock"))
    return g


def test_reshuffle_is_the_discard_pile_shuffled_by_the_seeded_generator():
    g = run_down_the_stock(seed=123)
    pile = [Card.parse(c) for c in json.loads(g.to_json())["discard"]]
    assert len(pile) == 20 and g.discard_size == 20
    # lead and deck were given: the generator is untouched until this reshuffle
    expected = list(pile)
    Rng(123).shuffle(expected)
    assert ("draw", "stock") in g.legal_actions()
    drawn = g.draw("stock")
    assert drawn == expected[0]
    assert [Card.parse(c) for c in json.loads(g.to_json())["stock"]] == expected[1:]
    assert g.discard_size == 0 and g.discard_top is None
    assert g.legal_actions()[0][0] == "discard"
    assert "reshuffle" in [e["event"] for e in g.log]
    g.discard(drawn)
    assert g.legal_actions() == [("draw", "stock"), ("draw", "discard")]
    # the same seed and the same actions replay identically; another seed differs
    assert Game.replay(g.log).to_json() == g.to_json()
    again = run_down_the_stock(seed=123)
    again.discard(again.draw("stock"))
    assert again.to_json() == g.to_json()
    other = run_down_the_stock(seed=124)
    assert other.draw("stock") != drawn or other.to_json() != g.to_json()


def test_reshuffle_after_the_last_stock_card_was_skipped_for_the_discard_top():
    g = run_down_the_stock(seed=9)
    taken = g.draw("discard")  # empty stock: take the discard top instead
    assert g.stock_size == 0
    g.discard(taken)
    saved = json.loads(g.to_json())
    expected = [Card.parse(c) for c in saved["discard"]]
    name, *words = saved["rng"]
    assert name == "xoshiro256**"
    Rng.from_state([int(w, 16) for w in words]).shuffle(expected)
    assert g.draw("stock") == expected[0]
    assert g.stock_size == len(expected) - 1


def test_two_reshuffles_round_trip_through_json_and_replay():
    g = run_down_the_stock(seed=5)
    for _ in range(25):  # through a second reshuffle
        g.discard(g.draw("stock"))
    assert [e["event"] for e in g.log].count("reshuffle") == 2
    restored = Game.from_json(g.to_json())
    replayed = Game.replay(g.log)
    for x in (restored, replayed):
        assert x.to_json() == g.to_json()
    for _ in range(30):
        a, b, c = g.draw("stock"), restored.draw("stock"), replayed.draw("stock")
        assert a == b == c
        for x in (g, restored, replayed):
            x.discard(a)
    assert restored.to_json() == g.to_json() == replayed.to_json()


def test_six_player_reshuffle_with_copies_in_the_discard_pile():
    hands = {2: DEAD69, 3: DEAD42, 4: DEAD53, 5: DEAD52, 0: DEAD69, 1: DEAD42}
    g = Game(6, deck=table_deck(6, 2, hands, "12e"), lead=2, seed=17)
    assert g.stock_size == 53
    while g.stock_size:
        g.discard(g.draw("stock"))
    pile = [Card.parse(c) for c in json.loads(g.to_json())["discard"]]
    assert len(pile) == 54 and len(set(pile)) < 54  # copies: two decks
    expected = list(pile)
    Rng(17).shuffle(expected)
    turn = g.turn
    assert g.draw("stock") == expected[0]
    assert [Card.parse(c) for c in json.loads(g.to_json())["stock"]] == expected[1:]
    assert Counter(g.held(turn)) - Counter(cards(hands[turn])) == Counter([expected[0]])
    assert Game.replay(g.log).to_json() == g.to_json()


def test_a_reshuffle_before_its_draw_saves_and_replays():
    """Game.reshuffle() alone (public) left a game whose snapshot did not load ("discard
    is empty at a draw") and whose log did not replay, even once the turn went on after
    a disconnection between the reshuffle and the draw."""
    import pytest

    from chinchon import IllegalAction

    def empty_stock() -> Game:
        g = Game(2, seed=5, lead=0)
        while g.stock_size:
            g.draw("stock")
            g.discard(g.held(g.turn)[0])
        return g

    g = empty_stock()
    g.reshuffle()
    text = g.to_json()
    for again in (Game.from_json(text), g.clone(), Game.replay(g.log)):
        assert again.to_json() == text
        with pytest.raises(IllegalAction):
            again.draw("discard")  # the pile went into the stock
        assert again.draw("stock") == g.clone().draw("stock")
    g = empty_stock()
    g.reshuffle()
    g.disconnect(1, 0.0)
    g.reconnect(1, 1.0)
    g.draw("stock")
    g.discard(g.held(g.turn)[0])
    assert Game.replay(g.log).to_json() == g.to_json()
    d = json.loads(text)
    del d["restocked"]  # an empty pile at a draw that no reshuffle explains
    with pytest.raises(IllegalAction, match="discard is empty at a draw"):
        Game.from_json(d)
