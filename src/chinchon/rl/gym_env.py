"""The Gymnasium environment: one learner seat, the other seats played by the built-in
bots between the learner's actions (docs/rl.md). Registered as
``chinchon/Chinchon-v0`` on ``import chinchon.rl``.
"""

from __future__ import annotations

from operator import index as _as_index
from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import BOTS, Bot, SearchBot, bot_name, make_bot
from ..errors import ChinchonError, IllegalAction, shown
from ..game.rng import MAX_SEED_BITS
from ..rules import Rules
from ..simulation.play import game_seed
from . import encoding as E
from .aec import raw_env

__all__ = ["ChinchonEnv"]


def check_opponents(players: int, seat: object, opponents: object) -> list[str]:
    """The canonical bot name of each seat but the learner's ``seat``: ``opponents`` is
    one name for all, or one per other seat; an error names the bad argument."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ChinchonError(f"seat must be a seat 0..{players - 1}, got {shown(seat)}")
    try:
        names = ([opponents] * (players - 1) if isinstance(opponents, str)
                 else list(opponents))  # type: ignore[call-overload]
    except TypeError:  # not a name nor a sequence of names: refused below
        names = []
    if len(names) != players - 1 or not all(isinstance(n, str) for n in names):
        raise ChinchonError(f"opponents must be a bot name ({', '.join(BOTS)}) or one "
                            f"per other seat ({players - 1}), got {shown(opponents)}")
    try:  # the canonical names; an unknown name or a bad search budget named
        return [bot_name(n) for n in names]
    except ChinchonError as exc:
        raise ChinchonError(f"opponents: {exc}") from None


def _int_or(action: Any) -> int:
    """``action`` as an int, or -1 when it is none."""
    if isinstance(action, (bool, np.bool_)):
        return -1
    try:
        return _as_index(action)
    except TypeError:
        return -1


class ChinchonEnv(gymnasium.Env[Any, Any]):
    """One Chinchón game from the learner's seat (``seat``, 0 by default), the other
    seats played by bots: ``opponents`` is a bot name (``'greedy'``, ``'expert'``,
    ``'random'``) for all of them, or one name per other seat in seat order.

    The observation is the learner's observation vector (``float32``,
    :data:`~chinchon.rl.encoding.OBS_SIZE`), the action one of
    :data:`~chinchon.rl.encoding.N_ACTIONS`; :meth:`action_masks` (what sb3-contrib's
    MaskablePPO reads) and ``info["action_mask"]`` say which are allowed. The reward is
    the learner's reward of :class:`~chinchon.rl.raw_env` summed over its action and the
    bots' moves after it; ``terminated`` at the end of the game, ``truncated`` after
    ``max_turns``. ``rules``, ``reward``, ``max_turns``, ``illegal_action_penalty`` and
    ``render_mode`` are as for :class:`~chinchon.rl.raw_env`. ``reset(seed=s)`` plays
    game 0 of seed ``s`` (an int of at most 256 bits, either sign, as a game's), each
    ``reset()`` after it the next game (game ``k`` is dealt and its bots seeded as game
    ``k`` of ``simulate(..., seed=s)``: the games of :class:`~chinchon.rl.VectorEnv`);
    the first ``reset()`` without a seed draws one from ``np_random``. ``np_random`` is
    seeded with ``s``, or ``2**256 - 1 - s`` for a negative ``s`` (Gymnasium's seeding
    takes none). A game over before the learner's first decision is skipped.
    ``options`` as for :class:`~chinchon.rl.raw_env`. A refused ``reset`` (a bad seed
    or option) changes nothing.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, players: int = 2, opponents: Union[str, Sequence[str]] = "greedy",
                 rules: Union[Rules, str, None] = None, *, seat: int = 0,
                 reward: str = "game", max_turns: Optional[int] = None,
                 illegal_action_penalty: Optional[float] = -1.0,
                 render_mode: Optional[str] = None) -> None:
        self._aec = raw_env(players, rules, reward=reward, max_turns=max_turns,
                            illegal_action_penalty=illegal_action_penalty,
                            render_mode=render_mode)
        self.opponents = check_opponents(players, seat, opponents)
        if any(n.startswith("search") for n in self.opponents):
            try:
                SearchBot.check_rules(self._aec.rules)
            except ChinchonError as e:
                raise ChinchonError(f"opponents: {e}") from None
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = spaces.Box(E.OBS_LOW, E.OBS_HIGH, dtype=np.float32)
        self.action_space = spaces.Discrete(E.N_ACTIONS)
        self._agent = self._aec.possible_agents[seat]
        self._bots: list[Optional[Bot]] = []
        self._done = True
        self._base: Optional[int] = None
        self._game = 0

    @property
    def aec(self) -> raw_env:
        """The AEC environment underneath (its ``game``, ``render``...)."""
        return self._aec

    def action_masks(self) -> np.ndarray:
        """The learner's allowed actions now (``bool``, :data:`~chinchon.rl.encoding.
        N_ACTIONS`)."""
        return self._aec.action_mask().astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        # every check before any change: a refused reset leaves the env as it was
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed.bit_length() > MAX_SEED_BITS):
            raise IllegalAction(f"seed must be an int of at most {MAX_SEED_BITS} bits or "
                                f"None, got {shown(seed)}")
        rng, rng_seed = self._np_random, self._np_random_seed
        rng_state = None  # np_random's state before a seed is drawn from it
        if seed is not None:  # a new seed: its game 0
            base, game = seed, 0
        elif self._base is not None:  # the next game
            base, game = self._base, self._game + 1
        else:  # never seeded: a seed drawn from np_random (put back if refused)
            if rng is not None:
                rng_state = rng.bit_generator.state
            base, game = int(self.np_random.integers(2**63)), 0
        try:
            self._start(base, game, options)  # the AEC env checks the options first
        except BaseException:
            if rng is not None and rng_state is not None:  # a seed drawn from it: undrawn
                rng.bit_generator.state = rng_state
            self._np_random, self._np_random_seed = rng, rng_seed
            raise
        if seed is not None:  # Gymnasium's np_random takes non-negative seeds only
            super().reset(seed=seed if seed >= 0 else 2**MAX_SEED_BITS - 1 - seed)
        self._base, self._game = base, game
        while True:
            self._done = False
            self._play_bots()
            _, terminated, truncated = self._result()
            if not (terminated or truncated):
                break
            self._game += 1  # over before the learner's first decision: the next game
            self._start(self._base, self._game, None)
        return self._result()[0], self._info()

    def _start(self, base: int, k: int, options: Optional[dict[str, Any]]) -> None:
        """Game ``k`` of seed ``base``: dealt and its bots seeded as that game of a
        simulation with that seed (``chinchon.simulation.play.game_seed``: stream 0 the
        table, ``1 + s`` the bot at seat ``s``), so the C vector environment plays the
        same games. The bots are kept once the AEC env has taken the game (its reset
        refuses bad options before it changes anything)."""
        others = iter(self.opponents)
        bots = [None if s == self.seat else make_bot(next(others), game_seed(base, k, 1 + s))
                for s in range(self._aec.players)]
        self._aec.reset(seed=game_seed(base, k, 0), options=options)
        self._bots = bots

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._base is None:  # set by the first reset that succeeds
            raise IllegalAction("step() before reset(): call reset() first")
        if self._done:
            raise IllegalAction("step() after the end of the game: call reset() to play "
                                "another")
        aec = self._aec
        legal = bool(0 <= _int_or(action) < E.N_ACTIONS and aec.action_mask()[_int_or(action)])
        aec.step(action)  # ActionNotAllowed (nothing changed) or the penalty
        reward = aec.rewards[self._agent]
        more, _ = self._play_bots()
        obs, terminated, truncated = self._result()
        self._done = terminated or truncated
        info = self._info()
        if not legal:
            info["illegal_action"] = True
        return obs, float(reward + more), terminated, truncated, info

    def _play_bots(self) -> tuple[float, int]:
        """The bots' moves until the learner is to act or the game ends; the learner's
        reward over them and how many there were."""
        aec = self._aec
        agent = self._agent
        total, moves = 0.0, 0
        bots = self._bots
        seats = aec._seats
        while not (aec.terminations[agent] or aec.truncations[agent]):
            selected = aec.agent_selection
            if selected == agent:
                break
            bot = bots[seats[selected]]
            assert bot is not None
            aec.step(aec.bot_action(bot))
            total += aec.rewards[agent]
            moves += 1
        return total, moves

    def _result(self) -> tuple[np.ndarray, bool, bool]:
        aec = self._aec
        obs = aec._encoder.observe(self.seat)  # type: ignore[union-attr]
        return obs, aec.terminations[self._agent], aec.truncations[self._agent]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._aec.action_mask()}

    def render(self) -> Optional[str]:
        return self._aec.render()
