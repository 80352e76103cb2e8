"""The materials of an FBX file and the textures connected to their properties, read from the
node tree: runs in the reader's child process, beside the geometry.

FBX 7 connects a texture to the material property it feeds by an object-to-property
connection (``C: "OP", texture, material, "DiffuseColor"``); a ``LayeredTexture`` there stands
for the textures connected to it, each of which feeds the property. A texture shows the
``Video`` connected to it, whose ``Content`` is the embedded image; the walk kept only where
those bytes lie (:class:`~assetcheck.formats.fbx.tree.BlobRef`), so no image is read here.
FBX 6 and older name their textures' uses through the geometry's layer elements
(``LayerElementTexture``...) rather than connections: their materials get no slots
(``docs/textures.md``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

from assetcheck.formats.fbx.model import FbxImage, FbxMaterial, FbxTextureSlot
from assetcheck.formats.fbx.objects import FbxObjects, object_name
from assetcheck.formats.fbx.transforms import model_properties
from assetcheck.formats.fbx.tree import FbxNode

#: The children that name a texture's or a video's image file, the relative one first.
FILENAME_NODES = ("RelativeFilename", "FileName", "Filename")


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
    for child, parent, prop in objects.property_links:
        if parent not in materials:
            continue
        for texture in [child] if child in textures else layers.get(child, []):
            node = textures[texture]
            filename = _filename(node) or _filename(videos.get(video_of.get(texture)))
            slots[parent].append(FbxTextureSlot(prop, object_name(node), filename, image(texture)))
    found = [
        FbxMaterial(object_name(node), slots[key], model_properties(node))
        for key, node in materials.items()
    ]
    return found, images


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
