"""What the viewer's GLB of an FBX file carries of its materials and textures, and where the
report's FBX texture findings show on it (``docs/dashboard.md``, Issues on the model).

The GLB still draws every polygon in clay, but each mesh's polygons are split by material into
primitives of a GLB material named after it (material 0, :data:`~.viewer_glb.CLAY`, keeps
the polygons that have none), and it carries the image of each texture a material property
samples that the browser decodes (PNG or JPEG): embedded in the FBX, or a file the upload
holds beside it (looked up as the reader sized it: relative paths only, inside the upload).

FBX findings have no JSON pointer: the texture findings name an image and a material property
in their message (``Image bumps (bumps.png), the normal map of material Wood (slot
NormalMap)``). The overlays list every texture use (:attr:`ViewerMaterials.uses`) under those
names, cut as the report cuts them: ``material``, the material property; ``images``, the
image as the texture content findings name it (the video's name) and as the texel density
findings do (the texture's); ``viewerMaterial``, the GLB material whose primitives are the
polygons drawn with it; ``viewerImage``, the GLB image, when the GLB carries it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assetcheck.asset import Asset
from assetcheck.formats.fbx.model import FbxMesh, FbxScene, FbxTextureSlot, PolygonMesh
from assetcheck.formats.images import image_info
from assetcheck.formats.source import SourceFile
from assetcheck.issues.names import cut_name
from assetcheck.previews.viewer_glb import BROWSER_IMAGES


@dataclass
class ViewerMaterials:
    """The FBX materials and images the viewer's GLB carries: ``names``, the materials (GLB
    material ``i + 1`` is ``names[i]``); ``images``, each image's bytes and media type (GLB
    image ``i``); ``uses``, the overlays' list of texture uses (see the module)."""

    names: list[str] = field(default_factory=list)
    images: list[tuple[bytes | memoryview, str]] = field(default_factory=list)
    uses: list[dict[str, Any]] = field(default_factory=list)

    def material(self, name: str) -> int:
        """The GLB material of the FBX material ``name`` (0, the clay, for an unknown one)."""
        return self.names.index(name) + 1 if name in self.names else 0

    def triangle_materials(self, mesh: PolygonMesh) -> np.ndarray | None:
        """The GLB material of each of the mesh's triangles (in the order of
        :meth:`~assetcheck.formats.fbx.model.FbxGeometry.triangles`), or None when it draws
        all of them in clay (not an FBX mesh, or one without materials)."""
        if not isinstance(mesh, FbxMesh) or mesh.geometry is None or not mesh.materials:
            return None
        slots = mesh.geometry.triangle_slots()
        chosen = np.array([self.material(name) for name in mesh.materials], np.int32)
        inside = (slots >= 0) & (slots < len(chosen))
        return np.where(inside, chosen[np.where(inside, slots, 0)], 0)


def viewer_materials(asset: Asset, source: SourceFile) -> ViewerMaterials | None:
    """The materials and images of the FBX file ``source`` read as ``asset`` for its viewer
    GLB; None for a file that is not FBX."""
    scene = asset.fbx
    if scene is None:
        return None
    shown = ViewerMaterials(names=list(dict.fromkeys(m.name for m in scene.materials)))
    uris = {texture.name: texture.uri for texture in asset.textures if texture.uri}
    image_of: dict[Hashable, int | None] = {}
    for material in scene.materials:
        for slot in material.slots:
            key: Hashable = slot.image if slot.image is not None else uris.get(slot.texture)
            if key not in image_of:
                image_of[key] = _add_image(shown, _image_bytes(scene, source, slot, key))
            use = {
                "material": cut_name(material.slot_label(slot)),
                "images": _image_labels(scene, slot),
                "viewerMaterial": shown.material(material.name),
            }
            if image_of[key] is not None:
                use["viewerImage"] = image_of[key]
            shown.uses.append(use)
    return shown


def _image_labels(scene: FbxScene, slot: FbxTextureSlot) -> list[str]:
    """The names the texture findings give the image of ``slot``: the embedded image's (the
    content findings') and the texture's (the texel density findings'), each once."""
    labels = [scene.images[slot.image].label] if slot.image is not None else []
    return list(dict.fromkeys(cut_name(label) for label in [*labels, slot.label]))


def _image_bytes(
    scene: FbxScene, source: SourceFile, slot: FbxTextureSlot, key: Hashable
) -> bytes | memoryview | None:
    """The encoded image of ``slot``: the embedded image's bytes, else those of the file the
    reader looked up beside the model (``key``, its path as written), else None."""
    if slot.image is not None:
        return scene.image_data(slot.image)
    return source.read_resource(key.replace("\\", "/")) if isinstance(key, str) else None


def _add_image(shown: ViewerMaterials, data: bytes | memoryview | None) -> int | None:
    """Add ``data`` to the GLB's images when the browser decodes it; its index, else None."""
    info = image_info(data) if data is not None else None
    if data is None or info is None or info.mime_type not in BROWSER_IMAGES:
        return None
    shown.images.append((data, info.mime_type))
    return len(shown.images) - 1
