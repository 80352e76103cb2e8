"""KTX2 files built to the KTX 2.0 specification, for tests: Basis Universal textures as
``KHR_texture_basisu`` expects them (ETC1S with BasisLZ global data, UASTC raw or in
Zstandard frames), structurally valid; the level payloads are filler bytes that no
transcoder would decode. :func:`patch_header` and :func:`patch_level` make the broken ones.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from assetcheck.formats.ktx2.dfd import MODEL_ETC1S, MODEL_UASTC
from assetcheck.formats.ktx2.header import HEADER, IDENTIFIER, LEVEL

ETC1S, UASTC = "etc1s", "uastc"
SCHEME_NONE, SCHEME_BASISLZ, SCHEME_ZSTANDARD = 0, 1, 2
#: Header field names in file order, after the identifier (for :func:`patch_header`).
HEADER_FIELDS = (
    "vk_format",
    "type_size",
    "width",
    "height",
    "depth",
    "layers",
    "faces",
    "level_count",
    "scheme",
    "dfd_offset",
    "dfd_length",
    "kvd_offset",
    "kvd_length",
    "sgd_offset",
    "sgd_length",
)
PRIMARIES_BT709, TRANSFER_LINEAR, TRANSFER_SRGB = 1, 1, 2
#: Channel ids: ETC1S RGB and AAA slices; UASTC RGB and RGBA.
ETC1S_CHANNELS = {False: (0,), True: (0, 15)}
UASTC_CHANNELS = {False: (0,), True: (3,)}
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
ZSTD_MAX_BLOCK = 128 * 1024


@dataclass
class Ktx2Texture:
    """A 2D Basis Universal texture; ``levels`` None means a full mip chain, 0 means one
    level with ``levelCount`` 0. ``layers``, ``faces`` and ``depth`` make the shapes
    ``KHR_texture_basisu`` forbids."""

    width: int = 16
    height: int = 16
    model: str = ETC1S
    alpha: bool = False
    #: UASTC only: Zstandard supercompression (ETC1S always uses BasisLZ).
    zstd: bool = True
    levels: int | None = None
    srgb: bool = True
    layers: int = 0
    faces: int = 1
    depth: int = 0
    key_values: dict[str, bytes] = field(
        default_factory=lambda: {"KTXwriter": b"AssetCheck test builder\0"}
    )

    def build(self) -> bytes:
        """The file's bytes."""
        level_count = _full_chain(self.width, self.height) if self.levels is None else self.levels
        payloads = [self._level_payload(p) for p in range(max(level_count, 1))]
        scheme = self._scheme()
        dfd = self._dfd()
        kvd = _key_value_data(self.key_values)
        dfd_offset = HEADER.size + LEVEL.size * len(payloads)
        kvd_offset = dfd_offset + len(dfd)
        body = bytearray(dfd + kvd)
        sgd = _basislz_global_data(payloads, self.alpha) if scheme == SCHEME_BASISLZ else b""
        sgd_offset = 0
        if sgd:
            body += bytes(-(dfd_offset + len(body)) % 8)
            sgd_offset = dfd_offset + len(body)
            body += sgd
        alignment = 16 if scheme == SCHEME_NONE else 1
        index = [b""] * len(payloads)
        for p in reversed(range(len(payloads))):  # smallest level first
            body += bytes(-(dfd_offset + len(body)) % alignment)
            stored = _zstd_frame(payloads[p]) if scheme == SCHEME_ZSTANDARD else payloads[p]
            uncompressed = 0 if scheme == SCHEME_BASISLZ else len(payloads[p])
            index[p] = LEVEL.pack(dfd_offset + len(body), len(stored), uncompressed)
            body += stored
        header = HEADER.pack(
            IDENTIFIER,
            0,
            1,
            self.width,
            self.height,
            self.depth,
            self.layers,
            self.faces,
            level_count,
            scheme,
            dfd_offset,
            len(dfd),
            kvd_offset if kvd else 0,
            len(kvd),
            sgd_offset,
            len(sgd),
        )
        return header + b"".join(index) + bytes(body)

    def _scheme(self) -> int:
        if self.model == ETC1S:
            return SCHEME_BASISLZ
        return SCHEME_ZSTANDARD if self.zstd else SCHEME_NONE

    def _blocks(self, level: int) -> int:
        """4x4 blocks of every image of ``level``."""
        width, height = max(1, self.width >> level), max(1, self.height >> level)
        images = max(1, self.layers) * self.faces * max(1, self.depth >> level)
        return -(-width // 4) * -(-max(height, 1) // 4) * images

    def _level_payload(self, level: int) -> bytes:
        """Filler standing for the level's blocks: 16 bytes per UASTC block; for ETC1S a
        slice per image plane, a few bytes per block as BasisLZ's would be."""
        per_block = 16 if self.model == UASTC else 2 * (1 + self.alpha)
        return bytes((level * 7 + n) % 251 for n in range(self._blocks(level) * per_block))

    def _dfd(self) -> bytes:
        """The basic descriptor block of KTX 2.0 section 3.10 for the model."""
        if self.model == ETC1S:
            model, channels, bits = MODEL_ETC1S, ETC1S_CHANNELS[self.alpha], 64
            planes = (8, 8 if self.alpha else 0)
        else:
            model, channels, bits, planes = MODEL_UASTC, UASTC_CHANNELS[self.alpha], 128, (16, 0)
        primaries = PRIMARIES_BT709 if self.srgb else 0
        transfer = TRANSFER_SRGB if self.srgb else TRANSFER_LINEAR
        size = 24 + 16 * len(channels)
        block = struct.pack(
            "<II4B4B8B",
            0,
            2 | size << 16,
            model,
            primaries,
            transfer,
            0,
            3,
            3,
            0,
            0,
            *planes,
            0,
            0,
            0,
            0,
            0,
            0,
        )
        samples = b"".join(
            struct.pack("<HBB4BII", n * bits, bits - 1, channel, 0, 0, 0, 0, 0, 0xFFFFFFFF)
            for n, channel in enumerate(channels)
        )
        return struct.pack("<I", 4 + len(block) + len(samples)) + block + samples


def _full_chain(width: int, height: int) -> int:
    return max(width, height, 1).bit_length()


def _key_value_data(pairs: dict[str, bytes]) -> bytes:
    data = bytearray()
    for key in sorted(pairs):
        entry = key.encode() + b"\0" + pairs[key]
        data += struct.pack("<I", len(entry)) + entry + bytes(-len(entry) % 4)
    return bytes(data)


def _basislz_global_data(payloads: list[bytes], alpha: bool) -> bytes:
    """Codebooks of filler bytes and one image descriptor per level: the RGB slice, then the
    alpha slice, each half of the level."""
    endpoints, selectors, tables = bytes(range(16)), bytes(range(16, 40)), bytes(range(40, 48))
    descriptors = b""
    for payload in payloads:
        half = len(payload) // 2 if alpha else len(payload)
        descriptors += struct.pack(
            "<5I", 0, 0, half, half if alpha else 0, len(payload) - half if alpha else 0
        )
    head = struct.pack("<HH4I", 4, 4, len(endpoints), len(selectors), len(tables), 0)
    return head + descriptors + endpoints + selectors + tables


def _zstd_frame(content: bytes) -> bytes:
    """A Zstandard frame (RFC 8878) of raw blocks: single segment, 8-byte content size."""
    frame = bytearray(ZSTD_MAGIC + bytes([0xE0]) + struct.pack("<Q", len(content)))
    chunks = [content[n : n + ZSTD_MAX_BLOCK] for n in range(0, len(content), ZSTD_MAX_BLOCK)]
    for number, chunk in enumerate(chunks or [b""]):
        last = number == max(len(chunks), 1) - 1
        frame += (int(last) | len(chunk) << 3).to_bytes(3, "little") + chunk
    return bytes(frame)


def patch_header(data: bytes, **fields: int) -> bytes:
    """``data`` with header fields (names of :data:`HEADER_FIELDS`) set to new values."""
    values = dict(zip(HEADER_FIELDS, HEADER.unpack_from(data)[1:], strict=True))
    unknown = set(fields) - set(values)
    if unknown:
        raise ValueError(f"no such header fields: {sorted(unknown)}")
    values.update(fields)
    return HEADER.pack(IDENTIFIER, *values.values()) + data[HEADER.size :]


def level_entry(data: bytes, level: int) -> tuple[int, int, int]:
    """Level ``level``'s index entry: byteOffset, byteLength, uncompressedByteLength."""
    return LEVEL.unpack_from(data, HEADER.size + level * LEVEL.size)


def patch_level(
    data: bytes,
    level: int,
    *,
    offset: int | None = None,
    length: int | None = None,
    uncompressed: int | None = None,
) -> bytes:
    """``data`` with level ``level``'s index entry changed where a value is given."""
    old = level_entry(data, level)
    new = tuple(
        o if n is None else n for o, n in zip(old, (offset, length, uncompressed), strict=True)
    )
    position = HEADER.size + level * LEVEL.size
    return data[:position] + LEVEL.pack(*new) + data[position + LEVEL.size :]
