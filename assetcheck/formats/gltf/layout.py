"""Declared sizes against real ones: buffer views inside buffers, accessors inside buffer views.

Nothing here reads or allocates by a declared size. These checks make a later reader of accessor
data safe: a view that passes fits its buffer's declared length, and :func:`view_bytes` only
ever slices real bytes.
"""

from __future__ import annotations

from typing import NamedTuple

from assetcheck.formats.gltf.accessor_data import ELEMENT_SIZES, ElementSizes, element_key
from assetcheck.formats.gltf.fields import FieldReader, as_integer, child
from assetcheck.formats.gltf.schema_tables import LARGEST_EXACT

Bytes = bytes | memoryview


class Buffer(NamedTuple):
    """One entry of ``buffers``: its declared ``byteLength`` and the bytes it resolved to."""

    declared_length: int | None
    data: Bytes | None


class Accessors(NamedTuple):
    """The document's accessors (None for malformed ones) and their valid ``count`` values."""

    items: list[dict | None]
    counts: list[int | None]


class ViewLayout(NamedTuple):
    """The declared extent of one buffer view (None where the JSON value is unusable; a named
    tuple: a document has one per buffer view, made cheaply)."""

    byte_length: int | None
    byte_stride: int | None


def read_accessors(items: list[dict | None], fields: FieldReader) -> Accessors:
    """The accessors with their ``count`` (a required integer of at least 1), read once."""
    counts = [
        None
        if item is None
        else fields.integer(item, "count", child("/accessors", index), required=True, minimum=1)
        for index, item in enumerate(items)
    ]
    return Accessors(items, counts)


def check_buffer_views(
    views: list[dict | None],
    buffers: list[Buffer | None],
    fields: FieldReader,
) -> list[ViewLayout | None]:
    """Report views that do not fit their buffer's declared ``byteLength``.

    Returns each view's layout, index-aligned with ``views``.
    """
    return [
        None
        if view is None
        else _plain_view(view, buffers) or _check_view(view, index, buffers, fields)
        for index, view in enumerate(views)
    ]


def _plain_view(view: dict, buffers: list[Buffer | None]) -> ViewLayout | None:
    """The layout of a view :func:`_check_view` has nothing to report on: every field a plain
    integer in its range, its buffer resolved, and the view inside the buffer's declared length
    (the common case, tested without building pointers). None for any other view."""
    buffer, length = view.get("buffer"), view.get("byteLength")
    offset, stride = view.get("byteOffset", 0), view.get("byteStride")
    if not (
        type(buffer) is int
        and type(offset) is int
        and type(length) is int
        and 0 <= buffer < len(buffers)
        and 0 <= offset <= LARGEST_EXACT
        and 1 <= length <= LARGEST_EXACT
        and (
            (type(stride) is int and 4 <= stride <= 252)
            or (stride is None and "byteStride" not in view)
        )
    ):
        return None
    target = buffers[buffer]
    if target is None or (
        target.declared_length is not None and offset + length > target.declared_length
    ):
        return None
    return ViewLayout(length, stride)


def _check_view(
    view: dict, index: int, buffers: list[Buffer | None], fields: FieldReader
) -> ViewLayout:
    """Read one view's extent, reporting unusable fields and a view longer than its buffer."""
    at = child("/bufferViews", index)
    buffer = fields.index(view, "buffer", at, required=True)
    offset = fields.integer(view, "byteOffset", at, default=0, minimum=0)
    length = fields.integer(view, "byteLength", at, required=True, minimum=1)
    stride = fields.integer(view, "byteStride", at, minimum=4, maximum=252)
    target = fields.resolve(buffer, buffers, "buffers", child(at, "buffer"))
    if target is not None:
        buffer_length = target.declared_length
        if (
            offset is not None
            and length is not None
            and buffer_length is not None
            and offset + length > buffer_length
        ):
            fields.issues.add(
                "BUFFER_VIEW_TOO_LONG",
                pointer=child(at, "byteLength"),
                buffer=buffer,
                byte_length=buffer_length,
            )
    return ViewLayout(length, stride)


def check_accessors(
    accessors: Accessors,
    views: list[ViewLayout | None],
    fields: FieldReader,
) -> None:
    """Report accessors whose ``count`` elements do not fit in their buffer view."""
    for index, accessor in enumerate(accessors.items):
        if accessor is not None and not _fits_plainly(accessor, accessors.counts[index], views):
            _check_accessor(accessor, index, accessors.counts[index], views, fields)


def _fits_plainly(accessor: dict, count: int | None, views: list[ViewLayout | None]) -> bool:
    """Whether :func:`_check_accessor` has nothing to report on ``accessor``: its view and
    offset plain integers, the view resolved, and its elements inside the view (or not
    checkable for a reason reported elsewhere: an unusable count or element format)."""
    view_index, offset = accessor.get("bufferView"), accessor.get("byteOffset", 0)
    if view_index is None and "bufferView" not in accessor:
        return type(offset) is int and 0 <= offset <= LARGEST_EXACT
    if not (
        type(view_index) is int
        and type(offset) is int
        and 0 <= view_index < len(views)
        and 0 <= offset <= LARGEST_EXACT
    ):
        return False
    view = views[view_index]
    if view is None:
        return False
    sizes = _element_sizes(accessor)
    if sizes is None or count is None or view.byte_length is None:
        return True
    return offset + sizes.span(count, view.byte_stride) <= view.byte_length


def _check_accessor(
    accessor: dict,
    index: int,
    count: int | None,
    views: list[ViewLayout | None],
    fields: FieldReader,
) -> None:
    """Read one accessor's place, reporting unusable fields and elements past its view."""
    at = child("/accessors", index)
    view_index = fields.index(accessor, "bufferView", at)
    offset = fields.integer(accessor, "byteOffset", at, default=0, minimum=0)
    view = fields.resolve(view_index, views, "bufferViews", child(at, "bufferView"))
    if view is None:
        return
    sizes = _element_sizes(accessor)
    if offset is None or sizes is None or count is None or view.byte_length is None:
        return
    length = sizes.span(count, view.byte_stride)
    if offset + length > view.byte_length:
        fields.issues.add(
            "ACCESSOR_TOO_LONG",
            pointer=at,
            byte_offset=offset,
            length=length,
            buffer_view=view_index,
            view_length=view.byte_length,
        )


def _element_sizes(accessor: dict) -> ElementSizes | None:
    key = element_key(accessor.get("componentType"), accessor.get("type"))
    return None if key is None else ELEMENT_SIZES[key]


def view_bytes(view: dict, buffers: list[Buffer | None]) -> memoryview | None:
    """The bytes of one buffer view, or None when its fields are unusable or point past the data.

    Reports nothing: the view's fields are reported by :func:`check_buffer_views`.
    """
    index = as_integer(view.get("buffer"))
    offset = as_integer(view.get("byteOffset", 0))
    length = as_integer(view.get("byteLength"))
    if index is None or offset is None or length is None or not 0 <= index < len(buffers):
        return None
    buffer = buffers[index]
    data = buffer.data if buffer is not None else None
    if data is None or offset < 0 or length < 0 or offset + length > len(data):
        return None
    return memoryview(data)[offset : offset + length]
