"""The command line under the rule variants: --rules NAME and the field overrides."""

from __future__ import annotations

import json

import pytest

from chinchon.cli import main


def test_hint_with_a_preset(capsys):
    assert main(["hint", "4o *1 6o 9c 9e 9b 2c 1b", "--rules", "fifty"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[1:] == "4o *1 6o 9c 9e 9b 2c 1b".split()
    assert out[1] == "melds:    [4o *1(5o) 6o] (run)  [9c 9e 9b] (set)"
    lines = {ln.split()[0]: ln.split()[1:] for ln in out[4:]}
    assert lines["2c"] == ["1", "normal", "*"] and lines["*1"] == ["13"]


def test_hint_overrides_and_json(capsys):
    hand = "1o 2o 3o 4o 5o 6o 7o"
    assert main(["hint", hand, "--rules", "conga", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["arrangement"]["melds"][0]["joker"] == "1o"
    assert main(["hint", hand, "--rules", "conga"]) == 0
    assert "close:    joker_chinchon" in capsys.readouterr().out
    assert main(["hint", hand, "--rules", "conga", "--joker-chinchon", "none"]) == 0
    assert "close:    minus_ten" in capsys.readouterr().out
    assert main(["hint", hand, "--no-wild-ace", "--rules", "conga"]) == 0
    assert "close:    chinchon" in capsys.readouterr().out
    assert main(["hint", "2c 3c 4c 5c 6c 7c 8c", "--no-seven-run-wins"]) == 0
    assert "close:    minus_ten" in capsys.readouterr().out
    assert main(["hint", "6c 7c 10c 1b 2b 3b 12e", "--deck", "40", "--close-limit", "12"]) == 0
    assert "close:    normal" in capsys.readouterr().out
    assert main(["hint", "11o 12o 1b 2b 3b 4b 5b", "--points", "1,2,3,4,5,6,7,8,9,10,10,10",
                 "--close-limit", "20"]) == 0
    assert "= 20 points" in capsys.readouterr().out


def test_settle_with_jokers(capsys):
    args = ["settle", "--closer", "4o *1 6o 9c 9e 9b 1b", "--opponent", "7o 3o *2 12c 11e 10b 2b",
            "--rules", "fifty"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "lays *2 on #1 (closer's set)" in out
    assert "#0  run  3o 4o *1(5o) 6o 7o" in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["table"][1]["joker"] == "*2" and data["points"] == [1, 35]
    assert main(["settle", "--closer", "2c 3c 4c 5c *1 7c 8c", "--opponent",
                 "9c 1c 12c 11e 10b 2b 3b", "--jokers", "1"]) == 0
    assert "chinchón with a joker" in capsys.readouterr().out


def test_bad_rules_exit_2(capsys):
    assert main(["hint", "1c 2c 3c", "--rules", "poker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "poker" in err and "conga" in err
    assert main(["hint", "1c 2c 3c 8c 9c 10c 11c", "--rules", "conga"]) == 2
    assert "8c is not in the 40-card deck" in capsys.readouterr().err
    assert main(["hint", "1c 2c 3c 4c 5c 6c 7c", "--points", "1,2,3"]) == 2
    assert "Rules.points" in capsys.readouterr().err
    assert main(["hint", "1c 2c 3c 4c 5c 6c 7c", "--joker-points", "51"]) == 2
    assert "Rules.joker_points" in capsys.readouterr().err


def test_rules_lists_each_preset_by_what_it_is(capsys):
    from chinchon.rules import PRESET_DESCRIPTIONS
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    for name, description in PRESET_DESCRIPTIONS.items():
        assert f"{name:<10} {description}" in text
    assert "seed" not in text
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {n: d["source"] for n, d in data.items()} == dict(PRESET_DESCRIPTIONS)


def test_bad_override_values_name_the_option_not_a_function(capsys):
    """argparse named the parsing functions ("invalid _void_at_stock value")."""
    for option, value, words in (("--void-at-stock", "abc", "a whole number or none"),
                                 ("--joker-chinchon", "x", "a whole number or none"),
                                 ("--points", "a,b", "12 whole numbers (P1,...,P12)")):
        with pytest.raises(SystemExit) as exited:  # argparse's own exit
            main(["simulate", "--games", "1", option, value])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert f"argument {option}: must be {words}, got {value!r}" in err, err
        assert "invalid _" not in err and err.count("\n") == 1
