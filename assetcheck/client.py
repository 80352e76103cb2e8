"""A small typed client of the AssetCheck HTTP API (``docs/api.md``), for scripts and tools.

Standard library only (``http.client``), so importing it costs nothing and needs nothing::

    from assetcheck.client import Client

    client = Client("http://127.0.0.1:8080", os.environ["ASSETCHECK_API_KEY"])
    job = client.wait(client.submit("model.glb", engine="web").job_id)
    print(job.grade, client.report(job.job_id, "markdown").text())

Every refusal of the service raises :class:`ApiError` with its status, ``code`` and message
(``{"error", "code"}``); a service that cannot be reached raises :class:`ConnectionFailed`.
The key is sent only in the ``Authorization`` header and never appears in an error.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from assetcheck import __version__

#: States after which a job never changes.
FINAL_STATES = ("completed", "failed")
#: Seconds between polls when the service gives no ``Retry-After``.
DEFAULT_POLL_SECONDS = 1.0
_CHUNK_BYTES = 1 << 20


class ClientError(Exception):
    """Anything that kept a request from getting the answer it asked for."""


class ConnectionFailed(ClientError):
    """The service could not be reached, or the connection broke before the answer."""


class WaitTimedOut(ClientError):
    """:meth:`Client.wait` gave up: the job had not ended within the time allowed."""


class ApiError(ClientError):
    """The service refused the request: ``status`` (HTTP), ``code`` (stable, for programs:
    ``FILE_TOO_LARGE``, ``JOB_NOT_FOUND``...), ``message`` (for people) and, when the service
    gave one, ``retry_after`` in seconds."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{message} ({status} {code})")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class JobCreated:
    """The answer to an upload: the new job's id and where to poll it."""

    job_id: str
    status: str
    estimated_completion: str
    status_url: str
    #: The job's public badge (no key needed): its state now, its grade once it ends.
    badge_url: str


@dataclass(frozen=True)
class JobStatus:
    """One answer of ``GET /api/v1/validate/{jobId}``: the fields of ``docs/api.md`` in
    ``body``, the common ones as attributes, and the service's polling hint."""

    body: dict[str, Any]
    #: Seconds the service asks a client to wait before polling again (queued, processing).
    retry_after: float | None = None

    @property
    def job_id(self) -> str:
        return self.body["job_id"]

    @property
    def status(self) -> str:
        return self.body["status"]

    @property
    def finished(self) -> bool:
        return self.status in FINAL_STATES

    @property
    def valid(self) -> bool | None:
        """Whether a completed validation found no error; None until then, and for a failed job."""
        return self.body.get("valid")

    @property
    def health_score(self) -> int | None:
        return self.body.get("health_score")

    @property
    def grade(self) -> str | None:
        return self.body.get("grade")

    @property
    def error(self) -> dict[str, str] | None:
        """A failed job's ``{"code", "message"}``."""
        return self.body.get("error")


@dataclass(frozen=True)
class Report:
    """A rendered report, as the service sent it."""

    format: str
    content_type: str
    content: bytes = field(repr=False)

    def text(self) -> str:
        return self.content.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.content)


class Client:
    """The API of the service at ``url`` (``http://host:port``, optionally with a path prefix
    behind a proxy), acting with ``api_key``. ``timeout`` bounds each request in seconds."""

    def __init__(self, url: str, api_key: str, *, timeout: float = 60.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ClientError(f"{url!r} is not an http:// or https:// URL of a service")
        self._scheme = parts.scheme
        self._netloc = parts.netloc
        self._prefix = parts.path.rstrip("/")
        self._key = api_key
        self.timeout = timeout

    def submit(
        self,
        path: str | os.PathLike[str],
        *,
        engine: str | None = None,
        webhook_url: str | None = None,
        filename: str | None = None,
        dimensions: Mapping[str, float] | None = None,
    ) -> JobCreated:
        """Upload the file at ``path`` (streamed, never read whole into memory) and queue its
        validation. ``filename`` is the name the service reports (default: the file's own);
        ``dimensions`` the product's ``width``, ``height`` and ``depth`` in metres, any of
        them, which the model must match (``docs/scale.md``)."""
        path = Path(path)
        given = (("engine", engine), ("webhook_url", webhook_url), ("dimensions", dimensions))
        options: dict[str, Any] = {k: v for k, v in given if v}
        upload = _MultipartFile(path, filename or path.name, options)
        status, headers, body = self._request(
            "POST",
            "/api/v1/validate",
            body=upload.chunks(),
            headers={"Content-Type": upload.content_type, "Content-Length": str(upload.length)},
        )
        answer = _json_body(status, headers, body)
        return JobCreated(
            answer["job_id"],
            answer["status"],
            answer["estimated_completion"],
            answer["status_url"],
            answer["badge_url"],
        )

    def job(self, job_id: str) -> JobStatus:
        """The job's state now."""
        status, headers, body = self._request("GET", f"/api/v1/validate/{quote(job_id, safe='')}")
        return JobStatus(_json_body(status, headers, body), _retry_after(headers))

    def wait(
        self,
        job_id: str,
        *,
        timeout: float | None = None,
        on_poll: Callable[[JobStatus], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> JobStatus:
        """Poll the job until it is completed or failed, at the pace its ``Retry-After`` asks
        for; a 429 RATE_LIMITED waits as long as it says, then polls again. ``on_poll`` sees
        every answer; :class:`WaitTimedOut` after ``timeout`` seconds (None: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                job = self.job(job_id)
            except ApiError as error:
                if error.code != "RATE_LIMITED":
                    raise
                pause = error.retry_after or DEFAULT_POLL_SECONDS
            else:
                if on_poll is not None:
                    on_poll(job)
                if job.finished:
                    return job
                pause = job.retry_after or DEFAULT_POLL_SECONDS
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WaitTimedOut(f"job {job_id} had not ended after {timeout:g} s")
                pause = min(pause, left)
            sleep(pause)

    def report(self, job_id: str, format: str = "json") -> Report:
        """The report of an ended job in ``format`` (a name of :meth:`report_formats`)."""
        status, headers, body = self._request(
            "GET", f"/api/v1/report/{quote(job_id, safe='')}/{quote(format, safe='')}"
        )
        if status != 200:
            _json_body(status, headers, body)  # raises the service's error
        return Report(format, headers.get("Content-Type", ""), body)

    def engines(self) -> list[dict[str, Any]]:
        """The engine profiles the ``engine`` option may name, with their budgets."""
        status, headers, body = self._request("GET", "/api/v1/engines")
        return _json_body(status, headers, body)["engines"]

    def report_formats(self) -> list[str]:
        """The report formats this service renders (its plugins may add some), from its
        OpenAPI document."""
        status, headers, body = self._request("GET", "/api/v1/openapi.json")
        operation = _json_body(status, headers, body)["paths"]["/api/v1/report/{jobId}/{format}"][
            "get"
        ]
        return next(p["schema"]["enum"] for p in operation["parameters"] if p["name"] == "format")

    def _request(
        self, method: str, path: str, *, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        connection_class = (
            http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        )
        connection = connection_class(self._netloc, timeout=self.timeout)
        sent = {
            "Authorization": f"Bearer {self._key}",
            "Accept": "application/json, */*",
            "User-Agent": f"assetcheck-client/{__version__}",
            **(headers or {}),
        }
        try:
            # A refusal sent before the whole body was taken (QUEUE_FULL) is read below.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                connection.request(method, self._prefix + path, body=body, headers=sent)
            response = connection.getresponse()
            return response.status, response.headers, response.read()
        except (OSError, http.client.HTTPException) as error:
            reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
            raise ConnectionFailed(
                f"cannot reach {self._scheme}://{self._netloc}: {reason}"
            ) from None
        finally:
            connection.close()


class _MultipartFile:
    """The ``multipart/form-data`` body of an upload: the ``options`` part, then the file,
    streamed from disk. The name goes in ``filename`` (ASCII, for any server) and, when it is
    not ASCII, in ``filename*`` (RFC 5987) too."""

    def __init__(self, path: Path, filename: str, options: dict[str, Any]) -> None:
        self.path = path
        boundary = f"assetcheck-{secrets.token_hex(16)}"
        self.content_type = f"multipart/form-data; boundary={boundary}"
        head = b""
        if options:
            head += (
                f'--{boundary}\r\nContent-Disposition: form-data; name="options"\r\n'
                "Content-Type: application/json\r\n\r\n"
            ).encode()
            head += json.dumps(options).encode() + b"\r\n"
        head += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f"{_filename_parameters(filename)}\r\n"
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        self.head = head
        self.tail = f"\r\n--{boundary}--\r\n".encode()
        self.length = len(head) + path.stat().st_size + len(self.tail)

    def chunks(self) -> Iterator[bytes]:
        yield self.head
        with self.path.open("rb") as file:
            while chunk := file.read(_CHUNK_BYTES):
                yield chunk
        yield self.tail


def _filename_parameters(name: str) -> str:
    ascii_name = name.encode("ascii", "replace").decode().replace("\\", "_").replace('"', "_")
    ascii_name = "".join(c if c.isprintable() else "_" for c in ascii_name)
    if ascii_name == name:
        return f'filename="{name}"'
    return f"filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def _retry_after(headers: http.client.HTTPMessage) -> float | None:
    """``Retry-After`` in seconds (the service sends whole seconds), or None."""
    value = (headers.get("Retry-After") or "").strip()
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _json_body(status: int, headers: http.client.HTTPMessage, body: bytes) -> Any:
    """The JSON of a successful answer; :class:`ApiError` for any other."""
    try:
        parsed = json.loads(body) if body else None
    except (ValueError, UnicodeDecodeError):
        parsed = None
    if 200 <= status < 300 and parsed is not None:
        return parsed
    if isinstance(parsed, dict) and isinstance(parsed.get("code"), str):
        raise ApiError(status, parsed["code"], str(parsed.get("error", "")), _retry_after(headers))
    reason = http.client.responses.get(status, "unexpected answer")
    raise ApiError(
        status,
        f"HTTP_{status}",
        f"The service answered {status} {reason} "
        "without an AssetCheck error body: is the URL the service's root?",
        _retry_after(headers),
    )
