"""The bots: the greedy bot takes a useful discard and closes, the random bot plays
only legal moves; bots by name."""

from __future__ import annotations

import pytest

from chinchon.bots import GreedyBot, RandomBot, make_bot, play_turn
from chinchon.errors import ChinchonError
from chinchon.game import Game
from tests.oracles.tables import DEAD42, DEAD69, stack


def test_greedy_takes_a_useful_discard_and_closes():
    # seat 0 holds two melds and 12b; the face-up 2b lets it throw the 12b and close
    g = Game(3, deck=stack(["1o 2o 3o 4c 5c 6c 12b", DEAD69, DEAD42], "2b", ["12e"]), lead=0)
    bot = GreedyBot()
    assert bot.choose_draw(g, 0) == "discard"  # 2b for 12b: deadwood 12 -> 2
    g.draw("discard")
    card, close = bot.choose_discard(g, 0)
    assert (str(card), close) == ("12b", True)


def test_random_bot_plays_legal_moves():
    g = Game(4, seed=3)
    bots = [RandomBot(s) for s in range(4)]
    for _ in range(200):
        if g.result is not None:
            break
        play_turn(g, bots)
    assert make_bot("Greedy").name == "greedy"
    with pytest.raises(ChinchonError):
        make_bot("nobody")


def test_greedy_discard_follows_the_draw_made_not_the_one_advised():
    """The greedy bot kept the hints of the pile's top for its discard; asked for a
    discard after a stock draw against its advice (rl's bot_action does), it named a
    card of a hand it did not hold, or a close the mask did not allow."""
    found = 0
    for seed in range(60):
        g = Game(2, seed=seed, lead=0)
        bot = GreedyBot(0)
        seat = g.turn
        if bot.choose_draw(g.observe(seat), seat) != "discard":
            continue
        found += 1
        g.draw("stock")  # not what it advised
        card, close = bot.choose_discard(g.observe(seat), seat)
        assert card in g.held(seat)
        fresh = GreedyBot(0).choose_discard(g.observe(seat), seat)
        assert (card, close) == fresh
    assert found >= 5


def test_the_greedy_draw_inserts_the_top_card_in_bit_order_on_any_python():
    """bisect's key= came with Python 3.10: on 3.9 the greedy bot's every draw with a
    card on the pile raised a TypeError. Its stand-in gives bisect's own order."""
    import random
    import sys
    from bisect import insort

    from chinchon.bots import rule_based
    from chinchon.cards import full_deck

    rng = random.Random(5)
    for _ in range(500):
        deck = full_deck(rng.choice([1, 2]))
        rng.shuffle(deck)
        held, top = sorted(deck[:7], key=lambda c: c.index), deck[7]
        mine = list(held)
        rule_based._insort_by_index(mine, top)
        assert [c.index for c in mine] == sorted(c.index for c in held + [top])
        if sys.version_info >= (3, 10):
            theirs = list(held)
            insort(theirs, top, key=lambda c: c.index)
            assert mine == theirs
