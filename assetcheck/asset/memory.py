"""What a model file costs: the GPU memory of its textures and where its bytes go.

The neutral model the readers fill and the reports render; ``docs/statistics.md`` ("GPU memory"
and "Where the bytes go") defines every figure and how the estimates are made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: The categories of a file's bytes, in the order the reports list them.
CATEGORIES = (
    "geometry",
    "indices",
    "animation",
    "skins",
    "images",
    "json",
    "scene",
    "container",
    "other",
    "padding",
    "unreferenced",
)
#: How many of the largest named items a breakdown keeps.
LARGEST_ITEMS = 10
#: Categories of bookkeeping, left out of the largest items (their totals are enough).
BOOKKEEPING = frozenset({"container", "padding"})


class GpuMemory(NamedTuple):
    """The GPU memory of one texture with its mip chain: the format it is stored in on the GPU
    and the bytes of each level, largest first. ``assumed`` is True when the file does not say
    the format and the bytes are those of the format named."""

    format: str
    levels: tuple[int, ...]
    assumed: bool = False

    @property
    def bytes(self) -> int:
        return sum(self.levels)


class TextureMemory(NamedTuple):
    """One texture's GPU memory, as a report lists it."""

    name: str
    width: int
    height: int
    memory: GpuMemory

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "format": self.memory.format,
            "assumedFormat": self.memory.assumed,
            "levels": list(self.memory.levels),
            "bytes": self.memory.bytes,
        }


class ByteItem(NamedTuple):
    """A named part of a file and its bytes: ``mesh 'Body' POSITION``, ``image 'Albedo'``."""

    category: str
    name: str
    bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "name": self.name, "bytes": self.bytes}


class Saving(NamedTuple):
    """What one method would make of some of a file's bytes, estimated: ``bytes`` of
    ``target`` now, ``estimated_bytes`` after (and for textures their GPU memory now and
    after). How each method is estimated is in ``docs/statistics.md``, not in every report."""

    method: str
    target: str
    bytes: int
    estimated_bytes: int
    gpu_bytes: int | None = None
    estimated_gpu_bytes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "method": self.method,
            "target": self.target,
            "bytes": self.bytes,
            "estimatedBytes": self.estimated_bytes,
            "estimatedSaving": self.bytes - self.estimated_bytes,
        }
        if self.gpu_bytes is not None and self.estimated_gpu_bytes is not None:
            found["gpuBytes"] = self.gpu_bytes
            found["estimatedGpuBytes"] = self.estimated_gpu_bytes
        return found


@dataclass
class ByteUsage:
    """Where the bytes of one model file (and the resources it loads) go.

    ``categories`` (by :data:`CATEGORIES`) add up to ``total``: the file's size, plus the
    external buffers and images a glTF loads. ``attributes`` splits ``geometry`` by vertex
    attribute; ``items`` are the largest named parts, largest first; ``savings`` what
    compression would save, estimated.
    """

    total: int
    categories: dict[str, int]
    attributes: dict[str, int] = field(default_factory=dict)
    items: list[ByteItem] = field(default_factory=list)
    savings: list[Saving] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "totalBytes": self.total,
            "categories": {
                name: self.categories[name] for name in CATEGORIES if self.categories.get(name)
            },
            "attributes": dict(self.attributes),
            "largest": [item.to_dict() for item in self.items],
            "savings": [saving.to_dict() for saving in self.savings],
        }


def largest(items: dict[tuple[str, str], int]) -> list[ByteItem]:
    """The :data:`LARGEST_ITEMS` largest of ``items`` (by (category, name)) that hold data,
    not :data:`BOOKKEEPING`, largest first, ties by name."""
    held = [entry for entry in items.items() if entry[0][0] not in BOOKKEEPING]
    ordered = sorted(held, key=lambda entry: (-entry[1], entry[0][1]))
    return [
        ByteItem(category, name, size) for (category, name), size in ordered[:LARGEST_ITEMS] if size
    ]
