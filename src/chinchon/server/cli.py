"""``chinchon serve``: run the table server (needs ``pip install "chinchon[server]"``).

Importing this module needs nothing beyond the core package; Starlette and uvicorn are
imported only when the server starts, so the main CLI can always offer ``serve``.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, Optional, Sequence

from ..bots import SearchBot
from .config import DEFAULT_DB, default_db

__all__ = ["add_arguments", "main", "default_db", "DEFAULT_HOST", "DEFAULT_PORT"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: uvicorn refuses WebSocket frames larger than this outright (close code 1009); the
#: protocol's own, smaller limit answers a too-big message with an error instead
WS_MAX_BYTES = 64 * 1024


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on ({DEFAULT_HOST}; 0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port ({DEFAULT_PORT})")
    p.add_argument("--db", default=None,
                   help=f"SQLite file of the tables, created if missing (default: {DEFAULT_DB})")
    p.add_argument("--reconnect-seconds", type=float, default=None, metavar="S",
                   help="override every table's reconnect wait (default: the rules', 60)")
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="S",
                   help="pause before each bot move, so people can follow (0.8)")
    p.add_argument("--summary-seconds", type=float, default=45.0, metavar="S",
                   help="longest wait in the summary between hands (45)")
    p.add_argument("--rate", type=float, default=20.0, metavar="N",
                   help="messages per second allowed per connection (20)")
    p.add_argument("--burst", type=int, default=40, metavar="N",
                   help="messages allowed at once above --rate (40)")
    p.add_argument("--durability", choices=("normal", "full"), default="normal",
                   help="normal: survives a killed server; full: also a power cut, slower")
    p.add_argument("--search-threads", type=int, default=1, metavar="N",
                   help="threads of each decision of a search bot seat, 1..64 (1): "
                        "the same moves in less time where cores are free")
    p.add_argument("--search-workers", type=int, default=None, metavar="N",
                   help="worker threads that play the search bot seats' decisions while "
                        "the other tables are served (one a core); 0: on the event loop")
    p.add_argument("--max-search-playouts", type=int, default=20_000, metavar="N",
                   help="the largest search budget a table may ask for, in playouts "
                        "(20000)")
    p.add_argument("--max-search-ms", type=int, default=50, metavar="MS",
                   help="the largest search budget a table may ask for, in milliseconds "
                        "(50)")
    p.add_argument("--log-level", default="info",
                   choices=("critical", "error", "warning", "info", "debug"))


def main(args: argparse.Namespace) -> int:
    """Run the server until interrupted. Returns the exit status."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError as exc:
        print(f"chinchon serve: error: {exc.name} is not installed; the server is an "
              f"optional extra: pip install \"chinchon[server]\"", file=sys.stderr)
        return 2
    from .app import create_app_and_wire
    from .manager import ServerConfig

    if not (0 < args.rate <= 1e6 and 1 <= args.burst <= 1e6):
        print(f"chinchon serve: error: --rate must be over 0 and at most 1e6, --burst "
              f"1..1e6, got {args.rate:g} and {args.burst}", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"chinchon serve: error: --port must be 0..65535, got {args.port}",
              file=sys.stderr)
        return 2
    for name in ("reconnect_seconds", "bot_delay", "summary_seconds"):
        value = getattr(args, name)
        if value is not None and not 0 <= value < 1e6:
            print(f"chinchon serve: error: --{name.replace('_', '-')} must be 0..1e6 "
                  f"seconds, got {value}", file=sys.stderr)
            return 2
    if not 1 <= args.search_threads <= SearchBot.MAX_THREADS:
        print(f"chinchon serve: error: --search-threads must be 1..{SearchBot.MAX_THREADS}, "
              f"got {args.search_threads}", file=sys.stderr)
        return 2
    if args.search_workers is not None and not (
            0 <= args.search_workers <= ServerConfig.MAX_SEARCH_WORKERS):
        print(f"chinchon serve: error: --search-workers must be "
              f"0..{ServerConfig.MAX_SEARCH_WORKERS}, got {args.search_workers}",
              file=sys.stderr)
        return 2
    for name in ("max_search_playouts", "max_search_ms"):
        if not 1 <= getattr(args, name) <= SearchBot.MAX_BUDGET:
            print(f"chinchon serve: error: --{name.replace('_', '-')} must be "
                  f"1..{SearchBot.MAX_BUDGET}, got {getattr(args, name)}", file=sys.stderr)
            return 2
    if args.db is not None and not args.db.strip():
        print("chinchon serve: error: --db must name a file, got an empty path",
              file=sys.stderr)
        return 2
    db = args.db or default_db()
    problem = _unusable_db(db, args.durability)
    if problem is not None:
        print(f"chinchon serve: error: the tables' database {db} cannot be opened: "
              f"{problem}", file=sys.stderr)
        return 2
    problem = _unusable_address(args.host, args.port)
    if problem is not None:
        print(f"chinchon serve: error: cannot listen on {_url_host(args.host, False)}:"
              f"{args.port}: {problem}", file=sys.stderr)
        return 2
    config = ServerConfig(db=db, reconnect_seconds=args.reconnect_seconds,
                          bot_delay=args.bot_delay, summary_seconds=args.summary_seconds,
                          rate=args.rate, burst=args.burst, durability=args.durability,
                          search_threads=args.search_threads,
                          search_workers=args.search_workers,
                          max_search_playouts=args.max_search_playouts,
                          max_search_ms=args.max_search_ms)
    try:
        lock = _lock_db(db)  # the last check: a refused start holds nothing
    except OSError as exc:  # e.g. a folder of that name
        print(f"chinchon serve: error: cannot open the lock file {db}.lock of the tables' "
              f"database: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if lock is None:
        print(f"chinchon serve: error: the tables' database {db} is served by another "
              f"chinchon serve (its lock {db}.lock is held)", file=sys.stderr)
        return 2
    where = (f"open http://{_url_host(args.host)}:{args.port}/" if args.port else
             "a free port, which uvicorn's line below names")
    print(f"chinchon serve: tables in {db}; {where}", file=sys.stderr, flush=True)
    _tune_gc()
    # /ws is served by the app's own WebSocket protocol on the transport (.wire)
    app, wire = create_app_and_wire(config)
    try:
        uvicorn.run(app, ws=wire, host=args.host, port=args.port, ws_max_size=WS_MAX_BYTES,
                    ws_ping_interval=20.0, ws_ping_timeout=20.0,
                    ws_per_message_deflate=False, log_level=args.log_level,
                    lifespan="on", access_log=args.log_level == "debug")
    finally:
        lock.close()  # the lock goes with it (and with the process, however it ends)
    return 0


#: the garbage collector's thresholds while serving (Python's: 700, 10, 10)
GC_THRESHOLDS = (20_000, 20, 50)


def _tune_gc() -> None:
    """Collect less often. The server allocates a few hundred objects per message and
    holds every live table, so that with Python's thresholds it collected about 25
    times a second under the load test, 40 ms a second in all, with pauses up to 90 ms
    (a full collection walks every table) that every connection waits through. The
    server keeps few reference cycles; the objects of the start (modules, presets) are
    moved out of the collector's way for good (``gc.freeze``)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _unusable_db(db: str, durability: str) -> Optional[str]:
    """Why the SQLite file ``db`` cannot hold the tables (its folder made if missing),
    or None: found before the server starts, where the error is one line."""
    import sqlite3
    from pathlib import Path

    from .store import Store, StoreError

    try:
        Path(db).parent.mkdir(parents=True, exist_ok=True)
        Store(db, durability=durability).close()
    except (OSError, sqlite3.Error, StoreError) as exc:  # StoreError: another schema
        return str(exc)
    return None


def _lock_db(db: str) -> Optional[BinaryIO]:
    """The open lock file of the tables' database ``db`` (``db + '.lock'``), locked
    until it is closed or the process ends, or None when another process holds it:
    two servers on one file each wrote their own events into the other's tables, and
    broke them."""
    handle = open(db + ".lock", "a+b")  # noqa: SIM115 - the caller closes it
    try:
        if sys.platform == "win32":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def _unusable_address(host: str, port: int) -> Optional[str]:
    """Why the server could not listen on ``host``:``port`` (a name that does not
    resolve, an address not of this machine, a port in use or not allowed), or None.
    Each address the name resolves to is bound as the server will bind it (asyncio's
    ``create_server``: every address, ``SO_REUSEADDR``) and released at once, so the
    error is one line before the server starts, not uvicorn's log line and exit 3."""
    import socket

    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in infos:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == getattr(socket, "AF_INET6", None):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _url_host(host: str, browsable: bool = True) -> str:
    if browsable and host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def run(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m chinchon.server [options]``: the same as ``chinchon serve``."""
    parser = argparse.ArgumentParser(prog="python -m chinchon.server",
                                     description="Run the chinchon table server.")
    add_arguments(parser)
    return main(parser.parse_args(argv))
