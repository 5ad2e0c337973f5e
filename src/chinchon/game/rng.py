"""The game's random generator: xoshiro256** seeded through splitmix64 (docs/rules.md#the-shuffle-and-the-generator). The same algorithm is in C (``csrc/src/base/rng.c``, ``cc_rng_*``)
and both draw the same numbers, so two implementations of the game deal the same cards.

- **Generator**: xoshiro256** 1.0 (Blackman and Vigna, https://prng.di.unimi.it/), a
  state of four unsigned 64-bit words, never all zero.
- **Seed derivation**: :func:`derive` folds an int seed (at most 256 bits, either sign)
  and any further words (a game index, a stream) into one 64-bit value with the
  splitmix64 mixer; :class:`Rng` fills its four words with the first four outputs of
  splitmix64 started at that value (the seeding Vigna recommends).
- **Bounded draw** ``below(n)``, ``0 < n < 2**32``: Lemire's multiply-and-reject
  method on the upper 32 bits of one output, unbiased ("Fast random integer generation
  in an interval", 2019).
- **Float** ``random()``: the upper 53 bits of one output times ``2**-53``.
- **Shuffle**: Fisher-Yates from the end: for ``i`` from ``len - 1`` down to 1, swap
  item ``i`` with item ``below(i + 1)`` (the order ``random.shuffle`` uses too).
"""

from __future__ import annotations

import random
from typing import Any, Callable, MutableSequence, Optional

from .. import _backend

#: the C shuffle (csrc/src/base/rng.c through the binding) when the native core is in use:
#: the same draws and the same order as :meth:`Rng.shuffle`'s Python loop, ~10x faster
_native_shuffle: Optional[Callable[[list[Any], Any], tuple[int, int, int, int]]] = None
if _backend.IMPLEMENTATION == "native":
    _native_shuffle = _backend.native("rng")._rng_shuffle

__all__ = ["Rng", "derive", "splitmix64", "GENERATOR", "MAX_SEED_BITS"]

#: the generator's name, as a snapshot records it
GENERATOR = "xoshiro256**"
#: a seed is an int of at most this many bits, either sign
MAX_SEED_BITS = 256

_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15
_SEED_WORDS = MAX_SEED_BITS // 64


def _fmix(z: int) -> int:
    """splitmix64's output function (Stafford's variant 13)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def splitmix64(state: int, count: int) -> list[int]:
    """The first ``count`` outputs of splitmix64 started at ``state`` (each step adds the
    golden-ratio constant, then mixes)."""
    out = []
    for _ in range(count):
        state = (state + _GOLDEN) & _M64
        out.append(_fmix(state))
    return out


def derive(seed: int, *words: int) -> int:
    """The 64-bit value that seeds a generator for ``seed`` and ``words``.

    The seed becomes five words: its sign (1 if negative, else 0), then its absolute
    value in four 64-bit words, least significant first; ``words`` (each 0..2**64-1)
    follow. Starting from ``h = 0``, each word ``w`` in turn gives
    ``h = splitmix64_next(h ^ w)`` (one splitmix64 step from state ``h ^ w``)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > MAX_SEED_BITS:
        raise ValueError(f"a seed must be an int of at most {MAX_SEED_BITS} bits, got {seed!r}")
    mag = -seed if seed < 0 else seed
    seq = [1 if seed < 0 else 0] + [(mag >> (64 * k)) & _M64 for k in range(_SEED_WORDS)]
    for w in words:
        if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= _M64:
            raise ValueError(f"a derivation word must be an int 0..2**64-1, got {w!r}")
        seq.append(w)
    h = 0
    for w in seq:
        h = _fmix(((h ^ w) + _GOLDEN) & _M64)
    return h


class Rng:
    """xoshiro256** seeded from ``derive(seed, *words)`` (see the module docstring).

    ``seed=None`` draws a seed from the OS (never the clock). The methods a game and its
    bots use: :meth:`next64`, :meth:`below` (also as :meth:`randrange`), :meth:`random`,
    :meth:`shuffle`; :meth:`getstate`/:meth:`setstate` save and restore the four words.
    """

    __slots__ = ("_s",)

    def __init__(self, seed: Optional[int] = None, *words: int) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self._s = tuple(splitmix64(derive(seed, *words), 4))

    # ------------------------------------------------------------ state

    def getstate(self) -> tuple[int, int, int, int]:
        """The four state words."""
        return self._s  # type: ignore[return-value]

    def setstate(self, state: Any) -> None:
        """Set the four state words (each 0..2**64-1, not all zero)."""
        s = tuple(state)
        if len(s) != 4 or not all(type(w) is int and 0 <= w <= _M64 for w in s) or not any(s):
            raise ValueError("a xoshiro256** state is four ints 0..2**64-1, not all zero")
        self._s = s

    @classmethod
    def from_state(cls, state: Any) -> Rng:
        """A generator with the given four state words."""
        r = object.__new__(cls)
        r.setstate(state)
        return r

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._s == self._s

    def __hash__(self) -> int:  # pragma: no cover - not used as a key
        return hash(self._s)

    def __repr__(self) -> str:
        return f"Rng.from_state({self._s!r})"

    # ------------------------------------------------------------ draws

    def next64(self) -> int:
        """The next output, 0..2**64-1."""
        s0, s1, s2, s3 = self._s
        r = (s1 * 5) & _M64
        r = ((((r << 7) | (r >> 57)) & _M64) * 9) & _M64
        t = (s1 << 17) & _M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s = (s0, s1, s2, ((s3 << 45) | (s3 >> 19)) & _M64)
        return r

    def below(self, n: int) -> int:
        """Uniform in ``0..n-1`` for ``0 < n < 2**32`` (Lemire's method: ``x`` the upper
        32 bits of an output, ``m = x * n``; redraw while the low 32 bits of ``m`` are
        below ``2**32 mod n``; the answer is ``m >> 32``)."""
        if not 0 < n <= 0xFFFFFFFF:
            raise ValueError(f"below(n) needs 0 < n < 2**32, got {n!r}")
        m = (self.next64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = (0x100000000 - n) % n
            while low < t:
                m = (self.next64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    randrange = below  # what the bots call (with one argument, as random.Random's)

    def random(self) -> float:
        """Uniform in ``[0, 1)``: the upper 53 bits of an output times ``2**-53``."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place: Fisher-Yates from the end (for ``i`` from
        ``len - 1`` down to 1, swap items ``i`` and ``below(i + 1)``). A list is shuffled
        by the C core when it is in use, otherwise by the loop here (the same draws)."""
        if _native_shuffle is not None and type(items) is list:
            self._s = _native_shuffle(items, self._s)
            return
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------- the game's generator

#: the generator of games from before xoshiro256** (``random.Random``, MT19937): a game
#: restored from such a snapshot, or replayed from such a log, keeps it, so it continues
#: exactly as it would have
LEGACY_GENERATOR = "mt19937"
GENERATORS = (GENERATOR, LEGACY_GENERATOR)


def make_rng(seed: Optional[int], generator: str = GENERATOR) -> Any:
    """The game's generator for ``seed``: an :class:`Rng`, or ``random.Random(seed)``
    for :data:`LEGACY_GENERATOR`."""
    if generator == GENERATOR:
        return Rng(seed)
    if generator == LEGACY_GENERATOR:
        return random.Random(seed)
    raise ValueError(f"unknown generator {generator!r}, not one of {GENERATORS}")


def generator_of(rng: Any) -> str:
    """The name of a game's generator (:data:`GENERATOR` or :data:`LEGACY_GENERATOR`)."""
    return GENERATOR if isinstance(rng, Rng) else LEGACY_GENERATOR


def state_json(state: Any) -> list[Any]:
    """A generator's ``getstate()`` as a snapshot writes it: ``["xoshiro256**", w0, w1,
    w2, w3]`` with each word as 16 lowercase hex digits (JSON numbers past 2**53 are not
    exact everywhere), or the legacy ``[3, [624 words and the position], gauss]``."""
    if len(state) == 4:
        return [GENERATOR, *(f"{w:016x}" for w in state)]
    version, internal, gauss = state
    return [version, list(internal), gauss]


def from_state(generator: str, state: Any) -> Any:
    """A generator of kind ``generator`` set to ``state`` (as :func:`state_json`'s
    reader returns it); raises ``ValueError`` on a state the generator refuses."""
    if generator == GENERATOR:
        return Rng.from_state(state)
    rng = random.Random(0)  # (a seed, so as not to read the OS's entropy)
    try:
        rng.setstate(state)
    except (TypeError, OverflowError) as exc:  # pragma: no cover - checked before
        raise ValueError(str(exc)) from None
    return rng
