"""Where the bytes of a binary FBX file go (``docs/statistics.md``, "Where the bytes go").

Each node's record says where it ends, so a walk over the top-level nodes and over the objects
inside ``Objects`` sizes every object without reading its properties: geometries are geometry,
embedded videos (texture files) images, animation stacks, layers, curve nodes and curves
animation, deformers and poses skins; models, materials, textures, node attributes and every
other top-level node (header, settings, definitions, connections, takes) the scene. The file
header, footer and the records that only hold others are the container. Objects are named by
their FBX name (``geometry 'Body'``). A geometry is not split per attribute: its arrays are
often zlib-compressed together with their layers, and an attribute's share of a compressed
array is not a byte count of the file. ASCII FBX is not broken down (its reader keeps no
offsets), nor a binary file whose records do not add up (the walk has then reported it).
"""

from __future__ import annotations

import struct
from typing import Any

from assetcheck.asset.memory import ByteUsage, largest
from assetcheck.formats.fbx import FBX_BINARY_MAGIC

HEADER_SIZE = 27
#: The category of each object type inside ``Objects`` (any other is scene).
OBJECT_CATEGORIES = {
    b"Geometry": "geometry",
    b"Video": "images",
    b"AnimationStack": "animation",
    b"AnimationLayer": "animation",
    b"AnimationCurveNode": "animation",
    b"AnimationCurve": "animation",
    b"Deformer": "skins",
    b"Pose": "skins",
}
#: Object types listed one by one among the largest items (the others summed per type).
NAMED_OBJECTS = frozenset({b"Geometry", b"Video", b"AnimationStack", b"Deformer", b"Model"})


def fbx_byte_usage(data: Any) -> ByteUsage | None:
    """Where the bytes of the binary FBX in ``data`` go; None for ASCII FBX and for a file
    whose node records do not add up."""
    view = memoryview(data)
    if bytes(view[: len(FBX_BINARY_MAGIC)]) != FBX_BINARY_MAGIC or len(view) < HEADER_SIZE:
        return None
    endian = ">" if view[22] else "<"
    version = struct.unpack_from(endian + "I", view, 23)[0]
    record = struct.Struct(endian + ("QQQB" if version >= 7500 else "IIIB"))
    walk = _Walk(view, record, endian)
    if not walk.top_level():
        return None
    categories = {name: size for name, size in walk.categories.items() if size}
    return ByteUsage(
        total=sum(categories.values()), categories=categories, items=largest(walk.items)
    )


class _Walk:
    def __init__(self, view: memoryview, record: struct.Struct, endian: str) -> None:
        self.view = view
        self.record = record
        self.length = struct.Struct(endian + "I")
        self.categories: dict[str, int] = {"container": HEADER_SIZE}
        self.items: dict[tuple[str, str], int] = {}

    def add(self, category: str, name: str, size: int) -> None:
        self.categories[category] = self.categories.get(category, 0) + size
        self.items[(category, name)] = self.items.get((category, name), 0) + size

    def top_level(self) -> bool:
        """Size every top-level node; False when a record does not add up."""
        position = HEADER_SIZE
        while True:
            node = self.node(position, len(self.view))
            if node is None:
                return False
            end, name, props_end = node
            if end == 0:  # the empty record closing the top level, then the footer
                self.add("container", "FBX header and footer", len(self.view) - position)
                return True
            if name == b"Objects":
                self.add("container", "FBX record headers", props_end - position)
                if not self.objects(props_end, end):
                    return False
            else:
                self.add("scene", name.decode("latin-1"), end - position)
            position = end

    def objects(self, start: int, end: int) -> bool:
        """Size each object inside ``Objects`` (bytes ``start`` to ``end``)."""
        position = start
        while position < end:
            node = self.node(position, end)
            if node is None:
                return False
            child_end, name, props_end = node
            if child_end == 0:
                self.add("container", "FBX record headers", end - position)
                return True
            category = OBJECT_CATEGORIES.get(name, "scene")
            kind = name.decode("latin-1")
            label = (
                f"{kind.lower()} '{self.object_name(position, props_end)}'"
                if name in NAMED_OBJECTS
                else kind
            )
            self.add(category, label, child_end - position)
            position = child_end
        return True

    def node(self, position: int, limit: int) -> tuple[int, bytes, int] | None:
        """(end, name, end of properties) of the record at ``position``; (0, b"", position)
        for an empty record; None when it does not fit in ``limit``."""
        if position + self.record.size > limit:
            return None
        end, _, props_length, name_length = self.record.unpack_from(self.view, position)
        if end == 0:
            return 0, b"", position + self.record.size
        name_start = position + self.record.size
        props_end = name_start + name_length + props_length
        if not props_end <= end <= limit:
            return None
        return end, bytes(self.view[name_start : name_start + name_length]), props_end

    def object_name(self, position: int, props_end: int) -> str:
        """The FBX name of the object at ``position``: its string property ``Name\\0\\1Class``
        (the second in FBX 7, the first before), or its type when it has none."""
        start = position + self.record.size + self.view[position + self.record.size - 1]
        for _ in range(2):
            if start + 5 > props_end:
                break
            code = self.view[start]
            if code == ord("S"):
                length = self.length.unpack_from(self.view, start + 1)[0]
                text = bytes(self.view[start + 5 : min(start + 5 + length, props_end)])
                return text.split(b"\x00\x01")[0].decode("utf-8", "replace")
            if code != ord("L"):
                break
            start += 9
        return "unnamed"
