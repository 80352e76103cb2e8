"""meshopt-compressed buffer views (``EXT_meshopt_compression``, ``KHR_meshopt_compression``).

Each compressed view is checked against the extension's rules (``byteLength`` is ``count``
times ``byteStride``, the parent's ``byteStride`` matches, mode, stride and filter fit, and the
accessors reading it use the component type its mode and filter decode to), its
payload is decoded (:mod:`assetcheck.formats.gltf.meshopt_decoder`, in a child), and the fallback
buffer rules are checked: a buffer marked ``fallback`` is read only by compressed views and never
holds compressed data, and a buffer with no data makes the extension required.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from assetcheck.asset.options import Limits
from assetcheck.formats.gltf.accessor_data import (
    BYTE,
    COMPONENT_NAMES,
    FLOAT,
    SHORT,
    UNSIGNED_INT,
    UNSIGNED_SHORT,
    accessor_layout,
)
from assetcheck.formats.gltf.compression import MESHOPT_EXTENSIONS as EXTENSIONS
from assetcheck.formats.gltf.fields import as_integer, child, preview
from assetcheck.formats.gltf.layout import Buffer, Bytes
from assetcheck.formats.gltf.meshopt_decoder import (
    MeshoptView,
    decode_views,
    layout_problem,
    library,
)
from assetcheck.issues import FileIssues


@dataclass(frozen=True)
class _Extension:
    """A usable extension object: what it asks to decode, and its compressed bytes (or why
    they cannot be had)."""

    layout: MeshoptView
    payload: memoryview | str


@dataclass(frozen=True)
class _Compressed:
    """One compressed view to decode: its index, pointer, layout and payload bytes."""

    index: int
    pointer: str
    layout: MeshoptView
    payload: memoryview


def decode_meshopt_views(
    document: dict[str, Any],
    buffers: list[Buffer | None],
    issues: FileIssues,
    limits: Limits,
    *,
    is_glb: bool,
    required: frozenset[str],
) -> dict[int, memoryview]:
    """The decoded bytes of every compressed view that decodes, by buffer view index.

    An extension object no loader can use (:func:`read_extension`) is
    ``MESHOPT_DECODE_FAILED`` when its extension is in ``required``; otherwise a loader ignores
    it and reads the view's own (fallback) bytes, and so do the checks.
    """
    views = document.get("bufferViews")
    views = views if isinstance(views, list) else []
    compressed = []
    for index, view in enumerate(views):
        name, extension = compression_extension(view)
        if extension is None:
            continue
        item = _plan(index, view, name, extension, buffers, issues, name in required)
        if item is not None:
            compressed.append(item)
    _check_fallbacks(document, views, issues, is_glb=is_glb)
    _check_readers(document, compressed, issues)
    if not compressed:
        return {}
    total = sum(item.layout.decoded_length for item in compressed)
    if total > limits.memory_limit_mb << 20:
        issues.add("RESOURCE_LIMIT", limit_mb=limits.memory_limit_mb)
        return {}
    library()  # loaded here, not in every child
    # The sandbox, too: files without meshopt payloads never load it.
    from assetcheck.sandbox.decoder import run_decoder

    results = run_decoder(  # a partial: the decoder helper can take it
        partial(decode_views, [(item.layout, item.payload) for item in compressed]),
        limits,
        issues,
        "MESHOPT_DECODE_FAILED",
    )
    decoded: dict[int, memoryview] = {}
    for item, result in zip(compressed, results or [], strict=False):
        received = _received(result, item.layout.decoded_length)
        if isinstance(received, str):
            issues.add("MESHOPT_DECODE_FAILED", pointer=item.pointer, reason=received)
        else:
            decoded[item.index] = received
    return decoded


def _received(result: object, length: int) -> memoryview | str:
    """The decoded bytes of a view of ``length`` bytes, read-only, when ``result`` is them (a
    flat byte buffer mapped from the child's answer); else why it is not: the child's reason,
    or what it sent instead."""
    if isinstance(result, str):
        return result
    if isinstance(result, memoryview) and result.format == "B" and result.nbytes == length:
        return result.toreadonly()
    sent = f"{result.nbytes} bytes" if isinstance(result, memoryview) else type(result).__name__
    return f"the decoder sent {sent}, not the {length} bytes it decodes to"


def compression_extension(view: object) -> tuple[str, dict | None]:
    """The meshopt extension object of a buffer view and its name (KHR's first), or None."""
    extensions = view.get("extensions") if isinstance(view, dict) else None
    if isinstance(extensions, dict):
        for name in EXTENSIONS:
            if isinstance(extensions.get(name), dict):
                return name, extensions[name]
    return "", None


def _plan(
    index: int,
    view: dict,
    name: str,
    extension: dict,
    buffers: list[Buffer | None],
    issues: FileIssues,
    required: bool,
) -> _Compressed | None:
    """The view to decode, or None after reporting why it cannot be."""
    at = child(child(child("/bufferViews", index), "extensions"), name)
    usable = read_extension(name, extension, buffers)
    if isinstance(usable, str):
        if required:  # else a loader reads the view's fallback bytes
            issues.add("MESHOPT_DECODE_FAILED", pointer=at, reason=usable)
        return None
    layout = usable.layout
    count, stride = layout.count, layout.byte_stride
    problem = layout_problem(layout)
    parent_stride = as_integer(view.get("byteStride"))
    if problem is None and "byteStride" in view and parent_stride != stride:
        problem = f"the buffer view's byteStride {view['byteStride']} differs from its {stride}"
    if problem is not None:
        issues.add("MESHOPT_INVALID_LAYOUT", pointer=at, reason=problem)
        return None
    byte_length = as_integer(view.get("byteLength"))
    if byte_length != layout.decoded_length:
        issues.add(
            "MESHOPT_BYTE_LENGTH_MISMATCH",
            pointer=child(child("/bufferViews", index), "byteLength"),
            byte_length=view.get("byteLength"),
            count=count,
            byte_stride=stride,
            decoded=layout.decoded_length,
        )
        return None
    if isinstance(usable.payload, str):
        issues.add("MESHOPT_DECODE_FAILED", pointer=at, reason=usable.payload)
        return None
    return _Compressed(index, at, layout, usable.payload)


def _check_readers(
    document: dict[str, Any], compressed: list[_Compressed], issues: FileIssues
) -> None:
    """Accessors that read a compressed view in another component type than its mode and
    filter decode to (index data of its stride, filtered data of its filter's type)."""
    by_view = {item.index: item for item in compressed}
    accessors = document.get("accessors")
    for index, accessor in enumerate(accessors if isinstance(accessors, list) else ()):
        layout = accessor_layout(accessor)
        if layout is None or layout.buffer_view is None:
            continue
        item = by_view.get(layout.buffer_view)
        if item is None:
            continue
        expected = decoded_component_types(item.layout)
        if expected and layout.component_type not in expected:
            names = " or ".join(COMPONENT_NAMES[number] for number in expected)
            issues.add(
                "MESHOPT_INVALID_LAYOUT",
                pointer=item.pointer,
                reason=(
                    f"accessor {index} reads it as {COMPONENT_NAMES[layout.component_type]}, but "
                    f"{item.layout.mode} data with the {item.layout.filter} filter and a "
                    f"byteStride of {item.layout.byte_stride} decodes to {names}"
                ),
            )


def decoded_component_types(view: MeshoptView) -> tuple[int, ...]:
    """The accessor component types ``view`` decodes to; empty when any may read it."""
    if view.mode != "ATTRIBUTES":
        return (UNSIGNED_SHORT,) if view.byte_stride == 2 else (UNSIGNED_INT,)
    return {
        "OCTAHEDRAL": (BYTE,) if view.byte_stride == 4 else (SHORT,),
        "QUATERNION": (SHORT,),
        "EXPONENTIAL": (FLOAT,),
    }.get(view.filter, ())


def read_extension(
    name: str,
    extension: dict,
    buffers: list[Buffer | None],
) -> _Extension | str:
    """The extension object ``name`` of a buffer view, or why no loader can decode the payload
    it describes (its schema broken or its buffer naming nothing)."""
    sizes = {}
    for key in ("count", "byteStride", "byteLength"):
        number = as_integer(extension.get(key))
        if number is None or number < 1:
            return f"its {key} ({preview(extension.get(key))}) is not an integer >= 1"
        sizes[key] = number
    offset = as_integer(extension.get("byteOffset", 0))
    if offset is None or offset < 0:
        return f"its byteOffset ({preview(extension['byteOffset'])}) is not an integer >= 0"
    mode, filter_ = extension.get("mode"), extension.get("filter", "NONE")
    if not isinstance(mode, str):
        return f"its mode ({preview(mode)}) is not a string"
    if not isinstance(filter_, str):
        return f"its filter ({preview(filter_)}) is not a string"
    buffer = as_integer(extension.get("buffer"))
    source = buffers[buffer] if buffer is not None and 0 <= buffer < len(buffers) else None
    if buffer is None or source is None:
        return f"its buffer ({preview(extension.get('buffer'))}) names no buffer"
    layout = MeshoptView(name, sizes["count"], sizes["byteStride"], mode, filter_)
    return _Extension(layout, _payload(buffer, source.data, offset, sizes["byteLength"]))


def _payload(buffer: int, data: Bytes | None, offset: int, length: int) -> memoryview | str:
    """The ``length`` compressed bytes at ``offset`` of ``buffer``, or why they cannot be had."""
    if data is None:
        return f"buffer {buffer} has no data to read it from"
    if offset + length > len(data):
        return (
            f"its {length} bytes at offset {offset} run past the end of buffer {buffer} "
            f"({len(data)} bytes)"
        )
    return memoryview(data)[offset : offset + length]


def _check_fallbacks(
    document: dict[str, Any], views: list, issues: FileIssues, *, is_glb: bool
) -> None:
    """The fallback buffer rules of the extensions (see the module docstring)."""
    items = document.get("buffers")
    items = items if isinstance(items, list) else []
    fallbacks = {index for index, buffer in enumerate(items) if _is_fallback(buffer)}
    required = document.get("extensionsRequired")
    required = required if isinstance(required, list) else []
    empty_reported: set[int] = set()
    for index, view in enumerate(views):
        if not isinstance(view, dict):
            continue
        parent = as_integer(view.get("buffer"))
        name, extension = compression_extension(view)
        if extension is None:
            if parent in fallbacks:
                issues.add(
                    "MESHOPT_FALLBACK_MISUSED",
                    pointer=child("/bufferViews", index),
                    buffer=parent,
                    reason=f"buffer view {index}, which is not compressed, reads it",
                )
            continue
        source = as_integer(extension.get("buffer"))
        if source in fallbacks:
            issues.add(
                "MESHOPT_FALLBACK_MISUSED",
                pointer=child("/bufferViews", index),
                buffer=source,
                reason=f"buffer view {index} takes its compressed data from it",
            )
        if (
            parent is not None
            and 0 <= parent < len(items)
            and parent not in empty_reported
            and _has_no_data(items[parent], parent, is_glb)
            and name not in required
        ):
            empty_reported.add(parent)
            issues.add(
                "MESHOPT_FALLBACK_NOT_REQUIRED",
                pointer=child("/buffers", parent),
                buffer=parent,
                extension=name,
            )


def _is_fallback(buffer: object) -> bool:
    extensions = buffer.get("extensions") if isinstance(buffer, dict) else None
    return isinstance(extensions, dict) and any(
        isinstance(extensions.get(name), dict) and extensions[name].get("fallback") is True
        for name in EXTENSIONS
    )


def _has_no_data(buffer: object, index: int, is_glb: bool) -> bool:
    """Whether a buffer has neither a uri nor the GLB binary chunk."""
    return isinstance(buffer, dict) and "uri" not in buffer and not (is_glb and index == 0)
