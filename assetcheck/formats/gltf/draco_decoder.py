"""Decoding Draco mesh payloads (``KHR_draco_mesh_compression``) with Google's decoder.

``DracoPy`` wraps the reference C++ decoder. Native code that allocates what a payload
declares runs only in a child process (:mod:`assetcheck.formats.gltf.compression`), so the
functions here return plain data that crosses the pipe: arrays travel as
``(dtype, shape, buffer)`` triples, out of band, and :func:`unpack_mesh` checks them on arrival.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from assetcheck.sandbox.containment import worker_threads

#: The dtypes a decoded attribute or face array may arrive in (Draco's numeric types).
_ARRAY_DTYPES = frozenset({"|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<f4", "<f8"})


class DracoError(ValueError):
    """The payload does not decode; the message says why."""


@dataclass(frozen=True)
class DracoMesh:
    """A decoded Draco payload: ``faces`` is ``(n, 3)`` point indices, None for a point cloud;
    ``attributes`` are ``(point_count, components)`` arrays by Draco attribute unique id."""

    point_count: int
    faces: np.ndarray | None
    attributes: dict[int, np.ndarray]


def decode_all_packed(payloads: list[bytes | memoryview]) -> list[tuple]:
    """:func:`decode_packed` of each payload, in order, several at a time on the cores there
    are (the decoder releases the GIL) as far as the address space left holds the threads
    (:func:`~assetcheck.sandbox.containment.worker_threads`). Runs in the child, where these
    threads are its own."""
    workers = worker_threads(len(payloads))
    if workers > 1:
        try:
            with ThreadPoolExecutor(workers) as pool:
                return list(pool.map(decode_packed, payloads))
        except RuntimeError:  # no room for a thread's stack under the memory limit
            pass
    return [decode_packed(payload) for payload in payloads]


def decode_packed(payload: bytes | memoryview) -> tuple:
    """Decode ``payload`` for the trip to the parent: ``("mesh", points, faces, attributes)``
    with arrays packed, or ``("error", reason)``. Runs in the child."""
    import DracoPy

    try:
        decoded = DracoPy.decode(bytes(payload))  # it takes bytes only
    except MemoryError:
        raise
    except Exception as error:  # DracoPy raises several types, all meaning "does not decode"
        return ("error", str(error) or type(error).__name__)
    attributes = {
        int(item["unique_id"]): _pack(np.asarray(item["data"])) for item in decoded.attributes
    }
    faces = getattr(decoded, "faces", None)
    return (
        "mesh",
        len(decoded.points),
        None if faces is None else _pack(np.asarray(faces)),
        attributes,
    )


def unpack_mesh(packed: tuple) -> DracoMesh:
    """The mesh :func:`decode_packed` sent; :class:`DracoError` for a decoding failure."""
    if packed[0] == "error":
        raise DracoError(packed[1])
    _, point_count, faces, attributes = packed
    triangles = None if faces is None else _unpack(faces)
    if triangles is not None and triangles.shape[1] != 3:
        raise DracoError(f"the decoder sent faces of {triangles.shape[1]} corners")
    return DracoMesh(
        point_count, triangles, {uid: _unpack(data) for uid, data in attributes.items()}
    )


def _pack(array: np.ndarray) -> tuple:
    array = np.ascontiguousarray(array)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    # numpy's stubs give ndarray its buffer protocol (__buffer__) only from Python 3.12 on.
    return (array.dtype.str, array.shape, pickle.PickleBuffer(array))  # type: ignore[arg-type]


def _unpack(packed: tuple) -> np.ndarray:
    dtype, shape, data = packed
    if (
        dtype not in _ARRAY_DTYPES
        or len(shape) != 2
        or not all(isinstance(n, int) and n >= 0 for n in shape)
    ):
        raise DracoError(f"the decoder sent an unexpected array ({dtype}, {shape})")
    return np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)
