"""Stacked decks and ready-made tables for the game tests (docs/rules.md#turns-hints-and-closing, #scores-elimination-and-the-end-of-a-game, #dealing-and-stacked-decks).

A stacked deck deals as the game does: the first 7 cards to the lead, the next 7 to the
next seat in play order, ..., the next card starts the discard pile, and the rest is
the stock, drawn from the front. Expected hand points come from the settlement oracle
(tests/oracles/settlement.py), never from the game.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from chinchon.cards import full_deck, parse_cards
from chinchon.errors import IllegalAction
from chinchon.game import Game
from tests.oracles.settlement import expected_settlement, indices

# Hands with known points that neither meld nor take a lay-off from one another or from
# CLOSER's melds (1o 2o 3o and 4c 5c 6c: no 4o, 3c or 7c below). With two decks a copy
# of one of them may be dealt to a second seat.
CLOSER = "1o 2o 3o 4c 5c 6c 2e"  # deadwood 2
DEAD69 = "12o 12c 11e 9b 10b 8e 7o"
DEAD42 = "1c 3e 5b 7e 9c 11b 6o"
DEAD53 = "10o 10c 8b 1b 4e 9e 11c"
DEAD52 = "12b 11o 9o 2c 4b 6b 8c"


def cards(text):
    return parse_cards(text)


def strs(cs):
    return [str(c) for c in cs]


def play_order(n, lead, in_game=None):
    """The seats in play from the lead on."""
    in_game = in_game or [True] * n
    return [s for s in ((lead + k) % n for k in range(n)) if in_game[s]]


def stack(hands, up, stock=(), decks=1):
    """A deck order: ``hands`` (card text, in deal order: the lead first), the face-up
    card, then ``stock`` at the front of the stock; the other cards follow in ascending
    order."""
    head = [c for h in hands for c in cards(h)] + cards(up)
    head += [c for s in stock for c in cards(s)]
    left = Counter(full_deck(decks))
    left.subtract(head)
    assert all(v >= 0 for v in left.values()), "a card used too often in the stacked deck"
    return head + sorted(left.elements(), key=lambda c: c.index)


def table_deck(n, lead, by_seat, up, stock=(), in_game=None):
    """The deck order that deals ``by_seat[s]`` (card text) to each seat in play of an
    ``n``-seat table led by ``lead``, puts ``up`` face up and ``stock`` at the front of
    the stock."""
    order = play_order(n, lead, in_game)
    assert sorted(order) == sorted(by_seat), "give a hand for every seat in play"
    decks = 2 if n >= 5 else 1
    deck = stack([by_seat[s] for s in order], up, stock, decks)
    assert len(deck) == 48 * decks
    return deck


def edited(game, **changes):
    """The same game with stored fields replaced (to start a scenario at given totals or
    chips without playing the hands that led there)."""
    d = json.loads(game.to_json())
    d.update(changes)
    return Game.from_json(d)


def refused(game, call, *args, **kwargs):
    """``call`` raises IllegalAction (a ValueError) that says why, and leaves to_json
    byte-identical. Returns the error."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    assert str(info.value)
    assert game.to_json() == before
    return info.value


def close_now(game, card=None, source="stock"):
    """The player to act draws and closes throwing ``card`` (default: the card drawn)."""
    drawn = game.draw(source)
    return game.discard(drawn if card is None else card, close=True)


def expected_points(game, closer):
    """The oracle's hand points of the hand ``closer`` just closed, in
    ``game.last_hand.order`` (closer first)."""
    order = game.last_hand.order
    assert order[0] == closer
    want = expected_settlement(indices(game.held(order[0])),
                               [indices(game.held(o)) for o in order[1:]], game.rules)
    assert isinstance(want, dict), want
    return tuple(want["points"])


def fresh(seed=2, n=3, lead=0):
    """A shuffled table, for the tests that do not care about the cards."""
    return Game(n, seed=seed, lead=lead)


#: the hands of a stacked game in play order from the lead (who holds the closer)
DEAL = (CLOSER, DEAD69, DEAD42, DEAD53, DEAD69, DEAD42)


def stacked_game(players=3, lead=0, closer=CLOSER, stock=("12b",), **kwargs):
    """A game whose lead holds ``closer`` and the next seats in play order DEAD69,
    DEAD42, DEAD53, DEAD69, DEAD42; 12e face up, ``stock`` at the front of the stock.
    ``kwargs`` go to Game (seed, rules)."""
    deck = stack([closer, *DEAL[1:players]], "12e", stock, decks=2 if players >= 5 else 1)
    return Game(players, deck=deck, lead=lead, **kwargs)


def five_player_eliminations():
    """A 5-seat game after a hand that put seats 2, 3, 4 out; 0 (2) and 1 (69) stay."""
    g = edited(stacked_game(5), totals=[0, 0, 29, 20, 10])
    close_now(g)
    assert g.totals == (2, 69, 71, 73, 79)
    assert g.in_game == (True, True, False, False, False)
    assert g.last_hand.eliminated == (2, 3, 4)
    return g


#: the labels of ``states_of_every_kind``
STATES = ["draw", "discard", "summary", "summary-out", "won", "draw-game", "cancelled"]


def states_of_every_kind():
    """(label, game) in each phase: draw, discard, summary, won, draw game, cancelled."""
    out = []
    g = stacked_game()
    out.append(("draw", g.clone()))
    g.draw("stock")
    out.append(("discard", g.clone()))
    g.discard("12b", close=True)
    out.append(("summary", g.clone()))
    g = edited(g, totals=[2, 71, 42], in_game=[True, False, True])
    out.append(("summary-out", g.clone()))
    won = edited(stacked_game(), totals=[0, 2, 29])
    close_now(won)
    out.append(("won", won))
    drawn = edited(stacked_game(), totals=[69, 2, 29])
    close_now(drawn)
    out.append(("draw-game", drawn))
    cancelled = fresh()
    cancelled.disconnect(1, 0)
    cancelled.tick(60)
    out.append(("cancelled", cancelled))
    return out
