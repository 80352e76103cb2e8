"""Writers of real glTF 2.0 and GLB bytes with known counts, for tests.

Two levels, like the FBX builder: :class:`GltfBuilder` makes valid assets (meshes with indexed
or plain primitives in any mode, materials of each shading model, animations, images) and
writes them as GLB, as a ``.gltf`` with an external ``.bin``, or as a ``.gltf`` with ``data:``
URIs; :func:`glb_container` and :class:`Chunk` assemble GLB containers byte by byte, so tests
can build broken ones (wrong magic, lying lengths, chunks out of order).

Every builder method returns the index of what it added; ``builder.document`` is the JSON as a
dict, free to be broken further before writing.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

POINTS, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = range(7)

FLOAT, UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT = 5126, 5121, 5123, 5125
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963

JSON_CHUNK_TYPE = b"JSON"
BIN_CHUNK_TYPE = b"BIN\0"

SHADING_MODELS = ("metallicRoughness", "specularGlossiness", "unlit")
_SHADING_EXTENSIONS = {
    "specularGlossiness": "KHR_materials_pbrSpecularGlossiness",
    "unlit": "KHR_materials_unlit",
}


@dataclass(frozen=True)
class Primitive:
    """A primitive to build: ``vertex_count`` positions, ``index_count`` indices (None: none)."""

    vertex_count: int
    index_count: int | None = None
    mode: int = TRIANGLES
    material: int | None = None
    normals: bool = False
    texcoords: bool = False


@dataclass(frozen=True)
class Chunk:
    """One GLB chunk. ``declared_length`` replaces the real length in its header."""

    type: bytes
    data: bytes
    declared_length: int | None = None

    def encoded(self) -> bytes:
        length = len(self.data) if self.declared_length is None else self.declared_length
        return struct.pack("<I4s", length, self.type) + self.data


def glb_container(
    chunks: list[Chunk],
    *,
    magic: bytes = b"glTF",
    version: int = 2,
    declared_length: int | None = None,
) -> bytes:
    """A GLB header and ``chunks`` as given: nothing is padded or fixed."""
    body = b"".join(chunk.encoded() for chunk in chunks)
    length = 12 + len(body) if declared_length is None else declared_length
    return struct.pack("<4sII", magic, version, length) + body


def json_chunk_data(document: dict[str, Any]) -> bytes:
    """``document`` as a GLB JSON chunk's data: UTF-8, padded with spaces to 4 bytes."""
    data = json.dumps(document, separators=(",", ":")).encode()
    return data + b" " * (-len(data) % 4)


def padded_glb(size: int) -> bytes:
    """A valid GLB of about ``size`` bytes: one buffer of zeros, for tests and benchmarks of
    upload sizes (the buffer is joined once, so a large one is not copied twice)."""
    binary = b"\0" * (size - size % 4)
    document = json_chunk_data(
        {"asset": {"version": "2.0"}, "buffers": [{"byteLength": len(binary)}]}
    )
    chunks = (
        struct.pack("<I4s", len(document), b"JSON")
        + document
        + struct.pack("<I4s", len(binary), b"BIN\0")
    )
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks) + len(binary)) + chunks + binary


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A valid grey PNG of the given size: mid greys in a checker of two levels (not one
    colour, which the texture content check would report)."""

    def block(kind: bytes, payload: bytes) -> bytes:
        return (
            struct.pack(">I", len(payload))
            + kind
            + payload
            + struct.pack(">I", zlib.crc32(kind + payload))
        )

    pair = b"\x70\x90" * (width // 2 + 1)
    even, odd = pair[:width], pair[1 : width + 1]
    rows = b"".join(b"\0" + (odd if y % 2 else even) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + block(b"IHDR", header)
        + block(b"IDAT", zlib.compress(rows))
        + block(b"IEND", b"")
    )


def padded_matrix_bytes(matrices: np.ndarray) -> bytes:
    """``matrices`` of shape (count, columns, rows), column by column, as glTF stores them:
    each column starts on a 4-byte boundary and its padding bytes are 0xFF, so a reader that
    takes padding for values reads numbers the matrices do not hold. The padding after the
    very last column is left out, as the data alignment rules allow."""
    count, columns, rows = matrices.shape
    column = rows * matrices.dtype.itemsize
    padding = b"\xff" * (-column % 4)
    data = b"".join(
        matrix_column.tobytes() + padding
        for matrix_column in matrices.reshape(count * columns, rows)
    )
    return data[: len(data) - len(padding)]


def data_uri(data: bytes, media_type: str = "application/octet-stream") -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


class GltfBuilder:
    """Builds a glTF 2.0 asset whose binary data lives in one buffer, written at the end."""

    def __init__(self, generator: str = "AssetCheck test builder") -> None:
        self.document: dict[str, Any] = {"asset": {"version": "2.0", "generator": generator}}
        self.binary = bytearray()

    # -- building ---------------------------------------------------------------------------

    def add_mesh(self, primitives: list[Primitive], name: str | None = None) -> int:
        built = [self._primitive(primitive) for primitive in primitives]
        return self._append("meshes", _named({"primitives": built}, name))

    def add_node(self, mesh: int | None = None, name: str | None = None) -> int:
        """A node (instancing ``mesh`` when given), added to the default scene."""
        node = self._append("nodes", _named({} if mesh is None else {"mesh": mesh}, name))
        scenes = self.document.setdefault("scenes", [{"nodes": []}])
        scenes[0]["nodes"].append(node)
        self.document.setdefault("scene", 0)
        return node

    def add_material(
        self,
        name: str | None = None,
        shading: str = "metallicRoughness",
        base_color_texture: int | None = None,
    ) -> int:
        """A material of one of :data:`SHADING_MODELS`, optionally with a base colour texture."""
        if shading not in SHADING_MODELS:
            raise ValueError(f"unknown shading model {shading!r}")
        pbr: dict[str, Any] = {"baseColorFactor": [0.8, 0.8, 0.8, 1.0]}
        if base_color_texture is not None:
            pbr["baseColorTexture"] = {"index": base_color_texture}
        material: dict[str, Any] = {"pbrMetallicRoughness": pbr}
        extension = _SHADING_EXTENSIONS.get(shading)
        if extension == "KHR_materials_pbrSpecularGlossiness":
            material = {"extensions": {extension: {"diffuseFactor": [0.8, 0.8, 0.8, 1.0]}}}
        elif extension is not None:
            material["extensions"] = {extension: {}}
        if extension is not None:
            self._use_extension(extension)
        return self._append("materials", _named(material, name))

    def add_image(
        self,
        data: bytes | None = None,
        *,
        uri: str | None = None,
        mime_type: str = "image/png",
        name: str | None = None,
    ) -> int:
        """An image stored in the buffer (``data``) or referenced as it is (``uri``)."""
        if (data is None) == (uri is None):
            raise ValueError("give either data or uri")
        image = (
            {"bufferView": self.add_buffer_view(data), "mimeType": mime_type}
            if data is not None
            else {"uri": uri}
        )
        return self._append("images", _named(image, name))

    def add_texture(self, image: int) -> int:
        return self._append("textures", {"source": image})

    def add_animation(
        self,
        name: str | None = None,
        *,
        keyframes: int = 2,
        duration: float = 1.0,
        channels: int = 1,
        translations: np.ndarray | None = None,
    ) -> int:
        """An animation of ``channels`` translation channels sharing one time input and one
        output: ``translations``, ``(keyframes, 3)`` (default: all zero)."""
        times = np.linspace(0.0, duration, keyframes, dtype=np.float32)
        values = (
            np.zeros((keyframes, 3), dtype=np.float32)
            if translations is None
            else np.asarray(translations, dtype=np.float32)
        )
        time_input = self.add_accessor(times, "SCALAR", minmax=True)
        output = self.add_accessor(values, "VEC3")
        targets = [self.add_node() for _ in range(channels)]
        animation = {
            "samplers": [{"input": time_input, "output": output}],
            "channels": [
                {"sampler": 0, "target": {"node": node, "path": "translation"}} for node in targets
            ],
        }
        return self._append("animations", _named(animation, name))

    def add_node_chain(
        self, count: int, *, loop: bool = False, leaf_mesh: int | None = None
    ) -> list[int]:
        """``count`` new nodes, each the only child of the one before; the first is a root of
        the default scene. ``loop`` makes the first node the child of the last (a closed loop:
        every node has a parent); ``leaf_mesh`` is instanced by the last node."""
        nodes = self.document.setdefault("nodes", [])
        first = len(nodes)
        chain = list(range(first, first + count))
        nodes.extend({"children": [index + 1]} for index in chain[:-1])
        nodes.append({} if leaf_mesh is None else {"mesh": leaf_mesh})
        if loop:
            nodes[-1]["children"] = [first]
        self.document.setdefault("scenes", [{"nodes": []}])[0]["nodes"].append(first)
        self.document.setdefault("scene", 0)
        return chain

    def add_skinned_triangle(
        self,
        joints: list[int],
        weights: np.ndarray | None = None,
        joint_indices: np.ndarray | None = None,
    ) -> int:
        """A scene-root node with a triangle skinned to ``joints`` (identity inverse bind
        matrices); returns the node. ``weights`` and ``joint_indices`` are ``(3, 4 * sets)``
        values for ``WEIGHTS_n`` and ``JOINTS_n`` (uint16); integer weights are stored
        normalized. By default every vertex is wholly on the first joint."""
        positions = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
        if weights is None:
            weights = np.tile(np.array([1, 0, 0, 0], np.float32), (3, 1))
        if joint_indices is None:
            joint_indices = np.zeros(weights.shape, np.uint16)
        attributes = {
            "POSITION": self.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER)
        }
        for number in range(weights.shape[1] // 4):
            columns = slice(4 * number, 4 * number + 4)
            attributes[f"JOINTS_{number}"] = self.add_accessor(
                np.ascontiguousarray(joint_indices[:, columns]), "VEC4", target=ARRAY_BUFFER
            )
            attributes[f"WEIGHTS_{number}"] = self.add_accessor(
                np.ascontiguousarray(weights[:, columns]),
                "VEC4",
                target=ARRAY_BUFFER,
                normalized=weights.dtype.kind == "u",
            )
        mesh = self._append("meshes", {"primitives": [{"attributes": attributes}]})
        matrices = np.tile(np.identity(4, np.float32).reshape(1, 16), (len(joints), 1))
        skin = self._append(
            "skins", {"joints": joints, "inverseBindMatrices": self.add_accessor(matrices, "MAT4")}
        )
        node = self.add_node(mesh)
        self.document["nodes"][node]["skin"] = skin
        return node

    def add_buffer_view(self, data: bytes, target: int | None = None) -> int:
        """A view of ``data``, appended to the buffer on a 4-byte boundary."""
        self.binary.extend(b"\0" * (-len(self.binary) % 4))
        view: dict[str, Any] = {
            "buffer": 0,
            "byteOffset": len(self.binary),
            "byteLength": len(data),
        }
        if target is not None:
            view["target"] = target
        self.binary.extend(data)
        return self._append("bufferViews", view)

    def add_accessor(
        self,
        values: np.ndarray,
        accessor_type: str,
        *,
        minmax: bool = False,
        target: int | None = None,
        normalized: bool = False,
    ) -> int:
        """An accessor over ``values`` (float32, uint8, uint16 or uint32), in its own buffer
        view; ``normalized`` integers read as 0..1."""
        component_type = {
            np.float32: FLOAT,
            np.uint8: UNSIGNED_BYTE,
            np.uint16: UNSIGNED_SHORT,
            np.uint32: UNSIGNED_INT,
        }[values.dtype.type]
        accessor: dict[str, Any] = {
            "bufferView": self.add_buffer_view(values.tobytes(), target),
            "componentType": component_type,
            "count": len(values),
            "type": accessor_type,
        }
        if normalized:
            accessor["normalized"] = True
        if minmax:
            columns = values.reshape(len(values), -1)
            accessor["min"] = columns.min(axis=0).tolist()
            accessor["max"] = columns.max(axis=0).tolist()
        return self._append("accessors", accessor)

    # -- writing ----------------------------------------------------------------------------

    def glb(self) -> bytes:
        """The asset as a GLB: buffer 0 is the BIN chunk."""
        document = self._with_buffer(uri=None)
        chunks = [Chunk(JSON_CHUNK_TYPE, json_chunk_data(document))]
        if self.binary:
            padding = b"\0" * (-len(self.binary) % 4)
            chunks.append(Chunk(BIN_CHUNK_TYPE, bytes(self.binary) + padding))
        return glb_container(chunks)

    def embedded_gltf(self) -> bytes:
        """The asset as one ``.gltf`` whose buffer is a base64 ``data:`` URI."""
        return self.gltf_json(data_uri(bytes(self.binary)))

    def gltf_json(self, buffer_uri: str) -> bytes:
        """The JSON of a ``.gltf`` whose buffer is at ``buffer_uri``."""
        return json.dumps(self._with_buffer(uri=buffer_uri), indent=1).encode()

    def write_gltf(self, folder: Path, name: str = "model") -> Path:
        """``name.gltf`` and its external ``name.bin`` in ``folder``; returns the .gltf path."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.bin").write_bytes(bytes(self.binary))
        path = folder / f"{name}.gltf"
        path.write_bytes(self.gltf_json(f"{name}.bin"))
        return path

    def write_glb(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.glb())
        return path

    # -- internals --------------------------------------------------------------------------

    def _primitive(self, primitive: Primitive) -> dict[str, Any]:
        count = primitive.vertex_count
        positions = np.zeros((count, 3), dtype=np.float32)
        positions[:, 0] = np.arange(count) % 1024
        # Every other vertex half a unit up, so consecutive vertices never lie on one line:
        # built triangles have an area, as a well-made asset's do.
        positions[:, 1] = np.arange(count) // 1024 + (np.arange(count) % 2) * 0.5
        attributes = {
            "POSITION": self.add_accessor(positions, "VEC3", minmax=True, target=ARRAY_BUFFER)
        }
        if primitive.normals:
            # The zigzag above winds the first triangle clockwise seen from +Z: normals along
            # -Z agree with it, so a built quad is not inside out.
            normals = np.tile(np.array([0, 0, -1], dtype=np.float32), (count, 1))
            attributes["NORMAL"] = self.add_accessor(normals, "VEC3", target=ARRAY_BUFFER)
        if primitive.texcoords:
            texcoords = np.zeros((count, 2), dtype=np.float32)
            attributes["TEXCOORD_0"] = self.add_accessor(texcoords, "VEC2", target=ARRAY_BUFFER)
        built: dict[str, Any] = {"attributes": attributes, "mode": primitive.mode}
        if primitive.index_count is not None:
            dtype = np.uint16 if count <= 0xFFFF else np.uint32
            values = _index_values(primitive.mode, primitive.index_count, count)
            indices = (values % count).astype(dtype)
            built["indices"] = self.add_accessor(indices, "SCALAR", target=ELEMENT_ARRAY_BUFFER)
        if primitive.material is not None:
            built["material"] = primitive.material
        return built

    def _append(self, collection: str, item: dict[str, Any]) -> int:
        items = self.document.setdefault(collection, [])
        items.append(item)
        return len(items) - 1

    def _use_extension(self, name: str) -> None:
        used = self.document.setdefault("extensionsUsed", [])
        if name not in used:
            used.append(name)

    def _with_buffer(self, uri: str | None) -> dict[str, Any]:
        """The document with the builder's data as buffer 0 (buffers already in the document
        follow it)."""
        document = json.loads(json.dumps(self.document))
        if self.binary:
            buffer: dict[str, Any] = {"byteLength": len(self.binary)}
            if uri is not None:
                buffer["uri"] = uri
            document["buffers"] = [buffer, *document.get("buffers", [])]
        return document


def _index_values(mode: int, index_count: int, count: int) -> np.ndarray:
    """The ``index_count`` indices of a built primitive of ``count`` vertices: a triangle list
    laid like a strip (neighbours share an edge and wind the same way) when its triangles reach
    every vertex that way, else 0, 1, 2... (wrapping past the last vertex either way)."""
    triangles = index_count // 3
    if mode != TRIANGLES or index_count % 3 or triangles + 2 < count:
        return np.arange(index_count, dtype=np.uint64)
    first = np.arange(triangles, dtype=np.uint64)
    odd = (first % 2).astype(bool)
    strip = np.stack([first, first + 1, first + 2], axis=1)
    strip[odd, 0], strip[odd, 1] = first[odd] + 1, first[odd]
    return strip.ravel()


def _named(item: dict[str, Any], name: str | None) -> dict[str, Any]:
    if name is not None:
        item["name"] = name
    return item
