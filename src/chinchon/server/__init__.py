"""The table server: ``chinchon serve`` hosts games in the browser.

An optional extra (``pip install "chinchon[server]"``: Starlette, uvicorn,
websockets). One WebSocket endpoint speaks the JSON protocol of ``docs/protocol.md``;
the same app serves a plain HTML/CSS/JS page (``static/``). Tables live in SQLite.

Modules:

- :mod:`.protocol` — message size, JSON and schema checks (standard library only);
- :mod:`.tables` — one table as a state machine over stored event records;
- :mod:`.views` — what one seat is shown, drawn by the page as sent: :mod:`.faces`
  decides how cards, melds and outcomes are shown;
- :mod:`.store` — the SQLite store (WAL; one transaction per event);
- :mod:`.manager` — live tables and the messages, put together from
  :mod:`.config` (settings, presets, the default database), :mod:`.live` (what is held in memory),
  :mod:`.commit` (the group commit), :mod:`.driving` (clock, timers, bots) and
  :mod:`.seats` (creating, joining, resuming, leaving);
- :mod:`.app` — the Starlette app (needs the extra);
- :mod:`.cli` — ``chinchon serve`` / ``python -m chinchon.server``.

Nothing here is imported by ``import chinchon``; importing this package itself needs
nothing beyond the core either (the app imports Starlette when it is built).
"""

from .protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
