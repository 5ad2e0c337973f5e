"""chinchon simulate: the statistics as JSON and as a table."""

from __future__ import annotations

import json

from chinchon.cli import main


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
