"""Where tables live between restarts: one SQLite file (standard library ``sqlite3``).

Three tables:

- ``events``: every event of every table, ``(table_id, seq)`` -> the record (JSON), in
  the order they were written: a rowid table with no index, so a commit only appends
  to its last pages. Replaying a table's events from its ``create`` gives the table
  (:meth:`chinchon.server.tables.Table.replay`): the history, and a check. A running
  server only writes it (:meth:`Store.events` reads a table's history by a scan).
- ``tables``: one row per table: ``seq``, ``status``, ``state``, the part of the
  table's snapshot that events change (:meth:`~chinchon.server.tables.Table.state_json`:
  the hands, the stock, the discard pile, the turn, the totals, ...; a few hundred
  bytes), always at event ``seq``, and ``pending``: the record of the one event stored
  after ``state`` (a draw, see below), or NULL.
- ``snapshots``: per table, the rest of the snapshot, its *base*: ``meta`` (seats,
  rules, ...) and ``game`` (the game's fields that change once a hand or so: the
  generator's state, the last closed hand, the result), written again only when they
  change (``snap_seq``: the event it was written with). Apart from ``tables`` because
  SQLite rewrites a whole row on any update: the small row changes with every event
  but a draw, the big one a few times a hand.

So base and state are the whole table at event ``seq``, and a restarted server
loads it from them (:meth:`~chinchon.server.tables.Table.restore`) and the event
stored after ``seq``: the server stores a draw's event without the table's state,
which comes with the discard that completes the turn, so there is at most one, a
draw (:mod:`chinchon.server.commit`), and it waits in the table's row (``pending``)
as well as in the log: resuming a table reads its row and nothing else, and the log
needs no index by table, whose leaf pages a commit of events from many tables would
each dirty (and the WAL take whole). The row's ``seq`` is checked by every write,
the draw's included, so an event is stored only onto the table's stored event before
it.

Schemas: 3 (this one). A database of schema 2 (``pending`` missing; the events
indexed by table) is upgraded in place, in one transaction: each table's draw after
its state is copied from the log into its row and the index dropped (it is no longer
read, and kept it would cost every commit what it did). A database of schema 1, from
before ``state`` existed, has no state: its tables load from the base and the events
after ``snap_seq`` (its events table, WITHOUT ROWID and keyed by ``(table_id, seq)``,
is kept as it is and read through its key), and are stored the new way from their
next event on. A database of a newer schema is refused.

:meth:`Store.write` writes events with their tables' new ``seq``, ``status``,
``state`` and, when it changed, base (or, for a table whose state waits, its draw in
its row), in **one transaction**; the server tells nobody
about an event before the transaction holding it is committed. The server gathers
the events of one turn of its event loop into one such transaction (a group commit):
under load one commit carries many events, at rest each event has its own.

The file is in WAL mode; ``synchronous=NORMAL`` (the default here) keeps every
committed transaction through a crash of the server process (SIGKILL included) and
can lose the last ones only if the operating system itself stops;
``durability="full"`` syncs every commit to disk (power-loss safe, slower). The WAL is
copied back into the database by a thread of the store's own every two seconds
(``checkpoint_seconds``), not by whichever commit fills it (:class:`_Checkpointer`).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Iterator, NamedTuple, Optional, Sequence

__all__ = ["Store", "StoreError", "StoredTable", "TableWrite", "SCHEMA_VERSION"]

log = logging.getLogger("chinchon.server")

SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    status   TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    state    TEXT,
    pending  TEXT
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY,
    snap_seq INTEGER NOT NULL,
    meta     TEXT NOT NULL,
    game     TEXT
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# events in the order they are written (a rowid table: each commit appends to its last
# pages), with no index; schema 1 had them WITHOUT ROWID, keyed by (table_id, seq), and
# such a table is kept as it is; schema 2 indexed them by (table_id, seq)
_EVENTS = """
CREATE TABLE events (
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    record   TEXT NOT NULL,
    at       REAL NOT NULL
);
"""

# the upgrades, in one transaction: from schema 1 (no state: those tables load by
# replay) and from schema 2 (a table's draw after its state, if any, is in the log
# only: copied into its row; the index by table, no longer read, dropped)
_UPGRADE_FROM_1 = ("ALTER TABLE tables ADD COLUMN state TEXT",)
_UPGRADE_FROM_2 = (
    "ALTER TABLE tables ADD COLUMN pending TEXT",
    "UPDATE tables SET pending = (SELECT e.record FROM events e WHERE e.table_id = tables.id "
    "AND e.seq = tables.seq + 1) WHERE state IS NOT NULL",
)
# then, through the index still there: a table with more than one event after its
# state (no server writes that, and a row holds one) refuses the upgrade rather than
# lose or misplace them
_MORE_THAN_ONE_AFTER = ("SELECT t.id FROM tables t WHERE (SELECT COUNT(*) FROM events e "
                        "WHERE e.table_id = t.id AND e.seq > t.seq) > 1 ORDER BY t.id")
_UPGRADE_LAST = "DROP INDEX IF EXISTS events_by_table"


_SELECT = ("SELECT t.id, t.status, t.seq, s.snap_seq, s.meta, s.game, t.state "
           "FROM tables t JOIN snapshots s ON s.table_id = t.id")


class StoreError(Exception):
    """The database refused a write (disk full, a concurrent writer, a stale seq)."""


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its base (``meta``, ``game``), written with event
    ``snap_seq``, and its ``state`` at event ``seq`` (None in a table of schema 1:
    then :meth:`Store.events` gives the events after ``snap_seq``, up to ``seq``)."""

    id: str
    status: str
    seq: int
    snap_seq: int
    meta: str
    game: Optional[str]
    state: Optional[str]


class TableWrite(NamedTuple):
    """One table's part of :meth:`Store.write`: it moves from event ``seq_before`` to
    ``seq``; ``state`` is its state at ``seq``; ``base`` is ``(meta, game)``, or None to
    keep the stored one; ``status`` is None when it did not change."""

    table_id: str
    seq_before: int
    seq: int
    status: Optional[str]
    state: str
    base: Optional[tuple[str, Optional[str]]] = None


#: how long a write waits for another program's lock on the database, in ms: it runs
#: on the event loop, so every table waits as long (opening waits up to 5 s)
WRITE_WAIT_MS = 50


class Store:
    """The server's SQLite database. Used from one thread (the event loop's), but for
    the WAL's checkpoints (see :class:`_Checkpointer`)."""

    def __init__(self, path: str, *, durability: str = "normal",
                 checkpoint_seconds: float = 2.0) -> None:
        if durability not in ("normal", "full"):
            raise ValueError(f"durability must be 'normal' or 'full', got {durability!r}")
        self.path = path
        # autocommit mode: transactions are opened explicitly with BEGIN IMMEDIATE
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={durability.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        if self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                            "name='events'").fetchone() is None:
            self._db.executescript(_EVENTS)
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT value FROM settings WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO settings VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) in (1, 2):
            self._upgrade(int(row[0]))
        elif int(row[0]) != SCHEMA_VERSION:
            raise StoreError(f"{path}: database schema {row[0]}, this server reads "
                             f"schema {SCHEMA_VERSION}")
        # the WAL is copied back into the database by a thread of its own, not by the
        # commit that happens to fill it (see _Checkpointer)
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer = _Checkpointer(path, checkpoint_seconds)
        # opened: from now on the writes run on the event loop, where waiting out
        # another program's lock stops every table; a write that finds one fails soon
        # (the tables reload and the server saves again, see commit.py)
        self._db.execute(f"PRAGMA busy_timeout={WRITE_WAIT_MS}")

    def _upgrade(self, schema: int) -> None:
        """From schema 1 or 2 to this one, in one transaction (see the module
        docstring); refused as a whole (:class:`StoreError`) if a table holds more
        than one event after its state."""
        statements = (_UPGRADE_FROM_1 if schema == 1 else ()) + _UPGRADE_FROM_2
        with self._immediate() as db:
            for sql in statements:
                db.execute(sql)
            odd = [r[0] for r in db.execute(_MORE_THAN_ONE_AFTER)]
            if odd:
                raise StoreError(
                    f"{self.path}: not upgraded from schema {schema}: table(s) "
                    f"{', '.join(odd[:10])} hold more than one event after their "
                    f"stored state, which no server writes")
            db.execute(_UPGRADE_LAST)
            db.execute("UPDATE settings SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))

    def close(self) -> None:
        self._checkpointer.stop()
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def create(self, table_id: str, status: str, meta: str, state: str, record: str) -> None:
        """A new table with its first event (seq 1) and its snapshot after it."""
        now = time.time()
        self._transaction(
            ("INSERT INTO tables (id, status, seq, created, updated, state) "
             "VALUES (?, ?, 1, ?, ?, ?)", (table_id, status, now, now, state)),
            ("INSERT INTO snapshots (table_id, snap_seq, meta, game) VALUES (?, 1, ?, NULL)",
             (table_id, meta)),
            ("INSERT INTO events (table_id, seq, record, at) VALUES (?, 1, ?, ?)",
             (table_id, record, now)),
        )

    def write(self, tables: Sequence[TableWrite], events: Sequence[tuple[str, int, str]],
              pending: Sequence[tuple[str, int, str]] = ()) -> None:
        """Events ``(table_id, seq, record)`` and each table's new ``seq``, ``status``,
        ``state`` (the event waiting in its row, if any, is then in the state) and
        (when given) base, in **one transaction** (the server's group commit: every
        event staged during one turn of the event loop). ``pending``: events
        ``(table_id, seq, record)``, also in ``events``, of tables whose state stays
        at event ``seq - 1``: each waits in its table's row (a draw, see the module
        docstring). Refused as a whole (:class:`StoreError`, nothing written) if a
        table is not at the ``seq_before`` the write expects, or a pending event's table
        not at ``seq - 1`` with none waiting, or if any statement fails."""
        now = time.time()
        with self._immediate() as db:
            for w in tables:
                if w.status is None:
                    cur = db.execute(
                        "UPDATE tables SET seq=?, updated=?, state=?, pending=NULL "
                        "WHERE id=? AND seq=?",
                        (w.seq, now, w.state, w.table_id, w.seq_before))
                else:
                    cur = db.execute(
                        "UPDATE tables SET status=?, seq=?, updated=?, state=?, pending=NULL "
                        "WHERE id=? AND seq=?",
                        (w.status, w.seq, now, w.state, w.table_id, w.seq_before))
                if cur.rowcount != 1:
                    raise StoreError(f"table {w.table_id} is not at event {w.seq_before} "
                                     f"in the database")
                if w.base is not None:
                    db.execute("UPDATE snapshots SET snap_seq=?, meta=?, game=? "
                               "WHERE table_id=?",
                               (w.seq, w.base[0], w.base[1], w.table_id))
            if pending:
                cur = db.executemany(
                    "UPDATE tables SET pending=?, updated=? "
                    "WHERE id=? AND seq=? AND pending IS NULL",
                    [(r, now, t, q - 1) for t, q, r in pending])
                if cur.rowcount != len(pending):  # one row at most each: the id is the key
                    raise StoreError(self._stale(pending))
            db.executemany("INSERT INTO events (table_id, seq, record, at) VALUES (?, ?, ?, ?)",
                           [(t, q, r, now) for t, q, r in events])

    def _stale(self, pending: Sequence[tuple[str, int, str]]) -> str:
        """Why a write of ``pending`` events was refused: which tables were not at the
        event before theirs with none waiting (read in the write's transaction)."""
        stale = []
        for t, q, r in pending:
            row = self._db.execute("SELECT seq, pending FROM tables WHERE id=?", (t,)).fetchone()
            if row is None or row[0] != q - 1 or row[1] != r:  # not (just) written by us
                stale.append(f"{t} (event {q})")
        return (f"table(s) {', '.join(stale[:10]) or '?'} not at the event before with none "
                f"waiting in the database")

    def _transaction(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        with self._immediate() as db:
            for sql, args in statements:
                db.execute(sql, args)

    @contextlib.contextmanager
    def _immediate(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back if it
        raises; a database error becomes a :class:`StoreError`."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"database write failed: {exc}") from exc

    def load(self, table_id: str) -> Optional[StoredTable]:
        row = self._db.execute(_SELECT + " WHERE t.id=?", (table_id,)).fetchone()
        return None if row is None else StoredTable(*row)

    def unfinished(self) -> list[StoredTable]:
        """Every table not over, oldest first: what a restarted server resumes."""
        rows = self._db.execute(_SELECT + " WHERE t.status != 'over' ORDER BY t.created").fetchall()
        return [StoredTable(*r) for r in rows]

    def checkpoints(self) -> int:
        """WAL checkpoints done so far (by the background thread)."""
        return self._checkpointer.done

    def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        """``(seq, record)`` of the table's events after event ``after``, in order.

        After the table's stored state (``after`` at least its ``seq``: what a restarted
        server loads) the answer is in the table's row, the event waiting there if any,
        with no read of the log. Before it the events are read from the log, which has
        no index by table: a scan of every event of every table (but in a database of
        schema 1, whose log is keyed by table), for the history -- replays, checks,
        tests -- not for a running server."""
        row = self._db.execute("SELECT seq, pending FROM tables WHERE id=?",
                               (table_id,)).fetchone()
        if row is not None and after >= row[0]:
            seq, record = row
            return [(seq + 1, record)] if record is not None and seq + 1 > after else []
        rows: list[tuple[int, str]] = self._db.execute(
            "SELECT seq, record FROM events WHERE table_id=? AND seq>? ORDER BY seq",
            (table_id, after)).fetchall()
        return rows


class _Checkpointer:
    """Copies the WAL back into the database every ``seconds``, on a thread and a
    connection of its own (a PASSIVE checkpoint: it never blocks the writer).

    Left to SQLite, the commit that fills the WAL past 1000 pages does the checkpoint
    itself, syncing the files to disk (even with ``synchronous=NORMAL``): under the
    load test one commit in ten took 5-25 ms that way, and the event loop with every
    table waited through it. Here the commits only append to the WAL; what is committed
    is as safe as before (it is in the WAL; a checkpoint only moves it)."""

    def __init__(self, path: str, seconds: float) -> None:
        self.path = path
        self.seconds = seconds
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="chinchon-wal-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=True)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(self.seconds):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.done += 1
                except sqlite3.Error as exc:  # try again next time; the WAL only grows
                    log.warning("WAL checkpoint of %s failed: %s", self.path, exc)
        finally:
            db.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
