"""The animation curves of an FBX file, as the reader sends them to the checks
(``docs/animations.md``).

FBX 7 animates a property through a chain of objects: an ``AnimationStack`` (a clip, a take)
holds ``AnimationLayer`` s, each holding ``AnimationCurveNode`` s (one per animated property,
``T``, ``R``, ``S``..., connected to the property of the object it moves: ``Lcl Translation`` of
a ``Model``), each with an ``AnimationCurve`` per component (``d|X``, ``d|Y``, ``d|Z``). A curve
stores ``KeyTime`` (FBX ticks), ``KeyValueFloat`` and, per run of keys, their interpolation
(``KeyAttrFlags``, ``KeyAttrRefCount``) and cubic slopes (``KeyAttrDataFloat``).
:class:`FbxCurves` keeps every curve of every stack end to end, in seconds, with each key's
interpolation to the next key.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import SupportsIndex

import numpy as np

#: FBX time units (``KTime`` ticks) per second.
KTIME_PER_SECOND = 46_186_158_000
#: How a key interpolates to the next one: hold its value (``STEP``), hold the next key's
#: value (FBX's "constant next"), a straight line, or a cubic curve shaped by its slopes.
CONSTANT, CONSTANT_NEXT, LINEAR, CUBIC = 0, 1, 2, 3


@dataclass
class FbxCurves:
    """Every animation curve of the file, its keys laid end to end.

    Stacks: ``stacks`` (names) and ``spans`` (``(stacks, 2)``: ``LocalStart`` and ``LocalStop``
    in seconds; a start not written is 0, a stop not written NaN). Per curve: ``stack`` (the
    stack it plays in), ``target`` (the name of the object it animates), ``property_name``
    (``Lcl Rotation``...), ``component`` (``X``...), ``in_scene`` (False for a model not
    connected to the scene) and ``starts`` (its first key). Per key: ``times`` (seconds),
    ``values``, ``modes`` (its interpolation to the next key: :data:`CONSTANT` ...
    :data:`CUBIC`) and ``slopes`` (``(keys, 2)``: the right slope and the next key's left slope
    of a cubic key, as ufbx reads them; 0 for other keys).
    """

    stacks: list[str]
    spans: np.ndarray
    stack: np.ndarray
    target: list[str]
    property_name: list[str]
    component: list[str]
    in_scene: np.ndarray
    starts: np.ndarray
    times: np.ndarray
    values: np.ndarray
    modes: np.ndarray
    slopes: np.ndarray

    @classmethod
    def empty(cls) -> FbxCurves:
        return cls(
            [],
            np.empty((0, 2)),
            np.empty(0, np.int32),
            [],
            [],
            [],
            np.empty(0, bool),
            np.empty(0, np.int32),
            np.empty(0),
            np.empty(0),
            np.empty(0, np.int32),
            np.empty((0, 2)),
        )

    @property
    def ends(self) -> np.ndarray:
        """Where each curve's keys end (the next curve's start)."""
        if not len(self.starts):
            return np.empty(0, np.int32)
        return np.append(self.starts[1:], len(self.times)).astype(np.int32)

    @cached_property
    def owner(self) -> np.ndarray:
        """The curve of each key (int32)."""
        counts = self.ends - self.starts
        return np.repeat(np.arange(len(self.starts), dtype=np.int32), counts)

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Callable[..., FbxCurves], tuple]:
        # The FBX model's helpers are loaded where curves travel, not with the checks that
        # read this module's constants (a glTF validation loads nothing of the FBX reader).
        from assetcheck.formats.fbx.model import packed_array

        number = operator.index(protocol)
        arrays = (
            self.spans,
            self.stack,
            self.in_scene,
            self.starts,
            self.times,
            self.values,
            self.modes,
            self.slopes,
        )
        names = (self.stacks, self.target, self.property_name, self.component)
        packed = tuple(packed_array(array, number) for array in arrays)
        return unpack_curves, (tuple(list(map(str, texts)) for texts in names), *packed)


def unpack_curves(names: object, *values: object) -> FbxCurves:
    """The curves :meth:`FbxCurves.__reduce_ex__` sent; ValueError for anything else (the
    child parsed a hostile file)."""
    from assetcheck.formats.fbx.model import packed_items, unpacked_array

    texts = packed_items(names, 4)
    if not all(isinstance(t, list) and all(isinstance(s, str) for s in t) for t in texts):
        raise ValueError("unexpected animation curve names")
    stacks, target, prop, component = texts
    spans, stack, in_scene, starts, times, values_, modes, slopes = map(
        unpacked_array, packed_items(values, 8)
    )
    curves, keys = len(target), len(times)
    if (
        spans.shape != (len(stacks), 2)
        or any(len(t) != curves for t in (prop, component))
        or starts.shape != (curves,)
        or stack.shape != (curves,)
        or in_scene.shape != (curves,)
        or values_.shape != (keys,)
        or modes.shape != (keys,)
        or slopes.shape != (keys, 2)
        or (curves and (starts[0] != 0 or np.any(np.diff(starts) < 0) or starts[-1] > keys))
        or (curves and (stack.min() < 0 or stack.max() >= len(stacks)))
    ):
        raise ValueError("unexpected animation curve arrays")
    return FbxCurves(
        stacks,
        spans,
        stack,
        target,
        prop,
        component,
        in_scene,
        starts,
        times,
        values_,
        modes,
        slopes,
    )
