# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The game's random generator (``cc_rng_*``) for :mod:`chinchon.game.rng`: the shuffle
at C speed, and the draws the tests compare with the Python implementation. A state is
the tuple of four words (ints 0..2**64-1, not all zero), as
:meth:`chinchon.game.rng.Rng.getstate` returns it.
"""

from libc.stdint cimport uint32_t, uint64_t

from .chinchon cimport (CC_RNG_SEED_WORDS, cc_rng, cc_rng_below, cc_rng_derive, cc_rng_double,
                        cc_rng_next, cc_rng_seed)


cdef int _rng_load(cc_rng *r, state) except -1:
    cdef tuple t = tuple(state)
    if len(t) != 4:
        raise ValueError("a xoshiro256** state is four words")
    r.s[0], r.s[1], r.s[2], r.s[3] = t[0], t[1], t[2], t[3]
    if not (r.s[0] | r.s[1] | r.s[2] | r.s[3]):
        raise ValueError("a xoshiro256** state is not all zeros")
    return 0


cdef tuple _rng_state(cc_rng *r):
    return (r.s[0], r.s[1], r.s[2], r.s[3])


def _rng_shuffle(list items, state):
    """Shuffle ``items`` in place from ``state`` (Fisher-Yates from the end, as
    cc_rng_shuffle); returns the generator's new state."""
    cdef cc_rng r
    cdef Py_ssize_t i, j, n = len(items)
    if n >= 2**32:
        raise ValueError("a shuffle takes fewer than 2**32 items")
    _rng_load(&r, state)
    for i in range(n - 1, 0, -1):
        j = cc_rng_below(&r, <uint32_t>(i + 1))
        items[i], items[j] = items[j], items[i]
    return _rng_state(&r)


def _rng_draws(state, str kind, Py_ssize_t count, uint32_t bound=0):
    """``count`` draws from ``state``: ``kind`` 'next' (cc_rng_next), 'below'
    (cc_rng_below(bound), bound > 0) or 'double' (cc_rng_double); returns the draws and
    the new state. For the tests that compare the two implementations."""
    cdef cc_rng r
    cdef Py_ssize_t k
    _rng_load(&r, state)
    if kind == "next":
        out = [cc_rng_next(&r) for k in range(count)]
    elif kind == "below":
        if bound == 0:
            raise ValueError("below needs a bound > 0")
        out = [cc_rng_below(&r, bound) for k in range(count)]
    elif kind == "double":
        out = [cc_rng_double(&r) for k in range(count)]
    else:
        raise ValueError(f"unknown draw {kind!r}")
    return out, _rng_state(&r)


def _rng_seed(negative, magnitude, words=()):
    """The state cc_rng_seed(cc_rng_derive(negative, magnitude, words)) gives
    (``magnitude``: the seed's absolute value in 4 words, least significant first)."""
    cdef uint64_t mag[CC_RNG_SEED_WORDS]
    cdef uint64_t w[64]
    cdef Py_ssize_t k, n = len(words)
    cdef cc_rng r
    if len(magnitude) != CC_RNG_SEED_WORDS or n > 64:
        raise ValueError("four magnitude words and at most 64 words")
    for k in range(CC_RNG_SEED_WORDS):
        mag[k] = magnitude[k]
    for k in range(n):
        w[k] = words[k]
    cc_rng_seed(&r, cc_rng_derive(1 if negative else 0, mag, w, <size_t>n))
    return _rng_state(&r)
