"""Studio naming conventions for meshes, materials and textures, as an AssetCheck plugin."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath
from typing import Any

from assetcheck import hookimpl
from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.issues import IssueArea, IssueType

SECTION = "naming"
KINDS = ("mesh", "material", "texture")
AREA = IssueArea(SECTION)


def _issue_type(kind: str) -> IssueType:
    return AREA.declare(
        f"NAMING_{kind.upper()}",
        "warning",
        f"The {kind} name {{name!r}} does not follow the studio convention {{pattern}}.",
        f"Rename the {kind} so that its whole name matches {{pattern}}.",
        title=f"{kind.capitalize()} name breaks the studio's naming convention",
    )


class NamingPlugin:
    """Checks names against the patterns of the ``[naming]`` config table (none: no checks)."""

    def __init__(self) -> None:
        self.patterns: dict[str, re.Pattern[str]] = {}

    @hookimpl
    def configure(self, settings: Mapping[str, Any]) -> None:
        table = settings.get(SECTION, {})
        unknown = set(table) - set(KINDS)
        if unknown:
            raise ValueError(f"[{SECTION}] has unknown keys {sorted(unknown)}; use {KINDS}")
        self.patterns = {}
        for kind in KINDS:
            if kind in table:
                try:
                    self.patterns[kind] = re.compile(table[kind])
                except re.error as error:
                    raise ValueError(
                        f"[{SECTION}] {kind} is not a valid pattern: {error}"
                    ) from None

    @hookimpl
    def register_issue_types(self) -> list[IssueType]:
        return [_issue_type(kind) for kind in KINDS]

    @hookimpl
    def register_checks(self) -> list[Check]:
        if not self.patterns:
            return []
        return [
            Check(
                "names",
                "Mesh, material and texture names follow the studio convention",
                self.check_names,
                codes=tuple(f"NAMING_{k.upper()}" for k in KINDS),
            )
        ]

    def check_names(self, asset: Asset, context: CheckContext) -> None:
        for kind, name, pointer in _named_things(asset):
            pattern = self.patterns.get(kind)
            if pattern is not None and not pattern.fullmatch(name):
                context.issues.add(
                    f"NAMING_{kind.upper()}", name=name, pattern=pattern.pattern, pointer=pointer
                )


def _named_things(asset: Asset) -> Iterator[tuple[str, str, str | None]]:
    """(kind, name, JSON pointer or None) of every mesh, material and texture in the asset."""
    gltf = asset.document is not None
    for index, part in enumerate(asset.parts):
        yield "mesh", part.name, f"/meshes/{index}" if gltf else None
    for index, material in enumerate(asset.materials):
        yield "material", material.name, f"/materials/{index}" if gltf else None
    for index, texture in enumerate(asset.textures):
        name = texture.name
        if texture.uri and name == PurePosixPath(texture.uri).name:
            name = PurePosixPath(name).stem  # named after its file: judge the name, not ".png"
        yield "texture", name, f"/images/{index}" if gltf else None


plugin = NamingPlugin()
