"""Rejoining after an elimination (docs/rules.md#scores-elimination-and-the-end-of-a-game): at the highest total of the players
still in, one chip each time, only in the summary, and the refusals that can happen."""

from __future__ import annotations

import pytest

from chinchon.errors import IllegalAction
from chinchon.rules import Rules
from tests.oracles.tables import (
    CLOSER, DEAD42, DEAD53, DEAD69, close_now, edited, five_player_eliminations,
    play_order, refused, stack, stacked_game, table_deck,
)


def test_rejoin_at_the_highest_total_and_chips_run_out():
    rules = Rules(rejoin_chips=1)
    g = stacked_game(4, rules=rules)
    g = edited(g, totals=[0, 0, 29, 0])
    close_now(g)  # seat 2: 29 + 42 = 71, out
    assert g.totals == (2, 69, 71, 53) and g.in_game == (True, True, False, True)
    assert ("rejoin", 2) in g.legal_actions()
    refused(g, g.rejoin, 1)  # still in
    assert g.rejoin(2) == 69
    assert g.totals[2] == 69 and g.chips == (1, 1, 0, 1) and g.in_game[2]
    refused(g, g.rejoin, 2)
    # next hand, led by seat 1: seat 2 goes out again, for good
    g.next_hand(stack([CLOSER, DEAD53, DEAD69, DEAD42], "12e", ["12b"]))
    assert g.lead == 1
    g = edited(g, totals=[0, 0, 69, 0])
    close_now(g)
    assert not g.in_game[2] and g.chips[2] == 0
    assert ("rejoin", 2) not in g.legal_actions()
    with pytest.raises(IllegalAction, match="no rejoin chips"):
        g.rejoin(2)


def test_rejoin_at_the_highest_total_of_those_still_in():
    g = five_player_eliminations()
    acts = g.legal_actions()
    assert [a for a in acts if a[0] == "rejoin"] == [("rejoin", 2), ("rejoin", 3),
                                                     ("rejoin", 4)]
    assert g.rejoin(3) == 69  # not 79 or 73: only players still in count
    assert g.totals == (2, 69, 71, 69, 79) and g.chips == (2, 2, 2, 1, 2)
    refused(g, g.rejoin, 3)  # back in: cannot rejoin again
    refused(g, g.rejoin, 0)
    assert g.rejoin(4) == 69
    assert g.totals[4] == 69 and g.in_game == (True, True, False, True, True)
    g = edited(g, chips=[2, 2, 0, 1, 1])
    err = refused(g, g.rejoin, 2)
    assert "chip" in str(err)
    assert ("rejoin", 2) not in g.legal_actions()


def test_rejoin_after_a_minus_ten_uses_the_highest_not_the_lowest():
    g = stacked_game(closer="1b 2b 3b 4b 5o 5c 5e")
    g = edited(g, totals=[5, 0, 30])
    close_now(g)
    assert g.totals == (-5, 69, 72)
    assert g.rejoin(2) == 69


def test_rejoin_refusals_that_can_happen():
    g = five_player_eliminations()
    g.disconnect(2, 0)
    refused(g, g.rejoin, 2)  # disconnected
    assert ("rejoin", 2) not in g.legal_actions()
    refused(g, g.rejoin, 9)
    refused(g, g.rejoin, "2")
    refused(g, g.rejoin, True)
    refused(g, g.rejoin, 2.0)
    g.reconnect(2, 1)
    g.rejoin(2)
    g.next_hand()
    refused(g, g.rejoin, 3)  # wrong phase: only in the summary
    # one player left: the game is won, no rejoin (the "fewer than two in" state of a
    # summary cannot be reached; the won game refuses instead)
    g = stacked_game()
    g = edited(g, totals=[0, 2, 29])
    close_now(g)
    assert g.result.status == "won" and g.chips == (2, 2, 2)
    refused(g, g.rejoin, 1)
    # the guard itself, on a hand-made summary with one player in (set in place: such a
    # state cannot be reached, and from_json refuses it)
    forged = five_player_eliminations()
    forged._state._in = [True] + [False] * 4
    assert "two players" in str(refused(forged, forged.rejoin, 2))


def test_chips_run_out_after_two_rejoins():
    g = stacked_game()
    for k in range(3):
        if k:
            nxt = play_order(3, (g.lead + 1) % 3, g.in_game)[0]
            hands = dict(zip(play_order(3, nxt), [CLOSER, DEAD69, DEAD42]))
            g.next_hand(table_deck(3, nxt, hands, "12e", ["12b"]))
        assert g.lead == k
        g = edited(g, totals=[0, 0, 70])  # seat 2 scores 2, 69 or 42: out every time
        close_now(g)
        assert g.in_game == (True, True, False)
        if k < 2:
            assert g.rejoin(2) == max(g.totals[:2])
            assert g.chips == (2, 2, 1 - k)
        else:
            assert g.chips == (2, 2, 0)
            assert "no rejoin chips" in str(refused(g, g.rejoin, 2))
            assert g.legal_actions() == [("next_hand",)]
