"""One KTX2 file, parsed structurally: every section checked, nothing inflated or transcoded."""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.asset.memory import GpuMemory
from assetcheck.formats.ktx2.dfd import DataFormat, read_data_format
from assetcheck.formats.ktx2.fixed_part import Ktx2Header
from assetcheck.formats.ktx2.header import IDENTIFIER, HeaderTruncated, TooManyLevels, read_header
from assetcheck.formats.ktx2.key_values import read_key_values
from assetcheck.formats.ktx2.layout import (
    check_format_rules,
    check_header_values,
    check_level_lengths,
    check_sections,
)
from assetcheck.formats.ktx2.sizes import gpu_memory
from assetcheck.formats.ktx2.supercompression import check_global_data, check_zstandard_levels
from assetcheck.issues.findings import Finding, Findings


@dataclass(frozen=True)
class Ktx2Image:
    """What :func:`parse_ktx2` found: the header (None when it could not be read), the data
    format descriptor and key/value data when readable, the findings, and the GPU memory the
    texture takes level by level (``docs/statistics.md``), None when its format is unknown."""

    header: Ktx2Header | None
    data_format: DataFormat | None = None
    key_values: dict[str, bytes] = field(default_factory=dict, hash=False)
    findings: tuple[Finding, ...] = ()
    gpu_memory: GpuMemory | None = None

    @property
    def gpu_bytes(self) -> int | None:
        """The GPU memory of all levels; None when the format is unknown."""
        return self.gpu_memory.bytes if self.gpu_memory is not None else None


def parse_ktx2(data: bytes | memoryview) -> Ktx2Image:
    """Parse the KTX2 file in ``data``. Reads only inside ``data`` and allocates nothing in
    proportion to what the file claims, so hostile sizes end as findings, never as memory."""
    view = memoryview(data)
    findings = Findings()
    identifier = bytes(view[: len(IDENTIFIER)])
    if identifier != IDENTIFIER:
        findings.add("KTX2_IDENTIFIER_INVALID", found=identifier.hex(" "))
        return Ktx2Image(None, findings=tuple(findings))
    try:
        header = read_header(view)
    except HeaderTruncated as error:
        findings.add("KTX2_HEADER_TRUNCATED", size=len(view), needed=error.needed)
        return Ktx2Image(None, findings=tuple(findings))
    except TooManyLevels as error:
        findings.add(
            "KTX2_LEVEL_COUNT_INVALID",
            reason=f"levelCount is {error.level_count}, more than any texture can have",
        )
        return Ktx2Image(None, findings=tuple(findings))
    check_header_values(header, findings)
    data_format = read_data_format(view, header, findings)
    if data_format is not None:
        check_format_rules(header, data_format, findings)
    check_sections(header, data_format, len(view), findings)
    key_values = read_key_values(view, header, findings)
    check_level_lengths(header, data_format, findings)
    check_global_data(view, header, data_format, findings)
    check_zstandard_levels(view, header, findings)
    return Ktx2Image(
        header, data_format, key_values, tuple(findings), gpu_memory(header, data_format)
    )
