"""Turn a pytest-benchmark JSON file into the README's table: ns per hand (median),
and the native/reference ratio measured in the same run.

Usage: python benchmarks/report.py bench.json
       python benchmarks/report.py --variants v.json   (bench_variants.py's rows: the
       joker rows against the joker-free rows of the same run, and those against the
       house rules on the same hands)
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e9:.1f} ns" if seconds < 1e-5 else f"{seconds * 1e6:.1f} µs"


def main(path: str) -> None:
    data = json.load(open(path))
    rows: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for b in data["benchmarks"]:
        info, params = b["extra_info"], b["params"] or {}
        impl = params.get("impl_name") or params.get("impl") or "native"
        op = info.get("op") or b["name"].split("[")[0].removeprefix("test_")
        workload = info.get("workload") or params.get("deal") or params.get("workload") or "-"
        rows[(op, workload)][impl] = b["stats"]["median"] / info.get("rows", 1)
    print("| operation | workload | native (median) | reference (median) | ratio |")
    print("|---|---|---|---|---|")
    for (op, workload), r in sorted(rows.items()):
        nat, ref = r.get("native"), r.get("python")
        ratio = f"{ref / nat:,.0f}×" if nat and ref else "-"
        print(f"| {op} | {workload} | {fmt(nat)} | {fmt(ref)} | {ratio} |")


def variants(path: str) -> None:
    """The rule variants' table: native medians per row of bench_variants.py."""
    data = json.load(open(path))
    rows: dict[tuple[str, str, int], dict[str, float]] = defaultdict(dict)
    for b in data["benchmarks"]:
        info, params = b["extra_info"], b["params"] or {}
        if (params.get("impl_name") or "native") != "native" or "name" not in params:
            continue
        jokers = params.get("jokers", 0)
        key = "house" if info.get("rules") == "house" else f"j{jokers}"
        rows[(info["op"], params["name"], params["decks"])][key] = (
            b["stats"]["median"] / info["rows"])
    print("| workload | no joker | 1 joker | 2 jokers | no joker: house rules on the same "
          "hands |")
    print("|---|---|---|---|---|")
    for (op, name, decks), r in sorted(rows.items()):
        free = r.get("j0")

        def cell(key: str) -> str:
            t = r.get(key)
            return "-" if t is None else f"{fmt(t)} ({t / free:.1f}×)" if free else fmt(t)

        house = r.get("house")
        same = f"{fmt(house)} (variant {free / house:.2f}×)" if house and free else "-"
        print(f"| `{op}`, {name}, {decks} deck{'s' if decks == 2 else ''} | {fmt(free)} | "
              f"{cell('j1')} | {cell('j2')} | {same} |")


if __name__ == "__main__":
    if sys.argv[1] == "--variants":
        variants(sys.argv[2])
    else:
        main(sys.argv[1])
