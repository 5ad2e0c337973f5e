"""The outlook (docs/rules.md#the-outlook-one-draw-ahead): exact expectations on hand-built hands,
the unseen cards' checks, properties, and every implementation against the definition."""

from __future__ import annotations

import pytest

from chinchon import (
    CLASSIC_RULES,
    CardCountError,
    CardParseError,
    ChinchonError,
    DuplicateCardError,
    Hand,
    InvalidHandError,
    Rules,
    full_deck,
    reference,
)
from chinchon.cards import Card
from chinchon.results import prospect_of

from tests.oracles.impls import IMPLEMENTATIONS

#: the implementations that have the outlook
OUTLOOK_IMPLS = IMPLEMENTATIONS


@pytest.fixture(params=OUTLOOK_IMPLS, ids=lambda m: m.IMPLEMENTATION)
def oimpl(request):
    return request.param


def _line(lines, card):
    (line,) = [x for x in lines if str(x.card) == card]
    return line


def _unseen_default(hand8, decks=1, rules=None):
    held = list(Hand(hand8, decks=decks))
    pool = full_deck(decks, rules=rules)
    for c in held:
        pool.remove(c)
    return pool


def test_one_out_against_four_outs(oimpl):
    # discarding 11c keeps 1o 2o 3o / 4c 4e 4b / 12o: only the 4o melds the 12o away
    one = oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c")
    line = _line(one, "11c")
    assert (line.points, line.can_close, line.draws) == (12, False, 40)
    assert line.p_minus_ten == 1 / 40
    unseen = _unseen_default("1o 2o 3o 4c 4e 4b 12o 11c")
    # a drawn card that melds nothing replaces the 12o when it is worth less
    want = sum(0 if str(c) == "4o" else min(12, c.rank) for c in unseen)
    assert line.expected_points == want / 40
    closes = sum(1 for c in unseen if str(c) == "4o" or c.rank <= 5)
    assert line.p_close == closes / 40
    assert line.p_chinchon == 0 and line.p_joker_chinchon == 0
    # discarding 12e keeps two runs open at both ends and the 1b: four outs
    four = oimpl.outlook("4o 5o 6o 4c 5c 6c 1b 12e")
    line = _line(four, "12e")
    assert (line.points, line.outcome) == (1, "normal")
    assert line.p_minus_ten == 4 / 40
    assert line.expected_points == 36 / 40
    assert line.p_close == 1.0
    # the same hand's other discards are worse by every measure
    assert all(x.expected_points >= line.expected_points for x in four)


def test_a_draw_completing_chinchon(oimpl):
    hand = "1o 2o 3o 4o 5o 6o 12b 11c"
    line = _line(oimpl.outlook(hand), "11c")
    assert line.p_chinchon == 1 / 40 and line.p_joker_chinchon == 0
    assert line.p_minus_ten == 0
    unseen = _unseen_default(hand)
    assert line.p_close == sum(1 for c in unseen if c.rank <= 5 or str(c) == "7o") / 40
    # where a seven-card run is no chinchón it is a minus ten close
    line = _line(oimpl.outlook(hand, rules=CLASSIC_RULES), "11c")
    assert (line.p_chinchon, line.p_minus_ten) == (0, 1 / 40)


def test_explicit_unseen_and_draw_outlook(oimpl):
    hand7 = "4o 5o 6o 4c 5c 6c 1b"
    d = oimpl.draw_outlook(hand7, "7o", "3o 12e 11b 10b")
    assert str(d.top) == "7o"
    assert d.take == (0.0, 1.0, 1.0, 0.0, 0.0, 1)
    assert d.stock.draws == 4
    assert d.stock.expected_points == 3 / 4 and d.stock.p_minus_ten == 1 / 4
    # the outlook of an 8-card hand is the stock prospect of each 7 kept
    lines = oimpl.outlook(hand7 + " 12o", "3o 12e 11b 10b")
    assert _line(lines, "12o")[4:] == tuple(d.stock)
    # a copy listed twice in unseen is two chances (two decks)
    d2 = oimpl.draw_outlook(hand7, "7o", "3o 3o 12e 11b")
    assert d2.stock.draws == 4 and d2.stock.p_minus_ten == 2 / 4


def test_a_one_shot_iterable_is_read_once(oimpl):
    """A generator or an iterator of cards is a hand like the list of its cards: the
    outlook reads it once, however many times it looks at it."""
    hand8, unseen = "1o 2o 3o 4o 5o 6c 7c 12c".split(), "1c 2c 7b".split()
    for u in (None, unseen):
        want = oimpl.outlook(hand8, u)
        assert len(want) == 8
        assert oimpl.outlook(iter(hand8), None if u is None else iter(u)) == want
        assert oimpl.outlook((c for c in hand8), None if u is None else (c for c in u)) == want
        want = oimpl.draw_outlook(hand8[:7], "12c", u)
        assert oimpl.draw_outlook(iter(hand8[:7]), iter(["12c"]),
                                  None if u is None else iter(u)) == want


def test_unseen_checks(oimpl):
    hand = "1o 2o 3o 4c 4e 4b 12o 11c"
    with pytest.raises(DuplicateCardError, match="card 4c is both held and unseen"):
        oimpl.outlook(hand, "5o 4c")
    with pytest.raises(InvalidHandError, match="card 8o is not in the 40-card deck"):
        oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c", "5o 8o", rules="conga")
    with pytest.raises(InvalidHandError, match=r"card \*1 is not in play"):
        oimpl.outlook(hand, "5o *1")
    with pytest.raises(ChinchonError, match="unseen holds no card"):
        oimpl.outlook(hand, "")
    with pytest.raises(DuplicateCardError, match="card 7o is both held or the top and unseen"):
        oimpl.draw_outlook("1o 2o 3o 4c 4e 4b 12o", "7o", "7o 5c")
    with pytest.raises(InvalidHandError, match="a third copy"):
        oimpl.draw_outlook("1o 1o 3o 4c 4e 4b 12o", "1o", "7o 5c", decks=2)
    with pytest.raises(InvalidHandError, match="card 1o is both held and unseen: 3 copies"):
        oimpl.outlook("1o 1o 3o 4c 4e 4b 12o 11c", "1o 5c")
    with pytest.raises(ChinchonError):
        oimpl.outlook("1o 2o 3o", None)
    # draw_outlook's top is required: None was an AttributeError (native) or a bare
    # AssertionError (the reference)
    with pytest.raises(CardCountError, match="top must be one card, got None"):
        oimpl.draw_outlook("4o 5o 6o 4c 5c 6c 1b", None)
    # every text read before a card the rules' deck lacks, the top's included
    with pytest.raises(CardParseError, match="'zz'"):
        oimpl.draw_outlook("4o 5o 6o 4c 5c 6c 1b", "8o", "zz", rules="conga")
    with pytest.raises(InvalidHandError, match="top: card 8o is not in the 40-card deck"):
        oimpl.draw_outlook("4o 5o 6o 4c 5c 6c 1b", "8o", "2b", rules="conga")


def test_default_unseen_two_decks(oimpl):
    hand = Hand("1o 1o 3o 4c 4e 4b 12o 11c")
    lines = oimpl.outlook(hand)
    assert all(x.draws == 96 - 8 for x in lines)
    assert [x.card for x in lines] == list(hand)
    assert lines[0] == lines[1]  # the two copies of 1o


@pytest.mark.parametrize("preset", ["barajamos", "classic", "conga", "fifty"])
def test_properties(oimpl, preset):
    import random

    rules = Rules.preset(preset)
    rng = random.Random(11)
    deck = full_deck(1, rules=rules)
    for _ in range(3 if oimpl is reference else 40):
        cards = rng.sample(deck, 8)
        lines = oimpl.outlook(cards, rules=rules)
        hints = reference.discard_hints(cards, rules=rules)
        for line, hint in zip(lines, hints):
            assert (line.card, line.points, line.can_close, line.outcome) == tuple(hint)
            for p in (line.p_close, line.p_minus_ten, line.p_chinchon, line.p_joker_chinchon):
                assert 0.0 <= p <= 1.0
            assert line.p_joker_chinchon <= line.p_chinchon
            assert line.p_minus_ten + line.p_chinchon <= line.p_close + 1e-12
            # the drawn card may be thrown back: never worse than now
            assert line.expected_points <= line.points
            assert line.expected_points >= 0
            if line.can_close:
                assert line.p_close == 1.0
        # never below the best any single draw allows
        pos = rng.randrange(8)
        rest = [c for c in deck if c not in cards]
        best = min(oimpl.outlook(cards, [x], rules=rules)[pos].expected_points for x in rest)
        assert lines[pos].expected_points >= best


def test_to_dict(oimpl):
    import json

    line = oimpl.outlook("1o 2o 3o 4c 4e 4b 12o 11c")[0]
    d = json.loads(json.dumps(line.to_dict()))
    assert d["card"] == "1o" and d["points"] == line.points
    assert d["expected_points"] == line.expected_points
    dd = oimpl.draw_outlook("1o 2o 3o 4c 4e 4b 12o", "4o").to_dict()
    assert json.loads(json.dumps(dd))["take"]["p_minus_ten"] == 1.0
    assert isinstance(line.card, Card)


def test_an_outlook_line_is_a_hint_then_a_prospect():
    """``Outlook`` spells out the fields of ``Hint`` and ``Prospect`` again (a NamedTuple
    cannot take another's fields, and type checkers read only the spelled-out form);
    ``Outlook.prospect`` is its tail, so the three stay in step here."""
    from chinchon import Hint, Outlook, Prospect

    assert Outlook._fields == Hint._fields + Prospect._fields


# ---------------------------------------------------------------- differential

from collections import Counter  # noqa: E402
import random  # noqa: E402

import numpy as np  # noqa: E402

from chinchon.cards import mask_to_cards  # noqa: E402
from chinchon.reference.outlook import BETTER_CLOSE  # noqa: E402
from chinchon.results import OUTCOMES  # noqa: E402

from tests.oracles.impls import scaled  # noqa: E402
from tests.oracles.variant_deals import pool_of, random_hand  # noqa: E402

PRESETS = ["barajamos", "classic", "conga", "fifty"]
_CODE = {name: code for code, name in enumerate(OUTCOMES)}


def _deal(rng, rules, decks):
    """A random 8-card hand (meld-rich, jokers often) and its unseen multiset: the rest
    of the deck(s), or a random part of it."""
    hand = random_hand(rng, rules, decks, 8)
    rest = pool_of(rules, decks)
    rest.subtract(hand)
    unseen = sorted(rest.elements())
    if rng.random() < 0.5:
        unseen = rng.sample(unseen, rng.randint(1, len(unseen)))
    return hand, Counter(unseen)


def _masks(cards):
    once = twice = 0
    for i in cards:
        if once >> i & 1:
            twice |= 1 << i
        else:
            once |= 1 << i
    return once, twice


def _by_definition(native, hands, unseens, rules, decks):
    """The outlook rows of the definition (docs/rules.md#which-arrangement-is-reported), from the native hints of every
    8 cards after every discard and draw: the fewest points, then the better close (the
    closes from discard_hints where the fewest points is 0)."""
    rows8, groups = [], []
    for hand, unseen in zip(hands, unseens):
        hand = sorted(hand)
        for k in range(8):
            kept = hand[:k] + hand[k + 1:]
            for x, copies in sorted(unseen.items()):
                rows8.append(_masks(kept + [x]))
                groups.append(copies)
    arr = np.array(rows8, dtype=np.uint64)
    pts = native.hints_batch(arr if decks == 2 else arr[:, 0], rules=rules)
    best = pts.min(axis=1)
    out = np.zeros((len(hands), 8, 6))
    g = 0
    for row, (hand, unseen) in enumerate(zip(hands, unseens)):
        hand = sorted(hand)
        for k in range(8):
            kept = hand[:k] + hand[k + 1:]
            draws = total = 0
            counts = [0] * 5
            for x, copies in sorted(unseen.items()):
                b = int(best[g])
                if b > rules.close_limit:
                    code = 0
                elif b > 0:
                    code = 1
                else:
                    eight = list(mask_to_cards(*rows8[g]))
                    code = max((_CODE[h.outcome] for h in
                                native.discard_hints(eight, decks=decks, rules=rules)
                                if h.points == 0), key=lambda c: BETTER_CLOSE[c])
                draws += copies
                total += copies * b
                counts[code] += copies
                g += 1
            p = prospect_of(draws, total, counts)
            points = native.deadwood(list(mask_to_cards(*_masks(kept))), decks=decks,
                                     rules=rules)
            out[row, k] = (points, *p[:5])
    return out


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("preset", PRESETS)
def test_native_against_the_definition(native, preset, decks):
    rules = Rules.preset(preset)
    rng = random.Random(f"outlook-{preset}-{decks}")
    n = scaled(2000 if decks == 1 else 500)
    hands, unseens = zip(*(_deal(rng, rules, decks) for _ in range(n)))
    masks = np.array([_masks(h) for h in hands], dtype=np.uint64)
    umasks = np.array([_masks(u.elements()) for u in unseens], dtype=np.uint64)
    if decks == 1:
        masks, umasks = masks[:, 0], umasks[:, 0]
    got = native.outlook_batch(masks, umasks, rules=rules, threads=2)
    want = _by_definition(native, hands, unseens, rules, decks)
    bad = np.argwhere(~(got == want).all(axis=(1, 2)))
    assert bad.size == 0, (bad[:5].ravel(), [sorted(hands[i]) for i in bad[:3].ravel()])
    # the single-hand call gives the batch's numbers
    for i in range(min(n, scaled(200))):
        hand = Hand.from_mask(tuple(int(v) for v in masks[i]) if decks == 2 else int(masks[i]),
                              decks=decks)
        unseen = Hand.from_mask(tuple(int(v) for v in umasks[i]) if decks == 2
                                else int(umasks[i]), decks=decks)
        lines = native.outlook(hand, unseen, rules=rules)
        assert [(x.points, *x[4:9]) for x in lines] == [tuple(r) for r in got[i].tolist()]


@pytest.mark.parametrize("preset", PRESETS)
def test_native_against_the_reference(native, preset):
    rules = Rules.preset(preset)
    rng = random.Random(f"outlook-ref-{preset}")
    for decks in (1, 2):
        for _ in range(scaled(12)):
            hand, unseen = _deal(rng, rules, decks)
            if rng.random() < 0.7:  # the reference is slow: mostly a few unseen cards
                unseen = Counter(rng.sample(sorted(unseen.elements()),
                                            min(6, sum(unseen.values()))))
            cards = [mask_to_cards(1 << i)[0] for i in hand]
            rng.shuffle(cards)
            u = [mask_to_cards(1 << i)[0] for i in unseen.elements()]
            args = dict(decks=decks, rules=rules)
            assert native.outlook(cards, u, **args) == reference.outlook(cards, u, **args)
            top = u[0]
            u7 = u[1:] or None
            assert (native.draw_outlook(cards[:7], top, u7, **args)
                    == reference.draw_outlook(cards[:7], top, u7, **args))
            m = np.array([_masks(hand)], dtype=np.uint64)
            um = np.array([_masks(unseen.elements())], dtype=np.uint64)
            if decks == 1:
                m, um = m[:, 0], um[:, 0]
            assert np.array_equal(native.outlook_batch(m, um, rules=rules),
                                  reference.outlook_batch(m, um, rules=rules))


def test_batch_errors(impl):
    from chinchon import BatchRowError

    good = Hand("1o 2o 3o 4c 4e 4b 12o 11c").mask
    with pytest.raises(BatchRowError, match="row 1: unseen cards: a card held twice"):
        impl.outlook_batch([good, good], [Hand("5o").mask, Hand("4c").mask])
    with pytest.raises(BatchRowError, match="row 0: no unseen card"):
        impl.outlook_batch([good], [0])
    with pytest.raises(BatchRowError, match="shape") as whole:
        impl.outlook_batch([good, good], [Hand("5o").mask])
    assert whole.value.row == -1  # the arrays, no row of them
    # an eight in the unseen cards is said to be there, not in the hand
    with pytest.raises(BatchRowError, match="row 0: unseen cards: card 8e is not in the "
                                            "40-card deck"):
        impl.outlook_batch([good], [Hand("8e").mask], rules="conga")
    with pytest.raises(BatchRowError, match="row 0: card 8e is not in the 40-card deck"):
        impl.outlook_batch([Hand("1o 2o 3o 4c 4e 4b 12o 8e").mask], [Hand("5o").mask],
                           rules="conga")
    assert impl.outlook_batch(np.zeros(0, np.uint64), np.zeros(0, np.uint64)).shape == (0, 8, 6)
