"""Write grid-mesh GLBs of a chosen size, the inputs of bench/validate_speed.py.

A grid of n x n vertices with POSITION, NORMAL, TEXCOORD_0 and 32-bit indices, one PBR material:
about 56 bytes per vertex, so n = 190, 670 and 1340 give files of about 2, 25 and 100 MB; the
100 MB grid is written a second time with a texture and a lightmap UV set.
"""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.testing.gltf import data_uri, png_bytes


def grid_triangles(height: int, width: int) -> np.ndarray:
    """The ``(m, 3)`` uint32 triangles of a grid of ``height`` x ``width`` vertices (row-major),
    two per cell."""
    corner = (
        (np.arange(height - 1)[:, None] * width + np.arange(width - 1)[None, :])
        .ravel()
        .astype(np.uint32)
    )
    return np.stack(
        [corner, corner + width, corner + 1, corner + 1, corner + width, corner + width + 1], axis=1
    ).reshape(-1, 3)


def grid_glb(
    n: int, *, textured: bool = False, material_images: Sequence[tuple[str, bytes]] = ()
) -> bytes:
    """A valid GLB holding one n x n grid mesh (2 (n-1)^2 triangles). ``textured`` gives its
    material a base colour texture and the grid a lightmap UV set (``TEXCOORD_1``, the same
    UVs as ``TEXCOORD_0``), so that every UV check has work to do. ``material_images`` gives
    the material textures of its own instead, stored in the binary chunk: (texture info key,
    PNG or JPEG bytes) pairs, keys of ``pbrMetallicRoughness`` or ``normalTexture``."""
    axis = np.linspace(0, 1, n, dtype=np.float32)
    u, v = np.meshgrid(axis, axis)
    positions = np.stack([u.ravel(), np.sin(u.ravel() * 6) * 0.1, v.ravel()], axis=1)
    normals = np.tile(np.array([0, 1, 0], np.float32), (n * n, 1))
    uvs = np.stack([u.ravel(), v.ravel()], axis=1)
    indices = grid_triangles(n, n).ravel()
    blobs = [
        positions.tobytes(),
        normals.tobytes(),
        uvs.astype(np.float32).tobytes(),
        indices.tobytes(),
        *(image for _, image in material_images),
    ]
    views, offset = [], 0
    for blob in blobs:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(blob)})
        offset += len(blob) + (-len(blob) % 4)
    count = n * n
    document = {
        "asset": {"version": "2.0", "generator": "assetcheck bench"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": "grid"}],
        "meshes": [
            {
                "name": "grid",
                "primitives": [
                    {
                        "attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
                        "indices": 3,
                        "material": 0,
                    }
                ],
            }
        ],
        "materials": [{"name": "ground", "pbrMetallicRoughness": {"metallicFactor": 0.0}}],
        "buffers": [{"byteLength": offset}],
        "bufferViews": [
            dict(views[0], target=34962),
            dict(views[1], target=34962),
            dict(views[2], target=34962),
            dict(views[3], target=34963),
            *views[4:],
        ],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": count,
                "type": "VEC3",
                "min": positions.min(axis=0).tolist(),
                "max": positions.max(axis=0).tolist(),
            },
            {"bufferView": 1, "componentType": 5126, "count": count, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": count, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5125, "count": int(indices.size), "type": "SCALAR"},
        ],
    }
    if textured:
        document["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_1"] = 2
        document["images"] = [{"uri": data_uri(png_bytes(64, 64), "image/png")}]
        document["textures"] = [{"source": 0}]
        document["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"] = {"index": 0}
    for number, (key, image) in enumerate(material_images):
        mime = "image/jpeg" if image.startswith(b"\xff\xd8") else "image/png"
        document.setdefault("images", []).append({"bufferView": 4 + number, "mimeType": mime})
        document.setdefault("textures", []).append({"source": number})
        material = document["materials"][0]
        slot = material if key == "normalTexture" else material["pbrMetallicRoughness"]
        slot[key] = {"index": number}
    json_chunk = json.dumps(document).encode()
    json_chunk += b" " * (-len(json_chunk) % 4)
    bin_chunk = b"".join(blob + b"\0" * (-len(blob) % 4) for blob in blobs)
    bin_chunk += b"\0" * (-len(bin_chunk) % 4)
    length = 12 + 8 + len(json_chunk) + 8 + len(bin_chunk)
    return b"".join(
        [
            struct.pack("<4sII", b"glTF", 2, length),
            struct.pack("<I4s", len(json_chunk), b"JSON"),
            json_chunk,
            struct.pack("<I4s", len(bin_chunk), b"BIN\0"),
            bin_chunk,
        ]
    )


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/out")
    out.mkdir(parents=True, exist_ok=True)
    for label, n in (("2mb", 190), ("25mb", 670), ("100mb", 1340)):
        path = out / f"grid_{label}.glb"
        path.write_bytes(grid_glb(n))
        print(f"{path}: {path.stat().st_size / 1e6:.1f} MB, {2 * (n - 1) ** 2:,} triangles")
    path = out / "grid_100mb_textured.glb"  # a texture and a lightmap: every UV check runs
    path.write_bytes(grid_glb(1340, textured=True))
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB, textured")
