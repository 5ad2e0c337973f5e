"""A short self-play loop on the PettingZoo AEC environment, numpy only: every seat
plays the same linear softmax policy over the observation (the mask keeps it legal),
trained by REINFORCE on the per-hand rewards (``reward="hand"``: minus each hand's
points as the hand ends).

    pip install "chinchon[rl]"
    python examples/self_play.py --games 100

A toy, to show the loop: observation and mask in, action out, rewards as hands end,
one policy for all seats (the observation is relative to the seat that sees it). Each
action is credited with its seat's later rewards, discounted by ``--gamma`` per action
of the seat, less their mean over the game. Untrained play seldom closes a hand (a
game of random moves lasts thousands of turns), so the end-of-game reward alone would
teach nothing in a few hundred games; the hands' points do. At the end it prints the
mean points per hand of the policy and of a random player at the same table (seat 0
the policy, seat 1 random): fewer is better.
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
        x = (obs * _SCALE).astype(np.float32)
        logits = self.W @ x + self.b
        logits = np.where(mask.astype(bool), logits, -np.inf)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        a = int(self.rng.choice(E.N_ACTIONS, p=p))
        return a, x, p

    def update(self, actions: np.ndarray, xs: np.ndarray, ps: np.ndarray,
               advantages: np.ndarray, lr: float) -> None:
        """One REINFORCE step: the gradient of log softmax is onehot(a) - p."""
        g = -ps
        g[np.arange(len(actions)), actions] += 1.0
        g *= advantages[:, None]
        self.W += (lr * (g.T @ xs)).astype(np.float32)
        self.b += (lr * g.sum(axis=0)).astype(np.float32)


def play(env, policy: LinearPolicy, seed: int, random_seats=(), rng=None):
    """One game. Returns, by agent, its moves ``(action, x, p)`` and the reward that
    came after each (the hand's reward arrives at the agent's next turn or at the
    end), the points of each hand it played that was not void, and the steps played."""
    env.reset(seed=seed)
    moves = {a: [] for a in env.possible_agents}
    after = {a: [] for a in env.possible_agents}
    hands = {a: [] for a in env.possible_agents}  # each hand's points, as it ends
    game, seen = env.unwrapped.game, None
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if after[agent]:
            after[agent][-1] += reward
        last = game.last_hand
        if last is not None and last.number != seen and last.settlement is not None:
            seen = last.number
            for seat in last.order:
                hands[env.possible_agents[seat]].append(last.points[seat])
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if env.possible_agents.index(agent) in random_seats:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action, x, p = policy.act(obs["observation"], mask)
            moves[agent].append((action, x, p))
            after[agent].append(0.0)
        env.step(action)
        steps += 1
    return moves, after, hands, steps


def returns(rewards: list[float], gamma: float) -> np.ndarray:
    """Each action's discounted sum of the rewards after it."""
    out = np.zeros(len(rewards))
    g = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        g = rewards[t] + gamma * g
        out[t] = g
    return out


def main(argv: list[str] | None = None) -> float:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--gamma", type=float, default=0.9)
    p.add_argument("--max-turns", type=int, default=2000, help="truncates a game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval", type=int, default=10, help="games against a random player")
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(rng)
    env = chinchon.rl.env(players=args.players, reward="hand", max_turns=args.max_turns)
    lengths = []
    for game in range(args.games):
        moves, after, _, steps = play(env, policy, args.seed + game)
        lengths.append(steps)
        batch = [(m, returns(after[a], args.gamma) / 50.0) for a, m in moves.items() if m]
        if not batch:
            continue
        actions = np.array([a for m, _ in batch for a, _, _ in m])
        xs = np.array([x for m, _ in batch for _, x, _ in m])
        ps = np.array([p_ for m, _ in batch for _, _, p_ in m])
        adv = np.concatenate([r for _, r in batch])
        policy.update(actions, xs, ps, (adv - adv.mean()) / (adv.std() + 1e-8), args.lr)
    points = {"player_0": [], "player_1": []}
    for game in range(args.eval):
        _, _, hands, _ = play(env, policy, 10**6 + game, random_seats=(1,), rng=rng)
        for agent in points:
            points[agent] += hands[agent]
    mine, theirs = (float(np.mean(points[a])) if points[a] else float("nan") for a in points)
    steps = f"{np.mean(lengths):.0f}" if lengths else "no"
    print(f"{args.games} self-play games, {steps} steps each; points per "
          f"hand against a random player: the policy {mine:.1f}, the random player "
          f"{theirs:.1f}")
    return mine - theirs


if __name__ == "__main__":
    main()
