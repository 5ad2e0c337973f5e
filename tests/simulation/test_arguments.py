"""simulate's arguments are checked before any game is played, each bad one a
ChinchonError naming it; ``jobs=None`` takes every core, at most MAX_JOBS."""

from __future__ import annotations

import os
from typing import Any

import pytest

import chinchon.simulation as simulation
from chinchon.bots import GreedyBot
from chinchon.errors import ChinchonError
from chinchon.simulation import MAX_JOBS, simulate


class CountingBot(GreedyBot):
    """A greedy bot that counts its discards (in this process: ``jobs=1``)."""

    name = "counting"
    discards = 0

    def choose_discard(self, obs: Any, seat: int) -> Any:
        CountingBot.discards += 1
        return super().choose_discard(obs, seat)


@pytest.mark.parametrize("kwargs,words", [
    ({"progress": 5}, "progress must be None or a callable"),
    ({"progress": True}, "progress must be None or a callable"),
    ({"records": 5}, "records must be a directory's path"),
    ({"records": b"games"}, "records must be a directory's path"),
    ({"options": 5}, "options must be None or a mapping"),
    ({"options": {1: 2}}, "options must be None or a mapping"),
    ({"options": {"colour": "red"}}, "the game player takes no keyword 'colour'"),
    ({"options": {"rules": "conga"}}, "'rules' is simulate's own argument"),
])
def test_bad_arguments_are_refused_before_any_game(kwargs, words):
    CountingBot.discards = 0
    with pytest.raises(ChinchonError, match=words):
        simulate(3, 2, bots=[CountingBot], chunk_size=1, **kwargs)
    assert CountingBot.discards == 0  # not a game played
    simulate(1, 2, bots=[CountingBot])
    assert CountingBot.discards > 0  # what the count would have seen


@pytest.mark.parametrize("bots", [5, None, 123, CountingBot, b"greedy", {"greedy": 1}])
def test_bots_that_are_no_names_nor_a_sequence_of_them(bots):
    with pytest.raises(ChinchonError, match="bots must be a bot name, a comma-separated"):
        simulate(3, 2, bots=bots)


def test_jobs_none_takes_every_core_at_most_max_jobs(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: MAX_JOBS + 64)
    asked = []

    def run_chunks(params, chunks, *, jobs, executor, progress):
        asked.append(jobs)
        return params.empty()

    with monkeypatch.context() as m:  # no process started: the pool's size is all
        m.setattr(simulation, "run_chunks", run_chunks)
        assert simulate(10_000, 2, jobs=None).jobs == MAX_JOBS
    assert asked == [MAX_JOBS]
    assert simulate(1, 2, jobs=None).jobs == 1  # one game: played here


@pytest.mark.parametrize("bots,words", [
    ("greedy,,", "bot 2 of 3 has no name"),
    ("", "bot 1 of 1 has no name"),
    (",", "bot 1 of 2 has no name"),
    ([], "bots is empty"),
])
def test_a_bot_list_with_a_gap_is_refused_naming_the_forms(bots, words):
    """An empty name in the list was dropped (``greedy,,`` played greedy at every
    seat) and an empty list was "0 bots for 2 players"; both now name the forms."""
    with pytest.raises(ChinchonError, match=words) as info:
        simulate(1, 2, bots=bots)
    assert "search:<playouts>" in str(info.value)


def test_one_bot_under_two_spellings_is_counted_once():
    """A simulation counts a bot under bot_name's spelling: ``search:0100`` and
    ``Search: 100`` were two bots in ``wins_per_bot``, ``search:10 ms`` not bot_name's
    ``search:10ms``; ``search`` alone stays ``search``."""
    result = simulate(4, 2, bots="search:0100,Search: 100", seed=3, engine="python")
    assert result.bots == ["search:100", "search:100"]
    assert list(result.wins_per_bot) == ["search:100"]
    assert sum(result.wins_per_bot.values()) == 4 - result.draws - result.stalled
    assert simulate(1, 2, bots="search:10 MS,search", seed=3).bots == ["search:10ms",
                                                                       "search"]
