"""Batch calls against the single calls, dtypes and shapes, and threads."""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import Hand

from tests.oracles.impls import scaled
from tests.oracles.strategies import random_masks


def _hand(row, decks):
    return Hand.from_mask((int(row[0]), int(row[1])) if decks == 2 else int(row), decks=decks)


@pytest.mark.parametrize("decks", [1, 2])
def test_deadwood_batch_matches_single(impl, decks):
    rng = np.random.default_rng(11)
    masks = np.concatenate([random_masks(rng, 60, k, decks) for k in range(9)])
    out = impl.deadwood_batch(masks)
    assert out.dtype == np.uint8 and out.shape == (len(masks),)
    assert [int(x) for x in out] == [impl.deadwood(_hand(r, decks)) for r in masks]


@pytest.mark.parametrize("decks", [1, 2])
def test_hints_batch_matches_single(impl, decks):
    rng = np.random.default_rng(12)
    masks = random_masks(rng, 100, 8, decks, ranks=(2, 6))
    out = impl.hints_batch(masks)
    assert out.dtype == np.uint8 and out.shape == (len(masks), 8)
    for row, got in zip(masks, out):
        assert list(got) == [h.points for h in impl.discard_hints(_hand(row, decks))]


def test_batch_accepts_other_integer_dtypes(impl):
    h = Hand("7o 7c 7b 9e 10e 11e 4o")
    assert list(impl.deadwood_batch(np.array([h.mask], dtype=np.int64))) == [4]
    assert list(impl.deadwood_batch([h.mask, 0])) == [4, 0]
    strided = np.array([[h.mask, 0], [0, 0]], dtype=np.uint64)[:, 0]  # not contiguous
    assert list(impl.deadwood_batch(strided)) == [4, 0]


@pytest.mark.parametrize("decks", [1, 2])
def test_threads_give_the_same_answer(native, decks):
    rng = np.random.default_rng(13)
    masks = random_masks(rng, scaled(100_000), 7, decks)
    one = native.deadwood_batch(masks, threads=1)
    for t in (2, 3, 7):
        assert np.array_equal(native.deadwood_batch(masks, threads=t), one)
    m8 = random_masks(rng, scaled(40_000), 8, decks)
    assert np.array_equal(native.hints_batch(m8, threads=2), native.hints_batch(m8, threads=1))


def test_threads_are_any_integer_but_a_bool(impl):
    """A thread count read from numpy (an array's size, a config loaded with it) is an
    int like any other; a bool or a float is refused by name."""
    masks = np.array([Hand("7o 7c 7b 9e 10e 11e 4o").mask] * 4, dtype=np.uint64)
    m8 = np.array([Hand("7o 7c 7b 9e 10e 11e 4o 5b").mask] * 4, dtype=np.uint64)
    want, hints = list(impl.deadwood_batch(masks, threads=2)), impl.hints_batch(m8, threads=2)
    assert want == [4] * 4
    for threads in (np.int64(2), np.int32(2), np.uint8(2)):
        assert list(impl.deadwood_batch(masks, threads=threads)) == want
        assert np.array_equal(impl.hints_batch(m8, threads=threads), hints)
    for threads in (True, np.True_, 2.0, np.float64(2), np.int64(0), np.int64(1025)):
        with pytest.raises(ValueError, match="threads must be an int 1..1024 or None"):
            impl.deadwood_batch(masks, threads=threads)


def test_threads_report_the_first_bad_row(native):
    rng = np.random.default_rng(14)
    masks = random_masks(rng, 100_000, 7, 1)
    masks[70_000] = 1 << 13
    masks[90_000] = 1 << 13
    with pytest.raises(ValueError, match="row 70000"):
        native.deadwood_batch(masks, threads=2)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_a_batch_on_threads_works_in_a_forked_child():
    """The threads' pool is made on the first split batch; a child forked after it got
    the pool object without its threads, and its next split batch waited for ever (a
    multiprocessing or ProcessPoolExecutor worker, forked by default on Linux)."""
    import os
    import signal

    import chinchon

    masks = np.full(40_000, Hand("4o 5o 6o 4c 5c 6c 1b").mask, dtype=np.uint64)
    want = chinchon.deadwood_batch(masks, threads=2)  # the pool, in the parent
    pid = os.fork()
    if pid == 0:  # the child: exit 0 with the right answer, 1 with a wrong one
        signal.alarm(60)  # a hang ends the child (a failure), not the test run
        ok = False
        try:
            ok = np.array_equal(chinchon.deadwood_batch(masks, threads=2), want)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
