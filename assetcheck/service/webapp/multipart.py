"""Receiving ``multipart/form-data`` uploads as they stream in, never holding the body in memory.

The ``file`` part goes straight into an :class:`~assetcheck.service.jobs.storage.UploadFile`
(written and hashed chunk by chunk); the small ``options`` part is kept in memory; other parts are
skipped. The file's size limit is enforced while it streams, so a chunked upload without a
``Content-Length`` is cut off as soon as it passes the limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

from assetcheck.issues.names import cut_name
from assetcheck.service.jobs.storage import UploadFile
from assetcheck.service.webapp.errors import RequestError

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

#: What a body may carry on top of the file itself: part headers, boundaries and options.
MULTIPART_ALLOWANCE = 64 * 1024
OPTIONS_MAX_BYTES = 16 * 1024
#: The longest header line of a part: room for a file name of thousands of characters, even
#: percent-encoded (``filename*``), which is then cut like every name a report shows.
PART_HEADER_MAX_BYTES = 32 * 1024
DEFAULT_FILENAME = "upload"

_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f]")
#: ``filename*=charset'language'percent-encoded`` (RFC 5987, RFC 6266 section 4.3).
_EXTENDED_FILENAME = re.compile(
    rb"""(?:^|;)\s*filename\*\s*=\s*"?([A-Za-z0-9!#$&+^`{}~-]*)'[^']*'([^;"\s]*)""", re.I
)
#: How python-multipart words a part header over its limits.
_HEADER_LIMIT_ERROR = "Maximum header"


def file_too_large(limit_bytes: int) -> RequestError:
    return RequestError(
        413,
        "FILE_TOO_LARGE",
        f"The file is larger than the {limit_bytes >> 20} MB your plan allows.",
    )


def missing_file(reason: str) -> RequestError:
    return RequestError(
        400,
        "MISSING_FILE",
        f"{reason}: send multipart/form-data with the upload "
        "in a part named `file` (and optional JSON in a part named `options`).",
    )


def part_headers_too_large() -> RequestError:
    return RequestError(
        400,
        "PART_HEADERS_TOO_LARGE",
        (
            "A part of the multipart body has a header line over "
            f"{PART_HEADER_MAX_BYTES >> 10} KiB or more than 8 headers: send the file with a "
            "shorter name (names are cut to 255 characters anyway)."
        ),
    )


def client_filename(raw: bytes | None) -> str:
    """The name to report for an upload: the last path segment of what the client sent,
    without control characters, cut to 255 characters like every name a report shows
    (:func:`assetcheck.issues.names.cut_name`). It never names a file on disk."""
    name = (raw or b"").decode("utf-8", errors="replace").replace("\\", "/").rsplit("/", 1)[-1]
    name = cut_name(_UNPRINTABLE.sub("", name).strip())
    return name if name not in ("", ".", "..") else DEFAULT_FILENAME


def disposition_filename(disposition: bytes | None) -> bytes | None:
    """The file name a part's ``Content-Disposition`` gives, as UTF-8: ``filename*`` (RFC 5987,
    which browsers and HTTP libraries send for names outside ASCII) when it is present and in
    UTF-8 or ISO-8859-1, else ``filename``."""
    extended = _EXTENDED_FILENAME.search(disposition or b"")
    if extended is not None and extended[1].lower() in (b"utf-8", b"iso-8859-1"):
        charset = extended[1].decode("ascii")
        return unquote(
            extended[2].decode("ascii", errors="replace"), encoding=charset, errors="replace"
        ).encode()
    return parse_options_header(disposition)[1].get(b"filename")


class MultipartUpload:
    """One request body being parsed. ``open_file`` is called once, when the ``file`` part
    starts; a file over ``max_file_bytes`` raises 413 FILE_TOO_LARGE from :meth:`feed`."""

    def __init__(
        self, content_type: str | None, open_file: Callable[[], UploadFile], max_file_bytes: int
    ) -> None:
        media_type, parameters = parse_options_header(content_type)
        boundary = parameters.get(b"boundary")
        if media_type != b"multipart/form-data" or not boundary:
            raise missing_file("The request is not multipart/form-data with a boundary")
        self.file: UploadFile | None = None
        self.filename = DEFAULT_FILENAME
        self.options: bytes | None = None
        self._open_file = open_file
        self._max_file_bytes = max_file_bytes
        self._receiving_file = False
        self._file_complete = False
        self._ended = False
        self._headers: dict[bytes, bytes] = {}
        self._header_name = b""
        self._header_value = b""
        self._sink: Callable[[memoryview], None] | None = None
        try:
            self._parser = MultipartParser(
                boundary, self._callbacks(), max_header_size=PART_HEADER_MAX_BYTES
            )
        except FormParserError as error:
            raise missing_file(f"The multipart boundary is unusable ({error})") from None

    def feed(self, chunk: bytes) -> None:
        try:
            self._parser.write(chunk)
        except FormParserError as error:
            if str(error).startswith(_HEADER_LIMIT_ERROR):
                raise part_headers_too_large() from None
            raise missing_file(f"The multipart body is malformed ({error})") from None

    def finish(self) -> UploadFile:
        """The received file, once the body is complete; 400 MISSING_FILE when there is none.
        An empty file is received: what its content is, is for the handler to judge (an empty
        one is EMPTY_FILE, as ``assetcheck validate`` says of it)."""
        if not self._ended:
            raise missing_file("The multipart body ended before its closing boundary")
        if self.file is None or not self._file_complete:
            raise missing_file("The request has no `file` part")
        return self.file

    def _callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self._part_begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value_data,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_finished,
            "on_part_data": self._part_data,
            "on_part_end": self._part_end,
            "on_end": self._end,
        }

    def _part_begin(self) -> None:
        self._headers = {}
        self._sink = None

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def _header_value_data(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _header_end(self) -> None:
        self._headers[self._header_name.strip().lower()] = self._header_value.strip()
        self._header_name = self._header_value = b""

    def _headers_finished(self) -> None:
        _, disposition = parse_options_header(self._headers.get(b"content-disposition"))
        name = disposition.get(b"name")
        if name == b"file" and self.file is None:
            self.file = self._open_file()
            self.filename = client_filename(
                disposition_filename(self._headers.get(b"content-disposition"))
            )
            self._sink = self._write_file
            self._receiving_file = True
        elif name == b"options" and self.options is None:
            self.options = b""
            self._sink = self._add_options

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._sink is not None:
            self._sink(memoryview(data)[start:end])

    def _part_end(self) -> None:
        if self._receiving_file:
            self._file_complete = True
            self._receiving_file = False
        self._sink = None

    def _end(self) -> None:
        self._ended = True

    def _write_file(self, data: memoryview) -> None:
        assert self.file is not None
        if self.file.size + len(data) > self._max_file_bytes:
            raise file_too_large(self._max_file_bytes)
        self.file.write(data)

    def _add_options(self, data: memoryview) -> None:
        assert self.options is not None
        if len(self.options) + len(data) > OPTIONS_MAX_BYTES:
            raise RequestError(
                400,
                "INVALID_OPTIONS",
                f"The options part is larger than {OPTIONS_MAX_BYTES} bytes.",
            )
        self.options += bytes(data)
