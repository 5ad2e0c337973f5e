"""The Gymnasium environment: Gymnasium's check_env, the mask conventions, bots between
the learner's actions, the penalty and the errors."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import chinchon.rl as rl  # noqa: E402
from chinchon import ActionNotAllowed, IllegalAction  # noqa: E402
from chinchon.rl import encoding as E  # noqa: E402


@pytest.mark.parametrize("opponents", ["greedy", "expert", "random"])
@pytest.mark.parametrize("players,rules", [(2, "barajamos"), (4, "conga"), (6, "fifty")])
def test_check_env(players, rules, opponents, capsys):
    env = gymnasium.make(rl.ENV_ID, players=players, opponents=opponents, rules=rules)
    check_env(env.unwrapped)
    capsys.readouterr()


def _play(env, seed):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    rng = np.random.default_rng(seed)
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (E.N_ACTIONS,)
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        assert mask.any() and env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, obs


def test_a_whole_game_against_bots_is_repeatable():
    env = gymnasium.make(rl.ENV_ID, players=3, opponents=["greedy", "expert"]).unwrapped
    a = _play(env, 5)
    b = _play(env, 5)
    assert a[:2] == b[:2] and a[0] in (-1.0, 0.0, 1.0)
    np.testing.assert_array_equal(a[2], b[2])
    assert env.aec.game.result is not None
    with pytest.raises(IllegalAction, match="after the end of the game"):
        env.step(0)


def test_the_learner_only_acts_on_its_own_decisions():
    env = rl.ChinchonEnv(players=4, opponents="random", seat=2, max_turns=60)
    obs, info = env.reset(seed=1)
    for _ in range(30):
        at, _ = E.FIELDS["seat_0.to_act"]
        assert obs[at] == 1 and env.aec.agent_selection == "player_2"
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if term or trunc:
            break


def test_illegal_actions():
    env = rl.ChinchonEnv(players=2)
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(E.REJOIN)  # the default: -1, game over
    assert reward == -1.0 and terminated and info["illegal_action"]
    strict = rl.ChinchonEnv(players=2, illegal_action_penalty=None)
    obs, _ = strict.reset(seed=1)
    with pytest.raises(ActionNotAllowed, match="action 130"):
        strict.step(E.REJOIN)
    np.testing.assert_array_equal(strict.aec.observe("player_0")["observation"], obs)
    strict.step(E.DRAW_STOCK)


@pytest.mark.parametrize("kwargs", [{"opponents": "nobody"}, {"opponents": ["greedy"] * 3},
                                    {"seat": 2}, {"players": 9}])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        rl.ChinchonEnv(**kwargs)
