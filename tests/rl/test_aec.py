"""The PettingZoo AEC environment: PettingZoo's own checks on every preset at 2, 4 and 6
seats, the masks against the game's legal moves, the encoding against the game's
observation, rewards, truncation, errors, stacked decks and render."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, performance_benchmark, seed_test  # noqa: E402

import chinchon.rl as rl  # noqa: E402
from chinchon import ActionNotAllowed, ChinchonError, Game, IllegalAction, Rules  # noqa: E402
from chinchon.bots import GreedyBot, make_bot  # noqa: E402
from chinchon.cards import full_deck  # noqa: E402
from chinchon.game.actions import Discard, Draw, NextHand, Rejoin  # noqa: E402
from chinchon.game.observation import Observation  # noqa: E402
from chinchon.rl import encoding as E  # noqa: E402

PRESETS = ["barajamos", "classic", "conga", "fifty"]
SEATS = [2, 4, 6]


@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests(preset, players):
    api_test(rl.env(players=players, rules=preset), num_cycles=100)
    seed_test(lambda: rl.env(players=players, rules=preset), num_cycles=100)


class _FastClock:
    """A clock for PettingZoo's performance_benchmark, which runs for 5 seconds of
    time.time(): each reading is 0.02 s later, so it runs its loop ~250 cycles."""

    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        self.now += 0.02
        return self.now


@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_performance_benchmark(preset, players, monkeypatch, capsys):
    module = sys.modules[performance_benchmark.__module__]
    monkeypatch.setattr(module, "time", _FastClock())
    performance_benchmark(rl.env(players=players, rules=preset))
    assert "Finished performance benchmark" in capsys.readouterr().out


def _expected_mask(env) -> np.ndarray:
    """The mask from the game's own legal moves (the source of truth)."""
    st = env.game
    mask = np.zeros(E.N_ACTIONS, np.int8)
    if env.phase == "rejoin":
        mask[[E.REJOIN, E.STAY_OUT]] = 1
        return mask
    for move in st.legal_actions():
        mask[rl.action_of(move)] = 1
    return mask


def _check_encoding(env) -> None:
    """Every seat's observation against a fresh encoding of the state and against the
    seat's Observation; the mask against the game's legal moves."""
    st = env.game
    fresh = E.Encoder(env.players, env.rules, st.decks)
    actor = env.agent_selection if env.phase != "over" else None
    fresh.sync(st, env.phase, None if actor is None else env.possible_agents.index(actor))
    n = env.players
    for seat, agent in enumerate(env.possible_agents):
        o = env.observe(agent)
        obs = o["observation"]
        assert obs.dtype == np.float32 and obs.shape == (E.OBS_SIZE,)
        np.testing.assert_array_equal(obs, fresh.observe(seat))
        assert env.observation_space(agent).contains(o)
        view = Observation(st, seat)

        def field(name):
            at, size = E.FIELDS[name]
            return obs[at:at + size]

        hand = np.zeros(64)
        for c in view.held():
            hand[c.index] += 1
        np.testing.assert_array_equal(field("hand"), hand)
        top = np.zeros(64)
        if view.discard_top is not None:
            top[view.discard_top.index] = 1
        np.testing.assert_array_equal(field("discard_top"), top)
        assert field("discard_pile").sum() == view.discard_size
        assert field("stock_size")[0] == view.stock_size
        for k in range(E.MAX_SEATS):
            other = (seat + k) % n
            row = {f: field(f"seat_{k}.{f}")[0] for f in E.SEAT_FIELDS}
            if k >= n:
                assert not any(row.values())
                assert not field(f"taken_{k}").any()
                continue
            assert row["present"] == 1
            assert row["total"] == view.totals[other]
            assert row["in_game"] == view.in_game[other]
            assert row["chips"] == view.chips[other]
            assert row["lead"] == (view.lead == other)
            assert row["to_act"] == (env.phase != "over" and actor == env.possible_agents[other])
            taken = np.zeros(64)
            for c in view.taken(other):
                taken[c.index] += 1
            np.testing.assert_array_equal(field(f"taken_{k}"), taken)
        phases = [field(f"phase_{p}")[0] for p in E.PHASES]
        assert phases == [float(p == env.phase) for p in E.PHASES]
        if actor == agent and env.phase != "over":
            np.testing.assert_array_equal(o["action_mask"], _expected_mask(env))
        else:
            assert not o["action_mask"].any()


CUSTOM = [
    Rules(first_round_close=False, close_limit=7, eliminate_above=30, rejoin_chips=2),
    Rules(deck=40, wild_ace_of_coins=True, jokers=1, joker_points=9, void_at_stock=10,
          all_out="lowest", points=(1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10)),
    Rules(seven_run_wins=False, joker_chinchon=None, minus_ten=25, jokers=2,
          eliminate_above=20, rejoin_chips=1),
    # jokers worth 50, the most Rules takes: the points plane and max_points reach the
    # observation space's high
    Rules(wild_ace_of_coins=True, jokers=2, joker_points=50, close_limit=9),
]


@pytest.mark.parametrize("rules", PRESETS + CUSTOM, ids=lambda r: r if isinstance(r, str) else repr(r))
@pytest.mark.parametrize("players", [2, 5])
def test_masks_and_observations_follow_the_game(rules, players):
    rng = random.Random(players)
    env = rl.raw_env(players=players, rules=rules, reward="hand")
    env.reset(seed=players)
    seen_phases = set()
    for step in range(150):
        if not env.agents:
            env.reset(seed=step)
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        _check_encoding(env)
        seen_phases.add(env.phase)
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert {"draw", "discard"} <= seen_phases


def test_rejoin_decisions_and_rewards():
    """Greedy play (hands end fast) with random rejoin decisions; the hand rewards are
    minus each hand's points."""
    from chinchon.bots import GreedyBot

    rules = Rules(eliminate_above=10, rejoin_chips=1)
    env = rl.raw_env(players=3, rules=rules, reward="hand")
    bot = GreedyBot(1)
    rng = random.Random(1)
    phases = set()
    hands = 0
    for game in range(4):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            phases.add(env.phase)
            _check_encoding(env)
            mask = obs["action_mask"]
            action = (rng.choice(np.flatnonzero(mask).tolist()) if env.phase == "rejoin"
                      else env.bot_action(bot))
            env.step(action)
            if E.CLOSE <= action < E.DRAW_STOCK:
                hands += 1
                if env.game.result is None:
                    last = env.game.last_hand
                    assert env.rewards == {a: -float(p) for a, p in
                                           zip(env.possible_agents, last.points)}
            elif env.phase != "over":
                assert not any(env.rewards.values())
    assert "rejoin" in phases and hands > 3


def test_game_rewards_at_the_end():
    env = rl.raw_env(players=2)
    rng = random.Random(3)
    env.reset(seed=3)
    got = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            got[agent] = reward
            env.step(None)
            continue
        assert reward == 0
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    result = env.game.result
    assert result.status == "won"
    assert got == {f"player_{s}": 1.0 if s == result.winner else -1.0 for s in range(2)}


def test_max_turns_truncates():
    env = rl.raw_env(players=3, max_turns=5)
    env.reset(seed=1)
    discards = 0
    while not any(env.truncations.values()):
        obs, *_ = env.last()
        if env.phase == "discard":
            discards += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert discards == 5 and all(env.truncations.values())
    assert not any(env.terminations.values()) and env.phase == "over"
    for agent in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_stacked_deck_is_the_games():
    deck = full_deck(1)
    random.Random(5).shuffle(deck)
    env = rl.raw_env(players=2)
    env.reset(seed=9, options={"deck": [str(c) for c in deck], "lead": 1, "other": 1})
    g = Game(2, seed=9, deck=deck, lead=1)
    for seat in range(2):
        assert env.game.held(seat) == g.held(seat)
    assert env.agent_selection == "player_1" and env.game.discard_top == g.discard_top
    # the same seed without a deck: the same game as Game's
    env.reset(seed=11)
    g = Game(2, seed=11)
    assert [env.game.held(s) for s in range(2)] == [g.held(s) for s in range(2)]


def test_an_action_outside_the_mask_raises_and_changes_nothing():
    env = rl.raw_env(players=2)
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.observe(agent)
    for bad in (E.REJOIN, 5, -1, 132, 3.5, "draw", None, True):
        with pytest.raises(ActionNotAllowed) as info:
            env.step(bad)
        assert isinstance(info.value, ValueError)
        assert "not allowed" in str(info.value) and "128 (draw from the stock)" in str(info.value)
        assert env.agent_selection == agent
        after = env.observe(agent)
        np.testing.assert_array_equal(before["observation"], after["observation"])
        np.testing.assert_array_equal(before["action_mask"], after["action_mask"])
    with pytest.raises(ActionNotAllowed, match=r"action 130 \(rejoin\)"):
        env.step(np.int64(E.REJOIN))
    env.step(np.int32(E.DRAW_STOCK))  # numpy ints are actions
    assert env.phase == "discard"


def test_the_penalty_option_ends_the_game():
    env = rl.raw_env(players=3, illegal_action_penalty=-5)
    env.reset(seed=2)
    agent = env.agent_selection
    env.step(E.REJOIN)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -5 and env._cumulative_rewards[agent] == -5
    assert sum(env.rewards.values()) == -5


def test_calls_out_of_order_raise():
    for mode in ("ansi", "human", None):  # render before reset, whatever the mode
        env = rl.raw_env(players=2, render_mode=mode)
        for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.render):
            with pytest.raises(IllegalAction, match="reset"):
                call()
    env = rl.raw_env(players=2, max_turns=1)
    env.reset(seed=1)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(IllegalAction, match="after the end of the game"):
        env.step(0)
    env.reset(seed=1)  # usable again
    assert env.agents == ["player_0", "player_1"]


def test_a_bad_agent_or_bot_is_named():
    env = rl.raw_env(players=3)
    env.reset(seed=1)
    for agent in ("player_9", 0, ["player_0"]):
        for ask in (env.observe, env.observation_space, env.action_space):
            with pytest.raises(ChinchonError, match=r"agent must be one of player_0\.\.player_2"):
                ask(agent)
    for bot in ("greedy", GreedyBot, None):
        with pytest.raises(ChinchonError, match="bot must be a chinchon.bots bot"):
            env.bot_action(bot)
    assert env.action_mask()[env.bot_action(make_bot("greedy", 1))]


def test_a_refused_reset_without_a_seed_draws_none():
    """Options that are not a dict are named; a bad option refused at a reset without a
    seed leaves the seed the next reset draws as it was."""
    a, b = rl.raw_env(players=3), rl.raw_env(players=3)
    a.reset(seed=4)
    b.reset(seed=4)
    for bad in ("x", [("lead", 1)]):
        with pytest.raises(ChinchonError, match="options must be None or a dict"):
            b.reset(options=bad)
    with pytest.raises(IllegalAction):
        b.reset(options={"lead": 9})
    a.reset()
    b.reset()
    assert a.game.to_dict() == b.game.to_dict()


@pytest.mark.parametrize("kwargs", [
    {"players": 1}, {"players": 7}, {"players": True}, {"rules": "nope"},
    {"reward": "points"}, {"max_turns": 0}, {"illegal_action_penalty": float("nan")},
    {"illegal_action_penalty": 10**400},
    {"render_mode": "rgb_array"},
])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        rl.env(**kwargs)


def test_render_ansi_is_the_tables_text():
    from chinchon.game.text import table_lines

    env = rl.raw_env(players=3, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    seat = env.possible_agents.index(env.agent_selection)
    for line in table_lines(env.game, seat, who=f"player_{seat}'s"):
        assert line in text


def test_action_numbers():
    assert E.N_ACTIONS == 132 and E.OBS_SIZE == 13 * 64 + 6 * 7 + len(E.SCALARS)
    assert rl.action_of(("draw", "stock")) == 128 and rl.action_of(("draw", "discard")) == 129
    assert rl.action_of(("discard", "7c", False)) == 16 + 6
    assert rl.action_of(("discard", "*1", True)) == 64 + 12
    assert rl.action_of(("rejoin", 2)) == 130 and rl.action_of(False) == 131
    assert rl.action_name(64 + 28) == "close with *2" and rl.action_name(11) == "discard 12o"
    assert (E.OBS_LOW <= E.OBS_HIGH).all()
    assert rl.action_of(Draw("discard")) == 129 and rl.action_of(Rejoin(1)) == 130
    assert rl.action_of(Discard("7c", True)) == 64 + 22 and rl.action_of(("7c", False)) == 22
    assert rl.action_of("stock") == 128 and rl.action_of(True) == 130


@pytest.mark.parametrize("move, match", [
    (NextHand(), "NextHand.*no seat's decision"), (("draw", "bogus"), "a draw is"),
    ("bogus", "a bot's draw is"), (5, "no action number for 5"), (None, "for None"),
    ((), r"for \(\)"), (("discard",), r"for \('discard',\)"),
    (("discard", 5), "must be a Card"), (("bogus", False), "unknown card 'bogus'"),
    (("discard", "8z", True), "unknown card '8z'"),
])
def test_a_move_without_an_action_number_is_named(move, match):
    """Every move of Game.legal_actions has a number but NextHand, which no seat
    decides; anything else is named (it was read as a take from the pile, a card's
    text or an index error)."""
    with pytest.raises(ChinchonError, match=match):
        rl.action_of(move)


@pytest.mark.parametrize("rules, most", [
    ("barajamos", 12), ("conga", 25), ("fifty", 25),
    (Rules(deck=40, points=(1, 2, 3, 4, 5, 6, 7, 30, 30, 10, 11, 12)), 12)])
def test_max_points_is_the_most_a_card_of_the_deck_costs(rules, most):
    """It read every slot: the house rules' 25 of the joker slots they do not deal, or
    the eights' and nines' points of a 40-card deck."""
    env = rl.env(players=2, rules=rules)
    env.reset(seed=1)
    assert env.observe(env.agent_selection)["observation"][E.FIELDS["max_points"][0]] == most


def test_the_games_after_a_seeded_reset_follow_the_whole_seed():
    """Later games came from seed % 2**128: seeds 2**128 apart, or -1 and 2**128 - 1,
    played the same second game."""
    def second_game(seed):
        env = rl.env(players=2)
        env.reset(seed=seed)
        env.reset()
        return env.observe(env.agent_selection)["observation"].tolist()

    for a, b in ((5, 5 + 2**128), (-1, 2**128 - 1), (-7, 7)):
        assert second_game(a) != second_game(b)
    assert second_game(2**200) == second_game(2**200)


def test_last_and_bot_action_before_reset_say_so():
    """last() was an AttributeError and bot_action said the game was over."""
    env = rl.env(players=2)
    with pytest.raises(IllegalAction, match=r"last\(\) before reset\(\)"):
        env.last()
    with pytest.raises(IllegalAction, match=r"bot_action\(\) before reset\(\)"):
        env.bot_action(make_bot("greedy"))
    env.reset(seed=1)
    observation, reward, terminated, truncated, info = env.last()
    assert observation["action_mask"].any() and not terminated
