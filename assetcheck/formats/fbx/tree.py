"""The FBX node tree, as far as geometry needs it: ``Objects`` (models and geometries only) and
``Connections``, read from binary or ASCII FBX, with numeric arrays decoded by numpy.

Only files the pre-scan (:mod:`assetcheck.formats.fbx.scan`) accepted come here, so every node's
extent, every array's size and every zlib stream's inflated size has already been checked
against the file and the limits. This reader still trusts nothing: what does not add up raises
:class:`FbxTreeError`. Subtrees geometry does not need (materials, animation curves...) are
skipped by their end offset (binary) or their braces (ASCII), and arrays are decoded only when
asked for (:meth:`FbxNode.array`), so a file costs little more than its geometry arrays.
"""

from __future__ import annotations

import contextlib
import re
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from assetcheck.formats.fbx import FBX_BINARY_MAGIC
from assetcheck.formats.source import FileData

#: The top-level nodes read (FBX 5 and older keep their models at the top level), and the
#: object nodes read whole inside ``Objects``.
TOP_LEVEL = frozenset({"Objects", "Connections", "Model"})
OBJECT_NODES = frozenset({"Model", "Geometry"})

_BINARY_HEADER_SIZE = 27
_SCALARS = {
    ord("Y"): "h",
    ord("C"): "?",
    ord("I"): "i",
    ord("F"): "f",
    ord("D"): "d",
    ord("L"): "q",
}
_ARRAYS = {
    ord("f"): "f4",
    ord("d"): "f8",
    ord("l"): "i8",
    ord("i"): "i4",
    ord("b"): "u1",
    ord("c"): "u1",
}
# A node with more numeric scalars than this is an FBX 6 array written as one scalar per value.
_SCALAR_ARRAY = 16


class FbxTreeError(Exception):
    """The node structure cannot be read; the message says where and why."""


@dataclass
class ArrayRef:
    """An array property not yet decoded: binary (``dtype``, offset, encoding, byte length,
    count) or ASCII (the span of its comma-separated text)."""

    dtype: str
    start: int
    end: int
    count: int = -1
    encoding: int = 0


@dataclass
class FbxNode:
    """One node: its name, its properties (str, int, float, :class:`ArrayRef`) and children."""

    name: str
    props: list[object] = field(default_factory=list)
    children: list[FbxNode] = field(default_factory=list)
    source: FbxSource | None = field(default=None, repr=False)

    def child(self, name: str) -> FbxNode | None:
        """The first child called ``name``."""
        return next((node for node in self.children if node.name == name), None)

    def children_named(self, name: str) -> Iterator[FbxNode]:
        return (node for node in self.children if node.name == name)

    def text(self, index: int = 0) -> str:
        """Property ``index`` as text ('' when missing)."""
        value = self.props[index] if index < len(self.props) else ""
        return value if isinstance(value, str) else str(value)

    def array(self, dtype: str = "f8") -> np.ndarray:
        """The node's numeric values as one array of ``dtype`` (an array property, or the
        scalar properties); FbxTreeError when they are not numbers."""
        if self.props and isinstance(self.props[0], ArrayRef) and self.source is not None:
            values = self.source.decode(self.props[0])
        elif self.props and isinstance(self.props[0], np.ndarray):
            values = self.props[0]
        else:
            if not all(isinstance(p, int | float) for p in self.props):
                raise FbxTreeError(f"{self.name} holds values that are not numbers")
            values = np.array(self.props, dtype=np.float64)
        if dtype.startswith("i") and not _fits_int32(values):
            raise FbxTreeError(f"{self.name} holds indices that are not 32-bit integers")
        return values.astype(dtype, copy=False)


def _fits_int32(values: np.ndarray) -> bool:
    """Whether every value is a whole number a 32-bit integer holds."""
    if values.dtype.kind in "iu" and values.dtype.itemsize <= 4 and values.dtype != np.uint32:
        return True
    if not len(values):
        return True
    with np.errstate(invalid="ignore"):
        low, high = values.min(), values.max()
    if not (np.isfinite(low) and np.isfinite(high) and low >= -(2**31) and high < 2**31):
        return False
    return values.dtype.kind != "f" or bool(np.all(values == np.floor(values)))


@dataclass
class FbxSource:
    """The file's bytes, and how to decode an array property of it."""

    data: memoryview
    binary: bool
    endian: str = "<"

    def decode(self, ref: ArrayRef) -> np.ndarray:
        if not self.binary:
            return _ascii_numbers(self.data[ref.start : ref.end], ref.count)
        dtype = np.dtype(self.endian + ref.dtype)
        size = ref.count * dtype.itemsize
        raw: bytes | memoryview = self.data[ref.start : ref.end]
        if ref.encoding == 1:
            inflater = zlib.decompressobj()
            try:
                raw = inflater.decompress(raw, size)
            except zlib.error as error:
                raise FbxTreeError(f"a compressed array is not valid zlib data ({error})") from None
        if len(raw) != size:
            raise FbxTreeError(f"an array of {ref.count} values holds {len(raw)} bytes")
        return np.frombuffer(raw, dtype=dtype)


def read_tree(data: FileData) -> list[FbxNode]:
    """The ``Objects`` and ``Connections`` nodes of the FBX file in ``data``."""
    view = memoryview(data)
    if bytes(view[: len(FBX_BINARY_MAGIC)]) == FBX_BINARY_MAGIC:
        return _BinaryReader(view).top_level()
    return _AsciiReader(view).top_level()


class _BinaryReader:
    def __init__(self, data: memoryview) -> None:
        if len(data) < _BINARY_HEADER_SIZE:
            raise FbxTreeError("the file ends inside its header")
        endian = ">" if data[22] else "<"
        self.data = data
        self.source = FbxSource(data, True, endian)
        self.length = struct.Struct(endian + "I")
        self.array_header = struct.Struct(endian + "III")
        version = self.length.unpack_from(data, 23)[0]
        self.header = struct.Struct(endian + ("QQQB" if version >= 7500 else "IIIB"))
        self.scalars = {code: struct.Struct(endian + kind) for code, kind in _SCALARS.items()}

    def top_level(self) -> list[FbxNode]:
        nodes = []
        position = _BINARY_HEADER_SIZE
        while position + self.header.size <= len(self.data):
            end, name = self._header(position, len(self.data))[:2]
            if end == 0:
                break
            if name in TOP_LEVEL:
                nodes.append(self._node(position, len(self.data), read_all=name == "Model"))
            position = end
        return nodes

    def _header(self, position: int, limit: int) -> tuple[int, str, int, int, int]:
        try:
            end, count, props_length, name_length = self.header.unpack_from(self.data, position)
        except struct.error:
            raise FbxTreeError(f"a node header at byte {position} is cut short") from None
        if end == 0 and name_length == 0:
            return 0, "", 0, 0, 0
        props_start = position + self.header.size + name_length
        props_end = props_start + props_length
        if not position < props_end <= end <= limit:
            raise FbxTreeError(f"the node at byte {position} does not fit in its parent")
        name = bytes(self.data[props_start - name_length : props_start]).decode("latin-1")
        return end, name, props_start, props_end, count

    def _node(self, position: int, limit: int, *, read_all: bool) -> FbxNode:
        end, name, props_start, props_end, count = self._header(position, limit)
        node = FbxNode(name, self._props(props_start, props_end, count), source=self.source)
        position = props_end
        while position + self.header.size <= end:
            child_end, child_name = self._header(position, end)[:2]
            if child_end == 0:
                break
            if (
                read_all
                or (name == "Objects" and child_name in OBJECT_NODES)
                or name == "Connections"
            ):
                node.children.append(self._node(position, end, read_all=True))
            position = child_end
        return node

    def _props(self, position: int, end: int, count: int) -> list[object]:
        data = self.data
        props: list[object] = []
        remaining = count
        while remaining:
            if position >= end:
                raise FbxTreeError(f"a property at byte {position} runs past its node")
            code = data[position]
            scalar = self.scalars.get(code)
            if scalar is not None:
                if remaining > _SCALAR_ARRAY and not props:
                    run = self._scalar_array(position, end, code, scalar, remaining)
                    if run is not None:
                        return [run]
                props.append(scalar.unpack_from(data, position + 1)[0])
                position += 1 + scalar.size
            elif code in (ord("S"), ord("R")):
                (length,) = self.length.unpack_from(data, position + 1)
                position += 5
                raw = bytes(data[position : position + length])
                props.append(raw.decode("utf-8", "replace") if code == ord("S") else raw)
                position += length
            elif code in _ARRAYS:
                items, encoding, length = self.array_header.unpack_from(data, position + 1)
                position += 13
                props.append(ArrayRef(_ARRAYS[code], position, position + length, items, encoding))
                position += length
            else:
                raise FbxTreeError(f"unknown property type {code:#04x} at byte {position}")
            remaining -= 1
        if position > end:
            raise FbxTreeError(f"the properties of a node run past it (byte {end})")
        return props

    def _scalar_array(
        self, position: int, end: int, code: int, scalar: struct.Struct, count: int
    ) -> np.ndarray | None:
        """``count`` scalar records of one type in a row (an FBX 6 array) as one array."""
        stride = scalar.size + 1
        run_end = position + stride * count
        if run_end > end or self.data[position:run_end:stride] != bytes([code]) * count:
            return None
        dtype = np.dtype(self.source.endian + scalar.format[-1])
        return np.ndarray((count,), dtype, self.data, position + 1, (stride,))


# ASCII: strings, braces, comments, keys and array counts; the text between them is values.
_ASCII_TOKENS = re.compile(rb'"[^"]*"|[{}]|;[^\n]*|\*\d+|[A-Za-z_][\w|]*:')
# Values spans longer than this are kept as one lazily decoded array.
_LAZY_SPAN = 256


class _AsciiReader:
    def __init__(self, data: memoryview) -> None:
        self.data = bytes(data)
        self.source = FbxSource(memoryview(self.data), False)

    def top_level(self) -> list[FbxNode]:
        root = FbxNode("", source=self.source)
        stack = [root]
        keep = [True]  # whether each open block is being kept
        node: FbxNode | None = None
        position = 0
        data = self.data
        search = _ASCII_TOKENS.search
        while (match := search(data, position)) is not None:
            start, position = match.span()
            first = data[start]
            if node is not None and start > match.pos:
                self._values(node, match.pos, start)
            if first == ord('"'):
                if node is not None:
                    node.props.append(data[start + 1 : position - 1].decode("utf-8", "replace"))
            elif first == ord("{"):
                stack.append(node or FbxNode("", source=self.source))
                keep.append(keep[-1] and self._kept(stack))
                node = None
            elif first == ord("}"):
                if len(stack) > 1:
                    stack.pop()
                    keep.pop()
                node = None
            elif first == ord("*"):
                if node is not None:
                    position = self._array(node, int(data[start + 1 : position]), position)
            elif first != ord(";"):
                node = FbxNode(data[start : position - 1].decode("ascii"), source=self.source)
                if keep[-1]:
                    stack[-1].children.append(node)
        return [n for n in root.children if n.name in TOP_LEVEL]

    @staticmethod
    def _kept(stack: list[FbxNode]) -> bool:
        """Whether the block just opened is read: top-level ones geometry needs, the objects
        of ``Objects`` it needs, and everything inside those."""
        depth = len(stack) - 1
        if depth == 1:
            return stack[1].name in TOP_LEVEL
        if depth == 2 and stack[1].name == "Objects":
            return stack[2].name in OBJECT_NODES
        return True

    def _values(self, node: FbxNode, start: int, end: int) -> None:
        """The numbers (and bare words) between two tokens, as properties of ``node``."""
        if end - start > _LAZY_SPAN and not node.props:
            node.props.append(ArrayRef("f8", start, end))
            return
        for item in self.data[start:end].split(b","):
            word = item.strip()
            if word:
                node.props.append(_ascii_scalar(word))

    def _array(self, node: FbxNode, count: int, position: int) -> int:
        """``*count { a: values }``: the values' span as the node's one property; returns
        where reading goes on (after the closing brace)."""
        close = self.data.find(b"}", position)
        colon = self.data.find(b":", position, close)
        if close < 0 or colon < 0:
            raise FbxTreeError(f"an array at byte {position} has no values block")
        node.props = [ArrayRef("f8", colon + 1, close, count)]
        return close + 1


def _ascii_scalar(word: bytes) -> object:
    try:
        return int(word)
    except ValueError:
        pass
    try:
        return float(word)
    except ValueError:
        return word.decode("utf-8", "replace")


# How Microsoft's C library writes non-finite numbers: -1.#IND, 1.#INF, -1.#QNAN...
_MSVC_SPECIAL = re.compile(rb"(-?)\d*\.#(INF|IND|S?NAN|QNAN)\w*", re.IGNORECASE)


def _ascii_numbers(text: memoryview, count: int) -> np.ndarray:
    """Comma-separated numbers; ``count`` of them when it is not negative.

    A separator after the last number (``a: 0,1,2,``, as Kenney's and Asset Forge's writers
    end every array) ends the list, as in ufbx. It is cut off before numpy parses the text:
    numpy reads a trailing comma followed by whitespace as one more value, -1.
    """
    raw = bytes(text).rstrip().removesuffix(b",")
    try:
        values = np.fromstring(raw, dtype=np.float64, sep=",")
    except ValueError:
        values = None
    if values is None and b"#" in raw:
        raw = _MSVC_SPECIAL.sub(
            lambda m: m[1] + (b"inf" if m[2].upper() == b"INF" else b"nan"), raw
        )
        with contextlib.suppress(ValueError):
            values = np.fromstring(raw, dtype=np.float64, sep=",")
    if values is None:
        raise FbxTreeError("an array holds values that are not numbers")
    if count >= 0 and len(values) != count:
        raise FbxTreeError(f"an array declares {count} values but holds {len(values)}")
    return values
