"""``components.schemas``: the bodies the API answers with, and the upload's ``options``."""

from __future__ import annotations

import json
import re
from importlib.resources import files

from assetcheck.scoring.score import GRADES
from assetcheck.service.api.openapi.fragments import (
    ISO,
    JOB_ID,
    count,
    nullable_iso,
    object_schema,
    progress,
    schema_ref,
)
from assetcheck.service.jobs.queue import STATES
from assetcheck.service.webhooks.outbox import STATES as DELIVERY_STATES
from assetcheck.service.webhooks.payload import COMPLETED, FAILED, PING

#: The fields every job's body starts with.
_JOB_BASE = {"job_id": JOB_ID, "filename": {"type": "string"}, "created_at": ISO}
#: What a job's body holds before it ends.
_PENDING = ("job_id", "status", "progress", "filename", "created_at")


def component_schemas() -> dict:
    """Every schema, by name."""
    return {
        **_job_schemas(),
        **_job_list_schemas(),
        **_result_schemas(),
        **_webhook_schemas(),
        "EngineList": _engine_list(),
        **_storage_schemas(),
        **comparison_schemas(),
    }


def _job_schemas() -> dict:
    """An error, an upload's answer, and a job's body in each of its states."""
    return {
        "Error": object_schema(
            ["error", "code"], {"error": {"type": "string"}, "code": {"type": "string"}}
        ),
        "JobCreated": object_schema(
            ["job_id", "status", "estimated_completion", "status_url", "badge_url"],
            {
                "job_id": JOB_ID,
                "status": {"const": "queued"},
                "estimated_completion": ISO,
                "status_url": {"type": "string", "pattern": "^/api/v1/validate/val_"},
                "badge_url": {"type": "string", "pattern": "^/badge/val_"},
            },
        ),
        "JobError": object_schema(
            ["code", "message"], {"code": {"type": "string"}, "message": {"type": "string"}}
        ),
        "JobPending": object_schema(
            list(_PENDING),
            {**_JOB_BASE, "status": {"enum": ["queued", "processing"]}, "progress": progress(99)},
        ),
        "JobFailed": object_schema(
            [*_PENDING, "error"],
            {
                **_JOB_BASE,
                "status": {"const": "failed"},
                "progress": progress(99),
                "error": schema_ref("JobError"),
            },
        ),
        "JobCompleted": _job_completed(),
    }


def _job_completed() -> dict:
    return object_schema(
        ["job_id", "status", "progress", "filename", "health_score", "grade", "result"],
        {
            **_JOB_BASE,
            "status": {"const": "completed"},
            "progress": {"const": 100},
            "health_score": progress(100),
            "grade": {"enum": list(GRADES)},
            "result": schema_ref("ValidationResult"),
            "engine": {"type": "string"},
            "valid": {"type": "boolean"},
            "completed_at": ISO,
            "badge_url": {"type": "string", "pattern": "^/badge/val_"},
            "stored_bytes": count(),
            "comparison": schema_ref("Comparison"),
            "previews_withheld": {
                "type": "array",
                "items": object_schema(
                    ["file", "reason"],
                    {"file": {"type": "string"}, "reason": {"type": "string"}},
                ),
            },
        },
    )


def _job_list_schemas() -> dict:
    """A job's status in any state, and a page of job summaries."""
    return {
        "JobStatus": {
            "oneOf": [
                schema_ref(name)
                for name in ("JobPending", "JobFailed", "JobCompleted", "JobExpired")
            ]
        },
        "JobSummary": object_schema(
            ["job_id", "status", "progress", "filename", "engine", "created_at"],
            {
                **_JOB_BASE,
                "status": {"enum": list(STATES)},
                "progress": progress(100),
                "engine": {"type": "string"},
                "health_score": progress(100),
                "grade": {"enum": list(GRADES)},
                "completed_at": ISO,
                "error": schema_ref("JobError"),
                "expired_at": ISO,
            },
        ),
        "JobList": object_schema(
            ["jobs", "next_cursor"],
            {
                "jobs": {"type": "array", "items": schema_ref("JobSummary")},
                "next_cursor": {"type": ["string", "null"]},
            },
        ),
    }


def _result_schemas() -> dict:
    """A completed job's ``result``: its meshes and its security scan."""
    return {
        "ValidationResult": object_schema(
            ["meshes", "securityScan"],
            {
                "meshes": {"type": "array", "items": schema_ref("Mesh")},
                "securityScan": schema_ref("SecurityScan"),
            },
        ),
        "Mesh": object_schema(
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
                "vertexCount": count(),
                "triangleCount": count(),
                "materialCount": count(),
                "usesPBR": {"type": "boolean"},
                "animationCount": count(),
            },
        ),
        "SecurityScan": object_schema(
            ["safe", "scannedFiles", "warnings"],
            {
                "safe": {"type": "boolean"},
                "scannedFiles": count(),
                "warnings": {"type": "array", "items": schema_ref("SecurityWarning")},
            },
        ),
        "SecurityWarning": object_schema(
            ["code", "severity", "message", "file"],
            {
                "code": {"type": "string"},
                "severity": {"enum": ["critical", "high", "medium", "low"]},
                "message": {"type": "string"},
                "file": {"type": ["string", "null"]},
            },
        ),
    }


#: The report schema's definitions of a comparison, by the name they have as components.
_COMPARISON_DEFINITIONS = {
    "comparison": "Comparison",
    "comparedFile": "ComparedFile",
    "comparedFinding": "ComparedFinding",
    "budgetUse": "BudgetUse",
}


def comparison_schemas() -> dict:
    """A comparison (the diff document, ``docs/diff.md``) and its parts, as the JSON report's
    schema defines them (``assetcheck/reports/report.schema.json``), with its references
    made references to components."""
    text = files("assetcheck.reports").joinpath("report.schema.json").read_text()
    definitions = json.loads(text)["$defs"]
    chosen = json.dumps({name: definitions[name] for name in _COMPARISON_DEFINITIONS})
    as_components = re.sub(
        r'"#/\$defs/(\w+)"',
        lambda found: json.dumps("#/components/schemas/" + _COMPARISON_DEFINITIONS[found[1]]),
        chosen,
    )
    return {
        _COMPARISON_DEFINITIONS[name]: schema for name, schema in json.loads(as_components).items()
    }


def _webhook_schemas() -> dict:
    """A webhook delivery with its attempts, a page of them, and the webhook settings."""
    return {
        "Delivery": _delivery(),
        "DeliveryAttempt": object_schema(
            ["cycle", "number", "started_at", "status_code", "error", "duration_ms"],
            {
                "cycle": {"type": "integer", "minimum": 1},
                "number": {"type": "integer", "minimum": 1},
                "started_at": ISO,
                "status_code": {"type": ["integer", "null"]},
                "error": {"type": ["string", "null"]},
                "duration_ms": count(),
            },
        ),
        "DeliveryList": object_schema(
            ["deliveries", "next_cursor"],
            {
                "deliveries": {"type": "array", "items": schema_ref("Delivery")},
                "next_cursor": {"type": ["string", "null"]},
            },
        ),
        "WebhookSettings": object_schema(
            ["webhook_url", "secret", "previous_secret_expires_at"],
            {
                "webhook_url": {"type": ["string", "null"]},
                "secret": {"type": "string", "pattern": "^whsec_[A-Za-z0-9+/=]+$"},
                "previous_secret_expires_at": nullable_iso(),
            },
        ),
    }


def _delivery() -> dict:
    return object_schema(
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
            "created_at": ISO,
            "next_attempt_at": nullable_iso(),
            "finished_at": nullable_iso(),
            "attempts": {"type": "array", "items": schema_ref("DeliveryAttempt")},
        },
    )


def _engine_list() -> dict:
    return object_schema(
        ["engines"],
        {
            "engines": {
                "type": "array",
                "items": object_schema(
                    ["name", "title", "budgets"],
                    {
                        "name": {"type": "string"},
                        "title": {"type": "string"},
                        "budgets": {"type": "object"},
                    },
                ),
            }
        },
    )


def _storage_schemas() -> dict:
    """What storage, retention and quotas add (``docs/operations.md``, Object storage): an
    expired job, an upload over the quota, and the readiness of the database and storage."""
    part = {"enum": ["ok", "unavailable"]}
    return {
        "JobExpired": object_schema(
            ["job_id", "status", "progress", "filename", "engine", "created_at", "expired_at"],
            {
                "job_id": JOB_ID,
                "status": {"enum": ["completed", "failed"]},
                "progress": progress(100),
                "filename": {"type": "string"},
                "engine": {"type": "string"},
                "created_at": ISO,
                "completed_at": ISO,
                "health_score": progress(100),
                "grade": {"enum": list(GRADES)},
                "error": schema_ref("JobError"),
                "expired_at": ISO,
            },
        ),
        "QuotaExceeded": object_schema(
            ["error", "code", "stored_bytes", "upload_bytes", "limit_bytes"],
            {
                "error": {"type": "string"},
                "code": {"const": "QUOTA_EXCEEDED"},
                "stored_bytes": count(),
                "upload_bytes": count(),
                "limit_bytes": count(),
            },
        ),
        "Readiness": object_schema(
            ["status", "checks"],
            {
                "status": {"enum": ["ready", "unavailable"]},
                "checks": object_schema(
                    ["database", "storage"], {"database": part, "storage": part}
                ),
                "warnings": {
                    "type": "array",
                    "items": object_schema(
                        ["code", "message"],
                        {"code": {"const": "NO_WORKERS"}, "message": {"type": "string"}},
                    ),
                },
            },
        ),
    }
