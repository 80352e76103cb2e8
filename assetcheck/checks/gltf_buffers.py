"""Buffer views and accessor layouts: strides, alignment, sparse storage, bounds and usage.

The reader already checks that views fit their buffers and accessors their views; this check
adds the rest of Khronos glTF-Validator's layout rules, and the usage rules: one buffer view
or accessor must not serve two kinds of data (vertices and indices, say).
"""

from __future__ import annotations

import math

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_bounds import Numbers
from assetcheck.formats.gltf.accessor_data import (
    COMPONENT_DTYPES,
    FLOAT,
    INTEGER_RANGES,
    AccessorLayout,
    SparseLayout,
    element_format,
)
from assetcheck.formats.gltf.fields import as_integer, child, is_number, preview
from assetcheck.formats.gltf.links import DocumentLinks, index_of, resolve, uses
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

ELEMENT_ARRAY_BUFFER = 34963
VERTEX_ROLES = frozenset({"VertexBuffer", "IndexBuffer"})
TARGET_ROLES = {34962: "VertexBuffer", ELEMENT_ARRAY_BUFFER: "IndexBuffer"}

CODES = (
    "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE",
    "VALUE_MULTIPLE_OF",
    "BUFFER_VIEW_INVALID_BYTE_STRIDE",
    "ACCESSOR_NORMALIZED_INVALID",
    "ACCESSOR_MATRIX_ALIGNMENT",
    "ACCESSOR_SMALL_BYTESTRIDE",
    "ACCESSOR_OFFSET_ALIGNMENT",
    "ACCESSOR_TOTAL_OFFSET_ALIGNMENT",
    "ACCESSOR_TOO_LONG",
    "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE",
    "ARRAY_LENGTH_NOT_IN_LIST",
    "ARRAY_TYPE_MISMATCH",
    "TYPE_MISMATCH",
    "EMPTY_ENTITY",
    "VALUE_NOT_IN_RANGE",
    "INVALID_GL_VALUE",
    "BUFFER_VIEW_TARGET_OVERRIDE",
    "BUFFER_VIEW_TARGET_MISSING",
    "ACCESSOR_USAGE_OVERRIDE",
)


def check_buffers(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is None:
        return
    links, bounds = asset.gltf.links, asset.gltf.declared_bounds
    issues = context.issues
    for index, view in enumerate(links.items("bufferViews")):
        if view is not None:
            _check_view(view, child("/bufferViews", index), issues)
    for index, accessor in enumerate(links.items("accessors")):
        if accessor is not None:
            _check_accessor(links, index, accessor, bounds.numbers(index), issues)
    _check_uses(links, issues)


def _check_view(view: dict, at: str, issues: FileIssues) -> None:
    stride = as_integer(view.get("byteStride"))
    if stride is None or not 4 <= stride <= 252:
        return  # absent, or already reported by the reader
    length = as_integer(view.get("byteLength"))
    pointer = child(at, "byteStride")
    if length is not None and length >= 1 and stride > length:
        issues.add("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", pointer=pointer, stride=stride, length=length)
    if stride % 4:
        issues.add("VALUE_MULTIPLE_OF", pointer=pointer, value=stride, divisor=4)
    if as_integer(view.get("target")) == ELEMENT_ARRAY_BUFFER:
        issues.add("BUFFER_VIEW_INVALID_BYTE_STRIDE", pointer=pointer)


def _check_accessor(
    links: DocumentLinks,
    index: int,
    accessor: dict,
    declared: tuple[Numbers | None, Numbers | None],
    issues: FileIssues,
) -> None:
    at = child("/accessors", index)
    normalized = accessor.get("normalized") is True
    if normalized and as_integer(accessor.get("componentType")) in (FLOAT, 5125):
        issues.add("ACCESSOR_NORMALIZED_INVALID", pointer=child(at, "normalized"))
    if accessor.get("type") in ("MAT2", "MAT3", "MAT4"):
        has_view = index_of(accessor, "bufferView") is not None
        offset = as_integer(accessor.get("byteOffset", 0)) if has_view else 0
        if offset is not None and offset >= 0 and offset % 4:
            issues.add("ACCESSOR_MATRIX_ALIGNMENT", pointer=child(at, "byteOffset"))
    _check_bounds(accessor, declared, at, issues)
    layout = links.layout(index)
    if layout is None:
        return
    view = resolve(layout.buffer_view, links.items("bufferViews"))
    if view is not None:
        stride = as_integer(view.get("byteStride"))
        if stride is not None and 4 <= stride <= 252 and stride < layout.element_length:
            issues.add(
                "ACCESSOR_SMALL_BYTESTRIDE", pointer=at, stride=stride, length=layout.element_length
            )
        _check_placement(view, layout.byte_offset, layout.component_size, None, at, issues)
    if layout.sparse is not None:
        _check_sparse(links, layout, layout.sparse, child(at, "sparse"), issues)


def _check_sparse(
    links: DocumentLinks, layout: AccessorLayout, sparse: SparseLayout, at: str, issues: FileIssues
) -> None:
    if sparse.count > layout.count:
        issues.add(
            "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE",
            pointer=child(at, "count"),
            sparse=sparse.count,
            count=layout.count,
        )
    views = links.items("bufferViews")
    index_size = COMPONENT_DTYPES[sparse.indices_component_type].itemsize
    parts = (
        ("indices", sparse.indices_view, sparse.indices_offset, index_size, index_size),
        (
            "values",
            sparse.values_view,
            sparse.values_offset,
            layout.component_size,
            layout.component_size * layout.components,
        ),
    )
    for part, view_index, offset, size, element in parts:
        view, part_at = resolve(view_index, views), child(at, part)
        if view is None:
            continue
        if "byteStride" in view:
            issues.add("BUFFER_VIEW_INVALID_BYTE_STRIDE", pointer=child(part_at, "bufferView"))
        _check_placement(
            view, offset, size, element * sparse.count, part_at, issues, view_index=view_index
        )


def _check_placement(
    view: dict,
    offset: int,
    size: int,
    length: int | None,
    at: str,
    issues: FileIssues,
    view_index: int | None = None,
) -> None:
    """Alignment of an accessor (or sparse part) in its view, and its fit when ``length`` is set.

    The main accessor's fit is the reader's ``ACCESSOR_TOO_LONG``; sparse parts are checked here.
    """
    if offset % size:
        issues.add(
            "ACCESSOR_OFFSET_ALIGNMENT",
            pointer=child(at, "byteOffset"),
            byte_offset=offset,
            size=size,
        )
    view_offset = as_integer(view.get("byteOffset", 0))
    if view_offset is not None and view_offset >= 0 and (view_offset + offset) % size:
        issues.add(
            "ACCESSOR_TOTAL_OFFSET_ALIGNMENT",
            pointer=at,
            byte_offset=view_offset + offset,
            size=size,
        )
    if length is None:
        return
    view_length = as_integer(view.get("byteLength"))
    if view_length is None or view_length < 1:
        return
    if offset > view_length or offset + length > view_length:
        pointer = child(at, "byteOffset") if offset > view_length else at
        issues.add(
            "ACCESSOR_TOO_LONG",
            pointer=pointer,
            byte_offset=offset,
            length=length,
            buffer_view=view_index,
            view_length=view_length,
        )


def _check_bounds(
    accessor: dict, declared: tuple[Numbers | None, Numbers | None], at: str, issues: FileIssues
) -> None:
    """``min`` and ``max``: one value per component, of the accessor's component type.
    ``declared`` are the bounds read well formed (:mod:`.accessor_bounds`): nothing to say
    about those."""
    low, high = declared
    if (low is not None or "min" not in accessor) and (high is not None or "max" not in accessor):
        return  # the common case: both well formed, or absent
    unread = [
        key for key, numbers in (("min", low), ("max", high)) if numbers is None and key in accessor
    ]
    element = element_format(accessor.get("componentType"), accessor.get("type"))
    if element is None:  # the schema check reports an unusable componentType or type
        return
    component_type, components = element.component_type, element.components
    for key in unread:
        value, pointer = accessor[key], child(at, key)
        if not isinstance(value, list):
            issues.add("TYPE_MISMATCH", pointer=pointer, value=preview(value), expected="an array")
        elif component_type == FLOAT:
            _check_float_bounds(value, components, pointer, issues)
        else:
            _check_integer_bounds(value, components, component_type, pointer, issues)


def _check_float_bounds(value: list, components: int, pointer: str, issues: FileIssues) -> None:
    if not value:
        issues.add("EMPTY_ENTITY", pointer=pointer)
    elif len(value) != components:
        issues.add(
            "ARRAY_LENGTH_NOT_IN_LIST", pointer=pointer, length=len(value), allowed=components
        )
    else:
        for number, item in enumerate(value):
            if not is_number(item):
                issues.add(
                    "ARRAY_TYPE_MISMATCH", pointer=pointer, value=preview(item), expected="a number"
                )
            elif not math.isfinite(item):
                issues.add(
                    "VALUE_NOT_IN_RANGE", pointer=child(pointer, number), value=preview(item)
                )


def _check_integer_bounds(
    value: list, components: int, component_type: int, pointer: str, issues: FileIssues
) -> None:
    if len(value) != components:
        issues.add(
            "ARRAY_LENGTH_NOT_IN_LIST", pointer=pointer, length=len(value), allowed=components
        )
        return
    lowest, highest = INTEGER_RANGES[component_type]
    for item in value:
        number = as_integer(item)
        if number is None:
            issues.add(
                "ARRAY_TYPE_MISMATCH", pointer=pointer, value=preview(item), expected="an integer"
            )
        elif not lowest <= number <= highest:
            name = COMPONENT_DTYPES[component_type].name
            issues.add("INVALID_GL_VALUE", pointer=pointer, value=number, component_type=name)


def _check_uses(links: DocumentLinks, issues: FileIssues) -> None:
    roles: dict[tuple[str, int], str] = {}
    for index, view in enumerate(links.items("bufferViews")):
        target = as_integer(view.get("target")) if view is not None else None
        role = TARGET_ROLES.get(target) if target is not None else None
        if role is not None:
            roles["bufferViews", index] = role
    for use in uses(links):
        first = roles.get((use.collection, use.index))
        if first is None:
            roles[use.collection, use.index] = use.role
            if use.collection == "bufferViews" and use.role in VERTEX_ROLES:
                issues.add("BUFFER_VIEW_TARGET_MISSING", pointer=use.pointer, usage=use.role)
        elif first != use.role:
            code = (
                "BUFFER_VIEW_TARGET_OVERRIDE"
                if use.collection == "bufferViews"
                else "ACCESSOR_USAGE_OVERRIDE"
            )
            issues.add(code, pointer=use.pointer, first=first, second=use.role)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-buffers",
            "Buffer view strides and targets, accessor alignment, sparse "
            "storage, min/max types and how accessors are used.",
            check_buffers,
            CODES,
            GLTF_FORMATS,
        )
    ]
