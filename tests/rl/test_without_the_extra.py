"""chinchon.rl without its extra: one ImportError naming the extra (it was Python's
``No module named 'gymnasium'``, which names no way to get it). Runs with the extra or
without: the missing package is made missing in a child process."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("missing", ["gymnasium", "pettingzoo"])
def test_the_rl_package_names_its_extra_when_a_package_is_missing(missing: str) -> None:
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            "try:\n    import chinchon.rl\nexcept ImportError as e:\n    print(e)\n"
            "else:\n    print('imported')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "chinchon.rl needs the rl extra" in run.stdout, run.stdout
    # then Python's own words on the first package missing (both are, where the extra
    # is not installed at all)
    assert "pip install 'chinchon[rl]' (" in run.stdout, run.stdout
