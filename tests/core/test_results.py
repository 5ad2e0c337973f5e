"""The result values behave the same whoever built them: the reference through
``__init__``, the native binding by filling their slots directly (and sharing melds and
card tuples, which are immutable). Equality, hash, repr, ``to_dict``, pickling, copying,
``dataclasses.replace``, weak references and immutability."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import weakref

import pytest

from chinchon import PRESETS, Hand, reference
from chinchon.cards import CARD_AT
from chinchon.results import (Arrangement, CloserResult, Meld, OpponentResult, Settlement,
                              TableMeld)
from tests.oracles.impls import SCALE

DEALS = [
    # rules, decks, closer, opponents: a house deal with lay-offs, one with jokers in play
    (None, 1, "7o 7c 7b 9e 10e 11e 4o",
     ["7e 12e 1c 3o 5b 8c 2o", "8e 6e 5e 6o 5o 4b 3b", "12c 11c 10c 9c 1o 2b 12o"]),
    ("fifty", 2, "3o *1 5o 9c 9e 9b 1b",
     ["6o 7o 2o 12c 11e 10b *2", "6c 6e 6b 12o *1 11c 2e", "10c 11c 12c 8o 1e 3e 4e",
      "9o 5c 5e 5b 7e 8e 2b", "*2 4c 2e 11b 3b 8b 12e"]),
    ("conga", 1, "5c 6c 7c 3e 3b 3o 1b", ["1o 11c 12e 4b 2e 6e 2o"]),
]


def _settle(impl, deal):
    name, decks, closer, opps = deal
    rules = None if name is None else PRESETS[name]
    return impl.settle(Hand(closer, decks=decks), [Hand(o, decks=decks) for o in opps],
                       rules=rules)


def _objects(s: Settlement):
    """Every result object of a settlement."""
    yield s
    yield s.closer
    yield from s.closer.melds
    for o in s.opponents:
        yield o
        yield from o.melds
    yield from s.table


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: d[0] or "house")
def test_settlement_values_are_the_same_from_both_implementations(impl, deal):
    s, ref = _settle(impl, deal), _settle(reference, deal)
    assert s == ref and hash(s) == hash(ref) and repr(s) == repr(ref)
    assert s.to_dict() == ref.to_dict() and Settlement.from_dict(s.to_dict()) == s
    assert type(s.closer) is CloserResult
    for mine, theirs in zip(_objects(s), _objects(ref)):
        assert type(mine) is type(theirs)
        for f in dataclasses.fields(mine):
            assert getattr(mine, f.name) == getattr(theirs, f.name)
            assert type(getattr(mine, f.name)) is type(getattr(theirs, f.name))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_results_pickle_and_copy(impl, protocol):
    s = _settle(impl, DEALS[1])
    back = pickle.loads(pickle.dumps(s, protocol=protocol))
    assert back == s and repr(back) == repr(s) and hash(back) == hash(s)
    assert copy.copy(s) == s and copy.deepcopy(s) == s
    a = impl.best_melds("1o 2o 3o 5c 5e 5b 9e")
    assert pickle.loads(pickle.dumps(a, protocol=protocol)) == a


def test_a_pickle_of_the_dict_state_still_loads():
    # what a pickle of the results held before their fields were slots: the instance
    # dict, without the joker fields a meld built without a joker did not set
    cards = tuple(CARD_AT[i] for i in (0, 1, 2))
    m = Meld.__new__(Meld)
    m.__setstate__({"kind": "run", "cards": cards})
    assert m == Meld("run", cards) and m.joker is None and m.joker_rank is None


def test_results_are_frozen_and_weakly_referable(impl):
    s = _settle(impl, DEALS[1])
    for obj in _objects(s):
        weakref.ref(obj)
        name = dataclasses.fields(obj)[0].name
        for attr in (name, "not_a_field"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(obj, attr, None)
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(obj, attr)
        assert dataclasses.replace(obj) == obj
    meld = s.closer.melds[0]
    assert dataclasses.replace(meld, kind="set") != meld
    assert dataclasses.asdict(s)["points"] == s.points


def test_constructors_and_defaults_unchanged():
    cards = tuple(CARD_AT[i] for i in (0, 1, 2))
    m = Meld("run", cards)
    assert (m.joker, m.joker_rank) == (None, None)
    assert repr(m) == "Meld(kind='run', cards=(Card('1o'), Card('2o'), Card('3o')))"
    t = TableMeld("run", cards, 0, True)
    assert repr(t) == ("TableMeld(kind='run', cards=(Card('1o'), Card('2o'), Card('3o')), "
                       "owner=0, open=True)")
    a = Arrangement((m,), (), 0)
    assert CloserResult((m,), (), 0) != a  # a different class, as dataclasses compare
    assert OpponentResult((m,), (), (), 0).to_dict()["melds"] == [m.to_dict()]


def test_shared_melds_stay_right_across_many_deals(native):
    # the binding shares Meld objects between calls (a table keyed by the C meld):
    # thousands of different deals, which replace each other's entries, must each
    # still match the reference; the same deal again gives an equal settlement
    rng = random.Random(9)
    rules = PRESETS["fifty"]
    closer = Hand("3o *1 5o 9c 9e 9b 1b", decks=2)
    rest = [c for c in CARD_AT if c is not None] * 2
    for c in closer:
        rest.remove(c)
    runs = max(200, int(2000 * SCALE))
    for _ in range(runs):
        cards = rng.sample(rest, 14)
        opp = [Hand(cards[:7], decks=2), Hand(cards[7:], decks=2)]
        ref = reference.settle(closer, opp, rules=rules)
        got = native.settle(closer, opp, rules=rules)
        assert got == ref and repr(got) == repr(ref)
        assert native.settle(closer, opp, rules=rules) == got
        for h in opp:
            assert native.best_melds(h, rules=rules) == reference.best_melds(h, rules=rules)


def test_an_uninitialised_hand_is_refused_not_read(native):
    bare = Hand.__new__(Hand)
    with pytest.raises(AttributeError):
        native.settle(bare, [Hand("1o 2o 3o 4o 5o 6o 7o")])
