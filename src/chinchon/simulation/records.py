"""Per-game records of a simulation as a Parquet dataset (needs pyarrow: the ``dask``
extra, ``pip install "chinchon[dask]"``).

``simulate(..., records=PATH)`` makes ``PATH`` a directory of parts, one per chunk of
games, each written by the worker that played the chunk: ``part-<first index, 12
digits>.parquet``. A part is written under a hidden temporary name and renamed into
place, so a reader never sees half a part, and a chunk played again (its worker died)
replaces its part instead of adding a second copy. ``_chinchon.json`` beside the parts
describes the simulation. pyarrow and pandas read the directory as one table (names
starting with ``.`` or ``_`` are not data): ``pandas.read_parquet(PATH)``,
``pyarrow.dataset.dataset(PATH)``, or :func:`read_records` (sorted by game).

One row per game (``COLUMNS``). Lists per seat (``bots``, ``rejoins``, ``totals``) are in
seat order; lists per closed hand (``turns``, ``endings``) in hand order; ``points`` is
every seat's hand points in every scored hand (void hands score nothing), hand by hand,
closer first, in the order that :class:`~chinchon.game.HandResult` lists them, and
``point_seats`` the seat each of them is.

``_chinchon.json`` carries ``format`` (:data:`FORMAT`: what a reader of these columns
checks; a folder without it is from before the ``point_seats`` column), the run's
parameters and, once the run is over, its ``run``: engine, jobs, seconds.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import RecordsError
from ..game.rng import Rng
from .extras import extra_module
from .play import GameRecord, game_seed

if TYPE_CHECKING:
    from .chunks import SimulationParams

__all__ = ["COLUMNS", "FORMAT", "read_records", "part_name", "part_paths", "read_meta"]

#: the version of the records' layout (columns and ``_chinchon.json``), in the metadata
FORMAT = 2

#: the columns of a records table, with what each holds
COLUMNS = {
    "index": "the game's index in the simulation (with the seed, all it depends on)",
    "seed": "the simulation's seed, in decimal (it may pass 64 bits)",
    "game_seed": "the table's seed: game_seed(seed, index)",
    "players": "seats at the table",
    "bots": "the bot at each seat",
    "rules": "the rules' preset name, or 'custom'",
    "status": "'won', 'draw', 'cancelled' or 'stalled'",
    "winner": "the winning seat (null unless won)",
    "winner_bot": "the winning seat's bot (null unless won)",
    "lead": "the seat that led the first hand (the table generator's first draw)",
    "hands": "hands played",
    "turns": "turns of each closed hand",
    "endings": "how each closed hand ended: normal, minus_ten, chinchon, joker_chinchon, void",
    "points": "hand points of every seat in every scored hand, hand by hand",
    "rejoins": "rejoins each seat used",
    "totals": "each seat's final total",
    "point_seats": "the seat of each of points",
}

_PREFIX, _SUFFIX = "part-", ".parquet"
#: the file of a records folder that describes its run (read by :func:`read_meta`)
META_FILE = "_chinchon.json"


def _pyarrow() -> Any:
    """pyarrow, its ``parquet`` submodule (``write_table``) loaded too."""
    return extra_module("pyarrow", "parquet", needs="per-game records need pyarrow",
                        extra="dask", also=" (or pip install pyarrow)")


def _schema(pa: Any) -> Any:
    i64, text = pa.int64(), pa.string()
    types = {"index": i64, "seed": text, "game_seed": i64, "players": i64,
             "bots": pa.list_(text), "rules": text, "status": text, "winner": i64,
             "winner_bot": text, "lead": i64, "hands": i64, "turns": pa.list_(i64),
             "endings": pa.list_(text), "points": pa.list_(i64), "rejoins": pa.list_(i64),
             "totals": pa.list_(i64), "point_seats": pa.list_(i64)}
    return pa.schema([(name, types[name]) for name in COLUMNS])


def first_lead(seed: int, index: int, players: int) -> int:
    """The seat that leads the first hand of game ``index``: the table's generator's
    first draw (``GameState`` draws the lead before the first shuffle), so it follows
    from ``(seed, index)`` alone, whichever engine played the game."""
    return Rng(game_seed(seed, index)).below(players)


def part_name(start: int) -> str:
    """The file name of the part whose first game is ``start``."""
    return f"{_PREFIX}{start:012d}{_SUFFIX}"


def _rows(params: SimulationParams, records: Sequence[GameRecord]) -> dict[str, list[Any]]:
    names = params.bot_names
    rules = params.rules.preset_name or "custom"
    won = [r.winner if r.status == "won" else None for r in records]
    return {
        "index": [r.index for r in records],
        "seed": [str(params.seed)] * len(records),
        "game_seed": [game_seed(params.seed, r.index) for r in records],
        "players": [params.players] * len(records),
        "bots": [names] * len(records),
        "rules": [rules] * len(records),
        "status": [r.status for r in records],
        "winner": won,
        "winner_bot": [None if w is None else names[w] for w in won],
        "lead": [first_lead(params.seed, r.index, params.players) for r in records],
        "hands": [r.hands for r in records],
        "turns": [r.turns for r in records],
        "endings": [r.outcomes for r in records],
        "points": [r.points for r in records],
        "rejoins": [r.rejoins for r in records],
        "totals": [r.totals for r in records],
        "point_seats": [r.point_seats for r in records],
    }


def write_part(params: SimulationParams, start: int, records: Sequence[GameRecord]) -> Path:
    """Write the part of the games from ``start`` (atomically: a temporary file renamed
    over the part's name, so a retried chunk replaces its part)."""
    pa = _pyarrow()
    assert params.records is not None
    folder = Path(params.records)
    table = pa.Table.from_pydict(_rows(params, records), schema=_schema(pa))
    final = folder / part_name(start)
    temp = folder / f".{final.name}.{uuid.uuid4().hex}.tmp"
    try:
        pa.parquet.write_table(table, temp)
        os.replace(temp, final)
    finally:
        if temp.exists():
            temp.unlink()
    return final


def prepare(path: str, params: SimulationParams, games: int) -> str:
    """Make ``path`` an empty records directory for this simulation and return it as an
    absolute path (the workers may run elsewhere: a shared filesystem's path). The
    parts of an earlier run there are removed; any other file is left and refused. A
    path that is empty (it would be the current directory) or a directory that cannot
    be made or written is a :class:`~chinchon.errors.RecordsError` naming it."""
    if not path:
        raise RecordsError("records: the path is empty (it would be the current "
                           "directory); name a new or empty directory for the records")
    try:  # pyarrow writes the parts by UTF-8 names: said now, not after the games
        str(path).encode("utf-8")
        if "\0" in str(path):
            raise ValueError("a NUL character")
    except (UnicodeError, ValueError) as exc:
        raise RecordsError(f"records: the path {str(path)!r} cannot name the records' "
                           f"files ({'not UTF-8' if isinstance(exc, UnicodeError) else exc})"
                           ) from None
    _pyarrow()  # the clear error here, before any worker needs it
    folder = Path(path).absolute()
    doing = "make"
    try:
        if folder.exists() and not folder.is_dir():
            raise RecordsError(f"records: {str(folder)!r} is a file; records are a "
                               "directory of Parquet parts (pick a new name)")
        folder.mkdir(parents=True, exist_ok=True)
        doing = "read"
        entries = list(folder.iterdir())
    except OSError as exc:
        raise RecordsError(f"records: cannot {doing} the directory {str(folder)!r}: "
                           f"{exc.strerror or exc}") from None
    ours = []
    for p in entries:
        if _is_ours(p.name):
            ours.append(p)
        else:
            raise RecordsError(f"records: {str(folder)!r} holds {p.name!r}, not a file of "
                               "chinchon's records (pick an empty or new directory)")
    data = sorted(p.name for p in ours if p.name != META_FILE)
    if data and not _written_by_us(folder / META_FILE):
        # parts by our names but no description of a run: another program's dataset
        raise RecordsError(f"records: {str(folder)!r} holds {data[0]!r} but no "
                           f"{META_FILE} of a chinchon run, so it is not an earlier run's "
                           "records (pick an empty or new directory)")
    if (folder / META_FILE).exists() and not _written_by_us(folder / META_FILE):
        raise RecordsError(f"records: {str(folder)!r} holds a {META_FILE} that no "
                           "chinchon run wrote (pick an empty or new directory)")
    from .._version import __version__

    meta = {"format": FORMAT, "chinchon": __version__, "games": games,
            "players": params.players, "bots": params.bot_names,
            "seed": str(params.seed), "rules": params.rules.to_dict(),
            "rules_name": params.rules.preset_name, "max_turns": params.max_turns,
            "columns": COLUMNS}
    try:
        for p in ours:
            p.unlink()
        (folder / META_FILE).write_text(json.dumps(meta, indent=1) + "\n")
    except OSError as exc:
        raise RecordsError(f"records: cannot write into the directory {str(folder)!r}: "
                           f"{exc.strerror or exc}") from None
    return str(folder)


#: a part's name (part_name), and the temporary name write_part writes it under
_PART = re.compile(r"part-[0-9]{12,}\.parquet")
_TEMP = re.compile(r"\.part-[0-9]{12,}\.parquet\.[0-9a-f]{32}\.tmp")


def _is_ours(name: str) -> bool:
    return name == META_FILE or bool(_PART.fullmatch(name) or _TEMP.fullmatch(name))


def _written_by_us(meta: Path) -> bool:
    """Whether ``meta`` is a ``_chinchon.json`` that a run of chinchon wrote (its format
    and version named), not merely a file of that name."""
    try:
        found = json.loads(meta.read_text())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(found, dict) and "format" in found and "chinchon" in found


def finish(path: str, starts: Sequence[int], run: dict[str, Any] | None = None) -> None:
    """After a run: remove the temporary files of attempts that died, and check that
    every chunk's part is there (a worker that wrote to a path this machine does not
    see, not a shared filesystem, would leave them missing); ``run`` (engine, jobs,
    seconds) is added to ``_chinchon.json``, for a report made later."""
    folder = Path(path)
    for p in folder.glob(f".{_PREFIX}*.tmp"):
        p.unlink(missing_ok=True)
    missing = [s for s in starts if not (folder / part_name(s)).exists()]
    if missing:
        raise RecordsError(f"records: {len(missing)} of {len(starts)} parts are missing "
                           f"from {path!r} (the first: {part_name(missing[0])}); do the "
                           "workers write to a filesystem this machine shares?")
    if run is not None:
        meta_path = folder / META_FILE
        meta = json.loads(meta_path.read_text())
        meta["run"] = run
        meta_path.write_text(json.dumps(meta, indent=1) + "\n")


def read_records(path: str, columns: Sequence[str] | None = None) -> Any:
    """The records under ``path`` as one ``pyarrow.Table``, sorted by game index
    (``.to_pandas()`` for a DataFrame); a folder of no game (``simulate(0, ...)``)
    gives a table of no row, and a missing one is a :class:`RecordsError`."""
    pa = _pyarrow()
    import pyarrow.dataset as ds

    if not Path(path).is_dir():
        raise RecordsError(f"records: no folder {path!r}")
    cols = None if columns is None else list(dict.fromkeys(["index", *columns]))
    table = ds.dataset(path, format="parquet", schema=_schema(pa)).to_table(columns=cols)
    table = table.sort_by("index")
    if columns is not None and "index" not in columns:
        table = table.drop_columns(["index"])
    assert isinstance(table, pa.Table)
    return table


def part_paths(path: str) -> list[Path]:
    """The parts under ``path`` (a records folder), in game order."""
    return sorted(p for p in Path(path).iterdir()
                  if p.name.startswith(_PREFIX) and p.name.endswith(_SUFFIX))


def read_meta(path: str) -> Any:
    """The decoded ``_chinchon.json`` of the records folder ``path``; None where there
    is none (OSError or ValueError where it cannot be read or decoded)."""
    meta = Path(path) / META_FILE
    if not meta.is_file():
        return None
    return json.loads(meta.read_text())
