"""The whole document: its paths, components and the answers every operation can give."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from assetcheck import __version__
from assetcheck.reports import ReportFormat
from assetcheck.service.api.openapi.fragments import error
from assetcheck.service.api.openapi.job_paths import job_paths
from assetcheck.service.api.openapi.report_paths import report_paths
from assetcheck.service.api.openapi.responses import common_responses
from assetcheck.service.api.openapi.schemas import component_schemas
from assetcheck.service.api.openapi.service_paths import service_paths
from assetcheck.service.api.openapi.webhook_paths import webhook_paths

#: What any operation can answer, whatever it does (``docs/api.md``, Errors): status ->
#: the case. An operation's own answer of the same status keeps its description, joined.
ANY_OPERATION = {
    "400": "INVALID_CONTENT_LENGTH: a Content-Length that is not a whole number of bytes",
    "413": "BODY_TOO_LARGE: a request body over [server] max_body_kb (uploads have their "
    "plan's limit instead), refused before it is read",
    "500": "INTERNAL_ERROR: a bug",
}

SECURITY_SCHEMES = {
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
}


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
            **job_paths(sorted(engines)),
            **report_paths(formats),
            **webhook_paths(),
            **service_paths(),
        },
        "components": {
            "securitySchemes": SECURITY_SCHEMES,
            "schemas": component_schemas(),
            "responses": common_responses(),
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
            responses[status] = error(description)
        elif status == "400":
            responses[status] = error(f"{responses[status]['description']}; or {description}")
