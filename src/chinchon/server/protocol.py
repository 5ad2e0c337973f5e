"""The table server's wire protocol: JSON text messages over one WebSocket.

This module only parses and checks what a client sends (size, JSON, schema); it knows
nothing of tables. ``docs/protocol.md`` is the reference for every message.

Every client message is a JSON object with a ``type``; an optional ``id`` (an int or a
short string) is echoed in the reply it causes, and an optional ``v`` must be
:data:`PROTOCOL_VERSION`. Fields not listed for a type are refused, so that a typo is an
error rather than a silently ignored option.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Callable, Optional

from ..bots import BOT_FORMS
from ..cards import JOKERS, RANKS, SUITS

__all__ = [
    "PROTOCOL_VERSION",
    "MAX_MESSAGE_BYTES",
    "MAX_NAME_CHARS",
    "ProtocolError",
    "parse_message",
    "clean_name",
    "SCHEMAS",
]

#: bumped on any change a client could notice; sent in ``welcome``
PROTOCOL_VERSION = 1

#: the largest client message accepted, in bytes of UTF-8 (the biggest legal one is
#: well under 300 bytes)
MAX_MESSAGE_BYTES = 2048

MAX_NAME_CHARS = 24
#: the code points a name may hold in all: its characters and the combining marks on
#: them (an accent typed apart, ``e`` then U+0301, is one character of two)
MAX_NAME_CODE_POINTS = 4 * MAX_NAME_CHARS
#: what shows as nothing though Unicode files it as a letter or a symbol (the Hangul
#: fillers, the braille blank): read as a space
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_TABLE_ID_CHARS = 32
_TOKEN_CHARS = 128
_ID_CHARS = 64


class ProtocolError(Exception):
    """A message the server refuses: ``code`` (machine-readable, listed in
    docs/protocol.md) and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: the ``id`` of the refused message, when it had a valid one
        self.request_id: Any = None


# --------------------------------------------------------------------------- fields

Check = Callable[[str, Any], Any]


def _int(lo: int, hi: int) -> Check:
    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError("bad_message", f"{field} must be an integer, got {value!r}")
        if not lo <= value <= hi:
            raise ProtocolError("bad_message", f"{field} must be {lo}..{hi}, got {value}")
        return value

    return check


def _str(max_chars: int, choices: Optional[tuple[str, ...]] = None) -> Check:
    def check(field: str, value: Any) -> str:
        if not isinstance(value, str):
            raise ProtocolError("bad_message", f"{field} must be a string, got {value!r}")
        if not 0 < len(value) <= max_chars:
            raise ProtocolError("bad_message",
                                f"{field} must be 1 to {max_chars} characters long")
        if choices is not None and value not in choices:
            raise ProtocolError("bad_message",
                                f"{field} must be one of {', '.join(choices)}, got {value!r}")
        return value

    return check


#: the longest bot name a table may ask for (``search:4000000ms`` is 16 characters; the
#: rest is room for the spaces and zeros bot_name ignores)
MAX_BOT_CHARS = 32


def _bot(field: str, value: Any) -> str:
    """A bot's name, its form checked where the table is made (``bot_name``)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_BOT_CHARS:
        raise ProtocolError("bad_message",
                            f"{field} must be a bot name of 1 to {MAX_BOT_CHARS} characters, "
                            f"got {value!r:.40}; choose from {BOT_FORMS}")
    return value


def _name(field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f"{field} must be a string, got {value!r}")
    return clean_name(value)


def clean_name(text: str) -> str:
    """A player's name as shown to the table: control and format characters (newlines,
    bidi overrides, zero-width...) removed, blanks read as spaces and whitespace
    collapsed; 1 to :data:`MAX_NAME_CHARS` characters, a combining mark counted with
    the character it marks (at most :data:`MAX_NAME_CODE_POINTS` code points in all),
    at least one of them neither a space nor a mark. HTML is *not* escaped here: the
    page writes names as text, never as markup, and the protocol carries them
    verbatim."""
    kept = "".join(" " if ch.isspace() or ch in _BLANKS else ch for ch in text
                   if ch.isspace() or ch in _BLANKS or unicodedata.category(ch)[0] != "C")
    name = " ".join(kept.split())
    marks = sum(1 for ch in name if unicodedata.category(ch)[0] == "M")
    if len(name) == marks + name.count(" "):
        raise ProtocolError("bad_message", "name must hold at least one visible character")
    if len(name) - marks > MAX_NAME_CHARS or len(name) > MAX_NAME_CODE_POINTS:
        raise ProtocolError("bad_message", f"name must be at most {MAX_NAME_CHARS} characters")
    return name


_table = _str(_TABLE_ID_CHARS)

#: every card's text as the protocol spells it: rank 1-12 then suit, or a joker
CARD_TEXTS = frozenset([f"{r}{s}" for s in SUITS for r in RANKS] + [str(j) for j in JOKERS])


def _card(field: str, value: Any) -> str:
    """A card as the protocol writes it (``7o``, ``11e``, ``*1``), exactly: other
    spellings the engine reads (``Co``, ``SE``, `` 7O``) are refused, so that what is
    stored and shown to every seat is always the one text of each card."""
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f"{field} must be a string, got {value!r}")
    if value not in CARD_TEXTS:
        raise ProtocolError("bad_card", f"{field} must be a card written rank then suit "
                                        f"(1-12, then o, c, e or b: 7o, 11e) or a joker "
                                        f"(*1, *2), got {value!r}")
    return value

#: type -> {field: (required, check)}; ``type``, ``id`` and ``v`` are allowed everywhere
SCHEMAS: dict[str, dict[str, tuple[bool, Check]]] = {
    "ping": {},
    "lobby": {},
    "create": {
        "name": (True, _name),
        "players": (True, _int(1, 12)),  # the game itself says which counts it seats
        "rules": (False, _str(32)),
        "bots": (False, _int(0, 11)),
        "bot": (False, _bot),
    },
    "join": {"table": (True, _table), "name": (True, _name)},
    "resume": {"table": (True, _table), "seat": (True, _int(0, 11)),
               "token": (True, _str(_TOKEN_CHARS))},
    "start": {},
    "leave": {},
    "draw": {"source": (True, _str(8, ("stock", "discard")))},
    "discard": {"card": (True, _card)},
    "close": {"card": (True, _card)},
    "rejoin": {},
    "ready": {},
}


def _check_id(value: Any) -> Any:
    if type(value) is int and -(2**53) < value < 2**53:  # what clients send
        return value
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ProtocolError("bad_message", "id must be an integer or a string")
    if isinstance(value, str) and len(value) > _ID_CHARS:
        raise ProtocolError("bad_message", f"id must be at most {_ID_CHARS} characters")
    if isinstance(value, str) and _SURROGATE.search(value):
        raise ProtocolError("bad_message", "id holds a lone surrogate (an unpaired "
                                           "\\ud800-\\udfff escape): it is no text")
    if isinstance(value, int) and not -(2**53) < value < 2**53:
        raise ProtocolError("bad_message", "id must fit in a JSON number exactly")
    return value


def parse_message(raw: Any) -> dict[str, Any]:
    """The checked message in ``raw`` (text or bytes from the socket), with defaults
    filled in, or :class:`ProtocolError`. Never raises anything else."""
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_big", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "a message is UTF-8 JSON text") from None
    if not isinstance(raw, str):
        raise ProtocolError("bad_json", "a message is JSON text")
    if raw.isascii():  # the common case: one byte a character, no surrogate
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_big", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    else:
        if len(raw) > MAX_MESSAGE_BYTES or \
                len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_big", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        if _SURROGATE.search(raw):  # text that is no UTF-8 (a WebSocket never carries it)
            raise ProtocolError("bad_json", "a message is UTF-8 JSON text")
    try:
        msg = _decode(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "a message must be valid JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
    mid = _check_id(msg["id"]) if "id" in msg else None
    try:
        if "\\u" in raw:  # an escape: it may stand for a lone surrogate
            _no_surrogates(msg)
        return _check_fields(msg, mid)
    except ProtocolError as exc:
        exc.request_id = mid
        raise


def _check_fields(msg: dict[str, Any], mid: Any) -> dict[str, Any]:
    """The message's fields checked against its type's schema; ``mid``: its ``id``,
    already checked (:func:`_check_id`), or None."""
    kind = msg.get("type")
    # the version first: another version's messages may be of types this one lacks;
    # the version is the integer itself: not true (== 1 in Python), not 1.0
    if "v" in msg and (type(msg["v"]) is not int or msg["v"] != PROTOCOL_VERSION):
        raise ProtocolError("unsupported_version",
                            f"this server speaks protocol version {PROTOCOL_VERSION}, "
                            f"not {msg['v']!r}")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError("bad_message", f"unknown message type {kind!r}; expected one of "
                                           f"{', '.join(SCHEMAS)}")
    schema = SCHEMAS[kind]
    out: dict[str, Any] = {"type": kind}
    if "id" in msg:
        out["id"] = mid
    for field in msg:
        if field not in schema and field not in ("type", "id", "v"):
            raise ProtocolError("bad_message", f"{kind}: unknown field {field!r}")
    for field, (required, check) in schema.items():
        if field in msg:
            out[field] = check(field, msg[field])
        elif required:
            raise ProtocolError("bad_message", f"{kind}: missing field {field!r}")
    return out


#: a lone surrogate: a JSON escape ``\\ud800``-``\\udfff`` not in a pair stands for one,
#: and such a string cannot be written back as UTF-8 (nor hashed, nor echoed)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_surrogates(value: Any) -> None:
    """Refuse a lone surrogate anywhere in a decoded message: in a field's name or in
    any string value, however deep (``bad_message``)."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise ProtocolError("bad_message", "a string of the message holds a lone "
                                               "surrogate (an unpaired \\ud800-\\udfff "
                                               "escape): it is no text")
    elif isinstance(value, dict):
        for k, v in value.items():
            _no_surrogates(k)
            _no_surrogates(v)
    elif isinstance(value, list):
        for v in value:
            _no_surrogates(v)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: ``json.loads(text, parse_constant=_no_constant)`` without building a decoder per call
_std_decode: Callable[[str], Any] = json.JSONDecoder(parse_constant=_no_constant).decode

try:  # orjson (the [server] extra) reads a message in a fraction of the time
    from orjson import JSONDecodeError as _FastRefused
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - the standard library's alone
    _decode = _std_decode
else:
    def _decode(raw: str) -> Any:
        """The message as the standard library reads it: orjson's reading of what it
        accepts is the same, but for an integer past 64 bits (a float to orjson): text
        with 20 digits in a row goes to the standard library, as does whatever orjson
        refuses (NaN, a lone surrogate's escape...), which accepts it or says why not
        as before."""
        if _LONG_NUMBER.search(raw) is None:
            try:
                return _fast_loads(raw)
            except _FastRefused:
                pass
        return _std_decode(raw)

    _LONG_NUMBER = re.compile(r"\d{20}")
