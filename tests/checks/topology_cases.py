"""Crafted meshes for the topology and UV checks: the golden cases of ``tests/assets/topology``.

Every glTF case starts from a closed unit cube written the way exporters write one: 24 vertices
(each face has its own four, split at the hard edges and UV seams), normals, UVs and indices.
``python -m pytest tests/checks/test_topology.py --update-golden`` writes each case to
``tests/assets/topology/<name>.glb`` with its report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from assetcheck.testing.gltf import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GltfBuilder, png_bytes

#: The cube's faces: outward normal, and two axes spanning the face counter-clockwise seen from
#: outside (so that their cross product is the normal).
FACES = [
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
    ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
]
QUAD = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)


@dataclass
class Mesh:
    """A triangle mesh being crafted: per vertex position, normal, UV and lightmap UV."""

    positions: np.ndarray
    normals: np.ndarray
    uvs: np.ndarray
    triangles: np.ndarray
    lightmap: np.ndarray | None = None
    textured: bool = False

    def joined(self, other: Mesh) -> Mesh:
        lightmaps = (
            None
            if self.lightmap is None or other.lightmap is None
            else np.vstack([self.lightmap, other.lightmap])
        )
        return Mesh(
            np.vstack([self.positions, other.positions]),
            np.vstack([self.normals, other.normals]),
            np.vstack([self.uvs, other.uvs]),
            np.vstack([self.triangles, other.triangles + len(self.positions)]),
            lightmaps,
            self.textured or other.textured,
        )


def cube() -> Mesh:
    """A closed unit cube centred on the origin, faces wound counter-clockwise from outside,
    its UVs one unit square per face and its lightmap UVs a 3 x 2 atlas of the faces."""
    positions, normals, uvs, lightmap, triangles = [], [], [], [], []
    for number, (normal, u_axis, v_axis) in enumerate(FACES):
        normal, u_axis, v_axis = (np.array(a, np.float32) for a in (normal, u_axis, v_axis))
        first = len(positions)
        for u, v in QUAD:
            positions.append(0.5 * normal + (u - 0.5) * u_axis + (v - 0.5) * v_axis)
            normals.append(normal)
        uvs.extend(QUAD)
        cell = np.array([number % 3, number // 3], np.float32)
        lightmap.extend((cell + 0.1 + 0.8 * QUAD) / np.array([3, 2], np.float32))
        triangles += [[first, first + 1, first + 2], [first, first + 2, first + 3]]
    return Mesh(
        np.array(positions, np.float32),
        np.array(normals, np.float32),
        np.array(uvs, np.float32),
        np.array(triangles, np.uint16),
        np.array(lightmap, np.float32),
    )


def flipped_face(mesh: Mesh) -> Mesh:
    """One face's two triangles wound the other way (its normals unchanged)."""
    triangles = mesh.triangles.copy()
    triangles[:2] = triangles[:2, ::-1]
    return Mesh(mesh.positions, mesh.normals, mesh.uvs, triangles, mesh.lightmap)


def with_fin(mesh: Mesh) -> Mesh:
    """A triangle sticking out of the edge the +X face shares with the +Y face, so that edge
    belongs to three triangles."""
    edge = mesh.positions[[1, 2]]  # the +X face's corners on its edge at y = 0.5
    tip = edge.mean(axis=0) + np.float32([0.5, 0.5, 0.0])
    fin = Mesh(
        np.vstack([edge, tip[None]]),
        np.tile(np.float32([0, 0, 1]), (3, 1)),
        np.zeros((3, 2), np.float32),
        np.array([[0, 1, 2]], np.uint16),
        np.full((3, 2), 0.95, np.float32),
    )
    return mesh.joined(fin)


def open_box(mesh: Mesh) -> Mesh:
    """The cube without its +Y face (triangles 4 and 5)."""
    keep = np.ones(len(mesh.triangles), bool)
    keep[4:6] = False
    return Mesh(mesh.positions, mesh.normals, mesh.uvs, mesh.triangles[keep], mesh.lightmap)


def inverted_normals(mesh: Mesh) -> Mesh:
    return Mesh(mesh.positions, -mesh.normals, mesh.uvs, mesh.triangles, mesh.lightmap)


def overlapping_lightmap(mesh: Mesh) -> Mesh:
    """Every face's lightmap UVs on the same square, as texture UVs often are."""
    return Mesh(
        mesh.positions, mesh.normals, mesh.uvs, mesh.triangles, np.tile(QUAD * 0.8 + 0.1, (6, 1))
    )


def lightmap_outside(mesh: Mesh) -> Mesh:
    lightmap = mesh.lightmap.copy()
    lightmap[:4] += 1.5  # the first face's corners, past the unit square
    return Mesh(mesh.positions, mesh.normals, mesh.uvs, mesh.triangles, lightmap)


def textured(mesh: Mesh) -> Mesh:
    return Mesh(mesh.positions, mesh.normals, mesh.uvs, mesh.triangles, mesh.lightmap, True)


def collapsed_uvs(mesh: Mesh) -> Mesh:
    """A textured cube whose first face's UVs are squashed onto one line."""
    uvs = mesh.uvs.copy()
    uvs[:4, 1] = 0.5
    return Mesh(mesh.positions, mesh.normals, uvs, mesh.triangles, mesh.lightmap, True)


def uneven_texel_density(mesh: Mesh) -> Mesh:
    """A textured cube whose first two faces get 1/40 of the UV space of the others."""
    uvs = mesh.uvs.copy()
    uvs[:8] *= 0.025
    return Mesh(mesh.positions, mesh.normals, uvs, mesh.triangles, mesh.lightmap, True)


def two_cubes(mesh: Mesh) -> Mesh:
    """Two cubes apart, their lightmaps side by side."""
    half = np.float32([0.5, 1.0])
    left = Mesh(mesh.positions, mesh.normals, mesh.uvs, mesh.triangles, mesh.lightmap * half)
    right = Mesh(
        mesh.positions + np.float32([3, 0, 0]),
        mesh.normals,
        mesh.uvs,
        mesh.triangles,
        mesh.lightmap * half + np.float32([0.5, 0.0]),
    )
    return left.joined(right)


def glb(mesh: Mesh) -> bytes:
    """The mesh as a GLB: one node, one primitive, lightmap UVs as ``TEXCOORD_1``."""
    builder = GltfBuilder()
    attributes = {
        "POSITION": builder.add_accessor(mesh.positions, "VEC3", minmax=True, target=ARRAY_BUFFER),
        "NORMAL": builder.add_accessor(mesh.normals, "VEC3", target=ARRAY_BUFFER),
        "TEXCOORD_0": builder.add_accessor(mesh.uvs, "VEC2", target=ARRAY_BUFFER),
    }
    if mesh.lightmap is not None:
        attributes["TEXCOORD_1"] = builder.add_accessor(mesh.lightmap, "VEC2", target=ARRAY_BUFFER)
    primitive = {
        "attributes": attributes,
        "indices": builder.add_accessor(
            mesh.triangles.ravel(), "SCALAR", target=ELEMENT_ARRAY_BUFFER
        ),
    }
    if mesh.textured:
        texture = builder.add_texture(builder.add_image(png_bytes(64, 64)))
        primitive["material"] = builder.add_material("painted", base_color_texture=texture)
    builder.document.setdefault("meshes", []).append({"name": "box", "primitives": [primitive]})
    builder.add_node(0, name="box")
    return builder.glb()


@dataclass(frozen=True)
class Case:
    """A crafted mesh, validated for ``engine`` with the config overrides ``overrides``."""

    make: Callable[[], Mesh]
    engine: str = "generic"
    overrides: dict = field(default_factory=dict)


CLOSED = {"closed_meshes": True}

CASES = {
    "closed_cube": Case(cube, overrides=CLOSED),
    "closed_cube_unreal": Case(cube, engine="unreal"),
    "mesh_inconsistent_winding": Case(lambda: flipped_face(cube())),
    "mesh_non_manifold_edges": Case(lambda: with_fin(cube())),
    "mesh_open_boundary": Case(lambda: open_box(cube()), overrides=CLOSED),
    "open_box_generic": Case(lambda: open_box(cube())),
    "mesh_inside_out": Case(lambda: inverted_normals(cube())),
    "mesh_separate_pieces": Case(lambda: two_cubes(cube())),
    "mesh_lightmap_uv_overlap": Case(lambda: overlapping_lightmap(cube()), engine="unreal"),
    "lightmap_overlap_web": Case(lambda: overlapping_lightmap(cube()), engine="web"),
    "mesh_lightmap_uv_outside": Case(lambda: lightmap_outside(cube()), engine="unity"),
    "mesh_uv_zero_area": Case(lambda: collapsed_uvs(cube())),
    "mesh_texel_density_spread": Case(lambda: uneven_texel_density(cube())),
    "textured_cube": Case(lambda: textured(cube())),
}
