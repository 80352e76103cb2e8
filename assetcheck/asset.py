"""The asset model every reader produces.

A reader turns one model file of the upload (a GLB, a glTF or an FBX, on its own or inside a ZIP)
into one :class:`Asset`. ``Asset.to_dict`` is one entry of the interface's ``result.meshes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assetcheck.fbx_model import FbxScene
from assetcheck.image_structure import ImageStructure


@dataclass
class MeshPart:
    """One glTF mesh or one FBX mesh of a model file."""

    name: str
    vertex_count: int
    triangle_count: int
    material_count: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "vertexCount": self.vertex_count,
            "triangleCount": self.triangle_count,
            "materialCount": self.material_count,
        }


@dataclass
class Material:
    """A material and its shading model: ``metallicRoughness``, ``phong``, ``standardSurface``..."""

    name: str
    shading: str
    pbr: bool
    texture_count: int = 0


@dataclass
class Texture:
    """An image a model uses: embedded (``uri`` is None) or referenced by a relative ``uri``.

    ``structure`` is the structural parse of a glTF image's data (None when the data could not
    be read), for the image checks.
    """

    name: str
    uri: str | None = None
    mime_type: str | None = None
    byte_size: int | None = None
    width: int | None = None
    height: int | None = None
    structure: ImageStructure | None = None


@dataclass
class Animation:
    """An animation (glTF) or animation stack (FBX)."""

    name: str
    channel_count: int = 0
    duration: float = 0.0


@dataclass
class Asset:
    """What a reader learned about one model file.

    ``filename`` is the file's name in the upload (the path inside the archive for ZIP members).
    The counts follow the definitions in ``docs/statistics.md``. ``document`` and ``buffers`` hold
    the raw glTF JSON and its resolved buffers (``None`` where a buffer could not be resolved);
    ``details`` holds format-specific scalar facts for the report (for FBX: version, writer,
    units and axes); ``fbx`` the FBX reader's typed facts and geometry
    (:class:`~assetcheck.fbx_model.FbxScene`), None for other formats.
    ``parsed`` is False when the reader could not read the file at all (not parseable,
    truncated, empty, not what its name says): such an asset carries only its name and format,
    and an upload with no parsed asset grades ``critical``. The engine sets ``byte_size`` (of
    the model file itself) and ``metrics`` (what the file uses of each engine budget, see
    :mod:`assetcheck.metrics`) after reading.
    """

    filename: str
    format: str
    vertex_count: int = 0
    triangle_count: int = 0
    material_count: int = 0
    animation_count: int = 0
    uses_pbr: bool = False
    parts: list[MeshPart] = field(default_factory=list)
    materials: list[Material] = field(default_factory=list)
    textures: list[Texture] = field(default_factory=list)
    animations: list[Animation] = field(default_factory=list)
    document: dict[str, Any] | None = None
    buffers: list[Any] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    fbx: FbxScene | None = None
    byte_size: int = 0
    metrics: dict[str, int | float | bool] = field(default_factory=dict)
    parsed: bool = True

    @classmethod
    def unread(cls, filename: str, format: str) -> Asset:
        """The asset of a model file its reader could not read at all."""
        return cls(filename=filename, format=format, parsed=False)

    def to_dict(self) -> dict[str, Any]:
        """One entry of ``result.meshes``: the interface's fields, then ``parts``."""
        return {
            "filename": self.filename,
            "vertexCount": self.vertex_count,
            "triangleCount": self.triangle_count,
            "materialCount": self.material_count,
            "usesPBR": self.uses_pbr,
            "animationCount": self.animation_count,
            "parts": [part.to_dict() for part in self.parts],
        }
