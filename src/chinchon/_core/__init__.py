"""The native implementation of chinchon: the compiled binding over the C core (csrc/).

One compiled module per subject, over one declaration of the C header
(``chinchon.pxd``) and the helpers they share (``_common``: rules, the hand fast path,
statuses; ``_results``: every result object made of a C struct; ``_hands``: the native
constructors of Hand and Card, installed on import):

- :mod:`.melds`: deadwood, best melds, close outcome, discard hints, and their batches
- :mod:`.settlement`: the settlement of a closed hand
- :mod:`.outlooks`: the outlook, hints one draw ahead
- :mod:`.rng`: the game's random generator (for :mod:`chinchon.game.rng`)
- :mod:`.engine`: whole games between the built-in bots (for the simulations)

This package has the solver functions, with the same arguments, results and errors as
:mod:`chinchon.reference`; in the package, :mod:`chinchon._backend` alone imports it.
Importing it fails with ``ImportError`` where the extension was not built; ``chinchon``
then falls back to the reference.
"""

import importlib

from .._args import SOLVER_FUNCTIONS

# installs the native Hand and Card constructors; imported by its full name, so that
# where it was not built the error is ModuleNotFoundError naming it (``from . import``
# would say "cannot import name", as if the package had a circular import)
importlib.import_module(f"{__name__}._hands")
from .melds import (best_melds, close_outcome, deadwood, deadwood_batch, discard_hints,
                    hints_batch)
from .outlooks import draw_outlook, outlook, outlook_batch
from .settlement import settle

#: always ``'native'`` here
IMPLEMENTATION = "native"

__all__ = ["IMPLEMENTATION", *SOLVER_FUNCTIONS]
