"""What the page shows of cards, melds and outcomes, decided here once: the page draws
what it is sent and parses nothing (docs/protocol.md, "welcome" and "view").

- :data:`CARD_FACES`: every card any rules deal (the 48 natural cards and the two
  jokers) by its text, as a face to draw: the rank printed in its corner, the suit
  drawn on it (``o``, ``c``, ``e``, ``b``, or ``joker``), the figure's name on a
  sota, caballo, rey or joker, and the card's name in words.
- :func:`shown_melds`: melds as the table lays them out: kind, cards in table order (a
  run's joker in its place, a set's last), the joker and the card it stands for.
- :data:`OUTCOMES`: the words for each way a hand can close; :func:`summary_title` and
  :func:`outcome_note`, how a summary names an ended hand and what its end means under
  a table's rules (a void hand included).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..cards import JOKERS, RANKS, SUITS, Card
from ..results import OUTCOMES as _OUTCOME_CODES
from ..results import Hint, Meld
from ..rules import Rules

__all__ = ["CARD_FACES", "OUTCOMES", "shown_melds", "table_cards", "summary_title",
           "outcome_note", "close_card"]

_SUIT_WORDS = {"o": "coins", "c": "cups", "e": "swords", "b": "clubs"}
_FIGURES = {10: "Sota", 11: "Caballo", 12: "Rey"}


def _face(card: Card) -> dict[str, str]:
    if card.is_joker:
        return {"rank": "", "suit": "joker", "figure": "Joker", "name": f"joker {str(card)[1:]}"}
    figure = _FIGURES.get(card.rank, "")
    return {"rank": str(card.rank), "suit": card.suit, "figure": figure,
            "name": f"{figure or card.rank} of {_SUIT_WORDS[card.suit]}"}


#: every card's face by its text: ``{"rank": "11", "suit": "e", "figure": "Caballo",
#: "name": "Caballo of swords"}``; a joker's ``suit`` is ``"joker"``
CARD_FACES: dict[str, dict[str, str]] = {
    str(c): _face(c) for c in [Card(r, s) for s in SUITS for r in RANKS] + list(JOKERS)}

#: each outcome of a close: ``name``, the words after the closer's name in a summary;
#: ``mark``, the badge of a card one may close with that way (None: its points)
OUTCOMES: dict[str, dict[str, Optional[str]]] = {
    "normal": {"name": "closed", "mark": None},
    "minus_ten": {"name": "minus ten", "mark": "\u221210"},
    "chinchon": {"name": "chinch\u00f3n!", "mark": "chinch\u00f3n"},
    "joker_chinchon": {"name": "chinch\u00f3n with a joker", "mark": "chinch\u00f3n"},
}
assert set(OUTCOMES) == {o for o in _OUTCOME_CODES if o is not None}


def summary_title(closer: Optional[str], outcome: str) -> str:
    """How a summary names an ended hand: who closed and how (``closer``: that seat's
    name; None for a void hand, ``outcome`` ``'void'``)."""
    if closer is None:
        return "nobody closed: the hand is void"
    return f"{closer} {OUTCOMES[outcome]['name']}"


def outcome_note(outcome: str, rules: Rules) -> str:
    """What a hand that ended with ``outcome`` (a close's, or ``'void'``) means under
    ``rules``, in one sentence."""
    if outcome == "void":
        return "The stock ran down without a close: nobody scores this hand."
    if outcome == "chinchon":
        return "Seven in a row of one suit wins the game on the spot."
    if outcome == "minus_ten":
        return f"All seven cards in melds: \u2212{rules.minus_ten}, and nobody may lay off on them."
    if outcome == "joker_chinchon":
        return (f"Seven in a row with a joker's help: \u2212{rules.joker_chinchon}, and nobody "
                f"may lay off on them.")
    return "Every player lays off what fits on the table's melds."


def shown_melds(melds: Sequence[Meld]) -> list[dict[str, Any]]:
    """Each meld as the table lays it out: ``kind``, ``cards`` in table order,
    ``joker`` (its text, or None) and ``stands_for`` (the card a run's joker stands
    for, or None)."""
    out = []
    for m in melds:
        stands_for = None if m.joker is None else m.stands_for
        out.append({"kind": m.kind, "cards": [str(c) for c in table_cards(m)],
                    "joker": None if m.joker is None else str(m.joker),
                    "stands_for": None if stands_for is None else str(stands_for)})
    return out


def table_cards(meld: Meld) -> Sequence[Card]:
    """A meld's cards in table order (:func:`shown_melds`): without a joker they are
    in it already (ascending); a run's joker in its place, a set's last."""
    return meld.cards if meld.joker is None else meld.table_order()


def close_card(hints: Sequence[Hint], rules: Rules) -> Optional[str]:
    """The card the Close button offers: the close that wins the game, else the one
    that scores least for the closer (ties: the first card)."""
    best: Optional[tuple[int, int]] = None
    card = None
    for h in hints:
        if not h.can_close:
            continue
        if h.outcome == "chinchon":
            key = (0, 0)
        elif h.outcome == "minus_ten":
            key = (1, -rules.minus_ten)
        elif h.outcome == "joker_chinchon":
            key = (1, -(rules.joker_chinchon or 0))
        else:
            key = (1, h.points)
        if best is None or key < best:
            best, card = key, str(h.card)
    return card
