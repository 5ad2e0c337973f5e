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
    module = _load("self_play")
    module.main(["--games", "2", "--eval", "1"])
    out = capsys.readouterr().out
    assert "2 self-play games" in out and "points per hand against a random player" in out
    # the hands' rewards reach the moves (with the end-of-game reward under a turn
    # limit every return was 0 and nothing was learnt): each seat's rewards, credited
    # to its moves, are minus the points of the hands it played
    import numpy as np

    import chinchon.rl

    env = chinchon.rl.env(players=2, reward="hand", max_turns=2000)
    policy = module.LinearPolicy(np.random.default_rng(0))
    moves, after, hands, _ = module.play(env, policy, 3)
    assert all(hands.values()) and any(r for a in after.values() for r in a)
    for agent in moves:
        assert len(after[agent]) == len(moves[agent])
        assert sum(after[agent]) == -sum(hands[agent])
