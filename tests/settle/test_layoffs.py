"""Lay-offs (docs/rules.md#laying-off, docs/rules.md#which-plan-is-reported): one hand-built deal per rule -- chains, both ends
of a run, earlier opponents' melds, copies with two decks, own melds against lay-offs,
runs that stop at the ace and the king. Every deal goes through the oracle
(tests/oracles/settlement.py) on each implementation."""

from __future__ import annotations

from tests.oracles.settlement import verify

# closer: the run 3o 4o 5o (table meld 0), the set of nines (meld 1), 1b unmatched
CLOSER = "3o 4o 5o 9c 9e 9b 1b"


def layoffs(result, k):
    return [(str(c), t) for c, t in result.opponents[k].layoffs]


def melds(result_side):
    return [str(m) for m in result_side.melds]


# ------------------------------------------------------------------- chains


def test_chain_of_two_on_one_end(impl):
    r = verify(impl.settle, CLOSER, ["6o 7o 12c 11e 10b 8c 4e"])
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
    assert r.opponents[0].points == 12 + 11 + 10 + 8 + 4


def test_chain_below_is_applied_outward(impl):
    r = verify(impl.settle, CLOSER, ["2o 1o 12c 11e 10b 8c 4e"])
    assert layoffs(r, 0) == [("2o", 0), ("1o", 0)]


def test_both_ends_of_one_run(impl):
    r = verify(impl.settle, CLOSER, ["2o 6o 7o 12c 11e 10b 8c"])
    assert layoffs(r, 0) == [("2o", 0), ("6o", 0), ("7o", 0)]
    assert [str(c) for c in r.table[0].cards] == ["2o", "3o", "4o", "5o", "6o", "7o"]


def test_chains_at_both_ends(impl):
    # the aces are meld 0, the run 5e-7e meld 1: below outward, then above outward
    r = verify(impl.settle, "5e 6e 7e 1o 1c 1b 2o", ["3e 4e 8e 9e 12c 11o 10b"])
    assert layoffs(r, 0) == [("4e", 1), ("3e", 1), ("8e", 1), ("9e", 1)]
    assert r.opponents[0].points == 33
    # with 10e too, 8e 9e 10e is an own run: same points, more own-melded cards
    r = verify(impl.settle, "5e 6e 7e 1o 1c 1b 2o", ["3e 4e 8e 9e 10e 12c 11o"])
    assert melds(r.opponents[0]) == ["8e 9e 10e"]
    assert layoffs(r, 0) == [("4e", 1), ("3e", 1)]


def test_runs_stop_at_ace_and_king(impl):
    # no wrap: 12o does not go below 1o 2o 3o, 1c does not go above 10c 11c 12c
    r = verify(impl.settle, "1o 2o 3o 10c 11c 12c 1e", ["12o 1c 4o 9c 8c 5e 6b"])
    assert layoffs(r, 0) == [("4o", 0), ("9c", 1), ("8c", 1)]
    assert r.opponents[0].points == 12 + 1 + 5 + 6


# ------------------------------------------------------- earlier opponents' melds


def test_lay_on_an_earlier_opponents_meld(impl):
    r = verify(impl.settle, CLOSER, ["6c 7c 8c 6o 10e 11b 12b", "5c 4c 7o 1e 2e 10b 12e"])
    assert melds(r.opponents[0]) == ["6c 7c 8c"]
    assert layoffs(r, 0) == [("6o", 0)]
    # the 7o follows the 6o the first opponent laid; 5c 4c chain below their run
    assert layoffs(r, 1) == [("7o", 0), ("5c", 2), ("4c", 2)]
    assert [str(c) for c in r.table[2].cards] == ["4c", "5c", "6c", "7c", "8c"]
    assert r.table[2].owner == 1


def test_lay_on_earlier_opponent_run_not_only_set(impl):
    # the 9o could go on the set of nines (meld 1) or below 10o 11o 12o (meld 2):
    # alone, equal points, so the smaller (card, meld) pair -- the set -- by
    # rule 5 of docs/rules.md#laying-off; with the 8o behind it the run is the only right place
    r = verify(impl.settle, CLOSER, ["10o 11o 12o 2e 4e 6e 8b", "9o 8o 1c 2c 4b 6b 8e"])
    assert layoffs(r, 1) == [("9o", 2), ("8o", 2)]
    r = verify(impl.settle, CLOSER, ["10o 11o 12o 2e 4e 6e 8b", "9o 7c 1c 2c 4b 6b 8e"])
    assert layoffs(r, 1) == [("9o", 1)]


def test_layoffs_onto_earlier_opponents_melds(impl):
    verify(impl.settle, "7o 7c 7b 9e 10e 11e 4o",
           ["1c 2c 3c 12o 12c 12b 5e", "4c 5c 12e 8e 8c 2e 1e", "6c 7c 8b 9b 10b 11b 3e"])


# ------------------------------------------------------------ copies, two decks


def test_two_runs_of_one_suit_with_two_decks(impl):
    # table: 5o 6o 7o (closer, meld 0) and 9o 10o 11o (opponent 1, meld 2).
    # The 8o fits both; the copy held with it decides: a second 7o needs the 8o
    # below the nine (then 7o follows it), a second 9o needs it above the seven.
    closer = "5o 6o 7o 1c 1e 1b 2c"
    first = "9o 10o 11o 3e 5e 7e 9e"
    for decks in (None, 2):  # two decks inferred from the copies, or given
        r = verify(impl.settle, closer, [first, "8o 7o 12c 12e 10b 11b 4c"], decks=decks)
        assert layoffs(r, 1) == [("8o", 2), ("7o", 2)]
        r = verify(impl.settle, closer, [first, "8o 9o 12c 12e 10b 11b 4c"], decks=decks)
        assert layoffs(r, 1) == [("8o", 0), ("9o", 0)]
        r = verify(impl.settle, closer, [first, "8o 8o 12c 12e 10b 11b 4c"], decks=decks)
        assert layoffs(r, 1) == [("8o", 0), ("8o", 2)]
        for second in ("8o 8o 7o 9o 12e 10b 11b", "4o 8o 12o 10o 12e 12c 12b"):
            verify(impl.settle, closer, [first, second], decks=decks)


def test_a_set_receives_a_copy(impl):
    closer = "5o 5c 5e 1b 2b 3b 1o"
    r = verify(impl.settle, closer, ["5o 5e 5b 12c 12e 11b 10o"])
    # the three fives make a set of the opponent's own (more own-melded cards wins
    # the tie with laying them off) ...
    assert melds(r.opponents[0]) == ["5o 5e 5b"]
    r = verify(impl.settle, closer, ["5o 5e 12c 12e 11b 10o 9c"])
    # ... two of them are laid off, copies included
    assert layoffs(r, 0) == [("5o", 0), ("5e", 0)]
    assert r.opponents[0].points == 12 + 12 + 11 + 10 + 9


def test_two_copies_one_to_a_set_one_to_a_run(impl):
    # 6o twice: one on the sixes, one on 3o 4o 5o (which then carries 7o)
    r = verify(impl.settle, "3o 4o 5o 6c 6e 6b 1b", ["6o 6o 7o 12c 11e 10b 9c"], decks=2)
    assert sorted(layoffs(r, 0)) == [("6o", 0), ("6o", 1), ("7o", 0)]


# ------------------------------------------------------- own melds or lay-offs


def test_broken_four_of_a_kind(impl):
    r = verify(impl.settle, CLOSER, ["6o 6c 6e 6b 7o 12c 11e"])
    assert melds(r.opponents[0]) == ["6c 6e 6b"]
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
    assert r.opponents[0].points == 23


def test_break_four_of_a_kind_to_carry_a_card(impl):
    # the table has 2b 3b 4b; 5b lays off and carries 6b, the other fives stay a set
    r = verify(impl.settle, "2b 3b 4b 9o 9c 9e 1o", ["5o 5c 5e 5b 6b 12c 11o"])
    assert melds(r.opponents[0]) == ["5o 5c 5e"]
    # table meld 0 is the nines (key (8, 24, 40) < (49, 50, 51)), meld 1 the run
    assert layoffs(r, 0) == [("5b", 1), ("6b", 1)]


def test_own_meld_wins_a_tie_with_laying_off(impl):
    # 6o 7o 8o could all be laid off on 3o 4o 5o: same points; own melds first
    r = verify(impl.settle, CLOSER, ["6o 7o 8o 12c 11e 10b 8c"])
    assert melds(r.opponents[0]) == ["6o 7o 8o"]
    assert layoffs(r, 0) == []


def test_own_meld_could_be_laid_off_entirely(impl):
    # 6o-9o could all go on 3o 4o 5o, or 9o on the nines: same points; the own run of
    # four wins (more own-melded cards)
    r = verify(impl.settle, "3o 4o 5o 9c 9e 9b 1c", ["6o 7o 8o 9o 12c 11e 10b"])
    assert r.opponents[0].points == 33
    assert melds(r.opponents[0]) == ["6o 7o 8o 9o"]
    assert r.opponents[0].layoffs == ()


def test_laying_off_beats_an_own_meld(impl):
    # own run 6o 7o 8o leaves the 9o, 10o; laying all five off leaves nothing of them
    r = verify(impl.settle, CLOSER, ["6o 7o 8o 9o 10o 12c 11e"])
    assert r.opponents[0].points == 23


def test_set_and_run_both_open_to_a_six(impl):
    closer = "3o 4o 5o 6c 6e 6b 1b"
    r = verify(impl.settle, closer, ["6o 12c 11e 10b 8c 4e 2e"])
    assert layoffs(r, 0) == [("6o", 0)]  # (5, 0) < (5, 1): the run is meld 0
    r = verify(impl.settle, closer, ["6o 7o 12c 11e 10b 8c 4e"])
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]


def test_set_and_run_both_open_with_a_chain(impl):
    # 6o fits the sixes (meld 1) and the run 3o-5o (meld 0); only the run carries 7o 8o
    r = verify(impl.settle, "3o 4o 5o 6c 6e 6b 1b", ["6o 7o 8o 12c 11e 10b 9c"])
    # own run 6o 7o 8o ties on points and wins by own-melded cards
    assert melds(r.opponents[0]) == ["6o 7o 8o"]
    r = verify(impl.settle, "3o 4o 5o 6c 6e 6b 1b", ["6o 7o 12c 11e 10b 9c 8c"])
    assert layoffs(r, 0) == [("6o", 0), ("7o", 0)]
