"""The vectorised environment: ``num_envs`` tables of :class:`~chinchon.rl.ChinchonEnv`
stepped together in C (docs/rl.md#the-vector-environment).

One :meth:`VectorEnv.step` moves every table: the learner's action, then the bots'
moves until the learner decides again, the observation and the mask written, all in C
without the GIL, over ``threads`` threads. Table ``i`` plays exactly the games of a
:class:`~chinchon.rl.ChinchonEnv` reset with seed ``seed + i`` and then without one
(Gymnasium's next-step autoreset), move for move.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Sequence, Union, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .. import bots as _bots
from .._args import check_rules
from .._backend import IMPLEMENTATION, native
from ..errors import ActionNotAllowed, ChinchonError, IllegalAction, shown
from ..rules import NATIVE_MINUS_TEN, Rules
from . import encoding as E
from .aec import check_env_args
from .gym_env import check_opponents

__all__ = ["VectorEnv", "NATIVE"]

# the C tables (None in a pure-Python install)
_native = native("vecenv")

#: whether this install has the C tables (:class:`VectorEnv` needs them)
NATIVE = _native is not None and IMPLEMENTATION != "python"

if _native is not None and (_native.OBS_SIZE != E.OBS_SIZE
                            or _native.N_ACTIONS != E.N_ACTIONS):  # pragma: no cover
    raise ImportError("chinchon.rl.vector: the C tables' sizes are not chinchon.rl.encoding's")


def _decks(players: int) -> int:
    return 2 if players >= 5 else 1


#: the most tables one env holds (each about 15 kB with its buffers) and the most
#: threads (the calling one and 63 workers: the C pool's own limit)
MAX_NUM_ENVS = 1 << 24
MAX_THREADS = 64

#: the stream of a table set's random actions seeded by ``reset(seed=s)``: another
#: generator than any table's of ``s`` (and than ``random_actions(seed=s)``'s)
_SAMPLE_STREAM = 0x73616D706C65  # "sample"


def _checked_seed(seed: Any) -> int:
    if (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
            or int(seed).bit_length() > 256):
        raise ChinchonError(f"a seed must be an int of at most 256 bits (either sign) or "
                            f"None, got {shown(seed)}")
    return int(seed)


class VectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` Chinchón tables, the learner at ``seat`` of each, the other seats
    played by the built-in bots in C (docs/rl.md#the-vector-environment).

    ``players``, ``opponents``, ``rules``, ``seat``, ``reward``, ``max_turns`` and
    ``illegal_action_penalty`` are :class:`~chinchon.rl.ChinchonEnv`'s. ``threads``:
    the tables are cut into runs that the calling thread and ``threads - 1`` workers
    take in turn, each step (one thread on Windows); between steps a worker watches for
    the next a fraction of a millisecond, then sleeps. ``copy``: ``step`` and ``reset``
    return copies of the env's buffers (the default, as Gymnasium's vector envs do);
    with ``copy=False`` they return the buffers themselves (and ``info``'s arrays),
    read-only, overwritten by the next call (the fast path).

    Observations ``(num_envs, OBS_SIZE)`` float32, rewards ``(num_envs,)`` float64,
    terminations and truncations ``(num_envs,)`` bool; ``info["action_mask"]`` is
    ``(num_envs, N_ACTIONS)`` int8 and :meth:`action_masks` the same as bool. Autoreset
    is Gymnasium's next-step mode: the step after a table's game ends starts its next
    game (that table's action is ignored; reward 0, not done). An action outside a
    table's mask: with ``illegal_action_penalty`` a number (-1.0 by default) that
    table's game ends with that reward and ``info["illegal_action"]`` marks it; with
    None the step raises :class:`~chinchon.ActionNotAllowed` naming the table and the
    action, and no table moves.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, players: int = 2,
                 opponents: Union[str, Sequence[str]] = "greedy",
                 rules: Union[Rules, str, None] = None, *, seat: int = 0,
                 reward: str = "game", max_turns: Optional[int] = None,
                 illegal_action_penalty: Optional[float] = -1.0, threads: int = 1,
                 copy: bool = True) -> None:
        if not NATIVE:
            raise ChinchonError("chinchon.rl.VectorEnv needs the native implementation "
                                "(this install runs CHINCHON_IMPLEMENTATION=python or has "
                                "no compiled core); use gymnasium.vector.SyncVectorEnv "
                                "over chinchon/Chinchon-v0 instead")
        if (isinstance(num_envs, bool) or not isinstance(num_envs, int)
                or not 1 <= num_envs <= MAX_NUM_ENVS):
            raise ChinchonError(f"num_envs must be an int 1..{MAX_NUM_ENVS}, got "
                                f"{shown(num_envs)}")
        check_env_args(players, reward, max_turns, illegal_action_penalty,
                       max_turns_below=2**64)  # the C tables count turns in a uint64
        names = check_opponents(players, seat, opponents)
        if (isinstance(threads, bool) or not isinstance(threads, int)
                or not 1 <= threads <= MAX_THREADS):
            raise ChinchonError(f"threads must be an int 1..{MAX_THREADS}, got "
                                f"{shown(threads)}")
        if not isinstance(copy, (bool, np.bool_)):
            raise ChinchonError(f"copy must be a bool, got {shown(copy)}")
        self.rules = check_rules(rules)
        if self.rules.minus_ten > NATIVE_MINUS_TEN:
            raise ChinchonError(f"the native engine takes Rules.minus_ten up to "
                                f"{NATIVE_MINUS_TEN}, got {self.rules.minus_ten}")
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.opponents = names
        self.reward_scheme = reward
        self.max_turns = max_turns
        self.illegal_action_penalty = illegal_action_penalty
        self.threads = threads
        self.copy = bool(copy)
        self.render_mode = None
        self.single_observation_space = spaces.Box(E.OBS_LOW, E.OBS_HIGH, dtype=np.float32)
        self.single_action_space = spaces.Discrete(E.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        others = iter(self.opponents)
        # the search's default budget spelt out for this table (the engine takes budgets)
        seat_bots = [_bots.bot_name(next(others), players) if s != seat else "greedy"
                     for s in range(players)]
        constant = E.Encoder(players, self.rules, _decks(players)).observe(seat)
        self._tables = _native.Tables(
            num_envs, players, seat_bots, self.rules, seat, reward == "hand", max_turns,
            None if illegal_action_penalty is None else float(illegal_action_penalty),
            np.ascontiguousarray(constant, np.float32), _bots.base.STALE_TURNS,
            _bots.base.STALE_SHAKE, _bots.ExpertBot.WAIT_FOR, threads)
        n = num_envs
        self._obs = np.zeros((n, E.OBS_SIZE), np.float32)
        self._masks = np.zeros((n, E.N_ACTIONS), np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.uint8)
        self._truncated = np.zeros(n, np.uint8)
        self._refused = np.zeros(n, np.uint8)
        self._actions = np.zeros(n, np.int64)
        self._sampled = np.zeros(n, np.int64)
        self._tables.seed_sample(random.SystemRandom().randrange(2**63))
        self._seeded = [False] * n
        self._started = False  # every table reset once
        self._views = tuple(self._read_only(a) for a in (
            self._obs, self._rewards, self._terminated.view(np.bool_),
            self._truncated.view(np.bool_)))
        self._mask_view = self._read_only(self._masks)
        self._mask_bool = self._read_only(self._masks.view(np.bool_))
        self._every_table = self._read_only(np.ones(n, bool))  # info["_action_mask"]

    @staticmethod
    def _read_only(a: np.ndarray) -> np.ndarray:
        v = a.view()
        v.flags.writeable = False
        return v

    # ------------------------------------------------------------ Gymnasium's API

    def reset(self, *, seed: Union[int, Sequence[Optional[int]], None] = None,
              options: Optional[dict[str, Any]] = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game at every table (or those of ``options["reset_mask"]``, a bool
        array): ``seed`` an int seeds table ``i`` with ``seed + i``, a list seeds each
        (None: its next game), None starts each table's next game (the first from a seed
        drawn from the OS). No other options."""
        n = self.num_envs
        if options is not None and not isinstance(options, dict):
            raise ChinchonError(f"options must be None or a dict (reset_mask), got "
                                f"{shown(options)}")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ChinchonError(f"VectorEnv.reset takes no options but reset_mask, got "
                                f"{shown(sorted(options))}")
        self._open("reset()")
        if seed is None:
            seeds: list[Optional[int]] = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            first = _checked_seed(seed)
            if (first + n - 1).bit_length() > 256:  # table i's seed + i would be refused
                past = 2**256 - first
                raise ChinchonError(f"reset(seed={first}) seeds table i with seed + i, and "
                                    f"table {past}'s passes 256 bits; give a smaller seed "
                                    f"or one seed per table")
            seeds = [first + i for i in range(n)]
        elif not isinstance(seed, (list, tuple, np.ndarray)):
            raise ChinchonError(f"reset's seed must be an int, a list of one int (or None) per "
                                f"table, or None, got {shown(seed)}")
        else:
            seeds = list(cast(Sequence[Optional[int]], seed))
            if len(seeds) != n:
                raise ChinchonError(f"reset needs one seed per table ({n}), got {len(seeds)}")
        seeds = [None if s is None else _checked_seed(s) for s in seeds]
        if mask is None:
            which = np.ones(n, bool)
        else:
            which = np.asarray(mask)
            if which.shape != (n,) or which.dtype != np.bool_:
                raise ChinchonError(f"options['reset_mask'] must be a bool array of shape "
                                    f"({n},), got {shown(mask)}")
        tables = self._tables
        given = [s for s, reset in zip(seeds, which) if s is not None and reset]
        if given:  # the random actions of a seeded reset, whichever tables it resets
            tables.seed_sample(given[0], _SAMPLE_STREAM)
        for i in np.flatnonzero(which):
            s = seeds[i]
            if s is None and not self._seeded[i]:
                s = random.SystemRandom().randrange(2**63)
            tables.reset(int(i), None if s is None else int(s), self._obs, self._masks)
            self._seeded[i] = True
        self._rewards[which] = 0.0
        self._terminated[which] = 0
        self._truncated[which] = 0
        self._started = all(self._seeded)
        obs = self._obs.copy() if self.copy else self._views[0]
        return obs, self._info(False)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every table with its action (an int array of shape ``(num_envs,)``)."""
        self._open("step()")
        if not self._started:
            raise self._not_started("step()")
        acts, given = self._checked(actions)
        tables = self._tables
        if self.illegal_action_penalty is None:
            bad = tables.refused(acts)
            if bad < self.num_envs:
                a = int(given[bad])  # as passed (acts clips a uint64 above 2**63 - 1)
                allowed = ", ".join(f"{k} ({E.action_name(int(k))})"
                                    for k in np.flatnonzero(self._masks[bad]))
                what = (f"action {a} ({E.action_name(a)})" if 0 <= a < E.N_ACTIONS
                        else f"action {a} (the actions are 0..{E.N_ACTIONS - 1})")
                raise ActionNotAllowed(f"{what} is not allowed at table {bad} now; its "
                                       f"allowed actions are: {allowed}", a)
        tables.step(acts, self._obs, self._masks, self._rewards, self._terminated,
                    self._truncated, self._refused)
        info = self._info(True)
        if self.copy:
            return (self._obs.copy(), self._rewards.copy(),
                    self._terminated.astype(bool), self._truncated.astype(bool), info)
        obs, rewards, terminated, truncated = self._views
        return obs, rewards, terminated, truncated, info

    def _checked(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """The actions as the int64 array the tables read (a uint64 above 2**63 - 1, no
        action, clipped to it) and as given; else a clear error."""
        n = self.num_envs
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.shape != (n,):
            raise ChinchonError(f"actions must have shape ({n},) (one per table), got "
                                f"shape {a.shape}")
        if a.dtype.kind not in "iu":
            raise ChinchonError(f"actions must be integers (an int array), got dtype "
                                f"{a.dtype}")
        if a.dtype == np.int64 and a.flags.c_contiguous:
            return a, a
        clipped = a
        if a.dtype.kind == "u" and a.dtype.itemsize == 8 and a.size and a.max() >= 2**63:
            clipped = np.minimum(a, 2**63 - 1)
        acts = self._actions
        acts[:] = clipped
        return acts, a

    def _info(self, stepped: bool) -> dict[str, Any]:
        masks = self._masks.copy() if self.copy else self._mask_view
        info: dict[str, Any] = {"action_mask": masks, "_action_mask": (
            np.ones(self.num_envs, bool) if self.copy else self._every_table)}
        if stepped and self._refused.any():
            info["illegal_action"] = self._refused.astype(bool)
            info["_illegal_action"] = info["illegal_action"].copy()
        return info

    def action_masks(self) -> np.ndarray:
        """Every table's allowed actions now, ``(num_envs, N_ACTIONS)`` bool (a copy;
        with ``copy=False`` a read-only view)."""
        self._open("action_masks()")
        return self._masks.astype(bool) if self.copy else self._mask_bool

    def random_actions(self, seed: Optional[int] = None) -> np.ndarray:
        """A uniformly random allowed action of every table, ``(num_envs,)`` int64 (0
        for a table whose game just ended: its next step starts the next game), drawn
        in C from the env's own generator: seeded by ``seed`` when given, else by the
        last ``reset(seed=...)`` (or the OS). A new array unless ``copy=False`` (then
        a buffer the next call overwrites)."""
        self._open("random_actions()")
        if not self._started:
            raise self._not_started("random_actions()")
        if seed is not None:
            self._tables.seed_sample(_checked_seed(seed))
        out = self._sampled
        self._tables.sample(out)
        return out.copy() if self.copy else out

    def _not_started(self, call: str) -> IllegalAction:
        never = [i for i, seeded in enumerate(self._seeded) if not seeded]
        if len(never) == self.num_envs:
            return IllegalAction(f"{call} before reset(): call reset() first")
        shown_tables = ", ".join(map(str, never[:10])) + (", ..." if len(never) > 10 else "")
        return IllegalAction(f"{call} before every table was reset: table(s) {shown_tables} "
                             f"never started (their reset_mask entries were False); "
                             f"reset them first")

    def _open(self, call: str) -> None:
        if self.closed:
            raise IllegalAction(f"{call} after close(): the tables are gone")

    #: what close() lets go: the tables (their memory and worker threads) and buffers
    _HELD = ("_tables", "_obs", "_masks", "_rewards", "_terminated", "_truncated", "_refused",
             "_actions", "_sampled", "_views", "_mask_view", "_mask_bool", "_every_table")

    def close_extras(self, **kwargs: Any) -> None:
        """Let the tables go now, not when the env is collected: their memory and the
        worker threads (the arrays a step returned stay the caller's, copies or views)."""
        for name in self._HELD:
            self.__dict__.pop(name, None)
