"""Disconnections and the reconnect clock (docs/rules.md#scores-elimination-and-the-end-of-a-game): the table waits for a
disconnected seat, a reconnection before the deadline resumes, the deadline cancels
the game; bad connection events change nothing."""

from __future__ import annotations

import json

import pytest

from chinchon.errors import IllegalAction
from chinchon.game import Game
from tests.oracles.tables import five_player_eliminations, fresh, refused


def test_reconnect_at_59_seconds_resumes():
    g = Game(3, seed=2, lead=0)
    g.disconnect(0, 100)
    assert g.disconnected == {0: 100}
    refused(g, g.draw, "stock")  # the table waits for seat 0
    assert g.legal_actions() == []
    g.tick(159)
    assert g.result is None
    assert g.reconnect(0, 159) is True
    assert g.disconnected == {} and g.result is None
    g.draw("stock")


def test_reconnect_just_before_sixty_seconds_resumes():
    g = fresh()
    g.disconnect(0, 1000)
    g.tick(1059.999)
    assert g.result is None
    assert g.reconnect(0, 1059.999) is True
    assert g.disconnected == {} and g.turn == 0
    g.draw("stock")


def test_timeout_at_60_seconds_cancels_by_tick():
    g = Game(3, seed=2, lead=0)
    before = g.totals
    g.disconnect(1, 100.0)
    g.discard(g.draw("stock"))  # seat 0 may still play
    g.tick(159.999)
    assert g.result is None
    g.tick(160)
    assert g.result.status == "cancelled" and g.result.winner is None
    assert g.phase == "over" and g.totals == before
    refused(g, g.reconnect, 1, 161)


def test_timeout_at_60_seconds_cancels_by_reconnect():
    g = Game(3, seed=2, lead=0)
    g.disconnect(2, 10)
    assert g.reconnect(2, 70) is False
    assert g.result.status == "cancelled" and g.totals == (0, 0, 0)


def test_reconnect_at_sixty_seconds_is_too_late():
    g = fresh()
    before = g.totals
    g.disconnect(0, 1000)
    assert g.reconnect(0, 1060) is False
    assert g.result.status == "cancelled" and g.result.winner is None
    assert g.phase == "over" and g.totals == before and g.turn is None
    assert g.legal_actions() == []
    refused(g, g.draw, "stock")
    refused(g, g.disconnect, 1, 2000)
    g.tick(5000)  # time passing after the end changes nothing
    assert g.result.status == "cancelled"
    assert Game.replay(g.log).to_json() == g.to_json()


def test_tick_at_sixty_seconds_cancels_with_fractional_times():
    for t0 in (0.1, 100.7, 12345.678, 1e9 + 0.3):
        g = fresh()
        g.disconnect(1, t0)
        g.tick(t0 + 59.999)
        assert g.result is None
        g.tick(t0 + 60)
        assert g.result is not None and g.result.status == "cancelled"


def test_two_seats_disconnected_each_with_its_own_deadline():
    g = fresh()
    g.disconnect(1, 10)
    g.disconnect(2, 30)
    assert g.disconnected == {1: 10, 2: 30}
    g.discard(g.draw("stock"))  # seat 0 still plays
    assert g.turn == 1 and g.legal_actions() == []
    refused(g, g.draw, "stock")
    g.tick(69.999)
    assert g.reconnect(1, 69.999) is True
    g.discard(g.draw("stock"))
    assert g.turn == 2 and g.legal_actions() == []
    g.tick(89.999)
    assert g.result is None
    g.tick(90)
    assert g.result.status == "cancelled"
    assert Game.replay(g.log).to_json() == g.to_json()


def test_a_seat_back_in_time_cannot_save_a_table_whose_other_seat_timed_out():
    g = fresh()
    g.disconnect(1, 10)
    g.disconnect(2, 30)
    assert g.reconnect(2, 75) is False  # seat 1's wait ended at 70
    assert g.result.status == "cancelled"
    assert Game.replay(g.log).to_json() == g.to_json()


def test_disconnect_after_another_deadline_cancels_instead():
    g = fresh()
    g.disconnect(1, 10)
    g.disconnect(0, 70)
    assert g.result.status == "cancelled" and 0 not in g.disconnected
    assert Game.replay(g.log).to_json() == g.to_json()


def test_disconnected_seat_cannot_discard_after_drawing():
    g = fresh()
    g.draw("stock")
    g.disconnect(0, 5)
    held = g.held(0)
    refused(g, g.discard, held[0])
    assert g.legal_actions() == []
    assert len(g.hints()) == 8  # looking is not a move
    g.reconnect(0, 6)
    g.discard(held[0])
    assert g.turn == 1


def test_connection_errors_change_nothing():
    g = Game(3, seed=2, lead=0)
    refused(g, g.reconnect, 1, 5)
    g.disconnect(1, 5)
    refused(g, g.disconnect, 1, 6)
    refused(g, g.reconnect, 1, 4)
    refused(g, g.disconnect, 9, 6)
    refused(g, g.tick, "soon")


def test_connection_events_with_bad_arguments_change_nothing():
    g = fresh()
    for args in [(0, "1"), (0, None), (0, float("nan")), ("0", 1), (3, 1), (-1, 1),
                 (True, 1), (0, float("inf")), (0, float("-inf"))]:
        refused(g, g.disconnect, *args)
    refused(g, g.reconnect, 0, 1)  # not disconnected
    g.disconnect(0, 100)
    refused(g, g.reconnect, 0, 99)  # before its own disconnection
    refused(g, g.disconnect, 0, 101)  # already disconnected
    refused(g, g.tick, "later")
    refused(g, g.tick, float("inf"))
    json.loads(g.to_json(), parse_constant=lambda x: pytest.fail(f"non-JSON {x}"))


def test_disconnected_eliminated_seat_in_the_summary():
    g = five_player_eliminations()
    g.disconnect(4, 0)
    assert ("next_hand",) in g.legal_actions()
    g.next_hand()  # the host may go on
    assert g.reconnect(4, 59) is True


def test_an_eliminated_seat_never_cancels_the_game():
    """Only a seat still in the game has a seat and cards to keep (docs/rules.md#scores-elimination-and-the-end-of-a-game)."""
    g = Game(3, seed=11, lead=0)
    state = json.loads(g.to_json())
    state["in_game"] = [True, True, False]
    state["totals"][2] = 71  # over the house rules' 70
    state["stock"] += state["hands"][2]  # an eliminated seat holds no cards
    state["hands"][2] = []
    g = Game.from_json(json.dumps(state))
    g.disconnect(2, 0.0)
    g.tick(10_000.0)
    assert g.result is None and g.phase != "over"
    g.disconnect(1, 20_000.0)
    g.tick(20_060.0)
    assert g.result is not None and g.result.status == "cancelled"


def test_a_refused_connection_call_changes_nothing_deadlines_included():
    """docs/rules.md: tick, disconnect and reconnect apply a deadline already past, but a
    call refused (a seat already away, one not away) leaves the game as it was."""
    g = Game(3, seed=1, lead=0)
    g.disconnect(0, 0.0)
    before = g.to_json()
    for call in (lambda: g.reconnect(1, 100.0), lambda: g.disconnect(0, 100.0)):
        with pytest.raises(IllegalAction):
            call()
        assert g.to_json() == before and g.result is None
    g.tick(100.0)  # the deadline (60 s) applied by the next call that is not refused
    assert g.result is not None and g.result.status == "cancelled"
