"""Draco-compressed primitives (``KHR_draco_mesh_compression``): decoded, checked, bound.

Every primitive's payload is decoded (:mod:`assetcheck.formats.gltf.draco_decoder`, all of a file's
in one
child, on as many cores as there are) and checked against the accessors the primitive names:
each attribute id exists in the payload with the accessor's number of components, every
attribute accessor's ``count`` is the decoded vertex count, the indices accessor's ``count`` is
three times the decoded triangles, and the decoded positions lie within the POSITION accessor's
``min``/``max``. The data of each accessor that passes is returned, in the accessor's component
type, for the data layer.

Draco quantizes positions, so the decoded box may pass the original one by part of a
quantization step: positions further out than 1/1024 of the box's largest side are reported
(``docs/compression.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from assetcheck.asset.options import Limits
from assetcheck.formats.gltf.accessor_data import COMPONENT_DTYPES, FLOAT, accessor_layout
from assetcheck.formats.gltf.compression import DRACO_EXTENSION as EXTENSION
from assetcheck.formats.gltf.fields import as_integer, child, preview
from assetcheck.formats.gltf.layout import Accessors, Buffer, view_bytes
from assetcheck.issues import FileIssues

if TYPE_CHECKING:
    from assetcheck.formats.gltf.draco_decoder import DracoMesh

TRIANGLES = 4
#: How far past the declared box (as a share of its largest side) a decoded position may lie.
BOUNDS_TOLERANCE = 1 / 1024


@dataclass(frozen=True)
class _Compressed:
    """One Draco primitive: its pointer, its JSON, its extension's attribute ids, its payload."""

    pointer: str
    primitive: dict
    attribute_ids: dict[str, int]
    payload: memoryview


def decode_draco_primitives(
    document: dict[str, Any],
    buffers: list[Buffer | None],
    accessors: Accessors,
    issues: FileIssues,
    limits: Limits,
    *,
    required: bool,
) -> dict[int, np.ndarray]:
    """The decoded data of every accessor bound to a Draco primitive that checks out.

    An extension object no loader can use (:func:`read_extension`) is
    ``DRACO_DECODE_FAILED`` when the extension is ``required``; otherwise a loader ignores it
    and reads the primitive's uncompressed accessors, and so do the checks.
    """
    compressed = list(_compressed_primitives(document, buffers, issues, required))
    if not compressed:
        return {}
    # Loaded here, not at start-up (files without Draco never pay for the decoder, its thread
    # pool or the sandbox), and before the fork: the child's limit is for decoding.
    import DracoPy  # noqa: F401

    from assetcheck.formats.gltf.draco_decoder import DracoError, decode_all_packed, unpack_mesh
    from assetcheck.sandbox.decoder import run_decoder

    packed = run_decoder(  # a partial, not a lambda: the decoder helper can take it
        partial(decode_all_packed, [item.payload for item in compressed]),
        limits,
        issues,
        "DRACO_DECODE_FAILED",
    )
    decoded: dict[int, np.ndarray] = {}
    for item, result in zip(compressed, packed or [], strict=False):
        try:
            mesh = unpack_mesh(result)
        except DracoError as error:
            issues.add("DRACO_DECODE_FAILED", pointer=item.pointer, reason=str(error))
            continue
        decoded.update(_bind(item, mesh, accessors, issues))
    return decoded


def _compressed_primitives(
    document: dict[str, Any], buffers: list[Buffer | None], issues: FileIssues, required: bool
) -> Iterator[_Compressed]:
    views = document.get("bufferViews")
    views = views if isinstance(views, list) else []
    meshes = document.get("meshes")
    for mesh_index, mesh in enumerate(meshes if isinstance(meshes, list) else []):
        primitives = mesh.get("primitives") if isinstance(mesh, dict) else None
        for number, primitive in enumerate(primitives if isinstance(primitives, list) else []):
            extensions = primitive.get("extensions") if isinstance(primitive, dict) else None
            extension = extensions.get(EXTENSION) if isinstance(extensions, dict) else None
            if not isinstance(extension, dict):
                continue
            pointer = child(
                child(
                    child(child(child("/meshes", mesh_index), "primitives"), number), "extensions"
                ),
                EXTENSION,
            )
            usable = read_extension(extension, views)
            if isinstance(usable, str):
                if required:  # else a loader reads the uncompressed accessors
                    issues.add("DRACO_DECODE_FAILED", pointer=pointer, reason=usable)
                continue
            view, attribute_ids = usable
            payload = view_bytes(views[view], buffers)
            if payload is None:
                issues.add(
                    "DRACO_DECODE_FAILED",
                    pointer=pointer,
                    reason=f"buffer view {view} has no data to read it from",
                )
                continue
            yield _Compressed(pointer, primitive, attribute_ids, payload)


def read_extension(extension: dict, views: list) -> tuple[int, dict[str, int]] | str:
    """The buffer view and attribute ids of an extension object, or why no loader can decode
    the payload it describes (its schema broken or its bufferView naming nothing)."""
    ids = extension.get("attributes")
    if not isinstance(ids, dict):
        return f"its attributes ({preview(ids)}) are not an object"
    attribute_ids = {}
    for semantic, value in ids.items():
        uid = as_integer(value)
        if uid is None or uid < 0:
            return f"its attributes give {semantic} the id {preview(value)}, not an integer >= 0"
        attribute_ids[semantic] = uid
    view = as_integer(extension.get("bufferView"))
    if view is None or not 0 <= view < len(views) or not isinstance(views[view], dict):
        return f"its bufferView ({preview(extension.get('bufferView'))}) names no buffer view"
    return view, attribute_ids


def _bind(
    item: _Compressed, mesh: DracoMesh, accessors: Accessors, issues: FileIssues
) -> dict[int, np.ndarray]:
    """The accessors of one primitive with their decoded data, after checking each."""
    bound: dict[int, np.ndarray] = {}
    attributes = item.primitive.get("attributes")
    attributes = attributes if isinstance(attributes, dict) else {}
    for semantic, uid in item.attribute_ids.items():
        index = _accessor(attributes.get(semantic), accessors)
        if index is None:
            continue
        data = mesh.attributes.get(uid)
        if data is None:
            issues.add(
                "DRACO_ATTRIBUTE_MISSING",
                pointer=child(child(item.pointer, "attributes"), semantic),
                semantic=semantic,
                id=uid,
                ids=sorted(mesh.attributes) or "none",
            )
            continue
        array = _accessor_data(semantic, index, data, mesh, accessors, item.pointer, issues)
        if array is not None:
            bound[index] = array
    indices = _accessor(item.primitive.get("indices"), accessors)
    mode = as_integer(item.primitive.get("mode", TRIANGLES))
    if indices is not None and mode == TRIANGLES:
        faces = mesh.faces if mesh.faces is not None else np.zeros((0, 3), np.uint32)
        layout = accessor_layout(accessors.items[indices])
        if layout is not None and layout.count != faces.size:
            issues.add(
                "DRACO_INDEX_COUNT_MISMATCH",
                pointer=item.pointer,
                declared=layout.count,
                decoded=faces.size,
                triangles=len(faces),
            )
        elif layout is not None and layout.components == 1:
            bound[indices] = _readonly(
                faces.reshape(-1, 1).astype(COMPONENT_DTYPES[layout.component_type], copy=False)
            )
    return bound


def _accessor_data(
    semantic: str,
    index: int,
    data: np.ndarray,
    mesh: DracoMesh,
    accessors: Accessors,
    pointer: str,
    issues: FileIssues,
) -> np.ndarray | None:
    """One attribute's decoded data in its accessor's component type, or None when it does
    not fit the accessor (reported)."""
    accessor = accessors.items[index]
    layout = accessor_layout(accessor)
    if accessor is None or layout is None:
        return None
    at = child(child(pointer, "attributes"), semantic)
    if data.shape[1] != layout.components:
        issues.add(
            "DRACO_ATTRIBUTE_SHAPE_MISMATCH",
            pointer=at,
            semantic=semantic,
            decoded=data.shape[1],
            type=layout.type,
        )
        return None
    if layout.count != mesh.point_count:
        issues.add(
            "DRACO_VERTEX_COUNT_MISMATCH",
            pointer=at,
            semantic=semantic,
            declared=layout.count,
            decoded=mesh.point_count,
        )
        return None
    array = _readonly(data.astype(COMPONENT_DTYPES[layout.component_type], copy=False))
    if semantic == "POSITION" and layout.component_type == FLOAT:
        _check_bounds(accessor, array, pointer, issues)
    return array


def _check_bounds(accessor: dict, positions: np.ndarray, pointer: str, issues: FileIssues) -> None:
    bounds = [accessor.get(key) for key in ("min", "max")]
    if not all(
        isinstance(b, list)
        and len(b) == positions.shape[1]
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in b)
        for b in bounds
    ) or not len(positions):
        return  # missing or malformed bounds are the accessor checks' to report
    low, high = (np.array(b, np.float64) for b in bounds)
    slack = float(np.max(high - low, initial=0.0)) * BOUNDS_TOLERANCE
    # Column by column: several times faster in numpy than reducing a narrow array on axis 0.
    columns = [positions[:, axis] for axis in range(positions.shape[1])]
    excess = np.array(
        [
            max(low[axis] - float(column.min()), float(column.max()) - high[axis])
            for axis, column in enumerate(columns)
        ]
    )
    if not np.any(excess > slack):
        return
    axis = int(np.argmax(excess))
    outside = np.zeros(len(positions), bool)
    for number, column in enumerate(columns):
        outside |= (column < low[number] - slack) | (column > high[number] + slack)
    issues.add(
        "DRACO_POSITION_OUT_OF_BOUNDS",
        pointer=pointer,
        count=int(np.count_nonzero(outside)),
        excess=float(excess[axis]),
        axis="XYZW"[axis],
    )


def _accessor(value: object, accessors: Accessors) -> int | None:
    index = as_integer(value)
    if index is None or not 0 <= index < len(accessors.items) or accessors.items[index] is None:
        return None
    return index


def _readonly(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
