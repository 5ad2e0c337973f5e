"""Settlement of a closed hand (SPEC §4, issue 3): examples, one hand-built case per
rule, bad input, and random deals checked by an independent brute-force verifier
(tests/settle_checker.py) and, when the native core is built, native vs reference."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import chinchon  # noqa: E402
from chinchon import reference  # noqa: E402
from chinchon.cards import Card, Hand  # noqa: E402
from chinchon.errors import (  # noqa: E402
    CannotCloseError,
    CardCountError,
    ChinchonError,
    DuplicateCardError,
    InvalidHandError,
)
from chinchon.rules import Rules  # noqa: E402
from settle_checker import check_settlement  # noqa: E402
from settle_deals import random_deal  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "shared" / "examples" / "rules_examples.json"
if not EXAMPLES.exists():
    EXAMPLES = Path("/work/shared/examples/rules_examples.json")


def _native_settle():
    if chinchon.IMPLEMENTATION != "native":
        return None
    core = sys.modules.get("chinchon._core")
    return getattr(core, "settle", None)


IMPLS = [pytest.param(reference.settle, id="reference")]
if _native_settle() is not None:
    IMPLS.append(pytest.param(_native_settle(), id="native"))


@pytest.fixture(params=IMPLS)
def settle(request):
    return request.param


def text(indices):
    return " ".join(str(Card.from_index(i)) for i in sorted(indices))


def layoffs(result, k):
    return [(str(c), t) for c, t in result.opponents[k].layoffs]


def melds(result_side):
    return [str(m) for m in result_side.melds]


# ----------------------------------------------------------------------- examples


def test_rules_page_example(settle):
    data = json.loads(EXAMPLES.read_text())
    for ex in data["settlements"]:
        r = settle(ex["closer"], ex["opponents"])
        assert r.outcome == ex["outcome"]
        assert r.closer.points == ex["closer_points"]
        assert [o.points for o in r.opponents] == ex["opponent_points"]
        assert [[str(c) for c, _ in o.layoffs] for o in r.opponents] == ex["opponent_layoffs"]
        check_settlement(r, ex["closer"], ex["opponents"])


def test_example_in_detail(settle):
    r = settle("7o 7c 7b 9e 10e 11e 4o", ["7e 12e 1c 3o 5b 8c 2o"])
    assert melds(r.closer) == ["7o 7c 7b", "9e 10e 11e"]
    assert layoffs(r, 0) == [("7e", 0), ("12e", 1)]
    assert [str(t) for t in r.table] == [
        "TableMeld(kind='set', cards=(Card('7o'), Card('7c'), Card('7e'), Card('7b')), owner=0, open=True)",
        "TableMeld(kind='run', cards=(Card('9e'), Card('10e'), Card('11e'), Card('12e')), owner=0, open=True)",
    ]
    assert r.points == (4, 19)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d


# ------------------------------------------------------------- one case per rule

# closer: the run 3o 4o 5o (table meld 0), the set of nines (meld 1), 1b unmatched
CLOSER = "3o 4o 5o 9c 9e 9b 1b"


def test_chain_of_two_on_one_end(settle):
    r = settle(CLOSER, ["6o 7o 12c 11e 10b 8c 4e"])
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
    assert r.opponents[0].points == 12 + 11 + 10 + 8 + 4
    check_settlement(r, CLOSER, ["6o 7o 12c 11e 10b 8c 4e"])


def test_chain_below_is_applied_outward(settle):
    opp = ["2o 1o 12c 11e 10b 8c 4e"]
    r = settle(CLOSER, opp)
    assert layoffs(r, 0) == [("2o", 0), ("1o", 0)]
    check_settlement(r, CLOSER, opp)


def test_both_ends_of_one_run(settle):
    opp = ["2o 6o 7o 12c 11e 10b 8c"]
    r = settle(CLOSER, opp)
    assert layoffs(r, 0) == [("2o", 0), ("6o", 0), ("7o", 0)]
    assert [str(c) for c in r.table[0].cards] == ["2o", "3o", "4o", "5o", "6o", "7o"]
    check_settlement(r, CLOSER, opp)


def test_lay_on_an_earlier_opponents_meld(settle):
    opps = ["6c 7c 8c 6o 10e 11b 12b", "5c 4c 7o 1e 2e 10b 12e"]
    r = settle(CLOSER, opps)
    assert melds(r.opponents[0]) == ["6c 7c 8c"]
    assert layoffs(r, 0) == [("6o", 0)]
    # the 7o follows the 6o the first opponent laid; 5c 4c chain below their run
    assert layoffs(r, 1) == [("7o", 0), ("5c", 2), ("4c", 2)]
    assert [str(c) for c in r.table[2].cards] == ["4c", "5c", "6c", "7c", "8c"]
    assert r.table[2].owner == 1
    check_settlement(r, CLOSER, opps)


def test_lay_on_earlier_opponent_run_not_only_set(settle):
    # the 9o could go on the set of nines (meld 1) or below 10o 11o 12o (meld 2):
    # alone, equal points, so the smaller (card, meld) pair -- the set -- by
    # design.md rule 5; with the 8o behind it the run is the only right place
    opps = ["10o 11o 12o 2e 4e 6e 8b", "9o 8o 1c 2c 4b 6b 8e"]
    r = settle(CLOSER, opps)
    assert layoffs(r, 1) == [("9o", 2), ("8o", 2)]
    check_settlement(r, CLOSER, opps)
    opps = ["10o 11o 12o 2e 4e 6e 8b", "9o 7c 1c 2c 4b 6b 8e"]
    r = settle(CLOSER, opps)
    assert layoffs(r, 1) == [("9o", 1)]
    check_settlement(r, CLOSER, opps)


def test_minus_ten_locks_the_closers_melds(settle):
    closer = "7o 8o 9o 10o 2c 2e 2b"
    opps = ["11o 6o 2o 1c 4e 5e 6e", "7e 3e 12o 1b 5b 9b 12b"]
    r = settle(closer, opps)
    assert r.outcome == "minus_ten"
    assert r.closer.points == -10 and r.points[0] == -10
    assert layoffs(r, 0) == []
    assert [t.open for t in r.table] == [False, False, True]
    # the second opponent may still lay off on the first opponent's run 4e 5e 6e
    assert layoffs(r, 1) == [("3e", 2), ("7e", 2)]
    check_settlement(r, closer, opps)


def test_minus_ten_rule_value():
    r = reference.settle("7o 8o 9o 10o 2c 2e 2b", ["11o 6o 2o 1c 4e 5e 6e"],
                         rules=Rules(minus_ten=7))
    assert r.points[0] == -7


def test_two_runs_of_one_suit_with_two_decks(settle):
    # table: 5o 6o 7o (closer, meld 0) and 9o 10o 11o (opponent 1, meld 2).
    # The 8o fits both; the copy held with it decides: a second 7o needs the 8o
    # below the nine (then 7o follows it), a second 9o needs it above the seven.
    closer = "5o 6o 7o 1c 1e 1b 2c"
    first = "9o 10o 11o 3e 5e 7e 9e"
    with_7 = [first, "8o 7o 12c 12e 10b 11b 4c"]
    r = settle(closer, with_7)
    assert layoffs(r, 1) == [("8o", 2), ("7o", 2)]
    check_settlement(r, closer, with_7)
    with_9 = [first, "8o 9o 12c 12e 10b 11b 4c"]
    r = settle(closer, with_9)
    assert layoffs(r, 1) == [("8o", 0), ("9o", 0)]
    check_settlement(r, closer, with_9)
    both = [first, "8o 8o 12c 12e 10b 11b 4c"]
    r = settle(closer, both)
    assert layoffs(r, 1) == [("8o", 0), ("8o", 2)]
    check_settlement(r, closer, both)


def test_a_set_receives_a_copy(settle):
    closer = "5o 5c 5e 1b 2b 3b 1o"
    opps = ["5o 5e 5b 12c 12e 11b 10o"]
    r = settle(closer, opps)
    # the three fives make a set of the opponent's own (more own-melded cards wins
    # the tie with laying them off) ...
    assert melds(r.opponents[0]) == ["5o 5e 5b"]
    opps = ["5o 5e 12c 12e 11b 10o 9c"]
    r = settle(closer, opps)
    # ... two of them are laid off, copies included
    assert layoffs(r, 0) == [("5o", 0), ("5e", 0)]
    assert r.opponents[0].points == 12 + 12 + 11 + 10 + 9
    check_settlement(r, closer, opps)


def test_broken_four_of_a_kind(settle):
    opp = ["6o 6c 6e 6b 7o 12c 11e"]
    r = settle(CLOSER, opp)
    assert melds(r.opponents[0]) == ["6c 6e 6b"]
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
    assert r.opponents[0].points == 23
    check_settlement(r, CLOSER, opp)


def test_own_meld_wins_a_tie_with_laying_off(settle):
    # 6o 7o 8o could all be laid off on 3o 4o 5o: same points; own melds first
    opp = ["6o 7o 8o 12c 11e 10b 8c"]
    r = settle(CLOSER, opp)
    assert melds(r.opponents[0]) == ["6o 7o 8o"]
    assert layoffs(r, 0) == []
    check_settlement(r, CLOSER, opp)


def test_laying_off_beats_an_own_meld(settle):
    # own run 6o 7o 8o leaves the 9o, 10o; laying all five off leaves nothing of them
    opp = ["6o 7o 8o 9o 10o 12c 11e"]
    r = settle(CLOSER, opp)
    assert r.opponents[0].points == 23
    check_settlement(r, CLOSER, opp)


def test_set_and_run_both_open_to_a_six(settle):
    closer = "3o 4o 5o 6c 6e 6b 1b"
    alone = ["6o 12c 11e 10b 8c 4e 2e"]
    r = settle(closer, alone)
    assert layoffs(r, 0) == [("6o", 0)]  # (5, 0) < (5, 1): the run is meld 0
    check_settlement(r, closer, alone)
    behind = ["6o 7o 12c 11e 10b 8c 4e"]
    r = settle(closer, behind)
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
    check_settlement(r, closer, behind)


def test_chinchon_ends_the_game(settle):
    closer = "3e 4e 5e 6e 7e 8e 9e"
    opps = ["2e 10e 1o 2o 3o 12b 11c", "5o 5c 5b 9o 10c 12o 1b"]
    r = settle(closer, opps)
    assert r.outcome == "chinchon"
    assert r.points == (0, 0, 0)
    assert all(o.layoffs == () and o.points == 0 for o in r.opponents)
    assert melds(r.opponents[0]) == ["1o 2o 3o"]
    assert melds(r.opponents[1]) == ["5o 5c 5b"]
    assert [t.owner for t in r.table] == [0, 1, 2]
    check_settlement(r, closer, opps)


def test_normal_close_scores_deadwood(settle):
    r = settle("3c 4c 5c 6c 6o 6e 1b", ["1o 2o 12c 11e 10b 8b 4e"])
    assert r.outcome == "normal" and r.closer.points == 1
    assert [str(c) for c in r.closer.unmatched] == ["1b"]


def test_accepts_hands_cards_and_a_single_opponent(settle):
    a = settle(Hand(CLOSER), [Hand("6o 7o 12c 11e 10b 8c 4e")])
    b = settle([Card.parse(c) for c in CLOSER.split()], ["6o 7o 12c 11e 10b 8c 4e"])
    c = settle(CLOSER, "6o 7o 12c 11e 10b 8c 4e")
    assert a == b == c


def test_five_opponents_two_decks(settle):
    rng = random.Random(7)
    closer, opps = random_deal(rng, 5, 2)
    r = settle(text(closer), [text(o) for o in opps])
    assert len(r.opponents) == 5 and len(r.points) == 6
    check_settlement(r, text(closer), [text(o) for o in opps])


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "closer, opps, kwargs, exc, words",
    [
        ("5o 5c 5e 1b 2b 3b 10o", ["1o 2o 12c 11e 10b 8b 4e"], {}, CannotCloseError,
         ["deadwood 10", "5o"]),
        (CLOSER, ["1o 2o 12c 11e 10b 8b 3o"], {"decks": 1}, DuplicateCardError,
         ["3o", "the closer", "opponent 1"]),
        (CLOSER, ["1o 1o 12c 11e 10b 8b 4e", "1o 2o 12c 11e 10b 8b 4e"], {},
         InvalidHandError, ["1o", "three times"]),
        (CLOSER, ["1o 1o 1o 11e 10b 8b 4e"], {}, InvalidHandError, ["1o", "opponent 1"]),
        (CLOSER, ["1o 2o 12c 11e 10b 8b"], {}, CardCountError, ["opponent 1", "6"]),
        ("3o 4o 5o 9c 9e 9b", ["1o 2o 12c 11e 10b 8b 4e"], {}, CardCountError, ["closer"]),
        (CLOSER, [], {}, ChinchonError, ["1 to 5"]),
        (CLOSER, ["1o 2o 12c 11e 10b 8b 4e"] * 6, {}, ChinchonError, ["1 to 5"]),
        (CLOSER, ["1o 2o 12c 11e 10b 8b 4x"], {}, ValueError, ["4x", "opponent 1"]),
        (CLOSER, ["1o 2o 12c 11e 10b 8b 4e"], {"decks": 3}, ChinchonError, ["decks"]),
    ],
)
def test_bad_input(settle, closer, opps, kwargs, exc, words):
    with pytest.raises(exc) as info:
        settle(closer, opps, **kwargs)
    assert isinstance(info.value, ValueError)
    for w in words:
        assert w in str(info.value)


def test_close_limit_from_rules(settle):
    with pytest.raises(CannotCloseError):
        settle(CLOSER, ["1o 2o 12c 11e 10b 8b 4e"], rules=Rules(close_limit=0))


def test_decks_inferred_from_players(settle):
    # a copy is fine with 5+ players or when any card is held twice
    settle(CLOSER, ["3o 2o 12c 11e 10b 8b 4e"])
    opps = ["1o 2o 12c 11e 10b 8b 4e"] * 4
    settle(CLOSER, opps[:2])  # copies across opponents -> two decks


# ------------------------------------------------------------------ random deals

N_RANDOM = int(os.environ.get("CHINCHON_SETTLE_DEALS", "600"))


@pytest.mark.parametrize("n_opp, decks", [(2, 1), (3, 1), (4, 2), (5, 2)])
def test_random_deals_verified(settle, n_opp, decks):
    rng = random.Random(1000 * n_opp + decks)
    for _ in range(N_RANDOM // 4 + 1):
        closer, opps = random_deal(rng, n_opp, decks)
        r = settle(text(closer), [text(o) for o in opps], decks=decks)
        check_settlement(r, text(closer), [text(o) for o in opps])


def test_random_deals_lay_off_often():
    rng = random.Random(3)
    with_layoffs = 0
    for _ in range(40):
        closer, opps = random_deal(rng, 3, 1)
        r = reference.settle(text(closer), [text(o) for o in opps])
        with_layoffs += any(o.layoffs for o in r.opponents)
    assert with_layoffs >= 20


N_DIFF = int(os.environ.get("CHINCHON_SETTLE_DIFF", "3000"))


@pytest.mark.skipif(_native_settle() is None, reason="native settle not built")
@pytest.mark.parametrize("n_opp, decks", [(2, 1), (3, 1), (4, 2), (5, 2)])
def test_native_matches_reference(n_opp, decks):
    native = _native_settle()
    rng = random.Random(99 + n_opp)
    for _ in range(N_DIFF // 4):
        closer, opps = random_deal(rng, n_opp, decks)
        args = (Hand(text(closer), decks=decks), [Hand(text(o), decks=decks) for o in opps])
        assert native(*args) == reference.settle(*args)


# ----------------------------------------------------------------------- the CLI


def test_cli_settle_text(capsys):
    from chinchon.cli import main

    rc = main(["settle", "--closer", CLOSER, "--opponent", "6c 7c 8c 6o 10e 11b 12b",
               "--opponent", "5c 4c 7o 1e 2e 10b 12e"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "lays 6o on #0 (closer's run)" in out
    assert "lays 5c on #2 (opponent 1's run)" in out
    assert "#2  run  4c 5c 6c 7c 8c" in out
    assert "opponent 2    25" in out


def test_cli_settle_json(capsys):
    from chinchon.cli import main

    rc = main(["settle", "--closer", "7o 7c 7b 9e 10e 11e 4o", "--opponent",
               "7e 12e 1c 3o 5b 8c 2o", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert d["points"] == [4, 19]
    assert d["opponents"][0]["layoffs"] == [["7e", 0], ["12e", 1]]


def test_cli_settle_error(capsys):
    from chinchon.cli import main

    rc = main(["settle", "--closer", "5o 5c 5e 1b 2b 3b 10o", "--opponent",
               "1o 2o 12c 11e 10b 8b 4e"])
    assert rc == 2
    assert "cannot close" in capsys.readouterr().err


@pytest.mark.parametrize(
    "closer, opps, decks",
    [
        ("5o 5c 5e 1b 2b 3b 10o", ["1o 2o 12c 11e 10b 8b 4e"], None),
        (CLOSER, ["1o 2o 12c 11e 10b 8b 3o"], 1),
        (CLOSER, ["1o 1o 12c 11e 10b 8b 4e", "1o 2o 12c 11e 10b 8b 4e"], None),
        (CLOSER, ["1o 2o 12c 11e 10b 8b"], None),
        ("3o 4o 5o 9c 9e 9b", ["1o 2o 12c 11e 10b 8b 4e"], None),
    ],
)
def test_bad_hands_same_error_as_reference(settle, closer, opps, decks):
    # Hand objects take the native fast path (validated in C): same class and message
    args = (Hand(closer), [Hand(o) for o in opps])
    with pytest.raises(ValueError) as want:
        reference.settle(*args, decks=decks)
    with pytest.raises(ValueError) as got:
        settle(*args, decks=decks)
    assert (type(got.value), str(got.value)) == (type(want.value), str(want.value))


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:

    @settings(max_examples=int(os.environ.get("CHINCHON_SETTLE_HYPOTHESIS", "60")), deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from([(2, 1), (3, 1), (4, 2), (5, 2), (1, 1), (1, 2)]))
    def test_hypothesis_deals_verified(seed, shape):
        n_opp, decks = shape
        closer, opps = random_deal(random.Random(seed), n_opp, decks)
        args = (text(closer), [text(o) for o in opps])
        r = reference.settle(*args, decks=decks)
        check_settlement(r, *args)
        native = _native_settle()
        if native is not None:
            assert native(*args, decks=decks) == r
