"""The dashboard's request handlers, one module per area, and all their routes in order."""

from __future__ import annotations

from assetcheck.service.dashboard.handlers import accounts, jobs, profile, uploads, webhooks
from assetcheck.service.dashboard.handlers.base import DashboardHandler
from assetcheck.service.webapp.errors import RequestError


class PageNotFoundHandler(DashboardHandler):
    """Any path outside ``/api/`` that no route matches: an HTML 404 page."""

    async def prepare(self) -> None:
        await super().prepare()  # the page's header still knows who is logged in
        raise RequestError(404, "NOT_FOUND", "There is no page at this address.")


default_handlers = [
    *accounts.default_handlers,
    *uploads.default_handlers,
    *jobs.default_handlers,
    *profile.default_handlers,
    *webhooks.default_handlers,
    # Last: API paths keep the API's JSON 404 (the application's default handler).
    (r"/(?!api/).*", PageNotFoundHandler),
]
