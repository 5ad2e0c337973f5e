"""The ``chinchon`` command line.

Subcommands, one module each: ``hint`` (best melds and discard hints of a hand),
``settle`` (the settlement of a closed hand: melds, lay-offs, points per seat),
``simulate`` (bulk games between bots, with statistics), ``play`` (a person against
bots in the terminal; it reads stdin, so piped input drives it), ``rules`` (the rule
presets), ``serve`` (the table server, an optional extra) and ``report`` (an HTML report
with plots of a simulation's records, an optional extra). Each module has
``add_parser(sub)`` and ``run(args)``. Bad input prints one line on stderr and exits
with status 2; output that cannot be written (a full disk) one line, status 1.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from typing import Callable, Optional, Union

from .._version import __version__
from ..errors import ChinchonError
from . import hint, play, report, rules, serve, settle, simulate
from ._common import Parser

__all__ = ["main", "build_parser"]

SUBCOMMANDS = (hint, settle, simulate, play, rules, serve, report)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="chinchon", description="Chinchón engine: hints, settlement, games.")
    parser.add_argument("--version", action="version", version=f"chinchon {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    if sys.stdout is None:  # started with stdout closed: what is printed fails, not vanishes
        sys.stdout = _Closed()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except (OSError, UnicodeEncodeError) as exc:  # --help or --version that stdout cannot take
        return _unwritten("chinchon", exc)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except ChinchonError as exc:
        print(f"chinchon {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, UnicodeEncodeError) as exc:
        return _unwritten(f"chinchon {args.command}", exc)


class _Closed:
    """sys.stdout of a command started with it closed (Python makes it None, and print
    then writes nothing): every write fails as a closed descriptor does."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "the standard output is closed")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "the standard output is closed")


def _unwritten(prog: str, exc: Union[OSError, UnicodeEncodeError]) -> int:
    """The status of output that cannot be written: 0 where the reader closed the pipe
    early (a ``head -1`` the output goes to), else (a full disk, an encoding without
    the text's letters) one line and 1."""
    if isinstance(exc, BrokenPipeError):
        _drop_stdout()
        return 0
    if isinstance(exc, UnicodeEncodeError):  # PYTHONIOENCODING=ascii, say
        bad = exc.object[exc.start:exc.end]
        exc = OSError(f"the output's encoding, {exc.encoding}, cannot write {bad!r}: "
                      f"set PYTHONIOENCODING=utf-8")
    try:  # what stdout holds still goes out, where it can
        sys.stdout.flush()
    except (OSError, ValueError):
        _drop_stdout()
    if sys.stderr is not None:
        print(f"{prog}: error: {exc}", file=sys.stderr)
    return 1


def _drop_stdout() -> None:
    """Point stdout at the null device, so that the exit's flush of what it still holds
    fails no more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
