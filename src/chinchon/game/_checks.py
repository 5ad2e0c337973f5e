"""Typed reading of saved games: every field of a snapshot or an event log is checked
here before anything is built from it.

A snapshot is input like any other (it may come from a file, a database or a client),
so each reader checks one JSON value's type and range and raises
:class:`~chinchon.IllegalAction` naming the field by its path (``hands[2][5]``,
``log[7].seat``) and what was wrong with it. The readers only ever descend as deep as
the format does, so no input, however nested, makes them recurse.
"""

from __future__ import annotations

import json
import math
from array import array
from typing import Any, Optional, Sequence

from ..cards import Card, full_deck
from ..errors import IllegalAction, shown
from ..results import CLOSE_OUTCOMES, CloserResult, Meld, OpponentResult, Settlement, TableMeld
from ..rules import Rules
from .rng import GENERATOR, LEGACY_GENERATOR

__all__ = [
    "MAX_SAFE",
    "bad",
    "get",
    "only_keys",
    "read_object",
    "read_int",
    "read_bool",
    "read_str",
    "read_list",
    "read_time",
    "read_card",
    "read_cards",
    "read_rules",
    "read_rng",
    "read_settlement",
    "parse_json",
]

#: the largest integer a snapshot holds: exact in a float and in JSON everywhere
MAX_SAFE = 2**53 - 1

#: the deepest nesting of a valid snapshot is 11 ({log [{state {last_hand {settlement
#: {opponents [{melds [{cards [ ...); anything deeper is refused before parsing
MAX_DEPTH = 16

_TYPE_NAMES = {dict: "an object", list: "a list", tuple: "a list", str: "a string",
               bool: "a boolean", int: "an int", float: "a number", type(None): "null"}


def kind_of(value: object) -> str:
    return _TYPE_NAMES.get(type(value), f"a {type(value).__name__}")


def bad(field: str, problem: str) -> IllegalAction:
    """The error for a damaged ``field`` of a saved game."""
    return IllegalAction(f"not a valid saved game: {field} {problem}")


def _got(value: object) -> str:
    if isinstance(value, (dict, list, tuple)):
        return kind_of(value)
    return f"{kind_of(value)} {shown(value, 40)}" if value is not None else "null"


def read_object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(field, f"must be an object, got {_got(value)}")
    return value


def get(d: dict[str, Any], key: str, field: str) -> Any:
    """``d[key]``; a missing key is an error naming ``field.key``."""
    try:
        return d[key]
    except KeyError:
        raise bad(_join(field, key), "is missing") from None


def _join(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def only_keys(d: dict[str, Any], field: str, keys: Sequence[str],
              optional: Sequence[str] = ()) -> None:
    """``d`` holds every key of ``keys``, maybe some of ``optional``, and nothing else."""
    for key in keys:
        if key not in d:
            raise bad(_join(field, key), "is missing")
    if len(d) > len(keys):
        allowed = set(keys).union(optional)
        extra = [k for k in d if k not in allowed]
        if extra:
            raise bad(field or "the saved game", f"has an unknown field {shown(extra[0], 40)}")


def read_int(value: object, field: str, low: int = -MAX_SAFE, high: int = MAX_SAFE) -> int:
    """An int (never a bool) in ``low..high``."""
    if type(value) is not int:
        raise bad(field, f"must be an int, got {_got(value)}")
    if not low <= value <= high:
        raise bad(field, f"must be {low}..{high}, got {shown(value)}")
    return value


def read_bool(value: object, field: str) -> bool:
    if type(value) is not bool:
        raise bad(field, f"must be true or false, got {_got(value)}")
    return value


def read_str(value: object, field: str, choices: Optional[Sequence[str]] = None) -> str:
    if type(value) is not str:
        raise bad(field, f"must be a string, got {_got(value)}")
    if choices is not None and value not in choices:
        raise bad(field, f"must be one of {', '.join(map(repr, choices))}, got {shown(value)}")
    return value


def read_list(value: object, field: str, length: Optional[int] = None, min_len: int = 0,
              max_len: int = MAX_SAFE) -> list[Any]:
    """A list (a tuple too, for data built in Python) of the given length."""
    if not isinstance(value, (list, tuple)):
        raise bad(field, f"must be a list, got {_got(value)}")
    n = len(value)
    if length is not None and n != length:
        raise bad(field, f"must hold {length} entries, got {n}")
    if not min_len <= n <= max_len:
        raise bad(field, f"must hold {min_len} to {max_len} entries, got {n}")
    return list(value)


def read_time(value: object, field: str) -> float:
    """A finite number of seconds (int or float, never a bool), within ``MAX_SAFE``."""
    if type(value) is int:
        ok = -MAX_SAFE <= value <= MAX_SAFE
    elif type(value) is float:
        ok = math.isfinite(value) and abs(value) <= MAX_SAFE
    else:
        raise bad(field, f"must be a finite number of seconds, got {_got(value)}")
    if not ok:
        raise bad(field, f"must be a finite number of seconds within {MAX_SAFE}, "
                         f"got {shown(value)}")
    return value


def read_card(value: object, field: str) -> Card:
    if type(value) is not str:
        raise bad(field, f"must be a card text, got {_got(value)}")
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise bad(field, f"is not a card: {exc}") from None


#: each card by its canonical text (what to_json writes): the fast path of read_cards
_BY_TEXT = {str(c): c for c in full_deck(1)}


def read_cards(value: object, field: str, max_len: int, length: Optional[int] = None
               ) -> list[Card]:
    items = read_list(value, field, length=length, max_len=max_len)
    try:
        return [_BY_TEXT[c] for c in items]
    except (KeyError, TypeError):  # other spellings, or not a card: one by one
        return [read_card(c, f"{field}[{i}]") for i, c in enumerate(items)]


def read_rules(value: object, field: str) -> Rules:
    """The :class:`Rules` saved by :meth:`Rules.to_dict` (a field left out keeps its
    default, so a snapshot from before a new rule was added still loads)."""
    d = read_object(value, field)
    for key, v in d.items():
        if type(v) not in (int, float, bool, str, type(None), list, tuple):
            raise bad(_join(field, str(key)), f"must be a number, a flag, a name or a "
                      f"list of numbers, got {_got(v)}")
    try:
        return Rules.from_dict(d)
    except ValueError as exc:  # ChinchonError: an unknown field, a value out of range
        raise bad(field, f"is not a valid rule set: {exc}") from None


# ---------------------------------------------------------------- the generator

_MT_WORDS = 624
_HEX = frozenset("0123456789abcdef")
_RNG_VERSION = 3
# an array type of unsigned 32-bit items: building one checks each word's range
_WORD = next(code for code in "IL" if array(code).itemsize == 4)


def read_rng(value: object, field: str) -> tuple[str, tuple[Any, ...]]:
    """The state of the game's generator as ``to_dict`` wrote it, and which generator:
    ``["xoshiro256**", w0, w1, w2, w3]`` (each word 16 lowercase hex digits, not all
    zero), or the legacy ``random.Random`` state ``[3, [624 words and the position],
    gauss]``; returns the generator's name and the tuple its ``setstate`` takes."""
    items = read_list(value, field)
    if items and isinstance(items[0], str):
        if items[0] != GENERATOR or len(items) != 5:
            raise bad(field, f"must be [{GENERATOR!r}, and four words in hex] or a "
                             f"random.Random state, got {_got(items[0])} and "
                             f"{len(items) - 1} more items")
        words = []
        for k, w in enumerate(items[1:], 1):
            if not (type(w) is str and len(w) == 16 and all(c in _HEX for c in w)):
                raise bad(f"{field}[{k}]", f"must be 16 lowercase hex digits, got {_got(w)}")
            words.append(int(w, 16))
        if not any(words):
            raise bad(field, "is all zeros (not a state the generator reaches)")
        return GENERATOR, tuple(words)
    version, internal, gauss = read_list(value, field, length=3)
    read_int(version, f"{field}[0]", _RNG_VERSION, _RNG_VERSION)
    words = read_list(internal, f"{field}[1]", length=_MT_WORDS + 1)
    head = words[:_MT_WORDS]
    try:  # at C speed: all ints (no bools), each fitting 32 bits unsigned
        ok = set(map(type, head)) == {int} and len(array(_WORD, head)) == _MT_WORDS
    except OverflowError:
        ok = False
    if not ok:
        k = next(i for i, w in enumerate(head) if not (type(w) is int and 0 <= w <= 0xFFFFFFFF))
        raise bad(f"{field}[1][{k}]", f"must be an int 0..4294967295, got {_got(words[k])}")
    read_int(words[_MT_WORDS], f"{field}[1][{_MT_WORDS}]", 0, _MT_WORDS)
    if not any(words[:_MT_WORDS]):
        raise bad(f"{field}[1]", "is all zeros (not a state the generator reaches)")
    if gauss is not None and not (type(gauss) is float and math.isfinite(gauss)):
        raise bad(f"{field}[2]", f"must be null or a finite number, got {_got(gauss)}")
    return LEGACY_GENERATOR, (version, tuple(words), gauss)


# ---------------------------------------------------------------- settlements

_MELD_KINDS = ("set", "run")


def _read_joker(m: dict[str, Any], f: str) -> tuple[Optional[Card], Optional[int]]:
    """A meld's ``joker`` (card text or null) and ``joker_rank`` (1-12 or null), both
    optional (snapshots from before the variants have neither)."""
    joker = m.get("joker")
    rank = m.get("joker_rank")
    if joker is None and rank is None:
        return None, None
    if joker is None or rank is None:
        raise bad(f, "has a joker without its rank, or a rank without its joker")
    return read_card(joker, f"{f}.joker"), read_int(rank, f"{f}.joker_rank", 1, 12)


def _read_melds(value: object, field: str) -> tuple[Meld, ...]:
    out = []
    for i, m in enumerate(read_list(value, field, max_len=8)):
        f = f"{field}[{i}]"
        m = read_object(m, f)
        only_keys(m, f, ("kind", "cards"), optional=("joker", "joker_rank"))
        out.append(Meld(read_str(get(m, "kind", f), f"{f}.kind", _MELD_KINDS),
                        tuple(read_cards(get(m, "cards", f), f"{f}.cards", 12)),
                        *_read_joker(m, f)))
    return tuple(out)


def read_settlement(value: object, field: str, seats: int) -> Settlement:
    """A :class:`Settlement` from its ``to_dict`` form, every field checked for type
    (whether it is the right settlement of the cards is the caller's check)."""
    d = read_object(value, field)
    only_keys(d, field, ("outcome", "closer", "opponents", "table", "points"))
    outcome = read_str(get(d, "outcome", field), f"{field}.outcome", CLOSE_OUTCOMES)
    f = f"{field}.closer"
    c = read_object(get(d, "closer", field), f)
    only_keys(c, f, ("melds", "unmatched", "points"))
    closer = CloserResult(_read_melds(c["melds"], f"{f}.melds"),
                          tuple(read_cards(c["unmatched"], f"{f}.unmatched", 8)),
                          read_int(c["points"], f"{f}.points"))
    opponents = []
    for k, o in enumerate(read_list(get(d, "opponents", field), f"{field}.opponents",
                                    min_len=1, max_len=seats - 1)):
        f = f"{field}.opponents[{k}]"
        o = read_object(o, f)
        only_keys(o, f, ("melds", "layoffs", "unmatched", "points"))
        layoffs = []
        for j, pair in enumerate(read_list(o["layoffs"], f"{f}.layoffs", max_len=8)):
            card, meld = read_list(pair, f"{f}.layoffs[{j}]", length=2)
            layoffs.append((read_card(card, f"{f}.layoffs[{j}][0]"),
                            read_int(meld, f"{f}.layoffs[{j}][1]", 0, 64)))
        opponents.append(OpponentResult(_read_melds(o["melds"], f"{f}.melds"), tuple(layoffs),
                                        tuple(read_cards(o["unmatched"], f"{f}.unmatched", 8)),
                                        read_int(o["points"], f"{f}.points")))
    table = []
    for k, t in enumerate(read_list(get(d, "table", field), f"{field}.table", max_len=64)):
        f = f"{field}.table[{k}]"
        t = read_object(t, f)
        only_keys(t, f, ("kind", "cards", "owner", "open"), optional=("joker", "joker_rank"))
        table.append(TableMeld(read_str(t["kind"], f"{f}.kind", _MELD_KINDS),
                               tuple(read_cards(t["cards"], f"{f}.cards", 12)),
                               read_int(t["owner"], f"{f}.owner", 0, seats - 1),
                               read_bool(t["open"], f"{f}.open"), *_read_joker(t, f)))
    points = [read_int(p, f"{field}.points[{i}]")
              for i, p in enumerate(read_list(get(d, "points", field), f"{field}.points",
                                              length=1 + len(opponents)))]
    if points != [closer.points] + [o.points for o in opponents]:
        raise bad(f"{field}.points", "do not match the closer's and the opponents' points")
    return Settlement(outcome, closer, tuple(opponents), tuple(table), tuple(points))


# ---------------------------------------------------------------- JSON text

# every byte but the brackets and the double quote; then braces as brackets (the depth
# is what counts here; json.loads refuses a brace closed by a bracket)
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_BRACES_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")


def _too_deep(text: str, limit: int) -> bool:
    """Whether ``text`` nests brackets deeper than ``limit`` (or leaves them unbalanced).

    Linear passes at C speed, no recursion: escaped backslashes and quotes go, then every
    byte but brackets and quotes; the strings (between quotes) go with what they hold;
    then the innermost pairs are removed ``limit`` times (one level a pass), and anything
    left over was deeper (or not JSON)."""
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"")
    if b"\\" in raw:
        raw = raw.replace(b'\\"', b"")
    brackets = raw.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in brackets:
        brackets = b"".join(brackets.split(b'"')[0::2])
    brackets = brackets.translate(_BRACES_AS_BRACKETS)
    for _ in range(limit):
        if not brackets:
            return False
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return True  # unbalanced: not JSON
        brackets = shorter
    return bool(brackets)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(data: object, max_bytes: int) -> Any:
    """The value of a saved game's JSON text (``str`` or UTF-8 ``bytes``), refusing
    text over ``max_bytes``, nesting deeper than any snapshot has, ``NaN`` and
    ``Infinity``, and anything that is not JSON."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if len(raw) > max_bytes:
            raise bad("the JSON text", f"is {len(raw)} bytes, over the limit of {max_bytes}")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise bad("the JSON text", f"is not UTF-8: {exc}") from None
    else:
        assert isinstance(data, str)
        text = data
        if len(text) > max_bytes:
            raise bad("the JSON text", f"is {len(text)} characters, over the limit of "
                                       f"{max_bytes}")
    if _too_deep(text, MAX_DEPTH):
        raise bad("the JSON text", f"nests deeper than {MAX_DEPTH} levels (or its "
                                   f"brackets do not balance)")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # cannot happen after the depth check; never let it out
        raise bad("the JSON text", "nests too deeply") from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, an int of 4300+ digits
        raise bad("the JSON text", f"is not JSON: {shown(str(exc), 120)}") from None
