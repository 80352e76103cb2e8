"""What an animation's keys hold: tracks that never change, keys that interpolation makes
redundant, rotations that flip hemisphere between keys, clips of no length, and channels that
move a node no scene shows (``docs/animations.md`` gives each rule, its tolerance and source).

The keyframes are read once per sampler; a channel whose sampler Khronos' rules already find
broken (times that do not increase, outputs of the wrong format or count, values that are not
finite, quaternions that are not unit length) is left to those rules, so each key here is a
number that means what it says.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_formats import (
    ANIMATION_INPUT,
    ANIMATION_OUTPUTS,
    accessor_format,
)
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    animation_samplers,
    index_list,
    index_of,
    resolve,
)
from assetcheck.issues import FileIssues
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC4, non_unit_rows
from assetcheck.plugins.hookspecs import hookimpl

#: A key is redundant (or a track constant) when it is within this fraction of the track's
#: largest magnitude (at least 1) of the value interpolation gives without it.
VALUE_TOLERANCE = 1e-5
#: The same for rotations: the angle, in radians, between the key and the interpolated turn.
ANGLE_TOLERANCE = 1e-4
CUBICSPLINE, STEP = "CUBICSPLINE", "STEP"

CODES = (
    "ANIMATION_CHANNEL_CONSTANT",
    "ANIMATION_REDUNDANT_KEYS",
    "ANIMATION_ROTATION_HEMISPHERE_FLIP",
    "ANIMATION_ZERO_LENGTH",
    "ANIMATION_TARGET_NOT_IN_SCENE",
)


@dataclass(frozen=True)
class Track:
    """One channel's keys: ``times`` ``(keys,)``, ``values`` ``(keys, width)`` in float64,
    ``tangents`` ``(keys, 2, width)`` for cubic splines (in and out), else None."""

    path: str
    interpolation: str
    times: np.ndarray
    values: np.ndarray
    tangents: np.ndarray | None
    key_bytes: int  # the output bytes one key takes


def is_constant(track: Track) -> bool:
    """Whether every key holds the first key's value (and a spline's tangents are zero)."""
    if len(track.values) < 2:
        return False
    if track.tangents is not None and np.abs(track.tangents).max() > _tolerance(track):
        return False
    if track.path == "rotation":
        return bool((_angles(track.values[1:], track.values[:1]) <= ANGLE_TOLERANCE).all())
    return bool(np.abs(track.values - track.values[0]).max() <= _tolerance(track))


def redundant_keys(track: Track) -> np.ndarray:
    """The interior keys that the interpolation between their neighbours reproduces: for
    ``LINEAR``, keys on the line (the shortest turn, for rotations) from the key before to the
    key after; for ``STEP``, keys that repeat the key before. Cubic splines are not judged:
    their tangents shape the curve."""
    values, times = track.values, track.times
    if len(values) < 3 or track.interpolation == CUBICSPLINE:
        return np.empty(0, dtype=np.intp)
    before, here, after = values[:-2], values[1:-1], values[2:]
    if track.interpolation == STEP:
        expected = before
    else:
        share = ((times[1:-1] - times[:-2]) / (times[2:] - times[:-2]))[:, None]
        if track.path == "rotation":
            expected = _slerp(before, after, share)
        else:
            expected = before + (after - before) * share
    if track.path == "rotation":
        close = _angles(here, expected) <= ANGLE_TOLERANCE
    else:
        close = np.abs(here - expected).max(axis=1) <= _tolerance(track)
    return np.flatnonzero(close) + 1


def hemisphere_flips(track: Track) -> np.ndarray:
    """The keys of a rotation track whose quaternion points away from the one before (a
    negative dot product): the same turn could be stored on the near side."""
    if track.path != "rotation" or track.interpolation == STEP or len(track.values) < 2:
        return np.empty(0, dtype=np.intp)
    dots = (track.values[1:] * track.values[:-1]).sum(axis=1)
    return np.flatnonzero(dots < 0) + 1


def _tolerance(track: Track) -> float:
    return VALUE_TOLERANCE * max(1.0, float(np.abs(track.values).max(initial=0.0)))


def _angles(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The angles between the turns of unit quaternions ``a`` and ``b`` (row by row)."""
    dots = np.abs((a * b).sum(axis=1)) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return 2 * np.arccos(np.minimum(dots, 1.0))


def _slerp(a: np.ndarray, b: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Spherical interpolation from ``a`` to ``b`` by ``share``, the shortest way round, as the
    glTF specification's appendix defines it for ``LINEAR`` rotations."""
    dots = (a * b).sum(axis=1, keepdims=True)
    b = np.where(dots < 0, -b, b)
    angle = np.arccos(np.minimum(np.abs(dots), 1.0))
    sine = np.sin(angle)
    near = sine < 1e-9  # the same turn: interpolate linearly
    safe = np.where(near, 1.0, sine)
    first = np.where(near, 1 - share, np.sin((1 - share) * angle) / safe)
    second = np.where(near, share, np.sin(share * angle) / safe)
    return first * a + second * b


class _ContentChecker:
    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.accessors = links.items("accessors")

    @cached_property
    def shown(self) -> set[int] | None:
        """The nodes some scene shows (:func:`_nodes_in_scenes`)."""
        return _nodes_in_scenes(self.links)

    def check(self, index: int, animation: dict) -> None:
        at = child("/animations", index)
        samplers = dict(animation_samplers(animation))
        times = {number: self._times(sampler) for number, sampler in samplers.items()}
        readable = [keys for keys in times.values() if keys is not None]
        if readable and all(len(keys) == 1 for keys in readable):
            name = animation.get("name")
            self.issues.add(
                "ANIMATION_ZERO_LENGTH",
                pointer=at,
                name=repr(name) if isinstance(name, str) else f"#{index}",
                time=float(readable[0][0]),
            )
        channels = animation.get("channels")
        for number, channel in enumerate(channels if isinstance(channels, list) else ()):
            target = channel.get("target") if isinstance(channel, dict) else None
            node = index_of(target, "node")
            nodes = self.links.items("nodes")
            if node is None or not isinstance(target, dict) or resolve(node, nodes) is None:
                continue
            channel_at = child(child(at, "channels"), number)
            if self.shown is not None and node not in self.shown:
                self.issues.add(
                    "ANIMATION_TARGET_NOT_IN_SCENE",
                    pointer=child(child(channel_at, "target"), "node"),
                    node=node,
                )
            used = index_of(channel, "sampler")
            if used is None or used not in samplers:
                continue
            track = self._track(samplers[used], times[used], target.get("path"))
            if track is not None:
                self._check_track(track, channel_at, node)

    def _check_track(self, track: Track, at: str, node: int) -> None:
        fields = {"path": track.path, "node": node, "keys": len(track.values)}
        if is_constant(track):
            self.issues.add(
                "ANIMATION_CHANNEL_CONSTANT",
                pointer=at,
                bytes=len(track.values) * track.key_bytes,
                **fields,
            )
            return
        redundant = redundant_keys(track)
        if redundant.size:
            self.issues.add(
                "ANIMATION_REDUNDANT_KEYS",
                pointer=at,
                count=redundant.size,
                first=int(redundant[0]),
                bytes=redundant.size * track.key_bytes,
                **fields,
            )
        flips = hemisphere_flips(track)
        if flips.size:
            self.issues.add(
                "ANIMATION_ROTATION_HEMISPHERE_FLIP",
                pointer=at,
                count=flips.size,
                first=int(flips[0]),
                **fields,
            )

    def _times(self, sampler: dict) -> np.ndarray | None:
        """The sampler's keyframe times, when they are non-negative floats that increase."""
        accessor = index_of(sampler, "input")
        json = resolve(accessor, self.accessors)
        if accessor is None or json is None or accessor_format(json) not in ANIMATION_INPUT:
            return None
        data = self.links.reader.read(accessor)
        if data is None or not len(data):
            return None
        times = data[:, 0].astype(np.float64)
        if not np.isfinite(times).all() or (times < 0).any() or (np.diff(times) <= 0).any():
            return None
        return times

    def _track(self, sampler: dict, times: np.ndarray | None, path: object) -> Track | None:
        """The channel's keys at ``times``, or None when its sampler is broken (other rules
        report it)."""
        output = index_of(sampler, "output")
        json = resolve(output, self.accessors)
        valid = ANIMATION_OUTPUTS.get(path) if isinstance(path, str) else None
        if output is None or json is None or valid is None or accessor_format(json) not in valid:
            return None
        values = self.links.reader.normalized(output, np.float64)
        interpolation = sampler.get("interpolation", "LINEAR")
        if times is None or values is None or not np.isfinite(values).all():
            return None
        per_key = 3 if interpolation == CUBICSPLINE else 1
        rows = len(values) // (len(times) * per_key) if len(times) else 0
        if rows < 1 or rows * len(times) * per_key != len(values) or not isinstance(path, str):
            return None
        layout = self.links.layout(output)
        key_bytes = rows * per_key * layout.element_length if layout is not None else 0
        keys = values.reshape(len(times), per_key, -1)
        unit = keys[:, per_key // 2]
        if path == "rotation" and non_unit_rows(unit, UNIT_LENGTH_THRESHOLD_VEC4).size:
            return None  # Khronos' non-normalized quaternion rule reports it
        if interpolation == CUBICSPLINE:
            return Track(path, CUBICSPLINE, times, keys[:, 1], keys[:, ::2], key_bytes)
        return Track(path, str(interpolation), times, keys[:, 0], None, key_bytes)


def _nodes_in_scenes(links: DocumentLinks) -> set[int] | None:
    """The nodes some scene shows (its roots and their descendants); None in a document with
    no scenes (a library of parts, which shows nothing on its own)."""
    scenes = [scene for scene in links.items("scenes") if scene is not None]
    if not scenes:
        return None
    shown: set[int] = set()
    stack = [node for scene in scenes for node in index_list(scene, "nodes")]
    while stack:
        node = stack.pop()
        if node not in shown:
            shown.add(node)
            stack.extend(links.children.get(node, ()))
    return shown


def check_animation_content(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    checker = _ContentChecker(links, context.issues)
    for index, animation in enumerate(links.items("animations")):
        if animation is not None:
            checker.check(index, animation)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-animation-content",
            "What animation keys hold: tracks that never change, redundant keys, rotations "
            "that flip hemisphere, clips of no length, channels on nodes no scene shows.",
            check_animation_content,
            CODES,
            GLTF_FORMATS,
        )
    ]
