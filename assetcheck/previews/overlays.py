"""What the job page's 3D viewer marks on a model for the report's issues, computed by the
worker with the report so the page does no validation of its own.

One entry per finding that points at elements of a mesh: its issue ``code``, where the report
puts it (the glTF ``pointer``, or the FBX or OBJ mesh's ``name``), how many elements it has,
what each mark stands for in plain words (``marks``: ``vertices``, ``corners``, ``triangle
centres``, ``triangles``, ``joints`` or ``bones``), and the first :data:`MAX_ELEMENTS` of them
as ``points`` (flat x, y, z) and ``triangles`` (flat x, y, z of three corners each). glTF
coordinates are in the primitive's own space (the viewer places them with every node that
draws the mesh), but for joints; FBX and OBJ ones in the scene's, as the viewer's GLB has it.

- ``ACCESSOR_VECTOR3_NON_UNIT``: the vertices whose normal or tangent is not of unit length;
- ``ACCESSOR_INDEX_OOB``: the corners that do exist of the triangles with an index past the
  vertices;
- ``ACCESSOR_INDEX_TRIANGLE_DEGENERATE`` and ``MESH_ZERO_AREA_TRIANGLES``: the centres of the
  triangles (they have no area to draw);
- ``MESH_DUPLICATE_TRIANGLES``: the triangles that repeat an earlier one;
- ``FBX_NON_UNIT_NORMALS`` (no positions per corner are kept for it): the mesh is highlighted;
- ``ACCESSOR_JOINTS_INDEX_OOB``, ``ACCESSOR_JOINTS_INDEX_DUPLICATE``,
  ``ACCESSOR_WEIGHTS_NEGATIVE``, ``ACCESSOR_JOINTS_USED_ZERO_WEIGHT`` and
  ``ACCESSOR_WEIGHTS_NON_NORMALIZED``: the skinned vertices at fault, per ``JOINTS_n`` or
  ``WEIGHTS_n`` set as the findings are reported (:mod:`assetcheck.formats.gltf.skins`);
- ``SKIN_IBM_NOT_INVERTIBLE``, ``SKIN_IBM_BIND_POSE_MISMATCH`` and ``SKIN_JOINT_UNUSED``:
  the ``joints`` at fault, in the scene's space (``"space": "scene"``) where the default
  pose places them;
- ``FBX_SKIN_WEIGHTS_NEGATIVE``, ``FBX_SKIN_WEIGHTS_NOT_NORMALIZED`` and
  ``FBX_SKIN_CLUSTER_WITHOUT_BONE``: the control points at fault (``vertices``), on every
  instance; ``FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE``, ``FBX_SKIN_BIND_POSE_MISMATCH`` and
  ``FBX_SKIN_BONE_UNUSED``: the ``bones`` at fault, where the scene places them
  (``docs/skins.md``).

A glTF file's overlays also say where each accessor, buffer view and skin shows on the model
(``uses``: by ``/accessors/n``, ``/bufferViews/n`` or ``/skins/n``, the pointers of the mesh
primitives and images that use it), so a finding about one of them can be shown on what it
feeds.

The same rules as the checks decide (:mod:`assetcheck.checks.gltf_vertex_data`,
:mod:`assetcheck.mesh.faults`, :mod:`assetcheck.formats.gltf.skin_binding`,
:mod:`assetcheck.formats.fbx.skin_faults`), through the same functions.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from assetcheck.asset import Asset
from assetcheck.formats.fbx.model import FbxMesh, FbxSkin, PolygonScene, transform_points
from assetcheck.formats.fbx.skin_faults import skin_faults
from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.links import DocumentLinks, Primitive, index_of, uses
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.skin_binding import binding_faults
from assetcheck.formats.gltf.skins import influence_faults, joint_limits
from assetcheck.mesh.faults import faulty_triangles
from assetcheck.mesh.prepared import Vertices
from assetcheck.mesh.vectors import UNIT_LENGTH_THRESHOLD_VEC3, non_unit_rows

#: The most elements listed per finding: enough to see where a problem sits, few enough that
#: the page loads them at once (a full entry is about 1 MB of JSON).
MAX_ELEMENTS = 10_000
TRIANGLE_MODES = frozenset({4, 5, 6})
TRIANGLES = 4
#: The part of a use's pointer that the viewer shows: a mesh primitive or an image.
SHOWN_USE = re.compile(r"^/(?:meshes/\d+/primitives/\d+|images/\d+)")

Entry = dict[str, Any]


def model_overlays(asset: Asset) -> dict[str, Any]:
    """The overlays of one model file, as stored beside its viewer GLB."""
    if asset.polygon_scene is not None:
        return {"maxElements": MAX_ELEMENTS, "entries": _polygon_entries(asset.polygon_scene)}
    if asset.gltf is not None:
        return {
            "maxElements": MAX_ELEMENTS,
            "entries": _gltf_entries(asset.gltf) + _joint_entries(asset.gltf),
            "uses": _shown_uses(asset.gltf.links) | _skinned_primitives(asset.gltf.links),
        }
    return {"maxElements": MAX_ELEMENTS, "entries": []}


def _shown_uses(links: DocumentLinks) -> dict[str, list[str]]:
    """The mesh primitives and images each accessor and buffer view feeds, by its pointer."""
    shown: dict[str, list[str]] = {}
    for use in uses(links):
        found = SHOWN_USE.match(use.pointer)
        if found:
            pointers = shown.setdefault(f"/{use.collection}/{use.index}", [])
            if found[0] not in pointers:
                pointers.append(found[0])
    return shown


def _skinned_primitives(links: DocumentLinks) -> dict[str, list[str]]:
    """The mesh primitives drawn with each skin, by the skin's pointer."""
    shown: dict[str, list[str]] = {}
    for node in links.items("nodes"):
        skin, mesh = index_of(node, "skin"), index_of(node, "mesh")
        if skin is not None and mesh is not None:
            pointers = shown.setdefault(child("/skins", skin), [])
            pointers += [
                p.pointer for p in links.mesh_primitives(mesh) if p.pointer not in pointers
            ]
    return shown


def _joint_entries(document: GltfDocument) -> list[Entry]:
    """The joints at fault of each skin (:func:`~.skin_binding.binding_faults`) where
    the default pose places them, in the scene's space; joints outside every scene have no
    place and are left out."""
    entries = []
    placed = document.world_matrices
    for index, skin in enumerate(document.links.items("skins")):
        faults = None if skin is None else binding_faults(document, index, skin)
        if faults is None:
            continue
        for code, pointer, rows in (
            ("SKIN_IBM_NOT_INVERTIBLE", faults.pointer, faults.singular),
            ("SKIN_IBM_BIND_POSE_MISMATCH", faults.pointer, faults.off_pose),
            ("SKIN_JOINT_UNUSED", child(child("/skins", index), "joints"), faults.unused),
        ):
            nodes = [] if rows is None else [faults.joints[row] for row in rows]
            points = [placed[node][:3, 3] for node in nodes if node in placed]
            if points:
                entry = _entry(
                    code, {"pointer": pointer}, len(nodes), "joints", points=np.array(points)
                )
                entries.append(entry | {"space": "scene"})
    return entries


def _gltf_entries(document: GltfDocument) -> list[Entry]:
    links = document.links
    entries: list[Entry] = []
    limits = joint_limits(links)
    for primitive in links.primitives:
        position = primitive.attributes.get("POSITION")
        if primitive.mode not in TRIANGLE_MODES or position is None:
            continue
        mesh = document.mesh(primitive)
        positions = links.reader.normalized(position)
        if positions is None or mesh.vertices is None:
            continue
        entries += _non_unit(links, primitive, positions)
        if limits.get(primitive.mesh, (0, 0))[0] >= 1:
            entries += _influence_entries(document, primitive, positions, limits[primitive.mesh][0])
        triangles = mesh.triangles
        if triangles is not None and len(triangles):
            entries += _index_faults(primitive, positions, triangles)
            entries += _triangle_faults(
                mesh.vertices, positions, triangles, {"pointer": primitive.pointer}
            )
    return entries


def _non_unit(links: DocumentLinks, primitive: Primitive, positions: np.ndarray) -> list[Entry]:
    entries = []
    for semantic in ("NORMAL", "TANGENT"):
        accessor = primitive.attributes.get(semantic)
        values = None if accessor is None else links.reader.normalized(accessor)
        if values is None or values.shape[1] < 3 or len(values) != len(positions):
            continue
        rows = non_unit_rows(values[:, :3], UNIT_LENGTH_THRESHOLD_VEC3)
        if rows.size:
            pointer = child(child(primitive.pointer, "attributes"), semantic)
            entries.append(
                _entry(
                    "ACCESSOR_VECTOR3_NON_UNIT",
                    {"pointer": pointer},
                    rows.size,
                    "vertices",
                    points=positions[rows[:MAX_ELEMENTS]],
                )
            )
    return entries


def _influence_entries(
    document: GltfDocument, primitive: Primitive, positions: np.ndarray, joint_count: int
) -> list[Entry]:
    """The vertices whose influences break a rule of :func:`~.skins.influence_faults`, at each
    set's attribute as the skin check reports them."""
    influences = document.influences(primitive)
    if influences is None or len(influences.weights) != len(positions):
        return []
    faults = influence_faults(influences, joint_count)
    unnormalized = np.zeros(len(positions), dtype=bool)
    unnormalized[faults.unnormalized] = True
    at = child(primitive.pointer, "attributes")
    entries = []
    for number in range(influences.sets):
        columns = [c for c, s in enumerate(influences.set_of_column) if s == number]
        for code, semantic, rows in (
            ("ACCESSOR_JOINTS_INDEX_OOB", "JOINTS", faults.outside[:, columns].any(axis=1)),
            ("ACCESSOR_JOINTS_INDEX_DUPLICATE", "JOINTS", faults.repeated[:, columns].any(axis=1)),
            ("ACCESSOR_WEIGHTS_NEGATIVE", "WEIGHTS", faults.negative[:, columns].any(axis=1)),
            (
                "ACCESSOR_JOINTS_USED_ZERO_WEIGHT",
                "JOINTS",
                faults.zero_weight[:, columns].any(axis=1),
            ),
            ("ACCESSOR_WEIGHTS_NON_NORMALIZED", "WEIGHTS", unnormalized),
        ):
            hits = np.flatnonzero(rows)
            if hits.size:
                where = {"pointer": child(at, f"{semantic}_{number}")}
                entries.append(
                    _entry(
                        code, where, hits.size, "vertices", points=positions[hits[:MAX_ELEMENTS]]
                    )
                )
    return entries


def _index_faults(
    primitive: Primitive, positions: np.ndarray, triangles: np.ndarray
) -> list[Entry]:
    if primitive.indices is None:
        return []
    where = {"pointer": child(primitive.pointer, "indices")}
    entries = []
    outside = np.flatnonzero((triangles >= len(positions)).any(axis=1))
    if outside.size:
        corners = triangles[outside[:MAX_ELEMENTS]].ravel()
        entries.append(
            _entry(
                "ACCESSOR_INDEX_OOB",
                where,
                outside.size,
                "corners",
                points=positions[corners[corners < len(positions)]],
            )
        )
    if primitive.mode == TRIANGLES:
        a, b, c = triangles.T
        repeated = np.flatnonzero((a == b) | (b == c) | (c == a))
        inside = repeated[(triangles[repeated] < len(positions)).all(axis=1)]
        if repeated.size:
            entries.append(
                _entry(
                    "ACCESSOR_INDEX_TRIANGLE_DEGENERATE",
                    where,
                    repeated.size,
                    "triangle centres",
                    points=_centres(positions, triangles[inside[:MAX_ELEMENTS]]),
                )
            )
    return entries


def _triangle_faults(
    vertices: Vertices,
    positions: np.ndarray,
    triangles: np.ndarray,
    where: dict[str, str],
    *,
    repeated_are_flat: bool = False,
) -> list[Entry]:
    """The zero-area and duplicate triangles of ``triangles``; ``vertices`` are ``positions``
    hashed."""
    flat, duplicates = faulty_triangles(
        vertices, triangles, MAX_ELEMENTS, repeated_are_flat=repeated_are_flat
    )
    entries = []
    if flat.size:
        entries.append(
            _entry(
                "MESH_ZERO_AREA_TRIANGLES",
                where,
                flat.size,
                "triangle centres",
                points=_centres(positions, triangles[flat]),
            )
        )
    if duplicates.size:
        entries.append(
            _entry(
                "MESH_DUPLICATE_TRIANGLES",
                where,
                duplicates.size,
                "triangles",
                triangles=positions[triangles[duplicates]],
            )
        )
    return entries


def _polygon_entries(scene: PolygonScene) -> list[Entry]:
    """Per FBX or OBJ mesh instance, its zero-area and duplicate triangles in the scene's
    space; per skinned FBX mesh, its skin's faults."""
    entries: list[Entry] = []
    convert = scene.to_metres_y_up()
    for mesh in scene.meshes:
        if mesh.geometry is None or not mesh.instances:
            continue
        triangles = mesh.geometry.triangles()
        placed = [
            transform_points(convert @ instance.geometry_to_world, mesh.geometry.positions)
            for instance in mesh.instances
        ]
        for positions in placed if len(triangles) else []:
            entries += _triangle_faults(
                Vertices.of(positions),
                positions,
                triangles,
                {"name": mesh.name},
                repeated_are_flat=True,  # as the FBX and OBJ checks count
            )
        if isinstance(mesh, FbxMesh) and mesh.skin is not None:
            entries += _fbx_skin_entries(mesh.name, mesh.skin, placed, convert)
    return entries


def _fbx_skin_entries(
    name: str, skin: FbxSkin, placed: list[np.ndarray], convert: np.ndarray
) -> list[Entry]:
    """The faults of one FBX mesh's skin (:func:`~.fbx.skin_faults.skin_faults`):
    the control points at fault, at each instance's positions ``placed``, and the bones at
    fault where the scene places them. Weights on control points the mesh lacks have nothing
    to mark (the viewer shows the mesh)."""
    faults = skin_faults(skin)
    where = {"name": name}
    in_range = skin.in_range
    unbound = in_range & (skin.weights != 0) & faults.without_bone[skin.clusters]
    entries = []
    for code, points in (
        ("FBX_SKIN_WEIGHTS_NEGATIVE", skin.vertices[faults.negative[in_range[faults.negative]]]),
        ("FBX_SKIN_WEIGHTS_NOT_NORMALIZED", faults.unnormalized),
        ("FBX_SKIN_CLUSTER_WITHOUT_BONE", skin.vertices[unbound]),
    ):
        points = np.unique(points)
        if points.size:
            entries += [
                _entry(
                    code, where, points.size, "vertices", points=positions[points[:MAX_ELEMENTS]]
                )
                for positions in placed
            ]
    bones = transform_points(convert, skin.bone_world[:, :3, 3])
    for code, clusters in (
        ("FBX_SKIN_BIND_MATRIX_NOT_INVERTIBLE", faults.singular),
        ("FBX_SKIN_BIND_POSE_MISMATCH", faults.off_pose),
        ("FBX_SKIN_BONE_UNUSED", faults.unused),
    ):
        shown = clusters & np.isfinite(bones).all(axis=1)  # a cluster without bone has no place
        if shown.any():
            entries.append(
                _entry(code, where, int(np.count_nonzero(clusters)), "bones", points=bones[shown])
            )
    return entries


def _entry(
    code: str,
    where: dict[str, str],
    count: int,
    marks: str,
    *,
    points: np.ndarray | None = None,
    triangles: np.ndarray | None = None,
) -> Entry:
    """An entry; ``count`` is how many elements the finding has (its list may stop at a cap),
    ``marks`` what each listed element is."""
    entry: Entry = {"code": code, **where, "count": int(count), "marks": marks}
    if points is not None:
        entry["points"] = _flat(points)
    if triangles is not None:
        entry["triangles"] = _flat(triangles)
    return entry


def _centres(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    return positions[triangles].mean(axis=1) if len(triangles) else np.zeros((0, 3))


def _flat(values: np.ndarray) -> list[float]:
    """Coordinates as a flat list of floats rounded to float32's precision (short JSON)."""
    finite = np.nan_to_num(np.asarray(values, np.float32).reshape(-1), posinf=0.0, neginf=0.0)
    return [float(f"{value:.7g}") for value in finite.tolist()]
