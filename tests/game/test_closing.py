"""Closing a hand (docs/rules.md#turns-hints-and-closing, #laying-off): who may close and with which card, the outcomes
(normal, minus ten, chinchón) and the settlement the game asks for, in play order."""

from __future__ import annotations

import json

import pytest

import chinchon
from chinchon import IllegalAction, reference
from chinchon.cards import Card
from chinchon.game import Game
from tests.oracles.tables import (
    CLOSER, DEAD42, DEAD52, DEAD53, DEAD69, cards, close_now, expected_points, refused,
    stacked_game, strs, table_deck,
)


def test_close_normal_adds_hand_points():
    g = stacked_game()
    hand = close_now(g)
    assert hand.outcome == "normal" and hand.closer == 0 and hand.order == (0, 1, 2)
    assert hand.points == (2, 69, 42)
    assert g.totals == (2, 69, 42)
    assert g.phase == "summary" and g.turn is None and g.result is None
    assert g.in_game == (True, True, True)
    # the closing card went face down: not on the discard pile
    assert g.discard_top == Card("12e")


def test_settle_gets_the_opponents_in_play_order(monkeypatch):
    seen = []
    real = chinchon._backend.settle

    def spy(closer7, opponents, *, decks, rules):
        seen.append([sorted(str(c) for c in o) for o in opponents])
        return real(closer7, opponents, decks=decks, rules=rules)

    monkeypatch.setattr(chinchon._backend, "settle", spy)
    g = stacked_game(4, lead=2)
    hand = close_now(g)
    assert hand.order == (2, 3, 0, 1)
    assert seen == [[sorted(strs(cards(h))) for h in (DEAD69, DEAD42, DEAD53)]]
    assert g.totals == (42, 53, 2, 69)


def test_six_players_lead_wraps_and_settles_in_play_order():
    g = stacked_game(6, lead=5)
    assert g.stock_size == 96 - 42 - 1
    hand = close_now(g)
    assert hand.order == (5, 0, 1, 2, 3, 4)
    assert hand.outcome == "normal"
    want = expected_points(g, 5)
    assert hand.settlement.points == want == (2, 69, 42, 53, 69, 42)
    assert g.totals == (69, 42, 53, 69, 42, 2)
    assert g.phase == "summary"


def test_second_player_closes_on_their_first_turn():
    g = Game(3, deck=table_deck(3, 1, {1: DEAD69, 2: CLOSER, 0: DEAD42}, "12e",
                                ["9o", "12b"]),
             lead=1)
    g.discard(g.draw("stock"))  # seat 1 throws 9o
    assert g.turn == 2
    hand = close_now(g)  # seat 2 draws 12b and closes
    assert hand.closer == 2 and hand.order == (2, 0, 1)
    assert hand.points == (42, 69, 2)
    assert hand.settlement.points == expected_points(g, 2)


def test_close_throwing_the_card_just_taken_from_the_discard_pile():
    g = stacked_game(stock=())
    assert ("draw", "discard") in g.legal_actions()
    assert g.draw("discard") == Card("12e")
    assert g.discard_size == 0 and g.discard_top is None
    assert ("discard", Card("12e"), True) in g.legal_actions()
    hand = g.discard("12e", close=True)
    assert hand.outcome == "normal" and g.totals == (2, 69, 42)
    assert g.discard_top is None  # face down, not on the pile
    assert "12e" not in json.dumps(g.observation(1))


def test_close_keeping_the_card_taken_from_the_discard_pile():
    g = Game(3, deck=table_deck(3, 0, {0: "1o 2o 3o 4c 5c 2e 12b", 1: DEAD69, 2: DEAD42},
                                "6c"),
             lead=0)
    hints = {h.card: h for h in reference.discard_hints(cards("1o 2o 3o 4c 5c 2e 12b 6c"))}
    assert hints[Card("12b")].can_close
    g.draw("discard")
    refused(g, g.discard, "2e", close=True)  # keeps 12b: deadwood 12
    hand = g.discard("12b", close=True)
    assert hand.settlement.closer.points == 2 and g.totals[0] == 2


def test_close_with_the_discarded_card_taken_again_by_the_next_player():
    # a card thrown away may be taken by the next seat and used to close
    g = Game(3, deck=table_deck(3, 0, {0: DEAD69, 1: "1o 2o 3o 4c 5c 2e 12b", 2: DEAD42},
                                "9o",
                                ["6c"]), lead=0)
    assert g.draw("stock") == Card("6c")
    g.discard("6c")
    assert g.draw("discard") == Card("6c")
    assert g.discard_top == Card("9o")
    g.discard("12b", close=True)
    assert g.totals == (69, 2, 42)


def test_close_over_the_limit_is_refused_and_changes_nothing():
    g = stacked_game(closer="1o 2o 3o 4c 5c 6c 9e")
    g.draw("stock")
    refused(g, g.discard, "12b", close=True)  # deadwood 9 > 5
    assert not any(a[2] for a in g.legal_actions())
    g.discard("12b")
    assert g.phase == "draw" and g.turn == 1


def test_a_close_before_the_draw_is_refused_as_a_close():
    """The refusal names the action asked for: a close, not a discard."""
    g = stacked_game(closer="1o 2o 3o 4c 5c 6c 5e")
    card = g.held(0)[0]
    with pytest.raises(IllegalAction, match=r"^cannot close in the 'draw' phase"):
        g.discard(card, close=True)
    with pytest.raises(IllegalAction, match=r"^cannot discard in the 'draw' phase"):
        g.discard(card)
    g.draw("stock")
    with pytest.raises(IllegalAction, match=r"^cannot close: .*'zz'"):
        g.discard("zz", close=True)
    refused(g, g.discard, "zz", close=True)


def test_close_over_the_limit_on_the_first_turn_is_refused_for_every_card():
    g = Game(4, deck=table_deck(4, 0, {0: "1o 2o 3o 4c 5c 6c 6e", 1: DEAD69, 2: DEAD42,
                                       3: DEAD53},
                                "12e", ["12b"]), lead=0)
    g.draw("stock")
    for c in set(g.held(0)):
        refused(g, g.discard, c, close=True)  # 6 points at best
    assert not any(a[2] for a in g.legal_actions())


def test_close_on_the_first_turn_at_the_limit():
    g = stacked_game(closer="1o 2o 3o 4c 5c 6c 5e")
    g.draw("stock")
    assert ("discard", Card("12b"), True) in g.legal_actions()
    assert g.discard("12b", close=True).points[0] == 5


def test_minus_ten():
    g = stacked_game(closer="1b 2b 3b 4b 5o 5c 5e")
    hand = close_now(g)
    assert hand.outcome == "minus_ten"
    assert g.totals[0] == -10 and g.phase == "summary"


def test_minus_ten_closer_takes_no_lay_off_but_opponents_melds_do():
    closer = "1b 2b 3b 4b 5o 5c 5e"  # 5b would fit the run and the set
    opp1 = "7c 8c 9c 5b 12o 12c 11e"  # own run 7c-9c; 5b stays: 40
    opp2 = "10c 3e 7b 7e 6o 11b 9e"  # 10c goes on opp1's run: 53 - 10
    g = Game(3, deck=table_deck(3, 0, {0: closer, 1: opp1, 2: opp2}, "12e", ["12b"]),
             lead=0)
    hand = close_now(g)
    s = hand.settlement
    assert s.outcome == "minus_ten"
    assert s.opponents[0].layoffs == () and s.opponents[0].points == 40
    assert s.opponents[1].layoffs == ((Card("10c"), 2),) and s.opponents[1].points == 43
    assert [t.open for t in s.table[:2]] == [False, False]
    assert s.points == expected_points(g, 0) == (-10, 40, 43)
    assert g.totals == (-10, 40, 43)


def test_two_deck_seven_card_set_is_minus_ten():
    deal = {0: "5o 5o 5c 5c 5e 5e 5b", 1: DEAD69, 2: DEAD42, 3: DEAD53, 4: DEAD69}
    g = Game(5, deck=table_deck(5, 0, deal, "12e", ["12b"]), lead=0)
    hand = close_now(g)
    assert hand.outcome == "minus_ten" and g.totals == (-10, 69, 42, 53, 69)


def test_chinchon_wins_on_the_spot():
    g = stacked_game(closer="2c 3c 4c 5c 6c 7c 8c")
    hand = close_now(g)
    assert hand.outcome == "chinchon"
    assert g.result.status == "won" and g.result.winner == 0
    assert g.phase == "over" and g.totals == (0, 0, 0) and g.turn is None
    assert g.legal_actions() == []
    refused(g, g.next_hand)


def test_two_deck_chinchon_needs_seven_distinct_cards():
    deal = {0: "3e 4e 5e 5e 6e 7e 8e", 1: DEAD69, 2: DEAD42, 3: DEAD53, 4: DEAD52}
    deck = table_deck(5, 0, deal, "12e", ["9e"])
    h = {(x.card, x.outcome) for x in reference.discard_hints(cards(deal[0] + " 9e"),
                                                               decks=2)}
    assert (Card("5e"), "chinchon") in h and (Card("9e"), "minus_ten") in h
    # keeping the copy of 5e: 3e-4e-5e and 5e-6e-7e-8e, minus ten, not chinchon
    g = Game(5, deck=deck, lead=0)
    g.draw("stock")
    assert [x.outcome for x in g.hints() if x.card == Card("9e")] == ["minus_ten"]
    hand = g.discard("9e", close=True)
    assert hand.outcome == "minus_ten" and g.result is None
    assert g.totals[0] == -10 and g.phase == "summary"
    # throwing the copy leaves the seven-card run 3e-9e: chinchon
    g = Game(5, deck=deck, lead=0)
    g.draw("stock")
    hand = g.discard("5e", close=True)
    assert hand.outcome == "chinchon"
    assert g.result.status == "won" and g.result.winner == 0 and g.phase == "over"
    assert g.totals == (0,) * 5 and hand.points == (0,) * 5
    refused(g, g.next_hand)
    refused(g, g.rejoin, 1)


def test_two_deck_lay_offs_of_copies_onto_sets_but_not_runs():
    deal = {0: "5o 5c 5e 1b 2b 3b 2e",  # deadwood 2
            1: "5o 4b 12o 12c 11e 8e 7o",  # the copy 5o on the fives, 4b on the run: 50
            2: "3b 10o 10c 8b 1c 9e 11c",  # a copy of 3b never joins the run: 52
            3: DEAD42,  # 5b on the fives: 42 - 5
            4: DEAD52}  # its 4b is a copy of the run's 4b: 52
    g = Game(5, deck=table_deck(5, 0, deal, "11e", ["12e"]), lead=0)
    hand = close_now(g)
    s = hand.settlement
    assert s.points == (2, 50, 52, 37, 52)
    assert s.points == expected_points(g, 0)
    assert sorted(str(c) for c, _ in s.opponents[0].layoffs) == ["4b", "5o"]
    assert s.opponents[1].layoffs == () and s.opponents[3].layoffs == ()
    assert [str(c) for c, _ in s.opponents[2].layoffs] == ["5b"]
    assert g.totals == (2, 50, 52, 37, 52)
