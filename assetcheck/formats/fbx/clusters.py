"""The skins of an FBX file's geometries, read from the node tree: runs in the reader's child
process, beside the geometry (:mod:`assetcheck.formats.fbx.geometry`).

A ``Deformer`` of class ``Skin`` is connected to the geometry it deforms (FBX 6: to the model
holding it); each ``Deformer`` of class ``Cluster`` connected to a skin weighs control points
(``Indexes``, ``Weights``) on the bone ``Model`` connected to the cluster, bound at
``TransformLink`` (16 doubles, column by column). All the clusters of a geometry's skins make
one :class:`~assetcheck.formats.fbx.model.FbxSkin`. pyufbx gives no weights, hence this reader.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable

import numpy as np

from assetcheck.formats.fbx.model import FbxSkin
from assetcheck.formats.fbx.tree import FbxNode, FbxTreeError

#: An object's key in the connections -> its node.
Objects = dict[Hashable, FbxNode]


class SkinFault(Exception):
    """A cluster cannot be read; the message says which and why."""


def skins_by_owner(
    deformers: Objects, links: list[tuple[Hashable, Hashable]]
) -> dict[Hashable, list[FbxNode]]:
    """Per geometry (or FBX 6 model) key, the cluster nodes of the skins deforming it, in
    the order of the connections, each once (a connection written twice counts once)."""
    skins = {key for key, node in deformers.items() if _subclass(node) == "Skin"}
    owners: dict[Hashable, list[Hashable]] = defaultdict(list)
    for child, parent in links:
        if child in skins:
            owners[parent].append(child)
    clusters: dict[Hashable, list[FbxNode]] = defaultdict(list)
    for child, parent in links:
        node = deformers.get(child)
        if parent in skins and node is not None and _subclass(node) == "Cluster":
            clusters[parent].append(node)
    return {
        owner: list(
            {
                id(cluster): cluster for skin in dict.fromkeys(found) for cluster in clusters[skin]
            }.values()
        )
        for owner, found in owners.items()
    }


def bones_of(
    deformers: Objects, models: Objects, links: list[tuple[Hashable, Hashable]]
) -> dict[Hashable, Hashable]:
    """Per cluster key, the key of the bone model connected to it (the first one)."""
    bones: dict[Hashable, Hashable] = {}
    for child, parent in links:
        if child in models and parent in deformers:
            bones.setdefault(parent, child)
    return bones


def read_skin(
    clusters: list[FbxNode],
    bones: list[tuple[str, Hashable | None]],
    world: Callable[[Hashable], np.ndarray],
    points: int,
) -> FbxSkin:
    """One geometry's skin from its ``clusters``, each with its name and its bone's key (None
    without bone), whose world matrix ``world`` gives; ``points`` counts the control points.

    Raises :class:`SkinFault` when a cluster's arrays cannot be read or do not pair up.
    """
    vertices, weights, bind, placed = [], [], [], []
    for (name, bone), node in zip(bones, clusters, strict=True):
        try:
            indexes = _values(node, "Indexes", "i4")
            values = _values(node, "Weights", "f8")
            link = _values(node, "TransformLink", "f8")
        except FbxTreeError as error:
            raise SkinFault(f"cluster {name}: {error}") from None
        if len(indexes) != len(values):
            raise SkinFault(
                f"cluster {name} lists {len(indexes)} control points but {len(values)} weights"
            )
        if len(link) not in (0, 16):
            raise SkinFault(f"cluster {name} has a TransformLink of {len(link)} values")
        vertices.append(indexes)
        weights.append(values)
        # FBX writes a matrix column by column; no TransformLink binds at the origin, as ufbx.
        bind.append(link.reshape(4, 4).T if len(link) else np.eye(4))
        placed.append(world(bone) if bone is not None else np.full((4, 4), np.nan))
    sizes = [len(rows) for rows in vertices]
    return FbxSkin(
        names=[name for name, _ in bones],
        bound=np.array([bone is not None for _, bone in bones], dtype=bool),
        starts=(np.cumsum([0, *sizes[:-1]]) if sizes else np.empty(0)).astype(np.int32),
        vertices=np.concatenate([np.empty(0, np.int32), *vertices]).astype(np.int32),
        weights=np.concatenate([np.empty(0), *weights]).astype(np.float64),
        bind_matrices=np.array(bind, dtype=np.float64).reshape(-1, 4, 4),
        bone_world=np.array(placed, dtype=np.float64).reshape(-1, 4, 4),
        points=points,
    )


def _values(node: FbxNode, name: str, dtype: str) -> np.ndarray:
    """The array child ``name`` (empty when the cluster has none)."""
    found = node.child(name)
    return np.empty(0, dtype) if found is None else found.array(dtype)


def _subclass(node: FbxNode) -> str:
    """A deformer's class: its last property (``Skin``, ``Cluster``, ``BlendShape``...)."""
    return node.text(len(node.props) - 1) if node.props else ""
