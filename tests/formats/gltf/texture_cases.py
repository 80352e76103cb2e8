"""Crafted glTF files for the texture content rules: golden cases like those of
:mod:`tests.formats.gltf.cases`, one per code of the texture content check, each a textured
triangle whose material samples a 16 x 16 image encoded by Pillow (deterministic pixels, so
``--update-golden`` writes the same bytes again)."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image, PngImagePlugin

from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.formats.gltf.cases import Case, Document, accessor, attributes, primitive

SIDE = 16


def encoded(pixels: np.ndarray, *, srgb: bool = False) -> bytes:
    """``pixels`` (``(h, w, 3 or 4)`` uint8) as a PNG; ``srgb`` adds an sRGB chunk."""
    info = PngImagePlugin.PngInfo()
    if srgb:
        info.add(b"sRGB", b"\0")
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def ramp(low: int, high: int) -> np.ndarray:
    """A ``(SIDE, SIDE)`` uint8 ramp from ``low`` (top left) to ``high`` (bottom right)."""
    steps = np.add.outer(np.arange(SIDE), np.arange(SIDE)) / (2 * SIDE - 2)
    return np.round(low + (high - low) * steps).astype(np.uint8)


def channels(*planes: np.ndarray | int) -> np.ndarray:
    """An image from one plane (or constant) per channel."""
    return np.stack(
        [np.full((SIDE, SIDE), p, np.uint8) if isinstance(p, int) else p for p in planes], axis=-1
    )


def unit_normals(tilt: float) -> np.ndarray:
    """A tangent-space normal map of unit vectors leaning up to ``tilt`` along x and y."""
    x = (ramp(0, 200).astype(float) / 200 - 0.5) * 2 * tilt
    y = x.T
    z = np.sqrt(np.maximum(0.0, 1 - x * x - y * y))
    return np.round((np.stack([x, y, z], axis=-1) + 1) * 127.5).astype(np.uint8)


def _textured(
    data: bytes, key: str, uvs: tuple = ((0, 0), (1, 0), (0, 1)), **material: Any
) -> Callable[[GltfBuilder, Document], None]:
    """A change giving the triangle ``uvs`` and a material whose ``key`` texture (a
    ``pbrMetallicRoughness`` key, or ``normalTexture``) is an image of ``data``."""

    def change(builder: GltfBuilder, document: Document) -> None:
        texture = builder.add_texture(builder.add_image(data))
        index = builder.add_material()
        json = document["materials"][index]
        if key == "normalTexture":
            json[key] = {"index": texture}
        else:
            json["pbrMetallicRoughness"][key] = {"index": texture}
        json["pbrMetallicRoughness"]["metallicFactor"] = 0.0
        json.update(material)
        primitive(document)["material"] = index
        coordinates = np.array(uvs, np.float32)
        attributes(document)["TEXCOORD_0"] = accessor(builder, coordinates, "VEC2")
        if key == "normalTexture":  # a normal map needs tangents
            tangents = np.tile(np.array([1, 0, 0, 1], np.float32), (3, 1))
            attributes(document)["TANGENT"] = accessor(builder, tangents, "VEC4")

    return change


def _tiled_on_a_large_model(builder: GltfBuilder, document: Document) -> None:
    """A mid-grey noise base colour tiled 100 times across the triangle, which is one part of
    a model a hundred times larger (an untextured triangle scaled by 100)."""
    grey = (NOISE // 2 + 64).astype(np.uint8)
    tiled = ((0, 0), (100, 0), (0, 100))
    _textured(encoded(channels(grey, grey, grey)), BASE, tiled)(builder, document)
    large = builder.add_node(builder.add_mesh([Primitive(3, index_count=3, normals=True)]))
    document["nodes"][large]["scale"] = [100.0, 100.0, 100.0]


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return (
        struct.pack(">I", len(payload))
        + kind
        + payload
        + struct.pack(">I", zlib.crc32(kind + payload))
    )


def _png(width: int, height: int, pixels: bytes) -> bytes:
    """A PNG of grey pixels whose IHDR says ``width`` x ``height`` and whose IDAT holds
    ``pixels`` compressed (as they are: no check that they fill the size)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(pixels))
        + _png_chunk(b"IEND", b"")
    )


NOISE = np.random.default_rng(29).integers(0, 256, (SIDE, SIDE), dtype=np.uint8)
BASE = "baseColorTexture"
MR = "metallicRoughnessTexture"
#: Half the texels pure black, the other half a ramp of mid greys.
HALF_BLACK = np.where(ramp(0, 255) < 128, 0, ramp(60, 200)).astype(np.uint8)
#: Object-space normals: vectors all round the sphere, half of them pointing down.
OBJECT_SPACE = channels(ramp(0, 255), ramp(255, 0), ramp(20, 235))

TEXTURE_CASES = {
    "texture_decode_refused": Case("triangle", _textured(_png(12000, 12000, b"\0" * 64), BASE)),
    "texture_decode_failed": Case("triangle", _textured(_png(SIDE, SIDE, b"\0" * 7), BASE)),
    "normal_map_not_unit_length": Case(
        "triangle",
        _textured(encoded(channels(ramp(110, 146), 128, ramp(160, 200))), "normalTexture"),
    ),
    "normal_map_not_tangent_space": Case(
        "triangle", _textured(encoded(OBJECT_SPACE), "normalTexture")
    ),
    "normal_map_srgb_encoded": Case(
        "triangle",
        _textured(encoded(channels(ramp(180, 196), ramp(196, 180), 255)), "normalTexture"),
    ),
    "normal_map_color_profile": Case(
        "triangle", _textured(encoded(unit_normals(0.3), srgb=True), "normalTexture")
    ),
    "base_color_outside_pbr_range": Case(
        "triangle", _textured(encoded(channels(HALF_BLACK, HALF_BLACK, HALF_BLACK)), BASE)
    ),
    "metallic_roughness_constant": Case(
        "triangle", _textured(encoded(channels(255, ramp(40, 220), 0)), MR)
    ),
    "metallic_roughness_swapped": Case(
        "triangle",
        _textured(
            encoded(channels(255, np.where(NOISE < 128, 0, 255).astype(np.uint8), ramp(40, 220))),
            MR,
        ),
    ),
    "texture_single_color": Case("triangle", _textured(encoded(channels(180, 120, 90)), BASE)),
    "texture_alpha_opaque": Case(
        "triangle", _textured(encoded(channels(ramp(60, 200), 120, 90, 255)), BASE)
    ),
    "texture_density_excessive": Case("triangle", _tiled_on_a_large_model),
    "texture_alpha_ignored": Case(
        "triangle", _textured(encoded(channels(ramp(60, 200), 120, 90, ramp(0, 255))), BASE)
    ),
}
