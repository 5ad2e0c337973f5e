"""``chinchon settle``: the settlement of a closed hand, as a table shows it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._backend import IMPLEMENTATION, settle
from ..results import Meld, seat_label
from ._common import card_options, rules_of


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "settle",
        help="settle a closed hand: melds, lay-offs and points per seat",
        description="The settlement of a closed hand: the closer's melds, then each "
        "opponent in play order puts down their melds and lays off optimally onto the "
        "table (docs/rules.md#laying-off). Table melds are numbered #0, #1, ... as put down.",
    )
    p.add_argument("--closer", required=True,
                   help='the closer\'s 7 kept cards, e.g. "7o 7c 7b 9e 10e 11e 4o"')
    p.add_argument("--opponent", action="append", metavar="CARDS",
                   help="an opponent's 7 cards; repeat in play order (1 to 5)")
    card_options(p, "2 if a card appears twice or 5+ players")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    result = settle(args.closer, args.opponent or [], decks=args.decks, rules=rules)
    if args.json:
        out = result.to_dict()
        out["implementation"] = IMPLEMENTATION
        print(json.dumps(out))
        return 0
    outcome = {"normal": "normal close", "minus_ten": "minus ten (the closer's melds are locked)",
               "chinchon": "chinchón: the closer wins the game",
               "joker_chinchon": "chinchón with a joker (the closer's melds are locked)",
               }[result.outcome]
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
            print(f"            lays {card} on #{t} ({seat_label(result.table[t].owner)}'s "
                  f"{result.table[t].kind})")
        if opp.melds:
            first = index
            index += len(opp.melds)
            print(f"            puts down #{first}" + (f"-#{index - 1}" if index - first > 1 else ""))
    print("table:")
    for t, meld in enumerate(result.table):
        lock = "" if meld.open else "  (locked)"
        shown = str(Meld(meld.kind, meld.cards, meld.joker, meld.joker_rank))
        print(f"  #{t:<2} {meld.kind:<3}  {shown:<30} {seat_label(meld.owner)}{lock}")
    print("points:")
    for k, pts in enumerate(result.points):
        print(f"  {seat_label(k):<11} {pts:>4}")
    return 0
