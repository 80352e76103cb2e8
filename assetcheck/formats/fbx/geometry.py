"""Every mesh geometry of an FBX file, decoded, with the nodes that draw it.

Runs in the FBX reader's child process, beside ufbx (which reads everything else), on the node
tree the walk kept (:mod:`assetcheck.formats.fbx.tree`): each mesh geometry is decoded
(:mod:`assetcheck.formats.fbx.mesh_data`) and placed by the model hierarchy of the
``Connections`` (:mod:`assetcheck.formats.fbx.transforms`). FBX 7 connects objects by id
(``C: "OO", child, parent``), FBX 6 by name (``Connect: "OO", "Model::a", "Model::b"``) and
keeps each geometry inside its model. The skins deforming a geometry come with it
(:mod:`assetcheck.formats.fbx.clusters`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from assetcheck.formats.fbx.clusters import SkinFault, bones_of, read_skin, skins_by_owner
from assetcheck.formats.fbx.mesh_data import GeometryFault, decode_geometry
from assetcheck.formats.fbx.model import FbxGeometry, FbxInstance, FbxSkin, FbxUnsetValues
from assetcheck.formats.fbx.objects import FbxObjects, object_name
from assetcheck.formats.fbx.transforms import geometric_matrix, local_matrix, model_properties
from assetcheck.formats.fbx.tree import FbxNode, FbxTree, FbxTreeError


@dataclass
class DecodedMesh:
    """One mesh geometry of the file: its counts, its geometry (or why there is none), the
    nodes drawing it, the layers that leave items unset and its UV sets (``LayerElementUV``
    nodes, whether or not the geometry could be decoded)."""

    vertices: int
    triangles: int
    geometry: FbxGeometry | None
    fault: str | None = None
    instances: list[FbxInstance] = field(default_factory=list)
    unset_values: list[FbxUnsetValues] = field(default_factory=list)
    uv_sets: int = 0
    skin: FbxSkin | None = None
    skin_fault: str | None = None


def read_geometries(tree: FbxTree) -> list[DecodedMesh]:
    """The mesh geometries of the file whose nodes the walk kept in ``tree``
    (:func:`assetcheck.formats.fbx.tree.geometry_nodes`), in file order.

    Raises FbxTreeError when the node structure itself cannot be read; a damaged geometry is a
    :class:`DecodedMesh` with a ``fault`` instead.
    """
    found = FbxObjects.of(tree)
    objects, links, legacy = found.nodes, found.links, found.legacy
    models = found.named("Model")
    hierarchy = _Hierarchy(models, links)
    skins = _Skins(found, models, hierarchy)
    meshes = []
    for node in objects:
        key = found.key(node)
        if legacy and node.name == "Model" and node.child("Vertices") is not None:
            owners = [key]
        elif node.name == "Geometry" and node.text(2) == "Mesh":
            owners = [parent for child, parent in links if child == key and parent in models]
        else:
            continue
        mesh = _decode(node, [hierarchy.instance(owner) for owner in owners])
        if mesh.geometry is not None:
            skins.add(key, mesh)
        meshes.append(mesh)
    return meshes


class _Skins:
    """The skins of the geometries, by the key of the geometry (FBX 6: its model)."""

    def __init__(
        self,
        objects: FbxObjects,
        models: dict[Hashable, FbxNode],
        hierarchy: _Hierarchy,
    ) -> None:
        deformers = objects.named("Deformer")
        self.clusters = skins_by_owner(deformers, objects.links)
        self.bones = bones_of(deformers, models, objects.links)
        self.models = models
        self.objects = objects
        self.hierarchy = hierarchy

    def add(self, key: Hashable, mesh: DecodedMesh) -> None:
        """Give ``mesh`` (decoded) the skin of its geometry, or the reason it has none."""
        clusters = self.clusters.get(key)
        if not clusters:
            return
        bones = []
        for number, cluster in enumerate(clusters):
            bone = self.bones.get(self.objects.key(cluster))
            node = cluster if bone is None else self.models[bone]
            bones.append((object_name(node) or f"cluster {number}", bone))
        try:
            mesh.skin = read_skin(clusters, bones, self.hierarchy.world_matrix, mesh.vertices)
        except SkinFault as fault:
            mesh.skin_fault = str(fault)


def _decode(node: FbxNode, instances: list[FbxInstance]) -> DecodedMesh:
    uv_sets = sum(1 for _ in node.children_named("LayerElementUV"))
    try:
        geometry, unset_values = decode_geometry(node)
    except (GeometryFault, FbxTreeError) as fault:
        vertices = node.child("Vertices")
        count = len(vertices.props) // 3 if vertices is not None and len(vertices.props) > 1 else -1
        return DecodedMesh(count, -1, None, str(fault), instances, uv_sets=uv_sets)
    sizes = geometry.polygon_sizes
    triangles = int(np.maximum(sizes - 2, 0).sum())
    return DecodedMesh(
        len(geometry.positions), triangles, geometry, None, instances, unset_values, uv_sets
    )


class _Hierarchy:
    """World matrices of the models, from their parents (computed once each)."""

    def __init__(self, models: dict[Hashable, FbxNode], links: list[tuple]) -> None:
        self.models = models
        self.parent = {
            child: parent for child, parent in links if child in models and parent in models
        }
        self.world: dict[Hashable, np.ndarray] = {}
        self.props = {key: model_properties(node) for key, node in models.items()}

    def instance(self, key: Hashable) -> FbxInstance:
        world = self.world_matrix(key) @ geometric_matrix(self.props[key])
        return FbxInstance(object_name(self.models[key]), world)

    def world_matrix(self, key: Hashable) -> np.ndarray:
        """The model's world matrix in the default pose (without its geometric transform)."""
        chain = []
        seen = set()
        while key is not None and key not in self.world and key not in seen:
            seen.add(key)
            chain.append(key)
            key = self.parent.get(key)
        matrix = self.world.get(key, np.eye(4)) if key is not None else np.eye(4)
        for link in reversed(chain):  # a parent loop: the loop's first node counts as a root
            matrix = matrix @ local_matrix(self.props[link])
            self.world[link] = matrix
        return self.world[chain[0]] if chain else matrix
