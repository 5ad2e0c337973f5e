"""The PettingZoo AEC environment: one Chinchón game, every seat an agent
(docs/rl.md).

:func:`env` makes a :class:`raw_env`, the environment (PettingZoo's two names; no
wrapper: it enforces the order of calls itself). The agents are ``player_0`` ... ``player_{n-1}``, seat ``i`` of the
game. The actions and the observation are those of :mod:`chinchon.rl.encoding`.
"""

from __future__ import annotations

from operator import index as _as_index
from typing import Any, Optional, Union, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .._args import check_rules, finite
from ..bots import Bot
from ..cards import CARD_AT, Card
from ..errors import ActionNotAllowed, ChinchonError, IllegalAction, shown
from ..game.deck import MAX_PLAYERS, MIN_PLAYERS
from ..game.observation import Observation
from ..game.state import GameState
from ..game.text import hand_result_lines, rules_summary, table_lines
from ..rules import Rules
from . import encoding as E

__all__ = ["env", "raw_env", "REWARDS"]

#: the reward schemes: ``'game'`` pays at the end of the game only (+1 the winner, -1
#: every other seat, 0 to all on a draw); ``'hand'`` also pays every closed hand (minus
#: the points each seat scored in it)
REWARDS = ("game", "hand")



def _mask_of(*actions: int) -> np.ndarray:
    mask = np.zeros(E.N_ACTIONS, np.int8)
    mask[list(actions)] = 1
    mask.flags.writeable = False
    return mask


# the masks that never change (the stock and the pile together are never empty at a
# draw: docs/rules.md#turns-hints-and-closing)
_DRAW_STOCK = _mask_of(E.DRAW_STOCK)
_DRAW_BOTH = _mask_of(E.DRAW_STOCK, E.DRAW_DISCARD)
_REJOIN = _mask_of(E.REJOIN, E.STAY_OUT)
_NO_MASK = _mask_of()


def env(**kwargs: Any) -> raw_env:
    """The AEC environment (:class:`raw_env`, same arguments). It is not put inside
    PettingZoo's ``OrderEnforcingWrapper``: it enforces the order itself (``step``,
    ``observe`` and ``render`` before ``reset``, and ``step`` after the end, raise
    :class:`~chinchon.IllegalAction`; the dicts of rewards and the like do not exist
    before ``reset``), and the wrapper's attribute forwarding would halve its speed."""
    return raw_env(**kwargs)


def check_env_args(players: object, reward: object, max_turns: object,
                   illegal_action_penalty: object, max_turns_below: Optional[int] = None
                   ) -> None:
    """The arguments every environment of this package takes, checked in this order
    (the vector env's C counter also bounds ``max_turns`` below ``max_turns_below``)."""
    if (isinstance(players, bool) or not isinstance(players, int)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ChinchonError(f"players must be an int {MIN_PLAYERS}..{MAX_PLAYERS}, "
                            f"got {shown(players)}")
    if reward not in REWARDS:
        raise ChinchonError(f"reward must be one of {', '.join(REWARDS)}, got {shown(reward)}")
    if max_turns is not None and (
            isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1
            or (max_turns_below is not None and max_turns >= max_turns_below)):
        raise ChinchonError(f"max_turns must be a positive int or None, got {shown(max_turns)}")
    if illegal_action_penalty is not None and (
            isinstance(illegal_action_penalty, bool)
            or not isinstance(illegal_action_penalty, (int, float))
            or not finite(illegal_action_penalty)):
        raise ChinchonError(f"illegal_action_penalty must be a finite number or None, "
                            f"got {shown(illegal_action_penalty)}")


# N801: PettingZoo's name for the unwrapped environment; AECEnv is untyped (Any)
class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801
    """A Chinchón game as a PettingZoo AEC environment (docs/rl.md).

    ``players``: 2-6 seats. ``rules``: a :class:`~chinchon.Rules` or a preset's name
    (``'barajamos'``, ``'classic'``, ``'conga'``, ``'fifty'``; the house rules by
    default). ``reward``: ``'game'`` or ``'hand'`` (:data:`REWARDS`). ``max_turns``:
    after this many turns (discards and closes, the whole game) every agent is
    truncated. ``illegal_action_penalty``: None (an action outside the mask raises
    :class:`~chinchon.ActionNotAllowed` and changes nothing) or a number: an action
    outside the mask ends the game, that agent rewarded the number, the others 0.
    ``render_mode``: None, ``'ansi'`` (``render()`` returns the text) or ``'human'``
    (prints it).

    ``reset(seed=..., options={"deck": [...], "lead": seat})``: ``seed`` is the game's
    (the game is ``Game(players, seed=seed, rules=rules)``'s); without one, the seed is
    drawn from a generator seeded by the last seed given (or the OS). ``deck`` stacks
    the first hand (every card of the rules' deck, once or twice: 48 or 96 under the
    house rules; text or ``Card``), ``lead`` picks
    the first lead. Other keys of ``options`` are ignored.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4,
                                "name": "chinchon_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: Union[Rules, str, None] = None, *,
                 reward: str = "game", max_turns: Optional[int] = None,
                 illegal_action_penalty: Optional[float] = None,
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        check_env_args(players, reward, max_turns, illegal_action_penalty)
        self.rules = check_rules(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ChinchonError(f"render_mode must be None, 'ansi' or 'human', got "
                                f"{shown(render_mode)}")
        self.players = players
        self.reward_scheme = reward
        self.max_turns = max_turns
        self.illegal_action_penalty = illegal_action_penalty
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(E.OBS_LOW, E.OBS_HIGH, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (E.N_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(E.N_ACTIONS) for a in self.possible_agents}
        self.state_: Optional[GameState] = None
        self._encoder: Optional[E.Encoder] = None
        self._seeder = np.random.default_rng()
        self._mask = _NO_MASK
        self._phase = "over"
        self._actor: Optional[int] = None
        self._pending: list[int] = []
        self._turns = 0

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        """``agent`` if it is one of :attr:`possible_agents`; else an error naming it."""
        if isinstance(agent, str) and agent in self._seats:
            return agent
        raise ChinchonError(f"agent must be one of player_0..player_{self.players - 1}, "
                            f"got {shown(agent)}")

    # ------------------------------------------------------------ what a seat sees

    @property
    def game(self) -> GameState:
        """The game being played (read it, do not move in it: the environment keeps its
        observations move by move)."""
        if self.state_ is None:
            raise IllegalAction("the environment has no game yet: call reset() first")
        return self.state_

    @property
    def phase(self) -> str:
        """The phase of the decision now (:data:`~chinchon.rl.encoding.PHASES`)."""
        return self._phase

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_SIZE,), "action_mask": int8 (N_ACTIONS,)}``
        for ``agent``; the mask is all zero but for the agent to act."""
        try:
            seat = self._seats[agent]
        except (KeyError, TypeError):  # TypeError: unhashable
            raise ChinchonError(f"agent must be one of player_0..player_{self.players - 1}, "
                                f"got {shown(agent)}") from None
        enc = self._encoder
        if enc is None:
            raise IllegalAction("the environment has no game yet: call reset() first")
        mask = self._mask if seat == self._actor and self._phase != "over" else _NO_MASK
        return {"observation": enc.observe(seat), "action_mask": mask.copy()}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: the agent to act's observation, reward, termination,
        truncation and info (an :class:`IllegalAction` before ``reset()``)."""
        if self.state_ is None:
            raise IllegalAction("last() before reset(): call reset() first")
        return super().last(observe)  # type: ignore[no-any-return]

    def action_mask(self) -> np.ndarray:
        """The mask of the agent to act now (a copy; all zero once the game is over)."""
        return (self._mask if self._phase != "over" else _NO_MASK).copy()

    def bot_action(self, bot: Bot) -> int:
        """The action number ``bot`` (a :mod:`chinchon.bots` bot) picks for the agent to
        act, given that seat's :class:`~chinchon.game.Observation` only."""
        if not isinstance(bot, Bot):
            raise ChinchonError(f"bot must be a chinchon.bots bot (a Bot, e.g. "
                                f"make_bot('greedy')), got {shown(bot)}")
        seat, phase, st = self._actor, self._phase, self.state_
        if st is None:
            raise IllegalAction("bot_action() before reset(): call reset() first")
        if seat is None or phase == "over":
            raise IllegalAction("no agent is to act: the game is over")
        obs = Observation(st, seat)
        if phase == "draw":
            return E.DRAW_STOCK if bot.choose_draw(obs, seat) == "stock" else E.DRAW_DISCARD
        if phase == "discard":
            card, close = bot.choose_discard(obs, seat)
            return (E.CLOSE if close else E.DISCARD) + card.index
        return E.REJOIN if bot.choose_rejoin(obs, seat) else E.STAY_OUT

    # ------------------------------------------------------------ reset

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
              ) -> None:
        if options is None:
            options = {}
        elif not isinstance(options, dict):
            raise ChinchonError(f"options must be None or a dict (deck, lead), got "
                                f"{shown(options)}")
        drawn = None  # the generator's state before a seed is drawn from it
        if seed is None:
            drawn = self._seeder.bit_generator.state
            game_seed = int(self._seeder.integers(2**63))
        else:
            game_seed = seed
        try:
            state = GameState(self.players, seed=game_seed, rules=self.rules,
                              deck=options.get("deck"), lead=options.get("lead"))
        except ChinchonError:
            if drawn is not None:  # refused: the seed drawn for it is undrawn
                self._seeder.bit_generator.state = drawn
            raise
        self.state_ = state
        if seed is not None:  # checked by the game: an int of at most 256 bits; every
            # seed its own generator (as the Gymnasium env's np_random; it took seed %
            # 2**128, so that seeds 2**128 apart played the same later games)
            self._seeder = np.random.default_rng(seed if seed >= 0 else 2**256 - 1 - seed)
        if self._encoder is None:
            self._encoder = E.Encoder(self.players, self.rules, self.state_.decks)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._pending = []
        self._turns = 0
        self._phase = "draw"
        self._actor = None
        self._decide(full=True)

    # ------------------------------------------------------------ moves

    def step(self, action: Any) -> None:
        if not self.agents:
            raise IllegalAction("step() after the end of the game: call reset() to play "
                                "another" if self.state_ is not None else
                                "step() before reset(): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = self._checked(action, agent)
        if a < 0:
            return  # the penalty ended the game
        rewards = self.rewards
        for k in rewards:
            rewards[k] = 0.0
        self._cumulative_rewards[agent] = 0.0
        self._apply(a)
        cum = self._cumulative_rewards
        for k, r in rewards.items():
            if r:
                cum[k] += r
        if self.render_mode == "human":
            self.render()

    def _checked(self, action: Any, agent: str) -> int:
        """The action as an int in the mask; else raise (or apply the penalty: -1)."""
        a = -1
        if type(action) is int:
            a = action
        elif not isinstance(action, (bool, np.bool_)):
            try:
                a = _as_index(action)
            except TypeError:
                pass
        if 0 <= a < E.N_ACTIONS and self._mask[a]:
            return a
        if self.illegal_action_penalty is not None:
            self._penalise(agent)
            return -1
        allowed = ", ".join(f"{i} ({E.action_name(int(i))})" for i in np.flatnonzero(self._mask))
        what = (f"action {a} ({E.action_name(a)})" if 0 <= a < E.N_ACTIONS
                else f"action {shown(action)} (the actions are ints 0..{E.N_ACTIONS - 1})")
        raise ActionNotAllowed(f"{what} is not allowed for {agent} now ({self._phase} "
                               f"phase); the allowed actions are: {allowed}", action)

    def _penalise(self, agent: str) -> None:
        for k in self.rewards:
            self.rewards[k] = 0.0
        self._cumulative_rewards[agent] = 0.0
        self.rewards[agent] = float(self.illegal_action_penalty)  # type: ignore[arg-type]
        self._cumulative_rewards[agent] += self.rewards[agent]
        self._game_over(truncate=False)

    def _apply(self, a: int) -> None:
        st = self.state_
        enc = self._encoder
        seat = self._actor
        phase = self._phase
        assert st is not None and enc is not None and seat is not None
        if phase == "draw":
            if a == E.DRAW_STOCK:
                reshuffle = st.stock_size == 0
                card = st.draw("stock")
                if reshuffle:
                    self._decide(full=True)
                    return
                enc.drew(seat, card, False, st)
            else:
                card = st.draw("discard")
                enc.drew(seat, card, True, st)
            self._decide()
            return
        if phase == "discard":
            card = cast(Card, CARD_AT[a & 63])  # in the mask: a card held
            old_top = st.discard_top
            st.discard(card, a >= E.CLOSE)
            self._turns += 1
            if st.phase == "draw":
                enc.discarded(seat, card, old_top)
                if self.max_turns is not None and self._turns >= self.max_turns:
                    self._game_over(truncate=True)
                    return
                self._decide()
                return
            self._hand_over()
            return
        # a rejoin decision between hands
        if a == E.REJOIN:
            st.rejoin(seat)
        self._pending.pop(0)
        self._decide(full=True)

    def _hand_over(self) -> None:
        """A hand closed (or went void): its rewards, then the end of the game or the
        rejoin decisions and the next hand."""
        st = self.state_
        assert st is not None
        rewards = self.rewards
        if self.reward_scheme == "hand" and st.last_hand is not None:
            for agent, p in zip(self.possible_agents, st.last_hand.points):
                rewards[agent] -= float(p)
        result = st.result
        if result is not None:
            if result.status == "won":
                for agent in self.possible_agents:
                    rewards[agent] += 1.0 if self._seats[agent] == result.winner else -1.0
            self._game_over(truncate=False)
            return
        if self.max_turns is not None and self._turns >= self.max_turns:
            self._game_over(truncate=True)
            return
        self._pending = [s for s in range(self.players) if st.rejoin_refused(s) is None]
        self._decide(full=True)

    def _game_over(self, truncate: bool) -> None:
        done = self.truncations if truncate else self.terminations
        for agent in self.agents:
            done[agent] = True
        self._phase = "over"
        self._actor = None
        enc, st = self._encoder, self.state_
        assert enc is not None and st is not None
        enc.sync(st, "over", None)

    def _decide(self, full: bool = False) -> None:
        """Who decides what now: the mask, the agent selected, the encoder's status."""
        st = self.state_
        enc = self._encoder
        assert st is not None and enc is not None
        if st.phase == "summary":
            if self._pending:
                seat = self._pending[0]
                self._phase, self._actor = "rejoin", seat
                self._mask = _REJOIN
                enc.sync(st, "rejoin", seat)
                self.agent_selection = self.possible_agents[seat]
                return
            st.next_hand()
            full = True
        phase = st.phase
        seat = cast(int, st.turn)  # draw or discard: someone's turn
        self._phase, self._actor = phase, seat
        if full:
            enc.sync(st, phase, seat)
        else:
            enc.status(st, phase, seat)
        if phase == "draw":  # masks never changed in place: observe() copies them
            self._mask = _DRAW_BOTH if st.discard_size else _DRAW_STOCK
        else:  # discard: every card held; a close where the hints allow it
            self._mask = mask = np.zeros(E.N_ACTIONS, np.int8)
            for h in st.hints():
                i = h.card.index
                mask[i] = 1
                if h.can_close:
                    mask[E.CLOSE + i] = 1
        self.agent_selection = self.possible_agents[seat]

    # ------------------------------------------------------------ render

    def render(self) -> Optional[str]:
        """The table as ``chinchon play`` shows it, from the seat to act (its hand, the
        discard pile's top, the stock, the totals) and the last closed hand's result
        between hands and at the end. ``'ansi'``: returned; ``'human'``: printed."""
        if self.state_ is None:  # whatever the mode: the table is not there yet
            raise IllegalAction("render() before reset(): call reset() first")
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        st = self.state_
        assert st is not None  # render() refused before reset()
        names = self.possible_agents
        lines = [f"Chinchón, {self.players} players; rules: {rules_summary(self.rules)}",
                 f"hand {st.hand_number}, {names[st.lead]} leads; {self._phase}"
                 + (f": {names[self._actor]} to act" if self._actor is not None else "")]
        if self._phase in ("draw", "discard") and self._actor is not None:
            lines += table_lines(st, self._actor, who=f"{names[self._actor]}'s")
        elif st.last_hand is not None:
            lines += hand_result_lines(st, names)
        if st.result is not None:
            r = st.result
            lines.append(f"game over: {r.status}"
                         + (f", {names[r.winner]} wins" if r.winner is not None else ""))
        return "\n".join(lines)

    def close(self) -> None:
        pass
