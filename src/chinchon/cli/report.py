"""``chinchon report``: a self-contained HTML report (parameters, rules, plots) of a
simulation's Parquet records (``chinchon simulate --records DIR``), or of two record
sets side by side (``--compare A B``). Needs the ``plot`` extra (matplotlib) and pyarrow
(the ``dask`` extra); ``chinchon simulate --report FILE`` writes the same report of the
run it just made."""

from __future__ import annotations

import argparse
from typing import Any, Optional

from ..errors import ChinchonError


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="an HTML report with plots of a simulation's records",
        description="One self-contained HTML file (figures inside, no outside address) "
                    "with a simulation's parameters, rules and plots, from the Parquet "
                    "records that chinchon simulate --records DIR wrote. Needs "
                    "pip install 'chinchon[plot,dask]'.",
    )
    p.add_argument("records", nargs="?", metavar="RECORDS_DIR",
                   help="the records folder of one run")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="two records folders, side by side, with what changes from A to B")
    p.add_argument("--out", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--title", help="the page's title (default: from the runs)")
    p.set_defaults(func=run)


def require_plots() -> None:
    """A one-line error (exit 2) when the plot extra is missing, before any work."""
    from ..simulation.plot import require_matplotlib

    try:
        require_matplotlib()
    except ImportError as exc:
        raise ChinchonError(str(exc)) from None


def require_outside(out: str, records: str) -> None:
    """A one-line error (exit 2) when the report file ``out`` would be the records
    folder ``records`` or a file anywhere inside it (it would overwrite a part or the
    run's ``_chinchon.json``, and a folder with another file is no run's records)."""
    import os

    if not records:  # realpath would make it the working folder
        raise ChinchonError("no records folder: its name is empty")
    _require_name(out)
    path, folder = os.path.realpath(out), os.path.realpath(records)
    try:
        inside = os.path.commonpath([path, folder]) == folder
    except ValueError:  # on two drives (Windows): not inside
        inside = False
    if inside:
        raise ChinchonError(f"cannot write the report {out!r}: it would be the records "
                            f"folder {records!r} or a file in it (pick another path for "
                            "one of them)")


def _require_name(out: str) -> None:
    if not out:  # realpath would make it the working folder
        raise ChinchonError("cannot write the report '': its name is empty")


def require_writable(out: str) -> None:
    """A one-line error (exit 2) when the report file ``out`` cannot be written: a
    folder, a missing or read-only folder, a read-only file, a symbolic link that leads
    nowhere a file can be; found before any game is played or record read (nothing is
    created)."""
    import os

    _require_name(out)
    path = os.path.realpath(out)  # a link is written through: where it leads is checked
    folder = os.path.dirname(path)
    if os.path.islink(path):  # realpath stops at a loop of links
        problem = "a loop of symbolic links"
    elif os.path.isdir(path):
        problem = "it is a folder"
    elif not os.path.isdir(folder):
        problem = f"no folder {folder}"
    elif not os.access(path if os.path.exists(path) else folder, os.W_OK):
        problem = "permission denied"
    else:
        return
    raise ChinchonError(f"cannot write the report {out!r}: {problem}")


def write(out: str, runs: list[Any], title: Optional[str] = None) -> None:
    """Write the report of ``runs`` to ``out``; a file that cannot be written (its path
    checked before, by :func:`require_writable`: a full disk) is an OSError of one line,
    which the command line reports with status 1 as any output it cannot write."""
    from ..simulation.report import write_report

    try:
        write_report(out, runs, title or "")
    except OSError as exc:
        raise OSError(f"cannot write the report {out!r}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    if (args.records is None) == (args.compare is None):
        raise ChinchonError("give one RECORDS_DIR, or --compare A B")
    require_plots()
    for folder in args.compare or [args.records]:
        require_outside(args.out, folder)
    require_writable(args.out)
    from ..simulation.report import load_records

    try:
        if args.compare is not None:
            a, b = args.compare
            runs = [load_records(a, f"A: {a}"), load_records(b, f"B: {b}")]
        else:
            runs = [load_records(args.records)]
    except ImportError as exc:  # pyarrow, to read the records
        raise ChinchonError(str(exc)) from None
    write(args.out, runs, args.title)
    print(f"report: {args.out}")
    return 0
