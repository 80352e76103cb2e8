"""The FBX node tree the reader works on, and how the walk keeps it.

The one walk of a file (:mod:`assetcheck.formats.fbx.walk`) checks every node and keeps, as
:class:`FbxNode` objects, the ones its :data:`KeepRule` asks for: for the geometry, animation
and material readers, ``Objects`` (models, geometries, deformers, animation objects,
materials, textures and videos only), ``Connections`` and FBX 5's top-level models
(:func:`geometry_nodes`). Every node's extent, every array's size and every zlib stream's
inflated size has been checked against the file and the limits by then; arrays are decoded
only when asked for (:meth:`FbxNode.array`), raw bytes (a video's embedded image) are kept as
where they lie (:class:`BlobRef`), and what does not add up still raises
:class:`FbxTreeError`. The kept nodes count against the parser's
memory limit (:class:`TreeBuilder`), so a file cannot make the walk hold more than its parse could.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

#: The top-level nodes geometry reads (FBX 5 and older keep their models at the top level), and
#: the object nodes it reads whole inside ``Objects`` (deformers for the skins' clusters, the
#: animation objects for the curves, materials, textures and videos for the texture slots).
TOP_LEVEL = frozenset({"Objects", "Connections", "Model"})
OBJECT_NODES = frozenset(
    {
        "Model",
        "Geometry",
        "Deformer",
        "AnimationStack",
        "AnimationLayer",
        "AnimationCurveNode",
        "AnimationCurve",
        "Material",
        "Texture",
        "LayeredTexture",
        "Video",
    }
)

#: What the animation reader reads below each animation object (a curve's keys, a stack's
#: span); a rig's thousands of curves keep nothing else.
ANIMATION_CHILDREN = {
    "AnimationStack": frozenset({"Properties70"}),
    "AnimationLayer": frozenset(),
    "AnimationCurveNode": frozenset(),
    "AnimationCurve": frozenset(
        {"KeyTime", "KeyValueFloat", "KeyAttrFlags", "KeyAttrDataFloat", "KeyAttrRefCount"}
    ),
}

#: Which nodes a walk keeps: called with a node's depth (1 at the top level), the name of its
#: parent (kept, or '' at the top level) and its own name.
KeepRule = Callable[[int, str, str], bool]

#: What one kept node and one kept property cost at most, in bytes of memory (a string counts
#: its length on top): the estimate :class:`TreeBuilder` charges before they are made.
NODE_COST = 320
PROPERTY_COST = 64


def geometry_nodes(depth: int, parent: str, name: str) -> bool:
    """The nodes the geometry, animation and material readers need: ``Objects`` with its
    models, geometries, deformers, animation objects, materials, textures and videos,
    ``Connections`` and top-level models (FBX 5),
    each with everything below it but for the animation objects, of which only the keys of
    curves are kept (:data:`ANIMATION_CHILDREN`)."""
    if depth == 1:
        return name in TOP_LEVEL
    if depth == 2 and parent == "Objects":
        return name in OBJECT_NODES
    if parent in ANIMATION_CHILDREN:
        return name in ANIMATION_CHILDREN[parent]
    return True


#: What ASCII ``Content`` strings hold besides base64 data: padding (a writer may pad each
#: string it splits the data into) and spaces.
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/]")


class FbxTreeError(Exception):
    """The node structure cannot be read; the message says where and why."""


@dataclass(slots=True)
class ArrayRef:
    """An array property not yet decoded: binary (``dtype``, offset, encoding, byte length,
    count) or ASCII (the span of its comma-separated text)."""

    dtype: str
    start: int
    end: int
    count: int = -1
    encoding: int = 0


@dataclass(frozen=True, slots=True)
class BlobRef:
    """A raw (``R``) property not yet read, by its span in the file: the bytes themselves
    (binary), or one of the base64 strings an ASCII ``Content`` is written as."""

    start: int
    end: int


@dataclass(slots=True)
class FbxNode:
    """One node: its name, its properties (str, int, float, bool, :class:`ArrayRef`,
    :class:`BlobRef` for raw bytes, or one numpy array for an FBX 6 run of scalars) and its
    kept children."""

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

    def blob_spans(self) -> tuple[tuple[int, int], ...]:
        """The spans of the node's raw properties (:class:`BlobRef`), in order."""
        return tuple((p.start, p.end) for p in self.props if isinstance(p, BlobRef))

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

    def blob(self, spans: tuple[tuple[int, int], ...]) -> bytes | memoryview:
        """The bytes of a raw property kept as ``spans`` (:meth:`FbxNode.blob_spans`): a view
        of the file (binary, one span), or the base64 strings decoded each on its own, as
        writers pad each (ASCII); FbxTreeError when they are not base64."""
        if self.binary:
            if len(spans) == 1:
                return self.data[spans[0][0] : spans[0][1]]
            return b"".join(self.data[start:end] for start, end in spans)
        return b"".join(_base64(self.data[start:end]) for start, end in spans)


def _base64(text: memoryview) -> bytes:
    """One base64 string decoded, its padding made whole."""
    data = _NOT_BASE64.sub(b"", bytes(text))
    try:
        return base64.b64decode(data + b"=" * (-len(data) % 4))
    except binascii.Error as error:
        raise FbxTreeError(f"embedded content is not base64 ({error})") from None


@dataclass
class FbxTree:
    """The nodes a walk kept (the top-level ones, each holding what was kept below it), or in
    ``fault`` why they cannot be read."""

    nodes: list[FbxNode] = field(default_factory=list)
    fault: str | None = None

    def top_level(self) -> list[FbxNode]:
        """The kept top-level nodes; FbxTreeError when they cannot be read."""
        if self.fault is not None:
            raise FbxTreeError(self.fault)
        return self.nodes


class TreeBuilder:
    """The nodes a walk keeps, gathered as it goes, under a memory budget.

    The walk asks :meth:`child` for every node whose parent it keeps, and :meth:`charge` for
    the properties it is about to give the nodes it got. Past ``budget`` bytes (by
    :data:`NODE_COST` and :data:`PROPERTY_COST`), or after :meth:`fail`, nothing is kept any
    more: the tree is dropped and :attr:`fault` says why.
    """

    def __init__(self, keep: KeepRule, source: FbxSource, budget: int) -> None:
        self.keep = keep
        self.source = source
        self.budget = budget
        self.root = FbxNode("")
        self.cost = 0
        self.fault: str | None = None
        self.over_budget = False

    def child(self, parent: FbxNode | None, depth: int, name: str) -> FbxNode | None:
        """A new kept node ``name`` under ``parent`` (None when the parent is not kept), or
        None when it is not kept."""
        if parent is None or not self.keep(depth, parent.name, name) or not self.charge(NODE_COST):
            return None
        node = FbxNode(name, source=self.source)
        parent.children.append(node)
        return node

    def charge(self, cost: int) -> bool:
        """Count ``cost`` more bytes of kept properties; False when they must not be kept."""
        if self.fault is not None:
            return False
        self.cost += cost
        if self.cost > self.budget:
            self.over_budget = True
            self.fail(f"its node tree needs more than {self.budget >> 20} MB")
            return False
        return True

    def fail(self, reason: str) -> None:
        """Give up the tree: it cannot be read, for ``reason`` (the first reason stays)."""
        if self.fault is None:
            self.fault = reason
            self.root.children = []

    def tree(self) -> FbxTree:
        return FbxTree(self.root.children, self.fault)


def ascii_scalar(word: bytes) -> object:
    """One bare ASCII value: an int, else a float, else the word as text."""
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
