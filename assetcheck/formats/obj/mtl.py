"""MTL material libraries: each material's name, whether it is physically based, and the
images it uses.

Read line by line under the OBJ reader's line limit (:func:`~assetcheck.formats.obj.parse.
bounded_lines`). A material is physically based when it uses any key of the PBR extension of
MTL (``Pr``, ``Pm``, ``Ps``, ``Pc``, ``Pcr``, ``aniso``, ``anisor`` and their ``map_`` forms,
as tinyobjloader, Blender and three.js read them); ``Ke`` and ``norm`` alone are not enough
(classic MTL writers use them too). The image of a ``map_*``, ``bump``, ``norm``, ``disp``,
``decal`` or ``refl`` statement is what follows its options (``-s 1 1 1``, ``-bm 0.5``...):
the rest of the line, so file names may hold spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assetcheck.formats.obj.parse import bounded_lines
from assetcheck.formats.source import FileData

#: Statements that name an image (lower case; MTL keys are matched without case).
TEXTURE_KEYS = frozenset(
    {
        *("map_ka", "map_kd", "map_ks", "map_ns", "map_d", "map_tr", "map_ke", "map_refl"),
        *("map_bump", "bump", "norm", "disp", "decal", "refl"),
        *("map_pr", "map_pm", "map_ps", "map_pc", "map_pcr", "map_aniso", "map_anisor"),
    }
)
#: Keys of the PBR extension of MTL.
PBR_KEYS = frozenset(
    {"pr", "pm", "ps", "pc", "pcr", "aniso", "anisor", "map_pr", "map_pm", "map_ps", "map_pc"}
    | {"map_pcr"}
)
#: Options of texture statements and how many values each takes (at most, for ``-o``,
#: ``-s`` and ``-t``, whose later values are optional).
TEXTURE_OPTIONS = {
    "-blendu": 1,
    "-blendv": 1,
    "-bm": 1,
    "-boost": 1,
    "-cc": 1,
    "-clamp": 1,
    "-imfchan": 1,
    "-mm": 2,
    "-o": 3,
    "-s": 3,
    "-t": 3,
    "-texres": 1,
    "-type": 1,
}


@dataclass
class MtlMaterial:
    """One ``newmtl``: its images as ``(key, path as written)`` in file order."""

    name: str
    pbr: bool = False
    images: list[tuple[str, str]] = field(default_factory=list)


def read_mtl(data: FileData) -> dict[str, MtlMaterial]:
    """The materials of a material library by name (a later definition of a name replaces an
    earlier one). Raises :class:`~assetcheck.formats.obj.parse.StopReading` for a line longer
    than the OBJ reader accepts."""
    materials: dict[str, MtlMaterial] = {}
    current: MtlMaterial | None = None
    for raw in bounded_lines(data):
        line = raw.decode("utf-8", "replace").strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        key, rest = key.lower(), rest.strip()
        if key == "newmtl":
            current = materials[rest] = MtlMaterial(rest)
        elif current is None:
            continue
        else:
            current.pbr = current.pbr or key in PBR_KEYS
            if key in TEXTURE_KEYS:
                path = texture_path(rest)
                if path:
                    current.images.append((key, path))
    return materials


def texture_path(arguments: str) -> str:
    """The image a texture statement names: its arguments after the options (an option takes
    its first value whatever it is, its later ones when they are numbers)."""
    words = arguments.split()
    position = 0
    while position < len(words) - 1 and words[position].lower() in TEXTURE_OPTIONS:
        most = TEXTURE_OPTIONS[words[position].lower()]
        position += 2
        for _ in range(most - 1):
            if position < len(words) - 1 and _is_number(words[position]):
                position += 1
    return " ".join(words[position:])


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True
