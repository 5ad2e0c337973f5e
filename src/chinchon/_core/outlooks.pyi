"""Type stub of the compiled module ``chinchon._core.outlooks`` (built from
outlooks.pyx): the outlook (docs/rules.md#the-outlook-one-draw-ahead). Each function has the
signature of its twin in :mod:`chinchon.reference`; ``unseen``: HandLike or None.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import HandLike
from ..results import DrawOutlook, Outlook
from ..rules import Rules

def outlook(
    hand8: HandLike, unseen: Any = None, *, decks: int | None = None, rules: Rules | str | None = None
) -> list[Outlook]: ...
def draw_outlook(
    hand7: HandLike, top: Any, unseen: Any = None, *, decks: int | None = None,
    rules: Rules | str | None = None
) -> DrawOutlook: ...
def outlook_batch(
    masks: Any, unseen_masks: Any, *, threads: int | None = None, rules: Rules | str | None = None
) -> npt.NDArray[np.float64]: ...
