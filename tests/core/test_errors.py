"""Every public entry point rejects bad input with a ValueError subclass naming it."""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import (
    BatchRowError,
    CardCountError,
    CardParseError,
    ChinchonError,
    DuplicateCardError,
    Hand,
    InvalidHandError,
    Rules,
)


@pytest.mark.parametrize("fn", ["deadwood", "best_melds"])
def test_single_hand_errors(impl, fn):
    f = getattr(impl, fn)
    with pytest.raises(CardParseError, match="'9x'"):
        f("7o 9x")
    with pytest.raises(CardCountError, match="at most 8"):
        f("1o 2o 3o 4o 5o 6o 7o 8o 9o")
    with pytest.raises(DuplicateCardError, match="7o"):
        f("7o 7o", decks=1)
    with pytest.raises(InvalidHandError, match="7o"):
        f("7o 7o 7o")
    with pytest.raises(CardParseError):
        f(12345)
    with pytest.raises(InvalidHandError, match="decks"):
        f("7o", decks=3)


def test_hint_errors(impl):
    with pytest.raises(CardCountError, match="expected 8 cards, got 7"):
        impl.discard_hints("1o 2o 3o 4o 5o 6o 7o")
    with pytest.raises(CardCountError):
        impl.discard_hints("1o 2o 3o 4o 5o 6o 7o 8o 9o")
    with pytest.raises(DuplicateCardError):
        impl.discard_hints("1o 1o 3o 4o 5o 6o 7o 8o", decks=1)
    with pytest.raises(CardCountError, match="expected 7 cards"):
        impl.close_outcome("1o 2o 3o")


def test_rules_validation():
    with pytest.raises(ChinchonError):
        Rules(close_limit=-1)
    with pytest.raises(ChinchonError):
        Rules(close_limit=1.5)  # type: ignore[arg-type]
    with pytest.raises(ChinchonError):
        Rules(rejoin_chips=-1)
    with pytest.raises(ChinchonError):
        Rules(reconnect_seconds=-5)


def _bad_row_batch(decks, row_value, good):
    rows = [good] * 5
    rows[3] = row_value
    return np.array(rows, dtype=np.uint64)


@pytest.mark.parametrize("fn", ["deadwood_batch", "hints_batch"])
def test_batch_bad_rows_name_the_row(impl, fn):
    f = getattr(impl, fn)
    good1 = Hand("1o 2o 3o 4o 5o 6o 7o 8o").mask
    good2 = Hand("1o 1o 3o 4o 5o 6o 7o 8o").mask
    cases = [
        (_bad_row_batch(1, 1 << 12, good1), "lanes"),
        (_bad_row_batch(2, (1, 2), good2), "twice"),
        (_bad_row_batch(2, (1 << 15, 0), good2), "lanes"),
        (_bad_row_batch(1, 0x1FF, good1), "cards"),  # 9 cards
    ]
    if fn == "hints_batch":
        cases.append((_bad_row_batch(1, 0x7F, good1), "wrong number of cards"))
    for arr, words in cases:
        with pytest.raises(BatchRowError, match=words) as e:
            f(arr)
        assert e.value.row == 3
        assert "row 3" in str(e.value)


@pytest.mark.parametrize("fn", ["deadwood_batch", "hints_batch"])
def test_batch_shape_and_dtype(impl, fn):
    f = getattr(impl, fn)
    with pytest.raises(BatchRowError, match="shape"):
        f(np.zeros((3, 3), dtype=np.uint64))
    with pytest.raises(BatchRowError, match="integer"):
        f(np.zeros(3, dtype=np.float64))
    with pytest.raises(BatchRowError, match="row 1: negative"):
        f(np.array([7, -1], dtype=np.int64))
    with pytest.raises(ChinchonError, match="threads"):
        f(np.zeros(0, dtype=np.uint64), threads=0)


@pytest.mark.parametrize("fn", ["deadwood_batch", "hints_batch"])
def test_a_listed_batch_names_the_row_numpy_could_not_make_an_int(impl, fn):
    """One int past 2**63 makes numpy read a whole list as floats (past 2**64, as
    objects): the value is checked as given and its row named, as a -1 is."""
    f = getattr(impl, fn)
    good = Hand("1o 2o 3o 4o 5o 6o 7o 8o").mask
    cases = [
        ([good, good, 1 << 63], "outside the card lanes"),  # a number, but no card
        ([good, good, (1 << 64) - 1], "outside the card lanes"),
        ([good, good, 1 << 64], r"row 2: mask of 65 bits \(a mask has 64\)"),
        ([good, good, 1 << 10**5], r"row 2: mask of 100001 bits \(a mask has 64\)$"),
        ([good, good, 1.5, 1 << 64], "row 2: a mask is an int, got 1.5"),
        ([good, good, -(1 << 64)], "row 2: negative"),
        ([good, good, True, 1 << 64], "row 2: a mask is an int, got True"),
        ([(good, 0), (good, 0), (1 << 64, 0)], "row 2: mask of 65 bits"),
    ]
    for masks, words in cases:
        with pytest.raises(BatchRowError, match=words) as e:
            f(masks)
        assert e.value.row == 2, masks
    assert np.array_equal(f([good, good]), f(np.array([good, good], dtype=np.uint64)))
    assert f(np.zeros(0, dtype=np.uint64)).shape[0] == 0


def test_errors_are_value_errors():
    for cls in (BatchRowError, CardCountError, CardParseError, DuplicateCardError,
                InvalidHandError):
        assert issubclass(cls, ChinchonError) and issubclass(cls, ValueError)


def test_odd_inputs(impl):
    with pytest.raises(CardParseError, match="str"):
        impl.deadwood(b"7o 7c 7b")
    with pytest.raises(InvalidHandError, match="decks"):
        impl.discard_hints("1o 2o 3o 4o 5o 6o 7o 8o", decks=True)
    with pytest.raises(BatchRowError, match="shape"):
        impl.deadwood_batch([[1, 2], [3]])
    # generators, tuples and mixed lists of cards and text are all hands
    assert impl.deadwood(c for c in ["7o", "7c", "7b"]) == 0
    assert impl.deadwood(("7o", "7c", "7b", "1b")) == 1
    from chinchon import Card
    assert impl.deadwood([Card(7, "o"), "7c", "7b"]) == 0


def test_negative_minus_ten_is_refused():
    with pytest.raises(ValueError, match="minus_ten"):
        Rules(minus_ten=-3)
