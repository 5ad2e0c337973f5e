"""Ctrl-C stops the C engine's games in this process (``simulate(jobs=1)``, the
command's default with the built-in bots) within a search seat's decision, or between
two games of the other bots; not when the chunk of games it was given is over, which
took minutes with search seats and had no bound under a time budget.

The signal comes from a timer thread, as a terminal's Ctrl-C reaches the process, and
Python's own handler raises KeyboardInterrupt in the main thread. Each bound is tens of
times what the interrupt takes and a fraction of what the games without it would."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from typing import Any, Callable

import pytest

from chinchon.simulation import simulate
from chinchon.simulation.engine import native_available

pytestmark = [
    pytest.mark.skipif(not native_available(), reason="the C engine is not built"),
    pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="no POSIX signals here"),
]


def _interrupted_after(delay: float, run: Callable[[], Any]) -> float:
    """Send SIGINT to this process ``delay`` seconds into ``run``; the seconds from the
    signal to the KeyboardInterrupt. The collector is off meanwhile: a KeyboardInterrupt
    raised in a finalizer it runs (an earlier test's garbage) is printed and dropped."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    sent: list[float] = []
    gc.collect()
    gc.disable()

    def ctrl_c() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(delay, ctrl_c)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            run()
        stopped = time.monotonic()
    finally:
        timer.cancel()
        gc.enable()
        signal.signal(signal.SIGINT, old)
    assert sent, "the run ended before the signal"
    return stopped - sent[0]


def test_ctrl_c_stops_a_search_seat_within_its_decision():
    # one game of 100 ms decisions: about 50 of the search seat's, over 5 s in all
    took = _interrupted_after(0.5, lambda: simulate(
        1, 2, bots="search:100ms,expert", rules="conga", seed=3, jobs=1, engine="native"))
    assert took < 2.5, f"stopped {took:.1f} s after the signal"


@pytest.mark.parametrize("keep_records", [True, False])
def test_ctrl_c_stops_the_other_bots_between_games(keep_records):
    # 2 million games in one chunk: a minute or more of the engine's games
    took = _interrupted_after(0.3, lambda: simulate(
        2_000_000, 2, bots="greedy", seed=1, jobs=1, chunk_size=2_000_000,
        keep_records=keep_records, engine="native"))
    assert took < 5, f"stopped {took:.1f} s after the signal"
