"""HTTP metrics: every answered request counts under its route's pattern (never the raw path,
which would make one time series per job id), its method and its status."""

from __future__ import annotations

from tornado.routing import PathMatches
from tornado.web import Application, RequestHandler

from assetcheck.service.observability.metrics import service_metrics

#: The route label of a request no route matched (the 404 of ``NotFoundHandler``).
UNMATCHED = "unmatched"
#: Methods the service answers; any other counts as ``other``, so the label stays bounded.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_pattern(application: Application, handler: RequestHandler) -> str:
    """The pattern of the route that matched the handler's request, as written in the
    handler lists (``/api/v1/validate/(?P<job_id>[^/]+)``), or :data:`UNMATCHED`."""
    for rule in application.wildcard_router.rules:
        matcher = rule.matcher  # a PathMatches: the handler lists give path patterns
        if (
            rule.target is type(handler)
            and isinstance(matcher, PathMatches)
            and matcher.match(handler.request) is not None
        ):
            return matcher.regex.pattern.removesuffix("$")
    return UNMATCHED


def observe_request(handler: RequestHandler) -> None:
    """Count the handler's answered request and its duration."""
    route = route_pattern(handler.application, handler)
    method = handler.request.method if handler.request.method in METHODS else "other"
    metrics = service_metrics()
    metrics.http_requests.labels(route=route, method=method, status=str(handler.get_status())).inc()
    metrics.http_duration.labels(route=route).observe(handler.request.request_time())
