"""What the service offers: health, engine profiles and the OpenAPI document."""

from __future__ import annotations

from assetcheck.service.handlers.base import ApiHandler
from assetcheck.webapp.errors import RequestError
from assetcheck.webapp.handlers import BaseHandler


class HealthHandler(BaseHandler):
    """GET /healthz, without a key: 200 when the database answers, 503 otherwise."""

    async def get(self) -> None:
        try:
            await self.run_blocking(self.queue.database.execute_sql, "SELECT 1")
        except Exception as error:
            raise RequestError(503, "SERVICE_UNAVAILABLE",
                               f"The database does not answer: {type(error).__name__}.") from None
        self.write_json({"status": "ok"})


class EnginesHandler(ApiHandler):
    """GET /api/v1/engines: the engine profiles a job's ``engine`` option may name."""

    def get(self) -> None:
        self.write_json({"engines": [
            {"name": p.name, "title": p.title, "budgets": p.budgets.to_dict()}
            for p in self.engines.values()
        ]})


class OpenApiHandler(BaseHandler):
    """GET /api/v1/openapi.json, without a key: the OpenAPI 3.1 document of this API."""

    def get(self) -> None:
        self.write_json(self.settings["openapi_document"])


default_handlers = [
    (r"/healthz", HealthHandler),
    (r"/api/v1/engines", EnginesHandler),
    (r"/api/v1/openapi.json", OpenApiHandler),
]
