"""The heads-up chance to win a game from its totals: the numbers of the search bot's
value (csrc/src/search/value.c, HEADS_UP_T and HEADS_UP_A; docs/bots.md#the-search-bot).

Not a timed test: a script that simulates games of the expert against itself and prints
what it fitted and how well the fit predicts other games.

    python benchmarks/value_fit.py --games 40000 --check 10000

1. The hands: from ``--games`` games (C engine), the points of each hand for the seat
   that led it and for the other, and who made a chinchón (the game's end), counted.
   The expert's play reads no total, so a hand's points do not depend on the totals.
2. The chances: from those counts, by dynamic programming (value iteration: a minus
   ten can lower a total), the chance W(x, y, lead) that the seat at total x wins
   against the seat at y, for every pair of totals in play.
3. The fit: the seat at total t weighs (1 - t / (T (eliminate_above + 1)))**A and its
   chance is its share of the two weights (who leads next left out: worth about 1%);
   the T and A nearest W on average over every pair of totals (a grid search), beside
   the error of the softmax of margins the search used before.
4. The check: in ``--check`` other games (another seed), at the start of every hand,
   the fitted chance of seat 0 against whether it won, in tenths of the chance.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from chinchon import simulate
from chinchon.rules import Rules

LOW = -40  # the least total the table holds (a minus ten below 0; lower ones clamped)


def hands_of(records: list) -> Counter:
    """(points of the hand's lead, points of the other, chinchón: -1 none, 0 the lead's,
    1 the other's) -> count, over every hand of heads-up records. The lead of a hand is
    found from its closer (who played its last turn); the leads alternate."""
    counts: Counter = Counter()
    for g in records:
        hands, i = [], 0
        for outcome, turns in zip(g.outcomes, g.turns):
            pts, closer = [0, 0], -1
            if outcome != "void":  # a void hand scores nothing
                closer = g.point_seats[i]
                for k in range(2):
                    pts[g.point_seats[i + k]] = g.points[i + k]
                i += 2
            hands.append((outcome, turns, pts, closer))
        lead0 = next(((c - (t - 1) - h) % 2 for h, (o, t, _, c) in enumerate(hands)
                      if c >= 0), None)
        if lead0 is None:
            continue
        for h, (outcome, _, pts, closer) in enumerate(hands):
            lead = (lead0 + h) % 2
            ch = -1 if "chinchon" not in outcome else (0 if closer == lead else 1)
            counts[(pts[lead], pts[1 - lead], ch)] += 1
    return counts


def chance_table(counts: Counter, eliminate_above: int) -> np.ndarray:
    """W[lead, x - LOW, y - LOW]: the chance that the seat at total x beats the seat at y,
    lead 1 when it leads the next hand (a total over eliminate_above loses; both over:
    the lower wins, equal halves)."""
    e = eliminate_above
    total = sum(counts.values())
    xs = np.arange(LOW, e + 1)
    x, y = np.meshgrid(xs, xs, indexing="ij")
    w = np.full((2, len(xs), len(xs)), 0.5)
    for _ in range(500):
        nw = np.zeros_like(w)
        for lead in (0, 1):
            for (dl, do, ch), c in counts.items():
                p = c / total
                if ch >= 0:
                    nw[lead] += p * float((ch == 0) == (lead == 1))
                    continue
                x2, y2 = (x + dl, y + do) if lead else (x + do, y + dl)
                xo, yo = x2 > e, y2 > e
                end = np.where(xo & yo, np.where(x2 < y2, 1.0, np.where(x2 == y2, 0.5, 0.0)),
                               np.where(xo, 0.0, 1.0))
                nxt = w[1 - lead][np.clip(x2, LOW, e) - LOW, np.clip(y2, LOW, e) - LOW]
                nw[lead] += p * np.where(xo | yo, end, nxt)
        done = np.abs(nw - w).max() < 1e-8
        w = nw
        if done:
            break
    return w


def fitted(t: np.ndarray, u: np.ndarray, big_t: float, a: float, e: int) -> np.ndarray:
    """The fit's chance of the seat at total t against the seat at u."""
    scale = big_t * (e + 1)
    wt, wu = (1 - t / scale) ** a, (1 - u / scale) ** a
    return wt / (wt + wu)


def fit(w: np.ndarray, e: int) -> tuple[float, float, float, float, float]:
    """(T, A, mean error, max error, the softmax's mean error) over totals 0..e."""
    z = -LOW
    target = (w[0, z:, z:] + w[1, z:, z:]) / 2
    xs = np.arange(e + 1.0)
    x, y = np.meshgrid(xs, xs, indexing="ij")
    best = (np.inf, 0.0, 0.0)
    for big_t in np.arange(1.01, 3.0, 0.01):
        for a in np.arange(0.5, 8.0, 0.1):
            err = float(np.abs(fitted(x, y, big_t, a, e) - target).mean())
            if err < best[0]:
                best = (err, float(big_t), float(a))
    err, big_t, a = best
    worst = float(np.abs(fitted(x, y, big_t, a, e) - target).max())
    soft = 1 / (1 + np.exp(-(y - x) / (e / 5)))
    return big_t, a, err, worst, float(np.abs(soft - target).mean())


def check(records: list, big_t: float, a: float, e: int) -> list[tuple[int, int, float, float]]:
    """(tenth, states, mean fitted chance, share won) of seat 0 at each hand's start, by
    tenth of the fitted chance."""
    bins: list[list[float]] = [[0, 0.0, 0.0] for _ in range(10)]
    for g in records:
        if g.status != "won":
            continue
        totals, i = [0, 0], 0
        for outcome in g.outcomes:
            p = float(fitted(np.float64(totals[0]), np.float64(totals[1]), big_t, a, e))
            b = bins[min(9, int(p * 10))]
            b[0] += 1
            b[1] += p
            b[2] += float(g.winner == 0)
            if outcome != "void":
                for k in range(2):
                    totals[g.point_seats[i + k]] += g.points[i + k]
                i += 2
    return [(k, int(n), s / n, w / n) for k, (n, s, w) in enumerate(bins) if n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="conga")
    ap.add_argument("--games", type=int, default=40000)
    ap.add_argument("--check", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    e = Rules.preset(args.rules).eliminate_above
    r = simulate(args.games, 2, bots="expert", seed=args.seed, rules=args.rules,
                 engine="native")
    counts = hands_of(r.records)
    w = chance_table(counts, e)
    big_t, a, err, worst, soft = fit(w, e)
    z = -LOW
    print(f"{args.rules}: {sum(counts.values())} hands of {args.games} games; "
          f"the lead's chance from 0-0: {w[1, z, z]:.3f}")
    print(f"fit: T {big_t:.2f}, A {a:.1f}: mean error {err:.4f}, max {worst:.4f} "
          f"(the softmax of margins: mean {soft:.4f})")
    r2 = simulate(args.check, 2, bots="expert", seed=args.seed + 1, rules=args.rules,
                  engine="native")
    print("\n| fitted chance | hand starts | mean fitted | share won |\n|---|---|---|---|")
    for k, n, p, won in check(r2.records, big_t, a, e):
        print(f"| {k / 10:.1f}-{(k + 1) / 10:.1f} | {n} | {p:.3f} "
              f"| {won:.3f} |")


if __name__ == "__main__":
    main()
