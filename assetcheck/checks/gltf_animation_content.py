"""What an animation's keys hold: tracks that never change, keys that interpolation makes
redundant, rotations that flip hemisphere between keys, clips of no length, and channels that
move a node no scene shows (``docs/animations.md`` gives each rule, its tolerance and source).

The keyframes are read once per sampler and judged together by the format-neutral rules of
:mod:`assetcheck.animation.keys`; a channel whose sampler Khronos' rules already find
broken (times that do not increase, outputs of the wrong format or count, values that are not
finite, quaternions that are not unit length) is left to those rules, so each key here is a
number that means what it says.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

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
from assetcheck.lazy_imports import lazy_module
from assetcheck.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    from assetcheck.animation import keys as key_rules
else:  # imported by the first file with animations
    key_rules = lazy_module("assetcheck.animation.keys")

CODES = (
    "ANIMATION_CHANNEL_CONSTANT",
    "ANIMATION_REDUNDANT_KEYS",
    "ANIMATION_ROTATION_HEMISPHERE_FLIP",
    "ANIMATION_ZERO_LENGTH",
    "ANIMATION_TARGET_NOT_IN_SCENE",
)


class _ContentChecker:
    """Walks the animations, reporting what the JSON shows at once and gathering each
    channel's track; :meth:`report_tracks` then judges the tracks together."""

    def __init__(self, links: DocumentLinks, issues: FileIssues) -> None:
        self.links = links
        self.issues = issues
        self.accessors = links.items("accessors")
        self.nodes = links.items("nodes")
        self.tracks: list[tuple[key_rules.Track, str, int]] = []  # track, channel pointer, node
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
        if not self.tracks:
            return
        judgements = key_rules.judge([track for track, _, _ in self.tracks])
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

    def _track(
        self, sampler: dict, times: np.ndarray | None, path: object
    ) -> key_rules.Track | None:
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
        per_key = 3 if interpolation == key_rules.CUBICSPLINE else 1
        rows = len(values) // (len(times) * per_key)
        if rows < 1 or rows * len(times) * per_key != len(values):
            return None
        keys = values.reshape(len(times), per_key, -1)
        if not np.isfinite(keys).all():
            return None  # Khronos' rule on floats reports it
        layout = self.links.layout(output)
        key_bytes = rows * per_key * layout.element_length if layout is not None else 0
        if interpolation == key_rules.CUBICSPLINE:
            return key_rules.Track(
                path, key_rules.CUBICSPLINE, times, keys[:, 1], keys[:, ::2], key_bytes
            )
        return key_rules.Track(path, str(interpolation), times, keys[:, 0], None, key_bytes)


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
