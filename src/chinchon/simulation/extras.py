"""The optional packages a simulation may ask for (Dask, pyarrow, matplotlib), imported
when asked."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["extra_module"]


def extra_module(name: str, *submodules: str, needs: str, extra: str, also: str = ""
                 ) -> ModuleType:
    """``import name`` (and ``name.<each of submodules>``), or an ``ImportError`` that
    says what ``needs`` it and how to install the ``extra`` that brings it (``also``:
    another way, after the pip line)."""
    try:
        module = importlib.import_module(name)
        for sub in submodules:
            importlib.import_module(f"{name}.{sub}")
    except ImportError as exc:
        raise ImportError(f"{needs}: pip install 'chinchon[{extra}]'{also}") from exc
    return module
