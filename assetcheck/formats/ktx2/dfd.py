"""The data format descriptor of a KTX2 file: its first (basic) descriptor block, as the
Khronos Data Format Specification 1.3 lays it out (KTX 2.0, section 3.10)."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from assetcheck.formats.ktx2.fixed_part import Ktx2Header
from assetcheck.issues.findings import Findings

#: Colour models of the universal (transcodable) formats, and the block-compressed ones.
MODEL_ETC1S = 163
MODEL_UASTC = 166
MODEL_NAMES = {
    0: "unspecified",
    1: "RGBSDA",
    2: "YUVSDA",
    **{128 + i: name for i, name in enumerate(("BC1A", "BC2", "BC3", "BC4", "BC5", "BC6H", "BC7"))},
    160: "ETC1",
    161: "ETC2",
    162: "ASTC",
    MODEL_ETC1S: "ETC1S",
    164: "PVRTC",
    165: "PVRTC2",
    MODEL_UASTC: "UASTC",
    167: "UASTC HDR",
}
#: The channel ids each universal model allows, as the sets of samples a descriptor may hold.
ETC1S_CHANNEL_SETS = ((0,), (0, 15), (3,), (3, 4))
UASTC_CHANNEL_SETS = ((0,), (3,), (4,), (5,), (6,))
#: The basic descriptor block: vendor and type, version and size, model fields, texel block
#: dimensions and bytes per plane; then 16 bytes per sample.
BLOCK_HEADER = struct.Struct("<II4B4B8B")
SAMPLE = struct.Struct("<HBB4BII")
BASIC_BLOCK_VERSION = 2


@dataclass(frozen=True)
class DataFormat:
    """The basic descriptor block: colour model and space, texel block, planes, channels."""

    color_model: int
    color_primaries: int
    transfer_function: int
    flags: int
    #: Texel block width, height, depth (1 for uncompressed formats).
    block: tuple[int, int, int]
    bytes_planes: tuple[int, ...]
    #: The channel id of each sample (the low four bits of its channelType).
    channels: tuple[int, ...]

    @property
    def model_name(self) -> str:
        return MODEL_NAMES.get(self.color_model, str(self.color_model))

    @property
    def universal(self) -> bool:
        """ETC1S or UASTC: a Basis Universal format, transcoded before the GPU sees it."""
        return self.color_model in (MODEL_ETC1S, MODEL_UASTC)

    @property
    def block_compressed(self) -> bool:
        return self.block != (1, 1, 1) or self.color_model >= 128


def read_data_format(view: memoryview, header: Ktx2Header, findings: Findings) -> DataFormat | None:
    """The descriptor the header's index points at, or None when it cannot be read; reports
    ``KTX2_DFD_INVALID`` with the reason. A descriptor outside the file is left to the
    layout check."""
    section = header.dfd
    if section.end > len(view):
        return None
    if section.length < 4 + BLOCK_HEADER.size:
        findings.add(
            "KTX2_DFD_INVALID",
            reason=f"it is {section.length} bytes long, too short "
            f"for a descriptor block ({4 + BLOCK_HEADER.size})",
        )
        return None
    (total,) = struct.unpack_from("<I", view, section.offset)
    if total != section.length:
        findings.add(
            "KTX2_DFD_INVALID",
            reason=f"dfdTotalSize is {total} but dfdByteLength is {section.length}",
        )
        return None
    if header.kvd.length and header.kvd.offset != section.end:
        findings.add(
            "KTX2_DFD_INVALID",
            reason=f"it ends at byte {section.end}, but the "
            f"key/value data that follows it starts at {header.kvd.offset}",
        )
    fields = BLOCK_HEADER.unpack_from(view, section.offset + 4)
    vendor_and_type, version_and_size = fields[:2]
    model, primaries, transfer, flags = fields[2:6]
    dimensions, planes = fields[6:10], fields[10:18]
    version, size = version_and_size & 0xFFFF, version_and_size >> 16
    reason = None
    if vendor_and_type != 0:
        reason = "its first descriptor block is not the Khronos basic block"
    elif version != BASIC_BLOCK_VERSION:
        reason = f"the basic block's version is {version}, not {BASIC_BLOCK_VERSION}"
    elif size < BLOCK_HEADER.size or (size - BLOCK_HEADER.size) % SAMPLE.size:
        reason = f"descriptorBlockSize {size} is not 24 plus 16 per sample"
    elif 4 + size > total:
        reason = f"descriptorBlockSize {size} runs past dfdTotalSize {total}"
    if reason is not None:
        findings.add("KTX2_DFD_INVALID", reason=reason)
        return None
    first_sample = section.offset + 4 + BLOCK_HEADER.size
    channels = tuple(
        SAMPLE.unpack_from(view, first_sample + n * SAMPLE.size)[2] & 0x0F
        for n in range((size - BLOCK_HEADER.size) // SAMPLE.size)
    )
    data_format = DataFormat(
        model,
        primaries,
        transfer,
        flags,
        (dimensions[0] + 1, dimensions[1] + 1, dimensions[2] + 1),
        tuple(planes),
        channels,
    )
    _check_universal_model(data_format, findings)
    return data_format


def _check_universal_model(data_format: DataFormat, findings: Findings) -> None:
    """ETC1S and UASTC have 4x4 blocks and fixed channel combinations (KTX 2.0, 3.10.2)."""
    allowed = {MODEL_ETC1S: ETC1S_CHANNEL_SETS, MODEL_UASTC: UASTC_CHANNEL_SETS}.get(
        data_format.color_model
    )
    if allowed is None:
        return
    name = data_format.model_name
    if data_format.block != (4, 4, 1):
        width, height, depth = data_format.block
        findings.add(
            "KTX2_DFD_INVALID", reason=f"{name} has 4x4 texel blocks, not {width}x{height}x{depth}"
        )
    elif data_format.channels not in allowed:
        findings.add(
            "KTX2_DFD_INVALID",
            reason=f"channel ids {list(data_format.channels)} are not a combination {name} allows",
        )
