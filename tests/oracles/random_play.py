"""Random legal play under any rules with the table's invariants checked at every step:
every card of the rules' deck in exactly one place, totals the sums of the
hands' points (but for rejoins), void hands scoring nothing, an illegal action leaving
the game as it was, and the snapshot round-tripping.

Used by tests/game/test_variants_table.py, and run in bulk by hand:

    python -m tests.oracles.random_play --games 1000 --impl native --jobs 2

(``--snapshot-every k`` round-trips the snapshot every k steps instead of every step:
the round trip is most of the cost.)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any

from chinchon import PRESETS, Game, IllegalAction, Rules
from chinchon.cards import full_deck

#: (preset, players) played by the test and by the bulk run
TABLES = [("barajamos", 4), ("classic", 3), ("conga", 2), ("fifty", 5), ("fifty", 3)]


def play_checked(rules: Rules, players: int, seed: int, *, snapshot_every: int = 1,
                 steps: int = 400) -> int:
    """One game of random legal actions from ``seed``, every invariant asserted; returns
    the steps played."""
    rng = random.Random(seed)
    g = Game(players, rules=rules, seed=rng.randrange(2**32))
    deck = Counter(str(c) for c in full_deck(g.decks, rules=rules))
    sums = [0] * players
    seen_hand = 0
    step = 0
    for step in range(steps):
        if g.result is not None:
            break
        d = g.to_dict()
        held = [c for h in d["hands"] for c in h] + d["stock"] + d["discard"]
        if d["face_down"] is not None:
            held.append(d["face_down"])
        assert Counter(held) == deck, f"step {step}: the deck is not conserved"
        text = g.to_json() if step % snapshot_every == 0 or step % 7 == 0 else None
        if step % snapshot_every == 0:
            assert Game.from_json(text).to_json() == text, f"step {step}: snapshot"
        if step % 7 == 0:  # an illegal action leaves the game as it was
            try:
                g.apply(("draw", "nowhere") if g.phase == "draw" else ("rejoin", 99))
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"step {step}: an illegal action was taken")
            assert g.to_json() == text, f"step {step}: a refused action changed the game"
        g.apply(rng.choice(g.legal_actions()))
        last = g.last_hand
        if last is not None and last.number != seen_hand:
            seen_hand = last.number
            for s in range(players):
                sums[s] += last.points[s]
            if last.void:
                assert set(last.points) == {0}, "a void hand scored"
        if g.phase == "summary" or g.result is not None:
            # totals are the sums of the hands' points, but for rejoins
            assert all(t == s or not i or c < rules.rejoin_chips
                       for t, s, i, c in zip(g.totals, sums, g.in_game, g.chips)), \
                f"step {step}: totals are not the hands' sums"
            sums = list(g.totals)
    return step


def _run(job: tuple[str, str, int, int, int]) -> tuple[str, int, int]:
    impl, name, players, seed, every = job
    if impl == "python":
        from chinchon import _backend, reference
        for fn in ("deadwood", "best_melds", "discard_hints", "close_outcome", "settle"):
            setattr(_backend, fn, getattr(reference, fn))
    return name, players, play_checked(PRESETS[name], players, seed, snapshot_every=every)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100, help="games per table")
    p.add_argument("--impl", choices=["native", "python"], default="native")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--snapshot-every", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    jobs: list[Any] = [(a.impl, name, players, a.seed * 1_000_003 + i, a.snapshot_every)
                       for name, players in TABLES for i in range(a.games)]
    t0 = time.perf_counter()
    steps: Counter[tuple[str, int]] = Counter()
    games: Counter[tuple[str, int]] = Counter()
    if a.jobs > 1:
        import multiprocessing as mp
        with mp.get_context("spawn").Pool(a.jobs) as pool:
            results = pool.imap_unordered(_run, jobs, chunksize=4)
            for name, players, n in results:
                steps[name, players] += n
                games[name, players] += 1
    else:
        for job in jobs:
            name, players, n = _run(job)
            steps[name, players] += n
            games[name, players] += 1
    for key in games:
        print(f"{key[0]:10} {key[1]} players: {games[key]} games, {steps[key]} steps, "
              f"every invariant held ({a.impl})")
    print(f"{sum(games.values())} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
