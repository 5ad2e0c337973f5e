"""CHINCHON_IMPLEMENTATION picks the implementation; each forced mode is checked in a
fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.oracles.impls import NATIVE

PROBE = ("import warnings; warnings.simplefilter('error'); import chinchon; "
         "print(chinchon.IMPLEMENTATION, chinchon.deadwood is chinchon.reference.deadwood)")


def _run(value):
    env = dict(os.environ, CHINCHON_IMPLEMENTATION=value)
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=env, cwd=os.path.dirname(__file__) or ".")


def test_forced_python():
    r = _run("python")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["python", "True"]


def test_forced_native(native):
    r = _run("native")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["native", "False"]


def test_auto_prefers_native_and_warns_only_on_fallback():
    r = _run("auto")  # warnings are errors in the probe
    if NATIVE is not None:
        assert r.returncode == 0, r.stderr
        assert r.stdout.split()[0] == "native"
    else:
        assert r.returncode != 0 and "pure-Python implementation" in r.stderr


def test_unknown_value_is_refused():
    r = _run("fortran")
    assert r.returncode != 0 and "CHINCHON_IMPLEMENTATION" in r.stderr


@pytest.mark.parametrize("name", ["deadwood", "best_melds", "discard_hints", "close_outcome",
                                  "deadwood_batch", "hints_batch", "settle"])
def test_docstrings_present(name):
    import chinchon

    assert getattr(chinchon, name).__doc__
    assert getattr(chinchon.reference, name).__doc__


def test_an_install_without_the_extension_says_it_is_not_installed(tmp_path):
    """The package's Python files alone, as a pure-Python install (no compiled module):
    the fallback's warning says the extension is not installed, and (`native` asked
    for) the error says so too, not that a name could not be imported."""
    import shutil

    import numpy

    import chinchon

    shutil.copytree(os.path.dirname(chinchon.__file__), tmp_path / "chinchon",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.dylib", "__pycache__"))
    # -S: no site-packages .pth (an editable install's finder would import the real
    # package); numpy from where this interpreter has it
    numpy_home = os.path.dirname(os.path.dirname(numpy.__file__))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHINCHON_")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), numpy_home])
    probe = ("import warnings\n"
             "with warnings.catch_warnings(record=True) as caught:\n"
             "    warnings.simplefilter('always')\n"
             "    import chinchon\n"
             "print(chinchon.__file__)\n"
             "print(chinchon.IMPLEMENTATION)\n"
             "print(*[w.message for w in caught if w.category is RuntimeWarning], sep='\\n')\n")
    r = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True,
                       env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    where, implementation, *warned = r.stdout.splitlines()
    assert where.startswith(str(tmp_path)) and implementation == "python"
    assert len(warned) == 1 and "it is not installed" in warned[0], warned
    assert "circular import" not in warned[0] and "cannot import name" not in warned[0]
    env["CHINCHON_IMPLEMENTATION"] = "native"
    r = subprocess.run([sys.executable, "-S", "-c", "import chinchon"], capture_output=True,
                       text=True, env=env, cwd=str(tmp_path))
    assert r.returncode != 0
    assert "CHINCHON_IMPLEMENTATION=native but the extension is not installed" in r.stderr
