"""Adversarial review of the game loop against SPEC §3, §5, §8 and the Game issue.

Every scenario is dealt from a stacked deck (48 or 96 cards): the first 7 cards go to
the lead, the next 7 to the next seat in play order, ..., the next card starts the
discard pile, the rest is the stock, drawn from the front. Expected hand points come
from ``chinchon.reference.settle`` (the pure-Python oracle), never from the game.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from chinchon import reference
from chinchon.bots import GreedyBot, RandomBot, play_turn
from chinchon.cards import Card, full_deck, parse_cards
from chinchon.errors import IllegalAction
from chinchon.game import Game
from chinchon.rules import Rules

# Hands with known points that neither meld nor take a lay-off from one another or from
# CLOSER's melds (1o 2o 3o and 4c 5c 6c: no 4o, 3c or 7c below). With two decks a copy
# of B or C may be dealt to a second seat.
CLOSER = "1o 2o 3o 4c 5c 6c 2e"  # deadwood 2
B = "12o 12c 11e 9b 10b 8e 7o"  # 69
C = "1c 3e 5b 7e 9c 11b 6o"  # 42
D = "10o 10c 8b 1b 4e 9e 11c"  # 53
E = "12b 11o 9o 2c 4b 6b 8c"  # 52


def cards(text):
    return parse_cards(text)


def strs(cs):
    return [str(c) for c in cs]


def play_order(n, lead, in_game=None):
    in_game = in_game or [True] * n
    return [s for s in ((lead + k) % n for k in range(n)) if in_game[s]]


def table_deck(n, lead, by_seat, up, stock=(), in_game=None):
    """The deck order that deals ``by_seat[s]`` (card text) to each seat in play, puts
    ``up`` face up and ``stock`` at the front of the stock; the other cards follow in
    ascending order."""
    decks = 2 if n >= 5 else 1
    order = play_order(n, lead, in_game)
    assert sorted(order) == sorted(by_seat), "give a hand for every seat in play"
    head = [c for s in order for c in cards(by_seat[s])] + cards(up)
    head += [c for s in stock for c in cards(s)]
    left = Counter(full_deck(decks))
    left.subtract(head)
    assert all(v >= 0 for v in left.values()), "a card used too often in the stacked deck"
    deck = head + sorted(left.elements(), key=lambda c: c.index)
    assert len(deck) == 48 * decks
    return deck


def edited(game, **changes):
    """The same game with stored fields replaced (a scenario starting at given totals)."""
    d = json.loads(game.to_json())
    d.update(changes)
    return Game.from_json(d)


def refused(game, call, *args, **kwargs):
    """``call`` raises IllegalAction (a ValueError) and leaves to_json byte-identical."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    assert str(info.value)  # says why
    assert game.to_json() == before
    return info.value


def oracle_points(game, closer):
    """The hand points the reference settlement gives, for the hand just closed, per seat
    in ``game.last_hand.order`` (closer first)."""
    order = game.last_hand.order
    assert order[0] == closer
    s = reference.settle(game.held(closer), [game.held(o) for o in order[1:]],
                         decks=game.decks)
    return s


def close_now(game, card=None, source="stock"):
    """The player to act draws and closes throwing ``card`` (default: the card drawn)."""
    drawn = game.draw(source)
    return game.discard(drawn if card is None else card, close=True)


# ---------------------------------------------------------------- dealing, two decks


def test_five_players_two_decks_deal_duplicates_in_play_order():
    by_seat = {3: "5o 5o 5c 1b 2b 3b 9e", 4: B, 0: C, 1: D, 2: B}
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
    assert Counter(g.held(4)) == Counter(cards(B + " 9o"))
    g.discard("9o")
    assert g.turn == 0 and g.draw("stock") == Card("12e")  # the second 12e
    g.discard("12e")
    assert g.discard_size == 4


def test_six_players_lead_wraps_and_settles_in_play_order():
    by_seat = {5: CLOSER, 0: B, 1: C, 2: D, 3: B, 4: C}
    deck = table_deck(6, 5, by_seat, "12e", ["12b"])
    g = Game(6, deck=deck, lead=5)
    assert g.stock_size == 96 - 42 - 1
    hand = close_now(g)
    assert hand.order == (5, 0, 1, 2, 3, 4)
    assert hand.outcome == "normal"
    want = oracle_points(g, 5).points
    assert hand.settlement.points == want == (2, 69, 42, 53, 69, 42)
    assert g.totals == (69, 42, 53, 69, 42, 2)
    assert g.phase == "summary"


def test_five_player_table_keeps_two_decks_after_eliminations():
    by_seat = {0: CLOSER, 1: B, 2: C, 3: D, 4: B}
    g = Game(5, deck=table_deck(5, 0, by_seat, "12e", ["12b"]), lead=0)
    g = edited(g, totals=[0, 2, 0, 0, 2])  # seats 1 and 4 go to 71
    close_now(g)
    assert g.in_game == (True, False, True, True, False)
    deck = table_deck(5, 2, {2: CLOSER, 3: B, 0: C}, "12e", ["12b"],
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


# ---------------------------------------------------------------- closing


def test_second_player_closes_on_their_first_turn():
    g = Game(3, deck=table_deck(3, 1, {1: B, 2: CLOSER, 0: C}, "12e", ["9o", "12b"]),
             lead=1)
    g.discard(g.draw("stock"))  # seat 1 throws 9o
    assert g.turn == 2
    hand = close_now(g)  # seat 2 draws 12b and closes
    assert hand.closer == 2 and hand.order == (2, 0, 1)
    assert hand.points == (42, 69, 2)
    assert hand.settlement.points == oracle_points(g, 2).points


def test_close_throwing_the_card_just_taken_from_the_discard_pile():
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e"), lead=0)
    assert ("draw", "discard") in g.legal_actions()
    assert g.draw("discard") == Card("12e")
    assert g.discard_size == 0 and g.discard_top is None
    assert ("discard", Card("12e"), True) in g.legal_actions()
    hand = g.discard("12e", close=True)
    assert hand.outcome == "normal" and g.totals == (2, 69, 42)
    assert g.discard_top is None  # face down, not on the pile
    assert "12e" not in json.dumps(g.observation(1))


def test_close_keeping_the_card_taken_from_the_discard_pile():
    g = Game(3, deck=table_deck(3, 0, {0: "1o 2o 3o 4c 5c 2e 12b", 1: B, 2: C}, "6c"),
             lead=0)
    hints = {h.card: h for h in reference.discard_hints(cards("1o 2o 3o 4c 5c 2e 12b 6c"))}
    assert hints[Card("12b")].can_close
    g.draw("discard")
    refused(g, g.discard, "2e", close=True)  # keeps 12b: deadwood 12
    hand = g.discard("12b", close=True)
    assert hand.settlement.closer.points == 2 and g.totals[0] == 2


def test_close_with_the_discarded_card_taken_again_by_the_next_player():
    # a card thrown away may be taken by the next seat and used to close
    g = Game(3, deck=table_deck(3, 0, {0: B, 1: "1o 2o 3o 4c 5c 2e 12b", 2: C}, "9o",
                                ["6c"]), lead=0)
    assert g.draw("stock") == Card("6c")
    g.discard("6c")
    assert g.draw("discard") == Card("6c")
    assert g.discard_top == Card("9o")
    g.discard("12b", close=True)
    assert g.totals == (69, 2, 42)


def test_two_deck_chinchon_needs_seven_distinct_cards():
    deal = {0: "3e 4e 5e 5e 6e 7e 8e", 1: B, 2: C, 3: D, 4: E}
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


def test_two_deck_seven_card_set_is_minus_ten():
    deal = {0: "5o 5o 5c 5c 5e 5e 5b", 1: B, 2: C, 3: D, 4: B}
    g = Game(5, deck=table_deck(5, 0, deal, "12e", ["12b"]), lead=0)
    hand = close_now(g)
    assert hand.outcome == "minus_ten" and g.totals == (-10, 69, 42, 53, 69)


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
    assert s.points == oracle_points(g, 0).points == (-10, 40, 43)
    assert g.totals == (-10, 40, 43)


def test_close_over_the_limit_on_the_first_turn_is_refused_for_every_card():
    g = Game(4, deck=table_deck(4, 0, {0: "1o 2o 3o 4c 5c 6c 6e", 1: B, 2: C, 3: D},
                                "12e", ["12b"]), lead=0)
    g.draw("stock")
    for c in set(g.held(0)):
        refused(g, g.discard, c, close=True)  # 6 points at best
    assert not any(a[2] for a in g.legal_actions())


# ---------------------------------------------------------------- end of the game


def test_every_player_eliminated_at_once_is_a_draw():
    g = Game(4, deck=table_deck(4, 0, {0: CLOSER, 1: B, 2: C, 3: D}, "12e", ["12b"]),
             lead=0)
    g = edited(g, totals=[70, 2, 29, 18])  # 72, 71, 71, 71
    close_now(g)
    assert g.in_game == (False,) * 4 and g.last_hand.eliminated == (0, 1, 2, 3)
    assert g.result.status == "draw" and g.result.winner is None and g.phase == "over"
    assert g.legal_actions() == []
    for s in range(4):
        refused(g, g.rejoin, s)


def test_closer_eliminated_and_one_opponent_left_wins():
    g = Game(4, deck=table_deck(4, 0, {0: CLOSER, 1: B, 2: C, 3: D}, "12e", ["12b"]),
             lead=0)
    g = edited(g, totals=[69, 2, 0, 18])  # 71, 71, 42, 71
    close_now(g)
    assert g.in_game == (False, False, True, False)
    assert g.result.status == "won" and g.result.winner == 2
    assert g.turn is None and g.phase == "over"
    refused(g, g.rejoin, 0)  # chips left, but the game is over


def test_exactly_seventy_after_minus_ten_and_negative_totals():
    g = Game(3, deck=table_deck(3, 0, {0: "1b 2b 3b 4b 5o 5c 5e", 1: B, 2: C}, "12e",
                                ["12b"]), lead=0)
    g = edited(g, totals=[-5, 1, 28])
    close_now(g)
    assert g.totals == (-15, 70, 70) and g.in_game == (True, True, True)
    assert g.phase == "summary"


# ---------------------------------------------------------------- rejoin


def five_player_eliminations():
    """A 5-seat game after a hand that put seats 2, 3, 4 out; 0 (2) and 1 (69) stay."""
    g = Game(5, deck=table_deck(5, 0, {0: CLOSER, 1: B, 2: C, 3: D, 4: B}, "12e",
                                ["12b"]), lead=0)
    g = edited(g, totals=[0, 0, 29, 20, 10])
    close_now(g)
    assert g.totals == (2, 69, 71, 73, 79)
    assert g.in_game == (True, True, False, False, False)
    assert g.last_hand.eliminated == (2, 3, 4)
    return g


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
    g = Game(3, deck=table_deck(3, 0, {0: "1b 2b 3b 4b 5o 5c 5e", 1: B, 2: C}, "12e",
                                ["12b"]), lead=0)
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
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0)
    g = edited(g, totals=[0, 2, 29])
    close_now(g)
    assert g.result.status == "won" and g.chips == (2, 2, 2)
    refused(g, g.rejoin, 1)
    # the guard itself, on a hand-made summary with one player in (set in place: such a
    # state cannot be reached, and from_json refuses it)
    forged = five_player_eliminations()
    forged._in = [True] + [False] * 4
    assert "two players" in str(refused(forged, forged.rejoin, 2))


def test_chips_run_out_after_two_rejoins():
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0)
    for k in range(3):
        if k:
            nxt = play_order(3, (g.lead + 1) % 3, g.in_game)[0]
            g.next_hand(table_deck(3, nxt, dict(zip(play_order(3, nxt), [CLOSER, B, C])),
                                   "12e", ["12b"]))
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


# ---------------------------------------------------------------- lead rotation


def test_lead_rotation_skips_eliminated_seats_and_wraps():
    g = Game(5, deck=table_deck(5, 3, {3: CLOSER, 4: B, 0: C, 1: D, 2: B}, "12e",
                                ["12b"]), lead=3)
    g = edited(g, totals=[30, 0, 0, 0, 2])  # seats 0 (72) and 4 (71) go out
    close_now(g)
    assert g.in_game == (False, True, True, True, False)
    leads = []
    for _ in range(4):
        nxt = [s for s in play_order(5, (g.lead + 1) % 5, g.in_game)][0]
        deck = table_deck(5, nxt, dict(zip(play_order(5, nxt, g.in_game), [CLOSER, B, C])),
                          "12e", ["12b"], in_game=g.in_game)
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
    g = Game(4, deck=table_deck(4, 1, {1: CLOSER, 2: B, 3: C, 0: D}, "12e", ["12b"]),
             lead=1)
    g = edited(g, totals=[0, 69, 2, 0])  # the lead (closer) goes to 71, and seat 2
    close_now(g)
    assert g.in_game == (True, False, False, True)
    g.next_hand()
    assert g.lead == 3


def test_rejoined_player_takes_their_place_in_the_lead_rotation():
    base = Game(4, deck=table_deck(4, 0, {0: CLOSER, 1: B, 2: C, 3: D}, "12e", ["12b"]),
                lead=0)
    base = edited(base, totals=[0, 2, 0, 0])  # seat 1 goes out
    close_now(base)
    g = base.clone()
    g.rejoin(1)
    g.next_hand(table_deck(4, 1, {1: CLOSER, 2: B, 3: C, 0: D}, "12e"))
    assert g.lead == 1 and g.turn == 1 and Counter(g.held(1)) == Counter(cards(CLOSER))
    g = base.clone()
    g.next_hand()
    assert g.lead == 2 and g.held(1) == []


# ---------------------------------------------------------------- stock and reshuffle


def run_down_the_stock(seed):
    g = Game(4, deck=table_deck(4, 0, {0: D, 1: B, 2: C, 3: CLOSER}, "12e"), lead=0,
             seed=seed)
    while g.stock_size:
        g.discard(g.draw("stock"))
    return g


def test_reshuffle_is_the_discard_pile_shuffled_by_the_seeded_generator():
    g = run_down_the_stock(seed=123)
    pile = [Card.parse(c) for c in json.loads(g.to_json())["discard"]]
    assert len(pile) == 20 and g.discard_size == 20
    # lead and deck were given: the generator is untouched until this reshuffle
    expected = list(pile)
    random.Random(123).shuffle(expected)
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
    rng = random.Random()
    v, internal, gauss = saved["rng"]
    rng.setstate((v, tuple(internal), gauss))
    rng.shuffle(expected)
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


# ---------------------------------------------------------------- connection and time


def fresh(seed=2, n=3, lead=0):
    return Game(n, seed=seed, lead=lead)


def test_reconnect_just_before_sixty_seconds_resumes():
    g = fresh()
    g.disconnect(0, 1000)
    g.tick(1059.999)
    assert g.result is None
    assert g.reconnect(0, 1059.999) is True
    assert g.disconnected == {} and g.turn == 0
    g.draw("stock")


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


# ---------------------------------------------------------------- illegal actions


BAD_CALLS = [
    ("draw", ("deck",)), ("draw", ("Stock",)), ("draw", ("",)), ("draw", (None,)),
    ("draw", (1,)), ("draw", (["stock"],)), ("draw", ({"stock": 1},)),
    ("discard", ("13o",)), ("discard", (None,)), ("discard", (7,)), ("discard", ("7o 8o",)),
    ("discard", ([],)), ("rejoin", (None,)), ("rejoin", (-1,)), ("rejoin", (6,)),
    ("rejoin", ("0",)), ("rejoin", (1.0,)), ("next_hand", ("zz",)), ("next_hand", (5,)),
    ("next_hand", (["1o"] * 48,)), ("apply", ((),)), ("apply", (("fold",),)),
    ("apply", (("draw",),)), ("apply", (("draw", "stock", "x"),)),
    ("apply", (("discard", "1o", True, 1),)), ("apply", (None,)), ("apply", (5,)),
    ("apply", ("draw",)), ("observation", (9,)), ("hand", (-1,)), ("held", ("0",)),
]


def every_bad_call(g):
    for name, args in BAD_CALLS:
        refused(g, getattr(g, name), *args)


def states_of_every_kind():
    """(label, game) in each phase: draw, discard, summary, won, draw game, cancelled."""
    out = []
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0)
    out.append(("draw", g.clone()))
    g.draw("stock")
    out.append(("discard", g.clone()))
    g.discard("12b", close=True)
    out.append(("summary", g.clone()))
    g = edited(g, totals=[2, 71, 42], in_game=[True, False, True])
    out.append(("summary-out", g.clone()))
    won = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0)
    won = edited(won, totals=[0, 2, 29])
    close_now(won)
    out.append(("won", won))
    drawn = edited(Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]),
                        lead=0), totals=[69, 2, 29])
    close_now(drawn)
    out.append(("draw-game", drawn))
    cancelled = fresh()
    cancelled.disconnect(1, 0)
    cancelled.tick(60)
    out.append(("cancelled", cancelled))
    return out


@pytest.mark.parametrize("label", ["draw", "discard", "summary", "summary-out", "won",
                                   "draw-game", "cancelled"])
def test_every_illegal_action_leaves_the_json_byte_identical(label):
    g = dict(states_of_every_kind())[label]
    every_bad_call(g)
    phase = g.phase
    if phase != "draw":
        refused(g, g.draw, "stock")
        refused(g, g.draw, "discard")
    if phase != "discard":
        refused(g, g.discard, "1o")
        refused(g, g.hints)
    if phase != "summary":
        refused(g, g.next_hand)
        for s in range(3):
            refused(g, g.rejoin, s)
    if phase == "discard":
        refused(g, g.discard, "12c")  # not held
        refused(g, g.discard, "2e", close=True)  # over the limit
        refused(g, g.discard, "12b", close=1)
        refused(g, g.discard, "12b", close="yes")
        refused(g, g.discard, "12b", close=None)
    if phase == "summary":
        for s in range(3):
            if g.in_game[s]:
                refused(g, g.rejoin, s)
        refused(g, g.next_hand, full_deck(1)[:-1])
    if phase == "over":
        for s in range(3):
            refused(g, g.disconnect, s, 10 ** 6)
            refused(g, g.reconnect, s, 10 ** 6)
        assert g.legal_actions() == []


def test_wrong_seat_cannot_act():
    # there is no seat argument to draw/discard: the seat is always the one to act. An
    # out-of-turn seat is modelled by its disconnection, or by a card it holds
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0)
    g.draw("stock")
    for c in cards(B):  # seat 1's cards are not seat 0's to throw
        refused(g, g.discard, c)


# ---------------------------------------------------------------- observation


def hidden_pool_shuffled(game, seat, rng):
    """The game with every card ``seat`` cannot see (other hands, the stock, the discard
    pile below its top) dealt out again at random, sizes kept."""
    d = json.loads(game.to_json())
    others = [s for s in range(game.players) if s != seat]
    pool = [c for s in others for c in d["hands"][s]] + d["stock"] + d["discard"][:-1]
    rng.shuffle(pool)
    pos = 0
    for s in others:
        k = len(d["hands"][s])
        d["hands"][s] = sorted(pool[pos:pos + k], key=lambda t: Card.parse(t).index)
        pos += k
    k = len(d["stock"])
    d["stock"] = pool[pos:pos + k]
    pos += k
    d["discard"] = pool[pos:] + d["discard"][-1:]
    return Game.from_json(d)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_observation_does_not_depend_on_hidden_cards(players):
    rng = random.Random(players)
    g = Game(players, seed=players * 7)
    bots = [GreedyBot(s) for s in range(players)]
    checked = 0
    for step in range(400):
        if g.result is not None:
            break
        if g.phase in ("draw", "discard") and step % 5 == 0:
            for seat in range(players):
                obs = g.observation(seat)
                twin = hidden_pool_shuffled(g, seat, rng)
                assert twin.observation(seat) == obs
                text = json.dumps(obs)
                for other in range(players):
                    if other == seat:
                        continue
                    for c in set(g.held(other)) - set(g.held(seat)) - {g.discard_top}:
                        assert f'"{c}"' not in text.replace(
                            json.dumps(obs["last_hand"]), "")
                checked += 1
        play_turn(g, bots)
    assert checked > 12


# ---------------------------------------------------------------- record and restore


def assert_restores(g):
    saved = g.to_json()
    assert Game.from_json(saved).to_json() == saved
    assert Game.from_json(json.loads(saved)).to_json() == saved
    assert Game.replay(g.log).to_json() == saved
    assert Game.replay(json.loads(json.dumps(g.log))).to_json() == saved
    assert g.clone().to_json() == saved


@pytest.mark.parametrize("label", ["draw", "discard", "summary", "summary-out", "won",
                                   "draw-game", "cancelled"])
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


# ---------------------------------------------------------------- legal actions


def candidate_actions(game):
    out = [("draw", "stock"), ("draw", "discard"), ("draw", "deck"), ("next_hand",)]
    out += [("rejoin", s) for s in range(game.players)]
    out += [("discard", c, close) for c in full_deck(1) for close in (False, True)]
    return out


def check_legal_actions(g):
    listed = g.legal_actions()
    assert len(set(listed)) == len(listed)
    for a in listed:
        twin = g.clone()
        twin.apply(a)
        assert twin.to_json() != g.to_json()
    for a in candidate_actions(g):
        if a not in listed:
            refused(g, g.apply, a)


@pytest.mark.parametrize("players", [3, 5])
def test_legal_actions_are_exactly_what_succeeds(players):
    g = Game(players, seed=31 + players)
    bots = [GreedyBot(s) if s % 2 else RandomBot(s) for s in range(players)]
    seen = Counter()
    steps = 0
    while g.result is None and steps < 600:
        if steps % 13 == 0 or g.phase == "summary":
            check_legal_actions(g)
            seen[g.phase] += 1
        if steps == 50:
            g.disconnect(g.turn, 0)
            check_legal_actions(g)
            assert g.legal_actions() == []
            g.reconnect(g.turn, 1)
        play_turn(g, bots)
        steps += 1
    check_legal_actions(g)
    assert seen["draw"] and seen["discard"] and seen["summary"]


def test_legal_actions_in_the_summary_list_rejoins_and_next_hand():
    g = five_player_eliminations()
    check_legal_actions(g)
    g.rejoin(2)
    check_legal_actions(g)


# ---------------------------------------------------------------- hints and totals


@pytest.mark.parametrize("players", [3, 6])
def test_hints_agree_with_the_reference(players):
    g = Game(players, seed=players)
    bots = [GreedyBot(s) for s in range(players)]
    checked = 0
    while g.result is None and checked < 60:
        if g.phase == "discard":
            want = reference.discard_hints(g.held(g.turn), decks=g.decks, rules=g.rules)
            assert g.hints() == want
            assert [h.card for h in g.hints()] == g.held(g.turn)
            checked += 1
        play_turn(g, bots)


def test_hints_with_a_stricter_close_limit_follow_the_rules():
    rules = Rules(close_limit=1)
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: C}, "12e", ["12b"]), lead=0,
             rules=rules)
    g.draw("stock")
    assert not any(h.can_close for h in g.hints())
    refused(g, g.discard, "12b", close=True)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_totals_are_the_sum_of_settlement_points(players):
    rng = random.Random(players)
    g = Game(players, seed=500 + players)
    bots = [GreedyBot(s) if s % 2 else RandomBot(s) for s in range(players)]
    expected = [0] * players
    last = 0
    steps = 0
    while g.result is None and steps < 5000:
        steps += 1
        if g.phase == "summary":
            before = g.in_game
            for s in range(players):
                if not before[s] and g.chips[s] and rng.random() < 0.7:
                    top = max(expected[o] for o in range(players) if g.in_game[o])
                    assert g.rejoin(s) == top
                    expected[s] = top
            g.next_hand()
            continue
        play_turn(g, bots)
        hand = g.last_hand
        if hand is not None and hand.number != last:
            last = hand.number
            order = hand.order
            s = reference.settle(g.held(order[0]), [g.held(o) for o in order[1:]],
                                 decks=g.decks, rules=g.rules)
            assert s.to_dict() == hand.settlement.to_dict()
            if hand.outcome != "chinchon":
                for seat, p in zip(order, s.points):
                    expected[seat] += p
                assert hand.points == tuple(
                    s.points[order.index(x)] if x in order else 0 for x in range(players))
            assert list(g.totals) == expected
            assert hand.eliminated == tuple(x for x in order if expected[x] > 70) or \
                hand.outcome == "chinchon"
    assert g.result is not None


def test_constructor_bad_arguments():
    for kwargs in [dict(seed="1"), dict(seed=1.5), dict(lead=3), dict(lead=-1),
                   dict(lead="0"), dict(rules={}), dict(deck="1o 2o"),
                   dict(deck=[None] * 48), dict(deck=5)]:
        with pytest.raises(IllegalAction):
            Game(3, **kwargs)
    for players in (None, 3.0, b"abc", "abc", 2, 7, True, ["a", "b"], object()):
        with pytest.raises(IllegalAction):  # never a bare TypeError
            Game(players)
    assert math.isfinite(Game(3, seed=1).lead)


def test_two_deck_lay_offs_of_copies_onto_sets_but_not_runs():
    deal = {0: "5o 5c 5e 1b 2b 3b 2e",  # deadwood 2
            1: "5o 4b 12o 12c 11e 8e 7o",  # the copy 5o on the fives, 4b on the run: 50
            2: "3b 10o 10c 8b 1c 9e 11c",  # a copy of 3b never joins the run: 52
            3: C,  # 5b on the fives: 42 - 5
            4: E}  # its 4b is a copy of the run's 4b: 52
    g = Game(5, deck=table_deck(5, 0, deal, "11e", ["12e"]), lead=0)
    hand = close_now(g)
    s = hand.settlement
    assert s.points == (2, 50, 52, 37, 52)
    assert s.points == oracle_points(g, 0).points
    assert sorted(str(c) for c, _ in s.opponents[0].layoffs) == ["4b", "5o"]
    assert s.opponents[1].layoffs == () and s.opponents[3].layoffs == ()
    assert [str(c) for c, _ in s.opponents[2].layoffs] == ["5b"]
    assert g.totals == (2, 50, 52, 37, 52)


def test_rule_variants_reach_the_game():
    rules = Rules(close_limit=2, eliminate_above=40, minus_ten=25, rejoin_chips=1,
                  reconnect_seconds=5)
    g = Game(3, deck=table_deck(3, 0, {0: "1b 2b 3b 4b 5o 5c 5e", 1: B, 2: C}, "12e",
                                ["12b"]), lead=0, rules=rules)
    close_now(g)
    assert g.totals == (-25, 69, 42) and g.in_game == (True, False, False)
    assert g.result.status == "won" and g.result.winner == 0
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: "1c 3e 4b 7e 9c 11b 6o"},
                                "12e", ["12b"]), lead=0, rules=rules)
    close_now(g)
    assert g.totals == (2, 69, 41) and g.in_game == (True, False, False)
    g = Game(3, deck=table_deck(3, 0, {0: CLOSER, 1: B, 2: "1c 3e 1b 7e 5o 11b 6o"},
                                "12e", ["12b"]), lead=0, rules=rules)
    close_now(g)
    assert g.totals == (2, 69, 34) and g.in_game == (True, False, True)
    assert g.rejoin(1) == 34 and g.chips == (1, 0, 1)
    g.disconnect(2, 0)
    g.tick(4.999)
    assert g.result is None
    g.tick(5)
    assert g.result.status == "cancelled"


def test_the_log_and_saved_dicts_handed_out_are_copies():
    g = Game(["Ana", "Luis", "Eva"], seed=1, deck=full_deck(1), lead=0)
    before = g.to_json()
    log = g.log
    log[0]["deck"].reverse()
    log[0]["players"].append("Sol")
    log[0]["rules"]["close_limit"] = 0
    g.to_dict()["log"][0]["deck"].clear()
    assert g.to_json() == before
    saved = json.loads(before)
    restored = Game.from_json(saved)
    saved["log"][0]["deck"].clear()
    saved["log"][0]["rules"]["close_limit"] = 0
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


def test_six_player_reshuffle_with_copies_in_the_discard_pile():
    g = Game(6, deck=table_deck(6, 2, {2: B, 3: C, 4: D, 5: E, 0: B, 1: C}, "12e"),
             lead=2, seed=17)
    assert g.stock_size == 53
    while g.stock_size:
        g.discard(g.draw("stock"))
    pile = [Card.parse(c) for c in json.loads(g.to_json())["discard"]]
    assert len(pile) == 54 and len(set(pile)) < 54  # copies: two decks
    expected = list(pile)
    random.Random(17).shuffle(expected)
    turn = g.turn
    assert g.draw("stock") == expected[0]
    assert [Card.parse(c) for c in json.loads(g.to_json())["stock"]] == expected[1:]
    assert Counter(g.held(turn)) - Counter(cards({0: B, 1: C, 2: B, 3: C, 4: D, 5: E}[turn]))\
        == Counter([expected[0]])
    assert Game.replay(g.log).to_json() == g.to_json()


def test_an_eliminated_seat_never_cancels_the_game():
    """Only a seat still in the game has a seat and cards to keep (SPEC §5)."""
    g = Game(3, seed=11, lead=0)
    state = json.loads(g.to_json())
    state["in_game"] = [True, True, False]
    state["stock"] += state["hands"][2]  # an eliminated seat holds no cards
    state["hands"][2] = []
    g = Game.from_json(json.dumps(state))
    g.disconnect(2, 0.0)
    g.tick(10_000.0)
    assert g.result is None and g.phase != "over"
    g.disconnect(1, 20_000.0)
    g.tick(20_060.0)
    assert g.result is not None and g.result.status == "cancelled"


def test_numpy_seats_and_finite_rules():
    import numpy as np

    g = Game(3, seed=1)
    assert g.hand(np.int64(1)) == g.hand(1)
    with pytest.raises(IllegalAction):
        g.hand(True)
    for bad in (float("inf"), float("nan"), -1):
        with pytest.raises(ValueError):
            Rules(reconnect_seconds=bad)
