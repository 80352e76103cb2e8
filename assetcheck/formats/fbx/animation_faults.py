"""What breaks the rules of animation keys in an FBX file's curves (``docs/animations.md``):
found here, reported by the ``fbx-animation-content`` check
(:mod:`assetcheck.checks.fbx_animation_content`), which imports this module for the first FBX
file with curves: other runs never load it (``docs/performance.md``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from assetcheck.formats.fbx.animation import CONSTANT, CUBIC, LINEAR, FbxCurves
from assetcheck.issues import FileIssues
from assetcheck.lazy_imports import lazy_module

if TYPE_CHECKING:
    from assetcheck.animation import keys as key_rules
else:  # imported by the first FBX file with animation curves
    key_rules = lazy_module("assetcheck.animation.keys")

#: What one key stores: its ``KeyTime`` (int64) and its ``KeyValueFloat`` (float32).
KEY_BYTES = 12
#: A rotation curve's keys more than this many degrees apart turn the long way round.
HALF_TURN = 180.0
ROTATION = "Lcl Rotation"
#: The interpolations whose keys the redundant-key rule judges, as it names them; "constant
#: next" and cubic keys are not judged (cubic slopes shape the curve).
JUDGED = {CONSTANT: "STEP", LINEAR: "LINEAR"}


def report_curve_faults(curves: FbxCurves, issues: FileIssues) -> None:
    """Report what is wrong with ``curves`` (a file's, every stack's) to ``issues``."""
    _CurveChecker(curves, issues).check()


class _CurveChecker:
    def __init__(self, curves: FbxCurves, issues: FileIssues) -> None:
        self.curves = curves
        self.issues = issues
        self.owner = curves.owner
        self.starts, self.ends = curves.starts, curves.ends
        named = (curves.stack.tolist(), curves.target, curves.property_name)
        self.channel_of = list(zip(*named, strict=True))
        self.channels: dict[tuple[int, str, str], list[int]] = defaultdict(list)
        for curve, channel in enumerate(self.channel_of):
            self.channels[channel].append(curve)
        numbers = {channel: number for number, channel in enumerate(self.channels)}
        #: Each curve's animated property, numbered.
        self.channel_number = np.array([numbers[ch] for ch in self.channel_of], dtype=np.intp)

    def check(self) -> None:
        self._check_stacks()
        judged = self._check_keys()
        self._check_targets()
        self._judge(judged)

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
            found[self.channel_of[curve]].append(item)
        return found

    def _first_and_count(self, items: np.ndarray) -> list[tuple[int, int]]:
        """Per animated property the ``items`` (ascending key positions) fall in, the first
        and how many, in the order of their first items."""
        at, counts = np.unique(
            self.channel_number[self.owner[items]], return_index=True, return_counts=True
        )[1:]
        order = np.argsort(at)
        return list(zip(items[at[order]].tolist(), counts[order].tolist(), strict=True))

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
        constant, redundant = self._judge_keys(good)
        still = np.flatnonzero(constant)
        for curves in self._by_channel(still, still).values():
            total = int((self.ends[curves] - self.starts[curves]).sum())
            self.issues.add(
                "FBX_ANIMATION_CURVE_CONSTANT",
                components=", ".join(self.curves.component[curve] for curve in curves),
                keys=total,
                bytes=total * KEY_BYTES,
                **self._fields(curves[0]),
            )
        changing = good & ~constant
        redundant = redundant[changing[self.owner[redundant]]]
        for first, count in self._first_and_count(redundant):
            extra = {"bytes": count * KEY_BYTES}
            self._report_count("FBX_ANIMATION_REDUNDANT_KEYS", first, count, extra)
        self._check_jumps(changing)

    def _report_count(self, code: str, first: int, count: int, extra: Mapping[str, object]) -> None:
        """One finding for ``count`` keys of one animated property, the ``first`` of them
        (positions in the keys laid end to end): how many of the keys of its curves they are,
        and the first."""
        curve = int(self.owner[first])
        curves = self.channels[self.channel_of[curve]]
        total = int((self.ends[curves] - self.starts[curves]).sum())
        self.issues.add(
            code,
            count=count,
            keys=total,
            first=int(first - self.starts[curve]),
            component=self.curves.component[curve],
            **extra,
            **self._fields(curve),
        )

    def _judge_keys(self, good: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which curves are constant (a mask), and the positions of redundant keys (ascending).

        Curves of one interpolation are judged together as tracks of that kind (cubic ones
        with their slopes, "constant next" ones as cubic: never redundant); a curve that mixes
        interpolations is judged whole as cubic, for being constant, and its runs of linear or
        constant keys for redundant keys (:meth:`_judge_runs`).
        """
        c = self.curves
        keyed = good & (self.ends > self.starts)
        last = np.zeros(len(c.times), dtype=bool)
        last[self.ends[keyed] - 1] = True
        first = np.full(len(c.starts), CUBIC)
        first[keyed] = c.modes[self.starts[keyed]]
        mixed = np.zeros(len(c.starts), dtype=bool)
        mixed[self.owner[~last & (c.modes != first[self.owner])]] = True
        mixed &= keyed
        constant = np.zeros(len(c.starts), dtype=bool)
        found = [self._judge_runs(np.flatnonzero(mixed))]
        plain = keyed & ~mixed
        for interpolation, chosen in (
            ("LINEAR", plain & (first == LINEAR)),
            (key_rules.STEP, plain & (first == CONSTANT)),
            (key_rules.CUBICSPLINE, keyed & (mixed | ((first != LINEAR) & (first != CONSTANT)))),
        ):
            if chosen.any():
                keys = np.flatnonzero(chosen[self.owner])
                judgement = key_rules.judge_laid(self._laid(chosen, keys, interpolation))
                constant[chosen] = judgement.constant
                found.append(keys[judgement.redundant])
        return constant, np.sort(np.concatenate(found))

    def _laid(
        self, chosen: np.ndarray, keys: np.ndarray, interpolation: str
    ) -> key_rules.LaidTracks:
        """The ``chosen`` curves (a mask), whose ``keys`` these are, as tracks laid end to
        end."""
        c = self.curves
        lengths = (self.ends - self.starts)[chosen]
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
        slopes = None
        if interpolation == key_rules.CUBICSPLINE:
            slopes = np.maximum.reduceat(np.abs(c.slopes[keys]).max(axis=1), starts)
        return key_rules.LaidTracks(
            False, interpolation, c.times[keys], c.values[keys][None], starts, slopes
        )

    def _judge_runs(self, curves: np.ndarray) -> np.ndarray:
        """The redundant keys of the runs of linear or constant keys of ``curves`` (which
        mix interpolations), as positions."""
        c = self.curves
        tracks, offsets = [], []
        for curve in curves.tolist():
            start, end = int(self.starts[curve]), int(self.ends[curve])
            for run_start, run_end, mode in _runs(c.modes[start : end - 1]):
                if mode in JUDGED and run_end - run_start >= 2:
                    keys = slice(start + run_start, start + run_end + 1)
                    values = c.values[keys, None]
                    tracks.append(
                        key_rules.Track(c.property_name[curve], JUDGED[mode], c.times[keys], values)
                    )
                    offsets.append(start + run_start)
        found = [j.redundant + o for j, o in zip(key_rules.judge(tracks), offsets, strict=True)]
        return np.concatenate([np.empty(0, np.intp), *found])

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
        for first, count in self._first_and_count(jumps):
            extra = {"degrees": round(float(step[first - 1]), 1)}
            self._report_count("FBX_ANIMATION_ROTATION_JUMP", first, count, extra)


def _runs(modes: np.ndarray) -> list[tuple[int, int, int]]:
    """The runs of segments of one interpolation (``modes`` of the keys that start them), as
    (the run's first key, its last key, the mode)."""
    edges = np.flatnonzero(np.diff(modes)) + 1
    bounds = [0, *edges.tolist(), len(modes)]
    return [(a, b, int(modes[a])) for a, b in pairwise(bounds)]
