"""What the service offers: liveness and readiness, engine profiles and the OpenAPI
document."""

from __future__ import annotations

import logging
from collections.abc import Callable

from assetcheck.service.api.handlers.base import ApiHandler
from assetcheck.service.webapp.handlers import BaseHandler

log = logging.getLogger(__name__)


class HealthHandler(BaseHandler):
    """GET /healthz, without a key: liveness. 200 while the process serves requests, whatever
    its database or storage do (``/readyz`` tells those): restarting it would not help."""

    def get(self) -> None:
        self.write_json({"status": "ok"})


class ReadinessHandler(BaseHandler):
    """GET /readyz, without a key: 200 when the database and the job storage answer, 503
    naming the part that does not. A node that takes uploads but runs no workers (``[workers]
    processes = 0``) is ready, with a warning: its jobs wait for workers elsewhere. Why a part
    failed is logged, never answered (the probe needs no key)."""

    async def get(self) -> None:
        checks = {
            "database": await self._probe("database", self._ping_database),
            "storage": await self._probe("storage", self.storage.check),
        }
        ready = all(state == "ok" for state in checks.values())
        body: dict = {"status": "ready" if ready else "unavailable", "checks": checks}
        if self.settings["worker_processes"] == 0:
            body["warnings"] = [
                {
                    "code": "NO_WORKERS",
                    "message": (
                        "This node accepts uploads but runs no worker processes ([workers] "
                        "processes = 0): its jobs are validated only if another node runs "
                        "workers."
                    ),
                }
            ]
        self.write_json(body, 200 if ready else 503)

    def _ping_database(self) -> None:
        self.queue.database.execute_sql("SELECT 1")

    async def _probe(self, part: str, check: Callable[[], None]) -> str:
        try:
            await self.run_blocking(check)
        except Exception as error:  # whatever the driver raises, the part is not ready
            log.warning("readiness: the %s is unavailable: %s", part, error)
            return "unavailable"
        return "ok"


class EnginesHandler(ApiHandler):
    """GET /api/v1/engines: the engine profiles a job's ``engine`` option may name."""

    def get(self) -> None:
        self.write_json(
            {
                "engines": [
                    {"name": p.name, "title": p.title, "budgets": p.budgets.to_dict()}
                    for p in self.engines.values()
                ]
            }
        )


class OpenApiHandler(BaseHandler):
    """GET /api/v1/openapi.json, without a key: the OpenAPI 3.1 document of this API."""

    def get(self) -> None:
        self.write_json(self.settings["openapi_document"])


default_handlers = [
    (r"/healthz", HealthHandler),
    (r"/readyz", ReadinessHandler),
    (r"/api/v1/engines", EnginesHandler),
    (r"/api/v1/openapi.json", OpenApiHandler),
]
