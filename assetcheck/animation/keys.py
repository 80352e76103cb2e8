"""Judging animation keys, whatever the format: tracks that never change, keys that
interpolation makes redundant, quaternion keys that flip hemisphere (``docs/animations.md``
gives each rule, its tolerance and source).

A :class:`Track` is one channel's keys as numbers that mean what they say (the format's
reader has left out tracks whose times do not increase or whose values are not finite);
:func:`judge` judges any number of them together, one kind at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC4

#: A key is redundant (or a track constant) when it is within this fraction of the track's
#: largest magnitude (at least 1) of the value interpolation gives without it.
VALUE_TOLERANCE = 1e-5
#: The same for rotations: the angle, in radians, between the key and the interpolated turn.
ANGLE_TOLERANCE = 1e-4
CUBICSPLINE, STEP = "CUBICSPLINE", "STEP"


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


@dataclass(frozen=True)
class LaidTracks:
    """Tracks of one kind laid end to end, component by component: ``rows`` ``(width, keys)``
    float64, ``times`` ``(keys,)``, ``starts`` the first key of each track (ascending from 0;
    every track has a key), ``slopes`` the largest tangent magnitude of each track (None when
    the tracks have no tangents)."""

    rotation: bool
    interpolation: str
    times: np.ndarray
    rows: np.ndarray
    starts: np.ndarray
    slopes: np.ndarray | None = None

    @property
    def owner(self) -> np.ndarray:
        """The track of each key."""
        lengths = np.diff(self.starts, append=self.times.shape[0])
        return np.repeat(np.arange(len(self.starts)), lengths)


@dataclass(frozen=True)
class LaidJudgement:
    """What the rules find in tracks laid end to end: whether each track is constant, and the
    positions (in the keys laid end to end, ascending) of redundant keys and of flips."""

    constant: np.ndarray
    redundant: np.ndarray
    flips: np.ndarray


def _judge_kind(tracks: list[Track]) -> list[Judgement]:
    """:func:`judge` for tracks of one kind: :func:`judge_laid` on their keys laid end to
    end."""
    lengths = np.array([len(track.values) for track in tracks])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    slopes = None
    if any(track.tangents is not None for track in tracks):
        slopes = np.array(
            [0.0 if t.tangents is None else float(np.abs(t.tangents).max()) for t in tracks]
        )
    laid = LaidTracks(
        tracks[0].path == "rotation",
        tracks[0].interpolation,
        np.concatenate([track.times for track in tracks]).astype(np.float64),
        np.ascontiguousarray(np.concatenate([track.values for track in tracks]).T, np.float64),
        starts,
        slopes,
    )
    found = judge_laid(laid)
    owner = laid.owner
    return [
        Judgement(bool(found.constant[number]), keys, turns)
        for number, keys, turns in zip(
            range(len(tracks)),
            per_track(found.redundant, owner, starts),
            per_track(found.flips, owner, starts),
            strict=True,
        )
    ]


def judge_laid(laid: LaidTracks) -> LaidJudgement:
    """:func:`judge` for tracks of one kind laid end to end, component by component (rows of
    ``(width, keys)``: numpy reduces across a few long rows far faster than along many short
    ones). A key's neighbours are read through shifted views, and pairs that straddle two
    tracks are dropped."""
    rotation, interpolation = laid.rotation, laid.interpolation
    rows, times, starts, owner = laid.rows, laid.times, laid.starts, laid.owner
    lengths = np.diff(starts, append=len(times))
    low, high = np.minimum.reduceat(rows, starts, axis=1), np.maximum.reduceat(rows, starts, axis=1)
    tolerance = VALUE_TOLERANCE * np.maximum(np.maximum(-low, high).max(axis=0), 1.0)
    # Rotations Khronos finds not unit length are left to its rule.
    judged = ~_non_unit(rows, starts) if rotation else np.ones(len(starts), dtype=bool)

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
        flipped = np.zeros(len(starts), dtype=bool)
        flipped[owner[flips]] = True
        constant = (spread <= ANGLE_TOLERANCE / 2) & ~flipped
    else:
        constant = spread <= tolerance
    constant &= (lengths >= 2) & judged
    if laid.slopes is not None:
        constant &= laid.slopes <= tolerance

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
    return LaidJudgement(constant, redundant, flips)


def per_track(positions: np.ndarray, owner: np.ndarray, starts: np.ndarray) -> list[np.ndarray]:
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
