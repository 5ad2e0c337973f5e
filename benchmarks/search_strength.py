"""How strong the search bot is at each budget, and how long its decisions take.

Not a timed test: a script that plays many whole games and prints what it measured
(the table of docs/bots.md#the-search-bot comes from it).

    python benchmarks/search_strength.py --games 2000 --jobs 2          # everything
    python benchmarks/search_strength.py --only strength --games 2000 --budgets 250,1000,default
    python benchmarks/search_strength.py --only strength --tables conga2 --games 600
    python benchmarks/search_strength.py --only speed --decisions 2000
    python benchmarks/search_strength.py --only speed --budgets default --threads 1,2
    python benchmarks/search_strength.py --only levels --tables conga2,house2 --games 20000 --search-games 300

- ``--budgets``: playouts per decision, by comma; ``default``: the name ``search``
  alone, each table's default budget (SearchBot.default_playouts).
- ``strength``: for each budget, the search bot against ``--against`` (default expert)
  on each table of ``--tables`` (by default heads-up under conga, half of the games S E,
  half E S, and 4 players under the house rules, half S E S E, half E S E S): the
  search bots' share of the games won by either kind (drawn and stalled games left
  out) with a 95% Wilson interval, and games/s. The C engine plays the games (the same
  games the Python loop would play).
- ``levels``: every level against every other (``--levels``, weakest first: random,
  greedy, expert and the search at 250, 1000 and each table's default), on each table of
  ``--tables``: heads-up and 4 players, under conga and the house rules (4 players: two
  seats of each, alternating). For each pair, the stronger level's share of the games
  won by either (the later one in ``--levels``; half of the games each way round;
  drawn and stalled games left out) with a 95% Wilson interval, and games/s:
  ``--games`` games a pair, ``--search-games`` where a search level plays. Not part of
  a run without ``--only``: the docs' table took 39 minutes on two cores.
- ``speed``: the wall time of each search decision (draw or discard) taken through
  :class:`~chinchon.bots.SearchBot` in the Python loop (the view built from the
  Observation included: what a server's bot seat pays), for each budget, one process:
  median, p99 and max, in milliseconds, on each table of ``--tables``; with
  ``--threads``, for each number of threads (the same decisions: the
  choice does not depend on it; the CPU time is the deciding thread's alone, the wall
  time the one a table waits).
"""

from __future__ import annotations

import argparse
import time

from chinchon import simulate
from chinchon.bots import ExpertBot, SearchBot, make_bot
from chinchon.game.observation import Observation
from chinchon.game.state import GameState
from chinchon.simulation.plot import proportion_interval  # imports no matplotlib


def match(a: str, b: str, games: int, players: int, rules: str, seed: int, jobs: int) -> dict:
    """``a`` against ``b`` in alternating seats: a's share of the games either won."""
    first = [(a, b)[s % 2] for s in range(players)]
    second = [(b, a)[s % 2] for s in range(players)]
    half = games // 2
    t = time.perf_counter()
    wins = {a: 0, b: 0}
    draws = stalled = 0
    for pattern, n, s in ((first, half, seed), (second, games - half, seed + 1)):
        r = simulate(n, players, bots=pattern, seed=s, jobs=jobs, rules=rules, engine="native",
                     keep_records=False)
        for seat, w in enumerate(r.wins_per_seat):
            wins[pattern[seat]] += w
        draws += r.draws
        stalled += r.stalled
    seconds = time.perf_counter() - t
    won = wins[a] + wins[b]
    _, lo, hi = proportion_interval(wins[a], won)
    return {"a": a, "b": b, "players": players, "rules": rules, "games": games, "won": won,
            "a_wins": wins[a], "share": wins[a] / won if won else float("nan"), "ci95": (lo, hi),
            "draws": draws, "stalled": stalled, "games_per_s": games / seconds}


def result_cells(m: dict) -> str:
    """A match's share (wins/won), interval, draws+stalled and games/s as table cells."""
    lo, hi = m["ci95"]
    return (f"{m['share']:.1%} ({m['a_wins']}/{m['won']}) | {lo:.1%}-{hi:.1%} "
            f"| {m['draws'] + m['stalled']} | {m['games_per_s']:.1f}")


#: the tables of ``--tables``: (players, rules) by name: conga or house (the house rules)
#: and the players, 2 to 6 (``conga2``, ``house4``, ``house6``)
TABLES = {f"{name}{players}": (players, rules) for name, rules in
          (("conga", "conga"), ("house", "barajamos")) for players in range(2, 7)}
#: the levels of ``levels``, weakest first
LEVELS = "random,greedy,expert,search:250,search:1000,search"


def table_names(text: str) -> list[str]:
    """The table names of ``--tables`` (``both``: conga2 and house4), checked."""
    names = ["conga2", "house4"] if text == "both" else [t.strip() for t in text.split(",")]
    for name in names:
        if name not in TABLES:
            raise SystemExit(f"unknown table {name!r}; the tables are both, or conga or "
                             f"house with 2 to 6 players: {', '.join(TABLES)}")
    return names


def levels(names: list[str], tables: list[str], games: int, search_games: int, seed: int,
           jobs: int) -> None:
    """Every level against every other, each table: a row per pair, the stronger (later)
    level's share of the games won by either."""
    print(f"## levels: each against each other ({games} games a pair, {search_games} "
          f"where a search level plays)\n")
    print("| stronger | weaker | table | games | stronger's share of games won "
          "| 95% interval | draws+stalled | games/s |")
    print("|---|---|---|---|---|---|---|---|")
    for table in tables:
        players, rules = TABLES[table]
        for j in range(1, len(names)):
            for i in range(j):
                a, b = names[j], names[i]
                searched = a.startswith("search") or b.startswith("search")
                n = search_games if searched else games
                m = match(a, b, n, players, rules, seed, jobs)
                print(f"| `{a}` | `{b}` | {players} players, {rules} | {n} | {result_cells(m)} |",
                      flush=True)
    print()


def decision_times(bot_name: str, players: int, rules: str, decisions: int,
                   seed: int, threads: int = 1) -> tuple[list[float], list[float]]:
    """The CPU and wall seconds of ``decisions`` search decisions of seat 0
    (``bot_name`` on ``threads`` threads) against expert bots, games after games."""
    times: list[float] = []
    walls: list[float] = []
    game_index = 0
    while len(times) < decisions:
        game = GameState(players, seed=seed + game_index, rules=rules)
        bot = make_bot(bot_name, seed + game_index)
        if threads > 1:
            bot = SearchBot(seed + game_index, playouts=bot.playouts or None,
                            ms=bot.ms or None, threads=threads)
        bots = [bot] + [ExpertBot(s) for s in range(1, players)]
        game_index += 1
        while game.result is None and len(times) < decisions:
            phase = game.phase
            if phase == "summary":
                for s in range(players):
                    if not game.in_game[s] and game.chips[s] > 0:
                        game.rejoin(s)
                game.next_hand()
                continue
            if game.turns_this_hand >= 1000:
                break
            seat = game.turn
            obs = Observation(game, seat)
            t, w = time.thread_time(), time.perf_counter()
            if phase == "draw":
                game.draw(bots[seat].choose_draw(obs, seat))
            else:
                card, close = bots[seat].choose_discard(obs, seat)
                game.discard(card, close)
            if seat == 0:
                times.append(time.thread_time() - t)
                walls.append(time.perf_counter() - w)
    return times, walls


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("strength", "levels", "speed"), default=None)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--decisions", type=int, default=1000)
    ap.add_argument("--budgets", default="250,1000,default",
                    help="playouts per decision, by comma; default: each table's (search)")
    ap.add_argument("--against", default="expert")
    ap.add_argument("--threads", default="1",
                    help="speed: the search's threads, by comma (e.g. 1,2)")
    ap.add_argument("--tables", default="both",
                    help="the tables, by comma: conga or house (the house rules) and the "
                         "players, 2 to 6 (conga2, house4, house6); both: conga2,house4")
    ap.add_argument("--levels", default=LEVELS, help="the levels of levels, weakest first")
    ap.add_argument("--search-games", type=int, default=200,
                    help="the games of a levels pair where a search level plays")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    budgets = ["search" if b.strip() == "default" else f"search:{b.strip()}"
               for b in args.budgets.split(",") if b.strip()]
    tables = table_names(args.tables)
    if args.only in (None, "strength"):
        print(f"## strength: search against {args.against}, {args.games} games each\n")
        print("| bot | table | search's share of games won | 95% interval | draws+stalled "
              "| games/s |")
        print("|---|---|---|---|---|---|")
        for name in budgets:
            for players, rules in (TABLES[t] for t in tables):
                m = match(name, args.against, args.games, players, rules, args.seed, args.jobs)
                print(f"| `{name}` | {players} players, {rules} | {result_cells(m)} |",
                      flush=True)
        print()
    if args.only == "levels":
        levels([x.strip() for x in args.levels.split(",") if x.strip()], tables, args.games,
               args.search_games, args.seed, args.jobs)
    if args.only in (None, "speed"):
        print(f"## speed: {args.decisions} decisions of seat 0 against expert bots, "
              f"milliseconds\n")
        print("| bot | table | CPU median | CPU p99 | CPU max | wall median | wall p99 |")
        print("|---|---|---|---|---|---|---|")
        thread_counts = [int(x) for x in args.threads.split(",") if x.strip()]
        for name in budgets:
            for players, rules in (TABLES[t] for t in tables):
                for threads in thread_counts:
                    ts, ws = decision_times(name, players, rules, args.decisions, args.seed,
                                            threads)
                    shown = f"`{name}`" + (f", {threads} threads" if threads > 1 else "")
                    print(f"| {shown} | {players} players, {rules} "
                          f"| {1e3 * percentile(ts, 0.5):.2f} | {1e3 * percentile(ts, 0.99):.2f} "
                          f"| {1e3 * max(ts):.2f} | {1e3 * percentile(ws, 0.5):.2f} "
                          f"| {1e3 * percentile(ws, 0.99):.2f} |", flush=True)

if __name__ == "__main__":
    main()
