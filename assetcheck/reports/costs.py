"""The "Bytes and GPU memory" section of every report format, read from the JSON report's
``files[].byteUsage`` and ``files[].gpuMemory`` (``docs/statistics.md`` defines the figures).

Nothing is recomputed: the functions here only pick the figures of each file and phrase them
once, so the text, Markdown, JUnit and SARIF reports and the dashboard say the same. Estimates
are always marked as such (``~`` and the word "estimated").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assetcheck.reports import Report

#: What each estimated saving is called in the reports.
METHOD_TITLES = {
    "quantization": "Quantization (KHR_mesh_quantization)",
    "meshopt": "meshopt compression (EXT_meshopt_compression)",
    "draco": "Draco compression (KHR_draco_mesh_compression)",
    "ktx2-uastc": "KTX2 UASTC textures (KHR_texture_basisu)",
    "ktx2-etc1s": "KTX2 ETC1S textures (KHR_texture_basisu)",
}
SECTION_TITLE = "Bytes and GPU memory"
ESTIMATES_NOTE = (
    "Savings are estimates, not encodings: how each is made is in the documentation "
    "(docs/statistics.md, Estimated savings)."
)


def format_size(size: int) -> str:
    """Bytes as ``812 B``, ``14.2 KB``, ``3.1 MB``, ``1.2 GB`` (powers of 1024)."""
    if size < 1024:
        return f"{size} B"
    if size < 1 << 20:
        return f"{size / 1024:.1f} KB"
    if size < 1 << 30:
        return f"{size / (1 << 20):.1f} MB"
    return f"{size / (1 << 30):.1f} GB"


@dataclass(frozen=True)
class Share:
    """One bar of a breakdown: a label, its bytes, and its part of the whole (0 to 1)."""

    label: str
    bytes: int
    share: float

    @property
    def size(self) -> str:
        return format_size(self.bytes)

    @property
    def percent(self) -> str:
        return f"{self.share:.0%}" if self.share >= 0.005 or not self.bytes else "<1%"


@dataclass(frozen=True)
class FileCosts:
    """The section for one model file: where its bytes go (empty ``categories`` when it is
    not broken down: ``docs/statistics.md`` says which files are not), its largest items, the
    estimated savings and its textures' GPU memory."""

    filename: str
    total: int
    categories: list[Share]
    attributes: list[Share]
    largest: list[Share]
    savings: list[dict[str, Any]]
    gpu_total: int
    textures: list[dict[str, Any]]
    format: str

    @property
    def not_broken_down(self) -> str:
        """What the reports say of a file that is not broken down."""
        return f"{self.format.upper()} file, not broken down"

    @property
    def empty(self) -> bool:
        return not self.categories and not self.textures


def file_costs(entries: list[dict[str, Any]]) -> list[FileCosts]:
    """The section of each of ``entries`` (the report's ``files``, or the page of them shown)
    that has the figures (reports stored before they existed have none), in their order."""
    found = []
    for entry in entries:
        if "gpuMemory" not in entry:
            continue
        usage = entry.get("byteUsage") or {}
        total = usage.get("totalBytes", entry["byteSize"])
        found.append(
            FileCosts(
                filename=entry["filename"],
                total=total,
                categories=_shares(usage.get("categories", {}), total),
                attributes=_shares(usage.get("attributes", {}), total),
                largest=[
                    Share(item["name"], item["bytes"], item["bytes"] / total if total else 0.0)
                    for item in usage.get("largest", [])
                ],
                savings=usage.get("savings", []),
                gpu_total=entry["gpuMemory"]["totalBytes"],
                textures=entry["gpuMemory"]["textures"],
                format=entry["format"],
            )
        )
    return found


def texture_shares(costs: FileCosts) -> list[Share]:
    """Each texture's GPU memory as a share of the file's total, labelled with its size and
    format: ``Albedo (2048 x 2048 RGBA8)``."""
    return [
        Share(
            f"{t['name']} ({t['width']} x {t['height']} {t['format']})",
            t["bytes"],
            t["bytes"] / costs.gpu_total if costs.gpu_total else 0.0,
        )
        for t in costs.textures
    ]


def _shares(sizes: dict[str, int], total: int) -> list[Share]:
    return [Share(name, size, size / total if total else 0.0) for name, size in sizes.items()]


def saving_title(saving: dict[str, Any]) -> str:
    return METHOD_TITLES.get(saving["method"], saving["method"])


def saving_text(saving: dict[str, Any]) -> str:
    """``~11.4 KB smaller (15.0 KB → ~3.6 KB)``, or ``~2.0 KB larger`` when it grows; with the
    GPU memory when the saving is about textures."""
    change = saving["estimatedSaving"]
    direction = "smaller" if change >= 0 else "larger"
    text = (
        f"~{format_size(abs(change))} {direction} "
        f"({format_size(saving['bytes'])} → ~{format_size(saving['estimatedBytes'])})"
    )
    if "gpuBytes" in saving:
        text += (
            f"; GPU memory {format_size(saving['gpuBytes'])} → "
            f"~{format_size(saving['estimatedGpuBytes'])}"
        )
    return text


def texture_text(texture: dict[str, Any]) -> str:
    """``2048 x 2048 RGBA8, 12 levels: 21.3 MB``."""
    assumed = " (assumed)" if texture["assumedFormat"] else ""
    levels = len(texture["levels"])
    return (
        f"{texture['width']} x {texture['height']} {texture['format']}{assumed}, "
        f"{levels} level{'s' if levels != 1 else ''}: {format_size(texture['bytes'])}"
    )


def plain_lines(costs: FileCosts) -> list[str]:
    """The section of one file as plain lines (the text and JUnit reports)."""
    lines = []
    if costs.categories:
        lines.append(
            f"{costs.filename}: {format_size(costs.total)}: "
            + ", ".join(f"{s.label} {s.size} ({s.percent})" for s in costs.categories)
        )
    else:
        lines.append(f"{costs.filename}: {format_size(costs.total)} ({costs.not_broken_down})")
    if costs.attributes:
        lines.append(
            "  geometry by attribute: " + ", ".join(f"{s.label} {s.size}" for s in costs.attributes)
        )
    if costs.largest:
        lines.append("  largest: " + "; ".join(f"{s.label} {s.size}" for s in costs.largest))
    for saving in costs.savings:
        lines.append(f"  estimated, {saving_title(saving)}: {saving_text(saving)}")
    if costs.textures:
        lines.append(f"  GPU memory of textures: {format_size(costs.gpu_total)}")
        lines += [f"    {t['name']}: {texture_text(t)}" for t in costs.textures]
    return lines


def junit_properties(report: Report) -> list[tuple[str, str]]:
    """The section as JUnit ``property`` (name, value) pairs: bytes in plain integers, the
    rest as the plain text reads it."""
    found = []
    for costs in file_costs(report.get("files", [])):
        name = costs.filename
        found.append((f"bytes {name}", str(costs.total)))
        found += [(f"bytes {name} {s.label}", str(s.bytes)) for s in costs.categories]
        found += [(f"bytes {name} {s.label}", str(s.bytes)) for s in costs.attributes]
        found += [
            (f"largest {name} {rank}", f"{s.label}: {s.size}")
            for rank, s in enumerate(costs.largest, 1)
        ]
        found += [
            (f"estimated saving {name} {saving['method']}", saving_text(saving))
            for saving in costs.savings
        ]
        found.append((f"gpu memory {name}", str(costs.gpu_total)))
        found += [(f"gpu memory {name} {t['name']}", texture_text(t)) for t in costs.textures]
    return found
