"""Rules (docs/rules.md#rule-fields): the fields, their checks, the presets, JSON and the solver view."""

from __future__ import annotations

import dataclasses
import json
import pickle
import re

import numpy as np
import pytest

import chinchon
from chinchon import (
    CLASSIC_RULES,
    CONGA_RULES,
    FIFTY_RULES,
    HOUSE_RULES,
    PRESETS,
    ChinchonError,
    InvalidHandError,
    Rules,
    SolverRules,
)
from chinchon._args import check_rules


def test_defaults_are_the_house_rules():
    r = Rules()
    assert r == HOUSE_RULES
    assert (r.deck, r.wild_ace_of_coins, r.jokers, r.joker_points) == (48, False, 0, 25)
    assert r.points == tuple(range(1, 13))
    assert (r.seven_run_wins, r.joker_chinchon, r.first_round_close) == (True, 25, True)
    assert (r.all_out, r.void_at_stock) == ("draw", None)
    assert (r.close_limit, r.eliminate_above, r.minus_ten, r.rejoin_chips,
            r.reconnect_seconds) == (5, 70, 10, 2, 60)


def test_presets_are_exactly_spec_9_1():
    assert PRESETS["barajamos"] is HOUSE_RULES
    assert CLASSIC_RULES == Rules(seven_run_wins=False)
    assert CONGA_RULES == Rules(deck=40, wild_ace_of_coins=True, close_limit=7,
                                eliminate_above=99, all_out="lowest", void_at_stock=2,
                                rejoin_chips=0)
    assert CONGA_RULES.joker_points == 25 and CONGA_RULES.jokers == 0
    assert FIFTY_RULES == Rules(jokers=2)
    assert list(PRESETS) == ["barajamos", "classic", "conga", "fifty"]
    for name, rules in PRESETS.items():
        assert Rules.preset(name) is rules
        assert Rules.preset(name.upper() + " ") is rules
        assert rules.preset_name == name
        assert check_rules(name) is rules
        assert getattr(chinchon, {"barajamos": "HOUSE_RULES"}.get(name, f"{name.upper()}_RULES")) is rules
    assert Rules(close_limit=7).preset_name is None
    with pytest.raises(TypeError):
        PRESETS["mine"] = Rules()  # type: ignore[index]


def test_unknown_preset_lists_the_names():
    with pytest.raises(ChinchonError) as e:
        Rules.preset("poker")
    for name in ("'poker'", "barajamos", "classic", "conga", "fifty"):
        assert name in str(e.value)
    with pytest.raises(ChinchonError, match="preset"):
        check_rules("poker")
    with pytest.raises(ChinchonError, match="str"):
        Rules.preset(5)  # type: ignore[arg-type]
    with pytest.raises(ChinchonError, match="preset name"):
        check_rules(5)


@pytest.mark.parametrize("field,bad", [
    ("deck", 52), ("deck", 36), ("deck", True), ("deck", 48.0), ("deck", "48"),
    ("wild_ace_of_coins", 1), ("wild_ace_of_coins", "yes"), ("wild_ace_of_coins", None),
    ("jokers", -1), ("jokers", 3), ("jokers", True), ("jokers", 1.0), ("jokers", 10**30),
    ("joker_points", -1), ("joker_points", 51), ("joker_points", False), ("joker_points", 10**40),
    ("seven_run_wins", 0), ("seven_run_wins", "False"),
    ("joker_chinchon", -1), ("joker_chinchon", 2**31), ("joker_chinchon", True),
    ("joker_chinchon", 2.5), ("joker_chinchon", 10**40),
    ("first_round_close", 1), ("all_out", "highest"), ("all_out", None), ("all_out", 0),
    ("void_at_stock", -1), ("void_at_stock", 256), ("void_at_stock", True),
    ("void_at_stock", 2.0), ("void_at_stock", 10**30),
    ("close_limit", 256), ("close_limit", True), ("minus_ten", -1), ("rejoin_chips", -1),
    ("eliminate_above", 70.5), ("reconnect_seconds", float("nan")),
    # every number of Rules within the range docs/rules.md gives it
    ("eliminate_above", -5), ("eliminate_above", 2**53), ("close_limit", -1),
    ("minus_ten", 2**53), ("rejoin_chips", 2**53), ("reconnect_seconds", -1),
    ("reconnect_seconds", float("inf")), ("points", [32] * 12), ("points", [-1] * 12),
])
def test_bad_values_name_the_field(field, bad):
    with pytest.raises(ChinchonError) as e:
        Rules(**{field: bad})
    assert f"Rules.{field}" in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("bad,where", [
    ((1, 2, 3), "got 3 values"), ("123456789012", "12 ints"), (5, "12 ints"),
    ({1: 1}, "12 ints"), ([1] * 11 + [32], "points[11]"), ([1] * 11 + [-1], "points[11]"),
    ([True] + [1] * 11, "points[0]"), ([1.0] * 12, "points[0]"), ([None] * 12, "points[0]"),
    ([1] * 5 + [10**30] + [1] * 6, "points[5]"), ([1] * 13, "got 13 values"),
])
def test_bad_point_tables_name_the_entry(bad, where):
    with pytest.raises(ChinchonError) as e:
        Rules(points=bad)
    assert "Rules.points" in str(e.value) and where in str(e.value)


def test_points_take_any_sequence_and_keep_a_tuple():
    table = [1, 2, 3, 4, 5, 6, 7, 0, 0, 10, 10, 10]
    r = Rules(points=table)
    assert r.points == tuple(table) and isinstance(r.points, tuple)
    table[0] = 31  # the rules keep their own copy
    assert r.points[0] == 1
    assert Rules(points=range(12)).points == tuple(range(12))
    assert Rules(points=[0] * 12) != Rules(points=[31] * 12)


def test_frozen_hashable_equal_by_value():
    a = Rules(deck=40, points=[10] * 12, joker_chinchon=None)
    b = Rules(deck=40, points=tuple([10] * 12), joker_chinchon=None)
    assert a == b and hash(a) == hash(b) and len({a, b, HOUSE_RULES}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.deck = 48  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(CONGA_RULES)) == CONGA_RULES
    assert pickle.loads(pickle.dumps(CONGA_RULES)).solver == CONGA_RULES.solver
    assert eval(repr(a), {"Rules": Rules}) == a
    assert repr(HOUSE_RULES) == "Rules()"


@pytest.mark.parametrize("rules", [
    *PRESETS.values(),
    Rules(deck=40, jokers=2, joker_points=0, points=[0] * 12, seven_run_wins=False,
          joker_chinchon=None, first_round_close=False, all_out="lowest", void_at_stock=0,
          close_limit=255, minus_ten=2**53 - 1, reconnect_seconds=2.5, eliminate_above=0),
])
def test_json_round_trip(rules):
    d = rules.to_dict()
    assert set(d) == {f.name for f in dataclasses.fields(Rules)}
    assert isinstance(d["points"], list)
    text = json.dumps(d)
    back = Rules.from_dict(json.loads(text))
    assert back == rules and back.to_dict() == d
    # the game saves rules with dataclasses.asdict and reads them back with Rules(**d)
    assert Rules(**json.loads(json.dumps(dataclasses.asdict(rules)))) == rules


def test_from_dict_checks_its_input():
    assert Rules.from_dict({}) == HOUSE_RULES
    assert Rules.from_dict({"deck": 40}) == Rules(deck=40)
    with pytest.raises(ChinchonError, match="'decks'"):
        Rules.from_dict({"decks": 2})
    with pytest.raises(ChinchonError, match="dict"):
        Rules.from_dict([("deck", 40)])  # type: ignore[arg-type]
    with pytest.raises(ChinchonError, match="Rules.deck"):
        Rules.from_dict({"deck": 52})


def test_replace_validates():
    assert CONGA_RULES.replace(close_limit=5).close_limit == 5
    with pytest.raises(ChinchonError, match="Rules.jokers"):
        FIFTY_RULES.replace(jokers=3)


def test_solver_view():
    s = CONGA_RULES.solver
    assert isinstance(s, SolverRules) and hash(s) == hash(CONGA_RULES.solver)
    assert s == (40, True, 0, 25, tuple(range(1, 13)), True, 25, 7, 10)
    # fields the solver does not read do not change its view
    assert Rules(eliminate_above=99, rejoin_chips=0, all_out="lowest").solver == HOUSE_RULES.solver
    assert Rules(close_limit=7).solver != HOUSE_RULES.solver
    assert s.rank_order == (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    assert HOUSE_RULES.solver.rank_order == tuple(range(1, 13))
    assert s.joker_mask == 1 and FIFTY_RULES.solver.joker_mask == (1 << 12) | (1 << 28)
    assert Rules(jokers=1).solver.joker_mask == 1 << 12
    assert bin(s.card_mask).count("1") == 40 and not s.card_mask & (1 << 7)
    assert bin(FIFTY_RULES.solver.card_mask).count("1") == 50


def test_plain_solver():
    plain = [HOUSE_RULES, CLASSIC_RULES.replace(seven_run_wins=True), Rules(close_limit=7),
             Rules(minus_ten=25), Rules(joker_points=3, joker_chinchon=None),
             Rules(eliminate_above=99, all_out="lowest", void_at_stock=2)]
    assert all(r.plain_solver and r.solver.plain for r in plain)
    not_plain = [CLASSIC_RULES, CONGA_RULES, FIFTY_RULES, Rules(deck=40), Rules(jokers=1),
                 Rules(wild_ace_of_coins=True), Rules(points=[10] * 12)]
    assert not any(r.plain_solver for r in not_plain)


def test_card_points_and_jokers():
    from chinchon import Card
    r = Rules(points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10], joker_points=20,
              wild_ace_of_coins=True, jokers=1)
    assert r.card_points(Card("12b")) == 10 and r.card_points(Card("7c")) == 7
    assert r.card_points(Card("1o")) == 20 and r.card_points(Card("1c")) == 1
    assert r.card_points(Card("*1")) == 20 and r.card_points(12) == 20
    assert r.is_joker(Card("1o")) and r.is_joker(Card("*1")) and not r.is_joker(Card("1c"))
    assert not HOUSE_RULES.is_joker(Card("1o"))
    with pytest.raises(ChinchonError):
        r.solver.card_points(13)
    assert r.card_points("12b") == 10 and r.card_points(np.int64(0)) == 20
    assert r.is_joker("*1") and r.is_joker(np.uint8(0)) and not r.is_joker("1c")


@pytest.mark.parametrize("card", [-1, 13, 64, 100, 12.0, None, True, [0], "13o"])
def test_card_points_and_jokers_refuse_what_is_not_a_card(card):
    """Every refusal is a ChinchonError naming the argument, never a shift's error."""
    for ask in (HOUSE_RULES.card_points, HOUSE_RULES.is_joker, Rules(jokers=2).card_points):
        with pytest.raises(ChinchonError, match=re.escape(repr(card)) if card != "13o"
                           else "13o"):
            ask(card)


@pytest.mark.parametrize("field, value", [("eliminate_above", -5), ("eliminate_above", -1),
                                          ("close_limit", -1), ("close_limit", 256),
                                          ("minus_ten", -10), ("rejoin_chips", -1),
                                          ("reconnect_seconds", -0.5)])
def test_rules_numbers_out_of_bounds_name_the_field(field, value):
    # every total starts at 0: a limit below 0 would put the whole table out at once
    with pytest.raises(ValueError, match=f"Rules.{field} must be"):
        Rules(**{field: value})
    with pytest.raises(ChinchonError, match=f"Rules.{field} must be"):
        HOUSE_RULES.replace(**{field: value})
    assert Rules(eliminate_above=0).eliminate_above == 0


def test_presets_carry_their_description():
    from chinchon.rules import PRESET_DESCRIPTIONS
    assert set(PRESET_DESCRIPTIONS) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert rules.description == PRESET_DESCRIPTIONS[name]
        assert "seed" not in rules.description
    assert Rules(close_limit=3).description is None


def test_bit_points_are_card_points():
    from chinchon.cards import CARD_AT
    for rules in PRESETS.values():
        pts = rules.solver.bit_points
        assert len(pts) == 64
        for i, card in enumerate(CARD_AT):
            if card is not None and not rules.solver.card_mask >> i & 1:
                assert pts[i] == rules.solver.card_points(i)  # the bit's, never read
                continue
            assert pts[i] == (0 if card is None else rules.card_points(card))


@pytest.mark.parametrize("preset, card, words", [
    ("conga", "8o", "card 8o is not in the 40-card deck"),
    ("conga", "9b", "card 9b is not in the 40-card deck"),
    ("barajamos", "*1", r"card \*1 is not in play under these rules \(jokers=0\)"),
    ("fifty", "8o", None), ("fifty", "*2", None)])
def test_card_points_and_jokers_of_a_card_the_deck_lacks(preset, card, words):
    """Asked of a card its deck lacks, both refuse by name (conga's 8o was worth 8, and
    the house rules' *1 25 points but no joker)."""
    rules = Rules.preset(preset)
    if words is None:
        assert rules.card_points(card) >= 0 and isinstance(rules.is_joker(card), bool)
        return
    for ask in (rules.card_points, rules.is_joker):
        with pytest.raises(InvalidHandError, match=words):
            ask(card)
