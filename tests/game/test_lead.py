"""The next hand (docs/rules.md#turns-hints-and-closing, #scores-elimination-and-the-end-of-a-game): the lead passes to the next seat still in, eliminated
seats are skipped and rejoined ones take their place again; the deck is shuffled by
the game's own generator."""

from __future__ import annotations

from collections import Counter

from tests.oracles.tables import (
    CLOSER, DEAD42, DEAD53, DEAD69, cards, close_now, edited, play_order, stack,
    stacked_game, table_deck,
)


def test_lead_rotation_skips_eliminated_seats():
    g = stacked_game(4)
    g = edited(g, totals=[0, 2, 0, 0])  # seat 1 goes to 71
    close_now(g)
    assert g.in_game == (True, False, True, True)
    g.next_hand(stack([DEAD42, DEAD53, CLOSER], "12e", ["12b"]))
    assert g.lead == 2 and g.turn == 2
    assert g.held(1) == []
    assert sorted(g.held(2)) == sorted(cards(DEAD42))
    assert sorted(g.held(3)) == sorted(cards(DEAD53))
    assert sorted(g.held(0)) == sorted(cards(CLOSER))
    assert g.stock_size == 48 - 21 - 1
    order = []
    for _ in range(4):
        order.append(g.turn)
        g.discard(g.draw("stock"))
    assert order == [2, 3, 0, 2]


def test_lead_rotation_skips_eliminated_seats_and_wraps():
    g = stacked_game(5, lead=3)
    g = edited(g, totals=[30, 0, 0, 0, 2])  # seats 0 (72) and 4 (71) go out
    close_now(g)
    assert g.in_game == (False, True, True, True, False)
    leads = []
    for _ in range(4):
        nxt = [s for s in play_order(5, (g.lead + 1) % 5, g.in_game)][0]
        in_play = play_order(5, nxt, g.in_game)
        deck = table_deck(5, nxt, dict(zip(in_play, [CLOSER, DEAD69, DEAD42])), "12e", ["12b"],
                          in_game=g.in_game)
        g.next_hand(deck)
        leads.append(g.lead)
        order = []
        g2 = g.clone()
        for _ in range(3):
            order.append(g2.turn)
            g2.discard(g2.draw("stock"))
        assert order == play_order(5, g.lead, g.in_game)
        assert Counter(g.held(g.lead)) == Counter(cards(CLOSER))
        g = edited(g, totals=[80, 0, 0, 0, 80])
        close_now(g)
        assert g.phase == "summary"
    assert leads == [1, 2, 3, 1]


def test_eliminated_lead_passes_the_lead_to_the_next_player_in():
    g = stacked_game(4, lead=1)
    g = edited(g, totals=[0, 69, 2, 0])  # the lead (closer) goes to 71, and seat 2
    close_now(g)
    assert g.in_game == (True, False, False, True)
    g.next_hand()
    assert g.lead == 3


def test_rejoined_player_takes_their_place_in_the_lead_rotation():
    base = stacked_game(4)
    base = edited(base, totals=[0, 2, 0, 0])  # seat 1 goes out
    close_now(base)
    g = base.clone()
    g.rejoin(1)
    g.next_hand(table_deck(4, 1, {1: CLOSER, 2: DEAD69, 3: DEAD42, 0: DEAD53}, "12e"))
    assert g.lead == 1 and g.turn == 1 and Counter(g.held(1)) == Counter(cards(CLOSER))
    g = base.clone()
    g.next_hand()
    assert g.lead == 2 and g.held(1) == []


def test_next_hand_shuffles_with_the_game_generator():
    a = stacked_game(seed=5)
    b = stacked_game(seed=5)
    for g in (a, b):
        close_now(g)
        g.next_hand()
    assert a.to_json() == b.to_json() and a.lead == 1
