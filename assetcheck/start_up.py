"""Python's cyclic garbage collector, paused while ``assetcheck validate`` starts.

Importing numpy and AssetCheck and loading the plugins creates a few hundred thousand objects
and no garbage, yet the collector walks them again and again as they are made: about 5% of a
one-file ``validate`` (``docs/performance.md``). The program pauses it first
(``assetcheck/__main__.py``); the command resumes it once its plugins are loaded, after moving
every object alive then into the permanent generation (:func:`gc.freeze`), which no later
collection walks again and which forked workers share without copying.

The daemon, which forks a child per request once warmed up, freezes what it loaded the same
way (:func:`freeze_before_forking`).
"""

from __future__ import annotations

import gc


def pause_collector() -> None:
    """Stop automatic collections until :func:`resume_collector`."""
    gc.disable()


def resume_collector() -> None:
    """Freeze what is alive and collect automatically again; nothing when not paused (a
    command run by a test or an embedding program never freezes that program's objects)."""
    if gc.isenabled():
        return
    gc.freeze()
    gc.enable()


def freeze_before_forking() -> None:
    """Collect, then freeze every object alive, in a process about to fork children that share
    it: no child's collection walks the inherited objects or writes to (and so copies) their
    pages. The collection first leaves no garbage frozen for good."""
    gc.collect()
    gc.freeze()
