"""simulate(): reproducible whatever jobs, sensible statistics, bad arguments refused;
the bots; and the CLI's simulate and play commands."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chinchon
from chinchon.bots import GreedyBot, RandomBot, make_bot, play_turn
from chinchon.cli import main
from chinchon.errors import ChinchonError
from chinchon.game import Game
from chinchon.simulate import game_seed, play_game, simulate

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 40 if NATIVE else 4


def test_same_seed_same_statistics_whatever_jobs():
    a = simulate(N, 4, bots="greedy,greedy,random,random", seed=1, jobs=1)
    b = simulate(N, 4, bots="greedy,greedy,random,random", seed=1, jobs=2, chunk_size=1)
    assert a.stats() == b.stats()
    assert a.games == N
    won = sum(a.wins_per_seat)
    assert won + a.draws + a.cancelled + a.stalled == N
    assert sum(a.wins_per_bot.values()) == won
    assert sum(a.endings.values()) == sum(a.turns_per_hand.values())
    assert a.hands == sum(k * v for k, v in a.hands_per_game.items())
    json.dumps(a.to_dict())


def test_games_depend_on_seed_and_index_only():
    r = play_game(3, ["greedy"] * 3, seed=5, index=2)
    assert r == play_game(3, ["greedy"] * 3, seed=5, index=2)
    assert game_seed(5, 2) != game_seed(5, 3) != game_seed(6, 2)


def test_max_turns_counts_a_game_as_stalled():
    r = play_game(3, ["random"] * 3, seed=1, index=0, max_turns=1)
    assert r.status in ("stalled", "won")
    s = simulate(2, 3, bots="random", seed=1, max_turns=1)
    assert s.stalled + sum(s.wins_per_seat) + s.draws == 2


def test_bad_arguments():
    for kwargs in ({"games": -1}, {"players": 2}, {"bots": "greedy,random"},
                   {"bots": "clever"}, {"jobs": 0}, {"seed": "x"}):
        args = {"games": 1, "players": 3, **kwargs}
        with pytest.raises(ChinchonError):
            simulate(args.pop("games"), args.pop("players"), **args)


def test_greedy_takes_a_useful_discard_and_closes():
    # seat 0 holds two melds and 12b; the face-up 2b lets it throw the 12b and close
    from .test_game import stack

    g = Game(3, deck=stack(["1o 2o 3o 4c 5c 6c 12b", "12o 12c 11e 9b 10b 8e 7o",
                            "1c 3e 5b 7e 9c 11b 6o"], "2b", ["12e"]), lead=0)
    bot = GreedyBot()
    assert bot.choose_draw(g, 0) == "discard"  # 2b for 12b: deadwood 12 -> 2
    g.draw("discard")
    card, close = bot.choose_discard(g, 0)
    assert (str(card), close) == ("12b", True)


def test_random_bot_plays_legal_moves():
    g = Game(4, seed=3)
    bots = [RandomBot(s) for s in range(4)]
    for _ in range(200):
        if g.result is not None:
            break
        play_turn(g, bots)
    assert make_bot("Greedy").name == "greedy"
    with pytest.raises(ChinchonError):
        make_bot("nobody")


def test_cli_simulate_json(capsys):
    assert main(["simulate", "--games", "2", "--players", "3", "--bots", "greedy",
                 "--seed", "1", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["players"] == 3


def test_cli_simulate_table(capsys):
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "wins" in out and "greedy" in out


def test_cli_play_reads_stdin(monkeypatch, capsys):
    # always draw from the stock and throw away the first card offered; stop at EOF
    lines = "\n".join(["s", "1"] * 60) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "your hand" in out.lower()


def test_cli_play_as_a_process():
    src = Path(chinchon.__file__).resolve().parent.parent
    env = dict(os.environ)  # keeps what the run needs (LD_PRELOAD under the sanitizers)
    env.update(PYTHONPATH=str(src), CHINCHON_IMPLEMENTATION=chinchon.IMPLEMENTATION)
    proc = subprocess.run(
        [sys.executable, "-m", "chinchon", "play", "--players", "3", "--seed", "4"],
        input="s\n1\n" * 5, capture_output=True, text=True, timeout=120, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("points left") == 5  # the hints, every turn
    for line in proc.stdout.splitlines():
        parts = line.split()
        # a hint row offering Close must leave at most the close limit
        if len(parts) >= 3 and parts[0].isdigit() and "close" in line.lower():
            assert int(parts[2]) <= 5, line