"""A short self-play loop on the PettingZoo AEC environment, numpy only: every seat
plays the same linear softmax policy over the observation (the mask keeps it legal),
trained by REINFORCE on the end-of-game reward (+1 the winner, -1 the others).

    pip install "chinchon[rl]"
    python examples/self_play.py --games 200

A toy, to show the loop: observation and mask in, action out, rewards at the end, one
policy for all seats (the observation is relative to the seat that sees it). At the
end it prints the mean game length and the policy's win rate against a random player
(seat 1 random, seat 0 the policy).
"""

from __future__ import annotations

import argparse

import numpy as np

import chinchon.rl
from chinchon.rl import encoding as E

# the observation scaled to about [0, 1] (the Box's bounds, clipped: totals and the
# like are large)
_SCALE = 1.0 / np.maximum(1.0, np.minimum(E.OBS_HIGH, 100.0))


class LinearPolicy:
    """Softmax over ``W @ obs + b`` restricted to the mask."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.W = np.zeros((E.N_ACTIONS, E.OBS_SIZE), np.float32)
        self.b = np.zeros(E.N_ACTIONS, np.float32)
        self.rng = rng

    def act(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
        x = obs * _SCALE
        logits = self.W @ x + self.b
        logits = np.where(mask.astype(bool), logits, -np.inf)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        a = int(self.rng.choice(E.N_ACTIONS, p=p))
        return a, x, p

    def update(self, trajectory: list, ret: float, lr: float) -> None:
        for a, x, p in trajectory:  # grad of log softmax: onehot(a) - p
            g = -p
            g[a] += 1.0
            self.W += lr * ret * np.outer(g, x).astype(np.float32)
            self.b += lr * ret * g.astype(np.float32)


def play(env, policy: LinearPolicy, seed: int, random_seats=(), rng=None):
    """One game; returns the trajectories and rewards by agent, and the steps."""
    env.reset(seed=seed)
    traj = {a: [] for a in env.possible_agents}
    final = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        mask = obs["action_mask"]
        if env.possible_agents.index(agent) in random_seats:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action, x, p = policy.act(obs["observation"], mask)
            traj[agent].append((action, x, p))
        env.step(action)
        steps += 1
    return traj, final, steps


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval", type=int, default=20, help="games against a random player")
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(rng)
    env = chinchon.rl.env(players=args.players, max_turns=200)
    lengths = []
    for game in range(args.games):
        traj, final, steps = play(env, policy, args.seed + game)
        lengths.append(steps)
        for agent, moves in traj.items():
            policy.update(moves, final.get(agent, 0.0), args.lr / max(1, len(moves)))
    wins = 0.0
    for game in range(args.eval):
        _, final, _ = play(env, policy, 10**6 + game, random_seats=(1,), rng=rng)
        wins += final.get("player_0", 0.0) > 0
    rate = wins / max(1, args.eval)
    print(f"{args.games} self-play games, {np.mean(lengths):.0f} steps each; "
          f"against a random player: {rate:.0%} won")
    return rate


if __name__ == "__main__":
    main()
