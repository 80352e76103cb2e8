"""Where the bytes of a glTF or GLB file go (``docs/statistics.md``, "Where the bytes go").

Every byte is given to exactly one category, so the categories add up to the total: for a GLB
its file size; for a glTF the file and the external buffers and images it loads. A buffer's
bytes belong to the buffer views over them, each view to what reads it (a mesh attribute, its
indices, an animation sampler, a skin's matrices, an image; the first user of an accessor shared
by several); a view several accessors read (interleaved vertices) is split in proportion to
the bytes each accessor spans. Bytes two views share count once, for the view that starts
first. A gap between views of up to :data:`ALIGNMENT_GAP` bytes is padding, a larger one (and a
view nothing reads) unreferenced. Draco payloads count as their mesh's geometry, and the
compressed bytes of a meshopt view as what the view holds.
"""

from __future__ import annotations

import struct
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from assetcheck.asset import Asset, Texture
from assetcheck.asset.memory import ByteUsage, largest
from assetcheck.formats.gltf.byte_savings import Label, geometry_savings
from assetcheck.formats.gltf.compression import MESHOPT_EXTENSIONS
from assetcheck.formats.gltf.fields import as_integer
from assetcheck.formats.gltf.glb_layout import BIN_CHUNK, HEADER_LENGTH, JSON_CHUNK
from assetcheck.formats.gltf.links import DocumentLinks, index_of, uses
from assetcheck.formats.texture_memory import ktx2_savings

#: Gaps between buffer views up to this many bytes are alignment padding (glTF aligns to 4;
#: some exporters to 8 or 16); larger ones are bytes nothing reads.
ALIGNMENT_GAP = 15
DRACO = "KHR_draco_mesh_compression"
_CHUNK = struct.Struct("<II")


@dataclass
class Tally:
    """Bytes counted so far: per category, per geometry attribute, per named item."""

    categories: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    attributes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    items: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))

    def add(self, label: Label, size: int) -> None:
        if size <= 0:
            return
        category, attribute, name = label
        self.categories[category] += size
        if category == "geometry" and attribute:
            self.attributes[attribute] += size
        self.items[(category, f"{name} {attribute}".strip())] += size

    def gap(self, size: int, name: str) -> None:
        self.add(("padding" if size <= ALIGNMENT_GAP else "unreferenced", "", name), size)


class Span(NamedTuple):
    """Bytes ``start`` to ``end`` of a buffer, held by buffer view ``view`` (a named tuple:
    a document has one per buffer view, made cheaply)."""

    start: int
    end: int
    view: int


def gltf_byte_usage(asset: Asset, data: Any, links: DocumentLinks) -> ByteUsage:
    """Where the bytes of the glTF or GLB ``asset`` (read from ``data``) go."""
    tally = Tally()
    labels = accessor_labels(links)
    readers = ViewReaders(links, labels)
    spans = buffer_spans(links)
    buffers = links.items("buffers")
    first = None
    if asset.format == "glb":
        if buffers and isinstance(buffers[0], dict) and "uri" not in buffers[0]:
            first = 0  # buffer 0 is the BIN chunk
        glb_sections(data, tally, spans.get(0, []) if first == 0 else [], readers)
    else:
        tally.add(("json", "", "JSON"), len(data) - embedded_text(links))
    for index, buffer in enumerate(buffers):
        if index == first or not isinstance(buffer, dict):
            continue
        held = asset.buffers[index] if index < len(asset.buffers) else None
        uri = buffer.get("uri")
        embedded = uri if isinstance(uri, str) and uri.startswith("data:") else ""
        if held is None:  # its data: URI's text, if any, is all that is left of it
            tally.add(("unreferenced", "", f"buffer {index} (unreadable)"), len(embedded))
            continue
        if embedded:
            tally.add(("container", "", "base64 of data: URIs"), len(embedded) - len(held))
        sweep(len(held), spans.get(index, []), readers, tally, f"buffer {index}")
    external_images(links, asset.textures, tally)
    categories = dict(tally.categories)
    return ByteUsage(
        total=sum(categories.values()),
        categories=categories,
        attributes=dict(sorted(tally.attributes.items(), key=lambda entry: -entry[1])),
        items=largest(tally.items),
        savings=geometry_savings(links, labels) + ktx2_savings(asset.textures),
    )


def glb_sections(data: Any, tally: Tally, spans: list[Span], readers: ViewReaders) -> None:
    """Count the GLB's header, chunk headers, JSON (its trailing spaces are padding), and the
    BIN chunk through ``spans``; bytes past the last whole chunk are unreferenced."""
    view = memoryview(data)
    tally.add(("container", "", "GLB header"), min(HEADER_LENGTH, len(view)))
    offset = HEADER_LENGTH
    while offset + _CHUNK.size <= len(view):
        length, kind = _CHUNK.unpack_from(view, offset)
        start = offset + _CHUNK.size
        end = min(start + length, len(view))
        tally.add(("container", "", "GLB chunk headers"), _CHUNK.size)
        if kind == JSON_CHUNK:
            text = bytes(view[start:end])
            padding = len(text) - len(text.rstrip(b" "))
            tally.add(("json", "", "JSON"), end - start - padding)
            tally.add(("padding", "", "JSON chunk padding"), padding)
        elif kind == BIN_CHUNK:
            sweep(end - start, spans, readers, tally, "BIN chunk")
        else:
            tally.add(("unreferenced", "", "unknown GLB chunks"), end - start)
        offset = end
    tally.add(("unreferenced", "", "bytes after the last chunk"), len(view) - offset)


def sweep(length: int, spans: list[Span], readers: ViewReaders, tally: Tally, where: str) -> None:
    """Count ``length`` bytes of one buffer: each span's bytes for its view's readers (once
    where spans overlap), the gaps between spans as padding or unreferenced."""
    cursor = 0
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        start, end = max(span.start, cursor), min(span.end, length)
        if start >= length:
            break
        if start > cursor:
            tally.gap(start - cursor, f"{where} gaps")
        if end > start:
            readers.count(span.view, end - start, tally)
        cursor = max(cursor, end)
    if length > cursor:
        tally.gap(length - cursor, f"{where} gaps")


def buffer_spans(links: DocumentLinks) -> dict[int, list[Span]]:
    """Each buffer's spans: the buffer views over it, and the compressed bytes of meshopt
    views (which also keep their own span, over a fallback buffer that usually has none)."""
    spans: dict[int, list[Span]] = defaultdict(list)
    for index, view in enumerate(links.items("bufferViews")):
        if view is None:
            continue
        extensions = view.get("extensions")
        for name in MESHOPT_EXTENSIONS:
            compressed = extensions.get(name) if isinstance(extensions, dict) else None
            if isinstance(compressed, dict):
                _add_span(spans, compressed, index)
        _add_span(spans, view, index)
    return spans


def _add_span(spans: dict[int, list[Span]], extent: dict, view: int) -> None:
    buffer = as_integer(extent.get("buffer"))
    offset = as_integer(extent.get("byteOffset", 0))
    length = as_integer(extent.get("byteLength"))
    if buffer is not None and offset is not None and length and offset >= 0 and length > 0:
        spans[buffer].append(Span(offset, offset + length, view))


class ViewReaders:
    """What reads each buffer view, with the share of its bytes each reader spans."""

    def __init__(self, links: DocumentLinks, labels: dict[int, Label]) -> None:
        self.views = links.items("bufferViews")
        self.accessor_labels = labels
        self.shares: dict[int, dict[Label, int]] = defaultdict(lambda: defaultdict(int))
        strides: dict[int, int | None] = {}
        for index, layout in enumerate(links.layouts):
            if layout is None or layout.buffer_view is None:
                continue
            label = self.accessor_labels.get(index) or ("other", "", f"accessor {index}")
            if layout.buffer_view not in strides:
                strides[layout.buffer_view] = self._stride(layout.buffer_view)
            span = layout.span(layout.count, strides[layout.buffer_view])
            self.shares[layout.buffer_view][label] += max(1, span)
        for use in uses(links):
            if use.collection == "bufferViews" and "/sparse/" in use.pointer:
                owner = int(use.pointer.split("/")[2])
                label = self.accessor_labels.get(owner) or ("other", "", f"accessor {owner}")
                self.shares[use.index][label] += 1
        for index, image in enumerate(links.items("images")):
            view = index_of(image, "bufferView")
            if view is not None:
                self.shares[view][("images", "", item_name(image, "image", index))] += 1
        for mesh_index, mesh in enumerate(links.items("meshes")):
            for primitive in _objects(mesh.get("primitives") if mesh else None):
                extensions = primitive.get("extensions")
                draco = extensions.get(DRACO) if isinstance(extensions, dict) else None
                view = index_of(draco, "bufferView")
                if view is not None:
                    name = item_name(mesh, "mesh", mesh_index)
                    self.shares[view][("geometry", "Draco", name)] += 1

    def _stride(self, index: int) -> int | None:
        """The ``byteStride`` of view ``index`` when it is a usable one, else None."""
        view = self.views[index] if 0 <= index < len(self.views) else None
        stride = as_integer(view.get("byteStride")) if view is not None else None
        return stride if stride and stride > 0 else None

    def count(self, view: int, size: int, tally: Tally) -> None:
        """Give ``size`` bytes of ``view`` to its readers in proportion to their shares
        (largest remainders, so the parts add up to ``size``)."""
        shares = self.shares.get(view)
        if not shares:
            tally.add(("unreferenced", "", f"buffer view {view} (nothing reads it)"), size)
            return
        if len(shares) == 1:  # the common case: one reader takes it all
            tally.add(next(iter(shares)), size)
            return
        whole = sum(shares.values())
        parts = {label: size * share // whole for label, share in shares.items()}
        left = size - sum(parts.values())
        by_remainder = sorted(shares, key=lambda label: -(size * shares[label] % whole))
        for label in by_remainder[:left]:
            parts[label] += 1
        for label, part in parts.items():
            tally.add(label, part)


def accessor_labels(links: DocumentLinks) -> dict[int, Label]:
    """What reads each accessor, by its first use: (category, attribute, item name)."""
    labels: dict[int, Label] = {}
    for use in uses(links):
        if use.collection != "accessors" or use.index in labels:
            continue
        parts = use.pointer.split("/")
        owner, number = parts[1], int(parts[2])
        item = links.items(owner)[number]
        if owner == "meshes":
            name = item_name(item, "mesh", number)
            if use.role == "PrimitiveIndices":
                labels[use.index] = ("indices", "indices", name)
            elif "targets" in parts:
                labels[use.index] = ("geometry", "morph targets", name)
            else:
                labels[use.index] = ("geometry", parts[-1], name)
        elif owner == "skins":
            labels[use.index] = ("skins", "inverse bind matrices", item_name(item, "skin", number))
        elif owner == "animations":
            name = item_name(item, "animation", number)
            labels[use.index] = ("animation", parts[-1], name)  # the samplers' input or output
    return labels


def item_name(item: dict | None, kind: str, index: int) -> str:
    """``mesh 'Body'`` for a named object, ``mesh 3`` for an unnamed one."""
    name = item.get("name") if isinstance(item, dict) else None
    return f"{kind} '{name}'" if isinstance(name, str) and name else f"{kind} {index}"


def embedded_text(links: DocumentLinks) -> int:
    """The characters of the ``data:`` URIs of buffers and images: not JSON structure but the
    data they hold, counted with the buffers (and base64's overhead as container)."""
    return sum(
        len(uri)
        for kind in ("buffers", "images")
        for item in links.items(kind)
        if item is not None and isinstance(uri := item.get("uri"), str) and uri.startswith("data:")
    )


def external_images(links: DocumentLinks, textures: list[Texture], tally: Tally) -> None:
    """Count the images a glTF holds in ``data:`` URIs (their decoded bytes, the rest of the
    text as container) and the image files it loads beside it."""
    by_uri = {texture.uri: texture for texture in textures if texture.uri is not None}
    for index, image in enumerate(links.items("images")):
        uri = image.get("uri") if image is not None else None
        if not isinstance(uri, str):
            continue
        name = item_name(image, "image", index)
        if uri.startswith("data:"):
            decoded = data_uri_bytes(uri)
            tally.add(("images", "", name), decoded)
            tally.add(("container", "", "base64 of data: URIs"), len(uri) - decoded)
        elif uri in by_uri and by_uri[uri].byte_size:
            tally.add(("images", "", name), by_uri[uri].byte_size or 0)


def data_uri_bytes(uri: str) -> int:
    """The bytes a base64 ``data:`` URI decodes to (its text's length when not base64)."""
    head, _, payload = uri.partition(",")
    if not head.endswith(";base64"):
        return len(payload)
    payload = payload.rstrip("=")
    return len(payload) * 3 // 4


def _objects(value: object) -> list[dict]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
