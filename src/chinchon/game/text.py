"""The table as text: what ``chinchon play`` prints (a seat's hand with its melds, the
piles and totals, a closed hand's settlement, the rules in one line) and what the
reinforcement-learning environments' ``render()`` shows (docs/rl.md). Each function
returns text and prints nothing; it reads a :class:`~chinchon.Game` or a
:class:`~chinchon.game.state.GameState` through their public attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from .._backend import best_melds
from ..rules import Rules

__all__ = ["hand_text", "table_lines", "hand_result_lines", "rules_summary"]


def hand_text(game: Any, seat: int) -> str:
    """The hand of ``seat`` as the table shows it: melds first, each with its joker in
    place and what it stands for (``4o *1(5o) 6o``), then the unmatched cards."""
    a = best_melds(game.held(seat), decks=game.decks, rules=game.rules)
    melds = ["[" + str(m) + "]" for m in a.melds]
    return " ".join(melds + [str(c) for c in a.unmatched])


def table_lines(game: Any, seat: int, who: str = "Your") -> list[str]:
    """What ``seat`` sees at the start of its turn: its hand (``who`` names it: "Your
    hand: ..."), the discard pile's top, the stock's size and the totals."""
    top = game.discard_top
    return [f"{who} hand: {hand_text(game, seat)}",
            f"Discard pile: {top if top is not None else '(empty)'}   stock: "
            f"{game.stock_size}   totals: {list(game.totals)}"]


def hand_result_lines(game: Any, names: Sequence[str], you: Optional[int] = None) -> list[str]:
    """The last closed hand (``game.last_hand``): the closer and the outcome, each
    seat's melds, lay-offs, cards left and points, and the totals; or the void hand.
    ``you``: the seat spoken to (its name "You": "You close")."""
    last = game.last_hand
    s = last.settlement
    if s is None:
        return [f"== the stock is down to {game.stock_size} cards: the hand is void, "
                "nobody scores =="]
    verb = "close" if last.closer == you else "closes"
    lines = [f"== {names[last.closer]} {verb}: {s.outcome.replace('_', ' ')} =="]
    results = [s.closer, *s.opponents]
    for pos, seat in enumerate(last.order):
        r = results[pos]
        melds = "  ".join(f"[{m}]" for m in r.melds) or "-"
        lay = getattr(r, "layoffs", ())
        extra = ("  laid off " + " ".join(str(c) for c, _ in lay)) if lay else ""
        left = " ".join(str(c) for c in r.unmatched) or "-"
        lines.append(f"  {names[seat]:<10} melds {melds}{extra}  left {left}  "
                     f"points {last.points[seat]:+d}")
    lines.append("  totals: " + ", ".join(
        f"{names[i]} {t}{'' if game.in_game[i] else ' (out)'}"
        for i, t in enumerate(game.totals)))
    return lines


def rules_summary(rules: Rules) -> str:
    """One line on the rules in force: the preset's name and what matters at the table."""
    name = rules.preset_name or "custom"
    jokers = []
    if rules.wild_ace_of_coins:
        jokers.append("the ace of coins is wild")
    if rules.jokers:
        jokers.append(f"{rules.jokers} joker{'s' if rules.jokers > 1 else ''} per deck")
    parts = [f"{rules.deck} cards", *jokers,
             f"close with {rules.close_limit} or less",
             f"over {rules.eliminate_above} is out"]
    if jokers:
        parts.append(f"a joker left counts {rules.joker_points}")
    if not rules.first_round_close:
        parts.append("no close in the first round")
    if rules.void_at_stock is not None:
        parts.append(f"void hand at {rules.void_at_stock} cards in the stock")
    if not rules.seven_run_wins:
        parts.append("a 7-card run scores minus ten")
    return f"{name} ({', '.join(parts)})"
