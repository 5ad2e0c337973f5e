"""The ``chinchon`` command line.

Subcommands: ``hint`` (best melds and discard hints of a hand), ``settle`` (the
settlement of a closed hand: melds, lay-offs, points per seat), ``simulate`` (bulk
games between bots, with statistics), ``play`` (a person against bots in the
terminal; it reads stdin, so piped input drives it) and ``serve`` (the table server of
:mod:`chinchon.server`, an optional extra; only a hook lives here). Each subcommand is a
``_cmd_*`` function registered in :func:`build_parser`. Bad input prints one line on
stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, Callable, Optional, cast

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the full usage; one clear line is friendlier, status 2 kept
        self.exit(2, f"{self.prog}: error: {message}\n")


def _table_order(hand: Any) -> tuple[list[Any], Any]:
    """Cards in the order the table shows them: melds first (each sorted), then the rest."""
    from . import best_melds

    arrangement = best_melds(hand)
    cards = [c for m in arrangement.melds for c in m.cards] + list(arrangement.unmatched)
    return cards, arrangement


def _cmd_hint(args: argparse.Namespace) -> int:
    from . import IMPLEMENTATION, Hand, Rules, discard_hints

    hand = Hand(args.hand, decks=args.decks)
    rules = Rules(close_limit=args.close_limit)
    if len(hand) == 8:
        hints = discard_hints(hand, rules=rules)
    elif len(hand) == 7:
        hints = None
    else:
        from .errors import CardCountError

        raise CardCountError(f"a hint needs 7 or 8 cards, got {len(hand)}: {hand}")
    shown, arrangement = _table_order(hand)
    if args.json:
        out: dict[str, Any] = {
            "hand": [str(c) for c in shown],
            "decks": hand.decks,
            "arrangement": arrangement.to_dict(),
            "deadwood": arrangement.points,
            "hints": None if hints is None else [h.to_dict() for h in hints],
            "implementation": IMPLEMENTATION,
        }
        print(json.dumps(out))
        return 0
    print("hand:     " + " ".join(str(c) for c in shown))
    melds = "  ".join(f"[{m}] ({m.kind})" for m in arrangement.melds) or "(none)"
    print("melds:    " + melds)
    print("unmatched: " + (" ".join(str(c) for c in arrangement.unmatched) or "(none)")
          + f"  = {arrangement.points} points")
    if hints is None:
        from . import close_outcome

        outcome = close_outcome(hand, rules=rules)
        print("close:    " + (outcome if outcome else f"no (over {rules.close_limit})"))
        return 0
    print("discard   points left   close")
    best = min(h.points for h in hints)
    seen = set()
    for h in sorted(hints, key=lambda h: (h.points, h.card.index)):
        if h.card in seen:  # a double-deck copy: one line is enough
            continue
        seen.add(h.card)
        mark = h.outcome.replace("_", " ") if h.outcome else ""
        star = " *" if h.points == best else ""
        print(f"{str(h.card):>7}   {h.points:>11}   {mark}{star}")
    return 0


def _seat(k: int) -> str:
    return "closer" if k == 0 else f"opponent {k}"


def _cmd_settle(args: argparse.Namespace) -> int:
    from . import IMPLEMENTATION, Rules, settle

    rules = Rules(close_limit=args.close_limit)
    result = settle(args.closer, args.opponent or [], decks=args.decks, rules=rules)
    if args.json:
        out = result.to_dict()
        out["implementation"] = IMPLEMENTATION
        print(json.dumps(out))
        return 0
    outcome = {"normal": "normal close", "minus_ten": "minus ten (the closer's melds are locked)",
               "chinchon": "chinchón: the closer wins the game"}[result.outcome]
    print(f"outcome: {outcome}")

    def melds_text(melds: Any) -> str:
        return "  ".join(f"[{m}]" for m in melds) or "(no melds)"

    def cards_text(cards: Any) -> str:
        return " ".join(str(c) for c in cards) or "-"

    print(f"closer:     melds {melds_text(result.closer.melds)}"
          f"   unmatched {cards_text(result.closer.unmatched)}")
    index = len(result.closer.melds)
    for k, opp in enumerate(result.opponents, start=1):
        print(f"opponent {k}: melds {melds_text(opp.melds)}"
              f"   unmatched {cards_text(opp.unmatched)}")
        for card, t in opp.layoffs:
            print(f"            lays {card} on #{t} ({_seat(result.table[t].owner)}'s "
                  f"{result.table[t].kind})")
        if opp.melds:
            first = index
            index += len(opp.melds)
            print(f"            puts down #{first}" + (f"-#{index - 1}" if index - first > 1 else ""))
    print("table:")
    for t, meld in enumerate(result.table):
        lock = "" if meld.open else "  (locked)"
        print(f"  #{t:<2} {meld.kind:<3}  {cards_text(meld.cards):<30} {_seat(meld.owner)}{lock}")
    print("points:")
    for k, pts in enumerate(result.points):
        print(f"  {_seat(k):<11} {pts:>4}")
    return 0


# ---------------------------------------------------------------- simulate


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


def _cmd_simulate(args: argparse.Namespace) -> int:
    from . import IMPLEMENTATION
    from .simulate import simulate

    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Progress(args.games, show and not args.json or bool(args.progress))
    try:
        result = simulate(args.games, args.players, bots=args.bots, seed=args.seed,
                          jobs=args.jobs, max_turns=args.max_turns, progress=bar)
    finally:
        bar.close()
    if args.json:
        out = result.to_dict()
        out["implementation"] = IMPLEMENTATION
        print(json.dumps(out))
        return 0
    games = max(1, result.games)
    print(f"{result.games} games, {result.players} players, seed {result.seed}, "
          f"{result.jobs} job{'s' if result.jobs > 1 else ''}, {IMPLEMENTATION} solver: "
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
          f" (a hand reached {args.max_turns} turns)")
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
    return 0


# ---------------------------------------------------------------- play


class _EndOfInput(Exception):
    pass


def _ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        print()
        raise _EndOfInput
    return line.strip().lower()


def _show_hand_result(game: Any, names: Sequence[str]) -> None:
    last = game.last_hand
    s = last.settlement
    print(f"\n== {names[last.closer]} closes: {s.outcome.replace('_', ' ')} ==")
    results = [s.closer, *s.opponents]
    for pos, seat in enumerate(last.order):
        r = results[pos]
        melds = "  ".join(f"[{m}]" for m in r.melds) or "-"
        lay = getattr(r, "layoffs", ())
        extra = ("  laid off " + " ".join(str(c) for c, _ in lay)) if lay else ""
        left = " ".join(str(c) for c in r.unmatched) or "-"
        print(f"  {names[seat]:<10} melds {melds}{extra}  left {left}  "
              f"points {last.points[seat]:+d}")
    print("  totals: " + ", ".join(
        f"{names[i]} {t}{'' if game.in_game[i] else ' (out)'}"
        for i, t in enumerate(game.totals)))


def _human_turn(game: Any, me: int) -> None:
    hand = " ".join(str(c) for c in game.hand(me))
    top = game.discard_top
    print(f"\nYour hand: {hand}")
    print(f"Discard pile: {top if top is not None else '(empty)'}   stock: {game.stock_size}"
          f"   totals: {list(game.totals)}")
    while True:
        choice = _ask(f"Draw from [s]tock or [d]iscard ({top})? " if top is not None
                      else "Draw from [s]tock? ")
        if choice in ("q", "quit"):
            raise _EndOfInput
        source = {"s": "stock", "stock": "stock", "d": "discard", "discard": "discard"}.get(
            choice)
        if source is None or (source == "discard" and top is None):
            print("  type s or d")
            continue
        card = game.draw(source)
        print(f"You drew {card}.")
        break
    hints = game.hints()
    options: list[Any] = []
    for h in hints:
        if options and options[-1].card is h.card:
            continue
        options.append(h)
    best = min(h.points for h in options)
    print("Your hand: " + " ".join(str(c) for c in game.hand(me)))
    print("   #  discard  points left")
    for k, h in enumerate(options, 1):
        close_note = f"   [c] Close: {h.outcome.replace('_', ' ')}" if h.can_close else ""
        star = " *" if h.points == best else ""
        print(f"  {k:>2}  {str(h.card):>6}  {h.points:>6}{star}{close_note}")
    can_close = any(h.can_close for h in options)
    prompt = ("Discard which card (number or card; add c to Close)? " if can_close
              else "Discard which card (number or card)? ")
    while True:
        words = _ask(prompt).replace(",", " ").split()
        if words[:1] in (["q"], ["quit"]):
            raise _EndOfInput
        close = any(w in ("c", "close") for w in words)
        rest = [w for w in words if w not in ("c", "close")]
        if len(rest) != 1:
            print("  give one card")
            continue
        pick = None
        if rest[0].isdigit() and 1 <= int(rest[0]) <= len(options):
            pick = options[int(rest[0]) - 1]
        else:
            for h in options:
                if str(h.card) == rest[0] or str(h.card) == str(_try_card(rest[0])):
                    pick = h
        if pick is None:
            print("  not a card you hold")
            continue
        if close and not pick.can_close:
            print(f"  you cannot close discarding {pick.card}")
            continue
        game.discard(pick.card, close)
        print(f"You {'close with' if close else 'discard'} {pick.card}.")
        return


def _try_card(text: str) -> Any:
    from .cards import Card

    try:
        return Card.parse(text)
    except ValueError:
        return None


def _cmd_play(args: argparse.Namespace) -> int:
    from .bots import make_bot
    from .game import Game

    game = Game(args.players, seed=args.seed)
    me = 0
    names = ["You"] + [f"Bot {i}" for i in range(1, args.players)]
    bots = [make_bot(args.bots, None if args.seed is None else args.seed + s)
            for s in range(args.players)]
    print(f"Chinchón, {args.players} players, {game.decks} deck"
          f"{'s' if game.decks > 1 else ''}. You are seat 0. Seed {game.seed}.")
    shown = 0
    try:
        while game.result is None:
            if game.hand_number != shown and game.phase == "draw":
                shown = game.hand_number
                print(f"\n--- hand {shown}: {names[game.lead]} lead"
                      f"{'' if game.lead == me else 's'} ---")
            phase = game.phase
            if phase == "summary":
                _show_hand_result(game, names)
                if not game.in_game[me] and game.chips[me] > 0:
                    high = max(t for t, i in zip(game.totals, game.in_game) if i)
                    if _ask(f"You are out. Rejoin at {high} points "
                            f"({game.chips[me]} chips left)? [y/n] ") in ("y", "yes"):
                        game.rejoin(me)
                for seat in range(1, args.players):
                    if (not game.in_game[seat] and game.chips[seat] > 0
                            and bots[seat].choose_rejoin(game, seat)):
                        game.rejoin(seat)
                        print(f"{names[seat]} rejoins at {game.totals[seat]}.")
                game.next_hand()
                continue
            seat = cast(int, game.turn)  # draw or discard phase: someone's turn
            if seat == me:
                _human_turn(game, me)
            elif phase == "draw":
                source = bots[seat].choose_draw(game, seat)
                card = game.draw(source)
                print(f"{names[seat]} draws from the {source}"
                      + (f" ({card})" if source == "discard" else "") + ".")
            else:
                card, close = bots[seat].choose_discard(game, seat)
                game.discard(card, close)
                print(f"{names[seat]} {'closes' if close else 'discards ' + str(card)}.")
            if game.result is not None and game.last_hand is not None:
                _show_hand_result(game, names)
        r = game.result
        if r.status == "won":
            winner = cast(int, r.winner)  # a won game always names its winner
            print(f"\n{names[winner]} win{'' if winner == me else 's'} the game!")
        else:
            print(f"\nThe game ends: {r.status}.")
    except _EndOfInput:
        print("Bye.")
    return 0


def _card_options(p: argparse.ArgumentParser, decks_default: str) -> None:
    """The options shared by the commands that take cards: decks, close limit, JSON."""
    p.add_argument("--decks", type=int, choices=(1, 2), default=None,
                   help=f"1 or 2 decks (default: {decks_default})")
    p.add_argument("--close-limit", type=int, default=5, help="close allowed up to (5)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="chinchon", description="Chinchón engine: hints, settlement, games.")
    parser.add_argument("--version", action="version", version=f"chinchon {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "hint",
        help="best melds of a hand and, for 8 cards, what each discard leaves",
        description="Best melds of a 7- or 8-card hand; with 8 cards, the points left "
        "after each discard and whether it allows closing (* marks the best).",
    )
    p.add_argument("hand", help='the cards, e.g. "7o 7c 7b 9e 10e 11e 4o 5b"')
    _card_options(p, "2 if a card appears twice")
    p.set_defaults(func=_cmd_hint)

    p = sub.add_parser(
        "settle",
        help="settle a closed hand: melds, lay-offs and points per seat",
        description="The settlement of a closed hand: the closer's melds, then each "
        "opponent in play order puts down their melds and lays off optimally onto the "
        "table (SPEC section 4). Table melds are numbered #0, #1, ... as put down.",
    )
    p.add_argument("--closer", required=True, help='the closer\'s 7 kept cards, e.g. "7o 7c 7b 9e 10e 11e 4o"')
    p.add_argument("--opponent", action="append", metavar="CARDS",
                   help="an opponent's 7 cards; repeat in play order (1 to 5)")
    _card_options(p, "2 if a card appears twice or 5+ players")
    p.set_defaults(func=_cmd_settle)

    p = sub.add_parser(
        "simulate",
        help="play many games between bots and print statistics",
        description="Whole games between bots, reproducible from --seed whatever --jobs.",
    )
    p.add_argument("--games", type=int, default=1000, help="number of games (1000)")
    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3-6",
                   help="players per table (4)")
    p.add_argument("--bots", default="greedy",
                   help="one bot for every seat or a comma list, one per seat "
                        "(greedy, random); default greedy")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    p.add_argument("--seed", type=int, default=0, help="simulation seed (0)")
    p.add_argument("--max-turns", type=int, default=1000,
                   help="a hand reaching this many turns stalls its game (1000)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description="You are seat 0; the bots take the other seats. Reads your moves "
                    "from stdin (q or end of input quits).",
    )
    p.add_argument("--players", type=int, default=3, choices=range(3, 7), metavar="3-6",
                   help="players at the table, you included (3)")
    p.add_argument("--bots", default="greedy", help="the bots' kind: greedy or random")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    p.set_defaults(func=_cmd_play)

    # the table server lives in chinchon.server (an optional extra); this is its hook
    from .server.cli import add_arguments as _serve_arguments, main as _serve_main

    p = sub.add_parser(
        "serve",
        help='host tables in the browser (needs pip install "chinchon[server]")',
        description="Run the table server: a web page and a WebSocket JSON protocol "
                    "(docs/protocol.md); tables are kept in SQLite and resumed on restart.",
    )
    _serve_arguments(p)
    p.set_defaults(func=_serve_main)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    from .errors import ChinchonError

    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except ChinchonError as exc:
        print(f"chinchon {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
