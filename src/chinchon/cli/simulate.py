"""``chinchon simulate``: many games between bots, with statistics and a progress bar."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, Optional

from .._backend import IMPLEMENTATION
from ..errors import ChinchonError
from ..simulation import ENGINES, simulate
from ..simulation.play import MAX_HANDS
from . import report
from ._common import rules_of, rules_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many games between bots and print statistics",
        description="Whole games between bots, reproducible from --seed whatever runs "
                    "them (--jobs, --scheduler) and however they are chunked.",
    )
    p.add_argument("--games", type=int, default=1000, help="number of games (1000)")
    p.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="2-6",
                   help="players per table (4)")
    p.add_argument("--bots", default="greedy",
                   help="one bot for every seat or a comma list, one per seat "
                        "(random, greedy, expert, search, search:<playouts>, "
                        "search:<ms>ms; docs/bots.md); default greedy")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on Dask: tcp://HOST:PORT (a running scheduler) or local:N "
                        "(a local cluster of N worker processes); needs "
                        "pip install 'chinchon[dask]'; --jobs is then not used")
    p.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help="games per chunk of work (default: about 8 chunks per worker; "
                        "with the C engine at most 5000 games on --jobs and 50000 on "
                        "--scheduler, there at least 10000 or an equal share a worker; "
                        "with the Python loop at most 200 and 1000); the result does not "
                        "depend on it")
    p.add_argument("--records", metavar="DIR",
                   help="write one Parquet row per game into this directory (a dataset "
                        "of parts, e.g. games.parquet; needs pyarrow, in the dask extra)")
    p.add_argument("--seed", type=int, default=0, help="simulation seed (0)")
    p.add_argument("--max-turns", type=int, default=1000,
                   help="a hand reaching this many turns stalls its game (1000)")
    p.add_argument("--engine", type=str.lower, choices=ENGINES, default="auto",
                   help="who plays the games: the C engine (native; the built-in bots "
                        "only), the Python loop (python), or auto: native when it can (auto)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--report", metavar="FILE",
                   help="also write an HTML report with plots (self-contained); needs "
                        "pip install 'chinchon[plot]'")
    rules_options(p, table=True)
    p.set_defaults(func=run)


class _Progress:
    """A progress bar on stderr: tqdm when it is installed, else a plain one."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self._bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm  # optional: nicer bar and rate
            except ImportError:
                pass
            else:
                self._bar = tqdm(total=total, unit="game", file=sys.stderr)

    def __call__(self, k: int) -> None:
        self.done += k
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(k)
            return
        width = 40
        filled = width * self.done // max(1, self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                         f"{self.done}/{self.total} games")
        sys.stderr.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.enabled:
            sys.stderr.write("\n")


def _percentile(hist: dict[int, int], q: float) -> int:
    total = sum(hist.values())
    seen = 0
    for k in sorted(hist):
        seen += hist[k]
        if seen >= q * total:
            return k
    return 0


def run(args: argparse.Namespace) -> int:
    if args.report is not None:  # the missing extra, or a file that cannot be written,
        report.require_plots()  # said before the games, not after
        if args.records:
            report.require_outside(args.report, args.records)
        report.require_writable(args.report)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Progress(args.games, show and not args.json or bool(args.progress))
    try:
        with contextlib.ExitStack() as stack:
            executor = None
            if args.scheduler is not None:
                from ..simulation.cluster import dask_client

                executor = stack.enter_context(dask_client(args.scheduler))
            result = simulate(args.games, args.players, bots=args.bots, seed=args.seed,
                              jobs=args.jobs, max_turns=args.max_turns, progress=bar,
                              rules=rules_of(args), executor=executor,
                              chunk_size=args.chunk_size, records=args.records,
                              keep_records=False, engine=args.engine)
    except ImportError as exc:  # an optional extra that is not installed
        raise ChinchonError(str(exc)) from None
    finally:
        bar.close()
    unwritten = None  # a report the disk would not take: said after the run's results
    if args.report is not None:
        from ..simulation.report import run_of

        try:
            report.write(args.report, [run_of(result, max_turns=args.max_turns,
                                              records=args.records, scheduler=args.scheduler,
                                              implementation=IMPLEMENTATION)])
        except OSError as exc:
            unwritten = exc
    _summary(args, result, args.report if unwritten is None else None)
    if unwritten is not None:
        raise unwritten
    return 0


def _summary(args: argparse.Namespace, result: Any, written: Optional[str]) -> None:
    """The run's results on stdout, with the report ``written`` (None: none): JSON with
    ``--json``, else the text summary."""
    if args.json:
        out = result.to_dict()
        out["implementation"] = IMPLEMENTATION
        out["scheduler"] = args.scheduler
        out["records"] = args.records
        out["report"] = written
        print(json.dumps(out))
        return
    games = max(1, result.games)
    rules = result.rules
    name = rules.preset_name if rules is not None else "barajamos"
    print(f"rules: {name or 'custom'}" + ("" if name else f" {rules!r}"))
    where = (f"Dask {args.scheduler} ({result.jobs} worker thread"
             f"{'s' if result.jobs > 1 else ''})" if args.scheduler is not None else
             f"{result.jobs} job{'s' if result.jobs > 1 else ''}")
    print(f"{result.games} games, {result.players} players, seed {result.seed}, "
          f"{where}, {result.engine} engine, {IMPLEMENTATION} solver: "
          f"{result.seconds:.2f} s, {result.games_per_second:.0f} games/s")
    print()
    print("seat  bot        wins   win %")
    for seat, (bot, wins) in enumerate(zip(result.bots, result.wins_per_seat)):
        print(f"{seat:>4}  {bot:<9} {wins:>5}  {100 * wins / games:5.1f}")
    print()
    print("bot        wins   win %")
    for bot, wins in result.wins_per_bot.items():
        print(f"{bot:<9} {wins:>5}  {100 * wins / games:5.1f}")
    print()
    print(f"draws {result.draws}   cancelled {result.cancelled}   stalled {result.stalled}"
          f" (a hand reached {args.max_turns} turns, or a game {MAX_HANDS} hands)")
    print(f"hands per game   mean {result.mean_hands_per_game:.2f}   "
          f"max {max(result.hands_per_game, default=0)}")
    print(f"turns per hand   mean {result.mean_turns_per_hand:.1f}   "
          f"median {_percentile(result.turns_per_hand, 0.5)}   "
          f"p90 {_percentile(result.turns_per_hand, 0.9)}")
    closed = max(1, sum(result.endings.values()))
    print("hands end        " + "   ".join(
        f"{name.replace('_', ' ')} {n} ({100 * n / closed:.1f}%)"
        for name, n in result.endings.items()))
    print(f"rejoins used     {result.rejoins}   per seat {result.rejoins_per_seat}")
    pts = result.points
    n = sum(pts.values())
    if n:
        mean = sum(k * v for k, v in pts.items()) / n
        print(f"hand points      mean {mean:.1f}   median {_percentile(pts, 0.5)}   "
              f"p90 {_percentile(pts, 0.9)}   min {min(pts)}   max {max(pts)}")
    if args.records is not None:
        print(f"records          one row per game in {args.records} (a Parquet dataset)")
    if written is not None:
        print(f"report           {written}")
