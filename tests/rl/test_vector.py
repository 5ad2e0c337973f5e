"""The C vector environment (chinchon.rl.VectorEnv): the same games, step for step, as
Gymnasium's own SyncVectorEnv over the Python environment (observations, masks,
rewards, terminations, truncations, infos) on every preset; Gymnasium's checks that
apply to a vector env; autoreset, seeds, threads, the sampler, and the errors.

The vector env is the native core's: under CHINCHON_IMPLEMENTATION=python (or without
the compiled core) this module skips, saying so."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import chinchon  # noqa: E402
import chinchon.rl as rl  # noqa: E402
from chinchon import ActionNotAllowed, ChinchonError, IllegalAction, Rules  # noqa: E402
from chinchon.rl import encoding as E  # noqa: E402
from chinchon.rl.vector import NATIVE  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import (check_obs, check_space,  # noqa: E402
                                                 data_shares_objects)
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from tests.oracles.impls import scaled  # noqa: E402

if not NATIVE:
    if chinchon.IMPLEMENTATION == "python":
        pytest.skip("chinchon.rl.VectorEnv is the native core's; this run is "
                    "CHINCHON_IMPLEMENTATION=python", allow_module_level=True)
    raise RuntimeError("the native core is loaded but chinchon._core.vecenv is missing")


def _pair(n, players, opponents="greedy", rules=None, **kw):
    """The C vector env and Gymnasium's SyncVectorEnv over the Python env, alike."""
    vec = rl.VectorEnv(n, players, opponents, rules, **kw)
    ref = SyncVectorEnv([lambda: rl.ChinchonEnv(players, opponents, rules, **kw)] * n,
                        autoreset_mode=AutoresetMode.NEXT_STEP)
    return vec, ref


def _actions(rng, masks, illegal=0.0):
    """A random allowed action per table (0 where none is); with probability
    ``illegal`` a random action of all instead."""
    out = np.zeros(len(masks), np.int64)
    for i, m in enumerate(masks):
        allowed = np.flatnonzero(m)
        if rng.random() < illegal or not len(allowed):
            out[i] = rng.integers(E.N_ACTIONS)
        else:
            out[i] = rng.choice(allowed)
    return out


def _same_trajectory(vec, ref, steps, seed, illegal=0.0):
    """Step both with the same actions; every output equal at every step."""
    rng = np.random.default_rng(abs(seed))  # the actions' generator takes no sign
    got, want = vec.reset(seed=seed), ref.reset(seed=seed)
    assert data_equivalence(got, want, exact=True)
    ends = 0
    for step in range(steps):
        acts = _actions(rng, got[-1]["action_mask"], illegal)
        got, want = vec.step(acts), ref.step(acts)
        if not data_equivalence(got, want, exact=True):
            for name, g, w in zip(("obs", "rewards", "terminations", "truncations"), got, want):
                bad = np.argwhere(np.asarray(g) != np.asarray(w))
                assert not len(bad), f"step {step}: {name} differ at {bad[:5].tolist()}"
            assert data_equivalence(got[4], want[4], exact=True), f"step {step}: infos differ"
        ends += int(got[2].sum() + got[3].sum())
    return ends


@pytest.mark.parametrize("rules,players", [(None, 2), ("barajamos", 3), ("classic", 4),
                                           ("conga", 5), ("fifty", 6)])
def test_same_games_as_the_python_env_on_every_preset(rules, players):
    n = 8
    vec, ref = _pair(n, players, "greedy", rules)
    ends = _same_trajectory(vec, ref, scaled(10_000) // n, seed=26 + players)
    assert ends > 0  # games ended and the tables went on (autoreset)


@pytest.mark.parametrize("kw", [
    dict(players=3, opponents="random", rules=None, reward="hand", max_turns=30, seat=1),
    dict(players=4, opponents=["expert", "random", "greedy"], rules="classic", seat=3),
    dict(players=2, opponents="random", rules="conga", reward="hand"),
    dict(players=5, opponents="greedy", rules="fifty", max_turns=200, seat=4),
])
def test_same_games_with_every_option(kw):
    n = 4
    vec, ref = _pair(n, **kw)
    _same_trajectory(vec, ref, scaled(1_500) // n, seed=5)


@pytest.mark.parametrize("players,rules", [
    (5, Rules.preset("fifty").replace(joker_points=50)),
    (6, Rules(wild_ace_of_coins=True, jokers=2, joker_points=50, close_limit=9)),
], ids=["fifty-50", "wild-two-jokers-50"])
def test_same_games_with_fifty_point_jokers(players, rules):
    """Jokers worth 50 (hints past 255 with six in two decks): the same games, and
    every observation within the observation space (its high: 50 a card)."""
    n = 4
    vec, ref = _pair(n, players, "greedy", rules)
    obs, _ = vec.reset(seed=3)
    check_obs(obs, vec.observation_space, "reset")
    assert obs[:, E.FIELDS["max_points"][0]].tolist() == [50.0] * n
    assert _same_trajectory(vec, ref, scaled(3_000) // n, seed=3) > 0


def test_same_games_against_the_search_bot():
    """Its seats play through the same C search as the Python env's SearchBot, seeded
    per decision the same way."""
    vec, ref = _pair(2, 2, ["search:40"], "conga")
    assert _same_trajectory(vec, ref, scaled(300), seed=11) > 0


def test_same_games_against_the_default_search():
    """``search`` alone: the table's default budget in the C env as in SearchBot."""
    vec, ref = _pair(1, 4, "search")
    assert vec.opponents == ["search"] * 3
    assert _same_trajectory(vec, ref, 30, seed=4) > 0


def test_same_games_with_illegal_actions_penalised():
    vec, ref = _pair(4, 2, "greedy", None, illegal_action_penalty=-3.5)
    _same_trajectory(vec, ref, scaled(1_000), seed=9, illegal=0.1)


def test_gymnasiums_checks_for_a_vector_env():
    n = 3
    env = rl.VectorEnv(n, 2)
    check_space(env.single_observation_space, "observation", lambda *a: None)
    assert env.observation_space.shape == (n, E.OBS_SIZE)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([E.N_ACTIONS] * n)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=3)
    check_obs(obs, env.observation_space, "reset")
    # reset and step are deterministic for a seed, and return data not reused
    again = rl.VectorEnv(n, 2)
    assert data_equivalence(again.reset(seed=3), (obs, info), exact=True)
    first = None
    for _ in range(200):
        acts = env.random_actions()
        out = env.step(acts)
        assert data_equivalence(again.step(acts), out, exact=True)
        check_obs(out[0], env.observation_space, "step")
        assert out[1].dtype == np.float64 and out[1].shape == (n,)
        assert out[2].dtype == np.bool_ and out[3].dtype == np.bool_
        assert out[4]["action_mask"].shape == (n, E.N_ACTIONS)
        if first is None:
            first = out
    assert not data_shares_objects(first, out)
    # reset(seed=None) goes on to the next game; reset(seed) starts again
    env.reset()
    assert data_equivalence(env.reset(seed=3), (obs, info), exact=True)
    env.close()


def test_gymnasium_vector_wrappers_run_on_it():
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(rl.VectorEnv(4, 2))
    env.reset(seed=1)
    episodes = 0
    for _ in range(400):
        _, _, _, _, info = env.step(env.unwrapped.random_actions())
        episodes += int(info.get("_episode", np.zeros(4, bool)).sum())
    assert episodes > 0


def test_autoreset_starts_the_next_game_and_ignores_the_action():
    env = rl.VectorEnv(1, 2, illegal_action_penalty=-1.0)
    env.reset(seed=4)
    _, r, term, trunc, info = env.step(np.array([E.STAY_OUT]))  # never allowed at a draw
    assert term[0] and r[0] == -1.0 and info["illegal_action"][0]
    assert not info["action_mask"].any()
    obs, r, term, trunc, info = env.step(np.array([E.STAY_OUT]))  # ignored: next game
    assert r[0] == 0.0 and not term[0] and not trunc[0] and info["action_mask"].any()
    assert obs[0, E.FIELDS["phase_over"][0]] == 0
    one = rl.ChinchonEnv(2)
    one.reset(seed=4)
    np.testing.assert_array_equal(obs[0], one.reset()[0])  # game 1 of seed 4


def test_threads_play_the_same_games():
    one, two = rl.VectorEnv(37, 3, threads=1), rl.VectorEnv(37, 3, threads=2)
    assert data_equivalence(one.reset(seed=8), two.reset(seed=8), exact=True)
    for _ in range(300):
        acts = one.random_actions()
        assert data_equivalence(one.step(acts), two.step(acts), exact=True)


def test_random_actions_are_allowed_and_seeded():
    env = rl.VectorEnv(16, 4, rules="conga")
    _, info = env.reset(seed=2)
    seen = set()
    for _ in range(300):
        acts = env.random_actions()
        masks = info["action_mask"]
        for i, a in enumerate(acts):
            assert masks[i, a] or not masks[i].any()
        seen.update(acts.tolist())
        _, _, _, _, info = env.step(acts)
    assert {E.DRAW_STOCK, E.DRAW_DISCARD} <= seen and any(a < E.CLOSE for a in seen)
    a = env.random_actions(seed=11)
    np.testing.assert_array_equal(a, env.random_actions(seed=11))


def test_copy_false_returns_read_only_buffers():
    env = rl.VectorEnv(2, 2, copy=False)
    obs, info = env.reset(seed=1)
    with pytest.raises(ValueError):
        obs[0, 0] = 5
    out = env.step(env.random_actions())
    assert out[0] is not None and not out[0].flags.writeable
    assert np.shares_memory(out[0], obs)
    np.testing.assert_array_equal(env.action_masks(), out[4]["action_mask"].astype(bool))


def test_an_action_outside_the_mask_raises_and_changes_nothing():
    env = rl.VectorEnv(3, 2, illegal_action_penalty=None)
    obs, info = env.reset(seed=6)
    acts = env.random_actions()
    bad = acts.copy()
    bad[1] = E.REJOIN
    with pytest.raises(ActionNotAllowed, match=r"action 130 \(rejoin\) is not allowed at "
                                               r"table 1"):
        env.step(bad)
    ref = rl.VectorEnv(3, 2, illegal_action_penalty=None)
    ref.reset(seed=6)
    assert data_equivalence(env.step(acts), ref.step(acts), exact=True)


@pytest.mark.parametrize("actions,match", [
    (np.zeros(2, np.int64), r"shape \(3,\)"),
    (np.zeros((3, 1), np.int64), r"shape \(3,\)"),
    (np.zeros(3, np.float32), "integers"),
    (["a", "b", "c"], "integers"),
    (np.full(3, 2**40), "not allowed at table 0"),
    (np.full(3, -1), "not allowed at table 0"),
])
def test_bad_actions_get_a_clear_error_and_the_env_goes_on(actions, match):
    env = rl.VectorEnv(3, 2, illegal_action_penalty=None)
    env.reset(seed=1)
    with pytest.raises(ChinchonError, match=match):
        env.step(actions)
    out = env.step(env.random_actions())
    assert out[4]["action_mask"].any(axis=1).all()


def test_a_refused_action_is_named_as_passed():
    env = rl.VectorEnv(3, 2, illegal_action_penalty=None)
    env.reset(seed=1)
    with pytest.raises(ActionNotAllowed, match=r"action 18446744073709551615 \(the actions "
                                               r"are 0\.\.131\) is not allowed at table 0") as exc:
        env.step(np.full(3, 2**64 - 1, np.uint64))
    assert exc.value.action == 2**64 - 1


def test_bad_arguments_get_a_clear_error():
    with pytest.raises(ChinchonError, match="num_envs"):
        rl.VectorEnv(0)
    with pytest.raises(ChinchonError, match="players"):
        rl.VectorEnv(2, players=7)
    with pytest.raises(ChinchonError, match="opponents"):
        rl.VectorEnv(2, opponents="nobody")
    with pytest.raises(ChinchonError, match="opponents: bad search budget"):
        rl.VectorEnv(2, opponents="search:0")
    with pytest.raises(ChinchonError, match="threads"):
        rl.VectorEnv(2, threads=0)
    # past a C int or the pool's 64 threads, past what numpy can shape: named, not an
    # OverflowError from the conversion
    with pytest.raises(ChinchonError, match=r"threads must be an int 1\.\.64, got 65"):
        rl.VectorEnv(2, threads=65)
    with pytest.raises(ChinchonError, match="threads must be"):
        rl.VectorEnv(2, threads=2**31)
    with pytest.raises(ChinchonError, match=r"num_envs must be an int 1\.\.16777216"):
        rl.VectorEnv(10**20)
    with pytest.raises(ChinchonError, match="illegal_action_penalty"):
        rl.VectorEnv(2, illegal_action_penalty=10**400)
    with pytest.raises(ChinchonError, match="seat"):
        rl.VectorEnv(2, seat=2)
    for copy in ("no", 0, None):
        with pytest.raises(ChinchonError, match="copy must be a bool"):
            rl.VectorEnv(2, copy=copy)
    env = rl.VectorEnv(2)
    with pytest.raises(IllegalAction, match="before reset"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(ChinchonError, match="one seed per table"):
        env.reset(seed=[1])
    for bad in (1.5, True, "ab", 2**256, [0, 2**256]):  # the first three: TypeErrors
        with pytest.raises(ChinchonError, match="seed must be an int"):
            env.reset(seed=bad)
    with pytest.raises(ChinchonError, match="no options"):
        env.reset(seed=1, options={"deck": []})
    for bad in (5, "x", [("reset_mask", True)]):  # a TypeError, a bare ValueError
        with pytest.raises(ChinchonError, match="options must be None or a dict"):
            env.reset(seed=1, options=bad)
    env.reset(seed=1, options={"reset_mask": np.array([True, False])})


def test_a_seed_whose_tables_pass_256_bits_names_the_table():
    """reset(seed=s) seeds table i with s + i: a seed of 256 bits whose later tables'
    pass them is refused naming the table, not as a seed of 257 bits never given."""
    env = rl.VectorEnv(3)
    with pytest.raises(ChinchonError, match=r"seeds table i with seed \+ i, and table 1's "
                                            r"passes 256 bits"):
        env.reset(seed=2**256 - 1)
    env.reset(seed=2**256 - 3)  # table 2's seed is 2**256 - 1: every one fits
    env.reset(seed=[2**256 - 1, 2**256 - 1, None])


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_close_lets_the_tables_and_their_threads_go():
    """close() frees the tables and ends the worker threads at once, while the env is
    still referenced (a wrapper, a list); every call but close then refuses."""
    def threads_now() -> int:
        return len(os.listdir("/proc/self/task"))

    before = threads_now()
    env = rl.VectorEnv(64, threads=3)
    env.reset(seed=1)
    obs, *_ = env.step(env.random_actions())
    assert threads_now() >= before + 2
    env.close()
    assert threads_now() == before and env.closed
    assert obs.shape == (64, E.OBS_SIZE)  # what a step returned stays the caller's
    for name, call in (("reset()", lambda: env.reset(seed=1)),
                       ("step()", lambda: env.step(np.zeros(64, np.int64))),
                       ("random_actions()", env.random_actions),
                       ("action_masks()", env.action_masks)):
        with pytest.raises(IllegalAction, match=re.escape(name) + " after close"):
            call()
    env.close()  # again: nothing to do


@pytest.mark.parametrize("threads", [1, 2])
def test_a_table_never_reset_is_named_and_nothing_moves(threads):
    """A first reset whose mask leaves a table out: step and random_actions are refused
    naming it, before any table moves (table 0 stepped, then the never-started table
    failed in C with an error naming neither); a reset of that table then plays on."""
    env = rl.VectorEnv(2, illegal_action_penalty=None, threads=threads)
    obs, _ = env.reset(seed=5, options={"reset_mask": np.array([True, False])})
    mask = env.action_masks()
    for call in (lambda: env.random_actions(seed=0),
                 lambda: env.step(np.array([rl.encoding.DRAW_STOCK] * 2))):
        with pytest.raises(IllegalAction, match=r"table\(s\) 1 never started"):
            call()
    np.testing.assert_array_equal(env.action_masks(), mask)  # table 0 did not move
    env.reset(seed=6, options={"reset_mask": np.array([False, True])})
    again, *_ = env.step(env.random_actions(seed=0))
    assert not np.array_equal(again[0], obs[0])  # table 0's draw, where it was left
def test_any_seed_of_the_games_and_the_random_actions_of_a_seeded_reset():
    """Seeds of either sign and up to 256 bits, as the games and Gymnasium's vector env
    take them (a negative one, or one over 2**255, was refused); a seeded reset seeds
    the random actions whichever tables it resets (with a reset_mask it did not)."""
    for seed in (-5, 2**255 + 3, 2**256 - 8):
        vec, ref = _pair(4, 2)
        _same_trajectory(vec, ref, 60, seed=seed)  # equal at every step
    twins = [rl.VectorEnv(4), rl.VectorEnv(4)]
    for k, env in enumerate(twins):  # the same tables, their random actions apart
        env.reset(seed=10)
        env.random_actions(seed=k)
        env.reset(seed=3, options={"reset_mask": np.array([False, True, True, False])})
    np.testing.assert_array_equal(twins[0].random_actions(), twins[1].random_actions())
    np.testing.assert_array_equal(twins[0].random_actions(seed=-1),
                                  twins[1].random_actions(seed=-1))
