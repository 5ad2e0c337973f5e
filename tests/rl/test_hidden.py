"""The observation hides what it must: two stacked deals that differ only in cards a
seat has not seen (one card of another seat's hand swapped with the stock's bottom
card) give that seat identical observations and masks at every step of the same
action sequence -- while the seat that holds the swapped card sees the difference."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import chinchon.rl as rl  # noqa: E402
from chinchon.rl import encoding as E  # noqa: E402
from chinchon.rules import Rules, decks_for  # noqa: E402
from chinchon.cards import full_deck  # noqa: E402


@pytest.mark.parametrize("players,rules", [(2, "barajamos"), (3, "conga"), (4, "fifty"),
                                           (6, "classic")])
def test_two_deals_differing_in_unseen_cards_look_the_same(players, rules):
    r = Rules.preset(rules)
    deck = full_deck(decks_for(players), rules=r)
    rng = random.Random(players)
    rng.shuffle(deck)
    # lead 0: seat s is dealt deck[7s:7s+7]; then the discard's first card, the stock
    holder = players - 1
    x_at, y_at = 7 * holder + 3, len(deck) - 1
    x, y = deck[x_at], deck[y_at]
    if x == y:  # a double deck's twin copies: pick another
        x_at -= 1
        x = deck[x_at]
    other = list(deck)
    other[x_at], other[y_at] = y, x
    envs = [rl.raw_env(players=players, rules=rules), rl.raw_env(players=players, rules=rules)]
    for env, d in zip(envs, (deck, other)):
        env.reset(seed=7, options={"deck": d, "lead": 0})
    hidden = {x.index, y.index}
    # the holder sees the swap; nobody else does
    assert not np.array_equal(envs[0].observe(f"player_{holder}")["observation"],
                              envs[1].observe(f"player_{holder}")["observation"])
    steps = 0
    while envs[0].game.stock_size > 1 and steps < 300 and envs[0].phase in ("draw", "discard"):
        for seat in range(players - 1):
            agent = f"player_{seat}"
            a, b = (env.observe(agent) for env in envs)
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        assert envs[0].agent_selection == envs[1].agent_selection
        both = envs[0].action_mask() & envs[1].action_mask()
        # no close (a close shows every hand); the holder never lets the swapped card go
        choices = [i for i in np.flatnonzero(both)
                   if not E.CLOSE <= i < E.DRAW_STOCK and i not in hidden]
        action = rng.choice(choices)
        for env in envs:
            env.step(action)
        steps += 1
    assert steps > 20
