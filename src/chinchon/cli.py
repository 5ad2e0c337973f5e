"""The ``chinchon`` command line.

Subcommands: ``hint`` (best melds and discard hints of a hand), ``settle`` (the
settlement of a closed hand: melds, lay-offs, points per seat). Each subcommand is a
``_cmd_*`` function registered in :func:`build_parser`. Bad input prints one line on
stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, Callable, Optional

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
    p.add_argument("--decks", type=int, choices=(1, 2), default=None,
                   help="1 or 2 decks (default: 2 if a card appears twice)")
    p.add_argument("--close-limit", type=int, default=5, help="close allowed up to (5)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
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
    p.add_argument("--decks", type=int, choices=(1, 2), default=None,
                   help="1 or 2 decks (default: 2 if a card appears twice or 5+ players)")
    p.add_argument("--close-limit", type=int, default=5, help="close allowed up to (5)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_settle)
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
