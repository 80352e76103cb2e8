"""Bounded, streamed inflation of ZIP members: the byte counts that decide ZIP_BOMB.

A member is inflated in chunks and each chunk is counted before the next one is made, so
inflation stops as soon as a member grows past its ratio limit or the upload past its total,
whatever the headers declare. (``zipfile`` is not used: it trusts the declared sizes.)
"""

from __future__ import annotations

import zlib

from assetcheck.formats.zip.layout import Buffer

STORED = 0
DEFLATED = 8

#: Members smaller than this are never judged by their ratio: a short run of zeros compresses
#: 1000:1 without harming anyone (Apache POI's ``ZipSecureFile`` has the same grace).
RATIO_GRACE_BYTES = 100 * 1024

_INPUT_CHUNK = 64 * 1024
_OUTPUT_CHUNK = 1 << 20

_METHOD_NAMES = {9: "Deflate64", 12: "bzip2", 14: "LZMA", 93: "Zstandard", 95: "XZ", 98: "PPMd"}


class ZipBombError(Exception):
    """Inflation was stopped: ``reason`` says which limit the output crossed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnreadableMemberError(Exception):
    """A member's compressed data cannot be inflated: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsupportedCompressionError(UnreadableMemberError):
    """The member uses a compression method other than stored or Deflate: ``method_name``."""

    def __init__(self, method: int) -> None:
        self.method_name = f"{_METHOD_NAMES.get(method, 'an unknown method')} (method {method})"
        super().__init__(f"it is compressed with {self.method_name}")


class InflationBudget:
    """What the members of one upload may inflate to, nested archives included.

    Each member may grow to ``max_ratio`` times its compressed size (or
    :data:`RATIO_GRACE_BYTES`), and all members together to ``max_total`` bytes. Once a limit
    is crossed, ``exceeded`` stays true.
    """

    def __init__(self, max_total: int, max_ratio: float) -> None:
        self.max_total = max_total
        self.max_ratio = max_ratio
        self.total = 0
        self.exceeded = False

    def inflate(
        self, data: Buffer, start: int, size: int, method: int, *, counted: bool = True
    ) -> bytes:
        """The member whose ``size`` compressed bytes start at ``start``, inflated.

        ``counted`` is false when the member was inflated before: it is held to its ratio
        again but not added to the total twice. Raises :class:`ZipBombError` when a limit is
        crossed and :class:`UnreadableMemberError` when the data cannot be inflated.
        """
        meter = _Meter(self, size, counted)
        if method == STORED:
            meter.add(size)
            return data[start : start + size]
        if method != DEFLATED:
            raise UnsupportedCompressionError(method)
        return _inflate_deflate(data, start, start + size, meter)


class _Meter:
    """Counts one member's output against its own limit and the upload's total."""

    def __init__(self, budget: InflationBudget, compressed_size: int, counted: bool) -> None:
        self.budget = budget
        self.compressed_size = compressed_size
        self.limit = max(RATIO_GRACE_BYTES, budget.max_ratio * compressed_size)
        self.counted = counted
        self.size = 0

    def add(self, count: int) -> None:
        """Count ``count`` more output bytes; raises :class:`ZipBombError` past a limit."""
        budget = self.budget
        self.size += count
        if self.counted:
            budget.total += count
        if self.size > self.limit:
            reason = (
                f"it inflates to more than {budget.max_ratio:g} times its compressed "
                f"size of {_bytes_text(self.compressed_size)}"
            )
        elif budget.total > budget.max_total:
            reason = (
                f"the archive's members inflate to more than {_bytes_text(budget.max_total)} in all"
            )
        else:
            return
        budget.exceeded = True
        raise ZipBombError(reason)


def _inflate_deflate(data: Buffer, position: int, end: int, meter: _Meter) -> bytes:
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    pieces = []
    pending = b""
    output_was_full = False
    while not inflater.eof:
        # A full output chunk may leave output pending inside zlib: ask again before feeding.
        if not pending and not output_was_full:
            if position >= end:
                raise UnreadableMemberError("its compressed data ends early")
            pending = data[position : min(position + _INPUT_CHUNK, end)]
            position += len(pending)
        try:
            piece = inflater.decompress(pending, _OUTPUT_CHUNK)
        except zlib.error as error:
            raise UnreadableMemberError(f"its compressed data is damaged ({error})") from None
        pending = inflater.unconsumed_tail
        output_was_full = len(piece) == _OUTPUT_CHUNK
        meter.add(len(piece))
        pieces.append(piece)
    return b"".join(pieces)


def _bytes_text(count: float) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:g} bytes"
