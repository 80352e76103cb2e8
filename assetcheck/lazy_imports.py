"""Modules imported when first used: what only some files need stays out of every run.

``keys = lazy_module("assetcheck.animation.keys")`` binds a stand-in at once; the first
attribute read from it imports the module (through :func:`importlib.import_module`, so under
the import system's own lock: threads that get there together import it once) and every later
read finds the attribute on the stand-in. A built-in check whose rules need a library only some
files use (image decoding, the animation key rules) takes it this way, so a run over files
without them never imports it (``docs/performance.md``). Type checkers see the plain import,
written under ``if TYPE_CHECKING:`` beside the call; ``tests/test_package_boundaries.py`` reads
the call as an import.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any


class LazyModule:
    """The module ``name``, imported by the first attribute read."""

    def __init__(self, name: str) -> None:
        self.__name = name

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(importlib.import_module(self.__name), attribute)
        setattr(self, attribute, value)  # the next read is a plain attribute read
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self.__name!r}>"


def lazy_module(name: str) -> Any:
    """A stand-in for the module ``name`` (:class:`LazyModule`); ``ModuleNotFoundError`` at
    once when there is no such module."""
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    return LazyModule(name)
