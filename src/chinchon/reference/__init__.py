"""The pure-Python reference implementation of chinchon: the solver only.

Written for clarity, independent of the C core's bit tricks: it enumerates every meld,
every way of combining them and every lay-off plan, and picks the best by the explicit
keys of docs/rules.md#which-arrangement-is-reported. The tests use it as the oracle, the benchmarks as the baseline,
and the package falls back to it where the native extension cannot load
(``CHINCHON_IMPLEMENTATION=python`` forces it). It has the same functions, arguments,
results and errors as the native module ``chinchon._core``, under every rules value of
docs/rules.md#rule-variants (the native module runs the variants it does not know on this one).
"""

from __future__ import annotations

from .._args import SOLVER_FUNCTIONS
from .melds import arrange as arrange
from .melds import arrangement as arrangement
from .melds import best_melds as best_melds
from .melds import candidate_melds as candidate_melds
from .melds import close_outcome as close_outcome
from .melds import deadwood as deadwood
from .melds import deadwood_batch as deadwood_batch
from .melds import discard_hints as discard_hints
from .melds import hints_batch as hints_batch
from .outlook import OUTLOOK_COLUMNS as OUTLOOK_COLUMNS
from .outlook import draw_outlook as draw_outlook
from .outlook import outlook as outlook
from .outlook import outlook_batch as outlook_batch
from .settle import settle as settle

IMPLEMENTATION = "python"

__all__ = ["IMPLEMENTATION", *SOLVER_FUNCTIONS, "OUTLOOK_COLUMNS", "candidate_melds", "arrange",
           "arrangement"]
