"""chinchon hint --outlook, chinchon play --outlook and the expert bot on the command line."""

from __future__ import annotations

import io
import json
import sys

from chinchon import IMPLEMENTATION, Hand, outlook
from chinchon.cli import main


def test_hint_outlook_text(capsys):
    assert main(["hint", "--outlook", "4o 5o 6o 4c 5c 6c 1b 12e"]) == 0
    out = capsys.readouterr().out
    assert "one of 40 unseen cards" in out
    rows = [ln.split() for ln in out.splitlines() if ln.strip().startswith(("12e", "1b"))]
    assert rows[0][:6] == ["12e", "1", "normal", "0.90", "100.0%", "10.0%"]
    assert rows[0][-1] == "*"
    assert rows[1][0] == "1b"


def test_hint_outlook_json_and_unseen(capsys):
    assert main(["hint", "--outlook", "--json", "--unseen", "3o 7c 12o",
                 "4o 5o 6o 4c 5c 6c 1b 12e"]) == 0
    data = json.loads(capsys.readouterr().out)
    lines = {x["card"]: x for x in data["outlook"]}
    assert lines["12e"]["draws"] == 3 and lines["12e"]["p_minus_ten"] == 2 / 3
    want = outlook(Hand("4o 5o 6o 4c 5c 6c 1b 12e"), "3o 7c 12o")
    assert [x.to_dict() for x in want] == data["outlook"]


def test_hint_outlook_refusals(capsys):
    assert main(["hint", "--outlook", "4o 5o 6o 4c 5c 6c 1b"]) == 2
    assert "--outlook needs 8 cards" in capsys.readouterr().err
    assert main(["hint", "--outlook", "--unseen", "4o", "4o 5o 6o 4c 5c 6c 1b 12e"]) == 2
    assert "card 4o is both held and unseen" in capsys.readouterr().err


def test_play_with_outlook_against_experts(monkeypatch, capsys):
    lines = "\n".join(["s", "1"] * 40) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    assert main(["play", "--players", "3", "--seed", "4", "--bots", "expert",
                 "--outlook"]) == 0
    out = capsys.readouterr().out
    assert "after the next draw: expected" in out


def test_simulate_expert(capsys):
    # the pure-Python outlook takes ~30 ms a turn: one short game there
    native = IMPLEMENTATION == "native"
    assert main(["simulate", "--games", "3" if native else "1", "--players", "4",
                 "--bots", "expert,greedy,expert,greedy", "--seed", "1", "--json",
                 "--no-progress", "--max-turns", "1000" if native else "40"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == (3 if native else 1) and out["bots"][0] == "expert"


def test_hint_outlook_keeps_the_decks_asked(capsys):
    """--decks 1 held for the outlook too (it counted 1o unseen twice, as two decks);
    without --decks the unseen cards may make it two decks, for the hints as well."""
    hand = "7o 7c 7b 9e 10e 11e 4o 5b"
    assert main(["hint", hand, "--decks", "1", "--outlook", "--unseen", "1o 1o"]) == 2
    err = capsys.readouterr().err
    assert "card 1o is unseen 2 times with 1 deck" in err and err.count("\n") == 1
    assert main(["hint", hand, "--outlook", "--unseen", "1o 1o", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decks"] == 2 and data["outlook"][0]["draws"] == 2
    want = outlook(Hand(hand, decks=2), "1o 1o")
    assert [x.to_dict() for x in want] == data["outlook"]
