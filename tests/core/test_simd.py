"""The SIMD paths of the native batch kernels: every path this machine runs gives the
bytes of the scalar path and the reference's answers (one and two decks, the joker-free
rows of every preset, bad rows); ``chinchon.simd()`` and ``CHINCHON_SIMD``.

The C tests (csrc/tests/test_simd.c) check every path on every hand of the exhaustive
sets; here the same through the binding, on random batches and hypothesis' rows.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chinchon
from chinchon import PRESETS, reference
from chinchon._backend import SIMD_PATHS

from tests.oracles.impls import scaled
from tests.oracles.strategies import random_masks


@pytest.fixture
def paths(native):
    """Every path this machine runs; the active one restored afterwards."""
    melds = native.melds
    before = melds.simd_active()
    yield melds.simd_paths()
    melds.simd_use(before)


def _on_each_path(native, paths, call):
    """call() on each path: {path: result}."""
    out = {}
    for p in paths:
        native.melds.simd_use(p)
        assert native.melds.simd_active() == p
        out[p] = call()
    return out


def _natural_masks(rng, n, cards, decks, rules, rich):
    """n random joker-free rows of the rules' deck (`rich`: ranks in a 4-rank window)."""
    ranks = [r for r in range(1, 13) if rules.deck == 48 or r not in (8, 9)]
    if rich:
        lo = int(rng.integers(0, len(ranks) - 3))
        ranks = ranks[lo:lo + 4]
    deck = [16 * s + r - 1 for s in range(4) for r in ranks
            if not (rules.wild_ace_of_coins and s == 0 and r == 1)] * decks
    deck = np.array(deck, dtype=np.int64)
    picks = deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :cards]]
    bits = np.uint64(1) << picks.astype(np.uint64)
    once = np.zeros(n, np.uint64)
    twice = np.zeros(n, np.uint64)
    for j in range(cards):
        twice |= once & bits[:, j]
        once |= bits[:, j]
    return once if decks == 1 else np.stack([once, twice], axis=1)


def test_simd_names_the_active_path():
    if chinchon.IMPLEMENTATION == "python":
        assert chinchon.simd() == "python"
    else:
        from chinchon._core import melds
        assert chinchon.simd() == melds.simd_active()
        assert chinchon.simd() in melds.simd_paths()
        assert set(melds.simd_paths()) <= set(SIMD_PATHS)
        assert "scalar" in melds.simd_paths()


def test_simd_use_refuses_an_unknown_path(native, paths):
    with pytest.raises(ValueError, match="'sse4'"):
        native.melds.simd_use("sse4")
    missing = [p for p in SIMD_PATHS if p not in paths]
    for p in missing:  # e.g. neon on x86-64
        with pytest.raises(ValueError, match=repr(p)):
            native.melds.simd_use(p)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("rich", [False, True], ids=["uniform", "rich"])
def test_every_path_gives_the_scalar_bytes(native, paths, decks, rich):
    rng = np.random.default_rng(250 + decks + 2 * rich)
    n = scaled(20_000) + 3  # a tail after the last full vector
    ranks = (4, 7) if rich else None
    m7 = random_masks(rng, n, 7, decks, ranks=ranks)
    m8 = random_masks(rng, n, 8, decks, ranks=ranks)
    mixed = np.concatenate([random_masks(rng, 50, k, decks) for k in range(9)])
    for masks, call in ((m7, native.deadwood_batch), (mixed, native.deadwood_batch),
                        (m8, native.hints_batch)):
        got = _on_each_path(native, paths, lambda: call(masks))
        for p in paths:
            bad = np.flatnonzero((got[p] != got["scalar"]).reshape(len(masks), -1).any(axis=1))
            assert bad.size == 0, f"{p}: row {bad[0]} ({masks[bad[0]]}) differs from scalar"
    # and the scalar path agrees with the reference on a sample
    native.melds.simd_use("scalar")
    k = scaled(300)
    assert np.array_equal(native.deadwood_batch(m7[:k]), reference.deadwood_batch(m7[:k]))
    assert np.array_equal(native.hints_batch(m8[:k]), reference.hints_batch(m8[:k]))


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("decks", [1, 2])
def test_joker_free_rows_of_every_preset(native, paths, name, decks):
    rules = PRESETS[name]
    rng = np.random.default_rng(sorted(PRESETS).index(name) * 2 + decks)
    n = scaled(3_000) + 5
    m7 = np.concatenate([_natural_masks(rng, n, 7, decks, rules, rich=False),
                         _natural_masks(rng, n, 7, decks, rules, rich=True)])
    m8 = np.concatenate([_natural_masks(rng, n, 8, decks, rules, rich=False),
                         _natural_masks(rng, n, 8, decks, rules, rich=True)])
    dw = _on_each_path(native, paths, lambda: native.deadwood_batch(m7, rules=rules))
    hb = _on_each_path(native, paths, lambda: native.hints_batch(m8, rules=rules))
    for p in paths:
        assert np.array_equal(dw[p], dw["scalar"]), p
        assert np.array_equal(hb[p], hb["scalar"]), p
    k = scaled(150)
    sample7 = np.concatenate([m7[:k], m7[n:n + k]])
    sample8 = np.concatenate([m8[:k], m8[n:n + k]])
    native.melds.simd_use("scalar")
    assert np.array_equal(native.deadwood_batch(sample7, rules=rules),
                          reference.deadwood_batch(sample7, rules=rules))
    assert np.array_equal(native.hints_batch(sample8, rules=rules),
                          reference.hints_batch(sample8, rules=rules))


def _outcome(call):
    try:
        return ("ok", call().tolist())
    except chinchon.ChinchonError as exc:
        return (type(exc).__name__, str(exc))


ROW = st.one_of(
    st.integers(0, 2**64 - 1),  # anything: mostly bad rows
    st.builds(lambda bits: sum(1 << (16 * (b // 12) + b % 12) for b in bits),
              st.sets(st.integers(0, 47), min_size=0, max_size=9)),
    st.builds(lambda bits: sum(1 << (16 * (b // 4 % 4) + 3 + b % 4) for b in bits),
              st.sets(st.integers(0, 15), min_size=6, max_size=9)),  # ranks 4-7
)


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, min_size=0, max_size=40), st.lists(ROW, min_size=0, max_size=40))
def test_hypothesis_rows_on_every_path(native, once, extra):
    """Whatever the rows (bad ones included), every path gives the scalar path's answer
    or error, for one deck and two (the second list gives the twice masks)."""
    melds = native.melds
    before = melds.simd_active()
    one = np.array(once, dtype=np.uint64)
    k = min(len(once), len(extra))
    two = np.stack([np.array(once[:k], dtype=np.uint64),
                    np.array(once[:k], dtype=np.uint64) & np.array(extra[:k], dtype=np.uint64)],
                   axis=1).reshape(k, 2)
    try:
        for masks in (one, two):
            for call in (native.deadwood_batch, native.hints_batch):
                want = None
                for p in melds.simd_paths():
                    melds.simd_use(p)
                    got = _outcome(lambda: call(masks))
                    want = got if want is None else want
                    assert got == want, p
    finally:
        melds.simd_use(before)


def _run(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True,
                          text=True, env=full, timeout=120)


def test_chinchon_simd_environment(native):
    code = "import chinchon; print(chinchon.simd())"
    native_env = {"CHINCHON_IMPLEMENTATION": "native"}
    run = _run(code, CHINCHON_SIMD="scalar", **native_env)
    assert run.returncode == 0 and run.stdout.split() == ["scalar"], run.stderr
    best = native.melds.simd_best()
    run = _run(code, CHINCHON_SIMD="auto", **native_env)
    assert run.stdout.split() == [best], run.stderr
    run = _run(code, CHINCHON_SIMD="sse4", **native_env)
    assert run.returncode != 0 and "CHINCHON_SIMD='sse4'" in run.stderr
    missing = [p for p in SIMD_PATHS if p not in native.melds.simd_paths()]
    if missing:  # a path this machine cannot run: a warning, then the fastest
        run = _run(code, CHINCHON_SIMD=missing[0], **native_env)
        assert run.returncode == 0 and run.stdout.split() == [best]
        assert f"CHINCHON_SIMD={missing[0]!r} is not supported" in run.stderr
    run = _run(code, CHINCHON_SIMD="scalar", CHINCHON_IMPLEMENTATION="python")
    assert run.stdout.split() == ["python"], run.stderr


def test_an_unknown_chinchon_simd_fails_the_import_with_the_reference_too():
    """The reference has no SIMD path, but a name no build knows is a mistake all the
    same: it was taken without a word under CHINCHON_IMPLEMENTATION=python."""
    code = "import chinchon; print(chinchon.simd())"
    run = _run(code, CHINCHON_SIMD="bogus", CHINCHON_IMPLEMENTATION="python")
    assert run.returncode != 0 and "CHINCHON_SIMD='bogus'" in run.stderr, run.stderr
    run = _run(code, CHINCHON_SIMD="avx2", CHINCHON_IMPLEMENTATION="python")
    assert run.returncode == 0 and run.stdout.split() == ["python"], run.stderr
