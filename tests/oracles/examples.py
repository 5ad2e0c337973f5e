"""The worked examples of the rules page (docs/rules.md#worked-examples), from tests/data/rules_examples.json:
hands with their deadwood and outcome, and settlements with their points and lay-offs."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
RULES_EXAMPLES = json.loads((DATA / "rules_examples.json").read_text(encoding="utf-8"))
