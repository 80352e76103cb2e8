"""The geometry checks on FBX meshes, from the geometry the FBX reader decoded.

The same measures as for glTF (:mod:`assetcheck.checks.mesh_faults`) on each mesh's control
points and fan-triangulated polygons, once per geometry however many nodes draw it. Normals
are judged with the glTF check's unit-length tolerance, on the normals the polygons use.
A mesh whose geometry could not be decoded is judged only from ufbx's facts (normals present).
"""

from __future__ import annotations

import numpy as np

from assetcheck.checks.gltf_vertex_data import (
    UNIT_LENGTH_THRESHOLD_VEC3,
    non_unit_rows,
    vector_length,
)
from assetcheck.checks.mesh_faults import (
    Vertices,
    report_triangle_faults,
    triangle_faults,
    unused_vertices,
)
from assetcheck.fbx_model import FbxLayer, FbxMesh, FbxScene
from assetcheck.issues import FileIssues


def check_fbx_geometry(scene: FbxScene, issues: FileIssues) -> None:
    """Report the geometry faults of every mesh of ``scene``."""
    for mesh in scene.meshes:
        geometry = mesh.geometry
        if geometry is None:
            if mesh.geometry_fault is None and not mesh.has_normals:
                issues.add("MESH_MISSING_NORMALS", name=mesh.name)
            continue
        if geometry.normals is None:
            issues.add("MESH_MISSING_NORMALS", name=mesh.name)
        else:
            _check_normals(mesh, geometry.normals, issues)
        triangles = geometry.triangles()
        if len(triangles):
            faults = triangle_faults(
                Vertices.of(geometry.positions), triangles, repeated_are_flat=True
            )
            report_triangle_faults(issues, faults, name=mesh.name)
        unused = unused_vertices(geometry.corners, len(geometry.positions))
        if unused:
            issues.add(
                "MESH_UNUSED_VERTICES", name=mesh.name, count=unused, total=len(geometry.positions)
            )


def _check_normals(mesh: FbxMesh, normals: FbxLayer, issues: FileIssues) -> None:
    """Normals the polygons use that are not of unit length."""
    used = np.zeros(len(normals.values), bool)
    used[normals.corner_values] = True
    values = normals.values[used]
    rows = non_unit_rows(values, UNIT_LENGTH_THRESHOLD_VEC3)
    if rows.size:
        issues.add(
            "FBX_NON_UNIT_NORMALS",
            name=mesh.name,
            count=int(rows.size),
            total=len(values),
            first=int(np.flatnonzero(used)[rows[0]]),
            length=vector_length(values[rows[0]]),
        )
