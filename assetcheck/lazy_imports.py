"""Modules imported when first used: what only some files need stays out of every run.

``keys = lazy_module("assetcheck.animation.keys")`` binds a module object at once and runs the
module when one of its attributes is first read (the standard library's
:class:`importlib.util.LazyLoader`). A built-in check whose rules need a library only some files
use (animations, skins, images, KTX2) takes it this way, so a run over files without them never
imports it (``docs/performance.md``). Type checkers see the plain import, written under
``if TYPE_CHECKING:`` beside the call; ``tests/test_package_boundaries.py`` reads the call as
an import.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module ``name``: already imported, or to be run on first attribute access.
    ``ModuleNotFoundError`` at once when there is no such module."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
