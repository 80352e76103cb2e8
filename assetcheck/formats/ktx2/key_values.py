"""The key/value data of a KTX2 file (KTX 2.0, section 3.11): length-prefixed pairs, each a
NUL-terminated UTF-8 key and a value, padded to 4 bytes, sorted by key, each key once."""

from __future__ import annotations

import struct

from assetcheck.formats.ktx2.fixed_part import Ktx2Header
from assetcheck.issues.findings import Findings


def read_key_values(view: memoryview, header: Ktx2Header, findings: Findings) -> dict[str, bytes]:
    """The pairs the key/value data holds, up to the first malformed one, which is reported
    as ``KTX2_KEY_VALUE_DATA_INVALID``. Data outside the file is left to the layout check."""
    section = header.kvd
    if not section.length or section.end > len(view):
        return {}
    pairs: dict[str, bytes] = {}
    position = section.offset
    previous = None
    while position < section.end:
        reason = None
        if position + 4 > section.end:
            reason = "a pair's length runs past kvdByteLength"
        else:
            (length,) = struct.unpack_from("<I", view, position)
            body = bytes(view[position + 4 : min(position + 4 + length, section.end)])
            key, nul, value = body.partition(b"\0")
            if length < 2:
                reason = f"a pair is {length} bytes long, less than a key and its NUL"
            elif len(body) < length:
                reason = "a pair runs past kvdByteLength"
            elif not nul or not key:
                reason = "a key is empty or not NUL-terminated"
            else:
                try:
                    name = key.decode("utf-8")
                except UnicodeDecodeError:
                    reason = "a key is not UTF-8"
                else:
                    if name in pairs:
                        reason = f"key {name} appears twice"
                    elif previous is not None and name < previous:
                        reason = f"key {name} comes after {previous}; keys must be sorted"
                    pairs[name], previous = value, name
            position += 4 + length + (-length % 4)
        if reason is not None:
            findings.add("KTX2_KEY_VALUE_DATA_INVALID", reason=reason)
            break
    else:
        if position != section.end:
            findings.add(
                "KTX2_KEY_VALUE_DATA_INVALID",
                reason="the pairs and their padding do not add up to kvdByteLength",
            )
    return pairs


def text_value(value: bytes) -> str:
    """A string value without its NUL terminator (readers must not rely on one)."""
    return value.rstrip(b"\0").decode("utf-8", errors="replace")
