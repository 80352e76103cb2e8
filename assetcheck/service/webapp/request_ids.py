"""Every answer carries the request's ``X-Request-Id`` (errors, 404s, refusals before the body
is read and static files included), and every log line the request causes names it."""

from __future__ import annotations

from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.web import OutputTransform

from assetcheck.service.observability import log_context
from assetcheck.service.observability.request_ids import REQUEST_ID_HEADER, accepted_request_id

_ATTRIBUTE = "assetcheck_request_id"


def request_id_of(request: HTTPServerRequest) -> str:
    """The request's id: the client's ``X-Request-Id`` when it is acceptable, else a new one;
    decided once per request."""
    found = getattr(request, _ATTRIBUTE, None)
    if found is None:
        found = accepted_request_id(request.headers.get(REQUEST_ID_HEADER))
        setattr(request, _ATTRIBUTE, found)
    return found


class RequestIdHeader(OutputTransform):
    """An application transform: Tornado makes one for each request, before the handler's
    task starts, so binding the log context here reaches the whole request (its task, and the
    threads ``BaseHandler.run_blocking`` starts from it); the answer's first chunk gets the
    header."""

    def __init__(self, request: HTTPServerRequest) -> None:
        self.request_id = request_id_of(request)
        log_context.bind(request_id=self.request_id, job_id=None, account_id=None)

    def transform_first_chunk(
        self, status_code: int, headers: HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, HTTPHeaders, bytes]:
        headers[REQUEST_ID_HEADER] = self.request_id
        return status_code, headers, chunk
