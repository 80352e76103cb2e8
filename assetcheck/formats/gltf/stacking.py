"""Many small accessors of one document in one numpy pass.

A check that asks the same question of every accessor of a kind (are the values within their
declared bounds? are the normals of unit length?) pays numpy's call overhead per accessor,
which for the few dozen values of a typical accessor is most of the cost. Stacked, the
accessors of one kind are answered together: one pass, and per accessor only the reduction
of its rows (``ufunc.reduceat``). A check screens them this way and looks one by one only at
those the screen flags.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

import numpy as np

#: Accessors of up to this many rows are stacked; a larger one is a pass of its own.
SMALL_ROWS = 4096
#: Small accessors of one kind are stacked when there are at least this many: fewer cost less
#: one by one than stacking them does.
STACK_FROM = 4

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def stackable_groups(keyed: Iterable[tuple[K, T]]) -> Iterator[tuple[K, list[T]]]:
    """The items of ``keyed`` (``(kind, item)`` pairs, the small items a check would stack)
    grouped by kind, in the order each kind first appears and each group in the items' order,
    for the kinds of at least :data:`STACK_FROM` items: those that are worth stacking."""
    groups: defaultdict[K, list[T]] = defaultdict(list)
    for kind, item in keyed:
        groups[kind].append(item)  # no list made for a kind already met
    yield from ((kind, group) for kind, group in groups.items() if len(group) >= STACK_FROM)


def stacked(arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``arrays`` (of one dtype and width, each at least one row) as one array, and the row
    where each starts in it."""
    starts = np.cumsum([0, *(len(array) for array in arrays[:-1])])
    return np.concatenate(arrays), starts


def any_per_part(flags: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """For each part of ``flags`` beginning at ``starts`` (each at least one long), whether
    any of its flags is set."""
    return np.asarray(np.logical_or.reduceat(flags, starts))
