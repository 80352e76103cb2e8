"""The materials of an FBX file and the textures connected to their properties, read from the
node tree: runs in the reader's child process, beside the geometry.

FBX 7 connects a texture to the material property it feeds by an object-to-property
connection (``C: "OP", texture, material, "DiffuseColor"``); a ``LayeredTexture`` there stands
for the textures connected to it, each of which feeds the property. A texture shows the
``Video`` connected to it, whose ``Content`` is the embedded image; the walk kept only where
those bytes lie (:class:`~assetcheck.formats.fbx.tree.BlobRef`), so no image is read here.
FBX 6 and older say which texture a polygon shows through its geometry's layer elements
instead (``LayerElementTexture`` for the diffuse colour, ``LayerElementEmissive_Textures``,
``LayerElementNormalMapTextures``...: a ``TextureId`` per polygon, or one for all, numbering
the textures connected to the model), and which material through ``LayerElementMaterial``:
each pair a polygon shows gives the material a slot named as ufbx names it (``Diffuse``,
``Emissive``, ``NormalMap``...).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable, Iterator

import numpy as np

from assetcheck.formats.fbx.model import FbxImage, FbxMaterial, FbxTextureSlot
from assetcheck.formats.fbx.objects import FbxObjects, object_name
from assetcheck.formats.fbx.transforms import model_properties
from assetcheck.formats.fbx.tree import FbxNode

#: The children that name a texture's or a video's image file, the relative one first.
FILENAME_NODES = ("RelativeFilename", "FileName", "Filename")
#: An FBX 6 texture layer element, and the material property it feeds (its middle part;
#: ``LayerElementTexture`` feeds the diffuse colour).
TEXTURE_LAYER = re.compile(r"^LayerElement(?:Texture|(\w+?)_?Textures)$")


def read_materials(objects: FbxObjects) -> tuple[list[FbxMaterial], list[FbxImage]]:
    """The materials in file order, each with its texture slots, and the embedded images the
    slots point at (each video once, in the order first used)."""
    materials = objects.named("Material")
    textures = objects.named("Texture")
    layered = objects.named("LayeredTexture")
    videos = objects.named("Video")
    video_of: dict[Hashable, Hashable] = {}
    layers: dict[Hashable, list[Hashable]] = defaultdict(list)
    for child, parent in objects.links:
        if child in videos and parent in textures:
            video_of.setdefault(parent, child)
        elif child in textures and parent in layered:
            layers[parent].append(child)
    contents = {key: _content(node) for key, node in videos.items()}
    # A video without content shows the content of one naming the same file, as in ufbx:
    # exporters embed a file once however many videos name it.
    by_file = {
        name: key
        for key, node in reversed(videos.items())
        if contents[key]
        for name in _filenames(node)
    }
    images: list[FbxImage] = []
    image_of: dict[Hashable, int] = {}

    def image(texture: Hashable) -> int | None:
        video = video_of.get(texture)
        if video is not None and not contents[video]:
            video = next((by_file[n] for n in _filenames(videos[video]) if n in by_file), None)
        if video is None:
            return None
        if video not in image_of:
            image_of[video] = len(images)
            node = videos[video]
            images.append(FbxImage(object_name(node), _filename(node), contents[video]))
        return image_of[video]

    slots: dict[Hashable, list[FbxTextureSlot]] = defaultdict(list)
    connected = [
        (child, parent, prop)
        for child, parent, prop in objects.property_links
        if parent in materials
    ]
    if objects.legacy:
        connected += _layer_slots(objects, materials, textures)
    for child, parent, prop in connected:
        for texture in [child] if child in textures else layers.get(child, []):
            node = textures[texture]
            filename = _filename(node) or _filename(videos.get(video_of.get(texture)))
            slots[parent].append(FbxTextureSlot(prop, object_name(node), filename, image(texture)))
    found = [
        FbxMaterial(object_name(node), slots[key], model_properties(node))
        for key, node in materials.items()
    ]
    return found, images


def _layer_slots(
    objects: FbxObjects, materials: dict[Hashable, FbxNode], textures: dict[Hashable, FbxNode]
) -> Iterator[tuple[Hashable, Hashable, str]]:
    """FBX 6: (texture, material, property) for each pair a model's polygons show through its
    texture and material layer elements, each once."""
    seen = set()
    owned: dict[Hashable, list[Hashable]] = defaultdict(list)
    for child, parent in objects.links:
        if child in materials or child in textures:
            owned[parent].append(child)
    for key, model in objects.named("Model").items():
        model_materials = [child for child in owned[key] if child in materials]
        model_textures = [child for child in owned[key] if child in textures]
        element = model.child("LayerElementMaterial")
        material_ids = _ids(element, "Materials") if element is not None else np.zeros(1, int)
        for layer in model.children:
            found = TEXTURE_LAYER.match(layer.name)
            if found is None:
                continue
            prop = found[1] or "Diffuse"
            for material, texture in _pairs(material_ids, _ids(layer, "TextureId")):
                if 0 <= material < len(model_materials) and 0 <= texture < len(model_textures):
                    link = (model_textures[texture], model_materials[material], prop)
                    if link not in seen:
                        seen.add(link)
                        yield link


def _ids(element: FbxNode, name: str) -> np.ndarray:
    """A layer element's indices: one for every polygon (``AllSame``) or one per polygon."""
    found = element.child(name)
    return found.array("i8") if found is not None else np.empty(0, np.int64)


def _pairs(materials: np.ndarray, textures: np.ndarray) -> list[tuple[int, int]]:
    """The (material, texture) pairs polygons show: per polygon, or every pair of a single
    value with the other's values."""
    if len(materials) == 1 or len(textures) == 1:
        return [(int(m), int(t)) for m in np.unique(materials) for t in np.unique(textures)]
    length = min(len(materials), len(textures))
    pairs = np.unique(np.stack([materials[:length], textures[:length]], axis=1), axis=0)
    return [(int(m), int(t)) for m, t in pairs]


def _content(video: FbxNode) -> tuple[tuple[int, int], ...]:
    """Where a video's embedded bytes lie (no span for none)."""
    content = video.child("Content")
    spans = content.blob_spans() if content is not None else ()
    return tuple((start, end) for start, end in spans if end > start)


def _filenames(video: FbxNode) -> list[str]:
    """The file names a video gives (absolute and relative)."""
    return [
        found.text() for name in FILENAME_NODES if (found := video.child(name)) and found.text()
    ]


def _filename(node: FbxNode | None) -> str:
    """The image file name a texture or video gives, the relative one first ('' for none)."""
    for name in FILENAME_NODES:
        found = node.child(name) if node is not None else None
        if found is not None and found.text():
            return found.text()
    return ""
