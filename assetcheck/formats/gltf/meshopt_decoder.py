"""Decoding one meshopt-compressed buffer view (``EXT_meshopt_compression``, KHR's too).

The decoders are meshoptimizer's own C functions, from the shared library the ``meshoptimizer``
package ships, called through ctypes with destination buffers sized here. The package's Python
wrappers are not used: ``decode_vertex_buffer(dtype=...)`` sizes its destination by the dtype,
not by the vertex size (a heap overflow for any stride above the dtype's size), and
``decode_index_buffer`` returns 2-byte indices packed in pairs into 32-bit values. The C
decoders check every read against the payload's length and answer an error code for a
malformed stream; they assert (abort) on parameters outside the extension's rules, so
:func:`layout_problem` must pass before :func:`decode_view` is called, and the whole decoding
runs in the decoder helper, a child process (:func:`decode_views`, called through
:mod:`assetcheck.sandbox.decoder` by :mod:`assetcheck.formats.gltf.meshopt`), whose decoded
bytes reach the parent in the answer's file, not through the socket.
"""

from __future__ import annotations

import ctypes
import pickle
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Anything exporting bytes (bytes, bytearray, memoryview, mmap).
Buffer = Any

#: The bitstream header of each mode: attributes ``0xa?``, triangles ``0xe?``, indices ``0xd?``;
#: the low nibble is the codec version.
_HEADERS = {"ATTRIBUTES": 0xA0, "TRIANGLES": 0xE0, "INDICES": 0xD0}
#: The attribute codec versions each extension allows (KHR added version 1).
VERTEX_VERSIONS = {"EXT_meshopt_compression": (0,), "KHR_meshopt_compression": (0, 1)}
FILTERS = ("NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL")


class MeshoptError(ValueError):
    """The payload does not decode; the message says why."""


@dataclass(frozen=True)
class MeshoptView:
    """What one extension object asks to decode: ``count`` elements of ``byte_stride`` bytes."""

    extension: str
    count: int
    byte_stride: int
    mode: str
    filter: str = "NONE"

    @property
    def decoded_length(self) -> int:
        return self.count * self.byte_stride


def layout_problem(view: MeshoptView) -> str | None:
    """Why ``view`` breaks the extension's mode, stride and filter rules; None if it does not."""
    stride, mode, filter_ = view.byte_stride, view.mode, view.filter
    if mode not in _HEADERS:
        return f"mode {mode!r} is not ATTRIBUTES, TRIANGLES or INDICES"
    if filter_ not in FILTERS:
        return f"filter {filter_!r} is not one of {', '.join(FILTERS)}"
    if mode == "ATTRIBUTES":
        if stride % 4 or not 4 <= stride <= 256:
            return f"byteStride {stride} of ATTRIBUTES data must be a multiple of 4 up to 256"
    else:
        if stride not in (2, 4):
            return f"byteStride {stride} of {mode} data must be 2 or 4"
        if filter_ != "NONE":
            return f"{mode} data takes no filter (it has {filter_})"
        if mode == "TRIANGLES" and view.count % 3:
            return f"count {view.count} of TRIANGLES data is not a multiple of 3"
    if filter_ == "OCTAHEDRAL" and stride not in (4, 8):
        return f"the OCTAHEDRAL filter needs a byteStride of 4 or 8, not {stride}"
    if filter_ == "QUATERNION" and stride != 8:
        return f"the QUATERNION filter needs a byteStride of 8, not {stride}"
    return None


def decode_view(view: MeshoptView, payload: Buffer, destination: Buffer | None = None) -> Buffer:
    """The ``view.decoded_length`` bytes that ``payload`` decodes to, filter applied, written
    into ``destination`` (a writable buffer of that length; a new bytearray when None).

    ``view`` must have no :func:`layout_problem`. Raises :class:`MeshoptError`.
    """
    source = np.frombuffer(payload, np.uint8)  # no copy: the C decoder only reads it
    header = _HEADERS[view.mode]
    if not source.size or source[0] & 0xF0 != header:
        raise MeshoptError(f"it does not start with the {view.mode} header 0x{header:x}")
    version = int(source[0]) & 0x0F
    if view.mode == "ATTRIBUTES" and version not in VERTEX_VERSIONS[view.extension]:
        raise MeshoptError(f"attribute codec version {version} is not allowed by {view.extension}")
    if destination is None:
        destination = bytearray(view.decoded_length)
    target = np.frombuffer(destination, np.uint8)
    if target.size != view.decoded_length or not target.flags.writeable:
        raise ValueError("the destination must be a writable buffer of the decoded length")
    decoders = library()
    decode = {
        "ATTRIBUTES": decoders.meshopt_decodeVertexBuffer,
        "TRIANGLES": decoders.meshopt_decodeIndexBuffer,
        "INDICES": decoders.meshopt_decodeIndexSequence,
    }[view.mode]
    status = decode(
        target.ctypes.data, view.count, view.byte_stride, source.ctypes.data, source.size
    )
    if status != 0:
        raise MeshoptError(f"the {view.mode} decoder rejects the stream (error {status})")
    if view.filter != "NONE":
        apply = {
            "OCTAHEDRAL": decoders.meshopt_decodeFilterOct,
            "QUATERNION": decoders.meshopt_decodeFilterQuat,
            "EXPONENTIAL": decoders.meshopt_decodeFilterExp,
        }[view.filter]
        apply(target.ctypes.data, view.count, view.byte_stride)
    return destination


def decode_views(views: list[tuple[MeshoptView, Buffer]]) -> list[pickle.PickleBuffer | str]:
    """Each view's payload decoded into a new buffer, sent back out of band (in the answer's
    file), or why it does not decode; in order. Runs in the decoder's child process, where a
    decoded view that does not fit the memory limit raises ``MemoryError``."""
    decoded: list[pickle.PickleBuffer | str] = []
    for view, payload in views:
        try:
            decoded.append(pickle.PickleBuffer(decode_view(view, payload)))
        except MeshoptError as error:
            decoded.append(str(error))
    return decoded


_LOADED: list[ctypes.CDLL] = []


def library() -> ctypes.CDLL:
    """meshoptimizer's shared library with the prototypes of the decoders, loaded once (load it
    before asking a child to decode, so that the child inherits it)."""
    if not _LOADED:
        from meshoptimizer import _loader  # the package's copy of the library; loads on import

        shared = ctypes.CDLL(_loader.lib._name)
        size, pointer = ctypes.c_size_t, ctypes.c_void_p
        for name in (
            "meshopt_decodeVertexBuffer",
            "meshopt_decodeIndexBuffer",
            "meshopt_decodeIndexSequence",
        ):
            function = getattr(shared, name)
            function.argtypes = [pointer, size, size, pointer, size]
            function.restype = ctypes.c_int
        for name in (
            "meshopt_decodeFilterOct",
            "meshopt_decodeFilterQuat",
            "meshopt_decodeFilterExp",
        ):
            function = getattr(shared, name)
            function.argtypes = [pointer, size, size]
            function.restype = None
        _LOADED.append(shared)
    return _LOADED[0]
