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
