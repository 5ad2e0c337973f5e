"""The load test of benchmarks/load_server.py, run small: it must run clean and its
database check must pass (so the tool that backs the README's numbers keeps working)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

TOOL = Path(__file__).resolve().parents[2] / "benchmarks" / "load_server.py"


@pytest.mark.skipif(not TOOL.exists(), reason="benchmarks/ is not beside the tests")
def test_a_small_load_run_loses_nothing() -> None:
    out = subprocess.run([sys.executable, str(TOOL), "--tables", "6", "--seconds", "2",
                          "--warmup", "0.5", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["errors"] == 0 and report["lost_or_mismatched"] == 0
    assert report["actions"] > 50 and report["tables"] == 6


PROFILE = TOOL.parent / "profile_manager.py"


@pytest.mark.skipif(not PROFILE.exists(), reason="benchmarks/ is not beside the tests")
def test_the_in_process_manager_measure_runs_small() -> None:
    """benchmarks/profile_manager.py, the manager's CPU an action without sockets: its
    scripted seats play, every action is stored as an event, and it reports a cost."""
    out = subprocess.run([sys.executable, str(PROFILE), "--tables", "3", "--rounds", "12"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["tables"] == 3 and report["actions"] >= 12
    # the joins and the start (three a table) are events too
    assert report["events"] >= report["actions"] + 3 * 3
    assert report["manager_cpu_us_per_action"] > 0


@pytest.mark.skipif(not PROFILE.exists(), reason="benchmarks/ is not beside the tests")
def test_the_in_process_measure_times_the_managers_parts() -> None:
    """--parts: each of the manager's main parts gets its CPU an action, together no
    more than the whole."""
    out = subprocess.run([sys.executable, str(PROFILE), "--tables", "3", "--rounds", "12",
                          "--parts"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    parts = report["parts_us_per_action"]
    assert set(parts) == {"views", "state", "commit", "game", "parse", "scheduling"}
    assert all(v > 0 for v in parts.values())
    assert sum(parts.values()) <= report["manager_cpu_us_per_action"] * 1.05


STORE = TOOL.parent / "bench_store.py"


@pytest.mark.skipif(not STORE.exists(), reason="benchmarks/ is not beside the tests")
def test_the_store_measure_runs_small() -> None:
    """benchmarks/bench_store.py, Store.write alone as the group commit calls it."""
    out = subprocess.run([sys.executable, str(STORE), "--tables", "8", "--events", "4",
                          "--commits", "20"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["commits"] == 20 and report["events_a_commit"] == 4
    assert report["cpu_us_per_event"] > 0
