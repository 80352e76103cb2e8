"""Decoding one FBX mesh geometry node into an :class:`~assetcheck.formats.fbx.model.FbxGeometry`.

A geometry is the ``Geometry`` node of class ``Mesh`` (FBX 7) or the ``Model`` node that holds
the ``Vertices`` itself (FBX 6 and older). It holds ``Vertices`` (control points, x y z in a
row), ``PolygonVertexIndex`` (the control point of each polygon corner; a polygon's last corner
is written as ``-index - 1``) and layer elements: normals, UVs and material slots, each mapped
``ByPolygonVertex``, ``ByControlPoint``, ``ByPolygon`` or ``AllSame``, either ``Direct`` or
through an ``IndexToDirect`` index array. FBX 5 and older write ``Normals``, ``TextureUV`` and
``Materials`` beside the vertices instead.

Every index is checked against what it indexes: a geometry that fails raises
:class:`GeometryFault` with the reason, and is then not checked further. One value is not a
fault: a layer index of -1 means "no value here" (a face left without UVs; Cinema 4D so marks
polygons without a material). Such a corner reads the layer's last value, as ufbx reads it, a
polygon material slot 0, and the gap is returned as an :class:`FbxUnsetValues` to be reported.
"""

from __future__ import annotations

import numpy as np

from assetcheck.formats.fbx.model import FbxGeometry, FbxLayer, FbxUnsetValues
from assetcheck.formats.fbx.tree import FbxNode

#: Mapping names (``MappingInformationType``) by what each row of values belongs to.
BY_CORNER = frozenset({"ByPolygonVertex"})
BY_CONTROL_POINT = frozenset({"ByVertice", "ByVertex", "ByControlPoint"})
BY_POLYGON = frozenset({"ByPolygon"})
ALL_SAME = frozenset({"AllSame"})
INDEXED = frozenset({"IndexToDirect", "Index"})
#: The index that means "no value" in a layer's index or material array.
UNSET = -1


class GeometryFault(Exception):
    """The geometry's arrays contradict each other; the message says how."""


def decode_geometry(node: FbxNode) -> tuple[FbxGeometry, list[FbxUnsetValues]]:
    """The geometry held by ``node`` and the layers that leave items unset; GeometryFault when
    it is damaged (FbxTreeError when an array cannot be decoded at all)."""
    vertices = node.child("Vertices")
    points = vertices.array("f8") if vertices is not None else np.empty(0)
    if len(points) % 3:
        raise GeometryFault(f"its {len(points)} vertex coordinates are not triples")
    positions = points.reshape(-1, 3)
    index_node = node.child("PolygonVertexIndex")
    raw = index_node.array("i4") if index_node is not None else np.empty(0, np.int32)
    corners, starts = _polygons(raw, len(positions))
    polygon_of_corner = np.cumsum(_starts_mask(starts, len(corners)), dtype=np.int32) - 1
    mapping = _Mapping(corners, polygon_of_corner, len(starts))
    legacy = node.child("LayerElementNormal") is None and node.child("LayerElementUV") is None
    geometry = FbxGeometry(
        positions=positions,
        corners=corners,
        polygon_starts=starts,
        normals=mapping.layer(
            "normals",
            _element(node, "LayerElementNormal", "Normals"),
            3,
            node.child("Normals") if legacy else None,
        ),
        uvs=mapping.layer(
            "UVs",
            _element(node, "LayerElementUV", "UV"),
            2,
            _legacy_uv(node, "TextureUV") if legacy else None,
            _legacy_uv(node, "TextureUVVerticeIndex") if legacy else None,
        ),
        polygon_materials=mapping.materials(
            node.child("LayerElementMaterial"), node.child("Materials") if legacy else None
        ),
    )
    return geometry, mapping.unset_values


def _polygons(raw: np.ndarray, point_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Corner control points and polygon starts from ``PolygonVertexIndex``."""
    if not len(raw):
        return np.empty(0, np.int32), np.empty(0, np.int32)
    ends = raw < 0
    if not ends[-1]:
        raise GeometryFault("its last polygon has no end (its last corner index is not negative)")
    corners = np.where(ends, ~raw, raw).astype(np.int32, copy=False)
    highest = int(corners.max())
    if highest >= point_count:
        raise GeometryFault(
            f"a polygon corner uses control point {highest}, but there are only {point_count}"
        )
    starts = np.flatnonzero(np.concatenate(([True], ends[:-1]))).astype(np.int32)
    return corners, starts


def _starts_mask(starts: np.ndarray, count: int) -> np.ndarray:
    mask = np.zeros(count, bool)
    mask[starts] = True
    return mask


def _element(
    node: FbxNode, name: str, values: str
) -> tuple[FbxNode, FbxNode | None, FbxNode | None] | None:
    """The first layer element ``name`` (lowest index): itself, its values and its index."""
    elements = sorted(node.children_named(name), key=lambda e: _layer_number(e))
    for element in elements:
        found = element.child(values)
        if found is not None:
            index = element.child(values + "Index") or element.child(values.rstrip("s") + "Index")
            return element, found, index
    return None


def _legacy_uv(node: FbxNode, name: str) -> FbxNode | None:
    """FBX 5 UVs: beside the vertices, or in a ``GeometryUVInfo`` block."""
    info = node.child("GeometryUVInfo")
    return node.child(name) or (info.child(name) if info is not None else None)


def _layer_number(element: FbxNode) -> int:
    value = element.props[0] if element.props else 0
    return value if isinstance(value, int) else 0


class _Mapping:
    """Resolves a layer's mapping and reference modes to one value row per corner."""

    def __init__(self, corners: np.ndarray, polygon_of_corner: np.ndarray, polygons: int):
        self.corners = corners
        self.polygon_of_corner = polygon_of_corner
        self.polygons = polygons
        self.unset_values: list[FbxUnsetValues] = []

    def layer(
        self,
        label: str,
        element: tuple | None,
        width: int,
        legacy_values: FbxNode | None = None,
        legacy_index: FbxNode | None = None,
    ) -> FbxLayer | None:
        if element is not None:
            layer, values_node, index_node = element
            mapping = _text(layer, "MappingInformationType")
            reference = _text(layer, "ReferenceInformationType")
        elif legacy_values:
            values_node, index_node = legacy_values, legacy_index
            mapping, reference = "", "IndexToDirect" if index_node else "Direct"
        else:
            return None
        flat = values_node.array("f4")
        if len(flat) % width:
            raise GeometryFault(
                f"its {values_node.name} hold {len(flat)} numbers, not a multiple of {width}"
            )
        values = flat.reshape(-1, width)
        base = self._rows(
            mapping,
            len(values)
            if reference not in INDEXED
            else len(index_node.array("i4"))
            if index_node
            else 0,
        )
        if base is None:
            return None  # a mapping nothing draws with (by edge): as if absent
        rows = base
        if reference in INDEXED:
            if index_node is None:
                raise GeometryFault(f"its {values_node.name} are indexed but have no index")
            index = index_node.array("i4")
            _check_range(base, len(index), f"{index_node.name} entries")
            rows = self._filled(index[base], len(values) - 1, label, "polygon corners")
        _check_range(rows, len(values), values_node.name)
        return FbxLayer(values, rows.astype(np.int32, copy=False))

    def _filled(self, rows: np.ndarray, fill: int, label: str, items: str) -> np.ndarray:
        """``rows`` with each :data:`UNSET` one replaced by ``fill``, and the gap recorded."""
        unset = rows == UNSET
        count = int(np.count_nonzero(unset))
        if not count or fill < 0:
            return rows
        self.unset_values.append(FbxUnsetValues(label, items, count, len(rows)))
        return np.where(unset, fill, rows)

    def _rows(self, mapping: str, available: int) -> np.ndarray | None:
        """For each corner, the row of the layer's (direct or index) array it reads."""
        if mapping in BY_CORNER:
            return np.arange(len(self.corners), dtype=np.int32)
        if mapping in BY_CONTROL_POINT:
            return self.corners
        if mapping in BY_POLYGON:
            return self.polygon_of_corner
        if mapping in ALL_SAME:
            return np.zeros(len(self.corners), np.int32)
        if mapping == "":  # FBX 5: told apart by how many there are
            return (
                self.corners
                if available != len(self.corners)
                else self._rows("ByPolygonVertex", available)
            )
        return None

    def materials(self, element: FbxNode | None, legacy: FbxNode | None) -> np.ndarray | None:
        """The material slot of each polygon, or None when the file assigns none."""
        values_node = element.child("Materials") if element is not None else legacy
        if values_node is None:
            return None
        slots = values_node.array("i4")
        mapping = _text(element, "MappingInformationType") if element is not None else ""
        if mapping in ALL_SAME or (not mapping and len(slots) == 1):
            slots = np.full(self.polygons, slots[0] if len(slots) else 0, np.int32)
        elif len(slots) < self.polygons:
            raise GeometryFault(
                f"it assigns materials to {len(slots)} of its {self.polygons} polygons"
            )
        slots = self._filled(slots[: self.polygons], 0, "material", "polygons")
        if len(slots) and int(slots.min()) < 0:
            raise GeometryFault(f"a polygon uses material slot {int(slots.min())}")
        return slots


def _check_range(rows: np.ndarray, available: int, what: str) -> None:
    if not len(rows):
        return
    low, high = int(rows.min()), int(rows.max())
    if low < 0 or high >= available:
        bad = low if low < 0 else high
        raise GeometryFault(f"it reads {what} number {bad}, but there are {available}")


def _text(node: FbxNode, name: str) -> str:
    found = node.child(name)
    return found.text().strip() if found is not None else ""
