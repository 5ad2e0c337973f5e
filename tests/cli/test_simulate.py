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


def test_cli_simulate_engine(capsys):
    from chinchon import IMPLEMENTATION
    from chinchon.simulation.engine import native_available

    args = ["simulate", "--games", "3", "--players", "2", "--bots", "greedy,random",
            "--seed", "4", "--json", "--no-progress"]
    assert main(args + ["--engine", "Python"]) == 0  # any case, as simulate(engine=)
    py = json.loads(capsys.readouterr().out)
    assert py["engine"] == "python"
    assert main(args) == 0  # --engine auto
    auto = json.loads(capsys.readouterr().out)
    want = "native" if native_available() and IMPLEMENTATION == "native" else "python"
    assert auto["engine"] == want
    for d in (py, auto):
        del d["engine"], d["seconds"]
    assert auto == py
    assert main(["simulate", "--games", "2", "--players", "2", "--seed", "1", "--engine",
                 "python", "--no-progress"]) == 0
    assert "python engine" in capsys.readouterr().out
