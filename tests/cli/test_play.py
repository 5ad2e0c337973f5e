"""chinchon play: a game against bots at the terminal, from stdin and as a process."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chinchon
from chinchon.cli import main


def test_cli_play_reads_stdin(monkeypatch, capsys):
    # always draw from the stock and throw away the first card offered; stop at EOF
    lines = "\n".join(["s", "1"] * 60) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "your hand" in out.lower()


@pytest.mark.parametrize("seed", [2**256 - 1, 2**256 - 2, -(2**256 - 1)])
def test_cli_play_takes_every_seed_a_game_takes(monkeypatch, capsys, seed):
    """The bots' seeds follow the game's: at the largest seeds they are taken back into
    the 256 bits instead of refused (the game itself took the seed)."""
    lines = "\n".join(["s", "1"] * 20) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--seed", str(seed)]) == 0
    captured = capsys.readouterr()
    assert "your hand" in captured.out.lower() and "error" not in captured.err


def test_cli_play_seed_printed_repeats_the_bots(monkeypatch, capsys):
    """Without --seed the game draws one and prints it: run again with it, the deal and
    every bot's move come out the same (the bots' seeds follow the game's)."""
    lines = "\n".join(["s", "1"] * 40) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--bots", "random"]) == 0
    first = capsys.readouterr().out
    seed = first.splitlines()[0].rsplit("Seed ", 1)[1].rstrip(".")
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--bots", "random", "--seed", seed]) == 0
    again = capsys.readouterr().out
    assert "Bot 1" in first and first == again


def test_cli_play_against_search_bots_on_threads(monkeypatch, capsys):
    pytest.importorskip("chinchon._core.engine")
    lines = "\n".join(["s", "1"] * 8) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "2", "--seed", "3", "--bots", "search:40",
                 "--search-threads", "2"]) == 0
    assert "your hand" in capsys.readouterr().out.lower()
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "2", "--bots", "search:40",
                 "--search-threads", "0"]) != 0
    assert "threads must be an int 1..64, got 0" in capsys.readouterr().err


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

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes a descriptor")
def test_cli_play_with_stdin_closed_is_the_end_of_the_input():
    """Started with stdin closed (``<&-``) sys.stdin is None: it was an AttributeError's
    traceback; it is the end of the input, which quits (status 0)."""
    done = subprocess.run([sys.executable, "-m", "chinchon", "play", "--seed", "1"],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Bye.\n") and done.stderr == ""


def test_the_rejoin_question_takes_y_n_or_q(monkeypatch, capsys):
    """q quits there too (it was taken as no, and the bots played on); anything but a
    yes, a no or a q is asked again (it was a silent no)."""
    from chinchon.cli import play

    monkeypatch.setattr("sys.stdin", io.StringIO("maybe\nYes\n"))
    assert play._yes("Rejoin? [y/n] ") is True
    assert "Answer y or n (q quits)." in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert play._yes("Rejoin? [y/n] ") is False
    monkeypatch.setattr("sys.stdin", io.StringIO("x\nq\n"))
    with pytest.raises(play._EndOfInput):
        play._yes("Rejoin? [y/n] ")


def test_the_hand_result_speaks_to_you():
    """"You close", not "You closes", where the closer is the seat spoken to."""
    from chinchon.game.text import hand_result_lines
    from tests.oracles.tables import close_now, stacked_game

    game = stacked_game(closer="1o 2o 3o 4c 5c 6c 5e")
    close_now(game)
    names = ["You", "Bot 1", "Bot 2"]
    assert hand_result_lines(game, names, you=0)[0].startswith("== You close: ")
    assert hand_result_lines(game, ["Ana", "Bo", "Cy"])[0].startswith("== Ana closes: ")


def test_an_outlook_with_no_card_unseen_is_left_out(monkeypatch, capsys):
    """The stock down to its last card, drawn, while the bot holds only cards seen taken
    from the pile: no card is unseen, so there is no next draw to look at. The turn is
    played without the outlook (it was an error that ended the game)."""
    from chinchon import Game
    from chinchon.cli import play as cli_play

    g = Game(2, seed=3, lead=0)
    while g.stock_size > 1:  # seat 0 draws from the stock, seat 1 takes the pile's top
        g.draw("stock")
        g.discard(g.hints()[0].card)
        g.draw("discard")
        taken = g.observe(1).taken(1)
        g.discard(next((c for c in g.held(1) if c not in taken), g.held(1)[0]))
    monkeypatch.setattr(sys, "stdin", io.StringIO("s\n1\n"))
    cli_play._human_turn(g, 0, outlook=True)
    assert not g.unseen(0)  # the state the test is about
    out = capsys.readouterr().out
    assert "no card is unseen: no outlook this turn" in out and "You discard" in out
    assert g.turn == 1


@pytest.mark.parametrize("answer", ["\u00b2", "\uff11", "\u0661", "1" * 5000])
def test_a_discard_number_not_of_ascii_digits_is_asked_again(monkeypatch, capsys, answer):
    """A superscript two, a full-width or Arabic-Indic one, 5,000 digits: "not a card you
    hold", and the question again (a traceback, or option 1 taken)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"s\n{answer}\nq\n"))
    assert main(["play", "--players", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "not a card you hold" in out and "You discard" not in out
