"""The GLB the job page's 3D viewer loads, for model files the browser cannot load as uploaded.

The page's content security policy lets the browser fetch nothing but this service's own URLs,
and run no decoder of its own (no ``wasm-unsafe-eval``). So the browser is given one
self-contained GLB per model file, with no URI in it and no compression extension:

- a GLB upload that is already so (every buffer and image inside it, no compression) is shown
  as uploaded: :func:`shown_as_uploaded`;
- any other glTF or GLB (external or ``data:`` resources, Draco or meshopt compression, ZIP
  members) is rewritten by :func:`gltf_viewer_glb` from what the readers resolved: vertex
  data through the document model the checks read (``asset.gltf``, whose accessor data
  layer decodes compressed primitives), images from the upload only; absolute and remote
  URIs are dropped, never passed on;
- an FBX or OBJ file becomes a GLB of the polygon geometry its reader made:
  :func:`polygon_viewer_glb`; an FBX file's with its polygons split by material and the
  images its materials sample (:mod:`assetcheck.previews.fbx_materials`).

Rewritten primitives are plain indexed triangle lists with POSITION, NORMAL, TEXCOORD_0 and
COLOR_0; each carries ``extras.primitive``, its number in the uploaded mesh, and the meshes,
nodes, materials and images keep their indices, so the report's JSON pointers name the same
things in the copy. Skins, morph targets, animations, cameras and lights are left out: the
viewer shows the rest pose.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from assetcheck.formats.fbx.model import FbxGeometry, PolygonScene
from assetcheck.formats.gltf.accessor_data import AccessorReader
from assetcheck.formats.gltf.links import index_of
from assetcheck.formats.gltf.model import GltfDocument
from assetcheck.formats.gltf.node_transforms import world_matrices
from assetcheck.formats.gltf.uris import UriKind, classify_uri, decode_data_uri
from assetcheck.formats.images import image_info
from assetcheck.formats.source import SourceFile
from assetcheck.previews.budget import ByteBudget

if TYPE_CHECKING:  # it imports this module's BROWSER_IMAGES
    from assetcheck.previews.fbx_materials import ViewerMaterials

#: Extensions whose data the browser would have to decode or fetch itself.
COMPRESSION_EXTENSIONS = frozenset(
    {"KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_meshopt_compression"}
)
#: Material extensions three.js draws and that need nothing beyond the GLB's own data.
KEPT_MATERIAL_EXTENSIONS = frozenset(
    {
        "KHR_materials_unlit",
        "KHR_materials_emissive_strength",
        "KHR_materials_ior",
        "KHR_materials_specular",
        "KHR_materials_clearcoat",
        "KHR_materials_sheen",
        "KHR_materials_transmission",
        "KHR_materials_volume",
        "KHR_materials_iridescence",
        "KHR_materials_anisotropy",
        "KHR_texture_transform",
    }
)
#: Images the browser decodes itself.
BROWSER_IMAGES = frozenset({"image/png", "image/jpeg"})
#: Vertex attributes kept, with the width they are written with (floats).
ATTRIBUTES = {"POSITION": 3, "NORMAL": 3, "TEXCOORD_0": 2, "COLOR_0": 4}
TRIANGLES, FLOAT, UNSIGNED_INT = 4, 5126, 5125
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
ACCESSOR_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4"}
GENERATOR = "AssetCheck viewer copy"
#: What the report calls this file when it is not kept.
VIEWER_MODEL = "The 3D viewer's model"
#: The material FBX and OBJ meshes are drawn in (their materials' colours are not read): matte
#: light grey, as the server-drawn picture.
CLAY = {
    "name": "clay",
    "pbrMetallicRoughness": {
        "baseColorFactor": [0.75, 0.75, 0.75, 1.0],
        "metallicFactor": 0.0,
        "roughnessFactor": 0.8,
    },
}


def shown_as_uploaded(gltf: GltfDocument, source: SourceFile) -> bool:
    """Whether the browser can load the model file exactly as uploaded: a GLB file of its own
    on disk (not a ZIP member) with no URI in its buffers or images and no compression."""
    document = gltf.json
    if (
        source.kind != "glb"
        or source.path is None
        or _used_extensions(document)
        & (COMPRESSION_EXTENSIONS | {"EXT_texture_webp", "KHR_texture_basisu"})
    ):
        return False
    resources = [*_items(document, "buffers"), *_items(document, "images")]
    return all(
        "uri" not in item for item in resources if isinstance(item, dict)
    ) and _plain_hierarchy(gltf)


def gltf_viewer_glb(
    gltf: GltfDocument, source: SourceFile, budget: ByteBudget | None = None
) -> bytes:
    """A self-contained GLB of the glTF document ``gltf`` read from ``source`` (see the
    module); :class:`OverBudget` as soon as its binary data would not fit ``budget``."""
    document, reader = gltf.json, gltf.reader
    writer = _GlbWriter(budget)
    meshes = [
        _mesh(gltf, writer, number, mesh) for number, mesh in enumerate(_items(document, "meshes"))
    ]
    images = [
        _image(document, reader, source, image, writer) for image in _items(document, "images")
    ]
    textures = [_texture(texture, images) for texture in _items(document, "textures")]
    nodes = _placed_nodes(gltf, meshes)
    out: dict[str, Any] = {
        "asset": {"version": "2.0", "generator": GENERATOR},
        "scene": 0,
        "scenes": [{"nodes": [index for index, node in enumerate(nodes) if "mesh" in node]}],
        "nodes": nodes,
        "meshes": [mesh or {"primitives": []} for mesh in meshes],
        "materials": [_material(material, textures) for material in _items(document, "materials")],
        "textures": [texture or {} for texture in textures],
        "images": [image or {} for image in images],
        "samplers": [
            sampler if isinstance(sampler, dict) else {} for sampler in _items(document, "samplers")
        ],
    }
    used = sorted(
        {name for material in out["materials"] for name in material.get("extensions", {})}
    )
    if used:
        out["extensionsUsed"] = used
    return writer.glb({key: value for key, value in out.items() if value != []})


def polygon_viewer_glb(
    scene: PolygonScene,
    budget: ByteBudget | None = None,
    materials: ViewerMaterials | None = None,
) -> bytes:
    """A GLB of an FBX or OBJ scene's meshes, one node per drawn instance, already placed in
    metres with +Y up (:meth:`FbxScene.world_triangles`), with its first UV set (for the UV
    checker), in :data:`CLAY`; ``extras.name`` is the mesh's name, as the report's issues name
    it. With an FBX file's ``materials``, each instance has a primitive per material its
    polygons use, in a clay material of that name, and the GLB carries their images (as
    textures no material samples: the viewer shows them when asked). :class:`OverBudget` as
    soon as its binary data would not fit ``budget``."""
    writer = _GlbWriter(budget)
    nodes: list[dict[str, Any]] = []
    meshes: list[dict[str, Any]] = []
    convert = scene.to_metres_y_up()
    for mesh in scene.meshes:
        if mesh.geometry is None or not mesh.instances:
            continue
        uvs, corners, triangles = _polygon_vertices(mesh.geometry)
        chosen = materials.triangle_materials(mesh) if materials is not None else None
        parts = _by_material(triangles, chosen)
        for instance in mesh.instances:
            matrix = convert @ instance.geometry_to_world
            positions = mesh.geometry.positions[corners] @ matrix[:3, :3].T + matrix[:3, 3]
            arrays = {"POSITION": positions, "TEXCOORD_0": uvs}
            written = _primitive_arrays(writer, arrays, *(part for _, part in parts))
            primitives = [
                {**primitive, "material": material, "extras": {"name": mesh.name}}
                for (material, _), primitive in zip(parts, written, strict=True)
                if primitive is not None
            ]
            if primitives:
                nodes.append({"name": instance.node, "mesh": len(meshes)})
                meshes.append({"name": mesh.name, "primitives": primitives})
    names = materials.names if materials is not None else []
    images = [
        {"bufferView": writer.view(data), "mimeType": mime_type}
        for data, mime_type in (materials.images if materials is not None else [])
    ]
    return writer.glb(
        {
            "asset": {"version": "2.0", "generator": GENERATOR},
            "scene": 0,
            "scenes": [{"nodes": list(range(len(nodes)))}],
            **(
                {
                    "nodes": nodes,
                    "meshes": meshes,
                    "materials": [CLAY, *({**CLAY, "name": name} for name in names)],
                }
                if nodes
                else {}
            ),
            **(
                {"images": images, "textures": [{"source": i} for i in range(len(images))]}
                if images
                else {}
            ),
        }
    )


def _by_material(
    triangles: np.ndarray, materials: np.ndarray | None
) -> list[tuple[int, np.ndarray]]:
    """``triangles`` grouped by their GLB material (``materials``, one per triangle; all in
    material 0 when None), in the order of the materials."""
    if materials is None:
        return [(0, triangles)]
    return [(int(m), triangles[materials == m]) for m in np.unique(materials)]


def _polygon_vertices(geometry: FbxGeometry) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The viewer's vertices of an FBX or OBJ geometry: ``(uvs, control points, triangles)``.
    Without UVs there is one vertex per control point (``uvs`` None); with them, one per pair of
    control point and UV its corners use, its V turned to glTF's top-left origin."""
    if geometry.uvs is None or geometry.uvs.values.shape[1] < 2:
        return None, np.arange(len(geometry.positions)), geometry.triangles()
    pairs = np.stack([geometry.corners, geometry.uvs.corner_values], axis=1)
    vertices, vertex_of_corner = np.unique(pairs, axis=0, return_inverse=True)
    uvs = geometry.uvs.values[vertices[:, 1], :2].astype(np.float32)
    uvs[:, 1] = 1.0 - uvs[:, 1]
    return uvs, vertices[:, 0], vertex_of_corner.reshape(-1)[geometry.corner_triangles()]


class _GlbWriter:
    """Collects binary data into one buffer and assembles the GLB. Equal data is stored once:
    primitives that share an accessor in the upload (or images that share bytes) share one
    buffer view and one accessor in the copy, however many times they are written. With a
    ``budget``, data that would take the buffer past what is left of it raises
    :class:`OverBudget` before it is copied."""

    def __init__(self, budget: ByteBudget | None = None) -> None:
        self.budget = budget
        self.chunks: list[bytes] = []
        self.length = 0
        self.views: list[dict[str, Any]] = []
        self.accessors: list[dict[str, Any]] = []
        self._view_of: dict[tuple[bytes, int | None], int] = {}
        self._accessor_of: dict[tuple[int, int, int, str], int] = {}

    def view(self, data: bytes | memoryview, target: int | None = None) -> int:
        data = memoryview(data).cast("B")
        key = (hashlib.blake2b(data, digest_size=32).digest(), target)
        if key in self._view_of:
            return self._view_of[key]
        padding = -len(data) % 4
        if self.budget is not None:
            self.budget.check(self.length + len(data) + padding, VIEWER_MODEL)
        view = {"buffer": 0, "byteOffset": self.length, "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.chunks += [bytes(data), b"\0" * padding]
        self.length += len(data) + padding
        self.views.append(view)
        self._view_of[key] = len(self.views) - 1
        return len(self.views) - 1

    def accessor(self, values: np.ndarray, target: int) -> int:
        """An accessor of ``values`` (float32 ``(n, k)`` or uint32 ``(n,)``)."""
        floats = values.dtype == np.float32
        accessor: dict[str, Any] = {
            "bufferView": self.view(np.ascontiguousarray(values).data, target),
            "componentType": FLOAT if floats else UNSIGNED_INT,
            "count": len(values),
            "type": ACCESSOR_TYPES[values.shape[1] if values.ndim == 2 else 1],
        }
        key = (
            accessor["bufferView"],
            accessor["componentType"],
            accessor["count"],
            accessor["type"],
        )
        if key in self._accessor_of:
            return self._accessor_of[key]
        if floats and target == ARRAY_BUFFER and values.shape[1] == 3:
            accessor["min"] = values.min(axis=0).tolist()
            accessor["max"] = values.max(axis=0).tolist()
        self.accessors.append(accessor)
        self._accessor_of[key] = len(self.accessors) - 1
        return len(self.accessors) - 1

    def glb(self, document: dict[str, Any]) -> bytes:
        if self.views:
            document.update(
                buffers=[{"byteLength": self.length}],
                bufferViews=self.views,
                accessors=self.accessors,
            )
        text = json.dumps(document, separators=(",", ":"), allow_nan=False).encode()
        text += b" " * (-len(text) % 4)
        binary = b"".join(self.chunks)
        parts = [struct.pack("<I4s", len(text), b"JSON"), text]
        if binary:
            parts += [struct.pack("<I4s", len(binary), b"BIN\0"), binary]
        body = b"".join(parts)
        return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def _mesh(
    gltf: GltfDocument, writer: _GlbWriter, number: int, mesh: object
) -> dict[str, Any] | None:
    """The mesh with its readable triangle primitives rewritten; None when none is left."""
    primitives = []
    for primitive in gltf.links.mesh_primitives(number):
        triangles = gltf.mesh(primitive).triangles
        if triangles is None or "POSITION" not in primitive.attributes:
            continue
        arrays = {
            name: gltf.reader.normalized(primitive.attributes[name])
            for name in ATTRIBUTES
            if name in primitive.attributes
        }
        [written] = _primitive_arrays(writer, arrays, triangles)
        if written is None:
            continue
        if primitive.material is not None:
            written["material"] = primitive.material
        written["extras"] = {"primitive": primitive.number}
        primitives.append(written)
    if not primitives:
        return None
    name = mesh.get("name") if isinstance(mesh, dict) else None
    return {"primitives": primitives, **({"name": name} if isinstance(name, str) else {})}


def _primitive_arrays(
    writer: _GlbWriter, arrays: dict[str, np.ndarray | None], *parts: np.ndarray
) -> list[dict[str, Any] | None]:
    """Triangle-list primitives of the vertex ``arrays`` (POSITION first), one per set of
    triangles in ``parts``, sharing the vertex data (written once): each keeps the triangles
    that stay within the vertices, at finite positions. None for a part with none left, and
    for every part without usable positions."""
    positions = arrays.get("POSITION")
    if positions is None or positions.ndim != 2 or positions.shape[1] != 3 or not len(positions):
        return [None] * len(parts)
    count = len(positions)
    finite = np.isfinite(positions).all(axis=1)
    kept = []
    for triangles in parts:
        triangles = triangles[(triangles < count).all(axis=1)]
        kept.append(triangles if finite.all() else triangles[finite[triangles].all(axis=1)])
    if not any(len(triangles) for triangles in kept):
        return [None] * len(parts)
    attributes = {}
    for name, width in ATTRIBUTES.items():
        values = arrays.get(name)
        if values is None or values.ndim != 2 or len(values) != count or values.shape[1] > width:
            continue
        values = np.nan_to_num(values.astype(np.float32), copy=False)
        if values.shape[1] < width:  # RGB colours get an opaque alpha
            values = np.hstack([values, np.ones((count, width - values.shape[1]), np.float32)])
        attributes[name] = writer.accessor(values, ARRAY_BUFFER)
    return [
        {
            "attributes": attributes,
            "indices": writer.accessor(
                np.ascontiguousarray(triangles, dtype=np.uint32).ravel(), ELEMENT_ARRAY_BUFFER
            ),
            "mode": TRIANGLES,
        }
        if len(triangles)
        else None
        for triangles in kept
    ]


def _image(
    document: dict[str, Any],
    reader: AccessorReader,
    source: SourceFile,
    image: object,
    writer: _GlbWriter,
) -> dict[str, Any] | None:
    """The image embedded in the GLB, when its bytes come from the upload and the browser
    decodes them; None otherwise (its textures are then left out)."""
    if not isinstance(image, dict):
        return None
    data: bytes | memoryview | None = None
    uri = image.get("uri")
    if isinstance(uri, str):
        kind = classify_uri(uri, source.base)
        if kind is UriKind.DATA:
            try:
                data = decode_data_uri(uri).data
            except ValueError:
                data = None
        elif kind is UriKind.RELATIVE:
            data = source.read_resource(uri.replace("\\", "/"))
    elif isinstance(image.get("bufferView"), int):
        view = reader.view_slice(image["bufferView"])
        data = None if view is None else view.data
    if data is None:
        return None
    info = image_info(data)
    if info is None or info.mime_type not in BROWSER_IMAGES:
        return None
    return {
        "bufferView": writer.view(data),
        "mimeType": info.mime_type,
        **({"name": image["name"]} if isinstance(image.get("name"), str) else {}),
    }


def _texture(texture: object, images: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    if not isinstance(texture, dict):
        return None
    source = texture.get("source")
    if not isinstance(source, int) or not 0 <= source < len(images) or images[source] is None:
        return None
    sampler = texture.get("sampler")
    return {"source": source, **({"sampler": sampler} if isinstance(sampler, int) else {})}


def _material(material: object, textures: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The material with only the extensions three.js draws from the GLB alone, and without
    references to textures that were left out."""
    if not isinstance(material, dict):
        return {}
    kept = {key: value for key, value in material.items() if key != "extensions"}
    extensions = material.get("extensions")
    if isinstance(extensions, dict):
        kept_extensions = {
            name: value for name, value in extensions.items() if name in KEPT_MATERIAL_EXTENSIONS
        }
        if kept_extensions:
            kept["extensions"] = kept_extensions
    return _without_missing_textures(kept, textures)


def _without_missing_textures(value: Any, textures: list[dict[str, Any] | None]) -> Any:
    """``value`` without the texture references (``{"index": n}`` under a ``...Texture`` key)
    whose texture was left out."""
    if isinstance(value, list):
        return [_without_missing_textures(item, textures) for item in value]
    if not isinstance(value, dict):
        return value
    kept = {}
    for key, item in value.items():
        if key.endswith("Texture") and isinstance(item, dict):
            index = item.get("index")
            if (
                not isinstance(index, int)
                or not 0 <= index < len(textures)
                or (textures[index] is None)
            ):
                continue
        kept[key] = _without_missing_textures(item, textures)
    return kept


def _placed_nodes(gltf: GltfDocument, meshes: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The document's nodes, index for index, flattened: each node that draws a kept mesh
    gets its world matrix and no children, so a hostile hierarchy (loops, shared children)
    reaches the browser as a plain list. With no node drawing a mesh, every kept mesh gets a
    node of its own after the document's."""
    links = gltf.links
    nodes: list[dict[str, Any]] = []
    placed = world_matrices(links)
    for index, node in enumerate(links.items("nodes")):
        name = node.get("name") if node is not None else None
        kept: dict[str, Any] = {"name": name} if isinstance(name, str) else {}
        mesh = index_of(node, "mesh") if node is not None else None
        matrix = placed.get(index)
        if (
            mesh is not None
            and mesh < len(meshes)
            and meshes[mesh] is not None
            and matrix is not None
            and np.isfinite(matrix).all()
        ):
            kept.update(mesh=mesh, matrix=np.asarray(matrix).T.ravel().tolist())
        nodes.append(kept)
    if not any("mesh" in node for node in nodes):
        nodes += [{"mesh": number} for number, mesh in enumerate(meshes) if mesh is not None]
    return nodes


def _plain_hierarchy(gltf: GltfDocument) -> bool:
    """Whether the node hierarchy is a plain forest: every child index valid and listed once,
    no loops, every scene's node valid."""
    document, links = gltf.json, gltf.links
    nodes = _items(document, "nodes")
    listed = [
        child for node in nodes if isinstance(node, dict) for child in (node.get("children") or [])
    ]
    roots = [
        root
        for scene in _items(document, "scenes")
        if isinstance(scene, dict)
        for root in (scene.get("nodes") or [])
    ]
    valid = all(isinstance(i, int) and 0 <= i < len(nodes) for i in [*listed, *roots])
    return valid and len(listed) == len(set(listed)) and not links.tree.loops


def _items(document: dict[str, Any], key: str) -> list[Any]:
    items = document.get(key)
    return items if isinstance(items, list) else []


def _used_extensions(document: dict[str, Any]) -> set[str]:
    used = document.get("extensionsUsed")
    return {name for name in used if isinstance(name, str)} if isinstance(used, list) else set()
