"""Animations: sampler accessors (formats, keyframe times, output counts, unit quaternions),
channel targets and duplicate channels, as Khronos glTF-Validator checks them."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_bounds import has_bounds
from assetcheck.formats.gltf.accessor_formats import (
    ANIMATION_INPUT,
    ANIMATION_OUTPUTS,
    accessor_format,
    describe,
)
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    animation_samplers,
    index_of,
    resolve,
    resolves,
)
from assetcheck.issues import FileIssues
from assetcheck.issues.findings import Finding
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC4, non_unit_rows
from assetcheck.plugins.hookspecs import hookimpl

CUBICSPLINE = "CUBICSPLINE"
#: Pairs of channels with one target listed one by one in an animation; more are only counted
#: (``n`` channels on one target make n(n-1)/2 pairs, and the report keeps 100 per code anyway).
MAX_LISTED_DUPLICATE_PAIRS = 1000
TRS_PATHS = ("translation", "rotation", "scale")

CODES = (
    "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE",
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
    "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
    "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
    "ANIMATION_CHANNEL_TARGET_NODE_MATRIX",
    "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
    "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
    "ANIMATION_DUPLICATE_TARGETS",
    "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
    "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
    "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
)


def input_findings(times: np.ndarray) -> list[Finding]:
    """Negative keyframe times, and times not greater than the previous non-negative one."""
    findings = []
    negative = np.flatnonzero(times < 0)
    if negative.size:
        findings.append(
            Finding(
                "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
                count=negative.size,
                first=int(negative[0]),
                value=repr(float(times[negative[0]])),
            )
        )
    kept = np.flatnonzero(~(times < 0))
    previous = np.concatenate([[0.0], times[kept[:-1]]]) if kept.size else kept
    stalled = kept[(times[kept] <= previous) & (kept != 0)]
    if stalled.size:
        findings.append(
            Finding(
                "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
                count=stalled.size,
                first=int(stalled[0]),
            )
        )
    return findings


class _AnimationChecker:
    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.accessors = links.items("accessors")

    def check(self, index: int, animation: dict) -> None:
        samplers = animation_samplers(animation)
        if not samplers:
            return
        at = child("/animations", index)
        for number, sampler in samplers:
            self._check_sampler(sampler, child(child(at, "samplers"), number))
        channels = animation["channels"]
        later = _later_same_targets(channels)
        listed = 0
        for number, channel in enumerate(channels):
            channel_at = child(child(at, "channels"), number)
            target = channel.get("target") if isinstance(channel.get("target"), dict) else None
            if target is not None:
                self._check_target(target, child(channel_at, "target"))
            used = index_of(channel, "sampler")
            if target is not None and used is not None and used < len(samplers):
                self._check_output(samplers[used][1], target, child(channel_at, "sampler"))
            group, start = later.get(number, ((), 0))
            room = max(0, MAX_LISTED_DUPLICATE_PAIRS - listed)
            for other in group[start : start + room]:
                self.issues.add(
                    "ANIMATION_DUPLICATE_TARGETS", pointer=child(channel_at, "target"), other=other
                )
            self.issues.add_count("ANIMATION_DUPLICATE_TARGETS", len(group) - start - room)
            listed += len(group) - start

    def _check_sampler(self, sampler: dict, at: str) -> None:
        for key in ("input", "output"):
            accessor = index_of(sampler, key)
            if resolves(accessor, self.accessors) and self._strided(accessor):
                self.issues.add(
                    "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", pointer=child(at, key)
                )
        accessor = index_of(sampler, "input")
        json = resolve(accessor, self.accessors)
        if accessor is None or json is None:
            return
        pointer = child(at, "input")
        found = accessor_format(json)
        if found not in ANIMATION_INPUT:
            self.issues.add(
                "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", pointer=pointer, format=found
            )
        else:
            times = self.links.reader.read(accessor)
            for finding in input_findings(times[:, 0]) if times is not None else ():
                finding.at(pointer=pointer).report_to(self.issues)
        if not has_bounds(json, self.links.layout(accessor)):
            self.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", pointer=pointer)
        layout = self.links.layout(accessor)
        if sampler.get("interpolation") == CUBICSPLINE and layout is not None and layout.count < 2:
            self.issues.add(
                "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
                pointer=pointer,
                count=layout.count,
            )

    def _strided(self, accessor: int) -> bool:
        view = resolve(
            index_of(self.accessors[accessor], "bufferView"), self.links.items("bufferViews")
        )
        return view is not None and "byteStride" in view

    def _check_target(self, target: dict, at: str) -> None:
        node = resolve(index_of(target, "node"), self.links.items("nodes"))
        if node is None:
            return
        path = target.get("path")
        if path in TRS_PATHS:
            if isinstance(node.get("matrix"), list):
                self.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", pointer=at)
            if resolves(index_of(node, "skin"), self.links.items("skins")):
                self.issues.add("ANIMATION_CHANNEL_TARGET_NODE_SKIN", pointer=child(at, "path"))
        elif path == "weights" and self._morph_targets(node) is None:
            self.issues.add("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", pointer=at)

    def _morph_targets(self, node: dict) -> int | None:
        """The morph target count of the node's mesh's first primitive (None: no targets)."""
        mesh = index_of(node, "mesh")
        primitives = self.links.mesh_primitives(mesh) if mesh is not None else []
        return len(primitives[0].targets) if primitives and primitives[0].targets else None

    def _check_output(self, sampler: dict, target: dict, at: str) -> None:
        output = index_of(sampler, "output")
        json = resolve(output, self.accessors)
        if output is None or json is None:
            return
        path, interpolation = target.get("path"), sampler.get("interpolation", "LINEAR")
        layout = self.links.layout(output)
        if path == "rotation" and layout is not None and layout.components == 4:
            self._check_quaternions(output, interpolation == CUBICSPLINE, at)
        found = accessor_format(json)
        valid = ANIMATION_OUTPUTS.get(path) if isinstance(path, str) else None
        if valid is not None and found not in valid:
            self.issues.add(
                "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
                pointer=at,
                format=found,
                path=path,
                valid=describe(valid),
            )
        input_layout = self.links.layout(index_of(sampler, "input"))
        if input_layout is None or layout is None or not isinstance(interpolation, str):
            return
        expected = input_layout.count * (3 if interpolation == CUBICSPLINE else 1)
        if path == "weights":
            node = resolve(index_of(target, "node"), self.links.items("nodes"))
            expected *= (self._morph_targets(node) or 0) if node is not None else 0
        elif path not in TRS_PATHS:
            expected = 0
        if expected and expected != layout.count:
            self.issues.add(
                "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
                pointer=at,
                expected=expected,
                count=layout.count,
            )

    def _check_quaternions(self, accessor: int, cubic: bool, at: str) -> None:
        values = self.links.reader.normalized(accessor)
        if values is None:
            return
        # A cubic spline keyframe is (in-tangent, value, out-tangent): only values are unit.
        rows = np.arange(1, len(values), 3) if cubic else np.arange(len(values))
        bad = rows[non_unit_rows(values[rows], UNIT_LENGTH_THRESHOLD_VEC4)]
        if bad.size:
            length = float(np.linalg.norm(values[bad[0]].astype(np.float64)))
            self.issues.add(
                "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
                pointer=at,
                count=bad.size,
                first=int(bad[0]),
                length=repr(length),
            )


def _later_same_targets(channels: list[dict]) -> dict[int, tuple[list[int], int]]:
    """Channel number -> its group of channels with the same target (node and path), in
    order, and where in the group the later ones start.

    Khronos reports every pair of channels with one target; grouping them by target finds the
    pairs in time linear in the channels, and sharing the group (no copy of the later ones per
    channel) keeps ``n`` channels on one target in memory linear in ``n``.
    """
    groups: dict[tuple[int, Hashable], list[int]] = {}
    for number, channel in enumerate(channels):
        target = channel.get("target")
        if not isinstance(target, dict):
            continue
        node = index_of(target, "node")
        if node is not None:
            groups.setdefault((node, _hashable(target.get("path"))), []).append(number)
    return {
        number: (group, place + 1)
        for group in groups.values()
        if len(group) > 1
        for place, number in enumerate(group)
    }


def _hashable(value: object) -> Hashable:
    """A JSON value as a hashable key that is equal for equal values (lists and objects too)."""
    if isinstance(value, list):
        return ("list", tuple(_hashable(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _hashable(item)) for key, item in value.items()))
    return value


def check_animations(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links = asset.gltf.links
    checker = _AnimationChecker(links, context.issues)
    for index, animation in enumerate(links.items("animations")):
        if animation is not None:
            checker.check(index, animation)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-animations",
            "Animation samplers (keyframe times, output formats and "
            "counts, unit quaternions), channel targets and duplicate channels.",
            check_animations,
            CODES,
            GLTF_FORMATS,
        )
    ]
