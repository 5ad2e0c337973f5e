"""Bots that fail on purpose, for the fault tests. They live in an importable module so
that worker processes (a process pool's, Dask's) unpickle them by name.

Each knows which game it is in by its seed: the bot at seat ``s`` of game ``i`` of a
simulation with seed ``S`` is seeded ``game_seed(S, i, 1 + s)``."""

from __future__ import annotations

import os
from typing import Any, Optional

from chinchon.bots import GreedyBot
from chinchon.simulation import game_seed

#: the simulation seed and game index the faulty bots fail in (at seat 0)
SEED, INDEX = 7, 13


class RaisingBot(GreedyBot):
    """A greedy bot with a bug: it raises at its first discard of game INDEX of SEED."""

    name = "raising"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self.doomed = seed == game_seed(SEED, INDEX, 1)

    def choose_discard(self, obs: Any, seat: int) -> Any:
        if self.doomed:
            raise RuntimeError("the raising bot's bug")
        return super().choose_discard(obs, seat)


class DyingBot(GreedyBot):
    """A greedy bot whose process dies (``os._exit``, as a kill would leave it) at its
    first discard in game INDEX of SEED, once per marker file: the file named by
    ``CHINCHON_TEST_DIE_MARKER`` is made just before, so the chunk's second run plays
    on. ``CHINCHON_TEST_DIE_ALWAYS=1``: it dies every time."""

    name = "dying"

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(seed)
        self.doomed = seed == game_seed(SEED, INDEX, 1)

    def choose_discard(self, obs: Any, seat: int) -> Any:
        if self.doomed:
            marker = os.environ["CHINCHON_TEST_DIE_MARKER"]
            if os.environ.get("CHINCHON_TEST_DIE_ALWAYS") == "1" or not os.path.exists(marker):
                with open(marker, "a") as f:
                    f.write(f"{os.getpid()}\n")
                os._exit(3)
        return super().choose_discard(obs, seat)
