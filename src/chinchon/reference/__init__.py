"""The pure-Python reference implementation of chinchon: the solver only.

Written for clarity, independent of the C core's bit tricks: it enumerates every meld,
every way of combining them and every lay-off plan, and picks the best by the explicit
keys of docs/design.md. The tests use it as the oracle, the benchmarks as the baseline,
and the package falls back to it where the native extension cannot load
(``CHINCHON_IMPLEMENTATION=python`` forces it). It has the same functions, arguments,
results and errors as the native module ``chinchon._core``, under every rules value of
SPEC section 9 (the native module runs the variants it does not know on this one).
"""

from __future__ import annotations

from .melds import (
    arrange,
    arrangement,
    best_melds,
    candidate_melds,
    close_outcome,
    deadwood,
    deadwood_batch,
    discard_hints,
    hints_batch,
)
from .settle import settle

IMPLEMENTATION = "python"

__all__ = [
    "IMPLEMENTATION",
    "deadwood",
    "best_melds",
    "discard_hints",
    "close_outcome",
    "deadwood_batch",
    "hints_batch",
    "settle",
    "candidate_melds",
    "arrange",
    "arrangement",
]
