"""chinchon hint, and the command line at large: output, --json, and bad input (one line
on stderr, exit 2); `python -m chinchon`."""

from __future__ import annotations

import json
import subprocess
import sys

from chinchon.cli import main


def test_hint_text(capsys):
    assert main(["hint", "7o 7c 7b 9e 10e 11e 4o 5b"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[1:] == "7o 7c 7b 9e 10e 11e 4o 5b".split()
    lines = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines()[4:]}
    assert lines["5b"] == ["4", "normal", "*"]
    assert lines["4o"] == ["5", "normal"]
    assert lines["9e"] == ["30"]


def test_hint_json(capsys):
    assert main(["hint", "7o 7c 7b 9e 10e 11e 4o 5b", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deadwood"] == 9
    hints = {h["card"]: h for h in data["hints"]}
    assert hints["5b"]["points"] == 4 and hints["5b"]["can_close"]
    assert hints["9e"]["outcome"] is None


def test_hint_seven_cards_and_decks(capsys):
    assert main(["hint", "3e 4e 5e 6e 7e 8e 9e"]) == 0
    assert "chinchon" in capsys.readouterr().out
    assert main(["hint", "5o 5o 5c 1b 2b 3b 9c 9e", "--decks", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decks"] == 2


def test_bad_input_exit_2(capsys):
    assert main(["hint", "7o 7c 7b 9e 10e 11e 4o 5x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "5x" in err
    assert main(["hint", "7o 7c"]) == 2
    assert "7 or 8 cards" in capsys.readouterr().err
    assert main(["hint", ""]) == 2  # said "got 0: " and nothing
    assert capsys.readouterr().err.endswith("got 0: (no cards)\n")
    assert main(["hint", "7o 7o 7c 1b 2b 3b 9c 9e", "--decks", "1"]) == 2


def test_console_entry_point():
    r = subprocess.run([sys.executable, "-m", "chinchon", "hint", "1o 2o"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().startswith("chinchon hint: error")


def test_hint_json_of_seven_cards_says_how_it_closes(capsys):
    """The text prints "close:"; the JSON carried nothing of it."""
    assert main(["hint", "7o 8o 9o 10o 2c 2e 2b", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["close"] == "minus_ten"
    assert main(["hint", "7o 8o 9o 10o 2c 2e 12b", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["close"] is None
    assert main(["hint", "7o 8o 9o 10o 2c 2e 12b 3o", "--json"]) == 0
    assert "close" not in json.loads(capsys.readouterr().out)  # 8 cards: in the hints
