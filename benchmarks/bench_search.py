"""The search bot's decisions (pytest-benchmark; outside testpaths).

Run: ``pytest benchmarks/bench_search.py``. One discard decision of ``SearchBot`` at the
table's default budget (the view built from the Observation included: what a server's
bot seat pays) in a fixed position of a 4-player house-rules game and of a 2-player
conga game, one thread; and the same decision at a fixed 1000 playouts, so that the cost of the
search itself compares across versions whose default budgets differ; and at the default
budget on 2 threads (the same choice; the wall time a table waits). Target: <= 20 ms
at the default budget (docs/bots.md; the distribution over whole games, p99 included,
is ``python benchmarks/search_strength.py --only speed``).
Times are recorded, not asserted: the machines are shared.
"""

from __future__ import annotations

import pytest

from chinchon.bots import GreedyBot, SearchBot, play_turn
from chinchon.game.observation import Observation
from chinchon.game.state import GameState
from chinchon.simulation.engine import native_available


def _position(players: int, rules: str) -> GameState:
    """A game after 9 greedy turns, at the discard of the seat to act."""
    game = GameState(players, seed=27, rules=rules)
    bots = [GreedyBot(s) for s in range(players)]
    while game.turns_this_hand < 9 or game.phase != "discard":
        play_turn(game, bots)
    return game


@pytest.mark.skipif(not native_available(), reason="the search needs the compiled extension")
@pytest.mark.parametrize("playouts,threads", [(None, 1), (1000, 1), (None, 2)],
                         ids=["default", "1000", "default-2-threads"])
@pytest.mark.parametrize("players,rules", [(4, "barajamos"), (2, "conga")])
def test_search_discard(benchmark, players, rules, playouts, threads):
    game = _position(players, rules)
    seat = game.turn
    obs = Observation(game, seat)
    bot = SearchBot(1, playouts=playouts, threads=threads)
    card, close = benchmark.pedantic(bot.choose_discard, args=(obs, seat), rounds=30,
                                     iterations=1, warmup_rounds=2)
    assert card in obs.held(seat)
    benchmark.extra_info["playouts"] = playouts or SearchBot.default_playouts(players)
    benchmark.extra_info["threads"] = threads
