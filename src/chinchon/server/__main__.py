"""``python -m chinchon.server``: the same as ``chinchon serve``."""

import sys

from .cli import run

sys.exit(run())
