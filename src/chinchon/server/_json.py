"""The server's JSON encoder: ``orjson`` when it is installed (it comes with the
``[server]`` extra), else the standard library's; the text is the same either way
(compact, non-ASCII written as it is), and whatever orjson refuses (an int past 64
bits, a lone surrogate) goes to the standard library, which writes it as before.

Why: the server encodes JSON for every event (the views of every seat, the event
record, the table's state) and the standard library's encoder was a tenth of its CPU
time under the load test; orjson does the same in about a tenth of that."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

__all__ = ["encode", "ENCODER"]

_std: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

try:
    if os.environ.get("CHINCHON_JSON") == "std":  # to compare the two
        raise ImportError
    import orjson
except ImportError:
    encode = _std
    ENCODER = "json"
else:
    _dumps = orjson.dumps
    _Refused = orjson.JSONEncodeError

    def encode(obj: Any) -> str:
        """``obj`` as compact JSON text."""
        try:
            return _dumps(obj).decode()
        except _Refused:
            return _std(obj)

    ENCODER = "orjson"
