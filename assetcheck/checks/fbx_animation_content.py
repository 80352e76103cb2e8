"""FBX animation curves under the rules of glTF animation keys (``docs/animations.md``): key
times that do not increase, values that are not finite, stacks of no length, curves that never
change, keys that interpolation makes redundant, Euler rotation keys that jump by more than half
a turn, and curves on models not connected to the scene.

The curves come from the reader (``FbxScene.curves``), every stack's laid end to end; the
constant and redundant-key rules are the format-neutral ones of :mod:`assetcheck.animation.keys`,
judging all the curves together. Findings are grouped by animated property (one curve node:
``Lcl Translation`` of a model, in one stack), each naming its first key.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from assetcheck.animation.keys import CUBICSPLINE, STEP, Track, judge
from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.fbx.animation import CONSTANT, CUBIC, LINEAR, FbxCurves
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

#: What one key stores: its ``KeyTime`` (int64) and its ``KeyValueFloat`` (float32).
KEY_BYTES = 12
#: A rotation curve's keys more than this many degrees apart turn the long way round.
HALF_TURN = 180.0
ROTATION = "Lcl Rotation"
#: The interpolations whose keys the redundant-key rule judges, as it names them; "constant
#: next" and cubic keys are not judged (cubic slopes shape the curve).
JUDGED = {CONSTANT: STEP, LINEAR: "LINEAR"}

CODES = (
    "FBX_ANIMATION_KEY_TIMES_NOT_INCREASING",
    "FBX_ANIMATION_VALUE_NOT_FINITE",
    "FBX_ANIMATION_ZERO_LENGTH",
    "FBX_ANIMATION_CURVE_CONSTANT",
    "FBX_ANIMATION_REDUNDANT_KEYS",
    "FBX_ANIMATION_ROTATION_JUMP",
    "FBX_ANIMATION_TARGET_NOT_IN_SCENE",
)


def check_fbx_animation_content(asset: Asset, context: CheckContext) -> None:
    if asset.fbx is None or asset.fbx.curves is None:
        return
    _CurveChecker(asset.fbx.curves, context.issues).check()


@dataclass(frozen=True)
class _Part:
    """A track handed to the key rules: all of ``curve``'s keys (``whole``), or a run of its
    keys from ``offset`` with one interpolation, judged for redundant keys only."""

    curve: int
    offset: int = 0
    whole: bool = True


class _CurveChecker:
    def __init__(self, curves: FbxCurves, issues: FileIssues) -> None:
        self.curves = curves
        self.issues = issues
        self.owner = curves.owner
        self.starts, self.ends = curves.starts, curves.ends
        self.channels: dict[tuple[int, str, str], list[int]] = defaultdict(list)
        for curve in range(len(curves.starts)):
            self.channels[self._channel(curve)].append(curve)

    def check(self) -> None:
        self._check_stacks()
        judged = self._check_keys()
        self._check_targets()
        self._judge(judged)

    def _channel(self, curve: int) -> tuple[int, str, str]:
        c = self.curves
        return int(c.stack[curve]), c.target[curve], c.property_name[curve]

    def _fields(self, curve: int) -> dict[str, object]:
        c = self.curves
        return {
            "stack": c.stacks[c.stack[curve]],
            "target": c.target[curve],
            "property": c.property_name[curve],
        }

    def _check_stacks(self) -> None:
        """Stacks whose declared span is empty, or whose curves' keys span no time (a stack
        with no curve at all is the empty take exporters write for a static scene)."""
        c = self.curves
        for number, name in enumerate(c.stacks):
            start, stop = c.spans[number]
            keys = np.flatnonzero(c.stack[self.owner] == number)
            curves = np.any(c.stack == number)
            if start == stop:
                reason = f"its LocalStart and LocalStop are both {start:g} s"
            elif not curves:  # the empty take Maya writes with every static scene
                continue
            elif not len(keys):
                reason = "none of its curves has a key"
            elif np.ptp(c.times[keys]) == 0:
                reason = f"every key of its curves is at {c.times[keys[0]]:g} s"
            else:
                continue
            self.issues.add("FBX_ANIMATION_ZERO_LENGTH", stack=name, reason=reason)

    def _check_keys(self) -> np.ndarray:
        """Times that do not increase, keys that are not finite; the curves neither touches (a
        mask), which the key rules judge."""
        c = self.curves
        good = np.ones(len(c.starts), dtype=bool)
        same = self.owner[1:] == self.owner[:-1]
        broken = ~(np.isfinite(c.values) & np.isfinite(c.times))
        self._report_keys("FBX_ANIMATION_VALUE_NOT_FINITE", np.flatnonzero(broken), good)
        with np.errstate(invalid="ignore"):
            back = np.flatnonzero(same & ~(np.diff(c.times) > 0) & ~broken[1:] & ~broken[:-1])
        self._report_keys("FBX_ANIMATION_KEY_TIMES_NOT_INCREASING", back + 1, good)
        return good

    def _report_keys(self, code: str, keys: np.ndarray, good: np.ndarray) -> None:
        """One finding per animated property for the ``keys`` (ascending), naming the first;
        their curves are taken out of ``good``."""
        if not keys.size:
            return
        curves = self.owner[keys]
        good[curves] = False
        for found in self._by_channel(curves, keys).values():
            first = found[0]
            curve = int(self.owner[first])
            fields = {"first": int(first - self.starts[curve]), **self._fields(curve)}
            if code == "FBX_ANIMATION_VALUE_NOT_FINITE":
                fields["count"] = len(found)
            else:
                fields["time"] = float(self.curves.times[first])
            self.issues.add(code, component=self.curves.component[curve], **fields)

    def _by_channel(self, curves: np.ndarray, items: np.ndarray) -> dict[tuple, list[int]]:
        """``items`` grouped by the animated property of their ``curves``."""
        found: dict[tuple, list[int]] = defaultdict(list)
        for curve, item in zip(curves.tolist(), items.tolist(), strict=True):
            found[self._channel(curve)].append(item)
        return found

    def _check_targets(self) -> None:
        """Models not connected to the scene: one finding per model and stack."""
        c = self.curves
        found: dict[tuple[int, str], int] = defaultdict(int)
        for curve in np.flatnonzero(~c.in_scene):
            found[(int(c.stack[curve]), c.target[curve])] += 1
        for (stack, target), count in found.items():
            self.issues.add(
                "FBX_ANIMATION_TARGET_NOT_IN_SCENE",
                stack=c.stacks[stack],
                target=target,
                count=count,
            )

    def _judge(self, good: np.ndarray) -> None:
        """The key rules on every readable curve with keys, then Euler jumps on rotations."""
        parts, tracks = self._tracks(good)
        constant: dict[tuple, list[int]] = defaultdict(list)
        redundant: dict[tuple, list[int]] = defaultdict(list)
        for part, judgement in zip(parts, judge(tracks), strict=True):
            if part.whole and judgement.constant:
                constant[self._channel(part.curve)].append(part.curve)
            elif judgement.redundant.size:
                keys = judgement.redundant + self.starts[part.curve] + part.offset
                redundant[self._channel(part.curve)] += keys.tolist()
        changing = good.copy()
        for curves in constant.values():
            changing[curves] = False
            total = int((self.ends[curves] - self.starts[curves]).sum())
            self.issues.add(
                "FBX_ANIMATION_CURVE_CONSTANT",
                components=", ".join(self.curves.component[curve] for curve in curves),
                keys=total,
                bytes=total * KEY_BYTES,
                **self._fields(curves[0]),
            )
        for found in redundant.values():
            keys = [key for key in found if changing[self.owner[key]]]
            if keys:
                extra = {"bytes": len(keys) * KEY_BYTES}
                self._report_count("FBX_ANIMATION_REDUNDANT_KEYS", keys, extra)
        self._check_jumps(changing)

    def _report_count(self, code: str, keys: list[int], extra: Mapping[str, object]) -> None:
        """One finding for ``keys`` (positions in the keys laid end to end) of one animated
        property: how many of the keys of its curves they are, and the first."""
        first = min(keys)
        curve = int(self.owner[first])
        curves = self.channels[self._channel(curve)]
        total = int((self.ends[curves] - self.starts[curves]).sum())
        self.issues.add(
            code,
            count=len(keys),
            keys=total,
            first=int(first - self.starts[curve]),
            component=self.curves.component[curve],
            **extra,
            **self._fields(curve),
        )

    def _tracks(self, good: np.ndarray) -> tuple[list[_Part], list[Track]]:
        """Each judged curve as a track: of its one interpolation (cubic keys with their
        slopes); a curve that mixes interpolations is judged whole only for being constant
        (as cubic), and its runs of linear or constant keys for redundant keys."""
        c = self.curves
        parts, tracks = [], []
        for curve in np.flatnonzero(good & (self.ends > self.starts)).tolist():
            start, end = int(self.starts[curve]), int(self.ends[curve])
            times, values = c.times[start:end], c.values[start:end, None]
            modes = c.modes[start : end - 1]
            first = int(modes[0]) if len(modes) else CUBIC
            uniform = bool(np.all(modes == first))
            path = c.property_name[curve]
            if uniform and first in JUDGED:
                tracks.append(Track(path, JUDGED[first], times, values, None, KEY_BYTES))
                parts.append(_Part(curve))
                continue
            slopes = c.slopes[start:end, :, None]
            tracks.append(Track(path, CUBICSPLINE, times, values, slopes, KEY_BYTES))
            parts.append(_Part(curve))
            if uniform:
                continue
            for run_start, run_end, mode in _runs(modes):
                if mode in JUDGED and run_end - run_start >= 2:
                    keys = slice(run_start, run_end + 1)
                    tracks.append(Track(path, JUDGED[mode], times[keys], values[keys]))
                    parts.append(_Part(curve, run_start, whole=False))
        return parts, tracks

    def _check_jumps(self, changing: np.ndarray) -> None:
        """Rotation keys more than half a turn from the key before, on a segment that
        interpolates (not constant)."""
        c = self.curves
        rotation = np.array([prop == ROTATION for prop in c.property_name], dtype=bool)
        judged = (rotation & changing)[self.owner]
        step = np.abs(np.diff(c.values))
        interpolated = (c.modes[:-1] == LINEAR) | (c.modes[:-1] == CUBIC)
        same = self.owner[1:] == self.owner[:-1]
        jumps = np.flatnonzero(same & judged[1:] & interpolated & (step > HALF_TURN)) + 1
        for keys in self._by_channel(self.owner[jumps], jumps).values():
            extra = {"degrees": round(float(step[min(keys) - 1]), 1)}
            self._report_count("FBX_ANIMATION_ROTATION_JUMP", keys, extra)


def _runs(modes: np.ndarray) -> list[tuple[int, int, int]]:
    """The runs of segments of one interpolation (``modes`` of the keys that start them), as
    (the run's first key, its last key, the mode)."""
    edges = np.flatnonzero(np.diff(modes)) + 1
    bounds = [0, *edges.tolist(), len(modes)]
    return [(a, b, int(modes[a])) for a, b in pairwise(bounds)]


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "fbx-animation-content",
            "FBX animation curves: key times that do not increase, keys that are not "
            "finite, stacks of no length, curves that never change, redundant keys, Euler "
            "rotations that jump by more than half a turn, models not in the scene.",
            check_fbx_animation_content,
            CODES,
            frozenset({"fbx"}),
        )
    ]
