"""The implementations under test, and how many random cases the tests draw."""

from __future__ import annotations

import os

from chinchon import reference

#: multiplies the number of random hands and deals in the random tests (CI may shrink it)
SCALE = float(os.environ.get("CHINCHON_TEST_SCALE", "1"))


def scaled(n: int) -> int:
    return max(1, int(n * SCALE))


def _native():
    try:
        from chinchon import _core
    except ImportError:
        return None
    return _core


#: the compiled module, or None where it is not built
NATIVE = _native()
#: the reference, and the native module when built
IMPLEMENTATIONS = [reference] + ([NATIVE] if NATIVE is not None else [])


def agree_on_close_and_hints(native, hand, rules) -> None:
    """The native close outcome of a 7-card ``hand`` and discard hints of an 8-card one
    are the reference's (nothing checked at other sizes)."""
    if len(hand) == 7:
        assert native.close_outcome(hand, rules=rules) == \
            reference.close_outcome(hand, rules=rules), str(hand)
    if len(hand) == 8:
        assert native.discard_hints(hand, rules=rules) == \
            reference.discard_hints(hand, rules=rules), str(hand)
