"""The operations that render a job: its report in a registered format, and its badge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assetcheck.reports import ReportFormat
from assetcheck.service.api.openapi.fragments import error, job_id_parameter, retry_after
from assetcheck.service.api.openapi.responses import authenticated


def report_paths(formats: Mapping[str, ReportFormat]) -> dict:
    """The paths of the reports, for a server offering the report ``formats``."""
    return {
        "/api/v1/report/{jobId}/{format}": {"get": _report(formats)},
        "/badge/{jobId}/{token}.svg": {"get": _badge()},
    }


def _report(formats: Mapping[str, ReportFormat]) -> dict:
    return {
        "operationId": "getReport",
        "summary": "A job's report in one of the registered formats",
        "parameters": [
            job_id_parameter(),
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
                "content": _report_content(formats),
            },
            "304": _not_modified(),
            "400": error("INVALID_REPORT_FORMAT"),
            "404": error("JOB_NOT_FOUND"),
            "409": {
                **error("JOB_NOT_READY: the job is queued or processing"),
                "headers": retry_after(),
            },
            "410": error("JOB_EXPIRED: the plan's retention removed the report"),
            **authenticated(),
        },
    }


def _report_content(formats: Mapping[str, ReportFormat]) -> dict:
    """One media type per format: a JSON object for JSON formats, else a string."""
    content: dict[str, Any] = {}
    for report_format in formats.values():
        media_type = report_format.content_type.split(";")[0].strip()
        is_json = media_type == "application/json" or media_type.endswith("+json")
        content[media_type] = {"schema": {"type": "object"} if is_json else {"type": "string"}}
    return content


def _badge() -> dict:
    return {
        "operationId": "getBadge",
        "summary": "A job's SVG badge, without a key: the badge_url of a completed job",
        "security": [],
        "parameters": [
            job_id_parameter(),
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
            "404": error("NOT_FOUND: no such job, or not its token"),
        },
    }


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
