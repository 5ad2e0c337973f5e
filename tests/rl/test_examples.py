"""The examples of examples/ run (a few games each)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="no examples/ beside the tests")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_examples
def test_random_agent(capsys):
    mean = _load("random_agent").main(["--games", "2", "--opponents", "random"])
    assert -1.0 <= mean <= 1.0 and "mean reward" in capsys.readouterr().out


@needs_examples
def test_self_play(capsys):
    rate = _load("self_play").main(["--games", "2", "--eval", "1"])
    assert 0.0 <= rate <= 1.0 and "self-play games" in capsys.readouterr().out
