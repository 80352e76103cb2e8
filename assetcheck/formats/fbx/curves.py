"""The animation curves of an FBX 7 file, read from the node tree: runs in the reader's child
process, beside the geometry (:mod:`assetcheck.formats.fbx.geometry`), once ufbx has read the
file. pyufbx gives no keyframes, hence this reader.

A curve plays in a stack when it is connected (``OP``, ``d|X``) to a curve node, connected to a
layer of the stack; the curve node is connected (``OP``) to the property it animates. The
arrays are read as ufbx reads them; ufbx refuses a file with a curve whose arrays do not pair
up, so a :class:`CurveFault` here is a file ufbx reads and this reader does not. FBX 6 keeps
its takes in another layout (``Takes``), which is not read: its files have no curves here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

import numpy as np

from assetcheck.formats.fbx.animation import (
    CONSTANT,
    CONSTANT_NEXT,
    CUBIC,
    KTIME_PER_SECOND,
    LINEAR,
    FbxCurves,
)
from assetcheck.formats.fbx.objects import FbxObjects, object_name
from assetcheck.formats.fbx.transforms import model_properties
from assetcheck.formats.fbx.tree import FbxNode

#: ``KeyAttrFlags`` bits (the FBX SDK's ``FbxAnimCurveDef``): the interpolation, and the
#: constant mode that holds the next key's value rather than this one's.
INTERPOLATION_BITS, CONSTANT_BIT, LINEAR_BIT, CUBIC_BIT, CONSTANT_NEXT_BIT = 0x0E, 2, 4, 8, 0x100
#: ``KeyAttrDataFloat`` holds four numbers per flag: right slope, next left slope, weights,
#: velocities.
DATA_PER_FLAG = 4
#: The stack properties of its span, with their values when the file does not write them.
_SPAN_DEFAULTS = (("LocalStart", 0.0), ("LocalStop", np.nan))
#: The id of the scene's root in FBX 7 connections.
ROOT = 0


class CurveFault(Exception):
    """A curve's arrays cannot be read or do not pair up; the message says why."""


def read_curves(objects: FbxObjects) -> FbxCurves:
    """Every curve that plays in a stack of the file, in the order of its connections.

    Raises :class:`CurveFault` (or FbxTreeError) when a curve's arrays cannot be read or do not
    pair up.
    """
    stacks = objects.named("AnimationStack")
    if objects.legacy or not stacks:
        return FbxCurves.empty()
    numbers = {key: number for number, key in enumerate(stacks)}
    layers = objects.named("AnimationLayer")
    curve_nodes = objects.named("AnimationCurveNode")
    curves = objects.named("AnimationCurve")
    layer_stacks = _parents(objects.links, layers, stacks)
    node_layers = _parents(objects.links, curve_nodes, layers)
    targets: dict[Hashable, tuple[Hashable, str]] = {}
    for child, parent, name in objects.property_links:
        if child in curve_nodes:
            targets.setdefault(child, (parent, name))
    everything = {objects.key(node): node for node in objects.nodes}
    shown = _models_in_scene(objects)
    builder = _Builder(
        [object_name(n) for n in stacks.values()], [_span(n) for n in stacks.values()]
    )
    labels: dict[Hashable, tuple[str, bool]] = {}
    for child, parent, name in objects.property_links:
        if child not in curves or parent not in curve_nodes or parent not in targets:
            continue
        target, prop = targets[parent]
        if target not in labels:
            node = everything.get(target)
            label = object_name(node) if node is not None else f"object {target}"
            labels[target] = label, node is None or node.name != "Model" or target in shown
        label, in_scene = labels[target]
        played = {numbers[s] for layer in node_layers[parent] for s in layer_stacks[layer]}
        for stack in sorted(played):
            builder.add(curves[child], stack, label, prop, name.removeprefix("d|"), in_scene)
    return builder.curves()


def _parents(
    links: list[tuple[Hashable, Hashable]], children: dict, parents: dict
) -> dict[Hashable, list[Hashable]]:
    """Per key of ``children``, the keys of ``parents`` it is connected to, each once."""
    found: dict[Hashable, list[Hashable]] = defaultdict(list)
    for child, parent in links:
        if child in children and parent in parents and parent not in found[child]:
            found[child].append(parent)
    return found


def _models_in_scene(objects: FbxObjects) -> set[Hashable]:
    """The models connected to the scene's root, directly or through other models."""
    models = objects.named("Model")
    below: dict[Hashable, list[Hashable]] = defaultdict(list)
    for child, parent in objects.links:
        if child in models:
            below[parent].append(child)
    shown: set[Hashable] = set()
    pending: list[Hashable] = [ROOT]
    while pending:
        for child in below.get(pending.pop(), ()):
            if child not in shown:
                shown.add(child)
                pending.append(child)
    return shown


def _span(stack: FbxNode) -> tuple[float, float]:
    """The stack's ``LocalStart`` and ``LocalStop`` in seconds: a start not written is 0 (the
    property's default, which writers leave out), a stop not written is NaN (unknown)."""
    props = model_properties(stack)
    start, stop = (props.get(name) or [default] for name, default in _SPAN_DEFAULTS)
    return start[0] / KTIME_PER_SECOND, stop[0] / KTIME_PER_SECOND


class _Builder:
    """The curves gathered one by one, joined into :class:`FbxCurves` at the end."""

    def __init__(self, stacks: list[str], spans: list[tuple[float, float]]) -> None:
        self.stacks, self.spans = stacks, spans
        self.rows: list[tuple[int, str, str, str, bool]] = []
        self.keys: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    def add(
        self, node: FbxNode, stack: int, target: str, prop: str, component: str, in_scene: bool
    ) -> None:
        self.keys.append(read_keys(node))
        self.rows.append((stack, target, prop, component, in_scene))

    def curves(self) -> FbxCurves:
        if not self.rows:
            found = FbxCurves.empty()
            found.stacks, found.spans = self.stacks, np.array(self.spans).reshape(-1, 2)
            return found
        stack, target, prop, component, in_scene = map(list, zip(*self.rows, strict=True))
        times, values, modes, slopes = (list(column) for column in zip(*self.keys, strict=True))
        sizes = [len(t) for t in times]
        return FbxCurves(
            stacks=self.stacks,
            spans=np.array(self.spans, dtype=np.float64).reshape(-1, 2),
            stack=np.array(stack, dtype=np.int32),
            target=target,
            property_name=prop,
            component=component,
            in_scene=np.array(in_scene, dtype=bool),
            starts=np.cumsum([0, *sizes[:-1]]).astype(np.int32),
            times=np.concatenate(times).astype(np.float64),
            values=np.concatenate(values).astype(np.float64),
            modes=np.concatenate(modes).astype(np.int32),
            slopes=np.concatenate(slopes).astype(np.float64).reshape(-1, 2),
        )


def read_keys(node: FbxNode) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One curve's key times (seconds), values, interpolation modes and cubic slopes
    (``(keys, 2)``). A curve without ``KeyAttrFlags`` is taken as cubic with flat slopes: its
    keys are never judged redundant (``docs/animations.md``).

    Raises :class:`CurveFault` (or FbxTreeError) when its arrays cannot be read or do not pair
    up. Key attributes may cover more keys than the curve has, as ufbx allows.
    """
    arrays = {child.name: child for child in node.children}
    times = _values(arrays, "KeyTime") / KTIME_PER_SECOND
    values = _values(arrays, "KeyValueFloat")
    keys = len(times)
    if len(values) != keys:
        raise CurveFault(f"it has {keys} key times but {len(values)} values")
    flags_node = arrays.get("KeyAttrFlags")
    if flags_node is None:
        return times, values, np.full(keys, CUBIC, np.int32), np.zeros((keys, 2))
    flags = flags_node.array("i4").tolist()
    counts = _values(arrays, "KeyAttrRefCount").astype(np.int64).tolist()
    if not counts and len(flags) == 1:
        counts = [keys]
    if len(counts) != len(flags) or min(counts, default=0) < 0 or sum(counts) < keys:
        raise CurveFault(f"its {len(flags)} key attributes cover {sum(counts)} of its {keys} keys")
    counts = _capped(counts, keys)
    modes = [_mode(flag) for flag in flags]
    slopes = np.zeros((keys, 2))
    if CUBIC in modes:
        data = _values(arrays, "KeyAttrDataFloat")
        if len(data) < DATA_PER_FLAG * len(flags):
            raise CurveFault(f"its {len(flags)} key attributes have {len(data)} data values")
        slopes = np.repeat(data[: DATA_PER_FLAG * len(flags)].reshape(-1, DATA_PER_FLAG), counts, 0)
        slopes = np.where(np.repeat(modes, counts)[:, None] == CUBIC, slopes[:, :2], 0.0)
    if len(modes) == 1:
        return times, values, np.full(keys, modes[0], np.int32), slopes
    return times, values, np.repeat(np.array(modes, np.int32), counts), slopes


def _capped(counts: list[int], keys: int) -> list[int]:
    """``counts`` of keys per attribute, cut so that they add up to ``keys``."""
    capped, left = [], keys
    for count in counts:
        capped.append(min(count, left))
        left -= capped[-1]
    return capped


def _mode(flag: int) -> int:
    """A key's interpolation from its flags; flags that name none are taken as cubic (never
    judged)."""
    bits = flag & INTERPOLATION_BITS
    if bits == LINEAR_BIT:
        return LINEAR
    if bits == CONSTANT_BIT:
        return CONSTANT_NEXT if flag & CONSTANT_NEXT_BIT else CONSTANT
    return CUBIC


def _values(arrays: dict[str, FbxNode], name: str) -> np.ndarray:
    """The curve's array ``name`` (of its children ``arrays``) as float64 (empty when the curve
    has none)."""
    found = arrays.get(name)
    return np.empty(0) if found is None else found.array("f8")
