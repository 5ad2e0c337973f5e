"""The native implementation of chinchon: the compiled binding over the C core.

The functions are those of :mod:`chinchon._core._binding` (built from ``_binding.pyx``
over ``csrc/``), with the same arguments, results and errors as
:mod:`chinchon.reference`. Importing this package fails with ``ImportError`` where the
extension was not built; ``chinchon`` then falls back to the reference.
"""

from ._binding import *  # noqa: F403  (IMPLEMENTATION and the solver functions)
from ._binding import __all__
