"""Checks that a game loaded from damaged input is sound: the invariants any play can
reach, and play on from it through ``legal_actions()``. Shared by the snapshot fuzz
(test_snapshot_fuzz.py) and the compact-log tests (test_snapshot_log.py)."""

from __future__ import annotations

import json
import random
from collections import Counter

from chinchon import Game
from chinchon.cards import full_deck

PLAY_ON = 50


def assert_consistent(g: Game) -> None:
    """The invariants of a game any play can reach."""
    n, decks = g.players, g.decks
    held = [c for s in range(n) for c in g.held(s)]
    state = g.to_dict()
    held += [c for c in state["stock"]] + [c for c in state["discard"]]
    if state["face_down"] is not None:
        held.append(state["face_down"])
    assert Counter(str(c) for c in held) == Counter(str(c) for c in full_deck(decks))
    assert (g.phase == "over") == (g.result is not None)
    if g.phase in ("draw", "discard"):
        assert g.turn is not None and g.in_game[g.turn]
        for s in range(n):
            want = 0 if not g.in_game[s] else (8 if g.phase == "discard" and s == g.turn else 7)
            assert len(g.held(s)) == want
    assert len(g.totals) == len(g.in_game) == len(g.chips) == n
    assert all(0 <= c <= g.rules.rejoin_chips for c in g.chips)
    assert all(type(t) is int for t in g.totals)
    for seat, t in g.disconnected.items():
        assert 0 <= seat < n and t == t and abs(t) != float("inf")


def plays_on(g: Game, rng: random.Random, moves: int = PLAY_ON) -> int:
    """Play up to ``moves`` moves from ``g`` chosen among ``legal_actions()``; every
    offered move must work. Returns the number played."""
    played = 0
    for _ in range(moves):
        if g.result is not None:
            break
        actions = g.legal_actions()
        if not actions:  # the seat to act is disconnected: it comes back
            away = sorted(g.disconnected.items())
            assert away, "a game on, nobody away, and no legal action"
            for seat, t in away:
                g.reconnect(seat, t)
            continue
        g.apply(rng.choice(actions))
        played += 1
        if played % 10 == 0:
            for seat in range(g.players):
                json.dumps(g.observation(seat))
    return played
