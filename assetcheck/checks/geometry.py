"""Mesh geometry: zero-area and duplicate triangles, unused vertices, missing normals.

glTF primitives are read through the accessor data layer and measured with vectorised numpy,
a bounded chunk of triangles at a time: the 3.6 million triangles of a 100 MB GLB take about
half a second and 75 MB (a copy and a hash of each position, a hash per triangle). FBX
meshes are judged from the facts the reader kept (normals present or not).
Triangles whose corners repeat a vertex index are left to Khronos'
``ACCESSOR_INDEX_TRIANGLE_DEGENERATE`` (the glTF vertex data check), and indices past the last
vertex to ``ACCESSOR_INDEX_OOB``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.checks.gltf_links import DocumentLinks, Primitive, document_links
from assetcheck.formats.gltf_data import primitive_triangles
from assetcheck.hookspecs import hookimpl
from assetcheck.issues import FileIssues

#: Triangles measured at once: small enough that the temporary arrays stay in the CPU caches'
#: reach and the allocator reuses them (measured fastest), large enough that loop overhead
#: does not show.
CHUNK_TRIANGLES = 1 << 16
#: A triangle has zero area when its height is under this fraction of its longest side: far
#: below any real sliver, far above float32 rounding of exactly collinear corners.
FLAT_RATIO = np.float32(1e-6)
TRIANGLE_MODES = frozenset({4, 5, 6})
UNLIT = "KHR_materials_unlit"

CODES = ("MESH_ZERO_AREA_TRIANGLES", "MESH_DUPLICATE_TRIANGLES", "MESH_UNUSED_VERTICES",
         "MESH_MISSING_NORMALS")

_ODD = np.uint64(0x9E3779B97F4A7C15)
_MIX1, _MIX2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)
_1, _32, _33 = np.uint64(1), np.uint64(32), np.uint64(33)


@dataclass(frozen=True)
class Vertices:
    """Vertex positions laid out for gathering: ``coords`` is ``(3, count)`` float32 (x, y and
    z rows) and ``keys`` a 64-bit hash per vertex, equal for vertices at the same position."""

    coords: np.ndarray
    keys: np.ndarray

    @classmethod
    def of(cls, positions: np.ndarray) -> Vertices:
        """From ``(count, 3)`` positions of any float dtype and layout."""
        # Adding 0.0 turns -0.0 into 0.0, so both zeros hash alike.
        coords = np.ascontiguousarray(positions.T, dtype=np.float32) + np.float32(0.0)
        bits = coords.view(np.uint32)
        keys = bits[1].astype(np.uint64)
        keys <<= _32
        keys |= bits[0]
        depth = bits[2].astype(np.uint64)
        depth *= _ODD
        keys ^= depth
        return cls(coords, _mix(keys))

    def __len__(self) -> int:
        return self.coords.shape[1]


@dataclass(frozen=True)
class TriangleFaults:
    """Of ``total`` triangles, how many have zero area and how many duplicate another."""

    total: int
    zero_area: int
    duplicates: int


def triangle_faults(vertices: Vertices, triangles: np.ndarray) -> TriangleFaults:
    """Count zero-area and duplicate triangles of ``triangles`` (``(n, 3)`` vertex indices).

    A duplicate lies on an earlier triangle with the same winding (flipped copies are a
    deliberate way to draw both sides). Matching is by 64-bit hashes: the odds of any false
    match are about n^2 / 2^65, one in three million for the 3.6 million triangles of a
    100 MB GLB. Triangles that repeat an index or point past the vertices are not faults here
    (other checks report them).
    """
    zero_area = 0
    winding_keys = []
    for start in range(0, len(triangles), CHUNK_TRIANGLES):
        corners = _usable_corners(triangles[start:start + CHUNK_TRIANGLES], len(vertices))
        flat = _zero_area(np.take(vertices.coords, corners, axis=1))
        flat_count = int(np.count_nonzero(flat))
        if flat_count:
            zero_area += flat_count
            corners = corners[:, ~flat]
        winding_keys.append(_winding_key(np.take(vertices.keys, corners)))
    ordered = np.concatenate(winding_keys) if winding_keys else np.empty(0, np.uint64)
    ordered.sort()
    duplicates = int(np.count_nonzero(ordered[1:] == ordered[:-1]))
    return TriangleFaults(len(triangles), zero_area, duplicates)


def _usable_corners(chunk: np.ndarray, vertex_count: int) -> np.ndarray:
    """The chunk's triangles as ``(3, n)`` corner indices, without those that repeat an index
    or point past the vertices."""
    corners = np.ascontiguousarray(chunk.T)
    a, b, c = corners
    usable = (a != b) & (b != c) & (c != a)
    if int(corners.max(initial=0)) >= vertex_count:
        usable &= (corners < vertex_count).all(axis=0)
    return corners if usable.all() else corners[:, usable]


def _zero_area(points: np.ndarray) -> np.ndarray:
    """Which triangles are flat, from their corners as ``(3 axes, 3 corners, n)``."""
    with np.errstate(invalid="ignore", over="ignore"):  # NaN or infinite positions: not flat
        ab, ac = points[:, 1] - points[:, 0], points[:, 2] - points[:, 0]
        bc = points[:, 2] - points[:, 1]
        cross_x = ab[1] * ac[2] - ab[2] * ac[1]
        cross_y = ab[2] * ac[0] - ab[0] * ac[2]
        cross_z = ab[0] * ac[1] - ab[1] * ac[0]
        twice_area = np.sqrt(cross_x * cross_x + cross_y * cross_y + cross_z * cross_z)
        longest = np.maximum(np.maximum(_squared_lengths(ab), _squared_lengths(ac)),
                             _squared_lengths(bc))
        # Twice the area is the longest side times the height over it.
        return twice_area <= FLAT_RATIO * longest


def _squared_lengths(vectors: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->j", vectors, vectors)


def _winding_key(keys: np.ndarray) -> np.ndarray:
    """A hash of each triangle's directed edges, from its corners' keys as ``(3, n)``: the
    same for (a, b, c), (b, c, a) and (c, a, b), different for the flipped (a, c, b)."""
    a, b, c = keys
    shifted = keys >> _1
    return (a ^ shifted[1]) + (b ^ shifted[2]) + (c ^ shifted[0])


def _mix(values: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser, in place: every input bit reaches every output bit."""
    values ^= values >> _33
    values *= _MIX1
    values ^= values >> _33
    values *= _MIX2
    values ^= values >> _33
    return values


class _GltfGeometry:
    """The geometry checks of one glTF document; vertex data read once per accessor."""

    def __init__(self, asset: Asset, links: DocumentLinks, issues: FileIssues) -> None:
        self.asset = asset
        self.links = links
        self.issues = issues
        self.vertices: dict[int, Vertices | None] = {}

    def check(self) -> None:
        for primitive in self.links.primitives:
            if primitive.mode in TRIANGLE_MODES and "POSITION" in primitive.attributes:
                self._check_normals(primitive)
                self._check_triangles(primitive)
        self._check_unused_vertices()

    def label(self, primitive: Primitive) -> str:
        """The mesh's name, and the primitive's number when the mesh has several."""
        mesh = self.links.items("meshes")[primitive.mesh] or {}
        name = mesh.get("name")
        label = name if isinstance(name, str) and name else f"mesh {primitive.mesh}"
        primitives = mesh.get("primitives")
        if isinstance(primitives, list) and len(primitives) > 1:
            label += f", primitive {primitive.number}"
        return label

    def _check_normals(self, primitive: Primitive) -> None:
        if primitive.semantics.has_normal or self._unlit(primitive.material):
            return
        self.issues.add("MESH_MISSING_NORMALS", pointer=primitive.pointer,
                        name=self.label(primitive))

    def _unlit(self, material: int | None) -> bool:
        if material is None:
            return False
        extensions = (self.links.items("materials")[material] or {}).get("extensions")
        return isinstance(extensions, dict) and UNLIT in extensions

    def _check_triangles(self, primitive: Primitive) -> None:
        vertices = self._vertices(primitive.attributes["POSITION"])
        # Without indices the triangles are numbered up to a declared count: trust it only
        # when the positions' real bytes back it.
        if vertices is None or (primitive.indices is None
                                and primitive.vertex_count != len(vertices)):
            return
        triangles = primitive_triangles(self.asset, primitive.mesh, primitive.number)
        if triangles is None or not len(triangles):
            return
        faults = triangle_faults(vertices, triangles)
        fields = {"pointer": primitive.pointer, "name": self.label(primitive),
                  "total": faults.total}
        if faults.zero_area:
            self.issues.add("MESH_ZERO_AREA_TRIANGLES", count=faults.zero_area, **fields)
        if faults.duplicates:
            self.issues.add("MESH_DUPLICATE_TRIANGLES", count=faults.duplicates, **fields)

    def _vertices(self, accessor: int) -> Vertices | None:
        if accessor not in self.vertices:
            positions = self.links.reader.normalized(accessor)
            usable = positions is not None and positions.shape[1] == 3
            self.vertices[accessor] = Vertices.of(positions) if usable else None
        return self.vertices[accessor]

    def _check_unused_vertices(self) -> None:
        """Vertices no primitive draws, per POSITION accessor (primitives may share one)."""
        used: dict[int, np.ndarray] = {}
        users: dict[int, Primitive] = {}
        drawn_whole: set[int] = set()
        for primitive in self.links.primitives:
            accessor = primitive.attributes.get("POSITION")
            vertices = None if accessor is None else self._vertices(accessor)
            if vertices is None:  # no real vertex data: nothing to judge
                continue
            users.setdefault(accessor, primitive)
            indices = (None if primitive.indices is None
                       else self.links.reader.read(primitive.indices))
            if indices is None:  # drawn without indices, or unreadable: count every vertex
                drawn_whole.add(accessor)
                continue
            values = indices[:, 0]
            if len(values) and int(values.max()) >= len(vertices):
                values = values[values < len(vertices)]
            used.setdefault(accessor, np.zeros(len(vertices), bool))[values] = True
        for accessor, mask in used.items():
            unused = mask.size - int(np.count_nonzero(mask))
            if unused and accessor not in drawn_whole:
                self.issues.add("MESH_UNUSED_VERTICES", pointer=users[accessor].pointer,
                                name=self.label(users[accessor]), count=unused, total=mask.size)


def check_geometry(asset: Asset, context: CheckContext) -> None:
    if asset.document is not None:
        _GltfGeometry(asset, document_links(asset), context.issues).check()
        return
    for mesh in asset.details.get("meshes", []):
        if not mesh["has_normals"]:
            context.issues.add("MESH_MISSING_NORMALS", name=mesh["name"])


@hookimpl
def register_checks() -> list[Check]:
    return [Check("mesh-geometry", "Zero-area and duplicate triangles, unused vertices and "
                  "missing normals.", check_geometry, CODES)]
