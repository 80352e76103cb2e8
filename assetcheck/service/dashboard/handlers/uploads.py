"""``POST /uploads``: the dashboard's uploads, through the same upload handler as the API's."""

from __future__ import annotations

from tornado.web import stream_request_body

from assetcheck.service.dashboard.handlers.base import SessionAuthentication
from assetcheck.service.webapp import uploads


@stream_request_body
class UploadHandler(SessionAuthentication, uploads.UploadHandler):
    """Exactly ``POST /api/v1/validate`` (streamed to disk, the plan's size limit enforced as
    the body arrives, the type decided by content, the same queue and the same JSON answers),
    acting for the session's account instead of an API key, so every plan can upload.

    The page's script sends one request per file, with the XSRF token in a header.
    """

    SUPPORTED_METHODS = ("POST",)


default_handlers = [
    (r"/uploads", UploadHandler),
]
