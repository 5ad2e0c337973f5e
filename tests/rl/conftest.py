"""The reinforcement-learning environments' tests need the optional extra
(``pip install ".[rl]"``: PettingZoo, Gymnasium); without it each module skips itself
(``pytest.importorskip``), except when ``CHINCHON_REQUIRE_RL_TESTS`` is set (``.ci/run``
sets it), where a missing extra is an error, so that CI can never pass by skipping them.
"""

from __future__ import annotations

import importlib.util
import os

_MISSING = [m for m in ("pettingzoo", "gymnasium") if importlib.util.find_spec(m) is None]
if _MISSING and os.environ.get("CHINCHON_REQUIRE_RL_TESTS"):
    raise RuntimeError(f"CHINCHON_REQUIRE_RL_TESTS is set, but {', '.join(_MISSING)} "
                       f"is not installed (pip install '.[rl]')")
