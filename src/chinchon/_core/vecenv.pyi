"""Type stub of the compiled module ``chinchon._core.vecenv`` (built from vecenv.pyx):
the learning tables of :class:`chinchon.rl.VectorEnv`, stepped in C."""

from typing import Optional

import numpy as np
from typing_extensions import disjoint_base

OBS_SIZE: int
N_ACTIONS: int

# made by chinchon.rl.VectorEnv only: Tables(n, players, bots, rules, learner,
# hand_rewards, max_turns, penalty, constant, stale_turns, stale_shake, wait_for,
# threads) (Cython's __cinit__, whose signature the runtime does not show)
@disjoint_base
class Tables:
    @property
    def n(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def reset(self, i: int, seed: Optional[int], obs: np.ndarray, masks: np.ndarray) -> None: ...
    def seed_sample(self, seed: int, stream: int | None = None) -> None: ...
    def sample(self, actions: np.ndarray) -> None: ...
    def refused(self, actions: np.ndarray) -> int: ...
    def step(self, actions: np.ndarray, obs: np.ndarray, masks: np.ndarray,
             rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
             refused: np.ndarray) -> None: ...
