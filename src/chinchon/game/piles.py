"""The cards of a hand in play that are in no seat's hand: the stock, the discard pile
and the closing card face down, with what every seat saw of them (the cards each seat
took from the pile and still holds, and the cards of the last reshuffle's new stock).

:class:`Piles` is a part of :class:`~chinchon.game.state.GameState` (which holds one and
keeps the hands, the turn and the scores): it knows nothing of turns or rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..cards import Card, Hand
from ..errors import IllegalAction
from .deck import CardLike, card_order, cards_of, multiset_problem, unseen_cards

__all__ = ["Piles"]


class Piles:
    """The stock (top first), the discard pile (top last), the face-down closing card,
    per seat the cards it took from the pile and still holds (``taken``: every seat saw
    them taken), and the cards of the last reshuffle's new stock this hand
    (``restocked``, ascending; None before any: every seat saw the pile turned over)."""

    __slots__ = ("stock", "discard", "face_down", "taken", "restocked")

    def __init__(self, players: int) -> None:
        self.stock: list[Card] = []
        self.discard: list[Card] = []
        self.face_down: Optional[Card] = None
        self.taken: list[list[Card]] = [[] for _ in range(players)]
        self.restocked: Optional[list[Card]] = None

    def deal(self, rest: list[Card]) -> None:
        """A new hand: the first card of ``rest`` (what the hands left of the deal) face
        up on the discard pile, the others the stock."""
        self.discard = [rest[0]]
        self.stock = rest[1:]
        self.taken = [[] for _ in self.taken]
        self.restocked = None
        self.face_down = None

    def take_discard(self, seat: int) -> Card:
        """``seat`` takes the discard pile's top card (in every seat's sight)."""
        if not self.discard:
            raise IllegalAction("the discard pile is empty")
        card = self.discard.pop()
        self.taken[seat].append(card)
        return card

    def let_go(self, seat: int, card: Card) -> None:
        """``seat`` no longer holds ``card``: one copy leaves its taken cards."""
        taken = self.taken[seat]
        if card in taken:
            taken.remove(card)

    def reshuffle(self, rng: Any, order: Optional[Sequence[CardLike]]) -> list[Card]:
        """The discard pile becomes the (empty) stock: shuffled by ``rng``, or in
        ``order`` (card text or cards, checked to be the pile's cards). Returns the new
        stock, top first."""
        if self.stock or not self.discard:
            raise IllegalAction("the stock is reshuffled only when it is empty at a draw "
                                "and the discard pile is not")
        if order is None:
            pile = self.discard
            rng.shuffle(pile)
        else:
            pile = cards_of(order, "recorded stock")
            problem = multiset_problem(pile, self.discard, "in the recorded stock")
            if problem is not None:
                raise IllegalAction(f"the recorded stock is not the discard pile: {problem}")
        self.stock = pile
        self.discard = []
        self.restocked = sorted(pile, key=card_order)
        return list(pile)

    def unseen(self, seat: int, own: Sequence[Card], card_mask: int, decks: int) -> Hand:
        """What ``seat`` (holding ``own``) cannot know the place of
        (:func:`~chinchon.game.deck.unseen_cards`)."""
        others = [t for other, t in enumerate(self.taken) if other != seat]
        return unseen_cards(card_mask, decks, own, self.discard, others, self.restocked)

    def fields(self) -> dict[str, Any]:
        """The piles as the state's fields (copies)."""
        return {"stock": list(self.stock), "discard": list(self.discard),
                "face_down": self.face_down, "taken": [list(t) for t in self.taken],
                "restocked": None if self.restocked is None else list(self.restocked)}

    @classmethod
    def of_fields(cls, f: dict[str, Any]) -> Piles:
        """The piles of the state's fields ``f`` (checked; taken over, not copied)."""
        p = object.__new__(cls)
        p.stock, p.discard, p.face_down = f["stock"], f["discard"], f["face_down"]
        p.taken, p.restocked = f["taken"], f["restocked"]
        return p
