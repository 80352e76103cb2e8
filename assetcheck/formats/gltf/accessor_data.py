"""glTF accessor data as numpy arrays: the data layer of every check that reads vertex data.

:class:`AccessorReader` turns an accessor (any component type, ``normalized``, ``byteStride``,
padded matrix columns, ``sparse``) into a ``(count, components)`` array. Tightly packed or
strided data is a view of the buffer, never a copy, so a 100 MB GLB is read in place; only
sparse accessors and padded matrices are copied. Nothing here reports issues: an accessor
whose JSON or bytes cannot be decoded the way Khronos glTF-Validator decodes them reads as
``None`` (the checks of the JSON report why).

Compressed geometry reads decoded: given what the glTF reader decoded
(:class:`DecodedPayloads`), a meshopt-compressed buffer view reads as its decoded bytes, an
accessor of a Draco primitive as its decoded data, for every check and the preview alike.

One reader serves every check of an asset (``asset.gltf.reader``, see
:mod:`assetcheck.formats.gltf.model`), so each accessor is decoded once however many checks
look at it::

    reader = asset.gltf.reader
    positions = reader.read(0)                  # raw values, shape (count, 3)
    weights = reader.normalized(5)              # normalized integers as floats in 0..1
    triangles = primitive_triangles(reader, primitive)  # (n, 3) from a primitive's JSON
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from assetcheck.formats.gltf.fields import as_integer
from assetcheck.formats.gltf.schema_tables import LARGEST_EXACT

BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, UNSIGNED_INT, FLOAT = 5120, 5121, 5122, 5123, 5125, 5126

#: numpy dtype of each accessor componentType (glTF data is little-endian).
COMPONENT_DTYPES: dict[int, np.dtype[Any]] = {
    BYTE: np.dtype("<i1"),
    UNSIGNED_BYTE: np.dtype("<u1"),
    SHORT: np.dtype("<i2"),
    UNSIGNED_SHORT: np.dtype("<u2"),
    UNSIGNED_INT: np.dtype("<u4"),
    FLOAT: np.dtype("<f4"),
}
#: The (lowest, highest) value of each integer componentType, built once: ``np.iinfo`` is built
#: anew on every call, and bounds are checked per accessor.
INTEGER_RANGES: dict[int, tuple[int, int]] = {
    component_type: (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    for component_type, dtype in COMPONENT_DTYPES.items()
    if dtype.kind in "iu"
}

#: The GL name of each accessor componentType, for messages.
COMPONENT_NAMES = {
    BYTE: "BYTE",
    UNSIGNED_BYTE: "UNSIGNED_BYTE",
    SHORT: "SHORT",
    UNSIGNED_SHORT: "UNSIGNED_SHORT",
    UNSIGNED_INT: "UNSIGNED_INT",
    FLOAT: "FLOAT",
}

#: Components per element of each accessor type, and (rows, columns) of the matrix types.
TYPE_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
MATRIX_SHAPES = {"MAT2": (2, 2), "MAT3": (3, 3), "MAT4": (4, 4)}

#: Component types sparse indices and a primitive's indices may use.
SPARSE_INDEX_TYPES = frozenset({UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT})

TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = 4, 5, 6


@dataclass(frozen=True)
class DecodedPayloads:
    """Compressed geometry decoded by the reader (:mod:`assetcheck.formats.gltf.compression`).

    ``views``: the decoded bytes of meshopt-compressed buffer views, by view index, served in
    place of the parent view's bytes. ``accessors``: the data of accessors bound to a Draco
    primitive, by accessor index, served in place of anything the accessor's JSON points at.
    """

    views: dict[int, memoryview] = field(default_factory=dict)
    accessors: dict[int, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class SparseLayout:
    """``accessor.sparse``: ``count`` replaced elements, their indices and their values."""

    count: int
    indices_view: int
    indices_offset: int
    indices_component_type: int
    values_view: int
    values_offset: int


class ElementSizes(NamedTuple):
    """The byte sizes of one element format (see :class:`ElementFormat`)."""

    components: int
    component_size: int
    #: Bytes from one matrix column to the next: columns start on 4-byte boundaries.
    column_stride: int
    #: Bytes one element spans: Khronos' ``elementLength``, no padding after the last column.
    element_length: int
    #: The element stride of tightly packed data (matrix columns padded).
    packed_stride: int

    def span(self, count: int, byte_stride: int | None) -> int:
        """Bytes ``count`` elements span in a view of ``byte_stride`` (None: tightly packed)."""
        return (byte_stride or self.packed_stride) * (count - 1) + self.element_length


def _element_sizes(component_type: int, accessor_type: str) -> ElementSizes:
    components = TYPE_COMPONENTS[accessor_type]
    size = COMPONENT_DTYPES[component_type].itemsize
    rows, columns = MATRIX_SHAPES.get(accessor_type, (components, 1))
    column_stride = -(-rows * size // 4) * 4
    if accessor_type not in MATRIX_SHAPES:
        return ElementSizes(components, size, column_stride, components * size, components * size)
    element_length = column_stride * (columns - 1) + rows * size
    return ElementSizes(components, size, column_stride, element_length, column_stride * columns)


#: The sizes of every element format, computed once: the checks ask for them per accessor.
ELEMENT_SIZES = {
    (component_type, accessor_type): _element_sizes(component_type, accessor_type)
    for component_type in COMPONENT_DTYPES
    for accessor_type in TYPE_COMPONENTS
}


class _SizeLookups:
    """The sizes of an element format (:class:`ElementSizes`), for :class:`ElementFormat` and
    :class:`AccessorLayout`, which begin with its ``component_type`` and ``type``. Each is
    looked up in :data:`ELEMENT_SIZES` in one step: the checks ask about ten times per
    accessor."""

    __slots__ = ()
    component_type: int
    type: str

    @property
    def sizes(self) -> ElementSizes:
        return ELEMENT_SIZES[self.component_type, self.type]

    @property
    def components(self) -> int:
        return TYPE_COMPONENTS[self.type]

    @property
    def component_size(self) -> int:
        return ELEMENT_SIZES[self.component_type, self.type].component_size

    @property
    def column_stride(self) -> int:
        """Bytes from one matrix column to the next: columns start on 4-byte boundaries."""
        return ELEMENT_SIZES[self.component_type, self.type].column_stride

    @property
    def element_length(self) -> int:
        """Bytes one element spans: Khronos' ``elementLength``, no padding after the last column."""
        return ELEMENT_SIZES[self.component_type, self.type].element_length

    @property
    def packed_stride(self) -> int:
        """The element stride of tightly packed data (matrix columns padded)."""
        return ELEMENT_SIZES[self.component_type, self.type].packed_stride

    def span(self, count: int, byte_stride: int | None) -> int:
        """Bytes ``count`` elements span in a view of ``byte_stride`` (None: tightly packed)."""
        return ELEMENT_SIZES[self.component_type, self.type].span(count, byte_stride)


class _ElementFields(NamedTuple):
    component_type: int
    type: str


class ElementFormat(_ElementFields, _SizeLookups):
    """How one element of an accessor lies in its buffer view (the glTF data alignment rules).

    Every column of a matrix starts on a 4-byte boundary, so MAT2 and MAT3 of 1-byte and MAT3
    of 2-byte components have padding after each column but the last.
    """

    __slots__ = ()


def element_key(component_type: object, accessor_type: object) -> tuple[int, str] | None:
    """``(componentType, type)`` from JSON when they name an element format, else None."""
    component_type = as_integer(component_type)
    if (
        component_type not in COMPONENT_DTYPES
        or not isinstance(accessor_type, str)
        or accessor_type not in TYPE_COMPONENTS
    ):
        return None
    return component_type, accessor_type


def element_format(component_type: object, accessor_type: object) -> ElementFormat | None:
    """The element format of a ``componentType`` and ``type`` from JSON; None when unusable."""
    key = element_key(component_type, accessor_type)
    return None if key is None else ElementFormat(*key)


class _AccessorFields(NamedTuple):
    component_type: int
    type: str
    count: int  # type: ignore[assignment]  # shadows tuple.count: the name the checks read
    normalized: bool
    buffer_view: int | None
    byte_offset: int
    sparse: SparseLayout | None


class AccessorLayout(_AccessorFields, _SizeLookups):
    """The JSON of one accessor as the data layer reads it (only when every field is usable).

    An immutable named tuple: a document has one per accessor, made cheaply (a frozen
    dataclass cost three times as much to make).
    """

    __slots__ = ()


def accessor_layout(accessor: object) -> AccessorLayout | None:
    """The layout of an accessor JSON object, or None when a field the data needs is unusable."""
    if not isinstance(accessor, dict):
        return None
    return _plain_layout(accessor) or _read_layout(accessor)


def _plain_layout(accessor: dict) -> AccessorLayout | None:
    """The layout :func:`_read_layout` gives an accessor without ``sparse`` whose fields are
    plain: exact ints in range and a known ``type`` (the common case, tested by exact types
    alone). None for any other accessor, which takes the long way."""
    component_type, kind, count = (
        accessor.get("componentType"),
        accessor.get("type"),
        accessor.get("count"),
    )
    view, offset = accessor.get("bufferView"), accessor.get("byteOffset", 0)
    if not (
        type(component_type) is int
        and type(kind) is str
        and type(count) is int
        and (component_type, kind) in ELEMENT_SIZES
        and 1 <= count <= LARGEST_EXACT
        and "sparse" not in accessor
    ):
        return None
    if view is None:  # absent or null: no view, and the offset is not read
        offset = 0
    elif not (
        type(view) is int
        and type(offset) is int
        and 0 <= view <= LARGEST_EXACT
        and 0 <= offset <= LARGEST_EXACT
    ):
        return None
    normalized = accessor.get("normalized") is True
    return AccessorLayout(component_type, kind, count, normalized, view, offset, None)


def _read_layout(accessor: dict) -> AccessorLayout | None:
    """The layout of any accessor JSON object (see :func:`accessor_layout`)."""
    key = element_key(accessor.get("componentType"), accessor.get("type"))
    count = as_integer(accessor.get("count"))
    if key is None or count is None or count < 1:
        return None
    view = _index(accessor, "bufferView")
    offset = as_integer(accessor.get("byteOffset", 0)) if view is not None else 0
    if offset is None or offset < 0:
        return None
    normalized = accessor.get("normalized") is True
    return AccessorLayout(
        *key,
        count,
        normalized,
        view,
        offset,
        _sparse_layout(accessor.get("sparse")),
    )


def _sparse_layout(sparse: object) -> SparseLayout | None:
    if not isinstance(sparse, dict):
        return None
    indices, values = sparse.get("indices"), sparse.get("values")
    count = as_integer(sparse.get("count"))
    if not isinstance(indices, dict) or not isinstance(values, dict) or count is None or count < 1:
        return None
    indices_view, values_view = _index(indices, "bufferView"), _index(values, "bufferView")
    component_type = as_integer(indices.get("componentType"))
    indices_offset = as_integer(indices.get("byteOffset", 0))
    values_offset = as_integer(values.get("byteOffset", 0))
    if (
        indices_view is None
        or values_view is None
        or component_type not in SPARSE_INDEX_TYPES
        or indices_offset is None
        or indices_offset < 0
        or values_offset is None
        or values_offset < 0
    ):
        return None
    return SparseLayout(
        count, indices_view, indices_offset, component_type, values_view, values_offset
    )


class ViewSlice(NamedTuple):
    """A resolved buffer view: its bytes and its declared ``byteOffset`` and ``byteStride``."""

    data: memoryview
    byte_offset: int
    byte_stride: int | None


class AccessorReader:
    """Decodes the accessors of one glTF document whose buffers are resolved.

    ``buffers`` is index-aligned with ``document["buffers"]`` (None where unresolved). Arrays
    are read-only; each accessor is decoded once and cached.
    """

    def __init__(
        self, document: dict[str, Any], buffers: list[Any], decoded: DecodedPayloads | None = None
    ) -> None:
        accessors, views = document.get("accessors"), document.get("bufferViews")
        self._accessors = accessors if isinstance(accessors, list) else []
        self._views = views if isinstance(views, list) else []
        self._buffers = buffers
        self._decoded = decoded or DecodedPayloads()
        self._layouts: dict[int, AccessorLayout | None] = {}
        self._slices: dict[int, ViewSlice | None] = {}
        self._raw: dict[int, np.ndarray | None] = {}
        self._normalized: dict[tuple[int, type], np.ndarray | None] = {}

    def draco_decoded(self, index: int) -> bool:
        """Whether accessor ``index`` reads data a Draco payload decoded to."""
        return index in self._decoded.accessors

    def layout(self, index: int) -> AccessorLayout | None:
        """The layout of accessor ``index``, or None when it does not exist or is unusable."""
        if index in self._layouts:
            return self._layouts[index]
        layout = (
            accessor_layout(self._accessors[index]) if 0 <= index < len(self._accessors) else None
        )
        self._layouts[index] = layout
        return layout

    def read(self, index: int) -> np.ndarray | None:
        """Accessor ``index`` as raw component values, shape ``(count, components)``.

        None when the accessor cannot be decoded: a field is unusable, its data lies outside the
        buffer view or the resolved bytes, it is misaligned, or it has neither a buffer view nor
        sparse data (Khronos does not check such accessors either).
        """
        if index not in self._raw:
            self._raw[index] = self._decode(index)
        return self._raw[index]

    def indices(self, index: int) -> np.ndarray | None:
        """Accessor ``index`` as a primitive's vertex indices, shape ``(count,)``.

        None unless it is a SCALAR of unsigned integers (the only index formats; Khronos reads
        no other as indices) whose data can be read.
        """
        layout, values = self.layout(index), self.read(index)
        if (
            layout is None
            or values is None
            or layout.type != "SCALAR"
            or layout.component_type not in SPARSE_INDEX_TYPES
        ):
            return None
        return values[:, 0]

    def normalized(self, index: int, dtype: type = np.float32) -> np.ndarray | None:
        """Accessor ``index`` as floats: ``normalized`` integers map to 0..1 (or -1..1).

        Float accessors are returned as read; use ``dtype=np.float64`` where a check must add
        values the way Khronos does (in double precision).
        """
        key = (index, dtype)
        if key not in self._normalized:
            self._normalized[key] = self._to_float(index, dtype)
        return self._normalized[key]

    def _to_float(self, index: int, dtype: type) -> np.ndarray | None:
        values, layout = self.read(index), self.layout(index)
        if values is None or layout is None:
            return None
        if layout.component_type == FLOAT or not layout.normalized:
            return values.astype(dtype, copy=False)
        info = np.iinfo(COMPONENT_DTYPES[layout.component_type])
        # A division, not a product with 1/max: 127 / 127 must give exactly 1.0.
        scaled = values.astype(dtype) / dtype(info.max)
        if info.min < 0:
            np.maximum(scaled, dtype(-1.0), out=scaled)
        return scaled

    def view_slice(self, index: object) -> ViewSlice | None:
        """The bytes of buffer view ``index``, or None when they are not all available."""
        number = as_integer(index)
        if number is None or not 0 <= number < len(self._views):
            return None
        if number not in self._slices:
            self._slices[number] = self._slice(number)
        return self._slices[number]

    def _slice(self, number: int) -> ViewSlice | None:
        view = self._views[number]
        if not isinstance(view, dict):
            return None
        buffer = as_integer(view.get("buffer"))
        offset = as_integer(view.get("byteOffset", 0))
        length = as_integer(view.get("byteLength"))
        stride = as_integer(view.get("byteStride")) if "byteStride" in view else None
        if number in self._decoded.views and offset is not None:
            return ViewSlice(self._decoded.views[number], offset, stride)
        if (
            buffer is None
            or offset is None
            or length is None
            or offset < 0
            or length < 0
            or not 0 <= buffer < len(self._buffers)
            or self._buffers[buffer] is None
        ):
            return None
        data = memoryview(self._buffers[buffer]).cast("B")
        if offset + length > len(data):
            return None
        return ViewSlice(data[offset : offset + length], offset, stride)

    def _decode(self, index: int) -> np.ndarray | None:
        if index in self._decoded.accessors:
            return self._decoded.accessors[index]
        layout = self.layout(index)
        if layout is None:
            return None
        base: np.ndarray | None
        if layout.buffer_view is None:
            if layout.sparse is None:
                return None
            dtype = COMPONENT_DTYPES[layout.component_type]
            base = np.zeros((layout.count, layout.components), dtype)
        else:
            base = self._dense(layout)
            if base is None:
                return None
        if layout.sparse is None:
            return base
        return self._apply_sparse(layout, layout.sparse, base)

    def _dense(self, layout: AccessorLayout) -> np.ndarray | None:
        view = self.view_slice(layout.buffer_view)
        if view is None:
            return None
        sizes, count, start = layout.sizes, layout.count, layout.byte_offset
        size = sizes.component_size
        stride = view.byte_stride or sizes.packed_stride
        if (
            stride < sizes.element_length
            or start % size
            or (view.byte_offset + start) % size
            or start + stride * (count - 1) + sizes.element_length > len(view.data)
        ):
            return None
        dtype = COMPONENT_DTYPES[layout.component_type]
        rows, columns = MATRIX_SHAPES.get(layout.type, (sizes.components, 1))
        if columns == 1 or sizes.column_stride == rows * size:
            return np.ndarray((count, sizes.components), dtype, view.data, start, (stride, size))
        padded = np.ndarray(
            (count, columns, rows),
            dtype,
            view.data,
            start,
            (stride, sizes.column_stride, size),
        )
        return padded.reshape(count, sizes.components)

    def sparse_indices(self, sparse: SparseLayout) -> np.ndarray | None:
        """The indices of a sparse accessor's replaced elements, as stored."""
        return self._packed(
            sparse.indices_view,
            sparse.indices_offset,
            COMPONENT_DTYPES[sparse.indices_component_type],
            sparse.count,
        )

    def _apply_sparse(
        self,
        layout: AccessorLayout,
        sparse: SparseLayout,
        base: np.ndarray,
    ) -> np.ndarray | None:
        if sparse.count > layout.count:
            return None
        indices = self.sparse_indices(sparse)
        values = self._packed(
            sparse.values_view,
            sparse.values_offset,
            COMPONENT_DTYPES[layout.component_type],
            sparse.count * layout.components,
        )
        if indices is None or values is None:
            return None
        dense = base.copy()
        inside = indices < layout.count
        dense[indices[inside]] = values.reshape(sparse.count, layout.components)[inside]
        dense.flags.writeable = False
        return dense

    def _packed(
        self,
        view_index: int,
        offset: int,
        dtype: np.dtype,
        count: int,
    ) -> np.ndarray | None:
        view = self.view_slice(view_index)
        if view is None or offset % dtype.itemsize or (view.byte_offset + offset) % dtype.itemsize:
            return None
        if offset + count * dtype.itemsize > len(view.data):
            return None
        return np.frombuffer(view.data, dtype, count, offset)


def primitive_triangles(reader: AccessorReader, primitive: dict) -> np.ndarray | None:
    """The triangles the ``primitive`` (its JSON) draws, as an ``(n, 3)`` array of vertex
    indices read by ``reader``.

    Strips and fans are unrolled (odd strip triangles keep their winding); a primitive that is
    not a triangle mode, or whose indices (:meth:`AccessorReader.indices`) or vertex count
    cannot be read, gives None. Indices are returned as read: checking them against the vertex
    count is the caller's business.
    """
    mode = as_integer(primitive.get("mode", TRIANGLES))
    if mode not in (TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN):
        return None
    indices_index = _index(primitive, "indices")
    if indices_index is not None:
        indices = reader.indices(indices_index)
        if indices is None:
            return None
    else:
        count = primitive_vertex_count(reader, primitive)
        if count is None:
            return None
        indices = np.arange(count, dtype=np.uint32)
    return _unroll(indices, mode)


def primitive_vertex_count(reader: AccessorReader, primitive: dict) -> int | None:
    """The vertex count of a primitive: the count of its first usable attribute accessor."""
    attributes = primitive.get("attributes")
    if not isinstance(attributes, dict):
        return None
    for value in attributes.values():
        number = as_integer(value)
        layout = reader.layout(number) if number is not None and number >= 0 else None
        if layout is not None:
            return layout.count
    return None


def _unroll(indices: np.ndarray, mode: int) -> np.ndarray:
    if mode == TRIANGLES:
        usable = len(indices) - len(indices) % 3
        return indices[:usable].reshape(-1, 3)
    count = max(len(indices) - 2, 0)
    if mode == TRIANGLE_FAN:
        first = np.broadcast_to(indices[:1], (count,)) if count else indices[:0]
        return np.stack([first, indices[1 : count + 1], indices[2 : count + 2]], axis=1)
    triangles = np.stack([indices[:count], indices[1 : count + 1], indices[2 : count + 2]], axis=1)
    odd = triangles[1::2].copy()
    triangles[1::2, 0], triangles[1::2, 1] = odd[:, 1], odd[:, 0]
    return triangles


def _index(parent: dict, key: str) -> int | None:
    value = as_integer(parent.get(key))
    return value if value is not None and value >= 0 else None
