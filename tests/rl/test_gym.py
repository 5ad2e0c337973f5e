"""The Gymnasium environment: Gymnasium's check_env, the mask conventions, bots between
the learner's actions, the penalty, the errors, refused resets and negative seeds."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import chinchon.rl as rl  # noqa: E402
from chinchon import ActionNotAllowed, ChinchonError, IllegalAction, Rules  # noqa: E402
from chinchon.bots import make_bot  # noqa: E402
from chinchon.rl import encoding as E  # noqa: E402
from chinchon.simulation import simulate  # noqa: E402
from chinchon.simulation.play import game_seed  # noqa: E402


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


def test_a_step_before_reset_says_so():
    env = rl.ChinchonEnv(players=2)
    with pytest.raises(IllegalAction, match=r"step\(\) before reset\(\)"):
        env.step(E.DRAW_STOCK)
    env.reset(seed=1)
    env.step(E.DRAW_STOCK)


@pytest.mark.parametrize("kwargs", [{"opponents": "nobody"}, {"opponents": ["greedy"] * 3},
                                    {"seat": 2}, {"players": 9},
                                    {"illegal_action_penalty": 10**400}])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        rl.ChinchonEnv(**kwargs)


def test_rules_a_search_opponent_cannot_play_are_refused_when_made():
    """The search plays out in the C engine (minus_ten up to 2**31 - 1): refused when
    the env is made, as the vector env refuses them, not at the search's first decision
    after the learner's move (which then stayed half-applied)."""
    rules = Rules(minus_ten=2**31)
    with pytest.raises(ChinchonError, match=r"opponents: a search bot .* up to "
                                            r"2147483647, got 2147483648"):
        rl.ChinchonEnv(players=2, opponents="search:50", rules=rules)
    env = rl.ChinchonEnv(players=2, opponents="greedy", rules=rules)  # no search: plays
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def _moves(env, n):
    """``n`` steps of the first allowed action (a ``reset()`` when a game ends): every
    observation returned."""
    out = []
    for _ in range(n):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        out.append(obs.tobytes())
        if terminated or truncated:
            out.append(env.reset()[0].tobytes())
    return out


@pytest.mark.parametrize("seed,options,match", [
    (2, {"lead": 9}, "lead"), (None, {"lead": 9}, "lead"), (2**300, None, "seed"),
    (-(2**256), None, "seed"), (True, None, "seed"), (1.5, None, "seed"),
    (np.int64(2), None, "seed")],
    ids=["new-seed-bad-lead", "next-game-bad-lead", "seed-301-bits", "seed-257-bits",
         "seed-True", "seed-float", "seed-numpy-int"])
def test_a_refused_reset_changes_nothing(seed, options, match):
    env, ref = (rl.ChinchonEnv(players=3, opponents="random") for _ in range(2))
    for e in (env, ref):
        e.reset(seed=1)
        _moves(e, 3)
    with pytest.raises(ChinchonError, match=match):
        env.reset(seed=seed, options=options)
    # the same game goes on with the same bots, then the same next games
    assert _moves(env, 80) == _moves(ref, 80)
    assert env.reset()[0].tobytes() == ref.reset()[0].tobytes()
    assert env.np_random.bit_generator.state == ref.np_random.bit_generator.state


def test_a_refused_first_reset_draws_no_seed():
    env, ref = rl.ChinchonEnv(), rl.ChinchonEnv()
    env.np_random, ref.np_random = np.random.default_rng(5), np.random.default_rng(5)
    with pytest.raises(IllegalAction, match="lead"):
        env.reset(options={"lead": 2})
    assert env.reset()[0].tobytes() == ref.reset()[0].tobytes()  # game 0 of the same seed
    assert _moves(env, 40) == _moves(ref, 40)


@pytest.mark.parametrize("seed", [-1, -(2**256 - 1)], ids=["-1", "-(2**256-1)"])
def test_negative_seeds_play_the_games_of_simulate(seed):
    want = simulate(3, 3, bots="greedy", seed=seed).records
    env = rl.ChinchonEnv(players=3, opponents="greedy", seat=1)
    for k, record in enumerate(want):
        env.reset(seed=seed) if k == 0 else env.reset()
        learner = make_bot("greedy", game_seed(seed, k, 1 + 1))  # the seat's bot
        done = False
        while not done:
            *_, terminated, truncated, _ = env.step(env.aec.bot_action(learner))
            done = terminated or truncated
        game = env.aec.game
        assert game.result is not None
        assert (game.result.status, game.result.winner, list(game.totals)) == (
            record.status, record.winner, record.totals)
    assert env.np_random_seed == 2**256 - 1 - seed  # Gymnasium's seeding: non-negative
