"""What an animation's keys hold: tracks that never change, keys that interpolation makes
redundant, rotations that flip hemisphere between keys, clips of no length, and channels that
move a node no scene shows (``docs/animations.md`` gives each rule, its tolerance and source).

The keyframes are read once per sampler; a channel whose sampler Khronos' rules already find
broken (times that do not increase, outputs of the wrong format or count, values that are not
finite, quaternions that are not unit length) is left to those rules, so each key here is a
number that means what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    index_of,
    resolve,
)
from assetcheck.issues import FileIssues
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC4
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
    """One channel's keys: ``times`` ``(keys,)``, ``values`` ``(keys, width)``, ``tangents``
    ``(keys, 2, width)`` for cubic splines (in and out), else None."""

    path: str
    interpolation: str
    times: np.ndarray
    values: np.ndarray
    tangents: np.ndarray | None = None
    key_bytes: int = 0  # the output bytes one key takes


@dataclass(frozen=True)
class Judgement:
    """What the rules find in one track: whether every key holds one value, and the numbers
    of the keys that are redundant and of those that flip hemisphere (ascending)."""

    constant: bool
    redundant: np.ndarray
    flips: np.ndarray


def judge(tracks: Sequence[Track]) -> list[Judgement]:
    """The judgement of each track, in order (``docs/animations.md``):

    - *constant*: two keys or more, every one within the tolerance of the first (and a
      spline's tangents zero);
    - *redundant*: interior keys that interpolation between their neighbours reproduces: for
      ``LINEAR``, keys on the line (the shortest turn, for rotations) from the key before to
      the key after; for ``STEP``, keys that repeat the key before; cubic splines are not
      judged, their tangents shape the curve;
    - *flips*: keys of a rotation (not ``STEP``) whose quaternion has a negative dot product
      with the key before.

    Tracks of one kind (rotation or not, interpolation, width) are judged together, end to
    end: a fixed number of array operations per kind, however many channels a file has.
    """
    kinds: dict[tuple[bool, str, int], list[int]] = {}
    for number, track in enumerate(tracks):
        kind = (track.path == "rotation", track.interpolation, track.values.shape[1])
        kinds.setdefault(kind, []).append(number)
    found: dict[int, Judgement] = {}
    for members in kinds.values():
        found.update(zip(members, _judge_kind([tracks[n] for n in members]), strict=True))
    return [found[number] for number in range(len(tracks))]


def _judge_kind(tracks: list[Track]) -> list[Judgement]:
    """:func:`judge` for tracks of one kind, their keys laid end to end, component by
    component (rows of ``(width, keys)``: numpy reduces across a few long rows far faster
    than along many short ones). A key's neighbours are read through shifted views, and pairs
    that straddle two tracks are dropped."""
    rotation, interpolation = tracks[0].path == "rotation", tracks[0].interpolation
    lengths = np.array([len(track.values) for track in tracks])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    owner = np.repeat(np.arange(len(tracks)), lengths)
    rows = np.ascontiguousarray(np.concatenate([track.values for track in tracks]).T, np.float64)
    times = np.concatenate([track.times for track in tracks]).astype(np.float64)
    low, high = np.minimum.reduceat(rows, starts, axis=1), np.maximum.reduceat(rows, starts, axis=1)
    tolerance = VALUE_TOLERANCE * np.maximum(np.maximum(-low, high).max(axis=0), 1.0)
    # Rotations Khronos finds not unit length are left to its rule.
    judged = ~_non_unit(rows, starts) if rotation else np.ones(len(tracks), dtype=bool)

    empty = np.empty(0, dtype=np.intp)
    flips = empty
    if rotation and interpolation != STEP:
        dots = (rows[:, 1:] * rows[:, :-1]).sum(axis=0)
        flips = np.flatnonzero((dots < 0) & (owner[1:] == owner[:-1])) + 1
        flips = flips[judged[owner[flips]]]
    # A component moved by d turns a unit quaternion by about 2d radians; a rotation track
    # whose keys flip sign is not judged constant (its flips are reported).
    spread = (high - low).max(axis=0)
    if rotation:
        flipped = np.zeros(len(tracks), dtype=bool)
        flipped[owner[flips]] = True
        constant = (spread <= ANGLE_TOLERANCE / 2) & ~flipped
    else:
        constant = spread <= tolerance
    constant &= (lengths >= 2) & judged
    for number, track in enumerate(tracks):
        if track.tangents is not None and np.abs(track.tangents).max() > tolerance[number]:
            constant[number] = False

    redundant = empty
    if interpolation != CUBICSPLINE and len(times) > 2:
        before, here, after = rows[:, :-2], rows[:, 1:-1], rows[:, 2:]
        # Triples across two tracks give meaningless numbers (even NaN): they are dropped.
        with np.errstate(divide="ignore", invalid="ignore"):
            if interpolation == STEP:
                expected = before
            else:
                share = (times[1:-1] - times[:-2]) / (times[2:] - times[:-2])
                expected = (_slerp if rotation else _lerp)(before, after, share)
            if rotation:
                close = _angles(here, expected) <= ANGLE_TOLERANCE
            else:
                deviation = np.subtract(here, expected)
                close = np.abs(deviation, out=deviation).max(axis=0) <= tolerance[owner[1:-1]]
        redundant = np.flatnonzero(close & (owner[:-2] == owner[2:])) + 1
        redundant = redundant[judged[owner[redundant]]]
    return [
        Judgement(bool(constant[number]), keys, turns)
        for number, keys, turns in zip(
            range(len(tracks)),
            _per_track(redundant, owner, starts),
            _per_track(flips, owner, starts),
            strict=True,
        )
    ]


def _per_track(positions: np.ndarray, owner: np.ndarray, starts: np.ndarray) -> list[np.ndarray]:
    """Ascending positions in the keys laid end to end, as key numbers within each track."""
    bounds = np.searchsorted(owner[positions], np.arange(len(starts) + 1))
    return [
        positions[bounds[number] : bounds[number + 1]] - start
        for number, start in enumerate(starts)
    ]


def _non_unit(rows: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per track of quaternion ``rows``, whether a key's length is off 1 by more than
    Khronos' threshold for unit quaternions."""
    error = np.abs(np.sqrt((rows * rows).sum(axis=0)) - 1)
    return np.maximum.reduceat(error, starts) > UNIT_LENGTH_THRESHOLD_VEC4


def _lerp(a: np.ndarray, b: np.ndarray, share: np.ndarray) -> np.ndarray:
    """``a + (b - a) * share`` for rows ``a`` and ``b``, computed in place: numpy's reuse of
    the temporary in the plain expression, broadcast over views of one array, is 20 times
    slower."""
    result = np.subtract(b, a)
    result *= share
    result += a
    return result


def _angles(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The angles between the turns of quaternions ``a`` and ``b``, ``(4, n)`` each."""
    dots = np.abs((a * b).sum(axis=0)) / np.sqrt((a * a).sum(axis=0) * (b * b).sum(axis=0))
    return 2 * np.arccos(np.minimum(dots, 1.0))


def _slerp(a: np.ndarray, b: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Spherical interpolation from ``a`` to ``b`` (``(4, n)``) by ``share``, the shortest way
    round, as the glTF specification's appendix defines it for ``LINEAR`` rotations."""
    dots = (a * b).sum(axis=0)
    angle = np.arccos(np.minimum(np.abs(dots), 1.0))
    sine = np.sin(angle)
    near = sine < 1e-9  # the same turn: interpolate linearly
    safe = np.where(near, 1.0, sine)
    first = np.where(near, 1 - share, np.sin((1 - share) * angle) / safe)
    second = np.where(near, share, np.sin(share * angle) / safe)
    second[dots < 0] *= -1  # the near side of b
    result = a * first
    result += b * second
    return result


class _ContentChecker:
    """Walks the animations, reporting what the JSON shows at once and gathering each
    channel's track; :meth:`report_tracks` then judges the tracks together."""

    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.accessors = links.items("accessors")
        self.nodes = links.items("nodes")
        self.tracks: list[tuple[Track, str, int]] = []  # track, channel pointer, node
        self._times: dict[int, np.ndarray | None] = {}

    @cached_property
    def shown(self) -> dict[int, set[int]] | None:
        """The nodes some scene shows (:attr:`DocumentLinks.node_scenes`); None in a document
        with no scenes (a library of parts, which shows nothing on its own)."""
        if not any(scene is not None for scene in self.links.items("scenes")):
            return None
        return self.links.node_scenes

    def check(self, index: int, animation: dict) -> None:
        at = child("/animations", index)
        samplers = dict(animation_samplers(animation))
        times = {number: self._keyframe_times(sampler) for number, sampler in samplers.items()}
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
            if node is None or not isinstance(target, dict) or resolve(node, self.nodes) is None:
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
                self.tracks.append((track, channel_at, node))

    def report_tracks(self) -> None:
        judgements = judge([track for track, _, _ in self.tracks])
        for (track, at, node), judgement in zip(self.tracks, judgements, strict=True):
            fields = {"pointer": at, "path": track.path, "node": node, "keys": len(track.values)}
            if judgement.constant:
                bytes_ = len(track.values) * track.key_bytes
                self.issues.add("ANIMATION_CHANNEL_CONSTANT", bytes=bytes_, **fields)
                continue
            for code, keys in (
                ("ANIMATION_REDUNDANT_KEYS", judgement.redundant),
                ("ANIMATION_ROTATION_HEMISPHERE_FLIP", judgement.flips),
            ):
                if keys.size:
                    self.issues.add(
                        code,
                        count=keys.size,
                        first=int(keys[0]),
                        bytes=keys.size * track.key_bytes,
                        **fields,
                    )

    def _keyframe_times(self, sampler: dict) -> np.ndarray | None:
        """The sampler's keyframe times, when they are non-negative floats that increase
        (read once per input accessor)."""
        accessor = index_of(sampler, "input")
        if accessor is None:
            return None
        if accessor not in self._times:
            self._times[accessor] = self._read_times(accessor)
        return self._times[accessor]

    def _read_times(self, accessor: int) -> np.ndarray | None:
        json = resolve(accessor, self.accessors)
        if json is None or accessor_format(json) not in ANIMATION_INPUT:
            return None
        data = self.links.reader.read(accessor)
        if data is None or not len(data):
            return None
        times = data[:, 0]
        # NaN fails both comparisons, and an infinity before the last key makes a step <= 0.
        increasing = times[0] >= 0 and bool((np.diff(times) > 0).all())
        return times if increasing and np.isfinite(times[-1]) else None

    def _track(self, sampler: dict, times: np.ndarray | None, path: object) -> Track | None:
        """The channel's keys at ``times``, or None when its sampler is broken (other rules
        report it)."""
        output = index_of(sampler, "output")
        json = resolve(output, self.accessors)
        valid = ANIMATION_OUTPUTS.get(path) if isinstance(path, str) else None
        if output is None or json is None or valid is None or accessor_format(json) not in valid:
            return None
        values = self.links.reader.normalized(output)
        interpolation = sampler.get("interpolation", "LINEAR")
        if times is None or values is None or not isinstance(path, str):
            return None
        per_key = 3 if interpolation == CUBICSPLINE else 1
        rows = len(values) // (len(times) * per_key)
        if rows < 1 or rows * len(times) * per_key != len(values):
            return None
        keys = values.reshape(len(times), per_key, -1)
        if not np.isfinite(keys).all():
            return None  # Khronos' rule on floats reports it
        layout = self.links.layout(output)
        key_bytes = rows * per_key * layout.element_length if layout is not None else 0
        if interpolation == CUBICSPLINE:
            return Track(path, CUBICSPLINE, times, keys[:, 1], keys[:, ::2], key_bytes)
        return Track(path, str(interpolation), times, keys[:, 0], None, key_bytes)


def check_animation_content(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    checker = _ContentChecker(links, context.issues)
    for index, animation in enumerate(links.items("animations")):
        if animation is not None:
            checker.check(index, animation)
    checker.report_tracks()


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
