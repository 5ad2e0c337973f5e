"""chinchon settle: the table as text, --json, and a deal that cannot close (exit 2)."""

from __future__ import annotations

import json

from chinchon.cli import main

CLOSER = "3o 4o 5o 9c 9e 9b 1b"


def test_cli_settle_text(capsys):
    rc = main(["settle", "--closer", CLOSER, "--opponent", "6c 7c 8c 6o 10e 11b 12b",
               "--opponent", "5c 4c 7o 1e 2e 10b 12e"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "lays 6o on #0 (closer's run)" in out
    assert "lays 5c on #2 (opponent 1's run)" in out
    assert "#2  run  4c 5c 6c 7c 8c" in out
    assert "opponent 2    25" in out


def test_cli_settle_json(capsys):
    rc = main(["settle", "--closer", "7o 7c 7b 9e 10e 11e 4o", "--opponent",
               "7e 12e 1c 3o 5b 8c 2o", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert d["points"] == [4, 19]
    assert d["opponents"][0]["layoffs"] == [["7e", 0], ["12e", 1]]


def test_cli_settle_error(capsys):
    rc = main(["settle", "--closer", "5o 5c 5e 1b 2b 3b 10o", "--opponent",
               "1o 2o 12c 11e 10b 8b 4e"])
    assert rc == 2
    assert "cannot close" in capsys.readouterr().err
