"""The built-in issue types: each area's ``ISSUE_TYPES``, gathered into one registry by the
default plugin ``assetcheck.codes``.

An area is named by its module, as :data:`~assetcheck.plugins.manager.DEFAULT_PLUGINS` names
the built-in plugins: the plugin machinery loads what it is told to and depends on no format
(``docs/architecture.md``, Adding a format).
"""

from __future__ import annotations

import importlib

from assetcheck.issues import IssueType
from assetcheck.plugins.hookspecs import hookimpl

#: The modules declaring the built-in issue types, in the order ``docs/issues.md`` lists them.
BUILTIN_AREAS = (
    "assetcheck.issues.upload_codes",
    "assetcheck.security.codes",
    "assetcheck.formats.gltf.codes.glb",
    "assetcheck.formats.gltf.codes.document",
    "assetcheck.formats.gltf.codes.semantics",
    "assetcheck.formats.gltf.codes.values",
    "assetcheck.formats.gltf.codes.skins",
    "assetcheck.formats.ktx2.codes",
    "assetcheck.formats.zip.codes",
    "assetcheck.formats.fbx.codes",
    "assetcheck.formats.obj.codes",
    "assetcheck.scoring.budget_codes",
    "assetcheck.issues.quality_codes",
    "assetcheck.formats.fbx.scene_codes",
    "assetcheck.formats.fbx.skin_codes",
    "assetcheck.formats.fbx.animation_codes",
    "assetcheck.formats.gltf.codes.compression",
)


def builtin_issue_types() -> list[IssueType]:
    """Every built-in issue type, area by area."""
    return [
        issue_type
        for area in BUILTIN_AREAS
        for issue_type in importlib.import_module(area).ISSUE_TYPES
    ]


@hookimpl
def register_issue_types() -> list[IssueType]:
    return builtin_issue_types()
