"""Where tables live between restarts: one SQLite file (standard library ``sqlite3``).

Two tables:

- ``tables``: one row per table, the latest state (``meta``: seats, rules, clock...;
  ``game``: :meth:`chinchon.Game.to_json`, NULL until the game starts) and ``seq``, the
  number of the last event applied.
- ``events``: every event of every table, ``(table_id, seq)`` -> the record (JSON).

:meth:`Store.commit` writes one event and the state it led to in **one transaction**;
the server tells nobody about an event before that transaction is committed. The file
is in WAL mode; ``synchronous=NORMAL`` (the default here) keeps every committed
transaction through a crash of the server process (SIGKILL included) and can lose the
last ones only if the operating system itself stops; ``durability="full"`` syncs every
commit to disk (power-loss safe, slower).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Optional

__all__ = ["Store", "StoreError", "StoredTable", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    status   TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    meta     TEXT NOT NULL,
    game     TEXT,
    created  REAL NOT NULL,
    updated  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    record   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class StoreError(Exception):
    """The database refused a write (disk full, a concurrent writer, a stale seq)."""


@dataclass(frozen=True)
class StoredTable:
    id: str
    status: str
    seq: int
    meta: str
    game: Optional[str]


class Store:
    """The server's SQLite database. Used from one thread (the event loop's)."""

    def __init__(self, path: str, *, durability: str = "normal") -> None:
        if durability not in ("normal", "full"):
            raise ValueError(f"durability must be 'normal' or 'full', got {durability!r}")
        self.path = path
        # autocommit mode: transactions are opened explicitly with BEGIN IMMEDIATE
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={durability.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT value FROM settings WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO settings VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise StoreError(f"{path}: database schema {row[0]}, this server reads "
                             f"schema {SCHEMA_VERSION}")

    def close(self) -> None:
        self._db.close()

    def create(self, table_id: str, status: str, meta: str, record: str) -> None:
        """A new table with its first event (seq 1)."""
        now = time.time()
        self._transaction(
            ("INSERT INTO tables (id, status, seq, meta, game, created, updated) "
             "VALUES (?, ?, 1, ?, NULL, ?, ?)", (table_id, status, meta, now, now)),
            ("INSERT INTO events (table_id, seq, record, at) VALUES (?, 1, ?, ?)",
             (table_id, record, now)),
        )

    def commit(self, table_id: str, seq: int, status: str, meta: str, game: Optional[str],
               record: str) -> None:
        """Event ``seq`` of the table and the state after it, in one transaction. Refused
        (:class:`StoreError`, nothing written) unless the stored table is at ``seq - 1``."""
        now = time.time()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                cur = db.execute(
                    "UPDATE tables SET status=?, seq=?, meta=?, game=?, updated=? "
                    "WHERE id=? AND seq=?", (status, seq, meta, game, now, table_id, seq - 1))
                if cur.rowcount != 1:
                    raise StoreError(f"table {table_id} is not at event {seq - 1} in the database")
                db.execute("INSERT INTO events (table_id, seq, record, at) VALUES (?, ?, ?, ?)",
                           (table_id, seq, record, now))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"database write failed: {exc}") from exc

    def _transaction(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"database write failed: {exc}") from exc

    def load(self, table_id: str) -> Optional[StoredTable]:
        row = self._db.execute("SELECT id, status, seq, meta, game FROM tables WHERE id=?",
                               (table_id,)).fetchone()
        return None if row is None else StoredTable(*row)

    def unfinished(self) -> list[StoredTable]:
        """Every table not over, oldest first: what a restarted server resumes."""
        rows = self._db.execute("SELECT id, status, seq, meta, game FROM tables "
                                "WHERE status != 'over' ORDER BY created").fetchall()
        return [StoredTable(*r) for r in rows]

    def events(self, table_id: str) -> list[tuple[int, str]]:
        """``(seq, record)`` of every event of the table, in order."""
        return self._db.execute("SELECT seq, record FROM events WHERE table_id=? ORDER BY seq",
                                (table_id,)).fetchall()
