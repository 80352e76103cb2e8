"""The glTF part of the asset model: one document, resolved once and shared.

The glTF reader builds a :class:`GltfDocument` for each glTF 2.x file it reads and hands it on
as ``Asset.gltf``, as the FBX reader hands on its
:class:`~assetcheck.formats.fbx.model.FbxScene` as ``Asset.fbx``. Every glTF check, the
previews and the 3D viewer read the document through it; each part is computed on first use
and kept until the engine lets go of the asset's data:

- :attr:`GltfDocument.links`: what the document's objects refer to (:mod:`.links`);
- :attr:`GltfDocument.reader`: the accessor data (:mod:`.accessor_data`), compressed geometry
  served decoded (:mod:`.compression`);
- :attr:`GltfDocument.declared_bounds`: the accessors' declared ``min`` and ``max``
  (:mod:`.accessor_bounds`);
- :meth:`GltfDocument.influences`: per skinned primitive, its vertices' bone influences
  (:mod:`.skins`), which the skin checks, the engine budgets and the overlays read;
- :attr:`GltfDocument.images`: the encoded bytes of each image that has them (the reader
  sets them), for the texture content check;
- :attr:`GltfDocument.world_matrices`: every node's world transform in the default pose, and
  :attr:`GltfDocument.scene_box` the world box of the drawn meshes (:mod:`.scene_bounds`);
- :meth:`GltfDocument.mesh`: per primitive, a :class:`PrimitiveMesh`: its triangles, its
  positions hashed (once per POSITION accessor, which primitives may share) and the
  :class:`~assetcheck.mesh.prepared.PreparedMesh` the geometry, topology and UV checks measure.

A part whose computation raises is not kept (the next reader computes it again) and the arrays
are read-only, so a check that crashes cannot leave the others a half-built or altered part.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from assetcheck.formats.gltf.accessor_bounds import DeclaredBounds
from assetcheck.formats.gltf.accessor_data import (
    AccessorReader,
    DecodedPayloads,
    primitive_triangles,
)
from assetcheck.formats.gltf.layout import Bytes
from assetcheck.formats.gltf.links import DocumentLinks, Primitive, link_document
from assetcheck.formats.gltf.meshes import TRIANGLE_MODES
from assetcheck.formats.gltf.node_transforms import world_matrices
from assetcheck.formats.gltf.scene_bounds import scene_box
from assetcheck.lazy_imports import lazy_module
from assetcheck.mesh.bounds import Box
from assetcheck.mesh.prepared import PreparedMesh, Vertices, read_only

if TYPE_CHECKING:
    from assetcheck.formats.gltf import skins
else:  # imported by the first skinned primitive
    skins = lazy_module("assetcheck.formats.gltf.skins")


class GltfDocument:
    """One glTF document: ``json`` as read (``Asset.document``), ``buffers`` its buffers' bytes
    by index (``Asset.buffers``: None where a buffer could not be resolved) and ``decoded``
    what the reader decoded of its compressed geometry."""

    def __init__(
        self, json: dict[str, Any], buffers: list[Any], decoded: DecodedPayloads | None = None
    ) -> None:
        self.json = json
        self.buffers = buffers
        self.decoded = decoded or DecodedPayloads()
        #: The encoded bytes of each image that has them, by image index (``/images/<i>``):
        #: a buffer view's, a ``data:`` URI's or a file's of the upload.
        self.images: dict[int, Bytes] = {}
        self._meshes: dict[tuple[int, int], PrimitiveMesh] = {}
        self._influences: dict[tuple[int, int], skins.Influences | None] = {}

    @cached_property
    def reader(self) -> AccessorReader:
        """The accessor data, each accessor decoded once."""
        return AccessorReader(self.json, self.buffers, self.decoded)

    @cached_property
    def declared_bounds(self) -> DeclaredBounds:
        """The accessors' declared ``min`` and ``max``, each read once."""
        return DeclaredBounds(self.json.get("accessors"), self.reader)

    @cached_property
    def links(self) -> DocumentLinks:
        """What the document's objects refer to."""
        return link_document(self.json, self.reader)

    @cached_property
    def world_matrices(self) -> dict[int, np.ndarray]:
        """The world transform of every node reachable from a root, in the default pose
        (:func:`~.node_transforms.world_matrices`)."""
        return world_matrices(self.links)

    @cached_property
    def scene_box(self) -> Box | None:
        """The world box of the drawn meshes in the default pose (:func:`~.scene_bounds.scene_box`),
        for the scale and texel density checks."""
        return scene_box(self.links, self.world_matrices)

    def influences(self, primitive: Primitive) -> skins.Influences | None:
        """The bone influences of ``primitive``'s vertices (:func:`~.skins.read_influences`):
        None without joints and weights, or when they cannot be read."""
        if not primitive.semantics.joints_count:
            return None  # no joints: nothing to read, and the skin rules stay unimported
        key = (primitive.mesh, primitive.number)
        if key not in self._influences:
            self._influences[key] = skins.read_influences(self.reader, primitive)
        return self._influences[key]

    @cached_property
    def _accessor_vertices(self) -> AccessorVertices:
        return AccessorVertices(self.reader)

    def vertices(self, accessor: int) -> Vertices | None:
        """The values of POSITION accessor ``accessor`` hashed, for every primitive that uses
        it; None when they cannot be read as 3D points."""
        return self._accessor_vertices.of(accessor)

    def mesh(self, primitive: Primitive) -> PrimitiveMesh:
        """The mesh of ``primitive``, one of :attr:`links`' primitives."""
        key = (primitive.mesh, primitive.number)
        if key not in self._meshes:
            self._meshes[key] = PrimitiveMesh(primitive, self.reader, self._accessor_vertices)
        return self._meshes[key]


class AccessorVertices:
    """The POSITION accessors of one document hashed, each once for every primitive that uses
    it (:meth:`GltfDocument.vertices`)."""

    def __init__(self, reader: AccessorReader) -> None:
        self._reader = reader
        self._by_accessor: dict[int, Vertices | None] = {}

    def of(self, accessor: int) -> Vertices | None:
        """The values of POSITION accessor ``accessor`` hashed; None when they cannot be read
        as 3D points."""
        if accessor not in self._by_accessor:
            positions = self._reader.normalized(accessor)
            self._by_accessor[accessor] = (
                None
                if positions is None or positions.ndim != 2 or positions.shape[1] != 3
                else Vertices.of(positions)
            )
        return self._by_accessor[accessor]


class PrimitiveMesh:
    """One primitive of a :class:`GltfDocument` as a triangle mesh. It holds what it reads
    from, not the document (which holds it): the document, its accessors and its meshes are
    then freed by reference counting, without waiting for a cyclic garbage collection."""

    def __init__(
        self, primitive: Primitive, reader: AccessorReader, vertices: AccessorVertices
    ) -> None:
        self.primitive = primitive
        self._reader = reader
        self._vertices = vertices

    @cached_property
    def triangles(self) -> np.ndarray | None:
        """What it draws, as read-only ``(n, 3)`` vertex indices (strips and fans unrolled,
        indices as read); None when it draws no triangles or they cannot be read."""
        triangles = primitive_triangles(self._reader, self.primitive.json)
        return None if triangles is None else read_only(triangles)

    @cached_property
    def vertices(self) -> Vertices | None:
        """Its positions hashed (:meth:`GltfDocument.vertices`); None without positions
        readable as 3D points."""
        position = self.primitive.attributes.get("POSITION")
        return None if position is None else self._vertices.of(position)

    @cached_property
    def prepared(self) -> PreparedMesh | None:
        """The mesh the geometry, topology and UV checks measure: None unless the primitive
        draws triangles, in a triangle mode, from positions readable as 3D points. Without
        indices its triangles number the vertices up to the declared count, trusted only when
        the positions' real bytes back it."""
        primitive, vertices = self.primitive, self.vertices
        if primitive.mode not in TRIANGLE_MODES or vertices is None:
            return None
        if primitive.indices is None and primitive.vertex_count != len(vertices):
            return None
        triangles = self.triangles
        if triangles is None or not len(triangles):
            return None
        return PreparedMesh(vertices, triangles)
