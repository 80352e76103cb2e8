"""The operations about the service itself: engine profiles, health, this document, metrics."""

from __future__ import annotations

from assetcheck.service.api.openapi.fragments import error, json_content
from assetcheck.service.api.openapi.responses import authenticated


def service_paths() -> dict:
    return {
        "/api/v1/engines": {"get": _engines()},
        "/healthz": {"get": _health()},
        "/readyz": {"get": _readiness()},
        "/api/v1/openapi.json": {"get": _openapi()},
        # Operations, not clients: Prometheus metrics, behind a token of their own.
        "/metrics": {"get": _metrics()},
    }


def _engines() -> dict:
    return {
        "operationId": "listEngines",
        "summary": "The engine profiles",
        "responses": {
            "200": {"description": "Engines", "content": json_content("EngineList")},
            **authenticated(),
        },
    }


def _health() -> dict:
    return {
        "operationId": "health",
        "summary": "Liveness: the process answers",
        "security": [],
        "responses": {
            "200": {
                "description": "Alive",
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["status"],
                            "properties": {"status": {"const": "ok"}},
                        }
                    }
                },
            }
        },
    }


def _readiness() -> dict:
    return {
        "operationId": "readiness",
        "security": [],
        "summary": "Readiness: the database and the job storage answer",
        "responses": {
            "200": {
                "description": "Ready (perhaps with warnings)",
                "content": json_content("Readiness"),
            },
            "503": {
                "description": "A part named in checks does not answer",
                "content": json_content("Readiness"),
            },
        },
    }


def _openapi() -> dict:
    return {
        "operationId": "openapi",
        "summary": "This document",
        "security": [],
        "responses": {
            "200": {
                "description": "OpenAPI 3.1",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    }


def _metrics() -> dict:
    return {
        "operationId": "metrics",
        "summary": "Prometheus metrics of this node",
        "description": "Off unless `[metrics] enabled` (then 404, like any unknown path). "
        "See docs/operations.md, Metrics.",
        "security": [{"metricsToken": []}, {}],
        "responses": {
            "200": {
                "description": "The Prometheus text exposition format",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
            "401": {
                **error(
                    "INVALID_METRICS_TOKEN: `[metrics] token` is set and the "
                    "request does not carry it"
                ),
                "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
            },
            "404": error("NOT_FOUND: metrics are off ([metrics] enabled = false)"),
        },
    }
