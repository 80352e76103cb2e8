"""The one error type every handler raises to refuse a request: the API answers it as
``{"error", "code"}`` JSON, the dashboard's pages as an HTML error page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tornado.web import HTTPError


class RequestError(HTTPError):
    """An HTTP error with a stable ``code`` for clients and a message for people;
    ``details`` are further fields of the JSON body (the figures behind a refusal)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(status)
        self.code = code
        self.message = message
        self.headers = dict(headers or {})
        self.details = dict(details or {})

    def body(self) -> dict[str, Any]:
        return {**self.details, "error": self.message, "code": self.code}
