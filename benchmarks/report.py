"""Turn a pytest-benchmark JSON file into the README's table: ns per hand (median),
and the native/reference ratio measured in the same run.

Usage: python benchmarks/report.py bench.json
       python benchmarks/report.py --variants v1.json [v2.json ...]   (bench_variants.py's
       rows: the joker rows against the joker-free rows of the same run, and those
       against the house rules on the same hands; several runs: the median ratio)
       python benchmarks/report.py --simd s1.json [s2.json ...]   (bench_simd.py's
       rows: each SIMD path's ns a hand and its speed-up over the scalar path of the
       same run; several runs: the median speed-up)
       python benchmarks/report.py --plain p1.json [p2.json ...]   (bench_variants.py's
       test_plain_rows: rows without a joker under fifty against the house rules)
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


def variant_rows(path: str) -> dict[tuple[str, str, int], dict[str, float]]:
    """bench_variants.py's native rows of one run: (op, rules, decks) -> {j0, j1, j2,
    house: seconds per row (median)}."""
    rows: dict[tuple[str, str, int], dict[str, float]] = defaultdict(dict)
    for b in json.load(open(path))["benchmarks"]:
        info, params = b["extra_info"], b["params"] or {}
        if (params.get("impl_name") or "native") != "native" or "name" not in params:
            continue
        key = "house" if info.get("rules") == "house" else f"j{params.get('jokers', 0)}"
        rows[(info["op"], params["name"], params["decks"])][key] = (
            b["stats"]["median"] / info["rows"])
    return rows


def variants(paths: list[str]) -> None:
    """The rule variants' table from one or more runs of bench_variants.py: each ratio
    is taken within a run (this shared machine's speed drifts between runs), then its
    median over the runs, with the range where there are several; times are medians of
    the runs' medians."""
    runs = [variant_rows(p) for p in paths]

    def mid(values: list[float]) -> float:
        v = sorted(values)
        return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2

    def ratio(key: str, over: str, row: tuple[str, str, int]) -> str:
        rs = [r[row][key] / r[row][over] for r in runs
              if key in r.get(row, {}) and over in r.get(row, {})]
        if not rs:
            return ""
        span = f", {min(rs):.2f}–{max(rs):.2f}" if len(rs) > 1 else ""
        return f"{mid(rs):.2f}×{span}"

    print(f"{len(runs)} run(s); ratios within each run, their median (and range)\n")
    print("| workload | no joker | 1 joker | 2 jokers | no joker, against the house rules "
          "on the same hands |")
    print("|---|---|---|---|---|")
    for row in sorted(set().union(*runs)):
        def cell(key: str, over: str = "j0") -> str:
            ts = [r[row][key] for r in runs if key in r.get(row, {})]
            if not ts:
                return "-"
            q = ratio(key, over, row)
            return f"{fmt(mid(ts))} ({q})" if q and key != over else fmt(mid(ts))

        op, name, decks = row
        print(f"| `{op}`, {name}, {decks} deck{'s' if decks == 2 else ''} | {cell('j0')} | "
              f"{cell('j1')} | {cell('j2')} | {ratio('j0', 'house', row) or '-'} |")


def simd_rows(path: str) -> dict[tuple[str, str], dict[str, float]]:
    """bench_simd.py's rows of one run: (op, workload) -> {path: seconds per row}."""
    rows: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for b in json.load(open(path))["benchmarks"]:
        info = b["extra_info"]
        if "simd" in info:
            rows[(info["op"], info["workload"])][info["simd"]] = (
                b["stats"]["median"] / info["rows"])
    return rows


def simd(paths: list[str]) -> None:
    """bench_simd.py's table from one or more runs: per operation and workload, each
    path's median ns a hand and its speed-up over the scalar path, each speed-up taken
    within a run, then its median over the runs (and the range where there are several);
    times are medians of the runs' medians."""
    runs = [simd_rows(p) for p in paths]
    keys = sorted(set().union(*runs))
    names = [p for p in ("scalar", "avx2", "avx512", "neon")
             if any(p in r.get(k, {}) for r in runs for k in keys)]

    def mid(values: list[float]) -> float:
        v = sorted(values)
        return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2

    print(f"{len(runs)} run(s); speed-ups over the scalar path within each run, their "
          "median (and range)\n")
    print("| operation | workload | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for key in keys:
        cells = []
        for p in names:
            ts = [r[key][p] for r in runs if p in r.get(key, {})]
            if not ts:
                cells.append("-")
                continue
            ups = [r[key]["scalar"] / r[key][p] for r in runs
                   if p in r.get(key, {}) and "scalar" in r.get(key, {})]
            cell = fmt(mid(ts))
            if p != "scalar" and ups:
                span = f", {min(ups):.2f}–{max(ups):.2f}" if len(ups) > 1 else ""
                cell += f" ({mid(ups):.2f}×{span})"
            cells.append(cell)
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")


def plain(paths: list[str]) -> None:
    """test_plain_rows: per batch and deck count, fifty's time a row, the house rules'
    and their ratio within a run, several runs: the median ratio. Times are each test's
    fastest round: on this shared machine the median swings by 20% with the other
    processes' load, the fastest round by 1-5%."""
    ratios: dict[str, list[float]] = defaultdict(list)
    times: dict[str, dict[str, float]] = {}
    for path in paths:
        run: dict[str, dict[str, float]] = defaultdict(dict)
        for b in json.load(open(path))["benchmarks"]:
            info = b["extra_info"]
            if "pair" in info:
                run[info["pair"]][info["rules"]] = b["stats"]["min"] / info["rows"]
        for pair, r in run.items():
            if "fifty" in r and "barajamos" in r:
                ratios[pair].append(r["fifty"] / r["barajamos"])
                times[pair] = r
    print(f"{len(paths)} run(s); fastest rounds; the ratio within each run, its median\n")
    print("| rows without a joker | fifty | house rules | fifty / house |")
    print("|---|---|---|---|")
    for pair in sorted(ratios):
        rs = sorted(ratios[pair])
        print(f"| `{pair}` | {fmt(times[pair]['fifty'])} | {fmt(times[pair]['barajamos'])} | "
              f"{rs[len(rs) // 2]:.2f}× |")


if __name__ == "__main__":
    if sys.argv[1] == "--variants":
        variants(sys.argv[2:])
    elif sys.argv[1] == "--simd":
        simd(sys.argv[2:])
    elif sys.argv[1] == "--plain":
        plain(sys.argv[2:])
    else:
        main(sys.argv[1])
