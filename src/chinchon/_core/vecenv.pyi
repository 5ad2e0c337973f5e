"""Type stub of the compiled module ``chinchon._core.vecenv`` (built from vecenv.pyx):
the learning tables of :class:`chinchon.rl.VectorEnv`, stepped in C."""

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

OBS_SIZE: int
N_ACTIONS: int

class Tables:
    n: int
    threads: int
    def __init__(self, n: int, players: int, bots: Sequence[str], rules: Any, learner: int,
                 hand_rewards: bool, max_turns: Optional[int], penalty: Optional[float],
                 constant: np.ndarray, stale_turns: int, stale_shake: float,
                 wait_for: float, threads: int) -> None: ...
    def reset(self, i: int, seed: Optional[int], obs: np.ndarray, masks: np.ndarray) -> None: ...
    def seed_sample(self, seed: int) -> None: ...
    def sample(self, actions: np.ndarray) -> None: ...
    def refused(self, actions: np.ndarray) -> int: ...
    def step(self, actions: np.ndarray, obs: np.ndarray, masks: np.ndarray,
             rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
             refused: np.ndarray) -> None: ...
