"""Turn a pytest-benchmark JSON file into the README's table: ns per hand (median),
and the native/reference ratio measured in the same run.

Usage: python benchmarks/report.py bench.json
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


if __name__ == "__main__":
    main(sys.argv[1])
