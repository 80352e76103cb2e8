"""Skins: the nodes every joint of a skin descends from, and the bone influences of skinned
vertices (``JOINTS_n``/``WEIGHTS_n``), read once per primitive for every check, the engine
budgets and the viewer's overlays."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TypeGuard

import numpy as np

from assetcheck.formats.gltf.accessor_data import (
    COMPONENT_DTYPES,
    FLOAT,
    AccessorLayout,
    AccessorReader,
)
from assetcheck.formats.gltf.links import (
    CommonLineage,
    DocumentLinks,
    Primitive,
    index_list,
    index_of,
    resolve,
)


def skin_roots(links: DocumentLinks, skin: int) -> CommonLineage:
    """The nodes that are ancestors-or-self of every joint of ``skin`` (its usable joints).

    Costs time linear in the joint count (membership tests included), whatever the depth.
    """
    nodes = links.items("nodes")
    joints = [
        j
        for j in index_list(links.items("skins")[skin], "joints")
        if j < len(nodes) and nodes[j] is not None
    ]
    return links.tree.common_lineage(joints)


def joint_limits(links: DocumentLinks) -> dict[int, tuple[int, int]]:
    """Per mesh: the joint count of the smallest skin among the nodes using it, and that skin
    (the skin Khronos checks the mesh's joint indices against)."""
    limits: dict[int, tuple[int, int]] = {}
    skins = links.items("skins")
    for node in links.items("nodes"):
        mesh, skin = index_of(node, "mesh"), index_of(node, "skin")
        skin_json = resolve(skin, skins)
        joints = skin_json.get("joints") if skin_json is not None else None
        if mesh is None or skin is None or not isinstance(joints, list):
            continue
        count = len(joints)
        if mesh not in limits or count < limits[mesh][0]:
            limits[mesh] = (count, skin)
    return limits


@dataclass(frozen=True)
class Influences:
    """The bone influences of one primitive's vertices: ``joints`` and ``weights`` of shape
    ``(vertices, 4 * sets)``, in the order Khronos walks them (component 0 of every set, then
    component 1, and so on). Weights are floats as stored, normalized integers times 1/max in
    double precision, as Khronos reads them."""

    joints: np.ndarray
    weights: np.ndarray
    sets: int

    @cached_property
    def set_of_column(self) -> list[int]:
        """The ``n`` of the ``JOINTS_n``/``WEIGHTS_n`` set each column comes from."""
        return [number for _ in range(4) for number in range(self.sets)]

    @cached_property
    def counts(self) -> np.ndarray:
        """Per vertex, how many bones influence it: its non-zero weights."""
        return np.count_nonzero(self.weights != 0, axis=1)


def read_influences(reader: AccessorReader, primitive: Primitive) -> Influences | None:
    """The influences of ``primitive``; None without joints and weights, or when one of its
    sets is not readable four components per vertex (other rules report why)."""
    sets = primitive.semantics.joints_count
    pairs = [_pair(reader, primitive, number) for number in range(sets)]
    usable = [pair for pair in pairs if pair is not None]
    if not sets or len(usable) < sets:
        return None
    joints = np.stack([usable[s][0][:, c] for c in range(4) for s in range(sets)], axis=1)
    weights = np.stack([usable[s][1][:, c] for c in range(4) for s in range(sets)], axis=1)
    joints.setflags(write=False)
    weights.setflags(write=False)
    return Influences(joints, weights, sets)


def _pair(
    reader: AccessorReader, primitive: Primitive, number: int
) -> tuple[np.ndarray, np.ndarray] | None:
    vertices = primitive.vertex_count
    joints = primitive.attributes.get(f"JOINTS_{number}")
    weights = primitive.attributes.get(f"WEIGHTS_{number}")
    if joints is None or weights is None:
        return None
    joints_layout, weights_layout = reader.layout(joints), reader.layout(weights)
    if (
        not _vec4_per_vertex(joints_layout, vertices)
        or not _vec4_per_vertex(weights_layout, vertices)
        or joints_layout.component_type == FLOAT
    ):
        return None
    joint_values = reader.read(joints)
    weight_values = _weights(
        reader.read(weights), weights_layout.component_type, weights_layout.normalized
    )
    if joint_values is None or weight_values is None:
        return None
    return joint_values, weight_values


def _vec4_per_vertex(
    layout: AccessorLayout | None,
    vertices: int | None,
) -> TypeGuard[AccessorLayout]:
    """Whether ``layout`` is usable joints or weights data: four components per vertex."""
    return layout is not None and layout.count == vertices and layout.components == 4


def _weights(
    values: np.ndarray | None,
    component_type: int,
    normalized: bool,
) -> np.ndarray | None:
    """Weights as Khronos reads them: floats as stored, integers times 1/max in double."""
    if values is None:
        return None
    if component_type == FLOAT or not normalized:
        return values.astype(np.float64)
    return values * (1 / float(np.iinfo(COMPONENT_DTYPES[component_type]).max))


#: Allowed error of a weight sum, per weight added (single-precision rounding, as Khronos).
WEIGHT_SUM_STEP = 2e-7


@dataclass(frozen=True)
class InfluenceFaults:
    """What is wrong with a primitive's influences for a skin of ``joint_count`` joints, by
    Khronos glTF-Validator's rules: masks shaped like :attr:`Influences.weights` (a joint
    index past the skin's joints, a joint weighted twice, a negative weight, a non-zero joint
    with a zero weight), and the vertices whose weights do not sum to 1 with their ``sums``."""

    outside: np.ndarray
    repeated: np.ndarray
    negative: np.ndarray
    zero_weight: np.ndarray
    unnormalized: np.ndarray
    sums: np.ndarray


def influence_faults(influences: Influences, joint_count: int) -> InfluenceFaults:
    """The faults of ``influences`` against a skin of ``joint_count`` joints."""
    joints, weights = influences.joints, influences.weights
    outside = joints > joint_count - 1
    weighted = ~outside & (weights != 0)
    repeated = np.zeros_like(weighted)
    for column in range(1, joints.shape[1]):
        same = (joints[:, :column] == joints[:, column : column + 1]) & weighted[:, :column]
        repeated[:, column] = weighted[:, column] & same.any(axis=1)
    negative = weighted & (weights < 0)
    sums, unnormalized = _unnormalized(weights, weighted & ~repeated & ~negative)
    return InfluenceFaults(
        outside,
        repeated,
        negative,
        ~outside & (weights == 0) & (joints != 0),
        unnormalized,
        sums,
    )


def _unnormalized(weights: np.ndarray, adds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per vertex, the sum of the weights ``adds`` selects, accumulated in single precision as
    Khronos does, and the vertices whose sum is further from 1 than :data:`WEIGHT_SUM_STEP`
    per weight added."""
    total = np.zeros(len(weights), dtype=np.float32)
    for column in range(weights.shape[1]):
        added = (total.astype(np.float64) + weights[:, column]).astype(np.float32)
        total = np.where(adds[:, column], added, total)
    tolerance = WEIGHT_SUM_STEP * np.count_nonzero(adds, axis=1)
    return total, np.flatnonzero(np.abs(total.astype(np.float64) - 1) > tolerance)
