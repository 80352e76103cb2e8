"""Animations of an absurd length or with far more keyframes than motion needs.

glTF keyframes are counted from accessor counts (checked against the bytes, never decoded)
and durations come from the declared time ranges; FBX animation stacks give their time range.
"""

from __future__ import annotations

from collections.abc import Iterable

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    animation_samplers,
    index_of,
)
from assetcheck.plugins.hookspecs import hookimpl

MB = 1_000_000
#: Longer than any gameplay clip or cutscene shipped in one asset: such a range is a mistake.
MAX_DURATION_SECONDS = 600.0
#: A minute of a 100-bone rig keyed at 60 fps on translation, rotation and scale passes it;
#: the same motion resampled to 30 fps with redundant keys removed is a fraction of it.
MAX_KEYFRAMES = 1_000_000

CODES = ("ANIMATION_TOO_LONG", "ANIMATION_TOO_MANY_KEYFRAMES")


def describe_duration(seconds: float) -> str:
    """``seconds`` as ``45.2 s``, ``27 min 3 s``, ``10 min`` or ``2 h 5 min``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def check_animations(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        for animation in asset.animations:
            _check_duration(animation.name, animation.duration, None, context)
        return
    links = asset.gltf.links
    # The reader made one Animation, with its duration, per animation object, in order.
    objects = [(i, a) for i, a in enumerate(links.items("animations")) if a is not None]
    for (index, json), model in zip(objects, asset.animations, strict=False):
        pointer = f"/animations/{index}"
        _check_duration(model.name, model.duration, pointer, context)
        _check_keyframes(links, json, model.name, pointer, context)


def _check_duration(name: str, seconds: float, pointer: str | None, context: CheckContext) -> None:
    if seconds > MAX_DURATION_SECONDS:
        context.issues.add(
            "ANIMATION_TOO_LONG",
            pointer=pointer,
            name=name,
            duration=describe_duration(seconds),
            limit=describe_duration(MAX_DURATION_SECONDS),
        )


def _check_keyframes(
    links: DocumentLinks, animation: dict, name: str, pointer: str, context: CheckContext
) -> None:
    """Keyframes summed over channels: each channel stores its sampler's input times."""
    samplers: dict[int | None, dict] = dict(animation_samplers(animation))
    if not samplers:  # unusable samplers or channels: the glTF checks report them
        return
    inputs = [
        index_of(samplers.get(index_of(channel, "sampler")), "input")
        for channel in animation["channels"]
    ]
    keyframes = sum(_count(links, accessor) for accessor in inputs)
    if keyframes > MAX_KEYFRAMES:
        context.issues.add(
            "ANIMATION_TOO_MANY_KEYFRAMES",
            pointer=pointer,
            name=name,
            keyframes=keyframes,
            channels=len(inputs),
            megabytes=round(_data_bytes(links, samplers.values()) / MB, 1),
            limit=MAX_KEYFRAMES,
        )


def _data_bytes(links: DocumentLinks, samplers: Iterable[dict]) -> int:
    """The bytes of the samplers' input and output accessors, each accessor counted once."""
    accessors = {index_of(sampler, key) for sampler in samplers for key in ("input", "output")}
    layouts = (links.layout(accessor) for accessor in accessors if _count(links, accessor))
    return sum(layout.count * layout.element_length for layout in layouts if layout is not None)


def _count(links: DocumentLinks, accessor: int | None) -> int:
    """An accessor's element count, when real bytes back it (declared counts can lie)."""
    values = None if accessor is None else links.reader.read(accessor)
    return 0 if values is None else len(values)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "animation-size",
            "Animations of an absurd length or with far more keyframes than their motion needs.",
            check_animations,
            CODES,
        )
    ]
