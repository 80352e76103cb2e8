"""The asset model every reader produces.

A reader turns one model file of the upload (a GLB, a glTF, an FBX, an OBJ or a USD, on its own or
inside a ZIP) into one :class:`Asset`. ``Asset.to_dict`` is one entry of the interface's
``result.meshes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the format packages build on the asset model, not the other way round
    from assetcheck.formats.fbx.model import FbxScene, PolygonScene
    from assetcheck.formats.gltf.image_data import ImageStructure
    from assetcheck.formats.gltf.model import GltfDocument
    from assetcheck.formats.obj.model import ObjScene
    from assetcheck.formats.usd.model import UsdScene

from assetcheck.asset.memory import ByteUsage


@dataclass
class MeshPart:
    """One glTF mesh or one FBX mesh of a model file."""

    #: The mesh's name in the file (``mesh <index>`` for an unnamed glTF mesh).
    name: str
    #: Vertices of the mesh, counted as ``docs/statistics.md`` defines.
    vertex_count: int
    #: Triangles after triangulating every polygon, strip and fan.
    triangle_count: int
    #: Materials the mesh's primitives (glTF) or polygons (FBX) use.
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

    #: The material's name in the file.
    name: str
    #: The shading model as the file declares it.
    shading: str
    #: Whether the shading model is physically based.
    pbr: bool
    #: Textures the material uses.
    texture_count: int = 0


@dataclass
class Texture:
    """An image a model uses: embedded (``uri`` is None) or referenced by a relative ``uri``.

    ``asset.textures[i]`` is glTF's ``images[i]`` (JSON pointer ``/images/<i>``).
    """

    #: The image's name, else its file name, else ``image <index>`` (glTF).
    name: str
    #: The path of an external image as the file writes it; None when embedded (a buffer view,
    #: a ``data:`` URI or FBX content).
    uri: str | None = None
    #: The media type (``image/png``...), declared or read from the bytes; None when unknown.
    mime_type: str | None = None
    #: Bytes of the encoded image; None when they could not be read.
    byte_size: int | None = None
    #: Pixels across, read from the image header (PNG, JPEG, WebP, KTX2, GIF, BMP). None when
    #: the bytes could not be read or their header gives no size, and always for FBX textures.
    width: int | None = None
    #: Pixels down; None exactly when ``width`` is.
    height: int | None = None
    #: The structural parse of a glTF image's data (headers and chunks, never pixels), for
    #: the image checks; None when the data could not be read, and for FBX textures.
    structure: ImageStructure | None = None


@dataclass
class Animation:
    """An animation (glTF) or animation stack (FBX)."""

    #: The animation's name in the file.
    name: str
    #: Animated channels (glTF channels, FBX curve nodes).
    channel_count: int = 0
    #: Length in seconds.
    duration: float = 0.0


@dataclass
class Asset:
    """What a reader learned about one model file.

    ``filename`` is the file's name in the upload (the path inside the archive for ZIP members).
    The counts follow the definitions in ``docs/statistics.md``. ``document`` and ``buffers`` hold
    the raw glTF JSON and its resolved buffers (``None`` where a buffer could not be resolved);
    ``details`` holds format-specific scalar facts for the report (for FBX: version, writer,
    units and axes). The format's typed model is ``gltf`` (the document resolved once and
    shared by every check: :class:`~assetcheck.formats.gltf.model.GltfDocument`) or ``fbx``
    (the FBX reader's facts and geometry: :class:`~assetcheck.formats.fbx.model.FbxScene`)
    or ``obj`` (the OBJ reader's meshes: :class:`~assetcheck.formats.obj.model.ObjScene`)
    or ``usd`` (the USD reader's meshes: :class:`~assetcheck.formats.usd.model.UsdScene`).
    ``parsed`` is False when the reader could not read the file at all (not parseable,
    truncated, empty, not what its name says): such an asset carries only its name and format,
    and an upload with no parsed asset grades ``critical``. The engine sets ``byte_size`` (of
    the model file itself) and ``metrics`` (what the file uses of each engine budget, see
    :mod:`assetcheck.scoring.budget_usage`) after reading.
    """

    #: The file's name in the upload (the path inside the archive for a ZIP member).
    filename: str
    #: The name of its file format (``glb``, ``gltf``, ``fbx`` or a plugin's ``FileFormat.name``):
    #: what ``Check.formats`` is matched against.
    format: str
    #: Vertices of every mesh part together.
    vertex_count: int = 0
    #: Triangles of every mesh part together.
    triangle_count: int = 0
    #: Materials of the file.
    material_count: int = 0
    #: Animations of the file.
    animation_count: int = 0
    #: Whether any material is physically based.
    uses_pbr: bool = False
    #: The meshes (glTF ``meshes[i]`` is ``parts[i]``).
    parts: list[MeshPart] = field(default_factory=list)
    #: The materials (glTF ``materials[i]`` is ``materials[i]``).
    materials: list[Material] = field(default_factory=list)
    #: The images (glTF ``images[i]`` is ``textures[i]``).
    textures: list[Texture] = field(default_factory=list)
    #: The animations, or FBX animation stacks.
    animations: list[Animation] = field(default_factory=list)
    #: The glTF JSON as read; None for FBX. Report glTF issues with a JSON ``pointer`` into it.
    document: dict[str, Any] | None = None
    #: The glTF buffers' bytes by index (None where a buffer could not be resolved); emptied
    #: once the checks have run.
    buffers: list[Any] = field(default_factory=list)
    #: Format-specific facts for the report: for FBX the version, writer, units and axes.
    details: dict[str, Any] = field(default_factory=dict)
    #: The glTF document resolved once for every check, the previews and the viewer: its
    #: links, accessor data and prepared meshes (``GltfDocument``); None for FBX and for glTF
    #: that is not 2.x. Let go once the checks have run.
    gltf: GltfDocument | None = None
    #: The FBX reader's typed facts: meshes with their decoded geometry and node instances,
    #: textures, units and axes (``FbxScene``); None for glTF. The geometry arrays are let go
    #: once the checks have run.
    fbx: FbxScene | None = None
    #: The OBJ reader's meshes, as polygon geometry of the FBX model's kind (``ObjScene``);
    #: None for other formats. The geometry arrays are let go once the checks have run.
    obj: ObjScene | None = None
    #: The USD reader's meshes, as polygon geometry of the FBX model's kind (``UsdScene``);
    #: None for other formats. The geometry arrays are let go once the checks have run.
    usd: UsdScene | None = None
    #: Bytes of the model file itself, set by the engine.
    byte_size: int = 0
    #: What the file uses of each engine budget (by budget key), set by the engine.
    metrics: dict[str, int | float | bool] = field(default_factory=dict)
    #: False when the reader could not read the file at all; such an asset has only its name
    #: and format.
    parsed: bool = True
    #: Where the file's bytes go (``docs/statistics.md``), set by its reader; None when the
    #: reader does not break its format down.
    byte_usage: ByteUsage | None = None

    @property
    def polygon_scene(self) -> PolygonScene | None:
        """The FBX, OBJ or USD scene (polygon meshes placed by nodes), for the checks, the
        previews and the viewer; None for other formats."""
        scenes = (self.fbx, self.obj, self.usd)
        return next((scene for scene in scenes if scene is not None), None)

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
