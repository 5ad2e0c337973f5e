"""Benchmarks of the reinforcement-learning environments (pytest-benchmark; outside
testpaths; needs the rl extra).

Run: ``pytest benchmarks/bench_rl.py``. The measure (docs/rl.md#speed): one core, 2
players, ``player_1`` played by a greedy bot, ``player_0`` a learner taking random legal
actions; every step reads the observation and the mask (``env.last()``) -- the
learner's steps and the bot's. Target with the native core: the AEC environment at >=
50,000 steps per second. The Gymnasium environment's rate (one step: the learner's
action and the bot's moves after it) is recorded beside it. The C vector environment
(``VectorEnv``, 1,024 tables, ``random_actions`` drawing the learner's random legal
actions in C; every step writes all the observations and masks): target >= 1,000,000
learner steps per second on one thread, ``threads=2`` >= 1.7x that on two idle
cores; its CPU-time rate is recorded too. OpenSpiel's gin rummy
through pyspiel, when installed, runs the same loop for the ratio. Rates are recorded
(``extra_info``), not asserted: the machines are shared. ``python
benchmarks/bench_rl.py bench.json`` prints the rates of a ``--benchmark-json`` file and
the ratios the docs quote (two threads to one, the vector env to OpenSpiel).
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import chinchon  # noqa: E402
import chinchon.rl as rl  # noqa: E402
from chinchon.bots import GreedyBot  # noqa: E402

STEPS = 20_000 if chinchon.IMPLEMENTATION == "native" else 500


def aec_steps(steps: int, seed: int = 1) -> tuple[int, int]:
    """``steps`` AEC steps of the measure; returns (steps, learner steps)."""
    env = rl.env(players=2)
    bot = GreedyBot(seed)
    pick = random.Random(seed).choice
    env.reset(seed=seed)
    n = learner = 0
    while n < steps:
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if agent == "player_0":
                env.step(pick(np.flatnonzero(obs["action_mask"]).tolist()))
                learner += 1
            else:
                env.step(env.bot_action(bot))
            n += 1
            if n >= steps:
                break
        else:
            env.reset()
    return n, learner


def gym_steps(steps: int, seed: int = 1) -> int:
    env = rl.ChinchonEnv(players=2, opponents="greedy")
    pick = random.Random(seed).choice
    env.reset(seed=seed)
    for _ in range(steps):
        mask = env.action_masks()
        _, _, terminated, truncated, _ = env.step(pick(np.flatnonzero(mask).tolist()))
        if terminated or truncated:
            env.reset()
    return steps


def test_aec_two_players_greedy_opponent(benchmark):
    n, learner = benchmark.pedantic(aec_steps, args=(STEPS,), rounds=3, iterations=1,
                                    warmup_rounds=1)
    t = benchmark.stats.stats.median
    benchmark.extra_info.update(op="AEC env, 2 players, greedy opponent, random learner",
                                steps_per_second=n / t, learner_steps_per_second=learner / t,
                                implementation=chinchon.IMPLEMENTATION)


def test_gymnasium_two_players_greedy_opponent(benchmark):
    n = benchmark.pedantic(gym_steps, args=(STEPS // 2,), rounds=3, iterations=1,
                           warmup_rounds=1)
    benchmark.extra_info.update(op="Gymnasium env, 2 players, greedy opponent",
                                learner_steps_per_second=n / benchmark.stats.stats.median,
                                implementation=chinchon.IMPLEMENTATION)


TABLES = 1024
VECTOR_STEPS = 200 if chinchon.IMPLEMENTATION == "native" else 0


def vector_steps(env, steps: int) -> int:
    """``steps`` steps of every table of ``env`` with random legal actions."""
    for _ in range(steps):
        env.step(env.random_actions())
    return steps * env.num_envs


def _vector(benchmark, threads: int, copy: bool) -> None:
    if not rl.vector.NATIVE:
        pytest.skip("the vector environment is the native core's")
    env = rl.VectorEnv(TABLES, 2, "greedy", threads=threads, copy=copy)
    env.reset(seed=1)
    cpu = []

    def run() -> int:
        c = time.process_time()
        n = vector_steps(env, VECTOR_STEPS)
        cpu.append(time.process_time() - c)
        return n

    n = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    benchmark.extra_info.update(
        op=f"VectorEnv({TABLES} tables, 2 players, greedy), threads={threads}, copy={copy}",
        learner_steps_per_second=n / benchmark.stats.stats.median,
        cpu_learner_steps_per_second=n / sorted(cpu)[len(cpu) // 2])


def test_vector_env_one_thread(benchmark):
    _vector(benchmark, 1, False)


def test_vector_env_two_threads(benchmark):
    _vector(benchmark, 2, False)


def test_vector_env_one_thread_copies(benchmark):
    _vector(benchmark, 1, True)


def test_openspiel_gin_rummy_for_the_ratio(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")

    def run(steps: int) -> int:
        rng = random.Random(1)
        state = game.new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
        return steps

    n = benchmark.pedantic(run, args=(STEPS,), rounds=3, iterations=1)
    benchmark.extra_info.update(op="OpenSpiel gin rummy (pyspiel), random actions",
                                steps_per_second=n / benchmark.stats.stats.median)


def report(path: str) -> None:
    """The rates of a --benchmark-json file of this module, and its ratios."""
    rate = {}
    for b in json.load(open(path))["benchmarks"]:
        info = b["extra_info"]
        r = rate[b["name"]] = info.get("learner_steps_per_second", info.get("steps_per_second"))
        if "steps_per_second" in info and "learner_steps_per_second" in info:
            print(f"{info['op']}: {info['steps_per_second']:,.0f} steps/s (the learner's "
                  f"{r:,.0f})")
        else:
            print(f"{info['op']}: {r:,.0f} {'learner ' * ('learner_steps_per_second' in info)}"
                  "steps/s")
    one = rate.get("test_vector_env_one_thread")
    two = rate.get("test_vector_env_two_threads")
    spiel = rate.get("test_openspiel_gin_rummy_for_the_ratio")
    if one and two:
        print(f"threads=2 / threads=1: {two / one:.2f}x (target >= 1.7 on two idle cores)")
    if one and spiel:
        print(f"vector env / OpenSpiel gin rummy: {one / spiel:.0f}x (target >= 50)")


if __name__ == "__main__":
    report(sys.argv[1])
