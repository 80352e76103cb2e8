"""Webhook event bodies (``docs/webhooks.md``, Events), serialised once.

The signatures cover the exact bytes, so the outbox stores what these functions return and
sends the same bytes on every retry. ``validation.failed`` is AssetCheck's documented extension
for a job that ends ``failed``, and ``ping`` the test event a user sends to check a receiver.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

COMPLETED = "validation.completed"
FAILED = "validation.failed"
PING = "ping"


def completed_event(job_id: str, report: Mapping[str, Any]) -> bytes:
    """``{"event": "validation.completed", "job_id", "result": {valid, health_score, grade,
    meshes, securityScan}}`` from a stored JSON report (see ``assetcheck.reports.document``);
    ``result.comparison`` too when the job was compared with a baseline job."""
    result = {
        "valid": report["valid"],
        "health_score": report["health_score"],
        "grade": report["grade"],
        "meshes": report["result"]["meshes"],
        "securityScan": report["result"]["securityScan"],
    }
    if "comparison" in report:
        result["comparison"] = report["comparison"]
    return _serialise({"event": COMPLETED, "job_id": job_id, "result": result})


def failed_event(job_id: str, code: str, message: str) -> bytes:
    """``{"event": "validation.failed", "job_id", "error": {"code", "message"}}``."""
    return _serialise(
        {"event": FAILED, "job_id": job_id, "error": {"code": code, "message": message}}
    )


def ping_event() -> bytes:
    """``{"event": "ping", "job_id": null}``: no job, so nothing for a receiver to dedupe; the
    key is there for receivers that read ``job_id`` before looking at the event."""
    return _serialise({"event": PING, "job_id": None})


def _serialise(event: Mapping[str, Any]) -> bytes:
    # ASCII-only, compact JSON; NaN is refused because receivers' JSON parsers would be.
    return json.dumps(event, separators=(",", ":"), allow_nan=False).encode("ascii")
