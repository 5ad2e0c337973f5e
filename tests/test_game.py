"""Scenario tests of the game loop with stacked decks (SPEC §3, §5, §8)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import chinchon
from chinchon.cards import Card, full_deck, parse_cards
from chinchon.errors import IllegalAction
from chinchon.game import Game
from chinchon.rules import Rules


def stack(hands, up, stock=(), decks=1):
    """A deck order: ``hands`` (card text, in deal order: the lead first), the face-up
    card, then ``stock`` at the front of the stock; the other cards follow in ascending
    order."""
    head = [c for h in hands for c in parse_cards(h)] + parse_cards(up)
    head += [c for s in stock for c in parse_cards(s)]
    left = Counter(full_deck(decks))
    left.subtract(head)
    assert all(v >= 0 for v in left.values()), "a card used too often in the stacked deck"
    return head + sorted(left.elements(), key=lambda c: c.index)


def edited(game, **changes):
    """The same game with some stored fields replaced (to start a scenario at given
    totals or chips without playing the hands that led there)."""
    d = json.loads(game.to_json())
    d.update(changes)
    return Game.from_json(d)


def cards(text):
    return parse_cards(text)


def unchanged(game, call, *args, **kwargs):
    before = game.to_json()
    with pytest.raises(IllegalAction):
        call(*args, **kwargs)
    assert game.to_json() == before


# Hands for quick closes. CLOSER has deadwood 2 (2e) and its melds take no lay-off from
# the LOW/HIGH hands below (no 4o, 3c, 7c; nothing melds among them).
CLOSER = "1o 2o 3o 4c 5c 6c 2e"
HIGH = "12o 12c 11e 9b 10b 8e 7o"  # 69 points, no meld, no lay-off
LOW = "1c 3e 5b 7e 9c 11b 6o"  # 42 points, no meld, no lay-off
OTHER = "10o 10c 8b 1b 4e 9e 11c"  # 53 points, no meld, no lay-off


def close_first_turn(game):
    """The lead draws the stock top and closes throwing it away."""
    card = game.draw("stock")
    return game.discard(card, close=True)


# ---------------------------------------------------------------- construction


def test_players_as_count_or_names():
    g = Game(3, seed=1)
    assert g.players == 3 and g.names == ("Player 1", "Player 2", "Player 3")
    g = Game(["Ana", "Luis", "Eva", "Sol", "Ruy"], seed=1)
    assert g.players == 5 and g.decks == 2 and g.names[0] == "Ana"
    assert g.stock_size == 96 - 35 - 1
    for bad in (2, 7, "abc", ["a", "b"], True):
        with pytest.raises(IllegalAction):
            Game(bad)


def test_deck_is_validated():
    deck = stack([CLOSER, HIGH, LOW], "12e")
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
    deck = stack([CLOSER, HIGH, LOW, OTHER], "12e", ["9o", "8o"])
    g = Game(4, deck=deck, lead=2)  # play order 2, 3, 0, 1
    assert g.lead == 2 and g.turn == 2 and g.phase == "draw"
    assert sorted(g.held(2)) == sorted(cards(CLOSER))
    assert sorted(g.held(3)) == sorted(cards(HIGH))
    assert sorted(g.held(0)) == sorted(cards(LOW))
    assert sorted(g.held(1)) == sorted(cards(OTHER))
    assert g.discard_top == Card("12e") and g.discard_size == 1
    assert g.stock_size == 48 - 28 - 1
    assert g.draw("stock") == Card("9o")  # the stock is drawn from the front
    assert len(g.held(2)) == 8 and all(len(g.held(s)) == 7 for s in (0, 1, 3))
    g.discard("9o")
    assert g.turn == 3 and g.discard_top == Card("9o")
    assert g.draw("discard") == Card("9o")
    assert g.discard_top == Card("12e")


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


# ---------------------------------------------------------------- closing


def test_close_normal_adds_hand_points():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0)
    hand = close_first_turn(g)
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
    g = Game(4, deck=stack([CLOSER, HIGH, LOW, OTHER], "12e", ["12b"]), lead=2)
    hand = close_first_turn(g)
    assert hand.order == (2, 3, 0, 1)
    assert seen == [[sorted(cards_str(HIGH)), sorted(cards_str(LOW)), sorted(cards_str(OTHER))]]
    assert g.totals == (42, 53, 2, 69)


def cards_str(text):
    return [str(c) for c in cards(text)]


def test_close_over_the_limit_is_refused_and_changes_nothing():
    g = Game(3, deck=stack(["1o 2o 3o 4c 5c 6c 9e", HIGH, LOW], "12e", ["12b"]), lead=0)
    g.draw("stock")
    unchanged(g, g.discard, "12b", close=True)  # deadwood 9 > 5
    assert not any(a[2] for a in g.legal_actions())
    g.discard("12b")
    assert g.phase == "draw" and g.turn == 1


def test_close_on_the_first_turn_at_the_limit():
    g = Game(3, deck=stack(["1o 2o 3o 4c 5c 6c 5e", HIGH, LOW], "12e", ["12b"]), lead=0)
    g.draw("stock")
    assert ("discard", Card("12b"), True) in g.legal_actions()
    assert g.discard("12b", close=True).points[0] == 5


def test_minus_ten():
    g = Game(3, deck=stack(["1b 2b 3b 4b 5o 5c 5e", HIGH, LOW], "12e", ["12b"]), lead=0)
    hand = close_first_turn(g)
    assert hand.outcome == "minus_ten"
    assert g.totals[0] == -10 and g.phase == "summary"


def test_chinchon_wins_on_the_spot():
    g = Game(3, deck=stack(["2c 3c 4c 5c 6c 7c 8c", HIGH, LOW], "12e", ["12b"]), lead=0)
    hand = close_first_turn(g)
    assert hand.outcome == "chinchon"
    assert g.result.status == "won" and g.result.winner == 0
    assert g.phase == "over" and g.totals == (0, 0, 0) and g.turn is None
    assert g.legal_actions() == []
    unchanged(g, g.next_hand)


def test_hints_are_the_solvers():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0)
    with pytest.raises(IllegalAction):
        g.hints()
    g.draw("stock")
    hints = g.hints()
    assert hints == chinchon.discard_hints(sorted(cards(CLOSER + " 12b")))
    assert [h.card for h in hints] == sorted(g.held(0))


# ---------------------------------------------------------------- elimination and the end


def test_exactly_seventy_stays_in():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0)
    g = edited(g, totals=[0, 1, 29])  # seat 1 reaches 70, seat 2 reaches 71
    close_first_turn(g)
    assert g.totals == (2, 70, 71)
    assert g.in_game == (True, True, False)
    assert g.last_hand.eliminated == (2,)
    assert g.phase == "summary"


def test_one_player_left_wins():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0)
    g = edited(g, totals=[0, 2, 29])
    close_first_turn(g)
    assert g.in_game == (True, False, False)
    assert g.result.status == "won" and g.result.winner == 0 and g.phase == "over"
    unchanged(g, g.rejoin, 1)  # one player left: the game is over, no rejoin


def test_all_over_seventy_at_once_is_a_draw():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0)
    g = edited(g, totals=[69, 2, 29])
    close_first_turn(g)
    assert g.in_game == (False, False, False)
    assert g.result.status == "draw" and g.result.winner is None and g.phase == "over"


def test_rejoin_at_the_highest_total_and_chips_run_out():
    rules = Rules(rejoin_chips=1)
    deck = stack([CLOSER, HIGH, LOW, OTHER], "12e", ["12b"])
    g = Game(4, deck=deck, lead=0, rules=rules)
    g = edited(g, totals=[0, 0, 29, 0])
    close_first_turn(g)  # seat 2: 29 + 42 = 71, out
    assert g.totals == (2, 69, 71, 53) and g.in_game == (True, True, False, True)
    assert ("rejoin", 2) in g.legal_actions()
    unchanged(g, g.rejoin, 1)  # still in
    assert g.rejoin(2) == 69
    assert g.totals[2] == 69 and g.chips == (1, 1, 0, 1) and g.in_game[2]
    unchanged(g, g.rejoin, 2)
    # next hand, led by seat 1: seat 2 goes out again, for good
    g.next_hand(stack([CLOSER, OTHER, HIGH, LOW], "12e", ["12b"]))
    assert g.lead == 1
    g = edited(g, totals=[0, 0, 69, 0])
    close_first_turn(g)
    assert not g.in_game[2] and g.chips[2] == 0
    assert ("rejoin", 2) not in g.legal_actions()
    with pytest.raises(IllegalAction, match="no rejoin chips"):
        g.rejoin(2)


def test_lead_rotation_skips_eliminated_seats():
    deck = stack([CLOSER, HIGH, LOW, OTHER], "12e", ["12b"])
    g = Game(4, deck=deck, lead=0)
    g = edited(g, totals=[0, 2, 0, 0])  # seat 1 goes to 71
    close_first_turn(g)
    assert g.in_game == (True, False, True, True)
    g.next_hand(stack([LOW, OTHER, CLOSER], "12e", ["12b"]))
    assert g.lead == 2 and g.turn == 2
    assert g.held(1) == []
    assert sorted(g.held(2)) == sorted(cards(LOW))
    assert sorted(g.held(3)) == sorted(cards(OTHER))
    assert sorted(g.held(0)) == sorted(cards(CLOSER))
    assert g.stock_size == 48 - 21 - 1
    order = []
    for _ in range(4):
        order.append(g.turn)
        g.discard(g.draw("stock"))
    assert order == [2, 3, 0, 2]


def test_next_hand_shuffles_with_the_game_generator():
    a = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0, seed=5)
    b = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0, seed=5)
    for g in (a, b):
        close_first_turn(g)
        g.next_hand()
    assert a.to_json() == b.to_json() and a.lead == 1


# ---------------------------------------------------------------- stock and reshuffle


def test_reshuffle_when_the_stock_is_empty():
    g = Game(4, deck=stack([OTHER, HIGH, LOW, CLOSER], "12e"), lead=0,
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
    g = Game(4, deck=stack([OTHER, HIGH, LOW, CLOSER], "12e"), lead=0)
    while g.stock_size:
        g.discard(g.draw("stock"))
    top = g.discard_top
    assert g.draw("discard") == top and g.stock_size == 0


# ---------------------------------------------------------------- connection


def test_reconnect_at_59_seconds_resumes():
    g = Game(3, seed=2, lead=0)
    g.disconnect(0, 100)
    assert g.disconnected == {0: 100}
    unchanged(g, g.draw, "stock")  # the table waits for seat 0
    assert g.legal_actions() == []
    g.tick(159)
    assert g.result is None
    assert g.reconnect(0, 159) is True
    assert g.disconnected == {} and g.result is None
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
    unchanged(g, g.reconnect, 1, 161)


def test_timeout_at_60_seconds_cancels_by_reconnect():
    g = Game(3, seed=2, lead=0)
    g.disconnect(2, 10)
    assert g.reconnect(2, 70) is False
    assert g.result.status == "cancelled" and g.totals == (0, 0, 0)


def test_connection_errors_change_nothing():
    g = Game(3, seed=2, lead=0)
    unchanged(g, g.reconnect, 1, 5)
    g.disconnect(1, 5)
    unchanged(g, g.disconnect, 1, 6)
    unchanged(g, g.reconnect, 1, 4)
    unchanged(g, g.disconnect, 9, 6)
    unchanged(g, g.tick, "soon")


# ---------------------------------------------------------------- illegal actions


def test_illegal_actions_leave_the_game_unchanged():
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0, seed=1)
    unchanged(g, g.discard, "1o")  # must draw first
    unchanged(g, g.draw, "deck")
    unchanged(g, g.rejoin, 1)
    unchanged(g, g.next_hand)
    unchanged(g, g.apply, ("fold",))
    g.draw("stock")
    unchanged(g, g.draw, "stock")
    unchanged(g, g.discard, "12c")  # not held
    unchanged(g, g.discard, "zz")
    unchanged(g, g.discard, "12b", close="yes")
    hand = g.discard("12b", close=True)
    assert hand is not None
    unchanged(g, g.next_hand, ["1o"] * 48)
    unchanged(g, g.draw, "stock")


def test_apply_and_legal_actions_agree():
    g = Game(3, seed=4)
    assert g.legal_actions() == [("draw", "stock"), ("draw", "discard")]
    card = g.apply(("draw", "stock"))
    acts = g.legal_actions()
    assert {a[1] for a in acts} == set(g.held(g.turn))
    g.apply(("discard", card, False))
    assert g.phase == "draw"


# ---------------------------------------------------------------- record and restore


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
    g = Game(3, deck=stack([CLOSER, HIGH, LOW], "12e", ["12b"]), lead=0, seed=8)
    close_first_turn(g)
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


def test_observation_shows_only_what_the_seat_sees():
    g = Game(4, deck=stack([CLOSER, HIGH, LOW, OTHER], "12e", ["12b"]), lead=0)
    obs = g.observation(1)
    assert set(obs) == set(chinchon.game.OBSERVATION_KEYS)
    assert sorted(obs["hand"]) == sorted(cards_str(HIGH))
    text = json.dumps(obs)
    for seat in (0, 2, 3):
        for c in g.held(seat):
            assert f'"{c}"' not in text
    assert obs["discard_top"] == "12e" and obs["stock_size"] == 19
    close_first_turn(g)
    obs = g.observation(1)
    assert obs["phase"] == "summary" and obs["last_hand"]["closer"] == 0
    assert "12b" not in json.dumps(obs)  # the closing card stays face down
