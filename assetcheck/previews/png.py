"""PNG encoding by hand (zlib and struct): enough for the dashboard's preview images."""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_RGBA, _BIT_DEPTH = 6, 8


def encode_png(pixels: np.ndarray) -> bytes:
    """An ``(height, width, 4)`` uint8 RGBA array as PNG bytes (8 bits per channel)."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 4:
        raise ValueError("encode_png needs an (height, width, 4) uint8 array")
    height, width = pixels.shape[:2]
    header = struct.pack(">IIBBBBB", width, height, _BIT_DEPTH, _RGBA, 0, 0, 0)
    # Every scanline starts with its filter type; flat-shaded renders compress well unfiltered.
    rows = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1)
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return (
        struct.pack(">I", len(payload))
        + kind
        + payload
        + struct.pack(">I", zlib.crc32(kind + payload))
    )
