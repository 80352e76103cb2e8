"""The FBX part of the asset model: typed, picklable facts about an FBX scene and its geometry.

The FBX reader builds an :class:`FbxScene` in its child process and sends it to the parent
(:mod:`assetcheck.sandbox.child`), where it becomes ``Asset.fbx``. Every check reads these
classes, never string keys.

Geometry is kept as the file stores it (control points, polygon corners, layer values with a
per-corner index into them) in the file's own units and axes; :meth:`FbxScene.world_triangles`
turns it into what a renderer needs: triangles in metres, Y up, right-handed (as glTF). Arrays
travel between processes as pickle-5 buffers, so the parent receives them without a copy
(:meth:`FbxGeometry.__reduce_ex__`); the parent accepts only the plain numeric dtypes of
:data:`ARRAY_DTYPES`.
"""

from __future__ import annotations

import operator
import pickle
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex

import numpy as np

from assetcheck.formats.fbx.tree import FbxSource, FbxTreeError
from assetcheck.mesh.prepared import PreparedMesh, Vertices, read_only

if TYPE_CHECKING:  # animation.py packs its arrays with this module's functions
    from assetcheck.formats.fbx.animation import FbxCurves

#: The dtypes geometry arrays may have; anything else is refused when unpickled.
ARRAY_DTYPES = frozenset({"<f8", "<f4", "<i4", "<u4", "|b1"})

#: An array on its way to another process: dtype, shape and data (see :func:`_packed`).
PackedArray = tuple[str, tuple[int, ...], pickle.PickleBuffer | bytes]

#: Axis names (``+X``...) as unit vectors.
AXIS_VECTORS = {
    f"{sign}{name}": (1.0 if sign == "+" else -1.0) * np.eye(3)[i]
    for i, name in enumerate("XYZ")
    for sign in "+-"
}


@dataclass(frozen=True)
class FbxAxes:
    """The scene's axis system: each of ``right``, ``up`` and ``front`` is ``+X`` ... ``-Z``
    (``unknown`` where the file does not say)."""

    right: str = "+X"
    up: str = "+Y"
    front: str = "+Z"

    @property
    def known(self) -> bool:
        return {self.right, self.up, self.front} <= AXIS_VECTORS.keys()

    @property
    def right_handed(self) -> bool:
        """Whether right x up = front, as in glTF (only meaningful when :attr:`known`)."""
        return bool(
            np.array_equal(
                np.cross(AXIS_VECTORS[self.right], AXIS_VECTORS[self.up]), AXIS_VECTORS[self.front]
            )
        )

    @property
    def up_vector(self) -> np.ndarray:
        """The up axis as a unit vector (only meaningful when :attr:`known`)."""
        return AXIS_VECTORS[self.up]

    def to_y_up(self) -> np.ndarray:
        """The 3x3 rotation (or mirror, for a left-handed system) taking the scene's axes to
        +X right, +Y up, +Z front; the identity when the axes are unknown or degenerate."""
        if not self.known:
            return np.eye(3)
        rows = np.array([AXIS_VECTORS[self.right], AXIS_VECTORS[self.up], AXIS_VECTORS[self.front]])
        return rows if abs(np.linalg.det(rows)) == 1.0 else np.eye(3)


@dataclass
class FbxTexture:
    """A texture object: its image file names as written (never resolved on the reading
    machine), and the size of its embedded image, if any."""

    name: str
    relative_filename: str
    absolute_filename: str
    embedded: bool
    byte_size: int | None = None

    @property
    def path(self) -> str:
        """The file name to report: the relative one, else the absolute one ('' for none)."""
        return self.relative_filename or self.absolute_filename


@dataclass(frozen=True)
class FbxImage:
    """An image embedded in the file (a ``Video``'s ``Content``): the video's name, its file
    name as written, and where its bytes lie in the file (``spans``: one raw span in a binary
    file, the base64 strings of an ASCII one), read only when its content is checked
    (:meth:`FbxScene.image_data`)."""

    name: str
    filename: str
    spans: tuple[tuple[int, int], ...]

    @property
    def label(self) -> str:
        """The image as the texture content findings name it: ``bumps (bumps.png)``."""
        return f"{self.name} ({self.filename})" if self.filename else self.name


@dataclass(frozen=True)
class FbxTextureSlot:
    """A texture connected to a property of a material (``DiffuseColor``, ``NormalMap``,
    ``Maya|baseColor``, ``3dsMax|main|norm_map``...): the property, the texture's name, the
    image file name it gives, and the embedded image it shows (an index into
    :attr:`FbxScene.images`; None when the image is a file of its own)."""

    slot: str
    texture: str
    filename: str
    image: int | None = None

    @property
    def label(self) -> str:
        """The texture as the texel density findings name it: ``wood_tex (wood.png)``."""
        return f"{self.texture} ({self.filename})" if self.filename else self.texture


@dataclass
class FbxMaterial:
    """A material as the node tree gives it: its name, the textures connected to its
    properties (in the order of the connections), and its numeric properties (``Opacity``,
    ``TransparencyFactor``, ``Maya|metalness``...: each property's values)."""

    name: str
    slots: list[FbxTextureSlot] = field(default_factory=list)
    properties: dict[str, list[float]] = field(default_factory=dict)

    def slot_label(self, slot: FbxTextureSlot) -> str:
        """The material and the property ``slot`` feeds, as the texture findings name them
        and an artist finds them: ``Wood (slot NormalMap)``."""
        return f"{self.name} (slot {slot.slot})"


@dataclass
class FbxLayer:
    """A layer element (normals, UVs...): ``values`` ``(n, k)`` and, per polygon corner, the
    row of ``values`` it uses (``corner_values``), whatever mapping the file wrote."""

    values: np.ndarray
    corner_values: np.ndarray

    @cached_property
    def per_corner(self) -> np.ndarray:
        """The value of each polygon corner, ``(corners, k)``, read-only; gathered once."""
        return read_only(self.values[self.corner_values])


@dataclass
class FbxGeometry:
    """One mesh geometry as the file stores it, validated: every index is in range.

    ``positions`` are the control points ``(n, 3)`` float64 in the file's units; ``corners``
    the control point of each polygon corner (int32); ``polygon_starts`` the first corner of
    each polygon (int32, ascending, the first is 0); ``polygon_materials`` the material slot of
    each polygon (int32, None when the file assigns none). ``normals`` and ``uvs`` are the first
    layer of each, or None.
    """

    positions: np.ndarray
    corners: np.ndarray
    polygon_starts: np.ndarray
    normals: FbxLayer | None = None
    uvs: FbxLayer | None = None
    polygon_materials: np.ndarray | None = None

    @property
    def polygon_sizes(self) -> np.ndarray:
        """The number of corners of each polygon."""
        return np.diff(self.polygon_starts, append=len(self.corners))

    def triangles(self) -> np.ndarray:
        """The polygons fan-triangulated, as ``(n, 3)`` control point indices (int32): a
        polygon of ``k`` corners gives ``k - 2`` triangles, lines and points none."""
        return self.corners[self.corner_triangles()]

    @cached_property
    def corner_mesh(self) -> PreparedMesh:
        """The mesh with one vertex per polygon corner (at its control point) and
        :meth:`corner_triangles`, as the topology and UV checks measure it (with the layers'
        :attr:`~FbxLayer.per_corner` values); prepared once for both."""
        return PreparedMesh(Vertices.of(self.positions[self.corners]), self.corner_triangles())

    def triangle_slots(self) -> np.ndarray:
        """The material slot of each of :meth:`triangles` (its polygon's; 0 for every one
        when the file assigns none), int32."""
        sizes = self.polygon_sizes
        polygon = np.repeat(np.arange(len(sizes)), np.maximum(sizes - 2, 0))
        if self.polygon_materials is None:
            return np.zeros(len(polygon), np.int32)
        return self.polygon_materials[polygon]

    def corner_triangles(self) -> np.ndarray:
        """The same triangles as :meth:`triangles`, as ``(n, 3)`` polygon corner numbers
        (int32): the rows of layers' ``corner_values``."""
        sizes = self.polygon_sizes
        if not len(sizes):
            return np.empty((0, 3), np.int32)
        smallest, largest = int(sizes.min()), int(sizes.max())
        if smallest == largest and smallest >= 3:  # one polygon size (all triangles or quads)
            polygons = np.arange(len(self.corners), dtype=np.int32).reshape(-1, smallest)
            fans = [
                np.stack([polygons[:, 0], polygons[:, j], polygons[:, j + 1]], axis=1)
                for j in range(1, smallest - 1)
            ]
            return np.stack(fans, axis=1).reshape(-1, 3)
        counts = np.maximum(sizes - 2, 0)
        total = int(counts.sum())
        first = np.repeat(self.polygon_starts, counts)
        # The j-th triangle of a polygon is (first, first + j + 1, first + j + 2).
        opened = np.cumsum(counts) - counts
        middle = first + (np.arange(total, dtype=np.int32) - np.repeat(opened, counts) + 1)
        return np.stack([first, middle, middle + 1], axis=1).astype(np.int32, copy=False)

    def __reduce_ex__(
        self, protocol: SupportsIndex
    ) -> tuple[Callable[..., FbxGeometry], tuple[object, ...]]:
        number = operator.index(protocol)
        return unpack_geometry, tuple(_packed(getattr(self, f.name), number) for f in fields(self))


def _packed(
    value: np.ndarray | FbxLayer | None,
    protocol: int,
) -> PackedArray | tuple[PackedArray, PackedArray] | None:
    """An array (or a layer's two arrays) as (dtype, shape, data); the data is a pickle buffer
    (sent out of band where the pickler takes them) from protocol 5 on, else bytes."""
    if isinstance(value, FbxLayer):
        return (packed_array(value.values, protocol), packed_array(value.corner_values, protocol))
    return None if value is None else packed_array(value, protocol)


def packed_array(value: np.ndarray, protocol: int) -> PackedArray:
    array = np.ascontiguousarray(value)
    # numpy's stubs give ndarray its buffer protocol (__buffer__) only from Python 3.12 on.
    data = pickle.PickleBuffer(array) if protocol >= 5 else array.tobytes()  # type: ignore[arg-type]
    return (array.dtype.str, array.shape, data)


def packed_items(value: object, count: int) -> tuple[Any, ...]:
    """``value`` as the tuple of ``count`` items :func:`_packed` sends; ValueError otherwise."""
    if not isinstance(value, tuple) or len(value) != count:
        raise ValueError(f"unexpected packed value of type {type(value).__name__}")
    return value


def unpacked_array(value: object) -> np.ndarray:
    """The array :func:`_packed` sent; ValueError for anything but a plain numeric array."""
    dtype, shape, data = packed_items(value, 3)
    if dtype not in ARRAY_DTYPES or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise ValueError(f"unexpected array of dtype {dtype!r}")
    return np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)


def unpack_geometry(
    positions: object,
    corners: object,
    polygon_starts: object,
    normals: object,
    uvs: object,
    polygon_materials: object,
) -> FbxGeometry:
    """The geometry :meth:`FbxGeometry.__reduce_ex__` sent (arrays as :func:`_packed`).

    The arguments come from a child that parsed a hostile file: anything but the arrays and
    layers a geometry has (and None only where it may have none) is a ValueError.
    """

    def layer(value: object) -> FbxLayer | None:
        return None if value is None else FbxLayer(*map(unpacked_array, packed_items(value, 2)))

    materials = None if polygon_materials is None else unpacked_array(polygon_materials)
    return FbxGeometry(
        unpacked_array(positions),
        unpacked_array(corners),
        unpacked_array(polygon_starts),
        layer(normals),
        layer(uvs),
        materials,
    )


@dataclass
class FbxSkin:
    """The skin clusters deforming one mesh geometry, as compact arrays (``docs/skins.md``).

    Cluster ``c`` weighs control points ``vertices[starts[c]:ends[c]]`` (int32, as written:
    they may be out of range) by ``weights`` at the same rows (float64). ``names`` are the
    bones' names (the cluster's where it has no bone); ``bound`` says whether a bone is
    linked to it. ``bind_matrices`` are the ``TransformLink`` matrices (the bone's world
    matrix when the mesh was bound, row-major ``(clusters, 4, 4)``, the identity where the
    file gives none), ``bone_world`` the bones' world matrices in the scene's default pose
    (NaN for a cluster without bone). ``points`` counts the geometry's control points.
    """

    names: list[str]
    bound: np.ndarray
    starts: np.ndarray
    vertices: np.ndarray
    weights: np.ndarray
    bind_matrices: np.ndarray
    bone_world: np.ndarray
    points: int

    @property
    def ends(self) -> np.ndarray:
        """Where each cluster's rows end (the next one's start)."""
        return np.append(self.starts[1:], len(self.vertices)).astype(np.int32)

    @cached_property
    def clusters(self) -> np.ndarray:
        """The cluster of each row of ``vertices`` and ``weights`` (int32)."""
        return np.repeat(np.arange(len(self.names), dtype=np.int32), self.ends - self.starts)

    @cached_property
    def in_range(self) -> np.ndarray:
        """Whether each row names a control point the geometry has."""
        return (self.vertices >= 0) & (self.vertices < self.points)

    @cached_property
    def influences(self) -> np.ndarray:
        """Per control point, how many bones weigh on it: its rows with a non-zero weight
        (int32)."""
        rows = self.in_range & (self.weights != 0)
        counts = np.bincount(self.vertices[rows], minlength=self.points)
        return counts.astype(np.int32, copy=False)

    @cached_property
    def sums(self) -> np.ndarray:
        """Per control point, the sum of its weights (float64)."""
        rows = self.in_range
        return np.bincount(self.vertices[rows], self.weights[rows], minlength=self.points)

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Callable[..., FbxSkin], tuple]:
        number = operator.index(protocol)
        arrays = (
            self.bound,
            self.starts,
            self.vertices,
            self.weights,
            self.bind_matrices,
            self.bone_world,
        )
        packed = tuple(packed_array(array, number) for array in arrays)
        return unpack_skin, (list(map(str, self.names)), *packed, int(self.points))


def unpack_skin(names: object, *values: object) -> FbxSkin:
    """The skin :meth:`FbxSkin.__reduce_ex__` sent; ValueError for anything else (the child
    parsed a hostile file)."""
    *arrays, points = packed_items(values, 7)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError("unexpected skin cluster names")
    if not isinstance(points, int):
        raise ValueError("unexpected skin control point count")
    bound, starts, vertices, weights, bind, world = map(unpacked_array, arrays)
    clusters = len(names)
    if (
        bound.shape != (clusters,)
        or starts.shape != (clusters,)
        or vertices.shape != weights.shape
        or bind.shape != (clusters, 4, 4)
        or world.shape != (clusters, 4, 4)
        or (clusters and (starts[0] != 0 or np.any(np.diff(starts) < 0)))
        or (clusters and starts[-1] > len(vertices))
    ):
        raise ValueError("unexpected skin arrays")
    return FbxSkin(names, bound, starts, vertices, weights, bind, world, points)


@dataclass(frozen=True)
class FbxUnsetValues:
    """Items of a mesh a layer gives no value: the file writes index -1, "none", for them.

    ``layer`` names the layer (``normals``, ``UVs``, ``material``); ``items`` what it maps
    (``polygon corners`` or ``polygons``); ``count`` of ``total`` items are unset.
    """

    layer: str
    items: str
    count: int
    total: int


@dataclass
class FbxInstance:
    """A node that draws a mesh: its name and ``geometry_to_world``, the 4x4 matrix from the
    geometry's coordinates to the scene's (node transforms with pivots and offsets, times the
    geometric transform), in the file's units and axes."""

    node: str
    geometry_to_world: np.ndarray

    def __post_init__(self) -> None:
        self.geometry_to_world = np.asarray(self.geometry_to_world, np.float64).reshape(4, 4)

    def __reduce_ex__(
        self, protocol: SupportsIndex
    ) -> tuple[type[FbxInstance], tuple[str, tuple[float, ...]]]:
        return FbxInstance, (self.node, tuple(map(float, self.geometry_to_world.ravel())))

    @property
    def mirrored(self) -> bool:
        """Whether the transform turns the mesh inside out (a negative determinant)."""
        return bool(np.linalg.det(self.geometry_to_world[:3, :3]) < 0)


@dataclass
class FbxMesh:
    """One FBX mesh: its counts as ufbx reads them and, when it could be decoded, its
    geometry and the nodes that draw it.

    ``vertices`` counts control points; ``triangles`` fan-triangulated polygons. ``uv_sets``
    counts the ``LayerElementUV`` nodes of its geometry (None where no decoded geometry could
    be matched to the mesh). ``geometry`` is
    None when the geometry was not decoded; ``geometry_fault`` then says why, if it is damaged.
    ``unset_values`` lists the layers that leave some items without a value (index -1).
    ``skin`` holds the clusters of the skins deforming its geometry (None without any);
    ``skin_fault`` says why they could not be read, when they could not.
    """

    name: str
    vertices: int
    triangles: int
    faces: int
    quads: int
    ngons: int
    has_normals: bool
    has_uvs: bool
    materials: list[str] = field(default_factory=list)
    skinned: bool = False
    bones: int = 0
    blend_shapes: int = 0
    uv_sets: int | None = None
    geometry: FbxGeometry | None = None
    geometry_fault: str | None = None
    instances: list[FbxInstance] = field(default_factory=list)
    unset_values: list[FbxUnsetValues] = field(default_factory=list)
    skin: FbxSkin | None = None
    skin_fault: str | None = None


@dataclass
class FbxScene:
    """What the FBX reader learned about a scene beyond the format-neutral ``Asset`` fields.

    ``unit_meters`` is the length of one scene unit in metres; ``axes`` the scene's axis
    system. ``meshes`` follow ufbx's order. ``curves`` are the animation curves of its
    stacks (None when its node tree could not be read).
    """

    version: int
    ascii: bool
    creator: str
    unit_meters: float
    original_unit_meters: float
    axes: FbxAxes
    original_up_axis: str
    frames_per_second: float
    bone_count: int
    meshes: list[FbxMesh] = field(default_factory=list)
    textures: list[FbxTexture] = field(default_factory=list)
    curves: FbxCurves | None = None
    materials: list[FbxMaterial] = field(default_factory=list)
    images: list[FbxImage] = field(default_factory=list)
    #: The file's bytes, which :attr:`images` point into: given by the reader in the parent
    #: process (never sent by the parser child), let go of by :meth:`drop_geometry`.
    source: FbxSource | None = field(default=None, repr=False, compare=False)

    def image_data(self, index: int) -> bytes | memoryview | None:
        """The encoded bytes of embedded image ``index`` (a view of the file where it can
        be), or None when the file's bytes are gone, there is no such image (only a parser
        child subverted by the file sends that) or its bytes cannot be read."""
        if self.source is None or not 0 <= index < len(self.images):
            return None
        try:
            return self.source.blob(self.images[index].spans)
        except FbxTreeError:
            return None

    def summary(self) -> dict[str, object]:
        """The scalar facts, for the report's per-file metadata."""
        return {
            "version": self.version,
            "ascii": self.ascii,
            "creator": self.creator,
            "unit_meters": self.unit_meters,
            "original_unit_meters": self.original_unit_meters,
            "axes": {"right": self.axes.right, "up": self.axes.up, "front": self.axes.front},
            "original_up_axis": self.original_up_axis,
            "frames_per_second": self.frames_per_second,
            "bone_count": self.bone_count,
        }

    def to_metres_y_up(self) -> np.ndarray:
        """The 4x4 matrix from scene coordinates to metres, +Y up, +Z front (as glTF)."""
        matrix = np.eye(4)
        unit = self.unit_meters if self.unit_meters > 0 else 1.0
        matrix[:3, :3] = self.axes.to_y_up() * unit
        return matrix

    def world_triangles(self) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        """Per drawn mesh instance: its node's name, the positions of its control points in
        metres, +Y up (``(n, 3)`` float32), and its triangles (``(m, 3)`` int32 indices into
        those positions). Meshes whose geometry was not decoded are left out."""
        return placed_triangles(self.meshes, self.to_metres_y_up())

    def drop_geometry(self) -> None:
        """Let go of the geometry, skin and curve arrays and of the file's bytes (the counts
        and facts stay)."""
        self.curves = self.source = None
        for mesh in self.meshes:
            mesh.geometry = mesh.skin = None


class PolygonMesh(Protocol):
    """A mesh of polygon geometry and the nodes that draw it: an :class:`FbxMesh`, an OBJ
    mesh (drawn once, where it is) or a USD mesh."""

    name: str
    geometry: FbxGeometry | None
    instances: list[FbxInstance]


class PolygonScene(Protocol):
    """A scene of :class:`PolygonMesh` es: an :class:`FbxScene`, an OBJ or a USD scene; what
    the previews and the viewer draw of them."""

    @property
    def meshes(self) -> Sequence[PolygonMesh]: ...

    def to_metres_y_up(self) -> np.ndarray:
        """The 4x4 matrix from scene coordinates to metres, +Y up, +Z front (as glTF)."""
        ...

    def world_triangles(self) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
        """Per drawn mesh instance: its node's name, its positions in metres, +Y up, and its
        triangles (:meth:`FbxScene.world_triangles`)."""
        ...

    def drop_geometry(self) -> None:
        """Let go of the geometry arrays (the counts and facts stay)."""
        ...


def placed_triangles(
    meshes: Iterable[PolygonMesh], convert: np.ndarray
) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """Per instance of each mesh with geometry: its node's name, its positions placed by the
    instance then by ``convert`` (``(n, 3)`` float32), and its fan-triangulated polygons."""
    for mesh in meshes:
        if mesh.geometry is None or not mesh.instances:
            continue
        triangles = mesh.geometry.triangles()
        for instance in mesh.instances:
            matrix = convert @ instance.geometry_to_world
            yield instance.node, transform_points(matrix, mesh.geometry.positions), triangles


def transform_points(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` ``(n, 3)`` transformed by the 4x4 affine ``matrix``, as float32."""
    placed = points @ matrix[:3, :3].T
    placed += matrix[:3, 3]
    return placed.astype(np.float32)
