"""The Python boundary: one native call per accepted input form, and the baselines.

Every form of the same hand should cost about what the Hand call costs (issue 25, part 1):
the ratios are to ``deadwood(Hand)`` / ``discard_hints(Hand)`` / ``outlook(hand, Hand)``
and, for Hand construction, to an empty Python function call measured in the same run.

Run: ``python -m pytest benchmarks/bench_boundary.py --benchmark-json=boundary.json``
then ``python benchmarks/bench_boundary.py boundary.json`` for the table.
"""

from __future__ import annotations

import json
import sys

import pytest

from chinchon import Card, Hand
from chinchon.cards import full_deck

try:
    from chinchon import _core as native
except ImportError:  # pragma: no cover - the boundary is the native module's
    native = None

# warm-up rounds first: without them the session's first benchmark, deadwood(Hand), the
# denominator of the first ratios, measured twice its time (121 ns against 56 ns)
pytestmark = [pytest.mark.skipif(native is None, reason="native module not built"),
              pytest.mark.benchmark(warmup=True)]

TEXT7 = "7o 7c 7b 9e 10e 11e 4o"
TEXT8 = TEXT7 + " 12b"
STRS7 = TEXT7.split()
STRS8 = TEXT8.split()
HAND7 = Hand(TEXT7)
HAND8 = Hand(TEXT8)
CARDS7 = [Card.parse(t) for t in STRS7]
CARDS8 = [Card.parse(t) for t in STRS8]
MASK7 = HAND7.mask
PAIR7 = Hand("7o 7o 7b 9e 10e 11e 4o").mask  # a double-deck (once, twice)
UNSEEN = Hand([c for c in full_deck() if c not in HAND8][:40])
UNSEEN_CARDS = list(UNSEEN)
UNSEEN_STRS = [str(c) for c in UNSEEN]


def _empty(x):
    return x


FORMS = {
    "deadwood": ((), {
        "Hand": HAND7, "list of Card": CARDS7, "text": TEXT7, "list of str": STRS7}),
    "discard_hints": ((), {
        "Hand": HAND8, "list of Card": CARDS8, "text": TEXT8, "list of str": STRS8}),
    "outlook": ((HAND8,), {
        "Hand": UNSEEN, "list of Card": UNSEEN_CARDS, "list of str": UNSEEN_STRS}),
}


@pytest.mark.parametrize("form", ["Hand", "list of Card", "text", "list of str"])
@pytest.mark.parametrize("op", ["deadwood", "discard_hints", "outlook"])
def test_boundary(benchmark, op, form):
    before, args = FORMS[op]
    if form not in args:
        pytest.skip("not a form of this argument")
    call = getattr(native, op)
    arg = args[form]
    benchmark.extra_info.update(op=op, form=form)
    got = benchmark(call, *before, arg)
    # the same answer as the Hand form (hints in the order given: compared as sets)
    want = call(*before, args["Hand"])
    assert got == want if op == "deadwood" else sorted(map(repr, got)) == sorted(map(repr, want))


def test_empty_function(benchmark):
    benchmark.extra_info.update(op="baseline", form="empty function")
    benchmark(_empty, MASK7)


def test_from_mask(benchmark):
    benchmark.extra_info.update(op="Hand.from_mask", form="int")
    assert benchmark(Hand.from_mask, MASK7) == HAND7


def test_from_mask_pair(benchmark):
    benchmark.extra_info.update(op="Hand.from_mask", form="(once, twice)")
    assert benchmark(Hand.from_mask, PAIR7).mask == PAIR7


def test_trusted(benchmark):
    benchmark.extra_info.update(op="Hand.trusted", form="int, 0, 1")
    assert benchmark(Hand.trusted, MASK7, 0, 1) == HAND7


def test_card_text(benchmark):
    benchmark.extra_info.update(op="Card", form="text")
    assert benchmark(Card, "7o") is CARDS7[0]


def test_hand_text(benchmark):
    benchmark.extra_info.update(op="Hand", form="text")
    assert benchmark(Hand, TEXT7) == HAND7


def test_hand_cards(benchmark):
    benchmark.extra_info.update(op="Hand", form="list of Card")
    assert benchmark(Hand, CARDS7) == HAND7


#: the issue's targets (ratios in one run): to the Hand form of the call, or to an empty call
LIMITS = {("deadwood", "list of Card"): 2, ("deadwood", "text"): 4,
          ("deadwood", "list of str"): 4, ("discard_hints", "list of Card"): 2,
          ("discard_hints", "text"): 4, ("discard_hints", "list of str"): 4,
          ("outlook", "list of Card"): 1.5, ("Hand.from_mask", "int"): 3,
          ("Hand", "text"): 12}


def report(path: str) -> None:
    """The table of medians and ratios of a --benchmark-json file (with the target
    ratio where the issue sets one)."""
    rows = {}
    for b in json.load(open(path))["benchmarks"]:
        info = b["extra_info"]
        rows[info["op"], info["form"]] = b["stats"]["median"] * 1e9
    base = rows[("baseline", "empty function")]
    print("| call | form | median | ratio | target |\n|---|---|---|---|---|")
    for (op, form), ns in rows.items():
        if op in FORMS:
            ref, what = rows[(op, "Hand")], f"{op}(Hand)"
        else:
            ref, what = base, "empty call"
        limit = LIMITS.get((op, form))
        print(f"| {op} | {form} | {ns:,.0f} ns | {ns / ref:.2f}× {what} | "
              f"{f'≤ {limit}×' if limit else '-'} |")


if __name__ == "__main__":
    report(sys.argv[1])
