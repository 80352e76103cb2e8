"""The built-in issue types, one module per area, gathered into one registry by a default plugin."""

from __future__ import annotations

from assetcheck.codes import (
    budgets,
    compression,
    core,
    fbx,
    fbx_checks,
    glb,
    gltf,
    gltf_semantics,
    gltf_values,
    ktx2,
    quality,
    security,
    zip,
)
from assetcheck.hookspecs import hookimpl
from assetcheck.issues import IssueType

BUILTIN_AREAS = (
    core,
    security,
    glb,
    gltf,
    gltf_semantics,
    gltf_values,
    ktx2,
    zip,
    fbx,
    budgets,
    quality,
    fbx_checks,
    compression,
)


@hookimpl
def register_issue_types() -> list[IssueType]:
    return [issue_type for area in BUILTIN_AREAS for issue_type in area.ISSUE_TYPES]
