"""The one error type every handler raises to refuse a request: the API answers it as
``{"error", "code"}`` JSON, the dashboard's pages as an HTML error page."""

from __future__ import annotations

from collections.abc import Mapping

from tornado.web import HTTPError


class RequestError(HTTPError):
    """An HTTP error with a stable ``code`` for clients and a message for people."""

    def __init__(self, status: int, code: str, message: str,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(status)
        self.code = code
        self.message = message
        self.headers = dict(headers or {})

    def body(self) -> dict[str, str]:
        return {"error": self.message, "code": self.code}
