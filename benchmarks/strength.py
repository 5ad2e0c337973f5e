"""How strong the expert bot is, and whether bot tables end their hands.

Not a timed test: a script that plays many whole games and prints what it measured.

    python benchmarks/strength.py --games 20000 --jobs 2            # everything
    python benchmarks/strength.py --only strength --games 20000
    python benchmarks/strength.py --only endings --games 500
    python benchmarks/strength.py --only speed --games 200

- ``strength``: 4-player games under the house rules, 2 expert and 2 greedy bots in
  alternating seats (half of the games E G E G, half G E G E), then the same for
  2-player conga (E G and G E): the experts' share of the games won (drawn and stalled
  games left out) with a 95% Wilson interval.
- ``endings``: 4-player tables of one bot kind (greedy, expert, random) under each
  preset: the share of hands that end by a close (the rest: stalled at ``max_turns`` or,
  under conga, void when the stock runs low).
- ``speed``: whole games per second with 4 expert bots, one process.
"""

from __future__ import annotations

import argparse
import sys
import time

from chinchon import IMPLEMENTATION, simulate
from chinchon.simulation.plot import proportion_interval  # imports no matplotlib


def strength(games: int, jobs: int, players: int, rules: str, seed: int) -> dict:
    pattern = ["expert", "greedy"] * (players // 2)
    other = ["greedy", "expert"] * (players // 2)
    half = games // 2
    t = time.perf_counter()
    a = simulate(half, players, bots=pattern, seed=seed, jobs=jobs, rules=rules)
    b = simulate(games - half, players, bots=other, seed=seed + 1, jobs=jobs, rules=rules)
    expert = a.wins_per_bot.get("expert", 0) + b.wins_per_bot.get("expert", 0)
    greedy = a.wins_per_bot.get("greedy", 0) + b.wins_per_bot.get("greedy", 0)
    won = expert + greedy
    _, lo, hi = proportion_interval(expert, won)
    return {"players": players, "rules": rules, "games": games, "won": won,
            "expert_wins": expert, "share": expert / won if won else float("nan"),
            "ci95": (lo, hi), "draws": a.draws + b.draws, "stalled": a.stalled + b.stalled,
            "seconds": time.perf_counter() - t}


def endings(games: int, jobs: int, bot: str, rules: str, seed: int) -> dict:
    r = simulate(games, 4, bots=bot, seed=seed, jobs=jobs, rules=rules)
    closes = sum(v for k, v in r.endings.items() if k != "void")
    return {"bot": bot, "rules": rules, "games": games, "hands": r.hands, "closes": closes,
            "void": r.endings.get("void", 0), "stalled_games": r.stalled,
            "share_closed": closes / r.hands if r.hands else float("nan")}


def speed(games: int, seed: int) -> dict:
    t = time.perf_counter()
    r = simulate(games, 4, bots="expert", seed=seed, jobs=1)
    dt = time.perf_counter() - t
    return {"games": games, "seconds": dt, "games_per_s": games / dt, "turns": r.turns,
            "stalled": r.stalled}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--only", choices=("strength", "endings", "speed"), default=None)
    args = p.parse_args(argv)
    print(f"chinchon implementation: {IMPLEMENTATION}")
    if args.only in (None, "strength"):
        for players, rules in ((4, "barajamos"), (2, "conga")):
            r = strength(args.games, args.jobs, players, rules, args.seed)
            lo, hi = r["ci95"]
            print(f"strength {players}p {rules}: experts won {r['expert_wins']} of "
                  f"{r['won']} games won ({r['share']:.1%}, 95% CI {lo:.1%}-{hi:.1%}); "
                  f"{r['games']} games, {r['draws']} drawn, {r['stalled']} stalled, "
                  f"{r['seconds']:.0f} s", flush=True)
    if args.only in (None, "endings"):
        for rules in ("barajamos", "classic", "conga", "fifty"):
            for bot in ("greedy", "expert", "random"):
                r = endings(args.games if args.only else max(200, args.games // 40),
                            args.jobs, bot, rules, args.seed)
                print(f"endings 4p {rules:<9} {bot:<6}: {r['closes']}/{r['hands']} hands "
                      f"closed ({r['share_closed']:.2%}); {r['void']} void, "
                      f"{r['stalled_games']} stalled ({r['games']} games)", flush=True)
    if args.only in (None, "speed"):
        r = speed(args.games if args.only else 200, args.seed)
        print(f"speed: {r['games_per_s']:.0f} games/s with 4 expert bots, one process "
              f"({r['games']} games, {r['turns']} turns, {r['seconds']:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
