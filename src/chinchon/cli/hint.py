"""``chinchon hint``: the best melds of a 7- or 8-card hand and what each discard leaves."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._args import check_unseen
from .._backend import IMPLEMENTATION, best_melds, close_outcome, discard_hints, outlook
from ..cards import Hand
from ..errors import CardCountError, ChinchonError
from ..results import one_per_card
from ._common import card_options, rules_of


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "hint",
        help="best melds of a hand and, for 8 cards, what each discard leaves",
        description="Best melds of a 7- or 8-card hand; with 8 cards, the points left "
        "after each discard and whether it allows closing (* marks the best).",
    )
    p.add_argument("hand", help='the cards, e.g. "7o 7c 7b 9e 10e 11e 4o 5b"')
    p.add_argument("--outlook", action="store_true",
                   help="with 8 cards, also each discard's outlook: the expected points "
                        "and the chances of a close after the next draw")
    p.add_argument("--unseen", default=None,
                   help="with --outlook, the cards the next draw may be (default: every "
                        "card of the deck not in the hand)")
    card_options(p, "2 if a card appears twice")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    hand = Hand(args.hand, decks=args.decks)
    if len(hand) not in (7, 8):
        raise CardCountError(f"a hint needs 7 or 8 cards, got {len(hand)}: "
                             f"{hand or '(no cards)'}")
    if args.outlook:
        if len(hand) != 8:
            raise CardCountError(f"--outlook needs 8 cards, got {len(hand)}: {hand}")
        if args.decks is None:  # the unseen cards may make it two decks, as outlook infers
            hand = check_unseen(hand, args.unseen, None, rules, 8)[0]
    elif args.unseen is not None:
        raise ChinchonError("--unseen goes with --outlook")
    hints = discard_hints(hand, rules=rules) if len(hand) == 8 else None
    ahead = outlook(hand, args.unseen, decks=hand.decks, rules=rules) if args.outlook else None
    arrangement = best_melds(hand, rules=rules)
    shown = arrangement.table_order()
    outcome = close_outcome(hand, rules=rules) if hints is None else None
    if args.json:
        out: dict[str, Any] = {
            "hand": [str(c) for c in shown],
            "decks": hand.decks,
            "arrangement": arrangement.to_dict(),
            "deadwood": arrangement.points,
            "hints": None if hints is None else [h.to_dict() for h in hints],
            # 7 cards: how the hand would close (None: it may not), as the text's "close:"
            **({} if hints is not None else {"close": outcome}),
            **({} if ahead is None else {"outlook": [x.to_dict() for x in ahead]}),
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
        print("close:    " + (outcome if outcome else f"no (over {rules.close_limit})"))
        return 0
    if ahead is not None:
        return _print_outlook(ahead)
    print("discard   points left   close")
    best = min(h.points for h in hints)
    for h in sorted(one_per_card(hints), key=lambda h: (h.points, h.card.index)):
        mark = h.outcome.replace("_", " ") if h.outcome else ""
        star = " *" if h.points == best else ""
        print(f"{str(h.card):>7}   {h.points:>11}   {mark}{star}")
    return 0


def _print_outlook(lines: list[Any]) -> int:
    """The outlook table: one line per distinct card, the best expected points first
    (* marks it); the chances after the next draw and the best discard then."""
    print(f"next draw: one of {lines[0].draws} unseen cards, then the best discard")
    print("discard   points left   close        expected   may close   minus ten   chinchon")
    best = min(x.expected_points for x in lines)
    seen = set()
    for x in sorted(lines, key=lambda x: (x.expected_points, x.points, x.card.index)):
        if x.card in seen:
            continue
        seen.add(x.card)
        mark = x.outcome.replace("_", " ") if x.outcome else ""
        star = " *" if x.expected_points == best else ""
        print(f"{str(x.card):>7}   {x.points:>11}   {mark:<10}  {x.expected_points:>8.2f}"
              f"   {x.p_close:>9.1%}   {x.p_minus_ten:>9.1%}   {x.p_chinchon:>8.1%}{star}")
    return 0
