"""A simulation's report: one self-contained HTML file with the run's parameters and its
plots (:mod:`.plot`; the ``plot`` extra), from a :class:`SimulationResult` just made
(``chinchon simulate --report run.html``) or from the Parquet records of a run, made
later and elsewhere (``chinchon report RECORDS_DIR --out run.html``; the ``dask``
extra's pyarrow reads them). ``--compare A B`` sets two runs side by side, with what
changes from A to B and its 95% interval.

The file needs nothing else to open: the figures are PNG images inside it (``data:``
URLs), the style is inline, there is no script and no address of any other place.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from .._args import finite
from .._version import __version__
from ..errors import RecordsError, shown
from ..game.deck import MAX_PLAYERS, MIN_PLAYERS
from ..game.records import RESULT_STATUSES
from ..results import HAND_OUTCOMES
from ..rules import Rules
from .plot import KINDS, differences, figure
from .stats import SimulationResult

__all__ = ["Run", "run_of", "load_records", "render", "write_report", "CAPTIONS"]

#: what each figure shows, as the report says it
CAPTIONS = {
    "wins": "Share of the games won by each seat and by each bot (all its seats), with 95% "
            "intervals (Wilson); the dashes are the share a seat, or a bot's seats, would "
            "win if every seat were equal. Draws, cancelled and stalled games count as "
            "not won.",
    "points": "Hand points per bot: the points each of its seats scored in each scored "
              "hand (void hands score nothing); its mean and 95% interval in the legend.",
    "length": "Hands per game and turns (discards) per hand, as shares; the dotted lines "
              "are the means.",
    "endings": "How the hands ended: a normal close, minus ten, chinchón, joker chinchón, "
               "or void (no close before the stock ran down), per rules preset.",
}


@dataclass
class Run:
    """One run to report on: a label, its statistics, and its parameters as the report
    lists them (games/s and the like, which the statistics alone do not hold)."""

    label: str
    result: SimulationResult
    params: dict[str, Any] = field(default_factory=dict)


def run_of(result: SimulationResult, label: str = "", **extra: Any) -> Run:
    """A :class:`Run` of a result just made; ``extra`` parameters (``max_turns``,
    ``records`` ...) are listed after the result's own."""
    rules = result.rules if result.rules is not None else Rules()
    params: dict[str, Any] = {
        "games": result.games,
        "players": result.players,
        "bots": ", ".join(f"{s}: {b}" for s, b in enumerate(result.bots)),
        "seed": result.seed,
        "rules": rules.preset_name or "custom",
        "engine": result.engine,
        "jobs": result.jobs,
        "seconds": round(result.seconds, 3),
        "games/s": round(result.games_per_second),
        "chinchon": __version__,
    }
    params.update({k: v for k, v in extra.items() if v is not None})
    return Run(label or f"seed {result.seed}", result, params)


# -- records -------------------------------------------------------------------------

def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.compute  # noqa: F401
        import pyarrow.dataset  # noqa: F401
    except ImportError as exc:
        raise ImportError("reading records needs pyarrow: pip install 'chinchon[dask]' "
                          "(or pip install pyarrow)") from exc
    return pyarrow


def load_records(path: str, label: str = "") -> Run:
    """The :class:`Run` of the records under ``path`` (``simulate(..., records=path)``):
    its statistics, equal to those the run returned (``stats()``), and its parameters.
    A :class:`~chinchon.errors.RecordsError` when the folder is missing, holds no games,
    is of another version of the records, has a ``_chinchon.json`` that lacks a key the
    report reads or holds a bad value there (the message names the key), or mixes
    simulations (rule sets, bots, seeds)."""
    from .records import COLUMNS, FORMAT, META_FILE, _schema, part_paths, read_meta

    folder = Path(path)
    shown_path = repr(str(path))
    if not folder.exists():
        raise RecordsError(f"records: no folder {shown_path}")
    if not folder.is_dir():
        raise RecordsError(f"records: {shown_path} is a file, not a records folder "
                           "(simulate --records DIR writes one)")
    if not part_paths(str(folder)):
        if (folder / META_FILE).exists():  # a run of no games: nothing to show
            raise RecordsError(f"records: {shown_path} holds a run of no games; write one "
                               f"of at least one with chinchon simulate --games N "
                               f"--records {path}")
        raise RecordsError(f"records: {shown_path} holds no games (no part-*.parquet); "
                           f"write them with chinchon simulate --records {path}")
    try:
        meta = read_meta(str(folder))
    except (OSError, ValueError, RecursionError) as exc:
        raise RecordsError(f"records: {shown_path}: _chinchon.json is unreadable "
                           f"({exc})") from None
    if meta is None:
        raise RecordsError(f"records: {shown_path} has no _chinchon.json: not a folder that "
                           "chinchon simulate --records wrote")
    if not isinstance(meta, dict):
        raise RecordsError(f"records: {shown_path}: _chinchon.json holds a "
                           f"{type(meta).__name__}, not an object of the run's parameters")
    fmt = meta.get("format", 1)
    if fmt != FORMAT:
        made = meta.get("chinchon", "before 0.1.0")
        raise RecordsError(f"records: {shown_path} are of records format {fmt} (chinchon "
                           f"{made}); chinchon {__version__} reads format {FORMAT}: run the "
                           "simulation again with this version")
    _check_meta(meta, shown_path)
    pa = _pyarrow()
    import pyarrow.compute as pc
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    want = _schema(pa)
    try:
        for part in part_paths(str(folder)):  # each part: the dataset takes the first's
            schema = pq.read_schema(part)
            lacks = [c for c in COLUMNS if c not in schema.names]
            if lacks:
                raise RecordsError(f"records: {shown_path}: {part.name} lacks the "
                                   f"column(s) {', '.join(lacks)}: records of another "
                                   f"version of chinchon (this one is {__version__}); "
                                   "run the simulation again with it")
            for column in COLUMNS:  # the types simulate writes: the counts read them so
                got = schema.field(column).type
                if got != want.field(column).type:
                    raise RecordsError(f"records: {shown_path}: {part.name}'s column "
                                       f"{column} holds {got}, not "
                                       f"{want.field(column).type}: not a part chinchon "
                                       "simulate writes")
        table = ds.dataset(str(folder), format="parquet").to_table()
    except (OSError, pa.ArrowException) as exc:
        raise RecordsError(f"records: {shown_path} cannot be read: {exc}") from None

    def distinct(column: str) -> list[Any]:
        return sorted(pc.unique(table.column(column)).to_pylist(), key=str)

    rule_sets = distinct("rules")
    if len(rule_sets) > 1:
        raise RecordsError(f"records: {shown_path} mixes rule sets "
                           f"({', '.join(map(str, rule_sets))}); a report is of one run: "
                           "chinchon report --compare A B sets two side by side")
    named = meta["rules_name"] or "custom"
    if rule_sets != [named]:
        raise RecordsError(f"records: {shown_path} holds games of the rules "
                           f"{', '.join(map(str, rule_sets))}, but its _chinchon.json "
                           f"says {named}: a part of another run?")
    said = Rules.from_dict(meta["rules"]).preset_name  # checked by _check_meta
    if said != meta["rules_name"]:
        raise RecordsError(f"records: {shown_path}: _chinchon.json's 'rules' are "
                           f"{'the preset ' + said if said else 'custom rules'}, but its "
                           f"'rules_name' says {meta['rules_name'] or 'custom'}")
    for column, want in (("seed", str(meta["seed"])), ("players", meta["players"])):
        values = distinct(column)
        if values != [want]:
            raise RecordsError(f"records: {shown_path} mixes simulations ({column} "
                               f"{', '.join(map(str, values))}); a report is of one run")
    if pc.unique(pc.binary_join(table.column("bots"), ",")).to_pylist() != \
            [",".join(meta["bots"])]:
        raise RecordsError(f"records: {shown_path} mixes simulations (different bots); "
                           "a report is of one run")
    n = table.num_rows
    if len(pc.unique(table.column("index"))) != n:
        raise RecordsError(f"records: {shown_path} holds a game twice (parts of two runs?)")
    if n != meta["games"]:
        raise RecordsError(f"records: {shown_path} holds {n} of the run's {meta['games']} "
                           "games (an unfinished run, or parts missing)")
    _check_rows(table, int(meta["players"]), shown_path)
    result = _statistics(table, meta)
    run = meta.get("run") or {}
    result.seconds = float(run.get("seconds", 0.0))
    result.jobs = int(run.get("jobs", 1))
    result.engine = str(run.get("engine", "?"))
    return run_of(result, label or folder.name, max_turns=meta.get("max_turns"),
                  records=str(folder), chinchon=meta.get("chinchon"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seed(value: object) -> bool:
    """A simulation's seed as ``_chinchon.json`` keeps it: its decimal text (an int
    read as one too)."""
    if _is_int(value):
        return True
    if not isinstance(value, str):
        return False
    try:
        int(value)
    except ValueError:
        return False
    return True


def _is_run(value: object) -> bool:
    """The ``run`` of ``_chinchon.json``: an object of the run's engine (text), jobs (an
    int >= 1) and seconds (a finite number >= 0), each of them optional."""
    if not isinstance(value, dict):
        return False
    seconds, jobs = value.get("seconds", 0.0), value.get("jobs", 1)
    return (isinstance(value.get("engine", ""), str) and _is_int(jobs) and jobs >= 1
            and isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
            and finite(seconds) and seconds >= 0)



#: the keys of ``_chinchon.json`` a report reads: what each must hold, its test, and
#: whether it must be there (a report does without ``max_turns``, ``chinchon``, ``run``)
_META_KEYS: dict[str, tuple[str, Callable[[Any], bool], bool]] = {
    "games": ("an int >= 0", lambda v: _is_int(v) and v >= 0, True),
    "players": (f"an int {MIN_PLAYERS}..{MAX_PLAYERS}",
                lambda v: _is_int(v) and MIN_PLAYERS <= v <= MAX_PLAYERS, True),
    "bots": ("a list of bot names, one per seat",
             lambda v: isinstance(v, list) and all(isinstance(b, str) for b in v), True),
    "seed": ("the simulation's seed, an int in decimal text", _is_seed, True),
    "rules": ("an object of the rules' fields", lambda v: isinstance(v, dict), True),
    "rules_name": ("the rules preset's name, or null for custom rules",
                   lambda v: v is None or isinstance(v, str), True),
    "max_turns": ("an int >= 1", lambda v: v is None or _is_int(v) and v >= 1, False),
    "chinchon": ("a version, as text", lambda v: v is None or isinstance(v, str), False),
    "run": ("an object of the run's engine (text), jobs (an int >= 1) and seconds (a "
            "finite number >= 0)",
            lambda v: v is None or _is_run(v), False),
}


def _check_meta(meta: dict[str, Any], shown_path: str) -> None:
    """A :class:`RecordsError` naming the first key of ``_chinchon.json`` that is
    missing or does not hold what the report reads from it."""
    where = f"records: {shown_path}: _chinchon.json"
    for key, (want, test, required) in _META_KEYS.items():
        if key not in meta:
            if not required:
                continue
            raise RecordsError(f"{where} lacks the key {key!r} ({want}), which chinchon "
                               "simulate --records writes")
        if not test(meta[key]):
            raise RecordsError(f"{where}: {key!r} must be {want}, got "
                               f"{shown(meta[key])}")
    if len(meta["bots"]) != meta["players"]:
        raise RecordsError(f"{where}: 'bots' names {len(meta['bots'])} bots for "
                           f"{meta['players']} players")
    try:
        Rules.from_dict(meta["rules"])
    except (TypeError, ValueError) as exc:
        raise RecordsError(f"{where}: 'rules' holds no valid rules: {exc}") from None


#: a game's status in the records (``GameRecord.status``): a finished game's, or
#: ``'stalled'`` (stopped by ``max_turns`` or ``MAX_HANDS``)
STATUSES = RESULT_STATUSES + ("stalled",)


def _check_rows(table: Any, players: int, shown_path: str) -> None:
    """A :class:`RecordsError` naming the first game whose row no simulation writes: a
    status not of :data:`STATUSES`, a winner that is not a seat of a won game (or one
    of a game not won), a list per seat not of ``players`` entries, ``point_seats`` and
    ``points`` (``endings`` and ``turns``) of different lengths, an ending not of
    ``HAND_OUTCOMES``, a point's seat that is none: the statistics would be wrong or
    could not be counted."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    def length(column: str) -> Any:
        return pc.list_value_length(table.column(column)).fill_null(-1).to_numpy()

    def first_bad(ok: Any, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok, dtype=bool))
        if len(bad):
            index = table.column("index")[int(bad[0])].as_py()
            raise RecordsError(f"records: {shown_path}: the game of index {index} {what}: "
                               "not a row chinchon simulate writes")

    def rows_of(column: str, ok: Any) -> Any:
        """Per row: whether every entry of the list column passes ``ok`` (flat)."""
        good = np.ones(table.num_rows, dtype=bool)
        parents = pc.list_parent_indices(table.column(column)).to_numpy()
        good[parents[~np.asarray(ok, dtype=bool)]] = False
        return good

    status = table.column("status")
    first_bad(pc.is_in(status, value_set=pa.array(STATUSES)).fill_null(False).to_numpy(
        zero_copy_only=False), f"has a status not of {', '.join(STATUSES)}")
    won = pc.equal(status, "won").to_numpy(zero_copy_only=False)
    winner = table.column("winner")
    seat = pc.and_(pc.greater_equal(winner, 0), pc.less(winner, players)).fill_null(False)
    first_bad(np.where(won, seat.to_numpy(zero_copy_only=False),
                       pc.is_null(winner).to_numpy(zero_copy_only=False)),
              f"has a winner that is not a seat 0..{players - 1} of a won game")
    for column in ("bots", "rejoins", "totals"):
        first_bad(length(column) == players, f"has a {column} list not of {players} seats")
    first_bad(length("point_seats") == length("points"),
              "has point_seats and points of different lengths")
    first_bad(length("endings") == length("turns"),
              "has endings and turns of different lengths")
    endings = pc.list_flatten(table.column("endings"))
    first_bad(rows_of("endings", pc.is_in(endings, value_set=pa.array(HAND_OUTCOMES))
                      .fill_null(False).to_numpy(zero_copy_only=False)),
              f"has an ending not of {', '.join(HAND_OUTCOMES)}")
    seats = pc.list_flatten(table.column("point_seats"))
    first_bad(rows_of("point_seats", pc.and_(pc.greater_equal(seats, 0),
                                             pc.less(seats, players))
                      .fill_null(False).to_numpy(zero_copy_only=False)),
              f"has a point's seat that is not a seat 0..{players - 1}")
    for column in table.column_names:  # a null where simulate writes none, or in a list
        col = table.column(column)
        if column not in ("winner", "winner_bot"):  # null unless won (checked above)
            first_bad(~pc.is_null(col).to_numpy(zero_copy_only=False),
                      f"has no {column} (null)")
        if pa.types.is_list(col.type):
            items = pc.is_null(pc.list_flatten(col)).to_numpy(zero_copy_only=False)
            first_bad(rows_of(column, ~items), f"has a null in its {column} list")


def _statistics(table: Any, meta: dict[str, Any]) -> SimulationResult:
    """The statistics of a records table, counted by pyarrow and numpy (no Python object
    per game): equal to :func:`~chinchon.simulation.stats.aggregate` of the games."""
    import numpy as np
    import pyarrow.compute as pc

    def counts(array: Any) -> dict[Any, int]:
        vc = pc.value_counts(array)
        return {v: int(c) for v, c in zip(vc.field(0).to_pylist(), vc.field(1).to_pylist())
                if v is not None}

    def flat(column: str) -> Any:
        return pc.list_flatten(table.column(column))

    players, bots = int(meta["players"]), list(meta["bots"])
    status = counts(table.column("status"))
    winners = counts(pc.filter(table.column("winner"),
                               pc.equal(table.column("status"), "won")))
    wins_per_seat = [winners.get(s, 0) for s in range(players)]
    wins_per_bot = dict.fromkeys(bots, 0)
    for s, w in enumerate(wins_per_seat):
        wins_per_bot[bots[s]] += w
    endings = dict.fromkeys(HAND_OUTCOMES, 0)
    endings.update(counts(flat("endings")))
    points = np.asarray(flat("points").to_numpy(zero_copy_only=False), dtype=np.int64)
    seats = np.asarray(flat("point_seats").to_numpy(zero_copy_only=False), dtype=np.int64)
    per_seat = []
    for s in range(players):
        values, k = np.unique(points[seats == s], return_counts=True)
        per_seat.append({int(v): int(c) for v, c in zip(values, k)})
    rejoins = np.asarray(flat("rejoins").to_numpy(zero_copy_only=False), dtype=np.int64)
    rejoins_per_seat = [int(x) for x in rejoins.reshape(-1, players).sum(axis=0)] \
        if len(rejoins) else [0] * players
    turns = flat("turns")
    return SimulationResult(
        games=table.num_rows,
        players=players,
        bots=bots,
        seed=int(meta["seed"]),
        wins_per_seat=wins_per_seat,
        wins_per_bot=wins_per_bot,
        draws=status.get("draw", 0),
        cancelled=status.get("cancelled", 0),
        stalled=status.get("stalled", 0),
        hands=int(pc.sum(table.column("hands")).as_py() or 0),
        hands_per_game=dict(sorted(counts(table.column("hands")).items())),
        turns=int(pc.sum(turns).as_py() or 0),
        turns_per_hand=dict(sorted(counts(turns).items())),
        endings=endings,
        rejoins=sum(rejoins_per_seat),
        rejoins_per_seat=rejoins_per_seat,
        points=dict(sorted(counts(flat("points")).items())),
        points_per_seat=per_seat,
        rules=Rules.from_dict(meta["rules"]),
    )


# -- HTML ----------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.differs td { background: #fff3cd; }
tr.clear td { font-weight: 600; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.9em; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    # no metadata: the same figure gives the same bytes, and no software's address
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]], cls: str = "",
           row_classes: Optional[Sequence[str]] = None) -> str:
    out = [f'<table class="{_e(cls)}">', "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in header)
           + "</tr>"]
    for i, row in enumerate(rows):
        rc = row_classes[i] if row_classes else ""
        cells = "".join(f'<td class="num">{_e(c)}</td>' if isinstance(c, (int, float))
                        and not isinstance(c, bool) else f"<td>{_e(c)}</td>" for c in row)
        out.append(f'<tr class="{rc}">{cells}</tr>' if rc else f"<tr>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def _rules_rows(runs: Sequence[Run]) -> tuple[list[list[Any]], list[str]]:
    dicts = [(r.result.rules or Rules()).to_dict() for r in runs]
    rows, classes = [], []
    for key in dicts[0]:
        values = [d.get(key) for d in dicts]
        rows.append([key, *[json.dumps(v) if isinstance(v, (list, bool)) or v is None else v
                            for v in values]])
        classes.append("differs" if any(v != values[0] for v in values) else "")
    return rows, classes


def render(runs: Sequence[Run], title: str = "") -> str:
    """The report of one run, or of two side by side (with their differences), as the
    text of a self-contained HTML page."""
    runs = list(runs)
    if not 1 <= len(runs) <= 2:
        raise RecordsError(f"a report is of one run or two compared, got {len(runs)}")
    labels = [r.label for r in runs]
    if len(runs) == 2 and labels[0] == labels[1]:
        labels = [f"A: {labels[0]}", f"B: {labels[1]}"]
    title = title or ("chinchon simulation: " + " vs ".join(labels))
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{_e(title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
             f"<h1>{_e(title)}</h1>"]
    keys = list(dict.fromkeys(k for r in runs for k in r.params))
    parts.append('<h2 id="parameters">The run' + ("s" if len(runs) > 1 else "") + "</h2>")
    parts.append(_table(["parameter", *labels],
                        [[k, *[r.params.get(k, "") for r in runs]] for k in keys],
                        "parameters"))
    rows, classes = _rules_rows(runs)
    parts.append('<h2 id="rules">The rules</h2>')
    if len(runs) > 1:
        parts.append("<p>Rows that differ between the runs are highlighted.</p>")
    parts.append(_table(["field", *labels], rows, "rules", classes))
    parts.append(_summary(runs, labels))
    if len(runs) == 2:
        parts.append(_differences(runs, labels))
    pairs = [(label, r.result) for label, r in zip(labels, runs)]
    plotted = pairs[0][1] if len(pairs) == 1 else pairs
    parts.append('<h2 id="plots">Plots</h2>')
    for kind in KINDS:
        fig = figure(plotted, kind)
        alt = CAPTIONS[kind].split(":")[0].split(",")[0]
        parts.append(f'<figure id="figure-{kind}" class="plot">'
                     f'<img alt="{_e(alt)}" src="data:image/png;base64,{_png(fig)}">'
                     f"<figcaption>{_e(CAPTIONS[kind])}</figcaption></figure>")
    parts.append(f"<p><small>Made by chinchon {_e(__version__)}.</small></p>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def _summary(runs: Sequence[Run], labels: Sequence[str]) -> str:
    rows = []
    for r, label in zip(runs, labels):
        x = r.result
        rows.append([label, x.games, x.draws, x.cancelled, x.stalled,
                     round(x.mean_hands_per_game, 2), round(x.mean_turns_per_hand, 1),
                     x.rejoins])
    return ('<h2 id="summary">Summary</h2>' + _table(
        ["run", "games", "draws", "cancelled", "stalled", "hands per game (mean)",
         "turns per hand (mean)", "rejoins"], rows, "summary"))


def _differences(runs: Sequence[Run], labels: Sequence[str]) -> str:
    rows, classes = [], []
    for d in differences(runs[0].result, runs[1].result):
        u = d["unit"]
        rows.append([d["measure"], f"{d['a']:.2f}{u}", f"{d['b']:.2f}{u}",
                     f"{d['difference']:+.2f}{u}", f"{d['low']:+.2f}{u} to {d['high']:+.2f}{u}"])
        classes.append("clear" if d["low"] > 0 or d["high"] < 0 else "")
    return ('<h2 id="differences">What changes from A to B</h2>'
            "<p>B minus A, with its 95% interval (normal approximation, the runs "
            "independent); in bold where the interval leaves out zero.</p>"
            + _table(["measure", labels[0], labels[1], "B - A", "95% interval"], rows,
                     "differences", classes))


def write_report(path: str, runs: Sequence[Run], title: str = "") -> Path:
    """Write :func:`render`'s page to ``path`` (UTF-8) and return it."""
    out = Path(path)
    text = render(runs, title)
    out.write_text(text, encoding="utf-8")
    return out
