"""The access log: one line per answered request, never with its query string, which may
hold a secret a client put there (``docs/security.md``, Keys and accounts), and the request's
metrics (``webapp.http_metrics``)."""

from __future__ import annotations

import logging

from tornado.web import RequestHandler

from assetcheck.service.webapp.http_metrics import observe_request
from assetcheck.service.webapp.request_ids import request_id_of

access_log = logging.getLogger("tornado.access")


def log_request(handler: RequestHandler) -> None:
    """Tornado's access line (status, method, path, client address, milliseconds) with the
    path alone and the request id, then the request's metrics: the application's
    ``log_function``."""
    status = handler.get_status()
    if status < 400:
        write = access_log.info
    elif status < 500:
        write = access_log.warning
    else:
        write = access_log.error
    request = handler.request
    write(
        "%d %s %s (%s) %.2fms",
        status,
        request.method,
        request.path,
        request.remote_ip,
        1000.0 * request.request_time(),
        extra={"request_id": request_id_of(request)},
    )
    observe_request(handler)
