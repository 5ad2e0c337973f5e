"""Shared fixtures: each implementation in turn, the native module, the report header.

Helpers the tests import (oracles, generators, stacked decks) live in tests/oracles."""

from __future__ import annotations

import multiprocessing
import os

import pytest

import chinchon

from tests.oracles.impls import IMPLEMENTATIONS, NATIVE, SCALE

# How the process pools of the tests start their workers (CHINCHON_TEST_START_METHOD:
# fork, forkserver or spawn; unset: the platform's default, fork on Linux). The
# sanitized run (.ci/sanitize_pytest.sh) asks for spawn: a worker forked while another
# thread of the pytest process (a pool's manager thread) is inside AddressSanitizer's
# allocator inherits that lock held and hangs at its first allocation, for ever. Not
# forkserver: its server keeps the environment it started with, and the tests set
# variables for the workers as they go.
if os.environ.get("CHINCHON_TEST_START_METHOD"):
    multiprocessing.set_start_method(os.environ["CHINCHON_TEST_START_METHOD"], force=True)


def pytest_report_header(config):
    return (f"chinchon {chinchon.__version__}: package implementation "
            f"{chinchon.IMPLEMENTATION}, native module {'loaded' if NATIVE else 'absent'}, "
            f"CHINCHON_TEST_SCALE={SCALE}")


@pytest.fixture(params=IMPLEMENTATIONS, ids=lambda m: m.IMPLEMENTATION)
def impl(request):
    """Each implementation in turn: the reference, and the native one when built."""
    return request.param


@pytest.fixture(scope="session")
def native():  # session scope: hypothesis tests take it too
    if NATIVE is None:
        if os.environ.get("CHINCHON_IMPLEMENTATION", "").lower() in ("python", "py"):
            pytest.skip("pure-Python run: the native module is not under test")
        pytest.fail("the native extension is not built; build it or set "
                    "CHINCHON_IMPLEMENTATION=python")
    return NATIVE
