"""Ctrl-C stops a parallel simulation at the first press.

``chinchon simulate --games 100000 --jobs 2 --engine python`` runs in a subprocess; once its workers are
up it gets SIGINT -- sent to the command alone, or to its whole process group as a
terminal's Ctrl-C is -- and must exit with status 130 within seconds, with no worker
process left behind and no traceback.
"""

from __future__ import annotations

import multiprocessing.resource_tracker
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process tree from /proc")


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (workers, and any helper process they use)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _as_from_a_terminal() -> None:
    """In the child before its exec: SIGINT at its default, as a command typed at a
    terminal starts. A test run started in the background of a script (``cmd &``)
    inherits SIGINT ignored, and Python then keeps ignoring it, rightly: such a
    command is not one that Ctrl-C reaches."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("progress,whole_group", [("--no-progress", False),
                                                  ("--progress", True)])
def test_first_ctrl_c_stops_a_parallel_simulation(progress, whole_group):
    # the Python loop: the C engine would finish these games before the signal is sent
    cmd = [sys.executable, "-m", "chinchon", "simulate", "--games", "100000", "--jobs", "2",
           "--engine", "python", progress]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,  # its own group, as in a terminal
                            preexec_fn=_as_from_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while len(_descendants(proc.pid)) < 2:  # both workers started
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        time.sleep(0.5)  # the workers are busy with their first games
        workers = _descendants(proc.pid)
        sent = time.monotonic()
        if whole_group:
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:  # a hang: clean up before failing
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    text = err.decode()
    assert proc.returncode == 130, text
    assert took < 5, f"stopped {took:.1f} s after the first SIGINT"
    assert "interrupted" in text and "Traceback" not in text, text
    assert out == b""  # no statistics of a run that did not finish
    deadline = time.monotonic() + 5
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _running(pid)]
    assert not left, f"worker processes left running: {left}"


def test_an_interrupt_inside_simulate_cancels_the_queue_and_ends_the_workers():
    """The Python API: a KeyboardInterrupt raised while simulate(jobs=2) waits (here from
    the progress callback) comes out at once, the workers ended, nothing else run."""
    from chinchon import simulate

    seen: list[int] = []
    workers: list[int] = []
    # the resource tracker is no worker: started now (where the pools spawn their
    # workers it would start inside simulate), it is one of the processes before
    multiprocessing.resource_tracker.ensure_running()
    before = set(_descendants(os.getpid()))  # e.g. a resource tracker of earlier tests

    def progress(k: int) -> None:
        seen.append(k)
        if len(seen) == 1:
            workers.extend(p for p in _descendants(os.getpid()) if p not in before)
            raise KeyboardInterrupt

    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        simulate(100_000, 4, jobs=2, chunk_size=2, progress=progress)
    assert time.monotonic() - t0 < 30  # 100,000 games would take minutes
    assert len(workers) >= 2
    deadline = time.monotonic() + 5
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _running(pid)]
