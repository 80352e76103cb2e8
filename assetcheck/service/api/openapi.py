"""The OpenAPI 3.1 document of ``/api/v1``, served at ``GET /api/v1/openapi.json``.

Built at start-up from what is installed, so the ``engine`` and ``format`` enumerations list
the engine profiles and report formats the plugins of this server provide. It is exact: every
status an operation can answer is declared (those any request can get, in
:data:`ANY_OPERATION`, are added to each), an upload's ``file`` part says which content the
service takes, and links lead from an upload to its job, report and badge, so a stateful
test reaches real ids. A test runs schemathesis with all its checks and phases, stateful
included, against a live server with this document (``tests/service/test_openapi.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from assetcheck import __version__
from assetcheck.reports import ReportFormat
from assetcheck.scoring.score import GRADES
from assetcheck.service.jobs.queue import STATES
from assetcheck.service.webapp.job_views import MAX_PAGE_SIZE
from assetcheck.service.webhooks.outbox import STATES as DELIVERY_STATES
from assetcheck.service.webhooks.payload import COMPLETED, FAILED, PING

_REF = "#/components/schemas/"
_ISO = {"type": "string", "format": "date-time"}
_JOB_ID = {"type": "string", "pattern": "^val_[A-Za-z0-9]+$"}

#: How the content of an upload starts, for each built-in format (decided from the bytes,
#: never the name: ``assetcheck.formats.registry``): GLB, ZIP, binary FBX, glTF JSON (after an
#: optional byte order mark and blanks) or ASCII FBX. Anything else is 415, unless a plugin
#: registers its format (the document describes the built-in formats only).
MODEL_CONTENT_PATTERN = (
    r"^(glTF|PK\u0003\u0004|PK\u0005\u0006|Kaydara FBX Binary  \u0000|"
    r"\ufeff?[ \t\n\r\u000b\u000c]*(\{|; FBX))"
)

#: What any operation can answer, whatever it does (``docs/api.md``, Errors): status ->
#: the case. An operation's own answer of the same status keeps its description, joined.
ANY_OPERATION = {
    "400": "INVALID_CONTENT_LENGTH: a Content-Length that is not a whole number of bytes",
    "413": "BODY_TOO_LARGE: a request body over [server] max_body_kb (uploads have their "
    "plan's limit instead), refused before it is read",
    "500": "INTERNAL_ERROR: a bug",
}

#: The token of a ``badge_url``, for the links to ``getBadge``. OpenAPI's runtime expressions
#: cannot take part of a value; ``#regex:`` (one capturing group) is schemathesis's extension.
_BADGE_TOKEN = r"$response.body#/badge_url#regex:/([0-9a-f]+)\.svg$"


def openapi_document(engines: Iterable[str], formats: Mapping[str, ReportFormat]) -> dict:
    """The document for a server offering ``engines`` and report ``formats``."""
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "AssetCheck API",
            "version": __version__,
            "description": "Validate 3D assets (GLB, glTF, FBX, ZIP). See docs/api.md.",
        },
        "security": [{"bearerAuth": []}],
        "paths": {
            "/api/v1/validate": {"post": _submit(sorted(engines)), "get": _list()},
            "/api/v1/validate/{jobId}": {"get": _status(), "delete": _delete_job()},
            "/api/v1/report/{jobId}/{format}": {"get": _report(formats)},
            "/badge/{jobId}/{token}.svg": {"get": _badge()},
            "/api/v1/webhooks/deliveries": {"get": _deliveries()},
            "/api/v1/webhooks/deliveries/{deliveryId}": {"get": _delivery()},
            "/api/v1/webhooks/deliveries/{deliveryId}/redeliver": {"post": _redeliver()},
            "/api/v1/webhooks/settings": {
                "get": _webhook_settings(),
                "put": _set_webhook_settings(),
            },
            "/api/v1/webhooks/settings/rotate-secret": {"post": _rotate_secret()},
            "/api/v1/engines": {"get": _engines()},
            "/healthz": {"get": _health()},
            "/readyz": {"get": _readiness()},
            "/api/v1/openapi.json": {"get": _openapi()},
            # Operations, not clients: Prometheus metrics, behind a token of their own.
            "/metrics": {"get": _metrics()},
        },
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API key: `svc_` followed by 32 letters and digits.",
                },
                "metricsToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The `[metrics] token` of the configuration, never an API "
                    "key (none when the token is empty).",
                },
            },
            "schemas": {**_schemas(), **_storage_schemas()},
            "responses": _common_responses(),
        },
    }
    for operations in document["paths"].values():
        for operation in operations.values():
            _add_common_answers(operation["responses"])
    return document


def _add_common_answers(responses: dict) -> None:
    """Declare :data:`ANY_OPERATION` in an operation's ``responses``."""
    for status, description in ANY_OPERATION.items():
        if status not in responses:
            responses[status] = _error(description)
        elif status == "400":
            responses[status] = _error(f"{responses[status]['description']}; or {description}")


def _submit(engines: list[str]) -> dict:
    return {
        "operationId": "submitValidation",
        "summary": "Upload a file and queue its validation",
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {
                            "file": {
                                "type": "string",
                                "contentMediaType": "application/octet-stream",
                                "minLength": 1,
                                "pattern": MODEL_CONTENT_PATTERN,
                                "examples": ['{"asset": {"version": "2.0"}}'],
                                "description": "A GLB, glTF, FBX or ZIP file, told apart by how "
                                "its content starts (the pattern), never by its name.",
                            },
                            "options": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {
                                    "engine": {
                                        "type": "string",
                                        "enum": engines,
                                        "default": "generic",
                                    },
                                    "webhook_url": {
                                        "type": "string",
                                        "format": "uri",
                                        "pattern": "^https?://[^/?#]+",
                                        "maxLength": 2048,
                                    },
                                },
                            },
                        },
                    },
                    "encoding": {"options": {"contentType": "application/json"}},
                }
            },
        },
        "responses": {
            "202": {
                "description": "Queued",
                "headers": {
                    "Location": {
                        "description": "The job's status_url",
                        "schema": {"type": "string"},
                    }
                },
                "content": _json("JobCreated"),
                "links": {
                    "GetValidation": _link("getValidation", jobId="$response.body#/job_id"),
                    "GetReport": _link("getReport", jobId="$response.body#/job_id"),
                    "GetBadge": _link(
                        "getBadge", jobId="$response.body#/job_id", token=_BADGE_TOKEN
                    ),
                },
            },
            "400": _error(
                "MISSING_FILE, PART_HEADERS_TOO_LARGE, INVALID_OPTIONS, UNKNOWN_ENGINE "
                "or INVALID_WEBHOOK_URL"
            ),
            "413": _error("FILE_TOO_LARGE: over the plan's upload limit"),
            "415": _error("UNSUPPORTED_FILE_TYPE: the content is not GLB, glTF, FBX or ZIP"),
            **_authenticated(),
            "403": _quota_exceeded(),
            "503": _storage_unavailable(),
            "429": {
                **_error(
                    "RATE_LIMITED: too many requests for this account; or QUEUE_FULL: "
                    "the account already has its plan's max_queued_jobs waiting"
                ),
                "headers": _retry_after(),
            },
        },
    }


def _list() -> dict:
    return {
        "operationId": "listValidations",
        "summary": "The account's jobs, newest first",
        "parameters": [
            {"name": "status", "in": "query", "schema": {"type": "string", "enum": list(STATES)}},
            *_page_parameters(),
        ],
        "responses": {
            "200": {"description": "A page of jobs", "content": _json("JobList")},
            "400": _error("INVALID_PARAMETER"),
            **_authenticated(),
        },
    }


def _status() -> dict:
    return {
        "operationId": "getValidation",
        "summary": "A job's state, and its result once completed",
        "parameters": [_job_id_parameter()],
        "responses": {
            "200": {
                "description": "The job",
                "content": _json("JobStatus"),
                "headers": {
                    "Retry-After": {
                        "description": "While the job is queued or processing: "
                        "seconds to wait before asking again",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 30},
                    }
                },
                "links": {"GetReport": _link("getReport", jobId="$response.body#/job_id")},
            },
            "404": _error("JOB_NOT_FOUND"),
            **_authenticated(),
        },
    }


def _report(formats: Mapping[str, ReportFormat]) -> dict:
    content: dict[str, Any] = {}
    for report_format in formats.values():
        media_type = report_format.content_type.split(";")[0].strip()
        is_json = media_type == "application/json" or media_type.endswith("+json")
        content[media_type] = {"schema": {"type": "object"} if is_json else {"type": "string"}}
    return {
        "operationId": "getReport",
        "summary": "A job's report in one of the registered formats",
        "parameters": [
            _job_id_parameter(),
            {
                "name": "format",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "enum": list(formats)},
            },
            _if_none_match(),
        ],
        "responses": {
            "200": {
                "description": "The report (a failed job's explains the failure)",
                "headers": {
                    **_cache_headers(),
                    "Content-Disposition": {
                        "description": 'attachment; filename="<jobId>-report.<extension>" '
                        "for every format but an image (the badge)",
                        "schema": {"type": "string"},
                    },
                },
                "content": content,
            },
            "304": _not_modified(),
            "400": _error("INVALID_REPORT_FORMAT"),
            "404": _error("JOB_NOT_FOUND"),
            "409": {
                **_error("JOB_NOT_READY: the job is queued or processing"),
                "headers": _retry_after(),
            },
            "410": _error("JOB_EXPIRED: the plan's retention removed the report"),
            **_authenticated(),
        },
    }


def _badge() -> dict:
    return {
        "operationId": "getBadge",
        "summary": "A job's SVG badge, without a key: the badge_url of a completed job",
        "security": [],
        "parameters": [
            _job_id_parameter(),
            {
                "name": "token",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            },
            _if_none_match(),
        ],
        "responses": {
            "200": {
                "description": "The badge: grade and score, failed, or the job's state",
                "headers": _cache_headers(),
                "content": {"image/svg+xml": {"schema": {"type": "string"}}},
            },
            "304": _not_modified(),
            "404": _error("NOT_FOUND: no such job, or not its token"),
        },
    }


def _deliveries() -> dict:
    return {
        "operationId": "listWebhookDeliveries",
        "summary": "The account's webhook deliveries with their attempts, newest first",
        "parameters": _page_parameters(),
        "responses": {
            "200": {
                "description": "A page of deliveries",
                "content": _json("DeliveryList"),
                "links": {
                    "GetWebhookDelivery": _link(
                        "getWebhookDelivery", deliveryId="$response.body#/deliveries/0/delivery_id"
                    ),
                    "RedeliverWebhook": _link(
                        "redeliverWebhook", deliveryId="$response.body#/deliveries/0/delivery_id"
                    ),
                },
            },
            "400": _error("INVALID_PARAMETER"),
            **_authenticated(),
        },
    }


def _delivery() -> dict:
    return {
        "operationId": "getWebhookDelivery",
        "summary": "One webhook delivery with its attempts",
        "parameters": [_delivery_id_parameter()],
        "responses": {
            "200": {"description": "The delivery", "content": _json("Delivery")},
            "404": _error("DELIVERY_NOT_FOUND"),
            **_authenticated(),
        },
    }


def _redeliver() -> dict:
    return {
        "operationId": "redeliverWebhook",
        "summary": "Send a delivered or abandoned delivery again: a new cycle of attempts",
        "parameters": [_delivery_id_parameter()],
        "responses": {
            "202": {
                "description": "Queued again",
                "content": _json("Delivery"),
                "links": {
                    "GetWebhookDelivery": _link(
                        "getWebhookDelivery", deliveryId="$response.body#/delivery_id"
                    )
                },
            },
            "404": _error("DELIVERY_NOT_FOUND"),
            "409": _error("DELIVERY_IN_PROGRESS: its attempts are still running"),
            **_authenticated(),
            "429": _error(
                "RATE_LIMITED, or TOO_MANY_PENDING_DELIVERIES: the account "
                "has [webhooks] max_pending_per_account deliveries waiting "
                "to be sent"
            ),
        },
    }


def _webhook_settings() -> dict:
    return {
        "operationId": "getWebhookSettings",
        "summary": "The default webhook URL and the signing secret (made on first use)",
        "responses": {
            "200": {"description": "The settings", "content": _json("WebhookSettings")},
            **_authenticated(),
        },
    }


def _set_webhook_settings() -> dict:
    return {
        "operationId": "setWebhookSettings",
        "summary": "Set the default webhook URL (checked by the address guard), or remove it",
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": _object(
                        ["webhook_url"],
                        {
                            "webhook_url": {
                                "type": ["string", "null"],
                                "format": "uri",
                                "pattern": "^https?://[^/?#]+",
                                "maxLength": 2048,
                                "description": "null removes the URL",
                            }
                        },
                    )
                }
            },
        },
        "responses": {
            "200": {"description": "The settings", "content": _json("WebhookSettings")},
            "400": _error("INVALID_BODY or INVALID_WEBHOOK_URL"),
            **_authenticated(),
        },
    }


def _rotate_secret() -> dict:
    return {
        "operationId": "rotateWebhookSecret",
        "summary": "Replace the signing secret; the previous one also signs for 24 hours",
        "responses": {
            "200": {
                "description": "The settings with the new secret",
                "content": _json("WebhookSettings"),
            },
            **_authenticated(),
        },
    }


def _engines() -> dict:
    return {
        "operationId": "listEngines",
        "summary": "The engine profiles",
        "responses": {
            "200": {"description": "Engines", "content": _json("EngineList")},
            **_authenticated(),
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
                **_error(
                    "INVALID_METRICS_TOKEN: `[metrics] token` is set and the "
                    "request does not carry it"
                ),
                "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
            },
            "404": _error("NOT_FOUND: metrics are off ([metrics] enabled = false)"),
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


def _schemas() -> dict:
    job_base = {"job_id": _JOB_ID, "filename": {"type": "string"}, "created_at": _ISO}
    pending = ["job_id", "status", "progress", "filename", "created_at"]
    return {
        "Error": _object(
            ["error", "code"], {"error": {"type": "string"}, "code": {"type": "string"}}
        ),
        "JobCreated": _object(
            ["job_id", "status", "estimated_completion", "status_url", "badge_url"],
            {
                "job_id": _JOB_ID,
                "status": {"const": "queued"},
                "estimated_completion": _ISO,
                "status_url": {"type": "string", "pattern": "^/api/v1/validate/val_"},
                "badge_url": {"type": "string", "pattern": "^/badge/val_"},
            },
        ),
        "JobError": _object(
            ["code", "message"], {"code": {"type": "string"}, "message": {"type": "string"}}
        ),
        "JobPending": _object(
            pending,
            {**job_base, "status": {"enum": ["queued", "processing"]}, "progress": _progress(99)},
        ),
        "JobFailed": _object(
            [*pending, "error"],
            {
                **job_base,
                "status": {"const": "failed"},
                "progress": _progress(99),
                "error": {"$ref": _REF + "JobError"},
            },
        ),
        "JobCompleted": _object(
            ["job_id", "status", "progress", "filename", "health_score", "grade", "result"],
            {
                **job_base,
                "status": {"const": "completed"},
                "progress": {"const": 100},
                "health_score": _progress(100),
                "grade": {"enum": list(GRADES)},
                "result": {"$ref": _REF + "ValidationResult"},
                "engine": {"type": "string"},
                "valid": {"type": "boolean"},
                "completed_at": _ISO,
                "badge_url": {"type": "string", "pattern": "^/badge/val_"},
                "stored_bytes": _count(),
                "previews_withheld": {
                    "type": "array",
                    "items": _object(
                        ["file", "reason"],
                        {"file": {"type": "string"}, "reason": {"type": "string"}},
                    ),
                },
            },
        ),
        "JobStatus": {
            "oneOf": [
                {"$ref": _REF + name}
                for name in ("JobPending", "JobFailed", "JobCompleted", "JobExpired")
            ]
        },
        "JobSummary": _object(
            ["job_id", "status", "progress", "filename", "engine", "created_at"],
            {
                **job_base,
                "status": {"enum": list(STATES)},
                "progress": _progress(100),
                "engine": {"type": "string"},
                "health_score": _progress(100),
                "grade": {"enum": list(GRADES)},
                "completed_at": _ISO,
                "error": {"$ref": _REF + "JobError"},
                "expired_at": _ISO,
            },
        ),
        "JobList": _object(
            ["jobs", "next_cursor"],
            {
                "jobs": {"type": "array", "items": {"$ref": _REF + "JobSummary"}},
                "next_cursor": {"type": ["string", "null"]},
            },
        ),
        "ValidationResult": _object(
            ["meshes", "securityScan"],
            {
                "meshes": {"type": "array", "items": {"$ref": _REF + "Mesh"}},
                "securityScan": {"$ref": _REF + "SecurityScan"},
            },
        ),
        "Mesh": _object(
            [
                "filename",
                "vertexCount",
                "triangleCount",
                "materialCount",
                "usesPBR",
                "animationCount",
            ],
            {
                "filename": {"type": "string"},
                "vertexCount": _count(),
                "triangleCount": _count(),
                "materialCount": _count(),
                "usesPBR": {"type": "boolean"},
                "animationCount": _count(),
            },
        ),
        "SecurityScan": _object(
            ["safe", "scannedFiles", "warnings"],
            {
                "safe": {"type": "boolean"},
                "scannedFiles": _count(),
                "warnings": {"type": "array", "items": {"$ref": _REF + "SecurityWarning"}},
            },
        ),
        "SecurityWarning": _object(
            ["code", "severity", "message", "file"],
            {
                "code": {"type": "string"},
                "severity": {"enum": ["critical", "high", "medium", "low"]},
                "message": {"type": "string"},
                "file": {"type": ["string", "null"]},
            },
        ),
        "Delivery": _object(
            [
                "delivery_id",
                "event",
                "job_id",
                "url",
                "status",
                "created_at",
                "next_attempt_at",
                "finished_at",
                "attempts",
            ],
            {
                "delivery_id": {"type": "string", "pattern": "^dlv_[A-Za-z0-9]+$"},
                "event": {"enum": [COMPLETED, FAILED, PING]},
                "job_id": {"type": ["string", "null"]},
                "url": {"type": ["string", "null"]},
                "status": {"enum": list(DELIVERY_STATES)},
                "created_at": _ISO,
                "next_attempt_at": _nullable_iso(),
                "finished_at": _nullable_iso(),
                "attempts": {"type": "array", "items": {"$ref": _REF + "DeliveryAttempt"}},
            },
        ),
        "DeliveryAttempt": _object(
            ["cycle", "number", "started_at", "status_code", "error", "duration_ms"],
            {
                "cycle": {"type": "integer", "minimum": 1},
                "number": {"type": "integer", "minimum": 1},
                "started_at": _ISO,
                "status_code": {"type": ["integer", "null"]},
                "error": {"type": ["string", "null"]},
                "duration_ms": _count(),
            },
        ),
        "DeliveryList": _object(
            ["deliveries", "next_cursor"],
            {
                "deliveries": {"type": "array", "items": {"$ref": _REF + "Delivery"}},
                "next_cursor": {"type": ["string", "null"]},
            },
        ),
        "WebhookSettings": _object(
            ["webhook_url", "secret", "previous_secret_expires_at"],
            {
                "webhook_url": {"type": ["string", "null"]},
                "secret": {"type": "string", "pattern": "^whsec_[A-Za-z0-9+/=]+$"},
                "previous_secret_expires_at": _nullable_iso(),
            },
        ),
        "EngineList": _object(
            ["engines"],
            {
                "engines": {
                    "type": "array",
                    "items": _object(
                        ["name", "title", "budgets"],
                        {
                            "name": {"type": "string"},
                            "title": {"type": "string"},
                            "budgets": {"type": "object"},
                        },
                    ),
                }
            },
        ),
    }


def _common_responses() -> dict:
    return {
        "Unauthorized": {
            **_error(
                "MISSING_API_KEY, INVALID_API_KEY (also for a key in the "
                "query string), API_KEY_REVOKED or API_KEY_EXPIRED"
            ),
            "headers": {"WWW-Authenticate": {"schema": {"const": "Bearer"}}},
        },
        "PlanRequired": _error(
            "PLAN_REQUIRED: the account's plan has no API access (or, "
            "for webhook settings, no webhooks)"
        ),
        "RateLimited": {
            **_error("RATE_LIMITED: too many requests for this account"),
            "headers": _retry_after(),
        },
    }


def _authenticated() -> dict:
    return {
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/PlanRequired"},
        "429": {"$ref": "#/components/responses/RateLimited"},
    }


def _page_parameters() -> list[dict]:
    return [
        {
            "name": "limit",
            "in": "query",
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
        },
        {
            "name": "cursor",
            "in": "query",
            "schema": {"type": "string"},
            "description": "next_cursor of the previous page (empty: the first page); any "
            "other value is 400 INVALID_PARAMETER",
        },
    ]


def _delivery_id_parameter() -> dict:
    return {"name": "deliveryId", "in": "path", "required": True, "schema": {"type": "string"}}


def _job_id_parameter() -> dict:
    return {"name": "jobId", "in": "path", "required": True, "schema": {"type": "string"}}


def _if_none_match() -> dict:
    return {
        "name": "If-None-Match",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "An ETag of an earlier answer",
    }


def _cache_headers() -> dict:
    return {
        "ETag": {
            "description": "Strong validator of the rendered report",
            "schema": {"type": "string"},
        },
        "Cache-Control": {"schema": {"type": "string"}},
    }


def _not_modified() -> dict:
    return {
        "description": "Not modified: If-None-Match names the current ETag",
        "headers": _cache_headers(),
    }


def _retry_after() -> dict:
    return {
        "Retry-After": {
            "description": "Seconds to wait",
            "schema": {"type": "integer", "minimum": 1},
        }
    }


def _link(operation_id: str, **parameters: str) -> dict:
    return {"operationId": operation_id, "parameters": parameters}


def _error(description: str) -> dict:
    return {"description": description, "content": _json("Error")}


def _json(schema: str) -> dict:
    return {"application/json": {"schema": {"$ref": _REF + schema}}}


def _object(required: list[str], properties: dict) -> dict:
    return {"type": "object", "required": required, "properties": properties}


def _progress(maximum: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": maximum}


def _nullable_iso() -> dict:
    return {"type": ["string", "null"], "format": "date-time"}


def _count() -> dict:
    return {"type": "integer", "minimum": 0}


# Storage, retention, quotas and deletion (docs/operations.md, Object storage) -----------------


def _delete_job() -> dict:
    return {
        "operationId": "deleteValidation",
        "summary": "Delete a job and all it stored, cancelling it if it has not ended",
        "parameters": [_job_id_parameter()],
        "responses": {
            "204": {
                "description": "Deleted: the upload, previews, report and "
                "webhook deliveries are gone"
            },
            "404": _error("JOB_NOT_FOUND"),
            "503": _storage_unavailable(),
            **_authenticated(),
        },
    }


def _readiness() -> dict:
    return {
        "operationId": "readiness",
        "security": [],
        "summary": "Readiness: the database and the job storage answer",
        "responses": {
            "200": {"description": "Ready (perhaps with warnings)", "content": _json("Readiness")},
            "503": {
                "description": "A part named in checks does not answer",
                "content": _json("Readiness"),
            },
        },
    }


def _quota_exceeded() -> dict:
    return {
        "description": "PLAN_REQUIRED: the account's plan has no API access, or no "
        "webhooks (webhook_url); or "
        "QUOTA_EXCEEDED: the upload would take the account's stored uploads "
        "past its plan's max_storage_mb (with the figures)",
        "content": {
            "application/json": {
                "schema": {"oneOf": [{"$ref": _REF + "Error"}, {"$ref": _REF + "QuotaExceeded"}]}
            }
        },
    }


def _storage_unavailable() -> dict:
    return {
        **_error("STORAGE_UNAVAILABLE: the job storage cannot be reached"),
        "headers": _retry_after(),
    }


def _storage_schemas() -> dict:
    part = {"enum": ["ok", "unavailable"]}
    return {
        "JobExpired": _object(
            ["job_id", "status", "progress", "filename", "engine", "created_at", "expired_at"],
            {
                "job_id": _JOB_ID,
                "status": {"enum": ["completed", "failed"]},
                "progress": _progress(100),
                "filename": {"type": "string"},
                "engine": {"type": "string"},
                "created_at": _ISO,
                "completed_at": _ISO,
                "health_score": _progress(100),
                "grade": {"enum": list(GRADES)},
                "error": {"$ref": _REF + "JobError"},
                "expired_at": _ISO,
            },
        ),
        "QuotaExceeded": _object(
            ["error", "code", "stored_bytes", "upload_bytes", "limit_bytes"],
            {
                "error": {"type": "string"},
                "code": {"const": "QUOTA_EXCEEDED"},
                "stored_bytes": _count(),
                "upload_bytes": _count(),
                "limit_bytes": _count(),
            },
        ),
        "Readiness": _object(
            ["status", "checks"],
            {
                "status": {"enum": ["ready", "unavailable"]},
                "checks": _object(["database", "storage"], {"database": part, "storage": part}),
                "warnings": {
                    "type": "array",
                    "items": _object(
                        ["code", "message"],
                        {"code": {"const": "NO_WORKERS"}, "message": {"type": "string"}},
                    ),
                },
            },
        ),
    }
