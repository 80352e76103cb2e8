"""GET /metrics: the Prometheus text of this node, off unless ``[metrics] enabled``, behind a
bearer token of its own when ``[metrics] token`` is set (never an API key)."""

from __future__ import annotations

import hmac

from prometheus_client import CONTENT_TYPE_LATEST

from assetcheck.service.observability.metrics import exposition
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import BaseHandler

METRICS_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="metrics"'}


def token_matches(authorization: str | None, token: str) -> bool:
    """Whether ``authorization`` is ``Bearer <token>``, compared in constant time."""
    scheme, _, given = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


class MetricsHandler(BaseHandler):
    """The node's recorded metrics and the figures its ``metrics_collectors`` setting reads
    now (the cluster's jobs on an API node, the node's worker processes). A 404 like any
    unknown path while metrics are off."""

    async def get(self) -> None:
        metrics = self.config.metrics
        if not metrics.enabled:
            raise RequestError(404, "NOT_FOUND", f"No endpoint at {self.request.path}.")
        if metrics.token and not token_matches(
            self.request.headers.get("Authorization"), metrics.token
        ):
            raise RequestError(
                401,
                "INVALID_METRICS_TOKEN",
                "GET /metrics needs the header `Authorization: Bearer <[metrics] token>`.",
                METRICS_CHALLENGE,
            )
        body = await self.run_blocking(exposition, self.settings["metrics_collectors"])
        self.set_header("Content-Type", CONTENT_TYPE_LATEST)
        self.set_header("Cache-Control", "no-store")
        self.finish(body)


default_handlers = [(r"/metrics", MetricsHandler)]
