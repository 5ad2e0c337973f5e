"""The simulation's executor, merge, records and fault tests.

The records and Dask tests need the optional extra (``pip install ".[dask]"``:
dask[distributed] and pyarrow); without it those modules skip themselves
(``pytest.importorskip``), except when ``CHINCHON_REQUIRE_DASK_TESTS`` is set
(``.ci/run`` sets it), where a missing extra is an error, so that CI can never pass by
skipping them.
"""

from __future__ import annotations

import importlib.util
import os

_MISSING = [m for m in ("distributed", "pyarrow", "pandas")
            if importlib.util.find_spec(m) is None]
if _MISSING and os.environ.get("CHINCHON_REQUIRE_DASK_TESTS"):
    raise RuntimeError(f"CHINCHON_REQUIRE_DASK_TESTS is set, but {', '.join(_MISSING)} "
                       f"is not installed (pip install '.[dask]')")


def require_plot_extra() -> None:
    """The plot tests' guard: under ``CHINCHON_REQUIRE_PLOT_TESTS`` (``.ci/run``) a
    missing plot extra (matplotlib) is an error, not a skip."""
    if os.environ.get("CHINCHON_REQUIRE_PLOT_TESTS") and \
            importlib.util.find_spec("matplotlib") is None:
        raise RuntimeError("CHINCHON_REQUIRE_PLOT_TESTS is set, but matplotlib is not "
                           "installed (pip install '.[plot]')")
