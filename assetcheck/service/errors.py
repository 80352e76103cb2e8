"""The one error type API handlers raise; it becomes a ``{"error", "code"}`` JSON response."""

from __future__ import annotations

from collections.abc import Mapping

from tornado.web import HTTPError


class ApiError(HTTPError):
    """An HTTP error with a stable ``code`` for clients and a message for people."""

    def __init__(self, status: int, code: str, message: str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(status)
        self.code = code
        self.message = message
        self.headers = dict(headers or {})

    def body(self) -> dict[str, str]:
        return {"error": self.message, "code": self.code}
