"""Jokers as cards (docs/rules.md#the-variant-encoding), hands checked against their rules, bad rows in batches."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from chinchon import (
    CARD_MASK,
    CONGA_RULES,
    FIFTY_RULES,
    HOUSE_RULES,
    JOKER_1,
    JOKER_2,
    JOKER_MASK,
    LANE_MASK,
    BatchRowError,
    Card,
    CardCountError,
    CardParseError,
    ChinchonError,
    DuplicateCardError,
    Hand,
    InvalidHandError,
    Rules,
    full_deck,
    parse_cards,
)
from chinchon.cards import CARD_AT, JOKER_BITS


def test_the_two_jokers():
    assert JOKER_BITS == (12, 28) and JOKER_MASK == (1 << 12) | (1 << 28)
    assert CARD_MASK == LANE_MASK | JOKER_MASK
    for n, joker in ((1, JOKER_1), (2, JOKER_2)):
        assert str(joker) == f"*{n}" and joker.index == JOKER_BITS[n - 1]
        assert joker.is_joker and joker.rank == 0 and joker.suit == "*" and joker.points == 25
        assert Card(f"*{n}") is joker and Card.parse(f"*{n}") is joker
        assert Card.from_index(joker.index) is joker and CARD_AT[joker.index] is joker
        assert joker.mask == 1 << joker.index
        assert eval(repr(joker), {"Card": Card}) is joker
        assert pickle.loads(pickle.dumps(joker)) is joker
        assert copy.deepcopy(joker) is joker
    assert not any(c.is_joker for c in full_deck(2))
    assert Card("12o") < JOKER_1 < Card("1c") < Card("12c") < JOKER_2 < Card("1e")


@pytest.mark.parametrize("text,expected", [
    ("*1", "*1"), ("*2", "*2"), ("joker1", "*1"), ("JOKER2", "*2"), ("Comodin1", "*1"),
    ("comodin2", "*2"), (" *1 ", "*1"),
])
def test_joker_spellings(text, expected):
    assert str(Card.parse(text)) == expected
    assert [str(c) for c in parse_cards(f"7o,{text} 5c")] == ["7o", expected, "5c"]


@pytest.mark.parametrize("bad", ["*", "*0", "*3", "**1", "*1o", "joker", "joker3", "comodin",
                                 "J1", "j2", "1*"])
def test_bad_joker_text_names_the_token(bad):
    with pytest.raises(CardParseError) as e:
        parse_cards(f"7o {bad} 5c")
    assert bad in str(e.value) and e.value.token == bad


def test_jack_aliases_are_untouched():
    assert str(Card.parse("Jo")) == "10o" and str(Card.parse("jb")) == "10b"
    assert [str(c) for c in parse_cards("Jo *1 Kc")] == ["10o", "*1", "12c"]


def test_hands_hold_jokers():
    h = Hand("5o *1 6o *2")
    assert str(h) == "5o 6o *1 *2" and len(h) == 4 and h.decks == 1
    assert h.mask == (1 << 4) | (1 << 5) | (1 << 12) | (1 << 28)
    assert Hand.from_mask(h.mask) == h and Hand(str(h)) == h and eval(repr(h)) == h
    assert JOKER_1 in h and "*2" in h and h.count("*1") == 1
    assert h.points == 5 + 6 + 25 + 25
    h2 = Hand("*1 *1 *2 5o")
    assert h2.decks == 2 and h2.mask == ((1 << 4) | (1 << 12) | (1 << 28), 1 << 12)
    assert h2.remove("*1").count("*1") == 1 and h2.add("*2").count("*2") == 2
    with pytest.raises(InvalidHandError, match=r"\*1"):
        Hand("*1 *1 *1")
    with pytest.raises(DuplicateCardError, match=r"\*1"):
        Hand("*1 *1", decks=1)
    for bits in (13, 15, 29, 31, 44, 47, 60, 63):
        with pytest.raises(InvalidHandError, match="lane"):
            Hand.from_mask(1 << bits)


def test_full_deck_of_rules():
    assert full_deck() == full_deck(rules=HOUSE_RULES)
    conga = full_deck(rules=CONGA_RULES)
    assert len(conga) == 40 and not {c.rank for c in conga} & {8, 9} and Card("1o") in conga
    fifty = full_deck(rules=FIFTY_RULES)
    assert len(fifty) == 50 and fifty.count(JOKER_1) == 1 and fifty.count(JOKER_2) == 1
    assert [c for c in fifty if c.is_joker] == [JOKER_1, JOKER_2]
    assert len(full_deck(2, rules=FIFTY_RULES)) == 100
    assert len(full_deck(2, rules=Rules(deck=40, jokers=1))) == 82
    assert full_deck(rules=FIFTY_RULES) == sorted(full_deck(rules=FIFTY_RULES))
    for bad in ("fifty", 5):  # a clear error, not an AttributeError
        with pytest.raises(ChinchonError, match=f"rules must be a chinchon.Rules or None .*"
                                                f"got {type(bad).__name__}"):
            full_deck(1, rules=bad)


# -------------------------------------------------------- hands against their rules


@pytest.mark.parametrize("fn,hand", [
    ("deadwood", "3c 4c 8o 5e"), ("best_melds", "3c 4c 8o 5e"),
    ("close_outcome", "1c 2c 3c 4c 5c 6c 9b"), ("discard_hints", "1c 2c 3c 4c 5c 6c 7c 8c"),
])
@pytest.mark.parametrize("form", ["text", "iterator", "generator"])
def test_a_card_the_40_card_deck_lacks(impl, fn, hand, form):
    """A one-shot iterable too: the check that names the card reads it again."""
    bad = "8o" if "8o" in hand else "9b" if "9b" in hand else "8c"
    arg = {"text": hand, "iterator": iter(hand.split()),
           "generator": (t for t in hand.split())}[form]
    with pytest.raises(InvalidHandError) as e:
        getattr(impl, fn)(arg, rules=CONGA_RULES)
    assert str(e.value) == f"card {bad} is not in the 40-card deck of these rules (no eights or nines)"
    # the same hand is fine with 48 cards
    getattr(impl, fn)(hand)


@pytest.mark.parametrize("rules,bad", [
    (None, "*1"), (HOUSE_RULES, "*1"), ("barajamos", "*1"), (Rules(close_limit=9), "*1"),
    (CONGA_RULES, "*1"), (Rules(jokers=1), "*2"),
])
@pytest.mark.parametrize("form", ["text", "hand", "iterator"])
def test_a_joker_the_rules_lack(impl, rules, bad, form):
    jokers = rules.jokers if isinstance(rules, Rules) else 0
    hand = "*1 *2 4c 5c" if bad == "*2" else "4c *1 5c"

    def arg():
        return {"text": hand, "hand": Hand(hand), "iterator": iter(hand.split())}[form]
    with pytest.raises(InvalidHandError) as e:
        impl.deadwood(arg(), rules=rules)
    assert str(e.value) == f"card {bad} is not in play under these rules (jokers={jokers})"
    with pytest.raises(InvalidHandError, match=f"card \\{bad} is not in play"):
        impl.best_melds(arg(), rules=rules)


def test_the_count_is_checked_before_the_deck(impl):
    with pytest.raises(CardCountError, match="at most 8"):
        impl.deadwood("1o 2o 3o 4o 5o 6o 7o 8o 9o", rules=CONGA_RULES)
    with pytest.raises(CardCountError, match="expected 7"):
        impl.close_outcome("*1 2o 3o", rules=HOUSE_RULES)
    with pytest.raises(CardParseError, match="'9x'"):
        impl.deadwood("8o 9x", rules=CONGA_RULES)


def test_settle_names_the_hand_and_the_card(impl):
    with pytest.raises(InvalidHandError) as e:
        impl.settle("1c 2c 3c 4c 5c 6c 7c", ["1b 2b 3b 4b 5b 6b 8e"], rules=CONGA_RULES)
    assert str(e.value) == ("opponent 1's hand: card 8e is not in the 40-card deck of these "
                            "rules (no eights or nines)")
    for closer in ("*1 2c 3c 4c 5c 6c 7c", Hand("*1 2c 3c 4c 5c 6c 7c")):
        with pytest.raises(InvalidHandError) as e:
            impl.settle(closer, [Hand("1b 2b 3b 4b 5b 6b 8e")])
        assert str(e.value) == "the closer's hand: card *1 is not in play under these rules (jokers=0)"
    with pytest.raises(CardCountError, match="opponent 1"):  # count before the deck
        impl.settle("1c 2c 3c 4c 5c 6c 7c", ["8b 2b 3b"], rules=CONGA_RULES)


# -------------------------------------------------------- batch rows


def _batch(bad_row, good, decks=1):
    rows = [good] * 4
    rows[2] = bad_row
    return np.array(rows, dtype=np.uint64)


LANE_TEXT = "row 2: bits set outside the card lanes (bits 12-15 of a 16-bit lane)"


@pytest.mark.parametrize("fn", ["deadwood_batch", "hints_batch"])
def test_batch_rows_under_each_rules(impl, fn):
    f = getattr(impl, fn)
    good = Hand("1c 2c 3c 4c 5c 6c 7c 10c").mask
    joker = Hand("1c 2c 3c 4c 5c 6c 7c *1").mask
    # the house rules: bit 12 is a lane bit, with today's message
    for rules in (None, HOUSE_RULES, Rules(close_limit=7), CONGA_RULES):
        with pytest.raises(BatchRowError) as e:
            f(_batch(joker, good), rules=rules)
        assert str(e.value) == LANE_TEXT and e.value.row == 2
    assert f(_batch(joker, good), rules=FIFTY_RULES).shape[0] == 4
    # joker 2 with one joker in play; bits never used by any rules
    with pytest.raises(BatchRowError, match="row 2: bits set outside"):
        f(_batch(good ^ (1 << 9) | (1 << 28), good), rules=Rules(jokers=1))
    for bit in (13, 15, 29, 31, 44, 47, 60, 63):
        with pytest.raises(BatchRowError, match="row 2: bits set outside"):
            f(_batch(good ^ (1 << 9) | (1 << bit), good), rules=FIFTY_RULES)
    # an eight under deck=40: the row and the card
    eight = Hand("1c 2c 3c 4c 5c 6c 7c 8o").mask
    with pytest.raises(BatchRowError) as e:
        f(_batch(eight, good), rules=CONGA_RULES)
    assert str(e.value) == ("row 2: card 8o is not in the 40-card deck of these rules "
                            "(no eights or nines)") and e.value.row == 2
    # double deck: a joker held twice is fine with jokers, a lane bit without
    good2 = Hand("1c 2c 3c 4c 5c 6c *1 *1").mask
    assert f(np.array([good2], dtype=np.uint64), rules=FIFTY_RULES).shape[0] == 1
    with pytest.raises(BatchRowError, match="row 0: bits set outside"):
        f(np.array([good2], dtype=np.uint64))
    nine2 = Hand("1c 2c 3c 4c 5c 6c 9c 9c").mask
    with pytest.raises(BatchRowError, match="row 0: card 9c is not in the 40-card deck"):
        f(np.array([nine2], dtype=np.uint64), rules="conga")


def test_batch_check_order(impl):
    # lane bits before twice-not-subset before not-in-deck before the count
    both = (1 << 13) | (1 << 7)
    with pytest.raises(BatchRowError, match="outside the card lanes"):
        impl.deadwood_batch(np.array([[both, 1 << 20]], dtype=np.uint64), rules=CONGA_RULES)
    with pytest.raises(BatchRowError, match="twice mask"):
        impl.deadwood_batch(np.array([[1 << 7, 1 << 20]], dtype=np.uint64), rules=CONGA_RULES)
    with pytest.raises(BatchRowError, match="8o is not in the 40-card deck"):
        impl.deadwood_batch(np.array([0x1FF]), rules=CONGA_RULES)
    with pytest.raises(BatchRowError, match="too many"):
        impl.deadwood_batch(np.array([0x1FF]), rules=FIFTY_RULES)
