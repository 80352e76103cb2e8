"""One mesh (or several) as three real GLBs: uncompressed, Draco- and meshopt-compressed.

The payloads are made by the real encoders: Google's Draco encoder (through ``DracoPy``) and
meshoptimizer's C encoders (the shared library of the ``meshoptimizer`` package, through
ctypes). The Draco GLB declares the accessor counts the payload decodes to, as glTF encoders
do; the meshopt GLB keeps its uncompressed layout in a fallback buffer with no data and
requires the extension, as ``gltfpack`` writes it. Used by the committed fixtures
(``tools/make_compressed_fixtures.py``), the tests and ``bench/validate_speed.py``.
"""

from __future__ import annotations

import ctypes
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assetcheck.testing.gltf import (
    ARRAY_BUFFER,
    BIN_CHUNK_TYPE,
    ELEMENT_ARRAY_BUFFER,
    FLOAT,
    JSON_CHUNK_TYPE,
    Chunk,
    GltfBuilder,
    glb_container,
    json_chunk_data,
)
from assetcheck.testing.shapes import PAWN_PROFILE, lathe

DRACO = "KHR_draco_mesh_compression"
MESHOPT = "EXT_meshopt_compression"
UNSIGNED_INT = 5125


@dataclass(frozen=True)
class Mesh:
    """Float32 ``positions`` and ``normals`` (n, 3) and uint32 ``triangles`` (m, 3)."""

    positions: np.ndarray
    normals: np.ndarray
    triangles: np.ndarray


def pawn_mesh(profile: tuple[tuple[float, float], ...] = PAWN_PROFILE) -> Mesh:
    """The lathe pawn with radial normals. Its poles (radius 0) make 64 zero-area triangles;
    ``PAWN_PROFILE[1:-1]`` leaves them out (an open pawn with none)."""
    positions, triangles = lathe(profile)
    lengths = np.linalg.norm(positions, axis=1, keepdims=True)
    normals = np.where(lengths > 1e-6, positions / np.maximum(lengths, 1e-6), [0.0, 1.0, 0.0])
    return Mesh(positions, normals.astype(np.float32), triangles)


def plain_glb(meshes: Mesh | Sequence[Mesh], name: str = "mesh") -> bytes:
    """``meshes`` (one, or several: a glTF mesh and node each) as an uncompressed GLB."""
    builder = GltfBuilder()
    primitives = []
    for mesh in _each(meshes):
        attributes = {
            "POSITION": builder.add_accessor(
                mesh.positions, "VEC3", minmax=True, target=ARRAY_BUFFER
            ),
            "NORMAL": builder.add_accessor(mesh.normals, "VEC3", target=ARRAY_BUFFER),
        }
        indices = builder.add_accessor(
            mesh.triangles.reshape(-1), "SCALAR", target=ELEMENT_ARRAY_BUFFER
        )
        primitives.append({"attributes": attributes, "indices": indices})
    return _finish(builder, primitives, name)


def draco_glb(
    meshes: Mesh | Sequence[Mesh],
    name: str = "mesh",
    quantization_bits: int = 14,
    *,
    preserve_order: bool = False,
) -> bytes:
    """``meshes`` as a GLB whose primitives are Draco payloads (``KHR_draco_mesh_compression``
    required); the accessors have no buffer view. Draco's default (edgebreaker) encoding drops
    degenerate triangles and the vertices only they use; ``preserve_order`` (sequential
    encoding) keeps every vertex and triangle in order."""
    import DracoPy

    builder = GltfBuilder()
    primitives = []
    for mesh in _each(meshes):
        payload = DracoPy.encode(
            mesh.positions.astype(np.float64),
            mesh.triangles,
            quantization_bits=quantization_bits,
            normals=mesh.normals.astype(np.float64),
            compression_level=7,
            preserve_order=preserve_order,
        )
        decoded = DracoPy.decode(payload)
        ids = {item["attribute_type"]: item["unique_id"] for item in decoded.attributes}
        points, faces = len(decoded.points), len(decoded.faces)
        view = builder.add_buffer_view(payload)
        position = {
            "componentType": FLOAT,
            "count": points,
            "type": "VEC3",
            "min": mesh.positions.min(axis=0).tolist(),
            "max": mesh.positions.max(axis=0).tolist(),
        }
        accessors = [
            position,
            {"componentType": FLOAT, "count": points, "type": "VEC3"},
            {"componentType": UNSIGNED_INT, "count": faces * 3, "type": "SCALAR"},
        ]
        first = len(builder.document.setdefault("accessors", []))
        builder.document["accessors"].extend(accessors)
        primitives.append(
            {
                "attributes": {"POSITION": first, "NORMAL": first + 1},
                "indices": first + 2,
                # Draco's attribute types: 0 is POSITION, 1 NORMAL.
                "extensions": {
                    DRACO: {
                        "bufferView": view,
                        "attributes": {"POSITION": ids[0], "NORMAL": ids[1]},
                    }
                },
            }
        )
    builder.document["extensionsRequired"] = [DRACO]
    return _finish(builder, primitives, name, extension=DRACO)


def meshopt_glb(
    meshes: Mesh | Sequence[Mesh], name: str = "mesh", extension: str = MESHOPT
) -> bytes:
    """``meshes`` as a GLB whose vertex and index views are meshopt-compressed (ATTRIBUTES and
    TRIANGLES modes), their uncompressed layout in a fallback buffer without data."""
    builder = GltfBuilder()
    builder.document["buffers"] = [{"byteLength": 0, "extensions": {extension: {"fallback": True}}}]
    fallback_length = 0

    def compressed_view(data: np.ndarray, mode: str, stride: int, target: int) -> int:
        nonlocal fallback_length
        count = data.size * data.itemsize // stride
        payload = encode_meshopt(data, count, stride, mode)
        source = builder.add_buffer_view(payload)
        compressed = builder.document["bufferViews"][source]
        fallback_length += -fallback_length % 4
        view = {
            "buffer": 1,
            "byteOffset": fallback_length,
            "byteLength": count * stride,
            "target": target,
            "extensions": {
                extension: {
                    "buffer": 0,
                    "byteOffset": compressed["byteOffset"],
                    "byteLength": compressed["byteLength"],
                    "byteStride": stride,
                    "count": count,
                    "mode": mode,
                }
            },
        }
        if mode == "ATTRIBUTES":
            view["byteStride"] = stride
        fallback_length += count * stride
        builder.document["bufferViews"][source] = view  # the payload's view becomes the parent
        return source

    def accessor(view: int, component_type: int, count: int, kind: str, **bounds: Any) -> int:
        accessors = builder.document.setdefault("accessors", [])
        accessors.append(
            {
                "bufferView": view,
                "componentType": component_type,
                "count": count,
                "type": kind,
                **bounds,
            }
        )
        return len(accessors) - 1

    primitives = []
    for mesh in _each(meshes):
        count = len(mesh.positions)
        attributes = {
            "POSITION": accessor(
                compressed_view(mesh.positions, "ATTRIBUTES", 12, ARRAY_BUFFER),
                FLOAT,
                count,
                "VEC3",
                min=mesh.positions.min(axis=0).tolist(),
                max=mesh.positions.max(axis=0).tolist(),
            ),
            "NORMAL": accessor(
                compressed_view(mesh.normals, "ATTRIBUTES", 12, ARRAY_BUFFER), FLOAT, count, "VEC3"
            ),
        }
        indices = accessor(
            compressed_view(mesh.triangles, "TRIANGLES", 4, ELEMENT_ARRAY_BUFFER),
            UNSIGNED_INT,
            mesh.triangles.size,
            "SCALAR",
        )
        primitives.append({"attributes": attributes, "indices": indices})
    builder.document["buffers"][0]["byteLength"] = fallback_length
    builder.document["extensionsRequired"] = [extension]
    return _finish(builder, primitives, name, extension=extension)


def encode_meshopt(data: np.ndarray, count: int, stride: int, mode: str) -> bytes:
    """``count`` elements of ``stride`` bytes from ``data`` as a meshopt payload of ``mode``
    (``ATTRIBUTES``, ``TRIANGLES`` or ``INDICES``; index modes take uint32 ``data``)."""
    library = _encoder()
    source = np.ascontiguousarray(data)
    arguments: tuple[int, ...]
    if mode == "ATTRIBUTES":
        bound = library.meshopt_encodeVertexBufferBound(count, stride)
        encode = library.meshopt_encodeVertexBuffer
        arguments = (source.ctypes.data, count, stride)
    else:
        indices = source.astype(np.uint32).reshape(-1)
        vertices = int(indices.max()) + 1 if indices.size else 0
        if mode == "TRIANGLES":
            bound = library.meshopt_encodeIndexBufferBound(count, vertices)
            encode = library.meshopt_encodeIndexBuffer
        else:
            bound = library.meshopt_encodeIndexSequenceBound(count, vertices)
            encode = library.meshopt_encodeIndexSequence
        source = indices
        arguments = (indices.ctypes.data, count)
    out = np.zeros(bound, np.uint8)
    written = encode(out.ctypes.data, bound, *arguments)
    if written == 0:
        raise ValueError(f"meshoptimizer could not encode {count} elements as {mode}")
    return out[:written].tobytes()


def encode_filter(data: np.ndarray, filter_: str, count: int, stride: int, bits: int) -> np.ndarray:
    """Float ``data`` through meshoptimizer's encoding ``filter_`` with ``bits`` of precision:
    the bytes the decoder's filter turns back into (about) them. OCTAHEDRAL and QUATERNION
    take 4 floats per element (a unit vector and W, a unit quaternion), EXPONENTIAL
    ``stride / 4``."""
    library = _encoder()
    source = np.ascontiguousarray(data, np.float32)
    out = np.zeros(count * stride, np.uint8)
    if filter_ == "OCTAHEDRAL":
        library.meshopt_encodeFilterOct(out.ctypes.data, count, stride, bits, source.ctypes.data)
    elif filter_ == "QUATERNION":
        library.meshopt_encodeFilterQuat(out.ctypes.data, count, stride, bits, source.ctypes.data)
    else:
        library.meshopt_encodeFilterExp(out.ctypes.data, count, stride, bits, source.ctypes.data, 0)
    return out


_LOADED: list[ctypes.CDLL] = []


def _encoder() -> ctypes.CDLL:
    if not _LOADED:
        from meshoptimizer import _loader

        library = ctypes.CDLL(_loader.lib._name)
        size, pointer = ctypes.c_size_t, ctypes.c_void_p
        prototypes = {
            "meshopt_encodeVertexBufferBound": [size, size],
            "meshopt_encodeVertexBuffer": [pointer, size, pointer, size, size],
            "meshopt_encodeIndexBufferBound": [size, size],
            "meshopt_encodeIndexBuffer": [pointer, size, pointer, size],
            "meshopt_encodeIndexSequenceBound": [size, size],
            "meshopt_encodeIndexSequence": [pointer, size, pointer, size],
        }
        for name, arguments in prototypes.items():
            function = getattr(library, name)
            function.argtypes, function.restype = arguments, size
        for name in ("meshopt_encodeFilterOct", "meshopt_encodeFilterQuat"):
            function = getattr(library, name)
            function.argtypes = [pointer, size, size, ctypes.c_int, pointer]
            function.restype = None
        library.meshopt_encodeFilterExp.argtypes = [
            pointer,
            size,
            size,
            ctypes.c_int,
            pointer,
            ctypes.c_int,
        ]
        library.meshopt_encodeFilterExp.restype = None
        library.meshopt_encodeVertexVersion.argtypes = [ctypes.c_int]
        library.meshopt_encodeVertexVersion(0)  # the version EXT_meshopt_compression allows
        _LOADED.append(library)
    return _LOADED[0]


def _each(meshes: Mesh | Sequence[Mesh]) -> list[Mesh]:
    return [meshes] if isinstance(meshes, Mesh) else list(meshes)


def _finish(
    builder: GltfBuilder, primitives: list[dict], name: str, extension: str | None = None
) -> bytes:
    """The GLB with one glTF mesh and node per primitive, named ``name`` (numbered when there
    are several)."""
    for number, primitive in enumerate(primitives):
        label = name if len(primitives) == 1 else f"{name}_{number}"
        mesh = builder.add_mesh([], label)
        builder.document["meshes"][mesh]["primitives"] = [primitive]
        builder.add_node(mesh, label)
    if extension is not None:
        builder._use_extension(extension)
    return builder.glb()


def split_glb(data: bytes) -> tuple[dict[str, Any], bytearray]:
    """The JSON and the BIN chunk of a well-formed two-chunk GLB, to mutate and :func:`join_glb`."""
    json_length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20 : 20 + json_length])
    return document, bytearray(data[20 + json_length + 8 :])


def join_glb(document: dict[str, Any], binary: bytes | bytearray) -> bytes:
    """A GLB of ``document`` and ``binary`` (padded to 4 bytes), as they are."""
    return glb_container(
        [
            Chunk(JSON_CHUNK_TYPE, json_chunk_data(document)),
            Chunk(BIN_CHUNK_TYPE, bytes(binary) + b"\0" * (-len(binary) % 4)),
        ]
    )


def shared_zeros_meshopt_glb(vertices: int, primitives: int) -> bytes:
    """A small meshopt GLB that decodes large: one triangle over ``vertices`` vertices at the
    origin (zeros, which meshopt compresses about 64:1), drawn by ``primitives`` primitives of
    one mesh that all share the same accessors."""
    zeros = np.zeros((vertices, 3), np.float32)
    document, binary = split_glb(meshopt_glb(Mesh(zeros, zeros, np.array([[0, 1, 2]], np.uint32))))
    [primitive] = document["meshes"][0]["primitives"]
    document["meshes"][0]["primitives"] = [dict(primitive) for _ in range(primitives)]
    return join_glb(document, binary)


def truncated_draco_glb(primitives: int = 8000, grid: int = 300) -> bytes:
    """A Draco GLB whose decoding keeps a decoder busy for minutes: what a client can upload to
    tie up cores, and what tests of process cleanup need running while they act. Its one mesh
    has ``primitives`` primitives, each naming the same Draco payload of a ``grid`` x ``grid``
    mesh cut one byte short. The decoder gets through nearly all of it before failing (some
    50 ms for the default grid), once per primitive: minutes of decoding for some 1 MB."""
    builder = GltfBuilder()
    view = builder.add_buffer_view(_draco_grid(grid)[:-1])
    vertices, triangles = grid * grid, 2 * (grid - 1) ** 2
    builder.document["accessors"] = [
        {
            "componentType": FLOAT,
            "count": vertices,
            "type": "VEC3",
            "min": [0.0, -0.1, 0.0],
            "max": [1.0, 0.1, 1.0],
        },
        {"componentType": UNSIGNED_INT, "count": 3 * triangles, "type": "SCALAR"},
    ]
    primitive = {
        "attributes": {"POSITION": 0},
        "indices": 1,
        "extensions": {DRACO: {"bufferView": view, "attributes": {"POSITION": 0}}},
    }
    mesh = builder.add_mesh([])
    builder.document["meshes"][mesh]["primitives"] = [primitive] * primitives
    builder.add_node(mesh)
    builder.document["extensionsUsed"] = builder.document["extensionsRequired"] = [DRACO]
    return builder.glb()


def _draco_grid(size: int) -> bytes:
    """A ``size`` x ``size`` wavy grid of positions, Draco-encoded: a few bits a vertex."""
    import DracoPy

    axis = np.linspace(0, 1, size)
    u, v = (part.ravel() for part in np.meshgrid(axis, axis))
    positions = np.stack([u, np.sin(u * 6) * 0.1, v], axis=1)
    corner = (np.arange(size - 1)[:, None] * size + np.arange(size - 1)[None, :]).ravel()
    triangles = (
        np.stack(
            [corner, corner + size, corner + 1, corner + 1, corner + size, corner + size + 1],
            axis=1,
        )
        .reshape(-1, 3)
        .astype(np.uint32)
    )
    return DracoPy.encode(positions, triangles, quantization_bits=14, compression_level=7)
