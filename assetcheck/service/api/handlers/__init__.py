"""The API's request handlers, one module per area, and all their routes in order."""

from __future__ import annotations

from assetcheck.service.api.handlers import (
    compare,
    jobs,
    meta,
    metrics,
    reports,
    webhook_settings,
    webhooks,
)

default_handlers = [
    *meta.default_handlers,
    *metrics.default_handlers,
    *jobs.default_handlers,
    *compare.default_handlers,
    *reports.default_handlers,
    *webhooks.default_handlers,
    *webhook_settings.default_handlers,
]
