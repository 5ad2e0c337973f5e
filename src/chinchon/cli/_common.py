"""What the subcommands share: the argument parser's error style, card and rules options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, Optional

from ..errors import ChinchonError
from ..rules import PRESETS, Rules

__all__ = ["Parser", "card_options", "rules_of"]


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the full usage; one clear line is friendlier, status 2 kept
        self.exit(2, f"{self.prog}: error: {message}\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Optional[Sequence[str]] = None,
        namespace: Optional[argparse.Namespace] = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        # what a command leaves is its own error, under its own name: argparse would let
        # the top parser report it, as "chinchon: error: unrecognized arguments"
        parsed, rest = super().parse_known_args(args, namespace)
        if rest:
            self.error(f"unrecognized arguments: {' '.join(rest)}")
        return parsed, rest

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops a failed write of --help or --version to stdout (status 0 on a
        # full disk); raised, it is the full disk's status 1 of any other output
        if message and file is sys.stdout:
            sys.stdout.write(message)
            sys.stdout.flush()
        else:
            super()._print_message(message, file)


def card_options(p: argparse.ArgumentParser, decks_default: str) -> None:
    """The options shared by the commands that take cards: decks, rules, JSON."""
    p.add_argument("--decks", type=int, choices=(1, 2), default=None,
                   help=f"1 or 2 decks (default: {decks_default})")
    rules_options(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")


_NONE = "none"  # --joker-chinchon none: the field set to None (None means "not given")


def _int_or_none(text: str) -> Any:
    """N or none (the options' own words in argparse's error, not this function's)."""
    if text.strip().lower() == _NONE:
        return _NONE
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number or none, got {text!r}") from None


_joker_chinchon = _void_at_stock = _int_or_none


def _points(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be 12 whole numbers (P1,...,P12), got "
                                         f"{text!r}") from None


#: option -> (Rules field, argparse keywords): the field overrides of --rules
_OVERRIDES: dict[str, tuple[str, dict[str, Any]]] = {
    "--close-limit": ("close_limit", {"type": int, "help": "close allowed up to (house: 5)"}),
    "--minus-ten": ("minus_ten", {"type": int, "help": "what a full meld takes off (10)"}),
    "--deck": ("deck", {"type": int, "choices": (48, 40), "help": "48 or 40 cards"}),
    "--jokers": ("jokers", {"type": int, "choices": (0, 1, 2),
                            "help": "extra jokers *1, *2 per deck (0)"}),
    "--wild-ace": ("wild_ace_of_coins", {"action": argparse.BooleanOptionalAction,
                                         "help": "the ace of coins is a joker"}),
    "--joker-points": ("joker_points", {"type": int, "help": "an unmatched joker's points (25)"}),
    "--points": ("points", {"type": _points, "metavar": "P1,...,P12",
                            "help": "points of ranks 1-12"}),
    "--seven-run-wins": ("seven_run_wins", {"action": argparse.BooleanOptionalAction,
                                            "help": "a natural 7-card run wins the game"}),
    "--joker-chinchon": ("joker_chinchon", {"type": _joker_chinchon, "metavar": "N|none",
                                            "help": "what a 7-card run with a joker takes off"}),
}


#: the overrides of what the table reads (the commands that play whole games)
_TABLE_OVERRIDES: dict[str, tuple[str, dict[str, Any]]] = {
    "--eliminate-above": ("eliminate_above", {
        "type": int, "help": "a total over this eliminates (house: 70; conga: 99)"}),
    "--rejoin-chips": ("rejoin_chips", {"type": int, "help": "rejoin chips per player (2)"}),
    "--first-round-close": ("first_round_close", {
        "action": argparse.BooleanOptionalAction,
        "help": "closing allowed in the first round (--no-first-round-close: not before "
                "every player has played a turn)"}),
    "--all-out": ("all_out", {"choices": ("draw", "lowest"),
                              "help": "everyone out at once: a draw, or the lowest wins"}),
    "--void-at-stock": ("void_at_stock", {
        "type": _void_at_stock, "metavar": "N|none",
        "help": "the hand is void when the stock is down to N cards (none: reshuffle)"}),
}


def rules_options(p: argparse.ArgumentParser, table: bool = False) -> None:
    """``--rules NAME`` and the field overrides (each default: the preset's value); with
    ``table`` also the overrides of what the table reads."""
    p.add_argument("--rules", default="barajamos", metavar="NAME",
                   help=f"rules preset: {', '.join(PRESETS)} (default: barajamos)")
    overrides = {**_OVERRIDES, **_TABLE_OVERRIDES} if table else _OVERRIDES
    for option, (field, kwargs) in overrides.items():
        p.add_argument(option, dest=field, default=None, **kwargs)


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules of ``--rules`` with the overrides given on the command line."""
    rules = Rules.preset(args.rules)
    fields = [field for field, _ in (*_OVERRIDES.values(), *_TABLE_OVERRIDES.values())]
    changes = {field: getattr(args, field) for field in fields
               if getattr(args, field, None) is not None}
    for field in ("joker_chinchon", "void_at_stock"):
        if changes.get(field) == _NONE:
            changes[field] = None
    try:
        return rules.replace(**changes) if changes else rules
    except TypeError as exc:  # pragma: no cover - every override is a field
        raise ChinchonError(str(exc)) from None
