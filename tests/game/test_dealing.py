"""Dealing and construction (docs/rules.md#turns-hints-and-closing, #dealing-and-stacked-decks): players as a count or names, the deck
validated, a stacked deal in play order, two decks from five players, the table order
of a hand, the lead from the seed, and bad arguments refused."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import chinchon
from chinchon.cards import Card, full_deck
from chinchon.errors import IllegalAction
from chinchon.game import Game
from chinchon.rules import Rules
from tests.oracles.tables import (
    CLOSER, DEAD42, DEAD53, DEAD69, cards, close_now, edited, refused, stack, stacked_game,
    strs, table_deck,
)


def test_players_as_count_or_names():
    g = Game(3, seed=1)
    assert g.players == 3 and g.names == ("Player 1", "Player 2", "Player 3")
    g = Game(["Ana", "Luis", "Eva", "Sol", "Ruy"], seed=1)
    assert g.players == 5 and g.decks == 2 and g.names[0] == "Ana"
    assert g.stock_size == 96 - 35 - 1
    for bad in (1, 7, "abc", ["a"], True):
        with pytest.raises(IllegalAction):
            Game(bad)


def test_deck_is_validated():
    deck = stack([CLOSER, DEAD69, DEAD42], "12e")
    Game(3, deck=deck, lead=0)
    Game(3, deck=[str(c) for c in deck], lead=0)
    with pytest.raises(IllegalAction, match="48 cards"):
        Game(3, deck=deck[:-1])
    with pytest.raises(IllegalAction, match="appears 2 times"):
        Game(3, deck=deck[:-1] + deck[:1])
    with pytest.raises(IllegalAction, match="96 cards"):
        Game(5, deck=deck)
    with pytest.raises(IllegalAction):
        Game(3, deck=deck[:-1] + ["13x"])
    double = stack(["5o 5o 5c 1b 2b 3b 9e"], "12e", decks=2)
    g = Game(5, deck=double, lead=4)
    assert sorted(g.held(4)) == sorted(cards("5o 5o 5c 1b 2b 3b 9e"))
    with pytest.raises(IllegalAction, match="appears"):
        Game(5, deck=double[:-1] + [double[0]])


def test_deal_from_a_deck_order():
    deck = stack([CLOSER, DEAD69, DEAD42, DEAD53], "12e", ["9o", "8o"])
    g = Game(4, deck=deck, lead=2)  # play order 2, 3, 0, 1
    assert g.lead == 2 and g.turn == 2 and g.phase == "draw"
    assert sorted(g.held(2)) == sorted(cards(CLOSER))
    assert sorted(g.held(3)) == sorted(cards(DEAD69))
    assert sorted(g.held(0)) == sorted(cards(DEAD42))
    assert sorted(g.held(1)) == sorted(cards(DEAD53))
    assert g.discard_top == Card("12e") and g.discard_size == 1
    assert g.stock_size == 48 - 28 - 1
    assert g.draw("stock") == Card("9o")  # the stock is drawn from the front
    assert len(g.held(2)) == 8 and all(len(g.held(s)) == 7 for s in (0, 1, 3))
    g.discard("9o")
    assert g.turn == 3 and g.discard_top == Card("9o")
    assert g.draw("discard") == Card("9o")
    assert g.discard_top == Card("12e")


def test_five_players_two_decks_deal_duplicates_in_play_order():
    by_seat = {3: "5o 5o 5c 1b 2b 3b 9e", 4: DEAD69, 0: DEAD42, 1: DEAD53, 2: DEAD69}
    deck = table_deck(5, 3, by_seat, "12e", ["9o", "9o", "12e"])
    g = Game(5, deck=deck, lead=3, seed=0)
    assert g.decks == 2 and g.lead == 3 and g.turn == 3 and g.phase == "draw"
    for s, text in by_seat.items():
        assert Counter(g.held(s)) == Counter(cards(text))
    assert g.stock_size == 96 - 35 - 1 and g.discard_top == Card("12e")
    # the table order of a hand with a copy: melds first, each sorted
    assert strs(g.hand(3)) == ["1b", "2b", "3b", "5o", "5o", "5c", "9e"] or \
        strs(g.hand(3)) == ["5o", "5o", "5c", "1b", "2b", "3b", "9e"]
    assert g.draw("stock") == Card("9o")
    g.discard("9o")
    assert g.turn == 4
    assert g.draw("stock") == Card("9o")  # the second copy
    assert Counter(g.held(4)) == Counter(cards(DEAD69 + " 9o"))
    g.discard("9o")
    assert g.turn == 0 and g.draw("stock") == Card("12e")  # the second 12e
    g.discard("12e")
    assert g.discard_size == 4


def test_five_player_table_keeps_two_decks_after_eliminations():
    g = stacked_game(5)
    g = edited(g, totals=[0, 2, 0, 0, 2])  # seats 1 and 4 go to 71
    close_now(g)
    assert g.in_game == (True, False, True, True, False)
    deck = table_deck(5, 2, {2: CLOSER, 3: DEAD69, 0: DEAD42}, "12e", ["12b"],
                      in_game=g.in_game)
    g.next_hand(deck)
    assert g.lead == 2 and g.decks == 2
    assert g.stock_size == 96 - 21 - 1
    assert g.held(1) == [] and g.held(4) == []
    refused(g, g.next_hand)
    with pytest.raises(IllegalAction, match="96 cards"):
        g2 = g.clone()
        g2.discard(g2.draw("stock"), close=True)
        g2.next_hand(full_deck(1))


def test_table_order_of_a_hand():
    g = Game(3, deck=stack(["4o 7o 7c 7b 9e 10e 11e"], "12e"), lead=0)
    shown = [str(c) for c in g.hand(0)]
    arrangement = chinchon.best_melds(cards("4o 7o 7c 7b 9e 10e 11e"))
    assert shown == [str(c) for m in arrangement.melds for c in m.cards] + ["4o"]


def test_random_lead_comes_from_the_seed():
    leads = {Game(4, seed=s).lead for s in range(40)}
    assert leads == {0, 1, 2, 3}
    assert Game(4, seed=7).to_json() == Game(4, seed=7).to_json()
    g = Game(4)
    assert isinstance(g.seed, int)
    assert Game(4, seed=g.seed).to_json() == g.to_json()


def test_constructor_bad_arguments():
    for kwargs in [dict(seed="1"), dict(seed=1.5), dict(lead=3), dict(lead=-1),
                   dict(lead="0"), dict(rules={}), dict(deck="1o 2o"),
                   dict(deck=[None] * 48), dict(deck=5)]:
        with pytest.raises(IllegalAction):
            Game(3, **kwargs)
    for players in (None, 3.0, b"abc", "abc", 1, 7, True, ["a"], object()):
        with pytest.raises(IllegalAction):  # never a bare TypeError
            Game(players)
    assert math.isfinite(Game(3, seed=1).lead)


def test_numpy_seats_and_finite_rules():
    import numpy as np

    g = Game(3, seed=1)
    assert g.hand(np.int64(1)) == g.hand(1)
    with pytest.raises(IllegalAction):
        g.hand(True)
    for bad in (float("inf"), float("nan"), -1):
        with pytest.raises(ValueError):
            Rules(reconnect_seconds=bad)


def test_a_deck_given_as_an_iterator_deals_as_its_list():
    """The game reads a one-shot deck once (it was dealt, then read again for the log,
    and the log's reading found nothing: "got 0")."""
    order = [str(c) for c in full_deck(1)][::-1]
    want = Game(3, deck=order, seed=4)
    for deck in (iter(order), (c for c in order)):
        g = Game(3, deck=deck, seed=4)
        assert g.to_json() == want.to_json()


def test_a_reshuffle_in_an_order_takes_card_text_and_names_what_is_wrong():
    """A recorded reshuffle's order may be the state's card text; anything that is not
    cards is refused by name, the game as it was."""
    from chinchon.bots import make_bot, play_turn

    g = Game(2, seed=3, lead=0)
    bots = [make_bot("random", s) for s in range(2)]
    while not (g.phase == "draw" and g.stock_size == 0):
        play_turn(g, bots)
    before = g.to_json()
    pile = g.state_dict()["discard"]
    for bad, words in (([None], "bad recorded stock"), (5, "bad recorded stock"),
                       (["zz"], "unknown card 'zz'"), (pile[:-1], "not the discard pile")):
        with pytest.raises(IllegalAction, match=words):
            g.reshuffle(bad)
        assert g.to_json() == before
    assert [str(c) for c in g.reshuffle(iter(pile[::-1]))] == pile[::-1]
