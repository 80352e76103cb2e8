"""How every process of the service writes its log: one line per record on stderr, as text
(the default) or as one JSON object (``[logging] format = "json"``), with the log context and
with every secret-shaped token redacted (``docs/operations.md``, Logs)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from assetcheck.jobs.redaction import install_redaction
from assetcheck.observability.log_context import FIELDS, LogContext

TEXT_FORMAT = ("%(asctime)s %(levelname)s [%(processName)s] %(name)s: %(message)s"
               "%(context_text)s")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``time`` (ISO 8601 UTC), ``level``, ``logger``,
    ``message``, ``process``, the log context's ``request_id``, ``job_id`` and ``account_id``
    (null when unset), and ``exception`` when the record has a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        entry = {"time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                 "level": record.levelname, "logger": record.name,
                 "message": record.getMessage(), "process": record.processName,
                 **{name: getattr(record, name, None) for name in FIELDS}}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup_process_logging(log_format: str = "text", level: int = logging.INFO) -> None:
    """Log records of every logger on stderr in ``log_format`` (``text`` or ``json``),
    with the log context, and with secrets redacted: in every process of the service."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json"
                         else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(LogContext())
    logging.basicConfig(level=level, handlers=[handler])
    install_redaction()
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
