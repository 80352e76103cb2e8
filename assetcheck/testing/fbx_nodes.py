"""Encoding FBX node trees as binary (6.1, 7.x, 7.5+ with 64-bit offsets) or ASCII bytes.

Trees are written exactly as given, so tests can build hostile structures: deep nesting,
arrays whose header lies about their size (:class:`Array`), any node anywhere.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

BINARY_MAGIC = b"Kaydara FBX Binary  \x00\x1a\x00"
FOOTER_ID = bytes.fromhex("fabcab09d0c8d466b176fb831cf7267e")
FOOTER_MAGIC = bytes.fromhex("f85a8c6adef5d97eece90ce3758f290b")

_ARRAY_FORMATS = {"d": "d", "f": "f", "i": "i", "l": "q", "b": "B", "c": "B"}


@dataclass
class Array:
    """A typed array property (``d f i l b c``), raw or zlib-compressed.

    ``declared_count`` replaces the element count written in the array header, and ``payload``
    the encoded bytes: hostile files use them to declare far more than they hold.
    """

    type: str
    values: Sequence[float | int]
    compress: bool = False
    declared_count: int | None = None
    payload: bytes | None = None

    def encoded(self) -> bytes:
        if self.payload is not None:
            return self.payload
        raw = struct.pack(f"<{len(self.values)}{_ARRAY_FORMATS[self.type]}", *self.values)
        return zlib.compress(raw) if self.compress else raw

    @property
    def count(self) -> int:
        return len(self.values) if self.declared_count is None else self.declared_count


@dataclass
class Node:
    """One FBX node: a name, properties (int, float, str, bytes or :class:`Array`), children."""

    name: str
    props: list[object] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)


# -- binary -------------------------------------------------------------------------------------


def encode_binary(nodes: Iterable[Node], version: int = 7400) -> bytes:
    """A binary FBX file holding ``nodes`` at the top level, with the usual footer.

    From version 7500 on, node headers use 64-bit fields, as the FBX SDK writes them.
    """
    wide = version >= 7500
    out = bytearray(BINARY_MAGIC + struct.pack("<I", version))
    for node in nodes:
        out += _binary_node(node, len(out), wide)
    out += bytes(_header_size(wide))
    out += FOOTER_ID + bytes(-(len(out) + len(FOOTER_ID)) % 16)
    out += struct.pack("<I", version) + bytes(120) + FOOTER_MAGIC
    return bytes(out)


def _header_size(wide: bool) -> int:
    return 25 if wide else 13


def _binary_node(node: Node, offset: int, wide: bool) -> bytes:
    name = node.name.encode()
    props = b"".join(_binary_prop(prop) for prop in node.props)
    body = bytearray()
    start = offset + _header_size(wide) + len(name) + len(props)
    for child in node.children:
        body += _binary_node(child, start + len(body), wide)
    if node.children:
        body += bytes(_header_size(wide))
    end = start + len(body)
    fields = (end, len(node.props), len(props), len(name))
    header = struct.pack("<QQQB" if wide else "<IIIB", *fields)
    return header + name + props + body


def _binary_prop(prop: object) -> bytes:
    if isinstance(prop, Array):
        data = prop.encoded()
        encoding = 1 if prop.compress else 0
        return prop.type.encode() + struct.pack("<III", prop.count, encoding, len(data)) + data
    if isinstance(prop, bool):
        return b"C" + struct.pack("<?", prop)
    if isinstance(prop, int):
        if -(2**31) <= prop < 2**31:
            return b"I" + struct.pack("<i", prop)
        return b"L" + struct.pack("<q", prop)
    if isinstance(prop, float):
        return b"D" + struct.pack("<d", prop)
    if isinstance(prop, str):
        text = prop.encode()
        return b"S" + struct.pack("<I", len(text)) + text
    if isinstance(prop, bytes):
        return b"R" + struct.pack("<I", len(prop)) + prop
    raise TypeError(f"no FBX property type for {type(prop).__name__}")


# -- ASCII --------------------------------------------------------------------------------------


def encode_ascii(
    nodes: Iterable[Node], version: int = 7400, *, trailing_commas: bool = False
) -> bytes:
    """An ASCII FBX file holding ``nodes``. Arrays use ``*N { a: ... }`` from version 7000 on.

    ``trailing_commas`` ends every ``a:`` array with a comma, as Kenney's and Asset Forge's
    writers do (``a: 0,1,2,``).
    """
    major, minor = divmod(version, 1000)
    lines = [f"; FBX {major}.{minor // 100}.{minor % 100 // 10} project file", ""]
    array_end = "," if trailing_commas else ""
    for node in nodes:
        _ascii_node(node, 0, version, lines, array_end)
    return ("\n".join(lines) + "\n").encode()


def _ascii_node(node: Node, depth: int, version: int, lines: list[str], array_end: str) -> None:
    indent = "\t" * depth
    arrays = [prop for prop in node.props if isinstance(prop, Array)]
    if arrays and version >= 7000:
        array = arrays[0]
        values = ",".join(_ascii_number(v) for v in array.values)
        lines.append(f"{indent}{node.name}: *{array.count} {{")
        lines.append(f"{indent}\ta: {values}{array_end}")
        lines.append(f"{indent}}}")
        return
    values = ",".join(_ascii_prop(prop) for prop in node.props)
    if not node.children:
        lines.append(f"{indent}{node.name}: {values}")
        return
    lines.append(f"{indent}{node.name}: {values} {{")
    for child in node.children:
        _ascii_node(child, depth + 1, version, lines, array_end)
    lines.append(f"{indent}}}")


def _ascii_prop(prop: object) -> str:
    if isinstance(prop, Array):
        return ",".join(_ascii_number(v) for v in prop.values)
    if isinstance(prop, str):
        return '"' + prop.replace('"', "&quot;") + '"'
    if isinstance(prop, bytes):
        return '"' + base64.b64encode(prop).decode() + '"'
    return _ascii_number(prop)


def _ascii_number(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(value) if isinstance(value, float) else str(value)


def nested(depth: int) -> Node:
    """``depth`` nodes each holding the next, for nesting limits."""
    node = Node("Leaf", [1])
    for level in range(depth - 1):
        node = Node(f"Level{level}", [], [node])
    return node
