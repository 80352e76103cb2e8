"""A ``UsdGeom.Mesh``'s arrays as polygon geometry: runs in the reader's child.

Points, face vertex counts and indices are read at the earliest time the stage holds (the
default value where nothing is animated). Normals (``primvars:normals``, else ``normals``)
and the first texture coordinate primvar (``st``, else any ``texCoord2f``) become layers with
a row per face corner, whatever their interpolation (constant, uniform, vertex, varying or
faceVarying) and whether they are indexed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assetcheck.formats.fbx.model import FbxGeometry, FbxLayer


class MeshFault(ValueError):
    """The mesh's arrays do not agree: the message says how."""


def mesh_geometry(mesh: Any, time: Any) -> FbxGeometry:
    """The polygon geometry of the ``UsdGeom.Mesh`` ``mesh`` at ``time``; :class:`MeshFault`
    when its counts, indices and points do not agree."""
    positions = _array(mesh.GetPointsAttr().Get(time), np.float64).reshape(-1, 3)
    counts = _array(mesh.GetFaceVertexCountsAttr().Get(time), np.int64)
    corners = _array(mesh.GetFaceVertexIndicesAttr().Get(time), np.int64)
    if len(counts) and int(counts.min()) < 0:
        raise MeshFault("a face has a negative vertex count")
    if int(counts.sum()) != len(corners):
        raise MeshFault(
            f"its faces have {int(counts.sum()):,} corners in all, but it lists "
            f"{len(corners):,} face vertex indices"
        )
    if len(corners) and (int(corners.min()) < 0 or int(corners.max()) >= len(positions)):
        raise MeshFault(f"a face vertex index is outside its {len(positions):,} points")
    starts = (np.cumsum(counts) - counts).astype(np.int32)
    geometry = FbxGeometry(positions, corners.astype(np.int32), starts)
    normals, uvs = _normals(mesh, time), _uvs(mesh, time)
    geometry.normals = None if normals is None else _layer(*normals, counts, corners)
    geometry.uvs = None if uvs is None else _layer(*uvs, counts, corners)
    return geometry


def _array(value: Any, dtype: type) -> np.ndarray:
    return np.zeros(0, dtype) if value is None else np.asarray(value, dtype)


Primvar = tuple[np.ndarray, np.ndarray | None, str]


def _normals(mesh: Any, time: Any) -> Primvar | None:
    from pxr import UsdGeom

    primvar = UsdGeom.PrimvarsAPI(mesh.GetPrim()).GetPrimvar("normals")
    if primvar and primvar.HasAuthoredValue():
        return _primvar(primvar, time, 3)
    attribute = mesh.GetNormalsAttr()
    if not attribute.HasAuthoredValue():
        return None
    values = _array(attribute.Get(time), np.float64).reshape(-1, 3)
    return values, None, str(mesh.GetNormalsInterpolation())


def _uvs(mesh: Any, time: Any) -> Primvar | None:
    from pxr import Sdf, UsdGeom

    primvars = UsdGeom.PrimvarsAPI(mesh.GetPrim())
    named = primvars.GetPrimvar("st")
    candidates = [named] if named and named.HasAuthoredValue() else []
    candidates += [
        p
        for p in primvars.GetPrimvarsWithAuthoredValues()
        if p.GetTypeName() == Sdf.ValueTypeNames.TexCoord2fArray
    ]
    return _primvar(candidates[0], time, 2) if candidates else None


def _primvar(primvar: Any, time: Any, width: int) -> Primvar | None:
    values = _array(primvar.Get(time), np.float64)
    if values.size % width:
        return None
    indices = _array(primvar.GetIndices(time), np.int64) if primvar.IsIndexed() else None
    return values.reshape(-1, width), indices, str(primvar.GetInterpolation())


def _layer(
    values: np.ndarray,
    indices: np.ndarray | None,
    interpolation: str,
    counts: np.ndarray,
    corners: np.ndarray,
) -> FbxLayer | None:
    """The layer of a primvar with ``interpolation``: the element each corner takes, then the
    value row each element takes (through ``indices`` when it is indexed). None when the
    primvar has too few elements or an index outside its values."""
    elements = {
        "faceVarying": np.arange(len(corners)),
        "vertex": corners,
        "varying": corners,
        "uniform": np.repeat(np.arange(len(counts)), counts),
        "constant": np.zeros(len(corners), np.int64),
    }.get(interpolation)
    if elements is None:
        return None
    table = np.arange(len(values)) if indices is None else indices
    if len(elements) and int(elements.max(initial=0)) >= len(table):
        return None
    rows = table[elements]
    if len(rows) and (int(rows.min()) < 0 or int(rows.max()) >= len(values)):
        return None
    return FbxLayer(values, rows.astype(np.int32))
