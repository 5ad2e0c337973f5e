"""Chinchón for reinforcement learning (the optional extra ``chinchon[rl]``:
PettingZoo and Gymnasium; docs/rl.md).

- :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, every seat an agent.
- ``gymnasium.make("chinchon/Chinchon-v0", players=2, opponents="greedy", rules=...)``
  (registered on import): one learner seat against the built-in bots
  (:class:`ChinchonEnv`).
- :class:`VectorEnv`: ``num_envs`` of those tables stepped together in C (Gymnasium's
  ``VectorEnv`` API; the native core's).
- :mod:`chinchon.rl.encoding`: the action numbers and the observation layout, the one
  place that defines them.

Nothing else in the package imports this subpackage, PettingZoo or Gymnasium.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401 - the AEC environment's
except ImportError as exc:  # the extra is missing: say which, not the module's name alone
    raise ImportError(f"chinchon.rl needs the rl extra (PettingZoo and Gymnasium): pip "
                      f"install 'chinchon[rl]' ({exc})") from exc

from . import encoding
from .aec import REWARDS, env, raw_env
from .encoding import N_ACTIONS, OBS_SIZE, action_name, action_of
from .gym_env import ChinchonEnv
from .vector import VectorEnv

__all__ = ["env", "raw_env", "ChinchonEnv", "VectorEnv", "REWARDS", "encoding", "N_ACTIONS", "OBS_SIZE",
           "action_name", "action_of", "ENV_ID"]

#: the Gymnasium id of :class:`ChinchonEnv`
ENV_ID = "chinchon/Chinchon-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="chinchon.rl.gym_env:ChinchonEnv")
