"""A random agent against the built-in bots (the Gymnasium environment, numpy only).

    pip install "chinchon[rl]"
    python examples/random_agent.py --games 20 --opponents greedy

Each step picks a random action among those the mask allows; prints the learner's mean
reward (+1 a win, -1 a loss) and the steps per game.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import chinchon.rl  # noqa: F401 - registers chinchon/Chinchon-v0


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponents", default="greedy", help="greedy, expert or random")
    p.add_argument("--rules", default="barajamos")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    env = gymnasium.make("chinchon/Chinchon-v0", players=args.players,
                         opponents=args.opponents, rules=args.rules, max_turns=2000)
    rng = np.random.default_rng(args.seed)
    rewards, steps = [], []
    for game in range(args.games):
        obs, info = env.reset(seed=args.seed + game)
        total, n, done = 0.0, 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            n += 1
            done = terminated or truncated
        rewards.append(total)
        steps.append(n)
    mean = float(np.mean(rewards))
    print(f"{args.games} games against {args.opponents}: mean reward {mean:+.2f}, "
          f"{np.mean(steps):.0f} learner steps per game")
    return mean


if __name__ == "__main__":
    main()
