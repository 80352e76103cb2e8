"""The one walk of an ASCII FBX file: one pass over keys, strings, braces and array counts.

Numbers are never tokenised, so the pass costs little more than a regular-expression scan of
the file. It checks nesting depth and the ``*N`` element counts arrays declare (each value takes
at least one byte, so a count above the file size is a lie), and flags ``Content`` blobs that
decode to programs.

On the way it keeps the nodes the reader asked for (:mod:`assetcheck.formats.fbx.tree`): a key
is a node, the text between its strings is its values (split at commas; a long run of it is
one lazily decoded :class:`ArrayRef`), the keys inside its braces are its children, and an
array (``*N { a: ... }``) is its one :class:`ArrayRef`, whose block is not read as a node.
"""

from __future__ import annotations

import base64
import binascii
import re
import string
import time

from assetcheck.asset.options import Limits
from assetcheck.formats.fbx.scan_rules import (
    CLOCK_INTERVAL,
    CONTENT_HEAD_BYTES,
    MAX_NESTING,
    FbxWalk,
    FbxWalker,
    malformed,
    out_of_time,
    truncated,
)
from assetcheck.formats.fbx.tree import (
    PROPERTY_COST,
    ArrayRef,
    BlobRef,
    FbxNode,
    FbxSource,
    KeepRule,
    ascii_scalar,
)

# Runs of numbers and separators, and bare words, are matched whole so that the engine skips
# them quickly; they are values, read with the text around them. Counts are cut at 19 digits:
# any such count is already far beyond the file's size.
_TOKENS = re.compile(rb'[^"{};*A-Za-z_]+|"[^"]*"|;[^\n]*|[{}]|\*\d{1,19}|[A-Za-z_][\w|]*:?')
_KEY_START = frozenset(string.ascii_letters.encode() + b"_")
# The first bytes of the tokens that end a run of values: strings, comments, braces, counts.
_MARKS = frozenset(b'";{}*')
_FILENAME_KEYS = frozenset({"RelativeFilename", "Filename"})
# Base64 characters that decode to at least CONTENT_HEAD_BYTES.
_CONTENT_HEAD_CHARS = (CONTENT_HEAD_BYTES + 2) // 3 * 4
# The largest element an ASCII array is parsed into (a double).
_ITEM_BYTES = 8
# Runs of values longer than this (before any other property) are kept as one lazy array.
_LAZY_SPAN = 256
_CLOSE = re.compile(rb"}")
_COLON = re.compile(rb":")


class _Stop(Exception):
    """The structure cannot be trusted any further; the finding is already recorded."""


class _AsciiWalk(FbxWalker):
    def __init__(self, data: memoryview, limits: Limits, keep: KeepRule) -> None:
        super().__init__(limits, keep, FbxSource(data, False))
        self.data = data
        # Per open block (the root counts): the file name its embedded media are checked under.
        self.filenames = [""]
        self.key = ""
        self.first_string: str | None = None
        self.content: list[bytes] = []
        self.content_offset = 0
        # The tree's own view of the blocks: the kept node each holds the keys of (None when
        # they are not kept); whether a key is open and its kept node; where its next values
        # start; and the end of the array block it skips (whose tokens are checked, not kept).
        self.parents: list[FbxNode | None] = [self.builder.root]
        self.in_key = False
        self.node: FbxNode | None = None
        self.values_start = 0
        self.skip_until = 0

    def run(self) -> FbxWalk:
        deadline = time.monotonic() + self.limits.parse_timeout
        try:
            for count, match in enumerate(_TOKENS.finditer(self.data), 1):
                if count % CLOCK_INTERVAL == 0 and time.monotonic() > deadline:
                    self.scan.findings.append(out_of_time(self.limits.parse_timeout, match.start()))
                    break
                self._token(match.start(), match.end())
            else:
                self._end()
        except _Stop:
            pass
        return self.result()

    def _end(self) -> None:
        """The end of the file: the last key is finished, every block must be closed."""
        self._end_key()
        if len(self.filenames) > 1:
            self.scan.findings.append(
                truncated(
                    f"the file ends inside {len(self.filenames) - 1} unclosed blocks",
                    len(self.data),
                )
            )

    def _token(self, start: int, end: int) -> None:
        first = self.data[start]
        key = first in _KEY_START and self.data[end - 1] == ord(":")
        if not key and first not in _MARKS:
            return  # numbers, separators and bare words: values
        in_tree = start >= self.skip_until  # the tree skips the tokens of an array's values
        if in_tree:
            if self.node is not None and start > self.values_start:
                self._values(self.node, self.values_start, start)
            self.values_start = end
        if first == ord('"'):
            self._string(start + 1, end - 1, in_tree)
        elif first == ord("{"):
            self._open(in_tree)
        elif first == ord("}"):
            self._close(in_tree)
        elif first == ord("*"):
            self._array(int(bytes(self.data[start + 1 : end])), start, end, in_tree)
        elif key:
            self._key(bytes(self.data[start : end - 1]).decode("ascii"), start, in_tree)

    def _key(self, name: str, start: int, in_tree: bool) -> None:
        self._end_key()
        self.key = name
        # A key's node sits one level below the blocks open around it (the root counts).
        if len(self.filenames) > MAX_NESTING:
            self._stop(f"nodes are nested more than {MAX_NESTING} deep", start)
        if in_tree:
            self.in_key = True
            self.node = self.builder.child(self.parents[-1], len(self.parents), name)

    def _string(self, start: int, end: int, in_tree: bool) -> None:
        content = self.key == "Content"
        if in_tree and self.node is not None:
            if content:  # base64 data, read when asked for, if ever
                if self.builder.charge(PROPERTY_COST):
                    self.node.props.append(BlobRef(start, end))
            elif self.builder.charge(PROPERTY_COST + end - start):
                self.node.props.append(bytes(self.data[start:end]).decode("utf-8", "replace"))
        if content:
            if sum(map(len, self.content)) < _CONTENT_HEAD_CHARS:
                self.content.append(bytes(self.data[start : min(end, start + _CONTENT_HEAD_CHARS)]))
                self.content_offset = self.content_offset or start
            return
        if self.key in _FILENAME_KEYS:
            if self.first_string is None:
                self.first_string = bytes(self.data[start : min(end, start + 256)]).decode(
                    "utf-8", "replace"
                )
            if not self.filenames[-1]:
                self.filenames[-1] = self.first_string

    def _open(self, in_tree: bool) -> None:
        self._end_key()
        self.filenames.append("")
        self.key = ""
        if in_tree:
            self.parents.append(self.node)
            self.in_key, self.node = False, None

    def _close(self, in_tree: bool) -> None:
        self._end_key()
        self.key = ""
        if in_tree:
            self.in_key, self.node = False, None
            if len(self.parents) > 1:
                self.parents.pop()
        if len(self.filenames) > 1:  # else a stray brace: the parser reports it
            self.filenames.pop()

    def _array(self, count: int, start: int, end: int, in_tree: bool) -> None:
        """``*count``: check the count against the file and the limit. The key's ``{ a: ... }``
        block that follows is skipped, its values the kept node's one property."""
        if count > len(self.data):
            self._stop(
                f"an array declares {count} values in a file of {len(self.data)} bytes", start
            )
        if over_limit := self.declare_array(count * _ITEM_BYTES):
            self._stop(over_limit, start)
        if not in_tree or not self.in_key:
            return
        close = _CLOSE.search(self.data, end)
        colon = _COLON.search(self.data, end, close.start()) if close else None
        if close is None or colon is None:
            self.builder.fail(f"an array at byte {end} has no values block")
            return
        if self.node is not None and self.builder.charge(PROPERTY_COST):
            self.node.props = [ArrayRef("f8", colon.end(), close.start(), count)]
        self.skip_until = self.values_start = close.end()

    def _values(self, node: FbxNode, start: int, end: int) -> None:
        """The numbers (and bare words) between two tokens, as properties of ``node``."""
        if end - start > _LAZY_SPAN and not node.props:
            if self.builder.charge(PROPERTY_COST):
                node.props.append(ArrayRef("f8", start, end))
            return
        text = bytes(self.data[start:end])
        if self.builder.charge(PROPERTY_COST * (text.count(b",") + 1)):
            words = (item.strip() for item in text.split(b","))
            node.props += [ascii_scalar(word) for word in words if word]

    def _end_key(self) -> None:
        """Finish the key whose values were being read: check a ``Content`` blob it held."""
        self.first_string = None
        content, offset = self.content, self.content_offset
        self.content, self.content_offset = [], 0
        if not content:
            return
        encoded = re.sub(rb"[^A-Za-z0-9+/]", b"", b"".join(content))
        try:
            head = base64.b64decode(encoded[: len(encoded) // 4 * 4])
        except binascii.Error:
            return
        self.check_content(head[:CONTENT_HEAD_BYTES], self.filenames[-1], offset)

    def _stop(self, reason: str, offset: int) -> None:
        self.scan.findings.append(malformed(reason, offset))
        raise _Stop


def walk_ascii(data: memoryview, limits: Limits, keep: KeepRule) -> FbxWalk:
    """Walk the ASCII FBX in ``data``, keeping the nodes ``keep`` asks for; never raises for
    bad input."""
    return _AsciiWalk(data, limits, keep).run()
