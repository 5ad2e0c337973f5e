"""Which implementation the package's solver functions are: native or reference.

The native C core (:mod:`chinchon._core`) is used when it loads; otherwise the package
falls back to the pure-Python reference (:mod:`chinchon.reference`) with a
``RuntimeWarning``. The environment variable ``CHINCHON_IMPLEMENTATION`` forces one:
``native`` (fail if it cannot load) or ``python``.

The native batch kernels (``deadwood_batch``, ``hints_batch``) run on a SIMD path chosen
once, here, at import: the fastest the CPU runs (AVX-512, AVX2, NEON, else scalar), or
the one ``CHINCHON_SIMD`` names (``auto``, ``scalar``, ``avx2``, ``avx512``, ``neon``);
:func:`simd` says which. Every path gives the same answers.

Every layer above the solver (the game, the bots, the CLI, the server) calls the
solver through this module, never through the package's ``__init__``; the game's C
generator and the C game engine are reached through :func:`native` (nothing else
imports :mod:`chinchon._core`). The docstrings live once, on the reference's functions,
and are copied onto the compiled ones.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import reference
from ._args import SOLVER_FUNCTIONS

#: the solver functions both implementations provide, with the same signatures
FUNCTIONS = SOLVER_FUNCTIONS

__all__ = ["IMPLEMENTATION", "FUNCTIONS", "SIMD_PATHS", "native", "simd", *FUNCTIONS]

#: every SIMD path name ``CHINCHON_SIMD`` knows (a build runs those of its architecture)
SIMD_PATHS = ("scalar", "avx2", "avx512", "neon")

_CORE = f"{__package__}._core"


def _load_native(required: bool) -> ModuleType | None:
    """The native module, or None (with a warning) where it cannot be used."""
    try:
        from . import _core
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith(f"{_CORE}."):  # not a compiled module missing
            raise
        missing = "is not installed (this install built no C extension)"
        if required:
            raise ImportError(
                f"CHINCHON_IMPLEMENTATION=native but the extension {missing}") from None
        why = f"it {missing}"
    except ImportError as exc:
        if required:
            raise
        why = f"it failed to load: {exc}"
    else:
        for name in FUNCTIONS:  # one docstring per function: the reference's
            getattr(_core, name).__doc__ = getattr(reference, name).__doc__
        return _core
    warnings.warn(
        f"chinchon: the native extension chinchon._core is not used because {why}; "
        "running on the pure-Python implementation, which is much slower",
        RuntimeWarning,
        stacklevel=4,
    )
    return None


def native(name: str) -> Any:
    """The compiled module ``chinchon._core.<name>`` beyond the solver functions:
    ``"rng"`` (the game's generator in C), ``"engine"`` (whole games between the
    built-in bots) or ``"vecenv"`` (the learning tables of ``chinchon.rl.VectorEnv``); None where the extension is not built or does not load. Whatever
    :data:`IMPLEMENTATION` is: the C engine runs when asked for by name."""
    try:
        return importlib.import_module(f"{_CORE}.{name}")
    except ImportError:
        return None


def _load_implementation() -> ModuleType:
    choice = os.environ.get("CHINCHON_IMPLEMENTATION", "auto").strip().lower()
    if choice in ("python", "py", "reference", "pure"):
        return reference
    if choice not in ("auto", "", "native", "c"):
        raise ImportError(
            f"CHINCHON_IMPLEMENTATION={choice!r}: expected 'native', 'python' or 'auto'"
        )
    return _load_native(required=choice in ("native", "c")) or reference


if TYPE_CHECKING:
    # For type checkers the functions below are the reference's: the native module's
    # stub gives them the same signatures, so either choice types the same.
    _impl = reference
else:
    _impl = _load_implementation()

#: ``'native'`` or ``'python'``: which implementation the functions below are.
IMPLEMENTATION: str = _impl.IMPLEMENTATION

deadwood = _impl.deadwood
best_melds = _impl.best_melds
discard_hints = _impl.discard_hints
close_outcome = _impl.close_outcome
deadwood_batch = _impl.deadwood_batch
hints_batch = _impl.hints_batch
settle = _impl.settle
outlook = _impl.outlook
draw_outlook = _impl.draw_outlook
outlook_batch = _impl.outlook_batch


def _select_simd(implementation: ModuleType) -> str:
    """Choose the batch kernels' SIMD path from ``CHINCHON_SIMD``, once: its name (a
    name no build knows fails the import, with the reference too)."""
    choice = os.environ.get("CHINCHON_SIMD", "auto").strip().lower()
    if choice not in ("", "auto") and choice not in SIMD_PATHS:
        raise ImportError(
            f"CHINCHON_SIMD={choice!r}: expected 'auto' or one of {', '.join(SIMD_PATHS)}"
        )
    if implementation is reference:
        return "python"
    melds = importlib.import_module(f"{_CORE}.melds")
    if choice in ("", "auto"):
        melds.simd_use(melds.simd_best())
    elif choice not in melds.simd_paths():
        warnings.warn(
            f"chinchon: CHINCHON_SIMD={choice!r} is not supported on this machine (it runs "
            f"{', '.join(melds.simd_paths())}); using {melds.simd_best()!r}",
            RuntimeWarning,
            stacklevel=4,
        )
        melds.simd_use(melds.simd_best())
    else:
        melds.simd_use(choice)
    return str(melds.simd_active())


_SIMD: str = "python" if TYPE_CHECKING else _select_simd(_impl)


def simd() -> str:
    """The SIMD path the batch kernels (:func:`deadwood_batch`, :func:`hints_batch`) run
    on: ``'avx512'``, ``'avx2'``, ``'neon'`` or ``'scalar'`` (the portable C) with the
    native implementation, ``'python'`` with the pure-Python reference.

    Chosen once at import: the fastest path this CPU runs, or the one the environment
    variable ``CHINCHON_SIMD`` names (``scalar`` forces the portable kernels; a path this
    machine cannot run warns and falls back to the fastest; an unknown name fails the
    import). Every path gives the same answers.

    >>> import chinchon
    >>> chinchon.simd() in ("avx512", "avx2", "neon", "scalar", "python")
    True
    """
    return _SIMD
