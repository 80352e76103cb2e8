"""The GLB container's layout (glTF 2.0, "GLB File Format Specification"): a 12-byte header
(magic ``glTF``, version 2, total length), then chunks of an 8-byte header (length, type)
and their data. Shared by the GLB reader and the byte breakdown."""

from __future__ import annotations

MAGIC = 0x46546C67  # "glTF"
VERSION = 2
HEADER_LENGTH = 12
CHUNK_HEADER_LENGTH = 8
JSON_CHUNK = 0x4E4F534A  # "JSON"
BIN_CHUNK = 0x004E4942  # "BIN\0"
