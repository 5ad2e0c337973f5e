"""Type stub of the compiled module ``chinchon._core.settlement`` (built from
settlement.pyx). ``settle`` has the signature of its twin in :mod:`chinchon.reference`.
"""

from collections.abc import Iterable

from ..cards import Hand, HandLike
from ..results import Settlement
from ..rules import Rules

# ``opponents``: the opponents' hands in play order (1 to 5), or one opponent's Hand or
# text on its own.
def settle(
    closer7: HandLike,
    opponents: Iterable[HandLike] | Hand,
    *,
    decks: int | None = None,
    rules: Rules | str | None = None,
) -> Settlement: ...
