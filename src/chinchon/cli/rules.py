"""``chinchon rules``: the named rule presets and their fields, as a table or JSON."""

from __future__ import annotations

import argparse
import json
from dataclasses import fields
from typing import Any

from ..rules import HOUSE_POINTS, PRESET_DESCRIPTIONS, PRESETS, Rules



def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "rules",
        help="list the rule presets and their fields",
        description="The named rule presets (--rules NAME in the other commands) and the "
        "value of every field of each; a field differing from the house rules is marked *.",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "rank" if value == HOUSE_POINTS else ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({name: {"source": PRESET_DESCRIPTIONS[name], "fields": r.to_dict()}
                          for name, r in PRESETS.items()}))
        return 0
    names = list(PRESETS)
    house = Rules()
    width = max(len(f.name) for f in fields(Rules))
    cols = [max(len(n), 8) for n in names]
    print(f"{'field':<{width}}  " + "  ".join(f"{n:<{w}}" for n, w in zip(names, cols)))
    for f in fields(Rules):
        cells = []
        for name, w in zip(names, cols):
            value = getattr(PRESETS[name], f.name)
            mark = "*" if value != getattr(house, f.name) else ""
            cells.append(f"{_text(value) + mark:<{w}}")
        print(f"{f.name:<{width}}  " + "  ".join(cells))
    print()
    for name in names:
        print(f"{name:<10} {PRESET_DESCRIPTIONS[name]}")
    return 0
