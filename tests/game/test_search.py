"""The search bot (bots.SearchBot, csrc/src/search): its names and budgets, that it
never reads a hidden card, that its games are the same from the Python loop and the C
engine, and that every table with it ends its hands."""

from __future__ import annotations

import json
import random

import pytest

import chinchon
from chinchon import bots as bots_module
from chinchon.bots import ExpertBot, GreedyBot, SearchBot, bot_name, make_bot, play_turn
from chinchon.errors import ChinchonError
from chinchon.game.observation import Observation
from chinchon.game.state import GameState
from chinchon.simulation import simulate
from chinchon.simulation.engine import builtin_bots, native_available
from tests.oracles import engine_diff
from tests.oracles.impls import scaled

pytestmark = pytest.mark.skipif(not native_available(), reason="the C engine is not built")

#: on the pure-Python solver the Python loop's expert takes seconds a game
PURE = chinchon.IMPLEMENTATION == "python"


# ------------------------------------------------------------------ names and budgets

def test_names_and_budgets():
    assert bot_name("search") == "search"  # the default budget of each table
    for players in (2, 3):
        assert bot_name(" Search ", players) == f"search:{SearchBot.DEFAULT_PLAYOUTS}"
    for players in (4, 5, 6):
        assert bot_name("search", players) == f"search:{SearchBot.DEFAULT_PLAYOUTS_LARGE}"
    assert bot_name("search:2000", 4) == "search:2000" and bot_name("greedy", 4) == "greedy"
    assert bot_name(" Search:2000 ") == "search:2000"
    assert bot_name("search:10ms") == "search:10ms"
    assert bot_name("search:007") == "search:7"
    # any number of leading zeros (past Python's 4,300-digit int limit too)
    assert bot_name("search:" + "0" * 5000 + "100") == "search:100"
    assert bot_name("search:" + "0" * 5000 + "25ms") == "search:25ms"
    bot = make_bot("search:300", 5)
    assert isinstance(bot, SearchBot) and (bot.playouts, bot.ms) == (300, 0)
    assert bot.spec == "search:300" and bot.rng == make_bot("greedy", 5).rng
    timed = make_bot("search:3ms")
    assert (timed.playouts, timed.ms, timed.spec) == (0, 3, "search:3ms")
    default = make_bot("search")
    assert (default.playouts, default.ms, default.spec) == (0, 0, "search")
    assert repr(SearchBot()) == "SearchBot('search')"
    assert SearchBot.DEFAULT_PLAYOUTS_LARGE < SearchBot.DEFAULT_PLAYOUTS
    assert isinstance(make_bot(SearchBot), SearchBot)
    assert list(bots_module.BOTS) == ["random", "greedy", "expert", "search"]


@pytest.mark.parametrize("bad", ["search:" + "1" * 5000, "search:" + "0" * 5000])
def test_a_budget_of_thousands_of_digits_is_a_clear_error(bad):
    """Past Python's 4,300-digit limit of int(): named like any bad budget (it was the
    int conversion's own ValueError, a traceback from the command line)."""
    with pytest.raises(ChinchonError, match="bad search budget 'search:"):
        bot_name(bad)


@pytest.mark.parametrize("bad", ["search:0", "search:-1", "search:abc", "search:", "search:1.5",
                                 "search:ms", "search:0ms", "search:10 s", "search:٣",
                                 f"search:{SearchBot.MAX_BUDGET + 1}"])
def test_bad_budgets_are_clear_errors(bad):
    for call in (lambda: make_bot(bad), lambda: bot_name(bad),
                 lambda: simulate(1, 2, bots=bad)):
        with pytest.raises(ChinchonError) as info:
            call()
        message = str(info.value)
        assert repr(bad) in message or bad in message
        assert "search:<playouts>" in message and "search:<ms>ms" in message
    assert builtin_bots([bad, "greedy"]) is None


@pytest.mark.parametrize("kwargs", [{"playouts": 0}, {"ms": -1}, {"playouts": 1.5},
                                    {"playouts": True}, {"playouts": 10, "ms": 10}])
def test_bad_budget_arguments(kwargs):
    with pytest.raises(ChinchonError, match="search bot"):
        SearchBot(1, **kwargs)


@pytest.mark.parametrize("threads", [0, -1, SearchBot.MAX_THREADS + 1, 1.5, True, "2"])
def test_bad_threads(threads):
    with pytest.raises(ChinchonError, match=r"search bot's threads must be an int 1\.\.64"):
        SearchBot(1, playouts=10, threads=threads)
    with pytest.raises(ChinchonError, match=r"search bot's threads must be an int 1\.\.64"):
        make_bot("greedy", 1, threads=threads)


def test_make_bot_gives_search_bots_their_threads():
    bot = make_bot("search:300", 4, threads=3)
    assert isinstance(bot, SearchBot) and bot.threads == 3 and bot.spec == "search:300"
    assert make_bot("search:2ms", threads=2).threads == 2
    assert make_bot("search").threads == 1
    assert isinstance(make_bot("expert", 1, threads=4), ExpertBot)  # one thread: ignored
    # a class is made with them; a bot given keeps its own, and others asked are refused
    assert make_bot(SearchBot, 1, threads=4).threads == 4
    assert make_bot(SearchBot, 1).threads == 1
    given = SearchBot(1, playouts=10, threads=2)
    assert make_bot(given) is given and make_bot(given, threads=2) is given
    with pytest.raises(ChinchonError, match="plays on 2 thread.s., not the 4 asked"):
        make_bot(given, threads=4)
    assert SearchBot.from_name("search:10", 1, threads=3).threads == 3


def test_a_search_name_is_read_as_bot_name_reads_it():
    """Spaces around the colon are ignored like the others; from_name takes what
    bot_name takes and refuses the rest by name (it read "expert:50" as a search)."""
    for spaced in ("search :5", "  Search : 5 ", "search: 5"):
        assert bot_name(spaced) == "search:5"
        assert SearchBot.from_name(spaced).spec == "search:5"
    assert SearchBot.from_name("SEARCH:10MS").spec == "search:10ms"
    for bad in ("search:abc", "search:1.5", "search:0"):
        with pytest.raises(ChinchonError, match="search:<playouts> or search:<ms>ms"):
            SearchBot.from_name(bad)
    for other in ("expert:50", "random:20ms", "greedy", "searchy"):
        with pytest.raises(ChinchonError, match=r"search:<playouts>.*search:<ms>ms") as info:
            SearchBot.from_name(other)
        assert repr(other) in str(info.value)


class _Spy:
    """A binding that records the arguments of each search it passes on."""

    def __init__(self, binding):
        self.binding = binding
        self.calls = []

    def _search_choose(self, *args):
        self.calls.append(args)
        return self.binding._search_choose(*args)


@pytest.mark.parametrize("players,rules", [(2, "conga"), (3, "barajamos"), (4, "barajamos"),
                                           (6, "barajamos")])
def test_the_default_budget_is_the_tables(players, rules):
    """``search`` alone searches as ``search:<default_playouts(players)>``: the same calls
    to the core, the same choices, at draws and discards; the other default differs."""
    expected = SearchBot.default_playouts(players)
    other = (SearchBot.DEFAULT_PLAYOUTS_LARGE if expected == SearchBot.DEFAULT_PLAYOUTS
             else SearchBot.DEFAULT_PLAYOUTS)
    game = _mid_hand(players, rules, 60 + players, 7)
    seat = game.turn
    obs = Observation(game, seat)
    calls = []
    for spec in ("search", f"search:{expected}", f"search:{other}"):
        bot = make_bot(spec, 9)
        bot._binding = _Spy(bot._binding)
        choice = (bot.choose_draw(obs, seat) if game.phase == "draw"
                  else bot.choose_discard(obs, seat))
        calls.append((bot._binding.calls, choice))
    assert len(calls[0][0]) == 1 and calls[0] == calls[1]
    assert calls[0][0] != calls[2][0]


@pytest.mark.parametrize("players", ["x", 0, 1, 7, 100, True, 2.0])
def test_bot_name_refuses_a_table_that_cannot_be(players):
    with pytest.raises(ChinchonError, match=r"players must be an int 2\.\.6 or None"):
        bot_name("search", players=players)


def test_a_decision_asked_out_of_turn_or_phase_is_refused_by_name():
    """As the other bots refuse it (they said "an argument out of range")."""
    game = GameState(2, seed=1, lead=0)
    game.draw("stock")  # seat 0 holds 8 cards, to discard
    bot = make_bot("search:50", 1)
    with pytest.raises(chinchon.IllegalAction, match="seat 0 asks for a draw in its "
                                                     "discard phase"):
        bot.choose_draw(Observation(game, 0), 0)
    with pytest.raises(chinchon.IllegalAction, match="seat 1 asks for a discard out of "
                                                     "its turn"):
        bot.choose_discard(Observation(game, 1), 1)
    card, close = bot.choose_discard(Observation(game, 0), 0)
    assert card in game.held(0)


def test_unknown_bot_names_the_forms():
    with pytest.raises(ChinchonError, match=r"search:<playouts>"):
        make_bot("nobody")


def test_refused_without_the_compiled_extension(monkeypatch):
    monkeypatch.setattr(bots_module.solver, "native", lambda name: None)
    with pytest.raises(ChinchonError, match="compiled extension"):
        make_bot("search")


# ------------------------------------------------------------------ hidden cards

def _mid_hand(players: int, rules: str, seed: int, turns: int) -> GameState:
    """A game after some greedy turns of its first hands (in the draw or discard phase
    of some seat)."""
    game = GameState(players, seed=seed, rules=rules)
    bots = [GreedyBot(seed + s) for s in range(players)]
    steps = 0
    while steps < turns or game.phase == "summary":
        play_turn(game, bots)
        steps += 1
        if game.result is not None:  # pragma: no cover - a chinchón this early
            game = GameState(players, seed=seed + 1000 + steps, rules=rules)
    return game


def _redeal_hidden(game: GameState, seat: int, rng: random.Random) -> None:
    """Move the cards ``seat`` has not seen: the other hands' cards not taken from the
    pile and the stock, shuffled among those places (the stock from its own cards
    alone after a reshuffle: only restocked cards may be there)."""
    piles = game._piles
    others = [s for s in range(game.players) if s != seat and game.in_game[s]]
    unknown = {s: list(game._hands[s]) for s in others}
    for s in others:
        for c in piles.taken[s]:
            unknown[s].remove(c)
    if piles.restocked is None:
        pool = [c for s in others for c in unknown[s]] + list(piles.stock)
        rng.shuffle(pool)
        k = 0
        for s in others:
            game._hands[s] = sorted(list(piles.taken[s]) + pool[k:k + len(unknown[s])],
                                    key=lambda c: c.index)
            k += len(unknown[s])
        piles.stock = pool[k:]
    else:
        stock = list(piles.stock)
        rng.shuffle(stock)
        piles.stock = stock
        pool = [c for s in others for c in unknown[s]]
        rng.shuffle(pool)
        k = 0
        for s in others:
            game._hands[s] = sorted(list(piles.taken[s]) + pool[k:k + len(unknown[s])],
                                    key=lambda c: c.index)
            k += len(unknown[s])


def _seen(game: GameState, seat: int):
    obs = Observation(game, seat)
    return (obs.to_dict(), obs.unseen(), obs.discard_pile(),
            [obs.taken(s) for s in range(game.players)], obs.restocked(), obs.turns_this_hand)


@pytest.mark.parametrize("players,rules", [(2, "conga"), (4, "barajamos"), (5, "barajamos")])
def test_never_sees_hidden_cards(players, rules):
    """The same observation under deals that differ only in the cards the seat has not
    seen gives the same action for the same seed, and the hidden cards did move."""
    rng = random.Random(27)
    moved = 0
    for k in range(scaled(12)):
        game = _mid_hand(players, rules, 100 * players + k, rng.randrange(1, 40))
        seat = game.turn
        phase = game.phase
        before = _seen(game, seat)
        hidden = ([list(game._hands[s]) for s in range(players) if s != seat],
                  list(game._piles.stock))
        actions = []
        for _ in range(3):
            obs = Observation(game, seat)
            bot = SearchBot(k, playouts=150)
            actions.append(bot.choose_draw(obs, seat) if phase == "draw"
                           else bot.choose_discard(obs, seat))
            _redeal_hidden(game, seat, rng)
            assert _seen(game, seat) == before
        moved += hidden != ([list(game._hands[s]) for s in range(players) if s != seat],
                            list(game._piles.stock))
        assert actions[0] == actions[1] == actions[2]
    assert moved > 0


def test_the_search_reads_only_what_its_view_holds():
    """A view the cards cannot fit (a card seen twice with one deck) is an error, not a
    guess: the search counts the cards it was shown."""
    game = _mid_hand(2, "barajamos", 3, 5)
    seat = game.turn
    obs = Observation(game, seat)
    binding = bots_module.solver.native("engine")
    args = list(SearchBot._view_args(obs, seat, game.phase == "discard"))
    args[8] = args[8] + args[7][:1]  # the pile, with a card the seat holds
    with pytest.raises(ChinchonError):
        binding._search_choose(*args, 100, 0, 1)


def test_the_search_reads_the_discard_of_the_seat_before():
    """The card the seat before discarded (the pile's top at the seat's draw) conditions
    the samples: the same view and seed choose differently with it at some discards;
    a card outside the deck is an error, and the bot remembers the card from its draw
    for its discard (checked against the C engine's games above)."""
    binding = bots_module.solver.native("engine")
    differ = 0
    for k in range(40):  # not scaled: the same positions everywhere (3 of 22 differ)
        game = _mid_hand(2, "conga", 700 + k, 2 + k % 11)
        if game.phase != "draw" or game.turns_this_hand == 0:
            continue
        seat = game.turn
        top = game.discard_top.index
        game.draw("stock")
        args = SearchBot._view_args(Observation(game, seat), seat, True) + (400, 0)
        seed = 1000 + k
        differ += binding._search_choose(*args, seed, top) != binding._search_choose(*args, seed)
        for bad in (64, 255, chinchon.Card.parse("8c").index):  # 8c: not in the 40-card deck
            with pytest.raises(ChinchonError):
                binding._search_choose(*args, seed, bad)
    assert differ > 0
    bot = SearchBot(3, playouts=200)
    game = _mid_hand(2, "conga", 31, 4)
    seat = game.turn
    top = game.discard_top
    bot.choose_draw(Observation(game, seat), seat)
    assert bot._seen[:3] == (game.hand_number, game.turns_this_hand, seat)
    assert bot._seen[-1] == top.index
    game.draw("stock")
    assert bot._follows_draw(Observation(game, seat), seat)


def test_a_discard_reads_only_the_draw_of_its_own_turn():
    """A bot whose last draw decision was in another game, at the same hand and turn,
    chooses its discard as a bot that drew nothing (it read that game's top before)."""
    def at_turn(seed, turns):
        g = GameState(2, seed=seed, rules="conga")
        bots = [GreedyBot(1), GreedyBot(2)]
        while not (g.phase == "draw" and g.turns_this_hand == turns):
            play_turn(g, bots)
        return g
    elsewhere, game = at_turn(1067, 2), at_turn(5067, 2)
    reused = SearchBot(7, playouts=300)
    reused.choose_draw(Observation(elsewhere, elsewhere.turn), elsewhere.turn)
    fresh = SearchBot(7, playouts=300)
    fresh.rng.next64()  # the same generator state as the reused bot's
    game.draw("stock")
    obs = Observation(game, game.turn)
    assert not reused._follows_draw(obs, game.turn)
    assert reused.choose_discard(obs, game.turn) == fresh.choose_discard(obs, game.turn)
    # its own draw from an empty stock (the pile turned over into it) is still its draw
    game = chinchon.Game(2, seed=3)
    while game.turns_this_hand < 4:  # two turns each: a draw with a discarded top
        play_turn(game, [GreedyBot(1), GreedyBot(2)])
    assert game.phase == "draw" and game.turns_this_hand == 4
    saved = json.loads(game.to_json())
    saved["discard"] = saved["stock"] + saved["discard"]  # the top stays the top
    saved["stock"] = []
    game = chinchon.Game.from_json(saved)
    seat = game.turn
    bot = SearchBot(7, playouts=50)
    bot.choose_draw(game.observe(seat), seat)
    game.draw("stock")
    assert game.stock_size > 0 and game.discard_top is None
    assert bot._follows_draw(game.observe(seat), seat)


# ------------------------------------------------------------------ threads

@pytest.mark.parametrize("players,rules", [(2, "conga"), (4, "barajamos"), (6, "barajamos")])
def test_threads_choose_as_one_thread(players, rules):
    """The caller deals every sample in order and the gains are added in that order: the
    same choice on any number of threads, at draws and discards (budgets of several
    chunks of samples, a round of the race cut across chunks)."""
    rng = random.Random(41)
    for k in range(scaled(10)):
        game = _mid_hand(players, rules, 300 * players + k, rng.randrange(1, 30))
        seat = game.turn
        obs = Observation(game, seat)
        playouts = rng.choice([150, 333, 700])
        actions = []
        for threads in (1, 2, 3, 5):
            bot = SearchBot(k, playouts=playouts, threads=threads)
            actions.append(bot.choose_draw(obs, seat) if game.phase == "draw"
                           else bot.choose_discard(obs, seat))
        assert actions[1:] == actions[:1] * 3, (players, rules, k, playouts)


def test_a_game_on_threads_is_the_same_game():
    """A whole game of a search seat on 3 threads against the expert: every decision as on
    one thread (the bot's generator gives each decision the same seed)."""
    played = []
    for threads in (1, 3):
        game = GameState(2, seed=8, rules="conga")
        bots = [SearchBot(5, playouts=120, threads=threads), ExpertBot(6)]
        while game.result is None and game.hand_number < 4:
            play_turn(game, bots)
        played.append((game.hand_number, list(game.totals), game.turns_this_hand,
                       Observation(game, 0).to_dict()))
    assert played[0] == played[1]


def test_a_time_budget_on_threads_plays():
    game = _mid_hand(4, "barajamos", 12, 6)
    seat = game.turn
    obs = Observation(game, seat)
    bot = SearchBot(2, ms=3, threads=2)
    if game.phase == "draw":
        assert bot.choose_draw(obs, seat) in ("stock", "discard")
    else:
        card, close = bot.choose_discard(obs, seat)
        assert card in obs.held(seat) and close in (True, False)


# ------------------------------------------------------------------ the same games

SEARCH_TABLES = [(2, "search:60,expert", "conga"), (2, "search:60,greedy", None),
                 (4, "search:40,greedy,random,expert", None), (4, "search:40", "fifty"),
                 (6, "search:30,greedy,random", None)]


@pytest.mark.parametrize("players,spec,rules", SEARCH_TABLES,
                         ids=[f"{t[0]}-{t[1]}-{t[2]}" for t in SEARCH_TABLES])
def test_native_plays_the_python_loops_games(players, spec, rules):
    if PURE:
        spec = spec.replace("expert", "greedy")
    bots = engine_diff.seat_bots(spec, players)
    n = max(1, scaled(6) // (3 if PURE else 1))
    assert engine_diff.compare(players, bots, 11, 0, n, rules) == []


def test_deterministic_for_a_seed_and_playouts():
    a = simulate(4, 2, bots="search:80,expert", seed=3, engine="native")
    b = simulate(4, 2, bots="search:80,expert", seed=3, engine="native")
    assert a.stats() == b.stats()
    assert [r.totals for r in a.records] == [r.totals for r in b.records]
    assert a.bots == ["search:80", "expert"]


@pytest.mark.parametrize("players,rules", [(2, "conga"), (4, None)])
def test_the_engine_plays_the_tables_default(players, rules):
    """``search`` alone in the C engine is the table's default budget, spelt out, and
    the Python loop's SearchBot plays the same game."""
    spelt = f"search:{SearchBot.default_playouts(players)}"
    a = simulate(1, players, bots=engine_diff.seat_bots("search,greedy", players), seed=2,
                 rules=rules, engine="native")
    b = simulate(1, players, bots=engine_diff.seat_bots(f"{spelt},greedy", players), seed=2,
                 rules=rules, engine="native")
    c = simulate(1, players, bots=engine_diff.seat_bots("search,greedy", players), seed=2,
                 rules=rules, engine="python")
    assert [r.totals for r in a.records] == [r.totals for r in b.records]
    assert [(r.totals, r.hands, r.winner) for r in a.records] == [
        (r.totals, r.hands, r.winner) for r in c.records]
    named = ("bots", "wins_per_bot")
    assert ({k: v for k, v in a.stats().items() if k not in named}
            == {k: v for k, v in b.stats().items() if k not in named})
    assert a.bots[0] == "search" and b.bots[0] == spelt
    assert builtin_bots(["search"] * players) == [spelt] * players


# ------------------------------------------------------------------ every hand ends

@pytest.mark.parametrize("players,spec,rules", [
    (2, "search:40", None), (2, "search:40", "conga"), (3, "search:30,random", None),
    (4, "search:30,search:60,expert,random", "conga"), (6, "search:20,greedy", None)])
def test_every_hand_ends(players, spec, rules):
    r = simulate(scaled(6), players, bots=engine_diff.seat_bots(spec, players), seed=5,
                 rules=rules, engine="native")
    assert r.stalled == 0
    assert r.draws + sum(r.wins_per_seat) == r.games


def test_a_time_budget_plays():
    r = simulate(2, 2, bots="search:1ms,greedy", seed=1, engine="native")
    assert r.stalled == 0 and r.games == 2
    game = _mid_hand(2, "barajamos", 9, 4)
    seat = game.turn
    bot = make_bot("search:2ms", 1)
    obs = Observation(game, seat)
    if game.phase == "draw":
        assert bot.choose_draw(obs, seat) in ("stock", "discard")
    else:
        card, close = bot.choose_discard(obs, seat)
        assert card in obs.held(seat) and close in (True, False)


def test_the_search_seat_reads_its_own_observation():
    """A SearchBot plays a Game table (the server's path) as well as a GameState."""
    game = chinchon.Game(2, seed=4)
    bots = [make_bot("search:40", 1), ExpertBot(2)]
    for _ in range(60):
        if game.result is not None:
            break
        play_turn(game, bots)
    assert game.hand_number >= 1


def test_rules_the_search_cannot_play_are_refused_before_any_game(capsys):
    """A minus ten past the C engine's int: the search's playouts cannot run. simulate
    refused it only at the first game (a SimulationError of game 0, after the check of
    every argument), chinchon play after printing the game's header."""
    rules = chinchon.Rules(minus_ten=2**31)
    for bots in ("search:20", ["greedy", SearchBot]):
        with pytest.raises(ChinchonError, match="a search bot plays out in the native "
                                                "engine, which takes Rules.minus_ten up "
                                                "to 2147483647, got 2147483648") as e:
            simulate(3, 2, bots=bots, rules=rules)
        assert not isinstance(e.value, chinchon.SimulationError)
    assert simulate(2, 2, bots="greedy", rules=rules).games == 2  # no search: plays
    from chinchon.cli import main

    assert main(["play", "--players", "2", "--bots", "search:10", "--minus-ten",
                 str(2**31)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Rules.minus_ten up to 2147483647" in err
