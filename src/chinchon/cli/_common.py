"""What the subcommands share: the argument parser's error style and card options."""

from __future__ import annotations

import argparse

__all__ = ["Parser", "card_options"]


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the full usage; one clear line is friendlier, status 2 kept
        self.exit(2, f"{self.prog}: error: {message}\n")


def card_options(p: argparse.ArgumentParser, decks_default: str) -> None:
    """The options shared by the commands that take cards: decks, close limit, JSON."""
    p.add_argument("--decks", type=int, choices=(1, 2), default=None,
                   help=f"1 or 2 decks (default: {decks_default})")
    p.add_argument("--close-limit", type=int, default=5, help="close allowed up to (5)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
